"""A process's change notices to Redis: a tournament's at most one every TDM_PUBLISH_GAP_MS,
the changes between folded into the next, the last of a burst always sent
(``tdmanager.realtime.Publisher``)."""

import json
import threading
import time

import pytest

from tdmanager import realtime


class Channel:
    """The Redis client's PUBLISH, in memory: what went out, when, and from which thread; and
    HINCRBY, the tournaments' counts of notices (``counted``: each count as it was published)."""

    def __init__(self):
        self.sent = []
        self.counts = {}
        self.counted = []
        self.lock = threading.Lock()

    def hincrby(self, key, field, amount=1):
        with self.lock:
            self.counts[(key, field)] = self.counts.get((key, field), 0) + amount
            return self.counts[(key, field)]

    def publish(self, channel, message):
        with self.lock:
            self.sent.append((json.loads(message), time.monotonic(), threading.current_thread().name))
            self.counted.append(dict(self.counts))

    def actions(self):
        return [(m["tournament"], m["action"]) for m, _at, _thread in self.sent]


@pytest.fixture
def redis(settings, monkeypatch):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # never dialled: the client is the one above
    channel = Channel()
    monkeypatch.setattr(realtime.bus, "_client", channel)
    monkeypatch.setattr(realtime.changes, "publisher", realtime.Publisher())
    return channel


def test_a_burst_is_folded_and_its_last_change_always_sent(redis, settings):
    """A desk selling ten seats in a row: the screens hear of the burst at once and of its
    last sale (which shows all ten) by the end of the gap; the sales between cost no notice.
    Another tournament's change and a screen's revocation are not held back by the burst."""
    settings.TDM_PUBLISH_GAP_MS = 200
    for i in range(10):
        realtime.tournament_changed(7, f"sale {i}")
    realtime.tournament_changed(8, "bust")
    realtime.screen_revoked("abc")
    assert realtime.changes.publisher.wait_sent(timeout=5)

    sevens = [action for tid, action in redis.actions() if tid == 7]
    assert 1 <= len(sevens) <= 2 and sevens[-1] == "sale 9"
    assert (8, "bust") in redis.actions() and (None, "screen-revoked") in redis.actions()
    assert {thread for _m, _at, thread in redis.sent} == {"tdm-publisher"}  # never a request's thread
    if len(sevens) == 2:  # the first went at once: the last waited the gap
        at = [at for m, at, _thread in redis.sent if m["tournament"] == 7]
        assert at[1] - at[0] >= 0.2


def test_a_tournaments_notice_is_counted_before_it_goes_out(redis, settings):
    """Each tournament's count of notices goes up by one before its notice is published (a hub
    that hears it reads a count that has it; one that missed it finds its build behind the
    count); a screen's revocation is not counted."""
    settings.TDM_PUBLISH_GAP_MS = 0
    key = realtime.bus.changes_key()
    for action in ("sale", "bust"):
        realtime.tournament_changed(7, action)
        assert realtime.changes.publisher.wait_sent(timeout=5)
    realtime.tournament_changed(8, "sale")
    realtime.screen_revoked("abc")
    assert realtime.changes.publisher.wait_sent(timeout=5)
    as_published = [(m["tournament"], m["action"], counts.get((key, m["tournament"]))) for (m, _at, _t), counts in zip(redis.sent, redis.counted, strict=True)]
    assert as_published == [(7, "sale", 1), (7, "bust", 2), (8, "sale", 1), (None, "screen-revoked", None)]


def test_a_change_inside_the_gap_waits_for_it_and_one_after_goes_at_once(redis, settings):
    settings.TDM_PUBLISH_GAP_MS = 250
    now = [100.0]
    realtime.changes.publisher.clock = lambda: now[0]
    realtime.tournament_changed(7, "level 2")
    assert realtime.changes.publisher.wait_sent(timeout=5)
    realtime.tournament_changed(7, "bust")
    assert not realtime.changes.publisher.wait_sent(timeout=0.3)  # the clock stands inside the gap: held
    assert redis.actions() == [(7, "level 2")]
    now[0] += 0.25  # the gap is over
    assert realtime.changes.publisher.wait_sent(timeout=5)
    assert redis.actions() == [(7, "level 2"), (7, "bust")]
    now[0] += 0.25
    realtime.tournament_changed(7, "level 3")  # a gap after the last notice: no wait
    assert realtime.changes.publisher.wait_sent(timeout=0.2)
    assert redis.actions()[-1] == (7, "level 3")


def test_a_process_up_for_a_season_remembers_only_the_last_gaps_tournaments(redis, settings):
    """A web process lives through every event of the season: the tournaments whose last notice
    went out a gap ago or more are forgotten (each due at once again, as before)."""
    settings.TDM_PUBLISH_GAP_MS = 250
    now = [100.0]
    realtime.changes.publisher.clock = lambda: now[0]
    for tid in range(1, 201):  # a season's events, one a day
        realtime.tournament_changed(tid, "finished")
        assert realtime.changes.publisher.wait_sent(timeout=5)
        now[0] += 0.25
    assert len(redis.actions()) == 200  # each went at once
    assert set(realtime.changes.publisher._last) == {200}
    realtime.tournament_changed(1, "report printed")  # an old event again: no wait
    assert realtime.changes.publisher.wait_sent(timeout=0.2)
    assert redis.actions()[-1] == (1, "report printed")


def test_a_process_ending_sends_what_waits(redis, settings):
    """``flush`` runs at exit: a management command's last change is not lost with it."""
    settings.TDM_PUBLISH_GAP_MS = 50
    realtime.changes.publisher.clock = lambda: 100.0  # the clock stands still: the sender would never send again
    realtime.tournament_changed(7, "sale")
    realtime.tournament_changed(9, "sale")
    assert realtime.changes.publisher.wait_sent(timeout=5)
    realtime.tournament_changed(7, "refund")
    realtime.tournament_changed(9, "rebuy")
    realtime.changes.publisher.flush()
    assert sorted(redis.actions()) == [(7, "refund"), (7, "sale"), (9, "rebuy"), (9, "sale")]
    assert realtime.changes.publisher.wait_sent(timeout=1)


def test_a_redis_that_does_not_answer_never_holds_up_the_change(redis, settings, monkeypatch):
    """The cashier's sale is answered while Redis hangs: the notice waits on the sender."""
    settings.TDM_PUBLISH_GAP_MS = 0
    answer = threading.Event()
    monkeypatch.setattr(redis, "publish", lambda channel, message: answer.wait(5))
    t0 = time.monotonic()
    realtime.tournament_changed(7, "sale")
    assert time.monotonic() - t0 < 1
    assert not realtime.changes.publisher.wait_sent(timeout=0.1)
    answer.set()
    assert realtime.changes.publisher.wait_sent(timeout=5)


def test_without_redis_the_process_own_listeners_hear_every_change(settings, monkeypatch):
    """One process, no Redis (the embedded launcher's tests, management commands): the local
    listeners are called for each change, none held back."""
    settings.REDIS_URL = ""
    heard = []
    monkeypatch.setattr(realtime.changes, "_local_listeners", [heard.append])
    for i in range(3):
        realtime.tournament_changed(7, f"sale {i}")
    assert [m["action"] for m in heard] == ["sale 0", "sale 1", "sale 2"]
