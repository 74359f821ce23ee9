"""Issue #15: the sale's fast paths answer exactly what the general ones do.

- ``BuiltOnce.to_representation`` (fields shared by the class) writes what DRF's own loop writes;
- ``POST /api/v1/cashier/register/`` with a well-formed body skips the serializer's row fetches,
  yet refuses a key naming no row with the serializer's own answer, before any idempotency answer;
- the compiled statements (``tdmanager.compiled``) read what the ORM reads;
- ``flat_step``: a service without its savepoint still rolls the whole unit back.
"""

import uuid
from decimal import Decimal

import pytest
from django.db import transaction
from django.db.transaction import TransactionManagementError
from rest_framework import serializers as drf
from rest_framework.test import APIRequestFactory

from tdmanager.transactions import flat_step, service, unit_of_work
from tournaments import serializers as s
from tournaments.models import Entry, IdempotencyRecord, LedgerRow, Person, Tournament
from tournaments.services import cashier, lifecycle
from tournaments.services.ledger import lock_tournament

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
    sales = [cashier.register(t, make_person(), method=LedgerRow.CASH, actor=cashier_actor, tender_currency=tender)
             for tender in ("", "USD", "", "")]
    reversal = cashier.reverse(sales[2].row, reason="wrong player", actor=actor)
    lifecycle.start(t, actor=actor, override_minimum=True)
    late = cashier.register(t, make_person(), method=LedgerRow.CARD, actor=cashier_actor)
    request = APIRequestFactory().get("/")
    rows = list(LedgerRow.objects.order_by("id")) + [reversal]
    entries = list(Entry.objects.order_by("id")) + [late.entry]
    assert any(s.EntrySerializer(e).data["seat"] for e in entries)  # a seated entry is among them
    for e in entries:
        assert s.EntrySerializer(e).data == drf_loop(s.EntrySerializer, e)
    for row in rows:
        for cls in (s.LedgerRowSerializer, s.SaleSerializer):
            assert cls(row).data == drf_loop(cls, row)
            assert cls(row, context={"request": request}).data == drf_loop(cls, row, context={"request": request})
    assert s.EntrySerializer(entries, many=True).data == [drf_loop(s.EntrySerializer, e) for e in entries]
    for cls in (s.EntrySerializer, s.LedgerRowSerializer, s.SaleSerializer):  # the shared fields were used, not DRF's loop
        assert isinstance(cls.__dict__.get("_out_plan"), tuple)


def register(client, body, key=None):
    return client.post(REGISTER, body, format="json", HTTP_IDEMPOTENCY_KEY=key or str(uuid.uuid4()))


@pytest.mark.parametrize("missing", ["tournament", "person"])
def test_a_key_naming_no_row_gets_the_serializers_refusal(api, cashier_user, tournament, person, missing):
    client = api(cashier_user)
    fast = {"tournament": tournament.pk, "person": person.pk, missing: 999999}
    slow = {**fast, missing: "999999"}  # a string: the serializer's path
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
    slow = register(client, {"tournament": str(tournament.pk), "person": str(make_person().pk), "method": "CARD", "jackpot": "false"})
    assert fast.status_code == slow.status_code == 201
    differ = {"id", "person", "person_name", "number", "created_at", "receipt_number", "entry", "receipt_url", "receipt_pdf_url", "phone_url"}
    for part in ("entry", "receipt"):
        assert {k: v for k, v in fast.json()[part].items() if k not in differ} == {k: v for k, v in slow.json()[part].items() if k not in differ}
    numbers = list(LedgerRow.objects.order_by("id").values_list("receipt_number", flat=True))
    assert numbers == [numbers[0], numbers[0] + 1]


def test_a_sale_asks_the_database_thirteen_questions_at_most(api, cashier_user, tournament, person, django_assert_max_num_queries):
    client = api(cashier_user)
    with django_assert_max_num_queries(13):  # 22 before issue #15, 14 before the entries and the last number were read together
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
            mine, last = cashier._entries_and_last(locked, p)
            assert [entry_fields(e) for e in mine] == [entry_fields(e) for e in locked.entries.filter(person=p)]
            assert mine[0].tournament is locked and last == top
        assert cashier._entries_and_last(locked, make_person()) == ([], top)  # no entry of his; the last number still read
        assert cashier._entries_and_last(lock_tournament(make_tournament()), people[0]) == ([], 0)
        assert entry_fields(cashier._PERSON.get(people[0].pk)) == entry_fields(Person.objects.get(pk=people[0].pk))


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
