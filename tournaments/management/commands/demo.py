"""Load a demo: people, a re-entry tournament open for registration with paid entries, staff logins,
and the room the event plays in (seating's part, ``signals.demo_loaded``): tables 1 to 12 and two
dealers on the roster.

The names the demo writes into the data (the tournament, its structure, its deduction) are in
the installation's language (``LANGUAGE_CODE``, or ``--language``): they are data, stored once
and shown as stored, so an Italian room's demo reads Italian on every page.
"""

import random
from datetime import timedelta
from decimal import Decimal

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.utils import timezone, translation
from django.utils.translation import pgettext

from tdmanager import usernames
from tournaments import signals
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Person, Tournament
from tournaments.oversight import services as oversight
from tournaments.setup import lifecycle
from tournaments.setup import services as setup
from tournaments.structures.services import ensure_builtin_structures

FIRST = [
    "Marco",
    "Giulia",
    "Luca",
    "Sara",
    "Matteo",
    "Chiara",
    "Andrea",
    "Francesca",
    "Davide",
    "Elena",
    "Paolo",
    "Anna",
    "Simone",
    "Laura",
    "Stefano",
    "Marta",
    "Alessandro",
    "Valentina",
    "Roberto",
    "Silvia",
]
LAST = [
    "Rossi",
    "Russo",
    "Ferrari",
    "Esposito",
    "Bianchi",
    "Romano",
    "Colombo",
    "Ricci",
    "Marino",
    "Greco",
    "Bruno",
    "Gallo",
    "Conti",
    "De Luca",
    "Mancini",
    "Costa",
    "Giordano",
    "Rizzo",
    "Lombardi",
    "Moretti",
]


class Command(BaseCommand):
    help = "Load demo data: 60 people, a re-entry tournament with 24 paid entries, staff logins, a room with 12 tables and two dealers."

    def add_arguments(self, parser):
        parser.add_argument("--if-empty", action="store_true")
        parser.add_argument("--language", help="the language of the demo's names (default: LANGUAGE_CODE)")

    def handle(self, if_empty=False, language=None, **opts):
        if if_empty and Tournament.objects.exists():
            return
        with translation.override(language or settings.LANGUAGE_CODE):
            self.load()

    def load(self):
        rng = random.Random(7)
        User = get_user_model()
        for username, role in (*((r, r) for r in ("cashier", "floor", "dealer", "display", "controller", "regulator")), ("dealer2", "dealer")):
            if usernames.holder(username) is None:  # a login of that name in any case is left as it is
                call_command("createdirector", username, role=role, stdout=self.stdout)
        # the room's two dealers, by the names the roster and the push list show
        for username, first, last in (("dealer", "Dario", "Neri"), ("dealer2", "Debora", "Sala")):
            User.objects.filter(username=username, first_name="").update(first_name=first, last_name=last)
        people = []
        for i in range(60):
            first, last = rng.choice(FIRST), rng.choice(LAST)
            people.append(
                Person.objects.create(
                    first_name=first,
                    last_name=last,
                    nickname=f"{first[:3].lower()}{i}",
                    phone=f"+39 333 {1000000 + i * 7919:07d}",
                    document_id=f"CA{100000 + i}X",
                )
            )
        # A text the product writes into the data, stored in English and shown in the reader's
        # language (tournaments.labels.SHIPPED_TEXTS): the demo reads alike in Italian and English.
        people[5].banned, people[5].banned_reason = True, "Excluded by the casino"
        people[5].save()
        # the shipped templates, made again if someone deleted them (the migration made them first)
        template = next(st for st in ensure_builtin_structures() if st.name.startswith("Regular"))
        # its own copy, named in the demo's language (the shipped template keeps its name)
        structure = setup.copy_structure(template, pgettext("demo data", "Sunday re-entry: 20-minute levels"))
        t = Tournament.objects.create(
            name=pgettext("demo data", "Demo Sunday Re-entry"),
            start_at=timezone.now() + timedelta(hours=1),
            format=Tournament.REENTRY,
            buy_in=Decimal("100"),
            fee=Decimal("10"),
            starting_stack=30000,
            table_size=9,
            field_cap=120,
            min_players=10,
            structure=structure,
            late_reg_closes_after_level=6,
            max_entries_per_player=3,
            addon_price=Decimal("20"),
            addon_chips=20000,
            addon_after_level=4,
            deductions=[{"name": pgettext("demo data", "casino"), "percent": "3"}],
            guarantee=Decimal("5000"),
        )
        director = User.objects.filter(groups__name="director").first()
        actor = Actor(director, "demo")
        lifecycle.open_registration(t, actor=actor)
        for p in people[6:30]:
            cashier.register(t, p, method=rng.choice(["CASH", "CARD"]), actor=actor)
        booked = people[30:34]
        for p in booked:
            cashier.pre_register(t, p, actor=actor, channel="whatsapp")
        oversight.set_regulator_access(t, "regulator", granted=True, actor=actor)  # ROLE-01: the control corps reads it
        # the room moves in too: its tables, where the event draws, and the dealers on the roster
        signals.demo_loaded.send(sender=Tournament, tournament=t, actor=actor, dealers=list(User.objects.filter(username__in=("dealer", "dealer2"))))
        self.stdout.write(self.style.SUCCESS(f"demo loaded: tournament '{t.name}' with 24 entries"))
        names = ", ".join(f"{p.first_name} {p.last_name} ({p.nickname})" for p in booked)
        self.stdout.write(f"pre-registered, not paid yet: {names}")
