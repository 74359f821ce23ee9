"""The public seat lookup: seats while the tournament runs, finishing places once it has ended.

Open to anyone, so a query needs a few letters, the answer is bounded, and names are shown as
the house shows names in public.
"""

from django.db.models import Q

from tournaments.house import HouseRules
from tournaments.live.snapshot import results as top_places
from tournaments.models import Entry, Tournament
from tournaments.people.names import public_name, public_names

from ..models import PendingMove, Seat

#: The seat lookup answers a name of at least this many letters (spaces aside) ...
LOOKUP_MIN_LETTERS = 3
#: ... and at most this many players: a query that fits more is asked to say more (no roster).
LOOKUP_MAX_RESULTS = 8


def lookup_query_ok(query: str) -> bool:
    """A query the public seat lookup answers: at least ``LOOKUP_MIN_LETTERS`` letters."""
    return sum(ch.isalpha() for ch in query) >= LOOKUP_MIN_LETTERS


def _name_starts(prefix: str, query: str) -> Q:
    """Every word typed begins the first name, the last name or the nickname (no substring:
    the lookup answers the name a player types, not every name that holds two letters)."""
    q = Q()
    for word in query.split()[:4]:
        q &= Q(**{f"{prefix}first_name__istartswith": word}) | Q(**{f"{prefix}last_name__istartswith": word}) | Q(**{f"{prefix}nickname__istartswith": word})
    return q & Q(**{f"{prefix}hide_from_lookup": False})


def shown_name(first: str, last: str, nickname: str, style: str) -> str:
    """A player's name as the house shows it in public (``tournaments.people.names``)."""
    return public_name(first, last, nickname, style)


def find_places(tournament, query: str, limit: int = LOOKUP_MAX_RESULTS) -> list[dict] | None:
    """Public lookup after the end: finishing places of the players whose name begins with the
    words typed (None: more than ``limit`` do)."""
    style = HouseRules.of(tournament).seat_lookup_names
    qs = Entry.objects.filter(_name_starts("person__", query), tournament=tournament, place__isnull=False).exclude(status=Entry.CANCELLED)
    rows = list(qs.order_by("place", "number").values_list("person__first_name", "person__last_name", "person__nickname", "place", "number")[: limit + 1])
    if len(rows) > limit:
        return None
    names = public_names(((first, last, nick, False, number) for first, last, nick, _place, number in rows), style)
    return [{"name": name, "place": row[3]} for name, row in zip(names, rows, strict=True)]


def lookup(tournament, query: str) -> dict:
    """The public seat lookup's answer: seats while the tournament runs, finishing places once it
    is over (with the top of the ranking), nothing before the draw. Only a name of at least
    ``LOOKUP_MIN_LETTERS`` letters is answered, only with the players whose name begins with
    what was typed, at most ``LOOKUP_MAX_RESULTS`` of them (``"more": true``: type more), never a
    player who opted out, each name as the house shows it (``seat_lookup_names``)."""
    t = tournament
    query = query.strip()
    state = {Tournament.RUNNING: "running", Tournament.FINISHED: "finished", Tournament.CANCELLED: "cancelled"}.get(t.status, "waiting")
    out = {
        "tournament": {"id": t.pk, "name": t.name, "status": t.status},
        "state": state,
        "q": query,
        "results": [],
        "standings": [],
        "more": False,
        "min_letters": LOOKUP_MIN_LETTERS,
    }
    found = None
    if state == "running" and lookup_query_ok(query):
        found = find_seats(t, query)
    elif state == "finished":
        out["standings"] = public_standings(t)
        if lookup_query_ok(query):
            found = find_places(t, query)
    if found is None and lookup_query_ok(query) and state in ("running", "finished"):
        out["more"] = True
    elif found:
        out["results"] = found
    return out


def public_standings(tournament) -> list[dict]:
    """The final standings as the public lookup shows them: names as the house shows names in
    public, "—" for a player who opted out of the lookup."""
    style = HouseRules.of(tournament).seat_lookup_names
    top = top_places(tournament)
    people = {
        pk: (first, last, nick, hidden, number)
        for pk, first, last, nick, hidden, number in Entry.objects.filter(pk__in=[r["entry"] for r in top]).values_list(
            "pk", "person__first_name", "person__last_name", "person__nickname", "person__hide_from_lookup", "number"
        )
    }
    names = public_names((people.get(r["entry"], ("", "", "", True, None)) for r in top), style)
    return [{"place": r["place"], "name": name} for r, name in zip(top, names, strict=True)]


def find_seats(tournament, query: str, limit: int = LOOKUP_MAX_RESULTS) -> list[dict] | None:
    """Public seat lookup: seated players whose name begins with the words typed (not one who
    opted out), shown as the house shows names, with a move still to make when there is one;
    None when more than ``limit`` match (the player types more)."""
    style = HouseRules.of(tournament).seat_lookup_names
    qs = Seat.objects.filter(_name_starts("entry__person__", query), tournament=tournament)
    rows = list(
        qs.order_by("entry__person__last_name", "entry__person__first_name").values_list(
            "entry_id", "entry__person__first_name", "entry__person__last_name", "entry__person__nickname", "table__number", "number", "entry__number"
        )[: limit + 1]
    )
    if len(rows) > limit:
        return None
    moves = {
        m[0]: m[1:]
        for m in PendingMove.objects.filter(tournament=tournament, status=PendingMove.PROPOSED, applied=False, entry_id__in=[r[0] for r in rows]).values_list(
            "entry_id", "to_table", "to_seat"
        )
    }
    names = public_names(((first, last, nick, False, number) for _e, first, last, nick, _t, _s, number in rows), style)
    return [
        {
            "name": name,
            "table": table,
            "seat": seat,
            "move_to": {"table": moves[e][0], "seat": moves[e][1]} if e in moves else None,
        }
        for name, (e, _first, _last, _nick, table, seat, _number) in zip(names, rows, strict=True)
    ]
