"""tournaments/sql.py: each hand-written statement called directly, and what it wrote read back
through the ORM. Run on SQLite and on PostgreSQL (where ``write_sale`` sends its statement)."""

from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.db import connection, transaction

from tests.conftest import make_user
from tournaments import sql
from tournaments.models import Entry, IdempotencyRecord, LedgerRow, Sequence, TournamentEvent

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 14, 20, 15, 30, 123000, tzinfo=UTC)


def test_count_up_adds_one_and_gives_the_new_value():
    Sequence.objects.update_or_create(name="receipt", defaults={"value": 41})
    Sequence.objects.create(name="other", value=7)
    assert sql.count_up("receipt") == 42
    assert sql.count_up("receipt") == 43
    assert dict(Sequence.objects.values_list("name", "value")) == {"receipt": 43, "other": 7}


def test_count_up_of_a_counter_not_there_writes_nothing():
    before = list(Sequence.objects.values_list("name", "value").order_by("name"))
    assert sql.count_up("no-such-counter") is None
    assert list(Sequence.objects.values_list("name", "value").order_by("name")) == before


def test_a_key_is_claimed_once_per_user():
    ann, bob = make_user("ann", "cashier"), make_user("bob", "cashier")
    with transaction.atomic():
        first = sql.claim_idempotency_key(ann.pk, "k-1", "/api/v1/cashier/register/", "a" * 64, NOW)
        assert first is not None
        assert sql.claim_idempotency_key(ann.pk, "k-1", "/api/v1/cashier/rebuy/", "b" * 64, NOW) is None  # a repeat: nothing written
        other = sql.claim_idempotency_key(bob.pk, "k-1", "/api/v1/cashier/register/", "c" * 64, NOW)  # another user's key
        assert other not in (None, first)
        assert IdempotencyRecord.objects.count() == 2  # the transaction goes on after the repeat
    row = IdempotencyRecord.objects.get(pk=first)
    assert (row.user_id, row.key, row.endpoint, row.body_hash, row.status_code, row.response, row.created_at) == (
        ann.pk,
        "k-1",
        "/api/v1/cashier/register/",
        "a" * 64,
        0,
        None,
        NOW,
    )
    assert IdempotencyRecord.objects.get(pk=other).user_id == bob.pk


def _sale(tournament, person, cashier, number):
    entry = Entry(tournament=tournament, person=person, number=number, person_entry_no=1, status=Entry.ACTIVE, chips=25000, created_at=NOW)
    row = LedgerRow(
        tournament=tournament,
        entry=entry,
        person=person,
        kind=LedgerRow.BUY_IN,
        prize_amount=Decimal("90.00"),
        fee_amount=Decimal("10.00"),
        currency="EUR",
        chips=25000,
        method=LedgerRow.CASH,
        cashier=cashier,
        created_at=NOW,
        receipt_number=0,
    )
    return entry, row


def _event(tournament, cashier):
    return [
        TournamentEvent(
            tournament=tournament,
            action="cashier.buyin_sold",
            actor=cashier,
            actor_label="desk 1",
            device="",
            created_at=NOW,
            payload={"amount": "100.00", "entry": None, "receipt": None},
        )
    ]


@pytest.mark.parametrize("counter", ["kept", "missing"])
def test_write_sale_writes_the_counter_the_entry_the_row_and_the_event_in_one_statement(tournament, make_person, counter):
    cashier = make_user("desk", "cashier")
    if counter == "kept":
        Sequence.objects.update_or_create(name="receipt", defaults={"value": 500})
    else:
        Sequence.objects.filter(name="receipt").delete()
    person = make_person("Ann", "Able")
    entry, row = _sale(tournament, person, cashier, 3)
    asked = []

    def events():
        asked.append(_event(tournament, cashier))
        return asked[-1]

    before = (Entry.objects.count(), LedgerRow.objects.count(), TournamentEvent.objects.count())
    with transaction.atomic():
        written = sql.write_sale(entry, row, events)
    if connection.vendor != "postgresql":  # no writable WITH: nothing written, the events not even built
        assert written is None and asked == []
        assert (Entry.objects.count(), LedgerRow.objects.count(), TournamentEvent.objects.count()) == before
        assert entry.pk is None and row.pk is None
        return
    receipt = 501 if counter == "kept" else 1
    assert Sequence.objects.get(name="receipt").value == receipt
    stored_entry = Entry.objects.get(pk=entry.pk)
    assert (stored_entry.tournament_id, stored_entry.person_id, stored_entry.number, stored_entry.chips, stored_entry.created_at) == (
        tournament.pk,
        person.pk,
        3,
        25000,
        NOW,
    )
    stored_row = LedgerRow.objects.get(pk=row.pk)
    assert (stored_row.entry_id, stored_row.receipt_number, stored_row.prize_amount, stored_row.fee_amount, stored_row.cashier_id) == (
        entry.pk,
        receipt,
        Decimal("90.00"),
        Decimal("10.00"),
        cashier.pk,
    )
    assert row.entry is entry and row.receipt_number == receipt and not row._state.adding
    assert written == asked[0] and len(written) == 1 and written[0].pk is not None
    stored_event = TournamentEvent.objects.get(pk=written[0].pk)
    assert stored_event.payload == {"amount": "100.00", "entry": entry.pk, "receipt": receipt}  # completed by the statement
    assert (stored_event.action, stored_event.actor_id, stored_event.actor_label) == ("cashier.buyin_sold", cashier.pk, "desk 1")
    assert (Entry.objects.count(), LedgerRow.objects.count(), TournamentEvent.objects.count()) == (before[0] + 1, before[1] + 1, before[2] + 1)


def test_write_sale_without_an_event_writes_the_other_three(tournament, make_person):
    cashier = make_user("desk", "cashier")
    Sequence.objects.update_or_create(name="receipt", defaults={"value": 9})
    entry, row = _sale(tournament, make_person(), cashier, 1)
    events_before = TournamentEvent.objects.count()
    with transaction.atomic():
        written = sql.write_sale(entry, row)
    if connection.vendor != "postgresql":
        assert written is None and entry.pk is None and Sequence.objects.get(name="receipt").value == 9
        return
    assert written == [] and TournamentEvent.objects.count() == events_before
    assert LedgerRow.objects.get(pk=row.pk).receipt_number == 10 == Sequence.objects.get(name="receipt").value
    assert Entry.objects.get(pk=entry.pk).number == 1
