"""The leaderboard of the data folder's players who agreed to appear on it."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from vocabgame.play.leaderboard import HEADERS, leaderboard, table
from vocabgame.players import PlayerError
from vocabgame.printable import printable


class LeaderboardScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back", tooltip="back"),
        Binding("q", "app.quit", "Quit", tooltip="quit (every answer is already saved)"),
    ]

    def __init__(self, data_dir: Path, now: datetime) -> None:
        """The leaderboard of the players of `data_dir` as of `now`."""
        super().__init__()
        self.data_dir, self.now = data_dir, now

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text("Leaderboard"), id="title")
            yield DataTable(id="board", cursor_type="row", zebra_stripes=True)
            yield Static(id="note")
        yield Footer()

    def on_mount(self) -> None:
        board_table = self.query_one(DataTable)
        board_table.add_columns(*HEADERS)
        notes: list[str] = []
        try:
            board = leaderboard(self.data_dir, self.now)
        except PlayerError as exc:
            notes.append(str(exc))
        else:
            for row in table(board):
                board_table.add_row(*(Text(printable(cell)) for cell in row))
            if not board.standings:
                notes.append("No player appears yet.")
            if board.hidden:
                notes.append(f"{board.hidden} player(s) chose not to appear.")
            notes += [f"{s.name}: {s.problem}" for s in board.standings if s.problem]
        notes.append(
            "challenge: high score · interview: most right answers · streak: days in a row "
            "· retention: right answers to learned questions, last 30 days"
        )
        self.query_one("#note", Static).update(Text("\n".join(printable(n) for n in notes)))
