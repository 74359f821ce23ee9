"""GDPR storage limitation: erase the people with no activity for TDM_PERSON_RETENTION_DAYS.

Beat runs the same daily (``tournaments.tasks.erase_inactive_people``). Each person is erased as
the director's erasure does it (``tournaments.people.privacy.erase_person``): a pseudonym, the
money trail kept, one event-log row by the system with the reason; one with money still open is
kept and listed.
"""

from django.core.management.base import BaseCommand

from tournaments.people import privacy


class Command(BaseCommand):
    help = "Erase the personal data of people with no activity for TDM_PERSON_RETENTION_DAYS (pseudonym and money trail kept)."

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=None, help="days without activity (default: TDM_PERSON_RETENTION_DAYS; 0: nobody)")
        parser.add_argument("--dry-run", action="store_true", help="list who would be erased, erase nobody")

    def handle(self, days=None, dry_run=False, **opts):
        result = privacy.erase_inactive(days, dry_run=dry_run)
        verb = "would be erased" if dry_run else "erased"
        self.stdout.write(
            f"{len(result['erased'])} people {verb} (no activity for {result['days']} days): " + (", ".join(f"#{pk}" for pk in result["erased"]) or "none")
        )
        for kept in result["kept"]:
            self.stdout.write(f"#{kept['person']} kept: {kept['code']}")
