"""A question's choices and the feedback's marked choices are drawn directly, not through a
Rich grid: they must come out exactly as the grid drew them, at any width, for any choice
text."""

from __future__ import annotations

import dataclasses
import functools
import random

import pytest
from rich.console import Console, RenderableType
from rich.segment import Segment
from rich.style import Style

from vocabgame.deck import load_catalog
from vocabgame.kinds import build_question, faces
from vocabgame.paths import builtin_decks_dir
from vocabgame.quiz import Kind, Question
from vocabgame.ui.widgets.feedback import NumberedChoice, marked_choices

CONSOLE = Console(width=200, color_system="truecolor", force_terminal=True)
HOSTILE = [
    "",
    " ",
    "x",
    "词汇游戏的选择题" * 5,
    "🙂 emoji 🙂🙂 and wide ＦＵＬＬ",
    "a" * 300,
    "word " * 40,
    "tab\tin text",
    "  leading and trailing  ",
    "line\nbreak inside",
]


def drawn(renderable: RenderableType, width: int) -> list[list[tuple[str, Style]]]:
    """The lines as text and style, however the segments happen to be split."""
    options = CONSOLE.options.update(width=width, highlight=False)
    lines = Segment.split_and_crop_lines(
        CONSOLE.render(renderable, options), width, include_new_lines=False, pad=False
    )
    return [
        [
            (s.text, s.style or Style.null())
            for s in Segment.simplify(Segment(s.text, s.style or Style.null()) for s in line)
        ]
        for line in lines
    ]


@functools.cache
def choice_questions() -> list[Question]:
    questions = []
    for deck in load_catalog([builtin_decks_dir()]).decks:
        for key in faces(deck):
            question = build_question(deck, key, random.Random(1))
            if question.kind == Kind.CHOICE:
                questions.append(question)
    return questions


def test_the_built_in_decks_choices_are_drawn_as_the_grid_drew_them() -> None:
    questions = choice_questions()
    assert len(questions) > 100
    for question in random.Random(5).sample(questions, 80):
        for picked in (None, 0, len(question.choices) - 1):
            marked = marked_choices(question, picked)
            for width in (5, 9, 34, 54, 78, 108):
                assert drawn(marked, width) == drawn(marked.as_table(), width), (width, picked)
        for number, choice in enumerate(question.choices, 1):
            shown = NumberedChoice(number, choice.text)
            for width in (3, 4, 9, 34, 54, 78, 108):
                assert drawn(shown, width) == drawn(shown.as_table(), width), width


@pytest.mark.parametrize("shift", range(len(HOSTILE)))
def test_any_choice_text_is_drawn_as_the_grid_drew_it(shift: int) -> None:
    question = choice_questions()[0]
    choices = tuple(
        dataclasses.replace(question.choices[n % len(question.choices)], text=HOSTILE[shift + n])
        if shift + n < len(HOSTILE)
        else question.choices[n % len(question.choices)]
        for n in range(4)
    )
    question = dataclasses.replace(question, choices=choices)
    for picked in (None, 0, 1, 3):
        marked = marked_choices(question, picked)
        for width in range(1, 60, 2):
            assert drawn(marked, width) == drawn(marked.as_table(), width), (width, picked)


@pytest.mark.parametrize("text", HOSTILE)
def test_any_choice_text_is_asked_as_the_grid_drew_it(text: str) -> None:
    for number in (1, 9):
        shown = NumberedChoice(number, text)
        for width in range(1, 60):
            assert drawn(shown, width) == drawn(shown.as_table(), width), (width, number)


async def test_a_caveat_is_labelled_bold_like_the_example(make_app) -> None:
    """The term's caveat comes in its explanation; its label is bold as "Example:" is."""
    from rich.text import Text

    from vocabgame.ui.screens.round import RoundScreen

    from .test_play import answer

    app = make_app(start_round=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        for _ in range(12):
            assert isinstance(app.screen, RoundScreen)
            await answer(pilot, app, False)
            body = app.screen.query_one("#feedback").content
            texts = [p for p in getattr(body, "renderables", [body]) if isinstance(p, Text)]
            bold = {
                t.plain[span.start : span.end]
                for t in texts
                for span in t.spans
                if "bold" in str(span.style)
            }
            if any("Caveat: " in t.plain for t in texts):
                assert {"Caveat: ", "Example: "} <= bold
                return
            await pilot.press("enter")
            await pilot.pause()
    raise AssertionError("no feedback showed the caveat")
