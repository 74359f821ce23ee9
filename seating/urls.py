"""Pages of the seating app (included at the site root)."""

from django.urls import path

from . import manual_views, room_views, views

urlpatterns = [
    path("room/", room_views.room_page, name="room-map"),
    path("room/<int:room_id>/", room_views.room_page, name="room-map-of"),
    path("room/<int:room_id>/push-list/", room_views.push_list, name="room-push-list"),
    path("room/<int:room_id>/dealers.csv", room_views.dealer_report_csv, name="room-dealers-csv"),
    path("room/<int:room_id>/dealers.pdf", room_views.dealer_report_pdf, name="room-dealers-pdf"),
    path("room/<int:room_id>/screen/", room_views.room_screen, name="room-screen"),
    path("tournaments/<int:pk>/tables/", views.table_map_page, name="seating-tables"),
    path("dealer/", views.dealer_home, name="dealer-home"),
    path("tournaments/<int:pk>/dealer/", views.dealer_table, name="dealer-table"),
    path("tournaments/<int:pk>/tables/slips/", views.move_slips, name="seating-slips"),
    path("tournaments/<int:pk>/tables/predraw/", manual_views.predraw_page, name="seating-predraw"),
    path("tournaments/<int:pk>/tables/draws/<int:entry_id>/", views.draw_history_page, name="seating-draws"),
    path("tournaments/<int:pk>/tables/seat-cards/", manual_views.seat_cards, name="seating-cards"),
    path("tournaments/<int:pk>/tables/seat-cards.pdf", manual_views.seat_cards_file, name="seating-cards-pdf"),
    path("tournaments/<int:pk>/tables/manual-draw/", manual_views.manual_draw_page, name="seating-manual-draw"),
    path("tournaments/<int:pk>/tables/constraints/", manual_views.constraints_page, name="seating-constraints"),
    path("seats/<int:pk>/", views.seat_lookup, name="seating-lookup"),
    path("seats/<int:pk>/find/", views.seat_lookup_find, name="seating-lookup-find"),
]
