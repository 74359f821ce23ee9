"""The payout refusals as the director reads them: the API's ``{"code", "detail"}`` and the page's
message say exactly which rule refused and what to do, and the amounts at the edges of what a
payout holds (nothing, half a unit, the largest amount) are taken or refused as the rule says."""

import html
import re
from decimal import Decimal

import pytest

from payouts import selectors as psel
from payouts import services
from payouts.models import PayoutTable, SideContribution, SidePool
from tournaments.cashier import services as cashier
from tournaments.models import Entry
from tournaments.setup import lifecycle

from .test_payouts_pages import login

pytestmark = pytest.mark.django_db
D = Decimal


def page_message(user, t, data) -> str:
    """What the payouts page says after the director's form: the message it shows, word for word."""
    r = login(user).post(f"/tournaments/{t.pk}/payouts/", data, follow=True)
    assert r.status_code == 200, r.status_code
    said = re.findall(r'<ul class="messages"><li class="\w+">(.*?)</li></ul>', r.content.decode(), re.S)
    assert len(said) == 1, said
    return html.unescape(said[0])


@pytest.fixture
def five(make_tournament, make_person, cashier_actor):
    """Five €100 (+ €10) entries: a €500 prize pool."""
    t = make_tournament(buy_in=D("100"), fee=D("10"))
    entries = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(5)]
    return t, entries


def test_pay05_the_table_takes_nothing_and_half_a_unit_and_refuses_more_than_any_payout_holds(five, director):
    t, _entries = five
    assert page_message(director, t, {"op": "edit", "prizes": "1 500\n2 0"}) == "Done."
    assert [(p["place"], p["amount"]) for p in psel.table_prizes(t)] == [(1, D("500.00")), (2, D("0.00"))]
    assert page_message(director, t, {"op": "edit", "prizes": "1 499.50\n2 0.50"}) == "Done."
    assert [(p["place"], p["amount"]) for p in psel.table_prizes(t)] == [(1, D("499.50")), (2, D("0.50"))]

    # thirteen digits, two after the point, is the largest amount: it is read, and does not add up
    said = page_message(director, t, {"op": "edit", "prizes": "1 99999999999.99"})
    assert said == "The prizes add up to 99,999,999,999.99 but the prize pool is 500.00 (99,999,999,499.99 over)."
    # a hundred billion is more than any payout holds
    said = page_message(director, t, {"op": "edit", "prizes": "1 100000000000"})
    assert said == "Place 1 is too large."
    assert [(p["place"], p["amount"]) for p in psel.table_prizes(t)] == [(1, D("499.50")), (2, D("0.50"))]


def test_pay05_a_side_prize_out_of_the_pool_names_what_is_wrong_with_its_amount(five, director):
    t, _entries = five
    for typed, said in (
        ("fifty", "The amount is not an amount of money."),
        ("NaN", "The amount is not an amount of money."),
        ("Infinity", "The amount is not an amount of money."),
        ("100000000000", "The amount is too large."),
        ("-5", "The amount cannot be negative."),
        ("10.001", "The amount must be a whole number of cents."),
    ):
        assert page_message(director, t, {"op": "sidepool", "kind": "CHIP_LEADER", "name": "Chip leader", "from_prize_pool": typed}) == said
    assert not SidePool.objects.filter(tournament=t).exists()
    assert psel.prize_pool(t) == D("500.00")


def test_pay05_money_put_into_a_side_pool_is_never_negative(five, api, director):
    t, _entries = five
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/payouts/side-pools/", {"kind": "OTHER", "name": "High hand"}, format="json")
    assert r.status_code == 201, r.content
    pool = SidePool.objects.get(tournament=t)
    r = api(director).post(f"/api/v1/payouts/side-pools/{pool.pk}/contribute/", {"amount": "-20"}, format="json")
    assert (r.status_code, r.json()) == (400, {"code": "bad_amount", "detail": "The amount cannot be negative."})
    r = api(director).post(f"/api/v1/payouts/side-pools/{pool.pk}/contribute/", {"amount": "-20"}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert (r.status_code, r.json()) == (400, {"code": "bad_amount", "detail": "L'importo non può essere negativo."})
    r = api(director).post(f"/api/v1/payouts/side-pools/{pool.pk}/contribute/", {"amount": "0"}, format="json")
    assert (r.status_code, r.json()) == (400, {"code": "bad_amount", "detail": "A contribution must be positive."})
    r = api(director).post(f"/api/v1/payouts/side-pools/{pool.pk}/contribute/", {"amount": "20"}, format="json")
    assert r.status_code == 200, r.content
    assert [c.amount for c in SideContribution.objects.filter(pool=pool)] == [D("20.00")]  # only the one taken


def test_pay05_an_amount_the_api_cannot_read_is_refused_with_an_example(five, api, director):
    t, _entries = five
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/payouts/side-pools/", {"kind": "OTHER", "name": "High hand"}, format="json")
    pool = SidePool.objects.get(tournament=t)
    for typed in ("twenty", "NaN", "Infinity", "1e3"):
        r = api(director).post(f"/api/v1/payouts/side-pools/{pool.pk}/contribute/", {"amount": typed}, format="json")
        example = 'Write an amount as text in plain digits, such as "12.50".'
        assert (r.status_code, r.json()) == (400, {"code": "invalid", "detail": f"Amount: {example}", "fields": {"amount": [example]}}), typed
    # the field's own limits come before the service's: a hundred billion, a tenth of a cent
    for typed, said in (
        ("100000000000", "Ensure that there are no more than 11 digits before the decimal point."),
        ("20.005", "Ensure that there are no more than 2 decimal places."),
    ):
        r = api(director).post(f"/api/v1/payouts/side-pools/{pool.pk}/contribute/", {"amount": typed}, format="json")
        assert (r.status_code, r.json()) == (400, {"code": "invalid", "detail": f"Amount: {said}", "fields": {"amount": [said]}}), typed
    assert not SideContribution.objects.filter(pool=pool).exists()


def test_fmt02_a_cancelled_events_payouts_say_why_they_cannot_change(five, api, director, actor):
    t, _entries = five
    lifecycle.cancel(t, actor=actor, reason="storm")
    for path, body in (("table/lock/", {}), ("table/", {"amounts": ["500"]})):
        r = api(director).post(f"/api/v1/tournaments/{t.pk}/payouts/{path}", body, format="json")
        assert (r.status_code, r.json()) == (
            409,
            {
                "code": "tournament_cancelled",
                "detail": "This tournament is cancelled: it will not play, pays no prizes and its payouts cannot change. Its players are refunded at the desk.",
            },
        ), path


def test_pay05_a_decided_paid_place_keeps_its_pool_and_the_refusal_says_so(five, api, director, actor):
    t, entries = five
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    last = entries[-1]
    last.status, last.place = Entry.BUSTED, psel.places_paid(t)  # a player finished in the last paid place
    last.save(update_fields=["status", "place"])
    r = api(director).post("/api/v1/cashier/refund/", {"entry": entries[0].pk, "reason": "taken ill"}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "prize_places_decided"), r.content
    assert r.json()["detail"] == (
        "The paid places are decided, or every player still in is in the money: the prize pool they share can no longer shrink (PAY-05)."
    )
    assert psel.prize_pool(t) == D("500.00")


def change_guarantee(api, director, t, amount):
    return api(director).patch(f"/api/v1/tournaments/{t.pk}/", {"guarantee": amount, "override_reason": "sponsor money"}, format="json")


def test_pay05_a_guarantee_refused_says_which_prize_stands_on_the_pool(make_tournament, make_person, cashier_actor, actor, api, director):
    t = make_tournament(buy_in=D("100"), fee=D("10"), guarantee=D("1000"))
    entries = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(5)]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    services.lock_payout_table(t, actor=actor)
    r = change_guarantee(api, director, t, "2500")
    assert (r.status_code, r.json()["code"], r.json()["detail"]) == (
        409,
        "table_locked",
        "The payout table is locked and published on the prize pool as it stands: the guarantee cannot change under it. "
        "The director unlocks the table first (PAY-05), and locks it again on the new pool.",
    )

    services.unlock_payout_table(t, actor=actor, reason="a place decided")
    last = entries[-1]
    last.status, last.place = Entry.BUSTED, psel.places_paid(t)
    last.save(update_fields=["status", "place"])
    r = change_guarantee(api, director, t, "2500")
    assert (r.status_code, r.json()["code"], r.json()["detail"]) == (
        409,
        "prize_places_decided",
        "The paid places are decided, or every player still in is in the money: the prize pool they share, and its guarantee, can no longer change (PAY-05).",
    )
    t.refresh_from_db()
    assert t.guarantee == D("1000.00")


def test_pay05_a_table_written_by_hand_lets_the_guarantee_change_unless_it_is_a_satellites(make_tournament, make_person, cashier_actor, actor, api, director):
    t = make_tournament(name="Main Event", buy_in=D("100"), fee=D("10"))
    sat = make_tournament(name="Satellite", buy_in=D("20"), fee=D("2"))
    for event in (t, sat):
        for _ in range(5):
            cashier.register(event, make_person(), method="CASH", actor=cashier_actor)
    services.link_satellite(sat, t, actor=actor, prize_base="NET")
    # a satellite's automatic seats follow the pool: its guarantee changes
    assert psel.table_state(sat) != PayoutTable.EDITED
    assert change_guarantee(api, director, sat, "300").status_code == 200

    # an ordinary event's table written by hand: the guarantee still changes (the table is checked at the lock)
    services.edit_payout_table(t, [{"place": 1, "amount": "350"}, {"place": 2, "amount": "150"}], actor=actor, reason="two places")
    assert psel.table_state(t) == PayoutTable.EDITED
    r = change_guarantee(api, director, t, "1000")
    assert r.status_code == 200, r.content
    t.refresh_from_db()
    assert t.guarantee == D("1000.00")

    # a satellite's table written by hand holds seats written for the pool as it stands
    services.edit_payout_table(sat, [{"place": 1, "amount": "300"}], actor=actor, reason="one place")
    assert psel.table_state(sat) == PayoutTable.EDITED
    r = change_guarantee(api, director, sat, "400")
    assert (r.status_code, r.json()["code"], r.json()["detail"]) == (
        409,
        "table_edited",
        "This satellite's payout table was written for the prize pool as it stands: go back to the automatic proposal "
        "(its seats follow the pool) before changing the guarantee.",
    )
    sat.refresh_from_db()
    assert sat.guarantee == D("300.00")


def test_pay05_an_event_without_entries_yet_takes_its_guarantee(make_tournament, api, director):
    """Announced, nobody registered: no place is paid yet, so none is decided, and the director
    sets the sponsor's guarantee."""
    t = make_tournament(name="Friday Deepstack", buy_in=D("100"), fee=D("10"))
    r = change_guarantee(api, director, t, "2000")
    assert r.status_code == 200, r.content
    t.refresh_from_db()
    assert t.guarantee == D("2000.00")
