"""A break's note in the reader's language (issue #14, CLK-09): the shipped structures say which
chips each break removes, the pages say it in the reader's language, a director's note stays
as typed; databases holding the shipped English notes get the chips instead (migration 0022)."""

import importlib
import json
from datetime import timedelta

import pytest
from django.apps import apps
from django.utils import timezone, translation

from tournaments import labels
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.live.snapshot import build_snapshot
from tournaments.models import BlindStructure, StructureItem, Tournament
from tournaments.setup import lifecycle
from tournaments.structures.services import builtin_structure_files

pytestmark = pytest.mark.django_db
T0 = timezone.now().replace(microsecond=0) + timedelta(days=1)
# The Regular structure: 4 levels of 20', a break, 4 more levels, then the break that removes the T100s.
IN_THE_T100_BREAK = T0 + timedelta(minutes=4 * 20 + 15 + 4 * 20 + 1)
ENGLISH = "Colour-up: T100 chips leave the table"
ITALIAN = "Cambio fiches: si tolgono le fiches da T100"


@pytest.fixture
def running(make_tournament, make_person, actor, cashier_actor):
    t = make_tournament()
    for _ in range(3):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    lifecycle.start(t, actor=actor)
    clock_services.start_clock(t, actor=actor, now=T0)
    return Tournament.objects.get(pk=t.pk)  # started: its own copy of the structure


def test_the_shipped_files_name_the_chips_and_carry_no_english_note():
    for path in builtin_structure_files():
        items = json.loads(path.read_text())["items"]
        assert all(not it["color_up"] for it in items), path.name
        assert any(it.get("removes_denominations") for it in items if it["kind"] == "BREAK"), path.name


def test_the_migrated_templates_have_the_chips_and_no_english_note():
    """The test database is built by the migrations (0002, then 0022): as a fresh install is."""
    shipped = sorted(json.loads(p.read_text())["name"] for p in builtin_structure_files())
    templates = list(BlindStructure.objects.filter(is_template=True, name__in=shipped))
    assert sorted(st.name for st in templates) == shipped and shipped  # every shipped structure is installed
    for st in templates:
        breaks = list(st.items.filter(kind=StructureItem.BREAK).order_by("position"))
        assert not any(b.color_up for b in breaks), st.name
        assert [100] in [b.removes_denominations for b in breaks], st.name


def test_a_shipped_break_says_its_colour_up_in_the_readers_language(running, client, director):
    clock = build_snapshot(running, now=IN_THE_T100_BREAK)["clock"]
    assert clock["is_break"] and clock["removes_denominations"] == [100] and clock["color_up"] == ""
    item = running.structure.items.get(position=clock["item_index"])
    with translation.override("it"):
        assert labels.break_note(item) == ITALIAN
    with translation.override("en"):
        assert labels.break_note(item) == ENGLISH
    client.force_login(director)
    page = client.get(f"/tournaments/{running.pk}/clock/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert ITALIAN in page and "Color up" not in page and ENGLISH not in page
    # The script's message for a break that comes live (static/live.js TDMFormat.colourUp).
    assert "Cambio fiches: si tolgono le fiches da {chips}" in page
    page = client.get(f"/tournaments/{running.pk}/clock/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert ENGLISH in page and ITALIAN not in page


def test_the_next_break_names_its_chips_too(running):
    clock = build_snapshot(running, now=T0 + timedelta(minutes=4 * 20 + 15 + 3 * 20 + 1))["clock"]
    assert clock["next"]["kind"] == "break" and clock["next"]["removes_denominations"] == [100]


def test_several_denominations_are_named_in_the_readers_language():
    item = StructureItem(kind=StructureItem.BREAK, minutes=10, removes_denominations=[25, 100, 500])
    with translation.override("it"):
        assert labels.break_note(item) == "Cambio fiches: si tolgono le fiches da T25, T100 e T500"
    with translation.override("en"):
        assert labels.break_note(item) == "Colour-up: T25, T100 and T500 chips leave the table"
    assert labels.break_note(StructureItem(kind=StructureItem.BREAK, minutes=10)) == ""


def test_a_note_typed_by_the_director_stays_as_typed(running, actor):
    item = running.structure.items.get(position=9)
    item.color_up = "Race off the T100s at table 1"
    item.save()
    clock = build_snapshot(running, now=IN_THE_T100_BREAK)["clock"]
    assert clock["color_up"] == "Race off the T100s at table 1"
    with translation.override("it"):
        assert labels.break_note(item) == "Race off the T100s at table 1"
    clock_services.sweep(now=IN_THE_T100_BREAK)
    ev = running.events.filter(action="tournaments.colorup.announced").get()
    assert ev.payload["note"] == "Race off the T100s at table 1" and ev.payload["denominations"] == [100]


def test_the_migration_replaces_only_the_shipped_english_notes(structure):
    st = BlindStructure.objects.create(name="Old copy", is_template=False)
    rows = [
        StructureItem(structure=st, position=0, kind="BREAK", minutes=10, color_up="Color up the T100 chips"),
        StructureItem(structure=st, position=1, kind="BREAK", minutes=10, color_up="Color up the T500 chips", removes_denominations=[500]),
        # The same text but other chips named: the director meant something, it stays.
        StructureItem(structure=st, position=2, kind="BREAK", minutes=10, color_up="Color up the T50 chips", removes_denominations=[25]),
        StructureItem(structure=st, position=3, kind="BREAK", minutes=10, color_up="Color up the T100 chips, then dinner"),
        StructureItem(structure=st, position=4, kind="BREAK", minutes=10, color_up="Colour-up: T5 out", removes_denominations=[5]),
    ]
    StructureItem.objects.bulk_create(rows)
    # A shipped template as an old database holds it: the English note, no chips.
    shipped = structure.items.get(position=9)
    StructureItem.objects.filter(pk=shipped.pk).update(color_up="Color up the T100 chips", removes_denominations=[])
    importlib.import_module("tournaments.migrations.0022_break_notes_from_denominations").forwards(apps, None)
    got = [(it.color_up, it.removes_denominations) for it in st.items.order_by("position")]
    assert got == [
        ("", [100]),
        ("", [500]),
        ("Color up the T50 chips", [25]),
        ("Color up the T100 chips, then dinner", []),
        ("Colour-up: T5 out", [5]),
    ]
    shipped.refresh_from_db()
    assert (shipped.color_up, shipped.removes_denominations) == ("", [100])
