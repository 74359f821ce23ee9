"""Issue 28 item 18: the Undo offered after a bust covered the lock buttons. At a desk screen
(1366×768) and on a tablet (1024×768), after a bust the Undo is in sight and covers nothing: no
button, link or field under it where the page landed, and every Lock / Unlock button of the page
can be clicked (Playwright's hit test: nothing intercepts the click)."""

import pytest
from playwright.sync_api import expect

from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user

from .test_support import arrange, started  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

COVERED = """() => {
  const b = document.querySelector('#just-busted').getBoundingClientRect();
  return [...document.querySelectorAll('button, a, input, select, textarea')].filter((el) => {
    if (el.closest('#just-busted') || el.closest('[hidden]') || el.type === 'hidden') return false;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || r.bottom <= 0 || r.top >= innerHeight) return false;
    return r.left < b.right && r.right > b.left && r.top < b.bottom && r.bottom > b.top;
  }).map((el) => el.textContent.trim() || el.name || el.tagName);
}"""


@pytest.mark.parametrize("size", [(1366, 768), (1024, 768)])
def test_the_undo_after_a_bust_covers_no_button(browser_page, started, size):
    page = browser_page
    t = started(18)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    make_user("floor9", "floor")
    page.context.add_cookies([{"name": "django_language", "value": "it", "url": page.base_url}])
    page.route("**/live/*/stream/**", lambda route: route.abort())  # no ASGI here: the page polls
    page.set_viewport_size({"width": size[0], "height": size[1]})
    login(page, "floor9", "pw-floor9")
    page.goto(page.base_url + f"/tournaments/{t.pk}/tables/")
    page.click(f'#table-1 tr[data-entry="{layout[1][9]}"] button.out')
    page.click("#bust-confirm-ok")
    banner = page.locator("#just-busted")
    expect(banner).to_contain_text("è fuori")
    box = banner.bounding_box()
    assert box and 0 <= box["y"] and box["y"] + box["height"] <= size[1]  # in sight where the page landed
    assert page.evaluate(COVERED) == []
    page.screenshot(path=str(ARTIFACTS / f"seating-undo-banner-{size[0]}.png"))
    locks = page.locator("button[value=lock_table], button[value=unlock_table], button[value=lock_seat], button[value=unlock_seat]")
    assert locks.count() >= 4
    for i in range(locks.count()):
        locks.nth(i).click(trial=True, timeout=3000)  # fails when another element would receive the click
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate(COVERED) == []
