"""Every link a page offers opens for the role that sees it, and every button it may press.

For each role the test logs in, starts on the role's landing page and the main pages of a
running demo tournament, collects every same-origin ``<a href>`` and ``<form method="get">``
of each page, and follows them breadth-first through the product. Every link must answer 200,
or redirect to a page that does: a link that answers 403 (or 404) is a dead end the role was
offered.

Each ``<form method="post">`` of a page is a button the role is offered: the route it posts to
(with the ``op`` its buttons send) must let the role in by ``tdmanager.policy`` (asked without
pressing it: a press would change the room). Buttons that call the API from a script are the
API's to refuse.

Routes are decided per URL name (``tdmanager.policy``), so the walk opens at most a few
addresses of each route (``PER_ROUTE``): 60 people's pages prove no more than three do.
"""

from collections import deque
from html.parser import HTMLParser
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import Resolver404, resolve

from tournaments.eventlog.services import Actor
from tournaments.models import DisplayScreen, Entry, Tournament
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db

ROLES = ("director", "floor", "cashier", "dealer", "controller", "regulator", "display")
PER_ROUTE = 3  # addresses opened per route name and query shape
MAX_PAGES = 120  # per role: the walk stops here rather than run for minutes
ORIGIN = "http://testserver"


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and attrs.get("href") and "download" not in attrs:
            self.links.append(attrs["href"])
        elif tag == "form" and (attrs.get("method") or "get").lower() == "get" and attrs.get("action"):
            self.links.append(attrs["action"])


class _Buttons(HTMLParser):
    """Every POST form of a page: its action and the ``op`` values its buttons send."""

    def __init__(self):
        super().__init__()
        self.forms, self._form = [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and (attrs.get("method") or "get").lower() == "post":
            self._form = {"action": attrs.get("action") or "", "ops": set(), "targets": set()}
            self.forms.append(self._form)
        elif self._form is not None and tag in ("input", "button") and attrs.get("name") == "op":
            self._form["ops"].add(attrs.get("value") or "")
        if self._form is not None and tag in ("input", "button") and attrs.get("formaction"):
            self._form["targets"].add(attrs["formaction"])

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None


def buttons_of(page_url: str, html: str) -> list[tuple[str, str | None]]:
    """(path, op) of every POST a page offers: each form's action (the page itself when empty,
    or a button's ``formaction``) with each ``op`` its buttons send (None when they send none)."""
    parser = _Buttons()
    parser.feed(html)
    out = []
    for form in parser.forms:
        for action in form["targets"] or {form["action"]}:
            parts = urlsplit(urljoin(ORIGIN + page_url, action))
            if f"{parts.scheme}://{parts.netloc}" != ORIGIN or parts.path.startswith("/logout"):
                continue
            out += [(parts.path, op) for op in sorted(form["ops"]) or [None]]
    return out


def refused_buttons(user, page_url: str, html: str) -> list[str]:
    """The POSTs of a page that ``tdmanager.policy`` would refuse ``user``."""
    from tdmanager.roles import OPEN, verdict

    refused = []
    for path, op in buttons_of(page_url, html):
        try:
            match = resolve(path)
        except Resolver404:
            refused.append(f"{path} (no such route)")
            continue
        if "admin" in match.namespaces:
            continue
        answer = verdict(user, match.url_name, "POST", match.kwargs.get("op", op), match.kwargs)
        if answer != OPEN:
            refused.append(f"POST {path}" + (f" op={op}" if op else "") + f": {answer}")
    return refused


def links_of(page_url: str, html: str) -> list[str]:
    parser = _Links()
    parser.feed(html)
    out = []
    for href in parser.links:
        if href.startswith(("mailto:", "tel:", "javascript:", "data:")):
            continue
        url, _frag = urldefrag(urljoin(ORIGIN + page_url, href))
        parts = urlsplit(url)
        if f"{parts.scheme}://{parts.netloc}" != ORIGIN or not url or url == ORIGIN + page_url:
            continue  # another site, or an anchor on this page
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        if parts.path.startswith("/static/") or parts.path.startswith("/logout"):
            continue
        out.append(path)
    return out


def _route(path: str) -> str:
    parts = urlsplit(path)
    try:
        name = resolve(parts.path).url_name or parts.path
    except Resolver404:
        name = parts.path
    keys = ",".join(sorted(k.split("=")[0] for k in parts.query.split("&") if k))
    return f"{name}?{keys}"


def opens(client, path: str):
    """(final status, final path): follows redirects within the product."""
    response = client.get(path)
    hops = 0
    while response.status_code in (301, 302, 303, 307, 308) and hops < 5:
        target = urljoin(ORIGIN + path, response["Location"])
        if not target.startswith(ORIGIN):
            return response.status_code, target
        path = target[len(ORIGIN) :]
        response = client.get(path)
        hops += 1
    return response, path


def walk(client, starts: list[str], per_route: int = PER_ROUTE, route=_route, limit: int = MAX_PAGES, on_page=None) -> tuple[dict, int, list[str]]:
    """Breadth-first from ``starts``; returns {link: (status, found on)} of the dead links, how
    many pages were opened and the HTML pages among them (where each ended, redirects followed).
    ``route(link)`` names what a link opens: at most ``per_route`` links of each name are followed.
    ``on_page(path, html)`` is called with each HTML page opened."""
    queue = deque((s, "(start)") for s in starts)
    seen, per_route_seen, dead, opened, pages = set(starts), {}, {}, 0, []
    while queue and opened < limit:
        path, found_on = queue.popleft()
        response, final = opens(client, path)
        opened += 1
        if isinstance(response, int) or response.status_code != 200:
            status = response if isinstance(response, int) else response.status_code
            dead[path] = (status, found_on)
            continue
        if getattr(response, "streaming", False) or "text/html" not in response.get("Content-Type", ""):
            continue
        html = response.content.decode()
        if final not in pages:
            pages.append(final)
            if on_page is not None:
                on_page(final, html)
        for link in links_of(final, html):
            if link in seen:
                continue
            seen.add(link)
            name = route(link)
            if per_route_seen.get(name, 0) >= per_route:
                continue
            per_route_seen[name] = per_route_seen.get(name, 0) + 1
            queue.append((link, path))
    return dead, opened, pages


@pytest.fixture
def demo(director):
    """The demo's tournament, started (tables drawn, the clock running, one player out), a lobby
    screen showing it, and the demo's logins: one per role."""
    return make_demo(director)


def make_demo(director) -> Tournament:
    """What the ``demo`` fixture makes, for a fixture of a wider scope."""
    from seating.services import busts

    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115 - the command's chatter
    t = Tournament.objects.get(name="Demo Sunday Re-entry")
    actor = Actor(director, "test")
    lifecycle.start(t, actor=actor, prestart_report_sent=True, start_clock=True)
    t.refresh_from_db()
    out = t.entries.filter(status=Entry.ACTIVE).order_by("pk").first()
    busts.record_bust(t, [out], actor=actor)
    DisplayScreen.objects.create(name="Lobby TV", tournament=t, token="walk-screen-token")
    return t


def starts_for(t: Tournament) -> list[str]:
    """The landing page (where a login lands) and the tournament's main pages."""
    return ["/", f"/tournaments/{t.pk}/", f"/tournaments/{t.pk}/dealer/", "/desk/"]


def role_starts(client, t: Tournament) -> list[str]:
    """Where a walk of this login starts: where it lands, and the tournament's main pages it
    opens (those the product offers it as a start)."""
    starts = [landing(client)]
    for path in starts_for(t)[1:]:
        response, _final = opens(client, path)
        if not isinstance(response, int) and response.status_code == 200:
            starts.append(path)
    return starts


def login(role: str, director) -> Client:
    user = director if role == "director" else get_user_model().objects.get(username=role)
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def login_user(user, role: str) -> Client:
    from django.contrib.auth.models import Group

    user.groups.add(Group.objects.get_or_create(name=role)[0])
    client = Client()
    client.force_login(user)
    return client


def landing(client) -> str:
    """Where the login form sends this login: the page it lands on after redirects."""
    response, final = opens(client, "/")
    assert not isinstance(response, int) and response.status_code == 200, f"the landing page answers {response}"
    return final


@pytest.mark.parametrize("role", ROLES)
def test_every_link_a_role_is_offered_opens(role, demo, director):
    client = login(role, director)
    user = director if role == "director" else get_user_model().objects.get(username=role)
    starts = role_starts(client, demo)
    buttons = {}  # the POSTs the role's pages offer that its roles may not make

    def check_buttons(path, html):
        for refused in refused_buttons(user, path, html):
            buttons.setdefault(refused, path)

    dead, opened, _pages = walk(client, starts, on_page=check_buttons)
    print(f"{role}: {opened} pages opened from {starts}")
    report = "\n".join(f"  {status} {link}  (on {found_on})" for link, (status, found_on) in sorted(dead.items()))
    assert not dead, f"{role} is offered {len(dead)} link(s) it cannot open:\n{report}"
    report = "\n".join(f"  {button}  (on {page})" for button, page in sorted(buttons.items()))
    assert not buttons, f"{role} is offered {len(buttons)} button(s) its role may not press:\n{report}"


def test_a_display_login_lands_on_its_screen(demo, director):
    """One lobby screen: the TV's login opens it straight away, not a list it cannot use."""
    client = login("display", director)
    response = client.get("/", follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == "/display/walk-screen-token/"
    assert '<h1 id="t-name">Demo Sunday Re-entry</h1>' in response.content.decode()


def test_a_display_login_picks_among_the_venues_screens(demo, director):
    """Several screens: the login lists them, each link opening that screen; a revoked one is not offered."""
    from django.utils import timezone

    DisplayScreen.objects.create(name="Bar TV", tournament=demo, token="walk-bar-token")
    DisplayScreen.objects.create(name="Old TV", token="walk-old-token", token_revoked_at=timezone.now())
    client = login("display", director)
    response = client.get("/")
    html = response.content.decode()
    assert response.status_code == 200
    links = links_of("/", html)
    assert "/display/walk-bar-token/" in links and "/display/walk-screen-token/" in links
    assert "/display/walk-old-token/" not in links and "Old TV" not in html
    for link in ("/display/walk-bar-token/", "/display/walk-screen-token/"):
        assert client.get(link).status_code == 200


def test_a_display_login_with_no_screen_is_told_where_one_is_made(tournament):
    """No screen yet: what is playing, without links, and where a screen is made."""
    client = login_user(get_user_model().objects.create_user("tv-none"), "display")
    html = client.get("/").content.decode()
    assert 'id="no-lobby-screens"' in html and tournament.name in html
    assert [link for link in links_of("/", html) if link != "/"] == []


def test_a_login_with_more_than_the_display_role_keeps_its_dashboard(demo, director):
    """A cashier who also holds the display role works the desk: the list of tournaments, not a TV."""
    from django.contrib.auth.models import Group

    cashier = get_user_model().objects.get(username="cashier")
    cashier.groups.add(Group.objects.get(name="display"))
    client = Client()
    client.force_login(cashier)
    response = client.get("/")
    assert response.status_code == 200 and f"/tournaments/{demo.pk}/" in links_of("/", response.content.decode())


def test_the_floor_reads_the_seating_constraints_without_buttons_to_change_them(demo, director):
    """SEAT-07's pairs and hand-given seats are the director's to change: the floor reads them,
    with no form it would be refused (the walk's demo has none to remove)."""
    from seating.services import constraints

    actor = Actor(director, "test")
    a, b = demo.entries.filter(status=Entry.ACTIVE).order_by("pk")[:2]
    constraints.add_keep_apart(demo, a.person, b.person, actor=actor, reason="married")
    url = f"/tournaments/{demo.pk}/tables/constraints/"
    floor = get_user_model().objects.get(username="floor")
    html = login("floor", director).get(url).content.decode()
    assert "married" in html and 'id="director-only"' in html
    assert [path for path, _op in buttons_of(url, html) if path == url] == [] and refused_buttons(floor, url, html) == []
    html = login("director", director).get(url).content.decode()
    assert {op for path, op in buttons_of(url, html) if path == url} == {"pair", "unpair", "reserve"}
