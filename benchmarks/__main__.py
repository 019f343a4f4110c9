"""python -m benchmarks: measure the speed targets, each against a same-run baseline."""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import asdict
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from benchmarks.figures import FULL, GROUPS, QUICK, ROW_IDS, SMOKE, Context, Group, Scale
from benchmarks.inputs import Inputs
from benchmarks.measure import ROOT, Row

EXIT_OK, EXIT_MISSED, EXIT_BROKEN = 0, 1, 2

DESCRIPTION = """\
Measure vocabgame against the speed targets of its performance issue. Each figure is
measured next to a baseline taken in the same run on the same machine (a bare Textual app,
the same work on a smaller history, PyYAML's C loader, ...); the table shows both, their
ratio, the target and whether it is met. Times are medians, in milliseconds. The decks and
stores it needs are generated into a temporary folder (or --scratch)."""

EPILOG = (
    "figures (for --only; full sizes, --quick uses smaller ones; those marked * run only when"
    " --only names them):\n"
    + "\n".join(
        f"  {row_id:<22}{'*' if group.optional else ' '} {about}"
        for group in GROUPS
        for row_id, about in group.figures
    )
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a reduced run in under a minute: fewer repetitions and smaller inputs (100k "
        "answers instead of 1M, decks of up to 5k items instead of 50k), marked in the table",
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="the test suite's run: the smallest inputs and one repetition of each figure, to "
        "check that every figure is still measured (its numbers mean nothing)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit with status 1, naming them, when any target is missed (without it the "
        "exit status is 0 whatever the numbers)",
    )
    parser.add_argument(
        "--json",
        type=Path,
        metavar="FILE",
        help="also write every row (value, baseline, ratio, unit, target, passed) and the "
        "machine (cores, Python, SQLite and Textual versions, date) to FILE",
    )
    parser.add_argument(
        "--scratch",
        type=Path,
        metavar="DIR",
        help="keep the generated decks and stores in DIR between runs (the store of a million "
        "answers takes about a minute to make); default: a new temporary folder, removed "
        "at the end",
    )
    parser.add_argument(
        "--only",
        action="append",
        metavar="NAME",
        default=[],
        help="measure only the figures whose name contains NAME (repeatable); the names are "
        "listed below",
    )
    return parser


def machine() -> dict[str, object]:
    def version(package: str) -> str | None:
        try:
            return metadata.version(package)
        except metadata.PackageNotFoundError:
            return None

    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
    except OSError:
        commit = ""
    return {
        "nproc": os.cpu_count(),
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "textual": version("textual"),
        "pyyaml": version("pyyaml"),
        "platform": platform.platform(),
        "commit": commit or None,
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def selected(group: Group, only: list[str]) -> bool:
    """Every group but the optional ones, or those `--only` names."""
    if not only:
        return not group.optional
    return any(name in row for name in only for row in group.rows)


def _value(value: float | None, unit: str) -> str:
    if value is None or math.isnan(value):
        return "-"
    if unit == "yes/no":
        return "yes" if value == 1 else "no"
    if unit == "ms":
        return f"{value:,.0f} ms" if value >= 100 else f"{value:.2f} ms"
    return f"{value:.1f} {unit}"


def table(rows: list[Row]) -> str:
    width = max([40, *(len(row.name) for row in rows)])
    lines = [
        f"{'figure':<{width}} {'vocabgame':>11} {'baseline':>11} {'ratio':>7}  "
        f"{'target':<20} result",
    ]
    for row in rows:
        ratio = "" if row.ratio is None else f"{row.ratio:.2f}x"
        result = {True: "pass", False: "FAIL", None: "info"}[row.passed]
        if row.error is not None:
            result = "ERROR"
        lines.append(
            f"{row.name:<{width}} {_value(row.value, row.unit):>11} "
            f"{_value(row.baseline, row.unit) if row.baseline is not None else '':>11} "
            f"{ratio:>7}  {row.target:<20} {result}"
        )
        if row.baseline_name:
            lines.append(f"  baseline: {row.baseline_name}")
    return "\n".join(lines)


def scale_of(args: argparse.Namespace) -> Scale:
    """The sizes of the run asked for: --smoke, --quick or the full one."""
    return SMOKE if args.smoke else QUICK if args.quick else FULL


def run(args: argparse.Namespace, inputs: Inputs, work: Path) -> list[Row]:
    ctx = Context(scale_of(args), inputs, work)
    rows: list[Row] = []
    for group in GROUPS:
        if not selected(group, args.only):
            continue
        start = time.perf_counter()
        print(f"measuring {', '.join(group.rows)} ...", file=sys.stderr, flush=True)
        try:
            made = group.measure(ctx)
        except Exception as exc:
            traceback.print_exc()
            message = f"{type(exc).__name__}: {exc}"
            made = [Row(row, row, math.nan, "", error=message) for row in group.rows]
        for row in made:
            if args.only and not any(name in row.id for name in args.only):
                continue
            if args.smoke:
                row.name += " [smoke]"
            elif args.quick:
                row.name += " [quick]"
            rows.append(row)
        print(f"  {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    unknown = [n for n in args.only if not any(n in row for row in ROW_IDS)]
    if unknown:
        print(f"no figure's name contains {unknown[0]!r}.\n{EPILOG}", file=sys.stderr)
        return EXIT_BROKEN
    started = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix="vocabgame-bench-"))
    try:
        inputs = Inputs(args.scratch if args.scratch is not None else work / "inputs")
        rows = run(args, inputs, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    scale = (
        "smoke (the smallest inputs, one repetition: numbers mean nothing)"
        if args.smoke
        else "quick (smaller inputs, fewer repetitions)"
        if args.quick
        else "full"
    )
    info = machine()
    print(
        f"vocabgame benchmarks, {scale}: {info['nproc']} cores, Python {info['python']}, "
        f"SQLite {info['sqlite']}, Textual {info['textual']}, {info['date']}"
    )
    print(
        "Times are medians. A row with two targets checks both; the ratio is vocabgame / baseline."
    )
    print()
    print(table(rows))
    elapsed = time.perf_counter() - started
    print(f"\n{len(rows)} row{'s' * (len(rows) != 1)} in {elapsed:.0f} s")
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        report = {
            "machine": info,
            "quick": args.quick or args.smoke,
            "smoke": args.smoke,
            "scale": asdict(scale_of(args)),
            "only": args.only,
            "seconds": round(elapsed, 1),
            "rows": [row.as_json() for row in rows],
        }
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    broken = [row for row in rows if row.error is not None]
    if broken:
        for row in broken:
            print(f"could not measure {row.id}: {row.error}", file=sys.stderr)
        return EXIT_BROKEN
    missed = [row for row in rows if row.passed is False]
    if args.check and missed:
        print("\nmissed targets:")
        for row in missed:
            ratio = "" if row.ratio is None else f", {row.ratio:.2f}x"
            print(f"  {row.id}: {_value(row.value, row.unit)}{ratio}; target {row.target}")
        return EXIT_MISSED
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
