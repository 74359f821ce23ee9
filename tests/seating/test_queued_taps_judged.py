"""An action a floor tablet queued while offline is judged at its tap time, and only a tap time
the tournament can believe: a bust tapped before the director undid that player's bust is
refused as undone (the undo stands), one tapped before that player came back in with a rebuy is
refused the same way (his new chips play on; a re-entry is a new entry, the old one stays out,
and the refusal says where he plays now); a dealer's queued bust or hand is judged by the table
he dealt when he tapped it, not the one he deals when it arrives; a tap time before the
tournament started is not believed (the action is judged, and logged, as arriving now)."""

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone, translation

from seating import services as seating
from seating.models import Bust, DealerAssignment, Seat
from seating.services import dealers
from tdmanager.errors import DomainError
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Entry, LedgerRow, Tournament, TournamentEvent

from .test_dealers import crew, dealing, hall, start  # noqa: F401 (fixtures)
from .test_support import arrange, seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def minutes_ago(minutes):
    """Back to ``minutes`` ago, the clock running: a tournament started there started then."""
    return time_machine.travel(timezone.now() - timedelta(minutes=minutes))


def tablet(username="tab"):
    client = Client()
    client.force_login(make_user(username, "floor"))
    return client


def queued(client, t, body, tapped, key, **headers):
    """A bust as floor-queue.js sends it from its queue: its own key, the tap's time."""
    return client.post(
        f"/api/v1/tournaments/{t.pk}/busts/",
        body,
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key,
        HTTP_X_TAPPED_AT=tapped.isoformat(),
        **headers,
    )


# --- a bust tapped before the undo of that player's bust -------------------------------------------


def test_a_queued_bust_tapped_before_the_undo_of_his_bust_is_refused_and_he_plays_on(started, actor):
    t = started(18)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    rossi = Entry.objects.select_related("person").get(pk=layout[1][4])
    tapped = timezone.now()  # tablet A, offline, taps Rossi out
    first = seating.record_bust(t, [rossi.pk], actor=actor, table=1).busts[0]  # tablet B, online, records it
    seating.undo_bust(t, first, actor=actor, reason="he was not out")  # the director: a mistake
    undone_at = Bust.objects.get(pk=first.pk).voided_at

    r = queued(tablet(), t, {"entries": [{"entry": rossi.pk}], "table": 1}, tapped, "tap-a-1")  # tablet A back online

    assert r.status_code == 409, r.json()
    data = r.json()
    assert data["code"] == "bust_undone" and data["entry"] == rossi.pk and data["bust"] == first.pk
    assert data["undone_at"] == undone_at.isoformat()
    at = timezone.localtime(undone_at).strftime("%H:%M")
    assert data["detail"] == (
        f"The bust of {rossi.person.full_name} (#{rossi.number}) was undone at {at}, after this one was tapped at "
        f"{timezone.localtime(tapped):%H:%M}: it no longer applies. {rossi.person.full_name} sits at table 1, seat 4."
    )
    assert Entry.objects.get(pk=rossi.pk).status == Entry.ACTIVE and seat_map(t)[1][4] == rossi.pk  # he plays on
    assert Bust.objects.filter(entry=rossi, void="").count() == 0


def test_the_refusal_is_in_the_tablets_language(started, actor):
    t = started(18)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    tapped = timezone.now()
    first = seating.record_bust(t, [layout[2][2]], actor=actor, table=2).busts[0]
    seating.undo_bust(t, first, actor=actor)
    client = tablet()
    r = client.post(
        f"/api/v1/tournaments/{t.pk}/busts/",
        {"entries": [{"entry": layout[2][2]}], "table": 2},
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="tap-it-1",
        HTTP_X_TAPPED_AT=tapped.isoformat(),
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert r.status_code == 409 and r.json()["code"] == "bust_undone"
    with translation.override("it"):
        assert "è stata annullata alle" in r.json()["detail"] and "siede al tavolo 2, posto 2" in r.json()["detail"]


def test_a_bust_tapped_after_the_undo_stands(started, actor):
    t = started(18)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    rossi = layout[1][4]
    first = seating.record_bust(t, [rossi], actor=actor, table=1).busts[0]
    seating.undo_bust(t, first, actor=actor)
    tapped = timezone.now()  # back in play, then really out: tapped offline after the undo

    r = queued(tablet(), t, {"entries": [{"entry": rossi}], "table": 1}, tapped, "tap-b-1")

    assert r.status_code == 201, r.json()
    assert Entry.objects.get(pk=rossi).status == Entry.BUSTED


def test_an_online_bust_after_an_undo_is_recorded_as_before(started, actor):
    t = started(18)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    first = seating.record_bust(t, [layout[1][4]], actor=actor, table=1).busts[0]
    seating.undo_bust(t, first, actor=actor)
    r = tablet().post(f"/api/v1/tournaments/{t.pk}/busts/", {"entries": [{"entry": layout[1][4]}], "table": 1}, content_type="application/json")
    assert r.status_code == 201, r.json()


# --- a bust tapped before a later return to play: a rebuy, a re-entry -------------------------------


REBUYS = dict(format=Tournament.REBUY, rebuy_price=100, rebuy_chips=30000, rebuy_until_level=4)


def where(entry_id):
    seat = Seat.objects.select_related("table").get(entry_id=entry_id)
    return seat.table.number, seat.number


def test_a_queued_bust_tapped_before_his_rebuy_is_refused_and_he_plays_on_with_his_new_chips(started, actor, cashier_actor):
    t = started(18, **REBUYS)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    rossi = Entry.objects.select_related("person").get(pk=layout[1][4])
    tapped = timezone.now()  # tablet A, offline, taps Rossi out
    first = seating.record_bust(t, [rossi.pk], actor=actor, table=1).busts[0]  # tablet B, online, records it
    cashier.rebuy(Entry.objects.get(pk=rossi.pk), method="CASH", actor=cashier_actor)  # he rebuys and sits down again
    back_at = Bust.objects.get(pk=first.pk).voided_at
    table, seat = where(rossi.pk)

    r = queued(tablet(), t, {"entries": [{"entry": rossi.pk}], "table": 1}, tapped, "tap-r-1")  # tablet A back online

    assert r.status_code == 409, r.json()
    data = r.json()
    assert data["code"] == "bust_before_return" and data["entry"] == rossi.pk and data["bust"] == first.pk
    assert (data["table"], data["seat"]) == (table, seat) and data["returned_at"] == back_at.isoformat()
    name = rossi.person.full_name
    assert data["detail"] == (
        f"{name} (#{rossi.number}) came back in with a rebuy at {timezone.localtime(back_at):%H:%M}, after this bust was tapped at "
        f"{timezone.localtime(tapped):%H:%M}: it no longer applies. {name} sits at table {table}, seat {seat}."
    )
    rossi.refresh_from_db()
    assert rossi.status == Entry.ACTIVE and rossi.chips == t.starting_stack + 30000 and where(rossi.pk) == (table, seat)  # he plays on
    assert Bust.objects.filter(entry=rossi, void="").count() == 0


def test_a_queued_bust_tapped_before_a_rebuy_sold_before_any_bust_was_recorded_is_refused(started, actor, cashier_actor):
    """He lost his chips, the tablet queued it offline, and he rebought at the desk before the
    queue arrived: no bust on the server, only the rebuy. His rebuy's chips stay in play."""
    t = started(18, **REBUYS)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    bianchi = Entry.objects.select_related("person").get(pk=layout[2][7])
    tapped = timezone.now()
    cashier.rebuy(Entry.objects.get(pk=bianchi.pk), method="CASH", actor=cashier_actor, stack=0)

    r = queued(tablet(), t, {"entries": [{"entry": bianchi.pk}], "table": 2}, tapped, "tap-r-2", HTTP_ACCEPT_LANGUAGE="it")

    assert r.status_code == 409, r.json()
    assert r.json()["code"] == "bust_before_return" and "bust" not in r.json()
    assert "è di nuovo in gioco con un rebuy dalle" in r.json()["detail"] and "siede al tavolo 2, posto 7" in r.json()["detail"]
    assert Entry.objects.get(pk=bianchi.pk).status == Entry.ACTIVE and seat_map(t)[2][7] == bianchi.pk
    assert not Bust.objects.filter(entry=bianchi).exists()


def test_a_queued_bust_tapped_after_his_rebuy_stands(started, actor, cashier_actor):
    t = started(18, **REBUYS)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    rossi = layout[1][4]
    seating.record_bust(t, [rossi], actor=actor, table=1)
    cashier.rebuy(Entry.objects.get(pk=rossi), method="CASH", actor=cashier_actor)
    table, _seat = where(rossi)
    tapped = timezone.now()  # back in play, then really out again: tapped offline after the rebuy

    r = queued(tablet(), t, {"entries": [{"entry": rossi}], "table": table}, tapped, "tap-r-3")

    assert r.status_code == 201, r.json()
    assert Entry.objects.get(pk=rossi).status == Entry.BUSTED


def test_a_queued_bust_tapped_before_a_rebuy_reversed_since_stands(started, actor, cashier_actor):
    """A rebuy taken back (sold by mistake) brought nobody back: the tap stands."""
    t = started(18, **REBUYS)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    verdi = layout[2][7]
    tapped = timezone.now()
    sale = cashier.rebuy(Entry.objects.get(pk=verdi), method="CASH", actor=cashier_actor, stack=0)
    cashier.reverse(LedgerRow.objects.get(pk=sale.row.pk), reason="sold to the wrong player", actor=cashier_actor)

    r = queued(tablet(), t, {"entries": [{"entry": verdi}], "table": 2}, tapped, "tap-r-4")

    assert r.status_code == 201, r.json()
    assert Entry.objects.get(pk=verdi).status == Entry.BUSTED


def test_a_queued_bust_of_an_entry_he_has_re_entered_since_is_refused_naming_his_new_entry(started, make_person, cashier_actor, actor):
    t = started(0, format=Tournament.REENTRY, max_entries_per_player=2, late_reg_closes_after_level=6, min_players=0)
    people = [make_person() for _ in range(12)]
    entries = [cashier.register(t, p, method="CASH", actor=cashier_actor).entry for p in people]
    old = entries[0]
    table_then, _seat = where(old.pk)
    tapped = timezone.now()
    seating.record_bust(t, [old.pk], actor=actor, table=table_then)  # recorded online by another tablet
    new = cashier.reenter(t, people[0], method="CASH", actor=cashier_actor, confirm_final_table=True).entry  # a new entry, a new seat
    table, seat = where(new.pk)

    r = queued(tablet(), t, {"entries": [{"entry": old.pk}], "table": table_then}, tapped, "tap-e-1")

    assert r.status_code == 409, r.json()
    data = r.json()
    assert data["code"] == "already_out" and data["entry"] == old.pk and data["reentry"] == new.pk
    name = people[0].full_name
    assert data["detail"].endswith(f" {name} plays on with a re-entry, #{new.number}, at table {table}, seat {seat}.")
    assert data["detail"].startswith(f"{name} (#{old.number}) was already out at ")
    assert Entry.objects.get(pk=new.pk).status == Entry.ACTIVE and where(new.pk) == (table, seat)


# --- a dealer's queued action: his table when he tapped it -----------------------------------------


def dealer_moved(hall, crew, make_tournament, make_person, actor):
    """Two tables dealt since a push 30 minutes ago; 5 minutes ago the dealer of table 1 was
    moved to table 2 (and table 2's to table 1). Returns (tournament, dealer, when he dealt 1)."""
    with minutes_ago(60):
        t = start(make_tournament, make_person, actor, 18)
    now = timezone.now()
    dealers.push(hall, actor=actor, now=now - timedelta(minutes=30))
    first = dealing(hall)
    moved_at = now - timedelta(minutes=5)
    for table, other in ((1, 2), (2, 1)):
        DealerAssignment.objects.filter(room=hall, dealer_id=first[table], ends_at__isnull=True).update(ends_at=moved_at)
        DealerAssignment.objects.create(room=hall, dealer_id=first[table], kind=DealerAssignment.DEAL, table=other, starts_at=moved_at)
    assert dealing(hall) == {1: first[2], 2: first[1]}
    dealer = next(u for u in crew if u.pk == first[1])
    return t, dealer, now - timedelta(minutes=10)


def test_a_dealers_queued_bust_at_his_new_table_tapped_while_he_dealt_the_old_one_is_refused(hall, crew, make_tournament, make_person, actor):
    t, dealer, then = dealer_moved(hall, crew, make_tournament, make_person, actor)
    at_2 = Entry.objects.filter(tournament=t, seat__table__number=2).first()

    with pytest.raises(DomainError) as refused:
        seating.record_bust(t, [at_2.pk], table=2, actor=Actor(dealer, "dealer tablet", tapped_at=then))

    assert refused.value.code == "not_your_table" and refused.value.status == 403
    assert str(refused.value.message) == f"When this was tapped ({timezone.localtime(then):%H:%M}) you dealt table 1, not table 2: ask the floor."
    assert Entry.objects.get(pk=at_2.pk).status == Entry.ACTIVE
    with pytest.raises(DomainError) as refused:
        seating.hand_completed(t, 2, actor=Actor(dealer, "dealer tablet", tapped_at=then))
    assert refused.value.code == "not_your_table"
    seating.record_bust(t, [at_2.pk], table=2, actor=Actor(dealer, "dealer tablet"))  # online, now: his table


def test_a_dealers_queued_bust_at_the_table_he_dealt_when_he_tapped_it_stands(hall, crew, make_tournament, make_person, actor):
    t, dealer, then = dealer_moved(hall, crew, make_tournament, make_person, actor)
    at_1 = Entry.objects.filter(tournament=t, seat__table__number=1).first()

    seating.record_bust(t, [at_1.pk], table=1, actor=Actor(dealer, "dealer tablet", tapped_at=then))

    assert Entry.objects.get(pk=at_1.pk).status == Entry.BUSTED
    with pytest.raises(DomainError):  # online, table 1 is no longer his
        seating.record_bust(t, [Entry.objects.filter(tournament=t, seat__table__number=1).first().pk], table=1, actor=Actor(dealer, "dealer tablet"))


def test_a_dealers_queued_bust_tapped_before_his_shift_is_refused(hall, crew, make_tournament, make_person, actor):
    t, dealer, _ = dealer_moved(hall, crew, make_tournament, make_person, actor)
    at_2 = Entry.objects.filter(tournament=t, seat__table__number=2).first()
    before_push = timezone.now() - timedelta(minutes=45)  # the tournament ran; he dealt nothing yet
    with pytest.raises(DomainError) as refused:
        seating.record_bust(t, [at_2.pk], table=2, actor=Actor(dealer, "dealer tablet", tapped_at=before_push))
    assert refused.value.code == "not_your_table" and "you were not dealing a table" in str(refused.value.message)


# --- a tap time before the tournament started ----------------------------------------------------------


def test_a_tap_time_before_the_start_is_not_believed(started, actor):
    with minutes_ago(30):
        t = started(18)
        layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    before_start = timezone.now() - timedelta(minutes=40)  # within the hours a tap time may be old

    r = queued(tablet(), t, {"entries": [{"entry": layout[1][4]}], "table": 1}, before_start, "tap-c-1")

    assert r.status_code == 201, r.json()
    event = TournamentEvent.objects.filter(tournament=t, action="seating.player.busted").get()
    assert "tapped_at" not in event.payload  # judged, and logged, as arriving now
    during = timezone.now() - timedelta(minutes=20)
    r = queued(tablet("tab2"), t, {"entries": [{"entry": layout[1][5]}], "table": 1}, during, "tap-c-2")
    assert r.status_code == 201
    assert TournamentEvent.objects.filter(tournament=t, action="seating.player.busted").latest("id").payload["tapped_at"] == during.isoformat()


def test_a_bust_tapped_before_the_start_is_not_judged_against_an_undo_then(started, actor):
    """Judged as arriving now: an undo earlier than the arrival does not refuse it (it is not
    known to be older), and nothing says the player was at another table then."""
    with minutes_ago(30):
        t = started(18)
        layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    first = seating.record_bust(t, [layout[2][6]], actor=actor, table=2).busts[0]
    seating.undo_bust(t, first, actor=actor)
    before_start = timezone.now() - timedelta(minutes=40)
    r = queued(tablet(), t, {"entries": [{"entry": layout[2][6]}], "table": 2}, before_start, "tap-d-1")
    assert r.status_code == 201, r.json()
