"""Replay a logged draw from its seed and inputs (SEAT-01): ``manage.py replay_draw <event id>``.

Prints what ``GET /api/v1/tournaments/<id>/draws/<event id>/replay/`` answers (the logged
result, the recomputed one and ``matches``) as JSON, and exits with status 1 when they differ.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from seating import selectors
from tdmanager.errors import DomainError
from tournaments.models import TournamentEvent


class Command(BaseCommand):
    help = "Replay a logged draw (seats, a break, the final table, the seat pool, a pre-draw, a mystery envelope) from its seed."

    def add_arguments(self, parser):
        parser.add_argument("event", type=int, help="the draw's event-log id")

    def handle(self, *args, event, **options):
        tournament_id = TournamentEvent.objects.filter(pk=event).values_list("tournament_id", flat=True).first()
        if tournament_id is None:
            raise CommandError(f"no event {event} of a tournament in the log")
        try:
            answer = selectors.draw_replay(tournament_id, event)
        except DomainError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from None
        self.stdout.write(json.dumps(answer, indent=2, ensure_ascii=False))
        if not answer["matches"]:
            raise CommandError("the recomputed draw does not match the one logged")
