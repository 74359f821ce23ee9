"""Heads-up brackets (FMT-12): the draw with byes, best two of three, places, no-shows and
replacements (scenario 34), final-day lateness (scenario 35), next-group priority (scenario 36)."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.formats.models import Bracket, Match, MatchGame, QualifiedEntry, SeatRequest
from tournaments.formats.selectors import bracket_data, match_data, public_bracket, round_name, rounds_being_decided
from tournaments.formats.services import headsup
from tournaments.models import Entry, LedgerRow, Tournament

from .conftest import bust

pytestmark = pytest.mark.django_db

T0 = timezone.now().replace(microsecond=0)


@pytest.fixture
def heads_up(make_tournament, actor):
    def make(size=16, **kw):
        t = make_tournament(
            format=Tournament.HEADS_UP, starting_stack=10000, table_size=2, name=kw.pop("name", "Heads-up Day 1"), start_at=kw.pop("start_at", T0)
        )
        headsup.create_bracket(t, actor=actor, size=size, **kw)
        return t

    return make


def play(match, winner, actor, now):
    """Both players sit, the clock starts and ``winner`` takes two games."""
    m = Match.objects.get(pk=match.pk)
    if m.status == Match.READY:
        headsup.start_match(m, actor=actor, now=now)
    for side in ("a", "b"):
        if getattr(m, f"{side}_seated_at") is None:
            headsup.seat_player(m, getattr(m, f"player_{side}"), actor=actor, now=now)
    for _ in range(2):
        headsup.record_game(m, winner, actor=actor, now=now)
    return Match.objects.get(pk=m.pk)


def test_a_16_player_bracket_from_registration_to_the_champion(heads_up, field, actor):
    t = heads_up(size=16)
    entries = field(t, 16)
    headsup.draw_bracket(t, actor=actor, seeds=[entries[0].pk], now=T0)
    t.refresh_from_db()
    assert t.status == Tournament.RUNNING
    assert Match.objects.filter(bracket=t.bracket).count() == 15
    first = Match.objects.get(bracket=t.bracket, round=1, position=0)
    assert first.player_a_id == entries[0].pk  # the top seed sits at table 1
    now = T0
    for round_no in range(1, 5):
        for m in Match.objects.filter(bracket=t.bracket, round=round_no).order_by("position"):
            now += timedelta(minutes=1)
            done = play(m, m.player_a, actor, now)
            assert done.status == Match.DONE and done.winner_id == m.player_a_id and (done.a_wins, done.b_wins) == (2, 0)
    t.refresh_from_db()
    assert t.status == Tournament.FINISHED
    places = sorted(t.entries.values_list("place", flat=True))
    assert places == [1, 2, 3, 3, 5, 5, 5, 5] + [9] * 8
    assert Entry.objects.get(pk=entries[0].pk).place == 1
    assert MatchGame.objects.filter(match__bracket=t.bracket).count() == 30
    assert t.events.filter(action="formats.match.game_recorded").count() == 30


def test_byes_for_the_top_seeds_and_a_game_split(heads_up, field, actor):
    t = heads_up(size=16)
    es = field(t, 13)
    headsup.draw_bracket(t, actor=actor, seeds=[e.pk for e in es[:3]], now=T0)
    byes = Match.objects.filter(bracket=t.bracket, round=1, result=Match.BYE)
    assert sorted(m.winner_id for m in byes) == sorted(e.pk for e in es[:3])
    r2 = Match.objects.get(bracket=t.bracket, round=2, position=0)
    assert r2.player_a_id == es[0].pk and r2.player_b_id is None  # seed 1 waits for the winner of 8 v 9
    m = Match.objects.filter(bracket=t.bracket, round=1, status=Match.READY).first()
    headsup.start_match(m, actor=actor, now=T0)
    headsup.seat_player(m, m.player_a, actor=actor, now=T0)
    with pytest.raises(DomainError) as e:
        headsup.record_game(m, m.player_a, actor=actor, now=T0)
    assert e.value.code == "player_absent"
    headsup.seat_player(m, m.player_b, actor=actor, now=T0)
    headsup.record_game(m, m.player_a, actor=actor, now=T0 + timedelta(minutes=20))
    m = headsup.record_game(m, m.player_b, actor=actor, now=T0 + timedelta(minutes=40))
    assert (m.a_wins, m.b_wins, m.status) == (1, 1, Match.PLAYING)
    assert m.clock_started_at == T0 + timedelta(minutes=40)  # game 3 restarts at level 1 with full stacks
    m = headsup.record_game(m, m.player_b, actor=actor, now=T0 + timedelta(minutes=50))
    assert m.status == Match.DONE and Entry.objects.get(pk=m.player_a_id).place == 9


def no_show_match(heads_up, field, actor):
    t = heads_up(size=2, level_minutes=10, name="Group 1 table")
    seated, absent = field(t, 2)
    headsup.draw_bracket(t, actor=actor, now=T0)
    m = Match.objects.get(bracket=t.bracket)
    headsup.start_match(m, actor=actor, now=T0)
    me = seated if m.player_a_id == seated.pk else absent
    headsup.seat_player(m, me, actor=actor, now=T0)
    return t, m, me


def test_scenario_34a_a_replacement_in_time_restarts_the_clock_at_level_1(heads_up, field, make_person, actor, cashier_actor):
    t, m, seated = no_show_match(heads_up, field, actor)
    with pytest.raises(DomainError) as e:  # 9:59: he still has until the end of level 1
        headsup.free_absent_seat(m, actor=actor, now=T0 + timedelta(minutes=9, seconds=59))
    assert e.value.code == "level_one_running"
    m = headsup.free_absent_seat(m, actor=actor, now=T0 + timedelta(minutes=10))
    gone = Entry.objects.get(tournament=t, status=Entry.CANCELLED)
    assert gone.ledger.count() == 1 and not gone.ledger.filter(kind=LedgerRow.REFUND).exists()  # no refund
    newcomer = make_person("New", "Comer")
    m = headsup.seat_replacement(m, newcomer, method="CASH", actor=cashier_actor, now=T0 + timedelta(minutes=13))
    assert m.clock_started_at == T0 + timedelta(minutes=13) and m.clock_restarts == 1
    assert {m.player_a.person_id, m.player_b.person_id} == {seated.person_id, newcomer.pk}
    headsup.record_game(m, m.player_a, actor=actor, now=T0 + timedelta(minutes=20))  # both seated: the match is on


def test_scenario_34b_nobody_by_level_1_plus_5_minutes_is_a_bye(heads_up, field, make_person, actor, cashier_actor):
    t, m, seated = no_show_match(heads_up, field, actor)
    headsup.free_absent_seat(m, actor=actor, now=T0 + timedelta(minutes=10))
    with pytest.raises(DomainError) as e:
        headsup.award_bye(m, actor=actor, now=T0 + timedelta(minutes=14))
    assert e.value.code == "replacement_window_open"
    m = headsup.award_bye(m, actor=actor, now=T0 + timedelta(minutes=15))
    assert m.result == Match.BYE and m.winner_id == seated.pk
    with pytest.raises(DomainError) as e:
        headsup.seat_replacement(m, make_person(), method="CASH", actor=cashier_actor, now=T0 + timedelta(minutes=16))
    assert e.value.code == "no_free_seat"
    t.refresh_from_db()
    assert t.status == Tournament.FINISHED and Entry.objects.get(pk=seated.pk).place == 1


def test_a_replacement_after_level_1_plus_5_minutes_is_refused(heads_up, field, make_person, actor, cashier_actor):
    t, m, seated = no_show_match(heads_up, field, actor)
    headsup.free_absent_seat(m, actor=actor, now=T0 + timedelta(minutes=10))
    with pytest.raises(DomainError) as e:
        headsup.seat_replacement(m, make_person(), method="CASH", actor=cashier_actor, now=T0 + timedelta(minutes=15, seconds=1))
    assert e.value.code == "replacement_too_late"
    assert not LedgerRow.objects.filter(tournament=t).exclude(entry__status=Entry.CANCELLED).exclude(entry=seated).exists()


def final_day_match(heads_up, field, actor):
    t = heads_up(size=2, level_minutes=12, punctuality="LATENESS", name="Final day")
    es = field(t, 2)
    headsup.draw_bracket(t, actor=actor, now=T0)
    m = Match.objects.get(bracket=t.bracket)
    headsup.start_match(m, actor=actor, now=T0)
    headsup.seat_player(m, m.player_a, actor=actor, now=T0)
    return t, m, es


def test_scenario_35_thirteen_minutes_late_loses_game_1(heads_up, field, actor):
    _t, m, _ = final_day_match(heads_up, field, actor)
    m = headsup.seat_player(m, m.player_b, actor=actor, now=T0 + timedelta(minutes=13))
    game = MatchGame.objects.get(match=m)
    assert (game.number, game.kind, game.winner_id) == (1, MatchGame.LATENESS, m.player_a_id)
    assert (m.a_wins, m.b_wins, m.status) == (1, 0, Match.PLAYING) and m.b_seated_at is not None
    m = headsup.record_game(m, m.player_b, actor=actor, now=T0 + timedelta(minutes=30))
    assert (m.a_wins, m.b_wins) == (1, 1)


def test_scenario_35_still_absent_after_another_level_loses_the_match(heads_up, field, actor):
    _t, m, _ = final_day_match(heads_up, field, actor)
    m = headsup.apply_lateness(m, actor=actor, now=T0 + timedelta(minutes=13))
    assert (m.a_wins, m.status) == (1, Match.PLAYING)
    m = headsup.apply_lateness(m, actor=actor, now=T0 + timedelta(minutes=24))
    assert m.status == Match.DONE and m.result == Match.LATENESS and m.winner_id == m.player_a_id
    assert Entry.objects.get(pk=m.player_b_id).place == 2


def test_scenario_36_new_players_first_then_the_earliest_eliminated(heads_up, make_person, field, actor, cashier_actor):
    g1 = heads_up(size=2, start_at=T0, name="Group 1")
    a_entry, b_entry = field(g1, 2)
    g2 = heads_up(size=4, start_at=T0 + timedelta(hours=2), previous_group=g1, name="Group 2")
    field(g2, 1)  # 3 open seats
    bust(a_entry, T0 + timedelta(minutes=35))  # A out of Group 1 at 20:35, B at 20:50
    bust(b_entry, T0 + timedelta(minutes=50))
    n1, n2 = make_person("New", "One"), make_person("New", "Two")
    # B asks first, then A, then the two newcomers, all before level 1 of Group 2.
    headsup.request_seat(g2, b_entry.person, actor=actor, now=T0 + timedelta(minutes=55))
    headsup.request_seat(g2, a_entry.person, actor=actor, now=T0 + timedelta(minutes=56))
    headsup.request_seat(g2, n1, actor=actor, now=T0 + timedelta(minutes=100))
    headsup.request_seat(g2, n2, actor=actor, now=T0 + timedelta(minutes=110))
    with pytest.raises(DomainError) as e:  # no re-entry into Group 1 itself
        headsup.request_seat(g1, a_entry.person, actor=actor, now=T0 + timedelta(minutes=57))
    assert e.value.code == "no_reentry_same_group"
    result = headsup.allocate_seats(g2, actor=actor, now=T0 + timedelta(minutes=115))
    assert result["open_places"] == 3
    assert result["admitted"] == ["New One", "New Two", a_entry.person.full_name]
    assert result["refused"] == [b_entry.person.full_name]
    assert SeatRequest.objects.get(person=b_entry.person).status == SeatRequest.REFUSED
    # The admitted players hold reservations and pay at the desk.
    assert g2.entries.filter(status=Entry.RESERVED).count() == 3
    cashier.register(g2, a_entry.person, method="CASH", actor=cashier_actor)
    assert g2.entries.get(person=a_entry.person).status == Entry.ACTIVE


def test_a_group_sends_its_survivors_to_the_next_stage(heads_up, field, actor):
    final_day = heads_up(size=2, name="Gruppo Unico", punctuality="LATENESS")
    group = heads_up(size=4, rounds_to_play=1, feeds_into=final_day, name="Group 1")
    field(group, 4)
    headsup.draw_bracket(group, actor=actor, now=T0)
    for m in Match.objects.filter(bracket=group.bracket, round=1):
        play(m, m.player_b, actor, T0 + timedelta(minutes=30))
    group.refresh_from_db()
    assert group.status == Tournament.FINISHED
    qualified = final_day.entries.all()
    assert qualified.count() == 2 and all(e.chips == final_day.starting_stack for e in qualified)
    assert QualifiedEntry.objects.filter(entry__tournament=final_day, source=QualifiedEntry.BRACKET_GROUP).count() == 2
    assert not LedgerRow.objects.filter(tournament=final_day).exists()
    assert sorted(group.entries.values_list("place", flat=True), key=lambda p: (p is None, p)) == [3, 3, None, None]


def test_the_timer_frees_a_no_shows_seat_then_gives_the_bye_by_itself(heads_up, field, actor):
    """Scenario 34 without the floor: the beat sweep applies the no-show rule on time."""
    t, m, seated = no_show_match(heads_up, field, actor)
    assert headsup.sweep_matches(now=T0 + timedelta(minutes=9, seconds=59)) == []  # he still has until the end of level 1
    assert headsup.sweep_matches(now=T0 + timedelta(minutes=10)) == [(m.pk, "free_seat")]
    assert Entry.objects.filter(tournament=t, status=Entry.CANCELLED).count() == 1
    assert headsup.sweep_matches(now=T0 + timedelta(minutes=12)) == []  # the replacement window is open
    assert headsup.sweep_matches(now=T0 + timedelta(minutes=15)) == [(m.pk, "bye")]
    m.refresh_from_db()
    assert (m.status, m.result, m.winner_id) == (Match.DONE, Match.BYE, seated.pk)
    assert t.events.filter(action="formats.match.bye_awarded").get().actor_label == "system"
    assert headsup.sweep_matches(now=T0 + timedelta(minutes=30)) == []


def test_the_timer_leaves_a_match_alone_when_a_replacement_sat_down(heads_up, field, make_person, actor, cashier_actor):
    t, m, seated = no_show_match(heads_up, field, actor)
    headsup.sweep_matches(now=T0 + timedelta(minutes=10))
    headsup.seat_replacement(m, make_person(), method="CASH", actor=cashier_actor, now=T0 + timedelta(minutes=14))
    assert headsup.sweep_matches(now=T0 + timedelta(minutes=40)) == []  # both seated: they play on
    m.refresh_from_db()
    assert m.status == Match.PLAYING and m.player_a_id and m.player_b_id


def test_the_timer_applies_final_day_lateness_once_per_level(heads_up, field, actor):
    """Scenario 35 without the floor: one level late loses game 1, a second level the match."""
    _t, m, _ = final_day_match(heads_up, field, actor)
    assert headsup.sweep_matches(now=T0 + timedelta(minutes=11)) == []
    assert headsup.sweep_matches(now=T0 + timedelta(minutes=12)) == [(m.pk, "lateness")]
    assert headsup.sweep_matches(now=T0 + timedelta(minutes=13)) == []  # game 1 is already lost; nothing twice
    m.refresh_from_db()
    assert (m.a_wins, m.b_wins, m.status) == (1, 0, Match.PLAYING)
    assert headsup.sweep_matches(now=T0 + timedelta(minutes=24)) == [(m.pk, "lateness")]
    m.refresh_from_db()
    assert m.status == Match.DONE and m.result == Match.LATENESS and m.winner_id == m.player_a_id


def test_the_timer_waits_for_the_director_when_both_players_are_absent(heads_up, field, actor):
    t = heads_up(size=2, level_minutes=10, name="Nobody here")
    field(t, 2)
    headsup.draw_bracket(t, actor=actor, now=T0)
    m = Match.objects.get(bracket=t.bracket)
    headsup.start_match(m, actor=actor, now=T0)
    assert headsup.sweep_matches(now=T0 + timedelta(hours=1)) == []


def test_the_beat_schedule_runs_the_heads_up_timer(settings):
    from tournaments.formats import tasks

    entry = settings.CELERY_BEAT_SCHEDULE["sweep-heads-up-matches"]
    assert entry["task"] == tasks.sweep_heads_up_matches.name and entry["schedule"] <= 10


def test_the_groups_money_is_the_final_stage_prize_pool_paid_to_its_last_rounds(heads_up, field, actor):
    """A heads-up event has one prize pool, paid where it ends: the groups' prize parts are
    carried to the stage they feed, and the final bracket pays whole rounds (``paid_players``,
    RULES §14 q17: 8 by default, here the last 2)."""
    from payouts import reports
    from payouts import selectors as payout_selectors

    final = heads_up(size=4, name="Final day", punctuality="LATENESS", paid_players=2)
    groups = [heads_up(size=4, rounds_to_play=1, feeds_into=final, name=f"Group {n}") for n in (1, 2)]
    for g in groups:
        field(g, 4)
        headsup.draw_bracket(g, actor=actor, now=T0)
        for m in Match.objects.filter(bracket=g.bracket, round=1):
            play(m, m.player_a, actor, T0 + timedelta(minutes=30))
        assert payout_selectors.pool_breakdown(g).total == 0  # carried on
        report = reports.reconciliation_data(g)
        assert report["balanced"] and any("carried" in n for n in report["notes"])
    assert final.entries.count() == 4 and not LedgerRow.objects.filter(tournament=final).exists()
    pool = payout_selectors.pool_breakdown(final)
    assert pool.collected == Decimal("800.00")  # 8 players × 100 prize part, all from the groups
    prizes = payout_selectors.proposed_prizes(final)
    assert [p["place"] for p in prizes] == [1, 2] and sum(p["amount"] for p in prizes) == pool.total
    headsup.draw_bracket(final, actor=actor, now=T0 + timedelta(hours=2))
    for round_no in (1, 2):
        for m in Match.objects.filter(bracket=final.bracket, round=round_no):
            play(m, m.player_a, actor, T0 + timedelta(hours=3))
    places = sorted(final.entries.values_list("place", flat=True))
    assert places == [1, 2, 3, 3]  # the semi-final losers share 3rd, unpaid with paid_players = 2


def test_a_bracket_pays_whole_rounds_only(heads_up):
    with pytest.raises(DomainError) as e:
        heads_up(size=8, paid_players=3)
    assert e.value.code == "bad_paid_players"


def test_two_replacements_in_a_four_player_bracket_are_seated(heads_up, field, make_person, actor, cashier_actor):
    """Scenario 34 at both tables of a 4-player bracket: two players absent, both seats freed at
    the end of level 1, two newcomers take them. A bracket has no final table to break up, so the
    desk's final-table check (REG-04) does not stand in the way."""
    t = heads_up(size=4, level_minutes=10, name="Four seats")
    field(t, 4)
    headsup.draw_bracket(t, actor=actor, now=T0)
    matches = list(Match.objects.filter(bracket=t.bracket, round=1).order_by("position"))
    for m in matches:
        headsup.start_match(m, actor=actor, now=T0)
        headsup.seat_player(m, m.player_a, actor=actor, now=T0)
        headsup.free_absent_seat(m, actor=actor, now=T0 + timedelta(minutes=10))
    newcomers = [make_person("New", f"Comer{i}") for i in range(2)]
    for m, person in zip(matches, newcomers):
        m = headsup.seat_replacement(Match.objects.get(pk=m.pk), person, method="CASH", actor=cashier_actor, now=T0 + timedelta(minutes=12))
        assert m.player_b.person_id == person.pk and m.clock_restarts == 1


def test_a_match_loser_leaves_the_table_map_and_a_bust_slip_is_refused(heads_up, field, actor):
    """Found by the simulator: the loser of a match kept his seat on the table map (the seat
    lookup still sent him to his table), and a bust slip could put out a player still in a match
    (who then went on winning games). A match's loser is out by the bracket, his seat freed; the
    floor records games, never a bust slip, in a heads-up event."""
    from seating import services as seating
    from seating.selectors import seat_of

    t = heads_up(size=4)
    entries = field(t, 4)
    headsup.draw_bracket(t, actor=actor, now=T0)
    assert all(seat_of(e) for e in entries)  # the start drew a seat for everyone
    m = Match.objects.get(bracket=t.bracket, round=1, position=0)
    done = play(m, m.player_a, actor, T0 + timedelta(minutes=5))
    loser = Entry.objects.get(pk=done.loser_id)
    assert (loser.status, loser.place) == (Entry.BUSTED, 3)
    assert seat_of(loser) is None
    assert seat_of(Entry.objects.get(pk=done.winner_id))
    other = Match.objects.get(bracket=t.bracket, round=1, position=1)
    with pytest.raises(DomainError) as refused:
        seating.record_bust(t, [other.player_a_id], actor=actor)
    assert refused.value.code == "heads_up_match"
    assert Entry.objects.get(pk=other.player_a_id).status == Entry.ACTIVE


def test_a_player_drawn_in_the_bracket_is_not_cancelled_by_a_reversal_or_a_refund(heads_up, field, actor, cashier_actor):
    """Found by the simulator: the desk reversed the buy-in of a player drawn in the bracket; the
    bracket still had him in his match (and a lost match's loser lost his place). Once drawn, his
    matches decide how he leaves: the reversal and the refund are refused, with a code."""
    t = heads_up(size=4)
    entries = field(t, 4)
    headsup.draw_bracket(t, actor=actor, now=T0)
    drawn = entries[0]
    sale = LedgerRow.objects.get(entry=drawn, kind=LedgerRow.BUY_IN)
    with pytest.raises(DomainError) as refused:
        cashier.reverse(sale, reason="sold by mistake", actor=actor)
    assert refused.value.code == "entry_in_draw"
    with pytest.raises(DomainError) as refused:
        cashier.refund(drawn, reason="wants to leave", actor=actor)
    assert refused.value.code == "entry_in_draw"
    assert Entry.objects.get(pk=drawn.pk).status == Entry.ACTIVE
    assert not LedgerRow.objects.filter(entry=drawn).exclude(kind=LedgerRow.BUY_IN).exists()


def test_a_player_absent_from_his_second_match_is_late_not_a_no_show(heads_up, field, actor):
    """Found by the simulated days (day seed 700044): a bracket of four under the no-show rule; a
    semi-final winner was absent from the final, his seat was freed (his entry cancelled, as a
    first-round no-show's is) and the other finalist took a bye: the places read 1, 3, 4 in a field
    of 3. A player who has won his way on follows the lateness rule (FMT-12: between matches he
    must be on time, "otherwise the Day 2 lateness rule applies"): game 1 lost after a level, the
    match after two, and he keeps his place, 2nd."""
    t = heads_up(size=4, level_minutes=10, name="Group of four")
    field(t, 4)
    headsup.draw_bracket(t, actor=actor, now=T0)
    for semi in Match.objects.filter(bracket=t.bracket, round=1).order_by("position"):
        play(semi, semi.player_a, actor, T0)
    final = Match.objects.get(bracket=t.bracket, round=2)
    headsup.start_match(final, actor=actor, now=T0 + timedelta(minutes=30))
    headsup.seat_player(final, final.player_a, actor=actor, now=T0 + timedelta(minutes=30))
    assert headsup.due_action(t.bracket, Match.objects.get(pk=final.pk), T0 + timedelta(minutes=41)) == "lateness"
    with pytest.raises(DomainError) as refused:
        headsup.free_absent_seat(final, actor=actor, now=T0 + timedelta(minutes=41))
    assert refused.value.code == "not_no_show_rule"
    m = headsup.apply_lateness(final, actor=actor, now=T0 + timedelta(minutes=41))
    assert (m.a_wins, m.status) == (1, Match.PLAYING)
    m = headsup.apply_lateness(m, actor=actor, now=T0 + timedelta(minutes=51))
    assert m.status == Match.DONE and m.winner_id == m.player_a_id
    places = sorted(Entry.objects.filter(tournament=t).exclude(status=Entry.CANCELLED).values_list("place", flat=True))
    assert places[:2] == [1, 2] and Entry.objects.get(pk=m.player_b_id).place == 2


def test_a_semi_final_lost_first_shares_third_place_with_the_other_semi_finals_loser(heads_up, field, actor, cashier_actor):
    """Found by the simulated days (day seed 710004): the first semi-final over, its loser was
    due the whole 3rd prize alone and his place left a hole at 4th, while the other semi-final's
    loser would share 3rd with him. Every loser of a round shares its place: his due is the
    round's share from the start, 3rd and 4th prizes halved, and it is paid once the round is over."""
    from payouts import reports
    from payouts import selectors as payout_selectors
    from payouts import services as payouts

    t = heads_up(size=4, paid_players=4)
    field(t, 4)
    headsup.draw_bracket(t, actor=actor, now=T0)
    prizes = {p["place"]: p["amount"] for p in payout_selectors.table_prizes(t)}
    assert prizes[3] != prizes[4]  # else an unshared 3rd prize would look shared
    payouts.lock_payout_table(t, actor=actor)
    first, second = Match.objects.filter(bracket=t.bracket, round=1).order_by("position")
    first = play(first, first.player_a, actor, T0 + timedelta(minutes=30))

    (due,) = [d for d in payout_selectors.dues(t) if d["entry_id"] == first.loser_id]
    assert (due["place"], due["shared_with"], due["amount"]) == (3, 2, (prizes[3] + prizes[4]) / 2)
    assert due["pending"]
    assert payout_selectors.place_spans(t)[3] == 2
    assert reports.reconciliation_data(t)["balanced"]
    with pytest.raises(DomainError) as refused:
        payouts.pay_prize(Entry.objects.get(pk=first.loser_id), method="CASH", actor=cashier_actor)
    assert refused.value.code == "place_still_shared"

    second = play(second, second.player_b, actor, T0 + timedelta(minutes=40))
    shared = {d["entry_id"]: d for d in payout_selectors.dues(t) if d["place"] == 3}
    assert set(shared) == {first.loser_id, second.loser_id}
    assert {d["amount"] for d in shared.values()} == {(prizes[3] + prizes[4]) / 2}
    assert not any(d["pending"] for d in shared.values())


def test_a_first_round_seat_freed_for_a_no_show_does_not_stretch_the_round_place_past_the_field(heads_up, field, actor):
    """Found by the soak (day seed 720014): in a bracket of 8 with 7 players (a bye), a first-round
    match whose absent player's seat was freed (a replacement or a bye to come) was counted as a
    loser still to place: the first losers' place 5 reached 8 in a field of 7."""
    from payouts import selectors as payout_selectors

    t = heads_up(size=8, level_minutes=10)
    field(t, 7)
    headsup.draw_bracket(t, actor=actor, now=T0)
    played = [m for m in Match.objects.filter(bracket=t.bracket, round=1).order_by("position") if m.result != Match.BYE]
    absent_match, first = played[0], played[1]
    headsup.start_match(absent_match, actor=actor, now=T0)
    headsup.seat_player(absent_match, absent_match.player_a, actor=actor, now=T0)
    headsup.free_absent_seat(Match.objects.get(pk=absent_match.pk), actor=actor, now=T0 + timedelta(minutes=10))
    play(first, first.player_a, actor, T0 + timedelta(minutes=12))

    in_field = t.entries.filter(status__in=(Entry.ACTIVE, Entry.BUSTED)).count()
    spans = payout_selectors.place_spans(t)
    assert spans == {5: 2}  # the two first-round matches with both players: the freed seat may end in a bye
    assert 5 + spans[5] - 1 <= in_field


# --- what the director reads when a bracket ends, and what the timer does on its own -------------


def last_event(t, action):
    return t.events.filter(action=action).latest("id")


def test_fmt12_the_final_game_names_the_champion_in_the_log_and_ends_the_event_as_the_director(heads_up, field, actor):
    """The last game of the final: the log's game row names the champion, the bracket page
    reads completed with him as champion, and the event ends (its clock stopped) in the name of
    the director who recorded the game, not of the system."""

    t = heads_up(size=2, name="Final")
    field(t, 2)
    headsup.draw_bracket(t, actor=actor, now=T0)
    clock_services.start_clock(t, actor=actor, now=T0)
    m = Match.objects.get(bracket=t.bracket)
    champion, runner_up = m.player_a, m.player_b
    done = play(m, champion, actor, T0 + timedelta(minutes=20))
    assert (done.a_wins, done.b_wins, done.status) == (2, 0, Match.DONE)
    final_game = last_event(t, "formats.match.game_recorded")
    assert final_game.payload["extra"] == [{"champion": champion.number}]
    assert (final_game.payload["score"], final_game.payload["match_over"]) == ("2-0", True)
    t.bracket.refresh_from_db()
    page = bracket_data(t.bracket)
    assert page["completed"] is True and page["champion"]["number"] == champion.number
    assert page["champion"]["place"] == 1
    loser = Entry.objects.get(pk=runner_up.pk)
    assert (loser.status, loser.place, loser.busted_at) == (Entry.BUSTED, 2, T0 + timedelta(minutes=20))
    for action in ("tournaments.tournament.finished", "tournaments.clock.finished", "seating.seat.released"):
        assert last_event(t, action).actor_id == actor.user.pk, action


def test_fmt12_a_groups_last_game_logs_its_survivors_and_their_places_in_the_next_stage(heads_up, field, actor):
    """A group that plays one round: its last game's log row lists the survivors (match by
    match) and the stage they go to; each has an entry there from the moment the group ended,
    and the group ends (its clock stopped) in the director's name."""

    final_day = heads_up(size=2, name="Final day", punctuality="LATENESS")
    group = heads_up(size=4, rounds_to_play=1, feeds_into=final_day, name="Group 1")
    field(group, 4)
    headsup.draw_bracket(group, actor=actor, now=T0)
    clock_services.start_clock(group, actor=actor, now=T0)
    first, second = Match.objects.filter(bracket=group.bracket, round=1).order_by("position")
    play(first, first.player_b, actor, T0 + timedelta(minutes=30))
    assert final_day.entries.count() == 0  # one match left: nobody goes on yet
    play(second, second.player_a, actor, T0 + timedelta(minutes=45))
    last_game = last_event(group, "formats.match.game_recorded")
    assert last_game.payload["extra"] == [{"group_survivors": [first.player_b.number, second.player_a.number], "qualified_for": final_day.pk}]
    qualified = final_day.entries.order_by("number")
    assert [e.person_id for e in qualified] == [first.player_b.person_id, second.player_a.person_id]
    assert all(e.created_at == T0 + timedelta(minutes=45) for e in qualified)
    for action in ("tournaments.tournament.finished", "tournaments.clock.finished"):
        assert last_event(group, action).actor_id == actor.user.pk, action


def test_fmt12_a_semi_final_winner_waits_for_his_opponent_in_his_own_bracket(heads_up, field, actor):
    """Two brackets of four drawn the same evening: the winner of a semi-final goes to the
    final of his own bracket, which stays waiting (it cannot start) until the other semi-final
    is over."""

    other = heads_up(size=4, name="Group A")
    field(other, 4)
    headsup.draw_bracket(other, actor=actor, now=T0)
    t = heads_up(size=4, name="Group B")
    field(t, 4)
    headsup.draw_bracket(t, actor=actor, now=T0)
    semi = Match.objects.get(bracket=t.bracket, round=1, position=0)
    play(semi, semi.player_a, actor, T0 + timedelta(minutes=20))
    final = bracket_data(t.bracket)["rounds"][1]["matches"][0]
    assert (final["status"], final["a"]["number"], final["b"]) == (Match.WAITING, semi.player_a.number, None)
    with pytest.raises(DomainError) as refused:
        headsup.start_match(Match.objects.get(pk=final["id"]), actor=actor, now=T0 + timedelta(minutes=21))
    assert refused.value.code == "match_not_ready"
    other_final = bracket_data(other.bracket)["rounds"][1]["matches"][0]
    assert (other_final["status"], other_final["a"], other_final["b"]) == (Match.WAITING, None, None)


def test_fmt12_a_replacement_takes_the_side_of_the_player_who_did_not_come(heads_up, field, make_person, actor, cashier_actor):
    """Scenario 34 with the first-drawn player absent: the newcomer sits in his place, the
    player who was on time keeps his."""

    t = heads_up(size=2, level_minutes=10, name="Table 1")
    field(t, 2)
    headsup.draw_bracket(t, actor=actor, now=T0)
    m = Match.objects.get(bracket=t.bracket)
    on_time = m.player_b
    headsup.start_match(m, actor=actor, now=T0)
    headsup.seat_player(m, on_time, actor=actor, now=T0)
    headsup.free_absent_seat(m, actor=actor, now=T0 + timedelta(minutes=10))
    newcomer = make_person("New", "Comer")
    m = headsup.seat_replacement(m, newcomer, method="CASH", actor=cashier_actor, now=T0 + timedelta(minutes=12))
    shown = match_data(m, m.bracket)
    assert (shown["a"]["name"], shown["b"]["number"]) == (Entry.objects.get(tournament=t, person=newcomer).person.display_name, on_time.number)
    assert shown["a_seated"] and shown["b_seated"]


def test_fmt12_the_first_drawn_player_late_on_a_final_day_loses_game_1_to_the_other(heads_up, field, actor):
    """Scenario 35 with the first-drawn player the late one: game 1 goes to his opponent (0-1),
    and the log of his arrival says game 1 was lost."""
    t = heads_up(size=2, level_minutes=12, punctuality="LATENESS", name="Final day")
    field(t, 2)
    headsup.draw_bracket(t, actor=actor, now=T0)
    m = Match.objects.get(bracket=t.bracket)
    headsup.start_match(m, actor=actor, now=T0)
    headsup.seat_player(m, m.player_b, actor=actor, now=T0)
    m = headsup.seat_player(m, m.player_a, actor=actor, now=T0 + timedelta(minutes=13))
    assert (m.a_wins, m.b_wins, m.status) == (0, 1, Match.PLAYING)
    assert MatchGame.objects.get(match=m).winner_id == m.player_b_id
    assert last_event(t, "formats.match.player_seated").payload["lateness"] == ["game_1_lost"]


def test_fmt12_two_levels_late_loses_the_match_and_a_second_check_changes_nothing(heads_up, field, actor):
    """Scenario 35 checked once, two levels in: game 1 and the match are lost together, the
    late player is out 2nd at that time, in the director's name; checking again adds nothing."""
    t, m, _ = final_day_match(heads_up, field, actor)
    late = m.player_b
    m = headsup.apply_lateness(m, actor=actor, now=T0 + timedelta(minutes=24))
    assert (m.status, m.result, m.winner_id, m.a_wins) == (Match.DONE, Match.LATENESS, m.player_a_id, 1)
    assert last_event(t, "formats.match.lateness_checked").payload["applied"] == ["game_1_lost", "match_lost"]
    out = Entry.objects.get(pk=late.pk)
    assert (out.status, out.place, out.busted_at) == (Entry.BUSTED, 2, T0 + timedelta(minutes=24))
    assert last_event(t, "seating.seat.released").actor_id == actor.user.pk
    m = headsup.apply_lateness(m, actor=actor, now=T0 + timedelta(minutes=40))
    assert last_event(t, "formats.match.lateness_checked").payload["applied"] == []
    assert MatchGame.objects.filter(match=m).count() == 1
    assert sorted(t.entries.values_list("place", flat=True)) == [1, 2]


def test_fmt12_under_the_no_show_rule_a_player_seated_after_level_1_starts_at_0_0(heads_up, field, actor):
    """The no-show rule has no lateness forfeit: a first-round player who sits down after
    level 1, before anybody freed his seat, plays the match from 0-0."""
    t, m, _seated = no_show_match(heads_up, field, actor)
    m = headsup.seat_player(m, m.player_b, actor=actor, now=T0 + timedelta(minutes=11))
    assert (m.a_wins, m.b_wins, m.status) == (0, 0, Match.PLAYING)
    assert not MatchGame.objects.filter(match=m).exists()
    assert last_event(t, "formats.match.player_seated").payload["lateness"] == []


def test_fmt12_the_timer_keeps_the_brackets_own_level_and_grace(heads_up, field, actor, caplog):
    """Levels of 3 minutes and a grace of 2: the seat is freed at 3', the bye given at 5'; in
    between the timer tries nothing (nothing in its log)."""
    caplog.set_level("INFO", logger="tournaments.formats.services.headsup")
    t = heads_up(size=2, level_minutes=3, no_show_grace_minutes=2, name="Quick")
    field(t, 2)
    headsup.draw_bracket(t, actor=actor, now=T0)
    m = Match.objects.get(bracket=t.bracket)
    headsup.start_match(m, actor=actor, now=T0)
    headsup.seat_player(m, m.player_a, actor=actor, now=T0)
    assert headsup.sweep_matches(now=T0 + timedelta(minutes=2, seconds=59)) == []
    assert headsup.sweep_matches(now=T0 + timedelta(minutes=3)) == [(m.pk, "free_seat")]
    assert headsup.sweep_matches(now=T0 + timedelta(minutes=4, seconds=59)) == []
    assert headsup.sweep_matches(now=T0 + timedelta(minutes=5)) == [(m.pk, "bye")]
    assert caplog.records == []


def test_fmt12_the_timer_leaves_a_match_with_both_players_seated_alone(heads_up, field, actor, caplog):
    """Both players at the table: nothing is due however long the match lasts, under the
    no-show rule as on a final day, and the timer tries nothing."""
    caplog.set_level("INFO", logger="tournaments.formats.services.headsup")
    for punctuality in ("NO_SHOW", "LATENESS"):
        t = heads_up(size=2, level_minutes=10, punctuality=punctuality, name=f"Both here {punctuality}")
        field(t, 2)
        headsup.draw_bracket(t, actor=actor, now=T0)
        m = Match.objects.get(bracket=t.bracket)
        headsup.start_match(m, actor=actor, now=T0)
        headsup.seat_player(m, m.player_a, actor=actor, now=T0)
        headsup.seat_player(m, m.player_b, actor=actor, now=T0 + timedelta(minutes=1))
    assert headsup.sweep_matches(now=T0 + timedelta(minutes=45)) == []
    assert not MatchGame.objects.exists() and not Match.objects.exclude(status=Match.PLAYING).exists()
    assert caplog.records == []


def test_fmt12_the_timer_goes_on_past_a_match_with_nothing_due_and_one_the_floor_took(heads_up, field, actor, caplog, monkeypatch):
    """Three first-round tables: at the first both players are here (nothing due); at the
    second the floor frees the seat by hand just as the timer comes round (the timer's try is
    refused, and it says so in its log); at the third the timer frees the seat itself."""
    caplog.set_level("INFO", logger="tournaments.formats.services.headsup")
    t = heads_up(size=8, level_minutes=10, name="Three tables")
    field(t, 7)  # one bye, three matches
    headsup.draw_bracket(t, actor=actor, now=T0)
    both, raced, timed = [m for m in Match.objects.filter(bracket=t.bracket, round=1).order_by("position") if m.status == Match.READY]
    for m in (both, raced, timed):
        headsup.start_match(m, actor=actor, now=T0)
        headsup.seat_player(m, m.player_a, actor=actor, now=T0)
    headsup.seat_player(both, both.player_b, actor=actor, now=T0)
    at = T0 + timedelta(minutes=10)
    real_due_action = headsup.due_action

    def floor_at_the_same_moment(bracket, m, now):
        action = real_due_action(bracket, m, now)
        if m.pk == raced.pk:
            headsup.free_absent_seat(m, actor=actor, now=now)
        return action

    monkeypatch.setattr(headsup, "due_action", floor_at_the_same_moment)
    assert headsup.sweep_matches(now=at) == [(timed.pk, "free_seat")]
    assert [r.getMessage() for r in caplog.records] == [f"heads-up timer: match {raced.pk} free_seat skipped (no_single_absent)"]
    assert t.events.filter(action="formats.match.seat_freed").count() == 2


def test_fmt12_a_heads_up_event_without_a_bracket_cannot_be_drawn(make_tournament, actor):
    t = make_tournament(format=Tournament.HEADS_UP, table_size=2, name="No bracket yet")
    with pytest.raises(DomainError) as refused:
        headsup.draw_bracket(t, actor=actor, now=T0)
    assert (refused.value.code, str(refused.value)) == ("no_bracket", "This tournament has no bracket.")


def test_fmt12_the_timer_reads_every_match_in_play_in_one_query(heads_up, field, actor, django_assert_num_queries):
    """The timer comes round every few seconds: with nothing due it reads the matches being
    played, with their brackets, in one query however many tables are playing."""
    t = heads_up(size=8, level_minutes=10, name="Four tables")
    field(t, 8)
    headsup.draw_bracket(t, actor=actor, now=T0)
    for m in Match.objects.filter(bracket=t.bracket, round=1):
        headsup.start_match(m, actor=actor, now=T0)
        for side in ("a", "b"):
            headsup.seat_player(m, getattr(m, f"player_{side}"), actor=actor, now=T0)
    with django_assert_num_queries(1):
        assert headsup.sweep_matches(now=T0 + timedelta(minutes=30)) == []


def test_fmt12_a_draw_with_more_players_than_the_bracket_holds_is_refused_in_words(make_tournament, field, actor):
    t = make_tournament(format=Tournament.HEADS_UP, starting_stack=10000, table_size=2, start_at=T0)
    field(t, 5)  # sold before the director made the bracket of 4 places
    headsup.create_bracket(t, actor=actor, size=4)
    with pytest.raises(DomainError) as e:
        headsup.draw_bracket(t, actor=actor)
    assert (e.value.code, str(e.value.message), e.value.status) == ("too_many_players", "Too many players for the bracket.", 400)
    t.refresh_from_db()
    assert t.status != Tournament.RUNNING and Bracket.objects.get(tournament=t).drawn_at is None


def test_fmt12_the_field_cap_never_passes_the_brackets_places_so_the_desk_never_sells_a_seat_too_many(heads_up, field, api, director, make_person):
    t = heads_up(size=4)
    field(t, 4)
    url = f"/api/v1/tournaments/{t.pk}/"
    for cap in (6, None):
        r = api(director).patch(url, {"field_cap": cap}, format="json")
        assert (r.status_code, r.json()["code"], r.json()["detail"]) == (400, "field_cap_too_large", "The bracket has 4 places: the field cap is at most 4."), (
            cap
        )
    assert api(director).patch(url, {"field_cap": 4}, format="json").status_code == 200  # the bracket's own size stands
    t.refresh_from_db()
    assert t.field_cap == 4
    with pytest.raises(DomainError):
        field(t, 1)
    assert t.entries.count() == 4


def test_pay02_a_group_two_stages_below_the_final_pays_into_the_finals_pool_and_its_guarantee_is_set_there(heads_up, field, api, director):
    """Group 1 feeds Stage 2, which feeds the Final day with Group 3: the €100 prize parts sold at
    Group 1 (4), Stage 2 (2) and Group 3 (4) make the final's pool of €1,000; the groups and the
    stage collect nothing of their own (their money is carried on), and a guarantee asked of any of them is the final's to set."""
    final = heads_up(size=4, name="Final day")
    stage = heads_up(size=4, rounds_to_play=1, feeds_into=final, name="Stage 2")
    group1 = heads_up(size=4, rounds_to_play=1, feeds_into=stage, name="Group 1")
    group3 = heads_up(size=4, rounds_to_play=1, feeds_into=final, name="Group 3")
    for t, n in ((group1, 4), (stage, 2), (group3, 4)):
        field(t, n)
    pools = {t.name: api(director).get(f"/api/v1/tournaments/{t.pk}/payouts/pool/").json() for t in (final, stage, group1, group3)}
    assert {name: (p["collected"], p["total"]) for name, p in pools.items()} == {
        "Final day": ("1000.00", "1000.00"),
        "Stage 2": ("0.00", "0.00"),
        "Group 1": ("0.00", "0.00"),
        "Group 3": ("0.00", "0.00"),
    }
    for t in (group1, stage, group3):
        r = api(director).patch(f"/api/v1/tournaments/{t.pk}/", {"guarantee": "2500", "override_reason": "sponsor"}, format="json")
        assert (r.status_code, r.json()["code"]) == (409, "guarantee_elsewhere"), t.name
        assert r.json()["detail"] == "The prize pool of this tournament is Final day's: set the guarantee there.", t.name
    r = api(director).patch(f"/api/v1/tournaments/{final.pk}/", {"guarantee": "2500", "override_reason": "sponsor"}, format="json")
    assert r.status_code == 200, r.content


def test_fmt12_a_stage_that_would_qualify_its_players_for_itself_is_refused_and_a_chain_to_a_final_is_not(heads_up, api, director, make_tournament):
    """Stage 2 qualifies for Stage 3: Stage 3 cannot then be set to qualify for Stage 2 (its
    survivors and money would go round for ever and reach no final), nor a stage for itself; a
    group feeding Stage 2 (a chain ending in a final) is taken."""
    stage3 = make_tournament(format=Tournament.HEADS_UP, starting_stack=10000, table_size=2, name="Stage 3", start_at=T0)
    stage2 = heads_up(size=4, rounds_to_play=1, feeds_into=stage3, name="Stage 2")
    lone = make_tournament(format=Tournament.HEADS_UP, starting_stack=10000, table_size=2, name="Lone", start_at=T0)
    for t, target in ((stage3, stage2), (lone, lone)):
        r = api(director).post("/api/v1/formats/headsup/", {"tournament": t.pk, "size": 4, "rounds_to_play": 1, "feeds_into": target.pk}, format="json")
        assert (r.status_code, r.json()) == (
            400,
            {
                "code": "bracket_loop",
                "detail": "A stage cannot qualify its players for itself, nor for a stage that feeds it.",
                "fields": ["feeds_into"],
            },
        ), t.name
        t.refresh_from_db()
        assert not hasattr(t, "bracket"), t.name  # nothing was kept of the refused bracket
    group = make_tournament(format=Tournament.HEADS_UP, starting_stack=10000, table_size=2, name="Group 1", start_at=T0)
    r = api(director).post("/api/v1/formats/headsup/", {"tournament": group.pk, "size": 4, "rounds_to_play": 1, "feeds_into": stage2.pk}, format="json")
    assert r.status_code == 201, r.content


def test_fmt12_stages_left_in_a_loop_before_loops_were_refused_do_not_hang_a_new_group(heads_up, api, director, make_tournament):
    """Two stages saved qualifying for each other (as the data of an older release may hold them):
    a new group set to feed one of them is still answered at once, and taken (it is not in the loop)."""
    stage_a = heads_up(size=4, rounds_to_play=1, name="Stage A")
    stage_b = heads_up(size=4, rounds_to_play=1, feeds_into=stage_a, name="Stage B")
    Bracket.objects.filter(tournament=stage_a).update(feeds_into=stage_b)
    group = make_tournament(format=Tournament.HEADS_UP, starting_stack=10000, table_size=2, name="Group 1", start_at=T0)
    r = api(director).post("/api/v1/formats/headsup/", {"tournament": group.pk, "size": 4, "rounds_to_play": 1, "feeds_into": stage_a.pk}, format="json")
    assert r.status_code == 201, r.content


def _hu_four(heads_up, make_person, cashier_actor, actor):
    """A drawn 4-player bracket (10-minute levels): Ann is the top seed, at table 1's side A."""
    t = heads_up(size=4)
    ann, *others = [cashier.register(t, make_person(n, "Rossi"), method="CASH", actor=cashier_actor).entry for n in ("Ann", "Bob", "Cid", "Dan")]
    headsup.draw_bracket(t, actor=actor, seeds=[ann.pk], now=T0)
    t.refresh_from_db()
    semis = list(Match.objects.filter(bracket=t.bracket, round=1).order_by("position"))
    return t, ann, semis


def test_fmt12_the_bracket_answer_names_the_rounds_the_players_the_match_clock_and_the_replacement_deadline(heads_up, make_person, cashier_actor, actor):
    t, ann, (first, second) = _hu_four(heads_up, make_person, cashier_actor, actor)
    for m in (first, second):
        headsup.start_match(m, actor=actor, now=T0)
        headsup.seat_player(m, m.player_a, actor=actor, now=T0)
    headsup.seat_player(first, first.player_b, actor=actor, now=T0)
    data = bracket_data(t.bracket, now=T0 + timedelta(minutes=13))  # level 2 of the 10-minute levels, 7 minutes left
    assert (data["size"], data["games_to_win"], data["level_minutes"], data["paid_players"]) == (4, 2, 10, 8)
    assert (data["punctuality"], data["drawn"], data["completed"], data["champion"]) == ("NO_SHOW", True, False, None)
    assert data["tournament"] == {"id": t.pk, "name": "Heads-up Day 1", "status": "RUNNING"}
    assert [(r["round"], r["name"]) for r in data["rounds"]] == [(1, "Semi-finals"), (2, "Final")]
    one, two = data["rounds"][0]["matches"]
    assert (one["id"], one["round"], one["position"], one["table"], one["status"]) == (first.pk, 1, 0, 1, "PLAYING")
    assert one["a"] == {"entry": ann.pk, "number": ann.number, "name": "Ann Rossi", "status": "ACTIVE", "place": None}
    assert (one["a_seated"], one["b_seated"], two["a_seated"], two["b_seated"]) == (True, True, True, False)
    assert one["clock"] == {"level": 2, "small_blind": 100, "big_blind": 200, "seconds_left": 420, "capped": False}
    assert one["started_at"] == one["clock_started_at"] == T0.isoformat() and one["clock_restarts"] == 0
    assert one["seat_freed_at"] is None and "replacement_until" not in one and one["games"] == [] and one["result"] == ""
    (final,) = data["rounds"][1]["matches"]
    assert (final["table"], final["status"], final["a"], final["b"], final["started_at"]) == (1, "WAITING", None, None, None)
    assert "clock" not in final and "replacement_until" not in final
    # Scenario 34: the absent player's seat is freed after level 1; a replacement may sit until level 1's end plus 5 minutes.
    headsup.free_absent_seat(second, actor=actor, now=T0 + timedelta(minutes=11))
    two = bracket_data(t.bracket, now=T0 + timedelta(minutes=11))["rounds"][0]["matches"][1]
    assert two["b"] is None and two["seat_freed_at"] == (T0 + timedelta(minutes=11)).isoformat()
    assert two["replacement_until"] == (T0 + timedelta(minutes=15)).isoformat()
    assert two["clock"]["level"] == 2 and two["clock"]["seconds_left"] == 540


def test_fmt12_a_round_is_being_decided_until_its_last_match_ends_then_the_champion_is_named(heads_up, make_person, cashier_actor, actor):
    t, ann, (first, second) = _hu_four(heads_up, make_person, cashier_actor, actor)
    assert rounds_being_decided(t) == {}  # nobody has lost yet
    now = T0 + timedelta(minutes=5)
    play(first, first.player_a, actor, now)
    t.refresh_from_db()
    assert rounds_being_decided(t) == {3: 2}  # the two semi-final losers share 3rd place: one is still to come
    games = bracket_data(t.bracket, now=now)["rounds"][0]["matches"][0]
    assert (games["status"], games["result"], games["a_wins"], games["b_wins"], games["winner"]) == ("DONE", "PLAYED", 2, 0, ann.pk)
    assert games["games"] == [{"number": 1, "winner": ann.pk, "kind": "PLAYED"}, {"number": 2, "winner": ann.pk, "kind": "PLAYED"}]
    headsup.start_match(second, actor=actor, now=now)
    view = public_bracket(t.bracket)  # the lobby's page: the clock without its seconds, no seat requests
    assert "seat_requests" not in view and "seat_requests" in bracket_data(t.bracket)
    assert set(view["rounds"][0]["matches"][1]["clock"]) == {"level", "small_blind", "big_blind", "capped"}
    assert view["rounds"][0]["matches"][0]["a"]["name"] == "Ann R."
    play(second, second.player_b, actor, now)
    t.refresh_from_db()
    assert rounds_being_decided(t) == {}
    final = Match.objects.get(bracket=t.bracket, round=2)
    play(final, final.player_a, actor, now + timedelta(minutes=1))
    t.refresh_from_db()
    ann.refresh_from_db()
    data = bracket_data(t.bracket)
    assert data["completed"] is True and data["tournament"]["status"] == "FINISHED"
    assert data["champion"] == {"entry": ann.pk, "number": ann.number, "name": "Ann Rossi", "status": ann.status, "place": 1}
    assert public_bracket(t.bracket)["champion"]["name"] == "Ann R."


@pytest.mark.parametrize(("size", "names"), [(4, ["Semi-finals", "Final"]), (32, ["Round of 32", "Round of 16", "Quarter-finals", "Semi-finals", "Final"])])
def test_fmt12_each_round_is_named_by_the_players_it_starts_with(size, names):
    assert [round_name(size, r) for r in range(1, len(names) + 1)] == names


def test_fmt12_the_desk_refunds_a_heads_up_player_until_the_draw_then_neither_player_of_a_match(heads_up, field, actor, cashier_actor):
    """Before the draw a heads-up entry is refunded like any other. Once the bracket is drawn,
    both players of each match are the matches' to place: the refund is refused for either side,
    while a drawn bracket of another heads-up event changes nothing here."""
    t, other = heads_up(size=4), heads_up(size=4, name="Heads-up Day 2")
    early = field(t, 4)[0]
    field(other, 4)
    headsup.draw_bracket(other, actor=actor, now=T0)  # another event's draw: his bracket is not drawn yet
    cashier.refund(early, reason="cannot stay", actor=actor)
    assert Entry.objects.get(pk=early.pk).status == Entry.CANCELLED
    field(t, 1)  # his place sold again
    headsup.draw_bracket(t, actor=actor, now=T0)
    match = Match.objects.get(bracket=t.bracket, round=1, position=0)
    for side in (match.player_a, match.player_b):
        with pytest.raises(DomainError) as refused:
            cashier.refund(side, reason="wants to leave", actor=actor)
        assert refused.value.code == "entry_in_draw" and "is drawn in the bracket" in str(refused.value.message)
        assert Entry.objects.get(pk=side.pk).status == Entry.ACTIVE


def test_fmt12_the_lobbys_bracket_names_players_in_the_events_own_style(heads_up, field, actor):
    """A heads-up event whose public pages name players in full: its lobby bracket does too."""
    t = heads_up(size=4)
    Tournament.objects.filter(pk=t.pk).update(settings={"seat_lookup_names": "FULL"})
    entries = field(t, 4)
    headsup.draw_bracket(t, actor=actor, now=T0)
    t.refresh_from_db()
    full = {e.pk: e.person.full_name for e in entries}
    shown = [m[side] for r in public_bracket(t.bracket)["rounds"] for m in r["matches"] for side in ("a", "b") if m[side]]
    assert sorted(p["name"] for p in shown) == sorted(full.values()) and all(p["name"] == full[p["entry"]] for p in shown)


def test_fmt12_the_bracket_answer_keeps_the_brackets_own_grace_and_shows_no_clock_on_a_finished_match(heads_up, field, actor):
    """A bracket of 10-minute levels that gives a replacement 3 minutes after level 1 (not the
    default 5): the freed seat's deadline says 10 + 3 minutes. A match played to its end shows
    its games, no clock."""
    t = heads_up(size=4, level_minutes=10, no_show_grace_minutes=3)
    field(t, 4)
    headsup.draw_bracket(t, actor=actor, now=T0)
    first, second = Match.objects.filter(bracket=t.bracket, round=1).order_by("position")
    play(first, first.player_a, actor, T0)
    headsup.start_match(second, actor=actor, now=T0)
    headsup.seat_player(second, second.player_a, actor=actor, now=T0)
    headsup.free_absent_seat(second, actor=actor, now=T0 + timedelta(minutes=11))
    t.refresh_from_db()
    done, freed = bracket_data(t.bracket, now=T0 + timedelta(minutes=12))["rounds"][0]["matches"]
    assert done["status"] == "DONE" and "clock" not in done and len(done["games"]) == 2
    assert freed["replacement_until"] == (T0 + timedelta(minutes=13)).isoformat()


def test_fmt12_the_directors_bracket_lists_each_seat_request_the_lobby_none(heads_up, field, make_person, actor):
    """A newcomer asks for a seat before the draw: the director's bracket lists the request."""
    t = heads_up(size=4)
    field(t, 3)
    eva = make_person("Eva", "Neri")
    req = headsup.request_seat(t, eva, actor=actor, now=T0 + timedelta(minutes=2))
    t.refresh_from_db()
    assert bracket_data(t.bracket)["seat_requests"] == [
        {"id": req.pk, "name": "Eva Neri", "kind": "NEW", "status": "WAITING", "requested_at": (T0 + timedelta(minutes=2)).isoformat()}
    ]
    assert "seat_requests" not in public_bracket(t.bracket)  # the lobby's page names no one asking


def test_pay02_a_group_s_and_its_final_s_reconciliations_read_line_by_line(heads_up, field):
    """Group 1's four players pay €100 + €10 each; its prize parts are carried to the Final day's
    pool, to which two more players pay there: the final's pool is the €600 of both, its money in
    too; each house keeps its own fees."""
    from tests.payouts.reconciliation_rows import BALANCED, expected, read

    final = heads_up(size=4, name="Final day")
    group = heads_up(size=4, rounds_to_play=1, feeds_into=final, name="Group 1")
    field(group, 4)
    field(final, 2)
    rows, result = read(group)
    assert rows == expected(
        {
            "Money in: prize parts": "400.00",
            "Money in: fees": "40.00",
            "Money in: total": "440.00",
            "Carried to Day 2": "400.00",
            "Fees kept by the house": "40.00",
        },
        ("This group's prize parts (400.00) are carried to the prize pool of Final day.",),
    )
    assert result == BALANCED
    rows, result = read(final)
    assert rows == expected(
        {
            "Money in: prize parts": "600.00",
            "Money in: fees": "60.00",
            "Money in: total": "660.00",
            "Prize pool": "600.00",
            "Fees kept by the house": "60.00",
            "Prize pool not yet paid": "600.00",
            "… places still to be decided": "600.00",
        }
    )
    assert result == BALANCED
