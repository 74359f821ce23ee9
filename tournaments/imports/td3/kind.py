"""Moving in from The Tournament Director: TD3's save files as a kind of import ("td3").

The upload is one ``.tdt`` or a ``.zip`` of them (``files.unpack``; several files sent at once
are kept as one zip, ``files.bundle``). Every file is read first: one that cannot be read
refuses the whole run, naming the file and the line and column (``Td3FileError`` as the
sheets' ``SheetError``: nothing is written). Then the preview's rows, compared with what is
stored:

- one row per event (its file): created when TD3's tournament id is new here, unchanged when
  the same file came in already (its digest), updated when a file of that event saved later
  differs (more busts); its cells say what comes in: the players new and matched, the entries,
  places and prizes, the league and season. The same event in two files of one run comes in
  once, from the file that recorded more of it (more busts, then the later end).
- one row per TD3 player of the run: unchanged when his TD3 id is stored (the person he is
  here), created when nobody here looks like him, a possible duplicate when a person the room
  typed itself (one with no TD3 id) has his nickname or name, or shares his e-mail or phone by
  the room's duplicate rule (``people.rules.alike``): the director takes him as that person, or
  as a new one. A proposal left undecided brings him in as a new person: his events need him.
  Two TD3 ids are always two people, whatever their names.

Confirmed, ``write`` (inside the import's one transaction) makes the people and their TD3 ids,
then each event created or updated: its tournament, blind structure and entries
(``archive.write_event``), and what the apps above the tournaments add to it (the busts and
knockouts, the prizes, the league: ``write_results``, given by the kind the formats register).
"""

from __future__ import annotations

import hashlib
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tdmanager.sheets import SheetError
from tournaments.imports import rules as importing
from tournaments.imports.people import _shared as shared_by
from tournaments.imports.rules import CREATED, DUPLICATE, UNCHANGED, UPDATED, Column, Preview, Row
from tournaments.imports.td3 import archive, files, model
from tournaments.models import LedgerRow, Person, Td3Event, Td3Player, Tournament
from tournaments.people.selectors import PeopleIndex

#: the key of the options where the preview leaves what ``write`` needs (never from a request)
PLAN = "@td3"


class Td3Importer(importing.Importer):
    kind = "td3"
    title = gettext_noop("From The Tournament Director")
    reads_files = True
    several = True
    accept = ".tdt,.zip"
    exports = False
    columns = (
        Column("file", gettext_noop("File")),
        Column("event", gettext_noop("Event")),
        Column("date", gettext_noop("Date")),
        Column("state", gettext_noop("State")),
        Column("player", gettext_noop("Player")),
        Column("events", gettext_noop("Events")),
        Column("players_new", gettext_noop("New players")),
        Column("players_matched", gettext_noop("Players already here")),
        Column("entries", gettext_noop("Entries")),
        Column("rebuys", gettext_noop("Rebuys")),
        Column("addons", gettext_noop("Add-ons")),
        Column("places", gettext_noop("Places")),
        Column("prizes", gettext_noop("Prizes")),
        Column("league", gettext_noop("League")),
        Column("season", gettext_noop("Season")),
    )

    def preview_files(self, data: bytes, filename: str, options: dict) -> Preview:
        try:
            saves = files.events(files.unpack(data, filename))
        except files.Td3FileError as exc:
            raise SheetError("td3_refused", _("%(file)s: %(reason)s Nothing was imported.") % {"file": exc.filename, "reason": exc.message}) from None
        chosen = _one_per_event(saves)
        players = _players(chosen.values())
        linked = dict(Td3Player.objects.filter(uuid__in=list(players)).values_list("uuid", "person_id"))
        stored_events = _stored_events(chosen)
        index = _Proposals(set(Td3Player.objects.values_list("person_id", flat=True)))
        rows, summary = [], []
        line = 0
        for save in saves:
            line += 1
            event = save.event
            row = Row(line, {"file": save.name, "event": event.title, "date": _date(event), "state": _state(event)})
            key = event_key(event)
            if chosen[key] is not save:
                row.status, row.reason = UNCHANGED, _("The same event as %(file)s, which recorded more of it.") % {"file": chosen[key].name}
            else:
                stored = stored_events.get(key)
                row.status = CREATED if stored is None else UNCHANGED if stored.digest == save.digest else UPDATED
                row.target = stored
                row.values = {"save": save}
                if row.status == UPDATED and _played_here(stored.tournament):
                    row.status = UNCHANGED
                    row.reason = _("Its tournament has been played or sold here since it came in: it is left as it is.")
                elif row.status == UPDATED:
                    row.changes = {"file": (stored.filename, save.name)}
            counts = _counts(event, linked)
            row.cells.update(counts)
            rows.append(row)
            summary.append({"row": row.line, "status": row.status, "reason": row.reason, **{k: _plain(v) for k, v in row.cells.items()}})
        for uuid, (player, first_file) in players.items():
            line += 1
            row = Row(line, {"player": player.name, "file": first_file, "events": sum(1 for s in chosen.values() if s.event.player(uuid))})
            row.values = {"uuid": uuid, **_person_values(player)}
            if uuid in linked:
                row.status, row.target = UNCHANGED, linked[uuid]
            else:
                matches = index.alike(row.values, player)
                if matches:
                    row.status = DUPLICATE
                    row.matches = [(person.pk, person.display_name, by, None) for person, by in matches[:5]]
            rows.append(row)
        options = {**options, PLAN: {"linked": linked}}
        return Preview(self.kind, [], [], rows, options, files=summary)

    def combine(self, uploads):
        """Several save files (or zips of them) sent at once: one zip of all their save files."""
        if len(uploads) == 1:
            return uploads[0]
        try:
            return "td3-files.zip", files.bundle([f for name, data in uploads for f in files.unpack(data, name)])
        except files.Td3FileError as exc:
            raise importing.Refused(_("%(file)s: %(reason)s Nothing was imported.") % {"file": exc.filename, "reason": exc.message}) from None

    def take_as(self, row, pk):
        if "uuid" not in row.values or pk not in {m[0] for m in row.matches}:
            return False
        person = Person.objects.filter(pk=pk).first()
        if person is None:
            return False
        row.target, row.status = person.pk, UPDATED
        row.changes = {"td3_id": ("", row.values["uuid"])}
        return True

    def write(self, rows: list[Row], options: dict, actor) -> dict:
        """People first (every one of the run: the events need them all; a kind of whole files
        is given all its rows), then each event created or updated."""
        people = dict(options[PLAN]["linked"])
        new_people, links = [], []
        for row in rows:
            if "uuid" not in row.values or row.values["uuid"] in people:
                continue
            uuid = row.values["uuid"]
            if row.status == UPDATED and row.target:
                people[uuid] = row.target
            else:
                person = Person(**{k: v for k, v in row.values.items() if k != "uuid"})
                person.fold_search_text()
                new_people.append((uuid, person))
        Person.objects.bulk_create([p for _uuid, p in new_people], batch_size=500)
        for uuid, person in new_people:
            people[uuid] = person.pk
        now = timezone.now()
        for row in rows:
            if "uuid" in row.values and row.values["uuid"] not in options[PLAN]["linked"]:
                links.append(Td3Player(uuid=row.values["uuid"], person_id=people[row.values["uuid"]], imported_at=now))
        Td3Player.objects.bulk_create(links, batch_size=500)
        written = 0
        for row in rows:
            if "save" in row.values and row.status in (CREATED, UPDATED):
                save = row.values["save"]
                if row.target is not None:
                    self.clear_results(row.target.tournament)
                tournament, entries = archive.write_event(save, event_key(save.event), people, row.target)
                self.write_results(save.event, tournament, entries, people)
                written += 1
        return {"people": len(new_people), "events": written}

    def clear_results(self, tournament) -> None:
        """Before an event is written again (its file saved later): what ``write_results`` wrote."""

    def write_results(self, event: model.Event, tournament, entries: archive.Entries, people: dict) -> None:
        """What the apps above the tournaments keep of a played event (busts, prizes, league):
        nothing here; the kind the formats register adds it."""


def _played_here(tournament) -> bool:
    """An imported tournament the room has used since (started, or sold at the desk): a file saved
    later no longer rewrites it."""
    return tournament.status not in (Tournament.PLANNED, Tournament.FINISHED) or LedgerRow.objects.filter(tournament=tournament).exists()


def _one_per_event(saves: list[files.SaveFile]) -> dict[str, files.SaveFile]:
    """The file each event comes in from: the one that recorded more of it."""

    def recorded(save: files.SaveFile):
        busts = sum(1 for p in save.event.players for e in p.entries if e.bust)
        entries = sum(len(p.entries) for p in save.event.players)
        end = save.event.end.timestamp() if save.event.end else 0
        return (busts, entries, end)

    out: dict[str, files.SaveFile] = {}
    for save in saves:
        key = event_key(save.event)
        if key not in out or recorded(save) > recorded(out[key]):
            out[key] = save
    return out


def event_key(event: model.Event) -> str:
    """An event as TD3 keeps it: its tournament id and its start (a room that copies last week's
    file for next week's keeps the id); an event not started by its id and title."""
    if event.start is not None:
        return f"{event.uuid[:80]}@{int(event.start.timestamp() * 1000)}"
    return f"{event.uuid[:80]}@planned:{hashlib.sha256(event.title.encode()).hexdigest()[:20]}"


def _stored_events(chosen: dict[str, files.SaveFile]) -> dict[str, Td3Event]:
    """The events of the run imported before, by key; an event imported while planned that has
    been played since is that event (the same id and title, no other played event of it here)."""
    stored = {e.key: e for e in Td3Event.objects.filter(uuid__in={s.event.uuid[:80] for s in chosen.values()}).select_related("tournament")}
    out = {key: stored[key] for key in chosen if key in stored}
    for key, save in chosen.items():
        if key in out or save.event.start is None:
            continue
        planned = stored.get(event_key(model.Event(version="", uuid=save.event.uuid, title=save.event.title)))
        if planned is not None and planned not in out.values():
            out[key] = planned
    return out


def _players(saves) -> dict[str, tuple[model.Player, str]]:
    """Each TD3 player of the run once, as the file that says most of him names him."""
    out: dict[str, tuple[model.Player, str]] = {}
    for save in sorted(saves, key=lambda s: s.name):
        for player in save.event.players:
            if not player.uuid:
                continue
            known = out.get(player.uuid)
            if known is None or _richness(player) > _richness(known[0]):
                out[player.uuid] = (player, known[1] if known else save.name)
    return out


def _richness(player: model.Player) -> int:
    return sum(1 for v in (player.first_name, player.last_name, *player.emails, *player.phones) if v)


def _person_values(player: model.Player) -> dict:
    """A TD3 player as a person here: his names, else his nickname as the name he goes by."""
    first, last, nick = player.first_name[:80], player.last_name[:80], player.nickname[:80]
    if not first and not last:
        first, last, nick = "", nick or player.uuid[:80], ""
    elif not last:
        first, last = "", first
    email = player.emails[0] if player.emails else ""
    return {
        "first_name": first,
        "last_name": last,
        "nickname": nick if nick != f"{first} {last}".strip() else "",
        "email": email[:254] if _is_email(email) else "",
        "phone": player.phones[0][:40] if player.phones else "",
    }


def _is_email(value: str) -> bool:
    try:
        validate_email(value)
    except ValidationError:
        return False
    return True


class _Proposals:
    """The people the room typed itself (no TD3 id) a TD3 player may be: the same nickname or
    name (folded), or alike by the room's duplicate rule (a shared e-mail or phone too)."""

    def __init__(self, td3_people: set[int]):
        people = [p for p in Person.objects.all() if p.pk not in td3_people]
        self.index = PeopleIndex(people)
        self.by_name: dict[str, list[Person]] = {}
        for person in people:
            for key in {importing.fold(person.nickname), importing.fold(f"{person.first_name} {person.last_name}")}:
                if key:
                    self.by_name.setdefault(key, []).append(person)

    def alike(self, values: dict, player: model.Player) -> list[tuple[Person, str]]:
        found: dict[int, tuple[Person, str]] = {}
        for key in (importing.fold(player.nickname), importing.fold(f"{player.first_name} {player.last_name}")):
            for person in self.by_name.get(key, ()) if key else ():
                found.setdefault(person.pk, (person, _("same nickname or name")))
        for match in self.index.alike(values):
            found.setdefault(match.person.pk, (match.person, shared_by(match.by)))
        return list(found.values())


def _counts(event: model.Event, linked: dict) -> dict:
    entrants = event.entrants() if event.state != model.PLANNED else event.players
    paid = [p for p in event.prizes if p.awarded_to]
    return {
        "players_new": sum(1 for p in entrants if p.uuid not in linked),
        "players_matched": sum(1 for p in entrants if p.uuid in linked),
        "entries": sum(1 for p in event.players for e in p.entries if e.kind in (model.BUYIN, model.REENTRY)),
        "rebuys": sum(len(p.rebuys) for p in event.players),
        "addons": sum(len(p.addons) for p in event.players),
        "places": len(event.places()) if event.state == model.FINISHED else 0,
        "prizes": sum((p.amount for p in paid), Decimal(0)),
        "league": event.league_name,
        "season": event.season_name,
    }


def _date(event: model.Event):
    return event.date(timezone.get_current_timezone())


def _state(event: model.Event) -> str:
    return {model.PLANNED: _("planned"), model.RUNNING: _("not finished"), model.FINISHED: _("played")}[event.state]


def _plain(value):
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, bool | int | str) or value is None:
        return value
    return str(value)
