"""A dealer's login in Italian lands on his own page: the table he deals, on the page of the event
playing there, with his next push; a dealer the roster gives nothing is told so, not shown the
list of events."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from seating.models import DealerAssignment
from seating.services import cardrooms, dealers
from tests.browser import browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tests.test_axe_browser import problems
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.setup import lifecycle

from .test_room_browser import italian

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_dealers_login_lands_on_his_table_and_his_next_push(browser_page, make_tournament, make_person):
    boss, anna = make_user("boss", "director"), make_user("anna", "dealer", first_name="Anna")
    make_user("bruno", "dealer", first_name="Bruno")  # a dealer the roster does not name
    actor = Actor(boss, "test")
    hall = cardrooms.save_room("Sala principale", actor=actor)
    for n in (11, 12):
        cardrooms.save_table(hall, n, seats=9, position=n, actor=actor)
    now = timezone.now()
    dealers.add_shift(hall, anna, now - timedelta(hours=1), now + timedelta(hours=6), actor=actor)
    t = make_tournament(name="Torneo delle 21")
    for _ in range(14):
        cashier.register(t, make_person(), method="CASH", actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    dealers.push(hall, actor=actor)
    mine = DealerAssignment.objects.get(dealer=anna, ends_at__isnull=True, kind="DEAL").table

    page = italian(browser_page)
    login(page, "anna", "pw-anna")
    assert page.url.endswith(f"/tournaments/{t.pk}/dealer/?table={mine}")
    expect(page.locator("#my-assignment")).to_contain_text(f"Dai le carte al tavolo {mine}")
    expect(page.locator("#my-next-push")).to_contain_text("Prossimo cambio alle")
    expect(page.locator("#dealer-table")).to_have_attribute("data-table", str(mine))

    other = italian(browser_page)
    login(other, "bruno", "pw-bruno")
    assert other.url.endswith("/dealer/")
    expect(other.locator("#no-assignment")).to_contain_text("Nessun tavolo assegnato ora")
    expect(other.locator("#dealer-events")).to_contain_text("Torneo delle 21")
    assert problems(other, "a dealer without a table") == []
