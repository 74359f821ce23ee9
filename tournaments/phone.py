"""The player's phone: a page for one entry, reached from the QR code on the receipt.

No login: the entry's ``phone_token`` (22 random characters, never the entry's id) is the key,
and an unknown token is a 404. The page gets only what this entry may see: its own seat and
move (seating answers ``signals.entry_view_parts``), its place and prize (payouts), and the
public part of the lobby snapshot (clock, blinds, players left, average stack, the payout
ladder) — never the seats, names or moves of the other players. It updates itself from the
same live stream as the lobby screens (``tdmanager.realtime``): each change's snapshot is
filtered for the entry before it is sent.
"""

import io

import segno
from asgiref.sync import sync_to_async
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse

from tdmanager import realtime

from . import signals
from .live import state_stream
from .models import Entry
from .snapshot import build_snapshot

#: The keys of the lobby snapshot a player's phone receives (what every lobby screen shows
#: anyway, without the seat list and the moves of the other players).
PUBLIC_KEYS = ("version", "seq", "server_time", "clock", "players_left", "entries", "average_stack", "late_registration_open",
               "late_registration_level", "addon_open", "announcements", "prize_pool", "prize_pool_label", "payouts", "places_paid")


def entry_for(token: str) -> Entry:
    """The entry whose phone token this is; anything else (a number, a guess) is a 404."""
    if not token or len(token) > 32:
        raise Http404
    entry = Entry.objects.select_related("tournament", "person").filter(phone_token=token).first()
    if entry is None or entry.status == Entry.CANCELLED:
        raise Http404
    return entry


def phone_path(entry: Entry) -> str:
    return reverse("phone", args=[entry.phone_token])


def qr_svg(url: str, scale: int = 4) -> bytes:
    """The QR code of ``url`` as an SVG document (segno, pure Python)."""
    buf = io.BytesIO()
    segno.make(url, error="m").save(buf, kind="svg", scale=scale, border=2, xmldecl=True)
    return buf.getvalue()


def phone_state(entry_id: int, snap: dict | None = None) -> dict:
    """What the phone page shows for this entry: the public part of ``snap`` (built when not
    given) and the entry's own data."""
    entry = Entry.objects.select_related("tournament", "person").get(pk=entry_id)
    t = entry.tournament
    snap = snap if snap is not None else build_snapshot(t)
    state = {key: snap[key] for key in PUBLIC_KEYS if key in snap}
    state["tournament"] = {"id": t.pk, "name": t.name, "status": t.status, "currency": t.currency}
    state["entry"] = {
        "number": entry.number,
        "name": entry.person.full_name,
        "status": entry.status,
        "place": entry.place,
        "busted_at": entry.busted_at.isoformat() if entry.busted_at else None,
    }
    state["seat"], state["move"], state["prizes"] = None, None, []
    for part in signals.ask(signals.entry_view_parts, entry=entry):  # seating: seat, move; payouts: prizes
        state.update(part)
    if entry.status != Entry.ACTIVE:
        state["seat"], state["move"] = None, None
    return state


def phone_page(request, token: str):
    entry = entry_for(token)
    return render(request, "phone.html", {"entry": entry, "t": entry.tournament, "token": token,
                                          "state": phone_state(entry.pk)})


def phone_data(request, token: str):
    """Polling fallback and the API's view of the page: the same JSON the stream sends."""
    entry = entry_for(token)
    return JsonResponse(phone_state(entry.pk))


def phone_qr(request, token: str):
    """The QR code of the page's address, an SVG from our own origin (CSP img-src 'self')."""
    entry = entry_for(token)
    response = HttpResponse(qr_svg(request.build_absolute_uri(phone_path(entry))), content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=86400"
    return response


async def phone_stream(request, token: str):
    """SSE: the entry's state now, then after every change of its tournament (the lobby
    screens' stream, filtered for this entry); a comment every 15 s."""
    entry = await sync_to_async(entry_for)(token)
    entry_id, tournament_id = entry.pk, entry.tournament_id

    def changed(text):
        """This entry's view of the hub's snapshot text (its own rows read; the snapshot is
        never rebuilt per phone)."""
        try:
            return phone_state(entry_id, realtime.parsed(text))
        except Entry.DoesNotExist:
            return None  # the entry is gone: end the stream

    return await state_stream(request, tournament_id, changed)
