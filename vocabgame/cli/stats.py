"""`vocabgame stats` (progress and the stats screen's figures), `reports` and `report` (the
saved mock interviews)."""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from vocabgame.cli.common import (
    EXIT_OK,
    EXIT_PROBLEM,
    EXIT_USAGE,
    Command,
    Where,
    err,
    open_session,
    open_store,
    print_json,
    rare_collections,
)
from vocabgame.cli.options import json_option, positive_int
from vocabgame.printable import printable
from vocabgame.settings import Settings

if TYPE_CHECKING:
    from rich.console import Console

    from vocabgame.insights import Tally
    from vocabgame.play.overview import Overview
    from vocabgame.stats import Stats


def stats_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    p.add_argument("--deck", metavar="ID", help="only this deck (see vocabgame decks)")
    p.add_argument("--tag", metavar="TAG", help="only the items with this tag")
    json_option(p)


def run_stats(args: argparse.Namespace, where: Where) -> int:
    return cmd_stats(where.data_dir, where.folders, args.json, args.deck, args.tag, where.root)


STATS = Command(
    "stats",
    "print progress and scores",
    "Print reviews, rounds, the day streak and per-deck progress, then for one deck, one "
    "tag or everything: what is due, true retention, answers a day, accuracy per tag and "
    "kind, the weakest questions, confusions and best scores per mode "
    "(the JSON is described in docs/stats-json.md).",
    stats_options,
    run_stats,
    uses_data_folder=True,
)


@rare_collections()
def cmd_stats(
    data_dir: Path,
    folders: list[Path],
    as_json: bool,
    deck: str | None = None,
    tag: str | None = None,
    root: Path | None = None,
) -> int:
    """Print the progress table and the figures (or all of it as JSON); the exit code."""
    from dataclasses import asdict

    from vocabgame.play.overview import as_json as overview_json
    from vocabgame.stats import TopicStats, topic_coverage

    session = open_session(data_dir, folders, root)
    if session is None:
        return EXIT_PROBLEM
    for notice in session.notices:
        err(notice)
    try:
        if deck is not None and session.catalog.get(deck) is None:
            err(f"There is no deck with the id {deck!r}; vocabgame decks lists them.")
            return EXIT_PROBLEM
        stats = session.stats()
        modes = session.mode_bests() if as_json else {}
        topics: dict[str, TopicStats] = {}
        if as_json:
            chosen = [d for d in session.catalog.decks if deck is None or d.id == deck]
            topics = topic_coverage(session.store, chosen, session.clock())
        view = session.insights(deck, tag)
        ready = session.interview.readiness()  # of the interview's own decks and tags
        from vocabgame.optimize import offer, scheduler, scheduler_line

        offered = None if as_json else offer(session.store, session.tz)
        fsrs = scheduler(session.store)
    finally:
        session.close()
    if tag is not None and tag not in view.tags:
        where = f"deck {deck}" if deck else "the decks"
        err(f"No item of {where} has the tag {tag!r}.")
        return EXIT_PROBLEM
    for problem in session.catalog.problems:
        print(problem, file=sys.stderr)
    if deck is not None:
        stats = replace(stats, decks=tuple(d for d in stats.decks if d.id == deck))
    if as_json:
        out = asdict(stats)
        out["decks"] = [
            {k: v for k, v in d.items() if k != "title"} | {"title": d["title"]}
            for d in out["decks"]
        ]
        # beside "modes" (the best finished round per stored mode): each game mode's records
        print_json(
            out
            | overview_json(view)
            | {"mode_bests": modes, "topics": {t: asdict(f) for t, f in topics.items()}}
            | {"readiness": None if ready is None else ready.as_json()}
            | {"scheduler": fsrs}
        )
    else:
        print(render_stats(stats))
        print(printable(scheduler_line(fsrs)))
        if ready is not None:
            print(printable(ready.line()))
        print()
        print_insights(view)
        if offered:
            print()
            print(printable(offered))
    return EXIT_OK


def render_stats(stats: Stats) -> str:
    """The progress table: every count is of questions, as on the home screen."""
    lines = [
        f"Answers given:  {stats.reviews}",
        f"Rounds played:  {stats.rounds} finished",
        f"Day streak:     {stats.streak_days} day{'s' * (stats.streak_days != 1)}",
        f"Overridden:     {stats.overrides} answer{'s' * (stats.overrides != 1)} marked wrong "
        "and counted as right with o (I was right)",
        "",
        *textwrap.wrap(
            "Counts are questions (a term is asked three ways). Seen: answered at least once, "
            "of all the deck asks. Learned: stable for 21 days or more, likely still known in "
            "3 weeks. Due: to review now. New: never answered, and a round may ask them today.",
            width=80,
        ),
        "",
        f"{'Deck':<40} {'Seen':>11} {'Learned':>8} {'Due':>5} {'New':>5} {'Best':>6}",
    ]
    for d in stats.decks:
        best = "-" if d.best is None else str(d.best)
        title = printable(d.title)
        title = title if len(title) <= 40 else title[:39] + "…"
        lines.append(
            f"{title:<40} {f'{d.seen}/{d.total}':>11} {d.learned:>8} {d.due:>5} {d.new:>5}"
            f" {best:>6}"
        )
    return "\n".join(lines)


def share(tally: Tally) -> str:
    """'75% (3/4)', or '-' when nothing was answered."""
    return "-" if tally.share is None else f"{tally.share:.0%} ({tally.right}/{tally.total})"


def print_insights(view: Overview) -> None:
    """The stats screen's figures as Rich tables; deck text is never read as markup."""
    from rich.console import Console

    console = Console(highlight=False, emoji=False)
    print_summary(console, view)
    print_tallies(console, "Accuracy per tag", view.figures.per_tag)
    print_tallies(console, "Accuracy per kind of question", view.figures.per_kind)
    print_questions(console, view)
    print_modes_and_flags(console, view)


def print_summary(console: Console, view: Overview) -> None:
    """What is seen and due, retention, answers and the streak, as a table without borders."""
    from rich.table import Table
    from rich.text import Text

    figures = view.figures
    summary = Table(title=Text(f"Stats: {figures.scope}"), show_header=False, box=None)
    summary.add_column(style="bold")
    summary.add_column()
    rows = [
        ("Questions seen", f"{figures.seen} of {figures.total}"),
        ("Learned", f"{figures.learned} of {figures.total} (stable for 21 days or more)"),
        (
            "Due",
            f"{figures.due_now} now, {figures.due_later_today} later today, "
            f"{figures.due_tomorrow} tomorrow, "
            f"{figures.due_this_week} this week",
        ),
        ("Next 14 days", " ".join(str(n) for _, n in figures.forecast)),
        (
            "True retention",
            f"{share(figures.retention)} over 30 days; desired {view.desired_retention:.0%}",
        ),
        ("", view.retention_note),
        ("Answers, 12 weeks", str(sum(n for _, n in figures.daily))),
        ("Day streak", f"{figures.streak_days} (longest {figures.longest_streak})"),
        ("Overridden", str(view.overrides)),
    ]
    for name, value in rows:
        summary.add_row(name, Text(printable(value)))
    console.print(summary)


def print_tallies(console: Console, title: str, by: Mapping[str, Tally]) -> None:
    """One table of right answers per name; nothing when there is none."""
    from rich.table import Table
    from rich.text import Text

    if not by:
        return
    table = Table(title=Text(title))
    table.add_column("")
    table.add_column("Right", justify="right")
    for name, tally in by.items():
        table.add_row(Text(printable(name)), share(tally))
    console.print(table)


def print_questions(console: Console, view: Overview) -> None:
    """The weakest questions and the confusions, each table only when it has rows."""
    from rich.table import Table
    from rich.text import Text

    if view.weakest:
        table = Table(title="Weakest questions")
        for column in ("Question", "Stability (days)", "Lapses"):
            table.add_column(column, justify="left" if column == "Question" else "right")
        for weak, named in view.weakest:
            table.add_row(Text(printable(named.label)), f"{weak.stability:.1f}", str(weak.lapses))
        console.print(table)
    if view.figures.confusions:
        table = Table(title="Confusions")
        for column in ("Answer was", "Picked", "Times"):
            table.add_column(column, justify="right" if column == "Times" else "left")
        for c in view.figures.confusions:
            table.add_row(Text(printable(c.right)), Text(printable(c.picked)), str(c.times))
        console.print(table)


def print_modes_and_flags(console: Console, view: Overview) -> None:
    """The best score per mode and the flagged questions, each table only when it has rows."""
    from rich.table import Table
    from rich.text import Text

    if view.modes:
        table = Table(title="Best score per mode")
        table.add_column("Mode")
        table.add_column("Best", justify="right")
        for mode, best in view.modes.items():
            table.add_row(Text(printable(mode)), str(best))
        console.print(table)
    if view.flagged:
        table = Table(title="Flagged questions")
        table.add_column("Question")
        table.add_column("Note")
        for flag in view.flagged:
            table.add_row(Text(printable(flag.label)), Text(printable(flag.note)))
        console.print(table)


# -- reports, report ---------------------------------------------------------------------------


def run_reports(args: argparse.Namespace, where: Where) -> int:
    return cmd_reports(where.data_dir, args.json)


def reports_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    json_option(p)


REPORTS = Command(
    "reports",
    "list the saved mock-interview reports",
    "List the mock-interview reports kept in the store: id, date, decks, questions, "
    "right answers and seconds.",
    reports_options,
    run_reports,
    uses_data_folder=True,
)


def cmd_reports(data_dir: Path, as_json: bool) -> int:
    """List the saved interview reports, one line each (or as JSON); the exit code."""
    from vocabgame.play.modes.interview import InterviewMode, report_row

    store = open_store(data_dir)
    if store is None:
        return EXIT_PROBLEM
    try:
        rows = [report_row(r) for r in store.saved_reports.all(InterviewMode.id)]
    finally:
        store.close()
    if as_json:
        print_json(rows)
    elif not rows:
        print("No reports yet: vocabgame play --mode interview makes one.")
    else:
        for row in rows:
            decks = ", ".join(row["decks"])
            line = (
                f"{row['id']:>4}  {row['date'][:16].replace('T', ' ')}  "
                f"{row['right']}/{row['questions']} right  {row['seconds']:g} s  {decks}"
            )
            print(printable(line))
    return EXIT_OK


def report_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    p.add_argument("id", type=positive_int, metavar="ID", help="the report's id")
    p.add_argument(
        "--markdown", action="store_true", help="print it as Markdown, fit to paste into notes"
    )


def run_report(args: argparse.Namespace, where: Where) -> int:
    return cmd_report(where.data_dir, args.id)


REPORT = Command(
    "report",
    "print one mock-interview report",
    "Print one saved mock-interview report (its id from vocabgame reports).",
    report_options,
    run_report,
    uses_data_folder=True,
)


def cmd_report(data_dir: Path, report_id: int) -> int:
    """One report, as Markdown (the only form there is; `--markdown` says so explicitly)."""
    from vocabgame.play.modes.interview import markdown

    store = open_store(data_dir)
    if store is None:
        return EXIT_PROBLEM
    try:
        record = store.saved_reports.get(report_id)
    finally:
        store.close()
    if record is None:
        err(f"no report with id {report_id}; vocabgame reports lists them")
        return EXIT_USAGE
    for line in markdown(record).splitlines():  # deck text never drives the terminal
        print(printable(line))
    return EXIT_OK
