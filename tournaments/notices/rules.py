"""What the room tells a player's phones: the rules, pure apart from gettext.

A notice is a change of what the player's own page shows (``tournaments.phone``): his seat, a
move to make, his place and prize, his bounties, whether he is in the money. ``facts`` keeps of
a page what notices compare; ``changes`` says, from the facts last told and the facts now, what
to tell (a kind and its numbers); ``text`` puts one into words in the active language. Nothing
else reaches a phone, so a notice never says more than the page it opens, and never another
player's name or seat.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tdmanager.formatting import money

#: Every kind of notice, in the order a phone page offers them; each is a house setting too
#: (``notify_<kind>``) and the player chooses among those the house sends.
KINDS = ("seat", "move", "final_table", "starts_soon", "reg_closes", "break_ends", "announcement", "in_money", "busted", "bounty", "prize_ready")

#: The kinds' names as a phone page offers them.
KIND_LABELS = {
    "seat": gettext_lazy("My seat (draw, late registration, re-entry)"),
    "move": gettext_lazy("A move: my table breaks or is balanced"),
    "final_table": gettext_lazy("The final table drawn"),
    "starts_soon": gettext_lazy("My event starts soon"),
    "reg_closes": gettext_lazy("Registration closing for an event of a series I played"),
    "break_ends": gettext_lazy("The break ends in 2 minutes"),
    "announcement": gettext_lazy("The director's announcements"),
    "in_money": gettext_lazy("In the money"),
    "busted": gettext_lazy("My place and prize when I am out"),
    "bounty": gettext_lazy("A bounty won"),
    "prize_ready": gettext_lazy("My prize ready at the desk"),
}

#: The break's last seconds in which its end is told ("The break ends in 2 minutes").
BREAK_ENDS_SECONDS = 120


def starts_soon_from(start_at: datetime, minutes: int) -> datetime:
    """The moment an event's players are told it starts soon: the house's ``minutes`` before its start."""
    return start_at - timedelta(minutes=minutes)


def break_ends_from(break_ends_at: datetime) -> datetime:
    """The moment a break's end is told: ``BREAK_ENDS_SECONDS`` before it."""
    return break_ends_at - timedelta(seconds=BREAK_ENDS_SECONDS)


#: RFC 8030: how long a push service keeps a message for a phone that is off, and how urgent it
#: is. Where to sit is stale within minutes and is worth waking the phone; the rest keeps hours.
PACE = {
    "seat": (10 * 60, "high"),
    "move": (10 * 60, "high"),
    "final_table": (10 * 60, "high"),
    "starts_soon": (15 * 60, "normal"),
    "reg_closes": (30 * 60, "normal"),
    "break_ends": (2 * 60, "high"),
    "announcement": (3600, "normal"),
    "in_money": (2 * 3600, "normal"),
    "busted": (4 * 3600, "normal"),
    "bounty": (2 * 3600, "normal"),
    "prize_ready": (12 * 3600, "normal"),
}


@dataclass(frozen=True)
class Change:
    """One thing to tell about one entry: ``kind`` and the numbers its sentence names."""

    kind: str
    params: tuple

    @property
    def topic(self) -> str:
        """RFC 8030 5.4: a newer message of the same topic replaces an older one not yet
        delivered: one for where the player sits (a newer move replaces an older seat or
        move), one per other kind."""
        return "seat" if self.kind in ("seat", "move", "final_table") else self.kind


def facts(status: str, place, seat, move, prizes, bounty, in_money: bool, starts_soon: bool = False, break_ends: bool = False, said=None) -> dict:
    """What notices compare of an entry's page (JSON-ready: it is stored, ``NoticeMark``).
    ``starts_soon``: the event has not started and starts within the house's minutes;
    ``break_ends``: the clock runs in a break's last ``BREAK_ENDS_SECONDS``; ``said``: the
    director's latest announcement to the event's players (``{"id", "text"}``), as the page shows it."""
    return {
        "said": [said["id"], said["text"]] if said and status in ("ACTIVE", "RESERVED") else None,
        "starts_soon": bool(starts_soon and status in ("ACTIVE", "RESERVED")),
        "break_ends": bool(break_ends and status == "ACTIVE"),
        "status": status,
        "place": place,
        "seat": [seat["table"], seat["seat"]] if seat else None,
        "move": [move.get("kind") or "", move["from_table"], move["to_table"], move["to_seat"]] if move else None,
        "prizes": [p["amount"] for p in prizes or () if not p.get("paid")],
        # the prizes the desk may pay now (the page's ``ready``: locked, signed off, not held)
        "ready": [p["amount"] for p in prizes or () if p.get("ready") and not p.get("paid")],
        "knockouts": (bounty or {}).get("knockouts") or 0,
        "won": (bounty or {}).get("won"),
        "in_money": bool(in_money and status == "ACTIVE"),
    }


def changes(before: dict | None, now: dict) -> list[Change]:
    """What to tell, going from the facts last told (``before``; None or empty: nothing told
    yet) to ``now``. A move confirmed by the floor (the seat now where the slip said) and a slip
    taken back are told nothing: the player was told where to go already."""
    before = before or {}
    out: list[Change] = []
    if now.get("said") and now["said"] != before.get("said"):
        out.append(Change("announcement", (now["said"][1],)))
    if now.get("starts_soon") and not before.get("starts_soon"):
        out.append(Change("starts_soon", ()))
    if now["status"] == "BUSTED" and before.get("status") != "BUSTED" and now["place"]:
        out.append(Change("busted", (now["place"], tuple(now["prizes"]))))
    # A mark kept before the facts had ``ready`` counts what is ready now as told already.
    ready_before = list(before.get("ready", now.get("ready") or []) if before else [])
    newly_ready = []
    for amount in now.get("ready") or []:
        if amount in ready_before:
            ready_before.remove(amount)
        else:
            newly_ready.append(amount)
    if newly_ready:
        out.append(Change("prize_ready", (tuple(newly_ready),)))
    if now["status"] == "BUSTED":
        return out
    if now["status"] != "ACTIVE":
        return out
    move, seat = now["move"], now["seat"]
    if move and move != before.get("move"):
        kind, from_table, to_table, to_seat = move
        out.append(Change("final_table" if kind == "FINAL_TABLE" else "move", (kind, from_table, to_table, to_seat)))
    elif seat and seat != before.get("seat"):
        slip = before.get("move")
        if slip and [slip[2], slip[3]] == seat:
            pass  # the move he was told about, done
        elif not before.get("seat"):
            out.append(Change("seat", tuple(seat)))
        else:
            out.append(Change("move", ("", before["seat"][0], seat[0], seat[1])))
    if now.get("break_ends") and not before.get("break_ends"):
        out.append(Change("break_ends", ()))
    if now["in_money"] and not before.get("in_money"):
        out.append(Change("in_money", ()))
    if now["knockouts"] > (before.get("knockouts") or 0):
        out.append(Change("bounty", (now["won"],)))
    return out


def text(change: Change, currency: str, minutes: int = 15) -> str:
    """The notice's sentence in the active language (``minutes``: the house's, before a start)."""
    p = change.params
    if change.kind == "starts_soon":
        return ngettext("The event starts in %(minutes)s minute.", "The event starts in %(minutes)s minutes.", minutes) % {"minutes": minutes}
    if change.kind == "reg_closes":
        return _("Registration for %(event)s closes at the end of this level.") % {"event": p[0]}
    if change.kind == "announcement":
        return p[0]  # the director's own words, as typed
    if change.kind == "break_ends":
        return _("The break ends in 2 minutes: back to your seat.")
    if change.kind == "seat":
        return _("Your seat: table %(table)s, seat %(seat)s") % {"table": p[0], "seat": p[1]}
    if change.kind == "final_table":
        return _("Final table drawn: go to table %(table)s, seat %(seat)s") % {"table": p[2], "seat": p[3]}
    if change.kind == "move":
        where = {"from": p[1], "table": p[2], "seat": p[3]}
        if p[0] == "BREAK":
            return _("Table %(from)s breaks: go to table %(table)s, seat %(seat)s") % where
        if p[0] == "BALANCE":
            return _("Table %(from)s is balanced: go to table %(table)s, seat %(seat)s") % where
        return _("Your seat changed: go to table %(table)s, seat %(seat)s") % where
    if change.kind == "in_money":
        return _("You are in the money.")
    if change.kind == "busted":
        place, prizes = p
        if prizes:
            amounts = ", ".join(money(a, currency) for a in prizes)
            return _("You finished in place %(place)s: your prize of %(amount)s waits at the desk.") % {"place": place, "amount": amounts}
        return _("You finished in place %(place)s.") % {"place": place}
    if change.kind == "bounty":
        return _("You won a bounty: %(amount)s won so far.") % {"amount": money(p[0], currency)}
    if change.kind == "prize_ready":
        return _("Your prize of %(amount)s is ready: collect it at the desk.") % {"amount": ", ".join(money(a, currency) for a in p[0])}
    raise ValueError(change.kind)
