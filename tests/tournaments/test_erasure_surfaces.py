"""An erasure leaves nothing behind (#40 item 3): after a player who was corrected (a new name,
nickname, phone, e-mail) is erased, none of what he was called or could be reached at shows on
any surface of the room: every page and file a director or a cashier can open from their pages
(HTML, CSV, PDF, JSON), the API's lists and reports, and everything public (the lobby's state and
seat list, the seat lookup, the rules feed, his own phone page).

The room is the demo tournament, started, with the erased player the one already out."""

import json

import pytest
from django.test import Client

from payouts import reports
from tests.payouts.test_reports_italian import pdf_text
from tests.test_role_links import _route, demo, links_of, login, opens, role_starts  # noqa: F401 (demo: a fixture)
from tournaments.eventlog.services import Actor
from tournaments.models import Entry
from tournaments.people import privacy
from tournaments.people import services as people

pytestmark = pytest.mark.django_db

#: what the player was called and how he was reached, all told apart from anyone else's in the demo
KNOWN = {"first_name": "Zebedeo", "last_name": "Quarantotti", "nickname": "Zeb the Quiet", "phone": "+39 347 555 0199", "email": "zebedeo@example.org"}


def body_text(response) -> str:
    content_type = response.get("Content-Type", "")
    if getattr(response, "streaming", False):
        return ""
    if "pdf" in content_type:
        return pdf_text(response.content)
    return response.content.decode("utf-8", "replace")


def crawl(client, starts, limit=400, per_route=4) -> dict[str, str]:
    """Every same-origin address reachable from ``starts`` (at most ``per_route`` of each route):
    {path: the text it answers}, whatever it is (a page, a CSV, a PDF, JSON)."""
    from collections import deque

    queue, seen, routes, out = deque(starts), set(starts), {}, {}
    while queue and len(out) < limit:
        path = queue.popleft()
        response, final = opens(client, path)
        if isinstance(response, int) or response.status_code != 200:
            continue
        text = body_text(response)
        out[final] = text
        if "text/html" not in response.get("Content-Type", ""):
            continue
        for link in links_of(final, text):
            name = _route(link)
            if link in seen or routes.get(name, 0) >= per_route:
                continue
            seen.add(link)
            routes[name] = routes.get(name, 0) + 1
            queue.append(link)
    return out


def public_paths(t, entry) -> list[str]:
    """What anyone reads without a login: the lobby's state, seat list and screen, the rules and
    their changes, the player's own phone page and its state."""
    return [
        f"/live/{t.pk}/state/?token=walk-screen-token",
        f"/live/{t.pk}/seats/?token=walk-screen-token&size=200",
        f"/rules/{t.pk}/",
        f"/rules/{t.pk}/changes/",
        f"/p/{entry.phone_token}/",
        f"/p/{entry.phone_token}/state/",
        "/display/walk-screen-token/",
    ]


def test_nothing_of_an_erased_player_shows_anywhere(demo, director):
    t = demo
    actor = Actor(director, "test")
    out = t.entries.exclude(status=Entry.ACTIVE).order_by("pk").first()
    person = out.person
    people.update_person(person, actor=actor, **KNOWN)
    person.refresh_from_db()
    assert person.full_name == "Zebedeo Quarantotti"
    before = crawl(login("director", director), [f"/people/{person.pk}/"], limit=3)
    assert any("Quarantotti" in text for text in before.values())  # the search below can find him
    # The public surfaces are read before the erasure too, as the lobby and his phone read them:
    # whatever they keep in a cache must not outlive the erasure.
    anyone = Client()
    warm = {path: body_text(anyone.get(path)) for path in public_paths(t, out)}
    assert any(KNOWN["first_name"] in text for text in warm.values()), "no public surface showed him before: the test proves nothing"
    privacy.erase_person(person, "asked by the player", actor=actor)

    surfaces = {}
    for role in ("director", "cashier", "floor", "controller"):
        client = login(role, director)
        starts = role_starts(client, t) + [f"/people/{person.pk}/", f"/people/?q={KNOWN['last_name'][:5]}"]
        surfaces.update({f"{role} {path}": text for path, text in crawl(client, starts).items()})
    staff_api = login("director", director)
    for path in (
        f"/api/v1/people/?q={KNOWN['last_name'][:5]}",
        f"/api/v1/people/{person.pk}/",
        f"/api/v1/people/{person.pk}/export/",
        f"/api/v1/tournaments/{t.pk}/entries/",
        f"/api/v1/tournaments/{t.pk}/events/",
        f"/api/v1/tournaments/{t.pk}/ledger/",
        *(f"/api/v1/tournaments/{t.pk}/payouts/reports/{name}/?format_type={fmt}" for name in reports.REPORTS for fmt in ("json", "csv", "pdf")),
    ):
        response = staff_api.get(path)
        surfaces[f"api {path}"] = body_text(response) if response.status_code == 200 else ""
    for query in (KNOWN["first_name"], KNOWN["last_name"]):  # the lookup repeats what was typed: not his data
        for path in (f"/seats/{t.pk}/find/?q={query}", f"/seats/{t.pk}/?q={query}"):
            surfaces[f"public {path}"] = body_text(anyone.get(path)).replace(query, "…")
    for path in public_paths(t, out):
        surfaces[f"public {path}"] = body_text(anyone.get(path))

    assert len(surfaces) > 150, f"only {len(surfaces)} surfaces read: the walk was cut short"
    shown = {where: sorted(value for value in KNOWN.values() if value in text or json.dumps(value)[1:-1] in text) for where, text in surfaces.items()}
    shown = {where: values for where, values in shown.items() if values}
    assert not shown, f"{len(shown)} of {len(surfaces)} surfaces still show the erased player:\n" + "\n".join(f"  {w}: {v}" for w, v in sorted(shown.items()))
