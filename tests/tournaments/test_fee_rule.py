"""REG-03 / C15: a tournament's fee is computed from the buy-in (10 % up to 3,000, 6 % of the
whole buy-in above, to the cent), a `fee_override` (a preset or an amount, with a reason)
replaces it and is shown and logged as an override, and the fee never enters the prize pool.
RULES.md scenario 20 through the setup service, the API and the tournament page."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from payouts import selectors as payout_selectors
from tdmanager.errors import DomainError
from tournaments.cashier import rules as cashier_rules
from tournaments.cashier import services as cashier
from tournaments.eventlog.actions import Action
from tournaments.formats.models import TimedEvent
from tournaments.formats.services import multiday, sitandgo
from tournaments.formats.services import series as series_service
from tournaments.house import HouseRules
from tournaments.models import LedgerRow, Tournament, TournamentEvent
from tournaments.setup import services as setup

D = Decimal

SCENARIO_20 = [("1000", "100.00", "1100.00"), ("3000", "300.00", "3300.00"), ("3001", "180.06", "3181.06")]


def values(structure, **kw):
    base = dict(name="Main", start_at="2026-07-09T19:00:00Z", buy_in=D("1000"), starting_stack=30000, structure=structure)
    base.update(kw)
    return base


@pytest.mark.parametrize(("buy_in", "fee", "total"), SCENARIO_20)
def test_scenario_20_the_engine(buy_in, fee, total):
    assert cashier_rules.statutory_fee(D(buy_in)) == D(fee)
    assert D(buy_in) + cashier_rules.entry_fee(D(buy_in)) == D(total)


def test_the_rate_is_flat_on_the_whole_buy_in_and_rounded_half_up():
    assert cashier_rules.statutory_fee(D("3000.00")) == D("300.00")
    assert cashier_rules.statutory_fee(D("3000.01")) == D("180.00")  # 180.0006 → 180.00
    assert cashier_rules.statutory_fee(D("3000.25")) == D("180.02")  # 180.015 → half up
    assert cashier_rules.statutory_fee(D("0.05")) == D("0.01")  # 0.005 → half up
    assert cashier_rules.entry_fee(D("50"), D("20")) == D("20.00")


@pytest.mark.django_db
@pytest.mark.parametrize(("buy_in", "fee", "total"), SCENARIO_20)
def test_scenario_20_through_the_setup_service(structure, actor, buy_in, fee, total):
    t = setup.create_tournament(values(structure, buy_in=D(buy_in)), actor=actor)
    t.refresh_from_db()
    assert (t.fee, t.entry_price) == (D(fee), D(total))
    assert not t.events.filter(action=Action.TOURNAMENTS_FEE_OVERRIDDEN).exists()


@pytest.mark.django_db
def test_scenario_20_monday_daily_event_by_override_is_logged_with_its_reason(structure, actor):
    t = setup.create_tournament(values(structure, name="Monday daily", buy_in=D("50")), actor=actor, fee_preset=cashier_rules.SANREMO_DAILY)
    t.refresh_from_db()
    assert (t.buy_in, t.fee, t.entry_price) == (D("50.00"), D("20.00"), D("70.00"))
    assert HouseRules.of(t).fee_override == D("20.00")
    ev = t.events.get(action=Action.TOURNAMENTS_FEE_OVERRIDDEN)
    assert ev.payload["fee"] == "20.00" and ev.payload["statutory_fee"] == "5.00" and "Allegato 1" in ev.payload["reason"]


@pytest.mark.django_db
def test_a_typed_fee_that_is_not_the_computed_one_is_refused(structure, actor):
    with pytest.raises(DomainError) as exc:
        setup.create_tournament(values(structure, fee=D("50")), actor=actor)
    assert exc.value.code == "fee_is_computed" and exc.value.status == 400
    assert not Tournament.objects.exists()
    t = setup.create_tournament(values(structure, fee=D("100")), actor=actor)  # the computed one: fine
    assert t.fee == D("100")


@pytest.mark.django_db
def test_an_override_amount_needs_a_reason(structure, actor):
    with pytest.raises(DomainError) as exc:
        setup.create_tournament(values(structure, settings={"fee_override": "80"}), actor=actor)
    assert exc.value.code == "fee_override_reason_required" and not Tournament.objects.exists()
    t = setup.create_tournament(values(structure, settings={"fee_override": "80"}), actor=actor, override_reason="EPT rules")
    assert t.fee == D("80.00")
    assert t.events.get(action=Action.TOURNAMENTS_FEE_OVERRIDDEN).payload["reason"] == "EPT rules"


@pytest.mark.django_db
def test_the_fee_follows_a_changed_buy_in_and_an_unrelated_change_leaves_it(structure, actor):
    t = setup.create_tournament(values(structure), actor=actor)
    t = setup.update_tournament(t, {"buy_in": D("5000")}, actor=actor)
    t.refresh_from_db()
    assert t.fee == D("300.00")
    legacy = Tournament.objects.create(name="Old", start_at=t.start_at, buy_in=D("100"), fee=D("5"), starting_stack=1000, status=Tournament.REGISTERING)
    legacy = setup.update_tournament(legacy, {"name": "Old, renamed", "fee": D("5")}, actor=actor)
    legacy.refresh_from_db()
    assert (legacy.name, legacy.fee) == ("Old, renamed", D("5.00"))  # a name change is not a fee change


@pytest.mark.django_db
def test_the_fee_never_enters_the_prize_pool(make_tournament, make_person, cashier_actor):
    t = make_tournament(buy_in=D("3001"), fee=cashier_rules.statutory_fee(D("3001")), cash_limit=D("10000"))
    for _i in range(3):
        cashier.register(t, make_person(), method=LedgerRow.CARD, actor=cashier_actor)
    money = payout_selectors.money_in(t)
    assert money == {"prize": D("9003.00"), "fee": D("540.18"), "side": D("0")}
    assert payout_selectors.prize_pool(t) == D("9003.00")


# --- the API -----------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(("buy_in", "fee", "total"), SCENARIO_20)
def test_scenario_20_through_the_api(api, director, structure, buy_in, fee, total):
    r = api(director).post(
        "/api/v1/tournaments/",
        {"name": "M", "start_at": "2026-07-09T19:00:00Z", "buy_in": buy_in, "starting_stack": 30000, "structure": structure.pk},
        format="json",
    )
    assert r.status_code == 201, r.json()
    body = r.json()
    assert (body["fee"], body["entry_price"], body["statutory_fee"], body["fee_is_override"]) == (fee, total, fee, False)


@pytest.mark.django_db
def test_the_api_shows_and_logs_the_daily_override(api, director, structure):
    c = api(director)
    r = c.post(
        "/api/v1/tournaments/",
        {
            "name": "Monday",
            "start_at": "2026-07-06T20:30:00Z",
            "buy_in": "50",
            "fee_preset": "SANREMO_DAILY",
            "starting_stack": 10000,
            "structure": structure.pk,
        },
        format="json",
    )
    assert r.status_code == 201, r.json()
    body = r.json()
    assert (body["fee"], body["entry_price"], body["statutory_fee"], body["fee_is_override"]) == ("20.00", "70.00", "5.00", True)
    assert body["settings"]["fee_override"] == "20.00"
    events = c.get(f"/api/v1/tournaments/{body['id']}/events/").json()
    assert Action.TOURNAMENTS_FEE_OVERRIDDEN.value in [e["action"] for e in events]


@pytest.mark.django_db
def test_the_api_refuses_a_typed_fee_and_an_override_without_reason(api, director, structure):
    c = api(director)
    base = {"name": "M", "start_at": "2026-07-09T19:00:00Z", "buy_in": "1000", "starting_stack": 30000, "structure": structure.pk}
    r = c.post("/api/v1/tournaments/", {**base, "fee": "60"}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "fee_is_computed"
    r = c.post("/api/v1/tournaments/", {**base, "settings": {"fee_override": "60"}}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "fee_override_reason_required"
    r = c.post("/api/v1/tournaments/", {**base, "settings": {"fee_override": "-1"}}, format="json")
    assert r.status_code == 400
    r = c.post("/api/v1/tournaments/", {**base, "fee_preset": "NONSENSE"}, format="json")
    assert r.status_code == 400
    assert not Tournament.objects.exists()
    r = c.post("/api/v1/tournaments/", {**base, "settings": {"fee_override": "60"}, "override_reason": "international rules"}, format="json")
    assert r.status_code == 201 and (r.json()["fee"], r.json()["fee_is_override"]) == ("60.00", True)


@pytest.mark.django_db
def test_the_page_computes_the_fee_and_shows_an_override(client, director, structure):
    client.force_login(director)
    form = {
        "name": "Page",
        "start_at": "2026-07-09T19:00",
        "game": "NLHE",
        "format": "FREEZEOUT",
        "currency": "EUR",
        "buy_in": "3001",
        "starting_stack": "30000",
        "table_size": "9",
        "min_players": "2",
        "structure": structure.pk,
        "late_reg_end": "END_OF_LEVEL",
        "max_entries_per_player": "1",
        "rebuy_stack_threshold": "0",
        "addon_max": "1",
        "rule_set": "TDA",
        "fee_preset": "STATUTORY",
        "rebuy_fee": "0",
        "addon_fee": "0",
    }
    r = client.post("/tournaments/new/", form)
    assert r.status_code == 302, r.context["form"].errors
    t = Tournament.objects.get(name="Page")
    assert t.fee == D("180.06")
    assert "fee override" not in client.get(f"/tournaments/{t.pk}/").content.decode()
    r = client.post("/tournaments/new/", {**form, "name": "Daily", "buy_in": "50", "fee_preset": "SANREMO_DAILY"})
    assert r.status_code == 302
    daily = Tournament.objects.get(name="Daily")
    assert daily.fee == D("20.00")
    page = client.get(f"/tournaments/{daily.pk}/").content.decode()
    assert "fee override: the statutory fee is €5.00" in page
    r = client.post("/tournaments/new/", {**form, "name": "Custom", "fee_preset": "CUSTOM", "fee_override": "99"})
    assert r.status_code == 200 and "give the reason" in r.content.decode()
    assert not Tournament.objects.filter(name="Custom").exists()


@pytest.mark.django_db
def test_a_scheduled_monday_daily_event_carries_its_fee_as_a_logged_override(structure, actor):
    series = series_service.create_series(name="Daily", actor=actor)
    monday = series_service.schedule_daily(series, date(2026, 7, 6), structure=structure, starting_stack=10000, actor=actor)
    friday = series_service.schedule_daily(series, date(2026, 7, 10), structure=structure, starting_stack=10000, actor=actor)
    assert (monday.buy_in, monday.fee, HouseRules.of(monday).fee_override) == (D("50"), D("20"), D("20"))
    assert monday.events.filter(action=Action.TOURNAMENTS_FEE_OVERRIDDEN).count() == 1
    assert (friday.fee, HouseRules.of(friday).fee_override) == (D("20"), None)  # 10 % of 200: statutory
    assert not friday.events.filter(action=Action.TOURNAMENTS_FEE_OVERRIDDEN).exists()


@pytest.mark.django_db
def test_a_formats_typed_fee_that_is_not_statutory_is_kept_as_a_logged_override(structure, actor):
    statutory = sitandgo.create_sit_and_go(name="S&G", buy_in=D("50"), fee=D("5"), starting_stack=5000, structure=structure, actor=actor)
    flat = sitandgo.create_sit_and_go(name="S&G flat", buy_in=D("50"), fee=D("10"), starting_stack=5000, structure=structure, actor=actor)
    assert HouseRules.of(statutory).fee_override is None
    assert not statutory.events.filter(action=Action.TOURNAMENTS_FEE_OVERRIDDEN).exists()
    assert HouseRules.of(flat).fee_override == D("10") and HouseRules.of(flat).sng_tables == 1
    assert flat.events.get(action=Action.TOURNAMENTS_FEE_OVERRIDDEN).payload["statutory_fee"] == "5.00"


@pytest.mark.django_db
def test_a_multiday_events_non_statutory_fee_is_an_override_on_every_day(structure, actor):
    start = timezone.now() + timedelta(days=1)
    event = multiday.create_event(
        name="Main",
        flights=[{"label": "1A", "start_at": start}],
        day2_start_at=start + timedelta(days=1),
        buy_in=D("500"),
        fee=D("40"),
        starting_stack=30000,
        structure=structure,
        actor=actor,
    )
    days = [event.day2, *(f.tournament for f in event.flights.all())]
    assert [HouseRules.of(t).fee_override for t in days] == [D("40"), D("40")]
    assert TournamentEvent.objects.filter(action=Action.TOURNAMENTS_FEE_OVERRIDDEN).count() == 2


@pytest.mark.django_db
def test_the_api_changes_the_fee_by_preset_and_the_money_lock_still_holds(api, director, structure):
    c = api(director)
    r = c.post(
        "/api/v1/tournaments/",
        {"name": "Thu", "start_at": "2026-07-09T20:30:00Z", "buy_in": "50", "starting_stack": 10000, "structure": structure.pk},
        format="json",
    )
    tid = r.json()["id"]
    assert r.json()["fee"] == "5.00"
    r = c.patch(f"/api/v1/tournaments/{tid}/", {"fee_preset": "SANREMO_DAILY"}, format="json")
    assert r.status_code == 200 and (r.json()["fee"], r.json()["fee_is_override"]) == ("20.00", True)
    r = c.patch(f"/api/v1/tournaments/{tid}/", {"fee_preset": "STATUTORY"}, format="json")
    assert r.status_code == 200 and (r.json()["fee"], r.json()["fee_is_override"]) == ("5.00", False)
    assert "fee_override" not in r.json()["settings"]
    assert c.post(f"/api/v1/tournaments/{tid}/open-registration/").status_code == 200
    r = c.patch(f"/api/v1/tournaments/{tid}/", {"fee_preset": "SANREMO_DAILY"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "money_fields_locked"  # FMT-01: a reason once registration opens
    r = c.patch(f"/api/v1/tournaments/{tid}/", {"fee_preset": "SANREMO_DAILY", "override_reason": "daily event"}, format="json")
    assert r.status_code == 200 and r.json()["fee"] == "20.00"
    assert TournamentEvent.objects.filter(tournament_id=tid, action=Action.TOURNAMENTS_FEE_OVERRIDDEN).count() == 2


@pytest.mark.django_db
def test_a_negative_typed_fee_is_refused_by_the_model_not_replaced(structure, actor):
    with pytest.raises(DomainError) as exc:
        setup.create_tournament(values(structure, fee=D("-1")), actor=actor)
    assert exc.value.code == "invalid" and "fee" in exc.value.extra["fields"]
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_a_timed_event_created_on_its_page_keeps_a_non_statutory_fee_as_an_override(client, director, structure):
    client.force_login(director)
    r = client.post(
        "/formats/timed/new/",
        {
            "name": "Qualifier",
            "start_at": "2026-07-09T19:00",
            "buy_in": "20",
            "fee": "5",
            "starting_stack": "5000",
            "structure": structure.pk,
            "minutes": "120",
            "end_condition": TimedEvent.END_CONDITIONS[0][0],
            "chip_tie": "SHARE",
            "field_cap": "8",
        },
    )
    assert r.status_code == 302
    t = Tournament.objects.get(name="Qualifier")
    assert (t.fee, HouseRules.of(t).fee_override) == (D("5.00"), D("5"))
    assert t.events.get(action=Action.TOURNAMENTS_FEE_OVERRIDDEN).payload["statutory_fee"] == "2.00"


@pytest.mark.django_db
def test_reg03_a_timed_event_opens_for_registration_logged_with_its_fee_override_in_the_directors_name(structure, actor):
    from tournaments.formats.services import timed

    start = timezone.now() + timedelta(days=3)
    t = timed.create_timed_event(
        name="Qualifier", start_at=start, buy_in=D("20"), fee=D("5"), starting_stack=5000, structure=structure, actor=actor, minutes=120, field_cap=8
    )
    t = Tournament.objects.get(pk=t.pk)
    assert (t.name, t.format, t.status, t.start_at, t.structure_id, t.field_cap) == (
        "Qualifier",
        Tournament.TIMED,
        Tournament.REGISTERING,
        start,
        structure.pk,
        8,
    )
    created = t.events.get(action=Action.TOURNAMENTS_TOURNAMENT_CREATED)
    assert (created.actor, created.payload["name"]) == (actor.user, "Qualifier")
    # REG-03: 5 on a buy-in of 20 is not the statutory 2: an override, logged by the director.
    overridden = t.events.get(action=Action.TOURNAMENTS_FEE_OVERRIDDEN)
    assert (overridden.actor, overridden.payload["statutory_fee"], HouseRules.of(t).fee_override) == (actor.user, "2.00", D("5"))


@pytest.mark.django_db
def test_reg03_a_heads_up_event_keeps_its_typed_fee_as_a_logged_override(structure, actor):
    from tournaments.formats.services import headsup

    bracket = headsup.create_headsup_event(
        name="Heads-up", start_at=None, buy_in=D("100"), fee=D("15"), starting_stack=10000, structure=structure, actor=actor, size=8, paid_players=2
    )
    t = Tournament.objects.get(pk=bracket.tournament_id)
    assert (t.format, t.status, t.table_size, t.field_cap) == (Tournament.HEADS_UP, Tournament.REGISTERING, 2, 8)
    # REG-03: 15 on a buy-in of 100 is not the statutory 10: an override, logged by the director.
    overridden = t.events.get(action=Action.TOURNAMENTS_FEE_OVERRIDDEN)
    assert (overridden.actor, overridden.payload["statutory_fee"], HouseRules.of(t).fee_override) == (actor.user, "10.00", D("15"))
