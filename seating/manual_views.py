"""Pages for manual draws (SEAT-01, SEAT-04) and seating constraints (SEAT-07).

Seat cards to print (80 mm, one a slip, or A4 sheets to cut), the page where the floor
enters who drew which card, and the director's page of keep-apart pairs and seats reserved
by hand. Thin: each POST calls one service; refusals come back as messages.
"""

from django.contrib import messages
from django.db.models import Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tdmanager import csvsafe
from tdmanager.errors import DomainError
from tdmanager.pdf import seat_cards_pdf
from tournaments.eventlog.services import Actor
from tournaments.house import HouseRules
from tournaments.models import Entry, Tournament

from . import selectors, services
from .models import KeepApart, SeatReservation
from .selectors.constraints import constraints


def _int(value, default=None):
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return default


def _entry(t, number) -> Entry:
    entry = Entry.objects.filter(tournament=t, number=_int(number, -1)).select_related("person").first()
    if entry is None:
        raise DomainError("unknown_entry", _("No such entry number."), status=400)
    return entry


def seat_cards(request, pk):
    """The seat cards of the open manual draws (or ``?draw=id``), one per seat: 80 mm slips
    or, with ``?size=a4``, A4 sheets of cards to cut."""
    t = get_object_or_404(Tournament, pk=pk)
    draws = selectors.manual_draws(t, draw_id=_int(request.GET.get("draw")))
    size = "a4" if request.GET.get("size") == "a4" else "80mm"
    return render(request, "seating/seat_cards.html", {"t": t, "draws": draws, "size": size})


def seat_cards_file(request, pk):
    """The same seat cards as a PDF: 80 mm, one card a page, or ``?size=a4`` sheets to cut."""
    t = get_object_or_404(Tournament, pk=pk)
    draws = selectors.manual_draws(t, draw_id=_int(request.GET.get("draw")))
    cards = [
        (t.name, _("Table %(n)s breaks") % {"n": d["table"]} if d["kind"] == "BREAK" else _("Seat draw"), c["table"], c["seat"])
        for d in draws
        for c in d["cards"]
    ]
    a4 = request.GET.get("size") == "a4"
    data = seat_cards_pdf(
        title=f"{_('Seat cards')} — {t.name}",
        cards=cards,
        table_word=_("Table"),
        seat_word=_("Seat"),
        note=_("Hand this card to the dealer at your seat.") if cards else _("No manual draw is open: there is no seat card to print."),
        a4=a4,
    )
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="seat-cards-{t.pk}{"-a4" if a4 else ""}.pdf"'
    return response


def _perform_card(t, request) -> str:
    post, actor = request.POST, Actor.from_request(request)
    entry = _entry(t, post.get("entry_number"))
    if post.get("op") == "clear":
        services.clear_card(t, entry, actor=actor, reason=post.get("reason", ""))
        return _("Card of #%(n)s cleared.") % {"n": entry.number}
    out = services.enter_card(
        t, entry, _int(post.get("table"), 0), _int(post.get("seat"), 0), card=post.get("card", ""), actor=actor, draw_id=_int(post.get("draw"))
    )
    if out is not None:
        return _("Last card entered: the draw is applied, the players are seated.")
    return _("#%(n)s: table %(t)s, seat %(s)s.") % {"n": entry.number, "t": post.get("table"), "s": post.get("seat")}


def manual_draw_page(request, pk):
    """The floor enters who drew which seat card (and at a break which high card)."""
    t = get_object_or_404(Tournament, pk=pk)
    if request.method == "POST":
        try:
            messages.success(request, _perform_card(t, request))
        except DomainError as exc:
            messages.error(request, str(exc.message))
        return redirect(request.path)
    return render(request, "seating/manual_draw.html", {"t": t, "draws": selectors.manual_draws(t), "draw_mode": HouseRules.of(t).draw_mode})


def _perform_constraint(t, request) -> str:
    post, actor = request.POST, Actor.from_request(request)
    op = post.get("op")
    reason = post.get("reason", "")
    if op == "pair":
        a, b = _entry(t, post.get("entry_a")), _entry(t, post.get("entry_b"))
        services.add_keep_apart(t, a.person, b.person, actor=actor, reason=reason, everywhere=bool(post.get("everywhere")))
        return _("%(a)s and %(b)s are kept apart.") % {"a": a.person.full_name, "b": b.person.full_name}
    if op == "unpair":
        pair = get_object_or_404(KeepApart.objects.filter(Q(tournament=t) | Q(tournament__isnull=True)), pk=_int(post.get("pair"), 0))
        services.remove_keep_apart(t, pair, actor=actor, reason=reason)
        return _("Pair removed.")
    if op == "reserve":
        entry = _entry(t, post.get("entry_number"))
        services.reserve_seat(t, entry, _int(post.get("table"), 0), _int(post.get("seat"), 0), actor=actor, reason=reason)
        return _("Seat reserved for #%(n)s.") % {"n": entry.number}
    if op == "unreserve":
        res = get_object_or_404(SeatReservation, pk=_int(post.get("reservation"), 0), tournament=t)
        services.remove_reservation(t, res, actor=actor, reason=reason)
        return _("Reservation removed.")
    raise DomainError("unknown_action", _("Unknown action."), status=400)


def constraints_page(request, pk):
    """Keep-apart pairs and seats reserved by hand (SEAT-07)."""
    t = get_object_or_404(Tournament, pk=pk)
    if request.method == "POST":
        try:
            messages.success(request, _perform_constraint(t, request))
        except DomainError as exc:
            messages.error(request, str(exc.message))
        return redirect(request.path)
    return render(request, "seating/constraints.html", {"t": t, "c": constraints(t)})


def predraw_page(request, pk):
    """SEAT-02 (004): draw the registrants into sessions, tables and seats before the event;
    the list to print (the page prints as it is) or to export (``?format=csv``, csv-safe)."""
    t = get_object_or_404(Tournament, pk=pk)
    if request.method == "POST":
        sessions = [s for s in request.POST.get("sessions", "").replace(";", ",").split(",") if s.strip()]
        try:
            services.predraw(t, sessions, actor=Actor.from_request(request), reason=request.POST.get("reason", ""))
            messages.success(request, _("Registrants drawn into sessions and tables."))
        except DomainError as exc:
            messages.error(request, str(exc.message))
        return redirect(request.path)
    rows = selectors.predraw_rows(t)
    if request.GET.get("format") == "csv":
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="predraw-{t.pk}.csv"'
        w = csvsafe.Writer(response)  # names are typed by people: no cell runs as a formula
        w.writerow([_("Session"), _("Table"), _("Seat"), _("Entry"), _("Name")])
        w.writerows([r["session"], r["table"], r["seat"], r["entry"], r["name"]] for r in rows)
        return response
    sessions = list(dict.fromkeys(r["session"] for r in rows))
    return render(
        request,
        "seating/predraw.html",
        {
            "t": t,
            "rows": rows,
            "sessions": ", ".join(sessions),
            "open": t.status in (Tournament.PLANNED, Tournament.REGISTERING),
            "print": "print" in request.GET,
        },
    )
