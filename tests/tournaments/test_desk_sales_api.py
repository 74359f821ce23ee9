"""The desk's "Last sales" and "My shift" are the server's: what the desk loads after a reload."""

import pytest

from tests.conftest import make_user
from tournaments.models import LedgerRow

pytestmark = pytest.mark.django_db


def sell(client, tournament, person, method="CASH"):
    r = client.post("/api/v1/cashier/register/", {"tournament": tournament.pk, "person": person.pk, "method": method}, format="json")
    assert r.status_code == 201, r.data
    return r.data["receipt"]["receipt_number"]


def test_last_sales_are_mine_of_this_tournament_newest_first_with_their_reversal(api, cashier_user, make_tournament, make_person):
    sunday, monday = make_tournament(), make_tournament(name="Monday")
    client, other = api(cashier_user), api(make_user("anna", "cashier"))
    mario, giulia, luca = make_person("Mario", "Rossi"), make_person("Giulia", "Bianchi"), make_person("Luca", "Verdi")
    first = sell(client, sunday, mario)
    second = sell(client, sunday, giulia, method="CARD")
    sell(client, monday, luca)  # another tournament
    sell(other, sunday, luca)  # another cashier
    r = client.post("/api/v1/cashier/reverse/", {"receipt_number": first, "reason": "wrong player"}, format="json")
    reversal = r.data["receipt_number"]

    rows = client.get("/api/v1/cashier/sales/", {"tournament": sunday.pk}).data
    assert [row["receipt_number"] for row in rows] == [reversal, second, first]
    by_number = {row["receipt_number"]: row for row in rows}
    assert by_number[first]["reversed_by_receipt"] == reversal
    assert by_number[second]["reversed_by_receipt"] is None
    assert by_number[second]["person_name"] == "Giulia Bianchi" and by_number[second]["method"] == "CARD"
    assert by_number[second]["total"] == "110.00" and by_number[second]["receipt_url"].endswith(f"/{second}/")
    assert by_number[reversal]["reverses_receipt"] == first
    assert len(client.get("/api/v1/cashier/sales/").data) == 4  # every tournament of mine
    assert len(client.get("/api/v1/cashier/sales/", {"tournament": sunday.pk, "limit": 1}).data) == 1


def test_last_sales_refuse_bad_input_and_other_roles(api, cashier_user, floor_user, tournament):
    client = api(cashier_user)
    r = client.get("/api/v1/cashier/sales/", {"tournament": "abc"})
    assert r.status_code == 400 and r.data["code"] == "bad_parameter"
    assert client.get("/api/v1/cashier/sales/", {"tournament": 999999}).status_code == 404
    assert api(floor_user).get("/api/v1/cashier/sales/").status_code == 403


def test_the_shift_counts_every_sale_and_its_reversal(api, cashier_user, tournament, make_person):
    client = api(cashier_user)
    n = sell(client, tournament, make_person())
    sell(client, tournament, make_person(), method="CARD")
    shift = client.get("/api/v1/cashier/shift/").data
    assert shift["rows"] == 2 and shift["total"] == "220.00"
    client.post("/api/v1/cashier/reverse/", {"receipt_number": n, "reason": "wrong player"}, format="json")
    shift = client.get("/api/v1/cashier/shift/").data
    assert shift["rows"] == 3 and shift["total"] == "110.00"
    assert {m["method"]: m["total"] for m in shift["by_method"]} == {"CASH": "0.00", "CARD": "110.00"}
    assert LedgerRow.objects.count() == 3
