"""Issue #29: the defaults RULES.md names, built. C25 counts the players when the penalty is given
(TDA 71-A) under every rule set; C26 gives at most 4 rounds under 003 and 004 and none under TDA
(PEN-02, scenario 26) unless the house sets ``max_rounds``; C13 pays a satellite's remainder to
the first place without a seat and C14 pays seats from the gross (003 Art. 6)."""

import pytest

from payouts.models import SatelliteLink
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.floor import services as floor
from tournaments.house import HouseRules
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("rule_set, rounds", [("TDA", 0), ("SANREMO_003", 4), ("MONTEGALDA_004", 4), ("HEADS_UP_001", 0)])
def test_every_rule_set_counts_at_issue_and_only_003_and_004_cap_the_rounds(rule_set, rounds):
    rules = HouseRules.from_settings({}, rule_set=rule_set)
    assert (rules.max_rounds, rules.count_players_at) == (rounds, "ISSUE")  # 0: no maximum
    assert (rules.satellite_remainder_rule, rules.satellite_prize_base) == ("NEXT_PLACE", "GROSS")


def _six_at_a_table(make_tournament, make_person, director, **kw):
    actor = Actor(director, "test")
    t = make_tournament(table_size=6, **kw)
    entries = [cashier.register(t, make_person(), method="CASH", actor=actor).entry for _ in range(6)]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    return t, entries, actor


def test_a_sanremo_penalty_counts_the_six_players_at_the_table_when_it_is_given(make_tournament, make_person, director):
    t, entries, actor = _six_at_a_table(make_tournament, make_person, director, rule_set="SANREMO_003")
    p = floor.issue_penalty(t, entries[0], kind="MISSED_ROUNDS", reason_code="ABUSIVE_CONDUCT", rounds=2, actor=actor)
    assert (p.players_at_table, p.hands_total) == (6, 12)  # 6 players × 2 rounds, fixed now


@pytest.mark.parametrize("rule_set", ["SANREMO_003", "MONTEGALDA_004"])
def test_a_tda_event_accepts_a_fifth_round_and_a_003_or_004_event_refuses_it(make_tournament, make_person, director, rule_set):
    # Scenario 26: «a 5-round missed-hands penalty in a 003/004 event → rejected (max 4); accepted in TDA mode».
    t, entries, actor = _six_at_a_table(make_tournament, make_person, director)
    assert floor.issue_penalty(t, entries[0], kind="MISSED_ROUNDS", reason_code="ABUSIVE_CONDUCT", rounds=5, actor=actor).hands_total == 30
    capped, others, _actor = _six_at_a_table(make_tournament, make_person, director, rule_set=rule_set)
    with pytest.raises(floor.FloorError) as err:
        floor.issue_penalty(capped, others[0], kind="MISSED_ROUNDS", reason_code="ABUSIVE_CONDUCT", rounds=5, actor=actor)
    assert err.value.code == "too_many_rounds"
    assert floor.issue_penalty(capped, others[1], kind="MISSED_ROUNDS", reason_code="ABUSIVE_CONDUCT", rounds=4, actor=actor).hands_total == 24


def test_a_house_max_rounds_caps_a_tda_event(make_tournament, make_person, director):
    t, entries, actor = _six_at_a_table(make_tournament, make_person, director, settings={"max_rounds": 4})
    with pytest.raises(floor.FloorError) as err:
        floor.issue_penalty(t, entries[0], kind="MISSED_ROUNDS", reason_code="ABUSIVE_CONDUCT", rounds=5, actor=actor)
    assert err.value.code == "too_many_rounds"
    assert floor.issue_penalty(t, entries[0], kind="MISSED_ROUNDS", reason_code="ABUSIVE_CONDUCT", rounds=4, actor=actor).hands_total == 24


def test_a_satellite_linked_without_naming_them_takes_the_houses_remainder_rule_and_prize_base(api, director, make_tournament):
    target = make_tournament(name="Main Event", buy_in=1000, fee=100)
    sat = make_tournament(name="Satellite", buy_in=100, fee=10)
    r = api(director).patch(
        f"/api/v1/tournaments/{sat.pk}/", {"settings": {"satellite_remainder_rule": "SHARED", "satellite_prize_base": "NET"}}, format="json"
    )
    assert r.status_code == 200, r.data
    r = api(director).post(f"/api/v1/tournaments/{sat.pk}/payouts/satellite/", {"target": target.pk}, format="json")
    assert r.status_code == 201
    link = SatelliteLink.objects.get(satellite=sat)
    assert (link.remainder_rule, link.prize_base) == ("SHARED", "NET")
    plain = make_tournament(name="Satellite 2", buy_in=100, fee=10)
    api(director).post(f"/api/v1/tournaments/{plain.pk}/payouts/satellite/", {"target": target.pk}, format="json")
    assert SatelliteLink.objects.values_list("remainder_rule", "prize_base").get(satellite=plain) == ("NEXT_PLACE", "GROSS")
