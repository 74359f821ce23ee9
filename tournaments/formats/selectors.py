"""Read-only views of the formats for pages, the API and lobby screens. Nothing here writes."""

from decimal import Decimal

from django.core.cache import cache
from django.db.models import Q, Sum
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from payouts import leaderboard, league
from payouts.selectors import money_in
from tdmanager.compiled import Compiled
from tdmanager.formatting import num
from tournaments.floor.selectors import chips_in_play
from tournaments.house import HouseRules
from tournaments.labels import shipped_text
from tournaments.models import Entry, Person, Tournament
from tournaments.people.names import public_names, ranked_public_names

from . import engine
from .models import (
    Bracket,
    ChipLeaderAward,
    Flight,
    Match,
    MultiDayEvent,
    QualifierGroup,
    Series,
    SeriesAward,
    SeriesCycle,
    SeriesPastResult,
    SeriesResult,
    SeriesTournament,
    TimedEvent,
)


def _player(entry):
    if entry is None:
        return None
    return {"entry": entry.pk, "number": entry.number, "name": entry.person.display_name, "status": entry.status, "place": entry.place}


def match_data(m: Match, bracket: Bracket, now=None) -> dict:
    now = now or timezone.now()
    data = {
        "id": m.pk,
        "round": m.round,
        "position": m.position,
        "table": m.table_number,
        "status": m.status,
        "result": m.result,
        "a": _player(m.player_a),
        "b": _player(m.player_b),
        "a_wins": m.a_wins,
        "b_wins": m.b_wins,
        "a_seated": m.a_seated_at is not None,
        "b_seated": m.b_seated_at is not None,
        "winner": m.winner_id,
        "started_at": m.started_at.isoformat() if m.started_at else None,
        "clock_started_at": m.clock_started_at.isoformat() if m.clock_started_at else None,
        "clock_restarts": m.clock_restarts,
        "seat_freed_at": m.seat_freed_at.isoformat() if m.seat_freed_at else None,
        "games": [{"number": g.number, "winner": g.winner_id, "kind": g.kind} for g in m.games.all()],
    }
    if m.status == Match.PLAYING and m.clock_started_at:
        data["clock"] = engine.match_level(m.clock_started_at, now, bracket.level_minutes)
    if m.seat_freed_at and m.clock_started_at:
        data["replacement_until"] = engine.replacement_deadline(m.clock_started_at, bracket.level_minutes, bracket.no_show_grace_minutes).isoformat()
    return data


def bracket_size(tournament) -> int | None:
    """The places of the tournament's heads-up bracket (FMT-12), or None when it has none."""
    return Bracket.objects.filter(tournament=tournament).values_list("size", flat=True).first()


def drawn_in_bracket(tournament, entry) -> bool:
    """True when ``entry`` plays (or played) a match of the tournament's drawn bracket."""
    pk = getattr(entry, "pk", entry)
    return Match.objects.filter(bracket__tournament=tournament, bracket__drawn_at__isnull=False).filter(Q(player_a_id=pk) | Q(player_b_id=pk)).exists()


def round_name(size: int, round_no: int) -> str:
    left = engine.players_in_round(size, round_no)
    return {2: _("Final"), 4: _("Semi-finals"), 8: _("Quarter-finals")}.get(left, _("Round of %(n)s") % {"n": left})


def bracket_data(bracket: Bracket, now=None) -> dict:
    """The whole bracket by round, for the lobby page and the API."""
    t = bracket.tournament
    matches = Match.objects.filter(bracket=bracket).select_related("player_a__person", "player_b__person").prefetch_related("games")
    rounds: dict[int, list] = {}
    for m in matches:
        rounds.setdefault(m.round, []).append(match_data(m, bracket, now))
    champion = t.entries.filter(place=1).select_related("person").first() if bracket.completed_at else None
    return {
        "tournament": {"id": t.pk, "name": t.name, "status": t.status},
        "size": bracket.size,
        "games_to_win": bracket.games_to_win,
        "level_minutes": bracket.level_minutes,
        "punctuality": bracket.punctuality,
        "paid_players": bracket.paid_players,
        "drawn": bracket.drawn_at is not None,
        "completed": bracket.completed_at is not None,
        "rounds": [{"round": r, "name": round_name(bracket.size, r), "matches": rounds[r]} for r in sorted(rounds)],
        "champion": _player(champion) if champion and bracket.last_round == engine.rounds_in(bracket.size) else None,
        "seat_requests": [
            {"id": r.pk, "name": r.person.full_name, "kind": r.kind, "status": r.status, "requested_at": r.requested_at.isoformat()}
            for r in t.seat_requests.select_related("person")
        ],
    }


def _name_rows(person_ids) -> dict[int, tuple]:
    """person → (first, last, nickname, hidden): what a public name is made of, in one read."""
    return {
        pk: (first, last, nick, hidden)
        for pk, first, last, nick, hidden in Person.objects.filter(pk__in=person_ids).values_list(
            "pk", "first_name", "last_name", "nickname", "hide_from_lookup"
        )
    }


def public_person_names(lines, style: str, people: dict | None = None) -> dict[int, str]:
    """person → the name one ranked public list shows (``ranked_public_names``, in the house's
    ``style``): ``lines`` of (person id, rank) in the list's order. A league's line is a person,
    not an entry: two who would read the same carry their rank. ``people``: ``_name_rows`` of
    them already read (a page of several lists reads them once)."""
    lines = list(lines)
    people = _name_rows({pk for pk, _rank in lines}) if people is None else people
    known = [(pk, rank) for pk, rank in lines if pk in people]
    names = ranked_public_names(((*people[pk], rank) for pk, rank in known), style)
    return {pk: name for (pk, _rank), name in zip(known, names, strict=True)}


def series_name_style(series: Series) -> str:
    """How the series' public pages name players: as its latest event's pages do
    (``HouseRules.seat_lookup_names``), the house's default before it has one."""
    link = series.links.select_related("tournament").order_by("-tournament__start_at", "-pk").first()
    return HouseRules.of(link.tournament).seat_lookup_names if link else HouseRules.from_settings({}).seat_lookup_names


def public_bracket(bracket: Bracket) -> dict:
    """``bracket_data`` for the lobby's public page: no seat requests, no second-by-second clock
    (the page reloads when its JSON changes), every player named as public pages name him."""
    data = bracket_data(bracket)
    data.pop("seat_requests", None)
    t = bracket.tournament
    rows = list(t.entries.values_list("pk", "person__first_name", "person__last_name", "person__nickname", "person__hide_from_lookup", "number"))
    names = dict(zip([row[0] for row in rows], public_names((row[1:] for row in rows), HouseRules.of(t).seat_lookup_names), strict=True))
    players = [data["champion"]] + [m.get(side) for r in data["rounds"] for m in r["matches"] for side in ("a", "b")]
    for player in players:
        if isinstance(player, dict) and player.get("entry") in names:
            player["name"] = names[player["entry"]]
    for r in data["rounds"]:
        for m in r["matches"]:
            if "clock" in m:
                m["clock"].pop("seconds_left", None)
    return data


def leaderboard_data(series: Series, cycle: int | None = None, *, public: bool = False) -> dict:
    """The general ranking of a cycle (current by default): each event's scores added up (LB-01),
    points to 2 decimals (LB-02).
    ``public``: the lobby's page, every name as public pages show it (``public_person_names``);
    else the staff's, full names."""
    cycle = series.current_cycle if cycle is None else cycle
    lines = standings(series, cycle)
    cycles = list(SeriesCycle.objects.filter(series=series).order_by("-number"))
    # The page's lists, each line (person id or None, rank, the name shown without a person read).
    winners = {}
    for a in SeriesAward.objects.filter(series=series, cycle__in=[c.number for c in cycles]).select_related("person").order_by("pk"):
        winners.setdefault(a.cycle, []).append((a.person_id, a.rank, a.person.display_name))
    champions = {c.number: [(line.get("person"), 1, line["name"]) for line in c.standings if line["rank"] == 1] for c in cycles}
    current = [(s.player, s.rank, "?") for s in lines]
    people = {pk for group in (current, *winners.values(), *champions.values()) for pk, _rank, _name in group if pk}
    if public:
        # Each list (the standings, a past season's winners or champions) tells its own alike
        # names apart by their ranks on that season's leaderboard, as a list of entries does by
        # their numbers: a full name would say who they are.
        style, rows = series_name_style(series), _name_rows(people)

        def named(group):
            names = public_person_names([(pk, rank) for pk, rank, _name in group if pk], style, rows)
            return [names.get(pk, name) for pk, _rank, name in group]
    else:
        full = {p.pk: p.display_name for p in Person.objects.filter(pk__in=people)}

        def named(group):
            return [full.get(pk, name) for pk, _rank, name in group]

    knockouts = dict(SeriesResult.objects.filter(series=series, cycle=cycle).values("person").annotate(n=Sum("knockouts")).values_list("person", "n"))
    played = series.links.filter(cycle=cycle, scored_at__isnull=False).count()
    before = past_events(series, cycle)
    return {
        "series": {
            "id": series.pk,
            "name": series.name,
            "cycle_length": series.cycle_length,
            "reading": series.lb_constant_mode,
            "participants": series.participants,
            "tickets": series.tickets_per_cycle,
            "ticket": shipped_text(series.ticket_description),
            "scoring": series.scoring,
            "league": series.is_league,
            "formula": formula_text(series),
            "multiplier": str(series.multiplier),
            "points_table": list(series.points_table),
            "participation_points": str(series.participation_points),
            "knockout_points": str(series.knockout_points),
            "best_of": series.best_of,
            "tie_break": series.tie_break,
        },
        "cycle": cycle,
        "tournaments_played": played,
        "past_events": before,  # events before this system, whose results were imported
        "tournaments_left": max(0, series.cycle_length - played - before) if series.cycle_length else None,
        "standings": [
            {
                "rank": s.rank,
                "person": s.player,
                "name": name,
                "points": round(s.total, 2),
                "tournaments": s.tournaments,
                "best": round(s.best, 2),
                "knockouts": knockouts.get(s.player, 0),  # in every bounty event of the season played
            }
            for s, name in zip(lines, named(current), strict=True)
        ],
        "archived": cycle != series.current_cycle,
        "past_cycles": [
            {
                "number": c.number,
                "closed_at": c.closed_at.isoformat(),
                "undecided": c.tickets_undecided,
                "winners": named(winners.get(c.number, [])),
                "champions": named(champions[c.number]),
            }
            for c in cycles
        ],
    }


def series_of_person(person_id: int) -> list[int]:
    """The series a person has points in (this season or an archived one)."""
    played = SeriesResult.objects.filter(person_id=person_id).values_list("series_id", flat=True)
    past = SeriesPastResult.objects.filter(person_id=person_id).values_list("series_id", flat=True)
    return sorted(set(played) | set(past))


def series_players(tournament, people) -> dict[int, int]:
    """``{person id: entry id}``: those of ``people`` who played another event of the
    tournament's series (an entry not cancelled), each with his latest entry there; empty when
    the tournament is in no series."""
    link = SeriesTournament.objects.filter(tournament=tournament).values_list("series_id", flat=True).first()
    if link is None or not people:
        return {}
    rows = (
        Entry.objects.filter(person_id__in=people, tournament__series_link__series_id=link)
        .exclude(tournament=tournament)
        .exclude(status=Entry.CANCELLED)
        .order_by("tournament__start_at", "pk")
        .values_list("person_id", "pk")
    )
    return dict(rows)  # the latest entry of each person last


# The lobby's leaderboard page is public: built once per change and language, then served from
# the cache (no database read per viewer). The services bump the version when points change.
LEADERBOARD_TTL = 300  # a correction or an erasure of a player builds it again at once (receivers.person_changed)


def _leaderboard_version(pk: int) -> int:
    return cache.get_or_set(f"formats:series:{pk}:version", 1, None)


def forget_leaderboard(pk: int) -> None:
    """The series' standings changed: the next public read builds them again."""
    key = f"formats:series:{pk}:version"
    try:
        cache.incr(key)
    except ValueError:  # not cached yet, or evicted: a new version starts anyway
        cache.set(key, 2, None)


def _cached_leaderboard(pk: int, cycle: int | None = None) -> dict | None:
    """``leaderboard_data`` for the lobby, from the cache when current (None: no such series).
    Its lines keep their person ids: the screens and phones of the league's events find a
    player's line by them."""
    key = f"formats:series:{pk}:{_leaderboard_version(pk)}:{cycle or 0}:{get_language()}"
    data = cache.get(key)
    if data is None:
        series = Series.objects.filter(pk=pk).first()
        if series is None:
            return None
        data = leaderboard_data(series, cycle, public=True)
        cache.set(key, data, LEADERBOARD_TTL)
    return data


def public_leaderboard(pk: int, cycle: int | None = None) -> dict | None:
    """The lobby's leaderboard page and its JSON (None: no such series): no person ids, which
    would link a player's lines across seasons (an opted-out player's "—" too)."""
    data = _cached_leaderboard(pk, cycle)
    if data is None:
        return None
    return {**data, "standings": [{k: v for k, v in line.items() if k != "person"} for line in data["standings"]]}


def event_data(event: MultiDayEvent) -> dict:
    """A multi-day event's page and API answer: its flights, their bagging and chip leaders, Day 2
    (FMT-11) and the money taken (FMT-02)."""
    flights = []
    for f in event.flights.select_related("tournament"):
        t = f.tournament
        flights.append(
            {
                "label": f.label,
                "tournament": t.pk,
                "name": t.name,
                "status": t.status,
                "closed": f.closed_at is not None,
                "entries": t.entries.exclude(status=Entry.CANCELLED).count(),
                "playing": t.entries.filter(status=Entry.ACTIVE).count(),
                "bagging": bagging_summary(f) if t.status == t.RUNNING or f.closed_at else None,
                "chip_leaders": [
                    {"rank": a.rank, "name": a.entry.person.display_name, "chips": a.chips, "amount": str(a.amount), "shared_with": a.shared_with}
                    for a in ChipLeaderAward.objects.filter(flight=f).select_related("entry__person")
                ],
                "stack_options": [{"id": o.pk, "label": o.label, "buy_in": str(o.buy_in), "fee": str(o.fee), "chips": o.chips} for o in t.stack_options.all()],
            }
        )
    money = event_money(event)
    return {
        "id": event.pk,
        "name": event.name,
        "day2": {
            "tournament": event.day2_id,
            "status": event.day2.status,
            "built": event.day2_built_at is not None,
            "players": event.day2.entries.exclude(status=Entry.CANCELLED).count(),
        },
        "multi_flight_stack": event.multi_flight_stack,
        "surrender_allowed": event.surrender_allowed,
        "chip_leader_prizes": [str(p) for p in event.prizes],
        "chip_leader_ties": event.chip_leader_ties,
        "flights": flights,
        "money": {k: str(v) for k, v in money.items()},
    }


def format_links(t) -> list[dict]:
    """Buttons a tournament page can show for its format: [{"label", "url"}]."""
    links = []
    if hasattr(t, "flight"):
        links.append({"label": _("Multi-day event"), "url": reverse("formats-multiday", args=[t.flight.event_id])})
    if hasattr(t, "multiday_event"):
        links.append({"label": _("Multi-day event"), "url": reverse("formats-multiday", args=[t.multiday_event.pk])})
    if hasattr(t, "bracket"):
        links.append({"label": _("Bracket"), "url": reverse("formats-headsup", args=[t.pk])})
    if hasattr(t, "timed") or hasattr(t, "qualifier") or hasattr(t, "qualifier_group"):
        links.append({"label": _("Timed / qualifiers"), "url": reverse("formats-timed", args=[t.pk])})
    if hasattr(t, "series_link"):
        links.append({"label": _("Leaderboard"), "url": reverse("formats-series", args=[t.series_link.series_id])})
    return links


def overview() -> dict:
    return {
        "events": MultiDayEvent.objects.select_related("day2"),
        "brackets": Bracket.objects.select_related("tournament").order_by("-tournament__start_at"),
        "timed": TimedEvent.objects.select_related("tournament").order_by("-tournament__start_at"),
        "groups": QualifierGroup.objects.select_related("final"),
        "series": Series.objects.all(),
    }


# --- read by the formats' services too ---------------------------------------------------------


def bagging_summary(flight: Flight) -> dict:
    """Survivors bagged, surrendered, still to bag, and the check against chips in play (FMT-11)."""
    t = flight.tournament
    bags = list(flight.bags.all())
    kept = sum(b.chips for b in bags if not b.surrendered)
    surrendered = sum(b.chips for b in bags if b.surrendered)
    unbagged = list(t.entries.filter(status=Entry.ACTIVE, bag__isnull=True).values_list("number", flat=True))
    in_play = chips_in_play(t)
    return {
        "bagged": sum(1 for b in bags if not b.surrendered),
        "bagged_chips": kept,
        "surrendered": sum(1 for b in bags if b.surrendered),
        "surrendered_chips": surrendered,
        "unbagged_entries": unbagged,
        "chips_in_play": in_play,
        "difference": kept - in_play if not unbagged else None,
    }


def event_money(event: MultiDayEvent) -> dict:
    """What the flights (and any Day 2 direct entries) took, by part: the event's prize money
    (net of reversals and refunds, prize payouts left out: ``payouts.selectors.money_in``). A
    cancelled flight's money is owed back to its players, no part of the event's (FMT-02)."""
    out = {"prize": Decimal("0.00"), "fee": Decimal("0.00")}
    flights = event.flights.select_related("tournament").exclude(tournament__status=Tournament.CANCELLED)
    for t in [f.tournament for f in flights] + [event.day2]:
        got = money_in(t)
        out["prize"] += got["prize"]
        out["fee"] += got["fee"]
    return out


def standings(series: Series, cycle: int | None = None) -> list:
    """The general ranking of a cycle (the current one by default, LB-01; LB-03 starts a new
    one every cycle): ``SeriesStanding`` lines
    whose ``player`` is the person id. A Sanremo series sums every score
    (``payouts.leaderboard.series_standings``); a league counts each player's best results
    and compares exact totals (``payouts.league.standings``)."""
    cycle = series.current_cycle if cycle is None else cycle
    pairs = season_points(series, cycle)
    formula = series.formula()
    if formula is None:
        return leaderboard.series_standings(pairs, tie_break=series.tie_break)
    return [
        leaderboard.SeriesStanding(line.rank, line.player, float(line.total), line.events, float(line.counted[0]))
        for line in league.standings([(person, Decimal(repr(points))) for person, points in pairs], formula)
    ]


def season_points(series: Series, cycle: int) -> list[tuple[int, float]]:
    """(person id, points) of every result of a season, oldest first: the events played here
    (``SeriesResult``) and the league's past results brought in from its sheet
    (``SeriesPastResult``), which count alike: best-of and the tie-break see one list."""
    played = SeriesResult.objects.filter(series=series, cycle=cycle).values_list("tournament__start_at", "person_id", "points")
    past = SeriesPastResult.objects.filter(series=series, cycle=cycle).values_list("date", "person_id", "points")
    dated = [(timezone.localtime(at).date() if at else None, 1, person, points) for at, person, points in played]
    dated += [(day, 0, person, float(points)) for day, person, points in past]
    dated.sort(key=lambda r: (r[0] or timezone.localdate(), r[1]))
    return [(person, points) for _day, _here, person, points in dated]


def past_events(series: Series, cycle: int) -> int:
    """How many events not played here a season's imported results come from."""
    return SeriesPastResult.objects.filter(series=series, cycle=cycle).values("date", "event").distinct().count()


def past_results_of(person_id: int) -> list[dict]:
    """A person's league results brought in from a league's sheet, for his data export."""
    return [
        {"league": name, "season": cycle, "date": day.isoformat(), "event": event, "place": place, "prize": str(prize), "points": str(points)}
        for name, cycle, day, event, place, prize, points in SeriesPastResult.objects.filter(person_id=person_id)
        .order_by("date", "pk")
        .values_list("series__name", "cycle", "date", "event", "place", "prize", "points")
    ]


def formula_text(series: Series) -> str:
    """The league's formula with its parameters, as its page and the lobby print it (LB-01)."""
    if not series.is_league:
        return _("K·√(entries ÷ place), reading %(mode)s") % {"mode": series.lb_constant_mode}
    m = num(series.multiplier)
    text = {
        "SQRT": _("%(m)s × √(entries ÷ place)") % {"m": m},
        "SQRT_BUYIN": _("%(m)s × √(entries ÷ place) × (1 + log₁₀(buy-in + 0.25))") % {"m": m},
        "LINEAR": _("entries − place + 1"),
        "TABLE": _("points by place: %(table)s") % {"table": ", ".join(num(p) for p in series.points_table)},
        "TD3": _("The Tournament Director's points formula, brought in with the league"),
    }[series.scoring]
    if series.participation_points:
        text += " " + _("+ %(p)s for playing") % {"p": num(series.participation_points)}
    if series.is_league and series.knockout_points:
        text += " " + _("+ %(p)s per knockout in bounty events") % {"p": num(series.knockout_points)}
    if series.best_of:
        text += " · " + _("best %(n)s results count") % {"n": series.best_of}
    return text


# --- a league on the lobby screen, the phone and the player's history ---------------------------


# Every lobby snapshot of every tournament asks which series it counts for (most count for none):
# compiled once, and without the model's default ordering, which joins the series and the
# tournament for nothing (a tournament counts for one series at most).
_SERIES_OF = Compiled(lambda pk: SeriesTournament.objects.filter(tournament_id=pk).order_by().values_list("series_id")[:1], SeriesTournament)


def _league_of(tournament) -> dict | None:
    """The leaderboard data of the series the tournament counts for (cached), or None."""
    rows = _SERIES_OF.rows(getattr(tournament, "pk", tournament))
    link = rows[0][0] if rows else None
    return _cached_leaderboard(link) if link is not None else None


def league_panel(tournament) -> dict | None:
    """The standings panel of the league (or series) a tournament belongs to, for its lobby
    screens: name, season, formula and the top ten, from the leaderboard's cache."""
    data = _league_of(tournament)
    if data is None:
        return None
    top = data["standings"][:10]
    # Names as every public page shows them, in this event's style (one small read for the ten, once per snapshot).
    style = HouseRules.of(tournament).seat_lookup_names if hasattr(tournament, "settings") else "INITIAL"
    public = public_person_names([(line["person"], line["rank"]) for line in top], style)
    names = [public.get(line["person"], line["name"]) for line in top]
    return {
        "league": {
            "id": data["series"]["id"],
            "name": data["series"]["name"],
            "season": data["cycle"],
            "formula": data["series"]["formula"],
            "top": [{"rank": line["rank"], "name": name, "points": line["points"]} for line, name in zip(top, names, strict=True)],
            "players": len(data["standings"]),
        }
    }


def league_standing_by_person(tournament) -> dict[int, dict]:
    """{person id: his line in the standings of the tournament's league}, from the cache."""
    data = _league_of(tournament)
    if not data:
        return {}
    out = {}
    for line in data["standings"]:
        out[line["person"]] = {
            "name": data["series"]["name"],
            "season": data["cycle"],
            "rank": line["rank"],
            "points": line["points"],
            "players": len(data["standings"]),
        }
    return out


def league_points_by_entry(entries) -> dict[int, dict]:
    """{entry id: {"league": [{"series", "points", "place"}]}} for a player's history page."""
    entries = list(entries)
    if not entries:
        return {}
    person_ids = {e.person_id for e in entries}
    results = SeriesResult.objects.filter(person_id__in=person_ids, tournament_id__in={e.tournament_id for e in entries}).select_related("series")
    by_key: dict = {}
    for r in results:
        by_key.setdefault((r.tournament_id, r.person_id), []).append({"series": r.series.name, "series_id": r.series_id, "points": round(r.points, 2)})
    out = {}
    for e in entries:
        lines = by_key.get((e.tournament_id, e.person_id))
        if lines:
            out[e.pk] = {"league": lines}
    return out


def rounds_being_decided(tournament) -> dict[int, int]:
    """A heads-up bracket's rounds under way: ``{the round's loser place: losers it will have}``.
    Every loser of a round shares its place (``engine.loser_place``): while some of its matches
    are still to be played, the place's group is not complete. A bye has no loser; a match won
    by a walkover whose absent player left (his entry cancelled) places nobody, and a first-round
    match still waiting for a player may end so: it is not counted until it has a loser."""
    bracket = getattr(tournament, "bracket", None)
    if tournament.format != tournament.HEADS_UP or bracket is None or bracket.drawn_at is None:
        return {}
    rounds: dict[int, list[Match]] = {}
    for m in bracket.matches.select_related("loser"):
        rounds.setdefault(m.round, []).append(m)
    out = {}
    for round_no, matches in rounds.items():
        to_place = [
            m
            for m in matches
            if m.result != Match.BYE
            and not (m.status == Match.DONE and (m.loser is None or m.loser.status != Entry.BUSTED))
            and not (m.status != Match.DONE and round_no == 1 and not (m.player_a_id and m.player_b_id))
        ]
        done = sum(1 for m in to_place if m.status == Match.DONE)
        if 0 < done < len(to_place):
            out[engine.loser_place(bracket.size, round_no)] = len(to_place)
    return out
