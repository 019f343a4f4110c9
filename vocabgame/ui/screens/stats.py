"""The stats screen: for one deck, one tag or everything, what is coming due, how well learned
questions are remembered, when you played, and what you keep getting wrong, with the weakest
questions and the confusions each a key away from a round of them.

The forecast is Textual's `Sparkline` (a bar a day, the counts printed under it); the review
heatmap is a Rich `Text` of coloured blocks, a column a week and a row a weekday. Every text
from a deck is appended as plain `Text`, never read as markup."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from typing import cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Sparkline, Static

from vocabgame.calibration import Trend, score_text
from vocabgame.insights import Tally
from vocabgame.play.overview import Overview
from vocabgame.printable import printable
from vocabgame.ui.host import Host, host
from vocabgame.ui.screens.help import HelpScreen, active_key_rows
from vocabgame.ui.widgets.footer import KeysFooter

WEAK_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "0")
DRILL_KEYS = ("a", "b", "c", "d", "e")
BAR = 4  # cells per day in the forecast chart
HEAT = ("#0e4429", "#006d32", "#26a641", "#39d353")  # few answers to many
WEEKDAYS = ("Mon", "", "Wed", "", "Fri", "", "Sun")


def _share(tally: Tally) -> str:
    if tally.share is None:
        return "—"
    return f"{tally.share:.0%} ({tally.right}/{tally.total})"


def heatmap(daily: Sequence[tuple[date, int]]) -> Text:
    """Answers a day as a contribution calendar: a column a week (Monday first), a row a
    weekday; the darker the block, the fewer answers; a dot for none. Every column is a whole
    week from its Monday (a first week begun after Monday is left out), so every row starts
    in the same column; the last may end before Sunday."""
    text = Text()
    if not daily:
        return text
    first, last = daily[0][0], daily[-1][0]
    start = first + timedelta(days=-first.weekday() % 7)  # the first Monday
    if start > last:  # less than a week from a Monday: the week it began in
        start = first - timedelta(days=first.weekday())
    counts = {day: n for day, n in daily if day >= start}
    weeks = (last - start).days // 7 + 1
    most = max(counts.values()) or 1
    for weekday in range(7):
        text.append(f"{WEEKDAYS[weekday]:<4}", style="dim")
        for week in range(weeks):
            day = start + timedelta(days=7 * week + weekday)
            n = counts.get(day)
            if n is None:
                text.append("  ")
            elif n == 0:
                text.append("· ", style="dim")
            else:
                level = min(len(HEAT) - 1, (len(HEAT) * n - 1) // most)
                text.append("■ ", style=HEAT[level])
        text.append("\n")
    text.append("    less ", style="dim")
    text.append("· ", style="dim")
    for colour in HEAT:
        text.append("■ ", style=colour)
    total = sum(counts.values())
    text.append(f"more · {total} answer{'s' * (total != 1)} in 12 weeks", style="dim")
    return text


def forecast_fit(forecast: Sequence[tuple[date, int]], width: int) -> tuple[int, int]:
    """How many days of the forecast fit in `width` cells, and the cells a day takes: BAR,
    or one more than the widest count, so that no count runs into the next."""
    cell = max(BAR, max((len(str(n)) for _, n in forecast), default=0) + 1)
    return max(1, min(len(forecast), width // cell)), cell


def forecast_labels(forecast: Sequence[tuple[date, int]], cell: int = BAR) -> Text:
    """The counts under the forecast's bars, then the days (today first, in bold: it
    includes what is overdue)."""
    text = Text()
    for _, n in forecast:
        text.append(f"{n:^{cell}}")
    text.append("\n")
    for i, (day, _) in enumerate(forecast):
        label = "today" if i == 0 and cell >= 5 else day.strftime("%a")[:2]
        text.append(f"{label:^{cell}}", style="bold" if i == 0 else "dim")
    return text


def top_text(view: Overview, title: str) -> Text:
    f = view.figures
    text = Text()
    text.append("Stats: ", style="bold")
    text.append(title, style="bold")
    text.append("\n")
    text.append(f"{f.seen} of {f.total} questions answered at least once\n")
    text.append(f"{f.learned} learned (likely still known in 3 weeks)\n")
    if f.total == 0:
        text.append("Nothing to count here yet.\n", style="dim")
    # "now" as home and a round count it; the rest of today apart, as the forecast's first day
    text.append(
        f"Due now {f.due_now} · later today {f.due_later_today} · tomorrow {f.due_tomorrow}"
        f" · this week {f.due_this_week}\n"
    )
    text.append("Due each day from today (overdue in today's):", style="bold")
    return text


def retention_text(view: Overview) -> Text:
    f = view.figures
    text = Text()
    text.append("True retention ", style="bold")
    text.append(f"{_share(f.retention)} over 30 days · desired {view.desired_retention:.0%}\n")
    text.append(view.retention_note + "\n", style="italic")
    text.append("\nDay streak ", style="bold")
    text.append(f"{f.streak_days} · longest {f.longest_streak}\n")
    text.append("Answers a day, last 12 weeks", style="bold")
    return text


def details_text(view: Overview) -> Text:
    f = view.figures
    text = Text()
    for heading, tallies in (("Accuracy per tag", f.per_tag), ("Accuracy per kind", f.per_kind)):
        if tallies:
            text.append(f"\n{heading}\n", style="bold")
            for name, tally in tallies.items():
                text.append(f"  {_share(tally):>14}  ")
                text.append(printable(name) + "\n")
    text.append("\nWeakest questions", style="bold")
    if view.weakest:
        text.append(" (a key: a round of it · w: all of them; due dates stay)\n", style="dim")
        for key, (weak, named) in zip(WEAK_KEYS, view.weakest, strict=False):
            text.append(f"  {key} ", style="bold")
            text.append(printable(named.label))
            text.append(
                f"  missed {weak.missed} of {weak.answers} · stability {weak.stability:.1f} d\n",
                style="dim",
            )
    else:
        text.append("\n  none yet: answer some questions first\n", style="dim")
    text.append("\nConfusions", style="bold")
    if f.confusions:
        text.append(" (a key: a round of both terms)\n", style="dim")
        for i, c in enumerate(f.confusions):
            key = DRILL_KEYS[i] if i < len(DRILL_KEYS) else " "
            text.append(f"  {key} ", style="bold")
            text.append("picked ")
            text.append(printable(c.picked), style="bold")
            text.append(" when the answer was ")
            text.append(printable(c.right), style="bold")
            text.append(f": {c.times} time{'s' * (c.times != 1)}\n")
    else:
        text.append("\n  none yet\n", style="dim")
    text.append("\nBest score per mode\n", style="bold")
    if view.modes:
        for mode, best in view.modes.items():
            text.append(f"  {printable(mode)}: {best}\n")
    else:
        text.append("  no finished round yet\n", style="dim")
    text.append(f"\nMock interviews ({len(view.reports)})\n", style="bold")
    for report in view.reports[:10]:
        minutes, seconds = divmod(round(report.seconds), 60)
        text.append(
            f"  {report.made_at:%Y-%m-%d}: {report.correct} of {report.questions} right in "
            f"{minutes}:{seconds:02d} (vocabgame report {report.id} --markdown)\n"
        )
    if not view.reports:
        text.append("  none yet: play --mode interview, or g on the home screen\n", style="dim")
    text.append_text(calibration_text(f.calibration))
    text.append(f"\nFlagged questions ({len(view.flagged)})\n", style="bold")
    for flag in view.flagged:
        text.append("  " + printable(flag.label))
        if flag.note:
            text.append(" — " + printable(flag.note), style="dim")
        text.append("\n")
    if view.overrides:
        text.append(
            f"\n{view.overrides} answer{'s' * (view.overrides != 1)} counted as right "
            "with I was right\n",
            style="dim",
        )
    text.rstrip()
    return text


def calibration_text(trend: Trend) -> Text:
    """How sure the player said they were in mock interviews against how often they were
    right: the Brier score, the calibration table, and the score per interview and per week
    (nothing until a confidence was said)."""
    text = Text()
    overall = trend.overall
    if not overall.answers or overall.brier is None:
        return text
    text.append("\nHow sure you were, in mock interviews\n", style="bold")
    text.append(
        f"  Brier score {score_text(overall.brier)} over {overall.answers} answers"
        " (0 is perfect; always saying 50% scores 0.250)\n"
    )
    text.append(f"  {overall.verdict()}\n", style="italic")
    text.append(f"  {'you said':<22}{'answers':>8}{'right':>8}\n", style="dim")
    for row in overall.rows:
        share = "—" if row.right_share is None else f"{row.right_share:.0%}"
        name = f"{row.level.key} {row.level.label} ({row.said:.0%})"
        text.append(f"  {name:<22}{row.answers:>8}{share:>8}\n")
    for heading, periods in (("per interview", trend.interviews), ("per week", trend.weeks)):
        if len(periods) > 1:
            scores = " · ".join(
                f"{p.label} {p.calibration.brier:.2f}"
                for p in periods
                if p.calibration.brier is not None
            )
            text.append(f"  Brier {heading}, oldest first: ", style="dim")
            text.append(scores + "\n")
    return text


class StatsScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "back", "Back", tooltip="back to where you were"),
        Binding("s", "switch", "Deck/all", tooltip="switch between the deck and every deck"),
        Binding("t", "next_tag", "Tag", tooltip="show one tag, the next on each press"),
        Binding("w", "weakest", "Weakest", tooltip="a round of all the weakest questions"),
        *(
            Binding(k, f"weak({i})", show=False, tooltip=f"a round of the weak question marked {k}")
            for i, k in enumerate(WEAK_KEYS)
        ),
        *(
            Binding(
                k,
                f"drill({i})",
                show=False,
                tooltip=f"a round of both terms of the confusion marked {k}",
            )
            for i, k in enumerate(DRILL_KEYS)
        ),
        Binding("question_mark", "help", "Keys", tooltip="these keys"),
        Binding("q", "app.quit", "Quit", tooltip="quit (every answer is already saved)"),
    ]

    def __init__(self, deck_id: str | None = None) -> None:
        super().__init__()
        self.home_deck = deck_id  # the deck it was opened on; s switches to everything and back
        self.deck_id = deck_id
        self.tag: str | None = None
        self.view: Overview | None = None

    @property
    def vocab(self) -> Host:
        return host(self.app)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="stats"):
            yield Static(id="top")
            yield Sparkline([], id="forecast")
            yield Static(id="forecast-days")
            yield Static(id="retention")
            yield Static(id="heatmap")
            yield Static(id="stats-details")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#stats", VerticalScroll).focus()  # ↑ ↓ PgDn scroll

    def on_screen_resume(self) -> None:
        self.refresh_stats()

    def scope_title(self) -> str:
        session = self.vocab.session
        deck = session.catalog.get(self.deck_id) if self.deck_id else None
        where = deck.title if deck is not None else "every deck"
        return where + (f" · tag {self.tag}" if self.tag else "")

    def refresh_stats(self) -> None:
        view = self.vocab.session.insights(self.deck_id, self.tag)
        self.view = view
        self.query_one("#top", Static).update(top_text(view, printable(self.scope_title())))
        self.draw_forecast()
        self.query_one("#retention", Static).update(retention_text(view))
        self.query_one("#heatmap", Static).update(heatmap(view.figures.daily))
        self.query_one("#stats-details", Static).update(details_text(view))
        self.refresh_bindings()

    def on_resize(self) -> None:
        self.call_after_refresh(self.draw_forecast)

    def draw_forecast(self) -> None:
        """The forecast's bars and counts, as many days as fit the width (a count never
        wraps under another day's label)."""
        if self.view is None:
            return
        labels = self.query_one("#forecast-days", Static)
        # Before the first layout the width is not known yet: the screen's less the padding
        # and the scroll bar.
        width = labels.content_region.width or self.app.size.width - 4
        days, cell = forecast_fit(self.view.figures.forecast, width)
        shown = self.view.figures.forecast[:days]
        chart = self.query_one("#forecast", Sparkline)
        chart.styles.width = days * cell
        chart.data = [n for _, n in shown]
        labels.update(forecast_labels(shown, cell))

    # -- keys -------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        view = self.view
        if action == "switch":
            return self.home_deck is not None
        if action == "next_tag":
            return view is not None and bool(view.tags)
        if action == "weakest":
            return view is not None and bool(view.weakest)
        if action == "weak":
            return view is not None and int(cast(int, parameters[0])) < len(view.weakest)
        if action == "drill":
            return view is not None and int(cast(int, parameters[0])) < len(view.drills)
        return True

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_switch(self) -> None:
        self.deck_id = None if self.deck_id is not None else self.home_deck
        self.tag = None
        self.refresh_stats()

    def action_next_tag(self) -> None:
        if self.view is None or not self.view.tags:
            return
        tags = self.view.tags
        if self.tag is None:
            self.tag = tags[0]
        else:
            index = tags.index(self.tag) + 1 if self.tag in tags else len(tags)
            self.tag = tags[index] if index < len(tags) else None
        self.refresh_stats()

    def action_weakest(self) -> None:
        if self.view is not None and self.view.weakest:
            keys = [named.key for _, named in self.view.weakest]
            self.vocab.play_misses(None, "Weakest questions", keys, replace=False)

    def action_weak(self, index: int) -> None:
        if self.view is not None and index < len(self.view.weakest):
            named = self.view.weakest[index][1]
            self.vocab.play_misses(None, f"Weak: {named.label}", [named.key], replace=False)

    def action_drill(self, index: int) -> None:
        if self.view is None or index >= len(self.view.drills):
            return
        c = self.view.figures.confusions[index]
        self.vocab.play_misses(
            c.deck_id, f"{c.right} or {c.picked}", self.view.drills[index], replace=False
        )

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen("Stats", active_key_rows(self)))
