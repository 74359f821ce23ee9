"""PAY-09: a deal shares by the chips now. The deal page writes in each stack the floor's last
count (scaled to the chips in play when they were taken before, and said so), never the chips
bought (30.000 × 3 = 90.000 while 720.000 are in play proposed an even split); the calculator
and the proposal refuse stacks that are not the chips in play, saying by how much they differ."""

import re
from datetime import datetime
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import timezone

from payouts import deals as deal_engine
from payouts import services
from tournaments.cashier import services as cashier
from tournaments.floor import services as floor
from tournaments.floor.selectors import chips_in_play
from tournaments.models import ChipCount, Entry

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def three_left(make_tournament, make_person, cashier_actor, actor):
    """24 entries of 30,000 chips (720,000 in play), 21 out, 3 left; a payout table locked."""
    t = make_tournament(buy_in=D("100"), fee=D("10"))
    entries = [cashier.register(t, make_person(), method="CARD", actor=cashier_actor).entry for _ in range(24)]
    services.edit_payout_table(t, [{"place": 1, "amount": "1200"}, {"place": 2, "amount": "700"}, {"place": 3, "amount": "500"}], actor=actor)
    services.lock_payout_table(t, actor=actor)
    for place, e in zip(range(24, 3, -1), entries[3:]):
        e.status, e.place = Entry.BUSTED, place
        e.save()
    assert chips_in_play(t) == 720_000
    return t, entries[:3]


def page(t, director) -> str:
    client = Client()
    client.force_login(director)
    return client.get(f"/tournaments/{t.pk}/payouts/deal/", HTTP_ACCEPT_LANGUAGE="it").content.decode()


def stack_values(html: str) -> list[str]:
    return re.findall(r'<input class="stack"[^>]*value="([^"]*)"', html)


def test_without_a_count_no_stack_is_the_chips_bought(three_left, director):
    t, players = three_left
    html = page(t, director)
    assert stack_values(html) == ["", "", ""]  # never 30000 × 3
    assert "Nessun conteggio registrato" in html and "720.000 gettoni in gioco" in html


def test_the_floors_last_counts_are_written_in_and_marked_when_they_make_the_chips_in_play(three_left, director, actor):
    t, players = three_left
    floor.record_chip_counts(t, [{"entry": e.pk, "chips": c} for e, c in zip(players, (400_000, 200_000, 120_000))], occasion="FINAL_TABLE", actor=actor)
    html = page(t, director)
    assert stack_values(html) == ["400000", "200000", "120000"]
    assert "Stack come li ha contati il floor l'ultima volta" in html and "400.000 alle " in html


def test_counts_taken_before_are_scaled_to_the_chips_in_play_and_said_so(three_left, director, actor):
    t, players = three_left
    # counted at the break, with 60,000 chips still at another table since broken
    floor.record_chip_counts(t, [{"entry": e.pk, "chips": c} for e, c in zip(players, (300_000, 200_000, 160_000))], occasion="BREAK", actor=actor)
    html = page(t, director)
    assert stack_values(html) == ["327273", "218182", "174545"]  # 720,000 in the counts' proportions
    assert sum(int(v) for v in stack_values(html)) == 720_000
    assert "Stima: gli ultimi conteggi del floor" in html and "300.000 alle " in html and "in proporzione" in html


def test_a_player_not_counted_is_left_to_type(three_left, director, actor):
    t, players = three_left
    floor.record_chip_counts(t, [{"entry": players[0].pk, "chips": 500_000}], occasion="BREAK", actor=actor)
    html = page(t, director)
    assert stack_values(html) == ["500000", "", ""] and "non contato" in html


@pytest.mark.parametrize(
    ("chips", "said"),
    [
        ((30_000, 30_000, 30_000), "Gli stack inseriti sommano 90.000 gettoni, ma in gioco ce ne sono 720.000: ne mancano 630.000."),
        ((400_000, 200_000, 125_000), "Gli stack inseriti sommano 725.000 gettoni, ma in gioco ce ne sono solo 720.000: 5.000 di troppo."),
    ],
)
def test_stacks_that_are_not_the_chips_in_play_are_refused_by_how_much(three_left, api, director, chips, said):
    t, players = three_left
    stacks = {str(e.pk): c for e, c in zip(players, chips)}
    for url, body in (("payouts/deal/calculate/", {"stacks": stacks}), ("payouts/deals/", {"stacks": stacks, "method": "CHIP_CHOP"})):
        r = api(director).post(f"/api/v1/tournaments/{t.pk}/{url}", body, format="json", HTTP_ACCEPT_LANGUAGE="it")
        assert r.status_code == 400 and r.data["code"] == "chips_not_in_play" and r.data["field"] == "stacks", r.data
        assert r.data["detail"].startswith(said) and r.data["difference"] == sum(chips) - 720_000
    ok = {str(e.pk): c for e, c in zip(players, (400_000, 200_000, 120_000))}
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/payouts/deal/calculate/", {"stacks": ok}, format="json")
    assert r.status_code == 200 and sum(D(a) for a in r.data["methods"]["CHIP_CHOP"]["by_player"]) == D("2400.00")


def test_scaling_keeps_whole_chips_and_the_total():
    assert deal_engine.scale_counts([30_000, 20_000, 10_000], 720_000) == [360_000, 240_000, 120_000]
    assert deal_engine.scale_counts([1, 1, 1], 100) == [34, 33, 33]  # the odd chip to the first of equals
    with pytest.raises(deal_engine.DealError) as refused:
        deal_engine.check_chips_in_play([30_000, 30_000, 30_000], 720_000)
    assert refused.value.code == "chips_not_in_play" and refused.value.params["difference"] == -630_000


def counted(t, entries, chips, at, actor):
    """The floor counts ``entries`` at ``at`` (a quarter past two, Rome time, on the day)."""
    floor.record_chip_counts(t, [{"entry": e.pk, "chips": c} for e, c in zip(entries, chips)], occasion="BREAK", actor=actor)
    ChipCount.objects.filter(tournament=t, entry__in=entries).update(counted_at=at)


def at(hour, minute):
    return timezone.make_aware(datetime(2026, 11, 29, hour, minute))


def count_notes(html: str) -> list[str]:
    return [c.strip() for c in re.findall(r'<td class="small count">(.*?)</td>', html)]


def test_the_page_says_when_each_stack_was_counted_and_since_when_from_the_oldest(three_left, director, actor):
    t, players = three_left
    counted(t, players[:2], (400_000, 200_000), at(14, 5), actor)
    counted(t, players[2:], (120_000,), at(14, 20), actor)
    html = page(t, director)
    assert count_notes(html) == ["400.000 alle 14:05", "200.000 alle 14:05", "120.000 alle 14:20"]
    assert "Stack come li ha contati il floor l'ultima volta (alle 14:05): sommano i 720.000 gettoni in gioco." in html
    assert services.deal_counts(t, players) == {
        "state": "COUNTED",
        "chips_in_play": 720_000,
        "counted_at": at(14, 5),
        "rows": {
            players[0].pk: {"chips": 400_000, "counted": 400_000, "counted_at": at(14, 5)},
            players[1].pk: {"chips": 200_000, "counted": 200_000, "counted_at": at(14, 5)},
            players[2].pk: {"chips": 120_000, "counted": 120_000, "counted_at": at(14, 20)},
        },
    }


def test_with_no_count_or_some_the_page_says_which_stacks_to_type(three_left, director, actor):
    t, players = three_left
    nothing = {e.pk: {"chips": None, "counted": None, "counted_at": None} for e in players}
    assert services.deal_counts(t, players) == {"state": "NONE", "chips_in_play": 720_000, "counted_at": None, "rows": nothing}
    counted(t, players[:1], (500_000,), at(14, 5), actor)
    html = page(t, director)
    assert "Alcuni giocatori non hanno un conteggio: inserite i loro stack. Insieme gli stack devono fare i 720.000 gettoni in gioco." in html
    assert 'data-state="PARTIAL"' in html and count_notes(html) == ["500.000 alle 14:05", "non contato", "non contato"]
    assert services.deal_counts(t, players) == {
        "state": "PARTIAL",
        "chips_in_play": 720_000,
        "counted_at": at(14, 5),
        "rows": {**nothing, players[0].pk: {"chips": 500_000, "counted": 500_000, "counted_at": at(14, 5)}},
    }


def test_counts_of_no_chips_at_all_leave_every_stack_to_type(three_left, director, actor):
    """Every player counted at 0 (a count slip written wrong): nothing to scale to the 720,000 in
    play, so no stack is written in and the page asks for the stacks as if nobody were counted."""
    t, players = three_left
    counted(t, players, (0, 0, 0), at(14, 5), actor)
    html = page(t, director)
    assert stack_values(html) == ["", "", ""] and "Nessun conteggio registrato" in html and 'data-state="NONE"' in html
    assert services.deal_counts(t, players) == {
        "state": "NONE",
        "chips_in_play": 720_000,
        "counted_at": at(14, 5),
        "rows": {e.pk: {"chips": None, "counted": 0, "counted_at": at(14, 5)} for e in players},
    }
