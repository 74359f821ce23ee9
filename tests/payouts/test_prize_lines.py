"""The payout table's lines as the director types them, in either language: amounts written the
Italian way ("1.234,50", "800,00") or the English way, the prize kind by its code or by its word
in the page's language; the page writes them back the way it reads them."""

from decimal import Decimal

import pytest
from django.utils import translation

from payouts.views import parse_amount, parse_prize_lines, prize_lines
from tdmanager.errors import DomainError


@pytest.mark.parametrize(
    "text, amount",
    [
        ("1.234,50", "1234.50"),
        ("1,234.50", "1234.50"),
        ("800,00", "800"),
        ("800.00", "800"),
        ("1500", "1500"),
        ("1.500", "1500"),
        ("12.345.678,9", "12345678.9"),
        ("0", "0"),
    ],
)
def test_amounts_in_either_language(text, amount):
    assert parse_amount(text) == Decimal(amount)


@pytest.mark.parametrize("text", ["abc", "1..2", "-5", "1,2,", "1.2345", "800,"])
def test_what_is_not_an_amount_is_refused(text):
    with pytest.raises(ValueError):
        parse_amount(text)
    with pytest.raises(DomainError):
        parse_prize_lines(f"1 {text}")


def test_italian_lines_round_trip():
    with translation.override("it"):
        prizes = parse_prize_lines("1 1.200,50\n2 400,00 oggetto Cena per due\n3 0 POSTO Main Event\n4 50 contanti")
        assert [(p["place"], p["kind"], p["amount"], p["description"]) for p in prizes] == [
            (1, "CASH", Decimal("1200.50"), ""),
            (2, "ITEM", Decimal("400.00"), "Cena per due"),
            (3, "SEAT", Decimal("0"), "Main Event"),
            (4, "CASH", Decimal("50"), ""),
        ]
        text = prize_lines(prizes)
        assert text == "1 1.200,50\n2 400,00 OGGETTO Cena per due\n3 0,00 POSTO Main Event\n4 50,00"
        assert parse_prize_lines(text) == prizes
    with translation.override("en"):
        assert prize_lines(prizes) == "1 1,200.50\n2 400.00 ITEM Cena per due\n3 0.00 SEAT Main Event\n4 50.00"
        assert [p["kind"] for p in parse_prize_lines("1 10 ITEM x\n2 10 oggetto")] == ["ITEM", "CASH"]  # Italian words only in Italian
