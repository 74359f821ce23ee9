"""The blind structures' page."""

from django.shortcuts import render

from tournaments import labels
from tournaments.clock import selectors as clock_selectors
from tournaments.models import BlindStructure
from tournaments.structures import services as structure_services


def structures_page(request):
    structures = list(BlindStructure.objects.prefetch_related("items"))
    for s in structures:  # each row named as players say it: "Level 5", "Break after level 4"
        items = list(s.items.all())
        s.rows = list(zip(items, clock_selectors.item_names(items)))
    # FMT-16: the director picks each level's game (a mixed event) from the configured list.
    level_games = [(code, labels.game_label(code)) for code in structure_services.LEVEL_GAMES]
    return render(request, "structures.html", {"structures": structures, "level_games": level_games})
