"""Money in is read in whole cents on every database: SQLite adds a DECIMAL column as floats
(15 significant digits), so the sum of many fees of 2.20 came back as 85.8000000000001 and a
GROSS satellite's seats (``satellite_awards``, "amounts must be whole cents") made every page
reading its prizes fail. Found by the simulator (day seed 900004, 30 days from 900000)."""

from decimal import Decimal

import pytest

from payouts import selectors as sel
from payouts import services
from tournaments.cashier import services as cashier
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
D = Decimal


def test_a_satellite_of_many_small_fees_reads_its_seats(make_tournament, make_person, cashier_actor, actor):
    target = make_tournament(name="Rebuy", buy_in=D("100"), fee=D("10"))
    sat = make_tournament(name="Satellite", buy_in=D("22"), fee=D("2.20"), format=Tournament.SATELLITE)
    services.link_satellite(sat, target, actor=actor, prize_base="GROSS")
    sales = [cashier.register(sat, make_person(), method="CASH", actor=cashier_actor) for _ in range(39)]
    cashier.refund(sales[0].entry, reason="left before the start", actor=cashier_actor)
    got = sel.money_in(sat)
    assert got["fee"] == D("83.60") and got["fee"].as_tuple().exponent == -2
    assert sel.satellite_pool(sat) == D("919.60")
    assert [a.seat for a in sel.satellite_awards(sat)].count(True) == 8  # 919.60 buys 8 seats of 110
    sel.dues(sat)  # the prizes are read without an error
