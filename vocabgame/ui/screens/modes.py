"""The mode picker over the home screen: each game mode with one line saying what it is; a
digit or Enter plays it on the highlighted deck, `l` steps through the levels the round keeps
(every level, then L3 to L6 one at a time), Escape goes back."""

from __future__ import annotations

from collections.abc import Callable

from rich.table import Table
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from vocabgame.model import LEVELS, levels_label
from vocabgame.play import Mode
from vocabgame.play.modes import pickable
from vocabgame.ui.widgets.feedback import numbered


def mode_option(number: int, mode: Mode) -> Table:
    """A mode with its key in a column of its own, as choices are drawn (`numbered`), so the
    description's wrapped lines stay under it."""
    grid = numbered(number, mode.title)
    grid.add_row("", Text(mode.description, style="dim"))
    return grid


class ModePickerScreen(ModalScreen[str | None]):
    DEFAULT_CSS = """
    ModePickerScreen { align: center middle; }
    ModePickerScreen > Vertical {
        width: 90; max-width: 100%; height: auto; max-height: 100%; padding: 0 1;
        border: round $accent; background: $surface;
    }
    ModePickerScreen #modes-title { text-style: bold; }
    ModePickerScreen OptionList { height: auto; border: none; scrollbar-size-vertical: 1; }
    ModePickerScreen #keys { color: $text-muted; }
    """
    BINDINGS = [
        *(
            Binding(str(n), f"pick({n})", show=False, tooltip="play this mode")
            for n in range(1, 10)
        ),
        Binding("l", "level", show=False, tooltip="play only one level: L3, L4, L5, L6, or all"),
        Binding("escape", "cancel", show=False, tooltip="back to the decks"),
    ]

    def __init__(self, deck_title: str, play: Callable[[str], bool]) -> None:
        """`play`: starts a round of a mode picked, in place of this screen; False if it had
        nothing to play (this screen then closes with the mode as its result)."""
        super().__init__()
        self.deck_title = deck_title
        self.play = play
        self.modes = pickable()  # the modes registered for the picker, in their order
        self.levels: tuple[str, ...] = ()  # the round's levels, `l` to change (empty: all)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text(), id="modes-title")
            yield OptionList(
                *(Option(mode_option(n, m), id=m.id) for n, m in enumerate(self.modes, 1)),
                id="modes",
            )
            yield Static(id="keys")

    def title_text(self) -> Text:
        levels = f" · {levels_label(self.levels)}" if self.levels else ""
        return Text(f"Play {self.deck_title}{levels} as …")

    def on_mount(self) -> None:
        self.query_one("#modes", OptionList).focus()

    def on_resize(self, event: events.Resize) -> None:
        # The modes take what the terminal has left under the title and over the keys line
        # (and the box's border and the list's focus border): past that they scroll, and
        # the keys stay in view.
        self.query_one("#modes", OptionList).styles.max_height = max(3, event.size.height - 6)
        # The keys on one line: the longest that fits the box (its border and padding: 4).
        n = len(self.modes)
        keys = (
            f"1–{n} or ↑ ↓ and Enter: play   l: level   Escape: back",
            f"1–{n} ↑ ↓ Enter: play · l: level · Esc: back",
            f"1–{n} ↑ ↓ Enter: play · Esc: back",
        )
        room = min(event.size.width, 90) - 4
        self.query_one("#keys", Static).update(
            Text(next((k for k in keys if len(k) <= room), keys[-1]))
        )

    def action_level(self) -> None:
        # Every level, then each on its own: one key, no menu within the menu.
        at = LEVELS.index(self.levels[0]) + 1 if len(self.levels) == 1 else 0
        self.levels = (LEVELS[at],) if at < len(LEVELS) else ()
        self.query_one("#modes-title", Static).update(self.title_text())

    def action_pick(self, number: int) -> None:
        if number <= len(self.modes):
            self.choose(self.modes[number - 1].id)

    @on(OptionList.OptionSelected, "#modes")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_id is not None:
            self.choose(event.option_id)

    def choose(self, mode: str) -> None:
        """Play `mode`, its round's screen taking this one's place; or, with nothing to play,
        close the picker with `mode` as its result."""
        if not self.play(mode):
            self.dismiss(mode)

    def action_cancel(self) -> None:
        self.dismiss(None)
