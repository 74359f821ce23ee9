"""The simulator's money actions: deals of every kind in bounty and mystery events, foreign tender,
cheques and transfers, tickets, the progressive jackpot, side pools and the Last Longer, penalties
of every kind, chip races and colour-ups, alternates and field caps, hand-for-hand busts, moves
by hand and undone, the mystery envelopes.

Each action reads the product's state, does what a director, a cashier or the floor would do
(now and then what the rules forbid, which the product must refuse with a code) and calls the
real services; they register in the core's ``ACTIONS`` (``catalogue.py`` imports this module).
"""

from __future__ import annotations

import contextlib
from decimal import Decimal

from django.utils import timezone

from payouts import selectors as psel
from payouts import services as payouts
from payouts.models import BountyAward, Deal, JackpotClaim, PayoutTable, SidePool, Ticket
from seating import services as seating
from seating.models import Bust, PendingMove, Table
from tournaments.cashier import services as cashier
from tournaments.cashier.services import rates, registration
from tournaments.clock import rules as clock_rules
from tournaments.clock import selectors as clock_selectors
from tournaments.clock import services as clock_services
from tournaments.floor import penalties
from tournaments.floor import services as floor
from tournaments.house import HouseRules
from tournaments.models import Alternate, Clock, Entry, LedgerRow, Penalty, Tournament
from tournaments.setup import lifecycle
from tournaments.setup import services as setup
from tournaments.structures.services import ensure_builtin_structures

from .actions import _bounty_kind, _eliminators, _event, _hand_for_hand, _method, _mostly, _players_in, _selling, _stacks_in_play, action, pick
from .world import Skip, World

OPEN = (Tournament.PLANNED, Tournament.REGISTERING, Tournament.RUNNING)


def _turbo():
    return next(s for s in ensure_builtin_structures() if s.name.startswith("Turbo"))


def _event_where(world: World, rng, test, *statuses) -> Tournament:
    """An event of the day in one of ``statuses`` that passes ``test`` (marked touched)."""
    t = pick(rng, [t for t in world.tournaments(*statuses) if test(t)], "event for this")
    world.touched.add(t.pk)
    return t


def _tables(world: World, t: Tournament) -> bool:
    """Two tables or more in play (not a bracket's matches, played one table each)."""
    return t.format != Tournament.HEADS_UP and len(world.seats(t)) >= 2


def _rules(t: Tournament) -> HouseRules:
    return HouseRules.of(t)


def _reference(rng, prefix: str) -> str:
    return f"{prefix}-{rng.randrange(10**5, 10**6)}"


# --- the director puts on a money event --------------------------------------------------------


@action(weight=2)
def create_money_event(world: World, rng) -> str:
    """A turbo whose late registration closes early (the payout table locks itself then): a bounty
    kind, how bounties go in a deal, the mystery envelopes' fate, the jackpot, a field cap, what
    happens to a prize forfeited (PEN-07)."""
    if len(world.tournaments(*OPEN)) >= 4:
        raise Skip("four events are open")
    bounty = rng.choice(["NONE", "FIXED", "PKO", "MYSTERY", "MYSTERY"])
    settings = {"forfeited_prize": rng.choice(["HOLD", "REDISTRIBUTE", "NEXT_PLACE"])}
    if bounty != "NONE":
        settings.update(bounty=bounty, bounty_amount=str(rng.choice([10, 20, 25])), bounty_in_deal=rng.choice(["APART", "ADDED"]))
        if bounty == "PKO" and rng.random() < 0.3:
            settings["bounty_split"] = "POT"
        if bounty == "MYSTERY":
            settings.update(mystery_from=rng.choice(["START", "START", "ITM"]), mystery_leftover=rng.choice(["WINNER", "CARRY_OVER"]))
    if rng.random() < 0.5:
        settings["jackpot"] = True
    fmt = rng.choice([Tournament.FREEZEOUT, Tournament.REENTRY])
    closes = rng.choice([1, 2])
    values = dict(
        name=f"Sim Money {len(world.events) + 1}",
        start_at=timezone.now(),
        buy_in=Decimal(rng.choice([30, 50, 100])),
        starting_stack=20000,
        table_size=rng.choice([6, 6, 9]),
        structure=_turbo(),
        min_players=2,
        format=fmt,
        late_reg_closes_after_level=closes,
        guarantee=Decimal(rng.choice([300, 500])) if rng.random() < 0.3 else None,
        field_cap=rng.choice([5, 6, 8]) if rng.random() < 0.5 else None,
        settings=settings,
    )
    if fmt == Tournament.REENTRY:
        values.update(max_entries_per_player=2, reentry_until_level=closes)
    t = setup.create_tournament(values, actor=world.director, override_reason="simulated schedule")
    world.touched.add(t.pk)
    lifecycle.open_registration(t, actor=world.director)
    world.events.append(t.pk)
    # The regulars waiting at the desk buy in at once (a small single-table event fills quickly).
    sold = 0
    big = values["field_cap"] is None and rng.random() < 0.4  # a field of two or three tables
    for _ in range(rng.randint(10, 18) if big else min(rng.randint(2, 6), values["field_cap"] or 6)):
        cashier.register(t, world.person(rng), method=_method(rng), actor=world.cashier(rng), jackpot=bool(settings.get("jackpot")) and rng.random() < 0.8)
        sold += 1
    return f"created {t.name} (#{t.pk}): {settings}, cap {values['field_cap']}, {sold} sold"


@action(weight=2)
def start_money_event(world: World, rng) -> str:
    """The director starts an event with a few players (a mystery event's envelopes set up
    first, as he does before the start), the clock running."""
    t = _event_where(world, rng, _players_in, Tournament.REGISTERING)
    _bag_ready(world, t, rng)
    lifecycle.start(t, actor=world.director, override_minimum=True, prestart_report_sent=True, start_clock=True)
    return f"started {t.name} with {t.entries.filter(status=Entry.ACTIVE).count()} players"


# --- mystery envelopes ---------------------------------------------------------------------------


def _envelopes(rng, total: Decimal) -> list[Decimal]:
    """``total`` in a few envelopes of whole euros (the odd cents in the first), each above zero."""
    euros = int(total)
    cents = total - euros
    k = max(1, min(euros, rng.randint(1, 8)))
    cuts = sorted(rng.sample(range(1, euros), k - 1)) if k > 1 else []
    parts = [Decimal(b - a) for a, b in zip([0, *cuts], [*cuts, euros])]
    parts[0] += cents
    rng.shuffle(parts)
    return parts


@action(weight=4)
def set_envelopes(world: World, rng) -> str:
    """The director sets up a mystery event's envelopes (before its start, or adds new ones after
    the late sales) so that they hold the bounty money taken in."""
    t = _event_where(world, rng, lambda t: _bounty_kind(t) == "MYSTERY", Tournament.REGISTERING, Tournament.RUNNING)
    return _fill_the_bag(world, t, rng)


def _fill_the_bag(world: World, t: Tournament, rng) -> str:
    """A mystery event's bag made to hold the bounty money taken in: the envelopes drawn kept, new
    ones for the rest (Skip when it holds it already)."""
    taken = psel.bounty_taken_in(t)
    old = _rules(t).envelopes
    if old and sum(old) == taken:
        raise Skip("the bag holds what was taken in")
    drawn = BountyAward.objects.filter(tournament=t, void="", envelope__isnull=False).exists()
    keep = list(old) if drawn else []
    more = taken - sum(keep, Decimal(0))
    if more <= 0:
        raise Skip("nothing to put in the bag")
    new = _envelopes(rng, more)
    payouts.set_envelopes(t, [str(a) for a in keep + new], actor=world.director)
    return f"{t.name}: {len(keep)} envelopes kept, {len(new)} set for {more}"


def _bag_ready(world: World, t: Tournament, rng) -> None:
    """Before a mystery event starts, and before the floor's busts in it, the director fills its bag
    as he does before its bounties are paid from it; now and then he forgets (a bust is then
    refused, no_envelopes)."""
    if _bounty_kind(t) == "MYSTERY" and rng.random() < 0.9:
        with contextlib.suppress(Skip):
            _fill_the_bag(world, t, rng)


# --- deals at the final table --------------------------------------------------------------------


def _at_final_table(t: Tournament, world: World) -> bool:
    live = Entry.objects.filter(tournament=t, status=Entry.ACTIVE).count()
    return 2 <= live <= _rules(t).final_table_size and len(world.seats(t)) == 1


def _deal_event(world: World, rng) -> tuple[Tournament, list[Entry]]:
    """A running event at its final table with its payout table published (now and then one that
    is not there yet: the product refuses the deal). An open proposal the table moved on from is
    cancelled first."""
    if rng.random() < 0.1:
        t = _event(world, rng, Tournament.RUNNING)
    else:
        t = _event_where(world, rng, lambda t: _at_final_table(t, world), Tournament.RUNNING)
    if psel.table_state(t) != PayoutTable.LOCKED:
        if clock_selectors.late_registration_open(t):
            raise Skip("registration open: the payout table is not published yet")
        payouts.lock_payout_table(t, actor=world.director)
    for stale in Deal.objects.filter(tournament=t, status=Deal.PROPOSED):
        payouts.cancel_deal(stale, actor=world.director, reason="the table played on")
    live = world.entries(t, Entry.ACTIVE)
    if len(live) < 2:
        raise Skip("no deal with one player")
    return t, live


def _stacks(rng, live: list[Entry]) -> dict[str, int]:
    """The stacks the floor counts at the table: the chips in play, all of them (a deal shares by
    them, PAY-09); now and then one miscounted, which the calculator refuses by how much."""
    return _stacks_in_play(rng, live, miscount=0.05)


def _reserve(rng, left: list[Decimal]) -> Decimal:
    total = sum(left, Decimal(0))
    if rng.random() < 0.7 or total < 50:
        return Decimal(0)
    return Decimal(int(total * Decimal("0.1")) // 5 * 5)


def _agree(world: World, rng, t: Tournament, live: list[Entry], proposed: Deal, what: str) -> str:
    """Each player says yes (now and then one says no and the director drops it, or a player
    busts before the approval and the product refuses the deal as proposed)."""
    if rng.random() < 0.1:
        payouts.cancel_deal(proposed, actor=world.director, reason="one player said no")
        return f"{what} proposed in {t.name}, one said no"
    for e in live:
        payouts.accept_deal(proposed, e, actor=world.director)
    if rng.random() < 0.1 and len(live) > 2:
        table, row = next(iter(world.seats(t).items()))
        out = rng.choice(list(row.values()))
        item = {"entry": out}
        if _bounty_kind(t) != "NONE":
            item["eliminators"] = _eliminators(t, rng, list(row.values()), out)
        seating.record_bust(t, [item], actor=world.floor, table=table)
    payouts.approve_deal(proposed, actor=world.director)
    bounty = f", bounties {proposed.bounty_in_deal} {proposed.bounty_total}" if proposed.bounty_in_deal else ""
    return f"{what} approved in {t.name} for {len(live)} players: {proposed.by_place}{bounty}"


@action(weight=3)
def deal_chop(world: World, rng) -> str:
    """A chip chop, an ICM deal or an even chop (sometimes with a reserve played for), read on
    the calculator first, proposed, agreed by each player and approved by the director."""
    t, live = _deal_event(world, rng)
    stacks = _stacks(rng, live)
    options = payouts.deal_options(t, stacks)
    reserve = _reserve(rng, [Decimal(a) for a in options["prizes_left"]])
    method = rng.choice([Deal.ICM, Deal.ICM, Deal.CHIP_CHOP, Deal.CHIP_CHOP, Deal.EVEN])
    proposed = payouts.propose_deal(t, stacks, method=method, actor=world.director, reserve=reserve)
    return _agree(world, rng, t, live, proposed, f"{method} deal (reserve {reserve})")


def _ladder(rng, total: Decimal, n: int) -> list[Decimal]:
    """A strictly decreasing ladder of ``n`` amounts adding up to ``total`` (whole euros but the
    odd cents, which go to 1st), as players write one by hand."""
    weights = sorted((rng.uniform(1, 10) for _ in range(n)), reverse=True)
    weights = [w + (n - i) for i, w in enumerate(weights)]  # clearly apart
    whole = sum(weights)
    amounts = [Decimal(int(total * Decimal(w) / Decimal(whole))) for w in weights]
    amounts[0] += total - sum(amounts, Decimal(0))
    return amounts


@action(weight=2)
def deal_by_place(world: World, rng) -> str:
    """A deal written per finishing place (PAY-09): new amounts for places 1..n, strictly
    decreasing, adding up to the prizes left; now and then a cent off (refused)."""
    t, live = _deal_event(world, rng)
    stacks = _stacks(rng, live)
    left = [Decimal(a) for a in payouts.deal_options(t, stacks)["prizes_left"]]
    places = _ladder(rng, sum(left, Decimal(0)), len(live))
    if rng.random() < 0.08:
        places[0] += Decimal("1")  # the players' sum is wrong: the product says by how much
    proposed = payouts.propose_deal(t, stacks, method=Deal.CUSTOM, actor=world.director, by_place=[str(a) for a in places])
    return _agree(world, rng, t, live, proposed, "deal by place")


@action(weight=2)
def deal_custom(world: World, rng) -> str:
    """A deal the players wrote themselves, one amount per player (by entry number), sometimes
    with a reserve left to play for."""
    t, live = _deal_event(world, rng)
    stacks = _stacks(rng, live)
    left = [Decimal(a) for a in payouts.deal_options(t, stacks)["prizes_left"]]
    reserve = _reserve(rng, left)
    amounts = _ladder(rng, sum(left, Decimal(0)) - reserve, len(live))
    rng.shuffle(amounts)
    proposed = payouts.propose_deal(t, stacks, method=Deal.CUSTOM, actor=world.director, amounts=[str(a) for a in amounts], reserve=reserve)
    return _agree(world, rng, t, live, proposed, f"custom deal (reserve {reserve})")


# --- foreign tender, cheques and transfers -------------------------------------------------------

RATES = {"USD": (8500, 9600), "CHF": (10000, 11000)}


@action(weight=1)
def set_exchange_rate(world: World, rng) -> str:
    """The cashiers' supervisor sets the day's rate for USD or CHF (a new one replaces it)."""
    currency = rng.choice(sorted(RATES))
    low, high = RATES[currency]
    rate = Decimal(rng.randrange(low, high)) / 10000
    cashier.set_exchange_rate(currency, rate, actor=world.director)
    return f"{currency} at {rate} today"


@action(weight=3)
def sell_foreign(world: World, rng) -> str:
    """A player pays in dollars or francs at the day's rate: a first entry, a rebuy or an add-on
    (foreign notes are cash: a card in USD is refused)."""
    if rng.random() < 0.85:
        t = _event_where(world, rng, _selling, Tournament.REGISTERING, Tournament.RUNNING)
    else:
        t = _event(world, rng, Tournament.REGISTERING, Tournament.RUNNING)
    currency = rng.choice(sorted(RATES))
    if cashier.day_rate(currency, t.currency, timezone.localdate()) is None and rng.random() < 0.9:
        # the first dollars of the day at the desk: the supervisor sets the day's rate (now and
        # then he is not there yet: refused, no rate)
        low, high = RATES[currency]
        cashier.set_exchange_rate(currency, Decimal(rng.randrange(low, high)) / 10000, actor=world.director)
    method = LedgerRow.CASH if rng.random() < 0.95 else LedgerRow.CARD
    desk = world.cashier(rng)
    live = world.entries(t, Entry.ACTIVE)
    if t.format == Tournament.REBUY and live and t.status == Tournament.RUNNING and rng.random() < 0.5:
        entry = rng.choice(live)
        if rng.random() < 0.5:
            sale = cashier.rebuy(entry, method=method, actor=desk, stack=0, tender_currency=currency)
        else:
            sale = cashier.addon(entry, method=method, actor=desk, tender_currency=currency)
    else:
        sale = cashier.register(t, world.person(rng), method=method, actor=desk, tender_currency=currency)
    return f"{sale.row.kind} #{sale.entry.number} of {t.name}: {sale.row.tender_amount} {currency} for {sale.row.total}"


@action(weight=2)
def pay_in_foreign_tender(world: World, rng) -> str:
    """A player pays his reservation in dollars or francs: the desk first tells him what he owes
    at the day's rate (``tender_for``: the tender the sale then takes, whatever the case the
    currency is typed in; none for the event's own currency). A card in a foreign currency, or a
    currency the desk does not take, is refused before anything is sold."""
    t = _event(world, rng, Tournament.REGISTERING)
    currency = rng.choice(sorted(RATES)) if rng.random() < 0.95 else "GBP"
    if currency in RATES and cashier.day_rate(currency, t.currency, timezone.localdate()) is None and rng.random() < 0.9:
        low, high = RATES[currency]
        cashier.set_exchange_rate(currency, Decimal(rng.randrange(low, high)) / 10000, actor=world.director)
    method = LedgerRow.CASH if rng.random() < 0.9 else LedgerRow.CARD
    if rates.tender_for(t, t.currency.lower(), method) is not None:
        raise AssertionError(f"the desk asks for a foreign tender in {t.currency}, the event's own currency")
    quote = rates.tender_for(t, currency.lower() if rng.random() < 0.3 else currency, method)  # refused: nothing sold
    desk = world.cashier(rng)
    entry = cashier.pre_register(t, world.person(rng), actor=desk)
    sale = cashier.pay_reservation(entry, method=method, actor=desk, tender_currency=currency)
    row = sale.row
    if (row.tender_currency, row.exchange_rate, row.tender_amount) != (quote.currency, quote.rate, quote.due(row.total)):
        raise AssertionError(
            f"quoted {quote.due(row.total)} {quote.currency} at {quote.rate}, sold for {row.tender_amount} {row.tender_currency} at {row.exchange_rate}"
        )
    return f"reservation #{entry.number} of {t.name} paid {row.tender_amount} {currency} for {row.total} (quoted at {quote.rate})"


@action(weight=2)
def book_by_transfer(world: World, rng) -> str:
    """A player books by bank transfer; the cashier confirms its funds cleared with the transfer's
    reference (now, or later for a booking that is waiting)."""
    t = _event(world, rng, Tournament.REGISTERING, Tournament.RUNNING)
    desk = world.cashier(rng)
    waiting = [e for e in world.entries(t, Entry.RESERVED) if e.awaits_transfer]
    if waiting and rng.random() < 0.6:
        entry = rng.choice(waiting)
    else:
        entry = cashier.pre_register(t, world.person(rng), actor=desk, channel=Entry.TRANSFER_CHANNEL)
        if rng.random() < 0.4:
            return f"booked #{entry.number} of {t.name} by transfer, funds not cleared yet"
    reference = _reference(rng, "TRF") if rng.random() < 0.95 else ""
    sale = registration.confirm_transfer(entry, reference=reference, actor=desk)
    return f"transfer {reference} cleared for #{sale.entry.number} of {t.name} (receipt {sale.row.receipt_number})"


def _payable(t: Tournament, source_prefix: str) -> list[dict]:
    return [
        d
        for d in psel.dues(t)
        if d["source"].startswith(source_prefix) and d["kind"] == "CASH" and not d["paid"] and not d["forfeited"] and not d["held"] and d["released"]
    ]


@action(weight=3)
def pay_by_cheque(world: World, rng) -> str:
    """The desk pays a prize or the bounties won by cheque or bank transfer, with its number or
    reference, made out to the winner (now and then the reference is missing or the payee wrong:
    refused)."""
    # mostly where something is owed (elsewhere: nothing to pay, skipped)
    t = _mostly(world, rng, lambda t: bool(psel.bounties_owed(t) or _payable(t, "MAIN:")), Tournament.RUNNING, Tournament.FINISHED, stray=0.1)
    method = rng.choice([LedgerRow.CHEQUE, LedgerRow.TRANSFER])
    reference = _reference(rng, "CHQ" if method == LedgerRow.CHEQUE else "TRF") if rng.random() < 0.95 else ""
    owed = psel.bounties_owed(t)
    dues = _payable(t, "MAIN:")
    if owed and (not dues or rng.random() < 0.4):
        line = rng.choice(owed)
        payouts.pay_bounties(line["entry"], method=method, actor=world.cashier(rng), reference=reference)
        return f"paid {line['amount']} in bounties to #{line['entry_number']} of {t.name} by {method} {reference}"
    due = pick(rng, dues, "prize due")
    payee = "" if rng.random() < 0.95 else "Someone Else"
    payouts.pay_prize(due["entry"], method=method, actor=world.cashier(rng), source=due["source"], reference=reference, payee=payee)
    return f"paid {due['amount']} to #{due['entry'].number} of {t.name} by {method} {reference}"


# --- tickets -------------------------------------------------------------------------------------


@action(weight=2)
def issue_ticket(world: World, rng) -> str:
    """The director gives a ticket (a leaderboard prize) for one event, for a set of events or
    for any event, worth its buy-in and fee."""
    t = _event_where(world, rng, _selling, Tournament.REGISTERING, Tournament.RUNNING)
    holder = world.person(rng)
    value = t.buy_in + t.fee + _rules(t).bounty_part
    roll = rng.random()
    if roll < 0.7:
        ticket = payouts.issue_ticket(holder, value=value, actor=world.director, target=t, description="leaderboard ticket")
    elif roll < 0.85:
        others = world.tournaments(Tournament.REGISTERING, Tournament.RUNNING)
        ticket = payouts.issue_ticket(holder, value=value, actor=world.director, valid_events=others, description="series ticket")
    else:
        ticket = payouts.issue_ticket(holder, value=value, actor=world.director, description="open ticket")
    return f"ticket {ticket.pk} of {value} for {holder.full_name}"


@action(weight=2)
def redeem_ticket(world: World, rng) -> str:
    """The desk turns a ticket issued today into an entry for its holder (his document checked,
    now and then forgotten: refused)."""
    tickets = list(Ticket.objects.filter(status=Ticket.ISSUED, created_at__gte=world.day_start).select_related("target").order_by("pk"))
    usable = [k for k in tickets if k.target is None or _selling(k.target)]
    # the holder comes while his event still sells (now and then too late: refused)
    ticket = pick(rng, usable if usable and rng.random() < 0.9 else tickets, "ticket")
    choices = [t.pk for t in world.tournaments(Tournament.REGISTERING, Tournament.RUNNING) if _selling(t)]
    series = list(ticket.valid_events.values_list("pk", flat=True))
    if ticket.target_id:
        chosen = ticket.target_id
    else:
        chosen = pick(rng, series or choices, "event for the ticket")
    if chosen in world.events:
        world.touched.add(chosen)
    entry = payouts.redeem_ticket(ticket, actor=world.cashier(rng), tournament=chosen, id_checked=rng.random() < 0.95)
    return f"ticket {ticket.pk} redeemed: #{entry.number} of {entry.tournament.name}"


# --- the progressive jackpot ---------------------------------------------------------------------


def _jackpot_event(t: Tournament) -> bool:
    return _rules(t).jackpot


@action(weight=0.5)
def set_jackpot_base(world: World, rng) -> str:
    """The director sets the amount the jackpot fund starts (and restarts) from."""
    base = Decimal(rng.choice([0, 500, 1000, 2000]))
    payouts.set_jackpot_base(base, actor=world.director)
    return f"jackpot base {base}"


@action(weight=3)
def sell_with_jackpot(world: World, rng) -> str:
    """The desk sells an entry with the jackpot fee (a re-entry too, when the house sells it
    again); now and then in an event that does not take part (refused)."""
    if rng.random() < 0.1:
        t = _event(world, rng, Tournament.REGISTERING, Tournament.RUNNING)
    else:
        t = _event_where(world, rng, lambda t: _jackpot_event(t) and _selling(t), Tournament.REGISTERING, Tournament.RUNNING)
    desk = world.cashier(rng)
    busted = world.entries(t, Entry.BUSTED)
    if busted and t.format == Tournament.REENTRY and rng.random() < 0.3:
        sale = cashier.reenter(t, rng.choice(busted).person, method=_method(rng), actor=desk, jackpot=True)
    else:
        sale = cashier.register(t, world.person(rng), method=_method(rng), actor=desk, jackpot=True)
    return f"sold #{sale.entry.number} of {t.name} with the jackpot fee ({sale.row.jackpot_amount})"


@action(weight=3)
def royal_flush(world: World, rng) -> str:
    """The floor verifies a royal flush (one, now and then two in the same hand) and claims the
    jackpot: only its buyers win, both hole cards, within its window (mostly so), once a day."""
    early = rng.random() < 0.9  # a claim after the window closed is refused
    fund = psel.jackpot_fund()
    if fund is not None and psel.jackpot_lock(fund, timezone.now()) is not None and rng.random() < 0.9:
        raise Skip("the jackpot was won today")  # the floor knows (a second claim now and then: refused)
    t = _event_where(world, rng, lambda t: _jackpot_event(t) and (not early or clock_selectors.late_registration_open(t)), Tournament.RUNNING)
    live = world.entries(t, Entry.ACTIVE)
    buyers = [e for e in live if psel.jackpot_paid_by(e)]
    pool = buyers if buyers and rng.random() < 0.9 else live
    if not pool:
        raise Skip("nobody playing")
    winners = rng.sample(pool, 2 if len(pool) > 1 and rng.random() < 0.15 else 1)
    win = payouts.claim_jackpot(t, winners, both_hole_cards=rng.random() < 0.95, actor=world.floor)
    return f"royal flush in {t.name}: {win.amount} to {[e.number for e in winners]}"


@action(weight=3.5)
def pay_jackpot(world: World, rng) -> str:
    """The desk pays a jackpot winner's share: cash within the limit, else by transfer."""
    fund = psel.jackpot_fund()
    if fund is None:
        raise Skip("no jackpot fund")
    line = pick(rng, psel.jackpot_claims(fund, unpaid_only=True), "jackpot to pay")
    claim = JackpotClaim.objects.get(pk=line["id"])
    if line["tournament"] in world.events:
        world.touched.add(line["tournament"])
    t = claim.win.tournament
    if Decimal(line["amount"]) > cashier.cash_limit(t) or rng.random() < 0.2:
        method, reference = LedgerRow.TRANSFER, _reference(rng, "TRF")
    else:
        method, reference = LedgerRow.CASH, ""
    payouts.pay_jackpot(claim, method=method, actor=world.cashier(rng), reference=reference)
    return f"paid the jackpot share {line['amount']} to {line['name']} by {method}"


# --- side pools and the Last Longer --------------------------------------------------------------


@action(weight=2)
def last_longer(world: World, rng) -> str:
    """A Last Longer: the director opens it, a pre-registered player joins (his money put in the
    pool, a plaque handed to him); or a chip-leader prize paid out of the prize pool."""
    t = _event(world, rng, Tournament.REGISTERING, Tournament.RUNNING)
    if rng.random() < 0.15:
        if t.side_pools.filter(kind=SidePool.CHIP_LEADER).exists():
            raise Skip("already a chip-leader prize")
        pool = payouts.create_side_pool(
            t,
            kind=SidePool.CHIP_LEADER,
            name="Chip leader at the break",
            actor=world.director,
            from_ledger=False,
            from_prize_pool=Decimal(rng.choice([20, 50])),
        )
        return f"chip-leader prize of {pool.from_prize_pool} in {t.name}"
    pool = t.side_pools.filter(kind=SidePool.LAST_LONGER).first()
    if pool is None:
        pool = payouts.create_side_pool(t, kind=SidePool.LAST_LONGER, name="Last Longer", actor=world.director, from_ledger=False)
    holders = set(pool.tokens.values_list("entry_id", flat=True))
    joining = [e for e in world.entries(t, Entry.ACTIVE, Entry.RESERVED) if e.pk not in holders and (e.pre_registered or rng.random() < 0.1)]
    entry = pick(rng, joining, "player for the Last Longer")
    payouts.issue_side_token(pool, entry, label=f"LL-{pool.tokens.count() + 1}", actor=world.cashier(rng))
    payouts.contribute_side_pool(pool, "20", actor=world.cashier(rng), note=f"#{entry.number}")
    return f"#{entry.number} joined the Last Longer of {t.name}"


@action(weight=3)
def award_side_pool(world: World, rng) -> str:
    """The director awards a side pool: the Last Longer to the best-placed participant, or a
    prize named by hand (now and then more than the pool holds: refused)."""
    t = _event_where(world, rng, lambda t: any(psel.side_pool_balance(p)["left"] > 0 for p in t.side_pools.all()), Tournament.RUNNING, Tournament.FINISHED)
    pool = pick(rng, [p for p in t.side_pools.all().order_by("pk") if psel.side_pool_balance(p)["left"] > 0], "side pool with money")
    left = psel.side_pool_balance(pool)["left"]
    if pool.kind == SidePool.LAST_LONGER and rng.random() < 0.7:
        made = payouts.award_side_pool(pool, actor=world.director)
    else:
        entry = pick(rng, world.entries(t, Entry.ACTIVE, Entry.BUSTED), "player")
        amount = left if rng.random() < 0.6 else min(left, Decimal(rng.choice([10, 20, 50])))
        if rng.random() < 0.05:
            amount = left + 1
        made = payouts.award_side_pool(pool, actor=world.director, awards=[(entry, amount)])
    return f"{pool.name} of {t.name} awarded: {[(a.entry_id, str(a.amount)) for a in made]}"


@action(weight=6)
def pay_side_prize(world: World, rng) -> str:
    """The desk pays a side prize (a Last Longer, a chip-leader prize), cash or cheque."""
    t = _event_where(world, rng, lambda t: bool(_payable(t, "SIDE:")), Tournament.RUNNING, Tournament.FINISHED)
    due = pick(rng, _payable(t, "SIDE:"), "side prize due")
    method, reference = (LedgerRow.CASH, "") if rng.random() < 0.8 else (LedgerRow.CHEQUE, _reference(rng, "CHQ"))
    payouts.pay_prize(due["entry"], method=method, actor=world.cashier(rng), source=due["source"], reference=reference)
    return f"paid the side prize {due['amount']} ({due['description']}) to #{due['entry'].number} of {t.name}"


# --- penalties -----------------------------------------------------------------------------------

PENALTY_KINDS = {
    penalties.WARNING: 3,
    penalties.MISSED_HANDS: 2,
    penalties.MISSED_ROUNDS: 2,
    penalties.TIME_SUSPENSION: 2,
    penalties.DEAD_HAND: 1,
    penalties.CHIP_FORFEIT: 2,
    penalties.DISQUALIFICATION: 1,
    penalties.ELIMINATION_NO_PRIZE: 1,
}


@action(weight=3)
def penalty_any(world: World, rng) -> str:
    """A penalty of any kind for a reason of the event's list: a warning, missed hands or rounds,
    a time suspension, a dead hand, a chip forfeit, a disqualification or an elimination without
    prize (PEN-07: the player out, his chips out of play, his prize forfeited)."""
    t = _event(world, rng, Tournament.RUNNING)
    entry = pick(rng, world.entries(t, Entry.ACTIVE), "player")
    kinds = sorted(PENALTY_KINDS)
    kind = rng.choices(kinds, weights=[PENALTY_KINDS[k] for k in kinds])[0]
    values = {}
    if kind == penalties.MISSED_HANDS:
        values["hands"] = rng.choice([1, 2, 3])
    elif kind == penalties.MISSED_ROUNDS:
        values["rounds"] = rng.choice([1, 2])
    elif kind == penalties.TIME_SUSPENSION:
        values["minutes"] = rng.choice([5, 10, 20])
    elif kind == penalties.CHIP_FORFEIT:
        values["chips"] = rng.choice([500, 1000, 5000])
    reason = rng.choice(sorted(penalties.reason_codes(_rules(t).penalty_reasons)))
    who = world.director if kind in penalties.REMOVES_ALL_CHIPS else world.floor
    p = floor.issue_penalty(t, entry, kind=kind, reason_code=reason, actor=who, between_hands=rng.random() < 0.3, **values)
    return f"{kind} for #{entry.number} of {t.name} ({reason}, {p.status})"


@action(weight=2)
def cancel_penalty(world: World, rng) -> str:
    """The director lifts a penalty given by mistake (one still running; now and then one
    already served: refused)."""
    t = _event(world, rng, Tournament.RUNNING)
    running = list(Penalty.objects.filter(tournament=t, status=Penalty.ACTIVE).order_by("pk"))
    live = world.entries(t, Entry.ACTIVE)
    if not running and live and rng.random() < 0.7:  # the floor has just given it to the wrong player
        floor.issue_penalty(t, rng.choice(live), kind=penalties.MISSED_HANDS, reason_code="ABUSIVE_CONDUCT", hands=rng.choice([1, 2]), actor=world.floor)
        running = list(Penalty.objects.filter(tournament=t, status=Penalty.ACTIVE).order_by("pk"))
    served = list(Penalty.objects.filter(tournament=t).exclude(status=Penalty.ACTIVE).order_by("pk"))
    p = pick(rng, running if running and rng.random() < 0.9 else served or running, "penalty")
    floor.cancel_penalty(p, actor=world.director, reason="wrong player named")
    return f"lifted the {p.kind} of #{p.entry.number} in {t.name}"


# --- chips: races, colour-ups, counts ------------------------------------------------------------


def _next_colour_up(t: Tournament) -> int | None:
    items = clock_selectors.structure_items(t)
    here = clock_selectors.item_index_now(t)
    for i in range(here, min(len(items), here + 4)):
        if isinstance(items[i], clock_rules.Break) and items[i].removes_denominations:
            return i
    return None


@action(weight=5)
def chip_race(world: World, rng) -> str:
    """The clock is at (or the director brings it to) a break that takes a chip out: each table
    races off its odd chips, drawn at random or as the floor saw them."""
    t = _event(world, rng, Tournament.RUNNING)
    seats = world.seats(t)
    if not seats:
        raise Skip("nobody seated")
    target = _next_colour_up(t)
    if target is None:
        raise Skip("no colour-up break near")
    if clock_selectors.item_index_now(t) != target:
        clock_services.jump_to(t, target, actor=world.director, reason="to the colour-up break")
    removed = floor.race_denomination(t) or 100
    new = removed * 5
    raced = []
    for table, row in seats.items():
        players = [{"seat": s, "odd_value": rng.randrange(0, new // removed) * removed, "stack_after_exchange": rng.randrange(1, 60) * new} for s in row]
        if not any(p["odd_value"] for p in players):
            continue
        winners = None
        if rng.random() < 0.3:
            odd = sum(p["odd_value"] for p in players)
            count = (odd + new // 2) // new
            having = [p["seat"] for p in players if p["odd_value"]]
            winners = sorted(rng.sample(having, min(count, len(having))))
        record = floor.run_chip_race(t, table, players, removed_denomination=removed, new_denomination=new, actor=world.floor, winners=winners)
        raced.append((table, record.result.get("winners")))
    return f"chip race of T{removed} in {t.name}: {raced}"


@action(weight=1)
def colour_up(world: World, rng) -> str:
    """The director colours up a table or one player (same value, fewer chips)."""
    t = _event(world, rng, Tournament.RUNNING)
    seats = world.seats(t)
    if not seats:
        raise Skip("nobody seated")
    low, high = rng.choice([(100, 500), (500, 1000), (100, 1000)])
    if rng.random() < 0.6:
        table = rng.choice(sorted(seats))
        floor.discretionary_color_up(t, from_denomination=low, to_denomination=high, table=table, actor=world.director, note="short of chips")
        return f"colour-up at table {table} of {t.name}"
    entry = rng.choice([e for row in seats.values() for e in row.values()])
    floor.discretionary_color_up(t, from_denomination=low, to_denomination=high, entry=entry, actor=world.director, note="big stack")
    return f"colour-up for entry {entry} of {t.name}"


@action(weight=1)
def chip_count(world: World, rng) -> str:
    """The floor counts the stacks at a break (or removes chips found out of view, or puts
    found chips back)."""
    t = _event(world, rng, Tournament.RUNNING)
    live = world.entries(t, Entry.ACTIVE)
    if not live:
        raise Skip("nobody playing")
    if rng.random() < 0.3:
        kind = rng.choice(["OUT_OF_VIEW", "LOST_FOUND", "OUT_OF_VIEW"])
        adj = floor.remove_chips(t, chips=rng.choice([100, 500, 1000]), kind=kind, reason="seen on the floor", actor=world.floor)
        return f"{kind} {adj.chips} chips in {t.name}"
    counts = [{"entry": e.pk, "chips": rng.randrange(1, 80) * 500} for e in live]
    summary = floor.record_chip_counts(t, counts, occasion="BREAK", actor=world.floor)
    return f"counted {summary['counted_total']} chips of {summary['chips_in_play']} in {t.name}"


# --- alternates and field caps -------------------------------------------------------------------


@action(weight=2)
def alternate(world: World, rng) -> str:
    """A player asks for a place in a capped event: on the alternates list when it is full."""
    t = _event_where(world, rng, lambda t: t.field_cap is not None, Tournament.REGISTERING, Tournament.RUNNING)
    person = world.person(rng)
    if cashier.places_taken(t) < (t.field_cap or 0) and rng.random() < 0.7:
        sale = cashier.register(t, person, method=_method(rng), actor=world.cashier(rng))
        return f"sold #{sale.entry.number} of capped {t.name}"
    alt = cashier.add_alternate(t, person, actor=world.cashier(rng))
    return f"{person.full_name} alternate no. {cashier.alternate_position(alt)} of {t.name}"


@action(weight=3)
def admit_alternate(world: World, rng) -> str:
    """A place has freed: the first alternate in line is sold it (refused while the field is full).
    In a full event still selling, a player at the desk is put on the list first; before the
    start a registered player who cannot stay frees his place (refunded)."""
    if rng.random() < 0.9:
        t = _event_where(world, rng, lambda t: t.field_cap is not None and _selling(t), Tournament.REGISTERING, Tournament.RUNNING)
    else:
        t = _event_where(world, rng, lambda t: t.alternates.filter(status=Alternate.WAITING).exists(), Tournament.REGISTERING, Tournament.RUNNING)
    if not t.alternates.filter(status=Alternate.WAITING).exists():
        if cashier.places_taken(t) < (t.field_cap or 0):
            raise Skip("places free: nobody waits")
        cashier.add_alternate(t, world.person(rng), actor=world.cashier(rng))
    leaving = [e for e in world.entries(t, Entry.ACTIVE) if t.status == Tournament.REGISTERING]
    if leaving and cashier.places_taken(t) >= (t.field_cap or 0) and rng.random() < 0.7:
        # what frees a place before the start: a player who cannot stay has his entry refunded
        cashier.refund(rng.choice(leaving), reason="cannot stay: his place goes to the alternates", actor=world.cashier(rng))
    elif cashier.places_taken(t) >= (t.field_cap or 0) and rng.random() < 0.8:
        raise Skip("no place freed: the alternates wait")  # (asked anyway now and then: refused)
    sale = cashier.admit_alternate(t, method=_method(rng), actor=world.cashier(rng))
    return f"alternate {sale.entry.person.full_name} admitted as #{sale.entry.number} of {t.name}"


# --- hand-for-hand and simultaneous busts --------------------------------------------------------


def _out_at(t: Tournament, rng, row: dict[int, int]) -> dict:
    out = rng.choice(list(row.values()))
    item = {"entry": out}
    if _bounty_kind(t) != "NONE":
        item["eliminators"] = _eliminators(t, rng, list(row.values()), out)
    return item


@action(weight=3)
def h4h_busts(world: World, rng) -> str:
    """Hand-for-hand on the bubble: in one hand players go out at several tables (each table
    reports its own), ranked together; every table then reports the hand complete."""
    t = _event_where(world, rng, lambda t: _tables(world, t), Tournament.RUNNING)
    _bag_ready(world, t, rng)
    if not _hand_for_hand(t):
        clock_services.start_hand_for_hand(t, actor=world.director, reason="bubble")
    seats = world.seats(t)
    tables = [n for n, row in seats.items() if len(row) >= 2]
    busted = []
    for table in rng.sample(tables, min(len(tables), rng.choice([2, 2, 3]))):
        now = world.seats(t)
        if sum(len(r) for r in now.values()) <= 2:
            break
        if table in now:
            seating.record_bust(t, [_out_at(t, rng, now[table])], actor=world.floor, table=table)
        else:  # an earlier bust of the hand broke this table (or formed the final table): the floor
            # records the bust of a player who was at it, wherever the draw has put him since
            # with his old table's players, wherever they sit now (the director's override)
            still = [e for e in seats[table].values() if any(e in row.values() for row in now.values())]
            if len(still) < 2:
                continue
            item = _out_at(t, rng, {n: e for n, e in enumerate(still)})
            seating.record_bust(t, [item], actor=world.director, override_reason="the table broke during the hand-for-hand hand")
        busted.append(table)
    hand = Clock.objects.get(tournament=t).h4h_hand
    left = t.entries.filter(status=Entry.ACTIVE).count()
    paid = psel.places_paid(t)
    # the players this hand began with: those left and its busts, counted here from the rows
    began = left + Bust.objects.filter(tournament=t, void="", h4h_hand=hand, order__gt=_order_before_hand(t, hand)).count()
    reached = HouseRules.of(t).h4h_ends_at_money and 0 < paid and left <= paid < began
    for table in clock_services.tables_in_play(t):  # as from the map: the moves waiting for the hand follow
        seating.hand_completed(t, table, actor=world.floor)
    # CLK-06: the hand that reached the money was hand-for-hand's last; any other goes on (but
    # for a break the clock reached: paused at its start, TAKE_BREAK)
    status = Clock.objects.get(tournament=t).status
    if (reached and status == Clock.HAND_FOR_HAND) or (not reached and status not in (Clock.HAND_FOR_HAND, Clock.PAUSED)):
        raise AssertionError(f"{t.name}: hand-for-hand hand {hand} ({began} → {left} players, {paid} paid) left the clock {status}")
    if _hand_for_hand(t) and rng.random() < 0.5:
        clock_services.end_hand_for_hand(t, actor=world.director, reason="bubble burst")
    return f"hand-for-hand hand in {t.name}: out at tables {busted}" + (" (the money: hand-for-hand over)" if reached else "")


def _order_before_hand(t, hand: int) -> int:
    """The bust order just before this hand-for-hand hand of the session in play: the last bust
    not of it (each session numbers its hands from 1)."""
    last = Bust.objects.filter(tournament=t, void="").exclude(h4h_hand=hand).order_by("-order").values_list("order", flat=True).first()
    return last or 0


@action(weight=5)
def mark_simultaneous(world: World, rng) -> str:
    """Two players out at two tables were recorded one after the other; the floor then says
    nobody saw which went first: the two busts become one tie group."""
    t = _event_where(world, rng, lambda t: _tables(world, t), Tournament.RUNNING)
    _bag_ready(world, t, rng)
    last = list(Bust.objects.filter(tournament=t, void="").order_by("-order")[:2])
    # the last two mostly as the floor would name them: at two tables, not of a hand-for-hand
    # hand nor marked already (those are refused)
    named = len(last) == 2 and last[0].table_number != last[1].table_number
    if named and any(b.h4h_hand is not None or b.simultaneous_group is not None for b in last) and rng.random() < 0.9:
        named = False
    if not named or rng.random() < 0.5:
        seats = world.seats(t)
        tables = sorted(n for n, row in seats.items() if len(row) >= 2)
        if len(tables) < 2 or sum(len(r) for r in seats.values()) <= 3:
            raise Skip("two tables with two players each needed")
        a, b = rng.sample(tables, 2)
        first = seating.record_bust(t, [_out_at(t, rng, seats[a])], actor=world.floor, table=a).busts[0]
        seats = world.seats(t)
        if len(seats.get(b, {})) < 2:  # the first bust broke table b (its players moved): one bust, no pair
            return f"#{first.entry.number} out at table {a} of {t.name}; table {b} broke meanwhile"
        second = seating.record_bust(t, [_out_at(t, rng, seats[b])], actor=world.floor, table=b).busts[0]
        last = [second, first]
    seating.mark_simultaneous(t, [b.pk for b in last], actor=world.floor, reason="seen together")
    return f"busts at tables {last[1].table_number} and {last[0].table_number} of {t.name} marked simultaneous"


# --- moves ---------------------------------------------------------------------------------------


@action(weight=7)
def confirm_and_undo_move(world: World, rng) -> str:
    """The floor confirms a balancing slip, then the player turns out to have sat at the wrong
    table: the move is undone (now and then a break or final-table slip, applied when drawn: it
    is undone with the bust that caused it, so refused)."""
    balancing = rng.random() < 0.9
    t = _event_where(world, rng, lambda t: any(not s.applied or not balancing for s in world.slips(t)), Tournament.RUNNING)
    slip = pick(rng, [s for s in world.slips(t) if not s.applied or not balancing], "slip")
    seating.confirm_move(t, slip, actor=world.floor)
    seating.undo_move(t, PendingMove.objects.get(pk=slip.pk), actor=world.director, reason="he sat at the wrong table")
    # A tablet that was off the network sends its confirmation of the slip now: refused, with
    # what happened to it instead (``moves.no_longer_open``), and nothing changes.
    try:
        seating.confirm_move(t, slip.pk, actor=world.floor)
    except seating.SeatingActionError as refused:
        if refused.code != "move_undone" or refused.extra.get("move") != slip.pk:
            raise AssertionError(f"a stale confirmation of an undone slip was answered {refused.code} {refused.extra}") from None
    else:
        raise AssertionError("a stale confirmation of an undone slip was taken")
    return f"slip of entry {slip.entry_id} in {t.name} confirmed and undone (a stale confirmation refused)"


@action(weight=2)
def move_by_hand(world: World, rng) -> str:
    """The director moves a player by hand to an open seat (special needs, a wrong seat), now
    and then undoing it."""
    t = _event(world, rng, Tournament.RUNNING)
    seats = world.seats(t)
    if not seats:
        raise Skip("nobody seated")
    entry = rng.choice([e for row in seats.values() for e in row.values()])
    tables = {tb.number: tb for tb in Table.objects.filter(tournament=t, in_play=True)}
    free = [(n, s) for n, tb in tables.items() for s in range(1, tb.capacity + 1) if s not in seats.get(n, {}) and s not in (tb.locked_seats or [])]
    to_table, to_seat = pick(rng, free, "open seat")
    out = seating.move_player(t, entry, to_table, to_seat, actor=world.director, reason="special needs")
    if rng.random() < 0.3:
        seating.undo_move(t, out.move, actor=world.director, reason="back where he was")
        return f"moved entry {entry} of {t.name} to table {to_table} seat {to_seat}, undone"
    return f"moved entry {entry} of {t.name} to table {to_table} seat {to_seat}"
