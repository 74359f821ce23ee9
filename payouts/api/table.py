"""REST API of the payouts app (thin: validate, call one service, render). Routes in api_urls.py."""

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from tdmanager import sheets
from tdmanager.api import query_choice, query_int
from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.fields import AmountField, IdField, TextField, WholeNumberField
from tdmanager.idempotency import idempotent
from tdmanager.money import ZERO
from tdmanager.policy import STAFF_AUDIT
from tdmanager.roles import HasRole, has_role
from tdmanager.schema import CREATED_LIST, OBJECT_LIST
from tournaments.house import HouseRules
from tournaments.models import Entry, LedgerRow, Person, Tournament
from tournaments.public_names import public_names
from tournaments.services.events import Actor

from . import reports, results_sheet, services
from . import selectors as sel
from .models import BountyAward, Deal, JackpotClaim, JackpotFund, PayoutTemplate, PrizePayment, SatelliteLink, SidePool, Ticket

# --- serializers ------------------------------------------------------------------------


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


class StacksIn(serializers.Serializer):
    stacks = serializers.DictField(child=serializers.IntegerField(min_value=0, max_value=10**12), help_text="{entry id: chips}")
    reserve = AmountField(max_digits=13, decimal_places=2, min_value=0, default="0")


class DealIn(StacksIn):
    method = serializers.ChoiceField(choices=Deal.METHODS)
    amounts = serializers.ListField(
        child=AmountField(max_digits=13, decimal_places=2),
        required=False,
        help_text="CUSTOM: one amount per player, players in entry-number order",
    )
    by_place = serializers.ListField(
        child=AmountField(max_digits=13, decimal_places=2, min_value=0),
        required=False,
        help_text="CUSTOM (PAY-09): the new prize of each place in play, 1st first, strictly decreasing",
    )


class EntryIn(serializers.Serializer):
    entry = IdField(queryset=Entry.objects.all())


class ReasonIn(serializers.Serializer):
    reason = TextField(allow_blank=True, default="", max_length=200)


class PayIn(serializers.Serializer):
    entry = IdField(queryset=Entry.objects.all())
    source = TextField(default="MAIN:CASH", max_length=40)
    method = serializers.ChoiceField(choices=LedgerRow.METHODS)
    reference = TextField(allow_blank=True, default="", max_length=80)
    payee = TextField(allow_blank=True, default="", max_length=160)


class BountyPayIn(serializers.Serializer):
    entry = IdField(queryset=Entry.objects.all(), help_text="the player who collects every bounty he has won and not collected")
    method = serializers.ChoiceField(choices=[(m, label) for m, label in LedgerRow.METHODS if m in services.PAYOUT_METHODS])
    reference = TextField(allow_blank=True, default="", max_length=80, help_text="the cheque number or the transfer reference")
    payee = TextField(allow_blank=True, default="", max_length=160)


class BountyReturnIn(serializers.Serializer):
    award = IdField(
        queryset=BountyAward.objects.all(),
        help_text="the bounty paid that the player gives back (an award's id, as the bounties and the bounty_paid refusal list them)",
    )
    reason = TextField(max_length=200, help_text="why the money is given back, e.g. the bust undone")


class EnvelopesIn(serializers.Serializer):
    envelopes = serializers.ListField(
        child=AmountField(max_digits=13, decimal_places=2),
        min_length=1,
        max_length=2000,
        help_text='the mystery envelopes\' amounts, e.g. ["100.00", "50.00"]; they add up to the bounty money taken in',
    )


class SatelliteIn(serializers.Serializer):
    target = IdField(queryset=Tournament.objects.all())
    remainder_rule = serializers.ChoiceField(
        choices=[r for r, _l in SatelliteLink.REMAINDER_RULES],
        required=False,
        allow_null=True,
        default=None,
        help_text="C13; not given: the satellite's settings.satellite_remainder_rule (NEXT_PLACE)",
    )
    prize_base = serializers.ChoiceField(
        choices=[b for b, _l in SatelliteLink.BASES],
        required=False,
        allow_null=True,
        default=None,
        help_text="C14; not given: the satellite's settings.satellite_prize_base (GROSS)",
    )
    already_registered = serializers.ChoiceField(
        choices=[b for b, _l in SatelliteLink.ALREADY_REGISTERED],
        default=SatelliteLink.TICKET,
        help_text="what a winner the target does not take gets: a TICKET or the seat's value in CASH",
    )


class SidePoolIn(serializers.Serializer):
    kind = serializers.ChoiceField(choices=[k for k, _l in SidePool.KINDS])
    name = TextField(allow_blank=True, default="", max_length=120)
    key = TextField(allow_blank=True, default="", max_length=40)
    from_ledger = serializers.BooleanField(default=True)
    from_prize_pool = AmountField(max_digits=13, decimal_places=2, min_value=0, default="0")
    fund = IdField(queryset=JackpotFund.objects.all(), allow_null=True, default=None)


class ContributionIn(serializers.Serializer):
    amount = AmountField(max_digits=13, decimal_places=2)
    note = TextField(allow_blank=True, default="", max_length=200)


class AwardItemIn(serializers.Serializer):
    entry = WholeNumberField(min_value=1, max_value=2**62)
    amount = AmountField(max_digits=13, decimal_places=2, min_value=0)


class AwardIn(serializers.Serializer):
    awards = AwardItemIn(many=True, required=False, help_text='[{"entry": id, "amount": "100.00"}]')
    note = TextField(allow_blank=True, default="", max_length=200)


class TokenIn(serializers.Serializer):
    entry = WholeNumberField(min_value=1, max_value=2**62)
    label = TextField(max_length=40, help_text="the chip's or plaque's number or mark (REG-10)")


class TicketRedeemIn(serializers.Serializer):
    tournament = IdField(queryset=Tournament.objects.all(), allow_null=True, default=None)
    id_checked = serializers.BooleanField(default=False, help_text="PAY-11: the cashier saw the holder's identity document (400 id_check_required without it)")
    confirm_final_table = serializers.BooleanField(
        default=False,
        help_text="the desk confirms an entry that opens a table once the final table is formed (REG-04, BAL-09: 409 final_table_formed without it)",
    )


# --- renderers ----------------------------------------------------------------------------


def prize_data(p):
    return {"place": p["place"], "kind": p["kind"], "amount": sel.money(p["amount"]), "description": p.get("description", ""), "target": p.get("target")}


def pool_data(t):
    b = sel.pool_breakdown(t)
    link = sel.satellite_link(t)
    return {
        "collected": sel.money(b.collected),
        "deductions": {k: sel.money(v) for k, v in b.deductions.items()},
        "net": sel.money(b.net),
        "overlay": sel.money(b.overlay),
        "gross": sel.money(b.gross),
        "total": sel.money(b.total),
        "refunds": sel.money(b.refunds),  # a cancelled event's collected money, owed back to its players
        "guarantee": sel.money(t.guarantee) if t.guarantee is not None else None,
        "satellite_pool": sel.money(sel.satellite_pool(t, link)) if link else None,
        "side_pools": sel.side_pools_summary(t),
        "currency": t.currency,
    }


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


def reads_public(request) -> bool:
    """True for a reader who sees what a lobby screen shows and no more (the display role):
    players named as on the public pages, never in full."""
    return not has_role(request.user, *STAFF_AUDIT)


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


def due_data(d):
    pay = d["payment"]
    return {
        "tournament": d["entry"].tournament_id,
        "entry": d["entry_id"],
        "entry_number": d["entry"].number,
        "name": d["name"],
        "place": d["place"],
        "shared_with": d["shared_with"],
        "kind": d["kind"],
        "amount": sel.money(d["amount"]),
        "source": d["source"],
        "description": d["description"],
        "held": d["held"],
        "pending": d["pending"],
        "released": d["released"],
        "paid": d["paid"],
        "forfeited": d["forfeited"],
        "payment": payment_data(pay) if pay else None,
    }


def bounty_due_data(t, b):
    """The bounties one player has won and not collected (PAY-02), as a line of the prizes due."""
    return {
        "tournament": t.pk,
        "entry": b["entry_id"],
        "entry_number": b["entry_number"],
        "name": b["name"],
        "place": None,
        "shared_with": 1,
        "kind": "BOUNTY",
        "amount": sel.money(b["amount"]),
        "source": "BOUNTY",
        "description": "",
        "bounties": b["count"],
        "held": False,
        "pending": False,
        "released": True,
        "paid": False,
        "forfeited": False,
        "payment": None,
        "pay_url": reverse("api-bounties-pay", args=[t.pk]),
    }


def payment_data(p: PrizePayment):
    data = {
        "id": p.pk,
        "entry": p.entry_id,
        "kind": p.kind,
        "place": p.place,
        "amount": sel.money(p.amount),
        "method": p.method,
        "reference": p.reference,
        "payee": p.payee,
        "source": p.source,
        "created_at": p.created_at.isoformat(),
        "receipt_number": p.row.receipt_number if p.row_id else None,
        "ticket": p.ticket_id,
        "seat_entry": p.seat_entry_id,
    }
    if p.row_id:
        data["slip_url"] = reverse("payouts-slip", args=[p.row.receipt_number])
        data["slip_pdf_url"] = reverse("payouts-slip-pdf", args=[p.row.receipt_number])
    return data


def bounty_payment_data(row: LedgerRow) -> dict:
    """A bounty payment at the desk (PAY-02): its BOUNTY row, the awards it paid, its slip."""
    return {
        "receipt_number": row.receipt_number,
        "tournament": row.tournament_id,
        "entry": row.entry_id,
        "name": row.person.full_name if row.person_id else "",
        "amount": sel.money(-row.bounty_amount),
        "method": row.method,
        "reference": row.reference,
        "payee": row.payee,
        "created_at": row.created_at.isoformat(),
        "awards": list(row.bounty_awards.order_by("id").values_list("id", flat=True)),
        "reversed": row.is_reversed,
        "slip_url": reverse("payouts-slip", args=[row.receipt_number]),
        "slip_pdf_url": reverse("payouts-slip-pdf", args=[row.receipt_number]),
        "receipt_url": reverse("receipt", args=[row.receipt_number]),
    }


def bounty_return_data(done) -> dict:
    """A bounty given back at the desk (``services.BountyReturned``): its reversal row
    (``receipt_number``, on the shift of the cashier who took the money), the payment it
    reverses and the one keeping the rest of that payment paid."""
    rev = done.reversal
    return {
        "award": done.award.pk,
        "tournament": rev.tournament_id,
        "entry": done.award.winner_id,
        "name": rev.person.full_name if rev.person_id else "",
        "amount": sel.money(done.award.cash),
        "method": rev.method,
        "receipt_number": rev.receipt_number,
        "reverses": rev.reverses.receipt_number,
        "kept_receipt": done.kept.receipt_number if done.kept else None,
        "reason": rev.reason,
        "receipt_url": reverse("receipt", args=[rev.receipt_number]),
    }


def deal_data(d: Deal):
    return {
        "id": d.pk,
        "tournament": d.tournament_id,
        "status": d.status,
        "method": d.method,
        "stacks": d.stacks,
        "reserve": sel.money(d.reserve),
        "by_player": d.by_player,
        "by_place": d.by_place,
        "prizes_before": d.prizes_before,
        # A bounty event's deal: "APART" (bounties kept apart) or "ADDED", and what each player takes.
        "bounty_in_deal": d.bounty_in_deal or None,
        "bounty_label": d.bounty_label() or None,
        "bounty_total": sel.money(d.bounty_total),
        "bounties": d.bounties,
        "accepted": [a.entry_id for a in d.acceptances.all()],
        "created_at": d.created_at.isoformat(),
        "approved_at": d.approved_at.isoformat() if d.approved_at else None,
    }


def _t(pk):
    return get_object_or_404(Tournament, pk=pk)


class Base(APIView):
    permission_classes = [HasRole]

    def actor(self):
        return Actor.from_request(self.request)

    def valid(self, ser_class):
        ser = ser_class(data=self.request.data)
        ser.is_valid(raise_exception=True)
        return ser.validated_data


# --- views --------------------------------------------------------------------------------


class PayoutsSummaryView(Base):
    """Everything about a tournament's payouts: pool, table, satellite, sign-off, side pools."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        t = _t(pk)
        link = sel.satellite_link(t)
        return Response(
            {
                "tournament": t.pk,
                "pool": pool_data(t),
                "table": table_data(t, public=reads_public(request)),
                "display": sel.display_summary(t),
                "signoff": sel.signoff_status(t),
                "satellite": {
                    "target": link.target_id,
                    "remainder_rule": link.remainder_rule,
                    "prize_base": link.prize_base,
                    "already_registered": link.already_registered,
                    "completed": bool(link.completed_at),
                }
                if link
                else None,
            }
        )


class PoolView(Base):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        return Response(pool_data(_t(pk)))


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


class DealCalculatorView(Base):
    """POST stacks → ICM, chip chop and even chop side by side, with the PAY-09 check."""

    @extend_schema(request=StacksIn, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk):
        d = self.valid(StacksIn)
        return Response(services.deal_options(_t(pk), d["stacks"], reserve=d["reserve"]))


class DealsView(Base):
    @extend_schema(responses=OBJECT_LIST)
    def get(self, request, pk):
        return Response([deal_data(x) for x in Deal.objects.filter(tournament_id=pk).prefetch_related("acceptances")])

    @extend_schema(request=DealIn, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        d = self.valid(DealIn)
        deal = services.propose_deal(
            _t(pk), d["stacks"], method=d["method"], actor=self.actor(), reserve=d["reserve"], amounts=d.get("amounts"), by_place=d.get("by_place")
        )
        return Response(deal_data(deal), status=201)


class DealActionView(Base):
    op_names = ("accept", "approve", "cancel")
    """POST ``accept`` (floor, director), ``approve`` or ``cancel`` (director)."""

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk, op):
        deal = get_object_or_404(Deal, pk=pk)
        if op == "accept":
            d = self.valid(EntryIn)
            services.accept_deal(deal, d["entry"], actor=self.actor())
        elif op in ("approve", "cancel"):
            if op == "approve":
                services.approve_deal(deal, actor=self.actor())
            else:
                services.cancel_deal(deal, actor=self.actor(), reason=self.valid(ReasonIn)["reason"])
        else:
            raise DomainError("unknown_action", _("Unknown deal action."), status=404)
        deal.refresh_from_db()
        return Response(deal_data(deal))


class DueView(Base):
    """Prizes won: ``?tournament=<id>`` (default: every running or finished tournament), ``?all=1``
    to include what is already paid. Bounties owed (PAY-02) come one line per player, kind
    ``BOUNTY``, paid by ``POST /tournaments/<id>/bounties/pay/``."""

    @extend_schema(parameters=[OpenApiParameter("tournament", int), OpenApiParameter("all", str, enum=["1", "true"])], responses=OBJECT_LIST)
    def get(self, request):
        tid = query_int(request, "tournament")
        qs = Tournament.objects.filter(pk=tid) if tid is not None else Tournament.objects.filter(status__in=[Tournament.RUNNING, Tournament.FINISHED])
        include_paid = query_choice(request, "all", ("1", "true")) is not None
        out = []
        for t in qs:
            out += [due_data(d) for d in sel.dues(t) if include_paid or not d["paid"]]
            out += [bounty_due_data(t, b) for b in sel.bounties_owed(t)]
        return Response(out)


class PayView(Base):
    """Pay one prize (cashier). Honours ``Idempotency-Key``: a repeat pays nothing."""

    @extend_schema(request=PayIn, responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        d = self.valid(PayIn)
        return idempotent(
            request,
            lambda: Response(
                payment_data(
                    services.pay_prize(d["entry"], method=d["method"], actor=self.actor(), source=d["source"], reference=d["reference"], payee=d["payee"])
                ),
                status=201,
            ),
        )


class SlipView(Base):
    """A payout slip by its receipt number: a prize's, or a bounty payment's (PAY-02)."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, number):
        p = PrizePayment.objects.filter(row__receipt_number=number).select_related("row").first()
        if p is not None:
            return Response(payment_data(p))
        row = get_object_or_404(LedgerRow.objects.select_related("person"), receipt_number=number, kind=LedgerRow.BOUNTY)
        return Response(bounty_payment_data(row))


class BountiesView(Base):
    """A bounty event (PAY-02): the settings in force, each live player's bounty, every award
    (winner, knocked out, cash, added, envelope, paid receipt or owed) and the totals: taken
    in, paid out, owed, on heads, envelopes left, house."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        return Response(sel.bounty_overview(_t(pk)))


class BountyPayView(Base):
    """The desk pays a player every bounty he has won and not collected: one BOUNTY row, in
    cash within the cash limit, else by cheque or transfer with its reference. Honours
    ``Idempotency-Key``: a repeat pays nothing and answers the same receipt."""

    @extend_schema(request=BountyPayIn, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        t = _t(pk)
        d = self.valid(BountyPayIn)
        if d["entry"].tournament_id != t.pk:
            raise ValidationFailed("entry_not_in_tournament", _("That entry is not in this tournament."), field="entry")
        return idempotent(
            request,
            lambda: Response(
                bounty_payment_data(services.pay_bounties(d["entry"], method=d["method"], actor=self.actor(), reference=d["reference"], payee=d["payee"])),
                status=201,
            ),
        )


class BountyReturnView(Base):
    """The player gives back a bounty he was paid (a bust to be undone after he collected it):
    the desk records the money taken back, on the shift of the cashier who takes it. The
    payment is reversed (the other bounties it covered stay paid, on a new BOUNTY row) and the
    bounty is owed again, so the director can undo its bust. Answers 201 with the reversal's
    receipt; 409 ``bounty_not_paid`` when the bounty is not paid; 400 ``reason_required``.
    Honours ``Idempotency-Key``."""

    @extend_schema(request=BountyReturnIn, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        t = _t(pk)
        d = self.valid(BountyReturnIn)
        award = d["award"]
        if award.tournament_id != t.pk:
            raise ValidationFailed("award_not_in_tournament", _("That bounty is not in this tournament."), field="award")
        return idempotent(request, lambda: Response(bounty_return_data(services.return_bounty(award, reason=d["reason"], actor=self.actor())), status=201))


class EnvelopesView(Base):
    """The director sets up a mystery bounty's envelopes (PAY-02): they add up to the bounty
    money taken in (409 ``envelopes_total``); once one has been drawn, envelopes are only added
    after the old ones (409 ``envelopes_drawn``); an event that is not a mystery bounty has none (409 ``not_mystery``)."""

    @extend_schema(request=EnvelopesIn, responses={200: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        t = _t(pk)
        d = self.valid(EnvelopesIn)
        services.set_envelopes(t, d["envelopes"], actor=self.actor())
        t.refresh_from_db(fields=["settings"])
        overview = sel.bounty_overview(t)
        return Response({"envelopes": overview["envelopes"], "totals": overview["totals"]})


class ResultsSheetView(Base):
    """The event's results for the club's site and the tour's ranking: place, the player's name as
    public pages show it, prize, other prizes and, in a bounty event, bounties; ``?format_type=csv``
    (the default) or ``xlsx`` (formula-safe)."""

    @extend_schema(
        parameters=[OpenApiParameter("format_type", str, enum=list(sheets.FORMATS))],
        responses={(200, "text/csv"): OpenApiTypes.STR, (200, sheets.XLSX_TYPE): OpenApiTypes.BINARY},
    )
    def get(self, request, pk):
        t = _t(pk)
        fmt = query_choice(request, "format_type", sheets.FORMATS, sheets.CSV)
        data, name = results_sheet.results_file(t, fmt)
        resp = HttpResponse(data, content_type=sheets.CONTENT_TYPES[fmt])
        resp["Content-Disposition"] = f'attachment; filename="{name}"'
        return resp


class ReportView(Base):
    """``?format_type=json`` (default), ``csv`` or ``pdf``."""

    @extend_schema(
        parameters=[
            OpenApiParameter("name", str, OpenApiParameter.PATH, enum=sorted(reports.REPORTS)),
            OpenApiParameter("format_type", str, enum=["json", "csv", "pdf"]),
        ],
        responses={(200, "application/json"): OpenApiTypes.OBJECT, (200, "text/csv"): OpenApiTypes.STR, (200, "application/pdf"): OpenApiTypes.BINARY},
    )
    def get(self, request, pk, name):
        t = _t(pk)
        if not reports.is_report(t, name):
            raise DomainError("unknown_report", _("Unknown report."), status=404)
        report = reports.build(t, name)
        fmt = query_choice(request, "format_type", ("json", "csv", "pdf"), "json")
        if fmt == "csv":
            resp = HttpResponse(reports.to_csv(report), content_type="text/csv; charset=utf-8")
            resp["Content-Disposition"] = f'attachment; filename="{name}-{t.pk}.csv"'
            return resp
        if fmt == "pdf":
            resp = HttpResponse(reports.to_pdf(report), content_type="application/pdf")
            resp["Content-Disposition"] = f'inline; filename="{name}-{t.pk}.pdf"'
            return resp
        return Response(
            {
                **report,
                "columns": [str(c) for c in report["columns"]],
                "totals": [[str(a), str(b)] for a, b in report["totals"]],
                **({"signatures": [{"name": n, "role": r, "at": at} for n, r, at in report["signatures"]]} if "signatures" in report else {}),
            }
        )


class SignoffView(Base):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        return Response(sel.signoff_status(_t(pk)))

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        t = _t(pk)
        services.sign_off_ranking(t, actor=self.actor())
        return Response(sel.signoff_status(t), status=201)


class SatelliteView(Base):
    @extend_schema(request=SatelliteIn, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        d = self.valid(SatelliteIn)
        link = services.link_satellite(
            _t(pk), d["target"], actor=self.actor(), remainder_rule=d["remainder_rule"], prize_base=d["prize_base"], already_registered=d["already_registered"]
        )
        t = link.satellite
        seats = sum(1 for a in sel.satellite_awards(t, link) if a.seat)
        return Response({"satellite": t.pk, "target": link.target_id, "seats": seats, "table": table_data(t)}, status=201)


class SatelliteCompleteView(Base):
    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        payments = services.complete_satellite(_t(pk), actor=self.actor())
        return Response({"seats": [payment_data(p) for p in payments]}, status=201)


class SidePoolsView(Base):
    @extend_schema(responses=OBJECT_LIST)
    def get(self, request, pk):
        return Response(sel.side_pools_for_staff(_t(pk)))

    @extend_schema(request=SidePoolIn, responses=CREATED_LIST)
    def post(self, request, pk):
        d = self.valid(SidePoolIn)
        services.create_side_pool(_t(pk), actor=self.actor(), **d)
        return Response(sel.side_pools_summary(_t(pk)), status=201)


class SidePoolActionView(Base):
    op_names = ("contribute", "award", "token")

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OBJECT_LIST)
    def post(self, request, pk, op):
        pool = get_object_or_404(SidePool, pk=pk)
        if op == "contribute":
            d = self.valid(ContributionIn)
            services.contribute_side_pool(pool, d["amount"], actor=self.actor(), note=d["note"])
        elif op == "award":
            d = self.valid(AwardIn)
            awards = None
            if d.get("awards"):
                awards = [(get_object_or_404(Entry, pk=a.get("entry"), tournament=pool.tournament), a.get("amount")) for a in d["awards"]]
            services.award_side_pool(pool, actor=self.actor(), awards=awards, note=d["note"])
        elif op == "token":  # REG-10: the Last Longer chip or plaque handed over at the desk
            d = self.valid(TokenIn)
            entry = get_object_or_404(Entry, pk=d["entry"], tournament=pool.tournament)
            services.issue_side_token(pool, entry, label=d["label"], actor=self.actor())
            return Response(sel.side_pools_for_staff(pool.tournament), status=201)
        else:
            raise DomainError("unknown_action", _("Unknown side pool action."), status=404)
        return Response(sel.side_pools_summary(pool.tournament))


class TicketRedeemView(Base):
    @extend_schema(request=TicketRedeemIn, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        d = self.valid(TicketRedeemIn)
        ticket = get_object_or_404(Ticket, pk=pk)
        return idempotent(
            request,
            lambda: Response(
                {
                    "entry": services.redeem_ticket(
                        ticket, actor=self.actor(), tournament=d["tournament"], id_checked=d["id_checked"], confirm_final_table=d["confirm_final_table"]
                    ).pk
                },
                status=201,
            ),
        )


class TicketIssueIn(serializers.Serializer):
    holder = IdField(queryset=Person.objects.all())
    value = AmountField(max_digits=13, decimal_places=2, min_value=0)
    description = TextField(allow_blank=True, default="", max_length=200)
    target = IdField(queryset=Tournament.objects.all(), allow_null=True, default=None)
    valid_events = serializers.ListField(
        child=IdField(queryset=Tournament.objects.all()),
        required=False,
        default=list,
        max_length=100,
        help_text="PAY-11: a series ticket, valid for any one of these events",
    )
    non_transferable = serializers.BooleanField(default=True)


class TicketsView(Base):
    """PAY-11: GET ``?person=`` the tickets a person holds (holder, value, the events each is valid
    for, status); POST (director) issues a ticket for one event or a series of events."""

    @extend_schema(responses=OBJECT_LIST)
    def get(self, request):
        pk = query_int(request, "person")
        if pk is None:
            raise ValidationFailed("person_required", _("Say whose tickets: ?person=<id>."))
        person = get_object_or_404(Person, pk=pk)
        return Response(sel.tickets_of(person))

    @extend_schema(request=TicketIssueIn, responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        d = self.valid(TicketIssueIn)
        ticket = services.issue_ticket(
            d["holder"],
            value=d["value"],
            actor=self.actor(),
            description=d["description"],
            target=d["target"],
            valid_events=d["valid_events"],
            non_transferable=d["non_transferable"],
        )
        return Response(sel.ticket_data(ticket), status=201)


# --- the progressive jackpot (REG-11, PAY-12) ---------------------------------------------


class JackpotBaseIn(serializers.Serializer):
    base = AmountField(max_digits=13, decimal_places=2, min_value=0)
    name = TextField(allow_blank=True, default="", max_length=120)


class JackpotClaimIn(serializers.Serializer):
    entries = serializers.ListField(
        child=WholeNumberField(min_value=1, max_value=2**63 - 1),
        min_length=1,
        max_length=10,
        help_text="the entries with a royal flush in this hand (two or more share it)",
    )
    both_hole_cards = serializers.BooleanField(help_text="the floor saw both hole cards used (required to win)")
    note = TextField(allow_blank=True, default="", max_length=200)


class JackpotPayIn(serializers.Serializer):
    method = serializers.ChoiceField(choices=LedgerRow.METHODS)
    reference = TextField(allow_blank=True, default="", max_length=80)
    payee = TextField(allow_blank=True, default="", max_length=160)


def jackpot_data():
    fund = sel.jackpot_fund()
    return {"fund": sel.jackpot_summary(), "claims": sel.jackpot_claims(fund) if fund else []}


def win_data(win):
    return {
        "id": win.pk,
        "tournament": win.tournament_id,
        "level": win.level,
        "percent": str(win.percent),
        "fund_before": sel.money(win.fund_before),
        "amount": sel.money(win.amount),
        "verified_by": win.verified_by.get_username(),
        "locked_until": win.locked_until.isoformat(),
        "claims": [{"id": c.pk, "entry": c.entry_id, "amount": sel.money(c.amount)} for c in win.claims.all()],
    }


class JackpotView(Base):
    """The venue's progressive jackpot: the fund (base + contributions − wins), whether a win
    locks it until tomorrow, and the winners' shares with whether each was collected. PUT sets
    the base (director)."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response(jackpot_data())

    @extend_schema(request=JackpotBaseIn, responses=OpenApiTypes.OBJECT)
    def put(self, request):
        d = self.valid(JackpotBaseIn)
        services.set_jackpot_base(d["base"], name=d["name"], actor=self.actor())
        return Response(jackpot_data())


class JackpotClaimView(Base):
    """The floor records a royal flush verified at the table (PAY-12); the level is the clock's."""

    @extend_schema(request=JackpotClaimIn, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        t = _t(pk)
        d = self.valid(JackpotClaimIn)
        return idempotent(
            request,
            lambda: Response(
                win_data(services.claim_jackpot(t, d["entries"], both_hole_cards=d["both_hole_cards"], note=d["note"], actor=self.actor())), status=201
            ),
        )


class JackpotPayView(Base):
    """The desk pays a winner's share of the jackpot; the answer carries the slip's address."""

    @extend_schema(request=JackpotPayIn, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        claim = get_object_or_404(JackpotClaim, pk=pk)
        d = self.valid(JackpotPayIn)
        return idempotent(
            request,
            lambda: Response(
                payment_data(services.pay_jackpot(claim, method=d["method"], reference=d["reference"], payee=d["payee"], actor=self.actor())), status=201
            ),
        )
