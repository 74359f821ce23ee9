"""A sheet exported in German, Spanish or French comes back in: its headers read in the language
it was written in, its numbers as that language writes them, and ``;`` between the columns where
the language writes a decimal comma (Excel's own CSV there)."""

import pytest
from django.utils import translation

from tdmanager import sheets
from tournaments.imports import rules as import_rules
from tournaments.imports import services as import_services
from tournaments.models import BlindStructure

pytestmark = pytest.mark.django_db


def levels(structure) -> list[tuple]:
    return list(structure.items.values_list("kind", "small_blind", "big_blind", "ante", "big_blind_ante", "minutes", "add_on"))


@pytest.mark.parametrize("code", ["de", "es", "fr"])
@pytest.mark.parametrize("fmt", sheets.FORMATS)
def test_a_structure_sheet_in_each_language_comes_back_as_it_went(code, fmt, structure, actor):
    with translation.override(code):  # the director working in the language exports…
        data, filename = import_rules.export_file("structure", fmt, {"structure": str(structure.pk)})
    if fmt == "csv":
        header = data.decode("utf-8-sig").splitlines()[0]
        assert ";" in header and "," not in header  # the columns as Excel splits them in a decimal-comma language
        english, _name = import_rules.export_file("structure", fmt, {"structure": str(structure.pk)})
        assert header.split(";")[1:] != english.decode("utf-8-sig").splitlines()[0].split(",")[1:]  # its headers in its language
    with translation.override("en"):  # …and a colleague reading English brings the same file in
        import_services.run_import("structure", data, filename, actor=actor, options={"name": f"Copy {code} {fmt}"})
    copy = BlindStructure.objects.get(name=f"Copy {code} {fmt}")
    assert levels(copy) == levels(structure) and len(levels(copy)) > 10
