"""The cashier desk through the HTTP API: codes, roles, idempotency, language, concurrency."""

import threading
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client

from tests.conftest import client_for, make_user
from tournaments.models import Entry, LedgerRow

pytestmark = pytest.mark.django_db


def sell(client, tournament, person, key=None, method="CASH"):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post("/api/v1/cashier/register/", {"tournament": tournament.pk, "person": person.pk, "method": method}, format="json", **headers)


def test_a_cashier_sells_an_entry_and_gets_the_receipt(api, cashier_user, tournament, person):
    r = sell(api(cashier_user), tournament, person)
    assert r.status_code == 201
    assert r.data["entry"]["status"] == "ACTIVE" and r.data["entry"]["chips"] == 30000
    rec = r.data["receipt"]
    assert rec["total"] == "110.00" and rec["prize_amount"] == "100.00" and rec["fee_amount"] == "10.00"
    assert rec["receipt_url"] == f"/desk/receipt/{rec['receipt_number']}/"


def test_a_refusal_is_a_4xx_with_a_code_and_a_message(api, cashier_user, tournament, make_person):
    p = make_person(banned=True, banned_reason="self-excluded")
    r = sell(api(cashier_user), tournament, p)
    assert r.status_code == 409
    assert r.data["code"] == "banned" and "self-excluded" in r.data["detail"]


def test_invalid_input_names_the_fields(api, cashier_user, tournament):
    r = api(cashier_user).post("/api/v1/cashier/register/", {"tournament": tournament.pk, "person": 999999, "method": "BITCOIN"}, format="json")
    assert r.status_code == 400 and r.data["code"] == "invalid"
    assert set(r.data["fields"]) == {"person", "method"}


def test_messages_follow_the_users_language(api, cashier_user, tournament, make_person):
    p = make_person(banned=True, banned_reason="x")
    r = api(cashier_user).post("/api/v1/cashier/register/", {"tournament": tournament.pk, "person": p.pk}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert r.data["code"] == "banned"
    assert "escluso" in r.data["detail"] or "non può giocare" in r.data["detail"]


def test_a_repeated_idempotency_key_returns_the_first_sale_and_charges_nothing(api, cashier_user, tournament, person):
    client = api(cashier_user)
    first = sell(client, tournament, person, key="k-123")
    again = sell(client, tournament, person, key="k-123")
    assert first.status_code == again.status_code == 201
    assert again.data == first.data and again["Idempotent-Replay"] == "true"
    assert LedgerRow.objects.count() == 1 and Entry.objects.count() == 1


def test_the_same_key_with_another_body_is_refused_not_replayed(api, cashier_user, tournament, make_person):
    client = api(cashier_user)
    first, other = make_person(), make_person()
    assert sell(client, tournament, first, key="k-9").status_code == 201
    r = sell(client, tournament, other, key="k-9")
    assert r.status_code == 422 and r.data["code"] == "idempotency_key_mismatch"
    assert Entry.objects.filter(person=other).count() == 0 and LedgerRow.objects.count() == 1
    r = sell(client, tournament, first, key="k-9", method="CARD")  # the same player paid another way: another request
    assert r.status_code == 422
    assert sell(client, tournament, first, key="k-9").status_code == 201  # the true repeat still replays


def test_keys_are_kept_a_day_then_purged(api, cashier_user, tournament, person):
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.cashier.services import purge_idempotency_keys
    from tournaments.models import IdempotencyRecord

    sell(api(cashier_user), tournament, person, key="k-old")
    now = timezone.now()
    assert purge_idempotency_keys(now=now + timedelta(hours=23)) == 0
    assert sell(api(cashier_user), tournament, person, key="k-old")["Idempotent-Replay"] == "true"
    assert purge_idempotency_keys(now=now + timedelta(hours=49)) == 1
    assert not IdempotencyRecord.objects.exists()


def test_the_purge_runs_on_beat():
    from django.conf import settings

    job = settings.CELERY_BEAT_SCHEDULE["purge-idempotency-keys"]
    assert job["task"] == "tournaments.tasks.purge_idempotency_keys" and job["schedule"] <= 3600
    assert settings.TDM_IDEMPOTENCY_TTL_HOURS >= 24


def test_a_refused_sale_does_not_burn_its_key(api, cashier_user, make_tournament, person):
    t = make_tournament(buy_in=Decimal("2500"), fee=Decimal("0"))
    client = api(cashier_user)
    assert sell(client, t, person, key="k-9").data["code"] == "cash_limit_exceeded"
    assert sell(client, t, person, key="k-9", method="CARD").status_code == 201


def test_a_key_reused_for_another_action_is_refused(api, cashier_user, tournament, person):
    client = api(cashier_user)
    sell(client, tournament, person, key="same")
    r = client.post("/api/v1/cashier/preregister/", {"tournament": tournament.pk, "person": person.pk}, format="json", HTTP_IDEMPOTENCY_KEY="same")
    assert r.status_code == 422 and r.data["code"] == "idempotency_key_reused"


def test_reversal_through_the_api(api, cashier_user, tournament, person):
    client = api(cashier_user)
    n = sell(client, tournament, person).data["receipt"]["receipt_number"]
    r = client.post("/api/v1/cashier/reverse/", {"receipt_number": n, "reason": "wrong tournament"}, format="json")
    assert r.status_code == 201 and r.data["total"] == "-110.00" and r.data["reverses_receipt"] == n
    assert client.post("/api/v1/cashier/reverse/", {"receipt_number": n, "reason": "again"}, format="json").data["code"] == "already_reversed"


@pytest.mark.parametrize("role_fixture", ["floor_user", "display_user", "outsider"])
def test_only_cashiers_and_directors_sell(request, api, role_fixture, tournament, person):
    r = sell(api(request.getfixturevalue(role_fixture)), tournament, person)
    assert r.status_code == 403 and r.data["code"] == "permission_denied"
    assert not LedgerRow.objects.exists()


def test_anonymous_requests_are_refused(api, tournament, person):
    r = sell(api(None), tournament, person)
    assert r.status_code in (401, 403) and r.data["code"] == "not_authenticated"


def test_refunds_are_for_directors_only(api, cashier_user, director, tournament, person):
    entry_id = sell(api(cashier_user), tournament, person).data["entry"]["id"]
    body = {"entry": entry_id, "reason": "cancelled", "expenses": "0"}
    assert api(cashier_user).post("/api/v1/cashier/refund/", body, format="json").status_code == 403
    r = api(director).post("/api/v1/cashier/refund/", body, format="json")
    assert r.status_code == 201 and r.data["total"] == "-110.00"


def test_a_cashier_cannot_reverse_a_directors_refund(api, cashier_user, director, tournament, person):
    entry_id = sell(api(cashier_user), tournament, person).data["entry"]["id"]
    refund = api(director).post("/api/v1/cashier/refund/", {"entry": entry_id, "reason": "cancelled", "expenses": "0"}, format="json")
    n = refund.data["receipt_number"]
    r = api(cashier_user).post("/api/v1/cashier/reverse/", {"receipt_number": n, "reason": "undo"}, format="json")
    assert r.status_code == 403 and r.data["code"] == "reverse_not_allowed"
    assert not LedgerRow.objects.filter(kind=LedgerRow.REVERSAL).exists()
    assert Entry.objects.get(pk=entry_id).status == Entry.CANCELLED
    r = api(director).post("/api/v1/cashier/reverse/", {"receipt_number": n, "reason": "refunded the wrong player"}, format="json")
    assert r.status_code == 201 and r.data["total"] == "110.00"


def test_a_cashier_reverses_his_own_kind_of_sale(api, cashier_user, tournament, person):
    n = sell(api(cashier_user), tournament, person).data["receipt"]["receipt_number"]
    r = api(cashier_user).post("/api/v1/cashier/reverse/", {"receipt_number": n, "reason": "wrong player"}, format="json")
    assert r.status_code == 201


def test_the_shift_endpoint_shows_my_totals(api, cashier_user, tournament, make_person):
    client = api(cashier_user)
    sell(client, tournament, make_person(), method="CARD")
    r = client.get("/api/v1/cashier/shift/")
    assert r.data["total"] == "110.00" and r.data["by_method"][0]["method"] == "CARD"


def at_once(*calls):
    """Run the calls in threads released together by a barrier, each on its own connection."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def worker(i):
        try:
            barrier.wait()
            results[i] = calls[i]()
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(calls))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return results


@pytest.mark.django_db(transaction=True)
def test_two_cashiers_selling_the_last_place_at_once_give_one_sale_and_one_refusal(make_tournament, make_person):
    """Real concurrency: two threads, two database connections, one place left."""
    t = make_tournament(field_cap=1)
    c1, c2 = make_user("c1", "cashier"), make_user("c2", "cashier")
    p1, p2 = make_person(), make_person()
    results = at_once(lambda: sell(client_for(c1), t, p1), lambda: sell(client_for(c2), t, p2))
    statuses = sorted(r.status_code for r in results)
    assert statuses == [201, 409], [r.data for r in results]
    refused = next(r for r in results if r.status_code == 409)
    assert refused.data["code"] == "field_full"
    assert Entry.objects.filter(tournament=t).count() == 1 and LedgerRow.objects.filter(tournament=t).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_double_click_with_one_key_from_two_connections_charges_once(make_tournament, person):
    t = make_tournament()
    u = make_user("c3", "cashier")
    results = at_once(*[lambda: sell(client_for(u), t, person, key="double-click")] * 2)
    assert [r.status_code for r in results] == [201, 201], [r.data for r in results]
    assert results[0].data["receipt"]["receipt_number"] == results[1].data["receipt"]["receipt_number"]
    assert LedgerRow.objects.filter(tournament=t).count() == 1


def test_no_cache_keeps_an_answer_that_shows_a_players_phone_link(api, director, cashier_user, make_tournament, person, make_person):
    """A sale's receipt carries the player's phone page, whose link is that page's key (his name,
    seat and prizes to whoever holds it): neither a proxy nor the desk browser's history or disk
    keeps an answer that shows one, nor the clock page that lists the lobby screens' links."""
    from tournaments.eventlog.services import Actor
    from tournaments.models import DisplayScreen, Tournament
    from tournaments.setup import lifecycle

    t = make_tournament()
    c = api(cashier_user)
    sale = sell(c, t, person, key="k-1")
    token = Entry.objects.get(pk=sale.data["entry"]["id"]).phone_token
    number = sale.data["receipt"]["receipt_number"]
    planned = make_tournament(status=Tournament.PLANNED)
    option = api(director).post(
        f"/api/v1/formats/tournaments/{planned.pk}/stack-options/", {"label": "Deep", "buy_in": "150", "fee": "15", "chips": 45000}, format="json"
    )
    lifecycle.open_registration(planned, actor=Actor(director, "test"))
    DisplayScreen.objects.create(name="TV", tournament=t, token="tv-secret-1")
    desk, floor = Client(), Client()
    desk.force_login(cashier_user)
    floor.force_login(director)
    answers = {
        "sale": sale,
        "sale repeated (same key)": sell(c, t, person, key="k-1"),
        "stack-choice sale": c.post(
            f"/api/v1/formats/tournaments/{planned.pk}/stack-choice/",
            {"person": make_person().pk, "option": option.json()["id"], "method": "CASH"},
            format="json",
        ),
        "receipt page": desk.get(f"/desk/receipt/{number}/"),
        "receipt PDF": desk.get(f"/desk/receipt/{number}.pdf"),
        "receipt's QR code": desk.get(f"/p/{token}/qr.svg"),
        "receipt API": c.get(f"/api/v1/cashier/receipts/{number}/"),
        "last sales API": c.get(f"/api/v1/cashier/sales/?tournament={t.pk}"),
        "ledger API": api(director).get(f"/api/v1/tournaments/{t.pk}/ledger/"),
        "clock page": floor.get(f"/tournaments/{t.pk}/clock/"),
    }
    assert {what: r.status_code for what, r in answers.items() if r.status_code not in (200, 201)} == {}
    assert answers["sale repeated (same key)"]["Idempotent-Replay"] == "true"
    shown = {what for what, r in answers.items() if token.encode() in r.content or b"tv-secret-1" in r.content}
    assert shown >= set(answers) - {"receipt PDF", "receipt's QR code", "stack-choice sale"}  # drawn, not written
    assert [what for what, r in answers.items() if "no-store" not in r.get("Cache-Control", "")] == []
