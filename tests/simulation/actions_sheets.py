"""Moving in, in the simulated days: the director brings blind structures and payout charts in
from sheets (CSV or XLSX, headers in Italian or English), sometimes with a typing slip that
refuses the whole file, and applies a chart to an event of the day. The invariants then export
what came in and read it back (``invariants.sheets_come_back_as_they_went``). A sheet of people
comes in with its possible duplicates decided row by row on its kept preview. A room's history
comes in from The Tournament Director's save files too (``import_td3_files``): its events join
the day's, and every invariant reads them."""

from __future__ import annotations

from django.utils import translation

from payouts import services as payouts
from payouts.models import PayoutTemplate
from tdmanager import sheets
from tdmanager.errors import DomainError
from tests.tournaments import td3_files
from tournaments.imports import rules as import_rules
from tournaments.imports import services as import_services
from tournaments.imports.td3 import files as td3_bundle
from tournaments.models import BlindStructure, Person, Td3Event, Tournament
from tournaments.people import rules as people_rules

from .actions import action, pick
from .world import FIRST_NAMES, Skip, World

#: the columns of a payout chart as a room's Italian spreadsheet heads them
CHART_HEADERS = ["Iscritti da", "Iscritti a", "Posto", "Percentuale"]


def _counts(p) -> str:
    c = p.counts()
    return f"{c['created']} new, {c['updated']} changed, {c['unchanged']} as they were"


@action(weight=1)
def import_structure_sheet(world: World, rng) -> str:
    """The director brings a structure in from a sheet: one of the room's, exported as CSV or
    XLSX in Italian or English, under its own name (nothing changes; refused if a started event
    plays it and a level differs) or as a copy with a level retyped; now and then with a big
    blind typed lower than the level before, which refuses the whole file."""
    st = pick(rng, BlindStructure.objects.order_by("pk"), "structure")
    fmt, language = rng.choice(sheets.FORMATS), rng.choice(("it", "en"))
    with translation.override(language):  # the sheet's language; the director reads the answer in his own
        data, filename = import_rules.export_file("structure", fmt, {"structure": str(st.pk)})
    sheet = sheets.read(data, filename)
    rows = [list(cells) for _line, cells in sheet.rows]
    levels = [r for r in rows if sheets.text(r[3])]  # the big blind's column: a level's row
    name, slip = st.name, rng.random() < 0.2
    if rng.random() < 0.5 or slip:
        name = f"{st.name[:90]} (sim {world.day}.{rng.randrange(1000)})"
        level = rng.choice(levels[1:] or levels)
        if slip and len(levels) > 1:
            level[2], level[3] = 1, 1  # small and big blind 1: below the level before
        else:
            level[4] = int(sheets.text(level[4]) or 0) + 100  # a bigger ante
    data = sheets.write(fmt, sheet.headers, rows, separator=";" if language == "it" else ",")
    p = import_services.run_import("structure", data, filename, actor=world.director, options={"name": name})
    world.imported.append(("structure", BlindStructure.objects.get(name=name).pk))
    return f"imported structure {name!r} from {fmt} in {language}: {_counts(p)}"


def _percents(places: int) -> list[int]:
    """Whole percentages for ``places``, falling with the place and adding up to 100."""
    weights = list(range(places, 0, -1))
    out = [100 * w // sum(weights) for w in weights]
    out[0] += 100 - sum(out)
    return out


@action(weight=1)
def import_payout_chart(world: World, rng) -> str:
    """The director brings the venue's paper chart in (bands of field sizes, each its
    percentages, the band written on its first row only, equal places as a range), now and then
    with a band that does not add up to 100 (the file is refused); then applies it to an event of
    the day, whose field size picks the band (or no band fits: refused)."""
    rows, low, bands = [], 2, rng.randint(1, 3)
    for band in range(bands):
        high = low + rng.randint(3, 40)
        open_ended = band == bands - 1 and rng.random() < 0.3  # "and more"
        percents = _percents(rng.randint(1, min(low, 6)))
        place = 1
        while place <= len(percents):
            last = place  # places paid alike go on one row: "2-3"
            while last < len(percents) and percents[last] == percents[place - 1]:
                last += 1
            first_row = place == 1
            rows.append(
                [low if first_row else "", ("" if open_ended else high) if first_row else "", f"{place}-{last}" if last > place else place, percents[place - 1]]
            )
            place = last + 1
        low = high + 1
    if rng.random() < 0.15:
        rows[-1][3] += 1  # a band that adds up to 101
    name = f"Sim chart {world.day}.{rng.randrange(100)}"
    data = sheets.write(sheets.CSV, CHART_HEADERS, rows, separator=";")
    p = import_services.run_import("payouts", data, f"{name}.csv", actor=world.director)
    template = PayoutTemplate.objects.get(name=name)
    world.imported.append(("payouts", template.pk))
    said = f"imported payout chart {name!r}: {_counts(p)}"
    events = list(Tournament.objects.filter(pk__in=world.events, status__in=(Tournament.REGISTERING, Tournament.RUNNING)).order_by("pk"))
    if events and rng.random() < 0.5:
        t = rng.choice(events)
        world.touched.add(t.pk)
        payouts.apply_template(t, template, actor=world.director)
        said += f"; applied to {t.name}"
    return said


def _alone(people) -> list[Person]:
    """The people no other stored person shares a name with (a namesake row names one of them)."""
    out = []
    for p in people:
        if Person.objects.filter(first_name=p.first_name, last_name=p.last_name).count() == 1:
            out.append(p)
    return out


@action(weight=1)
def import_people_choosing(world: World, rng) -> str:
    """The director brings in a sheet of three possible duplicates, kept between its preview and
    the confirmation, and decides each on its row: a real namesake of a player of the day (born
    another day) a new person, a row naming a player (his e-mail) that same person, a row with
    another player's document left out. Now and then he first imports that row as new: refused,
    naming the row and whose document it is, nothing written. The preview names the stored
    person each row looks like; once in, no two people hold one document."""
    regulars = Person.objects.filter(pk__in=world.people, first_name__in=FIRST_NAMES, banned=False).order_by("pk")
    chosen = _alone(rng.sample(list(regulars), min(12, regulars.count())))
    namesake = next(iter(chosen), None)
    player = next((p for p in chosen if p != namesake and not p.email), None)
    holder = next((p for p in chosen if p not in (namesake, player) and p.document_id and Person.objects.filter(document_id=p.document_id).count() == 1), None)
    if None in (namesake, player, holder):
        raise Skip("three players of the day to look like")
    tag = rng.randrange(10**6)
    email = f"sim{world.seed % 1000}.{tag}@example.org"
    document = holder.document_id.lower().replace(" ", "")  # as another sheet writes it
    sheet = (
        "Cognome;Nome;Documento;Data di nascita;Email\r\n"
        f"{namesake.last_name};{namesake.first_name};;02/02/1982;\r\n"
        f"{player.last_name};{player.first_name};;;{email}\r\n"
        f"Doc{tag};Ugo;{document};;\r\n"
    ).encode()
    kept = import_services.keep_file("people", sheet, "soci.csv", actor=world.director)
    p = import_services.preview("people", sheet, "soci.csv")
    looks = {r.line: {pk for pk, _name, _by, _line in r.matches} for r in p.rows if r.status == import_rules.DUPLICATE}
    expected = {2: {namesake.pk}, 3: {player.pk}, 4: {holder.pk}}
    if looks != expected:
        raise AssertionError(f"the preview's possible duplicates are {looks}, not {expected}")
    before = Person.objects.count()
    choices = {"2": "new", "3": str(player.pk), "4": "skip"}
    if rng.random() < 0.3:
        try:
            import_services.import_kept(kept, actor=world.director, choices={**choices, "4": "new"})
        except DomainError as exc:
            refused = exc.extra.get("refused") or [{}]
            if exc.code != "duplicate_document" or refused[0].get("row") != 4 or holder.display_name not in refused[0].get("reason", ""):
                raise AssertionError(f"another's document imported as new was refused as {exc.as_dict()}") from None
        else:
            raise AssertionError("a row with another player's document was imported as a new person")
        if Person.objects.count() != before:
            raise AssertionError("a refused import wrote people")
    done = import_services.import_kept(kept, actor=world.director, choices=choices)
    counts = done.counts()
    if (counts["created"], counts["updated"], counts["duplicate"]) != (1, 1, 1) or Person.objects.count() != before + 1:
        raise AssertionError(f"the rows chosen new, same and left out came in as {counts}")
    if Person.objects.get(pk=player.pk).email != email:
        raise AssertionError(f"the row chosen as {player.full_name} did not bring him its e-mail")
    key = people_rules.document_key(holder.document_id)
    holders = [q.pk for q in Person.objects.exclude(document_id="").only("document_id") if people_rules.document_key(q.document_id) == key]
    if holders != [holder.pk]:
        raise AssertionError(f"{holder.full_name}'s document is held by {holders}")
    return f"people sheet: {namesake.full_name}'s namesake new, {player.full_name} the same, a row with {holder.full_name}'s document left out"


@action(weight=1)
def import_td3_files(world: World, rng) -> str:
    """The director brings TD3 save files in: a played event (a rebuy, a re-entry, an add-on, a
    chop, a bust shared by two hitmen) under an id of its own, now and then with a planned one,
    the same files again (nothing changes) or a file cut short (the whole run refused, nothing
    written). Its tournaments join the day's: every invariant reads them."""
    ident = f"sim-{world.day}-{rng.randrange(10**9)}"
    played = td3_files.club_night(title=f"Sim TD3 {ident}").replace('UUID: "ev-37"', f'UUID: "{ident}"')
    named = [(f"{ident}.tdt", played.encode())]
    if rng.random() < 0.3:
        named.append((f"{ident}-next.tdt", td3_files.planned().replace('UUID: "ev-37"', f'UUID: "{ident}-next"').encode()))
    if rng.random() < 0.15:
        named.append((f"{ident}-cut.tdt", played[: rng.randrange(200, len(played) - 10)].encode()))
        before = Td3Event.objects.count()
        try:
            import_services.run_import("td3", td3_bundle.bundle(named), "td3.zip", actor=world.director)
        finally:
            assert Td3Event.objects.count() == before, "a refused run of TD3 files wrote events"
    p = import_services.run_import("td3", td3_bundle.bundle(named), "td3.zip", actor=world.director)
    again = import_services.run_import("td3", td3_bundle.bundle(named), "td3.zip", actor=world.director) if rng.random() < 0.3 else None
    assert again is None or all(f["status"] == "unchanged" for f in again.files), "the same TD3 files again changed something"
    events = list(Td3Event.objects.filter(uuid__in=[ident, f"{ident}-next"]).values_list("tournament_id", flat=True))
    world.events.extend(pk for pk in events if pk not in world.events)
    world.touched.update(events)
    return f"imported {len(named)} TD3 files: {_counts(p)}" + ("; again, unchanged" if again else "")
