"""The choices of a question, as a list that keeps the focus for a moment once hidden.

When an answer is picked the list gives way to the feedback at once, but the focus stays on
it until the feedback's first frame is painted: moving the focus restyles the list and the
widget that takes it and sends a round of focus messages, which would otherwise delay that
frame. The round screen moves it right after. Until then the hidden list takes its keys as it
did when the focus moved before the frame: an Enter picks nothing (the question is answered),
so a bouncing Enter does not leave the feedback unread."""

from __future__ import annotations

from typing import Self

from textual.widgets import OptionList


class ChoiceList(OptionList):
    def blur(self) -> Self:
        # Textual blurs a widget as it is hidden, handing the focus to the first sibling that
        # takes it (the prompt's box); the round screen gives it to the feedback instead.
        if not self.display:
            return self
        return super().blur()
