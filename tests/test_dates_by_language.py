"""Dates and times as each language writes them, on every page, slip and report that prints one
(``tdmanager.formatting.when`` and the ``when`` filter)."""

from datetime import UTC, date, datetime

import pytest
from django.template import Context, Template
from django.utils import translation

from tdmanager.formatting import when

MOMENT = datetime(2026, 11, 28, 20, 5, 7, tzinfo=UTC)  # 21:05:07 in Rome

WRITTEN = {
    "en": ("28/11/2026", "28/11/2026 21:05", "28/11 21:05:07", "Sat 28/11 21:05"),
    "it": ("28/11/2026", "28/11/2026 21:05", "28/11 21:05:07", "Sab 28/11 21:05"),
    "de": ("28.11.2026", "28.11.2026 21:05", "28.11. 21:05:07", "Sa 28.11. 21:05"),
    "es": ("28/11/2026", "28/11/2026 21:05", "28/11 21:05:07", "sáb 28/11 21:05"),
    "fr": ("28/11/2026", "28/11/2026 21:05", "28/11 21:05:07", "sam 28/11 21:05"),
}


@pytest.mark.parametrize("code", WRITTEN)
def test_each_language_writes_the_room_s_local_moment_its_own_way(code, settings):
    settings.TIME_ZONE = "Europe/Rome"
    with translation.override(code):
        assert (when(date(2026, 11, 28), "date"), when(MOMENT, "datetime"), when(MOMENT, "shortseconds"), when(MOMENT, "weekday")) == WRITTEN[code]
        assert Template('{% load tdm_format %}{{ m|when:"datetime" }}').render(Context({"m": MOMENT})) == WRITTEN[code][1]


def test_nothing_is_written_for_no_date():
    assert when(None) == "" and when("") == ""
