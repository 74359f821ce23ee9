"""Reversals undo what they reverse (issue #13): a reversed rebuy that bought a busted player
back puts him out again (no seat, his bust and place as before); a reversed add-on takes its
chips out of the chips in play; the receipt of a rebuy or an add-on says what it is."""

from decimal import Decimal

import pytest

from seating import services as seating
from seating.models import Bust
from tdmanager.errors import DomainError
from tests.tournaments.helpers import break_after_level, item_index_of_level, run_clock_at
from tournaments.cashier import services as cashier
from tournaments.floor.selectors import chips_in_play
from tournaments.models import Entry, LedgerRow, Tournament
from tournaments.setup import lifecycle
from tournaments.setup.selectors import seat_of

D = Decimal
pytestmark = pytest.mark.django_db


@pytest.fixture
def running(make_tournament, make_person, cashier_actor, actor):
    """A rebuy event with an add-on after level 4, four players seated, the clock in level 2."""
    t = make_tournament(
        format=Tournament.REBUY,
        rebuy_price=D("50"),
        rebuy_fee=D("5"),
        rebuy_chips=30000,
        rebuy_until_level=4,
        addon_price=D("20"),
        addon_chips=20000,
        addon_after_level=4,
    )
    entries = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(4)]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    t.refresh_from_db()
    run_clock_at(t, item_index_of_level(t, 2))
    return t, entries


def test_a_reversed_rebuy_puts_the_busted_player_out_again(running, cashier_actor, actor):
    t, entries = running
    out = entries[0]
    seating.record_bust(t, [out], actor=actor)
    out.refresh_from_db()
    busted_at, place = out.busted_at, out.place
    assert (out.status, place, seat_of(out)) == (Entry.BUSTED, 4, None)
    in_play = chips_in_play(t)
    row = cashier.rebuy(out, method="CASH", actor=cashier_actor).row
    out.refresh_from_db()
    assert out.status == Entry.ACTIVE and seat_of(out) is not None and chips_in_play(t) == in_play + 30000

    cashier.reverse(row, reason="sold to the wrong player", actor=actor)
    out.refresh_from_db()
    assert (out.status, out.rebuys, out.chips, out.place) == (Entry.BUSTED, 0, 30000, place)
    assert out.busted_at == busted_at and seat_of(out) is None
    assert Bust.objects.get(entry=out).void == ""  # his bust counts again
    assert chips_in_play(t) == in_play
    assert Entry.objects.filter(tournament=t, status=Entry.ACTIVE).count() == 3
    # he can buy back in for real: the rebuy is sold again and seats him
    assert cashier.rebuy(out, method="CASH", actor=cashier_actor).entry.status == Entry.ACTIVE


def test_a_reversed_rebuy_of_a_player_who_was_not_busted_only_takes_the_chips(running, cashier_actor, actor):
    t, entries = running
    row = cashier.rebuy(entries[1], method="CASH", actor=cashier_actor, stack=0).row
    cashier.reverse(row, reason="mistake", actor=actor)
    entries[1].refresh_from_db()
    assert (entries[1].status, entries[1].chips, entries[1].rebuys) == (Entry.ACTIVE, 30000, 0)
    assert seat_of(entries[1]) is not None


def test_a_revived_players_later_add_on_is_reversed_first(running, cashier_actor, actor):
    t, entries = running
    seating.record_bust(t, [entries[0]], actor=actor)
    rebuy = cashier.rebuy(entries[0], method="CASH", actor=cashier_actor).row
    run_clock_at(t, break_after_level(t, 4))
    addon = cashier.addon(entries[0], method="CASH", actor=cashier_actor).row
    with pytest.raises(DomainError) as exc:
        cashier.reverse(rebuy, reason="mistake", actor=actor)
    assert exc.value.code == "reverse_later_sales_first"
    cashier.reverse(addon, reason="mistake", actor=actor)
    cashier.reverse(rebuy, reason="mistake", actor=actor)
    entries[0].refresh_from_db()
    assert entries[0].status == Entry.BUSTED


def test_a_reversed_add_on_leaves_the_chips_in_play(running, cashier_actor, actor):
    t, entries = running
    run_clock_at(t, break_after_level(t, 4))
    before = chips_in_play(t)
    row = cashier.addon(entries[2], method="CASH", actor=cashier_actor).row
    assert chips_in_play(t) == before + 20000
    cashier.reverse(row, reason="did not want it", actor=actor)
    entries[2].refresh_from_db()
    assert chips_in_play(t) == before and (entries[2].chips, entries[2].addons) == (30000, 0)


def test_the_receipts_of_a_rebuy_an_add_on_and_a_reversal_say_what_they_are(running, cashier_actor, actor, client, director):
    t, entries = running
    rebuy = cashier.rebuy(entries[1], method="CASH", actor=cashier_actor, stack=0).row
    run_clock_at(t, break_after_level(t, 4))
    addon = cashier.addon(entries[1], method="CASH", actor=cashier_actor).row
    rev = cashier.reverse(addon, reason="mistake", actor=actor)
    client.force_login(director)
    expected = {rebuy: ("Rebuy", "Rebuy"), addon: ("Add-on", "Add-on"), rev: ("Reversal of: Add-on", "Add-on"), entries[0].ledger.get(): ("Buy-in", "Buy-in")}
    for row, (heading, label) in expected.items():
        page = client.get(f"/desk/receipt/{row.receipt_number}/").content.decode()
        assert f'<p class="center big">{heading}</p>' in page
        assert f'<dt id="receipt-price-label">{label}</dt>' in page


# --- the API -------------------------------------------------------------------------------------


def test_the_api_reversal_of_a_rebuy_busts_the_player_again(running, api, cashier_user, floor_user, actor):
    t, entries = running
    c = api(cashier_user)
    r = api(floor_user).post(f"/api/v1/tournaments/{t.pk}/busts/", {"entries": [{"entry": entries[3].pk}]}, format="json")
    assert r.status_code in (200, 201), r.json()
    r = c.post("/api/v1/cashier/rebuy/", {"entry": entries[3].pk, "method": "CASH"}, format="json")
    assert r.status_code == 201 and r.json()["entry"]["seat"] is not None
    receipt = r.json()["receipt"]["receipt_number"]
    r = c.post("/api/v1/cashier/reverse/", {"receipt_number": receipt, "reason": "wrong player"}, format="json")
    assert r.status_code == 201 and r.json()["chips"] == -30000
    entry = c.get(f"/api/v1/tournaments/{t.pk}/entries/?person={entries[3].person_id}").json()[0]
    assert (entry["status"], entry["seat"], entry["rebuys"], entry["place"]) == ("BUSTED", None, 0, 4)
    assert LedgerRow.objects.get(receipt_number=receipt).is_reversed
