"""Item 10 (issue #39): a league's page counts its tournaments in Italian with the right
number: "1 torneo", never "1 tornei"."""

import re

import pytest
from django.test import Client

from tests.formats.conftest import bust_in_order
from tournaments.formats.services import series as series_service
from tournaments.models import Entry
from tournaments.services import lifecycle

pytestmark = pytest.mark.django_db


def test_a_league_after_one_tournament_says_one_torneo(make_tournament, field, actor):
    s = series_service.create_series(name="Lega", actor=actor, scoring="LINEAR", cycle_length=None)  # the director closes the season
    d = make_tournament(name="Lunedì")
    series_service.attach(s, d, actor=actor)
    es = field(d, 3)
    lifecycle.start(d, actor=actor)
    bust_in_order(es[:2])
    for place, e in zip((3, 2, 1), es):
        Entry.objects.filter(pk=e.pk).update(place=place)
    lifecycle.finish(d, actor=actor)
    series_service.score_tournament(d, actor=actor)
    page = Client(HTTP_ACCEPT_LANGUAGE="it").get(f"/formats/series/{s.pk}/leaderboard/").content.decode()
    line = re.search(r'<p class="sub">(.*?)</p>', page).group(1)
    assert "Stagione 1 · 1 torneo" in line and "tornei" not in line
