"""Calculations: a formula over numbers drawn fresh each time it is asked."""

from __future__ import annotations

import itertools
import math
import re
import string
from typing import TYPE_CHECKING, Any

from vocabgame.kinds.base import ItemKind, refuse, register
from vocabgame.kinds.common import sources_of
from vocabgame.model import DEFAULT_TOLERANCE, Calculation, Deck, FaceKey, Given, Tolerance
from vocabgame.quiz.question import Face, Grade, Kind, Question, Refused, Response, Typed
from vocabgame.quiz.text import article_for, format_number, parse_number, same_unit, unit_key
from vocabgame.reading import calc
from vocabgame.reading.checker import Checker, describe, did_you_mean, number
from vocabgame.reading.node import Node

if TYPE_CHECKING:
    import random

MAX_COMBINATIONS = 10_000
_TOLERANCE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*%\s*$")


class CalculationKind(ItemKind):
    section = "calculations"
    rank = 60
    face_labels = {"calculation": "calculation"}
    traits = frozenset({"interview"})
    display_field = "prompt"
    noun = singular = "calculation"
    plural = "calculations"
    required = ("id", "prompt", "given", "answer", "explanation")
    optional = ("unit", "tolerance")
    item_type = Calculation

    def read(self, checker: Checker, entry: Node, fields: dict[str, Node]) -> Calculation:
        f = fields
        given: list[Given] = []
        names: set[str] = set()
        if "given" in f:
            node = f["given"]
            if node.kind != "map" or not node.value:
                checker.error(
                    node, f"given should map each name to its values, not {describe(node)}"
                )
            else:
                for name, values in node.value.items():
                    pos = node.key_pos[name]
                    if not name.isidentifier() or name in calc.FUNCTIONS:
                        checker.error(
                            pos,
                            f"given name {name!r} should be a plain identifier such as tokens or ttft_ms",
                        )
                        continue
                    names.add(name)
                    options = self._given_options(checker, name, values)
                    if options:
                        given.append(Given(name, options))
        prompt = checker.req_text(f, "prompt")
        if prompt:
            self._placeholders(checker, f["prompt"], prompt, names, "given" in f)
        expression = checker.req_text(f, "answer")
        if expression and "given" in f:
            try:
                tree = calc.parse(expression)
            except calc.CalcError as exc:
                checker.error(f["answer"], f"answer: {exc}")
            else:
                unknown = calc.names(tree) - names
                if unknown:
                    first = sorted(unknown)[0]
                    checker.error(
                        f["answer"],
                        f"answer uses {first!r}, which is not in given{did_you_mean(first, names)}",
                    )
                elif given and len(given) == len(f["given"].value):
                    self._try_all(checker, f["answer"], tree, given)
        tolerance = DEFAULT_TOLERANCE
        if "tolerance" in f:
            tolerance = self._tolerance(checker, f["tolerance"]) or DEFAULT_TOLERANCE
        return Calculation(
            prompt=prompt,
            given=tuple(given),
            answer=expression,
            explanation=checker.req_text(f, "explanation"),
            unit=checker.opt_text(f, "unit"),
            tolerance=tolerance,
            **checker.common(f),
        )

    def _given_options(
        self, checker: Checker, name: str, node: Node
    ) -> tuple[tuple[str, float], ...]:
        def finite(value_node: Node) -> float | None:
            value = number(value_node)
            if value is not None:
                if not math.isfinite(value):
                    checker.error(
                        value_node, f"given {name!r}: {value_node.raw} is not a finite number"
                    )
                    return None
                return value
            checker.error(
                value_node, f"given {name!r} should hold numbers, found {describe(value_node)}"
            )
            return None

        options: list[tuple[str, float]] = []
        if node.kind == "seq":
            for value_node in node.value:
                value = finite(value_node)
                if value is not None:
                    options.append((value_node.raw, value))
        elif node.kind == "map":
            for label, value_node in node.value.items():
                value = finite(value_node)
                if value is not None:
                    options.append((label, value))
        else:
            checker.error(
                node,
                f"given {name!r} should be a list of numbers or a mapping from a label to a number",
            )
            return ()
        if not options and not node.value:
            checker.error(node, f"given {name!r} has no values")
        return tuple(options)

    def _placeholders(
        self, checker: Checker, node: Node, prompt: str, names: set[str], check_unused: bool
    ) -> None:
        try:
            fields = [f for _, f, spec, conv in string.Formatter().parse(prompt) if f is not None]
        except ValueError as exc:
            checker.error(node, f"prompt: {exc}; write a literal brace as {{{{ or }}}}")
            return
        for field in fields:
            if field not in names:
                checker.error(
                    node,
                    f"prompt placeholder {{{field}}} is not in given{did_you_mean(field, names)}",
                )
        if check_unused:
            for name in sorted(names - set(fields)):
                checker.error(
                    node, f"given {name!r} is never shown in the prompt; add {{{name}}} to it"
                )

    def _try_all(self, checker: Checker, node: Node, tree: Any, given: list[Given]) -> None:
        combos = 1
        for g in given:
            combos *= len(g.options)
        if combos > MAX_COMBINATIONS:
            checker.error(
                node,
                f"given values make {combos:,} combinations; at most {MAX_COMBINATIONS:,} are allowed",
            )
            return
        for combo in itertools.product(*(g.options for g in given)):
            values = {g.name: value for g, (_, value) in zip(given, combo, strict=True)}
            try:
                calc.evaluate(tree, values)
            except calc.CalcError as exc:
                shown = ", ".join(f"{k}={v:g}" for k, v in values.items())
                checker.error(node, f"answer fails when {shown}: {exc}")
                return

    def _tolerance(self, checker: Checker, node: Node) -> Tolerance | None:
        value = node.value
        if node.kind == "scalar" and isinstance(value, str):
            match = _TOLERANCE.match(value)
            if match:
                return Tolerance(float(match.group(1)) / 100, relative=True)
        if (amount := number(node)) is not None and 0 <= amount < math.inf:
            return Tolerance(amount, relative=False)
        checker.error(
            node,
            f'tolerance should be a percentage such as "5%" or an absolute number, found {node.raw or describe(node)}',
        )
        return None

    def faces(self, item: Calculation) -> list[str]:
        return [Face.CALCULATION]

    def display(self, item: Calculation, deck: Deck | None = None) -> str:
        """The prompt with each given's first value filled in, as it may be asked (its
        placeholders mean nothing to a player)."""
        labels = {g.name: g.options[0][0] for g in item.given if g.options}
        try:
            shown = _with_articles(item.prompt, labels).format(**labels)
        except (KeyError, IndexError, ValueError):  # a deck that did not validate
            shown = item.prompt
        return " ".join(shown.split()) or item.id

    def question(self, deck: Deck, item: Calculation, face: str, rng: random.Random) -> Question:
        labels: dict[str, str] = {}
        values: dict[str, float] = {}
        for given in item.given:
            label, value = rng.choice(given.options)
            labels[given.name], values[given.name] = label, value
        expected = calc.evaluate(item.answer, values)
        return Question(
            kind=Kind.NUMBER,
            label="Calculate" + (f" (answer in {item.unit})" if item.unit else ""),
            prompt=_with_articles(item.prompt, labels).format(**labels),
            answer=format_number(expected, item.unit),
            expected=expected,
            unit=item.unit,
            tolerance=item.tolerance,
            values=tuple(values.items()),
            labels=tuple(labels.items()),
            key=FaceKey(deck.id, item.id, face),
            deck_title=deck.title,
        )

    def grade(
        self, deck: Deck, item: Calculation, question: Question, response: Response
    ) -> Grade | Refused:
        """Refused, with the reason, if the text is not a number or is in another unit than
        the one asked: nothing is recorded then. Another spelling of the unit (GiB, gib,
        GiBs) is the same unit."""
        if not isinstance(response, Typed):
            refuse(self, response)
        parsed = parse_number(response.text)
        if parsed is None:
            example = format_number(140, question.unit)
            return Refused(f"That is not a number. Type it like 140, {example}, 1.4e2 or 1,400.")
        value, unit = parsed
        if unit and question.unit and not same_unit(unit, question.unit):
            return Refused(
                f"The answer is asked in {question.unit}, not {unit}: type it in "
                f"{question.unit}, or the number alone (nothing was recorded)."
            )
        assert question.expected is not None and question.tolerance is not None
        correct = question.tolerance.accepts(question.expected, value)
        note = None
        if correct and value != question.expected:
            note = f"Within the tolerance of {question.tolerance}."
        explanation = f"{item.explanation}\n{worked_example(item, question)}"
        return Grade(
            correct=correct,
            rating=3 if correct else 1,
            given=response.text.strip(),
            right_answer=question.answer,
            explanation=explanation,
            note=note,
            sources=sources_of(deck, item),
            explains_why=True,
        )


_ARTICLE = re.compile(r"\b([Aa]n?) \{(\w+)\}")


def _with_articles(prompt: str, labels: dict[str, str]) -> str:
    """The prompt with "a"/"an" before each drawn number as it is spoken: an 8000-token prompt."""

    def fix(match: re.Match[str]) -> str:
        article = article_for(labels.get(match.group(2), ""))
        if article is None:
            return match.group(0)
        written = match.group(1)
        return (article.capitalize() if written[0].isupper() else article) + match.group(0)[
            len(written) :
        ]

    return _ARTICLE.sub(fix, prompt)


# Words after a drawn number in a prompt that name its unit ("{ttft} ms", "{ctx} tokens").
_GIVEN_UNITS = frozenset(
    unit_key(u)
    for u in (
        "ms", "s", "us", "ns", "min", "h", "%", "tokens", "tokens/s", "requests", "requests/s",
        "sequences", "bytes", "KiB", "MiB", "GiB", "KB", "MB", "GB", "TB", "GB/s", "TB/s",
        "layers", "steps", "replicas", "GPUs",
    )
)  # fmt: skip


def _unit_after(prompt: str, name: str) -> str | None:
    """The unit written just after `{name}` in the prompt, if the next word is one."""
    word = r"[^\s,;:?!()]+"
    match = re.search(r"\{" + re.escape(name) + rf"\}}\s+({word}(?:\s+per\s+{word})?)", prompt)
    if match is None:
        return None
    unit = match.group(1).rstrip(".")
    if unit_key(unit) in _GIVEN_UNITS:
        return unit
    first = unit.split()[0]  # "{n} requests in flight": the unit is the first word
    return first if unit_key(first) in _GIVEN_UNITS else None


def worked_example(item: Calculation, question: Question) -> str:
    """The numbers drawn, with their labels and units, and the formula worked through in the
    notation of a textbook: "Here: model = 80 for Llama-3-70B (80 layers); precision = 2 for
    BF16 (2 bytes). 2 × model × 8 × 128 × precision ÷ 1024 = 2 × 80 × 8 × 128 × 2 ÷ 1024 = 320
    KiB"."""
    labels = dict(question.labels)
    shown: list[str] = []
    numbers: dict[str, str] = {}
    for name, value in question.values:
        number = numbers[name] = format_number(value)
        label = labels.get(name, "")
        parsed = parse_number(label)
        if parsed is not None and parsed[0] == value:  # the label is the number itself
            unit = parsed[1] or _unit_after(item.prompt, name)
            shown.append(f"{name} = {number}" + (f" {unit}" if unit else ""))
        else:
            shown.append(f"{name} = {number} for {label}")
    formula = calc.readable(item.answer, item.answer)
    worked = calc.readable(item.answer, item.answer, numbers)
    steps = formula if formula == worked else f"{formula} = {worked}"
    here = f"Here: {'; '.join(shown)}.\n" if shown else ""
    return f"{here}{steps} = {question.answer}."


register(CalculationKind())
