"""The floor names who knocked a player out in a bounty event (PAY-02), through the API:
``POST /api/v1/tournaments/<id>/busts/`` with ``eliminators``, answered with what the
knockouts won; the refusals name the field; undoing a bust whose bounty has passed on is a 409.

Events of real sales: each buy-in €50 to the pool, €50 bounty, €10 fee; a PKO pays 50 % of a
bounty in cash (rounded down to €1, the default unit) and adds the rest to the eliminator's own.
Every expected amount is worked out by hand in the comments."""

from decimal import Decimal

import pytest

from payouts import selectors as payouts_selectors
from payouts import services as payouts_services
from payouts.models import BountyAward, BountyHead
from seating.models import Seat
from tests.conftest import make_user
from tests.payouts.bounty_setup import bounty_event
from tournaments.cashier import services as cashier
from tournaments.models import Entry
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db
D = Decimal


def busts_url(t):
    return f"/api/v1/tournaments/{t.pk}/busts/"


def status(entry) -> str:
    return Entry.objects.get(pk=entry.pk).status


def test_a_bust_with_its_eliminator_answers_what_the_knockout_won(api, floor_user, make_tournament, make_person, cashier_actor, actor):
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor)
    r = api(floor_user).post(busts_url(t), {"entries": [{"entry": e[1].pk, "eliminators": [e[0].pk]}]}, format="json")
    assert r.status_code == 201, r.json()
    bust = r.json()["busts"][0]
    # PKO: e1's €50 bounty → €25 cash to e0 and €25 onto e0's own bounty
    assert r.json()["bounties"] == [
        {
            "bust": bust["id"],
            "kind": "KNOCKOUT",
            "winner": e[0].pk,
            "entry_number": e[0].number,
            "name": e[0].person.full_name,
            "knocked_out": e[1].pk,
            "cash": "25.00",
            "added": "25.00",
            "envelope": None,
            "pot_share": None,
        }
    ]
    assert BountyHead.objects.get(entry=e[0]).amount == D("75")
    # the bust list names the eliminator too
    listed = api(floor_user).get(busts_url(t)).json()
    assert [(k["name"], k["cash"]) for k in listed[0]["knocked_out_by"]] == [(e[0].person.full_name, "25.00")]


def test_the_object_form_and_the_fast_form_are_the_same_knockout(api, floor_user, make_tournament, make_person, cashier_actor, actor):
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, bounty="FIXED")
    client = api(floor_user)
    r = client.post(busts_url(t), {"entries": [{"entry": e[1].pk, "eliminators": [{"entry": e[0].pk}]}], "reason": "river"}, format="json")
    assert r.status_code == 201
    # fixed: the whole €50 in cash, nothing added
    assert [(k["winner"], k["cash"], k["added"]) for k in r.json()["bounties"]] == [(e[0].pk, "50.00", "0.00")]


def test_a_bust_without_its_eliminator_is_refused_naming_the_field(api, floor_user, make_tournament, make_person, cashier_actor, actor):
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor)
    client = api(floor_user)
    for item in ({"entry": e[1].pk}, {"entry": e[1].pk, "eliminators": []}, {"entry": e[1].pk, "eliminators": None}):
        r = client.post(busts_url(t), {"entries": [item]}, format="json")
        assert r.status_code == 400 and r.json()["code"] == "eliminator_required" and r.json()["field"] == "eliminators", r.json()
        assert e[1].person.first_name in r.json()["detail"]
    assert status(e[1]) == Entry.ACTIVE and not BountyAward.objects.filter(tournament=t).exists()


@pytest.mark.parametrize(
    "named",
    [
        "5",
        5,
        {"entry": 5},
        [True],
        ["5"],
        [5.0],
        [0],
        [-3],
        [2**63],
        [{"entry": "5"}],
        [{"player": 5}],
        [{"entry": 5, "pot_share": -1}],
        [{"entry": 5, "pot_share": 0}],
        [{"entry": 5, "pot_share": 1.5}],
        [{"entry": 5, "pot_share": "100"}],
        [{"entry": 5, "pot_share": True}],
        [{"entry": 5, "share": 100}],
        [[5]],
        [None],
        list(range(1, 11)),  # ten: more than can sit at a table
    ],
    ids=range(20),
)
def test_a_bad_shape_of_eliminators_is_refused_naming_the_field(api, floor_user, make_tournament, make_person, cashier_actor, actor, named):
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor)
    r = api(floor_user).post(busts_url(t), {"entries": [{"entry": e[1].pk, "eliminators": named}]}, format="json")
    assert r.status_code == 400
    body = r.json()
    assert body["code"] == "invalid" and "eliminators" in body["fields"]["entries"]["0"], body
    assert "Eliminators" in body["detail"]
    assert status(e[1]) == Entry.ACTIVE


def test_an_eliminator_who_cannot_have_won_the_pot_is_refused(api, floor_user, make_tournament, make_person, cashier_actor, actor):
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor)
    client = api(floor_user)
    assert client.post(busts_url(t), {"entries": [{"entry": e[3].pk, "eliminators": [e[0].pk]}]}, format="json").status_code == 201
    for named, code in (
        ([e[3].pk], "eliminator_not_playing"),  # out already
        ([e[1].pk], "self_knockout"),
        ([e[0].pk, e[0].pk], "duplicate_eliminator"),
        ([987654321], "eliminator_not_playing"),  # no such entry here
    ):
        r = client.post(busts_url(t), {"entries": [{"entry": e[1].pk, "eliminators": named}]}, format="json")
        assert (r.status_code, r.json()["code"], r.json().get("field")) == (400, code, "eliminators"), r.json()
    assert status(e[1]) == Entry.ACTIVE


def test_a_split_pot_shares_the_bounty_by_the_chips_each_won(api, floor_user, make_tournament, make_person, cashier_actor, actor):
    # Fixed €50 split by the pot 2,000 : 1,000 → 33.33… and 16.66…, rounded down to €1: 33 and
    # 16; the €1 left goes to the first listed (from the button's left): 34 and 16.
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, bounty="FIXED", bounty_split="POT")
    body = {"entries": [{"entry": e[1].pk, "eliminators": [{"entry": e[2].pk, "pot_share": 2000}, {"entry": e[3].pk, "pot_share": 1000}]}]}
    r = api(floor_user).post(busts_url(t), body, format="json")
    assert r.status_code == 201, r.json()
    assert [(k["winner"], k["cash"], k["pot_share"]) for k in r.json()["bounties"]] == [(e[2].pk, "34.00", "2000.00"), (e[3].pk, "16.00", "1000.00")]


def test_the_last_bust_answers_the_winners_own_bounty_too(api, floor_user, make_tournament, make_person, cashier_actor, actor):
    # PKO of 2: e1's €50 → 25 cash to e0, 25 onto e0's bounty (75); e0 alone wins his own 75.
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, players=2)
    r = api(floor_user).post(busts_url(t), {"entries": [{"entry": e[1].pk, "eliminators": [e[0].pk]}]}, format="json")
    assert r.status_code == 201 and r.json()["winner"] == e[0].pk
    assert [(k["kind"], k["bust"] is None, k["winner"], k["cash"], k["added"]) for k in r.json()["bounties"]] == [
        ("KNOCKOUT", False, e[0].pk, "25.00", "25.00"),
        ("OWN", True, e[0].pk, "75.00", "0.00"),
    ]


def test_a_bust_in_an_event_without_bounties_answers_as_before(api, floor_user, make_tournament, make_person, cashier_actor, actor):
    t = make_tournament()
    e = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(4)]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    client = api(floor_user)
    r = client.post(busts_url(t), {"entries": [{"entry": e[1].pk}]}, format="json")
    assert r.status_code == 201 and set(r.json()) == {"moves", "broken", "final_table", "halted", "busts", "winner"}
    # an eliminator named anyway changes nothing: no bounty here
    r = client.post(busts_url(t), {"entries": [{"entry": e[2].pk, "eliminators": [e[0].pk]}]}, format="json")
    assert r.status_code == 201 and "bounties" not in r.json()
    assert "knocked_out_by" not in client.get(busts_url(t)).json()[0]
    assert not BountyAward.objects.filter(tournament=t).exists()


def test_undoing_a_bust_whose_bounty_has_passed_on_is_a_409(api, floor_user, director, make_tournament, make_person, cashier_actor, actor):
    # 18 players at two tables of 9. A player at table 1 is recorded as knocked out by one at
    # table 2 (the director lets it count, with a reason), who is then knocked out himself at
    # table 2: table 1 has not changed, so seating would undo the first bust, but the bounty it
    # gave has passed on.
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, players=18)
    at = {entry: table for entry, table in Seat.objects.filter(tournament=t).values_list("entry_id", "table__number")}
    one = [x for x in e if at[x.pk] == 1]
    two = [x for x in e if at[x.pk] == 2]
    client = api(floor_user)
    body = {"entries": [{"entry": one[0].pk, "eliminators": [two[0].pk]}], "override_reason": "moved from table 2 before the hand"}
    first = api(director).post(busts_url(t), body, format="json")
    assert first.status_code == 201, first.json()
    r = client.post(busts_url(t), {"entries": [{"entry": two[0].pk, "eliminators": [two[1].pk]}]}, format="json")
    assert r.status_code == 201, r.json()
    bust = first.json()["busts"][0]["id"]
    r = client.post(f"{busts_url(t)}{bust}/undo/", {"reason": "wrong eliminator"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "bounty_passed_on", r.json()
    assert two[0].person.full_name in r.json()["detail"]
    assert status(one[0]) == Entry.BUSTED  # nothing undone


def test_a_mystery_knockout_before_the_envelopes_are_set_up_is_a_409(api, floor_user, make_tournament, make_person, cashier_actor, actor):
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, bounty="MYSTERY", mystery_from="START")
    r = api(floor_user).post(busts_url(t), {"entries": [{"entry": e[1].pk, "eliminators": [e[0].pk]}]}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "no_envelopes", r.json()
    assert status(e[1]) == Entry.ACTIVE


def test_a_mystery_knockout_answers_the_envelope_drawn(api, floor_user, make_tournament, make_person, cashier_actor, actor):
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, bounty="MYSTERY", mystery_from="START")
    envelopes = ["100.00", "50.00", "30.00", "20.00"]  # 4 × €50 taken in
    payouts_services.set_envelopes(t, envelopes, actor=actor)
    r = api(floor_user).post(busts_url(t), {"entries": [{"entry": e[1].pk, "eliminators": [e[0].pk]}]}, format="json")
    assert r.status_code == 201, r.json()
    (won,) = r.json()["bounties"]
    assert won["envelope"] in (1, 2, 3, 4) and won["cash"] == envelopes[won["envelope"] - 1] and won["added"] == "0.00"


def test_money_given_back_from_a_set_bag_waits_for_the_envelopes_to_be_set_again(api, floor_user, director, make_tournament, make_person, cashier_actor, actor):
    """Found by the simulated days (day seeds 600015, 600022): envelopes set on 6 × €25, then an
    entry refunded (€125 left) and two knockouts drew €148 of envelopes: €23 paid from nowhere. A
    draw waits until the director sets the envelopes up again on the money taken in, and once an
    envelope is drawn no bounty part is given back."""
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, players=5, bounty="MYSTERY", mystery_from="START")
    payouts_services.set_envelopes(t, ["100.00", "80.00", "70.00"], actor=actor)  # 5 × €50
    r = api(director).post("/api/v1/cashier/refund/", {"entry": e[4].pk, "reason": "left before a hand"}, format="json")
    assert r.status_code == 201, r.json()
    r = api(floor_user).post(busts_url(t), {"entries": [{"entry": e[1].pk, "eliminators": [e[0].pk]}]}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "envelopes_over_bag", r.json()
    assert status(e[1]) == Entry.ACTIVE
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/bounties/envelopes/", {"envelopes": ["100.00", "80.00", "70.00"]}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "envelopes_total", r.json()
    payouts_services.set_envelopes(t, ["100.00", "60.00", "40.00"], actor=actor)  # the €200 taken in
    r = api(floor_user).post(busts_url(t), {"entries": [{"entry": e[1].pk, "eliminators": [e[0].pk]}]}, format="json")
    assert r.status_code == 201, r.json()
    r = api(director).post("/api/v1/cashier/refund/", {"entry": e[3].pk, "reason": "taken ill"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "envelopes_drawn", r.json()
    t.refresh_from_db()
    money = payouts_selectors.bounty_money(t)
    assert (money["in"], money["difference"]) == (Decimal("200.00"), Decimal("0")), money
    assert min(money[k] for k in ("owed", "in_bag")) >= 0


# --- who may have won the pot: a player at the table of the player out (issue 38) -----------


def two_tables(make_tournament, make_person, cashier_actor, actor, **settings):
    """18 players at two tables of 9: ``t``, the entries, and {table: [entries seated there]}."""
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, players=18, **settings)
    at = {entry: table for entry, table in Seat.objects.filter(tournament=t).values_list("entry_id", "table__number")}
    return t, e, {n: [x for x in e if at[x.pk] == n] for n in (1, 2)}


def head(entry) -> Decimal:
    return BountyHead.objects.get(entry=entry).amount


def bust_sentences(client, t) -> list[str]:
    return [r["sentence"] for r in client.get(f"/api/v1/tournaments/{t.pk}/events/").json() if r["action"] == "seating.player.busted"]


def test_an_eliminator_at_another_table_is_refused_for_the_floor_and_the_dealer(api, floor_user, make_tournament, make_person, cashier_actor, actor):
    # The example: a player out at table 2 "knocked out" by one sitting at table 1.
    t, e, at = two_tables(make_tournament, make_person, cashier_actor, actor)
    out, wrong, right = at[2][0], at[1][0], at[2][1]
    dealer = make_user("deal", "dealer")
    for user, body in (
        (floor_user, {"table": 2, "entries": [{"entry": out.pk, "eliminators": [wrong.pk]}]}),
        (floor_user, {"entries": [{"entry": out.pk, "eliminators": [wrong.pk]}]}),  # no table named: the same rule
        (floor_user, {"table": 2, "entries": [{"entry": out.pk, "eliminators": [right.pk, wrong.pk]}]}),  # one of a split pot
        (dealer, {"table": 2, "entries": [{"entry": out.pk, "eliminators": [wrong.pk]}]}),
    ):
        r = api(user).post(busts_url(t), body, format="json")
        assert (r.status_code, r.json()["code"], r.json().get("field")) == (409, "eliminator_not_at_table", "eliminators"), r.json()
        assert f"#{wrong.number} is not at table 2" in r.json()["detail"]
    # nothing happened: he plays on, nobody won his bounty
    assert status(out) == Entry.ACTIVE and (head(out), head(wrong)) == (D("50"), D("50"))
    assert not BountyAward.objects.filter(tournament=t).exists()
    # his own table's player: recorded, €25 cash and €25 onto the winner's head
    r = api(dealer).post(busts_url(t), {"table": 2, "entries": [{"entry": out.pk, "eliminators": [right.pk]}]}, format="json")
    assert r.status_code == 201, r.json()
    assert [(k["winner"], k["cash"], k["added"]) for k in r.json()["bounties"]] == [(right.pk, "25.00", "25.00")]


def test_a_same_hand_group_and_simultaneous_busts_take_eliminators_from_each_ones_table(api, floor_user, make_tournament, make_person, cashier_actor, actor):
    t, e, at = two_tables(make_tournament, make_person, cashier_actor, actor)
    client = api(floor_user)
    # two out on one hand at table 2: each one's eliminator sits at table 2
    pair = [{"entry": at[2][0].pk, "starting_stack": 5000, "eliminators": [at[2][2].pk]}, {"entry": at[2][1].pk, "starting_stack": 3000}]
    pair[1]["eliminators"] = [at[1][2].pk]
    r = client.post(busts_url(t), {"table": 2, "same_hand": True, "entries": pair}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "eliminator_not_at_table"), r.json()
    pair[1]["eliminators"] = [at[2][2].pk]
    assert client.post(busts_url(t), {"table": 2, "same_hand": True, "entries": pair}, format="json").status_code == 201
    # simultaneous busts at tables 1 and 2: each eliminator at his own victim's table, not the other's
    swapped = [{"entry": at[1][0].pk, "eliminators": [at[2][3].pk]}, {"entry": at[2][4].pk, "eliminators": [at[1][1].pk]}]
    r = client.post(busts_url(t), {"simultaneous": True, "entries": swapped}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "eliminator_not_at_table"), r.json()
    right = [{"entry": at[1][0].pk, "eliminators": [at[1][1].pk]}, {"entry": at[2][4].pk, "eliminators": [at[2][3].pk]}]
    r = client.post(busts_url(t), {"simultaneous": True, "entries": right}, format="json")
    assert r.status_code == 201, r.json()
    assert sorted((k["knocked_out"], k["winner"]) for k in r.json()["bounties"]) == sorted([(at[1][0].pk, at[1][1].pk), (at[2][4].pk, at[2][3].pk)])


def test_the_director_may_let_an_eliminator_from_another_table_count_with_a_reason_logged(
    api, floor_user, director, make_tournament, make_person, cashier_actor, actor
):
    t, e, at = two_tables(make_tournament, make_person, cashier_actor, actor)
    out, elsewhere = at[2][0], at[1][0]
    body = {"table": 2, "entries": [{"entry": out.pk, "eliminators": [elsewhere.pk]}], "override_reason": "moved from table 2 before the hand"}
    # the floor and the dealer cannot: refused whatever the reason, nothing recorded
    for user in (floor_user, make_user("deal", "dealer")):
        r = api(user).post(busts_url(t), body, format="json")
        assert (r.status_code, r.json()["code"], r.json().get("field")) == (403, "override_not_allowed", "override_reason"), r.json()
    assert status(out) == Entry.ACTIVE and not BountyAward.objects.filter(tournament=t).exists()
    # the director without a reason: refused like anybody
    r = api(director).post(busts_url(t), {**body, "override_reason": "  "}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "eliminator_not_at_table"), r.json()
    # with one: the knockout counts (PKO: €25 cash, €25 onto his €50) and the log says why
    r = api(director).post(busts_url(t), body, format="json")
    assert r.status_code == 201, r.json()
    assert [(k["winner"], k["cash"], k["added"]) for k in r.json()["bounties"]] == [(elsewhere.pk, "25.00", "25.00")]
    assert head(elsewhere) == D("75")
    (sentence,) = bust_sentences(api(director), t)
    assert f"the director let count an eliminator from another table ({elsewhere.person.full_name}" in sentence
    assert sentence.endswith(": moved from table 2 before the hand")


def test_a_split_pot_by_the_pot_needs_every_winners_share(api, floor_user, make_tournament, make_person, cashier_actor, actor):
    # The example: one share of 1,000,000 chips and one winner without a share, who
    # silently got nothing.
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, bounty="FIXED", bounty_split="POT")
    client = api(floor_user)
    for named in ([{"entry": e[2].pk, "pot_share": 1000000}, e[3].pk], [e[2].pk, e[3].pk], [{"entry": e[2].pk}, {"entry": e[3].pk, "pot_share": None}]):
        r = client.post(busts_url(t), {"entries": [{"entry": e[1].pk, "eliminators": named}]}, format="json")
        assert (r.status_code, r.json()["code"], r.json().get("field")) == (400, "pot_share_required", "pot_share"), r.json()
    assert status(e[1]) == Entry.ACTIVE and not BountyAward.objects.filter(tournament=t).exists()
    # a share of zero, below zero or not whole is refused, naming it
    for share in (0, -5, 2.5):
        r = client.post(busts_url(t), {"entries": [{"entry": e[1].pk, "eliminators": [{"entry": e[2].pk, "pot_share": share}, e[3].pk]}]}, format="json")
        assert r.status_code == 400 and '"pot_share" is the chips this eliminator won of the pot: a whole number above zero.' in r.json()["detail"], r.json()
    # a lone winner won the whole pot: no share to give, the whole fixed €50
    r = client.post(busts_url(t), {"entries": [{"entry": e[1].pk, "eliminators": [e[3].pk]}]}, format="json")
    assert r.status_code == 201 and [(k["winner"], k["cash"]) for k in r.json()["bounties"]] == [(e[3].pk, "50.00")], r.json()


def test_an_equal_split_ignores_the_shares(api, floor_user, make_tournament, make_person, cashier_actor, actor):
    # Fixed €50 shared equally: €25 each, whatever chips were typed, and none needed.
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, bounty="FIXED")
    client = api(floor_user)
    named = [{"entry": e[2].pk, "pot_share": 3000}, e[3].pk]
    r = client.post(busts_url(t), {"entries": [{"entry": e[1].pk, "eliminators": named}]}, format="json")
    assert r.status_code == 201 and [(k["winner"], k["cash"]) for k in r.json()["bounties"]] == [(e[2].pk, "25.00"), (e[3].pk, "25.00")], r.json()


def test_a_bust_sent_again_with_its_key_gets_the_first_answer_and_counts_once(api, floor_user, make_tournament, make_person, cashier_actor, actor):
    # A tablet whose answer was lost on the Wi-Fi sends the same bust again with the same key:
    # it is told the bust it made (not "already out"), and e0 wins e1's bounty once: €75 on his head.
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor)
    body = {"entries": [{"entry": e[1].pk, "eliminators": [e[0].pk]}]}
    client = api(floor_user)
    first = client.post(busts_url(t), body, format="json", HTTP_IDEMPOTENCY_KEY="bust-e1")
    again = client.post(busts_url(t), body, format="json", HTTP_IDEMPOTENCY_KEY="bust-e1")
    assert first.status_code == again.status_code == 201, again.json()
    assert again.json() == first.json() and again["Idempotent-Replay"] == "true"
    assert first.json()["bounties"][0]["cash"] == "25.00"
    assert status(e[1]) == Entry.BUSTED
    assert BountyHead.objects.get(entry=e[0]).amount == D("75")
    assert BountyAward.objects.filter(tournament=t, void="").count() == 1
    # without the key the same bust again is a refusal: the player is out already
    assert client.post(busts_url(t), body, format="json").status_code == 409
