"""REG-09: each ``Receivable`` becomes a RECEIVABLE ledger row (its amount in ``owed_amount``, no
cash, the next receipt number); backwards, the rows go back to the table."""

from django.db import migrations


def receivables_to_ledger(apps, schema_editor):
    Receivable = apps.get_model("tournaments", "Receivable")
    LedgerRow = apps.get_model("tournaments", "LedgerRow")
    Sequence = apps.get_model("tournaments", "Sequence")
    rows = list(Receivable.objects.order_by("created_at", "id").select_related("tournament"))
    if not rows:
        return
    seq, _ = Sequence.objects.get_or_create(name="receipt")
    for r in rows:
        seq.value += 1
        LedgerRow.objects.create(
            tournament_id=r.tournament_id, entry_id=r.entry_id, person_id=r.person_id, kind="RECEIVABLE",
            currency=r.tournament.currency, method="OTHER", cashier_id=r.created_by_id, created_at=r.created_at,
            receipt_number=seq.value, reason=r.reason[:200], owed_amount=r.amount,
        )
    seq.save(update_fields=["value"])


def ledger_to_receivables(apps, schema_editor):
    Receivable = apps.get_model("tournaments", "Receivable")
    LedgerRow = apps.get_model("tournaments", "LedgerRow")
    paid_or_waived = LedgerRow.objects.filter(kind="SETTLEMENT").exists() or LedgerRow.objects.filter(
        kind="REVERSAL", reverses__kind="RECEIVABLE").exists()
    if paid_or_waived:
        raise RuntimeError("amounts owed were paid or waived on the ledger: the old table cannot hold that")
    rows = LedgerRow.objects.filter(kind="RECEIVABLE").order_by("receipt_number")
    for row in rows:
        Receivable.objects.create(tournament_id=row.tournament_id, entry_id=row.entry_id, person_id=row.person_id,
                                  amount=row.owed_amount, reason=row.reason, created_by_id=row.cashier_id, created_at=row.created_at)
    rows.delete()


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0019_receivables_on_the_ledger"),
    ]

    operations = [
        migrations.RunPython(receivables_to_ledger, ledger_to_receivables),
    ]
