"""API of the room's physical tables: the inventory the director keeps and the room
map the floor reads. Thin: each write is one service of ``seating.services.cardrooms``."""

from datetime import datetime, time, timedelta

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from tdmanager import dates
from tdmanager.errors import DomainError
from tdmanager.fields import MAX_ID, TextField, WholeNumberField
from tdmanager.roles import HasRole
from tournaments.eventlog.services import Actor

from . import selectors
from .models import CardRoom, DealerShift
from .services import cardrooms, dealers


class RoomSerializer(serializers.Serializer):
    name = TextField(max_length=60)
    position = WholeNumberField(required=False, min_value=0, max_value=32767)


class RoomTableSerializer(serializers.Serializer):
    number = WholeNumberField(min_value=1, max_value=9999)
    seats = WholeNumberField(required=False, min_value=cardrooms.MIN_SEATS, max_value=cardrooms.MAX_SEATS)
    zone = TextField(required=False, allow_blank=True, max_length=30)
    position = WholeNumberField(required=False, min_value=0, max_value=99999)


class RoomTableChangeSerializer(serializers.Serializer):
    seats = WholeNumberField(required=False, min_value=cardrooms.MIN_SEATS, max_value=cardrooms.MAX_SEATS)
    zone = TextField(required=False, allow_blank=True, max_length=30)
    position = WholeNumberField(required=False, min_value=0, max_value=99999)


class OutOfServiceSerializer(serializers.Serializer):
    reason = TextField(max_length=120)


class ReserveSerializer(serializers.Serializer):
    tournament = WholeNumberField(min_value=1, max_value=MAX_ID)


def validated_body(serializer_class, request):
    ser = serializer_class(data=request.data)
    ser.is_valid(raise_exception=True)
    return ser.validated_data


class RoomAPIView(APIView):
    permission_classes = [HasRole]

    def actor(self):
        return Actor.from_request(self.request)

    def room(self, room_id) -> CardRoom:
        return get_object_or_404(CardRoom, pk=room_id)


class RoomsView(RoomAPIView):
    """GET: the venue's rooms. POST ``{"name"}``: a new room (the director)."""

    @extend_schema(operation_id="rooms_list", responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response({"rooms": selectors.rooms()})

    @extend_schema(request=RoomSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        d = validated_body(RoomSerializer, request)
        room = cardrooms.save_room(d["name"], position=d.get("position"), actor=self.actor())
        return Response({"id": room.pk, "name": room.name}, status=201)


class RoomDetailView(RoomAPIView):
    """GET: the room map (every table: state, event, players, breaks next). PATCH ``{"name"}``."""

    @extend_schema(operation_id="room_map", responses=OpenApiTypes.OBJECT)
    def get(self, request, room_id):
        return Response(selectors.room_map(room_id))

    @extend_schema(request=RoomSerializer, responses=OpenApiTypes.OBJECT)
    def patch(self, request, room_id):
        d = validated_body(RoomSerializer, request)
        room = cardrooms.save_room(d["name"], room=self.room(room_id), position=d.get("position"), actor=self.actor())
        return Response({"id": room.pk, "name": room.name})


class RoomTablesView(RoomAPIView):
    """POST ``{"number", "seats", "zone", "position"}``: add a table to the room, or change it."""

    @extend_schema(request=RoomTableSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, room_id):
        d = validated_body(RoomTableSerializer, request)
        room = self.room(room_id)
        cardrooms.save_table(room, d["number"], seats=d.get("seats"), zone=d.get("zone"), position=d.get("position"), actor=self.actor())
        return Response(selectors.room_map(room.pk), status=201)


class RoomTableRangeSerializer(serializers.Serializer):
    first = WholeNumberField(min_value=1, max_value=9999)
    last = WholeNumberField(min_value=1, max_value=9999)
    seats = WholeNumberField(required=False, default=9, min_value=cardrooms.MIN_SEATS, max_value=cardrooms.MAX_SEATS)
    zone = TextField(required=False, allow_blank=True, default="", max_length=30)


class RoomTableRangeView(RoomAPIView):
    """POST ``{"first", "last", "seats", "zone"}``: tables ``first`` to ``last`` added at once
    (at most 200); those the room has already are left as they are. The answer: ``added``,
    ``kept`` and the room map."""

    @extend_schema(request=RoomTableRangeSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, room_id):
        d = validated_body(RoomTableRangeSerializer, request)
        room = self.room(room_id)
        done = cardrooms.add_tables(room, d["first"], d["last"], seats=d["seats"], zone=d["zone"], actor=self.actor())
        return Response({**done, "map": selectors.room_map(room.pk)}, status=201)


class RoomTableView(RoomAPIView):
    """PATCH ``{"seats", "zone", "position"}``: change a table. DELETE: take it out of the room."""

    @extend_schema(request=RoomTableChangeSerializer, responses=OpenApiTypes.OBJECT)
    def patch(self, request, room_id, number):
        d = validated_body(RoomTableChangeSerializer, request)
        room = self.room(room_id)
        cardrooms.save_table(room, number, seats=d.get("seats"), zone=d.get("zone"), position=d.get("position"), create=False, actor=self.actor())
        return Response(selectors.room_map(room.pk))

    # 200 with the room map, as every other change of a table answers (a client redraws the room
    # from it without asking again); drf-spectacular would document a DELETE as 204 otherwise
    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def delete(self, request, room_id, number):
        room = self.room(room_id)
        cardrooms.remove_table(room, number, actor=self.actor())
        return Response(selectors.room_map(room.pk))


class RoomTableActionView(RoomAPIView):
    """POST ``out-of-service`` ``{"reason"}``, ``back-in-service``, ``reserve`` ``{"tournament"}``
    (kept for an event still to start), ``lift-reservation``."""

    op_names = ("out-of-service", "back-in-service", "reserve", "lift-reservation")

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def post(self, request, room_id, number, op):
        room, actor = self.room(room_id), self.actor()
        if op == "out-of-service":
            cardrooms.set_out_of_service(room, number, validated_body(OutOfServiceSerializer, request)["reason"], actor=actor)
        elif op == "back-in-service":
            cardrooms.back_in_service(room, number, actor=actor)
        elif op == "reserve":
            cardrooms.reserve(room, number, validated_body(ReserveSerializer, request)["tournament"], actor=actor)
        elif op == "lift-reservation":
            cardrooms.lift_reservation(room, number, actor=actor)
        else:
            raise DomainError("unknown_action", _("Unknown table action."), status=404)
        return Response(selectors.room_map(room.pk))


class ShiftSerializer(serializers.Serializer):
    dealer = WholeNumberField(min_value=1, max_value=MAX_ID)
    starts_at = dates.DateTimeField()
    ends_at = dates.DateTimeField()


class RotationSerializer(serializers.Serializer):
    push_minutes = WholeNumberField(min_value=10, max_value=60)
    break_after = WholeNumberField(min_value=30, max_value=480)
    break_minutes = WholeNumberField(min_value=5, max_value=60)


def _preview(room) -> dict:
    p = dealers.preview(room, timezone.now())
    return {**p, "at": p["at"].isoformat()}


class RoomDealersView(RoomAPIView):
    """GET: the roster (each shift, and where its dealer is now), the rotation and the next push
    (its time and each dealer's move). POST ``{"dealer", "starts_at", "ends_at"}``: a dealer on the
    roster (the floor or the director)."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, room_id):
        room, now = self.room(room_id), timezone.now()
        where = dealers.current(room.pk)
        roster = []
        for s in DealerShift.objects.filter(room=room, ends_at__gt=now - timedelta(hours=12)).select_related("dealer").order_by("starts_at", "pk"):
            a = where.get(s.dealer_id) if s.starts_at <= now < s.ends_at else None
            roster.append(
                {
                    "shift": s.pk,
                    "dealer": s.dealer_id,
                    "name": dealers.dealer_name(s.dealer),
                    "starts_at": s.starts_at.isoformat(),
                    "ends_at": s.ends_at.isoformat(),
                    "now": {"kind": a.kind, "table": a.table, "since": a.starts_at.isoformat()} if a else None,
                }
            )
        rotation = {"push_minutes": room.push_minutes, "break_after": room.break_after, "break_minutes": room.break_minutes}
        return Response({"roster": roster, "rotation": rotation, "next_push": _preview(room)})

    @extend_schema(request=ShiftSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, room_id):
        d = validated_body(ShiftSerializer, request)
        shift = dealers.add_shift(self.room(room_id), d["dealer"], d["starts_at"], d["ends_at"], actor=self.actor())
        return Response({"shift": shift.pk}, status=201)


class RoomShiftView(RoomAPIView):
    """DELETE: a shift off the roster (the dealer leaves the room now if he was in)."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT})  # 200 with the shift removed, not drf-spectacular's default 204
    def delete(self, request, room_id, shift_id):
        dealers.remove_shift(self.room(room_id), shift_id, actor=self.actor())
        return Response({"removed": shift_id})


class RoomPushView(RoomAPIView):
    """POST: push the dealers now; answers the assignments and the tables left without a dealer."""

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def post(self, request, room_id):
        plan = dealers.push(self.room(room_id), actor=self.actor())
        return Response({"assignments": [{"dealer": a.dealer, "kind": a.kind, "table": a.table} for a in plan.assignments], "uncovered": plan.uncovered})


class RoomBringInView(RoomAPIView):
    """POST: the events playing at tables of their own numbers (they started before the room kept
    tables) play at this room's tables of the same numbers; answers those brought in and those
    left, each with why (``not_in_room``, ``taken``, ``too_small``) and the tables."""

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def post(self, request, room_id):
        return Response(cardrooms.bring_in(self.room(room_id), actor=self.actor()))


class RoomRotationView(RoomAPIView):
    """PUT ``{"push_minutes", "break_after", "break_minutes"}``: the room's rotation (the director)."""

    @extend_schema(request=RotationSerializer, responses=OpenApiTypes.OBJECT)
    def put(self, request, room_id):
        d = validated_body(RotationSerializer, request)
        room = dealers.save_rotation(self.room(room_id), actor=self.actor(), **d)
        return Response({"push_minutes": room.push_minutes, "break_after": room.break_after, "break_minutes": room.break_minutes})


class RoomDealerReportView(RoomAPIView):
    """GET ``?day=YYYY-MM-DD`` (today by default): each dealer's tables and minutes dealt, breaks
    and minutes in the pool (payroll)."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, room_id):
        room = self.room(room_id)
        day = dates.query_day(request.query_params.get("day"), "day", _("Report day"), timezone.localdate())
        start = timezone.make_aware(datetime.combine(day, time.min))
        return Response({"day": day.isoformat(), "dealers": selectors.dealer_report(room.pk, start, start + timedelta(days=1))})
