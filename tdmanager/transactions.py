"""Durable actions: a service is the outermost transaction, or a declared step of another.

Zulip's habit (``transaction.atomic(durable=True)``): an action that an API call, a page or a
task invokes must not be silently merged into some larger transaction by accident. Here:

- ``@service`` on every function that changes state. Called from outside any service, it runs
  in a *durable* transaction: if some code already holds a transaction open (an accidental
  nesting), Django raises ``RuntimeError`` instead of merging. Called by another service (a
  cancelled tournament refunds each entry; a sale makes seating seat the player), it is a step
  of that service's transaction: composition is declared by being a service.
- ``unit_of_work()`` for the few places that deliberately put a service and other writes into
  one transaction (the idempotency key row and the sale it answers; a page that creates a
  tournament and its bracket together).

Locks are only taken inside these transactions (``select_for_update`` raises outside one).
"""

from contextlib import contextmanager
from contextvars import ContextVar
from functools import wraps

from django.db import transaction

_in_service: ContextVar[bool] = ContextVar("tdm_in_service", default=False)
_flat_step: ContextVar[bool] = ContextVar("tdm_flat_step", default=False)
_unit: ContextVar[dict | None] = ContextVar("tdm_unit", default=None)


def unit_memo() -> dict | None:
    """A dict that lives as long as the unit of work under way (the outermost service's
    transaction), for what its steps share until it ends; None outside one."""
    return _unit.get()


@contextmanager
def flat_step():
    """Inside ``unit_of_work()``: the next service called runs without a savepoint of its own
    (the services it calls take theirs as usual). For a caller that lets any exception of that
    service end the whole unit (a savepoint never rolled back to only costs two statements): the
    idempotency key row and the sale. Were the exception caught and the unit carried on, Django
    would refuse the next statement (``atomic(savepoint=False)`` marks the transaction for rollback)."""
    token = _flat_step.set(True)
    try:
        yield
    finally:
        _flat_step.reset(token)


@contextmanager
def unit_of_work():
    """An outermost, durable transaction in which services run as its steps."""
    token, memo = _in_service.set(True), _unit.set({})
    try:
        with transaction.atomic(durable=True):
            yield
    finally:
        _unit.reset(memo)
        _in_service.reset(token)


def service(func):
    """Mark ``func`` as a state-changing action (see the module's docstring)."""

    @wraps(func)
    def run(*args, **kwargs):
        if _in_service.get():
            if _flat_step.get():  # the step flat_step() names: no savepoint
                token = _flat_step.set(False)
                try:
                    with transaction.atomic(savepoint=False):
                        return func(*args, **kwargs)
                finally:
                    _flat_step.reset(token)
            with transaction.atomic():  # a step of the calling service: savepoint, same transaction
                return func(*args, **kwargs)
        with unit_of_work():
            return func(*args, **kwargs)

    return run
