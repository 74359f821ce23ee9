"""Daily tournaments and leaderboard series (FMT-10, LB-01..LB-03).

Points per tournament come from ``payouts.leaderboard`` (the pure engine): K·√(n/p), with
the series' reading of ``log(100,25)``, its count of participants and its rule for shared
places. Every ``cycle_length`` scored tournaments the cycle closes: the best
``tickets_per_cycle`` totals get a ticket each (€500+50), the ranking is archived and the
totals start again from zero. A tie for the last ticket is left to the director.
"""

from datetime import datetime, time

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from payouts import leaderboard, league
from payouts.selectors import knockouts_by_entry as bounty_knockouts
from tdmanager import realtime, shown_text
from tdmanager.errors import ValidationFailed
from tdmanager.formatting import when
from tdmanager.transactions import service
from tournaments.cashier import rules as cashier_rules
from tournaments.cashier.ledger import lock_tournament
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.imports.td3 import formula as td3_formula
from tournaments.models import Entry, Person, Tournament, checks

from .. import engine, td3_here
from ..models import Series, SeriesAward, SeriesCycle, SeriesPastResult, SeriesResult, SeriesTournament
from ..selectors import forget_leaderboard, past_events, series_of_person, standings
from .common import FormatError

LEAGUE_SETTINGS = {"scoring", "multiplier", "points_table", "participation_points", "knockout_points", "best_of"}


@service
def create_series(*, name: str, actor: Actor, **settings) -> Series:
    """A Sanremo leaderboard series (``scoring`` SANREMO, the default) or a league scored by a
    formula of ``payouts.league`` (SQRT, SQRT_BUYIN, TABLE, LINEAR) with its parameters."""
    allowed = {
        "cycle_length",
        "lb_constant_mode",
        "participants",
        "shared_rule",
        "tie_break",
        "tickets_per_cycle",
        "ticket_description",
        "ticket_value",
        "weekday_prices",
    } | LEAGUE_SETTINGS
    shown_text.check(name, "name", _("Name"))
    shown_text.check(settings.get("ticket_description"), "ticket_description", _("Ticket"))
    unknown = set(settings) - allowed
    if unknown:
        raise ValidationFailed("bad_setting", _("Unknown series settings: %(s)s.") % {"s": ", ".join(sorted(unknown))})
    if "points_table" in settings:
        settings["points_table"] = [str(p) for p in settings["points_table"] or []]
    series = Series(name=name, **settings)
    if series.scoring not in dict(Series.SCORINGS):
        raise ValidationFailed("bad_setting", _("Unknown points formula."), field="scoring")
    if series.lb_constant_mode not in leaderboard.MODES or series.tie_break not in leaderboard.TIE_BREAKS:
        raise ValidationFailed("bad_setting", _("Unknown leaderboard reading or tie-break."))
    if series.cycle_length is not None and series.cycle_length < 1:
        raise ValidationFailed("bad_setting", _("A cycle has at least one tournament."), field="cycle_length")
    if series.cycle_length is None and not series.is_league:
        raise ValidationFailed("bad_setting", _("A Sanremo leaderboard closes its cycle after a number of tournaments."), field="cycle_length")
    try:
        series.formula()
    except league.LeagueError as exc:
        raise ValidationFailed("bad_setting", _league_refusal(exc.code), field=_LEAGUE_FIELDS.get(exc.code, "scoring"))
    series.save()
    standings_changed(series.pk)
    log_event(
        None,
        Action.FORMATS_SERIES_CREATED,
        actor,
        series=series.pk,
        name=name,
        cycle_length=series.cycle_length,
        lb_constant_mode=series.lb_constant_mode,
        participants=series.participants,
        scoring=series.scoring,
        multiplier=str(series.multiplier),
        points_table=series.points_table,
        participation_points=str(series.participation_points),
        knockout_points=str(series.knockout_points),
        best_of=series.best_of,
    )
    return series


def standings_changed(pk: int) -> None:
    """The lobby's cached leaderboard is stale: now (a reader never gets the old version for a
    new series) and again at commit (a reader who rebuilt before the commit cached old points).
    The league's tournaments still to play show the standings on their screens and phones: they
    are told to build again."""
    forget_leaderboard(pk)
    live = list(
        SeriesTournament.objects.filter(series_id=pk, tournament__status__in=(Tournament.REGISTERING, Tournament.RUNNING)).values_list(
            "tournament_id", flat=True
        )
    )

    def after_commit():
        forget_leaderboard(pk)
        for tournament_id in live:
            realtime.tournament_changed(tournament_id, "formats.series.standings")

    transaction.on_commit(after_commit)


_LEAGUE_FIELDS = {"empty_table": "points_table", "bad_points": "points_table", "bad_best_of": "best_of", "bad_tie_break": "tie_break"}


def _league_refusal(code: str) -> str:
    return {
        "empty_table": _("A points table needs the points of at least the 1st place."),
        "bad_points": _("Points and the multiplier must be positive numbers."),
        "bad_best_of": _("Count at least one result per player."),
        "bad_tie_break": _("Unknown leaderboard reading or tie-break."),
    }.get(code, _("Unknown points formula."))


@service
def attach(series: Series, tournament, *, actor: Actor) -> SeriesTournament:
    t = lock_tournament(tournament)
    if SeriesTournament.objects.filter(tournament=t).exists():
        raise FormatError("already_in_series", _("This tournament already belongs to a series."))
    link = SeriesTournament.objects.create(series=series, tournament=t)
    log_event(t, Action.FORMATS_SERIES_ATTACHED, actor, series=series.pk, name=series.name)
    return link


@service
def schedule_daily(
    series: Series, day, *, structure, starting_stack: int, actor: Actor, start_time: time = time(20, 30), name: str | None = None
) -> Tournament:
    """Create the daily tournament of ``day`` at the weekday's price (003 Allegato 1: Mon/Thu
    50+20, Fri 200+20, Sat 150+20, Sun 80+20 unless the series sets its own), open for
    registration and attached to the series."""
    shown_text.check(name, "name", _("Name"))
    price = engine.daily_price(day.weekday(), series.weekday_prices or None)
    if price is None:
        raise FormatError("no_daily_tournament", _("There is no daily tournament on that weekday."), status=400)
    buy_in, fee = price
    start_at = timezone.make_aware(datetime.combine(day, start_time))
    settings = {"lb_mode": series.lb_constant_mode}
    override = cashier_rules.is_override(buy_in, fee)  # REG-03 / C15: the daily fee is an override of the statutory one
    if override:
        settings["fee_override"] = str(fee)
    t = checks.create(
        Tournament,
        name=name or f"{series.name} {when(day, 'weekdayday')}",
        start_at=start_at,
        buy_in=buy_in,
        fee=fee,
        starting_stack=starting_stack,
        structure=structure,
        status=Tournament.REGISTERING,
        settings=settings,
    )
    SeriesTournament.objects.create(series=series, tournament=t)
    log_event(t, Action.FORMATS_SERIES_DAILY_SCHEDULED, actor, series=series.pk, buy_in=str(buy_in), fee=str(fee))
    if override:
        log_event(
            t,
            Action.TOURNAMENTS_FEE_OVERRIDDEN,
            actor,
            buy_in=str(buy_in),
            fee=str(fee),
            statutory_fee=str(cashier_rules.statutory_fee(buy_in)),
            reason="FMT-10: the daily event price of the series (003 Allegato 1)",
            preset="SERIES",
        )
    return t


def tournament_places(t: Tournament, participants_rule: str) -> tuple[int, list[tuple[Person, int, int]]]:
    """n and each player's (place, shared_with) in ``t`` for the leaderboard.

    ``ENTRIES``: n counts every paid entry (re-entries included) and a player scores once,
    with the best place of his entries. ``PLAYERS``: n counts people, and the places are
    those of each person's best entry among people (ties stay shared).
    """
    entries = list(t.entries.filter(status__in=(Entry.ACTIVE, Entry.BUSTED)).select_related("person"))
    if any(e.place is None for e in entries):
        raise FormatError("places_missing", _("Some entries have no finishing place yet."))
    best: dict[int, Entry] = {}
    for e in entries:
        if e.person_id not in best or e.place < best[e.person_id].place:
            best[e.person_id] = e
    if participants_rule == Series.PLAYERS:
        n = len(best)
        ordered = sorted(best.values(), key=lambda e: e.place)
        out = []
        for e in ordered:
            better = sum(1 for x in ordered if x.place < e.place)
            same = sum(1 for x in ordered if x.place == e.place)
            out.append((e.person, better + 1, same))
        return n, out
    n = len(entries)
    share = {}
    for e in entries:
        share[e.place] = share.get(e.place, 0) + 1
    return n, [(e.person, e.place, share[e.place]) for e in sorted(best.values(), key=lambda e: e.place)]


@service
def score_tournament(tournament, *, actor: Actor) -> list[SeriesResult]:
    """Give every player of a finished series tournament his points (LB-01), and close the
    cycle when this was its last tournament (LB-03)."""
    t = lock_tournament(tournament)
    try:
        link = SeriesTournament.objects.select_related("series").get(tournament=t)
    except SeriesTournament.DoesNotExist:
        raise FormatError("not_in_series", _("This tournament is not part of a series.")) from None
    series = Series.objects.select_for_update().get(pk=link.series_id)
    if link.scored_at:
        raise FormatError("already_scored", _("This tournament has already been scored."))
    if t.status != Tournament.FINISHED:
        raise FormatError("not_finished", _("Points are given once the tournament is finished."))
    n, places = tournament_places(t, series.participants)
    if n == 0:
        raise FormatError("no_players", _("Nobody played this tournament."))
    formula = series.formula()
    knockouts = person_knockouts(t)
    td3_points = _td3_points(series, t, places, knockouts)
    results = [
        SeriesResult(
            series=series,
            cycle=series.current_cycle,
            tournament=t,
            person=person,
            place=place,
            shared_with=shared,
            participants=n,
            knockouts=knockouts.get(person.pk, 0),
            points=float(td3_points[person.pk]) if td3_points is not None else _points(series, formula, t, n, place, shared, knockouts.get(person.pk, 0)),
        )
        for person, place, shared in places
    ]
    SeriesResult.objects.bulk_create(results)
    link.cycle, link.participants, link.scored_at = series.current_cycle, n, timezone.now()
    link.save(update_fields=["cycle", "participants", "scored_at"])
    # A season brought in from the league's sheet has played some of its events before this system.
    scored = SeriesTournament.objects.filter(series=series, cycle=series.current_cycle, scored_at__isnull=False).count()
    scored += past_events(series, series.current_cycle)
    closed = None
    if series.cycle_length and scored >= series.cycle_length:
        closed = _close_cycle(series, actor)
    standings_changed(series.pk)
    log_event(
        t,
        Action.FORMATS_SERIES_SCORED,
        actor,
        series=series.pk,
        cycle=link.cycle,
        participants=n,
        tournament_no=scored,
        top=[{"name": r.person.full_name, "place": r.place, "points": round(r.points, 2)} for r in results[:5]],
        cycle_closed=closed.number if closed else None,
    )
    return results


def person_knockouts(t: Tournament) -> dict[int, int]:
    """{person id: players knocked out} in a bounty event (``payouts``' standing knockouts), a
    player's re-entries together: what a league's knockout points count."""
    by_entry = bounty_knockouts(t)
    out: dict[int, int] = {}
    for entry_id, person_id in t.entries.filter(pk__in=list(by_entry)).values_list("pk", "person_id"):
        out[person_id] = out.get(person_id, 0) + by_entry[entry_id]
    return out


def _td3_points(series: Series, t: Tournament, places, knockouts: dict[int, int]) -> dict | None:
    """A league brought in from The Tournament Director scores an event played here by the TD3
    formula it kept (``td3_here``); None for every other league."""
    if series.scoring != league.TD3 or not series.td3_formula.strip():
        return None
    try:
        return td3_here.points(series.td3_formula, t, places, knockouts)
    except td3_formula.FormulaError as exc:
        raise FormatError("td3_formula", _("The Tournament Director's formula of this league gives no points: %(why)s") % {"why": exc}) from None


def _points(series: Series, formula, t: Tournament, n: int, place: int, shared: int, knockouts: int = 0) -> float:
    if formula is None:
        return leaderboard.leaderboard_points(n, place, mode=series.lb_constant_mode, buy_in=t.buy_in, shared_with=shared, shared_rule=series.shared_rule)
    try:
        return float(
            league.event_points(formula, entries=n, place=place, buy_in=t.buy_in, knockouts=knockouts, shared_with=shared, shared_rule=series.shared_rule)
        )
    except league.LeagueError as exc:
        if exc.code == "needs_buy_in":
            raise FormatError("needs_buy_in", _("This formula weighs the buy-in, and this tournament has none."))
        if exc.code == "td3_formula":
            raise FormatError(
                "td3_formula",
                _(
                    "This league keeps The Tournament Director's points for the events imported from it: choose one of the formulas here to score the events played here."
                ),
            )
        raise


@service
def close_season(series: Series, *, actor: Actor) -> SeriesCycle:
    """The director closes a league's season: its standings are archived (with the tickets, if
    the league gives any) and the next season starts from zero."""
    series = Series.objects.select_for_update().get(pk=series.pk)
    season = {"series": series, "cycle": series.current_cycle}
    if not (SeriesResult.objects.filter(**season).exists() or SeriesPastResult.objects.filter(**season).exists()):
        raise FormatError("season_empty", _("No tournament has been scored in this season yet."))
    return _close_cycle(series, actor)


def _close_cycle(series: Series, actor: Actor) -> SeriesCycle:
    """Award the cycle's tickets, archive its ranking and start the next cycle from zero."""
    lines = standings(series)
    awards = leaderboard.cycle_awards(lines, top=series.tickets_per_cycle, tie_break=series.tie_break)
    people = {p.pk: p for p in Person.objects.filter(pk__in=[line.player for line in lines])}
    by_player = {line.player: line for line in lines}
    archive = SeriesCycle.objects.create(
        series=series,
        number=series.current_cycle,
        standings=[
            {"rank": s.rank, "person": s.player, "name": people[s.player].full_name, "total": s.total, "tournaments": s.tournaments, "best": s.best}
            for s in lines
        ],
        undecided=list(awards.undecided),
        tickets_undecided=awards.tickets_undecided,
    )
    SeriesAward.objects.bulk_create(
        SeriesAward(
            series=series,
            cycle=series.current_cycle,
            person=people[pid],
            rank=by_player[pid].rank,
            total_points=by_player[pid].total,
            description=series.ticket_description,
            value=series.ticket_value,
        )
        for pid in awards.winners
    )
    series.current_cycle += 1
    series.save(update_fields=["current_cycle"])
    standings_changed(series.pk)
    log_event(
        None,
        Action.FORMATS_SERIES_CYCLE_CLOSED,
        actor,
        series=series.pk,
        cycle=archive.number,
        winners=[people[pid].full_name for pid in awards.winners],
        undecided=[people[pid].full_name for pid in awards.undecided],
    )
    return archive


def rename_in_archives(person: Person) -> None:
    """A step of a correction or an erasure of ``person`` (``tournaments.signals.person_changed``):
    the archived standings of the closed cycles he is in carry his name as it is now, and the
    public leaderboards of his series are built again."""
    for pk in series_of_person(person.pk):
        for archive in SeriesCycle.objects.select_for_update().filter(series_id=pk):
            lines = [{**line, "name": person.full_name} if line.get("person") == person.pk else line for line in archive.standings]
            if lines != archive.standings:
                archive.standings = lines
                archive.save(update_fields=["standings"])
        standings_changed(pk)


@service
def settle_undecided(series: Series, cycle: int, people: list, *, actor: Actor, reason: str) -> list[SeriesAward]:
    """The director gives the tickets left by a tie for the last place(s) (e.g. after a draw)."""
    if not reason.strip():
        raise ValidationFailed("reason_required", _("Say how the tie was settled."))
    series = Series.objects.select_for_update().get(pk=series.pk)
    archive = SeriesCycle.objects.select_for_update().filter(series=series, number=cycle).first()
    if archive is None:
        raise FormatError("no_such_cycle", _("No such object."), status=404)  # no closed cycle of that number
    chosen = [getattr(p, "pk", p) for p in people]
    if len(chosen) != archive.tickets_undecided or not set(chosen) <= set(archive.undecided):
        raise FormatError("bad_choice", _("Choose %(n)s of the tied players.") % {"n": archive.tickets_undecided}, status=400)
    line = {s["person"]: s for s in archive.standings}
    awards = SeriesAward.objects.bulk_create(
        SeriesAward(
            series=series,
            cycle=cycle,
            person_id=pid,
            rank=line[pid]["rank"],
            total_points=line[pid]["total"],
            description=series.ticket_description,
            value=series.ticket_value,
            decided_by="DIRECTOR",
        )
        for pid in chosen
    )
    archive.tickets_undecided = 0
    archive.save(update_fields=["tickets_undecided"])
    standings_changed(series.pk)
    log_event(None, Action.FORMATS_SERIES_TIE_SETTLED, actor, series=series.pk, cycle=cycle, people=chosen, reason=reason)
    return awards
