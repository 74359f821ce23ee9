"""Keep-apart pairs and the seats reserved by hand (SEAT-07)."""

from django.db.models import Q

from tournaments.models import Entry

from .. import engine
from ..models import KeepApart, SeatReservation


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
