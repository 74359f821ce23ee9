"""Staff roles: director, floor, cashier, display.

A role is a Django group of that name. A director may do everything; a superuser counts
as a director. Pages use ``role_required``; the API uses ``HasRole``.
"""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from rest_framework.permissions import BasePermission

DIRECTOR, FLOOR, CASHIER, DISPLAY = "director", "floor", "cashier", "display"
ROLES = (DIRECTOR, FLOOR, CASHIER, DISPLAY)


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
    """True when the user holds one of ``roles``; a director holds every role but display-only."""
    held = user_roles(user)
    return bool(held & set(roles)) or DIRECTOR in held


def role_required(*roles):
    """Page decorator: log in first, then 403 unless the user holds one of ``roles``."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not has_role(request.user, *roles):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


class HasRole(BasePermission):
    """DRF permission: the view lists ``required_roles`` (for writes) and
    ``read_roles`` (for safe methods; defaults to required_roles)."""

    message = "Your role does not allow this action."

    def has_permission(self, request, view):
        if not request.user or not request.user.is_authenticated:
            return False
        roles = getattr(view, "required_roles", (DIRECTOR,))
        if request.method in ("GET", "HEAD", "OPTIONS"):
            roles = getattr(view, "read_roles", roles)
        return has_role(request.user, *roles)


def roles_context(request):
    user = getattr(request, "user", None)
    held = user_roles(user)
    return {
        "tdm_roles": held,
        "is_director": DIRECTOR in held,
        "is_cashier": bool(held & {CASHIER, DIRECTOR}),
        "is_floor": bool(held & {FLOOR, DIRECTOR}),
    }
