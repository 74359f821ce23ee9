"""The prize pool as the payouts page and its API show it (PAY-01, PAY-02, PAY-08, FMT-02): the
deductions line by line, side prizes out of the pool, a Day 2's chip-leader prizes, a cancelled
event's money owed back, and the side prizes paid in the reconciliation."""

from decimal import Decimal

import pytest

from payouts import reports, services
from payouts import selectors as psel
from tests.formats.test_multiday import small_event
from tests.payouts.reconciliation_rows import BALANCED, expected, read
from tournaments.cashier import services as cashier
from tournaments.formats.services import multiday
from tournaments.models import Tournament
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db
D = Decimal


def sell(t, make_person, n, cashier_actor):
    return [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(n)]


def pool_shown(api, director, t) -> dict:
    r = api(director).get(f"/api/v1/tournaments/{t.pk}/payouts/pool/")
    assert r.status_code == 200, r.content
    return r.json()


def test_pay02_side_prizes_above_a_guaranteed_pool_take_what_is_left_one_after_the_other(make_tournament, make_person, cashier_actor, actor, api, director):
    """5 × €100 of prize parts on a €1,000 gross guarantee: the house adds €500, the 4 % staff fee
    takes €40, €960 is left. Four side prizes ask €1,029.50 of it: the first two take €600 and
    €359.50, the third the last €0.50 of its €50, the fourth nothing (no line)."""
    t = make_tournament(guarantee=D("1000"), deductions=[{"name": "staff service", "percent": "4"}])
    sell(t, make_person, 5, cashier_actor)
    for key, name, amount in (("cl", "Chip leader", "600"), ("hh", "High hand", "359.50"), ("bb", "Best bluff", "50"), ("lh", "Last hand", "20")):
        services.create_side_pool(t, kind="OTHER", name=name, key=key, from_prize_pool=amount, actor=actor)
    shown = pool_shown(api, director, t)
    assert shown["deductions"] == {"staff service": "40.00", "Chip leader": "600.00", "High hand": "359.50", "Best bluff": "0.50"}
    assert (shown["collected"], shown["net"], shown["overlay"], shown["total"]) == ("500.00", "-500.00", "500.00", "0.00")


def test_pay02_a_one_euro_side_prize_comes_out_of_the_pool_a_last_longer_of_its_own_money_does_not(
    make_tournament, make_person, cashier_actor, actor, api, director
):
    t = make_tournament(deductions=[{"name": "staff service", "percent": "4"}])
    sell(t, make_person, 5, cashier_actor)
    ll = services.create_side_pool(t, kind="LAST_LONGER", name="Last Longer", actor=actor)
    services.contribute_side_pool(ll, "100", actor=actor, note="sponsor")
    services.create_side_pool(t, kind="OTHER", name="Best hand", key="best-hand", from_prize_pool="1", actor=actor)
    shown = pool_shown(api, director, t)
    assert shown["deductions"] == {"staff service": "20.00", "Best hand": "1.00"}
    assert (shown["net"], shown["total"]) == ("479.00", "479.00")
    assert psel.display_summary(t)["prize_pool"] == "479.00"


def test_pay01_two_deductions_of_one_name_are_both_taken_and_shown_apart(make_tournament, make_person, cashier_actor, api, director):
    t = make_tournament(deductions=[{"name": "casino", "percent": "3"}, {"name": "casino", "percent": "2"}])
    sell(t, make_person, 5, cashier_actor)
    shown = pool_shown(api, director, t)
    assert shown["deductions"] == {"casino": "15.00", "casino (2)": "10.00"}
    assert shown["total"] == "475.00"


def test_fmt02_a_cancelled_guaranteed_event_shows_no_pool_and_owes_back_what_it_collected(make_tournament, make_person, cashier_actor, actor, api, director):
    t = make_tournament(guarantee=D("1000"), deductions=[{"name": "staff service", "percent": "4"}])
    sell(t, make_person, 3, cashier_actor)
    assert pool_shown(api, director, t)["total"] == "960.00"
    lifecycle.cancel(t, actor=actor, reason="the room is closed")
    shown = pool_shown(api, director, Tournament.objects.get(pk=t.pk))
    assert (shown["collected"], shown["deductions"], shown["overlay"], shown["total"], shown["refunds"]) == ("300.00", {}, "0.00", "0.00", "300.00")


def test_pay08_day2_names_the_flights_chip_leader_prizes_on_a_line_of_their_own_once_they_are_awarded(
    structure, make_person, cashier_actor, actor, api, director
):
    """A €1 chip-leader prize: nothing comes out of Day 2's pool while the flight plays, its own
    line once the flight closes and awards it."""
    event = small_event(structure, actor, chip_leader_prizes=["1"])
    f1a = event.flights.get(label="1A").tournament
    es = sell(f1a, make_person, 3, cashier_actor)
    shown = pool_shown(api, director, event.day2)
    assert (shown["collected"], shown["deductions"], shown["total"]) == ("300.00", {}, "300.00")
    lifecycle.start(f1a, actor=actor)
    multiday.bag_chips(f1a, [{"entry": e.pk, "chips": c, "bag_number": str(i)} for i, (e, c) in enumerate(zip(es, (30000, 20000, 10000)))], actor=actor)
    multiday.close_flight(f1a, actor=actor)
    shown = pool_shown(api, director, event.day2)
    assert (shown["collected"], shown["deductions"], shown["total"]) == ("300.00", {"Chip-leader prizes (Day 1 flights)": "1.00"}, "299.00")


def test_pay08_an_event_set_with_no_chip_leader_prizes_awards_none(structure, make_person, cashier_actor, actor, api, director):
    """The director cleared the chip-leader prizes (the house gives none): the flight's chip
    leaders win nothing at its close, and nothing comes out of Day 2's €300."""
    event = small_event(structure, actor, chip_leader_prizes=[])
    f1a = event.flights.get(label="1A").tournament
    es = sell(f1a, make_person, 3, cashier_actor)
    lifecycle.start(f1a, actor=actor)
    multiday.bag_chips(f1a, [{"entry": e.pk, "chips": c, "bag_number": str(i)} for i, (e, c) in enumerate(zip(es, (30000, 20000, 10000)))], actor=actor)
    multiday.close_flight(f1a, actor=actor)
    assert api(director).get(f"/api/v1/formats/multiday/{event.pk}/").json()["chip_leader_prizes"] == []
    assert not f1a.flight.chip_leader_awards.exists()
    shown = pool_shown(api, director, event.day2)
    assert (shown["collected"], shown["deductions"], shown["total"]) == ("300.00", {}, "300.00")


def test_fmt02_a_cancelled_flights_money_leaves_the_day2_pool(structure, make_person, cashier_actor, actor, api, director):
    event = small_event(structure, actor, flights=("1A", "1B"), chip_leader_prizes=[])
    f1a, f1b = (event.flights.get(label=label).tournament for label in ("1A", "1B"))
    sell(f1a, make_person, 2, cashier_actor)
    sell(f1b, make_person, 3, cashier_actor)
    assert pool_shown(api, director, event.day2)["collected"] == "500.00"
    lifecycle.cancel(f1a, actor=actor, reason="nobody came")
    assert pool_shown(api, director, event.day2)["collected"] == "300.00"


def test_pay02_a_side_prize_out_of_the_pool_paid_at_the_desk_is_side_money_out_in_the_reconciliation(make_tournament, make_person, cashier_actor, actor):
    t = make_tournament()
    es = sell(t, make_person, 5, cashier_actor)
    chip = services.create_side_pool(t, kind="CHIP_LEADER", name="Chip leader", from_prize_pool="50", actor=actor)
    (award,) = services.award_side_pool(chip, awards=[(es[0], "50")], actor=actor)
    services.pay_prize(es[0], method="CASH", source=f"SIDE:{award.pk}", actor=cashier_actor)
    report = reports.reconciliation_data(t)
    lines = {str(label): value for label, value in report["lines"]}
    assert (lines["Prize pool"], lines["Money out: side prizes paid"], lines["Side pools: still held"]) == (D("450.00"), D("50.00"), D("0.00"))
    assert report["balanced"], report["lines"]


def test_pay02_a_side_prize_named_like_a_deduction_is_a_line_of_its_own_and_the_deduction_stays(
    make_tournament, make_person, cashier_actor, actor, api, director
):
    """5 × €100 with a 4 % "staff service" and a €50 side prize out of the pool that the director
    also called "staff service": the €20 fee and the €50 prize are two lines, €430 is left (the
    prize's line had taken the fee's place: the fee was still taken, but no longer shown)."""
    t = make_tournament(deductions=[{"name": "staff service", "percent": "4"}])
    sell(t, make_person, 5, cashier_actor)
    services.create_side_pool(t, kind="OTHER", name="staff service", key="staff-dinner", from_prize_pool="50", actor=actor)
    shown = pool_shown(api, director, t)
    assert shown["deductions"] == {"staff service": "20.00", "staff service (Other)": "50.00"}
    assert (shown["net"], shown["overlay"], shown["total"]) == ("430.00", "0.00", "430.00")


def test_fmt02_the_multi_day_events_page_counts_a_cancelled_flights_money_out(structure, make_person, cashier_actor, actor, api, director):
    event = small_event(structure, actor, flights=("1A", "1B"), chip_leader_prizes=[])
    f1a, f1b = (event.flights.get(label=label).tournament for label in ("1A", "1B"))
    sell(f1a, make_person, 2, cashier_actor)
    sell(f1b, make_person, 3, cashier_actor)
    shown = api(director).get(f"/api/v1/formats/multiday/{event.pk}/").json()
    assert shown["money"] == {"prize": "500.00", "fee": "50.00"}  # 5 × (€100 + €10)
    lifecycle.cancel(f1a, actor=actor, reason="nobody came")
    shown = api(director).get(f"/api/v1/formats/multiday/{event.pk}/").json()
    assert shown["money"] == {"prize": "300.00", "fee": "30.00"}  # 1B's three players only: 1A's two are owed back
    assert shown["day2"] == {"tournament": event.day2_id, "status": "PLANNED", "built": False, "players": 0}
    flights = [(f["label"], f["tournament"], f["name"], f["status"], f["closed"], f["entries"], f["playing"], f["bagging"]) for f in shown["flights"]]
    assert flights == [
        ("1A", f1a.pk, "Small Main — Day 1A", "CANCELLED", False, 0, 0, None),
        ("1B", f1b.pk, "Small Main — Day 1B", "REGISTERING", False, 3, 3, None),
    ]


def test_pay02_side_pools_of_the_house_s_money_and_of_the_pool_s_read_line_by_line(make_tournament, make_person, cashier_actor, actor):
    """5 × (€100 + €10); a Last Longer of €150 the house puts up, not yet awarded, and a €50
    chip-leader prize out of the prize pool, paid: the pool is 450, the side pools still hold 150."""
    t = make_tournament()
    es = sell(t, make_person, 5, cashier_actor)
    last_longer = services.create_side_pool(t, kind="LAST_LONGER", name="Last Longer", actor=actor)
    services.contribute_side_pool(last_longer, "150", actor=actor)
    chip = services.create_side_pool(t, kind="CHIP_LEADER", name="Chip leader", from_prize_pool="50", actor=actor)
    (award,) = services.award_side_pool(chip, awards=[(es[0], "50")], actor=actor)
    services.pay_prize(es[0], method="CASH", source=f"SIDE:{award.pk}", actor=cashier_actor)
    rows, result = read(t)
    assert rows == expected(
        {
            "Money in: prize parts": "500.00",
            "Money in: fees": "50.00",
            "Money in: total": "550.00",
            "Prize pool": "450.00",
            "Deductions kept by the house": "50.00",  # the chip-leader prize, taken from the pool as the deductions are
            "Fees kept by the house": "50.00",
            "Money out: side prizes paid": "50.00",
            "Prize pool not yet paid": "450.00",
            "… places still to be decided": "450.00",
            "Side pools: still held": "150.00",
        }
    )
    assert result == BALANCED
