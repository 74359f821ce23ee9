"""Error answers: ``{"code", "detail"}`` JSON for every status under ``/api/``, Django's pages elsewhere.

DRF views already answer their own errors through ``tdmanager.api.exception_handler``. What
happens outside them — an unknown URL, a body over its route's limit (``tdmanager.bodylimits``), a bad Host
header, a CSRF refusal, an unhandled exception — goes through the handlers below
(``handler404`` … in ``tdmanager.urls``) and ``ApiErrorMiddleware``, which refuses a body over
its route's limit on every path (Django's side of the limits: the one place it is checked) and
turns any error answer under /api/ that is not JSON yet into one. ``detail`` is in the request's
language.
"""

import json

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views import defaults

from . import bodylimits

API_PREFIX = "/api/"


def is_api(request) -> bool:
    return request.path.startswith(API_PREFIX)


def _messages():
    return {
        400: ("bad_request", _("The request is not valid.")),
        401: ("not_authenticated", _("Authentication credentials were not provided.")),
        403: ("permission_denied", _("You do not have permission to do this.")),
        404: ("not_found", _("Not found.")),
        405: ("method_not_allowed", _("This method is not allowed here.")),
        408: ("request_timeout", _("The request did not arrive in time.")),
        413: ("request_too_large", _("The request body is too large.")),
        429: ("throttled", _("Too many requests. Try again later.")),
        500: ("server_error", _("Something went wrong on the server. The error has been logged.")),
    }


def api_error(status: int, code: str | None = None, detail: str | None = None, **headers) -> JsonResponse:
    known = _messages()
    default_code, default_detail = known.get(status, known[500] if status >= 500 else known[400])
    response = JsonResponse({"code": code or default_code, "detail": detail or default_detail}, status=status)
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def loop_answer(status: int, path: str, language: str, said=None) -> tuple[int, list, bytes]:
    """An answer the web app gives from the event loop (``tdmanager.asgi``), its body unread or
    not read whole: status, headers, body; ``{"code", "detail"}`` under /api/, the detail as text
    elsewhere, in the client's language. The connection is closed after it. ``said``: a function
    giving (code, detail) of its own, else the status's."""
    with translation.override(language):
        code, detail = said() if said else _messages()[status]
    if path.startswith(API_PREFIX):
        body, kind = json.dumps({"code": code, "detail": detail}).encode(), b"application/json"
    else:
        body, kind = detail.encode(), b"text/plain; charset=utf-8"
    headers = [(b"content-type", kind), (b"content-length", str(len(body)).encode()), (b"connection", b"close")]
    return status, headers, body


def request_timeout(path: str, language: str) -> tuple[int, list, bytes]:
    """The 408 of a request whose body did not arrive within ``TDM_BODY_TIMEOUT`` seconds."""
    return loop_answer(408, path, language)


def busy_detail(kind: str) -> str:
    """What a file refused while another is being read (``bodylimits.file_turn``) is told, by
    its route's kind: a sheet to import is no image, and its reader is told so."""
    if kind == bodylimits.SHEET:
        return _("Other sheets are being read at this moment: try again in a moment.")
    return _("Other images are being read at this moment: try again in a moment.")


def busy_reading_file(path: str, language: str, kind: str = bodylimits.IMAGE) -> tuple[int, list, bytes]:
    """503 ``busy``: another image, layout file or sheet is being read in this process
    (``bodylimits.file_turn``); this one (of the route's ``kind``) was not read."""
    return loop_answer(503, path, language, lambda: ("busy", busy_detail(kind)))


def busy_page(request, detail: str, retry_after: int = 2):
    """503 ``busy`` from a view that could not take its turn to read a file (``bodylimits.file_turn``):
    under /api/ ``{"code", "detail"}``; a page in the product's look saying what is busy, with a
    link to ask again (a director reads it; a redirect to itself would be asked again at once).
    ``Retry-After`` on both."""
    if is_api(request):
        return api_error(503, "busy", detail, Retry_After=str(retry_after))
    response = render(request, "503.html", {"detail": detail}, status=503)
    response["Retry-After"] = str(retry_after)
    return response


def request_too_large(path: str, language: str) -> tuple[int, list, bytes]:
    """The 413 of a request whose body is over its route's limit (``tdmanager.bodylimits``),
    declared or received so far."""
    return loop_answer(413, path, language)


def bad_request(request, exception, template_name=defaults.ERROR_400_TEMPLATE_NAME):
    if is_api(request):
        if isinstance(exception, RequestDataTooBig):
            return api_error(413)
        return api_error(400)
    return defaults.bad_request(request, exception, template_name)


def permission_denied(request, exception, template_name=defaults.ERROR_403_TEMPLATE_NAME):
    if is_api(request):
        return api_error(403)
    return defaults.permission_denied(request, exception, template_name)


def page_not_found(request, exception, template_name=defaults.ERROR_404_TEMPLATE_NAME):
    if is_api(request):
        return api_error(404)
    return defaults.page_not_found(request, exception, template_name)


def server_error(request, template_name=defaults.ERROR_500_TEMPLATE_NAME):
    if is_api(request):
        return api_error(500)
    return defaults.server_error(request, template_name)


def _is_json(response) -> bool:
    return response.get("Content-Type", "").split(";")[0].strip().endswith("json")


def body_refusal(request):
    """The answer to a request whose body may not be read, else None: over its route's limit
    (``tdmanager.bodylimits``), 413, ``{"code": "request_too_large"}`` under /api/, elsewhere the
    line of text the web app answers from the event loop (``request_too_large``), in the
    request's language; a declared length that is no number, 400 under /api/ (elsewhere the
    request goes on: Django reads no body then)."""
    refused = bodylimits.too_large(request)
    if refused is None:
        return api_error(400) if is_api(request) else None
    if not refused:
        return None
    if is_api(request):
        return api_error(413)
    status, headers, content = request_too_large(request.path, translation.get_language())
    return HttpResponse(content, status=status, content_type=dict(headers)[b"content-type"].decode())


class ApiErrorMiddleware:
    """Refuse a body its route does not take before anything reads it (``body_refusal``), on
    every path: it runs after LocaleMiddleware and before the rest. The web app
    (``tdmanager.asgi``) has refused such a body already before reading it; this holds the same
    limits under the test client and any other server. Then, under /api/, make every other
    error answer JSON (a 405 from a plain Django view, a CSRF page, DEBUG's technical 404…).
    With DEBUG on, a 500 keeps Django's traceback page."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        refusal = body_refusal(request)
        if refusal is not None:
            return refusal
        if not is_api(request):
            return self.get_response(request)
        response = self.get_response(request)
        if response.status_code >= 400 and not _is_json(response) and not getattr(response, "streaming", False):
            if response.status_code >= 500 and settings.DEBUG:
                return response
            data = getattr(response, "data", None)  # a DRF answer rendered as HTML (browsable API)
            if isinstance(data, dict) and "code" in data and "detail" in data:
                replaced = JsonResponse(data, status=response.status_code)
            else:
                replaced = api_error(response.status_code)
            for header in ("Allow", "Retry-After", "WWW-Authenticate"):
                if header in response:
                    replaced[header] = response[header]
            return replaced
        return response

    def process_exception(self, request, exception):
        if is_api(request) and isinstance(exception, RequestDataTooBig):
            return api_error(413)
        return None
