"""CLK-10 read whole: what the floor's tablet is told when it calls the clock, the event-log row
that keeps the call (who called it, on whom, how long), and the refusals word for word."""

import pytest

from tournaments.cashier import services as cashier
from tournaments.floor import services as floor

pytestmark = pytest.mark.django_db

CALLED = "tournaments.clock.called"


def url(t, op):
    return f"/api/v1/tournaments/{t.pk}/clock/{op}/"


def test_a_call_is_answered_and_logged_whole_and_the_players_own_time_says_so(api, floor_user, director, heads_up):
    """Heads-up (001 L36): 30 seconds, no countdown; the preset is silent on expiry, so the TDA's
    rule applies. Cut to 10 s by the director, the next call on Paolo says it is his own time."""
    t, p, _q = heads_up
    r = api(floor_user).post(url(t, "call-clock"), {"table": 1, "entry": p.pk}, format="json")
    assert (r.status_code, r.json()) == (
        200,
        {
            "seconds": 30,
            "countdown": 0,
            "outcome": "On expiry: dead hand if facing a bet, else check.",
            "table": 1,
            "preset": "HEADS_UP",
            "player": "Paolo Bianchi",
            "player_time": False,
        },
    )
    api(director).post(url(t, "call-time"), {"entry": p.pk, "seconds": 10, "reason": "repeated delay"}, format="json")
    r = api(floor_user).post(url(t, "call-clock"), {"table": 1, "entry": p.pk}, format="json")
    assert (r.json()["seconds"], r.json()["player_time"]) == (10, True)
    first, second = t.events.filter(action=CALLED).order_by("id")
    assert first.payload == {"table": 1, "player": "Paolo Bianchi", "entry": p.pk, "preset": "HEADS_UP", "seconds": 30, "countdown": 0, "player_time": False}
    assert second.payload == {"table": 1, "player": "Paolo Bianchi", "entry": p.pk, "preset": "HEADS_UP", "seconds": 10, "countdown": 0, "player_time": True}
    assert (first.actor_id, second.actor_id) == (floor_user.pk, floor_user.pk)


def test_a_call_on_a_player_named_by_the_floor_keeps_the_name_typed(api, floor_user, make_tournament):
    """Sanremo (003 Art. 4.2.34): one minute plus ten seconds, then the hand is dead."""
    t = make_tournament(rule_set="SANREMO_003")
    r = api(floor_user).post(url(t, "call-clock"), {"table": 2, "player": "Seat 4, red cap"}, format="json")
    assert r.json() == {
        "seconds": 60,
        "countdown": 10,
        "outcome": "On expiry: dead hand.",
        "table": 2,
        "preset": "SANREMO",
        "player": "Seat 4, red cap",
        "player_time": False,
    }
    assert t.events.get(action=CALLED).payload == {
        "table": 2,
        "player": "Seat 4, red cap",
        "entry": None,
        "preset": "SANREMO",
        "seconds": 60,
        "countdown": 10,
        "player_time": False,
    }


def test_a_call_and_a_players_time_are_refused_in_words(api, floor_user, director, heads_up, make_tournament, make_person, cashier_actor):
    """A call with a time of its own; a call and a time for another event's player; a heads-up
    time of 9 s. Each is refused in words and logs nothing."""
    t, p, _q = heads_up
    other = make_tournament(name="Side event")
    stranger = cashier.register(other, make_person(), method="CASH", actor=cashier_actor).entry

    def refusal(r):
        return r.status_code, r.json()["code"], r.json()["detail"]

    r = api(floor_user).post(url(t, "call-clock"), {"table": 1, "entry": p.pk, "seconds": 45}, format="json")
    assert refusal(r) == (
        400,
        "clock_call_time_per_player",
        "A clock call takes the event's time or the player's: the director sets a player's time (call-time).",
    )
    not_here = (400, "bad_entry", "This player is not in the tournament.")
    assert refusal(api(floor_user).post(url(t, "call-clock"), {"table": 1, "entry": stranger.pk}, format="json")) == not_here
    assert refusal(api(director).post(url(t, "call-time"), {"entry": stranger.pk, "seconds": 20}, format="json")) == not_here
    r = api(director).post(url(t, "call-time"), {"entry": p.pk, "seconds": 9}, format="json")
    assert refusal(r) == (409, "bad_time", "Under the HEADS_UP preset a player's clock-call time is 10 to 30 seconds.")
    assert not t.events.filter(action__in=(CALLED, "tournaments.clock.call_time_set")).exists()


def test_a_players_own_time_outlasts_a_penalty_logged_on_him(api, floor_user, director, heads_up, actor):
    """Paolo's time cut to 10 s, then a warning for him (another row of the log naming him): the
    next call still gives him his 10 s."""
    t, p, _q = heads_up
    api(director).post(url(t, "call-time"), {"entry": p.pk, "seconds": 10, "reason": "repeated delay"}, format="json")
    floor.issue_penalty(t, p, kind="WARNING", reason_code="ABUSIVE_CONDUCT", actor=actor)
    r = api(floor_user).post(url(t, "call-clock"), {"table": 1, "entry": p.pk}, format="json")
    assert (r.json()["seconds"], r.json()["player_time"]) == (10, True)


@pytest.mark.parametrize("language,words", [("en", "The clock is not running."), ("it", "L'orologio non è in funzione.")])
def test_a_clock_action_refused_reads_in_the_directors_language(api, director, make_tournament, language, words):
    """The clock of an event not started cannot be paused: refused in words, in the reader's language."""
    t = make_tournament()
    r = api(director).post(url(t, "pause"), {}, format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert (r.status_code, r.json()["code"], r.json()["detail"]) == (409, "not_running", words)


def test_a_heads_up_call_at_a_house_time_above_thirty_seconds_is_refused_in_words(api, floor_user, make_tournament):
    """The house gave a heads-up event 40 s a call (001 L36 allows 30 at most): the call is
    refused, naming the preset's range, and nothing is logged."""
    t = make_tournament(rule_set="HEADS_UP_001", table_size=2, settings={"clock_call_seconds": 40})
    r = api(floor_user).post(url(t, "call-clock"), {"table": 1}, format="json")
    assert (r.status_code, r.json()["code"], r.json()["detail"]) == (
        409,
        "bad_time",
        "Under the HEADS_UP preset a player's clock-call time is 10 to 30 seconds.",
    )
    assert not t.events.filter(action=CALLED).exists()
