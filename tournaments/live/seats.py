"""The lobby screens' rotating seat lookup, a page at a time.

The live snapshot no longer lists every seated player: it carries ``seats_version``, and a
screen reads ``/live/<pk>/seats/?page=N`` (alphabetical, ``size`` seats a page) again only when
that version changed. Whoever may see the tournament's live state may read its seats: staff
(session) or a display screen's token (``live._allowed``), like ``live_state``. Seating answers
(``signals.seat_page_wanted``); without it there are no seats.
"""

from django.http import HttpResponseForbidden, JsonResponse
from django.shortcuts import get_object_or_404

from tournaments import signals
from tournaments.live.views import _allowed
from tournaments.models import Tournament

#: Seats a page carries unless the screen asks for fewer (``size``, 1 to 200).
PAGE_SIZE = 48


def _number(value, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def seat_page(tournament_id: int, page: int = 1, size: int = PAGE_SIZE) -> dict:
    """One page of the seat lookup (1 first); an empty one when nobody is seated."""
    empty = {"seats_version": 0, "page": max(1, page), "pages": 1, "size": size, "total": 0, "seats": []}
    return signals.ask_one(signals.seat_page_wanted, default=empty, tournament=tournament_id, page=page, size=size)


def live_seats(request, pk: int):
    """GET ``?page=N&size=S``: one page of the tournament's seated players, by name, with the
    seats version it belongs to."""
    if not _allowed(request.user, request.GET.get("token"), pk):
        return HttpResponseForbidden()
    t = get_object_or_404(Tournament, pk=pk)
    page = max(1, _number(request.GET.get("page"), 1))
    size = min(200, max(1, _number(request.GET.get("size"), PAGE_SIZE)))
    data = seat_page(t.pk, page, size)
    data["tournament"] = t.pk
    response = JsonResponse(data)
    response["Cache-Control"] = "no-cache"
    return response
