"""Play a whole tournament through the seating engine alone and time it.

    python benchmarks/seating_engine.py --entries 10000 [--capacity 9|10] [--seed 1]

Random initial draw, then random busts one at a time. After every bust: the final table if
it is due, else a break if one is due (then a balance check), else a balancing plan. The
hand is completed at the bust table and at one other random table, so the blinds move on
and the movers and seats the engine picks change from bust to bust. After every step it
checks that no two tables differ by more than one player, that the tables a move touched
hold exactly the players the move slips say, and that every other table is the very same
object as before (so no player is lost or duplicated); every 500 busts it counts everyone.

Prints the moves made, tables broken, total seconds (wall and CPU) and the part of them spent in
the engine (the initial draw plus every timed step), per-bust engine time
(median, p95) and the ratio to a baseline measured in the same run: a bare copy of the seat
map (``{table: dict(seats)}``), sampled every 50 busts. The ratio is the figure to compare
between machines; a calibration line (``sum(range(1000))``) shows how fast this one is.
No Django needed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import timeit
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from seating.engine import (  # noqa: E402
    Table,
    advance_hand,
    apply_moves,
    draw_seats,
    final_table_due,
    final_table_size,
    plan_balance,
    plan_break,
    plan_final_table,
    table_to_break,
)

FULL_CHECK_EVERY = 500
BASELINE_EVERY = 50  # the baseline copies everyone; sampling keeps the run short
OTHER_TABLES_ADVANCED = 1  # hands completed elsewhere between two busts


class Tournament:
    """The room as the benchmark sees it: tables by number, where each player sits, and
    the player count of every table kept by hand (to check the engine against)."""

    def __init__(self, entries: int, capacity: int, rng: random.Random):
        players = [f"P{i:05d}" for i in range(1, entries + 1)]
        tick = time.perf_counter()
        draw = draw_seats(players, capacity=capacity, rng=rng)
        self.draw_s = time.perf_counter() - tick
        self.rng = rng
        self.tables: dict[int, Table] = {t.number: t for t in draw.tables}
        self.counts: dict[int, int] = {t.number: len(t.seats) for t in draw.tables}
        self.sizes = Counter(self.counts.values())  # how many tables have n players
        self.where: dict[str, int] = {p: t for p, t, _ in draw.assignments}
        self.remaining = list(players)
        self.index = {p: i for i, p in enumerate(self.remaining)}
        self.final_size = final_table_size(capacity)
        self.final_formed = False
        self.balance_moves = self.break_moves = self.final_moves = self.broken = 0

    def bust_random_player(self) -> None:
        """A player busts in a hand that staff then confirm completed (the blinds move on,
        so the seat he leaves may be the last big blind's: a dead small blind next hand);
        a hand is completed at one other table too."""
        i = self.rng.randrange(len(self.remaining))
        player = self.remaining[i]
        last = self.remaining.pop()
        if last != player:
            self.remaining[i] = last
            self.index[last] = i
        del self.index[player]
        number = self.where.pop(player)
        table = advance_hand(self.tables[number])
        del table.seats[table.seat_of(player)]  # our own copy: advance_hand made it
        self.tables[number] = table
        self.count(number, -1)
        for _ in range(OTHER_TABLES_ADVANCED):
            other = self.where[self.remaining[self.rng.randrange(len(self.remaining))]]
            if other != number:
                self.tables[other] = advance_hand(self.tables[other])

    def count(self, number: int, change: int) -> None:
        """Keep the hand-kept count of a table, and the histogram of table sizes."""
        old = self.counts[number]
        self.sizes[old] -= 1
        if not self.sizes[old]:
            del self.sizes[old]
        self.counts[number] = old + change
        self.sizes[old + change] += 1

    def engine_step(self) -> list:
        """Final table, break or balance: the engine calls that are timed."""
        tables = list(self.tables.values())
        if not self.final_formed and final_table_due(tables, self.final_size):
            draw = plan_final_table(tables, self.rng)
            self.tables = {draw.table.number: draw.table}
            self.final_formed = True
            self.final_moves += len(draw.moves)
            return draw.moves
        broken = table_to_break(tables, final_table_size=self.final_size)
        moves = []
        if broken is not None:
            moves = plan_break(tables, broken, self.rng)
            tables = apply_moves(tables, moves)
            numbers = list(self.tables)  # in the order of `tables`
            gone = numbers.index(broken)  # the broken table closes
            del tables[gone], numbers[gone]
            self.broken += 1
            self.break_moves += len(moves)
        balance = plan_balance(tables, rng=self.rng)
        if balance:
            tables = apply_moves(tables, balance)
            self.balance_moves += len(balance)
        moves += balance
        if moves:
            if broken is None:
                numbers = list(self.tables)
            room = dict(self.tables)  # a new dict: the caller keeps the old one to compare
            room.pop(broken, None)
            for number in {m.from_table for m in moves} | {m.to_table for m in moves}:
                if number != broken:
                    room[number] = tables[numbers.index(number)]
            self.tables = room
        return moves

    def record(self, moves: list) -> None:
        """Follow the move slips: where each moved player sits now."""
        for move in moves:
            self.where[move.player] = move.to_table


def check_step(before: dict[int, Table], t: Tournament, moves: list) -> None:
    """After every step: within one player, and exactly the moved players changed place.

    The hand-kept counts follow the busts and the move slips; the tables a move touched
    must hold exactly the players the slips say, and every other table must be the very
    same object as before. With the count of each table, that proves nobody was lost or
    duplicated without walking the whole room after every bust.
    """
    if moves and moves[0].kind == "FINAL_TABLE":
        (table,) = t.tables.values()
        assert sorted(table.seats.values()) == sorted(t.remaining), "final table lost a player"
        assert len(moves) == len(t.remaining)
        t.counts = {table.number: len(table.seats)}
        t.sizes = Counter(t.counts.values())
        return
    if not moves:
        assert t.tables is before, "tables changed without a move"
    else:
        follow_moves(before, t, moves)
    assert max(t.sizes) - min(t.sizes) <= 1, f"tables differ by more than one: {t.sizes}"
    assert sum(n * k for n, k in t.sizes.items()) == len(t.remaining), "players lost or added"


def follow_moves(before: dict[int, Table], t: Tournament, moves: list) -> None:
    touched = {m.from_table for m in moves} | {m.to_table for m in moves}
    expected = {n: dict(before[n].seats) for n in touched}
    for move in moves:
        assert expected[move.from_table].pop(move.from_seat) == move.player
        t.count(move.from_table, -1)
    for move in moves:
        assert move.to_seat not in expected[move.to_table], "seat used twice"
        expected[move.to_table][move.to_seat] = move.player
        t.count(move.to_table, +1)
    for number in touched:
        if number in t.tables:
            assert t.tables[number].seats == expected[number], f"table {number} != its moves"
        else:
            assert not expected[number], f"table {number} closed with players in it"
            t.count(number, 0)
            del t.counts[number]
            t.sizes[0] -= 1
            del t.sizes[0]
    changed = [n for n, table in t.tables.items() if before.get(n) is not table]
    assert set(changed) <= touched, f"tables {set(changed) - touched} changed without a move"
    assert t.tables.keys() == t.counts.keys()


def full_check(t: Tournament) -> None:
    """Everyone, every table: the slow check, run every few hundred busts and at the end."""
    seated = [p for table in t.tables.values() for p in table.seats.values()]
    assert len(seated) == len(set(seated)) == len(t.remaining), "player lost or duplicated"
    assert set(seated) == set(t.remaining)
    assert t.counts == {n: len(table.seats) for n, table in t.tables.items()}
    assert t.sizes == Counter(t.counts.values())
    for number, table in t.tables.items():
        for player in table.seats.values():
            assert t.where[player] == number


def run(entries: int, capacity: int, seed: int) -> dict:
    rng = random.Random(seed)
    started = time.perf_counter()
    cpu_started = time.process_time()
    t = Tournament(entries, capacity, rng)
    tables_at_start = len(t.tables)
    engine_ns: list[int] = []
    baseline_ns: list[int] = []
    busts = 0
    while len(t.remaining) > 1:
        t.bust_random_player()
        busts += 1
        before = t.tables  # engine_step replaces the dict, never changes it in place
        tick = time.perf_counter_ns()
        moves = t.engine_step()
        engine_ns.append(time.perf_counter_ns() - tick)
        t.record(moves)
        if busts % BASELINE_EVERY == 1:
            tick = time.perf_counter_ns()
            {n: dict(table.seats) for n, table in before.items()}
            baseline_ns.append(time.perf_counter_ns() - tick)
        check_step(before, t, moves)
        if busts % FULL_CHECK_EVERY == 0:
            full_check(t)
    full_check(t)
    assert len(t.tables) == 1, "the tournament ends at one table"
    total = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    median = statistics.median(engine_ns) / 1000
    p95 = sorted(engine_ns)[int(0.95 * (len(engine_ns) - 1))] / 1000
    base = statistics.median(baseline_ns) / 1000
    return {
        "entries": entries,
        "capacity": capacity,
        "tables_at_start": tables_at_start,
        "busts": busts,
        "winner": t.remaining[0],
        "balance_moves": t.balance_moves,
        "break_moves": t.break_moves,
        "final_table_moves": t.final_moves,
        "tables_broken": t.broken,
        "total_s": total,
        "engine_s": t.draw_s + sum(engine_ns) / 1e9,
        "draw_s": t.draw_s,
        "cpu_s": cpu,
        "median_us": median,
        "p95_us": p95,
        "baseline_us": base,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--capacity", type=int, choices=(9, 10), default=9)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.entries < 2:
        parser.error("--entries must be at least 2 (one player has already won)")
    r = run(args.entries, args.capacity, args.seed)
    moves = r["balance_moves"] + r["break_moves"] + r["final_table_moves"]
    print(f"entries {r['entries']} at {r['capacity']}-max, {r['tables_at_start']} tables, {r['busts']} busts, winner {r['winner']}")
    print(
        f"moves made {moves} (balance {r['balance_moves']}, break {r['break_moves']}, final table {r['final_table_moves']}), tables broken {r['tables_broken']}"
    )
    print(
        f"total seconds {r['total_s']:.3f} (cpu {r['cpu_s']:.3f}), of which in the engine {r['engine_s']:.3f} "
        f"(initial draw {r['draw_s']:.3f}, the rest the benchmark's own busts and checks)"
    )
    print(f"per bust: median {r['median_us']:.1f} µs, p95 {r['p95_us']:.1f} µs")
    print(
        f"baseline (copy of the seat map) median {r['baseline_us']:.1f} µs; "
        f"ratio median/baseline {r['median_us'] / r['baseline_us']:.2f}, "
        f"p95/baseline {r['p95_us'] / r['baseline_us']:.2f}"
    )
    calibration = min(timeit.repeat("sum(range(1000))", number=1000, repeat=5)) * 1000
    print(f"machine calibration: sum(range(1000)) takes {calibration:.1f} µs")


if __name__ == "__main__":
    main()
