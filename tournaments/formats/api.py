"""REST API of the formats (``/api/v1/formats/…``): thin, one service per call.

Errors are ``{"code", "detail"}`` with a 4xx status (``tdmanager.api.exception_handler``).
Each resource is one view: GET reads it, POST ``…/<op>/`` runs one action, and the roles
allowed are listed next to each action.
"""

from datetime import datetime
from decimal import Decimal, InvalidOperation

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.roles import CASHIER, DIRECTOR, DISPLAY, FLOOR, HasRole, has_role
from tournaments.api import idempotent, sale_response
from tournaments.models import BlindStructure, Entry, Person, Tournament
from tournaments.services.events import Actor

from . import selectors
from .models import Match, MultiDayEvent, Series, StackOption
from .services import headsup, multiday, sitandgo, stackchoice, timed
from .services import series as series_service

STAFF = (DIRECTOR, FLOOR, CASHIER)
# Bodies and answers are JSON objects whose fields each view's description lists.
JSON = extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)


# --- input helpers: a missing or malformed field is a 400 with its name ----------------------


def need(data, key):
    if data.get(key) in (None, ""):
        raise ValidationFailed("missing_field", _("This action needs '%(f)s'.") % {"f": key})
    return data[key]


def as_int(data, key, default=None):
    if data.get(key) in (None, ""):
        if default is None:
            need(data, key)
        return default
    try:
        return int(data[key])
    except (TypeError, ValueError):
        raise ValidationFailed("bad_field", _("'%(f)s' must be a whole number.") % {"f": key}) from None


def as_money(data, key, default=None):
    if data.get(key) in (None, "") and default is not None:
        return Decimal(default)
    try:
        return Decimal(str(need(data, key)))
    except InvalidOperation:
        raise ValidationFailed("bad_field", _("'%(f)s' must be an amount.") % {"f": key}) from None


def as_datetime(data, key, default=None):
    raw = data.get(key)
    if raw in (None, ""):
        if default is not None:
            return default
        need(data, key)
    value = raw if isinstance(raw, datetime) else parse_datetime(str(raw))
    if value is None:
        raise ValidationFailed("bad_field", _("'%(f)s' must be a date and time.") % {"f": key})
    return timezone.make_aware(value) if timezone.is_naive(value) else value


def as_bool(data, key, default=False):
    raw = data.get(key, default)
    return raw if isinstance(raw, bool) else str(raw).lower() in ("1", "true", "yes", "on")


def tournament_arg(data, key="tournament"):
    return get_object_or_404(Tournament, pk=as_int(data, key))


def person_arg(data, key="person"):
    return get_object_or_404(Person, pk=as_int(data, key))


def structure_arg(data, key="structure"):
    return get_object_or_404(BlindStructure, pk=as_int(data, key))


def entry_arg(data, key="entry"):
    return get_object_or_404(Entry, pk=as_int(data, key))


def done(_result):
    """An action whose answer is the resource read afresh."""
    return None


class OpView(APIView):
    """GET: ``read(obj)``; POST ``…/<op>/``: ``ops[op] = (roles, fn(obj, data, actor, request))``."""

    permission_classes = [HasRole]
    required_roles = STAFF
    read_roles = STAFF
    model = None
    ops: dict = {}

    def get_object(self, pk):
        return get_object_or_404(self.model, pk=pk)

    def read(self, obj):
        raise DomainError("not_readable", _("Nothing to read here."), status=405)

    @JSON
    def get(self, request, pk, op=None):
        return Response(self.read(self.get_object(pk)))

    @JSON
    def post(self, request, pk, op=None):
        if op not in self.ops:
            raise DomainError("unknown_action", _("Unknown action."), status=404)
        roles, fn = self.ops[op]
        if not has_role(request.user, *roles):
            raise DomainError("permission_denied", _("Your role does not allow this action."), status=403)
        obj = self.get_object(pk)
        result = fn(obj, request.data, Actor.from_request(request), request)
        if isinstance(result, Response):
            return result
        return Response(result if result is not None else self.read(self.get_object(pk)))


class CreateView(APIView):
    """POST: create one thing (director only)."""

    permission_classes = [HasRole]
    required_roles = (DIRECTOR,)

    def create(self, data, actor):
        raise NotImplementedError

    @JSON
    def post(self, request):
        return Response(self.create(request.data, Actor.from_request(request)), status=201)


# --- sit & go --------------------------------------------------------------------------------


class SitAndGoCreateView(CreateView):
    """Create a sit & go open for registration: ``name``, ``buy_in``, ``fee``, ``starting_stack``,
    ``structure``, optional ``tables`` (10 players each) and ``start_at``."""

    def create(self, d, actor):
        t = sitandgo.create_sit_and_go(name=need(d, "name"), buy_in=as_money(d, "buy_in"), fee=as_money(d, "fee", "0"),
                                       starting_stack=as_int(d, "starting_stack"), structure=structure_arg(d), actor=actor,
                                       tables=as_int(d, "tables", 1), start_at=as_datetime(d, "start_at", timezone.now()))
        return {"tournament": t.pk, "name": t.name, "field_cap": t.field_cap, "status": t.status}


# --- multi-day events --------------------------------------------------------------------------


class MultiDayCreateView(CreateView):
    """Create a multi-day event: ``name``, ``flights`` ([{"label", "start_at"}]), ``day2_start_at``,
    ``buy_in``, ``fee``, ``starting_stack``, ``structure``; optional ``max_entries_per_player``,
    ``late_reg_closes_after_level``, ``multi_flight_stack`` (BEST/FIRST), ``surrender_allowed``,
    ``chip_leader_prizes`` (list), ``chip_leader_ties`` (SHARE/DRAW), ``table_size``."""

    def create(self, d, actor):
        flights = d.get("flights") or []
        if not isinstance(flights, list):
            raise ValidationFailed("bad_field", _("'flights' must be a list."))
        event = multiday.create_event(
            name=need(d, "name"), flights=[{"label": f.get("label", ""), "start_at": as_datetime(f, "start_at")} for f in flights],
            day2_start_at=as_datetime(d, "day2_start_at"), buy_in=as_money(d, "buy_in"), fee=as_money(d, "fee", "0"),
            starting_stack=as_int(d, "starting_stack"), structure=structure_arg(d), actor=actor, table_size=as_int(d, "table_size", 9),
            max_entries_per_player=as_int(d, "max_entries_per_player", 1),
            late_reg_closes_after_level=as_int(d, "late_reg_closes_after_level", 0) or None,
            multi_flight_stack=d.get("multi_flight_stack") or "BEST", surrender_allowed=as_bool(d, "surrender_allowed", True),
            chip_leader_prizes=d.get("chip_leader_prizes"), chip_leader_ties=d.get("chip_leader_ties") or "SHARE",
        )
        return selectors.event_data(event)


class MultiDayView(OpView):
    """GET the event (flights, bagging, chip leaders, Day 2). POST ``build-day2``, ``start-day2``,
    ``finish-day2`` (director)."""

    model = MultiDayEvent
    read_roles = STAFF + (DISPLAY,)
    ops = {
        "build-day2": ((DIRECTOR,), lambda e, d, a, r: done(multiday.build_day2(e, actor=a))),
        "start-day2": ((DIRECTOR,), lambda e, d, a, r: done(multiday.start_day2(e, actor=a))),
        "finish-day2": ((DIRECTOR,), lambda e, d, a, r: done(multiday.finish_day2(e, actor=a))),
    }

    def read(self, event):
        return selectors.event_data(event)


def _bag(t, d, a, r):
    rows = d.get("rows")
    if not isinstance(rows, list):
        raise ValidationFailed("bad_field", _("'rows' must be a list of bags."))
    return multiday.bag_chips(t, rows, actor=a)


def _close(t, d, a, r):
    flight = multiday.close_flight(t, actor=a, reason=d.get("reason", ""))
    return selectors.event_data(flight.event)


class FlightView(OpView):
    """GET the flight's bagging state. POST ``bag`` (floor, director): ``rows`` =
    [{"entry" or "number", "chips", "bag_number", "dealer", "signed", "surrender"}];
    ``close`` (director): optional ``reason`` when the bags differ from the chips in play."""

    model = Tournament
    ops = {"bag": ((DIRECTOR, FLOOR), _bag), "close": ((DIRECTOR,), _close)}

    def read(self, t):
        return multiday.bagging_summary(multiday._flight_of(t))


class StackOptionsView(APIView):
    """GET a tournament's buy-in options (FMT-07); POST one (director): ``label``, ``buy_in``,
    ``fee``, ``chips``, and ``override_reason`` once registration is open."""

    permission_classes = [HasRole]
    required_roles = (DIRECTOR,)
    read_roles = STAFF

    @JSON
    def get(self, request, pk):
        t = get_object_or_404(Tournament, pk=pk)
        return Response([{"id": o.pk, "label": o.label, "buy_in": str(o.buy_in), "fee": str(o.fee), "chips": o.chips} for o in t.stack_options.all()])

    @JSON
    def post(self, request, pk):
        t = get_object_or_404(Tournament, pk=pk)
        d = request.data
        o = stackchoice.add_stack_option(t, label=need(d, "label"), buy_in=as_money(d, "buy_in"), fee=as_money(d, "fee", "0"),
                                         chips=as_int(d, "chips"), actor=Actor.from_request(request), override_reason=d.get("override_reason", ""))
        return Response({"id": o.pk, "label": o.label, "buy_in": str(o.buy_in), "fee": str(o.fee), "chips": o.chips}, status=201)


class StackChoiceSaleView(APIView):
    """Sell an entry with a stack option (cashier): ``person``, ``option``, ``method``.
    Accepts ``Idempotency-Key`` like every cashier POST."""

    permission_classes = [HasRole]
    required_roles = (CASHIER, DIRECTOR)

    @JSON
    def post(self, request, pk):
        t = get_object_or_404(Tournament, pk=pk)
        d = request.data

        def compute():
            option = get_object_or_404(StackOption, pk=as_int(d, "option"))
            sale = stackchoice.register_with_stack_choice(t, person_arg(d), option, method=d.get("method", "CASH"), actor=Actor.from_request(request))
            return sale_response(sale)

        return idempotent(request, compute)


# --- heads-up brackets ---------------------------------------------------------------------------


class BracketCreateView(CreateView):
    """Give a HEADS_UP tournament its bracket: ``tournament``, ``size`` (16/32/64; 2–8 for a
    final day), ``level_minutes``, ``punctuality`` (NO_SHOW / LATENESS), ``games_to_win``,
    ``no_show_grace_minutes``, ``rounds_to_play``, ``feeds_into``, ``previous_group``, ``paid_players``
    (8 default: a bracket played to a winner pays its last 8 players; or 4)."""

    def create(self, d, actor):
        t = tournament_arg(d)
        feeds = get_object_or_404(Tournament, pk=as_int(d, "feeds_into")) if d.get("feeds_into") else None
        prev = get_object_or_404(Tournament, pk=as_int(d, "previous_group")) if d.get("previous_group") else None
        bracket = headsup.create_bracket(t, actor=actor, size=as_int(d, "size", 16), level_minutes=as_int(d, "level_minutes", 10),
                                         punctuality=d.get("punctuality") or "NO_SHOW", games_to_win=as_int(d, "games_to_win", 2),
                                         no_show_grace_minutes=as_int(d, "no_show_grace_minutes", 5),
                                         rounds_to_play=as_int(d, "rounds_to_play", 0) or None, feeds_into=feeds,
                                         previous_group=prev.bracket if prev is not None and hasattr(prev, "bracket") else None,
                                         paid_players=as_int(d, "paid_players", 8))
        return selectors.bracket_data(bracket)


class BracketView(OpView):
    """GET the bracket (rounds, matches, match clocks, seat requests). POST ``draw`` (director,
    optional ``seeds`` = entry ids best first), ``seat-request`` (``person``), ``allocate``."""

    model = Tournament
    read_roles = STAFF + (DISPLAY,)
    ops = {
        "draw": ((DIRECTOR,), lambda t, d, a, r: done(headsup.draw_bracket(t, actor=a, seeds=d.get("seeds") or None))),
        "seat-request": ((DIRECTOR, CASHIER), lambda t, d, a, r: done(headsup.request_seat(t, person_arg(d), actor=a))),
        "allocate": ((DIRECTOR,), lambda t, d, a, r: headsup.allocate_seats(t, actor=a)),
    }

    def read(self, t):
        return selectors.bracket_data(headsup._bracket_of(t))


def _replacement(m, d, a, request):
    def compute():
        headsup.seat_replacement(m, person_arg(d), method=d.get("method", "CASH"), actor=a)
        m.refresh_from_db()
        return Response(selectors.match_data(m, m.bracket))

    return idempotent(request, compute)


class MatchView(OpView):
    """GET a match. POST (floor, director): ``start``, ``seat`` (``entry``), ``game`` (``winner`` =
    entry id), ``free-seat``, ``bye``, ``lateness``; ``replacement`` (cashier too: a sale)
    with ``person`` and ``method``."""

    model = Match
    read_roles = STAFF + (DISPLAY,)
    ops = {
        "start": ((DIRECTOR, FLOOR), lambda m, d, a, r: done(headsup.start_match(m, actor=a))),
        "seat": ((DIRECTOR, FLOOR), lambda m, d, a, r: done(headsup.seat_player(m, entry_arg(d), actor=a))),
        "game": ((DIRECTOR, FLOOR), lambda m, d, a, r: done(headsup.record_game(m, entry_arg(d, "winner"), actor=a))),
        "free-seat": ((DIRECTOR, FLOOR), lambda m, d, a, r: done(headsup.free_absent_seat(m, actor=a))),
        "bye": ((DIRECTOR, FLOOR), lambda m, d, a, r: done(headsup.award_bye(m, actor=a))),
        "lateness": ((DIRECTOR, FLOOR), lambda m, d, a, r: done(headsup.apply_lateness(m, actor=a))),
        "replacement": ((DIRECTOR, CASHIER), _replacement),
    }

    def read(self, m):
        return selectors.match_data(Match.objects.select_related("bracket", "player_a__person", "player_b__person").get(pk=m.pk), m.bracket)


# --- timed events and qualifying tables -------------------------------------------------------------


def _timed_read(t):
    data = {"tournament": t.pk, "status": t.status}
    if hasattr(t, "timed"):
        tm = t.timed
        data.update(ends_at=tm.ends_at.isoformat(), end_condition=tm.end_condition, chip_tie=tm.chip_tie,
                    finished=tm.finished_at is not None, result=tm.result)
    return data


class TimedView(OpView):
    """GET the timed event. POST ``configure`` (director): ``ends_at``, ``end_condition``
    (TIME_LIMIT_CHIPCOUNT / LAST_PLAYER), ``chip_tie`` (SHARE / DRAW); ``finish`` (director):
    ``counts`` = [{"entry", "chips"}] for every player still in; ``send-winner`` (qualifying table)."""

    model = Tournament
    read_roles = STAFF + (DISPLAY,)
    ops = {
        "configure": ((DIRECTOR,), lambda t, d, a, r: done(timed.configure_timed(t, ends_at=as_datetime(d, "ends_at"), actor=a,
                                                                            end_condition=d.get("end_condition") or "TIME_LIMIT_CHIPCOUNT",
                                                                            chip_tie=d.get("chip_tie") or "SHARE"))),
        "finish": ((DIRECTOR,), lambda t, d, a, r: timed.finish_timed(t, actor=a, counts=d.get("counts") or [])),
        "send-winner": ((DIRECTOR,), lambda t, d, a, r: {"entry": timed.send_winner_to_final(t, actor=a).pk}),
    }

    def read(self, t):
        return _timed_read(t)


class QualifierGroupCreateView(CreateView):
    """Link qualifying tables to a final: ``name``, ``final`` (tournament id), ``qualifiers`` (ids)."""

    def create(self, d, actor):
        qualifiers = d.get("qualifiers") or []
        group = timed.create_qualifier_group(name=need(d, "name"), final=tournament_arg(d, "final"),
                                             qualifiers=[int(q) for q in qualifiers], actor=actor)
        return {"id": group.pk, "name": group.name, "final": group.final_id,
                "qualifiers": list(group.qualifiers.values_list("tournament_id", flat=True))}


# --- series ---------------------------------------------------------------------------------


class SeriesCreateView(CreateView):
    """Create a leaderboard series: ``name``; optional ``cycle_length`` (20), ``lb_constant_mode``
    (A), ``participants`` (ENTRIES), ``shared_rule``, ``tie_break``, ``tickets_per_cycle`` (4)."""

    def create(self, d, actor):
        fields = {k: d[k] for k in ("lb_constant_mode", "participants", "shared_rule", "tie_break", "ticket_description") if d.get(k)}
        for k in ("cycle_length", "tickets_per_cycle"):
            if d.get(k) not in (None, ""):
                fields[k] = as_int(d, k)
        s = series_service.create_series(name=need(d, "name"), actor=actor, **fields)
        return selectors.leaderboard_data(s)


def _schedule(s, d, a, r):
    day = parse_date(str(need(d, "date")))
    if day is None:
        raise ValidationFailed("bad_field", _("'date' must be a date (YYYY-MM-DD)."))
    t = series_service.schedule_daily(s, day, structure=structure_arg(d), starting_stack=as_int(d, "starting_stack"), actor=a)
    return {"tournament": t.pk, "name": t.name, "buy_in": str(t.buy_in), "fee": str(t.fee)}


class SeriesView(OpView):
    """GET the leaderboard (``?cycle=`` for an archived one). POST (director): ``attach`` and
    ``score`` (``tournament``), ``schedule-daily`` (``date``, ``structure``, ``starting_stack``),
    ``settle`` (``cycle``, ``people``, ``reason``) for a tie on the last ticket."""

    model = Series
    read_roles = STAFF + (DISPLAY,)
    ops = {
        "attach": ((DIRECTOR,), lambda s, d, a, r: done(series_service.attach(s, tournament_arg(d), actor=a))),
        "score": ((DIRECTOR,), lambda s, d, a, r: done(series_service.score_tournament(_series_tournament(s, d), actor=a))),
        "schedule-daily": ((DIRECTOR,), _schedule),
        "settle": ((DIRECTOR,), lambda s, d, a, r: done(series_service.settle_undecided(s, as_int(d, "cycle"), d.get("people") or [], actor=a,
                                                                                 reason=d.get("reason", "")))),
    }

    @JSON
    def get(self, request, pk, op=None):
        s = self.get_object(pk)
        cycle = request.query_params.get("cycle")
        return Response(selectors.leaderboard_data(s, int(cycle) if cycle and cycle.isdigit() else None))

    def read(self, s):
        return selectors.leaderboard_data(s)


def _series_tournament(s, d):
    t = tournament_arg(d)
    if not s.links.filter(tournament=t).exists():
        raise DomainError("not_in_series", _("This tournament is not part of this series."))
    return t
