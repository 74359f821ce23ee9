"""Eliminations and finishing places (ELM-01..06), and their undo."""

from __future__ import annotations

from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager import policy
from tdmanager.errors import ValidationFailed
from tdmanager.roles import user_roles
from tdmanager.transactions import service
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import judged
from tournaments.models import Clock, Entry, LedgerRow, Person, Tournament, TournamentEvent, checks

from .. import engine, signals, sql
from ..models import Bust, PendingMove, Seat
from . import dealers
from .later import undo_first
from .plan import SeatingActionError, engine_errors, house, remove_players, restore, settle
from .room import clock_of, lock


def _entry_id(value) -> int:
    return int(getattr(value, "pk", value))


def already_out(t, entry_id: int, number: int) -> SeatingActionError:
    """The refusal of a bust of a player already out: who recorded his bust, where and when. Two
    floor tablets busting the same player while offline send it one after the other; the first
    stands and the second is told what happened instead, in the floor's words."""
    first = Bust.objects.filter(tournament=t, entry_id=entry_id, void="").select_related("entry__person", "reported_by").order_by("-order").first()
    if first is None:  # out without a bust row (a cancelled entry's history): the plain refusal
        return SeatingActionError("not_playing", _("Entry #%(n)s is not playing in this tournament.") % {"n": number})
    at = timezone.localtime(first.busted_at).strftime("%H:%M")
    by = first.reported_by.get_username() if first.reported_by else ""
    values = {"name": first.entry.person.full_name, "n": number, "at": at, "t": first.table_number, "by": by}
    if by:
        text = _("%(name)s (#%(n)s) was already out at %(at)s, recorded at table %(t)s by %(by)s.") % values
    else:
        text = _("%(name)s (#%(n)s) was already out at %(at)s, recorded at table %(t)s.") % values
    # Back in with a re-entry (a new entry): the tap was about the entry he lost, and the floor
    # must not look for him under that number; it is told where he plays now.
    again = Seat.objects.filter(tournament=t, entry__person_id=first.entry.person_id).exclude(entry_id=entry_id).select_related("entry", "table").first()
    extra = {}
    if again is not None:
        values.update(m=again.entry.number, t=again.table.number, s=again.number)
        text += " " + _("%(name)s plays on with a re-entry, #%(m)s, at table %(t)s, seat %(s)s.") % values
        extra = {"reentry": again.entry_id}
    return SeatingActionError(
        "already_out", text, entry=entry_id, busted_at=first.busted_at.isoformat(), table=first.table_number, reported_by=by, bust=first.pk, **extra
    )


def returned_since(t, ids: list[int], tapped_at) -> dict:
    """The latest return to play of each of these players after ``tapped_at`` (the tap of a
    queued bust): {entry: (how, when, bust)}. ``how`` is "undone" (the director undid his bust)
    or "rebuy" (a rebuy bought him back in: his bust voided as REBOUGHT when he sat down again,
    or sold while the floor had not yet recorded his bust). Back in play after the tap, the tap
    was about the elimination he has come back from, not a new one: recorded now it would knock
    him out with his new chips. A re-entry is a new entry: the old one stays out (``already_out``).
    A rebuy reversed since is no return (a revival reversed puts his bust back: he is out)."""
    found = {}
    rows = Bust.objects.filter(tournament=t, entry_id__in=ids, void__in=(Bust.UNDONE, Bust.REBOUGHT), voided_at__gt=tapped_at)
    for b in rows.select_related("entry__person").order_by("voided_at", "pk"):
        found[b.entry_id] = ("undone" if b.void == Bust.UNDONE else "rebuy", b.voided_at, b)
    rebuys = LedgerRow.objects.filter(tournament=t, kind=LedgerRow.REBUY, entry_id__in=ids, created_at__gt=tapped_at, reversed_by__isnull=True)
    for entry_id, at in rebuys.order_by("created_at").values_list("entry_id", "created_at"):
        if entry_id not in found or found[entry_id][1] < at:
            found[entry_id] = ("rebuy", at, None)
    return found


def bust_before_return(t, entry_id: int, returned, tapped_at, seat: tuple[int, int]) -> SeatingActionError:
    """The refusal of a queued bust tapped before that player came back into play (``returned``,
    from ``returned_since``): a tablet offline tapped him out while another recorded it, and the
    director undid that bust, or he bought back in with a rebuy, before the queue arrived. The
    return stands; the floor is told what happened, in its words."""
    how, when, bust = returned
    entry = bust.entry if bust is not None else Entry.objects.select_related("person").get(pk=entry_id, tournament=t)
    at, tapped = (timezone.localtime(w).strftime("%H:%M") for w in (when, tapped_at))
    values = {"name": entry.person.full_name, "n": entry.number, "at": at, "tapped": tapped, "t": seat[0], "s": seat[1]}
    if how == "undone":
        text = (
            _(
                "The bust of %(name)s (#%(n)s) was undone at %(at)s, after this one was tapped at %(tapped)s: it no longer applies. "
                "%(name)s sits at table %(t)s, seat %(s)s."
            )
            % values
        )
        return SeatingActionError("bust_undone", text, entry=entry_id, bust=bust.pk, undone_at=when.isoformat())
    text = (
        _(
            "%(name)s (#%(n)s) came back in with a rebuy at %(at)s, after this bust was tapped at %(tapped)s: it no longer applies. "
            "%(name)s sits at table %(t)s, seat %(s)s."
        )
        % values
    )
    extra = {"bust": bust.pk} if bust is not None else {}
    return SeatingActionError("bust_before_return", text, entry=entry_id, returned_at=when.isoformat(), table=seat[0], seat=seat[1], **extra)


@service
def record_bust(
    tournament,
    busts,
    *,
    actor,
    table: int | None = None,
    same_hand: bool = False,
    reason: str = "",
    kind: str = Bust.BUST,
    simultaneous: bool = False,
    override_reason: str = "",
    now=None,
):
    """Record one or more eliminations (ELM-01) and give their finishing places.

    ``busts`` is a list of entries, or of ``{"entry": entry or id, "starting_stack": chips,
    "eliminators": [...]}`` (the stack at the start of the hand, needed to rank several players
    out on one hand; who knocked the player out, entries or ``{"entry", "pot_share"}`` from the
    button's left, which a bounty event needs: payouts checks and pays them, PAY-02).
    ``same_hand``: the players went out on one hand at one table (ELM-02: ranked by starting
    stack). During hand-for-hand every bust carries the hand number, and all busts of one
    hand, at any table, are ranked together under the ``h4h_policy`` (ELM-04). Otherwise each
    player is ranked by the order of the list (the first listed went out first, ELM-03), unless
    ``simultaneous``: the floor cannot tell their order (different tables, outside hand-for-hand),
    so they are one tie group sharing the places and their prizes equally (ELM-03, ELM-06).

    ``table``: where the players went out; each must sit there. A dealer (ROLE-01) reports from
    his table only, so he must name it. In a bounty event each eliminator must sit at the table
    of the player he knocked out; only a director may let one from elsewhere count, with an
    ``override_reason`` written in the bust's event.

    Then the final table, a break or balancing moves follow (``plan.settle``). Returns the
    ``Outcome`` with ``busts`` (the new rows) added.
    """
    now = now or timezone.now()
    items = [b if isinstance(b, dict) else {"entry": b} for b in busts]
    if not items:
        raise ValidationFailed("no_entries", _("Name at least one player who is out."))
    ids = [_entry_id(b["entry"]) for b in items]
    if len(set(ids)) != len(ids):
        raise ValidationFailed("duplicate_entry", _("A player is listed twice."))
    stacks = {}
    for entry_id, b in zip(ids, items):
        stack = b.get("starting_stack")
        chips = None if stack is None else checks.whole(stack, lo=0, hi=checks.MAX_CHIPS)  # what a column holds
        if stack is not None and (chips is None or not str(stack).isdigit()):
            raise ValidationFailed("bad_stack", _("A starting stack must be a whole number of chips."))
        stacks[entry_id] = chips
    eliminators = {entry_id: _eliminators(b.get("eliminators")) for entry_id, b in zip(ids, items) if b.get("eliminators")}
    override_reason = (override_reason or "").strip()
    # who is asking matters only for an override or a bust without its table (not on every bust)
    roles = user_roles(actor.user) if actor.user is not None and (override_reason or table is None) else set()
    if override_reason and policy.DIRECTOR not in roles:
        raise SeatingActionError(
            "override_not_allowed", _("Only the director can let an eliminator from another table count."), status=403, field="override_reason"
        )
    if table is None and policy.DEALER in roles and not policy.holds(roles, (policy.DIRECTOR, policy.FLOOR)):
        raise ValidationFailed("table_required", _("A dealer reports players out from a table: name the table."), field="table")
    t, room = lock(tournament)
    actor = judged(t, actor)  # a tap time before the start is not believed
    if t.status != Tournament.RUNNING:
        raise SeatingActionError("not_running", _("Busts are recorded once the tournament is running."))
    if room.card_room is not None and actor.user is not None and dealers.reports_as_dealer(actor.user):
        dealers.check_dealer_at(t, room.card_room, table, actor.user, actor.tapped_at)  # a rostered dealer: his table only (then)
    if t.format == Tournament.HEADS_UP:
        # FMT-12: a match is won game by game; its loser is out with the place of his round.
        raise SeatingActionError("heads_up_match", _("A heads-up event is played match by match: record the games in the bracket, its loser is out by itself."))
    where = {}
    tapped_table = {}  # entry → the table a queued bust was tapped at, which he has left since
    returned = returned_since(t, ids, actor.tapped_at) if actor.tapped_at is not None else {}
    for entry_id in ids:
        seat = room.seat_of(entry_id)  # seated in this tournament ⟺ playing in it
        if seat is None:
            status, number = Entry.objects.filter(pk=entry_id, tournament=t).values_list("status", "number").first() or (None, entry_id)
            if status == Entry.ACTIVE:
                raise SeatingActionError("not_seated", _("Entry #%(n)s has no seat.") % {"n": number})
            if status == Entry.BUSTED:
                raise already_out(t, entry_id, number)
            raise SeatingActionError("not_playing", _("Entry #%(n)s is not playing in this tournament.") % {"n": number})
        if entry_id in returned:
            raise bust_before_return(t, entry_id, returned[entry_id], actor.tapped_at, seat)
        if table is not None and seat[0] != table:
            # A bust a tablet queued offline, tapped at the table he sat at then: the server has
            # moved him since (a break, a balancing move made before the queue arrived). The
            # bust is real; it is recorded from the seat he holds now, which it frees.
            if actor.tapped_at is None or table_at(t, entry_id, actor.tapped_at, seat) != table:
                raise SeatingActionError("not_at_table", _("This player sits at table %(t)s, not %(x)s.") % {"t": seat[0], "x": table}, field="table")
            tapped_table[entry_id] = table
        where[entry_id] = seat
    elsewhere = _eliminators_elsewhere(t, room, where, eliminators, tapped_table, actor.tapped_at) if eliminators and house(t).bounty != "NONE" else []
    moved_eliminators = [e for e in elsewhere if e.get("tapped_table") is not None]
    elsewhere = [e for e in elsewhere if e.get("tapped_table") is None]
    if elsewhere and not override_reason:
        first = elsewhere[0]
        raise SeatingActionError(
            "eliminator_not_at_table",
            _(
                "Entry #%(e)s is not at table %(x)s, where #%(n)s went out: only a player at that table can have won the pot "
                "(the director may let it count, with a reason)."
            )
            % {"e": first["number"], "x": first["out_table"], "n": first["out_number"]},
            field="eliminators",
        )
    if same_hand and len({tapped_table.get(e, w[0]) for e, w in where.items()}) > 1:  # one table when the hand was played
        raise ValidationFailed("same_hand_one_table", _("Players out on the same hand must be at one table."))
    if simultaneous and (same_hand or len(ids) < 2):
        raise ValidationFailed(
            "simultaneous_needs_players", _("Simultaneous busts are two or more players at different tables, not the same hand at one table.")
        )
    if room.players - len(ids) < 1:
        raise SeatingActionError("last_player", _("At least one player must remain: the last one is the winner."))
    clock = clock_of(t)
    h4h = clock.h4h_hand if clock is not None and clock.status == Clock.HAND_FOR_HAND else None
    if simultaneous and h4h is not None:
        raise SeatingActionError("simultaneous_in_h4h", _("During hand-for-hand the busts of one hand are ranked together already."))
    group = None
    if same_hand:
        room.group_seq += 1
        group = room.group_seq
    tie = next_simultaneous_group(t) if simultaneous else None
    remove_players(room, ids)
    rows = []
    for entry_id in ids:
        room.bust_seq += 1
        rows.append(
            Bust(
                tournament=t,
                entry_id=entry_id,
                order=room.bust_seq,
                kind=kind,
                table_number=where[entry_id][0],
                seat_number=where[entry_id][1],
                hand_group=group,
                h4h_hand=h4h,
                starting_stack=stacks[entry_id],
                busted_at=now,
                reported_by=actor.user,
                reason=reason[:200],
                simultaneous_group=tie,
                simultaneous_reason=reason[:200] if tie else "",
            )
        )
    earlier = []  # the busts already recorded in this hand-for-hand hand: the latest ones
    if h4h is not None:
        for b in Bust.objects.filter(tournament=t, void="").order_by("-order")[:100]:
            if b.h4h_hand != h4h:
                break
            earlier.insert(0, b)
    alive = room.players
    with engine_errors():
        places = engine.finishing_places(_engine_busts(earlier + rows), alive + len(earlier) + len(rows), h4h_policy=house(t).h4h_simultaneous_policy)
    by_entry = {p.player: p for p in places}
    changed_earlier = []
    for b in earlier + rows:
        p = by_entry[b.entry_id]
        if b.pk is not None and (b.place, b.shared_with) != (p.place, p.shared_with):
            changed_earlier.append(b)
        b.place, b.shared_with = p.place, p.shared_with
    winner = next(iter(room.where)) if alive == 1 else None
    payload = {
        "busts": [
            {
                "entry": b.entry_id,
                "table": b.table_number,
                "seat": b.seat_number,
                "order": b.order,
                "place": b.place,
                "shared_with": b.shared_with,
                "starting_stack": b.starting_stack,
                # tapped offline at the table he sat at then, left since: the reports say so
                **({"tapped_table": tapped_table[b.entry_id]} if b.entry_id in tapped_table else {}),
            }
            for b in rows
        ],
        "same_hand": same_hand,
        "h4h_hand": h4h,
        "kind": kind,
        "reason": reason,
        "simultaneous": simultaneous,
    }
    if elsewhere:  # the director let eliminators from elsewhere count: why, and who
        payload["eliminator_override"] = {
            "reason": override_reason[:200],
            "eliminators": [{k: e[k] for k in ("entry", "table", "out", "out_table")} for e in elsewhere],
        }
    if moved_eliminators:  # eliminators who sat at the table at the tap and have been moved since
        payload["eliminators_moved"] = [{k: e[k] for k in ("entry", "table", "out", "out_table", "tapped_table")} for e in moved_eliminators]
    if changed_earlier:
        payload["places_changed"] = [{"entry": b.entry_id, "place": b.place, "shared_with": b.shared_with} for b in changed_earlier]
    if winner is not None:
        payload["winner"] = winner
    by_place: dict[int, list[int]] = {}
    for b in rows:
        by_place.setdefault(b.place, []).append(b.entry_id)
    for place, members in by_place.items():  # written with the freed seats and the token (room.done)
        room.bust(members, place, now)
    for b in changed_earlier:  # an earlier bust of the same hand-for-hand hand
        Bust.objects.filter(pk=b.pk).update(place=b.place, shared_with=b.shared_with)
        Entry.objects.filter(pk=b.entry_id).update(place=b.place)
    if winner is not None:
        Entry.objects.filter(pk=winner).update(place=1)
    # During hand-for-hand every table is still playing the same hand: no table breaks and no
    # final table forms until the hand is over at all of them (``tables.hand_completed``).
    out = settle(t, room, actor, Action.SEATING_PLAYER_BUSTED, now=now, event_rows=rows, structural=h4h is None, **payload)
    out.busts = rows
    out.winner = winner
    # payouts ends a satellite, pays the bounties
    signals.players_busted.send(sender=Tournament, tournament=t, actor=actor, busts=rows, eliminators=eliminators, winner=winner)
    return out


def _eliminators(value) -> list[dict]:
    """The eliminators of one bust as the floor listed them: ``[{"entry": id, "pot_share": n or None}]``."""
    if not isinstance(value, (list, tuple)) or len(value) > 9:
        raise ValidationFailed("bad_eliminators", _("Name the eliminators as a list of at most 9 players."), field="eliminators")
    out = []
    for e in value:
        item = e if isinstance(e, dict) else {"entry": e}
        try:
            entry_id = _entry_id(item.get("entry"))
        except (TypeError, ValueError):
            raise ValidationFailed("bad_eliminators", _("Name an eliminator by an entry number."), field="eliminators") from None
        out.append({"entry": entry_id, "pot_share": item.get("pot_share")})
    return out


def _eliminators_elsewhere(t, room, where: dict, eliminators: dict, tapped_table=None, tapped_at=None) -> list[dict]:
    """The named eliminators not seated at the table of the player they knocked out, at the
    moment of the bust (a same-hand group's at their one table, a simultaneous bust's each at
    his own): ``[{"entry", "table" (None: no seat), "out", "out_table", "number", "out_number"}]``.
    An eliminator with no seat who is not playing is left to payouts, which refuses him.

    A bust a tablet queued offline (``tapped_at``): an eliminator who sat at the table of the
    player out when it was tapped (``tapped_table``, or where that player sat then) and has
    been moved since won the pot all the same; he is listed with ``tapped_table`` set."""
    found = []
    for out, named in eliminators.items():
        for e in named:
            seat = room.seat_of(e["entry"])
            if seat is None or seat[0] != where[out][0]:
                found.append({"entry": e["entry"], "table": seat[0] if seat else None, "out": out, "out_table": where[out][0]})
    if tapped_at is not None:
        for f in found:
            if f["table"] is None:
                continue
            hand_table = (tapped_table or {}).get(f["out"]) or table_at(t, f["out"], tapped_at, where[f["out"]])
            if hand_table is not None and table_at(t, f["entry"], tapped_at, room.seat_of(f["entry"])) == hand_table:
                f["tapped_table"] = hand_table
    unseated = {f["entry"] for f in found if f["table"] is None}
    if unseated:
        playing = set(Entry.objects.filter(tournament=t, pk__in=unseated, status=Entry.ACTIVE).values_list("pk", flat=True))
        found = [f for f in found if f["table"] is not None or f["entry"] in playing]
    if found:
        numbers = dict(Entry.objects.filter(pk__in={f["entry"] for f in found} | {f["out"] for f in found}).values_list("pk", "number"))
        for f in found:
            f["number"], f["out_number"] = numbers.get(f["entry"], f["entry"]), numbers.get(f["out"], f["out"])
    return found


_NO_SNAPSHOTS = [
    Action.SEATING_MOVES_PROPOSED.value,
    Action.SEATING_TABLE_BROKEN.value,
    Action.SEATING_FINAL_TABLE_FORMED.value,
    Action.SEATING_MANUAL_DRAW_OPENED.value,
]


def table_at(t, entry_id: int, when, seat: tuple[int, int]) -> int | None:
    """The table a seated player sat at, at ``when`` (the tap of a queued action); ``seat``: his
    seat now. His seat row says when he took it: before ``when``, he sat there then. Otherwise
    every change of the seat map since is in the event log with the tables it touched as they
    were before it (``before``, the undo source: a break, a balancing move, a move by hand, an
    undo): the first change from ``when`` on that touched his table shows where he sat until
    then. None when the log does not say (he sat down without a logged change)."""
    seated_at = Seat.objects.filter(entry_id=entry_id).values_list("seated_at", flat=True).first()
    if seated_at is None:
        return None
    if seated_at < when:
        return seat[0]
    # Only seating's own events change the seat map (``plan.settle`` writes them, with the
    # snapshots); the draws' and plans' events carry every table as their input and no snapshot.
    changes = (
        TournamentEvent.objects.filter(tournament=t, action__startswith="seating.", created_at__gte=when)
        .exclude(action__in=_NO_SNAPSHOTS)
        .order_by("id")
        .values_list("payload__before", flat=True)  # only the snapshots before, not the whole payload
    )
    # The change that moved him names him, so the reading stops there at the latest; usually
    # sooner: any bust at his table is a change of it.
    for before in changes.iterator(chunk_size=50):
        for snap in before if isinstance(before, list) else ():
            if isinstance(snap, dict) and any(len(s) > 1 and s[1] == entry_id for s in snap.get("seats") or ()):
                return snap.get("number")
    return None


def next_simultaneous_group(t) -> int:
    last = Bust.objects.filter(tournament=t, simultaneous_group__isnull=False).order_by("-simultaneous_group").first()
    return (last.simultaneous_group if last else 0) + 1


def _engine_busts(busts: list[Bust]) -> list[engine.Bust]:
    """Busts in order, as the engine ranks them. The clock numbers hand-for-hand hands from 1
    each time hand-for-hand starts, so one hand is the run of consecutive busts with the
    same number; the engine gets the order of the run's first bust as the hand's key.
    Busts marked simultaneous (ELM-03) all carry their group's first order: the engine shares
    the places of busts whose order is equal."""
    first_of: dict[int, int] = {}
    for b in busts:
        if b.simultaneous_group is not None:
            first_of[b.simultaneous_group] = min(first_of.get(b.simultaneous_group, b.order), b.order)
    out, key, previous = [], None, None
    for b in busts:
        if b.simultaneous_group is not None:
            out.append(engine.Bust(b.entry_id, b.table_number, b.seat_number, first_of[b.simultaneous_group], b.hand_group, None, b.starting_stack))
            previous = b
            continue
        if b.h4h_hand is None:
            key = None
        elif previous is None or previous.h4h_hand != b.h4h_hand:
            key = b.order
        out.append(engine.Bust(b.entry_id, b.table_number, b.seat_number, b.order, b.hand_group, key, b.starting_stack))
        previous = b
    return out


@service
def mark_simultaneous(tournament, busts, *, actor, reason: str, now=None):
    """ELM-03: the floor cannot tell in which order these players went out at different tables
    (outside hand-for-hand): afterwards, with a reason, they become one tie group sharing the
    places and their prizes equally (ELM-06). ``busts``: two or more standing busts (rows or
    ids), next to each other in the bust order (no other player out between them)."""
    now = now or timezone.now()
    reason = (reason or "").strip()
    if not reason:
        raise ValidationFailed("reason_required", _("Marking busts as simultaneous needs a reason."))
    ids = sorted({_entry_id(b) for b in busts})
    if len(ids) < 2:
        raise ValidationFailed(
            "simultaneous_needs_players", _("Simultaneous busts are two or more players at different tables, not the same hand at one table.")
        )
    t, room = lock(tournament)
    if t.status != Tournament.RUNNING:
        raise SeatingActionError("not_running", _("Busts are recorded once the tournament is running."))
    rows = list(Bust.objects.filter(tournament=t, pk__in=ids, void="").order_by("order"))
    if len(rows) != len(ids):
        raise SeatingActionError("bust_not_found", _("A bust named is not a standing bust of this tournament."))
    if any(b.h4h_hand is not None for b in rows):
        raise SeatingActionError("simultaneous_in_h4h", _("During hand-for-hand the busts of one hand are ranked together already."))
    if len({b.table_number for b in rows}) < 2:
        raise SeatingActionError("simultaneous_one_table", _("These players went out at one table: record them as out on the same hand instead."))
    if any(b.simultaneous_group is not None for b in rows):
        raise SeatingActionError("already_simultaneous", _("A bust named is already marked simultaneous."))
    between = Bust.objects.filter(tournament=t, void="", order__gt=rows[0].order, order__lt=rows[-1].order).exclude(pk__in=ids)
    if between.exists():
        raise SeatingActionError("not_consecutive", _("Other players went out between these busts: name them too, or mark only busts next to each other."))
    group = next_simultaneous_group(t)
    before = {b.entry_id: (b.place, b.shared_with) for b in rows}
    Bust.objects.filter(pk__in=ids).update(simultaneous_group=group, simultaneous_reason=reason[:200])
    recompute_places(t)
    after = list(Bust.objects.filter(pk__in=ids).order_by("order"))
    return settle(
        t,
        room,
        actor,
        Action.SEATING_BUSTS_SIMULTANEOUS,
        replan=False,
        snapshots=False,
        now=now,
        reason=reason[:200],
        group=group,
        busts=[
            {"bust": b.pk, "entry": b.entry_id, "table": b.table_number, "place": b.place, "shared_with": b.shared_with, "place_before": before[b.entry_id][0]}
            for b in after
        ],
    )


@service
def remove_entry(tournament, entry, *, actor, reason: str = "", now=None):
    """A player removed from the tournament (disqualified, PEN-07): out now, ranked by the
    time of removal like any bust. Not seated (the tournament has not started): nothing."""
    t, room = lock(tournament)
    seated = room.seat_of(_entry_id(entry)) is not None
    room.release()
    if t.status != Tournament.RUNNING or not seated:
        return None
    return record_bust(t, [entry], actor=actor, reason=reason or "removed", kind=Bust.REMOVED, now=now)


@service
def forfeit_entries(tournament, entries, *, actor, reason: str = "", now=None):
    """REG-09 FORFEIT_AT: the players who had not arrived by the deadline are out together at
    ``now`` (removals, ranked by that time). Their order cannot be told, so two or more share
    their places (ELM-03 / ELM-06; in hand-for-hand the hand's policy ranks them). Their seats
    are freed and balancing follows, as for any bust. Entries without a seat: nothing."""
    t, room = lock(tournament)
    seated = [_entry_id(e) for e in entries if room.seat_of(_entry_id(e)) is not None]
    room.release()
    if t.status != Tournament.RUNNING or not seated:
        return None
    clock = clock_of(t)
    h4h = clock is not None and clock.status == Clock.HAND_FOR_HAND
    return record_bust(t, seated, actor=actor, reason=reason or "no-show", kind=Bust.REMOVED, simultaneous=len(seated) > 1 and not h4h, now=now)


@service
def undo_bust(tournament, bust, *, actor, reason: str = "", now=None):
    """Undo a recorded bust (a mistake): the players sit again exactly where they sat, the
    tables broken because of it are restored, their slips are cancelled, places recomputed.

    Every player recorded with it on the same call is restored too. Refused when the tables
    it touched have changed since: the refusal lists the later changes to undo first
    (``later``: event, description, how to undo it; ``undo.undo_bust_and_later`` does all).
    """
    now = now or timezone.now()
    t, room = lock(tournament)
    bust = Bust.objects.select_related("event").get(pk=_entry_id(bust), tournament=t)
    refuse_if_void(bust)
    refuse_if_ended(t)
    group = list(Bust.objects.filter(tournament=t, event=bust.event_id, void="")) if bust.event_id else [bust]
    if Entry.objects.filter(pk__in=[b.entry_id for b in group]).exclude(status=Entry.BUSTED).exists():
        raise SeatingActionError("not_busted", _("A player of this bust is no longer out."))
    try:
        restore(room, bust.event.payload if bust.event_id else {})
    except SeatingActionError as refusal:  # say which later changes to undo first, and carry them
        raise undo_first(t, bust.event, refusal) if bust.event_id else refusal from None
    Bust.objects.filter(pk__in=[b.pk for b in group]).update(void=Bust.UNDONE, voided_at=now)
    # a no-show's removal undone (REG-09: the player was there after all) is no longer a no-show
    Entry.objects.filter(pk__in=[b.entry_id for b in group]).update(status=Entry.ACTIVE, busted_at=None, place=None, no_show_at=None)
    slips = PendingMove.objects.filter(tournament=t, cause=bust.event_id, status__in=(PendingMove.PROPOSED, PendingMove.WAITING))
    undone = list(slips.values_list("pk", flat=True))
    slips.update(status=PendingMove.UNDONE)
    for pk in undone:
        room.proposals.pop(pk, None)
        room.held.pop(pk, None)
    recompute_places(t)
    signals.busts_undone.send(sender=Tournament, tournament=t, actor=actor, busts=group)  # payouts takes their bounties back
    # Nothing breaks or forms on an undo: the tables are back as they were before the bust (a
    # final table the bust formed is undone with it, not formed again around the player restored).
    return settle(
        t,
        room,
        actor,
        Action.SEATING_BUST_UNDONE,
        structural=False,
        now=now,
        busts=[b.pk for b in group],
        entries=[b.entry_id for b in group],
        slips_undone=undone,
        reason=reason,
    )


def refuse_if_void(bust) -> None:
    """A bust undone or bought back already cannot be undone (again)."""
    if bust.void:
        raise SeatingActionError("already_void", _("This bust has already been undone or bought back."))


def refuse_if_ended(t) -> None:
    """An ended tournament's busts and moves stand: its tables went back to the room (another
    event may play there now), its dealers to the pool, its places to the payouts and the
    league. A player brought back would sit at a table the room has given away."""
    if t.status in (Tournament.FINISHED, Tournament.CANCELLED):
        raise SeatingActionError("tournament_closed", _("This tournament has ended: its busts and moves can no longer be undone."))


def void_bust(t, entry_id: int, why: str, now=None) -> bool:
    """The entry's standing bust no longer counts (a rebuy bought it back, a cancelled entry)."""
    n = Bust.objects.filter(tournament=t, entry_id=entry_id, void="").update(void=why, voided_at=now or timezone.now())
    return bool(n)


def recompute_places(t) -> None:
    """Every finishing place from the bust list (ELM-01..06), for the changes that move
    places other than the newest: a late entry, a rebuy after a bust, an undo, a cancel.

    The first player out finishes at the number of entries (playing or out); the last
    player left, once only one remains, is first.
    """
    busts = list(Bust.objects.filter(tournament=t, void="").order_by("order"))
    # REG-05: a paid entry of a person banned since, never seated, is not in the field.
    # Counted, not read: a late sale in a large field comes here, and reading every playing
    # entry would grow with the field under the tournament's lock. The banned are few, read by
    # their own index first: then only their entries are looked at, not every entry joined
    # to its person and seat.
    entries = Entry.objects.filter(tournament=t)
    counts = entries.aggregate(active=Count("pk", filter=Q(status=Entry.ACTIVE)), out=Count("pk", filter=Q(status=Entry.BUSTED)))
    banned = list(Person.objects.filter(banned=True).order_by().values_list("pk", flat=True))
    kept_out = list(entries.filter(status=Entry.ACTIVE, person_id__in=banned, seat__isnull=True).values_list("pk", flat=True)) if banned else []
    field = entries.filter(status=Entry.ACTIVE).exclude(pk__in=kept_out)
    playing = counts["active"] - len(kept_out)
    total = playing + counts["out"]
    winner = field.values_list("pk", flat=True).first() if playing == 1 and busts else None
    with engine_errors():
        places = {p.player: p for p in engine.finishing_places(_engine_busts(busts), total, h4h_policy=house(t).h4h_simultaneous_policy, winner=winner)}
    changed = []
    for b in busts:
        p = places[b.entry_id]
        if (b.place, b.shared_with) != (p.place, p.shared_with):
            b.place, b.shared_with = p.place, p.shared_with
            changed.append(b)
    if changed:
        sql.update_rows(Bust, ["place", "shared_with"], [(b.pk, b.place, b.shared_with) for b in changed])
        sql.update_rows(Entry, ["place"], [(b.entry_id, b.place) for b in changed])
    # Nobody still playing has a place, but the winner once only he is left (an undone bust
    # or a rebuy takes a place away): one UPDATE, which usually finds nothing to change.
    placed = field.filter(place__isnull=False)
    if winner is not None:
        placed = placed.exclude(pk=winner)
        Entry.objects.filter(pk=winner).exclude(place=1).update(place=1)
    placed.update(place=None)
