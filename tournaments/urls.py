from django.urls import path

from . import live, live_seats, oversight_views, phone, views

urlpatterns = [
    path("live/time/", live.live_time, name="live-time"),
    path("live/<int:pk>/state/", live.live_state, name="live-state"),
    path("live/<int:pk>/stream/", live.live_stream, name="live-stream"),
    path("live/<int:pk>/seats/", live_seats.live_seats, name="live-seats"),
    path("display/<str:token>/", live.display, name="display"),
    path("p/<str:token>/", phone.phone_page, name="phone"),
    path("p/<str:token>/state/", phone.phone_data, name="phone-state"),
    path("p/<str:token>/stream/", phone.phone_stream, name="phone-stream"),
    path("p/<str:token>/qr.svg", phone.phone_qr, name="phone-qr"),
    path("", views.dashboard, name="dashboard"),
    path("desk/", views.desk, name="desk"),
    path("desk/receipt/<int:number>/", views.receipt, name="receipt"),
    path("desk/receipt/<int:number>.pdf", views.receipt_pdf, name="receipt-pdf"),
    path("people/", views.people_page, name="people"),
    path("structures/", views.structures_page, name="structures"),
    path("chipsets/", views.chipsets_page, name="chipsets"),
    path("tournaments/new/", views.tournament_edit, name="tournament-new"),
    path("tournaments/templates/", views.templates_page, name="tournament-templates"),
    path("tournaments/overview/", views.floor_overview, name="floor-overview"),
    path("tournaments/<int:pk>/", views.tournament_detail, name="tournament"),
    path("tournaments/<int:pk>/edit/", views.tournament_edit, name="tournament-edit"),
    path("tournaments/<int:pk>/clock/", views.clock_page, name="clock-control"),
    path("displays/", views.displays_page, name="displays"),
    path("logins/", oversight_views.login_lockouts_page, name="login-lockouts"),
    path("tournaments/<int:pk>/floor/", views.floor_page, name="floor-tools"),
    path("tournaments/<int:pk>/rulings/", oversight_views.rulings_page, name="rulings"),
    path("tournaments/<int:pk>/witness/", oversight_views.witness_page, name="witness"),
    path("people/<int:pk>/", views.person_page, name="person"),
]
