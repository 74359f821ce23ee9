"""What the desk offers (``cashier/offers/``) is what the sale does: for each button the format
sells, the offer is allowed exactly when the sale goes through, and a refused offer carries the
sale's own refusal code; a button the format never sells is not offered."""

from decimal import Decimal

import pytest
from django.db import transaction

from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Entry, LedgerRow, Tournament

pytestmark = pytest.mark.django_db


def sale(client, op, t, person, entry):
    """The sale behind the desk's button ``op``, as the desk sends it."""
    body = {"tournament": t.pk, "person": person.pk, "method": "CASH"}
    path = {"register": "register", "preregister": "preregister", "reenter": "reenter", "alternate": "alternates"}.get(op)
    if path is None:
        path = {"declare-rebuy": "rebuy/declare", "rebuy": "rebuy", "addon": "addon"}[op]
        body = {"entry": entry, "person": person.pk, "method": "CASH", "stack": 0}
    return client.post(f"/api/v1/cashier/{path}/", body, format="json")


def offers_against_sales(client, t, person):
    answer = client.get("/api/v1/cashier/offers/", {"tournament": t.pk, "person": person.pk})
    assert answer.status_code == 200
    seen = {}
    for op, offer in answer.data["offers"].items():
        if not offer["sold"]:
            seen[op] = "not sold"
            continue
        undo = transaction.savepoint()  # each sale tried on the same state, then undone
        r = sale(client, op, t, person, answer.data["entry"])
        transaction.savepoint_rollback(undo)
        assert (r.status_code < 300) == offer["allowed"], (op, offer, r.data)
        if not offer["allowed"]:
            assert r.data["code"] == offer["code"] and r.data["detail"] == offer["reason"], (op, offer, r.data)
        seen[op] = offer["code"] or "allowed"
    return seen


def test_the_desk_offers_exactly_what_each_sale_does(api, cashier_user, make_tournament, make_person):
    client, desk = api(cashier_user), Actor(cashier_user, "test")
    pko = make_tournament(name="PKO", format=Tournament.REENTRY, max_entries_per_player=2, settings={"bounty": "PKO", "bounty_amount": "50"})
    rebuys = make_tournament(
        name="Rebuy", status=Tournament.RUNNING, format=Tournament.REBUY, rebuy_price=Decimal("50"), rebuy_chips=30000, rebuy_until_level=3
    )
    rebuys.addon_price, rebuys.addon_chips, rebuys.addon_after_level = Decimal("50"), 30000, 3
    rebuys.save()
    seated, newcomer, out = make_person("Mario", "Rossi"), make_person("Anna", "Bianchi"), make_person("Luca", "Verdi")
    banned = make_person("Ugo", "Neri", banned=True, banned_reason="self-excluded")
    for t, p in ((pko, seated), (rebuys, seated), (rebuys, out)):
        cashier.register(t, p, method=LedgerRow.CASH, actor=desk)
    Entry.objects.filter(tournament=rebuys, person=out).update(status=Entry.BUSTED)

    assert offers_against_sales(client, pko, seated) == {
        "register": "already_registered",
        "preregister": "already_registered",
        "reenter": "not_busted",
        "declare-rebuy": "not sold",
        "rebuy": "not sold",
        "addon": "not sold",
        "alternate": "allowed",
    }
    assert offers_against_sales(client, pko, newcomer)["register"] == "allowed"
    assert offers_against_sales(client, pko, newcomer)["reenter"] == "no_previous_entry"
    assert offers_against_sales(client, rebuys, seated) == {
        "register": "already_registered",
        "preregister": "pre_registration_closed",
        "reenter": "not sold",
        "declare-rebuy": "allowed",
        "rebuy": "allowed",
        "addon": "addon_window_closed",
        "alternate": "allowed",
    }
    busted = offers_against_sales(client, rebuys, out)
    assert (busted["rebuy"], busted["declare-rebuy"], busted["addon"]) == ("allowed", "entry_not_playing", "entry_not_playing")
    refused = offers_against_sales(client, rebuys, banned)
    assert (refused["register"], refused["alternate"], refused["rebuy"]) == ("banned", "banned", "not_in_tournament")


def test_fmt03_a_player_out_of_a_freezeout_is_offered_no_way_back_at_the_desk(api, cashier_user, make_tournament, make_person):
    client, desk = api(cashier_user), Actor(cashier_user, "test")
    t = make_tournament(name="Freezeout", status=Tournament.RUNNING, format=Tournament.FREEZEOUT, late_reg_closes_after_level=6)
    out = make_person("Luca", "Verdi")
    cashier.register(t, out, method=LedgerRow.CASH, actor=desk)
    Entry.objects.filter(tournament=t, person=out).update(status=Entry.BUSTED)
    offered = offers_against_sales(client, t, out)
    ways_back = {op: offered[op] for op in ("register", "reenter", "declare-rebuy", "rebuy", "addon")}
    assert ways_back == {"register": "reentry_not_allowed", "reenter": "not sold", "declare-rebuy": "not sold", "rebuy": "not sold", "addon": "not sold"}
