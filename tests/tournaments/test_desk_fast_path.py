"""Issue #15: the sale's fast paths answer exactly what the general ones do.

- ``BuiltOnce.to_representation`` (fields shared by the class) writes what DRF's own loop writes;
- ``POST /api/v1/cashier/register/`` with a well-formed body skips the serializer's row fetches,
  yet refuses a key naming no row with the serializer's own answer, before any idempotency answer;
- the compiled statements (``tdmanager.compiled``) read what the ORM reads;
- ``flat_step``: a service without its savepoint still rolls the whole unit back.
"""

import threading
import uuid
from decimal import Decimal

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from rest_framework import serializers as drf
from rest_framework.test import APIRequestFactory

from tdmanager.transactions import flat_step, service, unit_of_work
from tournaments.cashier import ledger
from tournaments.cashier import services as cashier
from tournaments.cashier.ledger import lock_tournament
from tournaments.cashier.serializers import LedgerRowSerializer, SaleSerializer
from tournaments.cashier.services import sales as desk_sales
from tournaments.eventlog.actions import Action
from tournaments.models import Entry, IdempotencyRecord, LedgerRow, Person, Sequence, Tournament, TournamentEvent
from tournaments.setup import lifecycle
from tournaments.setup.serializers import EntrySerializer

pytestmark = pytest.mark.django_db
REGISTER = "/api/v1/cashier/register/"


def drf_loop(serializer_class, obj, **kw):
    """What DRF's own ``Serializer.to_representation`` writes for ``obj`` (every field copied)."""
    return dict(drf.Serializer.to_representation(serializer_class(**kw), obj))


def entry_fields(e):
    return {k: v for k, v in e.__dict__.items() if k != "_state"}


def test_the_shared_fields_write_what_drf_writes(make_tournament, make_person, cashier_actor, actor):
    t = make_tournament(min_players=2)
    cashier.set_exchange_rate("USD", Decimal("0.92"), actor=actor)
    sales = [cashier.register(t, make_person(), method=LedgerRow.CASH, actor=cashier_actor, tender_currency=tender) for tender in ("", "USD", "", "")]
    reversal = cashier.reverse(sales[2].row, reason="wrong player", actor=actor)
    lifecycle.start(t, actor=actor, override_minimum=True)
    late = cashier.register(t, make_person(), method=LedgerRow.CARD, actor=cashier_actor)
    request = APIRequestFactory().get("/")
    rows = list(LedgerRow.objects.order_by("id")) + [reversal]
    entries = list(Entry.objects.order_by("id")) + [late.entry]
    assert any(EntrySerializer(e).data["seat"] for e in entries)  # a seated entry is among them
    for e in entries:
        assert EntrySerializer(e).data == drf_loop(EntrySerializer, e)
    for row in rows:
        for cls in (LedgerRowSerializer, SaleSerializer):
            assert cls(row).data == drf_loop(cls, row)
            assert cls(row, context={"request": request}).data == drf_loop(cls, row, context={"request": request})
    assert EntrySerializer(entries, many=True).data == [drf_loop(EntrySerializer, e) for e in entries]
    for cls in (EntrySerializer, LedgerRowSerializer, SaleSerializer):  # the shared fields were used, not DRF's loop
        assert isinstance(cls.__dict__.get("_out_plan"), tuple)


def register(client, body, key=None):
    return client.post(REGISTER, body, format="json", HTTP_IDEMPOTENCY_KEY=key or str(uuid.uuid4()))


@pytest.mark.parametrize("missing", ["tournament", "person"])
def test_a_key_naming_no_row_gets_the_serializers_refusal(api, cashier_user, tournament, person, missing):
    client = api(cashier_user)
    fast = {"tournament": tournament.pk, "person": person.pk, missing: 999999}
    slow = {**fast, "jackpot": 0}  # a boolean the serializer reads (0 is false), the fast path does not: the serializer's path
    a, b = register(client, fast), register(client, slow)
    assert a.status_code == b.status_code == 400
    assert a.json() == b.json() and set(a.json()["fields"]) == {missing}
    assert not IdempotencyRecord.objects.exists() and not LedgerRow.objects.exists()


def test_a_body_refusal_comes_before_the_answer_of_a_used_key(api, cashier_user, tournament, person):
    IdempotencyRecord.objects.create(user=cashier_user, key="k-used", endpoint="/api/v1/cashier/preregister/", body_hash="x")
    r = register(api(cashier_user), {"tournament": tournament.pk, "person": 999999}, key="k-used")
    assert r.status_code == 400 and set(r.json()["fields"]) == {"person"}
    r = register(api(cashier_user), {"tournament": tournament.pk, "person": person.pk}, key="k-used")
    assert r.status_code == 422 and r.json()["code"] == "idempotency_key_reused"


def test_the_fast_and_the_general_path_sell_alike(api, cashier_user, tournament, make_person):
    client = api(cashier_user)
    fast = register(client, {"tournament": tournament.pk, "person": make_person().pk, "method": "CARD", "jackpot": False})
    slow = register(client, {"tournament": tournament.pk, "person": make_person().pk, "method": "CARD", "jackpot": "false"})  # the serializer's path
    assert fast.status_code == slow.status_code == 201
    differ = {"id", "person", "person_name", "number", "created_at", "receipt_number", "entry", "receipt_url", "receipt_pdf_url", "phone_url"}
    for part in ("entry", "receipt"):
        assert {k: v for k, v in fast.json()[part].items() if k not in differ} == {k: v for k, v in slow.json()[part].items() if k not in differ}
    numbers = list(LedgerRow.objects.order_by("id").values_list("receipt_number", flat=True))
    assert numbers == [numbers[0], numbers[0] + 1]


def test_a_sale_asks_the_database_eleven_questions_at_most_on_postgresql(api, cashier_user, tournament, person, django_assert_max_num_queries):
    client = api(cashier_user)
    # 22 before issue #15; 14 before the entries and the last number were read together; on
    # PostgreSQL the receipt counter, the entry and its row are written by one statement
    with django_assert_max_num_queries(11 if connection.vendor == "postgresql" else 13):
        assert register(client, {"tournament": tournament.pk, "person": person.pk}).status_code == 201


def test_the_compiled_reads_are_the_orms(tournament, make_tournament, make_person, cashier_actor):
    people = [make_person() for _ in range(3)]
    for p in people:
        cashier.register(tournament, p, method=LedgerRow.CASH, actor=cashier_actor)
    with transaction.atomic():
        locked = lock_tournament(tournament)
        assert entry_fields(locked) == entry_fields(Tournament.objects.get(pk=tournament.pk))
        with pytest.raises(Tournament.DoesNotExist):
            lock_tournament(999999)
        top = max(Entry.objects.filter(tournament=tournament).values_list("number", flat=True))
        for p in people:
            mine, last = desk_sales._entries_and_last(locked, p)
            assert [entry_fields(e) for e in mine] == [entry_fields(e) for e in locked.entries.filter(person=p)]
            assert mine[0].tournament is locked and last == top
        assert desk_sales._entries_and_last(locked, make_person()) == ([], top)  # no entry of his; the last number still read
        assert desk_sales._entries_and_last(lock_tournament(make_tournament()), people[0]) == ([], 0)
        assert entry_fields(desk_sales._PERSON.get(people[0].pk)) == entry_fields(Person.objects.get(pk=people[0].pk))


@service
def _failing_step(person):
    Person.objects.filter(pk=person.pk).update(nickname="changed")
    raise ValueError("refused")


def test_a_flat_step_that_fails_rolls_the_whole_unit_back(person):
    with pytest.raises(ValueError), unit_of_work(), flat_step():
        Person.objects.filter(pk=person.pk).update(notes="before")
        _failing_step(person)
    person.refresh_from_db()
    assert (person.nickname, person.notes) == ("super", "")
    with pytest.raises(TransactionManagementError), unit_of_work(), flat_step():  # caught and carried on: refused
        try:
            _failing_step(person)
        except ValueError:
            pass
        Person.objects.count()


def row_fields(obj, *, leave_out=()):
    return {k: v for k, v in entry_fields(obj).items() if k not in leave_out}


def _sell_both_ways(tournament, make_person, cashier_actor, monkeypatch):
    """One sale as the database allows (``ledger._written_together``), then one through the
    separate INSERTs; returns both sales and what the first path wrote together."""
    together = []
    written_together = ledger._written_together
    monkeypatch.setattr(ledger, "_written_together", lambda *args: together.append(written_together(*args)) or together[-1])
    a = cashier.register(tournament, make_person(), method=LedgerRow.CASH, actor=cashier_actor)
    monkeypatch.setattr(ledger, "_written_together", lambda *args: None)  # the separate INSERTs
    b = cashier.register(tournament, make_person(), method=LedgerRow.CARD, actor=cashier_actor, jackpot=False)
    return a, b, together


@pytest.mark.parametrize("counter", ["kept", "missing"])
def test_a_sale_keeps_in_memory_what_the_database_holds(tournament, make_person, cashier_actor, monkeypatch, counter):
    """Whichever way the sale was written, the entry, its ledger row and its event that the
    service hands back are the rows the database holds, numbered in the order of the sales."""
    if counter == "missing":
        Sequence.objects.filter(name="receipt").delete()  # a counter not found is created, as next_number creates it
    a, b, together = _sell_both_ways(tournament, make_person, cashier_actor, monkeypatch)
    # asked once; it writes (and gives the row) on PostgreSQL only, elsewhere nothing (None)
    assert together == [a.row if connection.vendor == "postgresql" else None] and (together[0] is a.row or together[0] is None)
    for sale in (a, b):
        assert entry_fields(sale.entry) == entry_fields(Entry.objects.get(pk=sale.entry.pk))
        assert row_fields(sale.row, leave_out={"_entry_cache"}) == row_fields(LedgerRow.objects.get(pk=sale.row.pk))
        assert sale.row.entry is sale.entry
    assert (b.entry.number, b.row.receipt_number) == (a.entry.number + 1, a.row.receipt_number + 1)
    if counter == "missing":
        assert a.row.receipt_number == 1 and Sequence.objects.get(name="receipt").value == 2
    events = list(TournamentEvent.objects.filter(tournament=tournament, action=Action.CASHIER_BUYIN_SOLD).order_by("pk"))
    assert [e.payload["receipt"] for e in events] == [a.row.receipt_number, b.row.receipt_number]
    assert [e.payload["entry"] for e in events] == [a.entry.pk, b.entry.pk]
    assert {(e.actor_id, e.actor_label, e.device) for e in events} == {(cashier_actor.user.pk, cashier_actor.label, cashier_actor.device)}


@pytest.mark.postgres
@pytest.mark.parametrize("counter", ["kept", "missing"])
def test_the_entry_and_its_row_written_together_are_what_two_inserts_write(tournament, make_person, cashier_actor, monkeypatch, counter):
    """On PostgreSQL a sale writes the receipt counter, the entry, its ledger row and its event
    in one statement (``ledger.sell_new_entry``); the separate INSERTs must write the same rows.
    Elsewhere only the separate INSERTs exist, so there is nothing to compare them with."""
    if connection.vendor != "postgresql":
        pytest.skip("the statement that writes them together is PostgreSQL's")
    if counter == "missing":
        Sequence.objects.filter(name="receipt").delete()
    a, b, together = _sell_both_ways(tournament, make_person, cashier_actor, monkeypatch)
    assert len(together) == 1 and together[0] is a.row  # the first sale really took the one statement
    keys = {
        "id",
        "person_id",
        "entry_id",
        "number",
        "receipt_number",
        "created_at",
        "phone_token",
        "method",
        "_tournament_cache",
        "_person_cache",
        "_entry_cache",
        "_cashier_cache",
    }
    assert row_fields(a.entry, leave_out=keys) == row_fields(b.entry, leave_out=keys)
    assert row_fields(a.row, leave_out=keys) == row_fields(b.row, leave_out=keys)
    # The sale's event written with them: the same row as the separate INSERT writes, the
    # entry's key and the receipt number filled in by the statement; in the order of the sales.
    events = list(TournamentEvent.objects.filter(tournament=tournament, action=Action.CASHIER_BUYIN_SOLD).order_by("pk"))
    assert [e.payload for e in events] == [desk_sales.sale_payload(a.entry, a.row), desk_sales.sale_payload(b.entry, b.row)]
    assert {(e.actor_id, e.actor_label, e.device) for e in events} == {(cashier_actor.user.pk, cashier_actor.label, cashier_actor.device)}


def test_the_read_sent_with_the_lock_reads_what_the_orm_reads(tournament, make_person, cashier_actor):
    people = [make_person() for _ in range(2)]
    cashier.register(tournament, people[0], method=LedgerRow.CASH, actor=cashier_actor)
    with transaction.atomic():
        for p in people:
            locked, rows = ledger.lock_tournament_and_read(tournament, desk_sales._ENTRIES_AND_LAST, tournament.pk, p.pk)
            assert entry_fields(locked) == entry_fields(Tournament.objects.get(pk=tournament.pk))
            assert [entry_fields(e) for e in rows] == [entry_fields(e) for e in desk_sales._ENTRIES_AND_LAST.rows(tournament.pk, p.pk)]
            assert desk_sales._entries_and_last(locked, p, rows)[1] == 1
        with pytest.raises(Tournament.DoesNotExist):
            ledger.lock_tournament_and_read(999999, desk_sales._ENTRIES_AND_LAST, 999999, people[0].pk)


@pytest.mark.django_db(transaction=True)
def test_the_read_sent_with_the_lock_sees_the_sale_the_lock_waited_for(make_tournament, make_person, cashier_actor):
    """On PostgreSQL the lock and the read of the person's entries go in one round trip: the
    read still sees the sale that held the lock, committed while this one waited for it."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks and one round trip: PostgreSQL")
    t, person, other = make_tournament(), make_person(), make_person()
    holding, release, results = threading.Event(), threading.Event(), {}

    def first_sale():
        try:
            with unit_of_work():
                results["first"] = cashier.register(t, person, method=LedgerRow.CASH, actor=cashier_actor)
                holding.set()
                release.wait(30)
        finally:
            connection.close()

    def second_sale(who):
        try:
            results[who] = cashier.register(t, who, method=LedgerRow.CASH, actor=cashier_actor)
        except cashier.DeskError as e:
            results[who] = e.code
        except Exception as e:  # noqa: BLE001 (what went wrong, for the assertion)
            results[who] = repr(e)
        finally:
            connection.close()

    holder = threading.Thread(target=first_sale)
    holder.start()
    assert holding.wait(30)
    waiting = [threading.Thread(target=second_sale, args=(p,)) for p in (person, other)]
    for th in waiting:
        th.start()
    with connection.cursor() as cursor:  # both wait on the tournament's lock before it is let go
        for _ in range(3000):
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")
            if cursor.fetchone()[0] == 2:
                break
            threading.Event().wait(0.01)
    release.set()
    for th in (holder, *waiting):
        th.join(30)
    assert results[person] == "already_registered"  # his entry, committed while this sale waited, was read
    assert results[other].entry.number == 2 and results[other].row.receipt_number == results["first"].row.receipt_number + 1
