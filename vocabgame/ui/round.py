"""A round: the question, the player's answer, then feedback that explains why."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar, cast

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, OptionList, ProgressBar, Static
from textual.widgets.option_list import Option

from vocabgame.quiz import RATING_NAMES, Grade, Kind, Question
from vocabgame.session import Round
from vocabgame.store import StoreError
from vocabgame.timefmt import until
from vocabgame.ui.help import HelpScreen
from vocabgame.ui.results import ResultsScreen

if TYPE_CHECKING:
    from vocabgame.ui.app import VocabApp

DIGITS = [str(n) for n in range(1, 10)]
T = TypeVar("T")


def feedback_text(
    grade: Grade,
    points: int,
    now_due: str | None,
    again_in_round: bool = False,
    recall: bool = False,
) -> Text:
    """The feedback for one answer as plain text with styles; deck text is never markup."""
    text = Text()
    if recall:
        text.append(f"You graded it {RATING_NAMES[grade.rating]}", style="bold")
    elif grade.correct:
        text.append("✓ Right", style="bold green")
    else:
        text.append("✗ Not quite", style="bold red")
    if points:
        text.append(f" · +{points} points", style="green")
    text.append("\n")
    if recall:
        text.append("Model answer: ", style="bold")
        text.append(grade.right_answer + "\n")
        for point in grade.key_points:
            text.append(f"  • {point}\n")
    elif not grade.correct or grade.note:
        text.append("Answer: ", style="bold")
        text.append(grade.right_answer)
        text.append("\n")
        if grade.given:
            text.append("You said: ", style="bold")
            text.append(grade.given)
            text.append("\n")
    if grade.note:
        text.append(grade.note + "\n", style="italic")
    if grade.why_not:
        text.append("Why not your choice: ", style="bold")
        text.append(grade.why_not + "\n")
    if grade.distinction:
        text.append("Easy to confuse: ", style="bold")
        text.append(grade.distinction + "\n")
    if grade.explanation:
        if grade.explains_why:
            text.append("Why: ", style="bold")
        text.append(grade.explanation + "\n")
    for source in grade.sources:
        text.append("Source: ", style="dim")
        text.append(f"{source.title} — {source.url}\n", style="dim")
    if again_in_round:
        text.append("It comes back later in this round.", style="italic")
    elif now_due:
        text.append(f"Next review {now_due}.", style="italic")
    return text


def _numbered(number: int, text: str) -> Table:
    """A choice with its key in a column of its own, so wrapped lines stay indented."""
    grid = Table.grid(padding=(0, 2, 0, 0), expand=True)
    grid.add_column(width=1, style="bold")
    grid.add_column(ratio=1)
    grid.add_row(str(number), Text(text))
    return grid


def reveal_text(question: Question) -> Text:
    text = Text()
    text.append("Model answer: ", style="bold")
    text.append(question.answer + "\n")
    for point in question.key_points:
        text.append(f"  • {point}\n")
    text.append("\nHow well did you recall it?  ", style="bold")
    text.append("  ".join(f"{n} {name}" for n, name in RATING_NAMES.items()))
    return text


class RoundScreen(Screen[None]):
    BINDINGS = [
        *(Binding(d, f"digit({d})", show=False) for d in DIGITS),
        Binding("enter,space", "next", "Next", show=False),
        Binding("u,ctrl+z", "undo", "Undo"),
        Binding("f,ctrl+f", "flag", "Flag"),
        Binding("q,escape", "end", "End round"),
        Binding("question_mark", "help", "Keys"),
    ]

    def __init__(self, round_: Round) -> None:
        super().__init__()
        self.round = round_
        self.state = "asking"  # asking, revealed (recall), feedback

    @property
    def vocab(self) -> VocabApp:
        return cast("VocabApp", self.app)

    def compose(self) -> ComposeResult:
        with Horizontal(id="status"):
            title = self.round.title
            if self.round.mode == "practice":
                # Nothing was due or new: these are reviewed early, and still scheduled.
                title += " · practice (nothing due)"
            yield Static(Text(title), id="deck-title")
            yield Static(id="score")
        yield ProgressBar(
            total=max(1, self.round.total), show_eta=False, show_percentage=False, id="progress"
        )
        yield Static(id="label")
        with VerticalScroll(id="body"):
            yield Static(id="prompt")
            yield OptionList(id="choices")
            yield Input(id="answer")
            yield Static(id="feedback")
        yield Static(id="hint")
        yield Footer()

    def on_mount(self) -> None:
        self.show_question()

    # -- showing ------------------------------------------------------------------------------

    def update_status(self) -> None:
        r = self.round
        number = min(r.position + 1, r.total)
        self.query_one("#score", Static).update(
            Text(f"Question {number} of {r.total}   Score {r.score}   Streak {r.streak}")
        )
        bar = self.query_one("#progress", ProgressBar)
        bar.update(total=max(1, r.total), progress=r.position + (self.state == "feedback"))

    def show_question(self) -> None:
        question = self.round.question()
        if question is None:
            self.finish()
            return
        self.state = "asking"
        choices = self.query_one("#choices", OptionList)
        answer = self.query_one("#answer", Input)
        feedback = self.query_one("#feedback", Static)
        self.query_one("#label", Static).update(Text(question.label))
        self.query_one("#prompt", Static).update(Text(question.prompt))
        feedback.update("")
        feedback.display = False
        choices.clear_options()
        answer.value = ""
        if question.kind == Kind.CHOICE:
            choices.add_options(
                Option(_numbered(n, c.text), id=str(n - 1))
                for n, c in enumerate(question.choices, 1)
            )
            choices.highlighted = 0
            choices.display, choices.disabled = True, False
            answer.display = False
            self.hint(f"Press 1–{len(question.choices)}, or ↑ ↓ and Enter.")
            choices.focus()
        else:
            choices.display = False
            answer.display, answer.disabled = True, False
            answer.placeholder = {
                Kind.TYPED: "Type the term, then Enter",
                Kind.NUMBER: "Type a number"
                + (f" in {question.unit}" if question.unit else "")
                + ", then Enter",
                Kind.RECALL: "Think of your answer (notes optional), then Enter to reveal",
            }[question.kind]
            self.hint("")
            answer.focus()
        self.query_one("#body", VerticalScroll).scroll_home(animate=False)
        self.update_status()

    def hint(self, text: str) -> None:
        self.query_one("#hint", Static).update(Text(text, style="dim"))

    def show_feedback(self, grade: Grade) -> None:
        self.state = "feedback"
        choices = self.query_one("#choices", OptionList)
        answer = self.query_one("#answer", Input)
        choices.display = answer.display = False
        choices.disabled = answer.disabled = True
        last = self.round.history[-1] if self.round.history else None
        points = last.points if last else 0
        due = until(grade.next_due, self.vocab.session.clock()) if grade.next_due else None
        feedback = self.query_one("#feedback", Static)
        feedback.update(
            feedback_text(
                grade,
                points,
                due,
                again_in_round=bool(last and last.retried),
                recall=last is not None and last.question.kind == Kind.RECALL,
            )
        )
        feedback.display = True
        feedback.set_class(grade.correct, "right")
        feedback.set_class(not grade.correct, "wrong")
        self.hint("Enter or Space: next   u: undo   f: flag this question")
        self.focus_next_target()
        self.query_one("#body", VerticalScroll).scroll_home(animate=False)
        self.update_status()

    def focus_next_target(self) -> None:
        # Nothing that types should hold the focus, so Enter/Space/digits reach the screen.
        self.set_focus(None)

    # -- answering ------------------------------------------------------------------------------

    def _stored(self, action: Callable[[], T], failure: str) -> T | None:
        """Run a store write; if the store refuses, say so and return None (nothing changed)."""
        try:
            return action()
        except StoreError as exc:
            self.app.notify(str(exc), title=failure, severity="error", timeout=10)
            return None

    def _save(self, answer: Callable[[], Grade | None]) -> Grade | None:
        return self._stored(answer, "Answer not saved")

    def pick(self, index: int) -> None:
        question = self.round.question()
        if self.state != "asking" or question is None or question.kind != Kind.CHOICE:
            return
        if not 0 <= index < len(question.choices):
            return
        grade = self._save(lambda: self.round.answer_choice(index))
        if grade is not None:
            self.show_feedback(grade)

    @on(OptionList.OptionSelected, "#choices")
    def _choice_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.pick(int(event.option_id or 0))

    @on(Input.Submitted, "#answer")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        question = self.round.question()
        if question is None or self.state != "asking":
            return
        if question.kind == Kind.RECALL:
            self.state = "revealed"
            self.query_one("#answer", Input).disabled = True
            feedback = self.query_one("#feedback", Static)
            feedback.update(reveal_text(question))
            feedback.display = True
            feedback.remove_class("right", "wrong")
            self.hint("Press 1 Again, 2 Hard, 3 Good or 4 Easy.")
            self.focus_next_target()
            return
        if not event.value.strip():
            self.hint("Type an answer first, then press Enter.")
            return
        grade = self._save(lambda: self.round.answer_text(event.value))
        if grade is None:
            if question.kind == Kind.NUMBER:
                self.hint("That is not a number. Type it like 140, 140 GB, 1.4e2 or 1,400.")
            return
        self.show_feedback(grade)

    def action_digit(self, digit: int) -> None:
        if self.state == "asking":
            self.pick(digit - 1)
        elif self.state == "revealed" and 1 <= digit <= 4:
            notes = self.query_one("#answer", Input).value
            grade = self._save(lambda: self.round.answer_recall(digit, notes))
            if grade is not None:
                self.show_feedback(grade)

    def action_next(self) -> None:
        if self.state == "feedback":
            self.round.advance()
            self.show_question()
        elif self.state == "asking":
            question = self.round.question()
            if question is not None and question.kind == Kind.CHOICE:
                choices = self.query_one("#choices", OptionList)
                if choices.highlighted is not None:
                    self.pick(choices.highlighted)

    def action_undo(self) -> None:
        if not self.round.history:
            self.app.notify("Nothing to undo in this round.", timeout=3)
            return
        if self._stored(self.round.undo, "Undo failed") is None:
            return
        self.app.notify("Last answer undone: it is as if it was never given.", timeout=3)
        self.show_question()

    def action_flag(self) -> None:
        key = self._stored(self.round.flag, "Flag not saved")
        if key is not None:
            self.app.notify(f"Flagged {key.item_id} for the deck's author. Thank you.", timeout=3)

    def action_end(self) -> None:
        self.finish()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def finish(self) -> None:
        summary = self._stored(self.round.finish, "Round not saved")
        if summary is None:
            return
        self.app.switch_screen(ResultsScreen(summary, self.vocab.session.clock()))
