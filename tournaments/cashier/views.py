"""The cashier desk's pages: the desk (it talks to the API) and a receipt, printable or as PDF."""

from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import translation
from django.utils.translation import gettext as _

from tdmanager import links
from tdmanager.security import no_store
from tournaments.cashier import receipts
from tournaments.cashier import selectors as cashier_selectors
from tournaments.cashier import services as cashier
from tournaments.house import HouseRules
from tournaments.models import LedgerRow, Tournament


def desk(request):
    open_t = Tournament.objects.filter(status__in=[Tournament.REGISTERING, Tournament.RUNNING, Tournament.PLANNED]).order_by("start_at")
    raw = request.GET.get("t", "")
    if raw and not (raw.isascii() and raw.isdigit() and len(raw) < 12):
        raise Http404(_("No such tournament."))
    selected = int(raw) if raw else cashier_selectors.desk_tournament(request.user, list(open_t))
    # FMT-02: a cancelled tournament stays at the desk, after the open ones, until its refunds are paid.
    open_t = [*open_t, *Tournament.objects.filter(pk__in=cashier_selectors.tournaments_with_refunds_due()).order_by("start_at")]
    for t in open_t:  # REG-11: the desk offers the jackpot's fee where the tournament plays for it
        rules = HouseRules.of(t)
        t.jackpot_fee = f"{rules.jackpot_fee:.2f}" if rules.jackpot else None
        t.require_id = rules.check_in_requires_id  # REG-02: check-in asks for the identity document
        t.bounty_part = rules.bounty_part  # PAY-02: every buy-in and re-entry buys a bounty, its own line
        t.desk_price = rules.entry_cost(t)
        t.sells_rebuys = cashier.sells_rebuys(t)  # FMT-04: no stack asked for a rebuy the event does not have
    context = {"tournaments": open_t, "selected": selected, "shift": cashier_selectors.shift_totals(request.user)}
    context["link_warning"] = links.warning_for(request)  # the receipts' QR codes would name this computer
    return render(request, "desk.html", context)


def _receipt_language(request) -> str | None:
    """``?lang=<code>``: the cashier prints the receipt in the player's language rather than the
    desk's (one of ``settings.LANGUAGES``; anything else: the desk's)."""
    code = request.GET.get("lang", "")
    return code if code in dict(settings.LANGUAGES) else None


def receipt(request, number):
    row = get_object_or_404(LedgerRow.objects.select_related("tournament", "entry", "person", "cashier"), receipt_number=number)
    with translation.override(_receipt_language(request) or translation.get_language()):
        return no_store(render(request, "receipt.html", receipts.receipt_context(row, request)))  # its QR and link: the phone page's key


def receipt_pdf(request, number):
    row = get_object_or_404(LedgerRow.objects.select_related("tournament", "entry", "person", "cashier"), receipt_number=number)
    with translation.override(_receipt_language(request) or translation.get_language()):
        pdf = receipts.receipt_pdf(row, request)
    resp = HttpResponse(pdf, content_type="application/pdf")
    resp["Content-Disposition"] = f'inline; filename="receipt-{number}.pdf"'
    return no_store(resp)  # its QR code and link: the phone page's key
