"""A league's past results, in and out (the "league" kind of ``tournaments.imports.rules``).

A season in progress moves in with its standings: each row is one player's result in one event
played before the room used this system (its date, its name, the player, his place, prize and
the points the league gave him). It is kept as a ``SeriesPastResult`` of the league chosen by the
``league`` option, in its current season (or the one the ``season`` option names), never as a
``Tournament``: those events took no money here and stay out of the money reports. The standings count them beside the results of the
events played here (``selectors.season_points``), best-of and the tie-break alike.

The player is matched to a stored person by the duplicate rule the desk and the people import
follow (``people.rules.alike``, through ``imports.people.stored_person``); a player nobody stored
is created (once, however many rows name him); a row whose player could be several people, or
looks like someone he is not shown to be, is refused, saying how to tell them apart. A result is the same when the league, the date, the event's name and the person are:
unchanged when its place, prize and points are too, updated otherwise. A row of an event played
here in the league (the same date and name; the export writes those too) is unchanged when it
names one of its players (it is in already, from the event's own entries) and refused otherwise.

The export writes the league's current season, played here and brought in, in the import's
columns (the player's document, e-mail and phone with his name, to tell him from another of the
same name): an export comes back in as it went out.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from payouts.selectors import won_by_entry
from tdmanager.formatting import when
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import log_events
from tournaments.imports import rules as import_rules
from tournaments.imports.people import people_index, stored_person
from tournaments.imports.rules import CREATED, REFUSED, UNCHANGED, UPDATED, Column, Refused
from tournaments.models import Entry, Person
from tournaments.people.rules import name_key
from tournaments.people.text import clean_text

from .models import Series, SeriesPastResult, SeriesResult
from .services.series import standings_changed

PERSON_FIELDS = ("last_name", "first_name", "nickname", "document_id", "email", "phone")
COMPARED = ("place", "prize", "points")


def _fold(text: str) -> str:
    return import_rules.fold(text)


class LeagueImporter(import_rules.Importer):
    kind = "league"
    title = gettext_noop("League results")
    columns = (
        Column("date", gettext_noop("Date"), ("data", "giorno", "day"), required=True),
        Column("event", gettext_noop("Event"), ("torneo", "evento", "tournament", "tappa", "event name"), required=True),
        Column("last_name", gettext_noop("Last name"), ("cognome", "surname", "lastname", "family name"), required=True),
        Column("first_name", gettext_noop("First name"), ("nome", "firstname", "given name")),
        Column("nickname", gettext_noop("Nickname"), ("soprannome", "alias", "nick")),
        Column("place", gettext_noop("Place"), ("posizione", "piazzamento", "pos", "position", "rank", "classifica"), required=True),
        Column("prize", gettext_noop("Prize"), ("premio", "vincita", "winnings", "payout")),
        Column("points", gettext_noop("Points"), ("punti", "punteggio", "pts", "score"), required=True),
        Column("document_id", gettext_noop("Identity document"), ("documento", "document", "numero documento", "id number")),
        Column("email", gettext_noop("Email"), ("e-mail", "mail", "posta elettronica")),
        Column("phone", gettext_noop("Phone"), ("telefono", "cellulare", "cell", "mobile", "tel")),
    )
    options = {"league": gettext_noop("League"), "season": gettext_noop("Season")}

    def option_choices(self, name: str):
        """The leagues, newest first (a Sanremo leaderboard takes no past results); the season is
        typed (its name or number; none: the league's current one)."""
        if name != "league":
            return None
        return [(str(s.pk), s.name) for s in Series.objects.exclude(scoring=Series.SANREMO)]

    def check_options(self, options: dict) -> dict:
        """The league by its number or its name; a Sanremo leaderboard is no league."""
        given = str((options or {}).get("league") or "").strip()
        if not given:
            raise Refused(_("Choose the league the results are for."))
        series = None
        if given.isdigit():
            series = Series.objects.filter(pk=int(given)).first()
        if series is None:
            # Compared here, not by the database: SQLite folds the case of ASCII letters only ("GIOVEDÌ").
            found = [s for s in Series.objects.all() if s.name.casefold() == given.casefold()][:2]
            if len(found) > 1:
                raise Refused(_("Two leagues are named “%(name)s”: give the league's number.") % {"name": given[:80]})
            series = found[0] if found else None
        if series is None:
            raise Refused(_("No league “%(name)s”.") % {"name": given[:80]})
        if not series.is_league:
            raise Refused(_("“%(name)s” is a leaderboard, not a league: past results come in only for a league.") % {"name": series.name})
        return {"league": series.pk, "league_name": series.name, "season": _season(series, str(options.get("season") or "").strip())}

    def parse(self, cells: dict, options: dict) -> dict:
        values = {}
        for name in ("event", *PERSON_FIELDS):
            raw = import_rules.cell_text(cells.get(name))
            limit = (SeriesPastResult if name == "event" else Person)._meta.get_field(name).max_length
            if len(raw) > limit:
                raise Refused(_("%(field)s is longer than %(n)s characters.") % {"field": self.label(name), "n": limit})
            try:
                values[name] = clean_text(raw)
            except ValidationError as exc:
                raise Refused(_("%(field)s: %(e)s") % {"field": self.label(name), "e": " ".join(exc.messages)}) from None
        if not values["last_name"]:
            raise Refused(_("The last name is missing."))
        if not values["event"]:
            raise Refused(_("The event's name is missing."))
        if values["email"]:
            try:
                validate_email(values["email"])
            except ValidationError:
                raise Refused(_("E-mail: “%(value)s” is not an e-mail address.") % {"value": values["email"][:60]}) from None
        day = import_rules.cell_date(cells.get("date"), lambda: self.label("date"), required=True)
        # Up to tomorrow: an event scheduled for tomorrow may have been started tonight, and its
        # results carry the date it was scheduled for (as the export writes them).
        if not dt.date(2000, 1, 1) <= day <= timezone.localdate() + dt.timedelta(days=1):
            raise Refused(_("Date: %(value)s is not the date of an event already played.") % {"value": when(day, "date")})
        values["date"] = day
        values["place"] = import_rules.cell_int(cells.get("place"), lambda: self.label("place"), minimum=1)
        values["prize"] = import_rules.cell_decimal(cells.get("prize"), lambda: self.label("prize"), required=False) or Decimal("0.00")
        if values["prize"] < 0:
            raise Refused(_("%(what)s cannot be negative.") % {"what": self.label("prize")})
        values["points"] = import_rules.cell_decimal(cells.get("points"), lambda: self.label("points"))
        if values["points"] < 0:
            raise Refused(_("%(what)s cannot be negative.") % {"what": self.label("points")})
        return values

    # -- comparing with what is stored ------------------------------------------------------

    def plan(self, rows, options):
        series = Series.objects.get(pk=options["league"])
        index, new_people = people_index(), people_index([])  # the people the file brings, as it names them
        stored = {(r.date, _fold(r.event), r.person_id): r for r in SeriesPastResult.objects.filter(series=series)}
        # The events played here, by date and name: their rows (the export writes them) are in
        # already, found among the event's own players by name, whoever else bears it.
        played: dict = {}
        for start, name, person, first, last in SeriesResult.objects.filter(series=series).values_list(
            "tournament__start_at", "tournament__name", "person_id", "person__first_name", "person__last_name"
        ):
            played.setdefault((timezone.localtime(start).date(), _fold(name)), {}).setdefault(name_key(first, last), []).append(person)
        seen: dict = {}
        for row in rows:
            if row.status == REFUSED:
                continue
            v = row.values
            here = played.get((v["date"], _fold(v["event"])))
            if here is not None:
                if here.get(name_key(v["first_name"], v["last_name"])):  # the name as the duplicate rule compares it
                    row.status = UNCHANGED  # an event played here, as the export writes it: in already
                else:
                    row.status = REFUSED
                    row.reason = _("%(event)s of %(date)s was played here: its results are its players' own, not imported.") % {
                        "event": v["event"],
                        "date": when(v["date"], "date"),
                    }
                continue
            try:
                person = stored_person(index, v) or stored_person(new_people, v)
            except Refused as exc:
                row.status, row.reason = REFUSED, exc.reason
                continue
            if person is None:
                person = _NewPerson(v)
                new_people.add(person)
            v["person"] = person
            key = (v["date"], _fold(v["event"]), ("new", id(person)) if isinstance(person, _NewPerson) else person.pk)
            if key in seen:
                row.status = REFUSED
                row.reason = _("Row %(n)s already gives this player's result in this event.") % {"n": seen[key]}
                continue
            seen[key] = row.line
            old = stored.get(key)
            if old is None:
                row.status = CREATED
                continue
            row.target = old
            row.changes = {name: (getattr(old, name), v[name]) for name in COMPARED if getattr(old, name) != v[name]}
            row.status = UPDATED if row.changes else UNCHANGED

    # -- writing ---------------------------------------------------------------------------

    def write(self, rows, options, actor) -> dict:
        # Locked: the points of an event played here are not given while its season changes.
        series = Series.objects.select_for_update().get(pk=options["league"])
        people = {}
        for row in rows:
            person = row.values["person"]
            if isinstance(person, _NewPerson) and id(person) not in people:
                p = Person(**{k: v for k, v in person.values.items() if v})
                p.fold_search_text()  # as save() does: bulk_create below does not call it
                people[id(person)] = p
        Person.objects.bulk_create(list(people.values()), batch_size=500)  # the keys come back (PostgreSQL, SQLite ≥ 3.35)
        if people:  # each new person's own line, as the desk and the people import write it: his access log reads it
            log_events(None, actor, [(Action.PEOPLE_PERSON_CREATED, {"person": p.pk, "name": p.full_name, "imported": True}) for p in people.values()])
        created, updated = [], 0
        for row in rows:
            v = row.values
            person = people[id(v["person"])] if isinstance(v["person"], _NewPerson) else v["person"]
            if row.status == CREATED:
                created.append(
                    SeriesPastResult(
                        series=series,
                        cycle=options.get("season") or series.current_cycle,
                        date=v["date"],
                        event=v["event"],
                        person=person,
                        place=v["place"],
                        prize=v["prize"],
                        points=v["points"],
                    )
                )
            elif row.status == UPDATED:
                SeriesPastResult.objects.filter(pk=row.target.pk).update(place=v["place"], prize=v["prize"], points=v["points"])
                updated += 1
        SeriesPastResult.objects.bulk_create(created, batch_size=500)
        standings_changed(series.pk)
        return {"league": series.pk, "results": len(created) + updated, "people_created": len(people)}

    # -- the export ------------------------------------------------------------------------

    def export(self, options):
        series = Series.objects.get(pk=options["league"])
        headers = [c.label for c in self.columns]
        lines = []
        season = options.get("season") or series.current_cycle
        for r in SeriesPastResult.objects.filter(series=series, cycle=season).select_related("person"):
            lines.append((r.date, r.event, r.person, r.place, r.prize, r.points))
        played = SeriesResult.objects.filter(series=series, cycle=season).select_related("tournament", "person")
        prizes = {}
        for r in played:
            t = r.tournament
            if t.pk not in prizes:
                prizes[t.pk] = _prizes_by_person(t)
            day = timezone.localtime(t.start_at).date()
            lines.append((day, t.name, r.person, r.place, prizes[t.pk].get(r.person_id, Decimal("0.00")), Decimal(repr(r.points)).quantize(Decimal("0.01"))))
        lines.sort(key=lambda line: (line[0], line[1], line[3], line[2].last_name, line[2].first_name))
        # The player's document, e-mail and phone too: they tell him from another of the same name
        # when the sheet comes back (the director's file, as the people's export is).
        rows = [
            [day, event, p.last_name, p.first_name, p.nickname, place, prize, points, p.document_id, p.email, p.phone]
            for day, event, p, place, prize, points in lines
        ]
        return headers, rows

    def export_name(self, options):
        return _("league-%(n)s") % {"n": options["league"]}


def _season(series: Series, given: str) -> int:
    """The season the results come in to, or the export writes: by its name (a league brought in
    from The Tournament Director names its seasons) or its number; the league's current one when
    none is given."""
    if not given:
        return series.current_cycle
    names = {str(v).casefold(): int(k) for k, v in (series.season_names or {}).items()}
    if given.casefold() in names:
        return names[given.casefold()]
    if given.isdigit() and 1 <= int(given) <= series.current_cycle:
        return int(given)
    raise Refused(_("The league “%(league)s” has no season “%(name)s”.") % {"league": series.name, "name": given[:80]})


def _prizes_by_person(t) -> dict[int, Decimal]:
    """What each player won in the event (cash, his entries together), from the payouts."""
    won = won_by_entry(t)
    out: dict[int, Decimal] = {}
    for pk, person in Entry.objects.filter(tournament=t, pk__in=[int(k) for k in won]).values_list("pk", "person_id"):
        out[person] = out.get(person, Decimal("0.00")) + Decimal(won[str(pk)]["amount"])
    return out


class _NewPerson:
    """A player no stored person is, as the rows name him: created once when the file comes in."""

    def __init__(self, values: dict):
        self.values = {k: values.get(k, "") for k in PERSON_FIELDS}
        self.pk = None
        self.first_name, self.last_name = self.values["first_name"], self.values["last_name"]
        self.document_id, self.email, self.phone = self.values["document_id"], self.values["email"], self.values["phone"]
        self.birth_date = None
        self.display_name = f"{self.first_name} {self.last_name}".strip()


LEAGUE = import_rules.register(LeagueImporter())
