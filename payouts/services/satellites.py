"""Satellites: the link to the target, the seats awarded (FMT-08); tickets are ``tickets``."""

from __future__ import annotations

from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager.errors import ValidationFailed
from tdmanager.money import ZERO
from tdmanager.transactions import service
from tournaments.cashier import services as cashier
from tournaments.cashier.ledger import issue_paid_entry, lock_tournament, write_row
from tournaments.cashier.services import DeskError
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.house import HouseRules
from tournaments.models import Clock, Entry, LedgerRow, Tournament

from ..models import PayoutTable, PrizePayment, SatelliteLink, Ticket
from ..selectors.prizes import place_groups
from ..selectors.satellites import satellite_awards, satellite_link, satellite_pool, seat_value
from ..selectors.table import proposed_prizes
from .common import PayoutError, _table, check_will_play
from .table import _store, validate_prizes


@service
def link_satellite(
    satellite, target, *, actor: Actor, remainder_rule: str | None = None, prize_base: str | None = None, already_registered: str = SatelliteLink.TICKET
) -> SatelliteLink:
    """Make ``satellite`` award seats in ``target`` (FMT-08). ``remainder_rule`` (C13) and
    ``prize_base`` (C14) not named: the satellite's house rules (``satellite_remainder_rule``,
    ``satellite_prize_base``: cash to the first place without a seat, gross). ``already_registered``:
    what a winner the target does not take (already registered there, or refused by its desk rules)
    gets instead of the seat: a ticket for the target (TICKET) or the seat's value in money (CASH)."""
    t = lock_tournament(satellite)
    check_will_play(t)
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
    log_event(
        t, Action.PAYOUTS_SATELLITE_LINKED, actor, target=target.pk, remainder_rule=remainder_rule, prize_base=prize_base, already_registered=already_registered
    )
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
        ticket = Ticket.objects.create(holder=person, target=target, value=value, source=sat, description=_("Satellite seat: %(t)s") % {"t": target.name})
        reference = f"ticket {ticket.pk}"
    else:
        seat_entry, _row = issue_paid_entry(
            target, person, actor=actor, method=LedgerRow.OTHER, note="satellite seat", reference=f"satellite {sat.pk}", entry=reserved, now=now
        )
        reference = f"{target.name[:50]} entry #{seat_entry.number}"
    row = write_row(
        sat,
        kind=LedgerRow.PAYOUT,
        entry=entry,
        person=person,
        prize=-value,
        fee=ZERO,
        chips=0,
        method=LedgerRow.OTHER,
        actor=actor,
        payee=person.full_name,
        reference=reference,
        note="satellite seat",
    )
    return PrizePayment.objects.create(
        tournament=sat,
        entry=entry,
        source="MAIN:SEAT",
        kind="SEAT",
        place=entry.place,
        amount=value,
        method=LedgerRow.OTHER,
        reference=reference,
        payee=person.full_name,
        row=row,
        ticket=ticket,
        seat_entry=seat_entry,
        paid_by=actor.user,
    )


def _seat_winners(t, players: list, seats: int) -> tuple[list, list]:
    """FMT-08 with ELM-02 / ELM-06: who wins a seat once no more than ``seats`` players are left.

    The players left win seats, and so do the players out on the bust that took the field below
    the seats (a same-hand bust of two at 8 left for 7 seats) whose place is a seat place: ranked
    by their starting stacks (ELM-02), the bigger stack takes 7th and the seat. A tie group whose
    places run past the last seat (equal stacks: both 7th, places 7–8) cannot split a seat: it
    shares the value of the places it covers in money (ELM-06: Σ prize(k … k+m−1) ÷ m each).
    Returns ``(busted seat winners, [(place, size)] of the groups that share in money)``."""
    winners, shared = [], []
    for place, members in sorted(place_groups(t).items()):
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
    check_will_play(t)
    link = satellite_link(t)
    if link is None:
        raise PayoutError("not_a_satellite", _("This tournament is not linked to a target tournament."))
    if link.completed_at:
        raise PayoutError("already_completed", _("The seats of this satellite have already been awarded."))
    target = lock_tournament(link.target_id)
    if target.status in (Tournament.FINISHED, Tournament.CANCELLED):
        raise PayoutError("target_closed", _("%(name)s has already ended.") % {"name": target.name})
    awards = satellite_awards(t, link)
    seats = sum(1 for a in awards if a.seat)
    players = list(t.entries.filter(status=Entry.ACTIVE).select_related("person").order_by("number"))
    if seats == 0:
        raise PayoutError("no_seats", _("The prize pool does not buy a single seat: play it as a normal tournament."))
    if len(players) > seats:
        raise PayoutError(
            "seats_not_decided", _("%(n)s players are left for %(s)s seats: the satellite ends when they are equal.") % {"n": len(players), "s": seats}
        )
    busted_winners, shared = _seat_winners(t, players, seats)
    table = _table(t)
    pool_total = satellite_pool(t, link)
    if table.state != PayoutTable.LOCKED:
        prizes = proposed_prizes(t)
        for place, size in shared:  # a seat a tie group cannot split is its value in money, shared (ELM-06)
            for p in prizes:
                if place <= p["place"] < place + size and p["kind"] == "SEAT":
                    p.update(kind="CASH", description="", target=None)
        prizes = validate_prizes(prizes, pool_total)
        _store(t, table, prizes, state=PayoutTable.LOCKED, pool_total=pool_total)
        table.locked_at, table.locked_by = now, actor.user
        table.save(update_fields=["locked_at", "locked_by"])
    value = seat_value(link.target)  # the entry issued in the target carries its bounty part too
    for e in players:
        e.place = 1  # a shared first place: every seat is worth the same
        e.save(update_fields=["place"])
    winners = players + busted_winners
    # The seats and tickets are the house's, moving no money through anybody's drawer: their rows
    # are booked on no shift (not the floor's or the dealer's whose bust decided the seats).
    house = Actor(None, "satellite seats")
    awarded = [(e, _award_seat(t, target, link, e, value, house, now)) for e in winners]
    payments = [p for _e, p in awarded if p is not None]
    link.completed_at = now
    link.save(update_fields=["completed_at"])
    t.status = Tournament.FINISHED
    t.save(update_fields=["status"])
    Clock.objects.filter(tournament=t).exclude(status=Clock.FINISHED).update(status=Clock.FINISHED, ends_at=None, version=F("version") + 1)
    log_event(
        t,
        Action.PAYOUTS_SATELLITE_COMPLETED,
        actor,
        target=target.pk,
        seats=seats,
        winners=[{"entry": e.pk, "seat_entry": p.seat_entry_id if p else None, "ticket": p.ticket_id if p else None, "cash": p is None} for e, p in awarded],
        shared=[{"place": place, "players": size} for place, size in shared],
    )
    return payments


def satellite_ready(tournament) -> bool:
    """True when a linked satellite has no more players left than seats (FMT-08): time to end it
    (a bust of several players may take the field below the seats: ``complete_satellite``)."""
    t = Tournament.objects.get(pk=getattr(tournament, "pk", tournament))
    link = satellite_link(t)
    if link is None or link.completed_at or t.status != Tournament.RUNNING:
        return False
    seats = sum(1 for a in satellite_awards(t, link) if a.seat)
    return seats > 0 and t.entries.filter(status=Entry.ACTIVE).count() <= seats


def after_bust(tournament, *, actor: Actor):
    """For the seating app to call after it records a bust: a satellite whose seats are now
    decided ends by itself. Returns the seat payments, or None when nothing happened."""
    if satellite_ready(tournament):
        return complete_satellite(tournament, actor=actor)
    return None
