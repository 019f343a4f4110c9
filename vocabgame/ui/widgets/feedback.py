"""How a question's choices, an answer's feedback and a recall reveal are drawn. Deck text is
always plain `Text`, never parsed as markup."""

from __future__ import annotations

from datetime import datetime

from rich.table import Table
from rich.text import Text

from vocabgame.play import Outcome
from vocabgame.printable import printable
from vocabgame.quiz import RATING_NAMES, Question
from vocabgame.timefmt import until


def numbered(number: int, text: str) -> Table:
    """A choice with its key in a column of its own, so wrapped lines stay indented."""
    grid = Table.grid(padding=(0, 2, 0, 0), expand=True)
    grid.add_column(width=1, style="bold")
    grid.add_column(ratio=1)
    grid.add_row(str(number), Text(text))
    return grid


def feedback_text(outcome: Outcome, now: datetime) -> Text:
    """The feedback for one answer: verdict, points, the answer, why, sources, what next."""
    grade, recall = outcome.grade, outcome.self_graded
    text = Text()
    if recall:
        text.append(f"You graded it {RATING_NAMES[grade.rating]}", style="bold")
    elif grade.correct:
        text.append("✓ Right", style="bold green")
    else:
        text.append("✗ Not quite", style="bold red")
    if outcome.points:
        text.append(f" · +{outcome.points} points", style="green")
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
            text.append(printable(grade.given))  # typed or pasted: may hold escapes
            text.append("\n")
    if grade.note:
        text.append(grade.note + "\n", style="italic")
    if outcome.first_points is not None:
        text.append(
            f"Answered again after an undo: it scores at most what the first answer did "
            f"({outcome.first_points} points).\n",
            style="italic",
        )
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
    if outcome.question.version:
        text.append("As of: ", style="bold")
        text.append(outcome.question.version + "\n")
    for source in grade.sources:
        text.append("Source: ", style="dim")
        text.append(f"{source.title} — {source.url}\n", style="dim")
    if outcome.comes_back:
        text.append("It comes back later in this round.", style="italic")
    elif outcome.next_due is not None:
        text.append(f"Next review {until(outcome.next_due, now)}.", style="italic")
    return text


def reveal_text(question: Question) -> Text:
    """A recall question's model answer, and the four grades to choose from."""
    text = Text()
    text.append("Model answer: ", style="bold")
    text.append(question.answer + "\n")
    for point in question.key_points:
        text.append(f"  • {point}\n")
    text.append("\nHow well did you recall it?  ", style="bold")
    text.append("  ".join(f"{n} {name}" for n, name in RATING_NAMES.items()))
    return text
