"""The started bounty event the bounty tests build on."""

from decimal import Decimal

from tournaments.cashier import services as cashier
from tournaments.setup import lifecycle


def bounty_event(make_tournament, make_person, cashier_actor, actor, players=4, **settings):
    """``players`` × (€50 pool + €50 bounty + €10 fee) sold at the desk, started; a PKO unless
    ``settings`` say otherwise (4 players: €200 of bounty money)."""
    t = make_tournament(buy_in=Decimal("50"), fee=Decimal("10"), settings={"bounty": "PKO", "bounty_amount": "50", **settings})
    entries = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(players)]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    t.refresh_from_db()
    return t, entries
