"""Every URL the project routes × every role: what is allowed and what is refused.

The expected answers come from the one table, ``tdmanager.policy``; a routed URL with no
decision there fails ``test_every_route_has_a_decision``. The matrix then calls each route
(every method the table names, every action of a per-action rule and an action nobody named)
as anonymous, display, cashier, floor, dealer, director, controller and regulator, and checks that
the product answers as the table says: a refusal is 401/403 (API) or the login redirect/403
(pages); anything else means the call got past the role check. A regulator is granted no
tournament here, so every tournament route the table lets him read answers 404 (not a
refusal: the check passed, the tournament is not his); his grants are tested on their own
below. Objects are looked up after the role check, so the matrix uses ids that do not exist:
nothing it sends can change a tournament.

The table's decisions for the rules a card room relies on are written out by hand below, so a
wrong edit of the table itself fails too.
"""

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from tdmanager import policy
from tdmanager.errors import DomainError
from tests.conftest import make_user
from tournaments.eventlog.services import Actor
from tournaments.oversight import services as oversight

ROLES = ("anonymous", "display", "cashier", "floor", "dealer", "director", "controller", "regulator")
MISSING = 987654  # an id no object has


def _walk(patterns, prefix=""):
    for p in patterns:
        if isinstance(p, URLResolver):
            if p.namespace == "admin":
                continue
            yield from _walk(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern) and p.name:
            yield prefix + str(p.pattern), p


def routes():
    """(url name, pattern) of every routed URL but the Django admin (checked on its own)."""
    seen = {}
    for route, pattern in _walk(get_resolver().url_patterns):
        if "format" in pattern.pattern.converters or "(?P<format>" in route or "\\.(?P" in route:
            continue  # DRF's ".json" suffix twins of the same view
        seen.setdefault(pattern.name, pattern)
    return seen


VALUES = {
    "pk": MISSING,
    "number": MISSING,
    "entry_id": MISSING,
    "bust_id": MISSING,
    "move_id": MISSING,
    "token": "no-such-screen",
    "name": "ranking",
    "fmt": "csv",
}


def url_for(name, pattern, op=None):
    from django.urls import reverse

    kwargs = {}
    for arg in pattern.pattern.regex.groupindex:
        kwargs[arg] = op if arg == "op" else VALUES.get(arg, MISSING)
    if "op" in kwargs and op is None:
        kwargs["op"] = "status"
    return reverse(name, kwargs=kwargs)


def calls():
    """Every (url name, method, op) the table decides, with an unknown op for per-action rules."""
    out = []
    for name, pattern in routes().items():
        rules = policy.POLICY.get(name, {})
        has_op_arg = "op" in pattern.pattern.regex.groupindex
        for method, roles in rules.items():
            is_api = str(pattern.pattern).startswith("^") or name.startswith("api-")
            if isinstance(roles, dict) and (has_op_arg or not is_api):
                ops = [op for op in roles if op != "*"] + ["no-such-action"]
                for op in ops:
                    out.append((name, method, op, has_op_arg))
            else:
                out.append((name, method, None, has_op_arg))
    return out


# Public routes whose view also asks for a display screen's token (or a staff login).
TOKEN_ROUTES = {"live-state", "live-stream", "live-seats"}


@pytest.fixture
def screen_token(db):
    from tournaments.models import DisplayScreen

    return DisplayScreen.objects.create(name="Lobby", token="matrix-screen-token").token


@pytest.fixture
def users(db):
    return {"anonymous": None, **{role: make_user(f"mx-{role}", role) for role in ROLES[1:]}}


def _call(client, method, url, op, has_op_arg, is_api):
    data = {}
    if op is not None and not has_op_arg and not is_api:
        data = {"op": op}
    if method == "GET":
        return client.get(url, HTTP_ACCEPT="application/json")
    return client.generic(method, url, data=_form(data), content_type="application/x-www-form-urlencoded")


def _form(data):
    from urllib.parse import urlencode

    return urlencode(data)


def refused(response, is_api) -> bool:
    if is_api:
        if response.status_code not in (401, 403):
            return False
        return response.json().get("code") in ("not_authenticated", "permission_denied", "authentication_failed")
    if response.status_code == 403:
        return True
    return response.status_code == 302 and response["Location"].startswith("/login/?next=")


def test_every_route_has_a_decision():
    routed = set(routes())
    undecided = sorted(routed - set(policy.POLICY))
    assert undecided == [], f"routes with no role decision in tdmanager.policy: {undecided}"
    stale = sorted(set(policy.POLICY) - routed)
    assert stale == [], f"tdmanager.policy names routes that do not exist: {stale}"


def test_the_matrix(users, screen_token):
    table = routes()
    mismatches, size = [], 0
    clients = {}
    for role in ROLES:
        clients[role] = Client(raise_request_exception=False)
        if users[role] is not None:
            clients[role].force_login(users[role])
    for name, method, op, has_op_arg in calls():
        url = url_for(name, table[name], op if has_op_arg else None)
        if name in TOKEN_ROUTES:
            url += f"?token={screen_token}"
        is_api = url.startswith("/api/v1/")
        for role in ROLES:
            client = clients[role]
            held = {role} if users[role] is not None else set()
            expected = policy.permits(held, name, method, op)
            response = _call(client, method, url, op, has_op_arg, is_api)
            size += 1
            if name == "logout" and users[role] is not None:
                client.force_login(users[role])
            if refused(response, is_api) == expected:
                mismatches.append(f"{role:9} {method:6} {url} op={op}: expected {'allowed' if expected else 'refused'}, got {response.status_code}")
    print(f"role matrix: {size} calls, {len(mismatches)} mismatches")
    assert size > 500
    assert not mismatches, "\n".join(mismatches)


# The decisions a card room relies on, written out by hand (not read from the table).
STAFF_ONLY_READS = [
    "tournament-ledger",
    "tournament-entries",
    "tournament-events",
    "tournament-alternates",
    "entry-detail",
    "person-list",
    "person-detail",
    "api-receipt",
    "api-payouts-slip",
    "api-payouts-due",
    "api-bounties",
    "api-payouts-report",
    "api-jackpot",
    "api-seating-tables",
    "api-seating-busts",
    "api-seating-moves",
    "screen-list",
    "api-formats-flight",
    # Issue #40 item 4: these name players in full (an opted-out one too, a bracket's seat
    # requests with them); the lobby reads the public bracket and leaderboard pages instead.
    "api-seating-standings",
    "api-formats-bracket",
    "api-formats-bracket-op",
    "api-formats-match",
    "api-formats-match-op",
    "api-formats-series",
    "api-formats-series-op",
    "api-formats-multiday",
    "api-formats-multiday-op",
    "api-formats-timed",
    "api-formats-timed-op",
    "tournament",
    "people",
    "person",
    "receipt",
    "payouts-tournament",
    "payouts-due",
    "formats",
    "displays",
]


@pytest.mark.parametrize("name", STAFF_ONLY_READS)
def test_a_lobby_screen_login_reads_no_money_entries_log_or_personal_data(name):
    assert not policy.permits({"display"}, name, "GET")
    assert not policy.permits(set(), name, "GET")
    assert policy.permits({"director"}, name, "GET")


@pytest.mark.parametrize("name", ["tournament-detail", "api-clock", "structure-detail", "api-payouts-table", "tournament-changes"])
def test_a_lobby_screen_login_reads_what_the_lobby_shows(name):
    assert policy.permits({"display"}, name, "GET")


@pytest.mark.parametrize("name", ["phone", "phone-state", "phone-stream", "phone-qr", "seating-lookup", "seating-lookup-find"])
def test_the_players_pages_are_public_and_read_only(name):
    """Issue #14: the player's phone page (the entry's token is its key) and the seat lookup."""
    assert policy.is_public(name, "GET")
    assert not policy.permits({"director"}, name, "POST")


@pytest.mark.parametrize("name", ["floor-overview", "tournament-overview"])
def test_the_floor_overview_is_for_the_floor_and_the_director(name):
    assert policy.permits({"floor"}, name, "GET") and policy.permits({"director"}, name, "GET")
    for held in ({"cashier"}, {"display"}, set()):
        assert not policy.permits(held, name, "GET")


@pytest.mark.parametrize("name", ["tournament-copy", "tournament-save-template", "tournament-template-create-tournament"])
def test_only_the_director_copies_tournaments_and_uses_templates(name):
    assert policy.permits({"director"}, name, "POST")
    for held in ({"floor"}, {"cashier"}, {"display"}, set()):
        assert not policy.permits(held, name, "POST")


def test_display_changes_nothing():
    for name, rules in policy.POLICY.items():
        for method, roles in rules.items():
            if method == "GET" or name in policy.OWN_LOGIN | policy.OWN_PHONE:
                continue
            ops = list(roles) if isinstance(roles, dict) else [None]
            for op in ops:
                assert not policy.permits({"display"}, name, method, op), (name, method, op)


@pytest.mark.parametrize(
    "name,method,op,cashier,floor",
    [
        ("api-refund", "POST", None, False, False),
        ("api-register", "POST", None, True, False),
        ("api-reverse", "POST", None, True, False),
        ("api-exchange-rates", "POST", None, False, False),  # REG-06: the rate of the day is the supervisor's
        ("api-payouts-pay", "POST", None, True, False),
        ("api-jackpot-claim", "POST", None, False, True),  # PAY-12: the floor verifies the royal flush
        ("api-jackpot-pay", "POST", None, True, False),  # the desk pays it
        ("api-bounties-pay", "POST", None, True, False),  # PAY-02: the desk pays the bounties won
        ("api-bounties-envelopes", "POST", None, False, False),  # PAY-02: the director fills the mystery bag
        ("payouts-tournament", "POST", "envelopes", False, False),
        ("api-jackpot", "PUT", None, False, False),  # the fund's base: the director
        ("tournament-detail", "DELETE", None, False, False),
        ("api-clock-op", "POST", "start", False, False),
        ("api-clock-op", "POST", "call-clock", False, True),
        ("api-seating-table-op", "POST", "hand-completed", False, True),
        ("api-seating-table-op", "POST", "tv", False, False),  # ROLE-08: the director marks the TV table
        ("seating-tables", "POST", "tv", False, False),
        ("tournament-streaming", "POST", None, False, False),  # ROLE-08: the director puts it on the air
        ("tournament", "POST", "streaming-on", False, False),
        ("api-seating-draw", "POST", None, False, False),
        ("api-seating-busts", "POST", None, False, True),
        ("api-seating-busts-simultaneous", "POST", None, False, True),  # ELM-03: the floor marks busts it cannot order
        ("api-check-in", "POST", None, True, False),  # REG-02: the desk checks players in
        ("api-transfer-cleared", "POST", None, True, False),  # REG-02: the cashier confirms the funds cleared
        ("api-no-show", "POST", None, True, False),  # REG-09
        ("api-presence", "POST", None, True, True),  # ELM-05: absent or withdrawn, seen at the desk or the table
        ("api-banned-paid", "GET", None, True, False),  # REG-05: the refunds the desk offers
        ("seating-tables", "POST", "simultaneous", False, True),
        ("api-deal-action", "POST", "approve", False, False),
        ("api-deal-action", "POST", "accept", False, True),
        ("seating-tables", "POST", "draw", False, False),
        ("seating-tables", "POST", "bust", False, True),
        ("api-seating-manual-draw", "POST", None, False, True),  # SEAT-01/04: the floor enters the cards drawn
        ("seating-manual-draw", "POST", None, False, True),
        ("api-seating-keep-apart", "POST", None, False, False),  # SEAT-07: the director decides
        ("api-seating-reservations", "POST", None, False, False),
        ("seating-constraints", "POST", None, False, False),
        ("payouts-tournament", "POST", "signoff", False, False),  # ELM-07: the director and the controller only
        ("api-signoff", "POST", None, False, False),
        ("payouts-tournament", "POST", "lock", False, False),
        ("api-rulings", "POST", None, False, True),
        ("api-ruling-notes", "POST", None, False, True),
        ("tournament", "POST", "addendum", True, False),
        ("api-stub-reports", "POST", None, True, False),
        ("screen-detail", "PATCH", None, False, False),  # a screen's rotation: the director's
    ],
)
def test_who_may_act(name, method, op, cashier, floor):
    assert policy.permits({"cashier"}, name, method, op) is cashier
    assert policy.permits({"floor"}, name, method, op) is floor
    assert policy.permits({"director"}, name, method, op)
    assert not policy.permits(set(), name, method, op)


@pytest.mark.parametrize("name", ["favicon", "manifest"])
def test_the_favicon_and_the_app_manifest_are_public_and_read_only(name):
    assert policy.is_public(name, "GET")
    assert set(policy.POLICY[name]) == {"GET"}


def test_the_desks_last_sales_are_for_the_desk_only():
    for role in ("cashier", "director"):
        assert policy.permits({role}, "api-sales", "GET")
    for role in ("floor", "display", "controller", "regulator"):
        assert not policy.permits({role}, "api-sales", "GET"), role
    assert not policy.permits(set(), "api-sales", "GET")


def test_live_state_needs_a_screen_token_or_a_staff_login(users, screen_token, make_tournament):
    t = make_tournament()
    assert Client().get(f"/live/{t.pk}/state/").status_code == 403
    assert Client().get(f"/live/{t.pk}/state/?token=wrong").status_code == 403
    assert Client().get(f"/live/{t.pk}/state/?token={screen_token}").status_code == 200
    client = Client()
    client.force_login(users["display"])
    assert client.get(f"/live/{t.pk}/state/").status_code == 200
    # The seat lookup's pages are for the same eyes (issue #15).
    assert Client().get(f"/live/{t.pk}/seats/").status_code == 403
    assert Client().get(f"/live/{t.pk}/seats/?token=wrong").status_code == 403
    assert Client().get(f"/live/{t.pk}/seats/?token={screen_token}").status_code == 200
    assert client.get(f"/live/{t.pk}/seats/").status_code == 200
    outsider = Client()
    outsider.force_login(make_user("mx-nobody"))
    assert outsider.get(f"/live/{t.pk}/seats/").status_code == 403


def test_the_admin_is_not_open_to_staff_roles(users):
    for role in ROLES[1:]:
        client = Client()
        client.force_login(users[role])
        response = client.get("/admin/")
        assert response.status_code == 302 and "/admin/login/" in response["Location"]


# --- ROLE-01: the administrative controller and the regulator ------------------------------


@pytest.mark.parametrize(
    "name,method,op",
    [
        ("payouts-tournament", "POST", "signoff"),
        ("api-signoff", "POST", None),
    ],
)
def test_the_ranking_is_signed_by_the_director_and_the_controller_only(name, method, op):
    assert policy.permits({"controller"}, name, method, op)
    assert policy.permits({"director"}, name, method, op)
    for role in ("floor", "cashier", "display", "regulator"):
        assert not policy.permits({role}, name, method, op), role


@pytest.mark.parametrize("name", ["api-witness", "witness"])
def test_only_the_controller_witnesses_draws_and_moves_not_even_the_director(name):
    assert policy.permits({"controller"}, name, "POST")
    for role in ("director", "floor", "cashier", "display", "regulator"):
        assert not policy.permits({role}, name, "POST"), role


@pytest.mark.parametrize(
    "name",
    [
        "tournament-ledger",
        "tournament-events",
        "tournament-entries",
        "api-payouts-report",
        "payouts-report",
        "api-signoff",
        "api-rulings",
        "rulings",
        "api-witness",
        "witness",
        "payouts-tournament",
        "tournament",
        "api-stub-reports",
        "api-seating-moves",
    ],
)
def test_controller_and_regulator_read_reports_ledgers_and_the_log(name):
    assert policy.permits({"controller"}, name, "GET")
    assert policy.permits({"regulator"}, name, "GET")


def test_the_regulator_changes_nothing():
    for name, rules in policy.POLICY.items():
        for method, roles in rules.items():
            if method == "GET" or name in policy.OWN_LOGIN | policy.OWN_PHONE:
                continue
            ops = list(roles) if isinstance(roles, dict) else [None]
            for op in ops:
                assert not policy.permits({"regulator"}, name, method, op), (name, method, op)


def test_the_regulator_reads_only_tournament_routes_and_the_dashboard():
    """Every route the regulator may read is keyed by the tournament (so his grants apply) or
    is the dashboard; personal data, the desk and receipts by number are not his."""
    table = routes()
    for name in policy.POLICY:
        if policy.permits({"regulator"}, name, "GET") and not policy.is_public(name, "GET") and name not in policy.OWN_LOGIN:
            assert name == "dashboard" or name in policy.BY_TOURNAMENT, name
            if name != "dashboard":
                assert str(table[name].pattern).startswith(("tournaments/<int:pk>/", "^tournaments/(?P<pk>")), name
    for name in ("people", "person-list", "desk", "receipt", "api-receipt", "api-sales", "payouts-due", "api-payouts-slip"):
        assert not policy.permits({"regulator"}, name, "GET"), name


@pytest.fixture
def granted(db, make_tournament, director):
    mine, other = make_tournament(name="Granted"), make_tournament(name="Not granted")
    reg = make_user("corpo", "regulator")
    oversight.set_regulator_access(mine, "corpo", granted=True, actor=Actor(director))
    return reg, mine, other


def test_a_regulator_reads_the_tournaments_he_is_given_and_no_other(granted):
    reg, mine, other = granted
    api = APIClient()
    api.force_authenticate(reg)
    for path in ("ledger/", "events/", "entries/", "payouts/reports/payments/", "rulings/", "witness/", "stub-reports/"):
        assert api.get(f"/api/v1/tournaments/{mine.pk}/{path}").status_code == 200, path
        r = api.get(f"/api/v1/tournaments/{other.pk}/{path}")
        assert r.status_code == 404 and r.json()["code"] == "not_found", path
    page = Client()
    page.force_login(reg)
    assert page.get(f"/tournaments/{mine.pk}/").status_code == 200
    assert page.get(f"/tournaments/{mine.pk}/payouts/reports/payments.csv").status_code == 200
    assert page.get(f"/tournaments/{other.pk}/").status_code == 404
    assert page.get(f"/tournaments/{other.pk}/payouts/reports/payments.csv").status_code == 404
    dashboard = page.get("/").content.decode()
    assert "Granted" in dashboard and "Not granted" not in dashboard
    for path in ("", "payouts/", "rulings/", "witness/"):  # he reads; no page offers him an action
        html = page.get(f"/tournaments/{mine.pk}/{path}").content.decode()
        assert 'name="op"' not in html and 'name="event"' not in html, path
    assert 'href="/people/"' not in dashboard


def test_a_regulator_is_refused_every_change_even_on_his_tournament(granted):
    reg, mine, _other = granted
    api = APIClient()
    api.force_authenticate(reg)
    before = mine.events.count()
    for path, body in (
        ("rulings/", {"asked_by": "x", "question": "q", "decision": "d"}),
        ("witness/", {"event": 1}),
        ("payouts/signoff/", {}),
        ("stub-reports/", {}),
        ("clock/start/", {}),
    ):
        r = api.post(f"/api/v1/tournaments/{mine.pk}/{path}", body, format="json")
        assert r.status_code == 403, path
    page = Client()
    page.force_login(reg)
    assert page.post(f"/tournaments/{mine.pk}/", {"op": "start"}).status_code == 403
    assert page.post(f"/tournaments/{mine.pk}/rulings/", {"op": "record"}).status_code == 403
    assert mine.events.count() == before


def test_only_a_regulator_login_can_be_given_a_tournament(make_tournament, director, floor_user):
    t = make_tournament()
    with pytest.raises(DomainError) as e:
        oversight.set_regulator_access(t, floor_user.username, granted=True, actor=Actor(director))
    assert e.value.code == "not_a_regulator"
    make_user("corpo2", "regulator")
    r = APIClient()
    r.force_authenticate(director)
    assert r.post(f"/api/v1/tournaments/{t.pk}/regulators/", {"username": "corpo2"}, format="json").json() == {"regulators": ["corpo2"]}
    assert t.events.filter(action="tournaments.regulator.granted").exists()
    assert r.post(f"/api/v1/tournaments/{t.pk}/regulators/", {"username": "corpo2", "granted": False}, format="json").json() == {"regulators": []}


# --- ROLE-01: the dealer ----------------------------------------------------------------------

DEALER_ACTS = {
    ("api-seating-table-op", "POST", "hand-completed"),
    ("api-seating-busts", "POST", None),
    ("dealer-table", "POST", "hand"),
    ("dealer-table", "POST", "bust"),
}


def test_role01_the_dealer_reports_from_the_table_and_changes_nothing_else():
    """ROLE-01: a dealer reports a hand completed (hand-for-hand too) and a player out; every other
    change in the table is refused to him (money, moves, draws, the clock, penalties, people)."""
    allowed = set()
    for name, rules in policy.POLICY.items():
        for method, roles in rules.items():
            if method == "GET" or name in policy.OWN_LOGIN:
                continue
            for op in list(roles) if isinstance(roles, dict) else [None]:
                if policy.permits({"dealer"}, name, method, op) and not policy.is_public(name, method, op):
                    allowed.add((name, method, None if op == "*" else op))
    assert allowed == DEALER_ACTS


@pytest.mark.parametrize(
    "name",
    [
        "desk",
        "api-register",
        "api-rebuy",
        "api-payouts-pay",
        "api-payouts-due",
        "tournament-ledger",
        "tournament-entries",
        "person-list",
        "people",
        "api-receipt",
        "api-ticket-redeem",
        "tournament",
        "payouts-tournament",
        "seating-tables",
        "api-floor",
        "tournament-events",
    ],
)
def test_role01_the_dealer_sees_no_money_entries_or_personal_data(name):
    for method in policy.POLICY[name]:
        assert not policy.permits({"dealer"}, name, method), (name, method)


@pytest.mark.parametrize("name", ["dashboard", "dealer-table", "api-seating-tables", "api-clock", "api-seating-busts"])
def test_role01_the_dealer_reads_his_table_and_the_clock(name):
    assert policy.permits({"dealer"}, name, "GET")
