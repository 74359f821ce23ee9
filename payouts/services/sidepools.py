"""Side pools kept apart from the prize pool: Last Longer, chip-leader prizes (REG-10)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tdmanager import shown_text
from tdmanager.errors import ValidationFailed
from tdmanager.money import ZERO, split_evenly
from tdmanager.transactions import service
from tournaments.cashier.ledger import lock_tournament
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.models import Entry, checks

from ..models import JackpotFund, SideAward, SideContribution, SidePool, SideToken
from ..selectors.common import side_pool_balance
from .common import PayoutError, _money, check_will_play, pool_shrink_refusal


@service
def create_side_pool(
    tournament, *, kind: str, name: str, actor: Actor, key: str = "", from_ledger: bool = True, from_prize_pool=ZERO, fund: JackpotFund | None = None
) -> SidePool:
    """A side pool kept apart from the prize pool (Last Longer, jackpot, chip-leader prizes);
    ``from_prize_pool``: what it takes out of the prize pool, refused while the pool may not
    shrink (``pool_shrink_refusal``: the table locked, a paid place decided; PAY-05)."""
    t = lock_tournament(tournament)
    check_will_play(t)
    if kind not in dict(SidePool.KINDS):
        raise ValidationFailed("bad_kind", _("Unknown side pool."))
    why = pool_shrink_refusal(t) if _money(from_prize_pool) > 0 else None
    if why:
        raise PayoutError(*why)
    shown_text.check(name, "name", _("Name"))  # the lobby screens show it
    key = (key or kind).lower().replace("_", "-")[:40]
    if t.side_pools.filter(key=key).exists():
        raise PayoutError("duplicate_side_pool", _("This tournament already has a side pool '%(k)s'.") % {"k": key})
    pool = SidePool(
        tournament=t,
        kind=kind,
        name=name.strip() or str(dict(SidePool.KINDS)[kind]),
        key=key,
        from_ledger=from_ledger,
        from_prize_pool=_money(from_prize_pool),
        fund=fund,
    )
    checks.clean(pool, exclude=["key"])  # a page's name longer than the column: a 400, not PostgreSQL's error
    pool.save(force_insert=True)
    log_event(t, Action.PAYOUTS_SIDEPOOL_CREATED, actor, pool=pool.pk, kind=kind, name=pool.name, from_prize_pool=str(pool.from_prize_pool))
    return pool


@service
def contribute_side_pool(pool, amount, *, actor: Actor, note: str = "") -> SideContribution:
    t = lock_tournament(pool.tournament_id)
    check_will_play(t)
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
    check_will_play(t)
    pool = SidePool.objects.get(pk=pool.pk)
    left = side_pool_balance(pool)["left"]
    if awards is None:
        if pool.kind != SidePool.LAST_LONGER:
            raise ValidationFailed("awards_required", _("Say who wins this side pool and how much."))
        eligible = t.entries.filter(pre_registered=True, place__isnull=False).exclude(status=Entry.CANCELLED).order_by("place", "number")
        best = eligible.first()
        if best is None:
            raise PayoutError("no_winner_yet", _("No pre-registered player has a finishing place yet."))
        # PAY-10: the best finisher; while some who take part still play, none of those out is it
        playing = list(t.entries.filter(pre_registered=True, place__isnull=True, status=Entry.ACTIVE).order_by("number")[:2])
        if len(playing) > 1:
            raise PayoutError("no_winner_yet", _("More than one player is still in: there is no winner yet."))
        winners = playing or list(eligible.filter(place=best.place))
        awards = list(zip(winners, split_evenly(left, len(winners))))
    awards = [(e, _money(a)) for e, a in awards]
    if pool.fund_id:  # one way to win the venue's jackpot: claim_jackpot, with its rules
        raise PayoutError("jackpot_by_claim", _("The progressive jackpot is won by a royal flush the floor records, and paid at the desk (PAY-12)."))
    if sum((a for _e, a in awards), ZERO) > left:
        raise PayoutError("side_pool_overdrawn", _("The side pool holds only %(left)s.") % {"left": left})
    made = [SideAward.objects.create(pool=pool, entry=e, amount=a, note=note[:200], created_by=actor.user) for e, a in awards if a > 0]
    log_event(t, Action.PAYOUTS_SIDEPOOL_AWARDED, actor, pool=pool.pk, awards=[{"entry": a.entry_id, "amount": str(a.amount)} for a in made])
    return made


@service
def issue_side_token(pool, entry, *, label: str, actor: Actor, now=None) -> SideToken:
    """REG-10: at the desk a Last Longer participant is given a special chip or plaque that
    identifies him («una fiche o placca speciale»): recorded with which one, when and by whom, and
    logged. Only a pre-registered entry of the pool's tournament takes part; one chip or plaque
    per entry, and each label once in the pool."""
    t = lock_tournament(pool.tournament_id)
    check_will_play(t)
    pool = SidePool.objects.get(pk=pool.pk)
    if pool.kind != SidePool.LAST_LONGER:
        raise PayoutError("not_last_longer", _("Chips and plaques are issued for a Last Longer only."))
    label = (label or "").strip()
    if not label:
        raise ValidationFailed("label_required", _("Write the number of the chip or plaque handed over."))
    entry = Entry.objects.select_related("person").get(pk=entry.pk)
    if entry.tournament_id != t.pk or entry.status == Entry.CANCELLED:
        raise PayoutError("not_in_tournament", _("This entry is not in this tournament."))
    if not entry.pre_registered:
        raise PayoutError("not_pre_registered", _("Only players registered in advance take part in the Last Longer (REG-10)."))
    if pool.tokens.filter(entry=entry).exists():
        raise PayoutError("token_already_issued", _("This player already has the Last Longer chip or plaque."))
    if pool.tokens.filter(label=label).exists():
        raise PayoutError("token_label_taken", _("Chip or plaque %(label)s has already been handed to another player.") % {"label": label})
    token = SideToken.objects.create(pool=pool, entry=entry, label=label, issued_by=actor.user, **({"issued_at": now} if now else {}))
    log_event(
        t, Action.PAYOUTS_LAST_LONGER_TOKEN_ISSUED, actor, pool=pool.pk, entry=entry.pk, entry_number=entry.number, name=entry.person.full_name, label=label
    )
    return token
