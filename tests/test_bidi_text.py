"""Bidirectional control characters (U+202A–U+202E, U+2066–U+2069, U+200E/U+200F, U+061C) in a
text shown to others: a room's, a zone's, a screen's, a layout's and a device's name, a screen's
announcement, a layout's or a sound's text. Each made a lobby screen, a phone or the room map
read other than what was stored; each write is refused now, 400 ``bidi_control`` naming the
field (API), a message naming it on the page, in the user's language (``tdmanager.shown_text``)."""

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from seating.models import CardRoom, RoomTable
from seating.services import cardrooms
from tdmanager.shown_text import BIDI_CONTROLS
from tests.conftest import tournament_form
from tournaments.formats.models import Series
from tournaments.models import ChipSet, DeviceToken, DisplayScreen, ScreenLayout, Tournament, TournamentChange, TournamentTemplate

pytestmark = pytest.mark.django_db

SPOOF = "Sala \u202e1 alaS"
DESIGN = {"theme": {"background": "#101010", "text": "#fafafa", "accent": "#ffcc00"}, "blocks": [{"kind": "clock", "x": 0, "y": 0, "w": 24, "h": 24}]}


def refused(r, field):
    assert r.status_code == 400, (r.status_code, r.content[:300])
    body = r.json()
    assert body["code"] == "bidi_control" and body["field"] == field and field in body["fields"], body
    return body


@pytest.fixture
def room(actor):
    room = cardrooms.save_room("Sala", actor=actor)
    cardrooms.save_table(room, 1, seats=9, actor=actor)
    return room


@pytest.mark.parametrize("ch", sorted(BIDI_CONTROLS))
def test_every_bidi_control_in_a_room_name_is_refused(api, director, ch):
    refused(api(director).post("/api/v1/rooms/", {"name": f"Sala{ch}1"}, format="json"), "name")
    assert not CardRoom.objects.exists()


def test_the_api_refuses_them_in_rooms_and_zones(api, director, room):
    c = api(director)
    refused(c.patch(f"/api/v1/rooms/{room.pk}/", {"name": SPOOF}, format="json"), "name")
    refused(c.post(f"/api/v1/rooms/{room.pk}/tables/", {"number": 2, "zone": "\u2067VIP\u2069"}, format="json"), "zone")
    refused(c.patch(f"/api/v1/rooms/{room.pk}/tables/1/", {"zone": "A\u200fB"}, format="json"), "zone")
    refused(c.post(f"/api/v1/rooms/{room.pk}/tables/1/out-of-service/", {"reason": "rotto\u202b"}, format="json"), "reason")
    room.refresh_from_db()
    assert room.name == "Sala" and list(RoomTable.objects.values_list("number", "zone")) == [(1, "")]


def test_the_api_refuses_them_in_a_screen_name_and_announcement(api, director, make_tournament):
    t, c = make_tournament(), api(director)
    refused(c.post("/api/v1/screens/", {"name": SPOOF, "tournament": t.pk}, format="json"), "name")
    screen = c.post("/api/v1/screens/", {"name": "TV", "tournament": t.pk}, format="json").json()
    refused(c.patch(f"/api/v1/screens/{screen['id']}/", {"announcement": "Break \u061c15 min"}, format="json"), "announcement")
    refused(c.patch(f"/api/v1/screens/{screen['id']}/", {"name": "TV\u200e"}, format="json"), "name")
    assert list(DisplayScreen.objects.values_list("name", "announcement")) == [("TV", "")]


def test_the_api_refuses_them_in_a_layout_name_and_its_texts(api, director, make_tournament):
    c = api(director)
    refused(c.post("/api/v1/screen-layouts/", {"name": SPOOF, "design": DESIGN}, format="json"), "name")
    text_block = {"kind": "text", "x": 0, "y": 0, "w": 10, "h": 4, "text": "Benvenuti \u202d"}
    refused(c.post("/api/v1/screen-layouts/", {"name": "Sala", "design": {**DESIGN, "blocks": [text_block]}}, format="json"), "blocks[0].text")
    lid = c.post("/api/v1/screen-layouts/", {"name": "Sala", "design": DESIGN}, format="json").json()["id"]
    refused(c.put(f"/api/v1/screen-layouts/{lid}/", {"name": "Sala\u2066", "design": DESIGN}, format="json"), "name")
    assert list(ScreenLayout.objects.values_list("name", flat=True)) == ["Sala"]
    screen = c.post("/api/v1/screens/", {"name": "TV", "tournament": make_tournament().pk}, format="json").json()
    r = c.patch(f"/api/v1/screens/{screen['id']}/", {"sounds": {"events": {"level": {"text": "Livello \u202e"}}}}, format="json")
    assert r.status_code == 400 and r.json()["code"] in ("bidi_control", "invalid"), r.content


def test_the_login_refuses_them_in_a_device_name(director):
    director.set_password("pw-secret-1")
    director.save()
    r = Client().post(
        "/api/v1/auth/token/", {"username": director.username, "password": "pw-secret-1", "device": "Tablet\u202e"}, content_type="application/json"
    )
    refused(r, "device")
    assert not DeviceToken.objects.exists()


def test_the_italian_refusal_names_the_field_in_italian(api, director):
    r = api(director).post("/api/v1/rooms/", {"name": SPOOF}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    # the label in Italian; the message too once the catalogue is compiled (manage.py compilemessages)
    assert refused(r, "name")["detail"].startswith("Nome: ")


def _page(director, room, data):
    c = Client()
    c.force_login(director)
    r = c.post(f"/room/{room.pk}/" if room else "/room/", data, follow=True)
    return [str(m) for m in get_messages(r.wsgi_request)]


def test_the_room_page_refuses_them_naming_the_field(director, room):
    said = _page(director, None, {"op": "add_room", "name": SPOOF})
    assert any(m.startswith("Name:") and "right-to-left" in m for m in said), said
    said = _page(director, room, {"op": "rename_room", "name": SPOOF})
    assert any(m.startswith("Name:") for m in said), said
    said = _page(director, room, {"op": "save_table", "number": "2", "seats": "9", "zone": "\u2068VIP"})
    assert any(m.startswith("Zone:") for m in said), said
    said = _page(director, room, {"op": "out", "number": "1", "reason": "\u202artotto"})
    assert any(m.startswith("Reason:") for m in said), said
    assert list(CardRoom.objects.values_list("name", flat=True)) == ["Sala"]
    assert list(RoomTable.objects.values_list("number", "zone", "out_of_service")) == [(1, "", "")]


# --- tournaments, structures, chip sets, published changes, series, payout templates ----------
# Each is read by the players: a tournament's name on the lobby screens, the phones, the public
# rules page and the slips; a structure's and a chip set's name on the screens; a published
# change's reason on the public change feed; a series' name on its leaderboard.


def _logged_in(director):
    c = Client()
    c.force_login(director)
    return c


def _said(r):
    return [str(m) for m in get_messages(r.wsgi_request)]


def test_the_api_refuses_them_in_a_tournament_name_however_it_is_made(api, director, structure, make_tournament):
    c, t = api(director), make_tournament(status=Tournament.PLANNED)
    new = {"start_at": "2026-07-09T19:00:00Z", "buy_in": "100", "starting_stack": 30000, "structure": structure.pk}
    refused(c.post("/api/v1/tournaments/", {**new, "name": SPOOF}, format="json"), "name")
    refused(c.patch(f"/api/v1/tournaments/{t.pk}/", {"name": SPOOF}, format="json"), "name")
    refused(c.post(f"/api/v1/tournaments/{t.pk}/copy/", {"name": SPOOF, "start_at": "2026-07-09T19:00:00Z"}, format="json"), "name")
    refused(c.post(f"/api/v1/tournaments/{t.pk}/save-template/", {"name": SPOOF}, format="json"), "name")
    assert c.post(f"/api/v1/tournaments/{t.pk}/save-template/", {"name": "Domenica"}, format="json").status_code in (200, 201)
    template = TournamentTemplate.objects.get()
    r = c.post(f"/api/v1/tournament-templates/{template.pk}/create-tournament/", {"name": SPOOF, "start_at": "2026-07-09T19:00:00Z"}, format="json")
    refused(r, "name")
    assert list(Tournament.objects.values_list("name", flat=True)) == ["Sunday Special"]
    assert c.post("/api/v1/tournaments/", {**new, "name": "Sala 1"}, format="json").status_code == 201


def test_the_pages_refuse_them_in_a_tournament_name(director, structure, make_tournament):
    c, t = _logged_in(director), make_tournament(status=Tournament.PLANNED)
    r = c.post("/tournaments/new/", tournament_form(structure.pk, SPOOF))
    assert r.status_code == 200 and "right-to-left" in r.content.decode()
    r = c.post(f"/tournaments/{t.pk}/edit/", tournament_form(structure.pk, SPOOF))
    assert r.status_code == 200 and "right-to-left" in r.content.decode()
    said = _said(c.post(f"/tournaments/{t.pk}/", {"op": "copy", "name": SPOOF, "start_at": "2026-07-09T19:00"}, follow=True))
    assert any(m.startswith("Name:") for m in said), said
    said = _said(c.post(f"/tournaments/{t.pk}/", {"op": "save-template", "template_name": SPOOF}, follow=True))
    assert any(m.startswith("Name:") for m in said), said
    c.post(f"/tournaments/{t.pk}/", {"op": "save-template", "template_name": "Domenica"})
    template = TournamentTemplate.objects.get()
    said = _said(c.post("/tournaments/templates/", {"template": template.pk, "name": SPOOF, "start_at": "2026-07-09T19:00"}, follow=True))
    assert any(m.startswith("Name:") for m in said), said
    assert list(Tournament.objects.values_list("name", flat=True)) == ["Sunday Special"]
    r = c.post("/tournaments/new/", tournament_form(structure.pk, "Sala 1"))
    assert r.status_code == 302 and Tournament.objects.filter(name="Sala 1").exists()


CHIPS = [{"value": 25, "colour": "green", "quantity": 100}]


def test_the_api_refuses_them_in_a_structure_and_a_chip_set(api, director, structure):
    c = api(director)
    items = c.get(f"/api/v1/structures/{structure.pk}/").json()["items"]
    refused(c.post("/api/v1/structures/", {"name": SPOOF, "items": items}, format="json"), "name")
    refused(c.post("/api/v1/structures/", {"name": "Turbo", "description": "veloce\u2067", "items": items}, format="json"), "description")
    refused(c.put(f"/api/v1/structures/{structure.pk}/", {"name": SPOOF, "items": items}, format="json"), "name")
    assert c.post("/api/v1/structures/", {"name": "Turbo 2", "items": items}, format="json").status_code == 201
    refused(c.post("/api/v1/chipsets/", {"name": SPOOF, "denominations": CHIPS}, format="json"), "name")
    cs = c.post("/api/v1/chipsets/", {"name": "Casa", "denominations": CHIPS}, format="json")
    assert cs.status_code == 201, cs.content
    refused(c.patch(f"/api/v1/chipsets/{cs.json()['id']}/", {"name": SPOOF}, format="json"), "name")
    assert list(ChipSet.objects.values_list("name", flat=True)) == ["Casa"]


def test_a_published_change_refuses_them_in_its_reason(api, director, make_tournament):
    c, t = api(director), make_tournament()  # registering: published, each change a version
    r = c.patch(f"/api/v1/tournaments/{t.pk}/", {"starting_stack": 40000, "override_reason": "Più \u202echips"}, format="json")
    refused(r, "override_reason")
    assert not TournamentChange.objects.exists()
    ok = c.patch(f"/api/v1/tournaments/{t.pk}/", {"starting_stack": 40000, "override_reason": "Più chips"}, format="json")
    assert ok.status_code == 200, ok.content
    # a reason stored before the rule is never shown to the players as it is
    TournamentChange.objects.create(tournament=t, version=2, changes={"name": ["a", "b"]}, reason="vecchio \u202e")
    refused(c.post(f"/api/v1/tournaments/{t.pk}/changes/2/reason/", {"public": True}, format="json"), "reason")
    said = _said(_logged_in(director).post(f"/tournaments/{t.pk}/", {"op": "reason-public", "version": "2"}, follow=True))
    assert any(m.startswith("Reason:") for m in said), said
    assert c.post(f"/api/v1/tournaments/{t.pk}/changes/1/reason/", {"public": True}, format="json").status_code == 200
    assert list(TournamentChange.objects.order_by("version").values_list("reason_public", flat=True)) == [True, False]


def test_the_page_refuses_them_in_a_published_change_reason(director, structure, make_tournament):
    t = make_tournament()
    r = _logged_in(director).post(
        f"/tournaments/{t.pk}/edit/", {**tournament_form(structure.pk, t.name), "starting_stack": "40000", "override_reason": "\u2066x"}
    )
    assert r.status_code == 200 and "right-to-left" in r.content.decode()
    assert not TournamentChange.objects.exists()


def test_series_sit_and_go_and_payout_templates_refuse_them(api, director, structure):
    c = api(director)
    refused(c.post("/api/v1/formats/series/", {"name": SPOOF, "cycle_length": 20}, format="json"), "name")
    refused(
        c.post("/api/v1/formats/series/", {"name": "Riviera", "cycle_length": 20, "ticket_description": "Ticket\u202e"}, format="json"), "ticket_description"
    )
    said = _said(
        _logged_in(director).post(
            "/formats/series/new/",
            {
                "name": SPOOF,
                "cycle_length": "20",
                "lb_constant_mode": "A",
                "participants": "ENTRIES",
                "shared_rule": "AVERAGE_PLACE",
                "tie_break": "BEST_RESULT",
                "tickets_per_cycle": "4",
                "scoring": "SANREMO",
                "multiplier": "10",
                "participation_points": "0",
                "knockout_points": "0",
                "ticket_description": "Ticket",
                "ticket_value": "0",
            },
            follow=True,
        )
    )
    assert any(m.startswith("Name:") for m in said), said
    assert not Series.objects.exists()
    assert c.post("/api/v1/formats/series/", {"name": "Riviera", "cycle_length": 20}, format="json").status_code == 201
    sng = {"buy_in": "30", "fee": "5", "starting_stack": 5000, "structure": structure.pk}
    refused(c.post("/api/v1/formats/sit-and-go/", {**sng, "name": SPOOF}, format="json"), "name")
    assert not Tournament.objects.exists()
    refused(c.post("/api/v1/payouts/templates/", {"name": SPOOF, "percents": ["100"]}, format="json"), "name")
    assert c.post("/api/v1/payouts/templates/", {"name": "Winner", "percents": ["100"]}, format="json").status_code == 201


def test_side_pool_names_and_prize_descriptions_refuse_them(api, director, make_tournament):
    """Both are on the lobby screens: a side pool's name in the pool's box, a prize that is not
    money (a seat, a watch) by its description in the payout ladder."""
    from payouts.models import PayoutTable, SidePool

    c, t = api(director), make_tournament()
    refused(c.post(f"/api/v1/tournaments/{t.pk}/payouts/side-pools/", {"kind": "LAST_LONGER", "name": "Last \u202eLonger"}, format="json"), "name")
    assert not SidePool.objects.exists()
    assert c.post(f"/api/v1/tournaments/{t.pk}/payouts/side-pools/", {"kind": "LAST_LONGER", "name": "Last Longer"}, format="json").status_code == 201
    prizes = [{"place": 1, "kind": "CASH", "amount": "0"}, {"place": 2, "kind": "ITEM", "amount": "0", "description": "Orologio \u2067x"}]
    refused(c.post(f"/api/v1/tournaments/{t.pk}/payouts/table/", {"prizes": prizes, "reason": "premi"}, format="json"), "prizes[1].description")
    assert not PayoutTable.objects.filter(tournament=t, prizes__description__startswith="Orologio").exists()


def test_every_format_refuses_them_in_the_names_it_shows(actor, make_tournament, structure):
    """The formats' own services, called by their pages and APIs alike: a daily tournament's name,
    a multi-day event's name and flight labels, a format's event, a qualifier group, a buy-in
    option's label, a tournament template. Each refused naming its field, nothing made."""
    from decimal import Decimal

    from tdmanager.errors import ValidationFailed
    from tournaments.formats.services import common, multiday, series, stackchoice, timed
    from tournaments.setup import services as setup

    t = make_tournament()

    def multiday_event(name, label):
        money = {"buy_in": Decimal(100), "fee": Decimal(10), "starting_stack": 30000}
        return multiday.create_event(name=name, flights=[{"label": label}], day2_start_at=None, structure=structure, actor=actor, **money)

    calls = {
        "name": [
            lambda: series.schedule_daily(None, None, structure=structure, starting_stack=30000, actor=actor, name=SPOOF),
            lambda: multiday_event(SPOOF, "1A"),
            lambda: common.open_event(
                name=SPOOF,
                start_at=None,
                event_format="FREEZEOUT",
                buy_in=Decimal(100),
                fee=Decimal(10),
                starting_stack=30000,
                structure=structure,
                actor=actor,
                fee_reason="",
            ),
            lambda: timed.create_qualifier_group(name=SPOOF, final=t, qualifiers=[], actor=actor),
            lambda: setup.save_template(t, name=SPOOF, actor=actor),
        ],
        "flights": [lambda: multiday_event("Main", "1\u202eA")],
        "label": [
            lambda: stackchoice.add_stack_option(t, label="Deep\u2066", buy_in=Decimal(100), fee=Decimal(10), chips=50000, actor=actor, override_reason="more")
        ],
    }
    before = Tournament.objects.count()
    for field, makers in calls.items():
        for make in makers:
            with pytest.raises(ValidationFailed) as refused:
                make()
            assert refused.value.code == "bidi_control" and refused.value.extra["field"] == field
    assert Tournament.objects.count() == before and not TournamentTemplate.objects.exists() and not t.stack_options.exists()
