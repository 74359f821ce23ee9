"""Pages of the seating app (included at the site root)."""

from django.urls import path

from . import views

urlpatterns = [
    path("tournaments/<int:pk>/tables/", views.table_map_page, name="seating-tables"),
    path("tournaments/<int:pk>/tables/slips/", views.move_slips, name="seating-slips"),
    path("tournaments/<int:pk>/tables/draws/<int:entry_id>/", views.draw_history_page, name="seating-draws"),
    path("seats/<int:pk>/", views.seat_lookup, name="seating-lookup"),
]
