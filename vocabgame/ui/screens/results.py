"""The end of a round: score, accuracy, streak, time, what was missed, what comes next."""

from __future__ import annotations

from datetime import datetime

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from vocabgame.play import RoundSummary
from vocabgame.timefmt import duration, until


def summary_text(summary: RoundSummary, now: datetime) -> Text:
    text = Text()
    title = "Round complete" if summary.finished else "Round ended early"
    text.append(f"{title}: {summary.deck_title}\n\n", style="bold")
    if summary.new_best:
        text.append("New personal best!", style="bold green")
        if summary.previous_best is not None:
            text.append(f" (was {summary.previous_best})", style="green")
        text.append("\n")
    text.append("Score        ", style="bold")
    text.append(f"{summary.score}\n")
    text.append("Accuracy     ", style="bold")
    text.append(f"{summary.correct} of {summary.answered} right ({summary.accuracy:.0%})\n")
    text.append("Best streak  ", style="bold")
    text.append(f"{summary.best_streak} in a row\n")
    text.append("Time         ", style="bold")
    text.append(f"{duration(summary.seconds)}\n")
    if summary.next_due is not None:
        text.append("Next review  ", style="bold")
        text.append(f"{until(summary.next_due, now)}\n")
    if not summary.finished:
        text.append(
            "\nEvery answer is saved. A round counts for your day streak and best score "
            "when every question is answered.\n",
            style="dim",
        )
    if summary.missed:
        text.append(f"\nMissed ({len(summary.missed)})\n", style="bold")
        for missed in summary.missed:
            text.append("• ")
            text.append(missed.prompt)
            text.append("\n  Answer: ", style="bold")
            text.append(missed.right_answer + "\n")
    elif summary.answered:
        text.append("\nNothing missed.\n", style="green")
    return text


class ResultsScreen(Screen[None]):
    BINDINGS = [
        Binding("enter,space,escape", "home", "Home"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, summary: RoundSummary, now: datetime) -> None:
        super().__init__()
        self.summary = summary
        self.now = now

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="results"):
            yield Static(summary_text(self.summary, self.now), id="summary")
        yield Static(Text("Enter: back to the decks   q: quit", style="dim"), id="hint")
        yield Footer()

    def action_home(self) -> None:
        self.app.pop_screen()
