"""80 mm slips as PDF (receipts, payout slips): a title, label/value lines, a footer."""

import io

import segno

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


def slip_pdf(*, title: str, heading: str, lines: list[tuple[str, str]], footer: str = "", signature_line: str = "",
             qr: str = "", qr_caption: str = "") -> bytes:
    """Draw an 80 mm wide slip, as tall as its lines need. ``signature_line`` adds a line to sign on;
    ``qr`` (an address) prints its QR code with the address under it and ``qr_caption`` over it."""
    from reportlab.lib.units import mm
    from reportlab.pdfgen import canvas

    width = 80 * mm
    height = (40 + 6 * len(lines) + (20 if signature_line else 0) + (QR_MM + 14 if qr else 0)) * mm
    buf = io.BytesIO()
    pdf = canvas.Canvas(buf, pagesize=(width, height))
    pdf.setTitle(title)
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
