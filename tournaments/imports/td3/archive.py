"""A TD3 event written as a tournament of the room's archives: its setup, structure and entries.

``write_event(save, people, stored)`` makes (or, for an event imported before whose file was
saved again, rewrites) the tournament of one save file, inside the import's transaction:

- the tournament: TD3's title, the day and time it started (else of its first buy-in, else
  the date its title carries), its buy-in (the default buy-in profile: the fee less its rake,
  the rake as the house's fee, its chips as the starting stack), its rebuy and add-on
  profiles (price, fee, chips, last round), its format (rebuys, re-entries or a freezeout),
  finished when TD3's clock ended, planned otherwise;
- its blind structure: TD3's levels in order, rounds (blinds, ante, minutes, game) and breaks
  (minutes, a colour-up note);
- its entries: a player's buy-in is his entry, each re-entry (a buy-in profile bought after a
  bust) a new entry of his, each rebuy and add-on counted on the entry he was playing, with
  its chips; each entry's time is TD3's, its bust time the bust that ended it, and the entry
  that ended his event holds his place (TD3's rank: ``model.Event.places``). An event not
  finished comes in planned, every player of its file registered (pre-registered entries).

No money moves: no sale is written in the cashier's ledger. ``Td3Event`` marks the tournament
as imported from TD3 and keeps TD3's ids, the digest of the file and what the tables here do not
hold: each buy-in, re-entry, rebuy and add-on with its time, round, amount and profile (an entry
here counts its rebuys and add-ons, not their times), each bust's round, table name and hitmen,
each player's hits.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from django.utils import timezone

from tournaments.imports.td3 import files, model, variables
from tournaments.models import BlindStructure, Entry, StructureItem, Td3Event, Tournament

CENT = Decimal("0.01")


@dataclass
class Stint:
    """One entry here and the TD3 purchases it holds (a buy-in or re-entry, then rebuys)."""

    entry: Entry
    purchases: list[model.Entry] = field(default_factory=list)


@dataclass
class Entries:
    """Each TD3 player's entries here, first first."""

    by_player: dict[str, list[Stint]] = field(default_factory=dict)

    def playing_at(self, uuid: str, moment: dt.datetime | None) -> Entry | None:
        """The entry ``uuid`` was playing at ``moment`` (his last one bought before it)."""
        stints = self.by_player.get(uuid) or []
        if not stints:
            return None
        if moment is None:
            return stints[-1].entry
        current = stints[0].entry
        for stint in stints:
            if stint.entry.created_at <= moment:
                current = stint.entry
        return current


def write_event(save: files.SaveFile, key: str, people: dict[str, int], stored: Td3Event | None) -> tuple[Tournament, Entries]:
    """The tournament of ``save`` (see the module's docstring); ``key`` the event's (``kind.event_key``)."""
    event = save.event
    tz = timezone.get_current_timezone()
    values = _tournament_values(event, tz)
    if stored is None:
        structure = BlindStructure.objects.create(name=event.title[:120] or save.name[:120], is_template=False)
        tournament = Tournament.objects.create(structure=structure, **values)
    else:
        tournament = stored.tournament
        Entry.objects.filter(tournament=tournament).delete()
        structure = tournament.structure or BlindStructure.objects.create(name=event.title[:120] or save.name[:120], is_template=False)
        structure.items.all().delete()
        for name, value in values.items():
            setattr(tournament, name, value)
        tournament.structure = structure
        tournament.save()
    StructureItem.objects.bulk_create(_items(structure, event))
    entries = _entries(tournament, event, people)
    details = {
        "busts": [
            {"player": p.uuid, "time": _iso(e.bust.time), "round": e.bust.round, "table": e.bust.table, "seat": e.bust.seat, "hitmen": list(e.bust.hitmen)}
            for p in event.players
            for e in p.entries
            if e.bust
        ],
        "purchases": [
            {"player": p.uuid, "kind": e.kind, "time": _iso(e.time), "round": e.round, "amount": str(e.amount), "chips": e.chips, "profile": e.profile}
            for p in event.players
            for e in p.entries
        ]
        + [
            {"player": p.uuid, "kind": model.ADDON, "time": _iso(a.time), "round": a.round, "amount": str(a.amount), "chips": a.chips, "profile": a.profile}
            for p in event.players
            for a in p.addons
        ],
        "hits": {uuid: str(Decimal(h.numerator) / Decimal(h.denominator)) for uuid, h in event.hits().items() if h},
        "version": event.version,
        "money": variables.money_of(event),
    }
    marker = {
        "key": key,
        "uuid": event.uuid[:80],
        "tournament": tournament,
        "filename": save.name[:200],
        "digest": save.digest,
        "league_name": event.league_name[:160],
        "season_name": event.season_name[:160],
        "details": details,
        "imported_at": timezone.now(),
    }
    if stored is None:
        Td3Event.objects.create(**marker)
    else:
        for name, value in marker.items():
            setattr(stored, name, value)
        stored.save()
    return tournament, entries


def _iso(moment):
    return moment.isoformat() if moment else None


def _money(value: Decimal) -> Decimal:
    return max(Decimal(0), value).quantize(CENT, ROUND_HALF_UP)


def _chips(value) -> int:
    return max(0, int(Decimal(value).to_integral_value(ROUND_HALF_UP)))


def start_of(event: model.Event, tz) -> dt.datetime:
    """When it started: TD3's start, its first buy-in, the evening of its title's date, or now."""
    if event.start:
        return event.start
    times = [e.time for p in event.players for e in p.entries if e.time]
    if times:
        return min(times)
    if event.title_date:
        return dt.datetime.combine(event.title_date, dt.time(20, 0), tz)
    return timezone.now()


def _tournament_values(event: model.Event, tz) -> dict:
    def default(kind):
        profiles = [p for p in event.profiles if p.kind == kind]
        return next((p for p in profiles if p.default), profiles[0] if profiles else None)

    buyin, rebuy, addon = default(model.BUYIN), default(model.REBUY), default(model.ADDON)
    reentries = max((len(p.reentries) for p in event.players), default=0)
    rebuys_played = any(p.rebuys for p in event.players)
    rebuys_allowed = bool(rebuy and rebuy.enabled and (rebuy.chips or rebuys_played))
    values = {
        "name": (event.title or event.uuid)[:160],
        "start_at": start_of(event, tz),
        "status": Tournament.FINISHED if event.state == model.FINISHED else Tournament.PLANNED,
        "format": Tournament.REBUY if rebuys_played or rebuys_allowed else Tournament.REENTRY if reentries else Tournament.FREEZEOUT,
        "buy_in": _money(buyin.fee - buyin.rake) if buyin else Decimal(0),
        "fee": _money(buyin.rake) if buyin else Decimal(0),
        "starting_stack": max(1, buyin.chips if buyin else 1),
        "table_size": min(11, max(2, max((t.seats for t in event.tables), default=9) or 9)),
        "max_entries_per_player": 1 + reentries,
        "rebuy_price": None,
        "rebuy_fee": Decimal(0),
        "rebuy_chips": None,
        "rebuy_until_level": None,
        "addon_price": None,
        "addon_fee": Decimal(0),
        "addon_chips": None,
        "addon_after_level": None,
    }
    if rebuys_allowed:
        values.update(
            rebuy_price=_money(rebuy.fee - rebuy.rake),
            rebuy_fee=_money(rebuy.rake),
            rebuy_chips=max(1, rebuy.chips),
            rebuy_until_level=event.settings.get("rebuys_last_round") or None,
        )
    if addon and addon.enabled and (addon.chips or any(p.addons for p in event.players)):
        values.update(
            addon_price=_money(addon.fee - addon.rake),
            addon_fee=_money(addon.rake),
            addon_chips=max(1, addon.chips),
            addon_after_level=event.settings.get("addons_last_round") or None,
        )
    return values


def _items(structure: BlindStructure, event: model.Event) -> list[StructureItem]:
    items = []
    for position, level in enumerate(event.levels, 1):
        if level.kind == model.BREAK:
            items.append(
                StructureItem(structure=structure, position=position, kind=StructureItem.BREAK, minutes=max(0, level.minutes), color_up=level.notes[:200])
            )
        else:
            items.append(
                StructureItem(
                    structure=structure,
                    position=position,
                    kind=StructureItem.LEVEL,
                    small_blind=_chips(level.small_blind),
                    big_blind=_chips(level.big_blind),
                    ante=_chips(level.ante),
                    minutes=max(0, level.minutes),
                    game=level.game_name[:40],
                )
            )
    return items


def _entries(tournament: Tournament, event: model.Event, people: dict[str, int]) -> Entries:
    out = Entries()
    rows: list[Entry] = []
    start = tournament.start_at
    if event.state != model.FINISHED:
        for player in event.players:
            if player.uuid in people:
                entry = Entry(tournament=tournament, person_id=people[player.uuid], status=Entry.RESERVED, pre_registered=True, created_at=start)
                out.by_player[player.uuid] = [Stint(entry)]
                rows.append(entry)
        _number(rows)
        Entry.objects.bulk_create(rows, batch_size=500)
        return out
    places = event.places()
    for player in event.entrants():
        if player.uuid not in people:
            continue
        stints: list[Stint] = []
        for purchase in player.entries:
            if purchase.kind in (model.BUYIN, model.REENTRY) or not stints:
                entry = Entry(
                    tournament=tournament,
                    person_id=people[player.uuid],
                    person_entry_no=len(stints) + 1,
                    status=Entry.ACTIVE,
                    chips=purchase.chips,
                    created_at=purchase.time or start,
                    is_late=purchase.round > 1,
                )
                stints.append(Stint(entry, [purchase]))
            else:
                stints[-1].entry.rebuys += 1
                stints[-1].entry.chips += purchase.chips
                stints[-1].purchases.append(purchase)
        for addon in player.addons:
            target = next((s for s in reversed(stints) if addon.time is None or s.entry.created_at <= addon.time), stints[-1])
            target.entry.addons += 1
            target.entry.chips += addon.chips
        for stint in stints:
            bust = stint.purchases[-1].bust
            if bust is not None:
                stint.entry.status = Entry.BUSTED
                stint.entry.busted_at = bust.time or tournament.start_at
        stints[-1].entry.place = places.get(player.uuid)
        out.by_player[player.uuid] = stints
        rows.extend(s.entry for s in stints)
    rows.sort(key=lambda e: (e.created_at, e.person_id, e.person_entry_no))
    _number(rows)
    Entry.objects.bulk_create(rows, batch_size=500)
    return out


def _number(rows: list[Entry]) -> None:
    for number, entry in enumerate(rows, 1):
        entry.number = number


TABLE_NUMBER = re.compile(r"(\d+)")


def table_number(name: str, event: model.Event) -> int:
    """A TD3 table's number here: the number in its name ("Table 2"), else its order."""
    match = TABLE_NUMBER.search(name or "")
    if match and 0 < int(match[1]) < 10_000:
        return int(match[1])
    names = [t.name for t in event.tables]
    return names.index(name) + 1 if name in names else 1
