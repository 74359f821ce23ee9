"""Durable actions: a service is the outermost transaction, or a declared step of another.

Zulip's habit (``transaction.atomic(durable=True)``): an action that an API call, a page or a
task invokes must not be silently merged into some larger transaction by accident. Here:

- ``@service`` on every function that changes state. Called from outside any service, it runs
  in a *durable* transaction: if some code already holds a transaction open (an accidental
  nesting), Django raises ``RuntimeError`` instead of merging. Called by another service (a
  cancelled tournament refunds each entry; a sale makes seating seat the player), it is a step
  of that service's transaction: composition is declared by being a service.
- ``@retried`` over a service whose rows two people may lock at once in an order nobody
  foresaw: run again when the database ended it to break a deadlock or a serialization
  conflict, else 409 ``busy``; never a 500.
- ``unit_of_work()`` for the few places that deliberately put a service and other writes into
  one transaction (the idempotency key row and the sale it answers; a page that creates a
  tournament and its bracket together).

Locks are only taken inside these transactions (``select_for_update`` raises outside one).
"""

from contextlib import contextmanager
from contextvars import ContextVar
from functools import wraps

from django.db import OperationalError, transaction
from django.utils.translation import gettext as _

from .errors import DomainError

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


#: PostgreSQL's deadlock_detected and serialization_failure: the transaction was ended for
#: another one's sake, and may simply run again
LOCK_CONFLICTS = ("40P01", "40001")
ATTEMPTS = 3


def retried(func):
    """Run the service ``func`` again, in a transaction of its own, when the database chose it to
    end a deadlock or a serialization conflict; still refused after ``ATTEMPTS``: 409 ``busy``,
    the person tries again. A step of another service is not retried: its caller's transaction
    is the one that was ended."""

    @wraps(func)
    def run(*args, **kwargs):
        for _attempt in range(ATTEMPTS):
            try:
                return func(*args, **kwargs)
            except OperationalError as exc:
                if _in_service.get() or getattr(exc.__cause__, "sqlstate", None) not in LOCK_CONFLICTS:
                    raise
        raise DomainError("busy", _("Another change is being made at this moment: try again."), status=409)

    return run
