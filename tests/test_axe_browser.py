"""The pages a room uses, read by axe (axe-core, in Chromium) in Italian: fields a screen reader
can name and colours a reader can tell apart (WCAG 2.1 AA contrast, 4.5:1 for text), on the
staff's pages, the lobby screen, the public seat lookup and a player's phone (#39)."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser import browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import DisplayScreen
from tournaments.setup import lifecycle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: the rules this walk holds every page to (the rest of the audit is issue #39's to finish)
RULES = ["color-contrast", "label", "select-name"]


def problems(page, where: str) -> list[str]:
    page.wait_for_load_state("load")
    result = Axe().run(page, options={"runOnly": {"type": "rule", "values": RULES}, "resultTypes": ["violations"]})
    out = []
    for v in result.response["violations"]:
        for node in v["nodes"]:
            out.append(f"{where}: {v['id']} ({v['impact']}) {', '.join(node['target'])}: {node.get('failureSummary', '').splitlines()[-1].strip()}")
    return out


def test_the_rooms_pages_have_readable_colours(browser_page, make_tournament, make_person):
    page = browser_page
    page.route("**/live/*/stream/**", lambda route: route.abort())
    boss = make_user("boss", "director")
    actor = Actor(boss, "test")
    running = make_tournament(name="Evento in corso")
    sales = [cashier.register(running, make_person(), method="CASH", actor=actor) for _ in range(6)]
    lifecycle.start(running, actor=actor, prestart_report_sent=True)
    make_tournament(name="Evento in registrazione")
    banned = make_person()
    banned.banned, banned.banned_reason = True, "comportamento"
    banned.save()
    screen = DisplayScreen.objects.create(name="Sala", token="screen-token-1", tournament=running)
    from tournaments.screens import services as screen_services

    layout = screen_services.save_layout(name="Serata", design=screen_services.resolve("builtin:final")["design"], actor=actor)
    speaking = DisplayScreen.objects.create(name="Bar", token="screen-token-2", tournament=running, speaker=True, layouts={"live": "builtin:break"})

    login(page, "boss", "pw-boss")
    page.goto(page.base_url + "/")
    with page.expect_navigation():
        page.select_option("select[name=language]", "it")
    found = []
    staff_pages = {
        "dashboard": "/",
        "desk": "/desk/",
        "tournament": f"/tournaments/{running.pk}/",
        "table map": f"/tournaments/{running.pk}/tables/",
        "clock": f"/tournaments/{running.pk}/clock/",
        "payouts": f"/tournaments/{running.pk}/payouts/",
        "floor tools": f"/tournaments/{running.pk}/floor/",
        "deal calculator": f"/tournaments/{running.pk}/payouts/deal/",
        "people": "/people/",
        "a banned player": f"/people/{banned.pk}/",
        "receipt": f"/desk/receipt/{sales[0].row.receipt_number}/",
        "lobby displays": "/displays/",
        "screen layouts": "/screens/layouts/",
        "layout editor": f"/screens/layouts/{layout.pk}/",
    }
    for where, path in staff_pages.items():
        page.goto(page.base_url + path)
        found += problems(page, where)
    public_pages = {
        "phone": f"/p/{sales[1].entry.phone_token}/",
        "seat lookup": f"/seats/{running.pk}/",
        "rules": f"/rules/{running.pk}/",
        "lobby screen": f"/display/{screen.token}/",
        "lobby screen, the break layout, speaking": f"/display/{speaking.token}/",
    }
    for where, path in public_pages.items():
        page.goto(page.base_url + path)
        found += problems(page, where)
    assert not found, "\n".join(found)
