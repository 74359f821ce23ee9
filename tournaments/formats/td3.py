"""Moving in from The Tournament Director: what the apps above the tournaments keep of a TD3 event.

The kind of import ``td3`` (``tournaments.imports.td3.kind``) writes the people, the tournament,
its structure and entries; the formats compose the apps above it, so the kind they register
adds, for each event of a save file:

- its busts (``seating.Bust``): each bust-out TD3 recorded, in the order of their times, with
  its time, table (the number in TD3's table name) and seat; a bust a rebuy bought back is kept
  void (``REBOUGHT``), as the floor's own; the bust that ended a player's event holds his place
  (TD3's rank) and how many share it. TD3's round of each bust is kept with the event's TD3
  record (``Td3Event.details``): a bust here has no level of its own;
- its knockouts: each hitman TD3 named (two for a bust they shared) as a knockout of the entry
  he was playing (``payouts.BountyAward``, counted as the league and the reports count
  knockouts); where TD3 had bounty chips, with the bounty on the head he took (the purchase's
  ``PersonalBounty``, else its profile's bounty chip cost; split between two hitmen unless TD3
  gave full credit), as won and handed over already: no money moves in today's drawer, and the
  desk never owes an archive's bounty (``payouts.selectors.bounties``);
- its prizes as TD3 awarded them: a locked payout table whose places pay what TD3 paid the
  player placed there (a chop's shares included: players a chop ranks apart hold their own
  places; players out together who share a place share what their places paid), and each prize
  recorded as handed out already (``PrizePayment`` with no ledger row: no money moves in
  today's drawer, and the cashier is never asked to pay an archive's prize again);
- its league and season (``league``): TD3's league as the room's league of that name, its season
  as a season of it, and each player's points from TD3's own points formula.
"""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

from payouts.models import BountyAward, PayoutTable, Prize, PrizePayment
from seating.models import Bust
from tournaments.imports import rules as import_rules
from tournaments.imports.td3 import archive, model
from tournaments.imports.td3.kind import Td3Importer

from . import td3_league
from .models import SeriesResult, SeriesTournament

CENT = Decimal("0.01")


class Td3ArchiveImporter(Td3Importer):
    def clear_results(self, tournament) -> None:
        BountyAward.objects.filter(tournament=tournament).delete()
        PrizePayment.objects.filter(tournament=tournament).delete()
        PayoutTable.objects.filter(tournament=tournament).delete()
        Bust.objects.filter(tournament=tournament).delete()
        touched = set(SeriesTournament.objects.filter(tournament=tournament).values_list("series_id", flat=True))
        SeriesResult.objects.filter(tournament=tournament).delete()
        SeriesTournament.objects.filter(tournament=tournament).delete()
        td3_league.touched(touched)

    def write_results(self, event, tournament, entries, people) -> None:
        if event.state == model.FINISHED:
            busts = _busts(event, tournament, entries)
            _knockouts(event, tournament, entries, busts)
            _prizes(event, tournament, entries)
        td3_league.write(event, tournament, entries, people)


def _busts(event: model.Event, tournament, entries: archive.Entries) -> dict[tuple[str, int], Bust]:
    """Every bust, by (player, number of the TD3 purchase it ended)."""
    places = event.places()
    sharing = Counter(places.values())
    found = []
    for player in event.entrants():
        stints = entries.by_player.get(player.uuid) or []
        for stint_no, stint in enumerate(stints):
            last_stint = stint_no == len(stints) - 1
            for index, purchase in enumerate(stint.purchases):
                if purchase.bust is None:
                    continue
                final = last_stint and index == len(stint.purchases) - 1
                found.append((purchase.bust.time or tournament.start_at, player, purchase, stint.entry, final, index < len(stint.purchases) - 1))
    found.sort(key=lambda item: (item[0], item[3].number))
    rows, keys = [], []
    for order, (when, player, purchase, entry, final, rebought) in enumerate(found, 1):
        place = places.get(player.uuid) if final else None
        rows.append(
            Bust(
                tournament=tournament,
                entry=entry,
                order=order,
                table_number=archive.table_number(purchase.bust.table, event),
                seat_number=max(0, purchase.bust.seat or 0),
                busted_at=when,
                place=place,
                shared_with=sharing[place] if place else 1,
                void=Bust.REBOUGHT if rebought else "",
                voided_at=when if rebought else None,
            )
        )
        keys.append((player.uuid, purchase.number))
    Bust.objects.bulk_create(rows, batch_size=500)
    return dict(zip(keys, rows, strict=True))


def _knockouts(event: model.Event, tournament, entries: archive.Entries, busts: dict) -> None:
    awards = []
    for player in event.entrants():
        for purchase in player.entries:
            bust = busts.get((player.uuid, purchase.number))
            if bust is None or not purchase.bust.hitmen:
                continue
            share = (Decimal(1) / len(purchase.bust.hitmen)).quantize(CENT)
            bounty = bounty_of(event, purchase)
            cash = (bounty if event.full_credit_hits else bounty / len(purchase.bust.hitmen)).quantize(CENT)
            for hitman in purchase.bust.hitmen:
                winner = entries.playing_at(hitman, purchase.bust.time)
                if winner is None:
                    continue
                awards.append(
                    BountyAward(
                        tournament=tournament,
                        kind=BountyAward.KNOCKOUT,
                        winner=winner,
                        knocked_out=bust.entry,
                        bust=bust,
                        pot_share=share if len(purchase.bust.hitmen) > 1 else None,
                        cash=cash,
                        created_at=bust.busted_at,
                    )
                )
    BountyAward.objects.bulk_create(awards, batch_size=500)


def bounty_of(event: model.Event, purchase: model.Entry) -> Decimal:
    """The bounty on the head a bust took, when TD3 had bounty chips: the purchase's own
    (``PersonalBounty``), else its profile's bounty chip cost; nothing in an event without them."""
    if not event.settings.get("use_bounties"):
        return Decimal(0)
    if purchase.bounty > 0:
        return purchase.bounty
    profile = event.profile(model.BUYIN if purchase.kind in (model.BUYIN, model.REENTRY) else model.REBUY, purchase.profile)
    return profile.bounty_chip_cost if profile else Decimal(0)


def _prizes(event: model.Event, tournament, entries: archive.Entries) -> None:
    won = {uuid: amount.quantize(CENT) for uuid, amount in event.winnings().items() if amount > 0}
    things = {}
    for prize in event.prizes:
        if prize.non_monetary and len(prize.awarded_to) == 1:
            things.setdefault(prize.awarded_to[0], []).append(prize.non_monetary[:200])
    if not won and not things:
        return
    places = event.places()
    groups: dict[int, list[str]] = {}
    for uuid in set(won) | set(things):
        if uuid in places:
            groups.setdefault(places[uuid], []).append(uuid)
    when = event.end or tournament.start_at
    table = PayoutTable.objects.create(tournament=tournament, state=PayoutTable.LOCKED, locked_at=when, prize_pool=sum(won.values(), Decimal(0)))
    prizes, payments = [], []
    for place, members in sorted(groups.items()):
        members = [uuid for uuid in members if uuid in won]
        total = sum((won[uuid] for uuid in members), Decimal(0))
        sharing = sum(1 for p in places.values() if p == place)
        if total:
            prizes.extend(Prize(table=table, place=place + i, amount=amount) for i, amount in enumerate(_spread(total, sharing)))
        for uuid in members:
            entry = entries.by_player[uuid][-1].entry
            payments.append(PrizePayment(tournament=tournament, entry=entry, source="MAIN:CASH", kind="CASH", place=place, amount=won[uuid], created_at=when))
    for uuid, descriptions in things.items():
        if uuid in places:
            for description in descriptions:
                prizes.append(Prize(table=table, place=places[uuid], kind="ITEM", description=description))
    Prize.objects.bulk_create(prizes)
    PrizePayment.objects.bulk_create(payments)


def _spread(total: Decimal, places: int) -> list[Decimal]:
    """``total`` over ``places`` places in cents, the odd cents to the better places."""
    cents = int(total / CENT)
    each, odd = divmod(cents, places)
    return [(each + (1 if i < odd else 0)) * CENT for i in range(places)]


TD3 = import_rules.register(Td3ArchiveImporter())
