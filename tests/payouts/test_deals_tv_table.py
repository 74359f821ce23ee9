"""PAY-09 / ROLE-08 / SEAT-07: a deal is written per finishing place, progressive («non
paritaria»), at the final table only; the director marks the TV table and puts the event on the
air; while it streams no deal is proposed or recorded, and an extra break is allowed only when
the TV table is the final table."""

from decimal import Decimal

import pytest

from payouts import services
from payouts.models import Deal
from seating import services as seating
from seating.models import Table
from tdmanager.errors import DomainError
from tests.conftest import client_for
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.house import HouseRules
from tournaments.models import Clock, Entry, TournamentEvent
from tournaments.setup import lifecycle, streaming

from .deal_stacks import stacks_in_play

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def final_three(make_tournament, make_person, cashier_actor, actor):
    """20 entries × €100 = €2,000; table 1000/600/400 locked; 17 out, 3 left."""
    t = make_tournament(buy_in=D("100"), fee=D("10"))
    entries = [cashier.register(t, make_person(), method="CARD", actor=cashier_actor).entry for _ in range(20)]
    services.edit_payout_table(t, [{"place": i, "amount": a} for i, a in enumerate(["1000", "600", "400"], 1)], actor=actor)
    services.lock_payout_table(t, actor=actor)
    for place, e in zip(range(20, 3, -1), entries[3:]):
        e.status, e.place = Entry.BUSTED, place
        e.save()
    return t, entries[:3]


def stacks_of(players, chips=(500000, 300000, 200000)):
    return stacks_in_play(players, chips)


class TestDealByPlace:
    def test_a_deal_written_per_finishing_place_pays_by_where_each_finishes(self, final_three, actor):
        t, players = final_three
        deal = services.propose_deal(t, stacks_of(players), method=Deal.CUSTOM, by_place=["900", "620", "480"], actor=actor)
        assert deal.by_place == ["900.00", "620.00", "480.00"] and deal.by_player == {}
        for e in players:
            services.accept_deal(deal, e, actor=actor)
        services.approve_deal(deal, actor=actor)
        from payouts import selectors as sel

        assert [str(v) for v in sel.place_values(sel.table_prizes(t))] == ["900.00", "620.00", "480.00"]

    @pytest.mark.parametrize(
        "amounts, code",
        [
            (["700", "700", "600"], "not_strictly_decreasing"),  # an equal split of two places: «non paritaria»
            (["600", "800", "600"], "not_strictly_decreasing"),  # a lower place paid more than a higher one
            (["1000", "600", "500"], "wrong_total"),
            (["1000", "1000"], "amounts_required"),  # one amount per place in play
        ],
    )
    def test_a_deal_that_is_not_progressive_or_does_not_add_up_is_refused(self, final_three, actor, amounts, code):
        t, players = final_three
        with pytest.raises(DomainError) as e:
            services.propose_deal(t, stacks_of(players), method=Deal.CUSTOM, by_place=amounts, actor=actor)
        assert e.value.code == code and 400 <= e.value.status < 500
        assert not Deal.objects.filter(tournament=t).exists()

    def test_the_api_takes_a_deal_by_place(self, final_three, director):
        t, players = final_three
        r = client_for(director).post(
            f"/api/v1/tournaments/{t.pk}/payouts/deals/", {"stacks": stacks_of(players), "method": "CUSTOM", "by_place": ["900", "620", "480"]}, format="json"
        )
        assert r.status_code == 201 and r.json()["by_place"] == ["900.00", "620.00", "480.00"]
        r = client_for(director).post(
            f"/api/v1/tournaments/{t.pk}/payouts/deals/", {"stacks": stacks_of(players), "method": "CUSTOM", "by_place": ["700", "700", "600"]}, format="json"
        )
        assert r.status_code == 409 and r.json()["code"] == "deal_open"


class TestStreaming:
    def test_while_streaming_no_deal_is_proposed_accepted_or_approved(self, final_three, actor):
        t, players = final_three
        deal = services.propose_deal(t, stacks_of(players), method=Deal.CHIP_CHOP, actor=actor)
        services.accept_deal(deal, players[0], actor=actor)
        streaming.set_streaming_live(t, True, actor=actor)
        t.refresh_from_db()
        assert HouseRules.of(t).streaming_live
        for call in (lambda: services.accept_deal(deal, players[1], actor=actor), lambda: services.approve_deal(deal, actor=actor)):
            with pytest.raises(DomainError) as e:
                call()
            assert e.value.code == "deal_streaming" and e.value.status == 409
        services.cancel_deal(deal, actor=actor)
        with pytest.raises(DomainError) as e:
            services.propose_deal(t, stacks_of(players), method=Deal.CHIP_CHOP, actor=actor)
        assert e.value.code == "deal_streaming"
        assert services.deal_options(t, stacks_of(players))["streaming_live"] is True
        streaming.set_streaming_live(t, False, actor=actor)
        assert services.propose_deal(t, stacks_of(players), method=Deal.CHIP_CHOP, actor=actor).status == Deal.PROPOSED
        actions = list(TournamentEvent.objects.filter(tournament=t, action__startswith="tournaments.streaming").values_list("action", flat=True))
        assert actions == ["tournaments.streaming.started", "tournaments.streaming.stopped"]

    def test_while_streaming_the_calculator_and_each_refusal_say_why(self, final_three, actor):
        t, players = final_three
        deal = services.propose_deal(t, stacks_of(players), method=Deal.CHIP_CHOP, actor=actor)
        streaming.set_streaming_live(t, True, actor=actor)
        t.refresh_from_db()
        said = "The TV table is streaming live: no deal can be discussed or recorded (ROLE-08)."
        assert services.deal_options(t, stacks_of(players))["policy"] == said
        for call in (
            lambda: services.accept_deal(deal, players[0], actor=actor),
            lambda: services.approve_deal(deal, actor=actor),
            lambda: services.propose_deal(t, stacks_of(players), method=Deal.ICM, actor=actor),
        ):
            with pytest.raises(DomainError) as e:
                call()
            assert (e.value.code, str(e.value.message)) == ("deal_streaming", said)

    def test_the_director_toggles_streaming_through_the_api_and_a_deal_is_refused_with_deal_streaming(self, final_three, director, floor_user):
        t, players = final_three
        assert client_for(floor_user).post(f"/api/v1/tournaments/{t.pk}/streaming/", {"live": True}, format="json").status_code == 403
        r = client_for(director).post(f"/api/v1/tournaments/{t.pk}/streaming/", {"live": True}, format="json")
        assert r.status_code == 200
        r = client_for(director).post(f"/api/v1/tournaments/{t.pk}/payouts/deals/", {"stacks": stacks_of(players), "method": "ICM"}, format="json")
        assert r.status_code == 409 and r.json()["code"] == "deal_streaming"
        r = client_for(director).post(f"/api/v1/tournaments/{t.pk}/streaming/", {"live": True}, format="json")
        assert r.status_code == 409 and r.json()["code"] == "streaming_unchanged"

    def test_the_tournament_page_toggle(self, final_three, director):
        from django.test import Client

        t, _players = final_three
        browser = Client()
        browser.force_login(director)
        assert 'value="streaming-on"' in browser.get(f"/tournaments/{t.pk}/").content.decode()
        browser.post(f"/tournaments/{t.pk}/", {"op": "streaming-on"})
        t.refresh_from_db()
        assert HouseRules.of(t).streaming_live
        assert 'value="streaming-off"' in browser.get(f"/tournaments/{t.pk}/").content.decode()


@pytest.fixture
def two_tables(make_tournament, make_person, cashier_actor, actor):
    """11 players at 9-max: two tables, a final table of 9 once two are out; clock running."""
    t = make_tournament(buy_in=D("100"), fee=D("0"))
    for _ in range(11):
        cashier.register(t, make_person(), method="CARD", actor=cashier_actor)
    services.lock_payout_table(t, actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    t.refresh_from_db()
    if Clock.objects.get(tournament=t).status != Clock.RUNNING:
        clock_services.start_clock(t, actor=actor)
    return t


def test_the_tv_table_is_marked_by_the_director_only(two_tables, director, floor_user):
    t = two_tables
    number = Table.objects.filter(tournament=t, in_play=True).order_by("number").first().number
    r = client_for(floor_user).post(f"/api/v1/tournaments/{t.pk}/tables/{number}/tv/", {"tv": True}, format="json")
    assert r.status_code == 403
    r = client_for(director).post(f"/api/v1/tournaments/{t.pk}/tables/{number}/tv/", {"tv": True, "reason": "cameras"}, format="json")
    assert r.status_code == 200
    tables = client_for(director).get(f"/api/v1/tournaments/{t.pk}/tables/").json()["tables"]
    assert [x["number"] for x in tables if x["tv"]] == [number]


def test_while_streaming_an_extra_break_needs_the_tv_table_to_be_the_final_table(two_tables, actor, director):
    t = two_tables
    first = Table.objects.filter(tournament=t, in_play=True).order_by("number").first().number
    seating.set_tv_table(t, first, True, actor=actor)
    streaming.set_streaming_live(t, True, actor=actor)
    r = client_for(director).post(f"/api/v1/tournaments/{t.pk}/clock/insert-break/", {"minutes": 5, "reason": "TV"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "extra_break_streaming"
    # Two players out: the final table of 9 is formed; the director marks it as the TV table.
    for _ in range(2):
        seating.record_bust(t, [t.entries.filter(status=Entry.ACTIVE).order_by("-number").first()], actor=actor)
    final = Table.objects.get(tournament=t, in_play=True, is_final=True)
    seating.set_tv_table(t, final.number, True, actor=Actor(director))
    assert Table.objects.filter(tournament=t, tv=True).count() == 1
    r = client_for(director).post(f"/api/v1/tournaments/{t.pk}/clock/insert-break/", {"minutes": 5, "reason": "TV final table"}, format="json")
    assert r.status_code == 200, r.content
