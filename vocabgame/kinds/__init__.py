"""The kinds of item a deck holds, in one table.

Each kind lives in its own module (a subclass of `ItemKind`): how it is read from a deck file,
which faces it has, which question each face asks and how an answer is graded. The deck reader,
the JSON Schema test, the counts the CLI prints and the rounds all go through this table, so a
new kind of item is its module (which registers it), or a `register` call.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import replace
from typing import TYPE_CHECKING

from vocabgame.kinds.base import BY_TYPE, KINDS, ItemKind, register, unregister
from vocabgame.kinds.term import distractors
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

# Every module beside `base` and `common` is a kind that registers itself as it is imported: a
# new kind is its module (and its keys in the deck schema), nothing else.
for _module in pkgutil.iter_modules(__path__):
    if _module.name not in ("base", "common"):
        importlib.import_module(f"{__name__}.{_module.name}")

SECTIONS: tuple[str, ...] = tuple(KINDS)  # the built-in sections


def kind_of(item: Item) -> ItemKind:
    return BY_TYPE[type(item)]


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


def display(item: Item, deck: Deck | None = None) -> str:
    """An item as a player knows it (`ItemKind.display`); `deck`, its own, names the terms
    an item refers to."""
    return kind_of(item).display(item, deck)


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
