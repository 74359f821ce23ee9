"""A player's personal data (GDPR 679/2016, named by seed 001 L46): access (an export of
everything held about him) and erasure that keeps the money trail (the person becomes a
pseudonym; ledger rows, receipts, entries, places and regulator reports keep their numbers).

Every export and erasure writes one event-log row (who, when, from where). The erasure's row
names the person by his key and the reason only: it never repeats the data it erased, and the
people rows written about him before (added, corrected) lose the values they held.

An erasure survives a restore: it is noted outside the database, in ``var/erasures.journal``
(the person's key and when he was added, never his data), and ``manage.py restore`` erases again
the people a restored backup brings back (``reapply_erasures``).
"""

import logging
import os
from datetime import UTC, timedelta
from pathlib import Path

from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.transactions import service
from tournaments import signals
from tournaments.cashier import selectors as cashier_selectors
from tournaments.cashier.services import registration
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import SYSTEM, Actor, log_event
from tournaments.floor import selectors as floor_selectors
from tournaments.models import ERASED_FIRST_NAME, Entry, LedgerRow, Penalty, Person, PushSubscription, RegistrationNotice, Tournament, TournamentEvent
from tournaments.notices import services as notice_services

log = logging.getLogger("tdmanager.privacy")

#: The person's own fields an erasure clears (names become the pseudonym).
PERSONAL_FIELDS = ("first_name", "last_name", "nickname", "email", "phone", "document_id", "notes")


def pseudonym(pk: int) -> tuple[str, str]:
    """(first name, last name) an erased person keeps: "Erased player" "#<id>"."""
    return ERASED_FIRST_NAME, f"#{pk}"


def is_erased(person: Person) -> bool:
    return (person.first_name, person.last_name) == pseudonym(person.pk)


def _iso(value):
    return value.isoformat() if value is not None else None


def _person_events(person: Person, entry_ids: list[int]):
    about = Q(payload__person=person.pk)
    if entry_ids:
        about |= Q(payload__entry__in=entry_ids)
    return TournamentEvent.objects.filter(about).order_by("id")


def person_data(person: Person) -> dict:
    """Everything the system holds about ``person``, as plain JSON-ready data."""
    entries = list(person.entries.select_related("tournament").order_by("id"))
    entry_ids = [e.pk for e in entries]
    rows = LedgerRow.objects.filter(Q(person=person) | Q(entry_id__in=entry_ids)).order_by("receipt_number")
    other = {}
    for answer in signals.ask(signals.person_data_wanted, person=person):
        other.update(answer)
    return {
        "exported_at": timezone.now().isoformat(),
        "person": {
            "id": person.pk,
            "first_name": person.first_name,
            "last_name": person.last_name,
            "nickname": person.nickname,
            "email": person.email,
            "phone": person.phone,
            "document_id": person.document_id,
            "notes": person.notes,
            "birth_date": person.birth_date.isoformat() if person.birth_date else None,
            "privacy_consent": person.privacy_consent.isoformat() if person.privacy_consent else None,
            "created_at": _iso(person.created_at),
            "hide_from_lookup": person.hide_from_lookup,
        },
        "ban": {"banned": person.banned, "reason": person.banned_reason},
        "lookup_opt_out": person.hide_from_lookup,
        "entries": [
            {
                "id": e.pk,
                "tournament": e.tournament_id,
                "tournament_name": e.tournament.name,
                "number": e.number,
                "status": e.status,
                "place": e.place,
                "chips": e.chips,
                "rebuys": e.rebuys,
                "addons": e.addons,
                "created_at": _iso(e.created_at),
                "busted_at": _iso(e.busted_at),
                "checked_in_at": _iso(e.checked_in_at),
                "id_checked": e.id_checked,
                "channel": e.channel,
            }
            for e in entries
        ],
        "ledger": [
            {
                "receipt_number": r.receipt_number,
                "tournament": r.tournament_id,
                "entry": r.entry_id,
                "kind": r.kind,
                "prize_amount": str(r.prize_amount),
                "fee_amount": str(r.fee_amount),
                "side_amount": str(r.side_amount),
                "jackpot_amount": str(r.jackpot_amount),
                "bounty_amount": str(r.bounty_amount),
                "currency": r.currency,
                "method": r.method,
                "reference": r.reference,
                "payee": r.payee,
                "reason": r.reason,
                "created_at": _iso(r.created_at),
            }
            for r in rows
        ],
        "penalties": [
            {
                "tournament": p.tournament_id,
                "entry": p.entry_id,
                "kind": p.kind,
                "reason_code": p.reason_code,
                "note": p.note,
                "status": p.status,
                "issued_at": _iso(p.issued_at),
            }
            for p in floor_selectors.penalty_history(person)
        ],
        "prize_payments": other.get("prize_payments", []),
        "tickets": other.get("tickets", []),
        "prizes_unpaid": other.get("prizes_unpaid", []),
        "bounties": other.get("bounties", []),
        "bounties_unpaid": other.get("bounties_unpaid", []),
        "league_past_results": other.get("league_past_results", []),  # brought in from a league's sheet
        "push_subscriptions": notice_services.person_subscriptions(person),
        "event_log": [
            {
                "id": ev.pk,
                "tournament": ev.tournament_id,
                "action": ev.action,
                "actor": ev.actor_label,
                "created_at": _iso(ev.created_at),
                "payload": ev.payload,
            }
            for ev in _person_events(person, entry_ids)
        ],
    }


@service
def export_person(person: Person, *, actor: Actor) -> dict:
    """GDPR access: the person's data (``person_data``), the export itself logged, and, as the
    file holds the whole document number, a read of it (``log_document_viewed``, purpose export)."""
    person = Person.objects.get(pk=person.pk)
    data = person_data(person)
    if person.document_id:  # the file holds the whole number: a read of it like a reveal
        log_document_viewed(person.pk, "export", actor=actor)
    log_event(None, Action.PEOPLE_PERSON_EXPORTED, actor, person=person.pk)
    return data


def erasure_refusal(person: Person) -> DomainError | None:
    """Why ``person`` cannot be erased now, or None: he plays (an entry not out of a tournament that
    has not ended), or money is open between him and the house (owed by him, a refund or a prize due to him)."""
    live = Entry.objects.filter(person=person, status__in=(Entry.ACTIVE, Entry.RESERVED)).exclude(
        tournament__status__in=(Tournament.FINISHED, Tournament.CANCELLED)
    )
    if live.exists():
        return DomainError("person_in_play", _("This person has an entry in a tournament not over yet: erase after it ends."))
    if registration.owed_by(person):
        return DomainError("person_owes_money", _("This person still owes money to the desk: settle it before erasing."))
    cancelled = list(person.entries.filter(tournament__status=Tournament.CANCELLED).values_list("tournament_id", flat=True))
    if cancelled:
        ids = [i for ids, _r in cashier_selectors.cancellation_refunds(cancelled).values() for i in ids]
        mine = set(person.entries.values_list("pk", flat=True))
        if any(i in mine for i in cashier_selectors.refunds_still_due(ids)):
            return DomainError("person_refund_due", _("A refund is still due to this person: pay it before erasing."))
    for answer in signals.ask(signals.person_data_wanted, person=person):
        if answer.get("prizes_unpaid") or any(t.get("status") == "ISSUED" for t in answer.get("tickets", [])):
            return DomainError("person_prize_due", _("A prize won by this person is not paid yet: pay it before erasing."))
        if answer.get("bounties_unpaid"):
            return DomainError("person_bounty_due", _("A bounty won by this person is not paid yet: pay it before erasing."))
    return None


@service
def erase_person(person: Person, reason: str, *, actor: Actor) -> Person:
    """GDPR erasure keeping the money trail: every personal field cleared, the name a pseudonym
    ("Erased player #<id>"); entries, ledger rows, receipts and reports keep their numbers and
    amounts. Refused (409) while he plays or money is open (``erasure_refusal``)."""
    reason = (reason or "").strip()
    if not reason:
        raise ValidationFailed("reason_required", _("An erasure needs a reason."))
    person = Person.objects.select_for_update().get(pk=person.pk)
    if is_erased(person):
        raise DomainError("already_erased", _("This person's data has been erased already."))
    refusal = erasure_refusal(person)
    if refusal is not None:
        raise refusal
    _pseudonymise(person)
    log_event(None, Action.PEOPLE_PERSON_ERASED, actor, person=person.pk, reason=reason)
    _journal(person)
    return person


def _pseudonymise(person: Person) -> None:
    """Clear every personal field, name him with his pseudonym, and take the values out of the
    people rows of the log about him: "added <name>" names the pseudonym, a correction keeps
    which fields it changed, not their values (the document's never were). The money trail's
    rows (a sale, a payout) are kept, their payee naming the pseudonym."""
    for name in PERSONAL_FIELDS:
        setattr(person, name, "")
    person.first_name, person.last_name = pseudonym(person.pk)
    person.banned_reason = ""
    person.birth_date = person.privacy_consent = None
    person.hide_from_lookup = True
    person.save()
    PushSubscription.objects.filter(person=person).delete()  # his phones: personal data, and no more notices
    RegistrationNotice.objects.filter(person=person).delete()  # what his phones were told of the series' events
    # A payee is the winner's name as registered (payouts refuses any other): the rows that pay
    # him keep their receipts, amounts and his key, and name his pseudonym.
    for row in LedgerRow.objects.filter(Q(person=person) | Q(entry__person=person)).exclude(payee=""):
        row.payee = person.stored_name  # the pseudonym as stored, in no reader's language
        row.save(update_fields=["payee"], _allow_update=True)
    signals.person_changed.send(sender=Person, person=person)
    rows = TournamentEvent.objects.filter(payload__person=person.pk, action__in=(Action.PEOPLE_PERSON_CREATED, Action.PEOPLE_PERSON_CHANGED))
    for ev in rows:
        payload = dict(ev.payload)
        if "name" in payload:
            payload["name"] = person.stored_name
        if payload.get("changes"):
            payload["changes"] = {}
        if payload != ev.payload:
            ev.payload = payload
            ev.save(update_fields=["payload"], _allow_update=True)  # the one edit of the log: erased data


# --- erasures outlive a restore ------------------------------------------------------------------


def journal_path() -> Path:
    return Path(getattr(settings, "TDM_ERASURE_JOURNAL", "") or Path(settings.VAR_DIR) / "erasures.journal")


def _stamp(person: Person) -> str:
    return person.created_at.astimezone(UTC).isoformat()


def _journal(person: Person) -> None:
    """Note the erasure outside the database, before it commits: the person's key and when he was
    added (so a later person given the same key is never taken for him), nothing of his data.
    A journal that cannot be written never refuses the erasure: it is logged."""
    path = journal_path()
    line = f"{person.pk} {_stamp(person)} {timezone.now().astimezone(UTC).isoformat()}\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
        try:
            os.write(fd, line.encode("ascii"))
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        log.exception("erasure journal %s not written: a restore of an older backup would bring person %s back", path, person.pk)


def journal_entries() -> list[tuple[int, str]]:
    """(person key, when he was added) of every erasure the journal noted, oldest first."""
    try:
        lines = journal_path().read_text(encoding="ascii", errors="replace").splitlines()
    except FileNotFoundError:
        return []
    out = []
    for line in lines:
        words = line.split()
        if len(words) >= 2 and words[0].isdigit():
            out.append((int(words[0]), words[1]))
    return out


def erasures_after_restore(sender=None, *, backup: str, **_kw) -> dict:
    """Receiver of ``tdmanager.backup.database_restored``: ``reapply_erasures``."""
    return reapply_erasures(backup=backup)


@service
def reapply_erasures(*, backup: str) -> dict:
    """After a restore, the people erased since the backup are in the database again with their
    data: each is erased again (the journal says whom), logged by the system with the backup's
    name. Without the refusals of ``erase_person``: the erasure was decided when it was asked,
    on the room as it was then; the restored rows are older than that. ``{"erased_again": [keys]}``."""
    again = []
    for pk, added in journal_entries():
        person = Person.objects.select_for_update().filter(pk=pk).first()
        if person is None or is_erased(person) or _stamp(person) != added:
            continue
        _pseudonymise(person)
        log_event(None, Action.PEOPLE_PERSON_ERASED, SYSTEM, person=pk, reason=f"erased again after the restore of {backup}")
        again.append(pk)
    return {"erased_again": again}


#: Why a whole document number was read (the ``purpose`` of a ``people.document.viewed`` row):
#: a director's reveal, the desk's check-in (REG-02), a director's export of the person.
DOCUMENT_PURPOSES = ("reveal", "check-in", "export")


def log_document_viewed(person_id: int, purpose: str, *, actor: Actor, **where) -> None:
    """The access log of document numbers, the one place every read of a whole number writes:
    who viewed whose document, when, why (``DOCUMENT_PURPOSES``) and, at check-in, which entry."""
    if purpose not in DOCUMENT_PURPOSES:
        raise ValueError(f"unknown purpose of a document read: {purpose!r}")
    log_event(None, Action.PEOPLE_DOCUMENT_VIEWED, actor, person=person_id, **where, purpose=purpose)


@service
def reveal_document(person: Person, *, actor: Actor) -> str:
    """A director reveals a person's whole document number (pages and lists show it masked):
    the access log row says who viewed whose document, and when."""
    person = Person.objects.get(pk=person.pk)
    log_document_viewed(person.pk, "reveal", actor=actor)
    return person.document_id


@service
def checkin_document(entry: Entry, *, actor: Actor) -> str:
    """The whole document number of the player the desk checks in (REG-02: the law asks to see
    it), only while his entry awaits check-in; logged as every view of a document is."""
    entry = Entry.objects.select_related("person", "tournament").get(pk=getattr(entry, "pk", entry))
    if (
        entry.status not in (Entry.ACTIVE, Entry.RESERVED)
        or entry.checked_in_at is not None
        or entry.tournament.status in (Tournament.FINISHED, Tournament.CANCELLED)
    ):
        raise DomainError("not_at_checkin", _("This entry is not waiting for check-in: its document number stays masked."))
    log_document_viewed(entry.person_id, "check-in", actor=actor, entry=entry.pk, tournament_id=entry.tournament_id)
    return entry.person.document_id


def inactive_people(days: int, now=None) -> list[int]:
    """The keys of the people not erased yet with no activity for ``days``: added before, and no
    entry made or busted, no ledger row (his or his entries'), no penalty since."""
    cutoff = (now or timezone.now()) - timedelta(days=days)
    recent_entries = Entry.objects.filter(Q(created_at__gte=cutoff) | Q(busted_at__gte=cutoff)).values("person_id")
    recent_rows = LedgerRow.objects.filter(created_at__gte=cutoff)
    recent_penalties = Penalty.objects.filter(issued_at__gte=cutoff).values("person_id")
    people = (
        Person.objects.filter(created_at__lt=cutoff)
        .exclude(pk__in=recent_entries)
        .exclude(pk__in=recent_penalties)
        .exclude(pk__in=recent_rows.filter(person__isnull=False).values("person_id"))
        .exclude(pk__in=recent_rows.filter(entry__isnull=False).values("entry__person_id"))
        .order_by("pk")
        .values_list("pk", "first_name", "last_name")
    )
    return [pk for pk, first, last in people if (first, last) != pseudonym(pk)]


def erase_inactive(days: int | None = None, *, now=None, dry_run: bool = False) -> dict:
    """Storage limitation: erase (as ``erase_person``, one transaction each, by the system) every
    person with no activity for ``days`` (``TDM_PERSON_RETENTION_DAYS``; 0: nobody). One whose
    erasure is refused (money still open) is kept and listed with the refusal's code.
    ``{"erased": [ids], "kept": [{"person", "code"}], "days"}``; ``dry_run``: listed, nothing erased."""
    days = settings.TDM_PERSON_RETENTION_DAYS if days is None else days
    result = {"days": days, "erased": [], "kept": []}
    if days <= 0:
        return result
    reason = f"retention: no activity for {days} days (TDM_PERSON_RETENTION_DAYS)"
    for pk in inactive_people(days, now):
        person = Person.objects.get(pk=pk)
        refusal = erasure_refusal(person)
        if refusal is not None:
            result["kept"].append({"person": pk, "code": refusal.code})
            continue
        if not dry_run:
            try:
                erase_person(person, reason, actor=SYSTEM)
            except DomainError as exc:  # changed meanwhile (a sale since the list was read)
                result["kept"].append({"person": pk, "code": exc.code})
                continue
        result["erased"].append(pk)
    return result
