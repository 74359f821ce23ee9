"""Reading a TD3 save file: one JavaScript literal turned into plain Python, nothing run.

TD3 saves a tournament as the text of a JavaScript value: ``{ V: "3.7.2", T: new
Tournament({...}) }``. The value is made of object literals (bare or quoted keys), strings in
double or single quotes with JavaScript's escapes, numbers, ``true``/``false``/``null``/
``undefined``, arrays, constructor calls ``new Name({...})`` or ``new Name(arg, ...)`` (dotted
names such as ``LO.Cell`` too) and maps, written ``Map.from([[key, value], ...])`` since 3.7 and
``new Map({key: value, ...})`` in 3.0. That small language is all this module accepts: a
tokenizer (one regular expression) and a recursive-descent parser with a bound on the nesting
and on the size, so a hostile or broken file is refused with the line and column where reading
stopped, and never evaluated.

What comes out: dicts for object literals and maps (in the file's order), lists for arrays,
``Obj(kind, fields)`` for a constructor call (``fields`` a dict when the call's one argument is
an object literal, else the list of its arguments), str, int, float, bool and None (``null``
and ``undefined`` alike).
"""

from __future__ import annotations

import re
from operator import length_hint

from django.conf import settings
from django.utils.translation import gettext

#: Files larger than this are refused before reading (TD3's own are a few hundred kilobytes).
MAX_SIZE = 32 * 1024 * 1024
#: Nesting deeper than this is refused (TD3's own files nest up to twenty-five deep).
MAX_DEPTH = 100

# One token per match, whitespace between tokens skipped. A name or a string followed by a colon
# is one token (an object's key: a third of the file), which halves the work of reading it. A
# string may not hold a raw line break (JavaScript's rule), so a file cut inside a string stops
# at that line; any character beginning no token is a token of its own, refused by the parser.
_STRING = r""""[^"\\\n\r]*(?:\\(?:\r\n|[\s\S])[^"\\\n\r]*)*"|'[^'\\\n\r]*(?:\\(?:\r\n|[\s\S])[^'\\\n\r]*)*'"""
_TOKEN = re.compile(
    r"[{}\[\](),:]"
    r"|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\s*:)?"
    rf"|(?:{_STRING})(?:\s*:)?"
    r"|-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
    r"|\S"
)
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*\Z")
_CLASS_NAME = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\Z")
_ESCAPE = re.compile(r"\\(?:u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(0)(?![0-9])|(\r\n|[\s\S]))")
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "\n": "", "\r": "", "\r\n": "", "\u2028": "", "\u2029": ""}
_CONSTANTS = {"true": True, "false": False, "null": None, "undefined": None, "NaN": float("nan"), "Infinity": float("inf")}


def translated(message: str) -> str:
    """``message`` in the reader's language when Django is set up (the product), else as
    written (a script reading files on its own)."""
    return gettext(message) if settings.configured else message


_ = translated


class Td3FormatError(ValueError):
    """The file is not a TD3 save file, or not a whole one: ``message`` says what was expected,
    ``position`` where: (line, column), both from 1; ``offset`` is the character's, from 0."""

    def __init__(self, message: str, position: tuple[int, int] = (1, 1), offset: int = 0):
        self.message = message
        self.position = position
        self.line, self.column = position
        self.offset = offset
        super().__init__(_("%(message)s (line %(line)d, column %(column)d)") % {"message": message, "line": self.line, "column": self.column})


class Obj:
    """A constructor call of the save file, ``new kind(...)``: TD3's class name and its fields."""

    __slots__ = ("kind", "fields")

    def __init__(self, kind: str, fields: dict | list):
        self.kind = kind
        self.fields = fields

    def get(self, key, default=None):
        """The named field, or ``default`` (also when the call had positional arguments)."""
        return self.fields.get(key, default) if type(self.fields) is dict else default

    def __getitem__(self, key):
        return self.fields[key]

    def __contains__(self, key):
        return type(self.fields) is dict and key in self.fields

    def __eq__(self, other):
        return isinstance(other, Obj) and other.kind == self.kind and other.fields == self.fields

    __hash__ = None

    def __repr__(self):
        return f"Obj({self.kind!r}, {self.fields!r})"


def position_of(text: str, offset: int) -> tuple[int, int]:
    """(line, column) of a character offset, both counted from 1."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _error(message: str, text: str, offset: int) -> Td3FormatError:
    return Td3FormatError(message, position_of(text, offset), offset)


def decode(data: bytes | str, max_size: int = MAX_SIZE) -> str:
    """The file's text. TD3 3.7 writes UTF-8, 3.4 the Windows code page (Western: "Jörgen" as
    one byte ``f6``), so UTF-8 is tried first, then Windows-1252; a leading byte-order mark is
    dropped. A file with a NUL byte, or fitting neither, is no text."""
    if len(data) > max_size:
        raise Td3FormatError(_("The file is larger than %(size)d MB: not a TD3 save file.") % {"size": max_size // (1024 * 1024)})
    if isinstance(data, str):
        return data[1:] if data.startswith("\ufeff") else data
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    nul = data.find(b"\0")
    if nul < 0:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            try:
                return data.decode("cp1252")
            except UnicodeDecodeError as error:
                nul = error.start
    text = data[:nul].decode("cp1252", "replace")
    raise _error(_("The file is not text (a byte that no text holds): not a TD3 save file."), text, len(text))


def parse(data: bytes | str, max_depth: int = MAX_DEPTH, max_size: int = MAX_SIZE):
    """The JavaScript literal of ``data`` as plain Python; ``Td3FormatError`` when it is not one."""
    return _Parser(decode(data, max_size), max_depth).document()


def load(data: bytes | str, max_depth: int = MAX_DEPTH, max_size: int = MAX_SIZE) -> dict:
    """A TD3 save file's top object, ``{"V": version, "T": Obj("Tournament", ...), ...}``, checked
    to be one: a CSV, a picture, an empty file or another program's JavaScript is refused."""
    text = decode(data, max_size)
    first = _TOKEN.search(text)
    if first is None:
        raise Td3FormatError(_("The file is empty: not a TD3 save file."))
    if first.group() != "{":
        raise _error(
            _("A TD3 save file begins with “{”, this one with “%(found)s”: not a TD3 save file.") % {"found": _shown(first.group())}, text, first.start()
        )
    top = _Parser(text, max_depth).document()
    tournament = top.get("T")
    if not isinstance(top.get("V"), str) or not isinstance(tournament, Obj) or tournament.kind != "Tournament" or type(tournament.fields) is not dict:
        raise _error(_("The file holds no TD3 tournament (its version “V” and tournament “T”): not a TD3 save file."), text, first.start())
    return top


class _Parser:
    """One pass over the tokens; each ``_value`` receives its first token already read. The
    tokens end with an empty one, the end of the text."""

    def __init__(self, text: str, max_depth: int):
        self.text = text
        self.tokens = _TOKEN.findall(text)
        self.tokens.append("")
        self.max_depth = max_depth
        self.classes = set()
        self.it = iter(self.tokens)
        self.next = self.it.__next__

    def document(self):
        value = self._value(self.next(), 0)
        token = self.next()
        if token != "":
            self._fail(_("Unexpected “%(token)s” after the end of the save file's value."), token, cut=False)
        return value

    # --- errors

    def _fail(self, message: str, token: str, cut: bool = True, **params):
        """Refuse at the token read last; ``message`` may name it as ``%(token)s``, and
        ``params`` by their names. A token refused at the very end of the text (half a word, an
        open string) is a file cut short."""
        index = len(self.tokens) - length_hint(self.it) - 1
        offset = len(self.text)
        for n, match in enumerate(_TOKEN.finditer(self.text)):
            if n == index:
                offset = match.start()
                break
        rest = self.text[offset:]
        if token == "" or (cut and (index == len(self.tokens) - 2 or token in ('"', "'")) and "\n" not in rest and "\r" not in rest):
            message = _("The file ends too soon: it is cut short.")
        raise _error(message % {"token": _shown(token), **params}, self.text, offset)

    def _expected(self, what: str, token: str):
        if token[:1] in "\"'" and token and (len(token) == 1 or token[-1] not in "\"':"):
            self._fail(_("A string is not closed on its line."), token)
        self._fail(_("Expected %(what)s, found “%(token)s”."), token, what=what)

    # --- values

    def _value(self, token: str, depth: int):
        first = token[:1]
        if first == '"' or first == "'":
            if len(token) < 2 or token[-1] != first:
                self._expected(_("a value"), token)
            body = token[1:-1]
            return _unescape(self, token, body) if "\\" in body else body
        if first == "{":
            return self._object(depth + 1)
        if first == "[":
            return self._array(depth + 1)
        if first == "-" or first == "." or "0" <= first <= "9":
            try:
                return int(token)
            except ValueError:
                if len(token) == 1:
                    self._expected(_("a value"), token)
                return float(token)
        if token in _CONSTANTS:
            return _CONSTANTS[token]
        if token == "new":
            return self._new(depth + 1)
        if token == "Map.from":
            return self._map_from(depth + 1)
        if first.isalpha() or first == "_" or first == "$":
            if token[-1] == ":":
                self._expected(_("a value"), token)
            self._fail(_("Unknown name “%(token)s”: a TD3 save file names only its own classes."), token)
        self._expected(_("a value"), token)

    def _deeper(self, depth: int, token: str):
        self._fail(_("The values nest deeper than %(depth)d levels: not a TD3 save file."), token, depth=self.max_depth)

    def _object(self, depth: int) -> dict:
        if depth > self.max_depth:
            self._deeper(depth, "{")
        nxt = self.next
        value = self._value
        result = {}
        token = nxt()
        while token != "}":
            if token[-1:] == ":":
                key = token[:-1].rstrip()
                if key[:1] == '"' or key[:1] == "'":
                    key = self._key(key)
                elif "." in key:
                    self._expected(_("a key"), token)
            else:
                key = self._key(token)
                token = nxt()
                if token != ":":
                    self._expected("“:”", token)
            token = nxt()
            # The commonest values (a plain string, a whole number, true or false) are read
            # here, the rest by ``_value``: a fifth of the time of a file.
            if token[:1] == '"' and token[-1] == '"' and len(token) > 1 and "\\" not in token:
                result[key] = token[1:-1]
            elif token in _CONSTANTS:
                result[key] = _CONSTANTS[token]
            elif token.isdigit() and token.isascii():
                result[key] = int(token)
            else:
                result[key] = value(token, depth)
            token = nxt()
            if token == ",":
                token = nxt()
            elif token != "}":
                self._expected(_("“,” or “}”"), token)
        return result

    def _key(self, token: str) -> str:
        """A key written apart from its colon, or a quoted one: a string, a name or a number."""
        first = token[:1]
        if first == '"' or first == "'":
            if len(token) < 2 or token[-1] != first:
                self._expected(_("a key"), token)
            key = token[1:-1]
            return _unescape(self, token, key) if "\\" in key else key
        if _IDENTIFIER.match(token):
            return token
        if "0" <= first <= "9":
            try:
                return str(int(token))
            except ValueError:
                pass
        self._expected(_("a key or “}”"), token)

    def _array(self, depth: int) -> list:
        if depth > self.max_depth:
            self._deeper(depth, "[")
        return self._items("]", depth)

    def _items(self, closer: str, depth: int) -> list:
        nxt = self.next
        value = self._value
        result = []
        token = nxt()
        while token != closer:
            result.append(value(token, depth))
            token = nxt()
            if token == ",":
                token = nxt()
            elif token != closer:
                self._expected(_("“,” or “%(closer)s”") % {"closer": closer}, token)
        return result

    def _new(self, depth: int):
        if depth > self.max_depth:
            self._deeper(depth, "new")
        name = self.next()
        if name not in self.classes:
            if not _CLASS_NAME.match(name) or name in _CONSTANTS or name == "new":
                self._expected(_("a class name after “new”"), name)
            self.classes.add(name)
        token = self.next()
        if token != "(":
            self._expected("“(”", token)
        args = self._items(")", depth)
        if name == "Map":
            return self._map_of(args)
        if len(args) == 1 and type(args[0]) is dict:
            return Obj(name, args[0])
        return Obj(name, args)

    def _map_from(self, depth: int) -> dict:
        if depth > self.max_depth:
            self._deeper(depth, "Map.from")
        token = self.next()
        if token != "(":
            self._expected("“(”", token)
        args = self._items(")", depth)
        if len(args) != 1 or type(args[0]) is not list:
            self._fail(_("“Map.from” takes one list of [key, value] pairs."), ")")
        return self._map_of(args)

    def _map_of(self, args: list) -> dict:
        """A map's entries: ``new Map({...})`` (3.0), ``new Map([[k, v], ...])`` or ``Map.from``."""
        if not args:
            return {}
        if len(args) == 1 and type(args[0]) is dict:
            return args[0]
        if len(args) == 1 and type(args[0]) is list:
            result = {}
            for pair in args[0]:
                if type(pair) is not list or len(pair) != 2 or not isinstance(pair[0], str | int | float | bool | None):
                    self._fail(_("A map's entries are [key, value] pairs with a text or number key."), ")")
                result[pair[0]] = pair[1]
            return result
        self._fail(_("A map is made from one object or one list of [key, value] pairs."), ")")


def _shown(token: str) -> str:
    """A token as a message quotes it: shortened, and a character that prints as nothing named."""
    token = token if len(token) <= 30 else token[:27] + "…"
    return "".join(char if char.isprintable() else f"U+{ord(char):04X}" for char in token)


def _unescape(parser: _Parser, token: str, body: str) -> str:
    def one(match: re.Match) -> str:
        code_point, unit, byte, zero, other = match.groups()
        if code_point is not None:
            number = int(code_point, 16)
            if number > 0x10FFFF:
                parser._fail(_("A string holds an escape that is no character: “%(token)s”."), token)
            return chr(number)
        if unit is not None:
            return chr(int(unit, 16))
        if byte is not None:
            return chr(int(byte, 16))
        if zero is not None:
            return "\0"
        if other in "ux":
            parser._fail(_("A string holds an escape that is not complete: “%(token)s”."), token)
        return _SIMPLE_ESCAPES.get(other, other)

    text = _ESCAPE.sub(one, body)
    if any("\ud800" <= char <= "\udfff" for char in text):
        # JavaScript strings are UTF-16: a character beyond the basic plane comes as two escapes.
        text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return text
