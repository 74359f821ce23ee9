"""Live state for displays and dashboards: Server-Sent Events, a polling fallback, a time ping.

Staff (session) or a display screen (its read-only token) may read a tournament's state.
"""

import asyncio
import json
import time

from asgiref.sync import sync_to_async
from django.http import Http404, HttpResponse, HttpResponseForbidden, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from tdmanager import realtime
from tdmanager.roles import CASHIER, DIRECTOR, DISPLAY, FLOOR, has_role

from . import signals
from .models import DisplayScreen, Tournament
from .snapshot import build_snapshot

HEARTBEAT_SECONDS = 15


def _screen_for(token: str | None):
    if not token:
        return None
    return DisplayScreen.objects.filter(token=token).first()


def _allowed(user, token, tournament_id) -> bool:
    if user is not None and user.is_authenticated and has_role(user, DIRECTOR, FLOOR, CASHIER, DISPLAY):
        return True
    screen = _screen_for(token)
    return screen is not None and screen.may_show(tournament_id)


def live_state(request, pk: int):
    """Polling fallback: the full snapshot as JSON."""
    if not _allowed(request.user, request.GET.get("token"), pk):
        return HttpResponseForbidden()
    t = get_object_or_404(Tournament, pk=pk)
    return JsonResponse(build_snapshot(t))


def live_time(request):
    """The server's clock, for the browsers' offset measurement (NTP-style, min round trip)."""
    return JsonResponse({"server_time": timezone.now().isoformat(), "epoch_ms": time.time() * 1000})


async def live_stream(request, pk: int):
    """SSE: the snapshot now, then a new one after every change; a comment every 15 s."""
    user = await request.auser()
    allowed = await sync_to_async(_allowed)(user, request.GET.get("token"), pk)
    if not allowed:
        return HttpResponseForbidden()
    if not await Tournament.objects.filter(pk=pk).aexists():
        raise Http404

    return await state_stream(request, pk, lambda: build_snapshot(pk))


def _frame(state) -> str:
    text = state if isinstance(state, str) else json.dumps(state, default=str)
    return f"event: state\ndata: {text}\n\n"


async def state_stream(request, tournament_id: int, first, changed=None):
    """The one live-state stream (Server-Sent Events) of the lobby screens and a player's phone.

    ``first()`` (sync) gives the state now; after every change of the tournament the hub's
    snapshot text is sent as it is, or, with ``changed``, ``changed(text)`` (sync) gives the
    state to send (None ends the stream). A comment every ``HEARTBEAT_SECONDS``. Under a WSGI
    server (the test live server, a plain WSGI deployment), which cannot stream an async
    iterator, the state is sent once and the browser asked to reconnect, i.e. to poll.
    """
    if "wsgi.version" in request.META:
        response = HttpResponse("retry: 3000\n" + _frame(await sync_to_async(first)()), content_type="text/event-stream")
        response["Cache-Control"] = "no-cache"
        return response

    async def events():
        queue = await realtime.hub.connect(tournament_id)
        try:
            yield "retry: 2000\n" + _frame(await sync_to_async(first)())
            while True:
                try:
                    text = await asyncio.wait_for(queue.get(), timeout=HEARTBEAT_SECONDS)
                except TimeoutError:
                    yield f": keep-alive {time.time():.0f}\n\n"
                    continue
                state = text if changed is None else await sync_to_async(changed)(text)
                if state is None:
                    return
                yield _frame(state)
        finally:
            realtime.hub.disconnect(tournament_id, queue)

    response = StreamingHttpResponse(events(), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


def display(request, token: str):
    """The lobby display page for a screen (no login: the token in the address is its key)."""
    screen = get_object_or_404(DisplayScreen, token=token)
    shown = screen.tournaments_shown()  # one, or the tournaments it rotates through
    if not shown:
        raise Http404
    t = shown[0]
    panels = {p: screen.shows(p) for p in DisplayScreen.PANELS}
    rotation = {"seconds": screen.rotate_seconds, "tournaments": [{"id": x.pk, "name": x.name} for x in shown], "panels": panels}
    if request.GET.get("config"):  # the page asks now and then: a new rotation or new panels reload it
        return JsonResponse(rotation)
    other = signals.ask_one(signals.display_wanted, tournament=t, request=request)  # a heads-up bracket (FMT-12)
    if other is not None:
        return other
    return render(request, "display.html", {"screen": screen, "t": t, "panels": panels, "panels_json": json.dumps(panels), "token": token,
                                            "rotation": rotation})
