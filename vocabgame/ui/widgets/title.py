"""The title line at the top of the home, lab and preview screens.

It draws what Textual's `Header` draws there (with no icon and no clock): the screen's
title, or the app's, and its sub-title, centred between the icon's and the clock's places.
The `Header` is four widgets, each with a stylesheet of its own to read before the first
frame, and it sets its title a message later; this is one `Static`, styled in `app.tcss`."""

from __future__ import annotations

from textual.widgets import Static


class TitleBar(Static):
    """The screen's (or else the app's) title and sub-title, kept up to date."""

    def on_mount(self) -> None:
        self._show()
        for owner in (self.app, self.screen):
            self.watch(owner, "title", self._show, init=False)
            self.watch(owner, "sub_title", self._show, init=False)

    def _show(self) -> None:
        screen, app = self.screen, self.app
        title = screen.title if screen.title is not None else app.title
        sub_title = screen.sub_title if screen.sub_title is not None else app.sub_title
        self.update(app.format_title(title, sub_title))
