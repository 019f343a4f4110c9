"""A small yes-or-no question over the screen: y or Enter says yes, n or Escape says no."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

WIDTH = 50  # the dialog's width, unless its keys need more
FRAME = 4  # the border's and padding's cells across


class ConfirmScreen(ModalScreen[bool]):
    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical {
        width: 50; max-width: 100%; height: auto; max-height: 100%; padding: 0 1;
        border: round $warning; background: $surface;
    }
    ConfirmScreen #question { text-style: bold; }
    ConfirmScreen #keys { color: $text-muted; margin-top: 1; }
    """
    BINDINGS = [
        Binding("y,enter", "answer(True)", show=False, tooltip="yes"),
        Binding("n,escape", "answer(False)", show=False, tooltip="no"),
    ]

    def __init__(self, question: str, detail: str = "", *, yes: str = "Yes", no: str = "No"):
        super().__init__()
        self.question, self.detail, self.yes, self.no = question, detail, yes, no

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.question), id="question")
            if self.detail:
                yield Static(Text(self.detail))
            yield Static(Text(self.keys_line()), id="keys")

    def keys_line(self) -> str:
        """Both keys on one line when the screen has room for it, else one key a line: never
        a key's words broken across two lines."""
        yes, no = f"y or Enter: {self.yes}", f"n or Escape: {self.no}"
        line = f"{yes}   {no}"
        return line if len(line) + FRAME <= self.app.size.width else f"{yes}\n{no}"

    def on_mount(self) -> None:
        # The dialog is as wide as its keys' line, so they do not wrap where the screen has room.
        longest = max(len(line) for line in self.keys_line().splitlines())
        self.query_one(Vertical).styles.width = max(WIDTH, longest + FRAME)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


def confirm_end(app: App[Any], answered: int, end: Callable[[], None]) -> None:
    """Ask before ending a round with `answered` answers given (`end` it if the player is
    sure); every answer is saved either way."""

    def ended(sure: bool | None) -> None:
        if sure:
            end()

    app.push_screen(
        ConfirmScreen(
            "End this round now?",
            f"Your {answered} answer{'s' * (answered != 1)} so far "
            f"{'are' if answered != 1 else 'is'} saved either way.",
            yes="End round",
            no="Keep playing",
        ),
        ended,
    )
