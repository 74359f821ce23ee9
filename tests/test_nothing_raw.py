"""Issue #14, "nothing raw": every stored code a page or the API shows has a label (penalty types
and reasons, statuses, payment methods, ledger kinds), levels are named as players say them,
numbers and money follow the active language, the chip race is entered as the floor counts it."""

from decimal import Decimal

import pytest
from django.utils import translation

from tdmanager import formatting
from tournaments import labels
from tournaments.cashier import services as cashier
from tournaments.clock import selectors as clock_selectors
from tournaments.floor import penalties
from tournaments.floor import services as floor
from tournaments.models import ChipRaceRecord, StructureItem, Tournament


@pytest.mark.parametrize("lang", ["en", "it"])
def test_every_penalty_type_and_reason_has_a_label_and_never_its_code(lang):
    with translation.override(lang):
        kinds = dict(labels.penalty_kinds())
        reasons = dict(labels.penalty_reasons())
    assert set(kinds) == set(penalties.PENALTY_TYPES) and set(reasons) == set(penalties.REASON_CODES)
    for code, label in {**kinds, **reasons}.items():
        assert label and label != code and "_" not in label, (code, label)
    if lang == "it":
        assert kinds["MISSED_ROUNDS"] == "Giri saltati" and reasons["ABUSIVE_CONDUCT"] == "Condotta offensiva, insulti"
        assert list(reasons)[-1] == "OTHER"


def test_code_labels_cover_every_choice_a_page_meets():
    with translation.override("it"):
        m = labels.code_labels()
    assert m["method"]["CASH"] == "Contanti" and m["ledger_kind"]["BUY_IN"] != "BUY_IN"
    assert m["clock_status"]["HAND_FOR_HAND"] == "Mano per mano" and m["clock_status"]["NOT_STARTED"] == "Non avviato"
    assert set(m["entry_status"]) == {"RESERVED", "ACTIVE", "BUSTED", "CANCELLED"}
    assert all(v and "_" not in v for group in m.values() for v in group.values())


def test_levels_are_named_as_players_say_them():
    L, B = StructureItem.LEVEL, StructureItem.BREAK
    items = [StructureItem(kind=k, minutes=20) for k in (L, L, L, L, B, L, L, L, L, L, B)]
    with translation.override("en"):
        names = clock_selectors.item_names(items)
    assert names[0] == "Level 1" and names[4] == "Break after level 4" and names[9] == "Level 9" and names[10] == "Break after level 9"
    with translation.override("it"):
        assert clock_selectors.item_names([StructureItem(kind=B, minutes=5), StructureItem(kind=L, minutes=20)]) == ["Pausa prima del livello 1", "Livello 1"]


def test_numbers_and_money_follow_the_language():
    with translation.override("en"):
        assert formatting.num(12500) == "12,500" and formatting.money(Decimal("2250"), "EUR") == "€2,250.00"
    with translation.override("it"):
        assert formatting.num(12500) == "12.500" and formatting.money("2250.5", "EUR") == "2.250,50\u00a0€"
    assert formatting.num(None) == "" and formatting.money("", "EUR") == ""


@pytest.fixture
def seated_four(make_tournament, make_person, cashier_actor):
    t = make_tournament(status=Tournament.RUNNING)
    entries = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(4)]
    return t, entries


@pytest.mark.django_db
def test_the_chip_race_api_takes_stacks_and_the_removed_colour_and_exchanges_them(api, floor_user, seated_four):
    t, _ = seated_four
    c = api(floor_user)
    body = {
        "table": 1,
        "removed_denomination": 25,
        "new_denomination": 100,
        "winners": [1, 2],
        "players": [
            {"seat": 1, "stack": 30000, "removed_value": 75},
            {"seat": 2, "stack": 30000, "removed_value": 50},
            {"seat": 3, "stack": 30000, "removed_value": 25},
            {"seat": 4, "stack": 30000, "removed_value": 0},
        ],
    }
    r = c.post(f"/api/v1/tournaments/{t.pk}/floor/race/", body, format="json")
    assert r.status_code == 201, r.content
    final = r.json()["result"]["final_stacks"]
    assert final == {"1": 30025, "2": 30050, "3": 29975, "4": 30000}
    assert r.json()["result"]["added_value"] == 50
    rec = ChipRaceRecord.objects.get(tournament=t)
    assert rec.result["total_odd_value"] == 150


@pytest.mark.django_db
@pytest.mark.parametrize(
    "player, field",
    [
        ({"seat": 1, "stack": 100, "removed_value": 500}, "removed colour"),
        ({"seat": 1, "stack": 100}, "stack"),
    ],
)
def test_a_chip_race_that_cannot_be_is_a_400_that_says_why(api, floor_user, seated_four, player, field):
    t, _ = seated_four
    r = api(floor_user).post(
        f"/api/v1/tournaments/{t.pk}/floor/race/", {"table": 1, "removed_denomination": 25, "new_denomination": 100, "players": [player]}, format="json"
    )
    assert r.status_code == 400 and "code" in r.json() and field in str(r.json())
    assert not ChipRaceRecord.objects.filter(tournament=t).exists()


@pytest.mark.django_db
def test_penalties_carry_their_labels_in_the_api_and_on_the_person_page(api, floor_user, director, client, seated_four, actor):
    t, entries = seated_four
    floor.issue_penalty(t, entries[0], actor=actor, kind="MISSED_HANDS", reason_code="SOFT_PLAY", hands=3)
    r = api(floor_user).get(f"/api/v1/tournaments/{t.pk}/floor/penalties/", HTTP_ACCEPT_LANGUAGE="it")
    p = r.json()[0]
    assert p["kind_label"] == "Mani saltate" and p["reason_label"] == "Soft play" and p["status_label"] == "In corso"
    client.force_login(director)
    page = client.get(f"/people/{entries[0].person_id}/").content.decode()
    assert "Missed hands" in page and "Soft play" in page and "MISSED_HANDS" not in page and "SOFT_PLAY" not in page
    floor_page = client.get(f"/tournaments/{t.pk}/floor/").content.decode()
    assert ">Missed rounds<" in floor_page and ">Soft play<" in floor_page and ">SOFT_PLAY<" not in floor_page


@pytest.mark.django_db
def test_money_on_the_tournament_page_and_the_receipt_follows_the_language(make_tournament, person, cashier_actor, director, client):
    from tournaments.cashier import receipts

    t = make_tournament(buy_in=Decimal("2000"), fee=Decimal("250"), starting_stack=50000)
    sale = cashier.register(t, person, method="CARD", actor=cashier_actor)
    client.force_login(director)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "2,000.00 + €250.00" in page and "50,000" in page
    client.cookies["django_language"] = "it"
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "2.000,00 + 250,00\u00a0€" in page and "50.000" in page and "2250.00" not in page
    receipt = client.get(f"/desk/receipt/{sale.row.receipt_number}/").content.decode()
    assert 'id="receipt-total">2.250,00\u00a0€' in receipt
    with translation.override("it"):
        lines = dict(receipts.receipt_lines(sale.row))
    assert lines["Totale"] == "2.250,00\u00a0€" and lines["Chip"] == "50.000"


@pytest.mark.django_db
def test_the_structure_tables_name_levels_and_breaks_and_have_headers(client, director, make_tournament):
    t = make_tournament()
    client.force_login(director)
    for url in ("/structures/", f"/tournaments/{t.pk}/clock/"):
        page = client.get(url).content.decode()
        assert "<th>Level</th>" in page and ">Level 5</th>" in page and ">Break after level 4</th>" in page, url


@pytest.mark.django_db
def test_the_clock_page_names_its_presets_and_passes_the_status_labels(client, director, make_tournament):
    t = make_tournament()
    client.force_login(director)
    client.cookies["django_language"] = "it"
    page = client.get(f"/tournaments/{t.pk}/clock/").content.decode()
    assert ">Regole TDA (25+5 s)<" in page and ">HEADS_UP" not in page
    assert '"NOT_STARTED": "Non avviato"' in page and '"HAND_FOR_HAND": "Mano per mano"' in page
