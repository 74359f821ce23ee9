"""The draw history: a logged draw replayed from its seed, and how a player's seats were assigned."""

from django.utils.translation import gettext as _

from tdmanager.errors import DomainError
from tournaments.eventlog.actions import Action
from tournaments.models import Entry, TournamentEvent
from tournaments.signals import ask_one

from .. import labels, replay, signals
from ..models import PendingMove

DRAW_ACTIONS = (Action.SEATING_DRAW_INITIAL, Action.SEATING_PLAYER_SEATED, Action.SEATING_TABLE_BROKEN, Action.SEATING_FINAL_TABLE_FORMED)


def draw_replay(tournament, event_id: int) -> dict:
    """A logged draw of this tournament replayed from its seed and inputs (``seating.replay``):
    its event, action and seed, the result logged, the result recomputed and whether they match.
    404 for an event not in this tournament's log; 409 for one that draws nothing or was drawn
    by hand (no seed to replay)."""
    ev = TournamentEvent.objects.filter(tournament=tournament, pk=event_id).values("pk", "action", "payload", "created_at").first()
    if ev is None:
        raise DomainError("not_found", _("This tournament's log has no such event."), status=404, field="event")
    payload = ev["payload"] if isinstance(ev["payload"], dict) else {}
    other = None if ev["action"] in replay.REPLAYERS else ask_one(signals.draw_replay_wanted, tournament=tournament, action=ev["action"])
    try:
        done = replay.replay(ev["action"], payload, other)
    except replay.NotReplayable as exc:
        if exc.code == "not_a_draw":
            raise DomainError("not_a_draw", _("This event is not a random draw: there is nothing to replay."), field="event") from None
        raise DomainError(
            "no_seed", _("This draw was logged without a seed (a draw by hand, or one logged before seeds were): it cannot be replayed."), field="event"
        ) from None
    return {"event": ev["pk"], "at": ev["created_at"].isoformat(), **done.as_dict()}


def draw_history(tournament, entry) -> list[dict]:
    """How this player's seats were assigned: the draws and moves that placed him, from the
    event log (SEAT-01, SEAT-04: both permutations of a break are shown)."""
    out = []
    initial = TournamentEvent.objects.filter(tournament=tournament, action=Action.SEATING_DRAW_INITIAL).order_by("id")
    for ev in initial:
        assignment = ev.payload.get("assignment", [])
        for i, (e, table, seat) in enumerate(assignment, 1):
            if e == entry.pk:
                cards = ev.payload.get("button_cards", {}).get(str(table), [])
                out.append(
                    {
                        "event": ev,
                        "kind": "initial",
                        "table": table,
                        "seat": seat,
                        "ticket": i,
                        "tickets": len(assignment),
                        "button": ev.payload.get("buttons", {}).get(str(table)),
                        "button_cards": cards,
                        "manual": ev.payload.get("mode") == "MANUAL",
                    }
                )
        for e, table, seat in ev.payload.get("predrawn", []):  # SEAT-02: where the draw in advance put him
            if e == entry.pk:
                out.append(
                    {
                        "event": ev,
                        "kind": "initial",
                        "table": table,
                        "seat": seat,
                        "predrawn": True,
                        "session": ev.payload.get("predraw_session", ""),
                        "button": ev.payload.get("buttons", {}).get(str(table)),
                        "button_cards": ev.payload.get("button_cards", {}).get(str(table), []),
                    }
                )
        for e, table, seat in ev.payload.get("reserved", []):  # SEAT-07: a seat given by hand, not drawn
            if e == entry.pk:
                out.append(
                    {
                        "event": ev,
                        "kind": "initial",
                        "table": table,
                        "seat": seat,
                        "reserved": True,
                        "button": ev.payload.get("buttons", {}).get(str(table)),
                        "button_cards": ev.payload.get("button_cards", {}).get(str(table), []),
                    }
                )
    for ev in TournamentEvent.objects.filter(tournament=tournament, action=Action.SEATING_PLAYER_SEATED, payload__entry=entry.pk).order_by("id"):
        out.append(
            {
                "event": ev,
                "kind": "late",
                "table": ev.payload.get("table"),
                "seat": ev.payload.get("seat"),
                "reason": labels.reason_text(ev.payload.get("reason")),
                "reason_code": labels.reason_code(ev.payload.get("reason")),
            }
        )
    for m in PendingMove.objects.filter(tournament=tournament, entry=entry).select_related("event", "done_by", "entry__person").order_by("id"):
        item = {
            "event": m.event,
            "kind": m.kind.lower(),
            "move": m,
            "table": m.to_table,
            "seat": m.to_seat,
            "reason": m.reason_text,
            "reason_code": m.reason_code,
        }
        if m.event and m.event.action in DRAW_ACTIONS:
            item["seat_order"] = m.event.payload.get("seat_order", [])
            item["card_order"] = m.event.payload.get("card_order", [])
            item["button_seat"] = m.event.payload.get("button_seat")
            item["button_cards"] = m.event.payload.get("button_cards")
            item["manual"] = m.event.payload.get("mode") == "MANUAL"
        out.append(item)
    out.sort(key=lambda i: i["event"].id if i["event"] else 0)
    ids = {p for i in out for p, _card in i.get("card_order", [])}
    names = (
        {
            pk: f"{first} {last} #{number}".strip()
            for pk, number, first, last in Entry.objects.filter(pk__in=ids).values_list("pk", "number", "person__first_name", "person__last_name")
        }
        if ids
        else {}
    )
    for i in out:
        if "card_order" in i:
            i["card_order"] = [[p, card, names.get(p, f"#{p}")] for p, card in i["card_order"]]
    return out
