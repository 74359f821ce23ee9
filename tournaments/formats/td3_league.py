"""A TD3 event's league: TD3's league and season as the room's league and its seasons, and the points.

TD3 names the league and the season each event counts for (``LeagueName``, ``SeasonName``). The
league here is the room's league (a ``Series``) of that name, made when none exists, scored by
TD3's own formula (``Series.TD3``: its text kept in ``td3_formula``); each season name is a
season of it (a cycle number, its name kept in ``season_names``), numbered as the seasons first
come in, the latest season the league's current one.

Each player of a played event gets his ``SeriesResult``: TD3's place, the players of the event,
the players he knocked out, and the points TD3 gave him: the event's own points formula
(``Financials.PointsForPlaying``) evaluated for him by the interpreter of TD3's formula language
(``imports.td3.formula``, with his variables from ``imports.td3.variables``), plus the points TD3's
director adjusted by hand. The standings then add them as TD3's season statistics do.
"""

from __future__ import annotations

from decimal import Decimal

from django.utils import timezone

from tournaments.imports.td3 import formula as td3_formula
from tournaments.imports.td3 import model

from .models import Series, SeriesResult, SeriesTournament
from .services.series import standings_changed


def series_for(name: str) -> Series:
    """The room's league named ``name``: the one of that name (a TD3 league first), else a new one."""
    same = list(Series.objects.select_for_update().filter(name=name).order_by("id"))
    found = next((s for s in same if s.scoring == "TD3"), same[0] if same else None)
    if found is None:
        found = Series.objects.create(name=name[:160], scoring="TD3", cycle_length=None, participants=Series.PLAYERS)
    return found


def season_of(series: Series, name: str) -> int:
    """The season ``name`` of the league as a cycle number, numbered when it first comes in."""
    names = {str(k): v for k, v in (series.season_names or {}).items()}
    for number, known in names.items():
        if known == name:
            return int(number)
    if names:
        number = max(int(k) for k in names) + 1
    else:  # a league the room kept here already goes on with a season after its own
        played = SeriesResult.objects.filter(series=series).exists() or series.past_results.exists()
        number = series.current_cycle + 1 if played else 1
    names[str(number)] = name
    series.season_names = names
    series.current_cycle = max(series.current_cycle, number)
    series.save(update_fields=["season_names", "current_cycle"])
    return number


def points_of(event: model.Event) -> dict[str, Decimal]:
    """Each entrant's points as TD3 gives them: its formula's, plus the director's adjustment."""
    out = {}
    for player in event.entrants():
        value = td3_formula.points(event.points_formula, td3_formula.variables_for(event, player)) if event.points_formula.strip() else Decimal(0)
        out[player.uuid] = value + player.points_adjustment
    return out


def write(event: model.Event, tournament, entries, people: dict) -> None:
    if not event.league_name.strip():
        return
    series = series_for(event.league_name.strip())
    if series.scoring == "TD3" and event.points_formula and series.td3_formula != event.points_formula:
        series.td3_formula = event.points_formula
        series.save(update_fields=["td3_formula"])
    cycle = season_of(series, event.season_name.strip() or event.league_name.strip())
    finished = event.state == model.FINISHED
    players = event.entrants() if finished else ()
    SeriesTournament.objects.create(
        series=series,
        tournament=tournament,
        cycle=cycle if finished else None,
        participants=len(players) if finished else None,
        scored_at=(event.end or timezone.now()) if finished else None,
    )
    if finished:
        places, knockouts, points = event.places(), event.knockouts(), points_of(event)
        sharing: dict[int, int] = {}
        for place in places.values():
            sharing[place] = sharing.get(place, 0) + 1
        results, seen = [], set()
        for player in sorted(players, key=lambda p: places.get(p.uuid, 10**6)):
            person = people.get(player.uuid)
            if person is None or person in seen or player.uuid not in places:
                continue  # two TD3 ids the director took as one person: his better result counts
            seen.add(person)
            place = places[player.uuid]
            results.append(
                SeriesResult(
                    series=series,
                    cycle=cycle,
                    tournament=tournament,
                    person_id=person,
                    place=place,
                    shared_with=sharing[place],
                    participants=len(players),
                    points=float(points[player.uuid]),
                    knockouts=knockouts.get(player.uuid, 0),
                )
            )
        SeriesResult.objects.bulk_create(results, batch_size=500)
    touched({series.pk})


def touched(series_ids) -> None:
    for pk in series_ids:
        standings_changed(pk)
