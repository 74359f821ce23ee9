"""Content-Security-Policy on every response: scripts, styles and everything else from our own
origin only, no inline script, no inline style, no plugins, never framed.

Django 5.2 has no CSP of its own, so this middleware sets the header. Pages pass server data
to their scripts with ``json_script`` or ``data-`` attributes and load code from ``static/``;
a markup injection can then neither run nor style anything.

A view that needs more is wrapped in :func:`csp_update`, which widens only that view's policy
and never ``script-src``. The one such view is ReDoc (``/api/redoc/``): its bundle injects
``<style>`` elements, some while it loads, before any nonce could be handed to it, and runs its
search in a ``blob:`` worker; that page shows our own API schema and no data.
"""

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
        # No other site may load our responses as a script, image or frame (Swagger's init
        # script carries the CSRF token): same-origin pages and the API's clients are unaffected.
        response.setdefault("Cross-Origin-Resource-Policy", "same-origin")
        return response


def csp_update(**directives):
    """Widen the policy of one view: ``csp_update(style_src=["'unsafe-inline'"], worker_src=["blob:"])``."""
    extra = {name.replace("_", "-"): list(sources) for name, sources in directives.items()}
    build(extra)  # refuses script-src now, not at the first request

    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            response = view(request, *args, **kwargs)
            response.csp_extra = extra
            return response

        return wrapped

    return decorator
