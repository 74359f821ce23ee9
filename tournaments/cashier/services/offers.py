"""What the desk offers a player, button by button.

Each button is answered by the very checks its sale runs, so the desk never offers what the sale
refuses nor hides what it sells.
"""

from django.utils import timezone

from tdmanager.errors import DomainError
from tournaments.cashier.services.admission import (
    ADD_ON,
    BUY_IN,
    PRE_REGISTRATION,
    RE_ENTRY,
    REBUY,
    _check_addon_entry,
    _check_declarable,
    _check_rebuy_entry,
    check_admission,
    entry_at_desk,
    sells_rebuys,
)
from tournaments.cashier.services.alternates import _check_alternate
from tournaments.models import Entry, Person, Tournament

#: The desk's sale buttons, in the order it shows them.
DESK_OPS = ("register", "preregister", "reenter", "declare-rebuy", "rebuy", "addon", "alternate")


def desk_entry(mine: list[Entry]) -> Entry | None:
    """The entry a desk's rebuy or add-on is for: the one playing, else the last one busted."""
    playing = [e for e in mine if e.status == Entry.ACTIVE]
    busted = [e for e in mine if e.status == Entry.BUSTED]
    return (playing or busted[-1:] or [None])[0]


def desk_offers(t: Tournament, person: Person, now=None) -> dict:
    """What the desk may sell ``person`` in ``t`` now, button by button (``DESK_OPS``), each
    answered by the very checks its sale runs (``check_admission`` and the entry's own), so the
    desk never offers what the sale refuses nor hides what it sells. For each: ``sold`` (the
    event's format has it at all — no rebuy in a re-entry event, no add-on without one: the desk
    hides the button), ``allowed`` now, and when not, the refusal's ``code`` and ``reason`` as
    the sale would word it. A refusal the desk may confirm (the final table's, under ASK) is
    allowed: the sale asks. Read without the tournament's lock: the sale asks again under it."""
    now = now or timezone.now()
    mine = sorted(t.entries.filter(person=person).exclude(status=Entry.CANCELLED), key=lambda e: e.number)
    entry = desk_entry(mine)
    declared = entry is not None and entry.rebuy_declared_at is not None

    def rebuy():
        e = entry_at_desk(entry, person)
        check_admission(t, person, REBUY, now, revives=e.status == Entry.BUSTED, declared=declared)
        _check_rebuy_entry(t, e)

    def declare():
        e = entry_at_desk(entry, person)
        check_admission(t, person, REBUY, now)
        _check_declarable(t, e)

    def addon():
        e = entry_at_desk(entry, person)
        check_admission(t, person, ADD_ON, now)
        _check_addon_entry(t, e, now)

    rules = {
        "register": (True, lambda: check_admission(t, person, BUY_IN, now, mine=mine)),
        "preregister": (True, lambda: check_admission(t, person, PRE_REGISTRATION, now, mine=mine)),
        "reenter": (t.allows_reentry, lambda: check_admission(t, person, RE_ENTRY, now, mine=mine)),
        "declare-rebuy": (sells_rebuys(t), declare),
        "rebuy": (sells_rebuys(t), rebuy),
        "addon": (t.allows_addon, addon),
        "alternate": (True, lambda: _check_alternate(t, person)),
    }
    offers = {}
    for op in DESK_OPS:
        sold, check = rules[op]
        offer = {"sold": sold, "allowed": sold, "code": "", "reason": ""}
        if sold:
            try:
                check()
            except DomainError as refused:
                if not refused.extra.get("confirmable"):
                    offer.update(allowed=False, code=refused.code, reason=str(refused.message))
        offers[op] = offer
    return {"entry": entry.pk if entry else None, "offers": offers}
