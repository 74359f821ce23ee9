"""A player's personal data (issue #30 item 8; GDPR, named by seed 001 L46): the director
exports everything held about a person in a file (logged), and erases it keeping the money
trail (the person becomes a pseudonym; receipts, ledger and places keep their numbers)."""

import json
from datetime import timedelta
from io import StringIO

import pytest
import time_machine
from django.core.management import call_command
from django.test import Client
from django.utils import timezone, translation

from tournaments.cashier import services as cashier
from tournaments.eventlog import sentences as eventlog
from tournaments.eventlog.services import Actor
from tournaments.models import Entry, LedgerRow, Person, Tournament, TournamentEvent
from tournaments.people import privacy
from tournaments.people import services as people

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(tournament, person, cashier_actor):
    """Mario Rossi bought in (receipt printed) and was told he may not be found by name."""
    sale = cashier.register(tournament, person, method="CASH", actor=cashier_actor)
    person.email, person.notes = "mario@example.org", "likes table 3"
    person.save()
    people.set_hidden_from_lookup(person, True, actor=cashier_actor)
    return sale


def test_the_director_downloads_everything_held_about_a_person(api, director, person, played):
    r = api(director).get(f"/api/v1/people/{person.pk}/export/")
    assert r.status_code == 200
    assert r["Content-Disposition"] == f'attachment; filename="person-{person.pk}.json"'
    data = json.loads(r.content)
    assert data["person"]["first_name"] == "Mario" and data["person"]["document_id"] == "AB123456"
    assert data["person"]["email"] == "mario@example.org" and data["person"]["notes"] == "likes table 3"
    assert data["lookup_opt_out"] is True
    assert [e["tournament_name"] for e in data["entries"]] == ["Sunday Special"]
    assert [row["receipt_number"] for row in data["ledger"]] == [played.row.receipt_number]
    assert data["ledger"][0]["prize_amount"] == "100.00" and data["ledger"][0]["fee_amount"] == "10.00"
    actions = [ev["action"] for ev in data["event_log"]]
    assert "cashier.buyin.sold" in actions and "people.person.lookup_privacy" in actions
    logged = TournamentEvent.objects.get(action="people.person.exported")
    assert logged.payload == {"person": person.pk} and logged.actor == director


def test_only_the_director_exports(api, cashier_user, floor_user, person):
    for user in (cashier_user, floor_user):
        assert api(user).get(f"/api/v1/people/{person.pk}/export/").status_code == 403
    assert not TournamentEvent.objects.filter(action="people.person.exported").exists()


def test_the_person_page_offers_the_export_to_the_director_only(director, cashier_user, person):
    page = Client()
    page.force_login(director)
    assert f'href="/api/v1/people/{person.pk}/export/"' in page.get(f"/people/{person.pk}/").content.decode()
    page.force_login(cashier_user)
    assert "/export/" not in page.get(f"/people/{person.pk}/").content.decode()


def _over(tournament, entry, place=None):
    """The tournament ended with the player out (test set-up: no payout table worked out)."""
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.FINISHED)
    Entry.objects.filter(pk=entry.pk).update(status=Entry.BUSTED, place=place)


def test_an_erasure_keeps_the_money_trail_and_logs_no_erased_data(api, director, person, played, tournament):
    _over(tournament, played.entry, place=None)
    receipt = LedgerRow.objects.get(pk=played.row.pk)
    r = api(director).post(f"/api/v1/people/{person.pk}/erase/", {"reason": "the player asked by e-mail"}, format="json")
    assert r.status_code == 200, r.content
    assert r.json()["display_name"] == f"Erased player #{person.pk}"
    p = Person.objects.get(pk=person.pk)
    assert (p.nickname, p.phone, p.document_id, p.email, p.notes) == ("", "", "", "", "")
    assert people.search_people("Rossi") == [] and people.search_people("AB123456") == []
    row = LedgerRow.objects.get(pk=played.row.pk)  # the receipt: same number, same money, same entry
    assert (row.receipt_number, row.prize_amount, row.fee_amount, row.entry_id) == (
        receipt.receipt_number,
        receipt.prize_amount,
        receipt.fee_amount,
        played.entry.pk,
    )
    assert Entry.objects.get(pk=played.entry.pk).number == played.entry.number
    ev = TournamentEvent.objects.get(action="people.person.erased")
    assert ev.payload == {"person": person.pk, "reason": "the player asked by e-mail"} and ev.actor == director
    assert "Rossi" not in json.dumps(ev.payload) and "AB123456" not in json.dumps(ev.payload)


def test_an_erasure_waits_while_the_player_plays(api, director, person, played):
    r = api(director).post(f"/api/v1/people/{person.pk}/erase/", {"reason": "asked"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "person_in_play"
    assert Person.objects.get(pk=person.pk).last_name == "Rossi"


def test_an_erasure_waits_for_a_refund_due(api, director, actor, person, played, tournament):
    from tournaments.setup import lifecycle

    lifecycle.cancel(tournament, actor=actor, reason="storm")
    r = api(director).post(f"/api/v1/people/{person.pk}/erase/", {"reason": "asked"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "person_refund_due"
    assert Person.objects.get(pk=person.pk).document_id == "AB123456"


def test_only_the_director_erases_and_with_a_reason(api, director, cashier_user, person):
    assert api(cashier_user).post(f"/api/v1/people/{person.pk}/erase/", {"reason": "x"}, format="json").status_code == 403
    r = api(director).post(f"/api/v1/people/{person.pk}/erase/", {"reason": ""}, format="json")
    assert r.status_code == 400 and list(r.json()["fields"]) == ["reason"]
    assert Person.objects.get(pk=person.pk).last_name == "Rossi"


def test_the_person_page_erases_for_the_director(director, person):
    page = Client()
    page.force_login(director)
    r = page.post(f"/people/{person.pk}/", {"op": "erase", "reason": "asked at the desk"}, follow=True)
    assert f"Erased player #{person.pk}" in r.content.decode()
    assert Person.objects.get(pk=person.pk).phone == ""


def test_an_erasure_waits_for_a_prize_not_paid(api, director, person, played, tournament):
    _over(tournament, played.entry, place=1)
    r = api(director).post(f"/api/v1/people/{person.pk}/erase/", {"reason": "asked"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "person_prize_due"
    assert Person.objects.get(pk=person.pk).nickname == "super"


def test_a_correction_is_logged_old_to_new_and_the_document_without_its_values(api, cashier_user, person):
    r = api(cashier_user).patch(f"/api/v1/people/{person.pk}/", {"phone": "+39 347 000 1111", "document_id": "ZX998877"}, format="json")
    assert r.status_code == 200 and r.json()["phone"] == "+39 347 000 1111"
    ev = TournamentEvent.objects.get(action="people.person.changed")
    assert ev.payload["person"] == person.pk and ev.actor == cashier_user
    assert ev.payload["fields"] == "phone, document_id"
    assert ev.payload["changes"] == {"phone": {"old": "+39 333 123 4567", "new": "+39 347 000 1111"}}
    assert ev.payload["document_changed"] is True
    assert "AB123456" not in json.dumps(ev.payload) and "ZX998877" not in json.dumps(ev.payload)
    with translation.override("it"):
        assert eventlog.sentence(ev.action, ev.payload, actor="carla") == (
            f"Carla ha rettificato i dati della persona n. {person.pk}: telefono +39 333 123 4567 → +39 347 000 1111, documento d'identità"
        )


def test_the_person_page_corrects_the_data_and_an_empty_document_keeps_it(cashier_user, person):
    page = Client()
    page.force_login(cashier_user)
    r = page.post(
        f"/people/{person.pk}/",
        {"op": "edit", "first_name": "Mario", "last_name": "Rossini", "nickname": "super", "email": "", "phone": person.phone, "document_id": "", "notes": ""},
        follow=True,
    )
    assert r.status_code == 200
    p = Person.objects.get(pk=person.pk)
    assert (p.last_name, p.document_id) == ("Rossini", "AB123456")
    ev = TournamentEvent.objects.get(action="people.person.changed")
    assert ev.payload["changes"] == {"last_name": {"old": "Rossi", "new": "Rossini"}}


def test_an_erasure_takes_the_corrected_values_out_of_the_log_and_the_export(api, cashier_user, director, person):
    """Found by the simulated days (issue 38, issue 40 item 3): a phone and a nickname corrected
    before the erasure stayed, old and new, in the correction's log row and so in the export of
    the erased person's data. The row keeps which fields were corrected, by whom, when."""
    patch = {"phone": "+39 347 000 1111", "nickname": "supermario"}
    assert api(cashier_user).patch(f"/api/v1/people/{person.pk}/", patch, format="json").status_code == 200
    assert api(director).post(f"/api/v1/people/{person.pk}/erase/", {"reason": "asked"}, format="json").status_code == 200

    exported = api(director).get(f"/api/v1/people/{person.pk}/export/").content.decode()
    for gone in ("+39 333 123 4567", "+39 347 000 1111", "supermario", "super", "Rossi"):
        assert gone not in exported
    ev = TournamentEvent.objects.get(action="people.person.changed")
    assert ev.payload["fields"] == "nickname, phone" and ev.actor == cashier_user
    with translation.override("it"):
        assert eventlog.sentence(ev.action, ev.payload, actor="carla") == (f"Carla ha rettificato i dati della persona n. {person.pk}: nickname, telefono")


def test_an_erased_person_is_not_corrected(api, director, person):
    from tournaments.people import privacy

    privacy.erase_person(person, "asked", actor=Actor(director, "test"))
    r = api(director).patch(f"/api/v1/people/{person.pk}/", {"first_name": "Mario"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "person_erased"


def test_lists_and_pages_show_the_document_masked(api, cashier_user, director, person):
    found = api(cashier_user).get("/api/v1/people/", {"q": "Rossi"}).json()
    assert [p["document_id"] for p in found] == ["•••••456"]
    assert api(director).get(f"/api/v1/people/{person.pk}/").json()["document_id"] == "•••••456"
    page = Client()
    page.force_login(cashier_user)
    html = page.get(f"/people/{person.pk}/").content.decode()
    assert "AB123456" not in html and "•••••456" in html and "reveal-document" not in html


def test_a_director_reveals_a_document_and_the_view_is_logged(api, director, cashier_user, person):
    assert api(cashier_user).post(f"/api/v1/people/{person.pk}/document/", {}, format="json").status_code == 403
    r = api(director).post(f"/api/v1/people/{person.pk}/document/", {}, format="json")
    assert r.status_code == 200 and r.json() == {"person": person.pk, "document_id": "AB123456"}
    page = Client()
    page.force_login(director)
    assert "AB123456" in page.post(f"/people/{person.pk}/", {"op": "reveal"}).content.decode()
    views = TournamentEvent.objects.filter(action="people.document.viewed").order_by("id")
    assert [(v.actor, v.payload["person"]) for v in views] == [(director, person.pk), (director, person.pk)]


def test_the_desk_reads_the_whole_document_at_check_in_only(api, cashier_user, person, played):
    url = f"/api/v1/cashier/check-in/document/?entry={played.entry.pk}"
    r = api(cashier_user).get(url)
    assert r.status_code == 200 and r.json()["document_id"] == "AB123456"
    ev = TournamentEvent.objects.get(action="people.document.viewed")
    assert ev.actor == cashier_user and ev.payload["purpose"] == "check-in" and ev.payload["entry"] == played.entry.pk
    assert api(cashier_user).post("/api/v1/cashier/check-in/", {"entry": played.entry.pk}, format="json").status_code == 200
    r = api(cashier_user).get(url)
    assert r.status_code == 409 and r.json()["code"] == "not_at_checkin"


def test_the_export_is_logged_as_a_read_of_the_whole_document(api, director, person, make_person):
    """Issue #40 item 5: the export holds the whole number, so it is logged as a reveal and a
    check-in read are (``people.document.viewed``, purpose export); a person with no document
    number gives no such row."""
    assert json.loads(api(director).get(f"/api/v1/people/{person.pk}/export/").content)["person"]["document_id"] == "AB123456"
    ev = TournamentEvent.objects.get(action="people.document.viewed")
    assert (ev.actor, ev.payload, ev.tournament_id) == (director, {"person": person.pk, "purpose": "export"}, None)
    nobody = make_person("Anna", "Verdi")
    assert api(director).get(f"/api/v1/people/{nobody.pk}/export/").status_code == 200
    assert TournamentEvent.objects.filter(action="people.document.viewed").count() == 1
    assert TournamentEvent.objects.filter(action="people.person.exported").count() == 2


def _played_long_ago(make_tournament, person, cashier_actor, days=4000, place=None):
    """The person added and his one buy-in sold ``days`` ago, the tournament over since."""
    with time_machine.travel(timezone.now() - timedelta(days=days), tick=False):
        Person.objects.filter(pk=person.pk).update(created_at=timezone.now())
        t = make_tournament(name="Long ago")
        sale = cashier.register(t, person, method="CASH", actor=cashier_actor)
    _over(t, sale.entry, place=place)
    return sale


def test_retention_erases_the_people_with_no_activity_and_keeps_the_rest(settings, make_tournament, make_person, person, cashier_actor):
    settings.TDM_PERSON_RETENTION_DAYS = 3650
    sale = _played_long_ago(make_tournament, person, cashier_actor)  # eleven years ago, nothing since
    recent = make_person("Anna", "Verdi", document_id="CD7654321")
    Person.objects.filter(pk=recent.pk).update(created_at=timezone.now() - timedelta(days=4000))
    cashier.register(make_tournament(name="Today"), recent, method="CASH", actor=cashier_actor)  # but plays today
    dry = StringIO()
    call_command("erase_inactive_people", "--dry-run", stdout=dry)
    assert f"1 people would be erased (no activity for 3650 days): #{person.pk}" in dry.getvalue()
    assert Person.objects.get(pk=person.pk).last_name == "Rossi"
    out = StringIO()
    call_command("erase_inactive_people", stdout=out)
    assert f"1 people erased (no activity for 3650 days): #{person.pk}" in out.getvalue()
    gone, kept = Person.objects.get(pk=person.pk), Person.objects.get(pk=recent.pk)
    assert (gone.first_name, gone.last_name, gone.document_id) == ("Erased player", f"#{person.pk}", "")
    assert (kept.last_name, kept.document_id) == ("Verdi", "CD7654321")
    assert LedgerRow.objects.get(pk=sale.row.pk).receipt_number == sale.row.receipt_number
    ev = TournamentEvent.objects.get(action="people.person.erased")
    assert ev.actor is None and ev.payload["reason"] == "retention: no activity for 3650 days (TDM_PERSON_RETENTION_DAYS)"


def test_retention_keeps_an_inactive_person_still_owed_a_prize_and_zero_keeps_everybody(settings, make_tournament, person, cashier_actor):
    _played_long_ago(make_tournament, person, cashier_actor, place=1)
    settings.TDM_PERSON_RETENTION_DAYS = 0
    assert privacy.erase_inactive() == {"days": 0, "erased": [], "kept": []}
    settings.TDM_PERSON_RETENTION_DAYS = 3650
    assert privacy.erase_inactive() == {"days": 3650, "erased": [], "kept": [{"person": person.pk, "code": "person_prize_due"}]}
    assert Person.objects.get(pk=person.pk).last_name == "Rossi"


def test_the_retention_runs_daily_on_beat():
    from django.conf import settings as django_settings

    job = django_settings.CELERY_BEAT_SCHEDULE["erase-inactive-people"]
    assert job["task"] == "tournaments.tasks.erase_inactive_people" and job["schedule"] == 86400.0


def test_the_pseudonym_reads_in_the_page_language(director, person):
    # Issue #39: "Erased player #58" on the Italian pages; stored the same in every language.
    page = Client()
    page.force_login(director)
    page.cookies["django_language"] = "it"
    html = page.post(f"/people/{person.pk}/", {"op": "erase", "reason": "chiesto al banco"}, follow=True).content.decode()
    assert f"Persona cancellata #{person.pk}" in html
    assert html.count("Erased player") == html.count('value="Erased player"')  # only the edit form's stored value
    assert Person.objects.get(pk=person.pk).first_name == "Erased player"
