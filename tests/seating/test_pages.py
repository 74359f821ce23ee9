"""Pages: the table map, move slips, the draw history, the public seat lookup, and what the
other apps read from seating (tournament page links, lobby snapshot, hand-for-hand tables)."""

import pytest
from django.templatetags.static import static

from seating import selectors, services
from seating.models import PendingMove
from tournaments.live.snapshot import build_snapshot
from tournaments.models import Entry
from tournaments.people.names import public_name

from .test_support import arrange, counts, seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def scenario_10(started, actor):
    t = started(18, table_size=10)
    layout = arrange(t, {1: range(1, 11), 2: range(1, 9)}, big_blinds={1: (3, 2), 2: (5, 4)})
    services.set_big_blind(t, 1, 3, previous_big_blind_seat=2, actor=actor)
    return t, layout


def test_the_table_map_is_for_floor_and_director(client, started, floor_user, cashier_user):
    t = started(12)
    page = f"/tournaments/{t.pk}/tables/"
    assert client.get(page).status_code == 302  # log in first
    client.force_login(cashier_user)
    assert client.get(page).status_code == 403
    client.force_login(floor_user)
    html = client.get(page).content.decode()
    assert 'id="table-1"' in html and 'id="table-2"' in html and "Next hand" in html


def test_the_floor_records_a_bust_and_confirms_the_move_on_the_page(client, scenario_10, floor_user):
    t, layout = scenario_10
    client.force_login(floor_user)
    page = f"/tournaments/{t.pk}/tables/"
    html = client.get(page).content.decode()
    move = PendingMove.objects.get(tournament=t, status=PendingMove.PROPOSED)
    assert f'data-move="{move.pk}"' in html and "next big blind at table 1 (seat 4)" in html
    r = client.post(page, {"op": "confirm", "move": move.pk}, follow=True)
    assert "Move confirmed." in r.content.decode() and counts(t) == {1: 9, 2: 9}
    r = client.post(page, {"op": "bust", "table": 2, "only": layout[2][1]}, follow=True)
    assert "out in place 18" in r.content.decode()
    assert Entry.objects.get(pk=layout[2][1]).status == Entry.BUSTED
    r = client.post(
        page,
        {"op": "bust", "table": 1, "entries": [layout[1][1], layout[1][2]], "same_hand": "1", f"stack_{layout[1][1]}": "5000", f"stack_{layout[1][2]}": "7000"},
        follow=True,
    )
    assert Entry.objects.get(pk=layout[1][2]).place == 16 and Entry.objects.get(pk=layout[1][1]).place == 17
    r = client.post(page, {"op": "hand", "table": 9}, follow=True)
    assert "Table 9 is not in play." in r.content.decode()  # refusals come back as messages


def test_move_slips_print_at_80_mm(client, scenario_10, floor_user):
    t, layout = scenario_10
    client.force_login(floor_user)
    html = client.get(f"/tournaments/{t.pk}/tables/slips/").content.decode()
    person = Entry.objects.get(pk=layout[1][4]).person
    assert static("receipt.css") in html and person.full_name in html and "Table 2 · Seat 9" in html and "Table 1 · Seat 4" in html


def test_the_draw_history_page_explains_the_initial_draw(client, started, floor_user):
    t = started(12)
    entry = t.entries.get(number=3)
    client.force_login(floor_user)
    html = client.get(f"/tournaments/{t.pk}/tables/draws/{entry.pk}/").content.decode()
    seat = selectors.seat_of(entry)
    assert "Initial draw" in html and "drew ticket 3 of 12" in html and f"table {seat['table']}, seat {seat['seat']}" in html


def test_the_public_seat_lookup_needs_no_login(client, started, actor):
    t = started(12)
    entry = t.entries.get(number=4)
    entry.person.first_name, entry.person.last_name = "Giulia", "Bianchi"
    entry.person.save()
    seat = selectors.seat_of(entry)
    html = client.get(f"/seats/{t.pk}/?q=bianc").content.decode()
    assert "Giulia B." in html and f"Table <b>{seat['table']}</b> · Seat <b>{seat['seat']}</b>" in html  # as the house shows names
    assert 'name="viewport"' in html
    assert "Nobody seated" in client.get(f"/seats/{t.pk}/?q=zzz").content.decode()


def test_the_tournament_page_links_to_the_tables(client, started, director):
    t = started(4)
    client.force_login(director)
    html = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert f'href="/tournaments/{t.pk}/tables/"' in html and f'href="/seats/{t.pk}/"' in html
    assert selectors.tournament_links(t)[0] == {"label": "Tables", "url": f"/tournaments/{t.pk}/tables/"}


def test_lobby_displays_get_tables_seats_and_moves(scenario_10):
    t, layout = scenario_10
    snap = build_snapshot(t)
    assert snap["tables_in_play"] == 2 and "seats" not in snap  # the seats come a page at a time (issue #15)
    page = selectors.seat_page(t, 1, 10)
    assert (page["page"], page["pages"], page["total"], len(page["seats"])) == (1, 2, 18, 10)
    names = [s["name"] for s in page["seats"] + selectors.seat_page(t, 2, 10)["seats"]]
    assert names == sorted(names, key=str.lower) and len(names) == 18
    assert page["seats_version"] == snap["seats_version"]
    (move,) = snap["moves"]
    assert snap["moves_pending"] == 1
    p = Entry.objects.get(pk=layout[1][4]).person
    mover = public_name(p.first_name, p.last_name)  # as every public page names players
    assert move == {"player": mover, "from_table": 1, "from_seat": 4, "to_table": 2, "to_seat": 9}
    assert selectors.table_numbers(t) == [1, 2] and snap["players_left"] == 18
    assert selectors.players_at_table(t, 2) == 8


def test_bal08_after_the_floor_confirms_a_move_the_lobby_shows_it_done(scenario_10, actor):
    """What follows a confirmed move: the slip leaves the lobby's moves and their count, the
    table counts show the player at his new table, the seat lookup finds him there (a new
    version, so every screen reloads it) and the players left are the same."""
    t, layout = scenario_10
    before = build_snapshot(t)
    move = PendingMove.objects.get(tournament=t, status=PendingMove.PROPOSED)
    services.confirm_move(t, move, actor=actor)
    snap = build_snapshot(t)
    assert snap["moves"] == [] and snap["moves_pending"] == 0
    assert selectors.players_at_table(t, 1) == 9 and selectors.players_at_table(t, 2) == 9
    assert snap["players_left"] == 18 and snap["tables_in_play"] == 2
    assert snap["seats_version"] != before["seats_version"]
    p = Entry.objects.get(pk=layout[1][4]).person
    seats = selectors.seat_page(t, 1, 20)["seats"]
    assert {"name": public_name(p.first_name, p.last_name), "table": 2, "seat": 9} in seats
    assert len(seats) == 18


def test_the_draw_history_page_shows_both_steps_of_a_break(client, started, actor, floor_user):
    t = started(21, table_size=10)
    arrange(t, {1: range(1, 9), 2: range(1, 9), 3: range(1, 6)}, big_blinds={1: (1, 8), 2: (2, 1), 3: (1, 5)})
    mover = seat_map(t)[3][1]
    services.record_bust(t, [seat_map(t)[3][2]], actor=actor)
    slip = PendingMove.objects.get(entry_id=mover)
    client.force_login(floor_user)
    html = client.get(f"/tournaments/{t.pk}/tables/draws/{mover}/").content.decode()
    name = Entry.objects.get(pk=mover).person.full_name
    assert "Step 1 — seat cards, shuffled" in html and "Step 2 — players by the card they drew" in html
    assert f'class="me">{slip.card} — {name}' in html
    assert f"Table {slip.to_table} · Seat {slip.to_seat}" in html


def test_seat05_the_table_map_tags_a_player_seated_before_the_small_blind_until_the_button_passes_him(client, started, actor, floor_user):
    """Table 1 plays seats 1, 2, 3, 6, 7, 8; the next hand's button is seat 3 and its small
    blind seat 6. A player moved into seat 4 is tagged "wait for button" on the floor's table
    map; after that hand the button has passed him: the tag is gone and he is dealt in."""
    t = started(12, table_size=10)
    layout = arrange(t, {1: [1, 2, 3, 6, 7, 8], 2: range(1, 7)})
    services.set_big_blind(t, 1, 6, previous_big_blind_seat=3, actor=actor)
    services.move_player(t, layout[2][1], 1, 4, actor=actor, reason="TD decision")
    client.force_login(floor_user)
    page = f"/tournaments/{t.pk}/tables/"
    tag = '<span class="tag warn">wait for button</span>'
    assert client.get(page).content.decode().count(tag) == 1
    services.hand_completed(t, 1, actor=actor)  # that hand's button was seat 3; the next one is seat 6
    assert tag not in client.get(page).content.decode()
    assert t.events.filter(action="seating.hand.completed").latest("id").payload["dealt_in"] == [layout[2][1]]


def test_seat05_two_players_seated_in_the_same_gap_both_wait_and_are_both_dealt_in_after_one_hand(client, started, actor, floor_user):
    """The same gap twice: seats 4 and 5 lie between the next hand's button (seat 3) and small
    blind (seat 6). Both players moved there are tagged; after that hand both are dealt in."""
    t = started(12, table_size=10)
    layout = arrange(t, {1: [1, 2, 3, 6, 7, 8], 2: range(1, 7)})
    services.set_big_blind(t, 1, 6, previous_big_blind_seat=3, actor=actor)
    services.move_player(t, layout[2][1], 1, 4, actor=actor, reason="TD decision")
    services.move_player(t, layout[2][2], 1, 5, actor=actor, reason="TD decision")
    client.force_login(floor_user)
    page = f"/tournaments/{t.pk}/tables/"
    tag = '<span class="tag warn">wait for button</span>'
    assert client.get(page).content.decode().count(tag) == 2
    services.hand_completed(t, 1, actor=actor)
    assert tag not in client.get(page).content.decode()
    dealt_in = t.events.filter(action="seating.hand.completed").latest("id").payload["dealt_in"]
    assert sorted(dealt_in) == sorted([layout[2][1], layout[2][2]])
