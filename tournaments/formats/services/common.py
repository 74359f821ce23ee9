"""Helpers shared by the format services: errors, qualified entries, places."""

from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tdmanager import shown_text
from tdmanager.errors import DomainError
from tournaments import signals
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.clock.selectors import get_clock
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import log_event
from tournaments.models import ChipAdjustment, Entry, Tournament, checks
from tournaments.setup import services as setup

from .. import engine
from ..models import QualifiedEntry


class FormatError(DomainError):
    """A format rule refused the action; ``code`` says which."""


# The formats engine's refusals (``engine.FormatRuleError`` codes) in the reader's language.
ENGINE_REFUSALS = {
    "bad_bracket_size": gettext_lazy("A bracket has 2, 4, 8, 16, 32 or 64 places."),
    "bad_chips": gettext_lazy("A stack cannot be negative."),
    "bad_flight_stack_rule": gettext_lazy("That rule for the stacks carried from the flights is not one TDManager knows."),
    "bad_tie_rule": gettext_lazy("That tie rule is not one TDManager knows."),
    "duplicate_player": gettext_lazy("A player is drawn twice."),
    "no_bag": gettext_lazy("The player has no bag."),
    "rng_required": gettext_lazy("A draw needs a random source."),
    "too_few_players": gettext_lazy("Too few players: a bracket needs at least two."),
    "too_many_players": gettext_lazy("Too many players for the bracket."),
}


def open_event(*, name: str, start_at, event_format: str, buy_in, fee, starting_stack: int, structure, actor, fee_reason: str, **fields) -> Tournament:
    """A format's tournament, open for registration (the caller is a service): validated as the
    setup page's, logged as created, and its typed fee kept as an override with ``fee_reason``
    (REG-03). ``fields``: the format's own (table size, field cap…)."""
    shown_text.check(name, "name", _("Name"))
    t = checks.create(
        Tournament,
        name=name,
        start_at=start_at or timezone.now(),
        format=event_format,
        status=Tournament.REGISTERING,
        buy_in=buy_in,
        fee=fee,
        starting_stack=starting_stack,
        structure=structure,
        **fields,
    )
    log_event(t, Action.TOURNAMENTS_TOURNAMENT_CREATED, actor, name=t.name)
    t.refresh_from_db(fields=["buy_in", "fee"])  # amounts as stored ("10.00", however typed), for the log
    setup.keep_typed_fee_as_override(t, actor, fee_reason)
    return t


def refuse_engine_error(exc: engine.FormatRuleError):
    """The engine's refusal as a 400 in the reader's words (``ENGINE_REFUSALS``): a heads-up
    draw with more players than the bracket holds (FMT-12)."""
    return FormatError(exc.code, str(ENGINE_REFUSALS.get(exc.code, exc)), status=400)


def need_status(t: Tournament, *statuses, code="bad_status", message=None):
    if t.status not in statuses:
        raise FormatError(code, message or _("Not possible while the tournament is %(s)s.") % {"s": t.get_status_display().lower()})


def qualify(target: Tournament, from_entry: Entry, *, chips: int, source: str, actor, bag=None, now=None) -> Entry:
    """Give ``from_entry``'s player an entry in ``target`` without money (a Day 2 stack, a
    qualifying-table winner, a heads-up group survivor). The caller holds the locks.

    The desk's rules that apply to a place not sold (``cashier.check_admission``, path
    ``QUALIFIED``): a banned person gets none, nor a player who already has one.
    The entry's ledger stays empty: the chips come in as a signed chip adjustment, so the
    target's chips in play (CR-06) and its average stack are right.
    """
    now = now or timezone.now()
    person = from_entry.person
    cashier.check_admission(target, person, cashier.QUALIFIED, now)  # REG-05 and duplicates, as at the desk
    number = (target.entries.aggregate(m=Max("number"))["m"] or 0) + 1
    previous = target.entries.filter(person=person).exclude(status=Entry.CANCELLED).count()
    entry = Entry.objects.create(
        tournament=target,
        person=person,
        number=number,
        person_entry_no=previous + 1,
        status=Entry.ACTIVE,
        chips=chips,
        created_at=now,
        is_late=target.status == Tournament.RUNNING,
    )
    QualifiedEntry.objects.create(
        entry=entry,
        source=source,
        from_tournament_id=from_entry.tournament_id,
        from_entry=from_entry,
        bag=bag,
        chips=chips,
        created_by=actor.user,
        created_at=now,
    )
    if chips:
        ChipAdjustment.objects.create(
            tournament=target,
            entry=entry,
            kind=ChipAdjustment.CORRECTION,
            chips=chips,
            reason=f"qualified ({source}) from {from_entry.tournament.name} #{from_entry.number}"[:200],
            created_by=actor.user,
        )
    if target.status == Tournament.RUNNING and target.format != Tournament.HEADS_UP:
        # a final already playing seats its late qualifier from the seat pool, as a late sale
        # (a heads-up stage seats its players by the bracket's matches)
        signals.announce(signals.entry_paid, target, actor, entry=entry)
    return entry


def write_places(places) -> None:
    """Store ``engine.Place`` rows whose ``player`` is an Entry (a shared place: same number)."""
    for p in places:
        entry = p.player
        if entry.place != p.place:
            entry.place = p.place
            entry.save(update_fields=["place"])


def place_eliminated(t: Tournament, first_place: int) -> list:
    """Busted entries ranked by bust time from ``first_place`` down (the later out, the
    better; ELM-01). Only entries without a place are written: a place a bust slip already
    set (seating, with its same-hand and hand-for-hand rules) stands."""
    busted = list(t.entries.filter(status=Entry.BUSTED).exclude(busted_at__isnull=True))
    places = [p for p in engine.places_below([(e, e.busted_at) for e in busted], first_place) if p.player.place is None]
    write_places(places)
    return places


def finish_clock_if_running(t: Tournament, actor) -> None:
    clock = get_clock(t)
    if clock is not None and clock.status not in (clock.NOT_STARTED, clock.FINISHED):
        clock_services.finish_clock(t, actor=actor, reason="format finished")
