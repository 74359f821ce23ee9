"""Issue #28 item 8: the deal page in the reader's language. The calculator's refusal read
"place 3 (833.33) must be paid less than place 2 (833.33)" in English on an Italian page, the
earlier deals' status "approved", and the amounts were unformatted (52.63, 1026.09, 150000)."""

import re

import pytest
from django.test import Client

from payouts import services
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Entry

from .deal_stacks import stacks_in_play

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_left(tournament, make_person, cashier_actor, director):
    field = [cashier.register(tournament, make_person(), method="CARD", actor=cashier_actor).entry for _ in range(20)]
    services.lock_payout_table(tournament, actor=Actor(director))
    for place, e in zip(range(20, 3, -1), field[3:]):
        e.status, e.place = Entry.BUSTED, place
        e.save()
    return field[:3]


def test_the_calculators_refusal_is_italian_with_italian_numbers(api, tournament, three_left, director):
    stacks = stacks_in_play(three_left, [1, 1, 1])
    r = api(director).post(f"/api/v1/tournaments/{tournament.pk}/payouts/deal/calculate/", {"stacks": stacks}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    problem = r.data["methods"]["EVEN"]["policy_problem"]
    assert problem["code"] == "not_strictly_decreasing"
    assert re.fullmatch(r"Il posto 2 \(\d{1,3}(\.\d{3})*,\d\d\) deve essere pagato meno del posto 1 \(\d{1,3}(\.\d{3})*,\d\d\)\.", problem["detail"]), problem[
        "detail"
    ]
    r = api(director).post(f"/api/v1/tournaments/{tournament.pk}/payouts/deal/calculate/", {"stacks": stacks}, format="json")
    assert r.data["methods"]["EVEN"]["policy_problem"]["detail"].startswith("Place 2 (")


def test_the_deal_page_says_the_status_and_the_amounts_in_italian(api, tournament, three_left, director, floor_user):
    stacks = stacks_in_play(three_left, [3, 2, 1])
    deal = api(director).post(f"/api/v1/tournaments/{tournament.pk}/payouts/deals/", {"stacks": stacks, "method": "CHIP_CHOP"}, format="json").data
    for e in three_left:
        api(floor_user).post(f"/api/v1/payouts/deals/{deal['id']}/accept/", {"entry": e.pk}, format="json")
    assert api(director).post(f"/api/v1/payouts/deals/{deal['id']}/approve/").status_code == 200
    client = Client()
    client.force_login(director)
    page = client.get(f"/tournaments/{tournament.pk}/payouts/deal/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    earlier = page[page.index('<ul class="small">') :]
    earlier = earlier[: earlier.index("</ul>")]
    assert "approvato" in earlier and "approved" not in earlier
    amounts = re.findall(r"\d[\d.]*,\d\d", earlier)
    assert len(amounts) == 3 and not re.search(r"\d\.\d\d(?!\d)", earlier)
