"""A bounty event's price is what the desk charges (#39 item 12): buy-in + fee + the bounty part,
on the dashboard, the tournament page, the desk and the API — €100 + €10 + €50 = €160, never
"100,00 + 10,00\u00a0€"."""

from decimal import Decimal

import pytest

pytestmark = pytest.mark.django_db


@pytest.fixture
def pko(make_tournament):
    return make_tournament(name="PKO del venerdì", buy_in=Decimal("100"), fee=Decimal("10"), settings={"bounty": "PKO", "bounty_amount": "50"})


def test_the_pages_and_the_api_give_the_price_the_desk_charges(client, director, api, pko, make_tournament):
    plain = make_tournament(name="Freezeout", buy_in=Decimal("100"), fee=Decimal("10"))
    client.force_login(director)
    for path in ("/", f"/tournaments/{pko.pk}/"):
        html = client.get(path, HTTP_ACCEPT_LANGUAGE="it").content.decode()
        assert "100,00 + 10,00 + 50,00 taglia = 160,00\u00a0€" in html, path
    assert "100,00 + 10,00\u00a0€" in client.get(f"/tournaments/{plain.pk}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    desk = client.get(f"/desk/?t={pko.pk}").content.decode()
    assert 'data-price="160.00"' in desk
    body = api(director).get(f"/api/v1/tournaments/{pko.pk}/").json()
    assert (body["buy_in"], body["fee"], body["bounty_part"], body["entry_price"]) == ("100.00", "10.00", "50.00", "160.00")
    body = api(director).get(f"/api/v1/tournaments/{plain.pk}/").json()
    assert (body["bounty_part"], body["entry_price"]) == ("0.00", "110.00")
