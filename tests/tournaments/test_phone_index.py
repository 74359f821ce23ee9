"""The players' phones cost what a lobby screen costs.

Per change the hub builds, once for every phone of the tournament, the public part (one frame,
the same bytes for all) and an index of each entry's own part; a phone's stream takes its frames
from memory and sends its own part only when it changed. Open public streams are capped per
phone token (the oldest ends) and per client address (429).

The streams are driven in process, on the hub's in-process path (no Redis), through the real
views; the services change the database as the floor does.
"""

import asyncio
import gc
import json
import time

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import AsyncRequestFactory

from seating.models import PendingMove, Seat
from tdmanager import realtime
from tests.servers import closing
from tournaments.live import views as live
from tournaments.models import DisplayScreen, Entry
from tournaments.phone import views as phone

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def hub(settings, monkeypatch):
    """A fresh hub, the tournaments app's builders handed to it; the process's listeners restored after."""
    settings.REDIS_URL = ""
    listeners = list(realtime.changes._local_listeners)
    fresh = realtime.Hub()
    fresh.snapshot_builder, fresh.phone_builder = realtime.hub.snapshot_builder, realtime.hub.phone_builder
    monkeypatch.setattr(realtime, "hub", fresh)
    yield fresh
    realtime.changes._local_listeners[:] = listeners


async def in_thread(fn, *args):
    return await asyncio.to_thread(closing(fn), *args)


class Stream:
    """A streaming response read event by event: ``(name, data)``."""

    def __init__(self, response):
        self.response = response
        self.status = response.status_code
        self.events = aiter(response.streaming_content) if response.status_code == 200 else None

    async def next(self):
        async for chunk in self.events:
            text = chunk.decode() if isinstance(chunk, bytes) else chunk
            if text.startswith("event: "):
                name, data = text[len("event: ") :].split("\ndata: ", 1)
                return name, json.loads(data)
        return None  # the stream ended

    async def until_seq(self, seq):
        """The events up to and including the first public state at ``seq`` or later."""
        seen = []
        while True:
            event = await self.next()
            assert event is not None, f"the stream ended before seq {seq}: {seen}"
            seen.append(event)
            if event[0] == "state" and event[1]["seq"] >= seq:
                return seen

    async def close(self):
        """The client goes away, as the server sees it: the read waiting for the next frame is
        cancelled (frames already waiting are read first)."""
        if self.events is None:
            return
        while True:
            read = asyncio.ensure_future(self.next())
            await asyncio.sleep(0)
            if not read.done():
                read.cancel()
                await asyncio.gather(read, return_exceptions=True)
                return
            if read.result() is None:
                return  # it had ended


rf = AsyncRequestFactory()


async def open_phone(entry, address="127.0.0.1"):
    request = rf.get(f"/p/{entry.phone_token}/stream/")
    request.META["REMOTE_ADDR"] = address
    return Stream(await in_thread(phone.phone_stream, request, entry.phone_token))


def last_seq(t):
    return t.events.order_by("-id").values_list("id", flat=True).first()


def own_parts(t) -> dict:
    """Each entry's own data as the floor would read it off the room: status, place, seat, move."""
    seats = {e: (table, seat) for e, table, seat in Seat.objects.filter(tournament=t).values_list("entry_id", "table__number", "number")}
    moves = {}
    for e, to_table, to_seat in (
        PendingMove.objects.filter(tournament=t, status=PendingMove.PROPOSED).order_by("-id").values_list("entry_id", "to_table", "to_seat")
    ):
        moves[e] = (to_table, to_seat)
    return {e.pk: (e.status, e.place, seats.get(e.pk), moves.get(e.pk)) for e in Entry.objects.filter(tournament=t)}


@pytest.fixture
def room(make_tournament, make_person, cashier_actor, actor):
    """25 players at three tables of nine, the clock running."""
    from tournaments.cashier import services as cashier
    from tournaments.clock import services as clock_services
    from tournaments.setup import lifecycle

    t = make_tournament(name="Phones")
    entries = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(25)]
    lifecycle.start(t, actor=actor)
    clock_services.start_clock(t, actor=actor)
    return t, [Entry.objects.get(pk=e.pk) for e in entries]


def test_a_bust_at_table_3_changes_the_phones_of_its_players_and_everyones_players_left_and_no_phone_reads(hub, room, monkeypatch, actor):
    from seating import services as seating
    from tournaments.clock import services as clock_services

    t, entries = room
    index_builds = []

    def counted(tournament_id, snap, previous):
        index_builds.append(tournament_id)
        return phone.phone_index(tournament_id, snap, previous)

    hub.phone_builder = counted
    table_of = {e: table for e, table in Seat.objects.filter(tournament=t).values_list("entry_id", "table__number")}
    victim = next(e for e in entries if table_of[e.pk] == 3)
    before = own_parts(t)

    async def run():
        phones = [await open_phone(e) for e in entries]
        firsts = []
        for p in phones:
            firsts.append([await p.next(), await p.next()])  # the public state, then its own part
        builds_at_connect = len(index_builds)

        # From here on a phone's frame may not read the database for that phone.
        def no_read(*_args, **_kwargs):
            raise AssertionError("a phone read the database for itself")

        monkeypatch.setattr(phone, "phone_state", no_read)
        monkeypatch.setattr(phone, "entry_for", no_read)
        await in_thread(lambda: seating.record_bust(t, [victim], actor=actor, table=3))
        bust_seq = await in_thread(last_seq, t)
        after_bust = [await p.until_seq(bust_seq) for p in phones]
        # The next change (a pause changes nobody's own part) closes the window of the bust's frames.
        await in_thread(lambda: clock_services.pause(t, actor=actor))
        pause_seq = await in_thread(last_seq, t)
        after_pause = [await p.until_seq(pause_seq) for p in phones]
        for p in phones:
            await p.close()
        hub.stop_heartbeat()
        return firsts, builds_at_connect, after_bust, after_pause

    firsts, builds_at_connect, after_bust, after_pause = asyncio.run(run())
    after = own_parts(t)
    changed = {pk for pk in before if before[pk] != after[pk]}
    assert victim.pk in changed and len(changed) < len(entries)

    for e, first in zip(entries, firsts):
        (kind, public), (kind2, own) = first
        assert (kind, kind2) == ("state", "entry")
        assert public["players_left"] == 25 and "entry" not in public and "seats" not in public and "moves" not in public
        assert own["entry"]["number"] == e.number and own["seat"] == {"table": table_of[e.pk], "seat": before[e.pk][2][1]}
    assert builds_at_connect <= 2  # 25 phones connecting: one index, not one per phone

    for e, events, window in zip(entries, after_bust, after_pause):
        states = [data for name, data in events if name == "state"]
        assert states[-1]["players_left"] == 24  # everyone's "players left"
        own = [data for name, data in events + window[:-1] if name == "entry"]
        if e.pk in changed:
            assert own, f"entry {e.number} changed and its phone was not told"
            status, place, seat, move = after[e.pk]
            assert own[-1]["entry"]["status"] == status and own[-1]["entry"]["place"] == place
            assert own[-1]["seat"] == (None if seat is None or status != Entry.ACTIVE else {"table": seat[0], "seat": seat[1]})
            assert (own[-1]["move"] or {}).get("to_table") == (move[0] if move else None)
        else:
            assert own == [], f"entry {e.number}'s phone was sent its own part though it did not change"
    at = entries.index(victim)
    victim_own = [data for name, data in after_bust[at] + after_pause[at] if name == "entry"][-1]
    assert victim_own["entry"]["status"] == "BUSTED" and victim_own["entry"]["place"] == 25 and victim_own["seat"] is None
    assert all(w[-1][1]["clock"]["status"] == "PAUSED" for w in after_pause)
    assert len(index_builds) <= builds_at_connect + 4  # the bust and the pause: a build each, at most coalesced pairs


def test_the_phone_polling_fallback_answers_from_the_hubs_index_while_it_is_current(hub, room, monkeypatch):
    from django.test import Client

    t, entries = room
    mine = entries[4]

    async def run():
        stream = await open_phone(mine)
        await stream.next(), await stream.next()
        return stream

    loop = asyncio.new_event_loop()
    stream = loop.run_until_complete(run())
    try:
        # The hub's latest build is current: the poll takes it and reads nothing for the phone.
        def no_read(*_args, **_kwargs):
            raise AssertionError("the poll read the whole state though the hub's was current")

        monkeypatch.setattr(phone, "phone_state", no_read)
        data = Client().get(f"/p/{mine.phone_token}/state/").json()
        assert data["entry"]["number"] == mine.number and data["players_left"] == 25 and data["seat"]
        assert data["tournament"]["name"] == "Phones"
    finally:
        loop.run_until_complete(stream.close())
        hub.stop_heartbeat()
        loop.close()


def test_a_fourth_stream_of_one_token_ends_the_oldest(hub, room):
    t, entries = room
    mine = entries[0]

    async def run():
        streams = [await open_phone(mine) for _ in range(3)]
        for s in streams:
            await s.next(), await s.next()
        newest = await open_phone(mine)
        await newest.next(), await newest.next()
        oldest_after = await streams[0].next()  # ended: the newest page wins
        held = {tid: n for tid, n in hub.phones.items()}
        for s in [*streams[1:], newest]:
            await s.close()
        hub.stop_heartbeat()
        return oldest_after, held, len(hub.by_token.get(mine.phone_token, ()))

    oldest_after, held, left = asyncio.run(run())
    assert oldest_after is None
    assert held == {t.pk: 3} and left == 0


def test_past_the_cap_of_open_streams_an_address_gets_429_and_a_closed_or_dropped_stream_gives_its_place_back(hub, room, settings):
    settings.TDM_STREAMS_PER_ADDRESS = 2
    t, entries = room
    screen = DisplayScreen.objects.create(name="Lobby TV", tournament=t, token="lobby-tv-token")

    def lobby(address):
        request = rf.get(f"/live/{t.pk}/stream/", {"token": screen.token})
        request.META["REMOTE_ADDR"] = address
        request.user = AnonymousUser()
        return Stream(live.live_stream(request, t.pk))

    async def run():
        a = await open_phone(entries[0], "10.0.0.1")
        b = await open_phone(entries[1], "10.0.0.1")
        third = await open_phone(entries[2], "10.0.0.1")  # a phone past the address's cap
        screen_refused = await in_thread(lobby, "10.0.0.1")  # a lobby screen counts with the phones
        elsewhere = await open_phone(entries[2], "10.0.0.2")
        await a.next()
        await a.close()  # a closed stream gives its place back
        again = await open_phone(entries[3], "10.0.0.1")
        await again.next()
        await b.close()
        # A stream handed out but never sent (the client left first) gives its place back too.
        dropped = await open_phone(entries[4], "10.0.0.1")
        refused_while_held = (await open_phone(entries[5], "10.0.0.1")).status
        dropped = None  # noqa: F841 (dropped unsent)
        gc.collect()
        after_drop = await in_thread(lobby, "10.0.0.1")
        statuses = (third.status, screen_refused.status, elsewhere.status, again.status, refused_while_held, after_drop.status)
        body = json.loads(third.response.content)
        retry = third.response["Retry-After"]
        for s in (elsewhere, again, after_drop):
            await s.close()
        hub.stop_heartbeat()
        return statuses, body, retry

    statuses, body, retry = asyncio.run(run())
    assert statuses == (429, 429, 200, 200, 429, 200)
    assert body["code"] == "too_many_streams" and body["detail"] and int(retry) > 0
    assert hub.admissions.open == {}  # every place given back


def test_the_index_keeps_what_did_not_change_and_works_the_prizes_out_once_somebody_may_have_won(room, monkeypatch, actor):
    from payouts import selectors as payouts
    from payouts.selectors import others as asked  # where the phone's prizes look ``dues`` up
    from seating import services as seating
    from tournaments.live.snapshot import build_snapshot

    t, entries = room
    worked_out = []
    dues = payouts.dues
    monkeypatch.setattr(asked, "dues", lambda *a, **kw: worked_out.append(1) or dues(*a, **kw))

    def index(previous):
        snap = build_snapshot(t.pk)
        return snap, phone.phone_index(t.pk, snap, previous)[1]

    snap, first = index({})
    _snap, again = index(first)
    assert all(again[pk] is first[pk] for pk in first) and len(first) == 25  # nothing changed: the very same parts

    out = entries[24]
    seating.record_bust(t, [out], actor=actor)
    snap, after = index(again)
    assert after[out.pk] is not again[out.pk] and after[out.pk].part["entry"]["place"] == 25
    assert after[out.pk].part["prizes"] == [] and worked_out == []  # place 25 of 25: far from the money
    assert snap["places_paid"] < 25

    # Down to the money: each placed player's phone shows what the per-entry page shows.
    for e in reversed(entries[1:24]):
        seating.record_bust(t, [e], actor=actor)
    snap, last = index(after)
    assert worked_out  # somebody won: the payout table is worked out
    winner = Entry.objects.get(pk=entries[0].pk)
    assert winner.place == 1 and last[winner.pk].part["prizes"][0]["amount"] == snap["payouts"][0]["amount"]
    for e in Entry.objects.filter(tournament=t, place__isnull=False):
        assert last[e.pk].part["prizes"] == payouts.entry_prizes(e)["prizes"], e.place
    paid = [e for e in entries if last[e.pk].part["prizes"]]
    assert len(paid) == snap["places_paid"]


def test_a_phone_token_the_hub_knows_is_streamed_from_memory_without_a_thread_or_a_read(hub, room, monkeypatch, director):
    """After a web process went down, its phones come back to the other one at once. There a
    phone whose tournament's phones are watched (its token in the hub's index) is served on the
    event loop: no thread of either pool, no database read, the same frames. A token the index
    does not know goes to the view, which looks it up (an unknown one is a 404), and a
    cancelled entry's token is forgotten at the next build."""
    from tdmanager.asgi import Application
    from tests.test_serving import Exchange
    from tournaments.cashier import services as cashier
    from tournaments.eventlog.services import Actor

    t, entries = room
    first, second = entries[0], entries[1]
    app = Application()

    def phone_scope(token, client="10.2.0.1"):
        path = f"/p/{token}/stream/"
        return {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": [(b"host", b"127.0.0.1:8000")],
            "client": (client, 5555),
            "server": ("127.0.0.1", 8000),
        }

    def events_of(exchange):
        body = b"".join(m.get("body", b"") for m in exchange.sent[1:])
        return [line for block in body.split(b"\n\n") for line in block.split(b"\n") if line.startswith(b"event: ")]

    def two_frames(exchange):  # the public state and the entry's own part: then the phone hangs up
        return len(events_of(exchange)) >= 2

    async def scenario():
        by_view = await Exchange(app, phone_scope(first.phone_token), until=two_frames).run()  # nobody watched: the view
        assert hub.phone_of(second.phone_token) == (t.pk, second.pk)

        def no_thread(*_args, **_kwargs):
            raise AssertionError("a known phone took a thread")

        def no_read(*_args, **_kwargs):
            raise AssertionError("a known phone read the database")

        with monkeypatch.context() as m:
            m.setattr(app.public_pool, "submit", no_thread)
            m.setattr(app.pool, "submit", no_thread)
            m.setattr(phone, "entry_for", no_read)
            from_memory = await Exchange(app, phone_scope(second.phone_token), until=two_frames).run()
        unknown = await Exchange(app, phone_scope("no-such-token-at-all")).run()
        return by_view, from_memory, unknown

    try:
        by_view, from_memory, unknown = asyncio.run(scenario())
    finally:
        hub.stop_heartbeat()
        app.close()
    for answer in (by_view, from_memory):
        assert answer.status == 200 and answer.header("content-type") == ["text/event-stream"]
        assert events_of(answer)[:2] == [b"event: state", b"event: entry"]
    own = json.loads(b"".join(m.get("body", b"") for m in from_memory.sent[1:]).split(b"event: entry\ndata: ")[1].split(b"\n\n")[0])
    assert own["entry"]["number"] == second.number and own["seat"]
    assert unknown.status == 404
    assert hub.admissions.open == {}  # both streams gave their places back

    # A cancelled entry: the next build's index forgets its token.
    cashier.reverse(cashier_row(second), reason="sold to the wrong player", actor=Actor(director, "desk"))

    async def rebuild():
        queue = await hub.connect(t.pk, token=first.phone_token)
        hub.changed(t.pk)  # what the reverse announced (heard by a hub whose event loop runs on)
        text = await hub.current(t.pk, phone=True)
        hub.disconnect(t.pk, queue, token=first.phone_token)
        hub.stop_heartbeat()
        return text

    asyncio.run(rebuild())
    assert hub.phone_of(second.phone_token) is None and hub.phone_of(first.phone_token) == (t.pk, first.pk)


def cashier_row(entry):
    from tournaments.models import LedgerRow

    return LedgerRow.objects.filter(entry=entry).order_by("id").first()


def test_a_known_phone_tokens_state_is_answered_from_memory_as_the_view_reads_it(hub, room, monkeypatch):
    """A phone's polling fallback (``/p/<token>/state/``), its token in the hub's index and its
    tournament's build current: answered on the event loop with no thread and no database read,
    and what it answers is what the view reads from the database for that entry. A bust changes
    the answer at the next build."""
    from tdmanager.asgi import Application
    from tests.test_serving import Exchange

    t, entries = room
    player = entries[3]
    app = Application()

    def state_scope(token):
        path = f"/p/{token}/state/"
        return {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": [(b"host", b"127.0.0.1:8000")],
            "client": ("10.2.0.1", 5555),
            "server": ("127.0.0.1", 8000),
        }

    def no_thread(*_args, **_kwargs):
        raise AssertionError("a known phone's state took a thread")

    def no_read(*_args, **_kwargs):
        raise AssertionError("a known phone's state read the database")

    async def watched_state():
        watcher = await open_phone(entries[0])  # a phone of the tournament open: its phones are indexed
        await watcher.next()
        with monkeypatch.context() as m:
            m.setattr(app.public_pool, "submit", no_thread)
            m.setattr(app.pool, "submit", no_thread)
            m.setattr(phone, "entry_for", no_read)
            answer = await Exchange(app, state_scope(player.phone_token)).run()
        await watcher.close()
        return answer

    try:
        answer = asyncio.run(watched_state())
    finally:
        hub.stop_heartbeat()
        app.close()
    assert answer.status == 200 and answer.header("content-type") == ["application/json"]
    served = json.loads(b"".join(m.get("body", b"") for m in answer.sent[1:]))
    read = json.loads(json.dumps(phone.phone_state(player.pk), default=str))
    assert served["entry"] == read["entry"] and served["entry"]["number"] == player.number
    assert served["seat"] == read["seat"] and served["seat"] is not None
    assert served["players_left"] == read["players_left"] == 25
    assert served["clock"]["status"] == read["clock"]["status"] == "RUNNING"


def test_a_phones_poll_is_answered_from_memory_while_the_next_build_is_under_way(hub, room):
    """Under a steady stream of changes a build is nearly always pending: a phone's poll then
    takes the last build (as recent as a stream's last frame), never a whole read of its own."""
    t, entries = room
    player = entries[5]

    async def scenario():
        watcher = await open_phone(entries[0])
        await watcher.next()
        built = hub.phone_state(t.pk, player.pk)
        hub.min_interval = 30  # the next build waits for its window: a change stays pending
        hub.changed(t.pk)
        await asyncio.sleep(0)
        pending = hub.phone_state(t.pk, player.pk)
        await watcher.close()
        return built, pending

    try:
        built, pending = asyncio.run(scenario())
    finally:
        hub.stop_heartbeat()
    assert built is not None and json.loads(built)["entry"]["number"] == player.number
    assert pending == built


async def started(app):
    """The web app's lifespan startup, as uvicorn sends it before the first request (the hub
    starts listening there); the process-wide tuning it also does is left out of the tests."""
    from tdmanager import asgi

    messages = [{"type": "lifespan.startup"}]
    sent = []
    ready = asyncio.Event()

    async def receive():
        if messages:
            return messages.pop()
        await ready.wait()  # the shutdown never comes: the task is cancelled with the loop
        return {"type": "lifespan.shutdown"}

    async def send(message):
        sent.append(message["type"])

    original = asgi.settle_process
    asgi.settle_process = lambda: None
    try:
        task = asyncio.get_running_loop().create_task(app(scope={"type": "lifespan"}, receive=receive, send=send))
        while "lifespan.startup.complete" not in sent:
            assert not task.done(), "the lifespan ended before its startup completed"
            await asyncio.sleep(0.01)
    finally:
        asgi.settle_process = original
    return task


def test_the_hub_listens_from_the_web_apps_startup_before_any_stream_or_poll(hub):
    """A process whose first public requests are polls must have its hub listening already
    (``Hub.polled`` does nothing without it): the lifespan startup starts it."""
    from tdmanager.asgi import Application

    app = Application()

    async def scenario():
        assert hub.loop is None
        task = await started(app)
        listening = hub.loop is asyncio.get_running_loop()
        task.cancel()
        return listening

    try:
        assert asyncio.run(scenario())
    finally:
        hub.stop_heartbeat()
        app.close()


def test_phones_that_only_poll_are_answered_from_memory_after_the_first_poll_and_follow_a_bust(hub, room, monkeypatch, actor):
    """A room of phones that cannot hold a stream open (a venue proxy) polls ``/p/<token>/state/``
    every 5 s, with no stream of the tournament open in this web process. The first poll is
    read by the view, which hands the tournament to the hub (``Hub.polled``): from then
    on, while phones poll, every change builds their index once, and the others' polls (and the
    next page load) are answered from memory, with no thread and no read of their own; a bust
    reaches them at the next build."""
    from seating import services as seating
    from tdmanager.asgi import Application
    from tests.test_serving import Exchange

    t, entries = room
    first, player = entries[0], entries[6]
    app = Application()

    def state_scope(token):
        path = f"/p/{token}/state/"
        return {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": [(b"host", b"127.0.0.1:8000")],
            "client": ("10.3.0.1", 5555),
            "server": ("127.0.0.1", 8000),
        }

    def no_thread(*_args, **_kwargs):
        raise AssertionError("a polled phone's state took a thread")

    def no_read(*_args, **_kwargs):
        raise AssertionError("a polled phone's state read the database")

    def body(answer):
        return json.loads(b"".join(m.get("body", b"") for m in answer.sent[1:]))

    async def until(predicate, seconds=10):
        for _ in range(int(seconds / 0.02)):
            if predicate():
                return
            await asyncio.sleep(0.02)
        raise AssertionError("the hub did not get there")

    async def scenario():
        await started(app)
        read = await Exchange(app, state_scope(first.phone_token)).run()  # nothing watched here: the view reads
        await until(lambda: hub.phone_of(player.phone_token) is not None)
        with monkeypatch.context() as m:
            m.setattr(app.public_pool, "submit", no_thread)
            m.setattr(app.pool, "submit", no_thread)
            m.setattr(phone, "entry_for", no_read)
            m.setattr(phone, "phone_state", no_read)
            from_memory = await Exchange(app, state_scope(player.phone_token)).run()
            seated = body(from_memory)["seat"]
            builds = hub.builds
            await in_thread(lambda: seating.record_bust(t, [Entry.objects.get(pk=player.pk)], actor=actor))
            await until(lambda: hub.builds > builds and hub.fresh(t.pk) is not None)
            after_bust = await Exchange(app, state_scope(player.phone_token)).run()
        return read, from_memory, seated, after_bust

    try:
        read, from_memory, seated, after_bust = asyncio.run(scenario())
    finally:
        hub.stop_heartbeat()
        app.close()
    assert hub.phones == {}  # no stream was ever open
    assert read.status == from_memory.status == after_bust.status == 200
    assert body(read)["entry"]["number"] == first.number
    assert body(from_memory)["entry"]["number"] == player.number and seated is not None
    busted = body(after_bust)
    assert busted["entry"]["status"] == "BUSTED" and busted["seat"] is None and busted["players_left"] == 24

    # Past the window with no poll, nothing is kept for it: the next change builds nothing.
    hub.clock = lambda: time.monotonic() + hub.poll_window + 1
    assert not hub._watched(t.pk)


def test_a_lobby_screen_that_only_polls_is_answered_from_memory_after_the_first_poll(hub, room, monkeypatch):
    """A lobby screen without its stream polls ``/live/<id>/state/?token=``: the first poll builds
    the snapshot in the view, which hands the tournament to the hub; the next polls get the
    hub's build as it is (no snapshot built per poll)."""
    from tdmanager.asgi import Application
    from tests.test_serving import Exchange
    from tournaments.live import snapshot

    t, _entries = room
    screen = DisplayScreen.objects.create(name="Lobby TV", tournament=t, token="polling-tv-token")
    app = Application()
    path = f"/live/{t.pk}/state/"
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": f"token={screen.token}".encode(),
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1:8000")],
        "client": ("10.3.0.2", 5555),
        "server": ("127.0.0.1", 8000),
    }

    def no_build(*_args, **_kwargs):
        raise AssertionError("a polled screen's state was built for it")

    async def scenario():
        await started(app)
        read = await Exchange(app, dict(scope)).run()
        for _ in range(500):
            if hub.screen_state(t.pk) is not None:
                break
            await asyncio.sleep(0.02)
        with monkeypatch.context() as m:
            m.setattr(live, "build_snapshot", no_build)
            m.setattr(snapshot, "build_snapshot", no_build)
            from_memory = await Exchange(app, dict(scope)).run()
        return read, from_memory

    try:
        read, from_memory = asyncio.run(scenario())
    finally:
        hub.stop_heartbeat()
        app.close()
    first, second = (json.loads(b"".join(m.get("body", b"") for m in a.sent[1:])) for a in (read, from_memory))
    assert read.status == from_memory.status == 200
    assert second["tournament"]["id"] == first["tournament"]["id"] == t.pk and second["players_left"] == first["players_left"] == 25
    assert hub.clients == {}  # no stream was ever open


def test_a_build_whose_running_level_has_ended_is_not_answered_from_memory():
    """A running clock's level ends by the time: with no worker to change the row, the state
    read anew already shows the next level, so a poll must not get the old build from memory
    (a lobby screen asks for the state when its countdown reaches zero)."""
    fresh = realtime.Hub()
    running = {"clock": {"status": "RUNNING", "seconds_left": 0.05, "level_number": 2}}
    text = realtime.frames._built(lambda _tid: running, 7)
    fresh.latest[7], fresh._built_at[7], fresh._heard[7] = text, (0, fresh.clock()), 0
    fresh._listening.set()
    assert fresh._is_current(7)
    time.sleep(0.1)
    assert not fresh._is_current(7)
    paused = realtime.frames._built(lambda _tid: {"clock": {"status": "PAUSED", "seconds_left": 0.05}}, 7)
    fresh.latest[7] = paused
    time.sleep(0.1)
    assert fresh._is_current(7)  # a paused clock's state holds until a change
