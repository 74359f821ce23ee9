"""The director's clock page."""

from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from tdmanager.security import no_store
from tournaments import labels
from tournaments.clock import rules as clock_rules
from tournaments.clock import selectors as clock_selectors
from tournaments.house import HouseRules
from tournaments.models import DisplayScreen, Entry, Tournament


def clock_page(request, pk):
    t = get_object_or_404(Tournament, pk=pk)
    items = list(t.structure.items.order_by("position")) if t.structure_id else []

    panels = [
        ("blinds", _("blinds")),
        ("stats", _("stats")),
        ("payouts", _("payouts")),
        ("seats", _("seat lookup")),
        ("announcements", _("announcements")),
        ("moves", _("moves")),
        ("sounds", _("sounds")),
    ]
    # CLK-10: the event's preset is chosen first and shows the event's own time.
    rules = HouseRules.of(t)
    shot_presets = [
        (
            name,
            labels.SHOT_CLOCK_PRESETS.get(name, labels.humanize(name)),
            (rules.clock_call_seconds, rules.clock_call_countdown_seconds) if name == rules.clock_call_preset else secs,
        )
        for name, secs in sorted(clock_rules.SHOT_CLOCK_PRESETS.items())
    ]
    response = render(
        request,
        "clock.html",
        {
            "t": t,
            "items": items,
            "rows": list(zip(items, clock_selectors.item_names(items))),
            # FMT-16: a structure whose levels name their game shows it by level
            "level_games": any(it.game for it in items if not it.is_break),
            "clock_statuses": {k: str(v) for k, v in labels.CLOCK_STATUSES.items()},
            "screens": DisplayScreen.objects.filter(tournament=t),
            "structure_warnings": clock_selectors.structure_warnings(clock_selectors.structure_items(t), clock_selectors.final_table_item(t)),
            "panel_choices": panels,
            "shot_presets": shot_presets,
            "shot_preset": rules.clock_call_preset,
            "shot_players": t.entries.filter(status=Entry.ACTIVE).select_related("person").order_by("person__last_name", "person__first_name"),
        },
    )
    return no_store(response)  # the lobby screens' links: their keys
