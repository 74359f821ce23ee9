"""A ticket used at the desk for the wrong event (PAY-11): the API says which event the ticket is
for, or that the desk must choose one, word for word; a series ticket is taken at its events."""

from decimal import Decimal

import pytest

from payouts import services

pytestmark = pytest.mark.django_db
D = Decimal


def redeem(api, user, ticket, tournament=None):
    body = {"id_checked": True, "tournament": tournament.pk if tournament else None}
    return api(user).post(f"/api/v1/payouts/tickets/{ticket.pk}/redeem/", body, format="json")


def test_pay11_a_ticket_used_for_the_wrong_event_says_which_events_it_is_for(make_tournament, person, actor, api, cashier_user):
    main = make_tournament(name="Main Event", buy_in=D("1000"), fee=D("100"))
    side = make_tournament(name="Side Event", buy_in=D("100"), fee=D("10"))
    daily = make_tournament(name="Daily", buy_in=D("50"), fee=D("5"))

    ticket = services.issue_ticket(person, value="1100", actor=actor, target=main)
    r = redeem(api, cashier_user, ticket, side)
    assert (r.status_code, r.json()) == (409, {"code": "ticket_not_valid_here", "detail": "This ticket is valid for Main Event only."})

    open_ticket = services.issue_ticket(person, value="110", actor=actor)
    r = redeem(api, cashier_user, open_ticket)
    assert (r.status_code, r.json()) == (400, {"code": "tournament_required", "detail": "Choose the tournament this ticket is used for."})

    series = services.issue_ticket(person, value="110", actor=actor, valid_events=[side, main])
    r = redeem(api, cashier_user, series, daily)
    assert (r.status_code, r.json()) == (409, {"code": "ticket_not_valid_here", "detail": "This ticket is not valid for this tournament."})
    r = redeem(api, cashier_user, series, side)
    assert r.status_code == 201, r.content
    assert side.entries.get(pk=r.json()["entry"]).person == person
