"""Final-table deals (PAY-09): calculator, house policy, consent, approval."""

from decimal import Decimal

import pytest

from payouts import selectors as sel
from payouts import services
from payouts.models import Deal
from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.models import Entry
from tournaments.setup import lifecycle

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


def test_pay09_the_calculator_lays_out_each_player_his_share_of_the_chips_and_the_reserve(final_table):
    """Reserve 100: every player is sure of 400; the other 2,000 − 100 − 3 × 400 = 700 go
    50 / 30 / 20 % = 350 / 210 / 140: guarantees 750 / 610 / 540, and 1st plays for the 100 on
    top: 850 / 610 / 540 by finishing place."""
    t, players = final_table
    stacks = stacks_of(players, [500000, 300000, 200000])
    out = services.deal_options(t, stacks, reserve="100")
    assert out["players"] == [
        {"entry": e.pk, "name": e.person.full_name, "stack": stacks[str(e.pk)], "chip_share": share} for e, share in zip(players, ("50.00", "30.00", "20.00"))
    ]
    assert (out["prizes_left"], out["total"], out["reserve"]) == (["1000.00", "600.00", "400.00"], "2000.00", "100.00")
    assert out["methods"]["CHIP_CHOP"] == {"by_player": ["750.00", "610.00", "540.00"], "by_place": ["850.00", "610.00", "540.00"], "policy_problem": None}
    assert services.deal_options(t.pk, stacks, reserve="100") == out  # the event or its number


def test_pay09_a_reserve_the_chip_chop_cannot_keep_is_said_beside_the_methods_that_can(final_table):
    """Reserve 1,500: a chip chop first gives each the lowest prize (3 × 400 = 1,200) and 1,500
    more is beyond the 2,000; the even chop shares the other 500: 166.67 / 166.67 / 166.66 (the
    odd cents to the larger stacks), 1st playing for 1,500 on top."""
    t, players = final_table
    out = services.deal_options(t, stacks_of(players, [500000, 300000, 200000]), reserve="1500")
    assert out["methods"]["CHIP_CHOP"] == {
        "error": "reserve_too_large",
        "detail": "The reserve is more than the deal can share: keep it at most the 1st prize.",
    }
    assert out["methods"]["EVEN"]["by_player"] == ["166.67", "166.67", "166.66"]
    assert out["methods"]["EVEN"]["by_place"] == ["1666.67", "166.67", "166.66"]
    assert set(out["methods"]) == {"ICM", "CHIP_CHOP", "EVEN"}
    with pytest.raises(DomainError) as e:
        services.deal_options(t, stacks_of(players, [500000, 300000, 200000]), reserve="a lot")
    assert e.value.code == "bad_amount" and str(e.value.message) == "The reserve is not an amount of money."


def test_pay09_a_chip_and_a_chair_is_in_the_deal(final_table):
    """A player left with one chip still has a stack: the chip chop gives him the lowest prize
    left (400) and his one chip's share of the other 800, a cent's fraction that rounds away."""
    t, players = final_table
    in_play = sum(stacks_of(players, [1, 1, 1]).values())
    stacks = {str(players[0].pk): in_play - 200_001, str(players[1].pk): 200_000, str(players[2].pk): 1}
    out = services.deal_options(t, stacks)
    assert out["players"][2]["stack"] == 1 and out["methods"]["CHIP_CHOP"]["by_player"][2] == "400.00"


def test_pay09_heads_up_a_deal_is_allowed_and_alone_there_is_nothing_to_deal(final_table):
    t, players = final_table
    players[2].status, players[2].place = Entry.BUSTED, 3
    players[2].save()
    assert services.deal_options(t, stacks_of(players[:2], [2, 1]))["policy"] is None
    players[1].status, players[1].place = Entry.BUSTED, 2
    players[1].save()
    with pytest.raises(DomainError) as e:
        services.deal_options(t, stacks_of(players[:1], [1]))
    assert e.value.code == "too_few_players" and str(e.value.message) == "A deal needs at least two players in play."


def test_pay09_a_ticket_for_the_last_place_in_play_cannot_be_dealt(make_tournament, make_person, cashier_actor, actor):
    t = make_tournament(buy_in=D("100"), fee=D("10"))
    entries = [cashier.register(t, make_person(), method="CARD", actor=cashier_actor).entry for _ in range(20)]
    table = [{"place": 1, "amount": "1000"}, {"place": 2, "amount": "600"}, {"place": 3, "kind": "TICKET", "amount": "400", "description": "Main event"}]
    services.edit_payout_table(t, table, actor=actor)
    services.lock_payout_table(t, actor=actor)
    for place, e in zip(range(20, 3, -1), entries[3:]):
        e.status, e.place = Entry.BUSTED, place
        e.save()
    with pytest.raises(DomainError) as e:
        services.propose_deal(t, stacks_of(entries[:3], [5, 3, 2]), method=Deal.CHIP_CHOP, actor=actor)
    assert e.value.code == "deal_noncash_prize"
    assert not Deal.objects.filter(tournament=t).exists()


def test_pay09_no_deal_while_the_players_left_sit_at_two_tables(make_tournament, make_person, cashier_actor, actor):
    """A 6-max event whose final table is of 8: eight players start at two tables of four; they
    are few enough for the final table, but not at one table yet."""
    t = make_tournament(buy_in=D("100"), fee=D("0"), table_size=6, settings={"final_table_size": 8})
    players = [cashier.register(t, make_person(), method="CARD", actor=cashier_actor).entry for _ in range(8)]
    services.lock_payout_table(t, actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    said = "Deals are allowed only at the final table: the players left are not at one table yet (PAY-09)."
    assert services.deal_options(t, stacks_of(players, [1] * 8))["policy"] == said
    with pytest.raises(DomainError) as e:
        services.propose_deal(t, stacks_of(players, [8, 7, 6, 5, 4, 3, 2, 1]), method=Deal.CHIP_CHOP, actor=actor)
    assert (e.value.code, str(e.value.message)) == ("not_final_table", said)
    assert not Deal.objects.filter(tournament=t).exists()
