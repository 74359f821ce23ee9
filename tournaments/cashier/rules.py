"""The statutory entry fee (REG-03 / C15) and foreign tender (REG-06): pure arithmetic.

No Django import: the setup service, the cashier desk, the serializers and the tests call the
same functions, so a fee or a conversion is worked out in one place.

REG-03 (003 Art. 4.3): «la quota di iscrizione sarà pari al 10% della puntata stessa per tornei
fino ad €3.000, e il 6% per quelli da €3.001 e oltre». The rate applies to the *whole* buy-in
(not marginally): €3,000 pays €300 and €3,001 pays €180.06 (RULES.md scenario 20 and the
discontinuity note of REG-03). Rounded to the cent, half up (an [INFERENCE] of RULES.md).

A ``fee_override`` (a house rule) replaces the statutory fee: the daily events' flat €20
(003 Allegato 1, FMT-10) or an international event's own fee.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, ROUND_UP, Decimal

from tdmanager.money import CENT, round_money, to_money

#: The buy-in up to which the fee is 10 % (inclusive); above it, 6 % of the whole buy-in.
THRESHOLD = Decimal("3000")
RATE_UP_TO_THRESHOLD = Decimal("10")
RATE_ABOVE_THRESHOLD = Decimal("6")

#: Fee presets a tournament is created with (the venue's choices): name → the override
#: (None: the statutory fee) and the reason the event log keeps for it.
STATUTORY = "STATUTORY"
SANREMO_DAILY = "SANREMO_DAILY"
PRESETS: dict[str, tuple[Decimal | None, str]] = {
    STATUTORY: (None, "REG-03: 10 % up to 3,000, 6 % above (003 Art. 4.3)"),
    SANREMO_DAILY: (Decimal("20.00"), "FMT-10: daily event, flat 20 fee (003 Allegato 1)"),
}

#: REG-06: the only foreign currencies the desk takes.
FOREIGN_CURRENCIES = ("USD", "CHF")


def statutory_fee(buy_in) -> Decimal:
    """REG-03: 10 % of the buy-in up to 3,000, 6 % of it above; to the cent, half up."""
    buy_in = to_money(buy_in)
    if buy_in < 0:
        raise ValueError("a buy-in is never negative")
    rate = RATE_UP_TO_THRESHOLD if buy_in <= THRESHOLD else RATE_ABOVE_THRESHOLD
    return round_money(buy_in * rate / Decimal(100), CENT, ROUND_HALF_UP)


def entry_fee(buy_in, override=None) -> Decimal:
    """The fee a tournament charges: the override when one is set, else the statutory fee."""
    if override is not None:
        override = round_money(to_money(override))
        if override < 0:
            raise ValueError("a fee is never negative")
        return override
    return statutory_fee(buy_in)


def is_override(buy_in, fee) -> bool:
    """The fee differs from the statutory one (shown and logged as an override)."""
    return round_money(to_money(fee)) != statutory_fee(buy_in)


def foreign_due(amount, rate) -> Decimal:
    """REG-06: what a player pays in a foreign currency for ``amount`` of the tournament's
    currency, at ``rate`` (tournament-currency units for one foreign unit). Rounded up to the
    cent so that the converted tender always covers the amount booked."""
    amount, rate = to_money(amount), to_money(rate)
    if rate <= 0:
        raise ValueError("an exchange rate is positive")
    return (amount / rate).quantize(CENT, rounding=ROUND_UP)


def converted(tendered, rate) -> Decimal:
    """``tendered`` foreign units in the tournament's currency at ``rate``, to the cent (half up)."""
    return round_money(to_money(tendered) * to_money(rate))


@dataclass(frozen=True)
class Tender:
    """A sale paid in a foreign currency (REG-06) at the rate of the day."""

    currency: str
    rate: Decimal

    def due(self, amount) -> Decimal:
        """What the player pays, in ``currency``, for ``amount`` of the tournament's currency."""
        return foreign_due(amount, self.rate)

    def converted(self, amount) -> Decimal:
        """The tender for ``amount``, converted back to the tournament's currency (≥ ``amount``)."""
        return converted(self.due(amount), self.rate)
