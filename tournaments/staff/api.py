"""The staff API (a director): the logins with their role and last use, and the staff page's
actions (``services.staff``), one call each. A password made by the product comes back once, in
the answer to the call that made it, which no cache keeps (``Cache-Control: no-store``). The
lock-outs and their lifting, a device's token login, the devices and their revocation."""

from django.conf import settings
from django.contrib.auth import update_session_auth_hash
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from tdmanager import auth_views as tdm_auth
from tdmanager import shown_text
from tdmanager.api import BoundedLimitOffsetPagination
from tdmanager.errors import DomainError
from tdmanager.fields import TextField
from tdmanager.policy import DIRECTOR
from tdmanager.roles import ROLES, HasRole, has_role
from tdmanager.security import no_store
from tournaments.api.base import validated_body
from tournaments.eventlog.services import Actor
from tournaments.models import DeviceToken
from tournaments.people.text import clean_text
from tournaments.staff import logins
from tournaments.staff import selectors as staff_selectors
from tournaments.staff import services as staff

STAFF_OPS = ("role", "password", "disable", "enable")


class LoginAddSerializer(serializers.Serializer):
    username = TextField(max_length=150)
    role = serializers.ChoiceField(choices=ROLES)
    password = TextField(max_length=4096, required=False, allow_blank=True, default="", trim_whitespace=False, help_text="empty: one is made and returned once")


class LoginActionSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=ROLES, required=False, help_text="the new role (``role``)")
    password = TextField(
        max_length=4096,
        required=False,
        allow_blank=True,
        default="",
        trim_whitespace=False,
        help_text="the new password (``password``); empty: one is made and returned once",
    )


def login_data(user) -> dict:
    return {
        "id": user.pk,
        "username": user.get_username(),
        "name": user.get_full_name(),
        "role": staff.role_of(user),
        "active": user.is_active,
        "last_used": staff_selectors.last_use(user),
    }


class StaffView(APIView):
    """``GET``: the logins, by username, paged (``?limit=&offset=``), ``?q=`` a part of the username
    or the name. ``POST {"username", "role", "password"?}``: a new login (201); ``password`` in the
    answer when the product made it (shown once)."""

    permission_classes = [HasRole]

    @extend_schema(operation_id="v1_staff_list", parameters=[OpenApiParameter("q", str, required=False)], responses=OpenApiTypes.OBJECT)
    def get(self, request):
        pager = BoundedLimitOffsetPagination()
        rows = pager.paginate_queryset(staff_selectors.staff_logins(request.query_params.get("q", "")), request, view=self)
        return pager.get_paginated_response([login_data(u) for u in rows])

    @extend_schema(request=LoginAddSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        d = validated_body(LoginAddSerializer, request)
        user, shown = staff.add_login(d["username"], d["role"], password=d["password"], actor=Actor.from_request(request))
        return no_store(Response({**login_data(user), **({"password": shown} if shown else {})}, status=201))


class StaffLoginView(APIView):
    """``GET``: one login. ``POST …/<op>/``: ``role`` ``{"role"}`` (not the last director's),
    ``password`` ``{"password"?}`` (its sessions and tokens end; the password made is returned
    once), ``disable`` (not the last director; it can do nothing, its history stays), ``enable``."""

    permission_classes = [HasRole]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk, op=None):
        return Response(login_data(get_object_or_404(staff_selectors.staff_logins(), pk=pk)))

    @extend_schema(request=LoginActionSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk, op=None):
        if op not in STAFF_OPS:
            raise DomainError("unknown_action", _("Unknown action."), status=404)
        d, actor, shown = validated_body(LoginActionSerializer, request), Actor.from_request(request), None
        if op == "role":
            if "role" not in d:
                raise DomainError(
                    "role_required", _("%(field)s: %(problem)s") % {"field": _("Role"), "problem": _("choose one of the roles listed.")}, field="role"
                )
            staff.set_role(pk, d["role"], actor=actor)
        elif op == "password":
            session = getattr(request, "session", None)  # a browser's own session kept, a token has none
            user, shown = staff.reset_password(pk, password=d["password"], actor=actor, keep_session=session.session_key if session else None)
            if session is not None and user.pk == request.user.pk:
                update_session_auth_hash(request, user)
        else:
            staff.set_active(pk, op == "enable", actor=actor)
        data = login_data(get_object_or_404(staff_selectors.staff_logins(), pk=pk))
        return no_store(Response({**data, **({"password": shown} if shown else {})}))


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
        d = validated_body(LiftLockoutSerializer, request)
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
