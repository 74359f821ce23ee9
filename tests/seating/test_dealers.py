"""The dealers of a room (issue #42): a roster, pushes that rotate them, a table that opens asks
for one and a table that breaks sends its dealer to the pool; a dealer reports only from the
table he is assigned; the shift report counts his minutes; the floor sees the next push."""

from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth.models import Group
from django.utils import timezone

from seating import selectors
from seating import services as seating
from seating.engine.dealers import DealerState
from seating.models import DealerAssignment, DealerShift, RoomTable, Table
from seating.services import cardrooms, dealers
from tdmanager.errors import DomainError
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.models import Entry, TournamentEvent
from tournaments.setup import lifecycle

from .test_support import seat_map


@pytest.fixture
def hall(db, actor):
    room = cardrooms.save_room("Sala principale", actor=actor)
    for n in range(1, 9):
        cardrooms.save_table(room, n, seats=9, position=n, actor=actor)
    return room


@pytest.fixture
def crew(db, hall, actor):
    """Four dealers on the roster from an hour ago for eight hours."""
    now = timezone.now()
    users = [make_user(name, "dealer", first_name=name.title()) for name in ("anna", "marco", "luca", "sara")]
    for u in users:
        dealers.add_shift(hall, u, now - timedelta(hours=1), now + timedelta(hours=7), actor=actor)
    return users


def start(make_tournament, make_person, actor, players, **kw):
    t = make_tournament(**kw)
    for _ in range(players):
        cashier.register(t, make_person(), method="CASH", actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    return t


def dealing(room) -> dict[int, int]:
    return {a.table: a.dealer_id for a in DealerAssignment.objects.filter(room=room, ends_at__isnull=True, kind="DEAL")}


@pytest.mark.django_db
def test_a_push_gives_every_table_a_dealer_and_the_next_moves_each_to_another(hall, crew, make_tournament, make_person, actor):
    start(make_tournament, make_person, actor, 27)  # three tables: 1, 2, 3
    now = timezone.now()
    dealers.push(hall, actor=actor, now=now)
    first = dealing(hall)
    assert sorted(first) == [1, 2, 3] and len(set(first.values())) == 3
    assert DealerAssignment.objects.filter(room=hall, ends_at__isnull=True, kind="POOL").count() == 1
    dealers.push(hall, actor=actor, now=now + timedelta(minutes=30))
    second = dealing(hall)
    assert sorted(second) == [1, 2, 3]
    for table, dealer in second.items():
        assert first.get(table) != dealer  # never the same table twice in a row
    report = {r["dealer"]: r for r in selectors.dealer_report(hall.pk, now - timedelta(hours=1), now + timedelta(hours=1), now=now + timedelta(minutes=60))}
    assert sum(r["dealt"] for r in report.values()) == 3 * 60  # three tables dealt for an hour
    assert all(sum(x["minutes"] for x in r["tables"]) == r["dealt"] for r in report.values())


@pytest.mark.django_db
def test_a_dealer_goes_on_his_break_after_two_hours(hall, crew, make_tournament, make_person, actor):
    start(make_tournament, make_person, actor, 27)
    now = timezone.now()
    for k in range(6):  # three hours of pushes
        dealers.push(hall, actor=actor, now=now + timedelta(minutes=30 * k))
    breaks = DealerAssignment.objects.filter(room=hall, kind="BREAK")
    assert breaks.exists()
    for r in selectors.dealer_report(hall.pk, now - timedelta(hours=1), now + timedelta(hours=4), now=now + timedelta(minutes=180)):
        assert r["dealt"] <= 180  # nobody dealt the three hours through


@pytest.mark.django_db
def test_a_table_that_opens_asks_for_a_dealer_and_one_that_breaks_sends_him_to_the_pool(hall, crew, make_tournament, make_person, actor):
    t = start(make_tournament, make_person, actor, 18)  # two full tables: 1, 2
    dealers.push(hall, actor=actor)
    assert sorted(dealing(hall)) == [1, 2]
    cashier.register(t, make_person(), method="CASH", actor=actor)  # every seat taken: table 3 opens
    assert sorted(dealing(hall)) == [1, 2, 3]
    for entry in Entry.objects.filter(tournament=t, status=Entry.ACTIVE).order_by("number")[:2]:
        seating.record_bust(t, [entry.pk], actor=actor)  # 17 left: fits two tables, one breaks
    playing = sorted(Table.objects.filter(tournament=t, in_play=True).values_list("number", flat=True))
    assert sorted(dealing(hall)) == playing and len(playing) == 2
    assert DealerAssignment.objects.filter(room=hall, ends_at__isnull=True, kind="POOL").count() == 2


@pytest.mark.django_db
def test_a_dealer_reports_only_from_his_table(hall, crew, make_tournament, make_person, actor):
    t = start(make_tournament, make_person, actor, 18)
    dealers.push(hall, actor=actor)
    mine = dealing(hall)
    dealer_at_1 = next(u for u in crew if u.pk == mine[1])
    as_dealer = Actor(dealer_at_1, "dealer tablet")
    at_2 = Entry.objects.filter(tournament=t, seat__table__number=2).first()
    with pytest.raises(DomainError) as refused:
        seating.record_bust(t, [at_2.pk], table=2, actor=as_dealer)
    assert refused.value.code == "not_your_table" and "1" in str(refused.value.message)
    with pytest.raises(DomainError):
        seating.hand_completed(t, 2, actor=as_dealer)
    at_1 = Entry.objects.filter(tournament=t, seat__table__number=1).first()
    seating.record_bust(t, [at_1.pk], table=1, actor=as_dealer)  # his own table
    pool_dealer = next(u for u in crew if u.pk not in mine.values())
    with pytest.raises(DomainError) as refused:
        seating.hand_completed(t, 1, actor=Actor(pool_dealer, "tablet"))
    assert refused.value.code == "not_your_table"
    seating.hand_completed(t, 2, actor=actor)  # the floor and the director report anywhere


@pytest.mark.django_db
def test_the_next_push_is_shown_in_advance(hall, crew, make_tournament, make_person, actor):
    start(make_tournament, make_person, actor, 18)
    now = timezone.now()
    dealers.push(hall, actor=actor, now=now)
    before = dealing(hall)
    plan = dealers.preview(hall, now + timedelta(minutes=5))
    assert plan["at"] == now + timedelta(minutes=30)
    moves = {m["dealer_id"]: m for m in plan["moves"]}
    dealers.push(hall, actor=actor, now=now + timedelta(minutes=30))
    after = dealing(hall)
    assert {m["to"]: d for d, m in moves.items() if m["kind"] == "DEAL"} == after  # the push did what was announced
    assert after != before


@pytest.mark.django_db
def test_pushes_come_when_due(hall, crew, make_tournament, make_person, actor):
    start(make_tournament, make_person, actor, 9)
    now = timezone.now()
    assert dealers.push_when_due(now) == 1  # never pushed: due
    assert dealers.push_when_due(now + timedelta(minutes=10)) == 0
    assert dealers.push_when_due(now + timedelta(minutes=30)) == 1


@pytest.mark.django_db
def test_the_roster_takes_dealers_only(hall, director, actor):
    floor = make_user("piero", "floor")
    now = timezone.now()
    with pytest.raises(DomainError) as refused:
        dealers.add_shift(hall, floor, now, now + timedelta(hours=4), actor=actor)
    assert refused.value.extra["field"] == "dealer"
    anna = make_user("anna", "dealer")
    with pytest.raises(DomainError):
        dealers.add_shift(hall, anna, now, now - timedelta(hours=1), actor=actor)
    dealers.add_shift(hall, anna, now, now + timedelta(hours=4), actor=actor)
    with pytest.raises(DomainError) as refused:
        dealers.add_shift(hall, anna, now + timedelta(hours=1), now + timedelta(hours=5), actor=actor)
    assert refused.value.code == "shift_overlaps"


@pytest.mark.django_db
def test_the_dealers_api_and_the_shift_report(api, director, floor_user, hall, crew, make_tournament, make_person, actor):
    start(make_tournament, make_person, actor, 18)
    floor = api(floor_user)
    r = floor.post(f"/api/v1/rooms/{hall.pk}/push/", format="json")
    assert r.status_code == 200 and r.json()["uncovered"] == []
    r = floor.get(f"/api/v1/rooms/{hall.pk}/dealers/")
    assert r.status_code == 200
    now_at = [x["now"] for x in r.json()["roster"]]
    assert sorted(n["table"] for n in now_at if n and n["kind"] == "DEAL") == [1, 2]
    assert floor.get(f"/api/v1/rooms/{hall.pk}/dealers/report/").status_code == 403  # payroll is the director's
    r = api(director).get(f"/api/v1/rooms/{hall.pk}/dealers/report/")
    assert r.status_code == 200 and len(r.json()["dealers"]) == 4
    r = api(director).put(f"/api/v1/rooms/{hall.pk}/rotation/", {"push_minutes": 5, "break_after": 120, "break_minutes": 20}, format="json")
    assert r.status_code == 400 and "push_minutes" in r.json()["fields"]
    assert (
        api(director).put(f"/api/v1/rooms/{hall.pk}/rotation/", {"push_minutes": 20, "break_after": 120, "break_minutes": 20}, format="json").status_code == 200
    )
    shift = r.json() and floor.get(f"/api/v1/rooms/{hall.pk}/dealers/").json()["roster"][0]["shift"]
    assert floor.delete(f"/api/v1/rooms/{hall.pk}/dealers/{shift}/").status_code == 200


@pytest.mark.django_db
def test_the_shift_report_as_csv_and_pdf_and_the_room_screen(client, director, floor_user, hall, crew, make_tournament, make_person, actor):
    start(make_tournament, make_person, actor, 18)
    dealers.push(hall, actor=actor)
    client.force_login(director)
    csv_text = client.get(f"/room/{hall.pk}/dealers.csv").content.decode()
    assert csv_text.splitlines()[0].startswith("Dealer,") and len(csv_text.splitlines()) == 1 + len(crew)
    assert client.get(f"/room/{hall.pk}/dealers.pdf").content.startswith(b"%PDF")
    client.force_login(floor_user)
    assert client.get(f"/room/{hall.pk}/dealers.csv").status_code == 403  # payroll is the director's
    screen = client.get(f"/room/{hall.pk}/screen/").content.decode()
    assert "/static/roomscreen." in screen and "refresh" not in screen and "room-table-1" in screen and "<form" not in screen


@pytest.mark.django_db
def test_an_event_that_ends_gives_back_its_tables_and_sends_their_dealers_to_the_pool(hall, crew, make_tournament, make_person, actor):
    """Day seed 7100 of the simulator: a timed event finished, its dealers stayed at its tables."""
    t = start(make_tournament, make_person, actor, 3)
    dealers.push(hall, actor=actor)
    assert sorted(dealing(hall)) == [1]
    for entry in Entry.objects.filter(tournament=t).order_by("number")[:2]:
        seating.record_bust(t, [entry.pk], actor=actor)  # the winner is left at his table
    t.refresh_from_db()
    if t.status != t.FINISHED:
        lifecycle.finish(t, actor=actor)
    assert dealing(hall) == {}
    assert not RoomTable.objects.filter(room=hall, held_by__isnull=False).exists()
    assert DealerAssignment.objects.filter(room=hall, ends_at__isnull=True, kind="POOL").count() == len(crew)


def test_an_ended_events_busts_and_moves_stand_once_its_tables_are_given_away(hall, crew, make_tournament, make_person, actor, client, director):
    """Day seed 4810094 of the simulator: the last busts of a finished event undone brought its
    players back to tables the room had given to the next event, and a dealer to a table nobody
    played at. Once an event has ended, its busts and its moves stand."""
    t = start(make_tournament, make_person, actor, 12)  # two tables of six
    tables = seat_map(t)
    free = next(n for n in range(1, 10) if n not in tables[1])
    moved = seating.move_player(t, min(tables[2].values()), 1, free, actor=actor, reason="special needs")
    out = seating.record_bust(t, [min(tables[1].values())], actor=actor)
    lifecycle.finish(t, actor=actor)  # the director ends it (a deal among those left)
    nxt = start(make_tournament, make_person, actor, 8)
    dealers.push(hall, actor=actor)
    room_before = [(tb["number"], tb["state"], (tb["event"] or {}).get("id"), (tb["dealer"] or {}).get("id")) for tb in selectors.room_map(hall.pk)["tables"]]
    assert (1, "IN_USE", nxt.pk) == room_before[0][:3]
    for undo in (lambda: seating.undo_bust(t, out.busts[0], actor=actor), lambda: seating.undo_move(t, moved.move, actor=actor)):
        with pytest.raises(DomainError) as refused:
            undo()
        assert refused.value.code == "tournament_closed"
    after = [(tb["number"], tb["state"], (tb["event"] or {}).get("id"), (tb["dealer"] or {}).get("id")) for tb in selectors.room_map(hall.pk)["tables"]]
    assert after == room_before
    assert Entry.objects.get(pk=out.busts[0].entry_id).status == Entry.BUSTED
    assert set(dealing(hall)) == {1}  # the next event's one table: no dealer sent to a table of the ended one
    client.force_login(director)  # the page of the bust just recorded, opened again: no Undo to be refused
    page = client.get(f"/tournaments/{t.pk}/tables/?bust={out.busts[0].pk}")
    assert page.status_code == 200 and 'id="undo-just-busted"' not in page.content.decode()


@pytest.mark.django_db
def test_a_dealer_who_moved_rooms_reports_from_his_table_in_the_new_one(hall, make_tournament, make_person, actor):
    """Yesterday Ivo was in the hall's pool, and the hall was not pushed again after his shift
    there ended; today he deals in the side room. His reports there count and his row in the hall
    is closed (found by a simulated day, seed 7201: every report of a dealer rostered in a second
    room refused as "not dealing a table now")."""
    ivo = make_user("ivo", "dealer", first_name="Ivo")
    now = timezone.now()
    with time_machine.travel(now - timedelta(hours=20), tick=False):
        dealers.add_shift(hall, ivo, timezone.now(), timezone.now() + timedelta(hours=8), actor=actor)
        dealers.push(hall, actor=actor)  # no event playing: Ivo waits in the pool
    side = cardrooms.save_room("Sala laterale", actor=actor)
    for n in (1, 2):
        cardrooms.save_table(side, n, seats=9, position=n, actor=actor)
    dealers.add_shift(side, ivo, now - timedelta(hours=1), now + timedelta(hours=7), actor=actor)
    t = start(make_tournament, make_person, actor, 8, settings={"room": side.pk})
    dealers.push(side, actor=actor)
    assert dealing(side) == {1: ivo.pk}
    seating.hand_completed(t, 1, actor=Actor(ivo, "dealer tablet"))  # refused before: his pool row in the hall
    assert not DealerAssignment.objects.filter(room=hall, dealer=ivo, ends_at__isnull=True).exists()


# --- where a dealer is, as the floor and the dealer see it ---------------------------------------


def place(room, user, kind, table, starts_at, ends_at=None):
    """A row of a dealer's history in ``room``: where he was from ``starts_at`` to ``ends_at``."""
    return DealerAssignment.objects.create(room=room, dealer=user, kind=kind, table=table, starts_at=starts_at, ends_at=ends_at)


def refusal(call):
    """The answer a refused report gets: its status and its body."""
    with pytest.raises(DomainError) as refused:
        call()
    return refused.value.status, refused.value.as_dict()


def not_his_table(detail):
    return 403, {"code": "not_your_table", "detail": detail, "field": "table"}


@pytest.mark.django_db
def test_role01_a_rostered_dealer_is_told_why_he_may_not_report_from_a_table(hall, crew, make_tournament, make_person, actor):
    t = start(make_tournament, make_person, actor, 18, name="Main Event")  # the hall's tables 1 and 2
    side = start(make_tournament, make_person, actor, 9, name="Side Event")  # the hall's table 3
    assert dict(RoomTable.objects.filter(room=hall, held_by__isnull=False).values_list("number", "held_by_id")) == {1: t.pk, 2: t.pk, 3: side.pk}
    anna, marco, luca, _ = crew
    since = timezone.now() - timedelta(minutes=10)
    place(hall, anna, "DEAL", 1, since)
    place(hall, marco, "POOL", None, since)
    place(hall, luca, "BREAK", None, since)
    at_2 = Entry.objects.filter(tournament=t, seat__table__number=2).first()
    at_3 = Entry.objects.filter(tournament=side, seat__table__number=3).first()

    deal_1 = not_his_table("You deal table 1: report from there.")
    assert refusal(lambda: seating.record_bust(t, [at_2.pk], table=2, actor=Actor(anna, "dealer tablet"))) == deal_1
    # table 1 of the hall is the main event's: the side event's players are not his to report
    assert refusal(lambda: seating.record_bust(side, [at_3.pk], table=1, actor=Actor(anna, "dealer tablet"))) == deal_1
    away = not_his_table("You are not dealing a table now (a break, or the pool): ask the floor.")
    for user in (marco, luca):
        assert refusal(lambda: seating.hand_completed(t, 1, actor=Actor(user, "dealer tablet"))) == away
    assert Entry.objects.get(pk=at_2.pk).status == Entry.ACTIVE and Entry.objects.get(pk=at_3.pk).status == Entry.ACTIVE
    seating.hand_completed(t, 1, actor=Actor(anna, "dealer tablet"))  # his own table
    place(hall, luca, "DEAL", 3, timezone.now())  # back from his break, at the side event's table
    seating.hand_completed(side, 3, actor=Actor(luca, "dealer tablet"))
    # a floor person who also deals, in the pool now, reports from any table
    piero = make_user("piero", "dealer")
    piero.groups.add(Group.objects.get_or_create(name="floor")[0])
    place(hall, piero, "POOL", None, since)
    seating.hand_completed(t, 2, actor=Actor(piero, "floor tablet"))


@pytest.mark.django_db
def test_role01_a_queued_tap_is_judged_by_where_the_dealer_was_when_he_tapped(hall, crew, make_tournament, make_person, actor):
    with time_machine.travel(timezone.now() - timedelta(minutes=50)):
        t = start(make_tournament, make_person, actor, 18, name="Main Event")  # the hall's tables 1 and 2
        side = start(make_tournament, make_person, actor, 9, name="Side Event")  # the hall's table 3
    anna = crew[0]
    now = timezone.now()
    place(hall, anna, "POOL", None, now - timedelta(minutes=40), now - timedelta(minutes=30))
    place(hall, anna, "DEAL", 1, now - timedelta(minutes=30), now - timedelta(minutes=5))
    place(hall, anna, "BREAK", None, now - timedelta(minutes=5))
    in_pool, dealing_1 = now - timedelta(minutes=35), now - timedelta(minutes=20)

    def tapped(tournament, table, when, sits=None):
        entry = Entry.objects.filter(tournament=tournament, seat__table__number=sits or table, status=Entry.ACTIVE).first()
        return lambda: seating.record_bust(tournament, [entry.pk], table=table, actor=Actor(anna, "dealer tablet", tapped_at=when))

    pool_at = timezone.localtime(in_pool).strftime("%H:%M")
    assert refusal(tapped(t, 1, in_pool)) == not_his_table(f"When this was tapped ({pool_at}) you were not dealing a table: ask the floor.")
    at = timezone.localtime(dealing_1).strftime("%H:%M")
    assert refusal(tapped(t, 2, dealing_1)) == not_his_table(f"When this was tapped ({at}) you dealt table 1, not table 2: ask the floor.")
    assert refusal(tapped(side, 1, dealing_1, sits=3)) == not_his_table("You deal table 1: report from there.")
    assert Entry.objects.filter(status=Entry.BUSTED).count() == 0
    out = seating.record_bust(
        t, [Entry.objects.filter(tournament=t, seat__table__number=1).first().pk], table=1, actor=Actor(anna, "tablet", tapped_at=dealing_1)
    )
    assert Entry.objects.get(pk=out.busts[0].entry_id).status == Entry.BUSTED  # his table when he tapped it, on his break now
    # Marco deals the side event's table 3 since before his tap and still does: it stands
    marco = crew[1]
    place(hall, marco, "DEAL", 3, now - timedelta(minutes=30))
    entry = Entry.objects.filter(tournament=side, seat__table__number=3, status=Entry.ACTIVE).first()
    seating.record_bust(side, [entry.pk], table=3, actor=Actor(marco, "tablet", tapped_at=dealing_1))
    assert Entry.objects.get(pk=entry.pk).status == Entry.BUSTED
    # a dealer the venue does not roster, neither then nor now, names his table as before
    ivo = make_user("ivo", "dealer")
    entry = Entry.objects.filter(tournament=t, seat__table__number=2, status=Entry.ACTIVE).first()
    seating.record_bust(t, [entry.pk], table=2, actor=Actor(ivo, "tablet", tapped_at=dealing_1))
    assert Entry.objects.get(pk=entry.pk).status == Entry.BUSTED


@pytest.mark.django_db
def test_role01_the_dealers_page_says_where_he_deals_since_when_and_his_next_move(hall, crew, make_tournament, make_person, actor, client):
    t = start(make_tournament, make_person, actor, 18, name="Main Event")  # the hall's tables 1 and 2
    side = start(make_tournament, make_person, actor, 9, name="Side Event")  # the hall's table 3
    now = timezone.now()
    dealers.push(hall, actor=actor, now=now)
    anna, marco, luca, sara = crew
    assert dealing(hall) == {1: anna.pk, 2: marco.pk, 3: luca.pk}  # the roster's order; Sara waits in the pool
    later = now + timedelta(minutes=10)
    next_at = now + timedelta(minutes=30)
    assert dealers.my_assignment(anna, later) == {
        "kind": "DEAL",
        "table": 1,
        "since": now,
        "event": {"pk": t.pk, "name": "Main Event"},
        "room": "Sala principale",
        "next_at": next_at,
        "next": {"dealer": "Anna", "dealer_id": anna.pk, "from": 1, "to": 2, "kind": "DEAL"},
    }
    # at the next push the freshest deal: Sara from the pool takes table 1, Luca waits there
    assert dealers.my_assignment(luca, later) == {
        "kind": "DEAL",
        "table": 3,
        "since": now,
        "event": {"pk": side.pk, "name": "Side Event"},
        "room": "Sala principale",
        "next_at": next_at,
        "next": {"dealer": "Luca", "dealer_id": luca.pk, "from": 3, "to": None, "kind": "POOL"},
    }
    assert dealers.my_assignment(sara, later) == {
        "kind": "POOL",
        "table": None,
        "since": now,
        "event": None,
        "room": "Sala principale",
        "next_at": next_at,
        "next": {"dealer": "Sara", "dealer_id": sara.pk, "from": None, "to": 1, "kind": "DEAL"},
    }
    assert dealers.my_assignment(make_user("ivo", "dealer"), later) is None  # not on the roster
    assert dealers.my_assignment(None, later) is None
    # Olga's shift ended while she waited in the pool, and the hall was not pushed since: no next move
    olga = make_user("olga", "dealer")
    dealers.add_shift(hall, olga, now - timedelta(hours=8), now - timedelta(minutes=5), actor=actor)
    place(hall, olga, "POOL", None, now - timedelta(hours=1))
    assert dealers.my_assignment(olga, later)["next"] is None
    # his login lands on the table he deals, on its event's page
    client.force_login(luca)
    assert client.get("/dealer/")["Location"] == f"/tournaments/{side.pk}/dealer/?table=3"


@pytest.mark.django_db
def test_the_push_list_names_each_move_tables_first_in_order(hall, crew, make_tournament, make_person, actor):
    start(make_tournament, make_person, actor, 27, name="Main Event")  # the hall's tables 1, 2 and 3
    now = timezone.now()
    anna, marco, luca, sara = crew
    assert dealers.preview(hall, now)["at"] == now  # never pushed: the push is due now
    dealers.push(hall, actor=actor, now=now)
    assert dealing(hall) == {1: anna.pk, 2: marco.pk, 3: luca.pk}
    assert dealers.preview(hall, now + timedelta(minutes=5)) == {
        "at": now + timedelta(minutes=30),
        "moves": [
            {"dealer": "Sara", "dealer_id": sara.pk, "from": None, "to": 1, "kind": "DEAL"},
            {"dealer": "Anna", "dealer_id": anna.pk, "from": 1, "to": 2, "kind": "DEAL"},
            {"dealer": "Marco", "dealer_id": marco.pk, "from": 2, "to": 3, "kind": "DEAL"},
            {"dealer": "Luca", "dealer_id": luca.pk, "from": 3, "to": None, "kind": "POOL"},
        ],
        "uncovered": [],
    }
    # a push overdue is announced for now
    assert dealers.preview(hall, now + timedelta(minutes=45))["at"] == now + timedelta(minutes=45)


@pytest.mark.django_db
def test_the_push_list_counts_the_minutes_to_the_push_a_break_ending_before_it_and_one_running_past_it(hall, make_tournament, make_person, actor):
    """The room was pushed 25 minutes ago; the list is read 5 minutes before the next push. Eva
    has dealt table 1 for 115 minutes: 120 at the push, her break is due (the one spare dealer
    goes). Dan dealt table 3 and began his 20 minutes' break 17 minutes ago: over at the push, the
    freshest, he takes table 1 (one along from his last). Gil's break began a minute ago: 14 to
    go at the push, he stays on it. Ugo and Kim, 15 minutes dealt at the push, move along. Pia
    dealt table 4 (given back since) for 119 minutes, then waited in the pool: no break due."""
    start(make_tournament, make_person, actor, 27, name="Main Event")  # the hall's tables 1, 2 and 3
    now = timezone.now()
    eva, dan, gil, ugo, kim = (make_user(n, "dealer", first_name=n.title()) for n in ("eva", "dan", "gil", "ugo", "kim"))
    for u in (eva, dan, gil, ugo, kim):
        dealers.add_shift(hall, u, now - timedelta(minutes=115), now + timedelta(hours=6), actor=actor)
    hall.last_push_at = now - timedelta(minutes=25)
    hall.save(update_fields=["last_push_at"])
    place(hall, eva, "DEAL", 1, now - timedelta(minutes=115))
    place(hall, dan, "DEAL", 3, now - timedelta(minutes=115), now - timedelta(minutes=17))
    place(hall, dan, "BREAK", None, now - timedelta(minutes=17))
    place(hall, gil, "BREAK", None, now - timedelta(minutes=1))
    place(hall, ugo, "DEAL", 2, now - timedelta(minutes=10))
    place(hall, kim, "DEAL", 3, now - timedelta(minutes=10))
    pia = make_user("pia", "dealer", first_name="Pia")
    dealers.add_shift(hall, pia, now - timedelta(minutes=130), now + timedelta(hours=6), actor=actor)
    place(hall, pia, "DEAL", 4, now - timedelta(minutes=130), now - timedelta(minutes=11))
    place(hall, pia, "POOL", None, now - timedelta(minutes=11))
    plan = dealers.preview(hall, now)
    assert plan["at"] == now + timedelta(minutes=5)
    assert plan["moves"] == [
        {"dealer": "Dan", "dealer_id": dan.pk, "from": None, "to": 1, "kind": "DEAL"},
        {"dealer": "Kim", "dealer_id": kim.pk, "from": 3, "to": 2, "kind": "DEAL"},
        {"dealer": "Ugo", "dealer_id": ugo.pk, "from": 2, "to": 3, "kind": "DEAL"},
        {"dealer": "Eva", "dealer_id": eva.pk, "from": 1, "to": None, "kind": "BREAK"},
        {"dealer": "Gil", "dealer_id": gil.pk, "from": None, "to": None, "kind": "BREAK"},
        {"dealer": "Pia", "dealer_id": pia.pk, "from": None, "to": None, "kind": "POOL"},
    ]
    assert plan["uncovered"] == []


@pytest.mark.django_db
def test_the_rotation_reads_each_dealers_table_his_last_his_minutes_since_his_break_and_his_break_left(hall, actor):
    """Read at 230 minutes into the shift (S): Ivo dealt table 1 to S+60, rested to S+80, dealt
    table 2 to S+200 and waits in the pool (120 minutes since his break; a row of yesterday's
    shift, table 7 to S, is not his today). Fay dealt table 5 from before her shift to S+30
    (30 minutes count) and deals table 4 since (200). Dan dealt table 3 and began his 20
    minutes' break 5 minutes ago. Kai's shift began at S+10: he dealt table 7 before it, to S+10,
    then table 9 of the side room, and waits in the hall's pool: he has dealt nothing here."""
    now = timezone.now()
    shift = now - timedelta(minutes=230)
    ivo, fay, dan, kai = (make_user(n, "dealer") for n in ("ivo", "fay", "dan", "kai"))
    for u in (ivo, fay, dan):
        dealers.add_shift(hall, u, shift, shift + timedelta(hours=8), actor=actor)
    dealers.add_shift(hall, kai, shift + timedelta(minutes=10), shift + timedelta(hours=8), actor=actor)
    at = lambda m: shift + timedelta(minutes=m)  # noqa: E731
    place(hall, ivo, "DEAL", 2, at(80), at(200))  # written before the earlier rows: the history is read by time
    place(hall, ivo, "DEAL", 7, at(-60), at(0))
    place(hall, ivo, "DEAL", 1, at(0), at(60))
    place(hall, ivo, "BREAK", None, at(60), at(80))
    place(hall, ivo, "POOL", None, at(200))
    place(hall, fay, "DEAL", 5, at(-30), at(30))
    place(hall, fay, "DEAL", 4, at(30))
    place(hall, dan, "DEAL", 3, at(100), now - timedelta(minutes=5))
    place(hall, dan, "BREAK", None, now - timedelta(minutes=5))
    place(hall, kai, "DEAL", 7, at(-50), at(10))
    place(cardrooms.save_room("Sala laterale", actor=actor), kai, "DEAL", 9, at(10), at(40))  # another room's
    place(hall, kai, "POOL", None, at(40))
    read = {d.id: d for d in dealers.states(hall, now, dealers.on_shift(hall.pk, now))}
    assert read == {
        ivo.pk: DealerState(ivo.pk, None, 2, 120, 0),
        fay.pk: DealerState(fay.pk, 4, 4, 230, 0),
        dan.pk: DealerState(dan.pk, None, 3, 0, 15),
        kai.pk: DealerState(kai.pk, None, None, 0, 0),
    }


def history(room):
    """Every row of the room's dealers: who, where, from when to when, at which push."""
    return {(a.dealer.username, a.kind, a.table, a.starts_at, a.ends_at, a.push) for a in DealerAssignment.objects.filter(room=room).select_related("dealer")}


@pytest.mark.django_db
def test_a_table_that_opens_takes_the_longest_waiting_dealer_who_did_not_deal_it_last_and_one_that_breaks_sends_its_dealer_to_the_pool(hall, crew, actor):
    """In the pool: Anna for 70 minutes (she dealt table 4, in the side room table 5 after it, and
    the hall's 5 before), Luca for 60 (table 7), Marco for 40 (table 6). Tables 5, 7, 4 and 8 open:
    Anna takes 5; 7 goes to Marco, Luca dealt it last; Luca takes 4; 8 waits, nobody is left.
    Then 5 and 6 break."""
    anna, marco, luca, sara = crew
    now = timezone.now()
    ago = lambda m: now - timedelta(minutes=m)  # noqa: E731
    side = cardrooms.save_room("Sala laterale", actor=actor)
    # written out of order: the pool's order is the time each began waiting, a table dealt last is the latest
    place(hall, luca, "POOL", None, ago(60))
    place(hall, luca, "DEAL", 7, ago(100), ago(60))
    place(hall, anna, "DEAL", 4, ago(90), ago(80))
    place(hall, anna, "DEAL", 5, ago(150), ago(120))
    place(side, anna, "DEAL", 5, ago(78), ago(72))
    place(hall, anna, "POOL", None, ago(70))
    place(hall, marco, "DEAL", 6, ago(80), ago(40))
    place(hall, marco, "POOL", None, ago(40))
    place(hall, sara, "DEAL", 6, ago(30))
    place(side, make_user("zoe", "dealer"), "DEAL", 5, ago(30))  # table 5 of the side room
    place(side, make_user("ugo", "dealer"), "POOL", None, ago(200))  # the side room's pool
    before, side_before = history(hall), history(side)

    dealers.table_opened(hall.pk, [5, 7, 4, 8], now=now)

    opened = {
        ("anna", "POOL", None, ago(70), now, 0),
        ("luca", "POOL", None, ago(60), now, 0),
        ("marco", "POOL", None, ago(40), now, 0),
        ("anna", "DEAL", 5, now, None, 0),
        ("marco", "DEAL", 7, now, None, 0),
        ("luca", "DEAL", 4, now, None, 0),
    }
    waiting = {("anna", "POOL", None, ago(70), None, 0), ("luca", "POOL", None, ago(60), None, 0), ("marco", "POOL", None, ago(40), None, 0)}
    assert history(hall) == (before - waiting) | opened

    later = now + timedelta(minutes=10)
    dealers.table_closed(hall.pk, [5, 6], now=later)
    closed = {
        ("anna", "DEAL", 5, now, later, 0),
        ("sara", "DEAL", 6, ago(30), later, 0),
        ("anna", "POOL", None, later, None, 0),
        ("sara", "POOL", None, later, None, 0),
    }
    dealt_then = {("anna", "DEAL", 5, now, None, 0), ("sara", "DEAL", 6, ago(30), None, 0)}
    assert history(hall) == (((before - waiting) | opened) - dealt_then) | closed
    assert history(side) == side_before  # Zoe deals on, Ugo waits on


@pytest.mark.django_db
def test_a_table_that_opens_when_the_only_dealer_waiting_dealt_it_last_takes_him_and_nothing_without_a_pool(hall, crew, actor):
    luca = crew[2]
    now = timezone.now()
    place(hall, luca, "DEAL", 3, now - timedelta(minutes=60), now - timedelta(minutes=30))
    place(hall, luca, "POOL", None, now - timedelta(minutes=30))
    dealers.table_opened(hall.pk, [3], now=now)
    assert dealing(hall) == {3: luca.pk}
    dealers.table_opened(hall.pk, [4], now=now)  # nobody waits: table 4 has no dealer yet
    assert dealing(hall) == {3: luca.pk}


@pytest.mark.django_db
def test_a_push_closes_each_moved_dealers_row_opens_his_new_one_and_logs_the_moves(hall, crew, make_tournament, make_person, actor):
    """Tables 1 and 2 in play. Gil is on his break (10 minutes to go: at the first push he stays on
    it, his row untouched; at the second he waits in the pool); Olga's shift ended while she waited
    in the pool (she leaves the room); Zoe waits in the side room's pool, on its roster, not the
    hall's (her row stays open); Ada's shift begins in two hours; Anna dealt in the side room
    yesterday (that row stays as it was)."""
    start(make_tournament, make_person, actor, 18, name="Main Event")
    now = timezone.now()
    anna, marco, luca, sara = crew
    gil, olga, zoe, ada = (make_user(n, "dealer", first_name=n.title()) for n in ("gil", "olga", "zoe", "ada"))
    dealers.add_shift(hall, ada, now + timedelta(hours=2), now + timedelta(hours=10), actor=actor)
    dealers.add_shift(hall, gil, now - timedelta(hours=3), now + timedelta(hours=3), actor=actor)
    dealers.add_shift(hall, olga, now - timedelta(hours=8), now - timedelta(minutes=5), actor=actor)
    place(hall, gil, "BREAK", None, now - timedelta(minutes=10))
    place(hall, olga, "POOL", None, now - timedelta(hours=1))
    side = cardrooms.save_room("Sala laterale", actor=actor)
    dealers.add_shift(side, zoe, now - timedelta(hours=2), now + timedelta(hours=6), actor=actor)
    place(side, zoe, "POOL", None, now - timedelta(hours=1))
    yesterday = place(side, anna, "DEAL", 1, now - timedelta(hours=20), now - timedelta(hours=19))

    dealers.push(hall, actor=actor, now=now)
    then = now + timedelta(minutes=30)
    dealers.push(hall, actor=actor, now=then)

    assert history(hall) == {
        ("gil", "BREAK", None, now - timedelta(minutes=10), then, 0),
        ("gil", "POOL", None, then, None, 2),
        ("olga", "POOL", None, now - timedelta(hours=1), now, 0),
        ("anna", "DEAL", 1, now, then, 1),
        ("marco", "DEAL", 2, now, then, 1),
        ("luca", "POOL", None, now, then, 1),
        ("sara", "POOL", None, now, then, 1),
        ("luca", "DEAL", 1, then, None, 2),
        ("sara", "DEAL", 2, then, None, 2),
        ("anna", "POOL", None, then, None, 2),
        ("marco", "POOL", None, then, None, 2),
    }
    assert DealerAssignment.objects.filter(room=side, dealer=zoe, ends_at__isnull=True).count() == 1
    yesterday.refresh_from_db()
    assert yesterday.ends_at == now - timedelta(hours=19)
    hall.refresh_from_db()
    assert (hall.pushes, hall.last_push_at) == (2, then)
    logged = TournamentEvent.objects.filter(action="room.dealers.pushed").order_by("id").last().payload
    assert logged["push"] == 2 and logged["moves"] == 5 and logged["uncovered"] == []
    assert sorted(logged["changes"], key=lambda c: c["dealer"]) == [
        {"dealer": "Anna", "from": 1, "to": None, "kind": "POOL"},
        {"dealer": "Gil", "from": None, "to": None, "kind": "POOL"},
        {"dealer": "Luca", "from": None, "to": 1, "kind": "DEAL"},
        {"dealer": "Marco", "from": 2, "to": None, "kind": "POOL"},
        {"dealer": "Sara", "from": None, "to": 2, "kind": "DEAL"},
    ]


@pytest.mark.django_db
def test_clk05_a_push_in_the_last_90_seconds_of_a_level_leaves_that_events_dealers_where_they_are(hall, crew, make_tournament, make_person, actor):
    """The main event's 20-minute level began at T0; the side event's clock is paused with a
    minute to go (nothing is about to change there); the event of the side room changes level
    when the main event does (its table is not the hall's)."""
    main = start(make_tournament, make_person, actor, 18, name="Main Event")  # tables 1 and 2
    side = start(make_tournament, make_person, actor, 9, name="Side Event")  # table 3
    room = cardrooms.save_room("Sala laterale", actor=actor)
    cardrooms.save_table(room, 9, seats=9, position=1, actor=actor)
    other = start(make_tournament, make_person, actor, 9, name="Turbo", settings={"room": room.pk})  # its table 9
    t0 = timezone.now()
    for t in (main, other):
        clock_services.start_clock(t, actor=actor, now=t0)
    clock_services.start_clock(side, actor=actor, now=t0 - timedelta(seconds=1140))
    clock_services.pause(side, actor=actor, reason="dealer change", now=t0)
    anna, marco, luca, sara = crew
    dealers.push(hall, actor=actor, now=t0)
    assert dealing(hall) == {1: anna.pk, 2: marco.pk, 3: luca.pk}
    assert dealers.held_tables(hall.pk, t0 + timedelta(seconds=1109)) == set()
    assert dealers.held_tables(hall.pk, t0 + timedelta(seconds=1110)) == {1, 2}
    # pushes every 19 minutes: the next one, at T0 + 1140 s, falls in the last minute of the level
    dealers.save_rotation(hall, actor=actor, push_minutes=19, break_after=120, break_minutes=20)
    assert dealers.preview(hall, t0 + timedelta(minutes=10))["moves"] == [
        {"dealer": "Anna", "dealer_id": anna.pk, "from": 1, "to": 1, "kind": "DEAL"},
        {"dealer": "Marco", "dealer_id": marco.pk, "from": 2, "to": 2, "kind": "DEAL"},
        {"dealer": "Sara", "dealer_id": sara.pk, "from": None, "to": 3, "kind": "DEAL"},
        {"dealer": "Luca", "dealer_id": luca.pk, "from": 3, "to": None, "kind": "POOL"},
    ]
    dealers.push(hall, actor=actor, now=t0 + timedelta(seconds=1110))
    assert dealing(hall) == {1: anna.pk, 2: marco.pk, 3: sara.pk}  # table 3 is not held: Sara comes from the pool


@pytest.mark.django_db
def test_a_push_follows_the_houses_order_of_tables_and_with_nobody_on_the_roster_leaves_them_uncovered(hall, make_tournament, make_person, actor):
    RoomTable.objects.filter(room=hall, number=2).update(position=0)  # the house deals table 2 first
    start(make_tournament, make_person, actor, 18, name="Main Event")
    assert sorted(RoomTable.objects.filter(room=hall, held_by__isnull=False).values_list("number", flat=True)) == [1, 2]
    plan = dealers.push(hall, actor=actor)
    assert plan.uncovered == [2, 1] and plan.assignments == []
    now = timezone.now()
    anna, marco = (make_user(n, "dealer") for n in ("anna", "marco"))
    for u in (anna, marco):
        dealers.add_shift(hall, u, now - timedelta(hours=1), now + timedelta(hours=7), actor=actor)
    dealers.push(hall, actor=actor, now=now)
    assert dealing(hall) == {2: anna.pk, 1: marco.pk}


@pytest.mark.django_db
def test_the_roster_on_the_api_says_where_each_dealer_is_now(api, floor_user, hall, crew, make_tournament, make_person, actor):
    start(make_tournament, make_person, actor, 18, name="Main Event")  # tables 1 and 2
    now = timezone.now()
    first, second = now - timedelta(minutes=31), now - timedelta(minutes=1)
    dealers.push(hall, actor=actor, now=first)  # Anna at 1, Marco at 2, Luca and Sara in the pool
    dealers.push(hall, actor=actor, now=second)  # the freshest deal: Luca and Sara, one table along
    place(hall, crew[0], "DEAL", 5, first - timedelta(minutes=60), first - timedelta(minutes=30))  # written late: an earlier row
    ivo = make_user("ivo", "dealer", first_name="Ivo")  # on the hall's roster, still in the side room's pool
    dealers.add_shift(hall, ivo, now - timedelta(minutes=5), now + timedelta(hours=7), actor=actor)
    place(cardrooms.save_room("Sala laterale", actor=actor), ivo, "POOL", None, now - timedelta(hours=1))
    r = api(floor_user).get(f"/api/v1/rooms/{hall.pk}/dealers/")
    assert r.status_code == 200
    assert {x["name"]: x["now"] for x in r.json()["roster"]} == {
        "Anna": {"kind": "POOL", "table": None, "since": second.isoformat()},
        "Marco": {"kind": "POOL", "table": None, "since": second.isoformat()},
        "Luca": {"kind": "DEAL", "table": 1, "since": second.isoformat()},
        "Sara": {"kind": "DEAL", "table": 2, "since": second.isoformat()},
        "Ivo": None,
    }


@pytest.mark.django_db
def test_tables_the_house_places_side_by_side_are_dealt_in_their_numbers_order(hall, crew, make_tournament, make_person, actor):
    RoomTable.objects.filter(room=hall, number=1).delete()
    cardrooms.save_table(hall, 1, seats=9, position=2, actor=actor)  # set up again, beside table 2
    start(make_tournament, make_person, actor, 18, name="Main Event")
    assert dealers.tables_in_play(hall.pk) == [1, 2]
    anna, marco, _, _ = crew
    dealers.push(hall, actor=actor)
    assert dealing(hall) == {1: anna.pk, 2: marco.pk}


@pytest.mark.django_db
def test_role01_a_dealer_taken_off_the_roster_names_his_table_as_before(hall, crew, make_tournament, make_person, actor):
    t = start(make_tournament, make_person, actor, 18, name="Main Event")
    dealers.push(hall, actor=actor, now=timezone.now() - timedelta(minutes=1))
    anna = crew[0]
    assert dealing(hall)[1] == anna.pk
    dealers.remove_shift(hall, DealerShift.objects.get(dealer=anna).pk, actor=actor)  # gone home early
    assert dealers.my_assignment(anna) is None
    seating.hand_completed(t, 2, actor=Actor(anna, "dealer tablet"))  # not on the roster now: any table


@pytest.mark.django_db
def test_role01_a_dealer_is_judged_by_his_own_rooms_table_where_two_rooms_number_alike(hall, crew, make_tournament, make_person, actor, client):
    """The hall's table 1 plays the main event, the side room's table 1 the turbo. Anna deals the
    hall's, Ivo the side room's: each reports from his own table 1 (at once or queued), his page
    lands on his own event, and Ivo may not report the main event's table 1."""
    now = timezone.now()
    with time_machine.travel(now - timedelta(minutes=50)):
        main = start(make_tournament, make_person, actor, 9, name="Main Event")  # the hall's table 1
        side = cardrooms.save_room("Sala laterale", actor=actor)
        for n in (1, 2):
            cardrooms.save_table(side, n, seats=9, position=n, actor=actor)
        turbo = start(make_tournament, make_person, actor, 8, name="Turbo", settings={"room": side.pk})  # the side room's table 1
    assert dict(RoomTable.objects.filter(held_by__isnull=False).values_list("room_id", "held_by_id")) == {hall.pk: main.pk, side.pk: turbo.pk}
    anna = crew[0]
    ivo = make_user("ivo", "dealer", first_name="Ivo")
    dealers.add_shift(side, ivo, now - timedelta(hours=1), now + timedelta(hours=7), actor=actor)
    place(hall, anna, "DEAL", 1, now - timedelta(minutes=30))
    place(side, ivo, "DEAL", 1, now - timedelta(minutes=30))
    tapped = now - timedelta(minutes=10)

    def bust(t, user, when=None):
        entry = Entry.objects.filter(tournament=t, seat__table__number=1, status=Entry.ACTIVE).first()
        seating.record_bust(t, [entry.pk], table=1, actor=Actor(user, "dealer tablet", tapped_at=when))
        return Entry.objects.get(pk=entry.pk).status

    assert bust(turbo, ivo, tapped) == Entry.BUSTED  # queued on his tablet
    assert bust(main, anna, tapped) == Entry.BUSTED
    assert bust(turbo, ivo) == Entry.BUSTED  # at once
    assert bust(main, anna) == Entry.BUSTED
    said = []
    for when in (tapped, None):
        with pytest.raises(DomainError) as refused:
            bust(main, ivo, when)
        assert refused.value.code == "not_your_table"
        said.append(str(refused.value.message))
    at = timezone.localtime(tapped).strftime("%H:%M")
    assert said == [
        f"When this was tapped ({at}) you dealt table 1 of Sala laterale, not this room's: ask the floor.",
        "You deal table 1 of Sala laterale: report from there.",
    ]
    assert Entry.objects.filter(tournament=main, status=Entry.BUSTED).count() == 2
    client.force_login(ivo)
    assert client.get("/dealer/")["Location"] == f"/tournaments/{turbo.pk}/dealer/?table=1"
    client.force_login(anna)
    assert client.get("/dealer/")["Location"] == f"/tournaments/{main.pk}/dealer/?table=1"


def ada_deals_bea_waits(hall, actor, now, *, ada_since, bea_dealt, bea_back):
    """Ada deals table 1 since ``ada_since`` minutes ago; Bea dealt table 2 from ``bea_dealt``
    minutes ago until ``bea_back`` minutes ago (the table given back) and waits in the pool."""
    ada, bea = (make_user(n, "dealer", first_name=n.title()) for n in ("ada", "bea"))
    dealers.add_shift(hall, ada, now - timedelta(minutes=ada_since), now + timedelta(hours=7), actor=actor)
    dealers.add_shift(hall, bea, now - timedelta(minutes=bea_dealt), now + timedelta(hours=5), actor=actor)
    place(hall, ada, "DEAL", 1, now - timedelta(minutes=ada_since))
    place(hall, bea, "DEAL", 2, now - timedelta(minutes=bea_dealt), now - timedelta(minutes=bea_back))
    place(hall, bea, "POOL", None, now - timedelta(minutes=bea_back))
    return ada, bea


@pytest.mark.django_db
def test_clk05_a_dealer_due_his_break_deals_one_push_more_within_the_houses_push_interval(hall, make_tournament, make_person, actor):
    """Pushes every hour, a break after 120 minutes dealt; only table 1 plays. Ada has dealt it
    for 30 minutes. Bea dealt table 2 (given back since) for 160 minutes and waits in the pool:
    her break is due, but 160 is less than 120 + 60, so she deals table 1 one push more rather
    than Ada dealing it twice in a row; Ada waits in the pool (30 minutes: no break due)."""
    start(make_tournament, make_person, actor, 9, name="Main Event")  # the hall's table 1
    dealers.save_rotation(hall, actor=actor, push_minutes=60, break_after=120, break_minutes=20)
    now = timezone.now()
    ada, bea = ada_deals_bea_waits(hall, actor, now, ada_since=30, bea_dealt=170, bea_back=10)
    dealers.push(hall, actor=actor, now=now)
    assert dealing(hall) == {1: bea.pk}
    assert DealerAssignment.objects.get(room=hall, dealer=ada, ends_at__isnull=True).kind == "POOL"
    assert not DealerAssignment.objects.filter(room=hall, kind="BREAK").exists()


@pytest.mark.django_db
def test_clk05_the_push_list_sends_on_her_break_a_dealer_past_the_houses_push_interval(hall, make_tournament, make_person, actor):
    """Pushes every 20 minutes, a break after 120; the last push was 15 minutes ago, the list is
    read 5 minutes before the next. Only table 1 plays: Ada has dealt it since the last push. Bea
    dealt table 2 (given back since) for 145 minutes and waits in the pool: 145 is not less than
    120 + 20, so she goes on her break and Ada, the one dealer left, deals table 1 again."""
    start(make_tournament, make_person, actor, 9, name="Main Event")  # the hall's table 1
    dealers.save_rotation(hall, actor=actor, push_minutes=20, break_after=120, break_minutes=20)
    now = timezone.now()
    hall.last_push_at = now - timedelta(minutes=15)
    hall.save(update_fields=["last_push_at"])
    ada, bea = ada_deals_bea_waits(hall, actor, now, ada_since=15, bea_dealt=160, bea_back=15)
    assert dealers.preview(hall, now) == {
        "at": now + timedelta(minutes=5),
        "moves": [
            {"dealer": "Ada", "dealer_id": ada.pk, "from": 1, "to": 1, "kind": "DEAL"},
            {"dealer": "Bea", "dealer_id": bea.pk, "from": None, "to": None, "kind": "BREAK"},
        ],
        "uncovered": [],
    }


@pytest.mark.django_db
def test_clk05_the_push_list_counts_whole_minutes_so_a_tie_goes_as_the_push_will(hall, make_tournament, make_person, actor):
    """Pushes every 30 minutes; the last was 25 and a half minutes ago, so the list is read 4
    and a half minutes before the next. Tables 1 and 2 play. Ada deals table 1 since 10 minutes
    ago (14 whole minutes at the push), Cy deals table 2 since 5 (9), Bo dealt table 3 (given back
    since) for 14 minutes and waits in the pool. The two freshest deal: Cy, then Ada and Bo tie
    on 14 and Ada (on the roster first) deals; each moves one table along, Bo waits. The push
    does what the list said."""
    start(make_tournament, make_person, actor, 18, name="Main Event")  # the hall's tables 1 and 2
    now = timezone.now()
    hall.last_push_at = now - timedelta(minutes=25, seconds=30)
    hall.save(update_fields=["last_push_at"])
    ada, bo, cy = (make_user(n, "dealer", first_name=n.title()) for n in ("ada", "bo", "cy"))
    assert ada.pk < bo.pk
    for u in (ada, bo, cy):
        dealers.add_shift(hall, u, now - timedelta(minutes=40), now + timedelta(hours=7), actor=actor)
    place(hall, ada, "DEAL", 1, now - timedelta(minutes=10))
    place(hall, bo, "DEAL", 3, now - timedelta(minutes=40), now - timedelta(minutes=26))
    place(hall, bo, "POOL", None, now - timedelta(minutes=26))
    place(hall, cy, "DEAL", 2, now - timedelta(minutes=5))
    at = now + timedelta(minutes=4, seconds=30)
    assert dealers.preview(hall, now) == {
        "at": at,
        "moves": [
            {"dealer": "Cy", "dealer_id": cy.pk, "from": 2, "to": 1, "kind": "DEAL"},
            {"dealer": "Ada", "dealer_id": ada.pk, "from": 1, "to": 2, "kind": "DEAL"},
            {"dealer": "Bo", "dealer_id": bo.pk, "from": None, "to": None, "kind": "POOL"},
        ],
        "uncovered": [],
    }
    dealers.push(hall, actor=actor, now=at)
    assert dealing(hall) == {1: cy.pk, 2: ada.pk}
