"""The open manual draws (SEAT-01, SEAT-04): their seat cards, who drew which, who is left."""

from tournaments.models import Entry

from ..models import ManualDraw, Table


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
