"""The pages' scripts share one way to talk to the server and one number formatter: the CSRF
cookie is read, fetch() is called and an api() wrapper is written only in static/tdm.js; only the
TDMLive module (static/live.js) opens an EventSource; numbers and money are formatted only by
TDM.num / TDM.money. A page that copies a helper instead drifts from the others (its own error
handling, its own idempotency, its own number format)."""

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parent.parent / "static"
#: service workers run outside any page (no document, no tdm.js): their fetch() is the cache's
#: way to the network, for every request a page makes, not a page talking to the API
WORKERS = {"floor-sw.js", "phone_sw.js"}
SCRIPTS = sorted(p for p in STATIC.glob("*.js") if p.name != "apidocs-redoc.js" and p.name not in WORKERS)  # and the vendored API viewer's loader


def _where(pattern: str) -> set[str]:
    found = set()
    for path in SCRIPTS:
        code = "\n".join(line for line in path.read_text().splitlines() if not line.lstrip().startswith("//"))
        if re.search(pattern, code):
            found.add(path.name)
    return found


def test_the_scripts_are_found():
    assert {"tdm.js", "live.js", "desk.js", "seating.js", "display.js"} <= {p.name for p in SCRIPTS}


@pytest.mark.parametrize(
    ("what", "pattern", "home"),
    [
        ("the CSRF cookie", r"csrftoken", {"tdm.js"}),
        ("fetch()", r"\bfetch\s*\(", {"tdm.js"}),
        ("an api() wrapper", r"function\s+api\s*\(", {"tdm.js"}),
        ("an EventSource", r"new\s+EventSource\b", {"live.js"}),
        ("a number formatter", r"Intl\.NumberFormat", {"tdm.js"}),
        ("the twin formatters", r"TDMFormat\.(num|money)\b|\bF\.(num|money)\b", set()),
    ],
)
def test_each_helper_lives_in_one_file(what, pattern, home):
    assert _where(pattern) == home, f"{what} outside {sorted(home) or 'any file'}"


def test_every_page_that_streams_its_tournament_loads_tdmlive_after_tdm_js():
    templates = Path(__file__).resolve().parent.parent / "templates"
    live_users = {name for name in _where(r"TDMLive\s*\(") if name != "live.js"}
    assert {"display.js", "clock.js", "phone.js", "seating.js"} <= live_users
    pages = 0
    for page in templates.rglob("*.html"):
        text = page.read_text()
        used = [name for name in live_users if f"'{name}'" in text]
        if not used:
            continue
        pages += 1
        where_tdm = text.find("'tdm.js'") if "'tdm.js'" in text else (0 if "{% extends" in text and "base.html" in text else -1)
        assert 0 <= where_tdm < text.index("'live.js'") < min(text.index(f"'{n}'") for n in used), page.name
    assert pages >= 4
