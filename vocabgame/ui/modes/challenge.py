"""The scenario challenge on screen: the round screen with a countdown per question and the
running score with its time bonus; then the high-score table.

The countdown is the session clock's time left, redrawn by `tick` once a second (a Textual
interval); tests move the session clock and call `tick` themselves.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from rich.text import Text
from textual.actions import parse
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from vocabgame.play import Round, Runner
from vocabgame.play.modes.challenge import Challenge, ChallengeResult
from vocabgame.play.outcome import Outcome
from vocabgame.printable import printable
from vocabgame.quiz import Kind
from vocabgame.ui import palette
from vocabgame.ui.screens.help import HelpScreen, active_key_rows
from vocabgame.ui.screens.results import ResultsScreen, summary_text
from vocabgame.ui.screens.round import ROUND_KEYS, Phase, RoundScreen, status_figures
from vocabgame.ui.widgets.footer import KeysFooter


class ChallengeScreen(RoundScreen):
    def __init__(self, challenge: Challenge) -> None:
        super().__init__(challenge.round)
        self.challenge = challenge

    def time_out(self) -> Outcome:
        return self.challenge.time_out()

    def update_status(self) -> None:
        super().update_status()
        # The round's figures in the round's words, with the challenge's score (bonus in it).
        status = replace(self.round.status(), score=self.challenge.score)
        self.query_one("#score", Static).update(
            Text(status_figures(status, self.size.width) + self.clock_text())
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # False hides the binding from the footer and the keys screen, and the key does nothing.
        if action == "undo" and not self.round.rules.undo:
            return False
        return super().check_action(action, parameters)

    def action_help(self) -> None:
        # The keys screen lists the round's own bindings as declared: not those hidden here.
        hidden = {
            b.tooltip
            for b in ROUND_KEYS
            if isinstance(b, Binding) and self.check_action(*parse(b.action)[1:]) is False
        }
        rows = [row for row in active_key_rows(self) if row[1] not in hidden]
        self.app.push_screen(HelpScreen("In a challenge", rows))

    def show_question(self) -> None:
        self.challenge.question()  # the countdown starts as the question goes up
        super().show_question()

    def pick(self, index: int) -> None:
        question = self.round.question()
        if not self.ready() or self.phase is not Phase.ASKING or question is None:
            return
        if question.kind == Kind.CHOICE and 0 <= index < len(question.choices):
            self.picked = index
            self._save(lambda: self.challenge.answer_choice(index))

    def finish(self) -> None:
        result = self._stored(self.challenge.finish, "Challenge not saved")
        if result is not None:
            self.app.switch_screen(
                ChallengeResultsScreen(result, self.vocab.session.clock(), self.round.deck_id)
            )


def table_text(result: ChallengeResult) -> Text:
    """Where the run stands: a new high score, or that a run ended early is partial and not
    in the table; then the table, this run's row marked. The score itself is the summary's."""
    text = Text()
    if result.new_high_score:
        text.append("New high score!", style=palette.right())
        if result.previous_best is not None:
            text.append(f" (was {result.previous_best})", style=palette.right(bold=False))
        text.append("\n\n")
    elif not result.finished and result.summary.answered:
        text.append("Partial run", style=palette.warn())
        text.append(
            f": {result.summary.answered} of {result.questions} questions answered, so it is "
            "not in the table.\n\n"
        )
    if result.timed_out:
        count = result.timed_out
        text.append(f"Time ran out on {count} question{'s' * (count != 1)}.\n\n", style="dim")
    text.append("Top 10\n", style="bold")
    if not result.table:
        text.append("No runs yet: answer every question of a run to enter the table.\n")
    for n, high in enumerate(result.table, 1):
        style = palette.right() if n == result.rank else ""
        text.append(
            f"{n:>2}. {high.score:>5}   {high.right} of {high.questions} right   "
            f"{high.at:%Y-%m-%d}\n",
            style=style,
        )
    return text


class ChallengeResultsScreen(ResultsScreen):
    def __init__(self, result: ChallengeResult, now: datetime, deck_id: str | None) -> None:
        super().__init__(result.summary, now, deck_id)
        self.result = result

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="results"):
            yield Static(table_text(self.result), id="table")
            yield Static(summary_text(self.summary, self.now), id="summary")
        keys = "Enter: home   "  # as the footer names the key
        if self.summary.missed:
            keys += "r: review these misses now   "
        yield Static(Text(printable(keys + "q: quit"), style="dim"), id="hint")
        yield KeysFooter()


def screen(started: Round | Runner) -> Screen[Any]:
    """The screen the challenge plays on (`vocabgame.ui.app.mode_screen` finds it here)."""
    assert isinstance(started, Challenge)
    return ChallengeScreen(started)
