"""Admissions to the public live streams: how many one client address may hold open."""

import threading
import weakref

from django.utils.translation import gettext_lazy

#: The refusal of one public stream too many from an address (``TDM_STREAMS_PER_ADDRESS``).
TOO_MANY_STREAMS = gettext_lazy("Too many live pages are open from this address. Try again in a minute.")


class Admissions:
    """Open public streams per client address (a phone, a lobby screen by its token; staff are
    not counted): past ``limit`` a new one is refused. Taken by the view on a request thread
    before the stream is handed to the event loop, given back when the stream ends, or when the
    stream is dropped without ever being sent (the client left first)."""

    def __init__(self):
        self._lock = threading.Lock()
        self.open: dict[str, int] = {}

    def take(self, address: str, limit: int):
        """A ticket (call it to give the place back; calling again does nothing), or None when
        ``address`` holds ``limit`` streams already."""
        with self._lock:
            held = self.open.get(address, 0)
            if held >= limit:
                return None
            self.open[address] = held + 1
        given = []

        def give_back():
            if given:
                return
            given.append(True)
            with self._lock:
                left = self.open.get(address, 1) - 1
                if left > 0:
                    self.open[address] = left
                else:
                    self.open.pop(address, None)

        return give_back

    def tie(self, ticket, stream) -> None:
        """Give ``ticket`` back when ``stream`` (the response's iterator) is collected, if it was
        not given back before (a stream never started runs no ``finally``)."""
        weakref.finalize(stream, ticket)
