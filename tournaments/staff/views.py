"""The staff page (a director): the logins with their role and last use, and the form of each
action. Thin: each POST calls one service of ``services.staff``; a password made here is shown
once, on the answer to that POST (which no cache keeps), and never again. Beside it, the logins
locked out and the devices and browsers signed in, each with what lifts or ends it."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tdmanager.errors import DomainError
from tdmanager.paging import Paged
from tdmanager.policy import DIRECTOR
from tdmanager.roles import ROLE_LABELS, ROLES, has_role
from tdmanager.security import no_store
from tdmanager.sitedata import forget_this_browser
from tournaments.eventlog.services import Actor
from tournaments.staff import logins
from tournaments.staff import selectors as staff_selectors
from tournaments.staff import services as staff


def _perform(request) -> tuple[str, str | None, str]:
    """The POST's action: (message, password to show once or None, username)."""
    post, actor = request.POST, Actor.from_request(request)
    op = post.get("op")
    if op == "add":
        user, shown = staff.add_login(post.get("username", ""), post.get("role", ""), password=post.get("password", ""), actor=actor)
        return _("Login %(username)s added.") % {"username": user.get_username()}, shown, user.get_username()
    login = post.get("login")
    if op == "role":
        user = staff.set_role(login, post.get("role", ""), actor=actor)
        return _("%(username)s is now %(role)s.") % {"username": user.get_username(), "role": ROLE_LABELS[staff.role_of(user)]}, None, ""
    if op == "password":
        user, shown = staff.reset_password(login, password=post.get("password", ""), actor=actor, keep_session=request.session.session_key)
        if user.pk == request.user.pk:  # the director's own reset: this session stays, his others end
            update_session_auth_hash(request, user)
        return _("Password of %(username)s reset: its sessions and devices are logged out.") % {"username": user.get_username()}, shown, user.get_username()
    if op in ("disable", "enable"):
        user = staff.set_active(login, op == "enable", actor=actor)
        text = _("Login %(username)s enabled.") if user.is_active else _("Login %(username)s disabled: it can do nothing until enabled again.")
        return text % {"username": user.get_username()}, None, ""
    raise DomainError("unknown_action", _("Unknown action."), status=400)


def staff_page(request):
    shown = None
    if request.method == "POST":
        try:
            text, password, username = _perform(request)
        except DomainError as exc:
            messages.error(request, str(exc.message))
            return redirect("staff")
        messages.success(request, text)
        if password is None:
            return redirect("staff")
        shown = {"username": username, "password": password}  # on this answer only, never stored
    query = request.GET.get("q", "")
    paged = Paged(request, staff_selectors.staff_logins(query))
    for user in paged:
        user.role = staff.role_of(user)
        user.role_label = ROLE_LABELS.get(user.role, "")
        user.last_used = staff_selectors.last_use(user)
    response = render(
        request,
        "staff.html",
        {"paged": paged, "q": query, "roles": [(r, ROLE_LABELS[r]) for r in ROLES], "shown": shown},
    )
    return no_store(response) if shown else response


def login_lockouts_page(request):
    """A director sees the staff login lock-outs in force and lifts one (``services.logins``)."""
    if request.method == "POST":
        try:
            lifted = logins.lift_lockout(
                kind=request.POST.get("kind"),
                username=request.POST.get("username", ""),
                address=request.POST.get("address", ""),
                actor=Actor.from_request(request),
            )
            messages.success(request, _("Lock-out lifted: %(who)s") % {"who": " @ ".join(p for p in (lifted["username"], lifted["address"]) if p)})
        except DomainError as exc:
            messages.error(request, str(exc.message))
        return redirect("login-lockouts")
    return render(request, "logins.html", {"lockouts": staff_selectors.login_lockouts()})


def devices_page(request):
    """The devices logged in: the browsers (sessions) and the API logins (a desk's tablet, the
    floor's phone), one's own, and for a director every user's; each ended with one button
    (``services.logins``). Ending this browser's own login is a logout."""
    if request.method == "POST":
        actor = Actor.from_request(request)
        try:
            if request.POST.get("session"):
                ended = logins.end_session(int(request.POST["session"]), actor=actor)
                if not request.user.is_authenticated or not request.session.exists(request.session.session_key or ""):
                    return forget_this_browser(redirect("login"))  # this browser's own login: it ended here, a logout
                messages.success(request, _("Device logged out: %(name)s") % {"name": ended["name"]})
            else:
                token = logins.revoke_token(int(request.POST.get("token") or 0), actor=actor)
                messages.success(request, _("Device logged out: %(name)s") % {"name": token.name})
        except (DomainError, ValueError, OverflowError):
            messages.error(request, _("No such device login."))
        return redirect("devices")
    director = has_role(request.user, DIRECTOR)
    whose = None if director else request.user
    context = {
        "tokens": staff_selectors.device_tokens(whose),
        "sessions": staff_selectors.browser_sessions(whose, current_key=request.session.session_key),
        "everyone": director,
        "idle_minutes": settings.TDM_TOKEN_IDLE_MINUTES,
        "session_idle_minutes": settings.TDM_SESSION_IDLE_MINUTES,
    }
    return render(request, "devices.html", context)
