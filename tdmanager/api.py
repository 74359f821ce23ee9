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


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    """``?limit=&offset=`` with a ceiling: a limit above ``MAX_LIMIT`` gives ``MAX_LIMIT`` rows,
    one that is not a positive whole number gives the default page, an offset past any table
    gives an empty page (never a number the database cannot take)."""

    max_limit = MAX_LIMIT

    def get_offset(self, request):
        return min(super().get_offset(request), MAX_OFFSET)


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
    raw = request.query_params.get("limit", "")
    try:
        value = int(raw)
    except (TypeError, ValueError):
        return default
    return default if value <= 0 else min(value, maximum)


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

