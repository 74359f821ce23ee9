"""The cashier desk's API bodies: receipts (ledger rows), sales, alternates, the desk's actions
(sell, pre-register, check in, settle, rebuy, reverse, refund) and exchange rates."""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from tdmanager.compiled import BuiltOnce
from tdmanager.fields import AmountField, IdField, IdModelSerializer, TextField
from tournaments.api.fields import MAX_STACK, REASON
from tournaments.cashier import receipts
from tournaments.models import (
    Alternate,
    Entry,
    LedgerRow,
    Person,
    Tournament,
)
from tournaments.setup.serializers import METHOD, TENDER


class LedgerRowSerializer(BuiltOnce, IdModelSerializer):
    total = AmountField(max_digits=13, decimal_places=2, read_only=True)
    cashier_name = serializers.CharField(source="cashier.username", read_only=True, default="")
    reverses_receipt = serializers.IntegerField(source="reverses.receipt_number", read_only=True, default=None, allow_null=True)
    settles_receipt = serializers.IntegerField(source="settles.receipt_number", read_only=True, default=None, allow_null=True)
    receipt_url = serializers.SerializerMethodField()
    receipt_pdf_url = serializers.SerializerMethodField()
    phone_url = serializers.SerializerMethodField(
        help_text="The player's phone page of the entry sold (its token is the page's key): only for a cashier or a director, "
        "who hand the player his receipt with its QR code; null for any other reader."
    )
    reason = serializers.CharField(read_only=True)

    class Meta:
        model = LedgerRow
        fields = [
            "id",
            "receipt_number",
            "tournament",
            "entry",
            "person",
            "kind",
            "prize_amount",
            "fee_amount",
            "side_amount",
            "jackpot_amount",
            "bounty_amount",
            "total",
            "currency",
            "tender_currency",
            "tender_amount",
            "exchange_rate",
            "chips",
            "method",
            "reference",
            "payee",
            "cashier_name",
            "created_at",
            "reverses_receipt",
            "owed_amount",
            "settles_receipt",
            "reason",
            "receipt_url",
            "receipt_pdf_url",
            "phone_url",
        ]

    def get_phone_url(self, obj) -> str | None:
        """The player's phone page of the entry sold (the receipt's QR code), "" where none. The
        page shows his name, seat, place and prizes to whoever holds the link, so it goes only to
        who hands it to him (``policy.PHONE_PAGE_GIVERS``): the request's user, or a desk route's
        own answer (``context["at_desk"]``: the cashier's and the director's routes, no request
        at hand). Any other reader (floor, controller, regulator), or no reader named: None."""
        request = self.context.get("request")
        if not (self.context.get("at_desk") or receipts.gives_phone_page(request)):
            return None
        return receipts.phone_link(obj, request)

    def get_receipt_url(self, obj) -> str:
        return reverse("receipt", args=[obj.receipt_number])

    def get_receipt_pdf_url(self, obj) -> str:
        return reverse("receipt-pdf", args=[obj.receipt_number])


class SaleSerializer(LedgerRowSerializer):
    """A row of the desk's "Last sales": the row, who it was for, and whether it was reversed."""

    person_name = serializers.CharField(source="person.display_name", read_only=True, default="")
    kind_display = serializers.CharField(source="get_kind_display", read_only=True)
    method_display = serializers.CharField(source="get_method_display", read_only=True)
    reversed_by_receipt = serializers.SerializerMethodField()

    class Meta(LedgerRowSerializer.Meta):
        fields = LedgerRowSerializer.Meta.fields + ["person_name", "kind_display", "method_display", "reversed_by_receipt"]

    def get_reversed_by_receipt(self, obj) -> int | None:
        rev = getattr(obj, "reversed_by", None)  # a reverse one-to-one: AttributeError when there is none
        return rev.receipt_number if rev is not None else None


class AlternateSerializer(IdModelSerializer):
    person_name = serializers.CharField(source="person.display_name", read_only=True)

    class Meta:
        model = Alternate
        fields = ["id", "tournament", "person", "person_name", "status", "created_at", "entry"]


class SellEntrySerializer(serializers.Serializer):
    tournament = IdField(queryset=Tournament.objects.all())
    person = IdField(queryset=Person.objects.all())
    method = METHOD
    tender_currency = TENDER
    jackpot = serializers.BooleanField(default=False, help_text="add the progressive jackpot's fee (REG-11)")
    confirm_final_table = serializers.BooleanField(
        default=False,
        help_text="the desk confirms an entry that opens a table once the final table is formed (REG-04, BAL-09: 409 final_table_formed without it)",
    )


class PreRegisterSerializer(serializers.Serializer):
    tournament = IdField(queryset=Tournament.objects.all())
    person = IdField(queryset=Person.objects.all())
    channel = serializers.ChoiceField(choices=["desk", "transfer", "whatsapp", "email", "phone"], default="desk")


class EntryActionSerializer(serializers.Serializer):
    entry = IdField(queryset=Entry.objects.all())
    method = METHOD
    tender_currency = TENDER


class CheckInSerializer(serializers.Serializer):
    entry = IdField(queryset=Entry.objects.all())
    id_checked = serializers.BooleanField(default=False, help_text="the identity document was seen (REG-02)")


class TransferClearedSerializer(serializers.Serializer):
    entry = IdField(queryset=Entry.objects.all())
    reference = TextField(max_length=80)
    jackpot = serializers.BooleanField(default=False)
    confirm_final_table = serializers.BooleanField(
        default=False,
        help_text="the desk confirms an entry that opens a table once the final table is formed (REG-04, BAL-09: 409 final_table_formed without it)",
    )


class PresenceSerializer(serializers.Serializer):
    entry = IdField(queryset=Entry.objects.all())
    presence = serializers.ChoiceField(choices=["", "ABSENT", "WITHDRAWN"], allow_blank=True)
    reason = TextField(max_length=REASON, required=False, allow_blank=True, default="")


class ArrivalSerializer(serializers.Serializer):
    """REG-09: the floor marks a seated player as not arrived (``arrived`` false) or arrived (its undo)."""

    entry = IdField(queryset=Entry.objects.all())
    arrived = serializers.BooleanField()
    reason = TextField(max_length=REASON, required=False, allow_blank=True, default="")


class SettleSerializer(serializers.Serializer):
    """REG-09: the player pays an amount owed (the RECEIVABLE row's receipt number)."""

    receipt_number = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    method = serializers.ChoiceField(choices=LedgerRow.METHODS, default=LedgerRow.CASH)


class NoShowSerializer(serializers.Serializer):
    entry = IdField(queryset=Entry.objects.all())
    reason = TextField(max_length=REASON, required=False, allow_blank=True, default="")


class PayReservationSerializer(EntryActionSerializer):
    jackpot = serializers.BooleanField(default=False, help_text="add the progressive jackpot's fee (REG-11)")
    confirm_final_table = serializers.BooleanField(
        default=False,
        help_text="the desk confirms an entry that opens a table once the final table is formed (REG-04, BAL-09: 409 final_table_formed without it)",
    )


class DeskEntrySerializer(EntryActionSerializer):
    """A rebuy or an add-on at the desk: the player's entry; none (null) when the player has no entry
    in the tournament, then ``person`` names him in the refusal (409 not_in_tournament)."""

    entry = IdField(queryset=Entry.objects.all(), allow_null=True)
    person = IdField(queryset=Person.objects.all(), required=False, allow_null=True)


class DeclareRebuySerializer(serializers.Serializer):
    """FMT-04 / TDA 27: the player declared a rebuy before the hand (his stack, when the house asks
    that it be at or below the rebuy threshold: ``settings.rebuy_declare_with_chips`` false). At
    the desk, as for a rebuy: no entry (null) when the player has none, ``person`` naming him in
    the refusal (409 not_in_tournament)."""

    entry = IdField(queryset=Entry.objects.all(), allow_null=True)
    person = IdField(queryset=Person.objects.all(), required=False, allow_null=True)
    stack = serializers.IntegerField(min_value=0, max_value=MAX_STACK, required=False, allow_null=True)


class RebuySerializer(DeskEntrySerializer):
    stack = serializers.IntegerField(min_value=0, required=False, allow_null=True)
    confirm_final_table = serializers.BooleanField(
        default=False,
        help_text="the desk confirms an entry that opens a table once the final table is formed (REG-04, BAL-09: 409 final_table_formed without it)",
    )


class ReverseSerializer(serializers.Serializer):
    receipt_number = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    reason = TextField(max_length=REASON)


class RefundSerializer(serializers.Serializer):
    entry = IdField(queryset=Entry.objects.all())
    reason = TextField(max_length=REASON)
    expenses = AmountField(max_digits=13, decimal_places=2, default=0, min_value=0)
    method = METHOD
    reference = TextField(
        max_length=80,
        required=False,
        allow_blank=True,
        default="",
        help_text="the cheque number or transfer reference; cash only within the cash limit (REG-06)",
    )


class RefundDuePaySerializer(serializers.Serializer):
    entry = IdField(queryset=Entry.objects.all())
    method = METHOD
    reference = TextField(
        max_length=80, required=False, allow_blank=True, default="", help_text="the cheque number or transfer reference (required for CHEQUE and TRANSFER)"
    )


class AlternateInputSerializer(serializers.Serializer):
    tournament = IdField(queryset=Tournament.objects.all())
    person = IdField(queryset=Person.objects.all())


class AdmitAlternateSerializer(serializers.Serializer):
    tournament = IdField(queryset=Tournament.objects.all())
    method = METHOD
    tender_currency = TENDER


class ExchangeRateSerializer(IdModelSerializer):
    """REG-06: a rate of the day (how many ``base_currency`` one ``currency`` buys)."""

    set_by_name = serializers.CharField(source="set_by.username", read_only=True, default="")

    class Meta:
        from tournaments.models import ExchangeRate

        model = ExchangeRate
        fields = ["id", "date", "currency", "base_currency", "rate", "set_by_name", "set_at"]


class ExchangeRateInputSerializer(serializers.Serializer):
    currency = TextField(max_length=3, label=_("Currency"))
    # Typed at the desk in the reader's language: "1,07" in Italian, "1.07" in English (Django's
    # localized input, ``sanitize_separators``); a JSON number is read as it is.
    rate = AmountField(
        max_digits=14,
        decimal_places=6,
        localize=True,
        label=_("Rate"),
        help_text="how many base_currency one currency buys; a string in the request's language is accepted",
    )
    base_currency = TextField(max_length=3, required=False, default="EUR")
