"""What a screen may ask of the app that shows it: the session, and a few ways to move to
another screen. Screens type `self.app` as a `Host`, so none of them imports the app."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, cast

from textual.app import App
from textual.screen import Screen

from vocabgame.model import FaceKey
from vocabgame.play import Session


class Host(Protocol):
    session: Session
    settle_seconds: float  # a new question takes no answer for this long
    seed: int | None

    @property
    def data_root(self) -> Path: ...  # the data folder every player shares

    def play(
        self,
        deck_id: str | Sequence[str] | None,
        mode: str = ...,
        tag: str | None = None,
        levels: tuple[str, ...] = (),
        instead_of: Screen[Any] | None = None,
    ) -> bool: ...

    def play_misses(
        self, deck_id: str | None, title: str, keys: Sequence[FaceKey], replace: bool = True
    ) -> None: ...

    def show_lab(self) -> None: ...

    def show_leaderboard(self) -> None: ...

    def show_room(self) -> None: ...

    def start_room(self) -> None: ...

    def show_stats(self, deck_id: str | None = None) -> None: ...

    def apply_theme(self) -> None: ...

    def warn_unsaved(self) -> None: ...


def host(app: App[object]) -> Host:
    """The app a screen is on, as a `Host` (`VocabApp` is one)."""
    return cast(Host, app)
