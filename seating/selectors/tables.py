"""The table map: every table in play with its seats, players, stacks and flags, as the floor sees it.

``engine_tables`` reads the tables as the engine sees them; the map adds the moves to make
(and those waiting for a hand-for-hand hand), the open manual draws and who sits with someone
to be kept apart.
"""

from tournaments.floor.selectors import active_penalties, penalty_progress
from tournaments.house import HouseRules
from tournaments.models import ChipCount, Entry
from tournaments.signals import ask

from .. import engine, signals
from ..models import Seat, Table
from .constraints import apart_together
from .manual import manual_draws
from .moves import pending_moves, waiting_moves


def engine_tables(tournament) -> tuple[list[engine.Table], dict[int, Table]]:
    """The tables in play as the engine sees them, and their rows by number."""
    rows = {t.number: t for t in Table.objects.filter(tournament=tournament, in_play=True).order_by("number")}
    seats: dict[int, dict[int, int]] = {}
    for table_id, seat, entry in Seat.objects.filter(tournament=tournament).values_list("table_id", "number", "entry_id"):
        seats.setdefault(table_id, {})[seat] = entry
    tables = [
        engine.Table(
            r.number, r.capacity, seats.get(r.pk, {}), r.big_blind_seat, r.previous_big_blind_seat, frozenset(r.locked_seats or ()), r.locked, r.big_blind_twice
        )
        for r in rows.values()
    ]
    return tables, rows


def table_shown(tournament, number: int) -> dict | None:
    """One table of ``table_map`` (the floor's answer to an action at that table): its players'
    rows read for that table alone, whatever the size of the field."""
    tables, rows = engine_tables(tournament)
    shown = _tables_shown(tournament, tables, rows, engine.halted_tables(tables), only=number)
    return shown[0] if shown else None


def _tables_shown(tournament, tables, rows, halted, only: int | None = None) -> list[dict]:
    """``table_map``'s tables (or the table numbered ``only``), each seat with its player."""
    shown = [t for t in tables if only is None or t.number == only]
    # The players of the seats just read, by key: a seat read before a change committed between
    # the two reads (a bust, a move) still finds its player; the next read shows the change.
    seated = [entry for table in shown for entry in table.seats.values()]
    people = {
        pk: (number, first, last, nick, chips, presence)
        for pk, number, first, last, nick, chips, presence in Entry.objects.filter(tournament=tournament, pk__in=seated).values_list(
            "pk", "number", "person__first_name", "person__last_name", "person__nickname", "chips", "presence"
        )
    }
    waiting = Seat.objects.filter(tournament=tournament, wait_for_button=True)  # SEAT-05: a few seats of the whole room
    if only is not None:
        waiting = waiting.filter(entry_id__in=seated)
    waiting = set(waiting.values_list("entry_id", flat=True))
    counted = _counted_stacks(tournament, seated if only is not None else None)
    # PEN-04: a penalty belongs to the entry, so it shows wherever the player now sits.
    penalties = {}
    # The table map shows each penalised player's hands left, or a time suspension's time (PEN-03, PEN-05).
    for p in active_penalties(tournament):
        penalties.setdefault(p.entry_id, []).append(penalty_progress(p))
    together = apart_together(tournament, shown)  # SEAT-07: pairs kept apart who sit together anyway
    bounties: dict[int, str] = {}  # PAY-02: the bounty on each head, in a FIXED or PKO event (payouts answers)
    for answer in ask(signals.bounties_wanted, tournament=tournament, entries=seated if only is not None else None):
        bounties.update(answer)
    out_tables = []
    for table in shown:
        row = rows[table.number]
        pos = engine.next_hand_positions(table)
        seats = []
        for seat in range(1, table.capacity + 1):
            entry = table.seats.get(seat)
            item = {"seat": seat, "locked": seat in table.locked_seats, "entry": entry}
            if entry is not None:
                number, first, last, nick, chips, presence = people[entry]
                item.update(
                    entry_number=number,
                    name=f"{first} {last}".strip(),
                    nickname=nick,
                    chips_bought=chips,
                    stack=counted.get(entry),
                    wait_for_button=entry in waiting,
                    penalties=penalties.get(entry, []),
                    keep_apart=entry in together,
                    presence=presence,
                    bounty=bounties.get(entry),
                )  # ELM-05: absent / withdrawn, blinded out
            item["position"] = ("BTN" if seat == pos.button else "") + ("SB" if seat == pos.small_blind else "") + ("BB" if seat == pos.big_blind else "")
            seats.append(item)
        out_tables.append(
            {
                "number": table.number,
                "capacity": table.capacity,
                "players": len(table.seats),
                "big_blind_seat": table.big_blind_seat,
                "previous_big_blind_seat": table.previous_big_blind_seat,
                "next_hand": {"button": pos.button, "small_blind": pos.small_blind, "big_blind": pos.big_blind},
                "locked": table.locked,
                "locked_seats": sorted(table.locked_seats),
                "halted": table.number in halted,
                "halt_waived": row.halt_waived,
                "is_final": row.is_final,
                "tv": row.tv,
                "seats": seats,
            }
        )
    return out_tables


def table_map(tournament) -> dict:
    """Every table in play with its seats, players, stacks, blinds and flags; the moves to
    make and those waiting for a table's hand-for-hand hand; halted tables; the next table to
    break. For the floor's page and the API."""
    h = HouseRules.of(tournament)
    tables, rows = engine_tables(tournament)
    halted = engine.halted_tables(tables)
    next_break = engine.next_table_to_break(tables, h.break_order)
    due = engine.table_to_break(tables, break_order=h.break_order, final_table_size=h.final_table_size)
    out_tables = _tables_shown(tournament, tables, rows, halted)
    return {
        "tournament": tournament.pk,
        "players": sum(len(t.seats) for t in tables),
        "tables": out_tables,
        "moves": pending_moves(tournament),
        "waiting_moves": waiting_moves(tournament),  # CLK-06: for a table's hand-for-hand hand, no player yet
        "halted": [n for n in halted if not rows[n].halt_waived],
        "halt_advisory": tournament.table_size < 7,  # BAL-02: short-handed events halt at the TD's discretion
        "next_to_break": next_break,
        "break_due": due,
        "break_order": h.break_order,
        "draw_mode": h.draw_mode,
        "manual_draws": manual_draws(tournament),
        "settings": {
            "balance_trigger_difference": h.balance_trigger_difference,
            "mover_rule": h.mover_rule,
            "dest_rule": h.dest_rule,
            "tie_break": h.tie_break,
            "vacated_bb_seat": h.vacated_bb_seat,
            "final_table_size": h.final_table_size,
            "h4h_policy": h.h4h_simultaneous_policy,
        },
    }


def _counted_stacks(tournament, entries=None) -> dict[int, int]:
    """The last counted stack of each seated player (the floor's chip counts), if any; of
    ``entries`` alone when given."""
    out: dict[int, int] = {}
    counts = ChipCount.objects.filter(tournament=tournament, entry__seat__isnull=False)
    if entries is not None:
        counts = counts.filter(entry_id__in=entries)
    for entry, chips in counts.order_by("entry_id", "-counted_at", "-id").values_list("entry_id", "chips"):
        out.setdefault(entry, chips)
    return out
