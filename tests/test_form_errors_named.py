"""A refused form names each field in words, in the user's language, with its message (issue #28,
item 9): "Nome: …", "Stack iniziale: Al massimo 1.000.000.000.", never only "Alcuni campi non
sono validi." nor a bound of 2^63; ``fields`` keeps the messages by key."""

import pytest
from django.test import Client

from tests.conftest import tournament_form

pytestmark = pytest.mark.django_db


def post(user, url, body, lang, method="post"):
    client = Client(raise_request_exception=False)
    client.force_login(user)
    r = getattr(client, method)(url, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE=lang)
    assert r.status_code == 400, r.content[:300]
    return r.json()


def test_a_tournament_form_names_its_fields_in_italian_with_a_human_bound(director, tournament):
    body = post(director, f"/api/v1/tournaments/{tournament.id}/", {"name": "   ", "starting_stack": 10**20}, "it", "patch")
    assert body["code"] == "invalid" and set(body["fields"]) == {"name", "starting_stack"}
    assert "Nome: " in body["detail"]
    assert "Stack iniziale: Al massimo 1.000.000.000." in body["detail"]
    assert "9223372036854775807" not in str(body) and "2147483647" not in str(body)
    assert "Alcuni campi" not in body["detail"]


def test_a_tournament_form_names_its_fields_in_english(director, tournament):
    body = post(director, f"/api/v1/tournaments/{tournament.id}/", {"name": "   ", "addon_chips": 10**10}, "en", "patch")
    assert "Name: " in body["detail"] and "Add-on chips: At most 1,000,000,000." in body["detail"]


def test_a_setup_rule_refused_by_the_service_names_its_field(director, tournament):
    body = post(director, f"/api/v1/tournaments/{tournament.id}/", {"table_size": 14}, "it", "patch")
    assert body["fields"] == {"table_size": [body["fields"]["table_size"][0]]}
    assert body["detail"] == "Giocatori per tavolo: " + body["fields"]["table_size"][0]


def test_penalty_rounds_name_the_field(director, tournament, person):
    body = post(
        director, f"/api/v1/tournaments/{tournament.id}/floor/penalties/", {"entry": 1, "kind": "MISSED_ROUNDS", "reason_code": "x", "rounds": 99999}, "it"
    )
    assert "Giri: " in body["detail"] and "rounds" in body["fields"]


def test_an_exchange_rate_of_letters_names_the_rate(director):
    it = post(director, "/api/v1/cashier/exchange-rates/", {"currency": "CHF", "rate": "abc"}, "it")
    assert it["detail"].startswith("Cambio: ") and "rate" in it["fields"]
    en = post(director, "/api/v1/cashier/exchange-rates/", {"currency": "CHF", "rate": "abc"}, "en")
    assert en["detail"].startswith("Rate: ")


def test_a_chip_set_row_is_named_by_its_row_and_column(director):
    body = post(
        director,
        "/api/v1/chipsets/",
        {"name": "", "denominations": [{"value": 25, "colour": "verde", "quantity": 300}, {"value": 100, "colour": "nero", "quantity": 10**12}]},
        "it",
    )
    assert body["detail"] == "Nome: Questo campo non può essere omesso. Tagli, riga 2, Quantità posseduta: Al massimo 1.000.000.000."
    assert body["fields"]["denominations"]


def test_the_tournament_page_reports_every_stage_at_once(director, structure):
    """A blank name (the form's own check) and 14 players a table (a setup rule of the service)
    come back together, each under its field, in Italian: not one stage per submit."""
    client = Client()
    client.force_login(director)
    client.cookies["django_language"] = "it"
    base = {
        "name": "   ",
        "start_at": "2026-07-09T19:00",
        "game": "NLHE",
        "format": "FREEZEOUT",
        "currency": "EUR",
        "buy_in": "100",
        "fee": "10",
        "starting_stack": "30000",
        "table_size": "14",
        "min_players": "2",
        "structure": structure.pk,
        "late_reg_end": "END_OF_LEVEL",
        "max_entries_per_player": "1",
        "rebuy_fee": "0",
        "addon_fee": "0",
        "addon_max": "1",
        "rule_set": "TDA",
        "rebuy_stack_threshold": "0",
    }
    r = client.post("/tournaments/new/", base)
    assert r.status_code == 200
    form = r.context["form"]
    assert set(form.errors) >= {"name", "table_size"}, form.errors
    page = r.content.decode()
    assert "Campo obbligatorio." in page and "FMT-14" in page


def test_the_tournament_page_bounds_a_huge_stack_in_words(director, structure):
    client = Client()
    client.force_login(director)
    client.cookies["django_language"] = "it"
    base = tournament_form(structure.pk, "Grande", starting_stack=str(10**20))
    r = client.post("/tournaments/new/", base)
    assert r.status_code == 200
    assert r.context["form"].errors["starting_stack"] == ["Al massimo 1.000.000.000."]
    assert "9223372036854775807" not in r.content.decode() and "2147483647" not in r.content.decode()


def test_a_field_without_a_label_of_its_own_is_named_from_the_glossary(director, tournament):
    """A plain serializer's field (DRF would say "Seconds" in English) and a model field whose
    verbose name reads like its name ("Rebuy chips") are named in Italian too."""
    body = post(director, f"/api/v1/tournaments/{tournament.id}/clock/add-time/", {"seconds": "abc"}, "it")
    assert body["detail"].startswith("Secondi: "), body["detail"]
    body = post(director, f"/api/v1/tournaments/{tournament.id}/", {"rebuy_chips": -5}, "it", "patch")
    assert body["detail"].startswith("Chip del rebuy: "), body["detail"]


def test_the_tournament_api_reports_every_stage_at_once(director, tournament):
    """A blank name (the serializer) and 14 players a table (the setup service) in one answer."""
    body = post(director, f"/api/v1/tournaments/{tournament.id}/", {"name": " ", "table_size": 14}, "it", "patch")
    assert set(body["fields"]) == {"name", "table_size"}
    assert body["detail"].startswith("Nome: ") and "Giocatori per tavolo: " in body["detail"]


def test_the_tournament_page_names_a_refused_field_in_words(director, tournament):
    client = Client()
    client.force_login(director)
    client.cookies["django_language"] = "it"
    r = client.post(f"/tournaments/{tournament.id}/", {"op": "save-template", "template_name": "  "}, follow=True)
    shown = [str(m) for m in r.context["messages"]]
    assert shown == ["Nome: Dai un nome al modello."], shown
