"""Payout services: the only code that changes payout state.

Each public function is one ``transaction.atomic()`` unit: it locks the tournament row
first (``lock_tournament``), checks the rules, writes the rows, writes one event-log row
(``payouts.<noun>.<verb>``) and the change is published on commit. Money moves only
through the ledger's public service (``tournaments.services.ledger.write_row``): a prize paid is a
PAYOUT row with a negative prize part, a side prize a SIDE row with a negative side part.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from decimal import Decimal, InvalidOperation

from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from seating import selectors as seating_selectors
from tdmanager import formatting
from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.money import CENT, ZERO, floor_money, split_evenly, to_money
from tdmanager.roles import CONTROLLER, DIRECTOR, user_roles
from tdmanager.transactions import service
from tournaments import clockview
from tournaments.actions import Action
from tournaments.house import HouseRules
from tournaments.models import Clock, Entry, LedgerRow, Tournament
from tournaments.services import cashier
from tournaments.services.cashier import DeskError, check_cash_limit, check_cash_split, check_method
from tournaments.services.events import Actor, log_event
from tournaments.services.ledger import issue_paid_entry, lock_tournament, write_row

from . import deals as deal_engine
from . import selectors as sel
from .models import (
    POOL_FUNDED,
    PRIZE_KINDS,
    Deal,
    DealAcceptance,
    JackpotClaim,
    JackpotFund,
    JackpotWin,
    PayoutTable,
    PayoutTemplate,
    Prize,
    PrizePayment,
    RankingSignoff,
    SatelliteLink,
    SideAward,
    SideContribution,
    SidePool,
    Ticket,
)

# The deal engine's refusals (``payouts.deals.DealError`` codes) as the reader reads them: in
# the page's language, the numbers they name in its format.
DEAL_REFUSALS = {
    "too_few_players": gettext_lazy("A deal needs at least two players in play."),
    "bad_stack": gettext_lazy("Every player in a deal needs a stack of chips."),
    "bad_amount": gettext_lazy("Every amount of a deal must be an amount of money."),
    "amount_negative": gettext_lazy("No amount of a deal can be negative."),
    "amount_not_in_cents": gettext_lazy("The amounts of a deal have at most two decimals."),
    "reserve_negative": gettext_lazy("The reserve cannot be negative."),
    "reserve_too_large": gettext_lazy("The reserve is more than the deal can share: keep it at most the 1st prize."),
    "wrong_total": gettext_lazy("The deal pays %(total)s, but the prizes left are %(expected)s."),
    "wrong_number_of_places": gettext_lazy("The deal gives %(amounts)s amounts for %(places)s places in play."),
    "not_strictly_decreasing": gettext_lazy("Place %(place)s (%(amount)s) must be paid less than place %(previous_place)s (%(previous)s)."),
}


def deal_refusal(exc: deal_engine.DealError) -> str:
    """A ``DealError`` in words for the person refused."""
    message = DEAL_REFUSALS.get(exc.code)
    if message is None:
        return exc.message
    params = {k: formatting.money(v) if isinstance(v, Decimal) else formatting.num(v) for k, v in exc.params.items()}
    return str(message) % params if params else str(message)


PAYOUT_METHODS = (LedgerRow.CASH, LedgerRow.CHEQUE, LedgerRow.TRANSFER)


class PayoutError(DomainError):
    """A payout action refused by a rule; ``code`` says which."""


def _money(value, what="amount") -> Decimal:
    try:
        amount = to_money(str(value) if not isinstance(value, (Decimal, int, str)) else value)
    except (TypeError, InvalidOperation, ValueError):
        raise ValidationFailed("bad_amount", _("%(what)s is not an amount of money.") % {"what": what})
    if not amount.is_finite() or abs(amount) >= Decimal("1e11") or amount != amount.quantize(CENT):  # 13 digits, 2 after the point
        raise ValidationFailed("bad_amount", _("%(what)s must be a whole number of cents.") % {"what": what})
    if amount < 0:
        raise ValidationFailed("bad_amount", _("%(what)s cannot be negative.") % {"what": what})
    return amount.quantize(CENT)


def _table(t) -> PayoutTable:
    table, _created = PayoutTable.objects.get_or_create(tournament=t)
    return table


def _same_name(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


# --- the payout table ---------------------------------------------------------------------


def validate_prizes(prizes, pool_total: Decimal) -> list[dict]:
    """A payout table the director wrote: places 1..N each with a prize, pool-funded values
    non-increasing by place (PAY-03) and adding up exactly to the prize pool (PAY-05)."""
    kinds = dict(PRIZE_KINDS)
    out = []
    for p in prizes:
        try:
            place = int(p["place"])
        except (KeyError, TypeError, ValueError):
            raise ValidationFailed("bad_place", _("Every prize needs a place number."))
        kind = str(p.get("kind") or "CASH").upper()
        if place < 1 or kind not in kinds:
            raise ValidationFailed("bad_prize", _("Place %(p)s: unknown prize or place.") % {"p": place})
        target = p.get("target")
        target_id = getattr(target, "pk", target) or None
        out.append({"place": place, "kind": kind, "amount": _money(p.get("amount", "0"), _("Place %(p)s") % {"p": place}),
                    "description": str(p.get("description") or "")[:200], "target": target_id})
    if not out:
        raise ValidationFailed("empty_table", _("A payout table needs at least one place."))
    out.sort(key=lambda p: p["place"])
    places = {p["place"] for p in out}
    last = max(places)
    if places != set(range(1, last + 1)):
        missing = min(set(range(1, last + 1)) - places)
        raise ValidationFailed("missing_place", _("Place %(p)s has no prize: places must run from 1 without gaps.") % {"p": missing})
    values = sel.place_values(out)
    for i in range(1, len(values)):
        if values[i] > values[i - 1]:
            raise PayoutError("not_non_increasing", _("Place %(a)s (%(x)s) cannot be paid more than place %(b)s (%(y)s).")
                              % {"a": i + 1, "x": values[i], "b": i, "y": values[i - 1]}, status=400)
    total = sum(values, ZERO)
    if total != pool_total:
        raise PayoutError("wrong_total", _("The prizes add up to %(t)s but the prize pool is %(p)s (%(d)s %(dir)s).")
                          % {"t": total, "p": pool_total, "d": abs(total - pool_total),
                             "dir": _("over") if total > pool_total else _("short")}, status=400)
    return out


def _check_paid_places_unchanged(t, new_prizes):
    """A place already paid keeps its prize: the money is out of the door."""
    old = sel.table_prizes(t)
    paid_places = {d["place"] for d in sel.dues(t, old) if d["paid"] and d["source"].startswith("MAIN:")}
    for place in paid_places:
        before = sorted((p["kind"], str(p["amount"])) for p in old if p["place"] == place)
        after = sorted((p["kind"], str(p["amount"])) for p in new_prizes if p["place"] == place)
        if before != after:
            raise PayoutError("place_already_paid", _("Place %(p)s has already been paid: its prize cannot change.") % {"p": place})


def _store(t, table, prizes, *, state, pool_total):
    table.prizes.all().delete()
    Prize.objects.bulk_create(
        Prize(table=table, place=p["place"], kind=p["kind"], amount=p["amount"], description=p["description"], target_id=p["target"])
        for p in prizes
    )
    table.state = state
    table.prize_pool = pool_total
    table.version += 1
    table.save()


def _save_table(t, prizes, *, actor, reason, action, **payload):
    table = _table(t)
    locked = table.state == PayoutTable.LOCKED
    if locked and not reason.strip():
        raise ValidationFailed("reason_required", _("The payout table is published: a change needs a reason (PAY-05)."))
    pool_total = sel.prize_pool(t) if sel.satellite_link(t) is None else sel.satellite_pool(t)
    prizes = validate_prizes(prizes, pool_total)
    _check_paid_places_unchanged(t, prizes)
    _store(t, table, prizes, state=PayoutTable.LOCKED if locked else PayoutTable.EDITED, pool_total=pool_total)
    log_event(t, action, actor, state=table.state, after_lock=locked, reason=reason, prize_pool=str(pool_total),
              prizes=[{"place": p["place"], "kind": p["kind"], "amount": str(p["amount"])} for p in prizes], **payload)
    return table


@service
def edit_payout_table(tournament, prizes, *, actor: Actor, reason: str = "") -> PayoutTable:
    """The director writes the payout table: ``prizes`` = [{"place", "kind", "amount",
    "description", "target"}]. Validated (non-increasing, exact total). Once locked, a change
    needs a reason and is logged as such (PAY-05)."""
    t = lock_tournament(tournament)
    return _save_table(t, prizes, actor=actor, reason=reason, action=Action.PAYOUTS_TABLE_EDITED)


@service
def reset_payout_table(tournament, *, actor: Actor) -> PayoutTable:
    """Back to the automatic proposal (it follows the entries again). Not once locked."""
    t = lock_tournament(tournament)
    table = _table(t)
    if table.state == PayoutTable.LOCKED:
        raise PayoutError("table_locked", _("The payout table is locked and published; edit it with a reason instead."))
    table.prizes.all().delete()
    table.state, table.prize_pool = PayoutTable.AUTO, ZERO
    table.version += 1
    table.save()
    log_event(t, Action.PAYOUTS_TABLE_PROPOSED, actor, places=sel.places_paid(t))
    return table


@service
def apply_template(tournament, template: PayoutTemplate, *, actor: Actor, reason: str = "") -> PayoutTable:
    """Apply a venue template: each place its percentage of the pool, floored to the rounding
    unit; what the flooring leaves goes to 1st place (PAY-05)."""
    t = lock_tournament(tournament)
    total = sel.prize_pool(t)
    unit = HouseRules.of(t).payout_rounding
    percents = [Decimal(str(p)) for p in template.percents]
    amounts = [floor_money(total * p / 100, unit) for p in percents]
    if amounts:
        amounts[0] += total - sum(amounts, ZERO)
    prizes = [{"place": i, "kind": "CASH", "amount": a} for i, a in enumerate(amounts, start=1)]
    return _save_table(t, prizes, actor=actor, reason=reason, action=Action.PAYOUTS_TEMPLATE_APPLIED, template=template.name)


@service
def lock_payout_table(tournament, *, actor: Actor) -> PayoutTable:
    """Lock and publish the payout table (PAY-05). The automatic proposal is frozen as it
    stands; an edited table must add up to the prize pool of now."""
    t = lock_tournament(tournament)
    table = _table(t)
    if table.state == PayoutTable.LOCKED:
        raise PayoutError("already_locked", _("The payout table is already locked."))
    link = sel.satellite_link(t)
    pool_total = sel.satellite_pool(t, link) if link else sel.prize_pool(t)
    prizes = validate_prizes(sel.table_prizes(t), pool_total)
    _store(t, table, prizes, state=PayoutTable.LOCKED, pool_total=pool_total)
    table.locked_at, table.locked_by = timezone.now(), actor.user
    table.save(update_fields=["locked_at", "locked_by"])
    log_event(t, Action.PAYOUTS_TABLE_LOCKED, actor, prize_pool=str(pool_total), places=len({p["place"] for p in prizes}))
    return table


@service
def save_payout_template(name: str, percents, *, actor: Actor, template: PayoutTemplate | None = None) -> PayoutTemplate:
    """A venue template: percentages by place, non-increasing, adding up to 100."""
    name = (name or "").strip()
    if not name:
        raise ValidationFailed("name_required", _("A template needs a name."))
    try:
        values = [Decimal(str(p)) for p in percents]
    except (InvalidOperation, ValueError, TypeError):
        raise ValidationFailed("bad_percent", _("Percentages must be numbers."))
    if not values or any(v <= 0 for v in values):
        raise ValidationFailed("bad_percent", _("Every place needs a positive percentage."))
    if any(b > a for a, b in zip(values, values[1:])):
        raise ValidationFailed("not_non_increasing", _("A lower place cannot get a larger percentage."))
    if sum(values) != 100:
        raise ValidationFailed("percent_total", _("The percentages add up to %(t)s, not 100.") % {"t": sum(values)})
    if template is None:
        template = PayoutTemplate(name=name)
    template.name, template.percents = name, [str(v) for v in values]
    template.save()
    log_event(None, Action.PAYOUTS_TEMPLATE_SAVED, actor, template=name, percents=template.percents)
    return template


# --- ranking sign-off -------------------------------------------------------------------


@service
def sign_off_ranking(tournament, *, actor: Actor) -> RankingSignoff:
    """Sign the ranking as it stands (ELM-07, ROLE-01). Prizes of a place are released once the
    director (the inspector) and the administrative controller, two different people, have
    signed it. A floor or cashier login cannot give either signature."""
    t = lock_tournament(tournament)
    roles = user_roles(actor.user)
    if CONTROLLER in roles:
        role = RankingSignoff.CONTROLLER
    elif DIRECTOR in roles:
        role = RankingSignoff.DIRECTOR
    else:
        raise PayoutError("not_a_signer", _("The ranking is signed by the director and the administrative controller."), status=403)
    snapshot = sel.ranking_snapshot(t)
    if not snapshot:
        raise PayoutError("nothing_to_sign", _("No finishing place has been decided yet."))
    if RankingSignoff.objects.filter(tournament=t, user=actor.user, snapshot=snapshot).exists():
        raise PayoutError("already_signed", _("You have already signed this ranking; a second person must sign it."))
    signoff = RankingSignoff.objects.create(tournament=t, user=actor.user, role=role, snapshot=snapshot)
    log_event(t, Action.PAYOUTS_RANKING_SIGNED, actor, role=role, places=len(snapshot))
    return signoff


# --- paying prizes -------------------------------------------------------------------------


def check_cash_payout(t, person, amount, *, method: str, reference: str, payee: str) -> str:
    """REG-06, PAY-13: money handed to a winner (a prize, a side prize, the jackpot) in one
    operation: cash only up to the cash limit, and not split into several cash operations;
    above it a cheque or a bank transfer with its reference. Made out to the registered winner;
    returns the payee."""
    check_method(method)
    if method not in PAYOUT_METHODS:
        raise ValidationFailed("bad_payout_method", _("A prize is paid in cash, by cheque or by bank transfer."))
    if method == LedgerRow.CASH:
        try:
            check_cash_limit(t, amount, method)
        except DeskError:
            raise PayoutError("cash_limit_exceeded", _("%(a)s %(c)s is above the cash limit: pay it by cheque or bank transfer in the winner's name.")
                              % {"a": amount, "c": t.currency})
        check_cash_split(t, person, amount)  # REG-06: no splitting into several cash operations
    elif not reference.strip():
        raise ValidationFailed("reference_required", _("Enter the cheque number or the transfer reference."))
    payee = payee.strip() or person.full_name
    if not _same_name(payee, person.full_name):
        raise PayoutError("payee_mismatch", _("The payee must be the winner, %(name)s, as registered.") % {"name": person.full_name})
    return payee


@service
def pay_prize(entry, *, method: str, actor: Actor, source: str = "MAIN:CASH", reference: str = "", payee: str = "") -> PrizePayment:
    """Pay one prize won by ``entry`` in one operation, never split (REG-06, PAY-13).

    Cash only up to the cash limit; above it, a cheque or a bank transfer with its reference,
    made out to the registered winner's full name. Needs the published table and the ranking
    sign-off of that place (ELM-07). A ticket prize issues the ticket; an item is handed over.
    """
    t = lock_tournament(entry.tournament_id)
    entry = Entry.objects.select_related("person").get(pk=entry.pk)
    if source.startswith("MAIN:") and sel.table_state(t) != PayoutTable.LOCKED:
        raise PayoutError("table_not_locked", _("The payout table must be locked and published before paying prizes."))
    due = sel.due_for(t, entry, source)
    if due is None or (due["kind"] != "ITEM" and due["amount"] <= 0):
        raise PayoutError("nothing_due", _("%(name)s has no prize to collect here.") % {"name": entry.person.full_name})
    if due["paid"]:
        raise PayoutError("already_paid", _("This prize has already been paid (receipt %(n)s).")
                          % {"n": due["payment"].row.receipt_number if due["payment"].row_id else "—"})
    if due["forfeited"]:
        raise PayoutError("prize_forfeited", _("%(name)s was eliminated without prize (PEN-07): place %(p)s is not paid.")
                          % {"name": entry.person.full_name, "p": due["place"]})
    if due["held"]:
        raise PayoutError("prize_held", _("This prize is shared between tied players: the director decides who gets it."))
    if not due["released"]:
        raise PayoutError("ranking_not_signed_off", _("Place %(p)s is not released: the ranking needs two sign-offs (the director and the administrative controller).") % {"p": due["place"]})
    person, amount, kind = entry.person, due["amount"], due["kind"]
    side = source.startswith("SIDE:")
    # What the receipt says: the place for the main prizes, else which prize (a side pool, a
    # flight's chip-leader prize, PAY-08).
    note = f"place {due['place']}" if source.startswith("MAIN:") else due["description"]
    if source == sel.FORFEIT_SOURCE:
        note = f"place {due['place']}: {due['description']}"  # a share of a forfeited prize (PEN-07)
    row = ticket = None
    if kind == "CASH":
        payee = check_cash_payout(t, person, amount, method=method, reference=reference, payee=payee)
        row = write_row(
            t, kind=LedgerRow.SIDE if side else LedgerRow.PAYOUT, entry=entry, person=person,
            prize=ZERO if side else -amount, fee=ZERO, side=-amount if side else ZERO, chips=0, method=method, actor=actor,
            reference=reference.strip(), payee=payee, note=note[:200],
        )
    elif kind == "TICKET":
        ticket = Ticket.objects.create(holder=person, target_id=due["target"], value=amount, description=due["description"] or _("Prize ticket"), source=t)
        method, payee = LedgerRow.OTHER, person.full_name
        row = write_row(t, kind=LedgerRow.PAYOUT, entry=entry, person=person, prize=-amount, fee=ZERO, chips=0, method=method,
                         actor=actor, payee=payee, reference=f"ticket {ticket.pk}", note=f"{note}: ticket"[:200])
    elif kind == "ITEM":
        method, payee = "", person.full_name
    else:
        raise PayoutError("seat_via_satellite", _("Seats are handed out when the satellite ends."))
    payment = PrizePayment.objects.create(
        tournament=t, entry=entry, source=source, kind=kind, place=due["place"], amount=amount, method=method,
        reference=reference.strip(), payee=payee, row=row, ticket=ticket, paid_by=actor.user,
    )
    log_event(t, Action.PAYOUTS_PRIZE_PAID, actor, entry=entry.pk, name=person.full_name, place=due["place"], kind=kind,
              amount=str(amount), method=method, receipt=row.receipt_number if row else None, source=source)
    return payment


# --- satellites ---------------------------------------------------------------------------


@service
def link_satellite(satellite, target, *, actor: Actor, remainder_rule: str | None = None,
                   prize_base: str | None = None, already_registered: str = SatelliteLink.TICKET) -> SatelliteLink:
    """Make ``satellite`` award seats in ``target`` (FMT-08). ``remainder_rule`` (C13) and
    ``prize_base`` (C14) not named: the satellite's house rules (``satellite_remainder_rule``,
    ``satellite_prize_base``: cash to the first place without a seat, gross). ``already_registered``:
    what a winner the target does not take (already registered there, or refused by its desk rules)
    gets instead of the seat: a ticket for the target (TICKET) or the seat's value in money (CASH)."""
    t = lock_tournament(satellite)
    rules = HouseRules.of(t)
    remainder_rule = remainder_rule or rules.satellite_remainder_rule
    prize_base = prize_base or rules.satellite_prize_base
    if t.pk == getattr(target, "pk", target):
        raise ValidationFailed("bad_target", _("A satellite cannot award seats to itself."))
    target = Tournament.objects.get(pk=getattr(target, "pk", target))
    if target.status in (Tournament.FINISHED, Tournament.CANCELLED):
        raise PayoutError("target_closed", _("%(name)s has already ended.") % {"name": target.name})
    if target.entry_price <= 0:
        # A seat is worth the target's buy-in and fee: a free target has no seats to award.
        raise ValidationFailed("target_without_price", _("%(name)s has no price: a satellite awards seats worth its buy-in and fee.") % {"name": target.name})
    if remainder_rule == SatelliteLink.CHUNKS and t.entry_price <= 0:
        raise ValidationFailed("satellite_without_price", _("The chunks rule splits the remainder in this satellite's own entry price: give it a price."))
    if remainder_rule not in dict(SatelliteLink.REMAINDER_RULES) or prize_base not in dict(SatelliteLink.BASES):
        raise ValidationFailed("bad_setting", _("Unknown remainder rule or prize base."))
    if already_registered not in dict(SatelliteLink.ALREADY_REGISTERED):
        raise ValidationFailed("bad_already_registered", _("A winner already registered in the target gets a TICKET or CASH."))
    link = SatelliteLink.objects.filter(satellite=t).first()
    if link and link.completed_at:
        raise PayoutError("already_completed", _("The seats of this satellite have already been awarded."))
    link = link or SatelliteLink(satellite=t)
    link.target, link.remainder_rule, link.prize_base, link.already_registered = target, remainder_rule, prize_base, already_registered
    link.save()
    if t.format != Tournament.SATELLITE:
        t.format = Tournament.SATELLITE
        t.save(update_fields=["format"])
    log_event(t, Action.PAYOUTS_SATELLITE_LINKED, actor, target=target.pk, remainder_rule=remainder_rule, prize_base=prize_base,
              already_registered=already_registered)
    return link


def _award_seat(sat, target, link, entry, value, actor, now) -> PrizePayment | None:
    """One seat: a paid entry in the target (ledger row method OTHER, note "satellite seat"),
    issued under the desk's rules (``cashier.check_admission``: the target's late-registration
    window, ban list, field cap, freezeout and most entries, duplicates). A winner the target
    does not take (already registered there, or refused by one of those rules) gets what
    ``link.already_registered`` says (FMT-08 [CONFIG]): a ticket for the target (TICKET, default),
    or the seat's value in money (CASH: paid at the desk after the sign-off, like a cash prize;
    None here)."""
    person = entry.person
    seat_entry = ticket = None
    try:
        reserved = cashier.check_admission(target, person, cashier.SATELLITE_SEAT, now)
    except DeskError:
        if link.already_registered == SatelliteLink.CASH:
            return None
        ticket = Ticket.objects.create(holder=person, target=target, value=value, source=sat,
                                       description=_("Satellite seat: %(t)s") % {"t": target.name})
        reference = f"ticket {ticket.pk}"
    else:
        seat_entry, _row = issue_paid_entry(target, person, actor=actor, method=LedgerRow.OTHER, note="satellite seat",
                                            reference=f"satellite {sat.pk}", entry=reserved, now=now)
        reference = f"{target.name[:50]} entry #{seat_entry.number}"
    row = write_row(sat, kind=LedgerRow.PAYOUT, entry=entry, person=person, prize=-value, fee=ZERO, chips=0,
                     method=LedgerRow.OTHER, actor=actor, payee=person.full_name, reference=reference, note="satellite seat")
    return PrizePayment.objects.create(tournament=sat, entry=entry, source="MAIN:SEAT", kind="SEAT", place=entry.place, amount=value,
                                       method=LedgerRow.OTHER, reference=reference, payee=person.full_name, row=row,
                                       ticket=ticket, seat_entry=seat_entry, paid_by=actor.user)


def _seat_winners(t, players: list, seats: int) -> tuple[list, list]:
    """FMT-08 with ELM-02 / ELM-06: who wins a seat once no more than ``seats`` players are left.

    The players left win seats, and so do the players out on the bust that took the field below
    the seats (a same-hand bust of two at 8 left for 7 seats) whose place is a seat place: ranked
    by their starting stacks (ELM-02), the bigger stack takes 7th and the seat. A tie group whose
    places run past the last seat (equal stacks: both 7th, places 7–8) cannot split a seat: it
    shares the value of the places it covers in money (ELM-06: Σ prize(k … k+m−1) ÷ m each).
    Returns ``(busted seat winners, [(place, size)] of the groups that share in money)``."""
    winners, shared = [], []
    for place, members in sorted(sel.place_groups(t).items()):
        if place <= len(players) or place > seats:
            continue
        if place + len(members) - 1 <= seats:
            winners.extend(members)
        else:
            shared.append((place, len(members)))
    return winners, shared


@service
def complete_satellite(satellite, *, actor: Actor, now=None) -> list[PrizePayment]:
    """The satellite ends when no more players are left than seats (FMT-08): they are all seat
    winners (a shared 1st place), each gets an entry in the target (or what the link gives a
    winner the target does not take), the payout table is locked and the satellite is finished.
    When the last bust took out more players than there were seats left, the busted players
    whose place is a seat place win the remaining seats, and a tie over the last seat shares it
    in money (``_seat_winners``). The cash remainder (place seats + 1 by default) is then paid at
    the desk like any prize, after the ranking sign-off."""
    now = now or timezone.now()
    t = lock_tournament(satellite)
    link = sel.satellite_link(t)
    if link is None:
        raise PayoutError("not_a_satellite", _("This tournament is not linked to a target tournament."))
    if link.completed_at:
        raise PayoutError("already_completed", _("The seats of this satellite have already been awarded."))
    target = lock_tournament(link.target_id)
    if target.status in (Tournament.FINISHED, Tournament.CANCELLED):
        raise PayoutError("target_closed", _("%(name)s has already ended.") % {"name": target.name})
    awards = sel.satellite_awards(t, link)
    seats = sum(1 for a in awards if a.seat)
    players = list(t.entries.filter(status=Entry.ACTIVE).select_related("person").order_by("number"))
    if seats == 0:
        raise PayoutError("no_seats", _("The prize pool does not buy a single seat: play it as a normal tournament."))
    if len(players) > seats:
        raise PayoutError("seats_not_decided", _("%(n)s players are left for %(s)s seats: the satellite ends when they are equal.")
                          % {"n": len(players), "s": seats})
    busted_winners, shared = _seat_winners(t, players, seats)
    table = _table(t)
    pool_total = sel.satellite_pool(t, link)
    if table.state != PayoutTable.LOCKED:
        prizes = sel.proposed_prizes(t)
        for place, size in shared:  # a seat a tie group cannot split is its value in money, shared (ELM-06)
            for p in prizes:
                if place <= p["place"] < place + size and p["kind"] == "SEAT":
                    p.update(kind="CASH", description="", target=None)
        prizes = validate_prizes(prizes, pool_total)
        _store(t, table, prizes, state=PayoutTable.LOCKED, pool_total=pool_total)
        table.locked_at, table.locked_by = now, actor.user
        table.save(update_fields=["locked_at", "locked_by"])
    value = link.target.entry_price
    for e in players:
        e.place = 1  # a shared first place: every seat is worth the same
        e.save(update_fields=["place"])
    winners = players + busted_winners
    awarded = [(e, _award_seat(t, target, link, e, value, actor, now)) for e in winners]
    payments = [p for _e, p in awarded if p is not None]
    link.completed_at = now
    link.save(update_fields=["completed_at"])
    t.status = Tournament.FINISHED
    t.save(update_fields=["status"])
    Clock.objects.filter(tournament=t).exclude(status=Clock.FINISHED).update(status=Clock.FINISHED, ends_at=None, version=F("version") + 1)
    log_event(t, Action.PAYOUTS_SATELLITE_COMPLETED, actor, target=target.pk, seats=seats,
              winners=[{"entry": e.pk, "seat_entry": p.seat_entry_id if p else None, "ticket": p.ticket_id if p else None,
                        "cash": p is None} for e, p in awarded],
              shared=[{"place": place, "players": size} for place, size in shared])
    return payments


@service
def redeem_ticket(ticket, *, actor: Actor, tournament=None, now=None, confirm_final_table: bool = False) -> Entry:
    """Turn a ticket into a paid entry for its holder (ledger row method OTHER), under the
    desk's rules (``cashier.check_admission``): a ticket is a sale paid in advance, never a way
    around the late-registration window, the ban list, the field cap or a freezeout."""
    now = now or timezone.now()
    ticket = Ticket.objects.select_related("holder").get(pk=ticket.pk)
    target_id = ticket.target_id or getattr(tournament, "pk", tournament)
    if target_id is None:
        raise ValidationFailed("tournament_required", _("Choose the tournament this ticket is used for."))
    t = lock_tournament(target_id)
    ticket = Ticket.objects.select_for_update().select_related("holder").get(pk=ticket.pk)
    if ticket.status != Ticket.ISSUED:
        raise PayoutError("ticket_used", _("This ticket has already been used."))
    # The desk's rules: REG-04 window, REG-05 ban list, field cap, freezeout / most entries, duplicates.
    cashier.check_admission(t, ticket.holder, cashier.TICKET, now, confirm_final_table=confirm_final_table)
    entry, _row = issue_paid_entry(t, ticket.holder, actor=actor, method=LedgerRow.OTHER, note=f"ticket {ticket.pk}", now=now)
    ticket.status, ticket.redeemed_entry = Ticket.REDEEMED, entry
    ticket.save(update_fields=["status", "redeemed_entry"])
    log_event(t, Action.PAYOUTS_TICKET_REDEEMED, actor, ticket=ticket.pk, entry=entry.pk, name=ticket.holder.full_name)
    return entry


# --- deals ----------------------------------------------------------------------------------


def _final_table_size(t) -> int:
    """BAL-09 / PAY-09: the house rules' final-table size, the number seating combines at."""
    return HouseRules.of(t).final_table_size


def _deal_state(t, stacks: dict):
    """Players left, their stacks (by entry id) and the prizes of the places in play."""
    players = list(t.entries.filter(status=Entry.ACTIVE).select_related("person").order_by("number"))
    ids = [e.pk for e in players]
    try:
        chips = {int(k): int(v) for k, v in stacks.items()}
    except (TypeError, ValueError):
        raise ValidationFailed("bad_stack", _("Stacks must be whole chip counts."))
    if set(chips) != set(ids):
        raise PayoutError("stacks_mismatch", _("Enter one stack for each of the %(n)s players still in, and no one else.") % {"n": len(ids)}, status=400)
    if any(v <= 0 for v in chips.values()):
        raise ValidationFailed("bad_stack", _("Every player in a deal must have chips."))
    prizes = sel.table_prizes(t)
    n = len(players)
    in_play = [p for p in prizes if p["place"] <= n]
    left = deal_engine.prizes_left(sel.place_values(prizes), n)
    return players, [chips[i] for i in ids], left, in_play


def _deal_policy(t, n: int, rules: HouseRules | None = None) -> str | None:
    """Why PAY-09 / ROLE-08 refuse a deal now (None: allowed): final table only (at most the
    house's final-table size left and, once seated, all at one table), never while streaming."""
    rules = rules or HouseRules.of(t)
    size = rules.final_table_size
    if rules.streaming_live:
        return _("The TV table is streaming live: no deal can be discussed or recorded (ROLE-08).")
    if n < 2:
        return _("A deal needs at least two players.")
    if n > size:
        return _("Deals are allowed only at the final table: %(n)s players are left, the final table is %(s)s (PAY-09).") % {"n": n, "s": size}
    if len(seating_selectors.table_numbers(t)) > 1:
        return _("Deals are allowed only at the final table: the players left are not at one table yet (PAY-09).")
    return None


def _deal_refused(t, n: int) -> None:
    rules = HouseRules.of(t)
    problem = _deal_policy(t, n, rules)
    if problem:
        raise PayoutError("deal_streaming" if rules.streaming_live else "not_final_table", problem)


def _check_not_streaming(t) -> None:
    if HouseRules.of(t).streaming_live:
        raise PayoutError("deal_streaming", _("The TV table is streaming live: no deal can be discussed or recorded (ROLE-08)."))


def _by_place(amounts, reserve: Decimal) -> list[Decimal]:
    ladder = deal_engine.deal_ladder(amounts)
    ladder[0] += reserve  # the reserve is what 1st place plays for on top of his guarantee
    return ladder


def deal_options(tournament, stacks: dict, *, reserve=ZERO) -> dict:
    """The deal calculator (read-only): ICM, chip chop and even chop side by side for the
    stacks entered, each also written per finishing place and checked against PAY-09."""
    t = Tournament.objects.get(pk=getattr(tournament, "pk", tournament))
    reserve = _money(reserve, _("The reserve"))
    players, chips, left, _in_play = _deal_state(t, stacks)
    total = sum(chips)
    methods = {}
    for method, fn in ((Deal.ICM, deal_engine.icm_deal), (Deal.CHIP_CHOP, deal_engine.chip_chop), (Deal.EVEN, deal_engine.even_chop)):
        try:
            amounts = fn(chips, left, reserve=reserve)
        except deal_engine.DealError as exc:
            methods[method] = {"error": exc.code, "detail": deal_refusal(exc)}
            continue
        by_place = _by_place(amounts, reserve)
        try:
            deal_engine.validate_deal_by_place(by_place, left)
            problem = None
        except deal_engine.DealError as exc:
            problem = {"code": exc.code, "detail": deal_refusal(exc)}
        methods[method] = {"by_player": [sel.money(a) for a in amounts], "by_place": [sel.money(a) for a in by_place], "policy_problem": problem}
    return {
        "players": [{"entry": e.pk, "name": e.person.full_name, "stack": c, "chip_share": f"{100 * c / total:.2f}"} for e, c in zip(players, chips)],
        "prizes_left": [sel.money(p) for p in left],
        "total": sel.money(sum(left, ZERO)),
        "reserve": sel.money(reserve),
        "methods": methods,
        "policy": _deal_policy(t, len(players)),
        "streaming_live": HouseRules.of(t).streaming_live,
        "final_table_size": _final_table_size(t),
    }


@service
def propose_deal(tournament, stacks: dict, *, method: str, actor: Actor, reserve=ZERO, amounts=None, by_place=None) -> Deal:
    """Record a proposed deal (PAY-09): final table only, never while the TV table streams
    live (ROLE-08), new amounts per finishing place, strictly decreasing («progressiva e non
    paritaria»), adding up to the prizes left (a reserve for 1st is optional).
    A CUSTOM deal is written either per finishing place (``by_place``: places 1..n, 1st first:
    what a player receives depends on where he finishes) or per player (``amounts``, players
    by entry number), which is then read as a ladder."""
    t = lock_tournament(tournament)
    reserve = _money(reserve, _("The reserve"))
    if sel.table_state(t) != PayoutTable.LOCKED:
        raise PayoutError("table_not_locked", _("Lock the payout table before recording a deal."))
    _check_not_streaming(t)
    players, chips, left, in_play = _deal_state(t, stacks)
    _deal_refused(t, len(players))
    if any(p["kind"] != "CASH" for p in in_play if p["kind"] in POOL_FUNDED):
        raise PayoutError("deal_noncash_prize", _("A place in play has a ticket or seat prize: a deal can only share cash."))
    if Deal.objects.filter(tournament=t, status=Deal.PROPOSED).exists():
        raise PayoutError("deal_open", _("Another deal is waiting for consent: approve or cancel it first."))
    try:
        if method == Deal.ICM:
            per_player = deal_engine.icm_deal(chips, left, reserve=reserve)
        elif method == Deal.CHIP_CHOP:
            per_player = deal_engine.chip_chop(chips, left, reserve=reserve)
        elif method == Deal.EVEN:
            per_player = deal_engine.even_chop(chips, left, reserve=reserve)
        elif method == Deal.CUSTOM and by_place is not None:
            if reserve:
                raise ValidationFailed("reserve_in_places", _("A deal by place already says what 1st receives: leave the reserve at 0."))
            if len(by_place) != len(players):
                raise ValidationFailed("amounts_required", _("A deal by place needs one amount for each of the %(n)s places in play.")
                                       % {"n": len(players)})
            per_player = None
        elif method == Deal.CUSTOM:
            if not amounts or len(amounts) != len(players):
                raise ValidationFailed("amounts_required", _("A custom deal needs one amount per player."))
            per_player = deal_engine.custom_deal([_money(a) for a in amounts], left, reserve=reserve)
        else:
            raise ValidationFailed("bad_method", _("Unknown deal method."))
        if per_player is None:
            by_place = deal_engine.validate_deal_by_place([_money(a, _("Place %(p)s") % {"p": i}) for i, a in enumerate(by_place, 1)], left)
        else:
            by_place = deal_engine.validate_deal_by_place(_by_place(per_player, reserve), left)
    except deal_engine.DealError as exc:
        messages = {
            "not_strictly_decreasing": _("House policy (PAY-09): the deal must pay every place strictly more than the next one. %(d)s"),
            "wrong_total": _("The deal must add up to the prizes left. %(d)s"),
        }
        raise PayoutError(exc.code, messages.get(exc.code, "%(d)s") % {"d": deal_refusal(exc)}, status=400)
    deal = Deal.objects.create(
        tournament=t, method=method, stacks={str(e.pk): c for e, c in zip(players, chips)}, reserve=reserve,
        by_player={str(e.pk): str(a) for e, a in zip(players, per_player or [])}, by_place=[str(a) for a in by_place],
        prizes_before=[str(p) for p in left], created_by=actor.user,
    )
    log_event(t, Action.PAYOUTS_DEAL_PROPOSED, actor, deal=deal.pk, method=method, by_place=deal.by_place, reserve=str(reserve),
              per_place=per_player is None)
    return deal


@service
def accept_deal(deal, entry, *, actor: Actor) -> DealAcceptance:
    """Record one player's consent (each remaining player must agree, PAY-09)."""
    t = lock_tournament(deal.tournament_id)
    deal = Deal.objects.get(pk=deal.pk)
    if deal.status != Deal.PROPOSED:
        raise PayoutError("deal_closed", _("This deal is no longer open."))
    _check_not_streaming(t)
    if str(entry.pk) not in deal.stacks:
        raise PayoutError("not_in_deal", _("This player is not part of the deal."))
    if DealAcceptance.objects.filter(deal=deal, entry=entry).exists():
        raise PayoutError("already_accepted", _("This player has already accepted."))
    acc = DealAcceptance.objects.create(deal=deal, entry=entry, recorded_by=actor.user)
    log_event(t, Action.PAYOUTS_DEAL_ACCEPTED, actor, deal=deal.pk, entry=entry.pk, name=entry.person.full_name)
    return acc


@service
def approve_deal(deal, *, actor: Actor) -> Deal:
    """Director's approval: every player in the deal still in and consenting; the payout
    table's places 1..n take the deal's amounts. Play goes on to decide the places."""
    t = lock_tournament(deal.tournament_id)
    deal = Deal.objects.get(pk=deal.pk)
    if deal.status != Deal.PROPOSED:
        raise PayoutError("deal_closed", _("This deal is no longer open."))
    _check_not_streaming(t)
    still_in = {str(pk) for pk in t.entries.filter(status=Entry.ACTIVE).values_list("pk", flat=True)}
    if still_in != set(deal.stacks):
        raise PayoutError("players_changed", _("The players left have changed since the deal was proposed: propose it again."))
    accepted = {str(a) for a in deal.acceptances.values_list("entry_id", flat=True)}
    missing = sorted(set(deal.stacks) - accepted)
    if missing:
        names = ", ".join(Entry.objects.filter(pk__in=missing).select_related("person").values_list("person__last_name", flat=True))
        raise PayoutError("consent_missing", _("Every player must agree to the deal; missing: %(names)s.") % {"names": names})
    prizes = sel.table_prizes(t)
    n = len(deal.by_place)
    if [sel.money(p) for p in deal_engine.prizes_left(sel.place_values(prizes), n)] != deal.prizes_before:
        raise PayoutError("table_changed", _("The payout table changed since the deal was proposed: propose it again."))
    new = [p for p in prizes if not (p["place"] <= n and p["kind"] == "CASH")]
    new += [{"place": i, "kind": "CASH", "amount": Decimal(a), "description": "deal", "target": None} for i, a in enumerate(deal.by_place, start=1)]
    table = _table(t)
    new = validate_prizes(new, table.prize_pool)
    _store(t, table, new, state=PayoutTable.LOCKED, pool_total=table.prize_pool)
    deal.status, deal.approved_by, deal.approved_at = Deal.APPROVED, actor.user, timezone.now()
    deal.save(update_fields=["status", "approved_by", "approved_at"])
    log_event(t, Action.PAYOUTS_DEAL_APPROVED, actor, deal=deal.pk, by_place=deal.by_place)
    return deal


@service
def cancel_deal(deal, *, actor: Actor, reason: str = "") -> Deal:
    t = lock_tournament(deal.tournament_id)
    deal = Deal.objects.get(pk=deal.pk)
    if deal.status != Deal.PROPOSED:
        raise PayoutError("deal_closed", _("This deal is no longer open."))
    deal.status = Deal.CANCELLED
    deal.save(update_fields=["status"])
    log_event(t, Action.PAYOUTS_DEAL_CANCELLED, actor, deal=deal.pk, reason=reason)
    return deal


# --- side pools ---------------------------------------------------------------------------


@service
def create_side_pool(tournament, *, kind: str, name: str, actor: Actor, key: str = "", from_ledger: bool = True,
                     from_prize_pool=ZERO, fund: JackpotFund | None = None) -> SidePool:
    """A side pool kept apart from the prize pool (Last Longer, jackpot, chip-leader prizes)."""
    t = lock_tournament(tournament)
    if kind not in dict(SidePool.KINDS):
        raise ValidationFailed("bad_kind", _("Unknown side pool."))
    key = (key or kind).lower().replace("_", "-")[:40]
    if t.side_pools.filter(key=key).exists():
        raise PayoutError("duplicate_side_pool", _("This tournament already has a side pool '%(k)s'.") % {"k": key})
    pool = SidePool.objects.create(tournament=t, kind=kind, name=name.strip() or str(dict(SidePool.KINDS)[kind]), key=key,
                                   from_ledger=from_ledger, from_prize_pool=_money(from_prize_pool), fund=fund)
    log_event(t, Action.PAYOUTS_SIDEPOOL_CREATED, actor, pool=pool.pk, kind=kind, name=pool.name, from_prize_pool=str(pool.from_prize_pool))
    return pool


@service
def contribute_side_pool(pool, amount, *, actor: Actor, note: str = "") -> SideContribution:
    t = lock_tournament(pool.tournament_id)
    amount = _money(amount)
    if amount <= 0:
        raise ValidationFailed("bad_amount", _("A contribution must be positive."))
    c = SideContribution.objects.create(pool=pool, amount=amount, note=note[:200], created_by=actor.user)
    log_event(t, Action.PAYOUTS_SIDEPOOL_CONTRIBUTED, actor, pool=pool.pk, amount=str(amount), note=note)
    return c


@service
def award_side_pool(pool, *, actor: Actor, awards=None, note: str = "") -> list[SideAward]:
    """Award a side pool. ``awards`` = [(entry, amount)]; for a Last Longer without awards,
    the best-placed pre-registered entry wins what is left (REG-10; tied entries split it,
    odd cents to the first listed)."""
    t = lock_tournament(pool.tournament_id)
    pool = SidePool.objects.get(pk=pool.pk)
    left = sel.side_pool_balance(pool)["left"]
    if awards is None:
        if pool.kind != SidePool.LAST_LONGER:
            raise ValidationFailed("awards_required", _("Say who wins this side pool and how much."))
        eligible = t.entries.filter(pre_registered=True, place__isnull=False).exclude(status=Entry.CANCELLED).order_by("place", "number")
        best = eligible.first()
        if best is None:
            raise PayoutError("no_winner_yet", _("No pre-registered player has a finishing place yet."))
        winners = list(eligible.filter(place=best.place))
        awards = list(zip(winners, split_evenly(left, len(winners))))
    awards = [(e, _money(a)) for e, a in awards]
    if pool.fund_id:  # one way to win the venue's jackpot: claim_jackpot, with its rules
        raise PayoutError("jackpot_by_claim", _("The progressive jackpot is won by a royal flush the floor records, and paid at the desk (PAY-12)."))
    if sum((a for _e, a in awards), ZERO) > left:
        raise PayoutError("side_pool_overdrawn", _("The side pool holds only %(left)s.") % {"left": left})
    made = [SideAward.objects.create(pool=pool, entry=e, amount=a, note=note[:200], created_by=actor.user) for e, a in awards if a > 0]
    log_event(t, Action.PAYOUTS_SIDEPOOL_AWARDED, actor, pool=pool.pk, awards=[{"entry": a.entry_id, "amount": str(a.amount)} for a in made])
    return made


def satellite_ready(tournament) -> bool:
    """True when a linked satellite has no more players left than seats (FMT-08): time to end it
    (a bust of several players may take the field below the seats: ``complete_satellite``)."""
    t = Tournament.objects.get(pk=getattr(tournament, "pk", tournament))
    link = sel.satellite_link(t)
    if link is None or link.completed_at or t.status != Tournament.RUNNING:
        return False
    seats = sum(1 for a in sel.satellite_awards(t, link) if a.seat)
    return seats > 0 and t.entries.filter(status=Entry.ACTIVE).count() <= seats


def after_bust(tournament, *, actor: Actor):
    """For the seating app to call after it records a bust: a satellite whose seats are now
    decided ends by itself. Returns the seat payments, or None when nothing happened."""
    if satellite_ready(tournament):
        return complete_satellite(tournament, actor=actor)
    return None


# --- the progressive jackpot (REG-11, PAY-12) ---------------------------------------------


def _jackpot_fund_for_update() -> JackpotFund:
    """The venue's one jackpot fund, locked: claims on it queue one behind the other."""
    fund = sel.jackpot_fund()
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
        raise PayoutError("jackpot_needs_both_hole_cards",
                          _("Only a royal flush made with both hole cards and three cards of the board wins the jackpot."))
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
        if not sel.jackpot_paid_by(e):
            raise PayoutError("jackpot_not_bought", _("%(name)s did not pay the jackpot fee: only its buyers can win it.")
                              % {"name": e.person.full_name})
    level = clockview.level_now(t, now)
    if t.status != Tournament.RUNNING or level is None:
        raise PayoutError("clock_not_running", _("The jackpot is won during play: start the clock first."))
    if level <= rules.jackpot_full_until_level:
        percent = rules.jackpot_full_percent
    elif clockview.late_registration_open(t, now):
        percent = rules.jackpot_late_percent
    else:
        raise PayoutError("jackpot_window_over", _("Late registration is closed: the jackpot can no longer be won in this tournament."))
    percent = to_money(percent).quantize(CENT)  # two decimals, as stored
    fund = _jackpot_fund_for_update()
    lock = sel.jackpot_lock(fund, now)
    if lock is not None:
        raise PayoutError("jackpot_locked", _("The jackpot was won today in %(t)s: it can be won again from tomorrow.")
                          % {"t": lock.tournament.name})
    before = sel.jackpot_balance(fund, now)
    amount = floor_money(before * percent / 100)
    if amount <= 0:
        raise PayoutError("jackpot_empty", _("The jackpot fund is empty."))
    if rules.jackpot_split == "FIRST_CLAIM":
        winners = winners[:1]
    remaining = before - amount
    full = level <= rules.jackpot_full_until_level
    reseed = max(fund.base - remaining, ZERO) if full and rules.jackpot_restart == "BASE_AFTER_FULL" else ZERO
    win = JackpotWin.objects.create(fund=fund, tournament=t, level=level, percent=percent, fund_before=before, amount=amount,
                                    both_hole_cards=True, verified_by=actor.user, note=note.strip()[:200], created_at=now,
                                    locked_until=next_day(now), reseed=reseed)
    claims = [JackpotClaim.objects.create(win=win, entry=e, amount=share)
              for e, share in zip(winners, split_evenly(amount, len(winners)))]
    log_event(t, Action.PAYOUTS_JACKPOT_WON, actor, win=win.pk, level=level, percent=str(percent), fund=str(before),
              amount=str(amount), winners=[{"entry": c.entry_id, "name": c.entry.person.full_name, "amount": str(c.amount)} for c in claims],
              locked_until=win.locked_until.isoformat(), note=win.note)
    # Every other tournament playing for the jackpot hears that it is locked until tomorrow.
    for other in sel.jackpot_tournaments(exclude=t):
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
    row = write_row(t, kind=LedgerRow.PAYOUT, entry=claim.entry, person=person, prize=ZERO, fee=ZERO, jackpot=-amount, chips=0,
                    method=method, actor=actor, reference=reference.strip(), payee=payee, note="jackpot")
    payment = PrizePayment.objects.create(tournament=t, entry=claim.entry, source=f"JACKPOT:{claim.pk}", kind="CASH", place=None,
                                          amount=amount, method=method, reference=reference.strip(), payee=payee, row=row,
                                          paid_by=actor.user)
    claim.payment = payment
    claim.save(update_fields=["payment"])
    log_event(t, Action.PAYOUTS_JACKPOT_PAID, actor, claim=claim.pk, entry=claim.entry_id, name=person.full_name, amount=str(amount),
              method=method, receipt=row.receipt_number)
    return payment
