"""An undo refused because the tables changed since says what to undo first, and can do it."""

import pytest

from seating import services
from seating.models import Bust, PendingMove
from tdmanager.errors import DomainError
from tournaments.models import Entry

from .test_support import seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def url(t, path=""):
    return f"/api/v1/tournaments/{t.pk}/{path}"


def bust_then_two_changes(t, actor):
    """A bust at table 1, then a move by hand into table 1, then a bust of the mover there."""
    first = seat_map(t)[1][min(seat_map(t)[1])]
    out = services.record_bust(t, [first], actor=actor)
    mover = seat_map(t)[2][min(seat_map(t)[2])]
    free = next(s for s in range(1, 10) if s not in seat_map(t)[1])
    moved = services.move_player(t, mover, 1, free, actor=actor, reason="wrong seat (SEAT-06)")
    later = services.record_bust(t, [mover], actor=actor)
    return out.busts[0], moved, later, mover, first


def test_the_refusal_lists_the_later_changes_newest_first_with_how_to_undo_them(started, actor):
    t = started(20)
    bust, moved, later, mover, _first = bust_then_two_changes(t, actor)
    before = seat_map(t)
    with pytest.raises(DomainError) as e:
        services.undo_bust(t, bust, actor=actor)
    err = e.value
    assert err.code == "seat_map_changed"
    changes = err.extra["later"]
    assert [c["event"] for c in changes] == [later.event.pk, moved.event.pk]
    assert changes[0]["undo"] == {"kind": "bust", "id": later.busts[0].pk}
    assert changes[1]["undo"] == {"kind": "move", "id": moved.move.pk}
    assert err.extra["undoable"] is True
    name = Entry.objects.select_related("person").get(pk=mover)
    assert f"{name.person.first_name} {name.person.last_name} #{name.number} out at table 1" in changes[0]["description"]
    assert "moved from table 2" in changes[1]["description"]
    detail = str(err.message)
    assert f"#{later.event.pk}" in detail and f"#{moved.event.pk}" in detail and detail.index(f"#{later.event.pk}") < detail.index(f"#{moved.event.pk}")
    assert seat_map(t) == before  # nothing was changed by the refusal


def test_undo_those_first_then_this_one_in_one_go(started, actor):
    t = started(20)
    original = seat_map(t)
    bust, moved, later, mover, first = bust_then_two_changes(t, actor)
    events = [later.event.pk, moved.event.pk]
    services.undo_bust_and_later(t, bust, later=events, actor=actor, reason="misread the board")
    assert seat_map(t) == original
    assert Entry.objects.filter(pk__in=[mover, first], status=Entry.ACTIVE).count() == 2
    assert set(Bust.objects.filter(tournament=t).values_list("void", flat=True)) == {Bust.UNDONE}
    assert PendingMove.objects.get(pk=moved.move.pk).status == PendingMove.UNDONE


def test_a_list_that_is_no_longer_the_right_one_is_refused_and_nothing_is_undone(started, actor):
    t = started(20)
    bust, moved, later, _mover, _first = bust_then_two_changes(t, actor)
    now = seat_map(t)
    with pytest.raises(DomainError) as e:
        services.undo_bust_and_later(t, bust, later=[later.event.pk], actor=actor)  # the move is missing
    assert e.value.code == "later_changes_changed" and len(e.value.extra["later"]) == 2
    assert seat_map(t) == now and not Bust.objects.filter(tournament=t).exclude(void="").exists()


def test_changes_already_undone_are_not_listed(started, actor):
    t = started(20)
    bust, moved, later, _mover, _first = bust_then_two_changes(t, actor)
    services.undo_bust(t, later.busts[0], actor=actor)
    with pytest.raises(DomainError) as e:
        services.undo_bust(t, bust, actor=actor)
    assert [c["event"] for c in e.value.extra["later"]] == [moved.event.pk]


def test_a_lock_or_a_blind_elsewhere_blocks_nothing(started, actor):
    t = started(20)
    entry = seat_map(t)[1][min(seat_map(t)[1])]
    out = services.record_bust(t, [entry], actor=actor)
    services.lock_table(t, 1, True, actor=actor, reason="dealer change")
    services.undo_bust(t, out.busts[0], actor=actor)
    assert Entry.objects.get(pk=entry).status == Entry.ACTIVE


def test_the_api_refusal_carries_the_list_and_the_api_undoes_them_first(api, started, floor_user, actor):
    t = started(20)
    bust, moved, later, _mover, _first = bust_then_two_changes(t, actor)
    client = api(floor_user)
    r = client.post(url(t, f"busts/{bust.pk}/undo/"), {"reason": "wrong player"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "seat_map_changed"
    body = r.json()
    assert [c["event"] for c in body["later"]] == [later.event.pk, moved.event.pk] and body["undoable"] is True
    assert str(later.event.pk) in body["detail"]
    r = client.post(url(t, f"busts/{bust.pk}/undo/"), {"reason": "wrong player", "later": [c["event"] for c in body["later"]]}, format="json")
    assert r.status_code == 200, r.json()
    assert not Bust.objects.filter(tournament=t, void="").exists()
    r = client.post(url(t, f"busts/{bust.pk}/undo/"), {"later": ["x"]}, format="json")
    assert r.status_code == 400


def test_an_undo_of_a_move_refused_names_what_to_undo_first_too(started, actor):
    t = started(20)
    mover = seat_map(t)[2][min(seat_map(t)[2])]
    free = next(s for s in range(1, 10) if s not in seat_map(t)[1])
    moved = services.move_player(t, mover, 1, free, actor=actor, reason="wrong seat (SEAT-06)")
    victim = seat_map(t)[1][min(s for s in seat_map(t)[1] if s != free)]
    later = services.record_bust(t, [victim], actor=actor)
    with pytest.raises(DomainError) as e:
        services.undo_move(t, moved.move, actor=actor)
    assert e.value.code == "seat_map_changed"
    assert [c["event"] for c in e.value.extra["later"]] == [later.event.pk]
    assert f"#{later.event.pk}" in str(e.value.message)


def test_an_undo_sent_again_after_it_was_done_is_refused_and_changes_nothing(api, started, floor_user, actor):
    """A second tap, or a page left open: the bust with its later changes was undone already."""
    t = started(20)
    bust, _moved, _later, _mover, _first = bust_then_two_changes(t, actor)
    client = api(floor_user)
    body = client.post(url(t, f"busts/{bust.pk}/undo/"), {"reason": "wrong player"}, format="json").json()
    events = [c["event"] for c in body["later"]]
    r = client.post(url(t, f"busts/{bust.pk}/undo/"), {"reason": "wrong player", "later": events}, format="json")
    assert r.status_code == 200, r.json()
    now = seat_map(t)
    r = client.post(url(t, f"busts/{bust.pk}/undo/"), {"reason": "wrong player", "later": events}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "already_void", r.content
    assert seat_map(t) == now


def test_a_bust_undone_since_is_named_among_the_changes_in_the_way(api, started, floor_user, actor):
    """An earlier bust undone after this one, at a table a later move joined to this one's: it is
    in the way, and the floor cannot undo an undo from the tables page."""
    t = started(27)  # three tables of 9: two busts break none
    x = seat_map(t)[1][min(seat_map(t)[1])]
    services.record_bust(t, [x], actor=actor)
    target = seat_map(t)[2][min(seat_map(t)[2])]
    bust = services.record_bust(t, [target], actor=actor).busts[0]
    seat = max(seat_map(t)[2])
    mover = seat_map(t)[2][seat]
    there = next(s for s in range(1, 10) if s not in seat_map(t)[1])
    there_move = services.move_player(t, mover, 1, there, actor=actor, reason="wrong seat (SEAT-06)")
    back = next(s for s in range(1, 10) if s not in seat_map(t)[2] and s != seat)  # another seat than his own
    back_move = services.move_player(t, mover, 2, back, actor=actor, reason="wrong seat (SEAT-06)")
    undone = services.undo_bust(t, Bust.objects.get(tournament=t, entry_id=x), actor=actor)  # table 1 is as the bust left it
    r = api(floor_user).post(url(t, f"busts/{bust.pk}/undo/"), {"reason": "wrong player"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "seat_map_changed", r.content
    later = r.json()["later"]
    assert [c["event"] for c in later] == [undone.event.pk, back_move.event.pk, there_move.event.pk]
    assert later[0]["undo"] is None and r.json()["undoable"] is False


def test_an_undo_refused_names_every_table_changed_since_in_the_readers_language(api, started, floor_user, actor):
    """A move from table 2 to table 1, then a player out at each table: the move's undo is
    refused naming both tables and the two busts, newest first, word for word."""
    t = started(20)
    mover = seat_map(t)[2][min(seat_map(t)[2])]
    free = next(s for s in range(1, 10) if s not in seat_map(t)[1])
    moved = services.move_player(t, mover, 1, free, actor=actor, reason="wrong seat (SEAT-06)")
    out = {}
    for table in (1, 2):
        seat = max(s for s, e in seat_map(t)[table].items() if e != mover)
        entry = Entry.objects.select_related("person").get(pk=seat_map(t)[table][seat])
        out[table] = (services.record_bust(t, [entry.pk], actor=actor).event.pk, f"{entry.person.first_name} {entry.person.last_name} #{entry.number}", seat)
    now = seat_map(t)
    r = api(floor_user).post(url(t, f"moves/{moved.move.pk}/undo/"), {"reason": "he asked to go back"}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "seat_map_changed"), r.content
    (e1, name1, seat1), (e2, name2, seat2) = out[1], out[2]
    assert r.json()["detail"] == (
        "Table(s) 1, 2 changed since; undo the later changes first. Undo first, newest first: "
        f"#{e2} {name2} out at table 2, seat {seat2}; #{e1} {name1} out at table 1, seat {seat1}."
    )
    r = api(floor_user).post(url(t, f"moves/{moved.move.pk}/undo/"), {"reason": "he asked to go back"}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert r.json()["detail"] == (
        "I tavoli 1, 2 sono cambiati nel frattempo; annulla prima le modifiche successive. Annulla prima, dalla più recente: "
        f"#{e2} {name2} fuori al tavolo 2, posto {seat2}; #{e1} {name1} fuori al tavolo 1, posto {seat1}."
    )
    assert seat_map(t) == now
