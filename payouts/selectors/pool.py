"""The prize pool: money in and out, where a pool's money comes from, its deductions.

Every other payout figure starts here; a multi-day or heads-up event has one pool, read
through its owner (``pool_owner``).
"""

from __future__ import annotations

from decimal import Decimal

from django.db.models import Sum
from django.utils.translation import gettext as _

from tdmanager.compiled import Compiled
from tdmanager.money import CENT, ZERO
from tournaments.house import HouseRules
from tournaments.models import Entry, LedgerRow, Td3Event, Tournament

from .. import pool as pool_engine
from .common import _payout_rows_q

PERCENT_PAID = {"MAIN": Decimal("15"), "SIDE": Decimal("10")}


# ``money_in``'s sums, compiled once (the lobby's snapshot asks after every change of a running
# event; building this query cost Django more than the database's sum over 10,000 rows).
_MONEY_IN = Compiled(
    lambda pk: (
        LedgerRow.objects.filter(tournament_id=pk)
        .exclude(_payout_rows_q())
        .order_by()
        .values("tournament_id")
        .annotate(p=Sum("prize_amount"), f=Sum("fee_amount"), s=Sum("side_amount"))
        .values_list("p", "f", "s")
    ),
    LedgerRow,
)


def money_in(t) -> dict:
    """What the desk took for this tournament, net of reversals and refunds, by part."""
    rows = _MONEY_IN.rows(t.pk)  # one row, none without a ledger row
    p, f, s = rows[0] if rows else (None, None, None)
    return {"prize": _cents(p), "fee": _cents(f), "side": _cents(s)}


def _cents(total) -> Decimal:
    """A sum of amounts in whole cents: SQLite adds a DECIMAL column as floats, whose last of 15
    significant digits is dust (many fees of 2.20 make 85.8000000000001)."""
    return (total or ZERO).quantize(CENT)


def money_out(t) -> dict:
    """Prizes paid (positive amounts), net of reversed payments: main pool and side pools."""
    agg = t.ledger.filter(_payout_rows_q()).aggregate(p=Sum("prize_amount"), s=Sum("side_amount"))
    return {"prize": -_cents(agg["p"]), "side": -_cents(agg["s"])}


def _deduction_percents(t) -> dict:
    out = {}
    for i, d in enumerate(t.deductions or [], start=1):
        name = str(d.get("name") or f"deduction {i}")
        if name in out:
            name = f"{name} ({i})"
        out[name] = Decimal(str(d.get("percent", "0")))
    return out


def multiday_role(t):
    """("DAY2", event) for the Day 2 of a multi-day event, ("FLIGHT", event) for a Day 1 flight,
    else (None, None). A multi-day event has one prize pool: the flights' money pays on Day 2."""
    event = getattr(t, "multiday_event", None)
    if event is not None:
        return "DAY2", event
    flight = getattr(t, "flight", None)
    if flight is not None:
        return "FLIGHT", flight.event
    return None, None


def _bracket(t):
    return getattr(t, "bracket", None)  # a heads-up tournament's bracket, if any


def pool_sources(t) -> list:
    """The tournaments whose money makes this tournament's prize pool.

    A multi-day event and a heads-up event each have one pool, paid where the event ends:
    a Day 2 pools its flights, a heads-up stage pools the groups that feed it (and theirs);
    a flight, or a group whose survivors go on, pools nothing (its money is carried on).
    A cancelled flight carries nobody and nothing to Day 2 (FMT-02): what it collected is owed
    back to its players, so it leaves the Day 2 pool when the flight is cancelled (which waits
    while that pool may not shrink: ``receivers.cancel_checked``), not when each refund is paid.
    """
    role, event = multiday_role(t)
    if role == "FLIGHT":
        return []
    if role == "DAY2":
        flights = event.flights.select_related("tournament").exclude(tournament__status=Tournament.CANCELLED)
        return [f.tournament for f in flights] + [t]
    bracket = _bracket(t)
    if bracket is not None and bracket.feeds_into_id:
        return []

    def with_feeders(x, seen):
        seen.add(x.pk)
        out = [x]
        for feeder in x.feeder_brackets.select_related("tournament"):
            if feeder.tournament_id not in seen:
                out += with_feeders(feeder.tournament, seen)
        return out

    return with_feeders(t, set())


def pool_owner(t):
    """The tournament whose prize pool the prize parts of ``t`` make (``pool_sources`` read the
    other way): a Day 1 flight's Day 2, a heads-up group's stage that its survivors go on to (and
    that stage's), else ``t`` itself."""
    role, event = multiday_role(t)
    if role == "FLIGHT":
        return event.day2
    seen = {t.pk}
    bracket = _bracket(t)
    while bracket is not None and bracket.feeds_into_id and bracket.feeds_into_id not in seen:
        t = bracket.feeds_into
        seen.add(t.pk)
        bracket = _bracket(t)
    return t


def pooled_money_in(t) -> dict:
    """Money in that feeds this tournament's prize pool (``pool_sources``), by part."""
    out = {"prize": ZERO, "fee": ZERO, "side": ZERO}
    for part in pool_sources(t):
        got = money_in(part)
        for k in out:
            out[k] += got[k]
    return out


def pool_breakdown(t, *, side_pools=None) -> pool_engine.PoolBreakdown:
    """The prize pool from the ledger (PAY-01, PAY-02): prize parts collected, minus the
    deductions, plus any overlay to the guarantee, minus side prizes funded from the pool.
    ``side_pools``: the tournament's side pools when the caller has read them already.
    A cancelled event has none of these (FMT-02): what it collected is owed back (``refunds``)."""
    collected = max(ZERO, pooled_money_in(t)["prize"])
    if is_cancelled(t):
        return pool_engine.prize_pool(collected, cancelled=True)
    pools = t.side_pools.all() if side_pools is None else side_pools
    percents = _deduction_percents(t)
    fixed = {}
    for p in pools:  # two side pools may share a name: each takes its own part out of the pool
        if p.from_prize_pool > 0:
            # a side prize named like a deduction is a line of its own, beside the deduction's
            name = p.name if p.name not in percents else f"{p.name} ({p.get_kind_display()})"
            fixed[name] = fixed.get(name, ZERO) + p.from_prize_pool
    role, event = multiday_role(t)
    chip_leaders, chip_label = ZERO, str(_("Chip-leader prizes (Day 1 flights)"))
    if role == "DAY2":
        # PAY-02: the event's pool is gross of the flights' chip-leader prizes (PAY-08).
        chip_leaders = event_chip_leader_total(event)
        if chip_leaders > 0:
            fixed[chip_label] = chip_leaders
    kwargs = dict(deductions_percent=percents, guarantee=t.guarantee, guarantee_is_gross=HouseRules.of(t).guarantee_is_gross)
    try:
        return pool_engine.prize_pool(collected, fixed_deductions=fixed, **kwargs)
    except ValueError:
        # Too little collected to fund the fixed prizes. The side prizes out of the pool wait for
        # it: they take what there is. The Day 1 chip-leader prizes were paid at the flights
        # (PAY-08): what the pool cannot fund of them is the house's money, an overlay, as a
        # guarantee's is (PAY-02).
        b = pool_engine.prize_pool(collected, **kwargs)
        short = max(ZERO, chip_leaders - b.total)
        deductions = dict(b.deductions, **({chip_label: chip_leaders} if chip_leaders else {}))
        left = b.total - chip_leaders + short
        for name, amount in fixed.items():  # the side prizes, each taking what is left of the pool
            if name != chip_label and left > 0:
                deductions[name] = min(amount, left)
                left -= deductions[name]
        return pool_engine.PoolBreakdown(
            collected=b.collected,
            deductions=deductions,
            net=b.collected - sum(deductions.values(), ZERO),
            overlay=b.overlay + short,
            total=left,
        )


def prize_pool(t) -> Decimal:
    """The pool the pages and reports show: the ledger's (``pool_breakdown``), or for an event
    brought in from The Tournament Director the pot TD3 recorded (``archive_money``)."""
    archived = archive_money(t)
    return archived["pot"] if archived else pool_breakdown(t).total


def archive_money(t) -> dict | None:
    """An event brought in from TD3's save files: its money as TD3 recorded it (``Td3Event.money``:
    pot, paid, fees, players, entries, rebuys, add-ons, prizes), kept with the event, in no ledger:
    the room's archives moved no money in today's drawer, so the ledger's figures (``money_in``,
    ``pool_breakdown``, the reconciliation) stay what the drawer holds. None for any other event."""
    if t.status != Tournament.FINISHED:
        return None
    record = Td3Event.objects.filter(tournament_id=t.pk).only("details").first()
    return record.money if record else None


def is_cancelled(t) -> bool:
    """A cancelled event will not play (FMT-02): no pool, no guarantee, no payout table, no
    seats; its players are refunded at the desk (``tournaments.cashier.selectors.refunds_due``)."""
    return t.status == Tournament.CANCELLED


def paid_entries(t):
    return t.entries.filter(status__in=(Entry.ACTIVE, Entry.BUSTED))


def field_size(t, *, entries: int | None = None) -> int:
    """Participants for places paid (PAY-04): entries (default) or unique players.
    ``entries``: the paid entries (playing or out) when the caller has counted them already."""
    if HouseRules.of(t).places_paid_counts == "PLAYERS":
        return paid_entries(t).values("person").distinct().count()
    return paid_entries(t).count() if entries is None else entries


def percent_paid(t) -> Decimal:
    rules = HouseRules.of(t)
    if rules.percent_paid is not None:
        return rules.percent_paid
    return PERCENT_PAID[rules.category]


def event_chip_leader_total(event) -> Decimal:
    """Everything the flights of a multi-day event award their chip leaders (cash and tickets)."""
    total = ZERO
    for flight in event.flights.all():
        total += flight.chip_leader_awards.aggregate(s=Sum("amount"))["s"] or ZERO
    return total
