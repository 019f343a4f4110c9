"""Who is playing? The first screen of a game in a browser: pick a player of the data
folder, or add one, and the game plays as them (their own store)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from vocabgame.players import MAX_NAME, Player, PlayerError, add_player, read_registry
from vocabgame.printable import printable

Clock = Callable[[], datetime]


def _utc_now() -> datetime:
    return datetime.now(UTC)


class PlayerChooser(Screen[Player]):
    """Lists the players of `data_dir`; dismisses with the one picked or added. A player
    added here appears on the leaderboard (they can say no: vocabgame players)."""

    BINDINGS = [
        Binding("tab", "app.focus_next", "Add a player", show=False, tooltip="add a player"),
        Binding("w", "leaderboard", "Leaderboard", tooltip="the players' leaderboard"),
        Binding("escape", "back", "Back to the list", show=False, tooltip="back to the list"),
    ]

    def __init__(self, data_dir: Path, clock: Clock = _utc_now) -> None:
        super().__init__()
        self.data_dir, self.clock = data_dir, clock
        self.players: list[Player] = []

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("Who is playing?"), id="title")
            yield OptionList(id="players")
            yield Input(
                placeholder="or a new name, then Enter", max_length=MAX_NAME, validate_on=()
            )
            yield Static(id="problem")
            yield Static(
                Text("↑ ↓ and Enter: play as them · Tab: add a player · w: leaderboard"),
                id="hint",
            )
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_players()
        self.query_one(OptionList).focus()

    def refresh_players(self) -> None:
        """List the players there are now (another tab may have added one)."""
        listing = self.query_one(OptionList)
        listing.clear_options()
        try:
            self.players = list(read_registry(self.data_dir).players)
        except PlayerError as exc:
            self.say(str(exc))
            self.players = []
        listing.add_options(Option(Text(printable(p.name))) for p in self.players)
        if self.players:
            listing.highlighted = 0

    def say(self, problem: str) -> None:
        self.query_one("#problem", Static).update(Text(printable(problem)))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.players[event.option_index])

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            player = add_player(self.data_dir, event.value, leaderboard=True)
        except PlayerError as exc:
            self.say(str(exc))
            return
        self.dismiss(player)

    def action_back(self) -> None:
        self.query_one(OptionList).focus()

    def action_leaderboard(self) -> None:
        from vocabgame.ui.screens.leaderboard import LeaderboardScreen

        self.app.push_screen(LeaderboardScreen(self.data_dir, self.clock()))
