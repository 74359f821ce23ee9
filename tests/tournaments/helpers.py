"""Test helpers: put a tournament's clock at a given level without waiting."""

from datetime import timedelta

from django.utils import timezone

from tournaments.clock import rules as engine
from tournaments.clock import selectors as clockview
from tournaments.models import Clock


def run_clock_at(tournament, item_index: int, seconds_left: float = 60, now=None):
    """A running clock on structure item ``item_index`` with ``seconds_left`` to go."""
    now = now or timezone.now()
    clockview.structure_items(tournament)
    Clock.objects.update_or_create(
        tournament=tournament,
        defaults=dict(status=Clock.RUNNING, item_index=item_index, ends_at=now + timedelta(seconds=seconds_left), remaining=0, version=1),
    )
    tournament.refresh_from_db()
    return tournament


def item_index_of_level(tournament, level_number: int) -> int:
    return engine.level_index(clockview.structure_items(tournament), level_number)


def break_after_level(tournament, level_number: int) -> int:
    return item_index_of_level(tournament, level_number) + 1
