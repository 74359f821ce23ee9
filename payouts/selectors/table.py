"""The payout table: the proposed and the locked prizes, places paid, the ladder, templates.

The structure's arithmetic is the pure ``payouts.structure``; here it meets the pool and the
house rules, kept once per arguments because the lobby asks again after every change.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from django.utils.translation import ngettext

from tdmanager.money import CENT, ZERO, to_money
from tournaments.house import HouseRules

from ..models import POOL_FUNDED, PRIZE_KINDS, PayoutTable
from ..structure import band_label, payout_structure
from .common import money
from .pool import _bracket, field_size, is_cancelled, percent_paid, prize_pool
from .satellites import satellite_awards, satellite_link

_STRUCTURES: dict[tuple, tuple] = {}  # payout_structure's answers by their arguments (as text)
_STRUCTURES_KEPT = 64


def payout_amounts(entries, total, buy_in, **kwargs) -> list[Decimal]:
    """``payout_structure``'s amounts, computed once per arguments: it is pure, and the lobby's
    snapshot asks again after every bust with the same field and pool (costly in a large field).
    Keyed by the arguments' text, so equal Decimals of another exponent are not mixed; its
    ``ValueError`` is raised every time (not kept)."""
    key = (entries, str(total), str(buy_in), *sorted((k, str(v)) for k, v in kwargs.items()))
    amounts = _STRUCTURES.get(key)
    if amounts is None:
        amounts = tuple(payout_structure(entries, total, buy_in, **kwargs))
        if len(_STRUCTURES) >= _STRUCTURES_KEPT:
            _STRUCTURES.clear()  # (threads share it: no iteration that another could disturb)
        _STRUCTURES[key] = amounts
    return list(amounts)


_UNREAD = object()  # an argument the caller did not read: the function reads it itself


def proposed_prizes(t, *, link=_UNREAD, total=None, entries=None) -> list[dict]:
    """The automatic proposal: a satellite's seats, else ``payout_structure`` on the live pool.

    ``link`` (the satellite link or None), ``total`` (the prize pool) and ``entries`` (the paid
    entries, ``field_size``'s) when the caller has read them already (the lobby's summary): the
    same figures, not read twice."""
    link = satellite_link(t) if link is _UNREAD else link
    if link is not None:
        rows = []
        for a in satellite_awards(t, link):
            if a.seat:
                rows.append({"place": a.place, "kind": "SEAT", "amount": a.seat_value, "description": link.target.name, "target": link.target_id})
            if a.cash:
                rows.append({"place": a.place, "kind": "CASH", "amount": a.cash, "description": "", "target": None})
        return rows
    total = prize_pool(t) if total is None else total
    entries = field_size(t, entries=entries)
    percent = percent_paid(t)
    bracket = _bracket(t)
    if bracket is not None and not bracket.feeds_into_id and entries:
        # A heads-up bracket played to a winner pays whole rounds: its last ``paid_players``
        # (RULES §14 q17, "Tutti a Premio": 8 by default).
        percent = Decimal(min(bracket.paid_players, bracket.size, entries) * 100) / entries
    amounts = []
    rules = HouseRules.of(t)
    for unit in (rules.payout_rounding, CENT):
        try:
            amounts = payout_amounts(
                entries,
                total,
                t.buy_in,
                percent_paid=percent,
                min_cash_multiple=rules.min_cash_multiple,
                rounding=unit,
                places_rounding=rules.places_paid_rounding,
            )
            break
        except ValueError:
            continue
    return [{"place": i, "kind": "CASH", "amount": a, "description": "", "target": None} for i, a in enumerate(amounts, start=1)]


def table_state(t, *, table=_UNREAD) -> str:
    """The payout table's state (AUTO while none is stored); ``table``: its row (or None) when
    the caller has read it already."""
    table = PayoutTable.objects.filter(tournament=t).first() if table is _UNREAD else table
    return table.state if table else PayoutTable.AUTO


def table_prizes(t, *, table=_UNREAD, **proposal) -> list[dict]:
    """The payout table in force: stored prizes once edited or locked, else the live proposal.

    ``table`` (the PayoutTable row or None) and ``proposal`` (``proposed_prizes``'s ``link``
    and ``total``) when the caller has read them already."""
    if is_cancelled(t):
        return []  # an event that will not play pays no place: a table stored before is void
    table = PayoutTable.objects.filter(tournament=t).first() if table is _UNREAD else table
    if table is None or table.state == PayoutTable.AUTO:
        return proposed_prizes(t, **proposal)
    return [{"place": p.place, "kind": p.kind, "amount": p.amount, "description": p.description, "target": p.target_id, "id": p.pk} for p in table.prizes.all()]


def place_values(prizes) -> list[Decimal]:
    """Pool-funded value per place (cash + tickets + seats), 1st first, up to the last place."""
    last = max((p["place"] for p in prizes), default=0)
    values = [ZERO] * last
    for p in prizes:
        if p["kind"] in POOL_FUNDED:
            values[p["place"] - 1] += to_money(p["amount"])
    return values


def places_paid(t, prizes=None) -> int:
    prizes = table_prizes(t) if prizes is None else prizes
    return max((p["place"] for p in prizes), default=0)


def _label(p) -> str:
    if p["kind"] == "CASH":  # before the import: a ladder asks for every place paid
        return ""

    kind = str(dict(PRIZE_KINDS)[p["kind"]])
    return f"{kind}: {p['description']}" if p.get("description") else kind


_LADDERS: dict[tuple, tuple] = {}  # ``ladder``'s bands by what they are made of
_LADDERS_KEPT = 16


def ladder(prizes) -> list[dict]:
    """Places grouped into bands of identical prizes: [{"places": "10–12", "amount", "prize"}].

    Kept by what it is made of (place, kind, amount, description of each prize): the lobby's
    snapshot asks again after every change of a running event, mostly for the same places
    of a large field, which are many. A copy of each band is handed out."""
    key = tuple((p["place"], p["kind"], p["amount"], p.get("description") or "") for p in prizes)
    bands = _LADDERS.get(key)
    if bands is None:
        bands = tuple(_ladder(prizes))
        if len(_LADDERS) >= _LADDERS_KEPT:
            _LADDERS.clear()  # (threads share it: no iteration that another could disturb)
        _LADDERS[key] = bands
    return [dict(b) for b in bands]


def _ladder(prizes) -> list[dict]:
    by_place = defaultdict(list)
    for p in prizes:
        by_place[p["place"]].append(p)
    bands = []
    for place in sorted(by_place):
        items = by_place[place]
        amount = sum((to_money(p["amount"]) for p in items if p["kind"] != "ITEM"), ZERO)
        label = " + ".join(filter(None, (_label(p) for p in items)))
        sig = (amount, label)
        if bands and bands[-1]["sig"] == sig and bands[-1]["last"] == place - 1:
            bands[-1]["last"] = place
        else:
            bands.append({"first": place, "last": place, "sig": sig})
    out = []
    for b in bands:
        places = str(b["first"]) if b["first"] == b["last"] else f"{b['first']}–{b['last']}"
        out.append({"places": places, "amount": money(b["sig"][0]), "prize": b["sig"][1]})
    return out


def template_shape(template) -> str:
    """What a venue template pays, as its list shows it: "2 places", or each band's ("2–10: 2
    places · 11–30: 3 places")."""
    if not template.bands:
        return _places(len(template.percents))
    return " · ".join(f"{band_label(b)}: {_places(len(b['percents']))}" for b in template.bands)


def _places(n: int) -> str:
    return ngettext("%(n)s place", "%(n)s places", n) % {"n": n}
