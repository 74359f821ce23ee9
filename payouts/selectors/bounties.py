"""Read-only payout figures: prize pool, payout table, prizes due, sign-off state.

Used by the payouts pages and API, by other apps (lobby displays, dashboard, clock page)
and by the services. Nothing here writes. House settings (payout rounding, places paid,
the final-table size, …) come from the tournament's one house-rules object
(``tournaments.house.HouseRules``) with their defaults and rule ids.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import ROUND_DOWN, Decimal

from django.db.models import Count, Exists, OuterRef, Q, Sum
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tdmanager.compiled import Compiled
from tdmanager.money import CENT, ZERO, split_evenly, to_money
from tournaments import selectors as tournament_selectors
from tournaments import signals as tournament_signals
from tournaments.house import HouseRules
from tournaments.models import Entry, LedgerRow, Tournament
from tournaments.public_names import public_name, public_names

from .. import bounties as bounty_engine
from .. import pool as pool_engine
from .. import satellite as satellite_engine
from ..models import (
    POOL_FUNDED,
    PRIZE_KINDS,
    BountyAward,
    BountyHead,
    JackpotClaim,
    JackpotFund,
    PayoutTable,
    PrizePayment,
    RankingSignoff,
    SatelliteLink,
    SideAward,
    SideToken,
    Ticket,
)
from ..structure import band_label, payout_structure

_STRUCTURES: dict[tuple, tuple] = {}  # payout_structure's answers by their arguments (as text)
_STRUCTURES_KEPT = 64


def payout_amounts(entries, total, buy_in, **kwargs) -> list[Decimal]:
    """``payout_structure``'s amounts, computed once per arguments: it is pure, and the lobby's
    snapshot asks again after every bust with the same field and pool (costly in a large field).
    Keyed by the arguments' text, so equal Decimals of another exponent are not mixed; its
    ``ValueError`` is raised every time (not kept)."""
    key = (entries, str(total), str(buy_in), *sorted((k, str(v)) for k, v in kwargs.items()))
    amounts = _STRUCTURES.get(key)
    if amounts is None:
        amounts = tuple(payout_structure(entries, total, buy_in, **kwargs))
        if len(_STRUCTURES) >= _STRUCTURES_KEPT:
            _STRUCTURES.clear()  # (threads share it: no iteration that another could disturb)
        _STRUCTURES[key] = amounts
    return list(amounts)


PERCENT_PAID = {"MAIN": Decimal("15"), "SIDE": Decimal("10")}


def money(value) -> str:
    return str(to_money(value).quantize(CENT))


# --- the prize pool ---------------------------------------------------------------------


def _payout_rows_q():
    """Ledger rows that pay prizes out (and their reversals): not part of the money in."""
    return (
        Q(kind=LedgerRow.PAYOUT)
        | Q(kind=LedgerRow.REVERSAL, reverses__kind=LedgerRow.PAYOUT)
        | Q(kind=LedgerRow.SIDE, side_amount__lt=0)
        | Q(kind=LedgerRow.REVERSAL, reverses__kind=LedgerRow.SIDE, reverses__side_amount__lt=0)
    )


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
    fixed = {p.name: p.from_prize_pool for p in pools if p.from_prize_pool > 0}
    role, event = multiday_role(t)
    chip_leaders, chip_label = ZERO, str(_("Chip-leader prizes (Day 1 flights)"))
    if role == "DAY2":
        # PAY-02: the event's pool is gross of the flights' chip-leader prizes (PAY-08).
        chip_leaders = event_chip_leader_total(event)
        if chip_leaders > 0:
            fixed[chip_label] = chip_leaders
    kwargs = dict(deductions_percent=_deduction_percents(t), guarantee=t.guarantee, guarantee_is_gross=HouseRules.of(t).guarantee_is_gross)
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
    return pool_breakdown(t).total


def is_cancelled(t) -> bool:
    """A cancelled event will not play (FMT-02): no pool, no guarantee, no payout table, no
    seats; its players are refunded at the desk (``tournaments.selectors.refunds_due``)."""
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


# --- the payout table -------------------------------------------------------------------


_SATELLITE_LINK = None  # the link of a satellite, compiled once (made at first use: the model is this app's)


def satellite_link(t):
    """The satellite's link to its target (FMT-08), or None: the target is read when first used
    (most tournaments are no satellite, and the lobby's snapshot asks after every change)."""
    global _SATELLITE_LINK
    if _SATELLITE_LINK is None:
        _SATELLITE_LINK = Compiled(lambda pk: SatelliteLink.objects.filter(satellite_id=pk).order_by(), SatelliteLink)
    rows = _SATELLITE_LINK.rows(t.pk)
    if not rows:
        return None
    link = rows[0]
    link.satellite = t  # the row asked about, as read
    return link


def satellite_pool(t, link=None) -> Decimal:
    """FMT-08 / C14: GROSS (default) = everything the players paid; NET = the prize pool."""
    link = link or satellite_link(t)
    if is_cancelled(t):
        return ZERO  # its players' money goes back to them, not into seats
    if link.prize_base == link.GROSS:
        got = money_in(t)
        return max(ZERO, got["prize"] + got["fee"])
    return prize_pool(t)


def seat_value(target) -> Decimal:
    """What a satellite's seat in ``target`` is worth: all a player pays to enter it, its buy-in
    and fee and, in a bounty event, the bounty part his entry puts on his head (PAY-02)."""
    return HouseRules.of(target).entry_cost(target)


def satellite_awards(t, link=None) -> list:
    link = link or satellite_link(t)
    if link.target.entry_price <= 0 or (link.remainder_rule == link.CHUNKS and t.entry_price <= 0):
        return []  # refused when linking and when repricing; a row from before that awards nothing
    kwargs = {"chunk": t.entry_price} if link.remainder_rule == link.CHUNKS else {}
    return satellite_engine.satellite_awards(satellite_pool(t, link), seat_value(link.target), link.remainder_rule, **kwargs)


_UNREAD = object()  # an argument the caller did not read: the function reads it itself


def proposed_prizes(t, *, link=_UNREAD, total=None, entries=None) -> list[dict]:
    """The automatic proposal: a satellite's seats, else ``payout_structure`` on the live pool.

    ``link`` (the satellite link or None), ``total`` (the prize pool) and ``entries`` (the paid
    entries, ``field_size``'s) when the caller has read them already (the lobby's summary): the
    same figures, not read twice."""
    link = satellite_link(t) if link is _UNREAD else link
    if link is not None:
        rows = []
        for a in satellite_awards(t, link):
            if a.seat:
                rows.append({"place": a.place, "kind": "SEAT", "amount": a.seat_value, "description": link.target.name, "target": link.target_id})
            if a.cash:
                rows.append({"place": a.place, "kind": "CASH", "amount": a.cash, "description": "", "target": None})
        return rows
    total = prize_pool(t) if total is None else total
    entries = field_size(t, entries=entries)
    percent = percent_paid(t)
    bracket = _bracket(t)
    if bracket is not None and not bracket.feeds_into_id and entries:
        # A heads-up bracket played to a winner pays whole rounds: its last ``paid_players``
        # (RULES §14 q17, "Tutti a Premio": 8 by default).
        percent = Decimal(min(bracket.paid_players, bracket.size, entries) * 100) / entries
    amounts = []
    rules = HouseRules.of(t)
    for unit in (rules.payout_rounding, CENT):
        try:
            amounts = payout_amounts(
                entries,
                total,
                t.buy_in,
                percent_paid=percent,
                min_cash_multiple=rules.min_cash_multiple,
                rounding=unit,
                places_rounding=rules.places_paid_rounding,
            )
            break
        except ValueError:
            continue
    return [{"place": i, "kind": "CASH", "amount": a, "description": "", "target": None} for i, a in enumerate(amounts, start=1)]


def table_state(t, *, table=_UNREAD) -> str:
    """The payout table's state (AUTO while none is stored); ``table``: its row (or None) when
    the caller has read it already."""
    table = PayoutTable.objects.filter(tournament=t).first() if table is _UNREAD else table
    return table.state if table else PayoutTable.AUTO


def table_prizes(t, *, table=_UNREAD, **proposal) -> list[dict]:
    """The payout table in force: stored prizes once edited or locked, else the live proposal.

    ``table`` (the PayoutTable row or None) and ``proposal`` (``proposed_prizes``'s ``link``
    and ``total``) when the caller has read them already."""
    if is_cancelled(t):
        return []  # an event that will not play pays no place: a table stored before is void
    table = PayoutTable.objects.filter(tournament=t).first() if table is _UNREAD else table
    if table is None or table.state == PayoutTable.AUTO:
        return proposed_prizes(t, **proposal)
    return [{"place": p.place, "kind": p.kind, "amount": p.amount, "description": p.description, "target": p.target_id, "id": p.pk} for p in table.prizes.all()]


def place_values(prizes) -> list[Decimal]:
    """Pool-funded value per place (cash + tickets + seats), 1st first, up to the last place."""
    last = max((p["place"] for p in prizes), default=0)
    values = [ZERO] * last
    for p in prizes:
        if p["kind"] in POOL_FUNDED:
            values[p["place"] - 1] += to_money(p["amount"])
    return values


def places_paid(t, prizes=None) -> int:
    prizes = table_prizes(t) if prizes is None else prizes
    return max((p["place"] for p in prizes), default=0)


def _label(p) -> str:
    if p["kind"] == "CASH":  # before the import: a ladder asks for every place paid
        return ""

    kind = str(dict(PRIZE_KINDS)[p["kind"]])
    return f"{kind}: {p['description']}" if p.get("description") else kind


_LADDERS: dict[tuple, tuple] = {}  # ``ladder``'s bands by what they are made of
_LADDERS_KEPT = 16


def ladder(prizes) -> list[dict]:
    """Places grouped into bands of identical prizes: [{"places": "10–12", "amount", "prize"}].

    Kept by what it is made of (place, kind, amount, description of each prize): the lobby's
    snapshot asks again after every change of a running event, mostly for the same places
    of a large field, which are many. A copy of each band is handed out."""
    key = tuple((p["place"], p["kind"], p["amount"], p.get("description") or "") for p in prizes)
    bands = _LADDERS.get(key)
    if bands is None:
        bands = tuple(_ladder(prizes))
        if len(_LADDERS) >= _LADDERS_KEPT:
            _LADDERS.clear()  # (threads share it: no iteration that another could disturb)
        _LADDERS[key] = bands
    return [dict(b) for b in bands]


def _ladder(prizes) -> list[dict]:
    by_place = defaultdict(list)
    for p in prizes:
        by_place[p["place"]].append(p)
    bands = []
    for place in sorted(by_place):
        items = by_place[place]
        amount = sum((to_money(p["amount"]) for p in items if p["kind"] != "ITEM"), ZERO)
        label = " + ".join(filter(None, (_label(p) for p in items)))
        sig = (amount, label)
        if bands and bands[-1]["sig"] == sig and bands[-1]["last"] == place - 1:
            bands[-1]["last"] = place
        else:
            bands.append({"first": place, "last": place, "sig": sig})
    out = []
    for b in bands:
        places = str(b["first"]) if b["first"] == b["last"] else f"{b['first']}–{b['last']}"
        out.append({"places": places, "amount": money(b["sig"][0]), "prize": b["sig"][1]})
    return out


# --- finishing places, dues and the sign-off --------------------------------------------


def placed_entries(t):
    return t.entries.exclude(status=Entry.CANCELLED).filter(place__isnull=False).select_related("person").order_by("place", "number")


def prize_place_decided(t) -> bool:
    """Whether the prizes of the paid places are decided on the pool as it stands: a player has
    finished in one, or every player still in a running event is in the money (one entry fewer
    would move a player out earlier into a paid place)."""
    paid = places_paid(t)
    if paid == 0:
        return False
    if placed_entries(t).filter(place__lte=paid).exists():
        return True
    return t.status == Tournament.RUNNING and t.entries.filter(status=Entry.ACTIVE).count() <= paid


def place_groups(t) -> dict[int, list]:
    """place → the entries that finished there (several = a shared place, ELM-06)."""
    groups = defaultdict(list)
    for e in placed_entries(t):
        groups[e.place].append(e)
    return dict(groups)


def places_pending(t) -> dict[int, int]:
    """place → the players its group will hold, for the shared places still being decided (a
    heads-up round under way: formats answers ``place_spans_pending``)."""
    out: dict[int, int] = {}
    for answer in tournament_signals.ask(tournament_signals.place_spans_pending, tournament=t):
        out.update(answer)
    return out


def place_spans(t, groups=None, pending=None) -> dict[int, int]:
    """place → how many places its group covers (p … p+span−1): its players, or all those it
    will hold while it is still being decided (``places_pending``)."""
    groups = place_groups(t) if groups is None else groups
    pending = places_pending(t) if pending is None else pending
    return {place: max(len(members), pending.get(place, 0)) for place, members in groups.items()}


def ranking_snapshot(t) -> dict:
    return {str(e.pk): e.place for e in placed_entries(t)}


def _groups_of(snapshot: dict) -> dict:
    groups = defaultdict(set)
    for eid, place in snapshot.items():
        groups[place].add(str(eid))
    return groups


def released_places(t) -> set[int]:
    """Places whose entries two people signed off as they stand now (ELM-07): the director and
    the administrative controller, two different users. A later change to that place voids the
    signatures."""
    current = _groups_of(ranking_snapshot(t))
    signers = defaultdict(list)  # place → [(user, role)]
    for s in RankingSignoff.objects.filter(tournament=t):
        for place, ids in _groups_of(s.snapshot).items():
            if current.get(place) == ids:
                signers[place].append((s.user_id, s.role))
    released = set()
    for place, who in signers.items():
        directors = {u for u, r in who if r == RankingSignoff.DIRECTOR}
        controllers = {u for u, r in who if r == RankingSignoff.CONTROLLER}
        if directors and controllers and len(directors | controllers) >= 2:
            released.add(place)
    return released


def active_payments(t) -> dict:
    """(entry id, source) → the payment that stands (its ledger row not reversed)."""
    reversed_rows = set(LedgerRow.objects.filter(tournament=t, kind=LedgerRow.REVERSAL).values_list("reverses_id", flat=True))
    out = {}
    for pay in PrizePayment.objects.filter(tournament=t).select_related("row"):
        if pay.row_id and pay.row_id in reversed_rows:
            continue
        out[(pay.entry_id, pay.source)] = pay
    return out


FORFEIT_SOURCE = "MAIN:FORFEIT"  # what a player receives of a prize another forfeited (PEN-07, C27)


def dues(t, prizes=None) -> list[dict]:
    """Every prize won so far, per entry: amount, whether released (sign-off) and paid.

    A shared place (several entries with the same place, the best place of the group)
    covers places p … p+m−1: the cash of those places is split with
    ``payouts.pool.shared_place_amounts`` (odd cents to the first listed by entry number,
    or to the house: setting ``shared_odd_cents``). A seat, ticket or item goes to each
    member only when every place of the group has the same one; otherwise it is held for
    the director to decide (ELM-06 [CONFIG]).

    A player eliminated without prize (PEN-07, C27) keeps his place and his prize is listed
    with ``forfeited`` (it is never paid); what others receive of it (``forfeit_plan``) is a
    prize of its own, source ``MAIN:FORFEIT``.
    """
    return dues_and_forfeits(t, prizes)[0]


def forfeit_plan(t, prizes=None) -> dict:
    """PEN-07 / C27: the prizes forfeited by eliminations without prize and where they go.

    Setting ``forfeited_prize``: ``HOLD`` (default; RULES §14 q13 leaves it open, so the house
    keeps the money until the director or the regulator decides), ``REDISTRIBUTE`` (shared by
    the other paid places in proportion to their cash prizes, odd cents to the best of them),
    ``NEXT_PLACE`` (every player placed below a forfeited place is paid as if one place higher;
    the first place out of the money is paid the last prize). The ranking never changes.

    ``{"rule", "forfeits": [{"entry_id", "name", "place", "kind", "amount"}], "total" (cash),
    "other" (tickets, seats), "extras": [{"entry_id", "name", "place", "amount"}] (decided
    players), "pending": {place: amount} (REDISTRIBUTE: places still in play), "redistributed",
    "held"}``. total + other = redistributed + Σ pending + held, to the cent.
    """
    return dues_and_forfeits(t, prizes)[1]


def dues_and_forfeits(t, prizes=None) -> tuple[list[dict], dict]:
    """``(dues(t), forfeit_plan(t))`` read in one pass, for a page that shows both."""
    prizes = table_prizes(t) if prizes is None else prizes
    by_place = defaultdict(list)
    for p in prizes:
        by_place[p["place"]].append(p)
    released = released_places(t)
    paid = active_payments(t)
    rules = HouseRules.of(t)
    odd = rules.shared_odd_cents
    forfeited = tournament_selectors.prize_forfeited_entries(t)
    groups = place_groups(t)
    pending = places_pending(t)
    spans = place_spans(t, groups, pending)
    out = []

    def item(e, place, m, kind, amount, source, description="", held=False, target=None):
        pay = paid.get((e.pk, source))
        out.append(
            {
                "entry": e,
                "entry_id": e.pk,
                "person": e.person,
                "name": e.person.full_name,
                "place": place,
                "shared_with": m,
                "kind": kind,
                "amount": to_money(amount).quantize(CENT),
                "source": source,
                "description": description,
                "target": target,
                "held": held,
                "released": place in released,
                "payment": pay,
                "paid": pay is not None,
                "forfeited": e.pk in forfeited and source.startswith("MAIN:") and source != FORFEIT_SOURCE,
                # a place shared by players still playing for it: paid once they are all placed
                "pending": place in pending and source.startswith("MAIN:"),
            }
        )

    def seats_in_money() -> bool:
        """The satellite has ended and gives a winner its target did not take the seat's value in money."""
        if "link" not in seen:
            seen["link"] = satellite_link(t)
        link = seen["link"]
        return link is not None and link.completed_at is not None and link.already_registered == link.CASH

    seen = {}
    cash_of = defaultdict(lambda: ZERO)
    for p in prizes:
        if p["kind"] == "CASH":
            cash_of[p["place"]] += to_money(p["amount"])
    for place, members in sorted(groups.items()):
        m = spans[place]
        covered = [by_place.get(q, []) for q in range(place, place + m)]
        cash = [cash_of[q] for q in range(place, place + m)]
        if any(cash):
            shares = pool_engine.shared_place_amounts(cash, m, odd)
            for e, share in zip(members, shares):
                item(e, place, m, "CASH", share, "MAIN:CASH")
        for kind in ("SEAT", "TICKET", "ITEM"):
            kinds = [[p for p in items if p["kind"] == kind] for items in covered]
            if not any(kinds):
                continue
            same = all(len(k) == 1 for k in kinds) and len({(k[0]["amount"], k[0]["description"], k[0]["target"]) for k in kinds}) == 1
            for e, ks in zip(members, kinds):
                p = (ks or [k for k in kinds if k][0])[0]
                if kind == "SEAT" and (e.pk, "MAIN:SEAT") not in paid and seats_in_money():
                    # FMT-08 [CONFIG] CASH: a winner the target did not take is paid the seat's value at the desk
                    item(e, place, m, "CASH", p["amount"], "MAIN:SEAT", _("Seat value in money: %(t)s") % {"t": p["description"]}, held=not same)
                    continue
                item(e, place, m, kind, p["amount"], f"MAIN:{kind}", p["description"], held=not same, target=p["target"])
    plan = _forfeits(rules.forfeited_prize, [d for d in out if d["forfeited"]], groups, cash_of)
    for x in plan["extras"]:
        e = x["entry"]
        description = _("Prize forfeited by place %(places)s (PEN-07)") % {"places": ", ".join(str(p) for p in plan["places"])}
        item(e, e.place, 1, "CASH", x["amount"], FORFEIT_SOURCE, description)
    for award in SideAward.objects.filter(pool__tournament=t).select_related("entry__person", "pool"):
        e = award.entry
        item(e, e.place, 1, "CASH", award.amount, f"SIDE:{award.pk}", award.pool.name)
        out[-1]["released"] = True  # side prizes are not part of the ranking sign-off
    for award in chip_leader_awards(t):
        e = award.entry
        description = _("Chip leader no. %(rank)s of flight %(flight)s") % {"rank": award.rank, "flight": award.flight.label}
        if award.shared_with > 1:
            description += " " + _("(shared by %(m)s)") % {"m": award.shared_with}
        item(e, e.place, award.shared_with, award.kind, award.amount, f"CHIPLEADER:{award.pk}", description)
        out[-1]["released"] = True  # decided by the bag counts, not by the ranking
    return out, plan


def _forfeits(rule: str, lost: list[dict], groups: dict, cash_of: dict) -> dict:
    """Where the forfeited prizes go (``forfeit_plan``), from the forfeited dues."""
    forfeits = [
        {"entry_id": d["entry_id"], "name": d["name"], "place": d["place"], "kind": d["kind"], "amount": d["amount"]} for d in lost if d["kind"] != "ITEM"
    ]
    total = sum((f["amount"] for f in forfeits if f["kind"] == "CASH"), ZERO)
    other = sum((f["amount"] for f in forfeits if f["kind"] != "CASH"), ZERO)
    forfeited_ids = {d["entry_id"] for d in lost}
    tainted = {place for place, members in groups.items() if any(e.pk in forfeited_ids for e in members)}
    extras = defaultdict(lambda: ZERO)
    pending = {}
    if total > 0 and rule == "REDISTRIBUTE":
        covered_by_tainted = {q for p in tainted for q in range(p, p + len(groups[p]))}
        weights = {q: v for q, v in sorted(cash_of.items()) if v > 0 and q not in covered_by_tainted}
        weight = sum(weights.values(), ZERO)
        if weight > 0:
            per_place = {q: (total * v / weight).quantize(CENT, rounding=ROUND_DOWN) for q, v in weights.items()}
            per_place[min(per_place)] += total - sum(per_place.values(), ZERO)  # odd cents to the best place
            decided = set()
            for place, members in groups.items():
                places = range(place, place + len(members))
                decided.update(places)
                if place in tainted:
                    continue
                amount = sum((per_place.get(q, ZERO) for q in places), ZERO)
                for e, share in zip(members, split_evenly(amount, len(members))):
                    extras[e] += share
            pending = {q: a for q, a in per_place.items() if q not in decided and a > 0}
    elif total > 0 and rule == "NEXT_PLACE":
        lost_places = [f["place"] for f in forfeits if f["kind"] == "CASH" and f["amount"] > 0]
        for place, members in groups.items():
            above = sum(1 for p in lost_places if p < place)
            if place in tainted or not above:
                continue
            m = len(members)
            now = sum((cash_of.get(q, ZERO) for q in range(place - above, place - above + m)), ZERO)
            before = sum((cash_of.get(q, ZERO) for q in range(place, place + m)), ZERO)
            for e, share in zip(members, split_evenly(max(ZERO, now - before), m)):
                extras[e] += share
    extra_rows = [
        {"entry": e, "entry_id": e.pk, "name": e.person.full_name, "place": e.place, "amount": a}
        for e, a in sorted(extras.items(), key=lambda x: (x[0].place, x[0].number))
        if a > 0
    ]
    redistributed = sum((x["amount"] for x in extra_rows), ZERO)
    held = total + other - redistributed - sum(pending.values(), ZERO)
    return {
        "rule": rule,
        "forfeits": forfeits,
        "places": sorted({f["place"] for f in forfeits}),
        "total": total,
        "other": other,
        "extras": extra_rows,
        "pending": pending,
        "redistributed": redistributed,
        "held": held,
    }


def chip_leader_awards(t):
    """PAY-08: the chip-leader prizes of a flight (paid at its desk once the flight closes),
    read through the flight's relation (formats composes payouts, never the reverse)."""
    flight = getattr(t, "flight", None)
    if flight is None:
        return []
    return flight.chip_leader_awards.select_related("entry__person", "flight").order_by("rank", "id")


def event_chip_leader_total(event) -> Decimal:
    """Everything the flights of a multi-day event award their chip leaders (cash and tickets)."""
    total = ZERO
    for flight in event.flights.all():
        total += flight.chip_leader_awards.aggregate(s=Sum("amount"))["s"] or ZERO
    return total


def due_for(t, entry, source) -> dict | None:
    return next((d for d in dues(t) if d["entry_id"] == entry.pk and d["source"] == source), None)


def signoff_status(t) -> dict:
    snap = ranking_snapshot(t)
    current = [s for s in RankingSignoff.objects.filter(tournament=t).select_related("user") if s.snapshot == snap]
    return {
        "places_decided": len(snap),
        "released_places": sorted(released_places(t)),
        "signed_now": [
            {
                "user": s.user.get_username(),
                "name": s.user.get_full_name() or s.user.get_username(),
                "role": s.role,
                "role_label": str(RankingSignoff.ROLE_LABELS.get(s.role, s.role)),
                "at": s.created_at.isoformat(),
                "at_local": timezone.localtime(s.created_at).strftime("%d/%m/%Y %H:%M"),
            }
            for s in current
        ],
        "complete": bool(snap) and len(released_places(t)) == len(set(snap.values())),
    }


# --- side pools -------------------------------------------------------------------------


def side_pool_balance(pool) -> dict:
    """In (ledger side amounts + contributions + the part funded from the prize pool), awarded, left."""
    t = pool.tournament
    ledger_in = ZERO
    if pool.from_ledger:
        rows = t.ledger.exclude(_payout_rows_q())
        only = t.side_pools.filter(from_ledger=True).count() == 1
        if not only:
            rows = rows.filter(Q(note=pool.key) | Q(reverses__note=pool.key))
        ledger_in = rows.aggregate(s=Sum("side_amount"))["s"] or ZERO
    contributed = pool.contributions.aggregate(s=Sum("amount"))["s"] or ZERO
    awarded = pool.awards.aggregate(s=Sum("amount"))["s"] or ZERO
    total = ledger_in + contributed + pool.from_prize_pool
    return {
        "ledger": ledger_in,
        "contributed": contributed,
        "from_prize_pool": pool.from_prize_pool,
        "total": total,
        "awarded": awarded,
        "left": total - awarded,
    }


# --- the progressive jackpot (REG-11, PAY-12) ---------------------------------------------


def jackpot_fund():
    """The venue's progressive jackpot fund (one per installation), or None before the first."""
    return JackpotFund.objects.order_by("id").first()


def jackpot_contributions() -> Decimal:
    """Every jackpot fee the desks took, net of reversals and refunds (all tournaments)."""
    return LedgerRow.objects.exclude(_payout_rows_q()).aggregate(s=Sum("jackpot_amount"))["s"] or ZERO


def jackpot_balance(fund, now=None) -> Decimal:
    """The fund as the lobby shows it: base + contributions − wins (paid or still to collect),
    + the base added back the day after a full win (``JackpotWin.reseed``, PAY-12). Side
    pools linked to the fund (a sponsor's contributions) count too."""
    now = now or timezone.now()
    total = fund.base + jackpot_contributions()
    for win in fund.wins.all():
        total -= win.amount
        if win.locked_until <= now:
            total += win.reseed
    for pool in fund.pools.all():
        b = side_pool_balance(pool)
        total += b["total"] - b["awarded"]
    return total


def jackpot_tournaments(exclude=None) -> list:
    """The tournaments registering or running that play for the venue's jackpot."""
    qs = Tournament.objects.filter(status__in=(Tournament.REGISTERING, Tournament.RUNNING))
    if exclude is not None:
        qs = qs.exclude(pk=getattr(exclude, "pk", exclude))
    return [t for t in qs if HouseRules.of(t).jackpot]


def jackpot_money(t) -> dict:
    """This tournament's jackpot fees taken (net of reversals and refunds) and jackpots paid."""
    fees = t.ledger.exclude(_payout_rows_q()).aggregate(s=Sum("jackpot_amount"))["s"] or ZERO
    paid = t.ledger.filter(_payout_rows_q()).aggregate(s=Sum("jackpot_amount"))["s"] or ZERO
    return {"in": fees, "out": -paid}


def jackpot_lock(fund, now=None):
    """The win that locks the fund now (no claim, no sale until the next day), or None."""
    return fund.wins.filter(locked_until__gt=now or timezone.now()).order_by("-locked_until").first()


def jackpot_paid_by(entry) -> bool:
    """REG-11: only jackpot buyers can win. The entry paid the fee (not reversed nor refunded),
    or, with ``jackpot_reentry = "COVERED"``, an earlier entry of the same player did."""
    t = entry.tournament
    rows = LedgerRow.objects.filter(tournament=t).exclude(_payout_rows_q())
    if HouseRules.of(t).jackpot_reentry == "COVERED":
        rows = rows.filter(entry__person_id=entry.person_id, entry__number__lte=entry.number)
        # each entry's own fee, so a refunded first entry no longer covers the later ones
        paid = rows.values("entry_id").annotate(j=Sum("jackpot_amount"))
        return any(r["j"] > 0 for r in paid)
    return (rows.filter(entry=entry).aggregate(j=Sum("jackpot_amount"))["j"] or ZERO) > 0


def jackpot_summary(now=None) -> dict:
    """``{"name", "fund", "base", "locked", "locked_until"}`` for lobby screens and pages."""
    fund = jackpot_fund()
    if fund is None:  # no base set yet: the fees taken are the fund
        return {"name": "Jackpot", "fund": money(jackpot_contributions()), "base": money(ZERO), "locked": False, "locked_until": None}
    now = now or timezone.now()
    lock = jackpot_lock(fund, now)
    return {
        "name": fund.name,
        "fund": money(jackpot_balance(fund, now)),
        "base": money(fund.base),
        "locked": lock is not None,
        "locked_until": lock.locked_until.isoformat() if lock else None,
    }


def jackpot_claims(fund, *, unpaid_only=False) -> list[dict]:
    """The winners' shares, newest first, with whether each was collected."""
    out = []
    qs = JackpotClaim.objects.filter(win__fund=fund).select_related("win__tournament", "win__verified_by", "entry__person", "payment__row")
    for c in qs.order_by("-win__created_at", "id"):
        if unpaid_only and c.paid:
            continue
        out.append(
            {
                "id": c.pk,
                "tournament": c.win.tournament_id,
                "tournament_name": c.win.tournament.name,
                "entry": c.entry_id,
                "entry_number": c.entry.number,
                "name": c.entry.person.full_name,
                "level": c.win.level,
                "percent": str(c.win.percent),
                "amount": money(c.amount),
                "shared_by": c.win.claims.count(),
                "verified_by": c.win.verified_by.get_username(),
                "at": c.win.created_at.isoformat(),
                "paid": c.paid,
                "receipt": c.payment.row.receipt_number if c.paid and c.payment.row_id else None,
            }
        )
    return out


def side_pools_summary(t, pools=None) -> list[dict]:
    """Each side pool's figures; ``pools``: the tournament's side pools (their funds joined) when
    the caller has read them already."""
    out = []
    for pool in t.side_pools.select_related("fund").all() if pools is None else pools:
        b = side_pool_balance(pool)
        row = {"id": pool.pk, "name": pool.name, "kind": pool.kind, "amount": money(b["total"]), "left": money(b["left"])}
        if pool.fund_id:
            row["fund"] = money(jackpot_balance(pool.fund))
        out.append(row)
    return out


def side_tokens(t) -> dict[int, list[dict]]:
    """REG-10: the Last Longer chips and plaques handed over, by pool: which, to whom, when, by whom
    (staff only: the lobby shows the pools' money, never who holds a plaque)."""
    out: dict[int, list[dict]] = {}
    rows = SideToken.objects.filter(pool__tournament=t).select_related("entry__person", "issued_by").order_by("issued_at", "id")
    for tok in rows:
        out.setdefault(tok.pool_id, []).append(
            {
                "entry": tok.entry_id,
                "entry_number": tok.entry.number,
                "name": tok.entry.person.display_name,
                "label": tok.label,
                "issued_at": tok.issued_at,
                "issued_by": tok.issued_by.get_username() if tok.issued_by else "",
            }
        )
    return out


def side_pools_for_staff(t) -> list[dict]:
    """``side_pools_summary`` with each Last Longer's chips and plaques handed over (REG-10)."""
    tokens = side_tokens(t)
    rows = side_pools_summary(t)
    for row in rows:
        if row["kind"] == "LAST_LONGER":
            row["tokens"] = tokens.get(row["id"], [])
    return rows


def ticket_data(ticket) -> dict:
    """PAY-11: a ticket as the desk reads it: holder, value, the events it is valid for."""
    events = (
        [{"id": ticket.target_id, "name": ticket.target.name}]
        if ticket.target_id
        else [{"id": t.pk, "name": t.name} for t in ticket.valid_events.order_by("start_at", "pk")]
    )
    return {
        "id": ticket.pk,
        "holder": ticket.holder_id,
        "holder_name": ticket.holder.full_name,
        "value": money(ticket.value),
        "description": ticket.description,
        "non_transferable": ticket.non_transferable,
        "status": ticket.status,
        "events": events,
        "any_event": not events,
        "redeemed_entry": ticket.redeemed_entry_id,
    }


def tickets_of(person) -> list[dict]:
    """The tickets ``person`` holds, the ones still to use first."""
    rows = Ticket.objects.filter(holder=person).select_related("holder", "target").prefetch_related("valid_events")
    return [ticket_data(t) for t in sorted(rows, key=lambda t: (t.status != Ticket.ISSUED, t.pk))]


# --- for other apps -----------------------------------------------------------------------


def display_summary(tournament, *, entries: int | None = None) -> dict:
    """Prize pool and payout ladder for lobby displays and the clock page.

    PAY-02: the figure shown is labelled. ``display_pool`` NET (the pool to share, default),
    GROSS (before the staff fee and the other deductions: what a gross guarantee promises) or
    BOTH (``prize_pool`` is then the net, ``prize_pool_gross`` the gross).

    ``{"prize_pool": "12345.00", "prize_pool_label": "net"|"gross", "prize_pool_show",
    "prize_pool_gross", "prize_pool_net", "guarantee", "guarantee_label", "bounty_money" (a bounty
    event's bounty parts, apart from the pool, else None), "payouts": [{"places", "amount",
    "prize"}], "places_paid": n, "side_pools": [...]}``; in a bounty event ``"bounty"``
    (``bounty_panel``), never read in another.
    """
    t = tournament
    # Each read once (a screen's snapshot is rebuilt after every change of a running event):
    # the pool, the side pools, the satellite link and the payout table's row serve the ladder
    # and the figures; ``entries``: the field the snapshot counted (PAY-04's entries, not again).
    pools = list(t.side_pools.select_related("fund"))
    b = pool_breakdown(t, side_pools=pools)
    link = satellite_link(t)
    table = PayoutTable.objects.filter(tournament=t).first()
    prizes = table_prizes(t, table=table, link=link, total=b.total, entries=entries)
    rules = HouseRules.of(t)
    show = rules.display_pool  # PAY-02: NET (default), GROSS or BOTH, each labelled
    seats_pool = satellite_pool(t, link) if link else None  # a satellite's pool is the seats' value, gross and net
    gross_amount = seats_pool if link else b.gross
    net_amount = seats_pool if link else b.total
    shown = gross_amount if show == "GROSS" else net_amount
    taken = bounty_taken_in(t) if rules.bounty != NO_BOUNTY else None  # read once: the figure and the panel
    return {
        "prize_pool": money(shown),
        "prize_pool_label": "gross" if show == "GROSS" else "net",
        "prize_pool_show": show,
        "prize_pool_gross": money(gross_amount) if show in ("GROSS", "BOTH") else None,
        "prize_pool_net": money(net_amount) if show in ("NET", "BOTH") else None,
        "guarantee": money(t.guarantee) if t.guarantee is not None else None,
        "guarantee_label": "gross" if rules.guarantee_is_gross else "net",
        # PAY-02: a bounty event's bounty money, apart: never in the prize pool, gross or net
        "bounty_money": money(taken) if taken is not None else None,
        "payouts": ladder(prizes),
        "places_paid": places_paid(t, prizes),
        "payout_table_state": table_state(t, table=table),
        "side_pools": side_pools_summary(t, pools),
        **({"won": won_by_entry(t, prizes)} if t.status == t.FINISHED else {}),
        **({"bounty": bounty_panel(t, rules, taken=taken)} if taken is not None else {}),
    }


def won_by_entry(t, prizes=None) -> dict:
    """What each placed entry won in the main event, for the lobby's results once it is over:
    ``{entry id: {"amount": cash, "prize": other prizes in words}}`` (forfeited prizes left out)."""
    won = {}
    for d in dues(t, prizes):
        if not d["source"].startswith("MAIN:") or d["forfeited"]:
            continue
        row = won.setdefault(str(d["entry_id"]), {"amount": ZERO, "prize": []})
        if d["kind"] == "CASH":
            row["amount"] += d["amount"]
        else:
            row["prize"].append(_label(d))
    return {k: {"amount": money(v["amount"]), "prize": " + ".join(v["prize"])} for k, v in won.items()}


def person_prizes(person) -> dict:
    """What payouts holds about one person (his data export, GDPR access) and the prizes he won
    that are not paid yet (an erasure waits for them): ``{"prize_payments", "tickets", "prizes_unpaid",
    "bounties", "bounties_unpaid"}`` (PAY-02: the bounties he won, ``bounties_of``)."""
    payments = [
        {
            "tournament": p.tournament_id,
            "entry": p.entry_id,
            "source": p.source,
            "kind": p.kind,
            "place": p.place,
            "amount": money(p.amount),
            "method": p.method,
            "reference": p.reference,
            "payee": p.payee,
            "receipt_number": p.row.receipt_number if p.row_id else None,
            "created_at": p.created_at.isoformat(),
        }
        for p in PrizePayment.objects.filter(entry__person=person).select_related("row").order_by("id")
    ]
    tickets = [
        {
            "id": t.pk,
            "target": t.target_id,
            "value": money(t.value),
            "description": t.description,
            "status": t.status,
            "created_at": t.created_at.isoformat(),
            "redeemed_entry": t.redeemed_entry_id,
        }
        for t in Ticket.objects.filter(holder=person).order_by("id")
    ]
    unpaid = []
    placed = Tournament.objects.filter(entries__person=person, entries__place__isnull=False).distinct()
    for t in placed:
        for d in dues(t):
            if d["person"].pk == person.pk and not d["paid"] and not d["forfeited"]:
                unpaid.append({"tournament": t.pk, "entry": d["entry_id"], "place": d["place"], "kind": d["kind"], "amount": money(d["amount"])})
    return {"prize_payments": payments, "tickets": tickets, "prizes_unpaid": unpaid, **bounties_of(person)}


def entry_prizes(entry) -> dict:
    """What the player's phone page shows of payouts for this entry alone: the prizes it won
    (a forfeited one is left out), once it has a place; in a bounty event its ``bounty``
    (``bounty_parts``)."""
    rules = HouseRules.of(entry.tournament)
    out = bounty_parts(entry.tournament, rules, [entry.pk]).get(entry.pk, {}) if rules.bounty != NO_BOUNTY else {}
    if entry.place is None:
        return {"prizes": [], **out}
    return {"prizes": _phone_prizes(dues(entry.tournament), entry.tournament).get(entry.pk, []), **out}


def history_prizes(entries) -> dict[int, dict]:
    """{entry id: {"prizes": [...], "bounties": {...}}} for a player's history page: what each
    placed entry won (the payouts worked out once per tournament) and, in a bounty event, the
    bounties it won (``bounties_won``, one query for them all)."""
    out: dict[int, dict] = {}
    by_tournament: dict = {}
    for e in entries:
        if e.place is not None:
            by_tournament.setdefault(e.tournament, []).append(e.pk)
    for t, ids in by_tournament.items():
        won = _phone_prizes(dues(t), t)
        for pk in ids:
            if won.get(pk):
                out[pk] = {"prizes": won[pk]}
    for pk, won in bounties_won([e for e in entries if HouseRules.of(e.tournament).bounty != NO_BOUNTY]).items():
        out.setdefault(pk, {})["bounties"] = won
    return out


def entries_prizes(tournament, places_paid: int | None = None) -> dict[int, dict]:
    """``entry_prizes`` for every entry of the tournament with a place, the prizes worked out
    once: ``{entry id: {"prizes": [...]}}``. With ``places_paid`` (the lobby's, of the same
    change), they are worked out only once somebody may have won: a big field's busts, far
    from the money, cost no payout table at every change. In a bounty event every entry with a
    bounty on its head or won has its ``bounty`` too (``bounty_parts``: two queries for them all)."""
    rules = HouseRules.of(tournament)
    out: dict[int, dict] = dict(bounty_parts(tournament, rules)) if rules.bounty != NO_BOUNTY else {}
    if places_paid is not None and not _anybody_may_have_won(tournament, places_paid):
        return out
    if not tournament.entries.filter(place__isnull=False).exists():
        return out
    for entry, prizes in _phone_prizes(dues(tournament), tournament).items():
        out[entry] = {**out.get(entry, {}), "prizes": prizes}
    return out


def _anybody_may_have_won(t, places_paid: int) -> bool:
    """An entry placed within the places paid (as many places lower as prizes were forfeited:
    under NEXT_PLACE each moves the prizes one place down, PEN-07), a side prize awarded, or a
    flight's chip-leader award (PAY-08): what ``dues`` lists, or nothing."""
    reach = places_paid + len(tournament_selectors.prize_forfeited_entries(t))
    return (
        t.entries.filter(place__isnull=False, place__lte=reach).exists() or SideAward.objects.filter(pool__tournament=t).exists() or bool(chip_leader_awards(t))
    )


def _phone_prizes(due: list[dict], t=None) -> dict[int, list[dict]]:
    """The prizes a phone shows, per entry (a forfeited one is never shown: it is not paid),
    each with ``ready``: the desk may pay it now (``services.prizes.pay_prize`` refuses none of
    its conditions: the table locked for a main prize, the place released by its two
    sign-offs, not held for the director, not shared with players still playing for it).
    ``t``: the tournament, to read the table's state once (without it nothing is ready)."""
    locked = t is not None and table_state(t) == PayoutTable.LOCKED
    by_entry: dict[int, list[dict]] = defaultdict(list)
    for d in due:
        if not d["forfeited"]:
            ready = (
                t is not None
                and not d["paid"]
                and d["released"]
                and not d["held"]
                and not d["pending"]
                and (locked or not d["source"].startswith("MAIN:"))
                and (d["kind"] == "ITEM" or d["amount"] > 0)
            )
            by_entry[d["entry_id"]].append(
                {"amount": money(d["amount"]), "kind": d["kind"], "description": d["description"], "paid": d["paid"], "ready": bool(ready)}
            )
    return by_entry


# The reports as the pages name them (never their file names): the payouts page and the
# tournament page's links to the control authority.
REPORT_LABELS = {
    "prestart": gettext_lazy("Pre-start report"),
    "standings": gettext_lazy("Final standings"),
    "payments": gettext_lazy("Prize payments"),
    "reconciliation": gettext_lazy("Reconciliation"),
    "rulings": gettext_lazy("Rulings report"),
}


def report_links(tournament) -> list[dict]:
    """The control authority's reports of this tournament (ROLE-02, ROLE-05): the pre-start
    report, each addendum issued, the rulings."""

    def link(name, label):
        return {
            "name": name,
            "label": label,
            "pdf": reverse("payouts-report", args=[tournament.pk, name, "pdf"]),
            "csv": reverse("payouts-report", args=[tournament.pk, name, "csv"]),
        }

    links = [link("prestart", REPORT_LABELS["prestart"])]
    links += [link(f"addendum-{n}", _("Addendum %(n)s") % {"n": n}) for n in tournament.stub_reports.order_by("number").values_list("number", flat=True)]
    links.append(link("rulings", REPORT_LABELS["rulings"]))
    return links


def tournament_links(tournament) -> list[dict]:
    """Buttons the tournament page shows for this app: [{"label", "url"}]."""
    links = [{"label": _("Payouts"), "url": reverse("payouts-tournament", args=[tournament.pk])}]
    links.append({"label": _("Payouts due"), "url": reverse("payouts-due") + f"?t={tournament.pk}"})
    links.append({"label": _("Deal calculator"), "url": reverse("payouts-deal", args=[tournament.pk])})
    return links


# --- bounties (PAY-02) ------------------------------------------------------------------------


def _bounty_paid_rows_q():
    """Ledger rows that pay bounties out (and their reversals): not bounty money taken in."""
    return tournament_selectors.bounty_payments_q()


def bounty_taken_in(t) -> Decimal:
    """The bounty part of every buy-in and re-entry sold, net of reversals and refunds."""
    return t.ledger.exclude(_bounty_paid_rows_q()).aggregate(b=Sum("bounty_amount"))["b"] or ZERO


def bounty_paid_out(t) -> Decimal:
    """Bounties handed over at the desk (a positive amount), net of reversed payments."""
    return -(t.ledger.filter(_bounty_paid_rows_q()).aggregate(b=Sum("bounty_amount"))["b"] or ZERO)


def bounties_owed_query(t):
    """Bounty awards won and not collected: cash for a player, standing, never paid or their
    payment reversed."""
    return (
        BountyAward.objects.filter(tournament=t, void="", winner__isnull=False, cash__gt=0)
        .filter(Q(row__isnull=True) | Q(row__reversed_by__isnull=False))
        .order_by("created_at", "id")
    )


def _awarded(t, **filters) -> Decimal:
    return BountyAward.objects.filter(tournament=t, void="", **filters).aggregate(c=Sum("cash"))["c"] or ZERO


def bounty_money(t) -> dict:
    """Where the bounty money of ``t`` is (PAY-02), every figure positive, apart from the prize
    pool and the house fee: ``in`` the bounty parts sold, net of refunds and reversals; ``paid``
    bounties handed over at the desk, net of reversed payments; ``owed`` won and not collected;
    ``on_heads`` still on the heads of the players in (FIXED, PKO); ``in_bag`` a mystery event's
    money still in play (all of it before the director sets up the envelopes): the envelopes
    not drawn, and ``unbagged`` what the envelopes set up differ from the money taken in since
    (above zero: a late registration, a re-entry no envelope holds yet; below zero: a refund or a
    reversal of money an envelope holds, until the director sets them up again); ``house``
    kept by a house rule (a split's remainder, a removed player's bounty); ``carried`` mystery
    envelopes carried over to the next event; ``to_refund`` bounty parts of cancelled entries not
    refunded yet; ``borne`` in a cancelled tournament, the bounties collected before it was
    cancelled, which the house pays (every bounty part is refunded). ``difference``: ``in`` less all the others, zero when every cent is explained.
    ``active``: a bounty event, or bounty money on its ledger."""
    rules = HouseRules.of(t)
    taken, paid = bounty_taken_in(t), bounty_paid_out(t)
    owed = bounties_owed_query(t).aggregate(c=Sum("cash"))["c"] or ZERO
    house = _awarded(t, kind=BountyAward.HOUSE)
    carried = _awarded(t, kind=BountyAward.LEFTOVER, winner__isnull=True)
    on_heads = BountyHead.objects.filter(tournament=t).aggregate(a=Sum("amount"))["a"] or ZERO
    to_refund = t.ledger.filter(entry__status=Entry.CANCELLED).exclude(_bounty_paid_rows_q()).aggregate(b=Sum("bounty_amount"))["b"] or ZERO
    in_bag, unbagged, envelopes = ZERO, ZERO, rules.envelopes
    if rules.bounty == "MYSTERY":
        if envelopes:
            drawn = set(BountyAward.objects.filter(tournament=t, void="", envelope__isnull=False).values_list("envelope", flat=True))
            left = sum((a for n, a in enumerate(envelopes, start=1) if n not in drawn), ZERO)
            # Sold (or given back) since the envelopes were set up: in play, the envelopes not
            # matching it until the director sets them up again.
            unbagged = taken - to_refund - sum(envelopes, ZERO)
            in_bag = left + unbagged
        else:
            in_bag = taken - to_refund
        # The money left in play, once given at the end or settled by a deal (shared or carried over), is out.
        settled = _awarded(t, kind__in=(BountyAward.LEFTOVER, BountyAward.DEAL))
        in_bag -= settled
        if settled:
            unbagged = ZERO
    borne = ZERO
    if is_cancelled(t):
        # FMT-02: every bounty part is owed back with its refund, nothing is in play or kept, the
        # bounties not collected are void (``services.void_uncollected``), and those collected
        # before the cancellation stay with their winners: paid by the house.
        owed = on_heads = in_bag = unbagged = house = carried = ZERO
        borne = paid
    explained = paid + owed + on_heads + in_bag + house + carried + to_refund - borne
    return {
        "active": rules.bounty != "NONE" or bool(taken or paid),
        "kind": rules.bounty,
        "envelopes_set": bool(envelopes),
        "in": taken,
        "paid": paid,
        "owed": owed,
        "on_heads": on_heads,
        "in_bag": in_bag,
        "unbagged": unbagged,
        "house": house,
        "carried": carried,
        "to_refund": to_refund,
        "borne": borne,
        "difference": taken - explained,
    }


def bounties_of(person) -> dict:
    """The bounties ``person`` won (PAY-02), for his data export: ``bounties`` every standing award
    (with the receipt that paid it, if paid) and ``bounties_unpaid`` those not collected yet (an
    erasure waits for them)."""
    awards = BountyAward.objects.filter(winner__person=person, void="", cash__gt=0).select_related("row", "row__reversed_by").order_by("created_at", "id")
    won, unpaid = [], []
    for a in awards:
        paid = a.row_id is not None and not a.row.is_reversed
        item = {
            "tournament": a.tournament_id,
            "entry": a.winner_id,
            "kind": a.kind,
            "knocked_out_entry": a.knocked_out_id,
            "envelope": a.envelope,
            "amount": money(a.cash),
            "paid": paid,
            "receipt_number": a.row.receipt_number if paid else None,
            "created_at": a.created_at.isoformat(),
        }
        won.append(item)
        if not paid:
            unpaid.append(item)
    return {"bounties": won, "bounties_unpaid": unpaid}


# --- bounties on the screens (PAY-02): the table map, the lobby, the phone, the history -------

NO_BOUNTY = "NONE"
HEAD_KINDS = ("FIXED", "PKO")  # the events with a bounty on every head (a mystery event has envelopes)
#: The biggest bounties a lobby screen lists.
BOUNTY_TOP = 5


def _public_name(first: str, last: str, nickname: str, hidden: bool, style: str) -> str:
    """A name as the lobby's public lists show it (``seat_lookup_names``; "—" for a player who
    asked not to be found by name), as the public standings do."""
    return public_name(first, last, nickname, style, hidden)


def bounties_on_heads(t, entries=None) -> dict[int, str]:
    """``{entry id: the bounty on its head}`` in a FIXED or PKO event (the table map shows it by
    each seated player), of ``entries`` (ids) or of the whole field; one query, none (``{}``) in
    any other event."""
    if HouseRules.of(t).bounty not in HEAD_KINDS:
        return {}
    heads = BountyHead.objects.filter(tournament=t)
    if entries is not None:
        heads = heads.filter(entry_id__in=list(entries))
    return {entry: money(amount) for entry, amount in heads.values_list("entry_id", "amount")}


def bounty_panel(t, rules: HouseRules | None = None, *, taken: Decimal | None = None) -> dict:
    """What a lobby screen shows of a bounty event, the same size whatever the field:

    ``{"kind", "pool"`` (the bounty money taken in), ``"paid"`` (the cash the knockouts have
    given the players so far, collected at the desk or not)``}``; in a FIXED or PKO event
    ``"top"``: the ``BOUNTY_TOP`` biggest bounties on the heads still playing, ``[{"name",
    "amount"}]``; in a mystery event ``"envelopes"`` (how many the director set up, 0 before),
    ``"envelopes_left"``, ``"envelopes_left_amount"`` and ``"last_draw"`` (``{"id", "envelope",
    "amount", "names", "at"}``: the last envelope drawn, its winners, or None). Names as the
    lobby's public lists show them. ``taken``: the bounty money taken in, when the caller has read
    it. Three small queries (a mystery event: five), one fewer with ``taken``."""
    rules = rules or HouseRules.of(t)
    won = BountyAward.objects.filter(tournament=t, void="", winner__isnull=False).aggregate(c=Sum("cash"))["c"] or ZERO
    panel = {"kind": rules.bounty, "pool": money(bounty_taken_in(t) if taken is None else taken), "paid": money(won)}
    style = rules.seat_lookup_names
    if rules.bounty in HEAD_KINDS:
        rows = (
            BountyHead.objects.filter(tournament=t, amount__gt=0, entry__status=Entry.ACTIVE)
            .order_by("-amount", "entry__number")
            .values_list(
                "amount", "entry__person__first_name", "entry__person__last_name", "entry__person__nickname", "entry__person__hide_from_lookup", "entry__number"
            )
        )
        top = list(rows[:BOUNTY_TOP])
        names = public_names((row[1:] for row in top), style)  # two "Luca R." read "Luca R. #12" and "Luca R. #31"
        panel["top"] = [{"name": name, "amount": money(row[0])} for name, row in zip(names, top, strict=True)]
        return panel
    return panel | _mystery_panel(t, rules, style)


def _mystery_panel(t, rules: HouseRules, style: str) -> dict:
    envelopes = rules.envelopes
    if not envelopes:
        return {"envelopes": 0, "envelopes_left": None, "envelopes_left_amount": None, "last_draw": None}
    standing = BountyAward.objects.filter(tournament=t, void="")
    drawn = set(standing.filter(envelope__isnull=False).values_list("envelope", flat=True).distinct())
    if standing.filter(kind__in=(BountyAward.LEFTOVER, BountyAward.DEAL)).exists():  # the event is over, or a deal settled the bag
        left = []
    else:
        left = [amount for number, amount in enumerate(envelopes, start=1) if number not in drawn]
    last = None
    latest = standing.filter(envelope__isnull=False).order_by("-id").values_list("bust_id", flat=True)[:1]
    rows = list(
        standing.filter(bust_id__in=latest, envelope__isnull=False)
        .order_by("id")
        .values_list(
            "bust_id",
            "envelope",
            "created_at",
            "winner_id",
            "winner__person__first_name",
            "winner__person__last_name",
            "winner__person__nickname",
            "winner__person__hide_from_lookup",
            "winner__number",
        )
    )
    if rows:
        bust, number, at = rows[0][:3]
        names = public_names((row[4:] for row in rows if row[3] is not None), style)
        last = {"id": bust, "envelope": number, "amount": money(envelopes[number - 1]), "names": names, "at": at.isoformat()}
    return {
        "envelopes": len(envelopes),
        "envelopes_left": len(left),
        "envelopes_left_amount": money(sum(left, ZERO)),
        "last_draw": last,
    }


def _bounty_won_rows(entry_ids=None, tournament=None):
    """Each winning entry's standing bounty awards, summed: cash won, collected at the desk (a
    payment not reversed), knockouts."""
    awards = BountyAward.objects.filter(void="", winner__isnull=False)
    if tournament is not None:
        awards = awards.filter(tournament=tournament)
    if entry_ids is not None:
        awards = awards.filter(winner_id__in=list(entry_ids))
    return (
        awards.order_by()
        .values("winner_id")
        .annotate(
            won=Sum("cash"),
            collected=Sum("cash", filter=Q(row__isnull=False, row__reversed_by__isnull=True)),
            knockouts=Count("pk", filter=Q(kind=BountyAward.KNOCKOUT)),
        )
        .values_list("winner_id", "won", "collected", "knockouts")
    )


def _won_dict(won, collected, knockouts) -> dict:
    won, collected = won or ZERO, collected or ZERO
    return {"won": money(won), "collected": money(collected), "to_collect": money(won - collected), "knockouts": knockouts}


def bounty_parts(t, rules: HouseRules | None = None, entries=None) -> dict[int, dict]:
    """What a player's phone shows of a bounty event, for ``entries`` (ids) or every entry at
    once: ``{entry id: {"bounty": {"kind", "head", "won", "collected", "to_collect",
    "knockouts"}}}`` — ``head``: the bounty on the entry's head while it plays (FIXED, PKO;
    else None), ``won``: the cash its knockouts (and a winner's own bounty, the envelopes left)
    won, ``collected`` of it at the desk, ``to_collect`` the rest, ``knockouts`` how many.
    An entry with neither a bounty on its head nor a knockout has none. Two queries whatever
    the field (one in a mystery event)."""
    rules = rules or HouseRules.of(t)
    heads: dict[int, Decimal] = {}
    if rules.bounty in HEAD_KINDS:
        qs = BountyHead.objects.filter(tournament=t, amount__gt=0)
        if entries is not None:
            qs = qs.filter(entry_id__in=list(entries))
        heads = dict(qs.values_list("entry_id", "amount"))
    won = {row[0]: row[1:] for row in _bounty_won_rows(entries, tournament=t)}
    empty = _won_dict(ZERO, ZERO, 0)
    return {
        pk: {"bounty": {"kind": rules.bounty, "head": money(heads[pk]) if pk in heads else None, **(_won_dict(*won[pk]) if pk in won else empty)}}
        for pk in heads.keys() | won.keys()
    }


def bounties_won(entries) -> dict[int, dict]:
    """``{entry id: {"won", "collected", "to_collect", "knockouts"}}``: the bounties each of
    ``entries`` won (a player's history page), one query for them all; entries that won none
    are left out."""
    ids = [e.pk for e in entries]
    if not ids:
        return {}
    return {pk: _won_dict(won, collected, n) for pk, won, collected, n in _bounty_won_rows(ids)}


def knockouts_of(t, busts, winner: int | None = None) -> list[dict]:
    """What the knockouts of these busts (ids) won, and with ``winner`` the last player's own
    bounty or the envelopes left to him: standing awards won by a player, in the order recorded
    (a split pot's eliminators as the floor named them). What seating's bust answer, its bust
    list and the floor's banner show (``seating.signals.knockouts_wanted``)."""
    wanted = Q(bust_id__in=list(busts), kind=BountyAward.KNOCKOUT)
    if winner is not None:
        wanted |= Q(winner_id=winner, kind__in=(BountyAward.OWN, BountyAward.LEFTOVER))
    awards = BountyAward.objects.filter(wanted, tournament=t, void="", winner__isnull=False).select_related("winner__person").order_by("id")
    return [
        {
            "bust": a.bust_id,
            "kind": a.kind,
            "winner": a.winner_id,
            "entry_number": a.winner.number,
            "name": a.winner.person.full_name,
            "knocked_out": a.knocked_out_id,
            "cash": a.cash.quantize(CENT),
            "added": a.added.quantize(CENT),
            "envelope": a.envelope,
            "pot_share": a.pot_share,
        }
        for a in awards
    ]


def _bounty_ledger(t) -> tuple[Decimal, Decimal, Decimal]:
    """(taken in, paid out, to refund) in one query: ``bounty_money``'s ledger figures together."""
    paid = _bounty_paid_rows_q()
    agg = t.ledger.aggregate(
        taken=Sum("bounty_amount", filter=~paid),
        out=Sum("bounty_amount", filter=paid),
        refund=Sum("bounty_amount", filter=~paid & Q(entry__status=Entry.CANCELLED)),
    )
    return agg["taken"] or ZERO, -(agg["out"] or ZERO), agg["refund"] or ZERO


def bounty_settings(t, rules: HouseRules | None = None) -> dict:
    """The bounty rules in force (PAY-02), as the desk and the director read them."""
    rules = rules or HouseRules.of(t)
    return {
        "kind": rules.bounty,
        "bounty_part": money(rules.bounty_part),
        "cash_percent": str(rules.bounty_cash_percent),
        "split": rules.bounty_split,
        "remainder": rules.bounty_remainder,
        "rounding": str(rules.bounty_rounding),
        "mystery_from": rules.mystery_from,
        "mystery_leftover": rules.mystery_leftover,
        "bounty_in_deal": rules.bounty_in_deal,
    }


def _owed(award) -> bool:
    """A standing award with cash for a player, never paid or its payment reversed."""
    return not award.void and award.winner_id is not None and award.cash > 0 and (award.row_id is None or award.row_reversed)


def bounties_owed(t) -> list[dict]:
    """What the desk has to pay in bounties, one line per player (PAY-02): his entry, the
    number of bounties and their cash, oldest first. One query."""
    by_entry: dict[int, dict] = {}
    for a in bounties_owed_query(t).select_related("winner__person"):
        line = by_entry.get(a.winner_id)
        if line is None:
            e = a.winner
            line = by_entry[a.winner_id] = {"entry": e, "entry_id": e.pk, "entry_number": e.number, "name": e.person.full_name, "count": 0, "amount": ZERO}
        line["count"] += 1
        line["amount"] += a.cash
    return list(by_entry.values())


def bounties_paid(t) -> list[dict]:
    """Each bounty paid at the desk and not given back (PAY-02), newest payment first, for the
    desk to record one given back (a bust to be undone after its bounty was collected): the
    award, its winner, who he knocked out, the cash and the receipt that paid it. One query."""
    awards = (
        BountyAward.objects.filter(tournament=t, void="", winner__isnull=False, cash__gt=0, row__isnull=False, row__reversed_by__isnull=True)
        .select_related("winner__person", "knocked_out__person", "row")
        .order_by("-row__receipt_number", "id")
    )
    return [
        {
            "id": a.pk,
            "kind": a.kind,
            "entry_id": a.winner_id,
            "entry_number": a.winner.number,
            "name": a.winner.person.full_name,
            "knocked_out_name": a.knocked_out.person.full_name if a.knocked_out_id else "",
            "amount": a.cash,
            "receipt": a.row.receipt_number,
            "method": a.row.method,
        }
        for a in awards
    ]


def bounty_overview(t) -> dict:
    """A bounty event at a glance (PAY-02): the settings in force, each live player's bounty
    (FIXED and PKO), every standing award with its payment or what is owed, and the totals:

    taken in = paid out + owed + on heads + envelopes left + house + carried over + to refund,

    to the cent once the mystery envelopes are set up (``bounty_money``'s figures). Three queries
    whatever the field: the ledger's sums, the heads, the awards (players, knocked-out players
    and paying rows joined); the envelopes are the house settings'."""
    rules = HouseRules.of(t)
    taken, paid_out, to_refund = _bounty_ledger(t)
    heads = [
        {"entry": h.entry_id, "entry_number": h.entry.number, "name": h.entry.person.full_name, "bought": money(h.bought), "amount": money(h.amount)}
        for h in BountyHead.objects.filter(tournament=t, entry__status=Entry.ACTIVE).select_related("entry__person").order_by("-amount", "entry__number")
    ]
    on_heads = sum((Decimal(h["amount"]) for h in heads), ZERO)
    awards = list(
        BountyAward.objects.filter(tournament=t, void="")
        .select_related("winner__person", "knocked_out__person", "row")
        .annotate(row_reversed=Exists(LedgerRow.objects.filter(reverses=OuterRef("row"))))
        .order_by("created_at", "id")
    )
    owed = house = carried = ZERO
    rows = []
    for a in awards:
        is_owed = _owed(a)
        paid = a.row_id is not None and not a.row_reversed
        if is_owed:
            owed += a.cash
        if a.kind == BountyAward.HOUSE:
            house += a.cash
        if a.kind == BountyAward.LEFTOVER and a.winner_id is None:
            carried += a.cash
        rows.append(
            {
                "id": a.pk,
                "kind": a.kind,
                "winner": a.winner_id,
                "winner_name": a.winner.person.full_name if a.winner_id else "",
                "winner_number": a.winner.number if a.winner_id else None,
                "knocked_out": a.knocked_out_id,
                "knocked_out_name": a.knocked_out.person.full_name if a.knocked_out_id else "",
                "knocked_out_number": a.knocked_out.number if a.knocked_out_id else None,
                "cash": money(a.cash),
                "added": money(a.added),
                "envelope": a.envelope,
                "paid_receipt": a.row.receipt_number if paid else None,
                "owed": is_owed,
                "created_at": a.created_at.isoformat(),
            }
        )
    envelopes = rules.envelopes if rules.bounty == bounty_engine.MYSTERY else []
    drawn = {a.envelope for a in awards if a.envelope is not None}
    # What was left has gone to the winner or the next event, or a deal settled it.
    finished = any(a.kind in (BountyAward.LEFTOVER, BountyAward.DEAL) for a in awards)
    left = [] if finished else [n for n in range(1, len(envelopes) + 1) if n not in drawn]
    return {
        "settings": bounty_settings(t, rules),
        "currency": t.currency,
        "heads": heads,
        "awards": rows,
        "envelopes": {
            "count": len(envelopes),
            "total": money(sum(envelopes, ZERO)),
            "left": len(left),
            "left_amount": money(sum((envelopes[n - 1] for n in left), ZERO)),
        },
        "totals": {
            "taken_in": money(taken),
            "paid_out": money(paid_out),
            "owed": money(owed),
            "on_heads": money(on_heads),
            "envelopes_left": money(sum((envelopes[n - 1] for n in left), ZERO)),
            "house": money(house),
            "carried_over": money(carried),
            "to_refund": money(to_refund),
        },
    }


def knockouts_by_entry(t) -> dict[int, int]:
    """{entry id: players it knocked out} in a bounty event: its standing knockouts (an undone
    bust's are void). A split pot's knockout counts once for each of its eliminators, as each
    won a share of the bounty. A removal (nobody knocked him out) counts for nobody."""
    rows = (
        BountyAward.objects.filter(tournament=t, kind=BountyAward.KNOCKOUT, void="", winner__isnull=False)
        .values("winner")
        .annotate(n=Count("knocked_out", distinct=True))
    )
    return {r["winner"]: r["n"] for r in rows}


def template_shape(template) -> str:
    """What a venue template pays, as its list shows it: "2 places", or each band's ("2–10: 2
    places · 11–30: 3 places")."""
    if not template.bands:
        return _places(len(template.percents))
    return " · ".join(f"{band_label(b)}: {_places(len(b['percents']))}" for b in template.bands)


def _places(n: int) -> str:
    return ngettext("%(n)s place", "%(n)s places", n) % {"n": n}
