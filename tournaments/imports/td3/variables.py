"""TD3's formula variables: the cheat sheet's names and aliases, and their values for a player.

``VARIABLES`` lists every variable of the "Points for Playing Formula" cheat sheet with its
aliases. ``variables_for(event, player)`` gives their values for a player of an event as
``model`` reads it, at the moment the file was saved (the end, for an event played): what
TD3 keeps in the file is used as it is; what only its running clock or its league database
knows is taken as it stands when an event is over (no seconds left, no player moving) or as
the file lets one infer it, and said so beside each such variable below.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from tournaments.imports.td3.model import ADDON, BREAK, BUYIN, FINISHED, PLANNED, REBUY, REENTRY, ROUND, Event, Player

#: Keys of a formula's variables that no formula can name: what the profile and rake functions read.
PROFILES_KEY, RAKES_KEY = "@profiles", "@rakes"

#: Every variable of the cheat sheet (its spelling there) and its aliases, the tournament's then the player's.
VARIABLES: dict[str, tuple[str, ...]] = {
    # The tournament
    "addOnsAllowed": (),
    "addOnsLastRound": (),
    "addOnsLeft": (),
    "addOnsMaxPerPlayer": (),
    "addOnsMaxTotal": (),
    "addOnsMinPlayers": (),
    "addOnsOver": (),
    "addOnsSecondsLeft": (),
    "ante": (),
    "bigBlind": (),
    "bountyTotal": (),
    "breakNum": (),
    "bustsUntilFinalTable": (),
    "bustsUntilMoney": (),
    "buyins": ("numberOfPlayers", "n"),
    "chipCount": (),
    "chipCountAdjustment": (),
    "chipUp": (),
    "clockPaused": (),
    "clockPausedSeconds": (),
    "defaultAddOnChips": (),
    "defaultAddOnFee": (),
    "defaultAddOnRake": (),
    "defaultBuyinChips": (),
    "defaultBuyinFee": (),
    "defaultBuyinRake": (),
    "defaultRebuyChips": (),
    "defaultRebuyFee": (),
    "defaultRebuyRake": (),
    "firstAnteAmount": (),
    "firstAnteRound": (),
    "fixedRake": (),
    "gameName": (),
    "gameType": (),
    "guaranteedPot": (),
    "hasMoreBreaks": (),
    "hasMoreRounds": (),
    "houseAdds": (),
    "houseContribution": (),
    "inTheMoneyRank": ("mr",),
    "isBreak": (),
    "isRound": (),
    "lastPlayerBustOutTime": (),
    "lastPlayerMoveTime": (),
    "lastScreenChangeTime": (),
    "level": (),
    "levelDuration": (),
    **{f"limit{i}": () for i in range(1, 9)},
    "nextAnte": (),
    "nextBigBlind": (),
    "nextChipUp": (),
    "nextGameName": (),
    "nextGameType": (),
    "nextIsBreak": (),
    "nextIsRound": (),
    "nextLevelDuration": (),
    **{f"nextLimit{i}": () for i in range(1, 9)},
    "nextSmallBlind": (),
    "numberOfLeagueMembers": ("nm",),
    "playersLeft": ("players",),
    "pot": ("prizepool", "pp"),
    "preGuaranteedPot": (),
    "rebuysAllowed": (),
    "rebuysLastRound": (),
    "rebuysLeft": (),
    "rebuysMaxPerPlayer": (),
    "rebuysMaxTotal": (),
    "rebuysMinPlayers": (),
    "rebuysOver": (),
    "rebuysSecondsLeft": (),
    "restrictBounties": (),
    "roundNum": (),
    "secondsElapsed": (),
    "secondsLeft": (),
    "smallBlind": (),
    "state": (),
    "stateDesc": (),
    "tablesLeft": ("tables",),
    "time": (),
    "timeOfDay": (),
    "totalAddOns": ("totalNumberOfAddOns", "tna"),
    "totalAddOnsAmount": (),
    "totalAddOnsChips": (),
    "totalAddOnsRake": (),
    "totalBuyinsAmount": (),
    "totalBuyinsChips": (),
    "totalBuyinsRake": (),
    "totalFixedRake": (),
    "totalRebuys": ("totalNumberOfRebuys", "tnr"),
    "totalRebuysAmount": (),
    "totalRebuysChips": (),
    "totalRebuysRake": (),
    "unadjustedChipCount": (),
    "usePlayerBountyChips": (),
    # The player
    "addOnCost": ("ac",),
    "addOnRake": ("ar",),
    "bountyChipCost": ("bcc",),
    "bountyMoneyKept": ("bmk",),
    "bountyWinnings": ("bw",),
    "buyinCost": ("bc",),
    "buyinRake": ("br",),
    "chipStack": (),
    "finalTable": (),
    "ID": (),
    "inLeague": (),
    "inTheMoney": ("m", "placed"),
    "internalID": (),
    "leagueRank": (),
    "numberOfAddOns": ("addons", "na"),
    "numberOfBountiesKept": ("nbk",),
    "numberOfBountiesWon": ("nb",),
    "numberOfBountyChips": ("nbc",),
    "numberOfHits": ("nh",),
    "numberOfRebuys": ("rebuys", "nr"),
    "playersAtSameTable": (),
    "playingTime": (),
    "position": (),
    "prizeWinnings": ("pw",),
    "rank": ("r",),
    "rebuyCost": ("rc",),
    "rebuyRake": ("rr",),
    "roundOut": ("ro",),
    "take": ("t",),
    "totalCost": ("tc",),
    "totalRake": ("tr",),
    "totalWinnings": ("tw",),
}


def variables_for(event: Event, player: Player) -> dict:
    """Every variable of ``VARIABLES`` (canonical names) for ``player`` of ``event``, plus what
    the profile and rake functions read. Numbers are floats or Decimals, names text."""
    values = _event_variables(event)
    values.update(_player_variables(event, player, values))
    return values


def _seconds(moment: dt.datetime | None) -> int:
    return int(moment.timestamp()) if moment else 0


def _flag(value) -> int:
    return 1 if value else 0


def _event_variables(event: Event) -> dict:
    entrants = event.entrants()
    entries = [entry for player in entrants for entry in player.entries]
    buyins = [entry for entry in entries if entry.kind in (BUYIN, REENTRY)]
    rebuys = [entry for entry in entries if entry.kind == REBUY]
    addons = [addon for player in entrants for addon in player.addons]
    settings = event.settings
    n = len(entrants)
    left = [player for player in entrants if player.last_bust is None]
    paid = [prize.place for prize in event.prizes if prize.place]
    in_money_rank = max(paid, default=0)

    def total(items, attribute):
        return sum((getattr(item, attribute) for item in items), Decimal(0))

    collected = total(entries, "amount") + total(addons, "amount")
    raked = total(entries, "rake") + total(addons, "rake")
    fixed_rake = Decimal(settings.get("fixed_rake", 0))
    pre_guaranteed = collected - raked - fixed_rake + event.house_contribution
    chips = sum(entry.chips for entry in entries) + sum(addon.chips for addon in addons)

    # The level running when the file was saved (the last one, for an event played).
    levels = event.levels
    position = min(max(event.current_level, 0), len(levels) - 1) if levels else -1
    current = levels[position] if levels else None
    following = levels[position + 1] if 0 <= position + 1 < len(levels) else None
    last_round = next((level for level in reversed(levels[: position + 1]) if level.kind == ROUND), None)
    last_break = next((level for level in reversed(levels[: position + 1]) if level.kind == BREAK), None)
    first_ante = next((level for level in levels if level.kind == ROUND and level.ante), None)
    round_num = last_round.number if last_round else 0

    state = {PLANNED: 0, FINISHED: 3}.get(event.state, 2)
    now = event.end or event.start
    busts = [entry.bust.time for entry in entries if entry.bust and entry.bust.time]
    final_seats = max((table.seats for table in event.tables), default=0)

    def purchase(kind: str, label: str):
        allowed = settings.get(f"{label}_allowed", False)
        last = settings.get(f"{label}_last_round", 0)
        count = len(rebuys) if kind == REBUY else len(addons)
        max_total = settings.get(f"{label}_max_total", 0)
        over = state == 3 or (last and round_num > last)
        prefix = "rebuys" if kind == REBUY else "addOns"
        return {
            f"{prefix}Allowed": _flag(allowed and not over),
            f"{prefix}LastRound": last,
            f"{prefix}Left": max(0, max_total - count) if max_total else 0,
            f"{prefix}MaxPerPlayer": settings.get(f"{label}_max_per_player", 0),
            f"{prefix}MaxTotal": max_total,
            f"{prefix}MinPlayers": settings.get(f"{label}_min_players", 0),
            f"{prefix}Over": _flag(over),
            f"{prefix}SecondsLeft": 0,  # the clock's, not in the file
        }

    def default(kind: str):
        return next((p for p in event.profiles if p.kind == kind and p.default), next((p for p in event.profiles if p.kind == kind), None))

    def level_values(level, prefix: str):
        is_round = level is not None and level.kind == ROUND
        values = {
            f"{prefix}Ante": level.ante if is_round else 0,
            f"{prefix}BigBlind": level.big_blind if is_round else 0,
            f"{prefix}SmallBlind": level.small_blind if is_round else 0,
            f"{prefix}ChipUp": _flag(level is not None and level.chip_up),
            f"{prefix}GameName": level.game_name if is_round else "",
            f"{prefix}GameType": (level.game_type or 0) if is_round else 0,
            f"{prefix}IsBreak": _flag(level is not None and level.kind == BREAK),
            f"{prefix}IsRound": _flag(is_round),
            f"{prefix}LevelDuration": level.minutes if level else 0,
        }
        for i in range(1, 9):
            limits = level.limits if is_round else ()
            values[f"{prefix}Limit{i}"] = limits[i - 1] if i <= len(limits) else 0
        return values

    # The current level's names are the next level's without "next": nextBigBlind, bigBlind.
    now_values = {name[1].lower() + name[2:]: value for name, value in level_values(current, "X").items()}
    values = {
        **purchase(ADDON, "addons"),
        **purchase(REBUY, "rebuys"),
        **now_values,
        **{("next" + name[1:]): value for name, value in level_values(following, "X").items()},
        "bountyTotal": sum((_bounty_cost(event, entry) for entry in entries), Decimal(0)),
        "breakNum": last_break.number if last_break else 0,
        "bustsUntilFinalTable": max(0, len(left) - final_seats) if final_seats else 0,
        "bustsUntilMoney": max(0, len(left) - in_money_rank) if in_money_rank else 0,
        "buyins": n,
        "chipCount": chips + settings.get("chips_adjustment", 0),
        "chipCountAdjustment": settings.get("chips_adjustment", 0),
        "clockPaused": 0,
        "clockPausedSeconds": 0,
        "firstAnteAmount": first_ante.ante if first_ante else 0,
        "firstAnteRound": first_ante.number if first_ante else 0,
        "fixedRake": fixed_rake / n if n else 0,
        "guaranteedPot": event.guaranteed_pot,
        "hasMoreBreaks": _flag(any(level.kind == BREAK for level in levels[position + 1 :])),
        "hasMoreRounds": _flag(any(level.kind == ROUND for level in levels[position + 1 :])),
        "houseAdds": max(Decimal(0), event.guaranteed_pot - pre_guaranteed),
        "houseContribution": event.house_contribution,
        "inTheMoneyRank": in_money_rank,
        "lastPlayerBustOutTime": _seconds(max(busts, default=None)),
        "lastPlayerMoveTime": _seconds(event.last_move),
        "lastScreenChangeTime": 0,  # the screens', not in the file
        "level": position + 1 if levels else 0,
        "numberOfLeagueMembers": n if event.league_uuid or event.league_name else 0,
        "playersLeft": len(left),
        "pot": max(pre_guaranteed, event.guaranteed_pot),
        "preGuaranteedPot": pre_guaranteed,
        "restrictBounties": _flag(settings.get("restricted_bounty")),
        "roundNum": round_num,
        "secondsElapsed": 0,
        "secondsLeft": 0,
        "state": state,
        "stateDesc": ("before", "countdown", "inprogress", "after")[state],
        "tablesLeft": sum(1 for table in event.tables if table.seated) if left else 0,
        "time": _seconds(now),
        "timeOfDay": int(now.strftime("%H%M%S")) if now else 0,
        "totalAddOns": len(addons),
        "totalAddOnsAmount": total(addons, "amount"),
        "totalAddOnsChips": sum(addon.chips for addon in addons),
        "totalAddOnsRake": total(addons, "rake"),
        "totalBuyinsAmount": total(buyins, "amount"),
        "totalBuyinsChips": sum(entry.chips for entry in buyins),
        "totalBuyinsRake": total(buyins, "rake"),
        "totalFixedRake": fixed_rake,
        "totalRebuys": len(rebuys),
        "totalRebuysAmount": total(rebuys, "amount"),
        "totalRebuysChips": sum(entry.chips for entry in rebuys),
        "totalRebuysRake": total(rebuys, "rake"),
        "unadjustedChipCount": chips,
        "usePlayerBountyChips": _flag(settings.get("use_bounties")),
    }
    for kind, label in ((BUYIN, "Buyin"), (REBUY, "Rebuy"), (ADDON, "AddOn")):
        profile = default(kind)
        values[f"default{label}Chips"] = profile.chips if profile else 0
        values[f"default{label}Fee"] = profile.fee if profile else 0
        values[f"default{label}Rake"] = profile.rake if profile else 0
    profiles = {}
    for profile in event.profiles:
        fields = {"fee": profile.fee, "rake": profile.rake, "chips": profile.chips, "points": profile.points}
        profiles.setdefault(profile.kind, {}).setdefault(profile.name, fields)
        if profile.default:
            profiles[profile.kind][""] = fields
    values[PROFILES_KEY] = profiles
    # The rakes' names live in TD3's preferences, not in the file: only their total is known.
    values[RAKES_KEY] = {"": raked}
    return values


def _bounty_cost(event: Event, entry) -> Decimal:
    """The bounty chip bought with a buy-in or rebuy, when the event uses bounty chips."""
    if not event.settings.get("use_bounties"):
        return Decimal(0)
    profile = event.profile(BUYIN if entry.kind in (BUYIN, REENTRY) else REBUY, entry.profile)
    return profile.bounty_chip_cost if profile else Decimal(0)


def _player_variables(event: Event, player: Player, values: dict) -> dict:
    uuid = player.uuid
    places = event.places()
    rank = places.get(uuid, 0)
    n = values["buyins"]
    hits = event.hits().get(uuid, 0)
    won = event.winnings().get(uuid, Decimal(0))
    buyins = [entry for entry in player.entries if entry.kind in (BUYIN, REENTRY)]
    rebuys = [entry for entry in player.entries if entry.kind == REBUY]
    in_league = bool(event.league_uuid or event.league_name)

    # Bounty chips: his own, kept when nobody busted him with it; others', won as their hitman.
    chip_cost = sum((_bounty_cost(event, entry) for entry in player.entries), Decimal(0))
    bought = sum(1 for entry in player.entries if _bounty_cost(event, entry))
    kept = [entry for entry in player.entries if _bounty_cost(event, entry) and not (entry.bust and entry.bust.hitmen)]
    won_chips, won_money = Decimal(0), Decimal(0)
    for other in event.entrants():
        for entry in other.entries:
            if entry.bust and uuid in entry.bust.hitmen and _bounty_cost(event, entry):
                share = Decimal(1) if event.full_credit_hits else Decimal(1) / len(entry.bust.hitmen)
                won_chips += share
                won_money += _bounty_cost(event, entry) * share

    buyin_cost = sum((e.amount for e in buyins), Decimal(0))
    rebuy_cost = sum((e.amount for e in rebuys), Decimal(0))
    addon_cost = sum((a.amount for a in player.addons), Decimal(0))
    buyin_rake = sum((e.rake for e in buyins), Decimal(0))
    rebuy_rake = sum((e.rake for e in rebuys), Decimal(0))
    addon_rake = sum((a.rake for a in player.addons), Decimal(0))
    total_cost = buyin_cost + rebuy_cost + addon_cost + chip_cost
    total_won = won + won_money
    busted = player.last_bust is not None
    table = next((t for t in event.tables if uuid in t.seated), None)
    final_seats = max((t.seats for t in event.tables), default=0)

    playing = 0.0
    for entry in player.entries:
        begin = max(filter(None, (entry.time, event.start)), default=None)
        end = entry.bust.time if entry.bust and entry.bust.time else event.end
        if begin and end and end > begin:
            playing += (end - begin).total_seconds()

    return {
        "addOnCost": addon_cost,
        "addOnRake": addon_rake,
        "bountyChipCost": chip_cost,
        "bountyMoneyKept": sum((_bounty_cost(event, entry) for entry in kept), Decimal(0)),
        "bountyWinnings": won_money,
        "buyinCost": buyin_cost,
        "buyinRake": buyin_rake,
        "chipStack": 0 if busted else player.chip_count,
        # The final table's size is not in the file: taken as the largest table's.
        "finalTable": _flag(rank and final_seats and rank <= final_seats),
        "ID": player.player_id,
        # League membership lives in TD3's league database: a player of a league's event counts as its member.
        "inLeague": _flag(in_league),
        "inTheMoney": _flag(any(prize.place and uuid in prize.awarded_to for prize in event.prizes)),
        "internalID": uuid,
        "leagueRank": rank if in_league else 0,
        "numberOfAddOns": len(player.addons),
        "numberOfBountiesKept": len(kept),
        "numberOfBountiesWon": won_chips,
        "numberOfBountyChips": bought,
        "numberOfHits": float(hits),
        "numberOfRebuys": len(rebuys),
        "playersAtSameTable": len(table.seated) if table and not busted else 0,
        "playingTime": int(playing),
        "position": n - rank + 1 if rank else 0,
        "prizeWinnings": won,
        "rank": rank,
        "rebuyCost": rebuy_cost,
        "rebuyRake": rebuy_rake,
        "roundOut": player.last_bust.round if busted else 0,
        "take": total_won - total_cost,
        "totalCost": total_cost,
        "totalRake": buyin_rake + rebuy_rake + addon_rake,
        "totalWinnings": total_won,
    }


def money_of(event: Event) -> dict:
    """The event's money as TD3 recorded it, for the room's archives (no ledger row is written):
    the pot (the formula's ``pot``: what the players paid, less the rake and the fixed rake, plus
    the house's contribution, at least the guarantee), what was paid, the fees (the rake and the
    fixed rake), the buy-ins (re-entries included), rebuys and add-ons, and the prizes awarded.
    Money as text (Decimal's), counts as numbers."""
    values = _event_variables(event)
    paid = values["totalBuyinsAmount"] + values["totalRebuysAmount"] + values["totalAddOnsAmount"]
    fees = values["totalBuyinsRake"] + values["totalRebuysRake"] + values["totalAddOnsRake"] + values["totalFixedRake"]
    buyins = sum(1 for player in event.entrants() for entry in player.entries if entry.kind in (BUYIN, REENTRY))
    return {
        "pot": str(values["pot"]),
        "paid": str(paid),
        "fees": str(fees),
        "players": values["buyins"],
        "entries": buyins,
        "rebuys": values["totalRebuys"],
        "addons": values["totalAddOns"],
        "guaranteed": str(event.guaranteed_pot),
        "prizes": str(sum(event.winnings().values(), Decimal(0))),
    }
