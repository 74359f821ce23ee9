"""People brought in from a room's spreadsheet, as a director has them: Excel's Italian CSV
(semicolons, Windows-1252 or UTF-8 with its mark), comma CSV, XLSX; Italian or English headers;
dates as dd/mm/yyyy; phones with spaces and +39. The preview's categories, duplicates by each key
the desk's check compares, all or nothing, twice changes nothing, the round trip, formula cells,
bans and consent, the page, the API and the management commands."""

import datetime as dt
import io
import re

import openpyxl
import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from tdmanager.errors import DomainError
from tests.conftest import client_for
from tournaments.imports import services as import_services
from tournaments.models import Person, TournamentEvent

pytestmark = pytest.mark.django_db

ITALIAN_HEADER = "Cognome;Nome;Soprannome;Telefono;Email;Documento;Data di nascita;Note;Escluso;Motivo esclusione;Consenso privacy\r\n"


def italian_csv(*lines: str, encoding="cp1252") -> bytes:
    text = ITALIAN_HEADER + "".join(line + "\r\n" for line in lines)
    data = text.encode(encoding)
    return b"\xef\xbb\xbf" + data if encoding == "utf-8" else data


def xlsx(rows) -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def people():
    return {(p.last_name, p.first_name): p for p in Person.objects.all()}


def test_an_italian_excel_csv_in_windows_1252_comes_in_with_its_dates_phones_bans_and_consent(actor):
    data = italian_csv(
        "Rossi;Niccolò;Nico;+39 333 123 4567;nico@esempio.it;CA1234567;03/02/1980;Tavolo fisso;no;;12/01/2024",
        "Bianchi;Anna;;0521 23 45 67;;;;;sì;Autoesclusione;sì",
    )
    p = import_services.preview("people", data, "soci.csv")
    assert p.counts()["created"] == 2 and p.counts()["refused"] == 0
    import_services.run_import("people", data, "soci.csv", actor=actor)
    rossi, bianchi = people()["Rossi", "Niccolò"], people()["Bianchi", "Anna"]
    assert (rossi.nickname, rossi.phone, rossi.email, rossi.document_id) == ("Nico", "+39 333 123 4567", "nico@esempio.it", "CA1234567")
    assert rossi.birth_date == dt.date(1980, 2, 3) and rossi.privacy_consent == dt.date(2024, 1, 12) and not rossi.banned
    assert bianchi.banned and bianchi.banned_reason == "Autoesclusione" and bianchi.privacy_consent == timezone.localdate()
    from tournaments.people.services import search_people

    assert [x.pk for x in search_people("333 1234")] == [rossi.pk]  # the desk finds him by the phone's national number


def test_utf8_with_its_mark_a_comma_csv_in_english_and_an_xlsx_read_alike(actor):
    utf8 = italian_csv("Verdi;Gianluca;;;;;;;;;", encoding="utf-8")
    comma = b"Last name,First name,Phone,Date of birth\r\nNeri,Carla,+39 347 000 1111,1975-06-30\r\n"
    book = xlsx([["COGNOME", "nome", "Data di Nascita", "Telefono"], ["Gialli", "Ugo", dt.datetime(1990, 5, 17), 3471234567]])
    for data, name in ((utf8, "a.csv"), (comma, "b.csv"), (book, "c.xlsx")):
        assert import_services.run_import("people", data, name, actor=actor).counts()["created"] == 1
    got = people()
    assert got["Verdi", "Gianluca"].first_name == "Gianluca"  # "ù" read from UTF-8, the mark not in the first header
    assert got["Neri", "Carla"].birth_date == dt.date(1975, 6, 30) and got["Neri", "Carla"].phone == "+39 347 000 1111"
    assert got["Gialli", "Ugo"].birth_date == dt.date(1990, 5, 17) and got["Gialli", "Ugo"].phone == "3471234567"


def test_the_preview_sorts_each_row_and_names_the_refused_ones_by_their_row(actor, make_person):
    same = make_person("Mario", "Rossi", phone="+39 333 111 2222")
    Person.objects.filter(pk=same.pk).update(birth_date=dt.date(1970, 1, 1))
    make_person("Luca", "Bruni", document_id="AB123")
    data = italian_csv(
        "Rossi;Mario;;+39 333 111 2222;;;01/01/1970;;;;",  # 2: the same person, nothing new
        "Rossi;Mario;Il Baffo;;;;01/01/1970;;;;",  # 3: the same (name and birth date), a nickname added
        "Verdi;Sara;;;sara@x;;;;;;",  # 4: refused: no e-mail
        "Bianco;Ettore;;;;ab 123;;;;;",  # 5: the document of Luca Bruni: a possible duplicate
        "Nuovo;Nome;;;;;31/02/1990;;;;",  # 6: refused: no such date
        ";Senza;;;;;;;;;",  # 7: refused: no last name
        "Nuovo;Davvero;;;;;;;;;",  # 8: created
    )
    p = import_services.preview("people", data, "soci.csv")
    by_row = {r.line: r for r in p.rows}
    assert by_row[2].status == "unchanged"
    assert by_row[3].status == "updated" and by_row[3].changes == {"nickname": ("", "Il Baffo")}
    assert by_row[4].status == "refused" and "sara@x" in by_row[4].reason
    assert by_row[5].status == "duplicate" and by_row[5].matches[0][1] == "Luca Bruni" and by_row[5].matches[0][2] == "same document"
    assert by_row[6].status == "refused" and "31/02/1990" in by_row[6].reason
    assert by_row[7].status == "refused" and by_row[7].reason == "The last name is missing."
    assert by_row[8].status == "created"
    assert p.counts() == {"created": 1, "updated": 1, "unchanged": 1, "duplicate": 1, "refused": 3}


@pytest.mark.parametrize(
    ("stored", "row", "by"),
    [
        ({"document_id": "CA 999 ZZ"}, "Altro;Nome;;;;ca999zz;;;;;", "same document"),
        ({"phone": "333 444 5555"}, "Altro;Nome;;+39 333-444-5555;;;;;;;", "same phone"),
        ({"email": "Anna@Club.it"}, "Altro;Nome;;;anna@club.it;;;;;;", "same e-mail"),
        ({}, "Rossi;Anna;;;;;02/02/1982;;;;", "same name"),  # the same name, born another day: another Anna Rossi?
    ],
)
def test_a_possible_duplicate_is_found_by_each_key_and_left_out_unless_accepted(actor, make_person, stored, row, by):
    anna = make_person("Anna", "Rossi", **stored)
    Person.objects.filter(pk=anna.pk).update(birth_date=dt.date(1981, 1, 1))
    data = italian_csv(row)
    p = import_services.preview("people", data, "a.csv")
    assert p.rows[0].status == "duplicate" and p.rows[0].matches[0][0] == anna.pk and p.rows[0].matches[0][2] == by
    import_services.run_import("people", data, "a.csv", actor=actor)
    assert Person.objects.count() == 1  # left out
    if by == "same document":  # never a second person with one document, unless chosen as the same
        with pytest.raises(DomainError) as refused:
            import_services.run_import("people", data, "a.csv", actor=actor, accept_duplicates=True)
        assert refused.value.code == "duplicate_document" and "Anna Rossi" in refused.value.extra["refused"][0]["reason"]
        assert Person.objects.count() == 1
        return
    import_services.run_import("people", data, "a.csv", actor=actor, accept_duplicates=True)
    assert Person.objects.count() == 2


def test_the_same_name_with_the_same_birth_date_phone_or_email_is_the_person_updated(actor, make_person):
    anna = make_person("Anna", "Rossi", email="anna@club.it")
    p = import_services.preview("people", italian_csv("ROSSI;anna;;+39 340 1;ANNA@club.it;;;;;;"), "a.csv")
    assert p.rows[0].status == "updated" and p.rows[0].target.pk == anna.pk and p.rows[0].changes == {"phone": ("", "+39 340 1")}


def test_rows_are_matched_by_the_desks_duplicate_rule_names_in_any_script_by_their_letters(actor, make_person):
    """The import asks the rule the desk's warning asks (``people.rules.alike``): a name is its
    letters in any script, so a Cyrillic name is not every other one; the same name again, with
    nothing new, is the person already in."""
    ivan = make_person("Иван", "Петров")
    p = import_services.preview("people", italian_csv("Сидоров;Олег;;;;;;;;;", "ПЕТРОВ;иван;;;;;;;;;", encoding="utf-8"), "a.csv")
    assert [r.status for r in p.rows] == ["created", "unchanged"] and p.rows[1].target.pk == ivan.pk


def test_two_rows_of_one_file_that_are_one_person_bring_in_one(actor):
    p = import_services.preview("people", italian_csv("Rossi;Anna;;;a@b.it;;;;;;", "Rossi;Anna;;;a@b.it;;;;;;"), "a.csv")
    assert [r.status for r in p.rows] == ["created", "duplicate"] and "row 2" in p.rows[1].matches[0][2]


#: a room's export as it comes: a row twice, a family's one phone, a shared e-mail, a person twice
ROOM_WITH_TWINS = (
    "Rossi;Anna;;;;;;;;;",  # 2
    "Rossi;Anna;;;;;;;;;",  # 3: row 2 again
    "Bianchi;Mario;;+39 333 111 2222;;;;;;;",  # 4
    "Bianchi;Luisa;;333 111 2222;;;;;;;",  # 5: row 4's phone, another person
    "Verdi;Ugo;;;ugo@club.it;;;;;;",  # 6
    "Neri;Ada;;;UGO@club.it;;;;;;",  # 7: row 6's e-mail, another person
    "Gialli;Eva;;;;;01/02/1980;;;;",  # 8
    "GIALLI;eva;Evi;;;;01/02/1980;;;;",  # 9: row 8 (the same name and date of birth), with a nickname
)
#: each later row: the earlier row it is shown as a duplicate of, and what they share
TWINS = {
    3: (2, "Anna Rossi", "row 2 of this file, same name"),
    5: (4, "Mario Bianchi", "row 4 of this file, same phone"),
    7: (6, "Ugo Verdi", "row 6 of this file, same e-mail"),
    9: (8, "Eva Gialli", "row 8 of this file, same name and date of birth"),
}


def test_the_page_shows_rows_of_one_file_as_duplicates_of_each_other_and_imports_each_person_once(director):
    page = Client()
    page.force_login(director)
    upload = io.BytesIO(italian_csv(*ROOM_WITH_TWINS))
    upload.name = "sala.csv"
    preview = page.post("/imports/people/", {"file": upload})["Location"]
    r = page.get(preview)
    assert r.status_code == 200
    html = r.content.decode()
    duplicates = html.split('id="rows-duplicate"')[1].split("</section>")[0]
    listed = dict(re.findall(r"<tr><td>(\d+)</td><td>.*?</td>\s*<td>(.*?)</td>\s*<td><select", duplicates, re.S))
    shown = {line: f"{name} ({by})" for line, (_n, name, by) in TWINS.items()}
    shown[9] += " · Nickname: — → Evi"  # what it would add to row 8's person
    assert {int(line): text for line, text in listed.items()} == shown
    assert 'data-status="created">To create: <strong>4</strong>' in html and 'data-status="duplicate">Possible duplicates: <strong>4</strong>' in html
    assert page.post(preview, {"op": "import"}).status_code == 302
    assert sorted(Person.objects.values_list("last_name", "first_name")) == [("Bianchi", "Mario"), ("Gialli", "Eva"), ("Rossi", "Anna"), ("Verdi", "Ugo")]
    assert "4 added, 0 updated, 0 already in, 4 left out" in page.get(preview, follow=True).content.decode()


def test_the_api_previews_rows_of_one_file_as_duplicates_and_accepted_brings_each_person_once(director, make_person):
    make_person("Rosa", "Bianchi", phone="333 999 8888")
    twice = "Bianchi;Franco;;333 999 8888;;;;;;;"  # Rosa's phone: a possible duplicate of her, and in the file twice
    data = italian_csv(*ROOM_WITH_TWINS, twice, twice)
    api = client_for(director)
    upload = io.BytesIO(data)
    upload.name = "sala.csv"
    r = api.post("/api/v1/imports/people/preview/", {"file": upload}, format="multipart")
    assert r.status_code == 200, r.content[:300]
    rows = {row["row"]: row for row in r.json()["rows"]}
    for line, (earlier, name, by) in TWINS.items():
        assert rows[line]["status"] == "duplicate" and rows[line]["matches"][0] == {"id": None, "row": earlier, "name": name, "by": by}
    assert rows[9]["changes"] == {"nickname": {"old": "", "new": "Evi"}}  # what it would add to row 8's person
    assert rows[10]["matches"][0]["name"] == "Rosa Bianchi" and rows[10]["matches"][0]["by"] == "same phone"
    assert rows[11]["matches"][0] == {"id": None, "row": 10, "name": "Franco Bianchi", "by": "row 10 of this file, same name and phone"}
    assert rows[11]["matches"][1]["name"] == "Rosa Bianchi"
    # the director imports the possible duplicates: the other people are created, a person twice is one
    upload.seek(0)
    r = api.post("/api/v1/imports/people/", {"file": upload, "accept_duplicates": "true"}, format="multipart")
    assert r.status_code == 201, r.content[:300]
    assert r.json()["counts"] == {"created": 7, "updated": 1, "unchanged": 2, "duplicate": 0, "refused": 0}
    assert sorted(Person.objects.values_list("last_name", "first_name", "nickname")) == [
        ("Bianchi", "Franco", ""),
        ("Bianchi", "Luisa", ""),
        ("Bianchi", "Mario", ""),
        ("Bianchi", "Rosa", ""),
        ("Gialli", "Eva", "Evi"),
        ("Neri", "Ada", ""),
        ("Rossi", "Anna", ""),
        ("Verdi", "Ugo", ""),
    ]


def test_a_refused_row_in_the_middle_leaves_nothing_written(actor):
    data = italian_csv("Uno;A;;;;;;;;;", "Due;B;;;non-una-mail;;;;;;", "Tre;C;;;;;;;;;")
    events = TournamentEvent.objects.count()
    with pytest.raises(Exception) as refused:
        import_services.run_import("people", data, "a.csv", actor=actor)
    assert refused.value.code == "rows_refused" and refused.value.extra["refused"] == [{"row": 3, "reason": refused.value.extra["refused"][0]["reason"]}]
    assert Person.objects.count() == 0 and TournamentEvent.objects.count() == events
    import_services.run_import("people", data, "a.csv", actor=actor, skip_refused=True)
    assert sorted(Person.objects.values_list("last_name", flat=True)) == ["Tre", "Uno"]


def test_importing_the_same_file_twice_changes_nothing(actor):
    data = italian_csv("Rossi;Niccolò;Nico;+39 333 123 4567;nico@esempio.it;CA1;03/02/1980;;sì;Debiti;12/01/2024", "Solo;Nome;;;;;;;;;")
    import_services.run_import("people", data, "a.csv", actor=actor)
    before = list(Person.objects.order_by("pk").values())
    again = import_services.run_import("people", data, "a.csv", actor=actor)
    assert again.counts() == {"created": 0, "updated": 0, "unchanged": 2, "duplicate": 0, "refused": 0}
    assert list(Person.objects.order_by("pk").values()) == before


def test_an_import_brings_a_ban_in_but_never_lifts_one(actor, make_person):
    banned = make_person("Ugo", "Neri", document_id="X1")
    Person.objects.filter(pk=banned.pk).update(banned=True, banned_reason="Rissa")
    p = import_services.run_import("people", italian_csv("Neri;Ugo;;;;X1;;;no;;"), "a.csv", actor=actor)
    assert p.rows[0].status == "unchanged"
    banned.refresh_from_db()
    assert banned.banned and banned.banned_reason == "Rissa"


def test_a_cell_that_starts_a_formula_is_stored_as_text_and_exported_as_text(actor):
    book = xlsx([["Cognome", "Nome", "Note"], ["Rossi", "Anna", '=HYPERLINK("http://x","clic")'], ["Verdi", "=1+1", "@SUM(A1)"]])
    import_services.run_import("people", book, "a.xlsx", actor=actor)
    got = people()
    assert got["Rossi", "Anna"].notes == '=HYPERLINK("http://x","clic")' and got["Verdi", "=1+1"].notes == "@SUM(A1)"
    api = client_for(actor.user)
    csv_text = api.get("/api/v1/exports/people/?format_type=csv").content.decode("utf-8-sig")
    assert "'=HYPERLINK" in csv_text and "'@SUM(A1)" in csv_text and "'=1+1" in csv_text
    sheet = openpyxl.load_workbook(io.BytesIO(api.get("/api/v1/exports/people/?format_type=xlsx").content)).active
    cells = [c for row in sheet.iter_rows() for c in row if isinstance(c.value, str) and c.value.startswith(("=", "@"))]
    assert len(cells) == 3 and all(c.data_type == "s" for c in cells)


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_an_export_imported_into_an_empty_room_gives_the_same_people(actor, fmt, settings):
    data = italian_csv(
        "Rossi;Niccolò;Nico;+39 333 123 4567;nico@esempio.it;CA1234567;03/02/1980;Riga uno;no;;12/01/2024",
        "Bianchi;Anna;;;;;;;sì;Autoesclusione;",
        'D\'Amico;Léa;"=cmd";;;;;;;;',
    )
    import_services.run_import("people", data, "a.csv", actor=actor)
    Person.objects.filter(last_name="Bianchi").update(hide_from_lookup=True)
    fields = (
        "last_name",
        "first_name",
        "nickname",
        "phone",
        "email",
        "document_id",
        "birth_date",
        "notes",
        "banned",
        "banned_reason",
        "privacy_consent",
        "hide_from_lookup",
    )
    before = sorted(Person.objects.values_list(*fields))
    exported = client_for(actor.user).get(f"/api/v1/exports/people/?format_type={fmt}").content
    Person.objects.all().delete()
    assert import_services.run_import("people", exported, f"people.{fmt}", actor=actor).counts()["created"] == 3
    assert sorted(Person.objects.values_list(*fields)) == before


def test_the_page_reads_maps_previews_and_imports_with_a_refused_rows_file(director, settings):
    page = Client()
    page.force_login(director)
    data = b"Surname;Given;Mail\r\nRossi;Anna;anna@x.it\r\nVerdi;Ugo;bad\r\n"
    upload = io.BytesIO(data)
    upload.name = "club.csv"
    r = page.post("/imports/people/", {"file": upload})
    assert r.status_code == 302
    preview = r["Location"]
    html = page.get(preview).content.decode()
    assert "Preview of club.csv" in html and 'value="first_name"' in html
    # "Given" is no header the import knows: the director reads it as the first name
    page.post(preview, {"op": "mapping", "column": ["last_name", "first_name", "email"]})
    html = page.get(preview).content.decode()
    assert "Ugo" in html and "bad" in html and "1 row is refused" in html
    refused = page.get(preview + "refused.csv").content.decode("utf-8-sig")
    assert refused.splitlines()[0] == "Row,Reason,Surname,Given,Mail" and refused.splitlines()[1].startswith("3,")
    r = page.post(preview, {"op": "import"})
    assert Person.objects.count() == 0  # refused rows: nothing
    page.post(preview, {"op": "import", "skip_refused": "1"})
    assert list(Person.objects.values_list("first_name", "last_name", "email")) == [("Anna", "Rossi", "anna@x.it")]
    assert "is imported" in page.get(preview).content.decode()


def test_only_a_director_imports_or_exports(cashier_user, floor_user):
    for user in (cashier_user, floor_user):
        api = client_for(user)
        assert api.get("/api/v1/exports/people/?format_type=csv").status_code == 403
        page = Client()
        page.force_login(user)
        assert page.get("/imports/people/").status_code == 403
    assert APIClient().post("/api/v1/imports/people/preview/", {}).status_code in (401, 403)


def test_the_api_previews_imports_and_refuses_with_the_rows(director):
    api = client_for(director)
    good, bad = io.BytesIO(b"Cognome;Nome\r\nRossi;Anna\r\n"), io.BytesIO(b"Cognome;Nome;Email\r\nRossi;Anna;x\r\n")
    good.name, bad.name = "a.csv", "b.csv"
    r = api.post("/api/v1/imports/people/preview/", {"file": good}, format="multipart")
    assert r.status_code == 200 and r.json()["counts"]["created"] == 1 and r.json()["mapping"] == ["last_name", "first_name"]
    r = api.post("/api/v1/imports/people/", {"file": bad}, format="multipart")
    assert r.status_code == 409 and r.json()["code"] == "rows_refused" and r.json()["refused"][0]["row"] == 2
    good.seek(0)
    r = api.post("/api/v1/imports/people/", {"file": good}, format="multipart")
    assert r.status_code == 201 and r.json()["counts"]["created"] == 1
    odd = io.BytesIO(b"%PDF-1.4 a document, not a sheet")
    odd.name = "x.pdf"
    r = api.post("/api/v1/imports/people/preview/", {"file": odd}, format="multipart")
    assert r.status_code == 400 and r.json()["code"] == "bad_format" and r.json()["field"] == "file"
    r = api.post("/api/v1/imports/people/preview/", {"file": io.BytesIO(b"a"), "mapping": "[1]"}, format="multipart")
    assert r.status_code == 400 and r.json()["field"] in ("mapping", "file")
    assert api.post("/api/v1/imports/nothing/preview/", {}, format="multipart").json()["code"] == "bad_kind"


def test_the_commands_dry_run_refuse_skip_and_say_so_by_their_exit(tmp_path, director, capsys):
    path = tmp_path / "soci.csv"
    path.write_bytes(italian_csv("Uno;A;;;;;;;;;", "Due;B;;;x;;;;;;"))
    with pytest.raises(SystemExit) as dry:
        call_command("import_people", str(path), "--dry-run")
    out = capsys.readouterr().out
    assert dry.value.code == 1 and "row 3:" in out and "dry run: nothing was written" in out and Person.objects.count() == 0
    with pytest.raises(SystemExit) as refused:
        call_command("import_people", str(path))
    assert refused.value.code == 1 and Person.objects.count() == 0
    call_command("import_people", str(path), "--skip-refused")
    assert Person.objects.count() == 1
    call_command("import_people", str(path), "--skip-refused")  # already in: a success that changes nothing
    assert Person.objects.count() == 1 and "unchanged: 1" in capsys.readouterr().out
    out_file = tmp_path / "people.xlsx"
    call_command("export_people", str(out_file))
    assert openpyxl.load_workbook(out_file).active["A2"].value == "Uno"


def test_an_xlsx_is_sent_whole_through_the_api_and_the_page_and_a_csv_with_a_nul_is_refused(director):
    book = openpyxl.Workbook()
    book.active.append(["Cognome", "Nome", "Note"])
    book.active.append(["Rossi", "Anna", "prima e dopo"])
    out = io.BytesIO()
    book.save(out)
    data = out.getvalue()
    assert b"\x00" in data  # a zip's bytes: the NUL guard lets a workbook through, no other file
    upload = io.BytesIO(data)
    upload.name = "soci.xlsx"
    r = client_for(director).post("/api/v1/imports/people/", {"file": upload}, format="multipart")
    assert r.status_code == 201, r.json()
    assert Person.objects.get().notes == "prima e dopo"
    page = Client()
    page.force_login(director)
    upload.seek(0)
    assert page.post("/imports/people/", {"file": upload}).status_code == 302
    text = io.BytesIO(b"Cognome;Nome\r\nRossi;A\x00na\r\n")
    text.name = "soci.csv"
    assert client_for(director).post("/api/v1/imports/people/preview/", {"file": text}, format="multipart").json()["code"] == "nul_character"


def test_an_uploaded_sheet_is_forgotten_after_its_time_and_its_bytes_once_imported(director):
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.eventlog.services import Actor
    from tournaments.models import ImportFile
    from tournaments.tasks import forget_import_files

    actor = Actor(director)
    old = import_services.keep_file("people", italian_csv("Rossi;Anna;;;;;;;;;"), "a.csv", actor=actor)
    fresh = import_services.keep_file("people", italian_csv("Bianchi;Ada;;;;;;;;;"), "c.csv", actor=actor)
    ImportFile.objects.filter(pk=old.pk).update(created_at=timezone.now() - import_services.KEPT_FOR - timedelta(minutes=1))
    forget_import_files()  # beat's task: no upload needed for the old one to go
    assert list(ImportFile.objects.values_list("pk", flat=True)) == [fresh.pk]
    kept = import_services.keep_file("people", italian_csv("Verdi;Ugo;;;;;;;;;"), "b.csv", actor=actor)
    import_services.import_kept(kept, actor=actor)
    kept.refresh_from_db()
    assert bytes(kept.data) == b"" and kept.result["created"] == 1


def room_of(n: int, start: int = 0) -> bytes:
    return italian_csv(
        *(
            f"Cognome{i};Nome{i % 97};{'nick%d' % i if i % 3 == 0 else ''};+39 3{i % 10}0 {i:07d};p{i}@esempio.it;CA{i:07d};"
            f"{1 + i % 28:02d}/{1 + i % 12:02d}/{1950 + i % 50};;{'sì' if i % 50 == 0 else 'no'};;"
            for i in range(start, start + n)
        )
    )


def test_ten_thousand_people_come_in_with_as_many_queries_as_ten(actor):
    """The benchmark's 10,000 rows stand within its figure only if no step costs a query a row: the
    preview reads the stored people once, the import writes them in batches. Ten people and then
    10,000 (against the ten stored) take the same queries but for the INSERTs' batches."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries(data):
        with CaptureQueriesContext(connection) as preview:
            assert import_services.preview("people", data, "soci.csv").counts()["created"] == data.count(b"\r\n") - 1
        with CaptureQueriesContext(connection) as written:
            import_services.run_import("people", data, "soci.csv", actor=actor)
        return len(preview), len(written)

    few = queries(room_of(10))
    many = queries(room_of(10_000, start=10))
    assert Person.objects.count() == 10_010 and Person.objects.filter(banned=True).count() == 201
    assert many[0] == few[0], (few, many)  # the preview: one read of the people, however many rows
    assert many[1] <= few[1] + 10_000 // 50, (few, many)  # the import: INSERTs of many rows each (SQLite: its variables' limit)
    assert import_services.preview("people", room_of(10_000, start=10), "soci.csv").counts()["unchanged"] == 10_000


def test_a_downloaded_refused_rows_file_comes_back_without_its_row_and_reason_columns(actor):
    """The refused rows, downloaded in Italian ("Riga", "Motivo"), corrected and imported again:
    the two columns of the refusal are read as nothing, never as the ban's reason."""
    from django.utils import translation

    from tournaments.imports import rules as import_rules

    data = italian_csv("Verdi;Sara;;;sara@x;;;;;;", "Nuovo;Nome;;;;;31/02/1990;;;;")
    with translation.override("it"):
        p = import_services.preview("people", data, "soci.csv")
        sheet = import_rules.refused_sheet(p, "csv").decode("utf-8-sig")
    assert sheet.splitlines()[0].startswith("Riga;Motivo;Cognome;Nome")
    corrected = sheet.replace("sara@x", "sara@example.org").replace("31/02/1990", "28/02/1990").encode("utf-8")
    with translation.override("it"):
        again = import_services.preview("people", corrected, "rifiutate.csv")
    assert again.mapping[:2] == ["", ""]
    assert [r.status for r in again.rows] == ["created", "created"]
    assert all(not r.values.get("banned_reason") for r in again.rows)


def test_the_people_export_speaks_the_askers_language_and_comes_back_in(actor, make_person):
    from django.utils import translation

    from tournaments.imports import rules as import_rules

    make_person("Nicolò", "Bèrtoli", phone="+39 333 111 2222")
    with translation.override("it"):
        data, name = import_rules.export_file("people", "csv", {})
    assert data.decode("utf-8-sig").splitlines()[0].startswith("Cognome;Nome;Nickname;Telefono")
    assert import_services.preview("people", data, name).counts()["unchanged"] == 1


def test_the_api_imports_each_possible_duplicate_as_chosen_on_its_row(director, make_person):
    """A namesake is another person ("new"), a row that is a stored person brings its cells to
    him (his id), a row left out stays out ("skip"); a choice that is none of these is a 400
    naming the field; a new person with another's document is refused, nothing written."""
    import json

    anna = make_person("Anna", "Rossi")
    Person.objects.filter(pk=anna.pk).update(birth_date=dt.date(1981, 1, 1))
    sara = make_person("Sara", "Gallo", document_id="CA 999 ZZ")
    data = italian_csv(
        "Rossi;Anna;;;;;02/02/1982;;;;",  # 2: a namesake born another day
        "Gallo;Sara;Saretta;;;;;;;;",  # 3: Sara by her name alone, bringing a nickname
        "Martelli;Ugo;;;;CA999ZZ;;;;;",  # 4: Sara's document under another name
    )
    api = client_for(director)

    def send(choices):
        upload = io.BytesIO(data)
        upload.name = "sala.csv"
        return api.post("/api/v1/imports/people/", {"file": upload, "choices": json.dumps(choices)}, format="multipart")

    r = send({"2": "new", "3": str(sara.pk), "4": "new"})
    assert r.status_code == 409 and r.json()["code"] == "duplicate_document"
    assert r.json()["refused"] == [{"row": 4, "reason": "Its document is Sara Gallo's: choose that person as the same one, or leave the row out."}]
    assert Person.objects.count() == 2
    assert send({"2": "new", "4": "maybe"}).json()["code"] == "bad_choice"
    r = send({"2": "new", "3": str(sara.pk), "4": "skip"})
    assert r.status_code == 201, r.content[:300]
    assert r.json()["counts"] == {"created": 1, "updated": 1, "unchanged": 0, "duplicate": 1, "refused": 0}
    sara.refresh_from_db()
    assert sara.nickname == "Saretta" and Person.objects.filter(last_name="Rossi").count() == 2
    assert not Person.objects.filter(last_name="Martelli").exists()
