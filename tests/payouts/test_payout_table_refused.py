"""The payout table the director writes, and the venue's templates, as the API and the page answer
them: each refusal names the rule the table breaks (PAY-03: no lower place paid more; PAY-05: the
places add up to the pool, a locked table is unlocked first, a paid place keeps its prize), and
a table or template that keeps the rules is taken as written."""

import html
import re
from decimal import Decimal

import pytest
from django.test import Client

from payouts import selectors as psel
from payouts import services
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Entry

from .test_payout_refusals_read import five  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db
D = Decimal


def write(api, user, t, body):
    return api(user).post(f"/api/v1/tournaments/{t.pk}/payouts/table/", body, format="json")


def gaps(place):
    return {"code": "missing_place", "detail": f"Place {place} has no prize: places must run from 1 without gaps."}


@pytest.mark.parametrize(
    "body, answer",
    [
        ({"prizes": []}, {"code": "empty_table", "detail": "A payout table needs at least one place."}),
        ({"amounts": []}, {"code": "empty_table", "detail": "A payout table needs at least one place."}),
        ({"prizes": [{"place": 2, "amount": "300"}, {"place": 3, "amount": "200"}]}, gaps(1)),
        ({"prizes": [{"place": 1, "amount": "300"}, {"place": 2, "amount": "100"}, {"place": 4, "amount": "100"}]}, gaps(3)),
        ({"amounts": ["250", "100", "150"]}, {"code": "not_non_increasing", "detail": "Place 3 (150.00) cannot be paid more than place 2 (100.00)."}),
        ({"amounts": ["300", "300"]}, {"code": "wrong_total", "detail": "The prizes add up to 600.00 but the prize pool is 500.00 (100.00 over)."}),
        ({"amounts": ["200", "100"]}, {"code": "wrong_total", "detail": "The prizes add up to 300.00 but the prize pool is 500.00 (200.00 short)."}),
        (
            {"prizes": [{"place": 1, "amount": "500", "description": "a\u202eb"}]},
            {
                "code": "bidi_control",
                "detail": "Place 1: Remove the invisible characters that turn the text around (right-to-left marks).",
                "field": "prizes[0].description",
                "fields": {"prizes[0].description": ["Remove the invisible characters that turn the text around (right-to-left marks)."]},
            },
        ),
    ],
)
def test_pay05_a_written_table_is_refused_with_the_rule_it_breaks(five, api, director, body, answer):
    t, _entries = five
    r = write(api, director, t, body)
    assert (r.status_code, r.json()) == (400, answer)
    assert psel.table_state(t) == "AUTO"  # nothing stored


def test_pay03_equal_places_and_a_seat_in_another_event_are_written_as_sent(five, make_tournament, api, director):
    t, _entries = five
    r = write(api, director, t, {"amounts": ["250", "250"]})
    assert r.status_code == 200, r.content
    assert [(p["place"], p["amount"]) for p in r.json()["prizes"]] == [(1, "250.00"), (2, "250.00")]

    main = make_tournament(name="Main Event", buy_in=D("500"), fee=D("50"))
    r = write(api, director, t, {"prizes": [{"place": 1, "kind": "SEAT", "amount": "500", "target": main.pk}, {"place": 2, "kind": "ITEM", "amount": "0"}]})
    assert r.status_code == 200, r.content
    r = api(director).get(f"/api/v1/tournaments/{t.pk}/payouts/table/")
    assert r.json()["prizes"] == [
        {"place": 1, "kind": "SEAT", "amount": "500.00", "description": "", "target": main.pk},
        {"place": 2, "kind": "ITEM", "amount": "0.00", "description": "", "target": None},
    ]


def test_pay05_a_locked_table_is_unlocked_before_it_is_written(five, api, director, actor):
    t, _entries = five
    services.lock_payout_table(t, actor=actor)
    r = write(api, director, t, {"amounts": ["500"]})
    assert (r.status_code, r.json()) == (
        409,
        {"code": "table_locked", "detail": "The payout table is locked and published: the director unlocks it first, with a reason (PAY-05)."},
    )


def test_pay05_a_satellites_table_adds_up_to_the_satellites_own_pool(make_tournament, make_person, cashier_actor, actor, api, director):
    """A satellite sharing the gross (fees in) pays €110 of five €20 + €2 entries, not the €100 prize pool."""
    main = make_tournament(name="Main Event", buy_in=D("500"), fee=D("50"))
    sat = make_tournament(name="Satellite", buy_in=D("20"), fee=D("2"))
    for _ in range(5):
        cashier.register(sat, make_person(), method="CASH", actor=cashier_actor)
    services.link_satellite(sat, main, actor=actor, prize_base="GROSS")
    r = write(api, director, sat, {"amounts": ["100"]})
    assert (r.status_code, r.json()["detail"]) == (400, "The prizes add up to 100.00 but the prize pool is 110.00 (10.00 short).")
    r = write(api, director, sat, {"amounts": ["110"]})
    assert r.status_code == 200, r.content
    r = api(director).post(f"/api/v1/tournaments/{sat.pk}/payouts/table/lock/", {}, format="json")
    assert (r.status_code, r.json()["state"], r.json()["total"]) == (200, "LOCKED", "110.00"), r.content


def test_pay05_the_payouts_page_refuses_place_zero_and_keeps_200_characters_of_a_description(five, director):
    t, _entries = five
    c = Client()
    c.force_login(director)

    def said(prizes):
        r = c.post(f"/tournaments/{t.pk}/payouts/", {"op": "edit", "prizes": prizes}, follow=True)
        return [html.unescape(m) for m in re.findall(r'<ul class="messages"><li class="\w+">(.*?)</li></ul>', r.content.decode(), re.S)]

    assert said("0 500") == ["Place 0: unknown prize or place."]
    assert said("1 500 " + "x" * 250) == ["Done."]
    assert [(p["place"], p["kind"], p["description"]) for p in psel.table_prizes(t)] == [(1, "CASH", "x" * 200)]


def test_pay05_a_paid_place_keeps_its_prize_when_the_table_is_written_again(five, api, director, actor):
    t, entries = five
    assert write(api, director, t, {"amounts": ["300", "150", "50"]}).status_code == 200
    services.lock_payout_table(t, actor=actor)
    third = entries[-1]
    third.status, third.place = Entry.BUSTED, 3
    third.save(update_fields=["status", "place"])
    services.sign_off_ranking(t, actor=actor)
    services.sign_off_ranking(t, actor=Actor(make_user("ctrl", "controller")))
    services.pay_prize(third, method="CASH", actor=actor)
    services.unlock_payout_table(t, actor=actor, reason="first and second agree another split")
    second = entries[-2]
    second.status, second.place = Entry.BUSTED, 2  # decided, not paid yet: its prize may still change
    second.save(update_fields=["status", "place"])

    r = write(api, director, t, {"amounts": ["320", "130", "50"]})  # the places not paid yet change
    assert r.status_code == 200, r.content
    r = write(api, director, t, {"amounts": ["300", "160", "40"]})
    assert (r.status_code, r.json()) == (409, {"code": "place_already_paid", "detail": "Place 3 has already been paid: its prize cannot change."})
    assert [(p["place"], p["amount"]) for p in psel.table_prizes(t)] == [(1, D("320.00")), (2, D("130.00")), (3, D("50.00"))]


def band(low, high, *percents):
    return {"from": low, "to": high, "percents": list(percents)}


@pytest.mark.parametrize(
    "body, status, answer",
    [
        ({"percents": ["50", "50", "0"]}, 400, {"code": "bad_percent", "detail": "Every place needs a positive percentage."}),
        ({"percents": []}, 400, {"code": "bad_percent", "detail": "Every place needs a positive percentage."}),
        ({"percents": ["40", "60"]}, 400, {"code": "not_non_increasing", "detail": "A lower place cannot get a larger percentage."}),
        ({"percents": ["50", "20", "30"]}, 400, {"code": "not_non_increasing", "detail": "A lower place cannot get a larger percentage."}),
        ({"percents": ["60", "30"]}, 400, {"code": "percent_total", "detail": "The percentages add up to 90.000, not 100."}),
        ({"percents": ["99.5", "0.5"]}, 201, {"name": "Venue", "percents": ["99.500", "0.500"], "bands": []}),
        ({"bands": [band(1, 5, "abc")]}, 400, {"code": "bad_percent", "detail": "Band 1–5: Percentages must be numbers.", "band": 0}),
        ({"bands": [band(1, 9, "0")]}, 400, {"code": "bad_percent", "detail": "Band 1–9: Every place needs a positive percentage.", "band": 0}),
        (
            {"bands": [{"to": 5, "percents": ["100"]}]},
            400,
            {"code": "bad_band", "detail": "Each band needs the field sizes it is for: from, and to (or none: and more).", "band": 0},
        ),
        (
            {"bands": [band(2, 5, "100"), band(0, 1, "100")]},
            400,
            {"code": "bad_band", "detail": "Band 0–1: the field sizes run from the smaller to the larger.", "band": 1},
        ),
        ({"bands": [band(10, 5, "100")]}, 400, {"code": "bad_band", "detail": "Band 10–5: the field sizes run from the smaller to the larger.", "band": 0}),
        ({"bands": [band(5, 5, "100")]}, 201, {"name": "Venue", "percents": [], "bands": [band(5, 5, "100")]}),
        (
            {"bands": [band(2, 9, "50", "30", "20")]},
            400,
            {"code": "too_many_places", "detail": "Band 2–9 pays 3 places: more than its smallest field.", "band": 0},
        ),
        ({"bands": [band(1, 9, "70", "30")]}, 400, {"code": "too_many_places", "detail": "Band 1–9 pays 2 places: more than its smallest field.", "band": 0}),
        ({"bands": [band(3, "", "50", "30", "20")]}, 201, {"name": "Venue", "percents": [], "bands": [band(3, None, "50", "30", "20")]}),
        ({"bands": [band(10, 20, "100"), band(1, 10, "100")]}, 400, {"code": "bands_overlap", "detail": "The bands 1–10 and 10–20 overlap.", "band": 1}),
        ({"bands": [band(1, 10, "100"), band(5, 20, "100")]}, 400, {"code": "bands_overlap", "detail": "The bands 1–10 and 5–20 overlap.", "band": 1}),
        ({"bands": [band(30, 40, "100"), band(1, None, "100")]}, 400, {"code": "bands_overlap", "detail": "The bands 1+ and 30–40 overlap.", "band": 1}),
        (
            {"bands": [band(10, None, "60", "40"), band(1, 9, "100")]},
            201,
            {"name": "Venue", "percents": [], "bands": [band(1, 9, "100"), band(10, None, "60", "40")]},
        ),
    ],
)
def test_pay05_a_venue_template_is_refused_with_the_band_and_rule_it_breaks(api, director, body, status, answer):
    r = api(director).post("/api/v1/payouts/templates/", {"name": "Venue", **body}, format="json")
    got = r.json()
    got.pop("id", None)
    assert (r.status_code, got) == (status, answer)
