"""What an import takes from a TD3 save file: the event, its structure, money, players and results.

``event_of(tree)`` turns the tree ``reader.load`` made into plain dataclasses, the same for TD3
3.0 (``GameFinancials``, one fee per kind of purchase) and 3.7 (``FinancialConfig`` with named
fee profiles). Where TD3 keeps each thing:

- the event: ``T.UUID``, ``Title``, ``Description``, ``LeagueName``/``LeagueUUID``,
  ``SeasonName``/``SeasonUUID``; ``StartTime`` and ``EndTime`` (milliseconds since 1970, UTC)
  are there once the clock started and once it ended, so an event still planned has neither
  and no date at all but the one its title may carry;
- the levels: ``Levels.Levels``, ``GameRound`` (minutes, blinds, ante, game) and ``GameBreak``
  (minutes, chip-up); buy-ins and bust-outs name the *round* number, breaks not counted;
- the fee profiles: ``Financials.Buyins``/``Rebuys``/``AddOns``, each a ``BuyConfig`` of
  ``FeeProfile`` (fee, ``Rake`` a ``PerPlayerRake`` of one amount per named rake, chips, points,
  bounty chip cost); TD3 knows no re-entry profile: a player back after a bust buys a rebuy;
- a player (``Players.Players``, a map by UUID, or a list): ``Name`` (nickname, first and last
  name), ``Info`` (two phones, two e-mails), ``Buyins`` (the first his buy-in, the next his
  rebuys; each with its time, round, amount, profile and, once he busted, its ``BustOut``: time,
  round, ``Seat`` with the table's name and the 0-based seat, ``HitmanUUID`` a list — two
  hitmen share a bust, none when nobody was named), ``AddOns``, and adjustments of cash,
  points and hits;
- the prizes: ``Prizes.Prizes``, ``GamePrize`` with the place (``Recipient`` when ``Type`` is 0),
  ``CalculatedAmount``/``CalculatedPoints`` and ``AwardedToPlayers`` (all the players of a
  chop for each place it divides); a chop's shares are in ``Players.Chops``;
- the chips: ``Chips.Chips`` (``GameChip``: label, colour, value);
- the points formula: ``Financials.PointsForPlaying.Text``, with ``PointsForHit``.

The places are TD3's ranks: a player's place comes from his last bust-out (the one never busted
ahead of all), players out at the same moment share the better place unless their chop ranks
them apart, and a player who bought in again after a bust has one place, his last bust's.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from tournaments.imports.td3.reader import Obj, Td3FormatError
from tournaments.imports.td3.reader import translated as _

BUYIN, REBUY, REENTRY, ADDON = "buyin", "rebuy", "reentry", "addon"
ROUND, BREAK = "round", "break"
PLANNED, RUNNING, FINISHED = "planned", "running", "finished"


@dataclass(frozen=True)
class Level:
    """One level of the schedule: a round (``number`` counts rounds only) or a break."""

    position: int
    kind: str
    number: int
    minutes: int
    small_blind: Decimal = Decimal(0)
    big_blind: Decimal = Decimal(0)
    ante: Decimal = Decimal(0)
    game_name: str = ""
    game_type: int | None = None  # 0 limit, 1 pot limit, 2 no limit
    limits: tuple[Decimal, ...] = ()  # a limit game's eight limits
    chip_up: bool = False
    notes: str = ""


@dataclass(frozen=True)
class FeeProfile:
    """A way to pay in: ``kind`` is ``buyin``, ``rebuy`` or ``addon``; the fee holds the rake."""

    kind: str
    name: str
    fee: Decimal
    rake: Decimal
    chips: int
    points: Decimal = Decimal(0)
    bounty_chip_cost: Decimal = Decimal(0)
    enabled: bool = True
    default: bool = False


@dataclass(frozen=True)
class Bust:
    time: dt.datetime | None
    round: int
    table: str = ""
    seat: int | None = None  # 1-based, as TD3 shows it
    hitmen: tuple[str, ...] = ()


@dataclass(frozen=True)
class Entry:
    """A buy-in (``number`` 1) or a later purchase of chips: a rebuy, or a re-entry when made
    with a buy-in profile. ``after_bust`` says the player was out when he made it."""

    number: int
    kind: str
    time: dt.datetime | None
    round: int
    amount: Decimal
    rake: Decimal
    chips: int
    points: Decimal
    profile: str
    after_bust: bool
    bust: Bust | None = None
    bounty: Decimal = Decimal(0)  # TD3's ``PersonalBounty``: the bounty on the player's head it bought


@dataclass(frozen=True)
class AddOn:
    time: dt.datetime | None
    round: int
    amount: Decimal
    rake: Decimal
    chips: int
    points: Decimal
    profile: str


@dataclass(frozen=True)
class Player:
    uuid: str
    nickname: str
    first_name: str = ""
    last_name: str = ""
    emails: tuple[str, ...] = ()
    phones: tuple[str, ...] = ()
    player_id: str = ""  # TD3's "ID" field of the player
    entries: tuple[Entry, ...] = ()
    addons: tuple[AddOn, ...] = ()
    cash_adjustment: Decimal = Decimal(0)
    points_adjustment: Decimal = Decimal(0)
    hits_adjustment: Decimal = Decimal(0)
    chip_count: int = 0

    @property
    def name(self) -> str:
        """The name TD3 shows: the nickname, else first and last name."""
        return self.nickname or " ".join(part for part in (self.first_name, self.last_name) if part)

    @property
    def last_bust(self) -> Bust | None:
        """The bust that ended his event, or None while he is (or was left) in."""
        return self.entries[-1].bust if self.entries else None

    @property
    def rebuys(self) -> tuple[Entry, ...]:
        return tuple(entry for entry in self.entries if entry.kind == REBUY)

    @property
    def reentries(self) -> tuple[Entry, ...]:
        return tuple(entry for entry in self.entries if entry.kind == REENTRY)


@dataclass(frozen=True)
class Prize:
    position: int
    description: str
    place: int | None  # the rank it pays; None for a prize awarded otherwise (a bounty on a player)
    amount: Decimal
    points: Decimal
    awarded_to: tuple[str, ...]
    non_monetary: str = ""


@dataclass(frozen=True)
class ChopShare:
    player: str
    cash_percent: Decimal
    cash_amount: Decimal
    points_percent: Decimal
    points_amount: Decimal
    chip_count: int
    relative_rank: int


@dataclass(frozen=True)
class Chop:
    """Players out together dividing the prizes of the places they span (or a deal at the end)."""

    shares: tuple[ChopShare, ...]
    cash_method: int | None = None
    points_method: int | None = None

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(share.player for share in self.shares)


@dataclass(frozen=True)
class Chip:
    label: str
    color: str
    value: Decimal


@dataclass(frozen=True)
class Table:
    name: str
    seats: int
    seated: tuple[str, ...] = ()  # the players sitting there when the file was saved


@dataclass(frozen=True)
class Event:
    version: str
    uuid: str
    title: str
    description: str = ""
    notes: str = ""
    league_name: str = ""
    league_uuid: str = ""
    season_name: str = ""
    season_uuid: str = ""
    start: dt.datetime | None = None
    end: dt.datetime | None = None
    title_date: dt.date | None = None
    levels: tuple[Level, ...] = ()
    profiles: tuple[FeeProfile, ...] = ()
    players: tuple[Player, ...] = ()
    prizes: tuple[Prize, ...] = ()
    chops: tuple[Chop, ...] = ()
    chips: tuple[Chip, ...] = ()
    tables: tuple[Table, ...] = ()
    current_level: int = 0  # the position in ``levels`` of the level running (or last run), from 0
    last_move: dt.datetime | None = None
    points_formula: str = ""
    points_for_hit: Decimal = Decimal(0)
    full_credit_hits: bool = False
    house_contribution: Decimal = Decimal(0)
    guaranteed_pot: Decimal = Decimal(0)
    settings: dict = field(default_factory=dict)  # the rest of the rules the formula's variables read

    @property
    def state(self) -> str:
        """``planned`` before the clock started, ``running`` until it ended, then ``finished``."""
        if self.start is None:
            return PLANNED
        return FINISHED if self.end is not None else RUNNING

    def date(self, tz: dt.tzinfo = dt.UTC) -> dt.date | None:
        """The day it was played in ``tz``: its start, else its first buy-in, else its title's date."""
        when = self.start or min((entry.time for player in self.players for entry in player.entries if entry.time), default=None)
        return when.astimezone(tz).date() if when else self.title_date

    def level_of_round(self, number: int) -> Level | None:
        """The level of a round number (buy-ins and bust-outs name rounds, breaks not counted)."""
        return next((level for level in self.levels if level.kind == ROUND and level.number == number), None)

    def profile(self, kind: str, name: str) -> FeeProfile | None:
        return next((p for p in self.profiles if p.kind == kind and p.name == name), None)

    def player(self, uuid: str) -> Player | None:
        return self._by_uuid().get(uuid)

    def entrants(self) -> tuple[Player, ...]:
        """The players who bought in (a planned event lists some who have not yet)."""
        return tuple(player for player in self.players if player.entries)

    def places(self) -> dict[str, int]:
        """Each entrant's place, TD3's rank (see the module's docstring); none before the start."""
        return self._results()[0] if self.state != PLANNED else {}

    def hits(self) -> dict[str, Fraction]:
        """Each entrant's hits as TD3 counts them: a bust shared by two hitmen gives each half
        (each one with "full credit for fractional hits"), plus the player's hits adjustment."""
        return self._results()[1]

    def knockouts(self) -> dict[str, int]:
        """Each entrant's bust-outs of others, a shared one counted whole."""
        return self._results()[2]

    def winnings(self) -> dict[str, Decimal]:
        """Each entrant's prize money: his prizes, a shared one divided as its chop says."""
        return self._results()[3]

    def _by_uuid(self) -> dict[str, Player]:
        cached = self.__dict__.get("_players_by_uuid")
        if cached is None:
            cached = {player.uuid: player for player in self.players}
            object.__setattr__(self, "_players_by_uuid", cached)
        return cached

    def _results(self):
        cached = self.__dict__.get("_results_cache")
        if cached is None:
            cached = (_places(self), *_hits(self), _winnings(self))
            object.__setattr__(self, "_results_cache", cached)
        return cached


# --- reading the tree


def event_of(top: dict) -> Event:
    """The event of a save file's top object (``reader.load``'s result)."""
    t = top["T"]
    financials = t.get("Financials")
    if not isinstance(financials, Obj):
        raise Td3FormatError(_("The tournament has no financial settings (“Financials”): not a TD3 save file."))
    profiles = _profiles(financials)
    formula = financials.get("PointsForPlaying")
    players = _players(t.get("Players"), profiles)
    title = _text(t.get("Title"))
    return Event(
        version=top.get("V", ""),
        uuid=_text(t.get("UUID")),
        title=title,
        description=_text(t.get("Description")),
        notes=_text(t.get("Notes")),
        league_name=_text(t.get("LeagueName")),
        league_uuid=_text(t.get("LeagueUUID")),
        season_name=_text(t.get("SeasonName")),
        season_uuid=_text(t.get("SeasonUUID")),
        start=_time(t.get("StartTime")),
        end=_time(t.get("EndTime")),
        title_date=date_in(title),
        levels=_levels(_field(t, "Levels", "Levels")),
        profiles=profiles,
        players=players,
        prizes=_prizes(_field(t, "Prizes", "Prizes")),
        chops=_chops(_field(t.get("Players"), "Chops", "Chops")),
        chips=tuple(
            Chip(_text(c.get("Label")), _text(c.get("Color")), _money(c.get("Value")))
            for c in _field(t, "Chips", "Chips")
            if isinstance(c, Obj) and c.get("Use", True)
        ),
        tables=_tables(_field(t, "Tables", "Tables")),
        current_level=_int(t.get("CurrentLevel")),
        last_move=_time(_field(t, "Tables", "LastPlayerMove").get("Time")) if isinstance(_field(t, "Tables", "LastPlayerMove"), Obj) else None,
        points_formula=_text(formula.get("Text")) if isinstance(formula, Obj) else _text(formula) if isinstance(formula, str | int | float) else "",
        points_for_hit=_money(financials.get("PointsForHit")),
        full_credit_hits=bool(_field(t.get("Players"), "Config").get("FullCreditHit", False)) if isinstance(_field(t.get("Players"), "Config"), Obj) else False,
        house_contribution=_money(financials.get("HouseContribution")),
        guaranteed_pot=_money(financials.get("GuaranteedPot")),
        settings=_settings(financials),
    )


def date_in(text: str) -> dt.date | None:
    """A date written in a title or a file name (``20251023``, ``2025-10-23``), if any."""
    for match in re.finditer(r"(?<!\d)(\d{4})-?(\d{2})-?(\d{2})(?!\d)", text or ""):
        try:
            return dt.date(int(match[1]), int(match[2]), int(match[3]))
        except ValueError:
            continue
    return None


def _field(obj, *path):
    for key in path:
        obj = obj.get(key) if isinstance(obj, Obj | dict) else None
    return obj if obj is not None else ()


def _text(value) -> str:
    return "" if value is None else str(value)


def _money(value) -> Decimal:
    if isinstance(value, bool) or value is None:
        return Decimal(0)
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        return Decimal(repr(value)) if value == value and value not in (float("inf"), float("-inf")) else Decimal(0)
    if isinstance(value, str):
        try:
            number = Decimal(value.strip())
        except ArithmeticError:
            return Decimal(0)
        return number if number.is_finite() else Decimal(0)
    return Decimal(0)


def _int(value) -> int:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) and value == value and abs(value) != float("inf") else 0


def _time(ms) -> dt.datetime | None:
    """TD3's times are JavaScript's: milliseconds since 1970 in UTC; 0 or nothing is no time."""
    if not isinstance(ms, int | float) or isinstance(ms, bool) or not ms or ms != ms:
        return None
    try:
        return dt.datetime.fromtimestamp(ms / 1000, dt.UTC)
    except (OverflowError, OSError, ValueError):
        return None


def _rake(value) -> Decimal:
    """A ``PerPlayerRake`` holds one amount per named rake; the rake is their sum."""
    if isinstance(value, Obj):
        amounts = value.fields[0] if type(value.fields) is list and value.fields and type(value.fields[0]) is list else value.fields
        return sum((_money(a) for a in (amounts if type(amounts) is list else ())), Decimal(0))
    return _money(value)


def _levels(items) -> tuple[Level, ...]:
    levels, rounds, breaks = [], 0, 0
    for position, item in enumerate(items if type(items) is list else (), 1):
        if not isinstance(item, Obj):
            continue
        if item.kind == "GameBreak":
            breaks += 1
            levels.append(Level(position, BREAK, breaks, _int(item.get("Minutes")), chip_up=bool(item.get("ChipUp")), notes=_text(item.get("Notes"))))
        else:
            rounds += 1
            levels.append(
                Level(
                    position,
                    ROUND,
                    rounds,
                    _int(item.get("Minutes")),
                    small_blind=_money(item.get("SmallBlind")),
                    big_blind=_money(item.get("BigBlind")),
                    ante=_money(item.get("Ante")),
                    game_name=_text(item.get("GameName")),
                    game_type=_int(item.get("GameType")) if item.get("GameType") is not None else None,
                    limits=_limits(item),
                    notes=_text(item.get("Notes")),
                )
            )
    return tuple(levels)


def _limits(item: Obj) -> tuple[Decimal, ...]:
    """3.7 writes ``Limits`` (eight), older files ``Limit1`` and ``Limit2``."""
    limits = item.get("Limits")
    if type(limits) is list:
        return tuple(_money(limit) for limit in limits)
    return tuple(_money(item.get(f"Limit{i}")) for i in range(1, 9) if f"Limit{i}" in item)


def _profiles(financials: Obj) -> tuple[FeeProfile, ...]:
    if financials.kind == "GameFinancials" or "EntryFee" in financials:
        # 3.0: one fee per kind, no names.
        profiles = [
            FeeProfile(
                BUYIN,
                "",
                _money(financials.get("EntryFee")),
                _rake(financials.get("PPRake")),
                _int(financials.get("StartingChips")),
                _money(financials.get("PointsForBuyin")),
                _money(financials.get("DefaultBounty")) if financials.get("UseBounties") else Decimal(0),
                default=True,
            )
        ]
        for kind, key in ((REBUY, "Rebuys"), (ADDON, "AddOns")):
            config = financials.get(key)
            if isinstance(config, Obj):
                profiles.append(
                    FeeProfile(
                        kind,
                        "",
                        _money(config.get("Fee")),
                        _rake(config.get("Rake")),
                        _int(config.get("Chips")),
                        _money(config.get("Points")),
                        _money(config.get("BountyChipCost")),
                        enabled=bool(config.get("Allow", True)),
                        default=True,
                    )
                )
        return tuple(profiles)
    profiles = []
    for kind, key in ((BUYIN, "Buyins"), (REBUY, "Rebuys"), (ADDON, "AddOns")):
        config = financials.get(key)
        if not isinstance(config, Obj):
            continue
        default = _int(config.get("DefIndex"))
        for index, profile in enumerate(_field(config, "Profiles")):
            if isinstance(profile, Obj):
                profiles.append(
                    FeeProfile(
                        kind,
                        _text(profile.get("Name")),
                        _money(profile.get("Fee")),
                        _rake(profile.get("Rake")),
                        _int(profile.get("Chips")),
                        _money(profile.get("Points")),
                        _money(profile.get("BountyChipCost")),
                        enabled=bool(profile.get("Enabled", True)) and bool(config.get("Allow", True)),
                        default=index == default,
                    )
                )
    return tuple(profiles)


def _settings(financials: Obj) -> dict:
    """The purchase rules the formula's variables read (``rebuysLastRound`` and the like)."""
    settings = {"use_bounties": bool(financials.get("UseBounties")), "restricted_bounty": bool(financials.get("RestrictedBounty"))}
    for key, name in (("Rebuys", "rebuys"), ("AddOns", "addons"), ("Buyins", "buyins")):
        config = financials.get(key)
        if isinstance(config, Obj):
            for field_name, setting in (
                ("Allow", "allowed"),
                ("LastRound", "last_round"),
                ("MaxPerPlayer", "max_per_player"),
                ("MaxTotal", "max_total"),
                ("MinPlayers", "min_players"),
            ):
                value = config.get(field_name)
                settings[f"{name}_{setting}"] = bool(value) if setting == "allowed" else _int(value)
    fixed = financials.get("FixedRake")
    settings["fixed_rake"] = _rake(fixed.get("Real")) if isinstance(fixed, Obj) and fixed.kind == "FixedRakeConfig" else _rake(fixed)
    settings["chips_adjustment"] = _money(financials.get("TotalChipsAdjustment"))
    return settings


def _players(players_obj, profiles: tuple[FeeProfile, ...]) -> tuple[Player, ...]:
    container = _field(players_obj, "Players")
    items = container.values() if isinstance(container, dict) else container if type(container) is list else ()
    buyin_names = {p.name for p in profiles if p.kind == BUYIN}
    rebuy_names = {p.name for p in profiles if p.kind == REBUY}
    result = []
    for item in items:
        if not isinstance(item, Obj):
            continue
        name = item.get("Name")
        info = item.get("Info")
        name = name if isinstance(name, Obj) else Obj("PlayerName", {"Nickname": _text(name)})
        info = info if isinstance(info, Obj) else Obj("PlayerInfo", {})
        entries = []
        previous_bust = None
        for number, buyin in enumerate(_field(item, "Buyins"), 1):
            if not isinstance(buyin, Obj):
                continue
            profile = _text(buyin.get("ProfileName"))
            if number == 1:
                kind = BUYIN
            elif profile in buyin_names and profile not in rebuy_names:
                kind = REENTRY
            else:
                kind = REBUY
            bust = buyin.get("BustOut")
            entries.append(
                Entry(
                    number=len(entries) + 1,
                    kind=kind,
                    time=_time(buyin.get("Time")),
                    round=_int(buyin.get("Round")),
                    amount=_money(buyin.get("Amount")),
                    rake=_rake(buyin.get("Rake")),
                    chips=_int(buyin.get("Chips")),
                    points=_money(buyin.get("Points")),
                    profile=profile,
                    after_bust=previous_bust is not None,
                    bust=_bust(bust) if isinstance(bust, Obj) else None,
                    bounty=_money(buyin.get("PersonalBounty")),
                )
            )
            previous_bust = entries[-1].bust
        addons = tuple(
            AddOn(
                _time(a.get("Time")),
                _int(a.get("Round")),
                _money(a.get("Amount")),
                _rake(a.get("Rake")),
                _int(a.get("Chips")),
                _money(a.get("Points")),
                _text(a.get("ProfileName")),
            )
            for a in _field(item, "AddOns")
            if isinstance(a, Obj)
        )
        result.append(
            Player(
                uuid=_text(item.get("UUID")),
                nickname=_text(name.get("Nickname")).strip(),
                first_name=_text(name.get("Firstname")).strip(),
                last_name=_text(name.get("Lastname")).strip(),
                emails=tuple(e for e in (_text(info.get("Email1")).strip(), _text(info.get("Email2")).strip()) if e),
                phones=tuple(p for p in (_text(info.get("Phone1")).strip(), _text(info.get("Phone2")).strip()) if p),
                player_id=_text(info.get("OptID")),
                entries=tuple(entries),
                addons=addons,
                cash_adjustment=_money(item.get("CashAdjustment")),
                points_adjustment=_money(item.get("PointsAdjustment")),
                hits_adjustment=_money(item.get("HitsAdjustment")),
                chip_count=_int(item.get("ChipCount")),
            )
        )
    return tuple(result)


def _bust(bust: Obj) -> Bust:
    seat = bust.get("Seat")
    hitmen = bust.get("HitmanUUID")
    if isinstance(hitmen, str):  # one hitman written alone
        hitmen = [hitmen] if hitmen else []
    return Bust(
        time=_time(bust.get("Time")),
        round=_int(bust.get("Round")),
        table=_text(seat.get("TableName")) if isinstance(seat, Obj) else "",
        seat=_int(seat.get("SeatIndex")) + 1 if isinstance(seat, Obj) and seat.get("SeatIndex") is not None else None,
        hitmen=tuple(h for h in (hitmen if type(hitmen) is list else ()) if isinstance(h, str) and h),
    )


def _tables(items) -> tuple[Table, ...]:
    return tuple(
        Table(_text(table.get("Name")), _int(table.get("NumberOfSeats")), tuple(s for s in _field(table, "Seats") if isinstance(s, str) and s))
        for table in (items if type(items) is list else ())
        if isinstance(table, Obj)
    )


def _prizes(items) -> tuple[Prize, ...]:
    prizes = []
    for position, prize in enumerate(items if type(items) is list else (), 1):
        if not isinstance(prize, Obj):
            continue
        awarded = prize.get("AwardedToPlayers")
        prizes.append(
            Prize(
                position=position,
                description=_text(prize.get("Description")),
                place=_int(prize.get("Recipient")) if _int(prize.get("Type")) == 0 and prize.get("Recipient") is not None else None,
                amount=_money(prize.get("CalculatedAmount")),
                points=_money(prize.get("CalculatedPoints")),
                awarded_to=tuple(a for a in (awarded if type(awarded) is list else ()) if isinstance(a, str)),
                non_monetary=_text(prize.get("NonMonetary")),
            )
        )
    return tuple(prizes)


def _chops(items) -> tuple[Chop, ...]:
    chops = []
    for chop in items if type(items) is list else ():
        if not isinstance(chop, Obj):
            continue
        portions = chop.get("Portions")
        shares = tuple(
            ChopShare(
                player=str(uuid),
                cash_percent=_money(p.get("CashPercent")),
                cash_amount=_money(p.get("CashReal")),
                points_percent=_money(p.get("PointsPercent")),
                points_amount=_money(p.get("PointsReal")),
                chip_count=_int(p.get("CashChipCount")),
                relative_rank=_int(p.get("RelativeRank")),
            )
            for uuid, p in (portions.items() if isinstance(portions, dict) else ())
            if isinstance(p, Obj)
        )
        chops.append(Chop(shares, chop.get("CashMethod"), chop.get("PointsMethod")))
    return tuple(chops)


# --- results


def _places(event: Event) -> dict[str, int]:
    """TD3's ranks from the last bust-outs: the never-busted first (sharing 1st when more than
    one is left), then by last bust time, latest first; players out in the same second share
    the better place, unless a chop ranks them apart (its relative ranks, lower is better)."""
    entrants = event.entrants()
    never = float("inf")

    def out_at(player: Player) -> float:
        bust = player.last_bust
        if bust is None:
            return never
        return bust.time.timestamp() if bust.time else 0.0

    moments = {player.uuid: out_at(player) for player in entrants}
    ordered = sorted(moments.values(), reverse=True)
    first_at = {}
    for index, moment in enumerate(ordered, 1):
        first_at.setdefault(moment, index)
    places = {uuid: first_at[moment] for uuid, moment in moments.items()}
    for chop in event.chops:
        members = [share for share in chop.shares if share.player in places]
        if len(members) < 2 or len({places[share.player] for share in members}) != 1:
            continue
        base = places[members[0].player]
        for share in members:
            places[share.player] = base + sum(1 for other in members if other.relative_rank < share.relative_rank)
    return places


def _hits(event: Event) -> tuple[dict[str, Fraction], dict[str, int]]:
    hits = {player.uuid: Fraction(0) for player in event.entrants()}
    knockouts = dict.fromkeys(hits, 0)
    for player in event.players:
        for entry in player.entries:
            if entry.bust is None or not entry.bust.hitmen:
                continue
            share = Fraction(1) if event.full_credit_hits else Fraction(1, len(entry.bust.hitmen))
            for hitman in entry.bust.hitmen:
                hits[hitman] = hits.get(hitman, Fraction(0)) + share
                knockouts[hitman] = knockouts.get(hitman, 0) + 1
    for player in event.entrants():
        hits[player.uuid] += Fraction(player.hits_adjustment)
    return hits, knockouts


def _winnings(event: Event) -> dict[str, Decimal]:
    """Prize money per player. A prize awarded to one player is his; one awarded to several
    (the places a chop divides) goes by the chop's shares: the amounts it names when they add
    up to its prizes, else its percentages, else the chip counts, else in equal parts."""
    won = {player.uuid: Decimal(0) for player in event.entrants()}
    chopped: dict[frozenset, list[Prize]] = {}
    for prize in event.prizes:
        if len(prize.awarded_to) == 1:
            won[prize.awarded_to[0]] = won.get(prize.awarded_to[0], Decimal(0)) + prize.amount
        elif prize.awarded_to:
            chopped.setdefault(frozenset(prize.awarded_to), []).append(prize)
    for players, prizes in chopped.items():
        total = sum((p.amount for p in prizes), Decimal(0))
        chop = next((c for c in event.chops if set(c.players) == players), None)
        shares = _chop_shares(chop, total) if chop else None
        for uuid in players:
            part = shares[uuid] if shares else total / len(players)
            won[uuid] = won.get(uuid, Decimal(0)) + part
    return won


def _chop_shares(chop: Chop, total: Decimal) -> dict[str, Decimal]:
    amounts = sum((s.cash_amount for s in chop.shares), Decimal(0))
    if amounts and abs(amounts - total) <= len(chop.shares):
        return {s.player: s.cash_amount for s in chop.shares}
    percents = sum((s.cash_percent for s in chop.shares), Decimal(0))
    if percents:
        return {s.player: total * s.cash_percent / percents for s in chop.shares}
    chips = sum(s.chip_count for s in chop.shares)
    if chips:
        return {s.player: total * s.chip_count / chips for s in chop.shares}
    return {s.player: total / len(chop.shares) for s in chop.shares}
