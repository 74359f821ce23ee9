"""Two floor people report busts at the same moment: the tournament lock makes them queue."""

import threading

import pytest
from django.db import connection

from seating import services
from seating.models import Bust
from tournaments.models import Entry

from .test_support import counts, seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def test_simultaneous_busts_at_two_tables_get_two_places_and_lose_nobody(started, actor):
    t = started(20)
    a = seat_map(t)[1][min(seat_map(t)[1])]
    b = seat_map(t)[2][min(seat_map(t)[2])]
    barrier = threading.Barrier(2)
    errors = []

    def report(entry):
        try:
            barrier.wait()
            services.record_bust(t.pk, [entry], actor=actor)
        except Exception as exc:  # noqa: BLE001 (shown by the assertion below)
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=report, args=(e,)) for e in (a, b)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    assert not errors
    assert sorted(Entry.objects.filter(pk__in=[a, b]).values_list("place", flat=True)) == [19, 20]
    assert sorted(Bust.objects.values_list("order", flat=True)) == [1, 2]
    assert sum(counts(t).values()) == 18
