"""The payout table: the table in force, the director's edits, the lock, the venue templates (PAY-03, PAY-05)."""

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from tdmanager.fields import AmountField, IdField, TextField
from tdmanager.money import ZERO
from tdmanager.schema import OBJECT_LIST
from tournaments.house import HouseRules
from tournaments.models import Entry, Tournament
from tournaments.people.names import public_names

from .. import selectors as sel
from .. import services
from ..models import PayoutTemplate
from .common import Base, ReasonIn, _t, reads_public


class PrizeIn(serializers.Serializer):
    place = serializers.IntegerField(min_value=1)
    kind = serializers.ChoiceField(choices=["CASH", "TICKET", "ITEM", "SEAT"], default="CASH")
    amount = AmountField(max_digits=13, decimal_places=2, min_value=0)
    description = TextField(allow_blank=True, default="", max_length=200)
    target = IdField(queryset=Tournament.objects.all(), allow_null=True, default=None)


class TableEditIn(serializers.Serializer):
    prizes = PrizeIn(many=True, required=False)
    amounts = serializers.ListField(
        child=AmountField(max_digits=13, decimal_places=2, min_value=0), required=False, help_text="shorthand: cash prizes of places 1..N"
    )
    reason = TextField(allow_blank=True, default="", max_length=200)

    def validate(self, data):
        if "prizes" not in data and "amounts" not in data:
            raise serializers.ValidationError(_("Send 'prizes' or 'amounts'."))
        return data


class TemplateIn(serializers.Serializer):
    name = TextField(max_length=120)
    percents = serializers.ListField(child=AmountField(max_digits=6, decimal_places=3), required=False, default=list)
    bands = serializers.ListField(
        child=serializers.DictField(), required=False, default=list, max_length=100, help_text='[{"from": 10, "to": 20, "percents": ["50", "30", "20"]}, …]'
    )


class ApplyTemplateIn(serializers.Serializer):
    template = IdField(queryset=PayoutTemplate.objects.all())
    reason = TextField(allow_blank=True, default="", max_length=200)


def prize_data(p):
    return {"place": p["place"], "kind": p["kind"], "amount": sel.money(p["amount"]), "description": p.get("description", ""), "target": p.get("target")}


def table_data(t, public: bool = False):
    """The payout table in force. ``public``: for a reader who is not staff (a lobby screen's
    login), the forfeits name players as every public page does."""
    prizes = sel.table_prizes(t)
    link = sel.satellite_link(t)
    pool_total = sel.satellite_pool(t, link) if link else sel.prize_pool(t)
    total = sum(sel.place_values(prizes), ZERO)
    return {
        "state": sel.table_state(t),
        "prize_pool": sel.money(pool_total),
        "places_paid": sel.places_paid(t, prizes),
        "entries": sel.field_size(t),
        "percent_paid": str(sel.percent_paid(t)),
        "prizes": [prize_data(p) for p in prizes],
        "ladder": sel.ladder(prizes),
        "total": sel.money(total),
        "matches_pool": total == pool_total,
        "forfeits": forfeit_data(sel.forfeit_plan(t, prizes), public_names_of(t) if public else None),
    }


def public_names_of(t) -> dict[int, str]:
    """{entry id: name} of the event's entries as public pages name them (the house's style, an
    opted-out player "—", names alike told apart by their entry numbers)."""
    rows = list(
        Entry.objects.filter(tournament=t)
        .order_by("number")
        .values_list("pk", "person__first_name", "person__last_name", "person__nickname", "person__hide_from_lookup", "number")
    )
    names = public_names((row[1:] for row in rows), HouseRules.of(t).seat_lookup_names)
    return dict(zip((row[0] for row in rows), names, strict=True))


def forfeit_data(plan, names: dict[int, str] | None = None):
    """PEN-07 / C27: places whose prize an elimination without prize took, and where it goes.
    ``names``: {entry id: name} to show instead of the full names (``public_names_of``)."""
    if names is not None:
        plan = {
            **plan,
            "forfeits": [{**f, "name": names.get(f["entry_id"], "")} for f in plan["forfeits"]],
            "extras": [{**x, "name": names.get(x["entry_id"], "")} for x in plan["extras"]],
        }
    return {
        "rule": plan["rule"],
        "total": sel.money(plan["total"] + plan["other"]),
        "held": sel.money(plan["held"]),
        "redistributed": sel.money(plan["redistributed"]),
        "places": [
            {"place": f["place"], "entry": f["entry_id"], "name": f["name"], "kind": f["kind"], "amount": sel.money(f["amount"])} for f in plan["forfeits"]
        ],
        "shares": [{"place": x["place"], "entry": x["entry_id"], "name": x["name"], "amount": sel.money(x["amount"])} for x in plan["extras"]],
        "pending": [{"place": q, "amount": sel.money(a)} for q, a in sorted(plan["pending"].items())],
    }


class TableView(Base):
    """GET the payout table in force; POST/PUT a director's table (validated; reason once locked)."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        return Response(table_data(_t(pk), public=reads_public(request)))

    @extend_schema(request=TableEditIn, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk):
        d = self.valid(TableEditIn)
        t = _t(pk)
        prizes = d.get("prizes") or [{"place": i, "kind": "CASH", "amount": a} for i, a in enumerate(d.get("amounts", []), start=1)]
        services.edit_payout_table(t, prizes, actor=self.actor(), reason=d["reason"])
        return Response(table_data(t))

    put = post


class TableProposeView(Base):
    """Back to the automatic proposal (follows the entries until locked)."""

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk):
        t = _t(pk)
        services.reset_payout_table(t, actor=self.actor())
        return Response(table_data(t))


class TableLockView(Base):
    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk):
        t = _t(pk)
        services.lock_payout_table(t, actor=self.actor())
        return Response(table_data(t))


class TableUnlockView(Base):
    """PAY-05: the director unlocks the published payout table, with a reason (logged), to change it."""

    @extend_schema(request=ReasonIn, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk):
        d = self.valid(ReasonIn)
        t = _t(pk)
        services.unlock_payout_table(t, actor=self.actor(), reason=d["reason"])
        return Response(table_data(t))


class TableTemplateView(Base):
    @extend_schema(request=ApplyTemplateIn, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk):
        d = self.valid(ApplyTemplateIn)
        t = _t(pk)
        services.apply_template(t, d["template"], actor=self.actor(), reason=d["reason"])
        return Response(table_data(t))


class TemplatesView(Base):
    @extend_schema(responses=OBJECT_LIST)
    def get(self, request):
        return Response([{"id": x.pk, "name": x.name, "percents": x.percents, "bands": x.bands} for x in PayoutTemplate.objects.all()])

    @extend_schema(request=TemplateIn, responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        d = self.valid(TemplateIn)
        x = services.save_payout_template(
            d["name"], d["percents"], bands=d["bands"] or None, actor=self.actor(), template=PayoutTemplate.objects.filter(name=d["name"].strip()).first()
        )
        return Response({"id": x.pk, "name": x.name, "percents": x.percents, "bands": x.bands}, status=201)
