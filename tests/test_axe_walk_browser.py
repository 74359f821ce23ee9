"""Every page of every role, in one of the languages offered, read by axe (WCAG 2.0/2.1 A and AA)
in Chromium: no critical and no serious finding, and the page's ``lang`` the language asked for.

The room: the demo tournament (started, one player out, a lobby screen) and one simulated day
of each theme of ``tests/simulation`` (sit & go, satellites, flights and a Day 2, heads-up
brackets, qualifiers, a series, the jackpot and side pools, a final table, the floor), played
through the services, so every format has its pages. The pages are those a role reaches: the
link walk of ``tests/test_role_links.py`` from the role's landing page and the demo's main
pages, one address per route and per format of the event it shows. Each page found is opened in
the browser with that role's session, in one language, and axe reads it as the room sees it
(scripts run, styles applied). The language turns over every one of ``settings.LANGUAGES`` from
one page to the next, so each language reads its share of every role's pages while the walk
costs what one language costs: axe's rules look at markup, colours and names, which a language
changes only in its words and its ``lang`` (checked on every reading). That every page of every
language is translated, with its ``lang``, is ``tests/test_languages_pages.py``'s walk. A player's pages (the phone, the seat lookup, the rules, the
login) are walked without a login.

The room is made once per test process (it takes about half a minute) and kept as a copy of the
SQLite database; each test starts from that copy. A role's pages are found once, then read by
axe in shards (``SHARDS``), so that test workers share the reading out.
"""

import re
import sqlite3
from contextlib import closing
from pathlib import Path
from urllib.parse import urlsplit

import axe_playwright_python
import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.test import Client

from tests.browser import browser, browser_page  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tests.test_role_links import ROLES, _route, login, make_demo, role_starts, walk
from tournaments.models import Entry, Tournament

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    # What axe reads is the pages' markup, styles and scripts, the same on either database: the
    # walk runs once per CI run, in the SQLite leg.
    pytest.mark.skipif(
        "sqlite" not in settings.DATABASES["default"]["ENGINE"],
        reason="axe reads markup, not the database: the walk runs in the SQLite leg (./tdm test without DATABASE_URL)",
    ),
]

#: WCAG 2.0 and 2.1, levels A and AA: the audit's tags
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = ("critical", "serious")
#: the languages offered; each page is read in ``READINGS`` of them, moving on a language from
#: one page to the next (a second reading of each page doubled the walk, the suite's largest
#: part, for what a language changes, its words and ``lang``, which the one reading checks)
LANGUAGES = tuple(code for code, _name in settings.LANGUAGES)
READINGS = 1
STEPS_PER_THEME = 90
#: how many pages each role reaches in this room, at least: a walk cut short (a broken landing
#: page, a link lost) fails here rather than reading three pages and passing
MOST_PAGES = {"director": 80, "floor": 60, "cashier": 40, "controller": 30, "regulator": 5, "dealer": 2, "player": 5}
#: how many tests read a role's pages: each reads every SHARDS[role]-th of the role's readings
#: (some ten a test), so that the reading spreads over the test workers.
#: Most pages take axe under a second; the structures page, with every level of every structure,
#: about thirteen.
SHARDS = {"director": 10, "floor": 8, "cashier": 5, "dealer": 1, "controller": 4, "regulator": 2, "display": 1, "player": 2}
WALKERS = (*ROLES, "player")


AXE = Path(axe_playwright_python.__file__).with_name("axe.min.js")


def findings(page, where: str) -> list[str]:
    """axe's critical and serious findings on the page open, one line per element."""
    page.wait_for_load_state("load")
    result = page.evaluate("(options) => axe.run(document, options)", {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]})
    out = []
    for v in result["violations"]:
        if v["impact"] not in BLOCKING:
            continue
        for node in v["nodes"]:
            summary = (node.get("failureSummary") or "").splitlines()[-1].strip()
            out.append(f"{where}: {v['id']} ({v['impact']}) {', '.join(map(str, node['target']))}: {summary}")
    return out


def play_every_theme() -> None:
    """One short simulated day per theme (seed k plays theme k), the invariants not asked."""
    from tests.simulation.catalogue import THEMES
    from tests.simulation.driver import play

    for k in range(len(THEMES)):
        play(k, STEPS_PER_THEME, day=k, check=False)


#: the pages whose content follows the event's format (and, for its main page, its state): one
#: address of each per format is read; every other route once
BY_FORMAT = {"tournament": True, "payouts-tournament": False, "seating-tables": False, "clock-control": False, "tournament-edit": False}


def format_route(events: dict[int, tuple[str, str]]):
    """A link's route name and, for the pages of ``BY_FORMAT``, the format of the event it shows:
    a heads-up event's tournament page is another page than a re-entry's."""
    number = re.compile(r"/(\d+)/")

    def route(link: str) -> str:
        name = _route(link)
        found = number.search(urlsplit(link).path)
        if not found or name.split("?")[0] not in BY_FORMAT:
            return name
        fmt, status = events.get(int(found.group(1)), ("", ""))
        return f"{name}:{fmt}/{status}" if BY_FORMAT[name.split("?")[0]] else f"{name}:{fmt}"

    return route


def pages_for(role: str, t, client, route) -> list[str]:
    """The pages ``role`` reaches with ``client`` (logged in as that role, or not for a player)."""
    if role == "player":
        entry = t.entries.filter(status=Entry.ACTIVE).order_by("pk").first()
        starts = ["/login/", f"/p/{entry.phone_token}/", f"/seats/{t.pk}/", f"/rules/{t.pk}/"]
    else:
        starts = role_starts(client, t)
    _dead, _opened, pages = walk(client, starts, per_route=1, route=route, limit=400)
    return pages


class Room:
    """The demo and a day of every theme, kept as a copy of the database; each role's session
    made with it, each role's pages found on first asking."""

    def __init__(self, snapshot: Path):
        director = make_user("dora", "director")
        self.demo = make_demo(director)
        play_every_theme()
        events = {pk: (fmt, status) for pk, fmt, status in Tournament.objects.values_list("pk", "format", "status")}
        self.route = format_route(events)
        self.sessions = {role: login(role, director).cookies[settings.SESSION_COOKIE_NAME].value for role in ROLES}
        self.snapshot = snapshot
        connection.ensure_connection()
        with closing(sqlite3.connect(snapshot)) as copy:
            connection.connection.backup(copy)
        self._pages = {}

    def restore(self):
        """The database as the room left it (what a test changed is gone)."""
        connection.ensure_connection()
        with closing(sqlite3.connect(self.snapshot)) as copy:
            copy.backup(connection.connection)

    def client(self, role: str) -> Client:
        client = Client()
        if role in self.sessions:
            client.cookies[settings.SESSION_COOKIE_NAME] = self.sessions[role]
        return client

    def pages(self, role: str) -> list[str]:
        if role not in self._pages:
            self._pages[role] = pages_for(role, self.demo, self.client(role), self.route)
        return self._pages[role]


@pytest.fixture(scope="module")
def made_room(django_db_setup, django_db_blocker, tmp_path_factory):
    """The room, made once for the module's tests in this process."""
    with django_db_blocker.unblock():
        room = Room(tmp_path_factory.mktemp("axe-room") / "room.sqlite3")
        call_command("flush", verbosity=0, interactive=False)  # a test starts as transactional tests do
    return room


@pytest.fixture
def room(made_room, transactional_db):
    made_room.restore()
    return made_room


def readings(pages: list[str]) -> list[tuple[str, str]]:
    """(language, page) for each reading: page k in languages k, k + 1… of ``LANGUAGES``."""
    n = len(LANGUAGES)
    return [(LANGUAGES[(k + j) % n], path) for k, path in enumerate(pages) for j in range(READINGS)]


def test_every_language_reads_its_share_of_a_roles_pages():
    pages = [f"/page/{k}/" for k in range(10)]
    read = readings(pages)
    assert len(read) == READINGS * len(pages) and len(set(read)) == len(read)
    assert {language for language, _path in read} == {code for code, _name in settings.LANGUAGES}
    assert all(sum(1 for _language, path in read if path == page) == READINGS for page in pages)


@pytest.mark.parametrize("role", WALKERS)
def test_every_role_reaches_its_pages(role, room):
    pages = room.pages(role)
    print(f"{role}: {len(pages)} pages to read by axe, each in {READINGS} of {', '.join(LANGUAGES)}")
    assert len(pages) >= MOST_PAGES.get(role, 1), f"{role} reached only {len(pages)} pages"


@pytest.mark.parametrize(("role", "shard"), [(role, k) for role in WALKERS for k in range(SHARDS[role])])
def test_every_page_of_a_role_reads_clean_in_axe(role, shard, room, browser_page):
    page = browser_page
    page.route("**/live/**/stream/**", lambda route: route.abort())  # a stream never ends: axe reads the page as loaded
    page.context.add_init_script(path=str(AXE))  # axe-core in every page, as it loads
    mine = readings(room.pages(role))[shard :: SHARDS[role]]
    if role in room.sessions:
        page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": room.sessions[role], "url": page.base_url}])
    found = []
    for language, path in mine:
        page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": page.base_url}])
        page.goto(page.base_url + path)
        assert page.locator("html").get_attribute("lang") == language, f"{path} is not in {language}"
        found += findings(page, f"{language} {path}")
    assert not found, f"{role}: {len(found)} critical or serious finding(s) in {len(mine)} readings:\n" + "\n".join(found)
