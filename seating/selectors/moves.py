"""Move slips: the ones the floor still has to make and the latest made."""

from ..models import PendingMove


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
