"""The venue's jackpot fund as the director sets it (PAY-12): the first base names it "Jackpot"
unless he names it, and setting the base again changes that one fund, keeping its name."""

import pytest

pytestmark = pytest.mark.django_db


def test_pay12_the_jackpot_fund_keeps_one_name_as_its_base_changes(api, director):
    r = api(director).put("/api/v1/jackpot/", {"base": "1000"}, format="json")
    assert r.status_code == 200, r.content
    assert (r.json()["fund"]["name"], r.json()["fund"]["base"]) == ("Jackpot", "1000.00")
    r = api(director).put("/api/v1/jackpot/", {"base": "1500", "name": "Royal Flush Jackpot"}, format="json")
    assert (r.json()["fund"]["name"], r.json()["fund"]["base"]) == ("Royal Flush Jackpot", "1500.00")
    r = api(director).put("/api/v1/jackpot/", {"base": "2000"}, format="json")
    assert (r.json()["fund"]["name"], r.json()["fund"]["base"]) == ("Royal Flush Jackpot", "2000.00")
    r = api(director).get("/api/v1/jackpot/")
    assert (r.json()["fund"]["name"], r.json()["fund"]["base"]) == ("Royal Flush Jackpot", "2000.00")
