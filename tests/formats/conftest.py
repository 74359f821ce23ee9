"""Fixtures for the formats tests: a stand-in for seating's bust slip, and quick fields."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments.cashier import services as cashier
from tournaments.models import Entry


def bust(entry, at=None):
    """A player is out: what seating's bust slip records (status, time). Places are then given
    by the format's own ranking, or by bust order where the format ends with one player."""
    entry.refresh_from_db()
    entry.status, entry.busted_at = Entry.BUSTED, at or timezone.now()
    entry.save(update_fields=["status", "busted_at"])
    return entry


def bust_in_order(entries, start=None):
    start = start or timezone.now() - timedelta(hours=1)
    for i, e in enumerate(entries):
        bust(e, start + timedelta(minutes=i))


@pytest.fixture
def field(make_person, cashier_actor):
    """``field(t, n)`` registers n new players at the desk and returns their entries."""

    def register(t, n, method="CASH"):
        return [cashier.register(t, make_person(), method=method, actor=cashier_actor).entry for _ in range(n)]

    return register


def scored_event(series, make_tournament, field, actor, name):
    """A three-player event of ``series`` played to its end (the last registered wins, the first
    is 3rd) and scored; its entries, first registered first."""
    from tournaments.formats.services import series as series_service
    from tournaments.setup import lifecycle

    d = make_tournament(name=name)
    series_service.attach(series, d, actor=actor)
    es = field(d, 3)
    lifecycle.start(d, actor=actor)
    bust_in_order(es[:2])
    for place, e in zip((3, 2, 1), es, strict=True):
        Entry.objects.filter(pk=e.pk).update(place=place)
    lifecycle.finish(d, actor=actor)
    series_service.score_tournament(d, actor=actor)
    return es
