"""SEAT-02 (004): registrants drawn in advance into sessions (evenings, Day 1A / 1B) and tables,
evenly and at random, logged as the other draws; each player's phone page shows the schedule
and the staff print or export the list (CSV cells never start a formula)."""

import csv
import io
import random
import re
from collections import Counter

import pytest
from django.test import Client

from seating.predraw import predraw, seat_as_predrawn
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Tournament
from tournaments.setup import lifecycle


def test_seat02_the_draw_fills_the_sessions_evenly_and_seats_everyone_once():
    players = list(range(1, 20))  # 19 registrants, 9-max tables, two sessions
    out, order = predraw(players, ["1A", "1B"], capacity=9, rng=random.Random(7))
    assert sorted(a.player for a in out) == players and sorted(order) == players
    sizes = Counter(a.session for a in out)
    assert sizes == {"1A": 10, "1B": 9}  # 19 over 2: 10 and 9, the first session one more
    tables = Counter((a.session, a.table) for a in out)
    assert tables == {("1A", 1): 5, ("1A", 2): 5, ("1B", 1): 9}  # as few tables as needed, filled evenly
    assert len({(a.session, a.table, a.seat) for a in out}) == 19 and all(1 <= a.seat <= 9 for a in out)
    # The first session takes the 1st, 3rd, 5th … players of the shuffle: the shuffle alone decides.
    assert {a.player for a in out if a.session == "1A"} == set(order[0::2])
    other, _ = predraw(players, ["1A", "1B"], capacity=9, rng=random.Random(8))
    assert {(a.player, a.session, a.table, a.seat) for a in other} != {(a.player, a.session, a.table, a.seat) for a in out}


def test_seat02_the_start_keeps_the_drawn_seats_and_draws_the_rest_into_free_ones():
    # Told in advance: 1-4 at table 1 (seats 1, 3, 5, 9), 5-7 at table 2, 11-13 at table 3; 9-max
    # then, 8-max now.
    told = {1: (1, 1), 2: (1, 3), 3: (1, 5), 4: (1, 9), 5: (2, 1), 6: (2, 4), 7: (2, 7), 11: (3, 4), 12: (3, 5), 13: (3, 6)}
    # 7 (not paid yet), 12 and 13 (refunded) are not here; 8-10 registered since.
    players = [1, 2, 3, 4, 5, 6, 8, 9, 10, 11]
    out = seat_as_predrawn(
        players,
        told,
        capacity=8,  # seat 9 is gone: player 4 is drawn again
        rng=random.Random(3),
        reserved={5: (1, 3), 9: (2, 2)},  # by hand: 5 at table 1 seat 3 (2's drawn seat), 9 at table 2 seat 2
        held={(2, 7)},  # 7 may still come: that seat is the last to be given
    )
    assert sorted(out.kept) == [(1, 1, 1), (3, 1, 5), (6, 2, 4)]
    assert sorted(out.reserved) == [(5, 1, 3), (9, 2, 2)]
    # 10 players need two 8-max tables: table 3, with one of its players left, does not open.
    assert sorted(out.not_kept) == [(2, "seat_given_by_hand"), (4, "no_such_seat"), (11, "table_not_needed")]
    seats = {p: (t.number, s) for t in out.tables for s, p in t.seats.items()}
    assert sorted(seats) == sorted(players) and len(set(seats.values())) == 10
    assert {p for p, _t, _s in out.assignments} == {2, 4, 8, 10, 11}
    assert sorted((t.number, len(t.seats)) for t in out.tables) == [(1, 5), (2, 5)]  # the free seats fill the short table first
    assert (2, 7) not in seats.values() and all(s <= 8 for _t, s in seats.values())


@pytest.fixture
def registered(make_tournament, make_person, cashier_actor):
    t = make_tournament()
    for i in range(11):
        cashier.register(t, make_person("Anna" if i else "=HYPERLINK(x)", f"Rossi{i}"), method="CASH", actor=cashier_actor)
    return t


@pytest.mark.django_db
def test_seat02_the_director_draws_by_the_api_and_it_is_logged(registered, api, director, floor_user, cashier_user):
    t = registered
    url = f"/api/v1/tournaments/{t.pk}/seating/predraw/"
    assert api(floor_user).post(url, {"sessions": ["1A", "1B"]}, format="json").status_code == 403
    r = api(director).post(url, {"sessions": ["1A", "1B"], "reason": "004: schedule sent to the registrants"}, format="json")
    assert r.status_code == 201, r.data
    assert len(r.data) == 11 and Counter(row["session"] for row in r.data) == {"1A": 6, "1B": 5}
    event = t.events.get(action="seating.predraw")
    assert event.payload["players"] == 11 and event.payload["rng"].startswith("secrets.SystemRandom")
    assert sorted(event.payload["order"]) == sorted(t.entries.values_list("pk", flat=True))
    assert api(cashier_user).get(url).data == r.data  # the desk reads it to tell a player
    # A registrant refunded since is no longer on the list.
    refunded = t.entries.order_by("number").first()
    cashier.refund(refunded, reason="cannot come", actor=Actor(director, "test"))
    assert len(api(director).get(url).data) == 10 and refunded.number not in [row["entry"] for row in api(director).get(url).data]
    bad = api(director).post(url, {"sessions": ["1A", "1A"]}, format="json")
    assert bad.status_code == 400 and "sessions" in bad.data["fields"]
    # Drawing again replaces the draw (one row per registrant).
    r = api(director).post(url, {"sessions": ["Mon", "Tue", "Wed"]}, format="json")
    assert Counter(row["session"] for row in r.data) == {"Mon": 4, "Tue": 3, "Wed": 3}  # the 10 registrants left


@pytest.mark.django_db
def test_seat02_the_player_sees_the_schedule_on_the_phone(registered, api, director):
    t = registered
    api(director).post(f"/api/v1/tournaments/{t.pk}/seating/predraw/", {"sessions": ["1A", "1B"]}, format="json")
    entry = t.entries.select_related("predraw_seat").order_by("number").last()
    mine = entry.predraw_seat
    state = Client().get(f"/p/{entry.phone_token}/state/").json()
    assert state["schedule"] == {"session": mine.session, "table": mine.table, "seat": mine.seat}
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/p/{entry.phone_token}/").content.decode()
    assert "Your schedule" in page and f'id="schedule-session">{mine.session}<' in page


@pytest.mark.django_db
def test_seat02_the_list_prints_and_exports_without_formulas(registered, client, director):
    t = registered
    client.force_login(director)
    r = client.post(f"/tournaments/{t.pk}/tables/predraw/", {"sessions": "1A, 1B", "reason": ""})
    assert r.status_code == 302
    page = client.get(f"/tournaments/{t.pk}/tables/predraw/").content.decode()
    assert page.count("<tr><td>1A</td>") == 6 and page.count("<tr><td>1B</td>") == 5
    exported = client.get(f"/tournaments/{t.pk}/tables/predraw/?format=csv")
    rows = list(csv.reader(io.StringIO(exported.content.decode())))
    assert len(rows) == 12 and rows[0][0] in ("Session", "Sessione")
    names = [row[4] for row in rows[1:]]
    assert "'=HYPERLINK(x) Rossi0" in names and not any(n.startswith("=") for n in names)


@pytest.mark.django_db
def test_seat02_once_the_tournament_runs_it_is_too_late(registered, api, director, actor):
    lifecycle.start(registered, actor=actor, prestart_report_sent=True)
    assert Tournament.objects.get(pk=registered.pk).status == Tournament.RUNNING
    r = api(director).post(f"/api/v1/tournaments/{registered.pk}/seating/predraw/", {"sessions": ["1A"]}, format="json")
    assert r.status_code == 409 and r.data["code"] == "predraw_too_late"


# --- the start after a draw in advance (issue 38: "Predraw x start") ------------------------


def seats_on_the_map(api, director, t) -> dict[int, tuple[int, int]]:
    """Entry number → (table, seat) as the floor's table map (the API) shows them."""
    tables = api(director).get(f"/api/v1/tournaments/{t.pk}/tables/").data["tables"]
    out = {}
    for table in tables:
        for seat in table["seats"]:
            if seat["entry"] is not None:
                assert seat["entry_number"] not in out  # nobody seated twice
                out[seat["entry_number"]] = (table["number"], seat["seat"])
    return out


def phone_page(entry) -> str:
    return Client(HTTP_ACCEPT_LANGUAGE="it").get(f"/p/{entry.phone_token}/").content.decode()


def shown_seat(page: str) -> tuple[int, int] | None:
    """The seat the phone page shows ("IL TUO POSTO"), None while its box is hidden."""
    if '<div id="seat-box">' not in page:
        return None
    table = re.search(r'id="seat-table">(\d+)<', page).group(1)
    seat = re.search(r'id="seat-seat">(\d+)<', page).group(1)
    return int(table), int(seat)


@pytest.mark.django_db
def test_seat02_the_start_seats_everyone_where_the_predraw_put_them_and_the_phone_shows_one_seat(registered, api, director, make_person, cashier_actor):
    t = registered  # 11 registrants, 9-max tables
    drawn = api(director).post(f"/api/v1/tournaments/{t.pk}/seating/predraw/", {"sessions": ["1A"]}, format="json").data
    told = {row["entry"]: (row["table"], row["seat"]) for row in drawn}  # the schedule each one was sent
    assert len(told) == 11
    # Before the start the phone shows the schedule and no seat.
    first = t.entries.get(number=drawn[0]["entry"])
    page = phone_page(first)
    assert "Il tuo programma" in page and shown_seat(page) is None
    # After the draw: one registrant refunded, two late registrations.
    refunded = t.entries.get(number=drawn[-1]["entry"])
    cashier.refund(refunded, reason="cannot come", actor=cashier_actor)
    late = [cashier.register(t, make_person("Late", f"Comer{i}"), method="CASH", actor=cashier_actor).entry for i in range(2)]

    r = api(director).post(f"/api/v1/tournaments/{t.pk}/start/", {}, format="json")
    assert r.status_code == 200, r.data

    seated = seats_on_the_map(api, director, t)
    assert {n: seated[n] for n in told if n != refunded.number} == {n: s for n, s in told.items() if n != refunded.number}
    assert refunded.number not in seated
    assert all(e.number in seated for e in late) and len(seated) == 12  # the late ones in free seats
    assert len({seated[e.number] for e in late} | {told[n] for n in told if n != refunded.number}) == 12
    # The phone: the seat of the draw in advance, once; the schedule is gone (nothing else to come).
    for entry in t.entries.exclude(pk=refunded.pk):
        page = phone_page(entry)
        assert shown_seat(page) == seated[entry.number]
        assert "Il tuo programma" not in page and 'id="schedule-' not in page
        state = Client().get(f"/p/{entry.phone_token}/state/").json()
        assert state["seat"] == {"table": seated[entry.number][0], "seat": seated[entry.number][1]} and state["schedule"] is None
    # The event log says where the seats came from.
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(director)
    log = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Seats as drawn in advance (session 1A): 10 players where that draw put them; drawn into the free seats: 2; tables: 2" in log
    history = client.get(f"/tournaments/{t.pk}/tables/draws/{first.pk}/").content.decode()
    table, seat = told[first.number]
    assert f"Seat drawn in advance for session 1A (the schedule sent to the player): table {table}, seat {seat}." in history


@pytest.mark.django_db
def test_seat02_a_later_session_makes_the_start_ask_the_director(registered, api, director):
    t = registered
    drawn = api(director).post(f"/api/v1/tournaments/{t.pk}/seating/predraw/", {"sessions": ["1A", "1B"]}, format="json").data
    told = {row["entry"]: (row["session"], row["table"], row["seat"]) for row in drawn}
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/start/", {}, format="json")
    assert r.status_code == 409 and r.data["code"] == "predraw_later_session", r.data
    assert "5 paid players were drawn in advance into a later session (1B)" in r.data["detail"]
    assert Tournament.objects.get(pk=t.pk).status == Tournament.REGISTERING and seats_on_the_map(api, director, t) == {}
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(director)
    assert "seat now, by the draw, the players drawn in advance into a session after 1A" in client.get(f"/tournaments/{t.pk}/").content.decode()

    r = api(director).post(f"/api/v1/tournaments/{t.pk}/start/", {"seat_later_sessions": True}, format="json")
    assert r.status_code == 200, r.data
    seated = seats_on_the_map(api, director, t)
    assert len(seated) == 11
    assert all(seated[n] == (tb, s) for n, (session, tb, s) in told.items() if session == "1A")
    for entry in t.entries.all():  # 1B's players too: one seat on the phone, no schedule beside it
        page = phone_page(entry)
        assert shown_seat(page) == seated[entry.number] and "Il tuo programma" not in page


@pytest.mark.django_db
def test_seat02_refunds_since_the_predraw_leave_a_table_unopened_and_its_players_drawn_again(registered, api, director, cashier_actor):
    t = registered  # 11 registrants: tables of 6 and 5 in advance
    drawn = api(director).post(f"/api/v1/tournaments/{t.pk}/seating/predraw/", {"sessions": ["1A"]}, format="json").data
    told = {row["entry"]: (row["table"], row["seat"]) for row in drawn}
    short = min({tb for tb, _s in told.values()}, key=lambda tb: sum(1 for x, _s in told.values() if x == tb))
    gone = [n for n, (tb, _s) in told.items() if tb == short][:2]
    for number in gone:
        cashier.refund(t.entries.get(number=number), reason="cannot come", actor=cashier_actor)
    assert api(director).post(f"/api/v1/tournaments/{t.pk}/start/", {}, format="json").status_code == 200
    seated = seats_on_the_map(api, director, t)
    assert len(seated) == 9 and {tb for tb, _s in seated.values()} == {1 if short == 2 else 2}  # 9 players: one 9-max table
    stayed = [n for n, (tb, _s) in told.items() if tb != short]
    assert {n: seated[n] for n in stayed} == {n: told[n] for n in stayed}
    assert api(director).get(f"/api/v1/tournaments/{t.pk}/tables/").data["moves"] == []  # nobody moves before a hand
    for entry in t.entries.exclude(number__in=gone):  # the ones drawn again: their new seat, alone
        page = phone_page(entry)
        assert shown_seat(page) == seated[entry.number] and "Il tuo programma" not in page


@pytest.mark.django_db
def test_seat02_every_phone_of_the_field_shows_its_own_schedule_then_its_seat_and_its_move(registered, api, director, actor):
    """The phones' index (every phone of the field read at once) and one phone's own state: before
    the start each registrant's schedule drawn in advance; once seated, each one's seat, and for a
    player with two moves proposed the first one, nobody else's."""
    from seating.models import PendingMove, Seat
    from tournaments.live.snapshot import build_snapshot
    from tournaments.phone.views import phone_index

    t = registered
    api(director).post(f"/api/v1/tournaments/{t.pk}/seating/predraw/", {"sessions": ["Friday"]}, format="json")
    told = {
        e.pk: {"session": e.predraw_seat.session, "table": e.predraw_seat.table, "seat": e.predraw_seat.seat} for e in t.entries.select_related("predraw_seat")
    }
    assert len(told) == 11

    def phones():
        _public, own = phone_index(t.pk, build_snapshot(t), {})
        return {pk: (o.part["seat"], o.part["move"], o.part["schedule"]) for pk, o in own.items()}

    assert phones() == {pk: (None, None, schedule) for pk, schedule in told.items()}

    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    seats = {e: {"table": n, "seat": s} for e, n, s in Seat.objects.filter(tournament=t).values_list("entry_id", "table__number", "number")}
    mover = min(seats)
    where = seats[mover]
    first = {"kind": PendingMove.BALANCE, "from_table": where["table"], "from_seat": where["seat"], "to_table": 7, "to_seat": 3}
    PendingMove.objects.create(tournament=t, entry_id=mover, status=PendingMove.PROPOSED, **first)
    PendingMove.objects.create(tournament=t, entry_id=mover, status=PendingMove.PROPOSED, **(first | {"kind": PendingMove.MANUAL, "to_seat": 4}))
    done = max(seats)  # a move already made is no move to make
    there = seats[done]
    made = {"kind": PendingMove.BALANCE, "from_table": 9, "from_seat": 1, "to_table": there["table"], "to_seat": there["seat"]}
    PendingMove.objects.create(tournament=t, entry_id=done, status=PendingMove.DONE, **made)
    expected = {pk: (seat, None, None) for pk, seat in seats.items()}
    expected[mover] = (where, first, None)
    assert phones() == expected
    token = t.entries.get(pk=mover).phone_token
    state = Client().get(f"/p/{token}/state/").json()
    assert (state["seat"], state["move"], state["schedule"]) == (where, first, None)
    state = Client().get(f"/p/{t.entries.get(pk=done).phone_token}/state/").json()
    assert (state["seat"], state["move"], state["schedule"]) == (there, None, None)


@pytest.mark.django_db
def test_seat02_the_tournament_page_links_the_sessions_drawn_in_advance_with_the_tables_and_the_lookup(registered, director):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(director)
    page = client.get(f"/tournaments/{registered.pk}/").content.decode()
    pk = registered.pk
    assert f'<a class="button" href="/tournaments/{pk}/tables/">Tables</a>' in page
    assert f'<a class="button" href="/seats/{pk}/">Seat lookup</a>' in page
    assert f'<a class="button" href="/tournaments/{pk}/tables/predraw/">Sessions drawn in advance</a>' in page


def page_refusal(client, t, sessions: str) -> str:
    """What the director reads after sending the sessions on the page: the refusal, else ""."""
    page = client.post(f"/tournaments/{t.pk}/tables/predraw/", {"sessions": sessions, "reason": ""}, follow=True).content.decode()
    found = re.search(r'class="[^"]*\berror\b[^"]*"[^>]*>\s*([^<]+?)\s*<', page)
    return found.group(1) if found else ""


@pytest.mark.django_db
def test_seat02_the_sessions_are_refused_in_words_on_the_page_until_each_has_its_own_short_name(registered, client, director):
    t = registered
    client.force_login(director)
    count = "Sessions: give from 1 to 20 session names."
    names = "Sessions: Each session needs its own name of 1 to 20 characters."
    assert page_refusal(client, t, " , ; ") == count  # nothing but separators: no session at all
    assert page_refusal(client, t, ", ".join(f"S{i}" for i in range(1, 22))) == count
    assert page_refusal(client, t, "1A, 1A") == names
    assert page_refusal(client, t, "1A, Thursday evening game") == names  # 21 characters
    assert page_refusal(client, t, "1A, Day 1\nB") == names  # a name is one line
    assert not t.events.filter(action="seating.predraw").exists()
    # the edges that pass: twenty sessions, a name of twenty characters (its spaces trimmed)
    assert page_refusal(client, t, ", ".join(f"S{i}" for i in range(1, 21))) == ""
    assert t.predraw_seats.values("session").distinct().count() == 11  # eleven registrants, one a session
    assert page_refusal(client, t, "  Thursday evening gam  , 1B") == ""
    assert set(t.predraw_seats.values_list("session", flat=True)) == {"Thursday evening gam", "1B"}


@pytest.mark.django_db
def test_seat02_the_api_names_the_sessions_field_when_two_share_a_name_or_one_breaks_a_line(registered, api, director):
    url = f"/api/v1/tournaments/{registered.pk}/seating/predraw/"
    for sessions in (["1A", "1A"], ["1A", " 1A "], ["Day 1\nB"]):
        r = api(director).post(url, {"sessions": sessions}, format="json")
        assert (r.status_code, r.json()) == (
            400,
            {
                "code": "invalid",
                "detail": "Sessions: Each session needs its own name of 1 to 20 characters.",
                "fields": {"sessions": ["Each session needs its own name of 1 to 20 characters."]},
            },
        ), sessions
    assert not registered.events.filter(action="seating.predraw").exists()


@pytest.mark.django_db
def test_seat02_a_start_as_drawn_in_advance_opens_ordinary_tables_and_is_logged_in_the_directors_name(registered, api, director):
    t = registered  # 11 registrants, 9-max tables: two tables
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/seating/predraw/", {"sessions": ["1A"]}, format="json")
    assert r.status_code in (200, 201), r.data
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/start/", {}, format="json")
    assert r.status_code == 200, r.data
    tables = api(director).get(f"/api/v1/tournaments/{t.pk}/tables/").data["tables"]
    # neither a final table nor a table let play on while short: two ordinary tables
    assert [(tb["number"], tb["is_final"], tb["halt_waived"]) for tb in tables] == [(1, False, False), (2, False, False)]
    rows = [row for row in api(director).get(f"/api/v1/tournaments/{t.pk}/events/").json() if row["action"] == "seating.draw.initial"]
    assert [(row["actor_label"], row["payload"]["predraw_session"]) for row in rows] == [(director.get_username(), "1A")]
    keys = ("players", "tables", "rng", "redraw", "reason", "banned_not_seated", "later_sessions", "apart")
    assert {k: rows[0]["payload"][k] for k in keys} == {
        "players": 11,
        "tables": 2,
        "rng": "secrets.SystemRandom (OS CSPRNG) seeds random.Random",
        "redraw": False,
        "reason": "",
        "banned_not_seated": [],
        "later_sessions": [],
        "apart": [],
    }
