"""Bounties (PAY-02): the overview, paying them at the desk, a payment given back, the mystery envelopes."""

from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from tdmanager.errors import ValidationFailed
from tdmanager.fields import AmountField, IdField, TextField
from tdmanager.idempotency import idempotent
from tournaments.models import Entry, LedgerRow

from .. import selectors as sel
from .. import services
from ..models import BountyAward
from .common import Base, _t


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
