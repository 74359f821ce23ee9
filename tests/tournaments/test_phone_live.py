"""The player's phone stream end to end: the real ASGI server and Redis pub/sub. A bust at the
table reaches the busted player's phone as his own part, and every phone's public part."""

import json
import threading

import httpx
import pytest

from seating import services as seating
from tests.servers import live_stack  # noqa: F401 (fixture)
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 30  # seconds: generous for a loaded machine; every wait ends on its event


def read_phone(base, token, out, seen, until):
    """Every ``(event, data)`` of a phone's stream into ``out``; ``seen`` is set at each one;
    returns when ``until(out)`` holds."""
    with httpx.stream("GET", f"{base}/p/{token}/stream/", timeout=WAIT) as r:
        out.append(("status", r.status_code))
        buf = ""
        for chunk in r.iter_text():
            buf += chunk
            while "\n\n" in buf:
                block, buf = buf.split("\n\n", 1)
                lines = dict(line.split(": ", 1) for line in block.splitlines() if line.startswith(("event: ", "data: ")))
                if "data" in lines:
                    out.append((lines.get("event", "message"), json.loads(lines["data"])))
                    seen.set()
                    if until(out):
                        return


def test_the_phone_stream_pushes_the_bust_to_that_player_only(live_stack, make_tournament, make_person, director):
    actor = Actor(director, "test")
    t = make_tournament(name="Phone Live Event")
    entries = [cashier.register(t, make_person(), method="CASH", actor=actor).entry for _ in range(4)]
    lifecycle.start(t, actor=actor)
    clock_services.start_clock(t, actor=actor)
    victim, other = entries[2], entries[0]

    def three_players_left(out):
        return any(kind == "state" and data["players_left"] == 3 for kind, data in out)

    def told_he_is_out(out):
        return any(kind == "entry" and data["entry"]["status"] == "BUSTED" for kind, data in out)

    streams = {}
    for e, until in ((victim, told_he_is_out), (other, three_players_left)):
        out, seen = [], threading.Event()
        reader = threading.Thread(target=read_phone, args=(live_stack["base"], e.phone_token, out, seen, until), daemon=True)
        reader.start()
        streams[e.pk] = (out, seen, reader)
    for e in (victim, other):  # connected: the public part, then its own
        out, seen, _reader = streams[e.pk]
        while len(out) < 3:
            assert seen.wait(WAIT)
            seen.clear()
        (_status, code), (k1, public), (k2, own) = out[:3]
        assert code == 200 and (k1, k2) == ("state", "entry")
        assert public["players_left"] == 4 and "entry" not in public and "seats" not in public and "moves" not in public
        assert own["entry"]["number"] == e.number and own["entry"]["status"] == "ACTIVE" and own["seat"]

    seating.record_bust(t, [victim], actor=actor)
    for _out, _seen, reader in streams.values():
        reader.join(WAIT)
        assert not reader.is_alive()
    victim_out, other_out = streams[victim.pk][0], streams[other.pk][0]
    assert "entry" not in [kind for kind, _ in other_out[3:]]  # its own part did not change: not sent
    assert other_out[-1][1]["players_left"] == 3
    kind, own = victim_out[-1]
    assert own["entry"]["place"] == 4 and own["seat"] is None
    assert victim_out[-2][0] == "state" and victim_out[-2][1]["players_left"] == 3
    assert httpx.get(live_stack["base"] + "/p/not-a-token/stream/").status_code == 404
