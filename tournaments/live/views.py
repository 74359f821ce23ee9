"""Live state for displays and dashboards: Server-Sent Events, a polling fallback, a time ping.

Staff (session) or a display screen (its read-only token) may read a tournament's state.
"""

import json
import time

from django.conf import settings
from django.http import Http404, HttpResponse, HttpResponseForbidden, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils import timezone, translation

from tdmanager import realtime
from tdmanager.roles import CASHIER, DIRECTOR, DISPLAY, FLOOR, has_role
from tdmanager.security import client_ip
from tournaments import signals
from tournaments.live.snapshot import build_snapshot
from tournaments.models import DisplayScreen, ScreenImage, StructureItem, Tournament
from tournaments.screens.rules import speaker_words
from tournaments.screens.services import image_addresses, resolve, sounds_of


def _screen_for(token: str | None):
    if not token:
        return None
    return DisplayScreen.objects.filter(token=token, token_revoked_at__isnull=True).first()


def _access(user, token, tournament_id):
    """Who may read ``tournament_id``'s live state: True for staff (a login with a role), else
    the display screen whose token shows it; None: nobody."""
    if user is not None and user.is_authenticated and has_role(user, DIRECTOR, FLOOR, CASHIER, DISPLAY):
        return True
    screen = _screen_for(token)
    return screen if screen is not None and screen.may_show(tournament_id) else None


def _allowed(user, token, tournament_id) -> bool:
    return _access(user, token, tournament_id) is not None


def live_state(request, pk: int):
    """Polling fallback: the full snapshot as JSON, the hub's latest build while it is current
    (what the stream sent last), else read; a poll that had to read has the tournament watched
    while screens poll it (``Hub.polled``), so that the next polls read nothing."""
    if not _allowed(request.user, request.GET.get("token"), pk):
        return HttpResponseForbidden()
    text = realtime.hub.screen_state(pk)
    if text is not None:
        return HttpResponse(str(text), content_type="application/json")
    t = get_object_or_404(Tournament, pk=pk)
    realtime.hub.polled(pk, phones=False)
    return JsonResponse(build_snapshot(t))


def live_time(request):
    """The server's clock, for the browsers' offset measurement (NTP-style, min round trip)."""
    return JsonResponse({"server_time": timezone.now().isoformat(), "epoch_ms": time.time() * 1000})


def live_stream(request, pk: int):
    """SSE: the snapshot now, then a new one after every change; a comment every 15 s.

    A sync view: the access check reads on the request's own thread and connection (a web pool
    thread's kept one: 500 screens reconnecting at once), and the stream itself is sent from the
    event loop (``stream_response``). A screen without a login counts among its address's open
    streams (``TDM_STREAMS_PER_ADDRESS``). A staff login's stream ends when the login is
    disabled, its password reset or its role changed (``realtime.login_ended``)."""
    checked = time.monotonic()  # before the login is read: an end heard after it ends the stream
    who = _access(request.user, request.GET.get("token"), pk)
    if who is None:
        return HttpResponseForbidden()
    # A screen of this very tournament needs no second query: its key is cleared when the
    # tournament is deleted (SET_NULL), so the tournament it names exists.
    if getattr(who, "tournament_id", None) != pk and not Tournament.objects.filter(pk=pk).exists():
        raise Http404
    ticket = None
    if who is not True:
        ticket = admit(request)
        if ticket is None:
            return too_many_streams()
    # a screen's stream ends when its token is revoked or replaced (realtime.screen_revoked)
    if who is not True:
        return stream_response(request, pk, ticket=ticket, screen=who.token)
    return stream_response(request, pk, login=request.user.pk, checked=checked)


def admit(request):
    """A place among the client address's open public streams (``realtime.Admissions``), or
    None when it holds ``TDM_STREAMS_PER_ADDRESS`` already."""
    return realtime.hub.admissions.take(client_ip(request), settings.TDM_STREAMS_PER_ADDRESS)


def too_many_streams() -> JsonResponse:
    """429: this address holds as many open streams as it may; the browser tries again later."""
    response = JsonResponse({"code": "too_many_streams", "detail": str(realtime.TOO_MANY_STREAMS)}, status=429)
    response["Retry-After"] = "60"
    return response


def _frame(state) -> str:
    text = state if isinstance(state, str) else json.dumps(state, default=str)
    return f"event: state\ndata: {text}\n\n"


def _snapshot_text(tournament_id: int) -> str:
    return json.dumps(build_snapshot(tournament_id), default=str)


def streams_async(request) -> bool:
    """True when the server sends an async response's stream as it comes: ASGI (Django's
    handler), or the web app's pool (``tdmanager.asgi`` marks its WSGI requests); not a plain
    WSGI server (the test live server), which cannot stream an async iterator."""
    return "wsgi.version" not in request.META or bool(request.META.get("tdmanager.async_streaming"))


def _sent_once(state) -> HttpResponse:
    """Under a plain WSGI server: the state once, and the browser asked to reconnect (to poll)."""
    response = HttpResponse("retry: 3000\n" + _frame(state), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    return response


def stream_response(request, tournament_id: int, ticket=None, screen: str | None = None, login: int | None = None, checked: float = 0.0):
    """The one live-state stream (Server-Sent Events) of the lobby screens and the staff's pages.

    First the hub's latest built snapshot of the tournament (``realtime.Hub.current``: built
    once for every client connecting or reconnecting, never once per client), then the hub's
    text after every change, sent as it is (its frame encoded once by the hub for every screen).
    A comment at the hub's heartbeat (``realtime.Hub.heartbeat``, 15 s). The response's content
    is an async iterator, sent from the event loop: a sync view returns it from its thread, which
    is free again once it has. Under a plain WSGI server (the test live server), which cannot
    stream an async iterator, the state is sent once and the browser asked to reconnect, i.e. to
    poll. ``ticket``: the address's place among open public streams, given back at the end.
    ``screen``: the lobby screen's token it was opened with: the stream ends when that token is
    revoked or replaced (``Hub.end_screen``). ``login``: the staff login it was opened with,
    its access checked at ``checked`` (``time.monotonic``): the stream ends when that login ends
    (``Hub.end_login``), or at once if its end was heard since the check.
    """
    if not streams_async(request):
        if ticket:
            ticket()
        return _sent_once(_snapshot_text(tournament_id))
    hub = realtime.hub

    async def events():
        queue = await hub.connect(tournament_id, screen=screen, login=login)  # before reading the latest: no change falls between
        try:
            if login and hub.login_ended_since(login, checked):
                return  # ended between the check of its login and now: the browser asks again
            sent = await hub.current(tournament_id)
            if sent is None:
                return  # not built (the database is away): the browser reconnects and asks again
            yield "retry: 2000\n"
            yield _frame_of(sent)
            while True:
                text = await queue.get()
                if text is realtime.CLOSE:
                    return  # the screen's token was revoked, or the login ended
                if text is realtime.KEEPALIVE:  # the hub's heartbeat: no timer per screen and frame
                    yield f": keep-alive {time.time():.0f}\n\n"
                    continue
                if text is sent:
                    continue  # the build this client was given when it connected
                sent = text
                yield _frame_of(text)
        finally:
            hub.disconnect(tournament_id, queue, screen=screen, login=login)
            if ticket:
                ticket()

    return _sse(events(), ticket)


def phone_stream_response(request, tournament_id: int, entry_id: int, token: str, ticket=None, first_state=None):
    """A player's phone's stream: ``event: state`` with the public part every phone of the
    tournament shares (the hub encodes it once per change), and ``event: entry`` with this
    entry's own part, at the start and then only when it changed (the hub's per-entry index, read
    once per change for every phone: a phone's frame costs no database read). The stream ends
    when the entry is gone, or when its token opened one stream too many (the oldest ends).
    Under a plain WSGI server, ``first_state()`` once (the whole state), then the browser polls."""
    if not streams_async(request):
        if ticket:
            ticket()
        return _sent_once(json.dumps(first_state(), default=str))
    return _sse(realtime.hub.phone_events(tournament_id, entry_id, token, ticket), ticket)


def _frame_of(text):
    return getattr(text, "frame", None) or _frame(text)


def _sse(events, ticket) -> StreamingHttpResponse:
    if ticket:
        realtime.hub.admissions.tie(ticket, events)
    response = StreamingHttpResponse(events, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


def display(request, token: str):
    """The lobby display page for a screen (no login: the token in the address is its key)."""
    return _screen_page(request, token, overlay=False)


def overlay(request, token: str):
    """The same screen as a stream's overlay (OBS's browser source): its layout on a transparent
    page of the overlay's size, no control, no sound, running ``overlay_delay`` seconds behind."""
    return _screen_page(request, token, overlay=True)


def _screen_page(request, token: str, *, overlay: bool):
    screen = get_object_or_404(DisplayScreen, token=token, token_revoked_at__isnull=True)
    shown = screen.tournaments_shown()  # one, or the tournaments it rotates through
    if not shown:
        raise Http404
    t = shown[0]
    if screen.language in dict(settings.LANGUAGES):  # the screen's own language, not the TV browser's
        translation.activate(screen.language)
        request.LANGUAGE_CODE = screen.language
    second = screen.second_language if screen.speaker and screen.second_language in dict(settings.LANGUAGES) else ""
    panels = {p: screen.shows(p) for p in DisplayScreen.PANELS}
    rotation = {
        "seconds": screen.rotate_seconds,
        "language": screen.language,
        "second_language": second,
        "tournaments": [{"id": x.pk, "name": x.name, "chips": chips_of(x)} for x in shown],
        "panels": panels,
        # the layouts and sounds, served once per page (never with the live frames): a change of
        # any of them, seen at the page's next look, reloads it
        "design": design_of(screen),
    }
    if overlay:  # a stream's overlay: no speaker, the stream's delay, the size OBS draws it at
        rotation["design"]["speaker"] = False
        rotation["overlay"] = {
            "width": screen.overlay_width,
            "height": screen.overlay_height,
            "delay": screen.overlay_delay,
            "bust_seconds": screen.bust_seconds,
        }
    if rotation["design"]["speaker"]:
        # the numbers it may say, in words in its languages: a structure changed mid-event changes
        # them, and the page's next look at its configuration reloads it with the new ones
        languages = [translation.get_language(), *([second] if second else [])]
        rotation["spoken"] = speaker_words(_levels_of(shown), rotation["design"]["sounds"]["warn_minutes"], languages)
    if request.GET.get("config"):  # the page asks now and then: a new rotation or new panels reload it
        return JsonResponse(rotation)
    other = signals.ask_one(signals.display_wanted, tournament=t, request=request)  # a heads-up bracket (FMT-12)
    if other is not None:
        return other
    context = {"screen": screen, "t": t, "panels": panels, "panels_json": json.dumps(panels), "token": token, "rotation": rotation, "overlay": overlay}
    if second:  # the speaker's sentences once more, in the second language it says them in
        with translation.override(second):
            context["second_speech"] = render_to_string("display_speech.html", {"speech_id": "display-speech-2"})
    return render(request, "display.html", context)


def _levels_of(shown) -> list[list[tuple]]:
    """The items of each shown tournament's structure, as the speaker's numbers read them."""
    rows = StructureItem.objects.filter(structure_id__in=[t.structure_id for t in shown if t.structure_id]).order_by("structure_id", "position")
    items = {}
    for structure, kind, *numbers in rows.values_list("structure_id", "kind", "small_blind", "big_blind", "ante", "minutes", "removes_denominations"):
        items.setdefault(structure, []).append((kind == StructureItem.BREAK, *numbers))
    return list(items.values())


def chips_of(t) -> list[dict]:
    """The tournament's chip set for the screen's chip block: each denomination and its colour."""
    if t.chip_set_id is None:
        return []
    return [{"value": v, "colour": c} for v, c in t.chip_set.denominations.values_list("value", "colour")]


def design_of(screen: DisplayScreen) -> dict:
    """What a screen's page draws besides the live state: its layout of each state (a state
    without one shows the live one's), whether it speaks, and what it announces."""
    chosen = screen.layouts or {}
    live = resolve(chosen.get("live"))
    by_state = {"live": live, **{state: resolve(key) for state, key in chosen.items() if state != "live"}}
    # a screen whose "sounds" panel was switched on before speakers existed keeps sounding
    return {
        "layouts": by_state,
        "images": image_addresses([x["design"] for x in by_state.values()]),
        "speaker": screen.speaker or screen.shows("sounds"),
        "sounds": sounds_of(screen),
    }


def screen_image(request, digest: str):
    """A logo or sponsor image of the screens, as the product encoded it (PNG, public: the
    screens show it to the room)."""
    png = _image_png(digest.lower()) if len(digest) == 64 and all(c in "0123456789abcdefABCDEF" for c in digest) else None
    if png is None:
        raise Http404
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = "public, max-age=86400"
    response["X-Content-Type-Options"] = "nosniff"
    return response


_IMAGES: dict[str, bytes] = {}


def _image_png(digest: str) -> bytes | None:
    """An image's PNG by its digest, read once per process: the same address is the same bytes
    for ever, so every screen of the room asking costs no database read. What is not found is not
    remembered (it may be uploaded next); at most 64 images are kept."""
    png = _IMAGES.get(digest)
    if png is None:
        row = ScreenImage.objects.filter(digest=digest).values_list("png", flat=True).first()
        if row is None:
            return None
        if len(_IMAGES) >= 64:
            _IMAGES.pop(next(iter(_IMAGES)))
        png = _IMAGES[digest] = bytes(row)
    return png
