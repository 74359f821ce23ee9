"""The desk's rules: what every path that creates an entry or moves money asks first.

Cash limits, bans, the sales windows, the field cap, the final table, re-entries, rebuys and
add-ons, in one module, so that the desk's sales, a ticket redeemed, a satellite seat issued and a
qualified entry ask the same rules (``check_admission``) and none of them skips one.
"""

from decimal import Decimal

from django.conf import settings
from django.db.models import Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.money import ZERO, to_money
from tournaments import signals
from tournaments.cashier import rules as fees
from tournaments.clock import selectors as clock_selectors
from tournaments.house import HouseRules
from tournaments.labels import shipped_text
from tournaments.models import Entry, LedgerRow, Person, Tournament

LIVE = (Entry.RESERVED, Entry.ACTIVE)


class DeskError(DomainError):
    """A sale refused by a rule; ``code`` says which."""


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


def check_not_banned(person: Person) -> None:
    if person.banned:
        raise DeskError(
            "banned", _("%(name)s is banned and cannot play: %(reason)s") % {"name": person.full_name, "reason": shipped_text(person.banned_reason)}
        )


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
    if t.status == Tournament.RUNNING and not clock_selectors.late_registration_open(t, now):
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
            if not t.allows_reentry:  # FMT-03: out of a freezeout is out; no re-entry to point to
                raise DeskError("reentry_not_allowed", _("This tournament does not allow re-entry."))
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
    if t.reentry_until_level and t.status == Tournament.RUNNING and clock_selectors.level_has_ended(t, t.reentry_until_level, now):
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
    if clock_selectors.level_has_ended(t, last, now):
        raise DeskError("rebuy_period_over", _("The rebuy period ended after level %(n)s.") % {"n": last})


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
    if t.addon_after_level is None:
        # an event with an add-on price but no break for it (an imported one, say) sells none
        raise DeskError("addon_window_closed", _("No break is set for this event's add-on: the director sets the level it follows first."))
    if not clock_selectors.addon_window_open(t, now):
        raise DeskError("addon_window_closed", _("The add-on is sold only during the break after level %(n)s.") % {"n": t.addon_after_level})
    if entry.addons >= t.addon_max:
        raise DeskError("max_addons_reached", _("This entry has already taken the add-on."))
