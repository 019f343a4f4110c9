"""The Textual app: screens render what the session tells them and send answers back."""

from __future__ import annotations

import gc
import importlib
import importlib.util
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.binding import Binding

from vocabgame.model import FaceKey
from vocabgame.play import ModeId, Round, Runner, Selection, Session
from vocabgame.play.modes import by_name
from vocabgame.printable import printable
from vocabgame.store import StoreError
from vocabgame.ui import palette
from vocabgame.ui.screens.home import HomeScreen

if TYPE_CHECKING:
    from textual.screen import Screen


def mode_screen(mode_id: str, started: Round | Runner) -> Screen[Any]:
    """The screen a mode plays on: the `screen` of `vocabgame.ui.modes.<mode id>` where a mode
    has a screen of its own there, else the round screen. Imported when first played, not to
    open the game."""
    name = f"vocabgame.ui.modes.{mode_id.replace('-', '_')}"
    if importlib.util.find_spec(name) is not None:
        play_on: Callable[[Round | Runner], Screen[Any]] = importlib.import_module(name).screen
        return play_on(started)
    from vocabgame.ui.screens.round import RoundScreen

    return RoundScreen(started if isinstance(started, Round) else started.round)


def _started() -> None:
    """Once the first screen is shown: if the collector was paused while the game opened (the
    CLI does that), freeze what opening built, which lives as long as the game, so collections
    never walk it again, and start the collector."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


class VocabApp(App[int]):
    """vocabgame in the terminal. `session` holds the decks, the store and the clock."""

    CSS_PATH = "app.tcss"
    TITLE = "vocabgame"
    SUB_TITLE = "AI inference and serving vocabulary"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False, priority=True, tooltip="quit")]

    def __init__(
        self,
        session: Session,
        *,
        deck: str | Sequence[str] | None = None,
        tag: str | None = None,
        levels: tuple[str, ...] = (),
        size: int | None = None,
        seed: int | None = None,
        start_round: bool = False,
        open_lab: bool = False,
        lab_folders: Sequence[Path] = (),
        mode: str = "review",
        minutes: float | None = None,
        questions: int | None = None,
        settle_seconds: float = 0.25,
        root: Path | None = None,
    ) -> None:
        super().__init__()
        # The data folder every player shares (its leaderboard); None: the store's folder.
        self._root = root
        for theme in palette.THEMES:
            self.register_theme(theme)
        # A new question takes no answer for this long: no one reads a question that fast,
        # and a double Enter or a bouncing key would otherwise answer it unseen.
        self.settle_seconds = settle_seconds
        self.session = session
        self.deck = deck
        self.tag = tag  # rounds started from the command line play only items with this tag
        self.levels = levels  # ...and only the items of these levels (empty: every item)
        self.round_size = size
        self.seed = seed
        self.start_round = start_round
        self.open_lab = open_lab
        self.mode = mode  # the mode of rounds started from the command line
        self.minutes, self.questions = minutes, questions  # an interview's, from the command line
        self.lab_folders = tuple(lab_folders)  # where *.lab.yaml files may add GPUs and models
        self._warned_unsaved = False

    def on_mount(self) -> None:
        self.apply_theme()
        self.open()
        self.call_after_refresh(_started)

    def open(self) -> None:
        """The first screens. (Textual calls every class's on_mount, so a subclass that
        starts elsewhere overrides this instead.)"""
        self.push_screen(HomeScreen())
        for notice in self.session.notices:
            self.notify(printable(notice), markup=False, timeout=10)
        self.warn_unsaved()
        if self.start_round:
            self.play(self.deck, self.mode, self.tag, self.levels)
        elif self.open_lab:
            self.show_lab()

    @property
    def data_root(self) -> Path:
        """The data folder of the players (the default player's store is in it); when the
        app was given none, the one the command line would use."""
        if self._root is None:
            from vocabgame.paths import default_data_dir

            return default_data_dir()
        return self._root

    def show_leaderboard(self) -> None:
        """The leaderboard of the data folder's players."""
        from vocabgame.ui.screens.leaderboard import LeaderboardScreen

        self.push_screen(LeaderboardScreen(self.data_root, self.session.clock()))

    def show_room(self) -> None:
        """Join the data folder's room, as the player this game plays as."""
        from vocabgame.ui.screens.room import join

        join(self, self.data_root)

    def start_room(self) -> None:
        """Open a room of every deck (the countdown setting per question) and join it."""
        from vocabgame.ui.screens.room import start

        start(self, self.data_root, self.seed)

    def show_lab(self) -> None:
        """Open the serving lab on the catalogue of the session's deck folders."""
        from vocabgame.ui.screens.lab import LabScreen

        self.push_screen(LabScreen(self.lab_folders))

    def apply_theme(self) -> None:
        """Use the theme of the settings, for the widgets and for right, wrong and warnings."""
        theme = self.session.settings.theme
        if theme in self.available_themes:
            self.theme = theme
        palette.use(self.current_theme)

    def warn_unsaved(self) -> None:
        """Say once, when the store turns out to be read-only, that answers are not kept."""
        problem = self.session.not_saving
        if problem is not None and not self._warned_unsaved:
            self._warned_unsaved = True
            self.notify(
                printable(f"{problem} You can still play; answers are not being saved."),
                title="Not saving",
                severity="warning",
                markup=False,
                timeout=12,
            )

    def play(
        self,
        deck_id: str | Sequence[str] | None,
        mode: str = ModeId.LEARN,
        tag: str | None = None,
        levels: tuple[str, ...] = (),
        instead_of: Screen[Any] | None = None,
    ) -> bool:
        """Start playing a deck (None: all decks; or several) in a mode, only the items with
        `tag` and of `levels` when given, and show it on the mode's screen (`mode_screen`), in
        place of `instead_of` if that is on top (the mode picker: the screen under it is not
        shown, restyled and laid out again for a moment first). False if nothing started (the
        player was told why)."""
        rules = by_name(mode)
        choice = Selection(
            deck_id, tag, self.round_size, self.seed, self.minutes, self.questions, levels
        )
        try:
            started = self.session.start(rules.id, choice)
        except StoreError as exc:
            self.cannot_start(exc)
            return False
        except ValueError as exc:  # a tag no item has, or levels no item is of
            self.notify(printable(str(exc)), title="Nothing to play", markup=False, timeout=8)
            return False
        if started is None:
            self.notify(rules.nothing_to_play, title="Nothing to play", timeout=8, markup=False)
            return False
        screen = mode_screen(rules.id, started)
        if instead_of is not None and self.screen is instead_of:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)
        return True

    def play_misses(
        self, deck_id: str | None, title: str, keys: Sequence[FaceKey], replace: bool = True
    ) -> None:
        """From the results: a round of just the questions missed, in place of the results
        (`replace`), or from the stats screen, over it: answers are saved, due dates stay."""
        try:
            round_: Round | None = self.session.start_misses_round(
                deck_id, title, keys, seed=self.seed
            )
        except StoreError as exc:
            self.cannot_start(exc)
            return
        if round_ is None:
            self.notify(
                "Those questions are no longer in the deck.", title="Nothing to play", markup=False
            )
            return
        from vocabgame.ui.screens.round import RoundScreen

        if replace:
            self.switch_screen(RoundScreen(round_))
        else:
            self.push_screen(RoundScreen(round_))

    def show_stats(self, deck_id: str | None = None) -> None:
        """The stats screen for a deck (None: everything)."""
        from vocabgame.ui.screens.stats import StatsScreen

        self.push_screen(StatsScreen(deck_id))

    def cannot_start(self, exc: StoreError) -> None:
        self.notify(
            printable(str(exc)),
            title="Cannot start a round",
            severity="error",
            timeout=10,
            markup=False,
        )
