"""The control side's reads (ROLE-01, ROLE-02, ROLE-05): what the controller witnesses, the
stubs, the regulator's grants."""

from django.db.models import Q

from tournaments.eventlog import sentences as eventlog
from tournaments.eventlog.actions import Action
from tournaments.models import (
    Entry,
    LedgerRow,
    RegulatorGrant,
    Tournament,
)

# The event-log rows the administrative controller witnesses (003 Art. 4.6, 4.7(1)): the seat
# draw and the moves that balance or break tables.
WITNESSED = (
    Action.SEATING_DRAW_INITIAL,
    Action.SEATING_MOVE_CONFIRMED,
    Action.SEATING_MOVES_CONFIRMED,
    Action.SEATING_PLAYER_MOVED,
    Action.SEATING_TABLE_BROKEN,
    Action.SEATING_FINAL_TABLE_FORMED,
)


def witness_list(t) -> list[dict]:
    """Every draw and move of the tournament with the controller signatures on it."""
    events = event_sentences(t.events.filter(action__in=[a.value for a in WITNESSED]).prefetch_related("witnesses").order_by("id"), t.currency)
    return [
        {
            "event": e.pk,
            "action": e.action,
            "label": e.action_label,
            "sentence": e.sentence,
            "at": e.created_at,
            "by": e.actor_label,
            "payload": e.payload,
            "witnesses": [{"name": w.name, "at": w.created_at} for w in e.witnesses.all()],
        }
        for e in events
    ]


def event_sentences(events, currency: str = "") -> list:
    """The rows of the event log, each with ``sentence`` (``tournaments.eventlog``): the entries they
    name are looked up in one query. Returns the rows (a list), for a page to loop over."""
    rows = list(events)
    refs = set().union(*(eventlog.entry_refs(e.payload) for e in rows)) if rows else set()
    names = {
        e.pk: f"{e.person.full_name} (#{e.number})"
        for e in Entry.objects.filter(pk__in=refs).select_related("person").only("number", "person__first_name", "person__last_name")
    }
    for e in rows:
        e.sentence = eventlog.sentence(e.action, e.payload, actor=e.actor_label, currency=currency, entries=names)
    return rows


def granted_to_regulator(user, tournament_id: int) -> bool:
    return RegulatorGrant.objects.filter(user=user, tournament_id=tournament_id).exists()


def published_tournaments():
    """The tournaments anyone may read about without a login (the rules page, its change feed,
    the seat lookup): from when the director publishes one by opening registration; a planned
    event is the staff's until then."""
    return Tournament.objects.exclude(status=Tournament.PLANNED)


def bounty_payments_q() -> Q:
    """Ledger rows that pay bounties out (PAY-02) and their reversals: their bounty part is money
    out, never bounty money taken in nor paid for an entry."""
    return Q(kind=LedgerRow.BOUNTY) | Q(kind=LedgerRow.REVERSAL, reverses__kind=LedgerRow.BOUNTY)


def stub_rows(t):
    """Ticket stubs: every desk row of the tournament but prize and bounty payments (sales,
    refunds, reversals)."""
    return (
        LedgerRow.objects.filter(tournament=t)
        .exclude(kind__in=(LedgerRow.PAYOUT, LedgerRow.BOUNTY))
        .exclude(kind=LedgerRow.REVERSAL, reverses__kind__in=(LedgerRow.PAYOUT, LedgerRow.BOUNTY))
        .select_related("entry", "person")
        .order_by("id")
    )


def start_time(t):
    """When the tournament started (its start event), or None."""
    return t.events.filter(action=Action.TOURNAMENTS_TOURNAMENT_STARTED.value).values_list("created_at", flat=True).first()


def prestart_last_row(t) -> int:
    """The newest stub the pre-start report covers: every row before the start (all of them
    while the tournament has not started)."""
    started = start_time(t)
    rows = stub_rows(t)
    if started is not None:
        rows = rows.filter(created_at__lte=started)
    return rows.order_by("-id").values_list("id", flat=True).first() or 0


def reported_up_to(t) -> int:
    """The newest stub already reported: by the last addendum, else by the pre-start report."""
    last = t.stub_reports.order_by("-number").first()
    return last.last_row_id if last else prestart_last_row(t)


def unreported_stubs(t):
    """Stubs sold after the start and not yet in an addendum (none before the start)."""
    if start_time(t) is None:
        return stub_rows(t).none()
    return stub_rows(t).filter(id__gt=reported_up_to(t))
