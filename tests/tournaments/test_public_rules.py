"""BAL-05, FMT-02, ROLE-06: the public rules page and change feed (no login).

BAL-05: the house's balancing/breaking procedure is shown to players before the event (TDA
11-C "a predetermined procedure"); FMT-02: the changes the director publishes are readable on
the website without a login; ROLE-06: the tables' official language(s) are posted on the public
pages (TDA 6). All in the reader's language, and bounded like the other public URLs.
"""

from decimal import Decimal

import pytest
from django.test import Client

from tdmanager.public import PUBLIC
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Tournament
from tournaments.setup import changes
from tournaments.setup import services as setup


@pytest.mark.django_db
def test_bal05_the_balancing_procedure_is_on_a_public_page_in_the_players_language(make_tournament):
    t = make_tournament()
    Tournament.objects.filter(pk=t.pk).update(
        settings={"tie_break": "RANDOM_DRAW", "balance_trigger_difference": 3, "break_order": [4, 1, 3, 2], "official_languages": "English"}
    )
    page = Client().get(f"/rules/{t.pk}/")  # anonymous
    assert page.status_code == 200
    text = page.content.decode()
    assert "Tables are balanced when they differ by 3 or more players." in text
    assert "Equal tables: the table is drawn by lot." in text
    assert "The player who would be big blind in the next hand moves." in text
    assert "Tables break in this published order: 4, 1, 3, 2." in text
    assert "Official language(s) at the tables" in text and "English" in text
    # The same page in Italian for a player whose browser asks for it.
    italian = Client(HTTP_ACCEPT_LANGUAGE="it").get(f"/rules/{t.pk}/").content.decode()
    assert "I tavoli vengono bilanciati quando differiscono di 3 o più giocatori." in italian
    assert "Tavoli uguali: il tavolo è estratto a sorte." in italian


@pytest.mark.django_db
def test_bal05_the_page_follows_the_house_settings_the_engine_reads(make_tournament):
    t = make_tournament()
    Tournament.objects.filter(pk=t.pk).update(settings={"mover_rule": "CURRENT_BB", "dest_rule": "NEAREST_BB"})
    text = Client().get(f"/rules/{t.pk}/").content.decode()
    assert "The player who posted the big blind in the hand just finished moves." in text
    assert "The player moved takes the open seat nearest the big blind, never the small blind." in text
    assert "The table with the fewest players breaks first" in text
    assert "Late registration and re-entry close at the end of level 3." in text  # the house default, REG-04


@pytest.mark.django_db
def test_fmt02_the_published_changes_are_a_public_feed_without_login(make_tournament, director):
    t = make_tournament()  # registering: published
    setup.update_tournament(t, {"buy_in": Decimal("150")}, actor=Actor(director, "test"), override_reason="sponsor added")
    feed = Client().get(f"/rules/{t.pk}/changes/")
    assert feed.status_code == 200
    data = feed.json()
    assert data["official_languages"] == "Italiano, English"  # ROLE-06: the house default
    assert [c["version"] for c in data["changes"]] == [1]
    assert data["changes"][0]["reason"] == ""  # the staff's until the director shows it to the players
    assert any(line.startswith("Buy-in: ") and line.endswith("→ 150.00") for line in data["changes"][0]["lines"])
    assert "changed_by" not in data["changes"][0] and director.username not in feed.content.decode()
    assert "sponsor added" not in Client().get(f"/rules/{t.pk}/").content.decode()
    changes.set_reason_public(t, 1, True, actor=Actor(director, "test"))
    assert Client().get(f"/rules/{t.pk}/changes/").json()["changes"][0]["reason"] == "sponsor added"
    # The page lists it too; the staff API still wants a login.
    assert "sponsor added" in Client().get(f"/rules/{t.pk}/").content.decode()
    assert Client().get(f"/api/v1/tournaments/{t.pk}/changes/").status_code in (401, 403)
    assert Client().get("/rules/999999/changes/").status_code == 404


def test_fmt02_role06_the_public_urls_are_bounded_per_address():
    assert PUBLIC["public-rules"].limited and PUBLIC["public-rules"].page
    assert PUBLIC["public-changes"].limited and PUBLIC["public-changes"].token is None


@pytest.mark.django_db
def test_role06_the_official_language_is_posted_on_the_phone_and_seat_lookup(make_tournament, make_person, cashier_actor):
    t = make_tournament()
    Tournament.objects.filter(pk=t.pk).update(settings={"official_languages": "Italiano"})
    lookup = Client().get(f"/seats/{t.pk}/").content.decode()
    assert "Official language(s) at the tables: Italiano" in lookup and f"/rules/{t.pk}/" in lookup
    entry = cashier.register(t, make_person("Anna", "Bianchi"), method="CASH", actor=cashier_actor).entry
    phone = Client().get(f"/p/{entry.phone_token}/").content.decode()
    assert "Official language(s) at the tables: Italiano" in phone and f"/rules/{t.pk}/" in phone


@pytest.mark.django_db
@pytest.mark.parametrize(
    "house, says",
    [
        (
            {"bounty": "FIXED", "bounty_amount": "50"},
            [
                "Each entry and re-entry puts a bounty of €50.00 on the player&#x27;s head, apart from the prize pool.",
                "Knockout: the player who knocks a player out wins that player&#x27;s whole bounty.",
                "Bounties won are paid in cash at the cash desk, in multiples of €1.00.",
            ],
        ),
        (
            {"bounty": "PKO", "bounty_amount": "100", "bounty_cash_percent": "60", "bounty_split": "POT"},
            [
                "Each entry and re-entry puts a bounty of €100.00 on the player&#x27;s head",
                "wins 60% of that player&#x27;s bounty in cash; the other 40% goes onto the winner&#x27;s own bounty.",
                "Players who knock out the same player share the bounty by their share of the pot.",
            ],
        ),
        (
            {"bounty": "MYSTERY", "bounty_amount": "40", "mystery_from": {"level": 9}, "mystery_leftover": "CARRY_OVER"},
            [
                "Mystery bounty: €40.00 of each entry and re-entry goes into the mystery envelopes, apart from the prize pool.",
                "draws an envelope and wins the amount in it.",
                "Envelopes are drawn from level 9; a knockout before it wins no envelope.",
                "Envelopes still in the bag at the end are kept for the next mystery event.",
            ],
        ),
    ],
)
def test_pay02_a_bounty_event_s_rules_page_states_its_bounties(make_tournament, house, says):
    """Issue #39 item 12: the kind of bounty, the bounty part of each entry and how bounties are
    paid, from the event's own house rules; an event without bounties says nothing of them."""
    t = make_tournament(settings=house)
    text = Client().get(f"/rules/{t.pk}/").content.decode()
    section = text.split('id="bounties"', 1)[1].split("</section>", 1)[0]
    for line in says:
        assert line in section
    plain = make_tournament(name="No bounties")
    assert 'id="bounties"' not in Client().get(f"/rules/{plain.pk}/").content.decode()


@pytest.mark.django_db
def test_pay02_the_bounty_rules_in_italian(make_tournament):
    t = make_tournament(settings={"bounty": "PKO", "bounty_amount": "100"})
    text = Client(HTTP_ACCEPT_LANGUAGE="it").get(f"/rules/{t.pk}/").content.decode()
    section = text.split('id="bounties"', 1)[1].split("</section>", 1)[0]
    assert "Taglie" in section or "Bounty" in section
    assert "100,00\u00a0€" in section and "50%" in section
    assert "Ogni iscrizione e re-entry mette sulla testa del giocatore una taglia di 100,00\u00a0€" in section


@pytest.mark.django_db
def test_a_planned_tournament_is_not_public_until_the_director_opens_registration(make_tournament, director):
    """Issue #40 item 12: the public rules pages (and the seat lookup, which links to them) listed
    every tournament by id, planned ones included ("H2 Secret planned event")."""
    from tournaments.setup import lifecycle

    t = make_tournament(name="H2 Secret planned event", status=Tournament.PLANNED)
    for url in (f"/rules/{t.pk}/", f"/rules/{t.pk}/changes/", f"/seats/{t.pk}/", f"/seats/{t.pk}/find/?q=abc"):
        response = Client().get(url)
        assert response.status_code == 404 and "Secret" not in response.content.decode()
    lifecycle.open_registration(t, actor=Actor(director, "test"))
    assert "H2 Secret planned event" in Client().get(f"/rules/{t.pk}/").content.decode()
    assert "H2 Secret planned event" in Client().get(f"/seats/{t.pk}/").content.decode()
    assert Client().get(f"/rules/{t.pk}/changes/").json()["tournament"]["name"] == "H2 Secret planned event"
