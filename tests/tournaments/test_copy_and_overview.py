"""Several events at once (issue #14): a new tournament as a copy of an earlier one or of a
saved template, through the setup service (the fee rule, the validation, its own structure),
and the floor overview of every running tournament."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import timezone

from seating import services as seating
from seating.models import PendingMove
from tournaments.clock import services as clock_services
from tournaments.floor.overview import running_overview
from tournaments.models import StructureItem, Tournament, TournamentEvent, TournamentTemplate
from tournaments.setup import services as setup

from ..seating.test_support import arrange, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

TOMORROW = timezone.now() + timedelta(days=1)


def original(actor, structure, **kw):
    values = dict(
        name="Friday Deepstack",
        start_at=timezone.now() + timedelta(hours=2),
        buy_in=Decimal("200"),
        starting_stack=40000,
        table_size=8,
        structure=structure,
        format=Tournament.REENTRY,
        max_entries_per_player=3,
        reentry_until_level=6,
        late_reg_closes_after_level=6,
        guarantee=Decimal("5000"),
        settings={"break_order": "HIGHEST_FIRST"},
    )
    values.update(kw)
    return setup.create_tournament(values, actor=actor)


def test_a_copy_takes_the_setup_and_gets_its_own_structure(actor, structure):
    src = original(actor, structure)
    src.settings = {**src.settings, "streaming_live": True}
    src.save()
    copy = setup.copy_tournament(src, name="Friday Deepstack #2", start_at=TOMORROW, actor=actor)
    assert copy.pk != src.pk and copy.status == Tournament.PLANNED and copy.name == "Friday Deepstack #2"
    for field in (
        "buy_in",
        "fee",
        "starting_stack",
        "table_size",
        "format",
        "max_entries_per_player",
        "reentry_until_level",
        "late_reg_closes_after_level",
        "guarantee",
        "currency",
    ):
        assert getattr(copy, field) == getattr(src, field), field
    assert copy.fee == Decimal("20.00")  # REG-03: 10 % of the buy-in, computed again
    assert copy.settings == {"break_order": "HIGHEST_FIRST"}  # house rules, not the original's running state
    assert copy.structure_id != src.structure_id and not copy.structure.is_template
    levels = lambda st: list(st.items.order_by("position").values_list("kind", "small_blind", "big_blind", "ante", "minutes"))  # noqa: E731
    assert levels(copy.structure) == levels(src.structure)
    StructureItem.objects.filter(structure=copy.structure, position=0).update(minutes=99)
    assert levels(src.structure)[0][4] != 99  # changing the copy's structure leaves the original's alone
    event = TournamentEvent.objects.get(tournament=copy, action="tournaments.tournament.copied")
    assert event.payload["source"] == src.pk


def test_a_copy_keeps_a_fee_override_logged_as_one(actor, structure):
    src = setup.create_tournament(
        dict(
            name="Daily 50",
            start_at=timezone.now() + timedelta(hours=2),
            buy_in=Decimal("50"),
            starting_stack=20000,
            structure=structure,
            settings={"fee_override": "20"},
        ),
        actor=actor,
        override_reason="daily events",
    )
    assert src.fee == Decimal("20.00")
    copy = setup.copy_tournament(src, name="Daily 50 (Tuesday)", start_at=TOMORROW, actor=actor)
    assert copy.fee == Decimal("20.00")
    logged = TournamentEvent.objects.get(tournament=copy, action="tournaments.fee.overridden")
    assert "Daily 50" in logged.payload["reason"]


def test_a_copy_is_validated_like_any_new_tournament(actor, structure, api, director):
    src = original(actor, structure)
    r = api(director).post(f"/api/v1/tournaments/{src.pk}/copy/", {"name": "", "start_at": TOMORROW.isoformat()}, format="json")
    assert r.status_code == 400 and r.json()["code"]
    r = api(director).post(f"/api/v1/tournaments/{src.pk}/copy/", {"name": "Year 426", "start_at": "0426-01-01T20:00:00Z"}, format="json")
    assert r.status_code == 400 and "start_at" in str(r.json())
    assert Tournament.objects.count() == 1


def test_the_api_copies_saves_a_template_and_creates_from_it(actor, structure, api, director, cashier_user):
    src = original(actor, structure)
    r = api(director).post(f"/api/v1/tournaments/{src.pk}/copy/", {"name": "Copy", "start_at": TOMORROW.isoformat()}, format="json")
    assert r.status_code == 201 and r.json()["name"] == "Copy" and r.json()["buy_in"] == "200.00"
    assert api(cashier_user).post(f"/api/v1/tournaments/{src.pk}/copy/", {"name": "X", "start_at": TOMORROW.isoformat()}, format="json").status_code == 403
    r = api(director).post(f"/api/v1/tournaments/{src.pk}/save-template/", {"name": "Deepstack 200"}, format="json")
    assert r.status_code == 201
    template = TournamentTemplate.objects.get(pk=r.json()["id"])
    assert template.structure_id not in (None, src.structure_id)
    again = api(director).post(f"/api/v1/tournaments/{src.pk}/save-template/", {"name": "deepstack 200"}, format="json")
    assert again.status_code == 400 and again.json()["code"] == "template_exists"
    # The original changes later: the template keeps what was saved.
    setup.update_tournament(src, {"starting_stack": 50000}, actor=actor)
    assert [t["name"] for t in api(director).get("/api/v1/tournament-templates/").json()] == ["Deepstack 200"]
    r = api(director).post(
        f"/api/v1/tournament-templates/{template.pk}/create-tournament/", {"name": "Deepstack (from template)", "start_at": TOMORROW.isoformat()}, format="json"
    )
    assert r.status_code == 201
    made = Tournament.objects.get(pk=r.json()["id"])
    assert made.starting_stack == 40000 and made.fee == Decimal("20.00") and made.structure_id != template.structure_id
    assert list(made.structure.items.values_list("big_blind", flat=True)) == list(template.structure.items.values_list("big_blind", flat=True))


def test_the_floor_overview_lists_every_running_tournament(started, actor, make_tournament, api, floor_user, cashier_user):
    a = started(18, table_size=10, name="Main Event")
    arrange(a, {1: range(1, 11), 2: range(1, 9)}, big_blinds={1: (3, 2), 2: (5, 4)})
    seating.set_big_blind(a, 1, 3, previous_big_blind_seat=2, actor=actor, reason="confirmed")
    assert PendingMove.objects.filter(tournament=a, status=PendingMove.PROPOSED).count() == 1
    clock_services.start_clock(a, actor=actor)
    b = started(20, table_size=10, name="Turbo", late_reg_closes_after_level=4)
    arrange(b, {1: range(1, 11), 2: range(1, 8), 3: range(1, 4)})  # tables 2 and 3 three or more short: halted (BAL-02)
    clock_services.start_clock(b, actor=actor)
    clock_services.start_hand_for_hand(b, actor=actor, reason="bubble")
    make_tournament(name="Tomorrow")  # not running: not listed
    data = running_overview()
    rows = {r["name"]: r for r in data["tournaments"]}
    assert set(rows) == {"Main Event", "Turbo"}
    main, turbo = rows["Main Event"], rows["Turbo"]
    assert (main["players_left"], main["tables"], main["moves_pending"], main["halted_tables"]) == (18, 2, 1, [])
    assert main["clock"]["status"] == "RUNNING" and main["clock"]["level_number"] == 1 and main["clock"]["seconds_left"] > 0
    assert not main["hand_for_hand"] and turbo["hand_for_hand"]
    assert turbo["tables"] == 3 and turbo["halted_tables"] == [2, 3] and turbo["late_registration_open"] is True
    assert main["url"] == f"/tournaments/{a.pk}/" and main["tables_url"] == f"/tournaments/{a.pk}/tables/"
    assert data["players_left"] == 38 and data["moves_pending"] >= 1
    r = api(floor_user).get("/api/v1/tournaments/overview/")
    assert r.status_code == 200 and {t["name"] for t in r.json()["tournaments"]} == {"Main Event", "Turbo"}
    assert api(cashier_user).get("/api/v1/tournaments/overview/").status_code == 403


def test_the_pages_copy_save_a_template_create_from_it_and_show_the_overview(actor, structure, director, floor_user, started):
    src = original(actor, structure)
    client = Client()
    client.force_login(director)
    html = client.get(f"/tournaments/{src.pk}/").content.decode()
    assert 'id="copy-form"' in html and 'value="save-template"' in html
    r = client.post(f"/tournaments/{src.pk}/", {"op": "copy", "name": "Friday Deepstack II", "start_at": "2030-05-03T20:30"})
    copy = Tournament.objects.get(name="Friday Deepstack II")
    assert r.status_code == 302 and r["Location"] == f"/tournaments/{copy.pk}/"
    assert timezone.localtime(copy.start_at).strftime("%Y-%m-%d %H:%M") == "2030-05-03 20:30" and copy.buy_in == src.buy_in
    r = client.post(f"/tournaments/{src.pk}/", {"op": "copy", "name": "No date", "start_at": ""}, follow=True)
    assert "Give the start date and time." in r.content.decode() and not Tournament.objects.filter(name="No date").exists()
    client.post(f"/tournaments/{src.pk}/", {"op": "save-template", "template_name": "Deepstack"})
    template = TournamentTemplate.objects.get(name="Deepstack")
    assert "Deepstack" in client.get("/tournaments/templates/").content.decode()
    r = client.post("/tournaments/templates/", {"template": template.pk, "name": "Deepstack Saturday", "start_at": "2030-05-04T18:00"})
    made = Tournament.objects.get(name="Deepstack Saturday")
    assert r["Location"] == f"/tournaments/{made.pk}/" and made.starting_stack == src.starting_stack
    running = started(4, name="Running now")
    floor = Client()
    floor.force_login(floor_user)
    page = floor.get("/tournaments/overview/").content.decode()
    assert f'href="/tournaments/{running.pk}/"' in page and "Friday Deepstack II" not in page
