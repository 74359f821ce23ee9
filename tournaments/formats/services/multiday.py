"""Multi-day events (FMT-11): Day 1 flights, bagging, surrender, chip leaders (PAY-08), Day 2.

A flight is an ordinary tournament of format MULTIDAY (sold by the cashier desk as usual:
re-entry within a flight follows the flight's own settings, and a player may play any
number of flights). At the end of the flight every survivor's chips are bagged; a player
may surrender instead (irreversible: his sealed bag leaves play). When every flight is
closed, Day 2 gets one entry per surviving player carrying the stack the event's rule
names, without money; starting Day 2 triggers the fresh random seat draw (TDA 7).
"""

from decimal import Decimal

from django.utils import timezone
from django.utils.translation import gettext as _

from seating import services as seating
from tdmanager import shown_text
from tdmanager.errors import ValidationFailed
from tdmanager.transactions import service
from tournaments import draws
from tournaments.cashier.ledger import lock_tournament
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.models import ChipAdjustment, ChipCount, Entry, Tournament, checks
from tournaments.setup import lifecycle
from tournaments.setup import services as setup

from .. import engine
from ..models import Bag, ChipLeaderAward, Flight, MultiDayEvent, QualifiedEntry
from ..selectors import bagging_summary
from .common import FormatError, finish_clock_if_running, need_status, place_eliminated, qualify

BAGGING = "BAGGING"


@service
def create_event(
    *,
    name: str,
    flights: list[dict],
    day2_start_at,
    buy_in: Decimal,
    fee: Decimal,
    starting_stack: int,
    structure,
    actor: Actor,
    table_size: int = 9,
    max_entries_per_player: int = 1,
    late_reg_closes_after_level=None,
    multi_flight_stack: str = engine.BEST,
    surrender_allowed: bool = True,
    chip_leader_prizes=None,
    chip_leader_ties: str = engine.SHARE,
    day2_structure=None,
) -> MultiDayEvent:
    """Create the Day 2 tournament (planned: no direct entries unless the director opens its
    registration) and one open flight per ``{"label": "1A", "start_at": …}``."""
    if not flights:
        raise ValidationFailed("no_flights", _("A multi-day event needs at least one Day 1 flight."))
    shown_text.check(name, "name", _("Name"))
    labels = [str(f["label"]).strip() for f in flights]
    for label in labels:
        shown_text.check(label, "flights", _("Flights"))
    if any(not label for label in labels) or len(set(labels)) != len(labels):
        raise ValidationFailed("bad_flight_labels", _("Every flight needs its own label (1A, 1B, …)."))
    if multi_flight_stack not in engine.FLIGHT_STACK_RULES:
        raise ValidationFailed("bad_setting", _("Unknown rule for players who survive several flights."))
    common = dict(buy_in=buy_in, fee=fee, starting_stack=starting_stack, table_size=table_size, format=Tournament.MULTIDAY)
    day2 = checks.create(
        Tournament,
        name=f"{name} — Day 2",
        start_at=day2_start_at,
        status=Tournament.PLANNED,
        structure=day2_structure or structure,
        min_players=1,
        settings={"multiday_day": 2},
        **common,
    )
    event = MultiDayEvent.objects.create(
        name=name,
        day2=day2,
        multi_flight_stack=multi_flight_stack,
        surrender_allowed=surrender_allowed,
        chip_leader_prizes=[str(p) for p in (chip_leader_prizes if chip_leader_prizes is not None else engine.DEFAULT_CHIP_LEADER_PRIZES)],
        chip_leader_ties=chip_leader_ties,
    )
    for i, (label, f) in enumerate(zip(labels, flights)):
        t = checks.create(
            Tournament,
            name=f"{name} — Day {label}",
            start_at=f["start_at"],
            status=Tournament.REGISTERING,
            structure=structure,
            max_entries_per_player=max_entries_per_player,
            late_reg_closes_after_level=late_reg_closes_after_level,
            settings={"multiday_day": 1},
            **common,
        )
        Flight.objects.create(event=event, tournament=t, label=label, position=i)
    log_event(day2, Action.FORMATS_MULTIDAY_CREATED, actor, event=event.pk, flights=labels, multi_flight_stack=multi_flight_stack)
    for t in [day2, *(f.tournament for f in event.flights.select_related("tournament"))]:  # REG-03
        setup.keep_typed_fee_as_override(t, actor, "the multi-day event's fee as created")
    return event


def _flight_of(t: Tournament) -> Flight:
    try:
        return Flight.objects.select_related("event").get(tournament=t)
    except Flight.DoesNotExist:
        raise FormatError("not_a_flight", _("This tournament is not a Day 1 flight.")) from None


def _find_entry(t, row):
    for key, field in (("entry", "pk"), ("number", "number")):
        if row.get(key) not in (None, ""):
            n = checks.whole(row[key], lo=1)
            return Entry.objects.select_related("person").filter(tournament=t, **{field: n}).first() if n else None
    return None


@service
def bag_chips(tournament, rows: list[dict], *, actor: Actor, now=None) -> dict:
    """Record the bagging of many players at once (a table, or the whole room).

    Each row: ``entry`` (id) or ``number`` (entry number), ``chips``, ``bag_number``, and
    optionally ``dealer``, ``signed`` and ``surrender``. A surrender (FMT-11, 001 L110) is
    sealed in its bag like any other, then removed from play (a SURRENDER chip adjustment)
    and the entry leaves the flight unranked; it cannot be undone. Every bag is also a
    chip count (occasion BAGGING). Returns :func:`bagging_summary`.
    """
    now = now or timezone.now()
    t = lock_tournament(tournament)
    flight = _flight_of(t)
    if flight.closed_at:
        raise FormatError("flight_closed", _("This flight is closed."))
    need_status(t, Tournament.RUNNING, message=_("Chips are bagged at the end of a running flight."))
    if not rows:
        raise ValidationFailed("no_rows", _("Enter at least one bag."))
    seen_entries, seen_bags = set(), set()
    existing_bags = set(flight.bags.values_list("bag_number", flat=True))
    bags, counts, surrendered = [], [], []
    for row in rows:
        entry = _find_entry(t, row)
        label = row.get("number") or row.get("entry")
        if entry is None or entry.status != Entry.ACTIVE:
            raise FormatError("not_playing", _("Entry %(n)s is not in this flight.") % {"n": label})
        if entry.pk in seen_entries or Bag.objects.filter(entry=entry).exists():
            raise FormatError("already_bagged", _("Entry %(n)s is already bagged.") % {"n": entry.number})
        chips = checks.whole(row.get("chips"), lo=-checks.MAX_CHIPS, hi=checks.MAX_CHIPS)
        if chips is None:
            raise ValidationFailed("bad_chips", _("Entry %(n)s: enter the chips as a whole number.") % {"n": entry.number})
        if chips <= 0:
            raise ValidationFailed("bad_chips", _("Entry %(n)s: a bag holds at least one chip (a player with none has busted).") % {"n": entry.number})
        bag_number = str(row.get("bag_number") or "").strip()
        if not bag_number or len(bag_number) > 20:
            raise ValidationFailed("bag_number_required", _("Entry %(n)s: enter the bag number.") % {"n": entry.number})
        if bag_number in seen_bags or bag_number in existing_bags:
            raise FormatError("bag_number_used", _("Bag number %(b)s is already used in this flight.") % {"b": bag_number})
        surrender = bool(row.get("surrender"))
        if surrender and not flight.event.surrender_allowed:
            raise FormatError("surrender_not_offered", _("Surrender is not offered in this event."))
        seen_entries.add(entry.pk)
        seen_bags.add(bag_number)
        bags.append(
            Bag(
                flight=flight,
                entry=entry,
                chips=chips,
                bag_number=bag_number,
                dealer=str(row.get("dealer") or "")[:80],
                player_signed=bool(row.get("signed")),
                surrendered=surrender,
                counted_by=actor.user,
                bagged_at=now,
            )
        )
        counts.append(ChipCount(tournament=t, entry=entry, chips=chips, occasion=BAGGING, bag_number=bag_number, counted_by=actor.user, counted_at=now))
        if surrender:
            surrendered.append((entry, chips, bag_number))
    Bag.objects.bulk_create(bags)
    ChipCount.objects.bulk_create(counts)
    for entry, chips, bag_number in surrendered:
        # TDA 8-B by analogy: the sealed, signed bag is out of play for good.
        ChipAdjustment.objects.create(
            tournament=t,
            entry=entry,
            kind=ChipAdjustment.SURRENDER,
            chips=-chips,
            reason=f"surrender at bagging, bag {bag_number}",
            created_by=actor.user,
            created_at=now,
        )
        entry.status, entry.busted_at, entry.place = Entry.BUSTED, now, None
        entry.save(update_fields=["status", "busted_at", "place"])
        seating.release_seat(t, entry, actor, now=now)  # out of the flight: his seat on the table map is free
    summary = bagging_summary(flight)
    log_event(
        t,
        Action.FORMATS_BAGGING_RECORDED,
        actor,
        bags=[{"entry": b.entry.number, "chips": b.chips, "bag": b.bag_number, "surrender": b.surrendered} for b in bags],
        **{k: summary[k] for k in ("bagged_chips", "surrendered_chips", "chips_in_play", "difference")},
    )
    return summary


@service
def close_flight(tournament, *, actor: Actor, reason: str = "", now=None) -> Flight:
    """End the flight: every survivor must be bagged and the bags must add up to the chips
    in play (or the director states why not). The chip leaders get their prizes (PAY-08)
    and the flight tournament is finished."""
    now = now or timezone.now()
    t = lock_tournament(tournament)
    flight = _flight_of(t)
    if flight.closed_at:
        raise FormatError("flight_closed", _("This flight is already closed."))
    summary = bagging_summary(flight)
    if summary["unbagged_entries"]:
        raise FormatError(
            "not_all_bagged", _("Bag every player first: entries %(n)s are not bagged.") % {"n": ", ".join(str(n) for n in summary["unbagged_entries"])}
        )
    if summary["difference"] and not reason.strip():
        raise FormatError(
            "count_mismatch",
            _("The bags differ from the chips in play by %(d)s: recount, or give the reason.") % {"d": summary["difference"]},
            difference=summary["difference"],
        )
    event = flight.event
    kept = [b for b in flight.bags.select_related("entry") if not b.surrendered]
    # Surrendered bags are out of play, so they win no chip-leader prize.
    seed = draws.draw_seed()  # orders equal bags under chip_leader_ties DRAW; logged for replay_draw
    prizes = engine.chip_leader_prizes([(b.entry, b.chips) for b in kept], event.prizes, tie=event.chip_leader_ties, rng=draws.rng_of(seed))
    awards = ChipLeaderAward.objects.bulk_create(
        ChipLeaderAward(
            flight=flight,
            entry=p.player,
            rank=p.rank,
            chips=p.chips,
            amount=p.amount,
            shared_with=p.shared_with,
            kind=event.chip_leader_prize_kind,
            created_at=now,
        )
        for p in prizes
    )
    flight.closed_at = now
    flight.save(update_fields=["closed_at"])
    finish_clock_if_running(t, actor)
    lifecycle.finish(t, actor=actor)
    log_event(
        t,
        Action.FORMATS_FLIGHT_CLOSED,
        actor,
        flight=flight.label,
        survivors=len(kept),
        reason=reason,
        difference=summary["difference"],
        chip_leaders=[{"entry": a.entry.number, "rank": a.rank, "chips": a.chips, "amount": str(a.amount), "shared_with": a.shared_with} for a in awards],
        seed=str(seed),
        tie=event.chip_leader_ties,
        bags=[[b.entry.number, b.chips] for b in kept],
        prizes=[str(p) for p in event.prizes],
    )
    return flight


def replay_chip_leaders(payload: dict) -> tuple[dict, dict]:
    """A flight's chip-leader prizes shared out again from its logged bags, prizes and seed."""
    again = engine.chip_leader_prizes([(n, c) for n, c in payload["bags"]], payload["prizes"], tie=payload["tie"], rng=draws.rng_of(payload["seed"]))
    logged = sorted([c["entry"], c["rank"], c["amount"]] for c in payload.get("chip_leaders", []))
    return {"chip_leaders": logged}, {"chip_leaders": sorted([p.player, p.rank, str(p.amount)] for p in again)}


@service
def build_day2(event: MultiDayEvent, *, actor: Actor, now=None) -> list[Entry]:
    """Give Day 2 one entry per player still in after Day 1, with his bagged stack.

    All flights must be closed. A player with bags from several flights carries one of
    them, as ``event.multi_flight_stack`` says (``BEST``, default, or ``FIRST``); the other
    bags do not come to Day 2. Day 2 entries have no ledger money (they were paid in
    the flights) and are logged as qualified entries.
    """
    now = now or timezone.now()
    day2 = lock_tournament(event.day2_id)
    event = MultiDayEvent.objects.select_for_update().get(pk=event.pk)
    need_status(day2, Tournament.PLANNED, Tournament.REGISTERING, message=_("Day 2 has already started."))
    if event.day2_built_at:
        raise FormatError("day2_built", _("Day 2 has already been given its players."))
    flights = list(event.flights.select_related("tournament"))
    open_flights = [f.label for f in flights if not f.closed_at and f.tournament.status != Tournament.CANCELLED]
    if open_flights:
        raise FormatError("flights_open", _("Close every flight first: %(f)s.") % {"f": ", ".join(open_flights)})
    order = {f.pk: f.position for f in flights}
    by_person: dict[int, list] = {}
    for bag in Bag.objects.filter(flight__event=event, surrendered=False).select_related("entry__person", "entry__tournament"):
        by_person.setdefault(bag.entry.person_id, []).append(engine.FlightBag(order[bag.flight_id], bag, bag.chips))
    created, left_out = [], []
    for person_bags in by_person.values():
        chosen = engine.day2_bag(person_bags, event.multi_flight_stack).bag
        left_out.extend(b.bag.bag_number for b in person_bags if b.bag is not chosen)
        created.append(qualify(day2, chosen.entry, chips=chosen.chips, source=QualifiedEntry.DAY1_BAG, actor=actor, bag=chosen, now=now))
    event.day2_built_at = now
    event.save(update_fields=["day2_built_at"])
    log_event(
        day2,
        Action.FORMATS_DAY2_BUILT,
        actor,
        event=event.pk,
        players=len(created),
        chips=sum(e.chips for e in created),
        rule=event.multi_flight_stack,
        bags_not_carried=left_out,
    )
    return created


@service
def start_day2(event: MultiDayEvent, *, actor: Actor) -> Tournament:
    """Start Day 2 (a fresh random draw of every stack: TDA 7, through the seating hook)."""
    day2 = lock_tournament(event.day2_id)
    if not MultiDayEvent.objects.get(pk=event.pk).day2_built_at:
        raise FormatError("day2_not_built", _("Bring the Day 1 survivors to Day 2 first."))
    return lifecycle.start(day2, actor=actor)


@service
def finish_day2(event: MultiDayEvent, *, actor: Actor, now=None) -> Tournament:
    """The last player left wins the event; every Day 2 elimination without a place from a
    bust slip is placed by bust order (ELM-01). The tournament is finished."""
    now = now or timezone.now()
    day2 = lock_tournament(event.day2_id)
    need_status(day2, Tournament.RUNNING, message=_("Day 2 is not running."))
    alive = list(day2.entries.filter(status=Entry.ACTIVE))
    if len(alive) != 1:
        raise FormatError("players_left", _("Day 2 ends when one player is left: %(n)s are still in.") % {"n": len(alive)})
    winner = alive[0]
    winner.place = 1
    winner.save(update_fields=["place"])

    placed = place_eliminated(day2, 2)
    finish_clock_if_running(day2, actor)
    lifecycle.finish(day2, actor=actor)
    log_event(day2, Action.FORMATS_DAY2_FINISHED, actor, event=event.pk, winner=winner.number, name=winner.person.full_name, placed=len(placed))
    return day2
