"""REG-09: the receivables live on the ledger now (0020 moved them)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0020_receivables_to_ledger"),
    ]

    operations = [
        migrations.DeleteModel(
            name="Receivable",
        ),
    ]
