"""CR-02 / CR-03: a chip race the floor cannot record is refused in the floor's language, word
for word, through the API the tablet uses; nothing is recorded."""

from decimal import Decimal

import pytest

from tournaments.cashier import services as cashier
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

FOUR = [
    {"seat": 1, "odd_value": 75, "stack_after_exchange": 10000},
    {"seat": 4, "odd_value": 50, "stack_after_exchange": 8000},
    {"seat": 7, "odd_value": 25, "stack_after_exchange": 5000},
    {"seat": 9, "odd_value": 75, "stack_after_exchange": 9000},
]


@pytest.fixture
def race(make_tournament, make_person, cashier_actor, api, floor_user):
    t = make_tournament(status=Tournament.RUNNING, rebuy_price=Decimal("50"), rebuy_chips=30000, settings={"race_conversion": "FLOOR"})
    for _ in range(4):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)

    def post(players, winners, language="en"):
        body = {"table": 3, "removed_denomination": 25, "new_denomination": 100, "players": players, "winners": winners}
        return api(floor_user).post(f"/api/v1/tournaments/{t.pk}/floor/race/", body, format="json", HTTP_ACCEPT_LANGUAGE=language)

    return t, post


@pytest.mark.parametrize(
    "language,words",
    [
        ("en", "A seat is ticked twice as a winner of the race."),
        ("it", "Un posto è segnato due volte come vincitore della corsa."),
    ],
)
def test_a_winner_ticked_twice_is_refused_in_words(race, language, words):
    t, post = race
    r = post(FOUR, [9, 9], language)
    assert (r.status_code, r.json()["code"], r.json()["detail"]) == (409, "duplicate_winner", words)
    assert t.chip_races.count() == 0


@pytest.mark.parametrize(
    "language,words",
    [
        ("en", "A player's chips cannot be raced as entered: check each stack and the odd chips."),
        ("it", "Le chip di un giocatore non possono andare alla corsa così come inserite: controlla ogni stack e le chip spaiate."),
    ],
)
def test_two_players_entered_on_one_seat_are_refused_in_words(race, language, words):
    t, post = race
    r = post([*FOUR, {"seat": 4, "odd_value": 25, "stack_after_exchange": 3000}], [9, 1], language)
    assert (r.status_code, r.json()["code"], r.json()["detail"]) == (409, "bad_player", words)
    assert t.chip_races.count() == 0
