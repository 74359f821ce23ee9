"""The dashboard: the page every login lands on, with what its role does next."""

from django.db.models import Count
from django.shortcuts import redirect, render

from tdmanager import links, policy, reached
from tdmanager.paging import Paged
from tdmanager.policy import DEALER, DIRECTOR, DISPLAY
from tdmanager.roles import user_roles
from tdmanager.security import no_store
from tournaments.models import DisplayScreen, Entry, RegulatorGrant, Tournament


def dashboard(request):
    held = user_roles(request.user)
    # A lobby screen's login lands on its screen (or the screens to pick from); with none yet, on
    # what is playing, told where a screen is made.
    lobby_login = DISPLAY in held and not policy.permits(held - {DISPLAY}, "dashboard", "GET")
    screens = list(DisplayScreen.objects.filter(token_revoked_at__isnull=True).select_related("tournament").order_by("name", "pk")) if lobby_login else []
    if len(screens) == 1:
        return redirect("display", token=screens[0].token)
    if screens:
        return no_store(render(request, "lobby_screens.html", {"screens": screens}))  # their links are their keys
    # A dealer's login lands on his table and his next push (or a page that says he has none),
    # not on a list of events he has nothing to do with.
    if DEALER in held and not policy.permits(held - {DEALER}, "dashboard", "GET"):
        return redirect("dealer-home")
    tournaments = Tournament.objects.exclude(status__in=[Tournament.FINISHED, Tournament.CANCELLED]).order_by("start_at")
    recent = Tournament.objects.filter(status__in=[Tournament.FINISHED, Tournament.CANCELLED]).order_by("-start_at")
    if policy.regulator_only(held, "tournament", "GET"):  # ROLE-01: only what he was given
        granted = RegulatorGrant.objects.filter(user=request.user).values("tournament_id")
        tournaments, recent = tournaments.filter(pk__in=granted), recent.filter(pk__in=granted)
    recent = Paged(request, recent, per_page=10, param="ended", anchor="ended")  # a season's events, ten a page
    rows = []
    for t in tournaments:
        counts = {s: 0 for s, _l in Entry.STATUSES}
        for row in t.entries.values("status").annotate(n=Count("id")):
            counts[row["status"]] = row["n"]
        rows.append({"t": t, "playing": counts[Entry.ACTIVE], "reserved": counts[Entry.RESERVED], "entries": counts[Entry.ACTIVE] + counts[Entry.BUSTED]})
    context = {"rows": rows, "recent": recent, "no_lobby_screen": lobby_login}
    if DIRECTOR in held:  # the room's secure address, and how many staff browsers reached it today
        context["room"] = {"url": links.room_url(request), "browsers": reached.count()}
    return render(request, "dashboard.html", context)
