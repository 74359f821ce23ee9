"""API of the control side (ROLE-01, ROLE-02, ROLE-05): the regulator's grants, the
controller's witness signatures, the pre-start report's addenda and the rulings. Thin: each
view validates the body and calls ``tournaments.services.oversight``."""

from django.conf import settings
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from tdmanager import auth_views as tdm_auth
from tdmanager import dates, shown_text
from tdmanager.api import body_object
from tdmanager.fields import TextField, WholeNumberField
from tdmanager.policy import DIRECTOR
from tdmanager.roles import HasRole, has_role
from tournaments.eventlog.services import Actor
from tournaments.models import DeviceToken, RegulatorGrant, Ruling, Tournament
from tournaments.oversight import selectors as oversight_selectors
from tournaments.oversight import services as oversight
from tournaments.people.text import clean_text
from tournaments.staff import logins
from tournaments.staff import selectors as staff_selectors


def _valid(serializer_class, request):
    ser = serializer_class(data=body_object(request))
    ser.is_valid(raise_exception=True)
    return ser.validated_data


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
        d = _valid(GrantSerializer, request)
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
        d = _valid(WitnessSerializer, request)
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
        d = _valid(RulingInSerializer, request)
        r = oversight.record_ruling(_t(pk), actor=Actor.from_request(request), **d)
        return Response(ruling_data(r), status=201)


class RulingNotesView(APIView):
    """An annotation on a ruling: the decision itself is never changed."""

    permission_classes = [HasRole]

    @extend_schema(request=NoteSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk, ruling_id):
        d = _valid(NoteSerializer, request)
        t = _t(pk)
        oversight.annotate_ruling(ruling_id, d["text"], tournament=t, actor=Actor.from_request(request))
        return Response(ruling_data(Ruling.objects.get(pk=ruling_id)), status=201)


class LiftLockoutSerializer(serializers.Serializer):
    """One lock-out as GET /api/v1/auth/lockouts/ lists it; its other fields (failures, until…)
    may come along and are not read."""

    # Which fields each kind needs, and the 400 naming the field: logins.lockout_named (the page too).

    kind = serializers.ChoiceField(
        choices=["user", "address", "account"],
        required=False,
        help_text="as listed: user (the username at the address), address (every username there), account (the username at every address); "
        "absent: a username and an address are a user's, an address alone an address's, a username alone an account's",
    )
    username = TextField(max_length=150, required=False, allow_blank=True, default="", help_text="the username locked out; empty for an address's lock-out")
    address = serializers.IPAddressField(
        required=False, allow_blank=True, default="", help_text="the client address the lock-out is at; empty or absent for an account's lock-out"
    )


def lockout_data(row: dict) -> dict:
    return {
        "kind": row["kind"],
        "username": row["username"],
        "address": row["address"],
        "failures": row["failures"],
        "until": row["until"],
        "started_at": row["started_at"],
    }


class LoginLockoutsView(APIView):
    """Staff login lock-outs in force (``tdmanager.security``): a username at one address, or an
    address for every username. A director reads them and lifts one (``POST …/lift/``)."""

    permission_classes = [HasRole]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response({"lockouts": [lockout_data(r) for r in staff_selectors.login_lockouts()]})


class LiftLockoutView(APIView):
    """A director lifts a login lock-out; the event log records who did."""

    permission_classes = [HasRole]

    @extend_schema(request=LiftLockoutSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request):
        d = _valid(LiftLockoutSerializer, request)
        return Response(logins.lift_lockout(kind=d.get("kind"), username=d["username"], address=d["address"], actor=Actor.from_request(request)))


class DeviceLoginSerializer(serializers.Serializer):
    username = TextField(max_length=150)
    password = TextField(max_length=4096, trim_whitespace=False, style={"input_type": "password"})
    device = TextField(max_length=80, required=False, allow_blank=True, default="", help_text="the device's name in the list of logins, e.g. 'Desk 2 tablet'")


class TokenLoginView(tdm_auth.TokenLoginView):
    """A staff login from a device: ``{"username", "password", "device"}`` → ``{"token", "id",
    "device", "idle_minutes"}``. Every login is a token of its own (one per device, listed at
    ``auth/tokens/``); it expires after ``idle_minutes`` unused (0: never), and dies when the
    password changes or the login is disabled. Send it as ``Authorization: Token <token>``."""

    @extend_schema(request=DeviceLoginSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, *args, **kwargs):
        return super().post(request, *args, **kwargs)

    def issue(self, request, user):
        device = request.data.get("device") if hasattr(request.data, "get") else None
        if not isinstance(device, str) or not device.strip():
            device = request.META.get("HTTP_USER_AGENT", "")
        else:
            shown_text.check(device, "device", _("Device"))  # a name typed: refused; a browser's own header is only cleaned
        token, key = logins.issue_token(user, device=clean_text(device)[:80], actor=Actor(user, Actor.from_request(request).device))
        return Response({"token": key, "id": token.pk, "device": token.name, "idle_minutes": settings.TDM_TOKEN_IDLE_MINUTES})


def device_data(row: dict) -> dict:
    return {k: row[k] for k in ("id", "user", "name", "prefix", "created_at", "last_used_at", "expires_at", "current")}


class DeviceTokensView(APIView):
    """The API logins still standing, one per device: the caller's own (``current`` marks the
    one asking); a director's ``?everyone=true`` lists every user's."""

    permission_classes = [HasRole]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        everyone = request.query_params.get("everyone") == "true" and has_role(request.user, DIRECTOR)
        current = request.auth if isinstance(request.auth, DeviceToken) else None
        rows = staff_selectors.device_tokens(None if everyone else request.user, current=current)
        return Response({"tokens": [device_data(r) for r in rows]})


class RevokeTokenView(APIView):
    """A device's login revoked: one of the caller's own (this device included: a log-out), or,
    for a director, anyone's. Its token is refused from then on (401 ``token_expired``)."""

    permission_classes = [HasRole]

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def post(self, request, token_id):
        token = logins.revoke_token(token_id, actor=Actor.from_request(request))
        return Response({"id": token.pk, "revoked": True})
