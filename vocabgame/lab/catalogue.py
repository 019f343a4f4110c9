"""The lab's catalogue of GPUs and models: small YAML files, read with the decks' own YAML tree
and checker, so every mistake is reported at its file, line and column.

Built-in files live in `vocabgame/lab/specs/`; a player adds GPUs and models with files named
`*.lab.yaml` in any decks folder (deck loading skips them). A later file's id replaces an
earlier one's, so a player can correct a built-in figure.

A file looks like:

    lab: 1
    sources:
      nvidia-h100: {title: "NVIDIA H100 datasheet", url: "https://..."}
    gpus:
      - id: H100-SXM
        name: NVIDIA H100 SXM
        memory_gb: 80
        bandwidth_gbs: 3350
        tflops: {bf16: 989, fp8: 1979, int8: 1979}   # dense, not "with sparsity"
        nvlink_gbs: 900        # both directions, as printed; optional, for TP above 1
        pcie_gbs: 128
        sources: [nvidia-h100]
    models:
      - id: llama-3.1-8b
        name: Llama 3.1 8B
        params_b: 8.03
        layers: 32
        hidden: 4096
        heads: 32
        kv_heads: 8
        head_dim: 128
        sources: [llama31-8b-config]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import TypeVar

from vocabgame.lab.model import GpuSpec, ModelSpec
from vocabgame.model import Source
from vocabgame.problems import DeckError, Problem
from vocabgame.reading.checker import Checker, describe, did_you_mean, number
from vocabgame.reading.files import lab_files, read_text
from vocabgame.reading.yamltree import Node, YamlProblem, parse

FORMAT = 1
SPEC_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
MATH = ("bf16", "fp8", "int8")
GPU_KEYS = ("id", "name", "memory_gb", "bandwidth_gbs", "tflops")
LINK_KEYS = ("nvlink_gbs", "pcie_gbs")  # optional: needed only for TP above 1
MODEL_KEYS = ("id", "name", "params_b", "layers", "hidden", "heads", "kv_heads", "head_dim")
MOE_KEYS = ("experts", "active_experts", "active_params_b")
MLA_KEYS = ("kv_lora_rank", "qk_rope_head_dim")  # multi-head latent attention: both or neither


T = TypeVar("T")


def builtin_specs_dir() -> Path:
    return Path(__file__).resolve().parent / "specs"


@dataclass(frozen=True)
class Catalogue:
    """The GPUs and models found, by id, with the sources they cite and the problems that kept
    files or entries out."""

    gpus: Mapping[str, GpuSpec]
    models: Mapping[str, ModelSpec]
    sources: Mapping[str, Source]
    problems: tuple[Problem, ...] = ()

    def gpu(self, gpu_id: str) -> GpuSpec | None:
        return _find(self.gpus, gpu_id)

    def model(self, model_id: str) -> ModelSpec | None:
        return _find(self.models, model_id)


def _find(table: Mapping[str, T], key: str) -> T | None:
    """The entry with this id, or else the one whose id matches it ignoring case."""
    if key in table:
        return table[key]
    return next((v for k, v in table.items() if k.lower() == key.lower()), None)


class _Reader:
    def __init__(self, checker: Checker) -> None:
        self.c = checker
        self.sources: dict[str, Source] = {}

    def positive(self, fields: dict[str, Node], key: str, what: str, whole: bool = False) -> float:
        node = fields.get(key)
        if node is None:
            return 0.0
        value = number(node)
        if value is None:
            self.c.error(node, f"{what} {key} should be a number, found {describe(node)}")
            return 0.0
        if value <= 0 or value != value or value == float("inf"):
            self.c.error(node, f"{what} {key} must be a positive number, not {node.raw}")
            return 0.0
        if whole and value != int(value):
            self.c.error(node, f"{what} {key} must be a whole number, not {node.raw}")
            return 0.0
        return value

    def spec_id(self, fields: dict[str, Node], what: str) -> str | None:
        if "id" not in fields:
            return None
        value = self.c.text(fields["id"], what)
        if value is not None and not SPEC_ID.match(value):
            self.c.error(
                fields["id"],
                f"{what} {value!r} may hold only letters, digits, '.', '-' and '_' "
                "(it is typed on the command line)",
            )
            return None
        return value

    def cited(self, fields: dict[str, Node], what: str) -> tuple[str, ...]:
        if "sources" not in fields:
            self.c.error(
                (fields["id"].line, fields["id"].col) if "id" in fields else None,
                f"{what} has no sources; cite the datasheet or config.json each figure comes from",
            )
            return ()
        keys = self.c.texts(fields["sources"], f"{what} sources")
        entries = fields["sources"].value if fields["sources"].kind == "seq" else []
        for entry in entries:
            if isinstance(entry.value, str) and entry.value not in self.sources:
                hint = did_you_mean(entry.value, self.sources)
                self.c.error(entry, f"source {entry.value!r} is not in the file's sources{hint}")
        return keys

    def read_sources(self, node: Node) -> None:
        if node.kind != "map":
            self.c.error(
                node, f"sources should be a mapping of keys to sources, not {describe(node)}"
            )
            return
        for key, value in node.value.items():
            fields = self.c.mapping(value, f"source {key!r}", ("title", "url"), ())
            if fields is None or "title" not in fields or "url" not in fields:
                continue
            title = self.c.text(fields["title"], f"source {key!r} title")
            url = self.c.text(fields["url"], f"source {key!r} url")
            if title and url:
                if not url.startswith(("https://", "http://")):
                    self.c.error(fields["url"], f"source {key!r} url should start with https://")
                self.sources[key] = Source(key, title, url)

    def gpu(self, node: Node) -> GpuSpec | None:
        fields = self.c.mapping(node, "a GPU", GPU_KEYS, (*LINK_KEYS, "sources"))
        if fields is None:
            return None
        before = len(self.c.problems)
        gid = self.spec_id(fields, "GPU id")
        what = f"GPU {gid!r}" if gid else "a GPU"
        name = self.c.text(fields["name"], f"{what} name") if "name" in fields else None
        memory = self.positive(fields, "memory_gb", what)
        bandwidth = self.positive(fields, "bandwidth_gbs", what)
        nvlink, pcie = (self.positive(fields, key, what) for key in LINK_KEYS)
        tflops: dict[str, float] = {}
        if "tflops" in fields:
            rates = self.c.mapping(fields["tflops"], f"{what} tflops", ("bf16",), MATH[1:])
            for key, rate_node in (rates or {}).items():
                value = self.positive({key: rate_node}, key, f"{what} tflops")
                if value:
                    tflops[key] = value
        sources = self.cited(fields, what)
        if len(self.c.problems) > before or not (gid and name):
            return None
        return GpuSpec(
            gid,
            name,
            memory,
            bandwidth,
            MappingProxyType(tflops),
            nvlink,
            pcie,
            sources,
            self.c.path,
            node.line,
        )

    def model(self, node: Node) -> ModelSpec | None:
        fields = self.c.mapping(
            node, "a model", MODEL_KEYS, (*MOE_KEYS, *MLA_KEYS, "vocab", "sources")
        )
        if fields is None:
            return None
        before = len(self.c.problems)
        mid = self.spec_id(fields, "model id")
        what = f"model {mid!r}" if mid else "a model"
        name = self.c.text(fields["name"], f"{what} name") if "name" in fields else None
        params = self.positive(fields, "params_b", what)
        whole = {
            k: int(self.positive(fields, k, what, whole=True))
            for k in ("layers", "hidden", "heads", "kv_heads", "head_dim")
        }
        experts = int(self.positive(fields, "experts", what, whole=True) or 1)
        active_experts = int(self.positive(fields, "active_experts", what, whole=True) or 1)
        active = self.positive(fields, "active_params_b", what) or None
        vocab = int(self.positive(fields, "vocab", what, whole=True))
        mla = {k: int(self.positive(fields, k, what, whole=True)) for k in MLA_KEYS}
        mla_given = [k for k in MLA_KEYS if k in fields]
        if len(mla_given) == 1:
            absent = next(k for k in MLA_KEYS if k not in fields)
            self.c.error(node, f"{what} has latent attention but lacks {absent}")
        moe_given = [k for k in MOE_KEYS if k in fields]
        if moe_given and len(moe_given) != len(MOE_KEYS):
            missing = [k for k in MOE_KEYS if k not in fields]
            self.c.error(node, f"{what} is a mixture of experts but lacks {', '.join(missing)}")
        elif moe_given:
            if not 1 <= active_experts < experts:
                self.c.error(
                    fields["active_experts"],
                    f"{what} active_experts must be at least 1 and fewer than experts ({experts})",
                )
            if active is not None and active >= params:
                self.c.error(
                    fields["active_params_b"],
                    f"{what} active_params_b must be below params_b ({params:g})",
                )
        if whole["heads"] and whole["kv_heads"] and whole["heads"] % whole["kv_heads"]:
            self.c.error(
                fields["kv_heads"],
                f"{what} kv_heads ({whole['kv_heads']}) must divide heads ({whole['heads']})",
            )
        sources = self.cited(fields, what)
        if len(self.c.problems) > before or not (mid and name):
            return None
        return ModelSpec(
            mid,
            name,
            params,
            whole["layers"],
            whole["hidden"],
            whole["heads"],
            whole["kv_heads"],
            whole["head_dim"],
            experts,
            active_experts,
            active,
            sources,
            self.c.path,
            node.line,
            vocab=vocab,
            kv_lora_rank=mla["kv_lora_rank"],
            qk_rope_head_dim=mla["qk_rope_head_dim"],
        )


@dataclass(frozen=True)
class SpecFile:
    gpus: tuple[GpuSpec, ...]
    models: tuple[ModelSpec, ...]
    sources: Mapping[str, Source]


def load_text(text: str, path: str) -> tuple[SpecFile | None, list[Problem]]:
    """Read one catalogue file's text; the file and every problem found in it."""
    checker = Checker(path)
    try:
        root, soft = parse(text)
    except YamlProblem as exc:
        return None, [Problem(path, exc.message, exc.line, exc.col)]
    for problem in soft:
        checker.error((problem.line or 1, problem.col or 1), problem.message)
    if root is None:
        return None, [Problem(path, "file is empty; a lab file needs lab: 1 and gpus or models")]
    top = checker.mapping(root, "the lab file", ("lab",), ("sources", "gpus", "models"))
    if top is None:
        return None, checker.problems
    fmt = top.get("lab")
    if fmt is not None and not (
        fmt.kind == "scalar" and not isinstance(fmt.value, bool) and fmt.value == FORMAT
    ):
        checker.error(fmt, f"unsupported lab format {fmt.raw!r}; this version reads lab: {FORMAT}")
        return None, checker.problems
    reader = _Reader(checker)
    if "sources" in top:
        reader.read_sources(top["sources"])
    gpus: list[GpuSpec] = []
    models: list[ModelSpec] = []
    if "gpus" not in top and "models" not in top:
        checker.error(root, "the lab file has neither gpus nor models")
    for section, out, read in (("gpus", gpus, reader.gpu), ("models", models, reader.model)):
        if section not in top:
            continue
        seen: dict[str, int] = {}
        for entry in checker.sequence(top[section], section) or []:
            spec = read(entry)
            if spec is None:
                continue
            if spec.id in seen:
                checker.error(
                    entry, f"{section[:-1]} id {spec.id!r} is already used at line {seen[spec.id]}"
                )
                continue
            seen[spec.id] = entry.line
            out.append(spec)  # type: ignore[arg-type]
    if any(p.severity == "error" for p in checker.problems):
        return None, checker.problems
    return SpecFile(tuple(gpus), tuple(models), MappingProxyType(reader.sources)), checker.problems


def load_catalogue(extra_folders: Iterable[Path] = (), builtin: Path | None = None) -> Catalogue:
    """The built-in catalogue, then every `*.lab.yaml` in the extra folders (the decks
    folders). A file with problems is left out whole, with its problems."""
    builtin = builtin or builtin_specs_dir()
    files = sorted(builtin.glob("*.yaml")) + lab_files(extra_folders)
    gpus: dict[str, GpuSpec] = {}
    models: dict[str, ModelSpec] = {}
    sources: dict[str, Source] = {}
    problems: list[Problem] = []
    seen: set[Path] = set()
    for path in files:
        if path.resolve() in seen:
            continue
        seen.add(path.resolve())
        try:
            text = read_text(path)
        except DeckError as exc:
            problems.extend(exc.problems)
            continue
        spec, found = load_text(text, str(path))
        problems.extend(found)
        if spec is None:
            continue
        for key, source in spec.sources.items():
            sources[key] = source
        gpus.update({g.id: g for g in spec.gpus})
        models.update({m.id: m for m in spec.models})
    return Catalogue(
        MappingProxyType(gpus), MappingProxyType(models), MappingProxyType(sources), tuple(problems)
    )
