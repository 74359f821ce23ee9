"""Read-only seating lookups: seats, the table map, move slips, standings, the draw history.

Used by the receipts and the desk (``seat_of``), the lobby displays (``display_summary``, ``seat_page``),
the clock's hand-for-hand reporting (``table_numbers``), the tournament page
(``tournament_links``), the floor tools (``players_at_table``) and seating's own pages and
API. They read the database (never the services' in-memory room).
"""

import threading
from collections import OrderedDict
from types import SimpleNamespace

from django.db.models import Count, Exists, OuterRef, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager.compiled import Compiled, rows_together
from tdmanager.errors import DomainError
from tournaments.actions import Action
from tournaments.house import HouseRules
from tournaments.models import ChipCount, Entry, Tournament, TournamentEvent
from tournaments.public_names import HIDDEN, public_name, public_names
from tournaments.selectors import active_penalties, penalty_progress
from tournaments.signals import ask, ask_one
from tournaments.snapshot import results as top_places

from .. import engine, labels, replay, signals
from ..models import (
    ENDED_EVENTS,
    Bust,
    CardRoom,
    DealerAssignment,
    KeepApart,
    ManualDraw,
    PendingMove,
    PreDrawSeat,
    RoomTable,
    Seat,
    SeatingState,
    SeatReservation,
    Table,
)

# Every sale's answer asks it (the entry's seat): compiled once (tdmanager.compiled).
_SEAT_OF = Compiled(lambda pk: Seat.objects.filter(pk=pk).order_by().values_list("table__number", "number")[:1], Seat)


def seat_of(entry):
    """``{"table": n, "seat": s}`` for a seated entry, else None."""
    if entry is None or getattr(entry, "pk", None) is None:
        return None
    rows = _SEAT_OF.rows(int(entry.pk))
    return {"table": rows[0][0], "seat": rows[0][1]} if rows else None


def players_at_table(tournament, table_number: int) -> int:
    return Seat.objects.filter(tournament=tournament, table__number=table_number, table__in_play=True).count()


def table_numbers(tournament) -> list[int]:
    """Numbers of the tables in play (with players), in order."""
    return list(Table.objects.filter(tournament=tournament, in_play=True, seats__isnull=False).distinct().order_by("number").values_list("number", flat=True))


def h4h_hand_busts(tournament, hand: int) -> int:
    """How many players went out in hand-for-hand hand ``hand`` of the session in play: the run
    of the latest standing busts that carry its number (each session numbers its hands from 1,
    ``services.busts._engine_busts``)."""
    out = 0
    for number in Bust.objects.filter(tournament=tournament, void="").order_by("-order").values_list("h4h_hand", flat=True)[:1000]:
        if number != hand:
            break
        out += 1
    return out


def last_bust_h4h_hand(tournament) -> int | None:
    """The hand-for-hand hand number of the latest standing bust (None: none, or out in normal play)."""
    return Bust.objects.filter(tournament=tournament, void="").order_by("-order").values_list("h4h_hand", flat=True).first()


def tv_table(tournament) -> dict | None:
    """ROLE-08 / SEAT-07: the TV table in play, ``{"table": n, "is_final": bool}``, or None."""
    row = Table.objects.filter(tournament=tournament, in_play=True, tv=True).values("number", "is_final").first()
    return {"table": row["number"], "is_final": row["is_final"]} if row else None


def room_for_entry(tournament) -> dict:
    """REG-04 / BAL-09: whether the final table is formed and whether a new player would find an
    open seat at a table in play (else the seat pool opens a new table), ``{"final_table_formed",
    "free_seat"}``. A seat counts open unless it is taken, locked, at a locked table, or about to
    be filled by a proposed balancing move (as ``seat_new_entry`` draws). Before the final table
    (every late sale of the evening) one read answers: ``free_seat`` is then None, not looked at."""
    tables = list(Table.objects.filter(tournament=tournament, in_play=True).values("id", "number", "capacity", "locked", "locked_seats", "is_final"))
    if not any(tb["is_final"] for tb in tables):
        return {"final_table_formed": False, "free_seat": None}
    taken: dict[int, set[int]] = {}
    for table_id, number in Seat.objects.filter(tournament=tournament, table__in_play=True).values_list("table_id", "number"):
        taken.setdefault(table_id, set()).add(number)
    coming: dict[int, set[int]] = {}
    for to_table, to_seat in PendingMove.objects.filter(tournament=tournament, status=PendingMove.PROPOSED).values_list("to_table", "to_seat"):
        coming.setdefault(to_table, set()).add(to_seat)
    free = any(
        not tb["locked"]
        and any(
            s not in taken.get(tb["id"], set()) and s not in set(tb["locked_seats"] or []) and s not in coming.get(tb["number"], set())
            for s in range(1, tb["capacity"] + 1)
        )
        for tb in tables
    )
    return {"final_table_formed": any(tb["is_final"] for tb in tables), "free_seat": free}


def players_left(tournament) -> int:
    return tournament.entries.filter(status=Entry.ACTIVE).count()


def tournament_links(tournament) -> list[dict]:
    """Buttons the tournament page shows for this app: [{"label", "url"}]."""
    return [
        {"label": _("Tables"), "url": reverse("seating-tables", args=[tournament.pk])},
        {"label": _("Seat lookup"), "url": reverse("seating-lookup", args=[tournament.pk])},
        {"label": _("Sessions drawn in advance"), "url": reverse("seating-predraw", args=[tournament.pk])},
    ]


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
# row: their count; none when no table is), the first moves to make.
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


def _style_of(pk: int) -> str:
    """The house's public name style of a tournament known by its key (one small read)."""
    return HouseRules.of(Tournament.objects.only("settings", "rule_set", "table_size").get(pk=pk)).seat_lookup_names


def display_summary(tournament) -> dict:
    """What lobby screens show about seating, the same size whatever the field: how many tables
    are in play, the seats version (the seat lookup itself is paged: ``seat_page``) and the
    moves still to be made (the first ``DISPLAY_MOVES``, ``moves_pending`` counting them all).
    Three small queries (one round trip on PostgreSQL); none reads the field row by row."""
    pk = int(getattr(tournament, "pk", tournament))
    tables, rows, version = rows_together((_TABLES_IN_PLAY, (pk,)), (_FIRST_MOVES, (pk,)), (_SEATS_SEQ, (pk,)))
    style = HouseRules.of(tournament).seat_lookup_names if hasattr(tournament, "settings") else _style_of(pk)
    names = public_names(((m[0], m[1], m[6], m[7], m[8]) for m in rows), style)
    moves = [_move_dict(m[2:6], name) for m, name in zip(rows, names, strict=True)]
    if len(moves) < DISPLAY_MOVES:
        pending = len(moves)
    else:
        pending = PendingMove.objects.filter(tournament_id=pk, status=PendingMove.PROPOSED).count()
    return {"tables_in_play": _first_or_zero(tables), "seats_version": _first_or_zero(version), "moves": moves, "moves_pending": pending}


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
    with _seat_lists_lock:
        _SEAT_LISTS.clear()


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
    """A player's name as the house shows it in public (``tournaments.public_names``)."""
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


def entry_view(entry) -> dict:
    """What the player's phone page shows of seating, for this entry alone: his or her seat and
    the move still to make (where to go), never anybody else's; before the start, the schedule
    drawn in advance (SEAT-02)."""
    move = (
        PendingMove.objects.filter(tournament_id=entry.tournament_id, entry=entry, status=PendingMove.PROPOSED)
        .order_by("id")
        .values("kind", "from_table", "from_seat", "to_table", "to_seat")
        .first()
    )
    schedule = schedule_of(entry.pk) if shows_schedule(entry.tournament) else None
    return {"seat": seat_of(entry), "move": move, "schedule": schedule}


def shows_schedule(tournament) -> bool:
    """SEAT-02: the schedule drawn in advance is what is still to come only before the start.
    From the start the seat is the one place a player is told (the start seats the first
    session where it was drawn; a later session's players are seated by the draw, and moves
    change seats), so a phone never shows two seats."""
    return tournament.status in (Tournament.PLANNED, Tournament.REGISTERING)


def schedule_of(entry_id: int) -> dict | None:
    """SEAT-02: the session, table and seat the pre-event draw gave the entry, else None."""
    return PreDrawSeat.objects.filter(entry_id=entry_id).values("session", "table", "seat").first()


def predraw_sessions(tournament) -> list[str]:
    """SEAT-02: the sessions of the draw in advance in the order the director named them (its
    rows are written session by session in that order), so the first is the one the start plays."""
    rows = PreDrawSeat.objects.filter(tournament=tournament).order_by("pk").values_list("session", flat=True)
    return list(dict.fromkeys(rows))


def predraw_rows(tournament) -> list[dict]:
    """SEAT-02: the pre-draw by session, table and seat, with each registrant's name and entry
    (an entry cancelled since is left out)."""
    return [
        {"session": s, "table": tb, "seat": seat, "entry": number, "name": f"{first} {last}".strip()}
        for s, tb, seat, number, first, last in PreDrawSeat.objects.filter(tournament=tournament)
        .exclude(entry__status=Entry.CANCELLED)  # refunded since: the seat is left empty, not given away
        .order_by("session", "table", "seat")
        .values_list("session", "table", "seat", "entry__number", "entry__person__first_name", "entry__person__last_name")
    ]


def entries_view(tournament) -> dict[int, dict]:
    """``entry_view`` for every entry of the tournament in three queries: ``{entry id: {"seat",
    "move", "schedule"}}`` for the entries seated, with a move to make or pre-drawn (SEAT-02)."""
    seats = {
        entry: {"table": table, "seat": seat}
        for entry, table, seat in Seat.objects.filter(tournament=tournament).values_list("entry_id", "table__number", "number")
    }
    moves: dict[int, dict] = {}
    for move in (
        PendingMove.objects.filter(tournament=tournament, status=PendingMove.PROPOSED)
        .order_by("-id")
        .values("entry_id", "kind", "from_table", "from_seat", "to_table", "to_seat")
    ):
        moves[move.pop("entry_id")] = move  # read newest first: the oldest slip of an entry is kept, as entry_view shows
    schedules = (
        {
            entry: {"session": session, "table": table, "seat": seat}
            for entry, session, table, seat in PreDrawSeat.objects.filter(tournament=tournament).values_list("entry_id", "session", "table", "seat")
        }
        if shows_schedule(tournament)
        else {}
    )
    return {
        entry: {"seat": seats.get(entry), "move": moves.get(entry), "schedule": schedules.get(entry)}
        for entry in seats.keys() | moves.keys() | schedules.keys()
    }


def overview(tournament) -> dict:
    """The floor overview's seating columns: tables in play, moves pending, halted tables."""
    tables, rows = engine_tables(tournament)
    halted = [n for n in engine.halted_tables(tables) if not rows[n].halt_waived]
    return {
        "tables": sum(1 for t in tables if t.seats),
        "moves_pending": PendingMove.objects.filter(tournament=tournament, status=PendingMove.PROPOSED).count(),
        "halted_tables": halted,
    }


# --- the table map ----------------------------------------------------------------------------


def engine_tables(tournament) -> tuple[list[engine.Table], dict[int, Table]]:
    """The tables in play as the engine sees them, and their rows by number."""
    rows = {t.number: t for t in Table.objects.filter(tournament=tournament, in_play=True).order_by("number")}
    seats: dict[int, dict[int, int]] = {}
    for table_id, seat, entry in Seat.objects.filter(tournament=tournament).values_list("table_id", "number", "entry_id"):
        seats.setdefault(table_id, {})[seat] = entry
    tables = [
        engine.Table(
            r.number, r.capacity, seats.get(r.pk, {}), r.big_blind_seat, r.previous_big_blind_seat, frozenset(r.locked_seats or ()), r.locked, r.big_blind_twice
        )
        for r in rows.values()
    ]
    return tables, rows


def table_shown(tournament, number: int) -> dict | None:
    """One table of ``table_map`` (the floor's answer to an action at that table): its players'
    rows read for that table alone, whatever the size of the field."""
    tables, rows = engine_tables(tournament)
    shown = _tables_shown(tournament, tables, rows, engine.halted_tables(tables), only=number)
    return shown[0] if shown else None


def _tables_shown(tournament, tables, rows, halted, only: int | None = None) -> list[dict]:
    """``table_map``'s tables (or the table numbered ``only``), each seat with its player."""
    shown = [t for t in tables if only is None or t.number == only]
    # The players of the seats just read, by key: a seat read before a change committed between
    # the two reads (a bust, a move) still finds its player; the next read shows the change.
    seated = [entry for table in shown for entry in table.seats.values()]
    people = {
        pk: (number, first, last, nick, chips, presence)
        for pk, number, first, last, nick, chips, presence in Entry.objects.filter(tournament=tournament, pk__in=seated).values_list(
            "pk", "number", "person__first_name", "person__last_name", "person__nickname", "chips", "presence"
        )
    }
    waiting = Seat.objects.filter(tournament=tournament, wait_for_button=True)  # SEAT-05: a few seats of the whole room
    if only is not None:
        waiting = waiting.filter(entry_id__in=seated)
    waiting = set(waiting.values_list("entry_id", flat=True))
    counted = _counted_stacks(tournament, seated if only is not None else None)
    # PEN-04: a penalty belongs to the entry, so it shows wherever the player now sits.
    penalties = {}
    # The table map shows each penalised player's hands left, or a time suspension's time (PEN-03, PEN-05).
    for p in active_penalties(tournament):
        penalties.setdefault(p.entry_id, []).append(penalty_progress(p))
    together = apart_together(tournament, shown)  # SEAT-07: pairs kept apart who sit together anyway
    bounties: dict[int, str] = {}  # PAY-02: the bounty on each head, in a FIXED or PKO event (payouts answers)
    for answer in ask(signals.bounties_wanted, tournament=tournament, entries=seated if only is not None else None):
        bounties.update(answer)
    out_tables = []
    for table in shown:
        row = rows[table.number]
        pos = engine.next_hand_positions(table)
        seats = []
        for seat in range(1, table.capacity + 1):
            entry = table.seats.get(seat)
            item = {"seat": seat, "locked": seat in table.locked_seats, "entry": entry}
            if entry is not None:
                number, first, last, nick, chips, presence = people[entry]
                item.update(
                    entry_number=number,
                    name=f"{first} {last}".strip(),
                    nickname=nick,
                    chips_bought=chips,
                    stack=counted.get(entry),
                    wait_for_button=entry in waiting,
                    penalties=penalties.get(entry, []),
                    keep_apart=entry in together,
                    presence=presence,
                    bounty=bounties.get(entry),
                )  # ELM-05: absent / withdrawn, blinded out
            item["position"] = ("BTN" if seat == pos.button else "") + ("SB" if seat == pos.small_blind else "") + ("BB" if seat == pos.big_blind else "")
            seats.append(item)
        out_tables.append(
            {
                "number": table.number,
                "capacity": table.capacity,
                "players": len(table.seats),
                "big_blind_seat": table.big_blind_seat,
                "previous_big_blind_seat": table.previous_big_blind_seat,
                "next_hand": {"button": pos.button, "small_blind": pos.small_blind, "big_blind": pos.big_blind},
                "locked": table.locked,
                "locked_seats": sorted(table.locked_seats),
                "halted": table.number in halted,
                "halt_waived": row.halt_waived,
                "is_final": row.is_final,
                "tv": row.tv,
                "seats": seats,
            }
        )
    return out_tables


def table_map(tournament) -> dict:
    """Every table in play with its seats, players, stacks, blinds and flags; the moves to
    make; halted tables; the next table to break. For the floor's page and the API."""
    h = HouseRules.of(tournament)
    tables, rows = engine_tables(tournament)
    halted = engine.halted_tables(tables)
    next_break = engine.next_table_to_break(tables, h.break_order)
    due = engine.table_to_break(tables, break_order=h.break_order, final_table_size=h.final_table_size)
    out_tables = _tables_shown(tournament, tables, rows, halted)
    return {
        "tournament": tournament.pk,
        "players": sum(len(t.seats) for t in tables),
        "tables": out_tables,
        "moves": pending_moves(tournament),
        "halted": [n for n in halted if not rows[n].halt_waived],
        "halt_advisory": tournament.table_size < 7,  # BAL-02: short-handed events halt at the TD's discretion
        "next_to_break": next_break,
        "break_due": due,
        "break_order": h.break_order,
        "draw_mode": h.draw_mode,
        "manual_draws": manual_draws(tournament),
        "settings": {
            "balance_trigger_difference": h.balance_trigger_difference,
            "mover_rule": h.mover_rule,
            "dest_rule": h.dest_rule,
            "tie_break": h.tie_break,
            "vacated_bb_seat": h.vacated_bb_seat,
            "final_table_size": h.final_table_size,
            "h4h_policy": h.h4h_simultaneous_policy,
        },
    }


def _counted_stacks(tournament, entries=None) -> dict[int, int]:
    """The last counted stack of each seated player (the floor's chip counts), if any; of
    ``entries`` alone when given."""
    out: dict[int, int] = {}
    counts = ChipCount.objects.filter(tournament=tournament, entry__seat__isnull=False)
    if entries is not None:
        counts = counts.filter(entry_id__in=entries)
    for entry, chips in counts.order_by("entry_id", "-counted_at", "-id").values_list("entry_id", "chips"):
        out.setdefault(entry, chips)
    return out


def move_dict(m: PendingMove) -> dict:
    person = m.entry.person
    return {
        "id": m.pk,
        "entry": m.entry_id,
        "entry_number": m.entry.number,
        "player": person.full_name,
        "kind": m.kind,
        "status": m.status,
        "applied": m.applied,
        "from_table": m.from_table,
        "from_seat": m.from_seat,
        "to_table": m.to_table,
        "to_seat": m.to_seat,
        "reason": m.reason_text,
        "reason_code": m.reason_code,
        "reason_data": m.reason_data,
        "card": m.card,
        "wait_for_button": m.wait_for_button,
        "single_big_blind": m.single_big_blind,
        "created_at": m.created_at.isoformat(),
        "done_at": m.done_at.isoformat() if m.done_at else None,
        "done_by": m.done_by.get_username() if m.done_by_id else None,
    }


def pending_moves(tournament) -> list[dict]:
    """Move slips not yet confirmed: what the floor still has to do."""
    qs = PendingMove.objects.filter(tournament=tournament, status=PendingMove.PROPOSED).select_related("entry__person").order_by("id")
    return [move_dict(m) for m in qs]


def recent_moves(tournament, limit: int = 20) -> list[dict]:
    qs = (
        PendingMove.objects.filter(tournament=tournament, status=PendingMove.DONE)
        .select_related("entry__person", "done_by")
        .order_by("-done_at", "-id")[:limit]
    )
    return [move_dict(m) for m in qs]


def busts(tournament, limit: int | None = None) -> list[dict]:
    """Busts, newest first, with place, tie size, where and when; in a bounty event (PAY-02)
    ``knocked_out_by``: the knockouts of each (``knockouts``), the eliminators in the order named."""
    qs = Bust.objects.filter(tournament=tournament).select_related("entry__person", "reported_by").order_by("-order")
    if limit:
        qs = qs[:limit]
    rows = [
        {
            "id": b.pk,
            "entry": b.entry_id,
            "entry_number": b.entry.number,
            "player": b.entry.person.full_name,
            "table": b.table_number,
            "seat": b.seat_number,
            "order": b.order,
            "place": b.place,
            "shared_with": b.shared_with,
            "starting_stack": b.starting_stack,
            "hand_group": b.hand_group,
            "h4h_hand": b.h4h_hand,
            "kind": b.kind,
            "busted_at": b.busted_at.isoformat(),
            "reported_by": b.reported_by.get_username() if b.reported_by_id else None,
            "void": b.void,
            "reason": b.reason,
            "simultaneous": b.simultaneous_group is not None,
            "simultaneous_reason": b.simultaneous_reason,
        }
        for b in qs
    ]
    won = knockouts(tournament, [r["id"] for r in rows]) if rows else None
    if won is not None:  # a bounty event (PAY-02): who knocked each one out, and what it won
        by_bust: dict[int, list[dict]] = {}
        for k in won:
            by_bust.setdefault(k["bust"], []).append(k)
        for r in rows:
            r["knocked_out_by"] = by_bust.get(r["id"], [])
    return rows


def knockouts(tournament, busts, winner: int | None = None) -> list[dict] | None:
    """What the knockouts of these busts (ids) won in a bounty event, and with ``winner`` the
    last player's own bounty (``signals.knockouts_wanted``, payouts answers); None in any
    other event."""
    return ask_one(signals.knockouts_wanted, tournament=tournament, busts=list(busts), winner=winner)


def standings(tournament) -> list[dict]:
    """Finishing places so far (ELM): the winner once one player is left, then every bust
    that counts, best place first; a shared place lists all its players with ``shared_with``."""
    rows = []
    for b in Bust.objects.filter(tournament=tournament, void="").select_related("entry__person").order_by("place", "order"):
        rows.append({"entry": b.entry_id, "entry_number": b.entry.number, "player": b.entry.person.full_name, "place": b.place, "shared_with": b.shared_with})
    winner = Entry.objects.filter(tournament=tournament, status=Entry.ACTIVE, place=1).select_related("person").first()
    if winner:
        rows.insert(0, {"entry": winner.pk, "entry_number": winner.number, "player": winner.person.full_name, "place": 1, "shared_with": 1})
    return rows


DRAW_ACTIONS = (Action.SEATING_DRAW_INITIAL, Action.SEATING_PLAYER_SEATED, Action.SEATING_TABLE_BROKEN, Action.SEATING_FINAL_TABLE_FORMED)


def draw_replay(tournament, event_id: int) -> dict:
    """A logged draw of this tournament replayed from its seed and inputs (``seating.replay``):
    its event, action and seed, the result logged, the result recomputed and whether they match.
    404 for an event not in this tournament's log; 409 for one that draws nothing or was drawn
    by hand (no seed to replay)."""
    ev = TournamentEvent.objects.filter(tournament=tournament, pk=event_id).values("pk", "action", "payload", "created_at").first()
    if ev is None:
        raise DomainError("not_found", _("This tournament's log has no such event."), status=404, field="event")
    payload = ev["payload"] if isinstance(ev["payload"], dict) else {}
    other = None if ev["action"] in replay.REPLAYERS else ask_one(signals.draw_replay_wanted, tournament=tournament, action=ev["action"])
    try:
        done = replay.replay(ev["action"], payload, other)
    except replay.NotReplayable as exc:
        if exc.code == "not_a_draw":
            raise DomainError("not_a_draw", _("This event is not a random draw: there is nothing to replay."), field="event") from None
        raise DomainError(
            "no_seed", _("This draw was logged without a seed (a draw by hand, or one logged before seeds were): it cannot be replayed."), field="event"
        ) from None
    return {"event": ev["pk"], "at": ev["created_at"].isoformat(), **done.as_dict()}


def draw_history(tournament, entry) -> list[dict]:
    """How this player's seats were assigned: the draws and moves that placed him, from the
    event log (SEAT-01, SEAT-04: both permutations of a break are shown)."""
    out = []
    initial = TournamentEvent.objects.filter(tournament=tournament, action=Action.SEATING_DRAW_INITIAL).order_by("id")
    for ev in initial:
        assignment = ev.payload.get("assignment", [])
        for i, (e, table, seat) in enumerate(assignment, 1):
            if e == entry.pk:
                cards = ev.payload.get("button_cards", {}).get(str(table), [])
                out.append(
                    {
                        "event": ev,
                        "kind": "initial",
                        "table": table,
                        "seat": seat,
                        "ticket": i,
                        "tickets": len(assignment),
                        "button": ev.payload.get("buttons", {}).get(str(table)),
                        "button_cards": cards,
                        "manual": ev.payload.get("mode") == "MANUAL",
                    }
                )
        for e, table, seat in ev.payload.get("predrawn", []):  # SEAT-02: where the draw in advance put him
            if e == entry.pk:
                out.append(
                    {
                        "event": ev,
                        "kind": "initial",
                        "table": table,
                        "seat": seat,
                        "predrawn": True,
                        "session": ev.payload.get("predraw_session", ""),
                        "button": ev.payload.get("buttons", {}).get(str(table)),
                        "button_cards": ev.payload.get("button_cards", {}).get(str(table), []),
                    }
                )
        for e, table, seat in ev.payload.get("reserved", []):  # SEAT-07: a seat given by hand, not drawn
            if e == entry.pk:
                out.append(
                    {
                        "event": ev,
                        "kind": "initial",
                        "table": table,
                        "seat": seat,
                        "reserved": True,
                        "button": ev.payload.get("buttons", {}).get(str(table)),
                        "button_cards": ev.payload.get("button_cards", {}).get(str(table), []),
                    }
                )
    for ev in TournamentEvent.objects.filter(tournament=tournament, action=Action.SEATING_PLAYER_SEATED, payload__entry=entry.pk).order_by("id"):
        out.append(
            {
                "event": ev,
                "kind": "late",
                "table": ev.payload.get("table"),
                "seat": ev.payload.get("seat"),
                "reason": labels.reason_text(ev.payload.get("reason")),
                "reason_code": labels.reason_code(ev.payload.get("reason")),
            }
        )
    for m in PendingMove.objects.filter(tournament=tournament, entry=entry).select_related("event", "done_by").order_by("id"):
        item = {
            "event": m.event,
            "kind": m.kind.lower(),
            "move": m,
            "table": m.to_table,
            "seat": m.to_seat,
            "reason": m.reason_text,
            "reason_code": m.reason_code,
        }
        if m.event and m.event.action in DRAW_ACTIONS:
            item["seat_order"] = m.event.payload.get("seat_order", [])
            item["card_order"] = m.event.payload.get("card_order", [])
            item["button_seat"] = m.event.payload.get("button_seat")
            item["button_cards"] = m.event.payload.get("button_cards")
            item["manual"] = m.event.payload.get("mode") == "MANUAL"
        out.append(item)
    out.sort(key=lambda i: i["event"].id if i["event"] else 0)
    ids = {p for i in out for p, _card in i.get("card_order", [])}
    names = (
        {
            pk: f"{first} {last} #{number}".strip()
            for pk, number, first, last in Entry.objects.filter(pk__in=ids).values_list("pk", "number", "person__first_name", "person__last_name")
        }
        if ids
        else {}
    )
    for i in out:
        if "card_order" in i:
            i["card_order"] = [[p, card, names.get(p, f"#{p}")] for p, card in i["card_order"]]
    return out


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


# --- SEAT-07 constraints and SEAT-01/04 manual draws ------------------------------------------


def apart_pairs(tournament) -> list[tuple[int, int]]:
    """The keep-apart pairs of the tournament (its own and the venue-wide ones) as entry pairs."""
    people = list(KeepApart.objects.filter(Q(tournament=tournament) | Q(tournament__isnull=True)).values_list("person_a_id", "person_b_id"))
    if not people:
        return []
    entries: dict[int, list[int]] = {}
    for pk, person in Entry.objects.filter(tournament=tournament, person_id__in={p for pair in people for p in pair}).values_list("pk", "person_id"):
        entries.setdefault(person, []).append(pk)
    return [(x, y) for a, b in people for x in entries.get(a, ()) for y in entries.get(b, ())]


def apart_together(tournament, tables) -> set[int]:
    """Entries seated at one table with someone they are to be kept apart from."""
    pairs = apart_pairs(tournament)
    return {e for _n, a, b in engine.apart_conflicts(tables, pairs) for e in (a, b)} if pairs else set()


def constraints(tournament) -> dict:
    """The keep-apart pairs (this tournament's and the venue-wide ones) and the seats reserved by hand."""
    pairs = KeepApart.objects.filter(Q(tournament=tournament) | Q(tournament__isnull=True)).select_related("person_a", "person_b")
    reservations = SeatReservation.objects.filter(tournament=tournament).select_related("entry__person")
    return {
        "keep_apart": [
            {
                "id": p.pk,
                "people": [p.person_a_id, p.person_b_id],
                "names": [p.person_a.full_name, p.person_b.full_name],
                "everywhere": p.tournament_id is None,
                "reason": p.reason,
            }
            for p in pairs
        ],
        "reservations": [
            {
                "id": r.pk,
                "entry": r.entry_id,
                "entry_number": r.entry.number,
                "name": r.entry.person.full_name,
                "table": r.table_number,
                "seat": r.seat_number,
                "reason": r.reason,
            }
            for r in reservations
        ],
    }


def manual_draws(tournament, *, draw_id: int | None = None) -> list[dict]:
    """The open manual draws (or one draw by id): their seat cards, who drew which, who is left."""
    qs = ManualDraw.objects.filter(tournament=tournament)
    qs = qs.filter(pk=draw_id) if draw_id is not None else qs.filter(status=ManualDraw.OPEN)
    out = []
    waiting = set(Table.objects.filter(tournament=tournament, in_play=True, locked=True).values_list("number", flat=True))
    for d in qs.order_by("id"):
        if d.status == ManualDraw.OPEN and d.kind == ManualDraw.BREAK and d.table not in waiting:
            continue  # its break is gone (the bust undone, the table unlocked by hand): void
        ids = d.players if d.kind == ManualDraw.INITIAL else [e for e, _s in d.players]
        people = {
            pk: (number, f"{first} {last}".strip(), status)
            for pk, number, first, last, status in Entry.objects.filter(pk__in=ids).values_list(
                "pk", "number", "person__first_name", "person__last_name", "status"
            )
        }
        by_card = {(a["table"], a["seat"]): int(e) for e, a in d.assigned.items()}
        cards = []
        for table, seat in d.cards:
            e = by_card.get((table, seat))
            cards.append(
                {
                    "table": table,
                    "seat": seat,
                    "entry": e,
                    "entry_number": people[e][0] if e in people else None,
                    "name": people[e][1] if e in people else "",
                    "card": d.assigned.get(str(e), {}).get("card", ""),
                }
            )
        players = [
            {"entry": e, "entry_number": people[e][0], "name": people[e][1], "drawn": str(e) in d.assigned}
            for e in ids
            if e in people and people[e][2] == Entry.ACTIVE
        ]
        out.append(
            {
                "id": d.pk,
                "kind": d.kind,
                "status": d.status,
                "table": d.table,
                "cards": cards,
                "players": players,
                "left": sum(1 for p in players if not p["drawn"]),
            }
        )
    return out


# --- the room's physical tables -------------------------------------------------

#: A physical table's state on the room map.
FREE, IN_USE, RESERVED, OUT_OF_SERVICE = "FREE", "IN_USE", "RESERVED", "OUT_OF_SERVICE"


def rooms() -> list[dict]:
    """The venue's rooms, in the staff's order, each with how many tables it has."""
    return [{"id": r.pk, "name": r.name, "tables": r.n} for r in CardRoom.objects.annotate(n=Count("tables")).order_by("position", "pk")]


def room_map(room_id: int) -> dict:
    """Every table of the room at a glance: its state (free, in use by an event, kept for an event
    still to start, out of service and why), the event and how many play there, and whether it
    breaks next in its event; with the counts of each state. An event that ended holds nothing."""
    room = CardRoom.objects.filter(pk=room_id).first()
    if room is None:
        raise DomainError("not_found", _("There is no such room."), status=404)
    rows = list(
        RoomTable.objects.filter(room=room)
        .select_related("held_by", "reserved_for")
        .only(
            "number",
            "seats",
            "zone",
            "position",
            "out_of_service",
            "held_by__name",
            "held_by__status",
            "reserved_for__name",
            "reserved_for__status",
            "reserved_for__start_at",
        )
        .order_by("position", "number")
    )
    playing = {r.held_by_id for r in rows if r.held_by_id and r.held_by.status not in ENDED_EVENTS}
    players: dict[tuple[int, int], int] = {}
    for tid, number, n in (
        Seat.objects.filter(tournament_id__in=playing, table__in_play=True).values_list("tournament_id", "table__number").annotate(n=Count("pk")).order_by()
    ):
        players[(tid, number)] = n
    breaks_next = {}
    for tid in playing:
        t = Tournament.objects.only("id", "settings", "table_size", "rule_set", "game").get(pk=tid)
        tables, _rows = engine_tables(t)
        breaks_next[tid] = engine.next_table_to_break(tables, HouseRules.of(t).break_order)
    out = []
    for r in rows:
        event = r.held_by if r.held_by_id in playing else None
        kept = r.reserved_for if r.reserved_for_id and r.reserved_for.status not in ENDED_EVENTS else None
        if r.out_of_service:
            state = OUT_OF_SERVICE
        elif event is not None:
            state = IN_USE
        elif kept is not None:
            state = RESERVED
        else:
            state = FREE
        out.append(
            {
                "number": r.number,
                "seats": r.seats,
                "zone": r.zone,
                "position": r.position,
                "state": state,
                "out_of_service": r.out_of_service,
                "event": {"id": event.pk, "name": event.name} if event else None,
                "players": players.get((event.pk, r.number), 0) if event else 0,
                "breaks_next": bool(event) and breaks_next.get(event.pk) == r.number,
                "reserved_for": {"id": kept.pk, "name": kept.name, "start_at": kept.start_at.isoformat() if kept.start_at else None} if kept else None,
            }
        )
    dealing = room_dealers(room.pk)
    for tb in out:
        tb["dealer"] = dealing.get(tb["number"])
    counts = {s: sum(1 for t in out if t["state"] == s) for s in (FREE, IN_USE, RESERVED, OUT_OF_SERVICE)}
    return {"room": {"id": room.pk, "name": room.name}, "tables": out, "counts": counts, "players": sum(t["players"] for t in out)}


def room_dealers(room_id: int) -> dict[int, dict]:
    """Where each dealer of the room is now (his open record), by table number for those dealing."""
    out = {}
    for a in DealerAssignment.objects.filter(room_id=room_id, ends_at__isnull=True, kind=DealerAssignment.DEAL).select_related("dealer"):
        out[a.table] = {"id": a.dealer_id, "name": (a.dealer.get_full_name() or a.dealer.get_username()).strip(), "since": a.starts_at.isoformat()}
    return out


def dealer_report(room_id: int, start, end, now=None) -> list[dict]:
    """The dealers' record between ``start`` and ``end`` (a day), for payroll: per dealer, each
    table dealt and its minutes, the minutes dealt, the breaks (how many, their minutes) and the
    minutes waiting in the pool. A row still open counts until ``now``."""
    now = now or timezone.now()
    per: dict[int, dict] = {}
    rows = (
        DealerAssignment.objects.filter(room_id=room_id, starts_at__lt=end)
        .filter(Q(ends_at__isnull=True) | Q(ends_at__gt=start))
        .select_related("dealer")
        .order_by("starts_at", "pk")
    )
    for a in rows:
        minutes = max(0.0, (min(a.ends_at or now, end, now) - max(a.starts_at, start)).total_seconds() / 60)
        d = per.setdefault(
            a.dealer_id,
            {
                "dealer": (a.dealer.get_full_name() or a.dealer.get_username()).strip(),
                "tables": {},
                "dealt": 0.0,
                "breaks": 0,
                "break_minutes": 0.0,
                "pool_minutes": 0.0,
            },
        )
        if a.kind == DealerAssignment.DEAL:
            d["tables"][a.table] = d["tables"].get(a.table, 0.0) + minutes
            d["dealt"] += minutes
        elif a.kind == DealerAssignment.BREAK:
            d["breaks"] += 1
            d["break_minutes"] += minutes
        else:
            d["pool_minutes"] += minutes
    out = []
    for d in sorted(per.values(), key=lambda d: d["dealer"].lower()):
        out.append(
            {
                **d,
                "tables": [{"table": n, "minutes": round(m)} for n, m in d["tables"].items()],
                "dealt": round(d["dealt"]),
                "break_minutes": round(d["break_minutes"]),
                "pool_minutes": round(d["pool_minutes"]),
            }
        )
    return out
