"""A screen reader and a tab bar tell pages apart by their title, and read a page in the language
its <html lang> names (#39 item 5): every staff page has a title of its own, and the printed
pages (receipt, payout slip, seat cards, move slips) and the league and bracket screens say
their language."""

import re

import pytest

from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db


def title(html: str) -> str:
    return re.search(r"<title>(.*?)</title>", html, re.S).group(1).strip()


def lang(html: str) -> str | None:
    found = re.search(r"<html[^>]*\blang=\"([^\"]*)\"", html)
    return found.group(1) if found else None


def test_every_staff_page_has_a_title_of_its_own(client, make_tournament, make_person):
    boss = make_user("boss", "director")
    t = make_tournament(name="Torneo del giovedì")
    sale = cashier.register(t, make_person(), method="CASH", actor=Actor(boss, "test"))
    client.force_login(boss)
    pages = [
        "/",
        "/desk/",
        "/people/",
        f"/people/{sale.entry.person_id}/",
        "/structures/",
        "/chipsets/",
        "/tournaments/new/",
        f"/tournaments/{t.pk}/",
        f"/tournaments/{t.pk}/edit/",
        f"/tournaments/{t.pk}/tables/",
        f"/tournaments/{t.pk}/clock/",
        f"/tournaments/{t.pk}/payouts/",
        f"/tournaments/{t.pk}/floor/",
        "/displays/",
    ]
    titles = {}
    for path in pages:
        r = client.get(path, HTTP_ACCEPT_LANGUAGE="it")
        assert r.status_code == 200, path
        titles[path] = title(r.content.decode())
    assert all(t != "TDManager" for t in titles.values()), titles
    shared = {t for t in titles.values() if list(titles.values()).count(t) > 1}
    assert not shared, {p: t for p, t in titles.items() if t in shared}
    client.logout()
    assert title(client.get("/login/").content.decode()) != "TDManager"


def test_printed_pages_say_their_language(client, make_tournament, make_person):
    boss = make_user("boss", "director")
    actor = Actor(boss, "test")
    t = make_tournament(name="Torneo")
    sales = [cashier.register(t, make_person(), method="CASH", actor=actor) for _ in range(4)]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    client.force_login(boss)
    for path in (f"/desk/receipt/{sales[0].row.receipt_number}/", f"/tournaments/{t.pk}/tables/seat-cards/", f"/tournaments/{t.pk}/tables/slips/"):
        r = client.get(path, HTTP_ACCEPT_LANGUAGE="it")
        assert r.status_code == 200, path
        assert lang(r.content.decode()) == "it", path
