"""The home screen: the decks, what is due, and the day streak."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from vocabgame.play import Home
from vocabgame.printable import printable
from vocabgame.ui.screens.help import HelpScreen, active_key_rows

if TYPE_CHECKING:
    from vocabgame.ui.app import VocabApp

INTRO = (
    "Pick a deck and press Enter to play a round. Due: questions scheduled for review now. "
    "New: new items you can start today ({limit} a day, shared by all decks)."
)


class HomeScreen(Screen[None]):
    BINDINGS = [
        Binding(
            "enter",
            "play",
            "Play",
            tooltip="play a round of the highlighted deck (↑ ↓ move the highlight)",
        ),
        Binding("l", "lab", "Lab", tooltip="the serving lab: estimate a setup, take a challenge"),
        Binding("question_mark", "help", "Keys", tooltip="these keys"),
        Binding("q", "app.quit", "Quit", tooltip="quit (every answer is already saved)"),
    ]

    @property
    def vocab(self) -> VocabApp:
        return cast("VocabApp", self.app)

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="")
        yield Static(id="streak")
        yield Static(id="intro")
        yield DataTable(id="decks", cursor_type="row", zebra_stripes=True)
        yield Static(id="problems")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#decks", DataTable)
        table.add_column("Deck", key="deck")
        for label in ("Items", "Due", "New", "Best"):
            table.add_column(Text(label, justify="right"), key=label.lower())
        table.focus()

    def on_screen_resume(self) -> None:
        self.refresh_home()

    def refresh_home(self) -> None:
        home = self.vocab.session.home()
        self.show(home)

    def show(self, home: Home) -> None:
        days = home.streak_days
        streak = f"Day streak: {days} day{'s' * (days != 1)}" if days else "Day streak: none yet"
        self.query_one("#intro", Static).update(Text(INTRO.format(limit=home.new_per_day)))
        self.query_one("#streak", Static).update(
            Text(f"{streak}   ·   {home.reviews} answers so far")
        )
        table = self.query_one("#decks", DataTable)
        keep = table.cursor_row
        table.clear()
        for row in home.decks:
            table.add_row(
                Text(row.title),
                Text(str(row.items), justify="right"),
                Text(str(row.due), justify="right", style="bold" if row.due else ""),
                Text(str(row.new), justify="right"),
                Text("—" if row.best is None else str(row.best), justify="right"),
                key=row.id or "",
            )
        if home.decks:
            table.move_cursor(row=min(keep, len(home.decks) - 1))
        problems = self.query_one("#problems", Static)
        if home.problems:
            count = len(home.problems)
            shown = "\n".join(printable(p) for p in home.problems[:2])
            more = f"\n(and {count - 2} more)" if count > 2 else ""
            problems.update(
                Text(
                    f"{count} deck file{'s' * (count != 1)} could not be loaded; "
                    f"check with: vocabgame validate FILE\n{shown}{more}"
                )
            )
            problems.display = True
        else:
            problems.display = False
        if not home.decks:
            problems.update(
                Text(
                    "No decks found. Add .yaml decks with --decks DIR, or run: vocabgame new my-deck.yaml"
                )
            )
            problems.display = True

    @on(DataTable.RowSelected, "#decks")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        self._play_row(event.row_key.value)

    def action_play(self) -> None:
        table = self.query_one("#decks", DataTable)
        if table.row_count:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
            self._play_row(key.value)

    def _play_row(self, key: str | None) -> None:
        self.vocab.play(key or None)

    def action_lab(self) -> None:
        self.vocab.show_lab()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen("Home", active_key_rows(self)))
