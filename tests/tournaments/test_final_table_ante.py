"""CLK-02 / RP-11: antes are not reduced, also at the final table; and the lobby and the phone
say whether the ante is a big blind ante ("BB ante") or a per-player ante ("Ante")."""

import json
import re

import pytest
from django.test import Client
from django.utils import translation

from tournaments.clock import rules as clock_rules
from tournaments.clock.rules import BB_ANTE, Level
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import log_event
from tournaments.models import Clock
from tournaments.structures import services as structures

ITEMS = [
    {"kind": "LEVEL", "small_blind": 1000, "big_blind": 2000, "ante": 3000, "big_blind_ante": True, "minutes": 30},
    {"kind": "LEVEL", "small_blind": 1000, "big_blind": 2000, "ante": 2000, "big_blind_ante": True, "minutes": 30},
    {"kind": "LEVEL", "small_blind": 1500, "big_blind": 2500, "ante": 2500, "big_blind_ante": True, "minutes": 30},
]


def test_a_level_at_the_final_table_below_an_earlier_ante_is_flagged():
    levels = [Level(1000, 2000, 3000, BB_ANTE, minutes=30), Level(1000, 2000, 2000, BB_ANTE, minutes=30), Level(1500, 2500, 2500, BB_ANTE, minutes=30)]
    # 3,000 → 2,000 falls from one level to the next; 2,000 → 2,500 does not, so only row 2 is flagged...
    assert [w["item_index"] for w in clock_rules.validate_structure(levels)] == [1]
    # ...but a final table reached at level 3 plays a 2,500 ante, lower than the 3,000 played before it.
    warnings = clock_rules.final_table_ante_warnings(levels, 2)
    assert [(w["code"], w["item_index"]) for w in warnings] == [("ante_lowered_at_final_table", 2)]
    rising = [Level(100, 200, 200, BB_ANTE, minutes=30), Level(200, 400, 400, BB_ANTE, minutes=30)]
    assert clock_rules.final_table_ante_warnings(rising, 1) == []


@pytest.mark.django_db
def test_the_clock_page_warns_once_the_final_table_plays_a_lower_ante(client, director, tournament, actor):
    tournament.structure = structures.save_structure(name="Falls late", items=ITEMS, actor=actor, is_template=False)
    tournament.save()
    Clock.objects.create(tournament=tournament, item_index=2)
    client.force_login(director)
    warning = "Row 3: the ante at the final table is lower than before it"
    page = client.get(f"/tournaments/{tournament.pk}/clock/").content.decode()
    assert "Row 2: the ante decreases" in page and warning not in page  # no final table yet
    log_event(tournament, Action.SEATING_FINAL_TABLE_FORMED, actor, table=1)
    page = client.get(f"/tournaments/{tournament.pk}/clock/").content.decode()
    assert warning in page
    with translation.override("it"):
        page = client.get(f"/tournaments/{tournament.pk}/clock/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Riga 3: l'ante al tavolo finale" in page.replace("&#x27;", "'")


@pytest.mark.django_db
def test_the_phone_labels_a_big_blind_ante_and_a_per_player_ante(tournament, make_person, cashier_actor, actor):
    from tournaments.cashier import services as cashier

    entry = cashier.register(tournament, make_person(), method="CASH", actor=cashier_actor).entry
    items = [dict(ITEMS[0]), {**ITEMS[1], "big_blind_ante": False}]
    tournament.structure = structures.save_structure(name="Both antes", items=items, actor=actor, is_template=False)
    tournament.save()
    state = Client().get(f"/p/{entry.phone_token}/state/").json()
    assert state["clock"]["ante"] == 3000 and state["clock"]["ante_type"] == "BB_ANTE"
    assert state["clock"]["next"]["ante_type"] == "TABLE_ANTE"
    # the page gives the script both labels; the script picks "BB ante" for BB_ANTE, else "Ante"
    page = Client().get(f"/p/{entry.phone_token}/").content.decode()
    strings = json.loads(re.search(r'<script id="phone-i18n" type="application/json">(.*?)</script>', page, re.S).group(1))
    assert (strings["bbAnte"], strings["ante"]) == ("BB ante", "ante")
    script = open("static/phone.js").read()
    assert 'c.ante_type === "BB_ANTE" ? T.bbAnte : T.ante' in script
    display = open("static/display.js").read()
    assert 'c.ante_type === "BB_ANTE" ? T.bba : T.ante' in display
    template = open("templates/display.html").read()
    assert "bba: {% translate 'BB ante' %}" in template and "ante: {% translate 'Ante' %}" in template


@pytest.mark.django_db
def test_a_final_table_formed_before_the_clock_plays_every_level_there_and_lowers_no_ante(client, director, tournament, actor):
    """A one-table event: its final table is drawn before the clock is started, so no level was
    played before it: only the plain falling ante is flagged, not a final-table one."""
    tournament.structure = structures.save_structure(name="Falls late", items=ITEMS, actor=actor, is_template=False)
    tournament.save()
    log_event(tournament, Action.SEATING_FINAL_TABLE_FORMED, actor, table=1)
    client.force_login(director)
    page = client.get(f"/tournaments/{tournament.pk}/clock/")
    text = page.content.decode()
    assert page.status_code == 200 and "Row 2: the ante decreases" in text
    assert "the ante at the final table is lower than before it" not in text
