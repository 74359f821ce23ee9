"""Issue #38, cancel × guarantee: a cancelled event will not play, so it pays nothing out and the
house's guarantee is void; what its players paid is owed back to them until a cashier refunds it.

The defect, as the card room met it (the demo event: €5,000 guarantee, 26 paid entries, cancelled,
every refund paid): the payouts page still counted "+ overlay per il garantito", the reconciliation
said "differenza di 4850,00 — NON in pareggio", and the page still offered "Blocca e pubblica" and
"Rendi questo torneo un satellite". An event without a guarantee was off by the prize part of every
refund still owed. Here each state of the cancellation is read through what the users read: the
payouts page and the reconciliation report in Italian, and the API."""

from decimal import Decimal

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from payouts import reports
from seating import services as seating
from tests.tournaments.helpers import break_after_level, run_clock_at
from tournaments.cashier import selectors as cashier_selectors
from tournaments.cashier import services as cashier
from tournaments.models import Tournament
from tournaments.setup import lifecycle

D = Decimal
pytestmark = pytest.mark.django_db

BALANCED_IT = "In pareggio: ogni centesimo è giustificato."
OWED_IT = "Rimborsi dovuti ai giocatori del torneo annullato"


def italian(user) -> Client:
    c = Client()
    c.force_login(user)
    c.cookies[settings.LANGUAGE_COOKIE_NAME] = "it"
    return c


def recon_it(t) -> tuple[dict, str]:
    """The reconciliation report as the control authority reads it: its lines and its result."""
    with translation.override("it"):
        report = reports.reconciliation(Tournament.objects.get(pk=t.pk))
        return {str(label): value for label, value in report["rows"]}, str(dict(report["totals"])["Risultato"])


@pytest.fixture
def guaranteed(make_tournament, make_person, cashier_actor, actor):
    """The demo's event: re-entry with an add-on, 3 % to the casino, €5,000 guaranteed; 24 buy-ins,
    2 re-entries (26 paid entries) and 1 add-on: €2,880 taken, €2,620 of it prize parts."""
    t = make_tournament(
        name="Domenica Garantito",
        format=Tournament.REENTRY,
        max_entries_per_player=2,
        late_reg_closes_after_level=6,
        addon_price=D("20"),
        addon_chips=20000,
        addon_after_level=4,
        deductions=[{"name": "casino", "percent": "3"}],
        guarantee=D("5000"),
    )
    entries = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(24)]
    lifecycle.start(t, actor=actor, override_minimum=True)
    run_clock_at(t, break_after_level(t, 4))
    cashier.addon(entries[23], method="CASH", actor=cashier_actor)
    for e in entries[:2]:
        seating.record_bust(t, [e], actor=actor)
        entries.append(cashier.reenter(t, e.person, method="CASH", actor=cashier_actor).entry)
    return Tournament.objects.get(pk=t.pk), entries


def test_before_the_cancel_the_guarantee_is_in_the_pool(guaranteed, director):
    # The setting of the defect: a playing event shows the house's overlay (5,000 − 2,620).
    t, _entries = guaranteed
    page = italian(director).get(f"/tournaments/{t.pk}/payouts/").content.decode()
    assert "overlay per il garantito" in page and "2.380,00" in page and "Blocca e pubblica" in page


@pytest.fixture
def target(make_tournament):
    """An event a satellite could award seats in."""
    return make_tournament(name="Main Event")


def assert_void_and_balanced(t, director, api, target, *, owed: str, owed_prize: str):
    """What a cancelled event shows in every state of its refunds."""
    page = italian(director).get(f"/tournaments/{t.pk}/payouts/").content.decode()
    assert "overlay per il garantito" not in page
    assert 'id="pool-total">0,00\u00a0€<' in page
    assert "Riconciliazione: in pareggio." in page and "Riconciliazione: differenza" not in page
    for offer in ("Blocca e pubblica", "Salva la tabella", "Proposta automatica</button>", "Rendi questo torneo un satellite", "Firma la classifica"):
        assert offer not in page, offer
    assert "Torneo annullato: non si gioca." in page

    lines, result = recon_it(t)
    assert result == BALANCED_IT
    assert lines["Overlay aggiunto dalla casa"] == "0.00" and lines["Montepremi"] == "0.00"
    assert lines[OWED_IT] == owed and lines["… di cui quote montepremi"] == owed_prize

    pool = api(director).get(f"/api/v1/tournaments/{t.pk}/payouts/pool/").json()
    assert (pool["overlay"], pool["total"]) == ("0.00", "0.00")
    for url, body in ((f"/api/v1/tournaments/{t.pk}/payouts/table/lock/", {}), (f"/api/v1/tournaments/{t.pk}/payouts/satellite/", {"target": target.pk})):
        r = api(director).post(url, body, format="json", HTTP_ACCEPT_LANGUAGE="it")
        assert (r.status_code, r.json()["code"]) == (409, "tournament_cancelled"), url


def test_a_cancelled_guaranteed_event_balances_with_every_refund_owed(guaranteed, target, director, actor, api):
    t, _entries = guaranteed
    lifecycle.cancel(t, actor=actor, reason="blackout")
    assert sum((d["amount"] for d in cashier_selectors.refunds_due(t)), D(0)) == D("2880")  # the desk's list
    assert_void_and_balanced(t, director, api, target, owed="2880.00", owed_prize="2620.00")


def test_it_balances_after_some_refunds_are_paid(guaranteed, target, director, actor, cashier_actor, api):
    t, entries = guaranteed
    lifecycle.cancel(t, actor=actor, reason="blackout")
    for e in entries[2:12]:  # ten buy-ins of 110 handed back
        cashier.pay_refund(e, method="CASH", actor=cashier_actor)
    assert_void_and_balanced(t, director, api, target, owed="1780.00", owed_prize="1620.00")
    lines, _result = recon_it(t)
    assert lines["… rimborsi già pagati alla cassa (fuori dalle entrate sopra)"] == "1100.00"


def test_it_balances_after_every_refund_is_paid(guaranteed, target, director, actor, cashier_actor, api):
    # The reported state: every refund paid at the desk, and "differenza di 4850,00" left.
    t, entries = guaranteed
    lifecycle.cancel(t, actor=actor, reason="blackout")
    for e in entries:
        cashier.pay_refund(e, method="CASH", actor=cashier_actor)
    assert cashier_selectors.refunds_due(t) == []
    assert_void_and_balanced(t, director, api, target, owed="0.00", owed_prize="0.00")
    lines, _result = recon_it(t)
    assert lines["Entrate: totale"] == "0.00"
    assert lines["… rimborsi già pagati alla cassa (fuori dalle entrate sopra)"] == "2880.00"


def test_a_cancelled_event_without_guarantee_balances_while_refunds_are_owed(make_tournament, target, make_person, cashier_actor, actor, director, api):
    t = make_tournament(deductions=[{"name": "casino", "percent": "3"}])
    for _ in range(5):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    lifecycle.cancel(t, actor=actor, reason="too few players")
    assert_void_and_balanced(t, director, api, target, owed="550.00", owed_prize="500.00")
    lines, _result = recon_it(t)
    assert lines["Trattenute incassate dalla casa"] == "0.00"  # nothing is taken from money going back
    assert lines["Fee incassate dalla casa"] == "0.00"  # every fee is owed back too


REFUSED = [
    ("table/lock/", {}),
    ("table/", {"amounts": ["0"]}),
    ("table/propose/", {}),
    ("table/unlock/", {"reason": "recount"}),
    ("signoff/", {}),
    ("satellite/", {"target": "TARGET"}),
    ("satellite/complete/", {}),
    ("side-pools/", {"kind": "LAST_LONGER", "name": "Last Longer"}),
]


@pytest.mark.parametrize(("path", "body"), REFUSED, ids=[p for p, _b in REFUSED])
def test_the_api_refuses_what_only_an_event_that_plays_does(path, body, make_tournament, make_person, cashier_actor, actor, director, api):
    t = make_tournament(guarantee=D("5000"))
    target = make_tournament(name="Main Event")
    for _ in range(3):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    lifecycle.cancel(t, actor=actor, reason="storm")
    body = {k: (target.pk if v == "TARGET" else v) for k, v in body.items()}
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/payouts/{path}", body, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 409 and r.json()["code"] == "tournament_cancelled"
    assert r.json()["detail"].startswith("Questo torneo è annullato")


def test_the_page_refuses_them_too(make_tournament, make_person, cashier_actor, actor, director):
    t = make_tournament(guarantee=D("5000"))
    target = make_tournament(name="Main Event")
    cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    lifecycle.cancel(t, actor=actor, reason="storm")
    c = italian(director)
    for op in ({"op": "lock"}, {"op": "satellite", "target": target.pk}):
        page = c.post(f"/tournaments/{t.pk}/payouts/", op, follow=True).content.decode()
        assert "Questo torneo è annullato" in page, op
    assert not t.ledger.filter(kind="PAYOUT").exists()
    assert Tournament.objects.get(pk=t.pk).format != Tournament.SATELLITE
