"""Daily tournaments and leaderboard series (FMT-10, LB-01..03, scenario 39)."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from payouts import leaderboard
from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.formats import engine, selectors
from tournaments.formats.models import SeriesAward, SeriesCycle, SeriesResult
from tournaments.formats.services import series as series_service
from tournaments.models import Entry, Tournament
from tournaments.setup import lifecycle

from .conftest import bust_in_order

pytestmark = pytest.mark.django_db


def play_to_the_end(t, entries, actor, winner_last=True):
    """Start, bust everybody but the last entry in order (seating's bust slips), and finish
    with places by bust order (the last one out is 2nd)."""
    lifecycle.start(t, actor=actor)
    bust_in_order(entries[:-1], start=timezone.now() - timedelta(hours=3))
    n = len(entries)
    for i, e in enumerate(entries):
        Entry.objects.filter(pk=e.pk).update(place=n - i)  # the places the bust slips give
    lifecycle.finish(t, actor=actor)


@pytest.fixture
def series(actor):
    return series_service.create_series(name="Sanremo dailies 2010", actor=actor)


def test_scenario_39_points_of_a_40_player_daily(series, make_tournament, field, actor):
    t = make_tournament(name="Monday daily", buy_in=Decimal("50"), fee=Decimal("20"))
    series_service.attach(series, t, actor=actor)
    entries = field(t, 40)
    play_to_the_end(t, entries, actor)
    results = series_service.score_tournament(t, actor=actor)
    points = {r.place: round(r.points, 2) for r in results}
    assert (points[1], points[2], points[4], points[40]) == (189.81, 134.21, 94.90, 30.01)
    assert all(r.participants == 40 for r in results)
    with pytest.raises(DomainError) as e:
        series_service.score_tournament(t, actor=actor)
    assert e.value.code == "already_scored"


def test_scenario_39_reading_b_and_the_same_order(make_tournament, field, actor):
    b = series_service.create_series(name="Reading B", lb_constant_mode="B", actor=actor)
    t = make_tournament(name="Thursday daily")
    series_service.attach(b, t, actor=actor)
    play_to_the_end(t, field(t, 40), actor)
    points = {r.place: round(r.points, 2) for r in series_service.score_tournament(t, actor=actor)}
    assert (points[1], points[40]) == (153.73, 24.31)


def test_re_entries_count_as_participants_and_a_player_scores_once(series, make_tournament, field, make_person, actor, cashier_actor):
    t = make_tournament(max_entries_per_player=2, format=Tournament.REENTRY)
    series_service.attach(series, t, actor=actor)
    p = make_person()
    first = cashier.register(t, p, method="CASH", actor=cashier_actor).entry
    others = field(t, 3)
    lifecycle.start(t, actor=actor)
    bust_in_order([first])
    again = cashier.reenter(t, p, method="CASH", actor=cashier_actor).entry
    order = [first, others[0], others[1], again, others[2]]  # 5 entries; p's best place is 2
    bust_in_order(order[1:-1], start=timezone.now())
    for place, e in zip(range(5, 0, -1), order):
        Entry.objects.filter(pk=e.pk).update(place=place)
    lifecycle.finish(t, actor=actor)
    results = series_service.score_tournament(t, actor=actor)
    mine = [r for r in results if r.person_id == p.pk]
    assert len(results) == 4 and len(mine) == 1 and mine[0].place == 2 and mine[0].participants == 5
    assert mine[0].points == pytest.approx(leaderboard.leaderboard_points(5, 2))


def test_a_cycle_of_20_awards_four_tickets_archives_and_resets(series, make_tournament, field, actor):
    first_day = date(2010, 3, 1)  # the initiative starts on Monday 1 March 2010
    day, played = first_day, 0
    regulars = None
    while played < 20:
        price = engine.daily_price(day.weekday())
        if price is None:
            with pytest.raises(DomainError):
                series_service.schedule_daily(series, day, structure=make_tournament().structure, starting_stack=10000, actor=actor)
            day += timedelta(days=1)
            continue
        t = series_service.schedule_daily(series, day, structure=make_tournament().structure, starting_stack=10000, actor=actor)
        assert (t.buy_in, t.fee) == price and t.status == Tournament.REGISTERING
        if regulars is None:
            entries = field(t, 6)
            regulars = [e.person for e in entries]
        else:
            entries = [cashier.register(t, p, method="CASH", actor=actor).entry for p in regulars]
        # The same order every day: the 6th regular wins, the 1st finishes 6th.
        play_to_the_end(t, entries, actor)
        series_service.score_tournament(t, actor=actor)
        played += 1
        day += timedelta(days=1)
        if played == 19:
            lines = selectors.standings(series)
            assert lines[0].player == regulars[-1].pk and lines[0].tournaments == 19
    series.refresh_from_db()
    assert series.current_cycle == 2  # reset: the new cycle has no points yet
    assert selectors.standings(series) == []
    awards = SeriesAward.objects.filter(series=series, cycle=1).order_by("rank")
    assert [a.person_id for a in awards] == [p.pk for p in reversed(regulars)][:4]
    assert all(a.value == Decimal("550.00") and "500+50" in a.description for a in awards)
    archive = SeriesCycle.objects.get(series=series, number=1)
    assert len(archive.standings) == 6 and archive.standings[0]["person"] == regulars[-1].pk
    assert archive.standings[0]["total"] == pytest.approx(20 * leaderboard.leaderboard_points(6, 1))
    assert SeriesResult.objects.filter(series=series, cycle=1).count() == 120  # the history is kept


def test_a_tie_for_the_last_ticket_is_left_to_the_director(make_tournament, field, actor):
    s = series_service.create_series(name="Short", cycle_length=1, tickets_per_cycle=1, tie_break="NONE", actor=actor)
    t = make_tournament()
    series_service.attach(s, t, actor=actor)
    es = field(t, 3)
    play_to_the_end(t, es, actor)
    Entry.objects.filter(pk__in=[es[1].pk, es[2].pk]).update(place=1)  # two players share 1st
    series_service.score_tournament(t, actor=actor)
    archive = SeriesCycle.objects.get(series=s, number=1)
    assert archive.tickets_undecided == 1 and sorted(archive.undecided) == sorted([es[1].person_id, es[2].person_id])
    assert not SeriesAward.objects.filter(series=s).exists()
    series_service.settle_undecided(s, 1, [es[2].person_id], actor=actor, reason="high card draw, witnessed")
    assert SeriesAward.objects.get(series=s).decided_by == "DIRECTOR"


def test_the_series_page_names_each_days_price_by_its_weekday_in_the_readers_language(series, director):
    """The daily prices are read by the day's name ("lunedì: 50,00+20,00"), never its number."""
    from django.test import Client

    series.weekday_prices = {"0": ["50", "20"], "3": ["100", "30"]}
    series.save()
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(director)
    text = client.get(f"/formats/series/{series.pk}/").content.decode()
    line = text[text.index("Prezzi giornalieri") :].split("</p>")[0]
    assert "Lunedì: 50,00+20,00" in line and "Giovedì: 100,00+30,00" in line, line
    assert "0:" not in line and "3:" not in line


def test_lb01_a_daily_still_running_scores_nothing_until_it_finishes(series, make_tournament, field, actor):
    t = make_tournament(name="Friday daily")
    series_service.attach(series, t, actor=actor)
    entries = field(t, 4)
    lifecycle.start(t, actor=actor)
    with pytest.raises(DomainError) as e:
        series_service.score_tournament(t, actor=actor)
    assert e.value.code == "not_finished"
    assert not SeriesResult.objects.filter(tournament=t).exists() and selectors.standings(series) == []
    bust_in_order(entries[:-1], start=timezone.now() - timedelta(hours=1))
    for place, e in zip((4, 3, 2, 1), entries):
        Entry.objects.filter(pk=e.pk).update(place=place)
    lifecycle.finish(t, actor=actor)
    points = {r.place: round(r.points, 2) for r in series_service.score_tournament(t, actor=actor)}
    assert (points[1], points[4]) == (60.02, 30.01)  # K × √(4/1) and K × √(4/4), K = 30.0108


def test_a_series_counting_players_scores_each_person_by_his_place_among_people(make_tournament, make_person, actor, cashier_actor):
    series = series_service.create_series(name="Players league", participants="PLAYERS", actor=actor)
    t = make_tournament(max_entries_per_player=2, format=Tournament.REENTRY)
    series_service.attach(series, t, actor=actor)
    pam, ann, bob, dan, cid = (make_person(first) for first in ("Pam", "Ann", "Bob", "Dan", "Cid"))
    pam_first = cashier.register(t, pam, method="CASH", actor=cashier_actor).entry
    ann_e, bob_e, dan_e, cid_e = (cashier.register(t, p, method="CASH", actor=cashier_actor).entry for p in (ann, bob, dan, cid))
    lifecycle.start(t, actor=actor)
    bust_in_order([pam_first])
    pam_again = cashier.reenter(t, pam, method="CASH", actor=cashier_actor).entry
    bust_in_order([ann_e, bob_e, dan_e, pam_again], start=timezone.now())
    # 6 entries: Ann 6th, Pam's first entry 5th, Bob and Dan out in the same hand (3rd shared), Pam 2nd, Cid 1st.
    for e, place in ((ann_e, 6), (pam_first, 5), (bob_e, 3), (dan_e, 3), (pam_again, 2), (cid_e, 1)):
        Entry.objects.filter(pk=e.pk).update(place=place)
    lifecycle.finish(t, actor=actor)
    results = {r.person.first_name: (r.place, r.shared_with, r.participants, round(r.points, 2)) for r in series_service.score_tournament(t, actor=actor)}
    # n = 5 people; among people Ann is 5th; Bob and Dan share 3rd-4th and score place 3.5.
    assert results == {
        "Cid": (1, 1, 5, 67.11),
        "Pam": (2, 1, 5, 47.45),
        "Bob": (3, 2, 5, 35.87),
        "Dan": (3, 2, 5, 35.87),
        "Ann": (5, 1, 5, 30.01),
    }
    top = t.events.get(action="formats.series.scored").payload["top"]
    assert [(line["place"], line["points"]) for line in top] == [(1, 67.11), (2, 47.45), (3, 35.87), (3, 35.87), (5, 30.01)]
    assert [line["name"].split()[0] for line in top[:2]] + [top[4]["name"].split()[0]] == ["Cid", "Pam", "Ann"]


def test_a_tournament_is_not_scored_while_an_entry_has_no_place(series, make_tournament, field, actor):
    t = make_tournament(name="Thursday daily")
    series_service.attach(series, t, actor=actor)
    entries = field(t, 3)
    play_to_the_end(t, entries, actor)
    Entry.objects.filter(pk=entries[0].pk).update(place=None)
    with pytest.raises(DomainError) as e:
        series_service.score_tournament(t, actor=actor)
    assert (e.value.code, str(e.value)) == ("places_missing", "Some entries have no finishing place yet.")
    assert not SeriesResult.objects.filter(tournament=t).exists()


def test_a_series_reading_the_days_buy_in_scores_a_shared_place_as_the_best_of_it(make_tournament, field, actor):
    """Reading D: K = 10 · (1 + log₁₀(50 + 0.25)) = 27.0114 for a €50 daily. Four players, two
    out in the same hand share 2nd-3rd and, under BEST_PLACE, both score place 2:
    1st 2K = 54.02, 2nd K·√2 = 38.20, 4th K = 27.01."""
    s = series_service.create_series(name="Buy-in weighted", lb_constant_mode="D", shared_rule="BEST_PLACE", actor=actor)
    t = make_tournament(name="Wednesday daily", buy_in=Decimal("50"), fee=Decimal("10"))
    series_service.attach(s, t, actor=actor)
    es = field(t, 4)
    play_to_the_end(t, es, actor)
    Entry.objects.filter(pk=es[1].pk).update(place=2)  # out with the 2nd, in the same hand
    results = sorted((r.place, r.shared_with, round(r.points, 2)) for r in series_service.score_tournament(t, actor=actor))
    assert results == [(1, 1, 54.02), (2, 2, 38.2), (2, 2, 38.2), (4, 1, 27.01)]


def test_lb02_the_leaderboard_prints_the_reading_and_each_line_to_two_decimals(make_tournament, field, actor):
    # Reading B: K = 10·(1 + ln 100 / ln 25) = 24.30677. Four players: 1st K·√4 = 48.6135, 2nd K·√2 = 34.37496,
    # 3rd K·√(4/3) = 28.0670, 4th K = 24.3068.
    b = series_service.create_series(name="Reading B", lb_constant_mode="B", actor=actor)
    t = make_tournament(name="Friday daily")
    series_service.attach(b, t, actor=actor)
    entries = field(t, 4)
    play_to_the_end(t, entries, actor)  # the last entry wins, the first is 4th
    series_service.score_tournament(t, actor=actor)
    data = selectors.leaderboard_data(b)
    head = data["series"]
    assert (head["id"], head["name"], head["reading"], head["league"], head["cycle_length"], head["tickets"]) == (b.pk, "Reading B", "B", False, 20, 4)
    assert head["formula"] == "K·√(entries ÷ place), reading B"
    assert (data["cycle"], data["tournaments_played"], data["past_events"], data["tournaments_left"], data["archived"]) == (1, 1, 0, 19, False)
    people = [e.person for e in reversed(entries)]
    assert [(s["rank"], s["person"], s["name"], s["points"], s["best"], s["tournaments"], s["knockouts"]) for s in data["standings"]] == [
        (1, people[0].pk, people[0].full_name, 48.61, 48.61, 1, 0),
        (2, people[1].pk, people[1].full_name, 34.37, 34.37, 1, 0),
        (3, people[2].pk, people[2].full_name, 28.07, 28.07, 1, 0),
        (4, people[3].pk, people[3].full_name, 24.31, 24.31, 1, 0),
    ]
    assert data["past_cycles"] == []
    # The lobby's page: the same figures, each name as public pages show it, no person ids.
    public = selectors.public_leaderboard(b.pk)
    assert [(s["rank"], s["name"], s["points"]) for s in public["standings"]] == [
        (1, f"{people[0].first_name} {people[0].last_name[0]}.", 48.61),
        (2, f"{people[1].first_name} {people[1].last_name[0]}.", 34.37),
        (3, f"{people[2].first_name} {people[2].last_name[0]}.", 28.07),
        (4, f"{people[3].first_name} {people[3].last_name[0]}.", 24.31),
    ]
    assert all("person" not in s for s in public["standings"]) and selectors.public_leaderboard(b.pk + 1000) is None


def test_lb01_a_series_event_tells_the_players_of_its_other_events_each_of_his_latest_entry(make_tournament, make_person, actor, cashier_actor):
    """The players' notice that a series event's registration closes (the notices ask the series'
    players): those of ``people`` who played another event of the series, each with his latest
    entry there (his phone opens that event's page). Not a player who plays only this event, one
    whose entry was cancelled, one of another series; an event in no series tells nobody."""
    now = timezone.now()
    spring = series_service.create_series(name="Spring", actor=actor)
    other = series_service.create_series(name="Other", actor=actor)
    tuesday = make_tournament(name="Tuesday", start_at=now - timedelta(days=3))
    monday = make_tournament(name="Monday", start_at=now - timedelta(days=4))
    friday = make_tournament(name="Friday", start_at=now + timedelta(hours=1))
    elsewhere = make_tournament(name="Other league's daily", start_at=now - timedelta(days=2))
    loose, loose_too = make_tournament(name="In no series"), make_tournament(name="In no series either")
    for series, t in ((spring, tuesday), (spring, monday), (spring, friday), (other, elsewhere)):
        series_service.attach(series, t, actor=actor)
    anna, bruno, carlo, dario = (make_person(first) for first in ("Anna", "Bruno", "Carlo", "Dario"))

    def sell(t, person):
        return cashier.register(t, person, method="CASH", actor=cashier_actor).entry

    latest = sell(tuesday, anna)  # sold first, for the later event
    sell(monday, anna)
    sell(loose, anna)
    Entry.objects.filter(pk=sell(monday, bruno).pk).update(status=Entry.CANCELLED)
    sell(friday, carlo)
    sell(elsewhere, dario)
    people = {anna.pk, bruno.pk, carlo.pk, dario.pk}
    assert selectors.series_players(friday, people) == {anna.pk: latest.pk}
    assert selectors.series_players(friday, set()) == {}
    assert selectors.series_players(loose_too, people) == {}
