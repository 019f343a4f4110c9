"""The keys of the screen in front, in a modal that any key closes. Built from the screen's
active bindings (each binding's tooltip says what it does), so it cannot drift from them; in
a browser it leaves out the keys that browsers take for themselves. On a terminal too small
for them all, the keys scroll (↑ ↓ PgUp PgDn) under their title, and the line saying how to
close stays in view."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.events import Key, Resize
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

_NAMES = {
    "enter": "Enter",
    "space": "Space",
    "escape": "Escape",
    "question_mark": "?",
    "up": "↑",
    "down": "↓",
    "pageup": "PgUp",
    "pagedown": "PgDn",
}


# Function keys that browsers act on (help, find, reload, address bar, caret browsing, menu,
# full screen, developer tools) before a page sees them, or that move focus out of it.
_BROWSER_F_KEYS = {"f1", "f3", "f5", "f6", "f7", "f10", "f11", "f12"}


def works_in_browser(key: str) -> bool:
    """Whether a key reaches a game played in a browser tab. Ctrl, Alt and Super chords do
    not reliably: Ctrl+F finds, Ctrl+W closes the tab, Ctrl+Q quits the browser, Alt+F opens
    its menu, and so on."""
    return not key.startswith(("ctrl+", "alt+", "super+", "meta+")) and key not in _BROWSER_F_KEYS


def key_name(key: str) -> str:
    """'ctrl+z' -> 'Ctrl+Z', 'question_mark' -> '?', 'f2' -> 'F2', 'u' -> 'u'."""
    if key in _NAMES:
        return _NAMES[key]
    if key[0] == "f" and key[1:].isdigit():
        return key.upper()
    if "+" in key:
        *mods, last = key.split("+")
        return "+".join([*(m.capitalize() for m in mods), key_name(last).upper()])
    return key


def _keys(keys: list[str]) -> str:
    digits = [k for k in keys if k.isdigit()]
    if len(digits) > 2 and digits == [str(n) for n in range(int(digits[0]), int(digits[-1]) + 1)]:
        rest = [k for k in keys if not k.isdigit()]
        return " / ".join([f"{digits[0]} – {digits[-1]}", *map(key_name, rest)])
    return " / ".join(key_name(k) for k in keys)


def key_rows(bindings: Iterable[Binding], browser: bool = False) -> list[tuple[str, str]]:
    """(keys, what they do) for every binding with a tooltip; bindings with the same tooltip
    share a row, in the order they were declared. With `browser`, only the keys that reach a
    page, and no row for an action that has none."""
    rows: dict[str, list[str]] = {}
    for binding in bindings:
        if binding.tooltip:
            keys = rows.setdefault(binding.tooltip, [])
            keys.extend(
                k
                for k in binding.key.split(",")
                if k not in keys and (not browser or works_in_browser(k))
            )
    return [(_keys(keys), what) for what, keys in rows.items() if keys]


def active_key_rows(screen: Screen[Any]) -> list[tuple[str, str]]:
    """The rows for the keys that work on `screen` now, in this front end (a terminal or a
    browser): its own first (even where the focused widget handles the same key, as a table
    handles Enter), then the focused widget's and the app's."""
    own = [b for b in type(screen).BINDINGS if isinstance(b, Binding)]
    return key_rows(
        [*own, *(active.binding for active in screen.active_bindings.values())],
        browser=screen.app.is_web,
    )


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical {
        width: 76; max-width: 100%; height: auto; max-height: 100%; padding: 0 1;
        border: round $accent; background: $surface;
    }
    HelpScreen VerticalScroll { height: auto; scrollbar-size-vertical: 1; }
    HelpScreen #keys-title { text-style: underline; }
    """
    CLOSE = "Press any key to close."
    # When the keys scroll, longest first: the first that fits is shown.
    CLOSE_SCROLLING = ("↑ ↓ PgDn: more keys · any other key closes.", "↓: more · other keys close.")
    CHROME = 4  # the box's border (2) and the lines above and below the keys
    SCROLL_KEYS = {"up", "down", "pageup", "pagedown", "home", "end"}

    def __init__(self, title: str, rows: list[tuple[str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.rows = rows

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for keys, what in self.rows:
            table.add_row(keys, what)
        with Vertical():
            yield Static(Text(self.title_text), id="keys-title")
            with VerticalScroll(can_focus=False):
                yield Static(table)
            yield Static(self.CLOSE, id="close", classes="dim")

    def on_resize(self, event: Resize) -> None:
        # The keys take what the terminal has left under the title and over the last line.
        self.query_one(VerticalScroll).styles.max_height = max(1, event.size.height - self.CHROME)
        self.call_after_refresh(self._say_how_to_close)

    def _say_how_to_close(self) -> None:
        close = self.query_one("#close", Static)
        if self.query_one(VerticalScroll).max_scroll_y:
            room = close.content_region.width
            close.update(
                next((t for t in self.CLOSE_SCROLLING if len(t) <= room), self.CLOSE_SCROLLING[-1])
            )
        else:
            close.update(self.CLOSE)

    def on_key(self, event: Key) -> None:
        event.stop()
        keys = self.query_one(VerticalScroll)
        if event.key in self.SCROLL_KEYS and keys.max_scroll_y:
            action = {"pageup": "page_up", "pagedown": "page_down"}.get(event.key, event.key)
            getattr(keys, f"scroll_{action}")(animate=False)
            return
        self.dismiss()

    def on_click(self) -> None:
        self.dismiss()
