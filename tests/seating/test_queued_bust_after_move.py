"""A bust a floor tablet queued while offline, tapped at the table where the player sat, arrives
after the server has broken that table and moved him: the bust was real and stands, recorded from
the seat he holds now. A bust tapped after the move, or sent online, at his old table is still
refused; so is one tapped at a table where he never sat. In a bounty event the eliminator who sat
at that table when the bust was tapped counts though he has been moved since."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from payouts.models import BountyAward
from seating import services as seating
from seating.models import Bust, PendingMove
from tests.conftest import make_user
from tests.payouts.bounty_setup import bounty_event
from tournaments.eventlog.sentences import sentence
from tournaments.models import Entry, TournamentEvent

from .test_support import arrange, counts, seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def tablet():
    client = Client()
    client.force_login(make_user("tab", "floor"))
    return client


def send(client, t, body, tapped=None):
    """A bust as floor-queue.js sends it: queued (``tapped``: the tap's time) or online (None)."""
    headers = {"HTTP_IDEMPOTENCY_KEY": f"tap-{body['entries'][0]['entry']}-{tapped}", "HTTP_X_TAPPED_AT": tapped.isoformat()} if tapped else {}
    return client.post(f"/api/v1/tournaments/{t.pk}/busts/", body, content_type="application/json", **headers)


def table_of(t, entry_id):
    return next((n for n, seats in seat_map(t).items() if entry_id in seats.values()), None)


def three_tables(t):
    """Tables 1 and 2 with one open seat each, table 3 with three players: the next bust at
    table 3 breaks it and sends its two players one to table 1, one to table 2."""
    return arrange(t, {1: range(1, 9), 2: range(1, 9), 3: range(1, 4)}, big_blinds={1: (3, 2), 2: (5, 4), 3: (2, 1)})


def test_a_bust_tapped_before_the_break_at_the_old_table_stands_from_the_new_seat(started, actor):
    t = started(19)
    layout = three_tables(t)
    rossi, other, first_out = layout[3][1], layout[3][2], layout[3][3]
    tapped = timezone.now()  # the floor taps Rossi out at table 3; the tablet is offline
    seating.record_bust(t, [first_out], actor=actor, table=3)  # another tablet, online: table 3 breaks
    assert 3 not in seat_map(t) and table_of(t, rossi) in (1, 2)
    moved_to = table_of(t, rossi)
    client = tablet()

    r = send(client, t, {"entries": [{"entry": rossi}], "table": 3}, tapped)

    assert r.status_code == 201, r.json()
    assert r.json()["busts"][0]["place"] == 18 and r.json()["busts"][0]["table"] == moved_to
    assert Entry.objects.get(pk=rossi).status == Entry.BUSTED and Entry.objects.get(pk=rossi).place == 18
    assert rossi not in {e for seats in seat_map(t).values() for e in seats.values()}  # his seat at the new table is free
    assert sorted(counts(t).values()) == [8, 9] and sum(counts(t).values()) == 17
    assert not PendingMove.objects.filter(tournament=t, status=PendingMove.PROPOSED, applied=False).exists()  # 9 and 8: balanced
    bust = Bust.objects.get(entry_id=rossi)
    assert (bust.table_number, bust.place) == (moved_to, 18)
    event = TournamentEvent.objects.filter(tournament=t, action="seating.player.busted").latest("id")
    assert event.payload["busts"][0]["tapped_table"] == 3 and event.payload["tapped_at"] == tapped.isoformat()
    said = sentence(event.action, event.payload, actor="tab", entries={rossi: "Rossi"})
    assert f"Rossi (table {moved_to} seat {bust.seat_number}) (tapped at table 3, before a move) — place 18" in said  # the log says so
    r = client.get(f"/api/v1/tournaments/{t.pk}/standings/")
    assert [(s["entry"], s["place"]) for s in r.json()][:2] == [(rossi, 18), (first_out, 19)]
    assert other in seat_map(t).get(1, {}).values() or other in seat_map(t).get(2, {}).values()


def test_a_bust_tapped_after_the_move_at_the_old_table_is_refused(started, actor):
    t = started(19)
    layout = three_tables(t)
    rossi = layout[3][1]
    seating.record_bust(t, [layout[3][3]], actor=actor, table=3)  # table 3 breaks
    tapped = timezone.now() + timedelta(seconds=1)  # tapped once he had moved: he was not at table 3 then
    moved_to = table_of(t, rossi)

    r = send(tablet(), t, {"entries": [{"entry": rossi}], "table": 3}, tapped)

    assert r.status_code == 409 and r.json()["code"] == "not_at_table"
    assert r.json()["detail"] == f"This player sits at table {moved_to}, not 3."
    assert Entry.objects.get(pk=rossi).status == Entry.ACTIVE and table_of(t, rossi) == moved_to


def test_an_online_bust_at_the_old_table_is_refused_as_before(started, actor):
    t = started(19)
    layout = three_tables(t)
    rossi = layout[3][1]
    seating.record_bust(t, [layout[3][3]], actor=actor, table=3)
    moved_to = table_of(t, rossi)

    r = send(tablet(), t, {"entries": [{"entry": rossi}], "table": 3})

    assert r.status_code == 409 and r.json()["code"] == "not_at_table"
    assert r.json()["detail"] == f"This player sits at table {moved_to}, not 3."
    assert Entry.objects.get(pk=rossi).status == Entry.ACTIVE


def test_a_bust_tapped_at_a_table_where_he_did_not_sit_is_refused(started, actor):
    t = started(19)
    layout = three_tables(t)
    rossi = layout[3][1]
    tapped = timezone.now()
    seating.record_bust(t, [layout[3][3]], actor=actor, table=3)
    moved_to = table_of(t, rossi)
    elsewhere = 2 if moved_to == 1 else 1  # a table he never sat at (nor was moved from)

    r = send(tablet(), t, {"entries": [{"entry": rossi}], "table": elsewhere}, tapped)

    assert r.status_code == 409 and r.json()["code"] == "not_at_table"
    assert r.json()["detail"] == f"This player sits at table {moved_to}, not {elsewhere}."


def test_an_eliminator_moved_since_the_tap_wins_the_bounty(make_tournament, make_person, cashier_actor, actor):
    t, _entries = bounty_event(make_tournament, make_person, cashier_actor, actor, players=19)
    layout = three_tables(t)
    rossi, bianchi, first_out = layout[3][1], layout[3][2], layout[3][3]
    tapped = timezone.now()  # Bianchi knocks Rossi out at table 3; the tablet is offline
    seating.record_bust(t, [{"entry": first_out, "eliminators": [rossi]}], actor=actor, table=3)  # online: table 3 breaks
    assert {table_of(t, rossi), table_of(t, bianchi)} == {1, 2}  # one open seat each: they went apart
    stranger = layout[table_of(t, bianchi)][1]  # at Bianchi's new table all along, never at Rossi's
    client = tablet()

    wrong = send(client, t, {"entries": [{"entry": rossi, "eliminators": [stranger]}], "table": 3}, tapped)
    assert wrong.status_code == 409 and wrong.json()["code"] == "eliminator_not_at_table"  # he was not at table 3
    r = send(client, t, {"entries": [{"entry": rossi, "eliminators": [bianchi]}], "table": 3}, tapped)

    assert r.status_code == 201, r.json()
    assert BountyAward.objects.filter(kind=BountyAward.KNOCKOUT, knocked_out_id=rossi, winner_id=bianchi, void="").exists()
    event = TournamentEvent.objects.filter(tournament=t, action="seating.player.busted").latest("id")
    assert event.payload["eliminators_moved"] == [
        {"entry": bianchi, "table": table_of(t, bianchi), "out": rossi, "out_table": event.payload["busts"][0]["table"], "tapped_table": 3}
    ]
    assert "eliminator_override" not in event.payload
    said = sentence(event.action, event.payload, actor="tab", entries={rossi: "Rossi", bianchi: "Bianchi"})
    assert said.endswith("; eliminator Bianchi at table 3 when it was tapped, moved since")


def test_a_bust_tapped_at_another_table_than_the_one_he_sat_at_all_along_is_refused(started, actor):
    t = started(19)
    layout = three_tables(t)
    rossi = layout[1][2]  # table 1, seat 2: seated there before the tap, never moved
    tapped = timezone.now() + timedelta(seconds=1)

    r = send(tablet(), t, {"entries": [{"entry": rossi}], "table": 2}, tapped)

    assert r.status_code == 409 and r.json()["code"] == "not_at_table"
    assert r.json()["detail"] == "This player sits at table 1, not 2."
    assert Entry.objects.get(pk=rossi).status == Entry.ACTIVE and table_of(t, rossi) == 1


def test_an_eliminator_moved_away_from_the_table_of_the_player_out_since_the_tap_wins_the_bounty(make_tournament, make_person, cashier_actor, actor):
    """The player out still sits where the hand was played; only the eliminator has been moved
    since the tap: he sat at that table when it was tapped, and wins the bounty."""
    t, _entries = bounty_event(make_tournament, make_person, cashier_actor, actor, players=19)
    layout = three_tables(t)
    verdi, neri = layout[1][1], layout[1][2]
    tapped = timezone.now()  # Neri knocks Verdi out at table 1; the tablet is offline
    seating.move_player(t, neri, 2, 9, actor=actor, reason="wrong seat (SEAT-06)")  # Neri moved to table 2 before the queue arrives

    r = send(tablet(), t, {"entries": [{"entry": verdi, "eliminators": [neri]}], "table": 1}, tapped)

    assert r.status_code == 201, r.json()
    assert BountyAward.objects.filter(kind=BountyAward.KNOCKOUT, knocked_out_id=verdi, winner_id=neri, void="").exists()
    event = TournamentEvent.objects.filter(tournament=t, action="seating.player.busted").latest("id")
    assert event.payload["eliminators_moved"] == [{"entry": neri, "table": 2, "out": verdi, "out_table": 1, "tapped_table": 1}]
