"""TD3 save files read: the literal's every construct, the refusals with their place, and the
model an import takes from them (event, levels, profiles, players, entries, busts, prizes, places)."""

import datetime as dt
from decimal import Decimal
from fractions import Fraction

import pytest
from django.utils import translation

from tests.tournaments import td3_files as files
from tests.tournaments.td3_files import ANNA, BRUNO, CARLA, DARIO, ELENA, NO_SHARED, SHARED, has_shared
from tournaments.imports.td3 import model, reader
from tournaments.imports.td3.reader import Obj, Td3FormatError

# --- the literal


def test_every_construct_of_the_format_reads_as_plain_python():
    text = (
        "{ V: \"3.7.2\", 'quoted': 'single \\'q\\'', \"k\\u00e9y\": \"tab\\there \\u00e9\\ud83d\\ude00 \\x41 \\\\ \\/ \\0\", "
        "n: [0, -12, 3.5, -0.25, 1e3, 2.5E-2, .5], flags: [true, false, null, undefined], "
        "rake: new PerPlayerRake([20]), two: new Pair(1, 'b'), none: new Empty(), dotted: new LO.Cell({Text: \"x\"}), "
        'map37: Map.from([["k1", 1], [2, new FeeProfile({Name: "A"})]]), map30: new Map({"u1": {a: 1}}), '
        "mapjs: new Map([[\"z\", 0]]), empty: Map.from([]), when: new Date(1700000000000), trailing: [1, 2,], 7: 'seven', }"
    )
    tree = reader.parse(text)
    assert tree["V"] == "3.7.2"
    assert tree["quoted"] == "single 'q'"
    assert tree["kéy"] == "tab\there é😀 A \\ / \0"
    assert tree["n"] == [0, -12, 3.5, -0.25, 1000.0, 0.025, 0.5]
    assert isinstance(tree["n"][0], int) and isinstance(tree["n"][2], float)
    assert tree["flags"] == [True, False, None, None]
    assert tree["rake"] == Obj("PerPlayerRake", [[20]])
    assert tree["two"] == Obj("Pair", [1, "b"]) and tree["none"] == Obj("Empty", [])
    assert tree["dotted"].kind == "LO.Cell" and tree["dotted"]["Text"] == "x" and tree["dotted"].get("Missing", 5) == 5
    assert tree["map37"] == {"k1": 1, 2: Obj("FeeProfile", {"Name": "A"})}
    assert tree["map30"] == {"u1": {"a": 1}} and tree["mapjs"] == {"z": 0} and tree["empty"] == {}
    assert tree["when"] == Obj("Date", [1700000000000])
    assert tree["trailing"] == [1, 2] and tree["7"] == "seven"
    assert list(tree)[:3] == ["V", "quoted", "kéy"]  # the file's order kept


def test_text_in_the_windows_code_page_of_td3_3_4_is_read_too():
    text = files.event_30().replace("Anna", "Jörgen")
    assert model.event_of(reader.load(text.encode("cp1252"))).player(ANNA).nickname == "Jörgen"
    assert model.event_of(reader.load(b"\xef\xbb\xbf" + text.encode("utf-8"))).player(ANNA).nickname == "Jörgen"


def position_of(text: str, marker: str) -> tuple[int, int]:
    offset = text.index(marker)
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


@pytest.mark.parametrize("cut", [0.3, 0.5, 0.97])
def test_a_file_cut_short_is_refused_where_it_ends(cut):
    text = files.club_night()
    short = text[: int(len(text) * cut)]
    with pytest.raises(Td3FormatError) as refused:
        reader.load(short)
    assert "cut short" in refused.value.message
    # Where the text ends, or at what it ends with: half a word, or a string left open.
    rest = short[refused.value.offset :]
    assert rest == "" or rest[0] in "\"'" or not any(char.isspace() for char in rest)
    assert f"line {refused.value.line}, column {refused.value.column}" in str(refused.value)


def test_a_file_cut_inside_a_string_is_cut_short_too():
    with pytest.raises(Td3FormatError) as refused:
        reader.load('{ V: "3.7.2", T: new Tournament({Title: "Club Ni')
    assert "cut short" in refused.value.message and refused.value.position == (1, 41)


@pytest.mark.parametrize(
    "text, marker, words",
    [
        ('{ V: "3.7.2",\n  T: new Tournament({Title: "x"}) ] }', "]", "“,” or “}”"),
        ('{ V: "3.7.2",\n  T: new Tournament({Title: eval("x")}) }', "eval", "Unknown name"),
        ('{ V: "3.7.2",\n  T: new Tournament({Title: "x"}) } extra', "extra", "after the end"),
        ('{ V: "3.7.2",\n  T: new Tournament({Title: "x\n"}) }', '"x', "not closed"),
        ('{ V: "3.7.2",\n  T: new Tournament({Title: @}) }', "@", "Expected a value"),
        ('{ V: "3.7.2",\n  T: new Tournament({Title: function() {}}) }', "function", "Unknown name"),
        ('{ V: "3.7.2",\n  T: new (Tournament)({}) }', "(Tournament", "class name"),
        ('{ V: "3.7.2",\n  T: Map.from([1, 2]) }', ")", "pairs"),
        ('{ V: "3.7.2",\n  T: new Tournament({a.b: 1}) }', "a.b", "Expected a key"),
        ('{ V: "3.7.2",\n  T: new Tournament({Title: "\\u12"}) }', '"\\u12"', "not complete"),
    ],
)
def test_a_stray_token_is_refused_with_its_line_and_column(text, marker, words):
    with pytest.raises(Td3FormatError) as refused:
        reader.load(text)
    assert words in refused.value.message
    assert refused.value.position == position_of(text, marker)


@pytest.mark.parametrize(
    "data, words, position",
    [
        (b"", "empty", (1, 1)),
        (b"  \n ", "empty", (1, 1)),
        (b"Name;Nickname;Email\nAnna;Anna R;anna@example.org\n", "begins with “{”, this one with “Name”", (1, 1)),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not text", (3, 1)),
        (b'\n  {"V": 1, "rows": [1, 2]}', "no TD3 tournament", (2, 3)),
        (b"{ V: \"3.7.2\", T: new Player({UUID: 'x'}) }", "no TD3 tournament", (1, 1)),
        ("{ V: 'x', T: 1 }".encode("utf-16"), "not text", (1, 4)),
    ],
)
def test_what_is_not_a_td3_save_file_is_refused_plainly(data, words, position):
    with pytest.raises(Td3FormatError) as refused:
        reader.load(data)
    assert words in refused.value.message and "not a TD3 save file" in refused.value.message
    assert refused.value.position == position


def test_the_nesting_and_the_size_are_bounded():
    deep = "{ V: 'x', T: " + "[" * 150 + "]" * 150 + " }"
    with pytest.raises(Td3FormatError) as refused:
        reader.load(deep)
    assert "deeper than 100" in refused.value.message and refused.value.position == (1, 14 + 99)
    assert reader.parse("[" * 30 + "]" * 30, max_depth=30) is not None
    with pytest.raises(Td3FormatError, match="larger than 1 MB"):
        reader.load(b"{" + b" " * (1024 * 1024), max_size=1024 * 1024)


# --- the model


@pytest.fixture
def night() -> model.Event:
    return model.event_of(reader.load(files.club_night()))


def test_the_event_its_league_season_and_times(night):
    assert (night.version, night.uuid, night.title, night.description) == ("3.7.2", "ev-37", "Club Night 20240315", "Weekly évent")
    assert (night.league_name, night.league_uuid, night.season_name, night.season_uuid) == ("Thursday League", "lg-1", "2024", "ss-24")
    assert night.start == dt.datetime(2023, 11, 14, 22, 13, 20, tzinfo=dt.UTC)
    assert night.end == night.start + dt.timedelta(minutes=300)
    assert night.state == model.FINISHED
    assert night.date() == dt.date(2023, 11, 14) and night.date(dt.timezone(dt.timedelta(hours=3))) == dt.date(2023, 11, 15)
    assert night.title_date == dt.date(2024, 3, 15)
    assert night.points_formula.startswith('assign("base", n - r + 1)\nIF (r = 1')


def test_levels_rounds_and_breaks(night):
    kinds = [(level.kind, level.number, level.minutes) for level in night.levels]
    assert kinds == [("round", 1, 20), ("round", 2, 20), ("break", 1, 10), ("round", 3, 15), ("round", 4, 15)]
    third = night.level_of_round(3)
    assert (third.position, third.small_blind, third.big_blind, third.ante, third.game_name) == (4, 100, 200, 25, "Texas Hold 'Em")
    assert night.levels[2].chip_up and night.levels[2].notes == "Colour up"
    assert night.current_level == 4


def test_fee_profiles_by_kind(night):
    by_kind = {(p.kind, p.name): (p.fee, p.rake, p.chips, p.default) for p in night.profiles}
    assert by_kind == {
        ("buyin", "Standard"): (100, 10, 10000, True),
        ("buyin", "Late"): (120, 10, 12000, False),
        ("rebuy", "Rebuy"): (100, 0, 10000, True),
        ("addon", "Add-on"): (50, 0, 5000, True),
    }


def test_players_and_their_contacts(night):
    anna = night.player(ANNA)
    assert (anna.nickname, anna.first_name, anna.last_name, anna.emails, anna.phones) == ("Anna", "Anna", "Rossi", ("anna@example.org",), ("+39 333 1234567",))
    assert [p.uuid for p in night.players] == [ANNA, BRUNO, CARLA, DARIO, ELENA]


def test_entries_a_rebuy_a_reentry_and_an_addon(night):
    bruno, elena, anna = night.player(BRUNO), night.player(ELENA), night.player(ANNA)
    assert [(e.number, e.kind, e.profile, e.after_bust) for e in bruno.entries] == [(1, "buyin", "Standard", False), (2, "rebuy", "Rebuy", True)]
    assert [(e.kind, e.profile, e.amount, e.chips, e.round) for e in elena.entries] == [
        ("buyin", "Standard", 100, 10000, 1),
        ("reentry", "Late", 120, 10000, 2),
    ]
    assert elena.reentries == (elena.entries[1],) and bruno.rebuys == (bruno.entries[1],)
    assert elena.entries[1].time == night.start + dt.timedelta(minutes=30)
    assert [(a.amount, a.chips, a.round, a.profile) for a in anna.addons] == [(50, 5000, 4, "Add-on")]
    assert anna.entries[0].bust is None and anna.entries[0].rake == 10


def test_a_bust_its_time_round_table_seat_and_hitmen(night):
    first, last = (entry.bust for entry in night.player(ELENA).entries)
    assert (first.round, first.table, first.seat, first.hitmen) == (1, "Table 2", 5, (CARLA,))
    assert (last.time, last.round, last.hitmen) == (night.start + dt.timedelta(minutes=90), 4, (ANNA, BRUNO))


def test_places_from_the_last_busts_one_per_player(night):
    # Bruno busted first of all, bought in again and busted last: his place is his last bust's.
    assert night.places() == {ANNA: 1, BRUNO: 2, CARLA: 3, DARIO: 3, ELENA: 5}


def test_hits_and_knockouts_as_td3_counts_them(night):
    assert night.hits() == {ANNA: Fraction(5, 2), BRUNO: Fraction(3, 2), CARLA: 1, DARIO: 1, ELENA: 0}
    assert night.knockouts() == {ANNA: 3, BRUNO: 2, CARLA: 1, DARIO: 1, ELENA: 0}
    full = model.event_of(reader.load(files.club_night(full_credit=True)))
    assert full.hits() == {ANNA: 3, BRUNO: 2, CARLA: 1, DARIO: 1, ELENA: 0}


def test_prizes_a_split_one_and_the_chop(night):
    assert [(p.place, p.amount, p.awarded_to) for p in night.prizes] == [
        (1, 300, (ANNA,)),
        (2, 200, (BRUNO,)),
        (3, 100, (CARLA, DARIO)),
        (4, 60, (CARLA, DARIO)),
    ]
    (chop,) = night.chops
    assert chop.players == (CARLA, DARIO) and chop.shares[0].cash_percent == 50 and chop.shares[0].cash_amount == 80
    assert night.winnings() == {ANNA: 300, BRUNO: 200, CARLA: 80, DARIO: 80, ELENA: 0}


def test_a_chop_ranks_its_players_apart_by_their_relative_ranks():
    text = files.club_night().replace(files.chop_share(DARIO, 50, 80), files.chop_share(DARIO, 50, 80, relative_rank=1))
    assert model.event_of(reader.load(text)).places() == {ANNA: 1, BRUNO: 2, CARLA: 3, DARIO: 4, ELENA: 5}


def test_a_chop_without_amounts_divides_by_its_percentages():
    text = (
        files.club_night()
        .replace(files.chop_share(CARLA, 50, 80), files.chop_share(CARLA, 75, 0))
        .replace(files.chop_share(DARIO, 50, 80), files.chop_share(DARIO, 25, 0))
    )
    assert model.event_of(reader.load(text)).winnings()[CARLA] == Decimal(120)


def test_players_as_a_list_read_as_from_a_map():
    listed = model.event_of(reader.load(files.club_night(players_as_list=True)))
    mapped = model.event_of(reader.load(files.club_night()))
    assert listed.players == mapped.players and listed.places() == mapped.places()


def test_a_planned_event_has_its_players_and_no_results():
    planned = model.event_of(reader.load(files.planned()))
    assert planned.state == model.PLANNED and planned.start is None and planned.end is None
    assert [p.nickname for p in planned.players] == ["Anna", "Bruno"] and planned.entrants() == ()
    assert planned.places() == {} and planned.date() == dt.date(2025, 10, 23)


def test_the_3_0_shape_one_fee_per_kind_and_players_in_new_map():
    old = model.event_of(reader.load(files.event_30()))
    assert old.version == "3.0" and old.league_name == "" and old.state == model.FINISHED
    assert {(p.kind, p.fee, p.rake, p.chips, p.bounty_chip_cost) for p in old.profiles} == {
        ("buyin", 50, 5, 1500, 5),
        ("rebuy", 50, 0, 1000, 0),
        ("addon", 0, 0, 0, 0),
    }
    assert [(p.nickname, p.emails, p.player_id) for p in old.players][0] == ("Anna", ("anna@nowhere.com",), "Anna")
    assert old.places() == {ANNA: 1, BRUNO: 2, CARLA: 3}
    assert old.player(BRUNO).last_bust.seat is None and old.player(BRUNO).last_bust.hitmen == (ANNA,)
    assert old.levels[0].limits == (0, 0) and old.prizes[0].amount == 135


def test_a_td3_file_without_financial_settings_is_refused():
    with pytest.raises(Td3FormatError, match="Financials"):
        model.event_of(reader.load('{ V: "3.7.2", T: new Tournament({Title: "x"}) }'))


# --- the real files, when this machine has them


def shared_files():
    return sorted((SHARED / "orf").glob("*.tdt")) + sorted(SHARED.glob("*.tdt"))


needs_shared = pytest.mark.skipif(not has_shared(), reason=NO_SHARED)


@needs_shared
def test_all_real_files_parse_and_their_places_are_the_prizes_td3_paid():
    paths = shared_files()
    assert len(paths) >= 74
    checked = 0
    for path in paths:
        event = model.event_of(reader.load(path.read_bytes()))
        places = event.places()
        assert len(places) == (len(event.entrants()) if event.state != model.PLANNED else 0)
        for prize in event.prizes:
            if prize.place and len(prize.awarded_to) == 1:
                assert places[prize.awarded_to[0]] == prize.place, (path.name, prize.description)
                checked += 1
        if event.state == model.FINISHED:
            # One winner, nobody else never busted, and every place given once (no tie in these files).
            assert sorted(places.values()) == list(range(1, len(places) + 1)), path.name
    assert checked >= 3 * 72


@needs_shared
def test_the_real_events_not_yet_played_have_a_date_and_no_places():
    events = [model.event_of(reader.load(path.read_bytes())) for path in shared_files()]
    planned = [event for event in events if event.state == model.PLANNED]
    assert planned, "the real files hold an event not yet played"
    for event in planned:
        assert event.places() == {} and event.start is None and event.date() is not None, event.title
    assert {event.version for event in events} >= {"3.0", "3.7.2"}


def test_a_refusal_is_said_in_the_readers_language():
    with translation.override("it"), pytest.raises(Td3FormatError) as refused:
        reader.load('{ V: "3.7.2", T: new Tournament({Title: "x"}')
    assert str(refused.value) == "Il file finisce troppo presto: è troncato. (riga 1, colonna 45)"
