"""Reports for the control authority and the house (ROLE-02, ROLE-03), as data, CSV and PDF.

* ``prestart``: the ticket stubs sold before the start (receipt number, entry, player, amounts)
  and their totals; ``addendum-N``: the N-th addendum, the stubs sold after the previous report.
* ``rulings``: the floor's decisions with their annotations (ROLE-05).
* ``standings``: final standings with prizes and leaderboard points (LB-01).
* ``payments``: what the cashier paid, one line per prize payment.
* ``reconciliation``: money in = prize pool + deductions − overlay + fees + side pools
  + jackpot fees + bounty parts; money out = payouts; what is left is explained line by line (or
  the difference shows). PAY-02: the bounty money on its own: taken in = paid + owed + still on
  the heads (or in the mystery bag) + kept by the house, to the cent.

Each report is ``{"title", "columns", "rows", "totals"}``; rows are lists of strings. The winners'
report and the payments report also carry ``signatures`` (name, role, time): the ranking's two
sign-offs (ELM-07), printed on the CSV and the PDF.
"""

from __future__ import annotations

import io

from django.db.models import Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager import csvsafe
from tdmanager.formatting import money as fmt_money
from tdmanager.formatting import when
from tdmanager.money import ZERO
from tdmanager.pdf import slip_pdf as draw_slip
from tdmanager.pdf import table_pdf
from tournaments.cashier import selectors as cashier_selectors
from tournaments.house import HouseRules
from tournaments.models import LedgerRow, Ruling, shown_name
from tournaments.oversight import selectors as oversight_selectors

from . import leaderboard
from . import selectors as sel
from .models import BountyAward, JackpotClaim, PrizePayment, RankingSignoff

REPORTS = ("prestart", "standings", "payments", "reconciliation", "rulings")


def _m(v) -> str:
    return sel.money(v)


def _say(v) -> str:
    """An amount inside a sentence, as the reader's language writes it ("2.800,00" in Italian);
    ``_m``'s machine "2800.00" is for a cell of its own, which a spreadsheet sums."""
    return fmt_money(v)


def _stub_report(t, rows, title: str) -> dict:
    """Ticket stubs, one per desk row: receipt number, time, entry, player, document (masked,
    as every list shows it: 003 Art. 4.3(3) asks for the players' names, and no reader of a
    report needs the whole number), what it is and its amounts, with the totals (ROLE-02, REG-05). Each row adds up: buy-in + fee +
    jackpot fee (REG-11, the venue's fund) + side pools + bounty (PAY-02: kept apart from the
    prize pool; each a column only where some row has one) = amount."""
    rows = list(rows)
    with_side = any(r.side_amount for r in rows)
    with_bounty = any(r.bounty_amount for r in rows) or HouseRules.of(t).bounty != "NONE"
    out, prize, fee, jackpot, side, total, owed, entries = [], ZERO, ZERO, ZERO, ZERO, ZERO, ZERO, set()
    bounty = ZERO
    for r in rows:
        person = r.person or (r.entry.person if r.entry_id else None)
        prize, fee, total, owed = prize + r.prize_amount, fee + r.fee_amount, total + r.total, owed + r.owed_amount
        jackpot, side, bounty = jackpot + r.jackpot_amount, side + r.side_amount, bounty + r.bounty_amount
        if r.entry_id and r.kind in (LedgerRow.BUY_IN, LedgerRow.RE_ENTRY):
            entries.add(r.entry_id)
        out.append(
            [
                str(r.receipt_number),
                when(r.created_at, "datetime"),
                str(r.entry.number) if r.entry_id else "",
                person.full_name if person else "",
                person.document_masked if person else "",
                str(r.get_kind_display()),
                _m(r.prize_amount),
                _m(r.fee_amount),
                _m(r.jackpot_amount),
                *([_m(r.side_amount)] if with_side else []),
                *([_m(r.bounty_amount)] if with_bounty else []),
                _m(r.total),
                _m(r.owed_amount),
            ]
        )
    return {
        "title": title,
        # REG-09: "Owed" is an amount a player owes (a no-show's entry), not money taken: it is
        # in no cash total; its payment is (a stub of its own, in the fees).
        "columns": [
            _("Receipt"),
            _("Time"),
            _("Entry"),
            _("Player"),
            _("Document"),
            _("Stub"),
            _("Buy-in"),
            _("Fee"),
            _("Jackpot"),
            *([_("Side pools")] if with_side else []),
            *([_("Bounty")] if with_bounty else []),
            _("Amount"),
            _("Owed"),
        ],
        "rows": out,
        "totals": [
            (_("Stubs"), str(len(out))),
            (_("Entries"), str(len(entries))),
            (_("Total buy-ins"), _m(prize)),
            (_("Total fees"), _m(fee)),
            (_("Total jackpot fees"), _m(jackpot)),
            *([(_("Total side pools"), _m(side))] if with_side else []),
            *([(_("Total bounty parts (apart from the prize pool)"), _m(bounty))] if with_bounty else []),
            (_("Total"), _m(total)),
            (_("Receivables: still owed"), _m(owed)),
            (_("Generated"), when(timezone.now(), "datetime")),
        ],
    }


def prestart(t) -> dict:
    """ROLE-02: the ticket stubs sold before the start (all of them until it starts)."""
    rows = oversight_selectors.stub_rows(t).filter(id__lte=oversight_selectors.prestart_last_row(t))
    report = _stub_report(t, rows, _("Pre-start report: %(t)s") % {"t": t.name})
    entries = t.entries.exclude(status="CANCELLED").select_related("person").order_by("number")
    started = oversight_selectors.start_time(t)
    if started is not None:
        entries = entries.filter(created_at__lte=started)
    registered = 0
    for e in entries:
        registered += 1
        if not e.ledger.exists():  # a reservation not paid yet: listed, with no stub
            report["rows"].append(
                ["", "", str(e.number), e.person.full_name, e.person.document_masked, str(e.get_status_display()), *[_m(ZERO)] * (len(report["columns"]) - 6)]
            )
    report["totals"].insert(0, (_("Registered"), str(registered)))
    return report


def addendum(t, number: int) -> dict:
    """ROLE-02: addendum ``number`` to the pre-start report, the stubs it numbered."""
    rep = t.stub_reports.filter(number=number).first()
    if rep is None:
        raise KeyError(number)
    rows = oversight_selectors.stub_rows(t).filter(id__gte=rep.first_row_id, id__lte=rep.last_row_id)
    report = _stub_report(t, rows, _("Addendum %(n)s to the pre-start report: %(t)s") % {"n": number, "t": t.name})
    report["totals"].append((_("Issued"), when(rep.created_at, "datetime")))
    return report


def signatures(t) -> list[tuple[str, str, str]]:
    """The ranking's sign-offs as it stands now (ELM-07): (name, role, time)."""
    snap = sel.ranking_snapshot(t)
    return [
        (
            s.user.get_full_name() or s.user.get_username(),
            str(RankingSignoff.ROLE_LABELS.get(s.role, s.role)),
            when(s.created_at, "datetime"),
        )
        for s in RankingSignoff.objects.filter(tournament=t).select_related("user")
        if snap and s.snapshot == snap
    ]


def rulings(t) -> dict:
    """ROLE-05: every ruling (final) with its annotations, in the order decided."""
    rows = []
    for r in Ruling.objects.filter(tournament=t).select_related("decided_by").prefetch_related("notes__user"):
        notes = " | ".join(f"{when(n.created_at, 'short')} {n.user.get_username()}: {n.text}" for n in r.notes.all())
        rows.append(
            [
                str(r.pk),
                when(r.asked_at, "seconds"),
                str(r.table_number or ""),
                r.hand,
                r.asked_by,
                r.question,
                r.decision,
                r.decided_by.get_full_name() or r.decided_by.get_username(),
                when(r.decided_at, "seconds"),
                _("late") if r.late else "",
                notes,
            ]
        )
    return {
        "title": _("Rulings: %(t)s") % {"t": t.name},
        "columns": [
            _("No."),
            _("Asked"),
            _("Table"),
            _("Hand"),
            _("Asked by"),
            _("Question"),
            _("Decision"),
            _("Decided by"),
            _("Decided"),
            _("Window"),
            _("Notes"),
        ],
        "rows": rows,
        "totals": [(_("Rulings"), str(len(rows))), (_("Asked late"), str(sum(1 for r in rows if r[9])))],
    }


def points_by_entry(t) -> dict:
    """Leaderboard points per placed entry (LB-01/LB-03; reading and shared rule are settings)."""
    n = sel.field_size(t)
    groups = sel.place_groups(t)
    rules = HouseRules.of(t)
    out = {}
    for place, members in groups.items():
        try:
            pts = leaderboard.leaderboard_points(n, place, mode=rules.lb_mode, buy_in=t.buy_in, shared_with=len(members), shared_rule=rules.lb_shared_rule)
        except ValueError:
            pts = None
        for e in members:
            out[e.pk] = pts
    return out


def standings(t) -> dict:
    """ROLE-03 winners report: every finishing place, the prize won and what was paid."""
    dues = sel.dues(t)
    won = {}
    for d in dues:
        if d["source"].startswith("MAIN:"):
            won.setdefault(d["entry_id"], []).append(d)
    points = points_by_entry(t)
    rows = []
    total_won = total_paid = ZERO
    for place, members in sorted(sel.place_groups(t).items()):
        for e in members:
            # PEN-07: a forfeited prize is shown as such, never as won.
            lost = [d for d in won.get(e.pk, []) if d["forfeited"]]
            items = [d for d in won.get(e.pk, []) if not d["forfeited"]]
            cash = sum((d["amount"] for d in items if d["kind"] == "CASH"), ZERO)
            other = "; ".join(
                [f"{d['kind'].title()}{': ' + d['description'] if d['description'] else ''} ({_m(d['amount'])})" for d in items if d["kind"] != "CASH"]
                + [_("forfeited, eliminated without prize (PEN-07): %(a)s") % {"a": _say(d["amount"])} for d in lost]
            )
            paid = sum((d["amount"] for d in items if d["paid"]), ZERO)
            total_won += sum((d["amount"] for d in items if d["kind"] != "ITEM"), ZERO)
            total_paid += paid
            label = f"{place}" + (f" ({_('shared')} ×{len(members)})" if len(members) > 1 else "")
            pts = points.get(e.pk)
            rows.append([label, e.person.full_name, str(e.number), _m(cash), other, _m(paid), f"{pts:.2f}" if pts is not None else ""])
    return {
        "title": _("Final standings: %(t)s") % {"t": t.name},
        "columns": [_("Place"), _("Player"), _("Entry"), _("Cash prize"), _("Other prizes"), _("Paid"), _("Points")],
        "rows": rows,
        "totals": [
            (_("Prize pool"), _m(sel.prize_pool(t) if not sel.satellite_link(t) else sel.satellite_pool(t))),
            (_("Prizes won"), _m(total_won)),
            (_("Paid"), _m(total_paid)),
            (_("Participants"), str(sel.field_size(t))),
            *_archive_lines(t),
        ],
        "signatures": signatures(t),
    }


def _archive_lines(t) -> list[tuple]:
    """An event brought in from The Tournament Director: its entries and fees as TD3 recorded
    them (the prize pool above is TD3's pot), said to be imported: no money moved here."""
    archived = sel.archive_money(t)
    if not archived:
        return []
    return [
        (_("Entries"), str(archived["entries"])),
        (_("Rebuys"), str(archived["rebuys"])),
        (_("Add-ons"), str(archived["addons"])),
        (_("Fees"), _m(archived["fees"])),
        (_("Imported from The Tournament Director"), _("as TD3 recorded them: the room's archives, no money moved here")),
    ]


def payments(t) -> dict:
    """ROLE-03 payments report: one line per prize handed over by the cashier, and per payment of
    bounties (PAY-02: a BOUNTY row, its bounties apart from the prizes in the totals)."""
    lines, total = [], ZERO
    for p in PrizePayment.objects.filter(tournament=t).select_related("entry__person", "row", "paid_by").order_by("created_at", "id"):
        void = p.is_void
        if not void and p.kind != "ITEM":
            total += p.amount
        lines.append(
            (
                p.created_at,
                [
                    str(p.row.receipt_number) if p.row_id else "",
                    when(p.created_at, "datetime"),
                    p.entry.person.full_name,
                    str(p.place or ""),
                    str(p.get_kind_display()),
                    _m(p.amount),
                    str(p.get_method_display()) if p.method else "",
                    p.reference,
                    shown_name(p.payee),
                    p.paid_by.get_username() if p.paid_by_id else "",
                    _("reversed") if void else "",
                ],
            )
        )
    prize_payments = sum(1 for _at, r in lines if not r[-1])
    bounty_rows = t.ledger.filter(kind=LedgerRow.BOUNTY).select_related("entry__person", "person", "cashier", "reversed_by").order_by("created_at", "id")
    bounties, bounty_payments, labels = ZERO, 0, dict(LedgerRow.METHODS)
    for r in bounty_rows:
        person = r.person or r.entry.person
        void = r.is_reversed
        if not void:
            bounties, bounty_payments = bounties - r.bounty_amount, bounty_payments + 1
        lines.append(
            (
                r.created_at,
                [
                    str(r.receipt_number),
                    when(r.created_at, "datetime"),
                    person.full_name,
                    "",
                    _("Bounty"),
                    _m(-r.bounty_amount),
                    str(labels.get(r.method, r.method)),
                    r.reference,
                    shown_name(r.payee),
                    r.cashier.get_username() if r.cashier_id else "",
                    _("reversed") if void else "",
                ],
            )
        )
    lines.sort(key=lambda line: line[0])
    totals = [(_("Paid"), _m(total)), (_("Payments"), str(prize_payments))]
    if bounty_payments or bounties or HouseRules.of(t).bounty != "NONE":
        totals += [(_("Bounties paid (apart from the prizes)"), _m(bounties)), (_("Bounty payments"), str(bounty_payments))]
    return {
        "title": _("Prize payments: %(t)s") % {"t": t.name},
        "columns": [_("Receipt"), _("Time"), _("Player"), _("Place"), _("Prize"), _("Amount"), _("Method"), _("Reference"), _("Payee"), _("Cashier"), ""],
        "rows": [r for _at, r in lines],
        "totals": totals,
        "signatures": signatures(t),
    }


def reconciliation_data(t) -> dict:
    """Money in against prize pool, fees and side pools; money out against the prizes; what is
    left explained (prizes due, places still to play, odd cents kept by the house). A cancelled
    event (FMT-02) has no pool: what its players paid is owed back to them until the desk
    refunds it (a liability, listed as such), and a refund paid is money out of the drawer."""
    got, out, b = sel.money_in(t), sel.money_out(t), sel.pool_breakdown(t)
    cancelled = sel.is_cancelled(t)
    refunds = cashier_selectors.refunds_owed(t) if cancelled else None
    role, event = sel.multiday_role(t)
    sources = sel.pool_sources(t)
    carried = ZERO
    if sources and sources != [t]:
        got = sel.pooled_money_in(t)  # the flights' (or feeding groups') money is this pool's money in
    # PAY-08: chip-leader prizes are paid at the flights from the event's pool, which Day 2
    # shows gross of them (PAY-02).
    chip_leaders = sel.event_chip_leader_total(event) if role == "DAY2" else ZERO
    chip_paid_here = sum((p.amount for p in sel.active_payments(t).values() if p.source.startswith("CHIPLEADER:")), ZERO)
    link = sel.satellite_link(t)
    deductions = sum(b.deductions.values(), ZERO) - chip_leaders
    fixed_side = sum((p.from_prize_pool for p in t.side_pools.all()), ZERO)
    pool_total, overlay = b.total, b.overlay
    fees_to_house = got["fee"]
    notes = []
    if link is not None and link.prize_base == link.GROSS and not cancelled:
        pool_total = sel.satellite_pool(t, link)
        notes.append(_("Satellite prize base GROSS: the fees (%(f)s) are part of the seats' prize pool.") % {"f": _say(got["fee"])})
        fees_to_house, deductions, overlay = ZERO, ZERO, ZERO
    jackpot = sel.jackpot_money(t)  # REG-11: the venue's fund, never this prize pool nor the house fee
    owed = receivables_money(t)  # REG-09: owed is not money in; what was paid of it is a fee
    bounty = sel.bounty_money(t)  # PAY-02: apart from the prize pool and the house fee, checked on its own
    money_in_total = got["prize"] + got["fee"] + got["side"] + jackpot["in"] + bounty["in"]
    kept_prize = ZERO
    if cancelled:
        # Nothing is carried, deducted or shared: every cent is owed back, or was kept by the
        # house as a refund's expenses (``cashier.refund``: from the fee first, then the prize part).
        fees_to_house = got["fee"] - refunds["fee"]
        kept_prize = got["prize"] - refunds["prize"]
        notes.append(
            _(
                "Tournament cancelled: it will not play. No prize pool, no overlay (the guarantee is void), no deductions: what the players paid is refunded at the desk."
            )
        )
    elif not sources:
        carried = got["prize"]
        deductions, overlay = ZERO, ZERO
        if role == "FLIGHT":
            notes.append(_("This flight's prize parts (%(a)s) are carried to the Day 2 prize pool.") % {"a": _say(carried)})
        else:
            notes.append(_("This group's prize parts (%(a)s) are carried to the prize pool of %(t)s.") % {"a": _say(carried), "t": t.bracket.feeds_into.name})
    if chip_paid_here:
        notes.append(_("Chip-leader prizes paid here (%(a)s) come out of the event's prize pool; Day 2 shows it net of them.") % {"a": _say(chip_paid_here)})
    accounted_in = pool_total + carried + deductions + chip_leaders - overlay + fees_to_house + got["side"] + jackpot["in"] + bounty["in"]
    if cancelled:
        accounted_in += refunds["prize"] + refunds["fee"] + kept_prize
    # Money out against the pool.
    prizes = sel.table_prizes(t)
    values = sel.place_values(prizes)
    every_due, plan = sel.dues_and_forfeits(t, prizes)
    all_dues = [d for d in every_due if d["source"].startswith("MAIN:") and d["kind"] != "ITEM"]
    dues = [d for d in all_dues if d["source"] != sel.FORFEIT_SOURCE]
    forfeit_shares = [d for d in all_dues if d["source"] == sel.FORFEIT_SOURCE]
    forfeit_pending = sum(plan["pending"].values(), ZERO)
    decided = set()
    for place, span in sel.place_spans(t).items():
        decided.update(range(place, place + span))
    # PEN-07: a forfeited prize is never paid; what others receive of it is due to them.
    unpaid = sum((d["amount"] for d in dues if not d["paid"] and not d["forfeited"]), ZERO)
    unpaid += sum((d["amount"] for d in forfeit_shares if not d["paid"]), ZERO)
    undecided = sum((v for i, v in enumerate(values, start=1) if i not in decided), ZERO)
    awarded_cash = sum((d["amount"] for d in dues), ZERO)
    decided_value = sum((v for i, v in enumerate(values, start=1) if i in decided), ZERO)
    house_cents = decided_value - awarded_cash
    left = pool_total - (out["prize"] - chip_paid_here)
    # PAY-05: before a field has a payout table (a guarantee with nobody registered yet), or when
    # sales grew the pool after the table was locked, part of the pool is assigned to no place yet.
    unassigned = max(ZERO, pool_total - sum(values, ZERO)) if not cancelled else ZERO
    # A payout table the director stored (edited, or unlocked after a lock) and that the pool no
    # longer fills, a refund having taken money out since: its excess is his to remove before he
    # locks it (locking refuses a table that is not the pool). A locked table's pool never shrinks.
    table_state = sel.table_state(t)
    overassigned = max(ZERO, sum(values, ZERO) - pool_total) if not cancelled and table_state != "LOCKED" else ZERO
    unexplained = left - unpaid - undecided - house_cents - plan["held"] - forfeit_pending - unassigned + overassigned
    side_in = sum((sel.side_pool_balance(p)["total"] - p.from_prize_pool for p in t.side_pools.all()), ZERO)
    side_untracked = got["side"] - sum((sel.side_pool_balance(p)["ledger"] for p in t.side_pools.all()), ZERO)
    side_left = side_in + fixed_side - out["side"]
    lines = [
        (_("Money in: prize parts"), got["prize"]),
        (_("Money in: fees"), got["fee"]),
        (_("Money in: side pools"), got["side"]),
        (_("Money in: jackpot fees (to the venue's jackpot fund)"), jackpot["in"]),
        *([(_("Money in: bounty parts (apart from the prize pool)"), bounty["in"])] if bounty["active"] else []),
        (_("Money in: total"), money_in_total),
        (_("Prize pool"), pool_total),
        (_("Carried to Day 2"), carried),
        (_("Deductions kept by the house"), deductions),
        (_("Chip-leader prizes of the Day 1 flights"), chip_leaders),
        (_("Overlay added by the house"), overlay),
        (_("Fees kept by the house"), fees_to_house),
        (_("… of which amounts owed, paid (no-shows, REG-09)"), owed["paid"]),
        *(_refund_lines(refunds, kept_prize) if cancelled else []),
        (_("Money in not accounted for"), money_in_total - accounted_in),
        (_("Money out: prizes paid"), out["prize"]),
        (_("… of which chip-leader prizes (from the event's pool)"), chip_paid_here),
        (_("Money out: side prizes paid"), out["side"]),
        (_("Money out: jackpots paid (from the venue's jackpot fund)"), jackpot["out"]),
        (_("Prize pool not yet paid"), left),
        (_("… prizes won, not yet collected"), unpaid),
        (_("… places still to be decided"), undecided),
        (_("… not yet assigned to a place by the payout table"), unassigned),
        (_("… assigned by the payout table beyond the prize pool (to edit before it is locked)"), -overassigned),
        (_("… odd cents of shared places kept by the house"), house_cents),
        (_("… forfeited prizes held by the house (PEN-07)"), plan["held"]),
        (_("… forfeited prizes due to places still to be decided (PEN-07)"), forfeit_pending),
        (_("Difference not explained"), unexplained),
        (_("Side pools: still held"), side_left),
        (_("Receivables: amounts owed, not yet paid (not money in)"), owed["owed"]),
        *(_bounty_lines(bounty) if bounty["active"] else []),
    ]
    rules = {"HOLD": _("held by the house"), "REDISTRIBUTE": _("shared by the other paid places"), "NEXT_PLACE": _("the places below move up one")}
    for f in plan["forfeits"]:
        notes.append(
            _("Place %(p)s, %(name)s: eliminated without prize (PEN-07), %(a)s forfeited.") % {"p": f["place"], "name": f["name"], "a": _say(f["amount"])}
        )
    if plan["forfeits"]:
        notes.append(
            _("Forfeited prizes (%(rule)s): %(r)s paid or due to other players, %(h)s held.")
            % {"rule": rules[plan["rule"]], "r": _say(plan["redistributed"] + forfeit_pending), "h": _say(plan["held"])}
        )
    if side_untracked:
        notes.append(_("%(a)s of side money is not attributed to any side pool.") % {"a": _say(side_untracked)})
    if bounty["difference"]:
        notes.append(
            _("Bounties: %(d)s of the bounty money taken in is not explained by the bounties paid, owed, still in play and kept by the house.")
            % {"d": _say(bounty["difference"])}
        )
    if overassigned:
        notes.append(_("The payout table gives %(a)s more than the prize pool holds: edit it before it is locked (PAY-05).") % {"a": _say(overassigned)})
    if unassigned and table_state == "LOCKED":
        notes.append(
            _("The prize pool has grown by %(a)s since the payout table was locked: unlock it and lock it again to assign it (PAY-05).")
            % {"a": _say(unassigned)}
        )
    if overlay:
        notes.append(_("The house added an overlay of %(a)s to meet the guarantee.") % {"a": _say(overlay)})
    for lost in cashier_selectors.receipts_lost_in_restore(t):
        notes.append(
            _(
                "Receipts %(first)s–%(last)s: lost with the restore of %(at)s (backup %(backup)s). They may have been "
                "printed after the backup; their sales are not in this ledger and the numbers are never used again."
            )
            % {"first": lost["first"], "last": lost["last"], "backup": lost["backup"], "at": when(lost["at"], "datetime")}
        )
    return {
        "lines": lines,
        "notes": notes,
        "balanced": unexplained == 0 and money_in_total == accounted_in and bounty["difference"] == 0,
        "difference": unexplained,
        "in_difference": money_in_total - accounted_in,
        "bounty_difference": bounty["difference"],
    }


def _refund_lines(refunds: dict, kept_prize) -> list[tuple]:
    """FMT-02: a cancelled event's money, owed back to its players (the desk's refunds due) by
    part, and the refunds already paid out of the drawers (the money in above is net of them)."""
    others = refunds["side"] + refunds["jackpot"] + refunds["bounty"]
    return [
        (_("Refunds owed to the players of the cancelled event"), refunds["total"]),
        (_("… of which prize parts"), refunds["prize"]),
        (_("… of which fees"), refunds["fee"]),
        *([(_("… of which side pools, jackpot fees and bounty parts (in their own lines)"), others)] if others else []),
        *([(_("Prize parts kept by the house as refund expenses"), kept_prize)] if kept_prize else []),
        (_("… refunds already paid at the desk (not in the money in above)"), refunds["paid"]),
    ]


def _bounty_lines(bounty: dict) -> list[tuple]:
    """PAY-02: the bounty money taken in, and where every cent of it is now."""
    if bounty["kind"] == "MYSTERY":
        bag = _("… mystery envelopes still in the bag") if bounty["envelopes_set"] else _("… not yet in envelopes (the director sets them up)")
        still = [(bag, bounty["in_bag"] - bounty["unbagged"])]
        if bounty["unbagged"] > 0:
            still.append((_("… sold since the envelopes were set up, in no envelope yet (the director adds envelopes)"), bounty["unbagged"]))
        elif bounty["unbagged"] < 0:
            still.append((_("… given back since the envelopes were set up, still in an envelope (the director sets them up again)"), bounty["unbagged"]))
        still.append((_("… envelopes carried over to the next mystery event"), bounty["carried"]))
    else:
        still = [(_("… still on the heads of the players in"), bounty["on_heads"])]
    return [
        (_("Bounty money taken in (apart from the prize pool)"), bounty["in"]),
        (_("… bounties paid out"), bounty["paid"]),
        (_("… bounties won, not yet collected"), bounty["owed"]),
        *still,
        (_("… bounties kept by the house"), bounty["house"]),
        *([(_("… bounty parts of cancelled entries, still to refund"), bounty["to_refund"])] if bounty["to_refund"] else []),
        *([(_("… less the bounties collected before the cancellation, paid by the house"), -bounty["borne"])] if bounty["borne"] else []),
        (_("Bounty difference not explained"), bounty["difference"]),
    ]


def receivables_money(t) -> dict:
    """REG-09: what players owe (RECEIVABLE rows, net of waivers and payments) and what they paid
    of it (SETTLEMENT rows, net of reversals: money in, kept by the house as a fee)."""
    settled = Q(kind=LedgerRow.SETTLEMENT) | Q(kind=LedgerRow.REVERSAL, reverses__kind=LedgerRow.SETTLEMENT)
    return {"owed": t.ledger.aggregate(o=Sum("owed_amount"))["o"] or ZERO, "paid": t.ledger.filter(settled).aggregate(f=Sum("fee_amount"))["f"] or ZERO}


def reconciliation(t) -> dict:
    data = reconciliation_data(t)
    rows = [[str(label), _m(value)] for label, value in data["lines"]] + [[n, ""] for n in data["notes"]]
    status = _("Balanced: every cent is explained.") if data["balanced"] else _("NOT balanced: see the difference.")
    return {
        "title": _("Reconciliation: %(t)s") % {"t": t.name},
        "columns": [_("Line"), _("Amount")],
        "rows": rows,
        "totals": [(_("Result"), status)],
        "balanced": data["balanced"],
    }


def is_report(t, name: str) -> bool:
    """A report this tournament has: one of ``REPORTS`` or an addendum it issued."""
    if name in REPORTS:
        return True
    prefix, _sep, number = str(name).partition("-")
    whole = number.isascii() and number.isdigit() and len(number) < 10  # never more digits than int() reads
    return prefix == "addendum" and whole and t.stub_reports.filter(number=int(number)).exists()


def build(t, name: str) -> dict:
    if name.startswith("addendum-"):
        return addendum(t, int(name.partition("-")[2]))
    return {"prestart": prestart, "standings": standings, "payments": payments, "reconciliation": reconciliation, "rulings": rulings}[name](t)


def to_csv(report: dict) -> str:
    buf = io.StringIO()
    w = csvsafe.Writer(buf)  # no cell a spreadsheet runs as a formula
    w.writerow([report["title"]])
    w.writerow([str(c) for c in report["columns"]])
    w.writerows(report["rows"])
    w.writerow([])
    for label, value in report["totals"]:
        w.writerow([str(label), value])
    if "signatures" in report:
        w.writerow([])
        w.writerow([_("Signatures"), _("Role"), _("Time")])
        w.writerows([list(s) for s in report["signatures"]] or [[_("not signed")]])
    return buf.getvalue()


def to_pdf(report: dict) -> bytes:
    """A report as its A4 PDF (``tdmanager.pdf.table_pdf``)."""
    return table_pdf(report)


# --- payout slips -------------------------------------------------------------------------


def _prize_label(payment: PrizePayment) -> str:
    """What the slip says was paid: the prize's kind, or the jackpot with its level and share (PAY-12)."""
    if payment.source.startswith("JACKPOT:"):
        claim = JackpotClaim.objects.select_related("win").filter(payment=payment).first()
        if claim is not None:
            percent = claim.win.percent
            return _("Jackpot (royal flush, level %(level)s, %(percent)s%% of the fund)") % {
                "level": claim.win.level,
                "percent": int(percent) if percent == percent.to_integral_value() else percent,
            }
    return str(payment.get_kind_display())


def slip_context(payment: PrizePayment) -> dict:
    row = payment.row
    return {
        "payment": payment,
        "row": row,
        "t": payment.tournament,
        "person": payment.entry.person,
        "entry": payment.entry,
        "created": timezone.localtime(payment.created_at),
        "method": row.get_method_display() if row else "",
        "cashier": payment.paid_by.get_username() if payment.paid_by_id else "",
        "currency": payment.tournament.currency,
        "kind": _prize_label(payment),
        "void": payment.is_void,
        "forfeit_share": payment.source == sel.FORFEIT_SOURCE,
    }


def slip_lines(payment: PrizePayment) -> list[tuple[str, str]]:
    c = slip_context(payment)
    lines = [
        (_("Payout slip"), f"#{c['row'].receipt_number}" if c["row"] else f"P{payment.pk}"),
        (_("Date"), when(c["created"], "seconds")),
        (_("Tournament"), c["t"].name),
        (_("Winner"), c["person"].full_name),
        (_("Entry"), f"#{c['entry'].number}"),
        (_("Place"), str(payment.place or "")),
        (_("Prize"), str(c["kind"])),
        (_("Amount"), fmt_money(payment.amount, c["currency"])),
    ]
    if payment.source == sel.FORFEIT_SOURCE:
        lines.append((_("For"), _("a prize forfeited by an elimination without prize (PEN-07)")))
    return lines + _paid_lines(c["method"], payment.reference, payment.payee, c["cashier"])


def _paid_lines(method, reference: str, payee: str, cashier: str) -> list[tuple[str, str]]:
    """A payout slip's last lines, prize or bounty: how it was paid, to whom, by which cashier."""
    lines = [(_("Paid by"), str(method))] if method else []
    if reference:
        lines.append((_("Reference"), reference))
    if payee:
        lines.append((_("Payee"), shown_name(payee)))
    return lines + [(_("Cashier"), cashier)]


def _slip_pdf(lines: list[tuple[str, str]], tournament) -> bytes:
    return draw_slip(
        title=f"{_('Payout slip')} {lines[0][1]}",
        heading=tournament.name,
        lines=lines,
        signature_line=_("Winner's signature: received the amount above"),
    )


def slip_pdf(payment: PrizePayment) -> bytes:
    """An 80 mm payout slip with a signature line for the winner."""
    return _slip_pdf(slip_lines(payment), payment.tournament)


# --- bounty payment slips (PAY-02) --------------------------------------------------------------


def bounty_award_label(award: BountyAward) -> str:
    """One bounty on a slip, as the desk says it: whom he knocked out (and the envelope drawn)."""
    if award.kind == BountyAward.KNOCKOUT:
        out = award.knocked_out.person.full_name if award.knocked_out_id else ""
        if award.envelope is not None:
            return _("Knocked out %(name)s: envelope %(n)s") % {"name": out, "n": award.envelope}
        return _("Knocked out %(name)s") % {"name": out}
    if award.kind == BountyAward.OWN:
        return _("Own bounty (winner)")
    if award.kind == BountyAward.LEFTOVER:
        return _("Mystery envelopes left")
    return str(award.get_kind_display())


def bounty_slip_context(row: LedgerRow) -> dict:
    """The slip of a bounty payment (the desk's BOUNTY row): the player, the amount, each bounty it paid."""
    awards = list(row.bounty_awards.select_related("knocked_out__person").order_by("created_at", "id"))
    return {
        "bounty": True,
        "payment": {"amount": -row.bounty_amount, "reference": row.reference, "payee": row.payee, "place": None},
        "row": row,
        "t": row.tournament,
        "person": row.person,
        "entry": row.entry,
        "created": timezone.localtime(row.created_at),
        "method": row.get_method_display(),
        "cashier": row.cashier.get_username() if row.cashier_id else "",
        "currency": row.currency,
        "kind": _("Bounties"),
        "void": row.is_reversed,
        "forfeit_share": False,
        "bounty_lines": [(bounty_award_label(a), a.cash) for a in awards],
    }


def bounty_slip_lines(row: LedgerRow) -> list[tuple[str, str]]:
    c = bounty_slip_context(row)
    lines = [
        (_("Payout slip"), f"#{row.receipt_number}"),
        (_("Date"), when(c["created"], "seconds")),
        (_("Tournament"), c["t"].name),
        (_("Winner"), c["person"].full_name if c["person"] else ""),
        (_("Entry"), f"#{c['entry'].number}" if c["entry"] else ""),
        (_("Prize"), str(c["kind"])),
    ]
    lines += [(label, fmt_money(cash, c["currency"])) for label, cash in c["bounty_lines"]]
    lines.append((_("Amount"), fmt_money(c["payment"]["amount"], c["currency"])))
    if c["void"]:
        lines.append((_("Status"), _("REVERSED")))
    return lines + _paid_lines(c["method"], row.reference, row.payee, c["cashier"])


def bounty_slip_pdf(row: LedgerRow) -> bytes:
    """An 80 mm slip of a bounty payment with a signature line for the player."""
    return _slip_pdf(bounty_slip_lines(row), row.tournament)
