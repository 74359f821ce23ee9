"""Stack choice (FMT-07): several buy-in products per tournament, each a price and a stack.

The sale goes through the cashier desk's own checks and helpers (lock, banned, late
registration, pre-booked late arrivals, field cap, cash limit, gapless receipt), with the
chosen option's buy-in, fee and chips on the ledger row. It is the cashier's ``register``
/ ``reenter`` with the price and stack of an option. Once ``cashier.register`` and
``cashier.reenter`` take an optional ``price=(buy_in, fee)`` and ``stack=`` (used instead of
the tournament's), this module can call them and stop using the cashier's private helpers.
"""

from decimal import Decimal

from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager import shown_text
from tdmanager.errors import ValidationFailed
from tdmanager.transactions import service
from tournaments.cashier import services as cashier
from tournaments.cashier.ledger import lock_tournament
from tournaments.cashier.services import Sale
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.house import HouseRules
from tournaments.models import Entry, Person, Tournament, checks

from ..models import EntryStackChoice, StackOption
from .common import FormatError


@service
def add_stack_option(tournament, *, label: str, buy_in: Decimal, fee: Decimal, chips: int, actor: Actor, override_reason: str = "") -> StackOption:
    """Offer one more buy-in product. Prices are fixed before registration opens (FMT-01):
    once it is open, the director must give a reason, which is logged."""
    t = lock_tournament(tournament)
    if t.status in (Tournament.FINISHED, Tournament.CANCELLED):
        raise FormatError("tournament_closed", _("This tournament has ended."))
    if t.status != Tournament.PLANNED and not override_reason.strip():
        raise FormatError("money_locked", _("Registration is open: give a reason to add a buy-in option."), status=400)
    shown_text.check(label, "label", _("Label"))
    if not label.strip():
        raise ValidationFailed("bad_option", _("An option needs a label, a price and a stack."))
    if t.stack_options.filter(label=label.strip()).exists():  # before the model's own check, which names no field
        raise ValidationFailed("duplicate_option", _("There is already an option called %(l)s.") % {"l": label})
    checks.clean(StackOption(tournament=t, label=label.strip(), buy_in=buy_in, fee=fee, chips=chips))
    option = checks.create(StackOption, tournament=t, label=label.strip(), buy_in=buy_in, fee=fee, chips=chips, position=t.stack_options.count())
    log_event(
        t,
        Action.FORMATS_STACKOPTION_ADDED,
        actor,
        option=option.pk,
        label=option.label,
        buy_in=str(buy_in),
        fee=str(fee),
        chips=chips,
        override_reason=override_reason,
    )
    return option


def _option_stack(t: Tournament, option: StackOption) -> int:
    """REG-04 / C6 applied to the chosen stack: full unless the house reduces late stacks
    (``HouseRules.late_stack``, the same answer as at the desk)."""
    if t.status != Tournament.RUNNING:
        return option.chips
    return HouseRules.of(t).late_stack(option.chips)


@service
def register_with_stack_choice(tournament, person, option, *, method: str, actor: Actor, now=None) -> Sale:
    """Sell an entry with the stack ``option`` chosen: a first entry, the payment of a
    reservation, or (after a bust, where the tournament allows it) a re-entry."""
    now = now or timezone.now()
    t = lock_tournament(tournament)
    option = StackOption.objects.get(pk=getattr(option, "pk", option))
    person = Person.objects.get(pk=person.pk)
    if option.tournament_id != t.pk or not option.active:
        raise FormatError("bad_option", _("This buy-in option is not sold for this tournament."), status=400)
    offer = cashier.Offer(buy_in=option.buy_in, fee=option.fee, chips=_option_stack(t, option), note=f"stack choice: {option.label}"[:200])
    mine = t.entries.filter(person=person).exclude(status=Entry.CANCELLED)
    busted_only = not mine.filter(status__in=(Entry.RESERVED, Entry.ACTIVE)).exists() and mine.filter(status=Entry.BUSTED).exists()
    sell = cashier.reenter if busted_only else cashier.register
    sale = sell(t, person, method=method, actor=actor, now=now, offer=offer)
    EntryStackChoice.objects.create(entry=sale.entry, option=option, buy_in=option.buy_in, fee=option.fee, chips=sale.entry.chips, created_at=now)
    return sale
