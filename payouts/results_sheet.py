"""An event's results as a sheet, for the club's site and the tour's ranking: each placed entry's
place, the player's name as the public pages show it (``tournaments.people.names``: the house's
style, "—" for a player who asked not to be found by name, an erased player's pseudonym), the
cash prize, the other prizes in words and, in a bounty event, the bounties won. CSV or XLSX by
``tdmanager.sheets.write``: a name that looks like a formula stays text. An event brought in from
The Tournament Director adds, below its places, its prize pool, entries and fees as TD3 recorded
them, marked as imported (its money is in no ledger). Read only."""

from __future__ import annotations

from decimal import Decimal

from django.db.models import Sum
from django.utils.translation import gettext as _

from tdmanager import sheets
from tdmanager.money import CENT, ZERO
from tournaments.house import HouseRules
from tournaments.imports.rules import csv_separator
from tournaments.models import Entry
from tournaments.people.names import public_names

from .models import BountyAward
from .selectors import pool as pool_selectors
from .selectors.others import won_by_entry


def results(t) -> tuple[list[str], list[list]]:
    """The headers and the rows, best place first (a shared place lists each of its players)."""
    rows = list(
        t.entries.exclude(status=Entry.CANCELLED)
        .filter(place__isnull=False)
        .order_by("place", "number")
        .values_list("pk", "place", "person__first_name", "person__last_name", "person__nickname", "person__hide_from_lookup", "number")
    )
    rules = HouseRules.of(t)
    names = public_names(((first, last, nick, hidden, number) for _pk, _place, first, last, nick, hidden, number in rows), rules.seat_lookup_names)
    won = won_by_entry(t)
    bounties = dict(
        BountyAward.objects.filter(tournament=t, void="", winner__isnull=False).values("winner").annotate(cash=Sum("cash")).values_list("winner", "cash")
    )
    with_bounties = rules.bounty != "NONE" or any(bounties.values())
    headers = [_("Place"), _("Player"), _("Prize"), _("Other prizes")] + ([_("Bounties")] if with_bounties else [])
    out = []
    for (pk, place, *_rest), name in zip(rows, names, strict=True):
        prize = won.get(str(pk), {})
        line = [place, name, Decimal(prize.get("amount", "0.00")).quantize(CENT), prize.get("prize", "")]
        if with_bounties:
            line.append((bounties.get(pk) or ZERO).quantize(CENT))  # SQLite sums to "25"
        out.append(line)
    return headers, out


def _archive_rows(t, width: int) -> list[list]:
    """An event brought in from The Tournament Director: below its places, its prize pool, entries
    and fees as TD3 recorded them, marked as imported (the room's archives, in no ledger)."""
    archived = pool_selectors.archive_money(t)
    if not archived:
        return []
    lines = [
        (_("Imported from The Tournament Director"), _("as TD3 recorded them: the room's archives, no money moved here")),
        (_("Prize pool"), archived["pot"].quantize(CENT)),
        (_("Entries"), archived["entries"]),
        (_("Rebuys"), archived["rebuys"]),
        (_("Add-ons"), archived["addons"]),
        (_("Fees"), archived["fees"].quantize(CENT)),
    ]
    return [[""] * width] + [["", label, value] + [""] * (width - 3) for label, value in lines]


def results_file(t, fmt: str) -> tuple[bytes, str]:
    """The results as a CSV or an XLSX and the file's name."""
    headers, rows = results(t)
    rows += _archive_rows(t, len(headers))
    name = _("results-%(n)s") % {"n": t.pk}
    return sheets.write(fmt, headers, rows, title=_("Results"), separator=csv_separator()), f"{name}.{fmt}"
