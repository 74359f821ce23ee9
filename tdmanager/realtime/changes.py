"""Change notices: what a service calls on commit, and the thread that sends them to Redis.

Services call ``tournament_changed`` on commit. With Redis configured the message goes out
on a pub/sub channel (``bus``) that every web process listens to; each pushes a fresh snapshot
to its connected displays and dashboards (``fanout``). Pub/sub keeps nothing, so a tournament's
notice is counted in Redis before it goes out: a process that did not hear it finds out by the
count. Without Redis (tests, management commands) local listeners registered in this process
are still called.
"""

import atexit
import json
import logging
import os
import threading
import time

from django.conf import settings

from .bus import changes_key, channel, redis_client

log = logging.getLogger(__package__)  # one logger for the whole transport


_local_listeners: list = []


def add_local_listener(fn):
    _local_listeners.append(fn)


#: Called on the publisher's thread with each tournament whose change notice went out (a burst's
#: once): the tournaments app hands its players' notices to the worker there, so no request waits
#: on Redis for them (``tournaments.eventlog.services.tell_players_later``).
_after_publish: list = []


def after_publish(fn) -> None:
    if fn not in _after_publish:
        _after_publish.append(fn)


def tournament_changed(tournament_id: int, action: str = "") -> None:
    _announce({"tournament": tournament_id, "action": action})


def screen_revoked(token: str) -> None:
    """A lobby screen's token was revoked or replaced: every web process ends the live streams
    opened with it (``Hub.end_screen``); the screen, reconnecting, is refused."""
    _announce({"tournament": None, "action": "screen-revoked", "screen": token})


def login_ended(user_id: int) -> None:
    """A login was disabled, its password reset, its role changed or one of its browsers logged
    out by a director: every web process ends the live streams it opened (``Hub.end_login``);
    reconnecting, the browser is asked for its login again and refused if it has none."""
    _announce({"tournament": None, "action": "login-ended", "login": user_id})


def _announce(message: dict) -> None:
    for fn in list(_local_listeners):
        try:
            fn(message)
        except Exception:  # a broken listener must never undo a committed sale
            log.exception("local realtime listener failed")
    client = redis_client()
    if client is not None:
        publisher.send(client, channel(), message, changes_key())


def _publish(notices: list[tuple]) -> None:
    """Send ``notices`` (``(client, channel, message, counts)``): a batch holds a notice per
    tournament due at once, a few at most. A tournament's notice is counted first (its count in
    the ``counts`` hash): a hub that hears the notice then reads a count that has it, and one
    that does not hear it (not subscribed at that moment, or the PUBLISH lost) finds its last
    build behind the count at its next look (``Hub.recheck``)."""
    for client, name, message, counts in notices:
        try:
            if isinstance(message.get("tournament"), int):
                client.hincrby(counts, message["tournament"], 1)
            client.publish(name, json.dumps(message))
        except Exception:
            # The change is committed. Counted, the hubs find it at their next look; else the
            # screens catch up at the next change, or through their polling fallback.
            log.warning("could not publish %s for tournament %s", message["action"], message["tournament"])
            continue
        if isinstance(message.get("tournament"), int):
            for fn in list(_after_publish):
                try:
                    fn(message["tournament"])
                except Exception:  # the change is committed: what follows it must not break the sender
                    log.exception("after-publish hook failed")


class Publisher:
    """Sends this process's change notices to Redis from a thread of its own: a tournament's
    at most one every ``gap`` seconds (``TDM_PUBLISH_GAP_MS``, 50), the changes between folded
    into the next.

    The thread that made the change never waits on Redis: a sale's answer does not wait for the
    notice, nor for a Redis that has gone away (the client's two seconds of timeout fall on this
    thread, not on the cashier). And every notice wakes every web process, each of which then
    builds the tournament's state again if anyone watches it; the hub builds one tournament at
    most every ``Hub.min_interval`` (100 ms) however many it hears. So a desk selling a seat
    every few milliseconds, or the floor confirming a table's moves one by one, need not send
    a notice each: a tournament's notice goes out at once when its last went out at least
    ``gap`` ago; one coming sooner waits, newer ones replace it (the hub reads only the
    tournament: the action is informative), and it goes when the gap is over. A lone change is
    sent at once; one in a burst reaches the screens at most ``gap`` later, and the last change
    of a burst is always sent. A screen's revocation and a login's end are never held back.

    A notice waiting is lost with the process, as one between a commit and its publication
    always was: the screens catch up through their polling fallback and their states'
    expiry. A process that ends normally sends what waits (``flush``, at exit)."""

    def __init__(self):
        self.clock = time.monotonic
        self._reset()
        # A Celery worker's pool forks: its children start with no sender thread and nothing waiting.
        os.register_at_fork(after_in_child=self._reset)

    def _reset(self) -> None:
        self._lock = threading.Condition()
        self._last: dict[int, float] = {}  # tournament -> when its last notice went out (``clock``)
        self._waiting: dict = {}  # tournament (a revoked screen: its token) -> its newest notice not yet sent
        self._thread = None
        self._sending = 0  # batches taken from ``_waiting`` and not yet sent

    @staticmethod
    def gap() -> float:
        return settings.TDM_PUBLISH_GAP_MS / 1000

    def send(self, client, name: str, message: dict, counts: str) -> None:
        """Send ``message`` on the channel ``name`` of the Redis of ``client``, a tournament's
        counted in the hash ``counts`` first (the ones in force when the change was made, not
        when it is sent)."""
        tid = message.get("tournament")
        with self._lock:
            key = tid if tid is not None else ("login", message["login"]) if message.get("login") else ("screen", message.get("screen"))
            self._waiting[key] = (client, name, message, counts)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="tdm-publisher", daemon=True)
                self._thread.start()
            self._lock.notify_all()

    def _due(self, key) -> float:
        """When the notice waiting under ``key`` may go (a screen's or a login's: at once)."""
        return self._last.get(key, float("-inf")) + self.gap() if isinstance(key, int) else float("-inf")

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._waiting:
                    self._lock.wait()
                now = self.clock()
                due = min(self._due(key) for key in self._waiting)
                if due > now:
                    self._lock.wait(due - now)
                    continue
                keys = [key for key in self._waiting if self._due(key) <= now]
                batch = self._take(keys, now)
            self._send(batch, keys)

    def _take(self, keys, now: float) -> list[tuple]:
        """The notices waiting under ``keys``, taken out of ``_waiting`` (under the lock)."""
        batch = [self._waiting.pop(key) for key in keys]
        # A tournament whose last notice went out a gap ago is due at once, as one never sent:
        # it is forgotten, so a process up for a season holds only the last gap's tournaments.
        self._last = {key: at for key, at in self._last.items() if at + self.gap() > now}
        for key in keys:
            if isinstance(key, int):
                self._last[key] = now
        self._sending += 1
        return batch

    def _send(self, batch: list[tuple], keys=()) -> None:
        try:
            if batch:
                _publish(batch)
        finally:
            with self._lock:
                # The gap runs from when the screens got the notice, not from when it was taken:
                # a slow publish does not bring the next one closer.
                sent = self.clock()
                for key in keys:
                    if isinstance(key, int):
                        self._last[key] = sent
                self._sending -= 1
                self._lock.notify_all()

    def flush(self) -> None:
        """Send every notice waiting now, in this thread (a process about to end)."""
        with self._lock:
            batch = self._take(list(self._waiting), self.clock())
        self._send(batch)

    def wait_sent(self, timeout: float) -> bool:
        """True once nothing waits or is being sent (within ``timeout`` seconds)."""
        with self._lock:
            return self._lock.wait_for(lambda: not self._waiting and not self._sending, timeout)


publisher = Publisher()
atexit.register(publisher.flush)
