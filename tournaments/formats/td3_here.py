"""TD3's points formula over an event played here: a league brought in from TD3 goes on with it.

A league imported from The Tournament Director keeps its points formula (``Series.td3_formula``,
TD3's ``Financials.PointsForPlaying``). An event played here in that league is scored by the same
formula: the event and each player's result are given as TD3's variables (the names of
``imports.td3.variables.VARIABLES``; those an event here does not know count 0, as in TD3's test
dialog) and the formula is evaluated by the bounded interpreter (``imports.td3.formula``).

What an event here gives, read as TD3 reads its own (``imports.td3.variables`` for an import):

- the field: ``n`` (``buyins``, ``numberOfPlayers``) the players of the event, as the league
  counts them; ``nm`` the same (every player of a league's event is its member);
- the money, from the desk's ledger (sales not reversed): each buy-in, re-entry, rebuy and add-on
  as TD3's purchase: its amount what the player paid (prize part, fee and jackpot fee), its rake
  the fee and the jackpot fee, a bounty part as a bounty chip's cost; the pot the prize pool;
- the player: his place (``r``), knockouts (``nh``), buy-ins, rebuys and add-ons with their cost
  and rake, the prizes he won in cash (``pw``), the bounties he won (``bw``), the take.

The event is over when it is scored: no player left, no clock running (``state`` 3, "after").
"""

from __future__ import annotations

from decimal import Decimal

from payouts.selectors.bounties import bounties_won
from payouts.selectors.pool import prize_pool
from payouts.selectors.prizes import dues
from tournaments.imports.td3 import formula as td3_formula
from tournaments.imports.td3.variables import PROFILES_KEY, RAKES_KEY
from tournaments.models import Entry, LedgerRow

ZERO = Decimal(0)
SALES = (LedgerRow.BUY_IN, LedgerRow.RE_ENTRY, LedgerRow.REBUY, LedgerRow.ADD_ON)


def points(text: str, t, places, knockouts: dict[int, int]) -> dict[int, Decimal]:
    """``{person id: points}`` for ``places`` (``(person, place, shared_with)``, as the league
    ranks the event ``t``) by TD3's formula ``text``. A formula that gives no number for a player
    raises ``FormulaError`` (its message says why)."""
    event = event_variables(t, len(places))
    players = player_variables(t, places, knockouts, event)
    return {person_id: td3_formula.points(text, {**event, **values}) for person_id, values in players.items()}


def _purchases(t) -> dict[int, list[tuple[str, Decimal, Decimal, Decimal]]]:
    """``{person id: [(kind, amount, rake, bounty)]}``: every sale of ``t`` not reversed."""
    out: dict[int, list] = {}
    rows = (
        LedgerRow.objects.filter(tournament=t, kind__in=SALES, entry__isnull=False, reversed_by__isnull=True)
        .order_by("created_at", "pk")
        .values_list("entry__person_id", "kind", "prize_amount", "fee_amount", "jackpot_amount", "bounty_amount")
    )
    for person_id, kind, prize, fee, jackpot, bounty in rows:
        out.setdefault(person_id, []).append((kind, prize + fee + jackpot, fee + jackpot, bounty))
    return out


def event_variables(t, players: int) -> dict:
    """The event's variables when it is over: the field, the money, the purchases."""
    bought = [sale for sales in _purchases(t).values() for sale in sales]

    def of(*kinds):
        return [sale for sale in bought if sale[0] in kinds]

    def amount(sales):
        return sum((sale[1] for sale in sales), ZERO)

    def rake(sales):
        return sum((sale[2] for sale in sales), ZERO)

    buyins, rebuys, addons = of(LedgerRow.BUY_IN, LedgerRow.RE_ENTRY), of(LedgerRow.REBUY), of(LedgerRow.ADD_ON)
    pot = prize_pool(t)
    paid_places = [d["place"] for d in dues(t) if d["source"].startswith("MAIN:") and d.get("place")]
    raked = rake(bought)
    return {
        "buyins": players,
        "numberOfLeagueMembers": players,
        "playersLeft": 0,
        "state": 3,
        "stateDesc": "after",
        "pot": pot,
        "preGuaranteedPot": pot,
        "guaranteedPot": t.guarantee or ZERO,
        "inTheMoneyRank": max(paid_places, default=0),
        "bountyTotal": sum((sale[3] for sale in bought), ZERO),
        "totalBuyinsAmount": amount(buyins),
        "totalBuyinsRake": rake(buyins),
        "totalRebuys": len(rebuys),
        "totalRebuysAmount": amount(rebuys),
        "totalRebuysRake": rake(rebuys),
        "totalAddOns": len(addons),
        "totalAddOnsAmount": amount(addons),
        "totalAddOnsRake": rake(addons),
        "defaultBuyinFee": (t.buy_in or ZERO) + (t.fee or ZERO),
        "defaultBuyinRake": t.fee or ZERO,
        "defaultBuyinChips": t.starting_stack or 0,
        "time": int(t.start_at.timestamp()) if t.start_at else 0,
        PROFILES_KEY: {},
        RAKES_KEY: {"": raked},
    }


def player_variables(t, places, knockouts: dict[int, int], event: dict) -> dict[int, dict]:
    """Each player's variables: ``{person id: {name: value}}``."""
    purchases = _purchases(t)
    entries = list(Entry.objects.filter(tournament=t, status__in=(Entry.ACTIVE, Entry.BUSTED)).values_list("pk", "person_id"))
    person_of = dict(entries)
    won: dict[int, Decimal] = {}
    placed: set[int] = set()
    for due in dues(t):
        if not due["source"].startswith("MAIN:") or due["forfeited"] or due["entry_id"] not in person_of:
            continue
        person_id = person_of[due["entry_id"]]
        placed.add(person_id)
        if due["kind"] == "CASH":
            won[person_id] = won.get(person_id, ZERO) + Decimal(due["amount"])
    bounty_won: dict[int, Decimal] = {}
    for entry_id, got in bounties_won([Entry(pk=pk) for pk, _person in entries]).items():
        bounty_won[person_of[entry_id]] = bounty_won.get(person_of[entry_id], ZERO) + Decimal(got["won"])
    n = event["buyins"]
    out = {}
    for person, place, _shared in places:
        sales = purchases.get(person.pk, [])
        buyins = [s for s in sales if s[0] in (LedgerRow.BUY_IN, LedgerRow.RE_ENTRY)]
        rebuys = [s for s in sales if s[0] == LedgerRow.REBUY]
        addons = [s for s in sales if s[0] == LedgerRow.ADD_ON]
        cost = sum((s[1] + s[3] for s in sales), ZERO)
        prize = won.get(person.pk, ZERO)
        bounty = bounty_won.get(person.pk, ZERO)
        chips = sum((s[3] for s in sales), ZERO)
        out[person.pk] = {
            "rank": place,
            "leagueRank": place,
            "position": n - place + 1,
            "inLeague": 1,
            "inTheMoney": 1 if person.pk in placed else 0,
            "numberOfHits": float(knockouts.get(person.pk, 0)),
            "numberOfBountiesWon": float(knockouts.get(person.pk, 0)) if bounty else 0,
            "numberOfBountyChips": sum(1 for s in sales if s[3]),
            "bountyChipCost": chips,
            "bountyWinnings": bounty,
            "numberOfRebuys": len(rebuys),
            "numberOfAddOns": len(addons),
            "buyinCost": sum((s[1] for s in buyins), ZERO),
            "buyinRake": sum((s[2] for s in buyins), ZERO),
            "rebuyCost": sum((s[1] for s in rebuys), ZERO),
            "rebuyRake": sum((s[2] for s in rebuys), ZERO),
            "addOnCost": sum((s[1] for s in addons), ZERO),
            "addOnRake": sum((s[2] for s in addons), ZERO),
            "totalCost": cost,
            "totalRake": sum((s[2] for s in sales), ZERO),
            "prizeWinnings": prize,
            "totalWinnings": prize + bounty,
            "take": prize + bounty - cost,
            "finalTable": 0,
            "ID": str(person.pk),
            "internalID": str(person.pk),
        }
    return out
