"""The bust and confirm requests' fast paths (issue #15) answer what the slow paths answered:
the bust's input read without the serializer gives the serializer's data or its refusal, the
slips built without ``Model.__init__`` are the ORM's, and the requests ask the database at most
a known number of questions."""

import json

import pytest
from rest_framework.test import APIRequestFactory

from seating import api as seating_api
from seating import selectors
from seating.models import PendingMove
from tournaments.models import Entry, TournamentEvent

from .test_confirm_moves_api import bust_until_break, open_slips, url
from .test_support import started  # noqa: F401 (fixture)

BODIES = [
    {"entries": [{"entry": 7}]},
    {"entries": [{"entry": 7}, {"entry": 8, "starting_stack": 1200}]},
    {"entries": [{"entry": 7, "starting_stack": None}], "table": 3, "same_hand": True, "simultaneous": False, "reason": "  chip count  "},
    {"entries": [{"entry": 7, "starting_stack": 0, "extra": "ignored"}], "table": None, "reason": ""},
    {"entries": [{"entry": 7}], "reason": "   "},
    {"entries": [{"entry": 7}], "reason": "è uscito al river — 2♠"},
    {"entries": [{"entry": 7}], "reason": "x" * 200},
    {"entries": [{"entry": 7}], "reason": " " + "x" * 200 + " "},
    {"entries": [{"entry": 2**70}]},
    # a bounty event's eliminators (PAY-02)
    {"entries": [{"entry": 7, "eliminators": [3]}]},
    {"entries": [{"entry": 7, "starting_stack": 500, "eliminators": [3, {"entry": 4}, {"entry": 5, "pot_share": None}]}]},
    {"entries": [{"entry": 7, "eliminators": [{"entry": 3, "pot_share": 2000}, {"entry": 4, "pot_share": 1000}]}, {"entry": 8, "eliminators": [4]}]},
    {"entries": [{"entry": 7, "eliminators": []}]},
    {"entries": [{"entry": 7, "eliminators": None}]},
    {"entries": [{"entry": 7, "eliminators": [2**63 - 1]}]},
    {"entries": [{"entry": 7, "eliminators": list(range(1, 10))}]},
    # what only the serializer reads, or refuses
    {"entries": [{"entry": 7, "eliminators": list(range(1, 11))}]},
    {"entries": [{"entry": 7, "eliminators": 3}]},
    {"entries": [{"entry": 7, "eliminators": "3"}]},
    {"entries": [{"entry": 7, "eliminators": {"entry": 3}}]},
    {"entries": [{"entry": 7, "eliminators": [True]}]},
    {"entries": [{"entry": 7, "eliminators": [0]}]},
    {"entries": [{"entry": 7, "eliminators": [2**63]}]},
    {"entries": [{"entry": 7, "eliminators": [3.0]}]},
    {"entries": [{"entry": 7, "eliminators": [None]}]},
    {"entries": [{"entry": 7, "eliminators": [{"entry": "3"}]}]},
    {"entries": [{"entry": 7, "eliminators": [{}]}]},
    {"entries": [{"entry": 7, "eliminators": [{"entry": 3, "pot_share": 0}]}]},
    {"entries": [{"entry": 7, "eliminators": [{"entry": 3, "pot_share": 1.5}]}]},
    {"entries": [{"entry": 7, "eliminators": [{"entry": 3, "pot_share": "100"}]}]},
    {"entries": [{"entry": 7, "eliminators": [{"entry": 3, "pot_share": 10**12 + 1}]}]},
    {"entries": [{"entry": 7, "eliminators": [{"entry": 3, "seat": 2}]}]},
    {"entries": [{"entry": "7"}]},
    {"entries": [{"entry": 7.0}]},
    {"entries": [{"entry": True}]},
    {"entries": [{"entry": None}]},
    {"entries": [{}]},
    {"entries": [7]},
    {"entries": []},
    {"entries": {"entry": 7}},
    {"entries": None},
    {},
    {"entries": [{"entry": 7, "starting_stack": -1}]},
    {"entries": [{"entry": 7, "starting_stack": "10"}]},
    {"entries": [{"entry": 7, "starting_stack": False}]},
    {"entries": [{"entry": 7}], "table": "3"},
    {"entries": [{"entry": 7}], "table": True},
    {"entries": [{"entry": 7}], "same_hand": "true"},
    {"entries": [{"entry": 7}], "same_hand": 1},
    {"entries": [{"entry": 7}], "simultaneous": None},
    {"entries": [{"entry": 7}], "reason": None},
    {"entries": [{"entry": 7}], "reason": 12},
    {"entries": [{"entry": 7}], "reason": "x" * 201},
    {"entries": [{"entry": 7}], "reason": "a\x00b"},
    {"entries": [{"entry": 7}], "reason": "a\ud800b"},
    {"entries": [{"entry": 7}], "other": 1},
    [{"entry": 7}],
    "entries",
    7,
]


def request_with(body):
    from rest_framework.parsers import JSONParser
    from rest_framework.request import Request

    # the body as a client sends it (json.dumps escapes a lone surrogate, as JSON allows)
    return Request(APIRequestFactory().post("/", json.dumps(body), content_type="application/json"), parsers=[JSONParser()])


def serializer_answer(body):
    ser = seating_api.BustSerializer(data=request_with(body).data)
    if not ser.is_valid():
        return ("refused", ser.errors)
    return ("ok", ser.validated_data)


def fast_answer(body):
    from rest_framework.exceptions import ValidationError

    try:
        return ("ok", seating_api._bust_input(request_with(body)))
    except ValidationError as exc:
        return ("refused", exc.detail)


def plain(value):
    """Validated data as plain dicts and lists (DRF's ordered and return dicts compare as such)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


@pytest.mark.parametrize("body", BODIES, ids=range(len(BODIES)))
def test_the_bust_input_read_without_the_serializer_is_the_serializers(body):
    kind, data = fast_answer(body)
    want_kind, want = serializer_answer(body)
    assert kind == want_kind
    assert plain(data) == plain(want)
    if kind == "ok":
        assert list(plain(data)) == list(plain(want))  # the same keys, in the same order
        assert [list(i) for i in data["entries"]] == [list(i) for i in want["entries"]]


def test_a_refused_bust_body_is_refused_as_before(api, started, floor_user):
    t = started(12)
    client = api(floor_user)
    entry = t.entries.first()
    for body in ({"entries": [{"entry": "x"}]}, {"entries": []}, {"entries": [{"entry": entry.pk}], "reason": "x" * 201}):
        r = client.post(url(t, "busts/"), body, format="json")
        assert r.status_code == 400 and r.json()["code"] == "invalid" and r.json()["fields"]
    assert Entry.objects.get(pk=entry.pk).status == Entry.ACTIVE
    # the serializer's path (a padded reason; an id given as text is refused since issue #30)
    r = client.post(url(t, "busts/"), {"entries": [{"entry": entry.pk}], "reason": "  typo  "}, format="json")
    assert r.status_code == 201 and Entry.objects.get(pk=entry.pk).status == Entry.BUSTED


def test_the_slips_built_without_model_init_are_the_orms(api, started, floor_user):
    t = started(19)
    client = api(floor_user)
    data = bust_until_break(client, t)
    first = data["moves"][0]
    client.post(url(t, f"moves/{first['id']}/confirm/"), format="json")
    pending, named = seating_api._slips(t.pk, [first["id"]])
    orm = {m.pk: m for m in PendingMove.objects.filter(tournament=t).select_related("entry__person", "done_by")}
    assert [selectors.move_dict(m) for m in pending] == [selectors.move_dict(orm[m.pk]) for m in pending] == open_slips(client, t)
    done = named[first["id"]]
    assert selectors.move_dict(done) == selectors.move_dict(orm[first["id"]]) and done.done_by.username == floor_user.username
    # as from_db makes them: saved rows of this database; a field not read is loaded when asked
    assert not done._state.adding and done._state.db == "default" and done.entry.person._state.db == "default"
    assert done.entry.get_deferred_fields() and done.entry.status == Entry.objects.get(pk=done.entry_id).status
    assert done.entry.person == orm[first["id"]].entry.person and done == orm[first["id"]]
    # made without Model.__init__: sound while no receiver listens for its signals
    from django.db.models.signals import post_init, pre_init

    for model in (PendingMove, seating_api._ENTRY_MODEL, seating_api._PERSON_MODEL, seating_api._USER_MODEL):
        assert not pre_init.has_listeners(model) and not post_init.has_listeners(model)


def test_a_bust_and_a_confirm_ask_the_database_a_known_number_of_questions(api, started, floor_user, django_assert_max_num_queries):
    t = started(19)
    client = api(floor_user)
    data = bust_until_break(client, t)
    slip = data["moves"][0]
    events = TournamentEvent.objects.filter(tournament=t).count()
    with django_assert_max_num_queries(8):  # a break slip: the lock, the slip, its update, the event, the slips read back (and the transaction)
        r = client.post(url(t, f"moves/{slip['id']}/confirm/"), format="json")
    assert r.status_code == 200 and r.json()["move"]["status"] == "DONE"
    assert TournamentEvent.objects.filter(tournament=t).count() == events + 1
    for m in r.json()["moves"]:
        client.post(url(t, f"moves/{m['id']}/confirm/"), format="json")
    smallest = min(t.entries.filter(status=Entry.ACTIVE), key=lambda e: e.pk)
    with django_assert_max_num_queries(16):
        r = client.post(url(t, "busts/"), {"entries": [{"entry": smallest.pk}]}, format="json")
    assert r.status_code == 201 and r.json()["busts"][0]["entry"] == smallest.pk


def test_confirming_a_slip_refuses_as_before(api, started, floor_user):
    t = started(19)
    client = api(floor_user)
    slip = bust_until_break(client, t)["moves"][0]
    assert client.post(url(t, f"moves/{slip['id']}/confirm/"), format="json").status_code == 200
    r = client.post(url(t, f"moves/{slip['id']}/confirm/"), format="json")  # twice
    assert r.status_code == 409 and r.json()["code"] == "move_done"
    for missing in (987654, 2**40, 2**63 + 5):
        r = client.post(url(t, f"moves/{missing}/confirm/"), format="json")
        assert r.status_code == 404 and r.json()["code"] == "not_found"
