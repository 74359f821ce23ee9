"""One house-rules object (issue #12): every setting a field with its default and rule id, the
docs/house-rules.md's table tested against it, and the points that used to have two answers have one."""

import re
from decimal import Decimal
from pathlib import Path

import pytest

from seating import engine as seating_engine
from tdmanager.errors import ValidationFailed
from tournaments.cashier import services as cashier
from tournaments.clock import selectors as clock_selectors
from tournaments.clock import services as clock_services
from tournaments.formats.services import stackchoice
from tournaments.house import (
    HOUSE_FIELDS,
    SETTINGS,
    HouseRules,
    check_settings,
    default_text,
)
from tournaments.models import Tournament
from tournaments.setup import lifecycle
from tournaments.structures import services as structures

README = Path(__file__).resolve().parents[2] / "docs" / "house-rules.md"


def readme_house_table() -> dict[str, list[str]]:
    """{setting: [default, rule, description]} from the first table under "House rules"."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## House rules", 1)[1].split("\n## ", 1)[0]
    rows, in_table = {}, False
    for line in section.splitlines():
        if line.startswith("| setting |"):
            in_table = True
            continue
        if in_table and line.startswith("|---"):
            continue
        if in_table and not line.startswith("|"):
            break
        if in_table:
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            prefix, name = re.fullmatch(r"`(settings\.)?(\w+)`", cells[0]).groups()
            rows[name] = [bool(prefix)] + cells[1:]
    return rows


def test_every_field_is_in_the_readme_table_with_its_default_and_rule_and_every_row_is_a_field():
    rows = readme_house_table()
    assert set(rows) == {f.name for f in HOUSE_FIELDS}
    for f in HOUSE_FIELDS:
        in_settings, default, rule, description = rows[f.name]
        assert in_settings != f.metadata["column"], f.name  # `settings.key`, or a column by its name
        assert default == default_text(f), f.name
        assert rule == f.metadata["rule"], f.name
        assert description == f.metadata["description"], f.name


def test_every_field_has_a_type_a_rule_id_and_a_description():
    for f in HOUSE_FIELDS:
        assert f.type and f.metadata["description"], f.name
        assert re.match(r"([A-Z]+-\d\d|C\d+)", f.metadata["rule"]), f.name


def test_every_settings_key_is_a_field_and_checked_when_saved():
    fields = {f.name for f in HOUSE_FIELDS if not f.metadata["column"]}
    assert set(SETTINGS) == fields | {"h4h_policy"}  # the older name of h4h_simultaneous_policy
    assert check_settings({"final_table_size": 7, "late_reg_stack": {"chips": 20000}}) == {}
    assert set(check_settings({"final_table_size": "nine", "no_such": 1})) == {"final_table_size", "no_such"}


class Row:
    def __init__(self, settings=None, table_size=9, rule_set="TDA"):
        self.settings, self.table_size, self.rule_set = settings, table_size, rule_set


def test_defaults_that_follow_other_settings_are_worked_out_in_the_object():
    assert [HouseRules.of(Row(table_size=n)).final_table_size for n in (11, 10, 9, 8, 7, 6, 5)] == [9, 9, 9, 9, 7, 7, 5]
    assert [HouseRules.of(Row(table_size=n)).final_table_size for n in (10, 9, 8, 7, 6)] == [seating_engine.final_table_size(n) for n in (10, 9, 8, 7, 6)]
    sanremo = HouseRules.of(Row(rule_set="SANREMO_003"))
    assert (sanremo.penalty_preset, sanremo.h4h_simultaneous_policy, sanremo.require_prestart_report) == ("SANREMO_003", "RANK_BY_STARTING_STACK", True)
    tda = HouseRules.of(Row())
    assert (tda.penalty_preset, tda.h4h_simultaneous_policy, tda.require_prestart_report) == ("TDA", "SHARE", False)
    assert HouseRules.of(Row({"final_table_size": 8}, table_size=6)).final_table_size == 8


def test_stored_values_win_and_settings_that_are_not_an_object_read_as_the_defaults():
    rules = HouseRules.of(Row({"payout_rounding": "10", "h4h_policy": "SHARE", "break_order": [3, 2]}, rule_set="SANREMO_003"))
    assert rules.payout_rounding == Decimal("10") and rules.h4h_simultaneous_policy == "SHARE" and rules.break_order == [3, 2]
    assert HouseRules.of(Row("x")) == HouseRules.of(Row({}))


# --- late registration stack (REG-04, C6, FMT-07): one answer at the desk and under stack choice ---


@pytest.fixture
def running(make_tournament, make_person, cashier_actor, actor):
    def make(**settings):
        t = make_tournament(starting_stack=30000, late_reg_closes_after_level=3, settings=settings)
        for _ in range(2):
            cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
        lifecycle.start(t, actor=actor, prestart_report_sent=True)
        t.refresh_from_db()
        assert t.status == Tournament.RUNNING
        return t

    return make


def option(t, label, chips, actor):
    return stackchoice.add_stack_option(t, label=label, buy_in=Decimal("100"), fee=Decimal("10"), chips=chips, actor=actor, override_reason="test")


def test_a_late_chips_stack_is_the_same_at_the_desk_and_under_stack_choice(running, make_person, cashier_actor, actor):
    t = running(late_reg_stack={"chips": 20000})
    short, deep = option(t, "Short 15k", 15000, actor), option(t, "Deep 60k", 60000, actor)
    at_desk = cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry.chips
    chose_deep = stackchoice.register_with_stack_choice(t, make_person(), deep, method="CASH", actor=cashier_actor).entry.chips
    chose_short = stackchoice.register_with_stack_choice(t, make_person(), short, method="CASH", actor=cashier_actor).entry.chips
    assert (at_desk, chose_deep, chose_short) == (20000, 20000, 15000)  # n chips, never more than the stack bought


def test_a_late_chips_stack_above_the_full_stack_is_the_full_stack_at_the_desk_too(running, make_person, cashier_actor, actor):
    t = running(late_reg_stack={"chips": 50000})  # C6 is a reduction; C29: chips are never increased
    deep = option(t, "Deep 60k", 60000, actor)
    assert cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry.chips == 30000
    assert stackchoice.register_with_stack_choice(t, make_person(), deep, method="CASH", actor=cashier_actor).entry.chips == 50000


def test_a_late_percent_stack_is_a_share_of_the_stack_bought(running, make_person, cashier_actor, actor):
    t = running(late_reg_stack={"percent": 80})
    deep = option(t, "Deep 60k", 60000, actor)
    assert cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry.chips == 24000
    assert stackchoice.register_with_stack_choice(t, make_person(), deep, method="CASH", actor=cashier_actor).entry.chips == 48000


def test_reg04_before_the_start_every_stack_is_full_whatever_the_late_stack(make_tournament, make_person, cashier_actor, actor):
    """The late stack is for late registrants: a player who buys before the cards are in the air
    gets the stack he bought, at the desk and under stack choice."""
    t = make_tournament(status=Tournament.REGISTERING, starting_stack=30000, settings={"late_reg_stack": {"percent": 50}})
    deep = option(t, "Deep 60k", 60000, actor)
    assert cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry.chips == 30000
    assert stackchoice.register_with_stack_choice(t, make_person(), deep, method="CASH", actor=cashier_actor).entry.chips == 60000


# --- one structure validation: the clock engine's, for the clock and the structures service ---

ITEMS = [
    {"kind": "LEVEL", "small_blind": 100, "big_blind": 200, "ante": 200, "big_blind_ante": True, "minutes": 20},
    {"kind": "LEVEL", "small_blind": 150, "big_blind": 300, "ante": 100, "big_blind_ante": True, "minutes": 20},
    {"kind": "BREAK", "minutes": 10},
    {"kind": "BREAK", "minutes": 5},
    {"kind": "LEVEL", "small_blind": 100, "big_blind": 200, "ante": 200, "big_blind_ante": True, "minutes": 20},
]


def test_the_structures_service_and_the_clock_give_the_same_warnings(make_tournament, actor, director, client):
    saved = structures.save_structure(name="Odd", items=ITEMS, actor=actor)
    from_service = structures.structure_warnings(structures.validate_items(ITEMS))
    t = make_tournament(structure=saved)
    from_clock = clock_selectors.structure_warnings(clock_selectors.structure_items(t))
    assert from_service == from_clock and len(from_service) == 3
    assert [w.split(":")[0] for w in from_service] == ["Row 2", "Row 4", "Row 5"]  # ante down, two breaks, big blind down
    client.force_login(director)
    page = client.get(f"/tournaments/{t.pk}/clock/").content.decode()
    assert all(w in page for w in from_clock)
    clock_services.start_clock(t, actor=actor)  # warnings, not errors: the clock starts


def test_a_structure_ending_with_a_break_is_refused_by_the_one_validation():
    with pytest.raises(ValidationFailed) as e:
        structures.validate_items(ITEMS[:4])
    assert e.value.code == "ends_with_break"


def test_the_front_page_s_bounty_settings_give_the_defaults_the_house_rules_use():
    """The README's short table of the bounty settings (its tour) names each with the default a
    new tournament really gets, as docs/house-rules.md's full table does."""
    front = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^  \| `(\w+)` \| (`[^|]+`) \|", front, flags=re.M))
    bounty_fields = {f.name for f in HOUSE_FIELDS if f.name.startswith(("bounty", "mystery_"))}
    assert bounty_fields - {"mystery_envelopes"} <= set(rows)
    for name, shown in rows.items():
        field = next(f for f in HOUSE_FIELDS if f.name == name)
        assert shown == default_text(field), name
