from django.db import migrations, models


class Migration(migrations.Migration):
    """The engine's reasons are stored as codes and parameters: put into words in
    the reader's language when shown. Older slips keep their English sentence in ``reason``."""

    dependencies = [
        ("seating", "0006_constraints_flag"),
    ]

    operations = [
        migrations.AddField(
            model_name="pendingmove",
            name="reason_data",
            field=models.JSONField(
                blank=True,
                help_text="the engine's reason: codes and parameters, put into words in the reader's language when shown (seating.labels)",
                null=True,
            ),
        ),
        migrations.AlterField(
            model_name="pendingmove",
            name="reason",
            field=models.TextField(blank=True, help_text="a move by hand: the words typed (older slips: the engine's English)"),
        ),
    ]
