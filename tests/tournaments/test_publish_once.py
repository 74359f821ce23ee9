"""Issue #15: a change is published once per transaction, however many events it logs.

Every web process's hub builds the lobby's snapshot again for each publication it hears, and
the first build already shows everything the transaction committed: a sale that seats the
player, a bust that proposes the balancing moves are one change for the screens. A publication
made in a savepoint that rolls back is gone with it; one that commits is never lost.
"""

import pytest
from django.db import transaction

from seating import services as seating
from seating.models import Seat
from tdmanager.transactions import unit_of_work
from tests.seating.test_support import started  # noqa: F401  (the fixture)
from tournaments.cashier import services as cashier
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import log_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(monkeypatch):
    """The publications the services make, as (tournament, action)."""
    from tdmanager import realtime

    out = []
    monkeypatch.setattr(realtime, "tournament_changed", lambda tid, action="": out.append((tid, action)))
    return out


def test_a_late_sale_that_seats_the_player_is_published_once(started, make_person, cashier_actor, published, django_capture_on_commit_callbacks):
    t = started(20)
    with django_capture_on_commit_callbacks(execute=True):
        sale = cashier.register(t, make_person("Late"), method="CASH", actor=cashier_actor)
    assert Seat.objects.filter(entry_id=sale.entry.pk).exists()
    assert [tid for tid, _action in published] == [t.pk]
    assert t.events.filter(action=Action.SEATING_PLAYER_SEATED).exists()  # two events, one publication


def test_a_bust_that_proposes_moves_is_published_once(started, actor, published, django_capture_on_commit_callbacks):
    t = started(18)  # two tables of 9
    table_one = list(Seat.objects.filter(tournament=t, table__number=1).values_list("entry_id", flat=True)[:2])
    with django_capture_on_commit_callbacks(execute=True):
        seating.record_bust(t, [{"entry": table_one[0]}], actor=actor)
    with django_capture_on_commit_callbacks(execute=True):
        out = seating.record_bust(t, [{"entry": table_one[1]}], actor=actor)  # 7 against 9: a move is proposed
    assert out.proposed, "the second bust should propose a balancing move"
    assert [tid for tid, _action in published] == [t.pk, t.pk]  # one per bust


def test_one_publication_per_tournament_and_transaction_with_the_last_action(make_tournament, actor, published, django_capture_on_commit_callbacks):
    a, b = make_tournament(name="A"), make_tournament(name="B")
    with django_capture_on_commit_callbacks(execute=True):
        with unit_of_work():
            log_event(a, Action.TOURNAMENTS_CLOCK_PAUSED, actor)
            log_event(b, Action.TOURNAMENTS_CLOCK_PAUSED, actor)
            log_event(a, Action.TOURNAMENTS_CLOCK_RESUMED, actor)
    assert sorted(published) == sorted([(a.pk, Action.TOURNAMENTS_CLOCK_RESUMED.value), (b.pk, Action.TOURNAMENTS_CLOCK_PAUSED.value)])


def test_a_savepoint_rolled_back_takes_only_its_own_publication(make_tournament, actor, published, django_capture_on_commit_callbacks):
    t = make_tournament()

    def rolled_back():
        try:
            with transaction.atomic():
                log_event(t, Action.TOURNAMENTS_CLOCK_PAUSED, actor)
                raise RuntimeError("refused")
        except RuntimeError:
            pass

    # The savepoint's publication goes with it; the event logged after it is published.
    with django_capture_on_commit_callbacks(execute=True):
        with unit_of_work():
            rolled_back()
            log_event(t, Action.TOURNAMENTS_CLOCK_RESUMED, actor)
    assert published == [(t.pk, Action.TOURNAMENTS_CLOCK_RESUMED.value)]

    # A publication made before a savepoint rolls back is kept (once).
    published.clear()
    with django_capture_on_commit_callbacks(execute=True):
        with unit_of_work():
            log_event(t, Action.TOURNAMENTS_CLOCK_RESUMED, actor)
            rolled_back()
    assert [tid for tid, _action in published] == [t.pk]

    # One made in a savepoint that commits serves the events after it.
    published.clear()
    with django_capture_on_commit_callbacks(execute=True):
        with unit_of_work():
            with transaction.atomic():
                log_event(t, Action.TOURNAMENTS_CLOCK_PAUSED, actor)
            log_event(t, Action.TOURNAMENTS_CLOCK_RESUMED, actor)
    assert published == [(t.pk, Action.TOURNAMENTS_CLOCK_RESUMED.value)]

    # Nothing committed, nothing published.
    published.clear()
    with django_capture_on_commit_callbacks(execute=True):
        try:
            with unit_of_work():
                log_event(t, Action.TOURNAMENTS_CLOCK_PAUSED, actor)
                raise RuntimeError("refused")
        except RuntimeError:
            pass
    assert published == []
