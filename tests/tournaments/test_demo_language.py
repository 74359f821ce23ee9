"""The demo speaks the installation's language, and the README says what it prints.

An Italian room that runs ``./tdm run --demo`` reads its demo on Italian pages: the names the demo
writes into the data (the tournament, its structure, its deduction) are stored in the language of
the installation, not in English. The README lists every login the demo prints and the players it
pre-registers, so nobody has to read the console to find them."""

import io
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from seating.models import CardRoom, DealerShift, Table
from tournaments.eventlog.services import Actor
from tournaments.models import Entry, Person, Tournament
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db

README = Path(__file__).resolve().parents[2] / "README.md"


def test_a_demo_loaded_in_an_italian_installation_names_its_data_in_italian(settings, director):
    settings.LANGUAGE_CODE = "it"
    call_command("demo", stdout=io.StringIO())
    t = Tournament.objects.get()
    assert t.name == "Re-entry della domenica (demo)"
    assert t.structure.name == "Re-entry della domenica: livelli di 20 minuti"
    assert [d["name"] for d in t.deductions] == ["casinò"]
    client = Client()
    client.force_login(director)
    client.cookies["django_language"] = "it"
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Re-entry della domenica (demo)" in page and "Demo Sunday" not in page


def test_a_demo_loaded_in_an_english_installation_stays_english(settings):
    settings.LANGUAGE_CODE = "en"
    call_command("demo", stdout=io.StringIO())
    assert Tournament.objects.get().name == "Demo Sunday Re-entry"


def test_the_demo_has_a_room_with_its_tables_and_two_dealers_and_its_event_plays_there(settings, director):
    settings.LANGUAGE_CODE = "it"
    call_command("demo", stdout=io.StringIO())
    room = CardRoom.objects.get()
    assert room.name == "Sala principale"
    assert list(room.tables.order_by("number").values_list("number", "seats")) == [(n, 9) for n in range(1, 13)]
    rostered = DealerShift.objects.filter(room=room, starts_at__lte=timezone.now(), ends_at__gt=timezone.now())
    assert sorted(rostered.values_list("dealer__username", flat=True)) == ["dealer", "dealer2"]
    t = Tournament.objects.get()
    lifecycle.start(t, actor=Actor(director), prestart_report_sent=True)
    playing = sorted(Table.objects.filter(tournament=t, in_play=True).values_list("number", flat=True))
    assert playing and sorted(room.tables.filter(held_by=t).values_list("number", flat=True)) == playing


def test_the_readme_names_every_login_and_every_pre_registered_player_the_demo_makes():
    out = io.StringIO()
    call_command("createdirector", if_none=True, stdout=out)  # as ./tdm run does before the demo
    call_command("demo", stdout=out)
    logins = re.findall(r"login created: username=(\S+)", out.getvalue())
    assert len(logins) == 8
    readme = README.read_text(encoding="utf-8")
    assert [name for name in logins if f"| `{name}` |" not in readme] == []
    booked = Entry.objects.filter(status=Entry.RESERVED).select_related("person")
    assert booked.count() == 4
    for entry in booked:
        person = entry.person
        assert f"{person.first_name} {person.last_name} `{person.nickname}`" in readme
        assert f"{person.first_name} {person.last_name} ({person.nickname})" in out.getvalue()
    banned = Person.objects.get(banned=True)
    assert f"banned: {banned.first_name} {banned.last_name}" in readme
    assert len(readme.splitlines()) <= 300
