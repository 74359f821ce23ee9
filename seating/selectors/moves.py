"""Move slips: the ones the floor still has to make, those waiting for a hand-for-hand hand, and the latest made."""

from tournaments.models import Clock, HandForHandReport

from ..models import PendingMove


def move_dict(m: PendingMove) -> dict:
    if m.status == PendingMove.WAITING:  # its player and seat are not chosen yet: never shown
        return {**waiting_dict(m, None), "waiting_for": None, "player": None, "entry": None, "from_seat": None, "to_seat": None}
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


def hand_finished_at(tournament) -> set[int] | None:
    """CLK-06: the tables that have finished the hand-for-hand hand in play (reported it
    complete); None when hand-for-hand is not on."""
    tid = int(getattr(tournament, "pk", tournament))
    hand = Clock.objects.filter(tournament_id=tid, status=Clock.HAND_FOR_HAND).values_list("h4h_hand", flat=True).first()
    if hand is None:
        return None
    return set(HandForHandReport.objects.filter(tournament_id=tid, hand=hand, state=HandForHandReport.COMPLETE).values_list("table_number", flat=True))


def waiting_for(from_table: int, to_table: int, finished: set[int] | None) -> list[int]:
    """Which of a waiting move's two tables still play the hand-for-hand hand."""
    return sorted(n for n in {from_table, to_table} if finished is not None and n not in finished)


def waiting_dict(m: PendingMove, finished: set[int] | None) -> dict:
    """A balancing move waiting for a hand-for-hand hand (CLK-06): its tables and those of them
    still playing the hand (``waiting_for``). Never its player or seat: both are chosen once the
    hand is over at both tables, when the move is proposed."""
    return {
        "id": m.pk,
        "kind": m.kind,
        "status": m.status,
        "from_table": m.from_table,
        "to_table": m.to_table,
        "waiting_for": waiting_for(m.from_table, m.to_table, finished),
        "created_at": m.created_at.isoformat(),
    }


def waiting_moves(tournament) -> list[dict]:
    """The balancing moves waiting for a hand-for-hand hand, oldest first (``waiting_dict``)."""
    tid = int(getattr(tournament, "pk", tournament))
    rows = list(
        PendingMove.objects.filter(tournament_id=tid, status=PendingMove.WAITING)
        .order_by("id")
        .only("id", "kind", "status", "from_table", "to_table", "created_at")
    )
    finished = hand_finished_at(tid) if rows else None
    return [waiting_dict(m, finished) for m in rows]


def recent_moves(tournament, limit: int = 20) -> list[dict]:
    qs = (
        PendingMove.objects.filter(tournament=tournament, status=PendingMove.DONE)
        .select_related("entry__person", "done_by")
        .order_by("-done_at", "-id")[:limit]
    )
    return [move_dict(m) for m in qs]
