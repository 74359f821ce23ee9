"""Django's message middleware, left out of the API's requests; the API's JSON bodies are
objects; no NUL character reaches a query; static files served from an index made once."""

import re
from pathlib import Path

from django.contrib.messages.middleware import MessageMiddleware
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.utils.translation import gettext as _
from django.views import defaults
from whitenoise.middleware import WhiteNoiseMiddleware

from . import staticbuild
from .errorpages import api_error, is_api

_BODY_METHODS = frozenset(("POST", "PUT", "PATCH"))


class PageMessageMiddleware(MessageMiddleware):
    """Django's ``MessageMiddleware`` for pages; under /api/ nothing: no API view adds a message
    or shows one, so making the request's message store (a cookie signer, the session's store)
    would be work every API call pays for nothing. A page still shows the messages an earlier page
    left, whatever API calls came in between (they never read the store)."""

    def process_request(self, request):
        if not is_api(request):
            super().process_request(request)  # Django's process_response skips a request without a store


class JsonObjectBodyMiddleware:
    """Every request body the API takes is a JSON object (the schema says so for each
    operation). ``tdmanager.jsonbody.BoundedJSONParser`` refuses any other when a view reads its
    body; this refuses it before the view, so that an action that reads nothing (lock the payout
    table, back to the proposal) does not answer 200 to ``[null, null]``: 400 ``bad_body``. Only
    the first character is looked at; the parser reads the rest."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if request.method not in _BODY_METHODS or request.content_type != "application/json" or not is_api(request):
            return None
        body = request.body.lstrip(b" \t\r\n")
        if body and not body.startswith(b"{"):
            return api_error(400, "bad_body", _("The body must be a JSON object."))
        return None


def is_image(content: bytes) -> bool:
    """The file starts as a PNG, JPEG, GIF or WebP image does (whatever name or type the sender
    gave it): bytes its service decodes, never text."""
    return content.startswith((b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a")) or (content[:4] == b"RIFF" and content[8:12] == b"WEBP")


_IMAGE_FIELD = re.compile(rb'(?:^|[;\s])name="image"(?:;|\s|$)', re.MULTILINE)  # not a file called "image"


def is_workbook(content: bytes) -> bool:
    """The file is a zip (an XLSX workbook to import): bytes only the sheets' reader opens
    (``tdmanager.sheets``, which gives no NUL of it to anything else)."""
    return content.startswith(b"PK\x03\x04")


def _is_image_field(head: bytes) -> bool:
    """The part is the file of an image upload's ``image`` field: only the image services read
    it, as bytes they decode (a file that is no image is theirs to refuse, ``bad_image``), never
    as text for a query."""
    return _IMAGE_FIELD.search(head) is not None


def carries_nul(request) -> bool:
    """Whether a NUL character is anywhere a view or a middleware could put it in a query: the
    path, the query string, a cookie (the session's key), a header (a token) or the body (a
    form's field, a JSON string's ``\\u0000``, an uploaded file: text, but for an image,
    ``is_image``, a workbook, ``is_workbook``, and the file of an image upload's ``image``
    field, whatever it holds). The body
    is read as bytes, never parsed here: the view's parsers still decide what they accept."""
    if "\x00" in request.path:  # the script's prefix and path_info
        return True
    if any("\x00" in key or any("\x00" in v for v in values) for key, values in request.GET.lists()):
        return True
    if any("\x00" in key or "\x00" in value for key, value in request.COOKIES.items()):
        return True
    if any("\x00" in value for key, value in request.META.items() if key.startswith("HTTP_") and isinstance(value, str)):
        return True
    if request.method not in _BODY_METHODS:
        return False
    try:
        body = request.body
    except RequestDataTooBig:
        return False  # the view refuses it as too large (413)
    if request.content_type == "multipart/form-data" and b"\x00" in body:
        # an image is bytes, NUL included (a logo for the screens, decoded and encoded
        # again by its service), so is a workbook (a sheet to import); every other part (a field, a file's name, a text file) is text.
        # The parts are looked at as bytes: the body is parsed by the view's parsers, never here.
        boundary = (request.content_params or {}).get("boundary", "").encode("utf-8", "replace")
        for part in body.split(b"--" + boundary) if boundary else [body]:
            head, _, content = part.partition(b"\r\n\r\n")
            binary = is_image(content) or is_workbook(content) or _is_image_field(head)
            if b"\x00" in head or (b"\x00" in content and not (b"filename=" in head and binary)):
                return True
        return False
    if b"\x00" in body:
        return True
    if request.content_type == "application/x-www-form-urlencoded":
        return b"%00" in body
    return b"\\u0000" in body  # a JSON string's escape (the API's bodies are JSON)


class RefuseNulMiddleware:
    """A NUL character is text no field holds, and PostgreSQL refuses it in any text it is given
    (``DataError``: a server error, logged each time). A request that carries one anywhere is
    refused before anything reads the database: 400, ``{"code": "nul_character"}`` under /api/.
    It runs before the session, the login and the views are asked anything."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not carries_nul(request):
            return self.get_response(request)
        if is_api(request):
            return api_error(400, "nul_character", _("The request contains a NUL character (%00), which no field accepts."))
        return defaults.bad_request(request, SuspiciousOperation("a NUL character in the request"))


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    """WhiteNoise, its index of the collected files made once per process for each collection.

    WhiteNoise lists STATIC_ROOT (stat calls on some 800 files, 60–100 ms) whenever the middleware
    is loaded: once in a web process, but once per client in Django's test client, hundreds of
    times a test run. The index is kept, keyed by the fingerprint ``staticbuild`` writes with each
    collection: files collected again are listed again."""

    _indexes: dict = {}

    def update_files_dictionary(self, root, prefix):
        try:
            key = (root, prefix, (Path(root) / staticbuild.STAMP).read_text())
        except OSError:  # not collected by staticbuild: nothing to key the index on
            return super().update_files_dictionary(root, prefix)
        if key not in self._indexes:
            before = dict(self.files)
            super().update_files_dictionary(root, prefix)
            self._indexes[key] = {url: f for url, f in self.files.items() if before.get(url) is not f}
        self.files.update(self._indexes[key])
