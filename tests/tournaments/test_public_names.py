"""Issue #39 item 12c: one public name style everywhere public, built once per snapshot or
answer: the lobby's bounty list, results, league and seat ticker, the seat lookup (seats and
standings). Two players who would read the same ("Luca R.") are told apart by their entry number;
an erased person keeps his pseudonym; a player who asked not to be found is not named."""

from decimal import Decimal

import pytest
from django.utils import timezone

from payouts.models import BountyHead
from seating import selectors as seating_selectors
from seating.models import Seat
from seating.selectors.lookup import lookup
from tournaments.cashier import services as cashier
from tournaments.formats.services import series as series_service
from tournaments.live.snapshot import build_snapshot
from tournaments.models import Entry, Person
from tournaments.people.names import public_name, public_names, ranked_public_names
from tournaments.people.privacy import pseudonym
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db


def test_the_style_and_its_twins():
    assert public_name("Giulia", "Ferri", "Giuly") == "Giulia F."
    assert public_name("Giulia", "Ferri", "Giuly", "FULL") == "Giulia Ferri"
    assert public_name("Giulia", "Ferri", "Giuly", "NICKNAME") == "Giuly"
    assert public_name(*pseudonym(12), "") == "Erased player #12"  # as it is, in every style
    assert public_name("Giulia", "Ferri", hidden=True) == "—"
    rows = [
        ("Luca", "Rossi", "", False, 12),
        ("Luca", "Russo", "", False, 31),
        ("Anna", "Neri", "", False, 2),
        ("X", "Y", "", True, 4),
        ("Z", "W", "", True, 5),
    ]
    assert public_names(rows) == ["Luca R. #12", "Luca R. #31", "Anna N.", "—", "—"]


def test_a_ranked_list_of_people_tells_alike_names_apart_by_the_rank():
    """Issue #40 item 4: a league's line is a person, with no entry number: two who read alike
    carry their rank, never their full name; two alike who share a rank too, their position."""
    rows = [
        ("Mario", "Rossi", "", False, 1),
        ("Luca", "Bianchi", "", False, 2),
        ("Luca", "Bruni", "", False, 3),
        ("Anna", "Verdi", "", True, 4),
        ("Carla", "Neri", "", False, 5),
        ("Carla", "Nardi", "", False, 5),
        ("Anna", "Valli", "", True, 5),
    ]
    assert ranked_public_names(rows) == ["Mario R.", "Luca B. #2", "Luca B. #3", "—", "Carla N. #5", "Carla N. #6", "—"]
    assert ranked_public_names(rows, "FULL")[1:3] == ["Luca Bianchi", "Luca Bruni"]  # the house names everybody in full


@pytest.fixture
def field(make_tournament, make_person, cashier_actor, actor):
    """A PKO event, running: Luca Rossi (#1), Luca Russo (#2), Giulia Ferri "Giuly" (#3), an
    erased person (#4), Anna Neri (#5)."""
    t = make_tournament(buy_in=Decimal("50"), fee=Decimal("10"), settings={"bounty": "PKO", "bounty_amount": "50"})
    people = [
        make_person("Luca", "Rossi"),
        make_person("Luca", "Russo"),
        make_person("Giulia", "Ferri", nickname="Giuly"),
        make_person("Mario", "Bianchi"),
        make_person("Anna", "Neri"),
    ]
    entries = [cashier.register(t, p, method="CASH", actor=cashier_actor).entry for p in people]
    erased = people[3]
    erased.first_name, erased.last_name = pseudonym(erased.pk)
    erased.save()
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    t.refresh_from_db()
    return t, entries


def test_the_lobby_and_the_seat_lookup_name_players_alike(field):
    t, entries = field
    luca1, luca2, giulia, erased, _anna = entries
    erased_name = "Erased player #%s" % erased.person_id
    BountyHead.objects.filter(entry__in=[luca1, luca2]).update(amount=Decimal("75"))  # the two at the top of the bounty list
    top = [h["name"] for h in build_snapshot(t.pk)["bounty"]["top"]]
    assert top[:2] == [f"Luca R. #{luca1.number}", f"Luca R. #{luca2.number}"]
    assert "Giulia F." in top and erased_name in top

    # the seat ticker of the lobby screens: the same names
    ticker = {s["name"] for s in seating_selectors.seat_page(t, 1, 48)["seats"]}
    assert ticker == {f"Luca R. #{luca1.number}", f"Luca R. #{luca2.number}", "Giulia F.", erased_name, "Anna N."}

    # the public seat lookup: the same names, the two Lucas told apart
    found = lookup(t, "Luca")
    assert sorted(r["name"] for r in found["results"]) == [f"Luca R. #{luca1.number}", f"Luca R. #{luca2.number}"]


def test_the_finished_event_and_the_league_name_players_alike(field, actor, make_tournament, cashier_actor):
    t, entries = field
    order = [entries[2], entries[0], entries[1], entries[4], entries[3]]  # Giulia wins
    start = timezone.now() - timezone.timedelta(hours=2)
    for i, e in enumerate(reversed(order[1:])):
        Entry.objects.filter(pk=e.pk).update(status=Entry.BUSTED, busted_at=start + timezone.timedelta(minutes=i))
    Seat.objects.filter(tournament=t).exclude(entry=order[0]).delete()
    for place, e in enumerate(order, start=1):
        Entry.objects.filter(pk=e.pk).update(place=place)
    lifecycle.finish(t, actor=actor)
    results = [r["player"] for r in build_snapshot(t.pk)["results"]]
    assert results[:3] == ["Giulia F.", f"Luca R. #{entries[0].number}", f"Luca R. #{entries[1].number}"]
    standings = [r["name"] for r in seating_selectors.public_standings(t)]
    assert standings[:3] == results[:3]

    league = series_service.create_series(name="Thursday league", scoring="LINEAR", cycle_length=None, actor=actor)
    series_service.attach(league, t, actor=actor)
    series_service.score_tournament(t, actor=actor)
    nxt = make_tournament(name="Next week")
    series_service.attach(league, nxt, actor=actor)
    top = [line["name"] for line in build_snapshot(nxt.pk)["league"]["top"]]
    # the same style, not "Giulia Ferri (Giuly)"; two people of a name carry their rank (a
    # league's line is a person, who has no entry number of his own), never the full name
    assert top[:3] == ["Giulia F.", "Luca R. #2", "Luca R. #3"]
    assert Person.objects.count() == 5
