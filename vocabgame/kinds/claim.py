"""Claims: a statement that is true or false, and why."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vocabgame.kinds.base import ItemKind, refuse, register
from vocabgame.kinds.common import choice_grade
from vocabgame.model import Claim, Deck, FaceKey
from vocabgame.quiz.question import Choice, Face, Grade, Kind, Picked, Question, Response
from vocabgame.reading.checker import Checker, describe
from vocabgame.reading.node import Node

if TYPE_CHECKING:
    import random


class ClaimKind(ItemKind):
    section = "claims"
    rank = 50
    face_labels = {"claim": "true or false"}
    traits = frozenset({"interview", "challenge"})
    display_field = "statement"
    noun = singular = "claim"
    plural = "claims"
    required = ("id", "statement", "answer", "explanation")
    item_type = Claim

    def read(self, checker: Checker, entry: Node, fields: dict[str, Node]) -> Claim:
        f = fields
        answer = False
        if "answer" in f:
            node = f["answer"]
            if node.kind == "scalar" and isinstance(node.value, bool):
                answer = node.value
            else:
                checker.error(
                    node, f"a claim's answer is true or false (unquoted), found {describe(node)}"
                )
        return Claim(
            statement=checker.req_text(f, "statement"),
            answer=answer,
            explanation=checker.req_text(f, "explanation"),
            **checker.common(f),
        )

    def faces(self, item: Claim) -> list[str]:
        return [Face.CLAIM]

    def question(self, deck: Deck, item: Claim, face: str, rng: random.Random) -> Question:
        return Question(
            kind=Kind.CHOICE,
            label="True or false?",
            prompt=item.statement,
            choices=(Choice("True", "true"), Choice("False", "false")),
            answer="true" if item.answer else "false",
            key=FaceKey(deck.id, item.id, face),
            deck_title=deck.title,
        )

    def grade(self, deck: Deck, item: Claim, question: Question, response: Response) -> Grade:
        if not isinstance(response, Picked):
            refuse(self, response)
        return choice_grade(deck, item, question, response.index, item.explanation)


register(ClaimKind())
