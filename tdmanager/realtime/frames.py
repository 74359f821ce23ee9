"""What a live stream carries: snapshot texts built once for every screen, and their frames.

A build's JSON text is serialised and framed as a Server-Sent Event once, however many
screens and phones are sent it; the markers the hub puts into a stream's queue between two
texts (``KEEPALIVE``, ``CLOSE``) are here too.
"""

import json
import time

#: What the hub puts into every client queue every ``Hub.heartbeat`` seconds: the stream sends a
#: comment (a proxy keeps an idle stream open). One timer for every screen, not one per frame.
KEEPALIVE = object()

#: What the hub puts into a client's queue to end its stream: a phone token opened more streams
#: than ``TDM_STREAMS_PER_TOKEN`` and this one is the oldest (a player who opened his page again
#: on the same phone, or a receipt's QR code passed round: the newest wins).
CLOSE = object()


class SnapshotText(str):
    """A built snapshot's JSON text, with its Server-Sent Events frame encoded once (``frame``):
    500 displays send the same bytes instead of each formatting and encoding its own copy."""

    frame: bytes = b""
    expires: float = float("inf")  # ``expires_at``: past it the state is no longer current
    #: the tournament's count of change notices read as the build began (``bus.change_counts``):
    #: it shows every change counted so far; None: not read
    changes: int | None = None


def parsed(text: str) -> dict:
    """The snapshot ``text`` as a dict, parsed once per build however many phones filter it
    (shared: read it, never change it)."""
    data = getattr(text, "data", None)
    if data is None:
        data = json.loads(text)
        if isinstance(text, SnapshotText):
            text.data = data
    return data


def sse_event(name: str, data) -> bytes:
    """One Server-Sent Event, ``data`` as JSON, encoded."""
    return f"event: {name}\ndata: {json.dumps(data, default=str)}\n\n".encode()


def expires_at(snap: dict) -> float:
    """When (``time.monotonic``) a built state stops being true with no change heard: a running
    clock's level ends by the time (the worker changes the row then, but while no worker runs
    the state read from the row already shows the next level), so the build is good until its
    ``seconds_left`` are over; any other state until a change."""
    clock = snap.get("clock") if isinstance(snap, dict) else None
    if isinstance(clock, dict) and clock.get("status") == "RUNNING" and clock.get("seconds_left") is not None:
        return time.monotonic() + max(0.0, float(clock["seconds_left"]))
    return float("inf")


def _built(builder, tournament_id: int, phone_builder=None, previous=None) -> SnapshotText:
    """Build and serialise one snapshot (in a build thread). With ``phone_builder`` (phones
    watch the tournament) also the players' phones' frames: the public part encoded once
    (``phone_frame``), and each entry's own part (``entries``: ``entry id -> (key, part,
    frame)``), kept from the ``previous`` build as the very object when it did not change, so a
    stream tells a changed part by identity and sends it to that phone alone."""
    snap = builder(tournament_id)
    text = SnapshotText(json.dumps(snap, default=str))
    text.expires = expires_at(snap)
    text.frame = f"event: state\ndata: {text}\n\n".encode()
    if phone_builder is not None:
        text.phone_public, text.entries = phone_builder(tournament_id, snap, getattr(previous, "entries", None) or {})
        text.phone_frame = sse_event("state", text.phone_public)
    return text


async def _next_text(queue):
    """The next text built (or ``CLOSE``), the heartbeats skipped: a comment is not worth a
    frame to a phone that will hear of the next change anyway."""
    while True:
        text = await queue.get()
        if text is not KEEPALIVE:
            return text
