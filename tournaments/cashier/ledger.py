"""The ledger's public service: what every app that takes or pays money uses.

Lock the tournament, take the next gapless receipt number, write an append-only ledger row,
create an entry, and give a paid entry its seat (``issue_paid_entry``). The cashier desk
(``cashier.py``) and payouts (prize seats, tickets) both go through these functions; nobody
writes a ``LedgerRow`` another way. All of them run inside the caller's transaction.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction

from tdmanager import compiled, receipt_journal
from tdmanager.compiled import Compiled, rows_together
from tdmanager.money import ZERO
from tdmanager.transactions import service
from tournaments import signals, sql
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event, log_events
from tournaments.house import HouseRules
from tournaments.models import Entry, LedgerRow, Person, Sequence, Tournament
from tournaments.signals import announce


def next_number(name: str) -> int:
    """The next value of a gapless counter, under a row lock held until the caller commits: one
    statement increments and reads it (the receipt counter is taken inside every sale's lock)."""
    value = sql.count_up(name)
    if value is None:  # the migration creates "receipt"; other counters start here
        Sequence.objects.get_or_create(name=name)
        return next_number(name)
    return value


# Every sale, payout and floor action locks the tournament: its statement is compiled once.
_LOCK = Compiled(lambda pk: Tournament.objects.select_for_update().filter(pk=pk).order_by(), Tournament)
# The last entry number of a tournament (``new_entry``): the top of its (tournament, number) index.
_LAST_NUMBER = Compiled(lambda tid: Entry.objects.filter(tournament_id=tid).order_by("-number").values_list("number")[:1], Entry)
# Every sale writes an entry and a ledger row: their INSERTs compiled once (``Inserts``, as
# ``objects.create`` writes them: neither model's ``save()`` does more, no signal listens to them).
_NEW_ENTRY, _NEW_ROW = compiled.inserts_of(Entry), compiled.inserts_of(LedgerRow)


def _written_by_caller(rows):
    """``log_events``' ``write``: the rows go out with the sale's own statement."""


def lock_tournament(tournament_or_id) -> Tournament:
    """The tournament's row, read anew and locked until the caller commits
    (``select_for_update().get(pk=...)``, compiled once; ``Tournament.DoesNotExist`` when none)."""
    return _LOCK.get(int(getattr(tournament_or_id, "pk", tournament_or_id)))


def lock_tournament_and_read(tournament_or_id, read: Compiled, *args) -> tuple[Tournament, list]:
    """``lock_tournament``, then ``read.rows(*args)`` (a read that sees what the lock waited for),
    in one round trip on PostgreSQL (``tdmanager.compiled.rows_together``)."""
    locked, rows = rows_together((_LOCK, (int(getattr(tournament_or_id, "pk", tournament_or_id)),)), (read, args))
    if not locked:
        raise Tournament.DoesNotExist("Tournament matching query does not exist.")
    return locked[0], rows


def new_entry(
    t: Tournament, person: Person, *, status: str, pre_registered: bool, now, chips: int | None = None, previous: int | None = None, number: int | None = None
) -> Entry:
    """A new entry numbered after the last; ``previous``: the person's entries in ``t`` not
    cancelled, when the caller has counted them already; ``number``: the last entry's number
    plus one, when the caller has read it already (under the tournament's lock)."""
    entry = _entry(t, person, status=status, pre_registered=pre_registered, now=now, chips=chips, previous=previous, number=number)
    _NEW_ENTRY.insert([entry])
    return entry


def _entry(t, person, *, status, pre_registered, now, chips, previous, number) -> Entry:
    """``new_entry``'s row, not written."""
    if number is None:
        last = _LAST_NUMBER.rows(t.pk)
        number = (last[0][0] if last else 0) + 1
    if previous is None:
        previous = t.entries.filter(person=person).exclude(status=Entry.CANCELLED).count()
    return Entry(
        **({} if chips is None else {"chips": chips}),
        tournament=t,
        person=person,
        number=number,
        person_entry_no=previous + 1,
        status=status,
        pre_registered=pre_registered,
        is_late=t.status == Tournament.RUNNING,
        created_at=now,
    )


def write_row(
    t,
    *,
    kind,
    entry,
    person,
    prize,
    fee,
    chips,
    method,
    actor,
    side=ZERO,
    jackpot=ZERO,
    bounty=ZERO,
    reason="",
    reference="",
    payee="",
    reverses=None,
    note="",
    tender=None,
    owed=ZERO,
    settles=None,
):
    """One append-only row with the next receipt number. ``tender`` (``fees.Tender``): the sale
    was paid in a foreign currency (REG-06): the row keeps the currency, the amount tendered for
    its total and the rate; its amounts stay in the tournament's currency. ``owed`` (REG-09): an
    amount owed, not received (a RECEIVABLE row, its SETTLEMENT pointing at it by ``settles``)."""
    row = _row(
        t,
        kind=kind,
        entry=entry,
        person=person,
        prize=prize,
        fee=fee,
        chips=chips,
        method=method,
        actor=actor,
        side=side,
        jackpot=jackpot,
        bounty=bounty,
        reason=reason,
        reference=reference,
        payee=payee,
        reverses=reverses,
        note=note,
        tender=tender,
        owed=owed,
        settles=settles,
        receipt_number=next_number("receipt"),
    )
    receipt_journal.issued(row.receipt_number)  # kept outside the database: a restore never prints it again
    _NEW_ROW.insert([row])
    return row


def _row(
    t,
    *,
    kind,
    entry,
    person,
    prize,
    fee,
    chips,
    method,
    actor,
    receipt_number,
    side=ZERO,
    jackpot=ZERO,
    bounty=ZERO,
    reason="",
    reference="",
    payee="",
    reverses=None,
    note="",
    tender=None,
    owed=ZERO,
    settles=None,
) -> LedgerRow:
    """``write_row``'s row, not written."""
    foreign = {}
    if tender is not None:
        total = prize + fee + side + jackpot + bounty
        foreign = {"tender_currency": tender.currency, "exchange_rate": tender.rate, "tender_amount": tender.due(total) if total >= 0 else -tender.due(-total)}
    return LedgerRow(
        **foreign,
        tournament=t,
        entry=entry,
        person=person,
        kind=kind,
        prize_amount=prize,
        fee_amount=fee,
        side_amount=side,
        jackpot_amount=jackpot,
        bounty_amount=bounty,
        currency=t.currency,
        chips=chips,
        method=method,
        reference=reference,
        payee=payee,
        cashier=actor.user,
        receipt_number=receipt_number,
        reverses=reverses,
        reason=reason,
        note=note,
        owed_amount=owed,
        settles=settles,
    )


@dataclass(frozen=True)
class SaleEvent:
    """The event a sale logs: ``payload(entry, row)`` gives its payload once both are written."""

    action: str
    actor: Actor
    payload: Callable[[Entry, LedgerRow], dict]


def sell_new_entry(
    t: Tournament, person: Person, *, now, chips: int, previous: int | None = None, number: int | None = None, event: SaleEvent | None = None, **row
) -> tuple[Entry, LedgerRow]:
    """``new_entry`` (playing, not pre-registered) and the ``write_row`` that sells it (``row``:
    its other arguments), then ``event`` logged. On PostgreSQL in one statement
    (``sql.write_sale``): the receipt counter, the entry, the row and the event."""
    entry = _entry(t, person, status=Entry.ACTIVE, pre_registered=False, now=now, chips=chips, previous=previous, number=number)
    written = _written_together(t, entry, _row(t, entry=entry, person=person, chips=entry.chips, receipt_number=0, **row), event)
    if written is not None:
        return entry, written
    _NEW_ENTRY.insert([entry])
    written = write_row(t, entry=entry, person=person, chips=entry.chips, **row)
    if event is not None:
        log_event(t, event.action, event.actor, **event.payload(entry, written))
    return entry, written


def _written_together(t: Tournament, entry: Entry, row: LedgerRow, event: SaleEvent | None) -> LedgerRow | None:
    """The receipt counter, the entry, its row and the sale's event written by one statement
    (``sql.write_sale``): the row, its receipt number and its entry set; None, writing nothing,
    where that statement is not sent."""

    def logged():  # the event's row built (and published at the commit), written by the statement
        return log_events(t, event.actor, [(event.action, event.payload(entry, row))], write=_written_by_caller)

    written = sql.write_sale(entry, row, logged if event is not None else None)
    if written is None:
        return None
    receipt_journal.issued(row.receipt_number)
    if written:
        written[0].payload = event.payload(entry, row)  # as written: the entry's key and the receipt number filled in
    return row


def late_stack(t: Tournament) -> int:
    """REG-04 / C6: late registrants get a full stack unless the house reduces it
    (``HouseRules.late_stack``, which stack choice uses too)."""
    if t.status != Tournament.RUNNING:
        return t.starting_stack
    return HouseRules.of(t).late_stack(t.starting_stack)


def issue_paid_entry(
    t: Tournament, person: Person, *, actor: Actor, method: str, note: str, reference: str = "", entry: Entry | None = None, now=None
) -> tuple[Entry, LedgerRow]:
    """A paid place that did not cross the desk (a satellite seat, a ticket): ``entry`` (a
    reservation) or a new entry becomes playing with the late-registration stack, one BUY_IN
    row at the tournament's price (its bounty part too, PAY-02) records it, and seating is told."""
    if entry is None:
        entry = new_entry(t, person, status=Entry.ACTIVE, pre_registered=False, now=now)
    entry.status, entry.chips = Entry.ACTIVE, late_stack(t)
    entry.save(update_fields=["status", "chips"])
    row = write_row(
        t,
        kind=LedgerRow.BUY_IN,
        entry=entry,
        person=person,
        prize=t.buy_in,
        fee=t.fee,
        bounty=HouseRules.of(t).bounty_part,
        chips=entry.chips,
        method=method,
        actor=actor,
        note=note,
        reference=reference,
    )
    announce(signals.entry_paid, t, actor, entry=entry)
    return entry, row


def receipts_after_restore(sender=None, *, backup: str, last_receipt: int | None = None, **_kw) -> dict:
    """Receiver of ``tdmanager.backup.database_restored``: ``continue_receipts_after_restore``."""
    return continue_receipts_after_restore(backup=backup, last_printed=last_receipt)


@service
def continue_receipts_after_restore(*, backup: str, last_printed: int | None = None) -> dict:
    """After a restore the receipt counter is the backup's; receipts printed since then are in
    the players' hands. The counter continues after the highest of: the backup's last receipt,
    the receipt journal's last reservation (``tdmanager.receipt_journal``) and the last receipt
    printed as the person restoring says (``last_printed``). The numbers between the backup's
    last and that are lost with the restore: logged (no tournament), naming the tournaments
    registering or running then, whose reconciliation reports list them."""
    Sequence.objects.get_or_create(name="receipt")
    counter = Sequence.objects.select_for_update().get(name="receipt")
    journal = receipt_journal.last_reserved()
    target = max(counter.value, journal, last_printed or 0)
    answer = {"restored_last": counter.value, "journal": journal, "last_printed": last_printed, "continues_after": target, "lost": None, "tournaments": []}
    if target > counter.value:
        answer["lost"] = (counter.value + 1, target)
        Sequence.objects.filter(pk=counter.pk).update(value=target)
        open_now = list(Tournament.objects.filter(status__in=[Tournament.REGISTERING, Tournament.RUNNING]).order_by("start_at", "id"))
        # One row without a tournament (the restored tournaments' own logs stay as backed up),
        # naming the tournaments open then: their reconciliation reports list the numbers.
        log_event(
            None,
            Action.CASHIER_RECEIPTS_LOST_IN_RESTORE,
            None,
            first=counter.value + 1,
            last=target,
            backup=backup,
            journal=journal,
            last_printed=last_printed,
            tournaments=[t.pk for t in open_now],
        )
        answer["tournaments"] = [t.name for t in open_now]
    transaction.on_commit(lambda: receipt_journal.continued_from(target))
    return answer
