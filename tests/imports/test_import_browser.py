"""The people's import in a browser, in Italian, as a director moving in lives it: his Excel file
read, a column he maps by hand, the preview with a refused row and a possible duplicate, the
refused rows downloaded, the import leaving them out; axe reads each page."""

import pytest
from playwright.sync_api import expect

from tests.browser import browser, browser_page, login, new_page  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tests.test_axe_browser import problems
from tournaments.models import Person

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_people_brought_in_from_an_italian_excel_file(browser_page, tmp_path):
    make_user("boss", "director")
    Person.objects.create(first_name="Luca", last_name="Bruni", document_id="AB123")
    sheet = tmp_path / "soci.csv"
    sheet.write_bytes(
        "Cognome;Nome;Cellulare privato;Documento;Email\r\nRossi;Niccolò;+39 333 123 4567;;\r\nVerdi;Ugo;;;non-una-mail\r\nBianco;Ettore;;ab 123;\r\n".encode(
            "cp1252"
        )
    )
    page = new_page(browser_page.context.browser, locale="it-IT")
    page.base_url = browser_page.base_url
    login(page, "boss", "pw-boss")
    page.goto(page.base_url + "/people/")
    with page.expect_navigation():
        page.get_by_role("link", name="Importa persone da un foglio di calcolo").click()
    expect(page.locator("h1")).to_have_text("Importa: Persone")
    assert problems(page, "import upload") == []
    page.get_by_label("File (CSV o XLSX, al massimo 10 MB)").set_input_files(str(sheet))
    with page.expect_navigation():
        page.get_by_role("button", name="Leggi il file").click()
    expect(page.locator("h1")).to_have_text("Anteprima di soci.csv")
    # "Cellulare privato" is no header the import knows: read as nothing until the director says
    column = page.get_by_label("Colonna Cellulare privato letta come")
    expect(column).to_have_value("")
    column.select_option(label="Telefono")
    with page.expect_navigation():
        page.get_by_role("button", name="Rileggi con queste colonne").click()
    counts = page.locator("#import-counts")
    expect(counts.locator("[data-status=created]")).to_have_text("Da creare: 1")
    expect(counts.locator("[data-status=duplicate]")).to_have_text("Possibili doppioni: 1")
    expect(counts.locator("[data-status=refused]")).to_have_text("Rifiutati: 1")
    expect(page.locator("#rows-refused")).to_contain_text("Email: «non-una-mail» non è un indirizzo email.")
    expect(page.locator("#rows-duplicate")).to_contain_text("Luca Bruni (stesso documento)")
    assert problems(page, "import preview") == []
    with page.expect_download() as download:
        page.get_by_role("link", name="Righe rifiutate (CSV)").click()
    refused = download.value.path().read_text(encoding="utf-8-sig").splitlines()
    assert refused[0].startswith("Riga;Motivo;Cognome") and refused[1].startswith("3;")
    with page.expect_navigation():
        page.get_by_role("button", name="Importa", exact=True).click()
    expect(page.locator("ul.messages")).to_contain_text("1 riga rifiutata: non è stato importato nulla")
    assert Person.objects.count() == 1
    page.get_by_label("Importa le altre righe, lasciando fuori quelle rifiutate").check()
    with page.expect_navigation():
        page.get_by_role("button", name="Importa", exact=True).click()
    expect(page.locator("ul.messages")).to_contain_text("Importato: 1 aggiunti")
    expect(page.locator("h1")).to_have_text("soci.csv è importato")
    assert problems(page, "import done") == []
    rossi = Person.objects.get(last_name="Rossi")
    assert (rossi.first_name, rossi.phone) == ("Niccolò", "+39 333 123 4567")


def test_a_league_import_sent_without_its_league_keeps_the_file_and_asks_for_the_league(browser_page, tmp_path, actor):
    """The league is chosen from the room's leagues, never typed: sent without it, the browser
    keeps the chosen file and asks for the league; with it, the preview opens. With no league
    yet, the page says so and sends nothing."""
    from decimal import Decimal

    from tournaments.formats.services import series as series_service

    make_user("boss", "director")
    page = new_page(browser_page.context.browser, locale="it-IT")
    page.base_url = browser_page.base_url
    login(page, "boss", "pw-boss")
    page.goto(page.base_url + "/imports/league/")
    expect(page.locator("#import-upload .tag.warn")).to_contain_text("non ce n'è ancora nessuna da scegliere")
    expect(page.get_by_role("button", name="Leggi il file")).to_be_disabled()

    league = series_service.create_series(name="Lega del giovedì", scoring="TABLE", points_table=[Decimal(25), Decimal(15)], actor=actor)
    sheet = tmp_path / "lega.csv"
    sheet.write_bytes("Data;Torneo;Cognome;Nome;Posizione;Punti\r\n12/09/2026;Tappa 1;Bianchi;Nicolò;1;25\r\n".encode("cp1252"))
    page.goto(page.base_url + "/imports/league/")
    assert problems(page, "league import upload") == []
    page.get_by_label("File (CSV o XLSX, al massimo 10 MB)").set_input_files(str(sheet))
    page.get_by_role("button", name="Leggi il file").click()  # no league chosen: the browser asks
    league_box = page.locator("#import-upload select[name=league]")
    assert league_box.evaluate("(s) => !s.checkValidity()")
    expect(page.locator("h1")).to_have_text("Importa: Risultati di lega")
    assert page.locator("#import-upload input[name=file]").evaluate("(f) => f.files.length") == 1  # the file is still chosen
    league_box.select_option(str(league.pk))
    with page.expect_navigation():
        page.get_by_role("button", name="Leggi il file").click()
    expect(page.locator("h1")).to_have_text("Anteprima di lega.csv")


def test_each_possible_duplicate_is_chosen_on_its_row_and_a_document_clash_is_said(browser_page, tmp_path):
    """In Italian: a real namesake imported as a new person, a document another holds refused
    with her name until the row is left out, and the page after the import says what was done."""
    import datetime as dt

    make_user("boss", "director")
    anna = Person.objects.create(first_name="Anna", last_name="Rossi", birth_date=dt.date(1981, 1, 1))
    Person.objects.create(first_name="Sara", last_name="Gallo", document_id="CA999ZZ")
    sheet = tmp_path / "sala.csv"
    sheet.write_bytes("Cognome;Nome;Documento;Data di nascita\r\nRossi;Anna;;02/02/1982\r\nMartelli;Ugo;ca999zz;\r\n".encode("cp1252"))
    page = new_page(browser_page.context.browser, locale="it-IT")
    page.base_url = browser_page.base_url
    login(page, "boss", "pw-boss")
    page.goto(page.base_url + "/imports/people/")
    page.get_by_label("File (CSV o XLSX, al massimo 10 MB)").set_input_files(str(sheet))
    with page.expect_navigation():
        page.get_by_role("button", name="Leggi il file").click()
    expect(page.locator("#import-counts")).to_contain_text("Possibili doppioni: 2")
    assert problems(page, "import preview with choices") == []
    page.get_by_label("Riga 2: importa come").select_option("new")
    page.get_by_label("Riga 3: importa come").select_option("new")  # Sara Gallo's document: refused
    with page.expect_navigation():
        page.get_by_role("button", name="Importa", exact=True).click()
    expect(page.locator("ul.messages")).to_contain_text("1 riga creerebbe una seconda persona con il documento di un'altra")
    expect(page.locator("ul.messages")).to_contain_text("Riga 3: Il suo documento è di Sara Gallo")
    assert Person.objects.count() == 2
    page.get_by_label("Riga 2: importa come").select_option("new")
    page.get_by_label("Riga 3: importa come").select_option("skip")
    with page.expect_navigation():
        page.get_by_role("button", name="Importa", exact=True).click()
    expect(page.locator("h1")).to_have_text("sala.csv è importato")
    expect(page.locator("#import-counts")).to_contain_text("Creati: 1")
    assert Person.objects.filter(last_name="Rossi").exclude(pk=anna.pk).count() == 1 and not Person.objects.filter(last_name="Martelli").exists()
