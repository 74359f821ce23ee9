"""REG-06: the desk takes USD and CHF at the rate of the day set by the cashiers' supervisor; the
ledger row and the receipt keep the currency, the amount tendered and the rate; the prize pool
gets the tournament's currency; the cash limit applies to the converted amount; a winner's cash
payouts of one tournament on one day are summed, so a split cannot dodge the limit."""

from decimal import Decimal

import pytest

from payouts import reports
from payouts import selectors as payout_selectors
from payouts import services as payout_services
from tdmanager.errors import DomainError
from tests.tournaments.helpers import break_after_level, run_clock_at
from tournaments.cashier import rules as cashier_rules
from tournaments.cashier import services as cashier
from tournaments.cashier.selectors import shift_totals
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor
from tournaments.models import ExchangeRate, LedgerRow, Tournament

D = Decimal
pytestmark = pytest.mark.django_db


@pytest.fixture
def rates(actor):
    cashier.set_exchange_rate("USD", D("0.92"), actor=actor)
    cashier.set_exchange_rate("CHF", D("1.05"), actor=actor)


def test_the_conversion_is_rounded_so_the_tender_covers_the_price():
    tender = cashier_rules.Tender("USD", D("0.92"))
    assert tender.due(D("110")) == D("119.57")  # 119.565… rounded up
    assert tender.converted(D("110")) == D("110.00")  # 119.57 × 0.92 = 110.0044
    assert cashier_rules.Tender("CHF", D("1.05")).due(D("2100")) == D("2000.00")


def test_a_sale_in_usd_records_currency_amount_and_rate_and_the_pool_gets_euros(tournament, person, rates, cashier_actor):
    sale = cashier.register(tournament, person, method=LedgerRow.CASH, actor=cashier_actor, tender_currency="USD")
    row = sale.row
    assert (row.currency, row.prize_amount, row.fee_amount) == ("EUR", D("100"), D("10"))
    assert (row.tender_currency, row.tender_amount, row.exchange_rate) == ("USD", D("119.57"), D("0.920000"))
    assert payout_selectors.money_in(tournament)["prize"] == D("100")
    ev = tournament.events.get(action=Action.CASHIER_BUYIN_SOLD)
    assert (ev.payload["tender_currency"], ev.payload["tender_amount"], ev.payload["exchange_rate"]) == ("USD", "119.57", "0.920000")


def test_a_sale_in_the_tournament_currency_records_no_tender(tournament, person, rates, cashier_actor):
    row = cashier.register(tournament, person, method=LedgerRow.CASH, actor=cashier_actor, tender_currency="EUR").row
    assert (row.tender_currency, row.tender_amount, row.exchange_rate) == ("", None, None)


def test_no_rate_for_today_refuses_the_sale_and_writes_nothing(tournament, person, cashier_actor):
    with pytest.raises(DomainError) as exc:
        cashier.register(tournament, person, method=LedgerRow.CASH, actor=cashier_actor, tender_currency="CHF")
    assert exc.value.code == "no_exchange_rate" and 400 <= exc.value.status < 500
    assert not LedgerRow.objects.exists() and not tournament.entries.exists()


def test_only_usd_and_chf_and_only_in_cash(tournament, person, rates, cashier_actor):
    for currency, method, code in (("GBP", LedgerRow.CASH, "bad_tender_currency"), ("USD", LedgerRow.CARD, "foreign_tender_cash_only")):
        with pytest.raises(DomainError) as exc:
            cashier.register(tournament, person, method=method, actor=cashier_actor, tender_currency=currency)
        assert exc.value.code == code
    assert not LedgerRow.objects.exists()


def test_the_latest_rate_of_the_day_counts(tournament, person, rates, actor, cashier_actor):
    cashier.set_exchange_rate("USD", D("0.90"), actor=actor)  # a correction
    row = cashier.register(tournament, person, method=LedgerRow.CASH, actor=cashier_actor, tender_currency="USD").row
    assert row.exchange_rate == D("0.9") and row.tender_amount == D("122.23")


def test_the_cash_limit_applies_to_the_converted_amount(make_tournament, make_person, rates, cashier_actor):
    # 2,000 EUR is at the limit (allowed); tendered in CHF it is 1,904.77 CHF = 2,000.01 EUR: above.
    t = make_tournament(buy_in=D("1818.18"), fee=D("181.82"))
    with pytest.raises(DomainError) as exc:
        cashier.register(t, make_person(), method=LedgerRow.CASH, actor=cashier_actor, tender_currency="CHF")
    assert exc.value.code == "cash_limit_exceeded"
    assert cashier.register(t, make_person(), method=LedgerRow.CASH, actor=cashier_actor).row.total == D("2000.00")


def test_a_reversal_of_a_foreign_sale_gives_back_the_same_currency(tournament, person, rates, cashier_actor, actor):
    row = cashier.register(tournament, person, method=LedgerRow.CASH, actor=cashier_actor, tender_currency="CHF").row
    rev = cashier.reverse(row, reason="wrong player", actor=actor)
    assert (rev.tender_currency, rev.tender_amount, rev.exchange_rate) == ("CHF", -row.tender_amount, row.exchange_rate)


def test_a_rate_is_positive_and_only_for_usd_or_chf(actor):
    for currency, rate in (("USD", "0"), ("USD", "-1"), ("CHF", "NaN"), ("GBP", "1.1"), ("EUR", "1")):
        with pytest.raises(DomainError):
            cashier.set_exchange_rate(currency, rate, actor=actor)
    assert not ExchangeRate.objects.exists()


def test_the_receipt_prints_the_tender(client, director, tournament, person, rates, cashier_actor):
    row = cashier.register(tournament, person, method=LedgerRow.CASH, actor=cashier_actor, tender_currency="USD").row
    client.force_login(director)
    page = client.get(f"/desk/receipt/{row.receipt_number}/").content.decode()
    assert '<dd id="receipt-tendered">$119.57</dd>' in page and '<dd id="receipt-rate">1 USD = 0.92 EUR</dd>' in page
    assert client.get(f"/desk/receipt/{row.receipt_number}.pdf").status_code == 200


# --- the API --------------------------------------------------------------------------------------


def test_the_supervisor_sets_the_rate_and_the_cashier_sells_in_chf(api, director, cashier_user, tournament, person):
    r = api(cashier_user).post("/api/v1/cashier/exchange-rates/", {"currency": "CHF", "rate": "1.05"}, format="json")
    assert r.status_code == 403  # the cashier does not set the rate
    r = api(director).post("/api/v1/cashier/exchange-rates/", {"currency": "CHF", "rate": "1.05"}, format="json")
    assert r.status_code == 201 and r.json()["rate"] == "1.050000"
    assert [x["currency"] for x in api(cashier_user).get("/api/v1/cashier/exchange-rates/").json()] == ["CHF"]
    r = api(cashier_user).post(
        "/api/v1/cashier/register/", {"tournament": tournament.pk, "person": person.pk, "method": "CASH", "tender_currency": "CHF"}, format="json"
    )
    assert r.status_code == 201, r.json()
    receipt = r.json()["receipt"]
    assert (receipt["total"], receipt["currency"], receipt["tender_currency"], receipt["tender_amount"], receipt["exchange_rate"]) == (
        "110.00",
        "EUR",
        "CHF",
        "104.77",
        "1.050000",
    )


def test_the_api_refuses_a_sale_without_a_rate_and_a_bad_rate(api, director, cashier_user, tournament, person):
    r = api(cashier_user).post(
        "/api/v1/cashier/register/", {"tournament": tournament.pk, "person": person.pk, "method": "CASH", "tender_currency": "USD"}, format="json"
    )
    assert r.status_code == 409 and r.json()["code"] == "no_exchange_rate" and "USD" in r.json()["detail"]
    for bad in (
        {"currency": "USD", "rate": "0"},
        {"currency": "USD", "rate": "-2"},
        {"currency": "JPY", "rate": "1"},
        {"currency": "USD"},
        {"currency": "USD", "rate": "abc"},
    ):
        assert api(director).post("/api/v1/cashier/exchange-rates/", bad, format="json").status_code == 400, bad
    assert api(director).get("/api/v1/cashier/exchange-rates/?date=nonsense").status_code == 400
    assert not LedgerRow.objects.exists()


def test_a_rebuy_and_an_add_on_take_foreign_tender_too(tournament, make_person, rates, cashier_actor):
    # the service path every sale shares: rebuy and add-on keep the tender (the API passes tender_currency)
    tournament.format, tournament.rebuy_price, tournament.rebuy_chips = Tournament.REBUY, D("100"), 30000
    tournament.addon_price, tournament.addon_chips, tournament.addon_after_level = D("50"), 20000, 4
    tournament.status = Tournament.RUNNING
    tournament.save()
    entry = cashier.register(tournament, make_person(), method=LedgerRow.CASH, actor=cashier_actor).entry
    run_clock_at(tournament, 0)
    row = cashier.rebuy(entry, method=LedgerRow.CASH, actor=cashier_actor, stack=0, tender_currency="USD").row
    assert (row.tender_currency, row.tender_amount) == ("USD", D("108.70"))
    run_clock_at(tournament, break_after_level(tournament, 4))
    row = cashier.addon(entry, method=LedgerRow.CASH, actor=cashier_actor, tender_currency="CHF").row
    assert (row.tender_currency, row.tender_amount) == ("CHF", D("47.62"))


# --- a payout split into several cash operations (REG-06 [INFERENCE]) ----------------------------


@pytest.fixture
def two_prizes(make_tournament, make_person, cashier_actor, actor, director, controller_user):
    """Anna finishes 3rd (1,500) and wins the Last Longer (600): 2,100 in two prizes."""
    t = make_tournament(buy_in=D("500"), fee=D("50"))
    anna = make_person("Anna", "Bianchi")
    cashier.pre_register(t, anna, actor=cashier_actor)
    entries = [cashier.register(t, p, method="CARD", actor=cashier_actor).entry for p in [anna] + [make_person() for _ in range(9)]]
    payout_services.edit_payout_table(t, [{"place": i, "amount": a} for i, a in enumerate(["2000", "1500", "1500"], start=1)], actor=actor)
    payout_services.lock_payout_table(t, actor=actor)
    t.status = Tournament.RUNNING
    t.save()
    for place, e in ((3, entries[0]), (1, entries[1]), (2, entries[2])):
        e.status, e.place = "BUSTED", place
        e.save()
    payout_services.sign_off_ranking(t, actor=Actor(director))
    payout_services.sign_off_ranking(t, actor=Actor(controller_user))
    pool = payout_services.create_side_pool(t, kind="LAST_LONGER", name="Last Longer", actor=actor)
    payout_services.contribute_side_pool(pool, "600", actor=actor)
    (award,) = payout_services.award_side_pool(pool, actor=actor)
    return t, entries[0], f"SIDE:{award.pk}"


def test_two_cash_payouts_to_one_winner_are_summed_against_the_limit(two_prizes, cashier_actor):
    t, anna, side = two_prizes
    assert payout_services.pay_prize(anna, method="CASH", actor=cashier_actor).amount == D("1500.00")  # under the limit
    with pytest.raises(DomainError) as exc:
        payout_services.pay_prize(anna, method="CASH", source=side, actor=cashier_actor)
    assert exc.value.code == "cash_limit_split" and "1500.00" in str(exc.value.message)
    assert LedgerRow.objects.filter(tournament=t, kind=LedgerRow.SIDE, side_amount__lt=0).count() == 0
    pay = payout_services.pay_prize(anna, method="TRANSFER", reference="IBAN IT60", source=side, actor=cashier_actor)
    assert pay.amount == D("600.00")


def test_the_split_is_refused_through_the_api_too(two_prizes, api, cashier_user):
    t, anna, side = two_prizes
    c = api(cashier_user)
    r = c.post("/api/v1/payouts/pay/", {"entry": anna.pk, "method": "CASH"}, format="json")
    assert r.status_code == 201, r.json()
    r = c.post("/api/v1/payouts/pay/", {"entry": anna.pk, "method": "CASH", "source": side}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "cash_limit_split"


def test_the_desk_offers_the_tender_currency_and_the_rate_form_to_the_supervisor_only(client, director, cashier_user, tournament):
    client.force_login(cashier_user)
    page = client.get(f"/desk/?t={tournament.pk}").content.decode()
    assert '<select id="tender">' in page and 'data-price="110.00" data-currency="EUR"' in page
    assert 'id="rateform"' not in page
    client.force_login(director)
    assert 'id="rateform"' in client.get(f"/desk/?t={tournament.pk}").content.decode()


def test_the_shift_shows_the_foreign_notes_in_the_drawer(client, api, tournament, make_person, rates, cashier_user, cashier_actor):
    cashier.register(tournament, make_person(), method=LedgerRow.CASH, actor=cashier_actor, tender_currency="USD")
    cashier.register(tournament, make_person(), method=LedgerRow.CASH, actor=cashier_actor, tender_currency="USD")
    cashier.register(tournament, make_person(), method=LedgerRow.CASH, actor=cashier_actor)
    totals = shift_totals(cashier_user)
    assert totals["total"] == D("330.00") and totals["foreign"] == [{"currency": "USD", "rows": 2, "amount": D("239.14"), "value": D("220.00")}]
    assert [(m["method"], m["total"]) for m in totals["by_method"]] == [("CASH", D("110.00"))]  # issue #28: euros only, no note counted twice
    shift = api(cashier_user).get("/api/v1/cashier/shift/").json()
    assert shift["foreign"] == [{"currency": "USD", "rows": 2, "amount": "239.14", "value": "220.00"}]
    client.force_login(cashier_user)
    assert "$239.14" in client.get(f"/desk/?t={tournament.pk}").content.decode()


def test_the_reconciliation_balances_with_foreign_tender(tournament, make_person, rates, cashier_actor, actor):
    sales = [cashier.register(tournament, make_person(), method=LedgerRow.CASH, actor=cashier_actor, tender_currency=c).row for c in ("USD", "CHF", "", "CHF")]
    cashier.reverse(sales[1], reason="wrong player", actor=actor)
    data = reports.reconciliation_data(tournament)
    assert data["balanced"], data
    assert payout_selectors.money_in(tournament)["prize"] == D("300.00")
