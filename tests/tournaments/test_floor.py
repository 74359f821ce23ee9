"""Floor tools through the services and the API: chips in play, counts, races, penalties."""

from decimal import Decimal

import pytest

from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.floor import selectors as floor_selectors
from tournaments.floor import services as floor
from tournaments.models import ChipAdjustment, ChipDenomination, ChipSet, Entry, Penalty, Person, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def field(make_tournament, make_person, cashier_actor):
    t = make_tournament(
        status=Tournament.RUNNING, format=Tournament.REBUY, rebuy_price=Decimal("50"), rebuy_chips=30000, addon_price=Decimal("20"), addon_chips=20000
    )
    entries = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(4)]
    return t, entries


def test_chips_in_play_follow_sales_reversals_and_removals(field, cashier_actor, actor):
    t, entries = field
    assert floor_selectors.chips_in_play(t) == 4 * 30000
    sale = cashier.register(t, Person.objects.create(first_name="Late", last_name="Comer"), method="CASH", actor=cashier_actor)
    assert floor_selectors.chips_in_play(t) == 5 * 30000
    cashier.reverse(sale.row, reason="wrong event", actor=cashier_actor)
    assert floor_selectors.chips_in_play(t) == 4 * 30000
    floor.remove_chips(t, chips=5000, kind=ChipAdjustment.OUT_OF_VIEW, reason="chips in pocket (TDA 63)", actor=actor, entry=entries[0])
    assert floor_selectors.chips_in_play(t) == 4 * 30000 - 5000
    with pytest.raises(DomainError) as e:
        floor.remove_chips(t, chips=5000, kind=ChipAdjustment.FORFEIT, reason="", actor=actor)
    assert e.value.code == "reason_required"


def test_cr06_a_sale_and_its_reversal_leave_no_chips_in_play(make_tournament, make_person, cashier_actor, api, floor_user):
    """CR-06: before the start, the only registration of an event is reversed: the sale and its
    reversal cancel out, so the floor's chips page says 0 chips in play; registered again, 30,000
    (one starting stack)."""
    t = make_tournament()
    sale = cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    cashier.reverse(sale.row, reason="wrong event", actor=cashier_actor)
    url = f"/api/v1/tournaments/{t.pk}/floor/chips/"
    assert api(floor_user).get(url).data["chips_in_play"] == 0
    cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    assert api(floor_user).get(url).data["chips_in_play"] == 30000


def test_counted_stacks_are_checked_against_chips_in_play(field, actor):
    t, entries = field
    summary = floor.record_chip_counts(t, [{"entry": e.pk, "chips": 30000} for e in entries[:3]], occasion="BREAK", actor=actor)
    assert summary["difference"] is None  # not everyone counted yet
    summary = floor.record_chip_counts(t, [{"entry": entries[3].pk, "chips": 29000}], occasion="BREAK", actor=actor)
    assert summary["counted_total"] == 119000 and summary["difference"] == -1000


def test_a_physical_chip_race_is_recorded_and_changes_chips_in_play(field, actor, settings):
    # RULES scenario 30 in 004 mode: odd T25s 75/50/25/75 → 2 × T100, 25 removed (FLOOR).
    t, _ = field
    t.settings = {"race_conversion": "FLOOR"}
    t.save()
    players = [
        {"seat": 1, "odd_value": 75, "stack_after_exchange": 10000},
        {"seat": 4, "odd_value": 50, "stack_after_exchange": 8000},
        {"seat": 7, "odd_value": 25, "stack_after_exchange": 5000},
        {"seat": 9, "odd_value": 75, "stack_after_exchange": 9000},
    ]
    before = floor_selectors.chips_in_play(t)
    rec = floor.run_chip_race(t, 3, players, removed_denomination=25, new_denomination=100, winners=[9, 1], actor=actor)
    assert rec.result["race_chips"] == 2 and rec.result["discarded_value"] == 25 and rec.mode == "MANUAL"
    assert floor_selectors.chips_in_play(t) == before - 25
    with pytest.raises(DomainError) as e:
        floor.run_chip_race(t, 4, players, removed_denomination=25, new_denomination=100, winners=[9, 9], actor=actor)
    assert e.value.code == "duplicate_winner"


def test_cr01_a_tables_race_entered_twice_is_refused_and_the_chips_leave_play_once(field, actor, settings):
    """The same table's race of the same chip, entered again (two floor people, or a second tap
    without the first's key): refused, so its odd chips leave play once; another table's race of
    that chip, and the same table's race of the next chip, are recorded."""
    t, _ = field
    t.settings = {"race_conversion": "FLOOR"}
    t.save()
    players = [{"seat": 1, "odd_value": 75, "stack_after_exchange": 10000}, {"seat": 4, "odd_value": 50, "stack_after_exchange": 8000}]
    before = floor_selectors.chips_in_play(t)
    floor.run_chip_race(t, 3, players, removed_denomination=25, new_denomination=100, winners=[1], actor=actor)
    assert floor_selectors.chips_in_play(t) == before - 25
    with pytest.raises(DomainError) as e:
        floor.run_chip_race(t, 3, players, removed_denomination=25, new_denomination=100, winners=[4], actor=actor)
    assert e.value.code == "race_already_recorded" and "table 3" in str(e.value.message)
    assert floor_selectors.chips_in_play(t) == before - 25
    floor.run_chip_race(t, 5, players, removed_denomination=25, new_denomination=100, winners=[4], actor=actor)
    odd = [{"seat": 1, "odd_value": 600, "stack_after_exchange": 10000}, {"seat": 4, "odd_value": 500, "stack_after_exchange": 8000}]
    floor.run_chip_race(t, 3, odd, removed_denomination=100, new_denomination=1000, winners=[1], actor=actor)
    assert t.chip_races.count() == 3


def test_a_random_race_never_races_anyone_out(field, actor):
    t, _ = field
    players = [{"seat": s, "odd_value": 75, "stack_after_exchange": 0} for s in (2, 5, 8)]
    rec = floor.run_chip_race(t, 1, players, removed_denomination=25, new_denomination=100, actor=actor)
    assert rec.mode == "RANDOM" and all(v > 0 for v in rec.result["final_stacks"].values())


def test_the_chip_set_tells_if_stacks_can_be_made_and_suggests_color_ups(field):
    t, _ = field
    cs = ChipSet.objects.create(name="Casino set")
    for value, qty in ((100, 3000), (500, 2000), (1000, 2000), (5000, 1000)):
        ChipDenomination.objects.create(chip_set=cs, value=value, quantity=qty)
    t.chip_set = cs
    t.field_cap = 100
    t.save()
    check = floor.stack_check(t)
    starting = check["stacks"]["starting"]
    assert starting["possible"] and sum(d * n for d, n in starting["breakdown"].items()) == 30000
    assert starting["racks_per_table"] >= 1
    suggestions = floor.color_up_suggestions(t)
    # The shipped structure takes the T100s out at its second break (CLK-09): not suggested again.
    assert suggestions and suggestions[0]["denominations"] == [500] and all(100 not in s["denominations"] for s in suggestions)
    t.structure.items.filter(kind="BREAK").update(removes_denominations=[])  # a structure that schedules nothing
    assert floor.color_up_suggestions(t)[0]["denominations"] == [100]


class TestPenalties:
    def test_missed_rounds_are_fixed_in_hands_at_issue(self, field, actor):
        t, entries = field
        p = floor.issue_penalty(t, entries[0], kind="MISSED_ROUNDS", reason_code="ABUSIVE_CONDUCT", rounds=3, players_at_table=7, actor=actor)
        assert p.hands_total == 21 and p.status == Penalty.ACTIVE  # 7 players × 3 rounds (PEN-02)
        p = floor.serve_hands(p, actor=actor)
        assert p.hands_left == 20

    def test_the_rule_set_bounds_rounds_and_suspensions(self, field, actor, make_tournament, make_person, cashier_actor):
        # RULES scenario 26: 5 rounds accepted in TDA mode (TDA escalates freely) ...
        t, entries = field
        assert (
            floor.issue_penalty(t, entries[0], kind="MISSED_ROUNDS", reason_code="ABUSIVE_CONDUCT", rounds=5, players_at_table=9, actor=actor).hands_total == 45
        )
        sanremo = make_tournament(status=Tournament.RUNNING, rule_set="SANREMO_003")
        e = cashier.register(sanremo, make_person(), method="CASH", actor=cashier_actor).entry
        with pytest.raises(DomainError) as err:
            floor.issue_penalty(sanremo, e, kind="MISSED_ROUNDS", reason_code="ABUSIVE_CONDUCT", rounds=5, players_at_table=9, actor=actor)
        assert err.value.code == "too_many_rounds"
        with pytest.raises(DomainError) as err:
            floor.issue_penalty(sanremo, e, kind="TIME_SUSPENSION", reason_code="LATE_SEAT_TAKING", minutes=45, actor=actor)
        assert err.value.code == "suspension_out_of_range"
        held = floor.issue_penalty(sanremo, e, kind="TIME_SUSPENSION", reason_code="LATE_SEAT_TAKING", minutes=20, actor=actor)
        assert (held.ends_at, held.seconds_left) == (None, 1200)  # PEN-05: the clock has not started, the time waits

    def test_disqualification_removes_the_chips_and_busts_the_player(self, field, actor):
        # RULES scenario 27: chips removed from inventory; placed by removal time; no refund.
        t, entries = field
        before = floor_selectors.chips_in_play(t)
        floor.issue_penalty(t, entries[1], kind="DISQUALIFICATION", reason_code="CHIP_DUMPING", actor=actor)
        entries[1].refresh_from_db()
        assert entries[1].status == Entry.BUSTED and entries[1].busted_at is not None
        assert floor_selectors.chips_in_play(t) == before - 30000
        with pytest.raises(DomainError) as e:
            cashier.refund(entries[1], reason="asks money back", actor=actor)
        assert e.value.code == "no_refund_after_playing"

    def test_pen07_a_player_counted_twice_loses_his_last_count_once(self, field, actor):
        """Repeated data: the player's stack was counted twice before he is disqualified (41,000
        at the break, then 36,500). What leaves play is his stack as last counted, once; a
        second disqualification of the same player is refused and removes nothing more."""
        t, entries = field
        floor.record_chip_counts(t, [{"entry": entries[1].pk, "chips": 41000}], occasion="BREAK", actor=actor)
        floor.record_chip_counts(t, [{"entry": entries[1].pk, "chips": 36500}], occasion="MANUAL", actor=actor)
        before = floor_selectors.chips_in_play(t)
        floor.issue_penalty(t, entries[1], kind="DISQUALIFICATION", reason_code="CHIP_DUMPING", actor=actor)
        (removed,) = ChipAdjustment.objects.filter(entry=entries[1], kind=ChipAdjustment.DISQUALIFICATION)
        assert removed.chips == -36500
        assert floor_selectors.chips_in_play(t) == before - 36500
        with pytest.raises(DomainError):
            floor.issue_penalty(t, entries[1], kind="DISQUALIFICATION", reason_code="CHIP_DUMPING", actor=actor)
        assert floor_selectors.chips_in_play(t) == before - 36500
        assert ChipAdjustment.objects.filter(entry=entries[1], kind=ChipAdjustment.DISQUALIFICATION).count() == 1

    def test_elimination_without_prize_is_flagged(self, field, actor):
        t, entries = field
        p = floor.issue_penalty(t, entries[2], kind="ELIMINATION_NO_PRIZE", reason_code="COLLUSION", actor=actor)
        assert p.prize_forfeited

    def test_history_follows_the_person_across_tournaments(self, field, actor, make_tournament, cashier_actor):
        t, entries = field
        floor.issue_penalty(t, entries[0], kind="WARNING", reason_code="ABUSIVE_CONDUCT", actor=actor)
        other = make_tournament(status=Tournament.RUNNING)
        e2 = cashier.register(other, entries[0].person, method="CASH", actor=cashier_actor).entry
        floor.issue_penalty(other, e2, kind="MISSED_HANDS", reason_code="ABUSIVE_CONDUCT", hands=3, actor=actor)
        assert [p.tournament_id for p in floor_selectors.penalty_history(entries[0].person)] == [other.pk, t.pk]


def test_floor_api_and_roles(api, floor_user, cashier_user, field):
    t, entries = field
    url = f"/api/v1/tournaments/{t.pk}/floor/penalties/"
    body = {"entry": entries[0].pk, "kind": "MISSED_ROUNDS", "reason_code": "ABUSIVE_CONDUCT", "rounds": 2, "players_at_table": 8}
    assert api(cashier_user).post(url, body, format="json").status_code == 403
    r = api(floor_user).post(url, body, format="json")
    assert r.status_code == 201 and r.data["hands_total"] == 16
    assert api(floor_user).post(url, {**body, "rounds": None, "kind": "TIME_SUSPENSION"}, format="json").data["code"] == "missing_value"
    listed = api(floor_user).get(url).data
    assert [p["hands_left"] for p in listed] == [16]
    r = api(floor_user).post(f"/api/v1/penalties/{listed[0]['id']}/serve/", {"hands": 2}, format="json")
    assert r.data["hands_left"] == 14
    chips = api(floor_user).get(f"/api/v1/tournaments/{t.pk}/floor/chips/").data
    assert chips["chips_in_play"] == 120000
    r = api(floor_user).get(f"/api/v1/people/{entries[0].person_id}/penalties/")
    assert len(r.data) == 1


def test_floor_and_person_pages_render(client, floor_user, field):
    t, entries = field
    client.force_login(floor_user)
    assert client.get(f"/tournaments/{t.pk}/floor/").status_code == 200
    r = client.get(f"/people/{entries[0].person_id}/")
    assert r.status_code == 200 and b"Penalty history" in r.content


def test_chip_sets_are_managed_in_the_api_and_a_page(api, director, client):
    r = api(director).post(
        "/api/v1/chipsets/",
        {"name": "Club set", "denominations": [{"value": 25, "colour": "green", "quantity": 1000}, {"value": 100, "colour": "black", "quantity": 1500}]},
        format="json",
    )
    assert r.status_code == 201 and [d["value"] for d in r.data["denominations"]] == [25, 100]
    assert (
        api(director)
        .post("/api/v1/chipsets/", {"name": "Bad", "denominations": [{"value": 5, "quantity": 1}, {"value": 5, "quantity": 2}]}, format="json")
        .status_code
        == 400
    )
    client.force_login(director)
    assert b"Club set" in client.get("/chipsets/").content


def test_a_structure_says_which_chips_leave_at_each_break(api, director):
    items = [
        {"kind": "LEVEL", "small_blind": 25, "big_blind": 50, "minutes": 20},
        {"kind": "BREAK", "minutes": 10, "color_up": "T25 out", "removes_denominations": [25]},
        {"kind": "LEVEL", "small_blind": 100, "big_blind": 200, "minutes": 20},
    ]
    r = api(director).post("/api/v1/structures/", {"name": "With colour-up", "items": items}, format="json")
    assert r.status_code == 201 and r.data["items"][1]["removes_denominations"] == [25]
    bad = [dict(items[0], removes_denominations=[25]), items[2]]
    assert api(director).post("/api/v1/structures/", {"name": "Bad", "items": bad}, format="json").data["code"] == "bad_item"


def test_the_chip_race_form_takes_the_chip_the_breaks_structure_removes(field, actor, director):
    """Issue #28 item 14: the race form offered the first colour-up the blinds allow whatever
    the break ("chip removed: 25" at the break that removes the T100s). It is now the current
    break's own chip, and before a break the chip the coming one removes; the API gives it."""
    from rest_framework.test import APIClient

    from tournaments.clock import services as clock_services
    from tournaments.models import StructureItem

    t, _ = field
    cs = ChipSet.objects.create(name="Casino set")
    for value, qty in ((25, 2000), (100, 3000), (500, 2000), (1000, 2000), (5000, 1000)):
        ChipDenomination.objects.create(chip_set=cs, value=value, quantity=qty)
    t.chip_set = cs
    t.save()
    items = list(t.structure.items.order_by("position"))
    first, second = [i for i, it in enumerate(items) if it.kind == StructureItem.BREAK][:2]
    StructureItem.objects.filter(pk=items[first].pk).update(removes_denominations=[25])
    StructureItem.objects.filter(pk=items[second].pk).update(removes_denominations=[100])
    assert floor.color_up_suggestions(t)[0]["denominations"][0] == 25  # what the form took at every break

    clock_services.start_clock(t, actor=actor)
    assert floor.race_denomination(t) == 25  # level 1: the coming break takes the T25s
    clock_services.jump_to(t, first, actor=actor)
    assert floor.race_denomination(t) == 25
    clock_services.jump_to(t, second, actor=actor)
    api = APIClient()
    api.force_authenticate(director)
    assert api.get(f"/api/v1/tournaments/{t.pk}/floor/chips/").json()["race_denomination"] == 100


def test_a_chip_race_sent_again_after_a_lost_answer_is_recorded_once(field, api, floor_user):
    """CR-01, repeated: scenario 30's race at table 3 (004 rounding: 25 removed from play) is
    sent by the tablet, the answer is lost, it sends it again with the same key: one race, the
    chips in play 25 lower once."""
    t, _ = field
    t.settings = {"race_conversion": "FLOOR"}
    t.save()
    body = {
        "table": 3,
        "removed_denomination": 25,
        "new_denomination": 100,
        "winners": [9, 1],
        "players": [
            {"seat": 1, "odd_value": 75, "stack_after_exchange": 10000},
            {"seat": 4, "odd_value": 50, "stack_after_exchange": 8000},
            {"seat": 7, "odd_value": 25, "stack_after_exchange": 5000},
            {"seat": 9, "odd_value": 75, "stack_after_exchange": 9000},
        ],
    }
    url = f"/api/v1/tournaments/{t.pk}/floor/race/"
    first = api(floor_user).post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="race-3")
    again = api(floor_user).post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="race-3")
    assert first.status_code == again.status_code == 201 and again.data["id"] == first.data["id"]
    assert t.chip_races.count() == 1
    assert floor_selectors.chips_in_play(t) == 4 * 30000 - 25 == again.data["chips_in_play"]


def test_cr04_a_player_raced_out_of_his_last_chips_is_given_one_t100_and_the_floor_sees_it(field, api, floor_user):
    """Seat 1 has only one T25, seat 2 one T25 and 3,000 more. Rounded down, 50 in T25s makes no
    T100: seat 1 would be raced out, so he is given one T100, the lowest chip left. The floor's
    answer shows his 100 and the chips in play: 120,000 - 50 removed + 100 given = 120,050."""
    t, _ = field
    t.settings = {"race_conversion": "FLOOR"}
    t.save()
    body = {
        "table": 2,
        "removed_denomination": 25,
        "new_denomination": 100,
        "winners": [],
        "players": [{"seat": 1, "odd_value": 25, "stack_after_exchange": 0}, {"seat": 2, "odd_value": 25, "stack_after_exchange": 3000}],
    }
    r = api(floor_user).post(f"/api/v1/tournaments/{t.pk}/floor/race/", body, format="json")
    assert r.status_code == 201, r.data
    assert r.data["result"]["final_stacks"] == {"1": 100, "2": 3000}
    assert r.data["result"]["raced_out_rescued"] == [1]
    assert r.data["chips_in_play"] == 120050 == floor_selectors.chips_in_play(t)
