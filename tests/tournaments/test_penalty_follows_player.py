"""PEN-04: a penalty follows the player across a move and a table break, hands left unchanged;
and in the browser: issue a missed-rounds penalty, move the player, see it at his new seat."""

import pytest
from playwright.sync_api import expect

from seating import selectors as seating_selectors
from seating import services as seating
from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.floor import services as floor
from tournaments.models import Penalty
from tournaments.setup import lifecycle


def _running(make_tournament, make_person, director, n=14, table_size=9):
    actor = Actor(director, "test")
    t = make_tournament(table_size=table_size)
    entries = [cashier.register(t, make_person(), method="CASH", actor=actor).entry for _ in range(n)]
    lifecycle.start(t, actor=actor)
    return t, entries, actor


def _open_seat(t, avoid_table):
    m = seating_selectors.table_map(t)
    for tb in m["tables"]:
        if tb["number"] != avoid_table:
            for s in tb["seats"]:
                if s["entry"] is None and not s["locked"]:
                    return tb["number"], s["seat"]
    raise AssertionError("no open seat")


@pytest.mark.django_db
def test_the_penalty_keeps_its_hands_across_a_move_and_a_table_break(make_tournament, make_person, director):
    t, entries, actor = _running(make_tournament, make_person, director, n=24)
    victim = entries[0]
    before = seating_selectors.seat_of(victim)
    p = floor.issue_penalty(t, victim, kind="MISSED_ROUNDS", reason_code="ABUSIVE_CONDUCT", rounds=2, actor=actor)
    players_then = seating_selectors.players_at_table(t, before["table"])
    assert p.hands_total == 2 * players_then and p.table_number == before["table"]
    floor.serve_hands(p, actor=actor, hands=3)
    to_table, to_seat = _open_seat(t, before["table"])
    seating.move_player(t, victim, to_table, to_seat, actor=actor, reason="special needs seat")
    p.refresh_from_db()
    assert seating_selectors.seat_of(victim) == {"table": to_table, "seat": to_seat}
    assert (p.hands_total, p.hands_left, p.status) == (2 * players_then, 2 * players_then - 3, Penalty.ACTIVE)
    # Bust the victim's table-mates until his table breaks: the penalty is still there, unchanged.
    start_table = seating_selectors.seat_of(victim)["table"]
    while seating_selectors.seat_of(victim)["table"] == start_table:
        mate = next(
            s["entry"]
            for tb in seating_selectors.table_map(t)["tables"]
            if tb["number"] == start_table
            for s in tb["seats"]
            if s["entry"] not in (None, victim.pk)
        )
        seating.record_bust(t, [mate], actor=actor)
    assert t.events.filter(action__in=["seating.table.broken", "seating.final_table.formed"]).exists()
    p.refresh_from_db()
    assert p.hands_left == 2 * players_then - 3 and p.status == Penalty.ACTIVE
    row = next(s for tb in seating_selectors.table_map(t)["tables"] for s in tb["seats"] if s["entry"] == victim.pk)
    assert [(x["label"], x["hands_left"]) for x in row["penalties"]] == [(f"Missed rounds: {p.hands_left} of {p.hands_total} hands left", p.hands_left)]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_floor_issues_missed_rounds_and_sees_it_after_the_move(browser_page, make_tournament, make_person, director):
    t, entries, actor = _running(make_tournament, make_person, director, n=14)
    make_user("floorie", "floor")
    page = browser_page
    login(page, "floorie", "pw-floorie")
    victim = entries[3]
    page.goto(page.base_url + f"/tournaments/{t.pk}/floor/?entry={victim.pk}")
    page.select_option("select[name=kind]", "MISSED_ROUNDS")
    page.select_option("select[name=reason_code]", "ABUSIVE_CONDUCT")
    page.fill("input[name=amount]", "2")
    page.click("#penaltyform button.primary")
    expect(page.locator("#f-msg.ok")).to_contain_text("Missed rounds")
    assert Penalty.objects.get(entry=victim).started is False
    before = seating_selectors.seat_of(victim)
    to_table, to_seat = _open_seat(t, before["table"])
    seating.move_player(t, victim, to_table, to_seat, actor=actor, reason="table change")
    page.goto(page.base_url + f"/tournaments/{t.pk}/tables/")
    row = page.locator(f"#table-{to_table} tr[data-entry='{victim.pk}']")
    # Given during a hand: it starts when that hand is completed (PEN-03), wherever he now sits.
    expect(row).to_contain_text("Missed rounds: starts after this hand")
    page.screenshot(path=str(ARTIFACTS / "penalty-after-move.png"))


@pytest.mark.django_db
def test_pen04_after_the_move_the_new_tables_hands_count_him_down_not_the_old_tables(make_tournament, make_person, director):
    """Fourteen players on two tables of seven: one round given at his table is 7 hands. He moves
    to the other table (8 players there now): still 7 hands, not 8. The hands completed at his
    old table no longer count for him; the new table's do, and its map says so."""
    t, entries, actor = _running(make_tournament, make_person, director, n=14)
    victim = entries[0]
    old = seating_selectors.seat_of(victim)["table"]
    p = floor.issue_penalty(t, victim, kind="MISSED_ROUNDS", reason_code="ABUSIVE_CONDUCT", rounds=1, actor=actor)
    assert p.hands_total == 7
    new, seat = _open_seat(t, old)
    seating.move_player(t, victim, new, seat, actor=actor, reason="balancing by hand")
    for number in (old, new):
        first = next(
            s["seat"] for tb in seating_selectors.table_map(t)["tables"] if tb["number"] == number for s in tb["seats"] if s["entry"] not in (None, victim.pk)
        )
        seating.set_big_blind(t, number, first, actor=actor)
    seating.hand_completed(t, new, actor=actor)  # the hand in play when it was given: it starts
    seating.hand_completed(t, new, actor=actor)
    seating.hand_completed(t, old, actor=actor)
    p.refresh_from_db()
    assert (p.hands_total, p.hands_left) == (7, 6)
    row = next(s for tb in seating_selectors.table_map(t)["tables"] for s in tb["seats"] if s["entry"] == victim.pk)
    assert [x["label"] for x in row["penalties"]] == ["Missed rounds: 6 of 7 hands left"]
