"""Floor tools: chips in play, chip sets and colour-ups, chip races, chip counts, penalties.

Rules: RULES.md §6 (CR-*), §7 (PEN-*), CLK-09. The arithmetic is in the pure modules
``tournaments.chiprace`` and ``tournaments.penalties``; this module stores and logs.
"""

import dataclasses
import math
from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.transactions import service
from tournaments import draws, signals
from tournaments.cashier.ledger import lock_tournament
from tournaments.clock import selectors as clock_selectors
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.floor import chiprace, penalties
from tournaments.floor import selectors as floor_selectors
from tournaments.floor.selectors import chips_in_play
from tournaments.house import HouseRules
from tournaments.models import ChipAdjustment, ChipCount, ChipRaceRecord, Clock, Entry, Penalty, StructureItem, Tournament
from tournaments.setup import selectors as setup_selectors
from tournaments.signals import announce

CHIPS_PER_RACK = 100  # five rows of twenty (TDA 25-A countable stacks)

# The chip race engine's refusals (``chiprace.ChipRaceError`` codes) in the reader's language.
CHIP_RACE_REFUSALS = {
    "bad_denomination": gettext_lazy("The chips of the race are not right: the new chip must be worth more than the one removed."),
    "bad_player": gettext_lazy("A player's chips cannot be raced as entered: check each stack and the odd chips."),
    "bad_setting": gettext_lazy("The race's setting is not one TDManager knows."),
    "bad_cards": gettext_lazy("A card of the race is not a playing card."),
    "bad_chip_set": gettext_lazy("The chip set cannot make this race."),
    "duplicate_winner": gettext_lazy("A seat is ticked twice as a winner of the race."),
    "wrong_winner_count": gettext_lazy("Tick as many winners as chips were raced."),
    "not_a_participant": gettext_lazy("A winner of the race is not a player of this table."),
}
SEAT_RACE_REFUSAL = gettext_lazy(
    "Seat %(seat)s: its chips cannot be raced as entered (a stack above zero; odd chips of the removed colour worth less than a new chip)."
)


def chip_race_refusal(exc: chiprace.ChipRaceError) -> str:
    if exc.code == "bad_player" and "seat" in exc.params:
        return str(SEAT_RACE_REFUSAL) % {"seat": exc.params["seat"]}
    return str(CHIP_RACE_REFUSALS.get(exc.code, exc.message))


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
    log_event(
        t,
        Action.TOURNAMENTS_CHIPS_COUNTED,
        actor,
        occasion=occasion,
        players=len(rows),
        **{k: summary[k] for k in ("counted_total", "chips_in_play", "difference")},
    )
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
    return {
        "counted_players": len(counts),
        "players": players,
        "counted_total": total,
        "chips_in_play": in_play,
        "difference": total - in_play if len(counts) == players else None,
    }


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


def race_denomination(t: Tournament, now=None) -> int | None:
    """The chip the coming chip race takes out, to pre-fill the floor's form: the smallest chip
    the current break, or else the next one, removes in the structure (CLK-09); failing that, the
    smallest the blinds no longer need at a break still to come (``color_up_suggestions``)."""
    if t.structure_id is None:
        return None
    here = clock_selectors.item_index_now(t, now)
    for it in list(t.structure.items.order_by("position"))[here:]:
        if it.kind == StructureItem.BREAK and it.removes_denominations:
            return min(it.removes_denominations)
    for suggestion in color_up_suggestions(t):
        if suggestion["break_position"] is not None and suggestion["break_position"] >= here and suggestion["denominations"]:
            return min(suggestion["denominations"])
    return None


@service
def discretionary_color_up(
    tournament, *, from_denomination: int, to_denomination: int, actor: Actor, table: int | None = None, entry=None, note: str = ""
) -> dict:
    """CR-05 / CLK-09 (TDA 25-B): the director colours up one player or a whole table at any time,
    with an announcement. The player's lower chips are exchanged for higher ones of the same
    value, so the chips in play do not change; the colour-up is logged with what is announced.
    Returns ``{"announcement", "chips_in_play", "event"}``."""
    t = lock_tournament(tournament)
    if (table is None) == (entry is None):
        raise ValidationFailed("table_or_player", _("Colour up one player or one table."))
    low, high = from_denomination, to_denomination
    if not all(isinstance(v, int) and not isinstance(v, bool) and 0 < v <= 10**9 for v in (low, high)) or high <= low:
        raise ValidationFailed("bad_denominations", _("The new chip must be worth more than the chips it replaces."))
    if t.chip_set_id is not None:
        owned = t.chip_set.as_mapping()
        if low not in owned or high not in owned:
            raise ValidationFailed("not_in_chip_set", _("Both chips must be in the tournament's chip set."))
    where = {}
    if entry is not None:
        entry = Entry.objects.select_related("person").get(pk=getattr(entry, "pk", entry))
        if entry.tournament_id != t.pk or entry.status != Entry.ACTIVE:
            raise FloorError("not_playing", _("This player is not in the tournament."))
        seat = setup_selectors.seat_of(entry) or {}
        where = {"entry": entry.pk, "name": entry.person.display_name, "table": seat.get("table"), "seat": seat.get("seat")}
        text = _("Colour-up for %(name)s: T%(low)s chips are exchanged for T%(high)s chips of the same value.") % {
            "name": entry.person.display_name,
            "low": low,
            "high": high,
        }
    else:
        if int(table) not in signals.ask_one(signals.tables_wanted, default=[], tournament=t):
            raise FloorError("unknown_table", _("Table %(n)s is not in play.") % {"n": table}, status=400)
        where = {"table": int(table)}
        text = _("Colour-up at table %(n)s: T%(low)s chips are exchanged for T%(high)s chips of the same value.") % {"n": table, "low": low, "high": high}
    note = str(note or "").strip()[:200]
    in_play = chips_in_play(t)
    event = log_event(
        t,
        Action.TOURNAMENTS_COLORUP_DISCRETIONARY,
        actor,
        from_denomination=low,
        to_denomination=high,
        note=note,
        announcement=text,
        chips_in_play=in_play,
        **where,
    )
    return {"announcement": text, "chips_in_play": in_play, "event": getattr(event, "pk", None), **where}


# --- chip race (CR-02..04) ----------------------------------------------------------------


@service
def run_chip_race(
    tournament,
    table_number: int,
    players: list[dict],
    *,
    removed_denomination: int,
    new_denomination: int,
    actor: Actor,
    winners: list[int] | None = None,
    lowest_denomination_in_play: int | None = None,
    last_hand_small_blind_seat: int | None = None,
) -> ChipRaceRecord:
    """Record one table's race. Normal mode: ``winners`` (seats) of the physical race are entered and
    checked; without them the race is drawn at random (logged). Roundings and discards change the
    chips in play (CR-02, CR-04)."""
    t = lock_tournament(tournament)
    if ChipRaceRecord.objects.filter(tournament=t, table_number=table_number, removed_denomination=removed_denomination).exists():
        # a chip leaves play once: a second race of it at the same table would take the odd chips
        # out of play (or add its roundings) twice (the tournament's lock makes this check hold)
        raise FloorError(
            "race_already_recorded",
            _("The chip race of the T%(chip)s chips at table %(n)s is already recorded.") % {"chip": removed_denomination, "n": table_number},
        )
    rules = HouseRules.of(t)
    conversion, start, tie = rules.race_conversion, rules.race_start, rules.race_tie
    race_players = [
        chiprace.RacePlayer(seat=int(p["seat"]), odd_value=int(p["odd_value"]), stack_after_exchange=int(p["stack_after_exchange"])) for p in players
    ]
    race_args = {
        "removed_denomination": removed_denomination,
        "new_denomination": new_denomination,
        "last_hand_small_blind_seat": last_hand_small_blind_seat,
        "lowest_denomination_in_play": lowest_denomination_in_play,
    }
    seed = None
    try:
        if winners is not None:
            result = chiprace.race_from_result(
                race_players,
                winners,
                removed_denomination=removed_denomination,
                new_denomination=new_denomination,
                conversion=conversion,
                lowest_denomination_in_play=lowest_denomination_in_play,
            )
            mode = "MANUAL"
        else:
            seed = draws.draw_seed()  # logged with the race's inputs: replay_draw deals it again
            result = chiprace.race(race_players, **race_inputs(rules, race_args), rng=draws.rng_of(seed))
            mode = "RANDOM"
    except chiprace.ChipRaceError as exc:
        raise FloorError(exc.code, chip_race_refusal(exc)) from None
    data = dataclasses.asdict(result)
    data = {k: ({str(s): v for s, v in val.items()} if isinstance(val, dict) else val) for k, val in data.items()}
    record = ChipRaceRecord.objects.create(
        tournament=t,
        table_number=table_number,
        removed_denomination=removed_denomination,
        new_denomination=new_denomination,
        mode=mode,
        race_settings={"conversion": conversion, "start": start, "tie": tie},
        result=data,
        created_by=actor.user,
    )
    if result.added_value:
        ChipAdjustment.objects.create(
            tournament=t, kind=ChipAdjustment.RACE_ADDED, chips=result.added_value, reason=f"chip race table {table_number}", created_by=actor.user
        )
    if result.discarded_value:
        ChipAdjustment.objects.create(
            tournament=t, kind=ChipAdjustment.RACE_DISCARDED, chips=-result.discarded_value, reason=f"chip race table {table_number}", created_by=actor.user
        )
    log_event(
        t,
        Action.TOURNAMENTS_CHIPRACE_RECORDED,
        actor,
        table=table_number,
        mode=mode,
        race=record.pk,
        winners=result.winners,
        added=result.added_value,
        discarded=result.discarded_value,
        rescued=result.raced_out_rescued,
        # A random race: its deals, and what replays them (replay_chip_race).
        **(
            {
                "rng": draws.RNG_NAME,
                "seed": str(seed),
                "rounds": result.rounds,
                "players": [dataclasses.asdict(p) for p in race_players],
                **race_inputs(rules, race_args),
            }
            if seed is not None
            else {}
        ),
    )
    return record


def race_inputs(rules, args: dict) -> dict:
    """The random race's settings and inputs, as ``chiprace.race`` takes them and the log keeps them."""
    return {**args, "conversion": rules.race_conversion, "start": rules.race_start, "tie": rules.race_tie}


def chip_race_replay(sender, tournament, action=None, **kwargs):
    """``signals.draw_replay_wanted``: a chip race replays here (one recorded by hand has no seed)."""
    return replay_chip_race if action == Action.TOURNAMENTS_CHIPRACE_RECORDED else None


def replay_chip_race(payload: dict) -> tuple[dict, dict]:
    """A random chip race dealt again from its logged seed and inputs (SEAT-01's «every draw
    logged with its seed», CR-03): the winners and every round's cards."""
    players = [chiprace.RacePlayer(**p) for p in payload["players"]]
    keys = ("removed_denomination", "new_denomination", "last_hand_small_blind_seat", "lowest_denomination_in_play", "conversion", "start", "tie")
    result = chiprace.race(players, rng=draws.rng_of(payload["seed"]), **{k: payload[k] for k in keys})
    return {"winners": payload.get("winners"), "rounds": payload.get("rounds")}, {"winners": result.winners, "rounds": result.rounds}


# --- penalties (PEN-01..07) -------------------------------------------------------------------


def _players_at_table(t, entry) -> tuple[int | None, int | None]:
    seat = setup_selectors.seat_of(entry)
    if not seat:
        return None, None
    return seat["table"], signals.ask_one(signals.table_players_wanted, default=0, tournament=t, table=seat["table"])


def penalty_limits(rules: HouseRules) -> penalties.PenaltyPreset:
    """The event's penalty limits: its preset, with the house's ``max_rounds`` (0: none) and
    ``count_players_at`` (PEN-02, C25, C26)."""
    return dataclasses.replace(penalties.get_preset(rules.penalty_preset), max_rounds=rules.max_rounds or None, count_players_at=rules.count_players_at)


def clock_running(t) -> bool:
    """Play is on: the tournament clock runs (a level, a break or hand-for-hand), not paused or stopped."""
    return Clock.objects.filter(tournament=t, status__in=(Clock.RUNNING, Clock.HAND_FOR_HAND)).exists()


@service
def issue_penalty(
    tournament,
    entry,
    *,
    kind: str,
    reason_code: str,
    actor: Actor,
    rounds=None,
    minutes=None,
    hands=None,
    chips=None,
    note: str = "",
    players_at_table: int | None = None,
    between_hands: bool = False,
    heads_up_reading: str | None = None,
    now=None,
) -> Penalty:
    """Give a penalty. Missed rounds fix their hands once: players at the table (the offender
    included) × rounds (PEN-02), counted when the penalty is given or, with the house rule
    ``count_players_at = NEXT_HAND``, at the start of the hand it begins with; the count never
    changes when the player moves (PEN-04).

    PEN-03: a penalty in hands begins with the next hand. Given while a hand is in play (the
    default), the table's next "hand completed" starts it; ``between_hands``: the next hand
    dealt is already the first one missed. Each later "hand completed" of the table where the
    player sits serves one hand (``hands_completed``). A time suspension runs on the
    tournament clock (PEN-05): it stops while the clock is paused.

    PEN-06 / C28: under the heads-up preset (001) a missed-rounds penalty reads two ways — rounds
    of two hands (TDA arithmetic: 3 rounds = 6 hands) or «pagamento di 3 bui» (3 rounds = 3
    hands); the director chooses (``heads_up_reading``). Without a choice it is refused
    (``heads_up_reading_required``) with both readings in hands, so none is applied silently."""
    now = now or timezone.now()
    t = lock_tournament(tournament)
    entry = Entry.objects.select_related("person").get(pk=entry.pk)
    if entry.tournament_id != t.pk or entry.status != Entry.ACTIVE:
        raise FloorError("not_playing", _("This player is not in the tournament."))
    rules = HouseRules.of(t)
    if reason_code not in penalties.reason_codes(rules.penalty_reasons):  # PEN-08: the tournament's list
        message = _("%(code)s is not one of this tournament's reason codes (PEN-08).") % {"code": str(reason_code)[:40]}
        raise ValidationFailed("bad_reason", message, field="reason_code", fields={"reason_code": [message]})
    limits = penalty_limits(rules)
    try:
        penalties.validate_penalty(kind, preset=limits, rounds=rounds, minutes=minutes, hands=hands, chips=chips)
    except penalties.PenaltyError as exc:
        raise FloorError(exc.code, str(PENALTY_MESSAGES.get(exc.code, exc)), status=400) from None
    table, counted = _players_at_table(t, entry)
    in_hands = kind in (penalties.MISSED_ROUNDS, penalties.MISSED_HANDS)
    started = bool(between_hands) or not in_hands
    hands_total = 0
    if kind == penalties.MISSED_ROUNDS and limits.name == "HEADS_UP_001":
        readings = penalties.heads_up_penalty_readings(rounds)
        if heads_up_reading not in readings:
            raise ValidationFailed(
                "heads_up_reading_required",
                _("Heads-up: choose how %(rounds)s rounds count — %(two)s hands (rounds of two hands) or %(blinds)s hands (one blind paid per round).")
                % {"rounds": rounds, "two": readings[penalties.ROUNDS_OF_TWO_HANDS], "blinds": readings[penalties.BLINDS_PAID]},
                readings=readings,
            )
        hands_total = readings[heads_up_reading]
        counted = 2 if heads_up_reading == penalties.ROUNDS_OF_TWO_HANDS else None
    elif kind == penalties.MISSED_ROUNDS:
        count_later = limits.count_players_at == penalties.COUNT_AT_NEXT_HAND and not started and not players_at_table and table
        counted = None if count_later else (players_at_table or counted)
        if not count_later and not counted:
            raise ValidationFailed("players_at_table_required", _("How many players are at the table (the offender included)?"))
        if counted:
            hands_total = penalties.hands_to_miss(kind, players_at_table=counted, rounds=rounds)
    elif kind == penalties.MISSED_HANDS:
        hands_total = penalties.hands_to_miss(kind, hands=hands)
    running = clock_running(t)
    p = Penalty.objects.create(
        tournament=t,
        entry=entry,
        person=entry.person,
        kind=kind,
        reason_code=reason_code,
        note=note,
        preset=limits.name,
        rounds=rounds,
        players_at_table=counted if kind == penalties.MISSED_ROUNDS else None,
        hands_total=hands_total,
        minutes=minutes,
        started=started,
        ends_at=now + timedelta(minutes=minutes) if minutes and running else None,
        seconds_left=minutes * 60.0 if minutes and not running else None,
        chips=chips,
        table_number=table,
        issued_by=actor.user,
        issued_at=now,
        prize_forfeited=kind == penalties.ELIMINATION_NO_PRIZE,
        status=Penalty.ACTIVE if kind in penalties.DEALT_IN_WHILE_SERVING else Penalty.SERVED,
    )
    if kind == penalties.CHIP_FORFEIT:
        ChipAdjustment.objects.create(
            tournament=t, entry=entry, kind=ChipAdjustment.FORFEIT, chips=-chips, reason=f"penalty {reason_code}", created_by=actor.user
        )
    if kind in penalties.REMOVES_ALL_CHIPS:
        # PEN-07: chips removed from play; the place is set by the removal time.
        stack = chips_of(t, entry)
        ChipAdjustment.objects.create(
            tournament=t, entry=entry, kind=ChipAdjustment.DISQUALIFICATION, chips=-stack, reason=f"{kind} {reason_code}", created_by=actor.user
        )
        announce(signals.entry_removed, t, actor, entry=entry, reason=kind)
    log_event(
        t,
        Action.TOURNAMENTS_PENALTY_ISSUED,
        actor,
        penalty=p.pk,
        entry=entry.pk,
        name=entry.person.full_name,
        kind=kind,
        reason_code=reason_code,
        rounds=rounds,
        hands=hands_total,
        minutes=minutes,
        chips=chips,
        table=table,
        preset=limits.name,
        max_rounds=limits.max_rounds,
        count_players_at=limits.count_players_at,
        started=started,
        heads_up_reading=heads_up_reading if kind == penalties.MISSED_ROUNDS else None,
        clock_running=running if minutes else None,
    )
    return p


# The pure module's refusals, in the user's language.
PENALTY_MESSAGES = {
    "too_many_rounds": gettext_lazy("This event allows fewer penalty rounds (house rule max_rounds)."),
    "too_few_rounds": gettext_lazy("This event's rules give more penalty rounds (heads-up: at least 3)."),
    "suspension_out_of_range": gettext_lazy("A time suspension lasts 5 to 30 minutes under these rules."),
}


def chips_of(t, entry) -> int:
    """The player's stack as last counted, else the chips he bought (the best the system knows)."""
    count = ChipCount.objects.filter(tournament=t, entry=entry).order_by("-counted_at", "-id").first()
    return int(count.chips) if count else int(entry.chips)


@service
def hands_completed(tournament, table_number: int, entries, *, actor: Actor) -> list[Penalty]:
    """A table completed a hand (seating's "hand completed"; ``entries``: who sits there now).

    PEN-03: a penalty in hands waiting for the hand in play starts now (with
    ``count_players_at = NEXT_HAND`` its hands are fixed here: the players at the table for the
    hand it begins with); a started one serves one hand and ends by itself when none is left.
    A misdeal is not reported here: the re-deal is the same hand (TDA 35-C). The penalty
    belongs to the entry, so it is counted at whatever table the player now sits (PEN-04)."""
    entries = [int(e) for e in entries]
    rows = list(
        Penalty.objects.select_for_update()
        .filter(tournament=tournament, entry_id__in=entries, status=Penalty.ACTIVE, kind__in=(penalties.MISSED_ROUNDS, penalties.MISSED_HANDS))
        .order_by("id")
    )
    for p in rows:
        if not p.started:
            p.started = True
            if p.kind == penalties.MISSED_ROUNDS and not p.hands_total:
                p.players_at_table = len(entries)
                p.hands_total = penalties.missed_round_hands(len(entries), p.rounds)
            p.save(update_fields=["started", "players_at_table", "hands_total"])
            log_event(
                tournament,
                Action.TOURNAMENTS_PENALTY_STARTED,
                actor,
                penalty=p.pk,
                entry=p.entry_id,
                table=table_number,
                hands=p.hands_total,
                players_at_table=p.players_at_table,
            )
            continue
        p.hands_served = min(p.hands_total, p.hands_served + 1)
        if p.hands_served >= p.hands_total:
            p.status = Penalty.SERVED
        p.save(update_fields=["hands_served", "status"])
        log_event(
            tournament,
            Action.TOURNAMENTS_PENALTY_SERVED if p.status == Penalty.SERVED else Action.TOURNAMENTS_PENALTY_HANDS_SERVED,
            actor,
            penalty=p.pk,
            entry=p.entry_id,
            table=table_number,
            served=p.hands_served,
            left=p.hands_left,
        )
    return rows


@service
def serve_hands(penalty, *, actor: Actor, hands: int = 1) -> Penalty:
    """A correction by the floor: hands served that the table's "hand completed" did not count
    (the table normally counts them itself, ``hands_completed``)."""
    p = Penalty.objects.select_for_update().get(pk=penalty.pk)
    if p.status != Penalty.ACTIVE or p.kind not in (penalties.MISSED_ROUNDS, penalties.MISSED_HANDS):
        raise FloorError("not_serving", _("This penalty is not counted in hands."))
    if not p.hands_total:
        raise FloorError("not_started", _("This penalty starts when the table completes the hand in play."))
    p.started = True
    p.hands_served = min(p.hands_total, p.hands_served + max(1, hands))
    if p.hands_served >= p.hands_total:
        p.status = Penalty.SERVED
    p.save(update_fields=["hands_served", "status", "started"])
    log_event(p.tournament, Action.TOURNAMENTS_PENALTY_HANDS_SERVED, actor, penalty=p.pk, served=p.hands_served, left=p.hands_left)
    return p


def sync_time_suspensions(t, *, running: bool, now=None) -> None:
    """PEN-05: time suspensions run on the tournament clock. When the clock stops, each keeps
    its seconds left; when it runs again, each ends that many seconds later. The clock
    services call this after every change of the clock (inside their transaction)."""
    now = now or timezone.now()
    active = Penalty.objects.select_for_update().filter(tournament=t, kind=penalties.TIME_SUSPENSION, status=Penalty.ACTIVE)
    if running:
        for p in active.filter(ends_at__isnull=True, seconds_left__isnull=False):
            p.ends_at, p.seconds_left = now + timedelta(seconds=p.seconds_left), None
            p.save(update_fields=["ends_at", "seconds_left"])
        return
    for p in active.filter(ends_at__isnull=False):
        left = (p.ends_at - now).total_seconds()
        p.ends_at, p.seconds_left = None, max(0.0, left)
        if left <= 0:
            p.status = Penalty.SERVED
        p.save(update_fields=["ends_at", "seconds_left", "status"])


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
    return floor_selectors.active_penalties(t, now)
