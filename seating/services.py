"""Seating services (placeholder until the seating issue lands: entries are not seated yet)."""


def seat_new_entry(tournament, entry, actor):
    return None


def release_seat(tournament, entry, actor):
    return None


def tournament_started(tournament, actor):
    return None


def remove_entry(tournament, entry, actor, reason=""):
    from django.utils import timezone

    entry.status, entry.busted_at = "BUSTED", timezone.now()
    entry.save(update_fields=["status", "busted_at"])
