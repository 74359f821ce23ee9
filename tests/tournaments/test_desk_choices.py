"""Issue 28 item 18: the desk opens on the tournament being sold; an add-on or a rebuy for a player
with no entry in the tournament says so (not "Alcuni campi non sono validi.")."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tests.conftest import client_for
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def selected(cashier_user):
    c = Client()
    c.force_login(cashier_user)
    html = c.get("/desk/").content.decode()
    select = html.split('<select id="tournament">', 1)[1].split("</select>", 1)[0]
    return [int(m) for m in re.findall(r'<option value="(\d+)"[^>]* selected>', select)]


def test_the_desk_opens_on_the_tournament_this_cashier_last_sold_in(make_tournament, cashier_user, person):
    soon = make_tournament(name="Soon", start_at=timezone.now() + timedelta(hours=1))
    later = make_tournament(name="Later", start_at=timezone.now() + timedelta(hours=5))
    assert selected(cashier_user) == [soon.pk]  # no sale yet: the one on sale starting soonest
    r = client_for(cashier_user).post("/api/v1/cashier/register/", {"tournament": later.pk, "person": person.pk, "method": "CASH"}, format="json")
    assert r.status_code == 201
    assert selected(cashier_user) == [later.pk]


def test_a_planned_tournament_is_not_chosen_over_one_on_sale(make_tournament, cashier_user):
    make_tournament(name="Next week", status=Tournament.PLANNED, start_at=timezone.now() + timedelta(minutes=10))
    on_sale = make_tournament(name="Tonight", start_at=timezone.now() + timedelta(hours=2))
    assert selected(cashier_user) == [on_sale.pk]


@pytest.mark.parametrize("op", ["addon", "rebuy"])
def test_an_addon_or_rebuy_for_a_player_not_in_the_tournament_names_the_reason(op, cashier_user, person):
    r = client_for(cashier_user).post(
        f"/api/v1/cashier/{op}/", {"entry": None, "person": person.pk, "method": "CASH"}, format="json", HTTP_ACCEPT_LANGUAGE="it"
    )
    assert r.status_code == 409 and r.data["code"] == "not_in_tournament"
    assert r.data["detail"] == "Mario Rossi non è iscritto a questo torneo: prima vendi un'iscrizione."
