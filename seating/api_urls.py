"""API routes of the seating app (included under /api/v1/)."""

from django.urls import path

from . import api, room_api

urlpatterns = [
    path("rooms/", room_api.RoomsView.as_view(), name="api-rooms"),
    path("rooms/<int:room_id>/", room_api.RoomDetailView.as_view(), name="api-room"),
    path("rooms/<int:room_id>/tables/", room_api.RoomTablesView.as_view(), name="api-room-tables"),
    path("rooms/<int:room_id>/tables/range/", room_api.RoomTableRangeView.as_view(), name="api-room-table-range"),
    path("rooms/<int:room_id>/tables/<int:number>/", room_api.RoomTableView.as_view(), name="api-room-table"),
    path("rooms/<int:room_id>/tables/<int:number>/<slug:op>/", room_api.RoomTableActionView.as_view(), name="api-room-table-op"),
    path("rooms/<int:room_id>/dealers/", room_api.RoomDealersView.as_view(), name="api-room-dealers"),
    path("rooms/<int:room_id>/dealers/<int:shift_id>/", room_api.RoomShiftView.as_view(), name="api-room-shift"),
    path("rooms/<int:room_id>/push/", room_api.RoomPushView.as_view(), name="api-room-push"),
    path("rooms/<int:room_id>/rotation/", room_api.RoomRotationView.as_view(), name="api-room-rotation"),
    path("rooms/<int:room_id>/bring-in/", room_api.RoomBringInView.as_view(), name="api-room-bring-in"),
    path("rooms/<int:room_id>/dealers/report/", room_api.RoomDealerReportView.as_view(), name="api-room-dealer-report"),
    path("tournaments/<int:pk>/tables/", api.TableMapView.as_view(), name="api-seating-tables"),
    path("tournaments/<int:pk>/tables/<int:number>/<slug:op>/", api.TableActionView.as_view(), name="api-seating-table-op"),
    path("tournaments/<int:pk>/seating/draw/", api.DrawView.as_view(), name="api-seating-draw"),
    path("tournaments/<int:pk>/seating/predraw/", api.PreDrawView.as_view(), name="api-seating-predraw"),
    path("tournaments/<int:pk>/seating/manual-draw/", api.ManualDrawView.as_view(), name="api-seating-manual-draw"),
    path("tournaments/<int:pk>/seating/manual-draw/clear/", api.ManualDrawClearView.as_view(), name="api-seating-manual-draw-clear"),
    path("tournaments/<int:pk>/seating/keep-apart/", api.KeepApartView.as_view(), name="api-seating-keep-apart"),
    path("tournaments/<int:pk>/seating/keep-apart/<int:pair_id>/", api.KeepApartDetailView.as_view(), name="api-seating-keep-apart-detail"),
    path("tournaments/<int:pk>/seating/reservations/", api.ReservationsView.as_view(), name="api-seating-reservations"),
    path("tournaments/<int:pk>/seating/reservations/<int:res_id>/", api.ReservationDetailView.as_view(), name="api-seating-reservation-detail"),
    path("tournaments/<int:pk>/busts/", api.BustsView.as_view(), name="api-seating-busts"),
    path("tournaments/<int:pk>/busts/<int:bust_id>/undo/", api.UndoBustView.as_view(), name="api-seating-bust-undo"),
    path("tournaments/<int:pk>/busts/simultaneous/", api.SimultaneousBustsView.as_view(), name="api-seating-busts-simultaneous"),
    path("tournaments/<int:pk>/moves/", api.MovesView.as_view(), name="api-seating-moves"),
    path("tournaments/<int:pk>/moves/confirm/", api.ConfirmMovesView.as_view(), name="api-seating-moves-confirm"),
    path("tournaments/<int:pk>/moves/<int:move_id>/<slug:op>/", api.MoveActionView.as_view(), name="api-seating-move-op"),
    path("tournaments/<int:pk>/break-order/", api.BreakOrderView.as_view(), name="api-seating-break-order"),
    path("tournaments/<int:pk>/standings/", api.StandingsView.as_view(), name="api-seating-standings"),
    path("tournaments/<int:pk>/entries/<int:entry_id>/draws/", api.DrawHistoryView.as_view(), name="api-seating-draws"),
    path("tournaments/<int:pk>/draws/<int:event_id>/replay/", api.DrawReplayView.as_view(), name="api-draw-replay"),
]
