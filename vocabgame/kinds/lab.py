"""Lab challenges: "on this setup, does TPOT go up, down or stay about the same?", with a fresh
setup drawn from the serving lab's model every time the face is asked. The deck names the
change and the figure; the lab builds the setup, knows the answer and gives the reason.

The question keeps only the seed it drew; grading draws the same challenge again from it."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from vocabgame.kinds.base import ItemKind, refuse, register
from vocabgame.kinds.common import choice_grade
from vocabgame.lab.asked import ASKED, DOWN, LOAD_ASKED, PARALLEL_ASKED, SAME, TOLERANCE, UP
from vocabgame.model import Deck, FaceKey
from vocabgame.quiz.question import Choice, Grade, Kind, Picked, Question, Response
from vocabgame.reading.checker import Checker
from vocabgame.reading.node import Node

if TYPE_CHECKING:
    import random

    from vocabgame.lab import Catalogue
    from vocabgame.lab.challenge import Challenge

FACE = "predict"
CHOICES = (
    Choice("Goes up", UP),
    Choice("Goes down", DOWN),
    Choice(f"Stays about the same (within {TOLERANCE:.0%})", SAME),
)


@dataclass(frozen=True)
class LabChallenge:
    """A deck's lab challenge: the change made to a drawn setup and the figure the player
    predicts."""

    id: str
    change: str  # batch, fp8, tp, prompt; rate, chunked (a load); replicas, alltoall
    figure: str  # the figure asked: tpot, throughput, ttft, or a load's ttft_p99 ...
    note: str | None = None  # what the deck's author wants said after the lab's reason
    tags: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    line: int = 0


# How a player reads a challenge's change and figure ("Double the batch: TPOT?").
CHANGES = {
    "batch": "Double the batch",
    "fp8": "Weights from BF16 to FP8",
    "tp": "Twice the GPUs (TP)",
    "prompt": "Prompts twice as long",
    "rate": "Twice the arrival rate, near the knee",
    "chunked": "Chunked prefill instead of prefill-first",
    "replicas": "Two GPUs as TP 2, not two replicas",
    "alltoall": "The experts split over the GPUs (EP)",
}
FIGURES = {
    "tpot": "TPOT",
    "ttft": "TTFT",
    "throughput": "throughput",
    "ttft_p99": "TTFT p99",
    "tpot_p99": "TPOT p99",
    "itl_p99": "ITL p99",
    "itl_p50": "ITL p50",
}


@lru_cache(maxsize=1)
def _catalogue() -> Catalogue:
    from vocabgame.lab import load_catalogue  # the lab loads when a challenge is first asked

    return load_catalogue()  # the built-in GPUs and models: rounds need no folders


# Asking and grading a face draw the same challenge; a load challenge simulates two runs.
@lru_cache(maxsize=16)
def challenge(item: LabChallenge, seed: int) -> Challenge:
    if item.change in LOAD_ASKED:  # a change to the load: simulated, not a roofline change
        from vocabgame.lab.load_challenge import make_load_challenge

        return make_load_challenge(_catalogue(), seed, item.change)
    if item.change in PARALLEL_ASKED:  # how the GPUs are split: TP vs replicas, EP
        from vocabgame.lab.parallel_challenge import make_parallel_challenge

        return make_parallel_challenge(_catalogue(), seed, item.change)
    from vocabgame.lab.challenge import make_challenge

    return make_challenge(_catalogue(), seed, item.change)


class LabChallengeKind(ItemKind):
    section = "lab_challenges"
    rank = 70
    face_labels = {"predict": "lab challenge"}
    display_field = "id"
    noun = singular = "lab challenge"
    plural = "lab challenges"
    required = ("id", "change", "figure")
    optional = ("note",)
    item_type = LabChallenge

    def read(self, checker: Checker, entry: Node, fields: dict[str, Node]) -> LabChallenge:
        change = checker.req_text(fields, "change")
        figure = checker.req_text(fields, "figure")
        if change and change not in ASKED:
            checker.error(fields["change"], f"change {change!r} is not one of {', '.join(ASKED)}")
        elif change and figure and figure not in ASKED[change]:
            checker.error(
                fields["figure"],
                f"figure {figure!r} is not asked of the change {change!r}; "
                f"choose {' or '.join(ASKED[change])}",
            )
        return LabChallenge(
            change=change,
            figure=figure,
            note=checker.opt_text(fields, "note"),
            **checker.common(fields),
        )

    def faces(self, item: LabChallenge) -> list[str]:
        return [FACE]

    def display(self, item: LabChallenge, deck: Deck | None = None) -> str:
        """The change and the figure asked ("Double the batch: TPOT up, down or the same?"),
        not its id."""
        change = CHANGES.get(item.change, item.change)
        return f"{change}: {FIGURES.get(item.figure, item.figure)} up, down or the same?"

    def question(self, deck: Deck, item: LabChallenge, face: str, rng: random.Random) -> Question:
        seed = rng.randrange(1 << 30)
        ch = challenge(item, seed)
        ask = next(a for a in ch.asks if a.key == item.figure)
        return Question(
            kind=Kind.CHOICE,
            label="Predict, then see",
            prompt=f"{ch.before.setup.describe()}.\n{ch.change}: {ask.label} goes up, down, or "
            f"stays about the same?",
            choices=CHOICES,
            answer=ask.answer,
            values=(("seed", float(seed)),),
            key=FaceKey(deck.id, item.id, face),
            deck_title=deck.title,
        )

    def grade(
        self, deck: Deck, item: LabChallenge, question: Question, response: Response
    ) -> Grade:
        if not isinstance(response, Picked):
            refuse(self, response)
        ch = challenge(item, int(dict(question.values)["seed"]))
        moved = "\n".join(a.moved() for a in ch.asks)
        explanation = f"{moved}\n{ch.reason}"
        if item.note:
            explanation += f"\n{item.note}"
        explanation += "\n(An estimate from the serving lab's roofline model.)"
        return choice_grade(deck, item, question, response.index, explanation)


register(LabChallengeKind())
