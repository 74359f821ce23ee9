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


@pytest.mark.django_db
def test_no_server_error_and_answers_match_the_schema(in_process_requests, capsys):
    from tdmanager.wsgi import application

    world = fuzz.build_world()
    schema = fuzz.load_schema(app=application)
    headers = {role: {"Authorization": f"Token {key}"} for role, key in world["tokens"].items()}
    report = fuzz.fuzz(schema, headers, world["ids"], examples=EXAMPLES, seed=SEED, run_call=_rolled_back)
    fuzz.fuzz_stateful(schema, headers, examples=STATEFUL_EXAMPLES, steps=10, seed=SEED, report=report)
    with capsys.disabled():
        print("\nAPI fuzz:", report.summary())
    if os.getenv("TDM_FUZZ_REPORT"):
        with open(os.environ["TDM_FUZZ_REPORT"], "w") as out:
            out.write(report.summary() + "\n" + report.problems(limit=10_000))
    assert report.operations > 100
    assert report.cases > report.operations * 2 * EXAMPLES
    assert not report.server_errors and not report.mismatches, report.problems()
