"""The hub: one per web process, fanning each tournament's snapshot out to its live streams.

It hears the change notices (``changes``) on the Redis channel (``bus``), builds a changed
tournament's snapshot once, coalesced, in threads of its own, and hands the same text
(``frames``) to every stream and poll of it; it ends the streams of a revoked screen or an
ended login, and balances its open streams with the other web processes' (``balance``). A
notice it did not hear (pub/sub keeps nothing) it finds by the tournaments' counts of notices.
"""

import asyncio
import contextvars
import json
import logging
import os
import socket
import time
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings

from .admissions import Admissions
from .balance import report_streams, streams_to_shed
from .bus import change_counts, channel, redis_client, streams_key
from .changes import add_local_listener
from .frames import CLOSE, KEEPALIVE, _built, _next_text

log = logging.getLogger(__package__)  # one logger for the whole transport


def _off_request(fn, *args):
    """Run ``fn`` in one of the hub's own threads with the database handled as a request does:
    a connection past its age (or broken) is closed before, and the one used is closed (given
    back to the pool) after, so a long-lived thread never holds a stale connection."""
    from django.db import close_old_connections

    close_old_connections()
    try:
        return fn(*args)
    finally:
        close_old_connections()


def _counted_build(counted: bool, builder, tournament_id: int, phone_builder, previous):
    """``_built``, the tournament's count of change notices read first (``counted``: Redis is
    there) into the text's ``changes``: each change counted by then was committed before, so
    the build shows it. A count that cannot be read is None (the next look builds again)."""
    changes = None
    if counted:
        try:
            changes = change_counts([tournament_id])[tournament_id]
        except Exception as exc:
            log.warning("realtime: could not read the count of changes of tournament %s: %s", tournament_id, exc)
    text = _built(builder, tournament_id, phone_builder, previous)
    text.changes = changes
    return text


_executors: dict[str, ThreadPoolExecutor] = {}


def executor(kind: str) -> ThreadPoolExecutor:
    """The hub's own threads, never the ones serving sync views: ``build`` (snapshots, two:
    one slow tournament does not hold up another) and ``client`` (per-connection work: access
    checks, a phone's filter)."""
    pool = _executors.get(kind)
    if pool is None:
        pool = _executors.setdefault(kind, ThreadPoolExecutor(max_workers=2, thread_name_prefix=f"tdm-live-{kind}"))
    return pool


class Hub:
    """One per web process: a single Redis subscription fanned out to every connected browser.

    For each change it builds the tournament's snapshot once and hands the same text to every
    client queue of that tournament, so 500 displays cost one query set, not 500. Builds are
    coalesced: at most one starts per tournament every ``min_interval`` seconds; changes heard
    while one waits or runs are folded into the next, which always follows (the newest state
    wins, none is lost). They run in the hub's own threads, off the threads serving requests.
    A connecting client is given ``latest`` when it is current (built after the last change
    heard, less than ``max_age`` old), or waits for the one build in flight, shared by every
    client connecting at that moment.

    No published state is missed for longer than ``recheck``: Redis pub/sub keeps nothing, and
    a notice published while this process is not subscribed (it is starting, or its
    subscription is coming back) or lost on its way is never heard. So the hub counts itself
    subscribed only once Redis has answered the subscription, and then builds again what it
    watches (``_resync``); and every ``recheck`` seconds it compares the tournaments' counts of
    notices in Redis with the count each last build read (``catch_up``).
    """

    #: ``tournament id -> dict``: handed over by the tournaments app when it is ready
    #: (the transport imports no app).
    snapshot_builder = None
    #: ``(tournament id, snapshot, the previous build's entries) -> (public dict, {entry id:
    #: part})``, each part with its ``frame`` (its event, encoded) and its phone ``token``: what
    #: the players' phones show (tournaments hands it over too); called with each build while
    #: phones watch.
    phone_builder = None
    #: seconds between the starts of two builds of one tournament (TDM_LIVE_COALESCE_MS, 100).
    #: Under a steady stream of changes (a running event: sales, busts and their slips, the
    #: clock) every window holds a build, so a change waits up to the window for the next one:
    #: the lobby's delay is at least the window plus a build, so the window is kept well under
    #: the lobby's delay target (docs/benchmarks.md, display_fanout).
    #: A burst still costs at most ten builds a second.
    min_interval = int(os.getenv("TDM_LIVE_COALESCE_MS", "100")) / 1000
    #: a text older than this is rebuilt for a connecting client (time-dependent parts of the
    #: snapshot, such as an expired announcement, change without an event)
    max_age = 30.0
    #: seconds between two ``KEEPALIVE`` handed to every client
    heartbeat = 15.0
    #: seconds between two looks at the counts of change notices of the tournaments watched here
    #: (``catch_up``): the most a state whose notice this process did not hear is late, as the
    #: screens that cannot stream poll theirs
    recheck = 5.0
    #: seconds before subscribing again after the subscription was lost
    resubscribe_after = 1.0
    #: seconds a tournament stays watched after a phone or a lobby screen last polled its state
    #: (their polling fallback, every 5 s; ``polled``): meanwhile every change builds it (with
    #: the phones' index for phones) as for streams, and the polls are answered from memory
    poll_window = 30.0

    def __init__(self):
        self.clients: dict[int, set] = {}
        self.task = None
        self.loop = None
        self.latest: dict[int, str] = {}
        self.builds = 0  # how many snapshots this hub built (tests and benchmarks read it)
        self.clock = time.monotonic  # a test may hand over its own clock and sleep
        self.sleep = None
        self._listening = asyncio.Event()  # changes are being heard (Redis subscribed)
        self._heard: dict[int, int] = {}  # changes heard per tournament (a counter)
        self._built_at: dict[int, tuple[int, float]] = {}  # the counter and the time ``latest`` was built at
        self._last_start: dict[int, float] = {}
        self._builders: dict[int, object] = {}  # tournament id -> the task building it
        self._waiters: dict[int, list] = {}  # futures of connecting clients waiting for a build
        self._beat = None  # the task handing out KEEPALIVE
        self._balancer = None  # the task comparing this process's open streams with the others' (``_balance``)
        self._checker = None  # the task looking at the counts of change notices (``_recheck``)
        self.me = f"{socket.gethostname()}:{os.getpid()}"  # this process among the web processes
        self.phones: dict[int, int] = {}  # phones watching, per tournament
        self.tokens: dict[str, tuple[int, int]] = {}  # phone token -> (tournament, entry), of the phones' indexes built here
        self._tokens_of: dict[int, set] = {}  # tournament -> its tokens in ``tokens``
        self.by_token: dict[str, list] = {}  # a phone token's open streams' queues, oldest first
        self.admissions = Admissions()
        self.by_screen: dict[str, set] = {}  # a lobby screen's token -> its open streams' queues
        self.by_login: dict[int, set] = {}  # a staff login's id -> its open streams' queues
        # a staff login's id -> when its end was last heard (time.monotonic): a stream whose
        # login was checked before and that connects after is ended all the same (a room's
        # staff: a few dozen ids at most)
        self.logins_ended: dict[int, float] = {}
        self._polled: dict[int, float] = {}  # tournament -> when a phone last polled its state (the clock)
        self._screens_polled: dict[int, float] = {}  # tournament -> when a lobby screen last polled its state

    async def connect(self, tournament_id: int, token: str | None = None, screen: str | None = None, login: int | None = None):
        """A queue that gets every text built for the tournament. ``token``: a player's phone,
        whose texts carry the phones' frames; past ``TDM_STREAMS_PER_TOKEN`` open streams of
        one token the oldest is ended (``CLOSE``). ``screen``: a lobby screen's token, whose
        streams end when it is revoked (``end_screen``). ``login``: a staff login's id, whose
        streams end when it is disabled, its password reset or its role changed (``end_login``)."""
        self._ensure_started()
        queue = asyncio.Queue(maxsize=32)
        self.clients.setdefault(tournament_id, set()).add(queue)
        if screen:
            self.by_screen.setdefault(screen, set()).add(queue)
        if login:
            self.by_login.setdefault(login, set()).add(queue)
        if token is not None:
            self.phones[tournament_id] = self.phones.get(tournament_id, 0) + 1
            held = self.by_token.setdefault(token, [])
            held.append(queue)
            while len(held) > settings.TDM_STREAMS_PER_TOKEN:
                self._end(held.pop(0))
        return queue

    def disconnect(self, tournament_id: int, queue, token: str | None = None, screen: str | None = None, login: int | None = None) -> None:
        for index, key in ((self.by_screen, screen), (self.by_login, login)):
            held = index.get(key) if key else None
            if held is not None:
                held.discard(queue)
                if not held:
                    index.pop(key, None)
        group = self.clients.get(tournament_id)
        if group is not None:
            group.discard(queue)
            if not group:
                self.clients.pop(tournament_id, None)
        if token is not None:
            left = self.phones.get(tournament_id, 0) - 1
            if left > 0:
                self.phones[tournament_id] = left
            else:
                self.phones.pop(tournament_id, None)
            held = self.by_token.get(token)
            if held is not None:
                if queue in held:
                    held.remove(queue)
                if not held:
                    self.by_token.pop(token, None)

    def _know_tokens(self, tournament_id: int, text) -> None:
        """Remember the phone tokens of a build's index (a cancelled entry's is forgotten)."""
        entries = getattr(text, "entries", None)
        if entries is None or entries is getattr(self.latest.get(tournament_id), "entries", None):
            return
        known = {own.token: (tournament_id, entry_id) for entry_id, own in entries.items()}
        for gone in self._tokens_of.get(tournament_id, set()) - known.keys():
            self.tokens.pop(gone, None)
        self.tokens.update(known)
        self._tokens_of[tournament_id] = set(known)

    def phone_of(self, token: str) -> tuple[int, int] | None:
        """``(tournament id, entry id)`` of a phone token this process's index knows, else None
        (the caller looks it up in the database)."""
        return self.tokens.get(token)

    def phone_state(self, tournament_id: int, entry_id: int) -> bytes | None:
        """A phone's whole state (the public part and the entry's own, as the phone page's
        polling fallback answers it), encoded, from the current build; None when there is no
        current build with this entry (the view reads it then, and calls ``polled``). Each
        call counts as a poll: the tournament stays watched for ``poll_window`` seconds."""
        if tournament_id in self._polled:
            self._polled[tournament_id] = self.clock()
        text = self.fresh(tournament_id)
        own = text.entries.get(entry_id) if text is not None else None
        if own is None:
            return None
        return json.dumps({**text.phone_public, **own.part}, default=str).encode()

    async def phone_events(self, tournament_id: int, entry_id: int, token: str, ticket=None):
        """A player's phone's stream, as Server-Sent Events: ``event: state`` with the public
        part every phone of the tournament shares (encoded once per change), and ``event:
        entry`` with this entry's own part, at the start and then only when it changed (the
        per-change index: no database read for a phone). It ends when the entry is gone, or when
        its token opened one stream too many (the oldest ends). ``ticket``: its address's place
        among the open public streams, given back at the end."""
        queue = await self.connect(tournament_id, token=token)
        try:
            text = await self.current(tournament_id, phone=True)
            # A phone opened right after its sale may be ahead of the build that has it: the
            # sale's own change brings it.
            for _waited in range(3):
                if text is None or text is CLOSE or entry_id in getattr(text, "entries", ()):
                    break
                try:
                    text = await asyncio.wait_for(_next_text(queue), self.heartbeat)
                except TimeoutError:
                    return  # the browser reconnects and asks again
            if text is None or text is CLOSE or entry_id not in getattr(text, "entries", ()):
                return
            own = text.entries[entry_id]
            yield b"retry: 2000\n"
            yield text.phone_frame
            yield own.frame
            while True:
                text = await _next_text(queue)
                if text is CLOSE:
                    return
                entries = getattr(text, "entries", None)
                if entries is None:
                    continue  # built before this phone connected: the hub builds again with it
                yield text.phone_frame
                mine = entries.get(entry_id)
                if mine is None:
                    return  # the entry is cancelled
                if mine is not own:
                    own = mine
                    yield own.frame
        finally:
            self.disconnect(tournament_id, queue, token=token)
            if ticket:
                ticket()

    def start(self) -> None:
        """Start listening for changes (on the web process's event loop), if not yet: a process
        whose first public request is a phone's poll (no stream opened there) has no hub running
        until then, and ``polled`` needs it."""
        self._ensure_started()

    def screen_state(self, tournament_id: int) -> str | None:
        """The lobby's state (a screen's polling fallback, ``/live/<id>/state/``) as the hub last
        built it, while it is current or the next build is under way (as ``fresh``); None
        otherwise (the view reads it then, and calls ``polled``). Each call counts as a poll."""
        if tournament_id in self._screens_polled:
            self._screens_polled[tournament_id] = self.clock()
        text = self.latest.get(tournament_id)
        if text is None or self.loop is None:
            return None
        return text if self._recent_enough(tournament_id) else None

    def polled(self, tournament_id: int, phones: bool = True) -> None:
        """A phone (``phones``) or a lobby screen polled the tournament's state and the view had
        to read it (this process held no current build). Callable from a request thread. From
        now on, as long as they poll it (``poll_window``), the tournament is watched as if one
        of them streamed it: every change builds it once (with the phones' index for phones),
        and their next polls, page loads and streams are answered from memory instead of each
        reading the whole state (a room of phones that cannot hold a stream open, behind a
        proxy, polls every 5 s). Nothing when the hub is not running in this process (tests,
        commands: ``start``)."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            loop.call_soon_threadsafe(self._poll_heard, tournament_id, phones)
        except RuntimeError:  # the loop closed meanwhile
            pass

    def _poll_heard(self, tournament_id: int, phones: bool) -> None:
        """On the hub's loop: a poll the view answered. A build follows unless one is current
        (with the phones' index, for a phone) or under way."""
        (self._polled if phones else self._screens_polled)[tournament_id] = self.clock()
        text = self.latest.get(tournament_id)
        current = text is not None and self._is_current(tournament_id) and (not phones or getattr(text, "entries", None) is not None)
        if not current and tournament_id not in self._builders:
            self._heard[tournament_id] = self._heard.get(tournament_id, 0) + 1
            self._kick(tournament_id)

    def _recent(self, polls: dict, tournament_id: int) -> bool:
        """True while ``polls`` has one of the tournament within ``poll_window`` seconds."""
        last = polls.get(tournament_id)
        if last is None:
            return False
        if self.clock() - last <= self.poll_window:
            return True
        polls.pop(tournament_id, None)
        return False

    def _polling(self, tournament_id: int) -> bool:
        """True while phones poll the tournament (its builds then carry the phones' index)."""
        return self._recent(self._polled, tournament_id)

    def _watched(self, tournament_id: int) -> bool:
        return (
            bool(self.clients.get(tournament_id))
            or tournament_id in self._waiters
            or self._polling(tournament_id)
            or self._recent(self._screens_polled, tournament_id)
        )

    def end_screen(self, token: str) -> None:
        """End every open stream of a lobby screen's token (it was revoked or replaced)."""
        for queue in self.by_screen.pop(token, set()):
            self._end(queue)

    def end_login(self, user_id: int) -> None:
        """End every open stream of a staff login (disabled, its password reset, its role
        changed): the browser, reconnecting, is asked for its login again."""
        self.logins_ended[user_id] = time.monotonic()
        for queue in self.by_login.pop(user_id, set()):
            self._end(queue)

    def login_ended_since(self, user_id: int, since: float) -> bool:
        """Whether the login's end was heard after ``since`` (``time.monotonic``): its access was
        checked before, its stream connected after, so ``end_login`` did not find it."""
        return self.logins_ended.get(user_id, float("-inf")) >= since

    def _on_message(self, message: dict) -> None:
        """A message of the change channel, on the hub's loop: a tournament changed, a
        screen's token was revoked, or a staff login ended."""
        if message.get("screen"):
            self.end_screen(message["screen"])
        elif message.get("login"):
            self.end_login(message["login"])
        elif message.get("tournament") is not None:
            self._schedule(message["tournament"])

    @staticmethod
    def _end(queue) -> None:
        while not queue.empty():
            queue.get_nowait()
        queue.put_nowait(CLOSE)

    def fresh(self, tournament_id: int):
        """``latest`` with the phones' frames, for a phone's polling fallback (read from the
        event loop or a request thread: a look, no change): while it is current, and while a
        change heard since is being built (phones watch the tournament: the next build is at
        most a coalescing window and a build away, and a poll answer is then as recent as a
        stream's last frame). Else None: the caller reads the database. During a steady stream
        of changes a build is almost always under way, and a poll that read the whole state
        whenever one was cost a full snapshot build per phone."""
        text = self.latest.get(tournament_id)
        if text is None or getattr(text, "entries", None) is None or self.loop is None:
            return None
        return text if self._recent_enough(tournament_id) else None

    def _recent_enough(self, tournament_id: int) -> bool:
        """``latest`` may answer a poll: it is current, or a change heard since is being built
        and it is less than ``max_age`` old (``fresh``)."""
        if self._is_current(tournament_id):
            return True
        built, builder = self._built_at.get(tournament_id), self._builders.get(tournament_id)
        building = builder is not None and not builder.done() and self._listening.is_set()
        return building and built is not None and self.clock() - built[1] <= self.max_age

    async def current(self, tournament_id: int, phone: bool = False) -> str | None:
        """The snapshot text for a connecting client: ``latest`` if current, else the next build
        (one for every client asking meanwhile). None if it could not be built. ``phone``: a
        text with the phones' frames (``connect`` with its token first)."""
        self._ensure_started()
        if not self._listening.is_set():  # what is built before the subscription could miss a change
            try:
                await asyncio.wait_for(self._listening.wait(), 2)
            except TimeoutError:
                pass
        if self._is_current(tournament_id) and (not phone or getattr(self.latest[tournament_id], "entries", None) is not None):
            return self.latest[tournament_id]
        waiter = self.loop.create_future()
        self._waiters.setdefault(tournament_id, []).append(waiter)
        self._kick(tournament_id)
        return await waiter

    async def run_sync(self, fn, *args):
        """Per-client sync work (an access check, a phone's filter) in the hub's client threads."""
        return await asyncio.get_running_loop().run_in_executor(executor("client"), _off_request, fn, *args)

    def _is_current(self, tournament_id: int) -> bool:
        built = self._built_at.get(tournament_id)
        return (
            tournament_id in self.latest
            and built is not None
            and self._listening.is_set()
            and built[0] == self._heard.get(tournament_id, 0)
            and self.clock() - built[1] <= self.max_age
            and time.monotonic() < getattr(self.latest[tournament_id], "expires", float("inf"))
        )

    def _ensure_started(self):
        loop = asyncio.get_running_loop()
        if self.loop is not loop:
            # a new event loop (tests): what was under way belonged to the old one
            self._listening, self._builders, self._waiters = asyncio.Event(), {}, {}
        if self._beat is None or self._beat.done() or self._beat.get_loop() is not loop:
            self._beat = loop.create_task(self._heartbeat(), context=contextvars.Context())
        if settings.REDIS_URL:
            if self.task is None or self.task.done() or self.loop is not loop:
                self.loop = loop
                # its own context: the task outlives the request that happened to start it
                self.task = loop.create_task(self._listen_redis(), context=contextvars.Context())
            balancing = self._balancer is not None and not self._balancer.done() and self._balancer.get_loop() is loop
            if settings.TDM_STREAM_BALANCE_SECONDS > 0 and not balancing:
                self._balancer = loop.create_task(self._balance(settings.TDM_STREAM_BALANCE_SECONDS), context=contextvars.Context())
            checking = self._checker is not None and not self._checker.done() and self._checker.get_loop() is loop
            if self.recheck > 0 and not checking:
                self._checker = loop.create_task(self._recheck(), context=contextvars.Context())
        elif self.loop is not loop:
            # One process, no Redis: services call tournament_changed in a worker thread.
            # Register the listener once per event loop, not once per connecting browser.
            self.loop = loop
            add_local_listener(lambda m: loop.call_soon_threadsafe(self._on_message, m))
            self._listening.set()

    def _schedule(self, tournament_id: int):
        self.changed(tournament_id)

    def changed(self, tournament_id: int) -> None:
        """A change of the tournament was heard (on the hub's loop): ``latest`` is no longer
        current; a build is started, or folded into the one waiting, if anyone watches."""
        watched = self._watched(tournament_id) or tournament_id in self._builders
        if not watched and tournament_id not in self.latest:
            return
        self._heard[tournament_id] = self._heard.get(tournament_id, 0) + 1
        if watched:
            self._kick(tournament_id)
        else:
            self.latest.pop(tournament_id, None)  # nobody watches: the next client builds anew

    async def publish_snapshot(self, tournament_id: int):
        """The listener's entry point: a change was heard (the coalesced build follows)."""
        self.changed(tournament_id)

    def _kick(self, tournament_id: int) -> None:
        task = self._builders.get(tournament_id)
        if task is None or task.done():
            self._builders[tournament_id] = self.loop.create_task(self._build_loop(tournament_id), context=contextvars.Context())

    async def _build_loop(self, tournament_id: int):
        """Build until the last change heard is built: one build per ``min_interval`` at most."""
        sleep = self.sleep or asyncio.sleep
        failures = 0
        try:
            while True:
                wait = self._last_start.get(tournament_id, float("-inf")) + self.min_interval - self.clock()
                if wait > 0:
                    await sleep(wait)
                heard = self._heard.get(tournament_id, 0)
                self._last_start[tournament_id] = self.clock()
                phones = bool(self.phones.get(tournament_id)) or self._polling(tournament_id)
                text = await self._build(tournament_id, phones)
                if text is not None and not phones and self.phones.get(tournament_id):
                    # a phone connected while this was built without its frames: one more build
                    self._heard[tournament_id] = self._heard.get(tournament_id, 0) + 1
                if text is not None:
                    failures = 0
                    self.builds += 1
                    self._know_tokens(tournament_id, text)
                    self.latest[tournament_id] = text
                    self._built_at[tournament_id] = (heard, self.clock())
                    self._fan_out(tournament_id, text)
                for waiter in self._waiters.pop(tournament_id, ()):
                    if not waiter.done():
                        waiter.set_result(text if text is not None else self.latest.get(tournament_id))
                watched = self._watched(tournament_id)
                if text is None:
                    failures += 1
                    if not watched or failures >= 3:
                        return
                    await sleep(max(1.0, self.min_interval))  # a database hiccup: try again shortly
                    continue
                if self._heard.get(tournament_id, 0) == heard:
                    return  # the last change heard is built
                if not watched:
                    self.latest.pop(tournament_id, None)
                    return
        finally:
            if self._builders.get(tournament_id) is asyncio.current_task():
                self._builders.pop(tournament_id, None)

    async def _build(self, tournament_id: int, phones: bool = False):
        if self.snapshot_builder is None:
            log.error("realtime: no snapshot builder was handed to the hub")
            return None
        phone_builder = self.phone_builder if phones else None
        # the count is read while subscribed only: Redis away, a build would wait on it
        counted = bool(settings.REDIS_URL) and self._listening.is_set()
        try:
            return await asyncio.get_running_loop().run_in_executor(
                executor("build"),
                _off_request,
                _counted_build,
                counted,
                self.snapshot_builder,
                tournament_id,
                phone_builder,
                self.latest.get(tournament_id),
            )
        except Exception:
            log.exception("realtime: snapshot failed for %s", tournament_id)
            return None

    def _fan_out(self, tournament_id: int, text: str) -> None:
        for queue in list(self.clients.get(tournament_id, ())):
            if queue.full():  # a client that stopped reading gets only the newest state
                try:
                    queue.get_nowait()
                except Exception:
                    pass
            queue.put_nowait(text)

    async def stop(self, timeout: float = 2.0) -> None:
        """Stop listening and handing out ``KEEPALIVE`` (the web process shuts down), waiting up to
        ``timeout`` seconds for both to end."""
        tasks = [
            task
            for task in (self.task, self._beat, self._balancer, self._checker)
            if task is not None and not task.done() and task.get_loop() is asyncio.get_running_loop()
        ]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)
        self._listening.clear()
        if self._balancer is not None:  # the others stop counting this process at once
            try:
                await asyncio.wait_for(asyncio.to_thread(lambda: redis_client().hdel(streams_key(), self.me)), timeout)
            except Exception:  # Redis away: the others forget it after three looks
                pass

    def open_streams(self) -> int:
        """The live streams open on this process (lobby screens, phones, dashboards)."""
        return sum(len(group) for group in self.clients.values())

    def shed(self, count: int, rng=None) -> int:
        """End ``count`` of the open streams, picked at random: their browsers reconnect (after
        the ``retry`` the stream sent), through the balancer, to any web process."""
        import random

        queues = [queue for group in self.clients.values() for queue in group]
        picked = (rng or random).sample(queues, min(count, len(queues)))
        for queue in picked:
            self._end(queue)
        return len(picked)

    async def _balance(self, every: float):
        """Every ``every`` seconds: this process's open streams against the other web
        processes' (``report_streams``); past ``streams_to_shed``'s bound some are ended. A
        failure (Redis away) waits for the next look."""
        while True:
            await asyncio.sleep(every)
            mine = self.open_streams()
            try:
                others = await asyncio.to_thread(report_streams, self.me, mine, every)
            except Exception as exc:
                log.warning("realtime: could not compare open streams with the other web processes: %s", exc)
                continue
            count = streams_to_shed(mine, others)
            if count:
                ended = self.shed(count)
                log.info("realtime: %s of %s open streams ended to reconnect elsewhere (the others hold %s)", ended, mine, others)

    def stop_heartbeat(self) -> None:
        """Stop handing out ``KEEPALIVE``, and looking at the counts (an event loop being shut
        down: a test's own)."""
        for task in (self._beat, self._checker):
            if task is not None:
                task.cancel()

    async def _heartbeat(self):
        """Every ``heartbeat`` seconds a ``KEEPALIVE`` to every client (one that stopped reading,
        its queue full, is skipped: it would only push out a state)."""
        while True:
            await asyncio.sleep(self.heartbeat)
            for group in list(self.clients.values()):
                for queue in list(group):
                    if not queue.full():
                        queue.put_nowait(KEEPALIVE)

    def _resync(self):
        """Subscribed: what was built before may have missed a change (none is heard while not
        subscribed, and a stream may be served before the first subscription, ``current``'s
        wait given up): rebuild what is watched."""
        for tournament_id in set(self.latest) | set(self.clients):
            self.changed(tournament_id)

    async def _recheck(self):
        """Every ``recheck`` seconds while subscribed: ``catch_up`` with the counts of the
        tournaments watched here. A look that fails (Redis away) waits for the next: the
        subscription, when it is back, builds everything again anyway."""
        while True:
            await asyncio.sleep(self.recheck)
            if not self._listening.is_set():
                continue
            known = set(self.clients) | set(self.latest) | set(self._polled) | set(self._screens_polled)
            watched = [tournament_id for tournament_id in known if self._watched(tournament_id)]
            if not watched:
                continue
            try:
                counts = await asyncio.to_thread(change_counts, watched)
            except Exception as exc:
                log.warning("realtime: could not read the counts of changes: %s", exc)
                continue
            self.catch_up(counts)

    def catch_up(self, counts: dict[int, int]) -> None:
        """Build again each tournament of ``counts`` (its count of change notices sent) whose
        last build is behind it: a notice this process did not hear (published while it was
        not subscribed, or lost on its way); or not built since the last change heard (its
        builds failed). A build under way is left alone: the next look judges it."""
        for tournament_id, count in counts.items():
            builder = self._builders.get(tournament_id)
            if builder is not None and not builder.done():
                continue
            text, built = self.latest.get(tournament_id), self._built_at.get(tournament_id)
            if text is None or getattr(text, "changes", None) != count or built is None or built[0] != self._heard.get(tournament_id, 0):
                self.changed(tournament_id)

    async def _listen_redis(self):
        import redis.asyncio as aioredis

        while True:
            try:
                client = aioredis.Redis.from_url(settings.REDIS_URL)
                pubsub = client.pubsub()
                await pubsub.subscribe(channel())  # sent: Redis has it once it answers (below)
                async for message in pubsub.listen():
                    if message.get("type") == "subscribe":
                        # From now on every notice is heard; one published before, while the
                        # SUBSCRIBE was on its way (or the subscription lost), was not.
                        self._listening.set()
                        self._resync()
                        continue
                    if message.get("type") != "message":
                        continue
                    heard = json.loads(message["data"])
                    if heard.get("screen") or heard.get("login"):
                        self._on_message(heard)
                        continue
                    await self.publish_snapshot(heard.get("tournament"))
            except asyncio.CancelledError:
                self._listening.clear()
                raise
            except Exception:
                self._listening.clear()
                log.warning("realtime: redis subscription lost, retrying in %s s", self.resubscribe_after)
                await asyncio.sleep(self.resubscribe_after)


hub = Hub()
