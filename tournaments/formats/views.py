"""Pages of the formats: directors create and run each format, the floor records results,
and two public read-only lobby pages (the heads-up bracket and a series leaderboard).

Views are thin: they validate a form, call one service, and report the outcome.
"""

import re
from datetime import timedelta
from decimal import Decimal

from django import forms
from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.dates import WEEKDAYS
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tdmanager import dates
from tdmanager.api import object_id
from tdmanager.errors import DomainError
from tdmanager.fields import AmountFormField, amount_formfield
from tdmanager.formatting import num
from tournaments.eventlog.services import Actor
from tournaments.labels import shipped_text
from tournaments.models import BlindStructure, Entry, Person, Tournament

from . import engine, selectors
from .api import as_int, as_money, as_text
from .models import DEFAULT_TICKET, Bracket, Match, MultiDayEvent, Series, StackOption, TimedEvent
from .services import headsup, multiday, sitandgo, stackchoice, timed
from .services import series as series_service

DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


def _in_an_hour():
    return (timezone.localtime() + timedelta(hours=1)).replace(second=0, microsecond=0)


class PriceForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=160)
    start_at = forms.DateTimeField(label=gettext_lazy("Start"), widget=DATETIME, initial=_in_an_hour, validators=[dates.plausible_date])
    buy_in = AmountFormField(label=gettext_lazy("Buy-in (prize pool part)"), min_value=0, decimal_places=2, initial=Decimal("50"))
    fee = AmountFormField(label=gettext_lazy("Fee"), min_value=0, decimal_places=2, initial=Decimal("10"))
    starting_stack = forms.IntegerField(label=gettext_lazy("Starting stack"), min_value=1, initial=10000)
    structure = forms.ModelChoiceField(label=gettext_lazy("Blind structure"), queryset=BlindStructure.objects.filter(is_template=True))


class SitAndGoForm(PriceForm):
    tables = forms.IntegerField(label=gettext_lazy("Tables (10 players each)"), min_value=1, max_value=10, initial=1)


class MultiDayForm(PriceForm):
    flights = forms.CharField(
        label=gettext_lazy("Day 1 flights"),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy("One per line: label and start, e.g. '1A 2026-07-09 12:00'."),
    )
    day2_start_at = forms.DateTimeField(label=gettext_lazy("Day 2 start"), widget=DATETIME, validators=[dates.plausible_date])
    max_entries_per_player = forms.IntegerField(label=gettext_lazy("Entries per player per flight"), min_value=1, initial=2)
    late_reg_closes_after_level = forms.IntegerField(label=gettext_lazy("Late registration closes after level"), required=False, initial=6)
    multi_flight_stack = forms.ChoiceField(label=gettext_lazy("A player who survives several flights keeps"), choices=MultiDayEvent.FLIGHT_STACK_RULES)
    surrender_allowed = forms.BooleanField(label=gettext_lazy("Offer surrender at bagging"), required=False, initial=True)
    chip_leader_prizes = forms.CharField(label=gettext_lazy("Chip-leader prizes per flight"), initial="2000 1000 500", required=False)

    def clean_flights(self):
        out = []
        for line in self.cleaned_data["flights"].splitlines():
            parts = line.split(None, 1)
            if not parts:
                continue
            when = forms.DateTimeField(validators=[dates.plausible_date]).clean(parts[1].strip()) if len(parts) > 1 else self.cleaned_data.get("start_at")
            out.append({"label": parts[0], "start_at": when})
        if not out:
            raise forms.ValidationError(_("Enter at least one flight."))
        return out

    def clean_chip_leader_prizes(self):
        try:
            return [str(Decimal(p)) for p in self.cleaned_data["chip_leader_prizes"].replace(",", " ").split()]
        except ArithmeticError:  # decimal.InvalidOperation
            raise forms.ValidationError(_("Write the prizes as amounts, best first.")) from None


class HeadsUpForm(PriceForm):
    size = forms.TypedChoiceField(label=gettext_lazy("Bracket"), coerce=int, initial=16, choices=[(n, str(n)) for n in (16, 32, 64, 8, 4, 2)])
    level_minutes = forms.IntegerField(label=gettext_lazy("Level minutes"), min_value=1, max_value=240, initial=10)  # as the API
    punctuality = forms.ChoiceField(label=gettext_lazy("Punctuality rule"), choices=Bracket.PUNCTUALITY)
    rounds_to_play = forms.IntegerField(label=gettext_lazy("Rounds this group plays (empty: to a winner)"), required=False, min_value=1)
    feeds_into = forms.ModelChoiceField(
        label=gettext_lazy("Survivors qualify for"),
        required=False,
        queryset=Tournament.objects.filter(format=Tournament.HEADS_UP).exclude(status__in=["FINISHED", "CANCELLED"]),
    )
    previous_group = forms.ModelChoiceField(
        label=gettext_lazy("Previous group (seat priority)"),
        required=False,
        queryset=Tournament.objects.filter(format=Tournament.HEADS_UP, bracket__isnull=False),
    )
    paid_players = forms.TypedChoiceField(
        label=gettext_lazy("Players paid (a bracket played to a winner)"),
        coerce=int,
        initial=8,
        choices=[(8, gettext_lazy("8: the whole final day")), (4, gettext_lazy("4: the last four")), (2, "2"), (16, "16")],
    )


class TimedForm(PriceForm):
    minutes = forms.IntegerField(label=gettext_lazy("Play lasts (minutes)"), min_value=1, max_value=7 * 24 * 60, initial=120)  # a week, as the API
    end_condition = forms.ChoiceField(label=gettext_lazy("End"), choices=TimedEvent.END_CONDITIONS)
    chip_tie = forms.ChoiceField(label=gettext_lazy("Equal stacks at the end"), choices=TimedEvent._meta.get_field("chip_tie").choices)
    field_cap = forms.IntegerField(label=gettext_lazy("Field cap"), required=False, initial=8)


class TournamentsField(forms.ModelMultipleChoiceField):
    """Tournaments picked by id; an id no column holds is not a valid value (Django asks the
    database with it, and SQLite cannot even compare it with a column)."""

    def _check_values(self, value):
        for pk in value:
            if str(pk).strip().isdigit() and len(str(pk).strip()) > 18:
                raise forms.ValidationError(self.error_messages["invalid_pk_value"], code="invalid_pk_value", params={"pk": pk})
        return super()._check_values(value)


class QualifierGroupForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=160)
    final = forms.ModelChoiceField(label=gettext_lazy("Final table"), queryset=Tournament.objects.exclude(status__in=["FINISHED", "CANCELLED"]))
    qualifiers = TournamentsField(label=gettext_lazy("Qualifying tables"), queryset=Tournament.objects.exclude(status="CANCELLED"))


class PointsTableField(forms.CharField):
    """Points for 1st, 2nd, … separated by spaces or semicolons ("100 70 50"; "72,5" or "72.5")."""

    def to_python(self, value):
        text = (super().to_python(value) or "").strip()
        if not text:
            return []
        tokens = [t for t in re.split(r"[\s;]+", text) if t]
        if len(tokens) == 1 and tokens[0].count(",") > 1:
            tokens = tokens[0].split(",")
        points = []
        for token in tokens:
            try:
                value = Decimal(token.replace(",", ".") if "." not in token else token)
            except ArithmeticError:
                value = None
            if value is None or not value.is_finite() or value < 0 or value >= Decimal("1e6") or value != value.quantize(Decimal("0.01")):
                raise forms.ValidationError(_("“%(v)s” is not a number of points (0 or more, at most two decimals).") % {"v": token})
            points.append(str(value))  # the model keeps the table as JSON text
        if len(points) > 1000:
            raise forms.ValidationError(_("At most 1,000 places."))
        return points


class SeriesForm(forms.ModelForm):
    points_table = PointsTableField(
        label=gettext_lazy("Points by place"),
        required=False,
        max_length=8000,
        help_text=gettext_lazy("For the points table: 1st, 2nd, … separated by spaces, e.g. 100 70 50 40"),
    )

    class Meta:
        model = Series
        formfield_callback = amount_formfield
        fields = [
            "name",
            "scoring",
            "multiplier",
            "points_table",
            "participation_points",
            "knockout_points",
            "best_of",
            "cycle_length",
            "lb_constant_mode",
            "participants",
            "shared_rule",
            "tie_break",
            "tickets_per_cycle",
            "ticket_description",
            "ticket_value",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["knockout_points"].required = False  # empty: no points for knockouts
        # The product's ticket text in the reader's language: a new league's, and an old one's kept as shipped.
        self.initial["ticket_description"] = shipped_text(self.initial.get("ticket_description") or DEFAULT_TICKET)
        # The formulas' constants in the reader's language ("K = 30,0108" in Italian).
        field = self.fields["lb_constant_mode"]
        field.choices = [(code, re.sub(r"\d+\.\d+", lambda m: num(m.group()), str(label))) for code, label in field.choices]

    def clean_knockout_points(self):
        return self.cleaned_data.get("knockout_points") or Decimal(0)


def _form_page(request, form, title, intro=""):
    return render(request, "formats/form.html", {"form": form, "title": title, "intro": intro})


def _digits(text: str, most: int) -> bool:
    """``text`` is a whole number of at most ``most`` ASCII digits (``int()`` reads 4,300 at most)."""
    return text.isascii() and text.isdigit() and len(text) <= most


def _run(request, fn, ok=None):
    """Call a service from a page; a refusal becomes an error message with its reason."""
    try:
        result = fn()
        messages.success(request, ok or _("Done."))
        return result
    except DomainError as exc:
        messages.error(request, str(exc.message))
        return None


# --- index ----------------------------------------------------------------------------------


def index(request):
    return render(request, "formats/index.html", selectors.overview())


# --- sit & go -----------------------------------------------------------------------------------


def sit_and_go_new(request):
    form = SitAndGoForm(request.POST or None, initial={"name": _("Sit & go")})
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        t = _run(
            request,
            lambda: sitandgo.create_sit_and_go(
                name=d["name"],
                buy_in=d["buy_in"],
                fee=d["fee"],
                starting_stack=d["starting_stack"],
                structure=d["structure"],
                tables=d["tables"],
                start_at=d["start_at"],
                actor=Actor.from_request(request),
            ),
            _("Sit & go open for registration."),
        )
        if t:
            return redirect("tournament", pk=t.pk)
    return _form_page(request, form, _("New sit & go"), _("It starts by itself when the last place is paid (10 players per table)."))


# --- multi-day events -------------------------------------------------------------------------------


def multiday_new(request):
    form = MultiDayForm(request.POST or None, initial={"name": _("Main Event")})
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        event = _run(
            request,
            lambda: multiday.create_event(
                name=d["name"],
                flights=d["flights"],
                day2_start_at=d["day2_start_at"],
                buy_in=d["buy_in"],
                fee=d["fee"],
                starting_stack=d["starting_stack"],
                structure=d["structure"],
                actor=Actor.from_request(request),
                max_entries_per_player=d["max_entries_per_player"],
                late_reg_closes_after_level=d["late_reg_closes_after_level"],
                multi_flight_stack=d["multi_flight_stack"],
                surrender_allowed=d["surrender_allowed"],
                chip_leader_prizes=d["chip_leader_prizes"],
            ),
            _("Event created: its flights are open for registration."),
        )
        if event:
            return redirect("formats-multiday", pk=event.pk)
    return _form_page(request, form, _("New multi-day event"))


def parse_bag_lines(text: str) -> list[dict]:
    """Fast entry, one bag per line: ``entry-number chips bag-number [S]`` (S = surrender)."""
    rows = []
    for n, line in enumerate(text.splitlines(), start=1):
        parts = line.replace(",", " ").replace(";", " ").split()
        if not parts:
            continue
        if len(parts) < 3:
            raise DomainError("bad_line", _("Line %(n)s: write entry number, chips and bag number.") % {"n": n}, status=400)
        rows.append(
            {
                "number": parts[0],
                "chips": parts[1],
                "bag_number": parts[2],
                "surrender": any(p.upper() in ("S", "SURRENDER") for p in parts[3:]),
                "signed": True,
            }
        )
    return rows


def multiday_page(request, pk):
    event = get_object_or_404(MultiDayEvent.objects.select_related("day2"), pk=pk)
    if request.method == "POST":
        actor = Actor.from_request(request)
        op = request.POST.get("op")
        t = get_object_or_404(Tournament, pk=object_id(request.POST["tournament"])) if request.POST.get("tournament") else None
        if op == "bag":
            _run(request, lambda: multiday.bag_chips(t, parse_bag_lines(request.POST.get("bags", "")), actor=actor), _("Bags recorded."))
        elif op == "close":
            _run(request, lambda: multiday.close_flight(t, actor=actor, reason=request.POST.get("reason", "")), _("Flight closed."))
        elif op == "option":
            _run(
                request,
                lambda: stackchoice.add_stack_option(
                    t,
                    label=as_text(request.POST, "label", 60),
                    buy_in=as_money(request.POST, "buy_in", "0", localize=True),
                    fee=as_money(request.POST, "fee", "0", localize=True),
                    chips=as_int(request.POST, "chips", lo=1),
                    actor=actor,
                    override_reason=as_text(request.POST, "override_reason", 200, ""),
                ),
            )
        elif op == "build":
            _run(request, lambda: multiday.build_day2(event, actor=actor), _("Day 2 has its players."))
        elif op == "start":
            _run(request, lambda: multiday.start_day2(event, actor=actor), _("Day 2 started: seats drawn."))
        elif op == "finish":
            _run(request, lambda: multiday.finish_day2(event, actor=actor), _("Day 2 finished."))
        else:
            messages.error(request, _("Unknown action."))
        return redirect("formats-multiday", pk=event.pk)
    return render(request, "formats/multiday.html", {"event": event, "data": selectors.event_data(event)})


def stack_choice_page(request, pk):
    """The desk for a stack-choice flight: pick the player and the option."""
    t = get_object_or_404(Tournament, pk=pk)
    if request.method == "POST":
        person = get_object_or_404(Person, pk=object_id(request.POST.get("person")))
        option = get_object_or_404(StackOption, pk=object_id(request.POST.get("option")), tournament=t)
        sale = _run(
            request,
            lambda: stackchoice.register_with_stack_choice(t, person, option, method=request.POST.get("method", "CASH"), actor=Actor.from_request(request)),
            _("Sold."),
        )
        if sale and sale.row:
            return redirect("receipt", number=sale.row.receipt_number)
        return redirect("formats-stack-choice", pk=t.pk)
    people = Person.objects.filter(banned=False).order_by("last_name", "first_name")[:500]
    return render(request, "formats/stack_choice.html", {"t": t, "options": t.stack_options.filter(active=True), "people": people})


# --- heads-up --------------------------------------------------------------------------------------


def headsup_new(request):
    form = HeadsUpForm(request.POST or None, initial={"name": _("Heads-up"), "starting_stack": 10000})
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        bracket = _run(
            request,
            lambda: headsup.create_headsup_event(
                name=d["name"],
                start_at=d["start_at"],
                buy_in=d["buy_in"],
                fee=d["fee"],
                starting_stack=d["starting_stack"],
                structure=d["structure"],
                actor=Actor.from_request(request),
                size=d["size"],
                level_minutes=d["level_minutes"],
                punctuality=d["punctuality"],
                rounds_to_play=d["rounds_to_play"],
                feeds_into=d["feeds_into"],
                previous_group=d["previous_group"],
                paid_players=d["paid_players"],
            ),
            _("Bracket created: registration is open."),
        )
        if bracket:
            return redirect("formats-headsup", pk=bracket.tournament_id)
    return _form_page(request, form, _("New heads-up bracket"), _("Best two of three; blinds 100/100 … 500/1000 cap, no ante."))


def headsup_page(request, pk):
    t = get_object_or_404(Tournament, pk=pk)
    bracket = get_object_or_404(Bracket, tournament=t)
    if request.method == "POST":
        actor = Actor.from_request(request)
        op = request.POST.get("op")
        m = get_object_or_404(Match, pk=object_id(request.POST["match"]), bracket=bracket) if request.POST.get("match") else None
        entry = get_object_or_404(Entry, pk=object_id(request.POST["entry"]), tournament=t) if request.POST.get("entry") else None
        ops = {
            "draw": (lambda: headsup.draw_bracket(t, actor=actor)),
            "start": (lambda: headsup.start_match(m, actor=actor)),
            "seat": (lambda: headsup.seat_player(m, entry, actor=actor)),
            "game": (lambda: headsup.record_game(m, entry, actor=actor)),
            "free": (lambda: headsup.free_absent_seat(m, actor=actor)),
            "bye": (lambda: headsup.award_bye(m, actor=actor)),
            "lateness": (lambda: headsup.apply_lateness(m, actor=actor)),
            "replacement": (
                lambda: headsup.seat_replacement(
                    m, get_object_or_404(Person, pk=object_id(request.POST.get("person"))), method=request.POST.get("method", "CASH"), actor=actor
                )
            ),
            "request": (lambda: headsup.request_seat(t, get_object_or_404(Person, pk=object_id(request.POST.get("person"))), actor=actor)),
            "allocate": (lambda: headsup.allocate_seats(t, actor=actor)),
        }
        fn = ops.get(op)
        if fn is not None:
            _run(request, fn)
        else:
            messages.error(request, _("Unknown action."))
        return redirect("formats-headsup", pk=t.pk)
    people = Person.objects.filter(banned=False).order_by("last_name", "first_name")[:500]
    return render(request, "formats/headsup.html", {"t": t, "bracket": bracket, "data": selectors.bracket_data(bracket), "people": people})


def bracket_display(request, pk):
    """The bracket for the lobby TV: public and read-only (names and results are public)."""
    t = get_object_or_404(Tournament, pk=pk)
    bracket = get_object_or_404(Bracket, tournament=t)
    data = selectors.public_bracket(bracket)
    if request.GET.get("format") == "json":
        return JsonResponse(data)
    return render(request, "formats/bracket_display.html", {"t": t, "data": data})


# --- timed events and qualifiers -------------------------------------------------------------------


def timed_new(request):
    form = TimedForm(request.POST or None, initial={"name": _("Qualifying table"), "buy_in": Decimal("20"), "fee": Decimal("5"), "starting_stack": 5000})
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        t = _run(
            request,
            lambda: timed.create_timed_event(
                name=d["name"],
                start_at=d["start_at"],
                buy_in=d["buy_in"],
                fee=d["fee"],
                starting_stack=d["starting_stack"],
                structure=d["structure"],
                actor=Actor.from_request(request),
                minutes=d["minutes"],
                field_cap=d["field_cap"],
                end_condition=d["end_condition"],
                chip_tie=d["chip_tie"],
            ),
            _("Timed event created."),
        )
        if t:
            return redirect("formats-timed", pk=t.pk)
    return _form_page(request, form, _("New timed event"), _("At the time limit the players still in are ranked by chips, above every eliminated player."))


def timed_page(request, pk):
    t = get_object_or_404(Tournament, pk=pk)
    if request.method == "POST":
        actor = Actor.from_request(request)
        op = request.POST.get("op")
        if op == "finish":

            def counts():
                rows = []
                for line in request.POST.get("counts", "").splitlines():
                    parts = line.replace(",", " ").split()
                    if parts:
                        entry = t.entries.filter(number=int(parts[0])).first() if _digits(parts[0], 9) else None
                        if entry is None or len(parts) < 2 or not _digits(parts[1], 18):
                            raise DomainError("bad_line", _("Write one player per line: entry number and chips."), status=400)
                        rows.append({"entry": entry.pk, "chips": int(parts[1])})
                return timed.finish_timed(t, actor=actor, counts=rows)

            _run(request, counts, _("Event finished and ranked."))
        elif op == "send":
            _run(request, lambda: timed.send_winner_to_final(t, actor=actor), _("The winner has a seat at the final."))
        return redirect("formats-timed", pk=t.pk)
    alive = t.entries.filter(status=Entry.ACTIVE).select_related("person").order_by("number")
    standings = t.entries.exclude(place__isnull=True).select_related("person").order_by("place", "number")
    return render(
        request,
        "formats/timed.html",
        {
            "t": t,
            "timed": getattr(t, "timed", None),
            "alive": alive,
            "standings": standings,
            "qualifier": getattr(t, "qualifier", None),
            "group": getattr(t, "qualifier_group", None),
        },
    )


def qualifiers_new(request):
    form = QualifierGroupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        group = _run(
            request,
            lambda: timed.create_qualifier_group(name=d["name"], final=d["final"], qualifiers=list(d["qualifiers"]), actor=Actor.from_request(request)),
            _("Qualifying tables linked to the final."),
        )
        if group:
            return redirect("formats-timed", pk=group.final_id)
    return _form_page(request, form, _("Qualifying tables → final table"), _("The winner of each qualifying table gets a seat at the final."))


# --- series ---------------------------------------------------------------------------------------


def series_new(request):
    form = SeriesForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = {k: v for k, v in form.cleaned_data.items() if k != "name"}
        s = _run(request, lambda: series_service.create_series(name=form.cleaned_data["name"], actor=Actor.from_request(request), **d), _("Series created."))
        if s:
            return redirect("formats-series", pk=s.pk)
    return _form_page(
        request,
        form,
        _("New leaderboard series or league"),
        _(
            "Sanremo: points = K·√(n/p); every 20 tournaments the best 4 get a ticket and the totals reset. "
            "A league scores each event by the formula you choose and counts each player's best results; "
            "leave the tournaments per cycle empty to close the season yourself."
        ),
    )


def series_page(request, pk):
    s = get_object_or_404(Series, pk=pk)
    if request.method == "POST":
        actor = Actor.from_request(request)
        op = request.POST.get("op")
        t = get_object_or_404(Tournament, pk=object_id(request.POST["tournament"])) if request.POST.get("tournament") else None
        if op == "attach":
            _run(request, lambda: series_service.attach(s, t, actor=actor))
        elif op == "score":
            _run(request, lambda: series_service.score_tournament(t, actor=actor), _("Points given."))
        elif op == "close-season":
            _run(request, lambda: series_service.close_season(s, actor=actor), _("Season closed: its standings are archived."))
        elif op == "daily":
            from django.utils.dateparse import parse_date

            try:
                day = parse_date(request.POST.get("date", "")) or timezone.localdate()
            except ValueError:  # well formed but no such day (2026-02-30)
                day = timezone.localdate()
            structure = get_object_or_404(BlindStructure, pk=object_id(request.POST.get("structure")))
            _run(
                request,
                lambda: series_service.schedule_daily(
                    s, dates.check(day, "date", _("Date")), structure=structure, starting_stack=as_int(request.POST, "starting_stack", 10000, lo=1), actor=actor
                ),
                _("Daily tournament scheduled."),
            )
        return redirect("formats-series", pk=s.pk)
    links = s.links.select_related("tournament").order_by("-tournament__start_at")
    attachable = Tournament.objects.filter(series_link__isnull=True).exclude(status="CANCELLED").order_by("-start_at")[:50]
    return render(
        request,
        "formats/series.html",
        {
            "s": s,
            "data": selectors.leaderboard_data(s),
            "links": links,
            "attachable": attachable,
            "structures": BlindStructure.objects.filter(is_template=True),
            # each day by its name in the reader's language, Monday first (as the week is kept)
            "prices": [(WEEKDAYS[d], price) for d in range(7) if (price := engine.daily_price(d, s.weekday_prices or None))],
        },
    )


def leaderboard_display(request, pk):
    """The general ranking for the lobby: public and read-only (LB-01 «sarà esposta»)."""
    cycle = request.GET.get("cycle", "")
    data = selectors.public_leaderboard(pk, int(cycle) if cycle.isdigit() and len(cycle) < 9 else None)
    if data is None:
        raise Http404
    if request.GET.get("format") == "json":
        return JsonResponse(data)
    return render(request, "formats/leaderboard.html", {"data": data})
