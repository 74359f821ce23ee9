"""What the lobby screens show of seating: tables and players left, the first moves, the seat list.

Asked after every change of a running event, so the reads are compiled once and the answer is
the same size whatever the field; the sorted seat list is kept per seats version.
"""

import threading
from collections import OrderedDict
from types import SimpleNamespace

from django.db.models import Count, Exists, OuterRef, Subquery

from tdmanager.compiled import Compiled, rows_together
from tournaments.house import HouseRules
from tournaments.models import ChipCount, Tournament
from tournaments.people.names import HIDDEN, public_names

from ..models import Bust, PendingMove, Seat, SeatingState, Table


def _move_dict(m, name) -> dict:
    return {"player": name, "from_table": m[0], "from_seat": m[1], "to_table": m[2], "to_seat": m[3]}


#: The moves a lobby snapshot lists at most (the first ones made); ``moves_pending`` counts them all.
DISPLAY_MOVES = 30
#: Seats a page of the lobby screens' seat lookup carries unless asked for fewer (at most 200).
SEAT_PAGE_SIZE = 48
SEAT_PAGE_MAX = 200


# The state's seats version (compiled once, as the lobby's other reads below).
_SEATS_SEQ = Compiled(lambda pk: SeatingState.objects.filter(tournament_id=pk).order_by().values_list("seats_seq")[:1], SeatingState)


def seats_version(tournament) -> int:
    """A number that changes only when somebody was seated, moved or unseated (the state's
    ``seats_seq``; 0 before the first draw): lobby screens fetch seat pages again only then."""
    return _first_or_zero(_SEATS_SEQ.rows(int(getattr(tournament, "pk", tournament))))


def _first_or_zero(rows) -> int:
    """The first column of a compiled read's one row; 0 when there is no row (or it is NULL)."""
    return (rows[0][0] if rows else None) or 0


# What the lobby's snapshot reads about seating after every change of a running event, compiled
# once (building these queries cost Django more than running them): the tables in play (one
# row: their count; none when no table is), the first moves to make (and those waiting, below).
_TABLES_IN_PLAY = Compiled(
    lambda pk: (
        Table.objects.filter(tournament_id=pk, in_play=True)
        .filter(Exists(Seat.objects.filter(table=OuterRef("pk"))))
        .order_by()
        .values("tournament_id")
        .annotate(n=Count("pk"))
        .values_list("n")
    ),
    Table,
)
_FIRST_MOVES = Compiled(
    lambda pk: (
        PendingMove.objects.filter(tournament_id=pk, status=PendingMove.PROPOSED)
        .order_by("id")
        .values_list(
            "entry__person__first_name",
            "entry__person__last_name",
            "from_table",
            "from_seat",
            "to_table",
            "to_seat",
            "entry__person__nickname",
            "entry__person__hide_from_lookup",
            "entry__number",
        )[:DISPLAY_MOVES]
    ),
    PendingMove,
)


# CLK-06: the balancing moves waiting for a table's hand-for-hand hand (their tables: who moves
# is chosen once the hand is over there).
_WAITING_MOVES = Compiled(
    lambda pk: PendingMove.objects.filter(tournament_id=pk, status=PendingMove.WAITING).order_by("id").values_list("from_table", "to_table")[:DISPLAY_MOVES],
    PendingMove,
)


#: What a public list names a player by (``public_names``' rows), read beside a row's own fields.
_PUBLIC_NAME = ("entry__person__first_name", "entry__person__last_name", "entry__person__nickname", "entry__person__hide_from_lookup", "entry__number")

#: The busts a lobby snapshot carries (the latest first): a stream's overlay shows each as a
#: lower third, one after the other when several come together.
LAST_BUSTS = 3
_LAST_BUSTS = Compiled(
    lambda pk: (
        Bust.objects.filter(tournament_id=pk, void="")
        .order_by("-order")
        .values_list(
            *_PUBLIC_NAME,
            "id",
            "place",
            "busted_at",
        )[:LAST_BUSTS]
    ),
    Bust,
)


#: The final table a stream's overlay draws: each seat, its player, his chips as last counted on
#: the floor tools (None before a count: no stack is guessed on a stream); read only while one
#: table is in play.
_FINAL_TABLE = Compiled(
    lambda pk: (
        Seat.objects.filter(tournament_id=pk, table__in_play=True)
        .order_by("number")
        .annotate(counted=Subquery(ChipCount.objects.filter(entry_id=OuterRef("entry_id")).order_by("-counted_at", "-id").values("chips")[:1]))
        .values_list(
            *_PUBLIC_NAME,
            "number",
            "counted",
        )
    ),
    Seat,
)


def _style_of(pk: int) -> str:
    """The house's public name style of a tournament known by its key (one small read)."""
    return HouseRules.of(Tournament.objects.only("settings", "rule_set", "table_size", "game").get(pk=pk)).seat_lookup_names


def display_summary(tournament) -> dict:
    """What lobby screens show about seating, the same size whatever the field: how many tables
    are in play, the seats version (the seat lookup itself is paged: ``seat_page``) and the
    moves still to be made (the first ``DISPLAY_MOVES``, ``moves_pending`` counting them all);
    during hand-for-hand, the balancing moves waiting for a table's hand (``moves_waiting``: their
    tables, the player chosen once the hand is over there). Five small queries (one round trip
    on PostgreSQL); none reads the field row by row."""
    pk = int(getattr(tournament, "pk", tournament))
    tables, rows, version, waiting, busts = rows_together(
        (_TABLES_IN_PLAY, (pk,)), (_FIRST_MOVES, (pk,)), (_SEATS_SEQ, (pk,)), (_WAITING_MOVES, (pk,)), (_LAST_BUSTS, (pk,))
    )
    style = HouseRules.of(tournament).seat_lookup_names if hasattr(tournament, "settings") else _style_of(pk)
    names = public_names(((m[0], m[1], m[6], m[7], m[8]) for m in rows), style)
    moves = [_move_dict(m[2:6], name) for m, name in zip(rows, names, strict=True)]
    if len(moves) < DISPLAY_MOVES:
        pending = len(moves)
    else:
        pending = PendingMove.objects.filter(tournament_id=pk, status=PendingMove.PROPOSED).count()
    in_play = _first_or_zero(tables)
    final = _FINAL_TABLE.rows(pk) if in_play == 1 else []
    return {
        "tables_in_play": in_play,
        # one table left: its seats and chips as counted (a stream's final-table block)
        "final_table": [{"seat": f[5], "player": name, "chips": f[6]} for f, name in zip(final, public_names((f[:5] for f in final), style), strict=True)],
        "seats_version": _first_or_zero(version),
        "moves": moves,
        "moves_pending": pending,
        "moves_waiting": [{"from_table": a, "to_table": b} for a, b in waiting],
        # the latest busts, as every public list names players (a stream's lower third)
        "last_busts": [
            {"id": b[5], "player": name, "place": b[6], "at": b[7].isoformat()}
            for b, name in zip(busts, public_names((b[:5] for b in busts), style), strict=True)
        ],
    }


# The sorted seat list of the tournaments asked for last, by seats version: a lobby screen's page
# is a slice of it, so the field is read and sorted once per version per process, not per page.
_SEAT_LISTS: OrderedDict[int, tuple] = OrderedDict()  # tournament → (version, its creation time, name style, seats)
_SEAT_LISTS_KEPT = 8
_SEAT_LIST_BUILDS: dict[int, threading.Lock] = {}
_seat_lists_lock = threading.Lock()


def seat_list(tournament) -> tuple[int, list[tuple[str, int, int]]]:
    """``(seats version, every seated player as (name, table, seat))``, sorted by name like
    the screens show them (equal names by table and seat).

    The version is read first, so the list is never older than its version (a change committed
    in between shows now and is read again with the next version). One thread of a process
    builds a version; the others asking for it meanwhile wait for that list."""
    pk = getattr(tournament, "pk", tournament)
    # The version with the tournament's creation time: a key a test database gives again after
    # a rollback never finds another tournament's list. The house's name style, read in the same
    # query, is part of the key: a director who changes it sees the screens follow at once.
    version, born, stored, table_size, rule_set = SeatingState.objects.filter(tournament_id=pk).values_list(
        "seats_seq", "tournament__created_at", "tournament__settings", "tournament__table_size", "tournament__rule_set"
    ).first() or (0, None, {}, 9, "TDA")
    style = HouseRules.of(SimpleNamespace(settings=stored, table_size=table_size, rule_set=rule_set)).seat_lookup_names
    key = (version, born, style)
    kept = _SEAT_LISTS.get(pk)
    if kept is not None and kept[:3] == key:
        return version, kept[3]
    with _seat_lists_lock:
        building = _SEAT_LIST_BUILDS.setdefault(pk, threading.Lock())
    with building:
        kept = _SEAT_LISTS.get(pk)
        if kept is not None and kept[:3] == key:
            return version, kept[3]  # built by another thread meanwhile
        # Names as public pages show them; not a player who asked not to be found by name.
        rows = list(
            Seat.objects.filter(tournament_id=pk).values_list(
                "entry__person__first_name",
                "entry__person__last_name",
                "entry__person__nickname",
                "entry__person__hide_from_lookup",
                "entry__number",
                "table__number",
                "number",
            )
        )
        names = public_names((row[:5] for row in rows), style)
        seats = sorted(((name, row[5], row[6]) for name, row in zip(names, rows, strict=True) if name != HIDDEN), key=lambda s: (s[0].lower(), s[1], s[2]))
        with _seat_lists_lock:
            _SEAT_LISTS[pk] = (*key, seats)
            _SEAT_LISTS.move_to_end(pk)
            while len(_SEAT_LISTS) > _SEAT_LISTS_KEPT:
                _SEAT_LIST_BUILDS.pop(_SEAT_LISTS.popitem(last=False)[0], None)
    return version, seats


def forget_seat_lists():
    """Drop every kept seat list (and its build lock: a build under way still stores its list)."""
    with _seat_lists_lock:
        _SEAT_LISTS.clear()
        _SEAT_LIST_BUILDS.clear()


def seat_page(tournament, page: int = 1, size: int = SEAT_PAGE_SIZE) -> dict:
    """One page (1 first) of the lobby screens' rotating seat lookup: ``{"seats_version",
    "page", "pages", "size", "total", "seats": [{"name", "table", "seat"}]}``; a page past the
    end is empty (the screen starts again at page 1)."""
    size = max(1, min(int(size), SEAT_PAGE_MAX))
    page = max(1, int(page))
    version, seats = seat_list(tournament)
    return {
        "seats_version": version,
        "page": page,
        "pages": max(1, -(-len(seats) // size)),
        "size": size,
        "total": len(seats),
        "seats": [{"name": name, "table": table, "seat": seat} for name, table, seat in seats[(page - 1) * size : page * size]],
    }
