"""The lobby speaker in German, Spanish and French: whole sentences in the screen's language,
the numbers in words as each language says them.

The screen's page is rendered with its language (``DisplayScreen.language``), and its own script
(``static/announcer.js``) is run by Node with the sentences and the numbers in words that page
carries: a new level with an ante, a break, its end and the minutes left are said as a room
hears them. Without Node those tests are skipped (the browser tests speak too)."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.test import Client

from tournaments.models import BlindStructure, DisplayScreen, StructureItem
from tournaments.screens.rules import in_words

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")

#: the speaker's script, driven as the page drives it: two states (level 1 → level 2 with an
#: ante), a break, then the warning minutes; what it said is printed, one JSON line
HARNESS = """
const fs = require("fs");
const saved = {}, spoken = [];
global.window = {
  speechSynthesis: { getVoices: () => ["de-DE", "es-ES", "fr-FR", "it-IT", "en-GB"].map((lang) => ({ lang })), speak: (u) => spoken.push(u.text) },
};
global.SpeechSynthesisUtterance = function (text) { this.text = text; };
global.sessionStorage = { getItem: (k) => saved[k] || null, setItem: (k, v) => { saved[k] = v; } };
global.TDM = { num: String };
eval(fs.readFileSync(process.argv[1], "utf8"));
const input = JSON.parse(fs.readFileSync(0, "utf8"));
const on = { on: true, sound: "beep", speak: true, text: "" };
const events = { level: on, break_start: on, break_end: on, minutes_left: on };
const speakers = input.speakers.map((s, i) => window.TDMAnnouncer({ sounds: { warn_minutes: 5, events }, T: s.T, lang: s.lang, spoken: s.spoken, key: "t" + i, second: i > 0 }));
const state = (clock) => ({ tournament: { id: 1, status: "RUNNING" }, players_left: 40, tables_in_play: 5, clock });
// each moment as the page lives it: what the speakers say of it is spoken before the next one
const moment = (f) => { speakers.forEach(f); return new Promise((done) => setTimeout(done, 600)); };
(async () => {
  await moment((a) => a.observe(state({ item_index: 0, level_number: 1, small_blind: 1000, big_blind: 2000, ante: 0, status: "RUNNING" })));
  await moment((a) => a.observe(state({ item_index: 1, level_number: 2, small_blind: 1500, big_blind: 3000, ante: 3000, status: "RUNNING" })));
  await moment((a) => a.observe(state({ item_index: 2, is_break: true, minutes: 20, status: "RUNNING" })));
  await moment((a) => a.observe(state({ item_index: 3, level_number: 3, small_blind: 2000, big_blind: 4000, ante: 4000, status: "RUNNING" })));
  await moment((a) => a.tick(state({ item_index: 3, level_number: 3, small_blind: 2000, big_blind: 4000, ante: 4000, status: "RUNNING" }), 299));
  await moment((a) => a.observe(state({ item_index: 4, level_number: 4, small_blind: 2500, big_blind: 5000, ante: 5000, status: "RUNNING" })));
  const said = JSON.parse(saved["tdm-announced:t0"]).log.map((e) => e.text);
  console.log(JSON.stringify({ said, spoken }));
})();
"""

#: what the room hears: level 2, the break, its end with level 3, five minutes before level 3
#: ends, and level 4, whose blinds the structure does not have (changed since the page loaded)
SAID = {
    "de": [
        "Level zwei: Blinds eintausendfünfhundert und dreitausend, Ante dreitausend",
        "Pause: zwanzig Minuten",
        "Die Pause ist vorbei. Level drei: Blinds zweitausend und viertausend, Ante viertausend",
        "Noch fünf Minuten in diesem Level",
        "Level 4: Blinds 2500 und 5000, Ante 5000",
    ],
    "es": [
        "Nivel dos: ciegas mil quinientos y tres mil, ante tres mil",
        "Descanso: veinte minutos",
        "El descanso ha terminado. Nivel tres: ciegas dos mil y cuatro mil, ante cuatro mil",
        "Quedan cinco minutos de este nivel",
        "Nivel 4: ciegas 2500 y 5000, ante 5000",
    ],
    "fr": [
        "Niveau deux : blindes mille cinq cents et trois mille, ante trois mille",
        "Pause : vingt minutes",
        "La pause est terminée. Niveau trois : blindes deux mille et quatre mille, ante quatre mille",
        "Plus que cinq minutes dans ce niveau",
        "Niveau 4 : blindes 2500 et 5000, ante 5000",
    ],
    "it": [
        "Livello due: bui millecinquecento e tremila, ante tremila",
        "Pausa: venti minuti",
        "La pausa è finita. Livello tre: bui duemila e quattromila, ante quattromila",
        "Mancano cinque minuti alla fine del livello",
        "Livello 4: bui 2500 e 5000, ante 5000",
    ],
}

WORDS = {
    "de": {
        21: "einundzwanzig",
        101: "einhunderteins",
        1000: "eintausend",
        25000: "fünfundzwanzigtausend",
        1000000: "eine Million",
        2500000: "zwei Millionen fünfhunderttausend",
    },
    "es": {
        21: "veintiuno",
        100: "cien",
        101: "ciento uno",
        500: "quinientos",
        21000: "veintiún mil",
        1000000: "un millón",
        2500000: "dos millones quinientos mil",
    },
    "fr": {
        21: "vingt et un",
        71: "soixante et onze",
        80: "quatre-vingts",
        81: "quatre-vingt-un",
        200: "deux cents",
        201: "deux cent un",
        80000: "quatre-vingt mille",
        2000000: "deux millions",
    },
}


def speech(html: str, element: str) -> dict:
    found = re.search(rf'<script id="{element}" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


def run(speakers: list[dict]) -> dict:
    done = subprocess.run(
        [NODE, "-e", HARNESS, str(ROOT / "static" / "announcer.js")],
        input=json.dumps({"speakers": speakers}),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def evening(make_tournament):
    """A tournament whose structure holds what the room hears: level 1 1,000/2,000, level 2
    1,500/3,000 ante 3,000, a break of 20 minutes, level 3 2,000/4,000 ante 4,000."""
    structure = BlindStructure.objects.create(name="Evening")
    items = [("LEVEL", 1000, 2000, 0, 20), ("LEVEL", 1500, 3000, 3000, 20), ("BREAK", 0, 0, 0, 20), ("LEVEL", 2000, 4000, 4000, 20)]
    for position, (kind, small, big, ante, minutes) in enumerate(items):
        StructureItem.objects.create(structure=structure, position=position, kind=kind, small_blind=small, big_blind=big, ante=ante, minutes=minutes)
    return make_tournament(structure=structure)


def screen_of(tournament, code: str, second: str = "") -> DisplayScreen:
    sounds = {"warn_minutes": 5}
    return DisplayScreen.objects.create(
        name="TV " + code, tournament=tournament, token="speaker-" + code, speaker=True, language=code, second_language=second, sounds=sounds
    )


def page(screen) -> tuple[str, dict]:
    html = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/display/{screen.token}/").content.decode()
    return html, speech(html, "display-rotation")


@pytest.mark.skipif(NODE is None, reason="Node.js runs the speaker's script")
@pytest.mark.parametrize("code", ["de", "es", "fr", "it"])
def test_the_speaker_says_whole_sentences_with_numbers_in_words(code, evening):
    html, rotation = page(screen_of(evening, code))
    assert f'<html lang="{code}"' in html
    assert "display-speech-2" not in html  # no second language: one speaker
    assert run([{"T": speech(html, "display-speech"), "lang": code, "spoken": rotation["spoken"][code]}])["said"] == SAID[code]


@pytest.mark.parametrize("code", ["de", "es", "fr"])
def test_the_speakers_numbers_in_words(code):
    assert {n: in_words(n, code) for n in WORDS[code]} == WORDS[code]


def test_a_minute_and_a_break_follow_each_languages_plural(evening):
    screen = screen_of(evening, "fr")
    screen.sounds = {"warn_minutes": 1}
    screen.save()
    spoken = page(screen)[1]["spoken"]["fr"]
    assert spoken["warning"] == "Plus qu'une minute dans ce niveau"
    assert spoken["breaks"] == {"20": "Pause : vingt minutes"}
    assert spoken["numbers"]["1500"] == "mille cinq cents" and spoken["numbers"]["3"] == "trois"


def test_a_screen_without_speaker_carries_no_words(evening):
    screen = screen_of(evening, "de")
    screen.speaker = False
    screen.save()
    assert "spoken" not in page(screen)[1]


@pytest.mark.skipif(NODE is None, reason="Node.js runs the speaker's script")
def test_a_screen_speaks_each_announcement_in_its_two_languages_in_turn(evening):
    screen = screen_of(evening, "de", second="fr")
    html, rotation = page(screen)
    assert '<html lang="de"' in html and rotation["second_language"] == "fr"
    first, second = speech(html, "display-speech"), speech(html, "display-speech-2")
    assert first["sayBreakEndLevel"] != second["sayBreakEndLevel"]  # the same sentences, each in its language
    spoken = run([{"T": first, "lang": "de", "spoken": rotation["spoken"]["de"]}, {"T": second, "lang": "fr", "spoken": rotation["spoken"]["fr"]}])["spoken"]
    assert spoken == [x for pair in zip(SAID["de"], SAID["fr"]) for x in pair]
    screen.second_language = ""
    screen.save()
    assert "display-speech-2" not in page(screen)[0]
