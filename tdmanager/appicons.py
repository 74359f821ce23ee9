"""The favicon and the web app manifest: a tablet keeps the dashboard on its home screen.

Both public (a browser asks for them before, and without, any login) and served under the
strict CSP like every response. The icons are drawn by ``static/icons/make_icons.py``.
"""

from django.conf import settings
from django.http import FileResponse, Http404, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

ICONS = settings.BASE_DIR / "static" / "icons"
THEME, BACKGROUND = "#0b1220", "#0b1220"


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
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": static("icons/icon-maskable-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
            {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})
