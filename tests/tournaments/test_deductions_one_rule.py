"""The prize pool deductions are checked once (``setup.deductions_error``): the tournament page
refuses what the API refuses, under the field that holds them, and both read the percent as a
Decimal (a float would round "99.9999999999999999999" up to 100 and refuse it)."""

import pytest

from tournaments.models import Tournament


def _page_values(structure, deductions_text):
    return {
        "name": "Friday Deep",
        "start_at": "2026-12-04T20:00",
        "game": "NLHE",
        "format": "REENTRY",
        "currency": "EUR",
        "buy_in": "200",
        "fee": "20",
        "starting_stack": "50000",
        "table_size": "9",
        "min_players": "10",
        "structure": structure.pk,
        "late_reg_closes_after_level": "6",
        "late_reg_end": "END_OF_LEVEL",
        "max_entries_per_player": "2",
        "rebuy_fee": "0",
        "rebuy_stack_threshold": "0",
        "addon_fee": "0",
        "addon_max": "1",
        "rule_set": "TDA",
        "deductions_text": deductions_text,
    }


def _api_values(structure, deductions):
    return {
        "name": "Friday Deep",
        "start_at": "2026-12-04T20:00:00+01:00",
        "buy_in": "200",
        "starting_stack": 50000,
        "structure": structure.pk,
        "table_size": 9,
        "deductions": deductions,
    }


# Each refused case as the page's lines and as the API's list.
REFUSED = {
    "21 items": ("\n".join(f"d{i} 1" for i in range(21)), [{"name": f"d{i}", "percent": "1"} for i in range(21)]),
    "an 81-character name": ("x" * 81 + " 3", [{"name": "x" * 81, "percent": "3"}]),
    "a percent that is no number": ("casino tre", [{"name": "casino", "percent": "tre"}]),
    "100 percent": ("casino 100", [{"name": "casino", "percent": "100"}]),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_the_page_refuses_what_the_api_refuses_naming_the_field(case, client, api, director, structure):
    lines, items = REFUSED[case]
    r = api(director).post("/api/v1/tournaments/", _api_values(structure, items), format="json")
    assert r.status_code == 400, r.content
    assert list(r.json()["fields"]) == ["deductions"]

    client.force_login(director)
    page = client.post("/tournaments/new/", _page_values(structure, lines))
    assert page.status_code == 200  # the form again, not a redirect
    errors = page.context["form"].errors
    assert list(errors) == ["deductions_text"]
    assert errors["deductions_text"] == r.json()["fields"]["deductions"]  # the same words on both
    assert not Tournament.objects.filter(name="Friday Deep").exists()


def test_twenty_items_and_an_80_character_name_pass_on_both(client, api, director, structure):
    items = [{"name": "x" * 80, "percent": "0.5"}] + [{"name": f"d{i}", "percent": "1"} for i in range(19)]
    r = api(director).post("/api/v1/tournaments/", _api_values(structure, items), format="json")
    assert r.status_code == 201, r.content
    assert Tournament.objects.get(pk=r.json()["id"]).deductions == items
    client.force_login(director)
    page = client.post("/tournaments/new/", {**_page_values(structure, "\n".join(f"{d['name']} {d['percent']}" for d in items)), "name": "Page"})
    assert page.status_code == 302, page.context["form"].errors
    assert Tournament.objects.get(name="Page").deductions == items


def test_a_percent_just_under_100_is_read_as_a_decimal_on_the_page_as_on_the_api(client, api, director, structure):
    percent = "99.9999999999999999999"  # float("…") == 100.0
    r = api(director).post("/api/v1/tournaments/", _api_values(structure, [{"name": "casino", "percent": percent}]), format="json")
    assert r.status_code == 201, r.content
    client.force_login(director)
    page = client.post("/tournaments/new/", {**_page_values(structure, f"casino {percent}%"), "name": "Page"})
    assert page.status_code == 302, page.context["form"].errors
    assert Tournament.objects.get(name="Page").deductions == [{"name": "casino", "percent": percent}]
