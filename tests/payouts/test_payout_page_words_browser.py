"""The payout page in Italian: its save button speaks of the payout table (a "tabella", not the
room's gaming "tavolo", which has its own message), and every choice of its drop-downs (the
satellite form's, the side pool's) reads whole."""

import pytest
from playwright.sync_api import expect

from tests.browser import browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tests.test_axe_browser import problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Each drop-down's chosen text against the room the box gives it: the text's own width, measured
# in the select's font, beside the select's inner width (its padding and arrow taken off).
CLIPPED = """(select) => {
  const style = getComputedStyle(select);
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = style.font;
  const text = select.selectedOptions[0].text;
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
  return ctx.measureText(text).width > room ? text : "";
}"""


def test_the_italian_payout_page_saves_the_tabella_and_reads_every_choice_whole(browser_page, make_tournament):
    page = browser_page
    make_user("boss", "director")
    satellite = make_tournament(name="Satellite del venerdì")
    make_tournament(name="Main Event di Sanremo")  # the target the satellite may feed
    page.context.add_cookies([{"name": "django_language", "value": "it", "url": page.base_url}])
    login(page, "boss", "pw-boss")
    page.goto(page.base_url + f"/tournaments/{satellite.pk}/payouts/")
    expect(page.locator("html")).to_have_attribute("lang", "it")
    expect(page.locator("#table button[value=edit]")).to_have_text("Salva la tabella")

    form = page.locator("#satellite form")
    expect(form.locator("label", has=page.locator("select[name=target]"))).to_contain_text("Torneo di destinazione")
    expect(form.locator("select[name=target]")).to_contain_text("Main Event di Sanremo")
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")  # the side-pool form too
    clipped = []
    for select in page.locator("main select").all():
        for value in select.locator("option").evaluate_all("(os) => os.map((o) => o.value)"):
            select.select_option(value)
            clipped.append(select.evaluate(CLIPPED))
    assert [text for text in clipped if text] == []
    assert len(clipped) >= 12  # every option of the side-pool and satellite drop-downs was read
    assert problems(page, "payout page") == []  # each drop-down named by its visible label
