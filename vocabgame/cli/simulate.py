"""`vocabgame simulate`: what each desired retention would cost over the next days
(`vocabgame.simulate`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from vocabgame.cli.common import (
    EXIT_OK,
    EXIT_PROBLEM,
    Command,
    Where,
    err,
    open_session,
    print_json,
)
from vocabgame.cli.options import json_option
from vocabgame.settings import Settings

SPANS = (30, 90, 365)  # as vocabgame.simulate.SPANS, without importing it for the help


def simulate_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    p.add_argument(
        "--days",
        type=int,
        choices=SPANS,
        default=SPANS[0],
        help="how many days ahead to simulate (default 30)",
    )
    json_option(p)


def run_simulate(args: argparse.Namespace, where: Where) -> int:
    return cmd_simulate(where.data_dir, where.folders, args.days, args.json)


SIMULATE = Command(
    "simulate",
    "what each desired retention would cost you",
    "Simulate your decks over the next days at each desired retention from 0.70 to 0.97, "
    "with your scheduler's parameters, your new items a day and your own answer times: the "
    "reviews and minutes a day, and the share of the questions you would remember. The "
    "retention that costs the fewest minutes per question remembered is marked.",
    simulate_options,
    run_simulate,
    uses_data_folder=True,
)


def cmd_simulate(data_dir: Path, folders: list[Path], days: int, as_json: bool) -> int:
    """Print the retention grid over `days` days (or it as JSON); the exit code."""
    from vocabgame.simulate import forecast, grid_with, inputs
    from vocabgame.stats import deck_sizes
    from vocabgame.store import StoreError

    session = open_session(data_dir, folders)
    if session is None:
        return EXIT_PROBLEM
    for notice in session.notices:
        err(notice)
    try:
        given = inputs(session.store, deck_sizes(session.catalog.decks), session.settings)
    except StoreError as exc:
        err(str(exc))
        return EXIT_PROBLEM
    finally:
        session.close()
    result = forecast(given, days, grid_with(given.current))
    if as_json:
        print_json(result.as_json())
        return EXIT_OK
    from rich.console import Console
    from rich.table import Table

    seconds = (
        f"{given.seconds:.1f} s an answer (yours)"
        if given.seconds is not None
        else "Anki users' answer times (too few of yours yet)"
    )
    table = Table(
        title=f"The next {days} days at each desired retention",
        caption=f"{given.faces} questions, {given.new_per_day} new a day, {seconds}",
    )
    for name in ("retention", "reviews a day", "minutes a day", "remembered", "min / remembered"):
        table.add_column(name, justify="right")
    table.add_column("")
    cheapest = result.cheapest
    for point in result.points:
        marks = []
        if abs(point.retention - given.current) < 1e-9:
            marks.append("now")
        if cheapest is not None and abs(point.retention - cheapest) < 1e-9:
            marks.append("cheapest")
        table.add_row(
            f"{point.retention:.2f}",
            f"{point.reviews_per_day:.1f}",
            f"{point.minutes_per_day:.1f}",
            f"{point.remembered:.0%}",
            f"{point.minutes_per_face:.2f}",
            ", ".join(marks),
        )
    console = Console()
    console.print(table)
    console.print(
        "Remembered: the share of your questions you would recall on the last day. "
        "min / remembered: all the minutes over the questions remembered; the cheapest "
        "retention buys the most memory for your time. Change it with "
        "`vocabgame settings --retention R`.",
        markup=False,
        highlight=False,
    )
    return EXIT_OK
