"""The event log reads as sentences (issue #14): every action has a translatable sentence filled
from its payload; seat maps, card orders and ids never reach the page; money and numbers follow
the active language; an old row whose payload lacks a key still reads (as the action's label)."""

import re

import pytest
from django.utils import translation

from tournaments import eventlog
from tournaments.actions import Action
from tournaments.services import cashier
from tournaments.services.events import log_event

PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _template(action):
    t = eventlog.SENTENCES[action]
    return t[0] if isinstance(t, tuple) else t


class _Echo(dict):
    """Fills a template with its own placeholders (and a count of 2), to read which keys it names."""

    def __missing__(self, key):
        return 2 if key == "count" else f"%({key})s"


def _payload_for(action) -> dict:
    """A payload carrying every key the action's sentence names (as the services write them)."""
    with translation.override("en"):
        text = str(_template(action) % _Echo())
    p: dict = {}
    for key in PLACEHOLDER.findall(text):
        if key in ("actor", "reason_suffix", "ante_suffix"):
            continue
        if key == "moves_count":
            p["moves"] = [1, 2]
        elif key == "busts":
            p["busts"] = [{"entry": 7, "table": 3, "seat": 4, "place": 12}]
        elif key == "where":
            p.update(level=9, is_break=False)
        elif key == "time_left":
            p["seconds_left"] = 125
        elif key == "witnessed_label":
            p["witnessed"] = Action.SEATING_DRAW_INITIAL.value
        elif key == "winners":
            p["winners"] = [4, 9]
        elif key == "copied_from":
            p["source_name"] = "Sunday Special"
        elif key == "names":
            p["names"] = ["Anna Verdi", "Luca Neri"]
        else:
            p[key] = 2
    if isinstance(eventlog.SENTENCES[action], tuple):
        p.setdefault(eventlog.SENTENCES[action][1], 2)
    return p


def test_every_action_has_a_sentence():
    missing = [a.value for a in Action if a not in eventlog.SENTENCES]
    assert missing == []


@pytest.mark.parametrize("action", list(Action))
@pytest.mark.parametrize("lang", ["en", "it"])
def test_every_sentence_is_filled_from_its_payload(action, lang):
    payload = _payload_for(action)
    payload.update(before=[{"number": 1, "in_play": True, "seats": {"1": 5}}], card_order=[[1, "A♠"]], rng="secrets")
    with translation.override(lang):
        text = eventlog.sentence(action.value, payload, actor="anna", currency="EUR", entries={7: "Mario Rossi (#31)"})
        label = Action.label_of(action.value)
    assert text and "%(" not in text and "{" not in text and "[" not in text, text
    assert "in_play" not in text and "A♠" not in text and "secrets" not in text
    if PLACEHOLDER.search(str(_template(action))):  # a sentence with data is not the bare label fallback
        assert text != label, f"{action.value}: the sentence could not be filled"


def test_the_issue_example_reads_as_a_sentence_in_both_languages():
    p = {"entry": 31, "entry_number": 31, "person": 5, "name": "Mario Rossi", "receipt": 9, "amount": "1100.00", "method": "CASH", "chips": 30000}
    with translation.override("en"):
        assert eventlog.sentence(Action.CASHIER_BUYIN_SOLD.value, p, actor="anna", currency="EUR") == \
            "Anna sold entry #31 to Mario Rossi — 1,100.00 EUR cash"
    with translation.override("it"):
        assert eventlog.sentence(Action.CASHIER_BUYIN_SOLD.value, p, actor="anna", currency="EUR") == \
            "Anna ha venduto l'entry #31 a Mario Rossi — 1.100,00 EUR contanti"


@translation.override("en")
def test_a_missing_key_falls_back_to_the_label_and_an_unknown_action_to_its_text():
    assert eventlog.sentence(Action.SEATING_SEAT_LOCKED.value, {}, actor="x") == "Seat locked"
    assert eventlog.sentence("old.renamed.action", {"x": 1}) == "old.renamed.action"
    assert eventlog.sentence(Action.TOURNAMENTS_CLOCK_STARTED.value, {"level": 1}, actor="system") == "TDManager started the clock at level 1"


def test_penalties_and_busts_read_with_labels_and_names():
    with translation.override("it"):
        text = eventlog.sentence(Action.TOURNAMENTS_PENALTY_ISSUED.value,
                                 {"name": "Anna Verdi", "kind": "MISSED_ROUNDS", "reason_code": "SOFT_PLAY"}, actor="flo")
    assert "MISSED_ROUNDS" not in text and "SOFT_PLAY" not in text
    assert "Anna Verdi" in text and "Giri saltati" in text and "Soft play" in text
    with translation.override("en"):
        _bust_sentence_in_english()


def _bust_sentence_in_english():
    bust = {"busts": [{"entry": 7, "table": 3, "seat": 4, "place": 12}], "before": [{"seats": {}}], "kind": "BUST"}
    assert eventlog.sentence(Action.SEATING_PLAYER_BUSTED.value, bust, actor="flo", entries={7: "Mario Rossi (#31)"}) == \
        "Flo recorded a player out: Mario Rossi (#31) (table 3 seat 4) — place 12"


@pytest.mark.django_db
def test_the_tournament_page_shows_sentences_not_payloads(make_tournament, person, cashier_actor, actor, director, client):
    t = make_tournament()
    cashier.register(t, person, method="CASH", actor=cashier_actor)
    log_event(t, Action.TOURNAMENTS_PENALTY_ISSUED, actor, name="Mario Rossi", kind="MISSED_ROUNDS", reason_code="SOFT_PLAY")
    client.force_login(director)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    log = page[page.index('id="event-log"'):]
    assert "Carl sold entry #1 to Mario Rossi — 110.00 EUR cash" in log
    assert "Dora gave Mario Rossi a penalty: Missed rounds — Soft play" in log
    assert "MISSED_ROUNDS" not in log and "{&#x27;" not in log and "&#x27;entry&#x27;" not in log
    client.cookies["django_language"] = "it"
    log = client.get(f"/tournaments/{t.pk}/").content.decode().split('id="event-log"')[1]
    assert "Carl ha venduto l&#x27;entry #1 a Mario Rossi — 110,00 EUR contanti" in log


@pytest.mark.django_db
def test_the_api_gives_each_event_its_sentence_in_the_users_language(make_tournament, person, cashier_actor, api, director):
    t = make_tournament()
    cashier.register(t, person, method="CASH", actor=cashier_actor)
    rows = api(director).get(f"/api/v1/tournaments/{t.pk}/events/", HTTP_ACCEPT_LANGUAGE="it").json()
    sold = next(r for r in rows if r["action"] == Action.CASHIER_BUYIN_SOLD)
    assert sold["sentence"] == "Carl ha venduto l'entry #1 a Mario Rossi — 110,00 EUR contanti"
