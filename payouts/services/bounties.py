"""Bounties (PAY-02): what a knockout wins, paying it at the desk, and taking it back.

The arithmetic is the pure engine's (``payouts/bounties.py``); this module keeps its state:
each entry's bounty (``BountyHead``, FIXED and PKO events) and every award (``BountyAward``).
Seating announces the busts and their undoing (``seating.signals``), tournaments the sales and
cancellations; the receivers (``payouts/receivers.py``) call the functions here inside the
announcing service's transaction, under the tournament's lock, so a refusal here (an
eliminator missing, a bounty that has passed on) refuses the bust or the undo itself.

Money moves once: when the player collects what he has won at the desk (``pay_bounties``: one
BOUNTY row with the bounty part negative, within the cash limit, REG-06). A bust whose bounty
was paid is not undone until the player has given the money back at the desk
(``return_bounty``: the reversal is booked on the shift of the cashier who takes the cash, and
the bounty is owed again); an undo never books money into anyone's drawer.

A deal approved at the final table (PAY-09) settles the bounty money then in play
(``settle_in_deal``): DEAL awards owed at the desk, the heads zeroed, the mystery bag shared or
carried over; the knockouts after it pay nothing and the winner takes no bounty of his own.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import F, Sum
from django.utils.translation import gettext as _

from seating.models import Bust
from tdmanager.errors import ValidationFailed
from tdmanager.formatting import money as fmt_money
from tdmanager.money import ZERO
from tdmanager.transactions import service
from tournaments.cashier.ledger import lock_tournament, write_row
from tournaments.cashier.services import reversing_row
from tournaments.clock import selectors as clock_selectors
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.house import HouseRules
from tournaments.models import Entry, LedgerRow, Tournament

from .. import bounties as engine
from .. import deals as deal_engine
from ..models import BountyAward, BountyHead, Deal
from ..selectors.bounties import bounties_owed_query, bounty_money, bounty_taken_in
from ..selectors.common import money
from ..selectors.table import places_paid
from .common import PayoutError, _money, check_will_play
from .prizes import check_cash_payout

HEADS = (engine.FIXED, engine.PKO)


def _engine_error(exc: engine.BountyError) -> ValidationFailed:
    return ValidationFailed(f"bounty_{exc.code}", str(exc))


# --- heads: bought with each buy-in and re-entry ---------------------------------------------


def open_head(t: Tournament, entry: Entry) -> BountyHead | None:
    """A FIXED or PKO event's entry became playing: its bounty is what its sale bought (the
    ledger's bounty part, PAY-02). Nothing in other events; nothing twice."""
    rules = HouseRules.of(t)
    if rules.bounty not in HEADS:
        return None
    bought = entry.ledger.filter(kind__in=(LedgerRow.BUY_IN, LedgerRow.RE_ENTRY)).aggregate(b=Sum("bounty_amount"))["b"] or ZERO
    head, created = BountyHead.objects.get_or_create(tournament=t, entry=entry, defaults={"bought": bought, "amount": bought})
    return head


def close_head(t: Tournament, entry: Entry) -> None:
    """A cancelled entry (reversed or refunded: the bounty part went back) has no bounty."""
    BountyHead.objects.filter(tournament=t, entry=entry).update(amount=ZERO, bought=ZERO)


def void_uncollected(t: Tournament) -> None:
    """A cancelled tournament (FMT-02) gives every player his bounty part back with his refund:
    the bounties won and not collected yet are void. One already collected stays with its
    winner, paid by the house (``selectors.bounty_money``: ``borne``)."""
    BountyAward.objects.filter(pk__in=list(bounties_owed_query(t).values_list("pk", flat=True))).update(void=BountyAward.CANCELLED)


# --- knockouts -------------------------------------------------------------------------------


def _mystery_paying(t: Tournament, rules: HouseRules, bust: Bust) -> bool:
    """Whether a knockout at this bust draws an envelope (``mystery_from``)."""
    stage = rules.mystery_from
    if stage == "START":
        return True
    if stage == "ITM":
        paid = places_paid(t)
        return bool(paid) and bust.place is not None and bust.place <= paid
    if stage == "DAY2":
        return rules.multiday_day == 2
    level = clock_selectors.level_now(t)
    return level is not None and level >= stage["level"]


def _eliminators(t: Tournament, rules: HouseRules, bust: Bust, named: list[dict], out_now: set[int]) -> list[engine.Eliminator]:
    """The named eliminators, checked: players of this tournament still playing, each once; a
    share of the pot a whole number of chips above zero, and given for each of a split pot's
    winners when the house shares the bounty by the pot (a lone winner won the whole pot)."""
    ids = [e["entry"] for e in named]
    if len(set(ids)) != len(ids):
        raise ValidationFailed("duplicate_eliminator", _("An eliminator is listed twice."), field="eliminators")
    if bust.entry_id in ids:
        raise ValidationFailed("self_knockout", _("The player who went out cannot be listed as an eliminator."), field="eliminators")
    playing = set(Entry.objects.filter(tournament=t, pk__in=ids, status=Entry.ACTIVE).values_list("pk", flat=True)) - out_now
    for entry_id in ids:
        if entry_id not in playing:
            number = Entry.objects.filter(pk=entry_id, tournament=t).values_list("number", flat=True).first()
            raise ValidationFailed(
                "eliminator_not_playing",
                _("Entry #%(n)s is not playing in this tournament: only a player still in can knock one out.") % {"n": number or entry_id},
                field="eliminators",
            )
    by_pot = rules.bounty_split == engine.SPLIT_POT and len(named) > 1
    out = []
    for e in named:
        share = e.get("pot_share")
        if share is None:
            if by_pot:  # a missing share would weigh 1 chip against the others': nothing, silently
                raise ValidationFailed(
                    "pot_share_required",
                    _("The bounty of a split pot is shared by the pot here: give the chips each eliminator won of it."),
                    field="pot_share",
                )
            out.append(engine.Eliminator(e["entry"]))
            continue
        try:
            share = Decimal(str(share))
        except ArithmeticError:
            share = Decimal(-1)
        if isinstance(e.get("pot_share"), bool) or not share.is_finite() or share <= 0 or share != share.to_integral_value():
            raise ValidationFailed("bad_pot_share", _("Each eliminator's share of the pot is a whole number of chips above zero."), field="pot_share")
        out.append(engine.Eliminator(e["entry"], share))
    return out


def knockouts(t: Tournament, busts: list[Bust], eliminators: dict, winner: int | None, actor: Actor) -> list[BountyAward]:
    """The bounties of these busts (seating's ``players_busted``), and the winner's own bounty
    once one player is left. Refused (the bust with it) when a bust of a bounty event names no
    eliminator, or one who is not playing."""
    rules = HouseRules.of(t)
    if rules.bounty == engine.NONE:
        return []
    out_now = {b.entry_id for b in busts}
    awards: list[BountyAward] = []
    lefts: dict[int, list[int]] = {}  # bust → the envelopes in the bag when its envelope was drawn
    for bust in busts:
        named = eliminators.get(bust.entry_id) or []
        if not named and bust.kind == Bust.BUST:
            name = Entry.objects.filter(pk=bust.entry_id).values_list("person__first_name", "person__last_name").first() or ("", "")
            raise ValidationFailed(
                "eliminator_required",
                _("This is a bounty event: name who knocked %(name)s out.") % {"name": " ".join(name).strip() or f"#{bust.entry_id}"},
                field="eliminators",
            )
        people = _eliminators(t, rules, bust, named, out_now) if named else []
        try:
            made = _head_knockout(t, rules, bust, people) if rules.bounty in HEADS else _mystery_knockout(t, rules, bust, people, lefts)
        except engine.BountyError as exc:
            raise _engine_error(exc) from None
        BountyAward.objects.bulk_create(made)  # written now: the next bust's draw reads the bag without them
        awards += made
    if winner is not None:
        made = _finish(t, rules, winner)
        BountyAward.objects.bulk_create(made)
        awards += made
    if awards:
        _log_awards(t, actor, awards, lefts=lefts)
    return awards


def _split(rules: HouseRules) -> dict:
    return {"split": rules.bounty_split, "unit": rules.bounty_rounding, "remainder": rules.bounty_remainder}


def _head_knockout(t, rules, bust, people) -> list[BountyAward]:
    head = BountyHead.objects.filter(tournament=t, entry_id=bust.entry_id).first()
    amount = head.amount if head is not None else ZERO
    if head is not None:
        BountyHead.objects.filter(pk=head.pk).update(amount=ZERO)
    if not people:  # a removal (PEN-07, a no-show): nobody knocked him out, the house keeps it
        return [BountyAward(tournament=t, kind=BountyAward.HOUSE, knocked_out_id=bust.entry_id, bust=bust, cash=amount)] if amount else []
    result = engine.knockout(rules.bounty, amount, people, cash_percent=rules.bounty_cash_percent, **_split(rules))
    awards = []
    for person, award in zip(people, result.awards):
        if award.added:
            # An entry playing without a head (seated before the event became a bounty event, or
            # written in bulk by an import) starts one at nothing: the money it wins stays counted.
            BountyHead.objects.get_or_create(tournament=t, entry_id=award.player, defaults={"bought": ZERO, "amount": ZERO})
            BountyHead.objects.filter(tournament=t, entry_id=award.player).update(amount=F("amount") + award.added)
        awards.append(_won(t, bust, people, person, award, added=award.added))
    if result.house:
        awards.append(BountyAward(tournament=t, kind=BountyAward.HOUSE, knocked_out_id=bust.entry_id, bust=bust, cash=result.house))
    return awards


def _won(t, bust, people, person, award, **kind_of_bounty) -> BountyAward:
    """One eliminator's KNOCKOUT award (not written): his cash, and what the bounty's kind adds
    (a PKO's part onto his head; a mystery event's envelope and the seed of its draw); his share
    of the pot only when several split it."""
    return BountyAward(
        tournament=t,
        kind=BountyAward.KNOCKOUT,
        winner_id=award.player,
        knocked_out_id=bust.entry_id,
        bust=bust,
        pot_share=None if len(people) == 1 else person.pot_share,
        cash=award.cash,
        **kind_of_bounty,
    )


def mystery_bag(t: Tournament, rules: HouseRules | None = None) -> engine.MysteryBag | None:
    """The director's envelopes, the standing draws taken out; None before he sets them up."""
    rules = rules or HouseRules.of(t)
    if not rules.mystery_envelopes:
        return None
    drawn = BountyAward.objects.filter(tournament=t, void="", envelope__isnull=False).values_list("bust_id", "envelope").distinct()
    return engine.MysteryBag(rules.envelopes, drawn=sorted({number for _bust, number in drawn}))


def _mystery_knockout(t, rules, bust, people, lefts: dict) -> list[BountyAward]:
    if not people:
        return []
    # After a deal settled the bag (its envelopes shared or carried over) nothing is drawn.
    paying = _mystery_paying(t, rules, bust) and not settled_by_deal(t)
    bag = mystery_bag(t, rules) if paying else None
    if paying and bag is None:
        raise PayoutError("no_envelopes", _("Mystery bounties are paid from now on: the director sets up the envelopes first."))
    if paying and bounty_taken_in(t) < sum(rules.envelopes, ZERO):
        # a refund or reversal gave back money an envelope holds: a draw could pay money the bag
        # no longer has (nothing has been drawn yet: ``receivers.refund_checked``)
        raise PayoutError(
            "envelopes_over_bag",
            _("Bounty money has been given back since the envelopes were set up: the director sets them up again first, to the money taken in."),
        )
    if paying and not bag.left:
        paying = False  # every envelope has gone: the knockout is recorded, nothing is drawn
    seed = secrets.randbits(62) if paying else None
    if paying:
        lefts[bust.pk] = bag.left  # the draw's input, logged with its seed (seating.replay)
    result = engine.mystery_knockout(bag, people, seed=seed, paying=paying, **_split(rules))
    awards = [_won(t, bust, people, person, award, envelope=award.envelope, seed=seed) for person, award in zip(people, result.awards)]
    if result.house:
        awards.append(
            BountyAward(tournament=t, kind=BountyAward.HOUSE, knocked_out_id=bust.entry_id, bust=bust, cash=result.house, envelope=awards[0].envelope)
        )
    return awards


def _finish(t, rules, winner: int) -> list[BountyAward]:
    """One player left: a PKO's or fixed event's winner takes his own bounty; a mystery
    event's money still in play (the envelopes left, with what the desk took in or gave back
    since the director set them up) goes as ``mystery_leftover`` says."""
    if rules.bounty in HEADS:
        head = BountyHead.objects.filter(tournament=t, entry_id=winner).first()
        if head is None or not head.amount:
            return []
        BountyHead.objects.filter(pk=head.pk).update(amount=ZERO)
        return [BountyAward(tournament=t, kind=BountyAward.OWN, winner_id=winner, cash=head.amount)]
    bag = mystery_bag(t, rules)
    if bag is None or settled_by_deal(t):
        return []
    to_winner, carried = engine.mystery_leftover(bag, winner, rules.mystery_leftover)
    left = to_winner + carried + bounty_money(t)["unbagged"]  # the money in play, not the envelopes' face value
    if left <= 0:
        return []
    to_the_winner = rules.mystery_leftover == engine.LEFTOVER_TO_WINNER
    return [BountyAward(tournament=t, kind=BountyAward.LEFTOVER, winner_id=winner if to_the_winner else None, cash=left)]


def _log_awards(t, actor, awards: list[BountyAward], lefts=None, **extra) -> None:
    ids = {a.winner_id for a in awards if a.winner_id} | {a.knocked_out_id for a in awards if a.knocked_out_id}
    full = {e.pk: e.person.full_name for e in Entry.objects.filter(pk__in=ids).select_related("person")}
    for a in awards:
        payload = {
            "award": a.pk,
            "kind": a.kind,
            "entry": a.winner_id,
            "name": full.get(a.winner_id, ""),
            "knocked_out": a.knocked_out_id,
            "knocked_out_name": full.get(a.knocked_out_id, ""),
            "cash": str(a.cash),
            "added": str(a.added),
            "bust": a.bust_id,
            **extra,
        }
        if a.envelope is not None:
            payload.update(envelope=a.envelope, seed=a.seed)
            if a.seed is not None and a.bust_id in (lefts or {}):
                payload["left"] = lefts[a.bust_id]  # what the seed drew from: replay_draw draws it again
            log_event(t, Action.PAYOUTS_MYSTERY_DRAWN, actor, **payload)
        else:
            log_event(t, Action.PAYOUTS_BOUNTY_WON, actor, **payload)


# --- undo ------------------------------------------------------------------------------------


def undo_knockouts(t: Tournament, busts: list[Bust], actor: Actor) -> list[BountyAward]:
    """Busts undone (seating's ``busts_undone``): their awards (and the winner's, the event no
    longer over) are void, a PKO's heads as they were before, a mystery envelope back in the
    bag. Refused when a bounty won there has passed on since (its winner was knocked out
    himself later), and when one has been paid at the desk (``bounty_paid``): the money is in
    the player's pocket, and whoever undoes the bust has not taken it back; the cashier records
    it given back first (``return_bounty``), on his own shift."""
    if HouseRules.of(t).bounty == engine.NONE:
        return []
    deal = settled_by_deal(t)
    if deal is not None and any(str(b.entry_id) not in deal.stacks for b in busts):
        raise PayoutError(
            "bounty_settled_in_deal",
            _("The bounties in play were settled by the deal approved since: a bust from before the deal cannot be undone."),
        )
    ids = [b.pk for b in busts]
    awards = list(BountyAward.objects.filter(tournament=t, bust_id__in=ids, void=""))
    # What the deal settled stays: the event's end (the winner's own bounty, the envelopes left) is undone.
    awards += list(BountyAward.objects.filter(tournament=t, kind__in=(BountyAward.OWN, BountyAward.LEFTOVER), deal__isnull=True, void=""))
    if not awards:
        return []
    gainers = {a.winner_id for a in awards if a.added}
    later = BountyAward.objects.filter(tournament=t, knocked_out_id__in=gainers, void="").exclude(bust_id__in=ids).select_related("knocked_out__person").first()
    if later is not None:
        raise PayoutError(
            "bounty_passed_on",
            _("The bounty won here has passed on: %(name)s was knocked out since. Undo that bust first.") % {"name": later.knocked_out.person.full_name},
        )
    _refuse_if_paid(t, awards)
    for a in awards:
        if a.added:
            BountyHead.objects.filter(tournament=t, entry_id=a.winner_id).update(amount=F("amount") - a.added)
    restored: dict[int, Decimal] = {}
    for a in awards:
        if a.kind in (BountyAward.KNOCKOUT, BountyAward.HOUSE) and a.knocked_out_id and a.envelope is None:
            restored[a.knocked_out_id] = restored.get(a.knocked_out_id, ZERO) + a.cash + a.added
        if a.kind == BountyAward.OWN:
            restored[a.winner_id] = restored.get(a.winner_id, ZERO) + a.cash
    for entry_id, amount in restored.items():
        BountyHead.objects.filter(tournament=t, entry_id=entry_id).update(amount=F("amount") + amount)
    BountyAward.objects.filter(pk__in=[a.pk for a in awards]).update(void=BountyAward.UNDONE)
    log_event(
        t,
        Action.PAYOUTS_BOUNTY_UNDONE,
        actor,
        busts=ids,
        awards=[a.pk for a in awards],
        cash=str(sum((a.cash for a in awards if a.winner_id), ZERO)),
    )
    return awards


def _refuse_if_paid(t: Tournament, awards: list[BountyAward]) -> None:
    """``bounty_paid``: an award among ``awards`` has been paid at the desk and not given back.
    The refusal names each player and the money to recover from him; ``paid`` lists the awards
    (``award``, ``entry``, ``name``, ``amount``, ``receipt``) for ``return_bounty``."""
    paid = [a for a in awards if a.row_id is not None and not a.row.is_reversed]
    if not paid:
        return
    names = {e.pk: e.person.full_name for e in Entry.objects.filter(pk__in={a.winner_id for a in paid}).select_related("person")}
    owed_back: dict[int, Decimal] = {}
    for a in paid:
        owed_back[a.winner_id] = owed_back.get(a.winner_id, ZERO) + a.cash
    who = ", ".join(
        _("%(amount)s from %(name)s") % {"amount": fmt_money(amount, t.currency), "name": names.get(entry, "")} for entry, amount in owed_back.items()
    )
    raise PayoutError(
        "bounty_paid",
        _(
            "A bounty won here has already been paid at the desk: recover %(who)s. The cashier records the money "
            "returned at the desk (Payouts due, Bounties paid: Money returned); then undo the bust."
        )
        % {"who": who},
        paid=[
            {"award": a.pk, "entry": a.winner_id, "name": names.get(a.winner_id, ""), "amount": money(a.cash), "receipt": a.row.receipt_number} for a in paid
        ],
    )


# --- deals (PAY-09): the bounty money in play settled when the deal is approved -------------


def settled_by_deal(t: Tournament) -> Deal | None:
    """The first approved deal of a bounty event: it settled the bounty money then in play
    (heads zeroed, the mystery bag shared or carried over). None before any."""
    return Deal.objects.filter(tournament=t, status=Deal.APPROVED).exclude(bounty_in_deal="").order_by("approved_at", "id").first()


def deal_bounty_state(t: Tournament, entry_ids: list[int], rules: HouseRules | None = None) -> dict | None:
    """The bounty money a deal among ``entry_ids`` settles (None in an event without bounties).

    ``heads``: the bounty on each player's head (FIXED, PKO); ``total``: the money in play, the
    heads' sum or the mystery envelopes left in the bag (``selectors.bounty_money``'s ``in_bag``:
    all the bounty money taken in when the director has not set the bag up); ``rule``: the house's ``bounty_in_deal``;
    ``leftover``: a mystery event's ``mystery_leftover``. After an earlier deal settled it all,
    nothing is left in play."""
    rules = rules or HouseRules.of(t)
    if rules.bounty == engine.NONE:
        return None
    state = {"kind": rules.bounty, "rule": rules.bounty_in_deal, "entries": list(entry_ids), "heads": {}, "leftover": None}
    if rules.bounty in HEADS:
        on = dict(BountyHead.objects.filter(tournament=t, entry_id__in=entry_ids).values_list("entry_id", "amount"))
        state["heads"] = {i: on.get(i, ZERO) for i in entry_ids}
        state["total"] = sum(state["heads"].values(), ZERO)
        return state
    state["leftover"] = rules.mystery_leftover
    state["total"] = ZERO if settled_by_deal(t) is not None else max(ZERO, bounty_money(t)["in_bag"])
    return state


def deal_shares(state: dict, chips: list[int], *, equal: bool) -> list[Decimal]:
    """What each player in the deal takes of the bounty money in play, in the order of
    ``chips`` (``payouts.deals.deal_bounties``): a PKO's or fixed event's heads kept apart or
    shared with the deal (``equal``: an even chop shares equally, the other methods by chips).
    A mystery event's envelopes left are shared among the players in the deal when the house
    gives them to the winner (the deal decides no winner: equally with the bounties kept apart,
    as the deal shares them when added) and shared by nobody when carried over."""
    if state["kind"] in HEADS:
        heads = [state["heads"][i] for i in state["entries"]]
        return deal_engine.deal_bounties(heads, chips, rule=state["rule"], equal=equal)
    if state["leftover"] == engine.LEFTOVER_CARRY_OVER:
        return [ZERO] * len(chips)
    return deal_engine.bounty_shares(chips, state["total"], equal=equal or state["rule"] == deal_engine.BOUNTIES_APART)


def settle_in_deal(t: Tournament, deal: Deal, actor: Actor) -> list[BountyAward]:
    """The director approves ``deal`` (a step of ``approve_deal``): each player in it is owed
    his part of the bounty money (a DEAL award, collected at the desk like any bounty, apart
    from the prize he is paid), the heads are zeroed, the envelopes left carried over when the
    house says so. Refused when the bounties have changed since the proposal."""
    if not deal.bounty_in_deal:
        return []
    rules = HouseRules.of(t)
    ids = [int(k) for k in deal.stacks]
    state = deal_bounty_state(t, ids, rules)
    heads = {str(k): money(v) for k, v in (state or {}).get("heads", {}).items()}
    if state is None or state["total"] != deal.bounty_total or heads != deal.heads:
        raise PayoutError("bounties_changed", _("The bounties in play have changed since the deal was proposed: propose it again."))
    awards = [
        BountyAward(tournament=t, kind=BountyAward.DEAL, winner_id=int(k), cash=Decimal(v), deal=deal) for k, v in deal.bounties.items() if Decimal(v) > 0
    ]
    if state["kind"] == engine.MYSTERY and state["leftover"] == engine.LEFTOVER_CARRY_OVER and state["total"] > 0:
        awards.append(BountyAward(tournament=t, kind=BountyAward.LEFTOVER, cash=state["total"], deal=deal))
    if state["kind"] in HEADS:
        BountyHead.objects.filter(tournament=t, entry_id__in=ids).update(amount=ZERO)
    BountyAward.objects.bulk_create(awards)
    if awards:
        _log_awards(t, actor, awards, deal=deal.pk, bounty_in_deal=deal.bounty_in_deal, shared=state["kind"] == engine.MYSTERY)
    return awards


# --- paying at the desk ----------------------------------------------------------------------


@service
def pay_bounties(entry, *, method: str, actor: Actor, reference: str = "", payee: str = "") -> LedgerRow:
    """Pay ``entry``'s player every bounty he has won and not collected, in one operation: one
    BOUNTY row (its bounty part negative) with its receipt, in cash only within the cash limit
    and not split to dodge it (REG-06), else by cheque or transfer in his name."""
    t = lock_tournament(entry.tournament_id)
    entry = Entry.objects.select_related("person").get(pk=entry.pk)
    owed = list(bounties_owed_query(t).filter(winner=entry))
    amount = sum((a.cash for a in owed), ZERO)
    if amount <= ZERO:
        raise PayoutError("no_bounty_owed", _("%(name)s has no bounty to collect.") % {"name": entry.person.full_name})
    payee = check_cash_payout(t, entry.person, amount, method=method, reference=reference, payee=payee)
    row = write_row(
        t,
        kind=LedgerRow.BOUNTY,
        entry=entry,
        person=entry.person,
        prize=ZERO,
        fee=ZERO,
        bounty=-amount,
        chips=0,
        method=method,
        actor=actor,
        reference=reference.strip(),
        payee=payee,
        note=(_("bounties: %(n)s") % {"n": len(owed)})[:200],
    )
    BountyAward.objects.filter(pk__in=[a.pk for a in owed]).update(row=row)
    log_event(
        t,
        Action.PAYOUTS_BOUNTY_PAID,
        actor,
        entry=entry.pk,
        name=entry.person.full_name,
        amount=str(amount),
        method=method,
        receipt=row.receipt_number,
        awards=[a.pk for a in owed],
    )
    return row


@dataclass(frozen=True)
class BountyReturned:
    """A bounty given back at the desk: the award (owed again), the reversal of its payment and
    the BOUNTY row that keeps the other bounties of that payment paid (None when it paid only this one)."""

    award: BountyAward
    reversal: LedgerRow
    kept: LedgerRow | None


@service
def return_bounty(award, *, reason: str, actor: Actor) -> BountyReturned:
    """The player gives back a bounty he was paid at the desk (a bust undone after he collected
    it, PAY-02): its payment is reversed on ``actor``'s shift (the cashier who takes the money
    into his drawer), in its method, with ``reason``; the other bounties that payment covered
    stay paid (a new BOUNTY row for them, on the same shift, the player keeping that money), so
    the drawer takes in exactly this bounty's cash. The bounty is owed again: the director can
    now undo its bust, which voids it."""
    reason = (reason or "").strip()
    if not reason:
        raise ValidationFailed("reason_required", _("Say why the money is given back."), field="reason")
    t = lock_tournament(award.tournament_id)
    award = BountyAward.objects.select_related("winner__person", "row").get(pk=award.pk, tournament=t)
    row = award.row
    if award.void or row is None or row.is_reversed:
        raise PayoutError("bounty_not_paid", _("This bounty has not been paid at the desk: there is no money to give back."))
    others = list(BountyAward.objects.filter(row=row, void="").exclude(pk=award.pk))
    rev = reversing_row(t, row, reason=reason, actor=actor)
    BountyAward.objects.filter(pk=award.pk).update(row=None)
    kept = None
    if others:
        kept = write_row(
            t,
            kind=LedgerRow.BOUNTY,
            entry=row.entry,
            person=row.person,
            prize=ZERO,
            fee=ZERO,
            bounty=-sum((a.cash for a in others), ZERO),
            chips=0,
            method=row.method,
            actor=actor,
            reference=row.reference,
            payee=row.payee,
            note=(_("bounties: %(n)s") % {"n": len(others)})[:200],
        )
        BountyAward.objects.filter(pk__in=[a.pk for a in others]).update(row=kept)
    log_event(
        t,
        Action.PAYOUTS_BOUNTY_RETURNED,
        actor,
        award=award.pk,
        entry=award.winner_id,
        name=award.winner.person.full_name if award.winner_id else "",
        amount=str(award.cash),
        method=row.method,
        receipt=row.receipt_number,
        reversal=rev.receipt_number,
        kept=kept.receipt_number if kept else None,
        reason=reason,
    )
    return BountyReturned(award, rev, kept)


# --- mystery envelopes -----------------------------------------------------------------------


@service
def set_envelopes(tournament, amounts, *, actor: Actor) -> list[Decimal]:
    """The director sets up a mystery bounty's envelopes (PAY-02): positive amounts that add up
    to the bounty money taken in (the bounty part of every buy-in and re-entry, net of
    reversals and refunds). Once an envelope has been drawn, envelopes can only be added."""
    t = lock_tournament(tournament)
    check_will_play(t)
    rules = HouseRules.of(t)
    if rules.bounty != engine.MYSTERY:
        raise PayoutError("not_mystery", _("Envelopes are set up for a mystery bounty event only."))
    if not isinstance(amounts, (list, tuple)) or not amounts:
        raise ValidationFailed("bad_envelopes", _("List the envelopes' amounts."), field="envelopes")
    if len(amounts) > 2000:
        raise ValidationFailed("bad_envelopes", _("At most 2,000 envelopes."), field="envelopes")
    values = [_money(a, _("An envelope")) for a in amounts]
    if any(v <= 0 for v in values):
        raise ValidationFailed("bad_envelopes", _("Every envelope holds a positive amount."), field="envelopes")
    if settled_by_deal(t) is not None:
        raise PayoutError("envelopes_settled", _("A deal has settled the envelopes left: the bag cannot change now."))
    if BountyAward.objects.filter(tournament=t, void="", envelope__isnull=False).exists() and values[: len(rules.envelopes)] != rules.envelopes:
        # A re-entry sold after the first draws brings bounty money the bag lacks: envelopes
        # may be added after those the players have drawn from, never changed.
        raise PayoutError("envelopes_drawn", _("Envelopes have been drawn already: add new envelopes after the old ones, which cannot change."))
    taken = bounty_taken_in(t)
    total = sum(values, ZERO)
    if total != taken:
        raise PayoutError(
            "envelopes_total",
            _("The envelopes add up to %(total)s; the bounty money taken in is %(taken)s.")
            % {"total": fmt_money(total, t.currency), "taken": fmt_money(taken, t.currency)},
        )
    settings = dict(t.settings or {})
    settings["mystery_envelopes"] = [str(v) for v in values]
    Tournament.objects.filter(pk=t.pk).update(settings=settings)
    log_event(t, Action.PAYOUTS_MYSTERY_ENVELOPES_SET, actor, envelopes=len(values), total=str(total))
    return values
