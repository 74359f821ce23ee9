"""What people in a card room do, as the simulator's actions.

Each action is a function ``(world, rng) -> str``: it reads the product's state, chooses what a
director, a cashier, the floor or a dealer would do next (sometimes something the rules forbid:
the product must refuse it with a code) and calls the real services. It returns a sentence saying
what it did, raises ``Skip`` when the state offers nothing to act on, and lets a ``DomainError``
through: the driver counts it as a refusal, a legal outcome.

An action's weight is how often a day draws it. A new feature joins this list (and an invariant
in ``invariants.py``) in the change that brings it.
"""

from __future__ import annotations

import copy
import io
import random
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone, translation
from PIL import Image

from payouts import selectors as psel
from payouts import services as payouts
from payouts.models import BountyAward, PayoutTable
from seating import services as seating
from seating.models import Bust, DealerShift, RoomTable
from seating.selectors import table_numbers as tsel_table_numbers
from seating.services import cardrooms, dealers
from tdmanager import security
from tdmanager.errors import DomainError
from tournaments.cashier import selectors as cashier_selectors
from tournaments.cashier import services as cashier
from tournaments.cashier.services import registration
from tournaments.clock import rules as clock_rules
from tournaments.clock import selectors as clock_selectors
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.floor import selectors as floor_selectors
from tournaments.floor import services as floor
from tournaments.formats.services import stackchoice
from tournaments.house import HouseRules
from tournaments.imports import rules as import_rules
from tournaments.imports import services as import_services
from tournaments.models import Clock, Entry, LedgerRow, Person, Tournament, WaitingStart
from tournaments.people import privacy
from tournaments.people import services as people
from tournaments.setup import changes, lifecycle
from tournaments.setup import services as setup
from tournaments.staff import logins
from tournaments.staff import selectors as staff_selectors
from tournaments.staff import services as staff
from tournaments.structures.services import ensure_builtin_structures

from .world import Skip, World


@dataclass
class SimAction:
    name: str
    weight: float
    fn: Callable[[World, random.Random], str]


ACTIONS: dict[str, SimAction] = {}

#: how often an event has a guarantee
GUARANTEED = 0.4


def action(weight: float):
    def register(fn):
        assert fn.__name__ not in ACTIONS, f"two actions are called {fn.__name__}: the second would hide the first"
        ACTIONS[fn.__name__] = SimAction(fn.__name__, weight, fn)
        return fn

    return register


def pick(rng: random.Random, items, what: str):
    items = list(items)
    if not items:
        raise Skip(f"no {what}")
    return rng.choice(items)


def _structure():
    return next(s for s in ensure_builtin_structures() if s.name.startswith("Regular"))


def _event(world: World, rng, *statuses) -> Tournament:
    t = pick(rng, world.tournaments(*statuses), "event " + "/".join(statuses).lower())
    world.touched.add(t.pk)
    return t


def undecided(t: Tournament) -> bool:
    """Not down to its winner: a running event with one player left sells nothing more
    (``winner_decided``); the desk and the floor turn to the events still playing."""
    return t.status != Tournament.RUNNING or t.entries.filter(status=Entry.ACTIVE).count() != 1


def _selling(t: Tournament) -> bool:
    """The desk still sells entries in ``t``: registering, or running with late registration open
    and its winner not decided."""
    return t.status == Tournament.REGISTERING or (t.status == Tournament.RUNNING and undecided(t) and clock_selectors.late_registration_open(t))


def _mostly(world: World, rng, offers, *statuses, stray: float = 0.15) -> Tournament:
    """An event in one of ``statuses``, still undecided, that ``offers`` what the person asks for
    (a rebuy in a rebuy event); now and then (``stray``) any event, which may refuse it. With no
    fitting event the person does not ask (skipped): asking anywhere would make the refusal the
    rule and the action itself rare."""
    if rng.random() >= stray:
        fitting = [t for t in world.tournaments(*statuses) if offers(t) and undecided(t)]
        if not fitting:
            raise Skip("no event offers it")
        t = rng.choice(fitting)
        world.touched.add(t.pk)
        return t
    return _event(world, rng, *statuses)


def _where(world: World, rng, test, *statuses) -> Tournament:
    """An event of the day in one of ``statuses`` that passes ``test`` (marked touched)."""
    t = pick(rng, [t for t in world.tournaments(*statuses) if test(t)], "event for this")
    world.touched.add(t.pk)
    return t


def _players_in(t: Tournament) -> bool:
    """Three players or more in: enough to start a table."""
    return t.entries.filter(status=Entry.ACTIVE).count() >= 3


def _hand_for_hand(t: Tournament) -> bool:
    return Clock.objects.filter(tournament=t, status=Clock.HAND_FOR_HAND).exists()


def _stacks_in_play(rng, live: list[Entry], miscount: float = 0.0) -> dict[str, int]:
    """Stacks at random that make the chips in play (a deal shares by them, PAY-09); with
    probability ``miscount`` one is a chip off (the calculator refuses it)."""
    total = floor_selectors.chips_in_play(live[0].tournament_id)
    weights = [rng.randrange(1, 400) for _ in live]
    chips = [max(1, total * w // sum(weights)) for w in weights]
    chips[0] += total - sum(chips)
    if rng.random() < miscount:
        chips[-1] += 1
    return {str(e.pk): c for e, c in zip(live, chips)}


def _rebuys(t: Tournament) -> bool:
    return t.format == Tournament.REBUY


def _rebuying(t: Tournament) -> bool:
    """A rebuy event still in its rebuy period (past its last rebuy level the desk refuses)."""
    return _rebuys(t) and t.status == Tournament.RUNNING and not clock_selectors.level_has_ended(t, HouseRules.of(t).rebuy_level(t))


def _bounty_kind(t: Tournament) -> str:
    return (t.settings or {}).get("bounty", "NONE")


def _method(rng) -> str:
    return rng.choices([LedgerRow.CASH, LedgerRow.CARD], weights=[3, 1])[0]


# --- the director puts events on the schedule -----------------------------------------------


@action(weight=2)
def create_event(world: World, rng) -> str:
    """A new event: a format, a bounty kind, a guarantee or not, registration open."""
    if len(world.tournaments(Tournament.PLANNED, Tournament.REGISTERING, Tournament.RUNNING)) >= 3:
        raise Skip("three events are open")
    # rebuy events a little more often: their rebuys, declarations and add-on have a window of
    # the first levels only
    fmt = rng.choice([Tournament.FREEZEOUT, Tournament.REENTRY, Tournament.REBUY, Tournament.REBUY])
    bounty = "NONE" if fmt == Tournament.REBUY else rng.choice(["NONE", "FIXED", "PKO", "MYSTERY"])
    values = dict(
        name=f"Sim {fmt.title()} {len(world.events) + 1}",
        start_at=timezone.now(),
        buy_in=Decimal(rng.choice([50, 100, 200])),
        starting_stack=20000,
        table_size=rng.choice([6, 6, 8, 9]),  # 6-max often: fields of two tables for the floor's ties and moves
        structure=_structure(),
        min_players=2,
        format=fmt,
        guarantee=Decimal(rng.choice([500, 1000, 3000])) if rng.random() < GUARANTEED else None,
        settings={},
    )
    if fmt == Tournament.REENTRY:
        values.update(max_entries_per_player=rng.choice([2, 3]), reentry_until_level=6, late_reg_closes_after_level=6)
    if fmt == Tournament.REBUY:
        values.update(
            rebuy_price=Decimal("50"),
            rebuy_chips=20000,
            rebuy_until_level=4,
            rebuy_max=3,
            rebuy_stack_threshold=20000,
            addon_price=Decimal("50"),
            addon_chips=30000,
            addon_after_level=4,
            late_reg_closes_after_level=4,
        )
    if bounty != "NONE":
        values["settings"] = {"bounty": bounty, "bounty_amount": str(rng.choice([10, 20, 25, 50]))}
        if bounty == "PKO" and rng.random() < 0.3:
            values["settings"]["bounty_split"] = "POT"
        if bounty == "MYSTERY":
            values["settings"]["mystery_from"] = "START"
    if rng.random() < 0.5:
        # the house's progressive jackpot runs in the day's regular events too: its royal flush
        # (won once a day) needs an event in its window most days
        values["settings"]["jackpot"] = True
    t = setup.create_tournament(values, actor=world.director, override_reason="simulated schedule")
    world.touched.add(t.pk)
    lifecycle.open_registration(t, actor=world.director)
    world.events.append(t.pk)
    if fmt != Tournament.REBUY and rng.random() < 0.25:  # a deep-stack option sold beside the standard entry
        stackchoice.add_stack_option(
            t, label="Deep", buy_in=t.buy_in + Decimal(50), fee=t.fee, chips=30000, actor=world.director, override_reason="announced with the schedule"
        )
    return f"created {t.name} (#{t.pk}) bounty {bounty} guarantee {values['guarantee']}"


# --- the desk ------------------------------------------------------------------------------


@action(weight=14)
def sell_entry(world: World, rng) -> str:
    """The desk sells a first entry (late registration once running), cash or card, now and then
    in a foreign currency."""
    t = _event(world, rng, Tournament.REGISTERING, Tournament.RUNNING)
    person = world.person(rng)
    tender = "USD" if rng.random() < 0.05 else ""
    # before the start most players of a jackpot event buy its fee too
    jackpot = t.status == Tournament.REGISTERING and bool((t.settings or {}).get("jackpot")) and rng.random() < 0.8
    sale = cashier.register(t, person, method=_method(rng), actor=world.cashier(rng), tender_currency=tender, jackpot=jackpot)
    return f"sold #{sale.entry.number} of {t.name} to {person.full_name} ({sale.row.total} {tender or t.currency})"


@action(weight=1)
def group_buys_in(world: World, rng) -> str:
    """A group comes to the desk together (a club's players, a coach from another town) for an
    event still registering, or in its late registration, and each buys his entry: a field of
    several tables, which gives the floor its work between tables (balancing slips, busts at two
    tables, hand-for-hand)."""
    fields = (Tournament.FREEZEOUT, Tournament.REENTRY, Tournament.REBUY)

    def room_for_a_group(t: Tournament) -> bool:
        if t.format not in fields or (t.field_cap is not None and t.entries.count() >= t.field_cap) or not _selling(t):
            return False
        # once running, not at its final table (a sale would open a table and move its players)
        return t.status == Tournament.REGISTERING or len(world.seats(t)) >= 2

    t = _where(world, rng, room_for_a_group, Tournament.REGISTERING, Tournament.RUNNING)
    sold = []
    for _ in range(rng.randrange(4, 11)):
        sold.append(cashier.register(t, world.person(rng), method=_method(rng), actor=world.cashier(rng)).entry.number)
    return f"a group of {len(sold)} bought into {t.name}: #{sold[0]}–#{sold[-1]}"


@action(weight=3)
def reserve_and_pay(world: World, rng) -> str:
    """A pre-registration, then (mostly) paid at the desk or cancelled."""
    t = _event(world, rng, Tournament.REGISTERING)
    desk = world.cashier(rng)
    entry = cashier.pre_register(t, world.person(rng), actor=desk)
    if rng.random() < 0.7:
        sale = cashier.pay_reservation(entry, method=_method(rng), actor=desk)
        return f"reserved and paid #{sale.entry.number} in {t.name}"
    cashier.cancel_reservation(entry, actor=desk, reason="changed plans")
    return f"reserved and cancelled #{entry.number} in {t.name}"


@action(weight=4)
def reenter(world: World, rng) -> str:
    """A busted player buys another entry (re-entry events in their late registration; elsewhere,
    or later, the desk refuses)."""
    t = _mostly(
        world,
        rng,
        lambda t: t.format == Tournament.REENTRY and _selling(t) and (t.field_cap is None or cashier.places_taken(t) < t.field_cap),
        Tournament.RUNNING,
    )
    # a player out with no entry still in play and entries left to buy (others are refused)
    most = t.max_entries_per_player or float("inf")
    out = [
        e
        for e in world.entries(t, Entry.BUSTED)
        if not t.entries.filter(person_id=e.person_id, status=Entry.ACTIVE).exists() and t.entries.filter(person_id=e.person_id).count() < most
    ]
    busted = pick(rng, out if rng.random() < 0.9 else world.entries(t, Entry.BUSTED), "busted entry")
    sale = cashier.reenter(t, busted.person, method=_method(rng), actor=world.cashier(rng))
    return f"re-entry #{sale.entry.number} for {busted.person.full_name} in {t.name}"


@action(weight=4)
def rebuy(world: World, rng) -> str:
    t = _mostly(world, rng, _rebuying, Tournament.RUNNING)
    entry = pick(rng, world.entries(t, Entry.ACTIVE), "player")
    sale = cashier.rebuy(entry, method=_method(rng), actor=world.cashier(rng), stack=rng.choice([0, 5000, 40000]))
    return f"rebuy for #{entry.number} in {t.name} ({sale.row.total})"


@action(weight=2)
def declare_rebuy(world: World, rng) -> str:
    t = _mostly(world, rng, _rebuying, Tournament.RUNNING)
    entry = pick(rng, world.entries(t, Entry.ACTIVE), "player")
    cashier.declare_rebuy(entry, actor=world.floor, stack=0)
    return f"#{entry.number} declared a rebuy in {t.name}"


def _addon_break(t: Tournament) -> int | None:
    """The structure item of the scheduled break after the add-on level (its window), if any."""
    items = clock_selectors.structure_items(t)
    try:
        at = clock_rules.level_index(items, t.addon_after_level) + 1
    except clock_rules.ClockError:
        return None
    return at if at < len(items) and isinstance(items[at], clock_rules.Break) else None


@action(weight=5)
def addon(world: World, rng) -> str:
    """A player takes the add-on at the break after its level. The window is one break of the
    day: mostly the director brings the clock to it, as he does when the tables are ready for the
    break; before it, past it, or outside a rebuy event, the desk refuses."""
    t = _mostly(
        world,
        rng,
        lambda t: _rebuys(t) and t.addon_after_level is not None and clock_selectors.item_index_now(t) <= (_addon_break(t) or -1),
        Tournament.RUNNING,
    )
    entry = pick(rng, world.entries(t, Entry.ACTIVE), "player")
    at = _addon_break(t) if t.addon_after_level is not None else None
    if at is not None and rng.random() < 0.9:
        here = clock_selectors.item_index_now(t)
        if here < at:
            clock_services.jump_to(t, at, actor=world.director, reason="the add-on break")
    sale = cashier.addon(entry, method=_method(rng), actor=world.cashier(rng))
    return f"add-on for #{entry.number} in {t.name} ({sale.row.total})"


@action(weight=2)
def refund_before_start(world: World, rng) -> str:
    """A player leaves before the start: his entry refunded at the desk."""
    t = _event(world, rng, Tournament.REGISTERING, Tournament.RUNNING)
    entry = pick(rng, world.entries(t, Entry.ACTIVE), "paid entry")
    cashier.refund(entry, reason="left before the start", actor=world.cashier(rng))
    return f"refunded #{entry.number} of {t.name}"


@action(weight=2)
def reverse_row(world: World, rng) -> str:
    """The cashier reverses a sale he made by mistake (the newest rows of the day's events)."""
    t = _event(world, rng, Tournament.REGISTERING, Tournament.RUNNING, Tournament.CANCELLED, Tournament.FINISHED)
    rows = list(
        LedgerRow.objects.filter(tournament=t, reverses__isnull=True, reversed_by__isnull=True).exclude(kind=LedgerRow.REVERSAL).order_by("-receipt_number")[:5]
    )
    row = pick(rng, rows, "row to reverse")
    desk = next((c for c in world.cashiers if c.user.pk == row.cashier_id), world.cashier(rng))
    cashier.reverse(row, reason="sold by mistake", actor=desk)
    return f"reversed receipt {row.receipt_number} ({row.kind}) of {t.name}"


@action(weight=2)
def check_in(world: World, rng) -> str:
    t = _event(world, rng, Tournament.REGISTERING)
    entry = pick(rng, [e for e in world.entries(t, Entry.ACTIVE) if e.checked_in_at is None], "entry to check in")
    registration.check_in(entry, actor=world.cashier(rng), id_checked=True)
    return f"checked in #{entry.number} of {t.name}"


@action(weight=1)
def no_show(world: World, rng) -> str:
    t = _event(world, rng, Tournament.REGISTERING, Tournament.RUNNING)
    entries = world.entries(t, Entry.RESERVED, Entry.ACTIVE)
    # mostly as the rule has it: a reservation, or a paid entry once play has started (refused before)
    due = [e for e in entries if e.status == Entry.RESERVED or t.status == Tournament.RUNNING]
    entry = pick(rng, due if rng.random() < 0.9 else entries, "entry")
    registration.mark_no_show(entry, actor=world.director, reason="never came")
    return f"#{entry.number} of {t.name} marked no-show"


# --- the director starts, draws in advance, cancels, finishes ------------------------------


@action(weight=1)
def predraw(world: World, rng) -> str:
    t = _event(world, rng, Tournament.REGISTERING)
    seating.predraw(t, ["Session A", "Session B"] if rng.random() < 0.5 else ["Session A"], actor=world.director)
    world.predrawn.add(t.pk)
    return f"drew {t.name}'s sessions in advance"


@action(weight=3)
def start_event(world: World, rng) -> str:
    t = _event(world, rng, Tournament.REGISTERING)
    if t.entries.filter(status=Entry.ACTIVE).count() < 4 and rng.random() < 0.8:
        raise Skip("waiting for players")
    # a full room: the director is refused (room_full) or, now and then, has the event wait for tables
    wait = rng.random() < 0.3
    t = lifecycle.start(
        t, actor=world.director, override_minimum=True, prestart_report_sent=True, start_clock=True, when_room_full=lifecycle.WAIT if wait else lifecycle.REFUSE
    )
    if t.status != Tournament.RUNNING:
        return f"{t.name} waits for free tables"
    return f"started {t.name} ({'after a predraw' if t.pk in world.predrawn else 'drawn now'})"


@action(weight=2)
def cancel_event(world: World, rng) -> str:
    """Cancelled at any moment: every entry that paid is owed its refund."""
    if rng.random() < 0.6:
        raise Skip("the director keeps the event")
    t = _event(world, rng, Tournament.REGISTERING, Tournament.RUNNING)
    lifecycle.cancel(t, actor=world.director, reason="the room closes")
    return f"cancelled {t.name}"


@action(weight=5)
def pay_refund(world: World, rng) -> str:
    t = _event(world, rng, Tournament.CANCELLED)
    due = pick(rng, cashier_selectors.refunds_due(t), "refund due")
    cashier.pay_refund(Entry.objects.get(pk=due["entry"]), method=LedgerRow.CASH, actor=world.cashier(rng))
    return f"paid {due['name']}'s refund of {due['amount']} ({t.name})"


# --- the floor: busts, slips, undo ---------------------------------------------------------


def _at_table(world: World, t: Tournament):
    seats = world.seats(t)
    if not seats:
        raise Skip("nobody seated")
    return seats


def _eliminators(t: Tournament, rng, table_entries: list[int], out: int):
    """Who knocked ``out`` out: one player of his table, or two sharing a split pot."""
    others = [e for e in table_entries if e != out]
    if not others:
        return []
    names = rng.sample(others, 2 if len(others) > 1 and rng.random() < 0.2 else 1)
    if (t.settings or {}).get("bounty_split") == "POT":
        return [{"entry": e, "pot_share": rng.randrange(1000, 100000)} for e in names]
    return names


@action(weight=14)
def bust(world: World, rng) -> str:
    """One player out at his table (its eliminator named in a bounty event)."""
    t = _event(world, rng, Tournament.RUNNING)
    seats = _at_table(world, t)
    table = rng.choice(sorted(seats))
    entries = list(seats[table].values())
    if sum(len(s) for s in seats.values()) < 2:
        raise Skip("heads-up winner")
    out = rng.choice(entries)
    item = {"entry": out}
    if _bounty_kind(t) != "NONE":
        item["eliminators"] = _eliminators(t, rng, entries, out)
    who = world.dealer if rng.random() < 0.2 else world.floor
    seating.record_bust(t, [item], actor=who, table=table)
    return f"#{Entry.objects.get(pk=out).number} out at table {table} of {t.name}"


@action(weight=3)
def bust_same_hand(world: World, rng) -> str:
    """Two players out on one hand at one table, ranked by their starting stacks."""
    t = _event(world, rng, Tournament.RUNNING)
    seats = _at_table(world, t)
    table = pick(rng, [n for n, row in seats.items() if len(row) >= 3], "table of three")
    entries = list(seats[table].values())
    outs = rng.sample(entries, 2)
    items = [{"entry": e, "starting_stack": rng.randrange(1000, 40000)} for e in outs]
    if _bounty_kind(t) != "NONE":
        winner = [e for e in entries if e not in outs]
        for item in items:
            item["eliminators"] = _eliminators(t, rng, winner + [item["entry"]], item["entry"])
    seating.record_bust(t, items, actor=world.floor, table=table, same_hand=True)
    return f"two out on one hand at table {table} of {t.name}"


@action(weight=4)
def bust_simultaneous(world: World, rng) -> str:
    """Two players out at two tables in an order nobody saw: one tie group (in a bounty event
    each with the eliminators of his own table)."""
    # the floor calls it where it can happen: two tables or more, not a bracket's match (now and
    # then anywhere: refused or skipped)
    if rng.random() < 0.9:
        # not in a hand-for-hand, whose busts of a hand are ranked together already (refused)
        t = _where(world, rng, lambda t: t.format != Tournament.HEADS_UP and len(world.seats(t)) >= 2 and not _hand_for_hand(t), Tournament.RUNNING)
    else:
        t = _event(world, rng, Tournament.RUNNING)
    seats = _at_table(world, t)
    if len(seats) < 2:
        raise Skip("one table")
    a, b = rng.sample(sorted(seats), 2)
    outs = [rng.choice(list(seats[a].values())), rng.choice(list(seats[b].values()))]
    if _bounty_kind(t) != "NONE":  # each knocked out by a player of his own table
        outs = [{"entry": e, "eliminators": _eliminators(t, rng, list(seats[n].values()), e)} for n, e in zip((a, b), outs)]
    seating.record_bust(t, outs, actor=world.floor, simultaneous=True)
    return f"two out at tables {a} and {b} of {t.name}, together"


def observe(world: World, t: Tournament) -> dict:
    """What the staff see of an event: the table map, the busts with their places, the prizes due,
    the bounties on heads and owed, every drawer."""
    t = Tournament.objects.get(pk=t.pk)
    return {
        "table map": world.seats(t),
        "busts": sorted(Bust.objects.filter(tournament=t, void="").values_list("entry_id", "place")),
        "places": sorted(Entry.objects.filter(tournament=t).values_list("number", "status", "place")),
        "dues": [(d["entry"].pk if hasattr(d["entry"], "pk") else d["entry"], str(d["amount"]), d["paid"]) for d in psel.dues(t)],
        "heads": psel.bounties_on_heads(t),
        "bounties owed": [(line["entry_id"], str(line["amount"])) for line in psel.bounties_owed(t)],
        "drawers": [str(cashier_selectors.shift_totals(c.user, since=world.day_start)["total"]) for c in world.cashiers]
        + [str(cashier_selectors.shift_totals(world.director.user, since=world.day_start)["total"])],
    }


@action(weight=4)
def bust_then_undo(world: World, rng) -> str:
    """A bust recorded by mistake, then undone by the director. Now and then the bounty it won was
    paid at the desk meanwhile: the undo is refused (``bounty_paid``) until the cashier records
    the money given back; then it goes through. Either way every answer the staff see — the table
    map, the busts and places, the dues, the heads, the bounties owed, every drawer — must be back
    as it was before the mistake."""
    t = _event(world, rng, Tournament.RUNNING)
    seats = _at_table(world, t)
    if sum(len(s) for s in seats.values()) < 3:
        raise Skip("too few players")
    table = rng.choice(sorted(seats))
    entries = list(seats[table].values())
    out = rng.choice(entries)
    item = {"entry": out}
    if _bounty_kind(t) != "NONE":
        item["eliminators"] = _eliminators(t, rng, entries, out)
    before = observe(world, t)
    outcome = seating.record_bust(t, [item], actor=world.floor, table=table)
    row = outcome.busts[0]
    paid = ""
    desk = world.cashier(rng)
    won = [a for a in BountyAward.objects.filter(tournament=t, bust=row, void="", winner__isnull=False, cash__gt=0).order_by("pk")]
    owed = {line["entry_id"]: line["amount"] for line in psel.bounties_owed(t)}
    # paid only when this is all the winner has to collect: paying his other bounties too would
    # be a second action, not part of the mistake
    if won and rng.random() < 0.4 and owed.get(won[0].winner_id) == won[0].cash:
        payouts.pay_bounties(won[0].winner, method=LedgerRow.CASH, actor=desk)
        paid = f", bounty of #{won[0].winner.number} paid"
    try:
        seating.undo_bust(t, Bust.objects.get(pk=row.pk), actor=world.director, reason="wrong player")
    except DomainError as refusal:
        if refusal.code != "bounty_paid" or not paid:
            raise
        for line in refusal.extra["paid"]:
            payouts.return_bounty(BountyAward.objects.get(pk=line["award"]), reason="bust undone", actor=desk)
        seating.undo_bust(t, Bust.objects.get(pk=row.pk), actor=world.director, reason="wrong player")
        paid += ", given back"
    after = observe(world, t)
    changed = [k for k in before if before[k] != after[k]]
    if changed:
        raise AssertionError(f"undo of a bust left {changed} changed: " + "; ".join(f"{k}: {before[k]!r} → {after[k]!r}" for k in changed))
    return f"#{Entry.objects.get(pk=out).number} out at table {table} of {t.name}{paid}, undone"


@action(weight=2)
def undo_last_bust(world: World, rng) -> str:
    t = _event(world, rng, Tournament.RUNNING, Tournament.FINISHED)
    last = Bust.objects.filter(tournament=t, void="").order_by("-pk").first()
    if last is None:
        raise Skip("no bust")
    seating.undo_bust(t, last, actor=world.director, reason="recorded by mistake")
    return f"undid the last bust of {t.name}"


@action(weight=6)
def confirm_slips(world: World, rng) -> str:
    t = _event(world, rng, Tournament.RUNNING)
    slips = world.slips(t)
    if not slips:
        raise Skip("no slip")
    if rng.random() < 0.5:
        seating.confirm_moves(t, slips, actor=world.floor)
        return f"confirmed {len(slips)} slips of {t.name}"
    seating.confirm_move(t, slips[0], actor=world.floor)
    return f"confirmed one slip of {t.name}"


def _tablet_sends(client, t: Tournament, path: str, body: dict, key: str, tapped: str):
    """One queued action as a floor tablet sends it when the network returns (floor-queue.js),
    in the day's language (a request activates its own: the steps after it keep the day's)."""
    language = translation.get_language()
    with translation.override(language):
        return client.post(
            f"/api/v1/tournaments/{t.pk}/{path}",
            body,
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=key,
            HTTP_X_TAPPED_AT=tapped,
            HTTP_ACCEPT_LANGUAGE=language,
        )


@action(weight=3)
def late_tablet_queue(world: World, rng) -> str:
    """Actions arrive late and out of step: a floor tablet off the Wi-Fi queued busts, a slip and a
    hand completed; meanwhile another tablet acted (sometimes busting the same player); then the
    queue is sent in the order tapped, each with its Idempotency-Key and tap time, and one answer
    is lost and sent again. The server decides: the first bust stands, a late one is refused with
    who and when (409 already_out), a repeat gets the first answer, nothing acts twice. A bust
    tapped at the table where the player sat then stands though an earlier one broke that table
    or a slip moved him before it arrived (never refused as "not at this table"), and so does
    his eliminator's claim, who sat there too."""
    # The API's client, as the tablet: imported here, the simulator's other actions call services
    from django.test import Client

    t = _event(world, rng, Tournament.RUNNING)
    seats = _at_table(world, t)
    if sum(len(s) for s in seats.values()) < 4:
        raise Skip("too few players for a queue")
    tapped = timezone.now().isoformat()
    queue = []
    tables = sorted(seats)
    for _ in range(rng.randint(1, 3)):
        table = rng.choice(tables)
        out = rng.choice(list(seats[table].values()))
        item = {"entry": out}
        if _bounty_kind(t) != "NONE":
            item["eliminators"] = _eliminators(t, rng, list(seats[table].values()), out)
        queue.append(("busts/", {"entries": [item], "table": table}, out))
    slips = world.slips(t)
    if slips:
        queue.insert(rng.randrange(len(queue) + 1), ("moves/confirm/", {"moves": [slips[0].pk]}, None))
    if rng.random() < 0.5:
        queue.append((f"tables/{rng.choice(tables)}/hand-completed/", {}, None))
    busted_elsewhere = None
    if rng.random() < 0.5:  # another tablet, online, busts one of the queued players first
        busted_elsewhere = next(out for _, _, out in queue if out)
        table = next(n for n, s in seats.items() if busted_elsewhere in s.values())
        try:
            seating.record_bust(t, [{"entry": busted_elsewhere}], actor=world.director, table=table)
        except DomainError:
            busted_elsewhere = None  # (a bounty event's bust without its eliminator: refused; no matter)
    world.traveller.shift(timedelta(seconds=rng.randrange(30, 120)))  # the drop lasts
    client = Client()
    client.force_login(world.floor.user)
    answers = []
    for path, body, out in queue:
        key = str(uuid.uuid4())  # made at the tap (never drawn from the seed: a replayed day's keys are new)
        r = _tablet_sends(client, t, path, body, key, tapped)
        data = r.json()
        assert r.status_code < 500, f"{path} answered {r.status_code}: {data}"
        if r.status_code >= 400:
            assert data.get("code") and data.get("detail"), f"a refusal without its code and reason: {data}"
        if out is not None and out == busted_elsewhere:
            assert r.status_code == 409 and data["code"] == "already_out", f"a late bust of a player out: {r.status_code} {data}"
            assert data["reported_by"] == world.director.user.get_username(), data
        elif out is not None:  # tapped where he (and his eliminators) sat: a move since changes nothing
            assert data.get("code") not in ("not_at_table", "eliminator_not_at_table"), f"a bust tapped at his table refused: {data}"
        answers.append((path, body, key, r.status_code, data))
    path, body, key, status, data = rng.choice(answers)  # an answer lost on the way: the same key again
    again = _tablet_sends(client, t, path, body, key, tapped)
    if status < 400:
        assert again.status_code == status and again.json() == data and again.get("Idempotent-Replay") == "true", "a repeat acted again"
    for _, _, out in queue:
        if out is not None:
            assert Bust.objects.filter(tournament=t, entry_id=out, void="").count() <= 1, f"entry {out} out twice"
    sent = sum(1 for a in answers if a[3] < 400)
    return f"a tablet's queue of {len(queue)} sent late to {t.name}: {sent} done, {len(queue) - sent} refused"


# --- the clock -----------------------------------------------------------------------------


@action(weight=4)
def time_passes(world: World, rng) -> str:
    """Minutes go by; the beat's sweep ends the levels that are due."""
    minutes = rng.choice([5, 10, 20, 40])
    world.traveller.shift(minutes * 60)
    changed = clock_services.sweep()
    waited = lifecycle.start_waiting()  # the beat tries the starts waiting for tables too
    if rng.random() < 0.2:
        waiting = list(WaitingStart.objects.filter(tournament__in=world.events).order_by("pk"))
        if waiting:  # the director gives up waiting for one
            lifecycle.stop_waiting(rng.choice(waiting).tournament, actor=world.director)
    world.touched = None  # every running clock may have moved
    return f"{minutes} minutes later ({changed} clocks moved, {waited} waiting events started)"


@action(weight=1)
def clock_jump(world: World, rng) -> str:
    t = _event(world, rng, Tournament.RUNNING)
    items = clock_selectors.structure_items(t)
    now_at = clock_selectors.item_index_now(t)
    target = min(len(items) - 1, now_at + rng.choice([1, 1, 2]))
    clock_services.jump_to(t, target, actor=world.director, reason="catching up")
    return f"clock of {t.name} jumped to item {target}"


@action(weight=1)
def pause_resume(world: World, rng) -> str:
    t = _event(world, rng, Tournament.RUNNING)
    clock_services.pause(t, actor=world.director, reason="dealer change")
    clock_services.resume(t, actor=world.director, reason="dealers back")
    return f"paused and resumed {t.name}"


@action(weight=1)
def hand_for_hand(world: World, rng) -> str:
    t = _event(world, rng, Tournament.RUNNING)
    clock_services.start_hand_for_hand(t, actor=world.director, reason="bubble")
    for table in clock_services.tables_in_play(t):  # each table reports its hand, as from the map: the moves waiting for it follow
        seating.hand_completed(t, table, actor=world.floor)
    if _hand_for_hand(t) and rng.random() < 0.7:  # a hand that reached the money ended it already
        clock_services.end_hand_for_hand(t, actor=world.director, reason="bubble burst")
    return f"hand-for-hand in {t.name}"


@action(weight=1)
def penalty(world: World, rng) -> str:
    t = _event(world, rng, Tournament.RUNNING)
    entry = pick(rng, world.entries(t, Entry.ACTIVE), "player")
    floor.issue_penalty(t, entry, kind="MISSED_HANDS", reason_code="ABUSIVE_CONDUCT", hands=rng.choice([1, 2, 3]), actor=world.floor)
    return f"penalty for #{entry.number} in {t.name}"


# --- money at the desk: bounties, prizes, the payout table -----------------------------------


@action(weight=5)
def pay_bounties(world: World, rng) -> str:
    t = _event(world, rng, Tournament.RUNNING, Tournament.FINISHED)
    line = pick(rng, psel.bounties_owed(t), "bounty owed")
    payouts.pay_bounties(line["entry"], method=LedgerRow.CASH, actor=world.cashier(rng))
    return f"paid {line['amount']} in bounties to #{line['entry_number']} of {t.name}"


@action(weight=3.5)
def lock_payout_table(world: World, rng) -> str:
    """The director publishes the payout table once registration has closed (PAY-05: the pool is
    final); on a cancelled event the product refuses."""
    if rng.random() < 0.8:  # where it is still to publish (now and then anywhere: locked, cancelled)
        t = _where(world, rng, lambda t: psel.table_state(t) != PayoutTable.LOCKED and not clock_selectors.late_registration_open(t), Tournament.RUNNING)
    else:
        t = _event(world, rng, Tournament.RUNNING, Tournament.CANCELLED)
    if t.status == Tournament.RUNNING and clock_selectors.late_registration_open(t):
        raise Skip("registration still open: the table locks itself when it closes")
    payouts.lock_payout_table(t, actor=world.director)
    return f"locked {t.name}'s payout table"


@action(weight=1)
def unlock_payout_table(world: World, rng) -> str:
    """The director unlocks a published payout table to change it (one not locked: refused)."""
    t = _mostly(world, rng, lambda t: psel.table_state(t) == PayoutTable.LOCKED, Tournament.RUNNING)
    payouts.unlock_payout_table(t, actor=world.director, reason="late sponsor money")
    return f"unlocked {t.name}'s payout table"


@action(weight=3)
def sign_off(world: World, rng) -> str:
    t = _event(world, rng, Tournament.RUNNING, Tournament.FINISHED)
    who = world.director if rng.random() < 0.5 else world.controller
    payouts.sign_off_ranking(t, actor=who)
    return f"{who.label} signed {t.name}'s ranking"


def _unpaid(t: Tournament) -> list[dict]:
    return [d for d in psel.dues(t) if not d["paid"] and not d.get("forfeited") and d.get("kind") != "ITEM"]


def _sign(world: World, t: Tournament) -> None:
    """The director and the controller sign the ranking as it stands (one of them may have
    signed it already)."""
    for who in (world.director, world.controller):
        try:
            payouts.sign_off_ranking(t, actor=who)
        except DomainError as refusal:
            if refusal.code != "already_signed":
                raise


@action(weight=5)
def pay_prize(world: World, rng) -> str:
    """The desk pays a prize won (mostly where the payout table is locked: elsewhere refused)."""
    t = _mostly(world, rng, lambda t: bool(_unpaid(t)), Tournament.RUNNING, Tournament.FINISHED, stray=0.1)
    due = pick(rng, _unpaid(t), "prize due")
    entry = due["entry"] if isinstance(due["entry"], Entry) else Entry.objects.get(pk=due["entry"])
    if not due["released"] and rng.random() < 0.85:
        # the player is at the desk before the ranking is signed: the cashier calls the director
        # and the controller, who publish the payout table (where it can be) and sign; else refused
        if psel.table_state(t) != PayoutTable.LOCKED and not (t.status == Tournament.RUNNING and clock_selectors.late_registration_open(t)):
            payouts.lock_payout_table(t, actor=world.director)
        _sign(world, t)
    payouts.pay_prize(entry, method=LedgerRow.CASH, actor=world.cashier(rng))
    return f"paid {due['amount']} to #{entry.number} of {t.name}"


@action(weight=2)
def deal(world: World, rng) -> str:
    """The last few players agree a deal (chip chop, ICM or even), approved by the director."""
    # the last few players ask for a deal (now and then more of them: skipped as before)
    t = _mostly(world, rng, lambda t: 2 <= t.entries.filter(status=Entry.ACTIVE).count() <= 4, Tournament.RUNNING, stray=0.1)
    live = world.entries(t, Entry.ACTIVE)
    if not 2 <= len(live) <= 4:
        raise Skip("no deal with this many players")
    if psel.table_state(t) != PayoutTable.LOCKED and rng.random() < 0.9:
        # a deal is made on the published table: the director publishes it, or the players wait
        # for registration to close (now and then they ask anyway: refused, table not locked)
        if clock_selectors.late_registration_open(t):
            raise Skip("registration open: the payout table is not published yet")
        payouts.lock_payout_table(t, actor=world.director)
    stacks = _stacks_in_play(rng, live)
    method = rng.choice(["CHIP_CHOP", "ICM", "EVEN_CHOP"])
    proposed = payouts.propose_deal(t, stacks, method=method, actor=world.director)
    if rng.random() < 0.2:
        payouts.cancel_deal(proposed, actor=world.director, reason="one said no")
        return f"{method} deal proposed and dropped in {t.name}"
    for e in live:
        payouts.accept_deal(proposed, e, actor=world.director)
    payouts.approve_deal(proposed, actor=world.director)
    return f"{method} deal approved in {t.name}"


@action(weight=1)
def finish_event(world: World, rng) -> str:
    t = _event(world, rng, Tournament.RUNNING)
    if t.entries.filter(status=Entry.ACTIVE).count() > 1:
        raise Skip("still playing")
    lifecycle.finish(t, actor=world.director)
    return f"finished {t.name}"


# --- people: rectification and erasure -------------------------------------------------------


@action(weight=1)
def rectify_person(world: World, rng) -> str:
    entry = pick(rng, [e for t in world.tournaments() for e in world.entries(t)], "player")
    people.update_person(entry.person, actor=world.director, phone=f"+39 3{rng.randrange(10**8, 10**9)}")
    world.touched = None  # a person plays in several events
    return f"rectified person #{entry.person_id}'s phone"


@action(weight=1)
def erase_person(world: World, rng) -> str:
    """A player asks to be forgotten: refused while he plays or money is open, else erased; his
    name, phone and document must then be gone from every public answer and export."""
    entries = [e for t in world.tournaments() for e in world.entries(t)]
    # mostly one who has left every event (one still playing, or owed money, is refused)
    playing = set(Entry.objects.filter(status__in=(Entry.ACTIVE, Entry.RESERVED)).values_list("person_id", flat=True))
    done = [e for e in entries if e.person_id not in playing]
    entry = pick(rng, done if done and rng.random() < 0.85 else entries, "player")
    p = entry.person
    was = [s for s in (p.first_name + " " + p.last_name, p.last_name, p.phone, p.document_id, p.nickname) if s]
    privacy.erase_person(p, "asked to be forgotten", actor=world.director)
    world.erased[p.pk] = was
    world.touched = None
    return f"erased person #{p.pk}"


def _with_document(world: World, rng) -> Entry:
    return pick(rng, [e for t in world.tournaments() for e in world.entries(t) if e.person.document_id], "player with a document")


@action(weight=1)
def look_up_person(world: World, rng) -> str:
    """Somebody of the staff looks a player up: the desk by the document he shows, the floor by
    his name. Whoever asks, the invariants then ask the search as every role, with the whole
    number and with a part of it."""
    p = _with_document(world, rng).person
    who = rng.choice(world.staff_logins)
    query = p.document_id if rng.random() < 0.5 else p.last_name
    found = people.search_people(query, reader=who.user)
    world.looked_up.append(p.pk)
    return f"{who.user.username} looked up person #{p.pk}: {len(found)} found"


@action(weight=1)
def export_person(world: World, rng) -> str:
    """A player asks for his data (GDPR access) and the director exports it: the file holds the
    whole document number, a read of it the log must show."""
    p = _with_document(world, rng).person
    privacy.export_person(p, actor=world.director)
    world.exported.append(p.pk)
    return f"exported person #{p.pk}'s data"


@action(weight=1)
def room_table_service(world: World, rng) -> str:
    """The director takes a table of the room out of service (a torn felt), or puts one back:
    refused while an event plays there; a draw never takes a table out of service."""
    table = rng.choice(list(RoomTable.objects.filter(room=world.room).order_by("number")))
    if table.out_of_service:
        cardrooms.back_in_service(world.room, table.number, actor=world.director)
        return f"table {table.number} back in service"
    cardrooms.set_out_of_service(world.room, table.number, f"sim felt {rng.randrange(100)}", actor=world.director)
    world.touched = None  # every event's draws see the room
    return f"table {table.number} out of service"


@action(weight=2)
def push_dealers(world: World, rng) -> str:
    """The floor pushes the room's dealers (the beat does it every half hour as well)."""
    plan = dealers.push(world.room, actor=world.floor)
    world.pushed = True
    dealing = sum(1 for a in plan.assignments if a.kind == "DEAL")
    return f"pushed: {dealing} dealing, {len(plan.uncovered)} tables without a dealer"


@action(weight=2)
def dealer_reports_a_hand(world: World, rng) -> str:
    """A rostered dealer reports a hand completed: from his table it counts; now and then he
    names another table, and the product refuses (not_your_table)."""
    where = {a.dealer_id: a for a in dealers.current(world.room.pk).values() if a.kind == "DEAL"}
    held = dict(RoomTable.objects.filter(room=world.room, held_by__status=Tournament.RUNNING).values_list("number", "held_by_id"))
    # a dealer at a table of an event still playing (one whose event ended waits for the next push)
    dealer_id = pick(rng, sorted(d for d, a in where.items() if a.table in held), "dealer at a table of an event playing")
    table = where[dealer_id].table
    t = Tournament.objects.get(pk=held[table])
    world.touched.add(t.pk)
    user = next(u for u in world.dealers if u.pk == dealer_id)
    if rng.random() < 0.25:
        others = [n for n in tsel_table_numbers(t) if n != table]
        if others:
            seating.hand_completed(t, rng.choice(others), actor=Actor(user, "sim dealer tablet"))
            raise AssertionError(f"{user.username} reported a hand at a table not his, and the product took it")
    seating.hand_completed(t, table, actor=Actor(user, "sim dealer tablet"))
    return f"{user.username} reported a hand at table {table} of {t.name}"


@action(weight=1)
def keep_the_room(world: World, rng) -> str:
    """The director keeps the room's inventory and roster while events play: keeps a table for an
    event still to start (or a table not free, refused), lifts a kept table, takes a free table
    away and brings it back, changes the rotation (now and then out of range, refused), sends a
    dealer home and calls in another for the rest of the day, or reads the next push's list; the
    beat's minute follows (a push when one is due)."""
    room, who = world.room, world.director
    world.touched = None  # every event's draws see the room
    roll = rng.random()
    tables = list(RoomTable.objects.filter(room=room).order_by("number"))
    if roll < 0.25:
        waiting = [t for t in world.tournaments(Tournament.PLANNED, Tournament.REGISTERING)]
        t = pick(rng, waiting, "event still to start")
        table = rng.choice(tables)
        cardrooms.reserve(room, table.number, t, actor=who)
        what = f"table {table.number} kept for {t.name}"
    elif roll < 0.4:
        kept = pick(rng, [tb for tb in tables if tb.reserved_for_id], "kept table")
        cardrooms.lift_reservation(room, kept.number, actor=who)
        what = f"table {kept.number} no longer kept"
    elif roll < 0.55:
        table = rng.choice(tables)
        cardrooms.remove_table(room, table.number, actor=who)
        seats = rng.choice([9, 10])
        cardrooms.save_table(room, table.number, seats=seats, zone=table.zone, actor=who)
        what = f"table {table.number} taken away and brought back with {seats} seats"
    elif roll < 0.7:
        push = rng.choice([10, 20, 30, 60, 5 if rng.random() < 0.2 else 25])
        room = dealers.save_rotation(room, actor=who, push_minutes=push, break_after=rng.choice([60, 120, 480]), break_minutes=rng.choice([10, 20]))
        what = f"a push every {push} minutes"
    elif roll < 0.85:
        now = timezone.now()
        shifts = list(DealerShift.objects.filter(room=room, starts_at__lte=now, ends_at__gt=now).order_by("pk"))
        shift = pick(rng, shifts, "dealer on shift")
        dealers.remove_shift(room, shift.pk, actor=who)
        dealers.add_shift(room, shift.dealer, now, now + timedelta(hours=rng.choice([2, 6])), actor=who)
        what = f"{shift.dealer.username} sent home and called in again"
    elif roll < 0.93:
        world.push_list = dealers.preview(room, timezone.now())
        what = f"push list read: {len(world.push_list['moves'])} moves"
    else:  # the events playing on numbers of their own (none, on a day that opened its room first)
        done = cardrooms.bring_in(room, actor=who)
        what = f"brought to the room: {len(done['brought_in'])}, left on their numbers: {len(done['left'])}"
    world.room = room
    if dealers.push_when_due():
        world.pushed = True
        what += ", the beat pushed"
    return what


@action(weight=1)
def design_the_lobby(world: World, rng) -> str:
    """The director designs the lobby's screens (issue #43): a layout copied from a built-in one
    with a block moved and a colour of its own (a block off the grid, or over another: refused), a
    screen given a layout for play, the breaks or the final table, a screen made the speaker, or a
    layout deleted (refused while a screen shows it)."""
    from tournaments.models import DisplayScreen, ScreenLayout
    from tournaments.screens import rules as screen_rules
    from tournaments.screens import services as screen_services

    world.designed = True
    roll = rng.random()
    if roll < 0.1:  # a logo uploaded, a layout shared with another room and imported there
        out = io.BytesIO()
        Image.new("RGB", (rng.randrange(8, 64), rng.randrange(8, 64)), (rng.randrange(256), 0, 0)).save(out, format="PNG")
        logo = screen_services.upload_image(name=f"sim logo {rng.randrange(1000)}", content=out.getvalue(), actor=world.director)
        design = copy.deepcopy(screen_rules.BUILTIN["default"]["design"])
        design["blocks"][0]["w"] = screen_rules.GRID - 2  # the name makes room: a block may not cover another
        design["blocks"].append({"kind": "logo", "x": screen_rules.GRID - 2, "y": 0, "w": 2, "h": 2, "image": logo.pk})
        made = screen_services.save_layout(name=f"sim shared {world.seed % 1000}-{rng.randrange(10**6)}", design=design, actor=world.director)
        imported = screen_services.import_layout(screen_services.export_layout(f"layout:{made.pk}"), actor=world.director)
        shown = screen_services.image_addresses([imported.design])  # what a screen showing it is given
        if list(shown.values()) != [logo.digest]:
            raise AssertionError(f"the imported layout's logo is not addressed by its picture: {shown}")
        return f"layout {made.name} exported and imported as {imported.name}"
    if roll < 0.35:
        base = screen_rules.BUILTIN[rng.choice(sorted(screen_rules.BUILTIN))]
        design = copy.deepcopy(base["design"])
        block = rng.choice(design["blocks"])
        block["x"] = rng.randrange(0, screen_rules.GRID - block["w"] + (3 if rng.random() < 0.2 else 1))  # past the grid: refused
        block["bg"] = f"#{rng.randrange(0x1000000):06x}"
        made = screen_services.save_layout(
            name=f"sim layout {world.seed % 1000}-{rng.randrange(10**6)}", design=design, portrait=base["portrait"], actor=world.director
        )
        return f"layout {made.name} saved"
    if roll < 0.85:
        t = _event(world, rng, Tournament.REGISTERING, Tournament.RUNNING)
        screen = DisplayScreen.objects.filter(tournament=t).order_by("pk").first() or screen_services.create_screen(
            {"name": f"TV {t.pk}", "tournament": t}, actor=world.director
        )
        keys = [c["key"] for c in screen_services.choices()]
        state = rng.choice(sorted(screen_rules.STATES))
        chosen = {**(screen.layouts or {}), state: rng.choice(keys)}
        screen_services.update_screen(screen, {"layouts": chosen, "speaker": rng.random() < 0.5}, actor=world.director)
        return f"{screen.name} shows {chosen[state]} ({state})"
    layout = pick(rng, ScreenLayout.objects.order_by("pk"), "stored layout")
    screen_services.delete_layout(layout, actor=world.director)
    return f"layout {layout.name} deleted"


@action(weight=1)
def device_login(world: World, rng) -> str:
    """A cashier logs in from a desk's tablet; now and then a device is logged out by its user or
    by the director, or the cashier's password is changed: an ended login logs nobody in."""
    user = rng.choice(world.cashiers).user
    token, key = logins.issue_token(user, device=f"sim desk tablet {rng.randrange(100)}", actor=Actor(user))
    roll = rng.random()
    if roll < 0.5:
        return f"{user.username} logged in from {token.name}"
    if roll < 0.8:
        logins.revoke_token(token.pk, actor=Actor(user) if roll < 0.65 else world.director)
        world.ended_keys.append(key)
        return f"{user.username} logged in from {token.name}, then logged out"
    user.set_password(f"sim-{rng.randrange(10**9)}")
    user.save()
    world.ended_keys.append(key)
    return f"{user.username} logged in from {token.name}; his password changed"


class _Desk:
    """The request of a login attempt, as the throttle reads it: where it comes from."""

    def __init__(self, address: str):
        self.META = {"REMOTE_ADDR": address}


@action(weight=1)
def lock_out_and_lift(world: World, rng) -> str:
    """Someone guesses a cashier's password from an address until the username is locked out
    there; the director lifts every lock-out of that username as the list shows it (the username
    at the address; the account, should one be listed) and the cashier is let in again."""
    user = rng.choice(world.cashiers).user
    address = f"198.18.{rng.randrange(250)}.{rng.randrange(1, 250)}"
    backend = security.ThrottledModelBackend()
    for _ in range(settings.TDM_LOGIN_FAILURES_PER_USER):
        backend.authenticate(_Desk(address), username=user.username, password=f"guess-{rng.randrange(10**9)}")
    assert security.lockout(user.username, address) is not None, (
        f"{user.username} not locked out at {address} by {settings.TDM_LOGIN_FAILURES_PER_USER} wrong passwords"
    )
    listed = [row for row in staff_selectors.login_lockouts() if row["username"] == user.username]
    assert any(row["kind"] == "user" and row["address"] == address for row in listed), f"the lock-out of {user.username} at {address} is not listed"
    for row in listed:
        logins.lift_lockout(kind=row["kind"], username=row["username"], address=row["address"], actor=world.director)
    assert security.lockout(user.username, address) is None, f"{user.username} still locked out at {address} once lifted as listed"
    return f"{user.username} locked out at {address}, lifted: {', '.join(row['kind'] for row in listed)}"


@action(weight=1)
def staff_change(world: World, rng) -> str:
    """The director on the staff page: adds a login (a dealer for the roster, a cashier), changes
    the role of one he added, resets its password or disables it (each time with a device logged
    in: that login ends) and enables it again; now and then he tries to disable or demote himself
    while he is the room's last director, and the product refuses (last_director). The day's own
    logins (its cashiers, its dealers) are left alone: the other actions use them."""
    who = world.director
    added = list(get_user_model().objects.filter(username__startswith="sim-staff-").order_by("pk"))
    roll = rng.random()
    if roll < 0.3 or not added:
        role = rng.choice(["dealer", "dealer", "cashier", "floor"])
        user, _password = staff.add_login(f"sim-staff-{world.seed % 1000}-{rng.randrange(10**6)}", role, actor=who)
        return f"{user.username} added as {role}"
    if roll < 0.4:
        if len(staff_selectors.staff_logins().filter(groups__name="director", is_active=True)) > 1:
            raise Skip("another director is active: the day's director is not the last")
        if rng.random() < 0.5:
            staff.set_active(who.user.pk, False, actor=who)
        else:
            staff.set_role(who.user.pk, "floor", actor=who)
        raise AssertionError("the last director was disabled or demoted")
    user = rng.choice(added)
    token, key = logins.issue_token(user, device=f"sim phone {rng.randrange(100)}", actor=Actor(user)) if user.is_active else (None, None)
    if roll < 0.6:
        role = rng.choice(["dealer", "cashier", "floor", "display"])
        staff.set_role(user.pk, role, actor=who)
        return f"{user.username} is now {role}"
    if roll < 0.8:
        staff.reset_password(user.pk, actor=who)
        world.ended_keys += [key] if key else []
        return f"{user.username}'s password reset"
    staff.set_active(user.pk, not user.is_active, actor=who)
    world.ended_keys += [key] if key else []
    return f"{user.username} {'enabled' if not user.is_active else 'disabled'}"


@action(weight=1)
def import_people(world: World, rng) -> str:
    """The director takes the people out as a sheet (CSV or XLSX) and brings the file back in: it
    finds every row already in and changes nothing. Then a sheet from the room's former records:
    new players, one of them twice, now and then a refused row in the middle, which refuses the
    whole file (nothing written) until it is imported leaving it out."""
    fmt = rng.choice(["csv", "xlsx"])
    data, name = import_rules.export_file("people", fmt)
    before = list(Person.objects.order_by("pk").values())
    back = import_services.run_import("people", data, name, actor=world.director)
    counts = back.counts()
    assert counts["created"] == counts["updated"] == counts["refused"] == 0, f"the people's own export came back as changes: {counts}"
    assert list(Person.objects.order_by("pk").values()) == before, "importing the people's own export changed someone"
    tag = rng.randrange(10**6)
    lines = [f"Import{tag};Anna;;+39 340 {tag:07d};;;01/02/1980;;;;sì", f"Import{tag};Bruno;;;;;;;sì;;", f"import{tag};ANNA;;+39 340 {tag:07d};;;;;;;"]
    bad = rng.random() < 0.4
    if bad:
        lines.insert(1, f"Import{tag};Carla;;;not-an-email;;;;;;")
    sheet = (
        "Cognome;Nome;Soprannome;Telefono;Email;Documento;Data di nascita;Note;Escluso;Motivo esclusione;Consenso privacy\r\n" + "\r\n".join(lines)
    ).encode("cp1252")
    people_before = Person.objects.count()
    if bad:
        try:
            import_services.run_import("people", sheet, "archivio.csv", actor=world.director)
        except DomainError as exc:
            assert exc.code == "rows_refused" and exc.extra["refused"][0]["row"] == 3, exc.as_dict()
        else:
            raise AssertionError("a sheet with a refused row was imported")
        assert Person.objects.count() == people_before, "a refused sheet wrote people"
    p = import_services.run_import("people", sheet, "archivio.csv", actor=world.director, skip_refused=bad)
    assert p.counts()["created"] == 2 and p.counts()["duplicate"] == 1, p.counts()
    assert Person.objects.count() == people_before + 2
    return f"{len(before)} people out as {fmt} and back unchanged; 2 brought in from the room's records"


def bounty_awards(t) -> list[BountyAward]:
    return list(BountyAward.objects.filter(tournament=t).order_by("pk"))


# --- the director's announcements (FMT-02) -------------------------------------------------


@action(weight=2)
def announce_change(world: World, rng) -> str:
    """The director raises a published event's guarantee, saying why (FMT-02: a new version on
    the lobby screens). The reason is the staff's until the director shows it to the players:
    now and then this version's or an older one's is shown, now and then hidden again. Mostly on
    an event whose payout table is not locked: on one that is, or whose paid places are decided,
    the guarantee no longer changes (PAY-05, day seed 1900109) and the product refuses."""
    t = _mostly(world, rng, lambda t: psel.table_state(t) != PayoutTable.LOCKED, Tournament.REGISTERING, Tournament.RUNNING)
    guarantee = (t.guarantee or Decimal(0)) + Decimal(rng.choice([500, 1000, 2500]))
    reason = f"sim-reason {t.pk}-{rng.randrange(10**9)}"  # told apart from every other reason of the day
    if changes.is_published(t) and rng.random() < 0.2:
        # first without a reason (blank, as a form left empty sends it): refused, nothing changed
        before = (t.guarantee, t.changes.count())
        try:
            setup.update_tournament(t, {"guarantee": guarantee}, actor=world.director, override_reason=" ")
        except DomainError as exc:
            # a published event's change says why (FMT-02); so does a price once registration opened
            assert exc.code in ("change_reason_required", "money_fields_locked"), exc.code
        else:
            raise AssertionError(f"{t.name}: a published event's change was taken without a reason")
        t.refresh_from_db()
        assert (t.guarantee, t.changes.count()) == before, f"{t.name}: a refused change left a trace"
    setup.update_tournament(t, {"guarantee": guarantee}, actor=world.director, override_reason=reason)
    told = []
    for version in t.changes.exclude(reason="").order_by("version").values_list("version", flat=True):
        if rng.random() < 0.4:
            public = rng.random() < 0.7
            changes.set_reason_public(t, version, public, actor=world.director)
            told.append(f"v{version} {'shown' if public else 'hidden'}")
    return f"{t.name} guarantee {guarantee} ({reason}); reasons: {', '.join(told) or 'untouched'}"
