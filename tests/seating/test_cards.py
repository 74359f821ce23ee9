"""The playing cards of the draws (SEAT-04, SEAT-08): a card as the floor types it, as the log
prints it, and the order of the cards the players drew at a broken table."""

import random

import pytest

from seating import engine
from seating.engine.breaking import draw_break


def test_the_floor_types_a_card_in_any_of_the_usual_ways():
    assert engine.parse_card("A♠") == (14, 3)
    assert engine.parse_card("as") == (14, 3)
    assert engine.parse_card(" 10 h ") == (10, 2)
    assert engine.parse_card("Td") == (10, 1)
    assert engine.parse_card("KC") == (13, 0)
    assert engine.parse_card("j♦") == (11, 1)
    assert engine.parse_card("2♣") == (2, 0)
    assert engine.parse_card("9♥") == (9, 2)
    # Italian suit letters: Picche, Quadri, Fiori (C stays clubs)
    assert engine.parse_card("7P") == (7, 3)
    assert engine.parse_card("QQ") == (12, 1)
    assert engine.parse_card("3f") == (3, 0)


def test_a_card_the_floor_mistyped_is_not_taken():
    for typed in ("", "A", "1s", "11h", "AX", "ZZ", "♠A", "10"):
        assert engine.parse_card(typed) is None, typed


def test_the_log_prints_each_card_with_its_rank_and_suit():
    assert [engine.card_label(c) for c in [(14, 3), (13, 2), (12, 1), (11, 0), (10, 3), (2, 2)]] == ["A♠", "K♥", "Q♦", "J♣", "10♠", "2♥"]


def test_the_players_at_a_broken_table_rank_by_card_highest_first_spades_over_hearts():
    ranked = engine.rank_by_cards({"ann": (14, 0), "bob": (14, 3), "cid": (2, 2), "dan": (14, 2), "eve": (13, 3)})
    assert ranked == [("bob", "A♠"), ("dan", "A♥"), ("ann", "A♣"), ("eve", "K♠"), ("cid", "2♥")]


def test_two_players_cannot_hold_the_same_card():
    with pytest.raises(engine.SeatingError) as refused:
        engine.rank_by_cards({"ann": (14, 3), "bob": (14, 3)})
    assert refused.value.code == "card_twice"


def test_a_break_draw_deals_one_card_a_player_and_ranks_them_highest_first():
    tables = [engine.Table(1, 9, {1: 1, 2: 2, 3: 3}, 1, 2), engine.Table(2, 9, {s: 20 + s for s in range(1, 7)}, 1, 2)]
    for seed in range(20):
        draw = draw_break(tables, 1, random.Random(seed))
        cards = [engine.parse_card(c) for _, c in draw.card_order]
        assert sorted(p for p, _ in draw.card_order) == [1, 2, 3]
        assert len(set(cards)) == 3 and cards == sorted(cards, reverse=True), seed


def test_one_deck_deals_a_card_to_52_players_and_refuses_a_53rd():
    def tables(players):
        return [engine.Table(1, 60, {s: s for s in range(1, players + 1)}, 1, 2), engine.Table(2, 60, {1: 999}, 1, 1)]

    draw = draw_break(tables(52), 1, random.Random(1))
    assert len(draw.card_order) == 52 and len({c for _, c in draw.card_order}) == 52
    with pytest.raises(engine.SeatingError) as refused:
        draw_break(tables(53), 1, random.Random(1))
    assert refused.value.code == "too_many_players"
