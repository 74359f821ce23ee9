"""Storage for the tournament formats: multi-day events (flights, bags, chip leaders,
qualified Day 2 entries), stack choice, heads-up brackets, timed events and qualifying
tables, daily series and their leaderboards.

Rules do not live here: see ``engine.py`` (pure arithmetic) and ``services/`` (changes).
"""

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop, pgettext_lazy

from payouts import league
from tournaments.models import MONEY, NOT_NEGATIVE, POSITIVE, Entry, Person, Tournament

from . import engine

TIE_RULES = [(engine.SHARE, _("Tied players share the place")), (engine.DRAW, _("A random draw orders tied players"))]


# --- multi-day events (FMT-11, FMT-07, PAY-08) ------------------------------------------------


class MultiDayEvent(models.Model):
    """Day 1 flights (each a MULTIDAY tournament) feeding one Day 2 tournament."""

    FLIGHT_STACK_RULES = [(engine.BEST, _("The biggest bag")), (engine.FIRST, _("The bag of the earliest flight"))]
    CASH, TICKET = "CASH", "TICKET"
    PRIZE_KINDS = [(CASH, pgettext_lazy("prize kind", "Cash")), (TICKET, _("Ticket"))]

    name = models.CharField(_("name"), max_length=160)
    day2 = models.OneToOneField(Tournament, related_name="multiday_event", on_delete=models.PROTECT, verbose_name=_("Day 2"))
    multi_flight_stack = models.CharField(_("player bagging in several flights keeps"), max_length=5, choices=FLIGHT_STACK_RULES, default=engine.BEST)
    surrender_allowed = models.BooleanField(_("surrender offered at bagging"), default=True)
    chip_leader_prizes = models.JSONField(_("chip-leader prizes"), default=list, blank=True, help_text=_("per flight, best bag first"))
    chip_leader_ties = models.CharField(_("chip-leader ties"), max_length=5, choices=TIE_RULES, default=engine.SHARE)
    chip_leader_prize_kind = models.CharField(_("chip-leader prize kind"), max_length=6, choices=PRIZE_KINDS, default=CASH)
    day2_built_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return self.name

    @property
    def prizes(self) -> list[Decimal]:
        """The chip-leader prizes of each flight, best bag first. The house's default is written
        when the event is created (``create_event``): an empty list is a house that gives none."""
        return [Decimal(str(p)) for p in self.chip_leader_prizes]


class Flight(models.Model):
    """A Day 1 flight (1A, 1B, …) of a multi-day event: its own tournament."""

    event = models.ForeignKey(MultiDayEvent, related_name="flights", on_delete=models.CASCADE)
    tournament = models.OneToOneField(Tournament, related_name="flight", on_delete=models.PROTECT)
    label = models.CharField(_("flight"), max_length=10)
    position = models.PositiveSmallIntegerField(default=0)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "position", "id"]
        constraints = [models.UniqueConstraint(fields=["event", "label"], name="formats_flight_label_unique")]

    def __str__(self):
        return f"{self.event} Day {self.label}"


class Bag(models.Model):
    """End-of-flight bagging of one surviving entry (FMT-11 System 1–2): chips, bag number,
    dealer, player's signature. A surrendered bag is sealed too, and removed from play."""

    flight = models.ForeignKey(Flight, related_name="bags", on_delete=models.PROTECT)
    entry = models.OneToOneField(Entry, related_name="bag", on_delete=models.PROTECT)
    chips = models.PositiveBigIntegerField()
    bag_number = models.CharField(_("bag number"), max_length=20)
    dealer = models.CharField(_("dealer"), max_length=80, blank=True)
    player_signed = models.BooleanField(_("signed by the player"), default=False)
    surrendered = models.BooleanField(_("surrendered"), default=False)
    counted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    bagged_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["flight", "-chips", "id"]
        constraints = [models.UniqueConstraint(fields=["flight", "bag_number"], name="formats_bag_number_unique")]


class ChipLeaderAward(models.Model):
    """PAY-08: a chip-leader prize of a flight (the amount due; paid by the payouts desk)."""

    flight = models.ForeignKey(Flight, related_name="chip_leader_awards", on_delete=models.PROTECT)
    entry = models.ForeignKey(Entry, related_name="chip_leader_awards", on_delete=models.PROTECT)
    rank = models.PositiveSmallIntegerField()
    chips = models.PositiveBigIntegerField()
    amount = models.DecimalField(**MONEY)
    shared_with = models.PositiveSmallIntegerField(default=1)
    kind = models.CharField(max_length=6, default=MultiDayEvent.CASH)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["flight", "rank", "id"]


class QualifiedEntry(models.Model):
    """An entry that came in without money: a Day 2 stack, a qualifying-table winner, a
    heads-up group survivor. Its chips are carried in, so its ledger stays empty."""

    DAY1_BAG, QUALIFIER, BRACKET_GROUP = "DAY1_BAG", "QUALIFIER", "BRACKET_GROUP"
    SOURCES = [(DAY1_BAG, _("Day 1 bag")), (QUALIFIER, _("Qualifying table winner")), (BRACKET_GROUP, _("Heads-up group survivor"))]

    entry = models.OneToOneField(Entry, related_name="qualification", on_delete=models.PROTECT)
    source = models.CharField(max_length=14, choices=SOURCES)
    from_tournament = models.ForeignKey(Tournament, related_name="+", on_delete=models.PROTECT)
    from_entry = models.ForeignKey(Entry, related_name="+", on_delete=models.PROTECT)
    bag = models.OneToOneField(Bag, null=True, blank=True, related_name="day2_entry", on_delete=models.PROTECT)
    chips = models.PositiveBigIntegerField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)


class StackOption(models.Model):
    """FMT-07 stack choice: one buy-in product of a tournament (its price and its stack)."""

    tournament = models.ForeignKey(Tournament, related_name="stack_options", on_delete=models.CASCADE)
    label = models.CharField(_("label"), max_length=60)
    buy_in = models.DecimalField(_("buy-in (prize pool part)"), **MONEY, validators=NOT_NEGATIVE)
    fee = models.DecimalField(_("fee"), **MONEY, default=Decimal("0"), validators=NOT_NEGATIVE)
    chips = models.PositiveIntegerField(_("starting stack"), validators=POSITIVE)
    position = models.PositiveSmallIntegerField(default=0)
    active = models.BooleanField(default=True)

    class Meta:
        ordering = ["tournament", "position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "label"], name="formats_stack_option_label_unique"),
            models.CheckConstraint(condition=models.Q(buy_in__gte=0) & models.Q(fee__gte=0), name="formats_stack_option_price_not_negative"),
            models.CheckConstraint(condition=models.Q(chips__gt=0), name="formats_stack_option_chips_positive"),
        ]

    def __str__(self):
        return f"{self.label}: {self.buy_in}+{self.fee} → {self.chips}"

    @property
    def price(self):
        return self.buy_in + self.fee


class EntryStackChoice(models.Model):
    """The stack option an entry bought, with what it cost and gave at the time."""

    entry = models.OneToOneField(Entry, related_name="stack_choice", on_delete=models.PROTECT)
    option = models.ForeignKey(StackOption, related_name="choices", on_delete=models.PROTECT)
    buy_in = models.DecimalField(**MONEY)
    fee = models.DecimalField(**MONEY)
    chips = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now)


# --- heads-up brackets (FMT-12) ---------------------------------------------------------------


class Bracket(models.Model):
    """The bracket of a HEADS_UP tournament: matches best two of three.

    A *group* (Day 1 Group 1, Group 2 …) plays ``rounds_to_play`` rounds; its survivors
    qualify for ``feeds_into``. ``previous_group`` gives the seat-request priority (scenario 36).
    """

    NO_SHOW, LATENESS = "NO_SHOW", "LATENESS"
    PUNCTUALITY = [
        (NO_SHOW, _("Day 1: an absent player loses the seat at the end of level 1; a replacement, or a bye")),
        (LATENESS, _("Final day: one level late loses game 1, two levels late lose the match")),
    ]
    FULL_STACK_LEVEL_1, CONTINUE = "FULL_STACK_LEVEL_1", "CONTINUE"
    GAME_RESTARTS = [(FULL_STACK_LEVEL_1, _("Each game restarts with full stacks at level 1")), (CONTINUE, _("The clock runs on"))]

    tournament = models.OneToOneField(Tournament, related_name="bracket", on_delete=models.PROTECT)
    size = models.PositiveSmallIntegerField(_("bracket size"), default=16)
    games_to_win = models.PositiveSmallIntegerField(_("games to win a match"), default=2)
    level_minutes = models.PositiveSmallIntegerField(_("level minutes"), default=10)
    punctuality = models.CharField(_("punctuality rule"), max_length=8, choices=PUNCTUALITY, default=NO_SHOW)
    no_show_grace_minutes = models.PositiveSmallIntegerField(_("replacement grace after level 1 (minutes)"), default=5)
    game_restart = models.CharField(_("between games"), max_length=20, choices=GAME_RESTARTS, default=FULL_STACK_LEVEL_1)
    rounds_to_play = models.PositiveSmallIntegerField(_("rounds this group plays"), null=True, blank=True, help_text=_("empty = to a winner"))
    feeds_into = models.ForeignKey(
        Tournament, null=True, blank=True, related_name="feeder_brackets", on_delete=models.PROTECT, verbose_name=_("survivors qualify for")
    )
    previous_group = models.ForeignKey("self", null=True, blank=True, related_name="next_groups", on_delete=models.PROTECT, verbose_name=_("previous group"))
    # RULES §14 q17 ("Tutti a Premio"): all 8 Final Day players are paid (default), or the last 4.
    paid_players = models.PositiveSmallIntegerField(
        _("players paid"), default=8, help_text=_("a bracket played to a winner pays the players of the last rounds: 8 = the whole final day")
    )
    drawn_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return str(self.tournament)

    @property
    def last_round(self) -> int:
        full = engine.rounds_in(self.size)
        return min(full, self.rounds_to_play) if self.rounds_to_play else full


class Match(models.Model):
    """One heads-up match. ``started_at`` is the match start (lateness counts from it);
    ``clock_started_at`` is level 1 of the current game (a replacement or a new game restarts it)."""

    WAITING, READY, PLAYING, DONE = "WAITING", "READY", "PLAYING", "DONE"
    PLAYED, BYE, WALKOVER, LATENESS = "PLAYED", "BYE", "WALKOVER", "LATENESS"

    bracket = models.ForeignKey(Bracket, related_name="matches", on_delete=models.CASCADE)
    round = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField()
    table_number = models.PositiveIntegerField(null=True, blank=True)
    player_a = models.ForeignKey(Entry, null=True, blank=True, related_name="+", on_delete=models.PROTECT)
    player_b = models.ForeignKey(Entry, null=True, blank=True, related_name="+", on_delete=models.PROTECT)
    a_seated_at = models.DateTimeField(null=True, blank=True)
    b_seated_at = models.DateTimeField(null=True, blank=True)
    a_wins = models.PositiveSmallIntegerField(default=0)
    b_wins = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=8, default=WAITING)
    result = models.CharField(max_length=9, blank=True)
    winner = models.ForeignKey(Entry, null=True, blank=True, related_name="+", on_delete=models.PROTECT)
    loser = models.ForeignKey(Entry, null=True, blank=True, related_name="+", on_delete=models.PROTECT)
    started_at = models.DateTimeField(null=True, blank=True)
    clock_started_at = models.DateTimeField(null=True, blank=True)
    clock_restarts = models.PositiveSmallIntegerField(default=0)
    seat_freed_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["bracket", "round", "position"]
        constraints = [models.UniqueConstraint(fields=["bracket", "round", "position"], name="formats_match_slot_unique")]

    def side_of(self, entry) -> str | None:
        pk = getattr(entry, "pk", entry)
        if self.player_a_id == pk:
            return "a"
        if self.player_b_id == pk:
            return "b"
        return None


class MatchGame(models.Model):
    """One game of a match and who won it (a game lost by lateness is kind LATENESS)."""

    PLAYED, LATENESS = "PLAYED", "LATENESS"
    match = models.ForeignKey(Match, related_name="games", on_delete=models.CASCADE)
    number = models.PositiveSmallIntegerField()
    winner = models.ForeignKey(Entry, related_name="+", on_delete=models.PROTECT)
    kind = models.CharField(max_length=8, default=PLAYED)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="formats_game_number_unique")]


class SeatRequest(models.Model):
    """A player asking for a seat in a heads-up group (scenario 36: priority queue)."""

    NEW, RETURNING = "NEW", "RETURNING"
    WAITING, ADMITTED, REFUSED = "WAITING", "ADMITTED", "REFUSED"
    tournament = models.ForeignKey(Tournament, related_name="seat_requests", on_delete=models.CASCADE)
    person = models.ForeignKey(Person, related_name="+", on_delete=models.PROTECT)
    kind = models.CharField(max_length=9, default=NEW)
    previous_busted_at = models.DateTimeField(null=True, blank=True)
    requested_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(max_length=8, default=WAITING)
    entry = models.ForeignKey(Entry, null=True, blank=True, related_name="+", on_delete=models.SET_NULL)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "requested_at", "id"]


# --- timed events and qualifying tables (FMT-13) -------------------------------------------------


class TimedEvent(models.Model):
    """A tournament that ends at a set time: the players still in are ranked by chips."""

    TIME_LIMIT, LAST_PLAYER = "TIME_LIMIT_CHIPCOUNT", "LAST_PLAYER"
    END_CONDITIONS = [(TIME_LIMIT, _("At the time limit, by chip count (earlier if one player is left)")), (LAST_PLAYER, _("When one player is left"))]

    tournament = models.OneToOneField(Tournament, related_name="timed", on_delete=models.PROTECT)
    ends_at = models.DateTimeField(_("play ends at"))
    end_condition = models.CharField(_("end condition"), max_length=20, choices=END_CONDITIONS, default=TIME_LIMIT)
    chip_tie = models.CharField(_("equal stacks at the end"), max_length=5, choices=TIE_RULES, default=engine.SHARE)
    finished_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(default=dict, blank=True)


class QualifierGroup(models.Model):
    """Qualifying tables (each a tournament) whose winners meet at a final table."""

    name = models.CharField(_("name"), max_length=160)
    final = models.OneToOneField(Tournament, related_name="qualifier_group", on_delete=models.PROTECT, verbose_name=_("final table"))
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return self.name


class Qualifier(models.Model):
    group = models.ForeignKey(QualifierGroup, related_name="qualifiers", on_delete=models.CASCADE)
    tournament = models.OneToOneField(Tournament, related_name="qualifier", on_delete=models.PROTECT)
    position = models.PositiveSmallIntegerField(default=0)
    final_entry = models.OneToOneField(Entry, null=True, blank=True, related_name="+", on_delete=models.PROTECT)
    qualified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["group", "position", "id"]


# --- daily series and leaderboards (FMT-10, LB-01..03) -------------------------------------------


#: A league's prize ticket unless the director writes another: stored in English, read in the
#: reader's language (``tournaments.labels.SHIPPED_TEXTS``), offered in it by the league form.
DEFAULT_TICKET = gettext_noop("€500+50 IPT/EPT ticket (personal, non-transferable)")


class Series(models.Model):
    """A leaderboard series of daily tournaments: points per tournament, a general ranking,
    and every ``cycle_length`` tournaments tickets for the best and a reset (LB-03)."""

    MODES = [("A", "A: log₁₀(100.25), K = 30.0108"), ("B", "B: log₂₅(100), K = 24.3068"), ("C", "C: log₁₀₀(25), K = 16.9897"), ("D", "D: log₁₀(buy-in + 0.25)")]
    ENTRIES, PLAYERS = "ENTRIES", "PLAYERS"
    PARTICIPANTS = [(ENTRIES, _("Entries, re-entries included")), (PLAYERS, _("Unique players"))]
    SHARED_RULES = [
        ("AVERAGE_PLACE", _("Tied players score at the average of their places")),
        ("BEST_PLACE", _("Tied players score at the best of their places")),
    ]
    TIE_BREAKS = [
        ("BEST_RESULT", _("Best single result")),
        ("MORE_TOURNAMENTS", _("More tournaments")),
        ("FEWER_TOURNAMENTS", _("Fewer tournaments")),
        ("NONE", _("None: the director decides")),
    ]

    # How a tournament is scored: the Sanremo leaderboard (K·√(n/p), a cycle of 20 with
    # tickets) or a league formula of payouts.league, with its parameters.
    SANREMO = "SANREMO"
    SCORINGS = [
        (SANREMO, _("Sanremo leaderboard: K·√(n/p)")),
        ("SQRT", _("Square root: multiplier × √(entries ÷ place)")),
        ("SQRT_BUYIN", _("Square root × (1 + log₁₀(buy-in + 0.25))")),
        ("TABLE", _("Points table by place")),
        ("LINEAR", _("Linear: entries − place + 1")),
        ("TD3", _("The Tournament Director's points formula (imported events)")),
    ]

    name = models.CharField(_("name"), max_length=160)
    scoring = models.CharField(_("points formula"), max_length=10, choices=SCORINGS, default=SANREMO)
    multiplier = models.DecimalField(_("multiplier"), max_digits=8, decimal_places=2, default=Decimal("10"))
    points_table = models.JSONField(_("points by place"), default=list, blank=True, help_text=_('e.g. ["100", "70", "50"]'))
    participation_points = models.DecimalField(_("points for playing"), max_digits=8, decimal_places=2, default=Decimal("0"))
    knockout_points = models.DecimalField(
        _("points per knockout"), max_digits=8, decimal_places=2, default=Decimal("0"), help_text=_("in bounty events: each player knocked out")
    )
    best_of = models.PositiveSmallIntegerField(_("best results counted"), null=True, blank=True, help_text=_("empty = all"))
    cycle_length = models.PositiveSmallIntegerField(
        _("tournaments per cycle"), null=True, blank=True, default=20, help_text=_("empty = the director closes the season")
    )
    lb_constant_mode = models.CharField(_("reading of log(100,25)"), max_length=1, choices=MODES, default="A")
    participants = models.CharField(_("n counts"), max_length=7, choices=PARTICIPANTS, default=ENTRIES)
    shared_rule = models.CharField(_("shared places score"), max_length=13, choices=SHARED_RULES, default="AVERAGE_PLACE")
    tie_break = models.CharField(_("tie-break for the tickets"), max_length=17, choices=TIE_BREAKS, default="BEST_RESULT")
    tickets_per_cycle = models.PositiveSmallIntegerField(_("tickets per cycle"), default=4)
    ticket_description = models.CharField(_("ticket"), max_length=120, default=DEFAULT_TICKET)
    ticket_value = models.DecimalField(_("ticket value"), **MONEY, default=Decimal("550"))
    weekday_prices = models.JSONField(
        _("daily prices by weekday"), default=dict, blank=True, help_text=_('Monday = 0, e.g. {"0": ["50", "20"]}; empty = the Sanremo schedule')
    )
    current_cycle = models.PositiveIntegerField(default=1)
    #: a league brought in from The Tournament Director: its points formula in TD3's language (the
    #: latest event's; each imported event was scored with its own) and its seasons' names by number
    td3_formula = models.TextField(_("TD3 points formula"), blank=True)
    season_names = models.JSONField(_("season names"), default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "series"

    def __str__(self):
        return self.name

    @property
    def is_league(self) -> bool:
        return self.scoring != self.SANREMO

    def formula(self):
        """The league formula (``payouts.league.Formula``) of a league; None for Sanremo."""
        if not self.is_league:
            return None
        return league.Formula(
            self.scoring,
            multiplier=Decimal(self.multiplier),
            table=tuple(Decimal(p) for p in self.points_table),
            participation=Decimal(self.participation_points),
            knockout_points=Decimal(self.knockout_points),
            best_of=self.best_of,
            tie_break=self.tie_break,
        )


class SeriesTournament(models.Model):
    series = models.ForeignKey(Series, related_name="links", on_delete=models.CASCADE)
    tournament = models.OneToOneField(Tournament, related_name="series_link", on_delete=models.PROTECT)
    cycle = models.PositiveIntegerField(null=True, blank=True, help_text="set when scored")
    participants = models.PositiveIntegerField(null=True, blank=True)
    scored_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["series", "tournament__start_at", "id"]


class SeriesResult(models.Model):
    """A player's points from one tournament of the series (stored unrounded, LB-02)."""

    series = models.ForeignKey(Series, related_name="results", on_delete=models.CASCADE)
    cycle = models.PositiveIntegerField()
    tournament = models.ForeignKey(Tournament, related_name="+", on_delete=models.PROTECT)
    person = models.ForeignKey(Person, related_name="+", on_delete=models.PROTECT)
    place = models.PositiveIntegerField()
    shared_with = models.PositiveIntegerField(default=1)
    participants = models.PositiveIntegerField()
    points = models.FloatField()
    knockouts = models.PositiveIntegerField(default=0, help_text="players he knocked out in a bounty event (scored with the league's knockout points)")

    class Meta:
        ordering = ["series", "cycle", "tournament", "place", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "person"], name="formats_series_result_unique")]


class SeriesPastResult(models.Model):
    """A league result from before the room used this system, brought in from its sheet
    (``formats.imports``): the date and name of an event that was not played here (no
    ``Tournament``: it took no money here and stays out of the money reports), the player, his
    place, prize and the points the league gave him. It counts in the standings of its season
    beside the results of the events played here."""

    series = models.ForeignKey(Series, related_name="past_results", on_delete=models.CASCADE)
    cycle = models.PositiveIntegerField(help_text="the season it counts for: the league's current one when it was imported")
    date = models.DateField()
    event = models.CharField(max_length=160)
    person = models.ForeignKey(Person, related_name="+", on_delete=models.PROTECT)
    place = models.PositiveIntegerField()
    prize = models.DecimalField(**MONEY, default=Decimal("0"))
    points = models.DecimalField(max_digits=10, decimal_places=2)
    imported_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["series", "cycle", "date", "event", "place", "id"]
        constraints = [models.UniqueConstraint(fields=["series", "date", "event", "person"], name="formats_past_result_unique")]


class SeriesCycle(models.Model):
    """The archive of a closed cycle: its final ranking and who won the tickets."""

    series = models.ForeignKey(Series, related_name="cycles", on_delete=models.CASCADE)
    number = models.PositiveIntegerField()
    closed_at = models.DateTimeField(default=timezone.now)
    standings = models.JSONField(default=list)
    undecided = models.JSONField(default=list, blank=True, help_text="people tied for the last ticket(s): the director decides")
    tickets_undecided = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["series", "number"]
        constraints = [models.UniqueConstraint(fields=["series", "number"], name="formats_series_cycle_unique")]


class SeriesAward(models.Model):
    """A cycle ticket (LB-01: €500+50, personal and non-transferable)."""

    series = models.ForeignKey(Series, related_name="awards", on_delete=models.PROTECT)
    cycle = models.PositiveIntegerField()
    person = models.ForeignKey(Person, related_name="+", on_delete=models.PROTECT)
    rank = models.PositiveSmallIntegerField()
    total_points = models.FloatField()
    description = models.CharField(max_length=120)
    value = models.DecimalField(**MONEY)
    decided_by = models.CharField(max_length=20, default="RANKING", help_text="RANKING or DIRECTOR (a tie the TD settled)")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["series", "cycle", "rank", "id"]
