"""Deals in bounty events (PAY-09 with PAY-02): the bounty money in play is settled when the
deal is approved, kept apart (each player takes the bounty on his own head) or added (shared
with the deal by chips), and the money adds up to the cent.

The PKO used throughout, worked by hand: 6 players × (€50 pool + €50 bounty + €10 fee), 50 %
of a bounty in cash, rounded down to €1 (the house default). Bounty money taken in 300.00.

    entry 3 out to entry 0: 25 cash to 0, 0's head 50 + 25 = 75
    entry 4 out to entry 1: 25 cash to 1, 1's head 75
    entry 5 out to entry 0: 25 cash to 0, 0's head 100

Three left: heads 100 / 75 / 50 = 225.00 in play, 75.00 won in cash (300 = 225 + 75).
Prize pool 6 × 50 = 300: the table pays 150 / 90 / 60. Stacks 50,000 / 30,000 / 20,000
(50 / 30 / 20 % of the chips). Chip chop of the prizes: 60 each, and the other 120 by chips:
60 / 36 / 24 → 120.00 / 96.00 / 84.00."""

from decimal import Decimal

import pytest
from django.test import Client

from payouts import deals as deal_engine
from payouts import selectors as sel
from payouts import services
from payouts.icm import icm_equities
from payouts.models import BountyAward, BountyHead, Deal
from seating import services as seating
from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.models import Entry, TournamentEvent
from tournaments.setup import lifecycle

from .deal_stacks import stacks_in_play

pytestmark = pytest.mark.django_db
D = Decimal
STACKS = [50000, 30000, 20000]


def bounty_event(make_tournament, make_person, cashier_actor, actor, *, players, table, **settings):
    t = make_tournament(buy_in=D("50"), fee=D("10"), settings={"bounty": "PKO", "bounty_amount": "50", **settings})
    entries = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(players)]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    services.edit_payout_table(t, [{"place": i, "amount": a} for i, a in enumerate(table, 1)], actor=actor)
    services.lock_payout_table(t, actor=actor)
    t.refresh_from_db()
    return t, entries


def out(t, entry, by, actor):
    return seating.record_bust(t, [{"entry": entry.pk, "eliminators": [by.pk]}], actor=actor)


@pytest.fixture
def pko_three_left(make_tournament, make_person, cashier_actor, actor):
    def make(**settings):
        t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, players=6, table=["150", "90", "60"], **settings)
        out(t, e[3], e[0], actor)
        out(t, e[4], e[1], actor)
        out(t, e[5], e[0], actor)
        return t, e[:3]

    return make


def stacks_of(players, chips=STACKS):
    return stacks_in_play(players, chips)


def head(entry) -> Decimal:
    return BountyHead.objects.get(entry=entry).amount


def owed(t, entry) -> Decimal:
    return sum((a.cash for a in sel.bounties_owed_query(t).filter(winner=entry)), D(0))


def all_owed(t) -> Decimal:
    return sum((a.cash for a in sel.bounties_owed_query(t)), D(0))


def carried_or_kept(t) -> Decimal:
    """Bounty money no player is owed: the house's part and envelopes carried over."""
    return sum((a.cash for a in BountyAward.objects.filter(tournament=t, void="", winner__isnull=True)), D(0))


def on_heads(t) -> Decimal:
    return sum((h.amount for h in BountyHead.objects.filter(tournament=t)), D(0))


def agree_and_approve(deal, players, actor):
    for e in players:
        services.accept_deal(deal, e, actor=actor)
    return services.approve_deal(deal, actor=actor)


# --- the engine ------------------------------------------------------------------------------


def test_the_engine_keeps_the_heads_apart_or_shares_their_sum_by_chips():
    # 225 by 50 / 30 / 20 % = 112.50 / 67.50 / 45.00; equally 75 each.
    assert deal_engine.deal_bounties(["100", "75", "50"], STACKS, rule="APART") == [D("100.00"), D("75.00"), D("50.00")]
    assert deal_engine.deal_bounties(["100", "75", "50"], STACKS, rule="ADDED") == [D("112.50"), D("67.50"), D("45.00")]
    assert deal_engine.deal_bounties(["100", "75", "50"], STACKS, rule="ADDED", equal=True) == [D("75.00")] * 3
    # 100.00 over three equal stacks: 33.33 each and the odd cent to the first in seat order.
    assert deal_engine.bounty_shares([10, 10, 10], "100") == [D("33.34"), D("33.33"), D("33.33")]
    with pytest.raises(deal_engine.DealError) as refused:
        deal_engine.deal_bounties(["100", "75"], STACKS, rule="ADDED")
    assert refused.value.code == "wrong_number_of_places"
    with pytest.raises(deal_engine.DealError) as refused:
        deal_engine.deal_bounties(["100", "75", "50"], STACKS, rule="SPLIT")
    assert refused.value.code == "bad_bounty_rule"


def test_bounties_added_to_first_place_are_worth_the_share_of_the_chips_in_icm():
    """Why ADDED shares by chips under ICM too: P(1st) = share of the chips, so adding 225 to
    the 1st prize adds 225 × 50 % = 112.50 to the leader's equity, 67.50 and 45.00 to the others."""
    plain = icm_equities(STACKS, [150, 90, 60])
    added = icm_equities(STACKS, [150 + 225, 90, 60])
    assert [round(a - p, 6) for a, p in zip(added, plain)] == [112.5, 67.5, 45.0]


# --- PKO, bounties kept apart (the default) --------------------------------------------------


def test_the_calculator_shows_the_heads_and_keeps_them_apart(pko_three_left):
    t, players = pko_three_left()
    options = services.deal_options(t, stacks_of(players))
    assert [p["bounty"] for p in options["players"]] == ["100.00", "75.00", "50.00"]
    assert options["bounties"]["in_deal"] == "APART" and options["bounties"]["label"] == "bounties kept apart"
    assert options["bounties"]["in_play"] == "225.00"
    chop = options["methods"]["CHIP_CHOP"]
    assert chop["by_player"] == ["120.00", "96.00", "84.00"]  # the prize pool only
    assert chop["bounty_by_player"] == ["100.00", "75.00", "50.00"]
    assert chop["total_by_player"] == ["220.00", "171.00", "134.00"]
    assert options["methods"]["EVEN"]["bounty_by_player"] == ["100.00", "75.00", "50.00"]  # apart: the same whatever the method


def test_an_approved_deal_with_bounties_apart_owes_each_player_his_own_head(pko_three_left, actor, cashier_actor):
    t, (a, b, c) = pko_three_left()
    deal = services.propose_deal(t, stacks_of([a, b, c]), method=Deal.CHIP_CHOP, actor=actor)
    assert (deal.bounty_in_deal, deal.bounties) == ("APART", {str(a.pk): "100.00", str(b.pk): "75.00", str(c.pk): "50.00"})
    assert head(a) == D("100")  # proposed only: nothing moved yet
    agree_and_approve(deal, [a, b, c], actor)
    assert [p["amount"] for p in sel.table_prizes(t)] == [D("120.00"), D("96.00"), D("84.00")]
    assert [head(x) for x in (a, b, c)] == [0, 0, 0]
    awards = {x.winner_id: x.cash for x in BountyAward.objects.filter(tournament=t, kind=BountyAward.DEAL)}
    assert awards == {a.pk: D("100"), b.pk: D("75"), c.pk: D("50")}
    # Owed at the desk: a 50 in knockouts + 100, b 25 + 75, c 50: all 300 taken in.
    assert (owed(t, a), owed(t, b), owed(t, c)) == (D("150"), D("100"), D("50"))
    assert sel.bounty_taken_in(t) == D("300.00") == sel.bounty_paid_out(t) + all_owed(t) + on_heads(t)
    assert sel.bounty_money(t)["difference"] == 0 and sel.bounty_money(t)["on_heads"] == 0
    services.pay_bounties(a, method="CASH", actor=cashier_actor)
    assert sel.bounty_paid_out(t) == D("150") and all_owed(t) == D("150")
    assert sel.bounty_taken_in(t) == sel.bounty_paid_out(t) + all_owed(t)
    event = TournamentEvent.objects.filter(tournament=t, action="payouts.bounty.won", payload__kind="DEAL").first()
    assert event.payload["bounty_in_deal"] == "APART" and event.payload["cash"] in ("100", "100.00")


def test_the_busts_after_the_deal_pay_no_bounty_and_the_winner_not_his_own_again(pko_three_left, actor):
    t, (a, b, c) = pko_three_left()
    agree_and_approve(services.propose_deal(t, stacks_of([a, b, c]), method=Deal.CHIP_CHOP, actor=actor), [a, b, c], actor)
    out(t, c, b, actor)
    out(t, b, a, actor)  # a wins the event
    assert Entry.objects.get(pk=a.pk).place == 1
    assert not BountyAward.objects.filter(tournament=t, kind=BountyAward.OWN).exists()
    assert (owed(t, a), owed(t, b), owed(t, c)) == (D("150"), D("100"), D("50"))  # as at the deal
    assert BountyAward.objects.filter(tournament=t, kind=BountyAward.KNOCKOUT, knocked_out=b, winner=a, cash=0).exists()  # still a knockout
    assert all_owed(t) == sel.bounty_taken_in(t) == D("300.00")


def test_a_cancelled_deal_changes_no_bounty(pko_three_left, actor):
    t, (a, b, c) = pko_three_left(bounty_in_deal="ADDED")
    deal = services.propose_deal(t, stacks_of([a, b, c]), method=Deal.CHIP_CHOP, actor=actor)
    services.accept_deal(deal, a, actor=actor)
    services.cancel_deal(deal, actor=actor, reason="changed their minds")
    assert [head(x) for x in (a, b, c)] == [D("100"), D("75"), D("50")]
    assert not BountyAward.objects.filter(tournament=t, kind=BountyAward.DEAL).exists()
    assert (owed(t, a), owed(t, b), owed(t, c)) == (D("50"), D("25"), D("0"))


def test_pay09_a_deal_is_refused_when_the_heads_changed_since_it_was_proposed(pko_three_left, actor):
    # 10 moved from a's head to b's after the proposal (written straight in, as a correction
    # would): the same 225 in play, not on the same heads. The approval is refused, nothing settled.
    t, (a, b, c) = pko_three_left()
    deal = services.propose_deal(t, stacks_of([a, b, c]), method=Deal.CHIP_CHOP, actor=actor)
    BountyHead.objects.filter(entry=a).update(amount=D("90"))
    BountyHead.objects.filter(entry=b).update(amount=D("85"))
    with pytest.raises(DomainError) as refused:
        agree_and_approve(deal, [a, b, c], actor)
    assert (refused.value.code, refused.value.message) == (
        "bounties_changed",
        "The bounties in play have changed since the deal was proposed: propose it again.",
    )
    assert [head(x) for x in (a, b, c)] == [D("90"), D("85"), D("50")]
    assert not BountyAward.objects.filter(tournament=t, kind=BountyAward.DEAL).exists()


# --- PKO, bounties added -----------------------------------------------------------------------


def test_bounties_added_are_shared_by_chips_and_paid_apart_from_the_prizes(pko_three_left, actor):
    t, (a, b, c) = pko_three_left(bounty_in_deal="ADDED")
    options = services.deal_options(t, stacks_of([a, b, c]))
    assert options["bounties"]["label"] == "bounties added"
    # 225 by chips: 112.50 / 67.50 / 45.00 in a chip chop and under ICM, 75 each in an even chop.
    assert options["methods"]["CHIP_CHOP"]["bounty_by_player"] == ["112.50", "67.50", "45.00"]
    assert options["methods"]["CHIP_CHOP"]["total_by_player"] == ["232.50", "163.50", "129.00"]
    assert options["methods"]["ICM"]["bounty_by_player"] == ["112.50", "67.50", "45.00"]
    assert options["methods"]["EVEN"]["bounty_by_player"] == ["75.00", "75.00", "75.00"]
    deal = services.propose_deal(t, stacks_of([a, b, c]), method=Deal.CHIP_CHOP, actor=actor)
    agree_and_approve(deal, [a, b, c], actor)
    # The payout table shares the prize pool only; the bounty money goes as DEAL awards.
    assert [p["amount"] for p in sel.table_prizes(t)] == [D("120.00"), D("96.00"), D("84.00")]
    assert sum(p["amount"] for p in sel.table_prizes(t)) == sel.prize_pool(t) == D("300.00")
    assert [head(x) for x in (a, b, c)] == [0, 0, 0]
    # a: 50 in knockouts + 112.50; b: 25 + 67.50; c: 45.00. 162.50 + 92.50 + 45.00 = 300.00.
    assert (owed(t, a), owed(t, b), owed(t, c)) == (D("162.50"), D("92.50"), D("45.00"))
    assert sel.bounty_taken_in(t) == sel.bounty_paid_out(t) + all_owed(t) + on_heads(t) + carried_or_kept(t)
    assert sel.bounty_money(t)["difference"] == 0
    out(t, c, a, actor)
    out(t, b, a, actor)
    assert all_owed(t) == D("300.00") and not BountyAward.objects.filter(tournament=t, kind=BountyAward.OWN).exists()


def test_the_api_and_the_page_say_which_the_deal_did(api, pko_three_left, director, floor_user):
    t, players = pko_three_left(bounty_in_deal="ADDED")
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/payouts/deal/calculate/", {"stacks": stacks_of(players)}, format="json")
    assert r.data["bounties"]["label"] == "bounties added" and r.data["players"][0]["bounty"] == "100.00"
    deal = api(director).post(f"/api/v1/tournaments/{t.pk}/payouts/deals/", {"stacks": stacks_of(players), "method": "CHIP_CHOP"}, format="json").data
    assert (deal["bounty_in_deal"], deal["bounty_label"], deal["bounty_total"]) == ("ADDED", "bounties added", "225.00")
    assert deal["bounties"] == {str(players[0].pk): "112.50", str(players[1].pk): "67.50", str(players[2].pk): "45.00"}
    client = Client()
    client.force_login(director)
    page = client.get(f"/tournaments/{t.pk}/payouts/deal/").content.decode()
    assert "Bounties added" in page and "bounties added" in page  # the setting, and the open deal's heading
    assert "112.50" in page and "225.00" in page  # a's share of the bounty money, the money in play
    for e in players:
        api(floor_user).post(f"/api/v1/payouts/deals/{deal['id']}/accept/", {"entry": e.pk}, format="json")
    approved = api(director).post(f"/api/v1/payouts/deals/{deal['id']}/approve/")
    assert approved.status_code == 200 and approved.data["bounty_label"] == "bounties added"
    page = client.get(f"/tournaments/{t.pk}/payouts/deal/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    earlier = page[page.index('<ul class="small">') :]
    assert "taglie sommate" in earlier[: earlier.index("</ul>")]


def test_a_bust_from_before_the_deal_cannot_be_undone_once_the_bounties_are_settled(pko_three_left, actor):
    t, (a, b, c) = pko_three_left()
    agree_and_approve(services.propose_deal(t, stacks_of([a, b, c]), method=Deal.CHIP_CHOP, actor=actor), [a, b, c], actor)
    first = BountyAward.objects.filter(tournament=t, kind=BountyAward.KNOCKOUT).first().bust
    with pytest.raises(DomainError) as refused:  # what payouts says when seating would undo it
        services.undo_knockouts(t, [first], actor)
    assert refused.value.code == "bounty_settled_in_deal"
    assert Entry.objects.get(pk=first.entry_id).status == Entry.BUSTED and owed(t, a) == D("150")
    after = out(t, c, b, actor)  # a bust after the deal undoes as any other, the deal's awards stay
    seating.undo_bust(t, after.busts[0], actor=actor, reason="wrong player")
    assert Entry.objects.get(pk=c.pk).status == Entry.ACTIVE and owed(t, c) == D("50")


# --- mystery bounties ----------------------------------------------------------------------------


@pytest.fixture
def mystery_three_left(make_tournament, make_person, cashier_actor, actor):
    """4 × €50 bounty = 200 in four envelopes of 50, drawn from the start; 1st 100 / 60 / 40.
    Entry 3 out to entry 0 draws one envelope (50): 150 left in the bag for the deal."""

    def make(**settings):
        t, e = bounty_event(
            make_tournament, make_person, cashier_actor, actor, players=4, table=["100", "60", "40"], bounty="MYSTERY", mystery_from="START", **settings
        )
        services.set_envelopes(t, ["50", "50", "50", "50"], actor=actor)
        t.refresh_from_db()  # the envelopes are in its settings now
        out(t, e[3], e[0], actor)
        return t, e[:3]

    return make


def test_envelopes_left_at_a_deal_are_shared_equally_and_no_more_are_drawn(mystery_three_left, actor):
    t, (a, b, c) = mystery_three_left()
    options = services.deal_options(t, stacks_of([a, b, c], [3000, 2000, 1000]))
    assert options["bounties"]["in_play"] == "150.00" and "shared equally" in options["bounties"]["explained"]
    assert options["methods"]["CHIP_CHOP"]["bounty_by_player"] == ["50.00", "50.00", "50.00"]
    agree_and_approve(services.propose_deal(t, stacks_of([a, b, c], [3000, 2000, 1000]), method=Deal.CHIP_CHOP, actor=actor), [a, b, c], actor)
    assert (owed(t, a), owed(t, b), owed(t, c)) == (D("100"), D("50"), D("50"))  # a's envelope + 50 each
    assert sel.knockouts_by_entry(t) == {a.pk: 1}  # the deal's shares are no knockouts
    money = sel.bounty_money(t)
    assert (money["in_bag"], money["owed"], money["difference"]) == (0, D("200"), 0)
    with pytest.raises(DomainError) as refused:
        services.set_envelopes(t, ["50", "50", "50", "50"], actor=actor)
    assert refused.value.code == "envelopes_settled"
    out(t, c, a, actor)
    out(t, b, a, actor)
    assert BountyAward.objects.filter(tournament=t, envelope__isnull=False).count() == 1  # nothing drawn after the deal
    assert not BountyAward.objects.filter(tournament=t, kind=BountyAward.LEFTOVER).exists()
    assert all_owed(t) == sel.bounty_taken_in(t) == D("200.00")


def test_pay09_a_knockout_before_the_deal_is_approved_still_draws_an_envelope(mystery_three_left, actor):
    # Proposed and agreed by two, not approved: c's knockout voids the deal and draws one of
    # the three envelopes of 50 left, as any knockout does.
    t, (a, b, c) = mystery_three_left()
    deal = services.propose_deal(t, stacks_of([a, b, c], [3000, 2000, 1000]), method=Deal.CHIP_CHOP, actor=actor)
    services.accept_deal(deal, a, actor=actor)
    services.accept_deal(deal, b, actor=actor)
    out(t, c, a, actor)
    drawn = BountyAward.objects.get(tournament=t, knocked_out=c)
    assert (drawn.winner_id, drawn.envelope is not None, drawn.cash) == (a.pk, True, D("50"))
    assert owed(t, a) == D("100") and not BountyAward.objects.filter(tournament=t, kind=BountyAward.DEAL).exists()


def test_envelopes_left_at_a_deal_are_carried_over_when_the_house_says_so(mystery_three_left, actor):
    t, (a, b, c) = mystery_three_left(mystery_leftover="CARRY_OVER", bounty_in_deal="ADDED")
    options = services.deal_options(t, stacks_of([a, b, c], [3000, 2000, 1000]))
    assert options["methods"]["ICM"]["bounty_by_player"] == ["0.00", "0.00", "0.00"] and "carried over" in options["bounties"]["explained"]
    agree_and_approve(services.propose_deal(t, stacks_of([a, b, c], [3000, 2000, 1000]), method=Deal.CHIP_CHOP, actor=actor), [a, b, c], actor)
    carried = BountyAward.objects.get(tournament=t, kind=BountyAward.LEFTOVER)
    assert (carried.winner_id, carried.cash) == (None, D("150"))
    assert not BountyAward.objects.filter(tournament=t, kind=BountyAward.DEAL).exists()  # nobody in the deal is owed any of it
    out(t, c, a, actor)
    out(t, b, a, actor)
    assert BountyAward.objects.filter(tournament=t, kind=BountyAward.LEFTOVER).count() == 1
    assert all_owed(t) == owed(t, a) == D("50")
    assert sel.bounty_taken_in(t) == all_owed(t) + carried_or_kept(t) == D("200.00")
    money = sel.bounty_money(t)
    assert (money["in_bag"], money["carried"], money["difference"]) == (0, D("150"), 0)


def test_a_player_in_a_deal_is_neither_refunded_nor_his_sale_reversed(pko_three_left, actor):
    # The chip chop shares the 300 of the pool and the 225 on the heads; reversing the buy-in of
    # one of the three (or refunding him) would take 50 + 50 out of money the deal has shared.
    from payouts import reports
    from tournaments.models import LedgerRow

    t, players = pko_three_left()
    agree_and_approve(services.propose_deal(t, stacks_of(players), method=Deal.CHIP_CHOP, actor=actor), players, actor)
    sale = players[2].ledger.get(kind=LedgerRow.BUY_IN)
    with pytest.raises(DomainError) as reversal:
        cashier.reverse(sale, reason="sold twice", actor=actor)
    with pytest.raises(DomainError) as refund:
        cashier.refund(players[2], reason="taken ill", actor=actor)
    assert (reversal.value.code, refund.value.code) == ("in_deal", "in_deal")
    assert "deal" in str(reversal.value.message)
    assert Entry.objects.get(pk=players[2].pk).status == Entry.ACTIVE
    assert reports.reconciliation_data(t)["balanced"]


def deal_page(t, director) -> str:
    client = Client()
    client.force_login(director)
    return client.get(f"/tournaments/{t.pk}/payouts/deal/").content.decode()


@pytest.mark.parametrize(
    ("rule", "label", "sentence"),
    [
        (
            "APART",
            "bounties kept apart",
            "Bounties kept apart: each player in the deal takes the bounty on their own head, paid at the desk apart from the prizes.",
        ),
        (
            "ADDED",
            "bounties added",
            "Bounties added: the bounties in play (€225.00) are shared with the deal, by share of the chips (ICM, chip chop, a custom deal) or equally (even chop), paid at the desk apart from the prizes.",
        ),
    ],
)
def test_the_deal_page_says_what_the_deal_does_with_the_heads(pko_three_left, director, rule, label, sentence):
    t, (a, b, c) = pko_three_left(bounty_in_deal=rule)
    said = {"kind": "PKO", "in_deal": rule, "label": label, "explained": sentence, "in_play": "225.00", "mystery_leftover": None}
    assert services.deal_options(t, stacks_of([a, b, c]))["bounties"] == said
    assert services.deal_bounties_now(t, [a.pk, b.pk, c.pk]) == {**said, "heads": {a.pk: D("100"), b.pk: D("75"), c.pk: D("50")}}
    page = deal_page(t, director)
    line = page[page.index('<p id="deal-bounties"') :]
    assert sentence in line[: line.index("</p>")] and "€225.00" in line
    heads = [row[row.index('class="num head">') + 17 : row.index("</td>", row.index('class="num head">'))] for row in page.split("<tr data-entry=")[1:]]
    assert heads == ["100.00", "75.00", "50.00"]


@pytest.mark.parametrize(
    ("house", "rule", "leftover", "sentence"),
    [
        (
            {},
            "APART",
            "WINNER",
            "The envelopes left in the bag (€150.00) are shared equally among the players in the deal, paid at the desk apart from the prizes.",
        ),
        (
            {"bounty_in_deal": "ADDED"},
            "ADDED",
            "WINNER",
            "The envelopes left in the bag (€150.00) are shared with the deal: by share of the chips, equally in an even chop; paid at the desk apart from the prizes.",
        ),
        ({"mystery_leftover": "CARRY_OVER"}, "APART", "CARRY_OVER", "The envelopes left in the bag (€150.00) are carried over to the next mystery event."),
    ],
)
def test_the_deal_page_says_what_the_deal_does_with_the_envelopes_left(mystery_three_left, director, house, rule, leftover, sentence):
    t, (a, b, c) = mystery_three_left(**house)
    said = {
        "kind": "MYSTERY",
        "in_deal": rule,
        "label": {"APART": "bounties kept apart", "ADDED": "bounties added"}[rule],
        "explained": sentence,
        "in_play": "150.00",
        "mystery_leftover": leftover,
    }
    options = services.deal_options(t, stacks_of([a, b, c], [3000, 2000, 1000]))
    assert options["bounties"] == said and not any("bounty" in p for p in options["players"])  # no head on anyone
    assert services.deal_bounties_now(t, [a.pk, b.pk, c.pk]) == {**said, "heads": {}}
    page = deal_page(t, director)
    line = page[page.index('<p id="deal-bounties"') :]
    assert sentence in line[: line.index("</p>")] and 'class="num head"' not in page


# --- what the deal settled, read back (PAY-09 with PAY-02) --------------------------------------


def bounty_sentences(t) -> list[str]:
    """The event log's bounty lines, as the tournament page reads them."""
    from tournaments.oversight.selectors import event_sentences

    rows = TournamentEvent.objects.filter(tournament=t, action="payouts.bounty.won").order_by("pk")
    return [e.sentence for e in event_sentences(rows, "EUR")]


def test_pay09_undoing_busts_from_before_and_after_the_deal_together_is_refused_in_words(pko_three_left, actor):
    t, (a, b, c) = pko_three_left()
    agree_and_approve(services.propose_deal(t, stacks_of([a, b, c]), method=Deal.CHIP_CHOP, actor=actor), [a, b, c], actor)
    before = BountyAward.objects.filter(tournament=t, kind=BountyAward.KNOCKOUT).first().bust
    after = out(t, c, b, actor).busts[0]
    with pytest.raises(DomainError) as refused:  # one hand's two busts, one of them from before the deal
        services.undo_knockouts(t, [after, before], actor)
    assert (refused.value.code, refused.value.message) == (
        "bounty_settled_in_deal",
        "The bounties in play were settled by the deal approved since: a bust from before the deal cannot be undone.",
    )
    assert not BountyAward.objects.filter(tournament=t, void=BountyAward.UNDONE).exists()
    assert (owed(t, a), owed(t, b), owed(t, c)) == (D("150"), D("100"), D("50"))


def test_pay09_a_mystery_deal_is_refused_when_the_bag_changed_since_it_was_proposed(mystery_three_left, actor):
    # Proposed with 150 left in the bag; then the one envelope drawn goes back in (written straight
    # in, as a correction would): 200 in play. The approval is refused, nothing settled.
    t, (a, b, c) = mystery_three_left()
    deal = services.propose_deal(t, stacks_of([a, b, c], [3000, 2000, 1000]), method=Deal.CHIP_CHOP, actor=actor)
    assert deal.bounty_total == D("150")
    BountyAward.objects.filter(tournament=t, envelope__isnull=False).update(void=BountyAward.UNDONE)
    with pytest.raises(DomainError) as refused:
        agree_and_approve(deal, [a, b, c], actor)
    assert (refused.value.code, refused.value.message) == (
        "bounties_changed",
        "The bounties in play have changed since the deal was proposed: propose it again.",
    )
    assert Deal.objects.get(pk=deal.pk).status == Deal.PROPOSED
    assert not BountyAward.objects.filter(tournament=t, kind=BountyAward.DEAL).exists()


def test_pay09_a_deal_share_of_one_euro_is_owed_like_any_other(pko_three_left, actor):
    # Bounties added, shared by chips: c holds 400 of every 90,000 chips, so his part of the 225
    # in play is 225 × 400 / 90,000 = 1.00; the other two share the rest.
    t, (a, b, c) = pko_three_left(bounty_in_deal="ADDED")
    deal = services.propose_deal(t, stacks_of([a, b, c], [59600, 30000, 400]), method=Deal.CHIP_CHOP, actor=actor)
    assert deal.bounties[str(c.pk)] == "1.00"
    agree_and_approve(deal, [a, b, c], actor)
    assert owed(t, c) == D("1.00")  # c knocked nobody out: his part of the deal only
    assert BountyAward.objects.get(tournament=t, kind=BountyAward.DEAL, winner=c).cash == D("1.00")
    assert all_owed(t) == sel.bounty_taken_in(t) == D("300.00")
    assert sel.bounty_money(t)["difference"] == 0


def test_pay09_a_deal_after_the_last_envelope_was_drawn_carries_nothing_over(make_tournament, make_person, cashier_actor, actor):
    # 4 × €50 in two envelopes, 150 and 50, both drawn by the first two knockouts: the two left
    # deal with an empty bag, and nothing is carried over to the next mystery event.
    t, e = bounty_event(
        make_tournament,
        make_person,
        cashier_actor,
        actor,
        players=4,
        table=["120", "80"],
        bounty="MYSTERY",
        mystery_from="START",
        mystery_leftover="CARRY_OVER",
    )
    services.set_envelopes(t, ["150", "50"], actor=actor)
    t.refresh_from_db()
    out(t, e[3], e[0], actor)
    out(t, e[2], e[1], actor)
    assert sel.bounty_money(t)["in_bag"] == 0
    a, b = e[:2]
    deal = services.propose_deal(t, stacks_of([a, b], [3000, 2000]), method=Deal.CHIP_CHOP, actor=actor)
    agree_and_approve(deal, [a, b], actor)
    assert not BountyAward.objects.filter(tournament=t, kind__in=(BountyAward.LEFTOVER, BountyAward.DEAL)).exists()
    assert not any("carried over" in s for s in bounty_sentences(t))
    money = sel.bounty_money(t)
    assert (money["carried"], money["owed"], money["difference"]) == (0, D("200"), 0)


def test_pay09_envelopes_carried_over_by_a_deal_stay_carried_when_a_later_bust_is_undone(mystery_three_left, actor):
    t, (a, b, c) = mystery_three_left(mystery_leftover="CARRY_OVER")
    agree_and_approve(services.propose_deal(t, stacks_of([a, b, c], [3000, 2000, 1000]), method=Deal.CHIP_CHOP, actor=actor), [a, b, c], actor)
    later = out(t, c, a, actor).busts[0]
    seating.undo_bust(t, later, actor=actor, reason="wrong player")
    assert Entry.objects.get(pk=c.pk).status == Entry.ACTIVE
    carried = BountyAward.objects.get(tournament=t, kind=BountyAward.LEFTOVER)
    assert (carried.void, carried.cash, carried.deal_id) == ("", D("150"), Deal.objects.get(tournament=t).pk)
    money = sel.bounty_money(t)
    assert (money["carried"], money["in_bag"], money["difference"]) == (D("150"), 0, 0)


def test_pay09_the_log_says_what_each_player_took_in_the_deal_and_who_approved_it(pko_three_left, mystery_three_left, director, actor):
    t, (a, b, c) = pko_three_left()
    deal = agree_and_approve(services.propose_deal(t, stacks_of([a, b, c]), method=Deal.CHIP_CHOP, actor=actor), [a, b, c], actor)
    rows = TournamentEvent.objects.filter(tournament=t, action="payouts.bounty.won", payload__kind="DEAL").order_by("pk")
    assert [(r.actor, r.payload["deal"], r.payload["bounty_in_deal"]) for r in rows] == [(director, deal.pk, "APART")] * 3
    said = bounty_sentences(t)[-3:]
    assert said == [
        f"Bounty: With the deal, {x.person.full_name} collects the bounty on that entry: €{v}" for x, v in ((a, "100.00"), (b, "75.00"), (c, "50.00"))
    ]

    m, (ma, mb, mc) = mystery_three_left()
    deal = agree_and_approve(services.propose_deal(m, stacks_of([ma, mb, mc], [3000, 2000, 1000]), method=Deal.CHIP_CHOP, actor=actor), [ma, mb, mc], actor)
    rows = TournamentEvent.objects.filter(tournament=m, action="payouts.bounty.won", payload__kind="DEAL").order_by("pk")
    assert [(r.actor, r.payload["deal"], r.payload["bounty_in_deal"]) for r in rows] == [(director, deal.pk, "APART")] * 3
    said = bounty_sentences(m)[-3:]
    assert said == [f"Bounty: {x.person.full_name} takes €50.00 of the bounty money shared in the deal" for x in (ma, mb, mc)]


def test_pay09_one_euro_left_in_the_bag_at_a_deal_is_carried_over(make_tournament, make_person, cashier_actor, actor):
    # 3 × €0.50 of bounty money in three envelopes of 0.50: the first knockout draws one, the two
    # left deal with €1.00 in the bag, which the house carries over to its next mystery event.
    t, e = bounty_event(
        make_tournament,
        make_person,
        cashier_actor,
        actor,
        players=3,
        table=["100", "50"],
        bounty="MYSTERY",
        bounty_amount="0.50",
        mystery_from="START",
        mystery_leftover="CARRY_OVER",
    )
    services.set_envelopes(t, ["0.50", "0.50", "0.50"], actor=actor)
    t.refresh_from_db()
    out(t, e[2], e[0], actor)
    a, b = e[:2]
    agree_and_approve(services.propose_deal(t, stacks_of([a, b], [3000, 2000]), method=Deal.CHIP_CHOP, actor=actor), [a, b], actor)
    carried = BountyAward.objects.get(tournament=t, kind=BountyAward.LEFTOVER)
    assert (carried.winner_id, carried.cash) == (None, D("1.00"))
    money = sel.bounty_money(t)
    assert (money["carried"], money["in_bag"], money["difference"]) == (D("1.00"), 0, 0)
