"""API of the room's physical tables (issue #42): the inventory the director keeps and the room
map the floor reads. Thin: each write is one service of ``seating.services.cardrooms``."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from tdmanager.errors import DomainError
from tdmanager.fields import MAX_ID, TextField, WholeNumberField
from tdmanager.roles import HasRole
from tournaments.services.events import Actor

from . import selectors
from .models import CardRoom
from .services import cardrooms


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


def _valid(serializer_class, request):
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

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response({"rooms": selectors.rooms()})

    @extend_schema(request=RoomSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request):
        d = _valid(RoomSerializer, request)
        room = cardrooms.save_room(d["name"], position=d.get("position"), actor=self.actor())
        return Response({"id": room.pk, "name": room.name}, status=201)


class RoomDetailView(RoomAPIView):
    """GET: the room map (every table: state, event, players, breaks next). PATCH ``{"name"}``."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, room_id):
        return Response(selectors.room_map(room_id))

    @extend_schema(request=RoomSerializer, responses=OpenApiTypes.OBJECT)
    def patch(self, request, room_id):
        d = _valid(RoomSerializer, request)
        room = cardrooms.save_room(d["name"], room=self.room(room_id), position=d.get("position"), actor=self.actor())
        return Response({"id": room.pk, "name": room.name})


class RoomTablesView(RoomAPIView):
    """POST ``{"number", "seats", "zone", "position"}``: add a table to the room, or change it."""

    @extend_schema(request=RoomTableSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, room_id):
        d = _valid(RoomTableSerializer, request)
        room = self.room(room_id)
        cardrooms.save_table(room, d["number"], seats=d.get("seats"), zone=d.get("zone"), position=d.get("position"), actor=self.actor())
        return Response(selectors.room_map(room.pk), status=201)


class RoomTableView(RoomAPIView):
    """PATCH ``{"seats", "zone", "position"}``: change a table. DELETE: take it out of the room."""

    @extend_schema(request=RoomTableChangeSerializer, responses=OpenApiTypes.OBJECT)
    def patch(self, request, room_id, number):
        d = _valid(RoomTableChangeSerializer, request)
        room = self.room(room_id)
        cardrooms.save_table(room, number, seats=d.get("seats"), zone=d.get("zone"), position=d.get("position"), create=False, actor=self.actor())
        return Response(selectors.room_map(room.pk))

    @extend_schema(responses=OpenApiTypes.OBJECT)
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
            cardrooms.set_out_of_service(room, number, _valid(OutOfServiceSerializer, request)["reason"], actor=actor)
        elif op == "back-in-service":
            cardrooms.back_in_service(room, number, actor=actor)
        elif op == "reserve":
            cardrooms.reserve(room, number, _valid(ReserveSerializer, request)["tournament"], actor=actor)
        elif op == "lift-reservation":
            cardrooms.lift_reservation(room, number, actor=actor)
        else:
            raise DomainError("unknown_action", _("Unknown table action."), status=404)
        return Response(selectors.room_map(room.pk))
