"""Heads-up bracket events (FMT-12): draw, matches best two of three, no-shows and
replacements (scenario 34), final-day lateness (scenario 35), the seat-request priority
for the next group (scenario 36), places and group survivors.

Each match has its own clock: ``clock_started_at`` is level 1 of the game in play, with
the bracket's level length and the 001 blinds (capped at 500/1000). Each new game, and a
replacement sitting down, restarts it at level 1 (house setting ``game_restart``).

The punctuality rules run by themselves: ``sweep_matches`` (Celery beat, every few
seconds) frees an absent player's seat at the end of level 1, gives the bye when nobody
took it by the end of the grace, and applies the final-day lateness forfeits. The floor
can still do each by hand, earlier than the sweep comes round.
"""

import logging

from django.utils import timezone
from django.utils.translation import gettext as _

from seating import services as seating
from tdmanager.errors import ValidationFailed
from tdmanager.transactions import service
from tournaments import draws, signals
from tournaments.cashier import services as cashier
from tournaments.cashier.ledger import lock_tournament
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.models import Entry, Person, Tournament
from tournaments.setup import lifecycle
from tournaments.signals import announce

from .. import engine
from ..models import Bracket, Match, MatchGame, QualifiedEntry, SeatRequest
from .common import FormatError, finish_clock_if_running, open_event, qualify, refuse_engine_error

log = logging.getLogger(__name__)
TIMER = Actor(None, "heads-up timer")


@service
def create_bracket(
    tournament,
    *,
    actor: Actor,
    size: int = 16,
    level_minutes: int = 10,
    punctuality: str = Bracket.NO_SHOW,
    games_to_win: int = 2,
    no_show_grace_minutes: int = 5,
    rounds_to_play=None,
    feeds_into=None,
    previous_group=None,
    game_restart: str = Bracket.FULL_STACK_LEVEL_1,
    paid_players: int = 8,
) -> Bracket:
    """Make ``tournament`` (format HEADS_UP) a bracket of ``size`` (16, 32 or 64; 2–8 for a final day)."""
    t = lock_tournament(tournament)
    if t.format != Tournament.HEADS_UP:
        raise FormatError("not_heads_up", _("Only a heads-up tournament has a bracket."), status=400)
    if size not in engine.BRACKET_SIZES:
        raise ValidationFailed("bad_bracket_size", _("A bracket has 2, 4, 8, 16, 32 or 64 places."))
    if punctuality not in (Bracket.NO_SHOW, Bracket.LATENESS):
        raise ValidationFailed("bad_setting", _("Unknown punctuality rule."))
    if rounds_to_play is not None and not 1 <= int(rounds_to_play) <= engine.rounds_in(size):
        raise ValidationFailed("bad_rounds", _("A group plays between 1 and %(n)s rounds.") % {"n": engine.rounds_in(size)})
    if hasattr(t, "bracket"):
        raise FormatError("bracket_exists", _("This tournament already has a bracket."))
    if feeds_into is not None and _feeds(feeds_into, t):
        raise ValidationFailed("bracket_loop", _("A stage cannot qualify its players for itself, nor for a stage that feeds it."), fields=["feeds_into"])
    if int(paid_players) not in engine.BRACKET_SIZES:
        raise ValidationFailed("bad_paid_players", _("The players paid are those of a whole round: 2, 4, 8, 16, 32 or 64."))
    bracket = Bracket.objects.create(
        tournament=t,
        size=size,
        level_minutes=level_minutes,
        punctuality=punctuality,
        games_to_win=games_to_win,
        no_show_grace_minutes=no_show_grace_minutes,
        rounds_to_play=rounds_to_play,
        feeds_into=feeds_into,
        previous_group=getattr(previous_group, "bracket", previous_group) if previous_group is not None else None,
        game_restart=game_restart,
        paid_players=int(paid_players),
    )
    if t.field_cap is None or t.field_cap > size:
        t.field_cap = size
        t.save(update_fields=["field_cap"])
    log_event(
        t,
        Action.FORMATS_BRACKET_CREATED,
        actor,
        size=size,
        level_minutes=level_minutes,
        punctuality=punctuality,
        rounds_to_play=rounds_to_play,
        feeds_into=getattr(feeds_into, "pk", None),
        paid_players=int(paid_players),
    )
    return bracket


@service
def create_headsup_event(
    *,
    name: str,
    start_at,
    buy_in,
    fee,
    starting_stack: int,
    structure,
    actor: Actor,
    size: int = 16,
    level_minutes: int = 10,
    punctuality: str = Bracket.NO_SHOW,
    games_to_win: int = 2,
    no_show_grace_minutes: int = 5,
    rounds_to_play=None,
    feeds_into=None,
    previous_group=None,
    paid_players: int = 8,
) -> Bracket:
    """A heads-up event open for registration: its tournament (two seats a table, the bracket's
    places as its cap) and its bracket, together or not at all. The page and the API call it."""
    if structure is None:
        raise FormatError("no_structure", _("Choose a blind structure."), status=400)
    t = open_event(
        name=name,
        start_at=start_at,
        event_format=Tournament.HEADS_UP,
        buy_in=buy_in,
        fee=fee,
        starting_stack=starting_stack,
        structure=structure,
        actor=actor,
        fee_reason="the heads-up event's fee as created",
        table_size=2,
        field_cap=size,
        min_players=2,
    )
    return create_bracket(
        t,
        actor=actor,
        size=size,
        level_minutes=level_minutes,
        punctuality=punctuality,
        games_to_win=games_to_win,
        no_show_grace_minutes=no_show_grace_minutes,
        rounds_to_play=rounds_to_play,
        feeds_into=feeds_into,
        previous_group=previous_group,
        paid_players=paid_players,
    )


def _feeds(start, t) -> bool:
    """Whether the stages from ``start`` on (``start``, the stage it qualifies for, and so on)
    reach ``t``: a group set to feed ``start`` would then feed itself, and its survivors and
    money would go round the loop (FMT-12) instead of into a final."""
    seen = set()
    stage = start
    while stage is not None and stage.pk not in seen:
        if stage.pk == t.pk:
            return True
        seen.add(stage.pk)
        bracket = Bracket.objects.filter(tournament_id=stage.pk).select_related("feeds_into").first()
        stage = bracket.feeds_into if bracket is not None else None
    return False


def _bracket_of(t) -> Bracket:
    try:
        return Bracket.objects.get(tournament=t)
    except Bracket.DoesNotExist:
        raise FormatError("no_bracket", _("This tournament has no bracket.")) from None


@service
def draw_bracket(tournament, *, actor: Actor, seeds: list | None = None, now=None) -> Bracket:
    """Draw the bracket (FMT-12: «sorteggio … all'entrata della sala») and start the tournament.

    ``seeds`` (entry ids, best first) are placed as the top seeds; everybody else is drawn
    at random (CSPRNG) after them. Byes go to the top seeds, or to the first drawn.
    """
    now = now or timezone.now()
    t = lock_tournament(tournament)
    bracket = _bracket_of(t)
    if bracket.drawn_at:
        raise FormatError("already_drawn", _("The bracket has already been drawn."))
    if t.status not in (Tournament.PLANNED, Tournament.REGISTERING, Tournament.RUNNING):
        raise FormatError("bad_status", _("This tournament has ended."))
    if t.entries.filter(status=Entry.RESERVED).exists():
        raise FormatError("unpaid_reservations", _("Some pre-registered players have not paid: collect or cancel their places first."))
    players = list(t.entries.filter(status=Entry.ACTIVE).order_by("number"))
    if len(players) <= bracket.size // 2:
        raise FormatError("bracket_too_big", _("%(n)s players need a smaller bracket than %(s)s.") % {"n": len(players), "s": bracket.size})
    seeded = []
    for pk in seeds or []:
        entry = next((e for e in players if e.pk == int(pk)), None)
        if entry is None or entry in seeded:
            raise ValidationFailed("bad_seed", _("Seed %(s)s is not a player of this tournament.") % {"s": pk})
        seeded.append(entry)
    rest = [e for e in players if e not in seeded]
    drawn_from, seed = [e.number for e in rest], draws.draw_seed()  # logged: replay_draw shuffles them again
    order = engine.bracket_order(seeded, rest, draws.rng_of(seed))
    try:
        pairs = engine.first_round(order, bracket.size)
    except engine.FormatRuleError as exc:
        raise refuse_engine_error(exc) from None
    if t.status != Tournament.RUNNING:
        lifecycle.start(t, actor=actor, override_minimum=True, now=now)
    for round_no in range(1, bracket.last_round + 1):
        for position in range(engine.players_in_round(bracket.size, round_no) // 2):
            Match.objects.create(bracket=bracket, round=round_no, position=position, table_number=position + 1)
    byes = []
    for position, (a, b) in enumerate(pairs):
        match = Match.objects.get(bracket=bracket, round=1, position=position)
        match.player_a, match.player_b = a, b
        if a is None or b is None:
            winner = a or b
            match.status, match.result, match.winner, match.finished_at = Match.DONE, Match.BYE, winner, now
            byes.append(winner.number)
        else:
            match.status = Match.READY
        match.save()
        if match.status == Match.DONE:
            _advance(bracket, match, now)
    bracket.drawn_at = now
    bracket.save(update_fields=["drawn_at"])
    log_event(
        t,
        Action.FORMATS_BRACKET_DRAWN,
        actor,
        order=[e.number for e in order],
        seeded=[e.number for e in seeded],
        byes=byes,
        method=draws.RNG_NAME,
        seed=str(seed),
        drawn_from=drawn_from,  # the unseeded players' numbers, in entry order, before the shuffle
    )
    return bracket


def replay_bracket(payload: dict) -> tuple[dict, dict]:
    """The bracket's draw shuffled again from its logged seed: the seeds first, then the others."""
    again = engine.bracket_order(payload["seeded"], payload["drawn_from"], draws.rng_of(payload["seed"]))
    return {"order": payload.get("order")}, {"order": again}


def _advance(bracket: Bracket, match: Match, now) -> None:
    """Put the winner of ``match`` into his next match (or finish the bracket / the group)."""
    if match.round >= bracket.last_round:
        return
    round_no, position, side = engine.next_slot(match.round, match.position)
    nxt = Match.objects.select_for_update().get(bracket=bracket, round=round_no, position=position)
    setattr(nxt, f"player_{side}", match.winner)
    if nxt.player_a_id and nxt.player_b_id and nxt.status == Match.WAITING:
        nxt.status = Match.READY
    nxt.save()


def _lock_match(match) -> tuple[Tournament, Bracket, Match]:
    m = Match.objects.select_related("bracket").get(pk=getattr(match, "pk", match))
    t = lock_tournament(m.bracket.tournament_id)
    m = Match.objects.select_for_update(of=("self",)).select_related("bracket", "player_a__person", "player_b__person").get(pk=m.pk)
    return t, m.bracket, m


def _finish_match(t, bracket: Bracket, m: Match, winner: Entry, result: str, actor: Actor, now) -> list:
    """Close the match: the loser is out with the place of the round (shared), the winner
    moves on; the last match of the bracket finishes the tournament, the last match of a
    group sends its survivors on. Returns extra payload for the log."""
    loser = m.player_b if winner.pk == m.player_a_id else m.player_a
    m.winner, m.loser, m.result, m.status, m.finished_at = winner, loser, result, Match.DONE, now
    m.save()
    if loser is not None:
        loser = Entry.objects.get(pk=loser.pk)
        loser.status, loser.busted_at, loser.place = Entry.BUSTED, now, engine.loser_place(bracket.size, m.round)
        loser.save(update_fields=["status", "busted_at", "place"])
        seating.release_seat(t, loser, actor, now=now)  # out of the event: his seat on the table map is free
    _advance(bracket, m, now)
    if m.round < bracket.last_round or bracket.matches.filter(round=bracket.last_round).exclude(status=Match.DONE).exists():
        return []
    bracket.completed_at = now
    bracket.save(update_fields=["completed_at"])
    if bracket.last_round == engine.rounds_in(bracket.size):
        champion = Entry.objects.get(pk=winner.pk)
        champion.place = 1
        champion.save(update_fields=["place"])
        finish_clock_if_running(t, actor)
        lifecycle.finish(t, actor=actor)
        return [{"champion": champion.number}]
    survivors = [x.winner for x in bracket.matches.filter(round=bracket.last_round).select_related("winner__person", "winner__tournament")]
    if bracket.feeds_into_id:
        target = lock_tournament(bracket.feeds_into_id)
        stack = target.starting_stack
        for s in survivors:
            qualify(target, s, chips=stack, source=QualifiedEntry.BRACKET_GROUP, actor=actor, now=now)
    finish_clock_if_running(t, actor)
    lifecycle.finish(t, actor=actor)
    return [{"group_survivors": [s.number for s in survivors], "qualified_for": bracket.feeds_into_id}]


@service
def start_match(match, *, actor: Actor, now=None) -> Match:
    """Start the match clock (level 1). Players not yet marked seated count as absent."""
    now = now or timezone.now()
    t, _bracket, m = _lock_match(match)
    if m.status != Match.READY:
        raise FormatError("match_not_ready", _("This match cannot start now."))
    m.status, m.started_at, m.clock_started_at = Match.PLAYING, now, now
    m.save(update_fields=["status", "started_at", "clock_started_at"])
    log_event(t, Action.FORMATS_MATCH_STARTED, actor, match=m.pk, round=m.round, table=m.table_number)
    return m


def _seated(m: Match, side: str) -> bool:
    return getattr(m, f"{side}_seated_at") is not None


def _players(m: Match, *, seated: bool) -> list[str]:
    """The sides that have a player, seated (``seated``) or still absent."""
    return [side for side in ("a", "b") if getattr(m, f"player_{side}_id") and _seated(m, side) == seated]


def _record_game(m: Match, winner: Entry, kind: str, actor: Actor, now) -> MatchGame:
    number = m.a_wins + m.b_wins + 1
    game = MatchGame.objects.create(match=m, number=number, winner=winner, kind=kind, recorded_by=actor.user, recorded_at=now)
    if m.side_of(winner) == "a":
        m.a_wins += 1
    else:
        m.b_wins += 1
    return game


def lateness_rule(bracket: Bracket, m: Match) -> bool:
    """Whether the lateness rule (scenario 35) governs this match rather than the no-show rule
    (scenario 34): on a final day's bracket, and from the second round of any bracket. The
    no-show rule (the seat freed, a replacement) is for a player's first match; one who has won
    his way on must be at his next match on time, or the lateness rule applies (FMT-12: "between
    matches ... otherwise the Day 2 lateness rule applies")."""
    return bracket.punctuality == Bracket.LATENESS or m.round > 1


def _apply_lateness(t, bracket, m: Match, actor: Actor, now) -> list[str]:
    """Scenario 35 (final day): one whole level late → game 1 lost; two → match lost."""
    if not lateness_rule(bracket, m) or m.status != Match.PLAYING or m.started_at is None:
        return []
    absent = [side for side in ("a", "b") if not _seated(m, side)]
    if len(absent) != 1:
        return []  # both here, or both absent: the director decides
    late_side = absent[0]
    present = m.player_b if late_side == "a" else m.player_a
    levels = engine.levels_late(m.started_at, now, bracket.level_minutes)
    done = []
    if levels >= 1 and not m.games.exists():
        _record_game(m, present, MatchGame.LATENESS, actor, now)
        m.save(update_fields=["a_wins", "b_wins"])
        done.append("game_1_lost")
    if levels >= 2:
        _finish_match(t, bracket, m, present, Match.LATENESS, actor, now)
        done.append("match_lost")
    return done


@service
def seat_player(match, entry, *, actor: Actor, now=None) -> Match:
    """Mark a player present at his table. On a final day the lateness rule is applied
    first (he may arrive having lost game 1, or the match)."""
    now = now or timezone.now()
    t, bracket, m = _lock_match(match)
    side = m.side_of(entry)
    if side is None:
        raise FormatError("not_in_match", _("This player is not in this match."), status=400)
    if m.status == Match.DONE:
        raise FormatError("match_over", _("This match is over."))
    if _seated(m, side):
        raise FormatError("already_seated", _("This player is already seated."))
    applied = _apply_lateness(t, bracket, m, actor, now)
    if m.status != Match.DONE:
        setattr(m, f"{side}_seated_at", now)
        m.save(update_fields=[f"{side}_seated_at"])
    log_event(
        t,
        Action.FORMATS_MATCH_PLAYER_SEATED,
        actor,
        match=m.pk,
        entry=getattr(entry, "pk", entry),
        side=side,
        lateness=applied,
        minutes_late=round((now - m.started_at).total_seconds() / 60, 1) if m.started_at else None,
    )
    return m


@service
def apply_lateness(match, *, actor: Actor, now=None) -> Match:
    """Apply the final-day lateness rule now (the director, or a periodic check)."""
    now = now or timezone.now()
    t, bracket, m = _lock_match(match)
    if not lateness_rule(bracket, m):
        raise FormatError("not_lateness_rule", _("This bracket uses the no-show rule, not the lateness rule."))
    applied = _apply_lateness(t, bracket, m, actor, now)
    log_event(t, Action.FORMATS_MATCH_LATENESS_CHECKED, actor, match=m.pk, applied=applied)
    return m


@service
def record_game(match, winner, *, actor: Actor, now=None) -> Match:
    """The floor records who won a game; two wins take the match (best two of three)."""
    now = now or timezone.now()
    t, bracket, m = _lock_match(match)
    if m.status != Match.PLAYING:
        raise FormatError("match_not_playing", _("This match is not being played."))
    side = m.side_of(winner)
    if side is None:
        raise FormatError("not_in_match", _("This player is not in this match."), status=400)
    if not (_seated(m, "a") and _seated(m, "b")):
        raise FormatError("player_absent", _("Both players must be seated to play a game."))
    winner = m.player_a if side == "a" else m.player_b
    game = _record_game(m, winner, MatchGame.PLAYED, actor, now)
    extra = []
    if engine.match_over(m.a_wins, m.b_wins, bracket.games_to_win):
        m.save(update_fields=["a_wins", "b_wins"])
        extra = _finish_match(t, bracket, m, winner, Match.PLAYED, actor, now)
    else:
        if bracket.game_restart == Bracket.FULL_STACK_LEVEL_1:
            m.clock_started_at = now
        m.save(update_fields=["a_wins", "b_wins", "clock_started_at"])
    log_event(
        t,
        Action.FORMATS_MATCH_GAME_RECORDED,
        actor,
        match=m.pk,
        game=game.number,
        winner=winner.number,
        score=f"{m.a_wins}-{m.b_wins}",
        match_over=m.status == Match.DONE,
        extra=extra,
    )
    return m


@service
def free_absent_seat(match, *, actor: Actor, now=None) -> Match:
    """Scenario 34: a pre-registered player still absent at the end of level 1 of his first
    match loses all rights (his entry is cancelled without refund: the place opens for a
    replacement). From the second round the lateness rule applies (``lateness_rule``)."""
    now = now or timezone.now()
    t, bracket, m = _lock_match(match)
    if bracket.punctuality != Bracket.NO_SHOW:
        raise FormatError("not_no_show_rule", _("This bracket uses the lateness rule."))
    if lateness_rule(bracket, m):
        raise FormatError(
            "not_no_show_rule",
            _("Both players of this match have won their way to it: the lateness rule applies (the first game lost, then the match)."),
        )
    if m.status != Match.PLAYING:
        raise FormatError("match_not_playing", _("Start the match clock first."))
    absent = _players(m, seated=False)
    if len(absent) != 1 or not any(_seated(m, s) for s in ("a", "b")):
        raise FormatError("no_single_absent", _("The rule applies when one player is seated and the other is absent."))
    if now < engine.level_one_ends(m.clock_started_at, bracket.level_minutes):
        raise FormatError("level_one_running", _("The absent player has until the end of level 1."))
    side = absent[0]
    gone = Entry.objects.get(pk=getattr(m, f"player_{side}_id"))
    gone.status = Entry.CANCELLED  # no refund: he loses all rights (001 L36); the ledger is untouched
    gone.save(update_fields=["status"])
    announce(signals.entry_cancelled, t, actor, entry=gone)  # his seat is free for the replacement
    setattr(m, f"player_{side}", None)
    m.seat_freed_at = now
    m.save(update_fields=[f"player_{side}", "seat_freed_at"])
    log_event(
        t,
        Action.FORMATS_MATCH_SEAT_FREED,
        actor,
        match=m.pk,
        entry=gone.pk,
        name=gone.person.full_name,
        side=side,
        replacement_until=engine.replacement_deadline(m.clock_started_at, bracket.level_minutes, bracket.no_show_grace_minutes).isoformat(),
    )
    return m


def _open_side(m: Match) -> str:
    return "a" if m.player_a_id is None else "b"


@service
def seat_replacement(match, person, *, method: str, actor: Actor, now=None) -> Match:
    """Scenario 34 (a): a new player buys the freed seat and sits by the end of level 1
    plus the grace: the match clock restarts from level 1."""
    now = now or timezone.now()
    t, bracket, m = _lock_match(match)
    if m.seat_freed_at is None or m.status != Match.PLAYING or (m.player_a_id and m.player_b_id):
        raise FormatError("no_free_seat", _("This match has no freed seat."))
    deadline = engine.replacement_deadline(m.clock_started_at, bracket.level_minutes, bracket.no_show_grace_minutes)
    if now > deadline:
        raise FormatError("replacement_too_late", _("Too late: a replacement had to sit by %(t)s.") % {"t": timezone.localtime(deadline).strftime("%H:%M")})
    sale = cashier.register(t, Person.objects.get(pk=person.pk), method=method, actor=actor, now=now)
    side = _open_side(m)
    setattr(m, f"player_{side}", sale.entry)
    setattr(m, f"{side}_seated_at", now)
    m.clock_started_at = now  # «il clock ripartirà in ogni caso dal primo livello»
    m.clock_restarts += 1
    m.save()
    log_event(
        t,
        Action.FORMATS_MATCH_REPLACEMENT_SEATED,
        actor,
        match=m.pk,
        entry=sale.entry.pk,
        name=sale.entry.person.full_name,
        clock_restarted_at=now.isoformat(),
        receipt=sale.row.receipt_number if sale.row else None,
    )
    return m


@service
def award_bye(match, *, actor: Actor, now=None) -> Match:
    """Scenario 34 (b): nobody took the freed seat by the end of level 1 plus the grace:
    the seated player advances."""
    now = now or timezone.now()
    t, bracket, m = _lock_match(match)
    if m.seat_freed_at is None or m.status != Match.PLAYING or (m.player_a_id and m.player_b_id):
        raise FormatError("no_free_seat", _("This match has no freed seat."))
    deadline = engine.replacement_deadline(m.clock_started_at, bracket.level_minutes, bracket.no_show_grace_minutes)
    if now < deadline:
        raise FormatError("replacement_window_open", _("A replacement may still sit until %(t)s.") % {"t": timezone.localtime(deadline).strftime("%H:%M")})
    winner = m.player_a or m.player_b
    extra = _finish_match(t, bracket, m, winner, Match.BYE, actor, now)
    log_event(t, Action.FORMATS_MATCH_BYE_AWARDED, actor, match=m.pk, winner=winner.number, extra=extra)
    return m


# --- the timers -----------------------------------------------------------------------------------


def due_action(bracket: Bracket, m: Match, now) -> str | None:
    """What the punctuality rule says must happen to a match being played, now, if anything:
    ``free_seat`` and ``bye`` (no-show rule, scenario 34) or ``lateness`` (final day,
    scenario 35). With both players absent nothing is automatic: the director decides."""
    if m.status != Match.PLAYING or m.clock_started_at is None:
        return None
    present = _players(m, seated=True)
    if not lateness_rule(bracket, m):
        if m.seat_freed_at is None:
            absent = _players(m, seated=False)
            if len(absent) == 1 and len(present) == 1 and now >= engine.level_one_ends(m.clock_started_at, bracket.level_minutes):
                return "free_seat"
        elif not (m.player_a_id and m.player_b_id) and now >= engine.replacement_deadline(
            m.clock_started_at, bracket.level_minutes, bracket.no_show_grace_minutes
        ):
            return "bye"
        return None
    if len(present) != 1 or m.started_at is None:
        return None
    levels = engine.levels_late(m.started_at, now, bracket.level_minutes)
    games = m.a_wins + m.b_wins
    if levels >= 2 or (levels >= 1 and games == 0):
        return "lateness"
    return None


ACTIONS = {"free_seat": free_absent_seat, "bye": award_bye, "lateness": apply_lateness}


def sweep_matches(now=None) -> list[tuple[int, str]]:
    """Apply every punctuality rule that is due (each match in its own transaction, under
    its tournament's lock, so a floor action at the same moment is never applied twice).
    Returns (match id, action) for what was done."""
    now = now or timezone.now()
    done = []
    for m in Match.objects.filter(status=Match.PLAYING).select_related("bracket"):
        action = due_action(m.bracket, m, now)
        if action is None:
            continue
        try:
            ACTIONS[action](m, actor=TIMER, now=now)
        except FormatError as exc:  # the floor got there first, or the match changed meanwhile
            log.info("heads-up timer: match %s %s skipped (%s)", m.pk, action, exc.code)
            continue
        done.append((m.pk, action))
    return done


# --- the next group: seat requests (scenario 36) ------------------------------------------------


@service
def request_seat(tournament, person, *, actor: Actor, now=None) -> SeatRequest:
    """A player asks for a seat in this group. Nobody plays a group twice (no re-entry in the
    same group); a player out of the previous group asks as a returning player."""
    now = now or timezone.now()
    t = lock_tournament(tournament)
    bracket = _bracket_of(t)
    person = Person.objects.get(pk=person.pk)
    cashier.check_not_banned(person)
    if t.entries.filter(person=person).exclude(status=Entry.CANCELLED).exists():
        raise FormatError("no_reentry_same_group", _("%(name)s has already played in this group: no re-entry in the same group.") % {"name": person.full_name})
    if bracket.drawn_at:
        raise FormatError("already_drawn", _("This group has already been drawn."))
    if SeatRequest.objects.filter(tournament=t, person=person, status=SeatRequest.WAITING).exists():
        raise FormatError("already_waiting", _("%(name)s is already waiting for a seat.") % {"name": person.full_name})
    kind, busted_at = SeatRequest.NEW, None
    if bracket.previous_group_id:
        prev = bracket.previous_group.tournament.entries.filter(person=person).exclude(status=Entry.CANCELLED)
        if prev.filter(status__in=(Entry.ACTIVE, Entry.RESERVED)).exists():
            raise FormatError("still_in_previous_group", _("%(name)s is still playing in the previous group.") % {"name": person.full_name})
        out = prev.filter(status=Entry.BUSTED).order_by("busted_at").first()
        if out is not None:
            kind, busted_at = SeatRequest.RETURNING, out.busted_at
    req = SeatRequest.objects.create(tournament=t, person=person, kind=kind, previous_busted_at=busted_at, requested_at=now)
    log_event(
        t,
        Action.FORMATS_SEATREQUEST_CREATED,
        actor,
        request=req.pk,
        person=person.pk,
        name=person.full_name,
        kind=kind,
        previous_busted_at=busted_at.isoformat() if busted_at else None,
    )
    return req


@service
def allocate_seats(tournament, *, actor: Actor, now=None) -> dict:
    """Give the group's open places to the waiting players in priority order (new players
    who came before level 1, then the earliest eliminated of the previous group, then the
    others); each admitted player gets a reservation to pay at the desk, the rest are refused."""
    now = now or timezone.now()
    t = lock_tournament(tournament)
    bracket = _bracket_of(t)
    if bracket.drawn_at or t.status not in (Tournament.PLANNED, Tournament.REGISTERING):
        raise FormatError("already_drawn", _("Seats are given before the group is drawn."))
    waiting = list(SeatRequest.objects.filter(tournament=t, status=SeatRequest.WAITING).select_related("person"))
    waiting.sort(key=lambda r: engine.seat_request_priority(r.kind, r.requested_at, t.start_at, r.previous_busted_at))
    cap = t.field_cap or bracket.size
    open_places = max(0, cap - cashier.places_taken(t))
    admitted, refused = [], []
    for i, req in enumerate(waiting):
        if i < open_places:
            req.entry = cashier.pre_register(t, req.person, actor=actor, channel="heads-up seat request", now=now)
            req.status = SeatRequest.ADMITTED
            admitted.append(req.person.full_name)
        else:
            req.status = SeatRequest.REFUSED
            refused.append(req.person.full_name)
        req.decided_at = now
        req.save(update_fields=["entry", "status", "decided_at"])
    log_event(t, Action.FORMATS_SEATREQUEST_ALLOCATED, actor, open_places=open_places, admitted=admitted, refused=refused)
    return {"open_places": open_places, "admitted": admitted, "refused": refused}
