"""What a kind of item is: how it is read from a deck file, which faces it has, which question
each face asks, and how an answer to it is graded. One subclass per kind, one module each."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn

from vocabgame.model import Deck
from vocabgame.quiz.question import Grade, Question, Refused, Response
from vocabgame.reading.checker import Checker
from vocabgame.reading.node import Node

if TYPE_CHECKING:
    import random


class ItemKind(ABC):
    """A kind of item. Subclasses set the class attributes and implement the four steps."""

    section: ClassVar[str]  # the deck file's key for a list of these, e.g. "terms"
    noun: ClassVar[str]  # in validator messages: "term 'ttft'"
    singular: ClassVar[str]  # in counts: "1 term", "2 terms"
    plural: ClassVar[str]
    required: ClassVar[tuple[str, ...]]  # keys besides tags and sources, which every item may have
    optional: ClassVar[tuple[str, ...]] = ()
    item_type: ClassVar[type]
    # how each face is asked, in the player's words (the stats' per-kind figures, reports)
    face_labels: ClassVar[dict[str, str]] = {}
    # what modes choose this kind's items by (`Mode.asks`): "interview" (a question an
    # interviewer asks), "interview-filler" (asked when those run short), "challenge" (fit for
    # a countdown)
    traits: ClassVar[frozenset[str]] = frozenset()
    display_field: ClassVar[str] = "id"  # the item's field a player knows it by
    rank: ClassVar[int] = 100  # where deck files, counts and rounds list the kind, lowest first

    @abstractmethod
    def read(self, checker: Checker, entry: Node, fields: dict[str, Node]) -> Any:
        """The item built from its checked keys; problems go to `checker`."""

    @abstractmethod
    def faces(self, item: Any) -> list[str]:
        """The faces of an item: each is asked and scheduled on its own."""

    @abstractmethod
    def question(self, deck: Deck, item: Any, face: str, rng: random.Random) -> Question:
        """The question a face asks; shuffles and draws with `rng`."""

    @abstractmethod
    def grade(
        self, deck: Deck, item: Any, question: Question, response: Response
    ) -> Grade | Refused:
        """The verdict on a response, or `Refused` with the reason when the response is not
        an answer at all (a number expected and something else typed, or another unit):
        nothing is recorded then."""

    def terms_of(self, item: Any) -> frozenset[str]:
        """The ids of the deck's terms this item is about (a term itself, a group's terms, a
        scenario's choices): a round keeps items that share one apart, so that one does not
        give the other away."""
        return frozenset()

    def face_label(self, face: str) -> str | None:
        """How this face is asked, in the player's words; None: not a face of this kind."""
        return self.face_labels.get(face)

    def display(self, item: Any, deck: Deck | None = None) -> str:
        """The item as a player knows it: its term, prompt or statement, on one line (`deck`:
        the item's own, for a kind whose items name other items, such as its terms)."""
        value = getattr(item, self.display_field, None)
        return " ".join(value.split()) if isinstance(value, str) and value else str(item.id)

    def count(self, n: int) -> str:
        return f"{n} {self.singular if n == 1 else self.plural}"


KINDS: dict[str, ItemKind] = {}  # section name -> kind, by rank: the order decks list them
BY_TYPE: dict[type, ItemKind] = {}  # an item's type -> its kind


def register(kind: ItemKind) -> ItemKind:
    """Add a kind of item; its section becomes readable in deck files."""
    if kind.section in KINDS:
        raise ValueError(f"a kind of item already reads the section {kind.section!r}")
    ranked = sorted([*KINDS.values(), kind], key=lambda k: k.rank)  # stable: ties keep order
    KINDS.clear()
    KINDS.update((k.section, k) for k in ranked)
    BY_TYPE[kind.item_type] = kind
    return kind


def unregister(section: str) -> None:
    kind = KINDS.pop(section)
    del BY_TYPE[kind.item_type]


def refuse(kind: ItemKind, response: Response) -> NoReturn:
    """For a response a question cannot take: a programming error, not a player's."""
    raise TypeError(f"a {kind.noun} does not take {type(response).__name__}")


__all__ = ["BY_TYPE", "KINDS", "ItemKind", "refuse", "register", "unregister"]
