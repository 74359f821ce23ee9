from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView
from rest_framework.routers import DefaultRouter

from tdmanager.csp import csp_update
from tdmanager import auth_views as tdm_auth
from tdmanager import errorpages
from tournaments import api as tapi
from tournaments import live
from tournaments import views as tviews

router = DefaultRouter()
router.register("people", tapi.PersonViewSet, basename="person")
router.register("structures", tapi.StructureViewSet, basename="structure")
router.register("tournaments", tapi.TournamentViewSet, basename="tournament")
router.register("entries", tapi.EntryViewSet, basename="entry")
router.register("screens", tapi.DisplayScreenViewSet, basename="screen")
router.register("chipsets", tapi.ChipSetViewSet, basename="chipset")

cashier_api = [
    path("register/", tapi.RegisterView.as_view(), name="api-register"),
    path("preregister/", tapi.PreRegisterView.as_view(), name="api-preregister"),
    path("pay/", tapi.PayReservationView.as_view(), name="api-pay"),
    path("cancel-reservation/", tapi.CancelReservationView.as_view(), name="api-cancel-reservation"),
    path("reenter/", tapi.ReenterView.as_view(), name="api-reenter"),
    path("rebuy/", tapi.RebuyView.as_view(), name="api-rebuy"),
    path("addon/", tapi.AddonView.as_view(), name="api-addon"),
    path("reverse/", tapi.ReverseView.as_view(), name="api-reverse"),
    path("refund/", tapi.RefundView.as_view(), name="api-refund"),
    path("alternates/", tapi.AddAlternateView.as_view(), name="api-alternate-add"),
    path("alternates/admit/", tapi.AdmitAlternateView.as_view(), name="api-alternate-admit"),
    path("shift/", tapi.ShiftView.as_view(), name="api-shift"),
    path("receipts/<int:number>/", tapi.ReceiptView.as_view(), name="api-receipt"),
]

api_v1 = [
    path("", include(router.urls)),
    path("cashier/", include(cashier_api)),
    path("auth/token/", tdm_auth.obtain_auth_token, name="api-token"),  # throttled: tdmanager.security
    path("tournaments/<int:pk>/clock/", tapi.ClockView.as_view(), name="api-clock"),
    path("tournaments/<int:pk>/clock/<slug:op>/", tapi.ClockView.as_view(), name="api-clock-op"),
    path("tournaments/<int:pk>/floor/", tapi.FloorView.as_view(), name="api-floor"),
    path("tournaments/<int:pk>/floor/<slug:op>/", tapi.FloorView.as_view(), name="api-floor-op"),
    path("penalties/<int:pk>/<slug:op>/", tapi.PenaltyActionView.as_view(), name="api-penalty-op"),
    path("people/<int:pk>/penalties/", tapi.PersonPenaltiesView.as_view(), name="api-person-penalties"),
    path("", include("seating.api_urls")),
    path("", include("payouts.api_urls")),
    path("", include("tournaments.formats.api_urls")),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # Both under the CSP: Swagger's init script is served apart (?script), ReDoc is started from static/.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="apidocs/swagger_ui.html"), name="api-docs"),
    path("api/redoc/", csp_update(style_src=["'unsafe-inline'"], worker_src=["blob:"])(
        SpectacularRedocView.as_view(url_name="schema", template_name="apidocs/redoc.html")), name="api-redoc"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("live/time/", live.live_time, name="live-time"),
    path("live/<int:pk>/state/", live.live_state, name="live-state"),
    path("live/<int:pk>/stream/", live.live_stream, name="live-stream"),
    path("display/<str:token>/", live.display, name="display"),
    path("login/", tdm_auth.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
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
