"""Issue #38, found by the simulator (day seed 203, shrunk to six steps): in a running PKO event
the winner's entry was refunded after he had knocked out the last opponent. His bounty part went
back to him while the bounties he had won (his own and the knockout's) stayed owed: the bounty
money no longer added up ("differenza sulle taglie non spiegata"). A player who has won a bounty
has played, and a player who holds a finishing place has played too: no refund (REG-12)."""

from decimal import Decimal

import pytest

from payouts import selectors as psel
from seating import services as seating
from tests.payouts.bounty_setup import bounty_event
from tournaments.models import Entry, LedgerRow

pytestmark = pytest.mark.django_db


def test_the_winner_of_the_last_knockout_is_not_refunded(api, director, make_tournament, make_person, cashier_actor, actor):
    t, (winner, loser) = bounty_event(make_tournament, make_person, cashier_actor, actor, players=2)
    seating.record_bust(t, [{"entry": loser.pk, "eliminators": [winner.pk]}], actor=actor)
    r = api(director).post("/api/v1/cashier/refund/", {"entry": winner.pk, "reason": "left"}, format="json")
    assert r.status_code == 409, r.content
    assert r.json()["code"] == "no_refund_after_playing"
    assert not LedgerRow.objects.filter(entry=winner, kind=LedgerRow.REFUND).exists()
    assert psel.bounty_money(t)["difference"] == Decimal(0)


def test_a_player_who_knocked_somebody_out_is_not_refunded(api, director, make_tournament, make_person, cashier_actor, actor):
    t, (hunter, prey, other) = bounty_event(make_tournament, make_person, cashier_actor, actor, players=3)
    seating.record_bust(t, [{"entry": prey.pk, "eliminators": [hunter.pk]}], actor=actor)
    r = api(director).post("/api/v1/cashier/refund/", {"entry": hunter.pk, "reason": "left"}, format="json")
    assert r.status_code == 409
    assert (
        "ha vinto una taglia"
        in api(director).post("/api/v1/cashier/refund/", {"entry": hunter.pk, "reason": "left"}, format="json", HTTP_ACCEPT_LANGUAGE="it").json()["detail"]
    )
    # somebody who has not knocked anybody out yet may still be refunded by the director
    r = api(director).post("/api/v1/cashier/refund/", {"entry": other.pk, "reason": "sold to the wrong player"}, format="json")
    assert r.status_code == 201, r.content
    assert Entry.objects.get(pk=other.pk).status == Entry.CANCELLED
    assert psel.bounty_money(t)["difference"] == Decimal(0)


def test_the_sale_of_a_player_knocked_out_is_not_reversed_until_the_bust_is_undone(api, director, make_tournament, make_person, cashier_actor, actor):
    """Found by the simulator (day seed 309): a FIXED event's buy-in reversed after its player had
    been knocked out gave his bounty part back while his eliminator kept the bounty: 75 paid out
    of 50 taken in."""
    t, (hunter, prey, other) = bounty_event(make_tournament, make_person, cashier_actor, actor, players=3, bounty="FIXED")
    outcome = seating.record_bust(t, [{"entry": prey.pk, "eliminators": [hunter.pk]}], actor=actor)
    sale = LedgerRow.objects.get(entry=prey, kind=LedgerRow.BUY_IN)
    r = api(director).post("/api/v1/cashier/reverse/", {"receipt_number": sale.receipt_number, "reason": "sold to the wrong person"}, format="json")
    assert r.status_code == 409, r.content
    assert r.json()["code"] == "undo_bust_first"
    assert psel.bounty_money(t)["difference"] == Decimal(0)
    seating.undo_bust(t, outcome.busts[0], actor=actor, reason="wrong player")
    r = api(director).post("/api/v1/cashier/reverse/", {"receipt_number": sale.receipt_number, "reason": "sold to the wrong person"}, format="json")
    assert r.status_code == 201, r.content
    assert psel.bounty_money(t)["difference"] == Decimal(0)
