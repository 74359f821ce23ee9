"""Finishing places, the prizes due, forfeits and the ranking sign-off (PEN-07).

What the desk pays and the director signs: tied places share their prizes, a forfeited
prize goes where the house rule sends it, and nothing is due before its place is decided.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import ROUND_DOWN

from django.utils.translation import gettext as _

from tdmanager.formatting import when
from tdmanager.money import CENT, ZERO, split_evenly, to_money
from tournaments import signals as tournament_signals
from tournaments.house import HouseRules
from tournaments.models import Entry, LedgerRow, Tournament
from tournaments.setup import selectors as setup_selectors

from .. import pool as pool_engine
from ..models import PrizePayment, RankingSignoff, SideAward
from .satellites import satellite_link
from .table import places_paid, table_prizes


def placed_entries(t):
    return t.entries.exclude(status=Entry.CANCELLED).filter(place__isnull=False).select_related("person").order_by("place", "number")


def prize_place_decided(t) -> bool:
    """Whether the prizes of the paid places are decided on the pool as it stands: a player has
    finished in one, or every player still in a running event is in the money (one entry fewer
    would move a player out earlier into a paid place). The pool then no longer shrinks nor its
    guarantee changes (PAY-05)."""
    paid = places_paid(t)
    if paid == 0:
        return False
    if placed_entries(t).filter(place__lte=paid).exists():
        return True
    return t.status == Tournament.RUNNING and t.entries.filter(status=Entry.ACTIVE).count() <= paid


def place_groups(t) -> dict[int, list]:
    """place → the entries that finished there (several = a shared place, ELM-06)."""
    groups = defaultdict(list)
    for e in placed_entries(t):
        groups[e.place].append(e)
    return dict(groups)


def places_pending(t) -> dict[int, int]:
    """place → the players its group will hold, for the shared places still being decided (a
    heads-up round under way: formats answers ``place_spans_pending``)."""
    out: dict[int, int] = {}
    for answer in tournament_signals.ask(tournament_signals.place_spans_pending, tournament=t):
        out.update(answer)
    return out


def place_spans(t, groups=None, pending=None) -> dict[int, int]:
    """place → how many places its group covers (p … p+span−1): its players, or all those it
    will hold while it is still being decided (``places_pending``)."""
    groups = place_groups(t) if groups is None else groups
    pending = places_pending(t) if pending is None else pending
    return {place: max(len(members), pending.get(place, 0)) for place, members in groups.items()}


def ranking_snapshot(t) -> dict:
    return {str(e.pk): e.place for e in placed_entries(t)}


def _groups_of(snapshot: dict) -> dict:
    groups = defaultdict(set)
    for eid, place in snapshot.items():
        groups[place].add(str(eid))
    return groups


def released_places(t) -> set[int]:
    """Places whose entries two people signed off as they stand now (ELM-07): the director and
    the administrative controller, two different users. A later change to that place voids the
    signatures."""
    current = _groups_of(ranking_snapshot(t))
    signers = defaultdict(list)  # place → [(user, role)]
    for s in RankingSignoff.objects.filter(tournament=t):
        for place, ids in _groups_of(s.snapshot).items():
            if current.get(place) == ids:
                signers[place].append((s.user_id, s.role))
    released = set()
    for place, who in signers.items():
        directors = {u for u, r in who if r == RankingSignoff.DIRECTOR}
        controllers = {u for u, r in who if r == RankingSignoff.CONTROLLER}
        if directors and controllers and len(directors | controllers) >= 2:
            released.add(place)
    return released


def active_payments(t) -> dict:
    """(entry id, source) → the payment that stands (its ledger row not reversed)."""
    reversed_rows = set(LedgerRow.objects.filter(tournament=t, kind=LedgerRow.REVERSAL).values_list("reverses_id", flat=True))
    out = {}
    for pay in PrizePayment.objects.filter(tournament=t).select_related("row"):
        if pay.row_id and pay.row_id in reversed_rows:
            continue
        out[(pay.entry_id, pay.source)] = pay
    return out


FORFEIT_SOURCE = "MAIN:FORFEIT"  # what a player receives of a prize another forfeited (PEN-07, C27)


def dues(t, prizes=None) -> list[dict]:
    """Every prize won so far, per entry: amount, whether released (sign-off) and paid: the
    list the desk pays and hands over from, each prize on its own (PAY-13).

    A shared place (several entries with the same place, the best place of the group)
    covers places p … p+m−1: the cash of those places is split with
    ``payouts.pool.shared_place_amounts`` (odd cents to the first listed by entry number,
    or to the house: setting ``shared_odd_cents``). Each seat, ticket or item of a place is a
    prize of its own, handed over on its own (a trophy and a watch for 1st: source
    ``MAIN:ITEM`` and ``MAIN:ITEM:2``). It goes to each member only when every place of the
    group has the same one; otherwise it is held for the director to decide (ELM-06 [CONFIG]).

    A player eliminated without prize (PEN-07, C27) keeps his place and his prize is listed
    with ``forfeited`` (it is never paid); what others receive of it (``forfeit_plan``) is a
    prize of its own, source ``MAIN:FORFEIT``.
    """
    return dues_and_forfeits(t, prizes)[0]


def forfeit_plan(t, prizes=None) -> dict:
    """PEN-07 / C27: the prizes forfeited by eliminations without prize and where they go.

    Setting ``forfeited_prize``: ``HOLD`` (default; RULES §14 q13 leaves it open, so the house
    keeps the money until the director or the regulator decides), ``REDISTRIBUTE`` (shared by
    the other paid places in proportion to their cash prizes, odd cents to the best of them),
    ``NEXT_PLACE`` (every player placed below a forfeited place is paid as if one place higher;
    the first place out of the money is paid the last prize). The ranking never changes.

    ``{"rule", "forfeits": [{"entry_id", "name", "place", "kind", "amount"}], "total" (cash),
    "other" (tickets, seats), "extras": [{"entry_id", "name", "place", "amount"}] (decided
    players), "pending": {place: amount} (REDISTRIBUTE: places still in play), "redistributed",
    "held"}``. total + other = redistributed + Σ pending + held, to the cent.
    """
    return dues_and_forfeits(t, prizes)[1]


def dues_and_forfeits(t, prizes=None) -> tuple[list[dict], dict]:
    """``(dues(t), forfeit_plan(t))`` read in one pass, for a page that shows both."""
    prizes = table_prizes(t) if prizes is None else prizes
    by_place = defaultdict(list)
    for p in prizes:
        by_place[p["place"]].append(p)
    released = released_places(t)
    paid = active_payments(t)
    rules = HouseRules.of(t)
    odd = rules.shared_odd_cents
    forfeited = setup_selectors.prize_forfeited_entries(t)
    groups = place_groups(t)
    pending = places_pending(t)
    spans = place_spans(t, groups, pending)
    out = []

    def item(e, place, m, kind, amount, source, description="", held=False, target=None):
        pay = paid.get((e.pk, source))
        out.append(
            {
                "entry": e,
                "entry_id": e.pk,
                "person": e.person,
                "name": e.person.full_name,
                "place": place,
                "shared_with": m,
                "kind": kind,
                "amount": to_money(amount).quantize(CENT),
                "source": source,
                "description": description,
                "target": target,
                "held": held,
                "released": place in released,
                "payment": pay,
                "paid": pay is not None,
                "forfeited": e.pk in forfeited and source.startswith("MAIN:") and source != FORFEIT_SOURCE,
                # a place shared by players still playing for it: paid once they are all placed
                "pending": place in pending and source.startswith("MAIN:"),
            }
        )

    def seats_in_money() -> bool:
        """The satellite has ended and gives a winner its target did not take the seat's value in money."""
        if "link" not in seen:
            seen["link"] = satellite_link(t)
        link = seen["link"]
        return link is not None and link.completed_at is not None and link.already_registered == link.CASH

    seen = {}
    cash_of = defaultdict(lambda: ZERO)
    for p in prizes:
        if p["kind"] == "CASH":
            cash_of[p["place"]] += to_money(p["amount"])
    for place, members in sorted(groups.items()):
        m = spans[place]
        covered = [by_place.get(q, []) for q in range(place, place + m)]
        cash = [cash_of[q] for q in range(place, place + m)]
        if any(cash):
            shares = pool_engine.shared_place_amounts(cash, m, odd)
            for e, share in zip(members, shares):
                item(e, place, m, "CASH", share, "MAIN:CASH")
        for kind in ("SEAT", "TICKET", "ITEM"):
            kinds = [[p for p in items if p["kind"] == kind] for items in covered]
            # Each prize of a kind is a due of its own (a trophy AND a watch for 1st: both are
            # handed over): the n-th of its kind, source ``MAIN:<kind>`` then ``MAIN:<kind>:<n>``.
            # A shared place gives the n-th to each member only when every place it covers has
            # the same n-th; otherwise the director decides (held).
            for n in range(max(len(k) for k in kinds)):
                nth = [k[n] if n < len(k) else None for k in kinds]
                same = all(nth) and len({(p["amount"], p["description"], p["target"]) for p in nth}) == 1
                source = f"MAIN:{kind}" if n == 0 else f"MAIN:{kind}:{n + 1}"
                for e, p in zip(members, nth):
                    p = p or next(q for q in nth if q)
                    if kind == "SEAT" and (e.pk, source) not in paid and seats_in_money():
                        # FMT-08 [CONFIG] CASH: a winner the target did not take is paid the seat's value at the desk
                        item(e, place, m, "CASH", p["amount"], source, _("Seat value in money: %(t)s") % {"t": p["description"]}, held=not same)
                        continue
                    item(e, place, m, kind, p["amount"], source, p["description"], held=not same, target=p["target"])
    plan = _forfeits(rules.forfeited_prize, [d for d in out if d["forfeited"]], groups, cash_of)
    for x in plan["extras"]:
        e = x["entry"]
        description = _("Prize forfeited by place %(places)s (PEN-07)") % {"places": ", ".join(str(p) for p in plan["places"])}
        item(e, e.place, 1, "CASH", x["amount"], FORFEIT_SOURCE, description)
    for award in SideAward.objects.filter(pool__tournament=t).select_related("entry__person", "pool"):
        e = award.entry
        item(e, e.place, 1, "CASH", award.amount, f"SIDE:{award.pk}", award.pool.name)
        out[-1]["released"] = True  # side prizes are not part of the ranking sign-off
    for award in chip_leader_awards(t):
        e = award.entry
        description = _("Chip leader no. %(rank)s of flight %(flight)s") % {"rank": award.rank, "flight": award.flight.label}
        if award.shared_with > 1:
            description += " " + _("(shared by %(m)s)") % {"m": award.shared_with}
        item(e, e.place, award.shared_with, award.kind, award.amount, f"CHIPLEADER:{award.pk}", description)
        out[-1]["released"] = True  # decided by the bag counts, not by the ranking
    return out, plan


def _forfeits(rule: str, lost: list[dict], groups: dict, cash_of: dict) -> dict:
    """Where the forfeited prizes go (``forfeit_plan``), from the forfeited dues."""
    forfeits = [
        {"entry_id": d["entry_id"], "name": d["name"], "place": d["place"], "kind": d["kind"], "amount": d["amount"]} for d in lost if d["kind"] != "ITEM"
    ]
    total = sum((f["amount"] for f in forfeits if f["kind"] == "CASH"), ZERO)
    other = sum((f["amount"] for f in forfeits if f["kind"] != "CASH"), ZERO)
    forfeited_ids = {d["entry_id"] for d in lost}
    tainted = {place for place, members in groups.items() if any(e.pk in forfeited_ids for e in members)}
    extras = defaultdict(lambda: ZERO)
    pending = {}
    if total > 0 and rule == "REDISTRIBUTE":
        covered_by_tainted = {q for p in tainted for q in range(p, p + len(groups[p]))}
        weights = {q: v for q, v in sorted(cash_of.items()) if v > 0 and q not in covered_by_tainted}
        weight = sum(weights.values(), ZERO)
        if weight > 0:
            per_place = {q: (total * v / weight).quantize(CENT, rounding=ROUND_DOWN) for q, v in weights.items()}
            per_place[min(per_place)] += total - sum(per_place.values(), ZERO)  # odd cents to the best place
            decided = set()
            for place, members in groups.items():
                places = range(place, place + len(members))
                decided.update(places)
                if place in tainted:
                    continue
                amount = sum((per_place.get(q, ZERO) for q in places), ZERO)
                for e, share in zip(members, split_evenly(amount, len(members))):
                    extras[e] += share
            pending = {q: a for q, a in per_place.items() if q not in decided and a > 0}
    elif total > 0 and rule == "NEXT_PLACE":
        lost_places = [f["place"] for f in forfeits if f["kind"] == "CASH" and f["amount"] > 0]
        for place, members in groups.items():
            above = sum(1 for p in lost_places if p < place)
            if place in tainted or not above:
                continue
            m = len(members)
            now = sum((cash_of.get(q, ZERO) for q in range(place - above, place - above + m)), ZERO)
            before = sum((cash_of.get(q, ZERO) for q in range(place, place + m)), ZERO)
            for e, share in zip(members, split_evenly(max(ZERO, now - before), m)):
                extras[e] += share
    extra_rows = [
        {"entry": e, "entry_id": e.pk, "name": e.person.full_name, "place": e.place, "amount": a}
        for e, a in sorted(extras.items(), key=lambda x: (x[0].place, x[0].number))
        if a > 0
    ]
    redistributed = sum((x["amount"] for x in extra_rows), ZERO)
    held = total + other - redistributed - sum(pending.values(), ZERO)
    return {
        "rule": rule,
        "forfeits": forfeits,
        "places": sorted({f["place"] for f in forfeits}),
        "total": total,
        "other": other,
        "extras": extra_rows,
        "pending": pending,
        "redistributed": redistributed,
        "held": held,
    }


def chip_leader_awards(t):
    """PAY-08: the chip-leader prizes of a flight (paid at its desk once the flight closes),
    read through the flight's relation (formats composes payouts, never the reverse)."""
    flight = getattr(t, "flight", None)
    if flight is None:
        return []
    return flight.chip_leader_awards.select_related("entry__person", "flight").order_by("rank", "id")


def due_for(t, entry, source) -> dict | None:
    return next((d for d in dues(t) if d["entry_id"] == entry.pk and d["source"] == source), None)


def signoff_status(t) -> dict:
    snap = ranking_snapshot(t)
    current = [s for s in RankingSignoff.objects.filter(tournament=t).select_related("user") if s.snapshot == snap]
    return {
        "places_decided": len(snap),
        "released_places": sorted(released_places(t)),
        "signed_now": [
            {
                "user": s.user.get_username(),
                "name": s.user.get_full_name() or s.user.get_username(),
                "role": s.role,
                "role_label": str(RankingSignoff.ROLE_LABELS.get(s.role, s.role)),
                "at": s.created_at.isoformat(),
                "at_local": when(s.created_at, "datetime"),
            }
            for s in current
        ],
        "complete": bool(snap) and len(released_places(t)) == len(set(snap.values())),
    }
