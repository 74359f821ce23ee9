"""The event log reads as sentences: every action has a translatable sentence filled from the
payload its service writes (the actions are driven for real, ``tests/eventlog_drives.py``); seat
maps, card orders and ids never reach the page; money and numbers follow the active language; an
old row whose payload lacks a key still reads (as the action's label)."""

import re

import pytest
from django.utils import translation

from tests import eventlog_drives as drives
from tournaments.cashier import services as cashier
from tournaments.eventlog import sentences as eventlog
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.models import TournamentEvent
from tournaments.oversight.selectors import event_sentences

PLACEHOLDER = re.compile(r"%\((\w+)\)s")


class _Echo(dict):
    """Fills a template with its own placeholders (and a count of 2), to read which keys it names."""

    def __missing__(self, key):
        return 2 if key == "count" else f"%({key})s"


def _names_data(action) -> bool:
    """Whether the action's sentence has data to fill (else it may read as its label)."""
    t = eventlog.SENTENCES[action]
    template = t[0] if isinstance(t, tuple) else t
    return bool(PLACEHOLDER.search(str(template % _Echo()).replace("%(actor)s", "")))


def test_every_action_has_a_sentence():
    missing = [a.value for a in Action if a not in eventlog.SENTENCES]
    assert missing == []


@pytest.fixture
def world(director, cashier_user, controller_user, structure):
    return drives.World(director=Actor(director, "test"), cashier=Actor(cashier_user, "desk-1"), controller=Actor(controller_user, "test"), structure=structure)


def _written_since(mark: int) -> list[TournamentEvent]:
    """The rows the services wrote, each with its sentence as the tournament page shows it."""
    return list(TournamentEvent.objects.filter(pk__gt=mark).order_by("pk"))


def _sentences(rows, lang: str) -> dict[int, str]:
    with translation.override(lang):
        return {e.pk: e.sentence for e in event_sentences(rows, "EUR")}


def _drive(drive, world) -> tuple[list[TournamentEvent], dict]:
    mark = TournamentEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    expected = drive(world)
    return _written_since(mark), expected


def _check_filled(rows, expected: dict) -> None:
    """Every row reads as a sentence in both languages (no placeholder, payload or label left
    where data belongs), and each action's English sentence carries what the action used."""
    english, italian = _sentences(rows, "en"), _sentences(rows, "it")
    problems = []
    for e in rows:
        for lang, text in (("en", english[e.pk]), ("it", italian[e.pk])):
            with translation.override(lang):
                label = Action.label_of(e.action)
            if not text or "%(" in text or "{" in text or "[" in text or "in_play" in text:
                problems.append(f"{e.action} [{lang}]: {text!r} from {e.payload!r}")
            elif _names_data(e.action) and text == label:
                problems.append(f"{e.action} [{lang}]: the payload could not fill the sentence: {e.payload!r}")
    for action, words in expected.items():
        texts = [english[e.pk] for e in rows if e.action == action]
        if not texts:
            problems.append(f"{action}: the drive wrote no such event")
        elif not any(all(w in text for w in words) for text in texts):
            problems.append(f"{action}: none of {texts!r} carries all of {words!r}")
    assert problems == [], "\n".join(problems)


@pytest.mark.django_db
@pytest.mark.parametrize("drive", drives.DRIVES, ids=lambda d: d.__name__)
def test_every_sentence_is_filled_from_the_payload_its_service_wrote(drive, world):
    rows, expected = _drive(drive, world)
    _check_filled(rows, expected)


@pytest.mark.django_db
def test_every_action_a_service_writes_is_driven(world):
    """The drives together cause every action, but those listed (with the reason) in
    ``drives.NOT_DRIVEN``; a listed action that a drive does cause must leave the list."""
    seen: set[str] = set()
    for drive in drives.DRIVES:
        rows, _expected = _drive(drive, world)
        seen |= {e.action for e in rows}
    undriven = sorted(a.value for a in Action if a.value not in seen and a.value not in drives.NOT_DRIVEN)
    assert undriven == [], "no drive causes: " + ", ".join(undriven)
    assert sorted(seen & set(drives.NOT_DRIVEN)) == []


def test_the_issue_example_reads_as_a_sentence_in_both_languages():
    p = {"entry": 31, "entry_number": 31, "person": 5, "name": "Mario Rossi", "receipt": 9, "amount": "1100.00", "method": "CASH", "chips": 30000}
    with translation.override("en"):
        assert eventlog.sentence(Action.CASHIER_BUYIN_SOLD.value, p, actor="anna", currency="EUR") == "Anna sold entry #31 to Mario Rossi — €1,100.00 cash"
    with translation.override("it"):
        assert (
            eventlog.sentence(Action.CASHIER_BUYIN_SOLD.value, p, actor="anna", currency="EUR")
            == "Anna ha venduto l'entry #31 a Mario Rossi — 1.100,00\u00a0€ contanti"
        )


@translation.override("en")
def test_a_missing_key_falls_back_to_the_label_and_an_unknown_action_to_its_text():
    assert eventlog.sentence(Action.SEATING_SEAT_LOCKED.value, {}, actor="x") == "Seat locked"
    assert eventlog.sentence("old.renamed.action", {"x": 1}) == "old.renamed.action"
    assert eventlog.sentence(Action.TOURNAMENTS_CLOCK_STARTED.value, {"level": 1}, actor="system") == "TDManager started the clock at level 1"


def test_penalties_and_busts_read_with_labels_and_names():
    with translation.override("it"):
        text = eventlog.sentence(
            Action.TOURNAMENTS_PENALTY_ISSUED.value, {"name": "Anna Verdi", "kind": "MISSED_ROUNDS", "reason_code": "SOFT_PLAY"}, actor="flo"
        )
    assert "MISSED_ROUNDS" not in text and "SOFT_PLAY" not in text
    assert "Anna Verdi" in text and "Giri saltati" in text and "Soft play" in text
    with translation.override("en"):
        _bust_sentence_in_english()


def test_one_place_paid_reads_in_the_singular_in_italian():
    started = {"players_left": 2, "places_paid": 1}
    with translation.override("it"):
        assert eventlog.sentence(Action.TOURNAMENTS_CLOCK_HAND_FOR_HAND_STARTED.value, started, actor="flo").endswith("2 giocatori rimasti, 1 pagato")
        assert eventlog.sentence(Action.TOURNAMENTS_CLOCK_HAND_FOR_HAND_STARTED.value, {**started, "places_paid": 27}).endswith(", 27 pagati")


def _bust_sentence_in_english():
    bust = {"busts": [{"entry": 7, "table": 3, "seat": 4, "place": 12}], "before": [{"seats": {}}], "kind": "BUST"}
    assert (
        eventlog.sentence(Action.SEATING_PLAYER_BUSTED.value, bust, actor="flo", entries={7: "Mario Rossi (#31)"})
        == "Flo recorded a player out: Mario Rossi (#31) (table 3 seat 4) — place 12"
    )


@pytest.mark.django_db
def test_the_tournament_page_shows_sentences_not_payloads(make_tournament, person, cashier_actor, actor, director, client):
    t = make_tournament()
    cashier.register(t, person, method="CASH", actor=cashier_actor)
    log_event(t, Action.TOURNAMENTS_PENALTY_ISSUED, actor, name="Mario Rossi", kind="MISSED_ROUNDS", reason_code="SOFT_PLAY")
    client.force_login(director)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    log = page[page.index('id="event-log"') :]
    assert "Carl sold entry #1 to Mario Rossi — €110.00 cash" in log
    assert "Dora gave Mario Rossi a penalty: Missed rounds — Soft play" in log
    assert "MISSED_ROUNDS" not in log and "{&#x27;" not in log and "&#x27;entry&#x27;" not in log
    client.cookies["django_language"] = "it"
    log = client.get(f"/tournaments/{t.pk}/").content.decode().split('id="event-log"')[1]
    assert "Carl ha venduto l&#x27;entry #1 a Mario Rossi — 110,00\u00a0€ contanti" in log


@pytest.mark.django_db
def test_the_api_gives_each_event_its_sentence_in_the_users_language(make_tournament, person, cashier_actor, api, director):
    t = make_tournament()
    cashier.register(t, person, method="CASH", actor=cashier_actor)
    rows = api(director).get(f"/api/v1/tournaments/{t.pk}/events/", HTTP_ACCEPT_LANGUAGE="it").json()
    sold = next(r for r in rows if r["action"] == Action.CASHIER_BUYIN_SOLD)
    assert sold["sentence"] == "Carl ha venduto l'entry #1 a Mario Rossi — 110,00\u00a0€ contanti"
