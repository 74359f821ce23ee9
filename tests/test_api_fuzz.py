"""Zero server errors under the API fuzzer (schemathesis over ``/api/schema/``).

Every operation of the schema, as a director and as a cashier, with valid (positive) and invalid
(negative) inputs, then the stateful phase (chains of calls feeding ids from one answer to the
next). A fixed seed and a bounded number of cases keep it to a few minutes on two cores;
``TDM_FUZZ_EXAMPLES`` raises it. Each stateless case runs in a savepoint rolled back afterwards,
so every case starts from the same room: tournaments in every state, entries, seats, a bust,
a satellite, chip sets, a sit & go, a multi-day event, a series (``tests/fuzz.py``).

Fails on any 5xx, any status code the schema does not document, any body that does not match
the documented schema. The longer run over HTTP is ``benchmarks/fuzz_api.py``.
"""

import os

import pytest
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction

from tdmanager.transactions import unit_of_work
from tests import fuzz

EXAMPLES = int(os.getenv("TDM_FUZZ_EXAMPLES", "4"))
STATEFUL_EXAMPLES = int(os.getenv("TDM_FUZZ_STATEFUL_EXAMPLES", "3"))
SEED = int(os.getenv("TDM_FUZZ_SEED", "20261122"))


@pytest.fixture
def in_process_requests():
    """Requests served in the test's own transaction: the handler must not close the connection."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def _rolled_back(call):
    with unit_of_work():  # the services run as its steps, then everything is rolled back
        outcome = call()
        transaction.set_rollback(True)
    return outcome


#: the operations are fuzzed in this many tests (each every PARTS-th operation of the schema, as both
#: roles, in both modes), so that test workers share them out; the stateful phase is a test of its own
PARTS = 6


def _world(capsys):
    from tdmanager.wsgi import application

    world = fuzz.build_world()
    schema = fuzz.load_schema(app=application)
    headers = {role: {"Authorization": f"Token {key}"} for role, key in world["tokens"].items()}
    return world, schema, headers


def _report(report, capsys, name):
    with capsys.disabled():
        print(f"\nAPI fuzz, {name}:", report.summary())
    if os.getenv("TDM_FUZZ_REPORT"):
        with open(f"{os.environ['TDM_FUZZ_REPORT']}.{name}", "w") as out:
            out.write(report.summary() + "\n" + report.problems(limit=10_000))


@pytest.mark.django_db
@pytest.mark.parametrize("part", range(PARTS))
def test_no_server_error_and_answers_match_the_schema(part, in_process_requests, capsys):
    world, schema, headers = _world(capsys)
    names = sorted(f"{op.ok().method} {op.ok().path}" for op in schema.get_all_operations())
    mine = set(names[part::PARTS])

    def not_mine(op):
        return f"{op.method} {op.path}" not in mine

    report = fuzz.fuzz(schema, headers, world["ids"], examples=EXAMPLES, seed=SEED, run_call=_rolled_back, skip=not_mine)
    _report(report, capsys, f"part {part + 1} of {PARTS}")
    assert report.operations > 100
    assert report.cases > len(mine) * 2 * EXAMPLES
    assert not report.server_errors and not report.mismatches, report.problems()


@pytest.mark.django_db
def test_no_server_error_in_chains_of_calls(in_process_requests, capsys):
    """The stateful phase: chains of calls, each feeding ids from one answer to the next."""
    _world_ids, schema, headers = _world(capsys)
    report = fuzz.Report()
    fuzz.fuzz_stateful(schema, headers, examples=STATEFUL_EXAMPLES, steps=10, seed=SEED, report=report)
    _report(report, capsys, "chains")
    assert report.stateful_steps > 0
    assert not report.server_errors and not report.mismatches, report.problems()
