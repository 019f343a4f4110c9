"""The table of published measurements the lab is calibrated against: one figure measured on
one setup a row, each with its source and the passage it came from. Read from
`vocabgame/lab/measurements.yaml` with the decks' own YAML tree and checker, so a mistake is
reported at its file, line and column.

What the lab says of a row is `lab_value`: the same accounting the benchmark used (its
throughput counts each request's TTFT inside the run, its ITL includes the prefills of
arriving requests), so that a row compares like with like."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType

from vocabgame.lab.catalogue import Catalogue
from vocabgame.lab.catalogue import load_text as load_spec_text
from vocabgame.lab.inputs import (
    KV_PRECISIONS,
    WEIGHT_PRECISIONS,
    Assumptions,
    LabError,
    ModelSpec,
    Setup,
)
from vocabgame.lab.model import Estimate, estimate
from vocabgame.problems import DeckError, Problem
from vocabgame.reading.checker import Checker, describe, did_you_mean, number
from vocabgame.reading.files import read_text
from vocabgame.reading.yamltree import Node, YamlProblem, parse

FORMAT = 1
# Each figure a row may measure: its label, its unit, and whether more of it is better (a
# throughput) rather than worse (a latency): it decides which way is "fast".
FIGURES: Mapping[str, tuple[str, str, bool]] = MappingProxyType(
    {
        "ttft_ms": ("TTFT", "ms", False),
        "itl_ms": ("ITL", "ms", False),
        "throughput_tokens_per_s": ("output throughput", "tokens/s", True),
        "e2e_ms": ("end-to-end latency", "ms", False),
    }
)
SETUP_KEYS = ("gpu", "model", "tp", "weights", "kv", "batch")
SHAPE_KEYS = ("prompt", "output")
ROW_KEYS = ("id", "source", "setup", "shape", "figure", "value", "quote")
# `fit: false` keeps a row out of the fit: it is compared (and named by the error bar), not
# fitted to.
ROW_OPTIONAL = ("fit",)


def builtin_measurements() -> Path:
    """The table the lab ships with and is calibrated against."""
    return Path(__file__).resolve().parent / "measurements.yaml"


@cache
def measured_models() -> Mapping[str, ModelSpec]:
    """Models the table measures that the catalogue does not offer (measured_models.yaml),
    by id. Raises LabError when that file has a mistake."""
    path = Path(__file__).resolve().parent / "measured_models.yaml"
    spec, problems = load_spec_text(read_text(path), str(path))
    if spec is None:
        raise LabError(f"the measured models file has a mistake: {problems[0]}")
    return MappingProxyType({m.id: m for m in spec.models})


@dataclass(frozen=True)
class MeasurementSource:
    key: str
    by: str  # who measured, as a reader names them: "NIM", "vLLM"
    title: str
    url: str


@dataclass(frozen=True)
class Measurement:
    """One published figure on one setup."""

    id: str
    source: MeasurementSource
    gpu: str
    model: str
    tp: int
    weights: str
    kv: str
    batch: int
    prompt: int
    output: int
    figure: str
    value: float
    quote: str
    fitted: bool = True  # False: compared with the lab, not fitted to

    @property
    def label(self) -> str:
        return FIGURES[self.figure][0]

    @property
    def unit(self) -> str:
        return FIGURES[self.figure][1]

    def describe(self) -> str:
        return (
            f"{self.model} on {self.tp} x {self.gpu}, {self.weights.upper()} weights, "
            f"{self.kv.upper()} KV, batch {self.batch}, {self.prompt} in / {self.output} out"
        )

    def setup(self, catalogue: Catalogue, assumptions: Assumptions) -> Setup:
        """This row's setup in the lab, with the given assumptions; its model from the
        catalogue or else from the measured models. Raises LabError when neither has it."""
        gpu = catalogue.gpu(self.gpu)
        model = catalogue.model(self.model) or measured_models().get(self.model)
        if gpu is None or model is None:
            raise LabError(f"measurement {self.id!r} names a GPU or model not in the catalogue")
        return Setup(
            gpu,
            model,
            weights=self.weights,
            kv=self.kv,
            tp=self.tp,
            batch=self.batch,
            prompt=self.prompt,
            output=self.output,
            assumptions=assumptions,
        )


def lab_value(row: Measurement, e: Estimate) -> float:
    """What the lab's estimate of this row's setup says of the figure the row measured, in
    the row's unit and by the benchmark's own accounting."""
    if row.figure == "ttft_ms":
        return e.value("ttft")
    if row.figure == "itl_ms":
        # The mean gap over a run includes the prefills of arriving requests run between
        # decode steps: the loaded TPOT.
        return e.value("tpot_loaded")
    if row.figure == "e2e_ms":
        return e.value("e2e") * 1000
    # A benchmark's duration holds every request's TTFT as well as its decode steps.
    per_request_s = e.value("ttft") / 1000 + (row.output - 1) * e.value("tpot_loaded") / 1000
    return row.batch * row.output / per_request_s


def lab_estimate(row: Measurement, catalogue: Catalogue, assumptions: Assumptions) -> float:
    """The lab's value for the row with these assumptions (see `lab_value`)."""
    return lab_value(row, estimate(row.setup(catalogue, assumptions)))


def error(lab: float, measured: float) -> float:
    """The lab's signed relative error on a measurement: +0.12 is 12% above it."""
    return lab / measured - 1


@dataclass(frozen=True)
class MeasurementTable:
    rows: tuple[Measurement, ...]
    sources: Mapping[str, MeasurementSource]
    problems: tuple[Problem, ...] = ()

    def of(self, figure: str) -> tuple[Measurement, ...]:
        return tuple(r for r in self.rows if r.figure == figure)

    def split(self) -> tuple[MeasurementTable, MeasurementTable]:
        """The rows the fit uses and the rows it leaves out, as two tables."""
        return (
            MeasurementTable(tuple(r for r in self.rows if r.fitted), self.sources),
            MeasurementTable(tuple(r for r in self.rows if not r.fitted), self.sources),
        )


class _Reader:
    def __init__(self, checker: Checker) -> None:
        self.c = checker
        self.sources: dict[str, MeasurementSource] = {}

    def whole(self, fields: dict[str, Node], key: str, what: str) -> int:
        node = fields.get(key)
        value = number(node) if node is not None else None
        if node is None:
            return 0
        if value is None or value < 1 or value != int(value):
            self.c.error(node, f"{what} {key} must be a whole number of at least 1, not {node.raw}")
            return 0
        return int(value)

    def read_sources(self, node: Node) -> None:
        if node.kind != "map":
            self.c.error(node, f"sources should be a mapping, not {describe(node)}")
            return
        for key, value in node.value.items():
            fields = self.c.mapping(value, f"source {key!r}", ("by", "title", "url"), ())
            if fields is None or len(fields) < 3:
                continue
            by, title, url = (
                self.c.text(fields[k], f"source {key!r} {k}") for k in ("by", "title", "url")
            )
            if by and title and url:
                if not url.startswith(("https://", "http://")):
                    self.c.error(fields["url"], f"source {key!r} url should start with https://")
                self.sources[key] = MeasurementSource(key, by, title, url)

    def choice(self, node: Node, what: str, allowed: tuple[str, ...]) -> str:
        value = self.c.text(node, what)
        if value is not None and value not in allowed:
            self.c.error(
                node,
                f"{what} {value!r} is not one of {', '.join(allowed)}"
                + did_you_mean(value, allowed),
            )
            return ""
        return value or ""

    def row(self, node: Node) -> Measurement | None:
        fields = self.c.mapping(node, "a measurement", ROW_KEYS, ROW_OPTIONAL)
        if fields is None or any(k not in fields for k in ROW_KEYS):
            return None
        before = len(self.c.problems)
        rid = self.c.text(fields["id"], "measurement id") or ""
        what = f"measurement {rid!r}"
        key = self.c.text(fields["source"], f"{what} source")
        if key is not None and key not in self.sources:
            self.c.error(
                fields["source"],
                f"source {key!r} is not in the file's sources" + did_you_mean(key, self.sources),
            )
        setup = self.c.mapping(fields["setup"], f"{what} setup", SETUP_KEYS, ())
        shape = self.c.mapping(fields["shape"], f"{what} shape", SHAPE_KEYS, ())
        if setup is None or shape is None or len(setup) < 6 or len(shape) < 2:
            return None
        gpu = self.c.text(setup["gpu"], f"{what} gpu") or ""
        model = self.c.text(setup["model"], f"{what} model") or ""
        weights = self.choice(setup["weights"], f"{what} weights", WEIGHT_PRECISIONS)
        kv = self.choice(setup["kv"], f"{what} kv", KV_PRECISIONS)
        whole = {k: self.whole(setup, k, what) for k in ("tp", "batch")}
        whole.update({k: self.whole(shape, k, what) for k in SHAPE_KEYS})
        figure = self.choice(fields["figure"], f"{what} figure", tuple(FIGURES))
        value = number(fields["value"])
        if value is None or not value > 0 or value == float("inf"):
            self.c.error(fields["value"], f"{what} value must be a positive number")
        quote = self.c.text(fields["quote"], f"{what} quote") or ""
        fitted = True
        if "fit" in fields:
            flag = fields["fit"]
            if not (flag.kind == "scalar" and isinstance(flag.value, bool)):
                self.c.error(flag, f"{what} fit must be true or false, not {flag.raw}")
            else:
                fitted = flag.value
        if len(self.c.problems) > before or value is None or key is None:
            return None
        return Measurement(
            rid,
            self.sources[key],
            gpu,
            model,
            whole["tp"],
            weights,
            kv,
            whole["batch"],
            whole["prompt"],
            whole["output"],
            figure,
            value,
            quote,
            fitted,
        )


def load_text(text: str, path: str) -> MeasurementTable:
    """Read a measurements file's text; a table with no rows and the problems when it has
    any error."""
    checker = Checker(path)
    try:
        root, soft = parse(text)
    except YamlProblem as exc:
        return MeasurementTable((), {}, (Problem(path, exc.message, exc.line, exc.col),))
    for problem in soft:
        checker.error((problem.line or 1, problem.col or 1), problem.message)
    if root is None:
        return MeasurementTable((), {}, (Problem(path, "file is empty"),))
    top = checker.mapping(root, "the measurements file", ("measurements", "sources", "rows"), ())
    if top is None or len(top) < 3:
        return MeasurementTable((), {}, tuple(checker.problems))
    fmt = top["measurements"]
    if not (fmt.kind == "scalar" and not isinstance(fmt.value, bool) and fmt.value == FORMAT):
        checker.error(fmt, f"unsupported measurements format {fmt.raw!r}; this reads {FORMAT}")
        return MeasurementTable((), {}, tuple(checker.problems))
    reader = _Reader(checker)
    reader.read_sources(top["sources"])
    rows: list[Measurement] = []
    seen: dict[str, int] = {}
    for entry in checker.sequence(top["rows"], "rows") or []:
        row = reader.row(entry)
        if row is None:
            continue
        if row.id in seen:
            checker.error(
                entry, f"measurement id {row.id!r} is already used at line {seen[row.id]}"
            )
            continue
        seen[row.id] = entry.line
        rows.append(row)
    if any(p.severity == "error" for p in checker.problems):
        return MeasurementTable((), MappingProxyType(reader.sources), tuple(checker.problems))
    return MeasurementTable(tuple(rows), MappingProxyType(reader.sources), ())


_LOADED: dict[Path, MeasurementTable] = {}


def load_measurements(path: Path | None = None) -> MeasurementTable:
    """The table in `path` (the built-in one by default), read once per process. Raises
    LabError, with the first problem, when the file cannot be read or has a mistake."""
    path = (path or builtin_measurements()).resolve()
    if path not in _LOADED:
        try:
            table = load_text(read_text(path), str(path))
        except DeckError as exc:
            raise LabError(f"cannot read the measurements file: {exc.problems[0]}") from exc
        if table.problems:
            raise LabError(f"the measurements file has a mistake: {table.problems[0]}")
        _LOADED[path] = table
    return _LOADED[path]
