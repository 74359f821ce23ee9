import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("seating", "0008_seats_seq"),
        ("tournaments", "0028_handforhandreport_state"),
    ]

    operations = [
        migrations.CreateModel(
            name="PreDrawSeat",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("session", models.CharField(max_length=20)),
                ("table", models.PositiveIntegerField()),
                ("seat", models.PositiveIntegerField()),
                ("drawn_at", models.DateTimeField()),
                ("entry", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name="predraw_seat",
                                               to="tournaments.entry")),
                ("tournament", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="predraw_seats",
                                                 to="tournaments.tournament")),
            ],
            options={"ordering": ["session", "table", "seat"]},
        ),
    ]
