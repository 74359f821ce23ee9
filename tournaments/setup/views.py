"""The director's setup pages: a tournament's form, its page, and the templates.

Views are thin: they read, render, or call one service."""

from datetime import timedelta
from decimal import Decimal

from django import forms
from django.contrib import messages
from django.core.validators import MaxValueValidator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tdmanager import dates
from tdmanager.api import named_detail
from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.fields import AmountFormField, amount_formfield
from tdmanager.formatting import money
from tdmanager.paging import Paged
from tournaments import signals
from tournaments.api.fields import MAX_STACK, at_most
from tournaments.cashier import rules as cashier_rules
from tournaments.cashier import selectors as cashier_selectors
from tournaments.clock import selectors as clock_selectors
from tournaments.eventlog.services import Actor
from tournaments.house import HouseRules
from tournaments.models import Tournament, TournamentTemplate, WaitingStart
from tournaments.oversight import selectors as oversight_selectors
from tournaments.oversight import services as oversight
from tournaments.setup import changes as change_service
from tournaments.setup import lifecycle, streaming
from tournaments.setup import selectors as setup_selectors
from tournaments.setup import services as setup
from tournaments.setup.serializers import TournamentSerializer

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
        initial=cashier_rules.STATUTORY,
        required=False,
        choices=[
            (cashier_rules.STATUTORY, gettext_lazy("Statutory: 10 % of the buy-in up to 3,000, 6 % above (REG-03)")),
            (cashier_rules.SANREMO_DAILY, gettext_lazy("Daily event: flat 20 (003 Allegato 1)")),
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
            preset = next((name for name, (amount, _r) in cashier_rules.PRESETS.items() if amount == override), CUSTOM_FEE)
            self.fields["fee_preset"].initial = preset
            self.fields["fee_override"].initial = override if preset == CUSTOM_FEE else None
            if cashier_rules.is_override(self.instance.buy_in, self.instance.fee):
                self.fields["fee_preset"].help_text = _("Fee %(fee)s, statutory %(statutory)s: an override.") % {
                    "fee": self.instance.fee,
                    "statutory": cashier_rules.statutory_fee(self.instance.buy_in),
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
    """The tournament form: the same setup services as the API (tournaments.setup.services)."""
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
    unreported = oversight_selectors.unreported_stubs(t).count()
    return {
        "report_links": [link for answer in signals.ask(signals.report_links, tournament=t) for link in answer],
        "unreported_stubs": unreported,
        "offer_addendum": bool(unreported) and t.status in (Tournament.RUNNING, Tournament.FINISHED) and not clock_selectors.late_registration_open(t),
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
            "lines": setup_selectors.change_lines(c),
        }
        for c in setup_selectors.change_history(t)
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
    totals = cashier_selectors.ledger_totals(t)
    events = Paged(request, t.events.order_by("-id"), param="events", anchor="event-log-section")  # newest first, 50 a page
    events.rows = oversight_selectors.event_sentences(events.rows, t.currency)
    links = [link for answer in signals.ask(signals.page_links, tournament=t) for link in answer]
    fee_info = {"statutory_fee": cashier_rules.statutory_fee(t.buy_in), "fee_is_override": cashier_rules.is_override(t.buy_in, t.fee)}
    # FMT-02: a cancelled tournament's refunds not yet handed out at the desk.
    refunds = cashier_selectors.refunds_due(t) if t.status == Tournament.CANCELLED else []
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
