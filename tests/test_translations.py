"""Every language the product offers covers every string a user can see.

For each language of ``settings.LANGUAGES`` but English (the source):

- Every message of every catalogue under ``locale/<code>`` (``django.po``, and ``djangojs.po`` if
  one appears) has a translation, none is fuzzy (a makemessages guess nobody checked), plurals
  included; ``msgfmt --check --statistics`` says the same.
- The catalogue is up to date with the sources: ``makemessages`` runs on a copy of the project
  (the repository's own ``locale`` is never touched) and must find nothing new to translate.
  After adding strings: ``manage.py makemessages -l it -l de -l es -l fr --no-obsolete -i "tests/*"
  -i "benchmarks/*" -i "var/*" -i "test-artifacts/*"``, translate, then
  ``manage.py compilemessages -i .venv``.
- The compiled ``.mo`` answers every message as the ``.po`` says (it was compiled after the last edit).
- No English message assumes a player is a man ("he", "his", "him").

The two checks that run GNU gettext's tools (``./tdm test`` installs them where it may) skip on a
machine without them, and fail under CI (the environment variable ``CI`` set, as ``.ci/run`` and
CI services set it): there a missing tool must not pass for a checked catalogue.
"""

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != "en"]


def locale(code: str) -> Path:
    return ROOT / "locale" / code / "LC_MESSAGES"


def _unquote(line: str) -> str:
    return ast.literal_eval(line.strip())


def parse_po(path: Path) -> list[dict]:
    """The live (non-obsolete) messages of a .po file, one per blank-line separated block:
    msgctxt, msgid, msgid_plural, msgstr (index → text) and flags."""
    entries = []
    for block in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
        e, field = {"flags": set(), "msgstr": {}}, None
        for line in (raw.strip() for raw in block.splitlines()):
            if line.startswith("#,"):
                e["flags"] |= {f.strip() for f in line[2:].split(",")}
            elif line.startswith("#") or not line:
                continue  # comments, references, obsolete (#~) messages
            elif m := re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*")$', line):
                key, text = m.group(1), _unquote(m.group(3))
                field = ("msgstr", int(m.group(2) or 0)) if key.startswith("msgstr") else key
                if isinstance(field, tuple):
                    e["msgstr"][field[1]] = text
                else:
                    e[field] = text
            elif line.startswith('"') and field is not None:
                if isinstance(field, tuple):
                    e["msgstr"][field[1]] += _unquote(line)
                else:
                    e[field] += _unquote(line)
        if e.get("msgid"):  # not the header, not an obsolete-only block
            entries.append(e)
    return entries


def problems(entries) -> list[str]:
    out = []
    for e in entries:
        where = e["msgid"][:80]
        if "fuzzy" in e["flags"]:
            out.append(f"fuzzy: {where}")
        elif not e["msgstr"] or any(not s for s in e["msgstr"].values()):
            out.append(f"untranslated: {where}")
        elif e.get("msgid_plural") is not None and len(e["msgstr"]) < 2:
            out.append(f"plural forms missing: {where}")
    return out


def catalogues():
    return sorted(po for code in TRANSLATED for po in locale(code).glob("*.po"))


def test_every_offered_language_has_its_catalogue():
    assert {"it", "de", "es", "fr"} <= set(TRANSLATED)
    assert [code for code in TRANSLATED if not (locale(code) / "django.po").is_file()] == []


def test_the_parser_reads_what_msgfmt_would():
    sample = ROOT / "var" / "test-parser.po"
    sample.parent.mkdir(exist_ok=True)
    sample.write_text(
        'msgid ""\nmsgstr ""\n"Language: it\\n"\n\n#: a.py:1\nmsgid "One"\nmsgstr "Uno"\n\n#, fuzzy\nmsgid "Two"\nmsgstr "Due?"\n\n'
        'msgid "%(n)s table"\nmsgid_plural "%(n)s tables"\nmsgstr[0] "%(n)s tavolo"\nmsgstr[1] ""\n\nmsgid ""\n"Long "\n"text"\nmsgstr ""\n\n'
        '#~ msgid "Old"\n#~ msgstr ""\n',
        encoding="utf-8",
    )
    try:
        entries = parse_po(sample)
    finally:
        sample.unlink()
    assert [e["msgid"] for e in entries] == ["One", "Two", "%(n)s table", "Long text"]
    assert problems(entries) == ["fuzzy: Two", "untranslated: %(n)s table", "untranslated: Long text"]


@pytest.mark.parametrize("po", catalogues(), ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_message_is_translated_and_none_is_fuzzy(po):
    assert problems(parse_po(po)) == []


def need(tool: str) -> None:
    """Skip without GNU gettext's ``tool``, on a developer's machine; fail under CI."""
    if shutil.which(tool):
        return
    if os.environ.get("CI"):
        pytest.fail(f"GNU gettext's {tool} is not installed: the catalogues go unchecked (./tdm test installs gettext as root)")
    pytest.skip("GNU gettext is not installed")


def test_a_missing_gettext_fails_under_ci_and_skips_elsewhere(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no msgfmt on it
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match="msgfmt is not installed"):
        need("msgfmt")
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception):
        need("msgfmt")


@pytest.mark.parametrize("po", catalogues(), ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_msgfmt_finds_no_untranslated_and_no_fuzzy_message(po):
    need("msgfmt")
    done = subprocess.run(["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(po)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    summary = done.stderr.strip().splitlines()[-1]
    assert re.fullmatch(r"\d+ translated messages\.", summary), summary


def test_the_catalogue_is_up_to_date_with_the_sources(tmp_path):
    """makemessages on a copy of the sources finds no message the catalogue lacks."""
    need("xgettext")
    copy = tmp_path / "project"
    skip = shutil.ignore_patterns(".venv", ".git", "var", "test-artifacts", "tests", "benchmarks", "__pycache__", "node_modules", "*.mo")
    copy.mkdir()
    for item in ROOT.iterdir():
        if item.name in (".venv", ".git", "var", "test-artifacts", "tests", "benchmarks", "__pycache__"):
            continue
        if item.is_dir():
            shutil.copytree(item, copy / item.name, ignore=skip)
        else:
            shutil.copy2(item, copy / item.name)
    languages = [arg for code in TRANSLATED for arg in ("-l", code)]
    done = subprocess.run(
        [sys.executable, "manage.py", "makemessages", *languages, "--no-obsolete", "-v", "0"], cwd=copy, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    for code in TRANSLATED:
        merged = parse_po(copy / "locale" / code / "LC_MESSAGES" / "django.po")
        assert problems(merged) == [], f"locale/{code}: run makemessages and translate the new strings (see this module's docstring)"
        repo_ids = {(e.get("msgctxt"), e["msgid"]) for e in parse_po(locale(code) / "django.po")}
        new = sorted(m for _, m in {(e.get("msgctxt"), e["msgid"]) for e in merged} - repo_ids)
        assert new == [], f"strings in the sources missing from locale/{code}: " + "; ".join(new[:20])


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_compiled_catalogue_answers_every_message(code):
    stale = []
    with translation.override(code):
        for e in parse_po(locale(code) / "django.po"):
            if e.get("msgctxt") or e.get("msgid_plural") is not None or not e["msgstr"].get(0) or "fuzzy" in e["flags"]:
                continue
            if translation.gettext(e["msgid"]) != e["msgstr"][0]:
                stale.append(e["msgid"][:60])
    assert stale == [], f"compilemessages -l {code} (the .mo is older than the .po): " + "; ".join(stale[:10])


def test_no_english_message_assumes_a_player_is_a_man():
    he = re.compile(r"\b(he|his|him|himself)\b", re.IGNORECASE)
    found = [e["msgid"] for e in parse_po(locale("it") / "django.po") if he.search(e["msgid"]) or he.search(e.get("msgid_plural") or "")]
    assert found == []
