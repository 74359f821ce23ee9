"""Satellites: the link to the target event, and the seats awarded when it is over (FMT-08)."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from tdmanager.fields import IdField
from tournaments.models import Tournament

from .. import selectors as sel
from .. import services
from ..models import SatelliteLink
from .common import Base, _t, payment_data
from .table import table_data


class SatelliteIn(serializers.Serializer):
    target = IdField(queryset=Tournament.objects.all())
    remainder_rule = serializers.ChoiceField(
        choices=[r for r, _l in SatelliteLink.REMAINDER_RULES],
        required=False,
        allow_null=True,
        default=None,
        help_text="C13; not given: the satellite's settings.satellite_remainder_rule (NEXT_PLACE)",
    )
    prize_base = serializers.ChoiceField(
        choices=[b for b, _l in SatelliteLink.BASES],
        required=False,
        allow_null=True,
        default=None,
        help_text="C14; not given: the satellite's settings.satellite_prize_base (GROSS)",
    )
    already_registered = serializers.ChoiceField(
        choices=[b for b, _l in SatelliteLink.ALREADY_REGISTERED],
        default=SatelliteLink.TICKET,
        help_text="what a winner the target does not take gets: a TICKET or the seat's value in CASH",
    )


class SatelliteView(Base):
    @extend_schema(request=SatelliteIn, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        d = self.valid(SatelliteIn)
        link = services.link_satellite(
            _t(pk), d["target"], actor=self.actor(), remainder_rule=d["remainder_rule"], prize_base=d["prize_base"], already_registered=d["already_registered"]
        )
        t = link.satellite
        seats = sum(1 for a in sel.satellite_awards(t, link) if a.seat)
        return Response({"satellite": t.pk, "target": link.target_id, "seats": seats, "table": table_data(t)}, status=201)


class SatelliteCompleteView(Base):
    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        payments = services.complete_satellite(_t(pk), actor=self.actor())
        return Response({"seats": [payment_data(p) for p in payments]}, status=201)
