"""The payouts REST API: roles, errors as {"code", "detail"}, idempotent payments."""

from decimal import Decimal

import pytest

from payouts import services
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Entry, LedgerRow

from .deal_stacks import stacks_in_play

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def field(tournament, make_person, cashier_actor):
    return [cashier.register(tournament, make_person(), method="CARD", actor=cashier_actor).entry for _ in range(20)]


def test_pool_and_table_are_readable_by_a_display(api, tournament, field, display_user):
    r = api(display_user).get(f"/api/v1/tournaments/{tournament.pk}/payouts/")
    assert r.status_code == 200
    assert r.data["pool"]["total"] == "2000.00" and r.data["table"]["state"] == "AUTO"
    assert r.data["display"]["places_paid"] == 3
    assert api(display_user).post(f"/api/v1/tournaments/{tournament.pk}/payouts/table/lock/").status_code == 403


def test_the_director_edits_and_locks_the_table(api, tournament, field, director, cashier_user):
    url = f"/api/v1/tournaments/{tournament.pk}/payouts/table/"
    assert api(cashier_user).post(url, {"amounts": ["1000", "1000"]}, format="json").status_code == 403
    r = api(director).post(url, {"amounts": ["900", "1100"]}, format="json")
    assert r.status_code == 400 and r.data["code"] == "not_non_increasing" and r.data["detail"]
    r = api(director).post(url, {"amounts": ["1200", "500", "200"]}, format="json")
    assert r.status_code == 400 and r.data["code"] == "wrong_total"
    r = api(director).post(url, {"amounts": ["1200", "500", "300"]}, format="json")
    assert r.status_code == 200 and r.data["state"] == "EDITED" and r.data["matches_pool"]
    r = api(director).post(url + "lock/")
    assert r.status_code == 200 and r.data["state"] == "LOCKED"
    r = api(director).post(url, {"amounts": ["1100", "600", "300"]}, format="json")
    assert r.status_code == 409 and r.data["code"] == "table_locked"  # PAY-05: the director unlocks it first
    r = api(director).post(url + "unlock/", {"reason": ""}, format="json")
    assert r.status_code == 400 and r.data["code"] == "reason_required"


def test_templates_and_propose(api, tournament, field, director):
    r = api(director).post("/api/v1/payouts/templates/", {"name": "Top 2", "percents": ["65", "35"]}, format="json")
    assert r.status_code == 201
    r = api(director).post(f"/api/v1/tournaments/{tournament.pk}/payouts/table/template/", {"template": r.data["id"]}, format="json")
    assert [p["amount"] for p in r.data["prizes"]] == ["1300.00", "700.00"]
    r = api(director).post(f"/api/v1/tournaments/{tournament.pk}/payouts/table/propose/")
    assert r.data["state"] == "AUTO" and r.data["places_paid"] == 3


def test_a_prize_is_paid_once_with_an_idempotency_key(api, tournament, field, director, cashier_user, floor_user, controller_user):
    services.edit_payout_table(tournament, [{"place": 1, "amount": "1500"}, {"place": 2, "amount": "500"}], actor=Actor(director))
    services.lock_payout_table(tournament, actor=Actor(director))
    e = field[0]
    e.status, e.place = Entry.BUSTED, 2
    e.save()
    client = api(cashier_user)
    body = {"entry": e.pk, "method": "CASH"}
    r = client.post("/api/v1/payouts/pay/", body, format="json")
    assert r.status_code == 409 and r.data["code"] == "ranking_not_signed_off"
    assert api(director).post(f"/api/v1/tournaments/{tournament.pk}/payouts/signoff/").status_code == 201
    r = api(floor_user).post(f"/api/v1/tournaments/{tournament.pk}/payouts/signoff/")
    assert r.status_code == 403  # ELM-07: the second signature is the administrative controller's
    r = api(controller_user).post(f"/api/v1/tournaments/{tournament.pk}/payouts/signoff/")
    assert r.status_code == 201 and r.data["released_places"] == [2]
    assert [(s["user"], s["role"]) for s in r.data["signed_now"]] == [(director.username, "DIRECTOR"), (controller_user.username, "CONTROL")]
    due = client.get(f"/api/v1/payouts/due/?tournament={tournament.pk}").data
    assert due[0]["amount"] == "500.00" and due[0]["released"] and not due[0]["paid"]
    r1 = client.post("/api/v1/payouts/pay/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    r2 = client.post("/api/v1/payouts/pay/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert r1.status_code == 201 and r2.status_code == 201 and r2["Idempotent-Replay"] == "true"
    assert r1.data["receipt_number"] == r2.data["receipt_number"]
    assert LedgerRow.objects.filter(kind="PAYOUT").count() == 1
    assert client.get(r1.data["slip_url"]).status_code in (200, 302)
    assert client.get(f"/api/v1/payouts/slips/{r1.data['receipt_number']}/").data["amount"] == "500.00"
    assert client.get(f"/api/v1/payouts/due/?tournament={tournament.pk}").data == []


def test_cash_over_the_limit_is_refused_by_the_api(api, tournament, field, director, cashier_user, controller_user):
    tournament.cash_limit = D("1000")
    tournament.save()
    services.lock_payout_table(tournament, actor=Actor(director))
    e = field[0]
    e.status, e.place = Entry.BUSTED, 1
    e.save()
    services.sign_off_ranking(tournament, actor=Actor(director))
    services.sign_off_ranking(tournament, actor=Actor(controller_user))
    r = api(cashier_user).post("/api/v1/payouts/pay/", {"entry": e.pk, "method": "CASH"}, format="json")
    assert r.status_code == 409 and r.data["code"] == "cash_limit_exceeded" and "cheque" in r.data["detail"]
    r = api(cashier_user).post("/api/v1/payouts/pay/", {"entry": e.pk, "method": "TRANSFER", "reference": "IBAN-77"}, format="json")
    assert r.status_code == 201 and r.data["payee"] == e.person.full_name


def test_deal_calculator_and_record(api, tournament, field, director, floor_user):
    services.lock_payout_table(tournament, actor=Actor(director))
    for place, e in zip(range(20, 2, -1), field[2:]):
        e.status, e.place = Entry.BUSTED, place
        e.save()
    stacks = stacks_in_play(field[:2], [7, 3])
    r = api(floor_user).post(f"/api/v1/tournaments/{tournament.pk}/payouts/deal/calculate/", {"stacks": stacks}, format="json")
    assert r.status_code == 200 and set(r.data["methods"]) == {"ICM", "CHIP_CHOP", "EVEN"}
    assert api(floor_user).post(f"/api/v1/tournaments/{tournament.pk}/payouts/deals/", {"stacks": stacks, "method": "ICM"}, format="json").status_code == 403
    r = api(director).post(f"/api/v1/tournaments/{tournament.pk}/payouts/deals/", {"stacks": stacks, "method": "CHIP_CHOP"}, format="json")
    assert r.status_code == 201
    deal = r.data["id"]
    for e in field[:2]:
        assert api(floor_user).post(f"/api/v1/payouts/deals/{deal}/accept/", {"entry": e.pk}, format="json").status_code == 200
    assert api(floor_user).post(f"/api/v1/payouts/deals/{deal}/approve/").status_code == 403
    r = api(director).post(f"/api/v1/payouts/deals/{deal}/approve/")
    assert r.status_code == 200 and r.data["status"] == "APPROVED"


def test_reports_in_three_formats(api, tournament, field, director):
    base = f"/api/v1/tournaments/{tournament.pk}/payouts/reports/prestart/"
    r = api(director).get(base)
    assert r.status_code == 200 and dict(r.data["totals"])["Registered"] == "20"
    assert b"Total buy-ins,2000.00" in api(director).get(base + "?format_type=csv").content
    assert api(director).get(base + "?format_type=pdf").content.startswith(b"%PDF")
    assert api(director).get(f"/api/v1/tournaments/{tournament.pk}/payouts/reports/nope/").data["code"] == "unknown_report"


def test_satellite_link_and_side_pools(api, make_tournament, tournament, field, director):
    target = make_tournament(name="Main", buy_in=D("500"), fee=D("50"))
    r = api(director).post(f"/api/v1/tournaments/{tournament.pk}/payouts/satellite/", {"target": target.pk}, format="json")
    assert r.status_code == 201 and r.data["seats"] == 4  # 20 × 110 = 2,200 → 4 seats of 550
    r = api(director).post(f"/api/v1/tournaments/{tournament.pk}/payouts/satellite/complete/")
    assert r.status_code == 409 and r.data["code"] == "seats_not_decided"
    r = api(director).post(f"/api/v1/tournaments/{tournament.pk}/payouts/side-pools/", {"kind": "JACKPOT", "name": "Jackpot"}, format="json")
    assert r.status_code == 201 and r.data[0]["name"] == "Jackpot"


def test_elm07_the_sign_off_answer_names_who_signed_when_and_says_when_the_ranking_is_released(api, tournament, field, director, controller_user, cashier_user):
    """Nobody placed: nothing decided, nothing signed, not released. Two players out (3rd and
    2nd); the director signs on 14 March 2026 at 20:30 UTC (21:30 in Rome), the administrative
    controller, who has no full name, at 20:45: the answer names each, his role in words, the
    moment and the moment as the room reads it, and only then the ranking is released."""
    import datetime as dt

    import time_machine

    director.first_name, director.last_name = "Dora", "Direttrice"
    director.save()
    services.edit_payout_table(tournament, [{"place": 1, "amount": "1500"}, {"place": 2, "amount": "500"}], actor=Actor(director))
    services.lock_payout_table(tournament, actor=Actor(director))
    url = f"/api/v1/tournaments/{tournament.pk}/payouts/signoff/"
    desk = api(cashier_user)
    assert desk.get(url).json() == {"places_decided": 0, "released_places": [], "signed_now": [], "complete": False}
    for e, place in ((field[0], 3), (field[1], 2)):
        e.status, e.place = Entry.BUSTED, place
        e.save()
    with time_machine.travel(dt.datetime(2026, 3, 14, 20, 30, tzinfo=dt.UTC), tick=False):
        assert api(director).post(url).status_code == 201
    dora = {
        "user": "dora",
        "name": "Dora Direttrice",
        "role": "DIRECTOR",
        "role_label": "director",
        "at": "2026-03-14T20:30:00+00:00",
        "at_local": "14/03/2026 21:30",
    }
    assert desk.get(url).json() == {"places_decided": 2, "released_places": [], "signed_now": [dora], "complete": False}
    with time_machine.travel(dt.datetime(2026, 3, 14, 20, 45, tzinfo=dt.UTC), tick=False):
        assert api(controller_user).post(url).status_code == 201
    cora = {
        "user": "cora",
        "name": "cora",
        "role": "CONTROL",
        "role_label": "administrative controller",
        "at": "2026-03-14T20:45:00+00:00",
        "at_local": "14/03/2026 21:45",
    }
    assert desk.get(url).json() == {"places_decided": 2, "released_places": [2, 3], "signed_now": [dora, cora], "complete": True}


def test_elm07_two_players_swapped_after_the_sign_off_need_it_again(api, tournament, field, director, controller_user, cashier_user):
    """The 2nd and the 3rd signed off by the director and the controller, then the floor finds
    them the wrong way round and swaps them: the same places are decided, but not with the
    players signed, so nothing is released until both sign again."""
    services.edit_payout_table(tournament, [{"place": 1, "amount": "1500"}, {"place": 2, "amount": "500"}], actor=Actor(director))
    services.lock_payout_table(tournament, actor=Actor(director))
    url = f"/api/v1/tournaments/{tournament.pk}/payouts/signoff/"
    for e, place in ((field[0], 3), (field[1], 2)):
        e.status, e.place = Entry.BUSTED, place
        e.save()
    assert api(director).post(url).status_code == 201
    assert api(controller_user).post(url).json()["released_places"] == [2, 3]
    for e, place in ((field[0], 2), (field[1], 3)):
        e.place = place
        e.save()
    answer = api(cashier_user).get(url).json()
    assert (answer["places_decided"], answer["released_places"], answer["signed_now"], answer["complete"]) == (2, [], [], False)
    r = api(cashier_user).post("/api/v1/payouts/pay/", {"entry": field[0].pk, "method": "CASH"}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "ranking_not_signed_off")


def test_elm06_two_players_tied_for_second_each_get_the_medal_both_places_give_and_the_cap_only_second_gives_is_held(
    api, tournament, field, director, cashier_user
):
    """1st pays €1,000, a trophy and a watch; 2nd €500, a medal and a cap; 3rd €500 and a medal.
    Two players tie for 2nd (places 2 and 3): each is due €500 and a medal, and the cap, which
    3rd place does not give, is held for the director to decide; the winner is due his three
    prizes. The desk cannot hand over the held cap."""
    table = [
        {"place": 1, "amount": "1000"},
        {"place": 2, "amount": "500"},
        {"place": 3, "amount": "500"},
        {"place": 1, "kind": "ITEM", "amount": "0", "description": "Trophy"},
        {"place": 1, "kind": "ITEM", "amount": "0", "description": "Watch"},
        {"place": 2, "kind": "ITEM", "amount": "0", "description": "Medal"},
        {"place": 2, "kind": "ITEM", "amount": "0", "description": "Cap"},
        {"place": 3, "kind": "ITEM", "amount": "0", "description": "Medal"},
    ]
    services.edit_payout_table(tournament, table, actor=Actor(director))
    services.lock_payout_table(tournament, actor=Actor(director))
    winner, tied_a, tied_b = field[0], field[1], field[2]
    for e, place in ((winner, 1), (tied_a, 2), (tied_b, 2)):
        e.status, e.place = Entry.BUSTED, place
        e.save()
    due = api(cashier_user).get(f"/api/v1/payouts/due/?tournament={tournament.pk}").json()

    def lines(e):
        return [(d["kind"], d["amount"], d["description"], d["source"], d["shared_with"], d["held"]) for d in due if d["entry"] == e.pk]

    assert lines(winner) == [
        ("CASH", "1000.00", "", "MAIN:CASH", 1, False),
        ("ITEM", "0.00", "Trophy", "MAIN:ITEM", 1, False),
        ("ITEM", "0.00", "Watch", "MAIN:ITEM:2", 1, False),
    ]
    assert (
        lines(tied_a)
        == lines(tied_b)
        == [
            ("CASH", "500.00", "", "MAIN:CASH", 2, False),
            ("ITEM", "0.00", "Medal", "MAIN:ITEM", 2, False),
            ("ITEM", "0.00", "Cap", "MAIN:ITEM:2", 2, True),
        ]
    )
    r = api(cashier_user).post("/api/v1/payouts/pay/", {"entry": tied_b.pk, "source": "MAIN:ITEM:2", "method": "OTHER"}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "prize_held")
