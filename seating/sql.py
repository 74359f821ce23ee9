"""Every statement of the seating app written by hand, one function each.

Each function says what it writes or reads and why the ORM does not send it: on PostgreSQL
every statement is a round trip to the server under the tournament's lock, and a bust, a
confirm or a late sale would otherwise send one per table written (seats, tables, entries,
the state token, the event log). Where a database has no such statement (SQLite, the test
and single-machine database), the same function writes the same rows with the ORM, so the
services never ask which database they run on.

Django's private API stays in ``tdmanager.compiled``; this module uses its ``Inserts`` and
``Updates`` (statements compiled once) and writes the rest with column names quoted from the
models (``quoted_names``), so a renamed field or table renames its column here too.
"""

from __future__ import annotations

from django.db import DatabaseError, connection, models

from tdmanager import compiled
from tournaments.models import Entry

from .models import PendingMove, Seat, SeatingState, Table


def quoted_names(model, *fields) -> list[str]:
    """The model's table and these fields' columns, quoted for this database."""
    q = connection.ops.quote_name
    return [q(model._meta.db_table)] + [q(model._meta.get_field(f).column) for f in fields]


def _chunks(values, size: int):
    values = list(values)
    for i in range(0, len(values), size):
        yield values[i : i + size]


def _postgresql() -> bool:
    return connection.vendor == "postgresql"


# --- rows updated by key ----------------------------------------------------------------


def update_rows(model, fields: list[str], rows: list[tuple]) -> None:
    """``UPDATE model SET fields WHERE pk`` for each of ``rows`` (``(pk, *values)``), the values
    prepared as the ORM prepares them (``get_db_prep_save``). No signals, as ``bulk_update``.

    Why not ``bulk_update``: it writes one CASE per field and row (a late entry moves every
    bust's place, and building a CASE per bust grows with the field while the write lock is
    held). PostgreSQL: one statement, the rows sent as one array a column (``UPDATE … FROM
    unnest(…)``), where a statement run once per row would cost a round trip each under the
    tournament's lock, every late sale. Elsewhere (SQLite, in the process): the same UPDATE
    once per row (``executemany``)."""
    if not rows:
        return
    meta = model._meta
    cols = [meta.get_field(f) for f in fields]
    table, key, *names = quoted_names(model, meta.pk.name, *fields)
    values = [[c.get_db_prep_save(v, connection) for c, v in zip(cols, vals, strict=True)] for _pk, *vals in rows]
    with compiled.prepared_cursor(connection) as cursor:
        if _postgresql():
            arrays = ", ".join(f"%s::{c.cast_db_type(connection)}[]" for c in (meta.pk, *cols))
            cursor.execute(
                f"UPDATE {table} SET {', '.join(f'{n} = v.{n}' for n in names)} FROM unnest({arrays}) AS v({key}, {', '.join(names)}) "
                f"WHERE {table}.{key} = v.{key}",
                [[pk for pk, *_vals in rows], *(list(column) for column in zip(*values, strict=True))],
            )
        else:
            cursor.executemany(
                f"UPDATE {table} SET {', '.join(f'{n} = %s' for n in names)} WHERE {key} = %s",
                [[*vals, pk] for (pk, *_rest), vals in zip(rows, values, strict=True)],
            )


# --- the drawn slips of a confirm ---------------------------------------------------------


def confirm_drawn_slips(tournament_id: int, ids: list[int], user, now, event) -> tuple[int, bool]:
    """The slips among ``ids`` that were applied when drawn (breaks, the final table) and are
    still open marked done (``status``, ``done_at``, ``done_by``), as the ORM's
    ``PendingMove.objects.filter(tournament, PROPOSED, pk__in=ids, applied=True).update(…)``;
    and ``event`` (a new ``TournamentEvent`` row, not yet written) inserted when that was every
    one of ``ids`` (the usual call: a broken table's players have all sat down).

    Returns (slips marked done, whether the event was written: its key is then set). When it
    was not, the caller writes it (naming only the drawn slips) or refuses the confirm.

    Why by hand: on PostgreSQL the UPDATE and the event's INSERT are one statement (a WITH
    part, the INSERT a ``SELECT … WHERE`` the update's row count is every slip), one round
    trip under the lock. Elsewhere the ORM's update, and the event is left to the caller."""
    user_id = getattr(user, "pk", user)
    if _postgresql():
        inserts = compiled.inserts_of(type(event))
        found = inserts.statement([event])
        if found is not None and len(found[1]) == len(inserts.fields):  # one value per column: one row, VALUES
            return _confirm_drawn_in_one_statement(tournament_id, ids, user_id, now, event, inserts, found[1])
    n = PendingMove.objects.filter(tournament_id=tournament_id, status=PendingMove.PROPOSED, pk__in=ids, applied=True).update(
        status=PendingMove.DONE, done_at=now, done_by_id=user_id
    )
    return n, False


def _confirm_drawn_in_one_statement(tournament_id, ids, user_id, now, event, inserts, values) -> tuple[int, bool]:
    q = connection.ops.quote_name
    meta = type(event)._meta
    pm, pk, status, done_at, done_by, tournament, applied = quoted_names(PendingMove, "id", "status", "done_at", "done_by", "tournament", "applied")
    columns = ", ".join(q(f.column) for f in inserts.fields)
    sql = (
        f"WITH done AS (UPDATE {pm} SET {status} = %s, {done_at} = %s, {done_by} = %s WHERE {pk} = ANY(%s::bigint[]) "
        f"AND {status} = %s AND {tournament} = %s AND {applied} RETURNING 1), "
        f"ev AS (INSERT INTO {q(meta.db_table)} ({columns}) SELECT {', '.join(['%s'] * len(values))} "
        f"WHERE (SELECT count(*) FROM done) = %s RETURNING {q(meta.pk.column)}) "
        f"SELECT (SELECT count(*) FROM done), (SELECT * FROM ev)"
    )
    done_at_value = PendingMove._meta.get_field("done_at").get_db_prep_save(now, connection)
    params = [PendingMove.DONE, done_at_value, user_id, ids, PendingMove.PROPOSED, tournament_id, *values, len(ids)]
    with compiled.prepared_cursor(connection) as cursor:
        cursor.execute(sql, params)
        n, key = cursor.fetchone()
    if key is not None:
        inserts.keys_returned([event], [key], connection.alias)
    return n, key is not None


# --- rows queued for a service's last statement -------------------------------------------


class Queue:
    """New rows (``tdmanager.compiled.Inserts``) and updates (``tdmanager.compiled.Updates``) a
    seating service writes with its last statement (``write_back``, ``save_with_queue``): on
    PostgreSQL as WITH parts of that statement, their keys returned by it; elsewhere before it,
    one statement each. Rows are queued in the order they are written (the event log's order is
    the order of its keys); a row may point at a row queued before it (a bust at its event)."""

    def __init__(self, batch_size: int):
        self.batch_size = batch_size  # rows an insert sends in one statement
        self.inserts: list[list] = []  # lists of new rows, each list one model's
        self.updates: list[tuple] = []  # (compiled.Updates, row)

    def flush(self, model=None) -> None:
        """Insert the queued rows now (in the order queued, a statement each). ``model``: only
        that model's rows (in one statement, their keys in the order queued); rows pointing at
        them stay queued and take the keys."""
        if model is None:
            queued, self.inserts = self.inserts, []
            for rows in queued:
                compiled.insert(rows, batch_size=self.batch_size)
            return
        rows = [row for queued in self.inserts if type(queued[0]) is model for row in queued]
        self.inserts = [queued for queued in self.inserts if type(queued[0]) is not model]
        compiled.insert(rows, batch_size=self.batch_size)

    def save_updates(self) -> None:
        """Save the queued updates now, one statement each."""
        queued, self.updates = self.updates, []
        for updates, obj in queued:
            _save(updates, obj)


def _save(updates, obj) -> None:
    """``updates.save(obj)``, a foreign key to a row saved since taking its key (as ``save`` does)."""
    compiled.prepare_related(obj, operation_name="save")
    updates.save(obj)


def save_with_queue(queue: Queue, updates, obj) -> None:
    """``updates.save(obj)`` (``tdmanager.compiled.Updates``: one row's UPDATE) with the queued
    rows. The same refusal as ``save`` when it changes no row.

    Why by hand: on PostgreSQL the queued rows are WITH parts of the UPDATE (one round trip
    where the ORM sends one statement per row); elsewhere, or where ``Updates`` leaves the row
    to ``save``, the queued rows are inserted first and the row saved."""
    found = updates.statement(obj) if _postgresql() else None
    if found is None:
        queue.flush()
        updates.save(obj)
    elif _with_queued(queue, *found) == 0:
        raise DatabaseError("Save with update_fields did not affect any rows.")


def write_back(
    queue: Queue,
    *,
    tournament_id: int,
    token: str,
    new_token: str,
    freed: list[int],
    seated: dict,
    closed: dict,
    out: list[tuple],
    bust_seq: int,
    group_seq: int,
    seats_moved: bool,
) -> int:
    """The end of a seating service (``Room.done``): the queued rows, the seats freed
    (``freed``: entries whose seat row is deleted), the new and moved seats (``seated``: entry →
    (table id, seat number, waits for the button, seated at)), the tables closed (``closed``:
    table id → closed at), the entries out (``out``: (entries, place, busted at)) and the seating
    state's compare-and-set: ``token`` → ``new_token`` with the counters, only where the token is
    still ``token``. Returns the state rows changed (0: the token was not ours; the caller's
    transaction then rolls back).

    The seats freed are deleted before the seats are inserted, so a seat freed and taken again
    in one change is free when taken.

    Why by hand: the ORM sends one statement per table (seats, tables, entries, the state and
    each queued model), on PostgreSQL a round trip each, which is most of what a plain bust
    costs; there they are WITH parts of one UPDATE (every part runs once, whatever the last
    UPDATE finds). Elsewhere the ORM's ``delete``, ``bulk_create`` and ``update``."""
    if _postgresql():
        entries = [e for ids, _place, _now in out for e in ids]
        places = [place for ids, place, _now in out for _e in ids]
        now = out[0][2] if out else None
        tail = [now, entries, places, new_token, bust_seq, group_seq, int(seats_moved), tournament_id, token]
        if not seated and not closed:
            return _with_queued(queue, WRITE_BACK, [list(freed), *tail])
        rows = list(seated.items())
        params = [
            list(freed),
            tournament_id,
            [row[0] for _e, row in rows],
            [row[1] for _e, row in rows],
            [e for e, _row in rows],
            [row[2] for _e, row in rows],
            [row[3] for _e, row in rows],
            list(closed),
            list(closed.values()),
            *tail,
        ]
        return _with_queued(queue, WRITE_BACK_SEATS, params)
    queue.flush()
    queue.save_updates()
    for ids in _chunks(freed, queue.batch_size):
        Seat.objects.filter(pk__in=ids).delete()  # nothing points at a seat: one DELETE
    Seat.objects.bulk_create(
        [
            Seat(entry_id=e, tournament_id=tournament_id, table_id=table_id, number=number, wait_for_button=wait, seated_at=at)
            for e, (table_id, number, wait, at) in seated.items()
        ],
        batch_size=queue.batch_size,
    )
    by_time: dict[object, list[int]] = {}
    for pk, at in closed.items():
        by_time.setdefault(at, []).append(pk)
    for at, tables in by_time.items():
        for ids in _chunks(tables, queue.batch_size):
            Table.objects.filter(pk__in=ids).update(in_play=False, closed_at=at, is_final=False, halt_waived=False)
    for entries, place, at in out:
        Entry.objects.filter(pk__in=entries).update(status=Entry.BUSTED, busted_at=at, place=place)
    return SeatingState.objects.filter(tournament_id=tournament_id, token=token).update(
        token=new_token, bust_seq=bust_seq, group_seq=group_seq, seats_seq=models.F("seats_seq") + int(seats_moved)
    )


def _with_queued(queue: Queue, sql: str, params: list) -> int:
    """PostgreSQL: ``sql`` (an UPDATE, perhaps with WITH parts of its own) sent with the queued
    rows as WITH parts before it, their keys returned by it; returns the rows it changed."""
    parts, inserted = _insert_parts(queue)
    updated, later = _update_parts(queue, inserted)
    if not parts and not updated:
        with compiled.prepared_cursor(connection) as cursor:
            cursor.execute(sql, params)
            changed = cursor.rowcount
        for updates, obj in later:
            _save(updates, obj)
        return changed
    q = connection.ops.quote_name
    head = "WITH " + ", ".join(
        [f"new{i} AS ({part_sql})" for i, (part_sql, _p) in enumerate(parts)]
        + [f"upd{j} AS ({part_sql} RETURNING 1)" for j, (part_sql, _p, _o) in enumerate(updated)]
    )
    sql = (
        (head + ", " + sql.removeprefix("WITH ") if sql.startswith("WITH ") else head + " " + sql)
        + " RETURNING "
        + ", ".join(
            [
                f"(SELECT array_agg({q(inserts.model._meta.pk.column)} ORDER BY {q(inserts.model._meta.pk.column)}) FROM new{i})"
                for i, (inserts, _rows, _refs) in enumerate(inserted)
            ]
            + [f"(SELECT count(*) FROM upd{j})" for j in range(len(updated))]
        )
    )
    with compiled.prepared_cursor(connection) as cursor:
        cursor.execute(sql, [p for _sql, part_params in parts for p in part_params] + [p for _sql, part_params, _o in updated for p in part_params] + params)
        row = cursor.fetchone()
        changed = cursor.rowcount
    if row is None:
        return 0
    if any(n != 1 for n in row[len(inserted) :]):
        raise DatabaseError("Save with update_fields did not affect any rows.")
    row = row[: len(inserted)]
    for (inserts, rows, refs), keys in zip(inserted, row, strict=True):
        inserts.keys_returned(rows, keys, connection.alias)
        for obj in rows:  # the key a row took from an earlier part, as the ORM sets it after a save
            for name in refs:
                field = obj._meta.get_field(name)
                setattr(obj, field.attname, getattr(obj, name).pk)
    for _sql, _params, obj in updated:  # the keys an updated row took from a part
        compiled.prepare_related(obj, operation_name="save")
    for updates, obj in later:
        _save(updates, obj)
    return changed


def _update_parts(queue: Queue, inserted):
    """The queued updates as WITH parts (after the inserts'), a foreign key to the one row of
    an insert part taken from there; those ``Updates`` leaves to ``save`` are saved after."""
    part_of = _parts_of(inserted)
    updated, later = [], []
    for updates, obj in queue.updates:
        refs = {}
        for field in updates.fields:
            if field.is_relation and field.is_cached(obj):
                parent = getattr(obj, field.name)
                if parent is not None and parent.pk is None and id(parent) in part_of:
                    refs[field.name] = part_of[id(parent)]
        compiled.prepare_related(obj, operation_name="save", fields=[f for f in updates.fields if f.name not in refs])
        found = updates.statement(obj, refs=refs)
        if found is None:
            later.append((updates, obj))
        else:
            updated.append((*found, obj))
    queue.updates = []
    return updated, later


def _insert_parts(queue: Queue):
    """The queued rows as WITH parts of the statement (their INSERT as ``Inserts`` compiles it,
    their keys returned by the UPDATE); a row pointing at the one row of an earlier part takes
    its key from there. Rows one statement cannot take: all inserted now instead."""
    parts, inserted, part_of = [], [], {}
    for i, rows in enumerate(queue.inserts):
        inserts = compiled.inserts_of(type(rows[0]))
        refs = {}
        for field in inserts.fields:
            if field.is_relation and field.is_cached(rows[0]):
                parents = {id(getattr(obj, field.name)) for obj in rows}
                parent = getattr(rows[0], field.name)
                if parent is not None and parent.pk is None and len(parents) == 1 and id(parent) in part_of:
                    refs[field.name] = part_of[id(parent)]
        found = inserts.statement(rows, refs=refs) if len(rows) <= queue.batch_size else None
        if found is None:
            queue.flush()
            return [], []
        parts.append(found)
        inserted.append((inserts, rows, refs))
        part_of.update(_parts_of(inserted[i:], i))
    queue.inserts = []
    return parts, inserted


def _parts_of(inserted, start: int = 0) -> dict[int, str]:
    """id(row) → the SQL giving its key, for the rows of these insert parts (``new{i}``, from
    ``start``): the one key of a part, or the k-th smallest of a part of several rows (an
    INSERT takes its keys in the order of its rows, as ``_with_queued`` hands them back)."""
    q = connection.ops.quote_name
    out = {}
    for i, (inserts, rows, _refs) in enumerate(inserted, start):
        pk = q(inserts.model._meta.pk.column)
        if len(rows) == 1:
            out[id(rows[0])] = f"(SELECT {pk} FROM new{i})"
        else:
            for k, obj in enumerate(rows):
                out[id(obj)] = f"(SELECT {pk} FROM new{i} ORDER BY {pk} LIMIT 1 OFFSET {k})"
    return out


def _write_back_sql(seats: bool = False) -> str:
    """PostgreSQL's write-back (``write_back``): the seats freed deleted, the entries out
    updated, the token's compare-and-set. ``seats``: also the new and moved seats inserted as
    ``bulk_create`` writes them (the INSERT waits for the DELETE: it reads its row count first,
    so a seat freed and taken again in one change is free when taken) and tables closed as the
    ORM's ``update(in_play=False, closed_at=…, is_final=False, halt_waived=False)``."""
    seat, seat_entry, seat_tournament, seat_table, seat_number, wait, seated_at = quoted_names(
        Seat, "entry", "tournament", "table", "number", "wait_for_button", "seated_at"
    )
    table, table_id, in_play, closed_at, is_final, halt_waived = quoted_names(Table, "id", "in_play", "closed_at", "is_final", "halt_waived")
    entry, entry_id, status, busted_at, place = quoted_names(Entry, "id", "status", "busted_at", "place")
    state, tournament, token, bust_seq, group_seq, seats_seq = quoted_names(SeatingState, "tournament", "token", "bust_seq", "group_seq", "seats_seq")
    freed = f"WITH freed AS (DELETE FROM {seat} WHERE {seat_entry} = ANY(%s::bigint[])), "
    if seats:
        freed = (
            f"WITH freed AS (DELETE FROM {seat} WHERE {seat_entry} = ANY(%s::bigint[]) RETURNING 1), "
            f"seated AS (INSERT INTO {seat} ({seat_tournament}, {seat_table}, {seat_number}, {seat_entry}, {wait}, {seated_at}) "
            f"SELECT %s::bigint, v.table_id, v.number, v.entry_id, v.wait, v.at "
            f"FROM unnest(%s::bigint[], %s::smallint[], %s::bigint[], %s::boolean[], %s::timestamptz[]) "
            f"AS v(table_id, number, entry_id, wait, at) WHERE (SELECT count(*) FROM freed) >= 0), "
            f"closed AS (UPDATE {table} SET {in_play} = false, {closed_at} = v.at, {is_final} = false, {halt_waived} = false "
            f"FROM unnest(%s::bigint[], %s::timestamptz[]) AS v(id, at) WHERE {table}.{table_id} = v.id), "
        )
    return (
        freed + f"out AS (UPDATE {entry} SET {status} = '{Entry.BUSTED}', {busted_at} = %s::timestamptz, {place} = v.place "
        f"FROM unnest(%s::bigint[], %s::integer[]) AS v(id, place) WHERE {entry}.{entry_id} = v.id) "
        f"UPDATE {state} SET {token} = %s, {bust_seq} = %s, {group_seq} = %s, {seats_seq} = {seats_seq} + %s "
        f"WHERE {tournament} = %s AND {token} = %s"
    )


WRITE_BACK = _write_back_sql()
WRITE_BACK_SEATS = _write_back_sql(seats=True)


# --- the simulation -----------------------------------------------------------------------


def entry_names(entry_ids) -> list[tuple]:
    """(entry, number, first name, last name) of these entries, in no order: the names a draw's
    moves and a break's slips print. Every break and the final table read them, and building
    the ORM's query (a join, ``pk__in`` of a different length each time) cost more than running
    it: a 10,000-entry tournament's busts took a fifth longer with the ORM's query. On
    PostgreSQL it is one statement with the ids as one array parameter, the same text every
    time, so the server keeps it prepared; elsewhere the ORM's, in chunks."""
    entry_ids = list(entry_ids)
    if not entry_ids:
        return []
    if not _postgresql():
        return [
            row
            for ids in _chunks(entry_ids, 500)  # SQLite binds at most 999 parameters a statement
            for row in Entry.objects.filter(pk__in=ids).order_by().values_list("pk", "number", "person__first_name", "person__last_name")
        ]
    entry, e_id, number, person = quoted_names(Entry, "id", "number", "person")
    people, first, last, p_id = quoted_names(Entry._meta.get_field("person").related_model, "first_name", "last_name", "id")
    with compiled.prepared_cursor(connection) as cursor:
        cursor.execute(
            f"SELECT {entry}.{e_id}, {entry}.{number}, {people}.{first}, {people}.{last} FROM {entry} "
            f"INNER JOIN {people} ON ({entry}.{person} = {people}.{p_id}) WHERE {entry}.{e_id} = ANY(%s::bigint[])",
            [entry_ids],
        )
        return cursor.fetchall()


def commit_without_waiting_for_disk() -> None:
    """PostgreSQL: this connection's commits no longer wait for the disk's flush
    (``SET synchronous_commit TO off``), for a simulation that measures the server's work
    rather than the disk. A setting of the session, which the ORM has no call for."""
    if not _postgresql():
        raise DatabaseError("synchronous_commit is a PostgreSQL setting")
    with connection.cursor() as cursor:
        cursor.execute("SET synchronous_commit TO off")
