"""Read-only seating lookups, one module per topic as the services are; nothing here writes.

The topics: ``tables`` (the table map), ``moves`` (move slips, those waiting for a
hand-for-hand hand), ``busts`` (busts, knockouts,
standings), ``draws`` (the draw history and its replay), ``predraw`` (the draw in advance),
``manual`` (manual draws), ``constraints`` (keep-apart pairs, reserved seats), ``cardrooms``
(the room's physical tables), ``dealers``, ``lookup`` (the public seat lookup), ``screens``
(the lobby's seating part) and ``others`` (what the other apps ask through the receivers).
They read the database, never the services' in-memory room.

The names are gathered here for the readers that span topics (the pages, the API, the
receivers) and for payouts, which write ``from seating import selectors``; ``busts``,
``constraints`` and ``lookup`` are the modules of those names, so their functions of the same
name are imported from there.
"""

from .busts import knockouts, standings
from .cardrooms import FREE, IN_USE, OUT_OF_SERVICE, RESERVED, room_map, rooms
from .constraints import apart_pairs, apart_together
from .dealers import dealer_report, room_dealers
from .draws import DRAW_ACTIONS, draw_history, draw_replay
from .lookup import LOOKUP_MAX_RESULTS, LOOKUP_MIN_LETTERS, find_places, find_seats, lookup_query_ok, public_standings, shown_name
from .manual import manual_draws
from .moves import hand_finished_at, move_dict, pending_moves, recent_moves, waiting_dict, waiting_for, waiting_moves
from .others import (
    entries_view,
    entry_view,
    h4h_hand_busts,
    last_bust_h4h_hand,
    overview,
    players_at_table,
    room_for_entry,
    seat_of,
    table_numbers,
    tournament_links,
    tv_table,
)
from .predraw import predraw_rows, predraw_sessions, schedule_of, shows_schedule
from .screens import DISPLAY_MOVES, SEAT_PAGE_MAX, SEAT_PAGE_SIZE, display_summary, forget_seat_lists, seat_list, seat_page, seats_version
from .tables import engine_tables, table_map, table_shown

__all__ = [
    "knockouts",
    "standings",
    "FREE",
    "IN_USE",
    "OUT_OF_SERVICE",
    "RESERVED",
    "room_map",
    "rooms",
    "apart_pairs",
    "apart_together",
    "dealer_report",
    "room_dealers",
    "DRAW_ACTIONS",
    "draw_history",
    "draw_replay",
    "LOOKUP_MAX_RESULTS",
    "LOOKUP_MIN_LETTERS",
    "find_places",
    "find_seats",
    "lookup_query_ok",
    "public_standings",
    "shown_name",
    "manual_draws",
    "hand_finished_at",
    "move_dict",
    "pending_moves",
    "recent_moves",
    "waiting_dict",
    "waiting_for",
    "waiting_moves",
    "entries_view",
    "entry_view",
    "h4h_hand_busts",
    "last_bust_h4h_hand",
    "overview",
    "players_at_table",
    "room_for_entry",
    "seat_of",
    "table_numbers",
    "tournament_links",
    "tv_table",
    "predraw_rows",
    "predraw_sessions",
    "schedule_of",
    "shows_schedule",
    "DISPLAY_MOVES",
    "SEAT_PAGE_MAX",
    "SEAT_PAGE_SIZE",
    "display_summary",
    "forget_seat_lists",
    "seat_list",
    "seat_page",
    "seats_version",
    "engine_tables",
    "table_map",
    "table_shown",
]
