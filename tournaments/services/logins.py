"""Staff logins: the audit line of each lock-out, and a director lifting one.

The throttle itself is ``tdmanager.security`` (which imports no app): it announces a lock-out
with ``login_locked_out``, and ``record_lockout`` writes it to the event log (no tournament),
so the director sees who was locked out, from where, for how long, and can lift it.
"""

import time

from django.utils.translation import gettext as _

from tdmanager import security
from tdmanager.errors import ValidationFailed
from tdmanager.transactions import service

from ..actions import Action
from .events import SYSTEM, Actor, log_event


def record_lockout(sender=None, *, kind: str, username: str, address: str, failures: int, seconds: int, **_kw) -> None:
    """Receiver of ``security.login_locked_out``: one event-log row per lock-out."""
    _log_lockout(kind, username, address, failures, seconds)


@service
def _log_lockout(kind, username, address, failures, seconds):
    log_event(
        None,
        Action.AUTH_LOCKOUT_STARTED,
        SYSTEM,
        kind=kind,
        username=username[:150],
        address=address,
        failures=failures,
        seconds=seconds,
        until=int(time.time()) + seconds,
    )


@service
def lift_lockout(*, username: str, address: str, actor: Actor) -> dict:
    """A director lifts a lock-out: a username's at one address (its failures there forgotten),
    or, without a username, an address's. Logged with who lifted it."""
    username, address = (username or "").strip(), (address or "").strip()
    if not address:
        raise ValidationFailed("address_required", _("Name the address the lock-out is at."), field="address")
    security.lift(username, address)
    log_event(None, Action.AUTH_LOCKOUT_LIFTED, actor, kind="user" if username else "address", username=username, address=address)
    return {"username": username, "address": address, "lifted": True}
