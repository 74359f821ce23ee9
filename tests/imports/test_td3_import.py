"""Moving in from The Tournament Director: TD3's save files come in as the room's archives.

The suite's own small save files (``tests/tournaments/td3_files``): a played 3.7 event with a
rebuy after a bust, a re-entry, an add-on, a bust shared by two hitmen and a chopped prize; a
played 3.0 event; a planned one; a file cut short. What a director would check: places, prizes,
entries and knockouts as TD3 recorded them, one person per TD3 player, the same files twice
changing nothing, a broken file refusing the whole run by its name, the league's points.
"""

import io
import zipfile
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from payouts import reports, results_sheet
from payouts import selectors as psel
from payouts.models import BountyAward, PrizePayment
from payouts.selectors.bounties import knockouts_by_entry
from seating.models import Bust
from tdmanager.errors import ValidationFailed
from tests.conftest import client_for
from tests.tournaments import td3_files as td3
from tests.tournaments.td3_files import ANNA, BRUNO, CARLA, DARIO, ELENA
from tournaments.formats import selectors
from tournaments.formats.models import Series, SeriesResult
from tournaments.imports import services as import_services
from tournaments.imports.td3 import files, formula, model, reader
from tournaments.models import Entry, LedgerRow, Person, Td3Event, Td3Player, Tournament, TournamentEvent

pytestmark = pytest.mark.django_db


def bundle(*named) -> bytes:
    return files.bundle([(name, text.encode()) for name, text in named])


def run(data: bytes, actor, name="td3-files.zip", **kw):
    return import_services.run_import("td3", data, name, actor=actor, **kw)


def person_of(uuid: str) -> Person:
    return Td3Player.objects.get(uuid=uuid).person


def stored():
    """What the import writes, counted: the same files again must leave every count as it is."""
    return {
        "people": Person.objects.count(),
        "tournaments": Tournament.objects.count(),
        "entries": Entry.objects.count(),
        "busts": Bust.objects.count(),
        "knockouts": BountyAward.objects.count(),
        "prizes": PrizePayment.objects.count(),
        "results": SeriesResult.objects.count(),
        "events": sorted(Td3Event.objects.values_list("key", "digest")),
    }


def test_a_played_event_comes_in_with_its_places_prizes_entries_and_knockouts(actor):
    run(bundle(("club.tdt", td3.club_night())), actor)
    t = Tournament.objects.get()
    assert t.status == Tournament.FINISHED and t.name == "Club Night 20240315" and t.td3_event.uuid == "ev-37"
    assert (t.buy_in, t.fee, t.starting_stack, t.format) == (Decimal(90), Decimal(10), 10000, Tournament.REBUY)
    assert [(i.kind, i.small_blind, i.big_blind, i.ante, i.minutes) for i in t.structure.items.all()] == [
        ("LEVEL", 25, 50, 0, 20),
        ("LEVEL", 50, 100, 0, 20),
        ("BREAK", 0, 0, 0, 10),
        ("LEVEL", 100, 200, 25, 15),
        ("LEVEL", 200, 400, 50, 15),
    ]
    # Places as TD3 ranks them: Carla and Dario out in the same second share the 3rd; Elena,
    # back with a buy-in profile after her bust (a re-entry), has one place, her last bust's.
    headers, rows = results_sheet.results(t)
    by_person = {(e.person_id): e for e in t.entries.filter(place__isnull=False)}
    places = {Td3Player.objects.get(person_id=pk).uuid: e.place for pk, e in by_person.items()}
    assert places == {ANNA: 1, BRUNO: 2, CARLA: 3, DARIO: 3, ELENA: 5}
    assert [(r[0], r[2]) for r in rows] == [(1, Decimal("300.00")), (2, Decimal("200.00")), (3, Decimal("80.00")), (3, Decimal("80.00")), (5, Decimal("0.00"))]
    # Entries: Elena's re-entry is an entry of hers; Bruno's rebuy and Anna's add-on count on theirs.
    entries = {Td3Player.objects.get(person_id=e.person_id).uuid + f"/{e.person_entry_no}": e for e in t.entries.all()}
    assert sorted(entries) == ["a1/1", "b2/1", "c3/1", "d4/1", "e5/1", "e5/2"]
    assert (entries["b2/1"].rebuys, entries["a1/1"].addons, entries["a1/1"].chips) == (1, 1, 15000)
    assert entries["e5/1"].status == Entry.BUSTED and entries["e5/1"].place is None and entries["e5/2"].place == 5
    assert entries["a1/1"].status == Entry.ACTIVE and entries["a1/1"].status_label() == "Winner"
    # Every bust with its table and seat; Bruno's first, bought back by his rebuy, stays void.
    busts = list(Bust.objects.filter(tournament=t).order_by("order"))
    assert len(busts) == 6 and [b.void for b in busts].count(Bust.REBOUGHT) == 1
    assert {(b.table_number, b.seat_number) for b in busts if b.entry.person_entry_no == 2} == {(2, 5)}
    # Knockouts: a bust shared by two hitmen counts for each; Bruno's first bust for Dario.
    ko = {Td3Player.objects.get(person_id=Entry.objects.get(pk=pk).person_id).uuid: n for pk, n in knockouts_by_entry(t).items()}
    assert ko == {ANNA: 3, BRUNO: 2, CARLA: 1, DARIO: 1}
    # An archive: the prizes handed out already, and not a cent through today's drawer.
    assert not LedgerRow.objects.exists()
    assert all(p.row_id is None for p in PrizePayment.objects.all())
    assert TournamentEvent.objects.filter(action="import.done").count() == 1
    # Each purchase's time is kept with the event's TD3 record (an entry counts rebuys, not their times).
    kept = {(p["player"], p["kind"], p["time"][11:16]) for p in t.td3_event.details["purchases"]}
    assert (BRUNO, "rebuy", "22:24") in kept and (ANNA, "addon", "23:23") in kept and (ELENA, "reentry", "22:43") in kept


def test_the_player_history_and_the_results_api_read_the_imported_event(actor, director):
    run(bundle(("club.tdt", td3.club_night())), actor)
    t = Tournament.objects.get()
    api = client_for(director)
    r = api.get(f"/api/v1/tournaments/{t.pk}/results/")
    assert r.status_code == 200
    lines = r.content.decode("utf-8-sig").splitlines()
    assert lines[1].startswith("1,") and "300.00" in lines[1]
    browser = Client()
    browser.force_login(director)
    page = browser.get(reverse("person", args=[person_of(ANNA).pk]))
    assert page.status_code == 200 and "Club Night 20240315" in page.content.decode()
    detail = browser.get(reverse("tournament", args=[t.pk])).content.decode()
    assert 'id="imported-from-td3"' in detail and "club.tdt" in detail


def test_the_imported_events_pool_entries_and_fees_read_as_td3_recorded_them_with_no_ledger_row(actor, director):
    """Club night: 6 buy-ins (a re-entry among them) of 100 or 120, a rebuy of 100, an add-on of
    50: 770 paid, 70 of it TD3's rake (10 a buy-in and rebuy): a pot of 700; 660 awarded."""
    run(bundle(("club.tdt", td3.club_night())), actor)
    t = Tournament.objects.get()
    assert not LedgerRow.objects.filter(tournament=t).exists()
    api = client_for(director)
    lines = api.get(f"/api/v1/tournaments/{t.pk}/results/").content.decode("utf-8-sig").splitlines()
    shown = {line.split(",")[1]: line.split(",")[2] for line in lines if line.startswith(",") and line.strip(",")}
    assert shown["Prize pool"] == "700.00" and shown["Entries"] == "6" and shown["Rebuys"] == "1" and shown["Add-ons"] == "1"
    assert shown["Fees"] == "70.00" and "Imported from The Tournament Director" in shown
    report = api.get(f"/api/v1/tournaments/{t.pk}/payouts/reports/standings/").json()
    totals = dict(report["totals"])
    assert totals["Prize pool"].startswith("700.00") and totals["Entries"] == "6" and totals["Fees"].startswith("70.00")
    assert "Imported from The Tournament Director" in totals
    # The drawer holds nothing of an archive: its reconciliation balances, its pool from the ledger is nothing.
    reconciliation = api.get(f"/api/v1/tournaments/{t.pk}/payouts/reports/reconciliation/").json()
    assert reconciliation["balanced"] is True
    browser = Client()
    browser.force_login(director)
    detail = browser.get(reverse("tournament", args=[t.pk])).content.decode()
    assert '<span id="td3-pot">€700.00' in detail and '<span id="td3-fees">€70.00' in detail and "6 · 1 · 1" in detail


def test_where_td3_had_bounty_chips_each_knockout_holds_the_bounty_taken_as_handed_over(actor, director):
    """Bounty chips of 20 on every buy-in and rebuy: Anna took Bruno's (after his rebuy), Carla's
    and half of Elena's re-entry with Bruno: 50; Bruno the other half and Dario's: 30; Carla
    Elena's first: 20; Dario Bruno's first: 20. Handed over in TD3's room: the desk owes none."""
    run(bundle(("club.tdt", td3.club_night(bounty=20))), actor)
    t = Tournament.objects.get()
    won = {}
    for award in BountyAward.objects.filter(tournament=t).select_related("winner"):
        uuid = Td3Player.objects.get(person_id=award.winner.person_id).uuid
        won[uuid] = won.get(uuid, Decimal(0)) + award.cash
    assert won == {ANNA: Decimal(50), BRUNO: Decimal(30), CARLA: Decimal(20), DARIO: Decimal(20)}
    assert psel.bounties_owed(t) == [] and psel.bounty_money(t)["difference"] == 0
    assert all(not line["owed"] for line in psel.bounty_overview(t)["awards"])
    assert psel.bounties_won(list(t.entries.all()))[Entry.objects.get(tournament=t, person=person_of(ANNA)).pk]["to_collect"] == "0.00"
    lines = client_for(director).get(f"/api/v1/tournaments/{t.pk}/results/").content.decode("utf-8-sig").splitlines()
    assert lines[0].endswith("Bounties") and lines[1].startswith("1,") and lines[1].endswith(",50.00")
    # Without bounty chips the knockouts are counted, with no money.
    run(bundle(("club.tdt", td3.club_night(title="Club Night again").replace('UUID: "ev-37"', 'UUID: "ev-38"'))), actor)
    plain = Tournament.objects.get(name="Club Night again")
    assert BountyAward.objects.filter(tournament=plain).count() == 7 and not BountyAward.objects.filter(tournament=plain, cash__gt=0).exists()


def test_a_30_file_and_a_planned_event_come_in_and_one_person_per_td3_player(actor):
    run(bundle(("club.tdt", td3.club_night()), ("freeze.tdt", td3.event_30()), ("next.tdt", td3.planned())), actor)
    assert Tournament.objects.count() == 3
    # TD3's ids a1, b2 and c3 are in the three files: each is one person.
    assert Person.objects.count() == 5 and Td3Player.objects.count() == 5
    freeze = Tournament.objects.get(name="Texas Freeze Out")
    assert sorted(freeze.entries.values_list("place", flat=True)) == [1, 2, 3]
    assert freeze.entries.get(place=1).person == person_of(ANNA)
    planned = Tournament.objects.get(name="Club Night 20251023")
    assert planned.status == Tournament.PLANNED
    assert sorted((e.person_id, e.status, e.pre_registered) for e in planned.entries.all()) == sorted(
        [(person_of(ANNA).pk, Entry.RESERVED, True), (person_of(BRUNO).pk, Entry.RESERVED, True)]
    )


def test_two_td3_ids_under_one_nickname_are_two_people(actor):
    twin = td3.player("z9", "Anna", [td3.buyin(0, 1, 100, "Standard", out=td3.bust(100, 3, [ANNA]))])
    players = (
        "Map.from([" + ", ".join(f"[{td3.js(u)}, {p}]" for u, p in ((ANNA, td3.player(ANNA, "Anna", [td3.buyin(0, 1, 100, "Standard")])), ("z9", twin))) + "])"
    )
    run(bundle(("twins.tdt", td3.event_37(players, prizes=(td3.prize(1, 200, [ANNA]),)))), actor)
    assert Person.objects.filter(last_name="Anna").count() == 2
    assert person_of(ANNA) != person_of("z9")


def test_the_same_files_twice_change_nothing_and_a_file_saved_later_updates_its_event(actor):
    # Saved during the event: Bruno still in, the clock not ended. It comes in planned.
    during = td3.club_night().replace(f"EndTime: {td3.T0 + 300 * td3.MINUTE}, ", "")
    during = during.replace(td3.buyin(11, 1, 100, "Rebuy", out=td3.bust(250, 5, [ANNA], index=1)), td3.buyin(11, 1, 100, "Rebuy"))
    run(bundle(("club.tdt", during)), actor)
    t = Tournament.objects.get()
    assert t.status == Tournament.PLANNED
    before = stored()
    p = run(bundle(("club.tdt", during)), actor)
    assert stored() == before and p.files[0]["status"] == "unchanged"
    # The same event saved at its end: the same tournament, now finished with every bust.
    p = run(bundle(("club.tdt", td3.club_night())), actor)
    assert p.files[0]["status"] == "updated"
    t.refresh_from_db()
    assert Tournament.objects.count() == 1 and t.status == Tournament.FINISHED
    assert t.entries.get(place=2).person == person_of(BRUNO)
    after = stored()
    run(bundle(("club.tdt", td3.club_night())), actor)
    assert stored() == after


def test_a_broken_file_refuses_the_whole_run_and_is_named(actor):
    cut = td3.club_night()[:5000]
    with pytest.raises(ValidationFailed) as refused:
        run(bundle(("good.tdt", td3.event_30()), ("cut-short.tdt", cut)), actor)
    assert "cut-short.tdt" in refused.value.message and "line 1, column" in refused.value.message
    assert not Tournament.objects.exists() and not Person.objects.exists()
    with translation.override("it"):
        with pytest.raises(ValidationFailed) as refused:
            run(bundle(("good.tdt", td3.event_30()), ("cut-short.tdt", cut)), actor)
    assert "cut-short.tdt" in refused.value.message and "riga" in refused.value.message


def test_a_zip_that_unpacks_to_more_than_it_declares_is_refused_unread():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("bomb.tdt", b"{" + b" " * 5_000_000)
    data = bytearray(buffer.getvalue())
    # Declare 10 bytes in the central directory: the member must not be inflated past them.
    at = data.rfind(b"PK\x01\x02")
    data[at + 24 : at + 28] = (10).to_bytes(4, "little")
    with pytest.raises(files.Td3FileError) as refused:
        files.unpack(bytes(data), "history.zip")
    assert refused.value.filename == "bomb.tdt"


def test_the_dry_run_changes_nothing_and_lists_who_may_be_a_person_typed_here(actor, make_person, capsys, tmp_path):
    typed = make_person("Anna", "Rossi", phone="+39 333 1234567")
    for name, text in (("club.tdt", td3.club_night()), ("freeze.tdt", td3.event_30())):
        (tmp_path / name).write_text(text, encoding="utf-8")
    call_command("import_td3", str(tmp_path), "--dry-run")
    out = capsys.readouterr().out
    assert "dry run: nothing was written" in out and "club.tdt: Club Night 20240315" in out
    assert f"may be {typed.display_name} (person {typed.pk}" in out
    assert Person.objects.count() == 1 and not Tournament.objects.exists()
    row = next(line for line in out.splitlines() if f"(person {typed.pk}" in line).split(":")[0].removeprefix("row ")
    call_command("import_td3", str(tmp_path / "club.tdt"), str(tmp_path / "freeze.tdt"), "--same", f"{row}={typed.pk}")
    assert person_of(ANNA) == typed and Person.objects.count() == 5
    capsys.readouterr()
    call_command("import_td3", str(tmp_path))
    assert "created: 0 · updated: 0" in capsys.readouterr().out


def test_the_command_refuses_a_broken_file_with_status_one(tmp_path, capsys):
    (tmp_path / "ok.tdt").write_text(td3.event_30(), encoding="utf-8")
    (tmp_path / "broken.tdt").write_text("{ V: \"3.7.2\", T: new Tournament({Title: 'x'", encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        call_command("import_td3", str(tmp_path))
    assert exit_.value.code == 1 and "broken.tdt" in capsys.readouterr().err
    assert not Tournament.objects.exists()


def test_the_api_previews_several_files_and_imports_them(director):
    api = client_for(director)

    def uploads():
        out = []
        for name, text in (("club.tdt", td3.club_night()), ("freeze.tdt", td3.event_30())):
            f = io.BytesIO(text.encode())
            f.name = name
            out.append(f)
        return out

    r = api.post("/api/v1/imports/td3/preview/", {"file": uploads()}, format="multipart")
    assert r.status_code == 200, r.content[:300]
    shown = {f["file"]: f for f in r.json()["files"]}
    assert shown["club.tdt"]["places"] == 5 and shown["club.tdt"]["players_new"] == 5 and shown["club.tdt"]["league"] == "Thursday League"
    assert shown["club.tdt"]["prizes"] == "660" and shown["club.tdt"]["rebuys"] == 1 and shown["club.tdt"]["entries"] == 6
    assert not Tournament.objects.exists()
    r = api.post("/api/v1/imports/td3/", {"file": uploads()}, format="multipart")
    assert r.status_code == 201 and Tournament.objects.count() == 2
    assert api.get("/api/v1/exports/td3/").json()["code"] == "no_export"
    broken = io.BytesIO(td3.club_night()[:3000].encode())
    broken.name = "half.tdt"
    r = api.post("/api/v1/imports/td3/preview/", {"file": [*uploads(), broken]}, format="multipart")
    assert r.status_code == 400 and r.json()["code"] == "td3_refused" and "half.tdt" in r.json()["detail"]


def test_the_league_continues_with_td3s_points_and_exports_by_its_name(actor, tmp_path):
    run(bundle(("club.tdt", td3.club_night())), actor)
    series = Series.objects.get(name="Thursday League")
    assert series.scoring == "TD3" and series.season_names == {"1": "2024"}
    event = model.event_of(reader.load(td3.club_night()))
    expected = {
        uuid: float(formula.points(event.points_formula, formula.variables_for(event, event.player(uuid)))) for uuid in (ANNA, BRUNO, CARLA, DARIO, ELENA)
    }
    got = {Td3Player.objects.get(person_id=r.person_id).uuid: r.points for r in SeriesResult.objects.all()}
    assert got == expected
    # n - r + 1, and ten points a hit for the winner: Anna 5 + 3 hits... as TD3's formula says.
    assert got[ANNA] == 5 + 10 * 2.5 and got[DARIO] == 3 + 1
    standings = selectors.standings(series, 1)
    assert standings[0].player == person_of(ANNA).pk
    out = tmp_path / "league.csv"
    call_command("export_league", str(out), "--option", "league=Thursday League", "--option", "season=2024")
    assert "Club Night 20240315" in out.read_text(encoding="utf-8-sig")


def test_the_moving_in_page_takes_several_files_in_italian_previews_and_confirms(director, make_person):
    typed = make_person("Carla", "Neri", nickname="Carla")
    page = Client()
    page.force_login(director)
    home = page.get("/imports/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Da The Tournament Director" in home
    form = page.get("/imports/td3/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert 'multiple accept=".tdt,.zip"' in form and "Esporta" not in form
    uploads = []
    for name, text in (("club.tdt", td3.club_night()), ("next.tdt", td3.planned())):
        f = io.BytesIO(text.encode())
        f.name = name
        uploads.append(f)
    preview = page.post("/imports/td3/", {"file": uploads}, HTTP_ACCEPT_LANGUAGE="it")["Location"]
    html = page.get(preview, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    files_table = html.split('id="import-files"')[1].split("</section>")[0]
    assert "club.tdt" in files_table and "Club Night 20240315" in files_table and "giocato" in files_table and "programmato" in files_table
    assert "Thursday League" in files_table and "660" in files_table
    # Carla of the file has no TD3 id here: the person typed here with her nickname is only proposed;
    # left undecided, she comes in as a new person.
    duplicates = html.split('id="rows-duplicate"')[1].split("</section>")[0]
    assert "Carla Neri (Carla)" in duplicates and "stesso soprannome o nome" in duplicates and 'value="skip"' not in duplicates
    assert not Tournament.objects.exists()
    page.post(preview, {"op": "import"})
    assert Tournament.objects.count() == 2 and Person.objects.count() == 6 and typed.td3_ids.count() == 0


@pytest.mark.skipif(not td3.has_shared(), reason=td3.NO_SHARED)
def test_a_real_leagues_history_comes_in_with_the_places_and_prizes_td3_awarded(actor):
    loaded = [(path.name, path.read_bytes()) for path in sorted((td3.SHARED / "orf").glob("*.tdt"))]
    run(files.bundle(loaded), actor)
    events = {name: model.event_of(reader.load(data)) for name, data in loaded}
    person = dict(Td3Player.objects.values_list("uuid", "person_id"))
    assert Person.objects.count() == len({p.uuid for e in events.values() for p in e.players})
    # The league's two "Daniel N": two TD3 ids, two people.
    assert Person.objects.filter(last_name="Daniel N").count() == 2
    for row in Td3Event.objects.select_related("tournament"):
        event = events[row.filename]
        if event.state != model.FINISHED:
            assert row.tournament.status == Tournament.PLANNED
            continue
        placed = dict(row.tournament.entries.filter(place__isnull=False).values_list("person_id", "place"))
        for prize in event.prizes:
            for uuid in prize.awarded_to if prize.place and len(prize.awarded_to) == 1 else ():
                assert placed[person[uuid]] == prize.place, row.filename
        paid = sum(PrizePayment.objects.filter(tournament=row.tournament).values_list("amount", flat=True), Decimal(0))
        assert paid == sum((p.amount for p in event.prizes if p.awarded_to), Decimal(0)), row.filename
    before = stored()
    run(files.bundle(loaded), actor)
    assert stored() == before


def test_a_planned_event_started_here_is_not_rewritten_by_its_file_saved_later(actor):
    run(bundle(("next.tdt", td3.planned())), actor)
    t = Tournament.objects.get()
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.RUNNING)  # the room started it here
    played = td3.planned().replace('Title: "Club Night 20251023"', 'Title: "Club Night 20251023", StartTime: 1700000000000, EndTime: 1700000600000')
    event = model.event_of(reader.load(played))
    assert event.state == model.FINISHED
    before = stored()
    p = run(bundle(("next.tdt", played)), actor)
    assert p.files[0]["status"] == "unchanged" and "played or sold here" in p.files[0]["reason"]
    assert stored() == before


def test_role03_an_imported_event_s_winners_report_ends_with_td3_s_entries_and_fees_said_to_be_imported(actor):
    """Club night, as TD3 recorded it: 6 entries, 1 rebuy, 1 add-on, 70.00 of fees, a pot of 700."""
    run(bundle(("club.tdt", td3.club_night())), actor)
    t = Tournament.objects.get()
    totals = [(str(k), str(v)) for k, v in reports.standings(t)["totals"]]
    assert totals[0][0] == "Prize pool" and totals[0][1].startswith("700.00")
    assert totals[-5:] == [
        ("Entries", "6"),
        ("Rebuys", "1"),
        ("Add-ons", "1"),
        ("Fees", "70.00"),
        ("Imported from The Tournament Director", "as TD3 recorded them: the room's archives, no money moved here"),
    ]
