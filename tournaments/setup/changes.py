"""FMT-02: a published event's changes reach the players.

Once registration has opened (the event is published) every change of what a player reads
about it (day and time, structure, buy-in and fees, guarantee, stack, late registration) is a
new version: ``TournamentChange`` keeps what changed, who changed it, when and why, and its
logged action refreshes the lobby screens, which show the change as an announcement
(``selectors.recent_changes``, ``change_announcement``). The setup service and the structures service write it,
inside their own transaction; ``record_change`` is their one step. A version's reason is the
staff's until the director shows it to the players (``set_reason_public``).
"""

from datetime import datetime
from decimal import Decimal

from django.db.models import Max
from django.utils.translation import gettext as _

from tdmanager import shown_text
from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.transactions import service
from tournaments.cashier.ledger import lock_tournament
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.models import BlindStructure, Tournament, TournamentChange

#: What players read about an event (FMT-02: day, time, structure, buy-in, prize pool).
PUBLIC_FIELDS = (
    "start_at",
    "structure",
    "buy_in",
    "fee",
    "guarantee",
    "starting_stack",
    "late_reg_closes_after_level",
    "rebuy_price",
    "rebuy_fee",
    "addon_price",
    "addon_fee",
)
#: Published: the lobby shows it and players register (a planned event is still a draft).
PUBLISHED = (Tournament.REGISTERING, Tournament.RUNNING)


def is_published(t: Tournament) -> bool:
    return t.status in PUBLISHED


def stored(value):
    """A value as the version keeps it (JSON): times in ISO form, money as text, a structure by name."""
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, BlindStructure):
        return value.name
    return value


def public_changes(t: Tournament, changed: dict) -> dict:
    """``{field: [old, new]}`` for the public fields among ``changed`` (new values by field name)."""
    out = {}
    for name in PUBLIC_FIELDS:
        if name in changed:
            old = getattr(t, name)
            out[name] = [stored(old), stored(changed[name])]
    return out


def require_reason(t: Tournament, changes: dict, reason: str, *, field: str = "reason") -> None:
    """A published event's change says why (FMT-02): players read it on the lobby screens."""
    if changes and is_published(t) and not (reason or "").strip():
        raise ValidationFailed("change_reason_required", _("This event is published: say why it changes (the players read it on the lobby screens)."))
    if changes and is_published(t):  # the version's reason: the players may be shown it
        shown_text.check(reason, field, _("Reason"))


def structure_rows(rows) -> list[str]:
    """Each structure row as a player reads it: "100/200 ante 200 · 20 min", "break · 10 min"
    (rows: stored items or cleaned dicts)."""
    out = []
    for r in rows:
        get = r.get if isinstance(r, dict) else lambda k, r=r: getattr(r, k)
        if get("kind") == "BREAK":
            out.append(f"break · {get('minutes')} min")
        else:
            ante = f" ante {get('ante')}" if get("ante") else ""
            # FMT-16: a mixed event's level changing game is a change the players are told of.
            game = f" · {get('game')}" if get("game") else ""
            out.append(f"{get('small_blind')}/{get('big_blind')}{ante} · {get('minutes')} min{game}")
    return out


def structure_changes(old: list[str], new: list[str]) -> dict:
    """``{"structure_rows": [[row number, old, new], ...]}`` for the rows that differ (None: no row)."""
    rows = []
    for i in range(max(len(old), len(new))):
        a = old[i] if i < len(old) else None
        b = new[i] if i < len(new) else None
        if a != b:
            rows.append([i + 1, a, b])
    return {"structure_rows": rows} if rows else {}


def record_change(t: Tournament, changes: dict, *, actor: Actor, reason: str, kind: str = TournamentChange.SETUP):
    """Write the next version of a published event and announce it (None when nothing public changed)."""
    if not changes or not is_published(t):
        return None
    version = (TournamentChange.objects.filter(tournament=t).aggregate(v=Max("version"))["v"] or 0) + 1
    row = TournamentChange.objects.create(tournament=t, version=version, kind=kind, changes=changes, reason=(reason or "").strip()[:300], changed_by=actor.user)
    log_event(t, Action.TOURNAMENTS_TOURNAMENT_VERSIONED, actor, version=version, kind=kind, changes=changes, reason=row.reason)
    return row


@service
def set_reason_public(tournament, version: int, public: bool, *, actor: Actor) -> TournamentChange:
    """Show the players (the public rules page and change feed, the lobby screens) why version
    ``version`` of the event changed, or keep it from them again: a reason is the staff's until
    the director shows it (a free text may name people or private arrangements)."""
    t = lock_tournament(tournament)
    row = TournamentChange.objects.filter(tournament=t, version=version).first()
    if row is None:
        raise DomainError("unknown_version", _("This event has no version %(v)s.") % {"v": version}, status=404)
    if not row.reason:
        raise ValidationFailed("no_reason", _("Version %(v)s was published without a reason: there is nothing to show.") % {"v": version})
    if public:  # a reason written before the rule: never shown as it is
        shown_text.check(row.reason, "reason", _("Reason"))
    if row.reason_public != bool(public):
        row.reason_public = bool(public)
        row.save(update_fields=["reason_public"])
        action = Action.TOURNAMENTS_CHANGE_REASON_SHOWN if public else Action.TOURNAMENTS_CHANGE_REASON_HIDDEN
        log_event(t, action, actor, version=version)
    return row
