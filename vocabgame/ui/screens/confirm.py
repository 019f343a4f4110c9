"""A small yes-or-no question over the screen: y or Enter says yes, n or Escape says no."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static


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
            yield Static(Text(f"y or Enter: {self.yes}   n or Escape: {self.no}"), id="keys")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
