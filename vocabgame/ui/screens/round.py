"""A round: the question, the player's answer, then feedback that explains why.

The screen's phase is one reactive value; `watch_phase` shows and hides what each phase needs.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from enum import Enum
from typing import TypeVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Input, OptionList, ProgressBar, Static

from vocabgame.play import Outcome, Round, Status
from vocabgame.printable import printable
from vocabgame.quiz import Kind, Question, Refused
from vocabgame.store import StoreError
from vocabgame.ui.host import Host, host
from vocabgame.ui.screens.confirm import confirm_end
from vocabgame.ui.screens.flag_note import toggle_flag
from vocabgame.ui.screens.help import HelpScreen, active_key_rows
from vocabgame.ui.screens.results import ResultsScreen
from vocabgame.ui.widgets.choices import ChoiceList, Marks
from vocabgame.ui.widgets.feedback import (
    FeedbackPanel,
    feedback_body,
    marked_choices,
    reveal_text,
    verdict_text,
)
from vocabgame.ui.widgets.footer import KeysFooter
from vocabgame.ui.widgets.question import EMPTY, QuestionView

T = TypeVar("T")


def status_figures(status: Status, width: int) -> str:
    """Where the player is and how they are doing, in the words that fit `width`."""
    if width >= 72:
        return (
            f"Question {status.number} of {status.total}   Score {status.score}   "
            f"Streak {status.streak}"
        )
    if width >= 50:
        return f"Q {status.number}/{status.total}  Score {status.score}  Streak {status.streak}"
    return f"Q {status.number}/{status.total}  Score {status.score}"


def feedback_keys(right: bool, undo: bool, scrolls: bool) -> tuple[str, ...]:
    """The keys after an answer, longest first (`hint` shows the first that fits): "I was
    right" where it applies, undo where the mode allows it, and that the feedback scrolls."""
    o = "   o: I was right" if right else ""
    u = "   u: undo" if undo else ""
    if scrolls:
        return (
            f"Enter: next   ↓ PgDn: more below{o}{u}   f: flag",
            f"Enter: next  ↓ PgDn: more below{o}",
            "Enter next · ↓ more" + ("  o: I was right" if right else ""),
            "Enter next · ↓ more",
        )
    return (
        f"Enter: next{o}{u}   f: flag",
        "Enter: next" + ("  o: I was right" if right else u.rstrip().replace("   ", "  ")),
    )


class Phase(Enum):
    ASKING = "asking"  # a question waits for an answer
    REVEALED = "revealed"  # a recall answer is shown; the player grades it
    FEEDBACK = "feedback"  # an answer was saved; its feedback is showing


ESCAPE = "clear what you typed; pressed again, end the round early"

# The round's keys; letters type while an answer is typed, so undo and flag have F2 and F4 (and
# Ctrl+Z and Ctrl+F in a terminal; browsers take those for themselves).
ROUND_KEYS: list[BindingType] = [
    *(
        Binding(
            str(d),
            f"digit({d})",
            show=False,
            tooltip="pick a numbered choice; 1–4 grade a recall",
        )
        for d in range(1, 10)
    ),
    Binding(
        "enter,space",
        "next",
        "Next",
        show=False,
        tooltip="go on after the feedback; pick the highlighted choice (↑ ↓ move it)",
    ),
    # Letters type while an answer is typed: then F2 and F4 (and Ctrl+Z and Ctrl+F in a
    # terminal; browsers take those for themselves).
    Binding("u,f2,ctrl+z", "undo", "Undo", tooltip="undo the last answer"),
    Binding(
        "f,f4,ctrl+f",
        "flag",
        "Flag",
        tooltip="flag the question as wrong or unclear, with a note if you like; "
        "again to take the flag back",
    ),
    Binding(
        "o",
        "override",
        "I was right",
        show=False,
        tooltip="after a typed answer marked wrong: count it as right (I was right)",
    ),
    Binding(
        "l",
        "links",
        "Links",
        show=False,
        tooltip="after an answer: show or hide the sources' full addresses",
    ),
    Binding("q", "end", "End round", tooltip="end the round early (every answer is kept)"),
    # Escape, three ways: while an answer is typed the footer says what it does (letters
    # type, so it is the way out): clear what is typed, or end the round with nothing typed;
    # elsewhere it ends the round as q does, unshown. The first one the screen allows runs.
    Binding("escape", "clear", "Clear", tooltip=ESCAPE),
    Binding("escape", "leave", "End round", tooltip=ESCAPE),
    Binding("escape", "end", show=False, tooltip=ESCAPE),
    Binding("question_mark", "help", "Keys", tooltip="these keys"),
]


class RoundScreen(Screen[None]):
    BINDINGS = ROUND_KEYS

    # A `var`: `watch_phase` updates what each phase shows. A repainting reactive would also
    # repaint the whole screen under its widgets with every change (24 rows for 2 changed).
    phase: var[Phase] = var(Phase.ASKING, init=False, always_update=True)

    def __init__(self, round_: Round) -> None:
        super().__init__()
        self.round = round_
        self.outcome: Outcome | None = None  # the last answer's, while its feedback shows
        self.view = QuestionView(self)  # the label, prompt, choices, answer box; settle time
        self.picked: int | None = None  # the choice picked for the feedback showing
        # The question on screen and, for each choice it may be answered with, the choices
        # marked: made while it is read (`_arm`), so the key's frame only swaps them in.
        self._marks: tuple[Question, dict[int, Marks]] | None = None
        self.show_urls = False  # the sources' full addresses, toggled with l
        self.feedback_at = 0.0  # monotonic time the last feedback went up
        self._typed_any = False  # whether the answer box had text, for the footer's Escape

    @property
    def vocab(self) -> Host:
        return host(self.app)

    def compose(self) -> ComposeResult:
        status = self.round.status()
        with Horizontal(id="status"):
            title = status.title + (f" · {status.banner}" if status.banner else "")
            yield Static(Text(title, no_wrap=True, overflow="ellipsis"), id="deck-title")
            yield Static(id="score")
        yield ProgressBar(
            total=max(1, status.total), show_eta=False, show_percentage=False, id="progress"
        )
        yield from self.view.compose()
        with VerticalScroll(id="body"):
            yield FeedbackPanel(id="feedback")
        yield Static(id="hint")
        yield KeysFooter()

    def on_mount(self) -> None:
        for static in self.query(Static):
            static.auto_links = False
        self.watch(
            self.query_one("#body", VerticalScroll), "virtual_size", self._body_laid_out, init=False
        )
        self.show_question()
        limits = self.round.limits
        if limits.question_seconds is not None or limits.round_seconds is not None:
            self.set_interval(1.0, self.tick)

    def tick(self) -> None:
        """The mode's clock, once a second: redraw what is left; when a question's countdown
        runs out it counts as wrong and its answer shows; when the round's time is up, the
        round ends."""
        if self.phase is Phase.ASKING and self.round.out_of_time:
            self.finish()
            return
        left = self.round.time_left() if self.phase is Phase.ASKING else None
        if left is not None and left <= 0 and self.round.question() is not None:
            self.picked = None
            self._save(self.time_out)
            return
        self.update_status()

    def time_out(self) -> Outcome:
        """The question's countdown ran out."""
        return self.round.time_out()

    def _body_laid_out(self) -> None:
        self.call_after_refresh(self.feedback_hint)

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.height < 20, "short")
        self.update_status()

    # -- showing ------------------------------------------------------------------------------

    def update_status(self) -> None:
        status = self.round.status()
        figures = status_figures(status, self.size.width)
        self.query_one("#score", Static).update(Text(figures + self.clock_text()))
        self.query_one("#progress", ProgressBar).update(
            total=max(1, status.total), progress=status.done
        )

    def clock_text(self) -> str:
        """What is left on the mode's clock, to follow the figures ("" with no clock)."""
        left = self.round.time_left() if self.phase is Phase.ASKING else None
        if left is None:
            left = self.round.round_time_left()
        return "" if left is None else f"   {left:.0f} s left"

    def show_question(self) -> None:
        question = self.round.question()
        if question is None:
            self.finish()
            return
        self.outcome = None
        self.picked = None
        self._marks = None
        self.view.put(question)
        self.query_one("#feedback", Static).update("")
        self.phase = Phase.ASKING
        self.call_after_refresh(self._arm)

    def _arm(self) -> None:
        """The question is painted: it takes answers now. A choice question's marks for each
        pick are made here, drawn at the width of the choices, while the player reads."""
        self.view.arm()
        question = self.round.question()
        if question is not None and question.kind == Kind.CHOICE and self.phase is Phase.ASKING:
            choices = self.query_one("#choices", ChoiceList)
            self._marks = (
                question,
                {
                    pick: choices.marks(marked_choices(question, pick).rows)
                    for pick in range(len(question.choices))
                },
            )

    def ready(self) -> bool:
        """Whether the question on screen may take an answer (`QuestionView.ready`)."""
        return self.view.ready(self.vocab.settle_seconds)

    def watch_phase(self, phase: Phase) -> None:
        """Show what `phase` needs. An answered choice shows in two frames: first its verdict
        and the choices marked where they stand, which moves nothing, so Textual paints a few
        rows and lays nothing out; then the whole feedback in the list's place."""
        question = self.round.question()
        choices = self.query_one("#choices", OptionList)
        if (
            phase is Phase.FEEDBACK
            and self.outcome is not None
            and question is not None
            and question.kind == Kind.CHOICE
            and choices.display
        ):
            self._mark_choices(self.outcome)
            return
        self._show_phase(phase)

    def _mark_choices(self, outcome: Outcome) -> None:
        """The verdict over the choices, marked in place; the whole feedback (explanation,
        sources, next review) once this is painted. The verdict takes the label's one line;
        only a verdict longer than the line makes Textual lay the screen out."""
        question = outcome.question
        choices = self.query_one("#choices", ChoiceList)
        prepared = self._marks
        if prepared is not None and prepared[0] is question and self.picked in prepared[1]:
            marks = prepared[1][self.picked]
        else:  # answered before the question was painted, or without a pick
            marks = choices.marks(marked_choices(question, self.picked).rows)
        choices.mark(marks)
        label = self.query_one("#label", Static)
        verdict = verdict_text(outcome)
        fits = label.size.height == 1 and verdict.cell_len <= label.content_region.width
        label.update(verdict, layout=not fits)
        self.call_after_refresh(self._feedback_in_full, outcome)

    def _feedback_in_full(self, outcome: Outcome) -> None:
        # A key that came in between (undo, the round's end) has moved on from this answer.
        if self.phase is Phase.FEEDBACK and self.outcome is outcome:
            self._show_phase(Phase.FEEDBACK)

    def _show_phase(self, phase: Phase) -> None:
        question = self.round.question()
        choices = self.query_one("#choices", OptionList)
        answer = self.query_one("#answer", Input)
        body = self.query_one("#body", VerticalScroll)
        feedback = self.query_one("#feedback", Static)
        label = self.query_one("#label", Static)
        is_choice = question is not None and question.kind == Kind.CHOICE
        asking_choice = phase is Phase.ASKING and is_choice
        # A typed answer stays in its box after it is graded: the feedback does not repeat it.
        # Hidden is enough: a widget that is not displayed takes no focus, keys or clicks, and
        # toggling `disabled` as well restyles it (every option, for the list). So the box is
        # disabled only while it shows, and a choice question leaves it as it was.
        choices.display = asking_choice
        answer.display = not is_choice
        if not is_choice:
            answer.disabled = phase is not Phase.ASKING
        body.display = phase is not Phase.ASKING
        if phase is Phase.ASKING and question is not None:
            label.remove_class("right", "wrong")
            self.view.ask(question)
        elif phase is Phase.REVEALED and question is not None:
            feedback.update(reveal_text(question))
            feedback.remove_class("right", "wrong")
            self.view.hint(
                "Press 1 Again, 2 Hard, 3 Good or 4 Easy.", "1 Again 2 Hard 3 Good 4 Easy"
            )
            body.focus()  # digits reach the screen; arrows and PgDn scroll a long answer
        elif phase is Phase.FEEDBACK and self.outcome is not None:
            # The answer stays in its box, shown escaped: it may have been pasted with
            # terminal escapes in it (the store keeps it as given).
            answer.value = printable(answer.value)
            self.draw_feedback()
            # One restyle, not one per class.
            feedback.set_classes("right" if self.outcome.grade.correct else "wrong")
            label.update(verdict_text(self.outcome))
            self.feedback_hint()
            # Enter, Space and digits reach the screen; arrows scroll. From the choices, the
            # focus moves once the feedback is painted (see ChoiceList): moving it costs as
            # much as a third of the frame.
            if self.focused is choices:
                self.call_after_refresh(self._focus_body)
            else:
                body.focus()
        body.scroll_home(animate=False)
        self.update_status()

    def _focus_body(self) -> None:
        if self.phase is Phase.FEEDBACK:
            self.query_one("#body", VerticalScroll).focus()

    def feedback_hint(self) -> None:
        """The keys after an answer; that the feedback scrolls, when it does (called again
        whenever the feedback's laid-out height changes)."""
        if self.phase is Phase.FEEDBACK:
            right = self.outcome is not None and self.outcome.can_override
            scrolls = bool(self.query_one("#body", VerticalScroll).max_scroll_y)
            self.view.hint(*feedback_keys(right, self.round.rules.undo, scrolls))

    def draw_feedback(self) -> None:
        if self.outcome is None:
            return
        self.query_one("#feedback", Static).update(
            feedback_body(
                self.outcome,
                self.vocab.session.clock(),
                picked=self.picked,
                example=self.vocab.session.example(self.outcome.question.key),
                show_urls=self.show_urls,
            )
        )

    def show_feedback(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self.feedback_at = time.monotonic()
        if not outcome.saved:
            self.vocab.warn_unsaved()
        self.phase = Phase.FEEDBACK

    # -- answering ------------------------------------------------------------------------------

    def _stored(self, action: Callable[[], T], failure: str) -> T | None:
        return self.view.stored(action, failure)

    def _save(self, answer: Callable[[], Outcome | None]) -> None:
        outcome = self._stored(answer, "Answer not saved")
        if outcome is not None:
            self.show_feedback(outcome)

    def pick(self, index: int) -> None:
        question = self.round.question()
        if not self.ready() or self.phase is not Phase.ASKING or question is None:
            return
        if question.kind != Kind.CHOICE:
            return
        if 0 <= index < len(question.choices):
            self.picked = index
            self._save(lambda: self.round.answer_choice(index))

    @on(OptionList.OptionSelected, "#choices")
    def _choice_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.pick(int(event.option_id or 0))

    @on(Input.Submitted, "#answer")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        question = self.round.question()
        if question is None or self.phase is not Phase.ASKING or not self.ready():
            return
        if question.kind == Kind.RECALL:
            self.phase = Phase.REVEALED
            return
        if self.view.typed(event.value) is None:
            self.view.hint(EMPTY)
            return
        try:
            outcome = self.round.answer_text(event.value)
        except StoreError as exc:
            self.view.failed(exc, "Answer not saved")
            return
        if isinstance(outcome, Refused):  # not an answer; nothing was recorded
            self.view.hint(outcome.reason)
        else:
            self.show_feedback(outcome)

    def action_digit(self, digit: int) -> None:
        if self.phase is Phase.ASKING:
            self.pick(digit - 1)
        elif self.phase is Phase.REVEALED and 1 <= digit <= 4:
            notes = self.query_one("#answer", Input).value
            self._save(lambda: self.round.answer_recall(digit, notes))

    def action_next(self) -> None:
        if self.phase is Phase.FEEDBACK:
            self.round.advance()
            self.show_question()
        elif self.phase is Phase.ASKING:
            question = self.round.question()
            if question is not None and question.kind == Kind.CHOICE:
                choices = self.query_one("#choices", OptionList)
                if choices.highlighted is not None:
                    self.pick(choices.highlighted)

    def action_undo(self) -> None:
        if not self.round.can_undo():
            self.app.notify("Nothing to undo in this round.", timeout=3)
            return
        if self._stored(self.round.undo, "Undo failed") is None:
            return
        self.app.notify("Last answer undone: it is as if it was never given.", timeout=3)
        self.show_question()

    def action_override(self) -> None:
        """Count a typed answer marked wrong as right (I was right): only on its feedback, and
        not from a key that arrived with the one that gave the answer."""
        settled = time.monotonic() - self.feedback_at >= self.vocab.settle_seconds
        if self.phase is not Phase.FEEDBACK or not settled or not self.round.can_override():
            return
        outcome = self._stored(self.round.override, "Override not saved")
        if outcome is not None:
            self.show_feedback(outcome)

    def action_flag(self) -> None:
        """Flag the question (or take its flag back), with a note if the player likes."""
        toggle_flag(self, self.round, self.view)

    def action_links(self) -> None:
        if self.phase is Phase.FEEDBACK:
            self.show_urls = not self.show_urls
            self.draw_feedback()

    def action_end(self) -> None:
        """End the round; once something was answered, ask first (a stray q is easy)."""
        if self.round.answered == 0:
            self.finish()
        else:
            confirm_end(self.app, self.round.answered, self.finish)

    def typing(self) -> str | None:
        """What is typed in the answer box, while it has the focus (None otherwise)."""
        focused = self.focused
        return focused.value if isinstance(focused, Input) and focused.id == "answer" else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Escape's shown bindings: one at a time, and only while an answer is typed.
        if action == "clear":
            return bool(self.typing())
        if action == "leave":
            return self.typing() == ""
        return True

    @on(Input.Changed, "#answer")
    def _typed(self, event: Input.Changed) -> None:
        # The footer's Escape says Clear once something is typed, End round when it is not.
        if bool(event.value) != self._typed_any:
            self._typed_any = bool(event.value)
            self.refresh_bindings()

    def action_clear(self) -> None:
        """Escape with an answer typed: clear it."""
        self.query_one("#answer", Input).value = ""

    def action_leave(self) -> None:
        """Escape with nothing typed: end the round."""
        self.action_end()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen("In a round", active_key_rows(self)))

    def finish(self) -> None:
        summary = self._stored(self.round.finish, "Round not saved")
        if summary is not None:
            note = None
            if not self.round.rules.updates_schedule and summary.answered:
                count = summary.answered
                note = (
                    f"{count} answer{'s' * (count != 1)} kept as practice: every due date "
                    "stays as it was."
                )
            self.app.switch_screen(
                ResultsScreen(summary, self.vocab.session.clock(), self.round.deck_id, note)
            )
