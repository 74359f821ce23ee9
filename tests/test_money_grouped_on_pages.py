"""Issue #39 item 10: money on the pages is written as the reader's language writes it — in
Italian "4.850,00", never "4850,00" (a Decimal left to the template, localised but not grouped)
nor "4850.00" (a string the view made with str())."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import timezone

from tournaments.cashier import services as cashier
from tournaments.formats.services import multiday

pytestmark = pytest.mark.django_db

UNGROUPED = re.compile(r"\b\d{4,}[.,]\d\d\b")


def italian(user) -> Client:
    c = Client()
    c.force_login(user)
    c.cookies["django_language"] = "it"
    return c


def test_the_desk_names_a_high_roller_by_its_grouped_price(make_tournament, cashier_user):
    make_tournament(name="High Roller", buy_in=Decimal("4850"), fee=Decimal("150"))
    html = italian(cashier_user).get("/desk/").content.decode()
    select = html.split('<select id="tournament">', 1)[1].split("</select>", 1)[0]
    assert "High Roller — 4.850,00+150,00\u00a0€" in select
    assert not UNGROUPED.findall(re.sub(r'data-[a-z-]+="[^"]*"', "", select))  # the data- attributes are for the script


def test_a_satellite_target_shows_its_grouped_price(make_tournament, director):
    satellite = make_tournament(name="Satellite")
    make_tournament(name="Main Event", buy_in=Decimal("4850"), fee=Decimal("150"))
    html = italian(director).get(f"/tournaments/{satellite.pk}/payouts/").content.decode()
    assert "Main Event (5.000,00\u00a0€)" in html


def test_the_multi_day_event_page_groups_the_prize_money(structure, actor, make_person, cashier_actor, director):
    now = timezone.now()
    event = multiday.create_event(
        name="Main Event",
        flights=[{"label": "1A", "start_at": now}],
        day2_start_at=now + timedelta(days=1),
        buy_in=Decimal("1000"),
        fee=Decimal("100"),
        starting_stack=30000,
        structure=structure,
        actor=actor,
    )
    flight = event.flights.get().tournament
    for _ in range(5):
        cashier.register(flight, make_person(), method="CASH", actor=cashier_actor)
    html = italian(director).get(f"/formats/multiday/{event.pk}/").content.decode()
    assert '<span id="event-money">5.000,00\u00a0€</span>' in html
