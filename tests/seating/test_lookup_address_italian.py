"""Item 10 (issue #39): the public seat lookup speaks to the player with "tu" throughout: "Scrivi
almeno tre lettere del tuo nome", not "Scrivete … vostro" beside "il tuo posto"."""

from django.test import Client

from .test_support import started  # noqa: F401 (fixture)


def test_the_seat_lookup_uses_tu_in_italian(started):
    t = started(4)
    page = Client(HTTP_ACCEPT_LANGUAGE="it").get(f"/seats/{t.pk}/?q=ab").content.decode()
    assert "Scrivi almeno tre lettere del tuo nome." in page
    assert "Scrivete" not in page and "vostro" not in page
