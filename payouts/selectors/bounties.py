"""Bounties: the money in and out, what is owed, and their panels on the screens (PAY-02).

The arithmetic is the pure ``payouts.bounties``; here it meets the ledger (taken in, paid
out) and the screens (the table map, the lobby, the phone, the history).
"""

from __future__ import annotations

from decimal import Decimal

from django.db.models import Count, Exists, OuterRef, Q, Sum

from tdmanager.money import CENT, ZERO
from tournaments.house import HouseRules
from tournaments.models import Entry, LedgerRow, Td3Event
from tournaments.oversight import selectors as oversight_selectors
from tournaments.people.names import public_names

from .. import bounties as bounty_engine
from ..models import BountyAward, BountyHead
from .common import money
from .pool import is_cancelled


def _bounty_paid_rows_q():
    """Ledger rows that pay bounties out (and their reversals): not bounty money taken in."""
    return oversight_selectors.bounty_payments_q()


def bounty_taken_in(t) -> Decimal:
    """The bounty part of every buy-in and re-entry sold, net of reversals and refunds."""
    return t.ledger.exclude(_bounty_paid_rows_q()).aggregate(b=Sum("bounty_amount"))["b"] or ZERO


def bounty_paid_out(t) -> Decimal:
    """Bounties handed over at the desk (a positive amount), net of reversed payments."""
    return -(t.ledger.filter(_bounty_paid_rows_q()).aggregate(b=Sum("bounty_amount"))["b"] or ZERO)


def bounties_owed_query(t):
    """Bounty awards won and not collected: cash for a player, standing, never paid or their
    payment reversed."""
    return (
        BountyAward.objects.filter(tournament=t, void="", winner__isnull=False, cash__gt=0, tournament__td3_event__isnull=True)
        .filter(Q(row__isnull=True) | Q(row__reversed_by__isnull=False))
        .order_by("created_at", "id")
    )


def _awarded(t, **filters) -> Decimal:
    return BountyAward.objects.filter(tournament=t, void="", **filters).aggregate(c=Sum("cash"))["c"] or ZERO


def bounty_money(t) -> dict:
    """Where the bounty money of ``t`` is (PAY-02), every figure positive, apart from the prize
    pool and the house fee: ``in`` the bounty parts sold, net of refunds and reversals; ``paid``
    bounties handed over at the desk, net of reversed payments; ``owed`` won and not collected;
    ``on_heads`` still on the heads of the players in (FIXED, PKO); ``in_bag`` a mystery event's
    money still in play (all of it before the director sets up the envelopes): the envelopes
    not drawn, and ``unbagged`` what the envelopes set up differ from the money taken in since
    (above zero: a late registration, a re-entry no envelope holds yet; below zero: a refund or a
    reversal of money an envelope holds, until the director sets them up again); ``house``
    kept by a house rule (a split's remainder, a removed player's bounty); ``carried`` mystery
    envelopes carried over to the next event; ``to_refund`` bounty parts of cancelled entries not
    refunded yet; ``borne`` in a cancelled tournament, the bounties collected before it was
    cancelled, which the house pays (every bounty part is refunded). ``difference``: ``in`` less all the others, zero when every cent is explained.
    ``active``: a bounty event, or bounty money on its ledger."""
    rules = HouseRules.of(t)
    taken, paid = bounty_taken_in(t), bounty_paid_out(t)
    owed = bounties_owed_query(t).aggregate(c=Sum("cash"))["c"] or ZERO
    house = _awarded(t, kind=BountyAward.HOUSE)
    carried = _awarded(t, kind=BountyAward.LEFTOVER, winner__isnull=True)
    on_heads = BountyHead.objects.filter(tournament=t).aggregate(a=Sum("amount"))["a"] or ZERO
    to_refund = t.ledger.filter(entry__status=Entry.CANCELLED).exclude(_bounty_paid_rows_q()).aggregate(b=Sum("bounty_amount"))["b"] or ZERO
    in_bag, unbagged, envelopes = ZERO, ZERO, rules.envelopes
    if rules.bounty == "MYSTERY":
        if envelopes:
            drawn = set(BountyAward.objects.filter(tournament=t, void="", envelope__isnull=False).values_list("envelope", flat=True))
            left = sum((a for n, a in enumerate(envelopes, start=1) if n not in drawn), ZERO)
            # Sold (or given back) since the envelopes were set up: in play, the envelopes not
            # matching it until the director sets them up again.
            unbagged = taken - to_refund - sum(envelopes, ZERO)
            in_bag = left + unbagged
        else:
            in_bag = taken - to_refund
        # The money left in play, once given at the end or settled by a deal (shared or carried over), is out.
        settled = _awarded(t, kind__in=(BountyAward.LEFTOVER, BountyAward.DEAL))
        in_bag -= settled
        if settled:
            unbagged = ZERO
    borne = ZERO
    if is_cancelled(t):
        # FMT-02: every bounty part is owed back with its refund, nothing is in play or kept, the
        # bounties not collected are void (``services.void_uncollected``), and those collected
        # before the cancellation stay with their winners: paid by the house.
        owed = on_heads = in_bag = unbagged = house = carried = ZERO
        borne = paid
    explained = paid + owed + on_heads + in_bag + house + carried + to_refund - borne
    return {
        "active": rules.bounty != "NONE" or bool(taken or paid),
        "kind": rules.bounty,
        "envelopes_set": bool(envelopes),
        "in": taken,
        "paid": paid,
        "owed": owed,
        "on_heads": on_heads,
        "in_bag": in_bag,
        "unbagged": unbagged,
        "house": house,
        "carried": carried,
        "to_refund": to_refund,
        "borne": borne,
        "difference": taken - explained,
    }


def bounties_of(person) -> dict:
    """The bounties ``person`` won (PAY-02), for his data export: ``bounties`` every standing award
    (with the receipt that paid it, if paid) and ``bounties_unpaid`` those not collected yet (an
    erasure waits for them)."""
    awards = BountyAward.objects.filter(winner__person=person, void="", cash__gt=0).select_related("row", "row__reversed_by").order_by("created_at", "id")
    won, unpaid = [], []
    for a in awards:
        paid = a.row_id is not None and not a.row.is_reversed
        item = {
            "tournament": a.tournament_id,
            "entry": a.winner_id,
            "kind": a.kind,
            "knocked_out_entry": a.knocked_out_id,
            "envelope": a.envelope,
            "amount": money(a.cash),
            "paid": paid,
            "receipt_number": a.row.receipt_number if paid else None,
            "created_at": a.created_at.isoformat(),
        }
        won.append(item)
        if not paid:
            unpaid.append(item)
    return {"bounties": won, "bounties_unpaid": unpaid}


NO_BOUNTY = "NONE"
HEAD_KINDS = ("FIXED", "PKO")  # the events with a bounty on every head (a mystery event has envelopes)
#: The biggest bounties a lobby screen lists.
BOUNTY_TOP = 5


def bounties_on_heads(t, entries=None) -> dict[int, str]:
    """``{entry id: the bounty on its head}`` in a FIXED or PKO event (the table map shows it by
    each seated player), of ``entries`` (ids) or of the whole field; one query, none (``{}``) in
    any other event."""
    if HouseRules.of(t).bounty not in HEAD_KINDS:
        return {}
    heads = BountyHead.objects.filter(tournament=t)
    if entries is not None:
        heads = heads.filter(entry_id__in=list(entries))
    return {entry: money(amount) for entry, amount in heads.values_list("entry_id", "amount")}


def bounty_panel(t, rules: HouseRules | None = None, *, taken: Decimal | None = None) -> dict:
    """What a lobby screen shows of a bounty event, the same size whatever the field:

    ``{"kind", "pool"`` (the bounty money taken in), ``"paid"`` (the cash the knockouts have
    given the players so far, collected at the desk or not)``}``; in a FIXED or PKO event
    ``"top"``: the ``BOUNTY_TOP`` biggest bounties on the heads still playing, ``[{"name",
    "amount"}]``; in a mystery event ``"envelopes"`` (how many the director set up, 0 before),
    ``"envelopes_left"``, ``"envelopes_left_amount"`` and ``"last_draw"`` (``{"id", "envelope",
    "amount", "names", "at"}``: the last envelope drawn, its winners, or None). Names as the
    lobby's public lists show them. ``taken``: the bounty money taken in, when the caller has read
    it. Three small queries (a mystery event: five), one fewer with ``taken``."""
    rules = rules or HouseRules.of(t)
    won = BountyAward.objects.filter(tournament=t, void="", winner__isnull=False).aggregate(c=Sum("cash"))["c"] or ZERO
    panel = {"kind": rules.bounty, "pool": money(bounty_taken_in(t) if taken is None else taken), "paid": money(won)}
    style = rules.seat_lookup_names
    if rules.bounty in HEAD_KINDS:
        rows = (
            BountyHead.objects.filter(tournament=t, amount__gt=0, entry__status=Entry.ACTIVE)
            .order_by("-amount", "entry__number")
            .values_list(
                "amount", "entry__person__first_name", "entry__person__last_name", "entry__person__nickname", "entry__person__hide_from_lookup", "entry__number"
            )
        )
        top = list(rows[:BOUNTY_TOP])
        names = public_names((row[1:] for row in top), style)  # two "Luca R." read "Luca R. #12" and "Luca R. #31"
        panel["top"] = [{"name": name, "amount": money(row[0])} for name, row in zip(names, top, strict=True)]
        return panel
    return panel | _mystery_panel(t, rules, style)


def _mystery_panel(t, rules: HouseRules, style: str) -> dict:
    envelopes = rules.envelopes
    if not envelopes:
        return {"envelopes": 0, "envelopes_left": None, "envelopes_left_amount": None, "last_draw": None}
    standing = BountyAward.objects.filter(tournament=t, void="")
    drawn = set(standing.filter(envelope__isnull=False).values_list("envelope", flat=True).distinct())
    if standing.filter(kind__in=(BountyAward.LEFTOVER, BountyAward.DEAL)).exists():  # the event is over, or a deal settled the bag
        left = []
    else:
        left = [amount for number, amount in enumerate(envelopes, start=1) if number not in drawn]
    last = None
    latest = standing.filter(envelope__isnull=False).order_by("-id").values_list("bust_id", flat=True)[:1]
    rows = list(
        standing.filter(bust_id__in=latest, envelope__isnull=False)
        .order_by("id")
        .values_list(
            "bust_id",
            "envelope",
            "created_at",
            "winner_id",
            "winner__person__first_name",
            "winner__person__last_name",
            "winner__person__nickname",
            "winner__person__hide_from_lookup",
            "winner__number",
        )
    )
    if rows:
        bust, number, at = rows[0][:3]
        names = public_names((row[4:] for row in rows if row[3] is not None), style)
        last = {"id": bust, "envelope": number, "amount": money(envelopes[number - 1]), "names": names, "at": at.isoformat()}
    return {
        "envelopes": len(envelopes),
        "envelopes_left": len(left),
        "envelopes_left_amount": money(sum(left, ZERO)),
        "last_draw": last,
    }


def _bounty_won_rows(entry_ids=None, tournament=None):
    """Each winning entry's standing bounty awards, summed: cash won, collected at the desk (a
    payment not reversed), knockouts."""
    awards = BountyAward.objects.filter(void="", winner__isnull=False)
    if tournament is not None:
        awards = awards.filter(tournament=tournament)
    if entry_ids is not None:
        awards = awards.filter(winner_id__in=list(entry_ids))
    return (
        awards.order_by()
        .values("winner_id")
        .annotate(
            won=Sum("cash"),
            # an archive's bounties (imported from TD3) were handed over in TD3's room, in no drawer here
            collected=Sum("cash", filter=Q(row__isnull=False, row__reversed_by__isnull=True) | Q(tournament__td3_event__isnull=False)),
            knockouts=Count("pk", filter=Q(kind=BountyAward.KNOCKOUT)),
        )
        .values_list("winner_id", "won", "collected", "knockouts")
    )


def _won_dict(won, collected, knockouts) -> dict:
    won, collected = won or ZERO, collected or ZERO
    return {"won": money(won), "collected": money(collected), "to_collect": money(won - collected), "knockouts": knockouts}


def bounty_parts(t, rules: HouseRules | None = None, entries=None) -> dict[int, dict]:
    """What a player's phone shows of a bounty event, for ``entries`` (ids) or every entry at
    once: ``{entry id: {"bounty": {"kind", "head", "won", "collected", "to_collect",
    "knockouts"}}}`` — ``head``: the bounty on the entry's head while it plays (FIXED, PKO;
    else None), ``won``: the cash its knockouts (and a winner's own bounty, the envelopes left)
    won, ``collected`` of it at the desk, ``to_collect`` the rest, ``knockouts`` how many.
    An entry with neither a bounty on its head nor a knockout has none. Two queries whatever
    the field (one in a mystery event)."""
    rules = rules or HouseRules.of(t)
    heads: dict[int, Decimal] = {}
    if rules.bounty in HEAD_KINDS:
        qs = BountyHead.objects.filter(tournament=t, amount__gt=0)
        if entries is not None:
            qs = qs.filter(entry_id__in=list(entries))
        heads = dict(qs.values_list("entry_id", "amount"))
    won = {row[0]: row[1:] for row in _bounty_won_rows(entries, tournament=t)}
    empty = _won_dict(ZERO, ZERO, 0)
    return {
        pk: {"bounty": {"kind": rules.bounty, "head": money(heads[pk]) if pk in heads else None, **(_won_dict(*won[pk]) if pk in won else empty)}}
        for pk in heads.keys() | won.keys()
    }


def bounties_won(entries) -> dict[int, dict]:
    """``{entry id: {"won", "collected", "to_collect", "knockouts"}}``: the bounties each of
    ``entries`` won (a player's history page), one query for them all; entries that won none
    are left out."""
    ids = [e.pk for e in entries]
    if not ids:
        return {}
    return {pk: _won_dict(won, collected, n) for pk, won, collected, n in _bounty_won_rows(ids)}


def knockouts_of(t, busts, winner: int | None = None) -> list[dict]:
    """What the knockouts of these busts (ids) won, and with ``winner`` the last player's own
    bounty or the envelopes left to him: standing awards won by a player, in the order recorded
    (a split pot's eliminators as the floor named them). What seating's bust answer, its bust
    list and the floor's banner show (``seating.signals.knockouts_wanted``)."""
    wanted = Q(bust_id__in=list(busts), kind=BountyAward.KNOCKOUT)
    if winner is not None:
        wanted |= Q(winner_id=winner, kind__in=(BountyAward.OWN, BountyAward.LEFTOVER))
    awards = BountyAward.objects.filter(wanted, tournament=t, void="", winner__isnull=False).select_related("winner__person").order_by("id")
    return [
        {
            "bust": a.bust_id,
            "kind": a.kind,
            "winner": a.winner_id,
            "entry_number": a.winner.number,
            "name": a.winner.person.full_name,
            "knocked_out": a.knocked_out_id,
            "cash": a.cash.quantize(CENT),
            "added": a.added.quantize(CENT),
            "envelope": a.envelope,
            "pot_share": a.pot_share,
        }
        for a in awards
    ]


def _bounty_ledger(t) -> tuple[Decimal, Decimal, Decimal]:
    """(taken in, paid out, to refund) in one query: ``bounty_money``'s ledger figures together."""
    paid = _bounty_paid_rows_q()
    agg = t.ledger.aggregate(
        taken=Sum("bounty_amount", filter=~paid),
        out=Sum("bounty_amount", filter=paid),
        refund=Sum("bounty_amount", filter=~paid & Q(entry__status=Entry.CANCELLED)),
    )
    return agg["taken"] or ZERO, -(agg["out"] or ZERO), agg["refund"] or ZERO


def bounty_settings(t, rules: HouseRules | None = None) -> dict:
    """The bounty rules in force (PAY-02), as the desk and the director read them."""
    rules = rules or HouseRules.of(t)
    return {
        "kind": rules.bounty,
        "bounty_part": money(rules.bounty_part),
        "cash_percent": str(rules.bounty_cash_percent),
        "split": rules.bounty_split,
        "remainder": rules.bounty_remainder,
        "rounding": str(rules.bounty_rounding),
        "mystery_from": rules.mystery_from,
        "mystery_leftover": rules.mystery_leftover,
        "bounty_in_deal": rules.bounty_in_deal,
    }


def _owed(award) -> bool:
    """A standing award with cash for a player, never paid or its payment reversed."""
    return not award.void and award.winner_id is not None and award.cash > 0 and (award.row_id is None or award.row_reversed)


def bounties_owed(t) -> list[dict]:
    """What the desk has to pay in bounties, one line per player (PAY-02): his entry, the
    number of bounties and their cash, oldest first. One query."""
    by_entry: dict[int, dict] = {}
    for a in bounties_owed_query(t).select_related("winner__person"):
        line = by_entry.get(a.winner_id)
        if line is None:
            e = a.winner
            line = by_entry[a.winner_id] = {"entry": e, "entry_id": e.pk, "entry_number": e.number, "name": e.person.full_name, "count": 0, "amount": ZERO}
        line["count"] += 1
        line["amount"] += a.cash
    return list(by_entry.values())


def bounties_paid(t) -> list[dict]:
    """Each bounty paid at the desk and not given back (PAY-02), newest payment first, for the
    desk to record one given back (a bust to be undone after its bounty was collected): the
    award, its winner, who he knocked out, the cash and the receipt that paid it. One query."""
    awards = (
        BountyAward.objects.filter(tournament=t, void="", winner__isnull=False, cash__gt=0, row__isnull=False, row__reversed_by__isnull=True)
        .select_related("winner__person", "knocked_out__person", "row")
        .order_by("-row__receipt_number", "id")
    )
    return [
        {
            "id": a.pk,
            "kind": a.kind,
            "entry_id": a.winner_id,
            "entry_number": a.winner.number,
            "name": a.winner.person.full_name,
            "knocked_out_name": a.knocked_out.person.full_name if a.knocked_out_id else "",
            "amount": a.cash,
            "receipt": a.row.receipt_number,
            "method": a.row.method,
        }
        for a in awards
    ]


def bounty_overview(t) -> dict:
    """A bounty event at a glance (PAY-02): the settings in force, each live player's bounty
    (FIXED and PKO), every standing award with its payment or what is owed, and the totals:

    taken in = paid out + owed + on heads + envelopes left + house + carried over + to refund,

    to the cent once the mystery envelopes are set up (``bounty_money``'s figures). Three queries
    whatever the field: the ledger's sums, the heads, the awards (players, knocked-out players
    and paying rows joined); the envelopes are the house settings'."""
    rules = HouseRules.of(t)
    taken, paid_out, to_refund = _bounty_ledger(t)
    heads = [
        {"entry": h.entry_id, "entry_number": h.entry.number, "name": h.entry.person.full_name, "bought": money(h.bought), "amount": money(h.amount)}
        for h in BountyHead.objects.filter(tournament=t, entry__status=Entry.ACTIVE).select_related("entry__person").order_by("-amount", "entry__number")
    ]
    on_heads = sum((Decimal(h["amount"]) for h in heads), ZERO)
    awards = list(
        BountyAward.objects.filter(tournament=t, void="")
        .select_related("winner__person", "knocked_out__person", "row")
        .annotate(row_reversed=Exists(LedgerRow.objects.filter(reverses=OuterRef("row"))))
        .order_by("created_at", "id")
    )
    owed = house = carried = ZERO
    rows = []
    archived = Td3Event.objects.filter(tournament_id=t.pk).exists()  # its bounties were handed over in TD3's room
    for a in awards:
        is_owed = _owed(a) and not archived
        paid = a.row_id is not None and not a.row_reversed
        if is_owed:
            owed += a.cash
        if a.kind == BountyAward.HOUSE:
            house += a.cash
        if a.kind == BountyAward.LEFTOVER and a.winner_id is None:
            carried += a.cash
        rows.append(
            {
                "id": a.pk,
                "kind": a.kind,
                "winner": a.winner_id,
                "winner_name": a.winner.person.full_name if a.winner_id else "",
                "winner_number": a.winner.number if a.winner_id else None,
                "knocked_out": a.knocked_out_id,
                "knocked_out_name": a.knocked_out.person.full_name if a.knocked_out_id else "",
                "knocked_out_number": a.knocked_out.number if a.knocked_out_id else None,
                "cash": money(a.cash),
                "added": money(a.added),
                "envelope": a.envelope,
                "paid_receipt": a.row.receipt_number if paid else None,
                "owed": is_owed,
                "created_at": a.created_at.isoformat(),
            }
        )
    envelopes = rules.envelopes if rules.bounty == bounty_engine.MYSTERY else []
    drawn = {a.envelope for a in awards if a.envelope is not None}
    # What was left has gone to the winner or the next event, or a deal settled it.
    finished = any(a.kind in (BountyAward.LEFTOVER, BountyAward.DEAL) for a in awards)
    left = [] if finished else [n for n in range(1, len(envelopes) + 1) if n not in drawn]
    return {
        "settings": bounty_settings(t, rules),
        "currency": t.currency,
        "heads": heads,
        "awards": rows,
        "envelopes": {
            "count": len(envelopes),
            "total": money(sum(envelopes, ZERO)),
            "left": len(left),
            "left_amount": money(sum((envelopes[n - 1] for n in left), ZERO)),
        },
        "totals": {
            "taken_in": money(taken),
            "paid_out": money(paid_out),
            "owed": money(owed),
            "on_heads": money(on_heads),
            "envelopes_left": money(sum((envelopes[n - 1] for n in left), ZERO)),
            "house": money(house),
            "carried_over": money(carried),
            "to_refund": money(to_refund),
        },
    }


def knockouts_by_entry(t) -> dict[int, int]:
    """{entry id: players it knocked out} in a bounty event: its standing knockouts (an undone
    bust's are void). A split pot's knockout counts once for each of its eliminators, as each
    won a share of the bounty. A removal (nobody knocked him out) counts for nobody."""
    rows = (
        BountyAward.objects.filter(tournament=t, kind=BountyAward.KNOCKOUT, void="", winner__isnull=False)
        .values("winner")
        .annotate(n=Count("knocked_out", distinct=True))
    )
    return {r["winner"]: r["n"] for r in rows}
