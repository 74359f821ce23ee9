"""CLK-06 and the slips: what the floor reads of a move during hand-for-hand (the tables API,
every slip of the event, the floor's page): a move waiting for a table's hand shows its tables
and which of them still play the hand, never a player; once proposed, every field of the slip;
once made, the page's "Moves done", the latest first, with who confirmed it."""

import pytest

from seating.models import PendingMove
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


def test_the_floor_page_lists_the_moves_done_latest_first_with_who_confirmed_them(bubble, api, floor_user, director, client):  # noqa: F811
    t, floor = bubble, api(floor_user)
    floor.post(url(t, "busts/"), {"table": 1, "entries": [{"entry": at(t, 1, 1)}]}, format="json")
    client.force_login(director)
    page = client.get(f"/tournaments/{t.pk}/tables/").content.decode()
    assert "No move confirmed yet." in page  # the waiting move is not made
    floor.post(url(t, "tables/1/hand-completed/"), {}, format="json")
    (move,) = floor.post(url(t, "tables/2/hand-completed/"), {}, format="json").json()["moves"]
    page = client.get(f"/tournaments/{t.pk}/tables/").content.decode()
    assert "No move confirmed yet." in page  # proposed, not made
    assert floor.post(url(t, f"moves/{move['id']}/confirm/"), {}, format="json").status_code == 200
    by_hand = at(t, 1, 2)
    r = api(director).post(url(t, "moves/"), {"entry": by_hand, "to_table": 2, "to_seat": 6, "reason": "wrong seat"}, format="json")
    assert r.status_code == 201, r.content

    page = client.get(f"/tournaments/{t.pk}/tables/").content.decode()
    done = page.split("Moves done", 1)[1].split("</section>", 1)[0]
    number = dict(Entry.objects.filter(pk__in=[by_hand, move["entry"]]).values_list("pk", "number"))
    hand_row = f'Player{number[by_hand]:03d} Test</td><td>1/2 → 2/6</td><td class="muted">dora</td>'
    balance_row = f'Player{number[move["entry"]]:03d} Test</td><td>2/6 → 1/{move["to_seat"]}</td><td class="muted">flo</td>'
    assert hand_row in done and balance_row in done
    assert done.index(hand_row) < done.index(balance_row)
