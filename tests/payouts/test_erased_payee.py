"""Erasure × a payment already made (issue 38, found by the simulated days: SQLite day seed 700020,
PostgreSQL day seed 600013). A player collects his bounty at the desk, his event ends, and he asks
to be forgotten: the payments report (the regulator's export) named him "Erased player #9" as the
winner and "Vera Neri" as the payee, beside it. A payee is the winner's name as registered (the
desk pays no one else): once he is erased, it names his pseudonym, on every report and slip."""

from decimal import Decimal

import pytest
from django.test import Client
from django.utils import translation

from payouts import reports, services
from payouts.models import PrizePayment
from seating import services as seating
from tests.payouts.bounty_setup import bounty_event
from tournaments.eventlog.services import Actor
from tournaments.models import LedgerRow, Tournament
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db


def test_an_erased_winner_is_named_by_his_pseudonym_as_payee(make_tournament, make_person, cashier_actor, actor, api, cashier_user, director, controller_user):
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, players=3)
    seating.record_bust(t, [{"entry": e[0].pk, "eliminators": [e[2].pk]}], actor=actor)
    r = api(cashier_user).post(f"/api/v1/tournaments/{t.pk}/bounties/pay/", {"entry": e[2].pk, "method": "CASH"}, format="json")
    assert r.status_code == 201, r.json()
    seating.record_bust(t, [{"entry": e[2].pk, "eliminators": [e[1].pk]}], actor=actor)  # P1 wins, P2 second (unpaid place)
    t.refresh_from_db()
    services.lock_payout_table(t, actor=Actor(director))
    services.sign_off_ranking(t, actor=Actor(director))
    services.sign_off_ranking(t, actor=Actor(controller_user))
    services.pay_prize(e[1], method="CASH", actor=cashier_actor)  # the winner's €150
    winner = e[1].person
    assert PrizePayment.objects.get(entry=e[1]).payee == winner.full_name
    person = e[2].person
    name = person.full_name
    row = LedgerRow.objects.get(tournament=t, kind=LedgerRow.BOUNTY, entry=e[2])
    assert row.payee == name and name in reports.to_csv(reports.build(t, "payments"))

    r = api(director).post(f"/api/v1/people/{person.pk}/erase/", {"reason": "asked to be forgotten"}, format="json")
    assert r.status_code == 200, r.json()
    t = Tournament.objects.get(pk=t.pk)
    csv = reports.to_csv(reports.build(t, "payments"))
    assert name not in csv and person.last_name not in csv
    assert f"Erased player #{person.pk}" in csv
    row = LedgerRow.objects.get(pk=row.pk)
    assert (row.payee, row.bounty_amount, row.receipt_number) == (f"Erased player #{person.pk}", Decimal("-25.00"), row.receipt_number)
    slip = dict((str(k), str(v)) for k, v in reports.bounty_slip_lines(row))
    assert name not in " ".join(slip.values())

    # the winner, paid his prize and his bounties, is forgotten too once the event is over
    assert api(cashier_user).post(f"/api/v1/tournaments/{t.pk}/bounties/pay/", {"entry": e[1].pk, "method": "CASH"}, format="json").status_code == 201
    lifecycle.finish(Tournament.objects.get(pk=t.pk), actor=actor)
    r = api(director).post(f"/api/v1/people/{winner.pk}/erase/", {"reason": "asked to be forgotten"}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 200, r.json()
    assert PrizePayment.objects.get(entry=e[1]).payee == f"Erased player #{winner.pk}"  # stored the same in every language
    assert winner.last_name not in reports.to_csv(reports.build(Tournament.objects.get(pk=t.pk), "payments"))
    # Issue #39: the Italian report read "Erased player #58"; the pseudonym is read in the reader's language.
    with translation.override("it"):
        csv = reports.to_csv(reports.build(Tournament.objects.get(pk=t.pk), "payments"))
    assert f"Persona cancellata #{winner.pk}" in csv and "Erased player" not in csv
    web = Client()
    web.force_login(director)
    web.cookies["django_language"] = "it"
    slip = web.get(f"/payouts/slip/{PrizePayment.objects.get(entry=e[1]).row.receipt_number}/").content.decode()
    assert f'<dd id="slip-payee">Persona cancellata #{winner.pk}</dd>' in slip
