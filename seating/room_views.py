"""The room page: every physical table at a glance for the floor, and the inventory
the director keeps there. Thin: each POST calls one service of ``seating.services.cardrooms``;
refusals come back as messages. Works without script (plain forms)."""

import io
from datetime import date, datetime, time, timedelta

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager import csvsafe, dates, pdf
from tdmanager.errors import DomainError
from tdmanager.formatting import when
from tdmanager.roles import DEALER, DIRECTOR, FLOOR, has_role
from tournaments.eventlog.services import Actor
from tournaments.models import Tournament

from . import selectors
from .models import CardRoom, DealerShift
from .services import cardrooms, dealers


def _int(value):
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def _perform(room: CardRoom | None, post, actor) -> str:
    op, number = post.get("op"), _int(post.get("number"))
    if op == "add_room":
        made = cardrooms.save_room(post.get("name", ""), actor=actor)
        return _("Room %(name)s added.") % {"name": made.name}
    if room is None:
        raise DomainError("not_found", _("There is no such room."), status=404)
    if op == "add_shift":
        starts, ends = _when(post.get("starts_at")), _when(post.get("ends_at"))
        dealers.add_shift(room, _int(post.get("dealer")) or 0, starts, ends, actor=actor)
        return _("Dealer put on the roster.")
    if op == "remove_shift":
        dealers.remove_shift(room, _int(post.get("shift")) or 0, actor=actor)
        return _("Dealer taken off the roster.")
    if op == "push":
        plan = dealers.push(room, actor=actor)
        return _("Push done.") + (" " + _("Tables without a dealer: %(t)s.") % {"t": ", ".join(map(str, plan.uncovered))} if plan.uncovered else "")
    if op == "rotation":
        dealers.save_rotation(
            room,
            push_minutes=_int(post.get("push_minutes")),
            break_after=_int(post.get("break_after")),
            break_minutes=_int(post.get("break_minutes")),
            actor=actor,
        )
        return _("Rotation saved.")
    if op == "bring_in":
        done = cardrooms.bring_in(room, actor=actor)
        return " ".join(
            [_("%(event)s now plays at this room's tables %(tables)s.") % {"event": e["name"], "tables": _numbers(e["tables"])} for e in done["brought_in"]]
            + [_("%(event)s keeps its own numbers: %(why)s") % {"event": e["name"], "why": _left_reason(e)} for e in done["left"]]
        ) or _("No event plays without the room's tables.")
    if op == "add_tables":
        first, last, seats = _int(post.get("first")), _int(post.get("last")), _int(post.get("seats"))
        done = cardrooms.add_tables(room, first, last, seats=seats if seats is not None else 9, zone=post.get("zone", ""), actor=actor)
        said = [_("Tables %(first)s to %(last)s added.") % {"first": first, "last": last}] if done["added"] else []
        if done["kept"]:
            said.append(_("Already in the room, left as they were: %(tables)s.") % {"tables": _numbers(done["kept"])})
        return " ".join(said)
    if op == "rename_room":
        cardrooms.save_room(post.get("name", ""), room=room, actor=actor)
        return _("Room renamed.")
    if number is None:
        raise DomainError("invalid", _("Table number: from 1 to 9999."), field="number")
    if op == "save_table":
        seats, position = _int(post.get("seats")), _int(post.get("position"))
        cardrooms.save_table(room, number, seats=seats if seats is not None else 9, zone=post.get("zone", ""), position=position, actor=actor)
        return _("Table %(n)s saved.") % {"n": number}
    if op == "remove_table":
        cardrooms.remove_table(room, number, actor=actor)
        return _("Table %(n)s removed from the room.") % {"n": number}
    if op == "out":
        cardrooms.set_out_of_service(room, number, post.get("reason", ""), actor=actor)
        return _("Table %(n)s is out of service.") % {"n": number}
    if op == "back":
        cardrooms.back_in_service(room, number, actor=actor)
        return _("Table %(n)s is back in service.") % {"n": number}
    if op == "reserve":
        cardrooms.reserve(room, number, _int(post.get("tournament")) or 0, actor=actor)
        return _("Table %(n)s is kept for the event.") % {"n": number}
    if op == "lift":
        cardrooms.lift_reservation(room, number, actor=actor)
        return _("Table %(n)s is no longer kept.") % {"n": number}
    raise DomainError("unknown_action", _("Unknown table action."), status=404)


def _numbers(tables) -> str:
    return ", ".join(map(str, tables))


def _left_reason(event: dict) -> str:
    """Why ``cardrooms.bring_in`` left an event on its own numbers, in words."""
    reasons = {
        "not_in_room": _("the room has no table %(tables)s."),
        "taken": _("table %(tables)s of the room is not free."),
        "too_small": _("table %(tables)s of the room has fewer seats than the event's."),
    }
    return reasons[event["code"]] % {"tables": _numbers(event["tables"])}


def _when(value):
    """A ``datetime-local`` field's value in the venue's time zone, or None (the service bounds
    its year, ``tdmanager.dates``)."""
    parsed = dates.typed_moment(value)
    if parsed is None:
        return None
    try:
        return timezone.make_aware(parsed) if timezone.is_naive(parsed) else parsed
    except (OverflowError, ValueError):  # year 1 or 9999 shifted to UTC leaves Python's dates
        return None


def _dealer_rows(room: CardRoom, now) -> list[dict]:
    shifts = DealerShift.objects.filter(room=room, ends_at__gt=now - timedelta(hours=12)).select_related("dealer").order_by("starts_at", "pk")
    where = dealers.current(room.pk)
    by_dealer = {d.id: d for d in dealers.states(room, now, {s.dealer_id: s for s in shifts if s.starts_at <= now < s.ends_at})}
    rows = []
    for s in shifts:
        a = where.get(s.dealer_id) if s.starts_at <= now < s.ends_at else None
        state = by_dealer.get(s.dealer_id)
        rows.append({"shift": s, "name": dealers.dealer_name(s.dealer), "now": a, "dealt": state.dealt if state else None})
    return rows


def room_page(request, room_id=None):
    rooms = selectors.rooms()
    room = get_object_or_404(CardRoom, pk=room_id) if room_id is not None else CardRoom.objects.order_by("position", "pk").first()
    if request.method == "POST":
        try:
            messages.success(request, _perform(room, request.POST, Actor.from_request(request)))
        except DomainError as exc:
            messages.error(request, str(exc.message))
        target = room_id or (room.pk if room else None)
        return redirect("room-map-of", target) if target else redirect("room-map")
    context = {
        "rooms": rooms,
        "room": room,
        "map": selectors.room_map(room.pk) if room else None,
        "is_director_user": has_role(request.user, DIRECTOR),
        # the events a table may be kept for: those not started yet
        "upcoming": list(
            Tournament.objects.filter(status__in=(Tournament.PLANNED, Tournament.REGISTERING)).order_by("start_at", "pk").values("pk", "name")[:50]
        ),
        "seat_choices": range(cardrooms.MIN_SEATS, cardrooms.MAX_SEATS + 1),
        "may_roster": has_role(request.user, DIRECTOR, FLOOR),
        "without_room": list(cardrooms.playing_without_a_room().values("pk", "name")[:50]),
    }
    if room is not None:
        now = timezone.now()
        context.update(
            dealer_rows=_dealer_rows(room, now),
            preview=dealers.preview(room, now),
            dealer_logins=[(u.pk, dealers.dealer_name(u)) for u in get_user_model().objects.filter(groups__name=DEALER, is_active=True).order_by("username")],
            report_day=timezone.localdate(now).isoformat(),
        )
    return render(request, "seating/room.html", context)


def push_list(request, room_id):
    """The next push, printable: at what time, and each dealer's move."""
    room = get_object_or_404(CardRoom, pk=room_id)
    return render(request, "seating/push_list.html", {"room": room, "preview": dealers.preview(room, timezone.now())})


def _shift_report(request, room_id) -> tuple[CardRoom, date, dict]:
    """The dealers' shift report of a day (``?day=YYYY-MM-DD``, today by default), for payroll:
    one row a dealer (his tables and minutes at each, minutes dealt, breaks, minutes in the pool)."""
    room = get_object_or_404(CardRoom, pk=room_id)
    day = dates.query_day(request.GET.get("day"), "day", _("Report day"), timezone.localdate())
    start = timezone.make_aware(datetime.combine(day, time.min))
    rows = selectors.dealer_report(room.pk, start, start + timedelta(days=1))
    report = {
        "title": _("%(room)s — dealers' shift report, %(day)s") % {"room": room.name, "day": when(day, "date")},
        "columns": [_("Dealer"), _("Tables (minutes)"), _("Minutes dealt"), _("Breaks"), _("Minutes of break"), _("Minutes in the pool")],
        "rows": [
            [r["dealer"], "; ".join(f"{t['table']} ({t['minutes']})" for t in r["tables"]), r["dealt"], r["breaks"], r["break_minutes"], r["pool_minutes"]]
            for r in rows
        ],
        "totals": [(_("Minutes dealt"), sum(r["dealt"] for r in rows)), (_("Breaks"), sum(r["breaks"] for r in rows))],
    }
    return room, day, report


def _refused(exc: DomainError) -> HttpResponse:
    """A report asked for a day it cannot be (no date, or outside 2000–2100): a 400 that says
    which parameter and why, as text, since the answer is a file and not a page."""
    return HttpResponse(str(exc.message), status=exc.status, content_type="text/plain; charset=utf-8")


def dealer_report_csv(request, room_id):
    try:
        room, day, report = _shift_report(request, room_id)
    except DomainError as exc:
        return _refused(exc)
    out = io.StringIO()
    w = csvsafe.Writer(out)  # no cell a spreadsheet runs as a formula
    w.writerow(report["columns"])
    for row in report["rows"]:
        w.writerow(row)
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="dealers-{room.pk}-{day.isoformat()}.csv"'
    return response


def dealer_report_pdf(request, room_id):
    try:
        room, day, report = _shift_report(request, room_id)
    except DomainError as exc:
        return _refused(exc)
    response = HttpResponse(pdf.table_pdf(report), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="dealers-{room.pk}-{day.isoformat()}.pdf"'
    return response


def room_screen(request, room_id):
    """The room map on a screen of its own for the floor: every table large, nothing to press;
    its script reads the page again every 20 seconds and puts the new map in place."""
    room = get_object_or_404(CardRoom, pk=room_id)
    return render(request, "seating/room_screen.html", {"room": room, "map": selectors.room_map(room.pk), "preview": dealers.preview(room, timezone.now())})
