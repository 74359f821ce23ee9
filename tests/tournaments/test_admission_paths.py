"""Every path that creates an entry or sells chips applies the desk's rules (issue 29).

The paths: the desk's buy-in, pre-registration, a reservation paid, re-entry, rebuy, add-on, a
ticket redeemed (payouts), a satellite seat (payouts), a qualified entry (formats). Each is run
against each rule that applies to it — the tournament's status, REG-05's ban list, REG-04's
late-registration window, the field cap, the freezeout / most entries, duplicates — and must be
refused. A second test reads the services' source: a new function there that creates an entry or
sells chips without reaching ``cashier.check_admission`` fails until it is listed and checked.
"""

import ast
import importlib
import inspect
import pkgutil
from decimal import Decimal

import pytest

import payouts.services as payout_services
import payouts.services.satellites as payout_satellites
import payouts.services.tickets as payout_tickets
import tournaments.cashier.ledger as ledger
import tournaments.cashier.services as cashier
import tournaments.cashier.services.registration as registration
import tournaments.formats.services.common as format_common
import tournaments.formats.services.headsup as headsup
import tournaments.formats.services.multiday as multiday
import tournaments.formats.services.stackchoice as stackchoice
import tournaments.formats.services.timed as timed
from payouts.models import Ticket
from tdmanager.errors import DomainError
from tests import pyast
from tournaments.models import Entry, Tournament

from .helpers import break_after_level, item_index_of_level, run_clock_at

pytestmark = pytest.mark.django_db
D = Decimal


def busted(entry):
    entry.status = Entry.BUSTED
    entry.save(update_fields=["status"])
    return entry


# --- each path, as a service call for ``person`` in ``t`` -----------------------------------------


def buy_in(t, person, ctx):
    return cashier.register(t, person, method="CARD", actor=ctx["cashier"]).entry


def pre_registration(t, person, ctx):
    return cashier.pre_register(t, person, actor=ctx["cashier"])


def reservation(t, person, ctx):
    entry = ctx["reserved"]
    return cashier.pay_reservation(entry, method="CARD", actor=ctx["cashier"]).entry


def transfer_cleared(t, person, ctx):
    entry = ctx["reserved"]
    return registration.confirm_transfer(entry, reference="TRF-1", actor=ctx["cashier"]).entry


def re_entry(t, person, ctx):
    return cashier.reenter(t, person, method="CARD", actor=ctx["cashier"]).entry


def rebuy(t, person, ctx):
    return cashier.rebuy(ctx["entry"], method="CARD", actor=ctx["cashier"], stack=0).entry


def add_on(t, person, ctx):
    return cashier.addon(ctx["entry"], method="CARD", actor=ctx["cashier"]).entry


def ticket(t, person, ctx):
    voucher = Ticket.objects.create(holder=person, target=t, value=t.entry_price)
    return payout_services.redeem_ticket(voucher, actor=ctx["cashier"], id_checked=True)


def satellite_seat(t, person, ctx):
    """The one-seat satellite ``prepare`` made, won by ``person``: refused by the target's rules
    means no entry there (the winner gets the link's ticket instead)."""
    before = set(t.entries.values_list("pk", flat=True))
    (payment,) = payout_services.complete_satellite(ctx["satellite"], actor=ctx["director"])
    if payment.seat_entry_id is None:
        assert payment.ticket is not None and payment.ticket.holder == person
        assert set(t.entries.values_list("pk", flat=True)) == before
        raise DomainError("seat_refused", "the target refused the seat: a ticket instead")
    return payment.seat_entry


def qualified(t, person, ctx):
    return format_common.qualify(t, ctx["from_entry"], chips=50000, source="DAY1_BAG", actor=ctx["director"])


PATHS = {
    "desk buy-in": buy_in,
    "pre-registration": pre_registration,
    "reservation paid": reservation,
    "transfer cleared": transfer_cleared,
    "re-entry": re_entry,
    "rebuy": rebuy,
    "add-on": add_on,
    "ticket redeemed": ticket,
    "satellite seat": satellite_seat,
    "qualified entry": qualified,
}

# The rules each path must apply (a path that cannot meet a situation is left out of its row).
CHECKS = {
    "status": ["desk buy-in", "pre-registration", "reservation paid", "transfer cleared", "re-entry", "rebuy", "add-on", "ticket redeemed", "satellite seat"],
    "banned": list(PATHS),
    "late_registration": ["desk buy-in", "reservation paid", "transfer cleared", "re-entry", "rebuy", "ticket redeemed", "satellite seat"],
    "field_cap": ["desk buy-in", "pre-registration", "re-entry", "ticket redeemed", "satellite seat"],
    "freezeout": ["desk buy-in", "re-entry", "rebuy", "add-on", "ticket redeemed", "satellite seat"],
    "max_entries": ["re-entry", "ticket redeemed", "satellite seat"],
    "duplicate": ["desk buy-in", "pre-registration", "ticket redeemed", "satellite seat", "qualified entry"],
}


@pytest.fixture
def ctx(make_tournament, make_person, cashier_actor, actor):
    return {"make_tournament": make_tournament, "make_person": make_person, "cashier": cashier_actor, "director": actor}


def prepare(path, t, person, ctx):
    """What the path needs before it can be asked: a booking to pay, an entry to rebuy or add on."""
    if path in ("reservation paid", "transfer cleared"):
        status = t.status
        Tournament.objects.filter(pk=t.pk).update(status=Tournament.REGISTERING)
        t.refresh_from_db()
        ctx["reserved"] = cashier.pre_register(t, person, actor=ctx["cashier"], channel="transfer" if path == "transfer cleared" else "desk")
        Tournament.objects.filter(pk=t.pk).update(status=status)
        t.refresh_from_db()
    if path in ("rebuy", "add-on"):
        status = t.status
        Tournament.objects.filter(pk=t.pk).update(status=Tournament.REGISTERING)
        t.refresh_from_db()
        ctx["entry"] = cashier.register(t, person, method="CARD", actor=ctx["cashier"]).entry
        Tournament.objects.filter(pk=t.pk).update(status=status)
        t.refresh_from_db()
    if path == "rebuy":
        busted(ctx["entry"])
    if path == "satellite seat":  # a one-seat satellite for ``t``, ``person`` the last one left
        sat = ctx["make_tournament"](name="Satellite", buy_in=D("10"), fee=D("0"), format=Tournament.SATELLITE)
        payout_services.link_satellite(sat, t, actor=ctx["director"])
        cashier.register(sat, person, method="CASH", actor=ctx["cashier"])
        for _ in range(int(t.entry_price // 10)):
            busted(cashier.register(sat, ctx["make_person"](), method="CASH", actor=ctx["cashier"]).entry)
        Tournament.objects.filter(pk=sat.pk).update(status=Tournament.RUNNING)
        ctx["satellite"] = sat
    if path == "qualified entry":
        day1 = ctx["make_tournament"](name="Day 1A")
        ctx["from_entry"] = Entry.objects.create(tournament=day1, person=person, number=1, status=Entry.ACTIVE)


def rebuy_and_addon(**kw):
    return dict(
        format=Tournament.REBUY, rebuy_price=D("100"), rebuy_chips=30000, rebuy_until_level=3, addon_price=D("20"), addon_chips=20000, addon_after_level=4, **kw
    )


def situation(check, path, make_tournament, make_person):
    """A tournament and a person for which ``path`` must be refused by ``check``."""
    person = make_person()
    if check == "status":
        return make_tournament(**rebuy_and_addon()), person, Tournament.FINISHED
    if check == "banned":
        t = make_tournament(**rebuy_and_addon(max_entries_per_player=3))
        if path == "re-entry":
            busted(Entry.objects.create(tournament=t, person=person, number=1, status=Entry.BUSTED))
        return t, person, "banned"
    if check == "late_registration":
        t = make_tournament(late_reg_closes_after_level=3, **rebuy_and_addon(max_entries_per_player=3))
        if path == "re-entry":
            Entry.objects.create(tournament=t, person=person, number=1, status=Entry.BUSTED)
        return t, person, "level5"
    if check == "field_cap":
        t = make_tournament(field_cap=1, max_entries_per_player=3)
        Entry.objects.create(tournament=t, person=make_person(), number=1, status=Entry.ACTIVE)
        if path == "re-entry":
            Entry.objects.create(tournament=t, person=person, number=2, status=Entry.BUSTED)
            Tournament.objects.filter(pk=t.pk).update(field_cap=2)
        return t, person, None
    if check == "freezeout":
        t = make_tournament(format=Tournament.FREEZEOUT, max_entries_per_player=1)
        if path not in ("rebuy", "add-on"):
            Entry.objects.create(tournament=t, person=person, number=1, status=Entry.BUSTED)
        return t, person, None
    if check == "max_entries":
        t = make_tournament(format=Tournament.REENTRY, max_entries_per_player=2)
        Entry.objects.create(tournament=t, person=person, number=1, status=Entry.BUSTED)
        Entry.objects.create(tournament=t, person=person, number=2, status=Entry.BUSTED)
        return t, person, None
    if check == "duplicate":
        t = make_tournament()
        Entry.objects.create(tournament=t, person=person, number=1, status=Entry.ACTIVE)
        return t, person, None
    raise AssertionError(check)


REFUSALS = {
    "status": {"tournament_closed", "pre_registration_closed", "target_closed"},
    "banned": {"banned", "seat_refused"},
    "late_registration": {"late_registration_closed", "rebuy_period_over", "seat_refused"},
    "field_cap": {"field_full", "seat_refused"},
    "freezeout": {"use_reentry", "reentry_not_allowed", "rebuy_not_allowed", "addon_not_allowed", "seat_refused"},
    "max_entries": {"max_entries_reached", "seat_refused"},
    "duplicate": {"already_registered", "seat_refused"},
}
CASES = [(check, path) for check, paths in CHECKS.items() for path in paths]


@pytest.mark.parametrize(("check", "path"), CASES, ids=[f"{p}:{c}" for c, p in CASES])
def test_every_path_applies_the_desks_rule(check, path, ctx, make_tournament, make_person):
    t, person, twist = situation(check, path, make_tournament, make_person)
    prepare(path, t, person, ctx)
    if twist == "banned":
        person.banned, person.banned_reason = True, "Excluded by the casino"
        person.save(update_fields=["banned", "banned_reason"])
        if path == "add-on":  # the add-on's break: nothing but the ban stands in the way
            Tournament.objects.filter(pk=t.pk).update(status=Tournament.RUNNING)
            run_clock_at(t, break_after_level(t, 4))
    elif twist == "level5":  # REG-04: late registration closed after level 3, the clock at level 5
        Tournament.objects.filter(pk=t.pk).update(status=Tournament.RUNNING)
        run_clock_at(t, item_index_of_level(t, 5))
    elif twist == Tournament.FINISHED:
        Tournament.objects.filter(pk=t.pk).update(status=Tournament.FINISHED)
    t.refresh_from_db()
    playing = t.entries.filter(status=Entry.ACTIVE).count()
    chips = sum(t.entries.values_list("chips", flat=True))
    with pytest.raises(DomainError) as refused:
        PATHS[path](t, person, ctx)
    assert refused.value.code in REFUSALS[check]
    # Nothing got through: no new player in the field, no chips sold.
    assert t.entries.filter(status=Entry.ACTIVE).count() == playing
    assert sum(t.entries.values_list("chips", flat=True)) == chips


# --- no new path can forget: the services' source -------------------------------------------------

# payouts.services is a package: the modules whose services create entries (satellite seats, tickets).
PAYOUT_MODULES = (payout_satellites, payout_tickets)
# The cashier desk is a package too: every module of it, so a new one is read as well.
CASHIER_MODULES = tuple(importlib.import_module(f"{cashier.__name__}.{m.name}") for m in pkgutil.iter_modules(cashier.__path__))
MODULES = (*CASHIER_MODULES, registration, ledger, *PAYOUT_MODULES, format_common, headsup, multiday, stackchoice, timed)
# Writing an entry or a sale row: the ledger's building blocks and the ORM.
PRIMITIVES = {"new_entry", "sell_new_entry", "issue_paid_entry", "create"}
SALE_KINDS = {"BUY_IN", "RE_ENTRY", "REBUY", "ADD_ON"}
# The building blocks themselves (their callers are checked) — nothing else may skip the gate.
BUILDING_BLOCKS = {"ledger.new_entry", "ledger._entry", "ledger.sell_new_entry", "ledger.issue_paid_entry", "ledger._written_together"}
# The public services on each path (the test above runs every one of them).
LISTED = {
    "cashier.register",
    "cashier.pre_register",
    "cashier.pay_reservation",
    "cashier.reenter",
    "cashier.rebuy",
    "cashier.addon",
    "registration.confirm_transfer",
    "payout_services.redeem_ticket",
    "payout_services.complete_satellite",
    "format_common.qualify",
}


def _functions():
    found = {}
    for module in MODULES:
        short = {
            **dict.fromkeys(CASHIER_MODULES, "cashier"),
            registration: "registration",
            ledger: "ledger",
            payout_satellites: "payout_services",
            payout_tickets: "payout_services",
            format_common: "format_common",
        }.get(module, module.__name__.rsplit(".", 1)[-1])
        tree = pyast.parse(inspect.getsource(module))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                found[f"{short}.{node.name}"] = node
    return found


def _calls(node):
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            f = sub.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if name == "create" and not (isinstance(f.value, ast.Attribute) and f.value.attr == "objects" and getattr(f.value.value, "id", "") == "Entry"):
                continue  # only Entry.objects.create writes an entry
            if name == "write_row":
                kind = next((k.value for k in sub.keywords if k.arg == "kind"), None)
                if not (isinstance(kind, ast.Attribute) and kind.attr in SALE_KINDS):
                    continue
                name = "create"  # a sale row: a primitive
            yield name


def test_no_service_creates_an_entry_or_sells_chips_around_the_gate():
    functions = _functions()
    by_name = {}
    for key in functions:
        by_name.setdefault(key.split(".", 1)[1], []).append(key)

    def makes_entries(key, seen=()):
        if key in seen:
            return False
        for name in _calls(functions[key]):
            if name in PRIMITIVES or any(makes_entries(k, (*seen, key)) for k in by_name.get(name, [])):
                return True
        return False

    def gated(key, seen=()):
        """It asks ``check_admission``, or every entry-making service it calls does."""
        if key in seen:
            return True
        names = set(_calls(functions[key]))
        if "check_admission" in names:
            return True
        if names & PRIMITIVES:
            return False
        return all(gated(k, (*seen, key)) for n in names for k in by_name.get(n, []) if makes_entries(k))

    def private(key):
        return key.split(".", 1)[1].startswith("_")

    def direct(key, seen=()):
        """It writes an entry or a sale itself, or through a private helper (not through another service)."""
        if key in seen:
            return False
        for name in _calls(functions[key]):
            if name in PRIMITIVES or any(private(k) and direct(k, (*seen, key)) for k in by_name.get(name, [])):
                return True
        return False

    makers = {k for k in functions if makes_entries(k) and not private(k)} - BUILDING_BLOCKS
    paths = {k for k in makers if direct(k)}
    assert paths == LISTED, "a new path creates an entry or sells chips: list it here and in PATHS, and make it ask check_admission"
    assert [k for k in sorted(makers) if not gated(k)] == []  # and every service reaching one goes through the gate


def test_the_issues_repro_a_ticket_at_level_5_after_late_registration_closed_at_3_is_refused_by_the_api(make_tournament, make_person, cashier_user):
    from tests.conftest import client_for

    t = make_tournament(late_reg_closes_after_level=3, status=Tournament.RUNNING)
    run_clock_at(t, item_index_of_level(t, 5))
    holder = make_person()
    voucher = Ticket.objects.create(holder=holder, target=t, value=t.entry_price)
    r = client_for(cashier_user).post(f"/api/v1/payouts/tickets/{voucher.pk}/redeem/", {"id_checked": True}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "late_registration_closed"
    assert not t.entries.filter(person=holder).exists()
    voucher.refresh_from_db()
    assert voucher.status == Ticket.ISSUED  # still the holder's, for another day
