"""Every random draw replayed from its log (SEAT-01: «log the draw (inputs, seed/nonce, result)»).

A draw's random source is ``random.Random(seed)`` (Python's Mersenne Twister), the seed drawn
fresh from the OS CSPRNG for that one draw (:func:`new_seed`) and logged with the draw's inputs.
Given the logged seed and inputs, the same engine function gives the same result: an auditor
(controller, regulator) replays a logged draw (``manage.py replay_draw``, the API's
``…/draws/<event>/replay/``) and compares the result with the one logged.

Each kind of draw is a ``Replayer``: the part of the payload the draw decided (``logged``) and
the same part recomputed from the seed and inputs. Seating's draws are here; the other apps
answer ``signals.draw_replay_wanted`` for theirs (payouts: a mystery envelope; tournaments: a
random chip race; the formats: a heads-up bracket), seating never calling them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from tournaments.draws import new_seed, rng_of  # noqa: F401 (seating's draws use them from here)
from tournaments.eventlog.actions import Action

from . import engine
from . import predraw as engine_predraw


def table_json(table: engine.Table) -> dict:
    """An engine table as the log keeps a draw's input (seats as [seat, player] pairs)."""
    return {
        "number": table.number,
        "capacity": table.capacity,
        "seats": [[seat, player] for seat, player in sorted(table.seats.items())],
        "big_blind_seat": table.big_blind_seat,
        "previous_big_blind_seat": table.previous_big_blind_seat,
        "locked_seats": sorted(table.locked_seats),
        "locked": table.locked,
        "big_blind_twice": table.big_blind_twice,
    }


def table_of(data: dict) -> engine.Table:
    return engine.Table(
        data["number"],
        data["capacity"],
        {seat: player for seat, player in data["seats"]},
        data["big_blind_seat"],
        data["previous_big_blind_seat"],
        frozenset(data["locked_seats"]),
        data["locked"],
        data["big_blind_twice"],
    )


def _json(value):
    """As the log stores it (tuples become lists, dict keys strings), so the two compare."""
    return json.loads(json.dumps(value))


def _pairs(payload) -> list[tuple]:
    return [tuple(p) for p in payload.get("apart") or ()]


def _initial(p: dict) -> tuple[dict, dict]:
    """SEAT-01 / SEAT-08: the tickets and every table's button (or, after a draw in advance,
    SEAT-02: who kept his seat and who was drawn into the free ones)."""
    keys = ["assignment", "apart_swaps", "buttons", "button_cards"]
    if p.get("mode") == "MANUAL":
        # The seats were entered from the cards the players drew (a human's draw); the
        # buttons were drawn by the machine, and only they replay.
        placed = [tuple(a) for a in p["assignment"]] + [tuple(r) for r in p.get("reserved") or ()]
        d = engine.seat_tables(placed, capacity=p["capacity"], rng=rng_of(p["seed"]), order=p["table_order"])
        got = {"buttons": {str(n): s for n, s in d.buttons.items()}, "button_cards": {str(n): [list(c) for c in cards] for n, cards in d.button_cards.items()}}
        return {k: p.get(k) for k in got}, got
    if "predraw_session" in p:
        keys += ["predrawn", "predraw_redrawn"]
        d = engine_predraw.seat_as_predrawn(
            p["entries"],
            {e: (tb, s) for e, tb, s in p["predraw_seats"]},
            capacity=p["capacity"],
            rng=rng_of(p["seed"]),
            max_players_per_table=p["max_players_per_table"],
            reserved={e: (tb, s) for e, tb, s in p["reservations"]},
            held=[tuple(h) for h in p["held"]],
            apart=_pairs(p),
        )
        got = {"predrawn": [list(k) for k in d.kept], "predraw_redrawn": [list(n) for n in d.not_kept]}
    else:
        d = engine.draw_seats(
            p["entries"],
            capacity=p["capacity"],
            rng=rng_of(p["seed"]),
            table_numbers=p.get("table_numbers"),  # the room's tables; none: from 1
            max_players_per_table=p["max_players_per_table"],
            apart=_pairs(p),
            reserved={e: (tb, s) for e, tb, s in p["reserved"]},
        )
        got = {}
    got.update(
        assignment=[list(a) for a in d.assignments],
        apart_swaps=d.apart_swaps,
        buttons={str(n): s for n, s in d.buttons.items()},
        button_cards={str(n): [list(c) for c in cards] for n, cards in d.button_cards.items()},
    )
    return {k: p.get(k) for k in keys}, got


def _break(p: dict) -> tuple[dict, dict]:
    """SEAT-04: both steps, the seat cards' order and the players' card draw."""
    d = engine.draw_break([table_of(t) for t in p["tables"]], p["table"], rng_of(p["seed"]), apart=_pairs(p))
    got = {"seat_order": [list(s) for s in d.seat_order], "card_order": [[pl, c] for pl, c in d.card_order], "apart_swaps": d.apart_swaps}
    return {"seat_order": p.get("seat_order"), "card_order": p.get("card_order"), "apart_swaps": p.get("apart_swaps", 0)}, got


def _final(p: dict) -> tuple[dict, dict]:
    """BAL-09: everybody drawn again into the final table, and its button."""
    d = engine.plan_final_table([table_of(t) for t in p["tables"]], rng_of(p["seed"]))
    got = {
        "seat_order": [list(s) for s in d.seat_order],
        "card_order": [[pl, c] for pl, c in d.card_order],
        "button_seat": d.button_seat,
        "button_cards": [list(c) for c in d.button_cards],
    }
    return {k: p.get(k) for k in got}, got


def _late(p: dict) -> tuple[dict, dict]:
    """SEAT-03: a seat from the seat pool (or a new table when every table is full)."""
    d = engine.draw_late_seat(
        [table_of(t) for t in p["tables"]],
        p["entry"],
        rng_of(p["seed"]),
        capacity=p["capacity"],
        new_table_number=p["new_table_number"],
        break_order=p["break_order"],
        apart=_pairs(p),
        next_break=p["next_break"],
    )
    got = {"table": d.table, "seat": d.seat, "new_table": d.opens_new_table, "wait_for_button": d.wait_for_button}
    return {k: p.get(k) for k in got}, got


def _predraw(p: dict) -> tuple[dict, dict]:
    """SEAT-02: the shuffled order (who goes to which session) and each session's seats."""
    assignments, order = engine_predraw.predraw(
        p["entries"],
        p["session_labels"],
        capacity=p["capacity"],
        rng=rng_of(p["seed"]),
        max_players_per_table=p["max_players_per_table"],
        table_numbers=p.get("table_numbers"),
    )
    got = {"order": list(order), "assignment": [list(a) for a in assignments]}
    return {k: p.get(k) for k in got}, got


def _balance(p: dict) -> tuple[dict, dict]:
    """BAL-04/05: the moves a balancing plan proposed (the table drawn among equally full or
    short ones, the open seat drawn where the big blind is unknown), those already proposed
    (``open_slips``) left out as the service leaves them; during hand-for-hand, those between
    tables that had finished the hand (``hand_for_hand``: the tables playing it, the slips shown)."""
    tables = [table_of(t) for t in p["tables"]]
    have = {tuple(k) for k in p["open_slips"]}
    h4h = p.get("hand_for_hand")
    if h4h is None:
        plan = engine.plan_balance(tables, rng=rng_of(p["seed"]), apart=_pairs(p), fixed=frozenset(p["fixed"]), **p["rules"])
        plan = engine.keep_drawn_seats(plan, have, tables)
    else:  # CLK-06: between hands, the tables still playing the hand and the slips shown given
        kept = [tuple(k) for k in h4h["kept"]]
        between = engine.plan_balance_between_hands(
            tables, playing=h4h["playing"], kept=kept, rng=rng_of(p["seed"]), apart=_pairs(p), fixed=frozenset(p["fixed"]), **p["rules"]
        )
        plan = between.moves
    wanted = dict.fromkeys((m.player, m.from_table, m.from_seat, m.to_table, m.to_seat) for m in plan)
    got = {"moves": [list(k) for k in wanted if k not in have]}
    keys = ("entry", "from_table", "from_seat", "to_table", "to_seat")
    return {"moves": [[m[k] for k in keys] for m in p.get("moves") or ()]}, got


def _manual_break(p: dict) -> tuple[dict, dict]:
    """SEAT-04 under a manual draw: step 1, the seat cards printed (the players' cards are by hand)."""
    got = {"cards": [list(c) for c in engine.break_seat_cards([table_of(t) for t in p["tables"]], p["table"], rng_of(p["seed"]))]}
    return {"cards": p.get("cards")}, got


#: action → (the payload's logged part, the same part recomputed). ``None``: not replayable here.
Replayer = Callable[[dict], tuple[dict, dict]]
REPLAYERS: dict[str, Replayer] = {
    Action.SEATING_DRAW_INITIAL: _initial,
    Action.SEATING_TABLE_BROKEN: _break,
    Action.SEATING_FINAL_TABLE_FORMED: _final,
    Action.SEATING_PLAYER_SEATED: _late,
    Action.SEATING_PREDRAW: _predraw,
    Action.SEATING_MOVES_PROPOSED: _balance,
    Action.SEATING_MANUAL_DRAW_OPENED: _manual_break,  # an initial one has no seed: all by hand
}


@dataclass(frozen=True)
class Replay:
    action: str
    seed: str
    logged: dict
    recomputed: dict

    @property
    def matches(self) -> bool:
        return _json(self.logged) == _json(self.recomputed)

    def as_dict(self) -> dict:
        return {"action": self.action, "seed": self.seed, "logged": _json(self.logged), "recomputed": _json(self.recomputed), "matches": self.matches}


class NotReplayable(Exception):
    """``code``: ``not_a_draw`` (the action draws nothing) or ``no_seed`` (a manual draw, a seat
    given by hand, or a draw logged before seeds were)."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


def replay(action: str, payload: dict, replayer: Replayer | None = None) -> Replay:
    """Recompute the draw logged as ``action`` with ``payload`` from its seed and inputs.
    ``replayer``: another app's answer for an action seating does not draw (a mystery envelope)."""
    replayer = replayer or REPLAYERS.get(action)
    if replayer is None:
        raise NotReplayable("not_a_draw")
    if payload.get("seed") in (None, ""):
        raise NotReplayable("no_seed")
    try:
        logged, recomputed = replayer(payload)
    except (KeyError, TypeError, ValueError, engine.SeatingError) as exc:
        # inputs missing or changed so the engine refuses them: the log does not reproduce
        return Replay(action, str(payload["seed"]), _logged_only(action, payload), {"error": type(exc).__name__})
    return Replay(action, str(payload["seed"]), logged, recomputed)


def _logged_only(action: str, payload: dict) -> dict:
    keys = {
        Action.SEATING_DRAW_INITIAL: ("assignment", "buttons"),
        Action.SEATING_TABLE_BROKEN: ("seat_order", "card_order"),
        Action.SEATING_FINAL_TABLE_FORMED: ("seat_order", "card_order", "button_seat"),
        Action.SEATING_PLAYER_SEATED: ("table", "seat"),
        Action.SEATING_PREDRAW: ("order", "assignment"),
        Action.SEATING_MOVES_PROPOSED: ("moves",),
        Action.SEATING_MANUAL_DRAW_OPENED: ("cards",),
        Action.TOURNAMENTS_CHIPRACE_RECORDED: ("winners", "rounds"),
        Action.FORMATS_BRACKET_DRAWN: ("order",),
        Action.FORMATS_TIMED_FINISHED: ("standings",),
        Action.FORMATS_FLIGHT_CLOSED: ("chip_leaders",),
    }.get(action, ("envelope",))
    return {k: payload.get(k) for k in keys}
