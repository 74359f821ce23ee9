"""Content-Security-Policy on every response: scripts, styles and everything else from our own
origin only, no inline script, no inline style, no plugins, never framed.

Django 5.2 has no CSP of its own, so this middleware sets the header. Pages pass server data
to their scripts with ``json_script`` or ``data-`` attributes and load code from ``static/``;
a markup injection can then neither run nor style anything.

A view that needs more (the ReDoc page: its styles are injected by script and its search runs
in a ``blob:`` worker) is wrapped in :func:`csp_update`, which widens only that view's policy
and never ``script-src``.
"""

import secrets
from functools import wraps

from django.utils.deprecation import MiddlewareMixin

HEADER = "Content-Security-Policy"

POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "font-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}


def build(extra=None) -> str:
    directives = {name: list(sources) for name, sources in POLICY.items()}
    for name, sources in (extra or {}).items():
        if name == "script-src":
            raise ValueError("script-src is never widened")
        directives.setdefault(name, ["'self'"])
        directives[name] += [s for s in sources if s not in directives[name]]
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in directives.items())


DEFAULT = build()


class ContentSecurityPolicyMiddleware(MiddlewareMixin):
    """Sets the policy on every response (pages, API, static files, streams)."""

    def process_response(self, request, response):
        extra = getattr(response, "csp_extra", None)
        response[HEADER] = build(extra) if extra else DEFAULT
        return response


def csp_update(style_nonce=False, **directives):
    """Widen the policy of one view: ``csp_update(worker_src=["blob:"], style_nonce=True)``.

    ``style_nonce`` puts a fresh random nonce on ``request.csp_style_nonce`` and allows the
    ``<style>`` elements that carry it (a library that injects its CSS, given the nonce).
    """
    extra = {name.replace("_", "-"): list(sources) for name, sources in directives.items()}

    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            mine = {name: list(sources) for name, sources in extra.items()}
            if style_nonce:
                request.csp_style_nonce = secrets.token_urlsafe(18)
                mine.setdefault("style-src", []).append(f"'nonce-{request.csp_style_nonce}'")
            response = view(request, *args, **kwargs)
            response.csp_extra = mine
            return response

        return wrapped

    return decorator
