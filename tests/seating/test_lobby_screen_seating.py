"""What the lobby screens show of seating (CLK-06 and the seat lookup), read as a screen reads it:
the live snapshot (tables in play, the moves to make, the tables waiting for their hand-for-hand
hand, the final table, the last busts) and the rotating seat lookup's pages.

Every list names players as public pages do, in the house's style: a player who asked not to be
found is "—", two who would read the same carry their entry number.
"""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from seating import selectors, services
from seating.models import Bust, PendingMove, Table
from tournaments.live import seats
from tournaments.live.snapshot import build_snapshot
from tournaments.models import ChipCount, Entry, Person, Tournament

from .test_support import add_entries, arrange, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def named(t, style="NICKNAME"):
    """Six players named so that every part of a public name shows: entry 1 goes by a nickname,
    entry 2 asked not to be found by name, entries 3 and 4 would both read "Luca R.", entry 5 is
    "bob Zeta" (lower case: the seat list sorts regardless of case) and entry 6 "Carla Bianchi"."""
    people = {e.number: e.person_id for e in Entry.objects.filter(tournament=t)}
    rows = {
        1: ("Mario", "Verdi", "Ace", False),
        2: ("Paola", "Neri", "", True),
        3: ("Luca", "Rossi", "", False),
        4: ("Luca", "Russo", "", False),
        5: ("bob", "Zeta", "", False),
        6: ("Carla", "Bianchi", "", False),
    }
    for number, (first, last, nick, hidden) in rows.items():
        Person.objects.filter(pk=people[number]).update(first_name=first, last_name=last, nickname=nick, hide_from_lookup=hidden)
    Tournament.objects.filter(pk=t.pk).update(settings={**(t.settings or {}), "seat_lookup_names": style})
    t.refresh_from_db()
    return {n: e for n, e in Entry.objects.filter(tournament=t).values_list("number", "pk")}


def move(t, entry, frm, to, status=PendingMove.PROPOSED):
    return PendingMove.objects.create(tournament=t, entry_id=entry, from_table=frm[0], from_seat=frm[1], to_table=to[0], to_seat=to[1], status=status)


def test_clk06_the_lobby_shows_the_moves_to_make_and_the_tables_waiting_for_their_hand(started):
    t = started(12)
    entry = named(t)
    arrange(t, {1: [1, 2, 3, 4, 5, 6], 2: [1, 2, 3, 4], 3: [], 4: [1, 2]})
    Table.objects.filter(tournament=t, number=4).update(in_play=False)  # broken, its seats not cleared yet
    move(t, entry[3], (1, 3), (2, 5))
    move(t, entry[1], (1, 1), (2, 6))
    move(t, entry[4], (1, 4), (2, 7))
    move(t, entry[2], (1, 2), (2, 8))
    move(t, entry[5], (1, 5), (2, 9), status=PendingMove.DONE)
    move(t, entry[6], (1, 6), (2, 9), status=PendingMove.SUPERSEDED)
    move(t, entry[6], (4, 1), (2, 9), status=PendingMove.WAITING)
    move(t, entry[5], (1, 5), (3, 1), status=PendingMove.WAITING)

    snap = build_snapshot(t.pk)
    # two tables in play with players: not the empty one, not the one broken
    assert snap["tables_in_play"] == 2
    assert snap["moves"] == [
        {"player": "Luca R. #3", "from_table": 1, "from_seat": 3, "to_table": 2, "to_seat": 5},
        {"player": "Ace", "from_table": 1, "from_seat": 1, "to_table": 2, "to_seat": 6},
        {"player": "Luca R. #4", "from_table": 1, "from_seat": 4, "to_table": 2, "to_seat": 7},
        {"player": "—", "from_table": 1, "from_seat": 2, "to_table": 2, "to_seat": 8},
    ]
    assert snap["moves_pending"] == 4
    # CLK-06: a move waiting for a table's hand shows its tables only, in the order made
    assert snap["moves_waiting"] == [{"from_table": 4, "to_table": 2}, {"from_table": 1, "to_table": 3}]
    assert snap["final_table"] == []  # two tables in play: no final-table block


def test_clk06_the_lobby_shows_the_first_thirty_moves_and_counts_them_all(started):
    other = started(3)  # another event's slips are not this lobby's
    for e in other.entries.values_list("pk", flat=True):
        move(other, e, (1, 1), (2, 1))
    t = started(40)
    arrange(t, {1: list(range(1, 9)), 2: list(range(1, 9)), 3: list(range(1, 9)), 4: list(range(1, 9)), 5: list(range(1, 9))})
    entries = list(Entry.objects.filter(tournament=t).order_by("number").values_list("pk", flat=True))
    for i, e in enumerate(entries):
        move(t, e, (1 + i // 8, 1 + i % 8), (6, 1 + i % 9))
    for i, e in enumerate(entries[:35]):
        move(t, e, (1 + i // 8, 1 + i % 8), (7, 1), status=PendingMove.WAITING)
    for e in entries[:5]:
        move(t, e, (1, 1), (8, 1), status=PendingMove.DONE)

    snap = build_snapshot(t.pk)
    assert [(m["from_table"], m["from_seat"]) for m in snap["moves"]] == [(1 + i // 8, 1 + i % 8) for i in range(30)]
    assert snap["moves"][0]["player"] == "Player001 T." and snap["moves"][29]["player"] == "Player030 T."
    assert snap["moves_pending"] == 40  # the proposed ones only, all of them
    assert len(snap["moves_waiting"]) == 30 and snap["moves_waiting"][0] == {"from_table": 1, "to_table": 7}


def test_the_final_table_block_shows_each_seat_and_the_chips_last_counted(started):
    t = started(6)
    entry = named(t)
    arrange(t, {1: {1: entry[3], 2: entry[1], 4: entry[2], 5: entry[4], 7: entry[6], 9: entry[5]}})
    now = timezone.now()
    ChipCount.objects.create(tournament=t, entry_id=entry[3], chips=41000, counted_at=now - timedelta(minutes=30))
    ChipCount.objects.create(tournament=t, entry_id=entry[3], chips=52000, counted_at=now)
    ChipCount.objects.create(tournament=t, entry_id=entry[1], chips=10000, counted_at=now)
    ChipCount.objects.create(tournament=t, entry_id=entry[1], chips=12500, counted_at=now)  # counted again at once: the later row
    ChipCount.objects.create(tournament=t, entry_id=entry[2], chips=7000, counted_at=now - timedelta(hours=1))
    ChipCount.objects.create(tournament=t, entry_id=entry[2], chips=9000, counted_at=now - timedelta(hours=2))

    snap = build_snapshot(t.pk)
    assert snap["tables_in_play"] == 1
    assert snap["final_table"] == [
        {"seat": 1, "player": "Luca R. #3", "chips": 52000},
        {"seat": 2, "player": "Ace", "chips": 12500},
        {"seat": 4, "player": "—", "chips": 7000},
        {"seat": 5, "player": "Luca R. #4", "chips": None},  # never counted: no stack is guessed
        {"seat": 7, "player": "Carla B.", "chips": None},
        {"seat": 9, "player": "bob Z.", "chips": None},
    ]


def test_the_lobby_shows_the_last_three_busts_latest_first_not_one_undone(started):
    t = started(12)
    entry = named(t)
    at = timezone.now().replace(microsecond=0)

    def bust(number, order, place, void=""):
        return Bust.objects.create(
            tournament=t,
            entry_id=entry[number],
            order=order,
            table_number=1,
            seat_number=order,
            place=place,
            busted_at=at + timedelta(minutes=order),
            void=void,
        )

    bust(6, 1, 12)
    b3, b4 = bust(3, 2, 11), bust(4, 3, 10)
    bust(5, 5, 9, void=Bust.UNDONE)  # a mistake, undone
    b1 = bust(1, 4, 9)

    snap = build_snapshot(t.pk)
    assert snap["last_busts"] == [
        {"id": b1.pk, "player": "Ace", "place": 9, "at": (at + timedelta(minutes=4)).isoformat()},
        {"id": b4.pk, "player": "Luca R. #4", "place": 10, "at": (at + timedelta(minutes=3)).isoformat()},
        {"id": b3.pk, "player": "Luca R. #3", "place": 11, "at": (at + timedelta(minutes=2)).isoformat()},
    ]


def test_the_lobby_summary_of_a_tournament_known_by_its_key_names_players_in_the_house_style(started):
    t = started(6)
    entry = named(t, style="FULL")
    arrange(t, {1: [1, 2, 3, 4, 5, 6]})
    move(t, entry[1], (1, 1), (2, 1))
    move(t, entry[3], (1, 3), (2, 2))
    by_key = selectors.display_summary(t.pk)
    assert [m["player"] for m in by_key["moves"]] == ["Mario Verdi", "Luca Rossi"]
    assert by_key == selectors.display_summary(Tournament.objects.get(pk=t.pk))


def test_before_the_draw_the_lobby_has_no_seats_version_and_no_seats(make_tournament):
    t = make_tournament()
    add_entries(t, 4)
    assert build_snapshot(t.pk)["seats_version"] == 0 == selectors.seats_version(t) == selectors.seats_version(t.pk)
    assert seats.seat_page(t.pk, 1, 48) == {"seats_version": 0, "page": 1, "pages": 1, "size": 48, "total": 0, "seats": []}


def test_the_seat_pages_list_players_by_name_as_the_house_names_them(started):
    t = started(6)
    entry = named(t)
    arrange(t, {1: {1: entry[3], 2: entry[1], 3: entry[2]}, 2: {4: entry[4], 5: entry[5], 6: entry[6]}})
    Person.objects.filter(pk=Entry.objects.get(pk=entry[6]).person_id).update(nickname="bo_ss")  # sorted as read: before "bob", whatever the case
    selectors.forget_seat_lists()  # the seats were arranged by hand, not by a move
    version = build_snapshot(t.pk)["seats_version"]
    assert version == selectors.seats_version(t) > 0
    page = seats.seat_page(t.pk, 1, 2)
    assert page == {
        "seats_version": version,
        "page": 1,
        "pages": 3,  # five names (not the hidden player), two a page
        "size": 2,
        "total": 5,
        "seats": [{"name": "Ace", "table": 1, "seat": 2}, {"name": "bo_ss", "table": 2, "seat": 6}],
    }
    assert seats.seat_page(t.pk, 2, 2)["seats"] == [{"name": "bob Z.", "table": 2, "seat": 5}, {"name": "Luca R. #3", "table": 1, "seat": 1}]
    assert seats.seat_page(t.pk, 3, 2)["seats"] == [{"name": "Luca R. #4", "table": 2, "seat": 4}]
    assert seats.seat_page(t.pk, 4, 2)["seats"] == []  # past the end: the screen starts again at page 1
    assert seats.seat_page(t.pk, 1, 5)["pages"] == 1 and seats.seat_page(t.pk, 1, 4)["pages"] == 2

    # The director changes the style: the screens follow at once, the seats unchanged.
    Tournament.objects.filter(pk=t.pk).update(settings={**t.settings, "seat_lookup_names": "FULL"})
    names = [s["name"] for s in seats.seat_page(t.pk, 1, 48)["seats"]]
    assert names == ["bob Zeta", "Carla Bianchi", "Luca Rossi", "Luca Russo", "Mario Verdi"]


def test_a_seat_page_asked_out_of_bounds_is_clamped(started):
    t = started(5)
    assert selectors.seat_page(t, 0, 0) | {"seats": None} == {
        "seats_version": selectors.seats_version(t),
        "page": 1,
        "pages": 5,
        "size": 1,
        "total": 5,
        "seats": None,
    }
    assert selectors.seat_page(t, -2, 1)["seats"] == selectors.seat_page(t, 1, 1)["seats"] != []
    big = selectors.seat_page(t, 1, 500)
    assert (big["size"], big["pages"], len(big["seats"])) == (200, 1, 5)
    default = selectors.seat_page(t)
    assert (default["page"], default["size"]) == (1, selectors.SEAT_PAGE_SIZE) == (1, 48) and len(default["seats"]) == 5


def reads(sql_table, call):
    """The queries ``call`` makes that read ``sql_table``."""
    with CaptureQueriesContext(connection) as ctx:
        call()
    return [q["sql"] for q in ctx.captured_queries if f'FROM "{sql_table}"' in q["sql"]]


def test_the_lobby_summary_reads_the_house_style_only_when_given_the_tournament_by_key(started):
    """The snapshot is rebuilt after every change of a running event: given the tournament, the
    summary reads no tournament row again; given its key, one small read of it (its settings)."""
    t = started(6)
    named(t, style="FULL")
    selectors.display_summary(t.pk)  # warm: the compiled reads
    t = Tournament.objects.get(pk=t.pk)
    assert reads("tournaments_tournament", lambda: selectors.display_summary(t)) == []
    assert len(reads("tournaments_tournament", lambda: selectors.display_summary(t.pk))) == 1


def test_the_seat_list_is_read_once_per_seats_version_and_again_after_a_bust(started, actor):
    selectors.forget_seat_lists()
    t = started(6)
    first = seats.seat_page(t.pk, 1, 3)
    # the screen's next page of the same version: only the version is read, not the seats
    assert reads("seating_seat", lambda: seats.seat_page(t.pk, 2, 3)) == []
    assert seats.seat_page(t.pk, 1, 3) == first
    gone = Entry.objects.filter(tournament=t, number=1).values_list("pk", flat=True).get()
    services.record_bust(t, [gone], actor=actor)
    after = seats.seat_page(t.pk, 1, 48)
    assert after["seats_version"] > first["seats_version"] and after["total"] == 5
    assert "Player001 T." not in [s["name"] for s in after["seats"]]


def test_the_seat_pages_of_more_events_than_a_process_keeps_each_answer_their_own(started):
    selectors.forget_seat_lists()
    events = [started(2 + i % 3) for i in range(10)]
    for _ in range(2):  # the second round: the first events' lists were let go, and are read again
        assert [seats.seat_page(t.pk, 1, 48)["total"] for t in events] == [2 + i % 3 for i in range(10)]


def test_a_screen_asking_while_another_builds_the_same_seat_list_gets_that_list(started, monkeypatch):
    """Two screens ask for a new seats version at once: one reads the field, the other waits for
    its build lock and then answers from the list just built (not reading it again)."""
    from seating.selectors import screens

    selectors.forget_seat_lists()
    t = started(6)
    expected = seats.seat_page(t.pk, 1, 48)
    built = screens._SEAT_LISTS.pop(t.pk)  # as if this version were still being built elsewhere

    class BuiltMeanwhile(dict):
        def setdefault(self, key, default=None):
            screens._SEAT_LISTS[key] = built  # the other screen's build ends while this one waits
            return super().setdefault(key, default)

    monkeypatch.setattr(screens, "_SEAT_LIST_BUILDS", BuiltMeanwhile())
    assert reads("seating_seat", lambda: seats.seat_page(t.pk, 1, 48)) == []
    assert seats.seat_page(t.pk, 1, 48) == expected
