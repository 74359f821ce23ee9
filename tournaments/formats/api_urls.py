"""API routes of the formats app (included under /api/v1/)."""

from django.urls import path

from . import api

urlpatterns = [
    path("formats/sit-and-go/", api.SitAndGoCreateView.as_view(), name="api-formats-sng"),
    path("formats/multiday/", api.MultiDayCreateView.as_view(), name="api-formats-multiday-create"),
    path("formats/multiday/<int:pk>/", api.MultiDayView.as_view(), name="api-formats-multiday"),
    path("formats/multiday/<int:pk>/<slug:op>/", api.MultiDayView.as_view(), name="api-formats-multiday-op"),
    path("formats/flights/<int:pk>/", api.FlightView.as_view(), name="api-formats-flight"),
    path("formats/flights/<int:pk>/<slug:op>/", api.FlightView.as_view(), name="api-formats-flight-op"),
    path("formats/tournaments/<int:pk>/stack-options/", api.StackOptionsView.as_view(), name="api-formats-stack-options"),
    path("formats/tournaments/<int:pk>/stack-choice/", api.StackChoiceSaleView.as_view(), name="api-formats-stack-choice"),
    path("formats/headsup/", api.BracketCreateView.as_view(), name="api-formats-bracket-create"),
    path("formats/headsup/<int:pk>/", api.BracketView.as_view(), name="api-formats-bracket"),
    path("formats/headsup/<int:pk>/<slug:op>/", api.BracketView.as_view(), name="api-formats-bracket-op"),
    path("formats/matches/<int:pk>/", api.MatchView.as_view(), name="api-formats-match"),
    path("formats/matches/<int:pk>/<slug:op>/", api.MatchView.as_view(), name="api-formats-match-op"),
    path("formats/timed/", api.TimedCreateView.as_view(), name="api-formats-timed-create"),
    path("formats/timed/<int:pk>/", api.TimedView.as_view(), name="api-formats-timed"),
    path("formats/timed/<int:pk>/<slug:op>/", api.TimedView.as_view(), name="api-formats-timed-op"),
    path("formats/qualifier-groups/", api.QualifierGroupCreateView.as_view(), name="api-formats-qualifier-groups"),
    path("formats/series/", api.SeriesCreateView.as_view(), name="api-formats-series-create"),
    path("formats/series/<int:pk>/", api.SeriesView.as_view(), name="api-formats-series"),
    path("formats/series/<int:pk>/<slug:op>/", api.SeriesView.as_view(), name="api-formats-series-op"),
]
