"""The floor overview: every running tournament at a glance — level, time left,
players, tables, moves pending, halted tables, hand-for-hand, late registration — for the floor
and the director running several events at once. Read side only."""

from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone

from tournaments import signals
from tournaments.clock import selectors as clock_selectors
from tournaments.house import HouseRules
from tournaments.live.snapshot import clock_snapshot
from tournaments.models import Entry, Tournament


def tournament_row(t: Tournament, now=None) -> dict:
    now = now or timezone.now()
    clk = clock_snapshot(t, now)
    row = {
        "id": t.pk,
        "name": t.name,
        "format": t.format,
        "status": t.status,
        "url": reverse("tournament", args=[t.pk]),
        "clock_url": reverse("clock-control", args=[t.pk]),
        "clock": {
            key: clk.get(key)
            for key in (
                "status",
                "level_number",
                "is_break",
                "small_blind",
                "big_blind",
                "ante",
                "seconds_left",
                "ends_at",
                "server_time",
                "hand_for_hand",
                "h4h_hand",
            )
        },
        "players_left": t.n_active,
        "entries": t.n_active + t.n_busted,
        "hand_for_hand": bool(clk.get("hand_for_hand")),
        "late_registration_open": clock_selectors.late_registration_open(t, now),
        "late_registration_level": HouseRules.of(t).late_registration_level(t),
        "tables": None,
        "moves_pending": 0,
        "halted_tables": [],
    }
    for part in signals.ask(signals.overview_parts, tournament=t):  # seating: tables, moves, halted tables
        row.update(part)
    for link in signals.ask(signals.page_links, tournament=t):
        for item in link:
            if item["url"].endswith("/tables/"):
                row["tables_url"] = item["url"]
    return row


def running_overview(now=None) -> dict:
    """Every running tournament, earliest start first, with the totals of the room."""
    now = now or timezone.now()
    qs = (
        Tournament.objects.filter(status=Tournament.RUNNING)
        .select_related("clock")
        .annotate(
            n_active=Count("entries", filter=Q(entries__status=Entry.ACTIVE)),
            n_busted=Count("entries", filter=Q(entries__status=Entry.BUSTED)),
        )
        .order_by("start_at", "pk")
    )
    rows = [tournament_row(t, now) for t in qs]
    return {
        "server_time": now.isoformat(),
        "tournaments": rows,
        "players_left": sum(r["players_left"] for r in rows),
        "tables": sum(r["tables"] or 0 for r in rows),
        "moves_pending": sum(r["moves_pending"] for r in rows),
    }
