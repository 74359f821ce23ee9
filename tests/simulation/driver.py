"""The seeded driver of simulated card-room days.

A day is a seed and a number of steps. Each step draws an action by weight (``actions.ACTIONS``;
the day's theme, ``catalogue.THEMES``, draws its family of actions more often) and a seed of its
own; the action reads the product's state, chooses what a person in the room would do (legal or
not: refusals are legal outcomes) and calls the real services in-process.
After every step every invariant (``invariants.INVARIANTS``) asks the product, through the
selectors and reports its pages use, whether the state still balances.

Everything random is seeded: the driver's choices, the product's draws (seating's random source,
the chip races, the mystery envelopes) and the clock (``time_machine``, moved by the steps). A day
is replayed exactly from its seed; a failing day is shrunk to the shortest list of its steps that
still fails (delta debugging over the steps, each keeping its own seed), printed as a plan that a
regression test replays with ``play(seed, plan=[...])``.
"""

from __future__ import annotations

import contextlib
import random
import re
import secrets
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from unittest import mock

import time_machine
from django.db.models import Max
from django.utils import translation

from seating import services as seating
from tdmanager.errors import DomainError

from .world import Skip, World

#: every event of the day is checked after this many steps; between, the invariants read the
#: events a step acted on or changed (``footprint``)
FULL_CHECK = 50


class Violation(AssertionError):
    """An invariant broken, an unexpected exception or an untranslated refusal after a step."""

    def __init__(self, seed: int, plan: list[tuple[str, int]], step: int, messages: list[str], log: list[str]):
        self.seed, self.plan, self.step, self.messages, self.log = seed, plan, step, messages, log
        super().__init__(self.render())

    def render(self) -> str:
        lines = [f"day seed {self.seed}: after step {self.step} ({self.plan[self.step][0]}):"]
        lines += [f"  ! {m}" for m in self.messages]
        lines.append("steps (replay with play(seed, plan=...)):")
        lines += [f"  {i:3d} {name:<24} seed={s:<12d} {what}" for i, ((name, s), what) in enumerate(zip(self.plan, self.log))]
        lines.append(f"plan = {self.plan!r}")
        return "\n".join(lines)


@dataclass
class DayReport:
    seed: int
    theme: str = ""
    steps: int = 0
    ran: Counter = field(default_factory=Counter)
    refused: Counter = field(default_factory=Counter)
    skipped: Counter = field(default_factory=Counter)
    codes: Counter = field(default_factory=Counter)
    checks: int = 0
    #: refusals that left the room's footprint as it was (the invariants not asked again)
    unchanged: int = 0
    seconds: float = 0.0
    log: list[str] = field(default_factory=list)
    plan: list[tuple[str, int]] = field(default_factory=list)


# English words that an Italian sentence does not use: a refusal read in Italian that carries two
# of them was not translated (its text never went through gettext, or its msgid has no msgstr).
_ENGLISH = {"the", "this", "is", "cannot", "already", "has", "been", "must", "only", "not", "was", "are", "with", "first"}


def untranslated(message: str) -> bool:
    words = set(re.findall(r"[a-z]+", message.lower()))
    return len(words & _ENGLISH) >= 2


@contextlib.contextmanager
def product_randomness(holder: dict):
    """Every random source of the product drawn from ``holder["rng"]`` (reseeded by each step):
    seating's draws through its hook, and the OS CSPRNG the chip races, brackets, ties and
    mystery envelopes ask ``secrets`` for."""

    class Seeded:
        def __getattr__(self, name):
            return getattr(holder["rng"], name)

    source = Seeded()
    with (
        seating.seeded(source),
        mock.patch.object(secrets, "SystemRandom", lambda: source),
        mock.patch.object(secrets, "randbits", lambda k: holder["rng"].getrandbits(k)),
    ):
        yield


def choose(rng: random.Random, weights: dict[str, float]) -> str:
    names = sorted(weights)
    return rng.choices(names, weights=[weights[n] for n in names])[0]


def play(
    seed: int,
    steps: int = 40,
    *,
    plan: list[tuple[str, int]] | None = None,
    day: int = 0,
    check: bool = True,
    language: str = "it",
    wanted: tuple[dict[str, float], str] | None = None,
) -> DayReport:
    """Play one day: ``steps`` actions drawn from ``seed``, or the ``plan`` given (a failing day's
    steps, each with its seed). ``wanted``: the boosts and the theme of a soak that counts
    (``catalogue.wanting``), else the seed's theme; an action it boosts that has nothing to act on
    is followed by what sets its state up (``catalogue.NEEDS``). Raises ``Violation`` at the first
    step after which an invariant fails; returns the day's report otherwise."""
    from .catalogue import NEEDS, theme_of, weights
    from .invariants import INVARIANTS, check_all

    started = time.perf_counter()
    world = World(seed=seed, day=day)
    boost, theme = wanted or ({}, theme_of(seed))
    report = DayReport(seed=seed, theme=theme)
    drawn = weights(theme, boost)
    rng = random.Random(seed)
    replay = plan is not None
    if not replay:  # the day opens with two events on the schedule and their first players
        opening = ["create_event", "create_event"] + ["sell_entry"] * 8 + ["start_event"]
        plan = [(name, rng.getrandbits(40)) for name in opening[:steps]]
    report.plan = plan
    holder = {"rng": random.Random(seed)}
    with time_machine.travel(world.now, tick=False) as traveller, product_randomness(holder), translation.override(language):
        world.traveller = traveller
        i = 0
        after = footprint(world) if check else None
        while i < (len(plan) if replay else steps):
            tries, prepare = 0, None
            before = after  # a skipped action writes nothing: the footprint is the last step's
            while True:  # a drawn action with nothing to act on is drawn again (a plan replays as it is)
                if i >= len(plan):
                    plan.append((prepare or choose(rng, drawn), rng.getrandbits(40)))
                name, step_seed = plan[i]
                outcome, what, problems = _step(world, name, step_seed, holder, language)
                if outcome != "skipped" or replay or tries >= 8:
                    break
                report.skipped[name] += 1
                plan.pop(i)
                tries += 1
                # an action a soak still wants, or one on the way to its state, gives its draw to
                # an action that sets its state up (``catalogue.NEEDS``)
                wanted_now = boost.get(name, 1) > 1 or prepare is not None
                prepare = rng.choice(NEEDS[name]) if wanted_now and name in NEEDS else None
            if outcome == "skipped":
                report.skipped[name] += 1
            elif outcome == "ran":
                report.ran[name] += 1
            else:
                report.refused[name] += 1
                report.codes[outcome] += 1
            report.log.append(str(what))
            report.steps += 1
            last = i + 1 == (len(plan) if replay else steps)
            after = footprint(world) if check else None
            changed = changed_events(before, after) if check else None
            if changed is None or (i + 1) % FULL_CHECK == 0 or last:
                # every event of the day after a change outside them, every FULL_CHECK steps (an
                # answer that moves with the time alone) and after the last step
                world.touched = None
            elif world.touched is not None:  # the events the step acted on, and those its writes reached
                world.touched |= changed
            if not check or problems:
                pass
            elif outcome not in ("ran", "skipped") and world.touched is not None and after == before:
                # refused before anything was written (an action of several services may be
                # refused after its first ones committed): every invariant answers as a step ago
                report.unchanged += 1
            else:
                problems = check_all(world, INVARIANTS)
                report.checks += len(INVARIANTS)
            if problems:
                raise Violation(seed, plan[: i + 1], i, problems, report.log)
            i += 1
    report.seconds = time.perf_counter() - started
    return report


def footprint(world: World) -> dict:
    """What any change to the room leaves behind, event by event: for each of the day's events
    its entries, seats, tables, slips, status, clock, heads and payout table as they stand, and
    the newest of its append-only rows (event log, ledger, payments, bounties, deals); under
    ``None`` the newest of those rows that belong to no event of the day (an erasure, a restore,
    a ticket, another day's event). Every service logs its action, so a step that wrote nothing
    leaves the footprint as it was."""
    from payouts.models import BountyAward, BountyHead, Deal, PayoutTable, PrizePayment
    from seating.models import PendingMove, Seat, Table
    from tournaments.eventlog.actions import Action
    from tournaments.models import Clock, Entry, LedgerRow, Tournament, TournamentEvent

    today = world.events
    marks: dict = {pk: [] for pk in today}
    marks[None] = []
    for model in (TournamentEvent, LedgerRow, PrizePayment, BountyAward, Deal):
        outside = None
        rows = model.objects.all()
        if model is TournamentEvent:  # a newcomer added at the desk is in no event until his sale marks it
            rows = rows.exclude(tournament__isnull=True, action=Action.PEOPLE_PERSON_CREATED)
        for tid, newest in rows.values_list("tournament_id").annotate(n=Max("pk")).order_by("tournament_id"):
            if tid in marks:
                marks[tid].append((model.__name__, newest))
            else:
                outside = max(outside or 0, newest)
        marks[None].append((model.__name__, outside))
    rows = [
        (Entry, ("status", "chips", "place")),
        (Seat, ("entry_id",)),
        (Table, ("capacity", "in_play", "locked")),
        (PendingMove, ("status",)),
        (Clock, ("status", "item_index")),
        (BountyHead, ("amount",)),
        (PayoutTable, ("state", "prize_pool")),
    ]
    for model, fields in rows:
        for tid, *values in model.objects.filter(tournament__in=today).order_by("pk").values_list("tournament_id", "pk", *fields):
            marks[tid].append((model.__name__, *values))
    for pk, *values in Tournament.objects.filter(pk__in=today).values_list("pk", "status", "guarantee"):
        marks[pk].append(("Tournament", *values))
    return marks


def changed_events(before: dict, after: dict) -> set[int] | None:
    """The day's events whose footprint a step changed; None when it changed something outside
    them (then every event is checked)."""
    if before.get(None) != after.get(None) or before.keys() - after.keys():
        return None
    return {pk for pk in after if pk is not None and before.get(pk) != after[pk]}


def _step(world: World, name: str, step_seed: int, holder: dict, language: str):
    """Play one action with its own seed: ("ran" | "skipped" | the refusal's code, what it did,
    the problems it showed)."""
    from .catalogue import ACTIONS

    step_rng = random.Random(step_seed)
    world.touched = set()
    world.looked_up, world.exported, world.pushed, world.push_list, world.designed = [], [], False, None, False
    world.imported, world.screen_links, world.languages_chosen = [], [], []
    world.told = []
    holder["rng"] = random.Random(step_seed ^ 0x5EED)
    later = timedelta(seconds=step_rng.randrange(5, 90))
    world.traveller.shift(later)
    try:
        return "ran", ACTIONS[name].fn(world, step_rng), []
    except Skip as skip:
        world.traveller.shift(-later)  # a step not played takes no time: its replay leaves it out
        return "skipped", f"(skipped: {skip})", []
    except DomainError as refusal:
        text = str(refusal.message)
        problems = []
        if not refusal.code or not text.strip():
            problems.append(f"a refusal without a code or a message: {refusal!r}")
        elif language != "en" and untranslated(text):
            problems.append(f"refusal {refusal.code} read in {language} is English: {text!r}")
        return refusal.code or "?", f"refused {refusal.code}: {text}", problems
    except Exception as exc:  # every refusal must be a domain error: anything else is a defect
        return "raised", f"raised {type(exc).__name__}", [f"{name} raised {type(exc).__name__}: {exc}\n{traceback.format_exc(limit=8)}"]


def fails(seed: int, plan, day: int) -> Violation | None:
    """Replay ``plan`` as day ``day`` (a date of its own, so its drawers and receipts are its
    own): its violation, or None. Each service commits as it does in the room."""
    try:
        play(seed, plan=plan, day=day)
    except Violation as v:
        return v
    return None


def shrink(violation: Violation, day: int = 1000, budget: int = 200) -> Violation:
    """The shortest plan found (delta debugging: drop chunks of steps, halving their size) that
    still ends in a violation; at most ``budget`` replays, each a day of its own from ``day``."""
    best = violation
    plan = list(violation.plan)
    chunk = max(1, len(plan) // 2)
    tries = 0
    while chunk >= 1 and tries < budget:
        i, removed = 0, False
        while i < len(plan) and tries < budget:
            candidate = plan[:i] + plan[i + chunk :]
            tries += 1
            found = fails(violation.seed, candidate, day + tries) if candidate else None
            if found is not None:
                plan, best, removed = list(found.plan), found, True
            else:
                i += chunk
        if not removed:
            chunk //= 2
    return best
