"""The schema's success statuses are the ones the routes answer. The fuzzer
(``tests/test_api_fuzz.py``) checks every status it sees, but a random request seldom succeeds
on a route that needs a real object: ``DELETE …/rooms/{id}/tables/{n}/`` answered 200 with the
room map for months while the schema said 204, and no fuzz case ever removed a table.

Here every DELETE of the schema, and a representative set of writes, is sent a valid request
built by hand, and its answer must be a success the schema documents; then every GET of the
schema is sent with its path ids pointing at the fuzzer's world (``tests/fuzz.py``), and every
one that succeeds must answer a status the schema documents. A DELETE added to the schema
without a case here fails the walk, so it cannot go unchecked."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests import fuzz
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

_PARAM = re.compile(r"\{(\w+)\}")


@pytest.fixture(scope="module")
def schema():
    return fuzz.openapi_schema()


class Walk:
    """Calls by the schema's path templates; each success must be one the schema documents."""

    def __init__(self, schema, client):
        self.schema, self.client = schema, client
        self.checked: set[tuple[str, str]] = set()

    def documented(self, method: str, template: str) -> set[int]:
        return {int(code) for code in self.schema["paths"][template][method]["responses"] if code.startswith("2")}

    def call(self, method: str, template: str, params=None, body=None, *, must_succeed=True):
        url = _PARAM.sub(lambda m: str((params or {})[m.group(1)]), template)
        send = getattr(self.client, method)
        r = send(url, body, format="json") if body is not None else send(url)
        if must_succeed:
            assert 200 <= r.status_code < 300, (method.upper(), url, r.status_code, r.content[:300])
        if 200 <= r.status_code < 300:
            documented = self.documented(method, template)
            assert r.status_code in documented, f"{method.upper()} {template} answered {r.status_code}, the schema documents {sorted(documented)}"
            if r.status_code == 204:
                assert not r.content, f"{method.upper()} {template}: a 204 carries no body"
            self.checked.add((method, template))
        return r


@pytest.fixture
def world():
    return fuzz.build_world()


def test_every_delete_and_the_usual_writes_answer_a_documented_success(schema, world):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {world['tokens']['director']}")
    walk = Walk(schema, client)
    ids = world["ids"]
    planned, running = ids["tournaments"][0], ids["tournaments"][2]

    # the room: a room, its tables, a change, a table out and back, a dealer's shift, the rotation
    room = walk.call("post", "/api/v1/rooms/", body={"name": "Status room"}).json()["id"]
    r = {"room_id": room}
    for n in (1, 2):
        walk.call("post", "/api/v1/rooms/{room_id}/tables/", r, {"number": n, "seats": 9})
    walk.call("patch", "/api/v1/rooms/{room_id}/", r, {"name": "Status room 2"})
    walk.call("patch", "/api/v1/rooms/{room_id}/tables/{number}/", {**r, "number": 1}, {"seats": 8})
    ops = "/api/v1/rooms/{room_id}/tables/{number}/{op}/"
    walk.call("post", ops, {**r, "number": 1, "op": "out-of-service"}, {"reason": "broken leg"})
    walk.call("post", ops, {**r, "number": 1, "op": "back-in-service"}, {})
    walk.call("put", "/api/v1/rooms/{room_id}/rotation/", r, {"push_minutes": 30, "break_after": 120, "break_minutes": 20})
    dealer = make_user("status-dealer", "dealer")
    start = timezone.now() + timedelta(days=1)
    shift = walk.call(
        "post",
        "/api/v1/rooms/{room_id}/dealers/",
        r,
        {"dealer": dealer.pk, "starts_at": start.isoformat(), "ends_at": (start + timedelta(hours=6)).isoformat()},
    ).json()["shift"]
    walk.call("post", "/api/v1/rooms/{room_id}/push/", r)

    # the objects each DELETE removes, made through the API where it is one call
    chipset = walk.call("post", "/api/v1/chipsets/", body={"name": "Status chips", "denominations": [{"value": 25, "quantity": 100}]}).json()["id"]
    screen = walk.call("post", "/api/v1/screens/", body={"name": "Status TV", "tournament": running}).json()["id"]
    design = {"theme": {"background": "#101010", "text": "#fafafa", "accent": "#ffcc00"}, "blocks": [{"kind": "clock", "x": 0, "y": 0, "w": 24, "h": 24}]}
    layout = walk.call("post", "/api/v1/screen-layouts/", body={"name": "Status layout", "design": design}).json()["id"]
    levels = [{"kind": "LEVEL", "small_blind": 25, "big_blind": 50, "minutes": 20}, {"kind": "LEVEL", "small_blind": 50, "big_blind": 100, "minutes": 20}]
    structure = walk.call("post", "/api/v1/structures/", body={"name": "Status structure", "items": levels}).json()["id"]
    people = ids["people"]
    t = {"id": running}
    pair = walk.call("post", "/api/v1/tournaments/{id}/seating/keep-apart/", t, {"person_a": people[0], "person_b": people[1], "reason": "relatives"}).json()[
        "id"
    ]
    entry = ids["tournaments/entries"][-1]
    reservation = walk.call(
        "post", "/api/v1/tournaments/{id}/seating/reservations/", t, {"entry": entry, "table": 1, "seat": 9, "reason": "wheelchair"}
    ).json()["id"]

    deletes = {
        "/api/v1/rooms/{room_id}/tables/{number}/": {**r, "number": 2},
        "/api/v1/rooms/{room_id}/dealers/{shift_id}/": {**r, "shift_id": shift},
        "/api/v1/chipsets/{id}/": {"id": chipset},
        "/api/v1/screens/{id}/": {"id": screen},
        "/api/v1/screen-layouts/{id}/": {"id": layout},
        "/api/v1/structures/{id}/": {"id": structure},
        "/api/v1/tournaments/{id}/seating/keep-apart/{pair_id}/": {"id": running, "pair_id": pair},
        "/api/v1/tournaments/{id}/seating/reservations/{res_id}/": {"id": running, "res_id": reservation},
        "/api/v1/tournaments/{id}/": {"id": planned},
    }
    in_schema = {path for path, item in schema["paths"].items() if "delete" in item}
    assert in_schema <= set(deletes), f"a DELETE without a case here: {sorted(in_schema - set(deletes))}"
    answers = {template: walk.call("delete", template, params) for template, params in deletes.items()}
    # the table removed answers the room map: a client redraws the room from it
    assert [t["number"] for t in answers["/api/v1/rooms/{room_id}/tables/{number}/"].json()["tables"]] == [1]


def test_every_get_that_succeeds_answers_a_documented_status(schema, world):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {world['tokens']['director']}")
    walk = Walk(schema, client)
    from seating.services import cardrooms
    from tournaments.eventlog.services import Actor

    director = Actor(make_user("status-boss", "director"), "test")
    room = cardrooms.save_room("Walk room", actor=director)
    cardrooms.save_table(room, 1, seats=9, actor=director)
    ids = {**world["ids"], "rooms": [room.pk], "tables": [1]}
    gets = [path for path, item in schema["paths"].items() if "get" in item]
    skipped = []
    for template in gets:
        params = {}
        for part in template.strip("/").split("/"):
            m = _PARAM.fullmatch(part)
            if m is None:
                continue
            candidates = fuzz._candidates(template, ids).get(m.group(1))
            if candidates is None:
                enum = next((p["schema"].get("enum") for p in schema["paths"][template]["get"].get("parameters", []) if p["name"] == m.group(1)), None)
                candidates = enum
            if not candidates:
                break
            params[m.group(1)] = candidates[0]
        else:
            walk.call("get", template, params, must_succeed=False)
            continue
        skipped.append(template)
    answered = {template for method, template in walk.checked if method == "get"}
    # most GETs reach a real object and succeed; each of those was held to the schema
    assert len(answered) >= 0.7 * len(gets), (len(answered), len(gets), sorted(set(gets) - answered))
