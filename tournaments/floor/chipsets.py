"""The venue's chip sets: a director saves one (its name and denominations, each with its
colour and the quantity owned) or deletes one. The API (``ChipSetViewSet``) and the chip sets
page (through that API) call these services; each change is logged."""

from django.utils.translation import gettext as _

from tdmanager import shown_text
from tdmanager.transactions import service
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.models import ChipDenomination, ChipSet
from tournaments.models.checks import clean


def _summary(chip_set: ChipSet, denominations: list[dict]) -> dict:
    return {
        "chip_set": chip_set.pk,
        "name": chip_set.name,
        "denominations": [{"value": d["value"], "colour": d.get("colour", ""), "quantity": d.get("quantity", 0)} for d in denominations],
    }


@service
def save_chip_set(*, name: str | None, denominations: list[dict] | None, actor: Actor, chip_set: ChipSet | None = None) -> ChipSet:
    """A new chip set, or ``chip_set`` changed: its ``name`` and, when given, its ``denominations``
    (``[{"value", "colour", "quantity"}]``, replacing the ones it had). None leaves a value as it is."""
    shown_text.check(name, "name", _("Name"))
    if chip_set is None:
        chip_set = clean(ChipSet(name=name))
        chip_set.save(force_insert=True)
    else:
        chip_set = ChipSet.objects.select_for_update().get(pk=chip_set.pk)
        if name is not None:
            chip_set.name = name
        clean(chip_set)
        chip_set.save()
    if denominations is not None:
        chip_set.denominations.all().delete()
        ChipDenomination.objects.bulk_create(ChipDenomination(chip_set=chip_set, **d) for d in denominations)
    else:
        denominations = list(chip_set.denominations.order_by("value").values("value", "colour", "quantity"))
    log_event(None, Action.TOURNAMENTS_CHIPSET_SAVED, actor, **_summary(chip_set, denominations))
    return chip_set


@service
def delete_chip_set(chip_set: ChipSet, *, actor: Actor) -> None:
    chip_set = ChipSet.objects.select_for_update().get(pk=chip_set.pk)
    pk, name = chip_set.pk, chip_set.name
    chip_set.delete()
    log_event(None, Action.TOURNAMENTS_CHIPSET_DELETED, actor, chip_set=pk, name=name)
