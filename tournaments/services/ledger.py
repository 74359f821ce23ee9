"""The ledger's public service: what every app that takes or pays money uses.

Lock the tournament, take the next gapless receipt number, write an append-only ledger row,
create an entry, and give a paid entry its seat (``issue_paid_entry``). The cashier desk
(``cashier.py``) and payouts (prize seats, tickets) both go through these functions; nobody
writes a ``LedgerRow`` another way. All of them run inside the caller's transaction.
"""

from django.db import connection

from tdmanager.compiled import Compiled, Inserts
from tdmanager.money import ZERO

from .. import signals
from ..house import HouseRules
from ..models import Entry, LedgerRow, Person, Sequence, Tournament
from ..signals import announce
from .events import Actor


def next_number(name: str) -> int:
    """The next value of a gapless counter, under a row lock held until the caller commits: one
    statement increments and reads it (the receipt counter is taken inside every sale's lock)."""
    qn = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {qn(Sequence._meta.db_table)} SET {qn('value')} = {qn('value')} + 1 WHERE {qn('name')} = %s "
                       f"RETURNING {qn('value')}", [name])
        row = cursor.fetchone()
    if row is None:  # the migration creates "receipt"; other counters start here
        Sequence.objects.get_or_create(name=name)
        return next_number(name)
    return row[0]


# Every sale, payout and floor action locks the tournament: its statement is compiled once.
_LOCK = Compiled(lambda pk: Tournament.objects.select_for_update().filter(pk=pk).order_by(), Tournament)
# The last entry number of a tournament (``new_entry``): the top of its (tournament, number) index.
_LAST_NUMBER = Compiled(lambda tid: Entry.objects.filter(tournament_id=tid).order_by("-number").values_list("number")[:1], Entry)
# Every sale writes an entry and a ledger row: their INSERTs compiled once (``Inserts``, as
# ``objects.create`` writes them: neither model's ``save()`` does more, no signal listens to them).
_NEW_ENTRY, _NEW_ROW = Inserts(Entry), Inserts(LedgerRow)


def lock_tournament(tournament_or_id) -> Tournament:
    """The tournament's row, read anew and locked until the caller commits
    (``select_for_update().get(pk=...)``, compiled once; ``Tournament.DoesNotExist`` when none)."""
    return _LOCK.get(int(getattr(tournament_or_id, "pk", tournament_or_id)))


def new_entry(t: Tournament, person: Person, *, status: str, pre_registered: bool, now, chips: int | None = None,
              previous: int | None = None, number: int | None = None) -> Entry:
    """A new entry numbered after the last; ``previous``: the person's entries in ``t`` not
    cancelled, when the caller has counted them already; ``number``: the last entry's number
    plus one, when the caller has read it already (under the tournament's lock)."""
    if number is None:
        last = _LAST_NUMBER.rows(t.pk)
        number = (last[0][0] if last else 0) + 1
    if previous is None:
        previous = t.entries.filter(person=person).exclude(status=Entry.CANCELLED).count()
    entry = Entry(
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
    _NEW_ENTRY.insert([entry])
    return entry


def write_row(t, *, kind, entry, person, prize, fee, chips, method, actor, side=ZERO, jackpot=ZERO, reason="", reference="", payee="",
              reverses=None, note="", tender=None, owed=ZERO, settles=None):
    """One append-only row with the next receipt number. ``tender`` (``fees.Tender``): the sale
    was paid in a foreign currency (REG-06): the row keeps the currency, the amount tendered for
    its total and the rate; its amounts stay in the tournament's currency. ``owed`` (REG-09): an
    amount owed, not received (a RECEIVABLE row, its SETTLEMENT pointing at it by ``settles``)."""
    foreign = {}
    if tender is not None:
        total = prize + fee + side + jackpot
        foreign = {"tender_currency": tender.currency, "exchange_rate": tender.rate,
                   "tender_amount": tender.due(total) if total >= 0 else -tender.due(-total)}
    row = LedgerRow(
        **foreign,
        tournament=t,
        entry=entry,
        person=person,
        kind=kind,
        prize_amount=prize,
        fee_amount=fee,
        side_amount=side,
        jackpot_amount=jackpot,
        currency=t.currency,
        chips=chips,
        method=method,
        reference=reference,
        payee=payee,
        cashier=actor.user,
        receipt_number=next_number("receipt"),
        reverses=reverses,
        reason=reason,
        note=note,
        owed_amount=owed,
        settles=settles,
    )
    _NEW_ROW.insert([row])
    return row


def late_stack(t: Tournament) -> int:
    """REG-04 / C6: late registrants get a full stack unless the house reduces it
    (``HouseRules.late_stack``, which stack choice uses too)."""
    if t.status != Tournament.RUNNING:
        return t.starting_stack
    return HouseRules.of(t).late_stack(t.starting_stack)


def issue_paid_entry(t: Tournament, person: Person, *, actor: Actor, method: str, note: str, reference: str = "",
                     entry: Entry | None = None, now=None) -> tuple[Entry, LedgerRow]:
    """A paid place that did not cross the desk (a satellite seat, a ticket): ``entry`` (a
    reservation) or a new entry becomes playing with the late-registration stack, one BUY_IN
    row at the tournament's price records it, and seating is told."""
    if entry is None:
        entry = new_entry(t, person, status=Entry.ACTIVE, pre_registered=False, now=now)
    entry.status, entry.chips = Entry.ACTIVE, late_stack(t)
    entry.save(update_fields=["status", "chips"])
    row = write_row(t, kind=LedgerRow.BUY_IN, entry=entry, person=person, prize=t.buy_in, fee=t.fee, chips=entry.chips,
                    method=method, actor=actor, note=note, reference=reference)
    announce(signals.entry_paid, t, actor, entry=entry)
    return entry, row
