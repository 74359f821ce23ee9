"""What must be true after every action of a simulated day, in any combination of features.

Each invariant is a function ``(world) -> list[str]``: the problems it finds, none when the state
is sound. It asks the product the questions its pages and reports ask (the desk's shift totals,
the reconciliation report, the bounty overview, the table map, the dues, the public snapshot and
seat lookup, the reports' CSV), and compares them with each other and with the ledger, never with
a model kept by the driver.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import re
import unicodedata
from collections import Counter
from decimal import Decimal
from unittest import mock

from django.contrib.auth import get_user_model
from django.db.models import Model
from django.http import Http404
from django.test import RequestFactory
from django.utils import timezone
from django.utils.translation import gettext

from payouts import reports
from payouts import selectors as psel
from seating import selectors as seating_selectors
from seating.models import DealerAssignment, DealerShift, PendingMove, RoomTable, Seat, SeatingState, Table
from seating.services import dealers
from tdmanager.policy import DOCUMENT_READERS
from tdmanager.roles import has_role
from tournaments.cashier import selectors as cashier_selectors
from tournaments.cashier import services as cashier
from tournaments.eventlog.actions import Action
from tournaments.live import seats
from tournaments.live.snapshot import build_snapshot, change_announcements_by_language
from tournaments.models import Entry, LedgerRow, Person, PushSubscription, Tournament, TournamentChange
from tournaments.notices import rules as notice_rules
from tournaments.people import privacy
from tournaments.people import services as people
from tournaments.phone import views as phone
from tournaments.rulebook import views as rulebook_views

from .world import World

ZERO = Decimal(0)

_asked: dict = {}


def asked(question, t):
    """The product's answer to ``question(t)`` (a report or selector a page shows), asked once
    in a pass of the invariants."""
    key = (question, t.pk)
    if key not in _asked:
        _asked[key] = question(t)
    return _asked[key]


PLAYED = (Tournament.RUNNING, Tournament.FINISHED, Tournament.CANCELLED, Tournament.REGISTERING)


def drawers_equal_their_rows(world: World) -> list[str]:
    """Every drawer (the desk's shift totals of a staff login since the day began) equals the sum
    of the ledger rows written on that login's shift (amounts owed, not money, apart); and only
    the cashiers hold money: an action of the director, the floor or a dealer never puts cash in
    a drawer of theirs (nobody handed it to them)."""
    problems = []
    desk = {c.user.pk for c in world.cashiers}
    for actor in [*world.cashiers, world.director, world.floor, world.dealer, world.controller]:
        shift = cashier_selectors.shift_totals(actor.user, since=world.day_start)
        rows = (
            LedgerRow.objects.filter(cashier=actor.user, created_at__gte=world.day_start)
            .exclude(kind=LedgerRow.RECEIVABLE)
            .exclude(kind=LedgerRow.REVERSAL, reverses__kind=LedgerRow.RECEIVABLE)
        )
        total = sum((r.total for r in rows), ZERO)
        if shift["total"] != total:
            problems.append(f"{actor.label}'s shift shows {shift['total']}, its rows add up to {total}")
        if actor.user.pk not in desk and total != ZERO:
            kinds = sorted({r.kind for r in rows})
            problems.append(f"{actor.label} handled no cash, yet his shift holds {total} ({', '.join(kinds)})")
    return problems


def reconciliation_balances(world: World) -> list[str]:
    """The reconciliation report of every event of the day says "balanced" in every state,
    cancelled events included: refunds owed are owed, not a difference, and an event that will not
    play adds no overlay."""
    problems = []
    for t in world.to_check(*PLAYED):
        data = asked(reports.reconciliation_data, t)
        if not data["balanced"]:
            lines = "; ".join(f"{label}: {value}" for label, value in data["lines"] if value)
            problems.append(
                f"{t.name} ({t.status}) does not balance: difference {data['difference']}, money in {data['in_difference']}, bounties {data['bounty_difference']} [{lines}]"
            )
        if t.status == Tournament.CANCELLED:
            overlay = asked(psel.pool_breakdown, t).overlay
            if overlay:
                problems.append(f"{t.name} is cancelled, yet its pool counts an overlay of {overlay}")
    return problems


def bounty_money_is_accounted(world: World) -> list[str]:
    """Bounty money taken in = paid + owed + on heads + in the bag + kept by the house rule
    (+ carried over, + parts of cancelled entries still to refund), and no figure below zero."""
    problems = []
    for t in world.to_check(*PLAYED):
        b = asked(psel.bounty_money, t)
        if not b["active"]:
            continue
        if b["difference"]:
            problems.append(f"{t.name}: bounty money {b['in']} leaves {b['difference']} unexplained ({b})")
        negative = [k for k in ("in", "paid", "owed", "on_heads", "in_bag", "house", "carried", "to_refund") if b[k] < 0]
        if negative:
            problems.append(f"{t.name}: bounty figures below zero: {negative} ({b})")
    return problems


def pool_is_what_the_ledger_says(world: World) -> list[str]:
    """The prize pool the pages show is the prize parts on the ledger, less the deductions, plus
    the overlay (and no overlay lifting it above the guarantee). An event whose money pays where the event
    ends (a Day 1 flight, a heads-up group that sends its survivors on) collects the ledgers of
    the events that fund it (``pool_sources``: none for a flight; its flights for a Day 2)."""
    problems = []
    for t in world.to_check(*PLAYED):
        b = asked(psel.pool_breakdown, t)
        # the prize parts taken in: the rows that pay prizes out (and their reversals) are no part of them
        taken = (
            LedgerRow.objects.filter(tournament__in=psel.pool_sources(t))
            .exclude(kind=LedgerRow.PAYOUT)
            .exclude(kind=LedgerRow.REVERSAL, reverses__kind=LedgerRow.PAYOUT)
        )
        ledger = {"prize": sum(taken.values_list("prize_amount", flat=True), ZERO)}
        if b.collected != ledger["prize"]:
            problems.append(f"{t.name}: the pool collects {b.collected}, the ledger's prize parts are {ledger['prize']}")
        if t.status == Tournament.CANCELLED:
            if b.total or b.overlay or b.refunds != b.collected:
                problems.append(f"{t.name} is cancelled: its pool must be nothing and every prize part owed back ({b})")
            continue
        if b.total != b.collected - sum(b.deductions.values(), ZERO) + b.overlay:
            problems.append(f"{t.name}: pool total {b.total} is not collected − deductions + overlay ({b})")
        if b.overlay and b.total > (t.guarantee or ZERO):
            # the house adds money up to its guarantee, or to fund the Day 1 chip-leader prizes a
            # small pool cannot (then the pool is nothing): never a pool above what it promised
            problems.append(f"{t.name}: an overlay of {b.overlay} takes the pool to {b.total} (guarantee {t.guarantee})")
    return problems


def prizes_follow_the_places(world: World) -> list[str]:
    """Prizes owed + paid = the payout table's places decided: each due belongs to an entry that
    holds that place, is paid at most once and for its amount, and the dues of the decided places
    never exceed what the table gives those places."""
    problems = []
    for t in world.to_check(Tournament.RUNNING, Tournament.FINISHED):
        prizes = asked(psel.table_prizes, t)
        values = psel.place_values(prizes)
        dues = [d for d in asked(psel.dues, t) if d["source"].startswith("MAIN:") and d["kind"] != "ITEM"]
        decided = set()
        for place, members in asked(psel.place_groups, t).items():
            decided.update(range(place, place + len(members)))
        for d in dues:
            if d["entry"].place is None:
                problems.append(f"{t.name}: a prize of {d['amount']} is due to #{d['entry'].number}, who holds no place")
        payments = psel.active_payments(t)
        for d in dues:
            pay = payments.get((d["entry"].pk, d["source"]))
            if pay is not None and pay.amount != d["amount"]:
                problems.append(f"{t.name}: #{d['entry'].number} was paid {pay.amount} for a prize of {d['amount']}")
        owed = sum((d["amount"] for d in dues if d["source"] != psel.FORFEIT_SOURCE), ZERO)
        table = sum((v for i, v in enumerate(values, start=1) if i in decided), ZERO)
        if owed > table:
            problems.append(f"{t.name}: {owed} is due for places {sorted(decided)} worth {table}")
    return problems


def seats_are_sound(world: World) -> list[str]:
    """No entry seated twice, no table over its size, nobody out (busted, cancelled) holding a seat,
    every player in a running event seated, and the tables balanced within the house's rule once
    their slips are confirmed; a move waits only for a hand-for-hand hand still played at its tables."""
    problems = []
    for t in world.to_check(Tournament.RUNNING, Tournament.FINISHED, Tournament.CANCELLED):
        seats = list(Seat.objects.filter(tournament=t, entry__isnull=False).values_list("table__number", "number", "entry_id", "entry__status"))
        twice = [e for e, n in Counter(s[2] for s in seats).items() if n > 1]
        if twice:
            problems.append(f"{t.name}: entries seated twice: {twice}")
        out = [(table, seat, e) for table, seat, e, status in seats if status != Entry.ACTIVE]
        if out:
            problems.append(f"{t.name}: players out still hold seats (table, seat, entry): {out}")
        size = dict(Table.objects.filter(tournament=t).values_list("number", "capacity"))
        per_table = Counter(s[0] for s in seats)
        for table, n in per_table.items():
            if n > size.get(table, t.table_size):
                problems.append(f"{t.name}: table {table} seats {n} (size {size.get(table, t.table_size)})")
        if t.status == Tournament.RUNNING and (t.settings or {}).get("draw_mode") != "MANUAL":
            seated = {s[2] for s in seats}
            unseated = [e.number for e in Entry.objects.filter(tournament=t, status=Entry.ACTIVE).exclude(pk__in=seated)]
            if unseated:
                problems.append(f"{t.name}: players in without a seat: {unseated}")
            # CLK-06: a move waiting for a table's hand-for-hand hand is open too, as long as the
            # hand is still played at one of its tables (once it is over there, it is proposed)
            waiting = list(PendingMove.objects.filter(tournament=t, status=PendingMove.WAITING))
            finished = seating_selectors.hand_finished_at(t) if waiting else None
            for m in waiting:
                if not seating_selectors.waiting_for(m.from_table, m.to_table, finished):
                    problems.append(f"{t.name}: the move from table {m.from_table} to table {m.to_table} waits, but no hand is played there")
            if per_table and not waiting and not PendingMove.objects.filter(tournament=t, status=PendingMove.PROPOSED).exists():
                from tournaments.house import HouseRules

                trigger = HouseRules.of(t).balance_trigger_difference
                open_tables = (
                    [n for n in Table.objects.filter(tournament=t, broken_at__isnull=True).values_list("number", flat=True)]
                    if hasattr(Table, "broken_at")
                    else list(per_table)
                )
                counts = [per_table.get(n, 0) for n in open_tables] or list(per_table.values())
                if max(counts) - min(counts) >= trigger:
                    problems.append(f"{t.name}: tables unbalanced with no slip open: {dict(per_table)}")
    return problems


def room_tables_held_once(world: World) -> list[str]:
    """The room's physical tables (issue #42) as the room map shows them against each event's
    own tables: every table a running event plays at is held by that event on the room map (no
    other event plays there, it is not out of service), and every table the map shows in use by
    an event is one of that event's tables in play."""
    problems = []
    running = world.to_check(Tournament.RUNNING)
    rooms = dict(SeatingState.objects.filter(tournament__in=running, card_room__isnull=False).values_list("tournament_id", "card_room_id"))
    maps = {room: seating_selectors.room_map(room) for room in set(rooms.values())}
    for t in running:
        if t.pk not in rooms:
            continue
        own = set(seating_selectors.table_numbers(t))
        shown = maps[rooms[t.pk]]["tables"]
        on_map = {tb["number"] for tb in shown if tb["event"] and tb["event"]["id"] == t.pk}
        if own != on_map:
            others = {tb["number"]: (tb["state"], tb["event"] and tb["event"]["name"]) for tb in shown if tb["number"] in own - on_map}
            problems.append(f"{t.name} plays at tables {sorted(own)}, the room map shows it at {sorted(on_map)} (the others: {others})")
    return problems


def dealers_where_the_room_says(world: World) -> list[str]:
    """The room's dealers (issue #42) as the room page reads them: each dealer in one place, a
    dealer dealing only a table in use (a table that broke sent its dealer to the pool), and after
    a push every table in use has a dealer while the dealers not on a break are enough, and each
    dealer it placed is where his own reports are judged from (``assignment_of``), not in the room
    of an earlier shift."""
    problems = []
    rows = list(DealerAssignment.objects.filter(room=world.room, ends_at__isnull=True).values_list("dealer_id", "kind", "table"))
    twice = [d for d, n in Counter(d for d, _k, _t in rows).items() if n > 1]
    if twice:
        problems.append(f"dealers in two places at once: {twice}")
    shown = seating_selectors.room_map(world.room.pk)["tables"]
    in_use = {tb["number"] for tb in shown if tb["state"] == "IN_USE"}
    idle = sorted(t for _d, kind, t in rows if kind == "DEAL" and t not in in_use)
    if idle:
        problems.append(f"dealers at tables nobody plays at: {idle}")
    if world.pushed:
        able = sum(1 for _d, kind, _t in rows if kind != "BREAK")
        bare = sorted(tb["number"] for tb in shown if tb["state"] == "IN_USE" and not tb["dealer"])
        if len(bare) > max(0, len(in_use) - able):
            problems.append(f"after the push, tables without a dealer: {bare} ({able} dealers not on a break for {len(in_use)} tables)")
        placed = {d for d, _k, _t in rows}
        astray = sorted(u.username for u in get_user_model().objects.filter(pk__in=placed) if dealers.assignment_of(u).room_id != world.room.pk)
        if astray:
            problems.append(f"after the push, dealers placed in {world.room.name} whose reports are judged from another room: {astray}")
    return problems


def waiting_starts_hold_nothing(world: World) -> list[str]:
    """A start waiting for free tables (issue #42), as the tournament's page and API show it
    (``waiting_for_tables``), belongs to an event still to start that holds no table and has no
    seat drawn, and says how many tables it lacks; an event that started, ended or was cancelled
    waits for nothing."""
    from tournaments.setup.serializers import TournamentSerializer

    problems = []
    for t in world.to_check():
        shown = TournamentSerializer(Tournament.objects.select_related("waiting_start").get(pk=t.pk)).data["waiting_for_tables"]
        if shown is None:
            continue
        if t.status not in (Tournament.PLANNED, Tournament.REGISTERING):
            problems.append(f"{t.name} is {t.status} and still waits for tables")
        if shown["missing"] < 1:
            problems.append(f"{t.name} waits for tables with none missing")
        if Seat.objects.filter(tournament=t, entry__isnull=False).exists() and t.pk not in world.predrawn:
            problems.append(f"{t.name} waits for tables with players seated")
        if RoomTable.objects.filter(held_by=t).exists():
            problems.append(f"{t.name} waits for tables and holds some")
    return problems


def push_list_as_the_room_stands(world: World) -> list[str]:
    """The push list the floor printed this step (``dealers.preview``, as the push-list page reads
    it) moves only dealers on the roster at its time, deals each table in use on the room map at
    most once and no other table, and sends nobody to two places."""
    if world.push_list is None:
        return []
    problems = []
    at, moves = world.push_list["at"], world.push_list["moves"]
    rostered = set(DealerShift.objects.filter(room=world.room, starts_at__lte=at, ends_at__gt=at).values_list("dealer_id", flat=True))
    strangers = sorted(m["dealer"] for m in moves if m["dealer_id"] not in rostered)
    if strangers:
        problems.append(f"the push list moves dealers not on the roster at {at:%H:%M}: {strangers}")
    twice = [d for d, n in Counter(m["dealer_id"] for m in moves).items() if n > 1]
    if twice:
        problems.append(f"the push list sends dealers to two places: {twice}")
    in_use = {tb["number"] for tb in seating_selectors.room_map(world.room.pk)["tables"] if tb["state"] == "IN_USE"}
    dealt = [m["to"] for m in moves if m["kind"] == "DEAL"]
    wrong = sorted({n for n in dealt if n not in in_use} | {n for n, k in Counter(dealt).items() if k > 1})
    if wrong:
        problems.append(f"the push list deals tables not in use, or one twice: {wrong} (in use: {sorted(in_use)})")
    return problems


def screens_draw_their_layouts(world: World) -> list[str]:
    """Every lobby screen's page (its configuration, as the TV asks for it) draws the layouts it
    was given, each one that exists, as data the screen's script places; and among the screens
    showing a tournament at most one is its speaker (issue #43)."""
    if not world.designed:
        return []
    from tournaments.live import views as live
    from tournaments.models import DisplayScreen, ScreenLayout
    from tournaments.screens import rules as screen_rules

    problems = []
    stored = set(ScreenLayout.objects.values_list("pk", flat=True))
    speakers: dict[int, list[str]] = {}
    for screen in DisplayScreen.objects.filter(token_revoked_at__isnull=True).order_by("pk"):
        response = live.display(RequestFactory().get("/", {"config": 1}), screen.token)
        if response.status_code != 200:
            continue  # a screen with nothing to show
        drawn = json.loads(response.content)["design"]
        for state, key in (screen.layouts or {}).items():
            shown = drawn["layouts"].get(state, {}).get("key")
            if shown != key or (key.startswith("layout:") and int(key[7:]) not in stored):
                problems.append(f"{screen.name} was given {key} for {state} and draws {shown}")
            design = drawn["layouts"].get(state, {}).get("design") or {}
            if design and screen_rules.clean_design(design) != design:
                problems.append(f"{screen.name} draws a design the checks would not store ({state})")
        if screen.speaker:
            for t in screen.tournaments_shown():
                speakers.setdefault(t.pk, []).append(screen.name)
    problems += [f"tournament {pk} has two speakers: {names}" for pk, names in speakers.items() if len(names) > 1]
    return problems


def screen_links_end_at_once(world: World) -> list[str]:
    """A lobby screen's link ended (a new one given, stopped, the screen deleted) answers nobody:
    neither the screen's page nor its event's live state, seats or stream (``live._access``, what
    each asks); the new link a step gave shows the screen's event."""
    from tournaments.live import views as live

    problems = []
    for token, pk in world.ended_links:
        if live._access(None, token, pk) is not None:
            problems.append(f"an ended screen link ({token[:6]}…) still reads event {pk}")
        try:
            live.display(RequestFactory().get("/", {"config": 1}), token)
        except Http404:
            continue
        problems.append(f"an ended screen link ({token[:6]}…) still shows its page")
    for token, pk in world.screen_links:
        if not live._access(None, token, pk) or live.display(RequestFactory().get("/", {"config": 1}), token).status_code != 200:
            problems.append(f"a screen's new link ({token[:6]}…) does not show event {pk}")
    return problems


def logins_speak_their_language(world: World) -> list[str]:
    """A login that picked a language in this step reads it at once on every device: a page of
    another browser already logged in (no cookie of its own), and a device token's API refusal,
    whatever language that request asks for."""
    from django.test import Client

    from tournaments.staff.logins import issue_token

    problems = []
    for user, code in world.languages_chosen:
        other = Client(HTTP_ACCEPT_LANGUAGE="en" if code != "en" else "it")
        other.force_login(user)
        page = other.get("/devices/")
        if f'<html lang="{code}"' not in page.content.decode():
            problems.append(f"{user.get_username()} chose {code}: another device's page is not in it")
        key = issue_token(user, device="sim check")[1]
        asked = "fr" if code != "fr" else "de"
        r = Client().get("/api/v1/tournaments/0/", HTTP_AUTHORIZATION=f"Token {key}", HTTP_ACCEPT_LANGUAGE=asked)
        if r.headers.get("Content-Language") != code:
            problems.append(f"{user.get_username()} chose {code}: its token's API answers in {r.headers.get('Content-Language')}")
    return problems


def places_unique_and_contiguous(world: World) -> list[str]:
    """Finishing places are unique and contiguous, ties as tie groups: a group at place p of k
    players covers p … p+k−1 (k: the players it will hold while it is still being decided, as a
    heads-up round under way, ``place_spans``), no two groups overlap, and the places given run
    without a hole from the last place of the field up."""
    problems = []
    for t in world.to_check(Tournament.RUNNING, Tournament.FINISHED):
        covered = []
        for place, span in psel.place_spans(t, asked(psel.place_groups, t)).items():
            covered.extend(range(place, place + span))
        dup = [p for p, n in Counter(covered).items() if n > 1]
        if dup:
            problems.append(f"{t.name}: places given twice: {dup}")
        if covered and sorted(set(covered)) != list(range(min(covered), max(covered) + 1)):
            problems.append(f"{t.name}: places with a hole: {sorted(covered)}")
        field = Entry.objects.filter(tournament=t, status__in=(Entry.ACTIVE, Entry.BUSTED)).count()
        if covered and max(covered) > field:
            problems.append(f"{t.name}: place {max(covered)} given in a field of {field}")
    return problems


def receipts_are_gapless(world: World) -> list[str]:
    """The receipts written today run without a gap (a rolled-back sale never burns a number),
    but for the numbers a restore lost, which the reconciliation reports of the events open then
    list (``tournaments.cashier.selectors.receipts_lost_in_restore``); and no number is written twice."""
    numbers = sorted(LedgerRow.objects.filter(created_at__gte=world.day_start).values_list("receipt_number", flat=True))
    problems = []
    if len(set(numbers)) != len(numbers):
        problems.append(f"receipt numbers written twice: {sorted(n for n, k in Counter(numbers).items() if k > 1)[:10]}")
    if numbers and numbers[-1] - numbers[0] + 1 != len(set(numbers)):
        listed = set()
        for t in world.tournaments():
            for lost in cashier_selectors.receipts_lost_in_restore(t):
                listed.update(range(lost["first"], lost["last"] + 1))
        missing = sorted(set(range(numbers[0], numbers[-1] + 1)) - set(numbers) - listed)
        if missing:
            problems.append(f"receipt numbers missing: {missing[:10]}")
    return problems


def erased_people_are_gone(world: World) -> list[str]:
    """An erased person's name, document and phone appear in no public answer (the lobby's
    snapshot, the seat lookup, every player's phone page as the streams send it) and no export
    (the reports' CSV)."""
    if not world.erased:
        return []
    texts = []
    for t in world.to_check():
        snap = build_snapshot(t)
        texts.append(json.dumps(snap, default=str))
        texts.append(json.dumps(seats.seat_page(t.pk, 1, 200), default=str))
        public, own = phone.phone_index(t.pk, snap, {})  # what the hub streams to every phone of the event
        texts.append(json.dumps(public, default=str))
        texts += [o.frame.decode() for o in own.values()]
        # the erased players' own pages, cancelled entries' included (the hub streams those no more,
        # but their page still answers its token)
        for pk in Entry.objects.filter(tournament=t, person_id__in=world.erased).values_list("pk", flat=True):
            texts.append(json.dumps(phone.phone_state(pk, snap), default=str))
        for name in reports.REPORTS:
            texts.append(reports.to_csv(reports.build(t, name)))
    blob = "\n".join(texts)
    problems = []
    for pk, strings in world.erased.items():
        found = [s for s in strings if s and s in blob]
        if found:
            problems.append(f"erased person #{pk} still shows {found}")
    return problems


_WHERE = re.compile(r"(?:table|tavolo) (\d+), (?:seat|posto) (\d+)")


def notices_only_for_the_subscribed_and_their_own_page(world: World) -> list[str]:
    """A notice the step told goes to a phone its player subscribed, of a kind that phone chose,
    about one of that player's entries; the table and seat it names are the ones that entry's
    own page shows (its seat, or where its move goes), it names no player and it opens that
    page. An erased person has no phone left."""
    problems = []
    if world.erased and PushSubscription.objects.filter(person_id__in=world.erased).exists():
        problems.append("an erased person still has a subscribed phone")
    for tid, message, phone_of in world.told:
        entry_id = int(message.topic.rsplit("-", 1)[1])
        entry = Entry.objects.select_related("person").get(pk=entry_id)
        if phone_of is None or phone_of[0] != entry.person_id:
            problems.append(f"event {tid}: a notice about entry #{entry.number} went to a phone not of its player")
            continue
        if message.kind not in phone_of[1] or message.kind not in notice_rules.KINDS:
            problems.append(f"event {tid}: a notice of a kind entry #{entry.number}'s phone did not choose")
        if message.payload["url"] != f"/p/{entry.phone_token}/":
            problems.append(f"event {tid}: a notice opens another page than entry #{entry.number}'s")
        page = phone.phone_state(entry.pk)
        own = {(s["table"], s["seat"]) for s in (page["seat"],) if s} | {(m["to_table"], m["to_seat"]) for m in (page["move"],) if m}
        for table, seat in _WHERE.findall(message.payload["body"]):
            if (int(table), int(seat)) not in own:
                problems.append(f"event {tid}: entry #{entry.number} was told table {table}, seat {seat}, not its own")
        others = Entry.objects.filter(tournament_id=tid).exclude(person_id=entry.person_id).values_list("person__first_name", "person__last_name")
        if any(f"{first} {last}" in message.payload["body"] for first, last in others):
            problems.append(f"event {tid}: a notice to entry #{entry.number} names another player")
    return problems


def documents_found_whole_and_only_at_the_desk(world: World) -> list[str]:
    """A person's document number finds him in the people search only whole, and only for the
    desk (``policy.DOCUMENT_READERS``: cashier, director): asked as every staff role, with the
    whole number and with all of it but its last two characters. And every export of a person's
    data is in his log with a read of his document (purpose export), as the export shows it."""
    problems = []
    for pk in world.looked_up:
        p = Person.objects.get(pk=pk)
        if not p.document_id:  # erased since
            continue
        for who in world.staff_logins:
            desk = has_role(who.user, *DOCUMENT_READERS)
            if (pk in {x.pk for x in people.search_people(p.document_id, reader=who.user)}) != desk:
                problems.append(f"{who.user.username} {'does not find' if desk else 'finds'} person #{pk} by his whole document number")
            if pk in {x.pk for x in people.search_people(p.document_id[:-2], reader=who.user)}:
                problems.append(f"{who.user.username} finds person #{pk} by a part of his document number")
    for pk in world.exported:
        log = privacy.person_data(Person.objects.get(pk=pk))["event_log"]
        exports = sum(1 for ev in log if ev["action"] == Action.PEOPLE_PERSON_EXPORTED)
        reads = sum(1 for ev in log if ev["action"] == Action.PEOPLE_DOCUMENT_VIEWED and ev["payload"].get("purpose") == "export")
        if reads != exports:
            problems.append(f"person #{pk}: {exports} exports of his data, {reads} reads of his document logged for them")
    return problems


def names_read_as_stored(world: World) -> list[str]:
    """No person of the day holds an invisible formatting character (a right-to-left override,
    a zero-width space) or a control character (a line break) in a name, as the desk's pages, the
    lobby's seat list and the receipts show it: whatever the desk was handed, a screen reads what
    is stored."""
    problems = []
    for pk, *names in Person.objects.filter(pk__in=world.people).values_list("pk", "first_name", "last_name", "nickname").order_by("pk"):
        hidden = sorted({f"U+{ord(ch):04X}" for name in names for ch in name if unicodedata.category(ch) in ("Cf", "Cc")})
        if hidden:
            problems.append(f"person #{pk}'s name holds {', '.join(hidden)}: {names!r}")
    return problems


def private_reasons_stay_private(world: World) -> list[str]:
    """Why a published event changed is the staff's until the director shows it to the players
    (#40 item 12): a reason not shown appears neither in the public change feed (and so the rules
    page) nor in the lobby screens' announcements, in any language."""
    problems = []
    for t in world.to_check():
        reasons = dict(TournamentChange.objects.filter(tournament=t).exclude(reason="").values_list("reason", "reason_public"))
        private = [reason for reason, public in reasons.items() if not public]
        if not private:
            continue
        try:
            feed = rulebook_views.public_changes(RequestFactory().get("/"), t.pk).content.decode()
        except Http404:  # not published: nothing is public
            feed = ""
        texts = feed + json.dumps(change_announcements_by_language(t, timezone.now()), ensure_ascii=False)
        problems += [f"{t.name}: the reason {reason!r} is public, never shown by the director" for reason in private if reason in texts]
    return problems


# --- money features: deals, the jackpot, side pools, forfeits, foreign tender, caps, chips -------


def deals_share_what_was_left(world: World) -> list[str]:
    """A deal approved (PAY-09) shares exactly what was left: its amounts per finishing place (as
    the deal's API answer gives them) add up to the prizes of the places in play when it was
    proposed, strictly decreasing; the payout table the pages show pays places 1..n the latest
    deal's amounts; in a bounty event what the players take of the bounty money adds up to the
    bounty money in play then (a mystery bag carried over: nobody takes it, it is carried), and
    the desk owes or has paid each player his part (the bounty awards of the deal)."""
    from payouts.api.deals import deal_data
    from payouts.models import BountyAward, Deal

    problems = []
    for t in world.to_check(Tournament.RUNNING, Tournament.FINISHED):
        deals = list(Deal.objects.filter(tournament=t, status=Deal.APPROVED).order_by("approved_at", "id"))
        for deal in deals:
            d = deal_data(deal)
            by_place = [Decimal(a) for a in d["by_place"]]
            before = sum((Decimal(p) for p in d["prizes_before"]), ZERO)
            if sum(by_place, ZERO) != before:
                problems.append(f"{t.name}: deal {deal.pk} pays {sum(by_place, ZERO)} for prizes left of {before}")
            if any(b >= a for a, b in zip(by_place, by_place[1:])):
                problems.append(f"{t.name}: deal {deal.pk} is not strictly decreasing: {d['by_place']}")
            if not d["bounty_in_deal"]:
                continue
            shares = {int(k): Decimal(v) for k, v in d["bounties"].items()}
            awards = BountyAward.objects.filter(tournament=t, deal=deal, void="")
            carried = sum((a.cash for a in awards if a.kind == BountyAward.LEFTOVER and a.winner_id is None), ZERO)
            if sum(shares.values(), ZERO) + carried != Decimal(d["bounty_total"]):
                problems.append(f"{t.name}: deal {deal.pk} shares {sum(shares.values(), ZERO)} (+ {carried} carried) of {d['bounty_total']} bounty money")
            got = {}
            for a in awards:
                if a.kind == BountyAward.DEAL:
                    got[a.winner_id] = got.get(a.winner_id, ZERO) + a.cash
            expected = {k: v for k, v in shares.items() if v > 0}
            if got != expected:
                problems.append(f"{t.name}: deal {deal.pk} gives bounties {expected}, the desk has {got}")
        if deals:
            latest = deal_data(deals[-1])
            cash = {}
            for p in asked(psel.table_prizes, t):
                if p["kind"] == "CASH":
                    cash[p["place"]] = cash.get(p["place"], ZERO) + Decimal(p["amount"])
            table = [cash.get(i, ZERO) for i in range(1, len(latest["by_place"]) + 1)]
            if table != [Decimal(a) for a in latest["by_place"]]:
                problems.append(f"{t.name}: the payout table pays places 1..n {table}, the deal said {latest['by_place']}")
    return problems


def jackpot_fund_balances(world: World) -> list[str]:
    """The venue's progressive jackpot as the lobby shows it is its base plus every jackpot fee
    the desks took (net of refunds and reversals), less every share won (paid or still to
    collect), plus the base put back the day after a full win; each win is shared out exactly
    among its winners, and the jackpots the events' reconciliation says were paid are the shares
    the desk's list says were collected."""
    from payouts.models import JackpotWin

    fund = psel.jackpot_fund()
    if fund is None:
        return []
    problems = []
    shown = Decimal(psel.jackpot_summary()["fund"])
    claims = psel.jackpot_claims(fund)
    won = sum((Decimal(c["amount"]) for c in claims), ZERO)
    wins = list(JackpotWin.objects.filter(fund=fund))
    now = timezone.now()
    reseeded = sum((w.reseed for w in wins if w.locked_until <= now), ZERO)
    expected = fund.base + psel.jackpot_contributions() - won + reseeded
    if shown != expected:
        problems.append(f"the jackpot shows {shown}: base {fund.base} + fees {psel.jackpot_contributions()} − won {won} + reseeded {reseeded} = {expected}")
    for w in wins:
        shared = sum((c.amount for c in w.claims.all()), ZERO)
        if shared != w.amount:
            problems.append(f"jackpot win {w.pk} of {w.amount} is shared as {shared}")
    paid = sum((Decimal(c["amount"]) for c in claims if c["paid"]), ZERO)
    out = sum((psel.jackpot_money(t)["out"] for t in Tournament.objects.filter(pk__in={w.tournament_id for w in wins})), ZERO)
    if paid != out:
        problems.append(f"the desk's jackpot list says {paid} was collected, the events' ledgers pay {out}")
    return problems


def side_pools_hold_what_they_owe(world: World) -> list[str]:
    """A side pool (a Last Longer, a chip-leader prize) never awards more than it holds, and the
    reconciliation's "side pools: still held" is what the pools have left plus the side prizes
    awarded and not yet paid at the desk."""
    problems = []
    label = gettext("Side pools: still held")
    for t in world.to_check(Tournament.REGISTERING, Tournament.RUNNING, Tournament.FINISHED):
        pools = psel.side_pools_summary(t)
        if not pools:
            continue
        left = ZERO
        for p in pools:
            if Decimal(p["left"]) < 0:
                problems.append(f"{t.name}: side pool {p['name']} has awarded more than it holds ({p})")
            left += Decimal(p["left"])
        unpaid = sum((d["amount"] for d in asked(psel.dues, t) if d["source"].startswith("SIDE:") and not d["paid"]), ZERO)
        held = dict(asked(reports.reconciliation_data, t)["lines"]).get(label)
        if held != left + unpaid:
            problems.append(f"{t.name}: the reconciliation holds {held} in side pools; they have {left} left and {unpaid} awarded, unpaid")
    return problems


def forfeited_prizes_are_never_paid(world: World) -> list[str]:
    """PEN-07: a prize forfeited by an elimination without prize is never paid, and every cent of
    the prizes forfeited is somewhere: redistributed, due to places still to play or held by the
    house (the forfeit plan the payouts page shows)."""
    problems = []
    for t in world.to_check(Tournament.RUNNING, Tournament.FINISHED):
        plan = asked(psel.forfeit_plan, t)
        if not plan["forfeits"]:
            continue
        if plan["total"] + plan["other"] != plan["redistributed"] + sum(plan["pending"].values(), ZERO) + plan["held"]:
            problems.append(f"{t.name}: forfeited {plan['total']} + {plan['other']} is not redistributed + pending + held ({plan})")
        if plan["held"] < 0:
            problems.append(f"{t.name}: the house holds {plan['held']} of forfeited prizes")
        paid = [d["name"] for d in asked(psel.dues, t) if d["forfeited"] and d["paid"]]
        if paid:
            problems.append(f"{t.name}: forfeited prizes paid to {paid}")
    return problems


def foreign_tender_at_the_day_rate(world: World) -> list[str]:
    """A sale paid in dollars or francs (REG-06) was taken at the rate in force that day when it
    was made, for at least its price (rounded up to the cent of the foreign currency); its
    reversal gives back the same notes; each drawer's line of a foreign currency holds exactly
    the notes its rows say."""
    from tournaments.cashier.rules import foreign_due
    from tournaments.models import ExchangeRate

    problems = []
    rows = list(LedgerRow.objects.filter(created_at__gte=world.day_start).exclude(tender_currency="").select_related("reverses").order_by("pk"))
    for r in rows:
        total = r.total
        if r.kind == LedgerRow.REVERSAL:
            if r.reverses is None or r.tender_amount != -r.reverses.tender_amount or r.tender_currency != r.reverses.tender_currency:
                problems.append(f"receipt {r.receipt_number} reverses {r.reverses_id} with {r.tender_amount} {r.tender_currency}")
            continue
        day = timezone.localdate(r.created_at)
        rate = ExchangeRate.objects.filter(date=day, currency=r.tender_currency, set_at__lte=r.created_at).order_by("-set_at", "-id").first()
        if rate is None or rate.rate != r.exchange_rate:
            problems.append(f"receipt {r.receipt_number}: {r.tender_currency} at {r.exchange_rate}, the rate in force was {rate and rate.rate}")
            continue
        due = foreign_due(abs(total), rate.rate)
        if r.tender_amount != (due if total >= 0 else -due):
            problems.append(f"receipt {r.receipt_number}: {r.tender_amount} {r.tender_currency} taken for {total} at {rate.rate} (due {due})")
    for c in world.cashiers:
        lines = {f["currency"]: f["amount"] for f in cashier_selectors.shift_totals(c.user, since=world.day_start)["foreign"]}
        notes = {}
        for r in rows:
            if r.cashier_id == c.user.pk:
                notes[r.tender_currency] = notes.get(r.tender_currency, ZERO) + r.tender_amount
        if {k: v for k, v in lines.items() if v} != {k: v for k, v in notes.items() if v}:
            problems.append(f"{c.label}'s drawer shows foreign notes {lines}, its rows {notes}")
    return problems


def field_caps_hold(world: World) -> list[str]:
    """No capped event holds more places than its cap (the desk, a ticket, an alternate admitted:
    every path is checked), and every alternate admitted holds the entry he was sold."""
    from tournaments.models import Alternate

    problems = []
    for t in world.to_check(Tournament.REGISTERING, Tournament.RUNNING):
        if t.field_cap is None:
            continue
        taken = cashier.places_taken(t)
        if taken > t.field_cap:
            problems.append(f"{t.name}: {taken} places taken, the cap is {t.field_cap}")
        for alt in Alternate.objects.filter(tournament=t, status=Alternate.ADMITTED).select_related("entry"):
            if alt.entry is None or alt.entry.person_id != alt.person_id or alt.entry.tournament_id != t.pk:
                problems.append(f"{t.name}: alternate {alt.pk} admitted without his own entry")
    return problems


def chips_in_play_never_negative(world: World) -> list[str]:
    """The chips in play the clock shows (sold, raced, removed) are never below zero."""
    from tournaments.floor.selectors import chips_in_play

    return [f"{t.name}: {chips_in_play(t)} chips in play" for t in world.to_check(Tournament.RUNNING) if chips_in_play(t) < 0]


# --- the formats: satellites, multi-day events, heads-up brackets, series ------------------------


def satellite_seats_and_remainder_make_its_pool(world: World) -> list[str]:
    """A satellite's payout table (its seats, each worth the target's buy-in and fee, and the cash
    remainder) adds up to its prize pool (FMT-08, C14: gross or net); once its seats are awarded,
    each seat given is an entry in the target bought for the seat's value, or a ticket for the
    target worth it, and no more seats are given than the table holds."""
    from payouts.models import PrizePayment

    problems = []
    for t in world.to_check(Tournament.RUNNING, Tournament.FINISHED):
        link = psel.satellite_link(t)
        if link is None:
            continue
        prizes = asked(psel.table_prizes, t)
        seats = sum(1 for p in prizes if p["kind"] == "SEAT")
        total = sum((p["amount"] for p in prizes), ZERO)
        pool = psel.satellite_pool(t, link)
        if seats and total != pool:
            problems.append(f"{t.name}: its payout table gives {total} ({seats} seats + cash), its pool is {pool}")
        if not link.completed_at:
            continue
        given = list(PrizePayment.objects.filter(tournament=t, kind="SEAT").select_related("seat_entry", "ticket"))
        if len(given) > seats:
            problems.append(f"{t.name}: {len(given)} seats given, its table holds {seats}")
        value = psel.seat_value(link.target)
        for pay in given:
            if pay.amount != value:
                problems.append(f"{t.name}: a seat paid as {pay.amount}, the target's price is {value}")
            if pay.seat_entry is not None:
                bought = sum((r.total for r in pay.seat_entry.ledger.filter(kind=LedgerRow.BUY_IN)), ZERO)
                if pay.seat_entry.tournament_id != link.target_id or bought != value:
                    problems.append(f"{t.name}: seat entry #{pay.seat_entry.number} is in event {pay.seat_entry.tournament_id} for {bought}")
            elif pay.ticket is None or pay.ticket.value != value or pay.ticket.target_id != link.target_id:
                problems.append(f"{t.name}: a seat given as neither an entry in the target nor a ticket worth it ({pay.reference})")
    return problems


def day2_pool_is_the_flights_prize_parts(world: World) -> list[str]:
    """A multi-day event has one prize pool, on Day 2: it collects the prize parts every flight
    took (and Day 2's own sales), as the multi-day page counts them; a flight pays no place of
    its own; a cancelled flight's prize parts are owed back to its players, no part of the pool.
    Once Day 2 has its players, each carries the chips of one bag of his, no player twice, and
    every player who bagged (without surrendering) is there."""
    from tournaments.formats.models import MultiDayEvent, QualifiedEntry
    from tournaments.formats.selectors import event_data

    problems = []
    checked = {t.pk for t in world.to_check()}
    for event in MultiDayEvent.objects.filter(day2_id__in=world.events).order_by("pk"):
        flights = [f.tournament for f in event.flights.select_related("tournament")]
        if not checked & {event.day2_id, *(f.pk for f in flights)}:
            continue
        day2 = event.day2
        pooled = [f for f in flights if f.status != Tournament.CANCELLED]
        parts = sum((psel.money_in(part)["prize"] for part in [*pooled, day2]), ZERO)
        b = psel.pool_breakdown(day2)
        if b.collected != max(ZERO, parts):
            problems.append(f"{day2.name}: its pool collects {b.collected}, the flights' and its own prize parts are {parts}")
        page = Decimal(event_data(event)["money"]["prize"])
        if page != parts:
            problems.append(f"{event.name}: the multi-day page counts {page} of prize money, the ledgers {parts}")
        for f in flights:
            if psel.table_prizes(f) and psel.prize_pool(f):
                problems.append(f"{f.name}: a flight with a prize pool of its own ({psel.prize_pool(f)})")
        if not event.day2_built_at:
            continue
        carried = list(QualifiedEntry.objects.filter(entry__tournament=day2, source=QualifiedEntry.DAY1_BAG).select_related("bag", "entry"))
        people = Counter(q.entry.person_id for q in carried)
        twice = [p for p, n in people.items() if n > 1]
        if twice:
            problems.append(f"{day2.name}: players with two Day 2 stacks: {twice}")
        for q in carried:
            if q.bag is None or q.chips != q.bag.chips or q.bag.entry.person_id != q.entry.person_id:
                problems.append(f"{day2.name}: #{q.entry.number} carries {q.chips}, his bag holds {q.bag.chips if q.bag else None}")
        bagged = {b.entry.person_id for f in event.flights.all() for b in f.bags.filter(surrendered=False).select_related("entry")}
        missing = bagged - set(people)
        if missing:
            problems.append(f"{day2.name}: players who bagged in a flight are not on Day 2: {sorted(missing)}")
    return problems


def brackets_follow_their_matches(world: World) -> list[str]:
    """A heads-up bracket, as its page shows it: a player in a match still to play is in the
    tournament, in one match at most; the loser of a match played is out with the place of its
    round; a completed bracket's champion holds 1st place."""
    from tournaments.formats import engine as fengine
    from tournaments.formats.models import Bracket
    from tournaments.formats.selectors import bracket_data

    problems = []
    for bracket in Bracket.objects.filter(tournament__in=world.to_check(), drawn_at__isnull=False).select_related("tournament").order_by("pk"):
        t = bracket.tournament
        data = bracket_data(bracket)
        open_players = Counter()
        for rnd in data["rounds"]:
            for m in rnd["matches"]:
                players = [p for p in (m["a"], m["b"]) if p]
                if m["status"] != "DONE":
                    for p in players:
                        open_players[p["entry"]] += 1
                        if p["status"] != Entry.ACTIVE and t.status != Tournament.CANCELLED:
                            problems.append(f"{t.name}: #{p['number']} plays a match of round {rnd['round']} but is {p['status']}")
                elif m["result"] != "BYE" and len(players) == 2 and t.status != Tournament.CANCELLED:
                    # (a cancelled event's entries are all cancelled, its bracket void)
                    loser = next(p for p in players if p["entry"] != m["winner"])
                    place = fengine.loser_place(bracket.size, rnd["round"])
                    if loser["status"] != Entry.BUSTED or loser["place"] != place:
                        problems.append(
                            f"{t.name}: #{loser['number']} lost in round {rnd['round']}: {loser['status']} place {loser['place']}, not out in {place}"
                        )
        twice = [e for e, n in open_players.items() if n > 1]
        if twice:
            problems.append(f"{t.name}: entries in two matches at once: {twice}")
        if data["completed"] and data["champion"] is not None and data["champion"]["place"] != 1:
            problems.append(f"{t.name}: the champion #{data['champion']['number']} holds place {data['champion']['place']}")
    return problems


def series_standings_add_up(world: World) -> list[str]:
    """A series' leaderboard (its page) gives each player the points of his scored results of the
    cycle and of the league's results brought in from its sheet (a league counts his best
    ``best_of`` of both together), and counts the tournaments scored in it."""
    from tournaments.formats.models import Series, SeriesPastResult, SeriesResult
    from tournaments.formats.selectors import leaderboard_data

    problems = []
    for s in Series.objects.filter(pk__in=getattr(world, "series", [])).order_by("pk"):
        data = leaderboard_data(s)
        by_person: dict[int, list[float]] = {}
        for person, points in SeriesResult.objects.filter(series=s, cycle=s.current_cycle).values_list("person_id", "points"):
            by_person.setdefault(person, []).append(points)
        for person, points in SeriesPastResult.objects.filter(series=s, cycle=s.current_cycle).values_list("person_id", "points"):
            by_person.setdefault(person, []).append(float(points))  # played before this system, imported
        if {line["person"] for line in data["standings"]} != set(by_person):
            problems.append(f"{s.name}: the leaderboard lists {len(data['standings'])} players, {len(by_person)} scored")
        for line in data["standings"]:
            scores = sorted(by_person.get(line["person"], []), reverse=True)
            counted = scores[: s.best_of] if s.best_of else scores
            if abs(float(line["points"]) - sum(counted)) > 0.011 * max(1, len(counted)):
                problems.append(f"{s.name}: {line['name']} shows {line['points']} points, his results add up to {round(sum(counted), 2)}")
        played = s.links.filter(cycle=s.current_cycle, scored_at__isnull=False).count()
        if data["tournaments_played"] != played:
            problems.append(f"{s.name}: the leaderboard counts {data['tournaments_played']} tournaments, {played} were scored")
    return problems


def ended_logins_log_nobody_in(world: World) -> list[str]:
    """A device login revoked, or issued before its password changed, is refused by the API's
    authentication (``tdmanager.authentication``, what every API call asks)."""
    from rest_framework.exceptions import AuthenticationFailed

    from tdmanager.authentication import TokenWithRoles

    problems = []
    for key in world.ended_keys:
        try:
            user, _token = TokenWithRoles().authenticate_credentials(key)
        except AuthenticationFailed:
            continue
        problems.append(f"an ended device login of {user.username} (key {key[:8]}…) still logs in")
    return problems


def lockouts_lift_as_listed(world: World) -> list[str]:
    """Every login lock-out the director's list shows can be lifted as it is shown (an account's
    has no address: lifting it with the blank address the list shows was refused)."""
    from tdmanager.errors import DomainError
    from tournaments.staff.logins import lockout_named
    from tournaments.staff.selectors import login_lockouts

    problems = []
    for row in login_lockouts():
        try:
            lockout_named(row["kind"], row["username"], row["address"])
        except DomainError as exc:
            problems.append(f"the {row['kind']} lock-out of {row['username']!r} at {row['address']!r} cannot be lifted as listed: {exc.code}")
    return problems


def the_room_keeps_a_director(world: World) -> list[str]:
    """The staff page never leaves the room without an active director who can log in, and the
    day's director is still one (the last director is neither disabled nor demoted)."""
    director = type(world.director.user).objects.get(pk=world.director.user.pk)
    if not (director.is_active and director.groups.filter(name="director").exists()):
        return [f"the day's director {director.username} was disabled or demoted"]
    return []


def sheets_come_back_as_they_went(world: World) -> list[str]:
    """What the step brought in from a sheet (a structure, a payout chart), exported again as
    CSV and XLSX and read back, is unchanged row by row: the import stored what the file said,
    and its export says what is stored."""
    from tournaments.imports import rules as importing  # the frame registers its kinds once the apps are ready
    from tournaments.imports import services as import_services

    problems = []
    option = {"structure": "structure", "payouts": "template"}
    for kind, pk in world.imported:
        for fmt in ("csv", "xlsx"):
            data, filename = importing.export_file(kind, fmt, {option[kind]: str(pk)})
            p = import_services.preview(kind, data, filename, options={option[kind]: str(pk)})
            if p.counts()["unchanged"] != len(p.rows):
                problems.append(
                    f"{kind} {pk} exported as {fmt} reads back as {p.counts()}: {[(r.line, r.status, r.reason, r.changes) for r in p.rows if r.status != 'unchanged'][:3]}"
                )
    return problems


INVARIANTS = [
    sheets_come_back_as_they_went,
    ended_logins_log_nobody_in,
    lockouts_lift_as_listed,
    the_room_keeps_a_director,
    drawers_equal_their_rows,
    reconciliation_balances,
    bounty_money_is_accounted,
    pool_is_what_the_ledger_says,
    prizes_follow_the_places,
    seats_are_sound,
    room_tables_held_once,
    dealers_where_the_room_says,
    push_list_as_the_room_stands,
    waiting_starts_hold_nothing,
    screens_draw_their_layouts,
    screen_links_end_at_once,
    logins_speak_their_language,
    places_unique_and_contiguous,
    receipts_are_gapless,
    erased_people_are_gone,
    notices_only_for_the_subscribed_and_their_own_page,
    documents_found_whole_and_only_at_the_desk,
    names_read_as_stored,
    private_reasons_stay_private,
    deals_share_what_was_left,
    jackpot_fund_balances,
    side_pools_hold_what_they_owe,
    forfeited_prizes_are_never_paid,
    foreign_tender_at_the_day_rate,
    field_caps_hold,
    chips_in_play_never_negative,
    satellite_seats_and_remainder_make_its_pool,
    day2_pool_is_the_flights_prize_parts,
    brackets_follow_their_matches,
    series_standings_add_up,
]


#: the payouts selectors that the reports and several invariants ask of the same event in one
#: pass (a reconciliation alone reads the pool's sources five times): ``answers_once`` computes
#: each once per pass and its arguments
ASKED_ONCE = (
    "multiday_role",
    "pool_sources",
    "money_in",
    "pooled_money_in",
    "pool_breakdown",
    "is_cancelled",
    "table_state",
    "table_prizes",
    "active_payments",
    "place_groups",
    "places_pending",
    "released_places",
    "dues_and_forfeits",
    "bounty_money",
    "jackpot_money",
    "money_out",
)


def _key(value):
    """An argument as a memo key: a row by its table and primary key, a list of prize dicts by
    what it says."""
    if isinstance(value, Model):
        return (type(value).__name__, value.pk)
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


@contextlib.contextmanager
def answers_once():
    """While the invariants read a state that does not change, each of ``ASKED_ONCE`` answers
    once for its arguments; every caller gets its own copy of the answer (one that edits what it
    was given cannot change another's)."""
    memo: dict = {}

    def once(fn):
        @functools.wraps(fn)
        def asked_once(*args, **kwargs):
            key = (fn.__name__, tuple(map(_key, args)), tuple(sorted((k, _key(v)) for k, v in kwargs.items())))
            if key not in memo:
                memo[key] = fn(*args, **kwargs)
            return copy.deepcopy(memo[key])

        return asked_once

    with contextlib.ExitStack() as stack:
        for name in ASKED_ONCE:
            stack.enter_context(mock.patch.object(psel, name, once(getattr(psel, name))))
        yield


def check_all(world: World, invariants) -> list[str]:
    """Every invariant's problems. The product's answers are asked once a pass (the state does
    not change while the invariants read it), however many invariants compare them."""
    problems = []
    _asked.clear()
    world.checking = None
    with answers_once():
        for inv in invariants:
            try:
                problems += [f"{inv.__name__}: {p}" for p in inv(world)]
            except Exception as exc:  # an invariant that cannot read the state is a finding too
                problems.append(f"{inv.__name__} could not be read: {type(exc).__name__}: {exc}")
    return problems
