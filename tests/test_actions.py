"""The event log's actions are one enumeration (``tournaments.actions.Action``), each with a
label a person can read in English and Italian; no code logs a free string."""

import re
from pathlib import Path

import pytest
from django.utils import translation

from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import log_event
from tournaments.models import TournamentEvent

ROOT = Path(__file__).resolve().parent.parent
DOTTED = re.compile(r"[\"'](?:tournaments|cashier|seating|payouts|formats|people)\.[a-z0-9_]+\.[a-z0-9_]+[\"']")


def test_no_code_writes_an_action_as_a_free_string():
    offenders = []
    for app in ("tournaments", "seating", "payouts"):
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts or path.name == "actions.py":
                continue
            for n, line in enumerate(path.read_text().splitlines(), 1):
                for m in DOTTED.finditer(line):
                    if m.group(0).strip("\"'") in Action.values:
                        offenders.append(f"{path.relative_to(ROOT)}:{n}: {m.group(0)}")
    assert offenders == [], "use tournaments.actions.Action: " + "; ".join(offenders)


@pytest.mark.django_db
def test_an_unknown_action_is_refused_and_writes_nothing(make_tournament, actor):
    t = make_tournament()
    with pytest.raises(ValueError):
        log_event(t, "cashier.lunch.eaten", actor)
    assert not TournamentEvent.objects.filter(tournament=t).exists()


@pytest.mark.django_db
def test_the_log_shows_labels_in_the_users_language(make_tournament, actor, director, client):
    t = make_tournament()
    log_event(t, Action.TOURNAMENTS_REGISTRATION_OPENED, actor)
    ev = TournamentEvent.objects.get(tournament=t)
    assert ev.action == "tournaments.registration.opened" and ev.action_label == "Registration opened"
    with translation.override("it"):
        assert ev.action_label == "Iscrizioni aperte"
    client.force_login(director)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Registration opened" in page
    api = client.get(f"/api/v1/tournaments/{t.pk}/events/", HTTP_ACCEPT_LANGUAGE="it").json()
    rows = api["results"] if isinstance(api, dict) else api
    assert rows[0]["action"] == "tournaments.registration.opened" and rows[0]["action_label"] == "Iscrizioni aperte"


def test_every_action_has_an_italian_label():
    with translation.override("en"):
        english = {m.value: str(m.label) for m in Action}
    with translation.override("it"):
        untranslated = [m.value for m in Action if str(m.label) == english[m.value]]
    assert untranslated == []
