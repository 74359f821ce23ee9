from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0027_dealer_role"),
    ]

    operations = [
        migrations.AddField(
            model_name="handforhandreport",
            name="state",
            field=models.CharField(default="COMPLETE", max_length=12),
        ),
    ]
