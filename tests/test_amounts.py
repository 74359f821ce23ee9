"""One way to write an amount (#40 item 10): plain decimal digits as text, or a whole JSON
number; nothing ``Decimal`` would also take ("3_00", "+300", "3e2", fullwidth digits), no
binary float. Refused with a 400 naming the field, and the schema says exactly what is taken."""

import json
from decimal import Decimal

import pytest

from tdmanager.money import plain_amount
from tests.fuzz import openapi_schema

LOOSE = ["3_00", "３００", "+300", "3e2", " 300", "300 ", "1.", ".5", "1,000.00", "1.000,00", "0x10", "NaN", "Infinity", "", "١٢٣"]


@pytest.mark.parametrize("text", LOOSE)
def test_what_decimal_would_take_is_not_an_amount(text):
    assert plain_amount(text) is None


def test_plain_digits_are_amounts_with_the_readers_mark():
    assert plain_amount("300") == Decimal("300") and plain_amount("-12.50") == Decimal("-12.50")
    assert plain_amount("12,50") is None and plain_amount("12,50", ".,") == Decimal("12.50")
    assert plain_amount("12.50", ".,") == Decimal("12.50")
    assert plain_amount(300) is None  # not a text


@pytest.mark.django_db
@pytest.mark.parametrize("value", [*LOOSE, 300.5, 3e2, True, None, [], {}])
def test_the_api_refuses_a_loose_amount_naming_the_field(api, director, value):
    r = api(director).put("/api/v1/jackpot/", {"base": value}, format="json")
    assert r.status_code == 400 and set(r.json()["fields"]) == {"base"}, r.json()


@pytest.mark.django_db
def test_a_loose_buy_in_changes_nothing(api, director, tournament):
    before = tournament.buy_in
    r = api(director).patch(f"/api/v1/tournaments/{tournament.pk}/", {"buy_in": "1_00"}, format="json")
    assert r.status_code == 400 and "buy_in" in r.json()["fields"]
    tournament.refresh_from_db()
    assert tournament.buy_in == before


@pytest.mark.django_db
@pytest.mark.parametrize(("value", "stored"), [("1000", "1000.00"), ("1000.5", "1000.50"), (1000, "1000.00"), ("0", "0.00")])
def test_plain_amounts_are_taken(api, director, value, stored):
    r = api(director).put("/api/v1/jackpot/", {"base": value}, format="json")
    assert r.status_code == 200, r.json()
    assert api(director).get("/api/v1/jackpot/").json()["fund"]["base"] == stored


def test_the_schema_says_what_is_taken():
    schema = json.loads(json.dumps(openapi_schema(), default=str))
    base = schema["components"]["schemas"]["JackpotBaseIn"]["properties"]["base"]
    text, number = base["oneOf"]
    assert number == {"type": "integer"} and text["type"] == "string"
    import re

    pattern = re.compile(text["pattern"])
    for loose in LOOSE:
        assert not pattern.search(loose), loose
    assert pattern.search("1000.50") and not pattern.search("1000.505")  # two decimals, as stored


@pytest.mark.parametrize(
    ("language", "typed", "read"),
    [("it", "12,50", Decimal("12.50")), ("it", "12.50", Decimal("12.50")), ("en", "12.50", Decimal("12.50")), ("en", " 7 ", Decimal("7"))],
)
def test_a_page_reads_an_amount_in_the_readers_language(language, typed, read):
    from django.utils import translation

    from tournaments.setup.views import TournamentForm

    with translation.override(language):
        assert TournamentForm.base_fields["jackpot_fee"].clean(typed) == read


@pytest.mark.parametrize("typed", ["3_00", "３００", "+300", "3e2", "1.000,00", "12,50"])
def test_a_page_refuses_a_loose_amount_as_the_api_does(typed):
    from django.core.exceptions import ValidationError
    from django.utils import translation

    from tournaments.setup.views import TournamentForm

    with translation.override("en"), pytest.raises(ValidationError):
        TournamentForm.base_fields["buy_in"].clean(typed)


@pytest.mark.django_db
@pytest.mark.parametrize("value", [*LOOSE, 300.5, 3e2, True, [], {}])
def test_the_formats_api_reads_an_amount_the_one_way(api, director, structure, value):
    """The formats' own endpoints (here a sit & go's creation) read amounts as every other one does."""
    body = {"name": "SNG", "buy_in": value, "fee": "10", "starting_stack": 10000, "structure": structure.pk}
    r = api(director).post("/api/v1/formats/sit-and-go/", body, format="json")
    assert r.status_code == 400 and "buy_in" in r.json()["detail"], r.json()


@pytest.mark.django_db
@pytest.mark.parametrize(("value", "stored"), [("100", "100.00"), ("99.50", "99.50"), (100, "100.00")])
def test_the_formats_api_takes_plain_amounts(api, director, structure, value, stored):
    from tournaments.models import Tournament

    body = {"name": "SNG", "buy_in": value, "fee": "10", "starting_stack": 10000, "structure": structure.pk}
    r = api(director).post("/api/v1/formats/sit-and-go/", body, format="json")
    assert r.status_code == 201, r.json()
    assert str(Tournament.objects.get(name="SNG").buy_in) == stored
