"""Pages: the table map (floor and director), move slips, a player's draw history, and the
public seat lookup. Thin: each POST calls one service; refusals come back as messages."""

import hashlib
import math
import re
import time

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tdmanager.errors import DomainError
from tdmanager.public import address_key
from tdmanager.roles import DIRECTOR, has_role
from tdmanager.security import client_ip
from tournaments.cashier.services import registration
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.house import HouseRules
from tournaments.live.snapshot import clock_snapshot
from tournaments.models import Entry, HandForHandReport, Tournament
from tournaments.oversight import selectors as oversight_selectors

from . import selectors, services
from .models import Bust, PendingMove
from .selectors.busts import busts
from .selectors.lookup import lookup
from .services import dealers


def _int(value, default=None):
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        return default
    return number if abs(number) < 2**63 else default  # no column holds more (SQLite cannot even compare it)


def _chips(text: str):
    """Chips as the floor typed them ("2.000", "2 000" → 2000); a text that is not a number of
    chips goes on as typed, for the service to refuse."""
    digits = re.sub(r"[\s.,'’]", "", text)
    return int(digits) if digits.isascii() and digits.isdigit() else text


def _eliminators(post, entry: int) -> list[dict]:
    """PAY-02: who knocked ``entry`` out, as the bust dialog lists them (from the button's left),
    each with the chips won of a split pot when typed."""
    named = []
    for value in post.getlist(f"eliminators_{entry}"):
        other = _int(value)
        if other:
            share = post.get(f"pot_share_{entry}_{other}", "").strip()
            named.append({"entry": other, "pot_share": _chips(share) if share else None})
    return named


def _bust(t, post, actor, done):
    only = _int(post.get("only"))
    ids = [only] if only else [_int(v) for v in post.getlist("entries") if _int(v)]
    if not ids:
        raise DomainError("no_entries", _("Tick the players who are out."), status=400)
    items = [{"entry": e, "starting_stack": _int(post.get(f"stack_{e}"))} for e in ids]
    for item in items:
        named = _eliminators(post, item["entry"])
        if named:
            item["eliminators"] = named
    out = services.record_bust(
        t,
        items,
        actor=actor,
        table=_int(post.get("table")),
        same_hand=bool(post.get("same_hand")) and not only,
        reason=post.get("reason", ""),
        override_reason=post.get("override_reason", ""),
    )
    text = "; ".join(
        _("%(name)s #%(n)s out in place %(p)s") % {"name": b.entry.person.full_name, "n": b.entry.number, "p": b.place}
        + (_(" (shared by %(m)s)") % {"m": b.shared_with} if b.shared_with > 1 else "")
        for b in out.busts
    )
    if out.winner:
        text += " — " + _("one player left: first place")
    done["bust"] = out.busts[0].pk  # the page offers its undo at once
    return text


def _move(t, post, actor):
    entry = Entry.objects.filter(tournament=t, number=_int(post.get("entry_number"))).first()
    if entry is None:
        raise DomainError("unknown_entry", _("No such entry number."), status=400)
    services.move_player(t, entry, _int(post.get("to_table"), 0), _int(post.get("to_seat"), 0), actor=actor, reason=post.get("reason", ""))
    return _("Moved #%(n)s.") % {"n": entry.number}


def _perform(t, request, done: dict) -> str:
    """Run the floor action the form asked for; the success message (``done``: what the page
    shows next, such as the bust just recorded)."""
    post, actor = request.POST, Actor.from_request(request)
    op = post.get("op")
    table = _int(post.get("table"))
    reason = post.get("reason", "")
    if op == "bust":
        return _bust(t, post, actor, done)
    if op == "undo_bust":
        bust = get_object_or_404(Bust, pk=_int(post.get("bust")), tournament=t)
        later = [_int(e) for e in post.get("later", "").split(",") if _int(e)]
        if later:  # the later changes the refusal listed, undone first
            services.undo_bust_and_later(t, bust, later=later, actor=actor, reason=reason)
            return _("Later changes and the bust undone: the players are back in their seats.")
        services.undo_bust(t, bust, actor=actor, reason=reason)
        return _("Bust undone: the players are back in their seats.")
    if op == "simultaneous":  # ELM-03: busts at different tables whose order cannot be told
        services.mark_simultaneous(t, [_int(v) for v in post.getlist("busts") if _int(v)], actor=actor, reason=reason)
        return _("Marked simultaneous: they share their places and prizes.")
    if op == "confirm":
        services.confirm_move(t, get_object_or_404(PendingMove, pk=_int(post.get("move")), tournament=t), actor=actor)
        return _("Move confirmed.")
    if op == "confirm_all":  # the players of a broken table (or of the final table draw) have all sat down
        ids = [_int(v) for v in post.getlist("moves") if _int(v)]
        if not ids:
            raise DomainError("no_moves", _("No move to confirm."), status=400)
        n = services.confirm_moves(t, ids, actor=actor)
        return ngettext("%(n)s move confirmed.", "%(n)s moves confirmed.", n) % {"n": n}
    if op == "undo_move":
        services.undo_move(t, get_object_or_404(PendingMove, pk=_int(post.get("move")), tournament=t), actor=actor, reason=reason)
        return _("Move undone.")
    if op == "move":
        return _move(t, post, actor)
    if op == "big_blind":
        services.set_big_blind(
            t, table, _int(post.get("big_blind_seat")), previous_big_blind_seat=_int(post.get("previous_big_blind_seat")), actor=actor, reason=reason
        )
        return _("Big blind of table %(n)s set.") % {"n": table}
    if op == "hand":
        services.hand_completed(t, table, actor=actor)
        return _("Table %(n)s: hand completed.") % {"n": table}
    if op in ("h4h_hold", "h4h_in_hand"):  # CLK-06: the table's state in the hand-for-hand hand
        clock_services.set_h4h_table_state(t, table, "ALL_IN_HOLD" if op == "h4h_hold" else "IN_HAND", actor=actor)
        return (_("Table %(n)s: all-in, cards held face down.") if op == "h4h_hold" else _("Table %(n)s: back in the hand.")) % {"n": table}
    if op == "misdeal":
        services.misdeal(t, table, actor=actor, reason=reason)
        return _("Table %(n)s: misdeal recorded; the re-deal is the same hand.") % {"n": table}
    if op in ("lock_table", "unlock_table"):
        services.lock_table(t, table, op == "lock_table", actor=actor, reason=reason)
        return _("Table %(n)s updated.") % {"n": table}
    if op in ("lock_seat", "unlock_seat"):
        services.lock_seat(t, table, _int(post.get("seat")), op == "lock_seat", actor=actor, reason=reason)
        return _("Seat updated.")
    if op in ("tv", "untv"):
        services.set_tv_table(t, table, op == "tv", actor=actor, reason=reason)
        return _("Table %(n)s updated.") % {"n": table}
    if op == "waive":
        services.waive_halt(t, table, actor=actor, reason=reason)
        return _("Halt waived at table %(n)s.") % {"n": table}
    if op == "break_order":
        text = post.get("break_order", "").replace(",", " ").split()
        order = [_int(n) for n in text]
        if None in order:
            raise DomainError("bad_break_order", _("Write the table numbers separated by spaces."), status=400)
        services.set_break_order(t, order, actor=actor, reason=reason)
        return _("Break order saved.")
    if op in ("draw", "redraw"):
        services.draw(t, actor=actor, redraw=op == "redraw", reason=reason)
        return _("Seats drawn.")
    if op in ("not_arrived", "arrived"):  # REG-09: a seated player who never came (or came after all)
        entry = get_object_or_404(Entry, pk=_int(post.get("entry"), 0), tournament=t)
        entry = registration.mark_arrival(entry, arrived=op == "arrived", actor=actor, reason=reason)
        return (_("%(name)s (#%(n)s) marked as arrived.") if op == "arrived" else _("%(name)s (#%(n)s) marked as not arrived.")) % {
            "name": entry.person.full_name,
            "n": entry.number,
        }
    raise DomainError("unknown_action", _("Unknown action."), status=400)


UNDO_BLOCKED = "seating_undo_blocked"


def _just_busted(t, bust_id):
    """The bust just recorded (with every player recorded with it), while it stands: the page
    shows them with its Undo (none once the tournament has ended: ``busts.refuse_if_ended``)."""
    if t.status != Tournament.RUNNING:
        return None
    bust = Bust.objects.filter(pk=_int(bust_id) or 0, tournament=t, void="").first()
    if bust is None:
        return None
    ids = set(Bust.objects.filter(tournament=t, event=bust.event_id, void="").values_list("pk", flat=True)) if bust.event_id else {bust.pk}
    return {"id": bust.pk, "busts": [b for b in busts(t, limit=len(ids) + 50) if b["id"] in ids][::-1]}


def _undo_blocked(t, request):
    """The later changes an undo was refused for, once, with the bust it was for."""
    blocked = request.session.pop(UNDO_BLOCKED, None) if request.GET.get("undo-first") else None
    if not blocked or blocked.get("tournament") != t.pk:
        return None
    blocked["later_ids"] = ",".join(str(c["event"]) for c in blocked["later"])
    return blocked


def drawn_groups(moves: list[dict]) -> list[dict]:
    """The open slips of one table break (or of the final table draw), two or more: the players
    got up together, and the floor may confirm them together once they have all sat down."""
    groups: dict[tuple, dict] = {}
    for m in moves:
        if m["applied"] and m["kind"] in (PendingMove.BREAK, PendingMove.FINAL_TABLE):
            final = m["kind"] == PendingMove.FINAL_TABLE
            key = (final, m["to_table"] if final else m["from_table"])
            groups.setdefault(key, {"final": final, "table": key[1], "ids": []})["ids"].append(m["id"])
    return [g for g in groups.values() if len(g["ids"]) > 1]


def table_map_page(request, pk):
    t = get_object_or_404(Tournament, pk=pk)
    if request.method == "POST":
        request.session.pop(UNDO_BLOCKED, None)
        post, done, query = request.POST, {}, ""
        try:
            messages.success(request, _perform(t, request, done))
            if done.get("bust"):
                query = f"?bust={done['bust']}"
        except DomainError as exc:
            messages.error(request, str(exc.message))
            if post.get("op") == "undo_bust" and "later" in exc.extra:  # what to undo first, offered on the page
                request.session[UNDO_BLOCKED] = {
                    "tournament": t.pk,
                    "bust": _int(post.get("bust")),
                    "later": exc.extra["later"],
                    "undoable": exc.extra.get("undoable", False),
                }
                query = "?undo-first=1"
        anchor = f"#table-{request.POST['table']}" if request.POST.get("table") else ""
        if done.get("bust"):
            anchor = "#just-busted"  # its Undo, in the page under the title (a fixed box would cover the lock buttons)
        return redirect(request.path + query + anchor)
    seat_map = selectors.table_map(t)
    rules = HouseRules.of(t)
    context = {
        "t": t,
        "map": seat_map,
        "drawn_groups": drawn_groups(seat_map["moves"]),
        "busts": busts(t, limit=12),
        "recent_moves": selectors.recent_moves(t, limit=8),
        "standings": selectors.standings(t)[:10],
        "is_director_user": has_role(request.user, DIRECTOR),
        "just_busted": _just_busted(t, request.GET.get("bust")),
        "undo_blocked": _undo_blocked(t, request),
        # REG-09: the "Not arrived" buttons matter while a FORFEIT_AT deadline is to come and the
        # desk does not check players in (the marks are who forfeits); a mark shows whatever the rule.
        "arrival_marks": not rules.check_in_used and registration.forfeit_pending(t),
        # PAY-02: a bust asks who knocked the player out (and, when a split pot shares the bounty
        # by the pot, the chips each eliminator won of it)
        "bounty": rules.bounty != "NONE",
        "split_by_pot": rules.bounty_split == "POT",
    }
    template = "seating/_map.html" if request.GET.get("fragment") else "seating/tables.html"
    return render(request, template, context)


DEALER_OPS = ("hand", "bust", "undo_bust")  # ROLE-01: what a dealer reports from his table; nothing else, nothing with money


def _dealer_may_undo(t, request) -> bool:
    """A dealer takes back only the bust he reported, alone, while nothing came after it (a wrong
    tap); anything else is the floor's, who sees why an undo waits (the later changes)."""
    bust = Bust.objects.filter(pk=_int(request.POST.get("bust")) or 0, tournament=t, void="").first()
    if bust is None or bust.reported_by_id != request.user.pk or request.POST.get("later"):
        return False
    return not Bust.objects.filter(tournament=t, void="", order__gt=bust.order).exists()


def dealer_home(request):
    """Where a dealer's login lands: the table he deals now, on the page of the event playing there
    (with his next push); otherwise a page that says where he is (a break, the pool, a table no
    event plays at) and his next push, or that the roster gives him nothing now, with the events
    in play for a dealer the venue does not roster to choose his table."""
    mine = dealers.my_assignment(request.user)
    if mine and mine["event"]:
        return redirect(f"{reverse('dealer-table', args=[mine['event']['pk']])}?table={mine['table']}")
    running = Tournament.objects.filter(status=Tournament.RUNNING).order_by("start_at", "pk")
    return render(request, "seating/dealer_home.html", {"mine": mine, "running": running})


def dealer_table(request, pk):
    """ROLE-01: the dealer's page: the one table he deals (``?table=``), its players, seats and
    positions, the hand-for-hand state of that table, and the two reports a dealer makes: the hand
    completed (hand-for-hand included, CLK-06) and a player out («Player Out», 003 Art. 4.8)."""
    t = get_object_or_404(Tournament, pk=pk)
    if request.method == "POST":
        number, done = _int(request.POST.get("table")), {}
        op = request.POST.get("op")
        if op not in DEALER_OPS:
            messages.error(request, _("Unknown action."))
        elif op == "undo_bust" and not _dealer_may_undo(t, request):
            messages.error(request, _("Dealers take back only the bust they have just reported: ask the floor."))
        else:
            try:
                messages.success(request, _perform(t, request, done))
            except DomainError as exc:
                messages.error(request, str(exc.message))
        query = "&".join(q for q in (f"table={number}" if number else "", f"bust={done['bust']}" if done.get("bust") else "") if q)
        return redirect(f"{request.path}?{query}" if query else request.path)
    seat_map = selectors.table_map(t)
    numbers = [tb["number"] for tb in seat_map["tables"]]
    number = _int(request.GET.get("table"))
    mine = dealers.my_assignment(request.user)  # a rostered dealer: the table he is assigned, and his next push
    if number is None and mine and mine["event"] and mine["event"]["pk"] == t.pk:
        number = mine["table"]
    table = next((tb for tb in seat_map["tables"] if tb["number"] == number), None)
    clock = clock_snapshot(t) if t.status == Tournament.RUNNING else {}
    h4h = bool(clock.get("hand_for_hand"))
    reported = False
    if h4h and table is not None:
        reported = HandForHandReport.objects.filter(tournament=t, hand=clock.get("h4h_hand"), table_number=number).exists()
    return render(
        request,
        "seating/dealer.html",
        {
            "t": t,
            "numbers": numbers,
            "number": number,
            "table": table,
            "h4h": h4h,
            "h4h_hand": clock.get("h4h_hand"),
            "reported": reported,
            "bounty": HouseRules.of(t).bounty != "NONE",  # PAY-02: a player out names who won the pot (at this table)
            # the bust just reported, with who won its bounty (an envelope's amount) and its Undo
            "just_busted": _just_busted(t, request.GET.get("bust")),
            "dealer_table": number,
            "mine": mine,
        },
    )


def move_slips(request, pk):
    """80 mm move slips, one per move, ready to print (all open slips, or ``?ids=1,2``)."""
    t = get_object_or_404(Tournament, pk=pk)
    qs = PendingMove.objects.filter(tournament=t).select_related("entry__person").order_by("id")
    ids = [_int(i) for i in request.GET.get("ids", "").split(",") if _int(i)]
    qs = qs.filter(pk__in=ids) if ids else qs.filter(status=PendingMove.PROPOSED)
    return render(request, "seating/slips.html", {"t": t, "moves": list(qs), "now": timezone.localtime()})


def draw_history_page(request, pk, entry_id):
    t = get_object_or_404(Tournament, pk=pk)
    entry = get_object_or_404(Entry.objects.select_related("person"), pk=entry_id, tournament=t)
    return render(request, "seating/draws.html", {"t": t, "entry": entry, "items": selectors.draw_history(t, entry), "seat": selectors.seat_of(entry)})


def _lookup_data(t, q: str) -> dict:
    data = lookup(t, q[:80])
    data["clock"] = clock_snapshot(t) if t.status == Tournament.RUNNING else None
    return data


def lookup_wait(request, q: str) -> int | None:
    """Seconds a client address must wait before the seat lookup answers another name, or None.
    Each address may ask ``TDM_SEAT_LOOKUP_PER_MINUTE`` different names a minute (in the cache:
    every web process counts together), over every tournament; the same name again in the
    minute is free (the page asks its name every 15 s for the clock), and so is a query too short
    to be answered. Against enumeration: 17,576 three-letter prefixes take about 5 hours at 60
    a minute, and the per-address rate limit of the public URLs (``tdmanager.public``) still
    applies to every request."""
    rate = settings.TDM_SEAT_LOOKUP_PER_MINUTE
    q = " ".join(q[:80].lower().split())
    if rate <= 0 or not selectors.lookup_query_ok(q):
        return None
    now = time.time()
    base = f"seat-lookup:{address_key(client_ip(request))}:{int(now // 60)}"
    name = f"{base}:{hashlib.sha256(q.encode()).hexdigest()[:20]}"
    try:
        if not cache.add(name, 1, 120):
            return None
        cache.add(base, 0, 120)
        asked = cache.incr(base)
        if asked <= rate:
            return None
        cache.delete(name)  # refused: this name was not answered
    except Exception:  # the cache is down: the lookup still answers (the public rate limit holds)
        return None
    return max(1, math.ceil(60 - now % 60))


def _too_many() -> str:
    return _("Too many names looked up from this address. Try again in a minute.")


def seat_lookup(request, pk):
    """Public (no login): type a name, see your table and seat — for the lobby and phones. The
    page searches as you type (``seat_lookup_find``), shows the tournament and its clock, and
    once the tournament is over the finishing places."""
    t = get_object_or_404(oversight_selectors.published_tournaments(), pk=pk)
    q = request.GET.get("q", "").strip()
    wait = lookup_wait(request, q)
    data = _lookup_data(t, "" if wait else q)
    response = render(
        request,
        "seating/lookup.html",
        {
            "t": t,
            "q": q,
            "data": data,
            "results": data["results"],
            "state": data["state"],
            "running": data["state"] == "running",
            "refused": _too_many() if wait else "",
            "answered": selectors.lookup_query_ok(q) and not wait,
            "languages": HouseRules.of(t).official_languages,
        },
        status=429 if wait else 200,
    )
    if wait:
        response["Retry-After"] = str(wait)
    return response


def seat_lookup_find(request, pk):
    """The seat lookup's answer as JSON, for its search-as-you-type (public, like the page);
    429 ``{"code": "rate_limited"}`` past ``TDM_SEAT_LOOKUP_PER_MINUTE`` names a minute."""
    t = get_object_or_404(oversight_selectors.published_tournaments(), pk=pk)
    q = request.GET.get("q", "")
    wait = lookup_wait(request, q)
    if wait:
        response = JsonResponse({"code": "rate_limited", "detail": _too_many()}, status=429)
        response["Retry-After"] = str(wait)
        return response
    return JsonResponse(_lookup_data(t, q))
