"""The ``Idempotency-Key`` of a write: a repeat returns the first answer, charging nothing.

The keys' table belongs to an app (the ground floor imports none): the app that owns it hands
its model and the statement that claims a key to ``keys`` when it starts
(``tournaments.apps.TournamentsConfig.ready``), as the realtime hub is handed its builders.
"""

import hashlib
import json
from contextlib import nullcontext

from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.response import Response

from tdmanager.compiled import Updates
from tdmanager.errors import DomainError
from tdmanager.transactions import flat_step, unit_of_work


class KeyTable:
    """The table of the keys, handed in when the app that owns it starts."""

    # The model of a key's row: user, key, endpoint, body_hash, status_code, response.
    model = None
    # claim(user_id, key, endpoint, digest, now): the new row's key, or None when the user's key has a row already.
    claim = None

    def __init__(self):
        self._answer = None

    def answer(self, pk: int, response) -> None:
        """Keep the first answer on the key's row (``save(update_fields=...)``'s UPDATE, compiled once)."""
        if self._answer is None or self._answer.model is not self.model:
            self._answer = Updates(self.model, ["status_code", "response"])
        self._answer.save(self.model(pk=pk, status_code=response.status_code, response=response.data))


keys = KeyTable()


def body_hash(request) -> str:
    """SHA-256 of the request's data in a canonical form (key order and spacing do not matter)."""
    data = request.data
    if hasattr(data, "lists"):
        data = {k: v for k, v in data.lists()}
    text = json.dumps(data, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def idempotent(request, compute, validate=None, flat=False):
    """Run ``compute`` once per ``Idempotency-Key``: a repeat returns the first answer, charging nothing.

    The key row is inserted in the same transaction as the sale. A concurrent duplicate
    blocks on the unique index until the first commits, then reads its stored answer.
    A refused sale (4xx) rolls back the key too, so the cashier can simply retry. The same key
    with another body or on another action is refused (422): it is a different request, not a
    repeat. Keys are kept ``TDM_IDEMPOTENCY_TTL_HOURS`` (at least a day), then purged by beat.

    ``validate``: for a caller that has not validated the body fully, called before a repeated
    key's answer (its refusal comes first). ``flat``: ``compute``'s service runs without a
    savepoint of its own (``tdmanager.transactions.flat_step``).
    """
    key = request.headers.get("Idempotency-Key", "").strip()
    if not key:
        return compute()
    if len(key) > 100:
        raise DomainError("bad_idempotency_key", _("The idempotency key is too long."), status=400)
    digest = body_hash(request)
    with unit_of_work(), flat_step() if flat else nullcontext():  # the key row and the sale it answers: one transaction
        pk = keys.claim(request.user.pk, key, request.path, digest, timezone.now())
        if pk is None:
            if validate is not None:
                validate()  # a body the caller has not validated fully: its refusal comes first, as it always did
            record = keys.model.objects.get(user=request.user, key=key)
            if record.endpoint != request.path:
                raise DomainError("idempotency_key_reused", _("This idempotency key was used for another action."), status=422)
            if record.body_hash and record.body_hash != digest:
                raise DomainError("idempotency_key_mismatch", _("This idempotency key was used for a different request: start a new sale."), status=422)
            if record.response is None:
                raise DomainError("request_in_progress", _("The same request is still being processed."))
            response = Response(record.response, status=record.status_code)
            response["Idempotent-Replay"] = "true"
            return response
        response = compute()
        keys.answer(pk, response)
        return response
