"""A small festival day on the production topology (``benchmarks/festival.py``'s parts): one
event (a progressive knockout: the busts name their eliminators, the desks pay the bounties), 2
cashier desks, 4 floor tablets, 2 lobby screens and 50 phones, on 2 web processes, 2 Celery
workers, 1 beat and a Redis of its own, each a real process; while the clients act, one
process of each kind is killed with SIGKILL and started again (a web process, a worker, beat,
Redis). Then the day's invariants must hold: every acknowledged sale has one ledger row and one
receipt, receipts gapless, no entry seated twice, seats and tables consistent, the pool equals
the ledger, the bounty money taken in paid, owed, on heads or the house's to the cent, every
bust and knockout counted once, every screen and phone on the final state.

Across the web process's kill one tablet drops off the network for a few seconds (the day's
drops are 30–120 s; the queue is the same): it taps on offline, its first tap the bust of a
player another tablet has recorded out, and sends its queue when back, in order. Every queued
action must be answered, each done once (its key and its one event at its tap's time) or
refused having done nothing, the player tapped out twice refused as already out.

Nothing here is timed: each step waits for its event (the clients' acknowledged actions, a
restarted process's readiness, the streams' convergence) with generous deadlines. The figures
are the benchmark's. Skipped on SQLite: several web processes share PostgreSQL only.
"""

import threading
import time

from tests.servers import SCALED_OUT, database_env

pytestmark = SCALED_OUT

WAIT = 60  # seconds: generous, for a loaded 2-core machine; every wait ends on its event
DROP = 3.0  # seconds one tablet is off the network: the tablets tap every 0.3 s, a queue of about ten


def wait_until(predicate, what, timeout=WAIT):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout}s")
        time.sleep(0.1)


def test_a_small_festival_survives_one_kill_of_each_process_kind(fc, settings, tmp_path):
    from tdmanager import realtime

    fc.raise_nofile()
    topology = fc.Topology(database_env()["DATABASE_URL"], log_dir=tmp_path)
    # The setup here publishes its changes to the topology's own Redis, never a shared one, and
    # arms no countdown: the workers do.
    settings.REDIS_URL, settings.TDM_NAMESPACE, settings.TDM_ARM_CLOCK_TASKS = topology.redis_url, topology.namespace, False
    realtime.bus._client = None
    plan = fc.Plan(
        flights=0, side_events=1, side_entries=60, sit_and_goes=0, desks=2, tablets=4, screens=2, phones=50, desk_pause=0.3, tablet_pause=0.3, keep_alive=10
    )
    stop = threading.Event()
    fleet, actors, seq_lookup = None, [], fc.SeqLookup()
    try:
        topology.start()
        world = fc.build_festival(plan, log=lambda *_: None)
        world.topology, world.bases, world.plan = topology, topology.bases, plan
        fleet = fc.Fleet(topology, world, sample_every=1, ramp=50)
        assert fleet.start(timeout=WAIT * 2)["connected"] == 52
        actors = fc.start_clients(world, plan, stop, seq_lookup)
        tablet = next(a for a in actors if isinstance(a, fc.Tablet))
        for kind in ("web", "worker", "beat", "redis"):
            before = len(world.actions)
            wait_until(lambda before=before: len(world.actions) >= before + 10, f"ten actions acknowledged before the {kind}'s kill")
            if kind == "web":  # the Wi-Fi goes once another tablet has recorded a bust: the dropped one taps it again
                wait_until(lambda: any(b[4] != tablet.n for b in world.recent_busts), "a bust recorded by another tablet")
                tablet.drop(DROP, double_first=True)
            topology.kill(kind)
        wait_until(lambda: world.drops and world.drops[0]["drained"] is not None, "the dropped tablet's queue drained")
        before = len(world.actions)
        wait_until(lambda: len(world.actions) >= before + 20, "twenty actions acknowledged after the last restart")
        stop.set()
        for a in actors:
            a.join(fc.Actor.give_up + 30)
        assert not [a.failed for a in actors if a.failed]
        assert [w[0] for w in topology.windows] == ["web", "worker", "beat", "redis"]
        assert world.money and world.busts, "the desks sold and the floor busted"
        print("\n".join(fc.drop_lines(world)))  # shown with the failure, or with -s
        drops = fc.drop_figures(world)
        assert drops["drops"] == 1 and drops["back"] == 1 and drops["unanswered"] == 0, drops
        assert drops["queued"] >= 2 and drops["kinds"]["bust (tapped again)"] >= 1, drops  # the tablet tapped on offline
        assert drops["answers"]["409 already_out"] >= drops["kinds"]["bust (tapped again)"], drops  # the second tap refused, not recorded
        assert sum(drops["answers"].values()) == drops["queued"], drops
        report, bad, _seconds = fc.wait_converged(fleet, world, deadline_s=WAIT)
        invariants = fc.check_invariants(world, report, bad)
        assert any(name.startswith("every action queued offline answered") for name, _ok, _d in invariants)
        failed = [(name, detail) for name, ok, detail in invariants if not ok]
        assert not failed, failed
    finally:
        stop.set()
        seq_lookup.close()
        if fleet is not None:
            fleet.stop()
        topology.stop()
        realtime.bus._client = None
