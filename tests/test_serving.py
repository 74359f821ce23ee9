"""The web application (tdmanager/asgi.py): sync views on a thread pool, side by side; async views
(the live streams) on the event loop; static files, CSP, error answers and body limits as before.

The app is driven in process through ASGI messages, as uvicorn drives it.
"""

import asyncio
import gc
import json
import sys
import threading

import pytest
from django.test import override_settings

from tdmanager.csp import HEADER as CSP

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def app(settings):
    from tdmanager.asgi import Application

    settings.TDM_WEB_THREADS = 4
    switch = sys.getswitchinterval()
    application = Application()
    yield application
    application.close()
    # A lifespan startup set the switch interval and froze the test process's objects: as before.
    sys.setswitchinterval(switch)
    gc.unfreeze()


def scope(method, path, *, query=b"", headers=(), scheme="http"):
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": scheme,
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1:8000"), *headers],
        "client": ("10.1.2.3", 5555),
        "server": ("127.0.0.1", 8000),
    }


class Exchange:
    """One request: the body in ``chunks`` (``more_body`` between them), then the client waits
    (or hangs up when ``hang_up`` is set); the answer's messages are collected in ``sent``."""

    def __init__(self, app, scope, chunks=(b"",), until=None):
        self.app, self.scope, self.until = app, scope, until
        self.messages = [{"type": "http.request", "body": c, "more_body": i < len(chunks) - 1} for i, c in enumerate(chunks)]
        self.sent = []
        self.hang_up = asyncio.Event()
        self.news = asyncio.Event()  # set at every message sent

    async def receive(self):
        if self.messages:
            return self.messages.pop(0)
        await self.hang_up.wait()
        return {"type": "http.disconnect"}

    async def send(self, message):
        self.sent.append(message)
        self.news.set()
        if self.until is not None and self.until(self):
            self.hang_up.set()

    async def wait_for(self, predicate, timeout=10):
        async def until():
            while not predicate(self):
                self.news.clear()
                await self.news.wait()

        await asyncio.wait_for(until(), timeout)

    async def run(self):
        await self.app(self.scope, self.receive, self.send)
        return self

    @property
    def status(self):
        return self.sent[0]["status"]

    def header(self, name):
        return [v.decode("latin1") for k, v in self.sent[0]["headers"] if k.decode("latin1").lower() == name.lower()]

    @property
    def body(self):
        return b"".join(m.get("body", b"") for m in self.sent[1:])

    def json(self):
        return json.loads(self.body)


def call(app, method, path, **kw):
    chunks = kw.pop("chunks", (b"",))
    return asyncio.run(Exchange(app, scope(method, path, **kw), chunks).run())


@override_settings(ROOT_URLCONF="tests.serving_urls")
def test_two_sync_requests_are_served_side_by_side(app):
    """Each request waits inside its view for the other: both meet only when they run at once,
    each on a thread of the pool (under one-at-a-time serving the first would wait alone)."""
    from tests import serving_urls

    serving_urls.meeting["barrier"] = threading.Barrier(2, timeout=10)

    async def both():
        return await asyncio.gather(*(Exchange(app, scope("GET", "/test-serving/meet/")).run() for _ in range(2)))

    answers = asyncio.run(both())
    assert [a.status for a in answers] == [200, 200]
    seen = [a.json() for a in answers]
    assert all(s["met"] for s in seen)
    assert all(s["thread"].startswith("tdm-web") for s in seen) and seen[0]["thread"] != seen[1]["thread"]


@override_settings(ROOT_URLCONF="tests.serving_urls", TDM_WEB_THREADS=0)
def test_no_threads_serves_every_request_through_djangos_asgi_handler():
    from tdmanager.asgi import Application

    r = call(Application(), "GET", "/test-serving/echo/x/")
    assert r.status == 200 and not r.json()["thread"].startswith("tdm-web")


@override_settings(ROOT_URLCONF="tests.serving_urls", SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
def test_the_view_sees_the_request_as_sent(app):
    """Path (not ASCII), query, client address, host, cookies (two Cookie headers), the proxy's
    HTTPS header; a header spelled with underscores is dropped, not read as X-Forwarded-Proto."""
    r = call(
        app, "GET", "/test-serving/echo/caffè/", query=b"q=tavolo%207", headers=[(b"x-forwarded-proto", b"https"), (b"cookie", b"a=1"), (b"cookie", b"b=2")]
    )
    assert r.status == 200
    assert r.json() == {
        "path": "/test-serving/echo/caffè/",
        "query": "tavolo 7",
        "secure": True,
        "remote": "10.1.2.3",
        "host": "127.0.0.1:8000",
        "cookie": "1",
        "length": 0,
        "thread": r.json()["thread"],
    }
    spoofed = call(app, "GET", "/test-serving/echo/x/", headers=[(b"x_forwarded_proto", b"https")])
    assert spoofed.json()["secure"] is False


@override_settings(ROOT_URLCONF="tests.serving_urls")
def test_a_body_sent_in_pieces_arrives_whole(app):
    r = call(app, "POST", "/test-serving/echo/x/", chunks=(b"a" * 700, b"b" * 700, b""), headers=[(b"content-type", b"application/octet-stream")])
    assert r.status == 200 and r.json()["length"] == 1400


@override_settings(TDM_BODY_JSON=1000)
def test_body_limits_hold_with_and_without_a_declared_length(app, director):
    from tournaments.staff.logins import issue_token

    auth = (b"authorization", f"Token {issue_token(director, device='test')[1]}".encode())
    json_type = (b"content-type", b"application/json")
    declared = call(app, "POST", "/api/v1/people/", chunks=(b"x" * 5000,), headers=[auth, json_type, (b"content-length", b"5000")])
    assert declared.status == 413 and declared.json()["code"] == "request_too_large"
    chunked = call(app, "POST", "/api/v1/people/", chunks=(b"x" * 3000, b"x" * 3000, b""), headers=[auth, json_type])
    assert chunked.status == 413 and chunked.json()["code"] == "request_too_large"
    small = call(app, "POST", "/api/v1/people/", chunks=(b'{"first_name": "Ada", ', b'"last_name": "Serving"}', b""), headers=[auth, json_type])
    assert small.status == 201, small.body


def test_errors_under_api_are_code_and_detail_json(app):
    r = call(app, "GET", "/api/v1/no-such-thing/")
    assert r.status == 404 and set(r.json()) == {"code", "detail"} and r.json()["code"] == "not_found"
    r = call(app, "GET", "/api/v1/people/")
    assert r.status in (401, 403) and set(r.json()) == {"code", "detail"}


def test_static_files_with_the_policy(app):
    from pathlib import Path

    from django.conf import settings

    r = call(app, "GET", "/static/tdm.js")
    assert r.status == 200
    assert r.body == (Path(settings.BASE_DIR) / "static" / "tdm.js").read_bytes()
    assert r.header("content-type")[0].startswith("text/javascript") or r.header("content-type")[0].startswith("application/javascript")
    assert "script-src 'self'" in r.header("content-security-policy")[0]


def test_pages_carry_the_policy_and_their_cookies(app):
    r = call(app, "GET", "/login/")
    assert r.status == 200 and b"<form" in r.body
    assert r.header(CSP.lower())[0].startswith("default-src 'self'")
    cookies = r.header("set-cookie")
    assert any(c.startswith("csrftoken=") for c in cookies)  # a valid header: no leading space


def test_the_live_stream_streams_on_the_event_loop(app, make_tournament):
    """A lobby screen's SSE stream: the state at once, then a new state after a change, on the
    same open response, sent from the event loop: more screens than the pool has threads all
    stream at once (its checks ran on a pool thread, which is free again), and a screen that
    hangs up is no longer served."""
    from tdmanager import realtime
    from tournaments.models import DisplayScreen

    t = make_tournament(name="Stream Test")
    DisplayScreen.objects.create(name="TV", tournament=t, token="serving-tv")
    frames = lambda ex: ex.body.count(b"event: state")  # noqa: E731
    screens = app.threads + 1

    async def watch():
        exs = [Exchange(app, scope("GET", f"/live/{t.pk}/stream/", query=b"token=serving-tv"), until=lambda ex: frames(ex) >= 2) for _ in range(screens)]
        tasks = [asyncio.create_task(ex.run()) for ex in exs]
        for ex in exs:
            await ex.wait_for(lambda ex: frames(ex) >= 1)
        loop = asyncio.get_running_loop()
        for _ in range(20):  # said again until heard: with Redis the hub subscribes in the background
            await loop.run_in_executor(None, realtime.tournament_changed, t.pk, "test")
            try:
                for ex in exs:
                    await ex.wait_for(lambda ex: frames(ex) >= 2, timeout=1)
                break
            except TimeoutError:
                continue
        await asyncio.wait_for(asyncio.gather(*tasks), 10)  # each hung up after its second state
        return exs, realtime.hub.clients.get(t.pk)

    exs, still_served = asyncio.run(watch())
    for ex in exs:
        assert ex.status == 200 and ex.header("content-type")[0].startswith("text/event-stream")
        assert frames(ex) >= 2
        assert "script-src 'self'" in ex.header("content-security-policy")[0]
    assert not still_served
    assert not app.is_async(scope("GET", f"/live/{t.pk}/stream/"))  # checked on a pool thread, streamed from the loop


def test_the_live_stream_refuses_as_before(app, make_tournament):
    """Checked on a pool thread now: no token, another tournament's screen, an unknown
    tournament are refused as they were (403), and nothing is streamed."""
    from tournaments.models import DisplayScreen

    t, other = make_tournament(name="Shown"), make_tournament(name="Not shown")
    DisplayScreen.objects.create(name="TV", tournament=other, token="other-tv")
    DisplayScreen.objects.create(name="TV2", tournament=t, token="shown-tv")
    assert call(app, "GET", f"/live/{t.pk}/stream/").status == 403
    assert call(app, "GET", f"/live/{t.pk}/stream/", query=b"token=other-tv").status == 403
    assert call(app, "GET", f"/live/{t.pk}/stream/", query=b"token=no-such-screen").status == 403
    assert call(app, "GET", f"/live/{t.pk + 1000}/stream/", query=b"token=shown-tv").status == 403


def lifespan(app) -> list[str]:
    """The app's lifespan, started and shut down as uvicorn does: the message types it sent."""
    sent, messages = [], [{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}]

    async def receive():
        return messages.pop(0)

    async def send(message):
        sent.append(message["type"])

    asyncio.run(app({"type": "lifespan", "asgi": {"version": "3.0"}}, receive, send))
    return sent


def test_lifespan_is_answered(app):
    assert lifespan(app) == ["lifespan.startup.complete", "lifespan.shutdown.complete"]


def test_the_loaded_process_is_kept_out_of_the_collectors_full_passes(app):
    """At startup the web process freezes what it has loaded (issue #15: a full pass of the
    cycle collector over it held every request and screen 80-100 ms): a full pass then walks
    only what was made since."""
    gc.unfreeze()
    loaded = len(gc.get_objects(generation=2))
    assert lifespan(app)[0] == "lifespan.startup.complete"
    assert gc.get_freeze_count() >= loaded // 2  # what was loaded is frozen ...
    assert len(gc.get_objects(generation=2)) < loaded // 10  # ... and out of a full pass


def test_the_switch_interval_is_the_setting_once_started(app, settings):
    """TDM_WEB_SWITCH_US is the interpreter's switch interval once the web process has started
    (a snapshot build's thread gets the interpreter back after each query sooner than with
    Python's own 5 ms)."""
    settings.TDM_WEB_SWITCH_US = 1500
    assert lifespan(app)[0] == "lifespan.startup.complete"
    assert sys.getswitchinterval() == pytest.approx(0.0015)


def _opened_connections(app, token, requests, threads_seen, wrappers=None):
    """Database connections opened while ``requests`` authenticated API calls are served (their
    Django connection objects appended to ``wrappers``)."""
    from django.db.backends.signals import connection_created

    opened = []

    def count(sender, connection, **kwargs):
        opened.append(threading.current_thread().name)
        if wrappers is not None:
            wrappers.append(connection)

    connection_created.connect(count)
    try:
        for _ in range(requests):
            answer = call(app, "GET", "/api/v1/cashier/shift/", headers=[(b"authorization", f"Token {token}".encode())])
            assert answer.status == 200, answer.body
    finally:
        connection_created.disconnect(count)
    threads_seen.update(opened)
    return len(opened)


@pytest.mark.parametrize("keep", [60, 0])
def test_a_pool_thread_keeps_its_connection_for_the_next_request(settings, keep):
    """Opening a SQLite connection (and its PRAGMAs, and reading the schema) cost every API call
    more than the call itself, and taking one from PostgreSQL's pool and giving it back about
    0.6 ms: a pool thread keeps its own for TDM_WEB_DB_KEEP seconds; 0 opens one (or takes one
    from the pool) per request as before. Django's ASGI handler (a new thread per request) never keeps."""
    from tdmanager.asgi import Application
    from tests.conftest import make_user
    from tournaments.staff.logins import issue_token

    token = issue_token(make_user("kept", "cashier"), device="test")[1]
    settings.TDM_WEB_DB_KEEP = keep
    settings.TDM_WEB_THREADS = 1
    app = Application()
    threads, wrappers = set(), []
    try:
        opened = _opened_connections(app, token, 4, threads, wrappers)
    finally:
        app.close()
    assert threads and all(name.startswith("tdm-web") for name in threads)
    assert opened == (1 if keep else 4)
    # Stopping the app closes what its threads kept (a test database could not be dropped otherwise).
    assert wrappers and all(w.connection is None for w in wrappers)
    settings.TDM_WEB_THREADS = 0
    assert _opened_connections(Application(), token, 3, set()) == 3
