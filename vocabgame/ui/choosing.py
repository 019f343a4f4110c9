"""The game that first asks who is playing (each browser tab of `vocabgame serve`), then
opens that player's own session and plays as the terminal game does."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from vocabgame.play import Session
from vocabgame.players import Player
from vocabgame.printable import printable
from vocabgame.store import StoreError
from vocabgame.ui import palette
from vocabgame.ui.app import VocabApp
from vocabgame.ui.screens.players import PlayerChooser


class ChoosingApp(VocabApp):
    """`VocabApp` without a session until a player is chosen on the first screen; then
    `open_player` opens theirs (raising StoreError with the sentence to show)."""

    def __init__(
        self, data_dir: Path, open_player: Callable[[Player], Session], **options: Any
    ) -> None:
        # No session yet: nothing reads it before `chosen` sets it (apply_theme and open
        # wait for it).
        super().__init__(cast(Session, None), root=data_dir, **options)
        self.open_player = open_player
        self.player: Player | None = None

    def apply_theme(self) -> None:
        if self.player is None:
            palette.use(self.current_theme)
        else:
            super().apply_theme()

    def open(self) -> None:
        self.push_screen(PlayerChooser(self.data_root), callback=self.chosen)

    def chosen(self, player: Player | None) -> None:
        """Open the chosen player's session and show their home screen."""
        if player is None:
            return
        try:
            session = self.open_player(player)
        except StoreError as exc:
            self.notify(printable(str(exc)), title="Cannot play", severity="error", markup=False)
            self.open()
            return
        self.player, self.session = player, session
        self.sub_title = printable(player.name)
        self.apply_theme()
        super().open()
