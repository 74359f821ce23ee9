"""The simulator itself (issue 38): a day replays exactly from its seed, a broken rule is caught
at the step that broke it and printed with its steps, and a refusal the product gives in English
to an Italian reader is a violation."""

from decimal import Decimal

import pytest

from tdmanager.errors import DomainError
from tournaments.cashier import selectors as cashier_selectors
from tournaments.cashier import services as cashier
from tournaments.models import Entry, LedgerRow, Person
from tournaments.notices import rules as notice_rules
from tournaments.people import privacy
from tournaments.people import services as people
from tournaments.phone import views as phone

from . import actions
from .driver import Violation, play, untranslated

OPENING = [
    ("create_event", 11),
    ("create_event", 12),
    ("sell_entry", 21),
    ("sell_entry", 22),
    ("sell_entry", 23),
    ("sell_entry", 24),
    ("sell_entry", 25),
    ("reserve_and_pay", 31),
]


@pytest.mark.django_db
def test_a_plan_replays_to_the_same_ledger():
    """The same plan, played twice as two days, sells the same amounts in the same order."""
    first = play(7, plan=OPENING, day=0)
    amounts_first = list(LedgerRow.objects.order_by("receipt_number").values_list("kind", "prize_amount", "fee_amount", "bounty_amount"))
    second = play(7, plan=OPENING, day=1)
    amounts = list(LedgerRow.objects.order_by("receipt_number").values_list("kind", "prize_amount", "fee_amount", "bounty_amount"))
    assert [line.split(" (#")[0] for line in first.log] == [line.split(" (#")[0] for line in second.log]
    assert (first.ran, first.refused) == (second.ran, second.refused)
    assert sum(first.ran.values()) >= 4  # the opening did sell (a plan of refusals proves nothing)
    assert amounts[len(amounts_first) :] == amounts_first


@pytest.mark.django_db
def test_a_drawer_that_does_not_add_up_is_caught_at_its_step(monkeypatch):
    """A shift total one cent off (a broken desk total) is a violation after the first sale, and
    the report names the invariant, the step and the plan that replays it."""
    real = cashier_selectors.shift_totals

    def off_by_a_cent(user, **kw):
        out = real(user, **kw)
        if out["rows"]:
            out["total"] += Decimal("0.01")
        return out

    monkeypatch.setattr(cashier_selectors, "shift_totals", off_by_a_cent)
    with pytest.raises(Violation) as caught:
        play(7, plan=OPENING, day=0)
    v = caught.value
    assert v.plan[v.step][0] in ("sell_entry", "reserve_and_pay")
    assert "drawers_equal_their_rows" in v.render()
    assert "plan = [('create_event', 11)" in v.render()


@pytest.mark.django_db
def test_an_unexpected_exception_is_a_violation_not_a_refusal(monkeypatch):
    def broken(*a, **kw):
        raise KeyError("entry")

    monkeypatch.setattr(cashier, "register", broken)
    with pytest.raises(Violation, match="sell_entry raised KeyError"):
        play(7, plan=OPENING, day=0)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["it", "de"])
def test_an_english_refusal_to_a_reader_of_another_language_is_a_violation(monkeypatch, language):
    def refuse(*a, **kw):
        raise DomainError("closed", "The desk is closed: this sale cannot be made.")

    monkeypatch.setattr(cashier, "register", refuse)
    with pytest.raises(Violation, match=f"read in {language} is English"):
        play(7, plan=OPENING, day=0, language=language)


def test_the_english_detector_reads_italian_as_italian():
    assert untranslated("This tournament has already ended.")
    assert not untranslated("Questo torneo è già terminato: non si vende più.")


def test_every_action_has_a_weight_and_a_docstring_or_a_name_that_says_it():
    assert len(actions.ACTIONS) >= 30
    assert all(a.weight > 0 for a in actions.ACTIONS.values())


@pytest.mark.django_db
def test_a_phone_page_that_keeps_an_erased_name_is_caught(monkeypatch):
    """A phone page that goes on showing the name it first showed (a stale cache) after its
    player was erased is a violation at the erasure's step."""
    refunds = [("refund_before_start", s) for s in range(60, 66)]
    erasures = [("erase_person", s) for s in range(40, 52)]
    assert play(7, plan=OPENING + refunds + erasures, day=0).ran["erase_person"] >= 2  # the plan erases, unbroken
    real, shown, real_erase = phone.phone_state, {}, privacy.erase_person

    def sticky(entry_id, snap=None):
        state = real(entry_id, snap)
        state["entry"]["name"] = shown.setdefault(entry_id, state["entry"]["name"])
        return state

    def erase_with_his_phone_open(person, *args, **kwargs):
        for pk in Entry.objects.filter(person=person).values_list("pk", flat=True):
            phone.phone_state(pk)  # the player looks at his page a last time
        return real_erase(person, *args, **kwargs)

    monkeypatch.setattr(privacy, "erase_person", erase_with_his_phone_open)
    monkeypatch.setattr(phone, "phone_state", sticky)
    with pytest.raises(Violation) as caught:
        play(7, plan=OPENING + refunds + erasures, day=1)
    v = caught.value
    assert v.plan[v.step][0] == "erase_person"
    assert "erased_people_are_gone" in v.render() and "still shows" in v.render()


LOOK_UPS = [("look_up_person", s) for s in range(70, 74)]


@pytest.mark.django_db
def test_a_search_that_finds_a_document_for_the_floor_is_caught(monkeypatch):
    """The people search matching the document number for every role (the floor could guess a
    masked number a character at a time) is a violation at the first look-up."""
    assert play(7, plan=OPENING + LOOK_UPS, day=0).ran["look_up_person"] == len(LOOK_UPS)  # unbroken: no violation
    monkeypatch.setattr(people, "has_role", lambda user, *roles: True)  # every reader reads whole numbers
    with pytest.raises(Violation) as caught:
        play(7, plan=OPENING + LOOK_UPS, day=1)
    v = caught.value
    assert v.plan[v.step][0] == "look_up_person"
    assert "documents_found_whole_and_only_at_the_desk" in v.render() and "sim-floor finds person" in v.render()


@pytest.mark.django_db
def test_a_search_that_finds_a_part_of_a_document_is_caught(monkeypatch):
    """The search matching a part of a document number (as it did when the number was part of
    the search text) is a violation at the first look-up."""
    real = people.search_people

    def by_any_part(query, limit=20, *, reader=None):
        found = real(query, limit, reader=reader)
        return found + [p for p in Person.objects.filter(document_id__icontains=query.strip()) if p not in found]

    monkeypatch.setattr(people, "search_people", by_any_part)
    with pytest.raises(Violation, match="by a part of his document number"):
        play(7, plan=OPENING + LOOK_UPS, day=0)


@pytest.mark.django_db
def test_an_export_whose_document_read_is_not_logged_is_caught(monkeypatch):
    exports = [("export_person", s) for s in range(80, 83)]
    assert play(7, plan=OPENING + exports, day=0).ran["export_person"] == len(exports)
    monkeypatch.setattr(privacy, "log_document_viewed", lambda *a, **kw: None)
    with pytest.raises(Violation, match="exports of his data, 0 reads of his document"):
        play(7, plan=OPENING + exports, day=1)


def test_a_soak_that_counts_draws_what_it_still_wants():
    """``--each``: an action still short of its runs is drawn far more often and its family's
    theme is the day's; an action run enough is drawn as its weight says."""
    import random
    from collections import Counter

    from .catalogue import ACTIONS, THEMES, wanting, weights
    from .driver import choose

    played = dict.fromkeys(ACTIONS, 500) | {"pay_side_prize": 0, "award_side_pool": 250, "unlock_payout_table": 0}
    boost, theme = wanting(played, 500)
    assert boost["pay_side_prize"] == 21 and boost["award_side_pool"] == 11 and boost["bust"] == 1
    assert ACTIONS["unlock_payout_table"].weight == 1 and boost["unlock_payout_table"] == 63  # drawn as one of weight 3
    assert theme == "jackpot and side pools"
    rng, plain_rng = random.Random(1), random.Random(1)
    wanted = Counter(choose(rng, weights(theme, boost)) for _ in range(4000))
    plain = Counter(choose(plain_rng, weights("the mix")) for _ in range(4000))
    assert wanted["pay_side_prize"] > 20 * plain["pay_side_prize"] > 0
    assert wanting(dict.fromkeys(ACTIONS, 500), 500) == (dict.fromkeys(ACTIONS, 1.0), "the mix")
    assert "pay_side_prize" in THEMES[theme]


@pytest.mark.django_db
def test_a_wanted_action_with_nothing_to_act_on_is_driven_to_its_state():
    """A soak that wants a jackpot paid, on a day with no jackpot won yet: its draws go to what
    sets the payment up (a royal flush, a jackpot sold, a money event made and started) and the
    chain reaches the payment; drawn as the weights say instead, the day pays none."""
    from .catalogue import NEEDS

    chain, todo = set(), ["pay_jackpot"]
    while todo:  # the actions the chain to a jackpot paid goes through
        name = todo.pop()
        if name not in chain:
            chain.add(name)
            todo += NEEDS.get(name, ())
    wants = {"pay_jackpot": 1e9}  # nothing else is drawn but by following the chain
    report = play(3, 60, day=0, wanted=(wants, "the mix"))
    opening = {"create_event", "sell_entry", "start_event"}
    assert set(report.ran) - opening <= chain
    assert report.ran["royal_flush"] >= 1 and report.ran["pay_jackpot"] >= 1


SHEETS = [("import_structure_sheet", s) for s in range(200, 212)] + [("import_payout_chart", s) for s in range(300, 312)]


@pytest.mark.django_db
def test_a_sheet_that_does_not_come_back_as_it_went_is_caught(monkeypatch):
    """Structures and payout charts brought in from sheets export back as they came in; a chart's
    export that leaves every band's largest field out (read back: bands with no end, which
    overlap) is a violation at the first chart brought in."""
    report = play(7, plan=OPENING + SHEETS, day=0)
    assert report.ran["import_structure_sheet"] >= 6 and report.ran["import_payout_chart"] >= 6  # unbroken: no violation
    from payouts.imports import PAYOUTS

    real = PAYOUTS.export

    def no_largest_field(options):
        headers, rows = real(options)
        return headers, [[r[0], "", *r[2:]] for r in rows]

    monkeypatch.setattr(PAYOUTS, "export", no_largest_field)
    with pytest.raises(Violation, match="sheets_come_back_as_they_went"):
        play(7, plan=OPENING + SHEETS, day=1)


@pytest.mark.django_db
def test_a_tablets_late_queue_keeps_every_invariant():
    """Actions arrive late and out of step: a floor tablet's queue played after other actions
    (busts of the same players among them), with idempotency keys, a lost answer sent again and
    the conflicts the server decides; every invariant holds after each step."""
    report = play(41, 60, day=0, wanted=({"late_tablet_queue": 25.0}, "the floor"))
    assert report.ran["late_tablet_queue"] >= 6, report.log
    assert any("refused" in line and "late to" in line and not line.endswith(" 0 refused") for line in report.log), report.log


PHONES = [("subscribe_phone", s) for s in range(80, 86)] + [("start_event", s) for s in range(90, 94)] + [("tell_players", s) for s in range(95, 99)]


@pytest.mark.django_db
def test_a_notice_naming_another_seat_is_caught(monkeypatch):
    """A notice that names a table and seat other than its player's own (another player's seat)
    is a violation at the step that told it."""
    assert play(8, plan=OPENING + PHONES, day=0).ran["tell_players"] >= 1  # the plan tells, unbroken

    def elsewhere(change, currency, minutes=15):
        return "Il tuo posto: tavolo 99, posto 9"

    monkeypatch.setattr(notice_rules, "text", elsewhere)
    with pytest.raises(Violation) as caught:
        play(8, plan=OPENING + PHONES, day=1)
    v = caught.value
    assert v.plan[v.step][0] == "tell_players"
    assert "notices_only_for_the_subscribed_and_their_own_page" in v.render() and "not its own" in v.render()


@pytest.mark.django_db
def test_a_balancing_move_proposed_while_its_table_plays_the_hand_for_hand_hand_is_caught(monkeypatch):
    """At the bubble, a move off a table still playing the hand-for-hand hand waits for it and no
    move waits once the hand is over everywhere; a product that proposes the move at once (no
    table counted as playing) is a violation at that step."""
    report = play(41, 60, day=0, wanted=({"h4h_move_waits": 60.0}, "the floor"))
    assert report.ran["h4h_move_waits"] >= 2 and any("1 move(s) waited" in line for line in report.log), report.log
    from seating.services import plan

    real = plan.hand_in_play
    monkeypatch.setattr(plan, "hand_in_play", lambda t, room, between_hands=False: None if real(t, room) is None else frozenset())
    with pytest.raises(Violation, match="still play the hand"):
        play(41, 60, day=1, wanted=({"h4h_move_waits": 60.0}, "the floor"))


@pytest.mark.django_db
def test_a_screen_link_that_still_reads_once_ended_is_caught(monkeypatch):
    """Screens get new links, have them stopped or are deleted; a product that still lets a
    stopped link read its event is a violation."""
    report = play(41, 60, day=0, wanted=({"end_screen_link": 25.0}, "the mix"))
    assert report.ran["end_screen_link"] >= 4 and {"rotated", "revoked", "deleted"} <= {line.split("link ")[-1] for line in report.log}, report.log
    from tournaments.live import views as live
    from tournaments.models import DisplayScreen

    monkeypatch.setattr(live, "_screen_for", lambda token: DisplayScreen.objects.filter(token=token).first() if token else None)
    with pytest.raises(Violation, match="screen_links_end_at_once"):
        play(41, 60, day=1, wanted=({"end_screen_link": 25.0}, "the mix"))


@pytest.mark.django_db
def test_a_people_import_that_gives_two_people_one_document_is_caught(monkeypatch):
    """Possible duplicates chosen row by row (new, the same person, left out) come in as chosen;
    a product that lets a row with another's document in as a new person is a violation."""
    report = play(41, 60, day=0, wanted=({"import_people_choosing": 25.0}, "the mix"))
    assert report.ran["import_people_choosing"] >= 4, report.log
    from tournaments.imports.people import PEOPLE

    monkeypatch.setattr(type(PEOPLE), "clashes", lambda self, rows: [])
    with pytest.raises(Violation, match="another player's document was imported"):
        play(41, 60, day=1, wanted=({"import_people_choosing": 25.0}, "the mix"))


@pytest.mark.django_db
def test_a_foreign_tender_quoted_otherwise_than_sold_is_caught(monkeypatch):
    """A reservation paid in dollars or francs is sold at the tender the desk quoted; a quote at
    another rate than the day's is a violation."""
    report = play(41, 60, day=0, wanted=({"pay_in_foreign_tender": 25.0}, "the mix"))
    assert report.ran["pay_in_foreign_tender"] >= 4, report.log
    from tournaments.cashier.rules import Tender
    from tournaments.cashier.services import rates

    real = rates.tender_for

    def rate_of_yesterday(t, currency, method, now=None):
        tender = real(t, currency, method, now)
        return tender and Tender(tender.currency, tender.rate + Decimal("0.01"))

    monkeypatch.setattr(rates, "tender_for", rate_of_yesterday)
    with pytest.raises(Violation, match="quoted"):
        play(41, 60, day=1, wanted=({"pay_in_foreign_tender": 25.0}, "the mix"))


@pytest.mark.django_db
def test_a_room_history_from_td3_keeps_every_invariant():
    """TD3's save files come in among the day's actions (played events, planned ones, the same
    files again, a file cut short refusing its run): every invariant holds after each step, the
    imported events read beside the day's own."""
    report = play(57, 40, day=0, wanted=({"import_td3_files": 400.0}, "the mix"))
    assert report.ran["import_td3_files"] >= 4, report.log
