"""Item 10 (issue #39): a table break's draw says in Italian "è 8ª su 9", never "è la 8ª"
(the article would need the elision, "l'8ª"; without it the sentence reads right for every rank)."""

from django.utils import translation

from seating.engine import ReasonCode
from seating.labels import clause_text


def test_the_card_rank_reads_right_for_eight_and_eleven():
    params = {"table": 3, "card": "8♠", "rank": 8, "of": 9, "to_table": 1, "to_seat": 8}
    with translation.override("it"):
        for code in (ReasonCode.BREAK_DRAW, ReasonCode.FINAL_TABLE_DRAW):
            text = clause_text(code, params)
            assert "è 8ª su 9" in text and "la 8ª" not in text
            assert "è 11ª su 12" in clause_text(code, {**params, "rank": 11, "of": 12})
