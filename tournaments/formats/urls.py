"""Pages of the formats app (included at the site root)."""

from django.urls import path

from . import views

urlpatterns = [
    path("formats/", views.index, name="formats"),
    path("formats/sit-and-go/new/", views.sit_and_go_new, name="formats-sng-new"),
    path("formats/multiday/new/", views.multiday_new, name="formats-multiday-new"),
    path("formats/multiday/<int:pk>/", views.multiday_page, name="formats-multiday"),
    path("formats/tournaments/<int:pk>/stack-choice/", views.stack_choice_page, name="formats-stack-choice"),
    path("formats/headsup/new/", views.headsup_new, name="formats-headsup-new"),
    path("formats/headsup/<int:pk>/", views.headsup_page, name="formats-headsup"),
    path("formats/headsup/<int:pk>/bracket/", views.bracket_display, name="formats-bracket-display"),
    path("formats/timed/new/", views.timed_new, name="formats-timed-new"),
    path("formats/timed/<int:pk>/", views.timed_page, name="formats-timed"),
    path("formats/qualifiers/new/", views.qualifiers_new, name="formats-qualifiers-new"),
    path("formats/series/new/", views.series_new, name="formats-series-new"),
    path("formats/series/<int:pk>/", views.series_page, name="formats-series"),
    path("formats/series/<int:pk>/leaderboard/", views.leaderboard_display, name="formats-leaderboard"),
]
