"""Staff roles: director, floor, cashier, dealer, display, controller, regulator.

A role is a Django group of that name. A director may do everything but the controller's
signatures (ELM-07); a superuser counts as a director. Which role may call which route is declared once, in ``tdmanager.policy``;
the API enforces it with :class:`HasRole` (the default DRF permission) and the pages with
:class:`RolePolicyMiddleware`. ``has_role`` is for what a page shows, never for who may act.
"""

import logging
from urllib.parse import urlsplit

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.urls import Resolver404, resolve
from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import NotFound
from rest_framework.permissions import BasePermission

from . import policy
from .policy import CASHIER, CONTROLLER, DEALER, DIRECTOR, DISPLAY, FLOOR, REGULATOR

ROLES = (DIRECTOR, FLOOR, CASHIER, DEALER, DISPLAY, CONTROLLER, REGULATOR)
# What the page says of a role (the nav bar's "who is logged in"): never the group's code.
ROLE_LABELS = {
    DIRECTOR: _("director"),
    FLOOR: _("floor"),
    CASHIER: _("cashier"),
    DEALER: _("dealer"),
    DISPLAY: _("display screen"),
    CONTROLLER: _("administrative controller"),
    REGULATOR: _("regulator"),
}
log = logging.getLogger("tdmanager.security")

# ``granted(user, tournament_id) -> bool``: which tournaments a regulator login reads. The
# tournaments app hands it over when it is ready (this package imports no app).
regulator_scope = {"granted": lambda user, tournament_id: False}


def in_scope(user, name, method, op, kwargs) -> bool:
    """False when the user reads this route only as a regulator and the tournament in its URL
    was not granted to him (or the route is not one keyed by a tournament)."""
    if not policy.regulator_only(user_roles(user), name, method, op):
        return True
    if name not in policy.BY_TOURNAMENT:
        return name == "dashboard" or name in policy.OWN_LOGIN
    try:
        pk = int((kwargs or {}).get("pk"))
    except (TypeError, ValueError):
        return False
    return 0 < pk < 2**63 and regulator_scope["granted"](user, pk)  # no tournament has an id no column holds


def user_roles(user) -> set[str]:
    if not user or not user.is_authenticated:
        return set()
    cached = getattr(user, "_tdm_roles", None)
    if cached is None:
        cached = set(user.groups.filter(name__in=ROLES).values_list("name", flat=True))
        if user.is_superuser:
            cached.add(DIRECTOR)
        user._tdm_roles = cached
    return cached


def has_role(user, *roles: str) -> bool:
    """True when the user holds one of ``roles``; a director holds every role but the controller's."""
    return policy.holds(user_roles(user), roles)


def _op(request, kwargs) -> str | None:
    """The action a call takes: ``<op>`` in the URL, else a page form's ``op`` field."""
    op = (kwargs or {}).get("op")
    if op is None and request.method == "POST" and not request.path.startswith("/api/"):
        op = request.POST.get("op")
    return op


def _url_name(request) -> str | None:
    match = getattr(request, "resolver_match", None)
    return match.url_name if match else None


def _permits(user, name, method, op) -> bool:
    """The table's answer for a logged-in user; a route the table does not name is refused and logged."""
    if policy.decision(name, method, op) is None:
        log.error("no role decision for %s %s", method, name)
    return policy.permits(user_roles(user), name, method, op)


class HasRole(BasePermission):
    """DRF permission (the default for every API view): the call is allowed when
    ``tdmanager.policy`` lets one of the user's roles make it."""

    message = _("Your role does not allow this action.")

    def has_permission(self, request, view):
        if request.method not in ("GET", "HEAD", "OPTIONS") and not hasattr(view, request.method.lower()):
            return True  # a method this route does not serve: the view answers 405, nothing is read
        kwargs = getattr(view, "kwargs", None)
        answer = verdict(request.user, _url_name(request), request.method, _op(request, kwargs), kwargs)
        if answer == MISSING:
            raise NotFound()  # a tournament not granted to this regulator does not exist for him
        return answer == OPEN


class RolePolicyMiddleware:
    """Pages: log in first, then 403 unless ``tdmanager.policy`` lets the user's roles in.

    API views (DRF, token or session) are checked by :class:`HasRole`; the Django admin checks
    its own staff flag."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        match = request.resolver_match
        if match is None or "admin" in match.namespaces or hasattr(view_func, "cls"):
            return None
        answer = verdict(request.user, match.url_name, request.method, _op(request, view_kwargs), view_kwargs)
        if answer == LOGIN:
            return redirect_to_login(request.get_full_path())
        if answer == REFUSED:
            raise PermissionDenied
        if answer == MISSING:
            raise Http404
        return None


OPEN, LOGIN, REFUSED, MISSING = "open", "login", "refused", "missing"


def verdict(user, name, method, op=None, kwargs=None) -> str:
    """What a route answers this user, by ``tdmanager.policy``: ``OPEN``, ``LOGIN`` (log in
    first), ``REFUSED`` (403) or ``MISSING`` (a tournament not granted to this regulator: 404).
    :class:`HasRole` and :class:`RolePolicyMiddleware` enforce it and :func:`may_open` asks it,
    so a page offers a link exactly when its target lets the user in."""
    if policy.is_public(name, method, op):
        return OPEN
    if not user or not user.is_authenticated:
        return LOGIN
    if not _permits(user, name, method, op):
        return REFUSED
    if not in_scope(user, name, method, op, kwargs):
        return MISSING
    return OPEN


def may_open(user, url: str) -> bool:
    """True when ``user`` may open (GET) the product's page or download at ``url``: the check
    its view makes, so a link is offered only to whom it opens. An address the product does not
    route is never offered."""
    path = urlsplit(url).path
    try:
        match = resolve(path)
    except Resolver404:
        return False
    if "admin" in match.namespaces:
        return bool(user and user.is_authenticated and user.is_staff)
    return verdict(user, match.url_name, "GET", match.kwargs.get("op"), match.kwargs) == OPEN


def roles_context(request):
    user = getattr(request, "user", None)
    held = user_roles(user)
    return {
        "tdm_roles": held,
        "tdm_role_labels": [str(ROLE_LABELS[r]) for r in ROLES if r in held],
        "is_director": DIRECTOR in held,
        "is_cashier": bool(held & {CASHIER, DIRECTOR}),
        "is_floor": bool(held & {FLOOR, DIRECTOR}),
        "is_staff_member": bool(held & {DIRECTOR, FLOOR, CASHIER}),  # the desk, people, structures, formats
        "is_controller": CONTROLLER in held,
        "is_dealer": DEALER in held and not held & {DIRECTOR, FLOOR},  # ROLE-01: his table, nothing else
        "is_regulator": REGULATOR in held and not held & {DIRECTOR, FLOOR, CASHIER, CONTROLLER},
    }
