"""80 mm slips as PDF (receipts, payout slips): a title, label/value lines, a footer; reports as
A4 tables (``table_pdf``); and ``drawable``, the text every PDF of the product writes.

The PDFs use reportlab's standard fonts (Helvetica), which hold the WinAnsi (cp1252) characters
only: reportlab draws any other character as a black box (ZapfDingbats' square). ``drawable``
keeps what the font can draw, writes an accented letter it lacks without its accent
("ő" → "o"), drops emoji and other symbols (with their joiners and variation selectors), and
writes "?" for a letter of another script, so a name is never a row of black boxes.
"""

import io
import re
import unicodedata

import segno
from django.utils.translation import gettext as _

from .formatting import money as fmt_money


def _drawable_char(ch: str) -> str:
    try:
        ch.encode("cp1252")
        return ch
    except UnicodeEncodeError:
        pass
    plain = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    try:
        plain.encode("cp1252")
        return plain
    except UnicodeEncodeError:
        pass
    category = unicodedata.category(ch)
    if category[0] in "SCZM" or category == "Cf":  # symbols (emoji), controls, joiners, marks, odd spaces
        return " " if category[0] == "Z" else ""
    return "?"


def drawable(text) -> str:
    """``text`` as the PDF's standard font can draw it (see the module's docstring)."""
    text = str(text)
    if text.isascii():
        return text
    out = "".join(_drawable_char(ch) for ch in text)
    if len(out) != len(text):  # something dropped: no double space where it stood
        out = re.sub(r" {2,}", " ", out).strip()
    return out


QR_MM = 32  # the printed QR code's side: a phone reads it from arm's length


def draw_qr(pdf, url: str, x: float, y: float, size: float) -> None:
    """Draw the QR code of ``url`` (segno, pure Python) as black squares, bottom-left at x, y."""
    matrix = segno.make(url, error="m").matrix
    n = len(matrix) + 4  # a quiet zone of two modules on each side
    module = size / n
    pdf.setFillColorRGB(0, 0, 0)
    for r, row in enumerate(matrix):
        for c, dark in enumerate(row):
            if dark:
                pdf.rect(x + (c + 2) * module, y + size - (r + 3) * module, module, module, stroke=0, fill=1)


def slip_pdf(
    *, title: str, heading: str, lines: list[tuple[str, str]], footer: str = "", signature_line: str = "", qr: str = "", qr_caption: str = ""
) -> bytes:
    """Draw an 80 mm wide slip, as tall as its lines need. ``signature_line`` adds a line to sign on;
    ``qr`` (an address) prints its QR code with the address under it and ``qr_caption`` over it."""
    from reportlab.lib.units import mm
    from reportlab.pdfgen import canvas

    width = 80 * mm
    height = (40 + 6 * len(lines) + (20 if signature_line else 0) + (QR_MM + 14 if qr else 0)) * mm
    buf = io.BytesIO()
    pdf = canvas.Canvas(buf, pagesize=(width, height))
    pdf.setTitle(title)
    heading, footer, signature_line, qr_caption = drawable(heading), drawable(footer), drawable(signature_line), drawable(qr_caption)
    lines = [(drawable(label), drawable(value)) for label, value in lines]
    y = height - 10 * mm
    pdf.setFont("Helvetica-Bold", 12)
    pdf.drawCentredString(width / 2, y, heading[:40])
    y -= 8 * mm
    for label, value in lines:
        pdf.setFont("Helvetica", 8)
        pdf.drawString(4 * mm, y, str(label))
        pdf.setFont("Helvetica-Bold", 9)
        pdf.drawRightString(width - 4 * mm, y, str(value)[:42])
        y -= 6 * mm
    if signature_line:
        y -= 14 * mm
        pdf.line(4 * mm, y, width - 4 * mm, y)
        pdf.setFont("Helvetica", 8)
        pdf.drawCentredString(width / 2, y - 4 * mm, signature_line)
    if qr:
        if qr_caption:
            pdf.setFont("Helvetica-Bold", 8)
            pdf.drawCentredString(width / 2, y, qr_caption[:60])
        y -= (QR_MM + 2) * mm
        draw_qr(pdf, qr, (width - QR_MM * mm) / 2, y, QR_MM * mm)
        pdf.setFont("Helvetica", 6)
        pdf.drawCentredString(width / 2, y - 2 * mm, qr[:80])
    if footer:
        pdf.setFont("Helvetica", 7)
        pdf.drawCentredString(width / 2, 8 * mm, footer)
    pdf.showPage()
    pdf.save()
    return buf.getvalue()


def seat_cards_pdf(*, title: str, cards: list[tuple[str, str, int, int]], table_word: str, seat_word: str, note: str = "", a4: bool = False) -> bytes:
    """Seat cards of a manual draw (SEAT-01, SEAT-04): ``cards`` are (event, kind, table, seat).

    80 mm: one card a page (a slip each). ``a4``: sheets of 3 × 6 cards with dashed cut lines."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    if a4:
        page_w, page_h = A4
        cols, rows = 3, 6
        card_w, card_h = 63 * mm, 45 * mm
        x0, y0 = (page_w - cols * card_w) / 2, (page_h - rows * card_h) / 2
    else:
        page_w, page_h = 80 * mm, 50 * mm
        cols = rows = 1
        card_w, card_h = page_w, page_h
        x0 = y0 = 0
    pdf = canvas.Canvas(buf, pagesize=(page_w, page_h))
    pdf.setTitle(title)
    per_page = cols * rows
    for i, (event, kind, table, seat) in enumerate(cards):
        if i and i % per_page == 0:
            pdf.showPage()
        k = i % per_page
        x = x0 + (k % cols) * card_w
        y = y0 + (rows - 1 - k // cols) * card_h
        if a4:
            pdf.setDash(3, 3)
            pdf.setLineWidth(0.3)
            pdf.rect(x, y, card_w, card_h, stroke=1, fill=0)
            pdf.setDash()
        cx = x + card_w / 2
        pdf.setFont("Helvetica-Bold", 9)
        pdf.drawCentredString(cx, y + card_h - 7 * mm, drawable(event)[:40])
        pdf.setFont("Helvetica", 8)
        pdf.drawCentredString(cx, y + card_h - 11 * mm, str(kind)[:50])
        pdf.setFont("Helvetica", 10)
        pdf.drawCentredString(x + card_w / 4, y + card_h - 18 * mm, table_word)
        pdf.drawCentredString(x + 3 * card_w / 4, y + card_h - 18 * mm, seat_word)
        pdf.setFont("Helvetica-Bold", 28)
        pdf.drawCentredString(x + card_w / 4, y + card_h - 30 * mm, str(table))
        pdf.drawCentredString(x + 3 * card_w / 4, y + card_h - 30 * mm, str(seat))
        if note:
            pdf.setFont("Helvetica", 7)
            pdf.drawCentredString(cx, y + 4 * mm, note[:70])
    if not cards:
        pdf.setFont("Helvetica", 9)
        pdf.drawCentredString(page_w / 2, page_h / 2, note[:60])
    pdf.showPage()
    pdf.save()
    return buf.getvalue()


_AMOUNT = re.compile(r"-?\d+\.\d{2}")


def cell_text(v) -> str:
    """A cell as a report's PDF prints it: an amount ("1234.50") written the language's way
    ("1.234,50" in Italian; the CSV keeps the machine's dot for spreadsheets and imports), the
    characters the PDF's font cannot draw left out (``drawable``: no emoji as a black box), and
    escaped for reportlab's markup."""
    text = str(v)
    if _AMOUNT.fullmatch(text):
        text = fmt_money(text)
    return drawable(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def table_pdf(report: dict) -> bytes:
    """A report as an A4 PDF (landscape past six columns): its ``title``, a table of its
    ``columns`` and ``rows``, its ``totals`` (label, value), its ``signatures`` (name, role, when)
    and a line to sign on. Every report of the product prints through here."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    buf = io.BytesIO()
    wide = len(report["columns"]) > 6
    doc = SimpleDocTemplate(
        buf,
        pagesize=landscape(A4) if wide else A4,
        leftMargin=12 * mm,
        rightMargin=12 * mm,
        topMargin=12 * mm,
        bottomMargin=12 * mm,
        title=str(report["title"]),
    )
    styles = getSampleStyleSheet()
    cell = styles["BodyText"].clone("cell", fontSize=8, leading=10)
    data = [[Paragraph(f"<b>{cell_text(c)}</b>", cell) for c in report["columns"]]]
    data += [[Paragraph(cell_text(v), cell) for v in row] for row in report["rows"]] or [[Paragraph("—", cell)] + [""] * (len(report["columns"]) - 1)]
    table = Table(data, repeatRows=1)
    table.setStyle(
        TableStyle([("GRID", (0, 0), (-1, -1), 0.3, colors.grey), ("BACKGROUND", (0, 0), (-1, 0), colors.lightgrey), ("VALIGN", (0, 0), (-1, -1), "TOP")])
    )
    story = [Paragraph(cell_text(report["title"]), styles["Title"]), Spacer(1, 4 * mm), table, Spacer(1, 6 * mm)]
    totals = Table([[Paragraph(f"<b>{cell_text(label)}</b>", cell), Paragraph(cell_text(value), cell)] for label, value in report.get("totals", [])] or [[""]])
    story += [totals, Spacer(1, 8 * mm)]
    for name, role, at in report.get("signatures", []):
        story.append(Paragraph(cell_text(_("Signed by %(name)s (%(role)s), %(at)s") % {"name": name, "role": role, "at": at}), styles["BodyText"]))
    story += [Spacer(1, 10 * mm), Paragraph(cell_text(_("Signature")) + ": ______________________________", styles["BodyText"])]
    doc.build(story)
    return buf.getvalue()
