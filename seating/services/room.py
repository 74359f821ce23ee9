"""The live seat map of one tournament (the *room*): read it, change it, write it back.

A service locks the tournament row, opens the room, changes tables through the pure engine
(each change replaces an ``engine.Table``; engine tables are never changed in place), then
saves: only the rows of the tables it touched that changed are written — a table's changed
fields in one update, emptied seats in one delete, new or moved seats in one insert (a moved
seat is deleted and inserted again, so no seat is ever held twice mid-plan; Django's
``bulk_update`` builds a CASE expression that costs more than the few rows it would write) —
and the state token is renewed. These writes go into the room's ``writes`` batch and reach
the database together when the service is done (``done``), in its transaction: one round
trip on PostgreSQL (``tdmanager.sql.Batch``). Nothing reads seats between ``save`` and
``done``; the service's other rows (events, slips) are written as they are made.

Reading the whole map costs one query per kind (tables in play, seats, open proposals),
which is 30 ms for 10,000 players on a small machine, after every bust. So the process keeps
the room it last wrote, with the token it wrote. The next service (holding the tournament
lock, so nobody else can change the map meanwhile) reuses it only if the token in the
database is still that token: a change by another process, or a transaction that rolled
back, leaves a different token there and the room is read again. Tokens are random, so a
test database that reuses ids after a rollback can never match a stale room.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from dataclasses import dataclass, replace
from functools import lru_cache

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.utils import timezone

from tdmanager import sql
from tournaments.models import Clock, Tournament

from .. import engine
from ..models import PendingMove, Seat, SeatingState, Table

CACHE_SIZE = 8  # tournaments whose room a process keeps
_cache: OrderedDict[int, Room] = OrderedDict()


@dataclass(frozen=True, slots=True)
class TableInfo:
    """What the room keeps about a table row besides the engine's view."""

    id: int | None  # None until a newly opened table is saved
    is_final: bool = False
    halt_waived: bool = False


@dataclass(frozen=True, slots=True)
class Proposal:
    """An open (proposed, not yet applied) balancing move, as the planner compares them."""

    id: int
    entry: int
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int

    @property
    def key(self):
        return (self.entry, self.from_table, self.from_seat, self.to_table, self.to_seat)


class Room:
    """Open tables (engine view) by number, where each entry sits, and the open proposals."""

    def __init__(self, tournament_id: int, token: str, tables, info, proposals, waiting=None):
        self.tournament_id = tournament_id
        self.token = token
        self.tables: dict[int, engine.Table] = tables
        self.info: dict[int, TableInfo] = info
        self.proposals: dict[int, Proposal] = proposals
        self.waiting: set[int] = waiting or set()  # entries flagged "wait for the button" (SEAT-05)
        self.where: dict[int, tuple[int, int]] = {
            entry: (t.number, seat) for t in tables.values() for seat, entry in t.seats.items()
        }
        self.bust_seq = 0
        self.group_seq = 0
        self.writes = sql.Batch()  # row writes sent together when the service is done
        self._reset_changes()

    def _reset_changes(self):
        self.before: dict[int, tuple[engine.Table | None, TableInfo | None]] = {}
        self.wait: dict[int, bool] = {}  # entry → its new wait-for-button flag (a new or moved seat)

    # --- reading -------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.where)

    def table_list(self) -> list[engine.Table]:
        return list(self.tables.values())

    def table(self, number: int) -> engine.Table | None:
        return self.tables.get(number)

    def seat_of(self, entry_id: int) -> tuple[int, int] | None:
        return self.where.get(entry_id)

    def free_number(self) -> int:
        """The lowest table number not in play (a broken table's number can open again)."""
        n = 1
        while n in self.tables:
            n += 1
        return n

    # --- changing ------------------------------------------------------------------------

    def _touch(self, number: int):
        if number not in self.before:
            self.before[number] = (self.tables.get(number), self.info.get(number))

    def put(self, table: engine.Table, *, is_final: bool | None = None, halt_waived: bool | None = None):
        """Replace (or open) table ``table.number`` with this engine table."""
        number = table.number
        self._touch(number)
        old = self.tables.get(number)
        if old is not None:
            for seat, entry in old.seats.items():
                if self.where.get(entry) == (number, seat):
                    del self.where[entry]
        for seat, entry in table.seats.items():
            self.where[entry] = (number, seat)
        self.tables[number] = table
        # A table closed and opened again within one change keeps its row.
        info = self.info.get(number) or self.before[number][1] or TableInfo(None)
        if is_final is not None:
            info = replace(info, is_final=is_final)
        if halt_waived is not None:
            info = replace(info, halt_waived=halt_waived)
        self.info[number] = info

    def put_all(self, tables):
        """Take every table of an engine answer (apply_moves etc.) that differs from ours."""
        for table in tables:
            if self.tables.get(table.number) is not table:
                self.put(table)

    def close(self, number: int):
        """Take a table out of play (broken, merged into the final table)."""
        self._touch(number)
        table = self.tables.pop(number)
        for seat, entry in table.seats.items():
            if self.where.get(entry) == (number, seat):
                del self.where[entry]
        self.info.pop(number, None)

    def touched(self) -> list[int]:
        return sorted(self.before)

    # --- writing -------------------------------------------------------------------------

    def save(self, now=None) -> dict:
        """Write what changed; return ``{"before": [...], "after": [...]}`` table snapshots
        of the tables touched (the undo source for the event log)."""
        now = now or timezone.now()
        touched = self.touched()
        if not touched:
            return {"before": [], "after": []}
        before = [snapshot(n, *self.before[n], self.waiting) for n in touched]
        self._write_tables(touched, now)
        removed = self._write_seats(touched, now)
        self.waiting.difference_update(removed)
        for entry, wait in self.wait.items():
            if wait and entry in self.where:
                self.waiting.add(entry)
            else:
                self.waiting.discard(entry)
        after = [snapshot(n, self.tables.get(n), self.info.get(n), self.waiting) for n in touched]
        self._reset_changes()
        return {"before": before, "after": after}

    def done(self):
        """End of a service: a new token, then every row write of the service in one go (in
        the service's transaction), and keep the room."""
        self.token = secrets.token_hex(16)
        self.writes.update(SeatingState, {"pk": self.tournament_id}, token=self.token, bust_seq=self.bust_seq,
                           group_seq=self.group_seq)
        self.writes.flush()
        self.release()

    def _write_tables(self, touched, now):
        for number in touched:
            old, old_info = self.before[number]
            new, info = self.tables.get(number), self.info.get(number)
            if new is None:
                if old is not None:
                    self.writes.update(Table, {"pk": old_info.id}, in_play=False, closed_at=now, is_final=False, halt_waived=False)
                continue
            if old is None:
                row = Table.objects.filter(tournament_id=self.tournament_id, number=number).first()
                if row is None:
                    row = Table(tournament_id=self.tournament_id, number=number)
                _fill(row, new, info)
                row.in_play, row.opened_at, row.closed_at = True, now, None
                row.save()
                self.info[number] = replace(info, id=row.pk)
            elif _attributes(old, old_info) != _attributes(new, info):
                row = Table(pk=info.id)
                _fill(row, new, info)
                self.writes.update(Table, {"pk": info.id}, **{f: getattr(row, f) for f in TABLE_FIELDS})

    def _write_seats(self, touched, now):
        """Seats that emptied are deleted; new and moved seats are (re)written. A moved seat
        is deleted and written again, so no two rows ever hold one seat, even mid-plan."""
        old_pos: dict[int, tuple[int, int]] = {}
        new_pos: dict[int, tuple[int, int]] = {}
        for number in touched:
            old = self.before[number][0]
            new = self.tables.get(number)
            if old is not None:
                old_pos.update({e: (number, s) for s, e in old.seats.items()})
            if new is not None:
                new_pos.update({e: (number, s) for s, e in new.seats.items()})
        written = [e for e in new_pos if old_pos.get(e) != new_pos[e] or e in self.wait]
        removed = [e for e in old_pos if e not in new_pos]
        gone = removed + [e for e in written if e in old_pos]
        if gone:
            self.writes.delete(Seat, {"pk__in": gone})
        if written:
            self.writes.insert([
                Seat(entry_id=e, tournament_id=self.tournament_id, table_id=self.info[new_pos[e][0]].id, number=new_pos[e][1],
                     wait_for_button=self.wait.get(e, e in self.waiting), seated_at=now)
                for e in written
            ])
        return removed

    # --- the process cache -----------------------------------------------------------------

    def release(self):
        """Keep this room for the next service of this tournament in this process."""
        _cache[self.tournament_id] = self
        _cache.move_to_end(self.tournament_id)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)


TABLE_FIELDS = ["capacity", "big_blind_seat", "previous_big_blind_seat", "big_blind_twice", "locked", "locked_seats", "is_final", "halt_waived"]


def _attributes(table: engine.Table, info: TableInfo):
    return (table.capacity, table.big_blind_seat, table.previous_big_blind_seat, table.big_blind_twice, table.locked,
            sorted(table.locked_seats), info.is_final, info.halt_waived)


def _fill(row: Table, table: engine.Table, info: TableInfo):
    row.capacity = table.capacity
    row.big_blind_seat = table.big_blind_seat
    row.previous_big_blind_seat = table.previous_big_blind_seat
    row.big_blind_twice = table.big_blind_twice
    row.locked = table.locked
    row.locked_seats = sorted(table.locked_seats)
    row.is_final = info.is_final
    row.halt_waived = info.halt_waived


def snapshot(number: int, table: engine.Table | None, info: TableInfo | None, waiting: set) -> dict:
    """A table as JSON for the event log: positions, locks and every seat (entry, waits for the button)."""
    if table is None:
        return {"number": number, "in_play": False}
    return {
        "number": number,
        "in_play": True,
        "capacity": table.capacity,
        "big_blind_seat": table.big_blind_seat,
        "previous_big_blind_seat": table.previous_big_blind_seat,
        "big_blind_twice": table.big_blind_twice,
        "locked": table.locked,
        "locked_seats": sorted(table.locked_seats),
        "is_final": bool(info and info.is_final),
        "halt_waived": bool(info and info.halt_waived),
        "seats": [[seat, entry, entry in waiting] for seat, entry in sorted(table.seats.items())],
    }


def table_from_snapshot(snap: dict) -> engine.Table:
    return engine.Table(
        snap["number"], snap["capacity"], {seat: entry for seat, entry, *_rest in snap["seats"]},
        snap["big_blind_seat"], snap["previous_big_blind_seat"], frozenset(snap["locked_seats"]), snap["locked"],
        snap["big_blind_twice"],
    )


# What seating reads with the lock: the tournament's own fields (the rest are left deferred),
# its clock and its seating state, in one statement.
TOURNAMENT_FIELDS = tuple(  # in the model's order, as Model.from_db wants them
    f.attname for f in Tournament._meta.concrete_fields
    if f.attname in {"id", "name", "status", "format", "settings", "rule_set", "table_size", "starting_stack"}
)


def _from_db(values) -> list:
    """Raw column values as the ORM would load them (JSON decoded)."""
    conn = connections[DEFAULT_DB_ALIAS]
    out = []
    for field, value in zip(_LOCKED_FIELDS, values, strict=True):
        for converter in field.get_db_converters(conn):
            value = converter(value, field, conn)
        out.append(value)
    return out


_LOCKED_FIELDS = [f for f in Tournament._meta.concrete_fields if f.attname in TOURNAMENT_FIELDS]


@dataclass(frozen=True, slots=True)
class ClockView:
    status: str
    h4h_hand: int


@lru_cache(maxsize=None)
def _lock_sql() -> str:
    """One statement: the tournament row and its seating state, both locked, and the clock.

    Tournament first, state second (the order PostgreSQL locks them in), so it never
    deadlocks with ``cashier.lock_tournament``, which takes the tournament row alone and,
    in a sale that seats the player, comes here next. Both rows are locked, so a statement
    that had to wait for the lock gets their newest versions (PostgreSQL, read committed).
    """
    t, s, c = sql.table(Tournament), sql.table(SeatingState), sql.table(Clock)
    columns = ", ".join(f"t.{sql.column(Tournament, f.name)}" for f in Tournament._meta.concrete_fields
                        if f.attname in TOURNAMENT_FIELDS)
    lock = " FOR UPDATE OF t, s" if connection.features.has_select_for_update_of else ""
    return (
        f"SELECT {columns}, c.{sql.column(Clock, 'status')}, c.{sql.column(Clock, 'h4h_hand')}, "
        f"s.{sql.column(SeatingState, 'token')}, s.{sql.column(SeatingState, 'bust_seq')}, "
        f"s.{sql.column(SeatingState, 'group_seq')} "
        f"FROM {t} t INNER JOIN {s} s ON s.{sql.column(SeatingState, 'tournament')} = t.{sql.column(Tournament, 'id')} "
        f"LEFT OUTER JOIN {c} c ON c.{sql.column(Clock, 'tournament')} = t.{sql.column(Tournament, 'id')} "
        f"WHERE t.{sql.column(Tournament, 'id')} = %s{lock}"
    )


def lock(tournament) -> tuple[Tournament, Room]:
    """Lock the tournament row (as ``cashier.lock_tournament``) and open its room.

    The room is the one this process kept if the state's token still matches, else it is
    read again. A tournament seen here for the first time gets its state row (with the
    tournament row locked first, so two services cannot both create it).
    """
    pk = int(getattr(tournament, "pk", tournament))
    rows = sql.select(_lock_sql(), [pk])
    if not rows:
        if not Tournament.objects.select_for_update().filter(pk=pk).exists():
            raise Tournament.DoesNotExist(f"tournament {pk} does not exist")
        SeatingState.objects.get_or_create(tournament_id=pk)
        rows = sql.select(_lock_sql(), [pk])
    row = rows[0]
    n = len(TOURNAMENT_FIELDS)
    t = Tournament.from_db(Tournament.objects.db, list(TOURNAMENT_FIELDS), _from_db(row[:n]))
    clock_status, h4h_hand, token, bust_seq, group_seq = row[n:]
    t._seating_clock = ClockView(clock_status, h4h_hand or 0) if clock_status is not None else None
    room = _cache.pop(pk, None)
    if room is None or not token or room.token != token:
        room = load_room(pk, token)
    room.bust_seq, room.group_seq = bust_seq, group_seq
    room._reset_changes()
    room.writes = sql.Batch()
    return t, room


def clock_of(t: Tournament) -> ClockView | None:
    """The tournament's clock (status, hand-for-hand hand) as read with the lock; None
    before the start."""
    return t._seating_clock


def load_room(tournament_id: int, token: str = "") -> Room:
    """Read the seat map from the database: tables in play, seats, open proposals."""
    rows = Table.objects.filter(tournament_id=tournament_id, in_play=True).order_by("number").values_list(
        "id", "number", "capacity", "big_blind_seat", "previous_big_blind_seat", "big_blind_twice", "locked",
        "locked_seats", "is_final", "halt_waived",
    )
    seats_by_table: dict[int, dict[int, int]] = {}
    waiting = set()
    for table_id, seat, entry, wait in Seat.objects.filter(tournament_id=tournament_id).values_list(
            "table_id", "number", "entry_id", "wait_for_button"):
        seats_by_table.setdefault(table_id, {})[seat] = entry
        if wait:
            waiting.add(entry)
    tables, info = {}, {}
    for tid, number, capacity, bb, pbb, twice, locked, locked_seats, is_final, waived in rows:
        tables[number] = engine.Table(number, capacity, seats_by_table.get(tid, {}), bb, pbb, frozenset(locked_seats or ()), locked, twice)
        info[number] = TableInfo(tid, is_final, waived)
    proposals = {
        row[0]: Proposal(*row)
        for row in PendingMove.objects.filter(tournament_id=tournament_id, status=PendingMove.PROPOSED, applied=False).values_list(
            "id", "entry_id", "from_table", "from_seat", "to_table", "to_seat")
    }
    return Room(tournament_id, token, tables, info, proposals, waiting)


def kept(tournament_id: int) -> Room | None:
    """The room this process keeps for the tournament (read only), if any."""
    return _cache.get(tournament_id)


def forget(tournament_id: int | None = None):
    """Drop the kept rooms (tests, or after writing the map outside the services)."""
    if tournament_id is None:
        _cache.clear()
    else:
        _cache.pop(tournament_id, None)
