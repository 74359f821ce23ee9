"""The venue's progressive jackpot: its base, a royal flush claimed, the share paid (REG-11, PAY-12)."""

from __future__ import annotations

from datetime import datetime, time, timedelta

from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager.errors import ValidationFailed
from tdmanager.money import CENT, ZERO, floor_money, split_evenly, to_money
from tdmanager.transactions import service
from tournaments.cashier.ledger import lock_tournament, write_row
from tournaments.clock import selectors as clock_selectors
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.house import HouseRules
from tournaments.models import Entry, LedgerRow, Tournament

from ..models import JackpotClaim, JackpotFund, JackpotWin, PrizePayment
from ..selectors.jackpot import jackpot_balance, jackpot_fund, jackpot_lock, jackpot_paid_by, jackpot_tournaments
from .common import PayoutError, _money
from .prizes import check_cash_payout


def _jackpot_fund_for_update() -> JackpotFund:
    """The venue's one jackpot fund, locked: claims on it queue one behind the other."""
    fund = jackpot_fund()
    if fund is None:
        fund, _created = JackpotFund.objects.get_or_create(name="Jackpot")
    return JackpotFund.objects.select_for_update().get(pk=fund.pk)


def next_day(now) -> datetime:
    """The start of the venue's next day (local midnight) after ``now``."""
    day = timezone.localtime(now).date() + timedelta(days=1)
    return timezone.make_aware(datetime.combine(day, time.min))


@service
def set_jackpot_base(base, *, actor: Actor, name: str = "") -> JackpotFund:
    """The amount the fund starts from (and restarts from after a full win, PAY-12)."""
    fund = _jackpot_fund_for_update()
    fund.base = _money(base, _("The jackpot base"))
    if name.strip():
        fund.name = name.strip()[:120]
    fund.save(update_fields=["base", "name"])
    return fund


@service
def claim_jackpot(tournament, entries, *, both_hole_cards: bool, actor: Actor, now=None, note: str = "") -> JackpotWin:
    """The floor records a royal flush verified at the table (PAY-12).

    ``entries``: the players who made a royal flush in this hand (two at once share the win,
    ``jackpot_split``). It wins only with both hole cards, only for players who paid the fee
    (REG-11), ``jackpot_full_percent`` of the fund up to the end of ``jackpot_full_until_level``,
    ``jackpot_late_percent`` after it until late registration closes, nothing after that. A win
    locks the fund for every tournament until the next day; then it restarts per
    ``jackpot_restart``. The level is the clock's at the time of the claim."""
    now = now or timezone.now()
    t = lock_tournament(tournament)
    rules = HouseRules.of(t)
    if not rules.jackpot:
        raise PayoutError("jackpot_not_offered", _("This tournament does not take part in the jackpot."))
    if actor.user is None:
        raise ValidationFailed("verifier_required", _("A royal flush is verified by a floor user, who signs the claim."))
    if not both_hole_cards:
        raise PayoutError("jackpot_needs_both_hole_cards", _("Only a royal flush made with both hole cards and three cards of the board wins the jackpot."))
    ids = [getattr(e, "pk", e) for e in entries]
    if not ids or len(set(ids)) != len(ids):
        raise ValidationFailed("bad_entries", _("Name each player with a royal flush once."))
    found = {e.pk: e for e in Entry.objects.select_related("person").filter(tournament=t, pk__in=ids)}
    if len(found) != len(ids):
        raise ValidationFailed("bad_entries", _("Every player must be an entry of this tournament."))
    winners = [found[i] for i in ids]
    for e in winners:
        if e.status != Entry.ACTIVE:
            raise PayoutError("entry_not_playing", _("%(name)s is not playing in this tournament.") % {"name": e.person.full_name})
        if not jackpot_paid_by(e):
            raise PayoutError("jackpot_not_bought", _("%(name)s did not pay the jackpot fee: only its buyers can win it.") % {"name": e.person.full_name})
    level = clock_selectors.level_now(t, now)
    if t.status != Tournament.RUNNING or level is None:
        raise PayoutError("clock_not_running", _("The jackpot is won during play: start the clock first."))
    if level <= rules.jackpot_full_until_level:
        percent = rules.jackpot_full_percent
    elif clock_selectors.late_registration_open(t, now):
        percent = rules.jackpot_late_percent
    else:
        raise PayoutError("jackpot_window_over", _("Late registration is closed: the jackpot can no longer be won in this tournament."))
    percent = to_money(percent).quantize(CENT)  # two decimals, as stored
    fund = _jackpot_fund_for_update()
    lock = jackpot_lock(fund, now)
    if lock is not None:
        raise PayoutError("jackpot_locked", _("The jackpot was won today in %(t)s: it can be won again from tomorrow.") % {"t": lock.tournament.name})
    before = jackpot_balance(fund, now)
    amount = floor_money(before * percent / 100)
    if amount <= 0:
        raise PayoutError("jackpot_empty", _("The jackpot fund is empty."))
    if rules.jackpot_split == "FIRST_CLAIM":
        winners = winners[:1]
    remaining = before - amount
    full = level <= rules.jackpot_full_until_level
    reseed = max(fund.base - remaining, ZERO) if full and rules.jackpot_restart == "BASE_AFTER_FULL" else ZERO
    win = JackpotWin.objects.create(
        fund=fund,
        tournament=t,
        level=level,
        percent=percent,
        fund_before=before,
        amount=amount,
        both_hole_cards=True,
        verified_by=actor.user,
        note=note.strip()[:200],
        created_at=now,
        locked_until=next_day(now),
        reseed=reseed,
    )
    claims = [JackpotClaim.objects.create(win=win, entry=e, amount=share) for e, share in zip(winners, split_evenly(amount, len(winners)))]
    log_event(
        t,
        Action.PAYOUTS_JACKPOT_WON,
        actor,
        win=win.pk,
        level=level,
        percent=str(percent),
        fund=str(before),
        amount=str(amount),
        winners=[{"entry": c.entry_id, "name": c.entry.person.full_name, "amount": str(c.amount)} for c in claims],
        locked_until=win.locked_until.isoformat(),
        note=win.note,
    )
    # Every other tournament playing for the jackpot hears that it is locked until tomorrow.
    for other in jackpot_tournaments(exclude=t):
        log_event(other, Action.PAYOUTS_JACKPOT_LOCKED, actor, win=win.pk, won_in=t.name, locked_until=win.locked_until.isoformat())
    return win


@service
def pay_jackpot(claim, *, method: str, actor: Actor, reference: str = "", payee: str = "") -> PrizePayment:
    """The desk pays a winner's share out of the fund: a PAYOUT row whose jackpot column takes
    the money out (never the prize pool), a payment with its slip. One operation, cash only up
    to the cash limit, else a cheque or transfer in the winner's name (REG-06)."""
    claim = JackpotClaim.objects.select_related("win").get(pk=getattr(claim, "pk", claim))
    t = lock_tournament(claim.win.tournament_id)
    claim = JackpotClaim.objects.select_related("win", "entry__person", "payment").get(pk=claim.pk)
    if claim.paid:
        raise PayoutError("already_paid", _("This jackpot has already been paid (receipt %(n)s).") % {"n": claim.payment.row.receipt_number})
    person, amount = claim.entry.person, claim.amount
    payee = check_cash_payout(t, person, amount, method=method, reference=reference, payee=payee)
    row = write_row(
        t,
        kind=LedgerRow.PAYOUT,
        entry=claim.entry,
        person=person,
        prize=ZERO,
        fee=ZERO,
        jackpot=-amount,
        chips=0,
        method=method,
        actor=actor,
        reference=reference.strip(),
        payee=payee,
        note="jackpot",
    )
    payment = PrizePayment.objects.create(
        tournament=t,
        entry=claim.entry,
        source=f"JACKPOT:{claim.pk}",
        kind="CASH",
        place=None,
        amount=amount,
        method=method,
        reference=reference.strip(),
        payee=payee,
        row=row,
        paid_by=actor.user,
    )
    claim.payment = payment
    claim.save(update_fields=["payment"])
    log_event(
        t,
        Action.PAYOUTS_JACKPOT_PAID,
        actor,
        claim=claim.pk,
        entry=claim.entry_id,
        name=person.full_name,
        amount=str(amount),
        method=method,
        receipt=row.receipt_number,
    )
    return payment
