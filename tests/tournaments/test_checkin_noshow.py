"""REG-02 / REG-05 / REG-09 / ELM-05: pre-registration channels, cleared transfers, check-in with
the identity document, the ban list at sale, check-in and the draw, no-shows under each policy
and absent players who are never eliminated by it. Through the services and the API."""

from decimal import Decimal

import pytest

from seating import selectors as seating_selectors
from seating import services as seating
from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.cashier.services import registration
from tournaments.clock import services as clock_services
from tournaments.models import Entry, LedgerRow, Tournament
from tournaments.setup import lifecycle

from .helpers import item_index_of_level, run_clock_at

pytestmark = pytest.mark.django_db
D = Decimal


def code_of(excinfo):
    return excinfo.value.code


def paid(t, person, actor):
    return cashier.register(t, person, method="CASH", actor=actor).entry


def test_an_entry_moves_through_the_states_rules_md_names(tournament, person, make_person, cashier_actor, actor):
    paid(tournament, make_person(), cashier_actor)
    entry = cashier.pre_register(tournament, person, actor=cashier_actor, channel="whatsapp")
    assert (entry.registration_state(), entry.channel) == ("PRE_REGISTERED", "whatsapp")
    entry = cashier.pay_reservation(entry, method="CASH", actor=cashier_actor).entry
    assert entry.registration_state() == "PAID"
    entry = registration.check_in(entry, actor=cashier_actor)
    assert entry.registration_state() == "CHECKED_IN" and entry.checked_in_at is not None
    lifecycle.start(tournament, actor=actor, prestart_report_sent=True)
    entry.refresh_from_db()
    assert entry.registration_state(seated=seating_selectors.seat_of(entry) is not None) == "SEATED"


def test_a_bank_transfer_is_not_paid_until_the_cashier_confirms_it_cleared(tournament, person, cashier_actor):
    entry = cashier.pre_register(tournament, person, actor=cashier_actor, channel="transfer")
    assert entry.awaits_transfer
    for attempt in (
        lambda: cashier.pay_reservation(entry, method="TRANSFER", actor=cashier_actor),
        lambda: cashier.register(tournament, person, method="TRANSFER", actor=cashier_actor),
    ):
        with pytest.raises(DomainError) as e:
            attempt()
        assert code_of(e) == "transfer_not_cleared"
    with pytest.raises(DomainError) as e:
        registration.check_in(entry, actor=cashier_actor)
    assert code_of(e) == "transfer_not_cleared"
    assert not LedgerRow.objects.filter(entry=entry).exists()
    sale = registration.confirm_transfer(entry, reference="CRO 2026-11-22/0042", actor=cashier_actor)
    entry.refresh_from_db()
    assert entry.registration_state() == "PAID" and entry.funds_cleared_at is not None
    assert (sale.row.method, sale.row.reference, sale.row.total) == ("TRANSFER", "CRO 2026-11-22/0042", D("110"))
    with pytest.raises(DomainError) as e:
        registration.confirm_transfer(entry, reference="again", actor=cashier_actor)
    assert code_of(e) == "not_reserved"


def test_check_in_asks_for_the_identity_document_when_the_house_says_so(make_tournament, make_person, cashier_actor):
    t = make_tournament(rule_set="SANREMO_003")
    entry = paid(t, make_person(), cashier_actor)
    with pytest.raises(DomainError) as e:
        registration.check_in(entry, actor=cashier_actor)
    assert code_of(e) == "id_required" and Entry.objects.get(pk=entry.pk).checked_in_at is None
    entry = registration.check_in(entry, actor=cashier_actor, id_checked=True)
    assert entry.id_checked and entry.registration_state() == "CHECKED_IN"
    relaxed = make_tournament(settings={"check_in_requires_id": False}, rule_set="SANREMO_003")
    assert registration.check_in(paid(relaxed, make_person(), cashier_actor), actor=cashier_actor).checked_in_at is not None


def test_scenario_24_a_banned_pre_registrant_is_blocked_at_check_in_and_refunded_minus_expenses(tournament, person, cashier_actor, actor):
    entry = cashier.pre_register(tournament, person, actor=cashier_actor, channel="transfer")
    registration.confirm_transfer(entry, reference="CRO-7", actor=cashier_actor)
    person.banned, person.banned_reason = True, "casino exclusion list"
    person.save()
    with pytest.raises(DomainError) as e:
        registration.check_in(entry, actor=cashier_actor, id_checked=True)
    assert code_of(e) == "banned" and e.value.extra == {"entry": entry.pk, "refund_due": "110.00"}
    assert registration.banned_paid_entries(tournament) == [
        {"entry": entry.pk, "number": entry.number, "name": person.full_name, "reason": "casino exclusion list", "refund_due": "110.00"}
    ]
    row = cashier.refund(entry, reason="banned at check-in", actor=actor, expenses=D("15"), method="TRANSFER")
    assert row.total == D("-95")
    assert registration.banned_paid_entries(tournament) == []


def test_the_ban_list_is_checked_at_the_sale(tournament, person, cashier_actor):
    person.banned = True
    person.save()
    with pytest.raises(DomainError) as e:
        paid(tournament, person, cashier_actor)
    assert code_of(e) == "banned"


def test_a_banned_payer_does_not_count_towards_the_minimum_field(make_tournament, make_person, cashier_actor, actor):
    t = make_tournament(min_players=2)
    paid(t, make_person(), cashier_actor)
    other = paid(t, make_person(), cashier_actor)
    other.person.banned = True
    other.person.save()
    with pytest.raises(DomainError) as e:
        lifecycle.start(t, actor=actor, prestart_report_sent=True)
    assert code_of(e) == "below_minimum"


def test_a_player_banned_after_paying_is_not_seated_at_the_draw(tournament, make_person, cashier_actor, actor):
    entries = [paid(tournament, make_person(), cashier_actor) for _ in range(6)]
    banned = entries[2]
    banned.person.banned = True
    banned.person.save()
    lifecycle.start(tournament, actor=actor, prestart_report_sent=True)
    assert seating_selectors.seat_of(banned) is None
    assert all(seating_selectors.seat_of(e) is not None for e in entries if e != banned)
    draw = tournament.events.get(action="seating.draw.initial")
    assert draw.payload["banned_not_seated"] == [banned.pk] and draw.payload["players"] == 5
    first_out = entries[0]
    seating.record_bust(tournament, [first_out], actor=actor)
    seating.recompute_places(tournament)  # places count the five in the field, not the banned payer
    assert Entry.objects.get(pk=first_out.pk).place == 5
    seating.seat_new_entry(tournament, banned, actor)  # nor does the seat pool seat him later
    assert seating_selectors.seat_of(banned) is None
    row = cashier.refund(banned, reason="banned", actor=actor, expenses=D("10"))
    assert row.total == D("-100")


# --- REG-09 / ELM-05 ------------------------------------------------------------------------


def test_blind_out_is_the_default_a_no_show_is_seated_and_never_eliminated_by_it(tournament, make_person, cashier_actor, actor):
    entries = [paid(tournament, make_person(), cashier_actor) for _ in range(4)]
    lifecycle.start(tournament, actor=actor, prestart_report_sent=True)
    w = registration.mark_no_show(entries[0], actor=actor)
    assert (w.status, w.presence, w.no_show_at) == (Entry.ACTIVE, Entry.ABSENT, None)
    assert seating_selectors.seat_of(w) is not None  # seated and blinded out
    with pytest.raises(DomainError) as e:
        cashier.refund(w, reason="asks for his money", actor=actor)
    assert code_of(e) == "no_refund_after_leaving"
    registration.set_presence(w, presence=Entry.WITHDRAWN, actor=actor)
    w.refresh_from_db()
    assert w.status == Entry.ACTIVE and w.place is None
    seating.record_bust(tournament, [w], actor=actor)  # his stack reached 0
    w.refresh_from_db()
    assert (w.status, w.place) == (Entry.BUSTED, 4) and w.busted_at is not None


def test_lose_game_a_004_booking_that_does_not_show_still_owes_the_entry(make_tournament, person, cashier_actor, actor):
    t = make_tournament(rule_set="MONTEGALDA_004")
    entry = cashier.pre_register(t, person, actor=cashier_actor, channel="email")
    entry = registration.mark_no_show(entry, actor=actor, reason="not here at the first game")
    assert entry.registration_state() == "NO_SHOW" and entry.status == Entry.CANCELLED
    owed = LedgerRow.objects.get(entry=entry)  # the amount owed is a ledger row of its own kind, not cash
    assert (owed.kind, owed.owed_amount, owed.person, owed.total) == (LedgerRow.RECEIVABLE, D("110"), person, D("0"))
    assert registration.paid_amount(entry) == D("0")  # nothing was paid: the desk's drawer is unchanged
    with pytest.raises(DomainError) as e:
        registration.mark_no_show(entry, actor=actor)
    assert code_of(e) == "already_no_show"


def test_a_blind_out_booking_that_does_not_show_owes_nothing(tournament, person, cashier_actor, actor):
    entry = registration.mark_no_show(cashier.pre_register(tournament, person, actor=cashier_actor), actor=actor)
    assert entry.registration_state() == "NO_SHOW" and not LedgerRow.objects.filter(kind=LedgerRow.RECEIVABLE).exists()


def forfeit_event(make_tournament, make_person, cashier_actor, actor, level, players, seconds_left):
    """An event whose no-shows forfeit at the end of ``level`` plus 5 minutes, its ``players``
    paid, started, the clock in ``level`` with ``seconds_left``: the event and its entries."""
    t = make_tournament(settings={"no_show_policy": "FORFEIT_AT", "no_show_level": level, "no_show_grace_minutes": 5})
    entries = [paid(t, make_person(), cashier_actor) for _ in range(players)]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    t.refresh_from_db()
    run_clock_at(t, item_index_of_level(t, level), seconds_left=seconds_left)
    return t, entries


def test_forfeit_at_the_end_of_the_level_plus_grace_removes_the_absent_player(make_tournament, make_person, cashier_actor, actor):
    t, entries = forfeit_event(make_tournament, make_person, cashier_actor, actor, level=1, players=5, seconds_left=600)
    with pytest.raises(DomainError) as e:
        registration.mark_no_show(entries[4], actor=actor)
    assert code_of(e) == "no_show_too_early"
    level2_minutes = t.structure.items.filter(kind="LEVEL").order_by("position")[1].minutes
    run_clock_at(t, item_index_of_level(t, 2), seconds_left=(level2_minutes - 3) * 60)  # 3 minutes into level 2: in the grace
    with pytest.raises(DomainError) as e:
        registration.mark_no_show(entries[4], actor=actor)
    assert code_of(e) == "no_show_too_early"
    run_clock_at(t, item_index_of_level(t, 2), seconds_left=(level2_minutes - 6) * 60)  # 6 minutes in: the grace is over
    w = registration.mark_no_show(entries[4], actor=actor)
    assert w.registration_state() == "NO_SHOW"
    w.refresh_from_db()
    assert (w.status, w.place) == (Entry.BUSTED, 5)  # out now, ranked by the time, no refund
    assert seating_selectors.seat_of(w) is None


def test_once_the_clock_is_finished_the_last_levels_deadline_has_passed(make_tournament, make_person, cashier_actor, actor):
    # the house's level is the Regular structure's last (24th): it repeats, so it never ends by itself
    t, entries = forfeit_event(make_tournament, make_person, cashier_actor, actor, level=24, players=3, seconds_left=60)
    with pytest.raises(DomainError) as e:
        registration.mark_no_show(entries[2], actor=actor)
    assert code_of(e) == "no_show_too_early"
    clock_services.finish_clock(t, actor=actor)
    w = registration.mark_no_show(entries[2], actor=actor)
    w.refresh_from_db()
    assert (w.status, w.place) == (Entry.BUSTED, 3)


def test_a_checked_in_player_is_not_a_no_show(tournament, person, cashier_actor, actor):
    entry = registration.check_in(paid(tournament, person, cashier_actor), actor=cashier_actor)
    with pytest.raises(DomainError) as e:
        registration.mark_no_show(entry, actor=actor)
    assert code_of(e) == "checked_in"


# --- API --------------------------------------------------------------------------------------


def test_the_desk_api_confirms_a_transfer_checks_in_and_lists_the_refunds_to_offer(tournament, make_person, api, cashier_user, director):
    desk = api(cashier_user)
    person = make_person()
    r = desk.post("/api/v1/cashier/preregister/", {"tournament": tournament.pk, "person": person.pk, "channel": "transfer"}, format="json")
    entry = r.json()["entry"]
    assert (entry["registration_state"], entry["channel"], entry["awaits_transfer"]) == ("PRE_REGISTERED", "transfer", True)
    r = desk.post("/api/v1/cashier/pay/", {"entry": entry["id"], "method": "TRANSFER"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "transfer_not_cleared"
    r = desk.post("/api/v1/cashier/transfer-cleared/", {"entry": entry["id"], "reference": ""}, format="json")
    assert r.status_code == 400
    r = desk.post("/api/v1/cashier/transfer-cleared/", {"entry": entry["id"], "reference": "CRO-9"}, format="json")
    assert r.status_code == 201 and r.json()["receipt"]["reference"] == "CRO-9"
    r = desk.post("/api/v1/cashier/check-in/", {"entry": entry["id"], "id_checked": True}, format="json")
    assert r.status_code == 200 and r.json()["entry"]["registration_state"] == "CHECKED_IN"
    other = cashier.register(tournament, make_person(), method="CASH", actor=registration.Actor(cashier_user)).entry
    other.person.banned, other.person.banned_reason = True, "self-exclusion"
    other.person.save()
    r = desk.post("/api/v1/cashier/check-in/", {"entry": other.pk}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "banned" and r.json()["refund_due"] == "110.00"
    r = desk.get(f"/api/v1/tournaments/{tournament.pk}/banned-paid/")
    assert [e["entry"] for e in r.json()["entries"]] == [other.pk]
    r = api(director).post("/api/v1/cashier/refund/", {"entry": other.pk, "reason": "banned", "expenses": "10"}, format="json")
    assert r.status_code == 201 and r.json()["total"] == "-100.00"


def test_the_api_marks_presence_and_no_shows(make_tournament, make_person, api, cashier_user, floor_user, director):
    t = make_tournament(rule_set="MONTEGALDA_004")
    person = make_person()
    desk = api(cashier_user)
    entry = desk.post("/api/v1/cashier/preregister/", {"tournament": t.pk, "person": person.pk, "channel": "email"}, format="json").json()["entry"]
    r = desk.post("/api/v1/cashier/no-show/", {"entry": entry["id"], "reason": "never came"}, format="json")
    assert r.status_code == 200 and r.json()["entry"]["registration_state"] == "NO_SHOW"
    assert LedgerRow.objects.get(entry_id=entry["id"], kind=LedgerRow.RECEIVABLE).owed_amount == D("110")
    owed = api(director).get(f"/api/v1/tournaments/{t.pk}/receivables/").json()["receivables"]
    assert [(x["name"], x["amount"]) for x in owed] == [(person.full_name, "110.00")]
    playing = cashier.register(t, make_person(), method="CASH", actor=registration.Actor(cashier_user)).entry
    r = api(floor_user).post("/api/v1/cashier/presence/", {"entry": playing.pk, "presence": "WITHDRAWN"}, format="json")
    assert r.status_code == 200 and r.json()["entry"]["presence"] == "WITHDRAWN" and r.json()["entry"]["status"] == "ACTIVE"
    r = api(floor_user).post("/api/v1/cashier/presence/", {"entry": playing.pk, "presence": "ASLEEP"}, format="json")
    assert r.status_code == 400
    assert Tournament.objects.get(pk=t.pk).status == Tournament.REGISTERING
