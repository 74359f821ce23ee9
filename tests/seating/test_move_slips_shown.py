"""CLK-06 and the slips: what the floor reads of a move during hand-for-hand (the tables API,
every slip of the event, the floor's page): a move waiting for a table's hand shows its tables
and which of them still play the hand, never a player; once proposed, every field of the slip;
once made, the page's "Moves done", the latest first, with who confirmed it."""

import pytest

from seating import services
from seating.models import PendingMove, Seat
from tournaments.models import Entry

from .test_h4h_balancing_moves import at, bubble, url  # noqa: F401 (fixture)
from .test_support import started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

SLIP_FIELDS = {
    "id", "entry", "entry_number", "player", "kind", "status", "applied", "from_table", "from_seat", "to_table", "to_seat",
    "reason", "reason_code", "reason_data", "card", "wait_for_button", "single_big_blind", "created_at", "done_at", "done_by",
}  # fmt: skip


def test_clk06_a_waiting_move_shows_its_tables_and_those_still_playing_then_the_whole_slip(bubble, api, floor_user):  # noqa: F811
    t, floor = bubble, api(floor_user)
    r = floor.post(url(t, "busts/"), {"table": 1, "entries": [{"entry": at(t, 1, 1)}]}, format="json")
    assert r.status_code == 201, r.content
    m = PendingMove.objects.get(tournament=t)
    created = m.created_at.isoformat()
    shown = floor.get(url(t, "tables/")).json()
    assert shown["moves"] == []
    assert shown["waiting_moves"] == [
        {"id": m.pk, "kind": "BALANCE", "status": "WAITING", "from_table": 2, "to_table": 1, "waiting_for": [1, 2], "created_at": created}
    ]
    # Every slip of the event: the waiting move, its player and seats not chosen yet.
    assert floor.get(url(t, "moves/?status=all")).json() == [
        {
            "id": m.pk,
            "kind": "BALANCE",
            "status": "WAITING",
            "from_table": 2,
            "to_table": 1,
            "waiting_for": None,
            "created_at": created,
            "player": None,
            "entry": None,
            "from_seat": None,
            "to_seat": None,
        }
    ]

    floor.post(url(t, "tables/1/hand-completed/"), {}, format="json")
    assert [w["waiting_for"] for w in floor.get(url(t, "tables/")).json()["waiting_moves"]] == [[2]]

    floor.post(url(t, "tables/2/hand-completed/"), {}, format="json")
    shown = floor.get(url(t, "tables/")).json()
    assert shown["waiting_moves"] == []
    m.refresh_from_db()
    mover = Entry.objects.select_related("person").get(pk=at(t, 2, 6))
    slip = {
        "id": m.pk,
        "entry": mover.pk,
        "entry_number": mover.number,
        "player": f"Player{mover.number:03d} Test",
        "kind": "BALANCE",
        "status": "PROPOSED",
        "applied": False,
        "from_table": 2,
        "from_seat": 6,
        "to_table": 1,
        "to_seat": m.to_seat,
        "reason": m.reason_text,
        "reason_code": m.reason_code,
        "reason_data": m.reason_data,
        "card": "",
        "wait_for_button": m.wait_for_button,
        "single_big_blind": m.single_big_blind,
        "created_at": m.created_at.isoformat(),  # the slip as proposed once the hand was over
        "done_at": None,
        "done_by": None,
    }
    assert set(slip) == SLIP_FIELDS and m.reason_text and m.reason_code
    assert shown["moves"] == [slip]
    assert floor.get(url(t, "moves/")).json() == [slip]
    assert floor.get(url(t, "moves/?status=all")).json() == [slip]


def test_the_floor_page_lists_the_moves_done_latest_first_with_who_confirmed_them(bubble, api, floor_user, director, client, started, actor):  # noqa: F811
    t, floor = bubble, api(floor_user)
    other = started(4)  # another event's move is never listed on this one's page
    taken = set(Seat.objects.filter(tournament=other).values_list("table__number", "number"))
    (there,) = Seat.objects.filter(tournament=other).values_list("entry_id", flat=True)[:1]
    free = next((1, n) for n in range(1, 10) if (1, n) not in taken)
    services.move_player(other, there, *free, actor=actor, reason="wrong seat")

    # 3 out at table 1: 3 against 7, two balancing moves, made once the hand is over
    floor.post(url(t, "busts/"), {"table": 1, "entries": [{"entry": at(t, 1, n)} for n in (1, 2, 3)]}, format="json")
    client.force_login(director)
    page = client.get(f"/tournaments/{t.pk}/tables/").content.decode()
    assert "No move confirmed yet." in page  # the waiting moves are not made
    assert len(floor.get(url(t, "tables/")).json()["waiting_moves"]) == 2
    assert floor.get(url(other, "tables/")).json()["waiting_moves"] == []
    floor.post(url(t, "tables/1/hand-completed/"), {}, format="json")
    first, second = floor.post(url(t, "tables/2/hand-completed/"), {}, format="json").json()["moves"]
    page = client.get(f"/tournaments/{t.pk}/tables/").content.decode()
    assert "No move confirmed yet." in page  # proposed, not made
    assert [m["id"] for m in floor.get(url(t, "tables/")).json()["moves"]] == [first["id"], second["id"]]
    assert floor.get(url(other, "tables/")).json()["moves"] == []
    # The director moves a player by hand (a slip made after the two, done before them)...
    by_hand = at(t, 1, 4)
    seat = next(
        n
        for n in range(9, 0, -1)
        if n not in (first["to_seat"], second["to_seat"]) and not Seat.objects.filter(tournament=t, table__number=1, number=n).exists()
    )
    r = api(director).post(url(t, "moves/"), {"entry": by_hand, "to_table": 1, "to_seat": seat, "reason": "wrong seat"}, format="json")
    assert r.status_code == 201, r.content
    # ... then the floor confirms the two balancing moves at once.
    r = floor.post(url(t, "moves/confirm/"), {"moves": [first["id"], second["id"]]}, format="json")
    assert r.status_code == 200, r.content

    # every slip of the event says when it was made and who confirmed it
    made = {m["id"]: (m["done_at"], m["done_by"]) for m in floor.get(url(t, "moves/?status=all")).json()}
    slips = PendingMove.objects.filter(pk__in=[first["id"], second["id"]])
    assert {m.pk: made[m.pk] for m in slips} == {m.pk: (m.done_at.isoformat(), "flo") for m in slips}
    assert all(m.done_at for m in slips)

    page = client.get(f"/tournaments/{t.pk}/tables/").content.decode()
    done = page.split("Moves done", 1)[1].split("</section>", 1)[0]
    number = dict(Entry.objects.filter(pk__in=[by_hand, first["entry"], second["entry"]]).values_list("pk", "number"))

    def row(m, where, who):
        return f'<td>Player{number[m]:03d} Test</td><td>{where}</td><td class="muted">{who}</td>'

    rows = [
        row(second["entry"], f"2/{second['from_seat']} → 1/{second['to_seat']}", "flo"),
        row(first["entry"], f"2/{first['from_seat']} → 1/{first['to_seat']}", "flo"),
        row(by_hand, f"1/4 → 1/{seat}", "dora"),
    ]
    assert done.count("<tr>") == 3 and all(r in done for r in rows), done
    assert [done.index(r) for r in rows] == sorted(done.index(r) for r in rows)  # the latest first
