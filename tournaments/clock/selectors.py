"""The stored clock row, seen through the pure clock arithmetic (``tournaments.clock``).

Desk rules ask questions in clock time, not wall time (REG-04): "has level 3 ended?",
"are we in the break after level 4?". Before the clock starts, no level has ended.
"""

from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from tournaments import signals
from tournaments.clock import rules as engine
from tournaments.eventlog.actions import Action
from tournaments.house import HouseRules
from tournaments.models import Clock, Entry, StructureItem, TournamentEvent


def engine_item(
    kind,
    *,
    small_blind=0,
    big_blind=0,
    ante=0,
    big_blind_ante=False,
    minutes,
    game="",
    color_up="",
    add_on=False,
    resume_seconds_left=None,
    removes_denominations=(),
):
    """One structure row (a stored item or a cleaned import row) as an engine level or break: a
    level's blinds, length and game (CLK-01) and its ante type (CLK-02); a break's colour-up and
    add-on (CLK-04) and the chips it takes out of play (CLK-09)."""
    if kind == StructureItem.BREAK:
        return engine.Break(
            minutes=minutes, color_up=color_up, add_on=add_on, resume_seconds_left=resume_seconds_left, removes_denominations=tuple(removes_denominations or ())
        )
    return engine.Level(
        small_blind=small_blind,
        big_blind=big_blind,
        ante=ante,
        ante_type="BB_ANTE" if big_blind_ante else ("TABLE_ANTE" if ante else "NONE"),
        minutes=minutes,
        game=game,
    )


def item_names(items) -> list[str]:
    """What players call each structure row, breaks not counted: "Level 9", "Break after level 4"
    (a break before the first level: "Break before level 1"). ``items`` are stored rows or engine items.
    The clock page and the structures page name the rows so (CLK-01)."""
    names, level = [], 0
    for it in items:
        if getattr(it, "kind", None) == StructureItem.BREAK or isinstance(it, engine.Break):
            names.append(gettext("Break after level %(n)s") % {"n": level} if level else gettext("Break before level 1"))
        else:
            level += 1
            names.append(gettext("Level %(n)s") % {"n": level})
    return names


def final_table_item(tournament) -> int | None:
    """The item the clock is on when the tournament's final table has formed (else None): the
    levels from there on are played at the final table, whose ante must not fall (CLK-02, RP-11)."""
    if not tournament.events.filter(action=Action.SEATING_FINAL_TABLE_FORMED).exists():
        return None
    clock = Clock.objects.filter(tournament=tournament).first()
    return clock.item_index if clock else 0


def structure_items(tournament):
    """The tournament's structure as engine items (cached per tournament object): what the clock
    plays, level by level and break by break (CLK-01, CLK-02, CLK-04, CLK-09)."""
    cached = getattr(tournament, "_engine_structure", None)
    if cached is None:
        cached = []
        if tournament.structure_id:
            for it in StructureItem.objects.filter(structure_id=tournament.structure_id).order_by("position"):
                cached.append(
                    engine_item(
                        it.kind,
                        small_blind=it.small_blind,
                        big_blind=it.big_blind,
                        ante=it.ante,
                        big_blind_ante=it.big_blind_ante,
                        minutes=it.minutes,
                        game=it.game,
                        color_up=it.color_up,
                        add_on=it.add_on,
                        resume_seconds_left=it.resume_seconds_left,
                        removes_denominations=it.removes_denominations,
                    )
                )
        tournament._engine_structure = cached
    return cached


# The clock engine's structure warnings (``clock.validate_structure``), in the user's language.
STRUCTURE_WARNINGS = {
    "ante_decreases": gettext_lazy("Row %(n)s: the ante decreases (RP-11 recommends never reducing antes)."),
    "big_blind_decreases": gettext_lazy("Row %(n)s: the big blind goes down."),
    "consecutive_breaks": gettext_lazy("Row %(n)s: two breaks in a row."),
    "ante_lowered_at_final_table": gettext_lazy(
        "Row %(n)s: the ante at the final table is lower than before it (RP-11: antes are not reduced, also at the final table)."
    ),
}


def structure_warnings(items, final_table_from: int | None = None) -> list[str]:
    """The one structure validation (the pure ``clock.validate_structure``, CLK-02): its warnings as
    messages, row numbers from 1. ``final_table_from``: the item the clock is on once the final
    table has formed, whose levels on must not lower the ante (``clock.final_table_ante_warnings``). The structures service and the clock page both show these;
    an unusable structure raises ``clock.ClockError``."""
    out = []
    for w in engine.validate_structure(items) + (engine.final_table_ante_warnings(items, final_table_from) if final_table_from is not None else []):
        message = STRUCTURE_WARNINGS.get(w["code"])
        out.append(str(message) % {"n": w["item_index"] + 1} if message else w["message"])
    return out


def engine_state(clock: Clock) -> engine.ClockState:
    return engine.ClockState(
        status=clock.status,
        item_index=clock.item_index,
        ends_at=clock.ends_at,
        remaining=clock.remaining,
        version=clock.version,
        h4h_hand=clock.h4h_hand,
        h4h_seconds_per_hand=clock.h4h_seconds_per_hand,
    )


def get_clock(tournament) -> Clock | None:
    try:
        return tournament.clock
    except Clock.DoesNotExist:
        return None


def _state(tournament, now):
    clock = get_clock(tournament)
    items = structure_items(tournament)
    if clock is None or not items or clock.status == Clock.NOT_STARTED:
        return None, items
    return engine.advance(engine_state(clock), items, now or timezone.now()), items


def _ask(question, tournament, level_number: int, now) -> bool:
    state, items = _state(tournament, now)
    if state is None:
        return False
    if level_number > sum(1 for it in items if isinstance(it, engine.Level)):
        return False  # a level the structure never reaches cannot have ended
    return question(level_number, state, items, now or timezone.now())


def item_index_now(tournament, now=None) -> int:
    """The structure item on the clock at ``now`` (0 before the clock has started): the floor's
    chip race takes the chip this break, or the next, removes (CLK-09)."""
    state, _items = _state(tournament, now)
    return 0 if state is None else state.item_index


def level_now(tournament, now=None) -> int | None:
    """The level number on the clock at ``now`` (a break counts as the level before it), or
    None before the clock has started. The jackpot's share (PAY-12) and the notice that late
    registration closes with this level (REG-04) read it."""
    state, items = _state(tournament, now)
    if state is None:
        return None
    return engine.level_number_of(items, state.item_index)


def break_ends_at(tournament, now=None):
    """When the break on the clock ends, while the clock runs in one; else None: the players are
    told before it ends (CLK-04)."""
    state, items = _state(tournament, now)
    if state is None or state.status != engine.RUNNING or not isinstance(items[state.item_index], engine.Break):
        return None
    return state.ends_at


def level_has_ended(tournament, level_number: int, now=None) -> bool:
    return _ask(engine.has_level_ended, tournament, level_number, now)


def level_ended_minutes_ago(tournament, level_number: int, minutes: int, now=None) -> bool:
    """REG-09: level N ended at least ``minutes`` of tournament-clock time ago."""
    state, items = _state(tournament, now)
    if state is None or level_number > sum(1 for it in items if isinstance(it, engine.Level)):
        return False
    since = engine.clock_seconds_since_level_ended(level_number, state, items, now or timezone.now())
    return since is not None and since >= minutes * 60


def in_break_after_level(tournament, level_number: int, now=None) -> bool:
    return _ask(engine.in_break_after_level, tournament, level_number, now)


def late_registration_open(tournament, now=None) -> bool:
    """REG-04: open until the end of level N, or of the break after it (house setting). N is the
    tournament's ``late_reg_closes_after_level``, else the house default (``late_reg_default_level``,
    3): a tournament that names no level is never open all event."""
    n = HouseRules.of(tournament).late_registration_level(tournament)
    if tournament.late_reg_end == tournament.END_OF_BREAK:
        return not _ask(engine.has_break_after_level_ended, tournament, n, now)
    return not level_has_ended(tournament, n, now)


def addon_window_open(tournament, now=None) -> bool:
    """FMT-06: the add-on is sold only during the break after the tournament's add-on level."""
    n = tournament.addon_after_level
    if n is None:
        return False
    return in_break_after_level(tournament, n, now)


_ASK = object()


def h4h_money(t, hand: int, players_left: int | None = None, places_paid=_ASK) -> dict:
    """Where hand-for-hand hand ``hand`` stands against the money (CLK-06): ``players_left``,
    ``places_paid`` (None without a payout table), ``in_the_money`` (every player left is paid)
    and ``last_hand`` (the hand reached the money and the house ends hand-for-hand with it:
    ``clock.h4h_ends_with_hand``). The counts are read unless the caller has them."""
    if players_left is None:
        players_left = t.entries.filter(status=Entry.ACTIVE).count()
    paid = signals.ask_one(signals.places_paid_wanted, default=None, tournament=t) if places_paid is _ASK else places_paid
    ends = HouseRules.of(t).h4h_ends_at_money
    busts = signals.ask_one(signals.h4h_hand_busts_wanted, default=0, tournament=t, hand=hand) if ends and engine.in_the_money(players_left, paid) else 0
    return {
        "players_left": players_left,
        "places_paid": paid,
        "in_the_money": engine.in_the_money(players_left, paid),
        "last_hand": engine.h4h_ends_with_hand(players_left, paid, busts, ends_at_money=ends),
    }


def hand_for_hand_ended(t) -> dict | None:
    """CLK-06: how the last hand-for-hand ended, once it is over: ``{"money_reached": bool
    (it ended by itself with the hand that reached the money), "at"}``; None when none was
    announced, or while one is on."""
    row = (
        TournamentEvent.objects.filter(
            tournament_id=getattr(t, "pk", t), action__in=(Action.TOURNAMENTS_CLOCK_HAND_FOR_HAND_STARTED, Action.TOURNAMENTS_CLOCK_HAND_FOR_HAND_ENDED)
        )
        .order_by("-id")
        .values("action", "payload", "created_at")
        .first()
    )
    if row is None or row["action"] != Action.TOURNAMENTS_CLOCK_HAND_FOR_HAND_ENDED:
        return None
    return {"money_reached": (row["payload"] or {}).get("money_reached") is True, "at": row["created_at"].isoformat()}
