"""The dealers: where each one is now, and their record of a day for payroll."""

from django.db.models import Q
from django.utils import timezone

from ..models import DealerAssignment


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
