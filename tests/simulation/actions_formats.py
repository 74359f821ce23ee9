"""The event formats beyond freezeout, re-entry and rebuy, as the simulator's actions: sit & go,
satellites (seats, tickets, the cash remainder), multi-day flights (bagging, Day 2), heads-up
brackets, timed events with their qualifying tables, and series / leagues.

Each format's events are created here and put on the day's schedule (``world.events``), so the
core actions (sales, busts, refunds, payouts, cancellation…) pick them like any other event;
the actions below do what only that format does. As in ``actions``, an action reads the
product's state, calls the real services, raises ``Skip`` when there is nothing to act on and
lets a ``DomainError`` through (a refusal, counted).
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from django.utils import timezone

from payouts import selectors as psel
from payouts import services as payouts
from payouts.models import SatelliteLink, Ticket
from seating import services as seating
from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.floor.selectors import chips_in_play
from tournaments.formats import engine as fengine
from tournaments.formats.models import (
    Bag,
    Bracket,
    Flight,
    Match,
    MultiDayEvent,
    Qualifier,
    QualifierGroup,
    Series,
    SeriesCycle,
    SeriesPastResult,
    SeriesResult,
    SeriesTournament,
    TimedEvent,
)
from tournaments.formats.selectors import bagging_summary
from tournaments.formats.services import headsup, multiday, series, sitandgo, stackchoice, timed
from tournaments.imports import rules as import_rules
from tournaments.imports import services as import_services
from tournaments.models import Entry, Person, Tournament
from tournaments.setup import lifecycle
from tournaments.setup import services as setup

from .actions import _bounty_kind, _eliminators, _method, _players_in, _selling, _structure, action, pick
from .world import Skip, World

OPEN = (Tournament.PLANNED, Tournament.REGISTERING, Tournament.RUNNING)


def _formats(world: World) -> list[int]:
    """The day's events of the formats here (a Day 2 and a final count with their flights and
    qualifiers: they are planned, not played, until those end)."""
    return getattr(world, "formats", [])


def _room(world: World, limit: int = 2) -> None:
    """The room runs a couple of special events at once: a new one waits for one of them to end
    (a day of the simulator is short: an event with the whole room's players gets played out)."""
    if len(Tournament.objects.filter(pk__in=_formats(world), status__in=(Tournament.REGISTERING, Tournament.RUNNING))) >= limit:
        raise Skip("two special events are on")


def _play_out(world: World, t: Tournament, rng, *, tie: bool = False) -> int:
    """The floor records the busts of an event, one at a time at his table, until one player is
    left (or the event ends by itself: a satellite on its deciding bust). With ``tie``, three
    left, two go out on one hand with the same starting stack now and then: they share their
    place (ELM-06). Returns how many went out."""
    out = 0
    while Tournament.objects.get(pk=t.pk).status == Tournament.RUNNING:
        seats = [(table, entry) for table, row in world.seats(t).items() for entry in row.values()]
        if len(seats) < 2:
            break
        bounty = _bounty_kind(t) != "NONE"  # a series event may be a bounty event: its eliminators named
        if tie and len(seats) == 3 and rng.random() < 0.5:
            table, _e = seats[0]
            at = [e for tb, e in seats if tb == table]
            if len(at) == 3:
                pair = at[:2]
                items = [{"entry": e, "starting_stack": 20000} for e in pair]
                if bounty:
                    for item in items:
                        item["eliminators"] = [at[2]]
                seating.record_bust(t, items, actor=world.floor, table=table, same_hand=True)
                out += 2
                continue
        table, entry = rng.choice(seats)
        item = entry
        if bounty:
            item = {"entry": entry, "eliminators": _eliminators(t, rng, [e for tb, e in seats if tb == table], entry)}
        seating.record_bust(t, [item], actor=world.floor, table=table)
        out += 1
    return out


def _schedule(world: World, *events: Tournament) -> None:
    for t in events:
        world.events.append(t.pk)
        world.touched.add(t.pk)
    world.formats = [*_formats(world), *(t.pk for t in events)]


def _format_events(world: World, *statuses) -> list[Tournament]:
    return list(Tournament.objects.filter(pk__in=_formats(world), status__in=statuses).order_by("pk"))


# --- what every format does: players arrive, the event starts, players go out ----------------


@action(weight=4)
def players_arrive(world: World, rng) -> str:
    """A group of players comes to the desk for one of the special events (a flight, a timed
    event, a satellite, a bracket, a daily): each buys his entry."""
    t = pick(rng, [t for t in _format_events(world, Tournament.REGISTERING, Tournament.RUNNING) if t.format != Tournament.SNG], "special event open")
    world.touched.add(t.pk)
    sold = 0
    for _ in range(rng.randrange(2, 7)):
        cashier.register(t, world.person(rng), method=_method(rng), actor=world.cashier(rng))
        sold += 1
    return f"{sold} players bought into {t.name}"


@action(weight=2)
def start_special_event(world: World, rng) -> str:
    """The director starts a special event once its players are in (a bracket starts with its
    draw, a sit & go by itself, a final with its qualifiers' winners)."""
    candidates = [
        t
        for t in _format_events(world, Tournament.REGISTERING)
        if t.format not in (Tournament.HEADS_UP, Tournament.SNG) and not hasattr(t, "qualifier_group") and not hasattr(t, "multiday_event")
    ]
    t = pick(rng, candidates, "special event to start")
    players = t.entries.filter(status=Entry.ACTIVE).count()
    if players == 0 or (players < 3 and rng.random() < 0.9):  # nobody to play: not started
        raise Skip("waiting for players")
    world.touched.add(t.pk)
    lifecycle.start(t, actor=world.director, override_minimum=True, prestart_report_sent=True, start_clock=True)
    return f"started {t.name}"


@action(weight=6)
def play_down(world: World, rng) -> str:
    """Hands are played in a special event: one to three players go out, one at a time, each at
    his table (the special events here have no bounty; a bracket plays its matches instead)."""
    t = pick(rng, [t for t in _format_events(world, Tournament.RUNNING) if t.format != Tournament.HEADS_UP], "special event running")
    out = []
    for _ in range(rng.choice([1, 2, 3])):
        seats = [(table, entry) for table, row in world.seats(t).items() for entry in row.values()]
        if len(seats) < 2:
            break
        table, entry = rng.choice(seats)
        seating.record_bust(t, [entry], actor=world.floor, table=table)
        out.append(entry)
        if Tournament.objects.get(pk=t.pk).status != Tournament.RUNNING:
            break
    if not out:
        raise Skip("one player left")
    return f"{len(out)} out in {t.name}"


def _ours(world: World, qs):
    """The rows of ``qs`` (a queryset with a ``tournament`` field) that belong to today's events."""
    return list(qs.filter(tournament_id__in=world.events).order_by("pk"))


def _now():
    return timezone.now()


# --- sit & go ----------------------------------------------------------------------------------


@action(weight=3)
def create_sit_and_go(world: World, rng) -> str:
    """A sit & go of one table: it starts by itself when its tenth place is paid."""
    _room(world)
    t = sitandgo.create_sit_and_go(
        name=f"Sim SNG {len(world.events) + 1}",
        buy_in=Decimal(rng.choice([20, 50, 100])),
        fee=Decimal(rng.choice([2, 5, 10])),
        starting_stack=5000,
        structure=_structure(),
        actor=world.director,
    )
    _schedule(world, t)
    return f"created sit & go {t.name} (#{t.pk})"


@action(weight=2)
def fill_sit_and_go(world: World, rng) -> str:
    """A group of players buys the places left of a sit & go (its last sale starts it)."""
    sngs = [t for t in world.tournaments(Tournament.REGISTERING) if t.format == Tournament.SNG]
    t = pick(rng, sngs, "sit & go registering")
    world.touched.add(t.pk)
    left = cashier.sit_and_go_size(t) - t.entries.filter(status__in=(Entry.ACTIVE, Entry.RESERVED)).count()
    n = min(left, rng.randrange(1, 6)) if left > 0 else 1  # players come in small groups
    for _ in range(n):
        cashier.register(t, world.person(rng), method=_method(rng), actor=world.cashier(rng))
    t.refresh_from_db()
    return f"sold {n} places of {t.name} ({t.status.lower()})"


# --- satellites and tickets --------------------------------------------------------------------


@action(weight=2)
def create_satellite(world: World, rng) -> str:
    """A satellite to one of the day's events: a tenth of its price, seats worth the target's
    buy-in and fee, the remainder as the house (or the director) says."""
    _room(world)
    targets = [t for t in world.tournaments(Tournament.REGISTERING, Tournament.RUNNING) if t.entry_price > 0 and t.format != Tournament.SATELLITE]
    target = pick(rng, targets, "target event")
    world.touched.add(target.pk)
    buy_in = max(Decimal(5), (target.entry_price / rng.choice([3, 4, 5])).quantize(Decimal(1)))
    sat = setup.create_tournament(
        dict(
            name=f"Sim Satellite {len(world.events) + 1} to {target.name}"[:120],
            start_at=timezone.now(),
            buy_in=buy_in,
            starting_stack=10000,
            table_size=rng.choice([6, 9]),
            structure=_structure(),
            min_players=2,
            format=Tournament.SATELLITE,
            settings={},
        ),
        actor=world.director,
        override_reason="simulated satellite",
    )
    _schedule(world, sat)
    lifecycle.open_registration(sat, actor=world.director)
    rule = rng.choice([None, SatelliteLink.NEXT_PLACE, SatelliteLink.SHARED, SatelliteLink.CHUNKS])
    base = rng.choice([None, SatelliteLink.GROSS, SatelliteLink.NET])
    already = rng.choice([SatelliteLink.TICKET, SatelliteLink.CASH])
    payouts.link_satellite(sat, target, actor=world.director, remainder_rule=rule, prize_base=base, already_registered=already)
    return f"created {sat.name} (#{sat.pk}) for #{target.pk}: remainder {rule or 'house'}, base {base or 'house'}, registered winner gets {already}"


@action(weight=6)
def satellite_player_buys_target(world: World, rng) -> str:
    """A satellite player does not wait: he buys his entry in the target at the desk (should he
    win a seat, the link gives him a ticket or its value in money)."""
    links = list(SatelliteLink.objects.filter(satellite_id__in=world.events, completed_at__isnull=True).select_related("target").order_by("pk"))
    selling = [link for link in links if _selling(link.target)]
    link = pick(rng, selling if rng.random() < 0.9 else links, "satellite")  # mostly while the target still sells
    sat = Tournament.objects.get(pk=link.satellite_id)
    entry = pick(
        rng,
        [e for e in sat.entries.filter(status=Entry.ACTIVE).select_related("person") if not link.target.entries.filter(person=e.person).exists()],
        "satellite player",
    )
    world.touched.update({sat.pk, link.target_id})
    sale = cashier.register(link.target, entry.person, method=_method(rng), actor=world.cashier(rng))
    return f"{entry.person.full_name} of {sat.name} bought #{sale.entry.number} in {link.target.name}"


@action(weight=3)
def complete_satellite(world: World, rng) -> str:
    """A satellite played to its end (started first once its players are in): the floor records
    its busts until no more players are left than the seats its pool buys; the deciding bust
    completes it (FMT-08: the seats issued in the target, ``complete_satellite`` called by the
    bust). A pool that buys no seat is played out and finished as a normal tournament (now and then
    the director's "complete" is asked: refused); one whose target has ended is cancelled. Now and
    then the director presses it by hand: too soon, or once the satellite has ended (refused). The
    seats can only be decided by a bust (a no-show or a disqualification is one too), so the
    hand-pressed completion never finds the seats decided and waiting."""
    links = list(
        SatelliteLink.objects.filter(
            satellite_id__in=world.events, satellite__status__in=(Tournament.REGISTERING, Tournament.RUNNING, Tournament.FINISHED)
        ).order_by("pk")
    )
    running = [link for link in links if link.completed_at is None and (link.satellite.status == Tournament.RUNNING or _players_in(link.satellite))]
    if not running or rng.random() < 0.05:
        if not running and rng.random() < 0.95:
            raise Skip("every satellite has ended")  # its refusal, now and then, is enough
        link = pick(rng, running or links, "satellite played")
        paid = payouts.complete_satellite(link.satellite, actor=world.director)
        return f"completed satellite #{link.satellite_id} by hand: {len(paid)} seats"
    buying = [link for link in running if any(a.seat for a in psel.satellite_awards(link.satellite, link))]
    link = rng.choice(buying if buying and rng.random() < 0.9 else running)  # mostly one whose pool buys a seat
    sat = link.satellite
    if sat.status == Tournament.REGISTERING:  # its players are in: the director starts it
        lifecycle.start(sat, actor=world.director, override_minimum=True, prestart_report_sent=True, start_clock=True)
    if link.target.status in (Tournament.FINISHED, Tournament.CANCELLED) and rng.random() < 0.9:
        # its target is over: no seat to award (completing is refused); the director cancels it
        lifecycle.cancel(sat, actor=world.director, reason="its target event has ended")
        return f"satellite #{sat.pk} cancelled: {link.target.name} has ended"
    out = _play_out(world, sat, rng)
    link.refresh_from_db()
    if link.completed_at is None and Tournament.objects.get(pk=sat.pk).status == Tournament.RUNNING and rng.random() < 0.9:
        # its pool buys no seat: the director ends it as a normal tournament (completing is refused)
        lifecycle.finish(sat, actor=world.director)
        return f"satellite #{sat.pk} bought no seat: played out ({out} out) and finished"
    if link.completed_at is None:
        payouts.complete_satellite(sat, actor=world.director)  # no seat bought: refused
    return f"satellite #{sat.pk} played to its seats ({out} out): completed"


@action(weight=2)
def redeem_satellite_ticket(world: World, rng) -> str:
    """A ticket holder (a satellite's winner already in the target, a ticket given by the
    director) comes to the desk: his identity checked, the ticket becomes an entry."""
    tickets = list(Ticket.objects.filter(status=Ticket.ISSUED, target_id__in=world.events).select_related("holder", "target").order_by("pk"))
    if not tickets and rng.random() < 0.3:
        targets = world.tournaments(Tournament.REGISTERING, Tournament.RUNNING)
        target = pick(rng, [t for t in targets if t.entry_price > 0], "event for a ticket")
        payouts.issue_ticket(world.person(rng), value=target.entry_price, actor=world.director, target=target, description="leaderboard ticket")
        tickets = list(Ticket.objects.filter(status=Ticket.ISSUED, target=target).select_related("holder", "target"))
    # mostly a holder whose event still sells and who is not in it yet (a winner who had bought
    # the target himself, or comes too late, is refused)
    usable = [k for k in tickets if _selling(k.target) and not k.target.entries.filter(person=k.holder).exists()]
    ticket = pick(rng, usable if usable and rng.random() < 0.9 else tickets, "ticket")
    world.touched.add(ticket.target_id)
    entry = payouts.redeem_ticket(ticket, actor=world.cashier(rng), id_checked=rng.random() < 0.95)
    return f"ticket {ticket.pk} of {ticket.holder.full_name} redeemed: #{entry.number} in {ticket.target.name}"


# --- multi-day events --------------------------------------------------------------------------


@action(weight=2)
def create_multiday(world: World, rng) -> str:
    """A multi-day event: one or two Day 1 flights open for registration (now and then with a
    deep-stack option), Day 2 planned for tomorrow."""
    _room(world)
    labels = ["1A", "1B"][: rng.choice([1, 1, 2])]
    n = len(world.events) + 1
    event = multiday.create_event(
        name=f"Sim Grand Prix {n}",
        flights=[{"label": label, "start_at": _now() + timedelta(minutes=10 * i)} for i, label in enumerate(labels)],
        day2_start_at=_now() + timedelta(days=1),
        buy_in=Decimal(rng.choice([100, 200])),
        fee=Decimal(rng.choice([10, 20])),
        starting_stack=20000,
        structure=_structure(),
        actor=world.director,
        table_size=rng.choice([6, 9]),
        max_entries_per_player=rng.choice([1, 2]),
        late_reg_closes_after_level=rng.choice([None, 4]),
        multi_flight_stack=rng.choice([fengine.BEST, fengine.FIRST]),
        surrender_allowed=rng.random() < 0.7,
        # PAY-08 comes out of the event's one pool: the director sets chip-leader prizes this
        # small event's pool can fund (the house's 2,000/1,000/500 are a festival's, where a
        # guarantee covers them; prizes above a pool are a finding of their own, in the report)
        chip_leader_prizes=rng.choice([[], ["100", "50", "25"], ["200", "100"]]),
    )
    flights = [f.tournament for f in event.flights.select_related("tournament").order_by("position")]
    _schedule(world, *flights, event.day2)
    extra = ""
    if rng.random() < 0.7:
        stackchoice.add_stack_option(
            flights[0],
            label="Deep",
            buy_in=flights[0].buy_in + Decimal(50),
            fee=flights[0].fee + Decimal(5),
            chips=30000,
            actor=world.director,
            override_reason="announced with the schedule",
        )
        extra = " with a deep-stack option"
    return f"created {event.name}: flights {', '.join(labels)}{extra}"


@action(weight=1)
def sell_stack_choice(world: World, rng) -> str:
    """The desk sells an entry with the stack the player chooses (a busted player re-enters)."""
    t = pick(rng, [t for t in world.tournaments(Tournament.REGISTERING, Tournament.RUNNING) if t.stack_options.exists()], "event with stack options")
    world.touched.add(t.pk)
    option = rng.choice(list(t.stack_options.filter(active=True).order_by("pk")))
    busted = [e.person for e in t.entries.filter(status=Entry.BUSTED).select_related("person")]
    person = rng.choice(busted) if busted and rng.random() < 0.4 else world.person(rng)
    sale = stackchoice.register_with_stack_choice(t, person, option, method=_method(rng), actor=world.cashier(rng))
    return f"sold #{sale.entry.number} of {t.name} with the {option.label} stack ({sale.row.total})"


def _split(total: int, n: int, rng) -> list[int]:
    """``total`` chips in ``n`` positive stacks (multiples of 100 but the last)."""
    if n == 0:
        return []
    if total < n:
        return [1] * n
    cuts = sorted(rng.sample(range(1, max(total // 100, n + 1)), n - 1)) if n > 1 else []
    stacks, last = [], 0
    for c in cuts:
        stacks.append(max(1, c * 100 - last))
        last = c * 100
    stacks.append(max(1, total - sum(stacks)))
    return stacks


@action(weight=4)
def bag_flight(world: World, rng) -> str:
    """A Day 1 flight played through: started once its players are in; at the end of its day
    every survivor's chips bagged (now and then a surrender, a count off by a few chips with its
    reason), then the flight closed."""
    flights = list(
        Flight.objects.filter(
            tournament_id__in=world.events, closed_at__isnull=True, tournament__status__in=(Tournament.REGISTERING, Tournament.RUNNING)
        ).select_related("event", "tournament")
    )
    flight = pick(rng, flights, "flight")
    t = flight.tournament
    world.touched.add(t.pk)
    if t.status == Tournament.REGISTERING:
        if t.entries.filter(status=Entry.ACTIVE).count() < 3:
            raise Skip("waiting for players")
        lifecycle.start(t, actor=world.director, override_minimum=True, prestart_report_sent=True, start_clock=True)
        return f"started {t.name}"
    live = list(t.entries.filter(status=Entry.ACTIVE, bag__isnull=True).order_by("number"))
    bagged_chips = sum(Bag.objects.filter(flight=flight, surrendered=False).values_list("chips", flat=True))
    if live:
        off = rng.choice([0, 0, 0, 0, 25, -100]) if rng.random() < 0.3 else 0
        stacks = _split(max(len(live), chips_in_play(t) - bagged_chips + off), len(live), rng)
        rows = [{"number": e.number, "chips": c, "bag_number": f"{flight.label}-{e.number:03d}", "signed": True} for e, c in zip(live, stacks)]
        if flight.event.surrender_allowed and len(rows) > 1 and rng.random() < 0.15:
            rows[-1]["surrender"] = True
        multiday.bag_chips(t, rows, actor=world.director)
    summary = bagging_summary(flight)
    reason = "recount agreed with the players" if summary["difference"] else ""
    multiday.close_flight(t, actor=world.director, reason=reason)
    return f"bagged {len(live)} players of {t.name} and closed the flight (difference {summary['difference']})"


@action(weight=4)
def build_day2(world: World, rng) -> str:
    """Every flight closed: Day 2 gets its players (their bags), then starts with a fresh draw."""
    events = [e for e in MultiDayEvent.objects.filter(day2_id__in=world.events).select_related("day2").order_by("pk") if e.day2.status == Tournament.PLANNED]
    event = pick(rng, events, "Day 2 to build")
    world.touched.update({event.day2_id, *event.flights.values_list("tournament_id", flat=True)})
    if not event.day2_built_at:
        if event.flights.filter(closed_at__isnull=True).exclude(tournament__status=Tournament.CANCELLED).exists() and rng.random() < 0.9:
            raise Skip("flights still playing")
        built = multiday.build_day2(event, actor=world.director)
        if rng.random() < 0.8:  # the director starts it later, once the room is ready
            return f"built {event.day2.name}: {len(built)} players"
    multiday.start_day2(event, actor=world.director)
    return f"started {event.day2.name}"


@action(weight=5)
def finish_day2(world: World, rng) -> str:
    """Day 2 is played down (a few players out, one at a time) and finished once one is left;
    now and then the director asks to finish it too soon (refused). Each step plays some hands,
    as ``play_down`` does: the day's last action and its hands are played as often."""
    events = [e for e in MultiDayEvent.objects.filter(day2_id__in=world.events, day2__status=Tournament.RUNNING).order_by("pk")]
    event = pick(rng, events, "Day 2 running")
    world.touched.add(event.day2_id)
    out = 0
    if rng.random() < 0.9:
        for _ in range(rng.randint(2, 6)):
            seats = [(table, entry) for table, row in world.seats(event.day2).items() for entry in row.values()]
            if len(seats) < 2:
                break
            table, entry = rng.choice(seats)
            seating.record_bust(event.day2, [entry], actor=world.floor, table=table)
            out += 1
        if event.day2.entries.filter(status=Entry.ACTIVE).count() > 1:
            return f"{out} out in {event.day2.name}"
    multiday.finish_day2(event, actor=world.director)  # one left (or asked too soon: refused)
    return f"{out} out, finished {event.day2.name}"


# --- heads-up brackets -------------------------------------------------------------------------


@action(weight=1)
def create_headsup(world: World, rng) -> str:
    """A heads-up event: a bracket of 2, 4 or 8, the no-show rule (or, a final day, lateness)."""
    _room(world, limit=3)  # a bracket takes a corner of the room
    size = rng.choice([2, 4, 4, 4, 8])
    bracket = headsup.create_headsup_event(
        name=f"Sim Heads-up {len(world.events) + 1}",
        start_at=_now(),
        buy_in=Decimal(rng.choice([50, 100])),
        fee=Decimal(rng.choice([5, 10])),
        starting_stack=10000,
        structure=_structure(),
        actor=world.director,
        size=size,
        level_minutes=10,
        punctuality=Bracket.LATENESS if rng.random() < 0.25 else Bracket.NO_SHOW,
        paid_players=rng.choice([2, min(4, size)]),
    )
    _schedule(world, bracket.tournament)
    return f"created heads-up {bracket.tournament.name} (#{bracket.tournament_id}), bracket of {size}"


@action(weight=3)
def request_headsup_seats(world: World, rng) -> str:
    """Players ask for a seat in a bracket not drawn yet; the director gives the places in
    priority order (each admitted player gets a place to pay at the desk)."""
    brackets = list(Bracket.objects.filter(tournament_id__in=world.events, drawn_at__isnull=True, tournament__status=Tournament.REGISTERING).order_by("pk"))
    bracket = pick(rng, brackets, "bracket taking requests")
    t = bracket.tournament
    world.touched.add(t.pk)
    for _ in range(rng.randrange(1, 4)):
        headsup.request_seat(t, world.person(rng), actor=world.director)
    got = headsup.allocate_seats(t, actor=world.director)
    return f"{t.name}: {len(got['admitted'])} admitted, {len(got['refused'])} refused"


@action(weight=2)
def draw_bracket(world: World, rng) -> str:
    """The bracket drawn at the room's entrance (places booked but not paid are collected or let
    go first): the event starts."""
    brackets = list(Bracket.objects.filter(tournament_id__in=world.events, drawn_at__isnull=True, tournament__status=Tournament.REGISTERING).order_by("pk"))
    bracket = pick(rng, brackets, "bracket to draw")
    t = bracket.tournament
    world.touched.add(t.pk)
    for e in t.entries.filter(status=Entry.RESERVED).order_by("number"):
        if rng.random() < 0.7:
            cashier.pay_reservation(e, method=_method(rng), actor=world.cashier(rng))
        else:
            cashier.cancel_reservation(e, actor=world.cashier(rng), reason="did not come to pay")
    if t.entries.filter(status=Entry.ACTIVE).count() <= bracket.size // 2 and rng.random() < 0.7:
        # too few paid: the players waiting at the entrance ask for the places left, the director
        # gives them in priority order and they pay before the draw
        for _ in range(bracket.size - t.entries.filter(status=Entry.ACTIVE).count()):
            headsup.request_seat(t, world.person(rng), actor=world.director)
        headsup.allocate_seats(t, actor=world.director)
        for e in t.entries.filter(status=Entry.RESERVED).order_by("number"):
            cashier.pay_reservation(e, method=_method(rng), actor=world.cashier(rng))
    if t.entries.filter(status=Entry.ACTIVE).count() <= bracket.size // 2 and rng.random() < 0.9:
        raise Skip("too few players for the bracket")
    headsup.draw_bracket(t, actor=world.director)
    return f"drew {t.name}'s bracket of {bracket.size}"


def _wait(world: World, minutes: float) -> None:
    world.traveller.shift(timedelta(minutes=minutes))


@action(weight=5)
def play_match(world: World, rng) -> str:
    """A match of a drawn bracket: started, its players seated (now and then one never comes:
    his seat freed at the end of level 1, then a replacement or a bye; on a final day the
    lateness rule), a game or two recorded."""
    matches = list(
        Match.objects.filter(bracket__tournament_id__in=world.events, status__in=(Match.READY, Match.PLAYING), bracket__tournament__status=Tournament.RUNNING)
        .select_related("bracket", "player_a__person", "player_b__person")
        .order_by("pk")
    )
    m = pick(rng, matches, "match to play")
    bracket = m.bracket
    t = bracket.tournament
    world.touched.add(t.pk)
    what = []
    if m.status == Match.READY:
        m = headsup.start_match(m, actor=world.floor)
        sides = [m.player_a, m.player_b]
        if rng.random() < 0.2:  # one of them is not here
            sides = [rng.choice(sides)]
        for e in sides:
            m = headsup.seat_player(m, e, actor=world.floor)
        what.append(f"match {m.pk} started ({len(sides)} seated)")
        if len(sides) == 2 or rng.random() < 0.5:
            return f"{t.name}: " + ", ".join(what)
    m = Match.objects.select_related("player_a", "player_b").get(pk=m.pk)
    seated = [side for side in ("a", "b") if getattr(m, f"player_{side}_id") and getattr(m, f"{side}_seated_at")]
    if m.status == Match.PLAYING and len(seated) == 1:
        absent = "b" if seated == ["a"] else "a"
        late = getattr(m, f"player_{absent}")
        if headsup.lateness_rule(bracket, m):
            _wait(world, rng.choice([5, 11, 21]))
            if rng.random() < 0.5:
                headsup.apply_lateness(m, actor=world.director)
                what.append("lateness applied")
            else:
                headsup.seat_player(m, late, actor=world.floor)
                what.append(f"#{late.number} arrived late")
        elif m.seat_freed_at is None:
            _wait(world, bracket.level_minutes + rng.choice([0, 1, 3]))
            headsup.free_absent_seat(m, actor=world.director)
            what.append(f"#{late.number}'s seat freed")
            if rng.random() < 0.5:
                headsup.seat_replacement(m, world.person(rng), method=_method(rng), actor=world.cashier(rng))
                what.append("a replacement sat down")
            else:
                _wait(world, bracket.no_show_grace_minutes + 1)
                headsup.award_bye(m, actor=world.director)
                what.append("bye awarded")
        return f"{t.name} match {m.pk}: " + ", ".join(what)
    if m.status == Match.PLAYING and not seated:
        for e in (m.player_a, m.player_b):
            if e is not None:
                m = headsup.seat_player(m, e, actor=world.floor)
    m = Match.objects.select_related("player_a", "player_b").get(pk=m.pk)
    for _ in range(rng.choice([1, 2, 3])):
        if m.status != Match.PLAYING:
            break
        winner = rng.choice([m.player_a, m.player_b])
        m = headsup.record_game(m, winner, actor=world.floor)
        what.append(f"game to #{winner.number} ({m.a_wins}-{m.b_wins})")
    if m.status == Match.DONE:
        world.touched = None  # a bracket's last match finishes the event (and may qualify players elsewhere)
    return f"{t.name} match {m.pk}: " + ", ".join(what)


# --- timed events and qualifying tables --------------------------------------------------------


@action(weight=2)
def create_timed(world: World, rng) -> str:
    """A timed event: play ends at a set time and the players left are ranked by their chips."""
    _room(world)
    t = _new_timed(world, rng)
    return f"created timed {t.name} (#{t.pk}) ending {timezone.localtime(t.timed.ends_at):%H:%M}"


def _new_timed(world: World, rng) -> Tournament:
    t = timed.create_timed_event(
        name=f"Sim Timed {len(world.events) + 1}",
        start_at=_now(),
        buy_in=Decimal(rng.choice([30, 50, 100])),
        fee=Decimal(rng.choice([5, 10])),
        starting_stack=20000,
        structure=_structure(),
        actor=world.director,
        minutes=rng.choice([15, 30, 45]),
        end_condition=TimedEvent.LAST_PLAYER if rng.random() < 0.15 else TimedEvent.TIME_LIMIT,
        chip_tie=rng.choice(fengine.TIE_RULES),
    )
    _schedule(world, t)
    return t


@action(weight=5)
def finish_timed(world: World, rng) -> str:
    """Time is up (or one player is left): the stacks of the players still in are counted after
    the last hand, and the event ranked (a qualifying table sends its winner to the final)."""
    events = [
        te for te in TimedEvent.objects.filter(tournament_id__in=world.events, finished_at__isnull=True, tournament__status=Tournament.RUNNING).order_by("pk")
    ]
    te = pick(rng, events, "timed event running")
    t = te.tournament
    alive = list(t.entries.filter(status=Entry.ACTIVE).order_by("number"))
    world.touched = None  # a qualifier's winner goes to its final; the clocks move
    if not alive and rng.random() < 0.9:  # nobody plays in it: the director cancels it (finishing is refused)
        lifecycle.cancel(t, actor=world.director, reason="nobody plays in it")
        return f"cancelled {t.name}: nobody plays in it"
    if te.end_condition == TimedEvent.LAST_PLAYER and len(alive) > 1 and rng.random() < 0.9:
        # it ends when one player is left, not by the clock: the floor plays it down first
        # (asked before, the director is refused)
        _play_out(world, t, rng)
        if Tournament.objects.get(pk=t.pk).status != Tournament.RUNNING:
            return f"{t.name} played down to its last player: over"
        alive = list(t.entries.filter(status=Entry.ACTIVE).order_by("number"))
    elif len(alive) > 1 and timezone.now() < te.ends_at and rng.random() < 0.9:
        if te.ends_at - timezone.now() > timedelta(minutes=40):
            raise Skip("play goes on")
        world.traveller.shift(te.ends_at - timezone.now() + timedelta(minutes=rng.choice([0, 1, 4])))  # the room plays on to the limit
        clock_services.sweep()
    stacks = _split(max(len(alive), chips_in_play(t)), len(alive), rng)
    if len(stacks) > 1 and rng.random() < 0.2:
        stacks[1] = stacks[0]  # two equal stacks: the tie rule decides
    counts = [{"entry": e.pk, "chips": c} for e, c in zip(alive, stacks)]
    result = timed.finish_timed(t, actor=world.director, counts=counts)
    return f"finished {t.name} by {result['by']}: {len(result['standings'])} ranked by chips"


@action(weight=2)
def create_qualifiers(world: World, rng) -> str:
    """One or two of the day's timed events become qualifying tables of a final (free entry for
    their winners, planned until they are played)."""
    candidates = [
        t
        for t in world.tournaments(Tournament.REGISTERING, Tournament.RUNNING)
        if t.format == Tournament.TIMED and not Qualifier.objects.filter(tournament=t).exists()
    ]
    if not candidates:
        # the director puts the qualifying tables on the schedule with their final
        _room(world)
        candidates = [_new_timed(world, rng)]
    chosen = rng.sample(candidates, min(len(candidates), rng.choice([1, 2])))
    final = setup.create_tournament(
        dict(
            name=f"Sim Final {len(world.events) + 1}",
            start_at=_now() + timedelta(hours=3),
            buy_in=Decimal(0),
            starting_stack=30000,
            structure=_structure(),
            min_players=2,
        ),
        actor=world.director,
        override_reason="final of the qualifying tables",
    )
    _schedule(world, final)
    world.touched.update(t.pk for t in chosen)
    timed.create_qualifier_group(name=f"Qualifiers to {final.name}", final=final, qualifiers=chosen, actor=world.director)
    return f"{', '.join(t.name for t in chosen)} qualify for {final.name}"


@action(weight=1)
def send_qualifier_winner(world: World, rng) -> str:
    """A qualifying table finished without its winner sent (ended by hand): the director sends him
    (a winner already sent, or a table still playing, is refused)."""
    qs = list(Qualifier.objects.filter(tournament_id__in=world.events).exclude(tournament__status=Tournament.CANCELLED).order_by("pk"))
    unsent = [q for q in qs if q.final_entry_id is None and q.tournament.status == Tournament.FINISHED]
    playing = [q for q in qs if q.tournament.status == Tournament.RUNNING and q.group.final.status == Tournament.PLANNED]
    # a table whose players are in is started first, as the director does when they sit down
    ready = [q for q in qs if q.tournament.status == Tournament.REGISTERING and q.group.final.status == Tournament.PLANNED and _players_in(q.tournament)]
    if not unsent and (playing or ready) and rng.random() < 0.8:
        # the table is played out to its last player (no time limit reached, no chip count) and
        # the director ends it by hand: its winner is not sent by itself
        q = rng.choice(playing or ready)
        if q.tournament.status == Tournament.REGISTERING:
            lifecycle.start(q.tournament, actor=world.director, override_minimum=True, prestart_report_sent=True, start_clock=True)
        _play_out(world, q.tournament, rng)
        lifecycle.finish(q.tournament, actor=world.director)
        unsent = [q]
    if not unsent and rng.random() < 0.9:
        raise Skip("no qualifier winner to send")  # every one sent (asking again now and then: refused)
    q = pick(rng, unsent if unsent and rng.random() < 0.95 else qs, "qualifier winner to send")
    entry = timed.send_winner_to_final(q.tournament, actor=world.director)
    return f"#{entry.number} goes to {entry.tournament.name}"


@action(weight=8)
def start_final(world: World, rng) -> str:
    """Every qualifying table played: the final opens and starts with the winners."""
    groups = [g for g in QualifierGroup.objects.filter(final_id__in=world.events, final__status=Tournament.PLANNED).order_by("pk")]
    group = pick(rng, groups, "final to start")
    if group.qualifiers.exclude(tournament__status__in=(Tournament.FINISHED, Tournament.CANCELLED)).exists() and rng.random() < 0.9:
        raise Skip("qualifying tables still playing")
    final = group.final
    world.touched.add(final.pk)
    lifecycle.open_registration(final, actor=world.director)
    lifecycle.start(final, actor=world.director, override_minimum=True, prestart_report_sent=True, start_clock=True)
    return f"started {final.name} with {final.entries.filter(status=Entry.ACTIVE).count()} winners"


# --- series and leagues ------------------------------------------------------------------------


def _series(world: World) -> list[Series]:
    return list(Series.objects.filter(pk__in=getattr(world, "series", [])).order_by("pk"))


@action(weight=0.5)
def create_series(world: World, rng) -> str:
    """A Sanremo leaderboard (cycles of a few events, tickets to the best) or a league scored by
    a formula the director picks."""
    if len(_series(world)) >= 2:
        raise Skip("two series today")
    kind = rng.choice(["SANREMO", "SQRT", "SQRT_BUYIN", "TABLE", "LINEAR"])
    settings = {"tickets_per_cycle": rng.choice([1, 2, 2])}
    if kind == "SANREMO":
        settings["cycle_length"] = rng.choice([1, 1, 2, 3])
    else:
        settings.update(scoring=kind, cycle_length=rng.choice([None, 2]), best_of=rng.choice([None, 2]), knockout_points=Decimal(rng.choice([0, 2])))
        if kind == "TABLE":
            settings["points_table"] = ["100", "60", "40", "20"]
    s = series.create_series(name=f"Sim {kind.title()} League {world.seed % 1000}-{len(_series(world)) + 1}", actor=world.director, **settings)
    world.series = [*getattr(world, "series", []), s.pk]
    return f"created series {s.name} ({kind})"


@action(weight=1)
def attach_to_series(world: World, rng) -> str:
    s = pick(rng, _series(world), "series")
    attached = set(SeriesTournament.objects.values_list("tournament_id", flat=True).filter(tournament_id__in=world.events))
    t = pick(rng, [t for t in world.tournaments() if t.pk not in attached and t.status != Tournament.CANCELLED], "event to attach")
    world.touched.add(t.pk)
    series.attach(s, t, actor=world.director)
    return f"{t.name} counts for {s.name}"


@action(weight=4)
def schedule_daily(world: World, rng) -> str:
    """The series' daily tournament of today, at the weekday's price (the room's everyday event:
    it waits only when three special events are on)."""
    _room(world, limit=3)
    s = pick(rng, _series(world), "series")
    if fengine.daily_price(timezone.localdate().weekday(), s.weekday_prices or None) is None and rng.random() < 0.8:
        raise Skip("no daily on this weekday")  # the director knows his schedule (now and then asks: refused)
    t = series.schedule_daily(
        s, timezone.localdate(), structure=_structure(), starting_stack=20000, actor=world.director, name=f"Sim Daily {len(world.events) + 1}"
    )
    _schedule(world, t)
    return f"scheduled {t.name} ({t.buy_in}+{t.fee}) for {s.name}"


@action(weight=4)
def score_series(world: World, rng) -> str:
    """A finished series event scored: its players' points (and a cycle closed with its tickets)."""
    links = list(SeriesTournament.objects.filter(tournament_id__in=world.events, scored_at__isnull=True, tournament__status=Tournament.FINISHED).order_by("pk"))
    playing = list(
        SeriesTournament.objects.filter(tournament_id__in=world.events, scored_at__isnull=True, tournament__status=Tournament.RUNNING)
        .exclude(tournament__format=Tournament.HEADS_UP)  # a bracket is played match by match
        .order_by("pk")
    )
    world.touched = None
    if not links and playing and rng.random() < 0.8:
        # a series event played to its end (now and then two share a place on the last hands:
        # a tie for a cycle's last ticket), finished by the director, then scored
        link = rng.choice(playing)
        _play_out(world, link.tournament, rng, tie=True)
        lifecycle.finish(link.tournament, actor=world.director)
        links = [link]
    link = pick(rng, links, "finished series event")
    results = series.score_tournament(link.tournament, actor=world.director)
    return f"scored {link.tournament.name}: {len(results)} players"


@action(weight=4)
def close_season(world: World, rng) -> str:
    """The director closes a league's season, mostly one with events scored in it (an empty
    season is refused)."""
    leagues = [s for s in _series(world) if s.is_league]
    played = [s for s in leagues if SeriesResult.objects.filter(series=s, cycle=s.current_cycle).exists()]
    if not played and rng.random() < 0.95:
        raise Skip("nothing scored this season")
    s = pick(rng, played if played and rng.random() < 0.9 else leagues, "league")
    archive = series.close_season(s, actor=world.director)
    return f"closed season {archive.number} of {s.name}"


@action(weight=1)
def import_league_results(world: World, rng) -> str:
    """A league's season moves in: the director brings in the results of two events played before
    this system (new players, one of them in both; now and then a refused row in the middle, which
    refuses the whole file until it is imported leaving it out). The same file again, and the
    league's own export (its events played here too), change nothing."""
    leagues = [s for s in _series(world) if s.is_league]
    s = pick(rng, leagues, "league")
    tag = rng.randrange(10**6)
    first, second = (timezone.localdate() - timedelta(days=d) for d in (14, 7))
    lines = [
        f"{first:%d/%m/%Y};Past {tag} A;Past{tag};Anna;;1;300,00;{rng.choice(['25', '12,5', '40'])}",
        f"{first:%d/%m/%Y};Past {tag} A;Past{tag};Bruno;;2;;15",
        f"{second:%d/%m/%Y};Past {tag} B;Past{tag};Anna;;2;;10",
    ]
    bad = rng.random() < 0.4
    if bad:
        lines.insert(1, f"{second:%d/%m/%Y};Past {tag} B;Past{tag};Carla;;first;;10")
    sheet = ("Data;Torneo;Cognome;Nome;Soprannome;Posizione;Premio;Punti\r\n" + "\r\n".join(lines)).encode("cp1252")
    options = {"league": str(s.pk)}
    before = (SeriesPastResult.objects.count(), Person.objects.count())
    if bad:
        try:
            import_services.run_import("league", sheet, "lega.csv", actor=world.director, options=options)
        except DomainError as exc:
            assert exc.code == "rows_refused" and exc.extra["refused"][0]["row"] == 3, exc.as_dict()
        else:
            raise AssertionError("a league sheet with a refused row was imported")
        assert (SeriesPastResult.objects.count(), Person.objects.count()) == before, "a refused league sheet wrote something"
    p = import_services.run_import("league", sheet, "lega.csv", actor=world.director, options=options, skip_refused=bad)
    assert p.counts()["created"] == 3, p.counts()
    assert (SeriesPastResult.objects.count(), Person.objects.count()) == (before[0] + 3, before[1] + 2)
    again = import_services.run_import("league", sheet, "lega.csv", actor=world.director, options=options, skip_refused=bad)
    assert again.counts()["created"] == again.counts()["updated"] == 0, again.counts()
    fmt = rng.choice(["csv", "xlsx"])
    data, name = import_rules.export_file("league", fmt, options)
    back = import_services.preview("league", data, name, options=options).counts()
    assert back["created"] == back["updated"] == back["refused"] == 0, f"the league's own export came back as changes: {back}"
    return f"{s.name}: 3 results of 2 events before this system brought in; its {fmt} export comes back unchanged"


@action(weight=2)
def settle_series_tie(world: World, rng) -> str:
    """A tie for the last ticket of a cycle: the director settles it (a witnessed high-card draw);
    a cycle with nothing undecided, or the wrong number of players chosen, is refused."""
    cycles = list(SeriesCycle.objects.filter(series_id__in=getattr(world, "series", [])).order_by("pk"))
    undecided = [c for c in cycles if c.tickets_undecided > 0]
    c = pick(rng, undecided if undecided and rng.random() < 0.9 else cycles, "closed cycle")
    n = c.tickets_undecided if rng.random() < 0.9 else c.tickets_undecided + 1
    chosen = rng.sample(list(c.undecided), min(len(c.undecided), n))
    series.settle_undecided(c.series, c.number, chosen, actor=world.director, reason="high card draw, witnessed")
    return f"settled {len(chosen)} tickets of cycle {c.number} of {c.series.name}"
