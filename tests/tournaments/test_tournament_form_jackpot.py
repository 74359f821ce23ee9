"""Issue #28 item 6: the progressive jackpot is switched on from the tournament form (it was only
reachable through the API's settings), its fee typed the reader's way; and the edit form shows the
deductions it keeps (the form used to come back empty and a save wiped them)."""

import pytest
from django.conf import settings

from tournaments.house import HouseRules
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def form_values(structure, **extra):
    values = {
        "name": "Venerdì Deep",
        "start_at": "2026-12-04T20:00",
        "game": "NLHE",
        "format": "REENTRY",
        "currency": "EUR",
        "buy_in": "100",
        "starting_stack": "30000",
        "table_size": "9",
        "min_players": "2",
        "structure": structure.pk,
        "late_reg_closes_after_level": "6",
        "late_reg_end": "END_OF_LEVEL",
        "max_entries_per_player": "2",
        "rebuy_fee": "0",
        "rebuy_stack_threshold": "0",
        "addon_fee": "0",
        "addon_max": "1",
        "rule_set": "TDA",
        "deductions_text": "casino 3",
    }
    values.update(extra)
    return values


def test_the_director_switches_the_jackpot_on_from_the_italian_form(client, director, cashier_user, structure):
    client.force_login(director)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "it"
    page = client.get("/tournaments/new/").content.decode()
    assert 'name="jackpot"' in page and "Jackpot progressivo" in page
    r = client.post("/tournaments/new/", form_values(structure, jackpot="on", jackpot_fee="2,50"))
    assert r.status_code == 302, r.content.decode()[:3000]
    t = Tournament.objects.get(name="Venerdì Deep")
    rules = HouseRules.of(t)
    assert rules.jackpot is True and str(rules.jackpot_fee) == "2.50"
    t.status = Tournament.REGISTERING
    t.save()
    client.force_login(cashier_user)
    assert 'data-jackpot="2.50 EUR"' in client.get(f"/desk/?t={t.pk}").content.decode()  # the desk offers the fee


def test_the_edit_form_shows_the_jackpot_and_switches_it_off(client, director, make_tournament):
    t = make_tournament(settings={"jackpot": True, "jackpot_fee": "5"}, status=Tournament.PLANNED, deductions=[{"name": "casino", "percent": "3"}])
    client.force_login(director)
    page = client.get(f"/tournaments/{t.pk}/edit/").content.decode()
    assert 'id="id_jackpot" checked>' in page and 'name="jackpot_fee" value="5.00"' in page
    assert 'name="deductions_text" value="casino 3"' in page  # the deductions it keeps, not an empty box
    form = form_values(t.structure, name=t.name, jackpot_fee="5.00")
    r = client.post(f"/tournaments/{t.pk}/edit/", form)  # the box unticked
    assert r.status_code == 302, r.content.decode()[:3000]
    t.refresh_from_db()
    assert HouseRules.of(t).jackpot is False and t.deductions == [{"name": "casino", "percent": "3"}]
