"""The product stands on its own: what it ships refers to nothing outside the repository, its
docs carry no issue numbers, and every rule id it names has its text and source in the rulebook.

A director checks a ruling from docs/rules.md or from a tournament's public rules page alone:
for each rule id both give what the rule says and where it comes from (the regulation's article
or the TDA rule). A path to a document the product does not ship, or an issue number of the
tracker the product was built with, means nothing to the people who use it.

The forbidden paths are written below in pieces, so that this file, which scans every file the
repository tracks, does not find them in itself.
"""

import re
import subprocess
from functools import cache
from pathlib import Path

import pytest
from django.test import Client
from django.utils.html import escape

ROOT = Path(__file__).resolve().parent.parent
RULEBOOK = ROOT / "docs" / "rules.md"

#: Paths that lead out of the repository: the shared notes the product was built from, and the
#: machine it was built on.
OUTSIDE = ("." + "./" + "shared", "/" + "work" + "/")
#: An issue of a tracker, in any of the ways it was written: "issue #41", "issues 41", "(#41)",
#: "#41/#42". Entry numbers ("Luca R. #12") are the product's own and stay.
ISSUE = re.compile(r"\bissues?\s*#?\s*\d+|\(#\d+\)|#\d+\s*/\s*#\d+", re.IGNORECASE)
#: A rule id as the product writes it: a family and two digits (REG-03, ELM-04), or a TDA
#: recommended procedure (RP-8).
RULE_ID = re.compile(r"\b(?:FMT|REG|SEAT|POS|BAL|CLK|CR|PEN|ELM|PAY|LB|ROLE)-\d\d\b|\bRP-\d+\b")
RULE_SECTIONS = ("Rule ids", "TDA recommended procedures")


@cache
def tracked() -> tuple[Path, ...]:
    """Every file git tracks (the product as shipped), or, without git, every file outside the
    ignored folders."""
    try:
        names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.decode().split("\0")
        return tuple(ROOT / name for name in names if name)
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", ".venv", "var", "staticfiles", "test-artifacts", "__pycache__", ".pytest_cache", ".ruff_cache", ".hypothesis"}
        return tuple(p for p in ROOT.rglob("*") if p.is_file() and not skip & set(p.relative_to(ROOT).parts))


@cache
def text_of(path: Path) -> str | None:
    """A text file's content; None for a binary one (images, compiled catalogues) or one gone."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    return None if b"\0" in data or path.suffix in (".mo", ".png", ".ico", ".pdf", ".woff2") else data.decode("utf-8", "replace")


def texts(paths) -> dict[str, str]:
    return {str(p.relative_to(ROOT)): text for p in paths if (text := text_of(p)) is not None}


def docs_and_templates() -> list[Path]:
    return [p for p in tracked() if p.name == "README.md" or p.parts[-2:-1] == ("docs",) and p.suffix == ".md" or "templates" in p.relative_to(ROOT).parts]


def rulebook() -> dict[str, tuple[str, str]]:
    """``{id: (text, source)}`` from the rulebook's two tables of rules, read here apart from
    the product's reader (tournaments.rulebook)."""
    rows, section = {}, None
    for line in RULEBOOK.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        elif section in RULE_SECTIONS and line.startswith("| ") and not line.startswith("| id |"):
            rule_id, text, source, *_ = (cell.strip() for cell in line.strip().strip("|").split(" | "))
            assert rule_id not in rows, f"{rule_id} has two rows"
            rows[rule_id] = (text, source)
    return rows


def test_the_checks_find_what_they_forbid():
    assert all(p in f"see {p}RULES.md" for p in OUTSIDE)
    assert [bool(ISSUE.search(s)) for s in ("as issue #41 asked", "(#42)", "#41/#42", "Luca R. #12", "entry #31", "&#10;")] == [
        True,
        True,
        True,
        False,
        False,
        False,
    ]
    assert RULE_ID.findall("REG-03, RP-8-A and ELM-04; not REG-3 or AREG-03") == ["REG-03", "RP-8", "ELM-04"]
    assert len(tracked()) > 100 and ROOT / "README.md" in tracked()


def test_no_file_of_the_product_refers_to_a_path_outside_the_repository():
    found = {name: p for name, text in texts(tracked()).items() for p in OUTSIDE if p in text}
    assert found == {}


def test_no_link_in_the_docs_leads_outside_the_repository():
    for name, text in texts(docs_and_templates()).items():
        for target in re.findall(r"\]\(([^)#\s]+)", text):
            if "://" not in target and not target.startswith("mailto:"):
                assert (ROOT / name).parent.joinpath(target).resolve().is_relative_to(ROOT), (name, target)


def test_the_docs_and_templates_carry_no_issue_numbers():
    found = {name: ISSUE.findall(text) for name, text in texts(docs_and_templates() + [p for p in tracked() if "benchmarks" in p.parts]).items()}
    assert {name: refs for name, refs in found.items() if refs} == {}


def test_the_docs_and_templates_name_no_document_the_product_does_not_ship():
    """The notes the product was built from (its rules specification, architecture and style
    notes) are not shipped: the docs cite the rulebook, docs/rules.md, instead."""
    unshipped = re.compile("|".join(re.escape(name + "." + "md") for name in ("RULES", "ARCHITECTURE", "STYLE")) + r"|\bRULES §")
    found = {name: unshipped.findall(text) for name, text in texts(docs_and_templates()).items()}
    assert {name: refs for name, refs in found.items() if refs} == {}


def test_every_rule_id_the_product_names_has_its_text_and_source_in_the_rulebook():
    named = {rule_id for text in texts(tracked()).values() for rule_id in RULE_ID.findall(text)}
    rows = rulebook()
    assert len(named) > 100
    assert sorted(named - set(rows)) == [], "rule ids named in the product without a row in docs/rules.md"
    for rule_id, (text, source) in rows.items():
        assert len(text) > 20 and source, rule_id
        assert "«" not in text, f"{rule_id}: the rule in the product's words, not the source's text pasted"


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "it"])
def test_the_public_rules_page_gives_every_rule_its_text_and_source(make_tournament, language):
    t = make_tournament()
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get(f"/rules/{t.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    for rule_id, (text, source) in rulebook().items():
        row = re.search(rf'<li id="rule-{rule_id}">(.*?)</li>', html, re.S)
        assert row, rule_id
        assert escape(text.replace("`", "")) in row.group(1) and escape(source.replace("`", "")) in row.group(1), rule_id
    if language == "it":
        assert "Le regole e le loro fonti" in html and "I testi delle regole sono in inglese." in html
