from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("seating", "0007_move_reason_codes"),
    ]

    operations = [
        migrations.AddField(
            model_name="seatingstate",
            name="seats_seq",
            field=models.PositiveIntegerField(default=0),
        ),
    ]
