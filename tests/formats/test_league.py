"""Leagues (issue "Bounties and leagues"): a season of tournaments scored by the director's
formula, best N results, ties, closing and archiving a season; the page, the lobby and the API."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import timezone

from seating import services as seating
from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.formats import selectors
from tournaments.formats.models import SeriesAward, SeriesCycle
from tournaments.formats.services import series as series_service
from tournaments.models import Entry, TournamentEvent
from tournaments.setup import lifecycle

from .conftest import bust_in_order

pytestmark = pytest.mark.django_db


@pytest.fixture
def four(make_person):
    return {name: make_person(first=name, last="Test") for name in "ABCD"}


def play(make_tournament, people, order, actor, cashier_actor, **kw):
    """A tournament the people in ``order`` finish 1st, 2nd, … (the last listed busts first)."""
    t = make_tournament(name=f"Event {''.join(order)}", **kw)
    entries = {name: cashier.register(t, people[name], method="CASH", actor=cashier_actor).entry for name in order}
    lifecycle.start(t, actor=actor)
    bust_in_order([entries[n] for n in reversed(order[1:])], start=timezone.now() - timedelta(hours=2))
    for place, name in enumerate(order, start=1):
        Entry.objects.filter(pk=entries[name].pk).update(place=place)
    lifecycle.finish(t, actor=actor)
    return t


def score(league, t, actor):
    series_service.attach(league, t, actor=actor)
    return series_service.score_tournament(t, actor=actor)


def test_a_linear_league_counts_the_best_two_results_and_shares_a_tie(make_tournament, four, actor, cashier_actor):
    """Linear, 4 players: 1st 4 points … 4th 1. A: 4, 1, 4 → best two 8; D: 1, 4, 3 → 7;
    B: 3, 2, 2 → 5 and C: 2, 3, 1 → 5, both with a best of 3: they share 3rd."""
    league = series_service.create_series(name="Thursday league", scoring="LINEAR", best_of=2, cycle_length=None, tickets_per_cycle=0, actor=actor)
    score(league, play(make_tournament, four, "ABCD", actor, cashier_actor), actor)
    score(league, play(make_tournament, four, "DCBA", actor, cashier_actor), actor)
    score(league, play(make_tournament, four, "ADBC", actor, cashier_actor), actor)
    data = selectors.leaderboard_data(league)
    table = [(line["rank"], line["name"].split()[0], line["points"], line["tournaments"]) for line in data["standings"]]
    assert table == [(1, "A", 8.0, 3), (2, "D", 7.0, 3), (3, "B", 5.0, 3), (3, "C", 5.0, 3)]
    assert data["tournaments_left"] is None  # the director closes the season
    assert data["series"]["formula"] == "entries − place + 1 · best 2 results count"


def test_the_square_root_formula_with_the_buy_in_scores_a_bigger_event_higher(make_tournament, four, actor, cashier_actor):
    """10 · √(4/1) · (1 + log₁₀(100.25)) = 20 · 3.001084 = 60.02 for the €100 winner;
    with a €10 buy-in: 20 · (1 + log₁₀ 10.25) = 40.21."""
    league = series_service.create_series(name="Weighted", scoring="SQRT_BUYIN", actor=actor)
    big = {r.person.first_name: round(r.points, 2) for r in score(league, play(make_tournament, four, "ABCD", actor, cashier_actor), actor)}
    small = {
        r.person.first_name: round(r.points, 2) for r in score(league, play(make_tournament, four, "BACD", actor, cashier_actor, buy_in=Decimal("10")), actor)
    }
    assert big["A"] == 60.02
    assert small["B"] == 40.21


def test_a_points_table_league_and_its_participation_points(make_tournament, four, actor, cashier_actor):
    league = series_service.create_series(
        name="Table", scoring="TABLE", points_table=[Decimal(25), Decimal(15), Decimal(10)], participation_points=Decimal(2), actor=actor
    )
    points = {r.person.first_name: r.points for r in score(league, play(make_tournament, four, "CABD", actor, cashier_actor), actor)}
    assert points == {"C": 25.0, "A": 15.0, "B": 10.0, "D": 2.0}


def test_closing_a_season_archives_it_and_starts_the_next_from_zero(make_tournament, four, actor, cashier_actor):
    league = series_service.create_series(name="Season", scoring="LINEAR", cycle_length=None, tickets_per_cycle=0, actor=actor)
    with pytest.raises(DomainError) as err:
        series_service.close_season(league, actor=actor)
    assert err.value.code == "season_empty"
    score(league, play(make_tournament, four, "BACD", actor, cashier_actor), actor)
    archive = series_service.close_season(league, actor=actor)
    assert archive.number == 1
    assert [(line["rank"], line["name"].split()[0], line["total"]) for line in archive.standings] == [
        (1, "B", 4.0),
        (2, "A", 3.0),
        (3, "C", 2.0),
        (4, "D", 1.0),
    ]
    league.refresh_from_db()
    assert league.current_cycle == 2
    data = selectors.leaderboard_data(league)
    assert data["standings"] == []
    assert data["past_cycles"][0]["champions"] == ["B Test"]
    score(league, play(make_tournament, four, "DABC", actor, cashier_actor), actor)
    assert [line["name"].split()[0] for line in selectors.leaderboard_data(league)["standings"]][:1] == ["D"]
    assert SeriesCycle.objects.filter(series=league).count() == 1


@pytest.mark.parametrize(
    "given, code, field",
    [
        ({"scoring": "CUBE"}, "bad_setting", "scoring"),
        ({"scoring": "TABLE"}, "bad_setting", "points_table"),
        ({"scoring": "SQRT", "multiplier": Decimal(0)}, "bad_setting", "points_table"),
        ({"scoring": "SANREMO", "cycle_length": None}, "bad_setting", "cycle_length"),
    ],
)
def test_a_league_the_rules_cannot_score_is_refused_with_the_field_named(given, code, field, actor):
    with pytest.raises(DomainError) as err:
        series_service.create_series(name="Bad", actor=actor, **given)
    assert (err.value.code, err.value.extra.get("field")) == (code, field)


def test_the_api_creates_a_league_closes_its_season_and_refuses_bad_numbers(api, director, cashier_user, make_tournament, four, actor, cashier_actor):
    d = api(director)
    r = d.post(
        "/api/v1/formats/series/",
        {
            "name": "API league",
            "scoring": "TABLE",
            "points_table": ["30", "20", "10.5"],
            "participation_points": "1",
            "best_of": 5,
            "cycle_length": None,
            "tickets_per_cycle": 0,
        },
        format="json",
    )
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["series"]["scoring"] == "TABLE" and body["series"]["points_table"] == ["30.00", "20.00", "10.50"]
    sid = body["series"]["id"]
    t = play(make_tournament, four, "ABCD", actor, cashier_actor)
    assert d.post(f"/api/v1/formats/series/{sid}/attach/", {"tournament": t.pk}, format="json").status_code == 200
    assert d.post(f"/api/v1/formats/series/{sid}/score/", {"tournament": t.pk}, format="json").status_code == 200
    assert [line["points"] for line in d.get(f"/api/v1/formats/series/{sid}/").json()["standings"]] == [30.0, 20.0, 10.5, 1.0]
    assert api(cashier_user).post(f"/api/v1/formats/series/{sid}/close-season/", {}, format="json").status_code == 403
    r = d.post(f"/api/v1/formats/series/{sid}/close-season/", {}, format="json")
    assert r.status_code == 200 and r.json()["cycle"] == 2 and r.json()["standings"] == []
    for bad in ({"points_table": ["x"]}, {"points_table": "30 20"}, {"multiplier": "-1"}, {"best_of": 0}, {"multiplier": "1e9"}):
        r = d.post("/api/v1/formats/series/", {"name": "Bad", "scoring": "TABLE", "points_table": ["1"], **bad}, format="json")
        assert r.status_code == 400, (bad, r.content)
        assert r.json()["code"] in ("bad_field", "bad_setting")


def test_the_page_creates_a_league_from_a_typed_points_table_and_shows_its_formula(director, actor):
    c = Client()
    c.force_login(director)
    r = c.post(
        "/formats/series/new/",
        {
            "name": "Page league",
            "scoring": "TABLE",
            "points_table": "100 72,5 50",
            "multiplier": "10",
            "participation_points": "0",
            "cycle_length": "",
            "lb_constant_mode": "A",
            "participants": "ENTRIES",
            "shared_rule": "AVERAGE_PLACE",
            "tie_break": "BEST_RESULT",
            "tickets_per_cycle": "0",
            "ticket_description": "none",
            "ticket_value": "0",
        },
    )
    assert r.status_code == 302, r.content.decode()[:2000]
    page = c.get(r["Location"]).content.decode()
    assert "points by place: 100, 72.5, 50" in page
    assert "Close the season" in page
    r = c.post(
        "/formats/series/new/",
        {
            "name": "Bad",
            "scoring": "TABLE",
            "points_table": "100 lots",
            "multiplier": "10",
            "participation_points": "0",
            "lb_constant_mode": "A",
            "participants": "ENTRIES",
            "shared_rule": "AVERAGE_PLACE",
            "tie_break": "BEST_RESULT",
            "tickets_per_cycle": "0",
            "ticket_description": "none",
            "ticket_value": "0",
        },
    )
    assert r.status_code == 200 and "“lots” is not a number of points" in r.content.decode()


def test_the_lobby_leaderboard_is_served_from_the_cache_until_points_change(
    make_tournament, four, actor, cashier_actor, django_assert_num_queries, django_capture_on_commit_callbacks
):
    league = series_service.create_series(name="Lobby league", scoring="LINEAR", actor=actor)
    score(league, play(make_tournament, four, "ABCD", actor, cashier_actor), actor)
    anon = Client()
    first = anon.get(f"/formats/series/{league.pk}/leaderboard/?format=json").json()
    assert [line["points"] for line in first["standings"]] == [4.0, 3.0, 2.0, 1.0]
    with django_assert_num_queries(0):
        again = anon.get(f"/formats/series/{league.pk}/leaderboard/?format=json").json()
    assert again == first
    t = play(make_tournament, four, "DCBA", actor, cashier_actor)
    with django_capture_on_commit_callbacks(execute=True):  # the version moves once the points are committed
        score(league, t, actor)
    after = anon.get(f"/formats/series/{league.pk}/leaderboard/?format=json").json()
    assert [line["points"] for line in after["standings"]] == [5.0, 5.0, 5.0, 5.0]
    page = anon.get(f"/formats/series/{league.pk}/leaderboard/").content.decode()
    assert "entries − place + 1" in page
    assert anon.get("/formats/series/999999/leaderboard/").status_code == 404


def test_a_league_tournament_shows_the_standings_on_its_lobby_screens_phones_and_the_players_history(make_tournament, four, actor, cashier_actor, director):
    """After one scored event (linear: A 4, B 3, C 2, D 1), the next event of the league shows the
    top of the standings on its lobby screens, each player's own standing on his phone, and the
    director's history page of A lists the first event with its place and points."""
    from tournaments.live.snapshot import build_snapshot
    from tournaments.phone.views import phone_index, phone_state

    league = series_service.create_series(name="Tuesday league", scoring="LINEAR", cycle_length=None, actor=actor)
    first = play(make_tournament, four, "ABCD", actor, cashier_actor)
    score(league, first, actor)
    nxt = make_tournament(name="Next week")
    series_service.attach(league, nxt, actor=actor)
    entries = {name: cashier.register(nxt, four[name], method="CASH", actor=cashier_actor).entry for name in "CD"}

    snap = build_snapshot(nxt)
    assert snap["league"]["name"] == "Tuesday league" and snap["league"]["season"] == 1
    assert [(line["rank"], line["name"], line["points"]) for line in snap["league"]["top"]] == [
        (1, "A T.", 4.0),  # as every public page names players (issue #39 item 12c)
        (2, "B T.", 3.0),
        (3, "C T.", 2.0),
        (4, "D T.", 1.0),
    ]
    assert phone_state(entries["C"].pk, snap)["league"] == {"name": "Tuesday league", "season": 1, "rank": 3, "points": 2.0, "players": 4}
    _public, own = phone_index(nxt.pk, snap, {})
    assert own[entries["D"].pk].part["league"]["rank"] == 4
    assert "league" not in _public  # the phones' shared part carries no standings: each phone has its own line

    c = Client()
    c.force_login(director)
    page = c.get(f"/people/{four['A'].pk}/").content.decode()
    history = page.split('id="history"', 1)[1].split("</section>", 1)[0]
    assert first.name in history and "Tuesday league</a>: 4.00" in history
    assert 'class="prize">€400.00 (owed)' in history  # 4 × €100, the one place paid for four entries, not collected yet


def test_the_knockouts_of_a_bounty_event_score_the_leagues_knockout_points(make_tournament, make_person, actor, cashier_actor, director):
    """A fixed €20 bounty event of five, scored by a points table 10 / 6 / 3, 1 for playing beyond
    it, and 2 points per knockout. C out to D is recorded by mistake and undone: it counts for
    nobody. Then E out to A; D out in a split pot to B and C (one knockout each); C out to A;
    B out to A, who wins.

        A: 1st 10 + 3 knockouts × 2 = 16      B: 2nd 6 + 1 × 2 = 8      C: 3rd 3 + 1 × 2 = 5
        D: 4th 1 (playing)                    E: 5th 1
    A's bounty money: 20 for E, C and B each and his own 20 = 80.00."""
    people = {name: make_person(first=name, last="Knock") for name in "ABCDE"}
    league = series_service.create_series(
        name="Bounty league",
        scoring="TABLE",
        points_table=[Decimal(10), Decimal(6), Decimal(3)],
        participation_points=Decimal(1),
        knockout_points=Decimal(2),
        cycle_length=None,
        tickets_per_cycle=0,
        actor=actor,
    )
    t = make_tournament(name="Bounty night", settings={"bounty": "FIXED", "bounty_amount": "20"})
    e = {name: cashier.register(t, people[name], method="CASH", actor=cashier_actor).entry for name in "ABCDE"}
    lifecycle.start(t, actor=actor, prestart_report_sent=True)

    def out(name, *by):
        return seating.record_bust(t, [{"entry": e[name].pk, "eliminators": [e[x].pk for x in by]}], actor=actor)

    mistake = out("C", "D")
    seating.undo_bust(t, mistake.busts[0], actor=actor, reason="wrong player")
    out("E", "A")
    out("D", "B", "C")
    out("C", "A")
    out("B", "A")
    lifecycle.finish(t, actor=actor)
    results = {r.person.first_name: (r.place, r.knockouts, r.points) for r in score(league, t, actor)}
    assert results == {"A": (1, 3, 16.0), "B": (2, 1, 8.0), "C": (3, 1, 5.0), "D": (4, 0, 1.0), "E": (5, 0, 1.0)}

    data = selectors.leaderboard_data(league)
    assert [(line["name"], line["points"], line["knockouts"]) for line in data["standings"]][:3] == [
        ("A Knock", 16.0, 3),
        ("B Knock", 8.0, 1),
        ("C Knock", 5.0, 1),
    ]
    assert data["series"]["formula"] == "points by place: 10, 6, 3 + 1 for playing + 2 per knockout in bounty events"
    c = Client()
    c.force_login(director)
    page = c.get(f"/formats/series/{league.pk}/").content.decode()
    assert "<th>Knockouts</th>" in page and '<td class="knockouts">3</td>' in page
    history = c.get(f"/people/{people['A'].pk}/").content.decode().split('id="history"', 1)[1].split("</section>", 1)[0]
    assert "Bounty league</a>: 16.00" in history
    assert '€80.00 <span class="muted">(3 knockouts)</span>' in history


def test_the_api_and_the_page_set_a_leagues_knockout_points(api, director):
    r = api(director).post("/api/v1/formats/series/", {"name": "KO league", "scoring": "LINEAR", "knockout_points": "1.5"}, format="json")
    assert r.status_code == 201 and r.json()["series"]["knockout_points"] == "1.50"
    assert r.json()["series"]["formula"] == "entries − place + 1 + 1.50 per knockout in bounty events"
    assert api(director).post("/api/v1/formats/series/", {"name": "Bad", "scoring": "LINEAR", "knockout_points": "-1"}, format="json").status_code == 400
    c = Client()
    c.force_login(director)
    form = {
        "name": "KO page league",
        "scoring": "LINEAR",
        "multiplier": "10",
        "participation_points": "0",
        "knockout_points": "3",
        "lb_constant_mode": "A",
        "participants": "ENTRIES",
        "shared_rule": "AVERAGE_PLACE",
        "tie_break": "BEST_RESULT",
        "tickets_per_cycle": "0",
        "ticket_description": "none",
        "ticket_value": "0",
    }
    r = c.post("/formats/series/new/", form)
    assert r.status_code == 302 and "+ 3 per knockout in bounty events" in c.get(r["Location"]).content.decode()


def test_an_erased_player_leaves_the_public_leaderboard_at_once_and_a_closed_seasons_champions(
    make_tournament, four, actor, cashier_actor, django_capture_on_commit_callbacks
):
    """Found by the simulated days (issue 38; issue 40 item 3): after an erasure the public
    leaderboard, served from its cache, kept the player's name for up to five minutes, and a
    closed season's champion kept his full name for good (read from the season's archive)."""
    from payouts import services as payouts
    from tests.conftest import make_user
    from tournaments.eventlog.services import Actor
    from tournaments.people import privacy

    league = series_service.create_series(name="Friday league", scoring="LINEAR", cycle_length=None, tickets_per_cycle=0, actor=actor)
    t = play(make_tournament, four, "ABCD", actor, cashier_actor)
    score(league, t, actor)
    anon = Client()
    url = f"/formats/series/{league.pk}/leaderboard/?format=json"
    assert "D T." in anon.get(url).content.decode()  # the lobby has read it: it is in the cache

    with django_capture_on_commit_callbacks(execute=True):
        privacy.erase_person(four["D"], "asked to be forgotten", actor=actor)
    standings = anon.get(url).json()["standings"]
    assert [line["name"] for line in standings] == ["A T.", "B T.", "C T.", f"Erased player #{four['D'].pk}"]

    with django_capture_on_commit_callbacks(execute=True):
        series_service.close_season(league, actor=actor)
    assert anon.get(url).json()["past_cycles"][0]["champions"] == ["A T."]
    payouts.lock_payout_table(t, actor=actor)
    payouts.sign_off_ranking(t, actor=actor)
    payouts.sign_off_ranking(t, actor=Actor(make_user("carlo", "controller")))
    payouts.pay_prize(t.entries.get(person=four["A"]), method="CASH", actor=cashier_actor)  # nothing open: he may be erased
    with django_capture_on_commit_callbacks(execute=True):
        privacy.erase_person(four["A"], "asked to be forgotten", actor=actor)
    for page in (url, f"{url}&cycle=1", f"/formats/series/{league.pk}/leaderboard/?cycle=1"):
        assert "A T." not in anon.get(page).content.decode()
    assert anon.get(url).json()["past_cycles"][0]["champions"] == [f"Erased player #{four['A'].pk}"]
    assert "A Test" not in str(SeriesCycle.objects.get(series=league).standings)  # nor kept in the archive


def test_the_public_leaderboard_names_players_as_every_public_page_does(make_tournament, make_person, director, actor, cashier_actor):
    """Issue #39 item 12: the lobby's leaderboard page showed full names while the screens, the
    seat lookup and the phones show "Mario R."; a player hidden from the lookup read in full.
    Issue #40 item 4: two who would read alike were then named in full, and the JSON carried each
    line's person id (an opted-out player's too), which links a player across seasons: they are
    told apart by their rank, as other public lists tell them apart by the entry number. The
    staff's series page keeps full names."""
    from tournaments.live.snapshot import build_snapshot

    people = {
        "A": make_person(first="Mario", last="Rossi"),
        "B": make_person(first="Luca", last="Bianchi"),
        "C": make_person(first="Luca", last="Bruni"),  # "Luca B." twice: told apart by the rank
        "D": make_person(first="Anna", last="Verdi", hide_from_lookup=True),
    }
    league = series_service.create_series(name="Monday league", scoring="LINEAR", cycle_length=None, tickets_per_cycle=0, actor=actor)
    score(league, play(make_tournament, people, "ABCD", actor, cashier_actor), actor)
    anon = Client()
    answer = anon.get(f"/formats/series/{league.pk}/leaderboard/?format=json")
    standings = answer.json()["standings"]
    assert [(line["rank"], line["name"]) for line in standings] == [(1, "Mario R."), (2, "Luca B. #2"), (3, "Luca B. #3"), (4, "—")]
    assert [sorted(line) for line in standings] == [["best", "knockouts", "name", "points", "rank", "tournaments"]] * 4  # no person id
    page = anon.get(f"/formats/series/{league.pk}/leaderboard/").content.decode()
    assert "Luca B. #2" in page and "Luca B. #3" in page
    for shown in (answer.content.decode(), page):
        assert not [last for last in ("Rossi", "Bianchi", "Bruni", "Verdi") if last in shown]
    nxt = make_tournament(name="Next Monday")  # the league's box on the next event's lobby screens, alike
    series_service.attach(league, nxt, actor=actor)
    assert [line["name"] for line in build_snapshot(nxt)["league"]["top"]] == ["Mario R.", "Luca B. #2", "Luca B. #3", "—"]
    staff = Client()
    staff.force_login(director)
    staff_page = staff.get(f"/formats/series/{league.pk}/").content.decode()
    assert "Mario Rossi" in staff_page and "Luca Bianchi" in staff_page

    series_service.close_season(league, actor=actor)  # the archived season's champion, in the same style
    champions = anon.get(f"/formats/series/{league.pk}/leaderboard/?format=json").json()["past_cycles"][0]["champions"]
    assert champions == ["Mario R."]


def test_the_league_form_and_leaderboard_write_the_default_ticket_in_the_readers_language(director, actor):
    # Issue #39: the Italian league form offered "€500+50 IPT/EPT ticket (personal, non-transferable)".
    c = Client()
    c.force_login(director)
    c.cookies["django_language"] = "it"
    form = c.get("/formats/series/new/").content.decode()
    assert 'value="Ticket IPT/EPT da 500+50 € (personale, non cedibile)"' in form and "non-transferable" not in form
    series = series_service.create_series(name="Sanremo leaderboard", actor=actor)  # the stored default, in English
    board = c.get(f"/formats/series/{series.pk}/leaderboard/").content.decode()
    assert "Ticket IPT/EPT da 500+50 € (personale, non cedibile)" in board and "non-transferable" not in board


def test_a_shared_place_scores_the_average_or_the_best_place_as_the_league_says(make_tournament, make_person, actor, cashier_actor):
    """Linear, 4 entries: 1st 4 points … 4th 1. B and C out in the same hand share 2nd-3rd:
    averaged they score place 2.5, 2.5 points each; under BEST_PLACE place 2, 3 points each."""
    people = {name: make_person(first=name, last="Tie") for name in "ABCD"}
    averaged = series_service.create_series(name="Averaged", scoring="LINEAR", cycle_length=None, tickets_per_cycle=0, actor=actor)
    best = series_service.create_series(name="Best", scoring="LINEAR", shared_rule="BEST_PLACE", cycle_length=None, tickets_per_cycle=0, actor=actor)
    points = {}
    for league in (averaged, best):
        t = play(make_tournament, people, "ABCD", actor, cashier_actor)
        Entry.objects.filter(tournament=t, person=people["C"]).update(place=2)
        points[league.name] = {r.person.first_name: (r.place, r.points) for r in score(league, t, actor)}
    assert points["Averaged"] == {"A": (1, 4.0), "B": (2, 2.5), "C": (2, 2.5), "D": (4, 1.0)}
    assert points["Best"] == {"A": (1, 4.0), "B": (2, 3.0), "C": (2, 3.0), "D": (4, 1.0)}


def test_a_buy_in_weighted_league_refuses_to_score_a_freeroll(api, director, make_tournament, four, actor, cashier_actor):
    league = series_service.create_series(name="Weighted", scoring="SQRT_BUYIN", actor=actor)
    t = play(make_tournament, four, "ABCD", actor, cashier_actor, buy_in=Decimal("0"), fee=Decimal("0"))
    series_service.attach(league, t, actor=actor)
    r = api(director).post(f"/api/v1/formats/series/{league.pk}/score/", {"tournament": t.pk}, format="json")
    assert (r.status_code, r.json()["code"], r.json()["detail"]) == (409, "needs_buy_in", "This formula weighs the buy-in, and this tournament has none.")


@pytest.mark.parametrize(
    "given, field, detail",
    [
        ({"scoring": "TABLE"}, "points_table", "A points table needs the points of at least the 1st place."),
        ({"scoring": "SQRT", "multiplier": Decimal(0)}, "points_table", "Points and the multiplier must be positive numbers."),
        ({"scoring": "LINEAR", "best_of": 0}, "best_of", "Count at least one result per player."),
    ],
)
def test_a_league_the_rules_cannot_score_says_why_in_words(given, field, detail, actor):
    with pytest.raises(DomainError) as err:
        series_service.create_series(name="Bad", cycle_length=None, actor=actor, **given)
    assert (err.value.code, err.value.extra.get("field"), str(err.value)) == ("bad_setting", field, detail)


def test_a_tie_for_the_last_ticket_stays_with_the_director_when_the_league_breaks_no_ties(make_tournament, make_person, actor, cashier_actor):
    """Table 10 / 6 / 4, two tickets, no tie-break. Event 1: X, Z, Y; event 2: Z, Y, W.
    Z 6 + 10 = 16 takes the 1st ticket; X 10 (one event, best 10) and Y 4 + 6 = 10 (two
    events, best 6) tie for the 2nd: a best-result tie-break would give it to X, this league
    leaves it to the director. The season's closing is logged with the names."""
    people = {name: make_person(first=name, last="League") for name in "XYZW"}
    league = series_service.create_series(
        name="No tie-break",
        scoring="TABLE",
        points_table=[Decimal(10), Decimal(6), Decimal(4)],
        cycle_length=2,
        tickets_per_cycle=2,
        tie_break="NONE",
        actor=actor,
    )
    score(league, play(make_tournament, people, "XZY", actor, cashier_actor), actor)
    score(league, play(make_tournament, people, "ZYW", actor, cashier_actor), actor)
    archive = SeriesCycle.objects.get(series=league, number=1)
    assert archive.tickets_undecided == 1 and sorted(archive.undecided) == sorted([people["X"].pk, people["Y"].pk])
    assert [a.person.first_name for a in SeriesAward.objects.filter(series=league)] == ["Z"]
    closed = TournamentEvent.objects.get(action="formats.series.cycle_closed")
    assert closed.actor == actor.user
    assert {**closed.payload, "undecided": sorted(closed.payload["undecided"])} == {
        "series": league.pk,
        "cycle": 1,
        "winners": ["Z League"],
        "undecided": ["X League", "Y League"],
    }


def test_scoring_an_event_tells_the_screens_of_the_leagues_tournaments_still_to_play_only(
    make_tournament, four, actor, cashier_actor, monkeypatch, django_capture_on_commit_callbacks
):
    """The league's next event (open for registration) shows the standings on its screens and
    phones: it is told to build again when an event is scored. A finished event of the league and
    another league's next event are not."""
    from tdmanager import realtime

    league = series_service.create_series(name="Monday league", scoring="LINEAR", cycle_length=None, actor=actor)
    other = series_service.create_series(name="Other league", scoring="LINEAR", cycle_length=None, actor=actor)
    nxt, elsewhere = make_tournament(name="Next Monday"), make_tournament(name="Other next")
    series_service.attach(league, nxt, actor=actor)
    series_service.attach(other, elsewhere, actor=actor)
    heard = []
    monkeypatch.setattr(realtime.changes, "_local_listeners", [heard.append])
    first = play(make_tournament, four, "ABCD", actor, cashier_actor)
    with django_capture_on_commit_callbacks(execute=True):
        score(league, first, actor)
    told = [m["tournament"] for m in heard if m["action"] == "formats.series.standings"]
    assert told == [nxt.pk]


def test_erasing_a_player_renames_only_his_own_line_of_a_closed_seasons_archive(
    make_tournament, four, actor, cashier_actor, django_capture_on_commit_callbacks
):
    from tournaments.people import privacy

    league = series_service.create_series(name="Spring league", scoring="LINEAR", cycle_length=None, tickets_per_cycle=0, actor=actor)
    score(league, play(make_tournament, four, "ABCD", actor, cashier_actor), actor)
    with django_capture_on_commit_callbacks(execute=True):
        series_service.close_season(league, actor=actor)
    with django_capture_on_commit_callbacks(execute=True):
        privacy.erase_person(four["D"], "asked to be forgotten", actor=actor)
    names = [line["name"] for line in SeriesCycle.objects.get(series=league).standings]
    assert names[:3] == ["A Test", "B Test", "C Test"] and names[3] != "D Test"
    assert Client().get(f"/formats/series/{league.pk}/leaderboard/?format=json").json()["past_cycles"][0]["champions"] == ["A T."]


def test_lb01_the_next_events_screens_show_the_leagues_top_ten_in_its_own_name_style_and_each_phone_its_line(
    make_tournament, make_person, actor, cashier_actor, director
):
    """Eleven players score 10.125, 9, 8 … 1 and 0.5 (a points table). The league's next event
    names players in full on its public pages: its lobby screens show the top ten so, with the
    league's formula and the eleven in the standings; a later event of the league, and so the
    league's own page, keep "first name and initial". Each phone shows its player's own line; an
    event of no league shows none. A league rounds each result to the cent, half up, as it scores it."""
    from tournaments.live.snapshot import build_snapshot
    from tournaments.phone.views import phone_state

    order = "ABCDEFGHIJK"
    people = {name: make_person(first=name, last="Rossi") for name in order}
    table = [Decimal("10.125"), *(Decimal(n) for n in range(9, 0, -1)), Decimal("0.5")]
    league = series_service.create_series(name="Tuesday league", scoring="TABLE", points_table=table, cycle_length=None, tickets_per_cycle=0, actor=actor)
    first = play(make_tournament, people, order, actor, cashier_actor)
    score(league, first, actor)
    later = make_tournament(name="The week after", start_at=timezone.now() + timedelta(days=7))
    nxt = make_tournament(name="Next week", settings={"seat_lookup_names": "FULL"})
    for t in (later, nxt):
        series_service.attach(league, t, actor=actor)
    b, k = (cashier.register(nxt, people[name], method="CASH", actor=cashier_actor).entry for name in "BK")

    snap = build_snapshot(nxt)
    points = [10.13, 9.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0]
    assert snap["league"] == {
        "id": league.pk,
        "name": "Tuesday league",
        "season": 1,
        "formula": "points by place: 10.125, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0.5",
        "top": [{"rank": rank, "name": f"{name} Rossi", "points": p} for rank, name, p in zip(range(1, 11), order, points, strict=False)],
        "players": 11,
    }
    assert [line["name"] for line in build_snapshot(later)["league"]["top"][:2]] == ["A R.", "B R."]
    assert phone_state(b.pk, snap)["league"] == {"name": "Tuesday league", "season": 1, "rank": 2, "points": 9.0, "players": 11}
    assert phone_state(k.pk, snap)["league"] == {"name": "Tuesday league", "season": 1, "rank": 11, "points": 0.5, "players": 11}
    alone = make_tournament(name="No league")
    mine = cashier.register(alone, people["A"], method="CASH", actor=cashier_actor).entry
    assert "league" not in build_snapshot(alone) and "league" not in phone_state(mine.pk)

    c = Client()
    c.force_login(director)
    history = c.get(f"/people/{people['A'].pk}/").content.decode().split('id="history"', 1)[1].split("</section>", 1)[0]
    assert f'<a href="/formats/series/{league.pk}/">Tuesday league</a>: 10.13' in history


def test_lb03_a_closed_season_is_read_apart_from_the_one_under_way_with_its_winners_and_champion(api, director, make_tournament, four, actor, cashier_actor):
    """A league of two-event seasons with two tickets: A 4 + 4, B 3 + 3, C 2 + 1, D 1 + 2 (C and
    D share 3rd on their best result too). The season closes by itself after its second event: A
    and B win the tickets, A is its champion. The next season has played one event (D C B A)
    with one more attached, not yet played. The director reads the season under way and the
    closed one apart; another league's closed season lends neither its winners nor its events."""
    league = series_service.create_series(
        name="Autumn league", scoring="LINEAR", cycle_length=2, tickets_per_cycle=2, ticket_description="a €110 seat", actor=actor
    )
    other = series_service.create_series(name="Other league", scoring="LINEAR", cycle_length=None, tickets_per_cycle=2, actor=actor)
    score(other, play(make_tournament, four, "DCBA", actor, cashier_actor), actor)
    series_service.close_season(other, actor=actor)
    for order in ("ABCD", "ABDC", "DCBA"):
        score(league, play(make_tournament, four, order, actor, cashier_actor), actor)
    series_service.attach(league, make_tournament(name="Still to play"), actor=actor)
    closed = SeriesCycle.objects.get(series=league, number=1)

    d = api(director)
    now = d.get(f"/api/v1/formats/series/{league.pk}/").json()
    assert now["series"] == {
        "id": league.pk,
        "name": "Autumn league",
        "cycle_length": 2,
        "reading": "A",
        "participants": "ENTRIES",
        "tickets": 2,
        "ticket": "a €110 seat",
        "scoring": "LINEAR",
        "league": True,
        "formula": "entries − place + 1",
        "multiplier": "10.00",
        "points_table": [],
        "participation_points": "0.00",
        "knockout_points": "0.00",
        "best_of": None,
        "tie_break": "BEST_RESULT",
    }
    assert (now["cycle"], now["archived"], now["tournaments_played"], now["tournaments_left"], now["past_events"]) == (2, False, 1, 1, 0)
    assert [(line["rank"], line["name"], line["points"], line["knockouts"]) for line in now["standings"]] == [
        (1, "D Test", 4.0, 0),
        (2, "C Test", 3.0, 0),
        (3, "B Test", 2.0, 0),
        (4, "A Test", 1.0, 0),
    ]
    assert now["past_cycles"] == [
        {"number": 1, "closed_at": closed.closed_at.isoformat(), "undecided": 0, "winners": ["A Test", "B Test"], "champions": ["A Test"]}
    ]
    before = d.get(f"/api/v1/formats/series/{league.pk}/?cycle=1").json()
    assert (before["cycle"], before["archived"], before["tournaments_played"], before["tournaments_left"]) == (1, True, 2, 0)
    assert [(line["rank"], line["name"], line["points"], line["tournaments"], line["best"]) for line in before["standings"]] == [
        (1, "A Test", 8.0, 2, 4.0),
        (2, "B Test", 6.0, 2, 3.0),
        (3, "D Test", 3.0, 2, 2.0),
        (3, "C Test", 3.0, 2, 2.0),
    ]


def test_lb01_the_lobby_reads_each_season_of_a_league_in_the_style_of_its_latest_event(make_tournament, four, actor, cashier_actor):
    """A league of one-event seasons: A B C D win season 1, D C B A season 2; season 3 has not
    started. Its latest event (attached first, played last of all) names players in full: so does
    the lobby's leaderboard, for each season asked (each served from its own cache). A league with
    no event yet names them as the house does and shows no one."""
    league = series_service.create_series(name="Weekly league", scoring="LINEAR", cycle_length=1, tickets_per_cycle=0, actor=actor)
    latest = make_tournament(name="Season finale", start_at=timezone.now() + timedelta(days=7), settings={"seat_lookup_names": "FULL"})
    series_service.attach(league, latest, actor=actor)
    for order, days in (("ABCD", 2), ("DCBA", 1)):
        score(league, play(make_tournament, four, order, actor, cashier_actor, start_at=timezone.now() - timedelta(days=days)), actor)
    anon = Client()
    url = f"/formats/series/{league.pk}/leaderboard/?format=json"
    seasons = {cycle: anon.get(url + (f"&cycle={cycle}" if cycle else "")).json() for cycle in (None, 1, 2)}
    assert (seasons[None]["cycle"], seasons[None]["standings"]) == (3, [])
    assert [(line["rank"], line["name"]) for line in seasons[1]["standings"]] == [(1, "A Test"), (2, "B Test"), (3, "C Test"), (4, "D Test")]
    assert [(line["rank"], line["name"]) for line in seasons[2]["standings"]] == [(1, "D Test"), (2, "C Test"), (3, "B Test"), (4, "A Test")]
    assert (seasons[1]["cycle"], seasons[2]["cycle"]) == (1, 2)
    empty = series_service.create_series(name="New league", scoring="LINEAR", actor=actor)
    shown = selectors.public_leaderboard(empty.pk)
    assert (shown["series"]["name"], shown["standings"], shown["tournaments_played"]) == ("New league", [], 0)


@pytest.mark.parametrize(
    ("scoring", "formula"),
    [("SQRT", "12.5 × √(entries ÷ place)"), ("SQRT_BUYIN", "12.5 × √(entries ÷ place) × (1 + log₁₀(buy-in + 0.25))")],
)
def test_lb01_a_square_root_league_prints_its_formula_with_its_multiplier(scoring, formula, actor):
    league = series_service.create_series(name="Root league", scoring=scoring, multiplier=Decimal("12.5"), actor=actor)
    assert selectors.leaderboard_data(league)["series"]["formula"] == formula
