"""Final-table deals (PAY-09): calculator, house policy, consent, approval."""

from decimal import Decimal

import pytest

from payouts import selectors as sel
from payouts import services
from payouts.models import Deal
from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.models import Entry

from .deal_stacks import stacks_in_play

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def final_table(make_tournament, make_person, cashier_actor, actor):
    """20 entries × €100 = €2,000; table 1000/600/400 locked; 17 busted, 3 left."""
    t = make_tournament(buy_in=D("100"), fee=D("10"))
    entries = [cashier.register(t, make_person(), method="CARD", actor=cashier_actor).entry for _ in range(20)]
    services.edit_payout_table(t, [{"place": 1, "amount": "1000"}, {"place": 2, "amount": "600"}, {"place": 3, "amount": "400"}], actor=actor)
    services.lock_payout_table(t, actor=actor)
    for place, e in zip(range(20, 3, -1), entries[3:]):
        e.status, e.place = Entry.BUSTED, place
        e.save()
    return t, entries[:3]


def stacks_of(players, chips):
    return stacks_in_play(players, chips)


def test_the_calculator_shows_icm_chip_chop_and_even_side_by_side(final_table):
    t, players = final_table
    out = services.deal_options(t, stacks_of(players, [500000, 300000, 200000]))
    m = out["methods"]
    assert m["CHIP_CHOP"]["by_player"] == ["800.00", "640.00", "560.00"]  # 400 each + 1,200 by chips
    assert m["EVEN"]["by_player"] == ["666.67", "666.67", "666.66"]
    assert sum(D(a) for a in m["ICM"]["by_player"]) == D("2000.00")
    assert D(m["ICM"]["by_player"][0]) < D("800.00")  # ICM gives the leader less than chip chop
    assert m["CHIP_CHOP"]["policy_problem"] is None
    assert m["EVEN"]["policy_problem"]["code"] == "not_strictly_decreasing"  # «non paritaria»
    assert out["policy"] is None and out["prizes_left"] == ["1000.00", "600.00", "400.00"]


def three_left_before_a_final_table_of_two(make_tournament, make_person, cashier_actor, actor):
    """Ten players paid, the payout table locked, seven out (10th to 4th): three are left and the
    final table is of two."""
    t = make_tournament(buy_in=D("100"), fee=D("0"), settings={"final_table_size": 2})
    players = [cashier.register(t, make_person(), method="CARD", actor=cashier_actor).entry for _ in range(10)]
    services.lock_payout_table(t, actor=actor)
    for place, e in zip(range(10, 3, -1), players[3:]):
        e.status, e.place = Entry.BUSTED, place
        e.save()
    return t, players


def test_a_deal_is_refused_before_the_final_table(make_tournament, make_person, cashier_actor, actor):
    t, players = three_left_before_a_final_table_of_two(make_tournament, make_person, cashier_actor, actor)
    with pytest.raises(DomainError) as e:
        services.propose_deal(t, stacks_of(players[:3], [1, 2, 3]), method=Deal.CHIP_CHOP, actor=actor)
    assert e.value.code == "not_final_table"


def test_consent_of_every_player_then_approval_updates_the_payouts(final_table, actor):
    t, players = final_table
    deal = services.propose_deal(t, stacks_of(players, [500000, 300000, 200000]), method=Deal.CHIP_CHOP, actor=actor)
    assert deal.by_place == ["800.00", "640.00", "560.00"]
    services.accept_deal(deal, players[0], actor=actor)
    services.accept_deal(deal, players[1], actor=actor)
    with pytest.raises(DomainError) as e:
        services.approve_deal(deal, actor=actor)
    assert e.value.code == "consent_missing"
    services.accept_deal(deal, players[2], actor=actor)
    services.approve_deal(deal, actor=actor)
    assert [p["amount"] for p in sel.table_prizes(t)] == [D("800.00"), D("640.00"), D("560.00")]
    assert t.events.filter(action="payouts.deal.approved").count() == 1


def test_an_even_chop_breaks_the_house_policy(final_table, actor):
    t, players = final_table
    with pytest.raises(DomainError) as e:
        services.propose_deal(t, stacks_of(players, [1000, 1000, 1000]), method=Deal.EVEN, actor=actor)
    assert e.value.code == "not_strictly_decreasing" and "PAY-09" in str(e.value.message)


def test_a_reserve_is_left_to_play_for_on_first(final_table, actor):
    t, players = final_table
    deal = services.propose_deal(t, stacks_of(players, [500000, 300000, 200000]), method=Deal.CHIP_CHOP, actor=actor, reserve="100")
    assert deal.by_place == ["850.00", "610.00", "540.00"]  # guarantees 750/610/540, +100 for the winner
    assert sum(D(a) for a in deal.by_place) == D("2000.00")


def test_a_deal_is_void_when_a_player_busts_before_approval(final_table, actor):
    t, players = final_table
    deal = services.propose_deal(t, stacks_of(players, [500000, 300000, 200000]), method=Deal.ICM, actor=actor)
    for e in players:
        services.accept_deal(deal, e, actor=actor)
    players[2].status, players[2].place = Entry.BUSTED, 3
    players[2].save()
    with pytest.raises(DomainError) as e:
        services.approve_deal(deal, actor=actor)
    assert e.value.code == "players_changed"


def test_stacks_must_match_the_players_left(final_table, actor):
    t, players = final_table
    with pytest.raises(DomainError) as e:
        services.deal_options(t, stacks_of(players[:2], [1, 2]))
    assert e.value.code == "stacks_mismatch"


def test_pay09_a_consent_given_twice_and_an_approval_repeated_change_nothing(final_table, actor):
    t, players = final_table
    deal = services.propose_deal(t, stacks_of(players, [500000, 300000, 200000]), method=Deal.CHIP_CHOP, actor=actor)
    services.accept_deal(deal, players[0], actor=actor)
    with pytest.raises(DomainError) as e:
        services.accept_deal(deal, players[0], actor=actor)
    assert e.value.code == "already_accepted"
    assert deal.acceptances.count() == 1
    with pytest.raises(DomainError) as e:  # the first player's consent twice is not the others'
        services.approve_deal(deal, actor=actor)
    assert e.value.code == "consent_missing"
    services.accept_deal(deal, players[1], actor=actor)
    services.accept_deal(deal, players[2], actor=actor)
    services.approve_deal(deal, actor=actor)
    with pytest.raises(DomainError) as e:
        services.approve_deal(deal, actor=actor)
    assert e.value.code == "deal_closed"
    assert [p["amount"] for p in sel.table_prizes(t)] == [D("800.00"), D("640.00"), D("560.00")]
    assert t.events.filter(action="payouts.deal.accepted").count() == 3
    assert t.events.filter(action="payouts.deal.approved").count() == 1


def test_pay09_a_deal_refused_says_why_in_words_with_its_amounts(final_table, actor):
    t, players = final_table
    with pytest.raises(DomainError) as e:
        services.propose_deal(t, stacks_of(players, [5, 3, 2]), method=Deal.CUSTOM, by_place=["1000", "600", "300"], actor=actor)
    assert e.value.code == "wrong_total" and e.value.status == 400
    assert str(e.value.message) == "The deal must add up to the prizes left. The deal pays 1,900.00, but the prizes left are 2,000.00."
    with pytest.raises(DomainError) as e:
        services.propose_deal(t, stacks_of(players, [5, 3, 2]), method=Deal.CUSTOM, by_place=["700", "700", "600"], actor=actor)
    assert e.value.code == "not_strictly_decreasing"
    assert str(e.value.message) == (
        "House policy (PAY-09): the deal must pay every place strictly more than the next one. Place 2 (700.00) must be paid less than place 1 (700.00)."
    )


def test_pay09_stacks_that_cannot_be_a_deal_are_refused_in_words(final_table):
    t, players = final_table
    with pytest.raises(DomainError) as e:
        services.deal_options(t, stacks_of(players[:2], [1, 2]))
    assert e.value.code == "stacks_mismatch" and e.value.status == 400
    assert str(e.value.message) == "Enter one stack for each of the 3 players still in, and no one else."
    stacks = stacks_of(players, [5, 3, 2])
    stacks[str(players[1].pk)] = "many"
    with pytest.raises(DomainError) as e:
        services.deal_options(t, stacks)
    assert e.value.code == "bad_stack" and str(e.value.message) == "Stacks must be whole chip counts."
    stacks[str(players[1].pk)] = 0
    with pytest.raises(DomainError) as e:
        services.deal_options(t, stacks)
    assert e.value.code == "bad_stack" and str(e.value.message) == "Every player in a deal must have chips."


def test_pay09_the_calculator_before_the_final_table_says_how_many_are_left_and_how_many_it_seats(make_tournament, make_person, cashier_actor, actor):
    t, players = three_left_before_a_final_table_of_two(make_tournament, make_person, cashier_actor, actor)
    out = services.deal_options(t, stacks_of(players[:3], [1, 2, 3]))
    assert out["policy"] == "Deals are allowed only at the final table: 3 players are left, the final table is 2 (PAY-09)."
    assert out["final_table_size"] == 2 and out["streaming_live"] is False
    with pytest.raises(DomainError) as e:
        services.propose_deal(t, stacks_of(players[:3], [1, 2, 3]), method=Deal.CHIP_CHOP, actor=actor)
    assert e.value.code == "not_final_table" and str(e.value.message) == out["policy"]
