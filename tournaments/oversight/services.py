"""The control side of a tournament (ROLE-01, ROLE-02, ROLE-05): the regulator's grants, the
administrative controller's witness signatures on draws and moves, the numbered addenda to
the pre-start report, and the floor's rulings with their annotations.

Each function is a ``@service``: it locks the tournament, checks the rule, writes its row(s)
and one event-log row.
"""

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db.models import Sum
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from tdmanager import dates
from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.money import ZERO
from tdmanager.roles import CONTROLLER, REGULATOR, user_roles
from tdmanager.transactions import service
from tournaments.cashier.ledger import lock_tournament
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.house import HouseRules
from tournaments.models import RegulatorGrant, Ruling, RulingNote, StubReport, TournamentEvent, Witness
from tournaments.oversight import rules as oversight_rules
from tournaments.oversight import selectors as oversight_selectors


class OversightError(DomainError):
    """A control action refused by a rule; ``code`` says which."""


# --- ROLE-01: the regulator's grants ---------------------------------------------------------


@service
def set_regulator_access(tournament, username: str, *, granted: bool, actor: Actor) -> bool:
    """Give (or take back) a regulator login read access to this tournament's reports,
    ledger and event log. Returns whether he has it now."""
    t = lock_tournament(tournament)
    user = get_user_model().objects.filter(username=str(username or "")[:150]).first()
    if user is None or REGULATOR not in user_roles(user):
        raise ValidationFailed("not_a_regulator", _("%(u)s is not a regulator login.") % {"u": str(username or "")[:150]})
    if granted:
        _grant, created = RegulatorGrant.objects.get_or_create(tournament=t, user=user, defaults={"granted_by": actor.user})
        if created:
            log_event(t, Action.TOURNAMENTS_REGULATOR_GRANTED, actor, user=user.get_username())
    elif RegulatorGrant.objects.filter(tournament=t, user=user).delete()[0]:
        log_event(t, Action.TOURNAMENTS_REGULATOR_REVOKED, actor, user=user.get_username())
    return granted


# --- ROLE-01: the controller witnesses draws and moves ----------------------------------------


def _display_name(user) -> str:
    return (user.get_full_name() or user.get_username())[:150]


@service
def witness(tournament, event_id, *, actor: Actor) -> Witness:
    """The administrative controller signs a seat draw or a balancing move as witnessed
    (003 Art. 4.6, 4.7(1)). Only a controller login; once per controller and event."""
    t = lock_tournament(tournament)
    if actor.user is None or CONTROLLER not in user_roles(actor.user):
        raise OversightError("not_controller", _("Only the administrative controller witnesses draws and moves."), status=403)
    try:
        event = TournamentEvent.objects.get(pk=int(event_id), tournament=t, action__in=[a.value for a in oversight_selectors.WITNESSED])
    except (TypeError, ValueError, TournamentEvent.DoesNotExist):
        raise ValidationFailed("not_witnessable", _("That is not a seat draw or a move of this tournament."))
    if Witness.objects.filter(event=event, user=actor.user).exists():
        raise OversightError("already_witnessed", _("You have already witnessed this."))
    w = Witness.objects.create(tournament=t, event=event, user=actor.user, name=_display_name(actor.user))
    log_event(t, Action.TOURNAMENTS_WITNESS_SIGNED, actor, event=event.pk, witnessed=event.action, name=w.name)
    return w


# --- ROLE-02: the addenda to the pre-start report ----------------------------------------------


@service
def issue_stub_addendum(tournament, *, actor: Actor) -> StubReport:
    """Number the stubs sold since the last report (late registrations, rebuys, add-ons after
    the start) as the next addendum to the pre-start report (ROLE-02)."""
    t = lock_tournament(tournament)
    if oversight_selectors.start_time(t) is None:
        raise OversightError("not_started", _("Before the start every stub is in the pre-start report."))
    rows = oversight_selectors.unreported_stubs(t)
    ids = list(rows.values_list("id", flat=True))
    if not ids:
        raise OversightError("nothing_to_report", _("No stub was sold since the last report."))
    totals = rows.aggregate(p=Sum("prize_amount"), f=Sum("fee_amount"), s=Sum("side_amount"), j=Sum("jackpot_amount"), b=Sum("bounty_amount"))
    total = sum((v or ZERO for v in totals.values()), ZERO)
    number = (t.stub_reports.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    report = StubReport.objects.create(
        tournament=t, number=number, first_row_id=ids[0], last_row_id=ids[-1], stubs=len(ids), total=total, created_by=actor.user
    )
    log_event(t, Action.TOURNAMENTS_STUBS_REPORTED, actor, number=number, stubs=len(ids), total=str(total))
    return report


# --- ROLE-05: rulings ----------------------------------------------------------------------------


def _when(value, what: str, *, required: bool, field: str):
    if value in (None, ""):
        if required:
            raise ValidationFailed("bad_time", _("%(what)s: give a date and time.") % {"what": what})
        return None
    if isinstance(value, datetime):
        moment = value
    else:
        try:
            moment = parse_datetime(str(value)[:40])
        except ValueError:
            moment = None
        if moment is None:
            raise ValidationFailed("bad_time", _("%(what)s: give a date and time.") % {"what": what})
    dates.check(moment, field, what)  # before make_aware: year 1 or 9999 can leave Python's dates there
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment)
    if moment > timezone.now() + timedelta(minutes=1):
        raise ValidationFailed("bad_time", _("%(what)s is in the future.") % {"what": what})
    return moment


def _text(value, what: str, limit: int, *, required=True) -> str:
    text = str(value or "").strip()
    if required and not text:
        raise ValidationFailed("missing_text", _("%(what)s is missing.") % {"what": what})
    if len(text) > limit:
        raise ValidationFailed("text_too_long", _("%(what)s is longer than %(n)s characters.") % {"what": what, "n": limit})
    return text


@service
def record_ruling(
    tournament,
    *,
    asked_by: str,
    question: str,
    decision: str,
    asked_at=None,
    window: str = Ruling.HAND,
    disputed_at=None,
    next_hand_at=None,
    table_number=None,
    hand: str = "",
    actor: Actor,
) -> Ruling:
    """Record a floor decision (ROLE-05): final once recorded. The dispute window is checked
    (until the next hand; one minute after a pot awarded in a break, house setting) and a late
    request is recorded with ``late`` set (the page and the API warn)."""
    t = lock_tournament(tournament)
    if actor.user is None:
        raise OversightError("not_staff", _("A ruling is recorded by a logged-in floor or director."), status=403)
    if window not in (Ruling.HAND, Ruling.BREAK):
        raise ValidationFailed("bad_window", _("The dispute window is HAND or BREAK."))
    asked = _when(asked_at, _("Time asked"), required=False, field="asked_at") or timezone.now()
    disputed = _when(disputed_at, _("Time the pot was awarded"), required=window == Ruling.BREAK, field="disputed_at")
    next_hand = _when(next_hand_at, _("Time the next hand began"), required=False, field="next_hand_at")
    if table_number in ("", None):
        table = None
    else:
        try:
            table = int(table_number)
        except (TypeError, ValueError):
            table = -1
        if not 1 <= table <= 10_000:
            raise ValidationFailed("bad_table", _("A table number is a whole number from 1."))
    check = oversight_rules.dispute_window(
        window, asked_at=asked, disputed_at=disputed, next_hand_at=next_hand, break_seconds=HouseRules.of(t).ruling_break_window_seconds
    )
    ruling = Ruling.objects.create(
        tournament=t,
        table_number=table,
        hand=_text(hand, _("Hand"), 40, required=False),
        asked_by=_text(asked_by, _("Who asked"), 150),
        asked_at=asked,
        window=window,
        disputed_at=disputed,
        next_hand_at=next_hand,
        late=check.late,
        question=_text(question, _("Question"), 2000),
        decision=_text(decision, _("Decision"), 2000),
        decided_by=actor.user,
    )
    log_event(t, Action.TOURNAMENTS_RULING_RECORDED, actor, ruling=ruling.pk, table=table, late=check.late, asked_by=ruling.asked_by)
    return ruling


def late_warning(ruling: Ruling) -> str:
    if not ruling.late:
        return ""
    if ruling.window == Ruling.BREAK:
        return _("Asked after the dispute window: more than the break window after the pot was awarded.")
    return _("Asked after the dispute window: the next hand had begun.")


@service
def annotate_ruling(ruling_id, text: str, *, tournament, actor: Actor) -> RulingNote:
    """Add a note to a ruling of ``tournament``: the decision itself is final and never changed."""
    t = lock_tournament(tournament)
    if actor.user is None:
        raise OversightError("not_staff", _("A note is added by a logged-in floor or director."), status=403)
    try:
        ruling = Ruling.objects.get(pk=int(ruling_id), tournament=t)
    except (TypeError, ValueError, Ruling.DoesNotExist):
        raise OversightError("no_such_ruling", _("No such ruling in this tournament."), status=404)
    note = RulingNote.objects.create(ruling=ruling, text=_text(text, _("Note"), 2000), user=actor.user)
    log_event(t, Action.TOURNAMENTS_RULING_ANNOTATED, actor, ruling=ruling.pk)
    return note
