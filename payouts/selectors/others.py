"""The payout reads other apps ask for: prizes by entry and by person, the report links.

Asked through ``payouts.receivers`` (the phone, the player's history, the tournament page),
never imported by the apps below payouts.
"""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tdmanager.money import ZERO
from tournaments.house import HouseRules
from tournaments.models import Entry, Tournament
from tournaments.setup import selectors as setup_selectors

from ..models import PayoutTable, PrizePayment, SideAward, Ticket
from .bounties import NO_BOUNTY, bounties_of, bounties_won, bounty_parts
from .common import money
from .prizes import chip_leader_awards, dues
from .table import _label, table_state

#: An entry that may have won a prize: placed, or awarded one that needs no place (a side prize,
#: a flight's chip-leader prize, PAY-08: the chip leader bags and plays on, his flight entry
#: never placed).
MAY_HAVE_WON = Q(place__isnull=False) | Q(side_awards__isnull=False) | Q(chip_leader_awards__isnull=False)


def won_by_entry(t, prizes=None) -> dict:
    """What each placed entry won in the main event, for the lobby's results once it is over:
    ``{entry id: {"amount": cash, "prize": other prizes in words}}`` (forfeited prizes left out)."""
    won = {}
    for d in dues(t, prizes):
        if not d["source"].startswith("MAIN:") or d["forfeited"]:
            continue
        row = won.setdefault(str(d["entry_id"]), {"amount": ZERO, "prize": []})
        if d["kind"] == "CASH":
            row["amount"] += d["amount"]
        else:
            row["prize"].append(_label(d))
    return {k: {"amount": money(v["amount"]), "prize": " + ".join(v["prize"])} for k, v in won.items()}


def person_prizes(person) -> dict:
    """What payouts holds about one person (his data export, GDPR access) and the prizes he won
    that are not paid yet (an erasure waits for them): ``{"prize_payments", "tickets", "prizes_unpaid",
    "bounties", "bounties_unpaid"}`` (PAY-02: the bounties he won, ``bounties_of``)."""
    payments = [
        {
            "tournament": p.tournament_id,
            "entry": p.entry_id,
            "source": p.source,
            "kind": p.kind,
            "place": p.place,
            "amount": money(p.amount),
            "method": p.method,
            "reference": p.reference,
            "payee": p.payee,
            "receipt_number": p.row.receipt_number if p.row_id else None,
            "created_at": p.created_at.isoformat(),
        }
        for p in PrizePayment.objects.filter(entry__person=person).select_related("row").order_by("id")
    ]
    tickets = [
        {
            "id": t.pk,
            "target": t.target_id,
            "value": money(t.value),
            "description": t.description,
            "status": t.status,
            "created_at": t.created_at.isoformat(),
            "redeemed_entry": t.redeemed_entry_id,
        }
        for t in Ticket.objects.filter(holder=person).order_by("id")
    ]
    unpaid = []
    for t in Tournament.objects.filter(pk__in=Entry.objects.filter(MAY_HAVE_WON, person=person).values("tournament_id")):
        for d in dues(t):
            if d["person"].pk == person.pk and not d["paid"] and not d["forfeited"]:
                unpaid.append({"tournament": t.pk, "entry": d["entry_id"], "place": d["place"], "kind": d["kind"], "amount": money(d["amount"])})
    return {"prize_payments": payments, "tickets": tickets, "prizes_unpaid": unpaid, **bounties_of(person)}


def entry_prizes(entry) -> dict:
    """What the player's phone page shows of payouts for this entry alone: the prizes it won
    (a forfeited one is left out), once it may have won one (``MAY_HAVE_WON``); in a bounty
    event its ``bounty`` (``bounty_parts``)."""
    rules = HouseRules.of(entry.tournament)
    out = bounty_parts(entry.tournament, rules, [entry.pk]).get(entry.pk, {}) if rules.bounty != NO_BOUNTY else {}
    if not Entry.objects.filter(MAY_HAVE_WON, pk=entry.pk).exists():
        return {"prizes": [], **out}
    return {"prizes": _phone_prizes(dues(entry.tournament), entry.tournament).get(entry.pk, []), **out}


def history_prizes(entries) -> dict[int, dict]:
    """{entry id: {"prizes": [...], "bounties": {...}}} for a player's history page: what each
    entry that may have won (``MAY_HAVE_WON``) won (the payouts worked out once per tournament)
    and, in a bounty event, the bounties it won (``bounties_won``, one query for them all)."""
    out: dict[int, dict] = {}
    by_tournament: dict = {}
    won_some = set(Entry.objects.filter(MAY_HAVE_WON, pk__in=[e.pk for e in entries]).values_list("pk", flat=True))
    for e in entries:
        if e.pk in won_some:
            by_tournament.setdefault(e.tournament, []).append(e.pk)
    for t, ids in by_tournament.items():
        won = _phone_prizes(dues(t), t)
        for pk in ids:
            if won.get(pk):
                out[pk] = {"prizes": won[pk]}
    for pk, won in bounties_won([e for e in entries if HouseRules.of(e.tournament).bounty != NO_BOUNTY]).items():
        out.setdefault(pk, {})["bounties"] = won
    return out


def entries_prizes(tournament, places_paid: int | None = None) -> dict[int, dict]:
    """``entry_prizes`` for every entry of the tournament that may have won, the prizes worked out
    once: ``{entry id: {"prizes": [...]}}``. With ``places_paid`` (the lobby's, of the same
    change), they are worked out only once somebody may have won: a big field's busts, far
    from the money, cost no payout table at every change. In a bounty event every entry with a
    bounty on its head or won has its ``bounty`` too (``bounty_parts``: two queries for them all)."""
    rules = HouseRules.of(tournament)
    out: dict[int, dict] = dict(bounty_parts(tournament, rules)) if rules.bounty != NO_BOUNTY else {}
    if places_paid is not None and not _anybody_may_have_won(tournament, places_paid):
        return out
    if not tournament.entries.filter(MAY_HAVE_WON).exists():
        return out
    for entry, prizes in _phone_prizes(dues(tournament), tournament).items():
        out[entry] = {**out.get(entry, {}), "prizes": prizes}
    return out


def _anybody_may_have_won(t, places_paid: int) -> bool:
    """An entry placed within the places paid (as many places lower as prizes were forfeited:
    under NEXT_PLACE each moves the prizes one place down, PEN-07), a side prize awarded (the
    Last Longer, PAY-10, may go to a player still playing, far from the money), or a flight's
    chip-leader award (PAY-08): what ``dues`` lists, or nothing."""
    reach = places_paid + len(setup_selectors.prize_forfeited_entries(t))
    return (
        t.entries.filter(place__isnull=False, place__lte=reach).exists() or SideAward.objects.filter(pool__tournament=t).exists() or bool(chip_leader_awards(t))
    )


def _phone_prizes(due: list[dict], t=None) -> dict[int, list[dict]]:
    """The prizes a phone shows, per entry (a forfeited one is never shown: it is not paid),
    each with ``ready``: the desk may pay it now (``services.prizes.pay_prize`` refuses none of
    its conditions: the table locked for a main prize, the place released by its two
    sign-offs, not held for the director, not shared with players still playing for it).
    ``t``: the tournament, to read the table's state once (without it nothing is ready)."""
    locked = t is not None and table_state(t) == PayoutTable.LOCKED
    by_entry: dict[int, list[dict]] = defaultdict(list)
    for d in due:
        if not d["forfeited"]:
            ready = (
                t is not None
                and not d["paid"]
                and d["released"]
                and not d["held"]
                and not d["pending"]
                and (locked or not d["source"].startswith("MAIN:"))
                and (d["kind"] == "ITEM" or d["amount"] > 0)
            )
            by_entry[d["entry_id"]].append(
                {"amount": money(d["amount"]), "kind": d["kind"], "description": d["description"], "paid": d["paid"], "ready": bool(ready)}
            )
    return by_entry


# The reports as the pages name them (never their file names): the payouts page and the
# tournament page's links to the control authority.
REPORT_LABELS = {
    "prestart": gettext_lazy("Pre-start report"),
    "standings": gettext_lazy("Final standings"),
    "payments": gettext_lazy("Prize payments"),
    "reconciliation": gettext_lazy("Reconciliation"),
    "rulings": gettext_lazy("Rulings report"),
}


def report_links(tournament) -> list[dict]:
    """The control authority's reports of this tournament (ROLE-02, ROLE-05): the pre-start
    report, each addendum issued, the rulings."""

    def link(name, label):
        return {
            "name": name,
            "label": label,
            "pdf": reverse("payouts-report", args=[tournament.pk, name, "pdf"]),
            "csv": reverse("payouts-report", args=[tournament.pk, name, "csv"]),
        }

    links = [link("prestart", REPORT_LABELS["prestart"])]
    links += [link(f"addendum-{n}", _("Addendum %(n)s") % {"n": n}) for n in tournament.stub_reports.order_by("number").values_list("number", flat=True)]
    links.append(link("rulings", REPORT_LABELS["rulings"]))
    return links


def tournament_links(tournament) -> list[dict]:
    """Buttons the tournament page shows for this app: [{"label", "url"}]."""
    links = [{"label": _("Payouts"), "url": reverse("payouts-tournament", args=[tournament.pk])}]
    links.append({"label": _("Payouts due"), "url": reverse("payouts-due") + f"?t={tournament.pk}"})
    links.append({"label": _("Deal calculator"), "url": reverse("payouts-deal", args=[tournament.pk])})
    return links
