"""Floor tools: chips in play, chip sets and colour-ups, chip races, chip counts, penalties.

Rules: RULES.md §6 (CR-*), §7 (PEN-*), CLK-09. The arithmetic is in the pure modules
``tournaments.chiprace`` and ``tournaments.penalties``; this module stores and logs.
"""

import dataclasses
import math
import secrets
from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.transactions import service

from .. import chiprace, penalties, selectors, signals
from ..actions import Action
from ..house import HouseRules
from ..models import ChipAdjustment, ChipCount, ChipRaceRecord, Entry, Penalty, StructureItem, Tournament
from ..selectors import chips_in_play
from ..signals import announce
from .events import Actor, log_event
from .ledger import lock_tournament

CHIPS_PER_RACK = 100  # five rows of twenty (TDA 25-A countable stacks)


class FloorError(DomainError):
    pass


# --- chips in play (CR-06) ----------------------------------------------------------------


@service
def remove_chips(tournament, *, chips: int, kind: str, reason: str, actor: Actor, entry=None) -> ChipAdjustment:
    """Take chips out of play (disqualification, forfeit, out of view) or put found chips back."""
    if kind not in dict(ChipAdjustment.KINDS):
        raise ValidationFailed("bad_kind", _("Unknown chip adjustment."))
    if not reason.strip():
        raise ValidationFailed("reason_required", _("Every chip removal needs a reason."))
    if chips == 0:
        raise ValidationFailed("bad_chips", _("Enter a number of chips."))
    t = lock_tournament(tournament)
    signed = chips if kind in (ChipAdjustment.LOST_FOUND, ChipAdjustment.RACE_ADDED, ChipAdjustment.CORRECTION) else -abs(chips)
    if chips_in_play(t) + signed < 0:
        raise FloorError("more_than_in_play", _("That is more chips than are in play."))
    adj = ChipAdjustment.objects.create(tournament=t, entry=entry, kind=kind, chips=signed, reason=reason.strip(), created_by=actor.user)
    log_event(t, Action.TOURNAMENTS_CHIPS_ADJUSTED, actor, kind=kind, chips=signed, reason=reason, entry=getattr(entry, "pk", None))
    return adj


@service
def record_chip_counts(tournament, counts: list[dict], *, occasion: str, actor: Actor) -> dict:
    """Store counted stacks; return the total against chips in play (the difference must be explained)."""
    t = lock_tournament(tournament)
    entries = {e.pk: e for e in Entry.objects.filter(tournament=t, pk__in=[c["entry"] for c in counts])}
    rows = []
    for c in counts:
        entry = entries.get(int(c["entry"]))
        if entry is None or entry.status != Entry.ACTIVE:
            raise FloorError("not_playing", _("Entry %(n)s is not in the tournament.") % {"n": c["entry"]})
        if int(c["chips"]) < 0:
            raise ValidationFailed("bad_chips", _("A stack cannot be negative."))
        rows.append(ChipCount(tournament=t, entry=entry, chips=int(c["chips"]), occasion=occasion, bag_number=c.get("bag_number", ""), counted_by=actor.user))
    ChipCount.objects.bulk_create(rows)
    summary = chip_count_summary(t)
    log_event(t, Action.TOURNAMENTS_CHIPS_COUNTED, actor, occasion=occasion, players=len(rows), **{k: summary[k] for k in ("counted_total", "chips_in_play", "difference")})
    return summary


def latest_counts(t: Tournament) -> dict[int, ChipCount]:
    out = {}
    for c in ChipCount.objects.filter(tournament=t, entry__status=Entry.ACTIVE).order_by("entry_id", "-counted_at", "-id"):
        out.setdefault(c.entry_id, c)
    return out


def chip_count_summary(t: Tournament) -> dict:
    counts = latest_counts(t)
    players = Entry.objects.filter(tournament=t, status=Entry.ACTIVE).count()
    total = sum(c.chips for c in counts.values())
    in_play = chips_in_play(t)
    return {"counted_players": len(counts), "players": players, "counted_total": total, "chips_in_play": in_play,
            "difference": total - in_play if len(counts) == players else None}


# --- chip sets and colour-ups ----------------------------------------------------------------


def stack_check(t: Tournament, field_size: int | None = None) -> dict:
    """Can the starting stack (and rebuy / add-on stacks) be made up from the chip set, and is
    there enough for the field? How many racks per table?"""
    if t.chip_set_id is None:
        return {"chip_set": None}
    owned = t.chip_set.as_mapping()
    field_size = field_size or t.field_cap or Entry.objects.filter(tournament=t).exclude(status=Entry.CANCELLED).count() or t.table_size
    out = {"chip_set": t.chip_set.name, "owned": owned, "stacks": {}}
    # Assume at most 40 chips of a denomination per stack: make-ups use what a player can handle.
    per_stack = {d: min(q, 40) for d, q in owned.items()}
    for label, stack in (("starting", t.starting_stack), ("rebuy", t.rebuy_chips), ("addon", t.addon_chips)):
        if not stack:
            continue
        breakdown = chiprace.make_up_stack(stack, per_stack)
        entry = {"stack": stack, "breakdown": breakdown, "possible": breakdown is not None}
        if breakdown:
            needed = chiprace.chips_needed(field_size, breakdown)
            entry["needed_for_field"] = needed
            entry["enough"] = all(owned.get(d, 0) >= n for d, n in needed.items())
            entry["short"] = {d: n - owned.get(d, 0) for d, n in needed.items() if owned.get(d, 0) < n}
            chips_per_stack = sum(breakdown.values())
            entry["racks_per_table"] = math.ceil(chips_per_stack * t.table_size / CHIPS_PER_RACK)
        out["stacks"][label] = entry
    return out


def color_up_suggestions(t: Tournament) -> list[dict]:
    """For each level, the chips no longer needed for its blinds and ante (CLK-09), and the
    first break at or after it where a colour-up could be scheduled."""
    if t.chip_set_id is None or t.structure_id is None:
        return []
    in_play = sorted(t.chip_set.as_mapping())
    out, seen = [], set()
    items = list(t.structure.items.order_by("position"))
    level_no = 0
    for i, it in enumerate(items):
        if it.kind == StructureItem.BREAK:
            in_play = [d for d in in_play if d not in (it.removes_denominations or [])]
            continue
        level_no += 1
        removable = [d for d in chiprace.color_up_suggestion(in_play, it.small_blind, it.ante, it.big_blind) if d not in seen]
        if removable:
            next_break = next((j for j in range(i + 1, len(items)) if items[j].kind == StructureItem.BREAK), None)
            out.append({"level": level_no, "denominations": removable, "break_position": next_break})
            seen.update(removable)
    return out


# --- chip race (CR-02..04) ----------------------------------------------------------------


@service
def run_chip_race(tournament, table_number: int, players: list[dict], *, removed_denomination: int, new_denomination: int,
                  actor: Actor, winners: list[int] | None = None, lowest_denomination_in_play: int | None = None,
                  last_hand_small_blind_seat: int | None = None) -> ChipRaceRecord:
    """Record one table's race. Normal mode: ``winners`` (seats) of the physical race are entered and
    checked; without them the race is drawn at random (logged). Roundings and discards change the
    chips in play (CR-02, CR-04)."""
    t = lock_tournament(tournament)
    rules = HouseRules.of(t)
    conversion, start, tie = rules.race_conversion, rules.race_start, rules.race_tie
    race_players = [chiprace.RacePlayer(seat=int(p["seat"]), odd_value=int(p["odd_value"]), stack_after_exchange=int(p["stack_after_exchange"])) for p in players]
    try:
        if winners is not None:
            result = chiprace.race_from_result(race_players, winners, removed_denomination=removed_denomination, new_denomination=new_denomination,
                                               conversion=conversion, lowest_denomination_in_play=lowest_denomination_in_play)
            mode = "MANUAL"
        else:
            result = chiprace.race(race_players, removed_denomination=removed_denomination, new_denomination=new_denomination, conversion=conversion,
                                   start=start, tie=tie, last_hand_small_blind_seat=last_hand_small_blind_seat, rng=secrets.SystemRandom(),
                                   lowest_denomination_in_play=lowest_denomination_in_play)
            mode = "RANDOM"
    except chiprace.ChipRaceError as exc:
        raise FloorError(exc.code, str(exc)) from None
    data = dataclasses.asdict(result)
    data = {k: ({str(s): v for s, v in val.items()} if isinstance(val, dict) else val) for k, val in data.items()}
    record = ChipRaceRecord.objects.create(
        tournament=t, table_number=table_number, removed_denomination=removed_denomination, new_denomination=new_denomination,
        mode=mode, race_settings={"conversion": conversion, "start": start, "tie": tie}, result=data, created_by=actor.user,
    )
    if result.added_value:
        ChipAdjustment.objects.create(tournament=t, kind=ChipAdjustment.RACE_ADDED, chips=result.added_value,
                                      reason=f"chip race table {table_number}", created_by=actor.user)
    if result.discarded_value:
        ChipAdjustment.objects.create(tournament=t, kind=ChipAdjustment.RACE_DISCARDED, chips=-result.discarded_value,
                                      reason=f"chip race table {table_number}", created_by=actor.user)
    log_event(t, Action.TOURNAMENTS_CHIPRACE_RECORDED, actor, table=table_number, mode=mode, race=record.pk, winners=result.winners,
              added=result.added_value, discarded=result.discarded_value, rescued=result.raced_out_rescued)
    return record


# --- penalties (PEN-01..07) -------------------------------------------------------------------


def _players_at_table(t, entry) -> tuple[int | None, int | None]:
    seat = selectors.seat_of(entry)
    if not seat:
        return None, None
    return seat["table"], signals.ask_one(signals.table_players_wanted, default=0, tournament=t, table=seat["table"])


@service
def issue_penalty(tournament, entry, *, kind: str, reason_code: str, actor: Actor, rounds=None, minutes=None, hands=None,
                  chips=None, note: str = "", players_at_table: int | None = None, now=None) -> Penalty:
    """Give a penalty. Missed rounds fix their hands at issue: players at the table (the offender
    included) × rounds (PEN-02); the count never changes when the player moves (PEN-04)."""
    now = now or timezone.now()
    t = lock_tournament(tournament)
    entry = Entry.objects.select_related("person").get(pk=entry.pk)
    if entry.tournament_id != t.pk or entry.status != Entry.ACTIVE:
        raise FloorError("not_playing", _("This player is not in the tournament."))
    if reason_code not in penalties.REASON_CODES:
        raise ValidationFailed("bad_reason", _("Unknown reason code."))
    preset = HouseRules.of(t).penalty_preset
    try:
        penalties.validate_penalty(kind, preset=preset, rounds=rounds, minutes=minutes, hands=hands, chips=chips)
    except penalties.PenaltyError as exc:
        raise FloorError(exc.code, str(exc), status=400) from None
    table, counted = _players_at_table(t, entry)
    if kind == penalties.MISSED_ROUNDS:
        counted = players_at_table or counted
        if not counted:
            raise ValidationFailed("players_at_table_required", _("How many players are at the table (the offender included)?"))
    hands_total = penalties.hands_to_miss(kind, players_at_table=counted, rounds=rounds, hands=hands) if kind in (penalties.MISSED_ROUNDS, penalties.MISSED_HANDS) else 0
    p = Penalty.objects.create(
        tournament=t, entry=entry, person=entry.person, kind=kind, reason_code=reason_code, note=note, preset=preset if isinstance(preset, str) else preset.name,
        rounds=rounds, players_at_table=counted if kind == penalties.MISSED_ROUNDS else None, hands_total=hands_total, minutes=minutes,
        ends_at=now + timedelta(minutes=minutes) if minutes else None, chips=chips, table_number=table, issued_by=actor.user, issued_at=now,
        prize_forfeited=kind == penalties.ELIMINATION_NO_PRIZE,
        status=Penalty.ACTIVE if kind in penalties.DEALT_IN_WHILE_SERVING else Penalty.SERVED,
    )
    if kind == penalties.CHIP_FORFEIT:
        ChipAdjustment.objects.create(tournament=t, entry=entry, kind=ChipAdjustment.FORFEIT, chips=-chips, reason=f"penalty {reason_code}", created_by=actor.user)
    if kind in penalties.REMOVES_ALL_CHIPS:
        # PEN-07: chips removed from play; the place is set by the removal time.
        stack = chips_of(t, entry)
        ChipAdjustment.objects.create(tournament=t, entry=entry, kind=ChipAdjustment.DISQUALIFICATION, chips=-stack, reason=f"{kind} {reason_code}", created_by=actor.user)
        announce(signals.entry_removed, t, actor, entry=entry, reason=kind)
    log_event(t, Action.TOURNAMENTS_PENALTY_ISSUED, actor, penalty=p.pk, entry=entry.pk, name=entry.person.full_name, kind=kind,
              reason_code=reason_code, rounds=rounds, hands=hands_total, minutes=minutes, chips=chips, table=table)
    return p


def chips_of(t, entry) -> int:
    """The player's stack as last counted, else the chips he bought (the best the system knows)."""
    count = ChipCount.objects.filter(tournament=t, entry=entry).order_by("-counted_at", "-id").first()
    return int(count.chips) if count else int(entry.chips)


@service
def serve_hands(penalty, *, actor: Actor, hands: int = 1) -> Penalty:
    """The floor marks hands served (a misdeal counts as one hand: TDA 35-C)."""
    p = Penalty.objects.select_for_update().get(pk=penalty.pk)
    if p.status != Penalty.ACTIVE or p.kind not in (penalties.MISSED_ROUNDS, penalties.MISSED_HANDS):
        raise FloorError("not_serving", _("This penalty is not counted in hands."))
    p.hands_served = min(p.hands_total, p.hands_served + max(1, hands))
    if p.hands_served >= p.hands_total:
        p.status = Penalty.SERVED
    p.save(update_fields=["hands_served", "status"])
    log_event(p.tournament, Action.TOURNAMENTS_PENALTY_HANDS_SERVED, actor, penalty=p.pk, served=p.hands_served, left=p.hands_left)
    return p


@service
def cancel_penalty(penalty, *, actor: Actor, reason: str) -> Penalty:
    if not reason.strip():
        raise ValidationFailed("reason_required", _("Say why the penalty is lifted."))
    p = Penalty.objects.select_for_update().get(pk=penalty.pk)
    if p.status != Penalty.ACTIVE:
        raise FloorError("not_active", _("This penalty is not active."))
    p.status = Penalty.CANCELLED
    p.save(update_fields=["status"])
    log_event(p.tournament, Action.TOURNAMENTS_PENALTY_CANCELLED, actor, penalty=p.pk, reason=reason)
    return p


def refresh_time_suspensions(t, now=None) -> None:
    """Time suspensions end by the clock (checked when penalties are listed)."""
    now = now or timezone.now()
    Penalty.objects.filter(tournament=t, kind=penalties.TIME_SUSPENSION, status=Penalty.ACTIVE, ends_at__lte=now).update(status=Penalty.SERVED)


def active_penalties(t, now=None):
    """The floor's list: time suspensions that ran out are marked served first."""
    refresh_time_suspensions(t, now)
    return selectors.active_penalties(t, now)
