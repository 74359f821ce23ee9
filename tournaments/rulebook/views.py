"""The public rules page and change feed (BAL-05, FMT-02, ROLE-06): no login.

What a player should know before he sits down: the tables' official language(s) (TDA 6), the
house's balancing and breaking procedure (TDA 11-C: "a predetermined procedure"), the other
house rules that decide his tournament, and every change the director published to the event
(001 "Modifiche ed Integrazioni": changes are announced on the website), and the rulebook: every
rule with what it says and its source, so a player or a director can check a ruling. Both URLs
are in ``tdmanager.public.PUBLIC``: each request takes a token of its client address's bucket
before it reads anything, and reads two rows' worth: the tournament and its newest changes (the
rulebook is read once per process).
"""

from django.http import JsonResponse
from django.shortcuts import get_object_or_404, render

from tournaments.house import HouseRules
from tournaments.oversight import selectors as oversight_selectors
from tournaments.rulebook import rules as rulebook
from tournaments.rulebook import sheet as rulesheet
from tournaments.setup import selectors as setup_selectors

#: The newest published changes shown (the page and the feed), so a page's cost is bounded.
MAX_CHANGES = 20


def _changes(t) -> list[dict]:
    """The newest published versions: what changed (lines in the reader's language), when, and
    why where the director showed the reason to the players."""
    rows = t.changes.order_by("-version").only("version", "kind", "changes", "reason", "reason_public", "changed_at")[:MAX_CHANGES]
    return [
        {"version": c.version, "kind": c.kind, "when": c.changed_at, "lines": setup_selectors.change_lines(c), "reason": setup_selectors.public_reason(c)}
        for c in rows
    ]


def rules_page(request, pk: int):
    """The public rules page of one tournament, in the reader's language."""
    t = get_object_or_404(
        oversight_selectors.published_tournaments().only(
            "name", "game", "status", "start_at", "table_size", "rule_set", "settings", "late_reg_closes_after_level", "currency"
        ),
        pk=pk,
    )
    return render(
        request,
        "public_rules.html",
        {"t": t, "sheet": rulesheet.procedure(t), "changes": _changes(t), "game": t.get_game_display(), "rulebook": rulebook.rules()},
    )


def public_changes(request, pk: int):
    """FMT-02: the public change feed, JSON, newest first; with the official language(s) (ROLE-06)."""
    t = get_object_or_404(oversight_selectors.published_tournaments().only("name", "status", "table_size", "rule_set", "settings"), pk=pk)
    return JsonResponse(
        {
            "tournament": {"id": t.pk, "name": t.name, "status": t.status},
            "official_languages": HouseRules.of(t).official_languages,
            "changes": [{**c, "when": c["when"].isoformat()} for c in _changes(t)],
        }
    )
