"""The live seat map of one tournament (the *room*): read it, change it, write it back.

A service locks the tournament row, opens the room, changes tables through the pure engine
(each change replaces an ``engine.Table``; engine tables are never changed in place), then
saves: only the rows of the tables it touched that changed are written — a table's changed
fields in one ``update``, tables opened at once; the tables closed, the emptied seats and
the new or moved seats with the token at the end (``done``: ``seating.sql.write_back``, on
PostgreSQL one statement; elsewhere the ORM's ``update``, ``delete`` and ``bulk_create``). A moved seat
is deleted and inserted again, the deletes first, so no seat is ever held twice mid-plan.
ORM inserts go in batches of ``BATCH_SIZE`` rows, so the initial draw of a big field stays
under SQLite's limit of 32,766 variables a statement whatever Django assumes about the build.

The service ends with ``done``: a compare-and-set of the state token, ``UPDATE … SET
token = new WHERE token = the token this room was read with``. The lock makes it succeed;
if it ever changes no row, someone changed the seat map since this room was read (a writer
that did not take the lock): the service raises ``seat_map_changed`` and its transaction
rolls back, so nothing of it is written.

Reading the whole map costs one query per kind (tables in play, seats, open proposals and
moves waiting for a hand-for-hand hand), growing with the field, after every bust. So the
process keeps the room it last wrote, with the token it wrote. The next service (holding the
tournament lock, so nobody else can change the map meanwhile) reuses it only if the token in
the database is still that token: a change by another process, or a transaction that rolled
back, leaves a different token there and the room is read again. Tokens are random, so a
test database that reuses ids after a rollback can never match a stale room.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from dataclasses import dataclass, replace

from django.db import connection, models
from django.db.transaction import TransactionManagementError
from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager import compiled
from tdmanager.errors import DomainError
from tournaments.models import Entry, Tournament

from .. import engine, sql
from ..models import KeepApart, PendingMove, Seat, SeatingState, SeatReservation, Table
from . import cardrooms

CACHE_SIZE = 8  # tournaments whose room a process keeps
BATCH_SIZE = 1000  # rows a bulk insert sends in one statement (a seat is 6 values: 6,000 variables)
_cache: OrderedDict[int, Room] = OrderedDict()


class SeatMapChanged(DomainError):
    """The state token was not the one this room was read with: another writer got there first."""


def chunks(values, size: int = BATCH_SIZE):
    """``values`` in lists of at most ``size`` (an ``__in`` filter stays a small statement)."""
    values = list(values)
    for i in range(0, len(values), size):
        yield values[i : i + size]


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

    def __init__(self, tournament_id: int, token: str, tables, info, proposals, waiting=None, held=None):
        self.tournament_id = tournament_id
        self.token = token
        self.tables: dict[int, engine.Table] = tables
        self.info: dict[int, TableInfo] = info
        self.proposals: dict[int, Proposal] = proposals
        # balancing moves waiting for a table's hand-for-hand hand (CLK-06): player and seat provisional
        self.held: dict[int, Proposal] = held or {}
        self.waiting: set[int] = waiting or set()  # entries flagged "wait for the button" (SEAT-05)
        self.where: dict[int, tuple[int, int]] = {entry: (t.number, seat) for t in tables.values() for seat, entry in t.seats.items()}
        self.bust_seq = 0
        self.group_seq = 0
        self.apart: tuple | None = None  # keep-apart pairs of entries (SEAT-07), read when first needed
        self.fixed: frozenset = frozenset()  # entries in a seat given by hand (SEAT-07), read with the pairs
        self.constraints = True  # the state row says whether there are any (set with the lock)
        self.card_room: int | None = None  # the room whose physical tables these are (set with the lock)
        self._reset_changes()
        self._reset_write_back()

    def _reset_write_back(self):
        self.freed: list[int] = []  # seats emptied (or taken again), not yet deleted: written with the token (done)
        self.seated: dict[int, tuple] = {}  # entry → (table id, seat, waits for the button, time): seats (re)written, ditto
        self.closed: dict[int, object] = {}  # table id → time: tables out of play, not yet written, ditto
        self.seats_moved = False  # somebody seated, moved or unseated: the state's seats_seq goes up (done)
        self.out: list[tuple[list[int], int, object]] = []  # (entries, place, time) out of the tournament, ditto
        self.queue = sql.Queue(BATCH_SIZE)  # new rows and updates written with the token, ditto

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
        """The lowest table number not in play (a broken table's number can open again): the
        table a late seat opens when no open seat is left (SEAT-03)."""
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
        """Take a table out of play (broken, BAL-06, or merged into the final table)."""
        self._touch(number)
        table = self.tables.pop(number)
        for seat, entry in table.seats.items():
            if self.where.get(entry) == (number, seat):
                del self.where[entry]
        self.info.pop(number, None)

    def touched(self) -> list[int]:
        return sorted(self.before)

    def bust(self, entries: list[int], place: int, now):
        """These entries are out with this finishing place (ELM-01): written with the token (``done``)."""
        self.out.append((list(entries), place, now))

    def insert(self, rows: list):
        """New rows of one model (``tdmanager.compiled.Inserts``), written with the token
        (``done``, on PostgreSQL in its statement); their keys are set then. For rows nothing
        reads back before the service ends (a bust's rows, the change's event). A row may point
        at a row queued before it (a bust at its event): on PostgreSQL the key is taken from the
        earlier part of the statement. Code that needs their keys earlier calls ``flush``."""
        if rows:
            self.queue.inserts.append(list(rows))

    def update_at_end(self, updates: compiled.Updates, obj) -> None:
        """``updates.save(obj)`` (``tdmanager.compiled.Updates``) with the write-back (``done``; on
        PostgreSQL a WITH part of its statement), after the queued rows: a row that points at one
        of them (a slip at its event) takes its key there. The same refusal as ``save``."""
        self.queue.updates.append((updates, obj))

    def flush(self, model=None):
        """Insert the queued rows now (in the order queued, a statement each): their keys are
        needed before the service ends, or another row must come after them (the event log's
        order is the order of its keys). ``model``: only that model's rows (in one statement,
        their keys in the order queued); rows pointing at them stay queued and take the keys."""
        self.queue.flush(model)

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
        """End of a service: the seats freed and the entries out, then the token renewed by
        compare-and-set, and keep the room.

        Refused (``concurrent_change``, the room forgotten) when the token in the database
        is no longer the one this room was read with; the caller's transaction then rolls
        back, so nothing of the change is written."""
        new = secrets.token_hex(16)
        n = sql.write_back(
            self.queue,
            tournament_id=self.tournament_id,
            token=self.token,
            new_token=new,
            freed=self.freed,
            seated=self.seated,
            closed=self.closed,
            out=self.out,
            bust_seq=self.bust_seq,
            group_seq=self.group_seq,
            seats_moved=self.seats_moved,
        )
        self._reset_write_back()
        if n == 0:  # someone else changed the seat map since we read it
            forget(self.tournament_id)
            raise SeatMapChanged("concurrent_change", _("The seat map was changed by someone else at the same moment; try again."))
        self.token = new
        self.release()

    def update(self, updates: compiled.Updates, obj) -> None:
        """``updates.save(obj)`` (``tdmanager.compiled.Updates``) with the queued rows: on PostgreSQL
        they are WITH parts of its statement, their keys returned by it (as ``done`` sends them);
        elsewhere, or where ``Updates`` leaves the row to ``save``, they are inserted first. The
        same refusal as ``save`` when it changes no row."""
        sql.save_with_queue(self.queue, updates, obj)

    def _write_tables(self, touched, now):
        closed, opened = [], {}
        for number in touched:
            old, old_info = self.before[number]
            new, info = self.tables.get(number), self.info.get(number)
            if new is None:
                if old is not None:
                    closed.append(old_info.id)
            elif old is None:
                opened[number] = (new, info)
            else:
                changed = _changed(old, old_info, new, info)
                if changed:
                    Table.objects.filter(pk=info.id).update(**changed)
        for pk in closed:  # written with the token (done)
            self.closed[pk] = now
        if self.card_room is not None:  # the room's physical tables follow: taken when opened, free when closed
            if opened:
                cardrooms.take(self.tournament_id, self.card_room, list(opened))
            gone = [n for n in touched if self.before[n][0] is not None and n not in self.tables]
            if gone:
                cardrooms.give_back(self.tournament_id, self.card_room, gone)
        if opened:
            self._open_tables(opened, now)

    def _open_tables(self, opened: dict, now):
        """Tables put in play (the start's draw, SEAT-01; a late seat's new table, SEAT-03): a
        number used before in this tournament gets its row back (its history stays with it),
        the others new rows, all in a few statements."""
        rows = {}
        for numbers in chunks(opened):
            rows.update((row.number, row) for row in Table.objects.filter(tournament_id=self.tournament_id, number__in=numbers))
        reopened = list(rows.values())
        for row in reopened:  # closed earlier in this service: it stays in play
            self.closed.pop(row.pk, None)
        for number in opened:
            rows.setdefault(number, Table(tournament_id=self.tournament_id, number=number))
        for number, (table, info) in opened.items():
            row = rows[number]
            _fill(row, table, info)
            row.in_play, row.opened_at, row.closed_at = True, now, None
        if reopened:
            Table.objects.bulk_update(reopened, [*TABLE_FIELDS, "in_play", "opened_at", "closed_at"], batch_size=BATCH_SIZE)
        # New rows get their keys back from the insert (RETURNING, PostgreSQL and SQLite >= 3.35).
        Table.objects.bulk_create([row for row in rows.values() if row.pk is None], batch_size=BATCH_SIZE)
        for number, (_table, info) in opened.items():
            self.info[number] = replace(info, id=rows[number].pk)

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
        if removed or any(old_pos.get(e) != new_pos[e] for e in written):
            self.seats_moved = True
        gone = removed + [e for e in written if e in old_pos]
        # Written with the token at the end of the service (done): the seats emptied or taken
        # again deleted first, then the new and moved ones inserted.
        for e in gone:
            self.seated.pop(e, None)  # written earlier in this service, not yet sent
        self.freed += gone
        for e in written:
            number, seat = new_pos[e]
            self.seated[e] = (self.info[number].id, seat, self.wait.get(e, e in self.waiting), now)
        return removed

    # --- the process cache -----------------------------------------------------------------

    def release(self):
        """Keep this room for the next service of this tournament in this process."""
        _cache[self.tournament_id] = self
        _cache.move_to_end(self.tournament_id)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)


TABLE_FIELDS = ["capacity", "big_blind_seat", "previous_big_blind_seat", "big_blind_twice", "locked", "locked_seats", "is_final", "halt_waived"]


def _attributes(table: engine.Table, info: TableInfo) -> dict:
    return {
        "capacity": table.capacity,
        "big_blind_seat": table.big_blind_seat,
        "previous_big_blind_seat": table.previous_big_blind_seat,
        "big_blind_twice": table.big_blind_twice,
        "locked": table.locked,
        "locked_seats": sorted(table.locked_seats),
        "is_final": info.is_final,
        "halt_waived": info.halt_waived,
    }


def _changed(old: engine.Table, old_info: TableInfo, new: engine.Table, info: TableInfo) -> dict:
    """The fields of a table row that differ (a bust usually changes none: only its seats)."""
    before, after = _attributes(old, old_info), _attributes(new, info)
    return {f: v for f, v in after.items() if before[f] != v}


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
    """A table as JSON for the event log: positions, locks and every seat (entry, waits for the
    button); what an undone bust or move puts back (ELM-01)."""
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
        snap["number"],
        snap["capacity"],
        {seat: entry for seat, entry, *_rest in snap["seats"]},
        snap["big_blind_seat"],
        snap["previous_big_blind_seat"],
        frozenset(snap["locked_seats"]),
        snap["locked"],
        snap["big_blind_twice"],
    )


# What seating reads with the lock: the tournament's own fields, its seating state and its
# clock, in one statement.
TOURNAMENT_FIELDS = ("id", "name", "status", "format", "settings", "rule_set", "game", "table_size", "starting_stack")
STATE_FIELDS = ("seating_state__token", "seating_state__bust_seq", "seating_state__group_seq", "seating_state__constraints", "seating_state__card_room")
CLOCK_FIELDS = ("clock__status", "clock__h4h_hand")


@dataclass(frozen=True, slots=True)
class ClockView:
    status: str
    h4h_hand: int


@dataclass(frozen=True, slots=True)
class StateView:
    token: str
    bust_seq: int
    group_seq: int
    constraints: bool
    card_room: int | None


# Where each value _locked reads comes from: (model, column); the clock's key tells whether the
# tournament has a clock row at all.
_LOCK_COLUMNS = (
    *(("Tournament", f) for f in TOURNAMENT_FIELDS),
    ("SeatingState", "token"),
    ("SeatingState", "bust_seq"),
    ("SeatingState", "group_seq"),
    ("SeatingState", "constraints"),
    ("SeatingState", "card_room_id"),
    ("Clock", "id"),
    ("Clock", "status"),
    ("Clock", "h4h_hand"),
)


# The lock statement of ``_locked`` as the ORM writes it: ``select_related`` +
# ``select_for_update(of=("self", "seating_state"))`` + ``only`` over the tournament, its seating
# state (an inner join: a locked row cannot be the nullable side of an outer join) and its clock.
# Every bust, move and hand sends it, and building it cost more than running it, so it is
# compiled once per process and database; its rows come as fetched, ``_locked`` reading the few
# columns it needs (``_LOCK_COLUMNS``).
_LOCK = compiled.Compiled(
    lambda pk: (
        Tournament.objects.select_related("seating_state", "clock")
        .order_by()
        .select_for_update(of=("self", "seating_state"))
        .only(*TOURNAMENT_FIELDS, *STATE_FIELDS, *CLOCK_FIELDS)
        .filter(pk=pk, seating_state__isnull=False)
    ),
    Tournament,
    shape=compiled.FETCHED,
)
_lock_positions: dict[str, tuple[int, ...]] = {}


def _lock_columns() -> tuple[int, ...]:
    """Where each of ``_LOCK_COLUMNS`` is in the lock statement's rows on this database."""
    found = _lock_positions.get(connection.alias)
    if found is None:
        plan = _LOCK.plan(connection.alias)
        found = _lock_positions[connection.alias] = tuple(plan.position(model, column) for model, column in _LOCK_COLUMNS)
    return found


def _locked(pk: int, also=None) -> tuple[tuple[Tournament, StateView, ClockView | None] | None, list]:
    """The tournament row and its seating state, both locked, and the clock, in one statement.

    Tournament first, state second (the order of ``FOR UPDATE OF``, which PostgreSQL locks
    in), so it never deadlocks with ``cashier.lock_tournament``, which takes the tournament
    row alone and, in a sale that seats the player, comes here next. Both rows are locked,
    so a statement that had to wait for the lock gets their newest versions (PostgreSQL,
    read committed). None when the tournament has no state row yet.

    The tournament comes back with only ``TOURNAMENT_FIELDS`` loaded (the rest deferred, read
    if asked), as ``only()`` would give it.

    ``also``: ``(query, args)``, a ``tdmanager.compiled.Compiled`` query sent after the lock in
    the same round trip (``rows_together``: its own snapshot, taken once the lock is held).
    Returns the three (None when the tournament has no state row yet) and ``also``'s rows.
    """
    columns = _lock_columns()
    if also is None:
        locked, also_rows = _LOCK.rows(pk, using=connection.alias), []
    else:
        locked, also_rows = compiled.rows_together((_LOCK, (pk,)), also, using=connection.alias)
    row = locked[0] if locked else None
    if row is None:
        return None, also_rows
    row = [row[i] for i in columns]
    n = len(TOURNAMENT_FIELDS)
    loaded = dict(zip(TOURNAMENT_FIELDS, row[:n]))
    loaded["settings"] = _json(loaded["settings"])
    # from_db takes the values in the model's field order
    t = Tournament.from_db(connection.alias, _MODEL_ORDER, [loaded[f] for f in _MODEL_ORDER])
    token, bust_seq, group_seq, constraints, card_room = row[n : n + 5]
    state = StateView(token, bust_seq, group_seq, bool(constraints), card_room)
    clock_id, status, h4h = row[n + 5 :]
    clock = ClockView(status, h4h or 0) if clock_id is not None else None
    return (t, state, clock), also_rows


_SETTINGS = Tournament._meta.get_field("settings")
_MODEL_ORDER = [f.attname for f in Tournament._meta.concrete_fields if f.attname in TOURNAMENT_FIELDS]


def _json(value):
    """The settings column as the ORM gives it (SQLite returns the text; PostgreSQL decodes)."""
    return _SETTINGS.from_db_value(value, None, connection)


def lock(tournament) -> tuple[Tournament, Room]:
    """Lock the tournament row (as ``cashier.lock_tournament``) and open its room.

    The room is the one this process kept if the state's token still matches, else it is
    read again. A tournament seen here for the first time gets its state row (with the
    tournament row locked first, so two services cannot both create it).
    """
    t, room, _rows = lock_and_read(tournament)
    return t, room


def lock_and_read(tournament, query=None, args=()) -> tuple[Tournament, Room, list]:
    """``lock``, and the rows of ``query`` (a ``tdmanager.compiled.Compiled``) with ``args``,
    read once the lock is held, in the lock's round trip on PostgreSQL (e.g. the slip a
    confirm names, locked)."""
    if not connection.in_atomic_block:  # SQLite has no FOR UPDATE, so Django's own check never fires there
        raise TransactionManagementError("The seat map is locked only inside a transaction.")
    pk = int(getattr(tournament, "pk", tournament))
    also = (query, tuple(args)) if query is not None else None
    found, rows = _locked(pk, also)
    if found is None:
        if not Tournament.objects.select_for_update().filter(pk=pk).exists():
            raise Tournament.DoesNotExist(f"tournament {pk} does not exist")
        # SEAT-07: venue-wide keep-apart pairs apply to a new tournament too.
        SeatingState.objects.get_or_create(
            tournament_id=pk,
            defaults={
                "constraints": KeepApart.objects.filter(models.Q(tournament_id=pk) | models.Q(tournament__isnull=True)).exists()
                or SeatReservation.objects.filter(tournament_id=pk).exists()
            },
        )
        found, rows = _locked(pk, also)  # read again with the lock held
    t, state, clock = found
    t._seating_clock = clock
    room = _cache.pop(pk, None)
    if room is None or not state.token or room.token != state.token:
        room = load_room(pk, state.token)
    room.bust_seq, room.group_seq = state.bust_seq, state.group_seq
    room.constraints = state.constraints  # no pair and no seat given by hand: nothing to read (SEAT-07)
    room.card_room = state.card_room
    room._reset_changes()
    room._reset_write_back()
    return t, room, rows


def clock_of(t: Tournament) -> ClockView | None:
    """The tournament's clock (status, hand-for-hand hand) as read with the lock; None
    before the start."""
    return t._seating_clock


def load_room(tournament_id: int, token: str = "") -> Room:
    """Read the seat map from the database: tables in play, seats, open proposals (and the
    balancing moves waiting for a hand-for-hand hand)."""
    rows = (
        Table.objects.filter(tournament_id=tournament_id, in_play=True)
        .order_by("number")
        .values_list(
            "id",
            "number",
            "capacity",
            "big_blind_seat",
            "previous_big_blind_seat",
            "big_blind_twice",
            "locked",
            "locked_seats",
            "is_final",
            "halt_waived",
        )
    )
    seats_by_table: dict[int, dict[int, int]] = {}
    waiting = set()
    for table_id, seat, entry, wait in Seat.objects.filter(tournament_id=tournament_id).values_list("table_id", "number", "entry_id", "wait_for_button"):
        seats_by_table.setdefault(table_id, {})[seat] = entry
        if wait:
            waiting.add(entry)
    tables, info = {}, {}
    for tid, number, capacity, bb, pbb, twice, locked, locked_seats, is_final, waived in rows:
        tables[number] = engine.Table(number, capacity, seats_by_table.get(tid, {}), bb, pbb, frozenset(locked_seats or ()), locked, twice)
        info[number] = TableInfo(tid, is_final, waived)
    proposals, held = {}, {}
    for status, *row in PendingMove.objects.filter(
        tournament_id=tournament_id, status__in=(PendingMove.PROPOSED, PendingMove.WAITING), applied=False
    ).values_list("status", "id", "entry_id", "from_table", "from_seat", "to_table", "to_seat"):
        (held if status == PendingMove.WAITING else proposals)[row[0]] = Proposal(*row)
    return Room(tournament_id, token, tables, info, proposals, waiting, held)


def apart_of(room: Room) -> tuple:
    """The keep-apart pairs of the room's tournament as pairs of entries (SEAT-07).

    Read once and kept with the room: a pair added or removed renews the state token (so
    every process reads the room again) and a new entry forgets them (``room.apart = None``),
    so the busts in between cost nothing. The pairs of people (this tournament's and the
    venue-wide ones) become pairs of their entries, any status, so a player revived by an
    undo is still kept apart. ``room.fixed`` (the entries in a seat given by hand) is read
    with them.
    """
    if room.apart is None and not room.constraints:
        room.apart, room.fixed = (), frozenset()
    if room.apart is None:
        tid = room.tournament_id
        people = list(KeepApart.objects.filter(models.Q(tournament_id=tid) | models.Q(tournament__isnull=True)).values_list("person_a_id", "person_b_id"))
        pairs: set[tuple[int, int]] = set()
        if people:
            entries: dict[int, list[int]] = {}
            wanted = {p for pair in people for p in pair}
            for ids in chunks(wanted):
                for pk, person in Entry.objects.filter(tournament_id=tid, person_id__in=ids).values_list("pk", "person_id"):
                    entries.setdefault(person, []).append(pk)
            for a, b in people:
                pairs.update((min(x, y), max(x, y)) for x in entries.get(a, ()) for y in entries.get(b, ()) if x != y)
        room.apart = tuple(sorted(pairs))
        room.fixed = frozenset(SeatReservation.objects.filter(tournament_id=tid).values_list("entry_id", flat=True))
    return room.apart


def kept(tournament_id: int) -> Room | None:
    """The room this process keeps for the tournament (read only), if any."""
    return _cache.get(tournament_id)


def forget(tournament_id: int | None = None):
    """Drop the kept rooms (tests, or after writing the map outside the services)."""
    if tournament_id is None:
        _cache.clear()
    else:
        _cache.pop(tournament_id, None)
