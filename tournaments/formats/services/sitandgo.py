"""Sit & go (FMT-09): a tournament with a fixed stack and no rebuy that starts by itself
when its N-th player has paid (``tournaments.services.cashier.start_sit_and_go_when_full``)."""

from decimal import Decimal

from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager.transactions import service
from tournaments.actions import Action
from tournaments.models import Tournament
from tournaments.services import checks, setup
from tournaments.services.events import Actor, log_event

from .common import FormatError


@service
def create_sit_and_go(*, name: str, buy_in: Decimal, fee: Decimal, starting_stack: int, structure, actor: Actor,
                      tables: int = 1, start_at=None, game: str = "NLHE") -> Tournament:
    """A sit & go open for registration: 10 players per table (003 Art. 7), table size 10,
    no re-entry, no rebuy, no add-on. It starts when the last place is paid."""
    if tables < 1 or tables > 10:
        raise FormatError("bad_tables", _("A sit & go has between 1 and 10 tables."), status=400)
    if structure is None:
        raise FormatError("no_structure", _("Choose a blind structure."), status=400)
    players = 10 * tables
    t = checks.create(
        Tournament, name=name, start_at=start_at or timezone.now(), game=game, format=Tournament.SNG, status=Tournament.REGISTERING,
        buy_in=buy_in, fee=fee, starting_stack=starting_stack, table_size=10, field_cap=players, min_players=players,
        structure=structure, max_entries_per_player=1, settings={"sng_tables": tables},
    )
    log_event(t, Action.FORMATS_SITANDGO_CREATED, actor, players=players, tables=tables, buy_in=str(buy_in), fee=str(fee))
    setup.keep_typed_fee_as_override(t, actor, "the sit & go's fee as created")  # REG-03
    return t
