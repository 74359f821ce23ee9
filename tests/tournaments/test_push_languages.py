"""One move, many languages: each phone hears it in the language of its player's page.

Through the suite's push service (``tests/pushservice.py``): a German phone, a French phone and a
Spanish one subscribe from their players' pages (the browser's language, or the one picked on
the page), one table breaks, and each decrypts its own move in its own language."""

import pytest
from django.test import Client

from seating import services as seating
from seating.selectors import seat_of
from tournaments.models import PushSubscription
from tournaments.notices import tasks
from tournaments.setup import lifecycle

from ..pushservice import Phone
from ..seating.test_support import arrange
from .test_push import service, subscribe, tournament_of, worker  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

MOVE = {
    "de": "Tisch 3 wird aufgelöst: Gehen Sie zu Tisch {table}, Platz {seat}",
    "fr": "La table 3 est cassée : allez à la table {table}, siège {seat}",
    "es": "Se rompe la mesa 3: ve a la mesa {table}, asiento {seat}",
}


def broken_table_three(make_tournament, actor):
    """A running event: two full tables and table 3 with three players, who the test subscribes."""
    t = tournament_of(make_tournament, 21)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    entries = list(t.entries.order_by("number"))
    moved, rest = entries[:3], entries[3:]
    arrange(
        t,
        {
            1: {s: e.pk for s, e in zip(range(1, 10), rest[:9], strict=True)},
            2: {s: e.pk for s, e in zip(range(1, 10), rest[9:], strict=True)},
            3: {1: moved[0].pk, 2: moved[1].pk, 3: moved[2].pk},
        },
    )
    return t, moved, rest


def test_a_german_and_a_french_phone_hear_the_same_move_each_in_its_language(make_tournament, service, worker, actor):
    t, (hans, marie, lucia), rest = broken_table_three(make_tournament, actor)
    phones = {"de": Phone(service, "/ok/hans"), "fr": Phone(service, "/ok/marie"), "es": Phone(service, "/ok/lucia")}
    assert subscribe(hans, phones["de"], "de-DE,de;q=0.9").status_code == 201
    assert subscribe(marie, phones["fr"], "fr-FR,fr;q=0.9").status_code == 201
    # Lucia's browser speaks English; she picked Spanish on her page (the language cookie)
    client = Client(HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9")
    client.cookies["django_language"] = "es"
    assert client.post(f"/p/{lucia.phone_token}/push/", phones["es"].subscription, content_type="application/json").status_code == 201
    assert dict(PushSubscription.objects.values_list("endpoint", "language")) == {phones[c].subscription["endpoint"]: c for c in phones}
    tasks.tell_players(t.pk)
    assert service.received == []
    seating.record_bust(t, [rest[0]], actor=actor, table=1)  # table 3 breaks: its three players move
    tasks.tell_players(t.pk)
    service.wait_for(3)
    for code, entry in (("de", hans), ("fr", marie), ("es", lucia)):
        phone = phones[code]
        (message,) = service.to(phone.path)
        assert seat_of(entry)["table"] != 3
        assert phone.read(message)["body"] == MOVE[code].format(**seat_of(entry))


def test_a_phone_that_picks_another_language_hears_the_next_notice_in_it(make_tournament, service, worker, actor):
    t, (hans, _marie, _lucia), rest = broken_table_three(make_tournament, actor)
    phone = Phone(service, "/ok/hans")
    assert subscribe(hans, phone, "de").status_code == 201
    assert subscribe(hans, phone, "fr").status_code == 201  # the page reloaded in French says it again
    assert PushSubscription.objects.get().language == "fr"
    seating.record_bust(t, [rest[0]], actor=actor, table=1)
    tasks.tell_players(t.pk)
    service.wait_for(1)
    assert phone.read(service.to(phone.path)[0])["body"] == MOVE["fr"].format(**seat_of(hans))
    r = Client(HTTP_ACCEPT_LANGUAGE="fr").get(f"/p/{hans.phone_token}/push/?endpoint={phone.subscription['endpoint']}")
    assert r.json()["language"] == "fr"  # what the page compares with its own language


def test_a_subscription_that_names_no_language_reads_the_products_own(make_tournament, service, actor, settings):
    """Made without a language (a script, a browser whose language the product does not speak),
    a phone hears its notices in the installation's language (``LANGUAGE_CODE``), not a fixed one."""
    from tournaments.notices import services as push_service

    settings.LANGUAGE_CODE = "es"
    t, (hans, marie, _lucia), _rest = broken_table_three(make_tournament, actor)
    phone = Phone(service, "/ok/hans")
    push_service.subscribe(hans, phone.subscription, actor=actor)
    assert PushSubscription.objects.get().language == "es"
    assert PushSubscription.objects.create(person=marie.person, endpoint="https://push.example/x", p256dh="k", auth="a").language == "es"
