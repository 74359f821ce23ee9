"""API of the control side (ROLE-01, ROLE-02, ROLE-05): the regulator's grants, the
controller's witness signatures, the pre-start report's addenda and the rulings. Thin: each
view validates the body and calls ``tournaments.oversight.services``."""

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from tdmanager import dates
from tdmanager.fields import TextField, WholeNumberField
from tdmanager.roles import HasRole
from tournaments.api.base import validated_body
from tournaments.eventlog.services import Actor
from tournaments.models import RegulatorGrant, Ruling, Tournament
from tournaments.oversight import selectors as oversight_selectors
from tournaments.oversight import services as oversight


def _t(pk):
    return get_object_or_404(Tournament, pk=pk)


class GrantSerializer(serializers.Serializer):
    username = TextField(max_length=150)
    granted = serializers.BooleanField(default=True)


class WitnessSerializer(serializers.Serializer):
    event = WholeNumberField(min_value=1, max_value=2**62)


class RulingInSerializer(serializers.Serializer):
    asked_by = TextField(max_length=150)
    question = TextField(max_length=2000)
    decision = TextField(max_length=2000)
    asked_at = dates.DateTimeField(required=False, allow_null=True)
    window = serializers.ChoiceField(choices=[Ruling.HAND, Ruling.BREAK], default=Ruling.HAND)
    disputed_at = dates.DateTimeField(required=False, allow_null=True)
    next_hand_at = dates.DateTimeField(required=False, allow_null=True)
    table_number = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=10_000)
    hand = TextField(required=False, allow_blank=True, max_length=40, default="")


class NoteSerializer(serializers.Serializer):
    text = TextField(max_length=2000)


def ruling_data(r: Ruling) -> dict:
    return {
        "id": r.pk,
        "table_number": r.table_number,
        "hand": r.hand,
        "asked_by": r.asked_by,
        "asked_at": r.asked_at,
        "window": r.window,
        "disputed_at": r.disputed_at,
        "next_hand_at": r.next_hand_at,
        "late": r.late,
        "warning": oversight.late_warning(r),
        "question": r.question,
        "decision": r.decision,
        "decided_by": r.decided_by.get_full_name() or r.decided_by.get_username(),
        "decided_at": r.decided_at,
        "notes": [{"text": n.text, "by": n.user.get_username(), "at": n.created_at} for n in r.notes.all()],
    }


def stub_reports_data(t) -> dict:
    return {
        "addenda": [
            {"number": r.number, "stubs": r.stubs, "total": str(r.total), "at": r.created_at, "report": f"addendum-{r.number}"} for r in t.stub_reports.all()
        ],
        "unreported": oversight_selectors.unreported_stubs(t).count(),
    }


class RegulatorsView(APIView):
    """The regulator logins that read this tournament (ROLE-01); a director grants or removes."""

    permission_classes = [HasRole]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        t = _t(pk)
        return Response({"regulators": sorted(g.user.get_username() for g in RegulatorGrant.objects.filter(tournament=t).select_related("user"))})

    @extend_schema(request=GrantSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk):
        d = validated_body(GrantSerializer, request)
        t = _t(pk)
        oversight.set_regulator_access(t, d["username"], granted=d["granted"], actor=Actor.from_request(request))
        return self.get(request, pk)


class WitnessView(APIView):
    """Seat draws and balancing moves with the controller's witness signatures; POST signs one."""

    permission_classes = [HasRole]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        return Response({"events": oversight_selectors.witness_list(_t(pk))})

    @extend_schema(request=WitnessSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        d = validated_body(WitnessSerializer, request)
        w = oversight.witness(_t(pk), d["event"], actor=Actor.from_request(request))
        return Response({"event": w.event_id, "name": w.name, "at": w.created_at}, status=201)


class StubReportsView(APIView):
    """ROLE-02: the addenda to the pre-start report; POST numbers the stubs sold since the last one."""

    permission_classes = [HasRole]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        return Response(stub_reports_data(_t(pk)))

    @extend_schema(request=None, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        t = _t(pk)
        r = oversight.issue_stub_addendum(t, actor=Actor.from_request(request))
        return Response({"number": r.number, "stubs": r.stubs, "total": str(r.total), "report": f"addendum-{r.number}"}, status=201)


class RulingsView(APIView):
    """ROLE-05: the tournament's rulings; POST records one (final; a late request is flagged)."""

    permission_classes = [HasRole]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        t = _t(pk)
        rulings = Ruling.objects.filter(tournament=t).select_related("decided_by").prefetch_related("notes__user")
        return Response({"rulings": [ruling_data(r) for r in rulings]})

    @extend_schema(request=RulingInSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        d = validated_body(RulingInSerializer, request)
        r = oversight.record_ruling(_t(pk), actor=Actor.from_request(request), **d)
        return Response(ruling_data(r), status=201)


class RulingNotesView(APIView):
    """An annotation on a ruling: the decision itself is never changed."""

    permission_classes = [HasRole]

    @extend_schema(request=NoteSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk, ruling_id):
        d = validated_body(NoteSerializer, request)
        t = _t(pk)
        oversight.annotate_ruling(ruling_id, d["text"], tournament=t, actor=Actor.from_request(request))
        return Response(ruling_data(Ruling.objects.get(pk=ruling_id)), status=201)
