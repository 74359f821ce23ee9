"""The players' notices on their phones (Web Push): a phone subscribes from the player's page,
and after each change of a tournament the worker works out what each subscribed player is to
be told (``tell_players``) and sends it (``tournaments.tasks.send_notice``).

What is told comes from the player's own page alone (``notices.rules``): the facts last
told are kept per entry (``NoticeMark``), so a change is told once however many publications
announce it, and a publication lost is told at the next. A subscription is the person's: it
hears about each of his entries (a re-entry's seat too), in the language and the kinds he chose,
where the house sends that kind. The installation's VAPID keys are made on the first subscription
and kept in the database (its backup carries them).
"""

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.transactions import service
from tournaments.cashier.ledger import lock_tournament
from tournaments.clock import selectors as clock_selectors
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.live.snapshot import build_snapshot

from .. import signals
from ..house import HouseRules
from ..models import Entry, NoticeMark, PushKeys, PushSubscription, RegistrationNotice, Tournament
from . import rules as notices
from . import transport

log = logging.getLogger("tdmanager.push")

#: Phones one player may have subscribed at once: a new one beyond it replaces his oldest.
MAX_PHONES = 5

#: Subscriptions that change something (a new phone, new keys, kinds or language), each one
#: event-log row, that one player's page may make in ``SUBSCRIBE_WINDOW`` seconds: a phone
#: subscribes once and again when its browser renews the subscription, so 10 an hour is room
#: for a player's five phones twice; beyond it the page is answered 429 and nothing is written.
#: The same subscription again writes nothing and is not counted.
SUBSCRIBE_LIMIT = 10
SUBSCRIBE_WINDOW = 3600


@dataclass(frozen=True)
class Message:
    """One notice for one phone: what the worker sends (``tournaments.tasks.send_notice``)."""

    subscription: int
    payload: dict
    ttl: int
    urgency: str
    topic: str
    kind: str = ""


def installation_keys() -> PushKeys:
    """The installation's VAPID keys, made once: two processes making them at once keep the
    first row written (the lowest id), so every phone is given the same public key."""
    keys = PushKeys.objects.order_by("pk").first()
    if keys is None:
        private, public = transport.new_keys()
        PushKeys.objects.create(private_key=private, public_key=public)
        keys = PushKeys.objects.order_by("pk").first()
    return keys


def public_key() -> str:
    """The key a phone page hands the browser as ``applicationServerKey``."""
    return installation_keys().public_key


def _open_entries(person_id: int):
    return Entry.objects.filter(person_id=person_id).exclude(status=Entry.CANCELLED).exclude(tournament__status__in=(Tournament.FINISHED, Tournament.CANCELLED))


def _facts_of(tournament: Tournament, entry_ids: set[int]) -> dict[int, dict]:
    """``notices.facts`` for these entries of ``tournament``, as their pages show them now: the
    lobby's snapshot once and the other apps' parts for the whole field in a few queries, as the
    phones' index is built (``tournaments.phone.phone_index``)."""
    snap = build_snapshot(tournament)
    answers = signals.ask(signals.entries_view_parts, tournament=tournament, snapshot=snap)  # seating: seats, moves; payouts: prizes, bounties
    places_paid, left = snap.get("places_paid") or 0, snap.get("players_left") or 0
    in_money = bool(places_paid and tournament.status == Tournament.RUNNING and 0 < left <= places_paid)
    rules, clock = HouseRules.of(tournament), snap.get("clock") or {}
    starts_soon = tournament.status in (Tournament.PLANNED, Tournament.REGISTERING) and timezone.now() >= notices.starts_soon_from(
        tournament.start_at, rules.starts_soon_minutes
    )
    break_ends = bool(
        tournament.status == Tournament.RUNNING
        and clock.get("status") == "RUNNING"
        and clock.get("is_break")
        and 0 < (clock.get("seconds_left") or 0) <= notices.BREAK_ENDS_SECONDS
    )
    out = {}
    for pk, status, place in Entry.objects.filter(pk__in=entry_ids).values_list("pk", "status", "place"):
        parts: dict = {}
        for answer in answers:
            parts.update(answer.get(pk) or {})
        seat, move = (parts.get("seat"), parts.get("move")) if status == Entry.ACTIVE else (None, None)
        out[pk] = notices.facts(
            status, place, seat, move, parts.get("prizes"), parts.get("bounty"), in_money, starts_soon, break_ends, snap.get("players_told")
        )
    return out


def _mark(facts: dict[int, dict]) -> None:
    now = timezone.now()
    held = set(NoticeMark.objects.filter(entry_id__in=facts).values_list("entry_id", flat=True))
    for pk, f in facts.items():
        if pk in held:
            NoticeMark.objects.filter(entry_id=pk).update(facts=f, updated_at=now)
    NoticeMark.objects.bulk_create([NoticeMark(entry_id=pk, facts=f, updated_at=now) for pk, f in facts.items() if pk not in held])


def _kinds(value) -> list[str]:
    if value is None:
        return list(notices.KINDS)
    if not isinstance(value, list) or len(value) > len(notices.KINDS) or not all(isinstance(k, str) and k in notices.KINDS for k in value):
        raise ValidationFailed(
            "kinds_invalid", _("kinds: a list of the kinds of notice, among %(kinds)s.") % {"kinds": ", ".join(notices.KINDS)}, field="kinds"
        )
    return [k for k in notices.KINDS if k in value]


@service
def subscribe(entry: Entry, subscription, *, kinds=None, language: str | None = None, actor: Actor) -> PushSubscription:
    """A phone subscribes, from the page of ``entry``, to its player's notices:
    ``subscription`` is the browser's ``PushSubscription.toJSON()`` (endpoint and keys). The
    endpoint must be a push service's (``TDM_PUSH_ENDPOINTS``), the keys RFC 8291's. Subscribed
    again (the same endpoint), it takes the new keys, kinds and language, and this player; a
    player's sixth phone replaces the oldest. What his pages show now is what he has been told:
    a phone hears of the changes after it subscribed."""
    if not isinstance(subscription, dict):
        raise ValidationFailed("subscription_invalid", _("subscription: the browser's push subscription, as an object."), field="subscription")
    endpoint = subscription.get("endpoint")
    keys = subscription.get("keys") if isinstance(subscription.get("keys"), dict) else {}
    if not isinstance(endpoint, str) or not endpoint:
        raise ValidationFailed("endpoint_required", _("endpoint: the push service's address is missing."), field="endpoint")
    if not transport.endpoint_allowed(endpoint):
        raise ValidationFailed("endpoint_not_allowed", _("endpoint: this address is not a push service the house sends to."), field="endpoint")
    if not transport.keys_valid(keys.get("p256dh"), keys.get("auth")):
        raise ValidationFailed("keys_invalid", _("keys: the browser's p256dh and auth keys are missing or not valid."), field="keys")
    entry = Entry.objects.select_related("tournament").get(pk=entry.pk)
    rules = HouseRules.of(entry.tournament)
    chosen = [k for k in _kinds(kinds) if rules.notifies(k)]  # what this event can send, nothing else
    language = language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
    person_id = entry.person_id
    held = PushSubscription.objects.filter(endpoint=endpoint).values("person_id", "p256dh", "auth", "kinds", "language").first()
    if held == {"person_id": person_id, "p256dh": keys["p256dh"], "auth": keys["auth"], "kinds": chosen, "language": language}:
        return PushSubscription.objects.get(endpoint=endpoint)  # the same phone saying the same again: nothing to write
    _count_subscription(entry.phone_token)
    installation_keys()
    try:
        with transaction.atomic():
            sub, _created = PushSubscription.objects.select_for_update().update_or_create(
                endpoint=endpoint,
                defaults={"person_id": person_id, "p256dh": keys["p256dh"], "auth": keys["auth"], "kinds": chosen, "language": language},
            )
    except IntegrityError:  # the same phone subscribing twice at once: the other one made the row
        sub = PushSubscription.objects.select_for_update().get(endpoint=endpoint)
        sub.person_id, sub.p256dh, sub.auth, sub.kinds, sub.language = person_id, keys["p256dh"], keys["auth"], chosen, language
        sub.save()
    extra = PushSubscription.objects.filter(person_id=person_id).order_by("-created_at", "-pk").values_list("pk", flat=True)[MAX_PHONES:]
    PushSubscription.objects.filter(pk__in=list(extra)).delete()
    open_entries = list(_open_entries(person_id).select_related("tournament"))
    not_marked = {e.pk for e in open_entries} - set(NoticeMark.objects.filter(entry__in=open_entries).values_list("entry_id", flat=True))
    by_tournament: dict = {}
    for e in open_entries:
        if e.pk in not_marked:
            by_tournament.setdefault(e.tournament, set()).add(e.pk)
    for tournament, ids in by_tournament.items():
        _mark(_facts_of(tournament, ids))
    log_event(None, Action.PEOPLE_PUSH_SUBSCRIBED, actor, person=person_id)
    return sub


def _count_subscription(token: str) -> None:
    """One more subscription from this page in the window, or 429 (``SUBSCRIBE_LIMIT``)."""
    key = f"push:subscribed:{token}"
    cache.add(key, 0, SUBSCRIBE_WINDOW)
    try:
        count = cache.incr(key)
    except ValueError:  # the window ended meanwhile
        cache.set(key, 1, SUBSCRIBE_WINDOW)
        count = 1
    if count > SUBSCRIBE_LIMIT:
        raise DomainError("too_many_subscriptions", _("This page has subscribed phones too often: try again in an hour."), status=429)


@service
def unsubscribe(entry: Entry, endpoint, *, actor: Actor) -> None:
    """The phone stops its player's notices (the subscription is deleted); 404 when it was not
    subscribed for this page's player."""
    entry = Entry.objects.get(pk=entry.pk)
    if not isinstance(endpoint, str) or not endpoint:
        raise ValidationFailed("endpoint_required", _("endpoint: the push service's address is missing."), field="endpoint")
    deleted, _rows = PushSubscription.objects.filter(person_id=entry.person_id, endpoint=endpoint).delete()
    if not deleted:
        raise DomainError("not_subscribed", _("This phone is not subscribed to this player's notices."), status=404)
    log_event(None, Action.PEOPLE_PUSH_UNSUBSCRIBED, actor, person=entry.person_id)


@service
def announce(tournament: Tournament, text, *, actor: Actor) -> dict:
    """The director's announcement to the players of one event (typed on the clock page): their
    phone pages show it, and the phones subscribed to announcements are told it. One line of at
    most 200 characters, logged with its words."""
    text = " ".join(str(text or "").split())
    if not text:
        raise ValidationFailed("text_required", _("text: type what the players are to be told."), field="text")
    if len(text) > 200:
        raise ValidationFailed("text_too_long", _("text: at most 200 characters."), field="text")
    t = lock_tournament(tournament)
    if t.status in (Tournament.FINISHED, Tournament.CANCELLED):
        raise DomainError("tournament_over", _("The tournament is over: its players are told nothing more."))
    log_event(t, Action.TOURNAMENTS_PLAYERS_TOLD, actor, text=text)
    return {"told": text}


def subscribed(entry: Entry, endpoint: str) -> PushSubscription | None:
    """The subscription of this phone for this page's player, if any (read side)."""
    return PushSubscription.objects.filter(person_id=entry.person_id, endpoint=endpoint).first()


@service
def tell_players(tournament_id: int) -> list[Message]:
    """After a change of the tournament: what each subscribed player is to be told, one
    ``Message`` per phone and notice, and the facts told kept. The marks of the entries it
    reads are locked, so two workers telling the same change tell it once. Not logged: it
    changes no state of the room, only what was told (the event log records the change itself).
    The caller sends the messages once this has committed."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return []
    return _entry_messages(tournament) + _series_messages(tournament)


def _entry_messages(tournament: Tournament) -> list[Message]:
    """What the subscribed players of ``tournament`` are told about their own entries."""
    tournament_id = tournament.pk
    rows = list(
        Entry.objects.filter(tournament_id=tournament_id, person__push_subscriptions__isnull=False)
        .exclude(status=Entry.CANCELLED)
        .values_list("pk", "person_id", "phone_token")
        .distinct()
    )
    if not rows:
        return []
    ids = {pk for pk, _person, _token in rows}
    before = {m.entry_id: m.facts for m in NoticeMark.objects.select_for_update().filter(entry_id__in=ids)}
    now = _facts_of(tournament, ids)
    changed = {pk: f for pk, f in now.items() if before.get(pk) != f}
    if not changed:
        return []
    _mark(changed)
    rules = HouseRules.of(tournament)
    told = {pk: [c for c in notices.changes(before.get(pk), f) if rules.notifies(c.kind)] for pk, f in changed.items()}
    people = {pk: (person, token) for pk, person, token in rows if told.get(pk)}
    phones: dict[int, list[PushSubscription]] = {}
    for sub in PushSubscription.objects.filter(person_id__in={person for person, _token in people.values()}).order_by("pk"):
        phones.setdefault(sub.person_id, []).append(sub)
    out = []
    for pk, (person, token) in people.items():
        for change in told[pk]:
            ttl, urgency = notices.PACE[change.kind]
            for sub in phones.get(person, ()):
                if change.kind not in sub.kinds:
                    continue
                if change.kind == "prize_ready" and "busted" in sub.kinds and any(c.kind == "busted" for c in told[pk]):
                    continue  # the place's notice of this same change names the prize waiting at the desk
                with translation.override(sub.language):
                    body = notices.text(change, tournament.currency, rules.starts_soon_minutes)
                payload = {"title": tournament.name, "body": body, "url": reverse("phone", args=[token]), "tag": f"{change.topic}-{pk}"}
                out.append(Message(sub.pk, payload, ttl, urgency, f"{change.topic}-{pk}", change.kind))
    return out


def closes_this_level(tournament: Tournament, rules: HouseRules | None = None) -> bool:
    """The event's late registration is open and closes at the end of the level on the clock."""
    if tournament.status != Tournament.RUNNING or not clock_selectors.late_registration_open(tournament):
        return False
    level = (rules or HouseRules.of(tournament)).late_registration_level(tournament)
    return clock_selectors.level_now(tournament) == level


def _series_messages(tournament: Tournament) -> list[Message]:
    """While ``tournament``'s late registration closes at the end of the level being played, the
    subscribed players of another event of its series who are not playing this one are told so,
    once (``RegistrationNotice``). The notice names the event, public on its lobby screens, and
    opens the player's own page of the event he played."""
    rules = HouseRules.of(tournament)
    if not rules.notifies("reg_closes") or not closes_this_level(tournament, rules):
        return []
    playing = Entry.objects.filter(tournament=tournament, status__in=(Entry.ACTIVE, Entry.RESERVED)).values("person_id")
    told = RegistrationNotice.objects.filter(tournament=tournament).values("person_id")
    people = set(PushSubscription.objects.exclude(person_id__in=playing).exclude(person_id__in=told).values_list("person_id", flat=True))
    if not people:
        return []
    played: dict[int, int] = {}
    for answer in signals.ask(signals.series_players_wanted, tournament=tournament, people=people):
        played.update(answer)
    if not played:
        return []
    # another worker telling the same change at once fails here (the task leaves it to that one)
    RegistrationNotice.objects.bulk_create([RegistrationNotice(person_id=person, tournament=tournament) for person in played])
    tokens = dict(Entry.objects.filter(pk__in=played.values()).values_list("pk", "phone_token"))
    change = notices.Change("reg_closes", (tournament.name,))
    ttl, urgency = notices.PACE["reg_closes"]
    topic = f"reg_closes-{tournament.pk}"
    out = []
    for sub in PushSubscription.objects.filter(person_id__in=played).order_by("pk"):
        if "reg_closes" not in sub.kinds:
            continue
        with translation.override(sub.language):
            body = notices.text(change, tournament.currency)
        payload = {"title": tournament.name, "body": body, "url": reverse("phone", args=[tokens[played[sub.person_id]]]), "tag": topic}
        out.append(Message(sub.pk, payload, ttl, urgency, topic, "reg_closes"))
    return out


def timed_events() -> list[int]:
    """The events whose pages say something with time alone, with a subscribed player: those
    to start within the longest ``starts_soon_minutes`` a house may set, and those running (a
    break's end). Beat asks ``tell_players`` of each every ``TDM_TIMED_NOTICES_SECONDS``, in
    case a moment was missed, and at the moments ahead (``timed_moments``). Read side."""
    now = timezone.now()
    soon = Q(status__in=(Tournament.PLANNED, Tournament.REGISTERING), start_at__lte=now + timedelta(hours=4), start_at__gte=now - timedelta(hours=12))
    ids = Entry.objects.filter(person__push_subscriptions__isnull=False).values_list("tournament_id", flat=True)
    return list(Tournament.objects.filter(soon | Q(status=Tournament.RUNNING), pk__in=ids).values_list("pk", flat=True))


def timed_moments(tournament_ids, within: timedelta) -> list[tuple[int, datetime]]:
    """When, within ``within`` from now, the pages of these events change with time alone: the
    moment an event comes within the house's ``starts_soon_minutes`` of its start
    (``notices.starts_soon_from``), or the moment the break on a running clock comes within
    ``notices.BREAK_ENDS_SECONDS`` of its end. The worker tells the players then
    (``tournaments.tasks.tell_timed_players``); what they are told is still what their pages
    show at that moment (a clock paused meanwhile tells nothing). Read side."""
    now = timezone.now()
    out = []
    for t in Tournament.objects.filter(pk__in=tournament_ids):
        at = None
        if t.status in (Tournament.PLANNED, Tournament.REGISTERING):
            at = notices.starts_soon_from(t.start_at, HouseRules.of(t).starts_soon_minutes)
        elif t.status == Tournament.RUNNING and (ends := clock_selectors.break_ends_at(t, now)) is not None:
            at = notices.break_ends_from(ends)
        if at is not None and now < at <= now + within:
            out.append((t.pk, at))
    return out


def send_one(message: Message) -> transport.Sent | None:
    """Send one message to its phone (``send_many`` of one): what the push service said, or
    None when the subscription is gone already."""
    sent = send_many([message])
    return sent[0][1] if sent else None


def send_many(messages: list[Message]) -> list[tuple[Message, transport.Sent]]:
    """Send ``messages`` one after the other (the worker's batch, all to one push service): the
    subscriptions read in one query, the deliveries noted in one; a subscription the push
    service calls gone, or whose endpoint or keys the server may not use
    (``transport.post_encrypted`` refused it: a row written under an older rule), is deleted. Once the push service has not
    answered one, the rest are not tried now (``Sent.skipped``): one timeout per batch at most.
    A message whose subscription is gone already is left out. Called by the worker, outside
    any transaction: the HTTP calls hold no lock."""
    subs = {row["pk"]: row for row in PushSubscription.objects.filter(pk__in={m.subscription for m in messages}).values("pk", "endpoint", "p256dh", "auth")}
    if not subs:
        return []
    private = installation_keys().private_key
    out, delivered, stalled = [], [], None
    for message in messages:
        sub = subs.get(message.subscription)
        if sub is None:
            continue
        if stalled is not None:
            out.append((message, transport.Sent(0, stalled.retry_after, skipped=True)))
            continue
        info = {"endpoint": sub["endpoint"], "keys": {"p256dh": sub["p256dh"], "auth": sub["auth"]}}
        sent = transport.post_encrypted(info, message.payload, private_pem=private, ttl=message.ttl, urgency=message.urgency, topic=message.topic)
        if sent.delivered:
            delivered.append(message.subscription)
        elif sent.gone or sent.refused:
            forget_gone(message.subscription)
            subs.pop(message.subscription)
        elif sent.status == 0:
            stalled = sent
        out.append((message, sent))
    if delivered:
        PushSubscription.objects.filter(pk__in=delivered).update(last_success_at=timezone.now())
    return out


def origin_of(endpoint: str) -> str:
    """The push service of ``endpoint`` (``transport.Target.origin``); "" for one the server may not
    call (its batch deletes it)."""
    target = transport.parse_endpoint(endpoint)
    return target.origin if target is not None else ""


def origin_of_batch(messages: list[Message]) -> str:
    """The push service of a batch (``batches``: all to one), read side."""
    endpoint = PushSubscription.objects.filter(pk__in={m.subscription for m in messages}).values_list("endpoint", flat=True).first()
    return origin_of(endpoint) if endpoint else ""


def batches(messages: list[Message], size: int) -> list[list[Message]]:
    """``messages`` in batches of at most ``size``, each to one push service (read side): a
    push service that hangs or refuses holds up only its own batches, never another's."""
    endpoints = dict(PushSubscription.objects.filter(pk__in={m.subscription for m in messages}).values_list("pk", "endpoint"))
    by_origin: dict[str, list[Message]] = {}
    for m in messages:
        if m.subscription in endpoints:
            by_origin.setdefault(origin_of(endpoints[m.subscription]), []).append(m)
    return [group[i : i + size] for group in by_origin.values() for i in range(0, len(group), size)]


@service
def forget_gone(subscription_id: int) -> None:
    """The push service says the subscription is gone (404/410): it is deleted."""
    PushSubscription.objects.filter(pk=subscription_id).delete()


def person_subscriptions(person) -> list[dict]:
    """A person's phones, for his data export (read side)."""
    return [
        {
            "endpoint": s.endpoint,
            "kinds": s.kinds,
            "language": s.language,
            "created_at": s.created_at.isoformat(),
            "last_success_at": s.last_success_at.isoformat() if s.last_success_at else None,
        }
        for s in PushSubscription.objects.filter(person=person).order_by("pk")
    ]


@service
def forget_old_subscriptions(now=None) -> int:
    """Delete the subscriptions of the people whose last event started more than its
    ``push_keep_days`` ago and who have no event still to play (daily, by beat)."""
    now = now or timezone.now()
    people = set(PushSubscription.objects.values_list("person_id", flat=True))
    playing = set(_open_entries_of(people).values_list("person_id", flat=True))
    gone = []
    last = Entry.objects.filter(person_id__in=people - playing).values("person_id").annotate(last=Max("tournament__start_at"))
    for row in last:
        entry = Entry.objects.filter(person_id=row["person_id"], tournament__start_at=row["last"]).select_related("tournament").first()
        keep = HouseRules.of(entry.tournament).push_keep_days if entry else 30
        if row["last"] + timedelta(days=keep) < now:
            gone.append(row["person_id"])
    gone += [p for p in people - playing if not Entry.objects.filter(person_id=p).exists()]
    deleted, _rows = PushSubscription.objects.filter(person_id__in=gone).delete()
    return deleted


def _open_entries_of(people: set[int]):
    return (
        Entry.objects.filter(person_id__in=people)
        .exclude(status=Entry.CANCELLED)
        .filter(~Q(tournament__status__in=(Tournament.FINISHED, Tournament.CANCELLED)))
    )
