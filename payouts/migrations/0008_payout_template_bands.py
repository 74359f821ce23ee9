"""A payout template may hold one list of percentages per band of field sizes."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("payouts", "0007_deal_bounties"),
    ]

    operations = [
        migrations.AddField(
            model_name="payouttemplate",
            name="bands",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text='[{"from": 10, "to": 20, "percents": ["50", "30", "20"]}, …] — "to" null: and more; bands do not overlap',
            ),
        ),
        migrations.AlterField(
            model_name="payouttemplate",
            name="percents",
            field=models.JSONField(help_text='["30", "20", "14.5", …] — add up to 100, non-increasing; [] when the template has bands'),
        ),
    ]
