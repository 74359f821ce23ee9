"""The TV table's live stream (ROLE-08, PAY-09): the director says when it is on the air.

While it streams, payouts records no deal (``deal_streaming``) and the clock takes an extra
break only when the TV table is the final table. The state is the house setting
``streaming_live`` (one place for every per-tournament setting); this service is the one way
to change it, logged as its own action.
"""

from django.utils.translation import gettext as _

from tdmanager.errors import DomainError
from tdmanager.transactions import service
from tournaments import signals
from tournaments.cashier.ledger import lock_tournament
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.house import HouseRules
from tournaments.models import Tournament


class StreamingError(DomainError):
    pass


@service
def set_streaming_live(tournament, live: bool, *, actor: Actor) -> Tournament:
    """Put the tournament on the air (``live=True``) or take it off."""
    t = lock_tournament(tournament)
    live = bool(live)
    if HouseRules.of(t).streaming_live == live:
        raise StreamingError("streaming_unchanged", _("Streaming is already on.") if live else _("Streaming is already off."))
    if live and t.status in (Tournament.FINISHED, Tournament.CANCELLED):
        raise StreamingError("bad_status", _("The tournament is over."))
    t.settings = {**(t.settings if isinstance(t.settings, dict) else {}), "streaming_live": live}
    t.save(update_fields=["settings"])
    tv = signals.ask_one(signals.tv_table_wanted, tournament=t)
    log_event(t, Action.TOURNAMENTS_STREAMING_STARTED if live else Action.TOURNAMENTS_STREAMING_STOPPED, actor, tv_table=tv["table"] if tv else None)
    return t


def extra_break_refusal(t) -> str | None:
    """ROLE-08: while streaming live, extra breaks only when the TV table is the final table."""
    if not HouseRules.of(t).streaming_live:
        return None
    tv = signals.ask_one(signals.tv_table_wanted, tournament=t)
    if tv and tv["is_final"]:
        return None
    return _("Streaming live: an extra break is allowed only when the TV table is the final table (ROLE-08).")
