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
from payouts import services as payouts
from seating import services as seating
from tests.payouts.reconciliation_rows import BALANCED, BOUNTY_IN, expected, read
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


def reconciliation_read(api, controller_user, t) -> dict:
    """The reconciliation as the controller downloads it from the API (its JSON, whole)."""
    r = api(controller_user).get(f"/api/v1/tournaments/{t.pk}/payouts/reports/reconciliation/")
    assert r.status_code == 200
    return r.json()


# A cancelled event's reconciliation, line by line: the same for every state of its refunds but
# for the money in, the fees kept, the refunds owed and paid, the bounty parts still to refund.
def cancelled_rows(money_in: list[str], fees_kept: str, refunds: list[list[str]], bounty: str) -> list[list[str]]:
    prize, fee, jackpot, total = money_in
    return expected(
        {
            "Money in: prize parts": prize,
            "Money in: fees": fee,
            "Money in: jackpot fees (to the venue's jackpot fund)": jackpot,
            BOUNTY_IN: bounty,
            "Money in: total": total,
            "Fees kept by the house": fees_kept,
        },
        notes=(
            "Tournament cancelled: it will not play. No prize pool, no overlay (the guarantee is void), no deductions: "
            "what the players paid is refunded at the desk.",
        ),
        refunds=tuple(tuple(r) for r in refunds),
        bounty={"Bounty money taken in (apart from the prize pool)": bounty, "… bounty parts of cancelled entries, still to refund": bounty},
    )


def test_fmt02_a_cancelled_pko_with_jackpot_fees_reads_line_by_line_as_its_refunds_are_paid(
    make_tournament, make_person, cashier_actor, actor, api, controller_user
):
    """Three players paid €115 each: €60 to the pool, €10 fee, €40 bounty, €5 jackpot fee. The event
    is cancelled; the director refunds one of them keeping €25 of expenses (the €10 fee first, then
    €15 of his prize part), a cashier pays back the second in full, the third is still owed."""
    payouts.set_jackpot_base(D("1000.00"), actor=actor)
    t = make_tournament(name="Cancelled PKO", buy_in=D("60"), fee=D("10"), settings={"jackpot": True, "bounty": "PKO", "bounty_amount": "40"})
    e = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True).entry for _ in range(3)]
    lifecycle.cancel(t, actor=actor, reason="storm")

    report = reconciliation_read(api, controller_user, t)
    assert (report["title"], report["columns"]) == ("Reconciliation: Cancelled PKO", ["Line", "Amount"])
    # all of it owed back: 3 × 115 = 345, of which 3 × 60 prize parts, 3 × 10 fees, and
    # 3 × (40 + 5) bounty parts and jackpot fees, which have lines of their own
    assert report["rows"] == cancelled_rows(
        ["180.00", "30.00", "15.00", "345.00"],
        "0.00",
        [
            ["Refunds owed to the players of the cancelled event", "345.00"],
            ["… of which prize parts", "180.00"],
            ["… of which fees", "30.00"],
            ["… of which side pools, jackpot fees and bounty parts (in their own lines)", "135.00"],
            ["… refunds already paid at the desk (not in the money in above)", "0.00"],
        ],
        "120.00",
    )
    assert (report["totals"], report["balanced"]) == ([["Result", "Balanced: every cent is explained."]], True)

    cashier.refund(e[0], reason="left early", actor=actor, expenses=D("25"))  # 90 back: 45 + 0 + 40 + 5
    cashier.pay_refund(e[1], method="CASH", actor=cashier_actor)  # 115 back
    report = reconciliation_read(api, controller_user, t)
    # in the drawers: 345 − 90 − 115 = 140 (prize 75, fees 20, jackpot 5, bounty 40); the third
    # player's 115 is owed; the house keeps the first one's €10 fee and €15 of his prize part
    assert report["rows"] == cancelled_rows(
        ["75.00", "20.00", "5.00", "140.00"],
        "10.00",
        [
            ["Refunds owed to the players of the cancelled event", "115.00"],
            ["… of which prize parts", "60.00"],
            ["… of which fees", "10.00"],
            ["… of which side pools, jackpot fees and bounty parts (in their own lines)", "45.00"],
            ["Prize parts kept by the house as refund expenses", "15.00"],
            ["… refunds already paid at the desk (not in the money in above)", "205.00"],
        ],
        "40.00",
    )
    assert (report["totals"], report["balanced"]) == ([["Result", "Balanced: every cent is explained."]], True)


def test_fmt02_a_cancelled_event_with_buy_ins_and_fees_alone_reads_line_by_line(make_tournament, make_person, cashier_actor, actor):
    """Two players paid €110 each, nothing else, and the director stored a payout table of €200:
    the event is cancelled, the €220 is owed back, €200 of prize parts and €20 of fees, and no
    line of other parts nor of expenses kept; the table pays nothing, it is no excess to edit."""
    t = make_tournament()
    for _ in range(2):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    payouts.edit_payout_table(t, [{"place": 1, "amount": "200"}], actor=actor)
    lifecycle.cancel(t, actor=actor, reason="too few players")
    rows, result = read(t)
    assert rows == expected(
        {"Money in: prize parts": "200.00", "Money in: fees": "20.00", "Money in: total": "220.00"},
        (
            "Tournament cancelled: it will not play. No prize pool, no overlay (the guarantee is void), no deductions: "
            "what the players paid is refunded at the desk.",
        ),
        (
            ("Refunds owed to the players of the cancelled event", "220.00"),
            ("… of which prize parts", "200.00"),
            ("… of which fees", "20.00"),
            ("… refunds already paid at the desk (not in the money in above)", "0.00"),
        ),
    )
    assert result == BALANCED
