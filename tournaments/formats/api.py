"""REST API of the formats (``/api/v1/formats/…``): thin, one service per call.

Errors are ``{"code", "detail"}`` with a 4xx status (``tdmanager.api.exception_handler``).
Each resource is one view: GET reads it, POST ``…/<op>/`` runs one action, and the roles
allowed are listed next to each action.
"""

from datetime import datetime
from decimal import Decimal

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from tdmanager import dates
from tdmanager.api import body_object
from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.fields import AmountField, TextField, readers_marks, whole_number
from tdmanager.idempotency import idempotent
from tdmanager.money import plain_amount
from tdmanager.roles import HasRole
from tdmanager.security import no_store
from tournaments.api import sale_response
from tournaments.eventlog.services import Actor
from tournaments.house import HouseRules
from tournaments.models import BlindStructure, Entry, Person, Tournament

from . import selectors
from .models import Match, MultiDayEvent, Series, StackOption
from .services import headsup, multiday, sitandgo, stackchoice, timed
from .services import series as series_service

# Bodies and answers are JSON objects whose fields each view's description lists.
JSON = extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)


# --- input helpers: a missing or malformed field is a 400 with its name ----------------------


MAX_INT = 2**31 - 1  # ids, counts and stacks the columns can hold


def need(data, key):
    if not isinstance(data, dict):
        raise ValidationFailed("bad_body", _("The body must be a JSON object."))
    if data.get(key) in (None, ""):
        raise ValidationFailed("missing_field", _("This action needs '%(f)s'.") % {"f": key})
    return data[key]


def _bad(key, message):
    return ValidationFailed("bad_field", message % {"f": key})


def to_int(raw, key, lo=0, hi=MAX_INT):
    """A whole number lo ≤ n ≤ hi from JSON (an integer, or its digits as a string)."""
    if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
        raise _bad(key, _("'%(f)s' must be a whole number."))
    try:
        value = int(raw) if not isinstance(raw, float) or raw.is_integer() else None
    except (TypeError, ValueError, OverflowError):
        value = None
    if value is None:
        raise _bad(key, _("'%(f)s' must be a whole number."))
    if not lo <= value <= hi:
        raise ValidationFailed("bad_field", _("'%(f)s' must be between %(lo)s and %(hi)s.") % {"f": key, "lo": lo, "hi": hi})
    return value


def to_id(raw, key):
    """An id: a JSON integer, as everywhere in the API (``tdmanager.fields``): 1.9, true and "2" are refused."""
    if type(raw) is not int:
        raise _bad(key, _("'%(f)s' must be a whole number."))
    return to_int(raw, key, 1, 2**63 - 1)


def as_id(data, key):
    return to_id(need(data, key), key)


def as_int(data, key, default=None, lo=0, hi=MAX_INT):
    if not isinstance(data, dict) or data.get(key) in (None, ""):
        if default is None:
            need(data, key)
        return default
    return to_int(data[key], key, lo, hi)


def as_money(data, key, default=None, *, localize=False):
    """An amount ≥ 0 with at most two decimals that a money column holds (below 10^11), read as
    every amount is (``tdmanager.money.plain_amount``): plain digits as text, or a JSON integer;
    ``localize`` (a page's form) also takes the reader's decimal mark. Never "3_00", "+300", "3e2",
    fullwidth digits or a binary float."""
    if isinstance(data, dict) and data.get(key) in (None, "") and default is not None:
        return Decimal(default)
    raw = need(data, key)
    value = Decimal(raw) if whole_number(raw) is not None else plain_amount(raw.strip() if localize and isinstance(raw, str) else raw, readers_marks(localize))
    if value is None:
        raise _bad(key, _("'%(f)s' must be an amount."))
    if value < 0 or value >= Decimal("1e11") or value.quantize(Decimal("0.01")) != value:
        raise _bad(key, _("'%(f)s' must be an amount of zero or more, in cents."))
    return value.quantize(Decimal("0.01"))


def as_text(data, key, max_length, default=None):
    """A string of at most ``max_length`` characters (its column's length)."""
    if default is not None and (not isinstance(data, dict) or data.get(key) in (None, "")):
        return default
    raw = need(data, key)
    if not isinstance(raw, str) or len(raw) > max_length:
        raise ValidationFailed("bad_field", _("'%(f)s' must be a text of at most %(n)s characters.") % {"f": key, "n": max_length})
    return raw


def as_list(data, key, item=None):
    """A list (empty when missing); ``item``: ``int`` (whole numbers), ``"id"`` (ids) or ``dict`` (objects)."""
    raw = data.get(key) if isinstance(data, dict) else None
    if raw in (None, ""):
        return []
    if not isinstance(raw, list) or len(raw) > 10_000:
        raise ValidationFailed("bad_field", _("'%(f)s' must be a list.") % {"f": key})
    if item is int:
        return [to_int(v, key) for v in raw]
    if item == "id":
        return [to_id(v, key) for v in raw]
    if item is dict and not all(isinstance(v, dict) for v in raw):
        raise ValidationFailed("bad_field", _("'%(f)s' must be a list of objects.") % {"f": key})
    return raw


def as_datetime(data, key, default=None):
    raw = data.get(key) if isinstance(data, dict) else None
    if raw in (None, ""):
        if default is not None:
            return default
        need(data, key)
    try:
        value = raw if isinstance(raw, datetime) else parse_datetime(str(raw)) if isinstance(raw, str) else None
        if value is not None and timezone.is_naive(value):
            value = timezone.make_aware(value)
    except (ValueError, OverflowError):
        value = None
    if value is None:
        raise ValidationFailed("bad_field", _("'%(f)s' must be a date and time.") % {"f": key})
    return dates.check(value, key, key, "bad_field")


def as_bool(data, key, default=False):
    raw = data.get(key, default) if isinstance(data, dict) else default
    return raw if isinstance(raw, bool) else str(raw).lower() in ("1", "true", "yes", "on")


def tournament_arg(data, key="tournament"):
    return get_object_or_404(Tournament, pk=as_id(data, key))


def person_arg(data, key="person"):
    return get_object_or_404(Person, pk=as_id(data, key))


def structure_arg(data, key="structure"):
    return get_object_or_404(BlindStructure, pk=as_id(data, key))


def entry_arg(data, key="entry"):
    return get_object_or_404(Entry, pk=as_id(data, key))


def done(_result):
    """An action whose answer is the resource read afresh."""
    return None


class OpView(APIView):
    """GET: ``read(obj)``; POST ``…/<op>/``: ``ops[op] = fn(obj, data, actor, request)`` (who may: tdmanager.policy)."""

    permission_classes = [HasRole]
    model = None
    ops: dict = {}

    @property
    def op_names(self):
        """The actions, for the schema (``tdmanager.schema``): ``op`` is one of them."""
        return tuple(self.ops)

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
        fn = self.ops[op]
        obj = self.get_object(pk)
        result = fn(obj, body_object(request), Actor.from_request(request), request)
        if isinstance(result, Response):
            return result
        return Response(result if result is not None else self.read(self.get_object(pk)))


class CreateView(APIView):
    """POST: create one thing (director only)."""

    permission_classes = [HasRole]

    def create(self, data, actor):
        raise NotImplementedError

    @JSON
    def post(self, request):
        return Response(self.create(body_object(request), Actor.from_request(request)), status=201)


# --- sit & go --------------------------------------------------------------------------------


class SitAndGoCreateView(CreateView):
    """Create a sit & go open for registration: ``name``, ``buy_in``, ``fee``, ``starting_stack``,
    ``structure``, optional ``tables`` (10 players each) and ``start_at``."""

    def create(self, d, actor):
        t = sitandgo.create_sit_and_go(
            name=as_text(d, "name", 160),
            buy_in=as_money(d, "buy_in"),
            fee=as_money(d, "fee", "0"),
            starting_stack=as_int(d, "starting_stack"),
            structure=structure_arg(d),
            actor=actor,
            tables=as_int(d, "tables", 1, lo=1, hi=10),
            start_at=as_datetime(d, "start_at", timezone.now()),
        )
        return {"tournament": t.pk, "name": t.name, "field_cap": t.field_cap, "status": t.status}


# --- multi-day events --------------------------------------------------------------------------


class MultiDayCreateView(CreateView):
    """Create a multi-day event: ``name``, ``flights`` ([{"label", "start_at"}]), ``day2_start_at``,
    ``buy_in``, ``fee``, ``starting_stack``, ``structure``; optional ``max_entries_per_player``,
    ``late_reg_closes_after_level``, ``multi_flight_stack`` (BEST/FIRST), ``surrender_allowed``,
    ``chip_leader_prizes`` (list), ``chip_leader_ties`` (SHARE/DRAW), ``table_size``."""

    def create(self, d, actor):
        flights = as_list(d, "flights", dict)
        event = multiday.create_event(
            name=as_text(d, "name", 140),
            flights=[{"label": as_text(f, "label", 20), "start_at": as_datetime(f, "start_at")} for f in flights],
            day2_start_at=as_datetime(d, "day2_start_at"),
            buy_in=as_money(d, "buy_in"),
            fee=as_money(d, "fee", "0"),
            starting_stack=as_int(d, "starting_stack"),
            structure=structure_arg(d),
            actor=actor,
            table_size=as_int(d, "table_size", 9, lo=2, hi=HouseRules().max_seats_per_table),  # FMT-14, C20
            max_entries_per_player=as_int(d, "max_entries_per_player", 1),
            late_reg_closes_after_level=as_int(d, "late_reg_closes_after_level", 0) or None,
            multi_flight_stack=as_text(d, "multi_flight_stack", 10, "BEST"),
            surrender_allowed=as_bool(d, "surrender_allowed", True),
            chip_leader_prizes=_prizes(d),
            chip_leader_ties=as_text(d, "chip_leader_ties", 10, "SHARE"),
        )
        return selectors.event_data(event)


def _prizes(d):
    """Chip-leader prizes: a list of amounts (missing: the defaults)."""
    if not isinstance(d.get("chip_leader_prizes"), list):
        return None if d.get("chip_leader_prizes") in (None, "") else as_list(d, "chip_leader_prizes")
    return [as_money({"prize": p}, "prize") for p in d["chip_leader_prizes"]]


class MultiDayView(OpView):
    """GET the event (flights, bagging, chip leaders, Day 2). POST ``build-day2``, ``start-day2``,
    ``finish-day2`` (director)."""

    model = MultiDayEvent
    ops = {
        "build-day2": lambda e, d, a, r: done(multiday.build_day2(e, actor=a)),
        "start-day2": lambda e, d, a, r: done(multiday.start_day2(e, actor=a)),
        "finish-day2": lambda e, d, a, r: done(multiday.finish_day2(e, actor=a)),
    }

    def read(self, event):
        return selectors.event_data(event)


def _bag(t, d, a, r):
    if not isinstance(d.get("rows"), list):
        raise ValidationFailed("bad_field", _("'rows' must be a list of bags."))
    return multiday.bag_chips(t, as_list(d, "rows", dict), actor=a)


def _close(t, d, a, r):
    flight = multiday.close_flight(t, actor=a, reason=as_text(d, "reason", 200, ""))
    return selectors.event_data(flight.event)


class FlightView(OpView):
    """GET the flight's bagging state. POST ``bag`` (floor, director): ``rows`` =
    [{"entry" or "number", "chips", "bag_number", "dealer", "signed", "surrender"}];
    ``close`` (director): optional ``reason`` when the bags differ from the chips in play."""

    model = Tournament
    ops = {"bag": _bag, "close": _close}

    def read(self, t):
        return selectors.bagging_summary(multiday._flight_of(t))


class StackOptionOut(serializers.Serializer):
    id = serializers.IntegerField()
    label = TextField()
    buy_in = AmountField(max_digits=13, decimal_places=2)
    fee = AmountField(max_digits=13, decimal_places=2)
    chips = serializers.IntegerField()


class StackOptionsView(APIView):
    """GET a tournament's buy-in options (FMT-07); POST one (director): ``label``, ``buy_in``,
    ``fee``, ``chips``, and ``override_reason`` once registration is open."""

    permission_classes = [HasRole]

    @extend_schema(responses=StackOptionOut(many=True))
    def get(self, request, pk):
        t = get_object_or_404(Tournament, pk=pk)
        return Response([{"id": o.pk, "label": o.label, "buy_in": str(o.buy_in), "fee": str(o.fee), "chips": o.chips} for o in t.stack_options.all()])

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: StackOptionOut})
    def post(self, request, pk):
        t = get_object_or_404(Tournament, pk=pk)
        d = body_object(request)
        o = stackchoice.add_stack_option(
            t,
            label=as_text(d, "label", 60),
            buy_in=as_money(d, "buy_in"),
            fee=as_money(d, "fee", "0"),
            chips=as_int(d, "chips"),
            actor=Actor.from_request(request),
            override_reason=as_text(d, "override_reason", 200, ""),
        )
        return Response({"id": o.pk, "label": o.label, "buy_in": str(o.buy_in), "fee": str(o.fee), "chips": o.chips}, status=201)


class StackChoiceSaleView(APIView):
    """Sell an entry with a stack option (cashier): ``person``, ``option``, ``method``.
    Accepts ``Idempotency-Key`` like every cashier POST."""

    permission_classes = [HasRole]

    @JSON
    def post(self, request, pk):
        t = get_object_or_404(Tournament, pk=pk)
        d = body_object(request)

        def compute():
            option = get_object_or_404(StackOption, pk=as_id(d, "option"))
            sale = stackchoice.register_with_stack_choice(t, person_arg(d), option, method=as_text(d, "method", 10, "CASH"), actor=Actor.from_request(request))
            return sale_response(sale)

        return no_store(idempotent(request, compute))  # the receipt's phone link is that page's key


# --- heads-up brackets ---------------------------------------------------------------------------


def _event_prices(d) -> dict:
    """A new format event's tournament: ``name``, ``start_at`` (default now), ``buy_in``, ``fee``
    (default 0), ``starting_stack``, ``structure``."""
    return {
        "name": as_text(d, "name", 160),
        "start_at": as_datetime(d, "start_at", timezone.now()),
        "buy_in": as_money(d, "buy_in"),
        "fee": as_money(d, "fee", "0"),
        "starting_stack": as_int(d, "starting_stack", lo=1),
        "structure": structure_arg(d),
    }


class BracketCreateView(CreateView):
    """A heads-up bracket: ``size`` (16/32/64; 2–8 for a final day), ``level_minutes``,
    ``punctuality`` (NO_SHOW / LATENESS), ``games_to_win``, ``no_show_grace_minutes``,
    ``rounds_to_play``, ``feeds_into``, ``previous_group``, ``paid_players`` (8 default: a bracket
    played to a winner pays its last 8 players; or 4). With ``tournament``: that HEADS_UP
    tournament gets it; without: a new heads-up event open for registration (as the page
    makes one), from ``name``, ``start_at``, ``buy_in``, ``fee``, ``starting_stack``, ``structure``."""

    def create(self, d, actor):
        feeds = get_object_or_404(Tournament, pk=as_id(d, "feeds_into")) if d.get("feeds_into") else None
        prev = get_object_or_404(Tournament, pk=as_id(d, "previous_group")) if d.get("previous_group") else None
        options = {
            "size": as_int(d, "size", 16, hi=1024),
            "level_minutes": as_int(d, "level_minutes", 10, lo=1, hi=240),
            "punctuality": as_text(d, "punctuality", 10, "NO_SHOW"),
            "games_to_win": as_int(d, "games_to_win", 2, lo=1, hi=9),
            "no_show_grace_minutes": as_int(d, "no_show_grace_minutes", 5, hi=240),
            "rounds_to_play": as_int(d, "rounds_to_play", 0, hi=20) or None,
            "feeds_into": feeds,
            "previous_group": prev.bracket if prev is not None and hasattr(prev, "bracket") else None,
            "paid_players": as_int(d, "paid_players", 8, hi=1024),
        }
        if "tournament" in d:
            bracket = headsup.create_bracket(tournament_arg(d), actor=actor, **options)
        else:
            bracket = headsup.create_headsup_event(**_event_prices(d), actor=actor, **options)
        return selectors.bracket_data(bracket)


class BracketView(OpView):
    """GET the bracket (rounds, matches, match clocks, seat requests). POST ``draw`` (director,
    optional ``seeds`` = entry ids best first), ``seat-request`` (``person``), ``allocate``."""

    model = Tournament
    ops = {
        "draw": lambda t, d, a, r: done(headsup.draw_bracket(t, actor=a, seeds=as_list(d, "seeds", "id") or None)),
        "seat-request": lambda t, d, a, r: done(headsup.request_seat(t, person_arg(d), actor=a)),
        "allocate": lambda t, d, a, r: headsup.allocate_seats(t, actor=a),
    }

    def read(self, t):
        return selectors.bracket_data(headsup._bracket_of(t))


def _replacement(m, d, a, request):
    def compute():
        headsup.seat_replacement(m, person_arg(d), method=as_text(d, "method", 10, "CASH"), actor=a)
        m.refresh_from_db()
        return Response(selectors.match_data(m, m.bracket))

    return idempotent(request, compute)


class MatchView(OpView):
    """GET a match. POST (floor, director): ``start``, ``seat`` (``entry``), ``game`` (``winner`` =
    entry id), ``free-seat``, ``bye``, ``lateness``; ``replacement`` (cashier too: a sale)
    with ``person`` and ``method``."""

    model = Match
    ops = {
        "start": lambda m, d, a, r: done(headsup.start_match(m, actor=a)),
        "seat": lambda m, d, a, r: done(headsup.seat_player(m, entry_arg(d), actor=a)),
        "game": lambda m, d, a, r: done(headsup.record_game(m, entry_arg(d, "winner"), actor=a)),
        "free-seat": lambda m, d, a, r: done(headsup.free_absent_seat(m, actor=a)),
        "bye": lambda m, d, a, r: done(headsup.award_bye(m, actor=a)),
        "lateness": lambda m, d, a, r: done(headsup.apply_lateness(m, actor=a)),
        "replacement": _replacement,
    }

    def read(self, m):
        return selectors.match_data(Match.objects.select_related("bracket", "player_a__person", "player_b__person").get(pk=m.pk), m.bracket)


# --- timed events and qualifying tables -------------------------------------------------------------


def _timed_read(t):
    data = {"tournament": t.pk, "status": t.status}
    if hasattr(t, "timed"):
        tm = t.timed
        data.update(ends_at=tm.ends_at.isoformat(), end_condition=tm.end_condition, chip_tie=tm.chip_tie, finished=tm.finished_at is not None, result=tm.result)
    return data


class TimedView(OpView):
    """GET the timed event. POST ``configure`` (director): ``ends_at``, ``end_condition``
    (TIME_LIMIT_CHIPCOUNT / LAST_PLAYER), ``chip_tie`` (SHARE / DRAW); ``finish`` (director):
    ``counts`` = [{"entry", "chips"}] for every player still in; ``send-winner`` (qualifying table)."""

    model = Tournament
    ops = {
        "configure": lambda t, d, a, r: done(
            timed.configure_timed(
                t,
                ends_at=as_datetime(d, "ends_at"),
                actor=a,
                end_condition=as_text(d, "end_condition", 24, "TIME_LIMIT_CHIPCOUNT"),
                chip_tie=as_text(d, "chip_tie", 10, "SHARE"),
            )
        ),
        "finish": lambda t, d, a, r: timed.finish_timed(t, actor=a, counts=as_list(d, "counts", dict)),
        "send-winner": lambda t, d, a, r: {"entry": timed.send_winner_to_final(t, actor=a).pk},
    }

    def read(self, t):
        return _timed_read(t)


class TimedCreateView(CreateView):
    """A new timed event open for registration (as the page makes one): ``name``, ``start_at``,
    ``buy_in``, ``fee``, ``starting_stack``, ``structure``, ``minutes`` (how long play lasts),
    optional ``field_cap``, ``end_condition`` (TIME_LIMIT_CHIPCOUNT / LAST_PLAYER), ``chip_tie``
    (SHARE / DRAW)."""

    def create(self, d, actor):
        t = timed.create_timed_event(
            **_event_prices(d),
            actor=actor,
            minutes=as_int(d, "minutes", lo=1, hi=7 * 24 * 60),
            field_cap=as_int(d, "field_cap", 0, hi=MAX_INT) or None,
            end_condition=as_text(d, "end_condition", 24, "TIME_LIMIT_CHIPCOUNT"),
            chip_tie=as_text(d, "chip_tie", 10, "SHARE"),
        )
        return _timed_read(t)


class QualifierGroupCreateView(CreateView):
    """Link qualifying tables to a final: ``name``, ``final`` (tournament id), ``qualifiers`` (ids)."""

    def create(self, d, actor):
        group = timed.create_qualifier_group(
            name=as_text(d, "name", 120), final=tournament_arg(d, "final"), qualifiers=as_list(d, "qualifiers", "id"), actor=actor
        )
        return {"id": group.pk, "name": group.name, "final": group.final_id, "qualifiers": list(group.qualifiers.values_list("tournament_id", flat=True))}


# --- series ---------------------------------------------------------------------------------


def as_points(data, key):
    """Points: a number ≥ 0 with at most two decimals, below a million (its column)."""
    value = as_money(data, key)
    if value >= Decimal("1e6"):
        raise ValidationFailed("bad_field", _("'%(f)s' must be between %(lo)s and %(hi)s.") % {"f": key, "lo": 0, "hi": 999999})
    return value


class SeriesCreateView(CreateView):
    """Create a leaderboard series or a league: ``name``; optional ``cycle_length`` (20; ``null``
    for a league the director closes), ``lb_constant_mode`` (A), ``participants`` (ENTRIES),
    ``shared_rule``, ``tie_break``, ``tickets_per_cycle`` (4). A league sets ``scoring`` (SQRT,
    SQRT_BUYIN, TABLE, LINEAR; SANREMO by default), ``multiplier`` (10), ``points_table``
    (points for 1st, 2nd, …), ``participation_points`` (0), ``knockout_points`` (0: points for
    each player knocked out in a bounty event) and ``best_of`` (all)."""

    def create(self, d, actor):
        fields = {
            k: as_text(d, k, n)
            for k, n in (("lb_constant_mode", 1), ("participants", 10), ("shared_rule", 20), ("tie_break", 20), ("ticket_description", 200), ("scoring", 10))
            if d.get(k)
        }
        for k in ("cycle_length", "tickets_per_cycle", "best_of"):
            if d.get(k) not in (None, ""):
                fields[k] = as_int(d, k, lo=0 if k == "tickets_per_cycle" else 1, hi=1000)
        if "cycle_length" in d and d["cycle_length"] is None:
            fields["cycle_length"] = None
        for k in ("multiplier", "participation_points", "knockout_points"):
            if d.get(k) not in (None, ""):
                fields[k] = as_points(d, k)
        if d.get("points_table") not in (None, ""):
            table = as_list(d, "points_table")
            if len(table) > 1000:
                raise ValidationFailed("bad_field", _("'%(f)s' must be a list.") % {"f": "points_table"})
            fields["points_table"] = [as_points({"points_table": v}, "points_table") for v in table]
        s = series_service.create_series(name=as_text(d, "name", 120), actor=actor, **fields)
        return selectors.leaderboard_data(s)


def _schedule(s, d, a, r):
    try:
        day = parse_date(as_text(d, "date", 10))
    except ValueError:
        day = None
    if day is None:
        raise ValidationFailed("bad_field", _("'date' must be a date (YYYY-MM-DD)."))
    dates.check(day, "date", "date", "bad_field")
    t = series_service.schedule_daily(s, day, structure=structure_arg(d), starting_stack=as_int(d, "starting_stack", lo=1), actor=a)
    return {"tournament": t.pk, "name": t.name, "buy_in": str(t.buy_in), "fee": str(t.fee)}


class SeriesView(OpView):
    """GET the leaderboard (``?cycle=`` for an archived one). POST (director): ``attach`` and
    ``score`` (``tournament``), ``schedule-daily`` (``date``, ``structure``, ``starting_stack``),
    ``settle`` (``cycle``, ``people``, ``reason``) for a tie on the last ticket, ``close-season``
    (a league's season: archived, and the next starts from zero)."""

    model = Series
    ops = {
        "attach": lambda s, d, a, r: done(series_service.attach(s, tournament_arg(d), actor=a)),
        "score": lambda s, d, a, r: done(series_service.score_tournament(_series_tournament(s, d), actor=a)),
        "schedule-daily": _schedule,
        "settle": lambda s, d, a, r: done(
            series_service.settle_undecided(s, as_int(d, "cycle"), as_list(d, "people", "id"), actor=a, reason=as_text(d, "reason", 200, ""))
        ),
        "close-season": lambda s, d, a, r: done(series_service.close_season(s, actor=a)),
    }

    @JSON
    def get(self, request, pk, op=None):
        s = self.get_object(pk)
        cycle = request.query_params.get("cycle")
        return Response(selectors.leaderboard_data(s, int(cycle) if cycle and cycle.isdigit() and len(cycle) < 9 else None))

    def read(self, s):
        return selectors.leaderboard_data(s)


def _series_tournament(s, d):
    t = tournament_arg(d)
    if not s.links.filter(tournament=t).exists():
        raise DomainError("not_in_series", _("This tournament is not part of this series."))
    return t
