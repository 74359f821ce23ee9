"""PAY-10: the Last Longer prize goes to the best finisher among the players who took part in it
(the entries registered in advance); tied best places split it; it is a prize due at the desk,
paid once, and awarding it again gives nothing more."""

from decimal import Decimal

import pytest

from payouts import selectors as sel
from payouts import services
from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.models import Entry

pytestmark = pytest.mark.django_db

D = Decimal


def finish_at(entry, place):
    entry.status, entry.place = Entry.BUSTED, place
    entry.save()


def booked(t, person, cashier_actor):
    reservation = cashier.pre_register(t, person, actor=cashier_actor)
    return cashier.pay_reservation(reservation, method="CASH", actor=cashier_actor).entry


@pytest.fixture
def last_longer(tournament, make_person, cashier_actor, actor):
    """Three players booked in advance (Ada, Bea, Cloe) and one walk-in (Walt); a Last Longer of 100.01."""
    ada, bea, cloe = (booked(tournament, make_person(n, "Booked"), cashier_actor) for n in ("Ada", "Bea", "Cloe"))
    walt = cashier.register(tournament, make_person("Walt", "Inn"), method="CASH", actor=cashier_actor).entry
    pool = services.create_side_pool(tournament, kind="LAST_LONGER", name="Last Longer", actor=actor)
    services.contribute_side_pool(pool, "100.01", actor=actor)
    return tournament, pool, (ada, bea, cloe, walt)


def test_pay10_two_booked_players_sharing_the_best_place_split_the_last_longer(last_longer, actor):
    t, pool, (ada, bea, cloe, walt) = last_longer
    finish_at(walt, 1)
    finish_at(ada, 2)
    finish_at(bea, 2)  # out on the same hand with equal stacks: they share 2nd
    finish_at(cloe, 4)
    awards = services.award_side_pool(pool, actor=actor)
    assert sorted((a.entry.person.first_name, a.amount) for a in awards) == [("Ada", D("50.01")), ("Bea", D("50.00"))]


def test_pay10_the_award_is_a_prize_due_at_the_desk_and_paid_once(last_longer, actor, cashier_actor):
    t, pool, (ada, bea, cloe, walt) = last_longer
    for e, place in ((walt, 1), (cloe, 2), (ada, 3), (bea, 4)):
        finish_at(e, place)
    (award,) = services.award_side_pool(pool, actor=actor)
    due = [d for d in sel.dues(t) if d["source"] == f"SIDE:{award.pk}"]
    assert [(d["name"], d["amount"], d["released"], d["paid"]) for d in due] == [("Cloe Booked", D("100.01"), True, False)]
    row = services.pay_prize(cloe, method="CASH", source=f"SIDE:{award.pk}", actor=cashier_actor).row
    assert (row.kind, row.side_amount) == ("SIDE", D("-100.01"))
    due = [d for d in sel.dues(t) if d["source"] == f"SIDE:{award.pk}"]
    assert [d["paid"] for d in due] == [True]
    with pytest.raises(DomainError) as e:
        services.pay_prize(cloe, method="CASH", source=f"SIDE:{award.pk}", actor=cashier_actor)
    assert e.value.code == "already_paid"


def test_pay10_awarding_the_last_longer_again_gives_nothing_more(last_longer, actor):
    t, pool, (ada, bea, cloe, walt) = last_longer
    for e, place in ((ada, 1), (walt, 2), (bea, 3), (cloe, 4)):
        finish_at(e, place)
    (first,) = services.award_side_pool(pool, actor=actor)
    assert (first.entry.person.first_name, first.amount) == ("Ada", D("100.01"))
    assert services.award_side_pool(pool, actor=actor) == []
    assert [(a.entry.person.first_name, a.amount) for a in pool.awards.all()] == [("Ada", D("100.01"))]


def test_pay10_before_any_booked_player_is_out_there_is_no_winner_yet(last_longer, actor):
    t, pool, (ada, bea, cloe, walt) = last_longer
    finish_at(walt, 4)  # only the walk-in is out
    with pytest.raises(DomainError) as e:
        services.award_side_pool(pool, actor=actor)
    assert e.value.code == "no_winner_yet"
    assert not pool.awards.exists()


def test_pay10_while_two_booked_players_still_play_nobody_out_wins_it(last_longer, actor):
    t, pool, (ada, bea, cloe, walt) = last_longer
    finish_at(walt, 4)
    finish_at(cloe, 3)  # Ada and Bea still playing
    with pytest.raises(DomainError) as e:
        services.award_side_pool(pool, actor=actor)
    assert e.value.code == "no_winner_yet"
    assert str(e.value.message) == "More than one player is still in: there is no winner yet."
    assert not pool.awards.exists()
    finish_at(bea, 2)  # Ada, the last booked player still in, has outlasted the others
    (award,) = services.award_side_pool(pool, actor=actor)
    assert (award.entry.person.first_name, award.amount) == ("Ada", D("100.01"))


def test_pay10_a_winner_still_playing_sees_the_last_longer_on_his_phone(last_longer, actor):
    """Ada and Bea, booked, are out (4th and 3rd); Cloe is the only booked player still in: she
    wins the 100.01 while she plays on, without a place. Her phone lists it, ready at the desk
    (a side prize needs no sign-off), from its own poll as from the stream."""
    from django.test import Client

    from tournaments.live.snapshot import build_snapshot
    from tournaments.phone.views import phone_index

    t, pool, (ada, bea, cloe, walt) = last_longer
    finish_at(ada, 4)
    finish_at(bea, 3)
    (award,) = services.award_side_pool(pool, actor=actor)
    assert award.entry == cloe
    cloe.refresh_from_db()
    assert cloe.place is None
    won = [{"amount": "100.01", "kind": "CASH", "description": "Last Longer", "paid": False, "ready": True}]
    assert Client().get(f"/p/{cloe.phone_token}/state/").json()["prizes"] == won
    snap = build_snapshot(t.pk)
    assert phone_index(t.pk, snap, {})[1][cloe.pk].part["prizes"] == won
