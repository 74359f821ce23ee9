"""Sit & go (FMT-09): a tournament with a fixed stack and no rebuy that starts by itself
when its N-th player has paid (:func:`start_sit_and_go_when_full`, answering the desk's
``signals.sit_and_go_place_paid``)."""

from decimal import Decimal

from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager import shown_text
from tdmanager.transactions import service
from tournaments.cashier import services as cashier
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.models import Entry, Tournament, checks
from tournaments.setup import lifecycle
from tournaments.setup import services as setup

from .common import FormatError


@service
def create_sit_and_go(
    *, name: str, buy_in: Decimal, fee: Decimal, starting_stack: int, structure, actor: Actor, tables: int = 1, start_at=None, game: str = "NLHE"
) -> Tournament:
    """A sit & go open for registration: 10 players per table (003 Art. 7), table size 10,
    no re-entry, no rebuy, no add-on. It starts when the last place is paid."""
    if tables < 1 or tables > 10:
        raise FormatError("bad_tables", _("A sit & go has between 1 and 10 tables."), status=400)
    if structure is None:
        raise FormatError("no_structure", _("Choose a blind structure."), status=400)
    players = 10 * tables
    shown_text.check(name, "name", _("Name"))
    t = checks.create(
        Tournament,
        name=name,
        start_at=start_at or timezone.now(),
        game=game,
        format=Tournament.SNG,
        status=Tournament.REGISTERING,
        buy_in=buy_in,
        fee=fee,
        starting_stack=starting_stack,
        table_size=10,
        field_cap=players,
        min_players=players,
        structure=structure,
        max_entries_per_player=1,
        settings={"sng_tables": tables},
    )
    log_event(t, Action.FORMATS_SITANDGO_CREATED, actor, players=players, tables=tables, buy_in=str(buy_in), fee=str(fee))
    setup.keep_typed_fee_as_override(t, actor, "the sit & go's fee as created")  # REG-03
    return t


def start_sit_and_go_when_full(sender, tournament: Tournament, actor: Actor, **kwargs) -> bool:
    """Start the sit & go by itself on its last registration: seats drawn, clock started; when
    the room has no free table for it, the sale stands and the sit & go waits for one.
    Answers ``signals.sit_and_go_place_paid`` inside the sale's transaction."""
    t = tournament
    if t.entries.filter(status=Entry.ACTIVE).count() < cashier.sit_and_go_size(t):
        return False
    started = lifecycle.start(t, actor=actor, start_clock=True, when_room_full=lifecycle.WAIT)
    if started.status != Tournament.RUNNING:
        return False
    t.status = Tournament.RUNNING
    log_event(t, Action.TOURNAMENTS_SITANDGO_STARTED, actor, players=cashier.sit_and_go_size(t))
    return True
