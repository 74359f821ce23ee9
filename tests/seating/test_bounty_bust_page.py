"""The table map in a bounty event (PAY-02): the bust dialog asks who knocked the player out,
the form records the knockout, the banner says what it won and the bust list who won it; the
refusals come back as messages.

PKO of real sales: €50 to the pool, €50 bounty, €10 fee each; 50 % of a bounty in cash (rounded
down to €1), the rest onto the eliminator's own bounty. Amounts worked out by hand below."""

from decimal import Decimal

import pytest

from payouts import services as payouts_services
from payouts.models import BountyAward
from seating.models import Seat
from tests.conftest import make_user
from tests.payouts.test_bounty_api import bounty_event
from tournaments.cashier import services as cashier
from tournaments.models import Entry
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db
D = Decimal


def page(t):
    return f"/tournaments/{t.pk}/tables/"


def table_of(entry) -> int:
    return Seat.objects.get(entry=entry).table.number


def bust(client, t, out, *eliminators, shares=None, follow=True, override_reason=None):
    """The form the dialog sends: the "Out" button of ``out``'s row, the eliminators in order
    (and the director's reason for one from another table)."""
    data = {"op": "bust", "table": table_of(out), "only": out.pk, f"eliminators_{out.pk}": [e.pk for e in eliminators]}
    if override_reason is not None:
        data["override_reason"] = override_reason
    for e, chips in (shares or {}).items():
        data[f"pot_share_{out.pk}_{e.pk}"] = chips
    return client.post(page(t), data, follow=follow)


def test_the_bust_dialog_asks_for_the_eliminators_in_a_bounty_event_only(client, floor_user, make_tournament, make_person, cashier_actor, actor):
    t, _e = bounty_event(make_tournament, make_person, cashier_actor, actor)
    client.force_login(floor_user)
    html = client.get(page(t)).content.decode()
    assert 'data-bounty="1"' in html and 'id="bust-confirm-eliminators"' in html
    assert "knockedOutBy" in html  # the picker's words, for the dialog's script
    assert "data-split-by-pot" not in html  # an equal split: no chips to ask

    pot, _p = bounty_event(make_tournament, make_person, cashier_actor, actor, bounty="FIXED", bounty_split="POT")
    assert 'data-split-by-pot="1"' in client.get(page(pot)).content.decode()

    plain = make_tournament()
    for _ in range(4):
        cashier.register(plain, make_person(), method="CASH", actor=cashier_actor)
    lifecycle.start(plain, actor=actor, prestart_report_sent=True)
    html = client.get(page(plain)).content.decode()
    assert 'id="bust-confirm"' in html and "data-bounty" not in html and "bust-confirm-eliminators" not in html


def test_the_form_records_the_knockout_and_the_banner_says_what_it_won(client, floor_user, make_tournament, make_person, cashier_actor, actor):
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor)
    client.force_login(floor_user)
    r = bust(client, t, e[1], e[0])
    html = r.content.decode()
    assert Entry.objects.get(pk=e[1].pk).status == Entry.BUSTED
    award = BountyAward.objects.get(tournament=t, knocked_out=e[1])
    assert (award.winner_id, award.cash, award.added) == (e[0].pk, D("25"), D("25"))
    # the banner: who and what, in money (never chips): 50 % of €50 in cash, the rest onto his bounty
    banner = html[html.index('id="just-busted"') : html.index("</section>", html.index('id="just-busted"'))]
    assert f"Recorded: {e[1].person.full_name} #{e[1].number} is out" in banner
    assert f"Knocked out by {e[0].person.full_name} #{e[0].number}: wins €25.00 (and €25.00 onto the bounty)." in banner
    # the bust list names the eliminator
    busts = html[html.index('id="busts"') :]
    assert f"knocked out by {e[0].person.full_name} #{e[0].number}" in busts[: busts.index("</table>")]


def test_the_banner_speaks_italian_money(client, floor_user, make_tournament, make_person, cashier_actor, actor):
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, bounty="FIXED", bounty_amount="1500")
    client.force_login(floor_user)
    client.post("/i18n/setlang/", {"language": "it", "next": "/"})
    html = bust(client, t, e[1], e[0]).content.decode()
    # the fixed bounty is the whole €1,500, written the Italian way
    assert f"Per mano di {e[0].person.full_name} #{e[0].number}: vince 1.500,00\u00a0€." in html


def test_a_bust_without_its_eliminator_is_refused_with_a_message(client, floor_user, make_tournament, make_person, cashier_actor, actor):
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor)
    client.force_login(floor_user)
    html = bust(client, t, e[1]).content.decode()
    assert f"This is a bounty event: name who knocked {e[1].person.full_name} out." in html
    html = bust(client, t, e[1], e[1]).content.decode()
    assert "The player who went out cannot be listed as an eliminator." in html  # self_knockout
    assert Entry.objects.get(pk=e[1].pk).status == Entry.ACTIVE
    assert not BountyAward.objects.filter(tournament=t).exists()


def test_a_split_pot_on_the_form_shares_the_bounty_by_the_chips_typed(client, floor_user, make_tournament, make_person, cashier_actor, actor):
    # Fixed €50 by the pot 2,000 : 1,000 → 33 and 16 rounded down to €1, the €1 left to the first listed.
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, bounty="FIXED", bounty_split="POT")
    client.force_login(floor_user)
    html = bust(client, t, e[1], e[2], e[3], shares={e[2]: "2.000", e[3]: "1000"}).content.decode()
    won = {a.winner_id: a.cash for a in BountyAward.objects.filter(tournament=t, knocked_out=e[1])}
    assert won == {e[2].pk: D("34"), e[3].pk: D("16")}
    assert "wins €34.00" in html and "wins €16.00" in html
    # chips that are not a number are refused, nothing recorded
    html = bust(client, t, e[2], e[0], e[3], shares={e[0]: "lots", e[3]: "100"}).content.decode()
    assert "share of the pot is a whole number of chips above zero" in html
    assert Entry.objects.get(pk=e[2].pk).status == Entry.ACTIVE


def test_undoing_a_bust_whose_bounty_passed_on_says_why_on_the_page(client, director, make_tournament, make_person, cashier_actor, actor):
    # As in the API's test: the first bust's eliminator (at the other table, let count by the
    # director) is out since.
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, players=18)
    one = [x for x in e if table_of(x) == 1]
    two = [x for x in e if table_of(x) == 2]
    client.force_login(director)
    bust(client, t, one[0], two[0], override_reason="moved from table 2 before the hand")
    bust(client, t, two[0], two[1])
    first = BountyAward.objects.get(knocked_out=one[0]).bust_id
    html = client.post(page(t), {"op": "undo_bust", "bust": first}, follow=True).content.decode()
    assert f"The bounty won here has passed on: {two[0].person.full_name} was knocked out since. Undo that bust first." in html
    assert Entry.objects.get(pk=one[0].pk).status == Entry.BUSTED


def test_the_dealer_names_who_won_the_pot_at_his_table(client, make_tournament, make_person, cashier_actor, actor):
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor)
    client.force_login(make_user("dealb", "dealer"))
    html = client.get(f"/tournaments/{t.pk}/dealer/?table=1").content.decode()
    assert f'name="eliminators_{e[1].pk}"' in html and f'<option value="{e[0].pk}">{e[0].person.full_name} #{e[0].number}</option>' in html
    r = client.post(f"/tournaments/{t.pk}/dealer/", {"op": "bust", "table": 1, "only": e[1].pk, f"eliminators_{e[1].pk}": e[0].pk}, follow=True)
    assert r.status_code == 200
    assert BountyAward.objects.get(tournament=t, knocked_out=e[1]).winner_id == e[0].pk
    # an event without bounties: no question
    plain = make_tournament()
    for _ in range(4):
        cashier.register(plain, make_person(), method="CASH", actor=cashier_actor)
    lifecycle.start(plain, actor=actor, prestart_report_sent=True)
    assert "eliminators_" not in client.get(f"/tournaments/{plain.pk}/dealer/?table=1").content.decode()


def test_the_banner_names_the_mystery_envelope_drawn(client, floor_user, make_tournament, make_person, cashier_actor, actor):
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, bounty="MYSTERY", mystery_from="START")
    client.force_login(floor_user)
    html = bust(client, t, e[1], e[0]).content.decode()
    assert "Mystery bounties are paid from now on: the director sets up the envelopes first." in html  # no_envelopes
    assert Entry.objects.get(pk=e[1].pk).status == Entry.ACTIVE
    payouts_services.set_envelopes(t, ["100", "50", "30", "20"], actor=actor)  # 4 × €50 taken in
    html = bust(client, t, e[1], e[0]).content.decode()
    drawn = BountyAward.objects.get(tournament=t, knocked_out=e[1]).envelope
    cash = ["100.00", "50.00", "30.00", "20.00"][drawn - 1]
    assert f"Knocked out by {e[0].person.full_name} #{e[0].number}: envelope {drawn}, wins €{cash}." in html


def test_the_dealer_page_names_the_mystery_envelope_drawn(client, make_tournament, make_person, cashier_actor, actor):
    # As on the floor's page: the dealer reports the player out at his table and the banner
    # after the redirect names the envelope drawn and what it pays.
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, bounty="MYSTERY", mystery_from="START")
    payouts_services.set_envelopes(t, ["100", "50", "30", "20"], actor=actor)  # 4 × €50 taken in
    client.force_login(make_user("dealm", "dealer"))
    out, by = e[1], e[0]
    number = table_of(out)
    assert table_of(by) == number
    r = client.post(f"/tournaments/{t.pk}/dealer/", {"op": "bust", "table": number, "only": out.pk, f"eliminators_{out.pk}": by.pk}, follow=True)
    assert r.status_code == 200 and r.redirect_chain[-1][0].startswith(f"/tournaments/{t.pk}/dealer/?table={number}&bust=")
    drawn = BountyAward.objects.get(tournament=t, knocked_out=out).envelope
    cash = ["100.00", "50.00", "30.00", "20.00"][drawn - 1]
    html = r.content.decode()
    banner = html[html.index('id="just-busted"') : html.index("</section>", html.index('id="just-busted"'))]
    assert f"Knocked out by {by.person.full_name} #{by.number}: envelope {drawn}, wins €{cash}." in banner
