"""The tournaments app's hand-written SQL, every statement in one place.

Each function sends one statement the ORM cannot write in one round trip, and says what it
writes and why. Where a database lacks what the statement needs (``RETURNING``, a writable
``WITH``), the function says what it does there: the same writes through the ORM, or None
for a caller that then writes them its own way. Every function here is run directly by
tests/tournaments/test_sql.py on SQLite and on PostgreSQL.
"""

from collections.abc import Callable

from django.db import IntegrityError, connection, transaction

from tdmanager import compiled

from .models import Entry, IdempotencyRecord, LedgerRow, Sequence, TournamentEvent


def count_up(name: str) -> int | None:
    """The gapless counter ``name`` (a ``Sequence`` row) counted up by one: its new value, the
    row locked until the caller commits; None when there is no such counter (nothing written).

    ``UPDATE … RETURNING``: one statement adds one and reads the sum under the row's lock. The
    ORM's ``update()`` does not give the value back, and ``select_for_update().get()`` then
    ``save()`` takes two round trips, inside the tournament's lock every sale holds."""
    qn = connection.ops.quote_name
    value = qn(Sequence._meta.get_field("value").column)
    with compiled.prepared_cursor(connection) as cursor:
        cursor.execute(
            f"UPDATE {qn(Sequence._meta.db_table)} SET {value} = {value} + 1 WHERE {qn(Sequence._meta.get_field('name').column)} = %s RETURNING {value}", [name]
        )
        row = cursor.fetchone()
    return None if row is None else row[0]


def claim_idempotency_key(user_id: int, key: str, endpoint: str, digest: str, now) -> int | None:
    """The user's ``Idempotency-Key`` row inserted (no answer yet: status 0): its key, or None
    when the user's key has a row already (a repeat, or a concurrent duplicate: the insert
    waits on the unique index until that one commits or rolls back).

    ``INSERT … ON CONFLICT DO NOTHING RETURNING``: a duplicate is not an error, so the caller's
    transaction goes on without a savepoint. The ORM's ``create()`` raises on the duplicate,
    which needs a savepoint around it (two more round trips on every keyed sale), and
    ``bulk_create(ignore_conflicts=True)`` does not give the key back. A database without
    ``RETURNING`` (SQLite before 3.35): ``create()`` in a savepoint."""
    if not connection.features.can_return_columns_from_insert:
        try:
            with transaction.atomic():
                return IdempotencyRecord.objects.create(user_id=user_id, key=key, endpoint=endpoint, body_hash=digest, created_at=now).pk
        except IntegrityError:
            return None
    qn = connection.ops.quote_name
    meta = IdempotencyRecord._meta
    names = ("user", "key", "endpoint", "body_hash", "status_code", "created_at")
    fields = [meta.get_field(n) for n in names]
    values = [f.get_db_prep_save(v, connection) for f, v in zip(fields, (user_id, key, endpoint, digest, 0, now), strict=True)]
    sql = (
        f"INSERT INTO {qn(meta.db_table)} ({', '.join(qn(f.column) for f in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))}) ON CONFLICT DO NOTHING RETURNING {qn(meta.pk.column)}"
    )
    with compiled.prepared_cursor(connection) as cursor:
        cursor.execute(sql, values)
        row = cursor.fetchone()
    return row[0] if row else None


def write_sale(
    entry: Entry, row: LedgerRow, events: Callable[[], list[TournamentEvent]] | None = None, counter: str = "receipt"
) -> list[TournamentEvent] | None:
    """A sale's four writes in one statement, on PostgreSQL: the counter ``counter`` counted up
    (created at 1 when missing, as ``ledger.next_number`` creates it), the new ``entry``, its
    ledger ``row`` (its entry's key and its receipt number taken from the other parts) and,
    when ``events`` is given, the rows it makes (built when called, not written: the sale's
    event, its payload completed with ``jsonb ||`` by the entry's key and the receipt number).
    The INSERTs are the ORM's own (``tdmanager.compiled.Inserts``). Afterwards the keys are set
    on the three, ``row.entry`` is ``entry`` and ``row.receipt_number`` the counter's value.
    Returns the events written; None, writing nothing and calling nothing, elsewhere (another
    database, or an INSERT that would not be one statement): the caller writes them one by one.

    One ``WITH`` statement: the four writes are four round trips inside the tournament's lock,
    which every sale at the desk waits on; the ORM writes one table per statement."""
    if connection.vendor != "postgresql":
        return None
    qn = connection.ops.quote_name
    new_entries, new_rows, new_events = compiled.inserts_of(Entry), compiled.inserts_of(LedgerRow), compiled.inserts_of(TournamentEvent)
    entry_id, value = qn(Entry._meta.pk.column), qn(Sequence._meta.get_field("value").column)
    insert_entry = new_entries.statement([entry])
    insert_row = new_rows.statement([row], refs={"entry": f"(SELECT {entry_id} FROM e)", "receipt_number": f"(SELECT {value} FROM n)"})
    if insert_entry is None or insert_row is None:
        return None
    logged, insert_event = [], None
    if events is not None:
        logged = events()
        insert_event = new_events.statement(
            logged, refs={"payload": f"(%s::jsonb || jsonb_build_object('entry', (SELECT {entry_id} FROM e), 'receipt', (SELECT {value} FROM n)))"}
        )
        if insert_event is None:
            raise RuntimeError("the sale's event cannot be written with it")
    counters, name = qn(Sequence._meta.db_table), qn(Sequence._meta.get_field("name").column)
    sql = (
        f"WITH n AS (INSERT INTO {counters} ({name}, {value}) VALUES (%s, 1) ON CONFLICT ({name}) "
        f"DO UPDATE SET {value} = {counters}.{value} + 1 RETURNING {value}), e AS ({insert_entry[0]}), r AS ({insert_row[0]})"
        + (f", ev AS ({insert_event[0]})" if insert_event else "")
        + f" SELECT (SELECT {entry_id} FROM e), (SELECT {qn(LedgerRow._meta.pk.column)} FROM r), (SELECT {value} FROM n)"
        + (f", (SELECT {qn(TournamentEvent._meta.pk.column)} FROM ev)" if insert_event else "")
    )
    with compiled.prepared_cursor(connection) as cursor:
        cursor.execute(sql, [counter, *insert_entry[1], *insert_row[1], *(insert_event[1] if insert_event else ())])
        entry_pk, row_pk, number, *event_pk = cursor.fetchone()
    new_entries.keys_returned([entry], [entry_pk], connection.alias)
    row.entry, row.receipt_number = entry, number  # the entry's key, now set
    new_rows.keys_returned([row], [row_pk], connection.alias)
    if logged:
        new_events.keys_returned(logged, event_pk, connection.alias)
    return logged
