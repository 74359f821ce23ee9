"""Issue #14, "nothing raw": the seating engine says why in codes, and every page, slip and API
answer shows the reason in the reader's language (the language is chosen when it is shown,
not when the move was written)."""

import random
import re

import pytest
from django.utils import translation

from seating import engine, labels, selectors, services
from seating.engine import ReasonCode
from seating.models import PendingMove
from tournaments.models import TournamentEvent

from .test_engine import full, scenario_10_tables, table, with_open
from .test_support import add_entries, arrange, started  # noqa: F401 (fixture)

R = ReasonCode
SAMPLE = {
    "table": 3,
    "seat": 4,
    "left_seat": 5,
    "button": 6,
    "fixed_seat": 7,
    "hands": 2,
    "from_table": 1,
    "from_players": 9,
    "to_table": 2,
    "to_players": 7,
    "card": "A♠",
    "rank": 1,
    "of": 4,
    "to_seat": 8,
    "open_seats": 5,
    "players": 6,
    "capacity": 9,
}
# Words of the English reasons that an Italian reader must never meet.
ENGLISH = re.compile(
    r"\b(the|table|tables|seat|seats|big|blind|small|next|hand|hands|balancing|players?|button|posts|moved|"
    r"wait|waits|breaks|card|draw|drawn|open|fallback|pool|had|at|of|moves)\b",
    re.IGNORECASE,
)
FAILED = ("details not recorded", "dettagli non registrati")


@pytest.mark.parametrize("lang", ["en", "it"])
def test_every_engine_reason_code_has_a_label_in_both_languages(lang):
    assert set(labels.REASON_TEXTS) == set(ReasonCode)
    for code in ReasonCode:
        with translation.override(lang):
            text = labels.clause_text(code, SAMPLE)
        with translation.override("en"):
            english = labels.clause_text(code, SAMPLE)
        assert text and code not in text and "_" not in text and "%(" not in text and text not in FAILED, (code, text)
        if lang == "it":
            assert text != english and not ENGLISH.search(text), (code, text)


def _engine_reasons():
    """Reasons from real engine calls under every balancing setting, a break, a final table and late seats."""
    out = []
    rooms = [
        [engine.Table(1, 10, {s: f"a{s}" for s in range(1, 11)}, 4, 3), engine.Table(2, 10, {s: f"b{s}" for s in (1, 3, 5, 6, 7, 9, 10)}, 2, 1)],
        [engine.Table(1, 10, {s: f"a{s}" for s in range(1, 11)}, 4, 3), engine.Table(2, 10, {s: f"b{s}" for s in (1, 3, 4, 5, 6, 7, 9, 10)}, 2, 1)],
        [
            engine.Table(1, 10, {s: f"a{s}" for s in range(1, 10)}),  # big blinds unknown
            engine.Table(2, 10, {s: f"b{s}" for s in (1, 3, 4, 5, 6, 7, 9)}),
        ],
        [
            engine.Table(1, 10, {s: f"a{s}" for s in range(1, 11) if s != 4}, 4, 3),  # the last big blind has left
            engine.Table(2, 10, {s: f"b{s}" for s in (1, 3, 4, 5, 6, 9, 10)}, 2, 1),
        ],
        [
            engine.Table(1, 10, {s: f"a{s}" for s in range(1, 11) if s != 3}, 5, 3),  # a dead button
            engine.Table(2, 10, {s: f"b{s}" for s in (1, 3, 4, 5, 6, 9)}, 2, 1),
        ],
    ]
    for tables in rooms:
        for mover in engine.MOVER_RULES:
            for dest in engine.DEST_RULES:
                for vacated in engine.VACATED_BB_SEAT_MODES:
                    out += [
                        m.reason
                        for m in engine.plan_balance(tables, mover_rule=mover, dest_rule=dest, vacated_bb_seat=vacated, rng=random.Random(1), fixed={"a5"})
                    ]
        for seed in range(4):
            out += [m.reason for m in engine.plan_break(tables + [engine.Table(9, 10, {1: "z1", 2: "z2"}, 1, 2)], 9, random.Random(seed))]
        out += [engine.draw_late_seat(tables, "late", random.Random(3)).reason]
    for tables in (
        scenario_10_tables(),
        [full(1, 10, bb=4, prev=3), with_open(2, [2, 7], bb=2, prev=1)],
        [full(1, 10, bb=4, prev=3), with_open(2, [2, 7], bb=2, prev=1, locked_seats={7})],
        [full(1, 10, bb=4, prev=3), with_open(2, [2, 10], bb=3, prev=1, locked_seats={10})],
    ):
        for vacated in engine.VACATED_BB_SEAT_MODES:
            out += [m.reason for m in engine.plan_balance(tables, vacated_bb_seat=vacated, rng=random.Random(1))]
    out += [m.reason for m in engine.plan_break([with_open(1, [2], bb=3, prev=1), table(2, 10, [5], bb=5)], 2, random.Random(2))]
    out += [engine.Reason(R.SEAT_RESERVED, (("table", 1), ("seat", 5)))]  # written by the service for a seat given by hand
    out += [m.reason for m in engine.plan_final_table(rooms[0][:1] + [engine.Table(2, 10, {1: "x"}, 1, 1)], random.Random(4)).moves]
    out += [engine.draw_late_seat([engine.Table(1, 2, {1: "a", 2: "b"}, 1, 2)], "late", random.Random(5)).reason]
    return out


def test_the_engine_writes_codes_that_every_label_fills_in_both_languages():
    reasons = _engine_reasons()
    seen = {c.code for r in reasons for c in r.clauses()}
    # Every code comes out of these calls, with the parameters the engine really gives it.
    assert seen == set(ReasonCode), set(ReasonCode) - seen
    for reason in reasons:
        assert all(isinstance(v, (int, str)) for c in reason.clauses() for v in c.params.values())
        assert engine.Reason.from_dict(reason.as_dict()) == reason  # what the rows store reads back the same
        for lang in ("en", "it"):
            with translation.override(lang):
                text = labels.reason_text(reason.as_dict())
            assert text and "%(" not in text and not any(f in text for f in FAILED), (lang, reason, text)
            if lang == "it":
                assert not ENGLISH.search(text), text


def test_the_english_reason_reads_as_the_engine_used_to_write_it():
    tables = [engine.Table(1, 10, {s: f"a{s}" for s in range(1, 11)}, 4, 3), engine.Table(2, 10, {s: f"b{s}" for s in (1, 3, 4, 5, 6, 8, 9, 10)}, 5, 4)]
    (move,) = engine.plan_balance(tables, rng=random.Random(1))
    with translation.override("en"):
        assert labels.reason_text(move.reason) == (
            "next big blind at table 1 (seat 5); seat 7 at table 2 posts the big blind in 2 hands (balancing: table 1 had 10 players, table 2 had 8)"
        )
    with translation.override("it"):
        assert labels.reason_text(move.reason) == (
            "prossimo grande buio al tavolo 1 (posto 5); il posto 7 al tavolo 2 paga il grande buio tra 2 mani "
            "(bilanciamento: il tavolo 1 aveva 10 posti occupati, il tavolo 2 ne aveva 8)"
        )


@pytest.fixture
def balancing_move(started, actor):
    t = started(18, table_size=10)
    arrange(t, {1: range(1, 11), 2: range(1, 9)}, big_blinds={1: (3, 2), 2: (5, 4)})
    services.set_big_blind(t, 1, 3, previous_big_blind_seat=2, actor=actor, reason="confirmed at the table")
    move = PendingMove.objects.get(tournament=t, status=PendingMove.PROPOSED)
    return t, move


def test_a_balancing_slip_stores_codes_and_shows_the_readers_language(balancing_move, api, floor_user, client):
    t, move = balancing_move
    assert move.reason == "" and move.reason_data["code"] == "MOVER_NEXT_BB" and move.reason_data["params"] == {"table": 1, "seat": 4}
    event = TournamentEvent.objects.filter(tournament=t, action="seating.moves.proposed").latest("id")
    assert event.payload["moves"][0]["reason"] == move.reason_data  # the event log keeps the codes too

    # The API: the code and the text, in the language asked for.
    en = api(floor_user).get(f"/api/v1/tournaments/{t.pk}/tables/").json()["moves"][0]
    it = api(floor_user).get(f"/api/v1/tournaments/{t.pk}/tables/", HTTP_ACCEPT_LANGUAGE="it").json()["moves"][0]
    assert en["reason_code"] == it["reason_code"] == "MOVER_NEXT_BB"
    assert en["reason"].startswith("next big blind at table 1 (seat 4); seat 9 at table 2 posts the big blind")
    assert it["reason"].startswith("prossimo grande buio al tavolo 1 (posto 4); il posto 9 al tavolo 2 paga il grande buio")
    assert not ENGLISH.search(it["reason"]), it["reason"]

    # The floor's table map and the printed slip, in Italian.
    client.force_login(floor_user)
    client.cookies["django_language"] = "it"
    page = client.get(f"/tournaments/{t.pk}/tables/").content.decode()
    (cell,) = re.findall(r'<td class="reason small">(.*?)</td>', page, re.S)
    assert cell.startswith("prossimo grande buio al tavolo 1 (posto 4)") and not ENGLISH.search(cell), cell
    slip = client.get(f"/tournaments/{t.pk}/tables/slips/?ids={move.pk}").content.decode()
    assert f'id="slip-{move.pk}"' in slip and it["reason"] in slip.replace("&#x27;", "'") and "next big blind" not in slip


def test_a_late_seat_is_explained_in_the_readers_language(started, actor, client, director):
    t = started(17)
    (late,) = add_entries(t, 1)
    services.seat_new_entry(t, late, actor)
    event = TournamentEvent.objects.get(tournament=t, action="seating.player.seated")
    assert event.payload["reason"]["code"] == "LATE_SEAT_POOL"
    with translation.override("it"):
        (item,) = selectors.draw_history(t, late)
    assert item["reason_code"] == "LATE_SEAT_POOL" and item["reason"].startswith("posti disponibili: ")
    assert not ENGLISH.search(item["reason"]), item["reason"]
    client.force_login(director)
    client.cookies["django_language"] = "it"
    page = client.get(f"/tournaments/{t.pk}/tables/draws/{late.pk}/").content.decode()
    assert item["reason"] in page and "seat pool" not in page


def test_older_slips_and_moves_by_hand_keep_their_words(balancing_move, actor):
    t, move = balancing_move
    PendingMove.objects.filter(pk=move.pk).update(reason="next big blind at table 1 (seat 4)", reason_data=None)  # written before the codes
    old = PendingMove.objects.get(pk=move.pk)
    with translation.override("it"):
        assert (old.reason_text, old.reason_code) == ("next big blind at table 1 (seat 4)", "")
    entry = PendingMove.objects.get(pk=move.pk).entry
    out = services.move_player(t, entry, 2, 10, actor=actor, reason="wrong seat")
    with translation.override("it"):
        assert selectors.move_dict(out.move)["reason"] == "wrong seat" and selectors.move_dict(out.move)["reason_code"] == ""


def test_every_refusal_of_the_engine_reaches_a_person_in_their_language():
    from pathlib import Path

    from seating.services.plan import ENGINE_MESSAGES, engine_error

    source = "".join(path.read_text(encoding="utf-8") for path in sorted(Path(engine.__file__).parent.glob("*.py")))
    codes = set(re.findall(r'SeatingError\(\s*"([a-z_]+)"', source))
    assert len(codes) > 20 and codes <= set(ENGINE_MESSAGES), codes - set(ENGINE_MESSAGES)
    with translation.override("it"):
        refusal = engine_error(engine.SeatingError("unknown_table", "table 7 does not exist"))
    assert refusal.as_dict() == {"code": "unknown_table", "detail": "Quel tavolo non è in gioco."}
