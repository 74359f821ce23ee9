"""Payout services: the only code that changes payout state, one module per topic.

Each public function is one ``transaction.atomic()`` unit: it locks the tournament row
first (``lock_tournament``), checks the rules, writes the rows, writes one event-log row
(``payouts.<noun>.<verb>``) and the change is published on commit. Money moves only
through the ledger's public service (``tournaments.cashier.ledger.write_row``): a prize paid is a
PAYOUT row with a negative prize part, a side prize a SIDE row with a negative side part.

The topics: ``table`` (the payout table and templates), ``signoff`` (the ranking sign-off),
``prizes`` (paying a prize), ``bounties`` (knockouts, paying and undoing them), ``satellites``, ``tickets``, ``deals``, ``sidepools`` and ``jackpot``. The
names are gathered here so callers write ``from payouts import services``.
"""

from .bounties import (
    close_head,
    knockouts,
    mystery_bag,
    open_head,
    pay_bounties,
    return_bounty,
    set_envelopes,
    settled_by_deal,
    undo_knockouts,
    void_uncollected,
)
from .common import PAYOUT_METHODS, PayoutError, guarantee_change_refusal, pool_shrink_refusal
from .deals import DEAL_REFUSALS, accept_deal, approve_deal, cancel_deal, deal_bounties_now, deal_counts, deal_options, deal_refusal, propose_deal
from .jackpot import claim_jackpot, next_day, pay_jackpot, set_jackpot_base
from .prizes import check_cash_payout, check_paid_places_stand, pay_prize
from .satellites import after_bust, complete_satellite, link_satellite, satellite_ready
from .sidepools import award_side_pool, contribute_side_pool, create_side_pool, issue_side_token
from .signoff import sign_off_ranking
from .table import (
    apply_template,
    edit_payout_table,
    lock_at_close,
    lock_payout_table,
    reset_payout_table,
    save_payout_template,
    unlock_payout_table,
    validate_prizes,
)
from .tickets import issue_ticket, redeem_ticket

__all__ = [
    "DEAL_REFUSALS",
    "PAYOUT_METHODS",
    "PayoutError",
    "guarantee_change_refusal",
    "pool_shrink_refusal",
    "accept_deal",
    "after_bust",
    "apply_template",
    "approve_deal",
    "award_side_pool",
    "cancel_deal",
    "close_head",
    "check_cash_payout",
    "check_paid_places_stand",
    "claim_jackpot",
    "complete_satellite",
    "contribute_side_pool",
    "create_side_pool",
    "deal_bounties_now",
    "deal_counts",
    "deal_options",
    "deal_refusal",
    "edit_payout_table",
    "issue_side_token",
    "issue_ticket",
    "knockouts",
    "lock_at_close",
    "link_satellite",
    "lock_payout_table",
    "mystery_bag",
    "next_day",
    "open_head",
    "pay_bounties",
    "return_bounty",
    "pay_jackpot",
    "pay_prize",
    "propose_deal",
    "redeem_ticket",
    "reset_payout_table",
    "satellite_ready",
    "save_payout_template",
    "set_envelopes",
    "set_jackpot_base",
    "settled_by_deal",
    "sign_off_ranking",
    "undo_knockouts",
    "void_uncollected",
    "unlock_payout_table",
    "validate_prizes",
]
