"""Live streams shared out again after a web process restarts.

Streams stay on the process that opened them: when one web process restarts, every browser it
held reconnects to the others and stays there, which then carry its load for the rest of the
day (the festival replay saw 2.7x the CPU on the survivor). Each process compares its open
streams with the others' through Redis and ends the ones above its share, which reconnect.
"""

import asyncio
import os
import random
import threading
import time

import httpx

from tdmanager import realtime
from tdmanager.realtime import streams_to_shed
from tests.servers import SCALED_OUT, EmbeddedRedis, database_env, start_web, stop


def test_a_process_above_one_and_a_half_times_the_least_loaded_ends_streams_above_its_share():
    assert streams_to_shed(100, []) == 0  # one web process: nowhere to go
    assert streams_to_shed(60, [40]) == 0  # 1.5x: within
    assert streams_to_shed(3, [1]) == 0  # one or two apart: not worth a reconnection
    assert streams_to_shed(100, [0]) == 20  # a fifth a look at most
    assert streams_to_shed(61, [39]) == 11  # above the share of two: (61 + 39) / 2
    assert streams_to_shed(50, [50, 20]) == 10  # the fair share of three is 40
    assert streams_to_shed(10_000, [0]) == 2000


def test_played_out_against_clients_that_reconnect_elsewhere_it_settles_within_the_bound():
    """Round after round, as the processes would look: two processes, all streams on one."""
    for start in (30, 100, 10_000):
        counts, rounds = [start, 0], 0
        while (shed := streams_to_shed(counts[0], [counts[1]])) or streams_to_shed(counts[1], [counts[0]]):
            if shed:
                counts = [counts[0] - shed, counts[1] + shed]
            else:
                moved = streams_to_shed(counts[1], [counts[0]])
                counts = [counts[0] + moved, counts[1] - moved]
            rounds += 1
            assert rounds < 10
        assert max(counts) <= max(1.5 * min(counts), min(counts) + 2), (start, counts)
        assert rounds <= 4  # 15 s a look: within a minute


def test_shed_ends_the_streams_it_picks_and_no_other():
    hub = realtime.Hub()
    queues = [asyncio.Queue() for _ in range(10)]
    hub.clients = {1: set(queues[:6]), 2: set(queues[6:])}
    assert hub.open_streams() == 10
    assert hub.shed(3, random.Random(1)) == 3
    ended = [q for q in queues if not q.empty() and q.get_nowait() is realtime.CLOSE]
    assert len(ended) == 3


def scaled_out(test):
    for mark in SCALED_OUT:
        test = mark(test)
    return test


@scaled_out
def test_after_a_restart_the_streams_share_out_across_both_web_processes(make_tournament):
    """24 lobby screens all on web process A (B had restarted): within seconds each process
    holds no more than 1.5x the other's, the screens reconnecting as browsers do."""
    from tournaments.models import DisplayScreen

    t = make_tournament()
    tokens = [DisplayScreen.objects.create(name=f"TV {i}", tournament=t, token=f"balance-tv-{i}").token for i in range(24)]
    redis_server = EmbeddedRedis()
    env = database_env()
    namespace = f"tdm-balance-test-{os.getpid()}"
    env.update(REDIS_URL=redis_server.url, TDM_NAMESPACE=namespace, TDM_STREAM_BALANCE_SECONDS="1")
    webs, stopping = [], threading.Event()
    try:
        webs = [start_web(env) for _ in range(2)]
        ports = [web.port for web in webs]
        reconnects = []

        def screen(token):
            """An EventSource: when its stream ends it reconnects, to the other process (a
            balancer's next pick)."""
            at = 0
            while not stopping.is_set():
                url = f"http://127.0.0.1:{ports[at]}/live/{t.pk}/stream/?token={token}"
                try:
                    with httpx.stream("GET", url, timeout=httpx.Timeout(10, read=None)) as r:
                        for _ in r.iter_bytes():
                            if stopping.is_set():
                                return
                except httpx.HTTPError:
                    pass
                reconnects.append(token)
                at = 1 - at
                time.sleep(0.2)

        threads = [threading.Thread(target=screen, args=(token,), daemon=True) for token in tokens]
        for thread in threads:
            thread.start()

        import redis

        client = redis.Redis.from_url(redis_server.url)

        def counts():
            return sorted(int(v.split()[0]) for v in client.hgetall(f"{namespace}:streams").values())

        deadline = time.monotonic() + 60
        seen = []
        while time.monotonic() < deadline:
            seen = counts()
            if len(seen) == 2 and sum(seen) == 24 and seen[1] <= 1.5 * seen[0]:
                break
            time.sleep(0.2)
        assert len(seen) == 2 and sum(seen) == 24 and seen[1] <= 1.5 * seen[0], seen
        assert reconnects, "no stream was ever ended"
    finally:
        stopping.set()
        for web in webs:
            stop(web, sig_kill=True)
        redis_server.stop()


def test_the_festival_reads_each_web_process_count_where_the_process_wrote_it(fc, settings, monkeypatch):
    """The festival's report of the streams per process reads the hash the web processes write
    under the fleet's namespace (its own process has not that namespace in its settings)."""
    import types

    import redis

    hashes: dict = {}

    class Hash:
        def hset(self, key, field, value):
            hashes.setdefault(key, {})[field.encode()] = value.encode()

        def hgetall(self, key):
            return hashes.get(key, {})

        def hdel(self, key, field):
            hashes[key].pop(field, None)

    settings.TDM_NAMESPACE = "tdm-festival-ab12"
    monkeypatch.setattr(realtime.bus, "_client", Hash())
    for pid, count in ((4101, 37), (4102, 12)):
        realtime.report_streams(f"web:{pid}", count, every=15)
    monkeypatch.setattr(redis.Redis, "from_url", lambda *a, **kw: Hash())
    web = [types.SimpleNamespace(name=f"web{i}", proc=types.SimpleNamespace(pid=pid, poll=lambda: None)) for i, pid in ((1, 4101), (2, 4102))]
    fleet = types.SimpleNamespace(redis_url="redis://127.0.0.1:1/0", namespace="tdm-festival-ab12", of=lambda kind: web)
    assert fc.open_streams(fleet) == {"web1": 37, "web2": 12}
