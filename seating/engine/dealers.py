"""The dealers' rotation: after a push, who deals which table, who goes on a break and
who waits in the pool.

Rules of a push, in order:

1. A dealer on a break stays on it until it is over (``break_left``).
2. CLK-05: a table whose event changes level or breaks within the hold (90 s) after the push
   keeps its dealer until after (``held``): the TDA's dealers hold the push then.
3. A dealer due a break (``dealt`` minutes since his last break at least ``break_after``) goes on
   it, the longest dealing first, as long as every table still has a dealer.
4. Of the others, the freshest deal (fewest minutes since their break; ties by id) and the rest
   wait in the pool; with too few dealers the last tables in the house's order go without.
5. Each dealer who deals moves to another table: the next one in the house's order after the table
   he dealt last (everybody moves one table along), and never the table he dealt last while another
   dealer can take it (a swap mends a clash, or a dealer from the pool takes it, or one just due a
   break who dealt elsewhere deals one push more: ``grace``). Only when every other dealer dealt that table last too
   (a lone dealer, say) does one deal it again.

Pure: the services read the roster and the tables in play, call :func:`plan_push`, and write what
it returns.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

DEAL, BREAK, POOL = "DEAL", "BREAK", "POOL"


@dataclass(frozen=True, slots=True)
class DealerState:
    id: int
    table: int | None = None  # the table he deals now (None: in the pool or on a break)
    last_table: int | None = None  # the table he dealt last, now or before his break
    dealt: int = 0  # minutes dealt since his last break (or since his shift began)
    break_left: int = 0  # minutes of his break still to go (0: not on a break)


@dataclass(frozen=True, slots=True)
class Assignment:
    dealer: int
    kind: str  # DEAL, BREAK or POOL
    table: int | None = None


@dataclass
class PushPlan:
    assignments: list[Assignment] = field(default_factory=list)
    uncovered: list[int] = field(default_factory=list)  # tables in play with no dealer (too few dealers)

    def table_of(self, dealer: int) -> int | None:
        return next((a.table for a in self.assignments if a.dealer == dealer), None)

    def by_table(self) -> dict[int, int]:
        return {a.table: a.dealer for a in self.assignments if a.kind == DEAL}


def plan_push(tables: Sequence[int], dealers: Sequence[DealerState], *, break_after: int, held: Collection[int] = (), grace: int = 30) -> PushPlan:
    """The assignments after a push of ``dealers`` (those on shift now) over ``tables`` (the
    tables in play, in the house's order). ``grace``: minutes a break may wait, once, so that
    nobody deals the same table twice (the minutes between two pushes)."""
    order = list(dict.fromkeys(tables))
    plan = PushPlan()
    resting = [d for d in dealers if d.break_left > 0]
    plan.assignments += [Assignment(d.id, BREAK) for d in resting]
    able = [d for d in dealers if d.break_left <= 0]
    # CLK-05: the held tables keep their dealers
    keep = {d.id: d.table for d in able if d.table is not None and d.table in held and d.table in order}
    plan.assignments += [Assignment(dealer, DEAL, table) for dealer, table in keep.items()]
    able = [d for d in able if d.id not in keep]
    to_serve = [n for n in order if n not in set(keep.values())]
    # breaks, the longest dealing first, while the tables stay covered
    due = sorted((d for d in able if d.dealt >= break_after), key=lambda d: (-d.dealt, d.id))
    spare = max(0, len(able) - len(to_serve))
    off = {d.id for d in due[:spare]}
    plan.assignments += [Assignment(d.id, BREAK) for d in due if d.id in off]
    able = [d for d in able if d.id not in off]
    # the freshest deal
    able.sort(key=lambda d: (d.dealt, d.id))
    dealing, pool = able[: len(to_serve)], able[len(to_serve) :]
    served = to_serve[: len(dealing)]
    plan.uncovered = to_serve[len(dealing) :]
    rotated = _rotate(served, dealing, pool)
    # A clash left (every dealer free to take the table dealt it last): one sent on a break now who
    # dealt elsewhere takes it, his break a push later, and the other waits in the pool.
    sent = [d for d in due if d.id in off]
    by_id = {d.id: d for d in dealers}
    for i, a in enumerate(rotated):
        if a.kind != DEAL or by_id[a.dealer].last_table != a.table:
            continue
        stand_in = next((d for d in sent if d.last_table != a.table and d.dealt < break_after + grace), None)
        if stand_in is not None:
            sent.remove(stand_in)
            rotated[i] = Assignment(stand_in.id, DEAL, a.table)
            displaced = by_id[a.dealer]
            rotated.append(Assignment(a.dealer, BREAK if displaced.dealt >= break_after else POOL))
            plan.assignments = [x for x in plan.assignments if x.dealer != stand_in.id]
    plan.assignments += rotated
    return plan


def _rotate(served: list[int], dealing: list[DealerState], pool: list[DealerState]) -> list[Assignment]:
    """Each dealer to a table of ``served``: one table along from his last, never his last while
    another dealer can take it."""
    if not served:
        return [Assignment(d.id, POOL) for d in dealing + pool]
    index = {n: i for i, n in enumerate(served)}
    taken: dict[int, DealerState] = {}
    # those who dealt one of these tables move one table along (in the house's order)
    for d in sorted(dealing, key=lambda d: index.get(d.last_table, len(served))):
        if d.last_table in index:
            target = served[(index[d.last_table] + 1) % len(served)]
            if target not in taken and target != d.last_table:
                taken[target] = d
    placed = {d.id for d in taken.values()}
    free = [n for n in served if n not in taken]
    for d in dealing:
        if d.id in placed:
            continue
        choice = next((n for n in free if n != d.last_table), free[0])
        free.remove(choice)
        taken[choice] = d
    # mend a clash (a dealer on his last table): swap with a dealer for whom both tables are new
    for table in list(taken):
        d = taken[table]
        if d.last_table != table:
            continue
        for other_table, other in taken.items():
            if other is not d and other.last_table != table and d.last_table != other_table:
                taken[table], taken[other_table] = other, d
                break
        else:  # no swap at the tables: a dealer from the pool takes it, the clashing one waits
            stand_in = next((p for p in pool if p.last_table != table), None)
            if stand_in is not None:
                pool = [p for p in pool if p is not stand_in] + [d]
                taken[table] = stand_in
    return [Assignment(d.id, DEAL, table) for table, d in taken.items()] + [Assignment(p.id, POOL) for p in pool]
