"""The live state of a tournament: what displays and dashboards show, with its version.

Built from the database alone (the clock row is advanced arithmetically), so a snapshot is
right even when no worker has run the transition yet. Display state after an action equals
the state built from scratch: there is only one builder.

It costs the same whatever the field, so the lobby keeps up with a large one: a fixed number
of small queries (counts and sums, never the field row by row) and a few KiB of JSON. What
could grow with the field is capped: the announcements (``MAX_ANNOUNCEMENTS`` of the screens', then the last changes), the
moves to make (seating lists the first 30, ``moves_pending`` counts them all), the results (the
top ``RESULTS``) and what they won; a bounty event's biggest bounties (payouts lists five and the
last mystery envelope drawn, never the field); the payout ladder is bounded by the places paid (bands of
equal prizes, ``MAX_PAYOUT_BANDS`` at most, ``payout_bands`` counting them all); the tables
of a hand-for-hand hand (``h4h_tables``) are there only during one. The seats are not: the
rotating seat lookup pages through ``/live/<pk>/seats/``, read again only when
``seats_version`` changed (``tournaments.live.seats``).
"""

from dataclasses import replace

from django.conf import settings
from django.db.models import Count, Q
from django.utils import timezone, translation

from tournaments import signals
from tournaments.clock import rules as clock_rules
from tournaments.clock import selectors as clock_selectors
from tournaments.clock.selectors import engine_state, structure_items
from tournaments.eventlog.actions import Action
from tournaments.floor.selectors import chips_in_play
from tournaments.house import HouseRules
from tournaments.models import Clock, DisplayScreen, Entry, HandForHandReport, Tournament, TournamentEvent
from tournaments.people.names import public_names
from tournaments.setup.selectors import change_announcement, recent_changes


def clock_snapshot(t: Tournament, now=None) -> dict:
    now = now or timezone.now()
    items = structure_items(t)
    try:
        clock = t.clock
    except Clock.DoesNotExist:
        clock = None
    if not items:
        return {"status": "NO_STRUCTURE", "version": 0, "server_time": now.isoformat()}
    if clock is None or clock.status == Clock.NOT_STARTED:
        # A clock not started yet shows its first item in full (the row's remaining is 0 until
        # the first start), never a red 00:00.
        fresh = clock_rules.new_clock(items)
        state = engine_state(clock) if clock else fresh
        state = replace(state, remaining=state.remaining or fresh.remaining)
    else:
        state = engine_state(clock)
    data = clock_rules.snapshot(state, items, now)
    # "Next break in" counts down in the browser: the seconds left in the current item plus
    # these (the structure between the end of this item and the next break), like the clock.
    ttb = data.get("seconds_to_next_break")
    data["next_break_after_item"] = None if ttb is None else round(ttb - data["seconds_left"], 3)
    # CLK-08 (TDA 26): with the house's reminder on, the first hand of a new level is dealt with
    # new decks; the staff's clock page says so while the level's "next hand" notice lasts.
    data["deck_change"] = bool(data.get("new_level_notice") and not data.get("is_break") and HouseRules.of(t).deck_change_reminder)
    return data


# The picture a lobby screen shows (display.js): one per state of the tournament.
LOBBY_STATES = ("planned", "registering", "waiting", "running", "paused", "break", "hand_for_hand", "final_table", "finished", "cancelled")


def lobby_state(status: str, clock: dict, tables: int, players_left: int) -> str:
    """Which lobby picture fits: before the start, the clock's state while running, the result after."""
    if status == Tournament.CANCELLED:
        return "cancelled"
    if status == Tournament.FINISHED:
        return "finished"
    if status == Tournament.PLANNED:
        return "planned"
    if status == Tournament.REGISTERING:
        return "registering"
    c = clock.get("status")
    if c in (None, "NO_STRUCTURE", Clock.NOT_STARTED):
        return "waiting"
    if c == Clock.HAND_FOR_HAND:
        return "hand_for_hand"
    if c in (Clock.PAUSED, Clock.FINISHED):  # a clock stopped for good before the end stands still too
        return "paused"
    if clock.get("is_break"):
        return "break"
    if tables == 1 and players_left > 1:
        return "final_table"
    return "running"


#: Caps on what a snapshot lists (see the module's docstring).
MAX_ANNOUNCEMENTS = 5
RESULTS = 10
MAX_PAYOUT_BANDS = 60


def results(t: Tournament, limit: int = RESULTS) -> list[dict]:
    """The top finishing places (a shared place lists each of its players), best first."""
    rows = list(
        t.entries.exclude(status=Entry.CANCELLED)
        .filter(place__isnull=False)
        .order_by("place", "number")
        .values_list("place", "person__first_name", "person__last_name", "person__nickname", "id", "person__hide_from_lookup", "number")[:limit]
    )
    # Names as every public page shows them (the lobby, the seat lookup's standings, the phones).
    names = public_names(((first, last, nick, hidden, number) for _p, first, last, nick, _pk, hidden, number in rows), HouseRules.of(t).seat_lookup_names)
    return [{"place": row[0], "player": name, "entry": row[4]} for name, row in zip(names, rows, strict=True)]


def change_announcements_by_language(t, now) -> dict[str, list[str]]:
    """The event's recent changes (``selectors.recent_changes``) in every language of the
    product: {"en": [...], "it": [...]}; the same changes, each list in one language."""
    changes = recent_changes(t, now, HouseRules.of(t).change_notice_hours)  # read once, told in each language
    out = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            out[code] = [change_announcement(c) for c in changes]
    return out


def players_told(tournament_id: int) -> dict | None:
    """The director's latest announcement to the players' phones: ``{"id", "text", "at"}``, or None."""
    row = (
        TournamentEvent.objects.filter(tournament_id=tournament_id, action=Action.TOURNAMENTS_PLAYERS_TOLD.value)
        .order_by("-id")
        .values("id", "payload", "created_at")
        .first()
    )
    return {"id": row["id"], "text": row["payload"].get("text", ""), "at": row["created_at"].isoformat()} if row else None


def build_snapshot(tournament_or_id, now=None) -> dict:
    now = now or timezone.now()
    pk = getattr(tournament_or_id, "pk", tournament_or_id)
    # The last event is read first: every row read after it is at least that new, so a snapshot
    # never carries a newer ``seq`` than its content (a change committed while it is built is
    # announced again and builds the next one). Browsers drop snapshots older than the one shown.
    seq = TournamentEvent.objects.filter(tournament_id=pk).order_by("-id").values_list("id", flat=True).first() or 0
    # Always read the rows afresh: a snapshot must never show a cached, stale state.
    # With the event formats' links (each a one-to-one, mostly absent): the payouts part asks
    # whether this is a multi-day Day 2, a flight or a heads-up stage, a query each otherwise.
    t = Tournament.objects.select_related("clock", "multiday_event", "flight", "bracket").get(pk=pk)
    clk = clock_snapshot(t, now)
    counts = t.entries.aggregate(**{status: Count("pk", filter=Q(status=status)) for status in (Entry.ACTIVE, Entry.BUSTED)})

    snap = {
        "tournament": {
            "id": t.pk,
            "name": t.name,
            "status": t.status,
            "currency": t.currency,
            "format": t.format,
            "start_at": t.start_at.isoformat() if t.start_at else None,
        },
        "version": clk.get("version", 0),
        # Monotonic across every change (the last event-log row): browsers drop older snapshots.
        "seq": seq,
        "server_time": now.isoformat(),
        "clock": clk,
        "players_left": counts[Entry.ACTIVE],
        "entries": counts[Entry.ACTIVE] + counts[Entry.BUSTED],
        "late_registration_open": t.status in (Tournament.REGISTERING, Tournament.PLANNED)
        or (t.status == Tournament.RUNNING and clock_selectors.late_registration_open(t, now)),
        "late_registration_level": HouseRules.of(t).late_registration_level(t),  # REG-04: the house default when unnamed
        "official_languages": HouseRules.of(t).official_languages,  # ROLE-06 (TDA 6): posted on the lobby
        "addon_open": t.allows_addon and t.status == Tournament.RUNNING and clock_selectors.addon_window_open(t, now),
        # FMT-02: the event's recent changes are announced with what the director wrote.
        # The announcements of the screens that show this tournament, as their own or in rotation.
        "announcements": list(
            DisplayScreen.objects.filter(Q(tournament=t) | Q(rotate=t))
            .exclude(announcement="")
            .order_by("announcement")
            .values_list("announcement", flat=True)
            .distinct()[:MAX_ANNOUNCEMENTS]
        ),
        # FMT-02: and its recent changes, in each language of the product (built once for every
        # screen: each shows those of its page's language, with the director's text as he wrote it)
        "changes": change_announcements_by_language(t, now),
        # The director's latest announcement to the event's players (typed on the clock page): their
        # phones show it and are told it (tournaments.notices).
        "players_told": players_told(t.pk),
    }
    if clk.get("hand_for_hand"):
        states = dict(HandForHandReport.objects.filter(tournament=t, hand=clk["h4h_hand"]).values_list("table_number", "state"))
        snap["h4h_done"] = sorted(n for n, state in states.items() if state == HandForHandReport.COMPLETE)
        # RP-8-F: an all-in is called there, its cards face down until the director says so.
        snap["h4h_hold"] = sorted(n for n, state in states.items() if state == HandForHandReport.ALL_IN_HOLD)
        # The director's clock page reports each table's hand (CLK-06): the tables playing it.
        snap["h4h_tables"] = signals.ask_one(signals.tables_wanted, default=[], tournament=t)
    for part in signals.ask(signals.snapshot_parts, tournament=t, entries=snap["entries"]):  # seating: tables, moves, seats version; payouts: the pool
        snap.update(part)
    payouts = snap.get("payouts")
    if payouts is not None:
        snap["payout_bands"] = len(payouts)
        snap["payouts"] = payouts[:MAX_PAYOUT_BANDS]
    chips = snap["chips_in_play"] = chips_in_play(t)  # CR-06: the average stack comes from it
    snap["average_stack"] = round(chips / snap["players_left"]) if snap["players_left"] else 0
    if clk.get("hand_for_hand"):
        # CLK-06: once every player left is paid the screens speak of the money, not of a bubble,
        # and say when the hand in play is hand-for-hand's last (it reached the money).
        money = clock_selectors.h4h_money(t, clk["h4h_hand"], snap["players_left"], snap.get("places_paid"))
        snap["h4h_in_the_money"], snap["h4h_last_hand"] = money["in_the_money"], money["last_hand"]
    elif clk.get("status") in (Clock.RUNNING, Clock.PAUSED) and clock_rules.in_the_money(snap["players_left"], snap.get("places_paid")):
        # CLK-06: after the bubble the director's clock page says that hand-for-hand has ended
        # (by itself with the hand that reached the money, or by the director).
        snap["h4h_ended"] = clock_selectors.hand_for_hand_ended(t)
    snap["lobby_state"] = lobby_state(t.status, clk, snap.get("tables_in_play", 0), snap["players_left"])
    if t.status == Tournament.FINISHED:
        snap["results"] = results(t)
        if "won" in snap:  # what the results listed won, not every paid place
            shown = {str(r["entry"]) for r in snap["results"]}
            snap["won"] = {k: v for k, v in snap["won"].items() if k in shown}
    return snap
