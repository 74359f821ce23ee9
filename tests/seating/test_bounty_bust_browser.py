"""In a bounty event (PAY-02) the bust dialog on the table map asks who knocked the player out:
the players still seated at his table (the director also sees the other tables, and picking one
asks for his reason); "Yes, out" waits for an answer; a split pot takes the chips each winner
won of it. The banner then says what the knockout won, in money.

PKO of real sales: €50 bounty each, 50 % in cash, the rest onto the eliminator's own bounty."""

import pytest
from playwright.sync_api import expect

from payouts.models import BountyAward
from seating.models import Seat
from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import client_for, make_user
from tests.payouts.test_bounty_api import bounty_event
from tournaments.models import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_tables(page, t, user, role="floor"):
    login_user = make_user(user, role)
    page.route("**/live/*/stream/**", lambda route: route.abort())  # no ASGI here: the page polls
    login(page, user, f"pw-{user}")
    page.goto(page.base_url + f"/tournaments/{t.pk}/tables/")
    return login_user


def by_table(t) -> dict[int, list[Entry]]:
    out: dict[int, list[Entry]] = {}
    for seat in Seat.objects.filter(tournament=t).select_related("table", "entry__person").order_by("table__number", "number"):
        out.setdefault(seat.table.number, []).append(seat.entry)
    return out


def test_the_dialog_asks_who_knocked_the_player_out(browser_page, make_tournament, make_person, cashier_actor, actor):
    page = browser_page
    t, _e = bounty_event(make_tournament, make_person, cashier_actor, actor, players=18)
    tables = by_table(t)
    victim, winner, elsewhere = tables[1][0], tables[1][1], tables[2][0]
    open_tables(page, t, "floorb1")

    page.click(f'#table-1 tr[data-entry="{victim.pk}"] button.out')
    box = page.locator("#bust-confirm")
    expect(box).to_be_visible()
    expect(box.locator("legend")).to_have_text(f"{victim.person.full_name} #{victim.number} — knocked out by")
    picker = box.locator("select.eliminator")
    groups = picker.locator("optgroup")
    expect(groups).to_have_count(1)  # the floor: his table only
    expect(groups.nth(0)).to_have_attribute("label", "Table 1")
    here = groups.nth(0).locator("option")
    expect(here).to_have_count(len(tables[1]) - 1)  # everybody at his table but him
    assert victim.person.full_name not in picker.inner_text()
    assert elsewhere.person.full_name not in picker.inner_text()
    expect(box.locator("label.override-reason")).to_have_count(0)
    expect(box.locator("input.pot-share")).to_have_count(0)  # an equal split: no chips to ask

    page.click("#bust-confirm-ok")  # nobody chosen: the dialog waits
    expect(box).to_be_visible()
    assert Entry.objects.get(pk=victim.pk).status == Entry.ACTIVE

    picker.select_option(str(winner.pk))
    page.screenshot(path=str(ARTIFACTS / "seating-bounty-bust-confirm.png"))
    page.click("#bust-confirm-ok")
    banner = page.locator("#just-busted")
    expect(banner).to_contain_text(f"{victim.person.full_name} #{victim.number} is out")
    # PKO: 50 % of his €50 in cash, the other €25 onto the winner's bounty
    expect(banner).to_contain_text(f"Knocked out by {winner.person.full_name} #{winner.number}: wins €25.00 (and €25.00 onto the bounty).")
    expect(page.locator("#busts")).to_contain_text(f"knocked out by {winner.person.full_name} #{winner.number}")
    award = BountyAward.objects.get(tournament=t, knocked_out=victim)
    assert award.winner_id == winner.pk


def test_a_split_pot_names_two_winners_and_the_chips_each_won(browser_page, make_tournament, make_person, cashier_actor, actor):
    # Fixed €50 by the pot 2,000 : 1,000 → 33 and 16 rounded down to €1; the €1 left goes to the
    # first named (from the button's left): 34 and 16.
    page = browser_page
    t, _e = bounty_event(make_tournament, make_person, cashier_actor, actor, players=18, bounty="FIXED", bounty_split="POT")
    tables = by_table(t)
    victim, first, second = tables[2][0], tables[2][1], tables[2][2]
    open_tables(page, t, "floorb2")

    page.click(f'#table-2 tr[data-entry="{victim.pk}"] button.out')
    box = page.locator("#bust-confirm")
    expect(box.locator("input.pot-share")).to_be_hidden()  # one winner: the whole pot
    box.locator("button.add-eliminator").click()
    rows = box.locator(".eliminator-row")
    expect(rows).to_have_count(2)
    rows.nth(0).locator("select").select_option(str(first.pk))
    rows.nth(0).locator("input.pot-share").fill("2000")
    rows.nth(1).locator("select").select_option(str(second.pk))
    rows.nth(1).locator("input.pot-share").fill("1000")
    page.screenshot(path=str(ARTIFACTS / "seating-bounty-split-pot.png"))
    page.click("#bust-confirm-ok")
    banner = page.locator("#just-busted")
    expect(banner).to_contain_text(f"{victim.person.full_name} #{victim.number} is out")
    page.screenshot(path=str(ARTIFACTS / "seating-bounty-banner.png"))
    expect(banner).to_contain_text(f"Knocked out by {first.person.full_name} #{first.number}: wins €34.00.")
    expect(banner).to_contain_text(f"Knocked out by {second.person.full_name} #{second.number}: wins €16.00.")
    won = {a.winner_id: (a.cash, a.pot_share) for a in BountyAward.objects.filter(tournament=t, knocked_out=victim)}
    assert {k: (str(c), str(s)) for k, (c, s) in won.items()} == {first.pk: ("34.00", "2000.00"), second.pk: ("16.00", "1000.00")}


def test_the_director_lets_an_eliminator_from_another_table_count_with_a_reason(browser_page, make_tournament, make_person, cashier_actor, actor):
    # PKO: the victim's €50 → €25 cash to the winner from table 2 and €25 onto his bounty.
    page = browser_page
    t, _e = bounty_event(make_tournament, make_person, cashier_actor, actor, players=18)
    tables = by_table(t)
    victim, elsewhere = tables[1][0], tables[2][0]
    director = open_tables(page, t, "dirb3", role="director")

    page.click(f'#table-1 tr[data-entry="{victim.pk}"] button.out')
    box = page.locator("#bust-confirm")
    picker = box.locator("select.eliminator")
    groups = picker.locator("optgroup")
    expect(groups).to_have_count(2)
    expect(groups.nth(0)).to_have_attribute("label", "Table 1")  # his table first
    expect(groups.nth(1)).to_have_attribute("label", "Other tables")
    expect(groups.nth(1)).to_contain_text(f"{elsewhere.person.full_name} #{elsewhere.number} — table 2, seat")
    reason = box.locator("label.override-reason")
    expect(reason).to_be_hidden()
    picker.select_option(str(elsewhere.pk))
    expect(reason).to_be_visible()
    expect(reason).to_contain_text("An eliminator from another table: why it counts")
    page.click("#bust-confirm-ok")  # no reason yet: the dialog waits
    expect(box).to_be_visible()
    assert Entry.objects.get(pk=victim.pk).status == Entry.ACTIVE
    reason.locator("input").fill("moved from table 2 before the hand")
    page.click("#bust-confirm-ok")
    banner = page.locator("#just-busted")
    expect(banner).to_contain_text(f"Knocked out by {elsewhere.person.full_name} #{elsewhere.number}: wins €25.00 (and €25.00 onto the bounty).")
    # the event log says who let it count, and why
    rows = client_for(director).get(f"/api/v1/tournaments/{t.pk}/events/").json()
    (busted,) = [r["sentence"] for r in rows if r["action"] == "seating.player.busted"]
    assert f"the director let count an eliminator from another table ({elsewhere.person.full_name}" in busted
    assert busted.endswith(": moved from table 2 before the hand")
