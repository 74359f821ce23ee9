"""Payouts reacts to what tournaments and seating announce, and answers what tournaments asks."""

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from seating import signals as seating_signals
from tdmanager import realtime
from tournaments import signals
from tournaments.eventlog.actions import Action
from tournaments.house import HouseRules
from tournaments.models import Tournament
from tournaments.people.privacy import is_erased

from . import bounties, selectors, services
from .models import BountyAward, Deal, PrizePayment, SatelliteLink


def draw_replay_wanted(sender, tournament, action=None, **kwargs):
    """A mystery envelope's draw is replayed from its logged seed and the envelopes then left."""
    return replay_mystery if action == Action.PAYOUTS_MYSTERY_DRAWN else None


def replay_mystery(payload: dict) -> tuple[dict, dict]:
    return {"envelope": payload.get("envelope")}, {"envelope": bounties.draw_envelope(payload["left"], payload["seed"])}


def players_busted(sender, tournament, actor, busts=(), eliminators=None, winner=None, **kwargs):
    """A bounty event pays its knockouts (PAY-02); a satellite ends by itself once the players
    left equal the seats (FMT-08)."""
    if any(b.h4h_hand is not None for b in busts):  # a bust ties with the earlier ones of its hand-for-hand hand
        services.check_paid_places_stand(tournament, by_bust=True)
    services.knockouts(tournament, list(busts), eliminators or {}, winner, actor)
    if tournament.format == Tournament.SATELLITE:
        services.after_bust(tournament, actor=actor)


def busts_undone(sender, tournament, actor, busts=(), **kwargs):
    """PAY-02: an undone bust's bounties are taken back; a prize paid for a place the undo takes
    away is refused (PAY-13: the payment is reversed first). A satellite whose seats are awarded
    (FMT-08) has ended, and undoes no bust (``seating.services.busts.refuse_if_ended``)."""
    services.check_paid_places_stand(tournament)  # the places as the undo leaves them
    services.undo_knockouts(tournament, list(busts), actor)


def knockouts_wanted(sender, tournament, busts=(), winner=None, **kwargs):
    """PAY-02: what the knockouts of these busts won, for the floor; nothing outside a bounty event.
    Asked after every bust (the house rules are built once per distinct settings)."""
    if HouseRules.of(tournament).bounty == "NONE":
        return None
    return selectors.knockouts_of(tournament, busts, winner)


def bounty_bought(sender, tournament, entry=None, **kwargs):
    """PAY-02: a FIXED or PKO event's entry playing carries the bounty its sale bought."""
    if entry is not None:
        services.open_head(tournament, entry)


def bounty_returned(sender, tournament, entry=None, **kwargs):
    """PAY-02: a cancelled entry's bounty went back with its money; in a cancelled tournament
    (FMT-02) every bounty part goes back, and the bounties not collected yet are void."""
    if entry is not None and HouseRules.of(tournament).bounty != "NONE":
        services.close_head(tournament, entry)
        if tournament.status == Tournament.CANCELLED:
            services.void_uncollected(tournament)


def sales_closed(sender, tournament, actor, after_level, **kwargs):
    """PAY-05: registration closed and the pool is final: the payout table is locked and published,
    in its own transaction once the clock's has committed (the clock's beat task holds a plain one)."""
    pk = tournament.pk
    transaction.on_commit(lambda: services.lock_at_close(pk, actor=actor, after_level=after_level))


def price_checked(sender, tournament, buy_in, fee, **kwargs):
    """A seat a satellite awards is worth the target's buy-in and fee: it cannot become free."""
    if buy_in + fee > 0:
        return None
    if SatelliteLink.objects.filter(target=tournament, completed_at__isnull=True).exists():
        return _("A satellite awards seats in this tournament: it needs a buy-in or a fee.")
    return None


def guarantee_checked(sender, tournament, guarantee=None, **kwargs):
    """A guarantee promises a prize pool: a tournament whose prize parts make another's pool (a
    Day 1 flight's go to its Day 2) has none of its own, and the guarantee belongs there. A pool
    of its own changes its guarantee only while no prize stands on it (PAY-05:
    ``services.guarantee_change_refusal``, a ``(code, why)`` answer)."""
    owner = selectors.pool_owner(tournament)
    if owner.pk == tournament.pk:
        return services.guarantee_change_refusal(tournament)
    if not guarantee:
        return None  # a flight's guarantee taken away: there was none to keep
    return _("The prize pool of this tournament is %(owner)s's: set the guarantee there.") % {"owner": owner.name}


def snapshot_parts(sender, tournament, entries=None, **kwargs):
    return selectors.display_summary(tournament, entries=entries)


def bounties_wanted(sender, tournament, entries=None, **kwargs):
    """PAY-02: the bounty on each seated player's head, for the table map."""
    return selectors.bounties_on_heads(tournament, entries) or None


def places_paid_wanted(sender, tournament, **kwargs):
    return selectors.places_paid(tournament)


def jackpot_snapshot(sender, tournament, **kwargs):
    """REG-11: lobby screens of a tournament playing for the jackpot show the fund."""
    if not HouseRules.of(tournament).jackpot:
        return None
    return {"jackpot": selectors.jackpot_summary()}


def jackpot_sale_checked(sender, tournament, now=None, **kwargs):
    """PAY-12: on a day the jackpot was won its fee is not sold (it cannot be won until tomorrow)."""
    fund = selectors.jackpot_fund()
    if fund is not None and selectors.jackpot_lock(fund, now) is not None:
        return _("The jackpot was won today: it is back on sale tomorrow.")
    return None


def refund_checked(sender, tournament, entry, **kwargs):
    """REG-12: a player who has knocked somebody out has played: no refund (the bounty he won
    would stay owed to him while his own bounty part went back). PAY-09: a player in a deal
    approved at the final table is neither refunded nor his sale reversed: the deal shared the
    prize pool (and the bounty money) his money is part of. PAY-02: once a mystery envelope has
    been drawn, the bounty money is in envelopes that never change: no bounty part goes back."""
    for deal in Deal.objects.filter(tournament=tournament, status=Deal.APPROVED).only("stacks"):
        if str(entry.pk) in deal.stacks:
            return (
                "in_deal",
                _("%(name)s is in the deal approved at the final table: the deal shared the money paid for this entry, which stays in the prize pool (PAY-09).")
                % {"name": entry.person.full_name},
            )
    if HouseRules.of(tournament).bounty == "MYSTERY" and BountyAward.objects.filter(tournament=tournament, void="", envelope__isnull=False).exists():
        # the envelopes drawn came out of a bag this money is in, and they never change
        if entry.ledger.filter(bounty_amount__gt=0).exists():
            return (
                "envelopes_drawn",
                _("Mystery envelopes have been drawn from the bounty money this entry paid: it is no longer given back."),
            )
    if BountyAward.objects.filter(tournament=tournament, winner=entry, void="").exists():
        return _("%(name)s has won a bounty: a player who has won one has played (REG-12).") % {"name": entry.person.full_name}
    return None


def pool_out_checked(sender, tournament, prize, **kwargs):
    """PAY-05: prize money leaving the pool (a reversal, a refund) waits while the pool is shared
    out (``services.pool_shrink_refusal``): the pool it is part of, a flight's sale the Day 2's."""
    return services.pool_shrink_refusal(selectors.pool_owner(tournament)) if prize > 0 else None


def cancel_checked(sender, tournament, **kwargs):
    """FMT-02: a cancellation refunds every entry in full, so it cannot follow a prize paid out of
    the same pool (the pool would pay twice): the payments are reversed first, or the event ends
    with a deal (PAY-09). A Day 1 flight's prize parts are its Day 2's pool: cancelling the flight
    takes them out of it (``selectors.pool_sources``), so it waits while that pool may not shrink
    (``services.pool_shrink_refusal``, PAY-05: the Day 2 table locked, a paid place decided)."""
    if selectors.active_payments(tournament):
        return (
            "prizes_paid",
            _(
                "Prizes have been paid from this tournament's pool, and a cancellation refunds every entry on top of them: reverse those payments first, or end the tournament with a deal (PAY-09)."
            ),
        )
    owner = selectors.pool_owner(tournament)
    if owner.pk != tournament.pk and selectors.money_in(tournament)["prize"] > 0:
        why = services.pool_shrink_refusal(owner)
        if why:
            code, reason = why
            return (
                code,
                _("The prize parts this tournament collected are in the prize pool of %(owner)s, and a cancellation takes them out to refund them: %(why)s")
                % {"owner": owner.name, "why": reason},
            )
    return None


def payee_erased(sender, person, **kwargs):
    """A payee is the winner's name as registered (``check_cash_payout``): the prize payments of a
    person erased name his pseudonym, as the ledger's rows do."""
    if is_erased(person):
        PrizePayment.objects.filter(entry__person=person).exclude(payee="").update(payee=person.stored_name)


def jackpot_fund_changed(sender, tournament, entry=None, **kwargs):
    """REG-11: a jackpot fee sold, reversed or refunded changes the fund every lobby screen of
    the venue shows: the screens of the other tournaments playing for it refresh too."""
    if entry is None or not HouseRules.of(tournament).jackpot or not entry.ledger.filter(~Q(jackpot_amount=0)).exists():
        return
    others = [t.pk for t in selectors.jackpot_tournaments(exclude=tournament)]
    if others:
        transaction.on_commit(lambda: [realtime.tournament_changed(pk) for pk in others])


def entry_view_parts(sender, entry, **kwargs):
    return selectors.entry_prizes(entry)


def entries_view_parts(sender, tournament, snapshot, **kwargs):
    return selectors.entries_prizes(tournament, snapshot.get("places_paid"))


def page_links(sender, tournament, **kwargs):
    return selectors.tournament_links(tournament)


def report_links(sender, tournament, **kwargs):
    return selectors.report_links(tournament)


def person_data_wanted(sender, person, **kwargs):
    return selectors.person_prizes(person)


def history_parts(sender, person, entries, **kwargs):
    return selectors.history_prizes(entries)


def connect():
    seating_signals.players_busted.connect(players_busted, dispatch_uid="payouts.players_busted")
    seating_signals.busts_undone.connect(busts_undone, dispatch_uid="payouts.busts_undone")
    seating_signals.knockouts_wanted.connect(knockouts_wanted, dispatch_uid="payouts.knockouts_wanted")
    signals.entry_paid.connect(bounty_bought, dispatch_uid="payouts.bounty_bought")
    signals.entry_cancelled.connect(bounty_returned, dispatch_uid="payouts.bounty_returned")
    signals.snapshot_parts.connect(snapshot_parts, dispatch_uid="payouts.snapshot_parts")
    signals.snapshot_parts.connect(jackpot_snapshot, dispatch_uid="payouts.jackpot_snapshot")
    seating_signals.bounties_wanted.connect(bounties_wanted, dispatch_uid="payouts.bounties_wanted")
    seating_signals.draw_replay_wanted.connect(draw_replay_wanted, dispatch_uid="payouts.draw_replay_wanted")
    signals.places_paid_wanted.connect(places_paid_wanted, dispatch_uid="payouts.places_paid_wanted")
    signals.jackpot_sale_checked.connect(jackpot_sale_checked, dispatch_uid="payouts.jackpot_sale_checked")
    signals.cancel_checked.connect(cancel_checked, dispatch_uid="payouts.cancel_checked")
    signals.entry_paid.connect(jackpot_fund_changed, dispatch_uid="payouts.jackpot_fund_changed.paid")
    signals.entry_cancelled.connect(jackpot_fund_changed, dispatch_uid="payouts.jackpot_fund_changed.cancelled")
    signals.price_checked.connect(price_checked, dispatch_uid="payouts.price_checked")
    signals.guarantee_checked.connect(guarantee_checked, dispatch_uid="payouts.guarantee_checked")
    signals.refund_checked.connect(refund_checked, dispatch_uid="payouts.refund_checked")
    signals.pool_out_checked.connect(pool_out_checked, dispatch_uid="payouts.pool_out_checked")
    signals.person_changed.connect(payee_erased, dispatch_uid="payouts.payee_erased")
    signals.sales_closed.connect(sales_closed, dispatch_uid="payouts.sales_closed")
    signals.page_links.connect(page_links, dispatch_uid="payouts.page_links")
    signals.entry_view_parts.connect(entry_view_parts, dispatch_uid="payouts.entry_view_parts")
    signals.entries_view_parts.connect(entries_view_parts, dispatch_uid="payouts.entries_view_parts")
    signals.report_links.connect(report_links, dispatch_uid="payouts.report_links")
    signals.person_data_wanted.connect(person_data_wanted, dispatch_uid="payouts.person_data_wanted")
    signals.history_parts.connect(history_parts, dispatch_uid="payouts.history_parts")
