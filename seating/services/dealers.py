"""The dealers of a room: the roster, the pushes that rotate them, the table a dealer
deals now, and what the next push will do.

The rotation's rules are the pure ``seating.engine.dealers``; here the roster and the record are
read (``DealerShift``: who is in today, from when to when; ``DealerAssignment``: where each dealer
was, from when to when) and a push is written: every dealer whose place changes gets a new open
row, the old one closed. A table that opens takes a dealer from the pool at once, a table that
breaks sends its dealer there (``table_opened``, ``table_closed``: the room's write-back calls
them with the tables). A dealer on the roster reports busts and hands only from the table he is
assigned (``check_dealer_at``).
"""

from __future__ import annotations

import math
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager import dates, policy
from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.roles import has_role, user_roles
from tdmanager.transactions import service
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import log_event
from tournaments.live.snapshot import clock_snapshot
from tournaments.models import Clock, Tournament

from ..engine import dealers as rotation
from ..models import ENDED_EVENTS as ENDED
from ..models import CardRoom, DealerAssignment, DealerShift, RoomTable

HOLD_SECONDS = 90  # CLK-05: no push in the last 90 s before a level change or a break
MAX_SHIFT = timedelta(hours=16)


def dealer_name(user) -> str:
    return (user.get_full_name() or user.get_username()).strip()


# --- the roster -------------------------------------------------------------------------------


@service
def add_shift(room: CardRoom, dealer, starts_at, ends_at, *, actor) -> DealerShift:
    """A dealer on the roster: in the room from ``starts_at`` to ``ends_at`` (a login of the dealer
    role; at most 16 hours)."""
    user = get_user_model().objects.filter(pk=getattr(dealer, "pk", dealer)).first()
    if user is None or not has_role(user, policy.DEALER) or has_role(user, policy.DIRECTOR):
        raise ValidationFailed("invalid", _("Choose a login of the dealer role."), field="dealer")
    # before any arithmetic: a start near year 9999 overflows when the 16 hours are added
    dates.check(starts_at, "starts_at", _("From"))
    dates.check(ends_at, "ends_at", _("Until"))
    if starts_at is None or ends_at is None or not starts_at < ends_at <= starts_at + MAX_SHIFT:
        raise ValidationFailed("invalid", _("A shift ends after it begins, at most 16 hours later."), field="ends_at")
    if DealerShift.objects.filter(dealer=user, starts_at__lt=ends_at, ends_at__gt=starts_at).exists():
        raise DomainError("shift_overlaps", _("This dealer is already on the roster at that time."), field="starts_at")
    shift = DealerShift.objects.create(room=room, dealer=user, starts_at=starts_at, ends_at=ends_at)
    log_event(
        None,
        Action.ROOM_SHIFT_ADDED,
        actor,
        room=room.pk,
        room_name=room.name,
        dealer=dealer_name(user),
        starts_at=starts_at.isoformat(),
        ends_at=ends_at.isoformat(),
    )
    return shift


@service
def remove_shift(room: CardRoom, shift_id: int, *, actor, now=None) -> None:
    """Take a shift off the roster (a dealer called in sick, or gone home early): where he is now ends."""
    now = now or timezone.now()
    shift = DealerShift.objects.select_for_update().filter(room=room, pk=shift_id).select_related("dealer").first()
    if shift is None:
        raise DomainError("not_found", _("There is no such shift."), status=404)
    if shift.starts_at <= now < shift.ends_at:
        DealerAssignment.objects.filter(room=room, dealer=shift.dealer, ends_at__isnull=True).update(ends_at=now)
    shift.delete()
    log_event(None, Action.ROOM_SHIFT_REMOVED, actor, room=room.pk, room_name=room.name, dealer=dealer_name(shift.dealer))


@service
def save_rotation(room: CardRoom, *, actor, push_minutes: int, break_after: int, break_minutes: int) -> CardRoom:
    """The room's rotation: a push every ``push_minutes`` (10–60), a break of ``break_minutes``
    (5–60) after ``break_after`` minutes dealt (30–480)."""
    for name, value, lo, hi in (("push_minutes", push_minutes, 10, 60), ("break_after", break_after, 30, 480), ("break_minutes", break_minutes, 5, 60)):
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise ValidationFailed("invalid", _("%(field)s: a whole number from %(lo)s to %(hi)s.") % {"field": name, "lo": lo, "hi": hi}, field=name)
    room = CardRoom.objects.select_for_update().get(pk=room.pk)
    room.push_minutes, room.break_after, room.break_minutes = push_minutes, break_after, break_minutes
    room.save(update_fields=["push_minutes", "break_after", "break_minutes"])
    log_event(
        None,
        Action.ROOM_ROTATION_SET,
        actor,
        room=room.pk,
        room_name=room.name,
        push_minutes=push_minutes,
        break_after=break_after,
        break_minutes=break_minutes,
    )
    return room


# --- reading the room -------------------------------------------------------------------------


def on_shift(room_id: int, now) -> dict[int, DealerShift]:
    """The dealers on the roster now, by login."""
    return {
        s.dealer_id: s for s in DealerShift.objects.filter(room_id=room_id, starts_at__lte=now, ends_at__gt=now).select_related("dealer").order_by("starts_at")
    }


def tables_in_play(room_id: int) -> list[int]:
    """The room's tables an event plays at, in the house's order."""
    return list(
        RoomTable.objects.filter(room_id=room_id, held_by__isnull=False)
        .exclude(held_by__status__in=ENDED)
        .order_by("position", "number")
        .values_list("number", flat=True)
    )


def states(room: CardRoom, now, shifts: dict[int, DealerShift]) -> list[rotation.DealerState]:
    """Each dealer on the roster as the rotation sees him: his table now, the table he dealt
    last, the minutes dealt since his last break (or his shift's start), his break still to go."""
    rows: dict[int, list[DealerAssignment]] = {}
    first = min((s.starts_at for s in shifts.values()), default=now)
    for a in (
        DealerAssignment.objects.filter(room=room, dealer_id__in=list(shifts))
        .filter(Q(ends_at__isnull=True) | Q(ends_at__gt=first))
        .order_by("starts_at", "pk")
    ):
        rows.setdefault(a.dealer_id, []).append(a)
    out = []
    for dealer_id, shift in shifts.items():
        mine = [a for a in rows.get(dealer_id, []) if (a.ends_at or now) > shift.starts_at]
        current = next((a for a in mine if a.ends_at is None), None)
        last_table = next((a.table for a in reversed(mine) if a.kind == DealerAssignment.DEAL), None)
        since = max([shift.starts_at] + [a.ends_at or now for a in mine if a.kind == DealerAssignment.BREAK])
        dealt = sum(
            (min(a.ends_at or now, now) - max(a.starts_at, since)).total_seconds()
            for a in mine
            if a.kind == DealerAssignment.DEAL and (a.ends_at or now) > since
        )
        break_left = 0
        if current is not None and current.kind == DealerAssignment.BREAK:
            break_left = max(0, math.ceil(room.break_minutes - (now - current.starts_at).total_seconds() / 60))
        table = current.table if current is not None and current.kind == DealerAssignment.DEAL else None
        out.append(rotation.DealerState(dealer_id, table, last_table, int(dealt // 60), break_left))
    return out


def held_tables(room_id: int, now) -> set[int]:
    """CLK-05: the tables whose event changes level or goes on a break within 90 s: their dealers
    hold the push until after."""
    held = set()
    by_event: dict[int, list[int]] = {}
    for number, tid in RoomTable.objects.filter(room_id=room_id, held_by__status=Tournament.RUNNING).values_list("number", "held_by_id"):
        by_event.setdefault(tid, []).append(number)
    for t in Tournament.objects.filter(pk__in=list(by_event), clock__status=Clock.RUNNING):
        left = clock_snapshot(t, now).get("seconds_left")
        if left is not None and left <= HOLD_SECONDS:
            held.update(by_event[t.pk])
    return held


# --- the push ---------------------------------------------------------------------------------


def _write(room: CardRoom, now, plan: rotation.PushPlan, push: int) -> list[dict]:
    """The assignments of ``plan`` recorded: each dealer whose place changes gets a new open row.
    Returns the changes (dealer, from, to) for the log."""
    current = {a.dealer_id: a for a in DealerAssignment.objects.filter(room=room, ends_at__isnull=True)}
    names = {u.pk: dealer_name(u) for u in get_user_model().objects.filter(pk__in={a.dealer for a in plan.assignments})}
    changes, new = [], []
    for a in plan.assignments:
        old = current.pop(a.dealer, None)
        if old is not None and (old.kind, old.table) == (a.kind, a.table):
            continue
        if old is not None:
            old.ends_at = now
            old.save(update_fields=["ends_at"])
        new.append(DealerAssignment(room=room, dealer_id=a.dealer, kind=a.kind, table=a.table, starts_at=now, push=push))
        changes.append({"dealer": names.get(a.dealer, str(a.dealer)), "from": old.table if old is not None else None, "to": a.table, "kind": a.kind})
    DealerAssignment.objects.bulk_create(new)
    # dealers no longer on the roster leave the room
    DealerAssignment.objects.filter(pk__in=[a.pk for a in current.values()]).update(ends_at=now)
    # a dealer is in one place at a time: placed here, he has left the room he was in before (his
    # shift there ended, and that room was not pushed since)
    placed = [a.dealer for a in plan.assignments]
    DealerAssignment.objects.filter(dealer_id__in=placed, ends_at__isnull=True).exclude(room=room).update(ends_at=now)
    return changes


def plan_for(room: CardRoom, now) -> rotation.PushPlan:
    shifts = on_shift(room.pk, now)
    return rotation.plan_push(
        tables_in_play(room.pk), states(room, now, shifts), break_after=room.break_after, held=held_tables(room.pk, now), grace=room.push_minutes
    )


@service
def push(room: CardRoom, *, actor=None, now=None) -> rotation.PushPlan:
    """Rotate the room's dealers now (the floor's "push now", or the beat when one is due)."""
    now = now or timezone.now()
    room = CardRoom.objects.select_for_update().get(pk=room.pk)
    plan = plan_for(room, now)
    room.pushes += 1
    room.last_push_at = now
    room.save(update_fields=["pushes", "last_push_at"])
    changes = _write(room, now, plan, room.pushes)
    log_event(
        None,
        Action.ROOM_DEALERS_PUSHED,
        actor,
        room=room.pk,
        room_name=room.name,
        push=room.pushes,
        moves=len(changes),
        changes=changes,
        uncovered=plan.uncovered,
    )
    return plan


def next_push_at(room: CardRoom, now):
    return (room.last_push_at + timedelta(minutes=room.push_minutes)) if room.last_push_at else now


@service
def push_when_due(now=None) -> int:
    """The beat's minute: every room whose push is due and that has dealers on its roster is pushed.
    Returns how many rooms were."""
    now = now or timezone.now()
    done = 0
    for room in CardRoom.objects.filter(shifts__starts_at__lte=now, shifts__ends_at__gt=now).distinct():
        if next_push_at(room, now) <= now:
            push(room, now=now)
            done += 1
    return done


def preview(room: CardRoom, now) -> dict:
    """What the next push will do, for the floor to announce and print: at what time, and each
    dealer's move (table to table, to a break, to the pool), as if the room stayed as it is."""
    room = CardRoom.objects.get(pk=room.pk)  # its last push as written
    at = max(next_push_at(room, now), now)
    shifts = on_shift(room.pk, at)
    ahead = (at - now).total_seconds() // 60
    projected = [
        rotation.DealerState(d.id, d.table, d.last_table, d.dealt + (ahead if d.table is not None else 0), max(0, d.break_left - ahead) if d.break_left else 0)
        for d in states(room, now, shifts)
    ]
    plan = rotation.plan_push(tables_in_play(room.pk), projected, break_after=room.break_after, held=held_tables(room.pk, at), grace=room.push_minutes)
    names = {pk: dealer_name(s.dealer) for pk, s in shifts.items()}
    now_at = {d.id: d.table for d in projected}
    moves = [{"dealer": names[a.dealer], "dealer_id": a.dealer, "from": now_at.get(a.dealer), "to": a.table, "kind": a.kind} for a in plan.assignments]
    moves.sort(key=lambda m: (m["kind"] != rotation.DEAL, m["to"] or 0, m["dealer"]))
    return {"at": at, "moves": moves, "uncovered": plan.uncovered}


def current(room_id: int) -> dict[int, DealerAssignment]:
    """Where each dealer of the room is now (his open row), by login."""
    return {a.dealer_id: a for a in DealerAssignment.objects.filter(room_id=room_id, ends_at__isnull=True).select_related("dealer")}


# --- tables opening and breaking (the room's write-back) -------------------------------------


def table_opened(room_id: int, numbers, now=None) -> None:
    """A table opened asks for a dealer: one from the pool (not one who dealt it last, if another
    is there), at once. Nothing when the room rosters no dealer."""
    now = now or timezone.now()
    waiting = list(DealerAssignment.objects.filter(room_id=room_id, ends_at__isnull=True, kind=DealerAssignment.POOL).order_by("starts_at", "pk"))
    if not waiting:
        return
    for number in numbers:
        if not waiting:
            break
        last = dict(
            DealerAssignment.objects.filter(room_id=room_id, dealer_id__in=[w.dealer_id for w in waiting], kind=DealerAssignment.DEAL)
            .order_by("dealer_id", "starts_at")
            .values_list("dealer_id", "table")
        )
        pick = next((w for w in waiting if last.get(w.dealer_id) != number), waiting[0])
        waiting.remove(pick)
        pick.ends_at = now
        pick.save(update_fields=["ends_at"])
        DealerAssignment.objects.create(room_id=room_id, dealer_id=pick.dealer_id, kind=DealerAssignment.DEAL, table=number, starts_at=now)


def table_closed(room_id: int, numbers, now=None) -> None:
    """A table that broke sends its dealer to the pool."""
    now = now or timezone.now()
    dealing = list(DealerAssignment.objects.filter(room_id=room_id, ends_at__isnull=True, kind=DealerAssignment.DEAL, table__in=list(numbers)))
    for a in dealing:
        a.ends_at = now
        a.save(update_fields=["ends_at"])
    DealerAssignment.objects.bulk_create(DealerAssignment(room_id=room_id, dealer_id=a.dealer_id, kind=DealerAssignment.POOL, starts_at=now) for a in dealing)


# --- a dealer at his table --------------------------------------------------------------------


def reports_as_dealer(user) -> bool:
    """A dealer (ROLE-01) who is not also the floor or the director: his reports are his table's."""
    roles = user_roles(user)
    return policy.DEALER in roles and not policy.holds(roles, (policy.DIRECTOR, policy.FLOOR))


def assignment_of(user) -> DealerAssignment | None:
    """Where a dealer on the roster is now (his open row), if anywhere."""
    if user is None or not getattr(user, "pk", None):
        return None
    return DealerAssignment.objects.filter(dealer=user, ends_at__isnull=True).order_by("-starts_at", "-pk").first()


def assignment_at(user, when) -> DealerAssignment | None:
    """Where a dealer on the roster was at ``when`` (the tap of a queued action): the row open
    then. Rows are closed, never rewritten, when he moves: they are his history."""
    if user is None or not getattr(user, "pk", None):
        return None
    rows = DealerAssignment.objects.filter(dealer=user, starts_at__lte=when).filter(Q(ends_at__isnull=True) | Q(ends_at__gt=when))
    return rows.order_by("-starts_at", "-pk").first()


def check_dealer_at(t, card_room: int | None, table: int | None, user, tapped_at=None) -> None:
    """A dealer on the roster reports from the table he is assigned only (busts, a hand
    completed): refused (``not_your_table``) at another table or another event, on a break or in
    the pool. A dealer the venue does not roster names his table as before.

    An action a tablet queued offline (``tapped_at``) is judged by where he dealt when he tapped
    it, not where he deals when it arrives: a push in between moved him, and a table he dealt
    then is the one his tap is about (the seat map is checked at the tap too, by the service)."""
    if card_room is None:
        return
    if tapped_at is not None:
        a = assignment_at(user, tapped_at)
        if a is None and assignment_of(user) is None:  # on the roster neither then nor now
            return
        at = timezone.localtime(tapped_at).strftime("%H:%M")
        if a is None or a.kind != DealerAssignment.DEAL:
            raise DomainError(
                "not_your_table", _("When this was tapped (%(at)s) you were not dealing a table: ask the floor.") % {"at": at}, status=403, field="table"
            )
        if a.room_id != card_room:  # the same number may be a table of another room
            text = _("When this was tapped (%(at)s) you dealt table %(n)s of %(room)s, not this room's: ask the floor.")
            raise DomainError("not_your_table", text % {"at": at, "n": a.table, "room": a.room.name}, status=403, field="table")
        if a.table != table:
            raise DomainError(
                "not_your_table",
                _("When this was tapped (%(at)s) you dealt table %(n)s, not table %(x)s: ask the floor.") % {"at": at, "n": a.table, "x": table},
                status=403,
                field="table",
            )
        holder = RoomTable.objects.filter(room_id=a.room_id, number=a.table).values_list("held_by_id", flat=True).first()
        if holder not in (t.pk, None):  # None: the event's table broken since (its seat map at the tap vouches)
            raise DomainError("not_your_table", _("You deal table %(n)s: report from there.") % {"n": a.table}, status=403, field="table")
        return
    a = assignment_of(user)
    if a is None:
        return
    if a.kind != DealerAssignment.DEAL:
        raise DomainError("not_your_table", _("You are not dealing a table now (a break, or the pool): ask the floor."), status=403, field="table")
    if a.room_id != card_room:
        text = _("You deal table %(n)s of %(room)s: report from there.") % {"n": a.table, "room": a.room.name}
        raise DomainError("not_your_table", text, status=403, field="table")
    holder = RoomTable.objects.filter(room_id=a.room_id, number=a.table).values_list("held_by_id", flat=True).first()
    if a.table != table or holder != t.pk:
        raise DomainError("not_your_table", _("You deal table %(n)s: report from there.") % {"n": a.table}, status=403, field="table")


def my_assignment(user, now=None) -> dict | None:
    """A dealer's own page: where he deals now (the table and its event), since when, and his move
    at the next push. None for a dealer the venue does not roster."""
    now = now or timezone.now()
    a = assignment_of(user)
    if a is None:
        return None
    room = CardRoom.objects.get(pk=a.room_id)
    event = None
    if a.kind == DealerAssignment.DEAL:
        event = Tournament.objects.filter(pk=RoomTable.objects.filter(room=room, number=a.table).values("held_by_id")[:1]).values("pk", "name").first()
    upcoming = preview(room, now)
    move = next((m for m in upcoming["moves"] if m["dealer_id"] == user.pk), None)
    return {"kind": a.kind, "table": a.table, "since": a.starts_at, "event": event, "room": room.name, "next_at": upcoming["at"], "next": move}
