"""The choices of a question, as a list that marks them in place and keeps the focus for a
moment once hidden.

When a choice is picked the list marks the right one ✓ and a wrong pick ✗ where they stand,
and gives way to the feedback in the frame after. The focus stays on it until the feedback's
first whole frame is painted: moving the focus restyles the list and the widget that takes it
and sends a round of focus messages, which would otherwise delay that frame. The round screen
moves it right after. Until then the list takes its keys as it did when the focus moved
before the frame: an Enter picks nothing (the question is answered), so a bouncing Enter does
not leave the feedback unread.

Each choice is drawn once per width (`laid_out_once`): Textual draws every option again
whenever one of them changes, and again whenever one is highlighted. Marking draws only the
marked choices again: Textual's own way to swap a prompt (`replace_option_prompt_at_index`)
drops the drawn lines of every option, which made the key's frame draw all of them. And it
paints only their rows, unless a mark makes a choice take another line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self, cast

from rich.text import Text
from textual.visual import Visual
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from vocabgame.ui.widgets.feedback import LaidOutOnce, MarkedChoices, NumberedChoice, laid_out_once

Marks = list[tuple[int, Visual]]  # (the index of a choice, its prompt marked)


class ChoiceOption(Option):
    """A choice in the list, whose prompt the list swaps for its marked one."""

    def swap_prompt(self, prompt: Visual) -> None:
        self._set_prompt(prompt)


class ChoiceList(OptionList):
    def blur(self) -> Self:
        # Textual blurs a widget as it is hidden, handing the focus to the first sibling that
        # takes it (the prompt's box); the round screen gives it to the feedback instead.
        if not self.display:
            return self
        return super().blur()

    def put(self, texts: Sequence[str]) -> None:
        """The choices of a question, numbered from 1, the first highlighted."""
        self.clear_options()
        self.add_options(
            ChoiceOption(laid_out_once(self, NumberedChoice(n, text)), id=str(n - 1))
            for n, text in enumerate(texts, 1)
        )
        self.highlighted = 0

    def marks(self, rows: Sequence[tuple[Text, Text, Text]]) -> Marks:
        """The choices marked (the rows of `marked_choices`), ready for `mark`: only the rows
        with a mark, each drawn now at the width the choices are drawn at, so a round can make
        every pick's marks while the question is read and paint them at once."""
        return [
            (
                index,
                laid_out_once(
                    self, MarkedChoices([row]), like=self.get_option_at_index(index).prompt
                ),
            )
            for index, row in enumerate(rows)
            if row[0].plain.strip()
        ]

    @staticmethod
    def _same_height(before: object, after: Visual) -> bool:
        """Whether `after` takes as many lines as `before` at the width `before` was drawn
        at (False when that is not known)."""
        if not isinstance(before, LaidOutOnce) or not isinstance(after, LaidOutOnce):
            return False
        width = before.width_drawn
        return width is not None and before.height_at(width) == after.height_at(width)

    def mark(self, marks: Marks) -> None:
        """Mark the choices in place (`marks`): only the rows with a mark change, and they
        keep their lines (unless the one cell the mark takes makes a long choice wrap once
        more), so the verdict can show in the frame after the key. What the other choices
        were drawn as is kept, and only the marked rows are painted again: the whole list
        only when a marked choice takes more lines (or fewer) than it did."""
        drawn = self._option_render_cache  # Textual's LRUCache: keys(), no iterating
        same_lines = True
        for index, prompt in marks:
            choice = cast(ChoiceOption, self.get_option_at_index(index))  # `put` made it
            same_lines = same_lines and self._same_height(choice.prompt, prompt)
            choice.swap_prompt(prompt)
            for key in [k for k in drawn.keys() if k[0] is choice]:  # noqa: SIM118
                drawn.discard(key)
        if not same_lines:
            self._line_cache.clear()
            self.refresh()
            return
        lines, heights = self._index_to_line, self._heights
        for index, _ in marks:
            self.refresh_lines(lines[index], heights[index])
