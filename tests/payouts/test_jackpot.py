"""The progressive jackpot end to end (REG-11, PAY-12; RULES.md scenario 37): the desk sells the
fee as its own line until the end of level 1, the fund is on the lobby screens, the floor
records a royal flush, the desk pays it with a slip, and a win locks the fund until tomorrow."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from payouts import reports, services
from payouts import selectors as sel
from payouts.models import JackpotClaim
from payouts.services import PayoutError
from tdmanager.errors import ValidationFailed
from tournaments.cashier import services as cashier
from tournaments.cashier.services import DeskError
from tournaments.eventlog.services import Actor
from tournaments.live.snapshot import build_snapshot
from tournaments.models import LedgerRow, Tournament

from ..tournaments.helpers import item_index_of_level, run_clock_at

D = Decimal
JACKPOT = {"jackpot": True}


@pytest.fixture
def floor_actor(floor_user):
    return Actor(floor_user, "floor-tablet")


@pytest.fixture
def fund(actor):
    return services.set_jackpot_base(D("1000.00"), actor=actor)


@pytest.fixture
def jt(make_tournament):
    """A re-entry tournament playing for the jackpot, late registration to the end of level 6."""

    def make(**settings):
        return make_tournament(format=Tournament.REENTRY, max_entries_per_player=3, late_reg_closes_after_level=6, settings={**JACKPOT, **settings})

    return make


def at_level(t, level, now=None):
    t.status = Tournament.RUNNING
    t.save(update_fields=["status"])
    return run_clock_at(t, item_index_of_level(t, level), seconds_left=300, now=now)


def code(exc_info):
    return exc_info.value.code


@pytest.mark.django_db
class TestTheDeskSellsTheFee:
    def test_the_fee_is_a_line_of_its_own_never_prize_pool_nor_house_fee(self, jt, person, cashier_actor, fund):
        t = jt()
        row = cashier.register(t, person, method="CASH", actor=cashier_actor, jackpot=True).row
        assert (row.prize_amount, row.fee_amount, row.jackpot_amount, row.total) == (D("100"), D("10"), D("5.00"), D("115.00"))
        assert sel.money_in(t) == {"prize": D("100"), "fee": D("10"), "side": D("0")}
        assert sel.jackpot_balance(fund) == D("1005.00")

    def test_the_fee_amount_is_a_house_setting(self, jt, person, cashier_actor):
        row = cashier.register(jt(jackpot_fee="2.50"), person, method="CASH", actor=cashier_actor, jackpot=True).row
        assert row.jackpot_amount == D("2.50")

    def test_a_tournament_not_in_the_jackpot_refuses_the_fee(self, make_tournament, person, cashier_actor):
        with pytest.raises(DeskError) as e:
            cashier.register(make_tournament(), person, method="CASH", actor=cashier_actor, jackpot=True)
        assert code(e) == "jackpot_not_offered"

    def test_sold_during_level_1_refused_in_level_2(self, jt, make_person, cashier_actor):
        t = at_level(jt(), 1)
        assert cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True).row.jackpot_amount == D("5.00")
        at_level(t, 2)
        late = make_person()
        with pytest.raises(DeskError) as e:
            cashier.register(t, late, method="CASH", actor=cashier_actor, jackpot=True)
        assert code(e) == "jackpot_sale_closed"
        # the entry itself is still sold (late registration is open), without the jackpot
        assert cashier.register(t, late, method="CASH", actor=cashier_actor).row.jackpot_amount == 0

    def test_the_last_level_of_the_sale_is_a_setting(self, jt, person, cashier_actor):
        t = at_level(jt(jackpot_sale_until_level=2), 2)
        assert cashier.register(t, person, method="CASH", actor=cashier_actor, jackpot=True).row.jackpot_amount == D("5.00")

    def test_a_reversal_and_a_refund_take_the_fee_out_of_the_fund(self, jt, make_person, cashier_actor, actor, fund):
        t = jt()
        a = cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True)
        b = cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True)
        assert sel.jackpot_balance(fund) == D("1010.00")
        rev = cashier.reverse(a.row, reason="wrong player", actor=actor)
        assert rev.jackpot_amount == D("-5.00")
        refund = cashier.refund(b.entry, reason="cancelled", actor=actor)
        assert refund.jackpot_amount == D("-5.00") and refund.total == D("-115.00")
        assert sel.jackpot_balance(fund) == D("1000.00")

    def test_the_receipt_prints_the_jackpot_line(self, jt, person, cashier_actor, client, cashier_user):
        row = cashier.register(jt(), person, method="CASH", actor=cashier_actor, jackpot=True).row
        client.force_login(cashier_user)
        page = client.get(f"/desk/receipt/{row.receipt_number}/").content.decode()
        assert 'id="receipt-jackpot">€5.00' in page and "Jackpot fee" in page
        assert 'id="receipt-total">€115.00' in page


@pytest.mark.django_db
class TestReEntries:
    def _busted_reentry(self, t, person, cashier_actor, **kw):
        first = cashier.register(t, person, method="CASH", actor=cashier_actor, jackpot=True).entry
        first.status = first.BUSTED
        first.save(update_fields=["status"])
        return cashier.reenter(t, person, method="CASH", actor=cashier_actor, **kw)

    def test_by_default_a_reentry_plays_for_the_jackpot_only_if_it_pays_again(self, jt, person, make_person, cashier_actor):
        t = jt()
        unpaid = self._busted_reentry(t, person, cashier_actor).entry
        assert not sel.jackpot_paid_by(unpaid)
        other = make_person()
        paid = self._busted_reentry(t, other, cashier_actor, jackpot=True)
        assert paid.row.jackpot_amount == D("5.00") and sel.jackpot_paid_by(paid.entry)

    def test_covered_the_first_fee_covers_the_reentry_which_does_not_buy_it_again(self, jt, person, make_person, cashier_actor):
        t = jt(jackpot_reentry="COVERED")
        assert sel.jackpot_paid_by(self._busted_reentry(t, person, cashier_actor).entry)
        with pytest.raises(DeskError) as e:
            self._busted_reentry(t, make_person(), cashier_actor, jackpot=True)
        assert code(e) == "jackpot_not_for_reentry"

    def test_none_a_reentry_cannot_join(self, jt, person, cashier_actor):
        t = jt(jackpot_reentry="NONE")
        unpaid = self._busted_reentry(t, person, cashier_actor).entry
        assert not sel.jackpot_paid_by(unpaid)


@pytest.mark.django_db
class TestScenario37:
    """RULES.md scenario 37, line by line."""

    def test_royal_flush_with_both_hole_cards_in_level_1_wins_100_percent_then_base_next_day(self, jt, make_person, cashier_actor, floor_actor, fund):
        t = jt()
        winner = cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True).entry
        at_level(t, 1)
        win = services.claim_jackpot(t, [winner], both_hole_cards=True, actor=floor_actor)
        assert (win.level, win.percent, win.fund_before, win.amount) == (1, D("100"), D("1005.00"), D("1005.00"))
        assert win.verified_by.get_username() == "flo"
        assert [(c.entry, c.amount) for c in win.claims.all()] == [(winner, D("1005.00"))]
        now = timezone.now()
        assert sel.jackpot_balance(fund, now) == 0  # nothing to win today
        tomorrow = services.next_day(now) + timedelta(minutes=1)
        assert sel.jackpot_balance(fund, tomorrow) == D("1000.00")  # back to the base

    def test_level_4_with_late_registration_open_wins_30_percent_then_the_rest_next_day(self, jt, make_person, cashier_actor, floor_actor, fund):
        t = jt()
        entries = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True).entry for _ in range(4)]
        at_level(t, 4)
        win = services.claim_jackpot(t, [entries[2]], both_hole_cards=True, actor=floor_actor)
        assert (win.level, win.percent, win.amount) == (4, D("30"), D("306.00"))  # 30 % of 1,020.00
        tomorrow = services.next_day(timezone.now()) + timedelta(minutes=1)
        assert sel.jackpot_balance(fund, tomorrow) == D("714.00")  # from the remaining fund, not the base

    def test_one_hole_card_wins_nothing(self, jt, make_person, cashier_actor, floor_actor, fund):
        t = jt()
        e = cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True).entry
        at_level(t, 1)
        with pytest.raises(PayoutError) as err:
            services.claim_jackpot(t, [e], both_hole_cards=False, actor=floor_actor)
        assert code(err) == "jackpot_needs_both_hole_cards"
        assert not JackpotClaim.objects.exists() and sel.jackpot_balance(fund) == D("1005.00")

    def test_a_player_who_did_not_pay_wins_nothing(self, jt, make_person, cashier_actor, floor_actor, fund):
        t = jt()
        e = cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry
        at_level(t, 1)
        with pytest.raises(PayoutError) as err:
            services.claim_jackpot(t, [e], both_hole_cards=True, actor=floor_actor)
        assert code(err) == "jackpot_not_bought"

    def test_the_fee_offered_in_level_2_is_refused(self, jt, person, cashier_actor, fund):
        t = at_level(jt(), 2)
        with pytest.raises(DeskError) as e:
            cashier.register(t, person, method="CASH", actor=cashier_actor, jackpot=True)
        assert code(e) == "jackpot_sale_closed"

    def test_after_a_win_nothing_more_today_in_the_same_or_a_concurrent_tournament_and_it_restarts_tomorrow(
        self, jt, make_person, cashier_actor, floor_actor, fund
    ):
        a, b = jt(), jt()
        in_a = [cashier.register(a, make_person(), method="CASH", actor=cashier_actor, jackpot=True).entry for _ in range(2)]
        in_b = cashier.register(b, make_person(), method="CASH", actor=cashier_actor, jackpot=True).entry
        at_level(a, 1)
        at_level(b, 1)
        services.claim_jackpot(a, [in_a[0]], both_hole_cards=True, actor=floor_actor)
        for t, e in ((a, in_a[1]), (b, in_b)):
            with pytest.raises(PayoutError) as err:
                services.claim_jackpot(t, [e], both_hole_cards=True, actor=floor_actor)
            assert code(err) == "jackpot_locked"
        # the fee is not sold either on the day of the win (house setting), in any tournament
        with pytest.raises(DeskError) as err:
            cashier.register(b, make_person(), method="CASH", actor=cashier_actor, jackpot=True)
        assert code(err) == "jackpot_locked"
        assert b.events.filter(action="payouts.jackpot.locked").exists()  # the other room hears it
        # the room of the win logs the win itself, never a lock "won in" itself
        assert not a.events.filter(action="payouts.jackpot.locked").exists()
        # the next day a new tournament plays for it again, from the base
        tomorrow = services.next_day(timezone.now()) + timedelta(hours=19)
        c = jt()
        e = cashier.register(c, make_person(), method="CASH", actor=cashier_actor, jackpot=True, now=tomorrow).entry
        at_level(c, 1, now=tomorrow)
        win = services.claim_jackpot(c, [e], both_hole_cards=True, actor=floor_actor, now=tomorrow)
        assert win.fund_before == D("1005.00") and win.amount == D("1005.00")  # the base + today's fee


@pytest.mark.django_db
class TestWindowsAndSplits:
    def test_the_last_level_of_late_registration_still_pays_the_late_percentage(self, make_tournament, make_person, cashier_actor, floor_actor, fund):
        t = make_tournament(late_reg_closes_after_level=3, settings=JACKPOT)
        e = cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True).entry
        at_level(t, 3)
        assert services.claim_jackpot(t, [e], both_hole_cards=True, actor=floor_actor, note="t3 s4").percent == D("30")

    def test_no_jackpot_once_late_registration_has_closed(self, make_tournament, make_person, cashier_actor, floor_actor, fund):
        t = make_tournament(late_reg_closes_after_level=3, settings=JACKPOT)
        e = cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True).entry
        at_level(t, 4)
        with pytest.raises(PayoutError) as err:
            services.claim_jackpot(t, [e], both_hole_cards=True, actor=floor_actor)
        assert code(err) == "jackpot_window_over"

    def test_the_percentages_and_the_full_window_are_settings(self, jt, make_person, cashier_actor, floor_actor, fund):
        t = jt(jackpot_full_until_level=2, jackpot_full_percent="80", jackpot_sale_until_level=2)
        e = cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True).entry
        at_level(t, 2)
        win = services.claim_jackpot(t, [e], both_hole_cards=True, actor=floor_actor)
        assert (win.percent, win.amount) == (D("80"), D("804.00"))
        # a full-window win restarts at the base: 201.00 left, 799.00 added back tomorrow
        tomorrow = services.next_day(timezone.now()) + timedelta(minutes=1)
        assert win.reseed == D("799.00") and sel.jackpot_balance(fund, tomorrow) == D("1000.00")

    def test_remainder_setting_never_adds_the_base_back(self, jt, make_person, cashier_actor, floor_actor, fund):
        t = jt(jackpot_restart="REMAINDER")
        e = cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True).entry
        at_level(t, 1)
        services.claim_jackpot(t, [e], both_hole_cards=True, actor=floor_actor)
        assert sel.jackpot_balance(fund, services.next_day(timezone.now()) + timedelta(minutes=1)) == 0

    def test_two_royal_flushes_in_the_same_hand_share_it_equally(self, jt, make_person, cashier_actor, floor_actor, fund):
        t = jt()
        a, b, c = (cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True).entry for _ in range(3))
        services.set_jackpot_base(D("1000.01"), actor=floor_actor)  # an odd cent: 1,015.01
        at_level(t, 1)
        win = services.claim_jackpot(t, [b, a], both_hole_cards=True, actor=floor_actor)
        assert [(cl.entry, cl.amount) for cl in win.claims.order_by("id")] == [(b, D("507.51")), (a, D("507.50"))]
        assert win.amount == D("1015.01")

    def test_first_claim_setting_gives_it_to_the_first_named(self, jt, make_person, cashier_actor, floor_actor, fund):
        t = jt(jackpot_split="FIRST_CLAIM")
        a, b = (cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True).entry for _ in range(2))
        at_level(t, 1)
        win = services.claim_jackpot(t, [a, b], both_hole_cards=True, actor=floor_actor)
        assert [(cl.entry, cl.amount) for cl in win.claims.all()] == [(a, D("1010.00"))]

    def test_the_clock_must_be_running(self, jt, make_person, cashier_actor, floor_actor, fund):
        t = jt()
        e = cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True).entry
        with pytest.raises(PayoutError) as err:
            services.claim_jackpot(t, [e], both_hole_cards=True, actor=floor_actor)
        assert code(err) == "clock_not_running"

    def test_a_started_event_whose_clock_waits_to_start_pays_no_jackpot(self, jt, make_person, cashier_actor, floor_actor, fund):
        from tournaments.models import Clock

        t = jt()
        e = cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True).entry
        Tournament.objects.filter(pk=t.pk).update(status=Tournament.RUNNING)
        t.refresh_from_db()
        Clock.objects.create(tournament=t)  # the clock is there, not started
        with pytest.raises(PayoutError) as err:
            services.claim_jackpot(t, [e], both_hole_cards=True, actor=floor_actor)
        assert code(err) == "clock_not_running"


@pytest.mark.django_db
class TestPaidAtTheDesk:
    def _won(self, jt, make_person, cashier_actor, floor_actor):
        t = jt()
        e = cashier.register(t, make_person("Anna", "Verdi"), method="CASH", actor=cashier_actor, jackpot=True).entry
        at_level(t, 4)
        return t, services.claim_jackpot(t, [e], both_hole_cards=True, actor=floor_actor).claims.get()

    def test_a_payout_row_out_of_the_fund_and_a_slip(self, jt, make_person, cashier_actor, floor_actor, fund, client, cashier_user):
        t, claim = self._won(jt, make_person, cashier_actor, floor_actor)
        assert claim.amount == D("301.50")
        balance = sel.jackpot_balance(fund)
        payment = services.pay_jackpot(claim, method="CASH", actor=cashier_actor)
        row = payment.row
        assert (row.kind, row.jackpot_amount, row.prize_amount, row.payee) == (LedgerRow.PAYOUT, D("-301.50"), 0, "Anna Verdi")
        assert sel.jackpot_balance(fund) == balance  # the win already came out of the fund
        assert sel.money_out(t)["prize"] == 0  # never the prize pool
        claim.refresh_from_db()
        assert claim.paid
        client.force_login(cashier_user)
        slip = client.get(f"/payouts/slip/{row.receipt_number}/").content.decode()
        assert "Anna Verdi" in slip and "301.50" in slip
        assert "Jackpot (royal flush, level 4, 30% of the fund)" in slip
        with pytest.raises(PayoutError) as err:
            services.pay_jackpot(claim, method="CASH", actor=cashier_actor)
        assert code(err) == "already_paid"

    def test_pay12_the_payments_report_lists_the_jackpot_paid_with_no_place(self, jt, make_person, cashier_actor, floor_actor, fund, cashier_user):
        t, claim = self._won(jt, make_person, cashier_actor, floor_actor)
        payment = services.pay_jackpot(claim, method="CHEQUE", reference="CHQ-9", actor=cashier_actor)
        [row] = reports.payments(t)["rows"]
        assert [row[0]] + row[2:] == [
            str(payment.row.receipt_number),
            "Anna Verdi",
            "",
            "Cash",
            "301.50",
            "Cheque",
            "CHQ-9",
            "Anna Verdi",
            cashier_user.username,
            "",
        ]
        slip = {str(k): str(v) for k, v in reports.slip_lines(payment)}
        assert (slip["Place"], slip["Prize"]) == ("", "Jackpot (royal flush, level 4, 30% of the fund)")  # no place: the fund's prize

    def test_above_the_cash_limit_it_is_a_cheque_in_the_winners_name(self, jt, make_person, cashier_actor, floor_actor, fund):
        t, claim = self._won(jt, make_person, cashier_actor, floor_actor)
        Tournament.objects.filter(pk=t.pk).update(cash_limit=D("300"))
        with pytest.raises(PayoutError) as err:
            services.pay_jackpot(claim, method="CASH", actor=cashier_actor)
        assert code(err) == "cash_limit_exceeded"
        with pytest.raises(PayoutError) as err:
            services.pay_jackpot(claim, method="CHEQUE", reference="A-1", payee="Someone Else", actor=cashier_actor)
        assert code(err) == "payee_mismatch"
        assert services.pay_jackpot(claim, method="CHEQUE", reference="A-1", actor=cashier_actor).row.reference == "A-1"


@pytest.mark.django_db
def test_the_fund_is_on_the_lobby_snapshot(jt, make_tournament, person, cashier_actor, fund):
    t = jt()
    cashier.register(t, person, method="CASH", actor=cashier_actor, jackpot=True)
    snap = build_snapshot(t)
    assert snap["jackpot"]["fund"] == "1005.00" and snap["jackpot"]["locked"] is False
    assert "jackpot" not in build_snapshot(make_tournament())  # a tournament not in the jackpot shows none


@pytest.mark.django_db
class TestThroughTheAPI:
    """Scenario 37 through the API: the desk sells, the floor claims, the desk pays."""

    def test_scenario_37_through_the_api(self, api, jt, make_person, cashier_user, floor_user, director):
        desk, floor = api(cashier_user), api(floor_user)
        assert api(director).put("/api/v1/jackpot/", {"base": "1000.00"}, format="json").status_code == 200
        t = jt()
        buyer, other = make_person(), make_person()
        r = desk.post("/api/v1/cashier/register/", {"tournament": t.pk, "person": buyer.pk, "method": "CASH", "jackpot": True}, format="json")
        assert r.status_code == 201, r.data
        assert (r.data["receipt"]["jackpot_amount"], r.data["receipt"]["total"]) == ("5.00", "115.00")
        paid = r.data["entry"]["id"]
        unpaid = desk.post("/api/v1/cashier/register/", {"tournament": t.pk, "person": other.pk, "method": "CASH"}, format="json").data["entry"]["id"]
        at_level(t, 2)
        late = desk.post("/api/v1/cashier/register/", {"tournament": t.pk, "person": make_person().pk, "method": "CASH", "jackpot": True}, format="json")
        assert late.status_code == 409 and late.data["code"] == "jackpot_sale_closed", late.data
        url = f"/api/v1/tournaments/{t.pk}/jackpot/claims/"
        one_card = floor.post(url, {"entries": [paid], "both_hole_cards": False}, format="json")
        assert one_card.status_code == 409 and one_card.data["code"] == "jackpot_needs_both_hole_cards"
        no_fee = floor.post(url, {"entries": [unpaid], "both_hole_cards": True}, format="json")
        assert no_fee.status_code == 409 and no_fee.data["code"] == "jackpot_not_bought"
        assert desk.post(url, {"entries": [paid], "both_hole_cards": True}, format="json").status_code == 403  # the floor verifies
        won = floor.post(url, {"entries": [paid], "both_hole_cards": True, "note": "table 3"}, format="json")
        assert won.status_code == 201, won.data
        assert (won.data["level"], won.data["percent"], won.data["amount"], won.data["verified_by"]) == (2, "30.00", "301.50", "flo")
        again = floor.post(url, {"entries": [paid], "both_hole_cards": True}, format="json")
        assert again.status_code == 409 and again.data["code"] == "jackpot_locked"
        claim = won.data["claims"][0]["id"]
        assert floor.post(f"/api/v1/jackpot/claims/{claim}/pay/", {"method": "CASH"}, format="json").status_code == 403
        pay = desk.post(f"/api/v1/jackpot/claims/{claim}/pay/", {"method": "CASH"}, format="json")
        assert pay.status_code == 201 and pay.data["amount"] == "301.50" and pay.data["slip_url"]
        fund = desk.get("/api/v1/jackpot/").data
        assert fund["fund"]["fund"] == "703.50" and fund["fund"]["locked"] is True
        assert [(c["entry"], c["amount"], c["paid"], c["receipt"]) for c in fund["claims"]] == [(paid, "301.50", True, pay.data["receipt_number"])]

    def test_bad_input_is_a_4xx_never_a_500(self, api, jt, floor_user, cashier_user, fund):
        t = jt()
        url = f"/api/v1/tournaments/{t.pk}/jackpot/claims/"
        for body in (
            {},
            {"entries": [], "both_hole_cards": True},
            {"entries": ["x"], "both_hole_cards": True},
            {"entries": [987654], "both_hole_cards": True},
            {"entries": [1, 1], "both_hole_cards": True},
        ):
            r = api(floor_user).post(url, body, format="json")
            assert 400 <= r.status_code < 500 and "code" in r.data, (body, r.status_code)
        assert api(cashier_user).post("/api/v1/jackpot/claims/987654/pay/", {"method": "CASH"}, format="json").status_code == 404
        assert api(cashier_user).post(f"/api/v1/tournaments/{t.pk}/jackpot/claims/", {}, format="json").status_code == 403


@pytest.mark.django_db
def test_the_reconciliation_shows_jackpot_fees_and_payouts_and_still_balances(jt, make_person, cashier_actor, floor_actor, fund, actor):
    from payouts import reports

    t = jt()
    entries = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True).entry for _ in range(3)]
    cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    cashier.reverse(entries[2].ledger.get(), reason="wrong player", actor=actor)
    at_level(t, 1)
    claim = services.claim_jackpot(t, [entries[0]], both_hole_cards=True, actor=floor_actor).claims.get()
    services.pay_jackpot(claim, method="TRANSFER", reference="TR-1", actor=cashier_actor)
    data = reports.reconciliation_data(t)
    lines = {str(label): value for label, value in data["lines"]}
    assert lines["Money in: jackpot fees (to the venue's jackpot fund)"] == D("10.00")
    assert lines["Money out: jackpots paid (from the venue's jackpot fund)"] == D("1010.00")
    assert lines["Money in: total"] == D("340.00")  # 3 × 110 + 2 × 5 (the reversed sale nets to nothing)
    assert lines["Money in: prize parts"] == D("300")  # the fees never enter the prize pool
    assert data["balanced"], data


@pytest.mark.django_db
def test_the_pages_offer_the_jackpot_where_the_tournament_plays_for_it(jt, make_tournament, make_person, cashier_actor, client, cashier_user, floor_user):
    t, plain = jt(), make_tournament(name="No jackpot")
    cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True)
    client.force_login(cashier_user)
    desk = client.get("/desk/").content.decode()
    assert 'data-jackpot="5.00 EUR"' in desk and 'id="jackpot-line"' in desk
    assert desk.count("data-jackpot=") == 1  # not on the tournament that does not play for it
    client.force_login(floor_user)
    assert 'id="jackpotform"' in client.get(f"/tournaments/{t.pk}/floor/").content.decode()
    assert 'id="jackpotform"' not in client.get(f"/tournaments/{plain.pk}/floor/").content.decode()


@pytest.mark.django_db
def test_a_refused_claim_says_why_in_italian(api, jt, make_person, cashier_actor, floor_user, fund):
    t = jt()
    e = cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry
    at_level(t, 1)
    r = api(floor_user).post(
        f"/api/v1/tournaments/{t.pk}/jackpot/claims/", {"entries": [e.pk], "both_hole_cards": True}, format="json", HTTP_ACCEPT_LANGUAGE="it"
    )
    assert r.status_code == 409 and r.data["code"] == "jackpot_not_bought"
    assert "non ha pagato la quota del jackpot" in r.data["detail"]


@pytest.mark.django_db
def test_a_side_pool_on_the_fund_cannot_award_the_jackpot_around_the_claim(jt, make_person, cashier_actor, actor, fund):
    t = jt()
    e = cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True).entry
    pool = services.create_side_pool(t, kind="JACKPOT", name="Jackpot", actor=actor, fund=fund)
    with pytest.raises(PayoutError) as err:
        services.award_side_pool(pool, awards=[(e, D("100"))], actor=actor)
    assert code(err) == "jackpot_by_claim" and sel.jackpot_balance(fund) == D("1005.00")


@pytest.mark.django_db
def test_huge_ids_are_a_4xx(api, jt, floor_user, cashier_user):
    t = jt()
    r = api(floor_user).post(f"/api/v1/tournaments/{t.pk}/jackpot/claims/", {"entries": [10**30], "both_hole_cards": True}, format="json")
    assert r.status_code == 400 and r.data["code"] == "invalid"
    r = api(cashier_user).post(f"/api/v1/jackpot/claims/{10**30}/pay/", {"method": "CASH"}, format="json")
    assert r.status_code == 404
    r = api(floor_user).post(f"/api/v1/tournaments/{10**30}/jackpot/claims/", {"entries": [1], "both_hole_cards": True}, format="json")
    assert r.status_code == 404


@pytest.mark.django_db
def test_a_fee_sold_in_one_tournament_refreshes_the_screens_of_the_others(
    jt, make_tournament, make_person, cashier_actor, monkeypatch, django_capture_on_commit_callbacks
):
    from payouts import receivers

    a, b, plain = jt(), jt(), make_tournament(name="No jackpot")
    told = []
    monkeypatch.setattr(receivers.realtime, "tournament_changed", lambda pk, action="": told.append(pk))
    with django_capture_on_commit_callbacks(execute=True):
        cashier.register(a, make_person(), method="CASH", actor=cashier_actor, jackpot=True)
    assert b.pk in told and plain.pk not in told
    told.clear()
    with django_capture_on_commit_callbacks(execute=True):
        cashier.register(a, make_person(), method="CASH", actor=cashier_actor)  # no fee: the fund did not change
    assert b.pk not in told


@pytest.mark.django_db
def test_before_any_base_is_set_the_fees_taken_are_the_fund(jt, make_person, cashier_actor, floor_actor):
    t = jt()
    e = cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True).entry
    # the screens show the jackpot by its usual name, the one fee as the fund, no base, no lock
    assert build_snapshot(t)["jackpot"] == {"name": "Jackpot", "fund": "5.00", "base": "0.00", "locked": False, "locked_until": None}
    at_level(t, 1)
    assert services.claim_jackpot(t, [e], both_hole_cards=True, actor=floor_actor).amount == D("5.00")


@pytest.mark.django_db
def test_a_reservation_paid_and_a_reentry_sold_with_the_jackpot_through_the_api(api, jt, make_person, cashier_user, cashier_actor):
    t = jt()
    desk = api(cashier_user)
    booked = make_person()
    entry = cashier.pre_register(t, booked, actor=cashier_actor)
    r = desk.post("/api/v1/cashier/pay/", {"entry": entry.pk, "method": "CARD", "jackpot": True}, format="json")
    assert r.status_code == 201 and r.data["receipt"]["jackpot_amount"] == "5.00", r.data
    entry.refresh_from_db()
    entry.status = entry.BUSTED
    entry.save(update_fields=["status"])
    r = desk.post("/api/v1/cashier/reenter/", {"tournament": t.pk, "person": booked.pk, "method": "CASH", "jackpot": True}, format="json")
    assert r.status_code == 201 and r.data["receipt"]["kind"] == "RE_ENTRY" and r.data["receipt"]["jackpot_amount"] == "5.00"
    assert sel.jackpot_contributions() == D("10.00")


@pytest.mark.django_db
def test_the_lobby_screen_has_a_jackpot_panel_filled_from_the_snapshot(jt, client):
    from tournaments.models import DisplayScreen

    t = jt()
    DisplayScreen.objects.create(name="TV", tournament=t, token="jackpot-tv")
    page = client.get("/display/jackpot-tv/").content.decode()
    assert 'id="jackpot-box" hidden' in page and 'id="jackpot"' in page  # display.js shows it when the snapshot has one
    assert "Won today: back tomorrow" in page


@pytest.mark.django_db
def test_a_claim_is_signed_by_a_user(jt, make_person, cashier_actor, fund):
    t = jt()
    e = cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True).entry
    at_level(t, 1)
    with pytest.raises(ValidationFailed) as err:
        services.claim_jackpot(t, [e], both_hole_cards=True, actor=Actor(None, "script"))
    assert code(err) == "verifier_required" and not JackpotClaim.objects.exists()


@pytest.mark.django_db
def test_pay12_a_side_pool_on_the_fund_shows_the_staff_the_funds_balance(api, jt, make_person, cashier_actor, actor, director, fund):
    """PAY-12: the staff's list of side pools shows, for the pool kept on the progressive
    jackpot's fund, that fund: the 1000.00 base and the one 5.00 fee sold; the pool's own money
    (nothing put in it yet) stays apart, and a pool not on the fund shows no fund."""
    t = jt()
    cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True)
    on_fund = services.create_side_pool(t, kind="JACKPOT", name="Jackpot", actor=actor, fund=fund, from_ledger=False)
    leader = services.create_side_pool(t, kind="CHIP_LEADER", name="Chip leader", actor=actor, from_ledger=False)
    listed = api(director).get(f"/api/v1/tournaments/{t.pk}/payouts/side-pools/").json()
    assert sorted(listed, key=lambda row: row["id"]) == [
        {"id": on_fund.pk, "name": "Jackpot", "kind": "JACKPOT", "amount": "0.00", "left": "0.00", "fund": "1005.00"},
        {"id": leader.pk, "name": "Chip leader", "kind": "CHIP_LEADER", "amount": "0.00", "left": "0.00"},
    ]


@pytest.mark.django_db
def test_pay12_the_jackpot_api_lists_two_wins_newest_first_with_who_was_paid(
    api, make_tournament, make_person, cashier_actor, floor_actor, actor, cashier_user
):
    """PAY-12: the desk's jackpot answer, written out by hand for a small room. Five days ago at
    22:30 Anna's royal flush in level 1 took the whole fund (the 1000.00 base and three 5.00
    fees), and the desk paid her; the next day at 00:30, in level 4 with late registration
    open, Mario and Luca shared 30 % of the fund (the base put back after the full win): 150.00
    each. Now, days later, nothing locks the fund and it holds the 700.00 left. The claims are
    the newest win first, its two shares in the order the floor named them."""
    from datetime import UTC, datetime, time

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def local(day, hour, minute=0):
        return timezone.make_aware(datetime.combine(day, time(hour, minute)), timezone.get_current_timezone())

    def utc(moment):
        return moment.astimezone(UTC).isoformat()

    services.set_jackpot_base(D("1000.00"), name="Casino Jackpot", actor=actor)
    day = timezone.localdate() - timedelta(days=5)
    t = make_tournament(name="Friday Deepstack", format=Tournament.REENTRY, late_reg_closes_after_level=6, settings=JACKPOT)
    anna, mario, luca = (
        cashier.register(t, make_person(first, last), method="CASH", actor=cashier_actor, jackpot=True, now=local(day, 22)).entry
        for first, last in (("Anna", "Verdi"), ("Mario", "Rossi"), ("Luca", "Bianchi"))
    )
    at_level(t, 1, now=local(day, 22, 30))
    first = services.claim_jackpot(t, [anna], both_hole_cards=True, actor=floor_actor, now=local(day, 22, 30))
    anna_paid = services.pay_jackpot(first.claims.get(), method="CASH", actor=cashier_actor).row.receipt_number
    desk = api(cashier_user)
    desk.get("/api/v1/jackpot/")  # the desk user's roles are read once, on the first request
    with CaptureQueriesContext(connection) as one_claim:
        desk.get("/api/v1/jackpot/")
    next_day = day + timedelta(days=1)
    at_level(t, 4, now=local(next_day, 0, 30))
    second = services.claim_jackpot(t, [mario, luca], both_hole_cards=True, actor=floor_actor, now=local(next_day, 0, 30))
    mario_claim, luca_claim = second.claims.order_by("id")
    mario_paid = services.pay_jackpot(mario_claim, method="CASH", actor=cashier_actor).row.receipt_number

    with CaptureQueriesContext(connection) as three_claims:
        answer = desk.get("/api/v1/jackpot/").json()
    shared = {"tournament": t.pk, "tournament_name": "Friday Deepstack", "verified_by": "flo"}
    assert answer == {
        "fund": {"name": "Casino Jackpot", "fund": "700.00", "base": "1000.00", "locked": False, "locked_until": None},
        "claims": [
            {
                **shared,
                "id": mario_claim.pk,
                "entry": mario.pk,
                "entry_number": mario.number,
                "name": "Mario Rossi",
                "level": 4,
                "percent": "30.00",
                "amount": "150.00",
                "shared_by": 2,
                "at": utc(local(next_day, 0, 30)),
                "paid": True,
                "receipt": mario_paid,
            },
            {
                **shared,
                "id": luca_claim.pk,
                "entry": luca.pk,
                "entry_number": luca.number,
                "name": "Luca Bianchi",
                "level": 4,
                "percent": "30.00",
                "amount": "150.00",
                "shared_by": 2,
                "at": utc(local(next_day, 0, 30)),
                "paid": False,
                "receipt": None,
            },
            {
                **shared,
                "id": first.claims.get().pk,
                "entry": anna.pk,
                "entry_number": anna.number,
                "name": "Anna Verdi",
                "level": 1,
                "percent": "100.00",
                "amount": "1015.00",
                "shared_by": 1,
                "at": utc(local(day, 22, 30)),
                "paid": True,
                "receipt": anna_paid,
            },
        ],
    }
    # Mario's and Luca's claims cost the answer one query each (how many share their win) and
    # Mario's, collected, two more (whether its payment was reversed, for "paid" and "receipt"):
    # never one per winner's name, tournament, verifier or receipt, so a busy season loads quickly
    assert len(three_claims.captured_queries) - len(one_claim.captured_queries) == 4


@pytest.mark.django_db
def test_reg11_a_one_euro_fee_plays_for_the_jackpot(jt, make_person, cashier_actor, floor_actor, fund):
    """REG-11: with the fee set at 1.00 its buyer plays for the jackpot like any other buyer: his
    royal flush in level 1 takes the 1000.00 base and his 1.00."""
    t = jt(jackpot_fee="1.00")
    e = cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True).entry
    at_level(t, 1)
    assert services.claim_jackpot(t, [e], both_hole_cards=True, actor=floor_actor).amount == D("1001.00")


@pytest.mark.django_db
def test_reg11_covered_only_the_players_own_fee_covers_him_however_small(jt, make_person, cashier_actor, floor_actor, fund):
    """REG-11 with ``jackpot_reentry = COVERED``: a player who sat down without the fee does not
    play for the jackpot, though another player's earlier entry paid it; the buyer of a 1.00 fee
    does, and takes the base and his 1.00."""
    t = jt(jackpot_reentry="COVERED", jackpot_fee="1.00")
    buyer = cashier.register(t, make_person("Mario", "Rossi"), method="CASH", actor=cashier_actor, jackpot=True).entry
    without = cashier.register(t, make_person("Anna", "Verdi"), method="CASH", actor=cashier_actor).entry
    at_level(t, 1)
    with pytest.raises(PayoutError) as err:
        services.claim_jackpot(t, [without], both_hole_cards=True, actor=floor_actor)
    assert code(err) == "jackpot_not_bought" and "Anna Verdi did not pay the jackpot fee" in str(err.value)
    assert services.claim_jackpot(t, [buyer], both_hole_cards=True, actor=floor_actor).amount == D("1001.00")


@pytest.mark.django_db
def test_pay12_a_sponsors_money_in_a_side_pool_on_the_fund_is_in_the_lobbys_jackpot(jt, make_person, cashier_actor, actor, fund):
    """PAY-12: a sponsor's 200.00 put in the side pool kept on the jackpot's fund adds to the fund
    the lobby screens show: the 1000.00 base, one 5.00 fee and the 200.00."""
    t = jt()
    cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True)
    pool = services.create_side_pool(t, kind="JACKPOT", name="Jackpot", actor=actor, fund=fund, from_ledger=False)
    services.contribute_side_pool(pool, D("200.00"), actor=actor, note="sponsor")
    assert build_snapshot(t)["jackpot"]["fund"] == "1205.00"


@pytest.mark.django_db
def test_pay12_a_slip_says_a_share_of_the_fund_that_is_not_a_whole_percent(jt, make_person, cashier_actor, floor_actor, fund, client, cashier_user):
    # The house pays 12.5 % of the fund after level 1: the slip says so, not a rounded 12 %.
    t = jt(jackpot_late_percent="12.5")
    e = cashier.register(t, make_person("Anna", "Verdi"), method="CASH", actor=cashier_actor, jackpot=True).entry
    at_level(t, 4)
    claim = services.claim_jackpot(t, [e], both_hole_cards=True, actor=floor_actor).claims.get()
    payment = services.pay_jackpot(claim, method="CASH", actor=cashier_actor)
    slip = dict((str(k), str(v)) for k, v in reports.slip_lines(payment))
    assert slip["Prize"] == "Jackpot (royal flush, level 4, 12.50% of the fund)"
    client.force_login(cashier_user)
    assert "Jackpot (royal flush, level 4, 12.50% of the fund)" in client.get(f"/payouts/slip/{payment.row.receipt_number}/").content.decode()
