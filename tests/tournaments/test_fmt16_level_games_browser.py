"""FMT-16: in the browser, the clock page's live line names the level's game and the next
level's when it changes; the structures page lets the director pick a level's game (a
structure a published event plays asks why, FMT-02)."""

import pytest
from playwright.sync_api import expect

from tests.browser import answer_dialog, browser, browser_page, login  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

LEVELS = [
    {"kind": "LEVEL", "small_blind": 100, "big_blind": 200, "minutes": 20, "game": "NLHE"},
    {"kind": "LEVEL", "small_blind": 200, "big_blind": 400, "minutes": 20, "game": "PLO"},
    {"kind": "LEVEL", "small_blind": 300, "big_blind": 600, "minutes": 20, "game": "STUD"},
]


def test_fmt16_the_clock_page_names_the_game_and_the_structures_page_sets_it(browser_page, make_tournament, director, actor):
    from tournaments.clock import services as clock_services
    from tournaments.models import StructureItem
    from tournaments.setup import lifecycle
    from tournaments.structures import services as structures

    st = structures.save_structure(name="Misto", items=LEVELS, actor=actor)
    t = make_tournament(name="Misto", game="MIXED", structure=st)
    lifecycle.start(t, actor=actor, override_minimum=True, start_clock=False)
    clock_services.start_clock(t, actor=actor)
    t.refresh_from_db()
    st = t.structure  # the event plays its own copy of the template
    page = browser_page
    page.context.add_cookies([{"name": "django_language", "value": "it", "url": page.base_url}])
    login(page, "dora", "pw-dora")
    page.goto(page.base_url + f"/tournaments/{t.pk}/clock/")
    expect(page.locator("#c-level")).to_contain_text("Livello 1 · ")
    expect(page.locator("#c-level")).to_contain_text("No-Limit Hold'em")
    expect(page.locator("#c-next")).to_contain_text("400 · Pot-Limit Omaha")

    page.goto(page.base_url + "/structures/")
    page.locator(f'select.level-game[data-structure="{st.pk}"][data-index="0"]').select_option("LHE")
    answer_dialog(page, "si gioca Limit")  # the event is running: the change says why
    expect(page.locator("#game-msg")).to_have_text("Fatto")
    # The lobby is told: level 1 now plays Limit Hold'em (FMT-02).
    from tournaments.models import TournamentChange

    change = TournamentChange.objects.get(tournament=t)
    assert change.reason == "si gioca Limit"
    assert change.changes == {"structure_rows": [[1, "100/200 · 20 min · NLHE", "100/200 · 20 min · LHE"]]}
    assert list(StructureItem.objects.filter(structure=st).order_by("position").values_list("game", flat=True)) == ["LHE", "PLO", "STUD"]
