"""The lobby speaker in German, Spanish and French: whole sentences in the screen's language,
the numbers in words as each language says them.

The screen's page is rendered with its language (``DisplayScreen.language``), and its own script
(``static/announcer.js``) is run by Node with the sentences that page carries: a new level with
an ante, a break and the minutes left are said as a room hears them. Without Node the test is
skipped (the browser tests speak too)."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.test import Client

from tournaments.models import DisplayScreen

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
const events = { level: on, break_start: on, minutes_left: on };
const speakers = input.speakers.map((s, i) => window.TDMAnnouncer({ sounds: { warn_minutes: 5, events }, T: s.T, lang: s.lang, key: "t" + i, second: i > 0 }));
const state = (clock) => ({ tournament: { id: 1, status: "RUNNING" }, players_left: 40, tables_in_play: 5, clock });
// each moment as the page lives it: what the speakers say of it is spoken before the next one
const moment = (f) => { speakers.forEach(f); return new Promise((done) => setTimeout(done, 600)); };
(async () => {
  await moment((a) => a.observe(state({ item_index: 0, level_number: 1, small_blind: 1000, big_blind: 2000, ante: 0, status: "RUNNING" })));
  await moment((a) => a.observe(state({ item_index: 1, level_number: 2, small_blind: 1500, big_blind: 3000, ante: 3000, status: "RUNNING" })));
  await moment((a) => a.observe(state({ item_index: 2, is_break: true, minutes: 20, status: "RUNNING" })));
  await moment((a) => a.tick(state({ item_index: 3, level_number: 3, small_blind: 2000, big_blind: 4000, status: "RUNNING" }), 299));
  const said = JSON.parse(saved["tdm-announced:t0"]).log.map((e) => e.text);
  const words = Object.fromEntries(input.numbers.map((n) => [n, speakers[0].words(n)]));
  console.log(JSON.stringify({ said, words, spoken }));
})();
"""

SAID = {
    "de": [
        "Level zwei: Blinds eintausendfünfhundert und dreitausend, Ante dreitausend",
        "Pause: zwanzig Minuten",
        "Noch fünf Minuten in diesem Level",
    ],
    "es": ["Nivel dos: ciegas mil quinientos y tres mil, ante tres mil", "Descanso: veinte minutos", "Quedan cinco minutos de este nivel"],
    "fr": [
        "Niveau deux : blindes mille cinq cents et trois mille, ante trois mille",
        "Pause : vingt minutes",
        "Plus que cinq minutes dans ce niveau",
    ],
    "it": ["Livello due: bui millecinquecento e tremila, ante tremila", "Pausa: venti minuti", None],
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


def run(speakers: list[dict], numbers=()) -> dict:
    done = subprocess.run(
        [NODE, "-e", HARNESS, str(ROOT / "static" / "announcer.js")],
        input=json.dumps({"speakers": speakers, "numbers": list(numbers)}),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def speaker(code: str, tournament, numbers=()) -> dict:
    screen = DisplayScreen.objects.create(name="TV " + code, tournament=tournament, token="speaker-" + code, speaker=True, language=code)
    html = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/display/{screen.token}/").content.decode()
    assert f'<html lang="{code}"' in html
    assert "display-speech-2" not in html  # no second language: one speaker
    return run([{"T": speech(html, "display-speech"), "lang": code}], numbers)


@pytest.mark.skipif(NODE is None, reason="Node.js runs the speaker's script")
@pytest.mark.parametrize("code", ["de", "es", "fr", "it"])
def test_the_speaker_says_whole_sentences_with_numbers_in_words(code, make_tournament):
    said = speaker(code, make_tournament())["said"]
    assert said[:2] == SAID[code][:2]
    if SAID[code][2]:
        assert said[2] == SAID[code][2]


@pytest.mark.skipif(NODE is None, reason="Node.js runs the speaker's script")
@pytest.mark.parametrize("code", ["de", "es", "fr"])
def test_the_speakers_numbers_in_words(code, make_tournament):
    words = speaker(code, make_tournament(), WORDS[code])["words"]
    assert {int(n): w for n, w in words.items()} == WORDS[code]


@pytest.mark.skipif(NODE is None, reason="Node.js runs the speaker's script")
def test_a_screen_speaks_each_announcement_in_its_two_languages_in_turn(make_tournament):
    screen = DisplayScreen.objects.create(name="Rozvadov", tournament=make_tournament(), token="two", speaker=True, language="de", second_language="fr")
    html = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/display/{screen.token}/").content.decode()
    assert '<html lang="de"' in html and '"second_language": "fr"' in html
    first, second = speech(html, "display-speech"), speech(html, "display-speech-2")
    assert first["sayBreakEnd"] != second["sayBreakEnd"]  # the same sentences, each in its language
    spoken = run([{"T": first, "lang": "de"}, {"T": second, "lang": "fr"}])["spoken"]
    assert spoken == [SAID["de"][0], SAID["fr"][0], SAID["de"][1], SAID["fr"][1], SAID["de"][2], SAID["fr"][2]]
    screen.second_language = ""
    screen.save()
    assert "display-speech-2" not in Client().get(f"/display/{screen.token}/").content.decode()
