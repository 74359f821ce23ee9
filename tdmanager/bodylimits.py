"""How large a request's body may be, per kind of route: one place for the web app (which refuses
before it reads: ``tdmanager.asgi``) and for Django's side (``errorpages.ApiErrorMiddleware``, which
answers it), so that uvicorn, the test client and any other server agree.

Most routes take a small body: an API call's JSON, a page's form. Anyone may send one to the
login, the token endpoint and the public pages before any login is checked, so the small limits
are what an anonymous client can make a process hold. Two routes take files, for the staff: an
image for the lobby screens (``IMAGE_FILE``, the figure the layouts service refuses past) and a
layout file exported by another room (``LAYOUT_FILE``), a sheet to import (``SHEET_FILE``). Their limits leave ``MULTIPART_ROOM``
for what a form adds around the file (boundaries, the part heads, the other fields).

The limits themselves are settings (docs/operating.md, "Request bodies"): ``TDM_BODY_JSON``,
``TDM_BODY_FORM``, ``TDM_BODY_IMAGE``, ``TDM_BODY_LAYOUT``, ``TDM_BODY_SHEET``; Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE``
is the largest of them. Kept free of Django imports at module level: the
settings module reads the figures below.
"""

import contextlib
import threading
from functools import lru_cache

IMAGE_FILE = 5 * 1024 * 1024  # an image for the lobby screens (tournaments.screens.services)
LAYOUT_FILE = 8 * 1024 * 1024  # an exported layout, its images inside (base64 PNGs)
SHEET_FILE = 10 * 1024 * 1024  # a sheet to import (tdmanager.sheets): 100,000 people are about 12 MB as CSV, 5 as XLSX
MULTIPART_ROOM = 64 * 1024  # a form's own bytes around its file
#: a request with a body larger than this (a file: the small limits are below it) is followed by
#: a collection of reference cycles, which frees what it was parsed into (``tdmanager.asgi``)
COLLECT_AFTER = 1024 * 1024

JSON, FORM, IMAGE, LAYOUT, SHEET = "json", "form", "image", "layout", "sheet"

#: One file (an image upload, a layout import, a sheet) read at a time in a process: its body, what it is
#: parsed into and its decodes are what costs memory. The web app takes the turn before it reads
#: such a body and refuses the next one 503 ``busy`` at once, unread (``tdmanager.asgi``); served
#: otherwise (the test client, a WSGI server), the view takes it (``file_turn``).
_file_turn = threading.BoundedSemaphore(1)


#: the WSGI environ's key the web app sets when it took the file turn for a request
TURN_HELD = "tdmanager.file_turn"


class Busy(Exception):
    """Another file is being read in this process."""


@contextlib.contextmanager
def file_turn(held: bool = False):
    """This process's turn to read a file, held to the end of the block; ``Busy`` at once when
    another has it. ``held``: the web app took it for this request already (nothing to take)."""
    if held:
        yield
        return
    if not _file_turn.acquire(blocking=False):
        raise Busy
    try:
        yield
    finally:
        _file_turn.release()


def takes_file(kind: str, declared: int, chunked: bool) -> bool:
    """Whether a request's body is a file's: on a file route, over ``COLLECT_AFTER`` or sent in
    chunks of no declared length (a small form on the layouts page, a delete, a GET is not)."""
    return kind in (IMAGE, LAYOUT, SHEET) and (chunked or declared > COLLECT_AFTER)


#: The routes (URL names) that take more than the small limits; every other takes JSON under
#: /api/, a form elsewhere. The layouts page takes both an image and a layout file (one URL, its
#: ``op`` says which), so the larger.
ROUTES = {
    "api-screen-images": IMAGE,
    "api-screen-layout-import": LAYOUT,
    "screen-layouts": LAYOUT,
    "imports-upload": SHEET,
    "api-import": SHEET,
    "api-import-preview": SHEET,
}


def kind_of(url_name: str | None, path: str) -> str:
    """The kind of a route, by its URL name (None: no view answers the path)."""
    found = ROUTES.get(url_name) if url_name else None
    return found or (JSON if path.startswith("/api/") else FORM)


def limit(kind: str) -> int | None:
    """The most bytes a body of this kind may have (None: no limit, as Django's setting allows)."""
    from django.conf import settings

    return {
        JSON: settings.TDM_BODY_JSON,
        FORM: settings.TDM_BODY_FORM,
        IMAGE: settings.TDM_BODY_IMAGE,
        LAYOUT: settings.TDM_BODY_LAYOUT,
        SHEET: settings.TDM_BODY_SHEET,
    }[kind]


@lru_cache(maxsize=4096)
def _kind_of_path(urlconf: str, path_info: str) -> str:
    from django.urls import Resolver404, resolve

    try:
        name = resolve(path_info, urlconf).url_name
    except Resolver404:
        name = None
    except Exception:  # a path the resolver chokes on: its view (none) will say so
        name = None
    return kind_of(name, path_info)


def request_limit(request) -> int | None:
    """The limit of a Django request's route."""
    from django.conf import settings

    urlconf = getattr(request, "urlconf", None) or settings.ROOT_URLCONF
    return limit(_kind_of_path(urlconf, request.path_info))


def _spooled_size(request) -> int:
    """A body sent without Content-Length (chunked) has been received whole by the ASGI handler
    into a seekable file: its size. Django and DRF would not look at it, but it was sent."""
    stream = getattr(request, "_stream", None)
    try:
        if stream is None or not stream.seekable():
            return 0
        here = stream.tell()
        size = stream.seek(0, 2)
        stream.seek(here)
        return size
    except (AttributeError, OSError, ValueError):
        return 0


def too_large(request) -> bool | None:
    """Whether the request's body is over its route's limit (declared, or received whole without
    a length); None when its declared length is not a number."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return None
    most = request_limit(request)
    return most is not None and (length > most or (not length and _spooled_size(request) > most))
