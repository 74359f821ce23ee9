"""TD3's points formulas: the language as its cheat sheet defines it (operators and their order,
statements, every function, every variable and alias), its bounds and refusals with their
place, and the variables of a player of an event read from a save file."""

import random
from decimal import Decimal

import pytest

from tests.tournaments import td3_files as files
from tests.tournaments.td3_files import ANNA, BRUNO, CARLA, DARIO, ELENA, NO_SHARED, SHARED, has_shared
from tournaments.imports.td3 import formula, model, reader
from tournaments.imports.td3.formula import FUNCTIONS, VARIABLES, FormulaError, compile_formula, points, variables_for


@pytest.mark.parametrize(
    "text, value",
    [
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("10 - 4 - 3", 3),
        ("48 / 4 / 2", 6),
        ("2 * 7 % 4", 2),
        ("-7 % 3", -1),  # JavaScript's remainder: the dividend's sign
        ("- 3 * 2", -6),
        ("--3", 3),
        ("1 + 2 < 4", 1),
        ("5 - 2 >= 3 + 1", 0),
        ("1 < 2 = 1", 1),
        ("2 = 2 and 3 != 3", 0),
        ("0 and 1 or 1", 1),
        ("1 or 0 and 0", 1),
        ("1 || 0 && 0", 1),
        ("not 1 = 0", 1),
        ("!0 + 1", 2),
        ("3 is 3", 1),
        ("2 == 2", 1),
        ("10 <= 10 and 10 >= 10 and 10 < 20 and 20 > 10", 1),
        (".5 + 1.", 1.5),
    ],
)
def test_operators_and_their_precedence(text, value):
    assert points(text, {}) == Decimal(str(value))


def test_statements_end_with_a_semicolon_or_a_line_and_the_last_one_is_the_value():
    assert points('assign("a", 6); assign("b", 3); a * b', {}) == 18
    assert points('assign("a", 6)\nassign("b", 3)\na * b', {}) == 18
    assert points('(assign("a", 6); assign("b", 3); a * b)', {}) == 18
    assert points("1 +\n 2", {}) == 3  # a line ending with an operator goes on
    assert points('if(1,\n  assign("x", 4),\n  0)\nx', {}) == 4  # inside parentheses a line break is a space
    assert points("1\n-2", {}) == -2  # two statements: the last is the value
    assert points("  \n", {}) == 0  # no formula, no points


def test_the_manuals_multi_statement_example():
    text = (
        'assign("v", n + nr)\n'
        'assign("percent", switch(r, 1, .3, 2, .2, 3, .12, 4, .1, 5, .08, 6, .06, 7, .04, 8, .03, 9, .025, 10, .02, 11, .015, 12, .01, 0))\n'
        'assign("hits", switch(nh, 1, 20, 2, 50, 3, 90, 4, 125, 5, 160, 6, 200, 7, 250, 0))\n'
        'assign("points", 0)\n'
        'if((v >= 10) && (v <= 12), assign("points", (v * 100 * percent) + if(r < 4, v, 0)))\n'
        "points + hits"
    )
    assert points(text, {"n": 10, "nr": 1, "r": 2, "nh": 3}) == 11 * 100 * Decimal(".2") + 11 + 90
    assert points(text, {"n": 20, "nr": 0, "r": 2, "nh": 0}) == 0


@pytest.mark.parametrize(
    "text, value",
    [
        ("abs(-3)", 3),
        ("acos(.1)", 1.4706289056333368),
        ("asin(.1)", 0.1001674211615598),
        ("atan(.1)", 0.09966865249116204),
        ("ceil(2.2) + ceil(2)", 5),
        ("cos(1)", 0.5403023058681398),
        ("exp(1)", 2.718281828459045),
        ("floor(2.7) + floor(2)", 4),
        ("log(2)", 0.6931471805599453),
        ("log(8, 2)", 3),
        ("ln(2)", 0.6931471805599453),
        ("log10(1000)", 3),
        ("max(2, 5)", 5),
        ("min(2, 5)", 2),
        ("pow(2, 5)", 32),
        ("power(5, 2)", 25),
        ("round(2.2) + round(2.7)", 5),
        ("round(2.5)", 3),
        ("round(-2.5)", -2),  # JavaScript's Math.round: halves up
        ("round(1.55, 1)", 1.6),
        ("round(1.55555, 3)", 1.556),
        ("roundUpToNearest(371, 25) + roundUpToNearest(371, 50) + roundUpToNearest(371, 100)", 375 + 400 + 400),
        ("roundToNearest(371, 25) + roundToNearest(371, 50) + roundToNearest(371, 100)", 375 + 350 + 400),
        ("roundDownToNearest(371, 25) + roundDownToNearest(371, 50) + roundDownToNearest(371, 100)", 350 + 350 + 300),
        ("sin(1)", 0.8414709848078965),
        ("sqrt(16)", 4),
        ("tan(1)", 1.5574077246549023),
        ("if(2 < 3, 10, 0)", 10),
        ("if(0, 10)", 0),
        ("switch(3, 1, 10, 2, 20, 3, 30, 4, 40)", 30),
        ("switch(6, 1, 10, 2, 20, 3, 30, 4, 40)", 0),
        ("switch(6, 1, 10, 2, 20, 3, 30, 4, 40, -1)", -1),
        ("lswitch(1, 10, 20, 30, 40)", 10),
        ("lswitch(4, 10, 20, 30, 40)", 40),
        ("lswitch(10, 10, 20, 30, 40)", 40),
        ('assign("a", 6) + a', 12),
        ("sum(1, 2, 3, 4, 5, 6)", 21),
        ("product(1, 2, 3, 4, 5, 6)", 720),
        ("average(1, 2, 3, 4, 5, 6)", 3.5),
        ("count(1, 2, 3, 4, 5, 6)", 6),
        ("sum(top(5, 1, 2, 3, 4, 5, 6))", 20),
        ("count(top(5, 1, 2, 3, 4, 5, 6))", 5),
        ("index(top(5, 6, 1, 5, 2, 4, 3), 0)", 6),  # the chosen values in the order given
        ("sum(bottom(5, 1, 2, 3, 4, 5, 6))", 15),
        ("oneof(4, 2, 4, 12, 24)", 1),
        ("oneof(5, 2, 4, 12, 24)", 0),
        ("index(top(5, 5, 10, 15, 20, 25), 3)", 20),
        ("index(top(3, 5, 10, 15), 7)", 0),
        ("triangle(1) + triangle(2) + triangle(3) + triangle(6)", 1 + 3 + 6 + 21),
        ("count(setListLength(top(3, 5, 10, 15), 0))", 0),
        ("sum(setListLength(top(3, 5, 10, 15), 2))", 15),
        ("count(setListLength(top(3, 5, 10, 15), 5)) + index(setListLength(top(3, 5, 10, 15), 5), 4)", 5),
        ("IF(1, 2, 3) + Round(2.4) + SQRT(4)", 6),  # any case, as saved leagues write them
    ],
)
def test_each_function_of_the_cheat_sheet(text, value):
    assert float(points(text, {})) == pytest.approx(value, rel=1e-12)


def test_random_is_between_zero_and_one():
    assert 0 <= points("random()", {}, rng=random.Random(7)) < 1


def test_every_function_of_the_cheat_sheet_is_there():
    documented = (
        "abs acos asin atan ceil cos exp floor log ln log10 max min pow power random round roundUpToNearest roundToNearest "
        "roundDownToNearest sin sqrt tan if switch lswitch assign sum product average count top bottom oneof index triangle "
        "setListLength totalForRake buyinProfileFee buyinProfileRake buyinProfileChips buyinProfilePoints rebuyProfileFee "
        "rebuyProfileRake rebuyProfileChips rebuyProfilePoints addOnProfileFee addOnProfileRake addOnProfileChips addOnProfilePoints"
    ).split()
    assert {name.lower() for name in documented} == set(FUNCTIONS)


def test_every_alias_reads_its_variable():
    pairs = [(alias, name) for name, aliases in VARIABLES.items() for alias in aliases]
    assert len(pairs) == 38
    for alias, name in pairs:
        assert points(alias, {name: 7}) == 7, alias
        assert points(name, {alias.upper(): 8}) == 8, alias
        assert points(f'assign("{alias}", 9); {name}', {}) == 9, alias


def test_the_cheat_sheets_aliases():
    aliases = {alias.lower(): name for name, found in VARIABLES.items() for alias in found}
    assert aliases == {
        "numberofplayers": "buyins",
        "n": "buyins",
        "mr": "inTheMoneyRank",
        "nm": "numberOfLeagueMembers",
        "players": "playersLeft",
        "prizepool": "pot",
        "pp": "pot",
        "tables": "tablesLeft",
        "totalnumberofaddons": "totalAddOns",
        "tna": "totalAddOns",
        "totalnumberofrebuys": "totalRebuys",
        "tnr": "totalRebuys",
        "ac": "addOnCost",
        "ar": "addOnRake",
        "bcc": "bountyChipCost",
        "bmk": "bountyMoneyKept",
        "bw": "bountyWinnings",
        "bc": "buyinCost",
        "br": "buyinRake",
        "m": "inTheMoney",
        "placed": "inTheMoney",
        "addons": "numberOfAddOns",
        "na": "numberOfAddOns",
        "nbk": "numberOfBountiesKept",
        "nb": "numberOfBountiesWon",
        "nbc": "numberOfBountyChips",
        "nh": "numberOfHits",
        "rebuys": "numberOfRebuys",
        "nr": "numberOfRebuys",
        "pw": "prizeWinnings",
        "r": "rank",
        "rc": "rebuyCost",
        "rr": "rebuyRake",
        "ro": "roundOut",
        "t": "take",
        "tc": "totalCost",
        "tr": "totalRake",
        "tw": "totalWinnings",
    }
    assert len(VARIABLES) == 140


def test_a_variable_not_given_counts_zero_as_in_tds_test_dialog():
    assert points("clockPaused + secondsLeft + nextLimit8", {}) == 0


def test_text_compares_as_text():
    assert points('stateDesc = "after"', {"stateDesc": "after"}) == 1
    assert points("stateDesc is 'before'", {"stateDesc": "after"}) == 0


@pytest.mark.parametrize(
    "text, position, words",
    [
        ("r + 1\n  + bogus", (2, 5), "Unknown name “bogus”"),
        ("n * nonsense(2)", (1, 5), "Unknown function “nonsense”"),
        ("1 + n(2)", (1, 5), "is a variable"),
        ("sqrt + 1", (1, 1), "is a function"),
        ("1 + ", (1, 5), "the formula ends"),
        ("(1 + 2", (1, 7), "Expected “)”"),
        ("1 2", (1, 3), "Expected an operator"),
        ("2 $ 3", (1, 3), "Unexpected “$”"),
        ('assign("a, 1)', (1, 8), "not closed"),
        ("assign(a, 1)", (1, 8), "in quotation marks"),
        ("if(1)", (1, 1), "takes 2 to 3 arguments"),
        ("pow(2)", (1, 1), "takes 2 arguments"),
        ('x + 1\nassign("x", 2)', (1, 1), "read before the formula assigns it"),
        ("1 + 'text'", (1, 3), "A number is needed"),
        ("1 / 0", (1, 1), "gives no number"),
        ("sqrt(-1)", (1, 1), "gives no number"),
        ('buyinProfileFee("Nobody")', (1, 17), "No profile is named"),
        ('totalForRake("Rake 9")', (1, 14), "No rake is named"),
    ],
)
def test_a_refusal_names_its_line_and_column(text, position, words):
    with pytest.raises(FormulaError) as refused:
        points(text, {})
    assert words in refused.value.message
    assert refused.value.position == position and f"line {position[0]}, column {position[1]}" in str(refused.value)


def test_the_budgets_refuse_what_exceeds_them():
    # A step is a value computed: 40 numbers and their sum are 41.
    with pytest.raises(FormulaError, match="more than 40 steps"):
        points(" + ".join(["1"] * 40), {}, max_steps=40)
    assert points(" + ".join(["1"] * 40), {}, max_steps=41) == 40
    with pytest.raises(FormulaError, match="longer than"):
        compile_formula("1" + " + 1" * formula.MAX_LENGTH)
    with pytest.raises(FormulaError, match="deeper than 60") as deep:
        points("(" * 61 + "1" + ")" * 61, {})
    assert deep.value.position == (1, 61)
    assert points("(" * 60 + "1" + ")" * 60, {}) == 1
    with pytest.raises(FormulaError, match="deeper than 60"):
        points("-" * 61 + "1", {})
    with pytest.raises(FormulaError, match="list longer"):
        points("count(setListLength(top(1, 1), 1000000000))", {})
    # A long sum is no deep nesting: read and evaluated in a loop.
    assert points(" + ".join(["1"] * 5000), {}) == 5000
    assert points("pow(10, 400) > 1", {}) == 1  # an overflow is infinite, as in JavaScript


# --- the variables of an event's player


@pytest.fixture
def night() -> model.Event:
    return model.event_of(reader.load(files.club_night()))


def test_the_variables_of_a_player_of_an_event(night):
    elena = variables_for(night, night.player(ELENA))
    assert set(VARIABLES) <= set(elena)
    assert (elena["buyins"], elena["rank"], elena["position"], elena["playersLeft"], elena["inTheMoneyRank"]) == (5, 5, 1, 1, 4)
    assert (elena["buyinCost"], elena["buyinRake"], elena["numberOfRebuys"], elena["roundOut"], elena["numberOfHits"]) == (220, 20, 0, 4, 0)
    assert (elena["totalBuyinsAmount"], elena["totalRebuys"], elena["totalRebuysAmount"], elena["totalAddOns"], elena["totalAddOnsAmount"]) == (
        620,
        1,
        100,
        1,
        50,
    )
    # Collected 620 + 100 + 50, raked 10 on each of the six buy-ins and the rebuy.
    assert (elena["pot"], elena["totalBuyinsRake"], elena["totalRebuysRake"], elena["state"], elena["stateDesc"]) == (700, 60, 10, 3, "after")
    assert (elena["inTheMoney"], elena["prizeWinnings"], elena["totalCost"], elena["take"]) == (0, 0, 220, -220)
    assert (elena["level"], elena["roundNum"], elena["breakNum"], elena["bigBlind"], elena["isRound"], elena["nextIsRound"]) == (5, 4, 1, 400, 1, 0)
    assert (elena["defaultBuyinFee"], elena["defaultRebuyChips"], elena["defaultAddOnFee"], elena["firstAnteRound"], elena["firstAnteAmount"]) == (
        100,
        10000,
        50,
        3,
        25,
    )
    assert (elena["inLeague"], elena["numberOfLeagueMembers"], elena["playingTime"]) == (1, 5, 5 * 60 + 60 * 60)
    bruno = variables_for(night, night.player(BRUNO))
    assert (bruno["numberOfRebuys"], bruno["rebuyCost"], bruno["numberOfHits"], bruno["prizeWinnings"], bruno["take"]) == (1, 100, 1.5, 200, 0)
    anna = variables_for(night, night.player(ANNA))
    assert (anna["numberOfAddOns"], anna["addOnCost"], anna["chipStack"], anna["playersAtSameTable"], anna["finalTable"]) == (1, 50, 10000, 1, 1)
    assert variables_for(night, night.player(CARLA))["prizeWinnings"] == 80


def test_the_profile_and_rake_functions_read_the_events_profiles(night):
    values = variables_for(night, night.player(ANNA))
    assert points("buyinProfileFee()", values) == 100
    assert points('buyinProfileFee("Late") + buyinProfileChips("late")', values) == 120 + 12000
    assert points('buyinProfileRake("Late") + rebuyProfileFee() + addOnProfileChips("Add-on") + addOnProfilePoints()', values) == 10 + 100 + 5000
    assert points("totalForRake()", values) == 70


def test_the_events_formula_gives_each_player_points(night):
    # n - r + 1, plus the hits (times ten for the winner): Elena's shared bust gives Anna and Bruno half a hit each.
    scores = {player.uuid: points(night.points_formula, variables_for(night, player)) for player in night.entrants()}
    assert scores == {ANNA: 5 + 25, BRUNO: 4 + Decimal("1.5"), CARLA: 3 + 1, DARIO: 3 + 1, ELENA: 1}


def test_the_formula_is_read_once_for_all_the_players(night):
    values = variables_for(night, night.player(ANNA))
    points(night.points_formula, values)
    before = formula._compiled.cache_info().hits
    points(night.points_formula, variables_for(night, night.player(BRUNO)))
    assert formula._compiled.cache_info().hits == before + 1


@pytest.mark.skipif(not has_shared(), reason=NO_SHARED)
def test_each_real_events_formula_evaluates_for_each_player():
    """The files keep no points per player (only prize points, all 0 here): each formula must
    evaluate to whole points (the league's rounds them), the winner's above the last's. A free
    event's are below zero for some (log(0.25) in the formula), as TD3 computes them too."""
    evaluated = 0
    for path in sorted((SHARED / "orf").glob("*.tdt")):
        event = model.event_of(reader.load(path.read_bytes()))
        for player in event.entrants():
            value = points(event.points_formula, variables_for(event, player))
            assert value == value.to_integral_value(), (path.name, player.name)
            evaluated += 1
        if event.state == model.FINISHED:
            winner = next(p for p in event.entrants() if event.places()[p.uuid] == 1)
            last = next(p for p in event.entrants() if event.places()[p.uuid] == len(event.entrants()))
            assert points(event.points_formula, variables_for(event, winner)) > points(event.points_formula, variables_for(event, last))
    assert evaluated > 1000
