"""What the lobby screens show of the payouts: the pool, the ladder, the side pools, the bounties.

One read per change of a running event (the lobby's snapshot), so it takes what its caller
has counted already (``entries``).
"""

from __future__ import annotations

from tournaments.house import HouseRules

from ..models import PayoutTable
from .bounties import NO_BOUNTY, bounty_panel, bounty_taken_in
from .common import money
from .others import won_by_entry
from .pool import pool_breakdown
from .satellites import satellite_link, satellite_pool
from .sidepools import side_pools_summary
from .table import ladder, places_paid, table_prizes, table_state


def display_summary(tournament, *, entries: int | None = None) -> dict:
    """Prize pool and payout ladder for lobby displays and the clock page.

    PAY-02: the figure shown is labelled. ``display_pool`` NET (the pool to share, default),
    GROSS (before the staff fee and the other deductions: what a gross guarantee promises) or
    BOTH (``prize_pool`` is then the net, ``prize_pool_gross`` the gross).

    ``{"prize_pool": "12345.00", "prize_pool_label": "net"|"gross", "prize_pool_show",
    "prize_pool_gross", "prize_pool_net", "guarantee", "guarantee_label", "bounty_money" (a bounty
    event's bounty parts, apart from the pool, else None), "payouts": [{"places", "amount",
    "prize"}], "places_paid": n, "side_pools": [...]}``; in a bounty event ``"bounty"``
    (``bounty_panel``), never read in another.
    """
    t = tournament
    # Each read once (a screen's snapshot is rebuilt after every change of a running event):
    # the pool, the side pools, the satellite link and the payout table's row serve the ladder
    # and the figures; ``entries``: the field the snapshot counted (PAY-04's entries, not again).
    pools = list(t.side_pools.select_related("fund"))
    b = pool_breakdown(t, side_pools=pools)
    link = satellite_link(t)
    table = PayoutTable.objects.filter(tournament=t).first()
    prizes = table_prizes(t, table=table, link=link, total=b.total, entries=entries)
    rules = HouseRules.of(t)
    show = rules.display_pool  # PAY-02: NET (default), GROSS or BOTH, each labelled
    seats_pool = satellite_pool(t, link) if link else None  # a satellite's pool is the seats' value, gross and net
    gross_amount = seats_pool if link else b.gross
    net_amount = seats_pool if link else b.total
    shown = gross_amount if show == "GROSS" else net_amount
    taken = bounty_taken_in(t) if rules.bounty != NO_BOUNTY else None  # read once: the figure and the panel
    return {
        "prize_pool": money(shown),
        "prize_pool_label": "gross" if show == "GROSS" else "net",
        "prize_pool_show": show,
        "prize_pool_gross": money(gross_amount) if show in ("GROSS", "BOTH") else None,
        "prize_pool_net": money(net_amount) if show in ("NET", "BOTH") else None,
        "guarantee": money(t.guarantee) if t.guarantee is not None else None,
        "guarantee_label": "gross" if rules.guarantee_is_gross else "net",
        # PAY-02: a bounty event's bounty money, apart: never in the prize pool, gross or net
        "bounty_money": money(taken) if taken is not None else None,
        "payouts": ladder(prizes),
        "places_paid": places_paid(t, prizes),
        "payout_table_state": table_state(t, table=table),
        "side_pools": side_pools_summary(t, pools),
        **({"won": won_by_entry(t, prizes)} if t.status == t.FINISHED else {}),
        **({"bounty": bounty_panel(t, rules, taken=taken)} if taken is not None else {}),
    }
