"""REST API of the floor: chip sets, chips in play, counts, races and penalties."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import viewsets
from rest_framework.response import Response
from rest_framework.views import APIView

from tdmanager.errors import DomainError
from tdmanager.idempotency import idempotent
from tdmanager.roles import HasRole
from tournaments import labels
from tournaments.api.base import validated_body
from tournaments.eventlog.services import Actor
from tournaments.floor import chipsets
from tournaments.floor import selectors as floor_selectors
from tournaments.floor import services as floor
from tournaments.floor.serializers import (
    ChipAdjustSerializer,
    ChipCountsSerializer,
    ChipRaceSerializer,
    ChipSetSerializer,
    ColorUpSerializer,
    IssuePenaltySerializer,
    PenaltyActionSerializer,
    PenaltySerializer,
)
from tournaments.house import HouseRules
from tournaments.models import ChipSet, Penalty, Person, Tournament


class FloorView(APIView):
    """Chips in play, counts, races and penalties of one tournament (floor and director)."""

    permission_classes = [HasRole]
    op_names = ("penalties", "adjust", "counts", "race", "color-up")
    read_op_names = ("penalties",)  # GET /floor/ (or /floor/chips/) is the chips summary
    op_responses = {"GET": PenaltySerializer(many=True)}  # GET /floor/penalties/ (?all=1: past ones too)

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk, op=None):
        t = get_object_or_404(Tournament, pk=pk)
        if op == "penalties":
            qs = t.penalties.select_related("person", "entry") if request.query_params.get("all") else floor.active_penalties(t)
            return Response(PenaltySerializer(qs, many=True).data)
        if op not in (None, "chips"):
            raise DomainError("unknown_action", _("Unknown floor action."), status=404)
        return Response(
            {
                "chips_in_play": floor.chips_in_play(t),
                "counts": floor.chip_count_summary(t),
                "adjustments": list(t.chip_adjustments.order_by("-id").values("id", "kind", "chips", "reason", "entry", "created_at")[:100]),
                "stack_check": floor.stack_check(t),
                "color_up_suggestions": floor.color_up_suggestions(t),
                "race_denomination": floor.race_denomination(t),  # the chip race form's "chip removed"
                # PEN-08: the reason codes this tournament offers (its house setting penalty_reasons)
                "penalty_reasons": [{"code": code, "label": label} for code, label in labels.penalty_reasons(HouseRules.of(t).penalty_reasons)],
            }
        )

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk, op=None):
        """Honours an ``Idempotency-Key``: a floor tablet's queue sends a penalty or a chip count
        again after a lost answer (or a Wi-Fi drop) and gets the first answer, never a second one."""
        return idempotent(request, lambda: self.perform(request, pk, op))

    def perform(self, request, pk, op):
        t = get_object_or_404(Tournament, pk=pk)
        actor = Actor.from_request(request)
        if op == "penalties":
            ser = IssuePenaltySerializer(data=request.data)
            ser.is_valid(raise_exception=True)
            d = dict(ser.validated_data)
            p = floor.issue_penalty(t, d.pop("entry"), actor=actor, **d)
            return Response(PenaltySerializer(p).data, status=201)
        if op == "adjust":
            ser = ChipAdjustSerializer(data=request.data)
            ser.is_valid(raise_exception=True)
            d = ser.validated_data
            adj = floor.remove_chips(t, chips=d["chips"], kind=d["kind"], reason=d["reason"], actor=actor, entry=d.get("entry"))
            return Response({"id": adj.pk, "chips": adj.chips, "chips_in_play": floor.chips_in_play(t)}, status=201)
        if op == "counts":
            ser = ChipCountsSerializer(data=request.data)
            ser.is_valid(raise_exception=True)
            return Response(floor.record_chip_counts(t, ser.validated_data["counts"], occasion=ser.validated_data["occasion"], actor=actor), status=201)
        if op == "color-up":  # CR-05: a discretionary colour-up of a player or a table, announced and logged
            d = validated_body(ColorUpSerializer, request)
            return Response(
                floor.discretionary_color_up(
                    t,
                    from_denomination=d["from_denomination"],
                    to_denomination=d["to_denomination"],
                    table=d.get("table"),
                    entry=d.get("entry"),
                    note=d["note"],
                    actor=actor,
                ),
                status=201,
            )
        if op == "race":
            ser = ChipRaceSerializer(data=request.data)
            ser.is_valid(raise_exception=True)
            d = ser.validated_data
            rec = floor.run_chip_race(
                t,
                d["table"],
                d["players"],
                removed_denomination=d["removed_denomination"],
                new_denomination=d["new_denomination"],
                winners=d.get("winners"),
                lowest_denomination_in_play=d.get("lowest_denomination_in_play"),
                last_hand_small_blind_seat=d.get("last_hand_small_blind_seat"),
                actor=actor,
            )
            return Response({"id": rec.pk, "mode": rec.mode, "result": rec.result, "chips_in_play": floor.chips_in_play(t)}, status=201)
        raise DomainError("unknown_action", _("Unknown floor action."), status=404)


class PenaltyActionView(APIView):
    permission_classes = [HasRole]
    op_names = ("serve", "cancel")

    @extend_schema(request=PenaltyActionSerializer, responses=PenaltySerializer)
    def post(self, request, pk, op):
        p = get_object_or_404(Penalty, pk=pk)
        actor = Actor.from_request(request)
        if op == "serve":
            p = floor.serve_hands(p, actor=actor, hands=validated_body(PenaltyActionSerializer, request)["hands"])
        elif op == "cancel":
            p = floor.cancel_penalty(p, actor=actor, reason=validated_body(PenaltyActionSerializer, request)["reason"])
        else:
            raise DomainError("unknown_action", _("Unknown penalty action."), status=404)
        return Response(PenaltySerializer(p).data)


class PersonPenaltiesView(APIView):
    """A person's penalty history across tournaments (for escalation)."""

    permission_classes = [HasRole]

    @extend_schema(responses=PenaltySerializer(many=True))
    def get(self, request, pk):
        return Response(PenaltySerializer(floor_selectors.penalty_history(get_object_or_404(Person, pk=pk)), many=True).data)


class ChipSetViewSet(viewsets.ModelViewSet):
    permission_classes = [HasRole]
    serializer_class = ChipSetSerializer

    def get_queryset(self):
        return ChipSet.objects.prefetch_related("denominations")

    def perform_create(self, serializer):
        d = serializer.validated_data
        serializer.instance = chipsets.save_chip_set(name=d["name"], denominations=d["denominations"], actor=Actor.from_request(self.request))

    def perform_update(self, serializer):
        d = serializer.validated_data
        serializer.instance = chipsets.save_chip_set(
            name=d.get("name"), denominations=d.get("denominations"), chip_set=serializer.instance, actor=Actor.from_request(self.request)
        )

    def perform_destroy(self, instance):
        chipsets.delete_chip_set(instance, actor=Actor.from_request(self.request))
