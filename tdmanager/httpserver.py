"""The HTTP protocol uvicorn speaks for the web app: ``--http tdmanager.httpserver:HttpProtocol``
(``manage.py serve`` and the test and benchmark harnesses start uvicorn with it).

It is uvicorn's own (httptools) with what uvicorn lacks against a client that opens connections
and never finishes a request (a "slowloris"): each such connection is a file descriptor and a
little memory held for good, and enough of them take every descriptor the process has.

- **A deadline for the head.** A request's head (request line and headers) must arrive whole
  within ``TDM_HEADER_TIMEOUT`` seconds of the connection's opening or, on a kept-alive
  connection, of the first byte after the last answer (idle between requests, uvicorn's
  keep-alive time applies: it closes the connection after 5 s). Past it the connection is closed, with a
  408 when a request had begun and no answer is on its way.
- **A bound per client address** on its connections whose head is incomplete,
  ``TDM_INCOMPLETE_PER_ADDRESS`` per web process: one more from that address closes the oldest.
  A connection counts only while it waits for a head, and a browser, a tablet or a script sends a
  whole head at once: the staff's requests are never held at the bound even from the address
  an attacker shares (a venue's NAT), because they are not incomplete for longer than a
  round trip. Refusing the newest instead would refuse the staff's next connection there.
- **An answer given before its request's body arrived** (a refusal on the event loop) ends the
  connection: the rest of the body is not waited for. uvicorn would otherwise read and drop it
  for as long as the client sends it, each byte stopping its keep-alive timer.

The body's own deadline (``TDM_BODY_TIMEOUT``) is the app's: ``tdmanager.asgi`` receives the
bodies, and answers 408 in the API's shape.
"""

from django.conf import settings
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from tdmanager.public import address_key

REQUEST_TIMEOUT = b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: 16\r\nconnection: close\r\n\r\nRequest Timeout\n"

#: This process's connections waiting for a head, per client address, oldest first (a dict
#: keeps its order of insertion: an ordered set).
incomplete: dict[str, dict["HttpProtocol", None]] = {}


class HttpProtocol(HttpToolsProtocol):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.address = None  # the key the connection is counted under (None: no address, a Unix socket)
        self.head_deadline = None  # the timer while a head is awaited, else None
        self.began = False  # a request has begun (a 408 then says why the connection ends)

    def connection_made(self, transport):
        super().connection_made(transport)
        self.address = address_key(self.client[0]) if self.client else None
        self.await_head()

    def data_received(self, data):
        # The first bytes after an answer start the next head's deadline: a kept-alive
        # connection's next request, or line ends that begin none but stop uvicorn's keep-alive
        # timer all the same (one "\r\n" after an answer would otherwise hold it for good).
        if self.head_deadline is None and (self.cycle is None or self.cycle.response_complete):
            self.await_head()
        super().data_received(data)

    def on_message_begin(self):
        super().on_message_begin()
        self.began = True

    def on_headers_complete(self):
        self.head_arrived()
        super().on_headers_complete()

    def on_response_complete(self):
        # Answered before its body arrived whole (a refusal): the rest is not waited for.
        body_unread = not self.pipeline and self.cycle.more_body
        super().on_response_complete()
        if body_unread:
            self.transport.close()

    def connection_lost(self, exc):
        self.head_arrived()
        super().connection_lost(exc)

    def await_head(self):
        self.head_deadline = self.loop.call_later(settings.TDM_HEADER_TIMEOUT, self.give_up)
        if self.address is None:
            return
        waiting = incomplete.get(self.address, {})
        if len(waiting) >= settings.TDM_INCOMPLETE_PER_ADDRESS:
            next(iter(waiting)).give_up()  # the address's oldest (which may empty and drop its entry)
        incomplete.setdefault(self.address, {})[self] = None

    def head_arrived(self):
        """The head is here (or the connection is gone): no deadline, not counted."""
        if self.head_deadline is None:
            return
        self.head_deadline.cancel()
        self.head_deadline = None
        waiting = incomplete.get(self.address)
        if waiting is not None:
            waiting.pop(self, None)
            if not waiting:
                del incomplete[self.address]

    def give_up(self):
        """Close a connection whose head is late (or the oldest incomplete one of its address)."""
        self.head_arrived()
        if self.transport.is_closing():
            return
        if self.began and (self.cycle is None or self.cycle.response_complete):  # not into an answer being sent
            self.transport.write(REQUEST_TIMEOUT)
        self.transport.close()
