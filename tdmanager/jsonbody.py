"""JSON read from outside with a bounded depth: the API's parser (every endpoint, the token
endpoint included) and the structure files a director imports.

Python's parser recurses once per ``[`` or ``{``: a body of 1,000 ``[`` raised RecursionError, a
500. Nothing the product reads is nested deeper than a few levels, so a document deeper than
``MAX_DEPTH`` is refused as a parse error (400 ``parse_error`` under the API).
"""

import codecs

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser, get_encoding
from rest_framework.utils import json

from .errors import ValidationFailed

MAX_DEPTH = 32


class TooDeep(ValueError):
    """The document nests arrays or objects deeper than ``MAX_DEPTH``."""

    def __init__(self):
        super().__init__(_("The JSON is nested deeper than %(n)d levels.") % {"n": MAX_DEPTH})


def _depth_exceeds(data, limit: int) -> bool:
    """Whether ``data`` holds lists or dicts nested deeper than ``limit`` (walked without recursion)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            value = value.values()
        elif not isinstance(value, list):
            continue
        if depth > limit:
            return True
        stack.extend((v, depth + 1) for v in value if isinstance(v, (list, dict)))
    return False


def loads(text, *, parse_constant=None):
    """``json.loads`` that raises ``TooDeep`` (a ValueError) past ``MAX_DEPTH`` levels, never
    RecursionError. A document with fewer brackets than that cannot be too deep: it is not walked."""
    if isinstance(text, bytes):
        brackets = text.count(b"[") + text.count(b"{")
    else:
        brackets = text.count("[") + text.count("{")
    try:
        data = json.loads(text, parse_constant=parse_constant)
    except RecursionError:
        raise TooDeep() from None
    if brackets > MAX_DEPTH and _depth_exceeds(data, MAX_DEPTH):
        raise TooDeep()
    return data


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser with the depth bounded (``DEFAULT_PARSER_CLASSES`` and the token
    endpoint), for bodies that are JSON objects: every request body of the API is one (the schema
    says so), so a list, a string, a number or ``null`` is refused here, 400 ``bad_body``."""

    def parse(self, stream, media_type=None, parser_context=None):
        encoding = get_encoding(parser_context or {})
        try:
            text = codecs.getreader(encoding)(stream).read()
            data = loads(text, parse_constant=json.strict_constant if self.strict else None)
        except TooDeep as exc:
            raise ParseError(str(exc)) from None
        except ValueError as exc:
            raise ParseError("JSON parse error - %s" % exc) from None
        if not isinstance(data, dict):
            raise ValidationFailed("bad_body", _("The body must be a JSON object."))
        return data
