"""Receipts: one per ledger row, printable at 80 mm from the browser and as PDF (reportlab)."""

from decimal import Decimal

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from tdmanager import links
from tdmanager.formatting import money, num, when
from tdmanager.pdf import slip_pdf
from tdmanager.policy import PHONE_PAGE_GIVERS
from tdmanager.roles import has_role
from tournaments.models import Entry, LedgerRow
from tournaments.phone.views import phone_path
from tournaments.setup.selectors import seat_of

# What the prize-pool part of a row is: a rebuy's receipt says "Rebuy", not "Buy-in".
PRICE_LABELS = {
    LedgerRow.BUY_IN: _lazy("Buy-in"),
    LedgerRow.RE_ENTRY: _lazy("Re-entry"),
    LedgerRow.REBUY: _lazy("Rebuy"),
    LedgerRow.ADD_ON: _lazy("Add-on"),
    LedgerRow.PAYOUT: _lazy("Prize"),
}


def price_label(row: LedgerRow) -> str:
    """The label of ``prize_amount`` on the receipt: what was sold (a reversal: what it reverses)."""
    kind = row.reverses.kind if row.kind == LedgerRow.REVERSAL and row.reverses_id else row.kind
    return str(PRICE_LABELS.get(kind, _lazy("Buy-in")))


def _kind(row: LedgerRow) -> str:
    """The kind of row this is, or (a reversal) of the row it reverses."""
    return row.reverses.kind if row.kind == LedgerRow.REVERSAL and row.reverses_id else row.kind


def bounty_label(row: LedgerRow) -> str:
    """PAY-02: the bounty part of a buy-in or re-entry, or the bounties the desk paid out."""
    return _("Bounties won") if _kind(row) == LedgerRow.BOUNTY else _("Bounty")


def operation(row: LedgerRow) -> str:
    """The heading: the kind of row; a reversal names what it reverses."""
    if row.kind == LedgerRow.REVERSAL and row.reverses_id:
        return _("Reversal of: %(kind)s") % {"kind": row.reverses.get_kind_display()}
    return str(row.get_kind_display())


def tender_text(row: LedgerRow) -> tuple[str, str] | None:
    """REG-06: (amount tendered, rate) of a sale paid in USD or CHF, else None."""
    if not row.tender_currency:
        return None
    return (money(row.tender_amount, row.tender_currency), f"1 {row.tender_currency} = {num(row.exchange_rate.normalize())} {row.currency}")


def phone_link(row: LedgerRow, request=None) -> str:
    """The player's phone page of the entry this row sold (the QR code on the receipt), as an
    absolute address a phone reaches when ``request`` is given (``tdmanager.links.player_url``);
    "" for a reversal, a refund or a cancelled entry."""
    e = row.entry
    if e is None or not e.phone_token or e.status == Entry.CANCELLED or row.kind in (LedgerRow.REVERSAL, LedgerRow.REFUND):
        return ""
    path = phone_path(e)
    return links.player_url(request, path) if request is not None else path


def gives_phone_page(request) -> bool:
    """Whether ``request``'s reader is given the player's phone link. The page shows his name,
    seat, place and prizes to whoever holds the link, so it goes only to who hands him his
    receipt (``policy.PHONE_PAGE_GIVERS``); the floor reading a receipt sees it without."""
    return has_role(getattr(request, "user", None), *PHONE_PAGE_GIVERS)


# What a refund gives back, each on its line: the sales of the entry it refunds.
SALE_KINDS = (LedgerRow.BUY_IN, LedgerRow.RE_ENTRY, LedgerRow.REBUY, LedgerRow.ADD_ON)


def refund_parts(row: LedgerRow) -> dict | None:
    """A refund's prize part told by what it gives back (buy-in, rebuys, add-on: one REFUND row
    sums them), the fee paid, the expenses kept and the foreign currencies the entry was paid
    in; None for another row, or when the entry's sales do not add up to the refund (then the
    receipt keeps the row's own lines). The sales counted are those standing when the refund
    was written: a sale reversed before it gave nothing to refund."""
    if row.kind != LedgerRow.REFUND or not row.entry_id:
        return None
    sales = list(
        LedgerRow.objects.filter(entry_id=row.entry_id, kind__in=SALE_KINDS, receipt_number__lt=row.receipt_number)
        .exclude(reversed_by__receipt_number__lt=row.receipt_number)
        .order_by("receipt_number")
    )
    parts: dict[str, list] = {}
    for sale in sales:
        part = parts.setdefault(sale.kind, [0, Decimal(0)])
        part[0] += 1
        part[1] += sale.prize_amount
    prize, fee = sum((p[1] for p in parts.values()), Decimal(0)), sum((x.fee_amount for x in sales), Decimal(0))
    expenses = prize + fee + row.prize_amount + row.fee_amount  # what the refund kept back of them
    if not parts or expenses < 0 or -row.prize_amount > prize or -row.fee_amount > fee:
        return None
    lines = []
    for kind, (count, amount) in parts.items():
        label = str(PRICE_LABELS[kind]) + (f" ×{count}" if count > 1 else "")
        lines.append((label, -amount))
    paid_in = sorted({x.tender_currency for x in sales if x.tender_currency and x.tender_currency != row.currency})
    return {"lines": lines, "fee": -fee, "expenses": expenses, "paid_in": paid_in}


def refund_currency_note(row: LedgerRow, parts: dict | None) -> str:
    """REG-06: the currency the money goes back in, said where the entry was paid in another."""
    if not parts or not parts["paid_in"]:
        return ""
    return _("The entry was paid in %(paid)s: the refund is paid in %(currency)s, the tournament's currency.") % {
        "paid": ", ".join(parts["paid_in"]),
        "currency": row.currency,
    }


def footer(row: LedgerRow) -> str:
    """The line under the receipt: chips to collect only where the row sold them."""
    if row.kind in SALE_KINDS and row.chips > 0:
        return _("Keep this receipt: show it at your table to receive your chips.")
    if row.kind == LedgerRow.REFUND:
        return _("Keep this receipt: it records the money given back to you.")
    return _("Keep this receipt.")


def receipt_context(row: LedgerRow, request=None) -> dict:
    seat = seat_of(row.entry) if row.entry_id else None
    t = row.tournament
    tender = tender_text(row)
    parts = refund_parts(row)
    link = phone_link(row, request) if gives_phone_page(request) else ""
    return {
        "refund_parts": parts,
        "refund_currency_note": refund_currency_note(row, parts),
        "show_chips": row.chips and row.kind != LedgerRow.REFUND,  # a refund collects no chips: none "-50,000"
        "footer": footer(row),
        "price_label": price_label(row),
        "bounty_label": bounty_label(row) if row.bounty_amount else "",
        "bounty_payment": _kind(row) == LedgerRow.BOUNTY,  # no buy-in nor fee on it: the bounties only
        "tendered": tender[0] if tender else "",
        "rate": tender[1] if tender else "",
        "row": row,
        "t": t,
        "entry": row.entry,
        "person": row.person,
        "seat": seat,
        "created": timezone.localtime(row.created_at),
        "kind": operation(row),
        "method": row.get_method_display(),
        "cashier": row.cashier.get_username() if row.cashier else "",
        "reverses": row.reverses.receipt_number if row.reverses_id else None,
        "settles": row.settles.receipt_number if row.settles_id else None,  # REG-09: the amount owed it pays
        "phone_link": link,
        "phone_token": row.entry.phone_token if link else "",
        "link_warning": links.warning_for(request) if link else "",  # its QR code would name this computer
    }


def receipt_lines(row: LedgerRow) -> list[tuple[str, str]]:
    c = receipt_context(row)
    lines = [
        (_("Receipt"), f"#{row.receipt_number}"),
        (_("Date"), when(c["created"], "seconds")),
        (_("Tournament"), c["t"].name),
        (_("Operation"), str(c["kind"])),
    ]
    if c["person"]:
        lines.append((_("Player"), c["person"].full_name))
    if c["entry"]:
        lines.append((_("Entry"), f"#{c['entry'].number}"))
    parts = c["refund_parts"]
    if parts:
        lines += [(label, money(amount, row.currency)) for label, amount in parts["lines"]]
    elif not c["bounty_payment"]:
        lines.append((c["price_label"], money(row.prize_amount, row.currency)))
    if row.bounty_amount:  # PAY-02: buy-in + bounty + fee, each a line of its own
        lines.append((c["bounty_label"], money(row.bounty_amount, row.currency)))
    if parts:
        lines.append((_("Fee"), money(parts["fee"], row.currency)))
        if parts["expenses"]:
            lines.append((_("Expenses kept"), money(parts["expenses"], row.currency)))
    elif not c["bounty_payment"]:
        lines.append((_("Fee"), money(row.fee_amount, row.currency)))
    if row.side_amount:
        lines.append((_("Side pools"), money(row.side_amount, row.currency)))
    if row.jackpot_amount:
        lines.append((_("Jackpot fee") if row.jackpot_amount > 0 else _("Jackpot"), money(row.jackpot_amount, row.currency)))
    lines += [(_("Total"), money(row.total, row.currency)), (_("Paid by"), str(c["method"]))]
    if c["refund_currency_note"]:
        lines.append((_("Currency"), c["refund_currency_note"]))
    if c["tendered"]:
        lines += [(_("Tendered"), c["tendered"]), (_("Exchange rate"), c["rate"])]
    if c["show_chips"]:
        lines.append((_("Chips"), num(row.chips)))
    if c["seat"]:
        lines.append((_("Table / seat"), f"{c['seat']['table']} / {c['seat']['seat']}"))
    if c["reverses"]:
        lines.append((_("Reverses receipt"), f"#{c['reverses']}"))
    if row.owed_amount:
        lines.append((_("Amount owed"), money(row.owed_amount, row.currency)))
    if c["settles"]:
        lines.append((_("Pays what is owed on receipt"), f"#{c['settles']}"))
    if row.reason:
        lines.append((_("Reason"), row.reason))
    lines.append((_("Cashier"), c["cashier"]))
    return lines


def receipt_pdf(row: LedgerRow, request=None) -> bytes:
    """An 80 mm wide receipt, as tall as its lines need, with the QR code of the player's page."""
    return slip_pdf(
        title=f"{_('Receipt')} {row.receipt_number}",
        heading=row.tournament.name,
        lines=receipt_lines(row),
        footer=footer(row),
        qr=phone_link(row, request) if gives_phone_page(request) else "",
        qr_caption=_("Your seat, the clock and the payouts on your phone:"),
    )
