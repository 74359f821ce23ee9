"""Issue #38, found by the simulator: nine players at two 8-max tables (the final table seats
nine); a bust combined the eight left at the final table, and undoing it gave the player back a
seat at that final table: the table map was not what it had been before the mistake. An undo puts
every table back as it was, the final table the bust formed included."""

import pytest

from seating import services as seating
from seating.models import Bust, Seat
from tournaments.cashier import services as cashier
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db


def table_map(t) -> dict:
    out = {}
    for table, seat, entry in Seat.objects.filter(tournament=t, entry__isnull=False).values_list("table__number", "number", "entry_id"):
        out.setdefault(table, {})[seat] = entry
    return out


def test_undoing_the_bust_that_formed_the_final_table_restores_both_tables(api, director, make_tournament, make_person, cashier_actor, actor):
    t = make_tournament(table_size=8)
    for _ in range(9):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    before = table_map(t)
    assert len(before) == 2  # nine players do not fit an 8-max table
    out = next(iter(before[1].values()))
    seating.record_bust(t, [out], actor=actor)
    assert len(table_map(t)) == 1  # the final table, nine seats, formed by the bust
    bust = Bust.objects.get(tournament=t, entry_id=out)
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/busts/{bust.pk}/undo/", {"reason": "wrong player"}, format="json")
    assert r.status_code in (200, 201), r.content
    assert table_map(t) == before
