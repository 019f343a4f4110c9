"""A mock interview: the question, a running clock, no feedback; after each answer, one key
for how sure the player is (1 guessing to 4 certain, or Enter to skip), asked before any
model answer is shown; then the report, where the player ticks the key points each typed
recall answer covered.

The clock shows the session clock's time left, redrawn by `tick` once a second (a Textual
interval); tests move the session clock and call `tick` themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Input, Markdown, OptionList, Static

from vocabgame.calibration import LEVELS
from vocabgame.play import Round, Runner
from vocabgame.play.modes.interview import (
    Asked,
    Interview,
    duration,
    markdown,
    reports_folder,
)
from vocabgame.printable import printable
from vocabgame.quiz import Kind, Refused
from vocabgame.store import ReportRecord, StoreError
from vocabgame.ui.host import Host, host
from vocabgame.ui.screens.confirm import ConfirmScreen
from vocabgame.ui.screens.help import HelpScreen, active_key_rows
from vocabgame.ui.widgets.footer import KeysFooter
from vocabgame.ui.widgets.question import EMPTY, QuestionView
from vocabgame.ui.widgets.question import PLACEHOLDERS as QUESTION_PLACEHOLDERS

# Recall is typed here, not answered in the head and revealed as in a learn round.
PLACEHOLDERS = {
    **QUESTION_PLACEHOLDERS,
    Kind.RECALL: "Type your answer as you would say it, then Enter",
}


NO_FEEDBACK = "No feedback until the end."
# The line under a choice question, longest first: the first that fits the width is shown.
CHOICE_HINTS = (
    "Press 1–{n} or ↑ ↓ to mark a choice; Enter gives it, not before. " + NO_FEEDBACK,
    "1–{n} or ↑ ↓ marks a choice, Enter gives it. " + NO_FEEDBACK,
    "1–{n} marks a choice, Enter gives it.",
)


# Asked after each answer, before anything of the right answer is shown; the first label
# that fits the width is shown.
SURE_LEVELS = " · ".join(f"{lv.key} {lv.label}" for lv in LEVELS)
SURE_LABELS = ("How sure are you? " + SURE_LEVELS, "How sure? " + SURE_LEVELS, SURE_LEVELS)
SURE_HINTS = (
    "Press 1–4 ("
    + ", ".join(f"{lv.said:.0%}" for lv in LEVELS)
    + " sure), or Enter to skip. "
    + NO_FEEDBACK,
    "1–4: how sure you are, or Enter to skip. " + NO_FEEDBACK,
    "1–4: how sure · Enter: skip",
)


def report_file(folder: Path, report: ReportRecord) -> Path:
    """`interview-N.md` for report N; a report not kept by the store is named by its time."""
    name = str(report.id) if report.id else report.made_at.strftime("%Y-%m-%d-%H%M")
    return folder / f"interview-{name}.md"


def save_report(folder: Path, report: ReportRecord) -> tuple[Path, str | None]:
    """Write the report's Markdown into `folder` (made if need be): the file, and None, or
    the one sentence saying why it could not be written."""
    path = report_file(folder, report)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(markdown(report), encoding="utf-8")
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        return path, f"Could not save the report to {path} ({reason})."
    return path, None


def clock_text(seconds: float) -> str:
    return f"{duration(seconds)} left"


class InterviewScreen(Screen[None]):
    """The interview's questions, one after another, against the clock."""

    BINDINGS = [
        *(
            Binding(
                str(d),
                f"digit({d})",
                show=False,
                tooltip="mark a numbered choice; after an answer, 1–4 say how sure you are",
            )
            for d in range(1, 10)
        ),
        Binding(
            "enter",
            "pick",
            show=False,
            tooltip="give the marked choice as the answer; after an answer, skip how sure",
        ),
        Binding("escape", "end", "End", tooltip="end the interview now and see the report"),
        Binding("question_mark", "help", "Keys", tooltip="these keys"),
    ]

    def __init__(self, interview: Interview, reports: Path) -> None:
        super().__init__()
        self.interview = interview
        self.reports = reports  # where the report's key saves it
        self.view = QuestionView(self, PLACEHOLDERS)  # the label, prompt, answer; settle time
        self.ended = False
        self.asking_sure = False  # an answer was given: waiting for how sure, or Enter

    @property
    def vocab(self) -> Host:
        return host(self.app)

    def compose(self) -> ComposeResult:
        with Horizontal(id="status"):
            title = f"{self.interview.round.title} · mock interview"
            yield Static(Text(title, no_wrap=True, overflow="ellipsis"), id="deck-title")
            yield Static(id="clock")
            yield Static(id="score")
        yield from self.view.compose()
        yield Static(id="hint")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.set_interval(1.0, self.tick)
        self.show_question()

    def tick(self) -> None:
        """Redraw the clock; at 0 the interview ends, whatever is on screen."""
        if self.ended:
            return
        self.query_one("#clock", Static).update(Text(clock_text(self.interview.time_left())))
        if self.interview.out_of_time:
            self.end()

    def ask_sure(self) -> None:
        """After an answer: the question stays, its choices or answer box go, and the label
        and the line under it ask how sure the player is."""
        if self.interview.out_of_time:  # it ran out as the answer was given: the report
            self.show_question()
            return
        self.asking_sure = True
        self.view.choices.display = self.view.answer.display = False
        self.set_focus(None)  # the keys come to the screen: 1-4 and Enter
        room = self.size.width - 2
        label = next((t for t in SURE_LABELS if len(t) <= room), SURE_LABELS[-1])
        self.query_one("#label", Static).update(Text(label))
        self.view.hint(*SURE_HINTS)

    def sure(self, key: int | None) -> None:
        """How sure the player is of the answer just given (None: skipped); then the next
        question. An answer whose confidence the store refuses stays kept, without it."""
        if not self.asking_sure:
            return
        self.asking_sure = False
        if key is not None:
            try:
                self.interview.say_confidence(key)
            except StoreError as exc:
                self.view.failed(exc, "How sure you were is not saved")
        self.show_question()

    def show_question(self) -> None:
        self.asking_sure = False
        question = self.interview.question()
        if question is None:
            self.end()
            return
        asked = len(self.interview.asked) + 1
        self.query_one("#score", Static).update(
            Text(f"Question {asked} of {self.interview.question_limit}")
        )
        label = "Recall: type your answer" if question.kind == Kind.RECALL else None
        self.view.put(question)
        self.view.ask(question, label, hint=NO_FEEDBACK)
        if question.kind == Kind.CHOICE:
            count = len(question.choices)
            self.view.hint(*(line.format(n=count) for line in CHOICE_HINTS))
        self.call_after_refresh(self.view.arm)
        self.tick()

    def ready(self) -> bool:
        return self.view.ready(self.vocab.settle_seconds)

    def _saved(self, action: Callable[[], object]) -> bool:
        """Save an answer: False when the store refused it (and the player is told) or it
        was no answer (the reason shows under the question)."""
        try:
            result = action()
        except StoreError as exc:
            self.view.failed(exc, "Answer not saved")
            return False
        if isinstance(result, Refused):
            self.view.hint(result.reason)
            return False
        return True

    def pick(self, index: int) -> None:
        question = self.interview.question()
        if self.asking_sure or question is None or question.kind != Kind.CHOICE or not self.ready():
            return
        if 0 <= index < len(question.choices) and self._saved(
            lambda: self.interview.answer_choice(index)
        ):
            self.ask_sure()

    def action_digit(self, digit: int) -> None:
        if self.asking_sure:
            if any(lv.key == digit for lv in LEVELS):
                self.sure(digit)
            return
        # A digit only marks a choice: with no feedback to catch a slip, Enter gives it.
        question = self.interview.question()
        if question is None or question.kind != Kind.CHOICE:
            return
        if 0 <= digit - 1 < len(question.choices):
            self.query_one("#choices", OptionList).highlighted = digit - 1

    def action_pick(self) -> None:
        if self.asking_sure:
            self.sure(None)
            return
        highlighted = self.query_one("#choices", OptionList).highlighted
        if highlighted is not None:
            self.pick(highlighted)

    @on(OptionList.OptionSelected, "#choices")
    def _choice_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.pick(int(event.option_id or 0))

    @on(Input.Submitted, "#answer")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        question = self.interview.question()
        if self.asking_sure or question is None or question.kind == Kind.CHOICE:
            return
        if not self.ready():
            return
        if self.view.typed(event.value) is None:
            self.view.hint(EMPTY)
            return
        if self._saved(lambda: self.interview.answer_text(event.value)):
            self.ask_sure()

    def action_end(self) -> None:
        def ended(sure: bool | None) -> None:
            if sure:
                self.end()

        self.app.push_screen(
            ConfirmScreen(
                "End the interview now?",
                "The questions not yet asked count for nothing; the report shows the rest.",
                yes="End and see the report",
                no="Keep going",
            ),
            ended,
        )

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen("In a mock interview", active_key_rows(self)))

    def end(self) -> None:
        if self.ended:
            return
        self.ended = True
        if self.app.screen is not self:  # a confirmation on top: the clock wins
            self.app.pop_screen()
        self.app.switch_screen(InterviewReportScreen(self.interview, self.reports))


def tick_text(asked: Asked, ticked: set[int], made: bool = False) -> Text:
    """One recall answer beside the model answer, with its key points to tick, and the
    question's common mistake, marked when the player says the answer made it (`made`)."""
    question = asked.question
    text = Text()
    text.append(question.prompt + "\n\n", style="bold")
    text.append("Your answer\n", style="bold")
    text.append((asked.given or "(nothing)") + "\n\n")
    text.append("Model answer\n", style="bold")
    text.append(question.answer + "\n\n")
    text.append("Which key points did you cover?\n", style="bold")
    points = question.key_points or (question.answer,)
    for n, point in enumerate(points, 1):
        text.append(f"[{'x' if n - 1 in ticked else ' '}] {n}  ", style="bold")
        text.append(point + "\n")
    if question.mistake:
        text.append("\nCommon mistake\n", style="bold")
        text.append(f"[{'x' if made else ' '}] c  ", style="bold")
        text.append(question.mistake + "\n")
    return text


class InterviewReportScreen(Screen[None]):
    """First the ticks for each typed recall answer, then the saved report, drawn from its
    Markdown, which a key saves as a file."""

    BINDINGS = [
        *(
            Binding(str(d), f"tick({d})", show=False, tooltip="tick or untick a key point")
            for d in range(1, 10)
        ),
        # One key, named as the footer and the line above it name it: Next, then Home.
        Binding("enter", "next", "Next", tooltip="done ticking this answer"),
        Binding("enter", "home", "Home", tooltip="back to the home screen"),
        Binding("c", "made_mistake", show=False, tooltip="mark that your answer made the mistake"),
        Binding("m", "save", "Save .md", tooltip="save the report as a Markdown file"),
        Binding("escape", "home", "Home", show=False, tooltip="back to the home screen"),
        Binding("question_mark", "help", "Keys", tooltip="these keys"),
    ]

    def __init__(self, interview: Interview, reports: Path) -> None:
        super().__init__()
        self.interview = interview
        self.reports = reports  # the folder `m` saves the report in
        self.pending = interview.recalls()
        self.at = 0
        self.ticks: dict[int, set[int]] = {}
        self.made: set[int] = set()  # answers the player says made the common mistake
        self.report: ReportRecord | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="interview-title")
        with VerticalScroll(id="body"):
            yield Static(id="report")
            yield Markdown(id="report-text", open_links=False)
        yield Static(id="hint")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#body", VerticalScroll).focus()
        self.query_one("#report-text", Markdown).display = False
        if self.pending:
            self.show_ticks()
        else:
            self.make_report()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "save":
            return self.report is not None and bool(self.report.questions)
        if action in ("next", "home"):  # the ticks come first: they are the grade
            return (self.report is None) == (action == "next")
        if action == "made_mistake":  # only while grading an answer whose question has one
            return (
                self.report is None
                and bool(self.pending)
                and bool(self.pending[self.at][1].question.mistake)
            )
        return True

    def title_line(self, what: str) -> None:
        decks = ", ".join(d.title for d in self.interview.decks()) or self.interview.round.title
        title = f"Mock interview · {decks} · {what}"
        self.query_one("#interview-title", Static).update(
            Text(printable(title), style="bold", no_wrap=True, overflow="ellipsis")
        )

    def show_ticks(self) -> None:
        n, asked = self.pending[self.at]
        self.title_line(f"grading recall answer {self.at + 1} of {len(self.pending)}")
        ticked = self.ticks.get(n, set())
        self.query_one("#report", Static).update(tick_text(asked, ticked, n in self.made))
        self.refresh_bindings()
        count = len(asked.question.key_points) or 1
        mistake = " c: your answer made the common mistake." if asked.question.mistake else ""
        self.query_one("#hint", Static).update(
            Text(
                f"Press 1–{count} to tick what you covered, then Enter. The ticks are the grade."
                + mistake,
                style="dim",
            )
        )

    def action_tick(self, digit: int) -> None:
        if self.report is not None or not self.pending:
            return
        n, asked = self.pending[self.at]
        if 1 <= digit <= (len(asked.question.key_points) or 1):
            self.ticks.setdefault(n, set()).symmetric_difference_update({digit - 1})
            self.show_ticks()

    def action_made_mistake(self) -> None:
        if self.report is not None or not self.pending:
            return
        n, asked = self.pending[self.at]
        if asked.question.mistake:
            self.made.symmetric_difference_update({n})
            self.show_ticks()

    def action_next(self) -> None:
        if self.report is not None:
            self.action_home()
        elif self.at + 1 < len(self.pending):
            self.at += 1
            self.show_ticks()
        else:
            self.make_report()

    def make_report(self) -> None:
        try:
            self.report = self.interview.finish(self.ticks, self.made)
        except StoreError as exc:
            self.app.notify(
                printable(str(exc)), title="Report not saved", severity="error", markup=False
            )
            return
        self.title_line("report")
        self.query_one("#report", Static).display = False
        text = self.query_one("#report-text", Markdown)
        text.display = True
        text.update(printable_lines(markdown(self.report)))
        self.query_one("#body", VerticalScroll).scroll_home(animate=False)
        if self.report.id:
            where = f"Kept as report {self.report.id} (vocabgame report {self.report.id}). "
        elif not self.report.questions:
            where = "Nothing was asked, so no report is kept. "
        else:
            where = "Not kept: the store is read-only. "
        self.say(where + ("m: save as Markdown · " if self.report.questions else ""))
        self.refresh_bindings()

    def say(self, text: str) -> None:
        self.query_one("#hint", Static).update(Text(printable(text + "Enter: home"), style="dim"))

    def action_save(self) -> None:
        if self.report is None or not self.report.questions:
            return
        path, problem = save_report(self.reports, self.report)
        self.say((problem or f"Saved to {path}.") + " ")

    def action_home(self) -> None:
        if self.report is None:
            return  # the ticks come first: they are the grade
        self.app.pop_screen()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen("On the interview report", active_key_rows(self)))


def printable_lines(text: str) -> str:
    return "\n".join(printable(line) for line in text.split("\n"))


def screen(started: Round | Runner) -> Screen[Any]:
    """The screen the interview plays on (`vocabgame.ui.app.mode_screen` finds it here)."""
    assert isinstance(started, Interview)
    return InterviewScreen(started, reports_folder(started))
