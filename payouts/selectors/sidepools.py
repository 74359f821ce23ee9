"""Side pools as the pages show them: their money, and the Last Longer's chips and plaques (REG-10)."""

from __future__ import annotations

from ..models import SideToken
from .common import money, side_pool_balance
from .jackpot import jackpot_balance


def side_pools_summary(t, pools=None) -> list[dict]:
    """Each side pool's figures, and for a pool on the progressive jackpot's fund that fund's
    balance (PAY-12); ``pools``: the tournament's side pools (their funds joined) when the caller
    has read them already."""
    out = []
    for pool in t.side_pools.select_related("fund").all() if pools is None else pools:
        b = side_pool_balance(pool)
        row = {"id": pool.pk, "name": pool.name, "kind": pool.kind, "amount": money(b["total"]), "left": money(b["left"])}
        if pool.fund_id:
            row["fund"] = money(jackpot_balance(pool.fund))
        out.append(row)
    return out


def side_tokens(t) -> dict[int, list[dict]]:
    """REG-10: the Last Longer chips and plaques handed over, by pool: which, to whom, when, by whom
    (staff only: the lobby shows the pools' money, never who holds a plaque)."""
    out: dict[int, list[dict]] = {}
    rows = SideToken.objects.filter(pool__tournament=t).select_related("entry__person", "issued_by").order_by("issued_at", "id")
    for tok in rows:
        out.setdefault(tok.pool_id, []).append(
            {
                "entry": tok.entry_id,
                "entry_number": tok.entry.number,
                "name": tok.entry.person.display_name,
                "label": tok.label,
                "issued_at": tok.issued_at,
                "issued_by": tok.issued_by.get_username() if tok.issued_by else "",
            }
        )
    return out


def side_pools_for_staff(t) -> list[dict]:
    """``side_pools_summary`` with each Last Longer's chips and plaques handed over (REG-10)."""
    tokens = side_tokens(t)
    rows = side_pools_summary(t)
    for row in rows:
        if row["kind"] == "LAST_LONGER":
            row["tokens"] = tokens.get(row["id"], [])
    return rows
