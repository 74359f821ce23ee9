"""REST API of the director's setup: tournaments, their templates and entries, published changes."""

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from tdmanager.api import query_choice, query_int, query_limit, query_offset
from tdmanager.policy import DISPLAY
from tdmanager.roles import HasRole, user_roles
from tdmanager.security import no_store
from tournaments.api.base import validated_body
from tournaments.cashier.serializers import AlternateSerializer, LedgerRowSerializer
from tournaments.eventlog.serializers import EventSerializer
from tournaments.eventlog.services import Actor
from tournaments.floor import overview
from tournaments.models import Alternate, Entry, Tournament, TournamentTemplate
from tournaments.oversight import selectors as oversight_selectors
from tournaments.setup import changes, lifecycle, streaming
from tournaments.setup import selectors as setup_selectors
from tournaments.setup import services as setup
from tournaments.setup.serializers import (
    CancelSerializer,
    ChangeReasonSerializer,
    CopySerializer,
    EntrySerializer,
    SaveTemplateSerializer,
    StartSerializer,
    StreamingSerializer,
    TournamentChangeSerializer,
    TournamentSerializer,
    TournamentTemplateSerializer,
)


class TournamentViewSet(viewsets.ModelViewSet):
    permission_classes = [HasRole]
    serializer_class = TournamentSerializer
    queryset = Tournament.objects.select_related("waiting_start")  # waiting_for_tables, no query per row

    def get_serializer_context(self):
        # Every stage at once: the serializer runs the setup rules (pure) beside its fields' errors.
        return {**super().get_serializer_context(), "setup_errors": setup.setup_errors}

    # The same services as the tournament page: the setup rules live in services.setup.
    def perform_create(self, serializer):
        values = dict(serializer.validated_data)
        reason, preset = values.pop("override_reason", ""), values.pop("fee_preset", None)
        serializer.instance = setup.create_tournament(values, actor=Actor.from_request(self.request), fee_preset=preset, override_reason=reason)

    def perform_update(self, serializer):
        values = dict(serializer.validated_data)
        reason, preset = values.pop("override_reason", ""), values.pop("fee_preset", None)
        serializer.instance = setup.update_tournament(
            self.get_object(), values, actor=Actor.from_request(self.request), override_reason=reason, fee_preset=preset
        )

    def perform_destroy(self, instance):
        lifecycle.delete(instance, actor=Actor.from_request(self.request))

    @extend_schema(request=None, responses=TournamentSerializer)  # no body (the schema offered a tournament's, unread)
    @action(detail=True, methods=["post"], url_path="open-registration")
    def open_registration(self, request, pk=None):
        t = lifecycle.open_registration(self.get_object(), actor=Actor.from_request(request))
        return Response(self.get_serializer(t).data)

    @extend_schema(request=StartSerializer, responses=TournamentSerializer)
    @action(detail=True, methods=["post"])
    def start(self, request, pk=None):
        d = validated_body(StartSerializer, request)
        t = lifecycle.start(
            self.get_object(),
            actor=Actor.from_request(request),
            override_minimum=d["override_minimum"],
            prestart_report_sent=d["prestart_report_sent"],
            start_clock=d["start_clock"],
            seat_later_sessions=d["seat_later_sessions"],
            when_room_full=d["when_room_full"],
        )
        return Response(self.get_serializer(self.get_queryset().get(pk=t.pk)).data)

    @extend_schema(request=None, responses=TournamentSerializer)
    @action(detail=True, methods=["post"], url_path="stop-waiting")
    def stop_waiting(self, request, pk=None):
        """The start waiting for free tables (``when_room_full: wait``) no longer waits."""
        t = lifecycle.stop_waiting(self.get_object(), actor=Actor.from_request(request))
        return Response(self.get_serializer(self.get_queryset().get(pk=t.pk)).data)

    @extend_schema(request=CopySerializer, responses={201: TournamentSerializer})
    @action(detail=True, methods=["post"])
    def copy(self, request, pk=None):
        """A new planned tournament with this one's setup and its own copy of the structure."""
        d = validated_body(CopySerializer, request)
        t = setup.copy_tournament(
            self.get_object(), name=d["name"], start_at=d["start_at"], actor=Actor.from_request(request), override_reason=d["override_reason"]
        )
        return Response(self.get_serializer(t).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=SaveTemplateSerializer, responses={201: TournamentTemplateSerializer})
    @action(detail=True, methods=["post"], url_path="save-template")
    def save_template(self, request, pk=None):
        """Save this tournament's setup as a template for later tournaments."""
        d = validated_body(SaveTemplateSerializer, request)
        template = setup.save_template(self.get_object(), name=d["name"], actor=Actor.from_request(request))
        return Response(TournamentTemplateSerializer(template).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=OpenApiTypes.OBJECT)
    @action(detail=False, methods=["get"], pagination_class=None)
    def overview(self, request):
        """The floor overview: every running tournament with its level, time left, players,
        tables, moves pending, halted tables, hand-for-hand and late registration."""
        return Response(overview.running_overview())

    @extend_schema(request=None, responses=TournamentSerializer)  # no body (the schema offered a tournament's, unread)
    @action(detail=True, methods=["post"])
    def finish(self, request, pk=None):
        t = lifecycle.finish(self.get_object(), actor=Actor.from_request(request))
        return Response(self.get_serializer(t).data)

    @extend_schema(request=StreamingSerializer, responses=TournamentSerializer)
    @action(detail=True, methods=["post"])
    def streaming(self, request, pk=None):
        """ROLE-08: the TV table is on the air (``{"live": true}``) or off it."""
        t = streaming.set_streaming_live(self.get_object(), validated_body(StreamingSerializer, request)["live"], actor=Actor.from_request(request))
        return Response(self.get_serializer(t).data)

    @extend_schema(request=CancelSerializer, responses=TournamentSerializer)
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        t = lifecycle.cancel(self.get_object(), actor=Actor.from_request(request), reason=validated_body(CancelSerializer, request)["reason"])
        return Response(self.get_serializer(t).data)

    @extend_schema(
        parameters=[OpenApiParameter("status", str, enum=[v for v, _l in Entry.STATUSES]), OpenApiParameter("person", int)],
        responses=EntrySerializer(many=True),
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def entries(self, request, pk=None):
        qs = self.get_object().entries.select_related("person").order_by("number")
        wanted = query_choice(request, "status", [v for v, _l in Entry.STATUSES])
        if wanted:
            qs = qs.filter(status=wanted)
        person = query_int(request, "person")
        if person is not None:
            qs = qs.filter(person_id=person)
        return Response(EntrySerializer(qs, many=True).data)

    @extend_schema(responses=LedgerRowSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def ledger(self, request, pk=None):
        rows = self.get_object().ledger.select_related("cashier", "reverses").order_by("receipt_number")
        # the reader decides phone_url; its links are their pages' keys: no cache keeps them
        return no_store(Response(LedgerRowSerializer(rows, many=True, context={"request": request}).data))

    @extend_schema(
        parameters=[
            OpenApiParameter("limit", int, description="newest first, 200 by default, at most 500"),
            OpenApiParameter("offset", int, description="the newest rows to skip: a season's log read page by page"),
        ],
        responses=EventSerializer(many=True),
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def events(self, request, pk=None):
        t = self.get_object()
        offset = query_offset(request)
        rows = oversight_selectors.event_sentences(t.events.order_by("-id")[offset : offset + query_limit(request, 200)], t.currency)
        return Response(EventSerializer(rows, many=True).data)

    @extend_schema(responses=TournamentChangeSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def changes(self, request, pk=None):
        """FMT-02: the published event's versions, newest first: what changed, who, when and why
        (to a lobby screen's login, why only where the director showed the players)."""
        screen_only = not (user_roles(request.user) - {DISPLAY})
        rows = setup_selectors.change_history(self.get_object())
        return Response(TournamentChangeSerializer(rows, many=True, context={"public_only": screen_only}).data)

    @extend_schema(responses=AlternateSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def alternates(self, request, pk=None):
        qs = self.get_object().alternates.filter(status=Alternate.WAITING).select_related("person")
        return Response(AlternateSerializer(qs, many=True).data)


class TournamentTemplateViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Saved tournament templates: list, read, and a new tournament from one."""

    permission_classes = [HasRole]
    serializer_class = TournamentTemplateSerializer
    queryset = TournamentTemplate.objects.select_related("structure", "source")
    pagination_class = None

    @extend_schema(request=CopySerializer, responses={201: TournamentSerializer})
    @action(detail=True, methods=["post"], url_path="create-tournament")
    def create_tournament(self, request, pk=None):
        d = validated_body(CopySerializer, request)
        t = setup.create_from_template(
            self.get_object(), name=d["name"], start_at=d["start_at"], actor=Actor.from_request(request), override_reason=d["override_reason"]
        )
        return Response(TournamentSerializer(t, context={"request": request}).data, status=status.HTTP_201_CREATED)


class EntryViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    permission_classes = [HasRole]
    serializer_class = EntrySerializer
    queryset = Entry.objects.select_related("person")


class ChangeReasonView(APIView):
    """FMT-02: show the players why a version of the event changed (``{"public": true}``: the
    public rules page, its change feed and the lobby screens), or keep it from them again."""

    permission_classes = [HasRole]

    @extend_schema(request=ChangeReasonSerializer, responses=TournamentChangeSerializer)
    def post(self, request, pk, version):
        d = validated_body(ChangeReasonSerializer, request)
        row = changes.set_reason_public(get_object_or_404(Tournament, pk=pk), version, d["public"], actor=Actor.from_request(request))
        return Response(TournamentChangeSerializer(row).data)
