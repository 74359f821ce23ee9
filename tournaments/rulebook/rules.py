"""The rulebook as the product shows it: each rule id with what the rule says and its source.

docs/rules.md is the one place a rule's wording and source are written: the docs and each
tournament's public rules page show the same words, because this module reads them from its
"Rule ids" and "TDA recommended procedures" tables (once per process). The texts are English;
the page says so and marks them ``lang="en"``.
"""

from dataclasses import dataclass
from functools import cache
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
SECTIONS = ("Rule ids", "TDA recommended procedures")


@dataclass(frozen=True)
class Rule:
    id: str
    text: str
    source: str


@cache
def rules() -> tuple[Rule, ...]:
    """Every rule of the rulebook, in the page's order: its id, its text and its source."""
    out, section = [], None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        elif section in SECTIONS and line.startswith("| ") and not line.startswith("| id |"):
            cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
            out.append(Rule(cells[0], plain(cells[1]), plain(cells[2])))
    return tuple(out)


def plain(cell: str) -> str:
    """A table cell as text: the page's code marks (`…`) taken off; the template escapes the rest."""
    return cell.replace("`", "")
