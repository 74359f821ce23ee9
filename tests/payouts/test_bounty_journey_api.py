"""A PKO from the desk to the last bust through the API alone, as the staff's devices drive it
(PAY-02): the director sets it up and starts it, the desk sells the entries and pays the
bounties won, the floor records every knockout with its eliminators, and the reports account
for the bounty money to the cent.

Worked by hand. House settings: a PKO bounty of €25 on a €50 buy-in, the statutory fee 10 % of
the buy-in (€5): each sale is 50 + 25 + 5 = €80. Half of a bounty won is paid in cash, rounded
down to €1 (the default unit); the rest goes onto the eliminator's own bounty. A split pot's
bounty is shared equally and what rounding leaves goes to the house.

Five players, A B C D E, each a head of 25; bounty money taken in 5 × 25 = 125.

1. B out, knocked out by A: 25 → 12 cash (12.50 rounded down), 13 onto A's head (38).
2. C out, a split pot won by D and E: 25 / 2 = 12.50 each, rounded down to 12 and 12, €1 to the
   house. D: 12 → 6 cash, 6 onto his head (31); E the same (31).
3. The desk pays A his 12 in cash.
   Now: paid 12; owed D 6 + E 6 = 12; on heads A 38 + D 31 + E 31 = 100; house 1.
   12 + 12 + 100 + 1 = 125.
4. A out, knocked out by D: 38 → 19 cash, 19 onto D's head (50). D owed 6 + 19 = 25.
5. E out, knocked out by D: 31 → 15 cash (15.50 rounded down), 16 onto D's head (66).
   D is the last player: he wins his own 66 too. D owed 25 + 15 + 66 = 106.
6. The desk pays D his 106 in cash; E's 6 stays owed (he has not come to the desk).
   At the end: paid 12 + 106 = 118; owed 6; on heads 0; house 1. 118 + 6 + 0 + 1 = 125.
"""

from decimal import Decimal

import pytest

pytestmark = pytest.mark.django_db
D = Decimal

SETTINGS = {"bounty": "PKO", "bounty_amount": "25", "bounty_remainder": "HOUSE"}


def ok(response, status=200):
    assert response.status_code == status, (response.status_code, response.content[:500])
    return response.json() if response.get("Content-Type", "").startswith("application/json") else response


@pytest.fixture
def staff(api, director, cashier_user, floor_user):
    return {"director": api(director), "desk": api(cashier_user), "floor": api(floor_user)}


def set_up_and_sell(staff, structure):
    """The director creates the PKO and opens registration; the desk sells five entries."""
    body = {
        "name": "PKO del martedì",
        "start_at": "2026-11-24T20:00:00Z",
        "buy_in": "50",
        "starting_stack": 20000,
        "table_size": 6,
        "structure": structure.pk,
        "settings": SETTINGS,
    }
    t = ok(staff["director"].post("/api/v1/tournaments/", body, format="json"), 201)
    assert (t["fee"], t["settings"]["bounty"]) == ("5.00", "PKO")  # the statutory 10 % of the buy-in
    ok(staff["director"].post(f"/api/v1/tournaments/{t['id']}/open-registration/"))
    entries = {}
    for letter, (first, last) in zip("ABCDE", [("Mario", "Rossi"), ("Giulia", "Bianchi"), ("Luca", "Ferrari"), ("Anna", "Ricci"), ("Paolo", "Rizzo")]):
        person = ok(staff["desk"].post("/api/v1/people/", {"first_name": first, "last_name": last}, format="json"), 201)
        sale = ok(staff["desk"].post("/api/v1/cashier/register/", {"tournament": t["id"], "person": person["id"], "method": "CASH"}, format="json"), 201)
        receipt = sale["receipt"]
        # the receipt keeps the bounty apart: 50 to the pool + 25 bounty + 5 fee = 80
        assert (receipt["prize_amount"], receipt["bounty_amount"], receipt["fee_amount"], receipt["total"]) == ("50.00", "25.00", "5.00", "80.00")
        entries[letter] = sale["entry"]["id"]
    return t["id"], entries


def bust(staff, tid, out, *eliminators):
    body = {"entries": [{"entry": out, "eliminators": list(eliminators)}]}
    return ok(staff["floor"].post(f"/api/v1/tournaments/{tid}/busts/", body, format="json"), 201)


def pay(staff, tid, entry, key):
    return ok(
        staff["desk"].post(f"/api/v1/tournaments/{tid}/bounties/pay/", {"entry": entry, "method": "CASH"}, format="json", HTTP_IDEMPOTENCY_KEY=key),
        201,
    )


def reconciliation(staff, tid) -> dict:
    """The reconciliation report's lines, by their (English) label."""
    report = ok(staff["director"].get(f"/api/v1/tournaments/{tid}/payouts/reports/reconciliation/"))
    return {row[0]: row[1] for row in report["rows"]}


def bounty_lines(lines: dict) -> tuple:
    return (
        lines["Bounty money taken in (apart from the prize pool)"],
        lines["… bounties paid out"],
        lines["… bounties won, not yet collected"],
        lines["… still on the heads of the players in"],
        lines["… bounties kept by the house"],
        lines["Bounty difference not explained"],
    )


def test_a_pko_through_the_api_adds_up_to_the_cent(staff, structure):
    tid, e = set_up_and_sell(staff, structure)
    ok(staff["director"].post(f"/api/v1/tournaments/{tid}/start/", {"prestart_report_sent": True, "start_clock": True}, format="json"))
    overview = ok(staff["director"].get(f"/api/v1/tournaments/{tid}/bounties/"))
    assert overview["totals"]["taken_in"] == "125.00"  # 5 × 25
    assert sorted(h["amount"] for h in overview["heads"]) == ["25.00"] * 5

    # 1. B out to A: 12 cash, 13 onto A's head.
    won = bust(staff, tid, e["B"], e["A"])["bounties"]
    assert [(w["winner"], w["knocked_out"], w["cash"], w["added"]) for w in won] == [(e["A"], e["B"], "12.00", "13.00")]

    # 2. C out, split pot D and E: 12 each (6 cash, 6 added), €1 to the house.
    won = bust(staff, tid, e["C"], e["D"], e["E"])["bounties"]
    assert sorted((w["winner"], w["cash"], w["added"]) for w in won) == sorted([(e["D"], "6.00", "6.00"), (e["E"], "6.00", "6.00")])

    # The desk's list of what is due: one bounty line each for A (12), D (6) and E (6).
    due = ok(staff["desk"].get(f"/api/v1/payouts/due/?tournament={tid}"))
    assert sorted((d["entry"], d["amount"]) for d in due if d["kind"] == "BOUNTY") == sorted([(e["A"], "12.00"), (e["D"], "6.00"), (e["E"], "6.00")])

    # 3. The desk pays A his 12 in cash; the same click again pays nothing more.
    paid = pay(staff, tid, e["A"], "pay-A-1")
    assert (paid["entry"], paid["amount"], paid["method"]) == (e["A"], "12.00", "CASH")
    again = pay(staff, tid, e["A"], "pay-A-1")
    assert again["receipt_number"] == paid["receipt_number"]
    refused = staff["desk"].post(f"/api/v1/tournaments/{tid}/bounties/pay/", {"entry": e["A"], "method": "CASH"}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "no_bounty_owed")

    # In the middle of the event: paid 12 + owed 12 + on heads 100 + house 1 = 125.
    overview = ok(staff["director"].get(f"/api/v1/tournaments/{tid}/bounties/"))
    assert sorted((h["entry"], h["amount"]) for h in overview["heads"]) == sorted([(e["A"], "38.00"), (e["D"], "31.00"), (e["E"], "31.00")])
    totals = overview["totals"]
    assert (totals["taken_in"], totals["paid_out"], totals["owed"], totals["on_heads"], totals["house"]) == ("125.00", "12.00", "12.00", "100.00", "1.00")
    assert bounty_lines(reconciliation(staff, tid)) == ("125.00", "12.00", "12.00", "100.00", "1.00", "0.00")

    # 4. A out to D: 19 cash, 19 onto D's head (50).
    won = bust(staff, tid, e["A"], e["D"])["bounties"]
    assert [(w["winner"], w["cash"], w["added"]) for w in won] == [(e["D"], "19.00", "19.00")]
    # 5. E out to D, the last bust: 15 cash, 16 onto D's head (66), and D wins his own 66.
    won = bust(staff, tid, e["E"], e["D"])["bounties"]
    assert sorted((w["kind"], w["winner"], w["cash"]) for w in won) == sorted([("KNOCKOUT", e["D"], "15.00"), ("OWN", e["D"], "66.00")])

    heads = ok(staff["director"].get(f"/api/v1/tournaments/{tid}/bounties/"))["heads"]
    assert all(h["amount"] == "0.00" for h in heads)
    due = ok(staff["desk"].get(f"/api/v1/payouts/due/?tournament={tid}"))
    assert sorted((d["entry"], d["amount"]) for d in due if d["kind"] == "BOUNTY") == sorted([(e["D"], "106.00"), (e["E"], "6.00")])

    # 6. The desk pays D 6 + 19 + 15 + 66 = 106 in one payment.
    paid = pay(staff, tid, e["D"], "pay-D-1")
    assert (paid["entry"], paid["amount"]) == (e["D"], "106.00")
    assert len(paid["awards"]) == 4  # his share of C, A, E, and his own bounty

    # At the end: paid 118 + owed 6 (E) + on heads 0 + house 1 = 125.
    overview = ok(staff["director"].get(f"/api/v1/tournaments/{tid}/bounties/"))
    totals = overview["totals"]
    assert (totals["taken_in"], totals["paid_out"], totals["owed"], totals["on_heads"], totals["house"]) == ("125.00", "118.00", "6.00", "0.00", "1.00")
    owed = [(a["winner"], a["cash"]) for a in overview["awards"] if a["owed"]]
    assert owed == [(e["E"], "6.00")]
    lines = reconciliation(staff, tid)
    assert bounty_lines(lines) == ("125.00", "118.00", "6.00", "0.00", "1.00", "0.00")
    # The bounty money is apart from the prize parts (5 × 50) and the fees (5 × 5): 400 in all.
    assert (lines["Money in: prize parts"], lines["Money in: fees"], lines["Money in: total"]) == ("250.00", "25.00", "400.00")
    assert lines["Prize pool"] == "250.00"

    # The payments report lists the two bounty payments apart from the prizes.
    payments = ok(staff["director"].get(f"/api/v1/tournaments/{tid}/payouts/reports/payments/"))
    totals = dict(payments["totals"])
    assert (totals["Bounties paid (apart from the prizes)"], totals["Bounty payments"]) == ("118.00", "2")
    # And the CSV a spreadsheet reads says the same.
    csv = staff["director"].get(f"/api/v1/tournaments/{tid}/payouts/reports/reconciliation/?format_type=csv").content.decode()
    assert "Bounty money taken in (apart from the prize pool),125.00" in csv
    assert "… bounties paid out,118.00" in csv
    assert "Bounty difference not explained,0.00" in csv
