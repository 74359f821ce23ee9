"""Blind structures: create, copy, import and export as JSON or CSV."""

import io
import json

from django.db import transaction
from django.utils.translation import gettext as _

from tdmanager import csvsafe, jsonbody, sheets, shown_text
from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.transactions import service
from tournaments.clock import rules as clock_rules
from tournaments.clock import selectors as clock_selectors
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.models import BlindStructure, StructureItem, Tournament, TournamentChange
from tournaments.setup import changes

# Every column of an item, in files (CLK-09: the chips a break removes travel too; in a CSV cell
# they are written space-separated, "25 100", and read back by validate_items).
JSON_FIELDS = ["kind", "small_blind", "big_blind", "ante", "big_blind_ante", "minutes", "color_up", "game", "add_on", "removes_denominations"]
CSV_FIELDS = JSON_FIELDS
# A level's game (FMT-16, BAL-04): one of the event's configured games, blank for "the event's".
# "Mixed games" names an event, never a level: each level of a mixed event plays one game.
LEVEL_GAMES = tuple(code for code, _name in Tournament.GAMES if code != "MIXED")


def _level_game(raw: dict, kind: str, n: int) -> str:
    """The level's game code, checked against the configured list like the event's own game."""
    game = str(raw.get("game", "") or "").strip()
    if kind == StructureItem.BREAK or not game:
        return ""
    if game.upper() in LEVEL_GAMES:
        return game.upper()
    message = _("Row %(n)s, game: “%(game)s” is not one of the configured games (%(games)s).") % {"n": n, "game": game[:40], "games": ", ".join(LEVEL_GAMES)}
    raise ValidationFailed("invalid_game", message, field="game", row=n, fields={"game": [message]})


def validate_items(items: list[dict]) -> list[dict]:
    """Normalise and check items: each row as ``clean_item`` checks it, at least one level, and
    then the clock engine's own validation (``clock_rules.validate_structure``: the last item is a
    level, the cap), the one the clock uses.

    SB = BB is allowed (heads-up structures start 100/100, CLK-01). A decreasing ante or big
    blind and two breaks in a row are warnings (RP-11), returned by ``structure_warnings``.
    """
    if not items:
        raise ValidationFailed("empty_structure", _("A structure needs at least one level."))
    clean = [clean_item(raw, i) for i, raw in enumerate(items, start=1)]
    check_whole(clean)
    return clean


def check_whole(clean: list[dict]) -> None:
    """The rules of cleaned rows taken together: a level at least, the last row a level."""
    if not any(c["kind"] == "LEVEL" for c in clean):
        raise ValidationFailed("empty_structure", _("A structure needs at least one level."))
    try:
        clock_rules.validate_structure(engine_items(clean))
    except clock_rules.ClockError:  # with a level in it, the engine's one objection left is the cap
        raise ValidationFailed("ends_with_break", _("A structure ends with a level: the last level repeats (the cap).")) from None


def clean_item(raw: dict, i: int) -> dict:
    """One row normalised and checked on its own (``i``: its number in the messages): positive
    minutes, 0 < small blind ≤ big blind on a level, chips removed and an add-on only at a break."""
    if not isinstance(raw, dict):
        raise ValidationFailed("bad_item", _("Row %(n)s: numbers expected.") % {"n": i})
    kind = str(raw.get("kind", "LEVEL")).upper()
    if kind not in (StructureItem.LEVEL, StructureItem.BREAK):
        raise ValidationFailed("bad_item", _("Row %(n)s: kind must be LEVEL or BREAK.") % {"n": i})
    try:
        minutes = int(raw.get("minutes", 0))
        sb, bb, ante = (int(raw.get(k) or 0) for k in ("small_blind", "big_blind", "ante"))
    except (TypeError, ValueError, OverflowError):
        raise ValidationFailed("bad_item", _("Row %(n)s: numbers expected.") % {"n": i}) from None
    if max(minutes, sb, bb, ante) > 2**31 - 1 or len(str(raw.get("color_up", "") or "")) > 200 or len(str(raw.get("game", "") or "")) > 40:
        raise ValidationFailed("bad_item", _("Row %(n)s: numbers expected.") % {"n": i})
    if minutes <= 0:
        raise ValidationFailed("bad_item", _("Row %(n)s: minutes must be positive.") % {"n": i})
    bba = _yes(raw.get("big_blind_ante", ""))
    add_on = _yes(raw.get("add_on", ""))
    removes = raw.get("removes_denominations") or []
    if isinstance(removes, str):  # CSV: "25 100"
        removes = removes.replace(",", " ").split()
    try:
        removes = sorted({int(d) for d in removes})
        if len(removes) > 50 or any(not 0 < d <= 2**31 - 1 for d in removes):
            raise ValueError
    except (TypeError, ValueError, OverflowError):
        raise ValidationFailed("bad_item", _("Row %(n)s: the chips removed are numbers.") % {"n": i})
    if kind == StructureItem.LEVEL and removes:
        raise ValidationFailed("bad_item", _("Row %(n)s: chips are removed at a break (CLK-09).") % {"n": i})
    if kind == StructureItem.LEVEL and add_on:
        raise ValidationFailed("bad_item", _("Row %(n)s: the add-on is taken at a break.") % {"n": i})
    if kind == StructureItem.LEVEL and (bb <= 0 or sb <= 0 or sb > bb or min(sb, bb, ante) < 0):
        raise ValidationFailed("bad_item", _("Row %(n)s: a level needs 0 < small blind ≤ big blind.") % {"n": i})
    return {
        "kind": kind,
        "small_blind": sb if kind == "LEVEL" else 0,
        "big_blind": bb if kind == "LEVEL" else 0,
        "ante": ante if kind == "LEVEL" else 0,
        "big_blind_ante": bba and kind == "LEVEL",
        "minutes": minutes,
        "color_up": str(raw.get("color_up", "") or ""),
        "game": _level_game(raw, kind, i),
        "add_on": add_on,
        "removes_denominations": removes,
    }


def _yes(value) -> bool:
    return value is True or str(value).strip().lower() in ("1", "true", "yes", "y")


def engine_items(clean: list[dict]) -> list:
    """Cleaned rows (``validate_items``) as the clock engine's levels and breaks."""
    return [
        clock_selectors.engine_item(
            c["kind"],
            small_blind=c["small_blind"],
            big_blind=c["big_blind"],
            ante=c["ante"],
            big_blind_ante=c["big_blind_ante"],
            minutes=c["minutes"],
            game=c["game"],
            color_up=c["color_up"],
            add_on=c.get("add_on", False),
            removes_denominations=c.get("removes_denominations", ()),
        )
        for c in clean
    ]


def structure_warnings(items: list[dict]) -> list[str]:
    """The warnings for cleaned rows: the clock engine's, as the clock page shows them."""
    return clock_selectors.structure_warnings(engine_items(items))


@service
def save_structure(*, name: str, items: list[dict], actor: Actor, description: str = "", is_template=True, structure=None, reason: str = "") -> BlindStructure:
    """Create or replace a structure. Editing one that a published event plays (FMT-02) needs
    ``reason``: each such event gets a new version with the rows that changed, announced on
    its lobby screens."""
    clean = validate_items(items)
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 120:
        raise ValidationFailed("name_required", _("A structure needs a name."))
    description = description[:300] if isinstance(description, str) else ""
    shown_text.check(name, "name", _("Name"))
    shown_text.check(description, "description", _("Description"))
    published, diff = [], {}
    if structure is None:
        structure = BlindStructure.objects.create(name=name.strip(), description=description, is_template=is_template)
    else:
        published = list(Tournament.objects.select_for_update().filter(structure=structure, status__in=changes.PUBLISHED).order_by("pk"))
        diff = changes.structure_changes(changes.structure_rows(structure.items.order_by("position")), changes.structure_rows(clean))
        if published:
            changes.require_reason(published[0], diff, reason, field="reason")
        structure.name, structure.description, structure.is_template = name.strip(), description, is_template
        structure.save()
        structure.items.all().delete()
    StructureItem.objects.bulk_create([StructureItem(structure=structure, position=i, **c) for i, c in enumerate(clean)])
    log_event(None, Action.TOURNAMENTS_STRUCTURE_SAVED, actor, structure=structure.pk, name=structure.name, items=len(clean))
    for t in published:
        changes.record_change(t, diff, actor=actor, reason=reason, kind=TournamentChange.STRUCTURE)
    return structure


@service
def delete_structure(structure: BlindStructure, *, actor: Actor) -> None:
    """Delete a structure no tournament uses (a tournament's clock reads its structure)."""
    from django.db.models import ProtectedError

    pk, name = structure.pk, structure.name
    try:
        with transaction.atomic():
            structure.delete()
    except ProtectedError:
        raise DomainError("structure_in_use", _("Tournaments use this structure: it cannot be deleted.")) from None
    log_event(None, Action.TOURNAMENTS_STRUCTURE_DELETED, actor, structure=pk, name=name)


def export_json(structure: BlindStructure) -> str:
    items = [{f: getattr(it, f) for f in JSON_FIELDS} for it in structure.items.order_by("position")]
    return json.dumps({"name": structure.name, "description": structure.description, "items": items}, indent=2)


def export_csv(structure: BlindStructure) -> str:
    out = io.StringIO()
    writer = csvsafe.Writer(out, fieldnames=CSV_FIELDS)  # no cell a spreadsheet runs as a formula
    writer.writeheader()
    for it in structure.items.order_by("position"):
        row = {f: getattr(it, f) for f in CSV_FIELDS}
        row["removes_denominations"] = " ".join(str(d) for d in it.removes_denominations or ())
        writer.writerow(row)
    return out.getvalue()


def parse_import(data: bytes, fmt: str) -> dict:
    """Parse a JSON document ({name, description, items}) or a CSV with CSV_FIELDS columns.

    A CSV is read by the sheets' one reader (``tdmanager.sheets.read``), with its bounds and
    refusals: columns, rows, bytes that are no text refused naming their line, each a 400 naming
    its limit (a reader of its own read a header of a million columns into every row). Its
    separator and encoding are the ones a spreadsheet saves, as for every sheet imported."""
    if fmt == "json":
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValidationFailed("bad_file", _("The file must be UTF-8 text."), field="file") from None
        try:
            doc = jsonbody.loads(text)  # depth bounded: a file of 1,000 "[" is refused, not a RecursionError
        except ValueError as exc:
            raise ValidationFailed("bad_file", _("The file is not valid JSON: %(e)s") % {"e": exc})
        if isinstance(doc, list):
            doc = {"items": doc}
        if not isinstance(doc, dict) or not isinstance(doc.get("items"), list):
            raise ValidationFailed("bad_file", _("Expected an object with an 'items' list."))
        return doc
    if fmt == "csv":
        try:
            sheet = sheets.read(data, "structure.csv")
        except sheets.SheetError as exc:
            raise ValidationFailed(exc.code, exc.detail, field="file") from None
        if "minutes" not in sheet.headers:
            raise ValidationFailed("bad_file", _("The CSV needs a header row with at least: kind, small_blind, big_blind, minutes."))
        read = [(i, name) for i, name in enumerate(sheet.headers) if name in CSV_FIELDS]  # the columns read, once
        return {"items": [{name: sheets.text(cells[i]) if i < len(cells) else "" for i, name in read} for _line, cells in sheet.rows]}
    raise ValidationFailed("bad_format", _("Import format must be json or csv."))


def builtin_structure_files():
    from pathlib import Path

    return sorted(Path(__file__).resolve().parent.glob("*.json"))


def ensure_builtin_structures() -> list[BlindStructure]:
    """The shipped templates (turbo, regular, deep); created if missing (the migration does it first)."""
    out = []
    for path in builtin_structure_files():
        doc = json.loads(path.read_text())
        st = BlindStructure.objects.filter(name=doc["name"]).first()
        if st is None:
            st = BlindStructure.objects.create(name=doc["name"], description=doc["description"], is_template=True)
            StructureItem.objects.bulk_create(StructureItem(structure=st, position=i, **item) for i, item in enumerate(doc["items"]))
        out.append(st)
    return out
