"""API plumbing shared by every app: the error format and the idempotency key."""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

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
        raise ValidationFailed("bad_parameter", _("'%(f)s' must be a whole number from %(a)s to %(b)s.") % {"f": name, "a": minimum, "b": cap},
                               fields={name: [_("Not a whole number.")]})
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


def query_choice(request, name: str, choices, default=None):
    """``?name=`` one of ``choices`` (the values the schema lists), ``default`` when absent; another is a 400."""
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if raw not in choices:
        raise ValidationFailed("bad_parameter", _("'%(f)s' must be one of: %(list)s.") % {"f": name, "list": ", ".join(choices)},
                               fields={name: [_("Not one of the choices.")]})
    return raw


def query_int(request, name: str, *, minimum: int = 1, maximum: int = 2**31 - 1):
    """An optional whole-number query parameter (an id, a number); anything else is a 400."""
    raw = request.query_params.get(name)
    if raw in (None, ""):
        return None
    try:
        value = int(raw)
    except (TypeError, ValueError):
        value = None
    if value is None or not (minimum <= value <= maximum):
        raise ValidationFailed("bad_parameter", _("'%(f)s' must be a whole number from %(a)s to %(b)s.") % {"f": name, "a": minimum, "b": maximum})
    return value

_CODES = {
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


def exception_handler(exc, context):
    """Every API error is ``{"code": ..., "detail": ...}`` with a 4xx status."""
    if isinstance(exc, DomainError):
        return Response(exc.as_dict(), status=exc.status)
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
        response.data = {"code": code, "detail": _("Some fields are not valid."), "fields": exc.detail}
    else:
        response.data = {"code": code, "detail": str(exc.detail)}
    return response

