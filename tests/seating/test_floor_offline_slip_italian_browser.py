"""A slip confirmed offline on a tablet, in Italian: its "Fatto" waits with it, so a second tap
queues no second confirmation; the boxes of the recent busts sit beside their players."""

import pytest
from playwright.sync_api import expect

from seating import services
from seating.models import PendingMove
from tests.browser import browser, browser_page, new_page  # noqa: F401 (fixtures)
from tournaments.eventlog.services import Actor

from .test_floor_offline_browser import open_map, states
from .test_support import arrange, started  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def italian_page(live_server, chromium_browser):
    page = new_page(chromium_browser, locale="it-IT")
    page.base_url = live_server.url
    yield page
    page.context.close()


def beside_its_words(box) -> dict:
    """Where a box stands from the words that follow it: its width, the gap to the words and how
    far off their line it is."""
    return box.evaluate(
        """(box) => {
          const r = box.getBoundingClientRect();
          let n = box.nextSibling;
          while (n && !(n.nodeType === 3 && n.textContent.trim())) n = n.nextSibling;
          const range = document.createRange();
          range.selectNodeContents(n);
          const t = range.getClientRects()[0];
          return {width: r.width, gap: t.left - r.right, off: Math.abs((r.top + r.bottom) / 2 - (t.top + t.bottom) / 2), line: t.height};
        }"""
    )


def test_a_move_slip_confirmed_offline_waits_with_its_done_button_disabled(italian_page, started):
    page = italian_page
    t = started(16)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 8)}, big_blinds={1: (3, 2), 2: (5, 4)})
    services.record_bust(t, [layout[2][7]], actor=Actor(), table=2)  # 9 against 6: a balancing slip
    slip = PendingMove.objects.get(tournament=t, status=PendingMove.PROPOSED)
    open_map(page, t, "flo")

    page.context.set_offline(True)
    done = page.locator(f'tr[data-move="{slip.pk}"] button.confirm-move')
    expect(done).to_have_text("Fatto")
    done.click()
    expect(page.locator("#floor-queue-status")).to_contain_text("1 azione in attesa")
    expect(done).to_be_disabled()  # the floor cannot confirm the same slip twice
    done.click(force=True)  # a second tap on the disabled button
    assert states(page) == ["waiting"]

    page.reload()  # without network: the kept map, the queue, and the slip still waiting
    expect(page.locator(f'tr[data-move="{slip.pk}"] button.confirm-move')).to_be_disabled()

    # the recent busts' boxes (to mark busts simultaneous) sit beside each player's name
    where = beside_its_words(page.locator("input[name=busts]").first)
    assert where["width"] < 40 and 0 <= where["gap"] < 24 and where["off"] < where["line"], where

    page.context.set_offline(False)
    page.wait_for_function("() => Array.from(document.querySelectorAll('#floor-queue li')).every((li) => li.dataset.state === 'sent')")
    slip.refresh_from_db()
    assert slip.status == PendingMove.DONE
    assert PendingMove.objects.filter(pk=slip.pk, status=PendingMove.DONE).count() == 1
