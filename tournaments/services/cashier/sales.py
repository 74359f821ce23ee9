"""The cashier desk: register, pre-register, re-enter, rebuy, add-on, refund, reverse.

Every sale locks the tournament row first, so two cashiers selling the last place at the
same moment queue one behind the other: the first sells, the second gets ``field_full``.
Every movement of money is one append-only ledger row with a gapless receipt number.
"""

from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal

from django.conf import settings
from django.db.models import Count, Q, Subquery, Sum
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from tdmanager import currencies, policy
from tdmanager.compiled import DATETIME, Compiled
from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.money import CENT, ZERO, to_money
from tdmanager.roles import user_roles
from tdmanager.transactions import service

from ... import clockview, fees, selectors, signals
from ...actions import Action
from ...house import HouseRules
from ...models import Alternate, Entry, ExchangeRate, IdempotencyRecord, LedgerRow, Person, Tournament, TournamentEvent
from ...signals import announce
from ..events import Actor, log_event
from ..ledger import SaleEvent, late_stack, lock_tournament, lock_tournament_and_read, new_entry, sell_new_entry, write_row

LIVE = (Entry.RESERVED, Entry.ACTIVE)
SALE_KINDS = (LedgerRow.BUY_IN, LedgerRow.RE_ENTRY, LedgerRow.REBUY, LedgerRow.ADD_ON)


class DeskError(DomainError):
    """A sale refused by a rule; ``code`` says which."""


@dataclass
class Sale:
    entry: Entry
    row: LedgerRow | None


@dataclass(frozen=True)
class Offer:
    """What a sale sells when it is not the tournament's standard entry: a stack-choice
    product (FMT-07) with its own buy-in, fee and chips."""

    buy_in: Decimal
    fee: Decimal
    chips: int
    note: str = ""


# --- helpers ----------------------------------------------------------------------------


def cash_limit(t: Tournament) -> Decimal:
    return t.cash_limit if t.cash_limit is not None else to_money(settings.TDM_CASH_LIMIT)


def check_cash_limit(t: Tournament, amount: Decimal, method: str, tender: fees.Tender | None = None) -> None:
    """REG-06: a cash operation above the limit is refused (or at the limit, when inclusive).
    A foreign tender is checked at its amount converted to the tournament's currency."""
    if method != LedgerRow.CASH:
        return
    if tender is not None:
        amount = tender.converted(amount)
    limit = cash_limit(t)
    over = amount >= limit if settings.TDM_CASH_LIMIT_INCLUSIVE else amount > limit
    if over:
        raise DeskError(
            "cash_limit_exceeded",
            _("Cash is limited to %(limit)s %(cur)s per operation: take this payment by card or transfer.") % {"limit": limit, "cur": t.currency},
        )


def cash_paid_out_today(t: Tournament, person, now=None) -> Decimal:
    """Cash paid to ``person`` by ``t``'s desk since the start of today (prizes, side pools,
    jackpot, bounties), net of reversed payments."""
    start = timezone.localtime(now or timezone.now()).replace(hour=0, minute=0, second=0, microsecond=0)
    rows = t.ledger.filter(person=person, method=LedgerRow.CASH, created_at__gte=start, reversed_by__isnull=True).filter(
        Q(kind=LedgerRow.PAYOUT) | Q(kind=LedgerRow.BOUNTY) | Q(kind=LedgerRow.SIDE, side_amount__lt=0)
    )
    agg = rows.aggregate(p=Sum("prize_amount"), f=Sum("fee_amount"), s=Sum("side_amount"), j=Sum("jackpot_amount"), b=Sum("bounty_amount"))
    return -sum((agg[k] or ZERO for k in "pfsjb"), ZERO)


def check_cash_split(t: Tournament, person, amount: Decimal, now=None) -> None:
    """REG-06 [INFERENCE]: one winner's cash payouts of a tournament on one day are summed, so
    splitting a payout into several cash operations cannot dodge the limit."""
    before = cash_paid_out_today(t, person, now)
    if before <= ZERO:
        return
    try:
        check_cash_limit(t, before + amount, LedgerRow.CASH)
    except DeskError:
        raise DeskError(
            "cash_limit_split",
            _(
                "%(name)s has already been paid %(before)s %(cur)s in cash today: with %(amount)s more "
                "the cash limit of %(limit)s is passed. Pay it by cheque or bank transfer."
            )
            % {"name": person.full_name, "before": before, "amount": amount, "cur": t.currency, "limit": cash_limit(t)},
        ) from None


def check_method(method: str) -> None:
    if method not in dict(LedgerRow.METHODS):
        raise ValidationFailed("bad_method", _("Unknown payment method."))


def day_rate(currency: str, base: str, day) -> ExchangeRate | None:
    """REG-06: the rate of ``day`` for ``currency`` into ``base`` (the latest one set that day)."""
    return ExchangeRate.objects.filter(date=day, currency=currency, base_currency=base).order_by("-set_at", "-id").first()


def tender_for(t: Tournament, currency: str, method: str, now=None) -> fees.Tender | None:
    """REG-06: the foreign tender of a sale (USD or CHF at today's rate), or None when the player
    pays in the tournament's currency. Foreign notes are cash; no rate set today: refused."""
    currency = (currency or "").strip().upper()
    if not currency or currency == t.currency:
        return None
    if currency not in fees.FOREIGN_CURRENCIES:
        raise ValidationFailed(
            "bad_tender_currency", _("The desk takes %(list)s besides %(cur)s.") % {"list": ", ".join(fees.FOREIGN_CURRENCIES), "cur": t.currency}
        )
    if method != LedgerRow.CASH:
        raise ValidationFailed("foreign_tender_cash_only", _("A foreign currency is taken in cash; a card is charged in %(cur)s.") % {"cur": t.currency})
    rate = day_rate(currency, t.currency, timezone.localdate(now or timezone.now()))
    if rate is None:
        raise DeskError(
            "no_exchange_rate", _("No %(cur)s exchange rate is set for today: the supervisor sets it before the desk takes %(cur)s.") % {"cur": currency}
        )
    return fees.Tender(currency, rate.rate)


def check_not_banned(person: Person) -> None:
    if person.banned:
        raise DeskError("banned", _("%(name)s is banned and cannot play: %(reason)s") % {"name": person.full_name, "reason": person.ban_reason})


def check_open_for_sales(t: Tournament) -> None:
    if t.status == Tournament.PLANNED:
        raise DeskError("registration_not_open", _("Registration for this tournament is not open yet."))
    if t.status in (Tournament.FINISHED, Tournament.CANCELLED):
        raise DeskError("tournament_closed", _("This tournament is %(status)s.") % {"status": t.get_status_display().lower()})
    check_winner_not_decided(t)


def check_winner_not_decided(t: Tournament) -> None:
    """The last bust left one player: he has won (place 1, his bounty and the bag's money given),
    even while late registration would still be open; an entry now, sold, won in a satellite or
    qualified, would play on after the end."""
    if t.status == Tournament.RUNNING and list(t.entries.filter(status=Entry.ACTIVE).values_list("place", flat=True)[:2]) == [1]:
        raise DeskError("winner_decided", _("This tournament has its winner: only one player is left, and nothing more is sold."))


def check_late_registration(t: Tournament, now) -> None:
    if t.status == Tournament.RUNNING and not clockview.late_registration_open(t, now):
        raise DeskError("late_registration_closed", _("Late registration is closed."))


def places_taken(t: Tournament) -> int:
    if HouseRules.of(t).field_cap_counts == "LIVE_PLAYERS":
        return t.entries.filter(status__in=LIVE).count()
    return t.entries.exclude(status=Entry.CANCELLED).count()


def check_field_cap(t: Tournament) -> None:
    # FMT-09: a sit & go without a cap of its own is full at its size (10 × sng_tables), so a
    # running one never takes a player who would need another table.
    cap = t.field_cap if t.field_cap is not None or t.format != Tournament.SNG else sit_and_go_size(t)
    if cap is not None and places_taken(t) >= cap:
        raise DeskError(
            "field_full",
            _("The field is full (%(cap)s places). The player can join the alternates list.") % {"cap": cap},
        )


def tender_log(row: LedgerRow) -> dict:
    """REG-06: a foreign tender's currency, amount and rate, for the event log."""
    if not row.tender_currency:
        return {}
    return {"tender_currency": row.tender_currency, "tender_amount": str(row.tender_amount), "exchange_rate": str(row.exchange_rate)}


def sale_payload(entry: Entry, row: LedgerRow | None) -> dict:
    """What the event log keeps of a sale: the entry, the player, the receipt and its amounts."""
    payload = {"entry": entry.pk, "entry_number": entry.number, "person": entry.person_id, "name": entry.person.full_name}
    if row is not None:
        payload.update(receipt=row.receipt_number, amount=str(row.total), method=row.method, chips=row.chips)
        if row.jackpot_amount:
            payload["jackpot"] = str(row.jackpot_amount)
        payload.update(tender_log(row))
    return payload


def _after_sale(t: Tournament, entry: Entry, actor: Actor, action: str, row: LedgerRow | None, *, logged: bool = False):
    """The sale's event (unless the sale's own statement wrote it: ``logged``), then seating is told."""
    if not logged:
        log_event(t, action, actor, **sale_payload(entry, row))
    announce(signals.entry_paid, t, actor, entry=entry)  # seating seats him
    if t.format == Tournament.SNG and t.status == Tournament.REGISTERING:
        announce(signals.sit_and_go_place_paid, t, actor, entry=entry)  # the last place starts it


def sit_and_go_size(t: Tournament) -> int:
    """FMT-09: a sit & go starts when its N-th player has paid (10 per table by default)."""
    return t.field_cap or 10 * HouseRules.of(t).sng_tables


def check_late_arrival(t: Tournament, person: Person, now) -> None:
    """REG-04 / REG-09 (004 style): once running, only pre-booked players may still enter,
    until the level the setting names; a busted player is never a late arrival."""
    if t.status != Tournament.RUNNING or not HouseRules.of(t).late_entry_prebooked_only:
        return
    if t.entries.filter(person=person, status=Entry.BUSTED).exists():  # scenario 19's Q: told why
        raise DeskError(
            "busted_no_return", _("%(name)s has busted: a player who is out does not come back as a late arrival (004 Art. 3).") % {"name": person.full_name}
        )
    if not t.entries.filter(person=person, status=Entry.RESERVED).exists():
        raise DeskError("late_entry_prebooked_only", _("Only players who booked in advance may still enter."))


def jackpot_line(t: Tournament, kind: str, jackpot: bool, now) -> Decimal:
    """REG-11: the progressive jackpot's fee this sale adds as a line of its own (never the
    prize pool, never the house fee), or zero. Sold until the end of the level the house sets,
    not on a day the jackpot was won (payouts says so, PAY-12), and to a re-entry per the setting."""
    if not jackpot:
        return ZERO
    rules = HouseRules.of(t)
    if not rules.jackpot:
        raise DeskError("jackpot_not_offered", _("This tournament does not take part in the jackpot."))
    if kind == LedgerRow.RE_ENTRY and rules.jackpot_reentry != "PAY_AGAIN":
        raise DeskError("jackpot_not_for_reentry", _("A re-entry does not buy the jackpot again (house rules)."))
    if t.status == Tournament.RUNNING and clockview.level_has_ended(t, rules.jackpot_sale_until_level, now):
        raise DeskError("jackpot_sale_closed", _("The jackpot fee is sold only until the end of level %(n)s.") % {"n": rules.jackpot_sale_until_level})
    if not rules.jackpot_sale_when_won:
        why = signals.ask_one(signals.jackpot_sale_checked, tournament=t, now=now)
        if why:
            raise DeskError("jackpot_locked", why)
    return to_money(rules.jackpot_fee)


# --- the desk's rules, on every path ------------------------------------------------------

# Every path that creates an entry or sells chips, named for ``check_admission``: the desk's
# sales, the reservation paid, a ticket redeemed, a satellite seat issued, a qualified entry
# (a Day 2 bag, a qualifying-table winner). ``tests/tournaments/test_admission_paths.py`` lists
# the services on each path and fails when one skips a check.
BUY_IN, PRE_REGISTRATION, RESERVATION, RE_ENTRY = "BUY_IN", "PRE_REGISTRATION", "RESERVATION", "RE_ENTRY"
REBUY, ADD_ON, TICKET, SATELLITE_SEAT, QUALIFIED = "REBUY", "ADD_ON", "TICKET", "SATELLITE_SEAT", "QUALIFIED"
PATHS = (BUY_IN, PRE_REGISTRATION, RESERVATION, RE_ENTRY, REBUY, ADD_ON, TICKET, SATELLITE_SEAT, QUALIFIED)
_FIRST_ENTRY = (BUY_IN, TICKET, SATELLITE_SEAT)  # a place sold to whoever asks: the 004 pre-booked rule applies


def check_admission(
    t: Tournament,
    person: Person,
    path: str,
    now,
    *,
    mine: list[Entry] | None = None,
    confirm_final_table: bool = False,
    revives: bool = False,
    declared: bool = False,
) -> Entry | None:
    """The desk's rules, asked by every service that creates an entry or sells chips, so that no
    path around the desk skips one. Raises ``DeskError`` naming the rule, in the desk's order:

    - the tournament's status (not open yet, finished, cancelled; a booking only before the
      start) — every path but a qualified entry (a Day 2 is filled before it opens); a winner
      decided (one player left) ends every path, a satellite's seat and a qualifier's included;
    - REG-05: a banned person never plays;
    - REG-04: the late-registration window by the tournament clock (house default: the end of
      level ``late_reg_default_level``), and the 004 rule that once running only pre-booked
      players enter; a re-entry's own window;
    - FMT-03 / FMT-05 / FMT-04 / FMT-06: a freezeout sells no re-entry, rebuy or add-on; a player
      who has busted comes back only as a re-entry, within ``max_entries_per_player``;
    - duplicates: a player already playing (or booked) gets no second place;
    - the field cap (FMT-14, REG-08);
    - REG-04 / BAL-09: once the final table is formed, an entry that would open a new table
      (and so break the final table up) per ``late_entry_at_final_table`` (``check_final_table``).

    ``confirm_final_table``: the desk confirmed such an entry (house setting ASK). ``revives``: a
    rebuy brings a busted player back to a seat. ``declared``: the rebuy completes one declared
    before a hand (FMT-04, TDA 27): its window was asked when it was declared, and it is owed now. ``mine``: the person's entries in ``t`` (read under the tournament's lock), when the caller has
    them. Returns the person's reservation when this path pays it instead of selling a new place
    (a desk buy-in, a satellite seat), else None.
    """
    if path not in PATHS:
        raise ValueError(f"unknown admission path {path!r}")
    if path == PRE_REGISTRATION:
        if t.status in (Tournament.RUNNING, Tournament.FINISHED, Tournament.CANCELLED):
            raise DeskError("pre_registration_closed", _("Pre-registration is only possible before the start."))
    elif path == SATELLITE_SEAT:  # won days before: a seat is issued before the target opens its desk
        if t.status != Tournament.PLANNED:
            check_open_for_sales(t)
    elif path == QUALIFIED:  # a Day 2 is filled before it opens; a final playing takes no one after its end
        check_winner_not_decided(t)
    else:
        check_open_for_sales(t)
    check_not_banned(person)
    if path == REBUY:
        if not declared:
            _check_rebuy_window(t, now)
        if revives:
            check_final_table(t, confirmed=confirm_final_table)
        return None
    if path == ADD_ON:
        if not t.allows_addon:
            raise DeskError("addon_not_allowed", _("This tournament has no add-on."))
        return None
    if mine is None:
        mine = list(t.entries.filter(person=person).exclude(status=Entry.CANCELLED))
    live = [e for e in mine if e.status in LIVE]
    busted = [e for e in mine if e.status == Entry.BUSTED]
    if path == QUALIFIED:
        if live:
            raise DeskError("already_registered", _("%(name)s already has a place in %(t)s.") % {"name": person.full_name, "t": t.name})
        check_final_table(t, confirmed=confirm_final_table)
        return None
    if path == PRE_REGISTRATION:
        if live:
            raise DeskError("already_registered", _("%(name)s is already registered.") % {"name": person.full_name})
        check_field_cap(t)
        return None
    if path == RESERVATION:
        check_late_registration(t, now)
        check_final_table(t, confirmed=confirm_final_table)
        return None
    if path == RE_ENTRY:
        _check_reentry(t, person, mine, live, busted, now)
        check_field_cap(t)
        check_final_table(t, confirmed=confirm_final_table)
        return None
    check_late_registration(t, now)
    check_late_arrival(t, person, now)
    reserved = next((e for e in live if e.status == Entry.RESERVED), None)
    if reserved is not None and path in (BUY_IN, SATELLITE_SEAT):
        check_final_table(t, confirmed=confirm_final_table)
        return reserved
    if live:
        if path == BUY_IN:
            raise DeskError("already_registered", _("%(name)s is already playing in this tournament.") % {"name": person.full_name})
        raise DeskError("already_registered", _("%(name)s is already registered.") % {"name": person.full_name})
    if busted:
        if path == BUY_IN:
            raise DeskError("use_reentry", _("%(name)s has busted: sell a re-entry instead.") % {"name": person.full_name})
        _check_reentry(t, person, mine, live, busted, now)  # a ticket or a seat for a busted player is his re-entry
    check_field_cap(t)
    check_final_table(t, confirmed=confirm_final_table)
    return None


def check_final_table(t: Tournament, *, confirmed: bool) -> None:
    """REG-04 / BAL-09: a late entry takes the seat of an eliminated player («prenderanno il posto
    dei primi giocatori eliminati», 003 Art. 4.4). Once the final table is formed, an entry that
    finds no open seat at a table in play would open a new table, and balancing would then break
    the final table up. Seating answers whether that is so (``signals.room_wanted``); the house
    decides (``late_entry_at_final_table``): ALLOW sells it, REFUSE refuses it, ASK (the default)
    refuses it with ``confirmable`` until the desk confirms (``confirmed``)."""
    if t.status != Tournament.RUNNING or t.format == Tournament.HEADS_UP:
        return  # a bracket seats its players match by match (FMT-12): it has no final table to break
    rule = HouseRules.of(t).late_entry_at_final_table
    if rule == "ALLOW":
        return
    room = signals.ask_one(signals.room_wanted, tournament=t)
    if not room or not room["final_table_formed"] or room["free_seat"]:
        return
    if rule == "REFUSE":
        raise DeskError("final_table_formed", _("The final table is formed and has no free seat: the house takes no more entries."), confirmable=False)
    if not confirmed:
        raise DeskError(
            "final_table_formed",
            _(
                "The final table is formed and has no free seat: this entry would open a new table "
                "and players would be moved off the final table. Sell it only if the director agrees."
            ),
            confirmable=True,
        )


def _check_reentry(t: Tournament, person: Person, mine, live, busted, now) -> None:
    """FMT-03 / FMT-05: re-entry only where the format allows it, after a bust, up to the most
    entries per player, until late registration (and the re-entry window) closes."""
    if not t.allows_reentry:
        raise DeskError("reentry_not_allowed", _("This tournament does not allow re-entry."))
    if live:
        raise DeskError("not_busted", _("%(name)s is still playing: re-entry is only after a bust.") % {"name": person.full_name})
    if not busted:
        raise DeskError("no_previous_entry", _("%(name)s has no busted entry: sell a first entry.") % {"name": person.full_name})
    if len(mine) >= t.max_entries_per_player:
        raise DeskError("max_entries_reached", _("%(name)s has used all %(max)s entries.") % {"name": person.full_name, "max": t.max_entries_per_player})
    check_late_registration(t, now)
    if t.reentry_until_level and t.status == Tournament.RUNNING and clockview.level_has_ended(t, t.reentry_until_level, now):
        raise DeskError("reentry_closed", _("The re-entry period has ended."))


def sells_rebuys(t: Tournament) -> bool:
    """FMT-03 / FMT-04: whether the event has rebuys at all (none in a freezeout or a sit & go).
    The desk reads it too, so it never asks a stack for a rebuy the event does not have."""
    return t.allows_rebuy and t.format not in (Tournament.SNG, Tournament.FREEZEOUT)


def _check_rebuy_window(t: Tournament, now) -> None:
    """FMT-03 / FMT-04: no rebuy in a freezeout; sold once running (unless the house sells them
    before the start), until the end of the last rebuy level."""
    if not sells_rebuys(t):
        raise DeskError("rebuy_not_allowed", _("This tournament has no rebuys."))
    if t.status != Tournament.RUNNING and not HouseRules.of(t).rebuy_before_start:
        raise DeskError("rebuy_not_started", _("Rebuys are sold once the tournament is running."))
    last = HouseRules.of(t).rebuy_level(t)  # the tournament's, else the house default (003: level 3)
    if clockview.level_has_ended(t, last, now):
        raise DeskError("rebuy_period_over", _("The rebuy period ended after level %(n)s.") % {"n": last})


# --- what the desk offers -----------------------------------------------------------------

#: The desk's sale buttons, in the order it shows them.
DESK_OPS = ("register", "preregister", "reenter", "declare-rebuy", "rebuy", "addon", "alternate")


def desk_entry(mine: list[Entry]) -> Entry | None:
    """The entry a desk's rebuy or add-on is for: the one playing, else the last one busted."""
    playing = [e for e in mine if e.status == Entry.ACTIVE]
    busted = [e for e in mine if e.status == Entry.BUSTED]
    return (playing or busted[-1:] or [None])[0]


def desk_offers(t: Tournament, person: Person, now=None) -> dict:
    """What the desk may sell ``person`` in ``t`` now, button by button (``DESK_OPS``), each
    answered by the very checks its sale runs (``check_admission`` and the entry's own), so the
    desk never offers what the sale refuses nor hides what it sells. For each: ``sold`` (the
    event's format has it at all — no rebuy in a re-entry event, no add-on without one: the desk
    hides the button), ``allowed`` now, and when not, the refusal's ``code`` and ``reason`` as
    the sale would word it. A refusal the desk may confirm (the final table's, under ASK) is
    allowed: the sale asks. Read without the tournament's lock: the sale asks again under it."""
    now = now or timezone.now()
    mine = sorted(t.entries.filter(person=person).exclude(status=Entry.CANCELLED), key=lambda e: e.number)
    entry = desk_entry(mine)
    declared = entry is not None and entry.rebuy_declared_at is not None

    def rebuy():
        e = entry_at_desk(entry, person)
        check_admission(t, person, REBUY, now, revives=e.status == Entry.BUSTED, declared=declared)
        _check_rebuy_entry(t, e)

    def declare():
        e = entry_at_desk(entry, person)
        check_admission(t, person, REBUY, now)
        _check_declarable(t, e)

    def addon():
        e = entry_at_desk(entry, person)
        check_admission(t, person, ADD_ON, now)
        _check_addon_entry(t, e, now)

    rules = {
        "register": (True, lambda: check_admission(t, person, BUY_IN, now, mine=mine)),
        "preregister": (True, lambda: check_admission(t, person, PRE_REGISTRATION, now, mine=mine)),
        "reenter": (t.allows_reentry, lambda: check_admission(t, person, RE_ENTRY, now, mine=mine)),
        "declare-rebuy": (sells_rebuys(t), declare),
        "rebuy": (sells_rebuys(t), rebuy),
        "addon": (t.allows_addon, addon),
        "alternate": (True, lambda: _check_alternate(t, person)),
    }
    offers = {}
    for op in DESK_OPS:
        sold, check = rules[op]
        offer = {"sold": sold, "allowed": sold, "code": "", "reason": ""}
        if sold:
            try:
                check()
            except DomainError as refused:
                if not refused.extra.get("confirmable"):
                    offer.update(allowed=False, code=refused.code, reason=str(refused.message))
        offers[op] = offer
    return {"entry": entry.pk if entry else None, "offers": offers}


# --- sales --------------------------------------------------------------------------------

# The two reads of every sale, compiled once (tdmanager.compiled): the person, and his entries
# with the tournament's last entry (the top of its number index), in one statement.
_PERSON = Compiled(lambda pk: Person.objects.filter(pk=pk).order_by(), Person)
_ENTRIES_AND_LAST = Compiled(
    lambda tid, pid: Entry.objects.filter(tournament_id=tid).filter(
        Q(person_id=pid) | Q(number=Subquery(Entry.objects.filter(tournament_id=tid).order_by("-number").values("number")[:1]))
    ),
    Entry,
    nargs=2,
)


def _entries_and_last(t: Tournament, person: Person, rows: list[Entry] | None = None) -> tuple[list[Entry], int]:
    """``list(t.entries.filter(person=person))`` (in entry order, each with ``t`` as its
    tournament) and the tournament's last entry number (0 before its first), in one read
    (``rows``: what ``_ENTRIES_AND_LAST`` read already)."""
    if rows is None:
        rows = _ENTRIES_AND_LAST.rows(t.pk, person.pk)
    mine = [e for e in rows if e.person_id == person.pk]
    for e in mine:
        e.tournament = t
    return mine, (rows[-1].number if rows else 0)  # rows in entry order: the last is the top


@service
def register(
    tournament,
    person,
    *,
    method: str,
    actor: Actor,
    now=None,
    offer: Offer | None = None,
    jackpot: bool = False,
    tender_currency: str = "",
    confirm_final_table: bool = False,
) -> Sale:
    """Sell a first entry (buy-in + fee) to ``person``. Late registration while the clock allows it.

    ``offer`` sells another product than the standard entry (stack choice); ``jackpot`` adds the
    progressive jackpot's fee (REG-11). ``tournament`` and ``person``: the rows or their keys
    (both are read here, the tournament under its lock; a key naming no row: ``DoesNotExist``)."""
    now = now or timezone.now()
    check_method(method)
    person = _PERSON.get(int(getattr(person, "pk", person)))  # before the lock: the tournament's lock does not guard the person's row
    # The lock, and the person's entries with the last entry number read under it (one round trip).
    t, rows = lock_tournament_and_read(tournament, _ENTRIES_AND_LAST, int(getattr(tournament, "pk", tournament)), person.pk)
    mine, last = _entries_and_last(t, person, rows)  # one read (under the lock) answers every question below
    reserved = check_admission(t, person, BUY_IN, now, mine=[e for e in mine if e.status != Entry.CANCELLED], confirm_final_table=confirm_final_table)
    tender = tender_for(t, tender_currency, method, now)
    if reserved:
        return _pay_reservation(t, reserved, method=method, actor=actor, now=now, offer=offer, jackpot=jackpot, tender=tender)
    return _sellnew_entry(
        t,
        person,
        LedgerRow.BUY_IN,
        Action.CASHIER_BUYIN_SOLD,
        method=method,
        actor=actor,
        now=now,
        offer=offer,
        jackpot=jackpot,
        tender=tender,
        previous=sum(e.status != Entry.CANCELLED for e in mine),
        number=last + 1,
    )


def _sellnew_entry(
    t,
    person,
    kind,
    action,
    *,
    method,
    actor,
    now,
    offer: Offer | None,
    jackpot: bool = False,
    tender: fees.Tender | None = None,
    previous: int | None = None,
    number: int | None = None,
):
    buy_in, fee = (offer.buy_in, offer.fee) if offer else (t.buy_in, t.fee)
    jackpot_fee = jackpot_line(t, kind, jackpot, now)
    bounty = HouseRules.of(t).bounty_part  # PAY-02: every buy-in and re-entry buys a bounty
    check_cash_limit(t, buy_in + fee + jackpot_fee + bounty, method, tender)
    # TDA 8-A: re-entries are sold full stacks; late registrants per the house setting.
    chips = offer.chips if offer else (t.starting_stack if kind == LedgerRow.RE_ENTRY else late_stack(t))
    entry, row = sell_new_entry(
        t,
        person,
        now=now,
        chips=chips,
        previous=previous,
        number=number,
        kind=kind,
        prize=buy_in,
        fee=fee,
        bounty=bounty,
        method=method,
        actor=actor,
        note=offer.note if offer else "",
        jackpot=jackpot_fee,
        tender=tender,
        event=SaleEvent(action, actor, sale_payload),
    )
    _after_sale(t, entry, actor, action, row, logged=True)
    return Sale(entry, row)


@service
def pre_register(tournament, person, *, actor: Actor, channel: str = "desk", now=None) -> Entry:
    """Reserve a place to pay later (REG-02). It counts against the field cap."""
    now = now or timezone.now()
    t = lock_tournament(tournament)
    person = Person.objects.get(pk=person.pk)
    check_admission(t, person, PRE_REGISTRATION, now)
    entry = new_entry(t, person, status=Entry.RESERVED, pre_registered=True, now=now)
    entry.channel = (channel or "")[:10]  # REG-02: a "transfer" booking waits for the cleared funds
    entry.save(update_fields=["channel"])
    log_event(t, Action.CASHIER_PREREGISTRATION_CREATED, actor, entry=entry.pk, person=person.pk, name=person.full_name, channel=channel)
    return entry


def _pay_reservation(
    t, entry, *, method, actor, now, offer: Offer | None = None, jackpot: bool = False, tender: fees.Tender | None = None, reference: str = ""
):
    if method == LedgerRow.TRANSFER and entry.awaits_transfer:  # REG-02: only registration.confirm_transfer
        raise DeskError("transfer_not_cleared", _("A bank-transfer booking is paid only when the cashier confirms the funds cleared (Transfer cleared)."))
    buy_in, fee = (offer.buy_in, offer.fee) if offer else (t.buy_in, t.fee)
    jackpot_fee = jackpot_line(t, LedgerRow.BUY_IN, jackpot, now)
    bounty = HouseRules.of(t).bounty_part
    check_cash_limit(t, buy_in + fee + jackpot_fee + bounty, method, tender)
    entry.status = Entry.ACTIVE
    entry.chips = offer.chips if offer else t.starting_stack
    entry.save(update_fields=["status", "chips"])
    row = write_row(
        t,
        kind=LedgerRow.BUY_IN,
        entry=entry,
        person=entry.person,
        prize=buy_in,
        fee=fee,
        bounty=bounty,
        chips=entry.chips,
        method=method,
        actor=actor,
        note=offer.note if offer else "",
        jackpot=jackpot_fee,
        tender=tender,
        reference=reference,
    )
    _after_sale(t, entry, actor, Action.CASHIER_BUYIN_SOLD, row)
    return Sale(entry, row)


@service
def pay_reservation(entry, *, method: str, actor: Actor, now=None, jackpot: bool = False, tender_currency: str = "", confirm_final_table: bool = False) -> Sale:
    """The pre-registered player pays at the desk (or the transfer is confirmed as cleared)."""
    now = now or timezone.now()
    check_method(method)
    t = lock_tournament(entry.tournament_id)
    entry = Entry.objects.select_related("person").get(pk=entry.pk)
    if entry.status != Entry.RESERVED:
        raise DeskError("not_reserved", _("This entry is not waiting for payment."))
    check_admission(t, entry.person, RESERVATION, now, confirm_final_table=confirm_final_table)
    return _pay_reservation(t, entry, method=method, actor=actor, now=now, jackpot=jackpot, tender=tender_for(t, tender_currency, method, now))


@service
def cancel_reservation(entry, *, actor: Actor, reason: str = "") -> Entry:
    t = lock_tournament(entry.tournament_id)
    entry = Entry.objects.get(pk=entry.pk)
    if entry.status != Entry.RESERVED:
        raise DeskError("not_reserved", _("Only an unpaid reservation can be cancelled here."))
    entry.status = Entry.CANCELLED
    entry.save(update_fields=["status"])
    log_event(t, Action.CASHIER_PREREGISTRATION_CANCELLED, actor, entry=entry.pk, person=entry.person_id, reason=reason)
    return entry


@service
def reenter(
    tournament,
    person,
    *,
    method: str,
    actor: Actor,
    now=None,
    offer: Offer | None = None,
    jackpot: bool = False,
    tender_currency: str = "",
    confirm_final_table: bool = False,
) -> Sale:
    """A busted player buys a new full stack (FMT-05, TDA 8-A), up to the max entries."""
    now = now or timezone.now()
    check_method(method)
    t = lock_tournament(tournament)
    person = Person.objects.get(pk=person.pk)
    check_admission(t, person, RE_ENTRY, now, confirm_final_table=confirm_final_table)
    return _sellnew_entry(
        t,
        person,
        LedgerRow.RE_ENTRY,
        Action.CASHIER_REENTRY_SOLD,
        method=method,
        actor=actor,
        now=now,
        offer=offer,
        jackpot=jackpot,
        tender=tender_for(t, tender_currency, method, now),
    )


def entry_at_desk(entry, person=None):
    """The entry a desk's rebuy or add-on is for; a player with no entry in the tournament (the
    desk sends none) is told so, by name when the desk says who he is."""
    if entry is not None:
        return entry
    if person is not None:
        raise DeskError("not_in_tournament", _("%(name)s is not in this tournament: sell an entry first.") % {"name": person.full_name})
    raise DeskError("not_in_tournament", _("This player is not in this tournament: sell an entry first."))


def _check_rebuy_stack(t: Tournament, stack: int | None) -> None:
    if stack is None:
        raise ValidationFailed("stack_required", _("Enter the player's current stack to check the rebuy rule."))
    if stack > t.rebuy_stack_threshold:
        if t.rebuy_stack_threshold == 0:
            raise DeskError("not_busted", _("A rebuy is only allowed once the player has no chips left."))
        raise DeskError("stack_above_threshold", _("A rebuy is only allowed at or below %(n)s chips.") % {"n": t.rebuy_stack_threshold})


def _check_rebuys_left(t: Tournament, entry: Entry) -> None:
    if t.rebuy_max is not None and entry.rebuys >= t.rebuy_max:
        raise DeskError("max_rebuys_reached", _("This entry has used all %(n)s rebuys.") % {"n": t.rebuy_max})


def _check_declarable(t: Tournament, entry: Entry) -> None:
    """FMT-04 / TDA 27: a rebuy is declared by a player at the table, once until it is collected."""
    if entry.status != Entry.ACTIVE:
        raise DeskError("entry_not_playing", _("Only a player still at the table can declare a rebuy before the hand."))
    if entry.rebuy_declared_at is not None:
        raise DeskError("rebuy_already_declared", _("This player has already declared a rebuy: the desk collects it first."))
    _check_rebuys_left(t, entry)


def _check_rebuy_entry(t: Tournament, entry: Entry) -> None:
    """FMT-04: the entry a rebuy is sold to (its stack aside, which only the sale knows)."""
    if entry.status not in (Entry.ACTIVE, Entry.BUSTED):
        raise DeskError("entry_not_playing", _("This entry is not in the tournament."))
    if entry.status == Entry.BUSTED and HouseRules.of(t).bounty_part:
        # PAY-02: his knockout paid the bounty on his head; back in, he would play with none.
        raise DeskError("bounty_event_reentry", _("In a bounty event a player who is out comes back with a re-entry, which buys a new bounty."))
    _check_rebuys_left(t, entry)


def _check_addon_entry(t: Tournament, entry: Entry, now) -> None:
    """FMT-06: an add-on for a player still in, in its break, up to the most add-ons."""
    if entry.status != Entry.ACTIVE:
        raise DeskError("entry_not_playing", _("Only a player still in the tournament can take the add-on."))
    if not clockview.addon_window_open(t, now):
        raise DeskError("addon_window_closed", _("The add-on is sold only during the break after level %(n)s.") % {"n": t.addon_after_level})
    if entry.addons >= t.addon_max:
        raise DeskError("max_addons_reached", _("This entry has already taken the add-on."))


@service
def declare_rebuy(entry, *, actor: Actor, stack: int | None = None, now=None) -> Entry:
    """FMT-04 / TDA 27: the player declares a rebuy before a hand and plays that hand with the
    chips behind, so he is bound to it. The declaration is recorded as an obligation the desk
    must collect (``rebuy`` with the declaration completes it, even once the stack grew or the
    period ended after the declaration). The desk's rules are asked now, on the normal rebuy path;
    with chips in front of him only where the house lets a rebuy be declared so
    (``rebuy_declare_with_chips``), else at or below the rebuy threshold."""
    now = now or timezone.now()
    t = lock_tournament(entry.tournament_id)
    entry = Entry.objects.select_related("person").get(pk=entry.pk)
    check_admission(t, entry.person, REBUY, now)
    _check_declarable(t, entry)
    if not HouseRules.of(t).rebuy_declare_with_chips:
        _check_rebuy_stack(t, stack)
    entry.rebuy_declared_at = now
    entry.save(update_fields=["rebuy_declared_at"])
    log_event(t, Action.CASHIER_REBUY_DECLARED, actor, entry=entry.pk, stack=stack, amount=str(t.rebuy_price + t.rebuy_fee), declared_at=now.isoformat())
    return entry


@service
def rebuy(entry, *, method: str, actor: Actor, stack: int | None = None, now=None, tender_currency: str = "", confirm_final_table: bool = False) -> Sale:
    """Sell a rebuy: within the period, within the max, only when busted or at/below the threshold.
    A rebuy declared before a hand (FMT-04, TDA 27) is an obligation: it is sold whatever the
    player's stack now, and even after the period ended (it was asked when declared)."""
    now = now or timezone.now()
    check_method(method)
    t = lock_tournament(entry.tournament_id)
    entry = Entry.objects.select_related("person").get(pk=entry.pk)
    declared_at = entry.rebuy_declared_at
    check_admission(
        t, entry.person, REBUY, now, revives=entry.status == Entry.BUSTED, confirm_final_table=confirm_final_table, declared=declared_at is not None
    )
    _check_rebuy_entry(t, entry)
    if entry.status == Entry.ACTIVE and declared_at is None:
        _check_rebuy_stack(t, stack)
    tender = tender_for(t, tender_currency, method, now)
    check_cash_limit(t, t.rebuy_price + t.rebuy_fee, method, tender)
    was_busted = entry.status == Entry.BUSTED
    busted_at = entry.busted_at
    entry.status, entry.busted_at, entry.place = Entry.ACTIVE, None, None
    entry.rebuys += 1
    entry.chips += t.rebuy_chips
    entry.rebuy_declared_at = None
    entry.save(update_fields=["status", "busted_at", "place", "rebuys", "chips", "rebuy_declared_at"])
    row = write_row(
        t,
        kind=LedgerRow.REBUY,
        entry=entry,
        person=entry.person,
        prize=t.rebuy_price,
        fee=t.rebuy_fee,
        chips=t.rebuy_chips,
        method=method,
        actor=actor,
        tender=tender,
    )
    if was_busted:
        announce(signals.entry_revived, t, actor, entry=entry)
    # ``revived``/``busted_at``: what reversing this rebuy puts back (the undo source, ``reverse``).
    log_event(
        t,
        Action.CASHIER_REBUY_SOLD,
        actor,
        entry=entry.pk,
        receipt=row.receipt_number,
        amount=str(row.total),
        chips=row.chips,
        rebuy_no=entry.rebuys,
        revived=was_busted,
        busted_at=busted_at.isoformat() if was_busted and busted_at else None,
        declared_at=declared_at.isoformat() if declared_at else None,
        **tender_log(row),
    )
    return Sale(entry, row)


@service
def addon(entry, *, method: str, actor: Actor, now=None, tender_currency: str = "") -> Sale:
    """Sell an add-on in its window: the break after the configured level (FMT-06)."""
    now = now or timezone.now()
    check_method(method)
    t = lock_tournament(entry.tournament_id)
    entry = Entry.objects.select_related("person").get(pk=entry.pk)
    check_admission(t, entry.person, ADD_ON, now)  # REG-05: a banned player buys no add-on either
    _check_addon_entry(t, entry, now)
    tender = tender_for(t, tender_currency, method, now)
    check_cash_limit(t, t.addon_price + t.addon_fee, method, tender)
    entry.addons += 1
    entry.chips += t.addon_chips
    entry.save(update_fields=["addons", "chips"])
    row = write_row(
        t,
        kind=LedgerRow.ADD_ON,
        entry=entry,
        person=entry.person,
        prize=t.addon_price,
        fee=t.addon_fee,
        chips=t.addon_chips,
        method=method,
        actor=actor,
        tender=tender,
    )
    log_event(t, Action.CASHIER_ADDON_SOLD, actor, entry=entry.pk, receipt=row.receipt_number, amount=str(row.total), chips=row.chips, **tender_log(row))
    return Sale(entry, row)


# --- corrections --------------------------------------------------------------------------


@service
def reverse(row: LedgerRow, *, reason: str, actor: Actor) -> LedgerRow:
    """Correct a mistaken row with a reversing row (opposite amounts, same method), never an edit.

    Reversing a buy-in or re-entry cancels the entry; reversing a rebuy or add-on takes the
    chips back (out of the chips in play: the reversal row carries them negative), and a rebuy
    that bought a busted player back puts him out again, with his bust as it was.
    A row can be reversed once; a reversal cannot itself be reversed.
    """
    if not reason.strip():
        raise ValidationFailed("reason_required", _("A reversal needs a reason."))
    t = lock_tournament(row.tournament_id)
    row = LedgerRow.objects.select_related("entry").get(pk=row.pk)
    if row.kind == LedgerRow.REVERSAL:
        raise DeskError("cannot_reverse_reversal", _("A reversal cannot be reversed; record a new sale instead."))
    if LedgerRow.objects.filter(reverses=row).exists():
        raise DeskError("already_reversed", _("Receipt %(n)s has already been reversed.") % {"n": row.receipt_number})
    if actor.user is not None and not policy.may_reverse(user_roles(actor.user), row.kind):
        raise DeskError(
            "reverse_not_allowed",
            _("Only a role that may record a %(kind)s may reverse it: ask the director.") % {"kind": row.get_kind_display().lower()},
            status=403,
        )
    if row.kind == LedgerRow.RECEIVABLE and row.settlements.filter(reversed_by__isnull=True).exists():
        raise DeskError("reverse_settlement_first", _("This amount owed has been paid: reverse its payment first."))
    if row.entry_id and row.kind in SALE_KINDS and LedgerRow.objects.filter(entry_id=row.entry_id, kind=LedgerRow.REFUND, reversed_by__isnull=True).exists():
        # The refund gave this money back already: reversing the sale too would pay it twice.
        raise DeskError("reverse_refund_first", _("This entry has been refunded: reverse the refund first."))
    entry = row.entry
    if entry is not None and row.kind in SALE_KINDS:
        entry = Entry.objects.get(pk=entry.pk)
        if row.kind in (LedgerRow.BUY_IN, LedgerRow.RE_ENTRY):
            _check_cancellable(t, entry)
            later = entry.ledger.filter(kind__in=(LedgerRow.REBUY, LedgerRow.ADD_ON), reversed_by__isnull=True, receipt_number__gt=row.receipt_number)
            if later.exists():
                raise DeskError("reverse_later_sales_first", _("Reverse this entry's rebuys and add-ons first."))
            if t.status != Tournament.CANCELLED:
                # his bust gave a place (and his bounty to whoever knocked him out): undo it first
                refuse_if_played(t, entry, "undo_bust_first", _("This player has played and holds a finishing place: undo the bust first."))
    check_pool_out(t, row.prize_amount)  # after the refusals that name this entry's own reason
    if entry is not None and row.kind in SALE_KINDS:
        if row.kind in (LedgerRow.BUY_IN, LedgerRow.RE_ENTRY):
            entry.status = Entry.CANCELLED
            entry.chips = 0
            entry.save(update_fields=["status", "chips"])
            announce(signals.entry_cancelled, t, actor, entry=entry)
        elif row.kind == LedgerRow.REBUY:
            _reverse_rebuy(t, row, entry, actor)
        elif row.kind == LedgerRow.ADD_ON:
            entry.addons = max(0, entry.addons - 1)
            entry.chips = max(0, entry.chips - row.chips)
            entry.save(update_fields=["addons", "chips"])
    rev = reversing_row(t, row, reason=reason, actor=actor)
    log_event(t, Action.CASHIER_ROW_REVERSED, actor, receipt=row.receipt_number, reversal=rev.receipt_number, amount=str(rev.total), reason=reason)
    return rev


def reversing_row(t: Tournament, row: LedgerRow, *, reason: str, actor: Actor) -> LedgerRow:
    """The REVERSAL row of ``row`` (opposite amounts, same method), booked on ``actor``'s shift:
    a step of a service that has checked the reversal may be made (``reverse``, a bounty given
    back at the desk). No event is logged here: the calling service logs its own."""
    return write_row(
        t,
        kind=LedgerRow.REVERSAL,
        entry=row.entry,
        person=row.person,
        prize=-row.prize_amount,
        fee=-row.fee_amount,
        side=-row.side_amount,
        jackpot=-row.jackpot_amount,
        bounty=-row.bounty_amount,
        chips=-row.chips,
        method=row.method,
        actor=actor,
        reason=reason.strip(),
        reverses=row,
        tender=fees.Tender(row.tender_currency, row.exchange_rate) if row.tender_currency else None,
        owed=-row.owed_amount,
    )


def _reverse_rebuy(t: Tournament, row: LedgerRow, entry: Entry, actor: Actor) -> None:
    """Undo a rebuy: its chips come off the entry; if it revived a busted player (its sale's log
    row says so) and he is still playing on it, he is busted again as he was before it."""
    sold = TournamentEvent.objects.filter(tournament=t, action=Action.CASHIER_REBUY_SOLD, payload__receipt=row.receipt_number).first()
    revived = bool(sold and sold.payload.get("revived")) and entry.status == Entry.ACTIVE
    if revived:
        later = entry.ledger.filter(kind__in=(LedgerRow.REBUY, LedgerRow.ADD_ON), reversed_by__isnull=True, receipt_number__gt=row.receipt_number)
        if later.exists():
            raise DeskError("reverse_later_sales_first", _("Reverse this entry's later rebuys and add-ons first."))
    entry.rebuys = max(0, entry.rebuys - 1)
    entry.chips = max(0, entry.chips - row.chips)
    fields = ["rebuys", "chips"]
    if revived:
        busted_at = parse_datetime(sold.payload.get("busted_at") or "") or timezone.now()
        entry.status, entry.busted_at = Entry.BUSTED, busted_at
        fields += ["status", "busted_at"]
    entry.save(update_fields=fields)
    if revived:
        announce(signals.entry_revival_undone, t, actor, entry=entry)  # seating frees his seat, his bust counts again


@service
def refund(entry, *, reason: str, actor: Actor, expenses: Decimal = ZERO, method: str = LedgerRow.CASH, reference: str = "") -> LedgerRow:
    """Give money back for an entry (director only): cancelled event, banned pre-registrant (REG-05, REG-12).

    The refund is the entry's net payments minus ``expenses``; the entry is cancelled. In cash
    only within the cash limit (REG-06): above it, a cheque or a transfer (``reference``).
    """
    if not reason.strip():
        raise ValidationFailed("reason_required", _("A refund needs a reason."))
    check_method(method)
    expenses = to_money(expenses)
    t = lock_tournament(entry.tournament_id)
    entry = Entry.objects.select_related("person").get(pk=entry.pk)
    if entry.status == Entry.BUSTED and t.status != Tournament.CANCELLED:
        raise DeskError("no_refund_after_playing", _("No refund for a player who has played and busted (REG-12)."))
    if (entry.presence or entry.no_show_at) and t.status != Tournament.CANCELLED and not entry.person.banned:
        raise DeskError(
            "no_refund_after_leaving",
            _("No refund for a player who left or did not show up: the chips stay in play and the prize of the place is kept (REG-12, ELM-05)."),
        )
    if t.status != Tournament.CANCELLED:
        refuse_if_played(t, entry, "no_refund_after_playing", _("No refund for a player who holds a finishing place (REG-12)."))
    _check_cancellable(t, entry)
    check_pool_out(t, _paid_by(entry)[0])  # after the refusals that name this entry's own reason
    return _write_refund(t, entry, reason=reason.strip(), actor=actor, expenses=expenses, method=method, reference=reference)


def refuse_if_played(t: Tournament, entry: Entry, code: str, holds_place) -> None:
    """REG-12: an entry that holds a finishing place or has won a bounty (another app answers
    ``refund_checked``) has played: its money is not given back, and its sale is not undone.
    The other app may name a refusal of its own (a ``(code, message)`` answer: the entry is in
    a deal, PAY-09)."""
    if entry.place is not None:
        raise DeskError(code, holds_place)
    why = signals.ask_one(signals.refund_checked, tournament=t, entry=entry)
    if why:
        own, why = why if isinstance(why, tuple) else (code, why)
        raise DeskError(own, why)


def check_pool_out(t: Tournament, prize: Decimal) -> None:
    """Prize money leaving the pool of a tournament that plays (a reversal, a refund) is refused
    while another app says so (payouts: a paid place is decided, or the payout table is locked
    and published, PAY-05). A cancelled tournament has no pool: its money is owed back."""
    if t.status == Tournament.CANCELLED:
        return
    why = signals.ask_one(signals.pool_out_checked, tournament=t, prize=prize)
    if why:
        raise DeskError(*why)


def _check_cancellable(t: Tournament, entry: Entry) -> None:
    """An entry that another app's draw holds (a heads-up bracket's match) is not cancelled while
    its tournament plays on: the format decides how he leaves (a no-show's seat freed, a match lost)."""
    if t.status == Tournament.CANCELLED:
        return
    why = signals.ask_one(signals.entry_cancel_checked, tournament=t, entry=entry)
    if why:
        raise DeskError("entry_in_draw", why)


def _paid_by(entry: Entry) -> tuple[Decimal, Decimal, Decimal, Decimal, Decimal]:
    """The entry's net payments on the ledger: prize part, fee, side pools, jackpot fee, bounty."""
    paid = entry.ledger.exclude(selectors.bounty_payments_q()).aggregate(
        p=Sum("prize_amount"), f=Sum("fee_amount"), s=Sum("side_amount"), j=Sum("jackpot_amount"), b=Sum("bounty_amount")
    )
    return paid["p"] or ZERO, paid["f"] or ZERO, paid["s"] or ZERO, paid["j"] or ZERO, paid["b"] or ZERO


def check_refund_cash_limit(t: Tournament, person: Person, amount: Decimal, method: str, now=None) -> None:
    """REG-06 for money going back: one refund in cash within the limit, and the person's cash
    refunds of this tournament today summed with it (two entries refunded apart are one payment)."""
    if method != LedgerRow.CASH:
        return
    start = timezone.localtime(now or timezone.now()).replace(hour=0, minute=0, second=0, microsecond=0)
    agg = t.ledger.filter(person=person, kind=LedgerRow.REFUND, method=LedgerRow.CASH, created_at__gte=start, reversed_by__isnull=True).aggregate(
        p=Sum("prize_amount"), f=Sum("fee_amount"), s=Sum("side_amount"), j=Sum("jackpot_amount"), b=Sum("bounty_amount")
    )
    before = -sum((agg[k] or ZERO for k in "pfsjb"), ZERO)
    check_cash_limit(t, before + amount, method)


def _write_refund(t, entry, *, reason, actor, expenses, method, reference="") -> LedgerRow:
    """The REFUND row (the entry's net payments minus ``expenses``, within the cash limit), the
    entry cancelled with its chips, the event logged. Runs under the tournament's lock."""
    prize, fee, side, jackpot, bounty = _paid_by(entry)
    paid = prize + fee + side + jackpot + bounty
    if paid <= ZERO:
        raise DeskError("nothing_to_refund", _("Nothing has been paid for this entry."))
    if expenses < ZERO or expenses > paid:
        raise ValidationFailed("bad_expenses", _("Expenses must be between zero and the amount paid."))
    check_refund_cash_limit(t, entry.person, paid - expenses, method)
    # Expenses are kept by the house: taken from the fee first, then from the prize part.
    keep_fee = min(fee, expenses)
    keep_prize = expenses - keep_fee
    row = write_row(
        t,
        kind=LedgerRow.REFUND,
        entry=entry,
        person=entry.person,
        prize=-(prize - keep_prize),
        fee=-(fee - keep_fee),
        side=-side,
        jackpot=-jackpot,
        bounty=-bounty,
        chips=-entry.chips,
        method=method,
        actor=actor,
        reason=reason,
        note=f"expenses {expenses}",
        reference=reference.strip(),
    )
    entry.status, entry.chips = Entry.CANCELLED, 0
    entry.save(update_fields=["status", "chips"])
    announce(signals.entry_cancelled, t, actor, entry=entry)  # its seat freed (if still held), the jackpot fund shown anew
    log_event(
        t,
        Action.CASHIER_REFUND_PAID,
        actor,
        entry=entry.pk,
        receipt=row.receipt_number,
        amount=str(row.total),
        expenses=str(expenses),
        reason=reason,
        method=method,
    )
    return row


# --- the refunds of a cancelled tournament (FMT-02, REG-06) ---------------------------------


@service
def pay_refund(entry, *, method: str, actor: Actor, reference: str = "") -> LedgerRow:
    """Hand out one refund of a cancelled tournament (FMT-02): the cashier who pays it writes the
    REFUND row on his own shift, for the whole amount the entry paid, in cash within the cash
    limit (REG-06) or by cheque / transfer. Paid once: a second payment is refused."""
    check_method(method)
    t = lock_tournament(entry.tournament_id)
    entry = Entry.objects.select_related("person").get(pk=entry.pk)
    if t.status != Tournament.CANCELLED:
        raise DeskError("tournament_not_cancelled", _("Only a cancelled tournament's refunds are paid here."))
    ids, reason = selectors.cancellation_refunds([t.pk]).get(t.pk, ([], ""))
    if entry.pk not in selectors.refunds_still_due([entry.pk] if entry.pk in ids else []):
        raise DeskError("no_refund_due", _("No refund is due for this entry: it has been paid already."))
    if method in (LedgerRow.TRANSFER, LedgerRow.CHEQUE) and not reference.strip():
        raise ValidationFailed("reference_required", _("A refund by cheque or transfer needs its number or reference."))
    return _write_refund(t, entry, reason=_("Tournament cancelled: %(r)s") % {"r": reason}, actor=actor, expenses=ZERO, method=method, reference=reference)


# --- alternates ---------------------------------------------------------------------------


@service
def add_alternate(tournament, person, *, actor: Actor) -> Alternate:
    t = lock_tournament(tournament)
    person = Person.objects.get(pk=person.pk)
    _check_alternate(t, person)
    alt = Alternate.objects.create(tournament=t, person=person)
    log_event(t, Action.CASHIER_ALTERNATE_ADDED, actor, person=person.pk, name=person.full_name, position=alternate_position(alt))
    return alt


def _check_alternate(t: Tournament, person: Person) -> None:
    check_not_banned(person)
    if t.alternates.filter(person=person, status=Alternate.WAITING).exists():
        raise DeskError("already_alternate", _("%(name)s is already on the alternates list.") % {"name": person.full_name})


def alternate_position(alt: Alternate) -> int:
    return alt.tournament.alternates.filter(status=Alternate.WAITING, id__lte=alt.id).count()


@service
def admit_alternate(tournament, *, method: str, actor: Actor, now=None, tender_currency: str = "") -> Sale:
    """Sell the freed place to the first alternate in line (FIFO, REG-08)."""
    t = lock_tournament(tournament)
    alt = t.alternates.filter(status=Alternate.WAITING).order_by("created_at", "id").first()
    if alt is None:
        raise DeskError("no_alternates", _("Nobody is waiting on the alternates list."))
    sale = register(t, alt.person, method=method, actor=actor, now=now, tender_currency=tender_currency)
    alt.status, alt.entry = Alternate.ADMITTED, sale.entry
    alt.save(update_fields=["status", "entry"])
    return sale


# --- exchange rates (REG-06) -----------------------------------------------------------------

MAX_RATE = Decimal("1000")


@service
def set_exchange_rate(currency: str, rate, *, actor: Actor, day=None, base: str = "EUR") -> ExchangeRate:
    """The cashiers' supervisor sets the rate of the day for USD or CHF (REG-06): how many units
    of ``base`` one unit of ``currency`` buys. A new row each time; the latest of the day counts."""
    currency, base = (currency or "").strip().upper(), (base or "EUR").strip().upper()
    if currency not in fees.FOREIGN_CURRENCIES or currency == base:
        raise ValidationFailed("bad_tender_currency", _("The desk takes %(list)s besides %(cur)s.") % {"list": ", ".join(fees.FOREIGN_CURRENCIES), "cur": base})
    try:
        rate = Decimal(str(rate))
    except (ArithmeticError, ValueError):
        rate = None
    if isinstance(rate, Decimal) and rate.is_finite():
        rate = rate.quantize(Decimal("0.000001")) if rate < MAX_RATE else rate
    if rate is None or not rate.is_finite() or not ZERO < rate < MAX_RATE:
        raise ValidationFailed("bad_rate", _("An exchange rate is a positive number (how many %(base)s one %(cur)s buys).") % {"base": base, "cur": currency})
    if not currencies.is_accepted(base):
        raise ValidationFailed(
            "bad_currency",
            _("The currency is one of %(list)s (ISO 4217 codes this installation accepts).") % {"list": ", ".join(currencies.accepted())},
            fields={"base_currency": [_("Not a currency accepted here.")]},
        )
    day = day or timezone.localdate()
    row = ExchangeRate.objects.create(date=day, currency=currency, base_currency=base, rate=rate, set_by=actor.user)
    log_event(None, Action.TOURNAMENTS_EXCHANGE_RATE_SET, actor, date=day.isoformat(), currency=currency, base=base, rate=str(rate))
    return row


# --- reports ------------------------------------------------------------------------------


def _shift_groups(cashier_id, since):
    # REG-09: an amount owed (and its reversal) moved no money: not in the drawer. Its payment is.
    rows = (
        LedgerRow.objects.filter(cashier_id=cashier_id, created_at__gte=since)
        .exclude(kind=LedgerRow.RECEIVABLE)
        .exclude(kind=LedgerRow.REVERSAL, reverses__kind=LedgerRow.RECEIVABLE)
    )
    return (
        rows.values("method", "tender_currency")
        .annotate(
            n=Count("id"),
            prize=Sum("prize_amount"),
            fee=Sum("fee_amount"),
            side=Sum("side_amount"),
            jackpot=Sum("jackpot_amount"),
            bounty=Sum("bounty_amount"),
            # PAY-02: bounties paid at the desk (and their reversals), apart from the bounty parts sold
            bounty_out=Sum("bounty_amount", filter=selectors.bounty_payments_q()),
            tendered=Sum("tender_amount"),
        )
        .order_by()
        .values_list("method", "tender_currency", "n", "prize", "fee", "side", "jackpot", "bounty", "bounty_out", "tendered")
    )


# The desk polls it: the statement is compiled once per database (tdmanager.compiled).
_SHIFT_GROUPS = Compiled(_shift_groups, LedgerRow, kinds=("int", DATETIME))


def shift_totals(user, *, since=None):
    """The cashier's running totals since ``since`` (default: today): money in and out by method,
    as the drawer holds it (REG-06).

    One query, grouped by method and tendered currency (the desk polls it). A method's line counts
    the tournament's currency only: cash tendered in USD or CHF is not in the "Cash" line (those
    notes are not euros in the drawer) but on a line of its own currency, with the amount in that
    currency and its value at the sale's rate (``value``). ``total``: every line's value, so the
    lines add up to it.

    PAY-02: the bounty parts are in the lines (they are money in the drawer) and told apart in
    ``bounty``: ``in`` the bounty parts of the sales net of refunds and reversals, ``out`` the
    bounties paid to players (positive) net of reversed payments, ``net`` = in − out."""
    since = since or timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
    methods, currencies, count = {}, {}, 0
    bounty_in = bounty_out = ZERO
    for method, currency, n, *sums in _SHIFT_GROUPS.rows(user.pk, since):
        # Amounts are whole cents: a sum SQLite adds in floating point (a sale and its reversal
        # leave 8.9e-16) is brought back to the cent, as PostgreSQL's exact sum already is.
        prize, fee, side, jackpot, bounty, paid_out, tendered = (x.quantize(CENT) if x is not None else None for x in sums)
        count += n
        value = (prize or ZERO) + (fee or ZERO) + (side or ZERO) + (jackpot or ZERO) + (bounty or ZERO)
        bounty_in += (bounty or ZERO) - (paid_out or ZERO)
        bounty_out -= paid_out or ZERO
        if currency:  # REG-06: foreign notes in the drawer, by currency
            f = currencies.setdefault(currency, {"rows": 0, "amount": ZERO, "value": ZERO})
            f["rows"] += n
            f["amount"] += tendered or ZERO
            f["value"] += value
            continue
        m = methods.setdefault(method, {"rows": 0, "total": ZERO})
        m["rows"] += n
        m["total"] += value
    labels = dict(LedgerRow.METHODS)
    by_method = [{"method": k, "label": str(labels[k]), "rows": v["rows"], "total": v["total"]} for k, v in sorted(methods.items())]
    foreign = [{"currency": k, "rows": v["rows"], "amount": v["amount"].quantize(Decimal("0.01")), "value": v["value"]} for k, v in sorted(currencies.items())]
    total = sum((m["total"] for m in by_method), ZERO) + sum((f["value"] for f in foreign), ZERO)
    bounty = {"in": bounty_in, "out": bounty_out, "net": bounty_in - bounty_out}
    return {"since": since, "by_method": by_method, "total": total, "rows": count, "foreign": foreign, "bounty": bounty}


def ledger_totals(tournament):
    """The tournament's ledger summed by part. PAY-02: ``bounty`` the bounty parts taken in (net
    of refunds and reversals), ``bounty_paid`` the bounties paid out (positive), apart."""
    agg = tournament.ledger.aggregate(
        p=Sum("prize_amount"),
        f=Sum("fee_amount"),
        s=Sum("side_amount"),
        j=Sum("jackpot_amount"),
        b=Sum("bounty_amount"),
        bp=Sum("bounty_amount", filter=selectors.bounty_payments_q()),
        c=Sum("chips"),
    )
    paid = -(agg["bp"] or ZERO)
    return {
        "prize": agg["p"] or ZERO,
        "fee": agg["f"] or ZERO,
        "side": agg["s"] or ZERO,
        "jackpot": agg["j"] or ZERO,
        "bounty": (agg["b"] or ZERO) + paid,
        "bounty_paid": paid,
        "chips": agg["c"] or 0,
    }


def purge_idempotency_keys(now=None) -> int:
    """Delete idempotency keys older than ``TDM_IDEMPOTENCY_TTL_HOURS`` (never less than a day:
    a cashier who retries after a lost answer the same shift is always recognised)."""
    hours = max(24, int(getattr(settings, "TDM_IDEMPOTENCY_TTL_HOURS", 48)))
    cutoff = (now or timezone.now()) - timedelta(hours=hours)
    deleted, _n = IdempotencyRecord.objects.filter(created_at__lt=cutoff).delete()
    return deleted
