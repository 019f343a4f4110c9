"""The confusion drill on screen: the round screen, with what tells each pair apart shown after
every answer, and the pairs retired on the results."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.text import Text
from textual.screen import Screen
from textual.widgets import Static

from vocabgame.play import Round, Runner
from vocabgame.play.modes.drill import Drill
from vocabgame.play.outcome import Outcome, RoundSummary
from vocabgame.ui.screens.results import ResultsScreen
from vocabgame.ui.screens.round import RoundScreen
from vocabgame.ui.widgets.feedback import feedback_body


class DrillScreen(RoundScreen):
    def __init__(self, drill: Drill) -> None:
        super().__init__(drill.round)
        self.drill = drill

    def on_mount(self) -> None:  # RoundScreen.on_mount runs too (Textual calls each class's)
        if self.drill.from_groups:
            self.app.notify(
                "No confusions recorded yet: drilling the decks' confusable groups instead.",
                title="Confusion drill",
                timeout=6,
            )

    def show_feedback(self, outcome: Outcome) -> None:
        if not outcome.overridden:
            self.drill.note_answer(outcome)
        super().show_feedback(outcome)

    def draw_feedback(self) -> None:
        if self.outcome is None:
            return
        body = feedback_body(
            self.outcome,
            self.vocab.session.clock(),
            picked=self.picked,
            example=self.vocab.session.example(self.outcome.question.key),
            show_urls=self.show_urls,
        )
        told = self.drill.distinction(self.outcome.question.key)
        if told and not said(told, self.outcome):
            text = Text("\nWhat tells them apart\n", style="bold")
            text.append(told)
            body = Group(body, text)
        self.query_one("#feedback", Static).update(body)

    def finish(self) -> None:
        result = self._stored(self.drill.finish, "Drill not saved")
        if result is not None:
            summary, retired = result
            self.app.switch_screen(
                ResultsScreen(
                    summary,
                    self.vocab.session.clock(),
                    self.round.deck_id,
                    drill_note(summary, retired),
                )
            )


def said(text: str, outcome: Outcome) -> bool:
    """Whether the feedback already says `text` (as its distinction or in its explanation,
    the `Why:` of a confusable group's own question), spacing aside."""
    words = " ".join(text.split())
    grade = outcome.grade
    return words == " ".join((grade.distinction or "").split()) or words in " ".join(
        grade.explanation.split()
    )


def drill_note(summary: RoundSummary, retired: list[str]) -> str:
    if retired:
        return "Retired (right in a row): " + "; ".join(retired) + "."
    if summary.answered:
        return "No pair retired yet: each needs right answers in a row (see the settings)."
    return ""


def screen(started: Round | Runner) -> Screen[Any]:
    """The screen the drill plays on (`vocabgame.ui.app.mode_screen` finds it here)."""
    assert isinstance(started, Drill)
    return DrillScreen(started)
