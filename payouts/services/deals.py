"""Deals at the final table: the calculator, the proposal, each player's consent, the approval (PAY-09, ROLE-08)."""

from __future__ import annotations

from decimal import Decimal

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from seating import selectors as seating_selectors
from tdmanager import formatting
from tdmanager.errors import ValidationFailed
from tdmanager.money import ZERO
from tdmanager.transactions import service
from tournaments.cashier.ledger import lock_tournament
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.floor import services as floor
from tournaments.floor.selectors import chips_in_play
from tournaments.house import HouseRules
from tournaments.models import Entry, Tournament

from .. import bounties as bounty_engine
from .. import deals as deal_engine
from ..models import BOUNTY_IN_DEAL_LABELS, POOL_FUNDED, Deal, DealAcceptance, PayoutTable
from ..selectors.common import money
from ..selectors.table import place_values, table_prizes, table_state
from .bounties import deal_bounty_state, deal_shares, settle_in_deal
from .common import PayoutError, _money, _table, check_will_play
from .table import _store, validate_prizes

# The deal engine's refusals (``payouts.deals.DealError`` codes) as the reader reads them: in
# the page's language, the numbers they name in its format.
# ``chips_not_in_play``: said by which way the stacks entered miss the chips in play.
CHIPS_SHORT = gettext_lazy(
    "The stacks entered add up to %(counted)s chips, but %(in_play)s are in play: %(missing)s are missing. "
    "Count the stacks again, or record on the floor page the chips that left play."
)
CHIPS_OVER = gettext_lazy(
    "The stacks entered add up to %(counted)s chips, but only %(in_play)s are in play: %(extra)s too many. "
    "Count the stacks again, or record on the floor page the chips found."
)

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
    "bad_bounty_rule": gettext_lazy("Bounties in a deal are kept apart (APART) or added to the deal (ADDED)."),
    "chips_not_in_play": CHIPS_SHORT,  # or CHIPS_OVER, by the difference's sign (``deal_refusal``)
}


def deal_refusal(exc: deal_engine.DealError) -> str:
    """A ``DealError`` in words for the person refused."""
    if exc.code == "chips_not_in_play":
        p = exc.params
        numbers = {"counted": formatting.num(p["counted"]), "in_play": formatting.num(p["in_play"])}
        if p["difference"] < 0:
            return str(CHIPS_SHORT) % {**numbers, "missing": formatting.num(-p["difference"])}
        return str(CHIPS_OVER) % {**numbers, "extra": formatting.num(p["difference"])}
    message = DEAL_REFUSALS.get(exc.code)
    if message is None:
        return exc.message
    params = {k: formatting.money(v) if isinstance(v, Decimal) else formatting.num(v) for k, v in exc.params.items()}
    return str(message) % params if params else str(message)


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
    try:  # PAY-09: the deal shares by the chips now; stacks that miss some share by wrong shares
        deal_engine.check_chips_in_play(chips.values(), chips_in_play(t))
    except deal_engine.DealError as exc:
        raise ValidationFailed(exc.code, deal_refusal(exc), field="stacks", **exc.params) from None
    prizes = table_prizes(t)
    n = len(players)
    in_play = [p for p in prizes if p["place"] <= n]
    left = deal_engine.prizes_left(place_values(prizes), n)
    return players, [chips[i] for i in ids], left, in_play


def deal_counts(t, players) -> dict:
    """What the deal page writes in each player's stack before anyone types (PAY-09 shares by the
    chips now): the floor's last counts (``floor.latest_counts``: a break, the bagging, a count
    at the final table), never the chips bought. ``state``:

    * ``COUNTED``: every player counted and the counts are the chips in play;
    * ``SCALED``: every player counted, but the counts are not the chips in play (taken before
      the last busts, the last colour-up): scaled to them (``deals.scale_counts``), an estimate
      to check at the table;
    * ``PARTIAL``: some players counted (their counts as they are), the others left to type;
    * ``NONE``: nobody counted: every stack to type.

    Returns ``{"state", "chips_in_play", "counted_at" (the oldest count used, or None),
    "rows": {entry id: {"chips": prefilled or None, "counted": chips counted or None,
    "counted_at"}}}``."""
    in_play = chips_in_play(t)
    last = floor.latest_counts(t)
    found = {e.pk: last[e.pk] for e in players if e.pk in last}
    rows = {e.pk: {"chips": None, "counted": None, "counted_at": None} for e in players}
    for pk, c in found.items():
        rows[pk].update(chips=int(c.chips), counted=int(c.chips), counted_at=c.counted_at)
    if not found:
        state = "NONE"
    elif len(found) < len(players):
        state = "PARTIAL"
    elif sum(r["counted"] for r in rows.values()) == in_play:
        state = "COUNTED"
    else:
        state = "SCALED"
        ids = list(rows)
        try:
            for pk, chips in zip(ids, deal_engine.scale_counts([rows[pk]["counted"] for pk in ids], in_play), strict=True):
                rows[pk]["chips"] = chips
        except deal_engine.DealError:  # every count zero: nothing to scale, every stack to type
            state = "NONE"
            for r in rows.values():
                r["chips"] = None
    times = [r["counted_at"] for r in rows.values() if r["counted_at"] is not None]
    return {"state": state, "chips_in_play": in_play, "counted_at": min(times) if times else None, "rows": rows}


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


def _bounty_explained(state: dict, currency: str) -> str:
    """What the deal does with the bounty money in play, in a sentence for its page."""
    amount = {"amount": formatting.money(state["total"], currency)}
    if state["kind"] == bounty_engine.MYSTERY:
        if state["leftover"] == bounty_engine.LEFTOVER_CARRY_OVER:
            return _("The envelopes left in the bag (%(amount)s) are carried over to the next mystery event.") % amount
        if state["rule"] == deal_engine.BOUNTIES_ADDED:
            return (
                _(
                    "The envelopes left in the bag (%(amount)s) are shared with the deal: by share of the chips, equally in an even chop; paid at the desk apart from the prizes."
                )
                % amount
            )
        return (
            _("The envelopes left in the bag (%(amount)s) are shared equally among the players in the deal, paid at the desk apart from the prizes.") % amount
        )
    if state["rule"] == deal_engine.BOUNTIES_ADDED:
        return (
            _(
                "Bounties added: the bounties in play (%(amount)s) are shared with the deal, by share of the chips (ICM, chip chop, a custom deal) or equally (even chop), paid at the desk apart from the prizes."
            )
            % amount
        )
    return _("Bounties kept apart: each player in the deal takes the bounty on their own head, paid at the desk apart from the prizes.")


def _bounty_summary(t, state: dict | None) -> dict | None:
    """The bounty part of the calculator's and the page's answer (None without bounties)."""
    if state is None:
        return None
    return {
        "kind": state["kind"],
        "in_deal": state["rule"],
        "label": str(BOUNTY_IN_DEAL_LABELS[state["rule"]]),
        "explained": _bounty_explained(state, t.currency),
        "in_play": money(state["total"]),
        "mystery_leftover": state["leftover"],
    }


def deal_bounties_now(t, entry_ids: list[int]) -> dict | None:
    """The deal page's bounty line (None without bounties): the house's ``bounty_in_deal``,
    what it does in a sentence, the money in play and the bounty on each player's head."""
    state = deal_bounty_state(t, entry_ids)
    summary = _bounty_summary(t, state)
    if summary is not None:
        summary["heads"] = state["heads"]
    return summary


def deal_options(tournament, stacks: dict, *, reserve=ZERO) -> dict:
    """The deal calculator (read-only): ICM, chip chop and even chop side by side for the
    stacks entered, each also written per finishing place and checked against PAY-09.
    In a bounty event it shows the bounty on each player's head (FIXED, PKO), the bounty money
    in play, the house's ``bounty_in_deal`` and, per method, what each player takes of the
    bounty money (``bounty_by_player``) and with his prize (``total_by_player``)."""
    t = Tournament.objects.get(pk=getattr(tournament, "pk", tournament))
    check_will_play(t)
    reserve = _money(reserve, _("The reserve"))
    players, chips, left, _in_play = _deal_state(t, stacks)
    bounty = deal_bounty_state(t, [e.pk for e in players])
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
        methods[method] = {"by_player": [money(a) for a in amounts], "by_place": [money(a) for a in by_place], "policy_problem": problem}
        if bounty is not None:
            shares = deal_shares(bounty, chips, equal=method == Deal.EVEN)
            methods[method]["bounty_by_player"] = [money(b) for b in shares]
            methods[method]["total_by_player"] = [money(a + b) for a, b in zip(amounts, shares)]
    people = [{"entry": e.pk, "name": e.person.full_name, "stack": c, "chip_share": f"{100 * c / total:.2f}"} for e, c in zip(players, chips)]
    if bounty is not None and bounty["kind"] in (bounty_engine.FIXED, bounty_engine.PKO):
        for p in people:
            p["bounty"] = money(bounty["heads"][p["entry"]])
    return {
        "players": people,
        "prizes_left": [money(p) for p in left],
        "total": money(sum(left, ZERO)),
        "reserve": money(reserve),
        "methods": methods,
        "policy": _deal_policy(t, len(players)),
        "streaming_live": HouseRules.of(t).streaming_live,
        "final_table_size": _final_table_size(t),
        "bounties": _bounty_summary(t, bounty),
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
    check_will_play(t)
    reserve = _money(reserve, _("The reserve"))
    if table_state(t) != PayoutTable.LOCKED:
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
                raise ValidationFailed("amounts_required", _("A deal by place needs one amount for each of the %(n)s places in play.") % {"n": len(players)})
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
    bounty = deal_bounty_state(t, [e.pk for e in players])
    shares = deal_shares(bounty, chips, equal=method == Deal.EVEN) if bounty is not None else []
    deal = Deal.objects.create(
        tournament=t,
        method=method,
        stacks={str(e.pk): c for e, c in zip(players, chips)},
        reserve=reserve,
        by_player={str(e.pk): str(a) for e, a in zip(players, per_player or [])},
        by_place=[str(a) for a in by_place],
        prizes_before=[str(p) for p in left],
        created_by=actor.user,
        bounty_in_deal=bounty["rule"] if bounty is not None else "",
        bounty_total=bounty["total"] if bounty is not None else ZERO,
        heads={str(k): money(v) for k, v in bounty["heads"].items()} if bounty is not None else {},
        bounties={str(e.pk): money(b) for e, b in zip(players, shares)},
    )
    log_event(
        t,
        Action.PAYOUTS_DEAL_PROPOSED,
        actor,
        deal=deal.pk,
        method=method,
        by_place=deal.by_place,
        reserve=str(reserve),
        per_place=per_player is None,
        bounty_in_deal=deal.bounty_in_deal,
        bounties=deal.bounties,
    )
    return deal


@service
def accept_deal(deal, entry, *, actor: Actor) -> DealAcceptance:
    """Record one player's consent (each remaining player must agree, PAY-09)."""
    t = lock_tournament(deal.tournament_id)
    check_will_play(t)
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
    table's places 1..n take the deal's amounts. Play goes on to decide the places.
    In a bounty event the bounty money in play is settled now (``settle_in_deal``): each
    player is owed his part at the desk, and the knockouts still to come pay nothing."""
    t = lock_tournament(deal.tournament_id)
    check_will_play(t)
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
    prizes = table_prizes(t)
    n = len(deal.by_place)
    if [money(p) for p in deal_engine.prizes_left(place_values(prizes), n)] != deal.prizes_before:
        raise PayoutError("table_changed", _("The payout table changed since the deal was proposed: propose it again."))
    new = [p for p in prizes if not (p["place"] <= n and p["kind"] == "CASH")]
    new += [{"place": i, "kind": "CASH", "amount": Decimal(a), "description": "deal", "target": None} for i, a in enumerate(deal.by_place, start=1)]
    table = _table(t)
    new = validate_prizes(new, table.prize_pool)
    _store(t, table, new, state=PayoutTable.LOCKED, pool_total=table.prize_pool)
    settle_in_deal(t, deal, actor)  # the bounty money apart from the prize pool: owed at the desk
    deal.status, deal.approved_by, deal.approved_at = Deal.APPROVED, actor.user, timezone.now()
    deal.save(update_fields=["status", "approved_by", "approved_at"])
    log_event(
        t,
        Action.PAYOUTS_DEAL_APPROVED,
        actor,
        deal=deal.pk,
        by_place=deal.by_place,
        bounty_in_deal=deal.bounty_in_deal,
        bounty_total=money(deal.bounty_total),
        bounties=deal.bounties,
    )
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
