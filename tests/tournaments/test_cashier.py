"""The cashier desk rules, through the services."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.cashier.selectors import ledger_totals, shift_totals
from tournaments.cashier.services import DeskError, registration
from tournaments.models import Entry, LedgerRow, Tournament

from .helpers import break_after_level, item_index_of_level, run_clock_at

pytestmark = pytest.mark.django_db


def codes(excinfo):
    return excinfo.value.code


def bust(entry):
    entry.status = Entry.BUSTED
    entry.save()


class TestRegister:
    def test_it_sells_an_entry_with_buy_in_and_fee_apart(self, tournament, person, cashier_actor):
        sale = cashier.register(tournament, person, method="CASH", actor=cashier_actor)
        assert sale.entry.status == Entry.ACTIVE and sale.entry.chips == 30000 and sale.entry.number == 1
        row = sale.row
        assert (row.kind, row.prize_amount, row.fee_amount, row.total) == ("BUY_IN", Decimal("100"), Decimal("10"), Decimal("110"))
        assert row.cashier == cashier_actor.user and row.method == "CASH" and row.chips == 30000
        assert tournament.events.filter(action="cashier.buyin.sold").count() == 1

    def test_receipt_numbers_are_gapless_even_after_a_refused_sale(self, tournament, make_person, cashier_actor):
        a, banned, b = make_person(), make_person(banned=True, banned_reason="x"), make_person()
        r1 = cashier.register(tournament, a, method="CASH", actor=cashier_actor).row
        with pytest.raises(DeskError):
            cashier.register(tournament, banned, method="CASH", actor=cashier_actor)
        r2 = cashier.register(tournament, b, method="CARD", actor=cashier_actor).row
        assert r2.receipt_number == r1.receipt_number + 1

    def test_it_refuses_a_banned_person_with_the_reason(self, tournament, make_person, cashier_actor):
        p = make_person(banned=True, banned_reason="Excluded by the casino")
        with pytest.raises(DeskError) as e:
            cashier.register(tournament, p, method="CASH", actor=cashier_actor)
        assert codes(e) == "banned" and "Excluded by the casino" in str(e.value.message)
        assert not LedgerRow.objects.exists() and not Entry.objects.exists()

    def test_it_refuses_before_registration_opens(self, make_tournament, person, cashier_actor):
        t = make_tournament(status=Tournament.PLANNED)
        with pytest.raises(DeskError) as e:
            cashier.register(t, person, method="CASH", actor=cashier_actor)
        assert codes(e) == "registration_not_open"

    def test_it_refuses_a_second_entry_while_playing(self, tournament, person, cashier_actor):
        cashier.register(tournament, person, method="CASH", actor=cashier_actor)
        with pytest.raises(DeskError) as e:
            cashier.register(tournament, person, method="CASH", actor=cashier_actor)
        assert codes(e) == "already_registered"
        assert LedgerRow.objects.count() == 1

    def test_a_busted_player_is_sent_to_re_entry(self, make_tournament, person, cashier_actor):
        t = make_tournament(format=Tournament.REENTRY, max_entries_per_player=2)
        bust(cashier.register(t, person, method="CASH", actor=cashier_actor).entry)
        with pytest.raises(DeskError) as e:
            cashier.register(t, person, method="CASH", actor=cashier_actor)
        assert codes(e) == "use_reentry"

    def test_the_field_cap_is_never_overbooked(self, make_tournament, make_person, cashier_actor):
        t = make_tournament(field_cap=2)
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
        with pytest.raises(DeskError) as e:
            cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
        assert codes(e) == "field_full"
        assert t.entries.count() == 2

    def test_cash_above_the_limit_is_refused_and_at_the_limit_accepted(self, make_tournament, make_person, cashier_actor):
        # RULES scenario 23: €2,200 in cash refused (card required), €2,000.00 accepted.
        big = make_tournament(buy_in=Decimal("2000"), fee=Decimal("200"))
        with pytest.raises(DeskError) as e:
            cashier.register(big, make_person(), method="CASH", actor=cashier_actor)
        assert codes(e) == "cash_limit_exceeded"
        assert cashier.register(big, make_person(), method="CARD", actor=cashier_actor).row.total == Decimal("2200")
        exact = make_tournament(buy_in=Decimal("1800"), fee=Decimal("200"))
        assert cashier.register(exact, make_person(), method="CASH", actor=cashier_actor).row.total == Decimal("2000")

    def test_late_registration_is_open_until_the_end_of_its_level(self, make_tournament, make_person, cashier_actor):
        # RULES scenario 18: accepted during level 3, refused once level 3 has ended.
        t = make_tournament(status=Tournament.RUNNING, late_reg_closes_after_level=3)
        run_clock_at(t, item_index_of_level(t, 3), seconds_left=60)
        sale = cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
        assert sale.entry.is_late
        run_clock_at(t, item_index_of_level(t, 4), seconds_left=60)
        with pytest.raises(DeskError) as e:
            cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
        assert codes(e) == "late_registration_closed"

    def test_late_registration_can_close_at_the_end_of_the_break(self, make_tournament, make_person, cashier_actor):
        t = make_tournament(status=Tournament.RUNNING, late_reg_closes_after_level=4, late_reg_end=Tournament.END_OF_BREAK)
        run_clock_at(t, break_after_level(t, 4), seconds_left=30)
        assert cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry.is_late
        run_clock_at(t, item_index_of_level(t, 5), seconds_left=600)
        with pytest.raises(DeskError):
            cashier.register(t, make_person(), method="CASH", actor=cashier_actor)

    def test_a_late_registration_level_past_the_structures_last_never_closes(self, make_tournament, make_person, cashier_actor):
        # The Regular structure has 24 levels, the last repeating: a 25th level never comes.
        t = make_tournament(status=Tournament.RUNNING, late_reg_closes_after_level=25)
        run_clock_at(t, item_index_of_level(t, 24), seconds_left=60)
        assert cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry.is_late

    def test_a_finished_clock_closes_late_registration_even_at_the_last_level(self, make_tournament, make_person, cashier_actor, actor):
        from tournaments.clock import services as clock_services

        t = make_tournament(status=Tournament.RUNNING, late_reg_closes_after_level=24)  # the Regular structure's last, repeating
        run_clock_at(t, item_index_of_level(t, 24), seconds_left=60)
        assert cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry.is_late
        clock_services.finish_clock(t, actor=actor)
        with pytest.raises(DeskError) as e:
            cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
        assert codes(e) == "late_registration_closed"

    def test_a_paused_clock_keeps_late_registration_open_through_its_break(self, make_tournament, make_person, cashier_actor):
        from tournaments.models import Clock

        t = make_tournament(status=Tournament.RUNNING, late_reg_closes_after_level=4, late_reg_end=Tournament.END_OF_BREAK)
        paused_at = timezone.now()
        clock = Clock.objects.create(tournament=t, status=Clock.PAUSED, item_index=break_after_level(t, 4), remaining=60, version=1)
        an_hour_later = paused_at + timedelta(hours=1)  # the break had a minute left when the clock was paused
        assert cashier.register(t, make_person(), method="CASH", actor=cashier_actor, now=an_hour_later).entry.is_late
        # The same minute on a clock left running ran out long before: the pause is what kept it open.
        Clock.objects.filter(pk=clock.pk).update(status=Clock.RUNNING, ends_at=paused_at + timedelta(seconds=60), remaining=0, version=2)
        with pytest.raises(DeskError) as e:
            cashier.register(t, make_person(), method="CASH", actor=cashier_actor, now=an_hour_later)
        assert codes(e) == "late_registration_closed"

    def test_a_paused_clock_keeps_late_registration_open(self, make_tournament, make_person, cashier_actor):
        from tournaments.models import Clock

        t = make_tournament(status=Tournament.RUNNING, late_reg_closes_after_level=1)
        paused_at = timezone.now()
        clock = Clock.objects.create(tournament=t, status=Clock.PAUSED, item_index=0, remaining=5, version=1)
        an_hour_later = paused_at + timedelta(hours=1)  # level 1 had 5 seconds left when the clock was paused
        assert cashier.register(t, make_person(), method="CASH", actor=cashier_actor, now=an_hour_later).row is not None
        # The same 5 seconds on a clock left running ran out long before: the pause is what kept it open.
        Clock.objects.filter(pk=clock.pk).update(status=Clock.RUNNING, ends_at=paused_at + timedelta(seconds=5), remaining=0, version=2)
        with pytest.raises(DeskError) as e:
            cashier.register(t, make_person(), method="CASH", actor=cashier_actor, now=an_hour_later)
        assert codes(e) == "late_registration_closed"


class TestPreRegistration:
    def test_a_reservation_takes_a_place_and_is_paid_later(self, make_tournament, make_person, cashier_actor):
        t = make_tournament(field_cap=1)
        p = make_person()
        entry = cashier.pre_register(t, p, actor=cashier_actor, channel="whatsapp")
        assert entry.status == Entry.RESERVED and not LedgerRow.objects.exists()
        with pytest.raises(DeskError) as e:
            cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
        assert codes(e) == "field_full"
        sale = cashier.register(t, p, method="TRANSFER", actor=cashier_actor)
        assert sale.entry.pk == entry.pk and sale.entry.status == Entry.ACTIVE and sale.row.method == "TRANSFER"

    def test_cancelling_a_reservation_frees_the_place_for_the_first_alternate(self, make_tournament, make_person, cashier_actor):
        t = make_tournament(field_cap=1)
        reserved = cashier.pre_register(t, make_person(), actor=cashier_actor)
        first, second = make_person("First"), make_person("Second")
        cashier.add_alternate(t, first, actor=cashier_actor)
        cashier.add_alternate(t, second, actor=cashier_actor)
        cashier.cancel_reservation(reserved, actor=cashier_actor)
        sale = cashier.admit_alternate(t, method="CASH", actor=cashier_actor)
        assert sale.entry.person == first
        assert list(t.alternates.filter(status="WAITING").values_list("person__first_name", flat=True)) == ["Second"]


class TestReentry:
    @pytest.fixture
    def reentry(self, make_tournament):
        return make_tournament(format=Tournament.REENTRY, max_entries_per_player=2, late_reg_closes_after_level=6)

    def test_a_busted_player_buys_a_full_new_stack(self, reentry, person, cashier_actor):
        first = cashier.register(reentry, person, method="CASH", actor=cashier_actor).entry
        bust(first)
        sale = cashier.reenter(reentry, person, method="CASH", actor=cashier_actor)
        assert sale.entry.pk != first.pk and sale.entry.person_entry_no == 2 and sale.entry.chips == 30000
        assert sale.row.kind == "RE_ENTRY" and sale.row.total == Decimal("110")

    def test_it_refuses_a_player_still_in(self, reentry, person, cashier_actor):
        cashier.register(reentry, person, method="CASH", actor=cashier_actor)
        with pytest.raises(DeskError) as e:
            cashier.reenter(reentry, person, method="CASH", actor=cashier_actor)
        assert codes(e) == "not_busted"

    def test_it_stops_at_the_max_entries(self, reentry, person, cashier_actor):
        bust(cashier.register(reentry, person, method="CASH", actor=cashier_actor).entry)
        bust(cashier.reenter(reentry, person, method="CASH", actor=cashier_actor).entry)
        with pytest.raises(DeskError) as e:
            cashier.reenter(reentry, person, method="CASH", actor=cashier_actor)
        assert codes(e) == "max_entries_reached"

    def test_a_freezeout_has_no_reentry(self, tournament, person, cashier_actor):
        bust(cashier.register(tournament, person, method="CASH", actor=cashier_actor).entry)
        with pytest.raises(DeskError) as e:
            cashier.reenter(tournament, person, method="CASH", actor=cashier_actor)
        assert codes(e) == "reentry_not_allowed"

    def test_reentry_is_refused_once_late_registration_closes(self, reentry, person, cashier_actor):
        bust(cashier.register(reentry, person, method="CASH", actor=cashier_actor).entry)
        reentry.status = Tournament.RUNNING
        reentry.save()
        run_clock_at(reentry, item_index_of_level(reentry, 7))
        with pytest.raises(DeskError) as e:
            cashier.reenter(reentry, person, method="CASH", actor=cashier_actor)
        assert codes(e) == "late_registration_closed"


class TestRebuy:
    @pytest.fixture
    def rebuy_t(self, make_tournament):
        return make_tournament(
            format=Tournament.REBUY,
            status=Tournament.RUNNING,
            rebuy_price=Decimal("50"),
            rebuy_fee=Decimal("5"),
            rebuy_chips=30000,
            rebuy_max=2,
            rebuy_until_level=3,
            rebuy_stack_threshold=0,
        )

    def test_a_busted_player_rebuys_and_is_back_in(self, rebuy_t, person, cashier_actor):
        run_clock_at(rebuy_t, item_index_of_level(rebuy_t, 2))
        entry = cashier.register(rebuy_t, person, method="CASH", actor=cashier_actor).entry
        bust(entry)
        sale = cashier.rebuy(entry, method="CASH", actor=cashier_actor)
        assert sale.entry.status == Entry.ACTIVE and sale.entry.rebuys == 1 and sale.entry.chips == 60000
        assert (sale.row.kind, sale.row.total, sale.row.chips) == ("REBUY", Decimal("55"), 30000)

    def test_a_player_with_chips_cannot_rebuy_when_only_busted_players_may(self, rebuy_t, person, cashier_actor):
        run_clock_at(rebuy_t, 0)
        entry = cashier.register(rebuy_t, person, method="CASH", actor=cashier_actor).entry
        with pytest.raises(DeskError) as e:
            cashier.rebuy(entry, method="CASH", actor=cashier_actor, stack=1500)
        assert codes(e) == "not_busted"
        assert cashier.rebuy(entry, method="CASH", actor=cashier_actor, stack=0).entry.rebuys == 1

    def test_the_stack_threshold_allows_rebuys_at_or_below_it(self, rebuy_t, person, cashier_actor):
        rebuy_t.rebuy_stack_threshold = 30000
        rebuy_t.save()
        run_clock_at(rebuy_t, 0)
        entry = cashier.register(rebuy_t, person, method="CASH", actor=cashier_actor).entry
        with pytest.raises(DeskError) as e:
            cashier.rebuy(entry, method="CASH", actor=cashier_actor, stack=30001)
        assert codes(e) == "stack_above_threshold"
        assert cashier.rebuy(entry, method="CASH", actor=cashier_actor, stack=30000).entry.chips == 60000

    def test_rebuys_stop_at_the_max_and_after_the_period(self, rebuy_t, person, cashier_actor):
        run_clock_at(rebuy_t, 0)
        entry = cashier.register(rebuy_t, person, method="CASH", actor=cashier_actor).entry
        cashier.rebuy(entry, method="CASH", actor=cashier_actor, stack=0)
        cashier.rebuy(entry, method="CASH", actor=cashier_actor, stack=0)
        with pytest.raises(DeskError) as e:
            cashier.rebuy(entry, method="CASH", actor=cashier_actor, stack=0)
        assert codes(e) == "max_rebuys_reached"
        rebuy_t.rebuy_max = None
        rebuy_t.save()
        run_clock_at(rebuy_t, item_index_of_level(rebuy_t, 4))
        with pytest.raises(DeskError) as e:
            cashier.rebuy(entry, method="CASH", actor=cashier_actor, stack=0)
        assert codes(e) == "rebuy_period_over"


class TestAddon:
    @pytest.fixture
    def addon_t(self, make_tournament):
        # Late registration open past the add-on's break (001: the add-on is sold in the break before it closes).
        return make_tournament(
            status=Tournament.RUNNING,
            addon_price=Decimal("20"),
            addon_chips=20000,
            addon_after_level=4,
            format=Tournament.REENTRY,
            max_entries_per_player=2,
            late_reg_closes_after_level=6,
        )

    def test_the_add_on_is_sold_only_in_its_break(self, addon_t, person, make_person, cashier_actor):
        run_clock_at(addon_t, item_index_of_level(addon_t, 4))
        entry = cashier.register(addon_t, person, method="CASH", actor=cashier_actor).entry
        with pytest.raises(DeskError) as e:
            cashier.addon(entry, method="CASH", actor=cashier_actor)
        assert codes(e) == "addon_window_closed"
        run_clock_at(addon_t, break_after_level(addon_t, 4))
        sale = cashier.addon(entry, method="CASH", actor=cashier_actor)
        assert sale.entry.chips == 50000 and sale.row.kind == "ADD_ON" and sale.row.total == Decimal("20")
        with pytest.raises(DeskError) as e:
            cashier.addon(entry, method="CASH", actor=cashier_actor)
        assert codes(e) == "max_addons_reached"
        run_clock_at(addon_t, item_index_of_level(addon_t, 5))
        other = cashier.register(addon_t, make_person(), method="CASH", actor=cashier_actor).entry
        with pytest.raises(DeskError) as e:
            cashier.addon(other, method="CASH", actor=cashier_actor)
        assert codes(e) == "addon_window_closed"

    def test_the_add_on_is_judged_at_the_moment_of_its_sale(self, addon_t, person, cashier_actor):
        now = timezone.now()
        run_clock_at(addon_t, break_after_level(addon_t, 4), seconds_left=60, now=now)  # a minute of the break left
        entry = cashier.register(addon_t, person, method="CASH", actor=cashier_actor).entry
        with pytest.raises(DeskError) as e:
            cashier.addon(entry, method="CASH", actor=cashier_actor, now=now + timedelta(minutes=2))  # level 5 by then
        assert codes(e) == "addon_window_closed"
        assert cashier.addon(entry, method="CASH", actor=cashier_actor, now=now + timedelta(seconds=30)).entry.chips == 50000

    def test_an_add_on_with_no_break_named_is_never_on_sale(self, make_tournament, person, cashier_actor):
        t = make_tournament(status=Tournament.RUNNING, addon_price=Decimal("20"), addon_chips=20000, addon_after_level=None, late_reg_closes_after_level=6)
        run_clock_at(t, break_after_level(t, 4))
        entry = cashier.register(t, person, method="CASH", actor=cashier_actor).entry
        with pytest.raises(DeskError) as e:
            cashier.addon(entry, method="CASH", actor=cashier_actor)
        assert codes(e) == "addon_window_closed"
        assert str(e.value) == "No break is set for this event's add-on: the director sets the level it follows first."


class TestCorrections:
    def test_a_reversal_is_a_new_row_with_opposite_amounts_and_cancels_the_entry(self, tournament, person, cashier_actor):
        sale = cashier.register(tournament, person, method="CASH", actor=cashier_actor)
        rev = cashier.reverse(sale.row, reason="wrong player", actor=cashier_actor)
        assert rev.kind == "REVERSAL" and rev.total == Decimal("-110") and rev.reverses == sale.row and rev.chips == -30000
        sale.entry.refresh_from_db()
        assert sale.entry.status == Entry.CANCELLED
        assert ledger_totals(tournament)["prize"] == Decimal("0")
        # the place is free again
        assert cashier.register(tournament, person, method="CARD", actor=cashier_actor).row.total == Decimal("110")

    def test_a_row_is_reversed_once_and_a_reversal_never(self, tournament, person, cashier_actor):
        sale = cashier.register(tournament, person, method="CASH", actor=cashier_actor)
        rev = cashier.reverse(sale.row, reason="mistake", actor=cashier_actor)
        with pytest.raises(DeskError) as e:
            cashier.reverse(sale.row, reason="again", actor=cashier_actor)
        assert codes(e) == "already_reversed"
        with pytest.raises(DeskError) as e:
            cashier.reverse(rev, reason="undo", actor=cashier_actor)
        assert codes(e) == "cannot_reverse_reversal"

    def test_a_reversal_needs_a_reason(self, tournament, person, cashier_actor):
        sale = cashier.register(tournament, person, method="CASH", actor=cashier_actor)
        with pytest.raises(DomainError) as e:
            cashier.reverse(sale.row, reason="  ", actor=cashier_actor)
        assert codes(e) == "reason_required"

    def test_ledger_rows_cannot_be_edited_or_deleted(self, tournament, person, cashier_actor):
        row = cashier.register(tournament, person, method="CASH", actor=cashier_actor).row
        row.prize_amount = Decimal("1")
        with pytest.raises(TypeError):
            row.save()
        with pytest.raises(TypeError):
            row.delete()
        with pytest.raises(TypeError):
            LedgerRow.objects.filter(pk=row.pk).update(prize_amount=0)
        with pytest.raises(TypeError):
            tournament.events.all().delete()

    def test_a_banned_pre_registrant_is_refunded_minus_expenses(self, tournament, person, cashier_actor, actor):
        # RULES scenario 24: paid by transfer, found banned, refunded minus the expenses entered.
        cashier.pre_register(tournament, person, actor=cashier_actor, channel="transfer")
        # REG-02: a transfer booking is paid when the cashier confirms the funds cleared.
        entry = registration.confirm_transfer(tournament.entries.get(person=person), reference="CRO-1", actor=cashier_actor).entry
        person.banned, person.banned_reason = True, "casino exclusion list"
        person.save()
        row = cashier.refund(entry, reason="banned at check-in", actor=actor, expenses=Decimal("10"), method="TRANSFER")
        assert row.kind == "REFUND" and row.total == Decimal("-100") and row.fee_amount == Decimal("0") and row.prize_amount == Decimal("-100")
        entry.refresh_from_db()
        assert entry.status == Entry.CANCELLED
        totals = ledger_totals(tournament)
        assert (totals["prize"], totals["fee"]) == (Decimal("0"), Decimal("10"))

    def test_no_refund_for_a_busted_player(self, tournament, person, cashier_actor, actor):
        entry = cashier.register(tournament, person, method="CASH", actor=cashier_actor).entry
        bust(entry)
        with pytest.raises(DeskError) as e:
            cashier.refund(entry, reason="asked", actor=actor)
        assert codes(e) == "no_refund_after_playing"


def test_shift_totals_add_up_by_method(tournament, make_person, cashier_actor):
    cashier.register(tournament, make_person(), method="CASH", actor=cashier_actor)
    cashier.register(tournament, make_person(), method="CASH", actor=cashier_actor)
    sale = cashier.register(tournament, make_person(), method="CARD", actor=cashier_actor)
    cashier.reverse(sale.row, reason="card declined", actor=cashier_actor)
    totals = shift_totals(cashier_actor.user)
    by = {m["method"]: m["total"] for m in totals["by_method"]}
    assert by == {"CASH": Decimal("220"), "CARD": Decimal("0")}
    assert totals["total"] == Decimal("220") and totals["rows"] == 4


def test_a_drawer_total_is_in_cents_after_sales_reversed_on_sqlite(make_tournament, make_person, cashier_actor):
    """Found by the simulator on SQLite: three card sales at 22 + 2.20 reversed left the card line
    at 8.9e-16 (SQLite adds decimals in floating point) and the desk showed a drawer of
    24.200000000000000888. A drawer is whole cents on every database."""
    t = make_tournament(buy_in=Decimal("22"), fee=Decimal("2.20"))
    cards = [cashier.register(t, make_person(), method="CARD", actor=cashier_actor) for _ in range(3)]
    for sale in cards:
        cashier.reverse(sale.row, reason="card declined", actor=cashier_actor)
    cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    totals = shift_totals(cashier_actor.user)
    assert [(m["method"], str(m["total"])) for m in totals["by_method"]] == [("CARD", "0.00"), ("CASH", "24.20")]
    assert str(totals["total"]) == "24.20"


def test_shift_totals_count_from_the_start_of_the_shift(tournament, make_person, cashier_actor):
    """The shift's start (today's midnight by default) is a parameter of the compiled query: a
    sale made before it is not in the drawer, and each call counts from its own start."""
    import time_machine
    from django.utils import timezone

    with time_machine.travel(timezone.now() - timezone.timedelta(hours=3), tick=False):
        cashier.register(tournament, make_person(), method="CASH", actor=cashier_actor)
    cashier.register(tournament, make_person(), method="CARD", actor=cashier_actor)
    recent = shift_totals(cashier_actor.user, since=timezone.now() - timezone.timedelta(hours=1))
    assert [(m["method"], m["rows"], m["total"]) for m in recent["by_method"]] == [("CARD", 1, Decimal("110"))]
    both = shift_totals(cashier_actor.user, since=timezone.now() - timezone.timedelta(hours=4))
    assert both["rows"] == 2 and both["total"] == Decimal("220")
