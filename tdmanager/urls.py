"""The URL conf: every app's pages and API, the API's schema and documentation, health."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView

from tdmanager import apischema, appicons, errorpages, trust
from tdmanager import auth_views as tdm_auth
from tdmanager.csp import csp_update

# The URL conf names each app's routes by module path: tdmanager, the ground floor, imports no app.
# The apps' routes match disjoint paths (tests/test_url_order.py), so their order decides only
# how many patterns a request tries before its own: seating's first, the floor's busts and slip
# confirmations (a few patterns) before the tournaments' many, so the most frequent calls resolve first.
api_v1 = [
    path("", include("seating.api_urls")),
    path("", include("tournaments.api_urls")),
    path("", include("payouts.api_urls")),
    path("", include("tournaments.formats.api_urls")),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("api/schema/", apischema.schema, name="schema"),  # public, built once: tdmanager.apischema
    # Both under the CSP: Swagger's init script is served apart (?script), ReDoc is started from static/.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="apidocs/swagger_ui.html"), name="api-docs"),
    path(
        "api/redoc/",
        csp_update(style_src=["'unsafe-inline'"], worker_src=["blob:"])(SpectacularRedocView.as_view(url_name="schema", template_name="apidocs/redoc.html")),
        name="api-redoc",
    ),
    # The language picker: Django's, and a staff login's choice kept with the login (tournaments.staff.languages).
    path("i18n/", include("tournaments.staff.languages")),
    path("favicon.ico", appicons.favicon, name="favicon"),
    path("manifest.webmanifest", appicons.manifest, name="manifest"),
    path("tournaments/floor-sw.js", appicons.floor_worker, name="floor-worker"),
    path("tournaments/floor.webmanifest", appicons.floor_manifest, name="floor-manifest"),
    # The room's certificate and how to install it (no login, on the plain port too): tdmanager.trust.
    path("trust/", trust.trust_page, name="trust"),
    path("trust/room-ca.crt", trust.ca_certificate, name="trust-ca"),
    path("trust/room-ca.mobileconfig", trust.ca_profile, name="trust-profile"),
    path("trust/check", trust.trust_check, name="trust-check"),
    path("login/", tdm_auth.LoginView.as_view(), name="login"),
    path("logout/", tdm_auth.LogoutView.as_view(), name="logout"),
    path("", include("seating.urls")),
    path("", include("payouts.urls")),
    path("", include("tournaments.formats.urls")),
    path("", include("tournaments.urls")),
]

# Under /api/ every error is {"code", "detail"} JSON; elsewhere Django's pages (tdmanager.errorpages).
handler400 = errorpages.bad_request
handler403 = errorpages.permission_denied
handler404 = errorpages.page_not_found
handler500 = errorpages.server_error
