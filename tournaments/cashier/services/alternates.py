"""The alternates list: a player waiting for a place in a full field, admitted in turn.

An alternate admitted is sold his entry by the desk's own sale, so every rule of a buy-in holds.
"""

from django.utils.translation import gettext as _

from tdmanager.transactions import service
from tournaments.cashier.ledger import lock_tournament
from tournaments.cashier.services.admission import DeskError, check_not_banned
from tournaments.cashier.services.sales import Sale, register
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.models import Alternate, Person, Tournament


@service
def add_alternate(tournament, person, *, actor: Actor) -> Alternate:
    t = lock_tournament(tournament)
    person = Person.objects.get(pk=person.pk)
    _check_alternate(t, person)
    alt = Alternate.objects.create(tournament=t, person=person)
    log_event(t, Action.CASHIER_ALTERNATE_ADDED, actor, person=person.pk, name=person.full_name, position=alternate_position(alt))
    return alt


def _check_alternate(t: Tournament, person: Person) -> None:
    check_not_banned(person)
    if t.alternates.filter(person=person, status=Alternate.WAITING).exists():
        raise DeskError("already_alternate", _("%(name)s is already on the alternates list.") % {"name": person.full_name})


def alternate_position(alt: Alternate) -> int:
    return alt.tournament.alternates.filter(status=Alternate.WAITING, id__lte=alt.id).count()


@service
def admit_alternate(tournament, *, method: str, actor: Actor, now=None, tender_currency: str = "") -> Sale:
    """Sell the freed place to the first alternate in line (FIFO, REG-08)."""
    t = lock_tournament(tournament)
    alt = t.alternates.filter(status=Alternate.WAITING).order_by("created_at", "id").first()
    if alt is None:
        raise DeskError("no_alternates", _("Nobody is waiting on the alternates list."))
    sale = register(t, alt.person, method=method, actor=actor, now=now, tender_currency=tender_currency)
    alt.status, alt.entry = Alternate.ADMITTED, sale.entry
    alt.save(update_fields=["status", "entry"])
    return sale
