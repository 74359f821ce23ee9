"""Seating reacts to what tournaments announces (``tournaments.signals``). Each receiver runs
inside the sender's transaction, so a player is never paid without a seat record."""

from datetime import timedelta

from django.db.models.signals import post_save
from django.utils import timezone
from django.utils.translation import pgettext

from tournaments import signals
from tournaments.models import Tournament

from . import selectors, services
from .models import ENDED_EVENTS
from .services import cardrooms
from .services import dealers as roster


def entry_paid(sender, tournament, entry, actor, **kwargs):
    """A sale made an entry playing: once the tournament runs, seat it from the seat pool."""
    if isinstance(tournament, Tournament) and tournament.status != Tournament.RUNNING:
        return  # before the start: nothing to seat (seat_new_entry's own first test, without its savepoint)
    services.seat_new_entry(tournament, entry, actor)


def entry_revived(sender, tournament, entry, actor, **kwargs):
    """A busted entry bought back in (rebuy): its bust no longer counts; seat it again."""
    services.seat_new_entry(tournament, entry, actor, revived=True)


def person_changed(sender, person, **kwargs):
    """A name corrected or erased: the public seat lists show it anew."""
    services.names_changed(person)


def entry_revival_undone(sender, tournament, entry, actor, **kwargs):
    """A rebuy after a bust was reversed: the player is out again, his bust counts again."""
    services.undo_revival(tournament, entry, actor)


def entry_cancelled(sender, tournament, entry, actor, **kwargs):
    """An entry was cancelled (reversal, refund): free its seat."""
    services.release_seat(tournament, entry, actor)


def entry_removed(sender, tournament, entry, actor, reason="", **kwargs):
    """A player removed by a penalty (disqualification, PEN-07): out now, ranked by time."""
    services.remove_entry(tournament, entry, actor=actor, reason=reason)


def entries_forfeited(sender, tournament, entries, actor, reason="", now=None, **kwargs):
    """REG-09: the no-show deadline passed: the players not arrived are out together, seats freed."""
    services.forfeit_entries(tournament, entries, actor=actor, reason=reason, now=now)


def tournament_started(sender, tournament, actor, seat_later_sessions=False, **kwargs):
    """The tournament started: draw every paid entry into seats (after a draw in advance, its
    first session where it put them, SEAT-02)."""
    services.tournament_started(tournament, actor, seat_later_sessions=seat_later_sessions)


def h4h_hand_closed(sender, tournament, actor, **kwargs):
    """CLK-06: the director closed the hand-for-hand hand everywhere: the moves that waited for it are made."""
    services.hand_closed_everywhere(tournament, actor=actor)


# --- answers to what tournaments asks (read side) -------------------------------------------


def seat_wanted(sender, entry, **kwargs):
    return selectors.seat_of(entry)


def tables_wanted(sender, tournament, **kwargs):
    return selectors.table_numbers(tournament)


def h4h_hand_busts_wanted(sender, tournament, hand, **kwargs):
    return selectors.h4h_hand_busts(tournament, hand)


def last_bust_h4h_hand_wanted(sender, tournament, **kwargs):
    return selectors.last_bust_h4h_hand(tournament)


def table_players_wanted(sender, tournament, table, **kwargs):
    return selectors.players_at_table(tournament, table)


def tv_table_wanted(sender, tournament, **kwargs):
    return selectors.tv_table(tournament)


def room_wanted(sender, tournament, **kwargs):
    return selectors.room_for_entry(tournament)


def snapshot_parts(sender, tournament, **kwargs):
    return selectors.display_summary(tournament)


def seat_page_wanted(sender, tournament, page, size, **kwargs):
    return selectors.seat_page(tournament, page, size)


def entry_view_parts(sender, entry, **kwargs):
    return selectors.entry_view(entry)


def entries_view_parts(sender, tournament, snapshot, **kwargs):
    return selectors.entries_view(tournament)


def overview_parts(sender, tournament, **kwargs):
    return selectors.overview(tournament)


def predraw_sessions_wanted(sender, tournament, **kwargs):
    return selectors.predraw_sessions(tournament) or None


def page_links(sender, tournament, **kwargs):
    return selectors.tournament_links(tournament)


def tournament_saved(sender, instance, update_fields=None, **kwargs):
    """An event that ended (finished, cancelled, however it came to it) gives the room its tables
    back at once, and their dealers go to the pool."""
    if instance.status in ENDED_EVENTS and (update_fields is None or "status" in update_fields):
        cardrooms.event_ended(instance.pk)


DEMO_TABLES = (1, 12)  # the demo's room: tables 1 to 12, nine seats


def demo_loaded(sender, tournament, actor, dealers, **kwargs):
    """The demo's room: its name in the demo's language, tables 1 to 12 of nine seats, and its
    dealers on the roster from now for ten hours; the demo's event draws its tables there."""
    room = cardrooms.save_room(pgettext("demo data", "Main room"), actor=actor)
    cardrooms.add_tables(room, *DEMO_TABLES, seats=9, actor=actor)
    now = timezone.now()
    for dealer in dealers:
        roster.add_shift(room, dealer, now - timedelta(minutes=10), now + timedelta(hours=10), actor=actor)


def connect():
    post_save.connect(tournament_saved, sender=Tournament, dispatch_uid="seating.tournament_saved")
    signals.entry_paid.connect(entry_paid, dispatch_uid="seating.entry_paid")
    signals.entry_revived.connect(entry_revived, dispatch_uid="seating.entry_revived")
    signals.entry_cancelled.connect(entry_cancelled, dispatch_uid="seating.entry_cancelled")
    signals.person_changed.connect(person_changed, dispatch_uid="seating.person_changed")
    signals.entry_revival_undone.connect(entry_revival_undone, dispatch_uid="seating.entry_revival_undone")
    signals.entry_removed.connect(entry_removed, dispatch_uid="seating.entry_removed")
    signals.entries_forfeited.connect(entries_forfeited, dispatch_uid="seating.entries_forfeited")
    signals.tournament_started.connect(tournament_started, dispatch_uid="seating.tournament_started")
    signals.h4h_hand_closed.connect(h4h_hand_closed, dispatch_uid="seating.h4h_hand_closed")
    signals.seat_wanted.connect(seat_wanted, dispatch_uid="seating.seat_wanted")
    signals.tables_wanted.connect(tables_wanted, dispatch_uid="seating.tables_wanted")
    signals.last_bust_h4h_hand_wanted.connect(last_bust_h4h_hand_wanted, dispatch_uid="seating.last_bust_h4h_hand_wanted")
    signals.h4h_hand_busts_wanted.connect(h4h_hand_busts_wanted, dispatch_uid="seating.h4h_hand_busts_wanted")
    signals.table_players_wanted.connect(table_players_wanted, dispatch_uid="seating.table_players_wanted")
    signals.tv_table_wanted.connect(tv_table_wanted, dispatch_uid="seating.tv_table_wanted")
    signals.room_wanted.connect(room_wanted, dispatch_uid="seating.room_wanted")
    signals.snapshot_parts.connect(snapshot_parts, dispatch_uid="seating.snapshot_parts")
    signals.demo_loaded.connect(demo_loaded, dispatch_uid="seating.demo_loaded")
    signals.seat_page_wanted.connect(seat_page_wanted, dispatch_uid="seating.seat_page_wanted")
    signals.page_links.connect(page_links, dispatch_uid="seating.page_links")
    signals.predraw_sessions_wanted.connect(predraw_sessions_wanted, dispatch_uid="seating.predraw_sessions_wanted")
    signals.entry_view_parts.connect(entry_view_parts, dispatch_uid="seating.entry_view_parts")
    signals.entries_view_parts.connect(entries_view_parts, dispatch_uid="seating.entries_view_parts")
    signals.overview_parts.connect(overview_parts, dispatch_uid="seating.overview_parts")
