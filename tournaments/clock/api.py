"""REST API of the tournament clock: the live snapshot and the director's clock actions."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from tdmanager.errors import DomainError
from tdmanager.roles import HasRole
from tournaments import labels
from tournaments.api.base import validated_body
from tournaments.clock import services as clock_services
from tournaments.clock.serializers import ClockActionSerializer
from tournaments.eventlog.services import Actor
from tournaments.live.snapshot import build_snapshot
from tournaments.models import Tournament
from tournaments.notices import services as notice_services

CLOCK_OPS = {
    # op: function(t, data, actor); who may take it: tdmanager.policy
    "start": lambda t, d, a: clock_services.start_clock(t, actor=a),
    "pause": lambda t, d, a: clock_services.pause(t, actor=a, reason=d["reason"]),
    "resume": lambda t, d, a: clock_services.resume(t, actor=a, reason=d["reason"]),
    "add-time": lambda t, d, a: clock_services.add_time(t, _need(d, "seconds"), actor=a, reason=d["reason"]),
    "set-time": lambda t, d, a: clock_services.set_time_left(t, _need(d, "seconds"), actor=a, reason=d["reason"]),
    "jump": lambda t, d, a: clock_services.jump_to(t, _need(d, "item_index"), actor=a, reason=_reason(d), seconds_left=d.get("seconds")),
    "insert-break": lambda t, d, a: clock_services.insert_break(t, _need(d, "minutes"), actor=a, reason=_reason(d), color_up=d["color_up"]),
    "finish": lambda t, d, a: clock_services.finish_clock(t, actor=a, reason=_reason(d)),
    "hand-for-hand": lambda t, d, a: clock_services.start_hand_for_hand(t, actor=a, seconds_per_hand=d.get("seconds_per_hand"), reason=d["reason"]),
    "end-hand-for-hand": lambda t, d, a: clock_services.end_hand_for_hand(t, actor=a, reason=d["reason"]),
    "next-hand": lambda t, d, a: clock_services.h4h_next_hand(t, actor=a),
    "call-clock": lambda t, d, a: clock_services.call_the_clock(
        t, _need(d, "table"), actor=a, preset=d.get("preset"), seconds=d.get("seconds"), entry=d.get("entry"), player=d["player"]
    ),
    "tell-players": lambda t, d, a: notice_services.announce(t, d["text"], actor=a),
    "call-time": lambda t, d, a: clock_services.set_player_clock_call_time(
        t, _need(d, "entry"), d.get("seconds"), actor=a, preset=d.get("preset"), reason=d["reason"]
    ),
}


def _reason(data) -> str:
    """The reason a change of the clock's course needs (CLK-07: a level skipped or gone back to, a
    break added to the structure, the clock finished before its end): refused without one. Pause,
    resume and the time's adjustments are one tap, their reason optional (the log keeps both)."""
    reason = (data.get("reason") or "").strip()
    if not reason:
        raise DomainError("reason_required", _("Reason: this change of the clock is logged with its reason; type it."), status=400, field="reason")
    return reason


def _need(data, key):
    if data.get(key) is None:
        raise DomainError("missing_field", _("This action needs '%(f)s'.") % {"f": key}, status=400)
    return data[key]


class ClockView(APIView):
    """GET the live snapshot; POST ``/clock/<op>/`` for a director (or floor: hand-complete) action."""

    permission_classes = [HasRole]
    op_names = tuple(CLOCK_OPS)

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk, op=None):
        data = build_snapshot(get_object_or_404(Tournament, pk=pk))
        labels.name_games(data["clock"])  # FMT-16: the level's game in the reader's language
        return Response(data)

    @extend_schema(request=ClockActionSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk, op=None):
        if op not in CLOCK_OPS:
            raise DomainError("unknown_action", _("Unknown clock action."), status=404)
        fn = CLOCK_OPS[op]
        data = validated_body(ClockActionSerializer, request)
        t = get_object_or_404(Tournament, pk=pk)
        result = fn(t, data, Actor.from_request(request))

        if op in ("call-clock", "call-time", "tell-players"):
            return Response(result)
        data = build_snapshot(t)
        labels.name_games(data["clock"])
        if isinstance(result, dict):
            data["hand_report"] = result
        return Response(data)
