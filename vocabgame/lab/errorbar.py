"""The error bar of each figure: the published measurement nearest the figure's setup, and how
far the lab was from it on that measurement's own setup ("like setups: 12% fast against vLLM's
measured ITL").

Nearest is by a stated distance: the same figure kind first (`KIND`), then, in this order, the
same GPU, the same model, the tensor parallelism (|log2| of the ratio), the same precisions,
and the shape (|log2| ratios of prompt, output and batch, added). The lab's error on that row
is computed with the caller's assumptions, so changing an efficiency moves it."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from vocabgame.lab.catalogue import Catalogue
from vocabgame.lab.inputs import LabError, Setup
from vocabgame.lab.measurements import (
    FIGURES,
    Measurement,
    MeasurementTable,
    error,
    lab_value,
)
from vocabgame.lab.model import Estimate, estimate

# The measured figure kind each lab figure is checked against. Figures not here (memory,
# roofline) are arithmetic on the catalogue: nothing published measures them.
KIND: Mapping[str, str] = MappingProxyType(
    {
        "prefill": "ttft_ms",
        "allreduce_prefill": "ttft_ms",
        "handoff_prefill": "ttft_ms",
        "alltoall_prefill": "ttft_ms",
        "ttft": "ttft_ms",
        "decode_memory": "itl_ms",
        "decode_compute": "itl_ms",
        "allreduce_decode": "itl_ms",
        "handoff_decode": "itl_ms",
        "alltoall_decode": "itl_ms",
        "tpot": "itl_ms",
        "tpot_loaded": "itl_ms",
        "user_speed": "itl_ms",
        "e2e": "e2e_ms",
        "throughput": "throughput_tokens_per_s",
        "decode_throughput": "throughput_tokens_per_s",
        "cost": "throughput_tokens_per_s",
    }
)
WITHIN = 0.01  # an error this small reads "on the mark"


def _log2(a: float, b: float) -> float:
    return abs(math.log2(a / b))


def distance(setup: Setup, row: Measurement) -> tuple[float, ...]:
    """How far a measured row's setup is from this one, compared in order: GPU, model, TP,
    precisions, shape. Smaller is nearer; 0s for the same setup."""
    return (
        float(row.gpu.lower() != setup.gpu.id.lower()),
        float(row.model.lower() != setup.model.id.lower()),
        _log2(setup.tp, row.tp),
        float(row.weights != setup.weights) + float(row.kv != setup.kv),
        _log2(setup.prompt, row.prompt)
        + _log2(setup.output, row.output)
        + _log2(setup.batch, row.batch),
    )


@dataclass(frozen=True)
class Nearest:
    """The measurement nearest a figure's setup and the lab's value and error on it."""

    row: Measurement
    lab: float
    distance: tuple[float, ...]
    described: str = ""  # the row's setup with the catalogue's names; its ids when empty

    @property
    def error(self) -> float:
        return error(self.lab, self.row.value)

    @property
    def fast(self) -> bool:
        """The lab promises more speed than was measured: a shorter latency or a higher
        throughput."""
        more_is_better = FIGURES[self.row.figure][2]
        return self.lab > self.row.value if more_is_better else self.lab < self.row.value

    @property
    def same_setup(self) -> bool:
        return not any(self.distance)

    def words(self) -> str:
        """One line for a reader: how far off the lab was, against whose measurement."""
        like = "this setup" if self.same_setup else "like setups"
        what = f"{self.row.source.by}'s measured {self.row.label}"
        where = self.described or self.row.describe()
        if abs(self.error) < WITHIN:
            return f"{like}: on the mark against {what} ({where})"
        way = "fast" if self.fast else "slow"
        return f"{like}: {abs(self.error):.0%} {way} against {what} ({where})"

    def as_dict(self) -> dict[str, object]:
        r = self.row
        return {
            "source": r.source.by,
            "url": r.source.url,
            "id": r.id,
            "figure": r.figure,
            "value": r.value,
            "unit": r.unit,
            "lab": self.lab,
            "error": self.error,
            "setup": {
                "gpu": r.gpu,
                "model": r.model,
                "tp": r.tp,
                "weights": r.weights,
                "kv": r.kv,
                "batch": r.batch,
                "prompt": r.prompt,
                "output": r.output,
            },
            "passage": r.quote,
        }


def _described(s: Setup) -> str:
    return (
        f"{s.model.name} on {s.tp} x {s.gpu.name}, {s.weights.upper()}, batch {s.batch}, "
        f"{s.prompt} in / {s.output} out"
    )


def nearest(
    setup: Setup, figure: str, table: MeasurementTable, catalogue: Catalogue
) -> Nearest | None:
    """The row of this figure kind nearest the setup (the first of equals, in table order),
    with the lab's value on it under the setup's assumptions; None when the table has no row
    of that kind the catalogue can set up."""
    rows = sorted(
        ((distance(setup, r), i, r) for i, r in enumerate(table.of(figure))),
        key=lambda t: (t[0], t[1]),
    )
    for d, _, row in rows:
        try:
            theirs = row.setup(catalogue, setup.assumptions)
            return Nearest(row, lab_value(row, estimate(theirs)), d, _described(theirs))
        except LabError:
            continue  # its GPU or model is not in this catalogue, or it no longer fits
    return None


def error_bars(
    e: Estimate, table: MeasurementTable, catalogue: Catalogue
) -> dict[str, Nearest | None]:
    """Every figure of the estimate with its nearest measurement (None where nothing
    published measures that figure)."""
    by_kind = {kind: nearest(e.setup, kind, table, catalogue) for kind in set(KIND.values())}
    return {key: by_kind[KIND[key]] if key in KIND else None for key in e.figures}


def annotate(data: dict[str, object], bars: Mapping[str, Nearest | None]) -> dict[str, object]:
    """The estimate's JSON with each figure's `nearest_measurement` added; the top-level keys
    are left as they were."""
    figures = data["figures"]
    assert isinstance(figures, dict)
    for key, entry in figures.items():
        bar = bars.get(key)
        entry["nearest_measurement"] = bar.as_dict() if bar else None
    return data
