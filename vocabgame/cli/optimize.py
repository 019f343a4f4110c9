"""`vocabgame optimize`: fit the scheduler to the player's own answers (`vocabgame.optimize`)."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from pathlib import Path

from vocabgame.cli.common import EXIT_OK, EXIT_PROBLEM, Command, Where, err, open_store, print_json
from vocabgame.cli.options import json_option
from vocabgame.printable import printable
from vocabgame.settings import Settings


def optimize_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    p.add_argument("--reset", action="store_true", help="put the default parameters back in force")
    json_option(p)


def run_optimize(args: argparse.Namespace, where: Where) -> int:
    return cmd_optimize(where.data_dir, args.json, args.reset, datetime.now(UTC))


OPTIMIZE = Command(
    "optimize",
    "fit the scheduler to your own answers",
    "Fit the scheduler's 21 FSRS parameters to your own answers, measure on your later "
    "answers how well they and the defaults predict what you recalled (log loss, RMSE(bins), "
    "AUC; see docs/architecture.md), and keep the fitted ones only when they predict better. "
    "--reset goes back to the defaults.",
    optimize_options,
    run_optimize,
    uses_data_folder=True,
)


def cmd_optimize(data_dir: Path, as_json: bool, reset: bool, now: datetime) -> int:
    """Fit (or, with `reset`, go back to the defaults) and print what was decided; the exit
    code. `now` is when the parameters kept come into force."""
    from vocabgame.optimize import optimize
    from vocabgame.optimize import reset as reset_parameters
    from vocabgame.store import StoreError

    store = open_store(data_dir)
    if store is None:
        return EXIT_PROBLEM
    try:
        if reset:
            parameters = reset_parameters(store, now)
        else:
            outcome = optimize(store, now)
    except StoreError as exc:
        err(str(exc))
        return EXIT_PROBLEM
    finally:
        store.close()
    if reset:
        if as_json:
            print_json({"kept": "defaults", "parameters": list(parameters)})
        else:
            print("The scheduler uses the default parameters again.")
        return EXIT_OK
    if as_json:
        print_json(outcome.as_json())
        return EXIT_OK
    from rich.console import Console
    from rich.table import Table

    table = Table(title="Predicting your later answers", caption=f"{outcome.reviews} answers read")
    table.add_column("parameters")
    for name in ("log loss", "RMSE(bins)", "AUC"):
        table.add_column(name, justify="right")
    for name, scores in (("defaults", outcome.defaults), ("fitted", outcome.fitted)):
        if scores is None:
            table.add_row(name, "-", "-", "-")
        else:
            auc = "-" if scores.auc is None else f"{scores.auc:.3f}"
            table.add_row(name, f"{scores.log_loss:.4f}", f"{scores.rmse_bins:.4f}", auc)
    console = Console()
    console.print(table)
    console.print(printable(outcome.reason), markup=False, highlight=False)
    console.print(
        "Lower log loss and RMSE(bins) are better, higher AUC is better.",
        markup=False,
        highlight=False,
    )
    return EXIT_OK
