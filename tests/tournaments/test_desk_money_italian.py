"""Issue #28, money at the desk (items 1–3) without a browser: the Italian desk page carries
machine numbers in its data attributes, the rate of the day is typed the Italian way, and the
shift shows per currency what is in the drawer (the euros apart from the foreign notes)."""

from decimal import Decimal

import pytest
from django.conf import settings

from tournaments.cashier import services as cashier
from tournaments.cashier.selectors import shift_totals
from tournaments.models import ExchangeRate, LedgerRow

D = Decimal
pytestmark = pytest.mark.django_db


@pytest.fixture
def rates(actor):
    cashier.set_exchange_rate("USD", D("0.92"), actor=actor)
    cashier.set_exchange_rate("CHF", D("1.05"), actor=actor)


def italian(client, user):
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "it"
    return client


def test_the_italian_desk_gives_the_script_a_price_it_can_read(client, cashier_user, tournament):
    page = italian(client, cashier_user).get(f"/desk/?t={tournament.pk}").content.decode()
    assert '<html lang="it"' in page
    assert 'data-price="110.00"' in page and 'data-price="110,00"' not in page


def test_the_rate_is_typed_in_the_readers_language(api, director):
    c = api(director)
    r = c.post("/api/v1/cashier/exchange-rates/", {"currency": "CHF", "rate": "1,07"}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 201, r.json()
    assert ExchangeRate.objects.get(currency="CHF").rate == D("1.07")
    r = c.post("/api/v1/cashier/exchange-rates/", {"currency": "USD", "rate": "0.92"}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 201 and ExchangeRate.objects.get(currency="USD").rate == D("0.92")  # a dot still reads as decimals
    r = c.post("/api/v1/cashier/exchange-rates/", {"currency": "USD", "rate": 0.93}, format="json")
    assert r.status_code == 400 and "rate" in r.json()["fields"]  # a JSON fraction is a binary float: refused
    r = c.post("/api/v1/cashier/exchange-rates/", {"currency": "USD", "rate": "0.93"}, format="json")
    assert r.status_code == 201 and r.json()["rate"] == "0.930000"  # the API answers machine numbers


def test_the_shift_counts_each_currency_once(client, make_tournament, make_person, rates, cashier_user, cashier_actor):
    # The evening in small: euros, a CHF and a USD entry in cash, a card.
    t = make_tournament()
    for _ in range(3):
        cashier.register(t, make_person(), method=LedgerRow.CASH, actor=cashier_actor)
    cashier.register(t, make_person(), method=LedgerRow.CASH, actor=cashier_actor, tender_currency="CHF")
    cashier.register(t, make_person(), method=LedgerRow.CASH, actor=cashier_actor, tender_currency="USD")
    cashier.register(t, make_person(), method=LedgerRow.CARD, actor=cashier_actor)
    totals = shift_totals(cashier_user)
    assert {m["method"]: m["total"] for m in totals["by_method"]} == {"CASH": D("330"), "CARD": D("110")}  # the euros in the drawer
    assert [(f["currency"], f["amount"], f["value"]) for f in totals["foreign"]] == [("CHF", D("104.77"), D("110")), ("USD", D("119.57"), D("110"))]
    assert totals["total"] == D("660")  # every line once
    page = italian(client, cashier_user).get(f"/desk/?t={t.pk}").content.decode()
    shift = page[page.index('id="shift"') : page.index("</table>", page.index('id="shift"'))]
    assert '<td>Contanti</td><td>3</td><td class="num">330,00</td>' in shift
    assert '<td>Pagato in CHF: 104,77\u00a0CHF</td><td>1</td><td class="num">110,00</td>' in shift
    assert '<td>Pagato in USD: 119,57\u00a0$</td><td>1</td><td class="num">110,00</td>' in shift
    assert '<td>Totale</td><td>6</td><td class="num">660,00</td>' in shift
