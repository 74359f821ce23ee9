"""Pages of the payouts app (included at the site root)."""

from django.urls import path

from . import views

urlpatterns = [
    path("tournaments/<int:pk>/payouts/", views.tournament_payouts, name="payouts-tournament"),
    path("tournaments/<int:pk>/payouts/deal/", views.deal_page, name="payouts-deal"),
    path("tournaments/<int:pk>/payouts/reports/<slug:name>.<str:fmt>", views.report, name="payouts-report"),
    path("tournaments/<int:pk>/payouts/results.<str:fmt>", views.results_file, name="payouts-results"),
    path("payouts/due/", views.due, name="payouts-due"),
    path("payouts/slip/<int:number>/", views.slip, name="payouts-slip"),
    path("payouts/slip/<int:number>.pdf", views.slip_pdf, name="payouts-slip-pdf"),
]
