"""The live state of a tournament: what displays and dashboards show, with its version.

Built from the database alone (the clock row is advanced arithmetically), so a snapshot is
right even when no worker has run the transition yet. Display state after an action equals
the state built from scratch: there is only one builder.
"""

from django.utils import timezone

from . import clock as engine
from . import clockview, signals
from .clockview import engine_state, structure_items
from .models import Clock, Entry, Tournament, TournamentEvent
from .selectors import chips_in_play


def clock_snapshot(t: Tournament, now=None) -> dict:
    now = now or timezone.now()
    items = structure_items(t)
    try:
        clock = t.clock
    except Clock.DoesNotExist:
        clock = None
    if not items:
        return {"status": "NO_STRUCTURE", "version": 0, "server_time": now.isoformat()}
    state = engine_state(clock) if clock else engine.new_clock(items)
    return engine.snapshot(state, items, now)


def build_snapshot(tournament_or_id, now=None) -> dict:
    now = now or timezone.now()
    pk = getattr(tournament_or_id, "pk", tournament_or_id)
    # The last event is read first: every row read after it is at least that new, so a snapshot
    # never carries a newer ``seq`` than its content (a change committed while it is built is
    # announced again and builds the next one). Browsers drop snapshots older than the one shown.
    seq = TournamentEvent.objects.filter(tournament_id=pk).order_by("-id").values_list("id", flat=True).first() or 0
    # Always read the rows afresh: a snapshot must never show a cached, stale state.
    t = Tournament.objects.select_related("clock").get(pk=pk)
    clk = clock_snapshot(t, now)
    counts = dict.fromkeys((Entry.ACTIVE, Entry.BUSTED, Entry.RESERVED), 0)
    for status in t.entries.values_list("status", flat=True):
        if status in counts:
            counts[status] += 1

    snap = {
        "tournament": {"id": t.pk, "name": t.name, "status": t.status, "currency": t.currency, "format": t.format},
        "version": clk.get("version", 0),
        # Monotonic across every change (the last event-log row): browsers drop older snapshots.
        "seq": seq,
        "server_time": now.isoformat(),
        "clock": clk,
        "players_left": counts[Entry.ACTIVE],
        "entries": counts[Entry.ACTIVE] + counts[Entry.BUSTED],
        "late_registration_open": t.status in (Tournament.REGISTERING, Tournament.PLANNED) or (
            t.status == Tournament.RUNNING and clockview.late_registration_open(t, now)
        ),
        "late_registration_level": t.late_reg_closes_after_level,
        "addon_open": t.allows_addon and t.status == Tournament.RUNNING and clockview.addon_window_open(t, now),
        "announcements": list(t.screens.exclude(announcement="").values_list("announcement", flat=True).distinct()),
    }
    if clk.get("hand_for_hand"):
        from .models import HandForHandReport

        snap["h4h_done"] = list(HandForHandReport.objects.filter(tournament=t, hand=clk["h4h_hand"]).values_list("table_number", flat=True))
    for part in signals.ask(signals.snapshot_parts, tournament=t):  # seating: tables, seats, moves; payouts: the pool
        snap.update(part)
    chips = snap["chips_in_play"] = chips_in_play(t)  # CR-06: the average stack comes from it
    snap["average_stack"] = round(chips / snap["players_left"]) if snap["players_left"] else 0
    return snap
