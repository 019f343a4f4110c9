"""How a question's choices, an answer's feedback and a recall reveal are drawn. Deck text is
always plain `Text`, never parsed as markup.

The feedback reads at a glance: the verdict stands on one line of its own, the choices stay
with the right one and the picked one marked, and nothing already on screen is said twice.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from datetime import datetime
from typing import cast

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.visual import RenderOptions, RichVisual, Visual
from textual.visual import Style as VisualStyle
from textual.widget import Widget
from textual.widgets import Static

from vocabgame.play import Outcome
from vocabgame.quiz import RATING_NAMES, Kind, Question
from vocabgame.timefmt import until
from vocabgame.ui import palette


class LaidOutOnce(RichVisual):
    """A Rich renderable rendered once per width: the layout's height and the paint that
    follows it share that one render (Textual's own wrapper renders it for each)."""

    _lines: tuple[int, list[list[Segment]]] | None = None

    @property
    def renderable(self) -> RenderableType:
        """What is drawn."""
        return self._renderable

    @property
    def width_drawn(self) -> int | None:
        """The width it was last drawn at, if it was."""
        return None if self._lines is None else self._lines[0]

    def draw(self, width: int) -> None:
        """Draw it now at `width`, ready to be painted there."""
        self._lines_at(width)

    def _lines_at(self, width: int) -> list[list[Segment]]:
        if self._lines is None or self._lines[0] != width:
            app = self._widget.app
            options = app.console_options.update(highlight=False, width=width)
            segments = app.console.render(self._renderable, options)
            lines = Segment.split_and_crop_lines(
                segments, width, include_new_lines=False, pad=False
            )
            self._lines = (width, list(lines))
        return self._lines[1]

    def height_at(self, width: int) -> int:
        """How many lines it takes at `width`."""
        return len(self._lines_at(width))

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self.height_at(width)

    def render_strips(
        self, width: int, height: int | None, style: VisualStyle, options: RenderOptions
    ) -> list[Strip]:
        rich_style = style.rich_style
        lines = self._lines_at(width)[:height]
        if not rich_style:
            return [Strip(line) for line in lines]
        return [Strip(Segment.apply_style(line, rich_style)) for line in lines]


def laid_out_once(widget: Widget, renderable: RenderableType, like: object | None = None) -> Visual:
    """`renderable` as a visual rendered once per width, however often it is measured and
    painted: for content that is drawn again unchanged (an option list re-renders each option
    whenever one of them changes). Given `like`, a visual of this kind already drawn, it is
    rendered now at the width that one was drawn at: content made ready before it is shown
    is then painted with no work left."""
    visual = LaidOutOnce(widget, renderable)
    if isinstance(like, LaidOutOnce) and like.width_drawn is not None:
        visual.draw(like.width_drawn)
    return visual


class FeedbackPanel(Static):
    """The feedback (or a recall's model answer): a `Static` whose Rich content is rendered
    once for both its height and its paint."""

    _once: tuple[object, LaidOutOnce] | None = None

    def render(self) -> Visual:
        visual = self.visual
        if type(visual) is not RichVisual:  # text: Textual's own `Content`, already fast
            return visual
        if self._once is None or self._once[0] is not visual:
            self._once = (visual, LaidOutOnce(self, cast(RenderableType, self.content)))
        return self._once[1]


def numbered(number: int, text: str) -> Table:
    """A choice with its key in a column of its own, so wrapped lines stay indented."""
    grid = Table.grid(padding=(0, 2, 0, 0), expand=True)
    grid.add_column(width=1, style="bold")
    grid.add_column(ratio=1)
    grid.add_row(str(number), Text(text))
    return grid


class _KeyedLines(ABC):
    """Rows of a few one-cell columns (a key, a mark) and then a text whose wrapped lines are
    indented under its first. Drawn line by line into the same segments as the Rich grid of
    `as_table`, which measures every cell and shares the width out in fractions before
    drawing: that was most of the cost of drawing a question's choices and their feedback
    (`tests/ui/test_feedback_drawing.py` compares the two)."""

    KEYS: int  # the cells before the text, padding included (each kind sets it)

    @abstractmethod
    def as_table(self) -> Table:
        """The Rich grid these lines are drawn as."""

    @abstractmethod
    def _rows(self, console: Console) -> Iterable[tuple[list[Segment], list[Segment], Text]]:
        """Each row's cells before its text's first line, before its other lines, and the
        text."""

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.as_table())

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        if width <= self.KEYS:
            yield self.as_table()
            return
        text_options = options.update(
            width=width - self.KEYS, justify="left", no_wrap=False, overflow="ellipsis", height=None
        )
        new_line = Segment.line()
        for first, under, text in self._rows(console):
            lines = console.render_lines(text, text_options, pad=True) or [[]]
            yield from first
            yield from lines[0]
            yield new_line
            for line in lines[1:]:
                yield from under
                yield from line
                yield new_line


class NumberedChoice(_KeyedLines):
    """A choice as a question shows it: `numbered`, drawn line by line."""

    KEYS = 3  # the key, and two cells of padding

    def __init__(self, number: int, text: str) -> None:
        self.number = number
        self.text = text

    def as_table(self) -> Table:
        return numbered(self.number, self.text)

    def _rows(self, console: Console) -> Iterable[tuple[list[Segment], list[Segment], Text]]:
        bold = console.get_style("bold")
        first = [Segment(str(self.number), bold), Segment("  ", bold)]
        yield first, [Segment("   ", bold)], Text(self.text)


class MarkedChoices(_KeyedLines):
    """The choices as they were, the right one marked ✓ and a wrong pick marked ✗: three
    columns (the mark, the key, the choice), a choice's wrapped lines indented under its
    first."""

    KEYS = 4  # the mark and the key, each one cell and one cell of padding

    def __init__(self, rows: list[tuple[Text, Text, Text]]) -> None:
        self.rows = rows

    def as_table(self) -> Table:
        grid = Table.grid(padding=(0, 1, 0, 0), expand=True)
        grid.add_column(width=1)
        grid.add_column(width=1, style="bold")
        grid.add_column(ratio=1)
        for row in self.rows:
            grid.add_row(*row)
        return grid

    def _rows(self, console: Console) -> Iterable[tuple[list[Segment], list[Segment], Text]]:
        bold = console.get_style("bold")
        gap, key_gap = Segment(" ", Style.null()), Segment(" ", bold)
        under = [Segment("  ", Style.null()), Segment("  ", bold)]
        for mark, key, text in self.rows:
            first = [
                Segment(mark.plain, console.get_style(mark.style)),
                gap,
                Segment(key.plain, bold + console.get_style(key.style)),
                key_gap,
            ]
            yield first, under, text


def marked_choices(question: Question, picked: int | None) -> MarkedChoices:
    """The choices as they were, the right one marked ✓ and a wrong pick marked ✗."""
    rows: list[tuple[Text, Text, Text]] = []
    for index, choice in enumerate(question.choices):
        right = choice.value == question.answer
        if right:
            mark, style = Text("✓", style=palette.right()), palette.right()
        elif index == picked:
            mark, style = Text("✗", style=palette.wrong()), palette.wrong(bold=False)
        else:  # neither right nor picked: one dim line, so the ones that matter stand out
            rows.append(
                (
                    Text(" "),
                    Text(str(index + 1), style="dim"),
                    Text(choice.text, style="dim", no_wrap=True, overflow="ellipsis"),
                )
            )
            continue
        rows.append((mark, Text(str(index + 1)), Text(choice.text, style=style)))
    return MarkedChoices(rows)


def verdict_text(outcome: Outcome) -> Text:
    """One line: right or not (or the grade given to a recall), and the points given, split
    into the answer's and the time bonus when there is one."""
    grade = outcome.grade
    if outcome.self_graded:
        text = Text(f"You graded it {RATING_NAMES[grade.rating]}", style="bold")
    elif grade.correct:
        text = Text("✓ Right", style=palette.right())
    else:
        text = Text("✗ Not quite", style=palette.wrong())
        right = [
            n
            for n, c in enumerate(outcome.question.choices, 1)
            if c.value == outcome.question.answer
        ]
        if right:
            text.append(f" · the answer is {right[0]}", style="bold")
    given = outcome.points + outcome.time_bonus
    if given:
        text.append(f" · +{given} points", style=palette.right(bold=False))
    if outcome.time_bonus:
        text.append(
            f" ({outcome.points} + {outcome.time_bonus} for time)", style=palette.right(bold=False)
        )
    return text


def _on_screen(question: Question) -> set[str]:
    return {question.prompt.strip(), *(c.text.strip() for c in question.choices)}


def _explanation_lines(outcome: Outcome) -> Iterable[str]:
    """The explanation's lines, less those that only repeat what is on screen: a line that is
    the prompt or a choice, or a "Term: definition" line whose definition is (the term is then
    the marked choice or the answer line)."""
    shown = _on_screen(outcome.question)
    for line in outcome.grade.explanation.splitlines():
        _, sep, tail = line.partition(": ")
        if line.strip() in shown or (sep and tail.strip() in shown):
            continue
        yield line


# The labels a term's explanation starts its lines with, drawn bold as the feedback's own are.
EXPLANATION_LABELS = ("Caveat: ", "Formerly: ")


def hanging(rows: Iterable[tuple[Text | str, RenderableType]]) -> Table:
    """Rows of a label, then what it labels: a value too long for its line wraps under its own
    first line, not back under the label."""
    grid = Table.grid()
    grid.add_column(no_wrap=True)
    grid.add_column()
    for label, value in rows:
        grid.add_row(label, value)
    return grid


def _labelled(text: Text, label: str, value: str | None) -> None:
    """`label` in bold, then `value` on its line; nothing when there is no value."""
    if value:
        text.append(label, style="bold")
        text.append(value + "\n")


def _answer_text(outcome: Outcome, picked: int | None) -> Text:
    """What the answer was, when the screen does not show it already, and the grade's note."""
    grade, question = outcome.grade, outcome.question
    text = Text()
    if outcome.self_graded:
        _labelled(text, "Model answer: ", grade.right_answer)
        for point in grade.key_points:
            text.append("  • ")
            text.append(point + "\n")
        _labelled(text, "Common mistake: ", grade.mistake)
    elif question.kind == Kind.CHOICE:
        chosen = question.choices[picked].text if picked is not None else ""
        extra = grade.given[len(chosen) :].strip() if grade.given.startswith(chosen) else ""
        if not grade.correct and extra.startswith("(") and extra.endswith(")"):
            text.append(f"Your pick is the one {extra[1:-1]}.\n", style="italic")
    elif not grade.correct or grade.note:
        _labelled(text, "Answer: ", grade.right_answer)
    if grade.note:
        text.append(grade.note + "\n", style="italic")
    if outcome.first_points is not None:
        text.append(
            f"Answered again after an undo: it scores at most what the first answer did "
            f"({outcome.first_points} points).\n",
            style="italic",
        )
    return text


def _teaching_text(outcome: Outcome, example: str | None) -> Text:
    """Why not the choice, the distinction, why, the version it describes and the example."""
    grade = outcome.grade
    text = Text()
    _labelled(text, "Why not your choice: ", grade.why_not)
    _labelled(text, "Easy to confuse: ", grade.distinction)
    lines = list(_explanation_lines(outcome))
    if lines:
        if grade.explains_why:
            text.append("Why: ", style="bold")
        for line in lines:
            label = next((lb for lb in EXPLANATION_LABELS if line.startswith(lb)), "")
            text.append(label, style="bold")
            text.append(line[len(label) :] + "\n")
    _labelled(text, "As of: ", outcome.question.version)
    _labelled(text, "Example: ", example)
    return text


def _source_lines(outcome: Outcome, show_urls: bool) -> list[RenderableType]:
    """One short line a source: the title, a terminal hyperlink where the terminal has them."""
    lines: list[RenderableType] = []
    for source in outcome.grade.sources:
        line = Text("Source: ", style="dim", no_wrap=True, overflow="ellipsis")
        line.append(source.title, style=Style(dim=True, underline=True, link=source.url))
        lines.append(line)
        if show_urls:
            lines.append(Text("  " + source.url, style=Style(dim=True, link=source.url)))
    if outcome.grade.sources and not show_urls:
        lines.append(Text("l: show the full addresses", style="dim"))
    return lines


def feedback_body(
    outcome: Outcome,
    now: datetime,
    *,
    picked: int | None = None,
    example: str | None = None,
    show_urls: bool = False,
) -> RenderableType:
    """Everything under the verdict: the marked choices, what the answer was (when not on
    screen already), why, the example, the sources and what happens next."""
    parts: list[RenderableType] = []
    if outcome.question.kind == Kind.CHOICE:
        parts += [marked_choices(outcome.question, picked), Text()]
    text = _answer_text(outcome, picked)
    text.append_text(_teaching_text(outcome, example))
    text.rstrip()
    if text.plain:
        parts.append(text)
    parts += _source_lines(outcome, show_urls)
    if outcome.comes_back:
        parts.append(Text("It comes back later in this round.", style="italic"))
    elif outcome.next_due is not None:
        parts.append(Text(f"Next review {until(outcome.next_due, now)}.", style="italic"))
    return Group(*parts)


def reveal_text(question: Question) -> Text:
    """A recall question's model answer, and the four grades to choose from."""
    text = Text()
    text.append("Model answer: ", style="bold")
    text.append(question.answer + "\n")
    for point in question.key_points:
        text.append("  • ")
        text.append(point + "\n")
    _labelled(text, "Common mistake: ", question.mistake)
    text.append("\nHow well did you recall it?  ", style="bold")
    text.append("  ".join(f"{n} {name}" for n, name in RATING_NAMES.items()))
    return text
