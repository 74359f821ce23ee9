"""Small TD3 save files written here, in the shapes TD3 3.7 and 3.0 save them.

``club_night()`` is a played 3.7 event holding one of everything an import reads: a rebuy after
a bust, a re-entry with a buy-in profile, an add-on, a bust shared by two hitmen, two players out
in the same second who chop the 3rd and 4th prizes. ``SHARED`` is the folder of real files the
suite reads when this machine has one: ``TDM_TD3_FILES`` names it (a league's events in its
``orf`` folder, TD3's 3.0 sample beside), and the tests over it are skipped without it.
"""

import os
from pathlib import Path

SHARED = Path(os.environ["TDM_TD3_FILES"]) if os.environ.get("TDM_TD3_FILES") else None
NO_SHARED = "set TDM_TD3_FILES to a folder of real TD3 save files (its orf/*.tdt) to read them too"


def has_shared() -> bool:
    return SHARED is not None and (SHARED / "orf").is_dir()


T0 = 1_700_000_000_000  # milliseconds since 1970, as TD3 writes times
MINUTE = 60_000

ANNA, BRUNO, CARLA, DARIO, ELENA = "a1", "b2", "c3", "d4", "e5"


def js(value) -> str:
    """A Python value as TD3 writes it: strings in double quotes, lists in brackets."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(js(v) for v in value) + "]"
    return str(value)


def seat(table: str, index: int) -> str:
    return f'new GameSeat({{TableName: {js(table)}, SeatIndex: {index}, Locked: false, TableUUID: "t-{table}"}})'


def bust(minute: int, round_: int, hitmen=(), table="Table 1", index=0) -> str:
    return f"new GameBustOut({{Time: {T0 + minute * MINUTE}, Round: {round_}, HitmanUUID: {js(list(hitmen))}, Seat: {seat(table, index)}}})"


def buyin(minute: int, round_: int, amount: int, profile: str, out: str = "", chips: int = 10000, rake: int = 10) -> str:
    bust_field = f", BustOut: {out}" if out else ""
    return (
        f"new GameBuyin({{Time: {T0 + minute * MINUTE}, Round: {round_}, Amount: {amount}, PersonalBounty: 0, "
        f"Rake: new PerPlayerRake([{rake}]), Chips: {chips}, Points: 0{bust_field}, ProfileName: {js(profile)}}})"
    )


def addon(minute: int, round_: int, amount: int = 50) -> str:
    return f'new GameAddOn({{Time: {T0 + minute * MINUTE}, Round: {round_}, Amount: {amount}, Rake: new PerPlayerRake([0]), Chips: 5000, Points: 0, ProfileName: "Add-on"}})'


def player(uuid: str, nickname: str, buyins=(), addons=(), first="", last="", email="", phone="", points_adjustment=0) -> str:
    return (
        f"new GamePlayer({{ UUID: {js(uuid)}, "
        f"Name: new PlayerName({{UUID: {js(uuid)}, Nickname: {js(nickname)}, Firstname: {js(first)}, Lastname: {js(last)}, LastModified: 0}}), "
        f'Info: new PlayerInfo({{UUID: {js(uuid)}, Phone1: {js(phone)}, Phone2: "", Email1: {js(email)}, Email2: "", Notes: "", OptID: ""}}), '
        f"Buyins: [{', '.join(buyins)}], AddOns: [{', '.join(addons)}], CashAdjustment: 0, PointsAdjustment: {points_adjustment}, "
        f"ChipCount: 10000, NumberOfTableMoves: 0, PaidInFull: true, HitsAdjustment: 0 }})"
    )


def profile(name: str, fee: int, chips: int, rake: int = 0, bounty: int = 0) -> str:
    return (
        f"new FeeProfile({{Name: {js(name)}, Enabled: true, AllowChange: false, Fee: {fee}, "
        f"Rake: new PerPlayerRake([{rake}]), Chips: {chips}, Points: 0, BountyChipCost: {bounty}}})"
    )


def config(profiles, allow=True, last_round=0) -> str:
    return f"new BuyConfig({{Allow: {js(allow)}, Profiles: [{', '.join(profiles)}], DefIndex: 0, LastRound: {last_round}, MaxPerPlayer: 0, MaxTotal: 0, MinPlayers: 0}})"


def prize(place: int, amount: int, awarded=()) -> str:
    return (
        f"new GamePrize({{Description: {js(f'Place {place}')}, Type: 0, Recipient: {place}, AmountType: 1, Amount: {amount}, "
        f"Adjustment: 0, ShareRemainder: false, Points: 0, AwardedToPlayers: {js(list(awarded))}, SharedRemainder: 0, "
        f"CalculatedAmount: {amount}, CalculatedPoints: 0, EstimatedAmount: {amount}, EstimatedSharedRemainder: 0, Display: true, Lock: false}})"
    )


def chop_share(uuid: str, percent, real, chips=10000, relative_rank=0) -> str:
    return (
        f"[{js(uuid)}, new GameChopPortion({{CashPercent: {percent}, PointsPercent: {percent}, CashReal: {real}, PointsReal: 0, "
        f"CashChipCount: {chips}, PointsChipCount: {chips}, RelativeRank: {relative_rank}, CashICM: 0}})]"
    )


LEVELS = (
    "new GameLevels({Levels: ["
    'new GameRound({Minutes: 20, SmallBlind: 25, BigBlind: 50, Ante: 0, GameType: 2, GameName: "Texas Hold \'Em", '
    'Tokens: new TokenOverrides({Tokens: Map.from([])}), Limits: [0, 0, 0, 0, 0, 0, 0, 0], Notes: ""}), '
    'new GameRound({Minutes: 20, SmallBlind: 50, BigBlind: 100, Ante: 0, GameType: 2, GameName: "Texas Hold \'Em", '
    'Tokens: new TokenOverrides({Tokens: Map.from([])}), Limits: [0, 0, 0, 0, 0, 0, 0, 0], Notes: ""}), '
    'new GameBreak({Minutes: 10, Tokens: new TokenOverrides({Tokens: Map.from([])}), ChipUp: true, Notes: "Colour up"}), '
    'new GameRound({Minutes: 15, SmallBlind: 100, BigBlind: 200, Ante: 25, GameType: 2, GameName: "Texas Hold \'Em", '
    'Tokens: new TokenOverrides({Tokens: Map.from([])}), Limits: [0, 0, 0, 0, 0, 0, 0, 0], Notes: ""}), '
    'new GameRound({Minutes: 15, SmallBlind: 200, BigBlind: 400, Ante: 50, GameType: 2, GameName: "Texas Hold \'Em", '
    'Tokens: new TokenOverrides({Tokens: Map.from([])}), Limits: [0, 0, 0, 0, 0, 0, 0, 0], Notes: ""})'
    "]})"
)

FORMULA = 'assign("base", n - r + 1)\nIF (r = 1, base + numberofHits * 10, base + nh)'


def event_37(
    players: str,
    prizes=(),
    chops=(),
    title="Club Night 20240315",
    started=True,
    full_credit=False,
    formula=FORMULA,
    layout=True,
    bounty=0,
) -> str:
    """A 3.7 save file around ``players`` (the text inside ``GamePlayers``'s ``Players``);
    ``bounty``: TD3's bounty chips, each buy-in and rebuy profile's bounty chip cost."""
    times = f"StartTime: {T0}, EndTime: {T0 + 300 * MINUTE}, " if started else ""
    buyins = config([profile("Standard", 100, 10000, rake=10, bounty=bounty), profile("Late", 120, 12000, rake=10, bounty=bounty)])
    rebuys = config([profile("Rebuy", 100, 10000, bounty=bounty)], last_round=4)
    addons = config([profile("Add-on", 50, 5000)], allow=True, last_round=4)
    layout_text = ', L: new LO.Layout({Screens: [new LO.Cell({Text: "{{title}}", Align: new Alignment({H: 1, V: 0})})]})' if layout else ""
    return (
        f'{{ V: "3.7.2", T: new Tournament({{UUID: "ev-37", LeagueUUID: "lg-1", LeagueName: "Thursday League", '
        f'SeasonUUID: "ss-24", SeasonName: "2024", Title: {js(title)}, Description: "Weekly \\u00e9vent", Notes: "", '
        f"Financials: new FinancialConfig({{Buyins: {buyins}, AddOns: {addons}, Rebuys: {rebuys}, "
        f"FixedRake: new FixedRakeConfig({{Type: 0, Real: new PerPlayerRake([0]), Percent: new PerPlayerRake([0]), Round: 0, RoundToNearest: 1}}), "
        f"HouseContribution: 0, GuaranteedPot: 0, TotalChipsAdjustment: 0, PointsForHit: 0, "
        f"PointsForPlaying: new UserFormula({{Text: {js(formula)}, Strict: false}}), "
        f"UseBounties: {js(bool(bounty))}, RestrictedBounty: true, AllowInTourneyRebuys: false, AllowRebuyOverrideAfterBustout: false}}), "
        f"Players: new GamePlayers({{Players: {players}, Chops: new GameChops({{Chops: [{', '.join(chops)}]}}), "
        f"Config: new GamePlayersConfig({{TrackPlayers: true, NumberOfEntries: 0, NumberOfPlayers: 0, NumberOfRebuys: 0, NumberOfAddOns: 0, FullCreditHit: {js(full_credit)}}})}}), "
        f"Levels: {LEVELS}, "
        f"Prizes: new GamePrizes({{Prizes: [{', '.join(prizes)}], RoundPrizes: 0, RoundToNearest: 1, Automatic: false, AutomaticAtTop: false}}), "
        f'Chips: new GameChips({{Chips: [new GameChip({{ChipID: "1", Label: "Green", Color: "#00ff00", Value: 25, Use: true, PerPlayer: 8}})], '
        f'ChipSets: [new ChipSet({{Name: "Default", ChipCounts: Map.from([["1", 8]])}})]}}), '
        f'Tables: new GameTables({{Tables: [new GameTable({{Name: "Table 1", NumberOfSeats: 9, Seats: [{js(ANNA)}, null, null], UUID: "t-Table 1"}})], '
        f"LastPlayerMove: undefined}}), "
        f'History: new GameHistory({{History: [new GameHistoryItem({{Time: {T0}, Text: "Tournament started", Source: 0}})]}}), '
        f"{times}CurrentLevel: 4, Events: new GameEvents({{Events: []}}), LastModified: {T0}, Rules: new GameRules({{Tokens: Map.from([])}})}})"
        f"{layout_text} }}"
    )


def club_night_players(as_list: bool = False) -> str:
    """Five players, as ``Map.from`` holds them (3.7), or as a plain list."""
    entries = [
        player(ANNA, "Anna", [buyin(0, 1, 100, "Standard")], [addon(70, 4)], first="Anna", last="Rossi", email="anna@example.org", phone="+39 333 1234567"),
        player(
            BRUNO,
            "Bruno",
            [
                buyin(0, 1, 100, "Standard", out=bust(10, 1, [DARIO], index=1)),
                buyin(11, 1, 100, "Rebuy", out=bust(250, 5, [ANNA], index=1)),
            ],
        ),
        player(CARLA, "Carla", [buyin(0, 1, 100, "Standard", out=bust(200, 5, [ANNA], index=2))]),
        player(DARIO, "Dario", [buyin(0, 1, 100, "Standard", out=bust(200, 5, [BRUNO], index=3))]),
        player(
            ELENA,
            "Elena",
            [
                buyin(0, 1, 100, "Standard", out=bust(5, 1, [CARLA], table="Table 2", index=4)),
                buyin(30, 2, 120, "Late", out=bust(90, 4, [ANNA, BRUNO], table="Table 2", index=4)),
            ],
        ),
    ]
    if as_list:
        return "[" + ", ".join(entries) + "]"
    return "Map.from([" + ", ".join(f"[{js(uuid)}, {text}]" for uuid, text in zip((ANNA, BRUNO, CARLA, DARIO, ELENA), entries)) + "])"


def club_night(players_as_list: bool = False, **options) -> str:
    """The played 3.7 event: Anna wins; Bruno (a rebuy after his first bust) second; Carla and
    Dario out in the same second, third both, chopping the 3rd and 4th prizes 80 each; Elena
    (back with the "Late" buy-in profile: a re-entry) out by Anna and Bruno together, fifth."""
    prizes = (prize(1, 300, [ANNA]), prize(2, 200, [BRUNO]), prize(3, 100, [CARLA, DARIO]), prize(4, 60, [CARLA, DARIO]))
    chops = (
        "new GameChop({Portions: Map.from(["
        + chop_share(CARLA, 50, 80)
        + ", "
        + chop_share(DARIO, 50, 80)
        + "]), Awarded: true, CashMethod: 1, PointsMethod: 1})",
    )
    return event_37(club_night_players(players_as_list), prizes=prizes, chops=chops, **options)


def planned() -> str:
    """A 3.7 event not yet played: players registered, nobody bought in, no start."""
    players = "Map.from([" + ", ".join(f"[{js(u)}, {player(u, n)}]" for u, n in ((ANNA, "Anna"), (BRUNO, "Bruno"))) + "])"
    return event_37(players, title="Club Night 20251023", started=False)


def event_30() -> str:
    """A played 3.0 event: ``GameFinancials`` (one fee per kind), players in ``new Map``, no
    profile names; single quotes and a bare-key object as the older files may write."""
    people = [
        (ANNA, "Anna", []),
        (BRUNO, "Bruno", [("out", 40, 2, [ANNA])]),
        (CARLA, "Carla", [("out", 20, 1, [BRUNO])]),
    ]
    players = []
    for uuid, nick, events in people:
        out = ""
        for _kind, minute, round_, hitmen in events:
            out = f"new GameBustOut({{Time: {T0 + minute * MINUTE}, Round: {round_}, HitmanUUID: {js(hitmen)}}})"
        bust_field = f", BustOut: {out}" if out else ""
        players.append(
            f"{js(uuid)}: new GamePlayer({{ UUID: {js(uuid)}, Name: new PlayerName({{UUID: {js(uuid)}, Nickname: '{nick}', Firstname: '', Lastname: '', LastModified: 0}}), "
            f"Info: new PlayerInfo({{UUID: {js(uuid)}, Phone1: '', Phone2: '', Email1: '{nick.lower()}@nowhere.com', Email2: '', Notes: '', OptID: '{nick}'}}), "
            f"Buyins: [new GameBuyin({{Time: {T0}, Round: 1, Amount: 50, PersonalBounty: 0, Rake: new PerPlayerRake([5]), Chips: 1500, Points: 0{bust_field}}})], "
            f"AddOns: [], CashAdjustment: 0, PointsAdjustment: 0, ChipCount: 1500, NumberOfTableMoves: 0, PaidInFull: true, HitsAdjustment: 0 }})"
        )
    return (
        "{ V: \"3.0\", T: new Tournament({UUID: 'ev-30', Title: 'Texas Freeze Out', Description: '', Notes: '', "
        "Financials: new GameFinancials({EntryFee: 50, FixedRake: new PerPlayerRake([0]), PPRake: new PerPlayerRake([5]), HouseContribution: 0, "
        "StartingChips: 1500, GuaranteedPot: 0, TotalChipsAdjustment: 0, PointsForBuyin: 0, PointsForHit: 0, "
        "AddOns: new AddOnRebuy({Allow: false, Fee: 0, Rake: new PerPlayerRake([0]), Chips: 0, Points: 0, LastRound: 0, MaxPerPlayer: 0, MaxTotal: 0, MinPlayers: 0, BountyChipCost: 0}), "
        "Rebuys: new AddOnRebuy({Allow: true, Fee: 50, Rake: new PerPlayerRake([0]), Chips: 1000, Points: 0, LastRound: 6, MaxPerPlayer: 1, MaxTotal: 0, MinPlayers: 0, BountyChipCost: 0}), "
        "PointsForPlaying: new UserFormula({Text: 'n-r+1', Strict: false}), UseBounties: true, DefaultBounty: 5, RestrictedBounty: true, "
        "AllowInTourneyRebuys: false, FixedRakeType: 0, FixedRakePercent: new PerPlayerRake([0]), FixedRakeRounding: 0, FixedRakeRoundToNearest: 1, "
        "AllowRebuyOverrideAfterBustout: true}), "
        f"Players: new GamePlayers({{Players: new Map({{{', '.join(players)}}}), Chops: new GameChops({{Chops: []}}), "
        "Config: new GamePlayersConfig({TrackPlayers: true, FullCreditHit: false})}), "
        "Levels: new GameLevels({Levels: [new GameRound({Minutes: 15, SmallBlind: 5, BigBlind: 10, Ante: 0, GameType: 2, GameName: 'Hold em', Limit1: 0, Limit2: 0})]}), "
        "Prizes: new GamePrizes({Prizes: [new GamePrize({Description: '1st Place', Type: 0, Recipient: 1, AmountType: 0, Amount: 100, "
        "AwardedToPlayers: ['a1'], CalculatedAmount: 135, CalculatedPoints: 0})]}), "
        f"StartTime: {T0}, EndTime: {T0 + 60 * MINUTE}, CurrentLevel: 0}}) }}"
    )
