"""The player's phone: a page for one entry, reached from the QR code on the receipt.

No login: the entry's ``phone_token`` (22 random characters, never the entry's id) is the key,
and an unknown token is a 404. The page gets only what this entry may see: its own seat and
move (seating answers ``signals.entry_view_parts``), its place and prize (payouts), and the
public part of the lobby snapshot (clock, blinds, players left, average stack, the payout
ladder) — never the seats, names or moves of the other players. It updates itself from the
lobby screens' hub (``tdmanager.realtime``): per change the hub builds, once for every phone of
the tournament, the public part and an index of every entry's own part (``phone_index``), so a
phone's frame is taken from memory, never read for that phone.
"""

import functools
import io
import json
from typing import NamedTuple

import segno
from django.conf import settings
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse

from tdmanager import links, realtime
from tdmanager.security import no_store
from tournaments import signals
from tournaments.house import HouseRules
from tournaments.live import views as live
from tournaments.live.snapshot import build_snapshot
from tournaments.models import Entry, Tournament

#: The keys of the lobby snapshot a player's phone receives (what every lobby screen shows
#: anyway, without the seat list and the moves of the other players).
PUBLIC_KEYS = (
    "version",
    "seq",
    "server_time",
    "clock",
    "players_left",
    "entries",
    "average_stack",
    "late_registration_open",
    "late_registration_level",
    "addon_open",
    "announcements",
    "players_told",
    "changes",
    "prize_pool",
    "prize_pool_label",
    "payouts",
    "places_paid",
    "h4h_in_the_money",
    "h4h_last_hand",
)


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


def public_state(snap: dict) -> dict:
    """The part of the lobby snapshot every phone of the tournament receives (the same for all)."""
    state = {key: snap[key] for key in PUBLIC_KEYS if key in snap}
    t = snap["tournament"]
    state["tournament"] = {"id": t["id"], "name": t["name"], "status": t["status"], "currency": t["currency"]}
    return state


def entry_part(number: int, name: str, status: str, place, busted_at, parts: dict) -> dict:
    """One entry's own part of its phone page: the entry, its seat and move (seating), the
    prizes it won and a bounty event's bounty (payouts); no seat and no move once it is out."""
    part = {
        "entry": {"number": number, "name": name, "status": status, "place": place, "busted_at": busted_at.isoformat() if busted_at else None},
        "seat": None,
        "move": None,
        "prizes": [],
        "bounty": None,
    }
    part.update(parts)
    if status != Entry.ACTIVE:
        part["seat"], part["move"] = None, None
    return part


class Own(NamedTuple):
    """One entry's own part in the phones' index: ``key`` (what it was made from, compared at
    the next change), ``part`` (the dict), ``frame`` (its Server-Sent Event, encoded once),
    ``token`` (its phone token: the web app serves a known token's stream from memory)."""

    key: tuple
    part: dict
    frame: bytes
    token: str


def phone_index(tournament_id: int, snap: dict, previous: dict[int, Own]) -> tuple[dict, dict[int, Own]]:
    """What every phone of the tournament shows, for one change: the public part, and each
    entry's own part by entry id (``Own``), read in a few queries whatever the field (the other
    apps answer ``signals.entries_view_parts`` for all entries at once). An entry whose rows
    did not change since ``previous`` keeps its ``Own`` as it was, the very object, so a stream
    tells a change by identity and nothing is made again for the others. A cancelled entry has
    none: its stream ends."""
    tournament = Tournament.objects.get(pk=tournament_id)
    answers = signals.ask(signals.entries_view_parts, tournament=tournament, snapshot=snap)  # seating: seats, moves; payouts: prizes
    rows = (
        Entry.objects.filter(tournament_id=tournament_id)
        .exclude(status=Entry.CANCELLED)
        .order_by()
        .values_list("pk", "number", "person__first_name", "person__last_name", "status", "place", "busted_at", "phone_token")
    )
    own = {}
    for row in rows:
        pk = row[0]
        key = (row, *(answer.get(pk) for answer in answers))
        was = previous.get(pk)
        if was is not None and was.key == key:
            own[pk] = was
            continue
        parts: dict = {}
        for part in key[1:]:
            parts.update(part or {})
        _pk, number, first, last, status, place, busted_at, token = row
        part = entry_part(number, f"{first} {last}".strip(), status, place, busted_at, parts)
        own[pk] = Own(key, part, realtime.sse_event("entry", part), token)
    return public_state(snap), own


def phone_state(entry_id: int, snap: dict | None = None) -> dict:
    """What the phone page shows for this entry, in one dict: the public part of ``snap`` (built
    when not given) and the entry's own (the page's first state, and its polling fallback)."""
    entry = Entry.objects.select_related("tournament", "person").get(pk=entry_id)
    snap = snap if snap is not None else build_snapshot(entry.tournament)
    parts: dict = {}
    for part in signals.ask(signals.entry_view_parts, entry=entry):  # seating: seat, move; payouts: prizes
        parts.update(part)
    state = public_state(snap)
    state.update(entry_part(entry.number, entry.person.full_name, entry.status, entry.place, entry.busted_at, parts))
    return state


def phone_page(request, token: str):
    """The player's page. Its first state is the hub's latest build while it is current (what the
    stream would send first), else read; a page whose state had to be read has its tournament's
    phones watched for a while (``Hub.polled``: its stream or its polls follow)."""
    entry = entry_for(token)
    held = realtime.hub.phone_state(entry.tournament_id, entry.pk)
    if held is None:
        realtime.hub.polled(entry.tournament_id)
    return render(
        request,
        "phone.html",
        {
            "entry": entry,
            "t": entry.tournament,
            "token": token,
            "state": json.loads(held) if held is not None else phone_state(entry.pk),
            "languages": HouseRules.of(entry.tournament).official_languages,
            "secure_page": links.players_secure_url(request, request.path),  # where notices work, for a page over plain HTTP
        },
    )


def phone_data(request, token: str):
    """Polling fallback and the API's view of the page: the same state the stream sends, from
    the hub's latest build while it is current (no read per phone), else read. The web app
    answers a token its hub knows before this view (``tdmanager.asgi``). A poll that had to
    read has its tournament's phones watched (``Hub.polled``): while its phones go on
    polling, every change builds their index once and their polls are answered from memory,
    however many they are and whether or not any of them holds a stream open."""
    entry = entry_for(token)
    state = realtime.hub.phone_state(entry.tournament_id, entry.pk)
    if state is None:
        realtime.hub.polled(entry.tournament_id)
        return JsonResponse(phone_state(entry.pk))
    return HttpResponse(state, content_type="application/json")


def phone_qr(request, token: str):
    """The QR code of the page's address, an SVG from our own origin (CSP img-src 'self'). Shown on
    the receipt at the desk: the address is the page's key, so no cache keeps it (the desk
    browser's disk neither). It names the server as a player's phone reaches it (``links.player_url``)."""
    entry = entry_for(token)
    return no_store(HttpResponse(qr_svg(links.player_url(request, phone_path(entry))), content_type="image/svg+xml"))


def phone_stream(request, token: str):
    """SSE: the public part of the lobby's state and this entry's own part, now and after every
    change of its tournament, from the hub's per-change index (``live.phone_stream_response``).
    A sync view: the token is looked up once, on a request thread; the stream is then sent from
    the event loop. Counted among the address's open public streams."""
    entry = entry_for(token)
    ticket = live.admit(request)
    if ticket is None:
        return live.too_many_streams()
    entry_id = entry.pk
    return live.phone_stream_response(request, entry.tournament_id, entry_id, token, ticket, first_state=lambda: phone_state(entry_id))


@functools.cache
def _worker_code() -> bytes:
    return (settings.BASE_DIR / "static" / "phone_sw.js").read_bytes()


def phone_worker(request):
    """The phone page's service worker (``static/phone_sw.js``), served under /p/ so that its
    scope covers every player's page: it shows a notice and opens the player's page on a tap.
    The same bytes for everyone, read once per process."""
    response = HttpResponse(_worker_code(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"  # a browser checks for a newer worker at each visit
    return response
