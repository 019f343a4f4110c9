"""A small arithmetic evaluator for calculation answers.

Deck files come from strangers, so an answer such as ``params * precision`` is parsed with
``ast`` and walked by hand: only numbers, the calculation's own names, ``+ - * / // % **``,
parentheses, unary signs and a few named functions are allowed. Nothing is ever passed to
``eval``. Arithmetic is done in floats, which cannot grow without bound, and every result must
be finite.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Mapping

MAX_EXPRESSION_LENGTH = 500
MAX_EXPONENT = 64


class CalcError(Exception):
    """An expression uses something outside plain arithmetic, or cannot be computed."""


def _round(x: float, ndigits: float = 0) -> float:
    if ndigits != int(ndigits) or not -20 <= ndigits <= 20:
        raise CalcError("round() takes a whole number of digits between -20 and 20")
    return float(round(x, int(ndigits)))


def _log2(x: float) -> float:
    if x <= 0:
        raise CalcError("log2 of a number that is not positive")
    return math.log2(x)


def _sqrt(x: float) -> float:
    if x < 0:
        raise CalcError("sqrt of a negative number")
    return math.sqrt(x)


FUNCTIONS: dict[str, tuple[Callable[..., float], int, int]] = {
    # name: (function, fewest arguments, most arguments)
    "min": (lambda *xs: min(xs), 1, 16),  # min(x) of one number is that number
    "max": (lambda *xs: max(xs), 1, 16),
    "abs": (abs, 1, 1),
    "round": (_round, 1, 2),
    "ceil": (lambda x: float(math.ceil(x)), 1, 1),
    "floor": (lambda x: float(math.floor(x)), 1, 1),
    "sqrt": (_sqrt, 1, 1),
    "log2": (_log2, 1, 1),
}

_BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: float(a // b),
    ast.Mod: lambda a, b: a % b,
}


_NOT_ALLOWED = {
    "IfExp": "if/else",
    "Compare": "a comparison",
    "BoolOp": "and/or",
    "Attribute": "attribute access (a.b)",
    "Subscript": "indexing (a[b])",
    "Lambda": "lambda",
    "ListComp": "a comprehension",
    "SetComp": "a comprehension",
    "DictComp": "a comprehension",
    "GeneratorExp": "a comprehension",
    "List": "a list",
    "Tuple": "a tuple",
    "Set": "a set",
    "Dict": "a dict",
    "Starred": "unpacking (*a)",
    "NamedExpr": "assignment (:=)",
    "JoinedStr": "an f-string",
    "Await": "await",
    "Yield": "yield",
    "YieldFrom": "yield",
}


def parse(expression: str) -> ast.Expression:
    """Parse and check an expression; raises CalcError naming the first thing not allowed."""
    if len(expression) > MAX_EXPRESSION_LENGTH:
        raise CalcError(f"expression longer than {MAX_EXPRESSION_LENGTH} characters")
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except SyntaxError as exc:
        raise CalcError(f"not an arithmetic expression ({exc.msg})") from None
    except (RecursionError, MemoryError, ValueError):
        raise CalcError("expression nested too deeply") from None
    for node in ast.walk(tree):
        _check(node)
    return tree


def _check(node: ast.AST) -> None:
    match node:
        case ast.Expression() | ast.Load():
            return
        case ast.Constant(value=value):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise CalcError(f"only numbers are allowed, not {value!r}")
        case ast.Name():
            return
        case ast.BinOp(op=op):
            if type(op) not in _BINARY and not isinstance(op, ast.Pow):
                raise CalcError(f"operator {type(op).__name__} is not allowed")
        case ast.UnaryOp(op=op):
            if not isinstance(op, (ast.UAdd, ast.USub)):
                raise CalcError(f"operator {type(op).__name__} is not allowed")
        case ast.Call(func=ast.Name(id=name), args=args, keywords=keywords):
            if name not in FUNCTIONS:
                allowed = ", ".join(sorted(FUNCTIONS))
                raise CalcError(f"unknown function {name!r}; allowed: {allowed}")
            if keywords:
                raise CalcError(f"{name}() takes no keyword arguments")
            _, low, high = FUNCTIONS[name]
            if not low <= len(args) <= high:
                raise CalcError(f"{name}() takes {low} to {high} arguments, got {len(args)}")
        case ast.Call():
            allowed = ", ".join(f"{name}(...)" for name in sorted(FUNCTIONS))
            raise CalcError(f"only these functions may be called, by their plain names: {allowed}")
        case ast.operator() | ast.unaryop():
            return
        case _:
            what = _NOT_ALLOWED.get(type(node).__name__, type(node).__name__)
            raise CalcError(f"{what} is not allowed; use plain arithmetic")


def names(tree: ast.Expression) -> set[str]:
    """The variable names an expression uses (function names excluded)."""
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in called}


def evaluate(tree: ast.Expression | str, values: Mapping[str, float]) -> float:
    """Compute a checked expression with the given values; raises CalcError on any failure."""
    if isinstance(tree, str):
        tree = parse(tree)
    try:
        result = _eval(tree.body, values)
    except ZeroDivisionError:
        raise CalcError("division by zero") from None
    except OverflowError:
        raise CalcError("the result is too large") from None
    if not math.isfinite(result):
        raise CalcError("the result is not a finite number")
    return result


def _eval(node: ast.expr, values: Mapping[str, float]) -> float:
    match node:
        case ast.Constant(value=value):
            return float(value)  # type: ignore[arg-type]  # parse() allowed numbers only
        case ast.Name(id=name):
            if name not in values:
                raise CalcError(f"unknown name {name!r}")
            return float(values[name])
        case ast.UnaryOp(op=ast.USub(), operand=operand):
            return -_eval(operand, values)
        case ast.UnaryOp(operand=operand):
            return _eval(operand, values)
        case ast.BinOp(left=left, op=ast.Pow(), right=right):
            base, exponent = _eval(left, values), _eval(right, values)
            if abs(exponent) > MAX_EXPONENT:
                raise CalcError(f"exponent larger than {MAX_EXPONENT}")
            if base == 0 and exponent < 0:
                raise ZeroDivisionError
            result = base**exponent
            if isinstance(result, complex):
                raise CalcError("a negative number to a fractional power")
            return float(result)
        case ast.BinOp(left=left, op=op, right=right):
            result = _BINARY[type(op)](_eval(left, values), _eval(right, values))
            if not math.isfinite(result):
                raise OverflowError
            return result
        case ast.Call(func=ast.Name(id=name), args=args):
            function = FUNCTIONS[name][0]
            return float(function(*(_eval(a, values) for a in args)))
    raise CalcError(f"{type(node).__name__} is not allowed")  # pragma: no cover - parse() checks


# -- in readable notation -------------------------------------------------------------------------

_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_SYMBOL: dict[type[ast.operator], str] = {
    ast.Add: "+",
    ast.Sub: "−",
    ast.Mult: "×",
    ast.Div: "÷",
    ast.Mod: "mod",
}
_PRECEDENCE: dict[type[ast.operator], int] = {
    ast.Add: 1,
    ast.Sub: 1,
    ast.Mult: 2,
    ast.Div: 2,
    ast.FloorDiv: 2,
    ast.Mod: 2,
    ast.Pow: 4,
}
_UNARY = 3
_ATOM = 5


def readable(
    tree: ast.Expression | str,
    source: str,
    values: Mapping[str, str] | None = None,
) -> str:
    """A checked expression the way a person writes it: `2 * n / 1024 ** 2` becomes
    `2 × n ÷ 1024²`. Numbers keep their spelling in `source`; with `values`, each name is
    replaced by its text there (to show the numbers worked through)."""
    if isinstance(tree, str):
        tree = parse(tree)
    text, _ = _readable(tree.body, source.strip(), values or {})
    return text


def _readable(node: ast.expr, source: str, values: Mapping[str, str]) -> tuple[str, int]:
    """The text of `node` and its precedence, so the caller knows when to add parentheses."""
    match node:
        case ast.Constant():
            return (ast.get_source_segment(source, node) or repr(node.value)), _ATOM
        case ast.Name(id=name):
            return values.get(name, name), _ATOM
        case ast.UnaryOp(op=op, operand=operand):
            inner, prec = _readable(operand, source, values)
            sign = "−" if isinstance(op, ast.USub) else "+"
            return sign + (f"({inner})" if prec < _UNARY else inner), _UNARY
        case ast.BinOp(left=left, op=ast.Pow(), right=right):
            base, base_prec = _readable(left, source, values)
            if base_prec <= _PRECEDENCE[ast.Pow] or base.startswith("−"):
                base = f"({base})"
            if isinstance(right, ast.Constant) and isinstance(right.value, int):
                return base + str(right.value).translate(_SUPERSCRIPT), _PRECEDENCE[ast.Pow]
            exponent, exp_prec = _readable(right, source, values)
            return f"{base}^({exponent})" if exp_prec < _ATOM else f"{base}^{exponent}", 4
        case ast.BinOp(left=left, op=ast.FloorDiv(), right=right):
            a, _ = _readable(left, source, values)
            b, b_prec = _readable(right, source, values)
            b = f"({b})" if b_prec <= _PRECEDENCE[ast.Div] else b
            return f"floor({a} ÷ {b})", _ATOM
        case ast.BinOp(left=left, op=op, right=right):
            prec = _PRECEDENCE[type(op)]
            a, a_prec = _readable(left, source, values)
            b, b_prec = _readable(right, source, values)
            if a_prec < prec:
                a = f"({a})"
            # a - (b - c), a / (b * c): the right side keeps its parentheses at equal precedence
            if b_prec < prec or (b_prec == prec and not isinstance(op, (ast.Add, ast.Mult))):
                b = f"({b})"
            return f"{a} {_SYMBOL[type(op)]} {b}", prec
        case ast.Call(func=ast.Name(id=name), args=args):
            inner = ", ".join(_readable(a, source, values)[0] for a in args)
            return f"{name}({inner})", _ATOM
    raise CalcError(f"{type(node).__name__} is not allowed")  # pragma: no cover - parse() checks
