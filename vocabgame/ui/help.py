"""The keys, in a modal that any key closes."""

from __future__ import annotations

from rich.table import Table
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import Static

KEYS = (
    ("Home", ""),
    ("↑ ↓, Enter", "choose a deck and play a round"),
    ("q", "quit"),
    ("In a round", ""),
    ("1 – 9", "pick a numbered choice"),
    ("↑ ↓, Enter", "move through the choices and pick one"),
    ("Enter", "submit a typed answer; reveal a recall answer"),
    ("1 – 4", "grade your recall: Again, Hard, Good, Easy"),
    ("Enter, Space", "go on after the feedback"),
    ("u / Ctrl+Z", "undo the last answer"),
    ("f / Ctrl+F", "flag the question as wrong or unclear, for the deck's author"),
    ("q, Escape", "end the round early (every answer is kept)"),
)


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical {
        width: 76; height: auto; max-height: 100%; padding: 0 1;
        border: round $accent; background: $surface;
    }
    """

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold")
        table.add_column()
        for key, what in KEYS:
            if what:
                table.add_row(key, what)
            else:
                table.add_row(f"[underline]{key}[/]", "")
        with Vertical():
            yield Static(table)
            yield Static("Press any key to close.", classes="dim")

    def on_key(self, event: Key) -> None:
        event.stop()
        self.dismiss()

    def on_click(self) -> None:
        self.dismiss()
