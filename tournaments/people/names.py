"""The one way public pages name a player: the lobby screens (their results,
bounty list, league and seat ticker), the seat lookup and the phone pages.

The house chooses the style (``HouseRules.seat_lookup_names``): first name and initial ("Mario
R.", the default), the full name, or the nickname. A player who asked not to be found by name is
"—"; an erased person keeps the pseudonym ("Erased player #12", in the active language). Two players of the same
list who would read the same get their entry number ("Luca R. #12", "Luca R. #31"); on a list
whose line is a person, not an entry (a league's leaderboard), their rank there. Pure: the
builders (snapshots, lookup answers) call it once per list, never per viewer.
"""

from collections import Counter

from tournaments.models import ERASED_FIRST_NAME, shown_name

HIDDEN = "—"


def public_name(first: str, last: str, nickname: str = "", style: str = "INITIAL", hidden: bool = False) -> str:
    """A player's name as public pages show it."""
    first, last, nickname = (first or "").strip(), (last or "").strip(), (nickname or "").strip()
    if first == ERASED_FIRST_NAME and last.startswith("#"):
        return shown_name(f"{first} {last}")  # a pseudonym (in the reader's language): no personal data left to hide
    if hidden:
        return HIDDEN
    if style == "FULL":
        return f"{first} {last}".strip() or nickname
    if style == "NICKNAME" and nickname:
        return nickname
    initial = f"{last[:1]}." if last else ""
    return f"{first} {initial}".strip() or nickname


def public_names(rows, style: str = "INITIAL") -> list[str]:
    """The names of one public list, in its order: ``rows`` of ``(first, last, nickname, hidden,
    entry number)``; names the list would show twice carry the entry number."""
    rows = list(rows)
    names = [public_name(first, last, nick, style, hidden) for first, last, nick, hidden, _number in rows]
    twice = {name for name, n in Counter(names).items() if n > 1 and name != HIDDEN}
    return [f"{name} #{row[4]}" if name in twice and row[4] is not None else name for name, row in zip(names, rows, strict=True)]


def ranked_public_names(rows, style: str = "INITIAL") -> list[str]:
    """The names of a ranked public list whose line is a person (a league's leaderboard), in its
    order: ``rows`` of ``(first, last, nickname, hidden, rank)``. A person has no entry number
    there, so names the list would show twice carry the rank the line shows ("Luca B. #2",
    "Luca B. #3"); never the full name, which would say who they are. Where two of them share a
    rank too, the rank would not tell them apart: that name carries each line's position."""
    rows = list(rows)
    names = [public_name(first, last, nick, style, hidden) for first, last, nick, hidden, _rank in rows]
    ranks: dict[str, list] = {}
    for name, row in zip(names, rows, strict=True):
        ranks.setdefault(name, []).append(row[4])
    tied = {name for name, seen in ranks.items() if len(set(seen)) < len(seen)}
    tags = [position if name in tied else row[4] for position, (name, row) in enumerate(zip(names, rows, strict=True), start=1)]
    return public_names(((*row[:4], tag) for row, tag in zip(rows, tags, strict=True)), style)
