"""Bounty events with real money (PAY-02): the bounty part of each sale on the ledger, the
knockouts the floor records, the desk paying them, undo, and mystery envelopes.

Every expectation is worked by hand in the comments from the house settings of the test."""

from decimal import Decimal

import pytest

from payouts import selectors as sel
from payouts import services
from payouts.models import BountyAward, BountyHead
from seating import services as seating
from tdmanager.errors import DomainError
from tests.payouts.bounty_setup import bounty_event
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.floor import services as floor
from tournaments.models import Entry, LedgerRow, Tournament, TournamentEvent
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db
D = Decimal


def pko(make_tournament, make_person, cashier_actor, actor, players=9, **settings):
    """A PKO of ``players`` × (€50 pool + €50 bounty + €10 fee), started."""
    return bounty_event(make_tournament, make_person, cashier_actor, actor, players=players, **settings)


def head(entry) -> Decimal:
    return BountyHead.objects.get(entry=entry).amount


def owed(t, entry) -> Decimal:
    return sum((a.cash for a in sel.bounties_owed_query(t).filter(winner=entry)), D(0))


def test_a_sale_takes_the_bounty_apart_from_the_prize_pool(make_tournament, make_person, cashier_actor, actor):
    t, entries = pko(make_tournament, make_person, cashier_actor, actor, players=3)
    row = entries[0].ledger.get()
    assert (row.prize_amount, row.bounty_amount, row.fee_amount, row.total) == (D("50"), D("50"), D("10"), D("110"))
    assert sel.money_in(t)["prize"] == D("150")  # the pool: 3 × €50, no bounty in it
    assert sel.bounty_taken_in(t) == D("150")
    assert [head(e) for e in entries] == [D("50")] * 3


def test_pko_9_players_to_the_last_bust_adds_up_to_the_cent(make_tournament, make_person, cashier_actor, actor):
    # €1 rounding unit, 50 % in cash. A = entries[0] knocks out 1, 2, 3, 4; then entries[5]
    # knocks out A (head 50 + 4 × 25 = 150: 75 cash, 75 added), then 6, 7 go to entries[8];
    # entries[8] knocks out entries[5] last.
    t, e = pko(make_tournament, make_person, cashier_actor, actor)
    for i in (1, 2, 3, 4):
        seating.record_bust(t, [{"entry": e[i].pk, "eliminators": [e[0].pk]}], actor=actor)
    assert head(e[0]) == D("150") and owed(t, e[0]) == D("100")  # 4 × 25 cash, 4 × 25 added
    seating.record_bust(t, [{"entry": e[0].pk, "eliminators": [e[5].pk]}], actor=actor)
    assert head(e[5]) == D("125") and owed(t, e[5]) == D("75")
    seating.record_bust(t, [{"entry": e[6].pk, "eliminators": [e[8].pk]}], actor=actor)
    seating.record_bust(t, [{"entry": e[7].pk, "eliminators": [e[8].pk]}], actor=actor)
    assert head(e[8]) == D("100") and owed(t, e[8]) == D("50")
    # The last bust: 5's head 125 → 62 cash (rounded down to €1), 63 added to 8's head; then 8 wins his own 163.
    seating.record_bust(t, [{"entry": e[5].pk, "eliminators": [e[8].pk]}], actor=actor)
    assert owed(t, e[8]) == D("50") + D("62") + D("163")
    assert sum(owed(t, x) for x in e) == D("450")  # every bounty bought went back to the players
    assert BountyHead.objects.filter(tournament=t).exclude(amount=0).count() == 0


def test_a_bust_in_a_bounty_event_needs_its_eliminator(make_tournament, make_person, cashier_actor, actor):
    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=4)
    with pytest.raises(DomainError) as refused:
        seating.record_bust(t, [e[1]], actor=actor)
    assert refused.value.code == "eliminator_required"
    assert Entry.objects.get(pk=e[1].pk).status == Entry.ACTIVE  # the bust was refused with it
    with pytest.raises(DomainError) as refused:
        seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[1].pk]}], actor=actor)
    assert refused.value.code == "self_knockout"


def test_a_split_pot_shares_the_bounty_by_the_pot_and_the_remainder_goes_first(make_tournament, make_person, cashier_actor, actor):
    # Fixed €50, by the pot 2:1 → 33.33… and 16.66… rounded down to €1: 33 and 16, €1 left to the first listed.
    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=4, bounty="FIXED", bounty_split="POT")
    seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [{"entry": e[2].pk, "pot_share": 2000}, {"entry": e[3].pk, "pot_share": 1000}]}], actor=actor)
    assert (owed(t, e[2]), owed(t, e[3])) == (D("34"), D("16"))


def test_the_desk_pays_what_is_owed_once_within_the_cash_limit(make_tournament, make_person, cashier_actor, actor):
    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=4, bounty="FIXED")
    seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
    seating.record_bust(t, [{"entry": e[2].pk, "eliminators": [e[0].pk]}], actor=actor)
    row = services.pay_bounties(e[0], method="CASH", actor=cashier_actor)
    assert (row.kind, row.bounty_amount, row.total, row.method) == (LedgerRow.BOUNTY, D("-100"), D("-100"), "CASH")
    assert owed(t, e[0]) == 0 and sel.bounty_paid_out(t) == D("100")
    with pytest.raises(DomainError) as refused:
        services.pay_bounties(e[0], method="CASH", actor=cashier_actor)
    assert refused.value.code == "no_bounty_owed"
    t.cash_limit = D("40")
    t.save(update_fields=["cash_limit"])
    seating.record_bust(t, [{"entry": e[3].pk, "eliminators": [e[0].pk]}], actor=actor)  # 50 more, and the winner's own 50
    with pytest.raises(DomainError) as refused:
        services.pay_bounties(e[0], method="CASH", actor=cashier_actor)
    assert refused.value.code == "cash_limit_exceeded"
    row = services.pay_bounties(e[0], method="TRANSFER", reference="TRX-1", actor=cashier_actor)
    assert row.bounty_amount == D("-100")


def test_a_paid_knockout_is_undone_once_its_bounty_is_given_back_and_the_rest_stays_paid(make_tournament, make_person, cashier_actor, actor):
    # 0 knocks out 1 then 2 (25 cash each, 0's head 50 + 25 + 25 = 100); the desk pays his 50 at once.
    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=4)
    seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
    out = seating.record_bust(t, [{"entry": e[2].pk, "eliminators": [e[0].pk]}], actor=actor)
    paid = services.pay_bounties(e[0], method="CASH", actor=cashier_actor)
    with pytest.raises(DomainError) as refused:
        seating.undo_bust(t, out.busts[0], actor=actor, reason="wrong player")
    assert refused.value.code == "bounty_paid"
    assert Entry.objects.get(pk=e[2].pk).status == Entry.BUSTED and head(e[0]) == D("100")  # refused: nothing moved
    # He gives back the 25 of the bust to undo: the 50 payment is reversed, his other 25 paid again.
    done = services.return_bounty(BountyAward.objects.get(bust=out.busts[0]), reason="wrong player", actor=cashier_actor)
    assert (done.reversal.bounty_amount, done.kept.bounty_amount, done.reversal.reverses_id) == (D("50"), D("-25"), paid.pk)
    assert owed(t, e[0]) == D("25") and sel.bounty_paid_out(t) == D("25")
    seating.undo_bust(t, out.busts[0], actor=actor, reason="wrong player")
    assert head(e[2]) == D("50") and head(e[0]) == D("75")  # 50 + 25 from the first knockout only
    assert owed(t, e[0]) == 0 and sel.bounty_paid_out(t) == D("25")  # the first knockout's cash stays paid
    assert BountyAward.objects.filter(bust=out.busts[0], void="").count() == 0
    assert LedgerRow.objects.filter(tournament=t, cashier=actor.user).count() == 0  # the director's undo booked nothing


def test_a_bounty_passed_on_is_undone_with_the_later_bust_first(make_tournament, make_person, cashier_actor, actor):
    # 1 out to 0 (25 cash, 0's head 75), then 0 out to 2 (37 cash, 38 added: 2's head 88).
    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=4)
    first = seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
    seating.record_bust(t, [{"entry": e[0].pk, "eliminators": [e[2].pk]}], actor=actor)
    assert (head(e[2]), owed(t, e[2])) == (D("88"), D("37"))
    with pytest.raises(DomainError) as refused:
        seating.undo_bust(t, first.busts[0], actor=actor, reason="mistake")
    assert head(e[0]) == 0 and owed(t, e[0]) == D("25")  # refused: nothing moved
    later = [c["event"] for c in refused.value.extra["later"]]
    seating.undo_bust_and_later(t, first.busts[0], later=later, actor=actor, reason="mistake")
    assert [head(x) for x in e] == [D("50")] * 4 and sum(owed(t, x) for x in e) == 0


def test_the_passed_on_check_refuses_what_seating_would_allow(make_tournament, make_person, cashier_actor, actor):
    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=4)
    first = seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
    seating.record_bust(t, [{"entry": e[0].pk, "eliminators": [e[2].pk]}], actor=actor)
    with pytest.raises(DomainError) as refused:
        services.undo_knockouts(t, [first.busts[0]], actor)
    assert refused.value.code == "bounty_passed_on"


def test_mystery_envelopes_are_drawn_from_the_stage_and_logged(make_tournament, make_person, cashier_actor, actor):
    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=4, bounty="MYSTERY", mystery_from="START")
    with pytest.raises(DomainError) as refused:
        services.set_envelopes(t, ["100", "50"], actor=actor)
    assert refused.value.code == "envelopes_total"  # 4 × 50 = 200 taken in
    services.set_envelopes(t, ["100", "50", "30", "20"], actor=actor)
    seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
    drawn = BountyAward.objects.get(knocked_out=e[1])
    assert drawn.envelope in (1, 2, 3, 4) and drawn.cash == [D("100"), D("50"), D("30"), D("20")][drawn.envelope - 1]
    event = TournamentEvent.objects.get(tournament=t, action="payouts.mystery.drawn")
    assert event.payload["envelope"] == drawn.envelope and event.payload["seed"] == drawn.seed
    seating.record_bust(t, [{"entry": e[2].pk, "eliminators": [e[0].pk]}], actor=actor)
    seating.record_bust(t, [{"entry": e[3].pk, "eliminators": [e[0].pk]}], actor=actor)
    # three envelopes drawn, each once; the one left goes to the winner: 200 in all
    numbers = [a.envelope for a in BountyAward.objects.filter(tournament=t, envelope__isnull=False)]
    assert len(numbers) == 3 and len(set(numbers)) == 3
    left = BountyAward.objects.get(tournament=t, kind=BountyAward.LEFTOVER)
    assert left.winner_id == e[0].pk and left.cash == [D("100"), D("50"), D("30"), D("20")][({1, 2, 3, 4} - set(numbers)).pop() - 1]
    assert owed(t, e[0]) == D("200")


def test_a_re_entry_buys_a_new_bounty_and_the_money_still_balances(make_tournament, make_person, cashier_actor, actor):
    # 4 × €50 bounties, then player 1 re-enters after 0 knocked him out: €250 taken in.
    # 0 wins 25 cash + 25 onto his head (75); the re-entry's head is a fresh 50.
    t = make_tournament(
        buy_in=D("50"),
        fee=D("10"),
        format=Tournament.REENTRY,
        max_entries_per_player=2,
        late_reg_closes_after_level=3,
        settings={"bounty": "PKO", "bounty_amount": "50"},
    )
    e = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(4)]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    clock_services.start_clock(t, actor=actor)
    seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
    again = cashier.reenter(t, e[1].person, method="CASH", actor=cashier_actor).entry
    assert again.ledger.get().bounty_amount == D("50") and head(again) == D("50")
    assert sel.bounty_taken_in(t) == D("250")
    assert head(e[0]) == D("75") and owed(t, e[0]) == D("25")
    on_heads = sum((h.amount for h in BountyHead.objects.filter(tournament=t)), D(0))
    assert on_heads + sum(owed(t, x) for x in [*e, again]) == D("250")  # nothing paid yet: on heads + owed


def test_envelopes_are_only_added_once_the_draws_have_begun(make_tournament, make_person, cashier_actor, actor):
    # 3 × €30 = 90 in the bag; a late re-entry's €30 comes in an added envelope.
    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=3, bounty="MYSTERY", bounty_amount="30", mystery_from="START")
    services.set_envelopes(t, ["50", "25", "15"], actor=actor)
    seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
    row = cashier.register(t, make_person(), method="CASH", actor=cashier_actor).row  # late registration: €30 more
    assert row.bounty_amount == D("30") and sel.bounty_taken_in(t) == D("120")
    with pytest.raises(DomainError) as refused:
        services.set_envelopes(t, ["60", "30", "15", "15"], actor=actor)
    assert refused.value.code == "envelopes_drawn"
    assert services.set_envelopes(t, ["50", "25", "15", "30"], actor=actor)[-1] == D("30")


def test_an_eliminator_without_a_bounty_of_his_own_keeps_what_he_wins(make_tournament, make_person, cashier_actor, actor):
    # Entry 0 has no head (as an entry written in bulk): knocking out 1 (head 50) puts 25 in
    # cash and 25 on a new head for 0; the heads then hold 25 + 50 + 50, and 25 is owed.
    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=4)
    BountyHead.objects.filter(entry=e[0]).delete()
    seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
    assert head(e[0]) == D("25") and owed(t, e[0]) == D("25")
    assert sum((h.amount for h in BountyHead.objects.filter(tournament=t)), D(0)) == D("125")  # 25 + 50 + 50


def test_a_busted_player_in_a_bounty_event_re_enters_rather_than_rebuys(make_tournament, make_person, cashier_actor, actor):
    # His knockout paid the €50 on his head to player 0: a rebuy would bring him back with none.
    t = make_tournament(
        buy_in=D("50"),
        fee=D("10"),
        format=Tournament.REBUY,
        rebuy_price=D("50"),
        rebuy_chips=30000,
        rebuy_until_level=3,
        settings={"bounty": "PKO", "bounty_amount": "50"},
    )
    e = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(3)]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    clock_services.start_clock(t, actor=actor)
    seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
    with pytest.raises(DomainError) as refused:
        cashier.rebuy(e[1], method="CASH", actor=cashier_actor)
    assert refused.value.code == "bounty_event_reentry"
    assert Entry.objects.get(pk=e[1].pk).status == Entry.BUSTED and owed(t, e[0]) == D("25")


# --- when the envelopes are drawn, and what the log says ---------------------------------------


def drawn(t) -> list:
    """(knocked out, envelope, cash) of each knockout's award, in the order of the busts."""
    return [(a.knocked_out_id, a.envelope, a.cash) for a in BountyAward.objects.filter(tournament=t, kind=BountyAward.KNOCKOUT).order_by("pk")]


def test_pay02_a_mystery_event_from_the_money_draws_from_the_last_place_paid(make_tournament, make_person, cashier_actor, actor):
    # 4 players, €200 of bounty money in two envelopes (150 and 50); the table pays 3 places:
    # the 4th out draws nothing, the 3rd (the last place paid) draws one.
    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=4, bounty="MYSTERY", mystery_from="ITM")
    services.edit_payout_table(t, [{"place": 1, "amount": "100"}, {"place": 2, "amount": "60"}, {"place": 3, "amount": "40"}], actor=actor)
    services.lock_payout_table(t, actor=actor)
    services.set_envelopes(t, ["150", "50"], actor=actor)
    seating.record_bust(t, [{"entry": e[3].pk, "eliminators": [e[0].pk]}], actor=actor)  # 4th: out of the money
    assert drawn(t) == [(e[3].pk, None, D("0"))] and owed(t, e[0]) == 0
    seating.record_bust(t, [{"entry": e[2].pk, "eliminators": [e[0].pk]}], actor=actor)  # 3rd: the last place paid
    _fourth, (knocked_out, envelope, cash) = drawn(t)
    assert knocked_out == e[2].pk and envelope in (1, 2) and cash == [D("150"), D("50")][envelope - 1]
    assert owed(t, e[0]) == cash
    # The log names both players and keeps what the draw was made from, to draw it again.
    (logged,) = TournamentEvent.objects.filter(tournament=t, action="payouts.mystery.drawn", payload__knocked_out=e[2].pk)
    assert (logged.payload["name"], logged.payload["knocked_out_name"]) == (e[0].person.full_name, e[2].person.full_name)
    assert (logged.payload["envelope"], logged.payload["left"], logged.payload["cash"]) == (envelope, [1, 2], str(cash))


def test_pay02_a_mystery_event_from_a_level_draws_from_that_level_on(make_tournament, make_person, cashier_actor, actor):
    # Envelopes from level 2: a knockout before the clock starts and one in level 1 draw
    # nothing; the first in level 2 draws one of the two envelopes (150 and 50).
    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=4, bounty="MYSTERY", mystery_from={"level": 2})
    services.set_envelopes(t, ["150", "50"], actor=actor)
    seating.record_bust(t, [{"entry": e[3].pk, "eliminators": [e[0].pk]}], actor=actor)  # no clock yet
    clock_services.start_clock(t, actor=actor)
    seating.record_bust(t, [{"entry": e[2].pk, "eliminators": [e[0].pk]}], actor=actor)  # level 1
    assert drawn(t) == [(e[3].pk, None, D("0")), (e[2].pk, None, D("0"))] and owed(t, e[0]) == 0
    clock_services.jump_to(t, 1, actor=actor)  # level 2 (the structure has no break before it)
    seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
    *_before, (knocked_out, envelope, cash) = drawn(t)
    assert knocked_out == e[1].pk and envelope in (1, 2) and cash == [D("150"), D("50")][envelope - 1]


@pytest.mark.parametrize("share", [0, -500, 1500.5, "1e3x", "Infinity", True])
def test_pay02_a_share_of_the_pot_that_is_not_whole_chips_above_zero_is_refused(make_tournament, make_person, cashier_actor, actor, share):
    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=4, bounty="FIXED", bounty_split="POT")
    with pytest.raises(DomainError) as refused:
        seating.record_bust(
            t, [{"entry": e[1].pk, "eliminators": [{"entry": e[2].pk, "pot_share": 2000}, {"entry": e[3].pk, "pot_share": share}]}], actor=actor
        )
    assert (refused.value.code, refused.value.extra["field"]) == ("bad_pot_share", "pot_share")
    assert refused.value.message == "Each eliminator's share of the pot is a whole number of chips above zero."
    assert Entry.objects.get(pk=e[1].pk).status == Entry.ACTIVE and BountyAward.objects.filter(tournament=t).count() == 0


def test_pay02_the_refusals_of_an_eliminator_name_the_player(make_tournament, make_person, cashier_actor, actor):
    cashier.register(make_tournament(), make_person(), method="CASH", actor=cashier_actor)  # another event's entry: #1 here is not entry 1
    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=4)
    assert [x.number for x in e] != [x.pk for x in e]
    seating.record_bust(t, [{"entry": e[3].pk, "eliminators": [e[0].pk]}], actor=actor)
    with pytest.raises(DomainError) as refused:
        seating.record_bust(t, [e[1]], actor=actor)
    assert refused.value.message == f"This is a bounty event: name who knocked {e[1].person.full_name} out."
    with pytest.raises(DomainError) as refused:
        seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk, e[3].pk]}], actor=actor)
    assert (refused.value.code, refused.value.extra["field"]) == ("eliminator_not_playing", "eliminators")
    assert refused.value.message == f"Entry #{e[3].number} is not playing in this tournament: only a player still in can knock one out."
    with pytest.raises(DomainError) as refused:
        seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [987654321]}], actor=actor)
    assert refused.value.message == "Entry #987654321 is not playing in this tournament: only a player still in can knock one out."
    with pytest.raises(DomainError) as refused:
        seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk, e[0].pk]}], actor=actor)
    assert refused.value.message == "An eliminator is listed twice."


def test_pen07_a_disqualified_players_bounty_is_kept_by_the_house(make_tournament, make_person, cashier_actor, actor):
    # Nobody knocked him out: his €50 goes to no player, and his head is empty.
    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=4)
    floor.issue_penalty(t, e[1], kind="DISQUALIFICATION", reason_code="CHIP_DUMPING", actor=actor)
    assert [(a.kind, a.winner_id, a.knocked_out_id, a.cash) for a in BountyAward.objects.filter(tournament=t)] == [(BountyAward.HOUSE, None, e[1].pk, D("50"))]
    assert [head(x) for x in e] == [D("50"), D("0"), D("50"), D("50")] and sum(owed(t, x) for x in e) == 0


def test_pay02_undoing_a_split_pot_gives_the_head_back_with_the_house_s_remainder(make_tournament, make_person, cashier_actor, actor):
    # Fixed €50 by the pot 2:1, the remainder to the house: 33 and 16 to the winners, 1 to the
    # house. The undo puts all 50 back on the player's head and voids the three awards; the
    # log says 49 was taken back from the winners.
    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=4, bounty="FIXED", bounty_split="POT", bounty_remainder="HOUSE")
    out = seating.record_bust(
        t, [{"entry": e[1].pk, "eliminators": [{"entry": e[2].pk, "pot_share": 2000}, {"entry": e[3].pk, "pot_share": 1000}]}], actor=actor
    )
    assert (owed(t, e[2]), owed(t, e[3]), head(e[1])) == (D("33"), D("16"), D("0"))
    seating.undo_bust(t, out.busts[0], actor=actor, reason="wrong player")
    assert [head(x) for x in e] == [D("50")] * 4 and sum(owed(t, x) for x in e) == 0
    assert BountyAward.objects.filter(tournament=t, void="").count() == 0
    undone = TournamentEvent.objects.get(tournament=t, action="payouts.bounty.undone").payload
    assert (undone["busts"], len(undone["awards"]), undone["cash"]) == ([out.busts[0].pk], 3, "49.00")


def test_pay02_two_players_out_in_one_hand_draw_two_envelopes_one_after_the_other(make_tournament, make_person, cashier_actor, actor, monkeypatch):
    # Two knockouts recorded together: the second draw is made from the bag without the first
    # envelope, even with the same seed (fixed here so that the draws are known).
    monkeypatch.setattr("payouts.services.bounties.secrets.randbits", lambda bits: 12345)
    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=4, bounty="MYSTERY", mystery_from="START")
    services.set_envelopes(t, ["100", "50", "30", "20"], actor=actor)
    seating.record_bust(t, [{"entry": e[2].pk, "eliminators": [e[0].pk]}, {"entry": e[3].pk, "eliminators": [e[1].pk]}], actor=actor)
    (_, first, _), (_, second, _) = drawn(t)
    assert first != second
    logged = {ev.payload["knocked_out"]: ev.payload["left"] for ev in TournamentEvent.objects.filter(tournament=t, action="payouts.mystery.drawn")}
    assert logged == {e[2].pk: [1, 2, 3, 4], e[3].pk: sorted({1, 2, 3, 4} - {first})}
    assert services.mystery_bag(Tournament.objects.get(pk=t.pk)).left == sorted({1, 2, 3, 4} - {first, second})


def test_pay02_undoing_the_last_bust_puts_the_winner_s_own_bounty_back_on_his_head(make_tournament, make_person, cashier_actor, actor):
    # 3 players: 0 knocks out 2 (25 cash, 0's head 75), then 1 (25 cash, 25 added: 0's head 100)
    # and wins: his own 100. Undoing 1's bust takes back that knockout's 25 and the 100: 0's head
    # is 75 again, 1's 50, and 0 is owed the first knockout's 25 only.
    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=3)
    seating.record_bust(t, [{"entry": e[2].pk, "eliminators": [e[0].pk]}], actor=actor)
    last = seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
    assert (head(e[0]), owed(t, e[0])) == (0, D("150"))
    seating.undo_bust(t, last.busts[0], actor=actor, reason="wrong player")
    assert [head(x) for x in e] == [D("75"), D("50"), 0]
    assert owed(t, e[0]) == D("25") and not BountyAward.objects.filter(tournament=t, kind=BountyAward.OWN, void="").exists()
    undone = TournamentEvent.objects.get(tournament=t, action="payouts.bounty.undone")
    assert (undone.payload["busts"], D(undone.payload["cash"]), undone.actor) == ([last.busts[0].pk], D("125"), actor.user)
    assert sorted(undone.payload["awards"]) == sorted(BountyAward.objects.filter(tournament=t, void=BountyAward.UNDONE).values_list("pk", flat=True))
    assert sel.bounty_money(t)["difference"] == 0
    seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)  # out again: the same money again
    assert (head(e[0]), owed(t, e[0])) == (0, D("150"))


def test_pay02_undoing_a_mystery_knockout_puts_its_envelope_back_and_takes_the_envelopes_left_back(make_tournament, make_person, cashier_actor, actor):
    # 3 × €50 in two envelopes of 75, drawn from the money (the table pays 2): the 3rd out draws
    # nothing, the 2nd one envelope, and the winner takes the other. Undoing the last bust puts
    # both back in the bag; the bust recorded again draws again.
    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=3, bounty="MYSTERY", mystery_from="ITM")
    services.edit_payout_table(t, [{"place": 1, "amount": "100"}, {"place": 2, "amount": "50"}], actor=actor)
    services.lock_payout_table(t, actor=actor)
    services.set_envelopes(t, ["75", "75"], actor=actor)
    t.refresh_from_db()  # the envelopes are in its settings now
    seating.record_bust(t, [{"entry": e[2].pk, "eliminators": [e[0].pk]}], actor=actor)
    last = seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
    assert owed(t, e[0]) == D("150") and sel.bounty_money(t)["in_bag"] == 0
    seating.undo_bust(t, last.busts[0], actor=actor, reason="wrong player")
    assert owed(t, e[0]) == 0 and not BountyHead.objects.filter(tournament=t).exists()
    money = sel.bounty_money(t)
    assert (money["in_bag"], money["owed"], money["difference"]) == (D("150"), 0, 0)
    assert services.mystery_bag(t).left == [1, 2]
    seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
    assert owed(t, e[0]) == D("150") and BountyAward.objects.filter(tournament=t, void="", envelope__isnull=False).count() == 1


def test_pay02_the_log_says_each_knockout_s_cash_and_added_bounty_and_the_winner_s_own(make_tournament, make_person, cashier_actor, actor):
    # 3 players: 0 knocks out 2 (25 cash, 25 added to his head), then 1 (the same) and wins his own 100.
    from tournaments.oversight.selectors import event_sentences

    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=3)
    busts = [seating.record_bust(t, [{"entry": x.pk, "eliminators": [e[0].pk]}], actor=actor).busts[0] for x in (e[2], e[1])]
    rows = list(TournamentEvent.objects.filter(tournament=t, action="payouts.bounty.won").order_by("pk"))
    a, b, c = (x.person.full_name for x in e)
    assert [r.sentence for r in event_sentences(rows, "EUR")] == [
        f"Bounty: {a} knocked out {c} and wins €25.00, and €25.00 is added to the eliminator's bounty",
        f"Bounty: {a} knocked out {b} and wins €25.00, and €25.00 is added to the eliminator's bounty",
        f"Bounty: The winner {a} collects the bounty on the winning entry: €100.00",
    ]
    awards = list(BountyAward.objects.filter(tournament=t).order_by("pk"))
    assert [(r.payload["award"], r.payload["bust"], r.payload["knocked_out"], r.payload["entry"]) for r in rows] == [
        (awards[0].pk, busts[0].pk, e[2].pk, e[0].pk),
        (awards[1].pk, busts[1].pk, e[1].pk, e[0].pk),
        (awards[2].pk, None, None, e[0].pk),
    ]
    assert all(r.actor == actor.user for r in rows)


def test_pay02_a_mystery_event_whose_envelopes_are_all_drawn_ends_with_none_left_to_give(make_tournament, make_person, cashier_actor, actor):
    # 3 × €50 in two envelopes of 75, drawn from the start: the two knockouts draw both, and the
    # winner takes no envelopes left (there are none), nor does the log say he does.
    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=3, bounty="MYSTERY", mystery_from="START")
    services.set_envelopes(t, ["75", "75"], actor=actor)
    t.refresh_from_db()  # the envelopes are in its settings now
    for x in (e[2], e[1]):
        seating.record_bust(t, [{"entry": x.pk, "eliminators": [e[0].pk]}], actor=actor)
    assert Entry.objects.get(pk=e[0].pk).place == 1
    assert not BountyAward.objects.filter(tournament=t, kind=BountyAward.LEFTOVER).exists()
    assert not TournamentEvent.objects.filter(tournament=t, action="payouts.bounty.won", payload__kind="LEFTOVER").exists()
    assert owed(t, e[0]) == D("150") and sel.bounty_money(t)["difference"] == 0


@pytest.mark.parametrize(("day", "draws"), [(1, False), (2, True)])
def test_pay02_a_mystery_event_from_day_2_draws_on_day_2_only(make_tournament, make_person, cashier_actor, actor, day, draws):
    # Envelopes from Day 2 (the flights service marks each day's event): a knockout on Day 1
    # draws nothing; on Day 2 it draws one of the two envelopes (150 and 50).
    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=4, bounty="MYSTERY", mystery_from="DAY2", multiday_day=day)
    services.set_envelopes(t, ["150", "50"], actor=actor)
    t.refresh_from_db()  # the envelopes are in its settings now
    seating.record_bust(t, [{"entry": e[3].pk, "eliminators": [e[0].pk]}], actor=actor)
    award = BountyAward.objects.get(tournament=t, knocked_out=e[3])
    assert (award.envelope is not None, award.cash > 0) == (draws, draws)
    assert owed(t, e[0]) == award.cash and sel.bounty_money(t)["difference"] == 0


def test_pay02_a_knockout_once_every_envelope_is_drawn_is_recorded_and_draws_nothing(make_tournament, make_person, cashier_actor, actor):
    # 4 × €50 in two envelopes of 100, drawn from the start: the first two knockouts draw both;
    # the third is a knockout all the same (the league counts it), with nothing left to draw.
    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=4, bounty="MYSTERY", mystery_from="START")
    services.set_envelopes(t, ["100", "100"], actor=actor)
    t.refresh_from_db()  # the envelopes are in its settings now
    for x in (e[3], e[2], e[1]):
        seating.record_bust(t, [{"entry": x.pk, "eliminators": [e[0].pk]}], actor=actor)
    third = BountyAward.objects.get(tournament=t, knocked_out=e[1])
    assert (third.kind, third.winner_id, third.envelope, third.seed, third.cash) == (BountyAward.KNOCKOUT, e[0].pk, None, None, 0)
    assert Entry.objects.get(pk=e[1].pk).status == Entry.BUSTED and sel.knockouts_by_entry(t) == {e[0].pk: 3}
    assert owed(t, e[0]) == D("200") and sel.bounty_money(t)["difference"] == 0


def test_pay02_undoing_a_bust_whose_bounty_has_passed_on_names_the_player_knocked_out_since(make_tournament, make_person, cashier_actor, actor):
    # 1 out to 0, then 0 out to 2: the bounty 0 won has passed on to 2.
    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=4)
    first = seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
    seating.record_bust(t, [{"entry": e[0].pk, "eliminators": [e[2].pk]}], actor=actor)
    with pytest.raises(DomainError) as refused:
        services.undo_knockouts(t, first.busts, actor)
    assert (refused.value.code, refused.value.message) == (
        "bounty_passed_on",
        f"The bounty won here has passed on: {e[0].person.full_name} was knocked out since. Undo that bust first.",
    )


def test_pay02_an_undo_gives_back_only_this_event_s_own_bounty_and_only_once(make_tournament, make_person, cashier_actor, actor):
    # Another PKO has ended: its winner's own bounty stays his. Here 0 knocks out 2 and 1 and wins
    # his own 100; the last bust undone twice (recorded again between) gives it back once each time.
    other, o = pko(make_tournament, make_person, cashier_actor, actor, players=2)
    seating.record_bust(other, [{"entry": o[1].pk, "eliminators": [o[0].pk]}], actor=actor)
    own = BountyAward.objects.get(tournament=other, kind=BountyAward.OWN)
    t, e = pko(make_tournament, make_person, cashier_actor, actor, players=3)
    seating.record_bust(t, [{"entry": e[2].pk, "eliminators": [e[0].pk]}], actor=actor)
    for _ in range(2):
        last = seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
        seating.undo_bust(t, last.busts[0], actor=actor, reason="wrong player")
        assert [head(x) for x in e] == [D("75"), D("50"), 0]
    assert BountyAward.objects.get(pk=own.pk).void == "" and head(o[0]) == 0
    assert owed(other, o[0]) == own.cash + D("25")


def test_pay02_another_mystery_event_s_draws_leave_this_bag_whole(make_tournament, make_person, cashier_actor, actor):
    # Two mystery events of 3 × €50, each in envelopes of 100 and 50: a draw in one takes nothing
    # out of the other's bag.
    bags = []
    for _ in range(2):
        t, e = pko(make_tournament, make_person, cashier_actor, actor, players=3, bounty="MYSTERY", mystery_from="START")
        services.set_envelopes(t, ["100", "50"], actor=actor)
        t.refresh_from_db()  # the envelopes are in its settings now
        bags.append((t, e))
    (first, fe), (second, _se) = bags
    seating.record_bust(first, [{"entry": fe[2].pk, "eliminators": [fe[0].pk]}], actor=actor)
    assert len(services.mystery_bag(first).left) == 1
    assert services.mystery_bag(second).left == [1, 2] and sel.bounty_money(second)["in_bag"] == D("150")
