"""Read side of tournaments: questions about the floor that pages, the live snapshot and the
apps above ask. Reads only; the services that change state import these, never the reverse."""

import re
import time
from datetime import datetime, timedelta
from decimal import Decimal

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.sessions.models import Session
from django.db.models import Count, Max, OuterRef, Prefetch, Q, Subquery, Sum
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tdmanager.authentication import refusal
from tdmanager.compiled import DATETIME, Compiled, rows_together
from tdmanager.money import CENT, ZERO
from tdmanager.roles import ROLES
from tournaments.eventlog import sentences as eventlog
from tournaments.eventlog.actions import Action
from tournaments.floor import penalties

from . import signals
from .labels import penalty_kind_label
from .models import (
    BrowserSession,
    ChipAdjustment,
    DeviceToken,
    Entry,
    ExchangeRate,
    LedgerRow,
    Penalty,
    RegulatorGrant,
    Tournament,
    TournamentChange,
    TournamentEvent,
)


def _chips_sum(model):
    """The sum of ``model``'s chips for one tournament, compiled once: one row, none without rows."""
    return Compiled(lambda pk: model.objects.filter(tournament_id=pk).order_by().values("tournament_id").annotate(c=Sum("chips")).values_list("c"), model)


_CHIPS_SOLD, _CHIPS_ADJUSTED = _chips_sum(LedgerRow), _chips_sum(ChipAdjustment)


def chips_in_play(t) -> int:
    """Starting stacks + rebuys + add-ons (net of reversals and refunds) + race adjustments − removals.
    Both sums in one round trip on PostgreSQL (the lobby's snapshot asks after every change)."""
    pk = int(getattr(t, "pk", t))
    sold, adjusted = rows_together((_CHIPS_SOLD, (pk,)), (_CHIPS_ADJUSTED, (pk,)))
    return int(sum((rows[0][0] or 0 for rows in (sold, adjusted) if rows), 0))


def active_penalties(t, now=None):
    """Penalties still running (a time suspension whose time is up no longer counts, even before
    the floor's list marks it served)."""
    now = now or timezone.now()
    over = Q(kind=penalties.TIME_SUSPENSION, ends_at__lte=now)
    return Penalty.objects.filter(tournament=t, status=Penalty.ACTIVE).exclude(over).select_related("entry", "person")


def penalty_progress(p, now=None) -> dict:
    """Where a running penalty stands, for the table map, the floor page and the API (PEN-03,
    PEN-05): ``started``, ``hands_left``, ``seconds_left`` (a time suspension, on the clock),
    ``clock_paused`` and a ``label`` in the user's language."""
    now = now or timezone.now()
    kind = penalty_kind_label(p.kind)
    out = {"kind_label": kind, "started": p.started, "hands_left": None, "seconds_left": None, "clock_paused": False}
    if p.kind in (penalties.MISSED_HANDS, penalties.MISSED_ROUNDS):
        out["hands_left"] = p.hands_left if p.hands_total else None
        if not p.started:
            out["label"] = _("%(kind)s: starts after this hand") % {"kind": kind}
        else:
            out["label"] = _("%(kind)s: %(n)s of %(total)s hands left") % {"kind": kind, "n": p.hands_left, "total": p.hands_total}
    elif p.kind == penalties.TIME_SUSPENSION and p.status == Penalty.ACTIVE:
        paused = p.ends_at is None
        left = max(0, round(p.seconds_left or 0) if paused else round((p.ends_at - now).total_seconds()))
        out.update(seconds_left=left, clock_paused=paused)
        text = _("%(kind)s: %(m)d:%(s)02d left") % {"kind": kind, "m": left // 60, "s": left % 60}
        out["label"] = text + (" · " + _("clock paused") if paused else "")
    else:
        out["label"] = kind
    return out


# --- FMT-02: a published event's versions, as players read them ------------------------------

CHANGE_LABELS = {
    "start_at": gettext_lazy("Start"),
    "structure": gettext_lazy("Structure"),
    "buy_in": gettext_lazy("Buy-in"),
    "fee": gettext_lazy("Fee"),
    "guarantee": gettext_lazy("Guarantee"),
    "starting_stack": gettext_lazy("Starting stack"),
    "late_reg_closes_after_level": gettext_lazy("Late registration until level"),
    "rebuy_price": gettext_lazy("Rebuy"),
    "rebuy_fee": gettext_lazy("Rebuy fee"),
    "addon_price": gettext_lazy("Add-on"),
    "addon_fee": gettext_lazy("Add-on fee"),
}


def _shown(name, value) -> str:
    if value is None or value == "":
        return "—"
    if name == "start_at":
        try:
            return date_format(timezone.localtime(datetime.fromisoformat(value)), "d/m/Y H:i")
        except (TypeError, ValueError):
            return str(value)
    return str(value)


def change_lines(change) -> list[str]:
    """Each change of one version as a line: "Start: 12/03/2026 20:00 → 12/03/2026 20:30"."""
    lines = []
    for name, value in (change.changes or {}).items():
        if name == "structure_rows":
            for number, old, new in value:
                lines.append(_("Structure, row %(n)s") % {"n": number} + f": {old or '—'} → {new or '—'}")
        else:
            old, new = value
            label = CHANGE_LABELS.get(name, name)
            lines.append(f"{label}: {_shown(name, old)} → {_shown(name, new)}")
    return lines


def change_history(t):
    """The event's versions, newest first (FMT-02)."""
    return TournamentChange.objects.filter(tournament=t).select_related("changed_by").order_by("-version")


def recent_changes(t, now=None, hours: int = 12) -> list:
    """The versions of the last ``hours`` (house rule ``change_notice_hours``), newest first, at
    most three: what the lobby screens announce (FMT-02)."""
    now = now or timezone.now()
    return list(change_history(t).filter(changed_at__gte=now - timedelta(hours=hours))[:3])


def public_reason(change) -> str:
    """Why a version changed, as the players may read it: the reason once the director has shown
    it to them (``changes.set_reason_public``), else nothing."""
    return change.reason if change.reason_public else ""


def change_announcement(change) -> str:
    """One version as the lobby screens announce it, in the active language, with its reason
    where the players may read it."""
    text = _("Changed: %(what)s") % {"what": "; ".join(change_lines(change))}
    reason = public_reason(change)
    return text + (f" ({reason})" if reason else "")


def prize_forfeited_entries(t) -> set[int]:
    """PEN-07 / C27: the entries whose prize an elimination without prize took away (they keep
    their place by removal time, but are paid nothing). A cancelled penalty forfeits nothing."""
    return set(Penalty.objects.filter(tournament=t, prize_forfeited=True).exclude(status=Penalty.CANCELLED).values_list("entry_id", flat=True))


def penalty_history(person):
    """Every penalty the person ever had, across tournaments, newest first (for escalation)."""
    return Penalty.objects.filter(person=person).select_related("tournament").order_by("-issued_at")


def seat_of(entry):
    """``{"table", "seat"}`` while the entry is seated (seating answers ``signals.seat_wanted``), else None."""
    return signals.ask_one(signals.seat_wanted, entry=entry) if entry is not None else None


# --- ROLE-01 / ROLE-02 / ROLE-05: what the controller witnesses, the stubs, the rulings ------

# The event-log rows the administrative controller witnesses (003 Art. 4.6, 4.7(1)): the seat
# draw and the moves that balance or break tables.
WITNESSED = (
    Action.SEATING_DRAW_INITIAL,
    Action.SEATING_MOVE_CONFIRMED,
    Action.SEATING_MOVES_CONFIRMED,
    Action.SEATING_PLAYER_MOVED,
    Action.SEATING_TABLE_BROKEN,
    Action.SEATING_FINAL_TABLE_FORMED,
)


def witness_list(t) -> list[dict]:
    """Every draw and move of the tournament with the controller signatures on it."""
    events = event_sentences(t.events.filter(action__in=[a.value for a in WITNESSED]).prefetch_related("witnesses").order_by("id"), t.currency)
    return [
        {
            "event": e.pk,
            "action": e.action,
            "label": e.action_label,
            "sentence": e.sentence,
            "at": e.created_at,
            "by": e.actor_label,
            "payload": e.payload,
            "witnesses": [{"name": w.name, "at": w.created_at} for w in e.witnesses.all()],
        }
        for e in events
    ]


def event_sentences(events, currency: str = "") -> list:
    """The rows of the event log, each with ``sentence`` (``tournaments.eventlog``): the entries they
    name are looked up in one query. Returns the rows (a list), for a page to loop over."""
    rows = list(events)
    refs = set().union(*(eventlog.entry_refs(e.payload) for e in rows)) if rows else set()
    names = {
        e.pk: f"{e.person.full_name} (#{e.number})"
        for e in Entry.objects.filter(pk__in=refs).select_related("person").only("number", "person__first_name", "person__last_name")
    }
    for e in rows:
        e.sentence = eventlog.sentence(e.action, e.payload, actor=e.actor_label, currency=currency, entries=names)
    return rows


def granted_to_regulator(user, tournament_id: int) -> bool:
    return RegulatorGrant.objects.filter(user=user, tournament_id=tournament_id).exists()


def published_tournaments():
    """The tournaments anyone may read about without a login (the rules page, its change feed,
    the seat lookup): from when the director publishes one by opening registration; a planned
    event is the staff's until then."""
    return Tournament.objects.exclude(status=Tournament.PLANNED)


def bounty_payments_q() -> Q:
    """Ledger rows that pay bounties out (PAY-02) and their reversals: their bounty part is money
    out, never bounty money taken in nor paid for an entry."""
    return Q(kind=LedgerRow.BOUNTY) | Q(kind=LedgerRow.REVERSAL, reverses__kind=LedgerRow.BOUNTY)


def stub_rows(t):
    """Ticket stubs: every desk row of the tournament but prize and bounty payments (sales,
    refunds, reversals)."""
    return (
        LedgerRow.objects.filter(tournament=t)
        .exclude(kind__in=(LedgerRow.PAYOUT, LedgerRow.BOUNTY))
        .exclude(kind=LedgerRow.REVERSAL, reverses__kind__in=(LedgerRow.PAYOUT, LedgerRow.BOUNTY))
        .select_related("entry", "person")
        .order_by("id")
    )


def start_time(t):
    """When the tournament started (its start event), or None."""
    return t.events.filter(action=Action.TOURNAMENTS_TOURNAMENT_STARTED.value).values_list("created_at", flat=True).first()


def prestart_last_row(t) -> int:
    """The newest stub the pre-start report covers: every row before the start (all of them
    while the tournament has not started)."""
    started = start_time(t)
    rows = stub_rows(t)
    if started is not None:
        rows = rows.filter(created_at__lte=started)
    return rows.order_by("-id").values_list("id", flat=True).first() or 0


def reported_up_to(t) -> int:
    """The newest stub already reported: by the last addendum, else by the pre-start report."""
    last = t.stub_reports.order_by("-number").first()
    return last.last_row_id if last else prestart_last_row(t)


def unreported_stubs(t):
    """Stubs sold after the start and not yet in an addendum (none before the start)."""
    if start_time(t) is None:
        return stub_rows(t).none()
    return stub_rows(t).filter(id__gt=reported_up_to(t))


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


# --- the desk's drawer: a cashier's shift totals, a tournament's ledger totals -----------------


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


# --- the refunds of a cancelled tournament (FMT-02): due at the desk until a cashier pays them ----


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


def device_tokens(user=None, *, current=None, now=None) -> list[dict]:
    """The API logins still standing, one per device, newest use first: ``user``'s, or every
    user's (None: a director's list). Each ``{"id", "user", "name", "prefix", "created_at",
    "last_used_at", "expires_at", "current"}``; a token revoked, expired or issued under an old
    password is not listed (it logs nobody in). ``current``: the token of the request asking."""
    now = now or timezone.now()
    idle = settings.TDM_TOKEN_IDLE_MINUTES
    qs = DeviceToken.objects.filter(revoked_at=None, user__is_active=True).select_related("user").order_by("-last_used_at", "-id")
    if user is not None:
        qs = qs.filter(user=user)
    return [
        {
            "id": t.pk,
            "user": t.user.get_username(),
            "name": t.name,
            "prefix": t.prefix,
            "created_at": t.created_at,
            "last_used_at": t.last_used_at,
            "expires_at": t.last_used_at + timedelta(minutes=idle) if idle else None,
            "current": current is not None and t.pk == current.pk,
        }
        for t in qs
        if not refusal(t, t.user, now)
    ]


def login_lockouts(now=None) -> list[dict]:
    """The staff login lock-outs still in force (``tdmanager.security``), newest first, from the
    event log: each ``{"kind", "username", "address", "failures", "until", "started_at"}`` (kind
    "user": a username at an address; "address": any username there; "account": a username from
    every address, its ``address`` ""); one lifted by a director since it began is not listed."""
    now = time.time() if now is None else now
    since = timezone.now() - timedelta(seconds=settings.TDM_LOGIN_MAX_DELAY_SECONDS + 60)
    rows = (
        TournamentEvent.objects.filter(tournament=None, created_at__gte=since, action__in=[Action.AUTH_LOCKOUT_STARTED, Action.AUTH_LOCKOUT_LIFTED])
        .order_by("-id")
        .values("action", "payload", "created_at")
    )
    lifted, out, seen = set(), [], set()
    for row in rows:  # newest first: a lift hides the lock-outs before it
        p = row["payload"] or {}
        kind = p.get("kind")
        # a username at one address; an address, any username; an account, from every address
        key = (kind, p.get("username", "") if kind in ("user", "account") else "", "" if kind == "account" else p.get("address", ""))
        if row["action"] == Action.AUTH_LOCKOUT_LIFTED:
            lifted.add(key)  # that one alone (security.lift): a user's at an address leaves the account's
        elif key not in lifted and key not in seen and (p.get("until") or 0) > now:
            seen.add(key)
            out.append(
                {
                    "kind": key[0],
                    "username": key[1],
                    "address": key[2],
                    "failures": p.get("failures"),
                    "until": datetime.fromtimestamp(p["until"], tz=timezone.get_current_timezone()),
                    "started_at": row["created_at"],
                }
            )
    return out


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


def browser_name(user_agent: str) -> str:
    """A browser as a person tells two apart: "Chrome · Android", "Firefox · Windows"."""
    agent = user_agent or ""
    browser = next((name for mark, name in _BROWSERS if mark in agent), "")
    system = next((name for mark, name in _SYSTEMS if re.search(re.escape(mark), agent)), "")
    return " · ".join(filter(None, (browser, system))) or _("Unknown browser")


def browser_sessions(user=None, *, current_key: str | None = None, now=None) -> list[dict]:
    """The browsers logged in, newest use first: ``user``'s, or every user's (None: a director's
    list). Each ``{"id", "user", "name", "created_at", "last_used_at", "expires_at", "current"}``;
    a session that ended (logged out, expired, idle past ``TDM_SESSION_IDLE_MINUTES``) is not
    listed. ``current_key``: the session of the request asking ("this browser")."""
    now = now or timezone.now()
    idle = settings.TDM_SESSION_IDLE_MINUTES
    alive = Session.objects.filter(expire_date__gt=now).values("session_key")
    qs = BrowserSession.objects.filter(session_key__in=alive, user__is_active=True).select_related("user").order_by("-last_used_at", "-id")
    if idle:
        qs = qs.filter(last_used_at__gt=now - timedelta(minutes=idle))
    if user is not None:
        qs = qs.filter(user=user)
    return [
        {
            "id": b.pk,
            "user": b.user.get_username(),
            "name": browser_name(b.user_agent),
            "created_at": b.created_at,
            "last_used_at": b.last_used_at,
            "expires_at": b.last_used_at + timedelta(minutes=idle) if idle else None,
            "current": current_key is not None and b.session_key == current_key,
        }
        for b in qs
    ]


def last_use(user) -> object:
    """The latest of a login's uses the row was annotated with (``staff_logins``), or None."""
    uses = [u for u in (user.last_login, getattr(user, "token_used", None), getattr(user, "session_used", None)) if u is not None]
    return max(uses) if uses else None


def staff_logins(query: str = ""):
    """The staff page's logins, by username: each with its roles (``groups``), whether it may
    log in, and when its devices and browsers were last used (``token_used``, ``session_used``;
    ``last_use`` takes the latest with the last login: the database's GREATEST is null with any
    null on SQLite). ``query``: a part of the username or of the name."""
    User = get_user_model()
    sessions = BrowserSession.objects.filter(user=OuterRef("pk")).order_by("-last_used_at").values("last_used_at")[:1]
    rows = User.objects.annotate(token_used=Max("device_tokens__last_used_at"), session_used=Subquery(sessions))
    q = " ".join((query or "").split())[:150]
    if q:
        rows = rows.filter(Q(username__icontains=q) | Q(first_name__icontains=q) | Q(last_name__icontains=q))
    return rows.prefetch_related(Prefetch("groups", queryset=Group.objects.filter(name__in=ROLES))).order_by("username", "pk")
