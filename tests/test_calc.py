"""The calculation evaluator: plain arithmetic works, everything else is refused."""

from __future__ import annotations

import math

import pytest

from vocabgame.reading import calc
from vocabgame.reading.calc import CalcError, evaluate, names, parse

# -- what is allowed ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("7 / 2", 3.5),
        ("7 // 2", 3),
        ("-7 // 2", -4),
        ("7 % 3", 1),
        ("2 ** 10", 1024),
        ("2 ** -1", 0.5),
        ("-3 + +4", 1),
        ("-(2 - 5)", 3),
        ("1.5e3 / 3", 500),
        ("min(3, 1, 2)", 1),
        ("max(3, 1, 2)", 3),
        ("min(4)", 4),
        ("max(4)", 4),
        ("abs(-2.5)", 2.5),
        ("round(2.345, 1)", 2.3),
        ("round(2.5)", 2),
        ("round(1234, -2)", 1200),
        ("ceil(2.1)", 3),
        ("floor(2.9)", 2),
        ("floor(-2.1)", -3),
        ("sqrt(16)", 4),
        ("log2(1024)", 10),
        ("max(1, min(10, 2 ** 3)) + ceil(sqrt(10))", 12),
    ],
)
def test_allowed_arithmetic(expression: str, expected: float) -> None:
    assert evaluate(expression, {}) == pytest.approx(expected)


def test_names_take_their_values() -> None:
    tree = parse("(e2e - ttft) / (tokens - 1)")
    assert names(tree) == {"e2e", "ttft", "tokens"}
    assert evaluate(tree, {"e2e": 2000, "ttft": 200, "tokens": 101}) == pytest.approx(18)


def test_function_names_are_not_variable_names() -> None:
    assert names(parse("max(a, 1) + sqrt(b)")) == {"a", "b"}


def test_results_are_floats() -> None:
    result = evaluate("7 // 2", {})
    assert isinstance(result, float)


# -- escape attempts ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("().__class__", "attribute access (a.b) is not allowed; use plain arithmetic"),
        ("a.b", "attribute access (a.b) is not allowed; use plain arithmetic"),
        ("(1).real", "attribute access (a.b) is not allowed; use plain arithmetic"),
        ("max.__self__", "attribute access (a.b) is not allowed; use plain arithmetic"),
        ("__import__('os')", "unknown function '__import__'; allowed: "),
        ("__import__", None),  # a bare name is only a name; see below
        ("eval('1')", "unknown function 'eval'; allowed: "),
        ("exec('import os')", "unknown function 'exec'; allowed: "),
        ("open('/etc/passwd')", "unknown function 'open'; allowed: "),
        ("getattr(1, 'real')", "unknown function 'getattr'; allowed: "),
        ("pow(2, 3)", "unknown function 'pow'; allowed: "),
        (
            "(lambda: 1)()",
            "only these functions may be called, by their plain names: abs(...), ceil(...), floor(...), log2(...), max(...), min(...), round(...), sqrt(...)",
        ),
        ("lambda: 1", "lambda is not allowed; use plain arithmetic"),
        ("[x for x in (1, 2)]", "a comprehension is not allowed; use plain arithmetic"),
        ("sum(x for x in (1, 2))", "unknown function 'sum'; allowed: "),
        ("max(x for x in (1, 2))", "a comprehension is not allowed; use plain arithmetic"),
        ("{1: 2}", "a dict is not allowed; use plain arithmetic"),
        ("(1, 2)", "a tuple is not allowed; use plain arithmetic"),
        ("[1, 2][0]", "indexing (a[b]) is not allowed; use plain arithmetic"),
        ("a[0]", "indexing (a[b]) is not allowed; use plain arithmetic"),
        ("'text'", "only numbers are allowed, not 'text'"),
        ("b'bytes'", "only numbers are allowed, not b'bytes'"),
        ("f'{1}'", "an f-string is not allowed; use plain arithmetic"),
        ("True + 1", "only numbers are allowed, not True"),
        ("None", "only numbers are allowed, not None"),
        ("1j", "only numbers are allowed, not 1j"),
        ("...", "only numbers are allowed, not Ellipsis"),
        ("1 if 1 else 2", "if/else is not allowed; use plain arithmetic"),
        ("1 < 2", "a comparison is not allowed; use plain arithmetic"),
        ("1 and 2", "and/or is not allowed; use plain arithmetic"),
        ("not 1", "operator Not is not allowed"),
        ("~1", "operator Invert is not allowed"),
        ("1 << 2", "operator LShift is not allowed"),
        ("1 | 2", "operator BitOr is not allowed"),
        ("1 @ 2", "operator MatMult is not allowed"),
        ("(a := 1)", "assignment (:=) is not allowed; use plain arithmetic"),
        ("max(*a)", "unpacking (*a) is not allowed; use plain arithmetic"),
        ("round(2.5, ndigits=1)", "round() takes no keyword arguments"),
        ("max(**a)", "max() takes no keyword arguments"),
        ("sqrt(1, 2)", "sqrt() takes 1 to 1 arguments, got 2"),
        ("min()", "min() takes 1 to 16 arguments, got 0"),
        ("import os", "not an arithmetic expression (invalid syntax)"),
        ("1; 2", "not an arithmetic expression (invalid syntax)"),
        ("x = 1", "not an arithmetic expression (invalid syntax)"),
        ("1 +", "not an arithmetic expression (invalid syntax)"),
    ],
)
def test_escape_attempts_are_refused_when_parsing(expression: str, message: str | None) -> None:
    if message is None:
        # A lone name parses (it would be a given name) but has no value to take.
        with pytest.raises(CalcError, match="unknown name '__import__'"):
            evaluate(expression, {})
        return
    with pytest.raises(CalcError) as caught:
        parse(expression)
    assert str(caught.value).startswith(message)


def test_evaluate_checks_a_string_before_running_it() -> None:
    with pytest.raises(CalcError, match="only these functions may be called"):
        evaluate("__import__('os').system('true')", {})
    with pytest.raises(CalcError, match="unknown function '__import__'"):
        evaluate("__import__('os')", {})


def test_values_cannot_smuggle_objects_in() -> None:
    # Values from a deck are numbers; anything else is turned into a float or refused.
    with pytest.raises((TypeError, ValueError)):
        evaluate("a + 1", {"a": object()})  # type: ignore[dict-item]


def test_unknown_name_at_evaluation() -> None:
    with pytest.raises(CalcError, match="unknown name 'b'"):
        evaluate("a + b", {"a": 1})


def test_long_expressions_are_refused() -> None:
    with pytest.raises(CalcError, match="longer than 500 characters"):
        parse("1 + " * 200 + "1")


def test_deep_parentheses_are_refused_not_crashing() -> None:
    with pytest.raises(CalcError):
        parse("(" * 240 + "1" + ")" * 240)


# -- huge numbers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("10 ** 1000", "exponent larger than 64"),
        ("2 ** 2 ** 2 ** 2 ** 2", "exponent larger than 64"),
        ("2 ** -100", "exponent larger than 64"),
        ("9 ** 9 ** 9", "exponent larger than 64"),
        ("1e308 * 10", "the result is too large"),
        ("-1e308 - 1e308", "the result is too large"),
        ("1e300 ** 2", "the result is too large"),
        ("1e999", "the result is not a finite number"),
        ("1e999 - 1e999", "the result is too large"),
        ("ceil(1e999)", "the result is too large"),
        ("1" + "0" * 400, "the result is too large"),
        ("1 / 0", "division by zero"),
        ("1 // 0", "division by zero"),
        ("1 % 0", "division by zero"),
        ("0 ** -1", "division by zero"),
        ("(-8) ** 0.5", "a negative number to a fractional power"),
        ("sqrt(-1)", "sqrt of a negative number"),
        ("log2(0)", "log2 of a number that is not positive"),
        ("round(1, 0.5)", "round() takes a whole number of digits between -20 and 20"),
        ("round(1, 10 ** 9)", "round() takes a whole number of digits between -20 and 20"),
        ("round(1, 1000)", "round() takes a whole number of digits between -20 and 20"),
    ],
)
def test_huge_or_impossible_results_are_refused(expression: str, message: str) -> None:
    # Floats cannot grow without bound, so these are refused without big-integer work.
    with pytest.raises(CalcError) as caught:
        evaluate(expression, {})
    assert str(caught.value) == message


def test_a_given_value_can_make_a_power_huge() -> None:
    tree = parse("a ** b")
    assert evaluate(tree, {"a": 2, "b": 64}) == 2.0**64
    with pytest.raises(CalcError, match="exponent larger than 64"):
        evaluate(tree, {"a": 2, "b": 65})
    with pytest.raises(CalcError, match="the result is too large"):
        evaluate(tree, {"a": 1e300, "b": 2})


def test_every_result_is_finite() -> None:
    for expression in ("max(1e308, 1e308) * 2", "abs(-1e308) * 10", "floor(1e308) * 10"):
        with pytest.raises(CalcError):
            evaluate(expression, {})
    assert math.isfinite(evaluate("1e308", {}))


def test_the_function_table_is_the_documented_one() -> None:
    assert sorted(calc.FUNCTIONS) == ["abs", "ceil", "floor", "log2", "max", "min", "round", "sqrt"]
