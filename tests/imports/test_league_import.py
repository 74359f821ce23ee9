"""A league's past results brought in from the room's sheet: the season in progress continues here
with its standings (the events before are no tournaments: no money here), and goes out again."""

import datetime as dt
import io
import json
from decimal import Decimal

import openpyxl
import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from tdmanager.errors import DomainError
from tests.conftest import client_for
from tournaments.formats import selectors
from tournaments.formats.models import SeriesPastResult
from tournaments.formats.services import series as series_service
from tournaments.imports import rules as import_rules
from tournaments.imports import services as import_services
from tournaments.models import Person, Tournament, TournamentEvent

from ..formats.conftest import field, scored_event  # noqa: F401  (field: the formats' fixture of quick players)

pytestmark = pytest.mark.django_db

# The room's sheet as Excel in Italy saves it: semicolons, Windows-1252 (Nicolò's ò is one byte),
# amounts with the decimal comma, dates dd/mm/yyyy. Two events before this system.
ITALIAN = (
    "Data;Torneo;Cognome;Nome;Soprannome;Posizione;Premio;Punti\r\n"
    "12/09/2026;Tappa 1;Bianchi;Nicolò;Nico;1;1.250,00;25\r\n"
    "12/09/2026;Tappa 1;Rossi;Mario;;2;600,00;15\r\n"
    "12/09/2026;Tappa 1;Verdi;Anna;;3;;10\r\n"
    "03/10/2026;Tappa 2;Rossi;Mario;;1;900,00;25\r\n"
    "03/10/2026;Tappa 2;Verdi;Anna;;2;400,00;15\r\n"
    "03/10/2026;Tappa 2;Bianchi;Nicolò;Nico;3;;10\r\n"
).encode("cp1252")


@pytest.fixture
def league(actor):
    """25, 15, 10 points to the first three, 2 for playing and placing below them; each player's
    best two results count."""
    return series_service.create_series(
        name="Lega del giovedì",
        scoring="TABLE",
        points_table=[Decimal(25), Decimal(15), Decimal(10)],
        participation_points=Decimal(2),
        best_of=2,
        cycle_length=None,
        tickets_per_cycle=0,
        actor=actor,
    )


def run(data, league, actor, name="lega.csv", **kw):
    return import_services.run_import("league", data, name, actor=actor, options={"league": str(league.pk)}, **kw)


def table(league):
    return [(line["rank"], line["name"], line["points"], line["tournaments"]) for line in selectors.leaderboard_data(league)["standings"]]


def test_an_italian_csv_brings_the_season_and_the_standings_count_it(league, actor, make_person):
    mario = make_person("Mario", "Rossi")  # already a player here: matched, not created again
    p = import_services.preview("league", ITALIAN, "lega.csv", options={"league": league.pk})
    assert p.mapping == ["date", "event", "last_name", "first_name", "nickname", "place", "prize", "points"]
    assert p.counts()["created"] == 6 and p.counts()["refused"] == 0
    assert Person.objects.count() == 1 and not SeriesPastResult.objects.exists()  # a preview writes nothing

    run(ITALIAN, league, actor)
    assert Person.objects.count() == 3  # Nicolò Bianchi and Anna Verdi, once each for their two rows
    nico = Person.objects.get(last_name="Bianchi")
    assert (nico.first_name, nico.nickname) == ("Nicolò", "Nico")
    assert SeriesPastResult.objects.filter(person=mario).count() == 2
    first = SeriesPastResult.objects.get(person=nico, event="Tappa 1")
    assert (first.date, first.place, first.prize, first.points) == (dt.date(2026, 9, 12), 1, Decimal("1250.00"), Decimal("25.00"))
    assert not Tournament.objects.exists()  # the events before were not played here: no money, no tournament
    added = TournamentEvent.objects.filter(action="people.person.created").values_list("payload__name", flat=True)
    assert sorted(added) == ["Anna Verdi", "Nicolò Bianchi"]  # each new person's line in the event log
    assert TournamentEvent.objects.filter(action="import.done", payload__kind="league", payload__created=6).exists()

    # By hand: Mario 15 + 25 = 40, Nicolò 25 + 10 = 35, Anna 10 + 15 = 25.
    assert table(league) == [(1, "Mario Rossi", 40.0, 2), (2, "Nicolò Bianchi (Nico)", 35.0, 2), (3, "Anna Verdi", 25.0, 2)]
    data = selectors.leaderboard_data(league)
    assert data["past_events"] == 2 and data["tournaments_played"] == 0


def test_the_standings_count_the_past_results_beside_an_event_played_here_best_two(league, actor, make_tournament, field):
    run(ITALIAN, league, actor)
    entries = scored_event(league, make_tournament, field, actor, "Tappa 3")  # three new players: 3rd, 2nd, 1st
    third, second, winner = (e.person for e in entries)
    # The event played here: 25, 15, 10. The past players keep their best two; the winner here and
    # Anna both have 25, and his best result (25) beats hers (15).
    assert table(league) == [
        (1, "Mario Rossi", 40.0, 2),
        (2, "Nicolò Bianchi (Nico)", 35.0, 2),
        (3, winner.full_name, 25.0, 1),
        (4, "Anna Verdi", 25.0, 2),
        (5, second.full_name, 15.0, 1),
        (6, third.full_name, 10.0, 1),
    ]


def test_best_of_and_the_tie_break_see_the_past_results_as_played_ones(actor, make_tournament, field):
    """Best of one, ties broken by more tournaments: Mario and Nicolò scored 25 in one of their
    two events before; the winner here scores 25 in his only one: he ranks after them both, who
    share the 1st place. Anna's best is 15 in two events, the second's here 15 in one."""
    league = series_service.create_series(
        name="Best of one",
        scoring="TABLE",
        points_table=[Decimal(25), Decimal(15), Decimal(10)],
        best_of=1,
        tie_break="MORE_TOURNAMENTS",
        cycle_length=None,
        tickets_per_cycle=0,
        actor=actor,
    )
    run(ITALIAN, league, actor)
    third, second, winner = (e.person.full_name for e in scored_event(league, make_tournament, field, actor, "Tappa 3"))
    assert sorted(table(league)) == [
        (1, "Mario Rossi", 25.0, 2),
        (1, "Nicolò Bianchi (Nico)", 25.0, 2),
        (3, winner, 25.0, 1),
        (4, "Anna Verdi", 15.0, 2),
        (5, second, 15.0, 1),
        (6, third, 10.0, 1),
    ]


def test_an_xlsx_written_by_excel_comes_in_with_its_date_and_number_cells(league, actor):
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["Date", "Event", "Last name", "First name", "Nickname", "Place", "Prize", "Points"])
    sheet.append([dt.datetime(2026, 9, 12), "Opening night", "Bianchi", "Nicolò", '=HYPERLINK("x")', 1, 1250.5, 25])
    sheet.append([dt.datetime(2026, 9, 12), "Opening night", "Rossi", "Mario", None, 2, None, 15.5])
    out = io.BytesIO()
    book.save(out)
    run(out.getvalue(), league, actor, name="season.xlsx")
    nico = Person.objects.get(last_name="Bianchi")
    assert nico.nickname == '=HYPERLINK("x")'  # a formula's text, kept as text
    result = SeriesPastResult.objects.get(person=nico)
    assert (result.date, result.prize, result.points) == (dt.date(2026, 9, 12), Decimal("1250.50"), Decimal("25.00"))
    assert SeriesPastResult.objects.get(person__last_name="Rossi").points == Decimal("15.50")


def test_a_refused_row_in_the_middle_leaves_nothing_written_and_says_why(league, actor):
    bad = (
        "Data;Torneo;Cognome;Nome;Posizione;Premio;Punti\r\n"
        "12/09/2026;Tappa 1;Bianchi;Nicolò;1;;25\r\n"
        "31/02/2026;Tappa 1;Neri;Luca;2;;15\r\n"
        "12/09/2026;Tappa 1;Gialli;Eva;primo;;10\r\n"
        "12/09/2026;Tappa 1;;Ugo;4;;5\r\n"
        "12/09/2026;Tappa 1;Blu;Ada;5;;-3\r\n"
        "12/09/2099;Tappa 9;Rosa;Ida;1;;25\r\n"
        "12/09/2026;Tappa 1;Bianchi;Nicolò;1;;25\r\n"
        "03/10/2026;Tappa 2;Rossi;Mario;1;;25\r\n"
    ).encode("cp1252")
    p = import_services.preview("league", bad, "lega.csv", options={"league": league.pk})
    reasons = {r.line: r.reason for r in p.refused()}
    assert set(reasons) == {3, 4, 5, 6, 7, 8}
    assert "not a date" in reasons[3]
    assert "not a whole number" in reasons[4]
    assert reasons[5] == "The last name is missing."
    assert "negative" in reasons[6]
    assert "not the date of an event already played" in reasons[7]
    assert reasons[8] == "Row 2 already gives this player's result in this event."
    with pytest.raises(DomainError) as e:
        run(bad, league, actor)
    assert e.value.code == "rows_refused"
    assert not SeriesPastResult.objects.exists() and not Person.objects.exists()  # Mario, row 9, is not in either
    run(bad, league, actor, skip_refused=True)  # told to leave them out: the two good rows
    assert sorted(SeriesPastResult.objects.values_list("person__last_name", flat=True)) == ["Bianchi", "Rossi"]


def test_the_same_file_twice_changes_nothing_and_a_corrected_row_is_an_update(league, actor):
    run(ITALIAN, league, actor)
    before = (Person.objects.count(), list(SeriesPastResult.objects.values_list("pk", "points")))
    again = run(ITALIAN, league, actor)
    assert again.counts()["unchanged"] == 6 and again.counts()["created"] == 0
    assert (Person.objects.count(), list(SeriesPastResult.objects.values_list("pk", "points"))) == before

    corrected = ITALIAN.replace(b"03/10/2026;Tappa 2;Verdi;Anna;;2;400,00;15", b"03/10/2026;TAPPA 2;Verdi;Anna;;2;450,00;17")
    p = import_services.preview("league", corrected, "lega.csv", options={"league": league.pk})
    [row] = [r for r in p.rows if r.status == import_rules.UPDATED]
    assert row.changes == {"prize": (Decimal("400.00"), Decimal("450.00")), "points": (Decimal("15.00"), Decimal("17.00"))}
    run(corrected, league, actor)
    assert table(league)[2] == (3, "Anna Verdi", 27.0, 2)


def test_a_player_who_could_be_two_stored_people_is_refused_until_the_sheet_says_which(league, actor, make_person):
    make_person("Mario", "Rossi", document_id="AB111111")
    second = make_person("Mario", "Rossi", document_id="CD222222")
    p = import_services.preview("league", ITALIAN, "lega.csv", options={"league": league.pk})
    assert [r.line for r in p.refused()] == [3, 5]
    assert "Several stored people are named Mario Rossi" in p.refused()[0].reason
    with_document = ITALIAN.replace(b"Punti\r\n", b"Punti;Documento\r\n").replace(b";Rossi;Mario;;2;600,00;15", b";Rossi;Mario;;2;600,00;15;CD222222")
    with_document = with_document.replace(b";Rossi;Mario;;1;900,00;25", b";Rossi;Mario;;1;900,00;25;CD222222")
    run(with_document, league, actor)
    assert SeriesPastResult.objects.filter(person=second).count() == 2


def test_the_league_option_names_a_league(league, actor):
    sanremo = series_service.create_series(name="Sanremo dailies", actor=actor)
    for options, words in (({}, "Choose the league"), ({"league": "Nowhere"}, "No league"), ({"league": sanremo.pk}, "not a league")):
        with pytest.raises(DomainError) as e:
            import_services.preview("league", ITALIAN, "lega.csv", options=options)
        assert words in e.value.message and e.value.code == "bad_options" and e.value.extra["field"] == "options"
    assert import_services.preview("league", ITALIAN, "lega.csv", options={"league": "lega del GIOVEDÌ"}).counts()["created"] == 6


def test_a_league_goes_out_and_comes_back_in_with_the_same_standings(league, actor, make_tournament, field, director):
    run(ITALIAN, league, actor)
    scored_event(league, make_tournament, field, actor, "Tappa 3")
    expected = table(league)
    web = Client()
    web.force_login(director)
    for fmt in ("csv", "xlsx"):
        data, name = import_rules.export_file("league", fmt, {"league": league.pk})
        assert name == f"league-{league.pk}.{fmt}"
        # Into the same league: every row is in already (the events played here too).
        p = import_services.preview("league", data, name, options={"league": league.pk})
        assert p.counts()["unchanged"] == 9 and p.counts()["created"] == 0
        # Into a new league of the same formula: the same standings, the event played here now one before.
        copy = series_service.create_series(
            name=f"Copy {fmt}", scoring="TABLE", points_table=["25", "15", "10"], participation_points=Decimal(2), best_of=2, cycle_length=None, actor=actor
        )
        people = Person.objects.count()
        run(data, copy, actor, name=name)
        assert Person.objects.count() == people  # the same people, found again
        assert table(copy) == expected
    sheet = openpyxl.load_workbook(io.BytesIO(data)).active
    assert [c.value for c in sheet[1]] == [
        "Date",
        "Event",
        "Last name",
        "First name",
        "Nickname",
        "Place",
        "Prize",
        "Points",
        "Identity document",
        "Email",
        "Phone",
    ]
    assert [c.value for c in sheet[2]][:3] == [dt.datetime(2026, 9, 12), "Tappa 1", "Bianchi"]


def test_the_commands_import_with_a_dry_run_and_export(league, actor, tmp_path, capsys):
    path = tmp_path / "lega.csv"
    path.write_bytes(ITALIAN + "xx/10/2026;Tappa 2;Neri;Luca;;4;;2\r\n".encode("cp1252"))
    with pytest.raises(SystemExit) as e:
        call_command("import_league", str(path), "--dry-run", "--option", f"league={league.name}")
    assert e.value.code == 1
    out = capsys.readouterr().out
    assert "to create: 6" in out and "row 8:" in out and "dry run: nothing was written" in out
    assert not SeriesPastResult.objects.exists()
    call_command("import_league", str(path), "--skip-refused", "--option", f"league={league.pk}")
    assert SeriesPastResult.objects.count() == 6
    target = tmp_path / "out.xlsx"
    call_command("export_league", str(target), "--option", f"league={league.pk}")
    assert openpyxl.load_workbook(target).active.max_row == 7


def test_the_import_page_offers_the_leagues_and_the_series_page_counts_the_events_before(league, actor, director):
    page = Client()
    page.force_login(director)
    html = page.get("/imports/league/").content.decode()
    assert f'<option value="{league.pk}">Lega del giovedì</option>' in html
    upload = io.BytesIO(ITALIAN)
    upload.name = "lega.csv"
    r = page.post("/imports/league/", {"file": upload, "league": str(league.pk)})
    assert r.status_code == 302
    assert not SeriesPastResult.objects.exists()  # the preview first
    page.post(r["Location"], {"op": "import"})
    assert SeriesPastResult.objects.count() == 6
    html = page.get(f"/formats/series/{league.pk}/").content.decode()
    assert "The standings count the imported results of 2 events played before this system." in html
    assert f'href="/exports/league.csv?league={league.pk}"' in html
    assert "2 events before this system" in page.get(f"/formats/series/{league.pk}/leaderboard/").content.decode()
    exported = page.get(f"/exports/league.csv?league={league.pk}").content.decode("utf-8-sig").splitlines()
    assert exported[0] == "Date,Event,Last name,First name,Nickname,Place,Prize,Points,Identity document,Email,Phone"
    assert exported[1] == "12/09/2026,Tappa 1,Bianchi,Nicolò,Nico,1,1250.00,25.00,,,"


def test_the_api_imports_a_league_with_its_option(league, director):
    api = client_for(director)
    sheet = io.BytesIO(ITALIAN)
    sheet.name = "lega.csv"
    r = api.post("/api/v1/imports/league/", {"file": sheet, "options": json.dumps({"league": league.pk})}, format="multipart")
    assert r.status_code == 201 and r.json()["counts"]["created"] == 6
    assert len(table(league)) == 3


def test_a_row_of_an_event_played_here_is_in_already_or_refused(league, actor, make_tournament, field, make_person):
    entries = scored_event(league, make_tournament, field, actor, "Tappa 3")
    winner = entries[-1].person
    make_person(winner.first_name, winner.last_name)  # a namesake who did not play it
    data, name = import_rules.export_file("league", "csv", {"league": league.pk})
    assert import_services.preview("league", data, name, options={"league": league.pk}).counts()["unchanged"] == 3
    day = timezone.localtime(entries[0].tournament.start_at).strftime("%d/%m/%Y")
    other = f"Data;Torneo;Cognome;Nome;Posizione;Punti\r\n{day};tappa 3;Neri;Luca;1;25\r\n".encode()
    [row] = import_services.preview("league", other, "x.csv", options={"league": league.pk}).refused()
    assert row.reason == f"tappa 3 of {day} was played here: its results are its players' own, not imported."


@pytest.mark.django_db
def test_the_simulator_brings_a_league_season_in_and_its_standings_add_up():
    """The simulated day's action, its invariants checked after each step (standings = the results
    played here + those imported): a league and a leaderboard, then three sheets into the league."""
    from tests.simulation.driver import play  # the simulator: only this test plays a day

    plan = [("create_series", 1), ("create_series", 2), ("import_league_results", 3), ("import_league_results", 4), ("import_league_results", 5)]
    report = play(9001, plan=plan)
    assert report.ran["import_league_results"] == 3
    assert SeriesPastResult.objects.count() == 9


def test_a_player_who_shares_an_e_mail_with_another_stored_person_is_refused_with_what_they_share(league, make_person):
    make_person("Lucia", "Neri", email="neri@club.it")
    sheet = b"Data;Torneo;Cognome;Nome;Email;Posizione;Punti\r\n12/09/2026;Tappa 1;Neri;Luca;neri@club.it;1;25\r\n"
    [row] = import_services.preview("league", sheet, "x.csv", options={"league": league.pk}).refused()
    assert row.reason == "Luca Neri looks like Lucia Neri (same e-mail), and the row does not show they are one person: check it."


def test_a_player_is_found_by_the_desks_duplicate_rule_names_in_any_script_by_their_letters(league, actor, make_person):
    """The league's rows ask the rule the desk and the people import ask (``people.rules.alike``):
    a player named in Cyrillic is not whoever else is, and his name again is him."""
    ivan = make_person("Иван", "Петров")
    sheet = "Data;Torneo;Cognome;Nome;Posizione;Punti\r\n12/09/2026;Tappa 1;Сидоров;Олег;1;25\r\n12/09/2026;Tappa 1;ПЕТРОВ;иван;2;15\r\n"
    run(sheet.encode(), league, actor)
    oleg = Person.objects.get(last_name="Сидоров")
    assert {r.person_id: r.points for r in SeriesPastResult.objects.all()} == {oleg.pk: Decimal(25), ivan.pk: Decimal(15)}


def test_a_players_data_export_holds_his_imported_league_results(league, actor):
    from tournaments.people.privacy import person_data  # the GDPR access export

    run(ITALIAN, league, actor)
    anna = Person.objects.get(last_name="Verdi")
    assert person_data(anna)["league_past_results"] == [
        {"league": "Lega del giovedì", "season": 1, "date": "2026-09-12", "event": "Tappa 1", "place": 3, "prize": "0.00", "points": "10.00"},
        {"league": "Lega del giovedì", "season": 1, "date": "2026-10-03", "event": "Tappa 2", "place": 2, "prize": "400.00", "points": "15.00"},
    ]


def test_lb03_erasing_a_player_known_only_from_the_sheet_takes_his_name_out_of_a_closed_seasons_archive(league, actor, django_capture_on_commit_callbacks):
    """A player who never played here, his league results brought in from the sheet: erased once
    the season is closed, his line of the season's archive no longer carries his name; the
    others' lines keep theirs."""
    from tournaments.formats.models import SeriesCycle
    from tournaments.people import privacy

    run(ITALIAN, league, actor)
    with django_capture_on_commit_callbacks(execute=True):
        series_service.close_season(league, actor=actor)
    anna = Person.objects.get(last_name="Verdi")
    with django_capture_on_commit_callbacks(execute=True):
        privacy.erase_person(anna, "asked to be forgotten", actor=actor)
    lines = {line["person"]: line["name"] for line in SeriesCycle.objects.get(series=league).standings}
    assert lines[anna.pk] == f"Erased player #{anna.pk}"
    assert sorted(name for pk, name in lines.items() if pk != anna.pk) == ["Mario Rossi", "Nicolò Bianchi"]
