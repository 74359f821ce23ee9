"""The prize pool, and the summary of a tournament's payouts that opens with it."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from .. import selectors as sel
from .common import Base, _t, reads_public
from .table import table_data


def pool_data(t):
    b = sel.pool_breakdown(t)
    link = sel.satellite_link(t)
    return {
        "collected": sel.money(b.collected),
        "deductions": {k: sel.money(v) for k, v in b.deductions.items()},
        "net": sel.money(b.net),
        "overlay": sel.money(b.overlay),
        "gross": sel.money(b.gross),
        "total": sel.money(b.total),
        "refunds": sel.money(b.refunds),  # a cancelled event's collected money, owed back to its players
        "guarantee": sel.money(t.guarantee) if t.guarantee is not None else None,
        "satellite_pool": sel.money(sel.satellite_pool(t, link)) if link else None,
        "side_pools": sel.side_pools_summary(t),
        "currency": t.currency,
    }


class PayoutsSummaryView(Base):
    """Everything about a tournament's payouts: pool, table, satellite, sign-off, side pools."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        t = _t(pk)
        link = sel.satellite_link(t)
        return Response(
            {
                "tournament": t.pk,
                "pool": pool_data(t),
                "table": table_data(t, public=reads_public(request)),
                "display": sel.display_summary(t),
                "signoff": sel.signoff_status(t),
                "satellite": {
                    "target": link.target_id,
                    "remainder_rule": link.remainder_rule,
                    "prize_base": link.prize_base,
                    "already_registered": link.already_registered,
                    "completed": bool(link.completed_at),
                }
                if link
                else None,
            }
        )


class PoolView(Base):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        return Response(pool_data(_t(pk)))
