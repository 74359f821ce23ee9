"""Multi-day events (FMT-11, FMT-07, PAY-08): flights, stack choice, bagging, surrender,
chip leaders, Day 2 with the bagged stacks, a fresh draw and the final standings."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.floor.services import chips_in_play
from tournaments.formats import selectors
from tournaments.formats.models import Bag, ChipLeaderAward, EntryStackChoice, QualifiedEntry
from tournaments.formats.services import multiday, stackchoice
from tournaments.models import ChipAdjustment, ChipCount, Entry, LedgerRow, Tournament
from tournaments.setup import lifecycle

from .conftest import bust, bust_in_order

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(structure, actor):
    now = timezone.now()
    return multiday.create_event(
        name="Main Event",
        flights=[{"label": "1A", "start_at": now}, {"label": "1B", "start_at": now + timedelta(days=1)}],
        day2_start_at=now + timedelta(days=2),
        buy_in=Decimal("1000"),
        fee=Decimal("100"),
        starting_stack=30000,
        structure=structure,
        actor=actor,
        max_entries_per_player=2,
    )


def flight(event, label):
    return event.flights.get(label=label).tournament


def flight_closed_with_its_leader_paid(event, make_person, cashier_actor, actor):
    """Flight 1A of ``event`` with five entries bagged at 50,000 down to 10,000 and closed, its
    chip leader's prize paid at its desk."""
    from payouts import selectors as payout_selectors
    from payouts import services as payouts

    t = flight(event, "1A")
    es = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(5)]
    lifecycle.start(t, actor=actor)
    multiday.bag_chips(
        t, [{"entry": e.pk, "chips": c, "bag_number": str(i)} for i, (e, c) in enumerate(zip(es, (50000, 40000, 30000, 20000, 10000)))], actor=actor
    )
    multiday.close_flight(t, actor=actor)
    leader = next(d for d in payout_selectors.dues(t) if d["source"].startswith("CHIPLEADER:") and d["entry_id"] == es[0].pk)
    payouts.pay_prize(es[0], method="CASH", actor=cashier_actor, source=leader["source"])
    return t


def small_event(structure, actor, flights=("1A",), **kw):
    """A small multi-day event: its Day 1 flights (1A alone unless ``flights`` names more), the
    first now and each next an hour later, Day 2 tomorrow, €100 + €10 (``kw``: more of
    ``multiday.create_event``'s settings)."""
    now = timezone.now()
    return multiday.create_event(
        name="Small Main",
        flights=[{"label": label, "start_at": now + timedelta(hours=i)} for i, label in enumerate(flights)],
        day2_start_at=now + timedelta(days=1),
        buy_in=Decimal("100"),
        fee=Decimal("10"),
        starting_stack=20000,
        structure=structure,
        actor=actor,
        **kw,
    )


def test_a_multi_day_event_from_the_flights_to_the_day2_winner(event, make_person, cashier_actor, actor):
    f1a, f1b, day2 = flight(event, "1A"), flight(event, "1B"), event.day2
    assert f1a.format == Tournament.MULTIDAY and day2.status == Tournament.PLANNED
    # FMT-07: stack choice on Day 1A: the regular product and a deep one.
    deep = stackchoice.add_stack_option(
        f1a, label="Deep 45k", buy_in=Decimal("1400"), fee=Decimal("140"), chips=45000, actor=actor, override_reason="announced with the schedule"
    )
    ann, bob, cid, dan, eve, fay = (make_person(n) for n in ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay"))
    sell = lambda t, p: cashier.register(t, p, method="CASH", actor=cashier_actor).entry
    a1 = stackchoice.register_with_stack_choice(f1a, ann, deep, method="CARD", actor=cashier_actor).entry
    b1, c1, d1 = sell(f1a, bob), sell(f1a, cid), sell(f1a, dan)
    assert a1.chips == 45000 and EntryStackChoice.objects.get(entry=a1).option == deep
    row = LedgerRow.objects.get(entry=a1)
    assert (row.prize_amount, row.fee_amount, row.chips) == (Decimal("1400.00"), Decimal("140.00"), 45000)
    lifecycle.start(f1a, actor=actor)
    bust(d1)  # Dan busts in 1A …
    d1b = cashier.reenter(f1a, dan, method="CASH", actor=cashier_actor).entry  # … re-enters the same flight
    bust(d1b)  # … and busts again: he will try 1B
    in_play = chips_in_play(f1a)
    assert in_play == 45000 + 3 * 30000 + 30000
    # End of 1A: the room is bagged in one call; Cid surrenders (irreversible, chips out of play).
    summary = multiday.bag_chips(
        f1a,
        [
            {"number": a1.number, "chips": 80000, "bag_number": "A-001", "dealer": "Luca", "signed": True},
            {"number": b1.number, "chips": 55000, "bag_number": "A-002"},
            {"number": c1.number, "chips": 30000, "bag_number": "A-003", "surrender": True, "signed": True},
        ],
        actor=actor,
    )
    assert summary["surrendered_chips"] == 30000 and summary["chips_in_play"] == in_play - 30000
    assert summary["difference"] == 0 and summary["unbagged_entries"] == []
    assert ChipCount.objects.filter(tournament=f1a, occasion="BAGGING").count() == 3
    adj = ChipAdjustment.objects.get(tournament=f1a, kind=ChipAdjustment.SURRENDER)
    assert adj.chips == -30000 and adj.entry_id == c1.pk
    with pytest.raises(DomainError) as e:  # no change of mind
        multiday.bag_chips(f1a, [{"number": c1.number, "chips": 30000, "bag_number": "A-004"}], actor=actor)
    assert e.value.code == "not_playing"
    multiday.close_flight(f1a, actor=actor)
    f1a.refresh_from_db()
    assert f1a.status == Tournament.FINISHED
    # PAY-08: chip leaders of 1A (2 bags left): 2000 and 1000.
    assert [(a.entry_id, a.amount) for a in ChipLeaderAward.objects.filter(flight__tournament=f1a)] == [
        (a1.pk, Decimal("2000.00")),
        (b1.pk, Decimal("1000.00")),
    ]

    # Day 1B: Cid (surrendered) and Dan (busted in 1A) buy in again; Bob (already bagged) plays it too.
    c2, d2, b2, e2, f2 = sell(f1b, cid), sell(f1b, dan), sell(f1b, bob), sell(f1b, eve), sell(f1b, fay)
    lifecycle.start(f1b, actor=actor)
    bust_in_order([f2])
    multiday.bag_chips(
        f1b, [{"number": c2.number, "chips": 20000, "bag_number": "B-001"}, {"number": d2.number, "chips": 40000, "bag_number": "B-002"}], actor=actor
    )
    with pytest.raises(DomainError) as e:  # a player is not bagged yet
        multiday.close_flight(f1b, actor=actor)
    assert e.value.code == "not_all_bagged"
    multiday.bag_chips(
        f1b, [{"number": b2.number, "chips": 60000, "bag_number": "B-003"}, {"number": e2.number, "chips": 30001, "bag_number": "B-004"}], actor=actor
    )
    with pytest.raises(DomainError) as e:  # one chip too many
        multiday.close_flight(f1b, actor=actor)
    assert e.value.code == "count_mismatch" and e.value.extra["difference"] == 1
    multiday.close_flight(f1b, actor=actor, reason="one T1 chip found under the rail")

    # Day 2: every survivor, one stack each (Bob: his best bag, 60,000 from 1B), no money.
    entries = multiday.build_day2(event, actor=actor)
    stacks = {e.person.first_name: e.chips for e in entries}
    assert stacks == {"Ann": 80000, "Bob": 60000, "Cid": 20000, "Dan": 40000, "Eve": 30001}
    assert not LedgerRow.objects.filter(tournament=day2).exists()
    assert QualifiedEntry.objects.filter(entry__tournament=day2, source=QualifiedEntry.DAY1_BAG).count() == 5
    assert chips_in_play(day2) == 80000 + 60000 + 20000 + 40000 + 30001
    assert day2.events.filter(action="formats.day2.built").get().payload["bags_not_carried"] == ["A-002"]
    with pytest.raises(DomainError):  # no direct entries unless the director opens Day 2's registration
        cashier.register(day2, fay, method="CASH", actor=cashier_actor)
    multiday.start_day2(event, actor=actor)
    day2.refresh_from_db()
    assert day2.status == Tournament.RUNNING
    by_name = {e.person.first_name: e for e in day2.entries.all()}
    bust_in_order([by_name[n] for n in ("Cid", "Eve", "Dan", "Bob")])
    multiday.finish_day2(event, actor=actor)
    places = {e.person.first_name: e.place for e in day2.entries.all()}
    assert places == {"Ann": 1, "Bob": 2, "Dan": 3, "Eve": 4, "Cid": 5}
    # The money of the event: every flight's prize part (1A: 1400 + 3 × 1000 + Dan's re-entry 1000; 1B: 5 × 1000).
    assert selectors.event_money(event) == {"prize": Decimal("10400.00"), "fee": Decimal("1040.00")}


def test_first_flight_rule_carries_the_earliest_bag(structure, make_person, cashier_actor, actor):
    now = timezone.now()
    event = multiday.create_event(
        name="Festival",
        flights=[{"label": "1A", "start_at": now}, {"label": "1B", "start_at": now}],
        day2_start_at=now,
        buy_in=Decimal("100"),
        fee=Decimal("10"),
        starting_stack=10000,
        structure=structure,
        actor=actor,
        multi_flight_stack="FIRST",
    )
    p, q = make_person(), make_person()
    for label, chips in (("1A", 12000), ("1B", 8000)):
        t = flight(event, label)
        ep = cashier.register(t, p, method="CASH", actor=cashier_actor).entry
        eq = cashier.register(t, q, method="CASH", actor=cashier_actor).entry
        lifecycle.start(t, actor=actor)
        multiday.bag_chips(t, [{"entry": ep.pk, "chips": chips, "bag_number": "1"}, {"entry": eq.pk, "chips": 20000 - chips, "bag_number": "2"}], actor=actor)
        multiday.close_flight(t, actor=actor)
    stacks = {e.person_id: e.chips for e in multiday.build_day2(event, actor=actor)}
    assert stacks == {p.pk: 12000, q.pk: 8000}


def test_tied_chip_leaders_share_their_prizes(event, make_person, cashier_actor, actor):
    t = flight(event, "1A")
    es = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(3)]
    lifecycle.start(t, actor=actor)
    multiday.bag_chips(
        t,
        [
            {"entry": es[0].pk, "chips": 40000, "bag_number": "1"},
            {"entry": es[1].pk, "chips": 40000, "bag_number": "2"},
            {"entry": es[2].pk, "chips": 10000, "bag_number": "3"},
        ],
        actor=actor,
    )
    multiday.close_flight(t, actor=actor)
    awards = list(ChipLeaderAward.objects.filter(flight__tournament=t).values_list("rank", "amount", "shared_with"))
    assert awards == [(1, Decimal("1500.00"), 2), (1, Decimal("1500.00"), 2), (3, Decimal("500.00"), 1)]


def test_bagging_refuses_duplicate_bags_and_closed_flights(event, make_person, cashier_actor, actor):
    t = flight(event, "1A")
    a, b = (cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(2))
    with pytest.raises(DomainError) as e:
        multiday.bag_chips(t, [{"entry": a.pk, "chips": 1, "bag_number": "1"}], actor=actor)
    assert e.value.code == "bad_status"  # not running yet
    lifecycle.start(t, actor=actor)
    with pytest.raises(DomainError) as e:
        multiday.bag_chips(t, [{"entry": a.pk, "chips": 30000, "bag_number": "7"}, {"entry": b.pk, "chips": 30000, "bag_number": "7"}], actor=actor)
    assert e.value.code == "bag_number_used" and not Bag.objects.exists()  # nothing half-written
    with pytest.raises(DomainError) as e:
        multiday.build_day2(event, actor=actor)
    assert e.value.code == "flights_open"


def test_stack_choice_respects_the_desk_rules(event, make_person, cashier_actor, actor):
    t = flight(event, "1A")
    t.field_cap = 1
    t.save()
    with pytest.raises(DomainError) as e:  # registration is open: prices are locked without a reason
        stackchoice.add_stack_option(t, label="Turbo", buy_in=Decimal("500"), fee=Decimal("50"), chips=15000, actor=actor)
    assert e.value.code == "money_locked"
    deep = stackchoice.add_stack_option(t, label="Deep", buy_in=Decimal("1900"), fee=Decimal("190"), chips=60000, actor=actor, override_reason="x")
    with pytest.raises(DomainError) as e:  # 2,090 cash is above the 2,000 limit (REG-06)
        stackchoice.register_with_stack_choice(t, make_person(), deep, method="CASH", actor=cashier_actor)
    assert e.value.code == "cash_limit_exceeded"
    stackchoice.register_with_stack_choice(t, make_person(), deep, method="CARD", actor=cashier_actor)
    with pytest.raises(DomainError) as e:
        stackchoice.register_with_stack_choice(t, make_person(), deep, method="CARD", actor=cashier_actor)
    assert e.value.code == "field_full"
    assert Entry.objects.filter(tournament=t).count() == 1


def test_the_flights_money_is_the_day2_prize_pool(event, make_person, cashier_actor):
    """A multi-day event has one prize pool: the flights' prize parts pay on Day 2, and each
    flight's reconciliation says where its money went."""
    from payouts import selectors
    from payouts.reports import reconciliation_data

    f1a, f1b, day2 = flight(event, "1A"), flight(event, "1B"), event.day2
    for t, n in ((f1a, 3), (f1b, 2)):
        for _ in range(n):
            cashier.register(t, make_person(), method="CARD", actor=cashier_actor)
    assert selectors.pool_breakdown(f1a).total == Decimal("0.00")
    assert selectors.pool_breakdown(day2).collected == Decimal("5000.00")
    flight_rec = reconciliation_data(f1a)
    assert flight_rec["in_difference"] == 0
    assert dict((str(k), v) for k, v in flight_rec["lines"])["Carried to Day 2"] == Decimal("3000.00")
    day2_lines = dict((str(k), v) for k, v in reconciliation_data(day2)["lines"])
    assert day2_lines["Money in: prize parts"] == Decimal("5000.00") and day2_lines["Money in not accounted for"] == 0


def test_chip_leader_prizes_are_paid_at_the_flight_desk_and_come_out_of_the_day2_pool(event, make_person, cashier_actor, actor, api, cashier_user):
    """PAY-08 prizes are due at the desk once the flight closes; PAY-02: the Day 2 pool (the
    whole event's) is gross of them, so Day 2 shares what is left."""
    from payouts import selectors as payout_selectors
    from payouts import services as payouts

    day2 = event.day2
    pool_before = payout_selectors.pool_breakdown(day2)
    t = flight(event, "1A")
    es = [cashier.register(t, make_person(n), method="CASH", actor=cashier_actor).entry for n in ("Ann", "Bob", "Cid", "Dan")]
    lifecycle.start(t, actor=actor)
    bust(es[3])
    multiday.bag_chips(
        t,
        [
            {"entry": es[0].pk, "chips": 60000, "bag_number": "1"},
            {"entry": es[1].pk, "chips": 20000, "bag_number": "2"},
            {"entry": es[2].pk, "chips": 40000, "bag_number": "3"},
        ],
        actor=actor,
    )
    multiday.close_flight(t, actor=actor)

    due = [d for d in payout_selectors.dues(t) if d["source"].startswith("CHIPLEADER:")]
    assert [(d["entry_id"], d["amount"], d["kind"], d["paid"]) for d in due] == [
        (es[0].pk, Decimal("2000.00"), "CASH", False),
        (es[2].pk, Decimal("1000.00"), "CASH", False),
        (es[1].pk, Decimal("500.00"), "CASH", False),
    ]
    assert "1A" in due[0]["description"]
    # The desk lists them with the other prizes due, and pays them through the API.
    listed = api(cashier_user).get(f"/api/v1/payouts/due/?tournament={t.pk}").json()
    assert {d["source"] for d in listed} >= {d["source"] for d in due}
    r = api(cashier_user).post("/api/v1/payouts/pay/", {"entry": es[0].pk, "method": "CASH", "source": due[0]["source"]}, format="json")
    assert r.status_code == 201, r.content
    row = LedgerRow.objects.get(tournament=t, kind=LedgerRow.PAYOUT)
    assert (row.prize_amount, row.entry_id, row.method) == (Decimal("-2000.00"), es[0].pk, "CASH")
    assert "Chip leader" in row.note
    with pytest.raises(DomainError) as e:  # once only
        payouts.pay_prize(es[0], method="CASH", actor=cashier_actor, source=due[0]["source"])
    assert e.value.code == "already_paid"
    with pytest.raises(DomainError) as e:  # Bob's prize is not Ann's to collect
        payouts.pay_prize(es[0], method="CASH", actor=cashier_actor, source=due[2]["source"])
    assert e.value.code == "nothing_due"

    # Day 2's pool: the flights' prize parts, less the 3,500 of chip-leader prizes (named).
    pool = payout_selectors.pool_breakdown(day2)
    assert pool.collected == pool_before.collected + Decimal("4000.00")
    chip_leaders = {k: v for k, v in pool.deductions.items() if "hip-leader" in k}
    assert list(chip_leaders.values()) == [Decimal("3500.00")]
    assert pool.total == pool.collected - sum(pool.deductions.values(), Decimal(0)) + pool.overlay
    assert pool.total < pool_before.total + Decimal("4000.00") - Decimal("3000.00")


def test_the_reconciliations_balance_with_chip_leader_prizes(event, make_person, cashier_actor, actor):
    """The flight paid a chip-leader prize out of the event's pool; Day 2 shows the pool net
    of the prizes awarded: both reconciliations explain every cent."""
    from payouts import reports

    t = flight_closed_with_its_leader_paid(event, make_person, cashier_actor, actor)
    flight_report = reports.reconciliation_data(t)
    assert flight_report["balanced"], flight_report["lines"]
    day2_report = reports.reconciliation_data(event.day2)
    lines = {str(label): value for label, value in day2_report["lines"]}
    assert lines["Chip-leader prizes of the Day 1 flights"] == Decimal("3500.00")
    assert day2_report["in_difference"] == 0, day2_report["lines"]


def test_a_player_who_surrenders_at_bagging_leaves_the_table_map(event, make_person, cashier_actor, actor):
    """Found by the simulator: a surrendered player (out of the flight, unranked) kept his seat on
    the table map, so the seat lookup still sent him to his table. A surrender frees the seat."""
    from seating import services as seating
    from seating.selectors import seat_of

    f1a = flight(event, "1A")
    ann, bob, cid = (cashier.register(f1a, make_person(n), method="CASH", actor=cashier_actor).entry for n in ("Ann", "Bob", "Cid"))
    lifecycle.start(f1a, actor=actor)
    assert seat_of(cid)
    multiday.bag_chips(
        f1a,
        [
            {"number": ann.number, "chips": 40000, "bag_number": "A-001"},
            {"number": bob.number, "chips": 30000, "bag_number": "A-002"},
            {"number": cid.number, "chips": 20000, "bag_number": "A-003", "surrender": True},
        ],
        actor=actor,
    )
    assert Entry.objects.get(pk=cid.pk).status == Entry.BUSTED
    assert seat_of(cid) is None
    assert seat_of(ann) and seat_of(bob)
    # out without a bust (his bag is out of play): a tablet tapping him out is told he no longer plays
    with pytest.raises(DomainError) as e:
        seating.record_bust(f1a, [cid.pk], actor=actor)
    assert (e.value.code, str(e.value.message)) == ("not_playing", f"Entry #{cid.number} is not playing in this tournament.")


def test_chip_leader_prizes_above_a_small_pool_are_the_houses_overlay(structure, make_person, cashier_actor, actor):
    """Found by the simulated days (day seeds 400008, 400009): a small flight (3 × €100 of prize
    parts) pays its €3,500 of chip-leader prizes (PAY-08); Day 2's pool cannot fund them. The
    pool showed nothing while €3,200 of the prizes came from nowhere ("Entrate non contabilizzate:
    -3200"). What the pool cannot fund is the house's money, an overlay as a guarantee's is."""
    from payouts import reports
    from payouts import selectors as payout_selectors

    small = small_event(structure, actor)
    t = flight(small, "1A")
    es = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(3)]
    lifecycle.start(t, actor=actor)
    multiday.bag_chips(t, [{"entry": e.pk, "chips": c, "bag_number": str(i)} for i, (e, c) in enumerate(zip(es, (30000, 20000, 10000)))], actor=actor)
    multiday.close_flight(t, actor=actor)

    pool = payout_selectors.pool_breakdown(small.day2)
    assert (pool.collected, pool.total, pool.overlay) == (Decimal("300.00"), Decimal("0"), Decimal("3200.00"))
    report = reports.reconciliation_data(small.day2)
    lines = {str(label): value for label, value in report["lines"]}
    assert lines["Overlay added by the house"] == Decimal("3200.00")
    assert report["balanced"], report["lines"]


def test_a_sale_reversed_after_the_flight_closed_moves_the_places_up(structure, make_person, cashier_actor, actor):
    """Found by the simulated days (day seed 700048): a flight of six, one out (6th), five bagged
    (one of them surrendering: out, without a seat or a place) and the flight closed; the
    surrendered player's buy-in, sold by mistake, reversed: the field was five and a player still
    6th. Releasing a cancelled entry recomputed the places only when it had a seat or a bust;
    this one had neither."""
    from seating import services as seating

    small = small_event(structure, actor)
    t = flight(small, "1A")
    es = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(6)]
    lifecycle.start(t, actor=actor)
    seating.record_bust(t, [es[5].pk], actor=actor)
    assert Entry.objects.get(pk=es[5].pk).place == 6
    rows = [{"entry": e.pk, "chips": 24000, "bag_number": str(i)} for i, e in enumerate(es[:5])]
    rows[4]["surrender"] = True
    multiday.bag_chips(t, rows, actor=actor)
    multiday.close_flight(t, actor=actor)
    unbagged = Entry.objects.get(pk=es[4].pk)
    assert (unbagged.status, unbagged.place) == (Entry.BUSTED, None)
    cashier.reverse(LedgerRow.objects.get(entry=es[4], kind=LedgerRow.BUY_IN), reason="sold twice", actor=actor)
    assert Entry.objects.get(pk=es[5].pk).place == 5


def test_a_flight_sale_is_not_reversed_out_of_a_day2_pool_whose_paid_places_are_decided(structure, make_person, cashier_actor, actor):
    """Found by the simulated days (day seed 1200053): Day 2 played to its winner and two prizes
    paid, then a flight's buy-in reversed: its €100 prize part left the Day 2 pool the places had
    shared ("differenza non giustificata -200"). The flight's money is the Day 2's pool: once its
    paid places are decided, it no longer shrinks (PAY-05), as an event's own sales do not."""
    from payouts import reports
    from seating import services as seating

    small = small_event(structure, actor)
    t = flight(small, "1A")
    es = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(4)]
    lifecycle.start(t, actor=actor)
    multiday.bag_chips(t, [{"entry": e.pk, "chips": 20000, "bag_number": str(i)} for i, e in enumerate(es)], actor=actor)
    multiday.close_flight(t, actor=actor)
    multiday.build_day2(small, actor=actor)
    multiday.start_day2(small, actor=actor)
    day2 = small.day2
    for entry in day2.entries.filter(status=Entry.ACTIVE).order_by("number")[:3]:
        seating.record_bust(day2, [entry.pk], actor=actor)
    multiday.finish_day2(small, actor=actor)
    with pytest.raises(DomainError) as refused:
        cashier.reverse(LedgerRow.objects.get(entry=es[0], kind=LedgerRow.BUY_IN), reason="sold twice", actor=actor)
    assert refused.value.code == "prize_places_decided"
    assert reports.reconciliation_data(day2)["balanced"]


def test_a_guarantee_goes_on_day2_never_on_a_flight(event, make_person, cashier_actor, api, director):
    """A flight's prize parts make Day 2's pool: a flight has no pool of its own to guarantee.
    Found by the simulator (day seed 1800000): a guarantee raised on flight 1A gave it an overlay
    of its own, and neither its reconciliation nor Day 2's pool accounted for it."""
    from payouts import selectors
    from payouts.reports import reconciliation_data

    f1a = flight(event, "1A")
    cashier.register(f1a, make_person(), method="CASH", actor=cashier_actor)
    r = api(director).patch(f"/api/v1/tournaments/{f1a.pk}/", {"guarantee": "2500", "override_reason": "sponsor"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "guarantee_elsewhere" and "guarantee" in r.json()["fields"]
    assert "Main Event — Day 2" in r.json()["detail"]
    f1a.refresh_from_db()
    assert f1a.guarantee is None and selectors.pool_breakdown(f1a).total == Decimal("0.00")
    assert reconciliation_data(f1a)["in_difference"] == 0
    r = api(director).patch(f"/api/v1/tournaments/{event.day2.pk}/", {"guarantee": "2500", "override_reason": "sponsor"}, format="json")
    assert r.status_code == 200, r.json()
    assert selectors.pool_breakdown(Tournament.objects.get(pk=event.day2.pk)).total == Decimal("2500.00")


def test_a_cancelled_flights_refunds_do_not_shrink_a_day2_pool_already_paid(event, make_person, cashier_actor, actor, controller_user):
    """Found by the simulated days (day seeds 1800103, 1800113): flight 1A sold entries and was
    cancelled, Day 2 was built from 1B, played and its prizes paid, then 1A's refunds were paid at
    the desk: they took 1A's prize parts out of the Day 2 pool those prizes had shared
    (reconciliation off by 100.00). A cancelled flight carries nothing to Day 2: its money leaves
    the Day 2 pool when it is cancelled, and its refunds are its own reconciliation's."""
    from payouts import reports
    from payouts import selectors as payout_selectors
    from payouts import services as payouts
    from seating import services as seating
    from tournaments.eventlog.services import Actor

    f1a, f1b, day2 = flight(event, "1A"), flight(event, "1B"), event.day2
    cancelled = [cashier.register(f1a, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(2)]
    es = [cashier.register(f1b, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(4)]
    lifecycle.cancel(f1a, actor=actor, reason="the room closes")
    assert payout_selectors.pool_breakdown(day2).collected == Decimal("4000.00")  # 1B's prize parts only
    lifecycle.start(f1b, actor=actor)
    multiday.bag_chips(f1b, [{"entry": e.pk, "chips": 30000, "bag_number": str(i)} for i, e in enumerate(es)], actor=actor)
    multiday.close_flight(f1b, actor=actor)
    multiday.build_day2(event, actor=actor)
    multiday.start_day2(event, actor=actor)
    day2 = Tournament.objects.get(pk=day2.pk)
    for entry in day2.entries.filter(status=Entry.ACTIVE).order_by("number")[:3]:
        seating.record_bust(day2, [entry.pk], actor=actor)
    multiday.finish_day2(event, actor=actor)
    payouts.lock_payout_table(day2, actor=actor)
    payouts.sign_off_ranking(day2, actor=actor)
    payouts.sign_off_ranking(day2, actor=Actor(controller_user))
    due = [d for d in payout_selectors.dues(day2) if d["source"].startswith("MAIN:")]
    assert due
    for d in due:
        payouts.pay_prize(Entry.objects.get(pk=d["entry_id"]), method="CASH", actor=cashier_actor, source=d["source"])
    pool = payout_selectors.pool_breakdown(day2).total

    for entry in cancelled:
        cashier.pay_refund(Entry.objects.get(pk=entry.pk), method="CASH", actor=cashier_actor)
    assert payout_selectors.pool_breakdown(day2).total == pool
    day2_report = reports.reconciliation_data(Tournament.objects.get(pk=day2.pk))
    assert day2_report["balanced"], day2_report["lines"]
    flight_report = reports.reconciliation_data(Tournament.objects.get(pk=f1a.pk))
    assert flight_report["balanced"], flight_report["lines"]


def test_a_flight_is_not_cancelled_out_of_a_day2_pool_that_may_not_shrink(event, make_person, cashier_actor, actor):
    """A flight's cancellation takes its prize parts out of the Day 2 pool: it waits, as a refund
    or a reversal does, while that pool may not shrink (PAY-05: Day 2's table locked)."""
    from payouts import selectors as payout_selectors
    from payouts import services as payouts

    f1a, day2 = flight(event, "1A"), event.day2
    for _ in range(2):
        cashier.register(f1a, make_person(), method="CASH", actor=cashier_actor)
    payouts.edit_payout_table(day2, [{"place": 1, "amount": "1200"}, {"place": 2, "amount": "800"}], actor=actor)
    payouts.lock_payout_table(day2, actor=actor)
    with pytest.raises(DomainError) as refused:
        lifecycle.cancel(f1a, actor=actor, reason="the room closes")
    assert refused.value.code == "table_locked" and refused.value.status == 409
    assert "Main Event — Day 2" in refused.value.message
    assert Tournament.objects.get(pk=f1a.pk).status == Tournament.REGISTERING
    assert payout_selectors.pool_breakdown(day2).collected == Decimal("2000.00")
    payouts.unlock_payout_table(day2, actor=actor, reason="flight 1A is cancelled")
    lifecycle.cancel(f1a, actor=actor, reason="the room closes")
    assert payout_selectors.pool_breakdown(day2).collected == Decimal("0.00")


def day2_of_bags(structure, make_person, cashier_actor, actor, bags):
    """A one-flight event whose Day 1 ends with ``bags`` ({first name: chips}, the flight's
    20,000 starting stacks shared among them, a player with no bag busted): returns the
    event, the flight and its entries by first name."""
    event = small_event(structure, actor)
    f1a = flight(event, "1A")
    sold = {n: cashier.register(f1a, make_person(n), method="CASH", actor=cashier_actor).entry for n in ("Ann", "Bob", "Cid", "Dan")}
    lifecycle.start(f1a, actor=actor)
    bust_in_order([e for n, e in sold.items() if n not in bags])
    rows = [{"number": sold[n].number, "chips": chips, "bag_number": f"A-{i}"} for i, (n, chips) in enumerate(bags.items(), 1)]
    multiday.bag_chips(f1a, rows, actor=actor)
    multiday.close_flight(f1a, actor=actor)
    return event, f1a, sold


def test_cr06_day2_entries_bring_their_bagged_chips_into_play_and_say_where_they_came_from(structure, make_person, cashier_actor, actor):
    # Day 1: four players with 20,000 each (80,000 in play); Dan busts, three bags hold the 80,000.
    event, f1a, sold = day2_of_bags(structure, make_person, cashier_actor, actor, {"Ann": 41000, "Bob": 25000, "Cid": 14000})
    day2 = event.day2
    built_at = timezone.now() - timedelta(minutes=30)  # the time the desk gives, not the clock's
    multiday.build_day2(event, actor=actor, now=built_at)
    entries = {e.person.first_name: e for e in day2.entries.all()}
    assert sorted(entries) == ["Ann", "Bob", "Cid"]
    # Day 2 numbers its own entries 1, 2, 3; each is the player's first entry in Day 2.
    assert sorted(e.number for e in entries.values()) == [1, 2, 3]
    for name, chips, bag in (("Ann", 41000, "A-1"), ("Bob", 25000, "A-2"), ("Cid", 14000, "A-3")):
        e, came_from = entries[name], sold[name]
        assert (e.status, e.chips, e.person_entry_no, e.created_at, e.is_late, e.place) == (Entry.ACTIVE, chips, 1, built_at, False, None)
        q = QualifiedEntry.objects.get(entry=e)
        assert (q.source, q.from_tournament_id, q.from_entry_id, q.bag.bag_number, q.chips, q.created_by, q.created_at) == (
            QualifiedEntry.DAY1_BAG,
            f1a.pk,
            came_from.pk,
            bag,
            chips,
            actor.user,
            built_at,
        )
        # CR-06: the stack comes in as a chip correction whose reason names the flight and the entry.
        adj = ChipAdjustment.objects.get(entry=e)
        assert (adj.tournament_id, adj.kind, adj.chips, adj.created_by) == (day2.pk, ChipAdjustment.CORRECTION, chips, actor.user)
        assert adj.reason == f"qualified (DAY1_BAG) from Small Main — Day 1A #{came_from.number}"
    # CR-06: Day 2's chips in play are the bags (80,000), its average stack 80,000 / 3 players.
    assert chips_in_play(day2) == 80000
    assert not LedgerRow.objects.filter(tournament=day2).exists()


def test_elm01_day2_places_its_busts_by_bust_order_when_it_ends_keeping_a_bust_slips_place(structure, make_person, cashier_actor, actor):
    from tournaments.clock import services as clock_services

    event, _, _ = day2_of_bags(structure, make_person, cashier_actor, actor, {"Ann": 30000, "Bob": 20000, "Cid": 20000, "Dan": 10000})
    multiday.build_day2(event, actor=actor)
    day2 = event.day2
    # Day 2 is not playing yet: it cannot end, nobody is placed.
    with pytest.raises(DomainError) as e:
        multiday.finish_day2(event, actor=actor)
    assert (e.value.code, str(e.value.message)) == ("bad_status", "Day 2 is not running.")
    multiday.start_day2(event, actor=actor)
    clock_services.start_clock(day2, actor=actor)
    by_name = {e.person.first_name: e for e in day2.entries.all()}
    start = timezone.now() - timedelta(hours=1)
    bust_in_order([by_name["Dan"], by_name["Cid"], by_name["Bob"]], start=start)
    # Cid's bust slip already gave him 2nd place (the same hand as Bob's): it stands.
    Entry.objects.filter(pk=by_name["Cid"].pk).update(place=2)
    multiday.finish_day2(event, actor=actor)
    places = {e.person.first_name: e.place for e in day2.entries.all()}
    assert places == {"Ann": 1, "Bob": 2, "Cid": 2, "Dan": 4}
    day2.refresh_from_db()
    assert day2.status == Tournament.FINISHED
    assert day2.events.get(action="formats.day2.finished").payload["placed"] == 2  # Bob and Dan, by bust order
    # The clock stops once, as the format's end, in the director's name.
    stopped = day2.events.get(action="tournaments.clock.finished")
    assert (stopped.payload["reason"], stopped.actor) == ("format finished", actor.user)


def test_a_day1_chip_leader_sees_his_prize_on_his_phone_while_he_has_no_place(event, make_person, cashier_actor, actor, director):
    """PAY-08: the flight closed, its chip leader bagged (no place: he plays on on Day 2) and
    won 2,000 at its desk: his phone lists the prize, ready to collect, whether it is read for
    his page alone or built with every phone of the flight; the third bagged stack wins 500.
    The staff's history of the player lists it owed."""
    import re

    from django.test import Client

    from tournaments.live.snapshot import build_snapshot
    from tournaments.phone.views import phone_index, phone_state

    t = flight(event, "1A")
    es = [cashier.register(t, make_person(n), method="CASH", actor=cashier_actor).entry for n in ("Ann", "Bob", "Cid", "Dan")]
    lifecycle.start(t, actor=actor)
    bust(es[3])
    bags = [(es[0], 60000, "1"), (es[1], 20000, "2"), (es[2], 40000, "3")]
    multiday.bag_chips(t, [{"entry": e.pk, "chips": c, "bag_number": n} for e, c, n in bags], actor=actor)
    multiday.close_flight(t, actor=actor)

    ann = Entry.objects.get(pk=es[0].pk)
    assert ann.place is None
    page = Client().get(f"/p/{ann.phone_token}/state/").json()
    assert [(p["kind"], p["amount"], p["paid"], p["ready"]) for p in page["prizes"]] == [("CASH", "2000.00", False, True)]
    assert "1A" in page["prizes"][0]["description"]
    snap = build_snapshot(t.pk)
    public, every = phone_index(t.pk, snap, {})
    assert every[ann.pk].part["prizes"] == page["prizes"]
    assert [p["amount"] for p in every[es[1].pk].part["prizes"]] == ["500.00"]
    assert every[es[3].pk].part["prizes"] == []
    for e in es:  # each phone reads the same page from the stream as from its own poll
        assert phone_state(e.pk, snap) == {**public, **every[e.pk].part}, e.number
    staff = Client()
    staff.force_login(director)
    html = staff.get(f"/people/{ann.person_id}/").content.decode()
    assert re.findall(r'<td class="prize">([^<]*)</td>', html) == ["€2,000.00 (owed)"]


def test_a_flight_s_page_takes_the_desk_to_its_payouts_and_its_chip_leader_prizes_due(event, make_person, cashier_actor, actor, director):
    """PAY-08 prizes are paid at the flight's desk: the flight's page has the payouts' buttons
    (its payouts, the prizes due, the deal calculator) and the prizes due list its chip leader's."""
    import re

    from django.test import Client

    t = flight(event, "1A")
    es = [cashier.register(t, make_person(n), method="CASH", actor=cashier_actor).entry for n in ("Ann", "Bob")]
    lifecycle.start(t, actor=actor)
    multiday.bag_chips(t, [{"entry": es[0].pk, "chips": 45000, "bag_number": "1"}, {"entry": es[1].pk, "chips": 15000, "bag_number": "2"}], actor=actor)
    multiday.close_flight(t, actor=actor)

    desk = Client()
    desk.force_login(director)
    page = desk.get(f"/tournaments/{t.pk}/").content.decode()
    buttons = re.findall(r'<a class="button" href="([^"]*)">([^<]*)</a>', page)
    payouts = [b for b in buttons if "payouts" in b[0]]
    assert payouts == [
        (f"/tournaments/{t.pk}/payouts/", "Payouts"),
        (f"/payouts/due/?t={t.pk}", "Payouts due"),
        (f"/tournaments/{t.pk}/payouts/deal/", "Deal calculator"),
    ]
    for url, _label in payouts:
        assert desk.get(url).status_code == 200, url
    due = desk.get(payouts[1][0]).content.decode()
    assert "Chip leader no. 1 of flight 1A" in due and "Chip leader no. 2 of flight 1A" in due


def test_a_chip_leader_paid_in_a_ticket_finds_the_prize_and_the_ticket_in_his_data_export(structure, make_person, cashier_actor, actor, api, director):
    """PAY-08 in tickets: the chip leader has no place on Day 1 (he plays on), yet his export
    lists the 2,000 prize owed him (an erasure waits for it); paid at the desk, a personal
    ticket of 2,000 is issued: the export lists the payment with its receipt and the ticket."""
    from payouts import selectors as payout_selectors
    from payouts import services as payouts
    from payouts.models import Ticket

    small = small_event(structure, actor)
    small.chip_leader_prize_kind = "TICKET"  # the event's setting (cash by default)
    small.save(update_fields=["chip_leader_prize_kind"])
    t = flight(small, "1A")
    es = [cashier.register(t, make_person(n, "Leader"), method="CASH", actor=cashier_actor).entry for n in ("Ann", "Bob")]
    lifecycle.start(t, actor=actor)
    multiday.bag_chips(t, [{"entry": es[0].pk, "chips": 30000, "bag_number": "1"}, {"entry": es[1].pk, "chips": 10000, "bag_number": "2"}], actor=actor)
    multiday.close_flight(t, actor=actor)
    ann = Entry.objects.get(pk=es[0].pk)
    assert ann.place is None

    def export():
        r = api(director).get(f"/api/v1/people/{ann.person_id}/export/")
        assert r.status_code == 200
        return r.json()

    before = export()
    assert before["prizes_unpaid"] == [{"tournament": t.pk, "entry": ann.pk, "place": None, "kind": "TICKET", "amount": "2000.00"}]
    assert before["prize_payments"] == [] and before["tickets"] == []

    [source] = [d["source"] for d in payout_selectors.dues(t) if d["entry_id"] == ann.pk]
    payouts.pay_prize(ann, method="CASH", actor=cashier_actor, source=source)
    row = LedgerRow.objects.get(tournament=t, kind=LedgerRow.PAYOUT)
    ticket = Ticket.objects.get()
    after = export()
    assert after["prizes_unpaid"] == []
    [payment] = after["prize_payments"]
    assert {k: v for k, v in payment.items() if k != "created_at"} == {
        "tournament": t.pk,
        "entry": ann.pk,
        "source": source,
        "kind": "TICKET",
        "place": None,
        "amount": "2000.00",
        "method": "OTHER",
        "reference": "",
        "payee": "Ann Leader",
        "receipt_number": row.receipt_number,
    }
    assert row.receipt_number
    assert after["tickets"] == [
        {
            "id": ticket.pk,
            "target": None,
            "value": "2000.00",
            "description": "Chip leader no. 1 of flight 1A",
            "status": "ISSUED",
            "created_at": ticket.created_at.isoformat(),
            "redeemed_entry": None,
        }
    ]
    # Bob's own export holds his 1,000 ticket still owed, nothing of Ann's
    bob = api(director).get(f"/api/v1/people/{es[1].person_id}/export/").json()
    assert bob["tickets"] == [] and [(p["entry"], p["amount"]) for p in bob["prizes_unpaid"]] == [(es[1].pk, "1000.00")]


def test_fmt11_the_multi_day_page_shows_each_flights_bagging_its_chip_leaders_and_its_stack_options(
    structure, make_person, cashier_actor, actor, api, director
):
    """The multi-day event's answer while 1A is bagged: one bag kept, one surrendered, one player
    still to bag (no difference is shown until all are bagged); once 1A is closed, its chip
    leaders and the check of the bags against the chips in play. The event's own settings and
    1A's buy-in products are there too."""
    event = small_event(structure, actor, chip_leader_prizes=[Decimal("300"), Decimal("100")], multi_flight_stack="FIRST", chip_leader_ties="DRAW")
    f1a = flight(event, "1A")
    deep = stackchoice.add_stack_option(f1a, label="Deep 40k", buy_in=Decimal("180"), fee=Decimal("20"), chips=40000, actor=actor, override_reason="announced")
    ann, bob, cid = (cashier.register(f1a, make_person(name), method="CASH", actor=cashier_actor).entry for name in ("Ann", "Bob", "Cid"))
    lifecycle.start(f1a, actor=actor)
    multiday.bag_chips(
        f1a,
        [{"number": ann.number, "chips": 35000, "bag_number": "A-1"}, {"number": bob.number, "chips": 15000, "bag_number": "A-2", "surrender": True}],
        actor=actor,
    )
    shown = api(director).get(f"/api/v1/formats/multiday/{event.pk}/").json()
    assert (shown["id"], shown["name"], shown["multi_flight_stack"], shown["surrender_allowed"]) == (event.pk, "Small Main", "FIRST", True)
    assert (shown["chip_leader_prizes"], shown["chip_leader_ties"]) == (["300", "100"], "DRAW")
    (one,) = shown["flights"]
    assert one["stack_options"] == [{"id": deep.pk, "label": "Deep 40k", "buy_in": "180.00", "fee": "20.00", "chips": 40000}]
    assert one["bagging"] == {
        "bagged": 1,
        "bagged_chips": 35000,
        "surrendered": 1,
        "surrendered_chips": 15000,
        "unbagged_entries": [cid.number],
        "chips_in_play": 45000,  # 60,000 sold, Bob's 15,000 surrendered
        "difference": None,
    }
    multiday.bag_chips(f1a, [{"number": cid.number, "chips": 9000, "bag_number": "A-3"}], actor=actor)
    multiday.close_flight(f1a, actor=actor, reason="one chip short")
    (one,) = api(director).get(f"/api/v1/formats/multiday/{event.pk}/").json()["flights"]
    assert one["closed"] is True and (one["bagging"]["bagged"], one["bagging"]["difference"]) == (2, -1000)
    assert one["chip_leaders"] == [
        {"rank": 1, "name": ann.person.display_name, "chips": 35000, "amount": "300.00", "shared_with": 1},
        {"rank": 2, "name": cid.person.display_name, "chips": 9000, "amount": "100.00", "shared_with": 1},
    ]


def test_pay08_the_flight_s_and_day2_s_reconciliations_read_line_by_line(event, make_person, cashier_actor, actor):
    """Five €1,000 + €100 entries in flight 1A, its three chip leaders awarded 2,000, 1,000 and 500
    out of the event's pool; the first is paid at the flight's desk. The flight carries its prize
    parts to Day 2 and says so; Day 2 holds the €5,000 less the 3,500 of chip-leader prizes."""
    from tests.payouts.reconciliation_rows import BALANCED, expected, read

    t = flight_closed_with_its_leader_paid(event, make_person, cashier_actor, actor)
    money_in = {"Money in: prize parts": "5000.00", "Money in: fees": "500.00", "Money in: total": "5500.00", "Fees kept by the house": "500.00"}
    rows, result = read(t)
    assert rows == expected(
        {**money_in, "Carried to Day 2": "5000.00", "Money out: prizes paid": "2000.00", "… of which chip-leader prizes (from the event's pool)": "2000.00"},
        (
            "This flight's prize parts (5,000.00) are carried to the Day 2 prize pool.",
            "Chip-leader prizes paid here (2,000.00) come out of the event's prize pool; Day 2 shows it net of them.",
        ),
    )
    assert result == BALANCED
    rows, result = read(event.day2)
    assert rows == expected(
        {
            **money_in,
            "Prize pool": "1500.00",
            "Chip-leader prizes of the Day 1 flights": "3500.00",
            "Prize pool not yet paid": "1500.00",
            "… not yet assigned to a place by the payout table": "1500.00",
        }
    )
    assert result == BALANCED
