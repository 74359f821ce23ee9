"""The pages of tournaments: each topic's views, by path."""

from django.urls import path

from tournaments.live import seats
from tournaments.live import views as live
from tournaments.oversight import views as oversight_views
from tournaments.phone import views as phone
from tournaments.rulebook import views as rulebook_views
from tournaments.screens import views as screen_views
from tournaments.staff import views as staff_views

from . import views
from .cashier import views as cashier_views
from .clock import views as clock_views
from .floor import views as floor_views
from .imports import views as import_views
from .notices import views as notices_views
from .people import views as people_views
from .setup import views as setup_views
from .structures import views as structures_views

urlpatterns = [
    path("live/time/", live.live_time, name="live-time"),
    path("live/<int:pk>/state/", live.live_state, name="live-state"),
    path("live/<int:pk>/stream/", live.live_stream, name="live-stream"),
    path("live/<int:pk>/seats/", seats.live_seats, name="live-seats"),
    path("display/<str:token>/", live.display, name="display"),
    path("overlay/<str:token>/", live.overlay, name="overlay"),
    path("p/sw.js", phone.phone_worker, name="phone-worker"),
    path("p/<str:token>/", phone.phone_page, name="phone"),
    path("p/<str:token>/state/", phone.phone_data, name="phone-state"),
    path("p/<str:token>/stream/", phone.phone_stream, name="phone-stream"),
    path("p/<str:token>/qr.svg", phone.phone_qr, name="phone-qr"),
    path("p/<str:token>/push/", notices_views.phone_push, name="phone-push"),
    path("rules/<int:pk>/", rulebook_views.rules_page, name="public-rules"),
    path("rules/<int:pk>/changes/", rulebook_views.public_changes, name="public-changes"),
    path("", views.dashboard, name="dashboard"),
    path("desk/", cashier_views.desk, name="desk"),
    path("desk/receipt/<int:number>/", cashier_views.receipt, name="receipt"),
    path("desk/receipt/<int:number>.pdf", cashier_views.receipt_pdf, name="receipt-pdf"),
    path("people/", people_views.people_page, name="people"),
    path("structures/", structures_views.structures_page, name="structures"),
    path("chipsets/", floor_views.chipsets_page, name="chipsets"),
    path("tournaments/new/", setup_views.tournament_edit, name="tournament-new"),
    path("tournaments/templates/", setup_views.templates_page, name="tournament-templates"),
    path("tournaments/overview/", floor_views.floor_overview, name="floor-overview"),
    path("tournaments/<int:pk>/", setup_views.tournament_detail, name="tournament"),
    path("tournaments/<int:pk>/edit/", setup_views.tournament_edit, name="tournament-edit"),
    path("tournaments/<int:pk>/clock/", clock_views.clock_page, name="clock-control"),
    path("displays/", screen_views.displays_page, name="displays"),
    path("screens/layouts/", screen_views.layouts_page, name="screen-layouts"),
    path("screens/layouts/<int:pk>/", screen_views.layout_editor, name="screen-layout-edit"),
    path("screens/layouts/preview/", screen_views.layout_preview, name="screen-layout-preview"),
    path("screens/layouts/export/", screen_views.layout_export, name="screen-layout-export"),
    path("screens/images/<str:digest>.png", live.screen_image, name="screen-image"),
    path("staff/", staff_views.staff_page, name="staff"),
    path("imports/", import_views.imports_page, name="imports"),
    path("imports/<slug:kind>/", import_views.upload_page, name="imports-upload"),
    path("imports/<slug:kind>/<int:pk>/", import_views.preview_page, name="imports-preview"),
    path("imports/<slug:kind>/<int:pk>/refused.<slug:fmt>", import_views.refused_rows, name="imports-refused"),
    path("exports/<slug:kind>.<slug:fmt>", import_views.export, name="imports-export"),
    path("logins/", staff_views.login_lockouts_page, name="login-lockouts"),
    path("devices/", staff_views.devices_page, name="devices"),
    path("tournaments/<int:pk>/floor/", floor_views.floor_page, name="floor-tools"),
    path("tournaments/<int:pk>/rulings/", oversight_views.rulings_page, name="rulings"),
    path("tournaments/<int:pk>/witness/", oversight_views.witness_page, name="witness"),
    path("people/<int:pk>/", people_views.person_page, name="person"),
]
