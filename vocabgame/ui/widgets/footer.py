"""The footer every screen shows: Textual's, rebuilt once per frame however often the keys
change in it.

Textual's `Footer` remounts all its keys each time the screen's bindings change; opening the
home screen changes them several times before its first frame (focus, the highlighted row,
the keys a row allows), and each rebuild mounts a dozen widgets."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer


class KeysFooter(Footer):
    """A `Footer` whose rebuilds wait for the next refresh and collapse into one."""

    _rebuild_pending = False

    def bindings_changed(self, screen: Screen[object]) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen and not self._rebuild_pending:
            self._rebuild_pending = True
            self.call_after_refresh(self._rebuild)

    async def _rebuild(self) -> None:
        self._rebuild_pending = False
        await self.recompose()
