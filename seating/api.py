"""Seating API (under /api/v1/): the table map, draws, busts, moves, blinds, locks, halts.

Thin views: validate the input, call one service, answer with what changed. Refusals are
``{"code", "detail"}`` with a 4xx status (``tdmanager.errors.DomainError``).
"""

import re
from contextlib import contextmanager

from django.db import connection
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from tdmanager import compiled
from tdmanager.errors import DomainError
from tdmanager.fields import MAX_ID, AmountField, TextField, WholeNumberField
from tdmanager.idempotency import idempotent
from tdmanager.roles import HasRole
from tdmanager.schema import OBJECT_LIST
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.models import Entry, Tournament

from . import selectors, services
from .models import Bust, KeepApart, PendingMove, SeatReservation
from .selectors.busts import busts
from .selectors.constraints import constraints

MAX_ELIMINATORS = 9  # a pot is split among the players at one table at most
MAX_POT_SHARE = 10**12


def _eliminator(value) -> dict | None:
    """One eliminator as the bust takes it: an entry id, or ``{"entry": id, "pot_share": chips}``
    (a split pot: the chips each won of it), as ``{"entry", "pot_share": chips or None}``;
    None for anything else."""
    if type(value) is int:
        entry, share = value, None
    elif type(value) is dict and "entry" in value and value.keys() <= {"entry", "pot_share"}:
        entry, share = value["entry"], value.get("pot_share")
    else:
        return None
    if type(entry) is not int or not 0 < entry <= MAX_ID:
        return None
    if share is not None and not (type(share) is int and 0 < share <= MAX_POT_SHARE):
        return None
    return {"entry": entry, "pot_share": share}


@extend_schema_field(
    {
        "oneOf": [
            {"type": "integer", "minimum": 1, "maximum": MAX_ID, "description": "the eliminator's entry id"},
            {
                "type": "object",
                "properties": {
                    "entry": {"type": "integer", "minimum": 1, "maximum": MAX_ID, "description": "the eliminator's entry id"},
                    "pot_share": {
                        "type": "integer",
                        "minimum": 1,
                        "maximum": MAX_POT_SHARE,
                        "nullable": True,
                        "description": "split pot: the chips this eliminator won of it",
                    },
                },
                "required": ["entry"],
                "additionalProperties": False,
            },
        ]
    }
)
class EliminatorField(serializers.Field):
    """An eliminator: an entry id, or ``{"entry": id, "pot_share": chips}``."""

    default_error_messages = {
        "invalid": gettext_lazy('An eliminator is an entry id, or an object of "entry" (the id) and "pot_share" (the chips won of the pot).'),
        "bad_pot_share": gettext_lazy('"pot_share" is the chips this eliminator won of the pot: a whole number above zero.'),
    }

    def to_internal_value(self, data):
        value = _eliminator(data)
        if value is None:
            shaped = type(data) is dict and data.keys() <= {"entry", "pot_share"} and _eliminator({"entry": data.get("entry")}) is not None
            self.fail("bad_pot_share" if shaped else "invalid")  # an entry well named: the share is what is wrong
        return value

    def to_representation(self, value):
        return value


class BustItemSerializer(serializers.Serializer):
    entry = WholeNumberField()
    starting_stack = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    eliminators = serializers.ListField(
        child=EliminatorField(),
        required=False,
        allow_null=True,
        max_length=MAX_ELIMINATORS,
        label=gettext_lazy("Eliminators"),
        help_text="PAY-02, a bounty event: who knocked the player out, listed from the button's left (the first takes a split's remainder); "
        "needed for a bust there, ignored elsewhere",
    )


class BustSerializer(serializers.Serializer):
    entries = BustItemSerializer(many=True, allow_empty=False)
    table = serializers.IntegerField(required=False, allow_null=True)
    same_hand = serializers.BooleanField(default=False)
    simultaneous = serializers.BooleanField(
        default=False, help_text="ELM-03: players at different tables whose order cannot be told: they share the places and prizes"
    )
    reason = TextField(required=False, allow_blank=True, default="", max_length=200)
    override_reason = TextField(
        required=False,
        allow_blank=True,
        default="",
        max_length=200,
        help_text="PAY-02, a director only: why an eliminator not at the table of the player out counts (written in the bust's event)",
    )


class BustDoneSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="the bust, for its undo")
    entry = serializers.IntegerField()
    table = serializers.IntegerField()
    seat = serializers.IntegerField()
    place = serializers.IntegerField()
    shared_with = serializers.IntegerField(help_text="players sharing the place (ELM-06)")


class BountyWonSerializer(serializers.Serializer):
    bust = serializers.IntegerField(allow_null=True, help_text="the bust of the knockout; null for the winner's own bounty or the envelopes left")
    kind = serializers.ChoiceField(choices=["KNOCKOUT", "OWN", "LEFTOVER"], help_text="a knockout, the winner's own bounty, the mystery envelopes left")
    winner = serializers.IntegerField(help_text="the entry that won it")
    entry_number = serializers.IntegerField()
    name = serializers.CharField(read_only=True, help_text="the winner's name")
    knocked_out = serializers.IntegerField(allow_null=True, help_text="the entry knocked out")
    cash = AmountField(max_digits=13, decimal_places=2, help_text="money to collect at the desk")
    added = AmountField(max_digits=13, decimal_places=2, help_text="PKO: the part added onto the winner's own bounty")
    envelope = serializers.IntegerField(allow_null=True, help_text="mystery bounty: the envelope drawn")
    pot_share = AmountField(max_digits=18, decimal_places=2, allow_null=True, help_text="a split pot: the chips this eliminator won of it")


class BustAnswerSerializer(serializers.Serializer):
    moves = serializers.ListField(child=serializers.DictField(), help_text="the move slips still open")
    broken = serializers.ListField(child=serializers.IntegerField(), help_text="tables broken by the bust")
    final_table = serializers.IntegerField(allow_null=True)
    halted = serializers.ListField(child=serializers.IntegerField())
    busts = BustDoneSerializer(many=True)
    winner = serializers.IntegerField(allow_null=True, help_text="the entry left alone, now first")
    bounties = BountyWonSerializer(
        many=True,
        required=False,
        help_text="PAY-02, a bounty event only: what the knockouts won (and, at the last bust, the winner's own bounty), paid at the desk",
    )


class SimultaneousSerializer(serializers.Serializer):
    busts = serializers.ListField(child=WholeNumberField(min_value=1), min_length=2, max_length=500)
    reason = TextField(max_length=200)


class ReasonSerializer(serializers.Serializer):
    reason = TextField(required=False, allow_blank=True, default="", max_length=200)


class UndoBustSerializer(ReasonSerializer):
    later = serializers.ListField(
        child=WholeNumberField(min_value=1),
        required=False,
        max_length=500,
        help_text="the event ids of the later changes to undo first (as the refusal listed them)",
    )


class DrawSerializer(ReasonSerializer):
    redraw = serializers.BooleanField(default=False)


class ManualMoveSerializer(serializers.Serializer):
    entry = WholeNumberField()
    to_table = serializers.IntegerField(min_value=1)
    to_seat = serializers.IntegerField(min_value=1)
    reason = TextField(max_length=200)


class BigBlindSerializer(ReasonSerializer):
    big_blind_seat = serializers.IntegerField(min_value=1)
    previous_big_blind_seat = serializers.IntegerField(min_value=1, required=False, allow_null=True)


class LockSerializer(ReasonSerializer):
    locked = serializers.BooleanField(default=True)
    seat = serializers.IntegerField(min_value=1, required=False, allow_null=True)


class BreakOrderSerializer(ReasonSerializer):
    break_order = serializers.ListField(child=serializers.IntegerField(min_value=1), allow_null=True, allow_empty=True)


class TvSerializer(ReasonSerializer):
    tv = serializers.BooleanField(help_text="true: this is the TV table (ROLE-08); false: it no longer is")


class H4hStateSerializer(serializers.Serializer):
    state = serializers.ChoiceField(choices=["IN_HAND", "ALL_IN_HOLD", "COMPLETE"], help_text="CLK-06: the table's state in the current hand-for-hand hand")


class WaiveSerializer(serializers.Serializer):
    reason = TextField(max_length=200)


def validated_body(serializer_class, request):
    ser = serializer_class(data=request.data)
    ser.is_valid(raise_exception=True)
    return ser.validated_data


_SURROGATES = re.compile("[\ud800-\udfff]")
_BUST_FIELDS = {"entries", "table", "same_hand", "simultaneous", "reason", "override_reason"}


def _plain_reason(value, max_length: int):
    """A ``reason`` as ``TextField(allow_blank=True, max_length=…)`` takes it (trimmed), or None
    when only the serializer can say (not a string, too long as sent, a NUL or a lone surrogate)."""
    if type(value) is not str or len(value) > max_length:
        return None
    value = value.strip()
    if "\x00" in value or _SURROGATES.search(value):
        return None
    return value


def _bust_input(request) -> dict:
    """``validated_body(BustSerializer, request)`` for the body a floor tablet sends (a JSON object of
    whole numbers, booleans and a reason); anything else goes to the serializer, which gives
    the same data or the same refusal. The serializer cost the bust more CPU than the query
    that reads the slips back."""
    data = request.data
    fast = type(data) is dict and data.keys() <= _BUST_FIELDS
    entries = data.get("entries") if fast else None
    if not (fast and type(entries) is list and entries):
        return validated_body(BustSerializer, request)
    items = []
    for item in entries:
        if type(item) is not dict or type(item.get("entry")) is not int:
            return validated_body(BustSerializer, request)
        out = {"entry": item["entry"]}
        if "starting_stack" in item:
            stack = item["starting_stack"]
            if not (stack is None or (type(stack) is int and stack >= 0)):
                return validated_body(BustSerializer, request)
            out["starting_stack"] = stack
        if "eliminators" in item:  # a bounty event's bust: as BustItemSerializer takes them, else its refusal
            named = item["eliminators"]
            if named is not None:
                if type(named) is not list or len(named) > MAX_ELIMINATORS:
                    return validated_body(BustSerializer, request)
                named = [_eliminator(e) for e in named]
                if None in named:
                    return validated_body(BustSerializer, request)
            out["eliminators"] = named
        items.append(out)
    d = {"entries": items}
    if "table" in data:
        if not (data["table"] is None or type(data["table"]) is int):
            return validated_body(BustSerializer, request)
        d["table"] = data["table"]
    for name in ("same_hand", "simultaneous"):
        d[name] = data.get(name, False)
        if type(d[name]) is not bool:
            return validated_body(BustSerializer, request)
    for name in ("reason", "override_reason"):
        d[name] = _plain_reason(data.get(name, ""), 200)
        if d[name] is None:
            return validated_body(BustSerializer, request)
    return d


def _related(model, names):
    """(lookup name, attname) of these fields of ``model``, in the model's field order (``from_db``'s)."""
    return [(f.name, f.attname) for f in model._meta.concrete_fields if f.attname in names or f.name in names]


_ENTRY_MODEL = PendingMove._meta.get_field("entry").related_model
_PERSON_MODEL = _ENTRY_MODEL._meta.get_field("person").related_model
_USER_MODEL = PendingMove._meta.get_field("done_by").related_model
# What a slip shows (``selectors.move_dict``): every field of the slip, and of the player and
# of who confirmed it only these.
_SLIP = _related(PendingMove, {f.attname for f in PendingMove._meta.concrete_fields})
_SLIP_ENTRY = _related(_ENTRY_MODEL, {"id", "number", "person"})
_SLIP_PERSON = _related(_PERSON_MODEL, {"id", "first_name", "last_name"})
_SLIP_USER = _related(_USER_MODEL, {"id", "username"})
_SLIP_NAMES, _SLIP_ENTRY_NAMES, _SLIP_PERSON_NAMES, _SLIP_USER_NAMES = ([a for _n, a in f] for f in (_SLIP, _SLIP_ENTRY, _SLIP_PERSON, _SLIP_USER))
_TOURNAMENT_KEY = compiled.Compiled(lambda pk: Tournament.objects.filter(pk=pk).order_by().values_list("pk"), Tournament)  # it exists
# The query of ``_slips``, compiled once per process and database: every bust and every confirm
# answers with the open slips, and compiling the query cost more than running it.
_SLIPS = compiled.Compiled(
    lambda tid, move: (
        PendingMove.objects.filter(Q(status__in=(PendingMove.PROPOSED, PendingMove.WAITING)) | Q(pk=move), tournament_id=tid)
        .order_by("id")
        .values_list(
            *[n for n, _a in _SLIP],
            *[f"entry__{n}" for n, _a in _SLIP_ENTRY],
            *[f"entry__person__{n}" for n, _a in _SLIP_PERSON],
            *[f"done_by__{n}" for n, _a in _SLIP_USER],
        )
    ),
    PendingMove,
    nargs=2,
)


def _slips(t, also=()) -> tuple[list[PendingMove], dict[int, PendingMove]]:
    """The open slips, oldest first, and the slips named in ``also`` (done or not), in one
    query that reads of the player and of who confirmed only what a slip shows."""
    return _slips_and_waiting(t, also)[:2]


def _slips_and_waiting(t, also=()) -> tuple[list[PendingMove], dict[int, PendingMove], list[PendingMove]]:
    """``_slips``, and in the same query the moves waiting for a hand-for-hand hand (CLK-06)."""
    tid = int(getattr(t, "pk", t))
    also = set(also)
    if len(also) > 1:  # a confirm of several slips at once: the plain ORM query
        related = ("entry__number", "entry__person", "entry__person__first_name", "entry__person__last_name", "done_by__username")
        rows = list(
            PendingMove.objects.filter(Q(status__in=(PendingMove.PROPOSED, PendingMove.WAITING)) | Q(pk__in=also), tournament_id=tid)
            .select_related("entry__person", "done_by")
            .only(*[n for n, _a in _SLIP], *related)
            .order_by("id")
        )
    else:
        rows, alias = [], connection.alias
        a, b, c = len(_SLIP), len(_SLIP) + len(_SLIP_ENTRY), len(_SLIP) + len(_SLIP_ENTRY) + len(_SLIP_PERSON)
        for values in _SLIPS.rows(tid, next(iter(also), 0), using=alias):  # the values as the ORM converts them
            # instances made without Model.__init__, which cost more than the query: four a slip
            m = compiled.instance(PendingMove, _SLIP_NAMES, values[:a], alias)
            entry = compiled.instance(_ENTRY_MODEL, _SLIP_ENTRY_NAMES, values[a:b], alias)
            entry.person = compiled.instance(_PERSON_MODEL, _SLIP_PERSON_NAMES, values[b:c], alias)
            m.entry = entry
            if m.done_by_id is not None:
                m.done_by = compiled.instance(_USER_MODEL, _SLIP_USER_NAMES, values[c:], alias)
            rows.append(m)
    return (
        [m for m in rows if m.status == PendingMove.PROPOSED],
        {m.pk: m for m in rows if m.pk in also},
        [m for m in rows if m.status == PendingMove.WAITING],
    )


def outcome_data(t, out, confirmed=()) -> dict:
    """What a floor action changed, for the caller: busts and places, breaks, slips, halts;
    ``moves``: the slips still open (what the floor has to do next); ``waiting``, during
    hand-for-hand, the balancing moves waiting for a table's hand (their tables, not yet their
    player: CLK-06). ``confirmed``: slips confirmed by this call, given back under
    ``confirmed`` (one query reads them all)."""
    move_id = out.move.pk if out is not None and out.move is not None else None
    wanted = {*confirmed, *([move_id] if move_id else [])}
    pending, named, waiting = _slips_and_waiting(t, wanted)
    data = {"moves": [selectors.move_dict(m) for m in pending]}
    if waiting:  # CLK-06: moves not to make yet, their player not chosen until the hand is over at both tables
        finished = selectors.hand_finished_at(t)
        data["waiting"] = [selectors.waiting_dict(m, finished) for m in waiting]
    if out is not None:
        data.update(broken=out.broken, final_table=out.final_table, halted=out.halted)
    if out is not None and out.busts:
        data["busts"] = [
            {"id": b.pk, "entry": b.entry_id, "table": b.table_number, "seat": b.seat_number, "place": b.place, "shared_with": b.shared_with} for b in out.busts
        ]
        data["winner"] = out.winner
    if move_id:
        data["move"] = selectors.move_dict(named.get(move_id, out.move))
    if confirmed:
        data["confirmed"] = [selectors.move_dict(named[pk]) for pk in confirmed if pk in named]
    return data


@contextmanager
def found():
    """A tournament or slip named in the URL that does not exist: 404 (the services read them
    with the lock, so the view does not read them first)."""
    try:
        yield
    except (Tournament.DoesNotExist, PendingMove.DoesNotExist) as exc:
        raise Http404(str(exc)) from None


class SeatingAPIView(APIView):
    permission_classes = [HasRole]

    def tournament(self, pk) -> Tournament:
        return get_object_or_404(Tournament, pk=pk)

    def actor(self):
        return Actor.from_request(self.request)


class TableMapView(SeatingAPIView):
    """GET: every table in play with its seats, players, stacks, blinds, locks and halts; the
    open move slips; the next table to break."""

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        return Response(selectors.table_map(self.tournament(pk)))


class DrawView(SeatingAPIView):
    """POST (director): run the initial seat draw, or draw everybody again before the first bust."""

    @extend_schema(request=DrawSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        d = validated_body(DrawSerializer, request)
        t = self.tournament(pk)
        services.draw(t, actor=self.actor(), redraw=d["redraw"], reason=d["reason"])
        return Response(selectors.table_map(t), status=201)


class PreDrawSerializer(ReasonSerializer):
    sessions = serializers.ListField(
        child=TextField(max_length=20), min_length=1, max_length=20, help_text='SEAT-02: the sessions, e.g. ["1A", "1B"] (evenings or Day 1 flights)'
    )


class PreDrawView(SeatingAPIView):
    """SEAT-02 (004): GET the pre-event draw, by session, table and seat. POST (director):
    ``{"sessions": ["1A", "1B"], "reason"}`` draws every registrant into a session, a table and a
    seat (again: it replaces the earlier one), before the tournament starts."""

    @extend_schema(request=None, responses=OBJECT_LIST)
    def get(self, request, pk):
        return Response(selectors.predraw_rows(self.tournament(pk)))

    @extend_schema(request=PreDrawSerializer, responses={201: OBJECT_LIST})
    def post(self, request, pk):
        d = validated_body(PreDrawSerializer, request)
        t = self.tournament(pk)
        services.predraw(t, d["sessions"], actor=self.actor(), reason=d["reason"])
        return Response(selectors.predraw_rows(t), status=201)


def bounties_answer(won: list[dict]) -> list[dict]:
    """The knockouts' awards (``selectors.knockouts``) as the API gives money: decimal strings."""
    return [
        {
            **k,
            "cash": str(k["cash"]),
            "added": str(k["added"]),
            "pot_share": None if k["pot_share"] is None else str(k["pot_share"]),
        }
        for k in won
    ]


def busts_answer(t) -> list[dict]:
    """``selectors.busts.busts`` with the knockouts' money as decimal strings."""
    rows = busts(t)
    for row in rows:
        if "knocked_out_by" in row:
            row["knocked_out_by"] = bounties_answer(row["knocked_out_by"])
    return rows


class BustsView(SeatingAPIView):
    """GET: the busts, newest first (in a bounty event with ``knocked_out_by``). POST: players
    out — ``{"entries": [{"entry", "starting_stack", "eliminators"}], "table", "same_hand",
    "reason"}``; in a bounty event each bust names its ``eliminators`` (entry ids, or
    ``{"entry", "pot_share"}`` for a split pot, from the button's left), each seated at the table
    of the player out (a director's ``override_reason`` lets one from elsewhere count), and the
    answer carries ``bounties``: what the knockouts won (PAY-02). A dealer names his ``table``.
    Honours an ``Idempotency-Key``: a tablet that lost the answer on the venue's Wi-Fi sends
    the bust again and gets the first answer back, never a refusal of a player already out."""

    @extend_schema(request=None, responses=OBJECT_LIST)
    def get(self, request, pk):
        return Response(busts_answer(self.tournament(pk)))

    @extend_schema(request=BustSerializer, responses={201: BustAnswerSerializer})
    def post(self, request, pk):
        d = _bust_input(request)

        def bust():
            with found():  # the service locks the tournament: no read of it first
                out = services.record_bust(
                    pk,
                    [dict(i) for i in d["entries"]],
                    actor=self.actor(),
                    table=d.get("table"),
                    same_hand=d["same_hand"],
                    reason=d["reason"],
                    simultaneous=d["simultaneous"],
                    override_reason=d["override_reason"],
                )
            data = outcome_data(pk, out)
            # the tournament the service locked, on its rows: a bounty event answers what was won
            won = selectors.knockouts(out.busts[0].tournament, [b.pk for b in out.busts], out.winner)
            if won is not None:
                data["bounties"] = bounties_answer(won)
            return Response(data, status=201)

        return idempotent(request, bust)


class SimultaneousBustsView(SeatingAPIView):
    """POST: mark busts at different tables as simultaneous afterwards (ELM-03), with a reason:
    ``{"busts": [bust ids], "reason"}``. They share their places and prizes (ELM-06)."""

    @extend_schema(request=SimultaneousSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk):
        d = validated_body(SimultaneousSerializer, request)
        t = self.tournament(pk)
        services.mark_simultaneous(t, d["busts"], actor=self.actor(), reason=d["reason"])
        return Response({"busts": [b for b in busts_answer(t) if b["id"] in set(d["busts"])]})


class UndoBustView(SeatingAPIView):
    """POST: undo a bust recorded by mistake (with every player recorded with it). Refused
    (409 ``seat_map_changed``) when its tables changed since: ``later`` lists the changes to
    undo first, newest first (``event``, ``description``, ``undo``: the bust or move to undo).
    ``{"later": [event ids]}`` undoes those first, then the bust, all or nothing. In a bounty
    event the bounties won there are taken back; refused (409 ``bounty_passed_on``) when one has
    passed on since (its winner was knocked out himself): undo that bust first; and (409
    ``bounty_paid``, ``paid``: the awards) when one has been paid at the desk: the cashier
    records the money given back first (``…/bounties/returned/``)."""

    @extend_schema(request=UndoBustSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk, bust_id):
        d = validated_body(UndoBustSerializer, request)
        t = self.tournament(pk)
        bust = get_object_or_404(Bust, pk=bust_id, tournament=t)
        if d.get("later"):
            out = services.undo_bust_and_later(t, bust, later=d["later"], actor=self.actor(), reason=d["reason"])
        else:
            out = services.undo_bust(t, bust, actor=self.actor(), reason=d["reason"])
        return Response(outcome_data(t, out))


class MovesView(SeatingAPIView):
    """GET: open move slips (``?status=all`` for every slip). POST: move a player by hand —
    ``{"entry", "to_table", "to_seat", "reason"}``."""

    @extend_schema(request=None, responses=OBJECT_LIST)
    def get(self, request, pk):
        if request.query_params.get("status") == "all":
            t = self.tournament(pk)
            qs = PendingMove.objects.filter(tournament=t).select_related("entry__person", "done_by").order_by("id")
            return Response([selectors.move_dict(m) for m in qs])
        # What a floor tablet asks for again and again: the slips first. A slip's tournament
        # exists (its key cascades); without slips one small query tells a 404 (reading the
        # whole, wide tournament row would be much of this request's work).
        pending = _slips(pk)[0]
        if not pending and not _TOURNAMENT_KEY.rows(pk):
            raise Http404("No Tournament matches the given query.")
        return Response([selectors.move_dict(m) for m in pending])

    @extend_schema(request=ManualMoveSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        d = validated_body(ManualMoveSerializer, request)
        t = self.tournament(pk)
        entry = get_object_or_404(Entry, pk=d["entry"], tournament=t)
        out = services.move_player(t, entry, d["to_table"], d["to_seat"], actor=self.actor(), reason=d["reason"])
        return Response(outcome_data(t, out), status=201)


class MoveActionView(SeatingAPIView):
    """POST ``confirm``: the move is done. POST ``undo``: put a confirmed move back."""

    op_names = ("confirm", "undo")

    @extend_schema(request=ReasonSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk, move_id, op):
        if op == "confirm":  # the service reads the tournament and the slip with the lock: no read first
            validated_body(ReasonSerializer, request)  # the body the schema names, checked as for undo (no read)
            with found():
                out = services.confirm_move(pk, move_id, actor=self.actor())
            return Response(outcome_data(pk, out))
        t = self.tournament(pk)
        move = get_object_or_404(PendingMove, pk=move_id, tournament=t)
        if op == "undo":
            d = validated_body(ReasonSerializer, request)
            out = services.undo_move(t, move, actor=self.actor(), reason=d["reason"])
        else:
            raise DomainError("unknown_action", _("Unknown move action."), status=404)
        return Response(outcome_data(t, out))


class ConfirmMovesSerializer(serializers.Serializer):
    moves = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        min_length=1,
        max_length=500,
        help_text="the ids of the open slips to confirm, e.g. every slip of a table break",
    )


class ConfirmMovesView(SeatingAPIView):
    """POST: several move slips are done at once — ``{"moves": [slip ids]}``, e.g. every player
    of a broken table has sat down. All or nothing: a slip no longer open refuses the whole call
    (409, saying what happened to it: ``move_done``, ``move_superseded``, ``move_undone`` or
    ``move_player_out``; ``move_waiting_for_hand`` for a move still waiting for a table's
    hand-for-hand hand). Honours an ``Idempotency-Key``: a repeat gets the first answer.
    Answers ``confirmed`` (the slips, now done) and ``moves`` (those still open)."""

    @extend_schema(request=ConfirmMovesSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk):
        d = validated_body(ConfirmMovesSerializer, request)
        ids = list(dict.fromkeys(d["moves"]))

        def confirm():
            with found():
                services.confirm_moves(pk, ids, actor=self.actor())
            return Response(outcome_data(pk, None, confirmed=ids))

        return idempotent(request, confirm)


class TableActionView(SeatingAPIView):
    """POST on one table: ``big-blind`` (set or correct the big blind of the last hand),
    ``hand-completed``, ``misdeal`` (the re-deal is the same hand), ``lock`` (``{"locked", "seat"?, "reason"}``), ``waive-halt``,
    ``h4h-state`` (``{"state": "IN_HAND" | "ALL_IN_HOLD" | "COMPLETE"}``, CLK-06: during hand-for-hand)."""

    op_names = ("big-blind", "hand-completed", "misdeal", "lock", "waive-halt", "tv", "h4h-state")

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk, number, op):
        """Honours an ``Idempotency-Key``: a hand completed sent again from a floor tablet's queue
        (after a lost answer or a Wi-Fi drop) gets the first answer and moves the blinds once."""
        return idempotent(request, lambda: self.perform(request, pk, number, op))

    def perform(self, request, pk, number, op):
        t = self.tournament(pk)
        actor = self.actor()
        if op == "big-blind":
            d = validated_body(BigBlindSerializer, request)
            out = services.set_big_blind(
                t, number, d["big_blind_seat"], previous_big_blind_seat=d.get("previous_big_blind_seat"), actor=actor, reason=d["reason"]
            )
        elif op == "hand-completed":
            out = services.hand_completed(t, number, actor=actor)
        elif op == "h4h-state":
            state = validated_body(H4hStateSerializer, request)["state"]
            if state == "COMPLETE":  # the hand is over: the blinds move on, as "hand-completed"
                out = services.hand_completed(t, number, actor=actor)
            else:
                data = outcome_data(t, None)
                data["hand_for_hand"] = clock_services.set_h4h_table_state(t, number, state, actor=actor)
                data["table"] = selectors.table_shown(t, number)
                return Response(data)
        elif op == "misdeal":
            out = services.misdeal(t, number, actor=actor, reason=validated_body(ReasonSerializer, request)["reason"])
        elif op == "lock":
            d = validated_body(LockSerializer, request)
            if d.get("seat"):
                out = services.lock_seat(t, number, d["seat"], d["locked"], actor=actor, reason=d["reason"])
            else:
                out = services.lock_table(t, number, d["locked"], actor=actor, reason=d["reason"])
        elif op == "tv":
            d = validated_body(TvSerializer, request)
            out = services.set_tv_table(t, number, d["tv"], actor=actor, reason=d["reason"])
        elif op == "waive-halt":
            d = validated_body(WaiveSerializer, request)
            out = services.waive_halt(t, number, actor=actor, reason=d["reason"])
        else:
            raise DomainError("unknown_action", _("Unknown table action."), status=404)
        data = outcome_data(t, out)
        if getattr(out, "hand_for_hand", None):
            data["hand_for_hand"] = out.hand_for_hand
        data["table"] = selectors.table_shown(t, number)
        return Response(data)


class BreakOrderView(SeatingAPIView):
    """POST: publish the break order, ``{"break_order": [7, 6, 5] or null, "reason"}``."""

    @extend_schema(request=BreakOrderSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk):
        d = validated_body(BreakOrderSerializer, request)
        t = self.tournament(pk)
        out = services.set_break_order(t, d["break_order"], actor=self.actor(), reason=d["reason"])
        data = outcome_data(t, out)
        data["break_order"] = d["break_order"] or None
        return Response(data)


class StandingsView(SeatingAPIView):
    """GET: finishing places so far (shared places with ``shared_with``)."""

    @extend_schema(request=None, responses=OBJECT_LIST)
    def get(self, request, pk):
        return Response(selectors.standings(self.tournament(pk)))


class DrawHistoryView(SeatingAPIView):
    """GET: how a player's seats were assigned — the draws (both permutations of a break) and moves."""

    @extend_schema(request=None, responses=OBJECT_LIST)
    def get(self, request, pk, entry_id):
        t = self.tournament(pk)
        entry = get_object_or_404(Entry, pk=entry_id, tournament=t)
        items = []
        for item in selectors.draw_history(t, entry):
            ev = item.pop("event")
            move = item.pop("move", None)
            item["action"] = ev.action if ev else None
            item["at"] = ev.created_at.isoformat() if ev else None
            item["by"] = ev.actor_label if ev else None
            if move is not None:
                item["move"] = selectors.move_dict(move)
            items.append(item)
        return Response(items)


class DrawReplayView(SeatingAPIView):
    """GET (director, controller, regulator): a logged draw recomputed from its logged seed and
    inputs with the engine that drew it: ``logged``, ``recomputed`` and ``matches``."""

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def get(self, request, pk, event_id):
        return Response(selectors.draw_replay(self.tournament(pk), event_id))


# --- SEAT-01 / SEAT-04 manual draws, SEAT-07 constraints -----------------------------------


class SeatCardSerializer(serializers.Serializer):
    entry = WholeNumberField()
    table = serializers.IntegerField(min_value=1)
    seat = serializers.IntegerField(min_value=1)
    card = TextField(required=False, allow_blank=True, default="", max_length=8, help_text="at a table break: the high card the player drew (A♠, KH, 10d)")


class ClearCardSerializer(ReasonSerializer):
    entry = WholeNumberField()


class KeepApartSerializer(ReasonSerializer):
    person_a = serializers.IntegerField()
    person_b = serializers.IntegerField()
    everywhere = serializers.BooleanField(default=False, help_text="for every tournament, not only this one")


class ReservationSerializer(serializers.Serializer):
    entry = WholeNumberField()
    table = serializers.IntegerField(min_value=1)
    seat = serializers.IntegerField(min_value=1)
    reason = TextField(max_length=200)


class ManualDrawView(SeatingAPIView):
    """GET: the open manual draws (seat cards, who drew which, who is left). POST: the floor
    enters the card an entry drew — ``{"entry", "table", "seat", "card"?}`` (``card``: the
    high card, at a table break). The draw is applied when the last card is entered."""

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        return Response({"draws": selectors.manual_draws(self.tournament(pk))})

    @extend_schema(request=SeatCardSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        d = validated_body(SeatCardSerializer, request)
        t = self.tournament(pk)
        entry = get_object_or_404(Entry, pk=d["entry"], tournament=t)
        out = services.enter_card(t, entry, d["table"], d["seat"], card=d["card"], actor=self.actor())
        data = {"draws": selectors.manual_draws(t), "applied": out is not None}
        if out is not None:
            data.update(outcome_data(t, out))
        return Response(data, status=201)


class ManualDrawClearView(SeatingAPIView):
    """POST: take back a card entered by mistake, ``{"entry", "reason"}``."""

    @extend_schema(request=ClearCardSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk):
        d = validated_body(ClearCardSerializer, request)
        t = self.tournament(pk)
        entry = get_object_or_404(Entry, pk=d["entry"], tournament=t)
        services.clear_card(t, entry, actor=self.actor(), reason=d["reason"])
        return Response({"draws": selectors.manual_draws(t)})


class KeepApartView(SeatingAPIView):
    """GET: the keep-apart pairs and the reserved seats. POST (director): keep two people
    apart — ``{"person_a", "person_b", "reason", "everywhere"}``."""

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        return Response(constraints(self.tournament(pk)))

    @extend_schema(request=KeepApartSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        d = validated_body(KeepApartSerializer, request)
        t = self.tournament(pk)
        pair = services.add_keep_apart(t, d["person_a"], d["person_b"], actor=self.actor(), reason=d["reason"], everywhere=d["everywhere"])
        return Response({"id": pair.pk, **constraints(t)}, status=201)


class KeepApartDetailView(SeatingAPIView):
    """DELETE (director): drop a keep-apart pair."""

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, pk, pair_id):
        t = self.tournament(pk)
        pair = get_object_or_404(KeepApart.objects.filter(Q(tournament=t) | Q(tournament__isnull=True)), pk=pair_id)
        services.remove_keep_apart(t, pair, actor=self.actor(), reason=request.query_params.get("reason", ""))
        return Response(status=204)  # as the schema says; GET …/seating/keep-apart/ lists what is left


class ReservationsView(SeatingAPIView):
    """POST (director): give an entry a seat by hand, out of the draw (special needs) —
    ``{"entry", "table", "seat", "reason"}``."""

    @extend_schema(request=ReservationSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        d = validated_body(ReservationSerializer, request)
        t = self.tournament(pk)
        entry = get_object_or_404(Entry, pk=d["entry"], tournament=t)
        res = services.reserve_seat(t, entry, d["table"], d["seat"], actor=self.actor(), reason=d["reason"])
        return Response({"id": res.pk, **constraints(t)}, status=201)


class ReservationDetailView(SeatingAPIView):
    """DELETE (director): the seat goes back into the draw."""

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, pk, res_id):
        t = self.tournament(pk)
        res = get_object_or_404(SeatReservation, pk=res_id, tournament=t)
        services.remove_reservation(t, res, actor=self.actor(), reason=request.query_params.get("reason", ""))
        return Response(status=204)  # as the schema says; GET …/seating/keep-apart/ lists what is left
