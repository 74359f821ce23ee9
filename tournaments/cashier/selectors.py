"""The cashier desk's reads: exchange rates, last sales, a cashier's shift totals and a tournament's
ledger totals, the refunds still due, the receipts a restore lost, the desk's tournament and
its declared rebuys. Reads only; the services that change state import these, never the reverse."""

from decimal import Decimal

from django.db.models import Count, Sum
from django.utils import timezone

from tdmanager.compiled import DATETIME, Compiled
from tdmanager.money import CENT, ZERO
from tournaments.eventlog.actions import Action
from tournaments.models import (
    Entry,
    ExchangeRate,
    LedgerRow,
    Tournament,
    TournamentEvent,
)
from tournaments.oversight.selectors import bounty_payments_q


def exchange_rates_of(day) -> list:
    """REG-06: the rate of ``day`` for each foreign currency and base (the latest set that day)."""
    latest = {}
    for row in ExchangeRate.objects.filter(date=day).select_related("set_by").order_by("set_at", "id"):
        latest[(row.currency, row.base_currency)] = row
    return [latest[k] for k in sorted(latest)]


def last_sales(user, tournament=None, limit: int = 15, offset: int = 0):
    """The desk's "Last sales": this cashier's latest ledger rows (of one tournament when
    given), newest first, with the reversal that cancelled each, if any; ``offset`` newest skipped."""
    qs = LedgerRow.objects.filter(cashier=user).select_related("person", "reverses", "reversed_by")
    if tournament is not None:
        qs = qs.filter(tournament=tournament)
    return list(qs.order_by("-receipt_number")[offset : offset + limit])


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
            bounty_out=Sum("bounty_amount", filter=bounty_payments_q()),
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
        bp=Sum("bounty_amount", filter=bounty_payments_q()),
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


def cancellation_refunds(tournament_ids=None) -> dict[int, tuple[list[int], str]]:
    """The entries each cancellation left to refund at the desk (its event's ``refunds_due``)
    and its reason, by tournament (the latest cancellation of each)."""
    events = TournamentEvent.objects.filter(action=Action.TOURNAMENTS_TOURNAMENT_CANCELLED, tournament__status=Tournament.CANCELLED)
    if tournament_ids is not None:
        events = events.filter(tournament_id__in=tournament_ids)
    out = {}
    for tid, payload in events.order_by("id").values_list("tournament_id", "payload"):
        out[tid] = ([int(x) for x in (payload or {}).get("refunds_due") or ()], str((payload or {}).get("reason") or ""))
    return out


REFUND_PARTS = {"p": "prize", "f": "fee", "s": "side", "j": "jackpot", "b": "bounty"}


def _refund_parts(entry_ids) -> dict[int, dict[str, Decimal]]:
    """Of ``entry_ids``, those with money on the ledger and no refund paid (a reversed refund is
    due again): each with what it paid, by part (``REFUND_PARTS``) and in all (``total``)."""
    if not entry_ids:
        return {}
    refunded = set(LedgerRow.objects.filter(entry_id__in=entry_ids, kind=LedgerRow.REFUND, reversed_by__isnull=True).values_list("entry_id", flat=True))
    sums = (
        LedgerRow.objects.filter(entry_id__in=entry_ids)
        .exclude(bounty_payments_q())  # bounties he won are his, not what he paid
        .values("entry_id")
        .order_by()
        .annotate(p=Sum("prize_amount"), f=Sum("fee_amount"), s=Sum("side_amount"), j=Sum("jackpot_amount"), b=Sum("bounty_amount"))
    )
    due = {}
    for r in sums:
        parts = {name: r[k] or ZERO for k, name in REFUND_PARTS.items()}
        amount = sum(parts.values(), ZERO)
        if r["entry_id"] not in refunded and amount > ZERO:
            due[r["entry_id"]] = {**parts, "total": amount}
    return due


def refunds_still_due(entry_ids) -> dict[int, Decimal]:
    """Of ``entry_ids``, those with money on the ledger and no refund paid (a reversed refund is
    due again): each with its amount."""
    return {pk: parts["total"] for pk, parts in _refund_parts(entry_ids).items()}


def refunds_owed(t: Tournament) -> dict[str, Decimal]:
    """A cancelled tournament's refunds still to hand out (``refunds_due``), summed by part
    (prize, fee, side, jackpot, bounty) and in all (``total``): money the players are owed, which
    the reconciliation lists as owed. ``paid``: the refunds already handed out (net of reversed
    ones), out of the drawers."""
    ids, _reason = cancellation_refunds([t.pk]).get(t.pk, ([], ""))
    out = dict.fromkeys([*REFUND_PARTS.values(), "total"], ZERO)
    for parts in _refund_parts(ids).values():
        for k, v in parts.items():
            out[k] += v
    refunded = t.ledger.filter(kind=LedgerRow.REFUND, reversed_by__isnull=True).aggregate(
        p=Sum("prize_amount"), f=Sum("fee_amount"), s=Sum("side_amount"), j=Sum("jackpot_amount"), b=Sum("bounty_amount")
    )
    out["paid"] = -sum((refunded[k] or ZERO for k in REFUND_PARTS), ZERO)
    return out


def refunds_due(t: Tournament) -> list[dict]:
    """A cancelled tournament's refunds still to hand out at the desk, in entry order: every entry
    that had paid when it was cancelled, until a cashier pays it back (``pay_refund``)."""
    ids, _reason = cancellation_refunds([t.pk]).get(t.pk, ([], ""))
    due = refunds_still_due(ids)
    entries = Entry.objects.filter(pk__in=list(due)).select_related("person").order_by("number")
    return [
        {"entry": e.pk, "number": e.number, "person": e.person_id, "name": e.person.full_name, "amount": due[e.pk], "currency": t.currency} for e in entries
    ]


def tournaments_with_refunds_due() -> list[int]:
    """The cancelled tournaments whose refunds are not all paid yet (the desk keeps them listed)."""
    cancelled = cancellation_refunds()
    due = refunds_still_due([i for ids, _r in cancelled.values() for i in ids])
    return sorted(tid for tid, (ids, _r) in cancelled.items() if any(i in due for i in ids))


def receipts_lost_in_restore(t) -> list[dict]:
    """The receipt numbers lost with a restore while this tournament was open (``services.ledger.
    continue_receipts_after_restore``): ``{"first", "last", "backup", "at"}``, oldest first."""
    rows = TournamentEvent.objects.filter(tournament=None, action=Action.CASHIER_RECEIPTS_LOST_IN_RESTORE).order_by("id")
    return [
        {"first": e.payload.get("first"), "last": e.payload.get("last"), "backup": e.payload.get("backup", ""), "at": e.created_at}
        for e in rows
        if t.pk in (e.payload.get("tournaments") or [])
    ]


def desk_tournament(user, open_tournaments: list) -> int | None:
    """The tournament the cashier desk opens on: the one this cashier last sold in while
    it is still on sale (each cashier's own: two desks selling two events each keep theirs), else
    the running or registering one starting soonest, else the first listed (a planned one)."""
    ids = [t.pk for t in open_tournaments]
    if not ids:
        return None
    last = (
        (LedgerRow.objects.filter(cashier=user, tournament_id__in=ids).order_by("-pk").values_list("tournament_id", flat=True).first())
        if user is not None and user.is_authenticated
        else None
    )
    if last is not None:
        return last
    selling = [t for t in open_tournaments if t.status in (Tournament.RUNNING, Tournament.REGISTERING)]
    return min(selling, key=lambda t: t.start_at).pk if selling else ids[0]


def declared_rebuys(t: Tournament) -> list[dict]:
    """FMT-04 / TDA 27: the rebuys declared before a hand that the desk has not collected yet,
    oldest first, each with what it costs."""
    price = (t.rebuy_price or ZERO) + t.rebuy_fee
    return [
        {
            "entry": e.pk,
            "number": e.number,
            "person": e.person_id,
            "name": e.person.display_name,
            "declared_at": e.rebuy_declared_at.isoformat(),
            "status": e.status,
            "amount": str(price),
            "chips": t.rebuy_chips,
        }
        for e in t.entries.filter(rebuy_declared_at__isnull=False).select_related("person").order_by("rebuy_declared_at", "number")
    ]


#: what a User-Agent names: the browser (the first that matches: Edge and Opera say "Chrome" too)
_BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"), ("Safari/", "Safari"))

_SYSTEMS = (
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("CrOS", "ChromeOS"),
    ("Linux", "Linux"),
)
