"""Formats answers what tournaments asks and announces: its pages' links, a heads-up event's
lobby screen, and the start of a sit & go whose last place is paid."""

from django.utils.translation import gettext as _

from tournaments import signals
from tournaments.eventlog.actions import Action
from tournaments.models import Tournament

from . import selectors
from .services import headsup, multiday, series, sitandgo, timed
from .views import bracket_display


def page_links(sender, tournament, **kwargs):
    return selectors.format_links(tournament)


def display_wanted(sender, tournament, request, **kwargs):
    """A heads-up event has no room clock: its lobby screen shows the bracket (FMT-12)."""
    if tournament.format == Tournament.HEADS_UP and getattr(tournament, "bracket", None) is not None:
        return bracket_display(request, tournament.pk)
    return None


def place_spans_pending(sender, tournament, **kwargs):
    """A heads-up round under way: its place is shared by all the round's losers (payouts)."""
    return selectors.rounds_being_decided(tournament) or None


def league_panel(sender, tournament, **kwargs):
    """A tournament of a league: its lobby screens show the standings (from the cache)."""
    return selectors.league_panel(tournament)


def entries_league(sender, tournament, snapshot=None, **kwargs):
    """Each player's phone shows his standing in the tournament's league."""
    standing = selectors.league_standing_by_person(tournament)
    if not standing:
        return None
    people = tournament.entries.exclude(person_id__isnull=True).values_list("pk", "person_id")
    return {pk: {"league": standing[person]} for pk, person in people if person in standing}


def entry_league(sender, entry, **kwargs):
    line = selectors.league_standing_by_person(entry.tournament).get(entry.person_id)
    return {"league": line} if line else None


def history_parts(sender, person, entries, **kwargs):
    return selectors.league_points_by_entry(entries)


def entry_cancel_checked(sender, tournament, entry, **kwargs):
    """FMT-12: a player drawn in a heads-up bracket is not cancelled by a reversal or a refund
    while it plays: his matches decide (a no-show's seat is freed at the end of level 1)."""
    if tournament.format != Tournament.HEADS_UP:
        return None
    if not selectors.drawn_in_bracket(tournament, entry):
        return None
    return _("%(name)s is drawn in the bracket: the matches decide who leaves, this entry cannot be cancelled.") % {"name": entry.person.full_name}


def field_cap_checked(sender, tournament, field_cap=None, **kwargs):
    """FMT-12: a heads-up bracket has a place for each player: the desk never sells more."""
    size = selectors.bracket_size(tournament)
    if size is None or (field_cap is not None and field_cap <= size):
        return None
    return _("The bracket has %(n)s places: the field cap is at most %(n)s.") % {"n": size}


def person_changed(sender, person, **kwargs):
    """A player's name was corrected or erased: the public leaderboards he is on build again
    (now and at commit, as when points change), rather than show the old name until they expire,
    and the archives of closed cycles name him as he is named now."""
    series.rename_in_archives(person)


def person_data_wanted(sender, person, **kwargs):
    """A person's data export (GDPR access) holds his league results brought in from a sheet."""
    return {"league_past_results": selectors.past_results_of(person.pk)}


def series_players_wanted(sender, tournament, people, **kwargs):
    """The players of the tournament's series among ``people`` (the players' notices)."""
    return selectors.series_players(tournament, people) or None


REPLAYERS = {
    Action.FORMATS_BRACKET_DRAWN: headsup.replay_bracket,
    Action.FORMATS_TIMED_FINISHED: timed.replay_finish,  # equal stacks ranked by a draw
    Action.FORMATS_FLIGHT_CLOSED: multiday.replay_chip_leaders,  # equal bags ordered by a draw
}


def draw_replay_wanted(sender, tournament, action=None, **kwargs):
    """The formats' draws replay from their logged seeds (``seating.replay``)."""
    return REPLAYERS.get(action)


def connect():
    signals.draw_replay_wanted.connect(draw_replay_wanted, dispatch_uid="formats.draw_replay_wanted")
    signals.entry_cancel_checked.connect(entry_cancel_checked, dispatch_uid="formats.entry_cancel_checked")
    signals.field_cap_checked.connect(field_cap_checked, dispatch_uid="formats.field_cap_checked")
    signals.snapshot_parts.connect(league_panel, dispatch_uid="formats.league_panel")
    signals.entries_view_parts.connect(entries_league, dispatch_uid="formats.entries_league")
    signals.entry_view_parts.connect(entry_league, dispatch_uid="formats.entry_league")
    signals.history_parts.connect(history_parts, dispatch_uid="formats.history_parts")
    signals.person_changed.connect(person_changed, dispatch_uid="formats.person_changed")
    signals.person_data_wanted.connect(person_data_wanted, dispatch_uid="formats.person_data_wanted")
    signals.page_links.connect(page_links, dispatch_uid="formats.page_links")
    signals.series_players_wanted.connect(series_players_wanted, dispatch_uid="formats.series_players_wanted")
    signals.display_wanted.connect(display_wanted, dispatch_uid="formats.display_wanted")
    signals.place_spans_pending.connect(place_spans_pending, dispatch_uid="formats.place_spans_pending")
    signals.sit_and_go_place_paid.connect(sitandgo.start_sit_and_go_when_full, dispatch_uid="formats.sit_and_go_start")
