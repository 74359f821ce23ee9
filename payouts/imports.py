"""A payout table by field size as a sheet, in and out (the "payouts" kind of ``tournaments.imports.rules``).

The venue's paper chart: for each band of field sizes (entries from, entries to) the
percentage of the prize pool each place takes. A row is one place, or several places paid alike
("10-12": each of them that percentage). A band's sizes may be written on its first row only
(the cells below it left blank, or merged, as charts are drawn): a row without them belongs to
the band above. A sheet without the two columns is one list of percentages for any field.
A percentage cell formatted as a percentage in the spreadsheet (0.3 for 30%) is read as such
when every cell of its band is a fraction (at most 1) and they add up to about 1
(``FRACTIONS_UP_TO``): a band adding up to 1.02 is refused as adding up to 102.

The file makes one template, named by the option ``name`` (by default the file's name); when a
template of that name exists (or the one chosen with the option ``template``), each row is
compared with the stored percentage of its place in its band. The checks are the templates'
own (``services.table.check_bands``): a band's percentages add up to 100 and do not rise with
the place, no band pays more places than its smallest field, no two bands overlap; a refusal
names the rows of the band it is about. Written through ``services.save_payout_template``.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tdmanager import sheets
from tdmanager.errors import ValidationFailed
from tournaments.imports import rules as import_rules
from tournaments.imports.rules import CREATED, REFUSED, UNCHANGED, UPDATED, Column, Refused

from .models import PayoutTemplate
from .services import table
from .structure import band_label

_PLACE = re.compile(r"(\d{1,4})\s*(?:°|º|st|nd|rd|th|\.)?")
_PLACES = re.compile(r"(\d{1,4})\s*(?:°|º|st|nd|rd|th|\.)?\s*(?:-|–|—|/|a|al|to)\s*(\d{1,4})\s*(?:°|º|st|nd|rd|th|\.)?", re.IGNORECASE)
MAX_PLACES = 1000


class PayoutsImporter(import_rules.Importer):
    kind = "payouts"
    title = gettext_noop("Payout table")
    columns = (
        Column(
            "entries_from",
            gettext_noop("Entries from"),
            ("iscritti da", "da", "from", "entrants from", "giocatori da", "partecipanti da", "min entries", "entries min", "iscritti min", "min"),
        ),
        Column(
            "entries_to",
            gettext_noop("Entries to"),
            ("iscritti a", "a", "to", "entrants to", "giocatori a", "partecipanti a", "fino a", "max entries", "entries max", "iscritti max", "max"),
        ),
        Column("place", gettext_noop("Place"), ("posto", "posizione", "piazzamento", "places", "posti", "pos", "classifica"), required=True),
        Column("percent", gettext_noop("Percent"), ("percentuale", "perc", "percentage", "quota", "percentuale montepremi", "% del montepremi"), required=True),
    )
    options = {
        "name": gettext_noop("Template name (by default, the file's name)"),
        "template": gettext_noop("Payout template (to export, or to replace)"),
    }

    def auto_mapping(self, headers):
        # "%" alone folds to nothing (headers are compared by their letters and digits): it is the percentage.
        return super().auto_mapping(["percent" if str(h).strip() in ("%", "% ") else h for h in headers])

    def option_choices(self, name):
        if name == "template":
            # first, no choice: an import makes a new template (or replaces the one of its name)
            return [("", _("— none: by the name —")), *((str(pk), label) for pk, label in PayoutTemplate.objects.values_list("pk", "name"))]
        return None

    def check_options(self, options: dict) -> dict:
        out = {"name": "", "template": None}
        chosen = str(options.get("template") or "").strip()
        if chosen:
            found = PayoutTemplate.objects.filter(pk=int(chosen)).first() if chosen.isdigit() else PayoutTemplate.objects.filter(name=chosen).first()
            if found is None:
                raise Refused(_("No payout template is called “%(name)s”.") % {"name": chosen[:120]})
            out["template"], out["name"] = found.pk, found.name
        name = import_rules.option_name(options, _("A template's name has 120 characters at most."))
        if name:
            out["name"] = name
        return out

    def file_options(self, options, filename):
        return import_rules.name_from_file(options, filename, _("Give the payout template a name."))

    def label(self, field_name):
        return {"places": _("Places paid"), "bands": _("Bands")}.get(field_name) or super().label(field_name)

    # -- a row -----------------------------------------------------------------------------

    def parse(self, cells: dict, options: dict) -> dict:
        values = {
            "from": import_rules.cell_int(cells.get("entries_from"), self.label("entries_from"), minimum=1, required=False),
            "to": import_rules.cell_int(cells.get("entries_to"), self.label("entries_to"), minimum=1, required=False),
        }
        values["places"] = self._places(cells.get("place"))
        values["percent"], values["number_cell"] = self._percent(cells.get("percent"))
        return values

    def _places(self, value) -> list[int]:
        label = self.label("place")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return [import_rules.cell_int(value, label, minimum=1)]
        t = import_rules.cell_text(value)
        if m := _PLACES.fullmatch(t):
            first, last = int(m[1]), int(m[2])
            if not 1 <= first <= last or last - first >= MAX_PLACES:
                raise Refused(_("Place: “%(value)s” is not a range of places (10-12).") % {"value": t[:40]})
            return list(range(first, last + 1))
        if m := _PLACE.fullmatch(t):
            return [import_rules.cell_int(m[1], label, minimum=1)]
        if not t:
            raise Refused(_("%(field)s is missing.") % {"field": label})
        raise Refused(_("Place: “%(value)s” is neither a place nor a range of places (10-12).") % {"value": t[:40]})

    def _percent(self, value) -> tuple[Decimal, bool]:
        label = self.label("percent")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return _plain(Decimal(repr(value))), True
        t = sheets.text(value).replace("%", "").replace("\u00a0", "").replace(" ", "").replace(",", ".")
        if not t:
            raise Refused(_("%(field)s is missing.") % {"field": label})
        try:
            d = Decimal(t)
        except InvalidOperation:
            d = None
        if d is None or not d.is_finite() or not 0 < d <= 100:
            raise Refused(_("Percent: “%(value)s” is not a percentage.") % {"value": sheets.text(value)[:40]})
        if d != d.quantize(Decimal("0.001")):
            raise Refused(_("Percent: “%(value)s” has more than three decimals.") % {"value": sheets.text(value)[:40]})
        return _plain(d), False

    # -- bands, and against what is stored --------------------------------------------------

    def plan(self, rows, options):
        banded = any(r.values.get("from") is not None for r in rows if r.status != REFUSED)
        band = None
        for row in rows:
            if row.status == REFUSED:
                continue
            v = row.values
            if v["from"] is not None:
                band = (v["from"], v["to"])
            elif v["to"] is not None:
                row.status, row.reason = REFUSED, _("%(field)s is missing.") % {"field": self.label("entries_from")}
                continue
            if banded and band is None:
                row.status, row.reason = REFUSED, _("%(field)s is missing.") % {"field": self.label("entries_from")}
                continue
            v["band"] = band if banded else None
        _as_percentages([r for r in rows if r.status != REFUSED])
        target = self._target(options)
        options["target"] = target.pk if target else None
        stored = _stored_bands(target) if target else {}
        accepted = [r for r in rows if r.status != REFUSED]
        for row in accepted:
            old = stored.get(row.values["band"])
            olds = [old[p - 1] if old and p <= len(old) else None for p in row.values["places"]]
            if target is None or any(o is None for o in olds):
                row.status = CREATED
                continue
            new = row.values["percent"]
            row.target = target
            changed = [o for o in olds if o != new]
            row.changes = {"percent": (_percent_text(changed[0]), _percent_text(new))} if changed else {}
            row.status = UPDATED if changed else UNCHANGED
        if target is not None and accepted:
            self._shrunk(accepted, stored)

    def _shrunk(self, accepted, stored):
        """Places or bands the stored template has and the file has not: a row says so."""
        file_bands: dict = {}
        for row in accepted:
            file_bands.setdefault(row.values["band"], []).append(row)
        gone = [b for b in stored if b not in file_bands]
        if gone:
            first = accepted[0]
            first.changes["bands"] = (", ".join(_band_text(b) for b in stored), ", ".join(_band_text(b) for b in file_bands))
            first.status = UPDATED
        for band, band_rows in file_bands.items():
            places = max(p for r in band_rows for p in r.values["places"])
            if band in stored and len(stored[band]) > places:
                band_rows[-1].changes["places"] = (len(stored[band]), places)
                band_rows[-1].status = UPDATED

    def _target(self, options) -> PayoutTemplate | None:
        if options.get("template"):
            return PayoutTemplate.objects.filter(pk=options["template"]).first()
        return PayoutTemplate.objects.filter(name=options["name"]).first()

    def check_file(self, rows, options):
        bands: dict = {}
        for row in rows:
            if row.status != REFUSED:
                bands.setdefault(row.values["band"], []).append(row)
        listed = []
        for band, band_rows in bands.items():
            percents = self._band_percents(band, band_rows)
            if percents is not None:
                listed.append((band, band_rows, percents))
        if not listed:
            return
        if listed[0][0] is None:  # no bands: one list for any field
            try:
                options["percents"] = [str(p) for p in table.check_percents(listed[0][2])]
            except ValidationFailed as exc:
                _refuse(listed[0][1], str(exc.message))
            return
        while listed:
            try:
                options["bands"] = table.check_bands([{"from": b[0], "to": b[1], "percents": p} for b, _rows, p in listed])
                return
            except ValidationFailed as exc:  # the band it names is refused, the others checked again
                _refuse(listed[exc.extra["band"]][1], str(exc.message))
                del listed[exc.extra["band"]]

    def _band_percents(self, band, band_rows) -> list | None:
        """The band's percentages by place, or None when its rows are refused (each place once, from 1 without gaps)."""
        by_place: dict[int, Decimal] = {}
        for row in band_rows:
            for place in row.values["places"]:
                if place in by_place:
                    _refuse([row], _("Place %(p)s is written twice in this band.") % {"p": place})
                by_place[place] = row.values["percent"]
        if any(r.status == REFUSED for r in band_rows):
            _refuse(band_rows, _("Another row of this band is refused."))
            return None
        missing = sorted(set(range(1, max(by_place) + 1)) - set(by_place))
        if missing:
            _refuse(band_rows, _("Place %(p)s has no percentage: places run from 1 without gaps.") % {"p": missing[0]})
            return None
        return [by_place[p] for p in range(1, len(by_place) + 1)]

    # -- writing ---------------------------------------------------------------------------

    def write(self, rows, options, actor) -> dict:
        target = PayoutTemplate.objects.select_for_update().filter(pk=options["target"]).first() if options.get("target") else None
        saved = table.save_payout_template(options["name"], options.get("percents") or [], bands=options.get("bands") or None, actor=actor, template=target)
        return {"template": saved.name, "bands": len(saved.bands)}

    # -- export ----------------------------------------------------------------------------

    def export(self, options):
        if not options.get("template"):
            raise Refused(_("Choose the payout template to export."))
        template = PayoutTemplate.objects.get(pk=options["template"])
        headers = [c.label for c in self.columns]
        rows = []
        bands = template.bands or [{"from": None, "to": None, "percents": template.percents}]
        for band in bands:
            for first, last, percent in _runs([Decimal(str(p)) for p in band["percents"]]):
                # numbers as numbers (an XLSX's number cells); a run of places paid alike as its text "4-5"
                place = first if first == last else f"{first}-{last}"
                rows.append([band["from"] or "", band["to"] or "", place, _plain(percent)])
        return headers, rows

    def export_name(self, options):
        return options.get("name") or _("payouts")


def _refuse(rows, reason: str) -> None:
    for row in rows:
        if row.status != REFUSED:
            row.status, row.reason = REFUSED, reason


#: A band of number cells each at most 1 and adding up to no more than this is written as
#: fractions (cells formatted as percentages: 0.3 shown as 30%), even when they do not add up
#: to 1 exactly: its preview and its refusal then speak of 35 and of 102, as the sheet shows them,
#: never of 0.35 and 1.02. Real percentages of a band add up to 100, far above it.
FRACTIONS_UP_TO = Decimal("1.5")


def _as_percentages(rows) -> None:
    """A band written in cells formatted as percentages (0.3 shown as 30%) read as percentages."""
    bands: dict = {}
    for row in rows:
        bands.setdefault(row.values["band"], []).append(row)
    for band_rows in bands.values():
        if (
            all(r.values["number_cell"] and r.values["percent"] <= 1 for r in band_rows)
            and sum(r.values["percent"] * len(r.values["places"]) for r in band_rows) <= FRACTIONS_UP_TO
        ):
            for r in band_rows:
                r.values["percent"] = _plain(r.values["percent"] * 100)


def _runs(percents):
    """Places paid alike, in runs: (first place, last place, percentage)."""
    out = []
    for place, p in enumerate(percents, start=1):
        if out and out[-1][2] == p:
            out[-1][1] = place
        else:
            out.append([place, place, p])
    return out


def _stored_bands(template: PayoutTemplate) -> dict:
    """{(from, to) or None: [Decimal by place]}."""
    if template.bands:
        return {(b["from"], b.get("to")): [Decimal(str(p)) for p in b["percents"]] for b in template.bands}
    return {None: [Decimal(str(p)) for p in template.percents]}


def _band_text(band) -> str:
    return _("any field") if band is None else band_label({"from": band[0], "to": band[1]})


def _plain(d: Decimal) -> Decimal:
    """30, 14.5: no trailing zeros, no exponent (``normalize`` alone makes 30 "3E+1")."""
    return d.quantize(Decimal(1)) if d == d.to_integral_value() else d.normalize()


def _percent_text(value) -> str:
    return "" if value is None else format(_plain(Decimal(value)), "f")


PAYOUTS = import_rules.register(PayoutsImporter())
