"""ROLE-01: the dealer («poker-boy»). From his table he reports what a dealer announces — a hand
completed (hand-for-hand included) and a player out (003 Art. 4.8) — and reads the tables and
the clock; he touches no money, moves, draws, penalties, clock controls or personal data."""

import pytest
from django.test import Client

from seating import services
from tests.conftest import client_for, make_user
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.models import Entry, HandForHandReport

from .test_support import arrange, seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def dealer(db):
    return make_user("deal", "dealer")


def test_role01_the_dealer_reports_a_player_out_and_the_hand_for_hand_hand_from_his_table_page(started, actor, dealer):
    t = started(20)
    clock_services.start_clock(t, actor=actor)
    clock_services.start_hand_for_hand(t, actor=actor, reason="bubble")
    table_1 = seat_map(t)[1]
    first_seat = min(table_1)
    out = table_1[first_seat]
    page = Client()
    page.force_login(dealer)
    home = page.get("/", follow=True).content.decode()  # his login lands on his own page: no roster, the events in play
    assert f'href="/tournaments/{t.pk}/dealer/"' in home  # his way in
    html = page.get(f"/tournaments/{t.pk}/dealer/?table=1").content.decode()
    assert 'id="dealer-table"' in html and Entry.objects.get(pk=out).person.first_name in html
    assert "play one hand, then report it" in html  # the table's hand-for-hand state

    r = page.post(f"/tournaments/{t.pk}/dealer/", {"op": "bust", "table": 1, "only": out}, follow=True)
    assert r.status_code == 200
    assert Entry.objects.get(pk=out).status == Entry.BUSTED and Entry.objects.get(pk=out).place == 20
    r = page.post(f"/tournaments/{t.pk}/dealer/", {"op": "hand", "table": 1}, follow=True)
    assert HandForHandReport.objects.filter(tournament=t, table_number=1).count() == 1
    assert "this table has reported its hand" in r.content.decode()
    assert t.events.filter(action="seating.player.busted", actor=dealer).exists()  # logged as his


def test_role01_the_dealer_is_refused_money_moves_and_the_floor_tools(started, actor, dealer, make_person):
    t = started(12)
    entry = Entry.objects.filter(tournament=t).first()
    api = client_for(dealer)
    refused = [
        ("post", "/api/v1/cashier/register/", {"tournament": t.pk, "person": make_person().pk, "method": "CASH"}),
        ("post", "/api/v1/cashier/rebuy/", {"entry": entry.pk, "method": "CASH"}),
        ("post", "/api/v1/cashier/refund/", {"entry": entry.pk, "reason": "x"}),
        ("get", f"/api/v1/tournaments/{t.pk}/ledger/", None),
        ("get", f"/api/v1/tournaments/{t.pk}/entries/", None),
        ("get", "/api/v1/people/", None),
        ("post", f"/api/v1/tournaments/{t.pk}/clock/start/", {}),
        ("post", f"/api/v1/tournaments/{t.pk}/seating/draw/", {}),
        ("post", f"/api/v1/tournaments/{t.pk}/tables/1/lock/", {"locked": True, "reason": "x"}),
    ]
    for method, url, body in refused:
        r = getattr(api, method)(url, body, format="json") if body is not None else getattr(api, method)(url)
        assert r.status_code == 403, (url, r.status_code)
    page = Client()
    page.force_login(dealer)
    for url in ("/desk/", f"/tournaments/{t.pk}/", f"/tournaments/{t.pk}/tables/", f"/tournaments/{t.pk}/payouts/"):
        assert page.get(url).status_code == 403, url
    # His page takes only a dealer's reports: a move typed into its form is refused by the role table.
    r = page.post(f"/tournaments/{t.pk}/dealer/", {"op": "move", "entry_number": entry.number, "to_table": 2, "to_seat": 1})
    assert r.status_code in (302, 403)
    assert not t.events.filter(action__startswith="seating.move", actor=dealer).exists()
    assert not t.events.filter(actor=dealer).exists()


def test_role01_a_dealer_reports_a_player_out_at_the_table_he_names_only(started, dealer, floor_user):
    t = started(20)
    tables = seat_map(t)
    at_1, at_2 = tables[1][min(tables[1])], tables[2][min(tables[2])]
    api = client_for(dealer)
    url = f"/api/v1/tournaments/{t.pk}/busts/"
    # no table named: refused, naming the field
    for body in ({"entries": [{"entry": at_2}]}, {"entries": [{"entry": at_2}], "table": None}):
        r = api.post(url, body, format="json")
        assert (r.status_code, r.json()["code"], r.json().get("field")) == (400, "table_required", "table"), r.json()
    # a player of another table: refused
    r = api.post(url, {"table": 1, "entries": [{"entry": at_2}]}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "not_at_table"), r.json()
    assert "sits at table 2, not 1" in r.json()["detail"]
    assert Entry.objects.get(pk=at_2).status == Entry.ACTIVE
    # his page without its table (an old form): the same refusal, as a message
    page = Client()
    page.force_login(dealer)
    html = page.post(f"/tournaments/{t.pk}/dealer/", {"op": "bust", "only": at_2}, follow=True).content.decode()
    assert "A dealer reports players out from a table: name the table." in html
    assert Entry.objects.get(pk=at_2).status == Entry.ACTIVE
    # at his table: recorded
    r = api.post(url, {"table": 2, "entries": [{"entry": at_2}]}, format="json")
    assert r.status_code == 201 and Entry.objects.get(pk=at_2).status == Entry.BUSTED
    # the floor is not tied to a table: he may leave it out, as before
    r = client_for(floor_user).post(url, {"entries": [{"entry": at_1}]}, format="json")
    assert r.status_code == 201, r.json()


def test_a_dealer_takes_back_only_the_bust_he_has_just_reported(started, actor, dealer, floor_user):
    """A wrong tap on «Player out» (#39 item 8): the page names the player out and offers an Undo;
    the dealer undoes his own bust while nothing came after it, never another's."""
    t = started(30)
    table_1 = seat_map(t)[1]
    first, second = sorted(table_1)[:2]
    page = Client()
    page.force_login(dealer)
    url = f"/tournaments/{t.pk}/dealer/"
    r = page.post(url, {"op": "bust", "table": 1, "only": table_1[first]}, follow=True)
    out = Entry.objects.get(pk=table_1[first])
    html = r.content.decode()
    assert out.status == Entry.BUSTED
    assert f"{out.person.full_name} #{out.number} out in place 30" in html  # the name, not only a number
    assert 'id="undo-just-busted"' in html
    bust = t.busts.get(entry=out, void="")
    r = page.post(url, {"op": "undo_bust", "table": 1, "bust": bust.pk}, follow=True)
    assert Entry.objects.get(pk=out.pk).status == Entry.ACTIVE, r.content.decode()

    # the floor's bust is not the dealer's to take back
    floor = Actor(floor_user, "floor-tablet")
    services.record_bust(t, [table_1[second]], actor=floor, table=1)
    theirs = t.busts.get(entry_id=table_1[second], void="")
    r = page.post(url, {"op": "undo_bust", "table": 1, "bust": theirs.pk}, follow=True)
    assert Entry.objects.get(pk=table_1[second]).status == Entry.BUSTED
    assert "ask the floor" in r.content.decode()

    # nor his own once another bust came after it
    page.post(url, {"op": "bust", "table": 1, "only": table_1[first]})
    mine = t.busts.get(entry_id=table_1[first], void="")
    later = next(e for e in seat_map(t)[1].values() if e)
    services.record_bust(t, [later], actor=floor, table=1)
    page.post(url, {"op": "undo_bust", "table": 1, "bust": mine.pk})
    assert Entry.objects.get(pk=table_1[first]).status == Entry.BUSTED
