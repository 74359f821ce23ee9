"""Busts and move slips through the API as a floor tablet uses them: what each answer carries,
confirming a broken table's slips at once (``moves/confirm/``), refusals and repeats."""

import pytest
from django.utils import timezone

from seating import services
from seating.models import PendingMove
from tournaments.models import Entry, TournamentEvent

from .test_support import arrange, counts, seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def url(t, path=""):
    return f"/api/v1/tournaments/{t.pk}/{path}"


def open_slips(client, t):
    """The open slips as the list of every slip (read through the plain ORM) shows them."""
    return [m for m in client.get(url(t, "moves/") + "?status=all").json() if m["status"] == "PROPOSED"]


def bust_until_break(client, t):
    """Bust players of the smallest table until a table breaks; the answer of that bust."""
    for _ in range(20):
        smallest = min(seat_map(t).items(), key=lambda kv: (len(kv[1]), -kv[0]))[1]
        r = client.post(url(t, "busts/"), {"entries": [{"entry": next(iter(smallest.values()))}]}, format="json")
        assert r.status_code == 201, r.content
        data = r.json()
        if data["broken"]:
            return data
        for m in data["moves"]:  # balancing first, as the floor would
            assert client.post(url(t, f"moves/{m['id']}/confirm/"), format="json").status_code == 200
    raise AssertionError("no table broke")


def test_a_bust_and_a_confirm_say_what_the_floor_needs(api, started, floor_user):
    t = started(19)  # 7 + 6 + 6: the first bust at a full table asks for a balancing move, or a break
    client = api(floor_user)
    data = bust_until_break(client, t)
    (gone,) = data["busts"]
    assert gone["place"] == Entry.objects.get(pk=gone["entry"]).place and gone["table"] and gone["seat"]
    assert data["broken"] and data["final_table"] is None and "halted" in data
    slips = data["moves"]
    assert slips == open_slips(client, t) == client.get(url(t, "moves/")).json()  # as the lists of slips say
    assert slips and {m["from_table"] for m in slips} == set(data["broken"])
    first = slips[0]
    entry = Entry.objects.select_related("person").get(pk=first["entry"])
    assert first["player"] == entry.person.full_name and first["entry_number"] == entry.number
    assert first["status"] == "PROPOSED" and first["kind"] == "BREAK" and first["reason"]
    assert seat_map(t)[first["to_table"]][first["to_seat"]] == first["entry"]  # a break is applied when drawn: the slip says where
    r = client.post(url(t, f"moves/{first['id']}/confirm/"), format="json")
    assert r.status_code == 200
    done = r.json()
    assert done["move"]["id"] == first["id"] and done["move"]["status"] == "DONE" and done["move"]["done_by"] == floor_user.username
    assert done["move"]["player"] == entry.person.full_name
    assert done["move"] == next(m for m in client.get(url(t, "moves/") + "?status=all").json() if m["id"] == first["id"])
    assert done["moves"] == open_slips(client, t)
    assert [m["id"] for m in done["moves"]] == [m["id"] for m in slips[1:]]  # what is left to do


def test_unknown_tournament_or_slip_is_404(api, started, floor_user):
    t = started(12)
    client = api(floor_user)
    entry = t.entries.first()
    r = client.post("/api/v1/tournaments/987654/busts/", {"entries": [{"entry": entry.pk}]}, format="json")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    r = client.post(url(t, "moves/987654/confirm/"), format="json")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    other = started(12)
    move = PendingMove.objects.create(tournament=other, entry=other.entries.first(), kind=PendingMove.BALANCE, from_table=1, from_seat=1, to_table=2, to_seat=9)
    r = client.post(url(t, f"moves/{move.pk}/confirm/"), format="json")  # another tournament's slip
    assert r.status_code == 404 and PendingMove.objects.get(pk=move.pk).status == PendingMove.PROPOSED
    assert Entry.objects.get(pk=entry.pk).status == Entry.ACTIVE


def test_confirming_a_broken_tables_slips_at_once(api, started, floor_user, cashier_user, display_user):
    t = started(19)
    client = api(floor_user)
    data = bust_until_break(client, t)
    ids = [m["id"] for m in data["moves"] if m["kind"] == "BREAK"]
    assert len(ids) >= 2
    for user in (cashier_user, display_user):
        r = api(user).post(url(t, "moves/confirm/"), {"moves": ids}, format="json")
        assert r.status_code == 403 and r.json()["code"] == "permission_denied"
    assert PendingMove.objects.filter(pk__in=ids, status=PendingMove.PROPOSED).count() == len(ids)
    before = seat_map(t)
    r = client.post(url(t, "moves/confirm/"), {"moves": ids}, format="json")
    assert r.status_code == 200, r.content
    body = r.json()
    assert sorted(m["id"] for m in body["confirmed"]) == sorted(ids)
    assert {m["status"] for m in body["confirmed"]} == {"DONE"} and {m["done_by"] for m in body["confirmed"]} == {floor_user.username}
    assert not {m["id"] for m in body["moves"]} & set(ids)
    assert seat_map(t) == before  # a break's seats were taken when it was drawn: confirming records they sat down
    assert TournamentEvent.objects.filter(tournament=t, action="seating.moves.confirmed").count() == 1
    # A repeat without a key confirms nothing again: refused, as a single confirm is.
    r = client.post(url(t, "moves/confirm/"), {"moves": ids}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "move_done" and r.json()["detail"]


def test_confirm_all_is_all_or_nothing_and_checks_its_input(api, started, floor_user):
    t = started(19)
    client = api(floor_user)
    data = bust_until_break(client, t)
    ids = [m["id"] for m in data["moves"]]
    assert client.post(url(t, f"moves/{ids[0]}/confirm/"), format="json").status_code == 200
    r = client.post(url(t, "moves/confirm/"), {"moves": ids}, format="json")  # one of them is done already
    assert r.status_code == 409 and r.json()["code"] == "move_done"
    assert PendingMove.objects.filter(pk__in=ids[1:], status=PendingMove.PROPOSED).count() == len(ids) - 1
    for bad in ({"moves": []}, {"moves": ["x"]}, {}, {"moves": [0]}):
        r = client.post(url(t, "moves/confirm/"), bad, format="json")
        assert r.status_code == 400 and r.json()["code"] == "invalid", bad
    r = client.post("/api/v1/tournaments/987654/moves/confirm/", {"moves": ids[1:]}, format="json")
    assert r.status_code == 404
    assert PendingMove.objects.filter(pk__in=ids[1:], status=PendingMove.PROPOSED).count() == len(ids) - 1


def test_confirm_all_with_an_idempotency_key_answers_a_repeat_with_the_first_answer(api, started, floor_user):
    t = started(19)
    client = api(floor_user)
    ids = [m["id"] for m in bust_until_break(client, t)["moves"]]
    key = {"HTTP_IDEMPOTENCY_KEY": "tablet-7-break-1"}
    first = client.post(url(t, "moves/confirm/"), {"moves": ids}, format="json", **key)
    assert first.status_code == 200
    events = TournamentEvent.objects.filter(tournament=t).count()
    again = client.post(url(t, "moves/confirm/"), {"moves": ids}, format="json", **key)
    assert again.status_code == 200 and again.json() == first.json() and again["Idempotent-Replay"] == "true"
    assert TournamentEvent.objects.filter(tournament=t).count() == events  # the repeat changed nothing
    r = client.post(url(t, "moves/confirm/"), {"moves": ids[:1]}, format="json", **key)  # same key, another body
    assert r.status_code == 422 and r.json()["code"] == "idempotency_key_mismatch"


def test_the_page_confirms_a_broken_tables_slips_with_one_button(client, api, started, floor_user):
    t = started(19)
    data = bust_until_break(api(floor_user), t)
    broken = data["broken"][0]
    ids = sorted(m["id"] for m in data["moves"] if m["kind"] == "BREAK" and m["from_table"] == broken)
    assert len(ids) >= 2
    client.force_login(floor_user)
    page = f"/tournaments/{t.pk}/tables/"
    html = client.get(page).content.decode()
    assert f"All of table {broken} seated ({len(ids)})" in html
    assert all(f'name="moves" value="{pk}"' in html for pk in ids)
    r = client.post(page, {"op": "confirm_all", "moves": ids}, follow=True)
    assert f"{len(ids)} moves confirmed." in r.content.decode()
    assert PendingMove.objects.filter(pk__in=ids, status=PendingMove.DONE, done_by=floor_user).count() == len(ids)
    assert f"All of table {broken} seated" not in r.content.decode()
    r = client.post(page, {"op": "confirm_all", "moves": ids}, follow=True)  # pressed again: nothing changes
    assert (
        f"This move was already done at {timezone.localtime(PendingMove.objects.get(pk=ids[0]).done_at):%H:%M} by {floor_user.username}" in r.content.decode()
    )
    r = client.post(page, {"op": "confirm_all"}, follow=True)
    assert "No move to confirm." in r.content.decode()


def test_the_confirm_all_button_speaks_italian(client, api, started, floor_user):
    t = started(19)
    broken = bust_until_break(api(floor_user), t)["broken"][0]
    client.force_login(floor_user)
    html = client.get(f"/tournaments/{t.pk}/tables/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert f"Tutto il tavolo {broken} è seduto" in html


def _slip(t, entry, status, **kw):
    """A slip as the engine leaves it (its refusal is decided before the seat map is read)."""
    seat = entry.seat
    fields = dict(
        tournament=t, entry=entry, kind=PendingMove.BALANCE, status=status, from_table=seat.table.number, from_seat=seat.number, to_table=9, to_seat=3
    )
    fields.update(kw)
    return PendingMove.objects.create(**fields)


def test_a_slip_confirmed_from_a_tablets_queue_after_the_tables_changed_says_what_happened(api, started, floor_user):
    from datetime import datetime

    t = started(12)
    client = api(floor_user)
    entry = Entry.objects.select_related("person", "seat__table").filter(tournament=t, seat__isnull=False).first()
    name, here = entry.person.full_name, (entry.seat.table.number, entry.seat.number)
    old = _slip(t, entry, PendingMove.SUPERSEDED)
    at = timezone.make_aware(datetime(2026, 11, 27, 21, 15))
    new = _slip(t, entry, PendingMove.PROPOSED, to_table=4, to_seat=7, created_at=at)
    queued = {"HTTP_IDEMPOTENCY_KEY": "tablet-3-slip-1", "HTTP_X_TAPPED_AT": timezone.now().isoformat()}
    for path, body in ((f"moves/{old.pk}/confirm/", None), ("moves/confirm/", {"moves": [old.pk]})):
        r = client.post(url(t, path), body, format="json", **queued)
        assert r.status_code == 409, r.content
        d = r.json()
        assert d["code"] == "move_superseded" and d["replaced_by"] == new.pk and d["move"] == old.pk
        assert d["detail"] == f"This move was replaced at 21:15 by a new balancing: {name} (#{entry.number}) now goes to table 4, seat 7."
        queued["HTTP_IDEMPOTENCY_KEY"] += "b"
    assert PendingMove.objects.get(pk=new.pk).status == PendingMove.PROPOSED  # the refusal changed nothing
    r = client.post(url(t, f"moves/{old.pk}/confirm/"), format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert r.json()["code"] == "move_superseded" and r.json()["detail"].startswith("Questo spostamento è stato sostituito alle 21:15")
    # no newer slip: the player stays where he sits
    new.status = PendingMove.SUPERSEDED
    new.save()
    r = client.post(url(t, f"moves/{old.pk}/confirm/"), format="json")
    assert r.json()["code"] == "move_superseded"
    assert r.json()["detail"].endswith(f"{name} (#{entry.number}) stays at table {here[0]}, seat {here[1]}.")
    undone = _slip(t, entry, PendingMove.UNDONE)
    r = client.post(url(t, "moves/confirm/"), {"moves": [undone.pk]}, format="json")
    assert r.json()["code"] == "move_undone" and r.json()["detail"].endswith(f"sits at table {here[0]}, seat {here[1]}.")
    # the player was busted meanwhile
    gone = client.post(url(t, "busts/"), {"entries": [{"entry": entry.pk}]}, format="json")
    assert gone.status_code == 201, gone.content
    out = Entry.objects.get(pk=entry.pk).busted_at
    r = client.post(url(t, "moves/confirm/"), {"moves": [old.pk]}, format="json")
    assert r.json()["code"] == "move_player_out"
    assert r.json()["detail"] == f"{name} (#{entry.number}) is out since {timezone.localtime(out):%H:%M}: this move no longer applies."


def test_a_slip_confirmed_twice_says_who_did_it_first(api, started, floor_user):
    t = started(19)
    client = api(floor_user)
    data = bust_until_break(client, t)
    first = data["moves"][0]
    assert client.post(url(t, f"moves/{first['id']}/confirm/"), format="json").status_code == 200
    for path, body in ((f"moves/{first['id']}/confirm/", None), ("moves/confirm/", {"moves": [m["id"] for m in data["moves"]]})):
        r = client.post(url(t, path), body, format="json")
        assert r.status_code == 409 and r.json()["code"] == "move_done" and r.json()["move"] == first["id"]
        assert f"by {floor_user.username}: " in r.json()["detail"] and f"table {first['to_table']}, seat {first['to_seat']}." in r.json()["detail"]


def test_a_slip_done_already_says_when_who_and_where_the_player_sits(api, started, floor_user):
    from datetime import datetime

    t = started(12)
    client = api(floor_user)
    entry = Entry.objects.select_related("person", "seat__table").filter(tournament=t, seat__isnull=False).first()
    name, here = entry.person.full_name, (entry.seat.table.number, entry.seat.number)
    at = timezone.make_aware(datetime(2026, 11, 27, 22, 40))
    by_hand = _slip(t, entry, PendingMove.DONE, done_at=at, done_by=floor_user)
    r = client.post(url(t, f"moves/{by_hand.pk}/confirm/"), format="json")
    assert r.status_code == 409 and r.json()["code"] == "move_done" and (r.json()["move"], r.json()["entry"]) == (by_hand.pk, entry.pk)
    assert r.json()["detail"] == (
        f"This move was already done at 22:40 by {floor_user.username}: {name} (#{entry.number}) sits at table {here[0]}, seat {here[1]}."
    )
    nobody = _slip(t, entry, PendingMove.DONE, done_at=at)  # confirmed by a user since removed
    r = client.post(url(t, "moves/confirm/"), {"moves": [nobody.pk]}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "move_done" and r.json()["move"] == nobody.pk
    assert r.json()["detail"] == f"This move was already done at 22:40: {name} (#{entry.number}) sits at table {here[0]}, seat {here[1]}."
    undone = _slip(t, entry, PendingMove.UNDONE)
    r = client.post(url(t, f"moves/{undone.pk}/confirm/"), format="json")
    assert r.status_code == 409 and (r.json()["code"], r.json()["move"], r.json()["entry"]) == ("move_undone", undone.pk, entry.pk)
    assert r.json()["detail"] == f"This move was undone: {name} (#{entry.number}) sits at table {here[0]}, seat {here[1]}."
    stale = _slip(t, entry, PendingMove.SUPERSEDED)
    r = client.post(url(t, f"moves/{stale.pk}/confirm/"), format="json")
    assert r.status_code == 409 and (r.json()["code"], r.json()["move"], r.json()["entry"]) == ("move_superseded", stale.pk, entry.pk)
    assert r.json()["detail"] == (f"This move is no longer needed (the tables changed): {name} (#{entry.number}) stays at table {here[0]}, seat {here[1]}.")
    assert "replaced_by" not in r.json()
    gone = client.post(url(t, "busts/"), {"entries": [{"entry": entry.pk}]}, format="json")
    assert gone.status_code == 201, gone.content
    out = Entry.objects.get(pk=entry.pk).busted_at
    r = client.post(url(t, f"moves/{stale.pk}/confirm/"), format="json")
    assert r.status_code == 409 and (r.json()["code"], r.json()["move"], r.json()["entry"]) == ("move_player_out", stale.pk, entry.pk)
    assert r.json()["busted_at"] == out.isoformat()


def test_a_slip_of_a_player_out_says_the_time_he_went_out(api, started, floor_user, actor):
    from datetime import datetime

    from seating import services

    t = started(12)
    entry = Entry.objects.select_related("person", "seat__table").filter(tournament=t, seat__isnull=False).first()
    stale = _slip(t, entry, PendingMove.SUPERSEDED)
    out = timezone.make_aware(datetime(2026, 11, 27, 21, 5))  # recorded then (20:05 UTC), the slip sent later
    services.record_bust(t, [entry.pk], actor=actor, now=out)
    assert Entry.objects.get(pk=entry.pk).busted_at == out
    r = api(floor_user).post(url(t, f"moves/{stale.pk}/confirm/"), format="json")
    assert r.status_code == 409 and (r.json()["code"], r.json()["move"], r.json()["busted_at"]) == ("move_player_out", stale.pk, "2026-11-27T20:05:00+00:00")
    assert r.json()["detail"] == f"{entry.person.full_name} (#{entry.number}) is out since 21:05: this move no longer applies."


def test_a_slip_replaced_names_only_a_newer_slip_of_its_own_player(api, started, floor_user):
    t = started(12)
    mine, other = Entry.objects.select_related("person", "seat__table").filter(tournament=t, seat__isnull=False).order_by("number")[:2]
    here = (mine.seat.table.number, mine.seat.number)
    _slip(t, mine, PendingMove.PROPOSED, to_table=4, to_seat=2)  # his open slip drawn before this one
    stale = _slip(t, mine, PendingMove.SUPERSEDED)
    _slip(t, other, PendingMove.PROPOSED, to_table=4, to_seat=7)  # a newer slip, for another player
    r = api(floor_user).post(url(t, f"moves/{stale.pk}/confirm/"), format="json")
    assert r.status_code == 409 and (r.json()["code"], r.json()["move"], r.json()["entry"]) == ("move_superseded", stale.pk, mine.pk)
    assert "replaced_by" not in r.json()
    assert r.json()["detail"] == (
        f"This move is no longer needed (the tables changed): {mine.person.full_name} (#{mine.number}) stays at table {here[0]}, seat {here[1]}."
    )


def test_a_slip_of_an_entry_cancelled_since_says_what_happened_without_a_seat(api, started, floor_user, actor, make_person):
    """A late entry sold by mistake is reversed at the desk: his seat is freed and he is not
    out. Slips of his that a tablet had queued are refused, each saying what happened to it,
    with no table or seat (he has none)."""
    from datetime import datetime

    from seating.models import Seat
    from tournaments.cashier import services as cashier

    t = started(12)
    sale = cashier.register(t, make_person(), method="CASH", actor=actor)
    entry = Entry.objects.select_related("seat__table").get(pk=sale.entry.pk)
    at = timezone.make_aware(datetime(2026, 11, 27, 22, 40))
    refusals = [
        (_slip(t, entry, PendingMove.SUPERSEDED), "move_superseded", "This move is no longer needed (the tables changed)."),
        (_slip(t, entry, PendingMove.UNDONE), "move_undone", "This move was undone."),
        (_slip(t, entry, PendingMove.DONE, done_at=at, done_by=floor_user), "move_done", "This move was already done at 22:40."),
    ]
    cashier.reverse(sale.row, reason="sold by mistake", actor=actor)
    assert Entry.objects.get(pk=entry.pk).status == Entry.CANCELLED and not Seat.objects.filter(entry=entry).exists()
    client = api(floor_user)
    for slip, code, detail in refusals:
        for path, body in ((f"moves/{slip.pk}/confirm/", None), ("moves/confirm/", {"moves": [slip.pk]})):
            r = client.post(url(t, path), body, format="json")
            assert r.status_code == 409, r.content
            assert r.json() == {"code": code, "detail": detail, "move": slip.pk, "entry": entry.pk}


def test_bal08_a_move_by_hand_to_a_taken_seat_is_refused_in_the_readers_words(api, started, floor_user):
    """The seat map refuses the move (the engine's own English never reaches the floor): the
    code and the sentence, in English and in Italian; nobody moved."""
    t = started(18)
    seats = seat_map(t)
    player, taken = seats[1][min(seats[1])], min(seats[2])
    for language, words in (("en", "That seat is taken."), ("it", "Quel posto è occupato.")):
        r = api(floor_user).post(
            url(t, "moves/"), {"entry": player, "to_table": 2, "to_seat": taken, "reason": "wrong seat"}, format="json", HTTP_ACCEPT_LANGUAGE=language
        )
        assert (r.status_code, r.json()["code"], r.json()["detail"]) == (409, "seat_taken", words)
    assert seat_map(t) == seats


def test_bal08_a_proposed_moves_logged_line_names_the_player_his_seats_and_why(api, started, director, actor):
    """The event log's line of a balancing proposal: who moves (name and number), from and to
    which seat, the rule's reason as codes, the kind of move and what the slip says of blinds."""
    t = started(18, table_size=10)
    layout = arrange(t, {1: range(1, 11), 2: range(1, 9)}, big_blinds={1: (3, 2), 2: (5, 4)})
    services.set_big_blind(t, 1, 3, previous_big_blind_seat=2, actor=actor, reason="confirmed at the table")
    mover = Entry.objects.select_related("person").get(pk=layout[1][4])
    rows = [row for row in api(director).get(url(t, "events/")).json() if row["action"] == "seating.moves.proposed"]
    assert [row["payload"]["moves"] for row in rows] == [
        [
            {
                "entry": mover.pk,
                "name": f"{mover.person.first_name} {mover.person.last_name} (#{mover.number})",
                "from_table": 1,
                "from_seat": 4,
                "to_table": 2,
                "to_seat": 9,
                "reason": {  # table 1's next big blind; table 2's seat 9 posts the big blind in 4 hands
                    "code": "MOVER_NEXT_BB",
                    "params": {"table": 1, "seat": 4},
                    "notes": [
                        {"code": "DEST_BB_IN_HANDS", "params": {"table": 2, "seat": 9, "hands": 4}},
                        {"code": "BALANCE_COUNTS", "params": {"from_table": 1, "from_players": 10, "to_table": 2, "to_players": 8}},
                    ],
                },
                "kind": "BALANCE",
                "card": None,
                "wait_for_button": False,
                "single_big_blind": False,
            }
        ]
    ]
