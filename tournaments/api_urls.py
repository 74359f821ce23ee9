"""API routes of tournaments: people, structures, tournaments, entries, screens, chip sets,
the cashier desk, the clock and the floor tools (mounted under /api/v1/)."""

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from tournaments.oversight import api as oversight_api
from tournaments.screens import api as screens_api
from tournaments.staff import api as staff_api

from . import api as tapi
from .imports import api as imports_api

router = DefaultRouter()
router.register("people", tapi.PersonViewSet, basename="person")
router.register("structures", tapi.StructureViewSet, basename="structure")
router.register("tournaments", tapi.TournamentViewSet, basename="tournament")
router.register("tournament-templates", tapi.TournamentTemplateViewSet, basename="tournament-template")
router.register("entries", tapi.EntryViewSet, basename="entry")
router.register("screens", tapi.DisplayScreenViewSet, basename="screen")
router.register("chipsets", tapi.ChipSetViewSet, basename="chipset")

cashier_api = [
    path("register/", tapi.RegisterView.as_view(), name="api-register"),
    path("preregister/", tapi.PreRegisterView.as_view(), name="api-preregister"),
    path("pay/", tapi.PayReservationView.as_view(), name="api-pay"),
    path("cancel-reservation/", tapi.CancelReservationView.as_view(), name="api-cancel-reservation"),
    path("check-in/", tapi.CheckInView.as_view(), name="api-check-in"),
    path("check-in/document/", tapi.CheckInDocumentView.as_view(), name="api-check-in-document"),
    path("transfer-cleared/", tapi.TransferClearedView.as_view(), name="api-transfer-cleared"),
    path("presence/", tapi.PresenceView.as_view(), name="api-presence"),
    path("no-show/", tapi.NoShowView.as_view(), name="api-no-show"),
    path("arrival/", tapi.ArrivalView.as_view(), name="api-arrival"),
    path("settle/", tapi.SettleView.as_view(), name="api-settle"),
    path("owed/", tapi.OwedView.as_view(), name="api-owed"),
    path("offers/", tapi.DeskOffersView.as_view(), name="api-desk-offers"),
    path("reenter/", tapi.ReenterView.as_view(), name="api-reenter"),
    path("rebuy/", tapi.RebuyView.as_view(), name="api-rebuy"),
    path("rebuy/declare/", tapi.DeclareRebuyView.as_view(), name="api-rebuy-declare"),
    path("addon/", tapi.AddonView.as_view(), name="api-addon"),
    path("reverse/", tapi.ReverseView.as_view(), name="api-reverse"),
    path("refund/", tapi.RefundView.as_view(), name="api-refund"),
    path("refunds-due/pay/", tapi.RefundDuePayView.as_view(), name="api-refund-due-pay"),
    path("alternates/", tapi.AddAlternateView.as_view(), name="api-alternate-add"),
    path("alternates/admit/", tapi.AdmitAlternateView.as_view(), name="api-alternate-admit"),
    path("shift/", tapi.ShiftView.as_view(), name="api-shift"),
    path("sales/", tapi.SalesView.as_view(), name="api-sales"),
    path("exchange-rates/", tapi.ExchangeRatesView.as_view(), name="api-exchange-rates"),
    path("receipts/<int:number>/", tapi.ReceiptView.as_view(), name="api-receipt"),
]

urlpatterns = [
    path("screen-layouts/", screens_api.ScreenLayoutsView.as_view(), name="api-screen-layouts"),
    path("screen-layouts/<int:pk>/", screens_api.ScreenLayoutView.as_view(), name="api-screen-layout"),
    path("screen-layouts/export/", screens_api.ScreenLayoutExportView.as_view(), name="api-screen-layout-export"),
    path("screen-layouts/import/", screens_api.ScreenLayoutImportView.as_view(), name="api-screen-layout-import"),
    path("screen-images/", screens_api.ScreenImagesView.as_view(), name="api-screen-images"),
    path("", include(router.urls)),
    path("cashier/", include(cashier_api)),
    path("tournaments/<int:pk>/clock/", tapi.ClockView.as_view(), name="api-clock"),
    path("tournaments/<int:pk>/clock/<slug:op>/", tapi.ClockView.as_view(), name="api-clock-op"),
    path("tournaments/<int:pk>/changes/<int:version>/reason/", tapi.ChangeReasonView.as_view(), name="tournament-change-reason"),
    path("tournaments/<int:pk>/banned-paid/", tapi.BannedPaidView.as_view(), name="api-banned-paid"),
    path("tournaments/<int:pk>/declared-rebuys/", tapi.DeclaredRebuysView.as_view(), name="api-declared-rebuys"),
    path("tournaments/<int:pk>/refunds-due/", tapi.RefundsDueView.as_view(), name="api-refunds-due"),
    path("tournaments/<int:pk>/receivables/", tapi.ReceivablesView.as_view(), name="api-receivables"),
    path("tournaments/<int:pk>/floor/", tapi.FloorView.as_view(), name="api-floor"),
    path("tournaments/<int:pk>/floor/<slug:op>/", tapi.FloorView.as_view(), name="api-floor-op"),
    path("penalties/<int:pk>/<slug:op>/", tapi.PenaltyActionView.as_view(), name="api-penalty-op"),
    path("people/<int:pk>/penalties/", tapi.PersonPenaltiesView.as_view(), name="api-person-penalties"),
    path("auth/token/", staff_api.TokenLoginView.as_view(), name="api-token"),  # throttled: tdmanager.security
    path("auth/tokens/", staff_api.DeviceTokensView.as_view(), name="api-tokens"),
    path("auth/tokens/<int:token_id>/revoke/", staff_api.RevokeTokenView.as_view(), name="api-token-revoke"),
    path("staff/", tapi.StaffView.as_view(), name="api-staff"),
    path("staff/<int:pk>/", tapi.StaffLoginView.as_view(), name="api-staff-login"),
    path("staff/<int:pk>/<slug:op>/", tapi.StaffLoginView.as_view(), name="api-staff-login-op"),
    path("imports/<slug:kind>/preview/", imports_api.ImportPreviewView.as_view(), name="api-import-preview"),
    path("imports/<slug:kind>/", imports_api.ImportView.as_view(), name="api-import"),
    path("exports/<slug:kind>/", imports_api.ExportView.as_view(), name="api-export"),
    path("auth/lockouts/", staff_api.LoginLockoutsView.as_view(), name="api-login-lockouts"),
    path("auth/lockouts/lift/", staff_api.LiftLockoutView.as_view(), name="api-login-lockout-lift"),
    path("tournaments/<int:pk>/regulators/", oversight_api.RegulatorsView.as_view(), name="api-regulators"),
    path("tournaments/<int:pk>/witness/", oversight_api.WitnessView.as_view(), name="api-witness"),
    path("tournaments/<int:pk>/stub-reports/", oversight_api.StubReportsView.as_view(), name="api-stub-reports"),
    path("tournaments/<int:pk>/rulings/", oversight_api.RulingsView.as_view(), name="api-rulings"),
    path("tournaments/<int:pk>/rulings/<int:ruling_id>/notes/", oversight_api.RulingNotesView.as_view(), name="api-ruling-notes"),
]
