"""The favicon and the web app manifest: a tablet keeps the dashboard on its home screen.

Both public (a browser asks for them before, and without, any login) and served under the
strict CSP like every response. The icons are drawn by ``static/icons/make_icons.py``.
"""

import hashlib
import json

from django.conf import settings
from django.http import FileResponse, Http404, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET

ICONS = settings.BASE_DIR / "static" / "icons"
THEME, BACKGROUND = "#0b1220", "#0b1220"


def icon_list():
    """The manifests' icons (their hashed names from the static build)."""
    return [
        {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {"src": static("icons/icon-maskable-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
        {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
    ]


@require_GET
@cache_control(public=True, max_age=7 * 24 * 3600)
def favicon(request):
    """``/favicon.ico``: every browser asks for it on every page."""
    path = ICONS / "favicon.ico"
    if not path.exists():
        raise Http404
    return FileResponse(path.open("rb"), content_type="image/x-icon")


@require_GET
@cache_control(public=True, max_age=3600)
def manifest(request):
    """The web app manifest: the name, the icons, the dashboard as the start, full screen."""
    data = {
        "name": "TDManager",
        "short_name": "TDManager",
        "description": _("Poker tournaments: desk, floor, clock and payouts"),
        "lang": getattr(request, "LANGUAGE_CODE", settings.LANGUAGE_CODE),
        "start_url": reverse("dashboard"),
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": icon_list(),
    }
    return JsonResponse(data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})


# The floor's app: the table map, the dealer's page, the floor tools and the clock control, all
# under /tournaments/. Its service worker is served from there, so its scope (the folder of its
# script) covers those pages and nothing else: not the phone page, not the desk.
FLOOR_SCOPE = "/tournaments/"
FLOOR_WORKER = settings.BASE_DIR / "static" / "floor-sw.js"
# What a floor page loads, cached when the worker installs: the page opens offline with all of it.
FLOOR_SHELL = ("tdm.css", "tdm.js", "seating.css", "live.js", "seating.js", "floor.js", "clock.js", "floor-queue.js", "icons/icon.svg")


def floor_version(shell: list[str]) -> str:
    """The worker's version: the hashed names of the shell (``static()`` of the static build)
    and the worker's own source. A new build of any of them is a new worker, and new caches."""
    digest = hashlib.sha256("\n".join(shell).encode())
    digest.update(FLOOR_WORKER.read_bytes())
    return digest.hexdigest()[:16]


@require_GET
@never_cache
def floor_worker(request):
    """``/tournaments/floor-sw.js``: the floor's service worker, with its version and the shell's
    hashed names written in front (its code is ``static/floor-sw.js``). Never cached by the
    browser: a tablet finds a new version at its next page load."""
    shell = [static(name) for name in FLOOR_SHELL]
    head = f"const VERSION = {json.dumps(floor_version(shell))};\nconst SHELL = {json.dumps(shell)};\nconst SCOPE = {json.dumps(FLOOR_SCOPE)};\n"
    response = HttpResponse(head + FLOOR_WORKER.read_text(encoding="utf-8"), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = FLOOR_SCOPE
    return response


@require_GET
@cache_control(public=True, max_age=3600)
def floor_manifest(request):
    """The floor's web app manifest: installed on a tablet, it opens on the floor overview and
    keeps the floor's pages (scope ``/tournaments/``) in its own window."""
    data = {
        "name": _("TDManager — floor"),
        "short_name": _("Floor"),
        "description": _("The table map, the dealer's page, the floor tools and the clock: they keep working through a Wi-Fi drop"),
        "lang": getattr(request, "LANGUAGE_CODE", settings.LANGUAGE_CODE),
        "id": FLOOR_SCOPE,
        "start_url": reverse("floor-overview"),
        "scope": FLOOR_SCOPE,
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": icon_list(),
    }
    return JsonResponse(data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})
