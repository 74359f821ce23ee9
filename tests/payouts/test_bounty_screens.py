"""Bounties on the screens people look at (PAY-02): the floor's table map, the lobby screen, the
player's phone and the staff's person history — always in money.

Every expectation is worked by hand in the comments from the house settings of the test: each
entry pays €50 to the pool, €50 of bounty and a €10 fee; bounty shares are rounded down to €1.
"""

from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from payouts import selectors as sel
from payouts import services
from payouts.models import BountyAward
from seating import selectors as seating_selectors
from seating import services as seating
from tournaments.cashier import services as cashier
from tournaments.live.snapshot import build_snapshot
from tournaments.phone.views import phone_index, phone_state
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db
D = Decimal
NAMES = [("Anna", "Bianchi"), ("Bruno", "Verdi"), ("Carla", "Neri"), ("Dario", "Rossi")]


def event(make_tournament, make_person, cashier_actor, actor, **settings):
    """Anna, Bruno, Carla and Dario (entries #1–#4) in a started event with these house settings."""
    t = make_tournament(buy_in=D("50"), fee=D("10"), currency="EUR", settings=settings)
    entries = [cashier.register(t, make_person(first, last), method="CASH", actor=cashier_actor).entry for first, last in NAMES]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    t.refresh_from_db()
    return t, entries


def out(t, entry, *by, actor):
    """``entry`` knocked out by ``by`` (a split pot when more than one)."""
    return seating.record_bust(t, [{"entry": entry.pk, "eliminators": [e.pk for e in by]}], actor=actor)


@pytest.fixture
def pko(make_tournament, make_person, cashier_actor, actor):
    """A PKO half-way: Anna knocked Bruno out (his 50: 25 cash, 25 onto her head: 75), Carla
    knocked Dario out (the same: Carla's head 75), and Anna collected her 25 at the desk."""
    t, (anna, bruno, carla, dario) = event(make_tournament, make_person, cashier_actor, actor, bounty="PKO", bounty_amount="50")
    out(t, bruno, anna, actor=actor)
    out(t, dario, carla, actor=actor)
    services.pay_bounties(anna, method="CASH", actor=cashier_actor)
    return t, (anna, bruno, carla, dario)


@pytest.fixture
def mystery(make_tournament, make_person, cashier_actor, actor):
    """A mystery event paying from the start, two envelopes: €120 (no. 1) and €80 (no. 2), the
    4 × €50 taken in."""
    t, entries = event(make_tournament, make_person, cashier_actor, actor, bounty="MYSTERY", bounty_amount="50", mystery_from="START")
    services.set_envelopes(t, ["120", "80"], actor=actor)
    t.refresh_from_db()
    return t, entries


ENVELOPES = {1: D("120.00"), 2: D("80.00")}


# --- the lobby screen ---------------------------------------------------------------------------


def test_the_lobby_shows_a_pko_pool_what_was_paid_and_the_biggest_heads(pko):
    t, _ = pko
    panel = build_snapshot(t.pk)["bounty"]
    # Taken in 4 × 50 = 200; the knockouts paid 25 + 25 = 50 (collected or not); on the heads
    # still playing Anna 75 and Carla 75 (equal: by entry number), names as the public lists show them.
    assert panel == {
        "kind": "PKO",
        "pool": "200.00",
        "paid": "50.00",
        "top": [{"name": "Anna B.", "amount": "75.00"}, {"name": "Carla N.", "amount": "75.00"}],
    }


def test_the_pko_panel_ends_with_every_bounty_paid_and_no_head(pko, actor):
    t, (anna, _bruno, carla, _dario) = pko
    # Anna knocks Carla out: 75 → 37 cash (37.5 rounded down), 38 onto Anna's head (113);
    # the last one left, she wins her own 113. Paid: 25 + 25 + 37 + 113 = 200, all taken in.
    out(t, carla, anna, actor=actor)
    panel = build_snapshot(t.pk)["bounty"]
    assert (panel["paid"], panel["pool"], panel["top"]) == ("200.00", "200.00", [])


def test_the_lobby_names_the_heads_as_the_house_shows_names_in_public(pko):
    t, (anna, *_rest) = pko
    t.settings = {**t.settings, "seat_lookup_names": "FULL"}
    t.save(update_fields=["settings"])
    anna.person.hide_from_lookup = True
    anna.person.save(update_fields=["hide_from_lookup"])
    assert [h["name"] for h in build_snapshot(t.pk)["bounty"]["top"]] == ["—", "Carla Neri"]


def test_the_lobby_shows_the_envelopes_left_and_the_last_one_drawn(mystery, actor):
    t, (anna, bruno, carla, dario) = mystery
    panel = build_snapshot(t.pk)["bounty"]
    assert panel == {
        "kind": "MYSTERY",
        "pool": "200.00",
        "paid": "0.00",
        "envelopes": 2,
        "envelopes_left": 2,
        "envelopes_left_amount": "200.00",
        "last_draw": None,
    }
    first = out(t, bruno, anna, actor=actor).busts[0]
    x = BountyAward.objects.get(bust=first).envelope  # drawn at random: the expectations follow from it
    panel = build_snapshot(t.pk)["bounty"]
    assert (panel["envelopes_left"], panel["envelopes_left_amount"]) == (1, str(D("200.00") - ENVELOPES[x]))
    assert panel["last_draw"]["envelope"] == x and panel["last_draw"]["amount"] == str(ENVELOPES[x])
    assert panel["last_draw"]["names"] == ["Anna B."] and panel["paid"] == str(ENVELOPES[x])
    # A split pot: Anna and Dario knock Carla out; the other envelope is the only one left, shared equally.
    second = out(t, carla, anna, dario, actor=actor).busts[0]
    y = 3 - x
    panel = build_snapshot(t.pk)["bounty"]
    assert panel["last_draw"] == {
        "id": second.pk,
        "envelope": y,
        "amount": str(ENVELOPES[y]),
        "names": ["Anna B.", "Dario R."],
        "at": panel["last_draw"]["at"],
    }
    assert (panel["envelopes_left"], panel["envelopes_left_amount"], panel["paid"]) == (0, "0.00", "200.00")


def test_pay02_the_lobby_shows_the_last_standing_draw_names_as_the_house_says_and_ends_empty(make_tournament, make_person, cashier_actor, actor):
    # Four envelopes of 80 / 50 / 40 / 30 for the 4 × €50, drawn from the start; the house shows
    # full names in public. Another mystery event the same evening has drawn nothing yet.
    envelopes = {1: D("80.00"), 2: D("50.00"), 3: D("40.00"), 4: D("30.00")}
    t, (anna, bruno, carla, dario) = event(
        make_tournament, make_person, cashier_actor, actor, bounty="MYSTERY", bounty_amount="50", mystery_from="START", seat_lookup_names="FULL"
    )
    services.set_envelopes(t, [str(v) for v in envelopes.values()], actor=actor)
    other, _ = event(make_tournament, make_person, cashier_actor, actor, bounty="MYSTERY", bounty_amount="50", mystery_from="START")
    services.set_envelopes(other, ["100", "100"], actor=actor)
    other.refresh_from_db()
    t.refresh_from_db()
    first = out(t, bruno, anna, actor=actor).busts[0]
    second = out(t, carla, dario, actor=actor).busts[0]
    x, y = (BountyAward.objects.get(bust=b).envelope for b in (first, second))
    panel = sel.bounty_panel(t)
    assert panel["last_draw"] == {"id": second.pk, "envelope": y, "amount": str(envelopes[y]), "names": ["Dario Rossi"], "at": panel["last_draw"]["at"]}
    assert (panel["envelopes_left"], panel["envelopes_left_amount"]) == (2, str(D("200") - envelopes[x] - envelopes[y]))
    assert sel.bounty_panel(other)["envelopes_left"] == 2 and sel.bounty_panel(other)["last_draw"] is None
    assert sel.bounty_panel(other)["paid"] == "0.00"
    # The second bust was a mistake: undone, its envelope is back in the bag and the last draw is the first.
    seating.undo_bust(t, second, actor=actor, reason="wrong player")
    panel = sel.bounty_panel(t)
    assert (panel["last_draw"]["id"], panel["last_draw"]["envelope"], panel["last_draw"]["names"]) == (first.pk, x, ["Anna Bianchi"])
    assert (panel["envelopes_left"], panel["envelopes_left_amount"]) == (3, str(D("200") - envelopes[x]))
    # Anna knocks the other two out: three envelopes drawn, the last one goes to her as the winner.
    out(t, carla, anna, actor=actor)
    out(t, dario, anna, actor=actor)
    panel = sel.bounty_panel(t)
    assert (panel["envelopes"], panel["envelopes_left"], panel["envelopes_left_amount"], panel["paid"]) == (4, 0, "0.00", "200.00")


def test_a_plain_event_s_lobby_reads_nothing_of_bounties(make_tournament, make_person, cashier_actor, actor):
    plain, _ = event(make_tournament, make_person, cashier_actor, actor)
    pko, _ = event(make_tournament, make_person, cashier_actor, actor, bounty="PKO", bounty_amount="50")
    for t in (plain, pko):
        build_snapshot(t.pk)  # warm: the structure's cache
    with CaptureQueriesContext(connection) as plain_reads:
        snap = build_snapshot(plain.pk)
    with CaptureQueriesContext(connection) as pko_reads:
        build_snapshot(pko.pk)
    assert "bounty" not in snap
    assert [q["sql"] for q in plain_reads.captured_queries if "bounty" in q["sql"].lower()] == []
    # The panel is three small reads on top of the same snapshot: the bounty money taken in,
    # what the knockouts paid, the five biggest heads.
    assert len(pko_reads.captured_queries) == len(plain_reads.captured_queries) + 3


def test_the_lobby_screen_has_the_bounty_panel_and_the_draw_box(make_tournament, client):
    from tournaments.models import DisplayScreen

    t = make_tournament(settings={"bounty": "MYSTERY", "bounty_amount": "50"})
    screen = DisplayScreen.objects.create(name="TV", tournament=t, token="bounty-tv")
    html = client.get(f"/display/{screen.token}/").content.decode()
    assert 'id="bounty-panel"' in html and 'id="mystery-draw"' in html and 'id="bounty-top"' in html


# --- the player's phone ---------------------------------------------------------------------------


def test_the_phone_shows_the_bounty_on_the_head_and_what_was_won_and_collected(pko):
    t, (anna, bruno, carla, dario) = pko
    # Anna: 75 on her head, won 25 and collected it; Carla: 75 on her head, 25 still to collect.
    anna_state = Client().get(f"/p/{anna.phone_token}/state/").json()
    assert anna_state["bounty"] == {"kind": "PKO", "head": "75.00", "won": "25.00", "collected": "25.00", "to_collect": "0.00", "knockouts": 1}
    carla_state = phone_state(carla.pk)
    assert carla_state["bounty"] == {"kind": "PKO", "head": "75.00", "won": "25.00", "collected": "0.00", "to_collect": "25.00", "knockouts": 1}
    # Bruno is out and won nothing: no bounty on his head, nothing to show.
    assert phone_state(bruno.pk)["bounty"] is None
    html = Client().get(f"/p/{carla.phone_token}/").content.decode()
    assert 'id="phone-bounty"' in html and 'id="phone-bounty" hidden' not in html


def test_every_phone_s_bounty_comes_from_two_reads_and_matches_the_phone_s_own(pko):
    t, entries = pko
    snap = build_snapshot(t.pk)
    with CaptureQueriesContext(connection) as reads:
        answer = sel.entries_prizes(t, snap.get("places_paid"))
    assert len([q for q in reads.captured_queries if "bounty" in q["sql"].lower()]) == 2
    _public, own = phone_index(t.pk, snap, {})
    for e in entries:
        assert own[e.pk].part["bounty"] == phone_state(e.pk, snap)["bounty"]
    assert answer[entries[2].pk]["bounty"]["to_collect"] == "25.00"


def test_a_mystery_phone_shows_the_envelopes_won(mystery, actor):
    t, (anna, bruno, carla, dario) = mystery
    first = out(t, bruno, anna, actor=actor).busts[0]
    x = BountyAward.objects.get(bust=first).envelope
    out(t, carla, anna, dario, actor=actor)
    # Anna: her whole first envelope and half of the other (120 + 40 or 80 + 60); Dario the other half.
    y = 3 - x
    anna_won = ENVELOPES[x] + ENVELOPES[y] / 2
    assert anna_won == {1: D("160.00"), 2: D("140.00")}[x]
    bounty = phone_state(anna.pk)["bounty"]
    assert (bounty["head"], bounty["won"], bounty["to_collect"], bounty["knockouts"]) == (None, str(anna_won), str(anna_won), 2)
    assert phone_state(dario.pk)["bounty"]["won"] == {1: "40.00", 2: "60.00"}[x]


def test_a_plain_event_s_phones_read_nothing_of_bounties(make_tournament, make_person, cashier_actor, actor):
    t, entries = event(make_tournament, make_person, cashier_actor, actor)
    snap = build_snapshot(t.pk)
    with CaptureQueriesContext(connection) as reads:
        _public, own = phone_index(t.pk, snap, {})
    assert [q["sql"] for q in reads.captured_queries if "bounty" in q["sql"].lower()] == []
    assert own[entries[0].pk].part["bounty"] is None


# --- the table map ------------------------------------------------------------------------------


def test_the_table_map_shows_each_head_s_bounty_in_money(pko, client, floor_user):
    t, (anna, bruno, carla, dario) = pko
    seats = {s["entry"]: s for tb in seating_selectors.table_map(t)["tables"] for s in tb["seats"] if s["entry"]}
    assert {e: s["bounty"] for e, s in seats.items()} == {anna.pk: "75.00", carla.pk: "75.00"}
    client.force_login(floor_user)
    html = client.get(f"/tournaments/{t.pk}/tables/").content.decode()
    assert html.count('class="tag bounty"') == 2 and "€75.00" in html


def test_the_table_map_of_a_plain_event_asks_nothing_about_bounties(make_tournament, make_person, cashier_actor, actor):
    t, _ = event(make_tournament, make_person, cashier_actor, actor)
    with CaptureQueriesContext(connection) as reads:
        seats = [s for tb in seating_selectors.table_map(t)["tables"] for s in tb["seats"] if s["entry"]]
    assert len(seats) == 4 and all(s["bounty"] is None for s in seats)
    assert [q["sql"] for q in reads.captured_queries if "bounty" in q["sql"].lower()] == []


# --- the staff's person history -------------------------------------------------------------------


def test_the_history_lists_the_bounties_each_event_won(pko, client, director):
    t, (anna, bruno, carla, dario) = pko
    assert sel.history_prizes([anna, bruno]) == {anna.pk: {"bounties": {"won": "25.00", "collected": "25.00", "to_collect": "0.00", "knockouts": 1}}}
    client.force_login(director)
    html = client.get(f"/people/{carla.person_id}/").content.decode()
    assert "€25.00" in html and "1 knockout" in html and "€25.00 to collect" in html


def test_pay02_a_pko_lobby_summary_keeps_the_bounty_money_apart_and_names_what_the_winner_won(pko, actor):
    t, (anna, _bruno, carla, _dario) = pko
    panel = {"kind": "PKO", "pool": "200.00", "paid": "50.00", "top": [{"name": "Anna B.", "amount": "75.00"}, {"name": "Carla N.", "amount": "75.00"}]}
    # The prize pool is the 4 × €50 to the pool, the 4 × €50 of bounty apart from it; four
    # entries pay one place (the whole pool); no result while it runs.
    assert sel.display_summary(t) == {
        "prize_pool": "200.00",
        "prize_pool_label": "net",
        "prize_pool_show": "NET",
        "prize_pool_gross": None,
        "prize_pool_net": "200.00",
        "guarantee": None,
        "guarantee_label": "gross",
        "bounty_money": "200.00",
        "payouts": [{"places": "1", "amount": "200.00", "prize": ""}],
        "places_paid": 1,
        "payout_table_state": "AUTO",
        "side_pools": [],
        "bounty": panel,
    }
    # Anna knocks Carla out and wins: the lobby names her €200 (her bounties are the panel's).
    out(t, carla, anna, actor=actor)
    lifecycle.finish(t, actor=actor)
    t.refresh_from_db()
    with CaptureQueriesContext(connection) as ctx:
        s = sel.display_summary(t)
    assert s["won"] == {str(anna.pk): {"amount": "200.00", "prize": ""}}
    # The payout table's row and its prizes, read once, serve the ladder and what each won.
    assert len([q for q in ctx.captured_queries if 'FROM "payouts_payouttable"' in (q["sql"] or "")]) == 1
    assert (s["bounty_money"], s["bounty"]["paid"], s["bounty"]["top"]) == ("200.00", "200.00", [])


def test_pay02_the_pko_winner_s_phone_shows_his_prize_and_his_bounties_from_the_stream_as_from_its_poll(pko, actor):
    """Anna knocks Carla out too and wins: her phone shows the €200 prize pool (one place paid)
    and her bounties: 25 for Bruno, 37 for Carla (half her 75, rounded down to €1) and her own
    head of 113 (75 + the 38 onto it), 175 won, 25 of it collected; the same from the stream."""
    t, (anna, _bruno, carla, _dario) = pko
    out(t, carla, anna, actor=actor)
    lifecycle.finish(t, actor=actor)
    snap = build_snapshot(t.pk)
    public, own = phone_index(t.pk, snap, {})
    mine = own[anna.pk].part
    assert mine["prizes"] == [{"amount": "200.00", "kind": "CASH", "description": "", "paid": False, "ready": False}]
    assert mine["bounty"] == {"kind": "PKO", "head": None, "won": "175.00", "collected": "25.00", "to_collect": "150.00", "knockouts": 2}
    assert phone_state(anna.pk, snap) == {**public, **mine}
