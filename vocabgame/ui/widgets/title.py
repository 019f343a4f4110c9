"""The title line at the top of the home, lab and preview screens.

It draws what Textual's `Header` draws there (with no icon and no clock): the screen's
title, or the app's, and its sub-title, centred between the icon's and the clock's places.
The `Header` is four widgets, each with a stylesheet of its own to read before the first
frame, and it sets its title a message later; this is one `Static`, styled in `app.tcss`.

The space before the dash parting title and sub-title goes with the title, not with the dim
dash: a styled run of text that starts with a space loses it in SVG viewers, so the pictures
of the screen read "vocabgame—"; terminals draw either the same."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static


def title_line(title: str, sub_title: str) -> Content:
    """The title, then " — " and the sub-title, dim (the title alone if there is none)."""
    if not sub_title:
        return Content(title)
    return Content.assemble(Content(title + " "), ("— ", "dim"), Content(sub_title).stylize("dim"))


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
        self.update(title_line(title, sub_title))
