"""Issue #39 item 12: the desk's event selector shows the chosen event's whole line, its name and
its price, at 1024 and 1366 px wide (it cut the price: "…100,0")."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The chosen option's text, its width in the select's type, and the room the select gives it
#: (its inner width less the padding and the arrow).
CHOSEN = """() => {
  const s = document.querySelector('#tournament'), cs = getComputedStyle(s);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = cs.fontWeight + ' ' + cs.fontSize + ' ' + cs.fontFamily;
  const text = s.options[s.selectedIndex].text;
  return {text, width: ctx.measureText(text).width, room: s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20};
}"""


@pytest.mark.parametrize("width", [1024, 1366])
def test_the_chosen_event_is_read_in_full_with_its_price(browser_page, make_tournament, width):
    page = browser_page
    page.set_viewport_size({"width": width, "height": 800})
    make_tournament(name="Weekly Freezeout")
    t = make_tournament(
        name="Torneo del Giovedì Deepstack Bounty", buy_in=Decimal("100"), fee=Decimal("15"), settings={"bounty": "PKO", "bounty_amount": "100"}
    )
    make_user("desk", "cashier")
    login(page, "desk", "pw-desk")
    page.goto(page.base_url + f"/desk/?t={t.pk}")
    expect(page.locator("#tournament option:checked")).to_contain_text("100.00 bounty + €15.00")
    chosen = page.evaluate(CHOSEN)
    page.locator("#tournament").screenshot(path=str(ARTIFACTS / f"desk-event-select-{width}.png"))
    assert chosen["width"] <= chosen["room"], chosen
