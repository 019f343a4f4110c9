"""The kinds of item a deck holds, in one table.

Each kind lives in its own module (a subclass of `ItemKind`): how it is read from a deck file,
which faces it has, which question each face asks and how an answer is graded. The deck reader,
the JSON Schema test, the counts the CLI prints and the rounds all go through this table, so a
new kind of item is its module plus one line in `_BUILTIN` (or a `register` call).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from vocabgame.kinds.base import ItemKind
from vocabgame.kinds.calculation import CalculationKind
from vocabgame.kinds.claim import ClaimKind
from vocabgame.kinds.confusable import ConfusableKind
from vocabgame.kinds.lab import LabChallengeKind
from vocabgame.kinds.recall import RecallKind
from vocabgame.kinds.scenario import ScenarioKind
from vocabgame.kinds.term import TermKind, distractors
from vocabgame.model import Deck, FaceKey, Item
from vocabgame.quiz.question import (
    Grade,
    Picked,
    Question,
    Refused,
    Response,
    SelfGraded,
    Typed,
)

if TYPE_CHECKING:
    import random

KINDS: dict[str, ItemKind] = {}  # section name -> kind, in the order decks list them
_BY_TYPE: dict[type, ItemKind] = {}


def register(kind: ItemKind) -> ItemKind:
    """Add a kind of item; its section becomes readable in deck files."""
    if kind.section in KINDS:
        raise ValueError(f"a kind of item already reads the section {kind.section!r}")
    KINDS[kind.section] = kind
    _BY_TYPE[kind.item_type] = kind
    return kind


def unregister(section: str) -> None:
    kind = KINDS.pop(section)
    del _BY_TYPE[kind.item_type]


_BUILTIN = (
    TermKind(),
    ConfusableKind(),
    ScenarioKind(),
    RecallKind(),
    ClaimKind(),
    CalculationKind(),
    LabChallengeKind(),
)
for _kind in _BUILTIN:
    register(_kind)

SECTIONS: tuple[str, ...] = tuple(k.section for k in _BUILTIN)  # the built-in sections


def kind_of(item: Item) -> ItemKind:
    return _BY_TYPE[type(item)]


def item_faces(item: Item) -> list[str]:
    return kind_of(item).faces(item)


def terms_of(item: Item) -> frozenset[str]:
    """The ids of the deck's terms an item is about (see `ItemKind.terms_of`)."""
    return kind_of(item).terms_of(item)


def face_label(face: str) -> str:
    """How a face is asked, in the player's words, from the kind it belongs to (the face's
    own name where no kind claims it, such as a face of a kind no longer registered)."""
    for kind in KINDS.values():
        label = kind.face_label(face)
        if label is not None:
            return label
    return face


def display(item: Item) -> str:
    """An item as a player knows it (`ItemKind.display`)."""
    return kind_of(item).display(item)


def sections_with(trait: str) -> tuple[str, ...]:
    """The sections whose kind has this trait (`ItemKind.traits`), in table order."""
    return tuple(section for section, kind in KINDS.items() if trait in kind.traits)


def faces(deck: Deck) -> list[FaceKey]:
    """Every face of every item, in deck order."""
    return [FaceKey(deck.id, item.id, face) for item in deck.items() for face in item_faces(item)]


def build_question(deck: Deck, key: FaceKey, rng: random.Random) -> Question:
    """The question for one face; choices shuffled and numbers drawn with `rng`."""
    item = deck.item(key.item_id)
    if item is None or key.face not in item_faces(item):
        raise KeyError(f"{key} is not a face of deck {deck.id!r}")
    question = kind_of(item).question(deck, item, key.face, rng)
    version = deck.versions.get(key.item_id)
    return replace(question, version=version) if version else question


def grade(deck: Deck, question: Question, response: Response) -> Grade | Refused:
    """The verdict on a response to a question of this deck (Refused: not an answer at all)."""
    item = deck.item(question.key.item_id)
    if item is None:
        raise KeyError(f"{question.key} is not in deck {deck.id!r}")
    return kind_of(item).grade(deck, item, question, response)


def grade_choice(deck: Deck, question: Question, index: int) -> Grade:
    """Grade a numbered choice (0-based index)."""
    result = grade(deck, question, Picked(index))
    assert isinstance(result, Grade)
    return result


def grade_typed(deck: Deck, question: Question, text: str) -> Grade:
    """Grade a typed term."""
    result = grade(deck, question, Typed(text))
    assert isinstance(result, Grade)
    return result


def grade_number(deck: Deck, question: Question, text: str) -> Grade | Refused:
    """Grade a typed number, or Refused if `text` is not a number in the question's unit
    (nothing is recorded then)."""
    return grade(deck, question, Typed(text))


def grade_recall(deck: Deck, question: Question, rating: int, notes: str = "") -> Grade:
    """A recall face graded by the player: 1 Again, 2 Hard, 3 Good, 4 Easy."""
    result = grade(deck, question, SelfGraded(rating, notes))
    assert isinstance(result, Grade)
    return result


__all__ = [
    "KINDS",
    "SECTIONS",
    "ItemKind",
    "build_question",
    "display",
    "face_label",
    "distractors",
    "faces",
    "grade",
    "grade_choice",
    "grade_number",
    "grade_recall",
    "grade_typed",
    "item_faces",
    "kind_of",
    "register",
    "sections_with",
    "terms_of",
    "unregister",
]
