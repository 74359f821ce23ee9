"""The cashier desk, one module per verb as the house splits actions; every one a service.

The verbs: ``admission`` (the rules every path that creates an entry or moves money asks
first: cash limits, bans, windows, the field cap, ``check_admission``, the final table),
``offers`` (what the desk offers a player, button by button), ``sales`` (register,
pre-register, pay or cancel a reservation, re-enter, declare a rebuy, rebuy, add-on),
``corrections`` (reverse, refund, pay a cancelled event's refund), ``alternates``, ``rates``
(the day's exchange rate, a sale's foreign tender) and ``keys`` (the idempotency keys' purge).
A cashier's shift totals and a tournament's ledger totals are reads: ``tournaments.cashier.selectors``.

The names are gathered here for the callers that span the verbs (the pages, the API, the
tasks, the formats, payouts), which write ``from tournaments.services import cashier``; the
desk's own modules import the one they call.
"""

from __future__ import annotations

from tournaments.cashier.services.admission import (
    QUALIFIED,
    RESERVATION,
    SATELLITE_SEAT,
    TICKET,
    DeskError,
    cash_limit,
    check_admission,
    check_cash_limit,
    check_cash_split,
    check_method,
    check_not_banned,
    entry_at_desk,
    places_taken,
    sells_rebuys,
    sit_and_go_size,
)
from tournaments.cashier.services.alternates import add_alternate, admit_alternate, alternate_position
from tournaments.cashier.services.corrections import pay_refund, refund, reverse, reversing_row
from tournaments.cashier.services.keys import purge_idempotency_keys
from tournaments.cashier.services.offers import desk_offers
from tournaments.cashier.services.rates import day_rate, set_exchange_rate
from tournaments.cashier.services.sales import Offer, Sale, addon, cancel_reservation, declare_rebuy, pay_reservation, pre_register, rebuy, reenter, register

__all__ = [
    "QUALIFIED",
    "RESERVATION",
    "SATELLITE_SEAT",
    "TICKET",
    "DeskError",
    "Offer",
    "Sale",
    "add_alternate",
    "addon",
    "admit_alternate",
    "alternate_position",
    "cancel_reservation",
    "cash_limit",
    "check_admission",
    "check_cash_limit",
    "check_cash_split",
    "check_method",
    "check_not_banned",
    "day_rate",
    "declare_rebuy",
    "desk_offers",
    "entry_at_desk",
    "pay_refund",
    "pay_reservation",
    "places_taken",
    "pre_register",
    "purge_idempotency_keys",
    "rebuy",
    "reenter",
    "refund",
    "register",
    "reversing_row",
    "reverse",
    "sells_rebuys",
    "set_exchange_rate",
    "sit_and_go_size",
]
