"""Pages of the payouts app: the tournament's payouts, prizes due at the desk, the deal
calculator, payout slips and reports. Thin: read, render, or call one service."""

import re
from decimal import Decimal, InvalidOperation

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tdmanager import sheets
from tdmanager.api import object_id
from tdmanager.errors import DomainError
from tdmanager.formatting import money
from tdmanager.money import ZERO
from tournaments.cashier.services import cash_limit
from tournaments.clock import selectors as clock_selectors
from tournaments.eventlog.services import Actor
from tournaments.house import HouseRules
from tournaments.models import Entry, LedgerRow, Tournament

from . import reports, results_sheet, services
from . import selectors as sel
from .models import Deal, PayoutTable, PayoutTemplate, PrizePayment, SidePool


def parse_amount(text: str) -> Decimal:
    """An amount as either language writes it: "1.234,50", "1,234.50", "800,00", "800.00", "1234".
    The last "." or "," followed by one or two digits marks the decimals; any other is grouping."""
    m = re.fullmatch(r"(\d+(?:[.,]\d{3})*)(?:[.,](\d{1,2}))?", text)
    if m is None:
        raise ValueError(text)
    whole = m.group(1).replace(".", "").replace(",", "")
    return Decimal(whole + "." + (m.group(2) or "0"))


# The word written for a prize's kind in the payout table's lines, in the page's language; the
# code itself is read in any language.
PRIZE_WORDS = {"CASH": gettext_lazy("CASH"), "TICKET": gettext_lazy("TICKET"), "ITEM": gettext_lazy("ITEM"), "SEAT": gettext_lazy("SEAT")}


def prize_kind(word: str) -> str | None:
    """The prize kind a word names (its code or its word in the active language), else None."""
    word = word.upper()
    return next((code for code, label in PRIZE_WORDS.items() if word in (code, str(label).upper())), None)


def parse_prize_lines(text: str) -> list[dict]:
    """One prize per line: ``place amount [CASH|TICKET|ITEM|SEAT] [description]``."""
    prizes = []
    for n, line in enumerate(text.splitlines(), start=1):
        parts = line.split()
        if not parts:
            continue
        try:
            place, amount = int(parts[0]), parse_amount(parts[1])
        except (IndexError, ValueError, InvalidOperation):
            raise DomainError("bad_line", _("Line %(n)s: write 'place amount', e.g. '1 5000'.") % {"n": n}, status=400)
        kind = prize_kind(parts[2]) if len(parts) > 2 else None
        rest = parts[3:] if kind else parts[2:]
        prizes.append({"place": place, "kind": kind or "CASH", "amount": amount, "description": " ".join(rest)})
    return prizes


def parse_envelopes(text: str) -> list[Decimal]:
    """Mystery envelopes as the director types them (PAY-02): amounts separated by spaces, lines
    or ";", and "count x amount" for many alike ("20 x 100", "20 × 100,00")."""
    amounts: list[Decimal] = []
    for n, line in enumerate(text.replace(";", "\n").splitlines(), start=1):
        parts = line.replace("×", " x ").replace("*", " x ").split()
        try:
            while parts:
                if len(parts) >= 3 and parts[1].lower() == "x":
                    count = int(parts[0])
                    if not 1 <= count <= 2000 or len(amounts) + count > 2000:
                        raise ValueError(parts[0])
                    amounts += [parse_amount(parts[2])] * count
                    parts = parts[3:]
                else:
                    amounts.append(parse_amount(parts.pop(0)))
        except (ValueError, InvalidOperation):
            raise DomainError("bad_envelopes", _("Line %(n)s: write the amounts, e.g. '100 50 25' or '20 x 100'.") % {"n": n}, status=400)
    return amounts


def prize_lines(prizes) -> str:
    return "\n".join(
        f"{p['place']} {money(p['amount'])}"
        + (f" {PRIZE_WORDS.get(p['kind'], p['kind'])}" if p["kind"] != "CASH" else "")
        + (f" {p['description']}" if p.get("description") else "")
        for p in prizes
    )


def tournament_payouts(request, pk):
    t = get_object_or_404(Tournament, pk=pk)
    if request.method == "POST":
        actor = Actor.from_request(request)
        op = request.POST.get("op")
        try:
            if op == "edit":
                services.edit_payout_table(t, parse_prize_lines(request.POST.get("prizes", "")), actor=actor, reason=request.POST.get("reason", ""))
            elif op == "lock":
                services.lock_payout_table(t, actor=actor)
            elif op == "token":  # REG-10: the Last Longer chip or plaque handed over
                pool = get_object_or_404(SidePool, pk=object_id(request.POST.get("pool")), tournament=t)
                entry = Entry.objects.filter(tournament=t, number=object_id(request.POST.get("entry_number"))).first()
                if entry is None:
                    raise DomainError("unknown_entry", _("No such entry number."), status=400)
                services.issue_side_token(pool, entry, label=request.POST.get("label", ""), actor=actor)
            elif op == "unlock":  # PAY-05: the director's explicit unlock, with a reason
                services.unlock_payout_table(t, actor=actor, reason=request.POST.get("reason", ""))
            elif op == "auto":
                services.reset_payout_table(t, actor=actor)
            elif op == "template":
                services.apply_template(
                    t, get_object_or_404(PayoutTemplate, pk=object_id(request.POST.get("template"))), actor=actor, reason=request.POST.get("reason", "")
                )
            elif op == "signoff":
                services.sign_off_ranking(t, actor=actor)
            elif op == "satellite":
                services.link_satellite(
                    t,
                    get_object_or_404(Tournament, pk=object_id(request.POST.get("target"))),
                    actor=actor,
                    remainder_rule=request.POST.get("remainder_rule") or None,
                    prize_base=request.POST.get("prize_base") or None,
                    already_registered=request.POST.get("already_registered", "TICKET"),
                )
            elif op == "envelopes":  # PAY-02: the mystery bag, filled to the bounty money taken in
                services.set_envelopes(t, parse_envelopes(request.POST.get("envelopes", "")), actor=actor)
            elif op == "complete":
                services.complete_satellite(t, actor=actor)
            elif op == "sidepool":
                services.create_side_pool(
                    t,
                    kind=request.POST.get("kind", "OTHER"),
                    name=request.POST.get("name", ""),
                    actor=actor,
                    from_prize_pool=request.POST.get("from_prize_pool") or "0",
                )
            else:
                raise DomainError("unknown_action", _("Unknown action."), status=400)
            messages.success(request, _("Done."))
        except DomainError as exc:
            messages.error(request, str(exc.message))
        return redirect("payouts-tournament", pk=t.pk)
    prizes = sel.table_prizes(t)
    places_paid = len({p["place"] for p in prizes})  # what the table pays, not the automatic proposal's target
    b = sel.pool_breakdown(t)
    link = sel.satellite_link(t)
    dues, forfeits = sel.dues_and_forfeits(t, prizes)
    ctx = {
        "t": t,
        "b": b,
        "summary": sel.display_summary(t),
        "prizes": prizes,
        "prize_lines": prize_lines(prizes),
        "state": sel.table_state(t),
        "state_label": dict(PayoutTable.STATES).get(sel.table_state(t), ""),
        "entries_count": sel.field_size(t),
        "percent_paid": sel.percent_paid(t),
        "places_paid": places_paid,
        "places_paid_percent": round(100 * places_paid / max(sel.field_size(t), 1)),
        "table_total": sum(sel.place_values(prizes), ZERO),
        "pool_total": sel.satellite_pool(t, link) if link else b.total,
        "link": link,
        "seats": sum(1 for a in sel.satellite_awards(t, link) if a.seat) if link else None,
        "players_left": t.entries.filter(status=Entry.ACTIVE).count(),
        "signoff": sel.signoff_status(t),
        "dues": dues,
        "templates": [(x, sel.template_shape(x)) for x in PayoutTemplate.objects.all()],
        "side_pools": sel.side_pools_for_staff(t),
        "reports": [(name, sel.REPORT_LABELS.get(name, name)) for name in reports.REPORTS],
        "targets": Tournament.objects.exclude(pk=t.pk).exclude(status__in=[Tournament.FINISHED, Tournament.CANCELLED]),
        "recon": reports.reconciliation_data(t),
        "forfeits": forfeits,
        "late_reg_closed": t.status == Tournament.RUNNING and not clock_selectors.late_registration_open(t),
        "house": HouseRules.of(t),  # C13, C14: the satellite form starts from the house's choices
        "bounty": sel.bounty_overview(t) if HouseRules.of(t).bounty != "NONE" else None,
        "cancelled": sel.is_cancelled(t),  # it will not play: no action on its payouts is offered
    }
    if ctx["bounty"] is not None:
        ctx["envelope_lines"] = " ".join(money(a) for a in ctx["house"].envelopes)
    return render(request, "payouts/tournament.html", ctx)


def due(request):
    """The cashier's list of prizes to pay (reachable from the desk through the tournament page)."""
    tid = object_id(request.GET["t"]) if request.GET.get("t") else None
    qs = Tournament.objects.filter(pk=tid) if tid else Tournament.objects.filter(status__in=[Tournament.RUNNING, Tournament.FINISHED])
    groups = []
    for t in qs.order_by("-start_at"):
        every_due = sel.dues(t)
        rows = [d for d in every_due if not d["paid"] or request.GET.get("all")]
        paid = [d for d in every_due if d["paid"]]
        bounties = sel.bounties_owed(t)  # PAY-02: won at the tables, paid whenever the player comes to the desk
        # and those paid, one of which a player may give back (its bust to be undone)
        bounties_paid = sel.bounties_paid(t)
        if rows or bounties or bounties_paid or tid:
            groups.append(
                {
                    "t": t,
                    "rows": rows,
                    "paid": paid,
                    "bounties": bounties,
                    "bounties_paid": bounties_paid,
                    "limit": cash_limit(t),
                    "locked": sel.table_state(t) == "LOCKED",
                }
            )
    return render(
        request,
        "payouts/due.html",
        {"groups": groups, "methods": [(LedgerRow.CASH, _("Cash")), (LedgerRow.CHEQUE, _("Cheque")), (LedgerRow.TRANSFER, _("Bank transfer"))]},
    )


def deal_page(request, pk):
    t = get_object_or_404(Tournament, pk=pk)
    players = t.entries.filter(status=Entry.ACTIVE).select_related("person").order_by("number")
    deal = Deal.objects.filter(tournament=t, status=Deal.PROPOSED).prefetch_related("acceptances").first()
    accepted = {a.entry_id for a in deal.acceptances.all()} if deal else set()
    bounties = services.deal_bounties_now(t, [e.pk for e in players])
    heads = bounties["heads"] if bounties else {}
    counts = services.deal_counts(t, players)  # the floor's last counts, never the chips bought
    return render(
        request,
        "payouts/deal.html",
        {
            "t": t,
            "players": players,
            "deal": deal,
            "accepted": accepted,
            "final_table_size": HouseRules.of(t).final_table_size,
            "streaming_live": HouseRules.of(t).streaming_live,
            "summary": sel.display_summary(t),
            "state": sel.table_state(t),
            "recent": Deal.objects.filter(tournament=t).exclude(status=Deal.PROPOSED)[:5],
            "deal_rows": [(e, deal.stacks.get(str(e.pk)), deal.by_player.get(str(e.pk)), deal.bounties.get(str(e.pk)), e.pk in accepted) for e in players]
            if deal
            else [],
            "bounties": bounties,
            "player_rows": [(e, heads.get(e.pk), counts["rows"][e.pk]) for e in players],
            "counts": counts,
        },
    )


def _payment(number):
    """The prize payment with this receipt number, else the bounty payment (PAY-02)'s row."""
    payment = PrizePayment.objects.select_related("tournament", "entry__person", "row", "paid_by").filter(row__receipt_number=number).first()
    if payment is not None:
        return payment
    return get_object_or_404(LedgerRow.objects.select_related("tournament", "entry", "person", "cashier"), receipt_number=number, kind=LedgerRow.BOUNTY)


def slip(request, number):
    paid = _payment(number)
    context = reports.slip_context(paid) if isinstance(paid, PrizePayment) else reports.bounty_slip_context(paid)
    return render(request, "payouts/slip.html", context)


def slip_pdf(request, number):
    paid = _payment(number)
    pdf = reports.slip_pdf(paid) if isinstance(paid, PrizePayment) else reports.bounty_slip_pdf(paid)
    resp = HttpResponse(pdf, content_type="application/pdf")
    resp["Content-Disposition"] = f'inline; filename="payout-{number}.pdf"'
    return resp


def report(request, pk, name, fmt):
    t = get_object_or_404(Tournament, pk=pk)
    if not reports.is_report(t, name) or fmt not in ("csv", "pdf"):
        raise Http404
    data = reports.build(t, name)
    if fmt == "csv":
        resp = HttpResponse(reports.to_csv(data), content_type="text/csv; charset=utf-8")
        resp["Content-Disposition"] = f'attachment; filename="{name}-{t.pk}.csv"'
        return resp
    resp = HttpResponse(reports.to_pdf(data), content_type="application/pdf")
    resp["Content-Disposition"] = f'inline; filename="{name}-{t.pk}.pdf"'
    return resp


def results_file(request, pk, fmt):
    """The event's results as a sheet for the club's site (``results_sheet``): CSV or XLSX."""
    t = get_object_or_404(Tournament, pk=pk)
    if fmt not in sheets.FORMATS:
        raise Http404
    data, name = results_sheet.results_file(t, fmt)
    resp = HttpResponse(data, content_type=sheets.CONTENT_TYPES[fmt])
    resp["Content-Disposition"] = f'attachment; filename="{name}"'
    return resp
