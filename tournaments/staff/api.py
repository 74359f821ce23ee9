"""The staff API (a director): the logins with their role and last use, and the staff page's
actions (``services.staff``), one call each. A password made by the product comes back once, in
the answer to the call that made it, which no cache keeps (``Cache-Control: no-store``)."""

from django.contrib.auth import update_session_auth_hash
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from tdmanager.api import BoundedLimitOffsetPagination
from tdmanager.errors import DomainError
from tdmanager.fields import TextField
from tdmanager.roles import ROLES, HasRole
from tdmanager.security import no_store
from tournaments.api.base import _valid
from tournaments.eventlog.services import Actor
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
        d = _valid(LoginAddSerializer, request)
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
        d, actor, shown = _valid(LoginActionSerializer, request), Actor.from_request(request), None
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
