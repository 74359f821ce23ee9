"""Pages: dashboard, cashier desk, receipts, people, structures, tournament setup.

Views are thin: they read, render, or call one service. The desk page talks to the API.
"""

from datetime import timedelta
from decimal import Decimal

from django import forms
from django.contrib import messages
from django.core.validators import MaxValueValidator
from django.db.models import Count, Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tdmanager import dates, policy
from tdmanager.api import named_detail, object_id
from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.fields import AmountFormField, amount_formfield
from tdmanager.formatting import money
from tdmanager.paging import Paged
from tdmanager.policy import DEALER, DISPLAY
from tdmanager.roles import has_role, user_roles
from tdmanager.security import no_store
from tournaments.api.fields import MAX_STACK, at_most
from tournaments.cashier import receipts
from tournaments.cashier import rules as fees
from tournaments.cashier import services as cashier
from tournaments.clock import rules as clock_engine
from tournaments.clock import selectors as clockview
from tournaments.eventlog.services import Actor
from tournaments.floor import penalties
from tournaments.floor import services as floor_service
from tournaments.floor import views as overview
from tournaments.oversight import services as oversight
from tournaments.people import privacy
from tournaments.people import services as people
from tournaments.people.rules import masked_document
from tournaments.people.serializers import PersonSerializer
from tournaments.screens import rules as layouts
from tournaments.screens import services as screen_links
from tournaments.screens.services import choices as layout_choices
from tournaments.screens.services import sounds_of
from tournaments.setup import changes as change_service
from tournaments.setup import lifecycle, streaming
from tournaments.setup import services as setup
from tournaments.setup.serializers import TournamentSerializer
from tournaments.structures import services as structures_service

from . import labels, selectors, signals
from .house import HouseRules
from .models import BlindStructure, ChipSet, DisplayScreen, Entry, LedgerRow, Person, RegulatorGrant, Tournament, TournamentTemplate, WaitingStart


def dashboard(request):
    held = user_roles(request.user)
    # A lobby screen's login lands on its screen (or the screens to pick from); with none yet, on
    # what is playing, told where a screen is made.
    lobby_login = DISPLAY in held and not policy.permits(held - {DISPLAY}, "dashboard", "GET")
    screens = list(DisplayScreen.objects.filter(token_revoked_at__isnull=True).select_related("tournament").order_by("name", "pk")) if lobby_login else []
    if len(screens) == 1:
        return redirect("display", token=screens[0].token)
    if screens:
        return no_store(render(request, "lobby_screens.html", {"screens": screens}))  # their links are their keys
    # A dealer's login lands on his table and his next push (or a page that says he has none),
    # not on a list of events he has nothing to do with.
    if DEALER in held and not policy.permits(held - {DEALER}, "dashboard", "GET"):
        return redirect("dealer-home")
    tournaments = Tournament.objects.exclude(status__in=[Tournament.FINISHED, Tournament.CANCELLED]).order_by("start_at")
    recent = Tournament.objects.filter(status__in=[Tournament.FINISHED, Tournament.CANCELLED]).order_by("-start_at")
    if policy.regulator_only(held, "tournament", "GET"):  # ROLE-01: only what he was given
        granted = RegulatorGrant.objects.filter(user=request.user).values("tournament_id")
        tournaments, recent = tournaments.filter(pk__in=granted), recent.filter(pk__in=granted)
    recent = Paged(request, recent, per_page=10, param="ended", anchor="ended")  # a season's events, ten a page
    rows = []
    for t in tournaments:
        counts = {s: 0 for s, _l in Entry.STATUSES}
        for row in t.entries.values("status").annotate(n=Count("id")):
            counts[row["status"]] = row["n"]
        rows.append({"t": t, "playing": counts[Entry.ACTIVE], "reserved": counts[Entry.RESERVED], "entries": counts[Entry.ACTIVE] + counts[Entry.BUSTED]})
    return render(request, "dashboard.html", {"rows": rows, "recent": recent, "no_lobby_screen": lobby_login})


def desk(request):
    open_t = Tournament.objects.filter(status__in=[Tournament.REGISTERING, Tournament.RUNNING, Tournament.PLANNED]).order_by("start_at")
    raw = request.GET.get("t", "")
    if raw and not (raw.isascii() and raw.isdigit() and len(raw) < 12):
        raise Http404(_("No such tournament."))
    selected = int(raw) if raw else selectors.desk_tournament(request.user, list(open_t))
    # FMT-02: a cancelled tournament stays at the desk, after the open ones, until its refunds are paid.
    open_t = [*open_t, *Tournament.objects.filter(pk__in=selectors.tournaments_with_refunds_due()).order_by("start_at")]
    for t in open_t:  # REG-11: the desk offers the jackpot's fee where the tournament plays for it
        rules = HouseRules.of(t)
        t.jackpot_fee = f"{rules.jackpot_fee:.2f}" if rules.jackpot else None
        t.require_id = rules.check_in_requires_id  # REG-02: check-in asks for the identity document
        t.bounty_part = rules.bounty_part  # PAY-02: every buy-in and re-entry buys a bounty, its own line
        t.desk_price = rules.entry_cost(t)
        t.sells_rebuys = cashier.sells_rebuys(t)  # FMT-04: no stack asked for a rebuy the event does not have
    return render(request, "desk.html", {"tournaments": open_t, "selected": selected, "shift": selectors.shift_totals(request.user)})


def receipt(request, number):
    row = get_object_or_404(LedgerRow.objects.select_related("tournament", "entry", "person", "cashier"), receipt_number=number)
    return no_store(render(request, "receipt.html", receipts.receipt_context(row, request)))  # its QR and link: the phone page's key


def receipt_pdf(request, number):
    row = get_object_or_404(LedgerRow.objects.select_related("tournament", "entry", "person", "cashier"), receipt_number=number)
    resp = HttpResponse(receipts.receipt_pdf(row, request), content_type="application/pdf")
    resp["Content-Disposition"] = f'inline; filename="receipt-{number}.pdf"'
    return no_store(resp)  # its QR code and link: the phone page's key


PEOPLE_FOUND = 200  # a search's answers: the person meant comes first, and a page of 50 shows them


def people_page(request):
    """Everyone, by last name, fifty a page with how many there are; ``?q=`` (two letters or
    more) the people found, the person meant first (``people.search_people``). The page's script
    reads the same page again as one types."""
    query = " ".join(request.GET.get("q", "").split())[:100]
    if len(query) >= 2:
        rows = people.search_people(query, limit=PEOPLE_FOUND, reader=request.user)
    else:
        rows = Person.objects.order_by("last_name", "first_name", "pk")
    paged = Paged(request, rows)
    for p in paged:
        p.masked_document = masked_document(p.document_id)
    # The search finds a document only for who reads whole numbers at the desk: the hint says so to him alone.
    return render(request, "people.html", {"finds_by_document": has_role(request.user, *policy.DOCUMENT_READERS), "paged": paged, "q": query})


def structures_page(request):
    structures = list(BlindStructure.objects.prefetch_related("items"))
    for s in structures:  # each row named as players say it: "Level 5", "Break after level 4"
        items = list(s.items.all())
        s.rows = list(zip(items, clockview.item_names(items)))
    # FMT-16: the director picks each level's game (a mixed event) from the configured list.
    level_games = [(code, labels.game_label(code)) for code in structures_service.LEVEL_GAMES]
    return render(request, "structures.html", {"structures": structures, "level_games": level_games})


CUSTOM_FEE = "CUSTOM"


STACK_FIELDS = ("starting_stack", "rebuy_chips", "addon_chips", "rebuy_stack_threshold")

#: PAY-02: the house settings of a bounty event the form edits by their own names.
BOUNTY_FIELDS = ("bounty", "bounty_amount", "bounty_cash_percent", "bounty_split", "bounty_remainder", "bounty_rounding", "mystery_leftover", "bounty_in_deal")


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        formfield_callback = amount_formfield
        fields = [
            "name",
            "start_at",
            "game",
            "format",
            "currency",
            "buy_in",
            "starting_stack",
            "table_size",
            "field_cap",
            "min_players",
            "structure",
            "late_reg_closes_after_level",
            "late_reg_end",
            "max_entries_per_player",
            "reentry_until_level",
            "rebuy_price",
            "rebuy_fee",
            "rebuy_chips",
            "rebuy_max",
            "rebuy_until_level",
            "rebuy_stack_threshold",
            "addon_price",
            "addon_fee",
            "addon_chips",
            "addon_after_level",
            "addon_max",
            "guarantee",
            "cash_limit",
            "rule_set",
            "chip_set",
        ]
        widgets = {"start_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")}
        labels = {"structure": gettext_lazy("Blind structure"), "late_reg_end": gettext_lazy("Late registration ends")}

    override_reason = forms.CharField(
        label=gettext_lazy("Reason for changing prices"),
        required=False,
        max_length=200,
        help_text=gettext_lazy("Prices and the prize pool are locked once registration opens (FMT-01): say why they change."),
    )
    deductions_text = forms.CharField(
        label=gettext_lazy("Prize pool deductions"),
        required=False,
        help_text=gettext_lazy("One per line: name percent, e.g. 'casino 3' and 'staff 4'."),
    )
    # REG-03: the fee is computed from the buy-in; a preset or an amount overrides it, with a reason.
    fee_preset = forms.ChoiceField(
        label=gettext_lazy("Fee"),
        initial=fees.STATUTORY,
        required=False,
        choices=[
            (fees.STATUTORY, gettext_lazy("Statutory: 10 % of the buy-in up to 3,000, 6 % above (REG-03)")),
            (fees.SANREMO_DAILY, gettext_lazy("Daily event: flat 20 (003 Allegato 1)")),
            (CUSTOM_FEE, gettext_lazy("Another fee (override)")),
        ],
    )
    fee_override = AmountFormField(
        label=gettext_lazy("Fee override"),
        required=False,
        min_value=0,
        max_digits=13,
        decimal_places=2,
        help_text=gettext_lazy("Only with “Another fee”: the fee charged instead of the statutory one."),
    )
    fee_override_reason = forms.CharField(label=gettext_lazy("Reason for the fee override"), required=False, max_length=200)
    # REG-11: the progressive jackpot, switched on here as through the API (``settings.jackpot``).
    jackpot = forms.BooleanField(
        label=gettext_lazy("Progressive jackpot"),
        required=False,
        help_text=gettext_lazy("The desk offers the jackpot fee as a line of its own, beside the buy-in (REG-11)."),
    )
    jackpot_fee = AmountFormField(
        label=gettext_lazy("Jackpot fee"), required=False, min_value=Decimal("0.01"), max_value=1000, max_digits=7, decimal_places=2, localize=True
    )

    # PAY-02: a bounty event, set here as through the API (``settings.bounty`` and the rest).
    bounty = forms.ChoiceField(
        label=gettext_lazy("Bounty event"),
        required=False,
        choices=[
            ("NONE", gettext_lazy("No bounty")),
            ("FIXED", gettext_lazy("Knockout: the eliminator wins the whole bounty")),
            ("PKO", gettext_lazy("Progressive knockout (PKO): part in cash, the rest onto the eliminator's bounty")),
            ("MYSTERY", gettext_lazy("Mystery bounty: envelopes drawn from a stage")),
        ],
        help_text=gettext_lazy("Bounties are bought with each buy-in and re-entry: a rebuy tournament has none."),
    )
    bounty_amount = AmountFormField(
        label=gettext_lazy("Bounty part"),
        required=False,
        min_value=0,
        max_value=10**7,
        max_digits=10,
        decimal_places=2,
        localize=True,
        help_text=gettext_lazy("Sold on top of the buy-in and the fee with each buy-in and re-entry, never in the prize pool."),
    )
    bounty_cash_percent = AmountFormField(
        label=gettext_lazy("PKO: percent paid in cash"),
        required=False,
        min_value=0,
        max_value=100,
        max_digits=5,
        decimal_places=2,
        localize=True,
        help_text=gettext_lazy("Of a bounty won; the rest goes onto the eliminator's own bounty."),
    )
    bounty_split = forms.ChoiceField(
        label=gettext_lazy("Bounty of a split pot"),
        required=False,
        choices=[("EQUAL", gettext_lazy("Shared equally")), ("POT", gettext_lazy("Shared by each eliminator's share of the pot"))],
    )
    bounty_remainder = forms.ChoiceField(
        label=gettext_lazy("What rounding leaves of a shared bounty"),
        required=False,
        choices=[("FIRST", gettext_lazy("To the first eliminator listed")), ("HOUSE", gettext_lazy("To the house"))],
    )
    bounty_rounding = AmountFormField(
        label=gettext_lazy("Bounty rounding unit"),
        required=False,
        min_value=Decimal("0.01"),
        max_value=100000,
        max_digits=8,
        decimal_places=2,
        localize=True,
        help_text=gettext_lazy("Cash shares of a bounty are multiples of this amount."),
    )
    mystery_from = forms.ChoiceField(
        label=gettext_lazy("Mystery bounties are paid from"),
        required=False,
        choices=[
            ("ITM", gettext_lazy("The money: once the players left are paid")),
            ("START", gettext_lazy("The start")),
            ("DAY2", gettext_lazy("Day 2")),
            ("LEVEL", gettext_lazy("A level (below)")),
        ],
    )
    mystery_from_level = forms.IntegerField(label=gettext_lazy("Mystery bounties from level"), required=False, min_value=1, max_value=1000)
    mystery_leftover = forms.ChoiceField(
        label=gettext_lazy("Mystery envelopes left at the end"),
        required=False,
        choices=[("WINNER", gettext_lazy("To the winner")), ("CARRY_OVER", gettext_lazy("Kept for the next mystery event"))],
    )
    bounty_in_deal = forms.ChoiceField(
        label=gettext_lazy("Bounties in a deal"),
        required=False,
        choices=[
            ("APART", gettext_lazy("Each player keeps their own bounty apart from the prizes")),
            ("ADDED", gettext_lazy("The bounties in play are added to the money the deal shares")),
        ],
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in STACK_FIELDS:  # a human bound, as the API's (never the database's 2^31 or 2^63)
            field = self.fields[name]
            field.max_value, field.widget.attrs["max"] = MAX_STACK, MAX_STACK
            field.validators = [v for v in field.validators if not isinstance(v, MaxValueValidator)]
            field.validators.append(MaxValueValidator(MAX_STACK, message=at_most(MAX_STACK)))
        house_rules = HouseRules.of(self.instance) if self.instance.pk else HouseRules()
        self.fields["jackpot"].initial = house_rules.jackpot
        self.fields["jackpot_fee"].initial = Decimal(house_rules.jackpot_fee).quantize(Decimal("0.01"))
        self.fields["jackpot_fee"].help_text = _("Empty: the house's %(fee)s.") % {"fee": money(HouseRules().jackpot_fee)}
        for name in BOUNTY_FIELDS:
            self.fields[name].initial = getattr(house_rules, name)
        stage = house_rules.mystery_from
        self.fields["mystery_from"].initial = "LEVEL" if isinstance(stage, dict) else stage
        self.fields["mystery_from_level"].initial = stage["level"] if isinstance(stage, dict) else None
        if not self.instance.pk:  # PAY-01: what an empty field means, before the rule set is chosen
            self.fields["deductions_text"].help_text = _(
                "One per line: name percent, e.g. 'casino 3' and 'staff 4'. Empty: the rule set's, "
                "'casino 3' under Sanremo (003 Art. 14), none under the others."
            )
        if self.instance.pk:  # the deductions as typed, one per line
            self.fields["deductions_text"].initial = "\n".join(f"{d['name']} {d['percent']}" for d in self.instance.deductions or [])
        if not self.instance.pk or self.instance.status == Tournament.PLANNED:
            del self.fields["override_reason"]  # nothing is locked yet
        # REG-04 / FMT-04: an empty level is the house default, said here (never "open all event").
        house = HouseRules.of(self.instance) if self.instance.pk else HouseRules()
        self.fields["late_reg_closes_after_level"].help_text = _(
            "Empty: the end of level %(n)s (house default, REG-04). Re-entries and the jackpot's late percentage follow it."
        ) % {"n": house.late_reg_default_level}
        self.fields["rebuy_until_level"].help_text = _("Empty: the end of level %(n)s (house default, FMT-04).") % {"n": house.rebuy_default_level}
        if self.instance.pk:
            override = HouseRules.of(self.instance).fee_override
            preset = next((name for name, (amount, _r) in fees.PRESETS.items() if amount == override), CUSTOM_FEE)
            self.fields["fee_preset"].initial = preset
            self.fields["fee_override"].initial = override if preset == CUSTOM_FEE else None
            if fees.is_override(self.instance.buy_in, self.instance.fee):
                self.fields["fee_preset"].help_text = _("Fee %(fee)s, statutory %(statutory)s: an override.") % {
                    "fee": self.instance.fee,
                    "statutory": fees.statutory_fee(self.instance.buy_in),
                }

    def clean(self):
        data = super().clean()
        if data.get("fee_preset") == CUSTOM_FEE and data.get("fee_override") is None:
            self.add_error("fee_override", _("Enter the fee charged instead of the statutory one."))
        if data.get("bounty") not in (None, "", "NONE") and data.get("mystery_from") == "LEVEL" and data.get("mystery_from_level") is None:
            self.add_error("mystery_from_level", _("Enter the level from which mystery bounties are paid."))
        return data

    def fee_choice(self) -> tuple[str | None, dict | None]:
        """(the preset to apply, the settings with a typed override), when the fee choice changed."""
        preset = self.cleaned_data.get("fee_preset")
        if not ({"fee_preset", "fee_override"} & set(self.changed_data)) and self.instance.pk:
            return None, None
        if preset != CUSTOM_FEE:
            return preset or None, None
        settings = dict(self.instance.settings or {}) if self.instance.pk else {}
        settings["fee_override"] = str(self.cleaned_data["fee_override"])
        return None, settings

    def jackpot_settings(self, settings: dict | None) -> dict | None:
        """``settings`` (or the tournament's) with the jackpot as the form says, when it changed."""
        if not {"jackpot", "jackpot_fee"} & set(self.changed_data):
            return settings
        out = dict(settings if settings is not None else (self.instance.settings or {}) if self.instance.pk else {})
        out["jackpot"] = bool(self.cleaned_data.get("jackpot"))
        fee = self.cleaned_data.get("jackpot_fee")
        if fee is None:
            out.pop("jackpot_fee", None)
        else:
            out["jackpot_fee"] = str(fee)
        return out

    def bounty_settings(self, settings: dict | None) -> dict | None:
        """``settings`` (or the tournament's) with the bounty rules as the form says, when they
        changed (PAY-02). "No bounty" leaves the other bounty rules out; the setup service checks
        the rest (a rebuy tournament, a bounty event without a bounty part)."""
        if not (set(BOUNTY_FIELDS) | {"mystery_from", "mystery_from_level"}) & set(self.changed_data):
            return settings
        out = dict(settings if settings is not None else (self.instance.settings or {}) if self.instance.pk else {})
        kind = self.cleaned_data.get("bounty") or "NONE"
        for name in BOUNTY_FIELDS:
            out.pop(name, None)
        out.pop("mystery_from", None)
        if kind == "NONE":
            return out
        for name in BOUNTY_FIELDS:
            value = self.cleaned_data.get(name)
            if value not in (None, ""):
                out[name] = str(value) if isinstance(value, Decimal) else value
        stage = self.cleaned_data.get("mystery_from")
        if stage == "LEVEL":
            out["mystery_from"] = {"level": self.cleaned_data.get("mystery_from_level")}
        elif stage:
            out["mystery_from"] = stage
        return out

    def clean_deductions_text(self):
        """The lines as the API's list ("casino 3" → {"name": "casino", "percent": "3"}); the setup
        service checks it as it checks the API's (``setup.deductions_error``)."""
        out = []
        for line in self.cleaned_data["deductions_text"].replace(",", "\n").splitlines():
            parts = line.split()
            if parts:
                out.append({"name": " ".join(parts[:-1]) or "deduction", "percent": parts[-1].rstrip("%")})
        message = setup.deductions_error(out)
        if message:
            raise forms.ValidationError(message)
        return out

    def _post_clean(self):
        pass  # the model is validated by the setup service (one place), not twice

    def values(self) -> dict:
        """The typed values the setup service takes."""
        values = {name: self.cleaned_data[name] for name in self.Meta.fields if name in self.cleaned_data}
        values["deductions"] = self.cleaned_data["deductions_text"]
        if not self.instance.pk and not values["deductions"]:
            values["deductions"] = None  # PAY-01: a new tournament left empty takes its rule set's
        return values


#: The service's name of a value → the form field that holds it, where they differ. The house
#: settings the setup rules check on the page are the bounty's (PAY-02).
FORM_FIELD = {"deductions": "deductions_text", "settings": "bounty"}


def tournament_edit(request, pk=None):
    """The tournament form: the same setup services as the API (tournaments.services.setup)."""
    instance = get_object_or_404(Tournament, pk=pk) if pk else None
    form = TournamentForm(request.POST if request.method == "POST" else None, instance=instance)  # an empty POST is bound too
    if request.method == "POST" and form.is_valid():
        actor = Actor.from_request(request)
        values = form.values()
        preset, fee_settings = form.fee_choice()
        settings = form.bounty_settings(form.jackpot_settings(fee_settings))
        if settings is not None:
            values["settings"] = settings
        reason = form.cleaned_data.get("override_reason", "") or form.cleaned_data.get("fee_override_reason", "")
        try:
            if instance is None:
                t = setup.create_tournament(values, actor=actor, fee_preset=preset, override_reason=reason)
            else:
                t = setup.update_tournament(instance, values, actor=actor, override_reason=reason, fee_preset=preset)
        except DomainError as exc:
            fields = exc.extra.get("fields") or {}
            if isinstance(fields, dict):  # invalid values: each under its field
                for name, problems in fields.items():
                    name = FORM_FIELD.get(name, name)
                    form.add_error(name if name in form.fields else None, [str(p) for p in problems] if isinstance(problems, list) else [str(problems)])
            else:  # a refused change (e.g. money_fields_locked): the message, and the reason field to fill
                name = {"money_fields_locked": "override_reason", "fee_override_reason_required": "fee_override_reason", "bounty_locked": "bounty"}.get(
                    exc.code
                )
                form.add_error(name if name in form.fields else None, str(exc.message))
            if isinstance(fields, dict) and exc.code != "invalid":
                form.add_error(None, str(exc.message))
        else:
            messages.success(request, _("Tournament saved."))
            return redirect("tournament", pk=t.pk)
    elif request.method == "POST":  # every stage at once: the setup rules on the values read, beside the fields' errors
        readable = {name: form.cleaned_data[name] for name in form.Meta.fields if name in form.cleaned_data}
        for name, message in setup.setup_errors(readable, instance).items():
            if name not in form.errors:
                form.add_error(name if name in form.fields else None, str(message))
    return render(request, "tournament_edit.html", {"form": form, "t": instance})


def oversight_context(t) -> dict:
    """ROLE-01/02: the addenda issued, the late stubs not yet reported (offered once late
    registration has closed) and the regulators who read this tournament."""
    unreported = selectors.unreported_stubs(t).count()
    return {
        "report_links": [link for answer in signals.ask(signals.report_links, tournament=t) for link in answer],
        "unreported_stubs": unreported,
        "offer_addendum": bool(unreported) and t.status in (Tournament.RUNNING, Tournament.FINISHED) and not clockview.late_registration_open(t),
        "regulators": [g.user.get_username() for g in t.regulator_grants.select_related("user")],
    }


def published_changes(t) -> list[dict]:
    """FMT-02: the event's versions for its page: when, who, why and each change as a line."""
    return [
        {
            "version": c.version,
            "changed_at": c.changed_at,
            "by": c.changed_by.get_username() if c.changed_by else "",
            "reason": c.reason,
            "reason_public": c.reason_public,
            "lines": selectors.change_lines(c),
        }
        for c in selectors.change_history(t)
    ]


def tournament_detail(request, pk):
    t = get_object_or_404(Tournament, pk=pk)
    if request.method == "POST":
        actor = Actor.from_request(request)
        try:
            op = request.POST.get("op")
            if op == "open":
                lifecycle.open_registration(t, actor=actor)
            elif op == "start":
                lifecycle.start(
                    t,
                    actor=actor,
                    override_minimum=bool(request.POST.get("override_minimum")),
                    prestart_report_sent=bool(request.POST.get("prestart_report_sent")),
                    start_clock=bool(request.POST.get("start_clock")),
                    seat_later_sessions=bool(request.POST.get("seat_later_sessions")),
                    when_room_full=lifecycle.WAIT if request.POST.get("wait_for_tables") else lifecycle.REFUSE,
                )
                waiting = WaitingStart.objects.filter(tournament=t).first()
                if waiting is not None:
                    messages.success(request, _waiting_message(waiting))
                    return redirect("tournament", pk=t.pk)
            elif op == "stop-waiting":
                lifecycle.stop_waiting(t, actor=actor)
            elif op == "finish":
                lifecycle.finish(t, actor=actor)
            elif op == "cancel":
                lifecycle.cancel(t, actor=actor, reason=request.POST.get("reason", ""))
            elif op == "addendum":
                oversight.issue_stub_addendum(t, actor=actor)
            elif op in ("streaming-on", "streaming-off"):
                streaming.set_streaming_live(t, op == "streaming-on", actor=actor)
            elif op == "copy":  # a new tournament with this one's setup
                copy = setup.copy_tournament(
                    t,
                    name=request.POST.get("name", "").strip(),
                    start_at=_start_at(request.POST.get("start_at")),
                    actor=actor,
                    override_reason=request.POST.get("override_reason", ""),
                )
                messages.success(request, _("Tournament created as a copy: check it and open registration when ready."))
                return redirect("tournament", pk=copy.pk)
            elif op == "save-template":
                setup.save_template(t, name=request.POST.get("template_name", ""), actor=actor)
            elif op in ("reason-public", "reason-private"):
                version = request.POST.get("version", "")
                number = int(version) if version.isascii() and version.isdigit() and len(version) < 10 else 0
                change_service.set_reason_public(t, number, op == "reason-public", actor=actor)
            elif op in ("grant-regulator", "revoke-regulator"):
                oversight.set_regulator_access(t, request.POST.get("username", ""), granted=op == "grant-regulator", actor=actor)
            messages.success(request, _("Done."))
        except DomainError as exc:
            messages.error(request, _domain_message(exc) if op in ("copy", "save-template") else str(exc.message))
        return redirect("tournament", pk=t.pk)
    entries = t.entries.select_related("person").order_by("number")
    totals = selectors.ledger_totals(t)
    events = Paged(request, t.events.order_by("-id"), param="events", anchor="event-log-section")  # newest first, 50 a page
    events.rows = selectors.event_sentences(events.rows, t.currency)
    links = [link for answer in signals.ask(signals.page_links, tournament=t) for link in answer]
    fee_info = {"statutory_fee": fees.statutory_fee(t.buy_in), "fee_is_override": fees.is_override(t.buy_in, t.fee)}
    # FMT-02: a cancelled tournament's refunds not yet handed out at the desk.
    refunds = selectors.refunds_due(t) if t.status == Tournament.CANCELLED else []
    fee_info.update(refunds_due=refunds, refunds_total=sum((r["amount"] for r in refunds), Decimal(0)))
    return render(
        request,
        "tournament_detail.html",
        {
            **fee_info,
            **oversight_context(t),
            "section_links": links,
            "needs_report": lifecycle.requires_prestart_report(t),
            # SEAT-02: a draw in advance into several sessions: the start asks about the later ones.
            "predraw_sessions": signals.ask_one(signals.predraw_sessions_wanted, default=[], tournament=t)
            if t.status in (Tournament.PLANNED, Tournament.REGISTERING)
            else [],
            "streaming_live": HouseRules.of(t).streaming_live,
            "t": t,
            "entries": entries,
            "totals": totals,
            "events": events,
            "changes": published_changes(t),
            "alternates": t.alternates.filter(status="WAITING").select_related("person"),
            "waiting": WaitingStart.objects.filter(tournament=t).select_related("asked_by").first(),
        },
    )


def _waiting_message(waiting) -> str:
    return ngettext(
        "The room has too few free tables (%(n)s table missing): the tournament starts by itself as soon as it is free.",
        "The room has too few free tables (%(n)s tables missing): the tournament starts by itself as soon as they are free.",
        waiting.missing,
    ) % {"n": waiting.missing}


def _start_at(value):
    """A start typed in a page (``datetime-local``: the room's time zone)."""
    when = parse_datetime((value or "").strip()[:32])
    if when is None:
        raise ValidationFailed("start_required", _("Give the start date and time."))
    dates.check(when, "start_at", _("Start"))  # before make_aware: year 1 or 9999 can leave Python's dates there
    return timezone.make_aware(when) if timezone.is_naive(when) else when


def templates_page(request):
    """Saved tournament templates: a new tournament from one."""
    if request.method == "POST":
        template = TournamentTemplate.objects.filter(pk=_int(request.POST.get("template"))).first()
        if template is None:
            raise Http404
        try:
            t = setup.create_from_template(
                template,
                name=request.POST.get("name", "").strip(),
                start_at=_start_at(request.POST.get("start_at")),
                actor=Actor.from_request(request),
                override_reason=request.POST.get("override_reason", ""),
            )
        except DomainError as exc:
            messages.error(request, _domain_message(exc))
            return redirect("tournament-templates")
        messages.success(request, _("Tournament created from the template: check it and open registration when ready."))
        return redirect("tournament", pk=t.pk)
    default_start = timezone.localtime(timezone.now() + timedelta(days=1)).replace(second=0, microsecond=0)
    return render(
        request,
        "tournament_templates.html",
        {
            "templates": TournamentTemplate.objects.select_related("structure", "source"),
            "default_start": default_start.strftime("%Y-%m-%dT%H:%M"),
        },
    )


def floor_overview(request):
    """Every running tournament at a glance, for the floor and the director."""
    return render(request, "floor_overview.html", {"data": overview.running_overview()})


def _domain_message(exc: DomainError) -> str:
    """A refusal as one line: its message and, for invalid fields, each by its name in words with
    what it says (as the API's ``detail``: "Nome: …")."""
    fields = exc.extra.get("fields") if isinstance(exc.extra, dict) else None
    if isinstance(fields, dict) and fields:
        return named_detail(fields, TournamentSerializer())
    return str(exc.message)


def _int(value):
    try:
        return int(str(value).strip()[:18])
    except (TypeError, ValueError):
        return None


def clock_page(request, pk):
    t = get_object_or_404(Tournament, pk=pk)
    items = list(t.structure.items.order_by("position")) if t.structure_id else []

    panels = [
        ("blinds", _("blinds")),
        ("stats", _("stats")),
        ("payouts", _("payouts")),
        ("seats", _("seat lookup")),
        ("announcements", _("announcements")),
        ("moves", _("moves")),
        ("sounds", _("sounds")),
    ]
    # CLK-10: the event's preset is chosen first and shows the event's own time.
    rules = HouseRules.of(t)
    shot_presets = [
        (
            name,
            labels.SHOT_CLOCK_PRESETS.get(name, labels.humanize(name)),
            (rules.clock_call_seconds, rules.clock_call_countdown_seconds) if name == rules.clock_call_preset else secs,
        )
        for name, secs in sorted(clock_engine.SHOT_CLOCK_PRESETS.items())
    ]
    response = render(
        request,
        "clock.html",
        {
            "t": t,
            "items": items,
            "rows": list(zip(items, clockview.item_names(items))),
            # FMT-16: a structure whose levels name their game shows it by level
            "level_games": any(it.game for it in items if not it.is_break),
            "clock_statuses": {k: str(v) for k, v in labels.CLOCK_STATUSES.items()},
            "screens": DisplayScreen.objects.filter(tournament=t),
            "structure_warnings": clockview.structure_warnings(clockview.structure_items(t), clockview.final_table_item(t)),
            "panel_choices": panels,
            "shot_presets": shot_presets,
            "shot_preset": rules.clock_call_preset,
            "shot_players": t.entries.filter(status=Entry.ACTIVE).select_related("person").order_by("person__last_name", "person__first_name"),
        },
    )
    return no_store(response)  # the lobby screens' links: their keys


def floor_page(request, pk):
    t = get_object_or_404(Tournament, pk=pk)
    entries = t.entries.filter(status=Entry.ACTIVE).select_related("person").order_by("person__last_name", "person__first_name")
    kinds = labels.penalty_kinds()
    selected = request.GET.get("entry")
    rules = HouseRules.of(t)
    reasons = labels.penalty_reasons(rules.penalty_reasons)  # PEN-08: the tournament's list
    return render(
        request,
        "floor.html",
        {
            "t": t,
            "entries": entries,
            "kinds": kinds,
            "reasons": reasons,
            "jackpot": rules.jackpot,
            "code_labels": labels.code_labels(rules.penalty_reasons),
            "limits": floor_service.penalty_limits(rules),
            # PEN-06, C28: under the heads-up preset the director picks how rounds count
            "heads_up_readings": [(code, _(label), 2 if code == penalties.ROUNDS_OF_TWO_HANDS else 1) for code, label in penalties.HEADS_UP_READINGS.items()],
            "selected_entry": int(selected) if selected and selected.isascii() and selected.isdigit() and len(selected) < 19 else None,
        },
    )


def person_page(request, pk):
    person = get_object_or_404(Person, pk=pk)
    if request.method == "POST" and request.POST.get("op") == "erase":  # GDPR erasure (director; the policy checks)
        try:
            privacy.erase_person(person, request.POST.get("reason", ""), actor=Actor.from_request(request))
        except DomainError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The person's data has been erased: only the pseudonym and the money trail remain."))
        return redirect("person", pk=person.pk)
    revealed = None
    if request.method == "POST" and request.POST.get("op") == "reveal":  # a director reads the whole document (logged)
        revealed = privacy.reveal_document(person, actor=Actor.from_request(request))
    elif request.method == "POST" and request.POST.get("op") == "edit":  # the desk corrects the person's data (logged)
        fields = {k: request.POST[k] for k in people.EDITABLE if k in request.POST}
        for name in ("birth_date", "privacy_consent"):  # an emptied date field: no date
            if name in fields and not fields[name].strip():
                fields[name] = None
        if not fields.get("document_id", "").strip():
            fields.pop("document_id", None)  # the form shows the document masked: left empty, it is unchanged
        ser = PersonSerializer(person, data=fields, partial=True)
        if not ser.is_valid():
            messages.error(request, named_detail(ser.errors, PersonSerializer()))
            return redirect("person", pk=person.pk)
        try:
            people.update_person(person, actor=Actor.from_request(request), **ser.validated_data)
        except DomainError as exc:
            messages.error(request, str(exc.message))
        else:
            messages.success(request, _("The person's data has been corrected."))
        return redirect("person", pk=person.pk)
    elif request.method == "POST":  # the desk: the player opts out of the public seat lookup, or back in
        people.set_hidden_from_lookup(person, request.POST.get("hide_from_lookup") == "1", actor=Actor.from_request(request))
        messages.success(request, _("Hidden from the public seat lookup.") if person.hide_from_lookup else _("Shown on the public seat lookup."))
        return redirect("person", pk=person.pk)
    entries = list(person.entries.select_related("tournament").order_by("-created_at"))
    history: dict[int, dict] = {}
    for answer in signals.ask(signals.history_parts, person=person, entries=entries):  # payouts: prizes; formats: league points
        for pk, part in answer.items():
            history.setdefault(pk, {}).update(part)
    for e in entries:
        e.history = history.get(e.pk, {})
    return render(request, "person.html", {"person": person, "revealed": revealed, "entries": entries, "penalties": selectors.penalty_history(person)})


def chipsets_page(request):
    return render(request, "chipsets.html", {"chipsets": ChipSet.objects.prefetch_related("denominations")})


def displays_page(request):
    """The venue's lobby screens: what each shows, and the tournaments it rotates between. A
    director revokes a screen's link or gives it a new one (POST ``op`` revoke / rotate)."""
    if request.method == "POST":
        screen = get_object_or_404(DisplayScreen, pk=object_id(request.POST.get("screen")))
        if request.POST.get("op") == "rotate":
            screen_links.rotate_screen_token(screen, actor=Actor.from_request(request))
            messages.success(request, _("%(name)s has a new link: open it on the screen. The old link no longer works.") % {"name": screen.name})
        else:
            screen_links.revoke_screen_token(screen, actor=Actor.from_request(request))
            messages.success(request, _("%(name)s: its link no longer works.") % {"name": screen.name})
        return redirect("displays")
    screens = DisplayScreen.objects.select_related("tournament").prefetch_related("rotate").order_by("name")
    recent = timezone.now() - timedelta(days=3)
    choices = (
        Tournament.objects.filter(Q(status__in=[Tournament.PLANNED, Tournament.REGISTERING, Tournament.RUNNING]) | Q(start_at__gte=recent))
        .exclude(status=Tournament.CANCELLED)
        .order_by("start_at", "id")
    )
    rows = []
    for sc in screens:
        sounds = sounds_of(sc)
        events = [{"name": e, "label": label, **sounds["events"][e]} for e, label in layouts.SOUND_EVENTS.items()]
        rows.append(
            {"screen": sc, "rotating": {t.pk for t in sc.rotate.all()}, "layouts": sc.layouts or {}, "warn_minutes": sounds["warn_minutes"], "events": events}
        )
    response = render(
        request,
        "displays.html",
        {"rows": rows, "choices": choices, "layout_choices": layout_choices(), "states": layouts.STATES.items(), "sound_choices": layouts.SOUNDS.items()},
    )
    return no_store(response)  # each screen's link is its key
