"""Fit the lab's three efficiencies (memory bandwidth, math, link) and its fixed cost per
forward pass to the published measurements in `measurements.yaml`, print the fitted values and each row's error, and write
them where the lab reads its defaults (`vocabgame/lab/fitted.py`).

    python -m vocabgame.lab.calibrate            # fit and print
    python -m vocabgame.lab.calibrate --write    # and write fitted.py
    python -m vocabgame.lab.calibrate --markdown # the tables docs/lab.md shows

The fit is deterministic: a pattern search on a lattice (0.01 for an efficiency, 0.1 ms for
the fixed cost) from a fixed start, shrinking its step from ten units to one, minimising the squared log error, each figure kind (TTFT, ITL,
throughput, end-to-end latency) weighted alike whatever its number of rows. No randomness,
no new dependency: the same table gives the same values. Rows marked `fit: false` are left
out of the fit and only compared with it (their error at the fitted values)."""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from vocabgame.lab.catalogue import Catalogue, load_catalogue
from vocabgame.lab.inputs import Assumptions, LabError
from vocabgame.lab.measurements import (
    FIGURES,
    Measurement,
    MeasurementTable,
    error,
    lab_estimate,
    load_measurements,
)

# Each fitted assumption: the size of one lattice unit, its bounds and its start in units.
# The start is the round figures the lab used before it was fitted (no fixed cost a pass).
SPACE: dict[str, tuple[float, int, int, int]] = {
    "bandwidth_efficiency": (0.01, 20, 100, 80),  # 0.20 to 1.00, from 0.80
    "compute_efficiency": (0.01, 20, 100, 60),
    "link_efficiency": (0.01, 20, 100, 80),
    "step_overhead_us": (100.0, 0, 100, 0),  # 0 to 10 ms a pass, in 0.1 ms
}
PARAMS = tuple(SPACE)
STEPS = (10, 5, 2, 1)
FITTED_PY = Path(__file__).resolve().parent / "fitted.py"


@dataclass(frozen=True)
class RowError:
    row: Measurement
    lab: float

    @property
    def error(self) -> float:
        return error(self.lab, self.row.value)


@dataclass(frozen=True)
class Fit:
    """The fitted efficiencies and every row's error at them."""

    bandwidth_efficiency: float
    compute_efficiency: float
    link_efficiency: float
    step_overhead_us: float
    rows: tuple[RowError, ...]  # the rows fitted to
    loss: float
    checked: tuple[RowError, ...] = ()  # the rows left out of the fit, at the fitted values

    def values(self) -> dict[str, float]:
        return {p: getattr(self, p) for p in PARAMS}

    def median_abs_error(self, figure: str, checked: bool = False) -> float:
        """The median |error| of the fitted rows of a figure kind (of the compared ones)."""
        errors = [
            abs(r.error) for r in (self.checked if checked else self.rows) if r.row.figure == figure
        ]
        return statistics.median(errors) if errors else math.nan

    def worst(self, figure: str, checked: bool = False) -> RowError | None:
        """The row of a figure kind with the largest |error|."""
        rows = [r for r in (self.checked if checked else self.rows) if r.row.figure == figure]
        return max(rows, key=lambda r: abs(r.error)) if rows else None


def row_errors(
    table: MeasurementTable, catalogue: Catalogue, assumptions: Assumptions
) -> tuple[RowError, ...]:
    """The lab's value for every row of the table with these assumptions."""
    return tuple(RowError(r, lab_estimate(r, catalogue, assumptions)) for r in table.rows)


def loss(rows: Sequence[RowError]) -> float:
    """Sum over figure kinds of the mean squared log error of that kind's rows."""
    total = 0.0
    for figure in FIGURES:
        logs = [math.log(r.lab / r.row.value) ** 2 for r in rows if r.row.figure == figure]
        if logs:
            total += sum(logs) / len(logs)
    return total


def fit(table: MeasurementTable, catalogue: Catalogue, base: Assumptions | None = None) -> Fit:
    """The assumptions in `SPACE`, on its lattice, that minimise `loss` on the table's fitted
    rows, found by a pattern search from its start; the other assumptions are `base`'s (the
    defaults). The rows marked `fit: false` come back in `checked`, at the fitted values."""
    base = base or Assumptions()
    table, left_out = table.split()
    seen: dict[tuple[int, ...], tuple[float, tuple[RowError, ...]]] = {}

    def at(point: tuple[int, ...]) -> float:
        if point not in seen:
            a = replace(base, **point_values(point))
            rows = row_errors(table, catalogue, a)
            seen[point] = (loss(rows), rows)
        return seen[point][0]

    point = tuple(start for _, _, _, start in SPACE.values())
    for step in STEPS:
        moved = True
        while moved:
            moved = False
            for i, (_, low, high, _) in enumerate(SPACE.values()):
                for sign in (1, -1):
                    trial = list(point)
                    trial[i] = min(high, max(low, trial[i] + sign * step))
                    candidate = tuple(trial)
                    # Strictly better only, so that ties keep the earlier point: deterministic.
                    if candidate != point and at(candidate) < at(point) - 1e-12:
                        point, moved = candidate, True
    at(point)
    best, rows = seen[point]
    checked = row_errors(left_out, catalogue, replace(base, **point_values(point)))
    return Fit(**point_values(point), rows=rows, loss=best, checked=checked)


def point_values(point: tuple[int, ...]) -> dict[str, float]:
    """A lattice point as the assumptions it stands for, rounded to the lattice."""
    return {
        name: round(units * size, 6)
        for (name, (size, _, _, _)), units in zip(SPACE.items(), point, strict=True)
    }


def report(result: Fit) -> str:
    """The fitted values, each row's measured and estimated figure, and the median errors."""
    lines = [
        "Fitted: " + ", ".join(f"{p.replace('_', ' ')} {v:g}" for p, v in result.values().items()),
        f"Loss (sum over figure kinds of the mean squared log error): {result.loss:.4f}",
        "",
        f"{'row':<32} {'figure':<24} {'measured':>10} {'lab':>10} {'error':>7}",
    ]
    for r in result.rows:
        lines.append(
            f"{r.row.id:<32} {r.row.label:<24} {r.row.value:>10.4g} {r.lab:>10.4g} {r.error:>+7.0%}"
        )
    lines.append("")
    lines += summary(result)
    if result.checked:
        lines += ["", "Compared, not fitted (fit: false):", ""]
        for r in result.checked:
            lines.append(
                f"{r.row.id:<40} {r.row.label:<18} {r.row.value:>10.4g} {r.lab:>10.4g} "
                f"{r.error:>+7.0%}"
            )
        lines.append("")
        lines += summary(result, checked=True)
    return "\n".join(lines)


def summary(result: Fit, checked: bool = False) -> list[str]:
    """A line a figure kind: the median and the worst |error| of its rows."""
    lines = []
    rows = result.checked if checked else result.rows
    for figure, (label, _, _) in FIGURES.items():
        n = sum(1 for r in rows if r.row.figure == figure)
        worst = result.worst(figure, checked)
        if n and worst is not None:
            lines.append(
                f"median |error| on {label}: {result.median_abs_error(figure, checked):.0%} "
                f"({n} rows), worst {worst.error:+.0%} ({worst.row.id})"
            )
    return lines


def markdown(result: Fit, checked: bool = False) -> str:
    """The calibration table as docs/lab.md shows it: one line a row, with its source; with
    `checked`, the table of the rows compared but not fitted."""
    lines = [
        "| setup | in / out | batch | figure | measured | lab | error | source |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in result.checked if checked else result.rows:
        m = r.row
        lines.append(
            f"| {m.model}, {m.tp} x {m.gpu}, {m.weights.upper()} | {m.prompt} / {m.output} | "
            f"{m.batch} | {m.label} | {m.value:g} {m.unit} | {r.lab:.4g} {m.unit} | "
            f"{r.error:+.0%} | [{m.source.by}]({m.source.url}) |"
        )
    return "\n".join(lines)


def fitted_source(result: Fit) -> str:
    """The text of fitted.py for these values."""
    return (
        '"""The efficiencies and the fixed cost of a forward pass the lab assumes by default,\n'
        "fitted to the published measurements in measurements.yaml by `python -m\n"
        "vocabgame.lab.calibrate --write`. Written by that command; tests/lab/test_calibrate.py\n"
        'checks these equal a fresh fit."""\n\n'
        f"BANDWIDTH_EFFICIENCY = {result.bandwidth_efficiency:.2f}\n"
        f"COMPUTE_EFFICIENCY = {result.compute_efficiency:.2f}\n"
        f"LINK_EFFICIENCY = {result.link_efficiency:.2f}\n"
        f"STEP_OVERHEAD_US = {result.step_overhead_us:.0f}\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Fit, print, and with --write write fitted.py; the exit code."""
    parser = argparse.ArgumentParser(prog="python -m vocabgame.lab.calibrate", description=__doc__)
    parser.add_argument("--write", action="store_true", help="write the values to fitted.py")
    parser.add_argument("--to", type=Path, default=FITTED_PY, help="where --write writes")
    parser.add_argument("--markdown", action="store_true", help="print the docs' table too")
    parser.add_argument(
        "--all", action="store_true", help="fit every row, the fit: false ones too (not written)"
    )
    args = parser.parse_args(argv)
    if args.all and args.write:
        print("error: --all is a what-if and is never written; drop --write", file=sys.stderr)
        return 1
    try:
        table = load_measurements()
        if args.all:
            table = replace(table, rows=tuple(replace(r, fitted=True) for r in table.rows))
        result = fit(table, load_catalogue())
    except LabError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(report(result))
    if args.markdown:
        print("\n" + markdown(result))
        if result.checked:
            print("\n" + markdown(result, checked=True))
    if args.write:
        args.to.write_text(fitted_source(result), encoding="utf-8")
        print(f"\nwrote {args.to}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
