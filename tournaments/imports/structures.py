"""Imports: a blind structure as a sheet, in and out (the "structure" kind of ``imports.rules``).

One row per level or break, in the order they are played, as a venue's paper chart has them:
level, small blind, big blind, ante, minutes, and a break row (a "kind" cell saying break or
pausa, or a level cell saying Pausa or Break). Each row is checked as the structures page checks
it (``services.structures.clean_item``), the whole as the page checks it too (a level at least,
the last row a level); a big blind lower than the level before it in the same game is refused
here, where the page only warns: on a chart typed into a spreadsheet it is a typing slip, and
the levels of a mixed event (each its own game) keep theirs.

The file makes one structure, named by the option ``name`` (by default the file's name). When
a structure of that name exists (or the one chosen with the option ``structure``), the file
replaces its levels: each row is compared with the stored level in its place (unchanged, or
updated with what changes; a row past the stored ones is created). A structure that a started
tournament plays is not replaced: its clock and its history read it. Written through
``services.structures.save_structure``, the page's own service.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tdmanager.errors import ValidationFailed
from tournaments.structures import services as structures

from ..models import BlindStructure, StructureItem, Tournament
from . import rules as importing
from .rules import CREATED, REFUSED, UNCHANGED, UPDATED, Column, Refused

#: the fields a row holds, as the structures service cleans them
COMPARED = ("kind", "small_blind", "big_blind", "ante", "big_blind_ante", "minutes", "color_up", "game", "add_on", "removes_denominations")
BREAK_WORDS = ("break", "pausa", "pause", "intervallo", "descanso")
LEVEL_WORDS = ("", "level", "livello", "liv", "lvl", "l", "nivel", "niveau", "niv")
#: a tournament that has started plays its structure: an import does not replace it
STARTED = (Tournament.RUNNING, Tournament.FINISHED)
_MINUTES = re.compile(r"(\d{1,6})\s*(?:min|mins|minuti|minutes|m|'|:00)?\.?", re.IGNORECASE)  # 20, 20 min, 20', 20:00
_BLINDS = re.compile(r"([\d.' ]{1,15})\s*[/\-–]\s*([\d.' ]{1,15})")  # 100/200, 1.000-2.000
_LEVEL = re.compile(r"(?:level|livello|liv|lvl|l)?(\d{1,4})")  # 7, Livello 7, L7 (folded)


class StructureImporter(importing.Importer):
    kind = "structure"
    title = gettext_noop("Blind structure")
    columns = (
        Column("level", gettext_noop("Level"), ("livello", "liv", "lvl", "level number", "numero livello", "n")),
        Column("kind", gettext_noop("Kind"), ("tipo", "type", "level or break", "livello o pausa")),
        Column("small_blind", gettext_noop("Small blind"), ("piccolo buio", "buio piccolo", "sb", "small", "piccolo")),
        Column("big_blind", gettext_noop("Big blind"), ("grande buio", "buio grande", "bb", "big", "grande")),
        Column("ante", gettext_noop("Ante"), ("ante",)),
        Column("big_blind_ante", gettext_noop("Big blind ante"), ("bba", "big blind ante", "ante big blind", "ante del grande buio", "ante bb")),
        Column("minutes", gettext_noop("Minutes"), ("minuti", "durata", "min", "duration", "durata minuti", "tempo", "time", "length"), required=True),
        # A chart's one column for both blinds, "100/200" (read when the two columns are not there).
        Column("blinds", gettext_noop("Blinds"), ("bui", "blind", "buio", "sb/bb", "sb bb", "piccolo/grande buio")),
        Column("color_up", gettext_noop("Colour-up"), ("color up", "colour up", "color-up note", "cambio colore", "cambio fiches", "colore")),
        Column("game", gettext_noop("Game"), ("gioco", "specialita", "variante")),
        Column("add_on", gettext_noop("Add-on"), ("addon", "add on", "finestra add-on")),
        Column(
            "removes_denominations",
            gettext_noop("Chips removed"),
            ("removes denominations", "fiches rimosse", "gettoni rimossi", "fiches tolte", "chips out", "denominations removed"),
        ),
    )
    options = {
        "name": gettext_noop("Structure name (by default, the file's name)"),
        "structure": gettext_noop("Structure (to export, or to replace)"),
    }

    # -- options ---------------------------------------------------------------------------

    def option_choices(self, name):
        if name == "structure":
            # first, no choice: an import makes a new structure (or replaces the one of its name)
            return [("", _("— none: by the name —")), *((str(pk), label) for pk, label in BlindStructure.objects.values_list("pk", "name"))]
        return None

    def check_options(self, options: dict) -> dict:
        out = {"name": "", "structure": None}
        chosen = str(options.get("structure") or "").strip()
        if chosen:
            st = _structure(chosen)
            out["structure"], out["name"] = st.pk, st.name
        name = importing.option_name(options, _("A structure's name has 120 characters at most."))
        if name:
            out["name"] = name
        return out

    def file_options(self, options, filename):
        return importing.name_from_file(options, filename, _("Give the structure a name."))

    def label(self, field_name):
        if field_name == "rows":
            return _("Rows")
        return super().label(field_name)

    # -- a row -----------------------------------------------------------------------------

    def parse(self, cells: dict, options: dict) -> dict:
        kind = StructureItem.LEVEL
        word = importing.fold(importing.cell_text(cells.get("kind")))
        if word in BREAK_WORDS or word in importing.cell_words("break"):  # the export's word, in any language
            kind = StructureItem.BREAK
        elif word not in LEVEL_WORDS and word not in importing.cell_words("level"):
            raise Refused(_("Kind: “%(value)s” is neither a level nor a break.") % {"value": importing.cell_text(cells.get("kind"))[:40]})
        level = importing.cell_text(cells.get("level"))
        if importing.fold(level).startswith((*BREAK_WORDS, *importing.cell_words("Break"))):
            kind = StructureItem.BREAK
        elif level and not _LEVEL.fullmatch(importing.fold(level)):
            raise Refused(_("Level: “%(value)s” is neither a level number nor a break.") % {"value": level[:40]})
        raw = {"kind": kind, "minutes": self._minutes(cells.get("minutes"))}
        if kind == StructureItem.LEVEL:
            both = _BLINDS.fullmatch(importing.cell_text(cells.get("blinds")))
            if importing.cell_text(cells.get("blinds")) and not both:
                raise Refused(_("Blinds: “%(value)s” is not a small and a big blind (100/200).") % {"value": importing.cell_text(cells.get("blinds"))[:40]})
            for name in ("small_blind", "big_blind", "ante"):
                value = cells.get(name)
                if both and name != "ante" and not importing.cell_text(value):
                    value = both[1] if name == "small_blind" else both[2]
                raw[name] = importing.cell_int(value, self.label(name), required=name != "ante")
            raw["big_blind_ante"] = importing.cell_bool(cells.get("big_blind_ante"), self.label("big_blind_ante"))
            raw["game"] = self._game(importing.cell_text(cells.get("game")))
        raw["add_on"] = importing.cell_bool(cells.get("add_on"), self.label("add_on"))
        raw["removes_denominations"] = re.sub(r"[;,/]", " ", importing.cell_text(cells.get("removes_denominations")))
        raw["color_up"] = importing.cell_text(cells.get("color_up"))
        return raw  # checked as the page checks a row in ``plan``, where its row number is known

    def _minutes(self, value) -> int:
        label = self.label("minutes")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return importing.cell_int(value, label, minimum=1)
        m = _MINUTES.fullmatch(importing.cell_text(value))
        return importing.cell_int(m[1] if m else value, label, minimum=1)

    def _game(self, text: str) -> str:
        """A game's code (NLHE) or its name as the reader's language shows it (No-Limit Hold'em)."""
        if not text:
            return ""
        names = {importing.fold(str(label)): code for code, label in Tournament.GAMES}
        return names.get(importing.fold(text), text)

    # -- against what is stored -------------------------------------------------------------

    def plan(self, rows, options):
        target, refusal = _target(options)
        stored = list(target.items.order_by("position")) if target else []
        options["target"] = target.pk if target else None
        accepted = []
        for row in rows:
            if row.status != REFUSED:
                try:
                    row.values = structures.clean_item(row.values, row.line)
                except ValidationFailed as exc:
                    row.status, row.reason = REFUSED, str(exc.message)
            if row.status == REFUSED:
                continue
            if refusal:
                row.status, row.reason = REFUSED, refusal
                continue
            old = stored[len(accepted)] if len(accepted) < len(stored) else None
            row.target = old
            row.changes = _changes(old, row.values) if old else {}
            row.status = CREATED if old is None else (UPDATED if row.changes else UNCHANGED)
            accepted.append(row)
        if accepted and len(accepted) < len(stored):  # the file's structure is shorter: its last row says so
            last = accepted[-1]
            last.changes["rows"] = (len(stored), len(accepted))
            last.status = UPDATED

    def check_file(self, rows, options):
        accepted = [r for r in rows if r.status != REFUSED]
        if not accepted:
            return
        try:
            structures.check_whole([r.values for r in accepted])
        except ValidationFailed as exc:
            if exc.code == "ends_with_break":
                accepted[-1].status, accepted[-1].reason = REFUSED, str(exc.message)
            else:
                for r in accepted:
                    r.status, r.reason = REFUSED, str(exc.message)
        by_game: dict[str, int] = {}
        for r in accepted:
            v = r.values
            if v["kind"] != StructureItem.LEVEL:
                continue
            before = by_game.get(v["game"])
            if before is not None and v["big_blind"] < before and r.status != REFUSED:
                r.status = REFUSED
                r.reason = _("The big blind (%(bb)s) is lower than the level before it (%(before)s): blinds only go up.") % {
                    "bb": v["big_blind"],
                    "before": before,
                }
            by_game[v["game"]] = v["big_blind"]
        # What the write saves: every row still accepted, in order (the unchanged ones are not handed to it).
        options["items"] = [r.values for r in accepted if r.status != REFUSED]

    # -- writing ---------------------------------------------------------------------------

    def write(self, rows, options, actor) -> dict:
        target = BlindStructure.objects.filter(pk=options["target"]).first() if options.get("target") else None
        st = structures.save_structure(
            name=options["name"],
            items=options["items"],
            actor=actor,
            description=target.description if target else "",
            is_template=target.is_template if target else True,
            structure=target,
            reason=_("Imported from a sheet"),
        )
        return {"structure": st.pk, "levels": len(options["items"])}

    # -- export ----------------------------------------------------------------------------

    def export(self, options):
        if not options.get("structure"):
            raise Refused(_("Choose the structure to export."))
        headers = [c.label for c in self.columns if c.field != "blinds"]  # the blinds go out in their two columns
        rows, level = [], 0
        for it in StructureItem.objects.filter(structure_id=options["structure"]).order_by("position"):
            if it.is_break:
                number, kind = _("Break"), _("break")
            else:
                level += 1
                number, kind = level, _("level")
            rows.append(
                [
                    number,
                    kind,
                    it.small_blind if not it.is_break else "",
                    it.big_blind if not it.is_break else "",
                    it.ante if not it.is_break else "",
                    (_("yes") if it.big_blind_ante else _("no")) if not it.is_break else "",
                    it.minutes,
                    it.color_up,
                    it.game,
                    (_("yes") if it.add_on else _("no")) if it.is_break else "",
                    " ".join(str(d) for d in it.removes_denominations or ()),
                ]
            )
        return headers, rows

    def export_name(self, options):
        return options.get("name") or _("structure")


def _structure(chosen: str) -> BlindStructure:
    found = list(BlindStructure.objects.filter(pk=int(chosen))[:1]) if chosen.isdigit() else []
    found = found or list(BlindStructure.objects.filter(name=chosen)[:2])
    if not found:
        raise Refused(_("No structure is called “%(name)s”.") % {"name": chosen[:120]})
    if len(found) > 1:
        raise Refused(_("Several structures are called “%(name)s”: choose one by its number.") % {"name": chosen[:120]})
    return found[0]


def _target(options) -> tuple[BlindStructure | None, str]:
    """The structure the file replaces (None: a new one) and, when it cannot be replaced, why."""
    if options.get("structure"):
        found = list(BlindStructure.objects.filter(pk=options["structure"]))
    else:
        found = list(BlindStructure.objects.filter(name=options["name"])[:2])
    if not found:
        return None, ""
    if len(found) > 1:
        return None, _("Several structures are called “%(name)s”: choose the one to replace, or another name.") % {"name": options["name"]}
    target = found[0]
    if Tournament.objects.filter(structure=target, status__in=STARTED).exists():
        return target, _("The structure “%(name)s” is played by a tournament that has started: import the file under another name.") % {"name": target.name}
    return target, ""


def _changes(item: StructureItem, values: dict) -> dict:
    out = {}
    for name in COMPARED:
        old, new = getattr(item, name), values.get(name)
        if name == "removes_denominations":
            old = sorted(old or [])
        if old != new:
            out[name] = (_shown(old), _shown(new))
    return out


def _shown(value):
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return value


STRUCTURE = importing.register(StructureImporter())
