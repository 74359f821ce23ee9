"""FMT-16 / BAL-04: a mixed-game event plays one game per level (RULES: «Mixed games (e.g. HORSE)
need a per-level "current game" field»). Each level of the structure names its game from the
configured list (the event's own list, "Mixed games" excepted); the clock, its snapshot and the
pages say the game being played and the next level's when it changes.

Worked example: level 1 No-Limit Hold'em, level 2 Pot-Limit Omaha, a break, level 3 Stud.
At level 1 the clock says No-Limit Hold'em, next Pot-Limit Omaha; at level 2 Pot-Limit Omaha
(the next item is the break); at level 3 Stud, the last level (nothing next).
"""

import secrets

import pytest
from django.test import Client

from tournaments.cashier import services as cashier
from tournaments.models import DisplayScreen, TournamentEvent
from tournaments.phone.views import phone_path
from tournaments.setup import lifecycle

LEVELS = [
    {"kind": "LEVEL", "small_blind": 100, "big_blind": 200, "minutes": 20, "game": "NLHE"},
    {"kind": "LEVEL", "small_blind": 200, "big_blind": 400, "minutes": 20, "game": "PLO"},
    {"kind": "BREAK", "minutes": 10},
    {"kind": "LEVEL", "small_blind": 300, "big_blind": 600, "minutes": 20, "game": "STUD"},
]


def mixed_structure(api, director, items=LEVELS, **headers):
    return api(director).post("/api/v1/structures/", {"name": "HORSE-ish", "items": items}, format="json", **headers)


@pytest.fixture
def mixed_event(api, director, make_tournament, make_person, actor, cashier_actor):
    r = mixed_structure(api, director)
    assert r.status_code == 201, r.content
    from tournaments.models import BlindStructure

    t = make_tournament(game="MIXED", structure=BlindStructure.objects.get(pk=r.json()["id"]))
    for _ in range(3):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    lifecycle.start(t, actor=actor)
    return t


@pytest.mark.django_db
def test_fmt16_the_structure_keeps_each_levels_game(api, director):
    r = mixed_structure(api, director)
    assert r.status_code == 201
    assert [it["game"] for it in r.json()["items"]] == ["NLHE", "PLO", "", "STUD"]


@pytest.mark.django_db
def test_fmt16_the_clock_says_the_current_game_and_the_next_one_and_changes_with_the_level(api, director, mixed_event):
    url = f"/api/v1/tournaments/{mixed_event.pk}/clock/"
    c = api(director).post(url + "start/", HTTP_ACCEPT_LANGUAGE="en").json()["clock"]
    assert (c["level_number"], c["game"], c["game_name"]) == (1, "NLHE", "No-Limit Hold'em")
    assert (c["next"]["game"], c["next"]["game_name"]) == ("PLO", "Pot-Limit Omaha")
    # The director moves the clock on: the game changes with the level.
    c = api(director).post(url + "jump/", {"item_index": 1, "reason": "level 1 over"}, format="json", HTTP_ACCEPT_LANGUAGE="en").json()["clock"]
    assert (c["level_number"], c["game"], c["game_name"]) == (2, "PLO", "Pot-Limit Omaha")
    assert c["next"]["kind"] == "break" and "game_name" not in c["next"]
    api(director).post(url + "jump/", {"item_index": 3, "reason": "after the break"}, format="json")
    c = api(director).get(url, HTTP_ACCEPT_LANGUAGE="en").json()["clock"]
    assert (c["level_number"], c["game"], c["game_name"], c["next"]) == (3, "STUD", "Stud", None)
    # The published snapshot (what the lobby screens and the phones receive) carries the code.
    from tournaments.live.snapshot import build_snapshot

    assert build_snapshot(mixed_event)["clock"]["game"] == "STUD"


@pytest.mark.django_db
def test_fmt16_a_level_game_not_in_the_configured_list_is_refused_naming_the_field(api, director):
    bad = [dict(LEVELS[0]), {**LEVELS[1], "game": "NLO"}]  # No-Limit Omaha: never (003 Art. 10)
    r = mixed_structure(api, director, bad, HTTP_ACCEPT_LANGUAGE="en")
    body = r.json()
    assert r.status_code == 400 and body["code"] == "invalid_game"
    assert body["fields"] == {"game": [body["detail"]]} and body["row"] == 2
    assert body["detail"].startswith("Row 2, game: “NLO” is not one of the configured games")
    r = mixed_structure(api, director, bad, HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 400 and r.json()["detail"].startswith("Riga 2, gioco: «NLO» non è tra i giochi configurati")
    # "Mixed games" names an event, never one level of it.
    r = mixed_structure(api, director, [{**LEVELS[0], "game": "MIXED"}])
    assert r.status_code == 400 and r.json()["code"] == "invalid_game"
    assert not TournamentEvent.objects.filter(action="tournaments.structure.saved").exists()


@pytest.mark.django_db
def test_fmt16_a_director_sets_a_levels_game_by_editing_the_structure(api, director):
    st = mixed_structure(api, director).json()
    items = [dict(it) for it in st["items"]]
    items[0]["game"] = "lhe"  # typed in lower case: the list's code is stored
    r = api(director).put(f"/api/v1/structures/{st['id']}/", {"name": st["name"], "items": items}, format="json")
    assert r.status_code == 200 and [it["game"] for it in r.json()["items"]] == ["LHE", "PLO", "", "STUD"]


@pytest.mark.django_db
def test_fmt16_the_pages_show_the_game_of_each_level(client, director, mixed_event):
    client.force_login(director)
    html = client.get(f"/tournaments/{mixed_event.pk}/clock/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<th>Game</th>" in html
    assert [g for g in ("No-Limit Hold&#x27;em", "Pot-Limit Omaha", "Stud") if f'<td class="game">{g}</td>' in html] == [
        "No-Limit Hold&#x27;em",
        "Pot-Limit Omaha",
        "Stud",
    ]
    assert 'id="game-names"' in html and '"PLO": "Pot-Limit Omaha"' in html  # the live line names the game
    # The structures page: each level's game, chosen from the configured list (no "Mixed games").
    html = client.get("/structures/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert 'class="level-game"' in html and '<option value="STUD" selected>Stud</option>' in html
    assert 'value="MIXED"' not in html and "Giochi misti" not in html
    # The lobby screen and the phone page name the games in the reader's language too.
    screen = DisplayScreen.objects.create(name="TV 1", tournament=mixed_event, token=secrets.token_urlsafe(24))
    entry = mixed_event.entries.exclude(phone_token="").first()
    for url in (f"/display/{screen.token}/", phone_path(entry)):
        html = Client().get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
        assert 'id="game-names"' in html and '"MIXED": "Giochi misti"' in html and '"STUD": "Stud"' in html
