"""ELM-03 / ELM-06: busts at different tables whose order cannot be told share the places and
the prizes equally, marked at recording or afterwards with a reason; and RULES.md scenario 28
(ELM-05): a player who leaves is blinded out, eliminated when his stack reaches 0, and keeps the
prize of that place. Through the services and the API."""

from decimal import Decimal

import pytest

from payouts import selectors as payout_selectors
from payouts import services as payouts
from seating import selectors, services
from seating.models import Bust
from seating.selectors.busts import busts
from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.cashier.services import registration
from tournaments.clock import services as clock_services
from tournaments.models import Entry
from tournaments.setup import lifecycle

from .test_support import seat_map

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def paid_field(make_tournament, make_person, cashier_actor, actor):
    """``paid_field(n, prizes)``: n players × €100 (no fee), the payout table locked, started."""

    def make(n, prizes):
        t = make_tournament(buy_in=D("100"), fee=D("0"))
        for _ in range(n):
            cashier.register(t, make_person(), method="CARD", actor=cashier_actor)
        payouts.edit_payout_table(t, [{"place": i, "amount": str(a)} for i, a in enumerate(prizes, 1)], actor=actor)
        payouts.lock_payout_table(t, actor=actor)
        lifecycle.start(t, actor=actor, prestart_report_sent=True)
        t.refresh_from_db()
        return t

    return make


def place_of(entry_id):
    e = Entry.objects.get(pk=entry_id)
    return e.place, Bust.objects.get(entry_id=entry_id, void="").shared_with


def one_per_table(t, n=2):
    """A player from each of the first ``n`` tables (the last seat taken at each)."""
    tables = seat_map(t)
    return [tables[number][max(tables[number])] for number in sorted(tables)[:n]]


# 20 places for 20 players × €100: the last two differ, so sharing them shows.
PRIZES = [580, 300, 200, 150, 120, 100, 90, 80, 70, 60, 50, 40, 30, 30, 30, 20, 20, 14, 10, 6]


def dues_of(t, entry_id):
    return [d["amount"] for d in payout_selectors.dues(t) if d["entry_id"] == entry_id]


def test_busts_recorded_as_simultaneous_share_the_places_and_the_prizes(paid_field, actor):
    t = paid_field(20, PRIZES)
    a, b = one_per_table(t)
    out = services.record_bust(t, [a, b], actor=actor, simultaneous=True, reason="both all-in at the same moment")
    assert {(x.entry_id, x.place, x.shared_with) for x in out.busts} == {(a, 19, 2), (b, 19, 2)}
    assert dues_of(t, a) == dues_of(t, b) == [D("8.00")]  # (10 + 6) / 2 each
    shown = {x["entry"]: x for x in busts(t)}
    assert shown[a]["simultaneous"] and shown[a]["shared_with"] == 2
    assert [r["place"] for r in selectors.standings(t) if r["entry"] in (a, b)] == [19, 19]


def test_the_floor_marks_busts_simultaneous_afterwards_with_a_reason(paid_field, actor):
    t = paid_field(20, PRIZES)
    a, b = one_per_table(t)
    services.record_bust(t, [a], actor=actor)
    services.record_bust(t, [b], actor=actor)
    assert (place_of(a), place_of(b)) == ((20, 1), (19, 1))
    assert (dues_of(t, a), dues_of(t, b)) == ([D("6.00")], [D("10.00")])
    with pytest.raises(DomainError) as e:
        services.mark_simultaneous(t, Bust.objects.filter(entry_id__in=[a, b]), actor=actor, reason="")
    assert e.value.code == "reason_required"
    ids = list(Bust.objects.filter(entry_id__in=[a, b]).values_list("pk", flat=True))
    services.mark_simultaneous(t, ids, actor=actor, reason="the dealers called them out together")
    assert place_of(a) == place_of(b) == (19, 2)
    assert dues_of(t, a) == dues_of(t, b) == [D("8.00")]
    event = t.events.get(action="seating.busts.simultaneous")
    assert event.payload["reason"] == "the dealers called them out together"
    assert {x["entry"]: x["place_before"] for x in event.payload["busts"]} == {a: 20, b: 19}


def test_only_busts_next_to_each_other_at_different_tables_outside_hand_for_hand(paid_field, actor):
    t = paid_field(30, [1500, 900, 600])
    tables = seat_map(t)
    same_table = [tables[min(tables)][s] for s in sorted(tables[min(tables)])[:2]]
    a, b, c = one_per_table(t, 3)
    for e in same_table + [a, b, c]:
        services.record_bust(t, [e], actor=actor)
    bust = {x.entry_id: x.pk for x in Bust.objects.filter(tournament=t)}
    with pytest.raises(DomainError) as e:
        services.mark_simultaneous(t, [bust[x] for x in same_table], actor=actor, reason="r")
    assert e.value.code == "simultaneous_one_table"
    with pytest.raises(DomainError) as e:
        services.mark_simultaneous(t, [bust[a], bust[c]], actor=actor, reason="r")
    assert e.value.code == "not_consecutive"
    clock_services.start_clock(t, actor=actor)
    clock_services.start_hand_for_hand(t, actor=actor)
    x, y = one_per_table(t)
    with pytest.raises(DomainError) as e:
        services.record_bust(t, [x, y], actor=actor, simultaneous=True)
    assert e.value.code == "simultaneous_in_h4h"


def test_the_api_records_and_marks_simultaneous_busts(paid_field, api, floor_user, cashier_user):
    t = paid_field(30, [1500, 900, 600])
    a, b = one_per_table(t)
    url = f"/api/v1/tournaments/{t.pk}/busts/"
    r = api(floor_user).post(url, {"entries": [{"entry": a}, {"entry": b}], "simultaneous": True, "reason": "cannot tell"}, format="json")
    assert r.status_code == 201 and {(x["place"], x["shared_with"]) for x in r.json()["busts"]} == {(29, 2)}
    c, d = one_per_table(t)
    api(floor_user).post(url, {"entries": [{"entry": c}]}, format="json")
    api(floor_user).post(url, {"entries": [{"entry": d}]}, format="json")
    ids = list(Bust.objects.filter(entry_id__in=[c, d]).values_list("pk", flat=True))
    r = api(cashier_user).post(url + "simultaneous/", {"busts": ids, "reason": "r"}, format="json")
    assert r.status_code == 403
    r = api(floor_user).post(url + "simultaneous/", {"busts": ids, "reason": ""}, format="json")
    assert r.status_code == 400
    r = api(floor_user).post(url + "simultaneous/", {"busts": ids, "reason": "two tables at once"}, format="json")
    assert r.status_code == 200
    assert {(x["place"], x["shared_with"], x["simultaneous"]) for x in r.json()["busts"]} == {(27, 2, True)}


def test_scenario_28_an_absent_player_is_blinded_out_and_keeps_the_prize_of_his_place(paid_field, actor):
    # W leaves with 3,000 chips while 70 remain (50 paid); his stack reaches 0 when 47 remain.
    prizes = [200 - 3 * i for i in range(50)]
    prizes[0] += 7000 - sum(prizes)  # 70 × €100
    t = paid_field(70, prizes)
    w = t.entries.order_by("number").last()
    registration.set_presence(w, presence=Entry.WITHDRAWN, actor=actor, reason="left the room with 3,000 chips")
    with pytest.raises(DomainError) as e:
        cashier.refund(w, reason="he asks for his money", actor=actor)
    assert e.value.code == "no_refund_after_leaving"
    for e in t.entries.exclude(pk=w.pk).order_by("number")[:23]:  # 70 → 47 players in, W among them
        services.record_bust(t, [e], actor=actor)
    w.refresh_from_db()
    assert (w.status, w.place) == (Entry.ACTIVE, None)  # absent: never eliminated by it
    seat = next(s for tb in selectors.table_map(t)["tables"] for s in tb["seats"] if s["entry"] == w.pk)
    assert seat["presence"] == "WITHDRAWN"  # the table map shows him withdrawn, still seated
    services.record_bust(t, [w], actor=actor, reason="blinded out")
    w.refresh_from_db()
    assert (w.status, w.place) == (Entry.BUSTED, 47) and w.busted_at is not None
    assert dues_of(t, w.pk) == [D(prizes[46]).quantize(D("0.01"))]
    with pytest.raises(DomainError):
        cashier.refund(w, reason="still asks", actor=actor)


def test_the_tables_page_marks_ticked_busts_simultaneous_and_shows_them(paid_field, actor, client, floor_user, director):
    t = paid_field(20, PRIZES)
    a, b = one_per_table(t)
    services.record_bust(t, [a], actor=actor)
    services.record_bust(t, [b], actor=actor)
    ids = list(Bust.objects.filter(entry_id__in=[a, b]).values_list("pk", flat=True))
    client.force_login(floor_user)
    page = f"/tournaments/{t.pk}/tables/"
    html = client.get(page).content.decode()
    assert 'id="simultaneous-form"' in html and f'name="busts" value="{ids[0]}" form="simultaneous-form"' in html
    r = client.post(page, {"op": "simultaneous", "busts": ids, "reason": "two tables called out together"}, follow=True)
    html = r.content.decode()
    assert "Marked simultaneous" in html and html.count(">simultaneous</span>") == 2
    assert 'title="two tables called out together"' in html
    registration.set_presence(t.entries.filter(status=Entry.ACTIVE).first(), presence=Entry.WITHDRAWN, actor=actor)
    html = client.get(page).content.decode()
    assert html.count('class="tag warn presence"') == 1 and ">withdrawn</span>" in html  # ELM-05 on the table map
    assert place_of(a) == place_of(b) == (19, 2)
    client.force_login(director)
    html = client.get(f"/tournaments/{t.pk}/payouts/").content.decode()
    assert html.count("19 (shared ×2)") == 2 and html.count(">8.00<") >= 2  # the payout table: (10 + 6) / 2 each


def test_elm03_busts_marked_simultaneous_again_are_refused_and_share_once(paid_field, actor):
    t = paid_field(20, PRIZES)
    a, b = one_per_table(t)
    services.record_bust(t, [a], actor=actor)
    services.record_bust(t, [b], actor=actor)
    ids = list(Bust.objects.filter(entry_id__in=[a, b]).values_list("pk", flat=True))
    services.mark_simultaneous(t, ids, actor=actor, reason="the dealers called them out together")
    with pytest.raises(DomainError) as e:
        services.mark_simultaneous(t, ids, actor=actor, reason="sent again")
    assert e.value.code == "already_simultaneous"
    assert place_of(a) == place_of(b) == (19, 2)
    assert dues_of(t, a) == dues_of(t, b) == [D("8.00")]
    assert t.events.filter(action="seating.busts.simultaneous").count() == 1
