"""The URLs anyone may ask without a login (tdmanager.public) in the web app (tdmanager/asgi.py):
bounded per client address and per token on the event loop (a refused request costs no thread
and no database read), and served on threads of their own, so that staff never wait for them.

The app is driven in process through ASGI messages, as in tests/test_serving.py. The buckets'
clock is frozen (``Clock``): a bucket refills only when a test moves the clock.
"""

import asyncio
import threading
from types import SimpleNamespace

import pytest
from django.http import HttpResponse
from django.test import override_settings
from django.urls import path

from tdmanager.urls import handler400, handler403, handler404, handler500  # noqa: F401
from tdmanager.urls import urlpatterns as product
from tests.test_serving import Exchange

pytestmark = pytest.mark.django_db(transaction=True)

# A public URL (by its name, as tdmanager.public knows it) whose view waits until released, in
# front of the product's own routes: ROOT_URLCONF="tests.test_public_limits".
held = {"release": threading.Event(), "entered": threading.Semaphore(0), "events": [], "lock": threading.Lock()}


def note(event):
    with held["lock"]:
        held["events"].append(event)


def held_state(request, token):
    note(("entered", token))
    held["entered"].release()
    held["release"].wait(30)
    note(("left", token))
    return HttpResponse(f"held {token} on {threading.current_thread().name}")


async def async_stream(request, token):
    return HttpResponse("streamed")


urlpatterns = [
    path("p/<str:token>/state/", held_state, name="phone-state"),
    path("p/<str:token>/stream/", async_stream, name="phone-stream"),
    *product,
]


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def make_app(settings):
    """An Application with the given limits (rates 1 a second, so a refused request waits 1 s)."""
    from tdmanager.asgi import Application

    made = []
    held["release"].clear()
    held["entered"] = threading.Semaphore(0)
    held["events"].clear()

    def make(*, address=(1, 1000), token=(1, 1000), threads=2, public_threads=2, refusal_delay=0):
        settings.TDM_WEB_THREADS, settings.TDM_WEB_PUBLIC_THREADS = threads, public_threads
        settings.TDM_PUBLIC_REFUSAL_DELAY = refusal_delay
        settings.TDM_PUBLIC_ADDRESS_RATE, settings.TDM_PUBLIC_ADDRESS_BURST = address
        settings.TDM_PUBLIC_TOKEN_RATE, settings.TDM_PUBLIC_TOKEN_BURST = token
        app = Application()
        app.limits.clock = Clock()
        made.append(app)
        return app

    yield make
    held["release"].set()
    for app in made:
        app.close()


def scope(path, *, query=b"", headers=(), client="10.1.2.3"):
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1:8000"), *headers],
        "client": (client, 5555),
        "server": ("127.0.0.1", 8000),
    }


def get(app, path, **kw):
    return asyncio.run(Exchange(app, scope(path, **kw)).run())


def test_past_the_per_token_limit_a_players_page_answers_429_with_retry_after(make_app):
    """Three requests of one phone token pass (an unknown token: the view answers 404), the
    fourth is refused with Retry-After and {"code", "detail"}; another token from the same
    address passes; a second later the token has one request again."""
    app = make_app(token=(1, 3))
    assert [get(app, "/p/tok-a/state/").status for _ in range(3)] == [404, 404, 404]
    refused = get(app, "/p/tok-a/state/")
    assert refused.status == 429
    assert refused.header("retry-after") == ["1"]
    assert refused.header("content-type") == ["application/json"]
    assert refused.json() == {"code": "rate_limited", "detail": "Too many requests. Try again later."}
    assert get(app, "/p/tok-a/stream/").status == 429  # every URL of the token counts
    assert get(app, "/p/tok-b/state/").status == 404
    app.limits.clock.now += 1
    assert get(app, "/p/tok-a/state/").status == 404
    assert get(app, "/p/tok-a/state/").status == 429


def test_a_refusal_is_held_for_its_delay_so_a_client_asking_again_at_once_asks_slowly(make_app):
    """A refused request's 429 is sent only once ``TDM_PUBLIC_REFUSAL_DELAY`` has passed: a
    flood that asks again as soon as it is answered gets one answer per delay and connection.
    Meanwhile the event loop serves others (a request of another token passes)."""
    app = make_app(token=(1, 1), refusal_delay=30)
    assert get(app, "/p/tok-slow/state/").status == 404

    async def refused_while_others_pass():
        refused = Exchange(app, scope("/p/tok-slow/state/"))
        waiting = asyncio.ensure_future(refused.run())
        other = await Exchange(app, scope("/p/tok-other/state/")).run()
        await asyncio.sleep(0.2)
        sent_meanwhile = list(refused.sent)
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
        return sent_meanwhile, other

    sent_meanwhile, other = asyncio.run(refused_while_others_pass())
    assert sent_meanwhile == [] and other.status == 404


def test_a_refused_page_is_plain_text_in_the_clients_language(make_app):
    app = make_app(token=(1, 1))
    assert get(app, "/p/tok-page/").status == 404
    refused = get(app, "/p/tok-page/", headers=[(b"accept-language", b"it")])
    assert refused.status == 429 and refused.header("content-type")[0].startswith("text/plain")
    assert refused.body.decode() == "Troppe richieste. Riprova più tardi."


def test_past_the_per_address_limit_the_seat_lookup_answers_429_and_another_address_passes(make_app, tournament):
    """The seat lookup has no token: its client address alone limits it. The server's time
    (asked in bursts by every page with a clock, no database read) is not limited."""
    app = make_app(address=(1, 4))
    find = f"/seats/{tournament.pk}/find/"
    assert [get(app, find, query=b"q=ada").status for _ in range(4)] == [200] * 4
    refused = get(app, find, query=b"q=ada")
    assert refused.status == 429 and refused.header("retry-after") == ["1"] and refused.json()["code"] == "rate_limited"
    assert get(app, f"/seats/{tournament.pk}/").status == 429  # the page too, from that address
    assert get(app, "/p/tok-new/state/").status == 429  # and any other public URL, whatever its token
    assert get(app, find, query=b"q=ada", client="10.9.9.9").status == 200
    assert get(app, "/live/time/").status == 200


def test_forwarded_for_is_ignored_from_an_untrusted_peer_and_believed_from_a_trusted_proxy(make_app, settings):
    settings.TDM_TRUSTED_PROXIES = ["127.0.0.1"]
    app = make_app(address=(1, 2))
    spoof = lambda ip: [(b"x-forwarded-for", ip.encode())]  # noqa: E731
    # An untrusted peer: a new X-Forwarded-For each time does not make it a new client.
    assert [get(app, "/p/t1/state/", client="10.0.0.9", headers=spoof(f"192.0.2.{i}")).status for i in range(3)] == [404, 404, 429]
    # Behind the trusted proxy: each forwarded client has its own bucket, the proxy's address none.
    proxied = lambda ip: get(app, "/p/t2/state/", client="127.0.0.1", headers=spoof(ip)).status  # noqa: E731
    assert [proxied("203.0.113.5") for _ in range(3)] == [404, 404, 429]
    assert proxied("203.0.113.6") == 404
    assert proxied("198.51.100.7, 203.0.113.5") == 429  # the right-most untrusted hop is the client


def test_a_screen_token_counts_as_its_view_reads_it_and_a_staff_session_is_not_limited(make_app, make_tournament):
    """A lobby screen's token is the last ``token`` parameter, as ``request.GET.get`` reads it
    (a decoy before it does not open a new bucket). The staff's own pages ask the live URLs
    without a token and with their session cookie: those are staff requests, never refused."""
    from tournaments.models import DisplayScreen

    t = make_tournament(name="Screens")
    DisplayScreen.objects.create(name="TV", tournament=t, token="tv-limit")
    app = make_app(token=(1, 2), address=(1, 3))
    state = f"/live/{t.pk}/state/"
    assert [get(app, state, query=b"token=tv-limit").status for _ in range(2)] == [200, 200]
    assert get(app, state, query=b"token=decoy&token=tv-limit").status == 429
    assert get(app, "/display/tv-limit/").status == 429  # the screen's page shares its token's bucket
    assert get(app, state, query=b"token=decoy").status == 403  # the address's third request
    assert get(app, state, query=b"token=decoy2").status == 429  # the address is spent too
    staff = [(b"cookie", b"sessionid=not-checked-here")]
    assert get(app, state, headers=staff).status == 403  # let through: the view decides (no such session)
    assert get(app, state, query=b"token=tv-limit", headers=staff).status == 429  # with a screen token it is public


def spy(pool, calls, name):
    submit = pool.submit

    def counted(*args, **kwargs):
        calls.append(name)
        return submit(*args, **kwargs)

    pool.submit = counted


@override_settings(ROOT_URLCONF="tests.test_public_limits")
def test_a_refused_request_takes_no_thread_and_never_enters_the_view(make_app):
    held["release"].set()  # the view answers at once here
    app = make_app(token=(1, 2))
    submitted = []
    spy(app.public_pool, submitted, "public")
    spy(app.pool, submitted, "staff")
    statuses = [get(app, "/p/tok-c/state/").status for _ in range(4)]
    assert statuses == [200, 200, 429, 429]
    assert submitted == ["public", "public"]
    assert [e for e in held["events"] if e[0] == "entered"] == [("entered", "tok-c")] * 2


@override_settings(ROOT_URLCONF="tests.test_public_limits")
def test_a_refused_request_to_an_async_view_never_reaches_djangos_asgi_handler(make_app):
    """A public ``async def`` view runs through Django's ASGI handler, on no pool thread: a
    refused request to it is answered before that handler, as a sync view's before the pool."""
    app = make_app(token=(1, 1))
    reached = []
    handler = app.asgi

    async def recorded(scope, receive, send):
        reached.append(scope["path"])
        return await handler(scope, receive, send)

    app.asgi = recorded
    assert get(app, "/p/tok-s/stream/").status == 200
    assert get(app, "/p/tok-s/stream/").status == 429
    assert reached == ["/p/tok-s/stream/"]


@override_settings(ROOT_URLCONF="tests.test_public_limits")
def test_staff_requests_are_served_while_every_public_thread_is_busy(make_app, director):
    """Both public threads held in their view (and a third public request queued behind them):
    a director's API call is answered meanwhile, before any public request has left its view."""
    from tournaments.staff.logins import issue_token

    auth = [(b"authorization", f"Token {issue_token(director, device='test')[1]}".encode())]
    app = make_app(threads=1, public_threads=2)

    async def scenario():
        loop = asyncio.get_running_loop()
        public = [asyncio.create_task(Exchange(app, scope(f"/p/held-{i}/state/", client=f"10.0.1.{i}")).run()) for i in range(3)]
        for _ in range(2):  # both public threads are inside the view
            assert await loop.run_in_executor(None, held["entered"].acquire, True, 30)
        staff = asyncio.create_task(Exchange(app, scope("/api/v1/tournaments/", headers=auth)).run())
        await asyncio.wait([staff], timeout=30)  # on a shared pool it would wait for a release that never comes
        note(("staff answered", staff.done() and staff.result().status))
        held["release"].set()
        return await staff, await asyncio.gather(*public)

    staff, public = asyncio.run(scenario())
    events = held["events"]
    answered = next(i for i, event in enumerate(events) if event[0] == "staff answered")
    assert events[answered] == ("staff answered", 200)  # answered while the public threads were held
    assert sorted(events[:answered]) == [("entered", "held-0"), ("entered", "held-1")]  # two in, none out, the third queued
    assert staff.status == 200, staff.body
    assert all(p.status == 200 and b"tdm-public" in p.body for p in public)


def test_both_pools_keep_their_connection_and_close_frees_them(make_app, director):
    """A public request runs on a public thread, which keeps its database connection as the
    staff's do (TDM_WEB_DB_KEEP); closing the app closes the connections of both pools."""
    from django.db.backends.signals import connection_created

    from tournaments.staff.logins import issue_token

    auth = [(b"authorization", f"Token {issue_token(director, device='test')[1]}".encode())]
    app = make_app(threads=1, public_threads=1)
    opened = []

    def count(sender, connection, **kwargs):
        opened.append((threading.current_thread().name, connection))

    connection_created.connect(count)
    try:
        for _ in range(3):
            assert get(app, "/p/unknown/state/").status == 404
            assert get(app, "/api/v1/tournaments/", headers=auth).status == 200
    finally:
        connection_created.disconnect(count)
    names = sorted(name.split("_")[0] for name, _ in opened)
    assert names == ["tdm-public", "tdm-web"]  # one each, kept for the next requests
    app.close()
    assert all(wrapper.connection is None for _, wrapper in opened)


def test_buckets_keep_at_most_their_number_of_keys():
    from tdmanager.public import Buckets

    buckets = Buckets(rate=1, burst=1, keys=100)
    for i in range(100_000):
        buckets.take(f"10.{i // 65536}.{i // 256 % 256}.{i % 256}", 0.0)
    assert len(buckets) == 100
    assert buckets.wait("10.1.134.159", 0.0) == 1.0  # the most recent ones are kept (i = 99,999) ...
    assert buckets.wait("10.0.0.0", 0.0) == 0.0  # ... the oldest dropped: full again


def test_an_ipv6_client_is_its_64():
    from tdmanager.public import address_key

    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::2") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:192.0.2.1") == address_key("192.0.2.1") == "192.0.2.1"


def test_the_check_warns_when_the_web_threads_do_not_fit_the_database_pool(monkeypatch):
    from tdmanager import checks

    def warned(threads, public, max_size):
        monkeypatch.setattr(
            checks,
            "settings",
            SimpleNamespace(TDM_WEB_THREADS=threads, TDM_WEB_PUBLIC_THREADS=public, DATABASES={"default": {"OPTIONS": {"pool": {"max_size": max_size}}}}),
        )
        return [w.id for w in checks.web_threads_fit_the_database_pool(None)]

    assert warned(8, 2, 20) == []
    assert warned(8, 2, 10) == ["tdmanager.W005"]  # the sum, not the staff's threads alone
    assert warned(8, 2, 11) == []
    assert warned(0, 2, 1) == []  # no pools: every request through Django's ASGI handler


def test_the_api_schema_needs_no_login_and_is_limited_per_address(make_app):
    app = make_app(address=(1, 2))
    assert [get(app, "/api/schema/").status for _ in range(2)] == [200, 200]
    assert get(app, "/api/schema/").status == 429
    assert get(app, "/api/schema/", client="10.9.9.9").status == 200
