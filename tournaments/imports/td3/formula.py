"""TD3's points-for-playing formulas: its small language read and evaluated, nothing run.

The language, as TD3's cheat sheet ("Points for Playing Formula") and manual ("Formulas")
define it:

- numbers with a period for the decimal point (``.3``, ``12``, ``1.55``), text in quotation
  marks (a variable's name for ``assign``, a profile's or a rake's name; ``stateDesc`` and
  ``gameName`` compare with it, exactly);
- the operators ``+ - * / %``, the comparisons ``= == is != < > <= >=`` (1 for true, 0 for
  false), ``and &&``, ``or ||``, ``not !``; the documentation gives no precedence, so the usual
  one: unary ``- + not !`` first, then ``* / %``, ``+ -``, ``< > <= >=``, ``= == is !=``,
  ``and``, ``or``, each left to right; ``and``/``or`` and ``if`` evaluate only what decides;
- statements, each ended by a semicolon or by the end of its line (a line ending with an
  operator, a comma or an open parenthesis goes on); a parenthesised group may hold several,
  separated by semicolons; the value of a formula or group is its last statement's;
- the functions of the cheat sheet (``FUNCTIONS``) and its variables with their aliases
  (``VARIABLES``, ``ALIASES``); names of functions and variables in any case (``IF``,
  ``Round``, ``numberofHits`` are TD3's own spellings in saved leagues).

Arithmetic is JavaScript's, as in TD3: floating point, ``round`` halves up, a division by zero
infinite. Reading is bounded (the text's length, the nesting) and so is evaluating (steps, the
length of lists); a name that is neither a variable, an alias, a function, nor assigned in the
formula is refused with its line and column, before anything is evaluated.

``points(text, variables)`` evaluates a formula; ``variables_for(event, player)`` gives TD3's
variables for a player of an event as ``model`` reads it, at the end of the event.
"""

from __future__ import annotations

import functools
import math
import random
import re
from decimal import Decimal

from tournaments.imports.td3.reader import translated as _
from tournaments.imports.td3.variables import PROFILES_KEY, RAKES_KEY, VARIABLES, variables_for

__all__ = ["FUNCTIONS", "VARIABLES", "FormulaError", "compile_formula", "points", "variables_for"]

MAX_LENGTH = 20_000
MAX_DEPTH = 60
MAX_STEPS = 100_000
MAX_LIST = 10_000

#: Any spelling, lower-cased, to its variable's canonical name.
ALIASES: dict[str, str] = {name.lower(): name for name in VARIABLES} | {alias.lower(): name for name, aliases in VARIABLES.items() for alias in aliases}


class FormulaError(ValueError):
    """A formula refused: ``message`` says why, ``line`` and ``column`` where (from 1)."""

    def __init__(self, message: str, text: str = "", offset: int = 0):
        self.message = message
        self.offset = offset
        self.line = text.count("\n", 0, offset) + 1
        self.column = offset - (text.rfind("\n", 0, offset) + 1) + 1
        self.position = (self.line, self.column)
        super().__init__(_("%(message)s (line %(line)d, column %(column)d)") % {"message": message, "line": self.line, "column": self.column})


# --- reading

_TOKEN = re.compile(
    r"""(?P<space>[ \t\r\f\v\u00a0]+)
      | (?P<newline>\n)
      | (?P<number>(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))
      | (?P<string>"[^"\n]*"|'[^'\n]*'|[\u201c][^\u201d\n]*[\u201d])
      | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
      | (?P<op>==|!=|<=|>=|&&|\|\||[-+*/%=<>!(),;])
      | (?P<other>.)""",
    re.VERBOSE,
)
_WORD_OPERATORS = {"and": "and", "or": "or", "not": "not", "is": "="}
_SYMBOLS = {"&&": "and", "||": "or", "!": "not", "==": "="}
_BINARY = (("or",), ("and",), ("=", "!="), ("<", ">", "<=", ">="), ("+", "-"), ("*", "/", "%"))
_CONTINUES = {"+", "-", "*", "/", "%", "=", "!=", "<", ">", "<=", ">=", "and", "or", "not", "(", ","}


class Formula:
    """A formula read once, evaluated for each player: ``evaluate(variables)``."""

    def __init__(self, text: str, tree: tuple, assigned: frozenset[str], names: frozenset[str]):
        self.text = text
        self.tree = tree
        self.assigned = assigned
        #: The variables it reads: the cheat sheet's canonical spelling, its own in lower case.
        self.names = names

    def evaluate(self, variables: dict, max_steps: int = MAX_STEPS, rng: random.Random | None = None):
        return _Evaluation(self, variables, max_steps, rng or random.Random()).run()


def compile_formula(text: str, known: set[str] | frozenset[str] = frozenset()) -> Formula:
    """Read ``text``; ``known`` adds names of variables beyond the cheat sheet's (a stats
    formula's ``listPoints``). Refused with its position: a name no one knows, a bad token, a
    formula too long or nested too deep."""
    if not isinstance(text, str):
        raise FormulaError(_("A formula is text."))
    if len(text) > MAX_LENGTH:
        raise FormulaError(_("The formula is longer than %(count)d characters.") % {"count": MAX_LENGTH}, text, MAX_LENGTH)
    tokens = _tokens(text)
    parser = _Parser(text, tokens)
    tree = parser.formula()
    extra = {name.lower() for name in known}
    for name, offset in parser.names:
        if name not in ALIASES and name not in parser.assigned and name not in extra:
            if name in FUNCTIONS:
                raise FormulaError(_("“%(name)s” is a function: write it with its arguments in parentheses.") % {"name": name}, text, offset)
            raise FormulaError(
                _("Unknown name “%(name)s”: neither a variable of TD3 nor one the formula assigns.") % {"name": text[offset : offset + len(name)]}, text, offset
            )
    return Formula(text, tree, frozenset(parser.assigned), frozenset(ALIASES.get(name, name) for name, _offset in parser.names))


def points(formula_text: str, variables: dict, max_steps: int = MAX_STEPS, rng: random.Random | None = None) -> Decimal:
    """The formula's value for ``variables`` (names of the cheat sheet or aliases, any case;
    one it does not give counts 0, as in TD3's test dialog), as a Decimal of the float TD3
    computes. A formula giving no number (text, a list, not-a-number) is refused."""
    if not formula_text or not formula_text.strip():
        return Decimal(0)  # no formula: no points for playing, as in TD3
    known = frozenset(name for name in variables if not name.startswith("@"))
    value = _compiled(formula_text, known).evaluate(variables, max_steps, rng)
    if isinstance(value, bool):
        value = float(value)
    if not isinstance(value, int | float) or value != value or value in (math.inf, -math.inf):
        raise FormulaError(_("The formula gives no number (%(value)s).") % {"value": _shown(value)}, formula_text, 0)
    return Decimal(repr(float(value))).normalize() if value != int(value) else Decimal(int(value))


@functools.lru_cache(maxsize=64)
def _compiled(text: str, known: frozenset[str]) -> Formula:
    """A league's formula is the same for every player of every event: read once."""
    return compile_formula(text, known)


def _tokens(text: str) -> list[tuple[str, object, int]]:
    """(kind, value, offset) tokens; a line break is a ``;`` where a statement may end there."""
    tokens = []
    depth = 0
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        value = match.group()
        offset = match.start()
        if kind == "space":
            continue
        if kind == "newline":
            if depth == 0 and tokens and not (tokens[-1][0] == "op" and (tokens[-1][1] in _CONTINUES or tokens[-1][1] == ";")):
                tokens.append(("op", ";", offset))
            continue
        if kind == "other":
            if value in "\"'\u201c":
                raise FormulaError(_("A text in quotation marks is not closed on its line."), text, offset)
            raise FormulaError(_("Unexpected “%(token)s” in the formula.") % {"token": value}, text, offset)
        if kind == "number":
            tokens.append(("number", float(value), offset))
        elif kind == "string":
            tokens.append(("string", value[1:-1], offset))
        elif kind == "name":
            word = value.lower()
            if word in _WORD_OPERATORS:
                tokens.append(("op", _WORD_OPERATORS[word], offset))
            else:
                tokens.append(("name", word, offset))
        else:
            if value == "(":
                depth += 1
            elif value == ")":
                depth = max(0, depth - 1)
            tokens.append(("op", _SYMBOLS.get(value, value), offset))
    tokens.append(("end", None, len(text)))
    return tokens


class _Parser:
    """Recursive descent over the tokens into tuples: ``(kind, value-or-operator, ..., offset)``."""

    def __init__(self, text: str, tokens: list):
        self.text = text
        self.tokens = tokens
        self.at = 0
        self.depth = 0
        self.names: list[tuple[str, int]] = []
        self.assigned: set[str] = set()

    def fail(self, message: str, offset: int | None = None):
        raise FormulaError(message, self.text, self.tokens[self.at][2] if offset is None else offset)

    def peek(self):
        return self.tokens[self.at]

    def take(self):
        token = self.tokens[self.at]
        self.at += 1
        return token

    def expect(self, op: str):
        token = self.take()
        if token[0] != "op" or token[1] != op:
            self.at -= 1
            self._unexpected(_("Expected “%(expected)s”") % {"expected": op})
        return token

    def _unexpected(self, lead: str):
        kind, value, offset = self.peek()
        if kind == "end":
            self.fail(_("%(lead)s, but the formula ends.") % {"lead": lead})
        shown = self.text[offset : offset + 20].split("\n")[0]
        self.fail(_("%(lead)s, found “%(token)s”.") % {"lead": lead, "token": shown})

    def formula(self):
        statements = self.statements(top=True)
        if self.peek()[0] != "end":
            self._unexpected(_("Expected an operator or the end of the statement"))
        if not statements:
            self.fail(_("The formula is empty."), 0)
        return statements[0] if len(statements) == 1 else ("seq", None, statements, statements[0][-1])

    def statements(self, top: bool) -> list:
        statements = []
        while True:
            while self.peek()[:2] == ("op", ";"):
                self.take()
            kind, value, _offset = self.peek()
            if kind == "end" or (not top and (kind, value) == ("op", ")")):
                return statements
            statements.append(self.expression())
            kind, value, _offset = self.peek()
            if (kind, value) != ("op", ";") and kind != "end" and (top or (kind, value) != ("op", ")")):
                self._unexpected(_("Expected an operator or the end of the statement"))

    def expression(self, level: int = 0):
        """Operators of one precedence level, left to right, as one ``chain`` node (evaluated
        in a loop, so a long sum does not nest)."""
        if level == len(_BINARY):
            return self.unary()
        operators = _BINARY[level]
        first = self.expression(level + 1)
        rest = []
        while True:
            kind, op, offset = self.peek()
            if kind != "op" or op not in operators:
                return ("chain", None, first, rest, first[-1]) if rest else first
            self.take()
            rest.append((op, self.expression(level + 1), offset))

    def unary(self):
        kind, op, offset = self.peek()
        if kind == "op" and op in ("-", "+", "not"):
            self.take()
            self._enter(offset)
            operand = self.unary()
            self.depth -= 1
            return ("un", op, operand, offset)
        return self.primary()

    def _enter(self, offset: int):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.fail(_("The formula nests deeper than %(depth)d levels.") % {"depth": MAX_DEPTH}, offset)

    def primary(self):
        kind, value, offset = self.take()
        if kind == "number":
            return ("num", value, offset)
        if kind == "string":
            return ("str", value, offset)
        if kind == "op" and value == "(":
            self._enter(offset)
            statements = self.statements(top=False)
            self.expect(")")
            self.depth -= 1
            if not statements:
                self.fail(_("Empty parentheses hold no value."), offset)
            return statements[0] if len(statements) == 1 else ("seq", None, statements, offset)
        if kind == "name":
            if self.peek()[:2] == ("op", "("):
                return self.call(value, offset)
            self.names.append((value, offset))
            return ("var", ALIASES.get(value, value), offset)
        self.at -= 1
        self._unexpected(_("Expected a number, a name or “(”"))

    def call(self, name: str, offset: int):
        function = FUNCTIONS.get(name)
        if function is None:
            shown = self.text[offset : offset + len(name)]
            if name in ALIASES:
                self.fail(_("“%(name)s” is a variable, not a function.") % {"name": shown}, offset)
            self.fail(_("Unknown function “%(name)s”.") % {"name": shown}, offset)
        self.expect("(")
        self._enter(offset)
        args = []
        if self.peek()[:2] != ("op", ")"):
            while True:
                args.append(self.expression())
                if self.peek()[:2] == ("op", ","):
                    self.take()
                    continue
                break
        self.expect(")")
        self.depth -= 1
        low, high = function[1], function[2]
        if len(args) < low or (high is not None and len(args) > high):
            if high == low:
                expected = str(low)
            elif high is None:
                expected = _("at least %(count)d") % {"count": low}
            else:
                expected = _("%(low)d to %(high)d") % {"low": low, "high": high}
            self.fail(_("“%(name)s” takes %(expected)s arguments, not %(count)d.") % {"name": name, "expected": expected, "count": len(args)}, offset)
        if name == "assign":
            if args[0][0] != "str":
                self.fail(_('“assign” names its variable in quotation marks: assign("points", 10).'), args[0][-1])
            variable = args[0][1].lower()
            if not re.fullmatch(r"[a-z_][a-z0-9_]*", variable):
                self.fail(_("“%(name)s” cannot be a variable's name.") % {"name": args[0][1]}, args[0][-1])
            self.assigned.add(variable)
            args[0] = ("str", ALIASES.get(variable, variable), args[0][-1])
        return ("call", name, args, offset)


# --- evaluating


class _Evaluation:
    def __init__(self, formula: Formula, variables: dict, max_steps: int, rng: random.Random):
        self.formula = formula
        self.steps = max_steps
        self.max_steps = max_steps
        self.rng = rng
        self.values = {}
        for name, value in variables.items():
            if name.startswith("@"):
                self.values[name] = value
            else:
                self.values[ALIASES.get(name.lower(), name.lower())] = value

    def fail(self, message: str, offset: int):
        raise FormulaError(message, self.formula.text, offset)

    def run(self):
        return self.eval(self.formula.tree)

    def eval(self, node):
        self.steps -= 1
        if self.steps < 0:
            self.fail(_("The formula takes more than %(steps)d steps: refused.") % {"steps": self.max_steps}, node[-1])
        kind = node[0]
        if kind == "num" or kind == "str":
            return node[1]
        if kind == "var":
            name = node[1]
            if name in self.values:
                return _value(self.values[name])
            if name in VARIABLES:
                return 0.0
            shown = self.formula.text[node[-1] : node[-1] + len(name)]
            self.fail(_("“%(name)s” is read before the formula assigns it.") % {"name": shown}, node[-1])
        if kind == "chain":
            value = self.eval(node[2])
            for op, operand, offset in node[3]:
                value = self.binary(op, value, operand, offset)
            return value
        if kind == "un":
            value = self.eval(node[2])
            if node[1] == "not":
                return 0.0 if _truth(value) else 1.0
            number = self.number(value, node[-1])
            return -number if node[1] == "-" else number
        if kind == "seq":
            value = 0.0
            for statement in node[2]:
                value = self.eval(statement)
            return value
        return FUNCTIONS[node[1]][0](self, node[2], node[-1])

    def number(self, value, offset: int) -> float:
        if isinstance(value, bool):
            return float(value)
        if isinstance(value, int | float):
            return float(value)
        if isinstance(value, Decimal):
            return float(value)
        self.fail(_("A number is needed here, not %(value)s.") % {"value": _shown(value)}, offset)

    def binary(self, op: str, left, right_node, offset: int):
        if op == "and":
            return 1.0 if _truth(left) and _truth(self.eval(right_node)) else 0.0
        if op == "or":
            return 1.0 if _truth(left) or _truth(self.eval(right_node)) else 0.0
        right = self.eval(right_node)
        if op in ("=", "!="):
            if isinstance(left, str) or isinstance(right, str):
                same = isinstance(left, str) and isinstance(right, str) and left == right
            else:
                same = self.number(left, offset) == self.number(right, offset)
            return 1.0 if same == (op == "=") else 0.0
        if op in ("<", ">", "<=", ">="):
            if isinstance(left, str) and isinstance(right, str):
                a, b = left, right
            else:
                a, b = self.number(left, offset), self.number(right, offset)
            result = a < b if op == "<" else a > b if op == ">" else a <= b if op == "<=" else a >= b
            return 1.0 if result else 0.0
        a, b = self.number(left, offset), self.number(right, offset)
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if op == "/":
            if b == 0:
                return math.nan if a == 0 or a != a else math.copysign(math.inf, a) * math.copysign(1, b)
            return a / b
        if b == 0 or a in (math.inf, -math.inf):
            return math.nan
        return math.fmod(a, b)  # JavaScript's %: the sign of the dividend

    def args(self, nodes) -> list:
        return [self.eval(n) for n in nodes]

    def numbers(self, nodes, offset: int) -> list[float]:
        """The arguments as numbers, lists spread (``sum(1, top(2, x))``)."""
        result = []
        for value in self.args(nodes):
            for item in value if isinstance(value, list) else (value,):
                result.append(self.number(item, offset))
        return result

    def make_list(self, items: list, offset: int) -> list:
        if len(items) > MAX_LIST:
            self.fail(_("A list longer than %(count)d items: refused.") % {"count": MAX_LIST}, offset)
        return items


def _value(value):
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | Decimal):
        return float(value)
    if isinstance(value, list | tuple):
        return [_value(v) for v in value]
    if value is None:
        return 0.0
    if isinstance(value, float | str):
        return value
    return float(value)


def _truth(value) -> bool:
    if isinstance(value, str):
        return value != ""
    if isinstance(value, list):
        return bool(value)
    return bool(value) and value == value


def _shown(value) -> str:
    if isinstance(value, str):
        return f"“{value[:30]}”"
    if isinstance(value, list):
        return _("a list")
    return repr(value)


def _js_round(x: float) -> float:
    """JavaScript's ``Math.round``: the nearest integer, halves up (2.5 → 3, -2.5 → -2)."""
    if x != x or x in (math.inf, -math.inf):
        return x
    return float(math.floor(x + 0.5))


def _math(function):
    """A one-number function with JavaScript's answers where Python raises."""

    def call(ev: _Evaluation, nodes, offset):
        x = ev.number(ev.eval(nodes[0]), offset)
        try:
            return function(x)
        except OverflowError:
            return math.inf
        except ValueError:
            return math.nan

    return call


def _log(x: float) -> float:
    if x == 0:
        return -math.inf
    return math.log(x) if x > 0 else math.nan


def _f_log(ev, nodes, offset):
    x = _log(ev.number(ev.eval(nodes[0]), offset))
    if len(nodes) > 1:
        base = _log(ev.number(ev.eval(nodes[1]), offset))
        return x / base if base else (math.nan if x == 0 else math.copysign(math.inf, x))
    return x


def _f_pow(ev, nodes, offset):
    base, exponent = ev.number(ev.eval(nodes[0]), offset), ev.number(ev.eval(nodes[1]), offset)
    try:
        return math.pow(base, exponent)
    except OverflowError:
        return math.inf
    except (ValueError, ZeroDivisionError):
        return math.inf if base == 0 else math.nan


def _f_round(ev, nodes, offset):
    x = ev.number(ev.eval(nodes[0]), offset)
    places = ev.number(ev.eval(nodes[1]), offset) if len(nodes) > 1 else 0.0
    if not places:
        return _js_round(x)
    scale = 10.0 ** max(-300, min(300, int(places)))
    return _js_round(x * scale) / scale


def _nearest(how):
    def call(ev: _Evaluation, nodes, offset):
        x, step = ev.number(ev.eval(nodes[0]), offset), ev.number(ev.eval(nodes[1]), offset)
        if not step:
            return x
        q = x / step
        if q != q or q in (math.inf, -math.inf):
            return q
        return how(q) * step

    return call


def _f_if(ev, nodes, offset):
    if _truth(ev.eval(nodes[0])):
        return ev.eval(nodes[1])
    return ev.eval(nodes[2]) if len(nodes) > 2 else 0.0


def _f_switch(ev, nodes, offset):
    value = ev.eval(nodes[0])
    pairs = nodes[1:]
    for index in range(0, len(pairs) - 1, 2):
        candidate = ev.eval(pairs[index])
        if _equal(value, candidate):
            return ev.eval(pairs[index + 1])
    return ev.eval(pairs[-1]) if len(pairs) % 2 else 0.0


def _f_lswitch(ev, nodes, offset):
    """The choice-th result (from 1); any other choice, the last one."""
    choice = ev.number(ev.eval(nodes[0]), offset)
    results = nodes[1:]
    if choice in range(1, len(results) + 1):
        return ev.eval(results[int(choice) - 1])
    return ev.eval(results[-1])


def _equal(a, b) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    if isinstance(a, list) or isinstance(b, list):
        return a == b
    return float(a) == float(b)


def _f_assign(ev, nodes, offset):
    value = ev.eval(nodes[1])
    ev.values[nodes[0][1]] = value
    return value


def _f_sum(ev, nodes, offset):
    return math.fsum(ev.numbers(nodes, offset))


def _f_product(ev, nodes, offset):
    result = 1.0
    for x in ev.numbers(nodes, offset):
        result *= x
    return result


def _f_average(ev, nodes, offset):
    values = ev.numbers(nodes, offset)
    return math.fsum(values) / len(values) if values else 0.0


def _f_count(ev, nodes, offset):
    return float(len(ev.numbers(nodes, offset)))


def _pick(highest: bool):
    """``top``/``bottom``: the ``count`` highest (lowest) values, in the order given."""

    def call(ev: _Evaluation, nodes, offset):
        count = ev.number(ev.eval(nodes[0]), offset)
        values = ev.numbers(nodes[1:], offset)
        count = 0 if count != count or count < 0 else min(len(values), int(count))
        order = sorted(range(len(values)), key=lambda i: values[i], reverse=highest)[:count]
        return ev.make_list([values[i] for i in sorted(order)], offset)

    return call


def _f_oneof(ev, nodes, offset):
    value = ev.eval(nodes[0])
    for candidate in ev.args(nodes[1:]):
        for item in candidate if isinstance(candidate, list) else (candidate,):
            if _equal(value, item):
                return 1.0
    return 0.0


def _f_index(ev, nodes, offset):
    values = ev.eval(nodes[0])
    at = ev.number(ev.eval(nodes[1]), offset)
    if not isinstance(values, list):
        values = [values]
    if at != at or at < 0 or at != int(at) or at >= len(values):
        return 0.0
    return values[int(at)]


def _f_triangle(ev, nodes, offset):
    x = ev.number(ev.eval(nodes[0]), offset)
    return x * (x + 1) / 2


def _f_set_list_length(ev, nodes, offset):
    values = ev.eval(nodes[0])
    values = list(values) if isinstance(values, list) else [values]
    length = ev.number(ev.eval(nodes[1]), offset)
    length = 0 if length != length or length < 0 else length
    if length > MAX_LIST:
        ev.fail(_("A list longer than %(count)d items: refused.") % {"count": MAX_LIST}, offset)
    length = int(length)
    return ev.make_list(values[:length] + [0.0] * (length - len(values)), offset)


def _f_random(ev, nodes, offset):
    return ev.rng.random()


def _f_total_for_rake(ev, nodes, offset):
    rakes = ev.values.get(RAKES_KEY) or {}
    name = ev.eval(nodes[0]) if nodes else ""
    if not isinstance(name, str):
        ev.fail(_("A rake is named in quotation marks."), nodes[0][-1])
    if not name:
        return float(sum((Decimal(str(v)) for v in rakes.values()), Decimal(0)))
    for key, value in rakes.items():
        if key.lower() == name.lower():
            return float(value)
    ev.fail(_("No rake is named “%(name)s” in this event.") % {"name": name}, nodes[0][-1])


def _profile_function(kind: str, attribute: str):
    """``buyinProfileFee("name")`` and its kin: a fee profile's value, the default one unnamed."""

    def call(ev: _Evaluation, nodes, offset):
        names = ev.args(nodes)
        if any(not isinstance(n, str) for n in names):
            ev.fail(_("A profile and a rake are named in quotation marks."), offset)
        profiles = (ev.values.get(PROFILES_KEY) or {}).get(kind, {})
        name = names[0] if names else ""
        profile = profiles.get(name) if name else profiles.get("", None)
        if profile is None and name:
            profile = next((p for key, p in profiles.items() if key.lower() == name.lower()), None)
        if profile is None:
            if not name:
                return 0.0
            ev.fail(_("No profile is named “%(name)s” in this event.") % {"name": name}, nodes[0][-1])
        value = profile.get(attribute, 0)
        if attribute == "rake":
            rake_name = names[1] if len(names) > 1 else ""
            rakes = value if isinstance(value, dict) else {"": value}
            if rake_name:
                match = next((v for key, v in rakes.items() if key.lower() == rake_name.lower()), None)
                if match is None:
                    ev.fail(_("No rake is named “%(name)s” in this event.") % {"name": rake_name}, nodes[1][-1])
                return float(match)
            return float(sum((Decimal(str(v)) for v in rakes.values()), Decimal(0)))
        return float(value)

    return call


#: Every function of the cheat sheet, lower-cased: (implementation, fewest, most arguments).
FUNCTIONS: dict[str, tuple] = {
    "abs": (_math(abs), 1, 1),
    "acos": (_math(math.acos), 1, 1),
    "asin": (_math(math.asin), 1, 1),
    "atan": (_math(math.atan), 1, 1),
    "ceil": (_math(lambda x: float(math.ceil(x)) if abs(x) != math.inf and x == x else x), 1, 1),
    "cos": (_math(math.cos), 1, 1),
    "exp": (_math(math.exp), 1, 1),
    "floor": (_math(lambda x: float(math.floor(x)) if abs(x) != math.inf and x == x else x), 1, 1),
    "log": (_f_log, 1, 2),
    "ln": (_f_log, 1, 2),
    "log10": (_math(lambda x: _log(x) / math.log(10)), 1, 1),
    "max": (lambda ev, nodes, offset: max(ev.numbers(nodes, offset), default=-math.inf), 1, None),
    "min": (lambda ev, nodes, offset: min(ev.numbers(nodes, offset), default=math.inf), 1, None),
    "pow": (_f_pow, 2, 2),
    "power": (_f_pow, 2, 2),
    "random": (_f_random, 0, 0),
    "round": (_f_round, 1, 2),
    "roundtonearest": (_nearest(_js_round), 2, 2),
    "rounduptonearest": (_nearest(math.ceil), 2, 2),
    "rounddowntonearest": (_nearest(math.floor), 2, 2),
    "sin": (_math(math.sin), 1, 1),
    "sqrt": (_math(math.sqrt), 1, 1),
    "tan": (_math(math.tan), 1, 1),
    "if": (_f_if, 2, 3),
    "switch": (_f_switch, 2, None),
    "lswitch": (_f_lswitch, 2, None),
    "assign": (_f_assign, 2, 2),
    "sum": (_f_sum, 0, None),
    "product": (_f_product, 0, None),
    "average": (_f_average, 0, None),
    "count": (_f_count, 0, None),
    "top": (_pick(True), 1, None),
    "bottom": (_pick(False), 1, None),
    "oneof": (_f_oneof, 1, None),
    "index": (_f_index, 2, 2),
    "triangle": (_f_triangle, 1, 1),
    "setlistlength": (_f_set_list_length, 2, 2),
    "totalforrake": (_f_total_for_rake, 0, 1),
    **{
        f"{kind}profile{attribute}": (_profile_function(kind, attribute), 0, 2 if attribute == "rake" else 1)
        for kind in ("buyin", "rebuy", "addon")
        for attribute in ("fee", "rake", "chips", "points")
    },
}
