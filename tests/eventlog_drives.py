"""Real actions driven through their services, for ``tests/test_eventlog.py``: each drive does
what a desk, the floor or the director does and says which words the event log's sentence of
each action it caused must carry (the names, amounts and numbers the action used). The test
reads the payloads the services wrote; nothing here builds a payload."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone

from payouts import services as payouts
from payouts.models import Ticket
from seating import services as seating
from seating.models import Bust, ManualDraw, PendingMove, Seat
from seating.services import cardrooms, dealers
from tournaments.cashier import ledger
from tournaments.cashier import services as cashier
from tournaments.cashier.services import registration
from tournaments.clock import rules as clock_rules
from tournaments.clock import selectors as clock_selectors
from tournaments.clock import services as clock_services
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor
from tournaments.floor import chipsets
from tournaments.floor import services as floor
from tournaments.floor.selectors import chips_in_play
from tournaments.formats.models import Match, TimedEvent
from tournaments.formats.services import headsup, multiday, series, sitandgo, stackchoice, timed
from tournaments.imports import services as import_services
from tournaments.models import BrowserSession, DisplayScreen, Entry, LedgerRow, Person, Sequence, Tournament
from tournaments.notices import services as notice_services
from tournaments.oversight import services as oversight
from tournaments.people import privacy
from tournaments.people import services as people
from tournaments.screens import services as screen_services
from tournaments.setup import changes, lifecycle, streaming
from tournaments.setup import services as setup
from tournaments.staff import logins
from tournaments.staff import services as staff
from tournaments.structures import services as structures

from .pushservice import browser_keys

PHONE_KEYS = browser_keys()[2]


@dataclass
class World:
    """What every drive starts from: a director and a cashier, a structure, people to sell to."""

    director: Actor
    cashier: Actor
    controller: Actor
    structure: object
    made: list = field(default_factory=list)

    def person(self, first: str, last: str, **kw) -> Person:
        p = Person.objects.create(first_name=first, last_name=last, **kw)
        self.made.append(p)
        return p

    def tournament(self, name: str = "Sunday Special", **kw) -> Tournament:
        values = dict(
            name=name,
            start_at=timezone.now() + timedelta(hours=1),
            buy_in=Decimal("100"),
            fee=Decimal("10"),
            starting_stack=30000,
            table_size=9,
            structure=self.structure,
            status=Tournament.REGISTERING,
            min_players=2,
        )
        values.update(kw)
        return Tournament.objects.create(**values)

    def field_of(self, t: Tournament, names: list[tuple[str, str]]) -> list[Entry]:
        return [cashier.register(t, self.person(f, last), method="CASH", actor=self.cashier).entry for f, last in names]

    def running(self, name: str, players: int = 6, **kw) -> tuple[Tournament, list[Entry]]:
        t = self.tournament(name, **kw)
        entries = self.field_of(t, [(f"Player{i}", name.split()[0]) for i in range(1, players + 1)])
        lifecycle.start(t, actor=self.director, override_minimum=True, prestart_report_sent=True)
        clock_services.start_clock(t, actor=self.director)
        return t, entries


def drive_cashier(w: World) -> dict:
    t = w.tournament("Cashier Cup", rebuy_max=2, addon_chips=5000, addon_price=Decimal("20"))
    mario = w.person("Mario", "Rossi")
    sold = cashier.register(t, mario, method="CASH", actor=w.cashier)
    lucia = w.person("Lucia", "Verdi")
    reserved = cashier.pre_register(t, lucia, actor=w.cashier)
    cashier.cancel_reservation(reserved, actor=w.cashier, reason="changed her mind")
    paolo = w.person("Paolo", "Neri")
    refunded = cashier.register(t, paolo, method="CASH", actor=w.cashier).entry
    cashier.refund(refunded, reason="left before the start", actor=w.cashier)
    wrong = cashier.register(t, w.person("Gino", "Gialli"), method="CASH", actor=w.cashier).row
    cashier.reverse(wrong, reason="wrong player", actor=w.cashier)
    return {
        "cashier.buyin.sold": [f"#{sold.entry.number}", "Mario Rossi", "€110.00", "cash"],
        "cashier.preregistration.created": ["Lucia Verdi"],
        "cashier.preregistration.cancelled": ["Lucia Verdi", "changed her mind"],
        "cashier.refund.paid": ["Paolo Neri", "€110.00", "left before the start"],
        "cashier.row.reversed": [f"#{wrong.receipt_number}", "€110.00", "wrong player"],
    }


def drive_clock(w: World) -> dict:
    t = w.tournament(
        "Clock Classic",
        format=Tournament.REBUY,
        rebuy_price=Decimal("50"),
        rebuy_chips=30000,
        rebuy_until_level=2,
        rebuy_stack_threshold=30000,
        addon_price=Decimal("20"),
        addon_chips=20000,
        addon_after_level=4,
        late_reg_closes_after_level=3,
        reentry_until_level=3,
    )
    anna, bruno = w.field_of(t, [("Anna", "Bianchi"), ("Bruno", "Bianchi")])[:2]
    lifecycle.start(t, actor=w.director, override_minimum=True, prestart_report_sent=True)
    clock_services.start_clock(t, actor=w.director)
    rebought = cashier.rebuy(anna, method="CASH", actor=w.cashier, stack=0).entry
    clock_services.pause(t, actor=w.director, reason="dealer change")
    clock_services.resume(t, actor=w.director, reason="dealers back")
    clock_services.add_time(t, 120, actor=w.director, reason="slow table")
    clock_services.set_time_left(t, 305, actor=w.director, reason="clock was late")
    clock_services.set_player_clock_call_time(t, bruno, 20, actor=w.director, reason="repeated delay")
    clock_services.call_the_clock(t, 1, actor=w.director, entry=bruno)
    items = clock_selectors.structure_items(t)
    first_break = next(i for i, it in enumerate(items) if isinstance(it, clock_rules.Break))
    clock_services.jump_to(t, first_break, actor=w.director, reason="to the break")
    cashier.addon(bruno, method="CASH", actor=w.cashier)
    clock_services.jump_to(t, first_break + 1, actor=w.director)
    denominations_break = next(i for i, it in enumerate(items) if isinstance(it, clock_rules.Break) and it.removes_denominations)
    clock_services.jump_to(t, denominations_break + 1, actor=w.director)
    clock_services.insert_break(t, 10, actor=w.director, reason="dinner")
    fresh = Tournament.objects.get(pk=t.pk)  # its structure now holds the inserted break
    now_at = clock_selectors.item_index_now(fresh)
    if isinstance(clock_selectors.structure_items(fresh)[now_at], clock_rules.Break):
        clock_services.jump_to(t, now_at + 1, actor=w.director)
    clock_services.start_hand_for_hand(t, actor=w.director, reason="bubble")
    for table in clock_services.tables_in_play(t):
        clock_services.report_hand_complete(t, table, actor=w.director)
    clock_services.end_hand_for_hand(t, actor=w.director, reason="bubble burst")
    clock_services.finish_clock(t, actor=w.director, reason="end of the day")
    level1 = items[0]
    return (
        {
            "tournaments.clock.started": ["level 1"],
            "cashier.rebuy.sold": ["rebuy 1", "Anna Bianchi", "€50.00", "30,000 chips"],
            "tournaments.clock.paused": ["dealer change"],
            "tournaments.clock.resumed": ["dealers back"],
            "tournaments.clock.time_added": ["120 seconds", "slow table"],
            "tournaments.clock.time_set": ["5:05", "clock was late"],
            "tournaments.clock.call_time_set": ["Bruno Bianchi", "20 seconds"],
            "tournaments.clock.called": ["table 1", "20 seconds"],
            "tournaments.clock.jumped": ["the break after level 4", "to the break"],
            "tournaments.clock.level_started": ["Level 2", f"{items[1].small_blind}/{items[1].big_blind}"],
            "tournaments.rebuy.closed": ["after level 2"],
            "tournaments.late_registration.closed": ["after level 3"],
            "tournaments.reentry.closed": ["after level 3"],
            "tournaments.clock.break_started": [f"{items[first_break].minutes} minutes after level 4"],
            "tournaments.addon.opened": ["after level 4"],
            "cashier.addon.sold": ["Bruno Bianchi", "€20.00", "20,000 chips"],
            "tournaments.addon.closed": ["after level 4"],
            "tournaments.colorup.announced": ["after level 8"],
            "tournaments.clock.break_inserted": ["10 minutes", "dinner"],
            "tournaments.clock.hand_for_hand_started": [f"{len(t.entries.filter(status=Entry.ACTIVE))} players left"],
            "tournaments.clock.hand_completed": ["table 1", "hand 1"],
            "tournaments.clock.hand_for_hand_next_hand": [],
            "tournaments.clock.hand_for_hand_ended": [],
            "tournaments.clock.finished": ["end of the day"],
        }
        if level1 and rebought
        else {}
    )


def _seats(t) -> dict[int, dict[int, int]]:
    """{table: {seat: entry id}} as the database holds it."""
    out: dict[int, dict[int, int]] = {}
    for table, seat, entry in Seat.objects.filter(tournament=t).values_list("table__number", "number", "entry_id"):
        out.setdefault(table, {})[seat] = entry
    return out


def _name(entry_id: int) -> str:
    e = Entry.objects.select_related("person").get(pk=entry_id)
    return f"{e.person.full_name} (#{e.number})"


def drive_seating(w: World) -> dict:
    t, entries = w.running("Seating Open", players=12)
    seats = _seats(t)
    tables = sorted(seats)
    one, two = tables[0], tables[1]
    free_seat = next(n for n in range(1, t.table_size + 1) if n not in seats[one])
    seating.set_big_blind(t, one, min(seats[one]), actor=w.director, reason="dealt for the button")
    seating.hand_completed(t, one, actor=w.director)
    seating.misdeal(t, one, actor=w.director, reason="card exposed")
    seating.set_tv_table(t, one, True, actor=w.director)
    seating.set_tv_table(t, one, False, actor=w.director)
    seating.lock_seat(t, one, free_seat, True, actor=w.director, reason="broken chair")
    seating.lock_seat(t, one, free_seat, False, actor=w.director)
    seating.lock_table(t, two, True, actor=w.director, reason="dealer missing")
    seating.lock_table(t, two, False, actor=w.director, reason="dealer back")
    seating.set_break_order(t, [two, one], actor=w.director, reason="near the bar first")
    out_first = seats[two][min(seats[two])]
    seating.record_bust(t, [out_first], actor=w.director)
    bust = seating.record_bust(t, [seats[two][max(seats[two])]], actor=w.director)
    undone = Bust.objects.filter(tournament=t, entry_id=seats[two][max(seats[two])]).get()
    seating.undo_bust(t, undone, actor=w.director, reason="wrong player")
    mover = seats[one][max(seats[one])]
    to_seat = next(n for n in range(1, t.table_size + 1) if n not in _seats(t)[two])
    seating.move_player(t, mover, two, to_seat, actor=w.director, reason="special needs")
    return (
        {
            "seating.draw.initial": ["12 players at 2 tables"],
            "seating.big_blind.set": [f"table {one} to seat {min(seats[one])}", "dealt for the button"],
            "seating.hand.completed": [f"Table {one}"],
            "seating.misdeal.reported": [f"table {one}", "card exposed"],
            "seating.table.tv_marked": [f"table {one}"],
            "seating.table.tv_unmarked": [f"table {one}"],
            "seating.seat.locked": [f"seat {free_seat} at table {one}", "broken chair"],
            "seating.seat.unlocked": [f"seat {free_seat} at table {one}"],
            "seating.table.locked": [f"table {two}", "dealer missing"],
            "seating.table.unlocked": [f"table {two}", "dealer back"],
            "seating.break_order.set": ["near the bar first"],
            "seating.player.busted": [_name(out_first), f"table {two}", "place 12"],
            "seating.bust.undone": ["wrong player"],
            "seating.player.moved": [_name(mover).split(" (#")[0], f"from table {one}", f"to table {two} seat {to_seat}"],
        }
        if bust
        else {}
    )


def _open_slips(t) -> list:
    return list(PendingMove.objects.filter(tournament=t, status=PendingMove.PROPOSED).order_by("pk"))


def drive_balancing(w: World) -> dict:
    t, entries = w.running("Balance Trophy", players=21, table_size=10)
    seats = _seats(t)
    first, second, third = sorted(seats)
    apart_a, apart_b = Entry.objects.get(pk=seats[second][min(seats[second])]), Entry.objects.get(pk=seats[third][min(seats[third])])
    pair = seating.add_keep_apart(t, apart_a.person, apart_b.person, actor=w.director, reason="brothers")
    seating.remove_keep_apart(t, pair, actor=w.director, reason="they asked")
    seating.add_keep_apart(t, apart_a.person, apart_b.person, actor=w.director, reason="brothers again")
    # Two out at different tables in an order nobody saw: one tie group.
    a, b = seats[first][max(seats[first])], seats[second][max(seats[second])]
    seating.record_bust(t, [a], actor=w.director)
    seating.record_bust(t, [b], actor=w.director)
    seating.mark_simultaneous(t, list(Bust.objects.filter(tournament=t, entry_id__in=[a, b])), actor=w.director, reason="seen together")
    # 19 left at three 10-max tables: one table breaks, its players get slips to the others.
    slips = _open_slips(t)
    seating.confirm_moves(t, slips, actor=w.director)
    one_slip_left = None
    for entry_id in [e for table in sorted(_seats(t)) for e in _seats(t)[table].values() if e not in (apart_a.pk, apart_b.pk)]:
        if t.events.filter(action=Action.SEATING_FINAL_TABLE_FORMED).exists():
            break
        seating.record_bust(t, [entry_id], actor=w.director)
        pending = _open_slips(t)
        if pending and one_slip_left is None:
            one_slip_left = pending[0]
            seating.confirm_move(t, one_slip_left, actor=w.director)
            seating.undo_move(t, PendingMove.objects.get(pk=one_slip_left.pk), actor=w.director, reason="he sat at the wrong table")
        for slip in _open_slips(t):
            seating.confirm_move(t, slip, actor=w.director)
    notice_services.announce(t, "Dinner break at nine", actor=w.director)
    return {
        "tournaments.players.told": ["Dinner break at nine"],
        "seating.keep_apart.added": [apart_a.person.full_name, apart_b.person.full_name, "brothers"],
        "seating.keep_apart.removed": ["they asked"],
        "seating.busts.simultaneous": [_name(a), _name(b), "seen together"],
        "seating.table.broken": ["players moved"],
        "seating.moves.confirmed": ["confirmed"],
        "seating.move.confirmed": ["from table", "to table"],
        "seating.move.undone": ["back to table"],
        "seating.moves.proposed": ["move"],
        "seating.final_table.formed": ["Final table formed at table"],
        "seating.keep_apart.unmet": [],
    }


def drive_floor(w: World) -> dict:
    t, entries = w.running("Floor Masters", players=6)
    table, seats = next(iter(_seats(t).items()))
    offender = Entry.objects.select_related("person").get(pk=seats[min(seats)])
    penalty = floor.issue_penalty(t, offender, kind="MISSED_HANDS", reason_code="ABUSIVE_CONDUCT", hands=3, actor=w.director)
    seating.hand_completed(t, table, actor=w.director)  # the penalty starts with the next hand
    floor.serve_hands(penalty, actor=w.director, hands=1)  # a hand the table did not report
    seating.hand_completed(t, table, actor=w.director)
    seating.hand_completed(t, table, actor=w.director)  # the third and last hand
    second = floor.issue_penalty(t, offender, kind="MISSED_HANDS", reason_code="ABUSIVE_CONDUCT", hands=2, actor=w.director)
    floor.cancel_penalty(second, actor=w.director, reason="wrong player named")
    floor.remove_chips(t, chips=5000, kind="OUT_OF_VIEW", reason="chips in a pocket", actor=w.director)
    floor.record_chip_counts(t, [{"entry": e, "chips": 30000} for e in seats.values()], occasion="BREAK", actor=w.director)
    floor.discretionary_color_up(t, from_denomination=25, to_denomination=100, table=table, actor=w.director, note="T25 short")
    race = [{"seat": s, "odd_value": 75, "stack_after_exchange": 10000} for s in sorted(seats)[:3]]
    drawn = floor.run_chip_race(t, table, race, removed_denomination=25, new_denomination=100, actor=w.director)  # drawn at random
    return {
        "tournaments.penalty.issued": [offender.person.full_name, "Missed hands", "Abusive conduct"],
        "tournaments.penalty.started": [offender.person.full_name, "3 hands"],
        "tournaments.penalty.hands_served": ["1 hand served, 2 left"],
        "tournaments.penalty.served": [offender.person.full_name],
        "tournaments.penalty.cancelled": ["wrong player named"],
        "tournaments.chips.adjusted": ["5,000 chips", "chips in a pocket"],
        "tournaments.chips.counted": ["6 players", "180,000 chips"],
        "tournaments.colorup.discretionary": [],
        "tournaments.chiprace.recorded": [f"table {table}: seats {', '.join(str(s) for s in drawn.result['winners'])} won"],
    }


def drive_payouts(w: World) -> dict:
    t = w.tournament("Prize Night")
    entries = w.field_of(t, [(f"Winner{i}", "Prize") for i in range(1, 21)])  # 20 × 100: a pool of 2,000
    payouts.reset_payout_table(t, actor=w.director)
    template = payouts.save_payout_template("Top three", ["50", "30", "20"], actor=w.director)
    payouts.apply_template(t, template, actor=w.director)
    payouts.edit_payout_table(
        t, [{"place": 1, "amount": "1000"}, {"place": 2, "amount": "600"}, {"place": 3, "amount": "400"}], actor=w.director, reason="house choice"
    )
    payouts.lock_payout_table(t, actor=w.director)
    payouts.unlock_payout_table(t, actor=w.director, reason="sponsor added 0")
    payouts.lock_payout_table(t, actor=w.director)
    lifecycle.start(t, actor=w.director, override_minimum=True, prestart_report_sent=True)
    last = Entry.objects.filter(pk__in=[e.pk for e in entries[3:]]).order_by("-number")
    seating.record_bust(t, list(last), actor=w.director)  # 17 out at once, listed in the order they went out
    three = entries[:3]
    in_play = chips_in_play(t)  # a deal shares the chips in play, all of them (PAY-09)
    stacks = {str(e.pk): in_play * c // 6 for e, c in zip(three, [3, 2, 1])}
    dropped = payouts.propose_deal(t, stacks, method="CHIP_CHOP", actor=w.director)
    payouts.cancel_deal(dropped, actor=w.director, reason="the short stack said no")
    deal = payouts.propose_deal(t, stacks, method="CHIP_CHOP", actor=w.director)
    for e in three:
        payouts.accept_deal(deal, e, actor=w.director)
    payouts.approve_deal(deal, actor=w.director)
    seating.record_bust(t, [three[2]], actor=w.director)
    payouts.sign_off_ranking(t, actor=w.director)
    payouts.sign_off_ranking(t, actor=w.controller)
    third = Entry.objects.select_related("person").get(pk=three[2].pk)
    paid = payouts.pay_prize(third, method="CASH", actor=w.cashier)
    pool = payouts.create_side_pool(t, kind="LAST_LONGER", name="Last Longer", actor=w.director, from_ledger=False)
    payouts.contribute_side_pool(pool, "40", actor=w.director, note="two players")
    payouts.award_side_pool(pool, awards=[(three[0], Decimal("40"))], actor=w.director)
    return {
        "payouts.table.proposed": ["Payout table proposed:", "places"],
        "payouts.template.saved": ["Top three"],
        "payouts.template.applied": ["Top three"],
        "payouts.table.edited": ["prize pool €2,000.00", "house choice"],
        "payouts.table.locked": ["3 places", "prize pool €2,000.00"],
        "payouts.table.unlocked": ["sponsor added 0"],
        "payouts.deal.proposed": [],
        "payouts.deal.cancelled": ["the short stack said no"],
        "payouts.deal.accepted": [three[1].person.full_name],
        "payouts.deal.approved": [],
        "payouts.ranking.signed": ["places"],
        "payouts.prize.paid": ["place 3", third.person.full_name, f"€{paid.amount:,.2f}", "cash"],
        "payouts.sidepool.created": ["Last Longer"],
        "payouts.sidepool.contributed": ["€40.00"],
        "payouts.sidepool.awarded": [],
    }


def drive_setup(w: World) -> dict:
    start = timezone.now() + timedelta(days=2)
    daily = setup.create_tournament(
        dict(name="Daily Fifty", start_at=start, buy_in=Decimal("50"), starting_stack=20000, structure=w.structure, settings={"fee_override": "20"}),
        actor=w.director,
        override_reason="daily events",
    )
    setup.update_tournament(daily, {"starting_stack": 25000}, actor=w.director)
    lifecycle.open_registration(daily, actor=w.director)
    setup.update_tournament(daily, {"guarantee": Decimal("1000")}, actor=w.director, override_reason="sponsor added")
    changes.set_reason_public(daily, 1, True, actor=w.director)
    changes.set_reason_public(daily, 1, False, actor=w.director)
    setup.copy_tournament(daily, name="Daily Fifty (Tuesday)", start_at=start + timedelta(days=1), actor=w.director)
    template = setup.save_template(daily, name="Daily recipe", actor=w.director)
    setup.create_from_template(template, name="Daily Fifty (Wednesday)", start_at=start + timedelta(days=2), actor=w.director)
    saved = structures.save_structure(
        name="Short Night",
        items=[
            {"kind": "LEVEL", "small_blind": 100, "big_blind": 200, "ante": 0, "minutes": 15},
            {"kind": "LEVEL", "small_blind": 200, "big_blind": 400, "ante": 0, "minutes": 15},
        ],
        actor=w.director,
    )
    structures.delete_structure(saved, actor=w.director)
    doomed = w.tournament("Never Played", status=Tournament.PLANNED)
    lifecycle.delete(doomed, actor=w.director)
    rained_out = w.tournament("Rained Out")
    w.field_of(rained_out, [("Rita", "Pioggia")])
    lifecycle.cancel(rained_out, actor=w.director, reason="flooded room")
    finished, _entries = w.running("Short Final", players=2)
    seating.record_bust(finished, [_entries[1]], actor=w.director)
    lifecycle.finish(Tournament.objects.get(pk=finished.pk), actor=w.director)
    return {
        "tournaments.tournament.created": ["Daily Fifty"],
        "tournaments.fee.overridden": ["€20.00", "daily events"],
        "tournaments.tournament.updated": [],
        "tournaments.registration.opened": [],
        "tournaments.tournament.versioned": [],
        "tournaments.change.reason_shown": ["version 1"],
        "tournaments.change.reason_hidden": ["version 1"],
        "tournaments.tournament.copied": ["a copy of Daily Fifty"],
        "tournaments.template.saved": ["Daily recipe"],
        "tournaments.structure.saved": ["Short Night"],
        "tournaments.structure.deleted": ["Short Night"],
        "tournaments.tournament.deleted": ["Never Played"],
        "tournaments.tournament.cancelled": ["1 entry is owed a refund", "flooded room"],
        "tournaments.tournament.started": ["2 players"],
        "tournaments.tournament.finished": [],
    }


def drive_oversight(w: World) -> dict:
    t, entries = w.running("Controlled Cup", players=4)
    late = cashier.register(t, w.person("Dario", "Late"), method="CASH", actor=w.cashier)
    report = oversight.issue_stub_addendum(t, actor=w.cashier)
    regulator = get_user_model().objects.create_user(username="corpo", password="pw-corpo")
    regulator.groups.add(Group.objects.get_or_create(name="regulator")[0])
    oversight.set_regulator_access(t, "corpo", granted=True, actor=w.director)
    oversight.set_regulator_access(t, "corpo", granted=False, actor=w.director)
    draw = t.events.get(action=Action.SEATING_DRAW_INITIAL)
    oversight.witness(t, draw.pk, actor=w.controller)
    ruling = oversight.record_ruling(t, asked_by="Bruno", question="Was the bet in?", decision="Dead hand.", actor=w.director)
    oversight.annotate_ruling(ruling.pk, "Video checked.", tournament=t, actor=w.director)
    streaming.set_streaming_live(t, True, actor=w.director)
    streaming.set_streaming_live(t, False, actor=w.director)
    return {
        "cashier.buyin.sold": ["Dario Late", f"#{late.entry.number}"],
        "tournaments.stubs.reported": [f"report {report.number}", "1 stub", "€110.00"],
        "tournaments.regulator.granted": ["corpo"],
        "tournaments.regulator.revoked": ["corpo"],
        "tournaments.witness.signed": ["Cora witnessed: Seats drawn"],
        "tournaments.ruling.recorded": [],
        "tournaments.ruling.annotated": [],
        "tournaments.streaming.started": [],
        "tournaments.streaming.stopped": [],
    }


def drive_people(w: World) -> dict:
    giulia = people.create_person(actor=w.director, first_name="Giulia", last_name="Conti", phone="+39 1", document_id="AB123456")
    people.update_person(giulia, actor=w.director, phone="+39 2")
    people.set_banned(giulia, True, "self-exclusion", actor=w.director)
    people.set_banned(giulia, False, "exclusion ended", actor=w.director)
    people.set_hidden_from_lookup(giulia, True, actor=w.director)
    privacy.reveal_document(giulia, actor=w.director)
    privacy.export_person(giulia, actor=w.director)
    # Erasure scrubs a person's own rows too (issue #40), so another person is erased here and
    # Giulia's sentences keep the data they were written with.
    ugo = people.create_person(actor=w.director, first_name="Ugo", last_name="Oblio")
    privacy.erase_person(ugo, "asked to be forgotten", actor=w.director)
    logins.record_lockout(kind="username", username="mallory", address="10.0.0.9", failures=5, seconds=300)
    logins.lift_lockout(username="mallory", address="10.0.0.9", actor=w.director)
    token, _key = logins.issue_token(w.cashier.user, device="Desk 2 tablet", actor=w.cashier)
    logins.revoke_token(token.pk, actor=w.director)
    browser = BrowserSession.objects.create(session_key="drive-session", user=w.cashier.user, user_agent="Mozilla/5.0 (Windows NT 10.0) Firefox/128.0")
    logins.end_session(browser.pk, actor=w.director)
    dario, _password = staff.add_login("dario", "dealer", actor=w.director)
    staff.set_role(dario.pk, "floor", actor=w.director)
    staff.reset_password(dario.pk, actor=w.director)
    staff.set_active(dario.pk, False, actor=w.director)
    staff.set_active(dario.pk, True, actor=w.director)
    erminio, _password = staff.add_login("erminio", "dealer", actor=w.director)
    with transaction.atomic():  # the Django admin's own transaction, of which it is a step
        staff.admin_delete([erminio.pk], actor=w.director)
    cashier.set_exchange_rate("USD", Decimal("0.92"), actor=w.director)
    (paola,) = w.field_of(w.tournament("Push Party"), [("Paola", "Push")])
    phone = {"endpoint": "https://fcm.googleapis.com/fcm/send/drive", "keys": PHONE_KEYS}
    notice_services.subscribe(paola, phone, language="en", actor=w.cashier)
    notice_services.unsubscribe(paola, phone["endpoint"], actor=w.cashier)
    import_services.run_import("people", "Cognome;Nome\r\nNeri;Ada\r\nConti;Giulia\r\n".encode("cp1252"), "soci.csv", actor=w.director)
    return {
        "import.done": ["soci.csv", "(People)", "1 added", "0 updated", "1 already in"],
        "people.push.subscribed": [f"person #{paola.person_id}"],
        "people.push.unsubscribed": [f"person #{paola.person_id}"],
        "people.person.created": ["Giulia Conti"],
        "people.person.changed": [f"person #{giulia.pk}", "+39 1 → +39 2"],
        "people.person.banned": ["self-exclusion"],
        "people.person.unbanned": ["exclusion ended"],
        "people.person.lookup_privacy": [f"person #{giulia.pk}"],
        "people.document.viewed": [f"person #{giulia.pk}"],
        "people.person.exported": [f"person #{giulia.pk}"],
        "people.person.erased": [f"person #{ugo.pk}", "asked to be forgotten"],
        "auth.lockout.started": ["5 wrong passwords", "300 seconds", "mallory at 10.0.0.9"],
        "auth.lockout.lifted": ["mallory at 10.0.0.9"],
        "auth.token.issued": ["logged in through the API", "Desk 2 tablet"],
        "auth.token.revoked": [w.cashier.user.get_username(), "Desk 2 tablet"],
        "auth.session.ended": [w.cashier.user.get_username(), "Firefox · Windows"],
        "staff.login.added": ["dario", "as dealer"],
        "staff.role.changed": ["dario", "from dealer to floor"],
        "staff.password.reset": ["password of dario"],
        "staff.login.disabled": ["dario"],
        "staff.login.enabled": ["dario"],
        "staff.login.deleted": ["erminio", "logged out"],
        "tournaments.exchange_rate.set": ["USD", "0.92"],
    }


def drive_desk(w: World) -> dict:
    t = w.tournament("Desk Derby", format=Tournament.REENTRY, max_entries_per_player=2, field_cap=3)
    entries = w.field_of(t, [("Elena", "Desk"), ("Fabio", "Desk")])
    elena, fabio = entries
    registration.check_in(elena, actor=w.cashier, id_checked=True)
    reserved = cashier.pre_register(t, w.person("Ivo", "Bonifico"), actor=w.cashier, channel=Entry.TRANSFER_CHANNEL)
    cleared = registration.confirm_transfer(reserved, reference="TRF-77", actor=w.cashier)
    cashier.add_alternate(t, w.person("Olga", "Attesa"), actor=w.cashier)
    lifecycle.start(t, actor=w.director, override_minimum=True, prestart_report_sent=True)
    clock_services.start_clock(t, actor=w.director)
    registration.set_presence(fabio, presence=Entry.ABSENT, actor=w.director, reason="smoking break")
    registration.mark_arrival(Entry.objects.get(pk=cleared.entry.pk), arrived=False, actor=w.director, reason="never came")
    registration.mark_arrival(Entry.objects.get(pk=cleared.entry.pk), arrived=True, actor=w.director)
    seating.record_bust(t, [fabio], actor=w.director)
    Tournament.objects.filter(pk=t.pk).update(field_cap=None)  # the alternates list was for the first field
    again = cashier.reenter(t, fabio.person, method="CARD", actor=w.cashier)
    return {
        "cashier.entry.checked_in": ["Elena Desk", f"entry #{elena.number}"],
        "cashier.transfer.cleared": ["Ivo Bonifico", f"receipt #{cleared.row.receipt_number}"],
        "cashier.alternate.added": ["Olga Attesa", "number 1"],
        "cashier.entry.presence": ["Fabio Desk", f"entry #{fabio.number}", "smoking break"],
        "cashier.entry.not_arrived": ["Ivo Bonifico", "never came"],
        "cashier.entry.arrived": ["Ivo Bonifico"],
        "cashier.reentry.sold": [f"re-entry #{again.entry.number}", "Fabio Desk", "€110.00", "card"],
    }


def drive_satellite(w: World) -> dict:
    target = w.tournament("Main Event", buy_in=Decimal("1000"), fee=Decimal("100"))
    sat = w.tournament("Satellite Night", format=Tournament.SATELLITE)
    entries = w.field_of(sat, [(f"Sat{i}", "Player") for i in range(1, 12)])  # 11 × 110: one seat of 1,100 and 110 in cash
    payouts.link_satellite(sat, target, actor=w.director)
    cashier.register(target, entries[0].person, method="CARD", actor=w.cashier)  # the winner is in already: he gets a ticket
    lifecycle.start(sat, actor=w.director, override_minimum=True, prestart_report_sent=True)
    seating.record_bust(sat, [e for e in reversed(entries[1:])], actor=w.director)  # one left for one seat: it ends by itself
    ticket = Ticket.objects.get(holder=entries[0].person)
    ticket.target = w.tournament("Main Event (Day 1B)", buy_in=Decimal("1000"), fee=Decimal("100"))
    ticket.save(update_fields=["target"])
    payouts.redeem_ticket(ticket, actor=w.cashier, id_checked=True)
    return {
        "payouts.satellite.linked": [],
        "payouts.satellite.completed": ["1 seat won"],
        "payouts.ticket.redeemed": [entries[0].person.full_name],
    }


def drive_jackpot(w: World) -> dict:
    payouts.set_jackpot_base(Decimal("1000.00"), actor=w.director)
    t = w.tournament("Royal Hunt", format=Tournament.REENTRY, max_entries_per_player=3, late_reg_closes_after_level=6, settings={"jackpot": True})
    other = w.tournament("Royal Hunt (side)", settings={"jackpot": True})
    sale = cashier.register(t, w.person("Anna", "Verdi"), method="CASH", actor=w.cashier, jackpot=True)
    lifecycle.start(t, actor=w.director, override_minimum=True, prestart_report_sent=True)
    w.field_of(t, [("Second", "Player")])
    clock_services.start_clock(t, actor=w.director)
    win = payouts.claim_jackpot(t, [sale.entry], both_hole_cards=True, actor=w.director)
    claim = win.claims.get()
    payouts.pay_jackpot(claim, method="CASH", actor=w.cashier)
    return (
        {
            "payouts.jackpot.won": ["level 1", f"€{win.amount:,.2f}"],
            "payouts.jackpot.locked": ["Royal Hunt"],
            "payouts.jackpot.paid": ["Anna Verdi", f"€{claim.amount:,.2f}", "cash"],
        }
        if other
        else {}
    )


def drive_bounties(w: World) -> dict:
    t, (lia, max_, *_rest) = w.running("Knockout Night", players=3, settings={"bounty": "PKO", "bounty_amount": "40"})
    bust = seating.record_bust(t, [{"entry": max_.pk, "eliminators": [lia.pk]}], actor=w.director).busts[0]
    paid = payouts.pay_bounties(lia, method="CASH", actor=w.cashier)
    payouts.return_bounty(paid.bounty_awards.get(), reason="bust undone", actor=w.cashier)  # given back before the undo
    seating.undo_bust(t, bust, actor=w.director, reason="wrong player")
    m, (ugo, vera, *_others) = w.running("Mystery Night", players=3, settings={"bounty": "MYSTERY", "bounty_amount": "30", "mystery_from": "START"})
    payouts.set_envelopes(m, ["50", "25", "15"], actor=w.director)
    seating.record_bust(m, [{"entry": vera.pk, "eliminators": [ugo.pk]}], actor=w.director)
    drawn = m.bounty_awards.get()
    return {
        "payouts.bounty.won": ["Player1 Knockout knocked out Player2 Knockout", "€20.00", "is added to the eliminator's bounty"],
        "payouts.bounty.paid": ["Player1 Knockout", f"€{-paid.bounty_amount:,.2f}", "cash"],
        "payouts.bounty.returned": ["Player1 Knockout", f"#{paid.receipt_number}", "€20.00", "bust undone"],
        "payouts.bounty.undone": ["€20.00"],
        "payouts.mystery.envelopes_set": ["3 mystery envelopes", "€90.00"],
        "payouts.mystery.drawn": [f"no. {drawn.envelope}", "Player1 Mystery", "Player2 Mystery", f"€{drawn.cash:,.2f}", str(drawn.seed)],
    }


def drive_seats_by_hand(w: World) -> dict:
    t = w.tournament("Reserved Seats")
    nadia, *_rest = w.field_of(t, [("Nadia", "Sedia"), ("Omar", "Sedia"), ("Pia", "Sedia")])
    reservation = seating.reserve_seat(t, nadia, 1, 5, actor=w.director, reason="wheelchair")
    seating.remove_reservation(t, reservation, actor=w.director, reason="no longer needed")
    seating.reserve_seat(t, nadia, 1, 3, actor=w.director, reason="near the exit")
    lifecycle.start(t, actor=w.director, override_minimum=True, prestart_report_sent=True)
    wrong = cashier.register(t, w.person("Quinto", "Errore"), method="CASH", actor=w.cashier)
    seat = _seats(t)
    where = next((table, n) for table, row in seat.items() for n, e in row.items() if e == wrong.entry.pk)
    cashier.reverse(wrong.row, reason="sold to the wrong person", actor=w.cashier)
    sng = sitandgo.create_sit_and_go(name="Sit Ten", buy_in=Decimal("20"), fee=Decimal("2"), starting_stack=5000, structure=w.structure, actor=w.director)
    w.field_of(sng, [(f"Sng{i}", "Player") for i in range(1, 11)])
    return {
        "seating.seat.reserved": ["table 1 seat 5", "Nadia Sedia", "wheelchair"],
        "seating.seat.reservation_removed": ["no longer needed"],
        "seating.player.seated": [f"Quinto Errore seated at table {where[0]} seat {where[1]}"],
        "seating.seat.released": [f"Seat {where[1]} at table {where[0]} freed"],
        "formats.sitandgo.created": ["10 players"],
        "tournaments.sitandgo.started": ["10 players"],
    }


def drive_screens(w: World) -> dict:
    t = w.tournament("Screen Test")
    screen = screen_services.create_screen({"name": "Lobby left", "tournament": t}, actor=w.director)
    screen_services.update_screen(screen, {"announcement": "Dinner at 8"}, actor=w.director)
    screen_services.rotate_screen_token(DisplayScreen.objects.get(pk=screen.pk), actor=w.director)
    screen_services.revoke_screen_token(DisplayScreen.objects.get(pk=screen.pk), actor=w.director)
    screen_services.delete_screen(DisplayScreen.objects.get(pk=screen.pk), actor=w.director)
    chips = chipsets.save_chip_set(name="Casino set", denominations=[{"value": 100, "quantity": 300}, {"value": 500, "quantity": 200}], actor=w.director)
    chipsets.delete_chip_set(chips, actor=w.director)
    return {
        "tournaments.display.created": ["Lobby left"],
        "tournaments.display.updated": [],
        "tournaments.display.token_rotated": ["Lobby left"],
        "tournaments.display.token_revoked": ["Lobby left"],
        "tournaments.display.deleted": ["Lobby left"],
        "tournaments.chipset.saved": ["Casino set"],
        "tournaments.chipset.deleted": ["Casino set"],
    }


def _finished(w: World, name: str, players: int = 2, **kw) -> tuple[Tournament, list[Entry]]:
    """A tournament played to its end at the table: everybody but the first entry busts."""
    t, entries = w.running(name, players=players, **kw)
    seating.record_bust(t, list(reversed(entries[1:])), actor=w.director)
    t = Tournament.objects.get(pk=t.pk)
    if t.status != Tournament.FINISHED:
        lifecycle.finish(t, actor=w.director)
    return Tournament.objects.get(pk=t.pk), entries


def drive_series(w: World) -> dict:
    dailies = series.create_series(name="Riviera Dailies", cycle_length=1, actor=w.director)
    monday = series.schedule_daily(
        dailies, timezone.localdate() + timedelta(days=7 - timezone.localdate().weekday()), structure=w.structure, starting_stack=20000, actor=w.director
    )
    played, _entries = _finished(w, "Riviera Friday", players=3)
    series.attach(dailies, played, actor=w.director)
    series.score_tournament(played, actor=w.director)
    return (
        {
            "formats.series.created": ["Riviera Dailies"],
            "formats.series.daily_scheduled": [],
            "formats.series.attached": ["Riviera Dailies"],
            "formats.series.scored": ["3 players"],
            "formats.series.cycle_closed": ["cycle 1"],
        }
        if monday
        else {}
    )


def drive_timed(w: World) -> dict:
    final = w.tournament("Timed Final", format=Tournament.TIMED, status=Tournament.PLANNED, buy_in=Decimal("0"), fee=Decimal("0"))
    timed.configure_timed(final, ends_at=timezone.now() + timedelta(days=7), actor=w.director)
    table = w.tournament("Timed Table", format=Tournament.TIMED)
    timed.configure_timed(table, ends_at=timezone.now() + timedelta(hours=2), actor=w.director)
    entries = w.field_of(table, [("Tina", "Tempo"), ("Ugo", "Tempo"), ("Vera", "Tempo")])
    lifecycle.start(table, actor=w.director, override_minimum=True, prestart_report_sent=True)
    seating.record_bust(table, [entries[0]], actor=w.director)
    TimedEvent.objects.filter(tournament=table).update(ends_at=timezone.now() - timedelta(seconds=1))  # the two hours are up
    timed.finish_timed(table, actor=w.director, counts=[{"entry": entries[1].pk, "chips": 50000}, {"entry": entries[2].pk, "chips": 40000}])
    timed.create_qualifier_group(name="Timed Qualifiers", final=final, qualifiers=[table], actor=w.director)
    timed.send_winner_to_final(table, actor=w.director)
    return {
        "formats.timed.configured": [],
        "formats.timed.finished": [],
        "formats.qualifiers.created": [],
        "formats.qualifier.winner_sent": ["Ugo Tempo"],
    }


def drive_multiday(w: World) -> dict:
    now = timezone.now()
    event = multiday.create_event(
        name="Grand Prix",
        flights=[{"label": "1A", "start_at": now + timedelta(hours=1)}],
        day2_start_at=now + timedelta(days=1),
        buy_in=Decimal("100"),
        fee=Decimal("10"),
        starting_stack=30000,
        structure=w.structure,
        actor=w.director,
    )
    day1 = event.flights.get(label="1A").tournament
    stackchoice.add_stack_option(
        day1, label="Deep 45k", buy_in=Decimal("140"), fee=Decimal("14"), chips=45000, actor=w.director, override_reason="announced with the schedule"
    )
    wanda, xeno, yuri, zoe = w.field_of(day1, [("Wanda", "Giorni"), ("Xeno", "Giorni"), ("Yuri", "Giorni"), ("Zoe", "Giorni")])
    lifecycle.start(day1, actor=w.director, override_minimum=True, prestart_report_sent=True)
    seating.record_bust(day1, [zoe], actor=w.director)
    multiday.bag_chips(
        day1,
        [
            {"number": wanda.number, "chips": 50000, "bag_number": "A-001"},
            {"number": xeno.number, "chips": 40000, "bag_number": "A-002"},
            {"number": yuri.number, "chips": 30000, "bag_number": "A-003"},
        ],
        actor=w.director,
    )
    multiday.close_flight(day1, actor=w.director, reason="one chip found under the rail")
    multiday.build_day2(event, actor=w.director)
    multiday.start_day2(event, actor=w.director)
    day2 = Tournament.objects.get(pk=event.day2_id)
    by_name = {e.person.first_name: e for e in day2.entries.select_related("person")}
    seating.record_bust(day2, [by_name["Yuri"]], actor=w.director)
    seating.record_bust(day2, [by_name["Xeno"]], actor=w.director)
    multiday.finish_day2(event, actor=w.director)
    return {
        "formats.multiday.created": [],
        "formats.stackoption.added": ["Deep 45k", "45,000 chips"],
        "formats.bagging.recorded": ["120,000 chips"],
        "formats.flight.closed": ["flight 1A", "3 players", "one chip found under the rail"],
        "formats.day2.built": ["3 players", "120,000 chips"],
        "formats.day2.finished": ["Wanda Giorni"],
    }


def _no_show_match(w: World, name: str, players: list[tuple[str, str]], t0) -> Match:
    """A two-player group: the first drawn sits, the other never comes; at the end of level 1
    his seat is freed."""
    t = w.tournament(name, format=Tournament.HEADS_UP, starting_stack=10000, table_size=2, start_at=t0)
    headsup.create_bracket(t, actor=w.director, size=2, level_minutes=10)
    w.field_of(t, players)
    headsup.draw_bracket(t, actor=w.director, now=t0)
    m = Match.objects.get(bracket__tournament=t)
    headsup.start_match(m, actor=w.director, now=t0)
    headsup.seat_player(m, m.player_a, actor=w.director, now=t0)
    return headsup.free_absent_seat(Match.objects.get(pk=m.pk), actor=w.director, now=t0 + timedelta(minutes=10))


def drive_headsup(w: World) -> dict:
    t0 = timezone.now().replace(microsecond=0)
    replaced = _no_show_match(w, "Heads-up Duel", [("Alba", "Duello"), ("Bice", "Duello")], t0)
    seated = Entry.objects.select_related("person").get(pk=replaced.player_a_id)
    gone = Entry.objects.select_related("person").get(tournament=replaced.bracket.tournament, status=Entry.CANCELLED)
    m = headsup.seat_replacement(replaced, w.person("Enzo", "Sostituto"), method="CASH", actor=w.cashier, now=t0 + timedelta(minutes=13))
    headsup.record_game(m, m.player_a, actor=w.director, now=t0 + timedelta(minutes=20))
    bye = _no_show_match(w, "Heads-up Duel (table 2)", [("Ciro", "Duello"), ("Dino", "Duello")], t0)
    stayed = Entry.objects.get(pk=bye.player_a_id)
    headsup.award_bye(bye, actor=w.director, now=t0 + timedelta(minutes=15))
    final_day = w.tournament("Heads-up Final Day", format=Tournament.HEADS_UP, starting_stack=10000, table_size=2, start_at=t0)
    headsup.create_bracket(final_day, actor=w.director, size=2, level_minutes=12, punctuality="LATENESS")
    w.field_of(final_day, [("Fede", "Ritardo"), ("Gaia", "Ritardo")])
    headsup.draw_bracket(final_day, actor=w.director, now=t0)
    late = Match.objects.get(bracket__tournament=final_day)
    headsup.start_match(late, actor=w.director, now=t0)
    headsup.seat_player(late, late.player_a, actor=w.director, now=t0)
    headsup.apply_lateness(late, actor=w.director, now=t0 + timedelta(minutes=13))
    group = w.tournament("Heads-up Group 2", format=Tournament.HEADS_UP, starting_stack=10000, table_size=2, start_at=t0 + timedelta(hours=2))
    headsup.create_bracket(group, actor=w.director, size=2)
    asking = w.person("Irene", "Richiesta")
    headsup.request_seat(group, asking, actor=w.director, now=t0 + timedelta(minutes=100))
    headsup.allocate_seats(group, actor=w.director, now=t0 + timedelta(minutes=115))
    return {
        "formats.bracket.created": ["2 players"],
        "formats.bracket.drawn": [],
        "formats.match.started": ["round 1", f"table {replaced.table_number}"],
        "formats.match.player_seated": [seated.person.full_name],
        "formats.match.seat_freed": [gone.person.full_name],
        "formats.match.replacement_seated": ["Enzo Sostituto"],
        "formats.match.game_recorded": ["game 1", "(1-0)"],
        "formats.match.bye_awarded": [f"#{stayed.number}"],
        "formats.match.lateness_checked": [],
        "formats.seatrequest.created": ["Irene Richiesta"],
        "formats.seatrequest.allocated": ["(2)"],
    }


def drive_desk_extras(w: World) -> dict:
    booked_for = w.tournament("Last Longer Night")
    booked = cashier.pre_register(booked_for, w.person("Laura", "Lunga"), actor=w.cashier)
    booked = cashier.pay_reservation(booked, method="CASH", actor=w.cashier).entry
    pool = payouts.create_side_pool(booked_for, kind="LAST_LONGER", name="Last Longer", actor=w.director)
    payouts.issue_side_token(pool, booked, label="P-07", actor=w.cashier)
    payouts.issue_ticket(w.person("Tito", "Biglietto"), value=Decimal("1100"), actor=w.director, target=booked_for, description="leaderboard ticket")
    drawn = w.tournament("Two Sessions")
    w.field_of(drawn, [("Sara", "Sessione"), ("Teo", "Sessione"), ("Ugo", "Sessione")])
    seating.predraw(drawn, ["Friday", "Saturday"], actor=w.director)
    t, entries = w.running(
        "Rebuy Desk", players=2, format=Tournament.REBUY, rebuy_price=Decimal("50"), rebuy_chips=30000, rebuy_until_level=2, rebuy_stack_threshold=30000
    )
    cashier.declare_rebuy(entries[0], actor=w.cashier, stack=0)
    clock_services.start_hand_for_hand(t, actor=w.director, reason="bubble")
    table = clock_services.tables_in_play(t)[0]
    clock_services.set_h4h_table_state(t, table, "ALL_IN_HOLD", actor=w.director)
    return {
        "payouts.last_longer.token_issued": ["P-07", "Laura Lunga", f"entry #{booked.number}"],
        "payouts.ticket.issued": ["€1,100.00", "Tito Biglietto"],
        "seating.predraw": ["3 registrants", "Friday, Saturday"],
        "cashier.rebuy.declared": [f"recorded that {entries[0].person.full_name} (#{entries[0].number}) declared a rebuy"],
        "tournaments.clock.h4h_table_state": [f"table {table}", "hand 1", "all-in, cards held face down"],
    }


def drive_no_shows(w: World) -> dict:
    owing = w.tournament("Owed Entries", settings={"no_show_policy": "LOSE_GAME"})
    booked = cashier.pre_register(owing, w.person("Nino", "Assente"), actor=w.cashier)
    registration.mark_no_show(booked, actor=w.director, reason="never came")
    owed = LedgerRow.objects.get(tournament=owing, kind=LedgerRow.RECEIVABLE)
    settled = registration.settle_receivable(owed, method="CASH", actor=w.cashier)
    t = w.tournament("Forfeit Night", settings={"no_show_policy": "FORFEIT_AT", "no_show_level": 1, "no_show_grace_minutes": 5, "check_in_used": True})
    here, there, _away = w.field_of(t, [("Olga", "Presente"), ("Piero", "Presente"), ("Rino", "Assente")])
    for e in (here, there):
        registration.check_in(e, actor=w.cashier)
    lifecycle.start(t, actor=w.director, prestart_report_sent=True)
    clock_services.start_clock(t, actor=w.director)
    registration.forfeit_not_arrived(t, actor=w.director, now=timezone.now() + timedelta(hours=3))
    return {
        "cashier.entry.no_show": ["Nino Assente"],
        "cashier.receivable.settled": ["€110.00", "Nino Assente", f"receipt #{owed.receipt_number}", f"receipt #{settled.receipt_number}"],
        "cashier.no_shows.forfeited": ["End of level 1 plus 5 minutes: 1 player not arrived forfeited"],
    }


def drive_manual_draw(w: World) -> dict:
    t = w.tournament("Hand Drawn", table_size=6, settings={"draw_mode": "MANUAL"})
    entries = w.field_of(t, [(f"Card{i}", "Mano") for i in range(1, 19)])
    lifecycle.start(t, actor=w.director, override_minimum=True, prestart_report_sent=True)
    start = ManualDraw.objects.get(tournament=t, status=ManualDraw.OPEN)
    seating.enter_card(t, entries[0], *start.cards[1], actor=w.director)
    seating.clear_card(t, entries[0], actor=w.director, reason="misread the card")
    for entry, (table, seat) in zip(entries, start.cards):
        seating.enter_card(t, entry, table, seat, actor=w.director)
    at = {n: list(row.values()) for n, row in _seats(t).items()}
    seating.record_bust(t, at[1][:2] + at[2][:1] + at[3][:3], actor=w.director)
    brk = ManualDraw.objects.get(tournament=t, kind=ManualDraw.BREAK, status=ManualDraw.OPEN)
    movers = sorted(_seats(t)[brk.table].values())
    for entry, (table, seat), card in zip(movers, brk.cards, ["2♣", "A♠", "KH"]):
        seating.enter_card(t, entry, table, seat, card=card, actor=w.director)
    return {
        "seating.manual_draw.opened": [],
        "seating.seat_card.entered": [_name(entries[0].pk), "table {} seat {}".format(*start.cards[0])],
        "seating.seat_card.cleared": [_name(entries[0].pk), "misread the card"],
        "seating.manual_draw.completed": [],
    }


def drive_halts(w: World) -> dict:
    t, _entries = w.running("Short Table", players=24)
    seats = _seats(t)
    short = sorted(seats)[-1]
    seating.record_bust(t, list(seats[short].values())[:3], actor=w.director)
    seating.waive_halt(t, short, actor=w.director, reason="last hand before the break")
    moving, _entries = w.running("Moving Day", players=27, table_size=10)
    seats = _seats(moving)
    one, two, three = sorted(seats)
    seating.record_bust(moving, list(seats[one].values())[:2], actor=w.director)
    assert PendingMove.objects.filter(tournament=moving, status=PendingMove.PROPOSED).exists()
    seating.record_bust(moving, [min(seats[two].values()), min(seats[three].values())], actor=w.director)
    return {
        "seating.halt.waived": [f"table {short}", "last hand before the break"],
        "seating.moves.superseded": ["1 move slip withdrawn"],
    }


def drive_series_tie(w: World) -> dict:
    """Two players level at the time limit share first place: the series' one ticket is tied."""
    short = series.create_series(name="One Ticket League", cycle_length=1, tickets_per_cycle=1, tie_break="NONE", actor=w.director)
    t = w.tournament("Even Stacks", format=Tournament.TIMED)
    timed.configure_timed(t, ends_at=timezone.now() + timedelta(hours=2), actor=w.director)
    series.attach(short, t, actor=w.director)
    out, even_a, even_b = w.field_of(t, [("Aldo", "Pari"), ("Bea", "Pari"), ("Carlo", "Pari")])
    lifecycle.start(t, actor=w.director, override_minimum=True, prestart_report_sent=True)
    seating.record_bust(t, [out], actor=w.director)
    TimedEvent.objects.filter(tournament=t).update(ends_at=timezone.now() - timedelta(seconds=1))
    timed.finish_timed(t, actor=w.director, counts=[{"entry": even_a.pk, "chips": 45000}, {"entry": even_b.pk, "chips": 45000}])
    series.score_tournament(t, actor=w.director)
    series.settle_undecided(short, 1, [even_b.person], actor=w.director, reason="high card draw, witnessed")
    return {"formats.series.tie_settled": ["high card draw, witnessed"]}


def drive_restore(_w: World) -> dict:
    counter = Sequence.objects.get_or_create(name="receipt")[0].value
    printed = counter + 10000  # receipts printed after the backup was taken (far past the journal's reserved block)
    ledger.continue_receipts_after_restore(backup="nightly.tar.gz", last_printed=printed)
    return {"cashier.receipts.lost_in_restore": [f"receipts {counter + 1} to {printed} are skipped"]}


def drive_room(w: World) -> dict:
    hall = cardrooms.save_room("Sala principale", actor=w.director)
    cardrooms.save_table(hall, 12, seats=10, zone="TV", actor=w.director)
    cardrooms.save_table(hall, 14, seats=9, actor=w.director)
    cardrooms.set_out_of_service(hall, 14, "panno strappato", actor=w.director)
    cardrooms.back_in_service(hall, 14, actor=w.director)
    t = Tournament.objects.create(
        name="Serata", start_at=timezone.now() + timedelta(hours=2), buy_in=Decimal(50), fee=Decimal(5), starting_stack=10000, structure=w.structure
    )
    cardrooms.reserve(hall, 12, t, actor=w.director)
    cardrooms.lift_reservation(hall, 12, actor=w.director)
    cardrooms.remove_table(hall, 14, actor=w.director)
    anna = get_user_model().objects.create_user("anna.dealer", first_name="Anna", last_name="Neri")
    anna.groups.add(Group.objects.get_or_create(name="dealer")[0])
    now = timezone.now()
    shift = dealers.add_shift(hall, anna, now - timedelta(hours=1), now + timedelta(hours=5), actor=w.director)
    dealers.save_rotation(hall, push_minutes=25, break_after=120, break_minutes=15, actor=w.director)
    dealers.push(hall, actor=w.director)
    dealers.remove_shift(hall, shift.pk, actor=w.director)
    cardrooms.add_tables(hall, 20, 22, seats=8, actor=w.director)
    for number in (20, 21, 22):
        cardrooms.remove_table(hall, number, actor=w.director)
    cardrooms.remove_table(hall, 12, actor=w.director)  # the room keeps no table: the other drives' events number their own
    return {
        "room.shift.added": ["Anna Neri", "Sala principale"],
        "room.rotation.set": ["25", "15", "120"],
        "room.dealers.pushed": ["Sala principale", "1 dealer moved"],
        "room.shift.removed": ["Anna Neri"],
        "room.room.saved": ["Sala principale"],
        "room.table.saved": ["12", "Sala principale", "10"],
        "room.table.out_of_service": ["14", "panno strappato"],
        "room.table.back_in_service": ["14", "Sala principale"],
        "room.table.reserved": ["12", "Sala principale"],
        "room.table.reservation_lifted": ["12"],
        "room.table.removed": ["14"],
        "room.tables.added": ["3 tables of 8 seats", "Sala principale", "tables 20 to 22"],
    }


def drive_waiting_start(w: World) -> dict:
    hall = cardrooms.save_room("Sala piccola", actor=w.director)
    cardrooms.save_table(hall, 1, seats=9, actor=w.director)
    t = w.tournament("Attesa Cup", settings={"room": hall.pk})
    w.field_of(t, [(f"Player{i}", "Attesa") for i in range(1, 13)])  # two tables' worth, one in the room
    lifecycle.start(t, actor=w.director, when_room_full=lifecycle.WAIT)
    lifecycle.stop_waiting(t, actor=w.director)
    lifecycle.start(t, actor=w.director, when_room_full=lifecycle.WAIT)
    for entry in list(t.entries.all())[2:]:  # ten refunded: below the minimum when the table is free
        cashier.refund(entry, reason="changed his mind", actor=w.director)
    t.min_players = 3
    t.save(update_fields=["min_players"])
    cardrooms.save_table(hall, 2, seats=9, actor=w.director)
    lifecycle.start_waiting()
    u = w.tournament("Attesa Open", settings={"room": hall.pk})
    w.field_of(u, [(f"Player{i}", "Open") for i in range(1, 13)])
    lifecycle.start(u, actor=w.director, when_room_full=lifecycle.WAIT, override_minimum=True)
    cardrooms.save_table(hall, 3, seats=9, actor=w.director)
    lifecycle.start_waiting()
    lifecycle.cancel(t, actor=w.director, reason="room closed")
    lifecycle.cancel(u, actor=w.director, reason="room closed")
    for number in (1, 2, 3):
        cardrooms.remove_table(hall, number, actor=w.director)  # the room keeps no table: the other drives' events number their own
    return {
        "tournaments.start.waiting": ["1 free table too few"],
        "tournaments.start.wait_stopped": ["stopped waiting"],
        "tournaments.start.wait_refused": ["below_minimum"],
        "tournaments.tournament.started": ["12 players"],
    }


def drive_bring_in(w: World) -> dict:
    t, _entries = w.running("Portata Cup", players=6)  # no room keeps tables yet: its own table 1
    hall = cardrooms.save_room("Sala grande", actor=w.director)
    cardrooms.save_table(hall, 1, seats=9, actor=w.director)
    cardrooms.bring_in(hall, actor=w.director)
    lifecycle.finish(t, actor=w.director)
    cardrooms.remove_table(hall, 1, actor=w.director)  # the room keeps no table: the other drives' events number their own
    return {"room.event.brought_in": ["Sala grande", "(1)"]}


def drive_layouts(w: World) -> dict:
    import io

    from PIL import Image

    from tournaments.screens import services as screen_services

    out = io.BytesIO()
    Image.new("RGB", (8, 4), (10, 20, 30)).save(out, format="PNG")
    logo = screen_services.upload_image(name="Logo sala", content=out.getvalue(), actor=w.director)
    design = {"blocks": [{"kind": "logo", "x": 0, "y": 0, "w": 4, "h": 2, "image": logo.pk}, {"kind": "clock", "x": 0, "y": 2, "w": 24, "h": 22}]}
    made = screen_services.save_layout(name="Serata TV", design=design, actor=w.director)
    screen_services.delete_layout(made, actor=w.director)
    return {
        "tournaments.screen_image.uploaded": ["Logo sala", "8 × 4"],
        "tournaments.layout.saved": ["Serata TV", "2 blocks"],
        "tournaments.layout.deleted": ["Serata TV"],
    }


DRIVES = [
    drive_layouts,
    drive_bring_in,
    drive_room,
    drive_waiting_start,
    drive_bounties,
    drive_cashier,
    drive_clock,
    drive_seating,
    drive_balancing,
    drive_floor,
    drive_payouts,
    drive_setup,
    drive_oversight,
    drive_people,
    drive_desk,
    drive_satellite,
    drive_jackpot,
    drive_seats_by_hand,
    drive_screens,
    drive_series,
    drive_timed,
    drive_multiday,
    drive_headsup,
    drive_desk_extras,
    drive_no_shows,
    drive_manual_draw,
    drive_halts,
    drive_series_tie,
    drive_restore,
]

#: Actions no drive causes, each with the reason (none: every action a service writes is driven).
#: The test fails as soon as a listed action is caused, so the list only shrinks.
NOT_DRIVEN: dict[str, str] = {}
