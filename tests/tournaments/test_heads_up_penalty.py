"""PEN-06 / C28: a heads-up penalty of 3 rounds reads two ways — 6 hands (rounds of two hands,
TDA arithmetic) or 3 hands (001's «pagamento di 3 bui»). The director is offered both and
chooses; nothing counts players × rounds behind his back."""

import pytest

from tournaments.cashier import services as cashier

pytestmark = pytest.mark.django_db


def penalty(api, user, t, **body):
    return api(user).post(f"/api/v1/tournaments/{t.pk}/floor/penalties/", {"kind": "MISSED_ROUNDS", "reason_code": "ABUSIVE_CONDUCT", **body}, format="json")


def test_a_heads_up_penalty_without_a_reading_offers_both(api, director, heads_up, make_tournament, make_person, cashier_actor):
    t, p, _q = heads_up
    r = penalty(api, director, t, entry=p.pk, rounds=3, players_at_table=2)
    assert r.status_code == 400 and r.data["code"] == "heads_up_reading_required"
    assert r.data["readings"] == {"ROUNDS_OF_TWO_HANDS": 6, "BLINDS_PAID": 3}
    assert "6 hands" in r.data["detail"] and "3 hands" in r.data["detail"]
    assert not t.penalties.exists()
    # the heads-up minimum of 3 rounds still holds; a full-ring event needs no reading (7 × 3 = 21)
    r = penalty(api, director, t, entry=p.pk, rounds=2, heads_up_reading="BLINDS_PAID")
    assert r.status_code == 400 and r.data["code"] == "too_few_rounds"
    ring = make_tournament()
    q = cashier.register(ring, make_person(), method="CASH", actor=cashier_actor).entry
    r = penalty(api, director, ring, entry=q.pk, rounds=3, players_at_table=7)
    assert r.status_code == 201 and r.data["hands_total"] == 21


@pytest.mark.parametrize("reading, hands", [("ROUNDS_OF_TWO_HANDS", 6), ("BLINDS_PAID", 3)])
def test_the_directors_reading_decides_the_hands_and_is_logged(api, director, heads_up, reading, hands):
    t, p, _q = heads_up
    r = penalty(api, director, t, entry=p.pk, rounds=3, heads_up_reading=reading)
    assert r.status_code == 201 and r.data["hands_total"] == hands and r.data["hands_left"] == hands
    assert t.events.get(action="tournaments.penalty.issued").payload["heads_up_reading"] == reading


def test_the_floor_page_offers_the_two_readings_only_under_the_heads_up_preset(client, director, heads_up, make_tournament):
    t, _p, _q = heads_up
    client.force_login(director)
    html = client.get(f"/tournaments/{t.pk}/floor/").content.decode()
    assert 'name="heads_up_reading" value="ROUNDS_OF_TWO_HANDS"' in html and 'name="heads_up_reading" value="BLINDS_PAID"' in html
    assert "Rounds of two hands" in html and "Blinds paid" in html
    other = make_tournament()
    assert "heads_up_reading" not in client.get(f"/tournaments/{other.pk}/floor/").content.decode()


def test_pen06_sent_again_with_the_directors_reading_the_penalty_is_given_once(api, director, heads_up):
    """3 rounds sent without a reading is refused and records nothing; sent again with "blinds
    paid" it is one penalty of 3 hands, the only one on the floor's list and in the log."""
    t, p, _q = heads_up
    assert penalty(api, director, t, entry=p.pk, rounds=3).data["code"] == "heads_up_reading_required"
    r = penalty(api, director, t, entry=p.pk, rounds=3, heads_up_reading="BLINDS_PAID")
    assert r.status_code == 201 and r.data["hands_total"] == 3
    listed = api(director).get(f"/api/v1/tournaments/{t.pk}/floor/penalties/").data
    assert [(x["player"], x["hands_total"]) for x in listed] == [("Paolo Bianchi", 3)]
    assert t.events.filter(action="tournaments.penalty.issued").count() == 1
