"""The room page (issue #42): every physical table at a glance for the floor, and the inventory
the director keeps there. Thin: each POST calls one service of ``seating.services.cardrooms``;
refusals come back as messages. Works without script (plain forms)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tdmanager.errors import DomainError
from tdmanager.roles import DIRECTOR, has_role
from tournaments.models import Tournament
from tournaments.services.events import Actor

from . import selectors
from .models import CardRoom
from .services import cardrooms


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
    }
    return render(request, "seating/room.html", context)
