"""A corrected or erased name × the public seat list (issue 38, found by the simulated days: day
seed 700074). The lobby screens' seat list is built once per seats version and kept by every
process; a name corrected, or a player erased after his event ended with him still at a table,
showed the old name on the seat pages until somebody moved. A name change builds the list anew."""

import pytest

from seating import services
from tournaments.eventlog.services import Actor
from tournaments.live import seats
from tournaments.models import Entry, Tournament
from tournaments.people import privacy
from tournaments.people.names import public_name
from tournaments.setup import lifecycle

from .test_support import started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def names(t) -> list[str]:
    return [s["name"] for s in seats.seat_page(t.pk, 1, 200)["seats"]]


def test_a_corrected_name_shows_on_the_seat_pages_at_once(started, api, director):
    t = started(6)
    entry = Entry.objects.filter(tournament=t).select_related("person").first()
    before = names(t)  # built, and kept
    shown = public_name(entry.person.first_name, entry.person.last_name)  # as every public page names players
    assert shown in before
    r = api(director).patch(f"/api/v1/people/{entry.person.pk}/", {"last_name": "Bianchi", "reason": "misspelt"}, format="json")
    assert r.status_code == 200, r.json()
    after = names(t)
    assert f"{entry.person.first_name} B." in after and shown not in after


def test_an_erased_player_still_at_a_finished_events_table_is_gone_from_its_seat_pages(started, actor, director):
    t = started(6)
    entry = Entry.objects.filter(tournament=t).select_related("person").first()
    lifecycle.finish(t, actor=actor)
    t = Tournament.objects.get(pk=t.pk)
    assert public_name(entry.person.first_name, entry.person.last_name) in names(t)
    privacy.erase_person(entry.person, "asked to be forgotten", actor=Actor(director, "test"))
    shown = " ".join(names(t))
    assert public_name(entry.person.first_name, entry.person.last_name) not in shown and f"Erased player #{entry.person.pk}" in shown


def test_a_corrected_name_then_a_bust_the_seat_pages_show_the_new_name_and_not_the_player_out(started, api, director, actor):
    t = started(6)
    entry, out = Entry.objects.filter(tournament=t).select_related("person").order_by("number")[:2]
    before = names(t)  # built, and kept
    assert public_name(out.person.first_name, out.person.last_name) in before
    r = api(director).patch(f"/api/v1/people/{entry.person.pk}/", {"last_name": "Bianchi", "reason": "misspelt"}, format="json")
    assert r.status_code == 200, r.json()
    services.record_bust(t, [out.pk], actor=actor)  # nobody reads the seat pages in between
    after = names(t)
    assert f"{entry.person.first_name} B." in after
    assert public_name(out.person.first_name, out.person.last_name) not in after and len(after) == 5
