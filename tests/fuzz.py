"""API fuzzing with schemathesis, shared by the test suite (``tests/test_api_fuzz.py``, in
process, each case rolled back) and the longer run (``benchmarks/fuzz_api.py``, over HTTP).

``build_world()`` writes the data the fuzzer needs to reach deep paths (tournaments in every
state with people, entries, seats, a bust, payouts objects, formats); path parameters are
steered to those ids most of the time. Every answer is checked: no 5xx, the status code is one
the schema documents, the body matches the documented schema, and a request the schema forbids
(negative mode) is refused.
"""

from __future__ import annotations

import re
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal

import hypothesis
import hypothesis.errors
import schemathesis
from hypothesis import HealthCheck, Phase
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import negative_data_rejection, response_schema_conformance, status_code_conformance

# negative_data_rejection: a request the schema forbids (a wrong type, a value outside an enum,
# ``offset=null``, a body that is not an object) must be refused (4xx), never answered 2xx.
CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance, negative_data_rejection]
ROLES = ("director", "cashier")


def openapi_schema() -> dict:
    """The schema ``/api/schema/`` serves, generated in process."""
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


def load_schema(app=None, base_url: str | None = None):
    import json

    raw = json.loads(json.dumps(openapi_schema(), default=str))
    schema = schemathesis.openapi.from_dict(raw)
    if app is not None:
        schema.app = app
    if base_url:
        schema.config.base_url = base_url
    return schema


# --- the data ----------------------------------------------------------------------------------


def build_world() -> dict:
    """Users with tokens and a room's worth of data. Returns the ids, by the path segment that
    names them (``"tournaments"`` → tournament ids), and the two tokens."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.utils import timezone

    from payouts import services as payouts
    from payouts.models import PayoutTemplate
    from seating import services as seating
    from tournaments.cashier import services as cashier
    from tournaments.eventlog.services import Actor
    from tournaments.formats.services import multiday, series, sitandgo
    from tournaments.models import ChipDenomination, ChipSet, DisplayScreen, Person, Tournament
    from tournaments.setup import lifecycle
    from tournaments.staff.logins import issue_token
    from tournaments.structures.services import ensure_builtin_structures

    User = get_user_model()
    tokens = {}
    users = {}
    for role in ROLES:
        user = User.objects.create_user(username=f"fuzz-{role}", password=None)
        user.groups.add(Group.objects.get_or_create(name=role)[0])
        tokens[role] = issue_token(user, device="test")[1]
        users[role] = user
    director = Actor(users["director"], "fuzz")
    desk = Actor(users["cashier"], "fuzz-desk")

    structures = ensure_builtin_structures()
    structure = next(s for s in structures if s.name.startswith("Regular"))
    people = [Person.objects.create(first_name=f"Fuzz{i}", last_name=f"Player{i}", nickname=f"fz{i}") for i in range(40)]
    now = timezone.now()

    def tournament(name, **kw):
        d = dict(
            name=name,
            start_at=now + timedelta(hours=1),
            buy_in=Decimal("100"),
            fee=Decimal("10"),
            starting_stack=30000,
            table_size=9,
            structure=structure,
            status=Tournament.REGISTERING,
            min_players=2,
            format=Tournament.REENTRY,
            max_entries_per_player=3,
            rebuy_price=Decimal("50"),
            rebuy_fee=Decimal("5"),
            rebuy_chips=20000,
            addon_price=Decimal("50"),
            addon_fee=Decimal("5"),
            addon_chips=30000,
        )
        d.update(kw)
        return Tournament.objects.create(**d)

    planned = tournament("Fuzz planned", status=Tournament.PLANNED)
    registering = tournament("Fuzz registering")
    for p in people[:12]:
        cashier.register(registering, p, method="CASH", actor=desk)
    cashier.pre_register(registering, people[12], actor=desk)
    running = tournament("Fuzz running")
    for p in people[:20]:
        cashier.register(running, p, method="CASH", actor=desk)
    lifecycle.start(running, actor=director, override_minimum=True, prestart_report_sent=True)
    first = running.entries.order_by("number").first()
    seating.record_bust(running, [{"entry": first.pk}], actor=director)
    target = tournament("Fuzz target", buy_in=Decimal("200"), fee=Decimal("20"))
    payouts.link_satellite(registering, target, actor=director)

    chipset = ChipSet.objects.create(name="Fuzz chips")
    ChipDenomination.objects.bulk_create(
        ChipDenomination(chip_set=chipset, value=v, colour=c, quantity=500) for v, c in ((25, "green"), (100, "black"), (500, "purple"), (1000, "yellow"))
    )
    screen = DisplayScreen.objects.create(name="Fuzz TV", tournament=running, token="fuzz-token")
    template = PayoutTemplate.objects.create(name="Fuzz top 3", percents=["50", "30", "20"])

    sng = sitandgo.create_sit_and_go(name="Fuzz SNG", buy_in=Decimal("30"), fee=Decimal("3"), starting_stack=5000, structure=structure, actor=director)
    event = multiday.create_event(
        name="Fuzz Main",
        flights=[{"label": "1A", "start_at": now + timedelta(days=1)}, {"label": "1B", "start_at": now + timedelta(days=2)}],
        day2_start_at=now + timedelta(days=3),
        buy_in=Decimal("100"),
        fee=Decimal("10"),
        starting_stack=20000,
        structure=structure,
        actor=director,
    )
    flights = list(event.flights.values_list("tournament_id", flat=True)) if hasattr(event, "flights") else []
    league = series.create_series(name="Fuzz series", actor=director)

    from payouts.models import Deal, SidePool, Ticket
    from seating.models import Bust, PendingMove
    from tournaments.formats.models import Match, MultiDayEvent, Series
    from tournaments.models import Entry, LedgerRow, Penalty

    tids = [planned.pk, registering.pk, running.pk, target.pk, sng.pk] + flights
    ids = {
        "tournaments": tids,
        "people": [p.pk for p in people[:5]],
        "entries": list(Entry.objects.values_list("pk", flat=True)[:10]),
        "structures": [s.pk for s in structures],
        "screens": [screen.pk],
        "chipsets": [chipset.pk],
        "receipts": list(LedgerRow.objects.values_list("receipt_number", flat=True)[:5]),
        "slips": list(LedgerRow.objects.values_list("receipt_number", flat=True)[:3]),
        "tables": [1, 2, 3],
        "busts": list(Bust.objects.values_list("pk", flat=True)) or [1],
        "moves": list(PendingMove.objects.values_list("pk", flat=True)) or [1],
        "penalties": list(Penalty.objects.values_list("pk", flat=True)) or [1],
        "deals": list(Deal.objects.values_list("pk", flat=True)) or [1],
        "side-pools": list(SidePool.objects.values_list("pk", flat=True)) or [1],
        "tickets": list(Ticket.objects.values_list("pk", flat=True)) or [1],
        "multiday": list(MultiDayEvent.objects.values_list("pk", flat=True)) or [1],
        "flights": flights or [1],
        "headsup": tids,
        "matches": list(Match.objects.values_list("pk", flat=True)) or [1],
        "timed": tids,
        "series": list(Series.objects.values_list("pk", flat=True)) or [1],
        "templates": [template.pk],
        "reports": ["summary"],
    }
    ids["tournaments/entries"] = list(running.entries.values_list("pk", flat=True)[:5])
    return {"tokens": tokens, "ids": ids, "league": league.pk}


# --- cases ---------------------------------------------------------------------------------------


_PARAM = re.compile(r"\{(\w+)\}")


def _candidates(path: str, ids: dict) -> dict[str, list]:
    """For each path parameter, the ids of the world named by the segment before it."""
    parts = path.strip("/").split("/")
    out = {}
    for i, part in enumerate(parts):
        m = _PARAM.fullmatch(part)
        if not m or i == 0:
            continue
        seg = parts[i - 1]
        if seg == "entries" and i >= 3 and parts[i - 3] == "tournaments":
            seg = "tournaments/entries"
        if seg in ids and ids[seg]:
            out[m.group(1)] = ids[seg]
    return out


def steered(operation, mode: GenerationMode, ids: dict):
    """The operation's cases, with path ids pointing at the world's objects three times in four."""
    base = operation.as_strategy(generation_mode=mode)
    cands = _candidates(operation.path, ids)
    if not cands:
        return base
    picks = st.fixed_dictionaries({name: st.sampled_from(values + [None]) for name, values in cands.items()})

    def apply(pair):
        case, chosen = pair
        path = case.meta.components.get(ParameterLocation.PATH) if case.meta is not None else None
        if path is not None and path.mode.is_negative:
            return case  # its invalid path value must reach the server, or the check would judge a request never sent
        for name, value in chosen.items():
            if value is not None and case.path_parameters is not None:
                case.path_parameters[name] = value
        return case

    return st.tuples(base, picks).map(apply)


@dataclass
class Report:
    operations: int = 0
    cases: int = 0
    by_status: Counter = field(default_factory=Counter)
    server_errors: list = field(default_factory=list)
    mismatches: list = field(default_factory=list)
    seconds: float = 0.0
    stateful_steps: int = 0
    notes: list = field(default_factory=list)

    def record(self, label, case, response, exc):
        self.cases += 1
        status = getattr(response, "status_code", 0)
        self.by_status[status] += 1
        if exc is None:
            return
        if status < 500 and _text_all_along(case, exc):
            return
        text = f"{label} → {status}: {_describe(exc)}\n    reproduce: {_curl(case)}"
        (self.server_errors if status >= 500 else self.mismatches).append(text)

    def summary(self) -> str:
        return (
            f"{self.operations} operations, {self.cases} cases ({self.stateful_steps} stateful steps), "
            f"{len(self.server_errors)} server errors, {len(self.mismatches)} schema mismatches, {self.seconds:.1f} s; "
            f"statuses {dict(sorted(self.by_status.items()))}" + (f"; {'; '.join(self.notes)}" if self.notes else "")
        )

    def problems(self, limit=30) -> str:
        seen, lines = set(), []
        for text in self.server_errors + self.mismatches:
            key = text.split("\n")[0][:160]
            if key not in seen:
                seen.add(key)
                lines.append(text)
        return "\n".join(lines[:limit])


def _text_all_along(case, exc) -> bool:
    """A "schema-violating request accepted" that violates nothing the server can see: a
    multipart form carries every value as text, so a field typed as a string, sent as a number
    ("was string, became number": 0.0), arrives as the text "0.0", a valid string."""
    media = getattr(case, "media_type", None) or ""
    said = _describe(exc)
    return media.startswith("multipart/") and "violates `type`" in said and "(was string, became" in said


def _describe(exc) -> str:
    parts = getattr(exc, "exceptions", None) or [exc]
    out = []
    for f in parts:
        title = getattr(f, "title", type(f).__name__)
        message = getattr(f, "message", str(f))
        out.append(f"{title}: {str(message).strip()[:400]}")
    return " | ".join(out)


def _curl(case):
    try:
        return case.as_curl_command()
    except Exception:  # noqa: BLE001 - only a hint for the reader
        return f"{case.method} {case.formatted_path} body={getattr(case, 'body', None)!r}"


def _quiet(fn):
    """Run a call, catching the check failures so one run reports every problem found."""
    try:
        fn()
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # noqa: BLE001 - check failures come as a FailureGroup (a BaseExceptionGroup)
        return exc
    return None


def fuzz(
    schema,
    headers_by_role: dict,
    ids: dict,
    *,
    examples: int,
    seed: int,
    run_call,
    report: Report | None = None,
    modes=(GenerationMode.POSITIVE, GenerationMode.NEGATIVE),
    skip=None,
    call_kwargs=None,
) -> Report:
    """Every operation, for every role, in both modes: ``examples`` cases each.

    ``run_call(call)`` runs one request-and-check (the suite wraps it in a rolled-back savepoint).
    """
    report = report or Report()
    started = time.monotonic()
    operations = [r.ok() for r in schema.get_all_operations()]
    report.operations = len(operations)
    for role, headers in headers_by_role.items():
        for op in operations:
            if skip and skip(op):
                continue
            for mode in modes:
                label = f"[{role}/{mode.value}] {op.method.upper()} {op.path}"
                test = _case_test(op, mode, ids, headers, label, examples, seed, run_call, report, call_kwargs or {})
                try:
                    test()
                except Exception as exc:  # noqa: BLE001 - a strategy that cannot generate is not the API's fault
                    if "Unsatisfiable" not in type(exc).__name__:
                        raise
    report.seconds += time.monotonic() - started
    return report


def _case_test(op, mode, ids, headers, label, examples, seed, run_call, report, call_kwargs):
    @hypothesis.seed(seed)
    @hypothesis.settings(
        max_examples=examples, database=None, deadline=None, derandomize=False, suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate]
    )
    @hypothesis.given(steered(op, mode, ids))
    def one(case):
        holder = {}

        def call():
            holder["response"] = case.call(headers=headers, **call_kwargs)
            case.validate_response(holder["response"], checks=CHECKS, headers=headers)

        exc = run_call(lambda: _quiet(call))
        report.record(label, case, holder.get("response"), exc)

    return one


def fuzz_stateful(schema, headers_by_role: dict, *, examples: int, steps: int, seed: int, report: Report, call_kwargs=None) -> Report:
    """The stateful phase: chains of calls that feed one answer's ids into the next call."""
    started = time.monotonic()
    for role, headers in headers_by_role.items():
        base = schema.as_state_machine()

        class Machine(base):  # type: ignore[misc, valid-type]
            def get_call_kwargs(self, case, _headers=headers):
                return {"headers": _headers, **(call_kwargs or {})}

            def validate_response(self, response, case, additional_checks=None, **kwargs):
                exc = _quiet(lambda: case.validate_response(response, checks=CHECKS, headers=headers))
                report.stateful_steps += 1
                report.record(f"[{role}/stateful] {case.method} {case.operation.path}", case, response, exc)

        settings = hypothesis.settings(
            max_examples=examples,
            stateful_step_count=steps,
            database=None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            phases=[Phase.explicit, Phase.generate],
        )
        hypothesis.seed(seed)(Machine.TestCase)
        try:
            Machine.run(settings=settings)
        except hypothesis.errors.FlakyStrategyDefinition as exc:
            # Over HTTP nothing is rolled back: a scenario replayed on a changed room draws other
            # data and Hypothesis stops the phase. The steps run until then were all checked.
            report.notes.append(f"[{role}/stateful] stopped early: {type(exc).__name__}")
        except Exception as exc:  # noqa: BLE001
            report.server_errors.append(f"[{role}/stateful] the state machine stopped: {type(exc).__name__}: {str(exc)[:600]}")
    report.seconds += time.monotonic() - started
    return report


def by_operation(report: Report) -> dict:
    out = defaultdict(int)
    for text in report.server_errors + report.mismatches:
        out[text.split(" → ")[0]] += 1
    return dict(out)
