"""Creating and changing a tournament: the page and the API call the same setup services, so
the same input gets the same answer (FMT-01 money lock, FMT-03 freezeout, no negative price),
and a change and its log row are one transaction."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import timezone

from tests.conftest import client_for
from tournaments.eventlog.actions import Action
from tournaments.models import Tournament, TournamentEvent
from tournaments.setup.views import TournamentForm

pytestmark = pytest.mark.django_db


def page_data(t, **changes):
    """What the tournament form posts for ``t``, with ``changes``."""
    form = TournamentForm(instance=t)
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value is None:
            continue
        if name == "start_at":
            value = timezone.localtime(t.start_at).strftime("%Y-%m-%dT%H:%M")
        data[name] = value
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def page(director, t, **changes):
    c = Client()
    c.force_login(director)
    return c.post(f"/tournaments/{t.pk}/edit/", page_data(t, **changes))


def api(director, t, **changes):
    return client_for(director).patch(f"/api/v1/tournaments/{t.pk}/", changes, format="json")


@pytest.fixture
def registering(make_tournament):
    def make():
        start = (timezone.now() + timedelta(hours=1)).replace(second=0, microsecond=0)  # the form's precision
        t = make_tournament(buy_in=Decimal("100"), fee=Decimal("10"), start_at=start)
        t.status = Tournament.REGISTERING
        t.save(update_fields=["status"])
        return t

    return make


def test_a_price_change_once_registration_is_open_needs_a_reason_on_the_page_and_in_the_api(director, registering):
    by_page, by_api = registering(), registering()
    r = page(director, by_page, buy_in="999")
    assert r.status_code == 200 and "locked once registration opens" in r.content.decode()
    r = api(director, by_api, buy_in="999")
    assert r.status_code == 409 and r.data["code"] == "money_fields_locked"
    for t in (by_page, by_api):
        t.refresh_from_db()
        assert t.buy_in == Decimal("100")
        assert not TournamentEvent.objects.filter(tournament=t, action=Action.TOURNAMENTS_TOURNAMENT_UPDATED).exists()


def test_with_a_reason_both_change_the_price_and_log_it_the_same_way(director, registering):
    by_page, by_api = registering(), registering()
    assert page(director, by_page, buy_in="150", override_reason="typo on the poster").status_code == 302
    assert api(director, by_api, buy_in="150", override_reason="typo on the poster").status_code == 200
    for t in (by_page, by_api):
        t.refresh_from_db()
        assert t.buy_in == Decimal("150")
        ev = TournamentEvent.objects.get(tournament=t, action=Action.TOURNAMENTS_TOURNAMENT_UPDATED)
        assert ev.payload["override_reason"] == "typo on the poster"
        # REG-03: the fee follows the buy-in (10 %), in the same logged change
        assert ev.payload["money"] == {"buy_in": ["100.00", "150.00"], "fee": ["10.00", "15.00"]}
        assert ev.payload["fields"] == ["buy_in", "fee"]


def test_a_freezeout_with_a_rebuy_is_refused_by_both(director, make_tournament):
    by_page, by_api = make_tournament(status=Tournament.PLANNED), make_tournament(status=Tournament.PLANNED)
    r = page(director, by_page, format=Tournament.FREEZEOUT, rebuy_price="50", rebuy_chips="10000")
    assert r.status_code == 200 and "FMT-03" in r.content.decode()
    r = api(director, by_api, format=Tournament.FREEZEOUT, rebuy_price="50", rebuy_chips=10000)
    assert r.status_code == 400 and "FMT-03" in str(r.data["fields"])
    for t in (by_page, by_api):
        t.refresh_from_db()
        assert t.rebuy_price is None


def test_a_negative_price_is_refused_by_both(director, make_tournament):
    by_page, by_api = make_tournament(), make_tournament()
    assert page(director, by_page, fee_preset="CUSTOM", fee_override="-5").status_code == 200  # REG-03: the page types no fee
    assert api(director, by_api, fee="-5").status_code == 400
    for t in (by_page, by_api):
        t.refresh_from_db()
        assert t.fee >= 0


def test_a_change_before_registration_needs_no_reason(director, make_tournament):
    t = make_tournament(status=Tournament.PLANNED)
    assert page(director, t, buy_in="120").status_code == 302
    t.refresh_from_db()
    assert t.buy_in == Decimal("120")


def test_fmt01_the_same_price_sent_again_needs_no_reason_and_logs_no_second_change(director, registering):
    t = registering()
    assert api(director, t, buy_in="100").status_code == 200  # the form saved again as it was
    assert api(director, t, buy_in="150", override_reason="typo on the poster").status_code == 200
    r = api(director, t, buy_in="150")  # the same change sent twice
    assert r.status_code == 200, r.data
    t.refresh_from_db()
    assert (t.buy_in, t.fee) == (Decimal("150"), Decimal("15"))
    moved = [
        ev.payload["money"]
        for ev in TournamentEvent.objects.filter(tournament=t, action=Action.TOURNAMENTS_TOURNAMENT_UPDATED).order_by("pk")
        if ev.payload["money"]
    ]
    assert moved == [{"buy_in": ["100.00", "150.00"], "fee": ["10.00", "15.00"]}]
