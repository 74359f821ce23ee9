"""Players hear from the room: notices on their phones (Web Push). A push service of the tests'
own on loopback records what the worker sends; phones of the tests' own subscribe from the
player's page and decrypt what they receive."""

import os
import time
from datetime import timedelta

import pytest
from django.test import Client

from seating import services as seating
from seating.selectors import seat_of
from tdmanager.celery import app as celery_app
from tournaments.clock import services as clock_services
from tournaments.models import Entry, PushSubscription, RegistrationNotice, Tournament
from tournaments.notices import services as notice_services
from tournaments.notices import tasks
from tournaments.people import privacy
from tournaments.setup import lifecycle
from tournaments.tasks import clock_tick

from ..pushservice import DeadService, Phone, PushService, vapid_claims
from ..seating.test_support import add_entries, arrange

pytestmark = pytest.mark.django_db


@pytest.fixture
def service(settings):
    server = PushService()
    settings.TDM_PUSH_ENDPOINTS = ["127.0.0.1"]
    settings.TDM_PUSH_TIMEOUT = 1
    settings.TDM_PUSH_RETRIES = 0
    yield server
    server.close()


@pytest.fixture
def worker():
    """The Celery worker, run in the test's thread: a task sent runs at once."""
    was = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = was


def subscribe(entry, phone, language="it", kinds=None):
    body = dict(phone.subscription)
    if kinds is not None:
        body["kinds"] = kinds
    return Client().post(f"/p/{entry.phone_token}/push/", body, content_type="application/json", HTTP_ACCEPT_LANGUAGE=language)


def public_key(entry) -> str:
    return Client().get(f"/p/{entry.phone_token}/push/").json()["key"]


def tournament_of(make_tournament, n, **kw):
    t = make_tournament(name="Sunday Special", table_size=10, **kw)
    add_entries(t, n)
    return t


def test_a_seat_draw_tells_each_subscribed_phone_its_own_seat_in_its_language(make_tournament, service, worker, actor):
    t = tournament_of(make_tournament, 12)
    anna, bruno, carlo = t.entries.order_by("number")[:3]
    it, en = Phone(service, "/ok/anna"), Phone(service, "/ok/bruno")
    assert subscribe(anna, it, "it").status_code == 201
    assert subscribe(bruno, en, "en").status_code == 201
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    assert service.received == []  # the draw's request sent nothing: the worker does
    tasks.tell_players(t.pk)
    service.wait_for(2)
    assert len(service.received) == 2  # carlo subscribed nothing: nothing for him
    key = public_key(anna)
    for entry, phone, text in ((anna, it, "Il tuo posto: tavolo {table}, posto {seat}"), (bruno, en, "Your seat: table {table}, seat {seat}")):
        (message,) = service.to(phone.path)
        notice = phone.read(message)
        seat = seat_of(entry)
        assert notice["body"] == text.format(**seat)
        assert notice["title"] == "Sunday Special" and notice["url"] == f"/p/{entry.phone_token}/"
        claims = vapid_claims(message, key)
        assert claims["aud"] == service.origin and claims["exp"] > time.time() and claims["sub"].startswith("mailto:")
        assert message.headers["ttl"] == "600" and message.headers["urgency"] == "high" and message.headers["topic"] == f"seat-{entry.pk}"
        assert carlo.person.full_name not in str(notice)  # the body is his own seat's, word for word (above)
    tasks.tell_players(t.pk)  # told once: nothing has changed since
    assert len(service.received) == 2


def test_a_table_break_tells_its_players_where_to_go(make_tournament, service, worker, actor):
    t = tournament_of(make_tournament, 20)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    entries = list(t.entries.order_by("number"))
    anna, bruno = entries[0], entries[1]
    rest = entries[2:]
    arrange(
        t,
        {
            1: {s: e.pk for s, e in zip(range(1, 10), rest[:9], strict=True)},
            2: {s: e.pk for s, e in zip(range(1, 10), rest[9:], strict=True)},
            3: {1: anna.pk, 2: bruno.pk},
        },
    )
    it, en = Phone(service, "/ok/anna"), Phone(service, "/ok/bruno")
    assert subscribe(anna, it, "it").status_code == 201
    assert subscribe(bruno, en, "en").status_code == 201
    tasks.tell_players(t.pk)
    assert service.received == []  # subscribed: what the page shows now is known already
    seating.record_bust(t, [entries[2]], actor=actor, table=1)
    assert seat_of(anna)["table"] != 3 and seat_of(bruno)["table"] != 3  # table 3 broke
    tasks.tell_players(t.pk)
    service.wait_for(2)
    assert it.read(service.to("/ok/anna")[0])["body"] == "Tavolo 3 chiude: vai al tavolo {table}, posto {seat}".format(**seat_of(anna))
    assert en.read(service.to("/ok/bruno")[0])["body"] == "Table 3 breaks: go to table {table}, seat {seat}".format(**seat_of(bruno))
    message = service.to("/ok/anna")[0]
    assert message.headers["urgency"] == "high" and message.headers["topic"] == f"seat-{anna.pk}"  # a newer move replaces the seat


def test_a_kind_the_house_turned_off_or_the_player_did_not_choose_is_not_sent(make_tournament, service, worker, actor):
    t = tournament_of(make_tournament, 4, settings={"notify_seat": False})
    anna, bruno = t.entries.order_by("number")[:2]
    assert subscribe(anna, Phone(service, "/ok/anna")).status_code == 201
    assert subscribe(bruno, Phone(service, "/ok/bruno"), kinds=["busted"]).status_code == 201
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    tasks.tell_players(t.pk)
    assert service.received == []


def test_a_player_out_in_the_money_is_told_the_place(make_tournament, service, worker, actor):
    t = tournament_of(make_tournament, 3)
    anna = t.entries.order_by("number").first()
    phone = Phone(service, "/ok/anna")
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    assert subscribe(anna, phone, "en").status_code == 201
    seating.record_bust(t, [anna], actor=actor)
    tasks.tell_players(t.pk)
    service.wait_for(1)
    texts = [phone.read(m)["body"] for m in service.to("/ok/anna")]
    assert texts[-1].startswith("You finished in place 3")


def test_the_players_registered_hear_that_the_event_starts_soon(make_tournament, service, worker):
    from datetime import timedelta

    from django.utils import timezone

    t = tournament_of(make_tournament, 2, settings={"starts_soon_minutes": 20})
    anna, bruno = t.entries.order_by("number")
    it, en = Phone(service, "/ok/anna"), Phone(service, "/ok/bruno")
    assert subscribe(anna, it, "it").status_code == 201
    assert subscribe(bruno, en, "en").status_code == 201
    tasks.tell_timed_players()
    assert service.received == []  # an hour to go
    Tournament.objects.filter(pk=t.pk).update(start_at=timezone.now() + timedelta(minutes=19))
    tasks.tell_timed_players()
    service.wait_for(2)
    assert it.read(service.to("/ok/anna")[0])["body"] == "Il torneo inizia tra 20 minuti."
    message = service.to("/ok/bruno")[0]
    assert en.read(message)["body"] == "The event starts in 20 minutes."
    assert message.headers["urgency"] == "normal" and message.headers["ttl"] == "900"
    tasks.tell_timed_players()
    assert len(service.received) == 2  # told once


def test_the_players_hear_that_the_break_ends(make_tournament, service, worker, actor):
    t = tournament_of(make_tournament, 4)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    clock_services.start_clock(t, actor=actor)
    anna = t.entries.order_by("number").first()
    phone = Phone(service, "/ok/anna")
    assert subscribe(anna, phone, "en").status_code == 201
    clock_services.insert_break(t, 10, actor=actor, reason="dinner")
    tasks.tell_timed_players()
    assert service.received == []  # ten minutes of break left
    clock_services.set_time_left(t, 100, actor=actor, reason="back soon")
    tasks.tell_timed_players()
    service.wait_for(1)
    message = service.to("/ok/anna")[0]
    assert phone.read(message)["body"] == "The break ends in 2 minutes: back to your seat."
    assert message.headers["urgency"] == "high" and message.headers["ttl"] == "120"


@pytest.fixture
def timed_tasks(monkeypatch):
    """``tell_timed_players``'s tasks: one to run now runs at once (the worker), one for a moment
    ahead is kept (``eta``) for the test to run when its clock gets there."""
    later = []

    def apply_async(args, eta=None, expires=None):
        if eta is None:
            tasks.tell_players(*args)
        else:
            later.append((args[0], eta))

    monkeypatch.setattr(tasks.tell_players, "apply_async", apply_async)
    return later


def test_starts_soon_is_told_at_its_moment_not_at_beats_next_look(make_tournament, service, worker, timed_tasks):
    import time_machine
    from django.utils import timezone

    t = tournament_of(make_tournament, 2, settings={"starts_soon_minutes": 15})
    anna = t.entries.order_by("number").first()
    phone = Phone(service, "/ok/anna")
    assert subscribe(anna, phone, "en").status_code == 201
    now = timezone.now()
    with time_machine.travel(now, tick=False) as clock:
        Tournament.objects.filter(pk=t.pk).update(start_at=now + timedelta(minutes=15, seconds=20))  # 20 s to the moment
        tasks.tell_timed_players()
        assert service.received == []
        ((tournament, eta),) = timed_tasks
        moment = now + timedelta(seconds=20)
        assert tournament == t.pk and moment <= eta <= moment + timedelta(seconds=1)
        clock.move_to(moment - timedelta(seconds=1))
        tasks.tell_players(t.pk)  # a second early: the page does not say it yet
        assert service.received == []
        clock.move_to(eta)
        tasks.tell_players(t.pk)
        service.wait_for(1)
        assert phone.read(service.to("/ok/anna")[0])["body"] == "The event starts in 15 minutes."
        tasks.tell_timed_players()  # the next look, with the moment still ahead of it in its window: told once
        for tournament, _eta in timed_tasks:
            tasks.tell_players(tournament)
        assert len(service.received) == 1
        Tournament.objects.filter(pk=t.pk).update(start_at=timezone.now() + timedelta(minutes=17))
        timed_tasks.clear()
        tasks.tell_timed_players()
        assert timed_tasks == []  # two minutes ahead: the next looks schedule it


def test_the_breaks_end_is_told_at_its_moment(make_tournament, service, worker, actor, timed_tasks):
    import time_machine
    from django.utils import timezone

    t = tournament_of(make_tournament, 4)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    anna = t.entries.order_by("number").first()
    phone = Phone(service, "/ok/anna")
    assert subscribe(anna, phone, "en").status_code == 201
    with time_machine.travel(timezone.now(), tick=False) as clock:
        clock_services.start_clock(t, actor=actor)
        clock_services.insert_break(t, 10, actor=actor, reason="dinner")
        clock_services.set_time_left(t, 135, actor=actor, reason="back soon")  # told in 15 s
        now = timezone.now()
        tasks.tell_timed_players()
        ((tournament, eta),) = timed_tasks
        moment = now + timedelta(seconds=15)
        assert tournament == t.pk and moment <= eta <= moment + timedelta(seconds=1)
        clock.move_to(moment - timedelta(seconds=1))
        tasks.tell_players(t.pk)
        assert service.received == []
        clock.move_to(eta)
        tasks.tell_players(t.pk)
        service.wait_for(1)
        assert phone.read(service.to("/ok/anna")[0])["body"] == "The break ends in 2 minutes: back to your seat."


def test_nobody_hears_of_a_break_ending_before_the_clock_starts_or_as_a_level_ends(make_tournament, service, worker, actor, timed_tasks):
    import time_machine
    from django.utils import timezone

    t = tournament_of(make_tournament, 4)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    anna = t.entries.order_by("number").first()
    assert subscribe(anna, Phone(service, "/ok/anna"), "en").status_code == 201
    with time_machine.travel(timezone.now(), tick=False):
        tasks.tell_timed_players()  # the event has started, its clock not yet
        clock_services.start_clock(t, actor=actor)
        clock_services.set_time_left(t, 135, actor=actor, reason="level 1 nearly over")  # as a break's would be told in 15 s
        tasks.tell_timed_players()
    assert timed_tasks == [] and service.received == []  # a level ends: no break to come back from


def test_a_gone_subscription_is_deleted_and_a_hanging_service_delays_no_other_phone(make_tournament, service, worker, actor):
    t = tournament_of(make_tournament, 6)
    anna, bruno, carlo = t.entries.order_by("number")[:3]
    assert subscribe(anna, Phone(service, "/gone/anna")).status_code == 201
    assert subscribe(bruno, Phone(service, "/hang/bruno")).status_code == 201
    ok = Phone(service, "/ok/carlo")
    assert subscribe(carlo, ok).status_code == 201
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    began = time.monotonic()
    tasks.tell_players(t.pk)
    took = time.monotonic() - began
    assert ok.read(service.to("/ok/carlo")[0])["body"].startswith("Il tuo posto")
    assert took < 5  # the hanging service cost one timeout (1 s here), once
    assert not PushSubscription.objects.filter(person=anna.person).exists()  # 410: gone
    assert PushSubscription.objects.filter(person=bruno.person).exists()  # no answer: kept, tried again later


def test_an_endpoint_off_the_allow_list_is_refused(make_tournament, service):
    t = tournament_of(make_tournament, 1)
    entry = t.entries.get()
    phone = Phone(service, "/ok/x")
    for endpoint in ("http://10.0.0.1/push", "https://evil.example/push", "http://fcm.googleapis.com/x", "file:///etc/passwd", "http://127.0.0.2:1/x"):
        phone.subscription["endpoint"] = endpoint
        r = subscribe(entry, phone, "en")
        assert r.status_code == 400 and r.json()["code"] == "endpoint_not_allowed", endpoint
        assert "push service" in r.json()["detail"]
    phone.subscription["endpoint"] = service.origin + "/ok/x"
    phone.subscription["keys"]["p256dh"] = "AAAA"
    r = subscribe(entry, phone, "it")
    assert r.status_code == 400 and r.json()["code"] == "keys_invalid" and "chiavi" in r.json()["detail"]
    assert not PushSubscription.objects.exists()


def test_the_default_allow_list_takes_the_browsers_push_services_over_https(settings):
    from tournaments.notices.transport import endpoint_allowed

    allowed = settings.TDM_PUSH_ENDPOINTS
    for ok in (
        "https://fcm.googleapis.com/fcm/send/x",
        "https://updates.push.services.mozilla.com/wpush/v2/x",
        "https://web.push.apple.com/Q",
        "https://db5p.notify.windows.com/w/?token=x",
    ):
        assert endpoint_allowed(ok, allowed), ok
    for bad in (
        "http://fcm.googleapis.com/x",
        "https://fcm.googleapis.com:8443/x",
        "https://user@fcm.googleapis.com/x",
        "https://fcm.googleapis.com.evil.example/x",
        "https://notify.windows.com.evil/x",
        "http://127.0.0.1/x",
    ):
        assert not endpoint_allowed(bad, allowed), bad


#: Endpoints that two URL parsers could read as two hosts, or that the sending client cannot
#: read at all: each is refused, however the allow-list reads its host.
TWO_READINGS = (
    "https://127.0.0.1\\.push.apple.com/x",  # urllib3: 127.0.0.1; urlsplit: a host under notice_services.apple.com
    "https://web.push.apple.com\\@127.0.0.1/x",
    "https://fcm.googleapis.com:/x",  # an empty port
    "https://a..push.apple.com/x",  # an empty label
    "https://.push.apple.com/x",
    "https://fcm.googleapis.com./x",
    "https://fcm%2egoogleapis.com/x",  # a percent-escape in the host
    "https://127.0.0.1%2f.push.apple.com/x",
    "https://x@web.push.apple.com/x",  # a user
    "https://:@web.push.apple.com/x",
    "https://web.push.apple.com:0443/x",
    "https://-a.push.apple.com/x",
    "https://[::1]/x",
    "https://web.push.apple.com/x#y",
    "https://web.push.apple.com/x\ty",
    "https://web.push.apple.com?x",
)


def test_an_endpoint_two_parsers_could_read_apart_is_refused_at_the_subscription(make_tournament, service, settings):
    """The probe's endpoint reached 127.0.0.1:443 through ``*.push.apple.com``: it is refused
    with the field named, in the player's language, and so is every address urllib3 (which
    sends) and urlsplit could read apart."""
    from tournaments.notices.transport import endpoint_allowed

    allowed = ["*.push.apple.com", "web.push.apple.com", "fcm.googleapis.com", "127.0.0.1"]
    for bad in TWO_READINGS:
        assert not endpoint_allowed(bad, allowed), bad
    assert endpoint_allowed("https://web.push.apple.com/x", allowed) and endpoint_allowed("https://fcm.googleapis.com:443/x?y=1", allowed)
    settings.TDM_PUSH_ENDPOINTS = allowed
    entry = tournament_of(make_tournament, 1).entries.get()
    phone = Phone(service, "/ok/x")
    for bad, language, word in ((TWO_READINGS[0], "en", "push service"), (TWO_READINGS[2], "it", "servizio push"), (TWO_READINGS[3], "en", "push service")):
        phone.subscription["endpoint"] = bad
        r = subscribe(entry, phone, language)
        assert r.status_code == 400 and r.json()["code"] == "endpoint_not_allowed" and r.json()["field"] == "endpoint", bad
        assert word in r.json()["detail"]
    assert not PushSubscription.objects.exists()


def test_a_subscription_the_server_may_not_call_is_deleted_when_its_notice_is_sent(make_tournament, service, worker, actor, settings):
    """Rows written before the endpoint was read strictly: each is passed again right before
    its call, refused, and deleted; the batch goes on, and the other phones hear their seat."""
    settings.TDM_PUSH_ENDPOINTS = ["*.push.apple.com", "fcm.googleapis.com", "127.0.0.1"]
    t = tournament_of(make_tournament, 4)
    anna, bruno, carlo, dario = t.entries.order_by("number")
    ok = Phone(service, "/ok/dario")
    assert subscribe(dario, ok, "en").status_code == 201
    keys = ok.subscription["keys"]
    for entry, endpoint in ((anna, TWO_READINGS[0]), (bruno, TWO_READINGS[2]), (carlo, TWO_READINGS[3])):
        PushSubscription.objects.create(person=entry.person, endpoint=endpoint, p256dh=keys["p256dh"], auth=keys["auth"], kinds=["seat"])
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    tasks.tell_players(t.pk)
    assert ok.read(service.to("/ok/dario")[0])["body"].startswith("Your seat")
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [ok.endpoint]
    assert len(service.received) == 1


def test_subscribing_again_writes_nothing_and_a_page_subscribes_a_bounded_number_of_times(make_tournament, service):
    """The same subscription again is no new event-log row; a page that subscribes phone after
    phone is answered 429 after 10 in the hour, and nothing more is written."""
    from tournaments.models import TournamentEvent

    entry = tournament_of(make_tournament, 1).entries.get()
    logged = TournamentEvent.objects.filter(action="people.push.subscribed")
    phone = Phone(service, "/ok/same")
    for _ in range(3):
        assert subscribe(entry, phone).status_code == 201
    assert logged.count() == 1
    for i in range(9):
        phone = Phone(service, f"/ok/{i}")
        assert subscribe(entry, phone).status_code == 201
    assert logged.count() == 10
    r = subscribe(entry, Phone(service, "/ok/one-too-many"), "it")
    assert r.status_code == 429 and r.json()["code"] == "too_many_subscriptions" and "un'ora" in r.json()["detail"]
    assert logged.count() == 10
    assert not PushSubscription.objects.filter(endpoint__endswith="one-too-many").exists()
    assert subscribe(entry, phone).status_code == 201  # a phone held, the same again: still answered


def test_a_phone_stops_its_notices_and_the_page_says_whether_it_is_subscribed(make_tournament, service):
    t = tournament_of(make_tournament, 1)
    entry = t.entries.get()
    phone = Phone(service, "/ok/x")
    assert subscribe(entry, phone, kinds=["seat", "move"]).status_code == 201
    got = Client().get(f"/p/{entry.phone_token}/push/", {"endpoint": phone.endpoint}).json()
    assert got["subscribed"] is True and got["chosen"] == ["seat", "move"] and {k["kind"] for k in got["kinds"]} >= {"seat", "move", "busted"}
    r = Client().delete(f"/p/{entry.phone_token}/push/", {"endpoint": phone.endpoint}, content_type="application/json")
    assert r.status_code == 200 and not PushSubscription.objects.exists()
    r = Client().delete(f"/p/{entry.phone_token}/push/", {"endpoint": phone.endpoint}, content_type="application/json")
    assert r.status_code == 404 and r.json()["code"] == "not_subscribed"
    assert Client().post(f"/p/{entry.phone_token}/push/", "endpoint=x", content_type="application/x-www-form-urlencoded").status_code == 415
    assert Client().post("/p/nosuchtoken/push/", phone.subscription, content_type="application/json").status_code == 404


def test_an_erasure_deletes_the_phones_and_the_export_lists_them(make_tournament, service, actor):
    t = tournament_of(make_tournament, 1)
    entry = t.entries.get()
    phone = Phone(service, "/ok/x")
    assert subscribe(entry, phone).status_code == 201
    data = privacy.person_data(entry.person)
    assert [s["endpoint"] for s in data["push_subscriptions"]] == [phone.endpoint]
    Entry.objects.filter(pk=entry.pk).update(status=Entry.BUSTED, place=1)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.FINISHED)
    RegistrationNotice.objects.create(person=entry.person, tournament=t)  # told once that a series' event closed its registration
    privacy.erase_person(entry.person, "asked to be forgotten", actor=actor)
    assert not PushSubscription.objects.exists() and not RegistrationNotice.objects.exists()


def test_the_phones_are_forgotten_a_set_time_after_the_last_event(make_tournament, service, settings):
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.notices import services as notice_services

    t = tournament_of(make_tournament, 1, settings={"push_keep_days": 2})
    entry = t.entries.get()
    assert subscribe(entry, Phone(service, "/ok/x")).status_code == 201
    assert notice_services.forget_old_subscriptions() == 0  # the event is still to play
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.FINISHED, start_at=timezone.now() - timedelta(days=1))
    assert notice_services.forget_old_subscriptions() == 0
    assert notice_services.forget_old_subscriptions(now=timezone.now() + timedelta(days=2)) == 1
    assert not PushSubscription.objects.exists()


def test_the_subscriptions_of_one_player_are_bounded(make_tournament, service):
    t = tournament_of(make_tournament, 1)
    entry = t.entries.get()
    for i in range(7):
        assert subscribe(entry, Phone(service, f"/ok/{i}")).status_code == 201
    assert PushSubscription.objects.filter(person=entry.person).count() == 5


def test_the_installations_keys_are_made_once(make_tournament, service):
    t = tournament_of(make_tournament, 2)
    a, b = t.entries.order_by("number")
    assert public_key(a) == public_key(b)


def test_a_change_hands_the_notices_to_the_worker_once_on_the_publishers_thread(settings, monkeypatch):
    """No request waits on Redis for the notices: the task is sent from the publisher's thread,
    after the change's notice, and one waits per tournament until the worker starts it."""
    import threading
    from types import SimpleNamespace

    from tdmanager import realtime
    from tournaments.eventlog import services as events

    class FakeRedis:
        def __init__(self):
            self.keys = {}

        def set(self, key, value, nx=False, ex=None):
            if nx and key in self.keys:
                return False
            self.keys[key] = value
            return True

        def hincrby(self, key, field, amount=1):
            return amount

        def publish(self, name, data):
            return 0

    fake, sent = FakeRedis(), []
    monkeypatch.setattr(realtime.bus, "_client", fake)
    monkeypatch.setattr(
        events, "signature", lambda name, args: SimpleNamespace(apply_async=lambda **kw: sent.append((name, args, threading.current_thread().name)))
    )
    for _ in range(3):  # a burst
        realtime.tournament_changed(7)
        assert realtime.publisher.wait_sent(5)
    assert sent == [("tournaments.tasks.tell_players", (7,), "tdm-publisher")]
    fake.keys.pop(events.tell_key(7))  # the worker started the task
    realtime.tournament_changed(7)
    assert realtime.publisher.wait_sent(5)
    assert len(sent) == 2


def test_the_directors_announcement_reaches_the_events_players(make_tournament, service, worker, actor, api, director, floor_user):
    t = tournament_of(make_tournament, 3)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    anna, bruno, carlo = t.entries.order_by("number")
    it = Phone(service, "/ok/anna")
    assert subscribe(anna, it, "it").status_code == 201
    assert subscribe(bruno, Phone(service, "/ok/bruno"), "en", kinds=["seat"]).status_code == 201
    url = f"/api/v1/tournaments/{t.pk}/clock/tell-players/"
    assert api(floor_user).post(url, {"text": "Cena alle 21"}, format="json").status_code == 403
    r = api(director).post(url, {"text": "  "}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "text_required"
    r = api(director).post(url, {"text": "Cena alle 21:  il buffet è aperto"}, format="json")
    assert r.status_code == 200 and r.json()["told"] == "Cena alle 21: il buffet è aperto"
    tasks.tell_players(t.pk)
    service.wait_for(1)
    assert len(service.received) == 1  # bruno's phone chose the seat alone
    assert it.read(service.to("/ok/anna")[0])["body"] == "Cena alle 21: il buffet è aperto"
    state = Client().get(f"/p/{carlo.phone_token}/state/").json()  # every player's page shows it
    assert state["players_told"]["text"] == "Cena alle 21: il buffet è aperto"


def test_a_prize_is_told_ready_at_the_desk_once_the_ranking_is_signed_off(
    make_tournament, make_person, service, worker, actor, cashier_actor, director, controller_user
):
    from payouts import services as payouts
    from tournaments.cashier import services as cashier
    from tournaments.eventlog.services import Actor

    t = make_tournament(name="Sunday Special", table_size=10)  # a pool of 400: four buy-ins of 100
    for _ in range(4):
        cashier.register(t, make_person(), method="CARD", actor=cashier_actor)
    payouts.edit_payout_table(t, [{"place": 1, "amount": "300"}, {"place": 2, "amount": "100"}], actor=actor)
    payouts.lock_payout_table(t, actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    anna, bruno, carlo, dario = t.entries.order_by("number")
    it, en = Phone(service, "/ok/anna"), Phone(service, "/ok/bruno")
    assert subscribe(anna, it, "it").status_code == 201
    assert subscribe(bruno, en, "en", kinds=["prize_ready"]).status_code == 201
    seating.record_bust(t, [dario], actor=actor)
    seating.record_bust(t, [carlo], actor=actor)
    seating.record_bust(t, [anna], actor=actor)  # second: 100, to be paid once the ranking is signed off
    tasks.tell_players(t.pk)
    service.wait_for(1)
    assert [it.read(m)["body"] for m in service.to("/ok/anna")] == ["Hai chiuso al 2° posto: il tuo premio di 100,00\u00a0€ ti aspetta alla cassa."]
    assert service.to("/ok/bruno") == []  # he chose the prize ready alone: the desk cannot pay it yet
    assert [p["ready"] for p in Client().get(f"/p/{anna.phone_token}/state/").json()["prizes"]] == [False]
    payouts.sign_off_ranking(t, actor=Actor(director))
    tasks.tell_players(t.pk)
    assert len(service.received) == 1  # one signature releases nothing
    payouts.sign_off_ranking(t, actor=Actor(controller_user))
    tasks.tell_players(t.pk)
    service.wait_for(3)
    assert it.read(service.to("/ok/anna")[-1])["body"] == "Il tuo premio di 100,00\u00a0€ è pronto: ritiralo alla cassa."
    assert [p["ready"] for p in Client().get(f"/p/{anna.phone_token}/state/").json()["prizes"]] == [True]  # her page says so too
    message = service.to("/ok/bruno")[0]
    assert en.read(message)["body"] == "Your prize of €300.00 is ready: collect it at the desk."
    assert message.headers["urgency"] == "normal" and message.headers["topic"] == f"prize_ready-{bruno.pk}"
    tasks.tell_players(t.pk)
    assert len(service.received) == 3  # told once


def test_the_series_players_hear_that_registration_closes_at_the_end_of_this_level(make_tournament, service, worker, actor, cashier_actor):
    from tournaments.cashier import services as cashier
    from tournaments.formats.services import series

    from .helpers import item_index_of_level, run_clock_at

    league = series.create_series(name="Spring league", scoring="LINEAR", cycle_length=None, actor=actor)
    monday = tournament_of(make_tournament, 3)
    series.attach(league, monday, actor=actor)
    anna, bruno, carlo = monday.entries.order_by("number")
    elsewhere = tournament_of(make_tournament, 1)  # in no series
    dario = elsewhere.entries.get()
    friday = make_tournament(name="Friday Deepstack", table_size=10, late_reg_closes_after_level=4)
    series.attach(league, friday, actor=actor)
    (elena, *_rest) = add_entries(friday, 3)  # she plays this one alone: the series' other events are not hers
    cashier.register(friday, carlo.person, method="CARD", actor=cashier_actor)  # he plays it: nothing to tell him
    phones = {e: Phone(service, f"/ok/{i}") for i, e in enumerate((anna, bruno, carlo, dario, elena))}
    for entry, language in ((anna, "it"), (bruno, "en"), (carlo, "it"), (dario, "en"), (elena, "en")):
        assert subscribe(entry, phones[entry], language).status_code == 201
    lifecycle.start(friday, actor=actor, prestart_report_sent=True)
    seating.record_bust(friday, [elena], actor=actor)
    run_clock_at(friday, item_index_of_level(friday, 3))
    tasks.tell_players(friday.pk)
    told = lambda entry: [phones[entry].read(m)["body"] for m in service.to(phones[entry].path)]  # noqa: E731
    assert told(anna) == told(bruno) == told(dario) == []  # level 3: registration stays open after it
    run_clock_at(friday, item_index_of_level(friday, 4))
    tasks.tell_players(friday.pk)
    service.wait_for(2)
    assert told(anna) == ["Le iscrizioni a Friday Deepstack chiudono alla fine di questo livello."]
    assert told(bruno) == ["Registration for Friday Deepstack closes at the end of this level."]
    assert told(dario) == [] and not any("Friday" in text for text in told(carlo) + told(elena))
    notice = phones[anna].read(service.to(phones[anna].path)[0])
    assert notice["title"] == "Friday Deepstack" and notice["url"] == f"/p/{anna.phone_token}/"  # his own page of the event he played
    message = service.to(phones[bruno].path)[0]
    assert message.headers["urgency"] == "normal" and message.headers["topic"] == f"reg_closes-{friday.pk}"
    received = len(service.received)
    tasks.tell_players(friday.pk)
    assert len(service.received) == received  # told once


@pytest.mark.django_db(transaction=True)
def test_a_push_service_that_hangs_holds_up_no_other_push_services_phones(make_tournament, settings, actor, monkeypatch):
    """The worker's two processes (threads here, each on its own connection) take the batches:
    the phones of the push service that answers hear their seat while the other hangs."""
    import threading

    from django.db import connection

    hung, ok = PushService(), PushService()
    settings.TDM_PUSH_ENDPOINTS, settings.TDM_PUSH_TIMEOUT, settings.TDM_PUSH_RETRIES = ["127.0.0.1"], 5, 0
    try:
        t = tournament_of(make_tournament, 6)
        entries = list(t.entries.order_by("number"))
        for i, entry in enumerate(entries[:3]):  # subscribed first: the hung service's notices come first
            assert subscribe(entry, Phone(hung, f"/hang/{i}")).status_code == 201
        phones = [Phone(ok, f"/ok/{i}") for i in range(3)]
        for entry, phone in zip(entries[3:], phones, strict=True):
            assert subscribe(entry, phone, "en").status_code == 201
        lifecycle.start(t, actor=actor, prestart_report_sent=True)
        batches = []
        monkeypatch.setattr(tasks.send_notices, "apply_async", lambda args, expires=None: batches.append(args[0]))
        tasks.tell_players(t.pk)
        assert len(batches) == 2

        def work(batch):
            try:
                tasks.send_notices(batch)
            finally:
                connection.close()

        began = time.monotonic()
        workers = [threading.Thread(target=work, args=(batch,)) for batch in batches]
        for w in workers:
            w.start()
        ok.wait_for(3, deadline=10)
        assert time.monotonic() - began < 2.5  # not one of the hung service's 5 s timeouts
        assert all(phone.read(ok.to(phone.path)[0])["body"].startswith("Your seat") for phone in phones)
        hung.wait_for(1)
        hung.released.set()
        for w in workers:
            w.join(30)
    finally:
        hung.released.set()
        hung.close()
        ok.close()


def test_a_worker_finds_the_notices_tasks_under_the_names_the_queue_and_beat_use():
    """A worker registers what its autodiscovery imports (each app's ``tasks`` module): the
    notices' tasks, kept with the notices, must be found all the same, under the names that the
    tasks queued by an earlier version, the beat schedule and the notices queue's routing give.
    A fresh interpreter, as a worker starting: this process has imported them already."""
    import subprocess
    import sys

    code = "import django; django.setup()\nfrom tdmanager.celery import app\napp.loader.import_default_modules()\nprint('\\n'.join(sorted(app.tasks)))\n"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env={**os.environ, "DJANGO_SETTINGS_MODULE": "tdmanager.settings"}
    )
    assert done.returncode == 0, done.stderr
    registered = set(done.stdout.split())
    wanted = {f"tournaments.tasks.{name}" for name in ("tell_players", "send_notices", "send_notice", "forget_old_push_subscriptions", "tell_timed_players")}
    assert wanted <= registered, wanted - registered
    assert {"tournaments.tasks.clock_tick", "tournaments.formats.tasks.sweep_heads_up_matches"} <= registered  # the rest as before


def test_the_notices_go_out_on_a_queue_of_their_own_that_every_plain_worker_serves():
    """``manage.py serve`` gives the ``notices`` queue a worker at the lowest priority
    (tests/test_launcher_stop.py), so the notices must go there, and what works out who is told
    stays with the clock's worker; a worker started without ``-Q`` serves both queues."""
    route = celery_app.amqp.router.route
    assert route({}, tasks.send_notices.name)["queue"].name == "notices"
    assert route({}, tasks.send_notice.name)["queue"].name == "notices"
    assert route({}, tasks.tell_players.name)["queue"].name == "celery"
    assert route({}, clock_tick.name)["queue"].name == "celery"
    assert set(celery_app.amqp.queues) == {"celery", "notices"}


def test_the_environments_proxy_is_used_unless_no_proxy_names_the_push_service(make_tournament, service, worker, actor, monkeypatch):
    """The environment is read once per push service, not at each notice; what it says still
    holds: a proxy set there carries the notices (here one that takes no connection, so nothing
    arrives), unless ``no_proxy`` names the push service's host."""
    from tournaments.notices import transport

    t = tournament_of(make_tournament, 2)
    anna = t.entries.order_by("number").first()
    assert subscribe(anna, Phone(service, "/ok/anna")).status_code == 201
    monkeypatch.setattr(transport._local, "session", None, raising=False)  # a new session reads the environment
    monkeypatch.setenv("http_proxy", "http://127.0.0.1:9")
    monkeypatch.setenv("no_proxy", "example.org")
    message = notice_services.Message(PushSubscription.objects.get().pk, {"title": "t", "body": "via the proxy"}, 60, "high", "x")
    assert notice_services.send_one(message).status == 0  # the proxy took no connection
    assert service.received == []
    monkeypatch.setattr(transport._local, "session", None)
    monkeypatch.setenv("no_proxy", "127.0.0.1")
    assert notice_services.send_one(message).delivered
    assert len(service.received) == 1


def test_a_worker_sends_no_faster_than_the_houses_pace(service, settings):
    """``TDM_PUSH_RATE`` notices a second at most, evenly spaced: a burst to thousands of phones
    leaves the cores room for the desk (a lower bound only: the machine may be slower)."""
    from tournaments.notices import transport

    settings.TDM_PUSH_RATE = 50
    phone = Phone(service, "/ok/paced")
    key = notice_services.installation_keys().private_key
    began = time.monotonic()
    for i in range(11):
        assert transport.post_encrypted(phone.subscription, {"body": str(i)}, private_pem=key, ttl=60, urgency="high", topic="t").delivered
    assert time.monotonic() - began >= 10 / 50  # ten gaps of 20 ms
    assert [phone.read(r)["body"] for r in service.to("/ok/paced")] == [str(i) for i in range(11)]


def forget_circuit(service):
    """The circuit is kept in the cache, which outlives a test (Redis): a port used again by an
    earlier run's dead service must not find it open."""
    from django.core.cache import cache

    from tournaments.notices import transport

    cache.delete_many(transport._circuit_keys(service.origin))


@pytest.mark.django_db(transaction=True)
def test_a_dead_push_service_delays_only_its_own_phones(make_tournament, settings, actor, monkeypatch):
    """The probe's scenario: five phones of one player at a push service that takes the
    connection and never answers, ten other players at one that answers. The notices' one
    worker process takes the batches in turn, the dead service's first: the ten hear their seat
    in about the time they would without it, well inside the dead service's timeout, and the
    five are put back on the queue for later, not waited for."""
    from tournaments.notices import transport

    dead, ok = DeadService("127.0.0.2"), PushService()
    forget_circuit(dead)
    settings.TDM_PUSH_ENDPOINTS = ["127.0.0.1", "127.0.0.2"]
    settings.TDM_PUSH_CONNECT_TIMEOUT, settings.TDM_PUSH_TIMEOUT, settings.TDM_PUSH_RETRIES = 5, 5, 5
    try:
        t = tournament_of(make_tournament, 11)
        first, *others = t.entries.order_by("number")
        for i in range(5):
            assert subscribe(first, Phone(dead, f"/dead/{i}")).status_code == 201
        phones = [Phone(ok, f"/ok/{i}") for i in range(10)]
        for entry, phone in zip(others, phones, strict=True):
            assert subscribe(entry, phone, "en").status_code == 201
        lifecycle.start(t, actor=actor, prestart_report_sent=True)
        queued = []
        monkeypatch.setattr(tasks.send_notices, "apply_async", lambda args, kwargs=None, **options: queued.append((args[0], kwargs or {}, options)))
        tasks.tell_players(t.pk)
        batches = [batch for batch, _kwargs, _options in queued]
        assert [len(b) for b in batches] == [5, 10]  # the dead service's batch first
        queued.clear()
        began = time.perf_counter()
        for batch in batches:  # the worker process, task after task
            tasks.send_notices(batch)
        ok.wait_for(10, deadline=10)
        assert max(r.at for r in ok.received) - began < 2.0  # the dead service's timeout is 5 s
        assert all(phone.read(ok.to(phone.path)[0])["body"].startswith("Your seat") for phone in phones)
        assert dead.connections >= 1  # it was called, and hangs meanwhile
    finally:
        dead.close()  # its call ends now
        ok.close()
    assert transport.lanes.idle(10)
    assert PushSubscription.objects.filter(person=first.person).count() == 5  # no answer: kept
    # later, on the queue: the one tried as a try, the four behind it as not tried yet
    assert sorted((len(batch), kwargs["tried"]) for batch, kwargs, _options in queued) == [(1, 1), (4, 0)]
    assert all(options["countdown"] >= 1 for _batch, _kwargs, options in queued)


def test_a_push_service_that_keeps_failing_is_not_called_while_its_circuit_is_open(service, settings):
    """After ``TDM_PUSH_BREAKER_FAILURES`` calls without an answer the push service is not
    called again for ``TDM_PUSH_BREAKER_SECONDS``: a notice to it is kept back at once (to be
    sent when the circuit may close), and the other push services are called as before."""
    from tournaments.notices import transport

    dead = DeadService("127.0.0.2")
    forget_circuit(dead)
    settings.TDM_PUSH_ENDPOINTS = ["127.0.0.1", "127.0.0.2"]
    settings.TDM_PUSH_CONNECT_TIMEOUT, settings.TDM_PUSH_TIMEOUT = 1, 1
    settings.TDM_PUSH_BREAKER_FAILURES, settings.TDM_PUSH_BREAKER_SECONDS = 2, 60
    try:
        phone, other = Phone(dead, "/dead/x"), Phone(service, "/ok/y")
        key = notice_services.installation_keys().private_key

        def send(p):
            began = time.monotonic()
            sent = transport.post_encrypted(p.subscription, {"body": "x"}, private_pem=key, ttl=60, urgency="high", topic="t")
            return sent, time.monotonic() - began

        for _ in range(2):
            sent, took = send(phone)
            assert sent.status == 0 and took >= 0.9  # the read timeout
        calls = dead.connections
        sent, took = send(phone)
        assert dead.connections == calls and took < 0.5  # not called
        assert sent.skipped and not sent.delivered and 50 <= sent.retry_after <= 60
        assert send(other)[0].delivered
    finally:
        dead.close()
