"""The footer every screen shows: Textual's, rebuilt once per frame however often the keys
change in it, and cut to the width of the terminal so the keys to leave and to list the
rest (q, Escape, ?) are always among those shown.

Textual's `Footer` remounts all its keys each time the screen's bindings change; opening the
home screen changes them several times before its first frame (focus, the highlighted row,
the keys a row allows), and each rebuild mounts a dozen widgets. And it lays its keys out in
a row that scrolls: on a narrow terminal the last ones (? and q) fell off its right end.
Most changes of the bindings leave the keys shown as they were (a round's answer key moves
the focus and back, a highlight moves within a list): those rebuild nothing."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

# The keys kept however narrow the footer: the ways out, and the one that lists every key.
KEPT = frozenset({"question_mark", "q", "escape"})
PALETTE = "-command-palette"  # the class of the command palette's key (Ctrl+P)
COMPACT = frozenset({"-compact"})  # the class of a compact key


def key_cells(key: FooterKey) -> int:
    """The cells `key` takes in the footer: its key, its description and their padding (the
    command palette's key also its border)."""
    cells = len(key.key_display) + 2 + (len(key.description) + 1 if key.description else 0)
    return cells + (2 if key.has_class(PALETTE) else 0)


def fit(keys: list[FooterKey], width: int) -> list[FooterKey]:
    """The keys that fit in `width` cells, in their order: all of them if they fit, else
    without the command palette's key (the keys screen names it), then without the other
    keys from the last, until they fit. The `KEPT` keys stay."""
    if sum(map(key_cells, keys)) <= width:
        return keys
    shown = [k for k in keys if not k.has_class(PALETTE)]
    dropped = [k for k in reversed(shown) if k.key not in KEPT]
    while sum(map(key_cells, shown)) > width and dropped:
        shown.remove(dropped.pop(0))
    return shown


class KeysFooter(Footer):
    """A `Footer` whose rebuilds wait for the next refresh and collapse into one, and whose
    keys fit its width (`fit`)."""

    _rebuild_pending = False
    _width = 0  # the terminal's width the keys were last fitted to
    _shown_for: object = None  # what the keys shown were made from (`_made_from`)

    def _made_from(self) -> object:
        """All that `compose` makes the keys from: the screen's bindings as the footer reads
        them (each with whether it is enabled and its tooltip), the width, the palette's key."""
        bindings = tuple(
            (binding, enabled, tooltip)
            for _, binding, enabled, tooltip in self.screen.active_bindings.values()
        )
        return bindings, self.app.size.width, self.show_command_palette

    def compose(self) -> ComposeResult:
        self._shown_for = self._made_from() if self._bindings_ready else None
        keys: list[Widget] = list(super().compose())
        plain = [k for k in keys if isinstance(k, FooterKey)]
        if len(plain) != len(keys):  # grouped keys: Textual's own layout, which scrolls
            yield from keys
            return
        self._width = self.app.size.width
        for key in plain:
            # A key takes `-compact` once mounted (its `compact` is true), restyling itself
            # after its first styling; given it before, the class is there once styled.
            key.add_class(*COMPACT, update=False)
        yield from fit(plain, self._width)

    def on_resize(self) -> None:
        # Another width may fit more keys, or fewer (the first layout is no other width).
        width = self.app.size.width
        if self._bindings_ready and width != self._width and not self._rebuild_pending:
            self._rebuild_pending = True
            self.call_after_refresh(self._rebuild)

    def bindings_changed(self, screen: Screen[object]) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen and not self._rebuild_pending:
            self._rebuild_pending = True
            self.call_after_refresh(self._rebuild)

    async def _rebuild(self) -> None:
        self._rebuild_pending = False
        if self.is_attached and self._made_from() != self._shown_for:
            await self.recompose()
