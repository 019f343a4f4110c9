"""Turn deck items into questions and grade answers.

Each kind of question an item yields is a *face* with its own schedule: a term has three
(pick its definition, pick it from its definition, type it), a confusable group one per cue,
every other item one. Everything here is plain data that a screen renders and a test builds
without a terminal. Randomness comes from the `random.Random` passed in.
"""

from __future__ import annotations

import itertools
import math
import random
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from vocabgame import calc
from vocabgame.model import (
    Calculation,
    Claim,
    Confusable,
    Deck,
    Item,
    Recall,
    Scenario,
    Source,
    Term,
    Tolerance,
)

CHOICES_PER_QUESTION = 4


class Kind(StrEnum):
    CHOICE = "choice"  # pick one of the numbered choices
    TYPED = "typed"  # type a term
    NUMBER = "number"  # type a number
    RECALL = "recall"  # think, reveal, grade yourself


class Face(StrEnum):
    DEFINITION = "definition"  # term shown, pick its definition
    TERM = "term"  # definition shown, pick the term
    TYPED = "typed"  # definition shown, type the term
    SCENARIO = "scenario"
    CLAIM = "claim"
    RECALL = "recall"
    CALCULATION = "calculation"
    # confusable groups use "cue-1", "cue-2", ...


@dataclass(frozen=True, slots=True, order=True)
class FaceKey:
    """What progress is keyed by: deck id + item id + face."""

    deck_id: str
    item_id: str
    face: str

    def __str__(self) -> str:
        return f"{self.deck_id}/{self.item_id}/{self.face}"


@dataclass(frozen=True, slots=True)
class Choice:
    text: str  # what the player reads
    value: str  # what grading compares: a term id, literal text, "true"/"false"


@dataclass(frozen=True, slots=True)
class Question:
    key: FaceKey
    kind: Kind
    label: str  # what kind of question, in the player's words
    prompt: str
    choices: tuple[Choice, ...] = ()
    answer: str = ""  # the right choice's value, the expected term, or the model answer
    accepted: tuple[str, ...] = ()  # typed faces: every spelling that counts
    expected: float | None = None  # calculations
    unit: str | None = None
    tolerance: Tolerance | None = None
    key_points: tuple[str, ...] = ()
    deck_title: str = ""
    values: tuple[tuple[str, float], ...] = ()  # calculations: the numbers drawn


@dataclass(frozen=True, slots=True)
class Grade:
    """The verdict on one answer, with everything the feedback screen shows."""

    correct: bool
    rating: int  # FSRS rating 1-4: Again, Hard, Good, Easy
    given: str  # the answer as the player gave it
    right_answer: str
    explanation: str = ""
    why_not: str | None = None
    distinction: str | None = None
    note: str | None = None  # e.g. a forgiven typo
    key_points: tuple[str, ...] = ()
    sources: tuple[Source, ...] = ()
    explains_why: bool = False  # the explanation says why the answer fits (not a definition)
    next_due: datetime | None = field(default=None, compare=False)


def faces(deck: Deck) -> list[FaceKey]:
    """Every face of every item, in deck order."""
    keys: list[FaceKey] = []
    for item in deck.items():
        keys.extend(FaceKey(deck.id, item.id, face) for face in item_faces(item))
    return keys


def item_faces(item: Item) -> list[str]:
    match item:
        case Term():
            return [Face.DEFINITION, Face.TERM, Face.TYPED]
        case Confusable(cues=cues):
            return [f"cue-{i}" for i in range(1, len(cues) + 1)]
        case Scenario():
            return [Face.SCENARIO]
        case Claim():
            return [Face.CLAIM]
        case Recall():
            return [Face.RECALL]
        case Calculation():
            return [Face.CALCULATION]
    raise TypeError(item)  # pragma: no cover


def find_item(deck: Deck, item_id: str) -> Item | None:
    return next((i for i in deck.items() if i.id == item_id), None)


# -- building questions -------------------------------------------------------------------


def build_question(deck: Deck, key: FaceKey, rng: random.Random) -> Question:
    """The question for one face; choices shuffled and numbers drawn with `rng`."""
    item = find_item(deck, key.item_id)
    if item is None or key.face not in item_faces(item):
        raise KeyError(f"{key} is not a face of deck {deck.id!r}")
    match item:
        case Term():
            return _term_question(deck, item, key, rng)
        case Confusable():
            cue = item.cues[int(key.face.removeprefix("cue-")) - 1]
            terms = [deck.term(t) for t in item.terms]
            choices = [Choice(t.term, t.id) for t in terms if t is not None]
            rng.shuffle(choices)
            return Question(
                kind=Kind.CHOICE,
                label="Easy to confuse: which term fits?",
                prompt=cue.text,
                choices=tuple(choices),
                answer=cue.answer,
                key=key,
                deck_title=deck.title,
            )
        case Scenario():
            choices = [Choice(_choice_text(deck, c), c) for c in item.choices]
            rng.shuffle(choices)
            return Question(
                kind=Kind.CHOICE,
                label="Scenario",
                prompt=item.prompt,
                choices=tuple(choices),
                answer=item.answer,
                key=key,
                deck_title=deck.title,
            )
        case Claim():
            return Question(
                kind=Kind.CHOICE,
                label="True or false?",
                prompt=item.statement,
                choices=(Choice("True", "true"), Choice("False", "false")),
                answer="true" if item.answer else "false",
                key=key,
                deck_title=deck.title,
            )
        case Recall():
            return Question(
                kind=Kind.RECALL,
                label="Recall: answer in your head, then reveal",
                prompt=item.prompt,
                answer=item.answer,
                key_points=item.key_points,
                key=key,
                deck_title=deck.title,
            )
        case Calculation():
            labels: dict[str, str] = {}
            values: dict[str, float] = {}
            for given in item.given:
                label, value = rng.choice(given.options)
                labels[given.name], values[given.name] = label, value
            expected = calc.evaluate(item.answer, values)
            return Question(
                kind=Kind.NUMBER,
                label="Calculate" + (f" (answer in {item.unit})" if item.unit else ""),
                prompt=item.prompt.format(**labels),
                answer=format_number(expected, item.unit),
                expected=expected,
                unit=item.unit,
                tolerance=item.tolerance,
                values=tuple(values.items()),
                key=key,
                deck_title=deck.title,
            )
    raise TypeError(item)  # pragma: no cover


def _choice_text(deck: Deck, choice: str) -> str:
    term = deck.term(choice)
    return term.term if term is not None else choice


def _term_question(deck: Deck, term: Term, key: FaceKey, rng: random.Random) -> Question:
    face = key.face
    if face == Face.TYPED:
        return Question(
            kind=Kind.TYPED,
            label="Type the term",
            prompt=term.definition,
            answer=term.term,
            accepted=(term.term, *term.aliases),
            key=key,
            deck_title=deck.title,
        )
    shown = (lambda t: t.definition) if face == Face.DEFINITION else (lambda t: t.term)
    choices = [Choice(shown(term), term.id)]
    seen = {_normalise(shown(term))}
    for other in distractors(deck, term, rng):
        text = shown(other)
        if _normalise(text) in seen:
            continue
        seen.add(_normalise(text))
        choices.append(Choice(text, other.id))
        if len(choices) == CHOICES_PER_QUESTION:
            break
    rng.shuffle(choices)
    if face == Face.DEFINITION:
        label, prompt = "Pick the definition", term.term
    else:
        label, prompt = "Pick the term", term.definition
    return Question(
        kind=Kind.CHOICE,
        label=label,
        prompt=prompt,
        choices=tuple(choices),
        answer=term.id,
        key=key,
        deck_title=deck.title,
    )


def distractors(deck: Deck, term: Term, rng: random.Random) -> list[Term]:
    """Other terms, most confusable first: confusable partners, then terms sharing a tag,
    then the rest of the deck; shuffled within each tier."""
    partners = {t for group in deck.confusables if term.id in group.terms for t in group.terms} - {
        term.id
    }
    tiers: list[list[Term]] = [[], [], []]
    for other in deck.terms:
        if other.id == term.id:
            continue
        if other.id in partners:
            tiers[0].append(other)
        elif set(other.tags) & set(term.tags):
            tiers[1].append(other)
        else:
            tiers[2].append(other)
    for tier in tiers:
        rng.shuffle(tier)
    return list(itertools.chain.from_iterable(tiers))


# -- grading --------------------------------------------------------------------------------


def grade_choice(deck: Deck, question: Question, index: int) -> Grade:
    """Grade a numbered choice (0-based index)."""
    picked = question.choices[index]
    correct = picked.value == question.answer
    right = next(c.text for c in question.choices if c.value == question.answer)
    item = find_item(deck, question.key.item_id)
    why_not = distinction = None
    explanation = ""
    given = picked.text
    explains_why = True
    match item:
        case Term():
            explains_why = False
            # Picking a definition: the answer line already shows the right one.
            explanation = _term_explanation(
                item, with_definition=question.key.face != Face.DEFINITION
            )
            if not correct:
                distinction = _group_distinction(deck, item.id, picked.value)
                other = deck.term(picked.value)
                if other is not None and question.key.face == Face.DEFINITION:
                    given = f"{picked.text} (that defines {other.term})"
        case Confusable():
            explanation = item.distinction
        case Scenario():
            explanation = item.explanation
            if not correct:
                why_not = item.why_not_for(picked.value)
                distinction = _group_distinction(deck, item.answer, picked.value)
        case Claim():
            explanation = item.explanation
    return Grade(
        correct=correct,
        rating=3 if correct else 1,
        given=given,
        right_answer=right,
        explanation=explanation,
        why_not=why_not,
        distinction=distinction,
        sources=_sources(deck, item),
        explains_why=explains_why,
    )


def grade_typed(deck: Deck, question: Question, text: str) -> Grade:
    """Grade a typed term: aliases count; case, spacing and punctuation are ignored; one typo
    is forgiven in a word of five letters or more."""
    item = find_item(deck, question.key.item_id)
    assert isinstance(item, Term)
    given = _normalise(text)
    correct, note = False, None
    if given and any(given == _normalise(a) for a in question.accepted):
        correct = True
    else:
        for accepted in question.accepted:
            if _one_typo(text, accepted):
                correct = True
                note = f"One typo forgiven: it is spelled {accepted!r}."
                break
    distinction = None
    if not correct:
        for other in deck.terms:
            if other.id != item.id and any(
                given == _normalise(a) for a in (other.term, *other.aliases)
            ):
                distinction = _group_distinction(deck, item.id, other.id) or (
                    f"{other.term}: {other.definition}"
                )
                break
    aliases = f" (also {', '.join(item.aliases)})" if item.aliases else ""
    return Grade(
        correct=correct,
        rating=3 if correct else 1,
        given=text.strip(),
        right_answer=item.term + aliases,
        explanation=_term_explanation(item),
        distinction=distinction,
        note=note,
        sources=_sources(deck, item),
    )


def grade_number(deck: Deck, question: Question, text: str) -> Grade | None:
    """Grade a typed number, or None if `text` is not a number (nothing is recorded then)."""
    parsed = parse_number(text)
    if parsed is None:
        return None
    value, unit = parsed
    assert question.expected is not None and question.tolerance is not None
    item = find_item(deck, question.key.item_id)
    correct = question.tolerance.accepts(question.expected, value)
    note = None
    if unit and question.unit and unit.casefold() != question.unit.casefold():
        correct = False
        note = f"The answer is asked in {question.unit}, not {unit}."
    elif correct and value != question.expected:
        note = f"Within the tolerance of {question.tolerance}."
    explanation = ""
    if isinstance(item, Calculation):
        shown = ", ".join(f"{name} = {format_number(value)}" for name, value in question.values)
        explanation = f"{item.explanation}\nHere: {shown}, so {item.answer} = {question.answer}."
    return Grade(
        correct=correct,
        rating=3 if correct else 1,
        given=text.strip(),
        right_answer=question.answer,
        explanation=explanation,
        note=note,
        sources=_sources(deck, item),
        explains_why=True,
    )


def grade_recall(deck: Deck, question: Question, rating: int, notes: str = "") -> Grade:
    """A recall face graded by the player: 1 Again, 2 Hard, 3 Good, 4 Easy."""
    if rating not in (1, 2, 3, 4):
        raise ValueError(f"rating must be 1 to 4, not {rating}")
    item = find_item(deck, question.key.item_id)
    return Grade(
        correct=rating > 1,
        rating=rating,
        given=notes.strip() or RATING_NAMES[rating],
        right_answer=question.answer,
        key_points=question.key_points,
        sources=_sources(deck, item),
    )


RATING_NAMES = {1: "Again", 2: "Hard", 3: "Good", 4: "Easy"}


def _term_explanation(term: Term, with_definition: bool = True) -> str:
    parts = [f"{term.term}: {term.definition}"] if with_definition else []
    if term.caveat:
        parts.append(f"Caveat: {term.caveat}")
    return "\n".join(parts)


def _group_distinction(deck: Deck, right: str, picked: str) -> str | None:
    for group in deck.confusables:
        if right in group.terms and picked in group.terms:
            return group.distinction
    return None


def _sources(deck: Deck, item: Item | None) -> tuple[Source, ...]:
    if item is None:
        return ()
    return tuple(deck.sources[k] for k in item.sources if k in deck.sources)


# -- text and numbers -------------------------------------------------------------------------

_WORD = re.compile(r"[^\W_]+")


def _words(text: str) -> list[str]:
    text = unicodedata.normalize("NFKC", text).casefold()
    return _WORD.findall(text)


def _normalise(text: str) -> str:
    """Case, spacing and punctuation ignored."""
    return "".join(_words(text))


def _one_typo(given: str, expected: str) -> bool:
    """True if `given` differs from `expected` by one typo (a wrong, missing, extra or swapped
    letter) in one word of five letters or more, and matches everywhere else."""
    a, b = _words(given), _words(expected)
    if len(a) != len(b):
        # A missing or extra space is not a typo: spacing is already ignored.
        return False
    differing = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    if len(differing) != 1:
        return False
    typed, word = differing[0]
    return len(word) >= 5 and _edit_distance_is_one(typed, word)


def _edit_distance_is_one(a: str, b: str) -> bool:
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diffs = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        if len(diffs) == 1:
            return True
        i = diffs[0]
        return len(diffs) == 2 and diffs[1] == i + 1 and a[i] == b[i + 1] and a[i + 1] == b[i]
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k in range(len(short)) if short[k] != long[k]), len(short))
    return short[i:] == long[i + 1 :]


_NUMBER = re.compile(
    r"""^\s*(?P<num>[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?(?:[eE][-+]?\d+)?
        |[-+]?\.\d+(?:[eE][-+]?\d+)?)\s*(?P<unit>[^\W\d_][\w/%.^ -]*|%)?\s*$""",
    re.VERBOSE,
)


def parse_number(text: str) -> tuple[float, str | None] | None:
    """A number the way people type it: `140`, `140 GB`, `1.4e2`, `1,400`. Returns the value
    and the unit typed after it (or None), or None if the text is not a number."""
    match = _NUMBER.match(text)
    if not match:
        return None
    try:
        value = float(match.group("num").replace(",", ""))
    except ValueError:
        return None
    if not math.isfinite(value):
        return None
    unit = match.group("unit")
    return value, unit.strip() if unit else None


def format_number(value: float, unit: str | None = None) -> str:
    """A number as a person writes it: 140, 0.5, 1,310,720, 0.0312."""
    if value == 0:
        text = "0"
    else:
        digits = max(0, 4 - int(math.floor(math.log10(abs(value)))) - 1)
        rounded = round(value, digits)
        text = f"{rounded:,.{digits}f}".rstrip("0").rstrip(".") if digits else f"{rounded:,.0f}"
    return f"{text} {unit}" if unit else text
