"""FMT-16: the screens (lobby, clock page, phone) name the game of the level being played and the
next level's game only when it changes: a game played on two levels in a row is not announced
again as the next one. The pages' own helper (``TDMFormat.games`` in static/live.js), run as
the pages run it."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
NODE = shutil.which("node")

HARNESS = """
const fs = require("fs");
const names = JSON.stringify({ NLHE: "No-Limit Hold'em", PLO: "Pot-Limit Omaha" });
global.window = {};
global.document = { getElementById: (id) => (id === "game-names" ? { textContent: names } : null) };
eval(fs.readFileSync(process.argv[1], "utf8"));
const clocks = JSON.parse(fs.readFileSync(0, "utf8"));
console.log(JSON.stringify(clocks.map((c) => window.TDMFormat.games(c))));
"""


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_fmt16_a_game_played_on_two_levels_in_a_row_is_not_announced_again_as_next():
    clocks = [
        {"level_number": 1, "game": "NLHE", "next": {"kind": "level", "game": "NLHE"}},  # level 2 plays it again
        {"level_number": 2, "game": "NLHE", "next": {"kind": "level", "game": "PLO"}},
        {"is_break": True, "game": None, "next": {"kind": "level", "game": "PLO"}},
    ]
    out = subprocess.run(
        [NODE, "-e", HARNESS, str(ROOT / "static" / "live.js")], input=json.dumps(clocks), capture_output=True, text=True, timeout=60, check=True
    )
    assert json.loads(out.stdout) == [
        {"now": "No-Limit Hold'em", "next": ""},
        {"now": "No-Limit Hold'em", "next": "Pot-Limit Omaha"},
        {"now": "", "next": "Pot-Limit Omaha"},
    ]
