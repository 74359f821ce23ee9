"""People database and blind structures, through the API."""

import io
import json

import pytest

from tournaments.models import BlindStructure, Person

pytestmark = pytest.mark.django_db


def test_two_letters_find_a_player_by_any_part(api, cashier_user, person, make_person):
    """Any part of a name, nickname or phone; the document only whole (test_people_search)."""
    make_person("Giulia", "Bianchi")
    client = api(cashier_user)
    for q in ("ro", "mar", "SUPER", "ab123456", "333 123", "mario rossi"):
        names = [p["display_name"] for p in client.get("/api/v1/people/", {"q": q}).data]
        assert names == ["Mario Rossi (super)"], q


def test_creating_a_look_alike_warns_and_can_be_confirmed(api, cashier_user, person):
    client = api(cashier_user)
    body = {"first_name": "mario", "last_name": "ROSSI", "phone": "333 000"}
    r = client.post("/api/v1/people/", body, format="json")
    assert r.status_code == 409 and r.data["code"] == "possible_duplicate"
    assert r.data["duplicates"][0]["id"] == person.pk
    r = client.post("/api/v1/people/", {**body, "confirm_duplicate": True}, format="json")
    assert r.status_code == 201 and Person.objects.count() == 2


def test_the_same_document_is_a_duplicate_too(api, cashier_user, person):
    r = api(cashier_user).post("/api/v1/people/", {"first_name": "M", "last_name": "R", "document_id": "ab123456"}, format="json")
    assert r.data["code"] == "possible_duplicate"


def test_only_a_director_bans_and_a_ban_needs_a_reason(api, cashier_user, director, person):
    assert api(cashier_user).post(f"/api/v1/people/{person.pk}/ban/", {"banned": True, "reason": "x"}, format="json").status_code == 403
    r = api(director).post(f"/api/v1/people/{person.pk}/ban/", {"banned": True, "reason": ""}, format="json")
    assert r.status_code == 400 and r.data["code"] == "reason_required"
    r = api(director).post(f"/api/v1/people/{person.pk}/ban/", {"banned": True, "reason": "casino list"}, format="json")
    assert r.data["banned"] is True and r.data["banned_reason"] == "casino list"


def test_three_real_structures_ship_with_the_product(structure):
    names = set(BlindStructure.objects.values_list("name", flat=True))
    assert {n.split(" ")[0] for n in names} >= {"Turbo", "Regular", "Deep"}
    for st in BlindStructure.objects.all():
        levels = [i for i in st.items.all() if not i.is_break]
        assert len(levels) >= 20
        assert all(a.big_blind <= b.big_blind for a, b in zip(levels, levels[1:]))


def test_a_structure_round_trips_through_json_and_csv(api, director, structure):
    client = api(director)
    exported = client.get(f"/api/v1/structures/{structure.pk}/export/", {"format_type": "json"}).content
    doc = json.loads(exported)
    f = io.BytesIO(exported)
    f.name = "copy.json"
    r = client.post("/api/v1/structures/import/", {"file": f, "name": "Copy"}, format="multipart")
    assert r.status_code == 201 and r.data["name"] == "Copy" and len(r.data["items"]) == len(doc["items"])
    csv_text = client.get(f"/api/v1/structures/{structure.pk}/export/", {"format_type": "csv"}).content
    assert csv_text.splitlines()[0] == b"kind,small_blind,big_blind,ante,big_blind_ante,minutes,color_up,game,add_on,removes_denominations"
    f = io.BytesIO(csv_text)
    f.name = "copy.csv"
    r = client.post("/api/v1/structures/import/", {"file": f}, format="multipart")
    assert r.status_code == 201 and [i["big_blind"] for i in r.data["items"]] == [i["big_blind"] for i in doc["items"]]


def test_the_chips_a_break_removes_survive_a_csv_round_trip(api, director):
    """CLK-09: a break that colours up the 25s says so in the CSV, and the imported copy still
    knows which chips it removes."""
    client = api(director)
    body = {
        "name": "Colour-up",
        "items": [
            {"kind": "LEVEL", "small_blind": 25, "big_blind": 50, "minutes": 20},
            {"kind": "BREAK", "minutes": 10, "color_up": "25s out", "removes_denominations": [25, 5]},
            {"kind": "LEVEL", "small_blind": 100, "big_blind": 200, "minutes": 20},
        ],
    }
    r = client.post("/api/v1/structures/", body, format="json")
    assert r.status_code == 201, r.data
    csv_text = client.get(f"/api/v1/structures/{r.data['id']}/export/", {"format_type": "csv"}).content.decode()
    assert csv_text.splitlines()[2].endswith(",5 25")
    f = io.BytesIO(csv_text.encode())
    f.name = "copy.csv"
    copy = client.post("/api/v1/structures/import/", {"file": f, "name": "Copy"}, format="multipart")
    assert copy.status_code == 201
    assert [i["removes_denominations"] for i in copy.data["items"]] == [[], [5, 25], []]


def test_a_bad_structure_is_refused_with_the_row(api, director):
    body = {"name": "Bad", "items": [{"kind": "LEVEL", "small_blind": 200, "big_blind": 100, "minutes": 20}]}
    r = api(director).post("/api/v1/structures/", body, format="json")
    assert r.status_code == 400 and r.data["code"] == "bad_item" and "1" in r.data["detail"]


def test_sb_equal_bb_is_allowed_and_a_falling_ante_warns(api, director):
    items = [
        {"kind": "LEVEL", "small_blind": 100, "big_blind": 100, "ante": 100, "minutes": 10},
        {"kind": "LEVEL", "small_blind": 100, "big_blind": 200, "ante": 50, "minutes": 10},
    ]
    r = api(director).post("/api/v1/structures/", {"name": "HU", "items": items}, format="json")
    assert r.status_code == 201 and len(r.data["warnings"]) == 1


def test_money_fields_lock_once_registration_opens(api, director, tournament):
    client = api(director)
    r = client.patch(f"/api/v1/tournaments/{tournament.pk}/", {"buy_in": "150.00"}, format="json")
    assert r.status_code == 409 and r.data["code"] == "money_fields_locked"
    r = client.patch(f"/api/v1/tournaments/{tournament.pk}/", {"buy_in": "150.00", "override_reason": "typo on the poster"}, format="json")
    assert r.status_code == 200 and r.data["buy_in"] == "150.00"


def test_a_freezeout_cannot_have_reentries(api, director, structure):
    body = {
        "name": "F",
        "start_at": "2026-12-01T20:00:00Z",
        "buy_in": "100",
        "fee": "10",
        "starting_stack": 20000,
        "format": "FREEZEOUT",
        "max_entries_per_player": 3,
        "structure": structure.pk,
    }
    r = api(director).post("/api/v1/tournaments/", body, format="json")
    assert r.status_code == 400 and "max_entries_per_player" in r.data["fields"]


def test_the_openapi_schema_and_docs_are_served(api, director, client):
    r = api(director).get("/api/schema/")
    assert r.status_code == 200 and b"/api/v1/cashier/register/" in r.content
    client.force_login(director)
    assert client.get("/api/docs/").status_code == 200
