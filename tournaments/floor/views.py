"""The floor's pages: the overview of every running tournament, a tournament's floor tools, the
chip sets."""

from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from tournaments import labels
from tournaments.floor import overview, penalties
from tournaments.floor import services as floor_services
from tournaments.house import HouseRules
from tournaments.models import ChipSet, Entry, Tournament


def floor_overview(request):
    """Every running tournament at a glance, for the floor and the director."""
    return render(request, "floor_overview.html", {"data": overview.running_overview()})


def floor_page(request, pk):
    t = get_object_or_404(Tournament, pk=pk)
    entries = t.entries.filter(status=Entry.ACTIVE).select_related("person").order_by("person__last_name", "person__first_name")
    kinds = labels.penalty_kinds()
    selected = request.GET.get("entry")
    rules = HouseRules.of(t)
    reasons = labels.penalty_reasons(rules.penalty_reasons)  # PEN-08: the tournament's list
    return render(
        request,
        "floor.html",
        {
            "t": t,
            "entries": entries,
            "kinds": kinds,
            "reasons": reasons,
            "jackpot": rules.jackpot,
            "code_labels": labels.code_labels(rules.penalty_reasons),
            "limits": floor_services.penalty_limits(rules),
            # PEN-06, C28: under the heads-up preset the director picks how rounds count
            "heads_up_readings": [(code, _(label), 2 if code == penalties.ROUNDS_OF_TWO_HANDS else 1) for code, label in penalties.HEADS_UP_READINGS.items()],
            "selected_entry": int(selected) if selected and selected.isascii() and selected.isdigit() and len(selected) < 19 else None,
        },
    )


def chipsets_page(request):
    return render(request, "chipsets.html", {"chipsets": ChipSet.objects.prefetch_related("denominations")})
