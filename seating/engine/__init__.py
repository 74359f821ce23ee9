"""Seating engine: seat draws, positions, balancing, breaking, final table, finishing places.

RULES.md §3 (SEAT-01..09), §4 (POS-01, BAL-01..09) and §8 (ELM-01..07).

Pure Python, standard library only: the seating services lock the rows, call these
functions, write what they return and log it. Every function takes plain data and returns
new plain data; nothing here mutates its inputs.

Seats are numbered 1..capacity clockwise, so "clockwise after seat 9" at a 10-max table is
seat 10, then seat 1. A table stores two numbers about the blinds (POS-01):

- ``big_blind_seat`` = BB(h), the big-blind seat of the last completed hand;
- ``previous_big_blind_seat`` = BB(h−1), the big-blind seat of the hand before.

Everything about the next hand follows from them: BB(h+1) is the first occupied seat
clockwise after BB(h); the small blind is seat BB(h) (dead if it is empty); the button is
seat BB(h−1) (a dead button if it is empty). A table that has not played yet stores the
positions "one hand before its first hand": ``big_blind_seat`` = the small blind of the
first hand, ``previous_big_blind_seat`` = its button, so the same rule gives the first hand.

Tables with no players are treated as closed: they neither give nor receive players, are
never "due to break" and are not in the seat pool. A table opens through
:func:`draw_late_seat` (``opens_new_table``) or a draw.

Choices where RULES.md leaves freedom (each one is also stated where it is made):

- Balancing ties (BAL-05, ``TABLE_ORDER``): the source is the highest-numbered of the
  fullest tables and the destination the lowest-numbered of the shortest ones, because the
  default break order breaks the highest-numbered short table first: players leave the
  tables that break soonest and go to the tables that last longest. ``RANDOM_DRAW`` draws
  among the tied tables with the rng.
- Unknown big blind (``big_blind_seat`` is None): the mover is the player in the highest
  occupied seat, and the destination seat is drawn at random (rng) among the open seats;
  the move's reason says so, and the floor must confirm the button before he is dealt in.
  An unknown BB(h−1) is taken as the occupied seat just before BB(h) (the normal case
  with no dead blinds).
- ``CURRENT_BB`` when the big blind of the last hand has left (busted or already moved):
  the next big blind moves instead (004 Art. 16.2, "the future blinds").
- ``BUTTON_CASH`` moves the button of the coming hand; with a dead button, the player just
  before it, who acts last in that hand.
- ``WORST_POSITION``: the open seat with the fewest hands until the big blind; ties go to
  the seat first clockwise from BB(h). Under ``SINGLE_BB`` the seat the big blind just left
  is offered with "1 hand", but an ordinary single-big-blind seat wins a tie with it (no
  big blind twice when it is not needed). Under ``EXCLUDED`` that seat is used only when it
  is the only open seat, and then as a single big blind, never as a small blind.
- A single-big-blind move into the seat the big blind just left marks the table
  ``big_blind_twice``: the next hand has that seat as big blind, no small blind and the
  button on BB(h−1); then the button stays still once, as in 004 Art. 13.2 case 2.
- ``NEAREST_BB`` (003 Art. 4.9): the open seat physically nearest the coming hand's big
  blind (either side), then the one that posts the big blind sooner; never the small blind.
- ``SAME_RELATIVE_POSITION`` (004 Art. 8.2): the open seat whose hands-until-big-blind is
  closest to the mover's at his old table, then the sooner one; never the small blind.
- Balancing during hand-for-hand (CLK-06): a move off or onto a table still playing the
  hand waits until that table has reported it complete (its mover and its open seat follow
  from the blinds, which move on then); a slip once shown stands while its player, its seat
  and the need for it do (:func:`plan_balance_between_hands`).
- Breaking (SEAT-04): the receiving tables are filled one player at a time, always the
  table with the fewest players (ties: lowest number), so the result is as balanced as the
  seats allow; at each receiving table the seats used are drawn at random among its open
  seats. Seat cards are then shuffled (step 1) and each player is dealt a card from one
  deck; the highest card (suit order spades > hearts > diamonds > clubs) takes the first
  seat card (step 2).
- Breaking order (BAL-06): by default the table with the fewest players, ties the
  highest-numbered. The order is strict: only the next table in it is considered, and it
  breaks when its players fit. An explicit ``break_order`` names tables; its first
  existing, unlocked, non-empty table is the next one; when the list is used up the
  default order applies. Locked tables are never broken.
- Initial draw (SEAT-01): the extra players go to the lowest-numbered tables; a table of m
  players at a c-seat table uses seats ``i*c//m + 1`` (i = 0..m−1), i.e. spread evenly from
  seat 1 (5 players at 10-max: seats 1, 3, 5, 7, 9), so the floor knows which seat cards to
  put in the draw. The button of each table is a high-card draw (SEAT-08).
- Final table (BAL-09): default size 9 for 8- to 10-max events (RP-9 EN; 10-max is not
  in RP-9), 7 for 6/7-max; ``table_to_break(final_table_size=...)`` never merges the last
  two tables, so they stay balanced (5/5) until :func:`final_table_due`. Default number:
  the lowest table number still playing; default capacity: the largest table capacity (or
  more if more players remain); seats spread as in the initial draw; all players re-drawn
  with the two-step process; button by high card.
- Seat pool (SEAT-03): open seats at the tables with the fewest players; the table next in
  the break order is left out only when another table ties with it (otherwise the new
  player would create an imbalance); seats between the button and the small blind are
  drawn only when the pool has no other seat.
- Finishing places (ELM): busts in one hand-for-hand hand form one group (``h4h_policy``);
  busts with the same ``hand_group`` at one table form one group ranked by starting stack;
  equal or unknown starting stacks share. Groups whose ``order`` is equal cannot be ordered
  (ELM-03) and share. A shared group occupying places k..k+m−1 is recorded as place k with
  ``shared_with`` = m (ELM-06: "k (shared)").

The engine is a package, one module per topic: ``data`` (settings, reasons, the refusal,
tables and moves), ``positions`` (button and blinds), ``cards`` (high-card draws),
``apart`` (keep-apart pairs), ``balance``, ``breaking`` (and the final table), ``draws``
(initial draw, seat pool, late entries) and ``places`` (finishing places). Its public names
are gathered here: callers write ``from seating import engine``.
"""

from .apart import apart_conflicts, partners_of
from .balance import HALT_SHORT_BY, HandPlan, apply_moves, halted_tables, keep_drawn_seats, plan_balance, plan_balance_between_hands
from .breaking import (
    BreakDraw,
    FinalTableDraw,
    break_moves,
    break_seat_cards,
    default_final_table_size,
    draw_break,
    final_table_due,
    final_table_size,
    next_table_to_break,
    plan_break,
    plan_final_table,
    table_to_break,
)
from .cards import DECK, RANK_LABELS, SUIT_SYMBOLS, card_label, parse_card, rank_by_cards
from .data import BALANCE, BREAK, DEST_RULES, FINAL_TABLE, MOVER_RULES, TIE_BREAKS, VACATED_BB_SEAT_MODES, Move, Reason, ReasonCode, SeatingError, Table
from .draws import LateSeat, SeatDraw, apply_late_seat, draw_late_seat, draw_seats, seat_layout, seat_pool, seat_tables
from .places import H4H_POLICIES, Bust, Place, finishing_places
from .positions import Positions, advance_hand, hands_until_big_blind, is_between_button_and_small_blind, next_hand_positions
from .rooms import FreeTable, choose_tables, tables_needed

__all__ = [
    "choose_tables",
    "tables_needed",
    "BALANCE",
    "BREAK",
    "DECK",
    "DEST_RULES",
    "FINAL_TABLE",
    "H4H_POLICIES",
    "HALT_SHORT_BY",
    "MOVER_RULES",
    "RANK_LABELS",
    "SUIT_SYMBOLS",
    "TIE_BREAKS",
    "VACATED_BB_SEAT_MODES",
    "BreakDraw",
    "Bust",
    "FinalTableDraw",
    "HandPlan",
    "LateSeat",
    "Move",
    "Place",
    "FreeTable",
    "Positions",
    "Reason",
    "ReasonCode",
    "SeatDraw",
    "SeatingError",
    "Table",
    "advance_hand",
    "apart_conflicts",
    "apply_late_seat",
    "apply_moves",
    "break_moves",
    "break_seat_cards",
    "card_label",
    "default_final_table_size",
    "draw_break",
    "draw_late_seat",
    "draw_seats",
    "final_table_due",
    "final_table_size",
    "finishing_places",
    "halted_tables",
    "hands_until_big_blind",
    "is_between_button_and_small_blind",
    "keep_drawn_seats",
    "next_hand_positions",
    "next_table_to_break",
    "parse_card",
    "partners_of",
    "plan_balance",
    "plan_balance_between_hands",
    "plan_break",
    "plan_final_table",
    "rank_by_cards",
    "seat_layout",
    "seat_pool",
    "seat_tables",
    "table_to_break",
]
