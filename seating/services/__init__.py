"""Seating services: the only code that changes the seat map (tables, seats, busts, moves).

Each public function is one ``transaction.atomic()`` unit that locks the tournament row
first, reads the live seat map (``room``), asks the pure engine (``seating.engine``), writes
only the rows that changed and logs what it did (``seating.<noun>.<verb>``); see ``plan``
for what follows every change (final table, breaks, balancing proposals, halts).
"""

from .busts import forfeit_entries, mark_simultaneous, recompute_places, record_bust, remove_entry, undo_bust
from .constraints import add_keep_apart, remove_keep_apart, remove_reservation, reserve_seat
from .draws import draw, names_changed, release_seat, seat_new_entry, tournament_started, undo_revival
from .manual import clear_card, enter_card, open_draws
from .moves import confirm_move, confirm_moves, move_player, undo_move
from .plan import House, Outcome, SeatingActionError, house, seeded
from .predraw import predraw
from .tables import hand_closed_everywhere, hand_completed, lock_seat, lock_table, misdeal, set_big_blind, set_break_order, set_tv_table, waive_halt
from .undo import undo_bust_and_later

__all__ = [
    "add_keep_apart",
    "clear_card",
    "enter_card",
    "open_draws",
    "remove_keep_apart",
    "remove_reservation",
    "reserve_seat",
    "forfeit_entries",
    "House",
    "Outcome",
    "SeatingActionError",
    "confirm_move",
    "confirm_moves",
    "draw",
    "names_changed",
    "hand_closed_everywhere",
    "hand_completed",
    "house",
    "lock_seat",
    "lock_table",
    "misdeal",
    "mark_simultaneous",
    "move_player",
    "predraw",
    "recompute_places",
    "record_bust",
    "release_seat",
    "remove_entry",
    "seat_new_entry",
    "seeded",
    "set_big_blind",
    "set_break_order",
    "set_tv_table",
    "tournament_started",
    "undo_bust",
    "undo_bust_and_later",
    "undo_move",
    "undo_revival",
    "waive_halt",
]
