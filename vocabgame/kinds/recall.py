"""Recall: answer in your head (or in notes), reveal the model answer, grade yourself."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vocabgame.kinds.base import ItemKind, refuse, register
from vocabgame.kinds.common import sources_of
from vocabgame.model import Deck, FaceKey, Recall
from vocabgame.quiz.question import (
    RATING_NAMES,
    Face,
    Grade,
    Kind,
    Question,
    Response,
    SelfGraded,
)
from vocabgame.reading.checker import Checker
from vocabgame.reading.node import Node

if TYPE_CHECKING:
    import random


class RecallKind(ItemKind):
    section = "recall"
    rank = 40
    face_labels = {"recall": "recall"}
    traits = frozenset({"interview"})
    display_field = "prompt"
    noun = "recall item"
    singular = "recall question"
    plural = "recall questions"
    required = ("id", "prompt", "answer")
    optional = ("key_points", "mistake")
    item_type = Recall

    def read(self, checker: Checker, entry: Node, fields: dict[str, Node]) -> Recall:
        f = fields
        return Recall(
            prompt=checker.req_text(f, "prompt"),
            answer=checker.req_text(f, "answer"),
            key_points=checker.texts(f["key_points"], "key_points") if "key_points" in f else (),
            mistake=checker.opt_text(f, "mistake"),
            **checker.common(f),
        )

    def faces(self, item: Recall) -> list[str]:
        return [Face.RECALL]

    def question(self, deck: Deck, item: Recall, face: str, rng: random.Random) -> Question:
        return Question(
            kind=Kind.RECALL,
            label="Recall: answer in your head, then reveal",
            prompt=item.prompt,
            answer=item.answer,
            key_points=item.key_points,
            mistake=item.mistake,
            key=FaceKey(deck.id, item.id, face),
            deck_title=deck.title,
        )

    def grade(self, deck: Deck, item: Recall, question: Question, response: Response) -> Grade:
        if not isinstance(response, SelfGraded):
            refuse(self, response)
        if response.rating not in RATING_NAMES:
            raise ValueError(f"rating must be 1 to 4, not {response.rating}")
        return Grade(
            correct=response.rating > 1,
            rating=response.rating,
            given=response.notes.strip() or RATING_NAMES[response.rating],
            right_answer=question.answer,
            key_points=question.key_points,
            mistake=question.mistake,
            sources=sources_of(deck, item),
        )


register(RecallKind())
