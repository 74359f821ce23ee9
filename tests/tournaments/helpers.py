"""Test helpers: put a tournament's clock at a given level without waiting."""

from datetime import timedelta

from django.utils import timezone

from tournaments.clock import rules as clock_rules
from tournaments.clock import selectors as clock_selectors
from tournaments.models import Clock


def run_clock_at(tournament, item_index: int, seconds_left: float = 60, now=None):
    """A running clock on structure item ``item_index`` with ``seconds_left`` to go."""
    now = now or timezone.now()
    clock_selectors.structure_items(tournament)
    Clock.objects.update_or_create(
        tournament=tournament,
        defaults=dict(status=Clock.RUNNING, item_index=item_index, ends_at=now + timedelta(seconds=seconds_left), remaining=0, version=1),
    )
    tournament.refresh_from_db()
    return tournament


def item_index_of_level(tournament, level_number: int) -> int:
    return clock_rules.level_index(clock_selectors.structure_items(tournament), level_number)


def break_after_level(tournament, level_number: int) -> int:
    return item_index_of_level(tournament, level_number) + 1
