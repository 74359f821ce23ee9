"""The players' phones in the simulated days: a phone subscribes from a player's page (the kinds
it wants, its language), one stops, and after a change the worker's work is done — what each
subscribed player is told (``notice_rules.services.tell_players``). The messages are kept for the step's
invariants (``invariants.notices_only_for_the_subscribed_and_their_own_page``); nothing is sent
(the tests' own push service checks the sending). They register in the core's ``ACTIONS``
(``catalogue.py`` imports this module)."""

from __future__ import annotations

from django.conf import settings

from tournaments.eventlog.services import Actor
from tournaments.models import Entry, PushSubscription, Tournament
from tournaments.notices import rules as notice_rules
from tournaments.notices import services as notice_services

from ..pushservice import browser_keys
from .actions import action, pick
from .world import Skip, World

PHONE = Actor(None, "sim-phone")
KEYS = browser_keys()[2]  # one browser's keys serve every simulated phone: nothing is decrypted here


@action(weight=2)
def subscribe_phone(world: World, rng) -> str:
    """A player taps "Notify me" on his page: a phone of his subscribes, to the kinds he ticks."""
    entries = [e for t in world.tournaments(Tournament.REGISTERING, Tournament.RUNNING) for e in world.entries(t, Entry.ACTIVE, Entry.RESERVED)]
    entry = pick(rng, entries, "player with a page")
    world.phones += 1
    endpoint = f"https://fcm.googleapis.com/fcm/send/sim-{world.seed}-{world.day}-{world.phones}"
    kinds = [k for k in notice_rules.KINDS if rng.random() < 0.8]
    notice_services.subscribe(
        entry, {"endpoint": endpoint, "keys": KEYS}, kinds=kinds, language=rng.choice([code for code, _name in settings.LANGUAGES]), actor=PHONE
    )
    world.touched.add(entry.tournament_id)
    return f"entry #{entry.number} of event {entry.tournament_id} subscribed a phone ({', '.join(kinds) or 'nothing'})"


@action(weight=1)
def stop_phone(world: World, rng) -> str:
    """A player taps "Stop notices": that phone hears nothing more."""
    subs = list(PushSubscription.objects.filter(person__entries__tournament_id__in=world.events).distinct().order_by("pk"))
    sub = pick(rng, subs, "subscribed phone")
    entry = Entry.objects.filter(person_id=sub.person_id, tournament_id__in=world.events).order_by("pk").first()
    notice_services.unsubscribe(entry, sub.endpoint, actor=PHONE)
    world.touched.add(entry.tournament_id)
    return f"person #{sub.person_id} stopped a phone"


@action(weight=6)
def tell_players(world: World, rng) -> str:
    """The worker tells the subscribed players of an event what changed on their pages."""
    events = [t for t in world.tournaments() if PushSubscription.objects.filter(person__entries__tournament=t).exists()]
    if not events:
        raise Skip("no event with a subscribed player")
    t = pick(rng, events, "event with a subscribed player")
    messages = notice_services.tell_players(t.pk)
    phones = {s.pk: (s.person_id, list(s.kinds)) for s in PushSubscription.objects.filter(pk__in={m.subscription for m in messages})}
    world.told += [(t.pk, m, phones.get(m.subscription)) for m in messages]
    world.touched.add(t.pk)
    return f"event {t.pk}: {len(messages)} notice(s) told"


@action(weight=1)
def announce_to_players(world: World, rng) -> str:
    """The director types an announcement to one event's players on the clock page."""
    t = pick(rng, world.tournaments(Tournament.REGISTERING, Tournament.RUNNING), "event to announce to")
    text = rng.choice(("Dinner break at nine", "Cena alle 21", "Il buffet è aperto", "Last call for the add-on"))
    notice_services.announce(t, text, actor=world.director)
    world.touched.add(t.pk)
    return f"event {t.pk}: the director told its players {text!r}"
