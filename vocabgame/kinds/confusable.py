"""Confusable groups: terms that are easy to mix up, asked one cue at a time."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vocabgame.kinds.base import ItemKind, refuse, register
from vocabgame.kinds.common import choice_grade
from vocabgame.model import Confusable, Cue, Deck, FaceKey
from vocabgame.quiz.question import Choice, Grade, Kind, Picked, Question, Response
from vocabgame.reading.checker import Checker
from vocabgame.reading.node import Node

if TYPE_CHECKING:
    import random

CUE_KEYS = ("text", "answer")


class ConfusableKind(ItemKind):
    section = "confusables"
    rank = 20
    traits = frozenset({"interview-filler"})
    display_field = "id"
    noun = singular = "confusable group"
    plural = "confusable groups"
    required = ("id", "terms", "distinction")
    optional = ("cues",)
    item_type = Confusable

    def read(self, checker: Checker, entry: Node, fields: dict[str, Node]) -> Confusable:
        f = fields
        terms: list[str] = []
        if "terms" in f and (nodes := checker.sequence(f["terms"], "terms")) is not None:
            for node in nodes:
                ref = checker.term_ref(node, "term")
                if ref in terms:
                    checker.error(node, f"term {ref!r} is listed twice in this group")
                elif ref is not None:
                    terms.append(ref)
            if len(nodes) < 2:
                checker.error(f["terms"], "a confusable group needs at least 2 terms")
        cues: list[Cue] = []
        if "cues" in f and (nodes := checker.sequence(f["cues"], "cues")) is not None:
            for index, node in enumerate(nodes, 1):
                cue = checker.mapping(node, f"cue {index}", CUE_KEYS, ())
                if cue is None or len(cue) < 2:
                    continue
                text = checker.text(cue["text"], "cue text")
                answer = checker.term_ref(cue["answer"], "cue answer", terms)
                if text and answer:
                    cues.append(Cue(text, answer))
        return Confusable(
            terms=tuple(terms),
            distinction=checker.req_text(f, "distinction"),
            cues=tuple(cues),
            **checker.common(f),
        )

    def face_label(self, face: str) -> str | None:
        return "which term fits a cue" if face.startswith("cue-") else None

    def display(self, item: Confusable, deck: Deck | None = None) -> str:
        """Its terms by their shortest names, "TTFT vs TPOT" (its id without the deck)."""
        names = []
        for term_id in item.terms:
            term = deck.term(term_id) if deck is not None else None
            if term is None:
                return item.id
            names.append(min((term.term, *term.aliases), key=len))
        return " vs ".join(names) or item.id

    def faces(self, item: Confusable) -> list[str]:
        return [f"cue-{i}" for i in range(1, len(item.cues) + 1)]

    def terms_of(self, item: Confusable) -> frozenset[str]:
        return frozenset(item.terms)

    def question(self, deck: Deck, item: Confusable, face: str, rng: random.Random) -> Question:
        cue = item.cues[int(face.removeprefix("cue-")) - 1]
        terms = [deck.term(t) for t in item.terms]
        choices = [Choice(t.term, t.id) for t in terms if t is not None]
        rng.shuffle(choices)
        return Question(
            kind=Kind.CHOICE,
            label="Easy to confuse: which term fits?",
            prompt=cue.text,
            choices=tuple(choices),
            answer=cue.answer,
            key=FaceKey(deck.id, item.id, face),
            deck_title=deck.title,
        )

    def grade(self, deck: Deck, item: Confusable, question: Question, response: Response) -> Grade:
        if not isinstance(response, Picked):
            refuse(self, response)
        return choice_grade(deck, item, question, response.index, item.distinction)


register(ConfusableKind())
