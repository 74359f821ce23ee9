"""What a published event's versions say, as players read them (FMT-02), and a seat's words."""

from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import signals
from tournaments.models import (
    Penalty,
    TournamentChange,
)

CHANGE_LABELS = {
    "start_at": gettext_lazy("Start"),
    "structure": gettext_lazy("Structure"),
    "buy_in": gettext_lazy("Buy-in"),
    "fee": gettext_lazy("Fee"),
    "guarantee": gettext_lazy("Guarantee"),
    "starting_stack": gettext_lazy("Starting stack"),
    "late_reg_closes_after_level": gettext_lazy("Late registration until level"),
    "rebuy_price": gettext_lazy("Rebuy"),
    "rebuy_fee": gettext_lazy("Rebuy fee"),
    "addon_price": gettext_lazy("Add-on"),
    "addon_fee": gettext_lazy("Add-on fee"),
}


def _shown(name, value) -> str:
    if value is None or value == "":
        return "—"
    if name == "start_at":
        try:
            return date_format(timezone.localtime(datetime.fromisoformat(value)), "d/m/Y H:i")
        except (TypeError, ValueError):
            return str(value)
    return str(value)


def change_lines(change) -> list[str]:
    """Each change of one version as a line: "Start: 12/03/2026 20:00 → 12/03/2026 20:30"."""
    lines = []
    for name, value in (change.changes or {}).items():
        if name == "structure_rows":
            for number, old, new in value:
                lines.append(_("Structure, row %(n)s") % {"n": number} + f": {old or '—'} → {new or '—'}")
        else:
            old, new = value
            label = CHANGE_LABELS.get(name, name)
            lines.append(f"{label}: {_shown(name, old)} → {_shown(name, new)}")
    return lines


def change_history(t):
    """The event's versions, newest first (FMT-02)."""
    return TournamentChange.objects.filter(tournament=t).select_related("changed_by").order_by("-version")


def recent_changes(t, now=None, hours: int = 12) -> list:
    """The versions of the last ``hours`` (house rule ``change_notice_hours``), newest first, at
    most three: what the lobby screens announce (FMT-02)."""
    now = now or timezone.now()
    return list(change_history(t).filter(changed_at__gte=now - timedelta(hours=hours))[:3])


def public_reason(change) -> str:
    """Why a version changed, as the players may read it: the reason once the director has shown
    it to them (``changes.set_reason_public``), else nothing."""
    return change.reason if change.reason_public else ""


def change_announcement(change) -> str:
    """One version as the lobby screens announce it, in the active language, with its reason
    where the players may read it."""
    text = _("Changed: %(what)s") % {"what": "; ".join(change_lines(change))}
    reason = public_reason(change)
    return text + (f" ({reason})" if reason else "")


def prize_forfeited_entries(t) -> set[int]:
    """PEN-07 / C27: the entries whose prize an elimination without prize took away (they keep
    their place by removal time, but are paid nothing). A cancelled penalty forfeits nothing."""
    return set(Penalty.objects.filter(tournament=t, prize_forfeited=True).exclude(status=Penalty.CANCELLED).values_list("entry_id", flat=True))


def seat_of(entry):
    """``{"table", "seat"}`` while the entry is seated (seating answers ``signals.seat_wanted``), else None."""
    return signals.ask_one(signals.seat_wanted, entry=entry) if entry is not None else None
