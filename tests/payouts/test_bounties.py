"""Bounty arithmetic (issue "Bounties and leagues"): fixed, progressive (PKO) and mystery.

Every expected amount below is worked out by hand in the comments, not by the engine.
"""

import ast
from decimal import Decimal as D
from pathlib import Path

import pytest

from payouts.bounties import (
    FIXED,
    LEFTOVER_CARRY_OVER,
    LEFTOVER_TO_WINNER,
    PKO,
    REMAINDER_HOUSE,
    SPLIT_POT,
    BountyBoard,
    BountyError,
    Eliminator,
    MysteryBag,
    bounty_money,
    knockout,
    mystery_knockout,
    mystery_leftover,
    share,
)
from tests import pyast

ROOT = Path(__file__).resolve().parents[2]


def test_the_engines_import_only_the_standard_library_and_other_engines():
    """Engines are pure Python: bounties and league import no Django, no model, no service."""
    allowed = {"__future__", "dataclasses", "decimal", "math", "random", "tdmanager.money", "payouts.leaderboard"}
    for name in ("bounties", "league"):
        tree = pyast.parse((ROOT / "payouts" / f"{name}.py").read_text())
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert imported <= allowed, (name, imported - allowed)


def test_a_nine_player_pko_with_two_re_entries_is_paid_to_the_cent():
    """9 players A–I, €50 bounty each, B and C re-enter: 11 entries, €550 of bounty money.
    50 % of each knocked-out bounty in cash, the rest onto the eliminator's head."""
    board = BountyBoard(PKO)
    for name in "ABCDEFGHI":
        board.enter(name + "1", "50")
    board.knock_out("B1", ["A1"])  # A: cash 25, head 75
    board.enter("B2", "50")
    board.knock_out("C1", ["A1"])  # A: cash 50, head 100
    board.enter("C2", "50")
    board.knock_out("D1", ["B2"])  # B2: cash 25, head 75
    board.knock_out("A1", ["E1"])  # A's 100: E cash 50, head 100
    split = board.knock_out("F1", ["G1", "H1"])  # F's 50 split: 25 each → 12.50 cash + 12.50 head
    assert [(a.player, a.cash, a.added) for a in split.awards] == [("G1", D("12.50"), D("12.50")), ("H1", D("12.50"), D("12.50"))]
    board.knock_out("E1", ["C2"])  # E's 100: C2 cash 50, head 100
    board.knock_out("I1", ["G1"])  # I's 50: G cash 37.50, head 87.50
    board.knock_out("H1", ["B2"])  # H's 62.50: B2 cash 56.25, head 106.25
    board.knock_out("G1", ["C2"])  # G's 87.50: C2 cash 93.75, head 143.75
    last = board.knock_out("B2", ["C2"])  # B2's 106.25: 53.125 → cash 53.12 (down to the cent), head +53.13
    assert (last.awards[0].cash, last.awards[0].added) == (D("53.12"), D("53.13"))
    assert board.heads == {"C2": D("196.88")}
    assert board.finish("C2") == D("196.88")  # the winner wins his own bounty
    assert board.cash_paid == {
        "A1": D("50.00"),
        "B2": D("56.25"),
        "E1": D("50.00"),
        "G1": D("37.50"),
        "H1": D("12.50"),
        "C2": D("343.75"),
    }
    assert board.taken_in == D("550") == bounty_money("50", 11)
    assert sum(board.cash_paid.values()) == D("550.00")
    assert board.balances()


def test_a_fixed_knockout_pays_the_whole_bounty_and_the_winner_keeps_his_own():
    board = BountyBoard(FIXED)
    for name in "ABC":
        board.enter(name, "20")
    ko = board.knock_out("A", ["B"])
    assert [(a.player, a.cash, a.added) for a in ko.awards] == [("B", D("20"), D("0"))]
    board.knock_out("C", ["B"])
    assert board.heads == {"B": D("20")}  # a fixed bounty does not grow
    assert board.finish("B") == D("20")
    assert board.cash_paid == {"B": D("60")}
    assert board.balances()


def test_split_by_pot_share_rounds_each_share_down_to_the_unit():
    """€25 shared 2:1 with a €1 unit: 16.67 → 16, 8.33 → 8; the €1 left goes to the first
    eliminator listed, or stays with the house."""
    people = [Eliminator("X", D(2000)), Eliminator("Y", D(1000))]
    assert share("25", people, split=SPLIT_POT, unit=D(1)) == ([D("17"), D("8")], D("0"))
    assert share("25", people, split=SPLIT_POT, unit=D(1), remainder=REMAINDER_HOUSE) == ([D("16"), D("8")], D("1"))


def test_a_pko_split_three_ways_with_a_one_euro_unit_keeps_every_cent():
    """€75 bounty, three eliminators: €25 each; 50 % cash is 12.50 → €12 paid, €13 onto each head."""
    ko = knockout(PKO, "75", [Eliminator(p) for p in "XYZ"], unit=D(1))
    assert [(a.cash, a.added) for a in ko.awards] == [(D("12"), D("13"))] * 3
    assert ko.total == D("75")


def test_a_pko_cash_share_is_a_house_setting():
    ko = knockout(PKO, "40", [Eliminator("X")], cash_percent=D(25))
    assert (ko.awards[0].cash, ko.awards[0].added) == (D("10.00"), D("30.00"))


def test_a_split_board_with_a_house_remainder_still_balances():
    board = BountyBoard(PKO, split=SPLIT_POT, unit=D(1), remainder=REMAINDER_HOUSE)
    for name in "ABCD":
        board.enter(name, "50")
    # A's 50 shared 1:2 → 16 and 33 (16.67, 33.33 down to €1), €1 to the house;
    # B gets 8 cash + 8 on his head, C 16 cash + 17 on his head.
    ko = board.knock_out("A", [Eliminator("B", D(1)), Eliminator("C", D(2))])
    assert ko.house == D("1")
    assert [(a.cash, a.added) for a in ko.awards] == [(D("8"), D("8")), (D("16"), D("17"))]
    assert board.heads == {"B": D("58"), "C": D("67"), "D": D("50")}
    assert board.balances()


@pytest.mark.parametrize(
    "call, code",
    [
        (lambda b: b.knock_out("A", ["A"]), "self_knockout"),
        (lambda b: b.knock_out("A", ["Z"]), "eliminator_not_in_play"),
        (lambda b: b.knock_out("Z", ["A"]), "not_in_play"),
        (lambda b: b.knock_out("A", []), "no_eliminator"),
        (lambda b: b.enter("A", "10"), "already_entered"),
        (lambda b: b.finish("A"), "not_finished"),
    ],
)
def test_a_knockout_the_rules_refuse_names_why(call, code):
    board = BountyBoard(PKO)
    board.enter("A", "10")
    board.enter("B", "10")
    with pytest.raises(BountyError) as err:
        call(board)
    assert err.value.code == code


def test_a_knockout_refuses_amounts_it_cannot_pay():
    with pytest.raises(BountyError):
        knockout(PKO, "10.001", [Eliminator("X")])
    with pytest.raises(BountyError):
        knockout(PKO, "10", [Eliminator("X")], cash_percent=D(101))
    with pytest.raises(BountyError):
        share(1.5, [Eliminator("X")])


ENVELOPES = ["500", "200", "100", "100", "50", "50", "50", "25", "25", "25"]


def test_a_mystery_draw_is_reproducible_from_its_seed():
    first = MysteryBag(ENVELOPES).draw(seed=12345)
    again = MysteryBag(ENVELOPES).draw(seed=12345)
    assert (first.envelope, first.amount) == (again.envelope, again.amount)
    assert first.amount == D(ENVELOPES[first.envelope - 1])


def test_every_envelope_is_drawn_exactly_once():
    bag = MysteryBag(ENVELOPES)
    drawn = [bag.draw(seed) for seed in range(len(ENVELOPES))]
    assert sorted(d.envelope for d in drawn) == list(range(1, 11))
    assert sum(d.amount for d in drawn) == D("1125")
    with pytest.raises(BountyError) as err:
        bag.draw(seed=99)
    assert err.value.code == "bag_empty"


def test_mystery_draws_are_fair_chi_squared():
    """Over 10,000 seeded first draws from 10 envelopes each should come up about 1,000
    times; χ² with 9 degrees of freedom stays under 27.88 (p = 0.001)."""
    counts = [0] * 10
    for seed in range(10_000):
        counts[MysteryBag(ENVELOPES).draw(seed).envelope - 1] += 1
    chi2 = sum((c - 1000) ** 2 / 1000 for c in counts)
    assert chi2 < 27.88, counts
    # and later draws too: the third envelope drawn, from the eight left
    thirds = [0] * 10
    for seed in range(10_000):
        bag = MysteryBag(ENVELOPES)
        bag.draw(seed)
        bag.draw(seed + 1_000_000)
        thirds[bag.draw(seed + 2_000_000).envelope - 1] += 1
    chi2 = sum((c - 1000) ** 2 / 1000 for c in thirds)
    assert chi2 < 27.88, thirds


def test_a_mystery_knockout_pays_only_from_the_paying_stage():
    bag = MysteryBag(["100", "40"])
    before = mystery_knockout(bag, ["X"], seed=1, paying=False)
    assert [(a.player, a.cash, a.envelope) for a in before.awards] == [("X", D("0"), None)]
    assert bag.left == [1, 2]  # nothing drawn before the stage
    during = mystery_knockout(bag, ["X", "Y"], seed=1, paying=True)
    amount = D(["100", "40"][during.awards[0].envelope - 1])
    assert sum(a.cash for a in during.awards) == amount  # one envelope, shared equally
    assert during.awards[0].cash == during.awards[1].cash == amount / 2


def test_envelopes_left_at_the_end_go_as_the_house_says():
    bag = MysteryBag(["100", "40", "10"])
    drawn = bag.draw(seed=7)
    left = D("150") - drawn.amount
    assert mystery_leftover(MysteryBag(["100", "40", "10"], drawn=[drawn.envelope]), "W", LEFTOVER_TO_WINNER) == (left, D(0))
    assert mystery_leftover(MysteryBag(["100", "40", "10"], drawn=[drawn.envelope]), "W", LEFTOVER_CARRY_OVER) == (D(0), left)


def test_a_bag_refuses_envelopes_that_are_not_money():
    for bad in ([], ["0"], ["-5"], ["1.001"]):
        with pytest.raises(BountyError):
            MysteryBag(bad)
