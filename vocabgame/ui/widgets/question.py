"""The part of a screen that asks a question: its label, its prompt in a box of its own, the
numbered choices or the box an answer is typed in, and the settle time a new question takes no
answer in. The round screen (and preview, which is one) and the interview screen ask through
it, so a fix to how a question takes input lands once.

It is not a container of its own: the screens lay the choice list and their feedback out
against each other (each takes the room left), so it composes its widgets into the screen
and keeps what a question on screen needs."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input, Static

from vocabgame.printable import printable
from vocabgame.quiz import Kind, Question
from vocabgame.store import StoreError
from vocabgame.ui.host import host
from vocabgame.ui.widgets.choices import ChoiceList

T = TypeVar("T")

PLACEHOLDERS = {
    Kind.TYPED: "Type the term, then Enter",
    Kind.NUMBER: "Type a number{unit}, then Enter",
    Kind.RECALL: "Think of your answer (notes optional), then Enter to reveal",
}
EMPTY = "Type an answer first, then press Enter."
SETTLING = "settling"  # the choice list's class while it takes no keys: drawn dim


class QuestionView:
    def __init__(self, screen: Screen[Any], placeholders: Mapping[Kind, str] = PLACEHOLDERS):
        self.screen = screen
        self.placeholders = placeholders
        # False from the moment a question is put up until it has been painted: a key that
        # arrived with the one that left the last question must not answer this one unseen.
        self.armed = False
        self.shown_at = 0.0  # monotonic time the question went up
        self._settle_timer: Timer | None = None  # undims the choices once they take keys

    def compose(self) -> ComposeResult:
        yield Static(id="label")
        # The prompt has a box of its own above the choices, so it stays on screen however
        # small the terminal: long choice lists and long feedback scroll under it.
        with VerticalScroll(id="prompt-box"):
            yield Static(id="prompt")
        yield ChoiceList(id="choices")
        # No validation (the game has no validators): Textual's validating on each change set
        # a class that restyled the field as it was made, before it was even mounted.
        yield Input(id="answer", validate_on=())

    @property
    def choices(self) -> ChoiceList:
        return self.screen.query_one("#choices", ChoiceList)

    @property
    def answer(self) -> Input:
        return self.screen.query_one("#answer", Input)

    def put(self, question: Question) -> None:
        """Put a question up: its prompt, its choices (or an empty answer box). It takes no
        answer until `arm` is called once it is painted and the settle time has passed."""
        self.screen.query_one("#prompt", Static).update(Text(question.prompt))
        self.answer.value = ""
        if question.kind == Kind.CHOICE:
            self.choices.put([c.text for c in question.choices])
        else:
            self.choices.clear_options()
        self.armed = False
        self.hold()

    def hold(self) -> None:
        """Start the settle time again (a key pressed with the one that closed a dialog must
        not answer): the choices are drawn dim until it has passed and they take keys."""
        self.shown_at = time.monotonic()
        if self._settle_timer is not None:
            self._settle_timer.stop()
            self._settle_timer = None
        if self.armed:
            self._undim_after_settling()
        elif self._settle_seconds() > 0:
            self.choices.add_class(SETTLING)

    def arm(self) -> None:
        """The question is painted: it takes answers once the settle time has passed, and
        its choices, dim until then, are drawn as usual."""
        self.armed = True
        self._undim_after_settling()

    def _settle_seconds(self) -> float:
        return host(self.screen.app).settle_seconds

    def _undim_after_settling(self) -> None:
        left = self._settle_seconds() - (time.monotonic() - self.shown_at)
        if left <= 0:
            self.choices.remove_class(SETTLING)
            return
        self.choices.add_class(SETTLING)
        # Once per question, not per key: a class change restyles the whole list.
        self._settle_timer = self.screen.set_timer(left, self._settled)

    def _settled(self) -> None:
        self._settle_timer = None
        self.choices.remove_class(SETTLING)

    def ready(self, settle_seconds: float) -> bool:
        """Whether the question may take an answer: painted, and up long enough that a key
        pressed with the one that left the last question is not taken for an answer."""
        return self.armed and time.monotonic() - self.shown_at >= settle_seconds

    def ask(self, question: Question, label: str | None = None, hint: str = "") -> None:
        """Show the question's way of answering, focused: the choice list or the answer box
        with its placeholder; the label above it (`label`, else the question's) and the keys
        under it (then `hint`)."""
        is_choice = question.kind == Kind.CHOICE
        self.choices.display, self.answer.display = is_choice, not is_choice
        self.screen.query_one("#label", Static).update(Text(label or question.label))
        if is_choice:
            self.choices.focus()
            keys = f"Press 1–{len(question.choices)}, or ↑ ↓ and Enter."
            self.hint(f"{keys} {hint}" if hint else keys)
            return
        unit = f" in {question.unit}" if question.unit else ""
        self.answer.placeholder = self.placeholders[question.kind].format(unit=unit)
        self.answer.focus()
        self.hint(hint)

    def hint(self, *texts: str) -> None:
        """The line under the question: the first of `texts` that fits the width (the last
        one, if none does)."""
        room = self.screen.size.width - 2
        text = next((t for t in texts if len(t) <= room), texts[-1])
        self.screen.query_one("#hint", Static).update(Text(text, style="dim"))

    def stored(self, action: Callable[[], T], failure: str) -> T | None:
        """Run a store write; if the store refuses, say so (under the title `failure`) and
        return None: nothing changed."""
        try:
            return action()
        except StoreError as exc:
            self.failed(exc, failure)
            return None

    def failed(self, exc: StoreError, failure: str) -> None:
        """Say why the store refused; the sentence names a path, so it is never markup."""
        self.screen.app.notify(
            printable(str(exc)), title=failure, severity="error", timeout=10, markup=False
        )

    @staticmethod
    def typed(value: str) -> str | None:
        """The typed answer to grade, or None when nothing was typed (say `EMPTY` then)."""
        return value if value.strip() else None
