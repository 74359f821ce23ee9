"""Clients that open connections and never finish their request (issue 40, item 8: 600 partial
heads and 600 partial bodies were all still open after 60 s).

A real web process, started as ``manage.py serve`` starts it (``tests.servers.start_web``: uvicorn
with ``tdmanager.httpserver``'s protocol), its deadlines set to a second. The clients are raw
sockets, so that what is sent, and when, is exactly what the test says. Each test waits on the
server's answer or its closing; the only waits by the clock are the deadlines themselves.
"""

import select
import time

import httpx
import pytest

from tests.servers import connect, database_env, start_web, stop, until_closed

pytestmark = [pytest.mark.processes, pytest.mark.django_db(transaction=True)]

PARTIAL_HEAD = b"GET /live/time/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


@pytest.fixture
def serve(transactional_db):
    """Start a web process with these settings; returns its port."""
    started = []

    def start(**settings):
        env = database_env()
        env.update({name: str(value) for name, value in settings.items()})
        started.append(start_web(env))
        return started[-1].port

    yield start
    for proc in started:
        stop(proc)


def answer(sock) -> bytes:
    """One answer, read to its end (Content-Length or chunked), the connection left open."""
    sock.settimeout(10)
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536) or pytest.fail(f"closed after {data!r}")
    head, body = data.split(b"\r\n\r\n", 1)
    fields = dict(line.lower().split(b": ", 1) for line in head.split(b"\r\n")[1:])
    if b"content-length" in fields:
        done = lambda: len(body) >= int(fields[b"content-length"])  # noqa: E731
    else:
        done = lambda: body.endswith(b"0\r\n\r\n")  # noqa: E731
    while not done():
        body += sock.recv(65536) or pytest.fail("closed in the body")
    return head + b"\r\n\r\n" + body


def quiet(sock) -> bool:
    """The server has neither answered on ``sock`` nor closed it."""
    return not select.select([sock], [], [], 0)[0]


def test_a_head_that_does_not_arrive_whole_in_time_is_closed(serve):
    port = serve(TDM_HEADER_TIMEOUT=1)
    silent, partial, dripping, kept = connect(port), connect(port), connect(port), connect(port)
    opened = time.monotonic()
    partial.sendall(PARTIAL_HEAD)
    kept.sendall(b"GET /live/time/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert answer(kept).startswith(b"HTTP/1.1 200 ")
    kept.sendall(b"\r\n")  # begins no request, but stops uvicorn's keep-alive timer
    for byte in PARTIAL_HEAD:  # a byte every 0.2 s: progress does not move the deadline
        if not quiet(dripping):
            break
        dripping.sendall(bytes([byte]))
        time.sleep(0.2)

    assert until_closed(partial).startswith(b"HTTP/1.1 408 ")
    assert until_closed(silent) == b"", "nothing asked, nothing answered: just closed"
    assert until_closed(dripping).startswith(b"HTTP/1.1 408 ")
    until_closed(kept)
    assert time.monotonic() - opened < 5  # the dripping one never reached the end of its head


def test_a_body_that_does_not_arrive_whole_in_time_is_answered_408(serve):
    port = serve(TDM_BODY_TIMEOUT=1)
    api, page = connect(port), connect(port)
    head = "POST {} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
    api.sendall(head.format("/api/v1/auth/token/").encode() + b'{"username": ')
    page.sendall(head.format("/login/").encode() + b"username=")

    api_answer = until_closed(api)
    assert api_answer.startswith(b"HTTP/1.1 408 ")
    assert b'{"code": "request_timeout", "detail": "The request did not arrive in time."}' in api_answer
    assert until_closed(page).startswith(b"HTTP/1.1 408 ")


def test_an_answer_given_before_the_body_arrived_does_not_wait_for_the_rest(serve):
    """A public request over its limit is refused from the event loop, its body never read: the
    connection ends with the refusal (uvicorn's keep-alive would keep it while bytes trickle in)."""
    port = serve(TDM_PUBLIC_ADDRESS_RATE=1, TDM_PUBLIC_ADDRESS_BURST=1, TDM_PUBLIC_REFUSAL_DELAY=0)
    first, refused = connect(port), connect(port)
    first.sendall(b"GET /seats/1/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")  # takes the address's one request
    assert not answer(first).startswith(b"HTTP/1.1 429 ")
    refused.sendall(b"POST /seats/1/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nq=")

    assert until_closed(refused, timeout=3).startswith(b"HTTP/1.1 429 ")  # uvicorn's keep-alive: 5 s


def test_incomplete_connections_are_bounded_per_address_and_the_staff_still_gets_in(serve):
    port = serve(TDM_HEADER_TIMEOUT=60, TDM_INCOMPLETE_PER_ADDRESS=3)
    kept = connect(port)  # a staff page's kept-alive connection, idle between two requests
    kept.sendall(b"GET /login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert answer(kept).startswith(b"HTTP/1.1 200 ")
    slow = [connect(port) for _ in range(3)]
    for sock in slow:
        sock.sendall(PARTIAL_HEAD)

    extra = connect(port)  # the fourth incomplete one from 127.0.0.1: the oldest makes room
    extra.sendall(PARTIAL_HEAD)
    assert until_closed(slow[0]).startswith(b"HTTP/1.1 408 ")
    assert all(quiet(sock) for sock in [*slow[1:], extra])

    # The staff, from the same address, on a new connection and on its idle kept-alive one.
    assert httpx.get(f"http://127.0.0.1:{port}/login/", timeout=10).status_code == 200
    kept.sendall(b"GET /login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert answer(kept).startswith(b"HTTP/1.1 200 ")
    assert until_closed(slow[1]).startswith(b"HTTP/1.1 408 "), "the staff's connection made room in its turn"
    assert all(quiet(sock) for sock in [slow[2], extra])


def test_a_kept_alive_client_asking_every_two_seconds_is_not_cut(serve):
    port = serve(TDM_HEADER_TIMEOUT=1, TDM_BODY_TIMEOUT=1)
    sock = connect(port)
    for _ in range(3):
        sock.sendall(b"GET /live/time/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert answer(sock).startswith(b"HTTP/1.1 200 ")
        time.sleep(2)  # idle between requests: longer than either deadline, within uvicorn's keep-alive
    assert quiet(sock)
