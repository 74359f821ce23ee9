"""80 mm slips as PDF (receipts, payout slips): a title, label/value lines, a footer."""

import io


def slip_pdf(*, title: str, heading: str, lines: list[tuple[str, str]], footer: str = "", signature_line: str = "") -> bytes:
    """Draw an 80 mm wide slip, as tall as its lines need. ``signature_line`` adds a line to sign on."""
    from reportlab.lib.units import mm
    from reportlab.pdfgen import canvas

    width = 80 * mm
    height = (40 + 6 * len(lines) + (20 if signature_line else 0)) * mm
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
    if footer:
        pdf.setFont("Helvetica", 7)
        pdf.drawCentredString(width / 2, 8 * mm, footer)
    pdf.showPage()
    pdf.save()
    return buf.getvalue()
