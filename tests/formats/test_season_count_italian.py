"""Item 10 (issue #39): a league's page counts its tournaments in Italian with the right
number: "1 torneo", never "1 tornei"."""

import re

import pytest
from django.test import Client

from tests.formats.conftest import scored_event
from tournaments.formats.services import series as series_service

pytestmark = pytest.mark.django_db


def test_a_league_after_one_tournament_says_one_torneo(make_tournament, field, actor):
    s = series_service.create_series(name="Lega", actor=actor, scoring="LINEAR", cycle_length=None)  # the director closes the season
    scored_event(s, make_tournament, field, actor, "Lunedì")
    page = Client(HTTP_ACCEPT_LANGUAGE="it").get(f"/formats/series/{s.pk}/leaderboard/").content.decode()
    line = re.search(r'<p class="sub">(.*?)</p>', page).group(1)
    assert "Stagione 1 · 1 torneo" in line and "tornei" not in line
