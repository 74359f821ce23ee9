"""Every input validated before anything is written (issue #11, the outside tester's list).

Bad input is a 4xx ``{"code", "detail"}`` in the user's language and leaves no row behind;
a tournament cannot be put into a state its own pages cannot show; delete means what a
director expects. The fuzzer over the whole schema is ``tests/test_api_fuzz.py``.
"""

from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction
from django.test import Client

from tests.conftest import tournament_form
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.formats.models import StackOption
from tournaments.house import HouseRules
from tournaments.models import ChipSet, DisplayScreen, LedgerRow, Tournament, TournamentEvent

pytestmark = pytest.mark.django_db


def page_client(user):
    c = Client()
    c.force_login(user)
    return c


def refused(r, status=400, code=None):
    assert r.status_code == status, (r.status_code, getattr(r, "content", b"")[:300])
    assert r["Content-Type"].startswith("application/json")
    body = r.json()
    assert set(body) >= {"code", "detail"}, body
    if code:
        assert body["code"] == code, body
    return body


# --- money without a sign, NaN, huge numbers --------------------------------------------------------


@pytest.mark.parametrize("buy_in, fee", [("-100", "-5"), ("NaN", "5"), ("Infinity", "5"), ("1e30", "5"), ("100", "-5"), ("10.005", "1")])
def test_a_sit_and_go_with_a_price_below_zero_or_not_a_number_is_refused_and_nothing_is_written(api, director, structure, buy_in, fee):
    before = Tournament.objects.count()
    r = api(director).post(
        "/api/v1/formats/sit-and-go/", {"name": "Bad S&G", "buy_in": buy_in, "fee": fee, "starting_stack": 5000, "structure": structure.pk}, format="json"
    )
    refused(r, 400)
    assert Tournament.objects.count() == before


@pytest.mark.parametrize("stack", [-5000, 0, 1e30, "NaN", "abc", True, [5000]])
def test_a_sit_and_go_needs_a_stack_the_column_holds(api, director, structure, stack):
    r = api(director).post(
        "/api/v1/formats/sit-and-go/", {"name": "Bad S&G", "buy_in": "30", "starting_stack": stack, "structure": structure.pk}, format="json"
    )
    refused(r, 400)
    assert not Tournament.objects.filter(name="Bad S&G").exists()


def test_the_sit_and_go_page_form_refuses_a_negative_price_too(director, structure):
    r = page_client(director).post(
        "/formats/sit-and-go/new/",
        {"name": "Page S&G", "start_at": "2026-07-09T19:00", "buy_in": "-100", "fee": "-5", "starting_stack": "5000", "structure": structure.pk, "tables": "1"},
    )
    assert r.status_code == 200  # the form again, with the reason
    assert not Tournament.objects.filter(name="Page S&G").exists()


@pytest.mark.parametrize(
    "body",
    [
        {"buy_in": "NaN"},
        {"buy_in": "-1"},
        {"buy_in": "1e30"},
        {"chips": -1},
        {"chips": 0},
        {"chips": 1e30},
        {"chips": "NaN"},
        {"fee": "-0.01"},
        {"label": "x" * 61},
    ],
)
def test_stack_options_refuse_nan_huge_and_negative_values(api, director, make_tournament, body):
    t = make_tournament(status=Tournament.PLANNED)
    data = {"label": "Deep", "buy_in": "100", "fee": "10", "chips": 40000, **body}
    refused(api(director).post(f"/api/v1/formats/tournaments/{t.pk}/stack-options/", data, format="json"), 400)
    assert not StackOption.objects.exists()


def test_the_tournament_api_refuses_negative_money_and_empty_stacks(api, director, structure, make_tournament):
    base = {"name": "T", "start_at": "2026-07-09T19:00:00Z", "buy_in": "100", "fee": "10", "starting_stack": 30000, "structure": structure.pk}
    for bad in (
        {"buy_in": "-100"},
        {"fee": "-1"},
        {"starting_stack": 0},
        {"starting_stack": -1},
        {"rebuy_price": "-1", "format": "REBUY"},
        {"buy_in": "NaN"},
        {"buy_in": "100000000000000"},
    ):
        body = refused(api(director).post("/api/v1/tournaments/", {**base, **bad}, format="json"), 400, "invalid")
        assert set(bad) & set(body["fields"]), body
    assert not Tournament.objects.filter(name="T").exists()


def test_a_start_time_far_in_the_past_or_future_is_refused(api, director, structure):
    # Found by the fuzzer: a year-426 start came back with Rome's local mean time offset (+00:49:56),
    # which is not an RFC 3339 date-time: clients could not read the tournament list any more.
    base = {"name": "Old", "buy_in": "100", "fee": "10", "starting_stack": 30000, "structure": structure.pk}
    for when in ("0426-01-16T02:31:26Z", "9999-12-31T23:59:59Z"):
        body = refused(api(director).post("/api/v1/tournaments/", {**base, "start_at": when}, format="json"), 400, "invalid")
        assert "start_at" in body["fields"]
    r = api(director).post("/api/v1/formats/sit-and-go/", {**base, "start_at": "0426-01-16T02:31:26Z"}, format="json")
    refused(r, 400, "bad_field")
    assert not Tournament.objects.filter(name="Old").exists()


def test_the_tournament_page_form_refuses_what_the_api_refuses(director, structure, make_tournament):
    c = page_client(director)
    base = tournament_form(structure.pk, "Page T")
    assert c.post("/tournaments/new/", base).status_code == 302
    for bad in (
        {"buy_in": "-100"},
        {"fee_preset": "CUSTOM", "fee_override": "-5"},
        {"starting_stack": "0"},
        {"start_at": "0426-01-16T02:31"},
        {"table_size": "1"},
    ):
        r = c.post("/tournaments/new/", {**base, **bad, "name": "Bad page T"})
        assert r.status_code == 200, bad
    assert not Tournament.objects.filter(name="Bad page T").exists()


def test_the_database_refuses_negative_prices_and_empty_stacks_as_the_last_line(make_tournament):
    for bad in ({"buy_in": Decimal("-100")}, {"fee": Decimal("-5")}, {"starting_stack": 0}, {"rebuy_price": Decimal("-1")}, {"table_size": 1}):
        with pytest.raises(IntegrityError), transaction.atomic():
            make_tournament(**bad)


# --- reasons, limits, query parameters -----------------------------------------------------------------


def test_a_reason_longer_than_its_column_is_refused_on_reverse_and_refund(api, director, tournament, person, cashier_actor):
    sale = cashier.register(tournament, person, method="CASH", actor=cashier_actor)
    r = api(director).post("/api/v1/cashier/reverse/", {"receipt_number": sale.row.receipt_number, "reason": "x" * 201}, format="json")
    assert refused(r, 400, "invalid")["fields"]["reason"]
    r = api(director).post("/api/v1/cashier/refund/", {"entry": sale.entry.pk, "reason": "x" * 201}, format="json")
    assert refused(r, 400, "invalid")["fields"]["reason"]
    assert LedgerRow.objects.count() == 1


@pytest.mark.parametrize("limit", ["abc", "-1", "1e20", "0", "null", "true"])
def test_list_limits_that_are_not_whole_numbers_are_refused(api, director, tournament, make_person, limit):
    # Issue #30: the schema says integers; a bad value was read as the default page, now a 400 naming it.
    for _ in range(3):
        make_person()
    c = api(director)
    for url in ("/api/v1/people/", "/api/v1/tournaments/", f"/api/v1/tournaments/{tournament.pk}/events/", "/api/v1/people/?q=Pla"):
        r = c.get(url + ("&" if "?" in url else "?") + f"limit={limit}")
        assert "limit" in refused(r, 400, "bad_parameter")["fields"], url


def _rows(response) -> list:
    body = response.json()
    return body["results"] if isinstance(body, dict) else body


def test_list_limits_and_offsets_beyond_any_table_are_bounded(api, director, tournament, make_person):
    for _ in range(3):
        make_person()
    cashier.register(tournament, make_person(), method="CASH", actor=Actor(director, "test"))  # an event to list
    c = api(director)
    for url in ("/api/v1/people/", "/api/v1/tournaments/", f"/api/v1/tournaments/{tournament.pk}/events/", "/api/v1/people/?q=Pla"):
        join = "&" if "?" in url else "?"
        r = c.get(url + join + "limit=99999999999999999999999&offset=99999999999999999999999")
        assert r.status_code == 200, (url, r.status_code)
        if url in ("/api/v1/people/", "/api/v1/tournaments/"):  # the paged lists; the log and a search give the first rows
            assert _rows(r) == [], url  # past the end: nothing, not an error
        everything = _rows(c.get(url + join + "limit=100000"))
        huge = c.get(url + join + "limit=99999999999999999999999")
        assert huge.status_code == 200 and _rows(huge) == everything and everything, url  # the limit is cut to the largest page


def test_a_list_never_gives_more_than_its_maximum(api, director, make_person):
    from tdmanager.api import MAX_LIMIT

    for _ in range(3):
        make_person()
    r = api(director).get("/api/v1/people/?limit=100000000")
    assert r.status_code == 200 and len(r.json()["results"]) == 3
    assert "limit=%d" % MAX_LIMIT in (r.json()["next"] or f"limit={MAX_LIMIT}")


def test_a_person_filter_that_is_not_a_number_is_a_400(api, director, tournament):
    refused(api(director).get(f"/api/v1/tournaments/{tournament.pk}/entries/?person=abc"), 400, "bad_parameter")


def test_an_id_too_large_for_the_database_is_a_404(api, director):
    refused(api(director).get("/api/v1/tournaments/99999999999999999999999/"), 404, "not_found")


# --- objects where objects are expected --------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    ["/api/v1/formats/sit-and-go/", "/api/v1/formats/multiday/", "/api/v1/formats/headsup/", "/api/v1/formats/series/", "/api/v1/formats/qualifier-groups/"],
)
def test_a_json_list_where_an_object_is_expected_is_a_400_on_every_formats_post(api, director, url):
    refused(api(director).post(url, [1, 2], format="json"), 400, "bad_body")


def test_a_json_list_body_on_start_cancel_and_the_formats_actions_is_a_400(api, director, make_tournament):
    t = make_tournament()
    c = api(director)
    for url in (
        f"/api/v1/tournaments/{t.pk}/start/",
        f"/api/v1/tournaments/{t.pk}/cancel/",
        f"/api/v1/formats/timed/{t.pk}/configure/",
        f"/api/v1/formats/tournaments/{t.pk}/stack-options/",
        f"/api/v1/tournaments/{t.pk}/clock/pause/",
    ):
        refused(c.post(url, ["x"], format="json"), 400)
    t.refresh_from_db()
    assert t.status == Tournament.REGISTERING


def test_multipart_nulls_for_json_fields_are_refused(api, director, tournament):
    screen = DisplayScreen.objects.create(name="TV", tournament=tournament, token="tok")
    c = api(director)
    # Issue #30: the API takes JSON only (a form's values are all text), so a form is refused whole.
    r = c.patch(f"/api/v1/screens/{screen.pk}/", {"show": "null"}, format="multipart")
    refused(r, 415, "unsupported_media_type")
    r = c.patch(f"/api/v1/tournaments/{tournament.pk}/", {"settings": "null"}, format="multipart")
    refused(r, 415, "unsupported_media_type")
    tournament.refresh_from_db()
    screen.refresh_from_db()
    assert tournament.settings == {} and screen.show == {}


def test_a_chip_denomination_without_a_value_is_a_400(api, director):
    cs = ChipSet.objects.create(name="Home")
    r = api(director).patch(f"/api/v1/chipsets/{cs.pk}/", {"denominations": [{"colour": "red", "quantity": 10}]}, format="json")
    refused(r, 400, "invalid")
    assert not cs.denominations.exists()


def test_serving_a_penalty_with_hands_that_are_not_a_number_is_a_400(api, director, tournament, person, cashier_actor):
    from tournaments.eventlog.services import Actor
    from tournaments.floor import services as floor

    entry = cashier.register(tournament, person, method="CASH", actor=cashier_actor).entry
    p = floor.issue_penalty(tournament, entry, kind="MISSED_HANDS", reason_code="SOFT_PLAY", hands=3, actor=Actor(director, "t"))
    refused(api(director).post(f"/api/v1/penalties/{p.pk}/serve/", {"hands": "abc"}, format="json"), 400)
    p.refresh_from_db()
    assert p.hands_served == 0


@pytest.mark.parametrize(
    "body",
    [
        {"counts": [{}]},
        {"counts": [{"entry": "abc", "chips": 1}]},
        {"counts": [{"entry": 1, "chips": 1e30}]},
        {"counts": [{"entry": 1, "chips": -5}]},
        {"counts": ["x"]},
    ],
)
def test_chip_counts_need_entries_and_stacks(api, director, tournament, body):
    refused(api(director).post(f"/api/v1/tournaments/{tournament.pk}/floor/counts/", body, format="json"), 400, "invalid")


def test_a_chip_race_needs_seats_and_chip_values(api, director, tournament):
    body = {"table": 1, "removed_denomination": 25, "new_denomination": 100, "players": [{"seat": "one"}]}
    refused(api(director).post(f"/api/v1/tournaments/{tournament.pk}/floor/race/", body, format="json"), 400, "invalid")


def test_page_parameters_that_are_not_numbers_are_not_server_errors(director, tournament):
    c = page_client(director)
    assert c.get("/desk/?t=abc").status_code == 404
    assert c.get("/desk/?t=%C2%B2").status_code == 404
    assert c.get(f"/desk/?t={tournament.pk}").status_code == 200
    assert c.get("/payouts/due/?t=abc").status_code == 404
    assert c.get(f"/tournaments/{tournament.pk}/floor/?entry=%C2%B2").status_code == 200


# --- a tournament its pages can always show --------------------------------------------------------------


@pytest.mark.parametrize(
    "house",
    [
        "x",
        None,
        [],
        {"late_reg_stack": "HALF"},
        {"no_such_setting": 1},
        {"final_table_size": "nine"},
        {"break_order": ["a"]},
        {"percent_paid": "NaN"},
        {"h4h_seconds_per_hand": 0},
    ],
)
def test_settings_must_be_an_object_of_known_settings(api, director, tournament, house):
    r = api(director).patch(f"/api/v1/tournaments/{tournament.pk}/", {"settings": house}, format="json")
    refused(r, 400, "invalid")
    tournament.refresh_from_db()
    assert tournament.settings == {}


def test_known_settings_are_kept_and_the_pages_still_show(api, director, tournament):
    house = {"late_reg_stack": {"percent": 80}, "final_table_size": 8, "payout_rounding": "10", "break_order": [3, 2, 1]}
    r = api(director).patch(f"/api/v1/tournaments/{tournament.pk}/", {"settings": house}, format="json")
    assert r.status_code == 200, r.json()
    tournament.refresh_from_db()
    assert tournament.settings == house  # kept as sent
    rules = HouseRules.of(tournament)
    assert (rules.final_table_size, rules.payout_rounding, rules.break_order) == (8, Decimal("10"), [3, 2, 1])
    c = page_client(director)
    for url in (f"/tournaments/{tournament.pk}/", f"/tournaments/{tournament.pk}/clock/", f"/tournaments/{tournament.pk}/payouts/"):
        page = c.get(url)
        assert page.status_code == 200 and tournament.name in page.content.decode(), url


def test_a_tournament_broken_before_the_fix_still_shows(api, director, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(settings="x")  # written by hand, or before validation
    c = page_client(director)
    for url in (f"/tournaments/{tournament.pk}/", f"/tournaments/{tournament.pk}/clock/", f"/tournaments/{tournament.pk}/payouts/"):
        assert c.get(url).status_code == 200, url
    assert api(director).get(f"/api/v1/tournaments/{tournament.pk}/payouts/").status_code == 200


def test_a_satellite_needs_a_target_with_a_price_and_the_target_keeps_it(api, director, make_tournament):
    sat = make_tournament(name="Satellite")
    free = make_tournament(name="Freeroll", buy_in=Decimal("0"), fee=Decimal("0"))
    c = api(director)
    refused(c.post(f"/api/v1/tournaments/{sat.pk}/payouts/satellite/", {"target": free.pk}, format="json"), 400, "target_without_price")
    main = make_tournament(name="Main", buy_in=Decimal("500"), fee=Decimal("50"))
    assert c.post(f"/api/v1/tournaments/{sat.pk}/payouts/satellite/", {"target": main.pk}, format="json").status_code == 201
    r = c.patch(f"/api/v1/tournaments/{main.pk}/", {"buy_in": "0", "fee": "0", "override_reason": "free now"}, format="json")
    refused(r, 400, "invalid")
    pages = page_client(director)
    for t in (sat, main):
        assert pages.get(f"/tournaments/{t.pk}/").status_code == 200
        assert pages.get(f"/tournaments/{t.pk}/payouts/").status_code == 200
        assert c.get(f"/api/v1/tournaments/{t.pk}/payouts/").status_code == 200


# --- delete ------------------------------------------------------------------------------------------------


def test_a_tournament_without_sales_is_deleted_and_the_log_keeps_its_rows(api, director, structure):
    c = api(director)
    r = c.post(
        "/api/v1/tournaments/",
        {"name": "Duplicate", "start_at": "2026-07-09T19:00:00Z", "buy_in": "100", "fee": "10", "starting_stack": 30000, "structure": structure.pk},
        format="json",
    )
    assert r.status_code == 201
    pk = r.json()["id"]
    assert c.delete(f"/api/v1/tournaments/{pk}/").status_code == 204
    assert not Tournament.objects.filter(pk=pk).exists()
    assert TournamentEvent.objects.filter(action="tournaments.tournament.created", tournament__isnull=True).exists()
    assert TournamentEvent.objects.get(action="tournaments.tournament.deleted").payload == {"tournament_id": pk, "name": "Duplicate"}


def test_a_tournament_with_sales_is_not_deleted_cancel_it_instead(api, director, tournament, person, cashier_actor):
    cashier.register(tournament, person, method="CASH", actor=cashier_actor)
    body = refused(api(director).delete(f"/api/v1/tournaments/{tournament.pk}/"), 409, "tournament_has_sales")
    assert "cancel" in body["detail"].lower()
    assert Tournament.objects.filter(pk=tournament.pk).exists()


def test_refusals_are_in_the_users_language(api, director, tournament, person, cashier_actor):
    cashier.register(tournament, person, method="CASH", actor=cashier_actor)
    r = api(director).delete(f"/api/v1/tournaments/{tournament.pk}/", HTTP_ACCEPT_LANGUAGE="it")
    body = refused(r, 409, "tournament_has_sales")
    assert "annull" in body["detail"].lower(), body
    r = api(director).post("/api/v1/formats/sit-and-go/", [1], format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert "oggetto" in refused(r, 400, "bad_body")["detail"].lower()
