"""PEN-08: the penalty reason codes are a house setting (``settings.penalty_reasons``): the
built-in list by default; a venue adds a code, renames one or removes one, and the floor's
dialog and API offer exactly that list and refuse a code not on it."""

import pytest
from rest_framework.test import APIClient

from tournaments.cashier import services as cashier
from tournaments.house import check_settings
from tournaments.models import Penalty

pytestmark = pytest.mark.django_db

VENUE = {
    "SLOW_ROLL": {"label": "Slow roll at showdown", "source": "House rule 7"},
    "SOFT_PLAY": {"label": "Playing softly against a friend", "source": "TDA 69"},
    "PHONE_AT_TABLE": None,
}


def floor_api(user):
    api = APIClient()
    api.force_authenticate(user)
    return api


def test_by_default_the_built_in_codes_are_offered(tournament, director):
    offered = {r["code"]: r["label"] for r in floor_api(director).get(f"/api/v1/tournaments/{tournament.pk}/floor/").json()["penalty_reasons"]}
    assert offered["PHONE_AT_TABLE"] == "Using a phone at the table"
    assert offered["SOFT_PLAY"] == "Soft play" and "SLOW_ROLL" not in offered
    assert list(offered)[-1] == "OTHER"


def test_a_venues_added_code_is_offered_and_accepted_and_a_removed_one_refused(tournament, director, make_person, cashier_actor, client):
    entry = cashier.register(tournament, make_person(), method="CASH", actor=cashier_actor).entry
    tournament.settings = {**(tournament.settings or {}), "penalty_reasons": VENUE}
    tournament.save()
    api = floor_api(director)
    offered = {r["code"]: r["label"] for r in api.get(f"/api/v1/tournaments/{tournament.pk}/floor/").json()["penalty_reasons"]}
    assert offered["SLOW_ROLL"] == "Slow roll at showdown"
    assert offered["SOFT_PLAY"] == "Playing softly against a friend"  # renamed
    assert "PHONE_AT_TABLE" not in offered and "DODGING_BLINDS" in offered  # removed; the others stay
    client.force_login(director)
    page = client.get(f"/tournaments/{tournament.pk}/floor/").content.decode()
    assert '<option value="SLOW_ROLL">Slow roll at showdown</option>' in page
    assert 'value="PHONE_AT_TABLE"' not in page
    url = f"/api/v1/tournaments/{tournament.pk}/floor/penalties/"
    r = api.post(url, {"entry": entry.pk, "kind": "WARNING", "reason_code": "SLOW_ROLL"}, format="json")
    assert r.status_code == 201, r.json()
    assert (r.json()["reason_code"], r.json()["reason_label"]) == ("SLOW_ROLL", "Slow roll at showdown")
    r = api.post(url, {"entry": entry.pk, "kind": "WARNING", "reason_code": "PHONE_AT_TABLE"}, format="json")
    assert r.status_code == 400
    body = r.json()
    assert body["code"] == "bad_reason" and "PHONE_AT_TABLE is not one of this tournament's reason codes" in body["detail"]
    assert "reason_code" in body["fields"]
    r = api.post(url, {"entry": entry.pk, "kind": "WARNING", "reason_code": "PHONE_AT_TABLE"}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert "non è uno dei codici di motivo di questo torneo" in r.json()["detail"]
    assert list(Penalty.objects.filter(tournament=tournament).values_list("reason_code", flat=True)) == ["SLOW_ROLL"]


def test_a_built_in_label_is_translated_and_a_venues_label_shown_as_typed(tournament, director):
    tournament.settings = {**(tournament.settings or {}), "penalty_reasons": VENUE}
    tournament.save()
    api = floor_api(director)
    offered = {r["code"]: r["label"] for r in api.get(f"/api/v1/tournaments/{tournament.pk}/floor/", HTTP_ACCEPT_LANGUAGE="it").json()["penalty_reasons"]}
    assert offered["SLOW_ROLL"] == "Slow roll at showdown"
    assert offered["DODGING_BLINDS"] != "Dodging blinds (including when moving from a broken table)"  # Italian


def test_the_setting_is_checked_when_saved():
    assert check_settings({"penalty_reasons": VENUE}) == {}
    assert set(check_settings({"penalty_reasons": {"slow roll": {"label": "x", "source": ""}}})) == {"penalty_reasons"}
    assert set(check_settings({"penalty_reasons": {"SLOW_ROLL": {"label": "", " source": ""}}})) == {"penalty_reasons"}
    assert set(check_settings({"penalty_reasons": {"SLOW_ROLL": {"label": "x"}}})) == {"penalty_reasons"}


def test_role07_a_phone_at_the_table_twice_is_two_penalties_each_named_for_the_phone(tournament, director, make_person, cashier_actor):
    entry = cashier.register(tournament, make_person(), method="CASH", actor=cashier_actor).entry
    url = f"/api/v1/tournaments/{tournament.pk}/floor/penalties/"
    answers = [floor_api(director).post(url, {"entry": entry.pk, "kind": "WARNING", "reason_code": "PHONE_AT_TABLE"}, format="json") for _ in range(2)]
    assert [r.status_code for r in answers] == [201, 201]
    assert [(r.json()["reason_code"], r.json()["reason_label"]) for r in answers] == [("PHONE_AT_TABLE", "Using a phone at the table")] * 2
    assert list(Penalty.objects.filter(tournament=tournament, entry=entry).values_list("reason_code", flat=True)) == ["PHONE_AT_TABLE", "PHONE_AT_TABLE"]
