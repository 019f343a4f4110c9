"""A one-line note for a flag just set: Enter saves it, Escape keeps the flag without one."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Static

from vocabgame.play import Round
from vocabgame.play.overview import label
from vocabgame.printable import printable
from vocabgame.ui.widgets.question import QuestionView

NOTE_MAX = 300  # characters: one line for the deck's author


class FlagNoteScreen(ModalScreen[str | None]):
    """Returns the note typed (None: no note; the flag stays either way)."""

    DEFAULT_CSS = """
    FlagNoteScreen { align: center middle; }
    FlagNoteScreen > Vertical {
        width: 76; max-width: 100%; height: auto; padding: 0 1;
        border: round $accent; background: $surface;
    }
    FlagNoteScreen #flag-note { margin: 1 0 0 0; }
    """
    BINDINGS = [
        Binding("escape", "skip", "No note", tooltip="keep the flag without a note"),
    ]

    def __init__(self, item_id: str) -> None:
        super().__init__()
        self.item_id = item_id

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                Text(printable(f"Flagged {self.item_id} for the deck's author."), style="bold")
            )
            yield Static(
                Text("Add a note if you like: Enter saves it, Escape keeps the flag without one.")
            )
            yield Input(
                id="flag-note",
                placeholder="What is wrong or unclear?",
                max_length=NOTE_MAX,
                validate_on=(),
            )

    def on_mount(self) -> None:
        self.query_one("#flag-note", Input).focus()

    @on(Input.Submitted, "#flag-note")
    def _save(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(" ".join(event.value.split()) or None)

    def action_skip(self) -> None:
        self.dismiss(None)


def toggle_flag(screen: Screen[Any], round_: Round, view: QuestionView) -> None:
    """Flag the question on `screen` for its deck's author, and ask for a note (or take the
    flag back if it has one), saying what was done. A refusal of the store is said by the
    question view, and changes nothing."""
    toggled = view.stored(round_.toggle_flag, "Flag not saved")
    if toggled is None:
        return
    named, flagged = label(round_.context.decks, toggled[0]), toggled[1]  # as asked

    def say(message: str) -> None:
        screen.app.notify(printable(message), timeout=3, markup=False)

    if not flagged:
        say(f"Unflagged {named}: its flag is taken back.")
        return

    def noted(note: str | None) -> None:
        # A key pressed with the one that closed the note must not answer the question.
        view.hold()
        if note is None:
            say(f"Flagged {named} for the deck's author.")
        elif view.stored(lambda: round_.flag(note), "Note not saved") is not None:
            say(f"Flagged {named} with your note. Thank you.")

    screen.app.push_screen(FlagNoteScreen(named), noted)
