"""API plumbing shared by every app: the error format and the idempotency key."""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler

from .authentication import TokenExpired
from .errors import DomainError, ValidationFailed

MAX_LIMIT = 500
MAX_OFFSET = 10**9


def _count_param(request, name: str, minimum: int, cap: int):
    """``?name=`` as a whole number ≥ ``minimum`` (at most ``cap``: more counts as ``cap``), None
    when absent; anything else (``null``, ``true``, ``1.5``, ``-1``, empty) is a 400 naming it."""
    raw = request.query_params.get(name)
    if raw is None:
        return None
    text = raw.strip()
    if not (text.isascii() and text.isdigit()) or (len(text) <= 18 and int(text) < minimum):
        raise ValidationFailed(
            "bad_parameter",
            _("'%(f)s' must be a whole number from %(a)s to %(b)s.") % {"f": name, "a": minimum, "b": cap},
            fields={name: [_("Not a whole number.")]},
        )
    return cap if len(text) > 18 else min(int(text), cap)


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    """``?limit=&offset=`` with a ceiling: a limit above ``MAX_LIMIT`` gives ``MAX_LIMIT`` rows,
    an offset past any table gives an empty page (never a number the database cannot take); a
    value that is not a whole number (a limit below 1, ``null``, ``true``) is a 400, as the
    schema says (integers)."""

    max_limit = MAX_LIMIT

    def get_limit(self, request):
        limit = _count_param(request, self.limit_query_param, 1, MAX_LIMIT)
        return self.default_limit if limit is None else limit

    def get_offset(self, request):
        return _count_param(request, self.offset_query_param, 0, MAX_OFFSET) or 0


def body_object(request) -> dict:
    """The request's body where an object is expected: a list, a string or a number is a 400."""
    data = request.data
    if not isinstance(data, dict):
        raise ValidationFailed("bad_body", _("The body must be a JSON object."))
    return data


def object_id(raw):
    """An id from a page's form or query string: a whole number, else no such object (404)."""
    text = str(raw if raw is not None else "").strip()
    if not (text.isascii() and text.isdigit() and len(text) < 19):
        raise Http404(_("No such object."))
    return int(text)


def query_limit(request, default: int, maximum: int = MAX_LIMIT) -> int:
    """A list's ``?limit=`` outside pagination, read the way the pagination reads it."""
    value = _count_param(request, "limit", 1, maximum)
    return default if value is None else value


def query_offset(request) -> int:
    """A list's ``?offset=`` outside pagination (the rows to skip, newest first: the earlier ones
    of a long list), read the way the pagination reads it; 0 when absent."""
    return _count_param(request, "offset", 0, MAX_OFFSET) or 0


def query_choice(request, name: str, choices, default=None):
    """``?name=`` one of ``choices`` (the values the schema lists), ``default`` when absent; another is a 400."""
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if raw not in choices:
        raise ValidationFailed(
            "bad_parameter", _("'%(f)s' must be one of: %(list)s.") % {"f": name, "list": ", ".join(choices)}, fields={name: [_("Not one of the choices.")]}
        )
    return raw


def query_int(request, name: str, *, minimum: int = 1, maximum: int = 2**31 - 1):
    """An optional whole-number query parameter (an id, a number); anything else is a 400."""
    raw = request.query_params.get(name)
    if raw is None:
        return None
    try:
        value = int(raw) if raw.strip().isdigit() else None
    except (TypeError, ValueError):
        value = None
    if value is None or not (minimum <= value <= maximum):
        raise ValidationFailed("bad_parameter", _("'%(f)s' must be a whole number from %(a)s to %(b)s.") % {"f": name, "a": minimum, "b": maximum})
    return value


_CODES = {
    TokenExpired: "token_expired",  # before its parent: the first class that matches names the code
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.ParseError: "parse_error",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.Throttled: "throttled",
    exceptions.ValidationError: "invalid",
}


#: How a person calls an input field whose serializer gives no label of its own (DRF then makes
#: one from the name, in English): the same field name means the same thing in every serializer.
FIELD_NAMES = {
    "person": gettext_lazy("Player"),
    "person_a": gettext_lazy("First player"),
    "person_b": gettext_lazy("Second player"),
    "entry": gettext_lazy("Entry"),
    "tournament": gettext_lazy("Tournament"),
    "expenses": gettext_lazy("Expenses"),
    "channel": gettext_lazy("Channel"),
    "seconds": gettext_lazy("Seconds"),
    "seconds_per_hand": gettext_lazy("Seconds per hand"),
    "color_up": gettext_lazy("Color-up"),
    "from_denomination": gettext_lazy("From denomination"),
    "to_denomination": gettext_lazy("To denomination"),
    "removed_denomination": gettext_lazy("Removed denomination"),
    "new_denomination": gettext_lazy("New denomination"),
    "lowest_denomination_in_play": gettext_lazy("Lowest denomination in play"),
    "removed_value": gettext_lazy("Chips of the removed colour (value)"),
    "odd_value": gettext_lazy("Odd chips (value)"),
    "stack": gettext_lazy("Stack"),
    "stack_after_exchange": gettext_lazy("Stack after the exchange"),
    "stacks": gettext_lazy("Stacks"),
    "reason_code": gettext_lazy("Reason"),
    "heads_up_reading": gettext_lazy("Heads-up: how the rounds count (missed rounds)"),
    "between_hands": gettext_lazy("Between hands"),
    "late_reg_end": gettext_lazy("Late registration ends"),
    "fee_preset": gettext_lazy("Fee"),
    "override_reason": gettext_lazy("Reason for changing prices"),
    "counts": gettext_lazy("Counts"),
    "occasion": gettext_lazy("Occasion"),
    "to_table": gettext_lazy("To table"),
    "to_seat": gettext_lazy("To seat"),
    "table_number": gettext_lazy("Table"),
    "table": gettext_lazy("Table"),
    "seat": gettext_lazy("Seat"),
    "target": gettext_lazy("Target tournament"),
    "amounts": gettext_lazy("Amounts"),
    "reserve": gettext_lazy("Reserve"),
    "prizes": gettext_lazy("Prizes"),
    "percents": gettext_lazy("Percentages"),
    "kind": gettext_lazy("Type"),
    "start_at": gettext_lazy("Start"),
    "receipt_number": gettext_lazy("Receipt"),
    "base_currency": gettext_lazy("Base currency"),
    "tender_currency": gettext_lazy("Currency paid in"),
    "presence": gettext_lazy("Presence"),
    "id_checked": gettext_lazy("Identity document checked"),
    "big_blind_seat": gettext_lazy("Big blind seat"),
    "previous_big_blind_seat": gettext_lazy("Previous big blind seat"),
    "last_hand_small_blind_seat": gettext_lazy("Small blind seat of the last hand"),
    "prize_base": gettext_lazy("Prize base"),
    "remainder_rule": gettext_lazy("Remainder rule"),
    "already_registered": gettext_lazy("Already registered"),
    "source": gettext_lazy("Source"),
    "base": gettext_lazy("Base"),
    "both_hole_cards": gettext_lazy("Both hole cards"),
    "busts": gettext_lazy("Eliminations"),
    "awards": gettext_lazy("Awards"),
}


def _field_of(serializer, name):
    """The field ``name`` of ``serializer`` (a list's child's), else None."""
    serializer = getattr(serializer, "child", serializer)
    try:
        return serializer.fields.get(name)
    except AttributeError:  # not a serializer (a plain field, None)
        return None


def _label(field, name) -> str:
    """How a person calls a field: its label (a model field's verbose name, translated), else its
    name in words; a position in a list is "row N" (counted from 1)."""
    if str(name).isdigit():
        return _("row %(n)s") % {"n": int(name) + 1}
    label = getattr(field, "label", None)
    if not label or label == str(name).replace("_", " ").capitalize():  # no label, or DRF's from the name
        if name in FIELD_NAMES:
            return str(FIELD_NAMES[name])
        if not label:
            return capfirst(str(name).replace("_", " "))
    if not isinstance(label, str):  # lazy: translated as it is read
        return str(capfirst(label))
    # A label DRF made from the name ("Rebuy chips"; it gives none when the model's verbose name
    # reads the same in English): the model field's verbose name, else the label's translation.
    model = getattr(getattr(getattr(field, "parent", None), "Meta", None), "model", None)
    try:
        verbose = model._meta.get_field(field.source).verbose_name if model is not None else None
    except Exception:  # noqa: BLE001 - not a model field (a declared one, a dotted source)
        verbose = None
    if verbose is not None and not isinstance(verbose, str):
        return str(capfirst(verbose))
    translated = _(label)
    return translated if translated != label else str(capfirst(_(label.lower())))


def _named_lines(errors, serializer, where=""):
    """``"Label: message"`` for every message of a serializer's errors, nested ones as
    ``"Denominations, row 2, Quantity: …"``; errors not of one field carry no label."""
    if isinstance(errors, dict):
        for name, value in errors.items():
            if name == api_settings.NON_FIELD_ERRORS_KEY:
                yield from _named_lines(value, serializer, where)
                continue
            field = getattr(serializer, "child", None) if str(name).isdigit() else _field_of(serializer, name)  # a row of a list
            label = _label(field, name)
            yield from _named_lines(value, field, f"{where}, {label}" if where else label)
    elif isinstance(errors, (list, tuple)):
        if all(isinstance(e, str) for e in errors):
            for message in errors:
                yield f"{where}: {message}" if where else str(message)
        else:  # a list serializer's answer: one entry per row, {} for a good one
            child = getattr(serializer, "child", serializer)
            for i, value in enumerate(errors):
                if value:
                    row = _label(None, i)
                    yield from _named_lines(value, child, f"{where}, {row}" if where else row)
    elif errors:
        yield f"{where}: {errors}" if where else str(errors)


def _view_serializer(context):
    """The serializer of the view that answered (for errors raised outside ``is_valid``)."""
    view = (context or {}).get("view")
    try:
        return view.get_serializer()
    except Exception:  # noqa: BLE001 - a view without one (APIView), or one that needs more: labels from names
        return None


def named_detail(fields, serializer) -> str:
    """The refusal of a form in words: each field by its name in the user's language, with its message."""
    return " ".join(line if line.endswith((".", "!", "?")) else line + "." for line in _named_lines(fields, serializer)) or _("Some fields are not valid.")


def exception_handler(exc, context):
    """Every API error is ``{"code": ..., "detail": ...}`` with a 4xx status. A refused form's
    ``detail`` names each field in words with its message (``fields`` keeps them by key)."""
    if isinstance(exc, DomainError):
        data = exc.as_dict()
        if isinstance(data.get("fields"), dict) and data["detail"] == _("Some fields are not valid."):
            data["detail"] = named_detail(data["fields"], _view_serializer(context))
        return Response(data, status=exc.status)
    if isinstance(exc, (Http404, OverflowError)):
        # OverflowError: an id in the URL larger than any the database can hold (SQLite) names nothing.
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    code = next((c for cls, c in _CODES.items() if isinstance(exc, cls)), "error")
    if isinstance(exc, exceptions.ValidationError):
        serializer = getattr(exc.detail, "serializer", None) or _view_serializer(context)  # DRF keeps is_valid's serializer
        response.data = {"code": code, "detail": named_detail(exc.detail, serializer), "fields": exc.detail}
    else:
        response.data = {"code": code, "detail": str(exc.detail)}
    return response
