"""The web application: one ASGI app (uvicorn runs it; ``manage.py serve`` starts uvicorn) that
runs each request the way it is written.

- A view written ``async def`` (a player's phone's live stream) runs on the event loop through
  Django's ASGI handler, where thousands of open streams cost no thread. A sync view may answer
  with an async stream (the lobby screens' Server-Sent Events, ``tournaments.live``): its
  checks run on a pool thread like any request, the stream is then sent from the event loop,
  the thread free again (500 screens reconnecting at once each cost a pool thread's kept
  connection instead of Django's ASGI handler's new thread and new database connection).
- Every other request (pages, the API, static files, errors) runs through Django's WSGI handler
  on a bounded pool of threads, ``TDM_WEB_THREADS`` per web process. Under Django's ASGI handler
  a sync view costs a thread hop at every sync middleware and a new thread per request; here it
  runs start to end on one pool thread, several at once. The request body is received on the
  event loop first (a slow client holds no thread; one that has not sent it whole within
  ``TDM_BODY_TIMEOUT`` seconds is answered 408 and let go), spooled to disk past
  ``FILE_UPLOAD_MAX_MEMORY_SIZE`` like Django's ASGI handler does, and handed over with its
  length. It is bounded before it is read: a body its route does not take (``tdmanager.bodylimits``:
  an API call's JSON, a page's form, a staff upload) is answered 413 from the event loop, at once
  when its head declares its length, as soon as it passes the limit when it is sent chunked;
  Django's side checks the same limit again, as under any WSGI server. The response's
  ``close()`` runs on the thread that served it, so ``request_finished`` closes (or keeps, as
  ``CONN_MAX_AGE`` says, or returns to the pool) that thread's database connection. A pool
  thread keeps its connection for ``TDM_WEB_DB_KEEP`` seconds (the pool's threads live as long
  as the process, so they hold at most ``TDM_WEB_THREADS`` connections): opening one per request
  (on SQLite with its PRAGMAs, on PostgreSQL from the connection pool and back) costs more than
  a small request's own work.

- The URLs anyone may ask without a login (``tdmanager.public``: a player's phone page, the
  lobby screens, the seat lookup) run on a pool of their own, ``TDM_WEB_PUBLIC_THREADS``
  threads, so that however many of them arrive a staff request never queues behind one. Each
  is first let through, on the event loop, by its client address's and its token's bucket: a
  refused one is answered 429 after ``TDM_PUBLIC_REFUSAL_DELAY`` seconds, and has cost neither a
  thread nor a database read. A phone whose token this process's live hub knows has its stream
  and its state answered from the hub's memory, on the event loop; the hub knows a tournament's
  tokens while any of its phones streams or polls here (``Hub.polled``).

Which way a request goes is decided by its URL: the view it resolves to is ``async`` or not,
and public or not.
"""

import asyncio
import ctypes
import gc
import io
import logging
import os
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import wait as wait_for
from typing import NamedTuple

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tdmanager.settings")

from asgiref.sync import iscoroutinefunction  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.asgi import get_asgi_application  # noqa: E402
from django.core.handlers.wsgi import WSGIHandler  # noqa: E402
from django.db import connections  # noqa: E402
from django.db.backends.signals import connection_created  # noqa: E402
from django.http import FileResponse, StreamingHttpResponse  # noqa: E402
from django.urls import Resolver404, get_resolver  # noqa: E402

from tdmanager import bodylimits, realtime, staticbuild  # noqa: E402
from tdmanager.errorpages import busy_reading_file, request_timeout, request_too_large  # noqa: E402
from tdmanager.public import PUBLIC, Limits, Public, client_language, is_staff_request, refusal, too_many_streams  # noqa: E402

log = logging.getLogger(__name__)

STREAM_BLOCK = 2**16  # bytes of a file response sent at once

_pool_thread = threading.local()  # ``serving`` is True on the pool's threads


def _mark_pool_thread():
    _pool_thread.serving = True


def keep_connection(sender, connection, **kwargs):
    """A database connection opened on one of the pool's threads is kept (closed, or given back
    to PostgreSQL's connection pool, by ``request_finished`` once ``TDM_WEB_DB_KEEP`` seconds have
    passed, or when it is left in a transaction, out of autocommit or broken, as Django does with
    ``CONN_MAX_AGE``). Elsewhere (Django's ASGI handler, whose threads last one request; the live
    hub's threads; tests, commands) the setting's ``CONN_MAX_AGE`` applies unchanged."""
    if not getattr(_pool_thread, "serving", False):
        return
    keep = settings.TDM_WEB_DB_KEEP
    if keep and connection.settings_dict.get("CONN_MAX_AGE") == 0:
        connection.close_at = time.monotonic() + keep


def settle_process() -> None:
    """Once, before the web process serves (the ASGI lifespan's startup), so that the lobby's
    delay stays short under load:

    - the interpreter's switch interval becomes ``TDM_WEB_SWITCH_US`` (shorter than Python's
      own). A snapshot build sends some twenty queries, and after each it waits for the
      interpreter until the thread holding it (a sale, a bust, the event loop sending hundreds
      of frames) is made to let go: with a long interval a build spends more time waiting than
      working (docs/benchmarks.md, display_fanout);
    - what the loaded process holds for good (Django, the apps, their modules, the URL
      resolvers) is kept out of the cycle collector's full passes (``gc.freeze``). A full pass
      walks every object with the interpreter held, every few seconds under the lobby's load,
      and every request, build and frame would wait meanwhile. Objects made later are
      collected as before; a frozen one still goes when nothing refers to it any more;
    - a large block of memory (1 MiB or more: a decoded image, a layout file's text) goes back to
      the system when freed (``give_back_large_blocks``)."""
    sys.setswitchinterval(settings.TDM_WEB_SWITCH_US / 1e6)
    gc.collect()
    gc.freeze()
    give_back_large_blocks()


#: mallopt's parameter for the size from which a block is mapped apart (glibc's malloc.h)
_M_MMAP_THRESHOLD = -3


def give_back_large_blocks(threshold: int = 1024 * 1024) -> bool:
    """Blocks of ``threshold`` bytes or more are mapped apart, and unmapped (given back) when
    freed. glibc does so from 128 KB, but raises the threshold to the size of each large block
    freed, up to 32 MB: after the first decoded image, blocks of a few MB came from the heap of
    the thread that asked, and stayed with the process (eight hostile imports left 150 MB).
    Setting the threshold fixes it. False where the C library is not glibc (nothing to do)."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        return bool(libc.mallopt(_M_MMAP_THRESHOLD, threshold))
    except (OSError, AttributeError):
        return False


def _settle(future, result, error):
    if future.cancelled():
        return
    if error is None:
        future.set_result(result)
    else:
        future.set_exception(error)


def _settle_from_thread(loop, future, fn, args):
    """On a pool thread: run ``fn``, then hand its result (or its exception) to ``future`` on ``loop``."""
    try:
        result, error = fn(*args), None
    except BaseException as exc:  # handed over to the awaiting task, as run_in_executor does
        result, error = None, exc
    try:
        loop.call_soon_threadsafe(_settle, future, result, error)
    except RuntimeError:  # the event loop is closed: nobody awaits it any more
        pass


class TooLarge(Exception):
    """A body sent without a length went past its route's limit while it was received."""


class Route(NamedTuple):
    """What the web app needs to know of a path: the view's kind, whether it is public (and
    then its token, when the path carries one), and the kind of body it takes
    (``tdmanager.bodylimits``: how large one may be)."""

    is_async: bool = False
    public: Public | None = None
    token: str | None = None
    body: str = bodylimits.FORM


NOWHERE = Route()  # a path no view answers: Django's sync handler says so (404)


def _pool(threads: int, name: str) -> ThreadPoolExecutor | None:
    return ThreadPoolExecutor(max_workers=threads, thread_name_prefix=name, initializer=_mark_pool_thread) if threads else None


class Application:
    """ASGI entry point: ``async def`` views through Django's ASGI handler, the rest through its
    WSGI handler on a thread pool (the public URLs on a pool of their own)."""

    def __init__(self):
        self.asgi = get_asgi_application()  # sets Django up
        staticbuild.ensure_collected()  # before WhiteNoise (a middleware) lists STATIC_ROOT
        self.wsgi = WSGIHandler()
        self.threads = settings.TDM_WEB_THREADS
        # 0: no pool, every request through Django's ASGI handler (the serving of before).
        self.pool = _pool(self.threads, "tdm-web")
        # 0 (or no staff pool): the public URLs are served as every other request is.
        self.public_threads = settings.TDM_WEB_PUBLIC_THREADS if self.threads else 0
        self.public_pool = _pool(self.public_threads, "tdm-public")
        self.limits = Limits()
        connection_created.connect(keep_connection, dispatch_uid="tdmanager.asgi.keep_connection")
        self._routes: dict[str, Route] = {}

    async def __call__(self, scope, receive, send):
        kind = scope["type"]
        if kind == "lifespan":
            return await self.lifespan(receive, send)
        if kind != "http":
            return await self.asgi(scope, receive, send)
        route = self.route(scope)
        pool = self.pool
        if route.public is not None and not is_staff_request(route.public, scope):
            wait = self.limits.wait(route.public, route.token, scope)
            if wait:
                return await self.refuse(route.public, wait, scope, send)
            if route.public is PUBLIC["phone-stream"] and realtime.hub.phone_of(route.token) is not None:
                return await self.phone_stream(route.token, scope, receive, send)
            if route.public is PUBLIC["phone-state"] and await self.phone_state(route.token, send):
                return None
            pool = self.public_pool or pool
        limit = bodylimits.limit(route.body)
        declared = declared_length(scope)
        if limit is not None and declared > limit:
            return await self.too_large(scope, send)
        if pool is None or route.is_async:
            return await self.asgi(scope, self.bounded(receive, limit, scope, send) if limit is not None else receive, send)
        if bodylimits.takes_file(route.body, declared, is_chunked(scope)):
            return await self.file_request(scope, receive, send, pool, limit, route.body)
        return await self.run_sync(scope, receive, send, pool, limit)

    async def file_request(self, scope, receive, send, pool, limit, kind=bodylimits.IMAGE):
        """An image upload, a layout import or a sheet: this process's turn to read a file is taken before
        its body is read, and held to its answer; without it, 503 ``busy`` at once, the body never
        read (the connection closed). A file refused costs the process nothing but its head."""
        try:
            with bodylimits.file_turn():
                scope[bodylimits.TURN_HELD] = True  # the view's own turn (``uploads.reading``) is this one
                return await self.run_sync(scope, receive, send, pool, limit)
        except bodylimits.Busy:
            status, headers, content = busy_reading_file(scope["path"], client_language(scope), kind)
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": content})

    @staticmethod
    async def too_large(scope, send):
        """A body over its route's limit (``tdmanager.bodylimits``): 413 from the event loop, at
        once, what is left of the body never read (the protocol closes the connection:
        ``tdmanager.httpserver``). A declared length is refused before any byte of the body is
        received: a client cannot make the process store more than the limit, logged in or not."""
        status, headers, content = request_too_large(scope["path"], client_language(scope))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    def bounded(self, receive, limit, scope, send):
        """``receive`` for Django's ASGI handler, which stores a body whole before it looks at its
        size: past ``limit`` the 413 is sent here and the handler is told the client left (it
        then answers nothing, and drops what it spooled)."""
        received = 0

        async def receive_bounded():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    await self.too_large(scope, send)
                    return {"type": "http.disconnect"}
            return message

        return receive_bounded

    async def phone_stream(self, token, scope, receive, send):
        """A player's phone's stream whose token this process's live hub knows (its
        tournament's phones are watched here): served on the event loop from the hub's memory,
        as the phone view would (``tournaments.phone.phone_stream``), without a thread, the
        middleware or a database read, so that a room's phones coming back at once after a web
        process went down cost this one next to nothing."""
        hub = realtime.hub
        found = hub.phone_of(token)
        ticket = hub.admissions.take(self.limits.client(scope), settings.TDM_STREAMS_PER_ADDRESS) if found else None
        if ticket is None:
            return await self.answer_refused(too_many_streams(scope), send)
        events = hub.phone_events(*found, token, ticket)
        hub.admissions.tie(ticket, events)
        headers = [
            (b"content-type", b"text/event-stream"),
            (b"cache-control", b"no-cache"),
            (b"x-accel-buffering", b"no"),
            (b"x-content-type-options", b"nosniff"),
        ]
        await self.pump(events, 200, headers, receive, send)

    async def phone_state(self, token, send) -> bool:
        """A player's phone's state (its polling fallback, ``tournaments.phone.phone_data``)
        answered on the event loop from the hub's last build (``Hub.fresh`` says when it may),
        when this process's hub knows the token; False when it cannot (the view answers then)."""
        found = realtime.hub.phone_of(token)
        state = realtime.hub.phone_state(*found) if found else None
        if state is None:
            return False
        headers = [
            (b"content-type", b"application/json"),
            (b"cache-control", b"no-cache"),
            (b"x-content-type-options", b"nosniff"),
            (b"content-length", str(len(state)).encode()),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": state})
        return True

    async def refuse(self, route, wait, scope, send):
        """A public request over its limits: 429 from the event loop, its body never read."""
        await self.answer_refused(refusal(route, wait, scope), send)

    @staticmethod
    async def answer_refused(answer, send):
        """Send a refusal (status, headers, body) after ``TDM_PUBLIC_REFUSAL_DELAY`` seconds: the
        client's connection waits, and a client that asks again at once asks once per delay."""
        status, headers, body = answer
        if settings.TDM_PUBLIC_REFUSAL_DELAY > 0:
            await asyncio.sleep(settings.TDM_PUBLIC_REFUSAL_DELAY)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    async def lifespan(self, receive, send):
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                settle_process()
                # listening from the start, on the serving loop: a phone's or a screen's poll may
                # then hand its tournament to the hub (``Hub.polled``) before any stream opened
                realtime.hub.start()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await realtime.hub.stop()
                await asyncio.get_running_loop().run_in_executor(None, self.close)
                await send({"type": "lifespan.shutdown.complete"})
                return

    def close(self, timeout: float = 10.0) -> None:
        """Stop both pools: each of their threads first closes the database connections it kept
        (``TDM_WEB_DB_KEEP``), then the threads end. A thread still serving a request after
        ``timeout`` seconds is left to finish it (its connection closes with the process)."""
        pools = [(self.pool, self.threads), (self.public_pool, self.public_threads)]
        self.pool = self.public_pool = None  # a request from now on goes to Django's ASGI handler
        closing = []
        for pool, threads in pools:
            if pool is None:
                continue
            barrier = threading.Barrier(threads)

            def close_mine(barrier=barrier):  # one call per thread: each waits at the barrier until every thread has one
                try:
                    barrier.wait(timeout)
                except threading.BrokenBarrierError:
                    pass
                connections.close_all()

            closing += [pool.submit(close_mine) for _ in range(threads)]
        wait_for(closing, timeout=timeout + 1)
        for pool, _threads in pools:
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)

    def route(self, scope) -> Route:
        """The URL's view: async or not, public or not (remembered per path)."""
        path = scope["path"]
        known = self._routes.get(path)
        if known is None:
            root = scope.get("root_path") or ""
            try:
                match = get_resolver().resolve(path.removeprefix(root) if root else path)
            except Resolver404:
                known = NOWHERE
            except Exception:  # a path the resolver chokes on: the sync handler answers it
                known = NOWHERE
            else:
                found = PUBLIC.get(match.url_name)
                token = match.kwargs.get("token") if found is not None and found.token == "path" else None
                known = Route(iscoroutinefunction(match.func), found, token, bodylimits.kind_of(match.url_name, path.removeprefix(root)))
            if known is NOWHERE and path.removeprefix(root).startswith("/api/"):
                known = Route(body=bodylimits.JSON)  # answered 404 in JSON: a JSON body's limit
            if len(self._routes) > 10_000:
                self._routes.clear()
            self._routes[path] = known
        return known

    def is_async(self, scope) -> bool:
        """True when the URL names an ``async def`` view."""
        return self.route(scope).is_async

    async def run_sync(self, scope, receive, send, pool=None, limit=None):
        try:
            body = await self.read_body(receive, limit)
        except TimeoutError:  # the body did not arrive in time: 408, the connection closed
            status, headers, content = request_timeout(scope["path"], client_language(scope))
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": content})
            return
        except TooLarge:  # sent chunked, it went past its route's limit: 413, the connection closed
            return await self.too_large(scope, send)
        if body is None:
            return  # the client left before sending its whole body
        loop = asyncio.get_running_loop()
        try:
            answer = await self.on_pool(pool or self.pool, loop, self.serve, scope, body, send, loop)
        except Exception:
            log.exception("request failed outside Django's handler")
            answer = (500, [(b"content-type", b"text/plain; charset=utf-8")], b"Server Error")
        if answer is not None:  # a whole answer; a streaming one was sent from the thread
            status, headers, content = answer
            if isinstance(content, StreamingHttpResponse):
                return await self.stream(content, status, headers, receive, send)
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": content})

    async def on_pool(self, pool, loop, fn, *args):
        """``await loop.run_in_executor(pool, fn, *args)`` with one hand-over less each way:
        the pool thread settles the event loop's future itself (``call_soon_threadsafe``),
        without the executor's future chained to an asyncio one through callbacks, which is a
        cost paid on every request. Cancelled before a thread took it, the work is dropped, as
        with the executor."""
        answer = loop.create_future()
        work = pool.submit(_settle_from_thread, loop, answer, fn, args)
        try:
            return await answer
        except asyncio.CancelledError:
            work.cancel()
            raise

    async def stream(self, response, status, headers, receive, send):
        """Send a sync view's async stream (a live screen's Server-Sent Events) from the event
        loop, as Django's ASGI handler does: until it ends, or the client goes away, which
        stops it (its ``finally`` runs)."""
        # the bytes, one wrapper less than the response's own iterator
        await self.pump(response.streaming_content, status, headers, receive, send)

    async def pump(self, chunks, status, headers, receive, send):
        """Send the async iterator ``chunks`` as the body of an answer, until it ends or the
        client goes away (which stops it: its ``finally`` runs)."""
        await send({"type": "http.response.start", "status": status, "headers": headers})

        async def pump():
            async for chunk in chunks:
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b""})

        async def gone():
            while (await receive())["type"] != "http.disconnect":
                pass

        tasks = [asyncio.ensure_future(pump()), asyncio.ensure_future(gone())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def read_body(self, receive, limit=None):
        """The request's body, whole (None: the client left first). It must arrive within
        ``TDM_BODY_TIMEOUT`` seconds of the head, else ``TimeoutError``: a client that sends part
        of a body and stops, or drips it, would hold its connection (and the body received so
        far) for as long as it likes. Past ``limit`` bytes (a body sent without a length: a
        declared one was looked at before), ``TooLarge`` at once, what was kept dropped. No pool
        thread is taken until it is here."""
        async with asyncio.timeout(settings.TDM_BODY_TIMEOUT):
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            first = message.get("body", b"")
            if limit is not None and len(first) > limit:
                raise TooLarge
            if not message.get("more_body"):
                return io.BytesIO(first)
            body = tempfile.SpooledTemporaryFile(max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE, mode="w+b")  # noqa: SIM115
            try:
                body.write(first)
                size = len(first)
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        body.close()
                        return None
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if limit is not None and size > limit:
                        raise TooLarge
                    body.write(chunk)
                    if not message.get("more_body"):
                        break
            except BaseException:  # the deadline (or a cancellation): the spooled file goes too
                body.close()
                raise
        body.seek(0)
        return body

    def serve(self, scope, body, send, loop):
        """On a pool thread: Django's WSGI handler, then the answer (or, streaming, send it from here)."""
        started = []

        def start_response(status, headers, exc_info=None):
            started[:] = [status, headers]

        response = None
        large = _size(body) > bodylimits.COLLECT_AFTER
        try:
            response = self.wsgi(environ(scope, body), start_response)
            status = int(started[0][:3])
            headers = [(name.lower().encode("latin1"), value.strip().encode("latin1")) for name, value in started[1]]
            if not getattr(response, "streaming", False):
                return status, headers, b"".join(response)
            if getattr(response, "is_async", False):
                return status, headers, response  # sent from the event loop (``stream``); closed here, below
            if isinstance(response, FileResponse):
                response.block_size = STREAM_BLOCK

            def push(message):
                asyncio.run_coroutine_threadsafe(send(message), loop).result()

            push({"type": "http.response.start", "status": status, "headers": headers})
            for chunk in response:
                if chunk:
                    push({"type": "http.response.body", "body": chunk, "more_body": True})
            push({"type": "http.response.body", "body": b""})
            return None
        finally:
            if response is not None:
                response.close()  # request_finished, on the thread that used the connection
            body.close()
            if large:
                # What a large body was parsed into (a layout file: megabytes of text) is held by
                # the request, and REST framework's request, view and answer refer to one another:
                # only the cycle collector frees them, and it may not run for minutes. Ten imports
                # held 230 MB that way. A collection now frees it while it is one request's.
                response = None
                gc.collect()


def _size(body) -> int:
    """The length of a body read whole (``read_body``), left at its start."""
    size = body.seek(0, io.SEEK_END)
    body.seek(0)
    return size


def is_chunked(scope) -> bool:
    """Whether the body comes in chunks, of no length declared beforehand."""
    return any(name.lower() == b"transfer-encoding" and b"chunked" in value.lower() for name, value in scope.get("headers", ()))


def declared_length(scope) -> int:
    """The body's length as the request's head declares it (0: none declared, or not a number,
    which the server refuses before the app sees it)."""
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return 0
    return 0


def environ(scope, body) -> dict:
    """The WSGI environ of an ASGI HTTP scope (PEP 3333: strings are bytes read as latin-1)."""
    root = scope.get("root_path") or ""
    path = scope["path"]
    if root and path.startswith(root):
        path = path[len(root) :]
    server = scope.get("server") or ("localhost", 80)
    env = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": root.encode("utf-8").decode("latin1"),
        "PATH_INFO": path.encode("utf-8").decode("latin1"),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin1"),
        "SERVER_NAME": str(server[0]),
        "SERVER_PORT": str(server[1]) if server[1] is not None else "80",
        "SERVER_PROTOCOL": "HTTP/" + scope.get("http_version", "1.1"),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": body,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        # this process's turn to read a file, taken for this request (``Application.file_request``)
        bodylimits.TURN_HELD: scope.get(bodylimits.TURN_HELD, False),
        # An async response's stream is sent from the event loop (``Application.stream``).
        "tdmanager.async_streaming": True,
    }
    client = scope.get("client")
    if client:
        env["REMOTE_ADDR"] = client[0]
        env["REMOTE_PORT"] = str(client[1])
    for raw_name, raw_value in scope.get("headers", ()):
        name = raw_name.decode("latin1").lower()
        if "_" in name:
            continue  # as Django's ASGI handler: no spoofing X-Forwarded-For with X_Forwarded_For
        if name == "content-length":
            key = "CONTENT_LENGTH"
        elif name == "content-type":
            key = "CONTENT_TYPE"
        else:
            key = "HTTP_" + name.upper().replace("-", "_")
        value = raw_value.decode("latin1")
        if key in env:
            value = env[key] + ("; " if key == "HTTP_COOKIE" else ",") + value
        env[key] = value
    if "CONTENT_LENGTH" not in env:
        # A body sent chunked has arrived whole: its length, so that Django reads it and its
        # size limits apply (a WSGI request without a length reads as empty).
        size = body.seek(0, 2)
        body.seek(0)
        if size:
            env["CONTENT_LENGTH"] = str(size)
    return env


application = Application()
