"""The end of a round: score, accuracy, streak, time, what was missed, what comes next."""

from __future__ import annotations

from datetime import datetime

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from vocabgame.play import RoundSummary
from vocabgame.play.modes import MODES, Mode, ModeId
from vocabgame.printable import printable
from vocabgame.timefmt import duration, until
from vocabgame.ui import palette
from vocabgame.ui.host import Host, host
from vocabgame.ui.screens.help import HelpScreen, active_key_rows
from vocabgame.ui.widgets.feedback import hanging
from vocabgame.ui.widgets.footer import KeysFooter


def summary_mode(summary: RoundSummary) -> Mode:
    """The mode the round was played in (the daily round's, for an id no longer registered)."""
    return MODES.get(summary.mode) or MODES[ModeId.LEARN]


def summary_text(summary: RoundSummary, now: datetime) -> Text | Group:
    """The round's figures, the next review (when the mode moves due dates), the mode's note
    on what the round counts for, and what was missed."""
    mode = summary_mode(summary)
    text = Text()
    title = "Round complete" if summary.finished else "Round ended early"
    text.append(f"{title}: {summary.deck_title}\n\n", style="bold")
    if summary.new_best:
        text.append("New personal best!", style=palette.right())
        if summary.previous_best is not None:
            text.append(f" (was {summary.previous_best})", style=palette.right(bold=False))
        text.append("\n")
    if not summary.answered:
        text.append(
            "Nothing was answered in this round, so nothing changed: no score, and the "
            "schedule is as it was.\n"
        )
    else:
        text.append("Score        ", style="bold")
        text.append(f"{summary.score}\n")
        text.append("Accuracy     ", style="bold")
        text.append(
            f"{summary.correct} of {summary.answered} questions right ({summary.accuracy:.0%})\n"
        )
        text.append("Best streak  ", style="bold")
        text.append(f"{summary.best_streak} in a row\n")
        text.append("Time         ", style="bold")
        text.append(f"{duration(summary.seconds)}\n")
    if summary.next_due is not None and mode.updates_schedule:
        text.append("Next review  ", style="bold")
        text.append(f"{until(summary.next_due, now)}\n")
    if summary.answered and (not summary.finished or not mode.keeps_round):
        # A kept round ended early is told what would have counted; a mode whose rounds
        # count for nothing says so whenever it ends.
        saved = "Every answer is saved. " if mode.keeps_round else ""
        text.append(f"\n{saved}{mode.results_note}\n", style="dim")
    if not summary.missed:
        if summary.answered:
            text.append("\nNothing missed.\n", style=palette.right(bold=False))
        return text
    count = len(summary.missed)
    text.append(f"\nMissed {count} question{'s' * (count != 1)}", style="bold")
    entries: list[tuple[Text | str, RenderableType]] = []
    for missed in summary.missed:
        answers: list[tuple[Text | str, RenderableType]] = []
        if missed.given:
            # typed or pasted: may hold escapes
            given = "; then ".join(printable(g) for g in missed.given)
            answers.append((Text("You answered: ", style=palette.wrong()), Text(given)))
        answers.append((Text("Right answer: ", style=palette.right()), Text(missed.right_answer)))
        entries.append(("• ", Group(Text(missed.prompt), hanging(answers))))
    return Group(text, hanging(entries))


class ResultsScreen(Screen[None]):
    BINDINGS = [
        Binding("enter,space,escape", "home", "Home", tooltip="back to the decks"),
        Binding(
            "r",
            "review_misses",
            "Review misses",
            tooltip="a round of just the questions missed, right now (due dates stay)",
        ),
        Binding("t", "stats", "Stats", tooltip="the stats of this round's deck"),
        Binding("question_mark", "help", "Keys", tooltip="these keys"),
        Binding("q", "app.quit", "Quit", tooltip="quit (every answer is already saved)"),
    ]

    def __init__(
        self,
        summary: RoundSummary,
        now: datetime,
        deck_id: str | None = None,
        note: str | None = None,
    ) -> None:
        super().__init__()
        self.summary = summary
        self.now = now
        self.deck_id = deck_id
        self.note = note  # what the mode promised, said first (cram: the practice count)

    def summary_text(self) -> RenderableType:
        text = summary_text(self.summary, self.now)
        if self.note:
            return Group(Text(self.note + "\n", style="bold"), text)
        return text

    @property
    def vocab(self) -> Host:
        return host(self.app)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="results"):
            yield Static(self.summary_text(), id="summary")
        keys = "Enter: home   "  # as the footer names the key
        if self.summary.missed:
            keys += "r: review these misses now   "
        yield Static(Text(keys + "t: stats   q: quit", style="dim"), id="hint")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#results", VerticalScroll).focus()  # ↑ ↓ PgDn scroll a long list

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "review_misses":
            return bool(self.summary.missed)
        return True

    def action_home(self) -> None:
        self.app.pop_screen()

    def action_review_misses(self) -> None:
        if self.summary.missed:
            self.vocab.play_misses(
                self.deck_id, self.summary.deck_title, [m.key for m in self.summary.missed]
            )

    def action_stats(self) -> None:
        self.vocab.show_stats(self.deck_id)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen("Results", active_key_rows(self)))
