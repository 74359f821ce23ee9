"""Hostile text over every route the project serves: no answer may be a server error.

    .venv/bin/python benchmarks/probe_routes.py                      # PostgreSQL tdm_probe on 127.0.0.1
    .venv/bin/python benchmarks/probe_routes.py --database sqlite
    .venv/bin/python benchmarks/probe_routes.py --database postgres://postgres@127.0.0.1:5432/tdm_probe
    .venv/bin/python benchmarks/probe_routes.py --routes '^api-seating' --roles director,floor --values nul,rlo
    .venv/bin/python benchmarks/probe_routes.py --database sqlite --values declared-huge,over-limit,thin-image,nested-list,nested-object,year-9999,year-0001

Makes a fresh database (PostgreSQL by default, since a NUL byte fails only there: the database
named is dropped and created anew, as ``benchmarks/common.py`` does; ``--database sqlite``: a
temporary SQLite file), writes a small room (``tests/fuzz.py``'s ``build_world``: tournaments
in every state, entries, seats, a bust, formats, screens; then a login for every role, a
heads-up bracket, a timed event, a ruling, a keep-apart pair, a reserved seat, a published
change) and walks Django's URL resolver: every page, API and public route, the Django admin
included (as an anonymous visitor). Path parameters get the room's real ids.

For each route, each method ``tdmanager.policy.POLICY`` allows and each role that may call it
(director, floor, cashier, dealer, display, controller, regulator; anonymous on every route, so
that the refusals see the input too), it sends each hostile value (``HOSTILE``: a NUL byte, a
right-to-left override, a zero-width space, a newline, fullwidth digits, ``3_00``, ``+300``,
``3e2``, 10,000 characters, 10,000 digits, 40 digits, a name with a fullwidth letter, a name
mixing Cyrillic with Latin letters, a URL whose host two parsers read differently):

- in the path: every str or slug parameter takes each value; an int parameter its id in
  fullwidth digits, followed by a NUL, and as 10,000 and 40 digits;
- in the query string: each parameter the route is known to read (the OpenAPI schema's for an
  API route, the names its view's source reads, and ``q``) one at a time, then every name any
  view reads, all at once;
- in the body: for an API route every field its request body declares in the schema (one
  level into lists of objects), one at a time, the others plausible (JSON; multipart where the
  schema says so); for a page every field of every form that posts to it, as the pages offer
  them to each role (the others as the form fills them).

Besides text, inputs that are no text (``SPECIAL``, each a key of ``--values``, all sent by default):

- ``declared-huge``: for every route and method that takes a body, as each role it lets in and
  anonymous, a few bytes sent with ``CONTENT_LENGTH`` 2,000,000,000 (the test client passes it on
  to ``tdmanager.errorpages.ApiErrorMiddleware``): a 413;
- ``over-limit``: for every route and method that takes a body, once, as the director, a body
  of the route's type one byte over its limit (``bodylimits.limit(kind_of(…))``, 1 MB for JSON
  and forms, 5 MB + 64 KB for an image, 8 MB + 64 KB for a layout), its true length: a 413;
- ``thin-image``: a PNG announcing 1 × 16,777,216 pixels (~32 KB, every row there) in every file
  field of the schema (multipart binary) and of the pages' forms, inside a layout file where the
  route takes layout files (the import, API and page): 400 ``too_large`` (a page: its error
  naming the size), another file field (a structure's) a refusal;
- ``nested-list``, ``nested-object``: a file of 100,000 ``[`` and one of 5,000 ``{"a":`` (each
  also closed, valid JSON as deep) in the same fields, the layout import's ``file`` as its JSON
  text: a 4xx (a page: its error);
- ``year-9999``, ``year-0001``: 9999-12-31 and 0001-01-01 in every date field: the API bodies'
  (schema format date or date-time, a serializer's date field, a helper's ``as_datetime``; a
  4xx), the pages' ``date`` and ``datetime-local`` inputs, and the query parameters named like a
  date (day, date, from, to, since, until, start, end, ``…_at``) or declared with a date format
  (a 4xx where the schema declares one), then every such name any view reads, at once.
- ``push-endpoints``: a phone's subscription (``/p/<token>/push/``, a JSON body outside the API's
  schema) to each endpoint of ``BAD_ENDPOINTS`` (a backslash before an allowed suffix, an empty
  port, an empty label, a user, a percent-escaped host): a 4xx.
- ``hostile-sheets``: in every file field (the API's and the pages' forms), an XLSX whose sheet
  part declares a few hundred bytes and inflates to 8 MB, one with a row numbered 200,000,000, a
  CSV with invalid bytes after its UTF-8 BOM: a 4xx (a page: its error).

Each request runs in a transaction rolled back afterwards (as the suite's tests do), so every
one meets the same room. In process: Django's test ``Client``, no server.

It counts requests, answers by status, the 5xx (each printed with its route and input: the
goal is 0), the API's 4xx that are not ``{"code", "detail"}`` JSON, and the answers that echo a
raw U+202E or NUL back into an HTML page or a JSON name field (reported, not failed), the
answers to the inputs above that are not the refusal expected and the years 9999 and 0001
answered 2xx (both reported, not failed), and prints a summary table (each 5xx with the last
lines of its traceback). Exit status 1 when there is a 5xx or a wrong 4xx shape.
"""

from __future__ import annotations

import argparse
import inspect
import json
import logging
import os
import re
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote, urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import common  # noqa: E402

HOSTILE = {
    "nul": "a\x00b",
    "rlo": "abc\u202efed",
    "zwsp": "a\u200bb",
    "newline": "a\nb",
    "fullwidth": "３００",
    "underscore": "3_00",
    "plus": "+300",
    "exponent": "3e2",
    "long": "A" * 10_000,
    "long-digits": "9" * 10_000,
    "huge": "9" * 40,  # a whole number no database column holds
    "fullwidth-name": "\uff24irector",  # a fullwidth D: NFKC makes it "Director"
    "mixed-script": "dir\u0435ctor",  # a Cyrillic ie among Latin letters
    "backslash-url": "https://127.0.0.1\\.push.apple.com/x",  # two URL parsers read two hosts
}
ECHOED = {"nul": "\x00", "rlo": "\u202e"}  # what must not come back raw
#: inputs that are no text in a field: each its own probes (``special_probes``, ``date_probes``)
SPECIAL = {
    "declared-huge": "a body declaring Content-Length 2,000,000,000, a few bytes sent: 413",
    "over-limit": "a body one byte over its route's limit (tdmanager.bodylimits), as the director: 413",
    "thin-image": "a PNG of 1 × 16,777,216 pixels (~32 KB) in every file field: 400 too_large",
    "nested-list": "a file of 100,000 '[' (and the same closed) in every file field: 4xx",
    "nested-object": "a file of 5,000 '{\"a\":' (and the same closed) in every file field: 4xx",
    "year-9999": "9999-12-31 in every date field (body, form, query): no 5xx; 4xx where the API declares a date",
    "year-0001": "0001-01-01 in every date field (body, form, query): no 5xx; 4xx where the API declares a date",
    "push-endpoints": "a phone's subscription to an endpoint two parsers read differently, or malformed: 4xx",
    "hostile-sheets": "in every file field: an XLSX part inflating past its declared size, a row numbered 200,000,000, a CSV with bad bytes after its BOM: 4xx",
}
#: endpoints a phone may not subscribe (``push-endpoints``): a backslash, an empty port, an empty
#: label, a user, a percent-escape in the host, a host off the list behind an allowed one
BAD_ENDPOINTS = (
    "https://127.0.0.1\\.push.apple.com/x",
    "https://fcm.googleapis.com:/x",
    "https://a..push.apple.com/x",
    "https://user@fcm.googleapis.com/x",
    "https://fcm%2egoogleapis.com/x",
    "https://127.0.0.1#.push.apple.com/x",
    "https://evil.example/x?.push.apple.com",
)
DECLARED = 2_000_000_000
YEARS = {"year-9999": ("9999-12-31", "9999-12-31T23:59:59"), "year-0001": ("0001-01-01", "0001-01-01T00:00:00")}
#: a query parameter named like a date (besides those the schema gives a date format)
DATE_NAME = re.compile(r"(?:^|[_-])(?:days?|dates?|from|to|since|until|starts?|ends?|at)(?:$|[_-])")
ROLES = ("director", "floor", "cashier", "dealer", "display", "controller", "regulator")
ANONYMOUS = "anonymous"
SOURCES = ("tdmanager", "tournaments", "seating", "payouts")
STREAMS = {"live-stream", "phone-stream"}  # server-sent events: the status is checked, the stream is not read


# --- the room ------------------------------------------------------------------------------------


@dataclass
class Room:
    ids: dict  # path segment (as tests/fuzz.py names them) → real ids
    values: dict  # path parameter name → a real value, where the name alone says which
    users: dict  # role → user


def configure(database: str) -> None:
    """Settings for an in-process probe, a fresh migrated database, Django set up, the static
    files collected."""
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "tdmanager.settings",
            "DEBUG": "false",
            "TDM_ARM_CLOCK_TASKS": "false",
            "TDM_SEAT_LOOKUP_PER_MINUTE": "0",  # every lookup answered: the probe asks thousands of names from one address
            "TDM_LOGIN_FAILURES_PER_USER": "1000000",  # hostile logins reach the form's checks, not a lock-out
            "TDM_LOGIN_FAILURES_PER_ADDRESS": "1000000",
            "TDM_LOGIN_FAILURES_PER_ACCOUNT": "1000000",
        }
    )
    os.environ["TDM_VAR_DIR"] = tempfile.mkdtemp(prefix="tdm-probe-")  # journals and static files apart from var/
    common.prepare_database(None if database == "postgres" else database, "tdm_probe")
    from tdmanager import staticbuild

    staticbuild.ensure_collected()  # pages name their static files by the manifest, as in production
    logging.disable(logging.CRITICAL)  # each 4xx logs a warning; the 5xx are printed below


def build_room() -> Room:
    """The fuzzer's room, a login for every role and the objects some routes need an id of."""
    from datetime import timedelta
    from decimal import Decimal

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.utils import timezone

    from seating.models import KeepApart, SeatReservation
    from tests import fuzz
    from tournaments.eventlog.services import Actor
    from tournaments.formats.services import headsup, timed
    from tournaments.models import DeviceToken, Entry, Person, Tournament, TournamentChange, TournamentEvent
    from tournaments.oversight import services as oversight

    world = fuzz.build_world()
    ids = world["ids"]
    User = get_user_model()
    users = {"director": User.objects.get(username="fuzz-director"), "cashier": User.objects.get(username="fuzz-cashier")}
    for role in ROLES:
        if role not in users:
            users[role] = User.objects.create_user(username=f"probe-{role}", password=None)
            users[role].groups.add(Group.objects.get_or_create(name=role)[0])
    director = Actor(users["director"], "probe")
    running = Tournament.objects.get(name="Fuzz running")
    oversight.set_regulator_access(running, users["regulator"].username, granted=True, actor=director)

    structure = running.structure
    now = timezone.now()
    duel = Tournament.objects.create(
        name="Probe heads-up", start_at=now + timedelta(hours=2), buy_in=Decimal("50"), fee=Decimal("5"), starting_stack=10000,
        table_size=2, structure=structure, status=Tournament.REGISTERING, min_players=2, format=Tournament.HEADS_UP,
    )  # fmt: skip
    headsup.create_bracket(duel, actor=director, size=16)
    clocked = timed.create_timed_event(
        name="Probe timed", start_at=now + timedelta(hours=3), buy_in=Decimal("50"), fee=Decimal("5"), starting_stack=10000,
        structure=structure, actor=director, minutes=120,
    )  # fmt: skip
    people = list(Person.objects.order_by("pk")[:2])
    ruling = oversight.record_ruling(running, asked_by="Seat 3", question="Probe question", decision="Probe decision", actor=director)
    pair = KeepApart.objects.create(tournament=running, person_a=people[0], person_b=people[1], reason="probe")
    entry = running.entries.filter(status=Entry.ACTIVE).order_by("pk").first()
    reservation = SeatReservation.objects.create(tournament=running, entry=entry, table_number=1, seat_number=1, reason="probe")
    TournamentChange.objects.create(tournament=running, version=1, changes={"name": ["Before", "Fuzz running"]}, reason="probe")
    draw = TournamentEvent.objects.filter(tournament=running, action__contains="draw").order_by("pk").first()

    ids["tournaments"] = [running.pk] + [t for t in ids["tournaments"] if t != running.pk]
    ids["headsup"] = [duel.pk]
    ids["timed"] = [clocked.pk]
    ids["seats"] = ids["live"] = ids["rules"] = [running.pk]
    values = {
        "entry_id": entry.pk,
        "bust_id": ids["busts"][0],
        "move_id": ids["moves"][0],
        "event_id": draw.pk if draw else 1,
        "ruling_id": ruling.pk,
        "pair_id": pair.pk,
        "res_id": reservation.pk,
        "token_id": DeviceToken.objects.filter(user=users["director"]).values_list("pk", flat=True).first(),
        "version": 1,
        "name": "standings",
        "fmt": "csv",
        "table_number": 1,
        "display_token": "fuzz-token",
        "phone_token": entry.phone_token,
    }
    return Room(ids=ids, values=values, users=users)


# --- the routes ----------------------------------------------------------------------------------


@dataclass
class Route:
    name: str  # the URL name ("admin:index" for the admin's)
    template: str  # the route as routed, e.g. "api/v1/tournaments/<int:pk>/clock/<slug:op>/"
    pattern: object
    admin: bool

    @property
    def params(self) -> dict[str, str]:
        """Path parameter → its kind: "int", "slug", "str" (a regex group of a DRF route: "str")."""
        converters = getattr(self.pattern.pattern, "converters", {})
        out = {}
        for name in self.pattern.pattern.regex.groupindex:
            kind = type(converters.get(name)).__name__.removesuffix("Converter").lower() if name in converters else "str"
            out[name] = {"string": "str", "path": "str"}.get(kind, kind)
        return out

    @property
    def segments(self) -> list[str]:
        """The route's path segments, each parameter written ``{name}``."""
        text = re.sub(r"\(\?P<(\w+)>[^)]*\)", r"{\1}", self.template.replace("^", "").replace("$", ""))
        text = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", text)
        return text.strip("/").split("/")


def walk_routes() -> list[Route]:
    """Every named route of Django's URL resolver, once (not DRF's ``.json`` suffix twins)."""
    from django.urls import URLPattern, URLResolver, get_resolver

    def walk(patterns, prefix="", namespace=""):
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns, prefix + str(p.pattern), p.namespace or namespace)
            elif isinstance(p, URLPattern) and p.name:
                yield Route(f"{namespace}:{p.name}" if namespace else p.name, prefix + str(p.pattern), p, namespace == "admin")

    seen = {}
    for route in walk(get_resolver().url_patterns):
        if "format" in route.params or "\\.(?P" in route.template:
            continue
        seen.setdefault(route.name, route)
    return list(seen.values())


def real_value(route: Route, param: str, room: Room, op: str | None):
    """The room's value for one path parameter of ``route``."""
    if param == "op":
        return op or "status"
    segments = route.segments
    where = next(i for i, segment in enumerate(segments) if "{%s}" % param in segment)
    before = segments[where - 1] if where else ""
    if param == "token":
        return room.values["phone_token"] if before == "p" else room.values["display_token"]
    if param == "number":
        if before in ("receipts", "receipt", "slips", "slip"):
            return room.ids["receipts"][0]
        return room.values["table_number"]
    if param in room.values:
        return room.values[param]
    if param == "kind" and before == "imports":
        return "people"  # the sheets' pages: the people import's upload page and its forms
    if before in room.ids and room.ids[before]:
        return room.ids[before][0]
    return {"app_label": "auth", "object_id": "1", "content_type_id": 1}.get(param, 1)  # the admin: users and groups


def build_path(route: Route, room: Room, op: str | None = None, override: tuple[str, str] | None = None) -> str:
    """The route's address with the room's ids; ``override`` = (parameter, its text already quoted)."""
    from django.urls import NoReverseMatch, reverse

    kwargs = {p: real_value(route, p, room, op) for p in route.params}
    if override is None:
        return reverse(route.name, kwargs=kwargs)
    marker = 918273645 if route.params[override[0]] == "int" else "PROBEVALUE0"
    try:
        return reverse(route.name, kwargs={**kwargs, override[0]: marker}).replace(str(marker), override[1], 1)
    except NoReverseMatch:  # a parameter limited to a few words (the admin's app_label): its segment
        parts = reverse(route.name, kwargs=kwargs).split("/")
        parts[1 + route.segments.index("{%s}" % override[0])] = override[1]
        return "/".join(parts)


def permitted(route: Route, method: str, op: str | None) -> tuple:
    """The roles the policy lets make this call, and anonymous (its refusal sees the input too)."""
    from tdmanager import policy

    if route.admin:
        return (ANONYMOUS,)
    return tuple(r for r in ROLES if policy.permits({r}, route.name, method, op)) + (ANONYMOUS,)


def calls(route: Route, schema: Schema):
    """(method, op, OpenAPI operation) of every call the policy decides for this route: an API
    route with an ``{op}`` takes each op its schema lists, a page each action the policy names."""
    from tdmanager import policy

    if route.admin:
        return [("GET", None, None)] + ([("POST", None, None)] if route.name == "admin:login" else [])
    out = []
    for method, decided in policy.POLICY.get(route.name, {}).items():
        operation = schema.operation(route, method) if route.template.startswith("api/") else None
        named = [op for op in decided if op != "*"] if isinstance(decided, dict) else []
        if "op" in route.params:
            ops = schema.path_enum(operation, "op") or named or ["status"]
        else:
            ops = named or [None]
        out += [(method, op, operation) for op in ops]
    return out


# --- the OpenAPI schema --------------------------------------------------------------------------


class Schema:
    """The operations of ``/api/schema/``, found by a route's segments."""

    def __init__(self):
        from tests.fuzz import openapi_schema

        self.raw = json.loads(json.dumps(openapi_schema(), default=str))
        self.by_shape = {}
        for path, ops in self.raw["paths"].items():
            shape = tuple("{}" if s.startswith("{") else s for s in path.strip("/").split("/"))
            self.by_shape[shape] = ops

    def operation(self, route: Route, method: str) -> dict | None:
        shape = tuple("{}" if s.startswith("{") else s for s in route.segments)
        return self.by_shape.get(shape, {}).get(method.lower())

    def deref(self, node):
        """A schema node with its ``$ref`` followed and the first branch of allOf/oneOf/anyOf taken."""
        for _ in range(10):
            if not isinstance(node, dict):
                return {}
            if "$ref" in node:
                target = self.raw
                for part in node["$ref"].lstrip("#/").split("/"):
                    target = target[part]
                node = target
            elif any(k in node for k in ("allOf", "oneOf", "anyOf")):
                branches = node.get("allOf") or node.get("oneOf") or node.get("anyOf")
                merged = {k: v for k, v in node.items() if k not in ("allOf", "oneOf", "anyOf")}
                first = self.deref(branches[0])
                node = {**first, **merged, "properties": {**first.get("properties", {}), **merged.get("properties", {})}}
            else:
                return node
        return node

    def query_names(self, operation: dict | None) -> list[str]:
        return [p["name"] for p in (operation or {}).get("parameters", []) if p.get("in") == "query"]

    def query_formats(self, operation: dict | None) -> dict[str, str]:
        """Query parameter → the format its schema declares ("" when none)."""
        params = [p for p in (operation or {}).get("parameters", []) if p.get("in") == "query"]
        return {p["name"]: self.deref(p.get("schema", {})).get("format", "") for p in params}

    def path_enum(self, operation: dict | None, name: str) -> list[str]:
        for p in (operation or {}).get("parameters", []):
            if p.get("in") == "path" and p["name"] == name:
                return list(self.deref(p.get("schema", {})).get("enum") or [])
        return []

    def body(self, operation: dict | None) -> tuple[str, dict] | None:
        """(media type, object schema) of the operation's request body, JSON first."""
        content = ((operation or {}).get("requestBody") or {}).get("content") or {}
        for media in ("application/json", "multipart/form-data"):
            if media in content:
                return media, self.deref(content[media].get("schema", {}))
        return None


# --- what a route reads --------------------------------------------------------------------------

_READS = [
    r"(?:GET|query_params)\.(?:get|getlist)\(\s*[\"']([\w-]+)[\"']",
    r"(?:GET|query_params)\[\s*[\"']([\w-]+)[\"']\s*\]",
    r"[\"']([\w-]+)[\"']\s+in\s+(?:request\.)?(?:GET|query_params)",
    r"query_(?:int|choice)\(\s*request\s*,\s*[\"']([\w-]+)[\"']",
]


def names_read(source: str) -> set[str]:
    """The query parameter names a piece of source reads."""
    return {m for pattern in _READS for m in re.findall(pattern, source)}


def every_query_name(schema: Schema) -> list[str]:
    """Every query parameter name the project reads anywhere, the schema's, ``q`` and ``next``."""
    names = {"q", "next"}
    for package in SOURCES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                names |= names_read(path.read_text())
    for ops in schema.raw["paths"].values():
        for op in ops.values():
            names.update(schema.query_names(op))
    return sorted(names)


def view_source(route: Route) -> str:
    """The source of the route's view (its function, or its class), of the actions its ``ops``
    map to, and of the module's functions those hand the body to (``_prizes(d)``)."""
    callback = route.pattern.callback
    target = getattr(callback, "cls", None) or getattr(callback, "view_class", None) or inspect.unwrap(callback)
    parts = [target] + [fn for fn in (getattr(target, "ops", None) or {}).values() if callable(fn)]
    try:
        source = "\n".join(inspect.getsource(part) for part in parts)
    except (OSError, TypeError):
        return ""
    module = sys.modules.get(getattr(target, "__module__", ""), None)
    for name in set(re.findall(r"\b(_\w+)\(\s*(?:d|data|body)\b", source)):
        helper = getattr(module, name, None)
        if inspect.isfunction(helper):
            source += "\n" + inspect.getsource(helper)
    return source


def view_query_names(route: Route) -> set[str]:
    """The query parameter names the route's own view reads."""
    return names_read(view_source(route))


_BODY_READS = re.compile(r"\b(as_\w+|\w+_arg|get)\(\s*(?:(?:d|data|body)\s*(?:,\s*[\"'](\w+)[\"'])?|[\"'](\w+)[\"'])")


def body_fields_read(route: Route) -> dict[str, str]:
    """Field → how the view reads it (``as_money``, ``tournament_arg``, ``get``…), for a body the
    schema only calls an object: its view reads the fields one by one."""
    out = {}
    for helper, key, got in _BODY_READS.findall(view_source(route)):
        name = key or got or (helper.removesuffix("_arg") if helper.endswith("_arg") else "")
        if name and (helper != "get" or got):
            out.setdefault(name, helper)
    return out


# --- the forms pages offer -----------------------------------------------------------------------


class _Forms(HTMLParser):
    """Every ``<form method="post">`` of a page: its action, fields (first value) and op values."""

    def __init__(self):
        super().__init__()
        self.forms, self._form, self._select, self._textarea = [], None, None, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            post = (attrs.get("method") or "get").lower() == "post"
            self._form = {"action": attrs.get("action") or "", "fields": {}, "ops": set(), "files": set(), "dates": {}} if post else None
            if post:
                self.forms.append(self._form)
            return
        if tag == "option":
            self._option(attrs)
            return
        if self._form is None or not attrs.get("name"):
            return
        name, kind = attrs["name"], (attrs.get("type") or "text").lower()
        if name == "op" and (tag == "button" or kind in ("submit", "hidden")):
            self._form["ops"].add(attrs.get("value") or "")
        elif tag == "input" and kind == "file":
            self._form["files"].add(name)
        elif tag == "input" and kind in ("date", "datetime-local"):
            self._form["dates"][name] = kind
            self._form["fields"].setdefault(name, attrs.get("value") or "")
        elif tag == "input" and kind in ("checkbox", "radio"):
            if name not in self._form["fields"] or "checked" in attrs:
                self._form["fields"][name] = attrs.get("value") or "on"
        elif tag == "input" and kind not in ("submit", "button", "image", "reset"):
            self._form["fields"].setdefault(name, attrs.get("value") or "")
        elif tag == "select":
            self._select = name
            self._form["fields"].setdefault(name, "")
        elif tag == "textarea":
            self._textarea = name
            self._form["fields"].setdefault(name, "")

    def _option(self, attrs):
        name = self._select
        if self._form is not None and name and attrs.get("value") and (not self._form["fields"].get(name) or "selected" in attrs):
            self._form["fields"][name] = attrs["value"]

    def handle_data(self, data):
        if self._form is not None and self._textarea:
            self._form["fields"][self._textarea] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)


@dataclass
class Form:
    path: str  # where it posts, the page's own address when its action is empty
    op: str | None
    fields: dict
    files: set
    dates: dict = field(default_factory=dict)  # field → "date" or "datetime-local"


def forms_on(page_path: str, html: str) -> list[Form]:
    """The POST forms of a page, one per op value its buttons send."""
    parser = _Forms()
    parser.feed(html)
    out = []
    for form in parser.forms:
        action = urlsplit(form["action"])
        if action.netloc:
            continue
        path = (action.path or urlsplit(page_path).path) + (f"?{action.query}" if action.query else "")
        for op in sorted(form["ops"]) or [None]:
            out.append(Form(path, op, dict(form["fields"]), set(form["files"]), dict(form["dates"])))
    return out


# --- the probes ----------------------------------------------------------------------------------


@dataclass
class Probe:
    route: Route
    kind: str  # api, page, public, admin
    where: str  # baseline, path, query, json, multipart, form
    field: str
    value: str  # a key of HOSTILE ("" for a baseline)
    role: str
    method: str
    path: str
    body: object = None  # dict (JSON or multipart) or list of pairs (a form)
    raw: bytes | None = None  # a body sent as these bytes (``content_type``), ``body`` then unused
    content_type: str = ""
    meta: dict = field(default_factory=dict)  # extra WSGI environ (a declared CONTENT_LENGTH)
    expect: str = ""  # what the answer must be besides no 5xx (``meets``): "413", "too_large", "4xx", "refused"


def kind_of(route: Route, method: str, op: str | None) -> str:
    if route.admin:
        return "admin"
    if route.template.startswith("api/"):
        return "api"
    return "public" if is_public(route, method, op) else "page"


def is_public(route: Route, method: str, op: str | None) -> bool:
    from tdmanager import policy

    return route.admin or policy.is_public(route.name, method, op)


def with_query(path: str, pairs) -> str:
    return path + ("&" if "?" in path else "?") + urlencode(pairs)


def path_probes(route, method, role, op, room, body, kind, values, skip=()):
    """Each path parameter hostile: str and slug take every value; an int its id in fullwidth
    digits, with a NUL after it, 10,000 digits and 40."""
    for param, converter in route.params.items():
        if param in skip:
            continue
        if converter in ("str", "slug"):
            variants = {label: HOSTILE[label] for label in values}
        else:
            real = str(real_value(route, param, room, op))
            fullwidth = real.translate({ord(d): 0xFF10 + int(d) for d in "0123456789"})
            variants = {"fullwidth": fullwidth, "nul": real + "\x00", "long-digits": HOSTILE["long-digits"], "huge": HOSTILE["huge"]}
            variants = {k: v for k, v in variants.items() if k in values}
        for label, text in variants.items():
            path = build_path(route, room, op, (param, quote(text, safe="")))
            yield Probe(route, kind, "path", param, label, role, method, path, body)


def query_probes(route, method, role, base, names_here, all_names, body, kind, values):
    """Each name the route reads, one at a time, then every name read anywhere, at once."""
    for name in sorted(names_here):
        for label in values:
            yield Probe(route, kind, "query", name, label, role, method, with_query(base, [(name, HOSTILE[label])]), body)
    for label in values:
        yield Probe(route, kind, "query", "*", label, role, method, with_query(base, [(n, HOSTILE[label]) for n in all_names]), body)


_ID_SEGMENTS = {
    "tournament": "tournaments",
    "target": "tournaments",
    "source": "tournaments",
    "person": "people",
    "entry": "entries",
    "structure": "structures",
}


def an_id(name: str, room: Room) -> int:
    """The room's id for a field named like a relation (``tournament``, ``person_b``), else 1."""
    key = next((v for k, v in _ID_SEGMENTS.items() if name.startswith(k) or name.endswith(k)), None)
    return room.ids[key][0] if key else 1


def plausible_read(name: str, how: str, room: Room):
    """A value for a field a view reads with ``how`` (a helper of tournaments.formats.api, or a
    serializer field's class name)."""
    if how.endswith("_arg") or how in ("as_id", "IdField", "PrimaryKeyRelatedField"):
        return an_id(name, room)
    if how in ("as_int", "IntegerField", "WholeNumberField"):
        return an_id(name, room) if name in _ID_SEGMENTS else 1
    if how in ("as_money", "AmountField", "DecimalField"):
        return "10"
    if how in ("as_bool", "BooleanField"):
        return True
    if how in ("as_list", "ListField", "ListSerializer"):
        return []
    if how in ("as_datetime", "DateTimeField"):
        return "2030-01-01T20:00:00Z"
    if how == "DateField":
        return "2030-01-01"
    return "Probe"


def plausible(schema: Schema, name: str, node: dict, room: Room, depth: int = 0):
    """A value of the type the schema asks for, with the room's ids for relations."""
    node = schema.deref(node)
    if node.get("enum"):
        return next((v for v in node["enum"] if v is not None), None)
    kind = node.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    if kind == "integer":
        return an_id(name, room)
    if kind == "number":
        return 1
    if kind == "boolean":
        return True
    if kind == "array":
        item = plausible(schema, name.rstrip("s"), node.get("items", {}), room, depth + 1) if depth < 2 else None
        return [item] if item is not None else []
    if kind == "object" or "properties" in node:
        if depth >= 2:
            return {}
        return {k: plausible(schema, k, v, room, depth + 1) for k, v in node.get("properties", {}).items()}
    fmt = node.get("format", "")
    if fmt == "date-time":
        return "2030-01-01T20:00:00Z"
    if fmt == "date":
        return "2030-01-01"
    if fmt == "decimal" or "pattern" in node and "0-9" in node["pattern"]:
        return "10"
    return "Probe"


def serializer_fields(route: Route, room: Room) -> dict:
    """Field → a plausible value, for every field of the serializers the route's view reads its
    body with (``self.valid(EntryIn)``)."""
    from rest_framework import serializers

    callback = route.pattern.callback
    module = sys.modules.get(getattr(getattr(callback, "cls", callback), "__module__", ""), None)
    out = {}
    for name in set(re.findall(r"\b([A-Z]\w+)\b", view_source(route))):
        cls = getattr(module, name, None)
        if not (inspect.isclass(cls) and issubclass(cls, serializers.Serializer)):
            continue
        for field_name, declared in cls().fields.items():
            if declared.read_only:
                continue
            choices = list(getattr(declared, "choices", None) or [])
            out.setdefault(field_name, choices[0] if choices else plausible_read(field_name, type(declared).__name__, room))
    return out


def body_fields(route: Route, schema: Schema, operation, room: Room) -> tuple[str, dict, dict]:
    """(media type, field → plausible value, field → its schema node) of an API call's body: the
    schema's fields, then those of the serializers and helpers its view reads the body with
    (where the schema says only "an object")."""
    media, node = schema.body(operation) or ("application/json", {})
    nodes = {name: schema.deref(prop) for name, prop in node.get("properties", {}).items()}
    base = {name: plausible(schema, name, prop, room) for name, prop in nodes.items()}
    if media == "application/json":
        for name, value in serializer_fields(route, room).items():
            base.setdefault(name, value)
        for name, how in body_fields_read(route).items():
            base.setdefault(name, plausible_read(name, how, room))
    return media, base, nodes


def body_probes(route, method, role, path, schema, operation, room, kind, values):
    """Each field of the request body hostile (one level into lists of objects), the rest plausible."""
    media, base, nodes = body_fields(route, schema, operation, room)
    where = "json" if media == "application/json" else "multipart"
    for name in base:
        for label in values:
            yield Probe(route, kind, where, name, label, role, method, path, {**base, name: HOSTILE[label]})
        prop = nodes.get(name, {})
        items = schema.deref(prop.get("items", {})) if prop.get("type") == "array" else {}
        for sub in items.get("properties", {}):
            item = plausible(schema, sub, items, room)
            for label in values:
                yield Probe(route, kind, where, f"{name}[].{sub}", label, role, method, path, {**base, name: [{**item, sub: HOSTILE[label]}]})


def form_probes(route, method, role, form: Form, kind, values):
    """Each field of a form the pages offer (and its op) hostile, the rest as the form fills them."""
    filled = dict(form.fields)
    if form.op is not None:
        filled["op"] = form.op
    for name in sorted(set(filled) | form.files):
        for label in values:
            body = {**filled, name: HOSTILE[label]}
            yield Probe(route, kind, "form", name, label, role, method, form.path, body)


# --- bodies no route may take, files no field may take, dates out of range ------------------------


def thin_png() -> bytes:
    """A PNG whose header announces 1 × 16,777,216 pixels, every row there (~32 KB compressed)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    height = 16_777_216
    rows = zlib.compressobj(9)
    data = b"".join(rows.compress(b"\x00\x00" * (1 << 20)) for _ in range(height >> 20)) + rows.flush()  # filter 0, one grey byte
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, height, 8, 0, 0, 0, 0)) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


_THIN = []


def thin_image() -> bytes:
    if not _THIN:
        _THIN.append(thin_png())
    return _THIN[0]


def layout_file(png: bytes) -> dict:
    """An exported layout (``services.layouts.export_layout``'s format) whose one logo is ``png``."""
    import base64

    from tournaments.screens import services as screen_services

    return {
        "format": screen_services.FORMAT,
        "version": screen_services.VERSION,
        "name": "Probe thin",
        "portrait": False,
        "design": {"theme": {}, "blocks": [{"kind": "logo", "x": 0, "y": 0, "w": 4, "h": 4, "image": 1}]},
        "images": {"1": {"name": "thin", "png": base64.b64encode(png).decode()}},
    }


def nested_files(label: str) -> list[str]:
    """The deep files: as the brief of each says (never closed), then closed (valid JSON, as deep)."""
    if label == "nested-list":
        return ["[" * 100_000, "[" * 100_000 + "]" * 100_000]
    return ['{"a":' * 5_000, '{"a":' * 5_000 + "1" + "}" * 5_000]


def hostile_sheets() -> list[tuple[str, bytes]]:
    """Small sheets the sheets' reader refuses (``benchmarks/hostile_uploads.py`` makes the shapes,
    here each small enough for any file field's body limit)."""
    import hostile_uploads as hu

    small = hu.SHEET_HEAD + hu.SHEET_HEADER_ROW + b'<row r="2"><c r="A2" t="inlineStr"><is><t>Rossi</t></is></c></row>' + hu.SHEET_TAIL
    far = hu.SHEET_HEAD + hu.SHEET_HEADER_ROW + b'<row r="200000000"><c t="inlineStr"><is><t>x</t></is></c></row>' + hu.SHEET_TAIL
    return [
        ("inflating.xlsx", hu.xlsx_of([small, 8 * hu.MB], declared=small)),
        ("far-row.xlsx", hu.xlsx_of(far)),
        ("bad-bytes.csv", "\ufeffCognome;Nome\r\nRoss".encode() + b"\xff\xfe" + b"i;Anna\r\n"),
    ]


def route_limit(path: str) -> int | None:
    """The body limit of the route ``path`` resolves to (``tdmanager.bodylimits``)."""
    from django.urls import resolve

    from tdmanager import bodylimits

    name = resolve(urlsplit(path).path).url_name
    return bodylimits.limit(bodylimits.kind_of(name, urlsplit(path).path))


def multipart(fields: dict) -> bytes:
    from django.test.client import BOUNDARY, encode_multipart

    return encode_multipart(BOUNDARY, fields)  # the boundary MULTIPART_CONTENT names


def sized_body(content_type: str, size: int) -> bytes:
    """A well-formed body of this type, exactly ``size`` bytes."""
    if content_type == "application/json":
        return b'{"a": "' + b"x" * (size - 9) + b'"}'
    if content_type.startswith("multipart/"):
        empty = len(multipart({"a": ""}))
        return multipart({"a": "x" * (size - empty)})
    return b"a=" + b"x" * (size - 2)


def body_type(route: Route, schema: Schema, operation, forms) -> str:
    """The content type a client sends this route: the schema's for the API, a page's form's."""
    from django.test.client import MULTIPART_CONTENT

    if route.template.startswith("api/"):
        media = (schema.body(operation) or ("application/json",))[0]
        return MULTIPART_CONTENT if media.startswith("multipart/") else media
    return MULTIPART_CONTENT if any(form.files for form in forms.get(route.name, [])) else "application/x-www-form-urlencoded"


def small_body(content_type: str, op: str | None) -> bytes:
    if content_type == "application/json":
        return b"{}"
    if content_type.startswith("multipart/"):
        return multipart({"op": op or "probe"})
    return urlencode({"op": op or "probe"}).encode()


def size_probes(route, schema, room, roles, values, forms):
    """Per method that takes a body: a declared length of 2,000,000,000 with a few bytes sent, as
    each role (and anonymous); a body one byte over the route's limit, as the director only."""
    from django.test.client import MULTIPART_CONTENT

    seen = set()
    for method, op, operation in calls(route, schema):
        if method in ("GET", "HEAD", "OPTIONS") or method in seen:
            continue
        seen.add(method)
        kind = kind_of(route, method, op)
        path = build_path(route, room, op)
        content_type = body_type(route, schema, operation, forms)
        sent = content_type if not content_type.startswith("multipart/") else MULTIPART_CONTENT
        if "declared-huge" in values:
            who = {r for m, o, _op in calls(route, schema) if m == method for r in permitted(route, m, o)}
            for role in (r for r in (*ROLES, ANONYMOUS) if r in who and r in roles):
                yield Probe(route, kind, "declared", "Content-Length", "declared-huge", role, method, path,
                            raw=small_body(content_type, op), content_type=sent, meta={"CONTENT_LENGTH": str(DECLARED)}, expect="413")  # fmt: skip
        most = route_limit(path)
        if "over-limit" in values and most is not None and "director" in roles:
            yield Probe(route, kind, "over-limit", f"{most + 1:,} bytes", "over-limit", "director", method, path,
                        raw=sized_body(content_type, most + 1), content_type=sent, expect="413")  # fmt: skip


def file_probes(route, method, role, path, schema, operation, room, kind, values):
    """An API call's file fields (multipart binary; a JSON ``file`` holding a layout file): the
    long-thin image, the deep files."""
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test.client import MULTIPART_CONTENT

    media, base, nodes = body_fields(route, schema, operation, room)
    binary = [n for n, node in nodes.items() if node.get("format") == "binary"] if media.startswith("multipart/") else []
    from tdmanager import bodylimits

    # a JSON field holding a file: the layout import's (its route takes layout files)
    takes_layout = bodylimits.ROUTES.get(route.name) == bodylimits.LAYOUT
    layout = ["file"] if media == "application/json" and takes_layout and "file" in nodes else []
    for name in binary:
        others = {k: v for k, v in base.items() if k not in binary}
        if "thin-image" in values:
            raw = multipart({**others, name: SimpleUploadedFile("thin.png", thin_image(), "image/png")})
            expect = "too_large" if name == "image" else "4xx"  # another file (a structure's) refuses it as no file of its kind
            yield Probe(route, kind, "file", name, "thin-image", role, method, path, raw=raw, content_type=MULTIPART_CONTENT, expect=expect)
        for label in ("nested-list", "nested-object"):
            for text in nested_files(label) if label in values else ():
                raw = multipart({**others, name: SimpleUploadedFile("deep.json", text.encode(), "application/json")})
                yield Probe(route, kind, "file", name, label, role, method, path, raw=raw, content_type=MULTIPART_CONTENT, expect="4xx")
        for filename, data in hostile_sheets() if "hostile-sheets" in values else ():
            raw = multipart({**others, name: SimpleUploadedFile(filename, data, "application/octet-stream")})
            yield Probe(
                route, kind, "file", f"{name} ({filename})", "hostile-sheets", role, method, path, raw=raw, content_type=MULTIPART_CONTENT, expect="4xx"
            )
    for name in layout:
        others = {k: v for k, v in base.items() if k != name}
        if "thin-image" in values:
            raw = json.dumps({**others, name: layout_file(thin_image())}).encode()
            yield Probe(route, kind, "file", name, "thin-image", role, method, path, raw=raw, content_type="application/json", expect="too_large")
        for label in ("nested-list", "nested-object"):
            for text in nested_files(label) if label in values else ():
                raw = (json.dumps(others)[:-1] + (", " if others else "") + f'"{name}": {text}}}').encode()
                yield Probe(route, kind, "file", name, label, role, method, path, raw=raw, content_type="application/json", expect="4xx")


def form_file_probes(route, method, role, form: Form, kind, values):
    """Each file field of a page's form: the long-thin image (inside a layout file where the route
    takes layout files), the deep files; the page refuses (an error, or a 4xx)."""
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test.client import MULTIPART_CONTENT

    from tdmanager import bodylimits

    filled = {**form.fields, **({"op": form.op} if form.op is not None else {})}
    takes_layout = bodylimits.ROUTES.get(route.name) == bodylimits.LAYOUT
    for name in sorted(form.files):
        if "thin-image" in values:
            png = thin_image()
            upload = (
                SimpleUploadedFile("thin.json", json.dumps(layout_file(png)).encode(), "application/json")
                if takes_layout and name == "file"
                else SimpleUploadedFile("thin.png", png, "image/png")
            )
            expect = "too_large" if name == "image" or (takes_layout and name == "file") else "refused"
            raw = multipart({**filled, name: upload})
            yield Probe(route, kind, "form file", name, "thin-image", role, method, form.path, raw=raw, content_type=MULTIPART_CONTENT, expect=expect)
        for label in ("nested-list", "nested-object"):
            for text in nested_files(label) if label in values else ():
                raw = multipart({**filled, name: SimpleUploadedFile("deep.json", text.encode(), "application/json")})
                yield Probe(route, kind, "form file", name, label, role, method, form.path, raw=raw, content_type=MULTIPART_CONTENT, expect="refused")
        for filename, data in hostile_sheets() if "hostile-sheets" in values else ():
            raw = multipart({**filled, name: SimpleUploadedFile(filename, data, "application/octet-stream")})
            yield Probe(
                route,
                kind,
                "form file",
                f"{name} ({filename})",
                "hostile-sheets",
                role,
                method,
                form.path,
                raw=raw,
                content_type=MULTIPART_CONTENT,
                expect="refused",
            )


def date_query_probes(route, method, role, base, names_here, all_names, schema, operation, body, kind, values):
    """Each query parameter named like a date, or the schema gives a date format: years 9999, 0001
    (a 4xx where the schema declares a date); then every name like a date any view reads, at once
    (a helper of the view may read one its own source does not name)."""
    formats = schema.query_formats(operation)
    names = sorted({n for n in names_here if DATE_NAME.search(n)} | {n for n, f in formats.items() if f in ("date", "date-time")})
    for name in names:
        declared = formats.get(name) in ("date", "date-time")
        for label in (v for v in YEARS if v in values):
            day, moment = YEARS[label]
            text = moment + "Z" if formats.get(name) == "date-time" else day
            yield Probe(
                route, kind, "date query", name, label, role, method, with_query(base, [(name, text)]), body, expect="4xx" if declared and kind == "api" else ""
            )
    everywhere = [n for n in all_names if DATE_NAME.search(n)]
    for label in (v for v in YEARS if v in values) if everywhere else ():
        yield Probe(route, kind, "date query", "*", label, role, method, with_query(base, [(n, YEARS[label][0]) for n in everywhere]), body)


def _is_date(value, node: dict) -> str | None:
    """The kind of date a body field is ("date", "date-time"; None: none), by its schema's format
    or the plausible value given to a field read as a date."""
    if node.get("format") in ("date", "date-time"):
        return node["format"]
    if value == "2030-01-01T20:00:00Z":
        return "date-time"
    return "date" if value == "2030-01-01" else None


def date_body_probes(route, method, role, path, schema, operation, room, kind, values):
    """Each date field of an API call's body (one level into lists of objects): years 9999, 0001, a 4xx."""
    media, base, nodes = body_fields(route, schema, operation, room)
    if media != "application/json":
        return
    labels = [v for v in YEARS if v in values]
    for name, value in base.items():
        prop = nodes.get(name, {})
        what = _is_date(value, prop)
        for label in labels if what else ():
            day, moment = YEARS[label]
            text = moment + "Z" if what == "date-time" else day
            yield Probe(route, kind, "date body", name, label, role, method, path, {**base, name: text}, expect="4xx")
        items = schema.deref(prop.get("items", {})) if prop.get("type") == "array" else {}
        for sub, sub_node in items.get("properties", {}).items():
            item = plausible(schema, sub, items, room)
            what = _is_date(item.get(sub), schema.deref(sub_node))
            for label in labels if what else ():
                day, moment = YEARS[label]
                text = moment + "Z" if what == "date-time" else day
                yield Probe(route, kind, "date body", f"{name}[].{sub}", label, role, method, path, {**base, name: [{**item, sub: text}]}, expect="4xx")


def date_form_probes(route, method, role, form: Form, kind, values):
    """Each date or datetime-local field of a page's form: years 9999, 0001 (no 5xx)."""
    filled = {**form.fields, **({"op": form.op} if form.op is not None else {})}
    for name, what in sorted(form.dates.items()):
        for label in (v for v in YEARS if v in values):
            day, moment = YEARS[label]
            body = {**filled, name: day if what == "date" else moment[:16]}
            yield Probe(route, kind, "date form", name, label, role, method, form.path, body)


# --- sending and checking --------------------------------------------------------------------------


@dataclass
class Tally:
    requests: int = 0
    statuses: Counter = field(default_factory=Counter)
    rows: dict = field(default_factory=lambda: defaultdict(Counter))  # (kind, where) → counts
    server_errors: list = field(default_factory=list)
    bad_shapes: list = field(default_factory=list)
    unexpected: Counter = field(default_factory=Counter)  # an answer not the one expected (not a 5xx) → how often
    accepted: Counter = field(default_factory=Counter)  # a year 9999 or 0001 answered 2xx (by route and field) → how often
    echoes: Counter = field(default_factory=Counter)  # where a raw U+202E or NUL came back → how often
    routes: set = field(default_factory=set)
    roles: Counter = field(default_factory=Counter)


class Clients:
    """One test client per role, logged in (a logout route logs it out: it logs in again)."""

    def __init__(self, room: Room):
        from django.test import Client

        self.room, self.clients = room, {}
        for role in (*ROLES, ANONYMOUS):
            self.clients[role] = Client(raise_request_exception=False, SERVER_NAME="127.0.0.1")  # a host ALLOWED_HOSTS names
            self.login(role)

    def login(self, role: str):
        if role != ANONYMOUS:
            self.clients[role].force_login(self.room.users[role])

    def __getitem__(self, role):
        return self.clients[role]


def rolled_back(send):
    """Run ``send()`` in a transaction rolled back afterwards; services nest in it as in the
    suite's tests (a durable block inside is allowed, as inside Django's ``TestCase``)."""
    from django.db import transaction

    outer = transaction.atomic()
    outer._from_testcase = True
    with outer:
        response = send()
        transaction.set_rollback(True)
    return response


def send(clients: Clients, probe: Probe):
    from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart

    client = clients[probe.role]
    accept = {"HTTP_ACCEPT": "application/json"} if probe.kind == "api" else {}
    if probe.raw is not None:
        call = lambda: client.generic(probe.method, probe.path, probe.raw, content_type=probe.content_type, **accept, **probe.meta)
    elif probe.body is None:
        call = lambda: client.generic(probe.method, probe.path, **accept)
    elif probe.where in ("json", "date body") or (probe.kind == "api" and probe.where in ("path", "query", "date query")):
        data = json.dumps(probe.body, ensure_ascii=False).encode()
        call = lambda: client.generic(probe.method, probe.path, data, content_type="application/json", **accept)
    elif probe.where == "multipart":
        data = encode_multipart(BOUNDARY, {k: _as_file(k, v) for k, v in probe.body.items()})
        call = lambda: client.generic(probe.method, probe.path, data, content_type=MULTIPART_CONTENT, **accept)
    else:
        data = urlencode(probe.body, doseq=True)
        call = lambda: client.generic(probe.method, probe.path, data, content_type="application/x-www-form-urlencoded", **accept)
    if probe.expect == "refused":  # a page that keeps the upload and shows its reading on the next page: that page
        sent = call
        call = lambda: _followed(client, sent())
    response = rolled_back(call)
    if probe.route.name == "logout" and probe.role != ANONYMOUS:
        clients.login(probe.role)
    return response


def _followed(client, response):
    """The page a form's answer sends to (in the same transaction: what it kept is still there),
    unless it is the login page or another site."""
    location = response.get("Location", "") if 300 <= response.status_code < 400 else ""
    if not location.startswith("/") or location.startswith("/login"):
        return response
    return client.get(location)


def _as_file(name, value):
    from django.core.files.uploadedfile import SimpleUploadedFile

    if name == "file" and isinstance(value, str):
        return SimpleUploadedFile("probe.csv", ("kind,small_blind,big_blind\nLEVEL,%s,200\n" % value).encode())
    return value if isinstance(value, str) else json.dumps(value)


def body_text(response) -> str:
    if getattr(response, "streaming", False):
        response.close()
        return ""
    return response.content.decode("utf-8", "replace")


def is_error_shape(response, text: str) -> bool:
    if not response.get("Content-Type", "").startswith("application/json"):
        return False
    try:
        body = json.loads(text)
    except ValueError:
        return False
    return isinstance(body, dict) and {"code", "detail"} <= set(body)


def echoed_names(node, raw: str, key: str = "") -> list[str]:
    """The name fields of a JSON answer that carry ``raw``."""
    if isinstance(node, dict):
        return [hit for k, v in node.items() for hit in echoed_names(v, raw, str(k))]
    if isinstance(node, list):
        return [hit for v in node for hit in echoed_names(v, raw, key)]
    return [key] if isinstance(node, str) and "name" in key and raw in node else []


def echoes(response, text: str, probe: Probe) -> str | None:
    """Where a raw U+202E or NUL sent comes back: an HTML page, or a JSON name field."""
    raw = ECHOED.get(probe.value)
    if raw is None or raw not in text:
        return None
    kind = response.get("Content-Type", "")
    if kind.startswith("text/html"):
        return "html"
    if kind.startswith("application/json"):
        try:
            hits = echoed_names(json.loads(text), raw)
        except ValueError:
            return None
        return "json " + ",".join(sorted(set(hits))) if hits else None
    return None


def describe(probe: Probe, response=None) -> str:
    path = probe.path if len(probe.path) < 160 else probe.path[:150] + f"…({len(probe.path)} chars)"
    out = f"{probe.role:10} {probe.method:6} {path}  [{probe.route.name}; {probe.where} {probe.field}={probe.value}]"
    exc = getattr(response, "exc_info", None)
    if exc:
        import traceback

        frames = traceback.extract_tb(exc[2])[-3:]
        out += "".join(f"\n    {Path(f.filename).name}:{f.lineno} {f.name}: {f.line}" for f in frames)
        out += f"\n    {exc[0].__name__}: {str(exc[1])[:300]}"
    return out


def page_error(response) -> str | None:
    """The error a page queued for the next page (its message), None when it queued none."""
    storage = getattr(getattr(response, "wsgi_request", None), "_messages", None)
    errors = [str(m) for m in getattr(storage, "_queued_messages", []) if m.level_tag == "error"]
    return errors[0] if errors else None


def refused(response, text: str, probe: Probe) -> str | None:
    """Why the answer is not the refusal ``probe.expect`` asks for (None: it is)."""
    status = response.status_code
    if probe.expect == "413":
        return None if status == 413 else f"{status}"
    if probe.kind == "api":
        if not 400 <= status < 500:
            return f"{status}"
        if probe.expect == "too_large" and status != 401 and status != 403:
            try:
                code = json.loads(text).get("code")
            except (ValueError, AttributeError):
                code = None
            return None if status == 400 and code == "too_large" else f"{status} {code}"
        return None
    if 400 <= status < 500:
        return None
    location = response.get("Location", "")
    if 300 <= status < 400 and "/login" in location:
        return None  # not let in: the input never reached the view
    message = page_error(response)
    if message is None:
        return f"{status} {location}".strip()
    if probe.expect == "too_large" and not ("4096" in message or "32" in message):
        return f"{status} error {message[:80]!r}"
    return None


def record(tally: Tally, probe: Probe, response) -> str:
    """Count one answer; returns its HTML body ("" otherwise) for the form discovery."""
    status = response.status_code
    text = body_text(response)
    tally.requests += 1
    tally.statuses[status] += 1
    tally.routes.add(probe.route.name)
    tally.roles[probe.role] += 1
    row = tally.rows[(probe.kind, probe.where)]
    row["requests"] += 1
    row[f"{status // 100}xx"] += 1
    if status >= 500:
        tally.server_errors.append(describe(probe, response))
        print(f"5xx {status}: {tally.server_errors[-1]}", flush=True)
    if probe.expect and status < 500:
        why = refused(response, text, probe)
        if why is not None:
            row["unexpected"] += 1
            tally.unexpected[f"{probe.route.name} {probe.method} ({probe.where} {probe.field}={probe.value}, expected {probe.expect}) → {why}"] += 1
    if probe.value in YEARS and 200 <= status < 300 and probe.field != "*":
        tally.accepted[f"{probe.route.name} {probe.method} {probe.role if probe.role == ANONYMOUS else 'staff'} ({probe.where} {probe.field})"] += 1
    if probe.path.startswith("/api/") and 400 <= status < 500 and not is_error_shape(response, text):
        row["bad shape"] += 1
        tally.bad_shapes.append(f"{status} {describe(probe)}: {response.get('Content-Type')} {text[:120]!r}")
    echo = echoes(response, text, probe)
    if echo:
        row["echoes"] += 1
        tally.echoes[f"{probe.route.name} ({probe.where} {probe.field}) → {echo}"] += 1
    return text if response.get("Content-Type", "").startswith("text/html") and status == 200 else ""


# --- the run -------------------------------------------------------------------------------------


def plan(routes, room, schema, all_names, roles, values, forms):
    """Every probe, route by route: each call the policy decides, as each role it lets in."""
    hostile = [v for v in values if v in HOSTILE]
    for route in routes:
        names_here = {"next"} if route.admin else {"q"} | view_query_names(route)
        for i, (method, op, operation) in enumerate(calls(route, schema)):
            base = build_path(route, room, op)
            kind = kind_of(route, method, op)
            body = {} if method != "GET" and kind == "api" else None
            skip = ("op",) if i and "op" in route.params else ()  # a hostile op replaces the op: once per route
            for role in (r for r in permitted(route, method, op) if r in roles):
                yield Probe(route, kind, "baseline", "", "", role, method, base, body)
                yield from path_probes(route, method, role, op, room, body, kind, hostile, skip)
                query_here = names_here | set(schema.query_names(operation))
                yield from query_probes(route, method, role, base, query_here, all_names, body, kind, hostile)
                yield from date_query_probes(route, method, role, base, query_here, all_names, schema, operation, body, kind, values)
                if kind == "api" and method != "GET" and (role != ANONYMOUS or is_public(route, method, op)):
                    yield from body_probes(route, method, role, base, schema, operation, room, kind, hostile)
                    yield from date_body_probes(route, method, role, base, schema, operation, room, kind, values)
                    yield from file_probes(route, method, role, base, schema, operation, room, kind, values)
        for form in forms.get(route.name, []):
            for role in (r for r in permitted(route, "POST", form.op) if r in roles and (r != ANONYMOUS or is_public(route, "POST", form.op))):
                form_kind = kind_of(route, "POST", form.op)
                yield from form_probes(route, "POST", role, form, form_kind, hostile)
                yield from date_form_probes(route, "POST", role, form, form_kind, values)
                yield from form_file_probes(route, "POST", role, form, form_kind, values)
        yield from size_probes(route, schema, room, roles, values, forms)
        yield from push_probes(route, room, roles, values)


def push_probes(route, room, roles, values):
    """The phone's subscription (a JSON body outside the API's schema) to each bad endpoint: a 4xx."""
    if "push-endpoints" not in values or route.name != "phone-push" or ANONYMOUS not in roles:
        return
    path = build_path(route, room)
    keys = {"p256dh": "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM", "auth": "tBHItJI5svbpez7KI4CCXg"}
    for endpoint in BAD_ENDPOINTS:
        raw = json.dumps({"endpoint": endpoint, "keys": keys, "kinds": []}).encode()
        yield Probe(route, "public", "push", "endpoint", "push-endpoints", ANONYMOUS, "POST", path,
                    raw=raw, content_type="application/json", expect="4xx")  # fmt: skip


def discover_forms(routes, room, clients, roles) -> dict:
    """The POST forms the pages show each role: route name → forms (one per address and op)."""
    from django.urls import Resolver404, resolve

    found = defaultdict(dict)
    for route in routes:
        if route.template.startswith("api/") or all(method != "GET" for method, _op, _operation in calls(route, None)):
            continue
        path = build_path(route, room)
        for role in (r for r in permitted(route, "GET", None) if r in roles):
            response = rolled_back(lambda: clients[role].get(path))
            html = body_text(response)
            if response.status_code != 200 or not response.get("Content-Type", "").startswith("text/html"):
                continue
            for form in forms_on(path, html):
                try:
                    match = resolve(urlsplit(form.path).path)
                except Resolver404:
                    continue
                name = f"{match.namespace}:{match.url_name}" if match.namespace else match.url_name
                found[name].setdefault((form.path, form.op), form)
    return {name: list(by_address.values()) for name, by_address in found.items()}


def print_plan(probes):
    per_route = Counter(probe.route.name for probe in probes)
    for name, n in per_route.most_common():
        print(f"{n:8,} {name}")
    print(f"{sum(per_route.values()):8,} requests over {len(per_route)} routes")


def print_summary(tally: Tally, seconds: float, database: str):
    print(f"\nRoute probe on {database}: {tally.requests:,} requests over {len(tally.routes)} routes, {seconds:.0f} s")
    print("  roles: " + ", ".join(f"{r} {n:,}" for r, n in sorted(tally.roles.items())))
    print("  statuses: " + ", ".join(f"{s}: {n:,}" for s, n in sorted(tally.statuses.items())))
    columns = ("requests", "2xx", "3xx", "4xx", "5xx", "bad shape", "echoes", "unexpected")
    print(f"\n  {'kind':8} {'where':10} " + " ".join(f"{c:>10}" for c in columns))
    for (kind, where), row in sorted(tally.rows.items()):
        print(f"  {kind:8} {where:10} " + " ".join(f"{row[c]:>10,}" for c in columns))
    total = Counter()
    for row in tally.rows.values():
        total.update(row)
    print(f"  {'total':8} {'':10} " + " ".join(f"{total[c]:>10,}" for c in columns))
    echoed = sum(tally.echoes.values())
    print(
        f"\n  5xx: {len(tally.server_errors)}; API 4xx not {{code, detail}}: {len(tally.bad_shapes)}; raw U+202E/NUL echoed: {echoed};"
        f" not the refusal expected (reported, not failed): {sum(tally.unexpected.values())}"
    )
    if tally.server_errors:
        print("\n5xx:")
        for line in tally.server_errors[:200]:
            print("  " + line)
    if tally.bad_shapes:
        print("\nAPI 4xx not {code, detail}:")
        for line in sorted(set(tally.bad_shapes))[:100]:
            print("  " + line)
    if tally.unexpected:
        print("\nNot the refusal expected (413 for a body over its limit; 400 too_large for the thin image; a 4xx, or a page's error): answers")
        for line, n in sorted(tally.unexpected.items()):
            print(f"  {line}: {n}")
    if tally.accepted:
        print("\nA year 9999 or 0001 answered 2xx (reported: a page's 200 may be its form shown again with the error; a query a view ignores): answers")
        for line, n in sorted(tally.accepted.items()):
            print(f"  {line}: {n}")
    if tally.echoes:
        print("\nA raw U+202E or NUL sent came back (reported, not failed): route (where sent) → where it came back, answers")
        for line, n in sorted(tally.echoes.items()):
            print(f"  {line}: {n}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", default="postgres", help="postgres (tdm_probe on 127.0.0.1), a postgres:// URL, or sqlite")
    parser.add_argument("--routes", default="", help="only the route names matching this regular expression")
    parser.add_argument("--roles", default=",".join((*ROLES, ANONYMOUS)), help="comma-separated roles (anonymous included)")
    parser.add_argument("--values", default=",".join((*HOSTILE, *SPECIAL)), help="comma-separated keys of HOSTILE and SPECIAL")
    parser.add_argument("--count", action="store_true", help="count the requests the probe would send, per route, and stop")
    args = parser.parse_args()
    roles, values = args.roles.split(","), args.values.split(",")
    unknown = [v for v in values if v not in HOSTILE and v not in SPECIAL]
    if unknown:
        parser.error(f"unknown --values {', '.join(unknown)}: choose among {', '.join((*HOSTILE, *SPECIAL))}")

    configure(args.database)
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections, connection

    request_started.disconnect(close_old_connections)  # every request runs in the probe's own transaction
    request_finished.disconnect(close_old_connections)
    room = build_room()
    schema = Schema()
    clients = Clients(room)
    routes = [r for r in walk_routes() if re.search(args.routes, r.name)]
    started = time.monotonic()
    forms = discover_forms(routes, room, clients, roles)
    if args.count:
        return print_plan(plan(routes, room, schema, every_query_name(schema), roles, values, forms))
    tally = Tally()
    for probe in plan(routes, room, schema, every_query_name(schema), roles, values, forms):
        record(tally, probe, send(clients, probe))
        if tally.requests % 5000 == 0:
            print(f"  … {tally.requests:,} requests, {len(tally.server_errors)} 5xx", flush=True)
    print_summary(tally, time.monotonic() - started, f"{connection.vendor} ({connection.settings_dict['NAME']})")
    if tally.server_errors or tally.bad_shapes:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
