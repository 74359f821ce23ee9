"""Timed events and qualifying tables (FMT-13, 004).

A timed event ends at a set time: the players still in are ranked by the chips counted
then (biggest first, ties per the event's setting), above every eliminated player. With
``TIME_LIMIT_CHIPCOUNT`` it also ends earlier when one player is left; with
``LAST_PLAYER`` it is an ordinary tournament (004 Art. 8.5). The hand in progress at the
time limit is finished first (TDA 23 by analogy): the director enters the counts after it.

Qualifying tables (each a tournament) send their winner to the final table of their group.
"""

from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager import shown_text
from tdmanager.errors import ValidationFailed
from tdmanager.transactions import service
from tournaments import draws
from tournaments.cashier.ledger import lock_tournament
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.floor.selectors import chips_in_play
from tournaments.models import ChipCount, Entry, Tournament, checks
from tournaments.setup import lifecycle

from .. import engine
from ..models import QualifiedEntry, Qualifier, QualifierGroup, TimedEvent
from .common import FormatError, finish_clock_if_running, open_event, place_eliminated, qualify, write_places

TIME_LIMIT_COUNT = "TIME_LIMIT"


@service
def create_timed_event(
    *,
    name: str,
    start_at,
    buy_in,
    fee,
    starting_stack: int,
    structure,
    actor: Actor,
    minutes: int,
    field_cap: int | None = None,
    end_condition: str = TimedEvent.TIME_LIMIT,
    chip_tie: str = engine.SHARE,
) -> Tournament:
    """A timed event open for registration, play ending ``minutes`` after ``start_at``: its
    tournament and its time limit, together or not at all. The page and the API call it."""
    if structure is None:
        raise FormatError("no_structure", _("Choose a blind structure."), status=400)
    if minutes is None or minutes < 1:
        raise ValidationFailed("bad_minutes", _("Play lasts at least one minute."), fields={"minutes": [_("Play lasts at least one minute.")]})
    start_at = start_at or timezone.now()
    t = open_event(
        name=name,
        start_at=start_at,
        event_format=Tournament.TIMED,
        buy_in=buy_in,
        fee=fee,
        starting_stack=starting_stack,
        structure=structure,
        actor=actor,
        fee_reason="the timed event's fee as created",
        field_cap=field_cap,
    )
    configure_timed(t, ends_at=start_at + timedelta(minutes=minutes), actor=actor, end_condition=end_condition, chip_tie=chip_tie)
    return t


@service
def configure_timed(tournament, *, ends_at, actor: Actor, end_condition: str = TimedEvent.TIME_LIMIT, chip_tie: str = engine.SHARE) -> TimedEvent:
    """Set when play ends and how (FMT-13, C17 ``end_condition``; ties on chips: ``chip_tie``)."""
    t = lock_tournament(tournament)
    if end_condition not in (TimedEvent.TIME_LIMIT, TimedEvent.LAST_PLAYER) or chip_tie not in engine.TIE_RULES:
        raise ValidationFailed("bad_setting", _("Unknown end condition or tie rule."))
    if t.status in (Tournament.FINISHED, Tournament.CANCELLED):
        raise FormatError("tournament_closed", _("This tournament has ended."))
    timed, _created = TimedEvent.objects.update_or_create(tournament=t, defaults={"ends_at": ends_at, "end_condition": end_condition, "chip_tie": chip_tie})
    if t.format != Tournament.TIMED:
        t.format = Tournament.TIMED
        t.save(update_fields=["format"])
    log_event(t, Action.FORMATS_TIMED_CONFIGURED, actor, ends_at=ends_at.isoformat(), end_condition=end_condition, chip_tie=chip_tie)
    return timed


@service
def finish_timed(tournament, *, actor: Actor, counts: list[dict] | None = None, now=None) -> dict:
    """End the event and rank it (FMT-13 System). ``counts``: ``[{"entry": id, "chips": n}]``
    for every player still in, counted when the last hand before the time limit is over.
    Eliminated players keep the places their busts gave (or get them from the bust order).
    A qualifying table then sends its winner to the final."""
    now = now or timezone.now()
    t = lock_tournament(tournament)
    try:
        timed = TimedEvent.objects.select_for_update().get(tournament=t)
    except TimedEvent.DoesNotExist:
        raise FormatError("not_timed", _("This tournament has no time limit set.")) from None
    if timed.finished_at:
        raise FormatError("already_finished", _("This event is already over."))
    if t.status != Tournament.RUNNING:
        raise FormatError("bad_status", _("Only a running event can be finished."))
    alive = list(t.entries.filter(status=Entry.ACTIVE).select_related("person"))
    if not alive:
        raise FormatError("nobody_left", _("Nobody is left in the event."))
    one_left = len(alive) == 1
    if timed.end_condition == TimedEvent.LAST_PLAYER and not one_left:
        raise FormatError("players_left", _("This event ends when one player is left: %(n)s are still in.") % {"n": len(alive)})
    if not one_left and now < timed.ends_at:
        raise FormatError("time_not_up", _("Play goes on until %(t)s.") % {"t": timezone.localtime(timed.ends_at).strftime("%H:%M")})
    stacks = {}
    if one_left:
        stacks = {alive[0].pk: None}
    else:
        by_id = {e.pk: e for e in alive}
        for c in counts or []:
            pk = checks.whole(c.get("entry"), lo=1) if isinstance(c, dict) else None
            if pk not in by_id:
                raise FormatError("not_playing", _("Entry %(n)s is not in the event.") % {"n": pk})
            if pk in stacks:
                raise ValidationFailed("duplicate_count", _("Entry %(n)s is counted twice.") % {"n": by_id[pk].number})
            chips = checks.whole(c.get("chips"), lo=-checks.MAX_CHIPS, hi=checks.MAX_CHIPS)
            if chips is None or chips <= 0:
                raise ValidationFailed("bad_chips", _("A player still in has chips: enter the stack."))
            stacks[pk] = chips
        missing = [e.number for e in alive if e.pk not in stacks]
        if missing:
            raise ValidationFailed("counts_missing", _("Count every player still in: entries %(n)s are missing.") % {"n": ", ".join(map(str, missing))})
        ChipCount.objects.bulk_create(
            ChipCount(tournament=t, entry=by_id[pk], chips=chips, occasion=TIME_LIMIT_COUNT, counted_by=actor.user, counted_at=now)
            for pk, chips in stacks.items()
        )
    entries = {e.pk: e for e in alive}
    drawn = {}  # the draw of equal stacks (chip_tie DRAW), logged so that replay_draw repeats it
    if one_left:
        ranked = [engine.Place(alive[0], 1, 1)]
    else:
        seed = draws.draw_seed()
        drawn = {"seed": str(seed), "tie": timed.chip_tie, "counts": [[entries[pk].number, chips] for pk, chips in stacks.items()]}
        ranked = engine.rank_by_chips([(entries[pk], chips) for pk, chips in stacks.items()], tie=timed.chip_tie, rng=draws.rng_of(seed))
    write_places(ranked)
    below = place_eliminated(t, len(alive) + 1)
    counted = sum(v for v in stacks.values() if v)
    in_play = chips_in_play(t)
    timed.finished_at = now
    timed.result = {
        "by": "LAST_PLAYER" if one_left else "CHIP_COUNT",
        "standings": [
            {"entry": p.player.number, "name": p.player.person.full_name, "place": p.place, "shared_with": p.shared_with, "chips": stacks.get(p.player.pk)}
            for p in ranked
        ],
        "counted": counted,
        "chips_in_play": in_play,
        "difference": counted - in_play if not one_left else None,
    }
    timed.save(update_fields=["finished_at", "result"])
    finish_clock_if_running(t, actor)
    lifecycle.finish(t, actor=actor)
    sent = _send_winner(t, actor, now) if hasattr(t, "qualifier") else None
    log_event(
        t,
        Action.FORMATS_TIMED_FINISHED,
        actor,
        by=timed.result["by"],
        standings=timed.result["standings"],
        eliminated_placed=len(below),
        difference=timed.result["difference"],
        winner_to_final=sent.pk if sent else None,
        **drawn,
    )
    return timed.result


def replay_finish(payload: dict) -> tuple[dict, dict]:
    """A timed event's places by chips ranked again from its logged counts and seed (ties drawn)."""
    ranked = engine.rank_by_chips([(n, c) for n, c in payload["counts"]], tie=payload["tie"], rng=draws.rng_of(payload["seed"]))
    logged = sorted([s["entry"], s["place"]] for s in payload.get("standings", []))
    return {"places": logged}, {"places": sorted([p.player, p.place] for p in ranked)}


# --- qualifying tables → final table ---------------------------------------------------------------


@service
def create_qualifier_group(*, name: str, final, qualifiers: list, actor: Actor) -> QualifierGroup:
    """Link qualifying tournaments (any number, on any dates) to their final table."""
    shown_text.check(name, "name", _("Name"))
    final = lock_tournament(final)
    if not qualifiers:
        raise ValidationFailed("no_qualifiers", _("Add at least one qualifying table."))
    if any(getattr(q, "pk", q) == final.pk for q in qualifiers):
        raise ValidationFailed("final_is_qualifier", _("The final cannot qualify for itself."))
    group = QualifierGroup.objects.create(name=name, final=final)
    for i, q in enumerate(qualifiers):
        qt = Tournament.objects.get(pk=getattr(q, "pk", q))
        if Qualifier.objects.filter(tournament=qt).exists():
            raise FormatError("already_qualifier", _("%(t)s already qualifies for a final.") % {"t": qt.name})
        Qualifier.objects.create(group=group, tournament=qt, position=i)
    log_event(final, Action.FORMATS_QUALIFIERS_CREATED, actor, group=group.pk, qualifiers=[getattr(q, "pk", q) for q in qualifiers])
    return group


def _send_winner(t: Tournament, actor: Actor, now):
    q = Qualifier.objects.select_for_update().select_related("group").get(tournament=t)
    if q.final_entry_id:
        raise FormatError("winner_sent", _("This table's winner already has a seat at the final."))
    winners = list(t.entries.filter(place=1).exclude(status=Entry.CANCELLED).select_related("person", "tournament"))
    if len(winners) != 1:
        raise FormatError("winner_not_decided", _("This table has no single winner yet."))
    final = lock_tournament(q.group.final_id)
    if final.status in (Tournament.FINISHED, Tournament.CANCELLED):
        raise FormatError("final_over", _("The final table has already been played."))
    entry = qualify(final, winners[0], chips=final.starting_stack, source=QualifiedEntry.QUALIFIER, actor=actor, now=now)
    q.final_entry, q.qualified_at = entry, now
    q.save(update_fields=["final_entry", "qualified_at"])
    return entry


@service
def send_winner_to_final(tournament, *, actor: Actor, now=None) -> Entry:
    """«Passa al tavolo finale il vincitore dei tavoli eliminatori»: the finished qualifying
    table's winner gets an entry at the final (no money, the final's starting stack)."""
    now = now or timezone.now()
    t = lock_tournament(tournament)
    if not hasattr(t, "qualifier"):
        raise FormatError("not_a_qualifier", _("This tournament is not a qualifying table."))
    if t.status != Tournament.FINISHED:
        raise FormatError("not_finished", _("Finish the qualifying table first."))
    entry = _send_winner(t, actor, now)
    log_event(t, Action.FORMATS_QUALIFIER_WINNER_SENT, actor, entry=entry.pk, final=entry.tournament_id, name=entry.person.full_name)
    return entry
