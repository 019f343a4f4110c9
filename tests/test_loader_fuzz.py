"""Property tests: whatever is fed to the loader, it gives a deck or problems, never a crash."""

from __future__ import annotations

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vocabgame.deck import decode, load_text
from vocabgame.kinds import SECTIONS
from vocabgame.model import Deck
from vocabgame.problems import DeckError, Problem
from vocabgame.reading.node import Node
from vocabgame.reading.yamltree import YamlProblem, parse

from .conftest import DATA

try:
    from yaml import CSafeDumper as Dumper
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeDumper as Dumper  # type: ignore[assignment]

EXAMPLE = (DATA / "latency-basics.yaml").read_text(encoding="utf-8")

FUZZ = settings(
    max_examples=200,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def assert_clean_result(text: str, strict: bool = False) -> None:
    """load_text returns (Deck, warnings only) or (None, at least one error)."""
    deck, problems = load_text(text, "fuzz.yaml", strict=strict)
    assert all(isinstance(p, Problem) for p in problems)
    for problem in problems:
        str(problem)  # formatting never fails either
        assert problem.path == "fuzz.yaml"
        assert problem.line is None or problem.line >= 1
    has_errors = any(p.severity == "error" for p in problems)
    if deck is None:
        assert has_errors
    else:
        assert isinstance(deck, Deck)
        assert not has_errors


# -- any bytes ---------------------------------------------------------------------------------


@FUZZ
@given(st.binary(max_size=2000), st.booleans())
def test_any_bytes_give_a_deck_or_problems(data: bytes, strict: bool) -> None:
    try:
        text = decode(data, "fuzz.yaml")
    except DeckError as exc:
        assert exc.problems and all(p.severity == "error" for p in exc.problems)
        return
    assert_clean_result(text, strict)


YAML_CHARS = st.sampled_from(list(":-[]{},&*!|>'\"%@`#?\n\t ~=<") + ["  ", "- ", ": ", "\n  "])


@FUZZ
@given(st.lists(st.one_of(YAML_CHARS, st.text(max_size=5)), max_size=80).map("".join))
def test_yaml_punctuation_soup_gives_a_deck_or_problems(text: str) -> None:
    assert_clean_result(text)


# -- YAML built from data ----------------------------------------------------------------------

KEYS = [
    "format",
    "id",
    "title",
    "description",
    "tags",
    "sources",
    *SECTIONS,
    "term",
    "definition",
    "aliases",
    "caveat",
    "example",
    "distinction",
    "cues",
    "text",
    "prompt",
    "choices",
    "answer",
    "explanation",
    "why_not",
    "key_points",
    "statement",
    "given",
    "unit",
    "tolerance",
    "url",
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(["ttft", "tpot", "yes", "off", "1e9", "5%", "a / b", "{a}", "a ** 99", "x"]),
)
keys = st.one_of(st.sampled_from(KEYS), st.text(max_size=8))


def nested(max_leaves: int) -> st.SearchStrategy[object]:
    return st.recursive(
        scalars,
        lambda children: st.one_of(
            st.lists(children, max_size=4),
            st.dictionaries(keys, children, max_size=5),
        ),
        max_leaves=max_leaves,
    )


values = nested(20)
small_values = nested(4)


def dump(value: object) -> str:
    return yaml.dump(value, Dumper=Dumper, allow_unicode=True, sort_keys=False)


@FUZZ
@given(values)
def test_any_yaml_data_gives_a_deck_or_problems(value: object) -> None:
    assert_clean_result(dump(value))


@st.composite
def deck_shaped(draw: st.DrawFn) -> dict[str, object]:
    """A mapping that looks like a deck, with random items, so the checks past the top run."""
    deck: dict[str, object] = {
        "format": draw(st.sampled_from([1, 1, 1, 2, "1"])),
        "id": draw(st.sampled_from(["demo", "Demo", "x-1"])),
        "title": draw(st.sampled_from(["Demo", True, 3])),
    }
    if draw(st.booleans()):
        deck["sources"] = {"s": {"title": "S", "url": "https://example.com"}}
    item = st.dictionaries(keys, small_values, max_size=6).map(lambda d: {"id": "i", **d})
    for section in draw(st.lists(st.sampled_from(SECTIONS), max_size=4, unique=True)):
        deck[section] = draw(st.lists(item, min_size=1, max_size=3))
    return deck


@FUZZ
@given(deck_shaped(), st.booleans())
def test_deck_shaped_data_gives_a_deck_or_problems(value: dict[str, object], strict: bool) -> None:
    assert_clean_result(dump(value), strict)


@st.composite
def calculation_deck(draw: st.DrawFn) -> str:
    """A deck with one calculation whose answer and given values are random."""
    names = ["a", "b"]
    numbers = st.one_of(
        st.integers(-(10**30), 10**30),
        st.floats(allow_nan=False, allow_infinity=False),
    )
    atom = st.one_of(st.sampled_from(names), numbers.map(repr), st.sampled_from(["0", "1e308"]))
    ops = st.sampled_from(["+", "-", "*", "/", "//", "%", "**"])
    funcs = st.sampled_from(["min", "max", "abs", "round", "ceil", "floor", "sqrt", "log2", "pow"])
    expression = st.recursive(
        atom,
        lambda e: st.one_of(
            st.tuples(e, ops, e).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(funcs, st.lists(e, min_size=0, max_size=3)).map(
                lambda t: f"{t[0]}({', '.join(t[1])})"
            ),
            e.map(lambda x: f"-{x}"),
        ),
        max_leaves=8,
    )
    deck = {
        "format": 1,
        "id": "calc",
        "title": "Calc",
        "calculations": [
            {
                "id": "c",
                "prompt": "{a} and {b}?",
                "given": {
                    "a": draw(st.lists(numbers, min_size=1, max_size=3)),
                    "b": draw(
                        st.dictionaries(
                            st.text(min_size=1, max_size=4), numbers, min_size=1, max_size=3
                        )
                    ),
                },
                "answer": draw(expression),
                "tolerance": draw(st.one_of(st.sampled_from(["5%", "2 %", "x%"]), numbers)),
                "explanation": "E",
            }
        ],
    }
    return dump(deck)


@FUZZ
@given(calculation_deck())
def test_random_calculations_give_a_deck_or_problems(text: str) -> None:
    assert_clean_result(text)


# -- mutations of a real deck ----------------------------------------------------------------


@st.composite
def mutated_example(draw: st.DrawFn) -> str:
    text = EXAMPLE
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["delete", "insert", "replace", "dup-line", "swap-lines"]))
        pos = draw(st.integers(0, len(text)))
        if kind == "delete":
            text = text[:pos] + text[pos + draw(st.integers(1, 40)) :]
        elif kind == "insert":
            text = text[:pos] + draw(st.one_of(YAML_CHARS, st.text(max_size=6))) + text[pos:]
        elif kind == "replace":
            text = text[:pos] + draw(YAML_CHARS) + text[pos + 1 :]
        else:
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            if kind == "dup-line":
                lines.insert(j, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    return text


def test_the_unmutated_example_is_a_deck() -> None:
    deck, problems = load_text(EXAMPLE, "fuzz.yaml")
    assert deck is not None and problems == []


@FUZZ
@given(mutated_example(), st.booleans())
def test_mutations_of_a_real_deck_give_a_deck_or_problems(text: str, strict: bool) -> None:
    assert_clean_result(text, strict)


@FUZZ
@given(mutated_example())
def test_mutated_bytes_give_a_deck_or_problems(text: str) -> None:
    data = text.encode("utf-8")
    try:
        decoded = decode(data[: len(data) // 2] + b"\xff" + data[len(data) // 2 :], "fuzz.yaml")
    except DeckError:
        return
    assert_clean_result(decoded)  # pragma: no cover - \xff is never valid UTF-8


# -- plain values are typed as YAML types them ---------------------------------------------------


def _values(node: Node) -> object:
    if node.kind == "map":
        return {key: _values(child) for key, child in node.value.items()}
    if node.kind == "seq":
        return [_values(child) for child in node.value]
    return node.value


def test_every_value_of_the_builtin_decks_reads_as_pyyaml_reads_it() -> None:
    from vocabgame.deck import deck_files
    from vocabgame.paths import builtin_decks_dir

    for path in deck_files([builtin_decks_dir()]):
        text = path.read_text(encoding="utf-8")
        root, problems = parse(text)
        assert root is not None and not problems
        assert _values(root) == yaml.load(text, Loader=yaml.CSafeLoader), path.name


@FUZZ
@given(st.text(alphabet="TtrueFfalsNnoYyOo019.-+:_~xE", min_size=1, max_size=12))
def test_a_plain_value_is_typed_as_pyyaml_types_it(word: str) -> None:
    text = f"key: {word}\n"
    try:
        expected = yaml.load(text, Loader=yaml.CSafeLoader)
    except yaml.YAMLError:
        return  # not a plain value at all; the loader's own tests cover errors
    try:
        root, _ = parse(text)
    except YamlProblem:
        return  # a value decks refuse (a date that is not one, say)
    assert root is not None
    assert _values(root) == expected
