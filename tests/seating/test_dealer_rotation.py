"""The dealers' rotation (issue #42), property-tested over random rosters and simulated 8-hour
days: every table in play has a dealer while there are enough, a dealer never deals the same
table twice in a row (unless every other dealer dealt it last too: a lone dealer), breaks come after two hours, a
dealer on a break stays on it, and CLK-05's held tables keep their dealer."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from seating.engine.dealers import BREAK, DEAL, POOL, DealerState, plan_push

PUSH, BREAK_AFTER, BREAK_MINUTES = 30, 120, 20
GRACE = PUSH  # a break may wait one push so that nobody deals the same table twice


@st.composite
def push_inputs(draw):
    tables = draw(st.lists(st.integers(1, 60), min_size=0, max_size=15, unique=True))
    n = draw(st.integers(0, 20))
    dealers = []
    for i in range(n):
        table = draw(st.one_of(st.none(), st.sampled_from(tables))) if tables else None
        last = table if table is not None else draw(st.one_of(st.none(), st.integers(1, 60)))
        dealers.append(DealerState(i + 1, table, last, draw(st.integers(0, 200)), draw(st.sampled_from([0, 0, 0, 5, 20]))))
    taken = [d.table for d in dealers if d.table is not None]
    if len(taken) != len(set(taken)):  # one dealer a table, as the room has it
        seen, fixed = set(), []
        for d in dealers:
            if d.table in seen:
                d = DealerState(d.id, None, d.last_table, d.dealt, d.break_left)
            seen.add(d.table)
            fixed.append(d)
        dealers = fixed
    held = draw(st.sets(st.sampled_from(tables))) if tables else set()
    return tables, dealers, held


@settings(max_examples=300, deadline=None, derandomize=True)
@given(push_inputs())
def test_one_push_keeps_every_rule(inputs):
    tables, dealers, held = inputs
    plan = plan_push(tables, dealers, break_after=BREAK_AFTER, held=held, grace=GRACE)
    by_dealer = {a.dealer: a for a in plan.assignments}
    assert sorted(by_dealer) == sorted(d.id for d in dealers) and len(plan.assignments) == len(dealers)  # each dealer once
    dealt = [a.table for a in plan.assignments if a.kind == DEAL]
    assert len(dealt) == len(set(dealt)) and set(dealt) <= set(tables)  # a table has one dealer at most
    resting = [d for d in dealers if d.break_left > 0]
    assert all(by_dealer[d.id].kind == BREAK for d in resting)  # a break is not cut short
    able = len(dealers) - len(resting)
    assert len(dealt) == min(len(tables), able)  # every table while there are dealers enough
    assert set(plan.uncovered) == set(tables) - set(dealt)
    for d in dealers:
        a = by_dealer[d.id]
        if d.table in held and d.break_left <= 0:
            assert (a.kind, a.table) == (DEAL, d.table)  # CLK-05: held
        elif a.kind == DEAL and a.table == d.last_table:
            # only when no other dealer could take it: every other one free to move dealt it last too
            # (a dealer due a break past its grace goes on it whatever the tables)
            others = [
                o
                for o in dealers
                if o.id != d.id and o.break_left <= 0 and o.table not in held and not (by_dealer[o.id].kind == BREAK and o.dealt >= BREAK_AFTER + GRACE)
            ]
            assert all(o.last_table == a.table for o in others), (d, a, others)
    for d in dealers:  # a dealer due a break gets it unless the tables need him
        a = by_dealer[d.id]
        if d.break_left <= 0 and d.dealt >= BREAK_AFTER and a.kind == POOL:
            raise AssertionError(f"{d} waits in the pool instead of his break")


def day(seed: int, *, spare: int):
    """An 8-hour evening: tables open and close as events start and break, dealers come and go
    (the roster), a push every 30 minutes. Returns each push's (tables, dealers able, plan)."""
    rng = random.Random(seed)
    tables = sorted(rng.sample(range(1, 40), rng.randrange(2, 12)))
    roster = {i: (rng.choice([0, 0, 30, 60]), 480 - rng.choice([0, 0, 60])) for i in range(1, len(tables) + spare + rng.randrange(0, 3) + 1)}
    state = {i: DealerState(i) for i in roster}
    pushes = []
    for minute in range(0, 480, PUSH):
        if rng.random() < 0.2 and len(tables) > 1:
            tables.remove(rng.choice(tables))  # a table broke
        elif rng.random() < 0.2:
            tables = sorted(set(tables) | {rng.randrange(1, 40)})  # a table opened
        on = [d for i, d in state.items() if roster[i][0] <= minute < roster[i][1]]
        plan = plan_push(tables, on, break_after=BREAK_AFTER, grace=GRACE)
        pushes.append((list(tables), on, plan))
        # the next 30 minutes
        for a in plan.assignments:
            d = state[a.dealer]
            if a.kind == DEAL:
                state[a.dealer] = DealerState(d.id, a.table, a.table, d.dealt + PUSH, 0)
            elif a.kind == BREAK:
                left = (d.break_left or BREAK_MINUTES) - PUSH
                state[a.dealer] = DealerState(d.id, None, d.last_table, 0, max(0, left))
            else:
                state[a.dealer] = DealerState(d.id, None, d.last_table, d.dealt, 0)
        for i, d in state.items():  # who left the roster is off
            if not roster[i][0] <= minute < roster[i][1]:
                state[i] = DealerState(d.id, None, d.last_table, d.dealt, 0)
    return pushes


def plan_kind(plan, dealer: int) -> str:
    return next(a.kind for a in plan.assignments if a.dealer == dealer)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.integers(0, 10**9), st.integers(1, 8))
def test_an_eight_hour_day_never_the_same_table_twice_and_a_break_every_two_hours(seed, spare):
    pushes = day(seed, spare=spare)
    longest: dict[int, int] = {}
    staffed = True  # a dealer spare for each few tables at every push so far
    for tables, on, plan in pushes:
        able = [d for d in on if d.break_left <= 0]
        staffed = staffed and len(able) - len(tables) >= 1 + len(tables) // 3
        by_table = plan.by_table()
        if len(able) >= len(tables):
            assert set(by_table) == set(tables)  # every table in play has a dealer after the push
        for d in on:
            table = plan.table_of(d.id)
            kind = next(a.kind for a in plan.assignments if a.dealer == d.id)
            if kind == DEAL and table == d.last_table:  # never the same table twice in a row, but for a lone dealer
                free = [o for o in able if o.id != d.id and not (plan_kind(plan, o.id) == BREAK and o.dealt >= BREAK_AFTER + GRACE)]
                assert all(o.last_table == table for o in free), (d, table)
            # minutes dealt since his last break (waiting in the pool is no break)
            longest[d.id] = longest.get(d.id, 0) + PUSH if kind == DEAL else 0 if kind == BREAK else longest.get(d.id, 0)
            # with a dealer spare for each few tables all day, nobody deals much past two hours without
            # a break: the breaks of dealers who came in together follow one another a push apart
            if staffed:
                assert longest[d.id] <= BREAK_AFTER + 3 * PUSH, (d, longest[d.id])


def test_a_push_moves_everybody_one_table_along():
    dealers = [DealerState(1, 11, 11, 30), DealerState(2, 12, 12, 30), DealerState(3, 13, 13, 30)]
    plan = plan_push([11, 12, 13], dealers, break_after=BREAK_AFTER)
    assert plan.by_table() == {12: 1, 13: 2, 11: 3}


def test_the_longest_dealing_dealer_goes_on_his_break_and_a_fresh_one_takes_a_table():
    dealers = [DealerState(1, 11, 11, 130), DealerState(2, 12, 12, 60), DealerState(3, None, 13, 0)]
    plan = plan_push([11, 12], dealers, break_after=BREAK_AFTER)
    kinds = {a.dealer: a.kind for a in plan.assignments}
    assert kinds == {1: BREAK, 2: DEAL, 3: DEAL}
    assert plan.table_of(2) == 11 and plan.table_of(3) == 12  # 2 one table along; 3 takes the other


def test_a_held_table_keeps_its_dealer_clk05():
    dealers = [DealerState(1, 11, 11, 30), DealerState(2, 12, 12, 30), DealerState(3, 13, 13, 30)]
    plan = plan_push([11, 12, 13], dealers, break_after=BREAK_AFTER, held={12})
    assert plan.by_table()[12] == 2 and plan.table_of(1) != 11 and plan.table_of(3) != 13


def test_a_dealer_with_a_minute_of_break_left_stays_on_it():
    dealers = [DealerState(1, 11, 11, 30), DealerState(2, None, 12, 0, 1), DealerState(3, None, 13, 0)]
    plan = plan_push([11, 12], dealers, break_after=BREAK_AFTER)
    assert sorted((a.dealer, a.kind) for a in plan.assignments) == [(1, DEAL), (2, BREAK), (3, DEAL)]


def test_of_two_dealers_due_a_break_with_one_spare_the_longer_dealing_goes():
    dealers = [DealerState(1, 11, 11, 130), DealerState(2, 12, 12, 150), DealerState(3, None, 13, 0)]
    plan = plan_push([11, 12], dealers, break_after=BREAK_AFTER)
    assert {a.dealer: a.kind for a in plan.assignments} == {1: DEAL, 2: BREAK, 3: DEAL}


def test_a_dealer_due_a_break_deals_one_push_more_rather_than_a_table_dealt_twice():
    # Table 11 only: dealer 1 dealt it last; dealer 2, due a break, dealt table 12 (now closed).
    dealers = [DealerState(1, 11, 11, 30), DealerState(2, 12, 12, 130)]
    plan = plan_push([11], dealers, break_after=BREAK_AFTER, grace=GRACE)
    assert plan.by_table() == {11: 2} and {a.dealer: a.kind for a in plan.assignments} == {1: POOL, 2: DEAL}
    # past the grace (two hours and a half dealt) his break waits no longer: 1 deals 11 again
    dealers = [DealerState(1, 11, 11, 30), DealerState(2, 12, 12, 150)]
    plan = plan_push([11], dealers, break_after=BREAK_AFTER, grace=GRACE)
    assert plan.by_table() == {11: 1} and {a.dealer: a.kind for a in plan.assignments} == {1: DEAL, 2: BREAK}
    # a stand-in who dealt that table last himself is no help: he goes on his break
    dealers = [DealerState(1, 11, 11, 30), DealerState(2, None, 11, 130)]
    plan = plan_push([11], dealers, break_after=BREAK_AFTER, grace=GRACE)
    assert plan.by_table() == {11: 1} and {a.dealer: a.kind for a in plan.assignments} == {1: DEAL, 2: BREAK}


def test_the_stand_in_takes_the_second_table_when_the_first_is_no_clash():
    # Dealers 1 and 3 both dealt table 12 last; 3 moves on to 11, 1 would deal 12 again: dealer 2,
    # due a break, takes 12 for one push more and 1 waits in the pool.
    dealers = [DealerState(1, 12, 12, 30), DealerState(2, 13, 13, 130), DealerState(3, None, 12, 0)]
    plan = plan_push([11, 12], dealers, break_after=BREAK_AFTER, grace=GRACE)
    assert plan.by_table() == {11: 3, 12: 2} and {a.dealer: a.kind for a in plan.assignments} == {1: POOL, 2: DEAL, 3: DEAL}
