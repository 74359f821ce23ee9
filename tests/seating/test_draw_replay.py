"""Every draw replays from its log (SEAT-01: the log keeps inputs, seed and result): an auditor
gives a logged draw's event to ``manage.py replay_draw`` or to the API and gets the same result;
a log whose seed or result was changed afterwards does not match."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from payouts.models import BountyAward
from payouts.services import bounties as bounty_services
from seating import services
from seating.models import ManualDraw
from seating.services import cardrooms
from tests.conftest import make_user
from tests.payouts.bounty_setup import bounty_event
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.floor import services as floor
from tournaments.formats.services import headsup
from tournaments.models import Tournament, TournamentEvent
from tournaments.oversight import services as oversight
from tournaments.setup import lifecycle

from .test_support import add_entries, seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def replay_url(t, event) -> str:
    return f"/api/v1/tournaments/{t.pk}/draws/{event.pk}/replay/"


def replayed(api, user, t, event) -> dict:
    r = api(user).get(replay_url(t, event))
    assert r.status_code == 200, r.data
    return r.data


def tampered(event, **changes):
    """A copy of the logged draw with ``changes`` made to its payload, as a forged log entry
    would be (the log is append-only: the copy is a new row), e.g. a seed or a result changed."""
    return TournamentEvent.objects.create(tournament=event.tournament, action=event.action, payload={**event.payload, **changes})


def bust(t, entry_id, actor):
    return services.record_bust(t, [{"entry": entry_id}], actor=actor)


def test_the_initial_draw_replays_and_a_changed_seed_or_result_does_not(started, api, controller_user):
    t = started(20)
    event = t.events.get(action="seating.draw.initial")
    answer = replayed(api, controller_user, t, event)
    assert answer["matches"] is True and answer["seed"] == event.payload["seed"]
    assert answer["logged"]["assignment"] == answer["recomputed"]["assignment"] == event.payload["assignment"]
    # Who sits where is what the seat map shows.
    where = {e: (n, s) for n, seats in seat_map(t).items() for s, e in seats.items()}
    assert {e: (n, s) for e, n, s in answer["recomputed"]["assignment"]} == where

    assert replayed(api, controller_user, t, tampered(event, seed=str(int(event.payload["seed"]) + 1)))["matches"] is False
    swapped = [list(a) for a in event.payload["assignment"]]
    swapped[0][1:], swapped[1][1:] = swapped[1][1:], swapped[0][1:]  # two players' seats exchanged
    assert replayed(api, controller_user, t, tampered(event, assignment=swapped))["matches"] is False


def test_a_broken_table_replays_both_steps(started, api, director, actor):
    t = started(20)  # tables of 7, 7, 6: two out at table 3 and it breaks into the 4 open seats
    for entry in list(seat_map(t)[3].values())[:2]:
        bust(t, entry, actor)
    event = t.events.get(action="seating.table.broken")
    answer = replayed(api, director, t, event)
    assert answer["matches"] is True
    assert answer["recomputed"]["seat_order"] == event.payload["seat_order"] and len(event.payload["card_order"]) == 4
    assert replayed(api, director, t, tampered(event, card_order=list(reversed(event.payload["card_order"]))))["matches"] is False


def test_the_final_table_draw_replays(started, api, controller_user, actor):
    t = started(12)  # two tables of 6; at 9 players left the final table forms
    for entry in list(seat_map(t)[1].values())[:3]:
        bust(t, entry, actor)
    event = t.events.get(action="seating.final_table.formed")
    answer = replayed(api, controller_user, t, event)
    assert answer["matches"] is True and answer["logged"]["button_seat"] == event.payload["button_seat"]
    assert replayed(api, controller_user, t, tampered(event, seed="12345"))["matches"] is False


def test_a_seat_from_the_seat_pool_replays(started, api, controller_user, make_person, cashier_actor):
    t = started(17, late_reg_closes_after_level=6)
    sale = cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    event = t.events.get(action="seating.player.seated", payload__entry=sale.entry.pk)
    answer = replayed(api, controller_user, t, event)
    assert answer["matches"] is True
    assert (answer["recomputed"]["table"], answer["recomputed"]["seat"]) == (event.payload["table"], event.payload["seat"])
    assert replayed(api, controller_user, t, tampered(event, seat=event.payload["seat"] % 9 + 1))["matches"] is False


def test_a_draw_in_advance_and_the_start_that_follows_it_replay(make_tournament, api, controller_user, director, actor):
    t = make_tournament(status=Tournament.REGISTERING)
    add_entries(t, 11)
    services.predraw(t, ["1A", "1B"], actor=actor)
    event = t.events.get(action="seating.predraw")
    assert replayed(api, controller_user, t, event)["matches"] is True
    assert replayed(api, controller_user, t, tampered(event, order=list(reversed(event.payload["order"]))))["matches"] is False
    services.predraw(t, ["1A"], actor=actor)  # one session: the start seats them all as drawn
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    start = t.events.get(action="seating.draw.initial")
    assert start.payload["predraw_session"] == "1A"
    assert replayed(api, controller_user, t, start)["matches"] is True


def test_a_mystery_envelope_replays_from_its_seed_and_the_envelopes_left(make_tournament, make_person, cashier_actor, actor, api, controller_user):
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, players=4, bounty="MYSTERY", mystery_from="START")
    bounty_services.set_envelopes(t, ["100", "50", "30", "20"], actor=actor)
    services.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
    services.record_bust(t, [{"entry": e[2].pk, "eliminators": [e[0].pk]}], actor=actor)
    first, second = t.events.filter(action="payouts.mystery.drawn").order_by("pk")
    assert first.payload["left"] == [1, 2, 3, 4] and first.payload["envelope"] not in second.payload["left"]
    for event in (first, second):
        answer = replayed(api, controller_user, t, event)
        assert answer["matches"] is True and answer["recomputed"]["envelope"] == event.payload["envelope"]
        assert BountyAward.objects.get(bust_id=event.payload["bust"], envelope__isnull=False).envelope == event.payload["envelope"]
    other = next(n for n in first.payload["left"] if n != first.payload["envelope"])
    assert replayed(api, controller_user, t, tampered(first, envelope=other))["matches"] is False


def test_the_command_prints_the_replay_and_fails_on_a_mismatch(started):
    t = started(20)
    event = t.events.get(action="seating.draw.initial")
    out = StringIO()
    call_command("replay_draw", str(event.pk), stdout=out)
    answer = json.loads(out.getvalue())
    assert answer["matches"] is True and answer["event"] == event.pk and answer["logged"] == answer["recomputed"]
    with pytest.raises(CommandError, match="does not match"):
        call_command("replay_draw", str(tampered(event, seed="1").pk), stdout=StringIO())
    with pytest.raises(CommandError, match="not_a_draw"):
        call_command("replay_draw", str(t.events.exclude(action="seating.draw.initial").first().pk), stdout=StringIO())


def test_an_event_that_draws_nothing_or_has_no_seed_is_refused_naming_the_event(started, api, director):
    t = started(20)
    other = t.events.exclude(action="seating.draw.initial").first()
    r = api(director).get(replay_url(t, other))
    assert r.status_code == 409 and r.json() == {
        "code": "not_a_draw",
        "detail": "This event is not a random draw: there is nothing to replay.",
        "field": "event",
    }
    event = t.events.get(action="seating.draw.initial")
    no_seed = {
        "code": "no_seed",
        "detail": "This draw was logged without a seed (a draw by hand, or one logged before seeds were): it cannot be replayed.",
        "field": "event",
    }
    r = api(director).get(replay_url(t, tampered(event, seed=None)))  # as a draw logged before seeds were
    assert r.status_code == 409 and r.json() == no_seed
    r = api(director).get(replay_url(t, tampered(event, seed="")))
    assert r.status_code == 409 and r.json() == no_seed
    # A log row whose payload is not an object has no seed either: refused, not a server error.
    odd = TournamentEvent.objects.create(tournament=t, action=event.action, payload=[event.payload["seed"]])
    r = api(director).get(replay_url(t, odd))
    assert r.status_code == 409 and r.json() == no_seed
    not_found = {"code": "not_found", "detail": "This tournament's log has no such event.", "field": "event"}
    r = api(director).get(f"/api/v1/tournaments/{t.pk}/draws/{10**9}/replay/")
    assert r.status_code == 404 and r.json() == not_found
    # Another tournament's draw is not this tournament's to replay.
    elsewhere = started(4).events.get(action="seating.draw.initial")
    r = api(director).get(replay_url(t, elsewhere))
    assert r.status_code == 404 and r.json() == not_found


def test_the_replay_answer_names_the_event_and_when_it_was_logged(started, api, controller_user):
    t = started(20)
    event = t.events.get(action="seating.draw.initial")
    answer = replayed(api, controller_user, t, event)
    assert answer["matches"] is True
    assert (answer["event"], answer["action"], answer["at"]) == (event.pk, "seating.draw.initial", event.created_at.isoformat())
    # A seed logged as a number replays the same and is answered as the decimal string seeds are.
    as_number = replayed(api, controller_user, t, tampered(event, seed=int(event.payload["seed"])))
    assert as_number["matches"] is True and as_number["seed"] == event.payload["seed"]


def test_the_controller_regulator_and_director_replay_the_cashier_and_floor_may_not(started, api, director, controller_user, cashier_user, floor_user):
    t = started(20)
    event = t.events.get(action="seating.draw.initial")
    regulator = make_user("corpo", "regulator")
    oversight.set_regulator_access(t, "corpo", granted=True, actor=Actor(director))
    for user in (director, controller_user, regulator):
        assert api(user).get(replay_url(t, event)).status_code == 200, user.username
    for user in (cashier_user, floor_user):
        assert api(user).get(replay_url(t, event)).status_code == 403, user.username


# --- the draws that replay since issue #39 item 14: balancing, a manual draw's machine parts,
# --- a random chip race, a heads-up bracket ----------------------------------------------------


def test_a_balancing_plan_replays_its_drawn_table_and_seat(started, api, controller_user, actor):
    t = started(20, settings={"tie_break": "RANDOM_DRAW"})  # 7, 7, 6 at 9-max: the source table of two 7s is drawn
    bust(t, next(iter(seat_map(t)[3].values())), actor)  # 7, 7, 5: one player moves
    event = t.events.get(action="seating.moves.proposed")
    answer = replayed(api, controller_user, t, event)
    assert answer["matches"] is True and len(answer["recomputed"]["moves"]) == 1
    (move,) = event.payload["moves"]
    assert answer["logged"]["moves"] == [[move["entry"], move["from_table"], move["from_seat"], move["to_table"], move["to_seat"]]]
    other = {**move, "from_table": 3 - move["from_table"]}  # the other 7-handed table drawn instead
    assert replayed(api, controller_user, t, tampered(event, moves=[other]))["matches"] is False


def manual_start(make_tournament, actor, n=12, **kw):
    t = make_tournament(settings={"draw_mode": "MANUAL"}, **kw)
    entries = add_entries(t, n)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    d = ManualDraw.objects.get(tournament=t, status=ManualDraw.OPEN)
    for entry, (table, seat) in zip(entries, d.cards, strict=False):
        services.enter_card(t, entry, table, seat, actor=actor)
    return t


def test_a_manual_initial_draw_replays_its_buttons_and_its_cards_stay_no_seed(make_tournament, actor, api, controller_user):
    t = manual_start(make_tournament, actor)
    event = t.events.get(action="seating.draw.initial")
    answer = replayed(api, controller_user, t, event)
    assert answer["matches"] is True and answer["recomputed"]["buttons"] == event.payload["buttons"]
    moved = {n: s % 9 + 1 for n, s in event.payload["buttons"].items()}
    assert replayed(api, controller_user, t, tampered(event, buttons=moved))["matches"] is False
    opened = t.events.get(action="seating.manual_draw.opened")  # the seat cards the players drew: by hand
    r = api(controller_user).get(replay_url(t, opened))
    assert r.status_code == 409 and r.data["code"] == "no_seed"


def test_a_manual_break_replays_its_seat_cards(make_tournament, actor, api, controller_user):
    t = manual_start(make_tournament, actor, n=18, table_size=6)
    at = {n: list(seats.values()) for n, seats in seat_map(t).items()}
    services.record_bust(t, at[1][:2] + at[2][:1] + at[3][:3], actor=actor)  # table 3 breaks into 3 open seats
    event = t.events.filter(action="seating.manual_draw.opened", payload__kind=ManualDraw.BREAK).get()
    answer = replayed(api, controller_user, t, event)
    assert answer["matches"] is True and answer["recomputed"]["cards"] == event.payload["cards"]
    cards = [list(c) for c in event.payload["cards"]]
    cards[0][1] = next(s for s in range(1, 7) if [cards[0][0], s] not in cards)  # another seat printed
    assert replayed(api, controller_user, t, tampered(event, cards=cards))["matches"] is False


def test_a_random_chip_race_replays_its_deals_and_one_entered_by_hand_has_no_seed(started, actor, api, controller_user):
    t = started(9)
    players = [{"seat": s, "odd_value": 75, "stack_after_exchange": 1000} for s in (2, 5, 8)]  # 2 chips for 3: two deals
    floor.run_chip_race(t, 1, players, removed_denomination=25, new_denomination=100, actor=actor)
    event = t.events.get(action="tournaments.chiprace.recorded")
    answer = replayed(api, controller_user, t, event)
    assert answer["matches"] is True and answer["recomputed"]["winners"] == event.payload["winners"]
    loser = next(s for s in (2, 5, 8) if s not in event.payload["winners"])
    assert replayed(api, controller_user, t, tampered(event, winners=[loser, event.payload["winners"][1]]))["matches"] is False
    out = StringIO()
    call_command("replay_draw", str(event.pk), stdout=out)
    assert json.loads(out.getvalue())["matches"] is True
    floor.run_chip_race(t, 2, players, removed_denomination=25, new_denomination=100, winners=[2, 5], actor=actor)
    by_hand = t.events.filter(action="tournaments.chiprace.recorded").latest("id")
    r = api(controller_user).get(replay_url(t, by_hand))
    assert r.status_code == 409 and r.data["code"] == "no_seed"


def test_a_heads_up_bracket_draw_replays(make_tournament, make_person, cashier_actor, actor, api, controller_user):
    t = make_tournament(format=Tournament.HEADS_UP)
    headsup.create_bracket(t, actor=actor, size=8)
    entries = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(7)]
    headsup.draw_bracket(t, actor=actor, seeds=[entries[3].pk])
    event = t.events.get(action="formats.bracket.drawn")
    answer = replayed(api, controller_user, t, event)
    assert answer["matches"] is True and answer["recomputed"]["order"][0] == entries[3].number
    order = list(event.payload["order"])
    order[1], order[2] = order[2], order[1]
    assert replayed(api, controller_user, t, tampered(event, order=order))["matches"] is False


def test_a_logged_draw_whose_inputs_are_gone_does_not_match_and_shows_what_was_logged(started, api, controller_user):
    """A log row that keeps a draw's seed and result but lost its inputs (damaged or forged):
    the auditor gets the result as logged, the engine's refusal as the recomputed part, and no
    match, for every kind of draw."""
    t = started(4)
    results = {
        "seating.draw.initial": {"assignment": [[1, 1, 2], [2, 1, 5]], "buttons": {"1": 5}},
        "seating.table.broken": {"seat_order": [[1, 3], [2, 7]], "card_order": [[5, "A♠"], [6, "2♣"]]},
        "seating.final_table.formed": {"seat_order": [[1, 1]], "card_order": [[5, "K♥"]], "button_seat": 1},
        "seating.player.seated": {"table": 2, "seat": 4},
        "seating.predraw": {"order": [3, 1, 2], "assignment": [[1, "1A", 1, 1]]},
        "seating.moves.proposed": {"moves": [{"entry": 5, "from_table": 3, "from_seat": 2, "to_table": 1, "to_seat": 4}]},
        "seating.manual_draw.opened": {"cards": [[1, 1], [1, 2]]},
        "tournaments.chiprace.recorded": {"winners": [{"seat": 3, "chips": 2}], "rounds": [[[3, "A♠"]]]},
        "formats.bracket.drawn": {"order": [4, 2, 3, 1]},
        "formats.timed.finished": {"standings": [{"entry": 5, "place": 1}, {"entry": 6, "place": 2}]},
        "formats.flight.closed": {"chip_leaders": [{"entry": 5, "rank": 1, "amount": "100.00"}]},
        "payouts.mystery.drawn": {"envelope": 3},
    }
    for action, result in results.items():
        event = TournamentEvent.objects.create(tournament=t, action=action, payload={"seed": "8134", **result, "rng": "secrets.SystemRandom"})
        answer = replayed(api, controller_user, t, event)
        assert answer == {
            "event": event.pk,
            "at": event.created_at.isoformat(),
            "action": action,
            "seed": "8134",
            "logged": result,
            "recomputed": {"error": "KeyError"},
            "matches": False,
        }, action


# --- a keep-apart pair is part of what a logged draw replays -----------------------------------


def tables_of(assignment) -> dict:
    """{table: [entries]} of a logged assignment ([entry, table, seat] rows)."""
    out = {}
    for entry, table, _seat in assignment:
        out.setdefault(table, []).append(entry)
    return out


def test_a_start_logged_with_a_keep_apart_pair_replays_only_if_the_draw_kept_them_apart(started, api, controller_user):
    """A keep-apart pair logged with the start is part of the draw: a log adding a pair the
    draw seated together (a forged row) does not match, one adding a pair it seated apart does."""
    t = started(20)
    event = t.events.get(action="seating.draw.initial")
    at = tables_of(event.payload["assignment"])
    first, second = sorted(at)[:2]
    apart = [at[first][0], at[second][0]]  # already at two tables: the draw is the same
    assert replayed(api, controller_user, t, tampered(event, apart=[apart]))["matches"] is True
    together = at[first][:2]  # at one table: the draw with the pair would have exchanged a seat
    answer = replayed(api, controller_user, t, tampered(event, apart=[together]))
    assert answer["matches"] is False and answer["recomputed"]["apart_swaps"] == 1


def test_a_broken_tables_draw_replays_with_its_keep_apart_pairs(started, api, director, actor):
    t = started(20)  # tables of 7, 7, 6: two out at table 3 and it breaks into the 4 open seats
    for entry in list(seat_map(t)[3].values())[:2]:
        bust(t, entry, actor)
    event = t.events.get(action="seating.table.broken")
    landed = {e: n for n, seats in seat_map(t).items() for e in seats.values()}
    mover = event.payload["card_order"][0][0]
    beside = next(e for e, n in landed.items() if n == landed[mover] and e != mover)
    # The draw seated the mover beside ``beside``: a log saying they were kept apart is forged.
    assert replayed(api, director, t, tampered(event, apart=[[mover, beside]]))["matches"] is False


def test_a_seat_drawn_among_several_open_seats_replays_with_its_inputs_and_pairs(started, api, controller_user, make_person, cashier_actor):
    """Tables of 7 and 6: the 6 breaks next, so the late player draws one of the 7's two open
    seats. The replay draws it again from the logged tables; a log adding a keep-apart pair
    with a player at that table is forged, one with a player at the other table is not."""
    t = started(13, late_reg_closes_after_level=6)
    sale = cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    event = t.events.get(action="seating.player.seated", payload__entry=sale.entry.pk)
    answer = replayed(api, controller_user, t, event)
    assert answer["matches"] is True and answer["recomputed"]["new_table"] is False
    at = seat_map(t)
    table = event.payload["table"]
    assert at[table][event.payload["seat"]] == sale.entry.pk
    beside = next(e for e in at[table].values() if e != sale.entry.pk)
    elsewhere = next(e for n, seats in at.items() if n != table for e in seats.values())
    assert replayed(api, controller_user, t, tampered(event, apart=[[sale.entry.pk, elsewhere]]))["matches"] is True
    assert replayed(api, controller_user, t, tampered(event, apart=[[beside, sale.entry.pk]]))["matches"] is False


def test_a_balancing_plan_replays_with_the_pairs_and_the_fixed_seats_it_was_drawn_with(started, api, controller_user, actor):
    """The player moved sits beside no one he must be kept from and holds no seat given by hand:
    a log adding such a pair, or marking his seat as given by hand, is not the plan drawn."""
    t = started(20, settings={"tie_break": "RANDOM_DRAW"})  # 7, 7, 6 at 9-max
    bust(t, next(iter(seat_map(t)[3].values())), actor)  # 7, 7, 5: one player moves to table 3
    event = t.events.get(action="seating.moves.proposed")
    assert replayed(api, controller_user, t, event)["matches"] is True
    (move,) = event.payload["moves"]
    at_three = next(iter(seat_map(t)[3].values()))
    assert replayed(api, controller_user, t, tampered(event, apart=[[move["entry"], at_three]]))["matches"] is False
    fixed = [*event.payload["fixed"], move["entry"]]
    assert replayed(api, controller_user, t, tampered(event, fixed=fixed))["matches"] is False


def test_a_start_replays_with_the_rooms_tables_the_players_per_table_and_the_seats_given_by_hand(started, api, controller_user):
    """The start's inputs are part of what replays: a log naming other room tables, fewer
    players per table or a seat given by hand that the draw never had is not this draw."""
    t = started(20)  # tables 1-3 of 7, 7, 6 at 9-max, nothing given by hand
    event = t.events.get(action="seating.draw.initial")
    assert replayed(api, controller_user, t, event)["matches"] is True
    other_tables = replayed(api, controller_user, t, tampered(event, table_numbers=[11, 12, 13]))
    assert other_tables["matches"] is False and {n for _e, n, _s in other_tables["recomputed"]["assignment"]} == {11, 12, 13}
    five_a_table = replayed(api, controller_user, t, tampered(event, max_players_per_table=5))
    assert five_a_table["matches"] is False and len({n for _e, n, _s in five_a_table["recomputed"]["assignment"]}) == 4
    entry, table, seat = event.payload["assignment"][0]
    elsewhere = next([n, s] for n in (1, 2, 3) for s in range(1, 10) if n != table and [n, s] not in [a[1:] for a in event.payload["assignment"]])
    by_hand = replayed(api, controller_user, t, tampered(event, reserved=[[entry, *elsewhere]]))
    # a seat given by hand is not drawn: the player is missing from the tickets recomputed
    assert by_hand["matches"] is False and entry not in [e for e, _n, _s in by_hand["recomputed"]["assignment"]]


def test_a_draw_in_advance_replays_with_the_rooms_tables_and_the_players_per_table(make_tournament, api, controller_user, actor):
    """A log of the draw in advance naming other room tables or fewer players per table than
    the draw had is not this draw: the sessions' tables recomputed differ."""
    t = make_tournament(status=Tournament.REGISTERING)
    add_entries(t, 11)
    services.predraw(t, ["1A", "1B"], actor=actor)  # 6 and 5: one table each
    event = t.events.get(action="seating.predraw")
    assert replayed(api, controller_user, t, event)["matches"] is True
    other_tables = replayed(api, controller_user, t, tampered(event, table_numbers=[11, 12]))
    assert other_tables["matches"] is False and {a[2] for a in other_tables["recomputed"]["assignment"]} == {11}
    four_a_table = replayed(api, controller_user, t, tampered(event, max_players_per_table=4))
    assert four_a_table["matches"] is False and {a[2] for a in four_a_table["recomputed"]["assignment"]} == {1, 2}


def test_a_manual_start_in_a_room_replays_its_buttons_in_the_rooms_table_order_with_the_seat_given_by_hand(make_tournament, actor, api, controller_user):
    """The room's house order puts table 13 first, then 12, then 11: the cards are printed in that
    order and the buttons are drawn table by table in that order, as the log says and replays."""
    hall = cardrooms.save_room("Hall", actor=actor)
    for number, position in ((11, 3), (12, 2), (13, 1)):
        cardrooms.save_table(hall, number, seats=9, position=position, actor=actor)
    t = make_tournament(settings={"draw_mode": "MANUAL"})
    entries = add_entries(t, 20)
    services.reserve_seat(t, entries[19], 11, 9, actor=actor, reason="wheelchair")
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    d = ManualDraw.objects.get(tournament=t, status=ManualDraw.OPEN)
    assert list(dict.fromkeys(tb for tb, _s in d.cards)) == [13, 12, 11] and [11, 9] not in d.cards
    for entry, (table, seat) in zip(entries, d.cards, strict=False):
        services.enter_card(t, entry, table, seat, actor=actor)
    seats = seat_map(t)
    assert sorted(seats) == [11, 12, 13] and seats[11][9] == entries[19].pk and sum(len(s) for s in seats.values()) == 20
    event = t.events.get(action="seating.draw.initial")
    assert event.payload["table_order"] == [13, 12, 11] and event.payload["reserved"] == [[entries[19].pk, 11, 9]]
    answer = replayed(api, controller_user, t, event)
    assert answer["matches"] is True and answer["recomputed"]["button_cards"] == event.payload["button_cards"]
    # the same buttons drawn in the order of the numbers, or without the seat given by hand, are not this draw
    assert replayed(api, controller_user, t, tampered(event, table_order=[11, 12, 13]))["matches"] is False
    assert replayed(api, controller_user, t, tampered(event, reserved=[]))["matches"] is False
