"""The API's apps include their routes at the same place (``/api/v1/``) in an order chosen for
speed (``tdmanager/urls.py``): no path may be matched by routes of two apps, so that the order
never decides which view answers."""

import re

from django.urls import URLResolver
from django.urls.converters import get_converters
from django.urls.resolvers import RoutePattern

from tdmanager import urls

ROUTER_ARG = re.compile(r"\(\?P<(\w+)>\[\^/\.\]\+\)")  # a DRF router's key: one segment without a dot
REGEXES: list[str] = []  # a route's converters are written "\0<n>\0" in it, n an index here (their regexes may hold "/")


def _token(regex: str) -> str:
    REGEXES.append(regex)
    return f"\0{len(REGEXES) - 1}\0"


def segments(pattern, prefix=""):
    """Every route under ``pattern`` as text: literals, and each converter as a token."""
    pat = pattern.pattern
    if isinstance(pat, RoutePattern):
        text = str(pat)
        assert "<path:" not in text, text  # a path converter spans segments: not handled here
        text = re.sub(r"<(?:(\w+):)?\w+>", lambda m: _token(get_converters()[m.group(1) or "str"].regex), text)
    else:  # a DRF router's regex: its keys are one segment; a format suffix route has a dot
        text = str(pat).removeprefix("^").removesuffix("$")
        text = ROUTER_ARG.sub(lambda m: _token(r"[^/.]+"), text)
        text = re.sub(r"\\\.\(\?P<format>\[a-z0-9\]\+\)", lambda m: "." + _token("[a-z0-9]+"), text)
        assert not re.search(r"[\\()\[\]^$*+]", text.replace("/?", "")), text
    text = prefix + text
    if isinstance(pattern, URLResolver):
        for sub in pattern.url_patterns:
            yield from segments(sub, text)
    else:
        yield text


def _regex(segment: str) -> str:
    parts = segment.split("\0")  # literal, converter, literal, ...
    return "".join(re.escape(p) if i % 2 == 0 else f"(?:{REGEXES[int(p)]})" for i, p in enumerate(parts))


def _sample(segment: str) -> str:
    return "".join(p if i % 2 == 0 else "1" for i, p in enumerate(segment.split("\0")))


def may_overlap(a: str, b: str) -> bool:
    """Whether two routes (``segments`` form) could match one path: segment by segment, one's
    regex takes the other's literal, or a value of the other's (a key: 1)."""
    sa, sb = a.removesuffix("/?").split("/"), b.removesuffix("/?").split("/")
    if len(sa) != len(sb):
        return False
    return all(re.fullmatch(_regex(x), _sample(y)) or re.fullmatch(_regex(y), _sample(x)) for x, y in zip(sa, sb, strict=True))


def test_no_path_is_matched_by_the_routes_of_two_apps():
    apps = [p for p in urls.api_v1 if isinstance(p, URLResolver)]
    names = [a.urlconf_module.__name__ for a in apps]
    assert names[:2] == ["seating.api_urls", "tournaments.api_urls"]
    routes = {name: [r for sub in a.url_patterns for r in segments(sub)] for name, a in zip(names, apps, strict=True)}
    assert all(routes.values()) and len(routes) == 4
    clashes = [(a, ra, b, rb) for i, a in enumerate(routes) for b in list(routes)[i + 1 :] for ra in routes[a] for rb in routes[b] if may_overlap(ra, rb)]
    assert clashes == []


def test_the_overlap_check_sees_an_overlap():
    key, slug, word, fmt = _token("[0-9]+"), _token("[-a-zA-Z0-9_]+"), _token("[^/.]+"), _token("[a-z0-9]+")
    assert may_overlap(f"tournaments/{key}/moves/", f"tournaments/{slug}/moves/")
    assert may_overlap(f"tournaments/{key}/{slug}/", f"tournaments/{key}/busts/")
    assert may_overlap(f"tournaments/{word}/", f"tournaments/{key}/")
    assert not may_overlap(f"tournaments/{key}/busts/", f"tournaments/{key}/moves/")
    assert not may_overlap(f"tournaments/{word}/start.{fmt}/", f"tournaments/{key}/{slug}/")
