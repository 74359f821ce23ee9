"""Prize pool, payout table, shared places, sign-off and paying prizes, through the services."""

from decimal import Decimal

import pytest
from django.utils import translation

from payouts import reports, services
from payouts import selectors as sel
from payouts.models import PayoutTable, PrizePayment, RankingSignoff
from payouts.services import PayoutError
from tdmanager.errors import DomainError
from tests.conftest import make_user
from tests.payouts.reconciliation_rows import BALANCED, expected, read
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Entry, LedgerRow, Tournament

pytestmark = pytest.mark.django_db

D = Decimal


def sell(t, make_person, n, actor, method="CARD"):
    return [cashier.register(t, make_person(), method=method, actor=actor).entry for _ in range(n)]


def finish_at(entry, place):
    entry.status, entry.place = Entry.BUSTED, place
    entry.save()


def sign_twice(t, director):
    second = make_user("controller", "controller")
    services.sign_off_ranking(t, actor=Actor(director))
    services.sign_off_ranking(t, actor=Actor(second))


def first_two_signed(t, entries, director, actor):
    """``entries[0]`` and ``entries[1]`` finish first and second under a locked €1,500 / €500
    table, and the ranking is signed by the director and a controller: the prizes can be paid."""
    services.edit_payout_table(t, [{"place": 1, "amount": "1500"}, {"place": 2, "amount": "500"}], actor=actor)
    services.lock_payout_table(t, actor=actor)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.RUNNING)
    finish_at(entries[0], 1)
    finish_at(entries[1], 2)
    sign_twice(t, director)


class TestPrizePool:
    def test_scenario_21_sanremo_pool_and_places_paid(self, make_tournament, make_person, cashier_actor):
        # 200 entries × €1,000 (+€100 fee), 3 % casino deduction.
        t = make_tournament(buy_in=D("1000"), fee=D("100"), deductions=[{"name": "casino", "percent": "3"}])
        sell(t, make_person, 200, cashier_actor)
        b = sel.pool_breakdown(t)
        assert b.collected == D("200000.00") and b.deductions == {"casino": D("6000.00")}
        assert b.total == D("194000.00")
        assert sel.money_in(t)["fee"] == D("20000.00")  # fees go to the casino, not the pool
        assert sel.display_summary(t)["places_paid"] == 30
        assert sum(sel.place_values(sel.table_prizes(t))) == D("194000.00")
        t.settings = {"category": "SIDE"}
        t.save()
        assert sel.display_summary(t)["places_paid"] == 20

    def test_reversals_and_refunds_come_off_the_pool(self, tournament, make_person, cashier_actor, actor):
        entries = sell(tournament, make_person, 3, cashier_actor)
        cashier.reverse(entries[0].ledger.get(), reason="wrong player", actor=cashier_actor)
        cashier.refund(entries[1], reason="banned", actor=actor)
        assert sel.prize_pool(tournament) == D("100.00")

    def test_guarantee_overlay_and_staff_fee_read_gross(self, make_tournament, make_person, cashier_actor):
        t = make_tournament(guarantee=D("1000"), deductions=[{"name": "staff", "percent": "4"}])
        sell(t, make_person, 5, cashier_actor)  # 500 collected
        b = sel.pool_breakdown(t)
        assert (b.overlay, b.deductions["staff"], b.total) == (D("500.00"), D("40.00"), D("960.00"))
        summary = sel.display_summary(t)
        assert summary["prize_pool"] == "960.00" and summary["prize_pool_label"] == "net"
        t.settings = {"display_pool": "GROSS"}
        t.save()
        assert sel.display_summary(t)["prize_pool"] == "1000.00" and sel.display_summary(t)["prize_pool_label"] == "gross"

    def test_side_pools_stay_apart_from_the_prize_pool(self, tournament, make_person, cashier_actor, actor):
        sell(tournament, make_person, 4, cashier_actor)
        ll = services.create_side_pool(tournament, kind="LAST_LONGER", name="Last Longer", actor=actor)
        services.contribute_side_pool(ll, "200", actor=actor, note="sponsor")
        chip = services.create_side_pool(tournament, kind="CHIP_LEADER", name="Chip leaders", actor=actor, from_prize_pool="100")
        assert sel.prize_pool(tournament) == D("300.00")  # 400 collected − 100 funded chip-leader prizes
        pools = {p["name"]: p for p in sel.display_summary(tournament)["side_pools"]}
        assert pools["Last Longer"]["amount"] == "200.00" and pools["Chip leaders"]["amount"] == "100.00"
        assert chip.key == "chip-leader"


class TestPayoutTable:
    def test_the_proposal_follows_the_entries_until_locked(self, tournament, make_person, cashier_actor, actor):
        sell(tournament, make_person, 10, cashier_actor)
        assert sel.display_summary(tournament)["places_paid"] == 2  # 15 % of 10 = 1.5 → 2
        sell(tournament, make_person, 10, cashier_actor)
        summary = sel.display_summary(tournament)
        assert summary["places_paid"] == 3 and summary["prize_pool"] == "2000.00"
        assert sum(D(p["amount"]) * (1 if "–" not in p["places"] else 0) for p in summary["payouts"]) == D("2000.00")
        services.lock_payout_table(tournament, actor=actor)
        sell(tournament, make_person, 10, cashier_actor)  # a late entry after publication
        assert sel.places_paid(tournament) == 3  # the published table does not move by itself
        assert sel.prize_pool(tournament) == D("3000.00")

    def test_ladder_bands_read_like_the_lobby(self, make_tournament, make_person, cashier_actor):
        t = make_tournament(buy_in=D("100"), fee=D("0"))
        sell(t, make_person, 100, cashier_actor)
        payouts = sel.display_summary(t)["payouts"]
        assert [p["places"] for p in payouts][:10] == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10–12"]
        assert all(D(p["amount"]) % 5 == 0 for p in payouts[1:])  # multiples of the €5 unit; the rest on 1st

    def test_an_edit_must_not_increase_and_must_add_up(self, tournament, make_person, cashier_actor, actor):
        sell(tournament, make_person, 10, cashier_actor)  # pool 1000
        with pytest.raises(DomainError) as e:
            services.edit_payout_table(tournament, [{"place": 1, "amount": "400"}, {"place": 2, "amount": "600"}], actor=actor)
        assert e.value.code == "not_non_increasing"
        with pytest.raises(DomainError) as e:
            services.edit_payout_table(tournament, [{"place": 1, "amount": "700"}, {"place": 2, "amount": "200"}], actor=actor)
        assert e.value.code == "wrong_total" and "100.00" in str(e.value.message)
        with translation.override("it"), pytest.raises(DomainError) as e:  # issue #39: "sommano 900.00 … è 1000.00"
            services.edit_payout_table(tournament, [{"place": 1, "amount": "700"}, {"place": 2, "amount": "200"}], actor=actor)
        assert str(e.value.message) == "I premi sommano a 900,00 ma il montepremi è 1.000,00 (100,00 in meno)."
        services.edit_payout_table(
            tournament,
            [{"place": 1, "amount": "700"}, {"place": 2, "amount": "300"}, {"place": 3, "kind": "ITEM", "amount": "0", "description": "Chip set"}],
            actor=actor,
        )
        assert sel.table_state(tournament) == PayoutTable.EDITED
        assert [p["places"] for p in sel.display_summary(tournament)["payouts"]] == ["1", "2", "3"]
        assert sel.display_summary(tournament)["payouts"][2]["prize"] == "Item: Chip set"

    def test_after_publication_a_change_needs_a_reason_and_is_logged(self, tournament, make_person, cashier_actor, actor):
        """PAY-05: a published table changes only after the director's unlock, with a reason (logged)."""
        sell(tournament, make_person, 10, cashier_actor)
        services.lock_payout_table(tournament, actor=actor)
        with pytest.raises(DomainError) as e:
            services.edit_payout_table(tournament, [{"place": 1, "amount": "600"}, {"place": 2, "amount": "400"}], actor=actor, reason="players asked")
        assert e.value.code == "table_locked"
        with pytest.raises(DomainError) as e:
            services.unlock_payout_table(tournament, actor=actor, reason=" ")
        assert e.value.code == "reason_required"
        services.unlock_payout_table(tournament, actor=actor, reason="players asked")
        assert tournament.events.filter(action="payouts.table.unlocked").last().payload["reason"] == "players asked"
        services.edit_payout_table(tournament, [{"place": 1, "amount": "600"}, {"place": 2, "amount": "400"}], actor=actor)
        services.lock_payout_table(tournament, actor=actor)
        assert sel.table_state(tournament) == PayoutTable.LOCKED
        assert [p["amount"] for p in sel.table_prizes(tournament)] == [D("600.00"), D("400.00")]

    def test_a_venue_template_puts_the_rounding_on_first(self, tournament, make_person, cashier_actor, actor):
        sell(tournament, make_person, 13, cashier_actor)  # 1300
        tpl = services.save_payout_template("Three paid", ["50", "30", "20"], actor=actor)
        services.apply_template(tournament, tpl, actor=actor)
        assert [p["amount"] for p in sel.table_prizes(tournament)] == [D("650.00"), D("390.00"), D("260.00")]  # nothing to round
        # 34 % of 1300 is 442 and 33 % is 429: floored to the house's €5, 440 / 425 / 425 leave 10,
        # which goes to 1st place.
        uneven = services.save_payout_template("Uneven", ["34", "33", "33"], actor=actor)
        services.apply_template(tournament, uneven, actor=actor)
        assert [p["amount"] for p in sel.table_prizes(tournament)] == [D("450.00"), D("425.00"), D("425.00")]
        with pytest.raises(DomainError) as e:
            services.save_payout_template("Bad", ["30", "40", "30"], actor=actor)
        assert e.value.code == "not_non_increasing"


@pytest.fixture
def paid_out(make_tournament, make_person, cashier_actor, actor, director):
    """20 entries × €500 → pool 10,000; table 5000 / 3000 / 1500 / 500 locked."""
    t = make_tournament(buy_in=D("500"), fee=D("50"))
    people = [make_person("Anna", "Bianchi")] + [make_person() for _ in range(19)]
    entries = [cashier.register(t, p, method="CARD", actor=cashier_actor).entry for p in people]
    services.edit_payout_table(t, [{"place": i, "amount": a} for i, a in enumerate(["5000", "3000", "1500", "500"], start=1)], actor=actor)
    services.lock_payout_table(t, actor=actor)
    t.status = Tournament.RUNNING
    t.save()
    return t, entries


class TestPayingPrizes:
    def test_scenario_23_five_thousand_is_never_cash_and_the_cheque_names_the_winner(self, paid_out, cashier_actor, director):
        t, entries = paid_out
        winner, third = entries[0], entries[1]
        finish_at(winner, 1)
        finish_at(third, 3)
        sign_twice(t, director)
        with pytest.raises(DomainError) as e:
            services.pay_prize(winner, method="CASH", actor=cashier_actor)
        assert e.value.code == "cash_limit_exceeded"
        with pytest.raises(DomainError) as e:
            services.pay_prize(winner, method="CHEQUE", reference="CHQ-1", payee="Mario Rossi", actor=cashier_actor)
        assert e.value.code == "payee_mismatch"
        with pytest.raises(DomainError) as e:
            services.pay_prize(winner, method="CHEQUE", actor=cashier_actor)
        assert e.value.code == "reference_required"
        pay = services.pay_prize(winner, method="CHEQUE", reference="CHQ-0042", payee="anna  bianchi", actor=cashier_actor)
        assert (pay.amount, pay.row.kind, pay.row.prize_amount, pay.row.method) == (D("5000.00"), "PAYOUT", D("-5000.00"), "CHEQUE")
        assert pay.row.reference == "CHQ-0042"
        # €1,500 in cash is allowed.
        cash = services.pay_prize(third, method="CASH", actor=cashier_actor)
        assert cash.row.prize_amount == D("-1500.00") and cash.row.payee == third.person.full_name
        assert t.events.filter(action="payouts.prize.paid").count() == 2

    def test_a_prize_is_paid_once_and_never_split(self, paid_out, cashier_actor, director):
        t, entries = paid_out
        finish_at(entries[3], 4)
        sign_twice(t, director)
        services.pay_prize(entries[3], method="CASH", actor=cashier_actor)
        with pytest.raises(DomainError) as e:
            services.pay_prize(entries[3], method="CASH", actor=cashier_actor)
        assert e.value.code == "already_paid"
        assert LedgerRow.objects.filter(tournament=t, kind="PAYOUT").count() == 1

    def test_prizes_wait_for_two_sign_offs(self, paid_out, cashier_actor, director, floor_user, controller_user):
        t, entries = paid_out
        finish_at(entries[3], 4)
        with pytest.raises(DomainError) as e:
            services.pay_prize(entries[3], method="CASH", actor=cashier_actor)
        assert e.value.code == "ranking_not_signed_off"
        services.sign_off_ranking(t, actor=Actor(director))
        with pytest.raises(DomainError) as e:
            services.sign_off_ranking(t, actor=Actor(director))
        assert e.value.code == "already_signed"
        with pytest.raises(DomainError):
            services.pay_prize(entries[3], method="CASH", actor=cashier_actor)
        with pytest.raises(DomainError) as e:  # ELM-07: a floor login no longer gives the second signature
            services.sign_off_ranking(t, actor=Actor(floor_user))
        assert e.value.code == "not_a_signer"
        services.sign_off_ranking(t, actor=Actor(controller_user))
        assert services.pay_prize(entries[3], method="CASH", actor=cashier_actor).amount == D("500.00")
        # A later bust does not need the earlier place signed again, but is itself held.
        finish_at(entries[2], 3)
        assert 4 in sel.released_places(t) and 3 not in sel.released_places(t)

    def test_floor_and_cashier_cannot_sign_and_two_directors_do_not_release(self, paid_out, cashier_user, floor_user, director):
        t, entries = paid_out
        finish_at(entries[3], 4)
        for user in (cashier_user, floor_user):
            with pytest.raises(DomainError) as e:
                services.sign_off_ranking(t, actor=Actor(user))
            assert e.value.code == "not_a_signer" and e.value.status == 403
        services.sign_off_ranking(t, actor=Actor(director))
        services.sign_off_ranking(t, actor=Actor(make_user("boss2", "director")))
        assert sel.released_places(t) == set()  # the second signature is the controller's (ELM-07)
        assert RankingSignoff.objects.filter(tournament=t).count() == 2

    def test_a_director_who_is_also_controller_cannot_release_alone(self, paid_out, director):
        t, entries = paid_out
        finish_at(entries[3], 4)
        both = make_user("both", "director")
        both.groups.add(*make_user("x-ctrl", "controller").groups.all())
        services.sign_off_ranking(t, actor=Actor(both))
        with pytest.raises(DomainError) as e:
            services.sign_off_ranking(t, actor=Actor(both))
        assert e.value.code == "already_signed"
        assert sel.released_places(t) == set()
        services.sign_off_ranking(t, actor=Actor(director))
        assert sel.released_places(t) == {4}

    def test_a_shared_place_splits_exactly_odd_cent_to_the_first_listed(self, make_tournament, make_person, cashier_actor, actor, director):
        t = make_tournament(buy_in=D("100"), fee=D("0"))
        entries = sell(t, make_person, 10, cashier_actor)
        services.edit_payout_table(t, [{"place": 1, "amount": "500"}, {"place": 2, "amount": "300.01"}, {"place": 3, "amount": "199.99"}], actor=actor)
        services.lock_payout_table(t, actor=actor)
        # Three bust on the same hand-for-hand hand at different tables: all share 2nd–4th.
        for e in entries[1:4]:
            finish_at(e, 2)
        dues = [d for d in sel.dues(t) if d["place"] == 2]
        assert [d["amount"] for d in dues] == [D("166.67"), D("166.67"), D("166.66")]
        assert sum(d["amount"] for d in dues) == D("500.00")
        assert all(d["shared_with"] == 3 for d in dues)
        t.settings = {"shared_odd_cents": "HOUSE"}
        t.save()
        assert [d["amount"] for d in sel.dues(t) if d["place"] == 2] == [D("166.66")] * 3
        assert reports.reconciliation_data(t)["balanced"]

    def test_an_edit_cannot_change_a_place_already_paid(self, paid_out, cashier_actor, director, actor):
        t, entries = paid_out
        finish_at(entries[3], 4)
        sign_twice(t, director)
        services.pay_prize(entries[3], method="CASH", actor=cashier_actor)
        services.unlock_payout_table(t, actor=actor, reason="fix")  # PAY-05: a locked table changes only after this
        with pytest.raises(DomainError) as e:
            services.edit_payout_table(
                t,
                [{"place": 1, "amount": "5100"}, {"place": 2, "amount": "3000"}, {"place": 3, "amount": "1500"}, {"place": 4, "amount": "400"}],
                actor=actor,
                reason="fix",
            )
        assert e.value.code == "place_already_paid"

    def test_a_ticket_prize_issues_a_personal_ticket(self, make_tournament, make_person, cashier_actor, actor, director):
        t = make_tournament(buy_in=D("100"), fee=D("0"))
        target = make_tournament(name="Main Event", buy_in=D("300"), fee=D("30"))
        entries = sell(t, make_person, 10, cashier_actor)
        services.edit_payout_table(
            t, [{"place": 1, "amount": "670"}, {"place": 2, "kind": "TICKET", "amount": "330", "target": target.pk, "description": "Main Event"}], actor=actor
        )
        services.lock_payout_table(t, actor=actor)
        finish_at(entries[0], 2)
        sign_twice(t, director)
        pay = services.pay_prize(entries[0], method="OTHER", source="MAIN:TICKET", actor=cashier_actor)
        assert pay.ticket.holder == entries[0].person and pay.ticket.non_transferable and pay.row.prize_amount == D("-330.00")
        entry = services.redeem_ticket(pay.ticket, actor=cashier_actor, id_checked=True)
        assert entry.tournament == target and entry.ledger.get().method == "OTHER"

    def test_last_longer_goes_to_the_best_pre_registered(self, tournament, make_person, cashier_actor, actor, director):
        a, b = make_person(), make_person()
        cashier.pre_register(tournament, a, actor=cashier_actor)
        cashier.register(tournament, a, method="CASH", actor=cashier_actor)
        cashier.register(tournament, b, method="CASH", actor=cashier_actor)
        pool = services.create_side_pool(tournament, kind="LAST_LONGER", name="Last Longer", actor=actor)
        services.contribute_side_pool(pool, "150", actor=actor)
        ea, eb = tournament.entries.get(person=a), tournament.entries.get(person=b)
        finish_at(eb, 1)
        finish_at(ea, 2)
        (award,) = services.award_side_pool(pool, actor=actor)
        assert award.entry == ea and award.amount == D("150.00")
        pay = services.pay_prize(ea, method="CASH", source=f"SIDE:{award.pk}", actor=cashier_actor)
        assert pay.row.kind == "SIDE" and pay.row.side_amount == D("-150.00") and pay.row.prize_amount == 0


class TestReports:
    def test_reconciliation_balances_with_everything_paid(self, paid_out, cashier_actor, director):
        t, entries = paid_out
        for place, e in enumerate(entries[:4], start=1):
            finish_at(e, place)
        sign_twice(t, director)
        for e in entries[:4]:
            services.pay_prize(e, method="TRANSFER", reference=f"TRF-{e.pk}", actor=cashier_actor)
        data = reports.reconciliation_data(t)
        lines = {str(k): v for k, v in data["lines"]}
        assert lines["Money in: total"] == D("11000.00") and lines["Money out: prizes paid"] == D("10000.00")
        assert lines["Fees kept by the house"] == D("1000.00") and lines["Prize pool not yet paid"] == D("0.00")
        assert data["balanced"] and data["difference"] == 0
        pay = reports.payments(t)
        assert len(pay["rows"]) == 4 and dict(pay["totals"])["Paid"] == "10000.00"

    def test_reconciliation_explains_prizes_still_owed(self, paid_out, director):
        t, entries = paid_out
        finish_at(entries[3], 4)
        data = reports.reconciliation_data(t)
        lines = {str(k): v for k, v in data["lines"]}
        assert lines["… prizes won, not yet collected"] == D("500.00")
        assert lines["… places still to be decided"] == D("9500.00")
        assert data["balanced"]

    def test_role03_the_reconciliation_reads_a_three_way_share_its_odd_cents_and_a_prize_not_collected(self, paid_out, cashier_actor, director):
        # Three players out on the same hand share places 2–4: (3,000 + 1,500 + 500) ÷ 3 is
        # 1,666.66 each, the 0.02 left the house's (the house's setting). The winner's 5,000 and
        # one share are paid.
        t, entries = paid_out
        Tournament.objects.filter(pk=t.pk).update(settings={"shared_odd_cents": "HOUSE"})
        finish_at(entries[0], 1)
        for e in entries[1:4]:
            finish_at(e, 2)
        sign_twice(t, director)
        services.pay_prize(entries[0], method="TRANSFER", reference="TRF-1", actor=cashier_actor)
        services.pay_prize(entries[1], method="CASH", actor=cashier_actor)
        rows, result = read(t)
        assert rows == expected(
            {
                "Money in: prize parts": "10000.00",
                "Money in: fees": "1000.00",
                "Money in: total": "11000.00",
                "Prize pool": "10000.00",
                "Fees kept by the house": "1000.00",
                "Money out: prizes paid": "6666.66",
                "Prize pool not yet paid": "3333.34",
                "… prizes won, not yet collected": "3333.32",
                "… odd cents of shared places kept by the house": "0.02",
            }
        )
        assert result == BALANCED

    def test_role03_a_sponsor_s_item_with_a_value_is_no_prize_money_in_the_reconciliation(self, make_tournament, make_person, cashier_actor, actor):
        # 5 × (€100 + €10): the pool of 500 pays 300 and 200; the winner also gets a dinner for two
        # worth €50 that a sponsor gives. First and second are decided, nothing paid yet: 500 is
        # owed, the dinner is not the pool's money.
        t = make_tournament()
        entries = sell(t, make_person, 5, cashier_actor)
        table = [{"place": 1, "amount": "300"}, {"place": 2, "amount": "200"}, {"place": 1, "kind": "ITEM", "amount": "50", "description": "Dinner for two"}]
        services.edit_payout_table(t, table, actor=actor)
        services.lock_payout_table(t, actor=actor)
        Tournament.objects.filter(pk=t.pk).update(status=Tournament.RUNNING)
        finish_at(entries[0], 1)
        finish_at(entries[1], 2)
        rows, result = read(t)
        assert rows == expected(
            {
                "Money in: prize parts": "500.00",
                "Money in: fees": "50.00",
                "Money in: total": "550.00",
                "Prize pool": "500.00",
                "Fees kept by the house": "50.00",
                "Prize pool not yet paid": "500.00",
                "… prizes won, not yet collected": "500.00",
            }
        )
        assert result == BALANCED

    def test_prestart_report_lists_players_and_money(self, tournament, make_person, cashier_actor):
        sell(tournament, make_person, 3, cashier_actor)
        cashier.pre_register(tournament, make_person("Luca", "Verdi"), actor=cashier_actor)
        r = reports.prestart(tournament)
        totals = dict(r["totals"])
        assert totals["Registered"] == "4" and totals["Total buy-ins"] == "300.00" and totals["Total fees"] == "30.00"
        csv_text = reports.to_csv(r)
        assert "Luca Verdi" in csv_text and csv_text.startswith("Pre-start report")
        assert reports.to_pdf(r).startswith(b"%PDF")

    def test_standings_show_prizes_and_leaderboard_points(self, make_tournament, make_person, cashier_actor, actor):
        t = make_tournament(buy_in=D("100"), fee=D("0"))
        entries = sell(t, make_person, 40, cashier_actor)
        services.lock_payout_table(t, actor=actor)
        finish_at(entries[0], 1)
        finish_at(entries[1], 2)
        rows = reports.standings(t)["rows"]
        assert rows[0][6] == "189.81" and rows[1][6] == "134.21"  # scenario 39, reading A
        assert D(rows[0][3]) == sel.table_prizes(t)[0]["amount"]


def test_a_payment_reversed_at_the_desk_is_due_again(paid_out, cashier_actor, director):
    t, entries = paid_out
    finish_at(entries[3], 4)
    sign_twice(t, director)
    pay = services.pay_prize(entries[3], method="CASH", actor=cashier_actor)
    with pytest.raises(cashier.DeskError) as refused:  # a prize payment is the director's to undo
        cashier.reverse(pay.row, reason="paid the wrong person", actor=cashier_actor)
    assert refused.value.code == "reverse_not_allowed"
    cashier.reverse(pay.row, reason="paid the wrong person", actor=Actor(director, "desk-1"))
    due = sel.due_for(t, entries[3], "MAIN:CASH")
    assert not due["paid"]
    assert services.pay_prize(entries[3], method="CASH", actor=cashier_actor).amount == D("500.00")
    assert PrizePayment.objects.filter(entry=entries[3]).count() == 2
    assert sel.money_out(t)["prize"] == D("500.00")


def test_payouts_need_a_locked_table(tournament, make_person, cashier_actor, director):
    e = sell(tournament, make_person, 10, cashier_actor)[0]
    finish_at(e, 1)
    with pytest.raises(PayoutError) as exc:
        services.pay_prize(e, method="CASH", actor=cashier_actor)
    assert exc.value.code == "table_not_locked"


def test_tournament_links_point_at_the_payouts_pages(tournament):
    links = sel.tournament_links(tournament)
    assert links[0]["url"] == f"/tournaments/{tournament.pk}/payouts/"
    assert any(link["url"].startswith("/payouts/due/") for link in links)


def test_pay13_a_prize_paid_again_after_a_reversal_shows_paid_and_is_not_paid_a_third_time(paid_out, cashier_actor, director, api, cashier_user):
    """The 4th's €500 paid, reversed by the director (the wrong person), paid again: the desk's
    list shows it paid with the new payment's receipt, and a third payment is refused."""
    t, entries = paid_out
    finish_at(entries[3], 4)
    sign_twice(t, director)
    first = services.pay_prize(entries[3], method="CASH", actor=cashier_actor)
    cashier.reverse(first.row, reason="paid the wrong person", actor=Actor(director, "desk-1"))
    again = services.pay_prize(entries[3], method="CASH", actor=cashier_actor)
    assert again.row.receipt_number != first.row.receipt_number
    due = api(cashier_user).get(f"/api/v1/payouts/due/?tournament={t.pk}&all=1").json()
    [line] = [d for d in due if d["entry"] == entries[3].pk]
    assert (line["amount"], line["paid"], line["payment"]["receipt_number"]) == ("500.00", True, again.row.receipt_number)
    with pytest.raises(DomainError) as refused:
        services.pay_prize(entries[3], method="CASH", actor=cashier_actor)
    assert refused.value.code == "already_paid"


def test_role03_the_reconciliation_lists_the_receipts_lost_with_a_restore(make_tournament, make_person, cashier_actor, settings, tmp_path):
    """Two sales (receipts 1 and 2, the journal reserving 1–10), then the database is restored
    from a backup taken after them: receipts 3–10 may be in players' hands, and the report of
    the event open then says so, under its lines."""
    from tdmanager import receipt_journal
    from tdmanager.formatting import when
    from tournaments.cashier.ledger import continue_receipts_after_restore
    from tournaments.models import TournamentEvent

    settings.TDM_RECEIPT_JOURNAL = str(tmp_path / "receipts.journal")
    settings.TDM_RECEIPT_JOURNAL_BLOCK = 10
    receipt_journal.forget()
    t = make_tournament(name="Restored Event")
    sell(t, make_person, 2, cashier_actor, method="CASH")
    continue_receipts_after_restore(backup="sunday.backup")
    at = TournamentEvent.objects.get(tournament=None).created_at
    rows, result = read(t)
    assert rows == expected(
        {
            "Money in: prize parts": "200.00",
            "Money in: fees": "20.00",
            "Money in: total": "220.00",
            "Prize pool": "200.00",
            "Fees kept by the house": "20.00",
            "Prize pool not yet paid": "200.00",
            "… places still to be decided": "200.00",
        },
        (
            f"Receipts 3–10: lost with the restore of {when(at, 'datetime')} (backup sunday.backup). They may have been printed after "
            "the backup; their sales are not in this ledger and the numbers are never used again.",
        ),
    )
    assert result == BALANCED
    receipt_journal.forget()
