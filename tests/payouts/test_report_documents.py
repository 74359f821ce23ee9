"""The pre-start report and its addenda (ROLE-02) name the players, as 003 Art. 4.3(3) asks, and
show their identity document masked, as every list does: no role that may read a report (the
staff, the controller, the regulator) gets a whole document number from it, in JSON, CSV or PDF."""

import pytest

from tests.conftest import make_user
from tests.payouts.test_reports_italian import pdf_text
from tournaments.cashier import services as cashier
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor
from tournaments.models import TournamentEvent
from tournaments.oversight import services as oversight

pytestmark = pytest.mark.django_db

WHOLE = "CA4471829X"


@pytest.mark.parametrize("role", ["director", "floor", "cashier", "controller", "regulator"])
def test_no_reader_of_the_prestart_report_gets_a_whole_document_number(api, tournament, make_person, cashier_actor, director, role):
    player = make_person("Ada", "Lovelace", document_id=WHOLE)
    cashier.register(tournament, player, method="CASH", actor=cashier_actor)
    reader = api(make_user(f"{role}-reader", role))
    if role == "regulator":  # he reads the tournaments he is given
        oversight.set_regulator_access(tournament, f"{role}-reader", granted=True, actor=Actor(director))
    url = f"/api/v1/tournaments/{tournament.pk}/payouts/reports/prestart/"
    as_json = reader.get(url)
    assert as_json.status_code == 200
    rows = as_json.json()["rows"]
    ada = next(row for row in rows if "Ada Lovelace" in row)
    assert "•" * 7 + "29X" in ada and WHOLE not in str(as_json.json())
    csv = reader.get(url, {"format_type": "csv"})
    assert csv.status_code == 200 and "Ada Lovelace" in csv.content.decode() and WHOLE not in csv.content.decode()
    pdf = pdf_text(reader.get(url, {"format_type": "pdf"}).content)
    assert "Lovelace" in pdf and "29X" in pdf and WHOLE not in pdf
    assert not TournamentEvent.objects.filter(action=Action.PEOPLE_DOCUMENT_VIEWED).exists()
