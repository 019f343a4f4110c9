"""Scenarios: a situation and the choices that might fit it, each wrong one with its why-not."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vocabgame.kinds.base import ItemKind, refuse, register
from vocabgame.kinds.common import choice_grade, choice_text, group_distinction
from vocabgame.model import Deck, FaceKey, Scenario
from vocabgame.quiz.question import Choice, Face, Grade, Kind, Picked, Question, Response
from vocabgame.reading.checker import SLUG, Checker, describe, did_you_mean
from vocabgame.reading.node import Node

if TYPE_CHECKING:
    import random


class ScenarioKind(ItemKind):
    section = "scenarios"
    rank = 30
    face_labels = {"scenario": "scenario"}
    traits = frozenset({"interview", "challenge"})
    display_field = "prompt"
    noun = singular = "scenario"
    plural = "scenarios"
    required = ("id", "prompt", "choices", "answer", "explanation")
    optional = ("why_not",)
    item_type = Scenario

    def read(self, checker: Checker, entry: Node, fields: dict[str, Node]) -> Scenario:
        f = fields
        choices = self._choices(checker, f)
        answer = checker.req_text(f, "answer")
        if answer and choices and answer not in choices:
            checker.error(
                f["answer"],
                f"answer {answer!r} is not one of the choices{did_you_mean(answer, choices)}",
            )
        why_not = self._why_not(checker, f["why_not"], choices, answer) if "why_not" in f else ()
        return Scenario(
            prompt=checker.req_text(f, "prompt"),
            choices=tuple(choices),
            answer=answer,
            explanation=checker.req_text(f, "explanation"),
            why_not=why_not,
            **checker.common(f),
        )

    @staticmethod
    def _choices(checker: Checker, f: dict[str, Node]) -> list[str]:
        choices: list[str] = []
        if "choices" not in f or (nodes := checker.sequence(f["choices"], "choices")) is None:
            return choices
        if not 2 <= len(nodes) <= 8:
            checker.error(f["choices"], f"a scenario has 2 to 8 choices, found {len(nodes)}")
        for node in nodes:
            value = checker.text(node, "choice")
            if value is None:
                continue
            if value in choices:
                checker.error(node, f"choice {value!r} is given twice")
                continue
            if SLUG.match(value) and value not in checker.term_ids:
                checker.error(
                    node,
                    f"choice {value!r} looks like a term id but no term has it"
                    f"{did_you_mean(value, checker.term_ids)}; to show it as literal text, "
                    "write it with a capital letter or a space",
                )
            choices.append(value)
        return choices

    @staticmethod
    def _why_not(
        checker: Checker, node: Node, choices: list[str], answer: str
    ) -> tuple[tuple[str, str], ...]:
        if node.kind != "map":
            checker.error(
                node, f"why_not should map each wrong choice to a reason, not {describe(node)}"
            )
            return ()
        why_not: list[tuple[str, str]] = []
        for key, reason in node.value.items():
            pos = node.key_pos[key]
            if key == answer:
                checker.error(pos, f"why_not explains {key!r}, but that is the right answer")
            elif key not in choices:
                checker.error(
                    pos,
                    f"why_not key {key!r} is not one of the choices{did_you_mean(key, choices)}",
                )
            text = checker.text(reason, f"why_not for {key!r}")
            if text:
                why_not.append((key, text))
        return tuple(why_not)

    def faces(self, item: Scenario) -> list[str]:
        return [Face.SCENARIO]

    def terms_of(self, item: Scenario) -> frozenset[str]:
        return frozenset(item.choices)  # literal-text choices match no term id

    def question(self, deck: Deck, item: Scenario, face: str, rng: random.Random) -> Question:
        choices = [Choice(choice_text(deck, c), c) for c in item.choices]
        rng.shuffle(choices)
        return Question(
            kind=Kind.CHOICE,
            label="Scenario",
            prompt=item.prompt,
            choices=tuple(choices),
            answer=item.answer,
            key=FaceKey(deck.id, item.id, face),
            deck_title=deck.title,
        )

    def grade(self, deck: Deck, item: Scenario, question: Question, response: Response) -> Grade:
        if not isinstance(response, Picked):
            refuse(self, response)
        picked = question.choices[response.index]
        if picked.value == question.answer:
            return choice_grade(deck, item, question, response.index, item.explanation)
        return choice_grade(
            deck,
            item,
            question,
            response.index,
            item.explanation,
            why_not=item.why_not_for(picked.value),
            distinction=group_distinction(deck, item.answer, picked.value),
        )


register(ScenarioKind())
