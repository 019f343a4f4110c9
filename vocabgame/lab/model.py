"""A roofline estimate of one LLM serving setup: memory, prefill, decode, throughput and cost.

Every figure is a `Figure` that carries its value, its formula and the inputs it used, so a
screen can show the working. The model is an estimate: it leaves out queueing, kernel launch
and scheduling overheads, and it folds every kernel's and link's real speed into three
efficiency factors (`Assumptions`). The headline throughput is a loaded server's, each new
request's prefill mixed in. docs/lab.md compares it with published measurements.

Units: GB and GB/s are 10^9 bytes; TFLOPS are 10^12 operations a second.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

# The inputs and the link traffic live in their own modules; their names stay importable here.
from vocabgame.lab.inputs import BYTES as BYTES
from vocabgame.lab.inputs import GB as GB
from vocabgame.lab.inputs import KV_PRECISIONS as KV_PRECISIONS
from vocabgame.lab.inputs import MATH_FOR_WEIGHTS as MATH_FOR_WEIGHTS
from vocabgame.lab.inputs import TERA as TERA
from vocabgame.lab.inputs import WEIGHT_PRECISIONS as WEIGHT_PRECISIONS
from vocabgame.lab.inputs import Assumptions as Assumptions
from vocabgame.lab.inputs import CardRef as CardRef
from vocabgame.lab.inputs import GpuSpec as GpuSpec
from vocabgame.lab.inputs import LabError as LabError
from vocabgame.lab.inputs import ModelSpec as ModelSpec
from vocabgame.lab.inputs import Setup as Setup
from vocabgame.lab.inputs import weights_read_b as weights_read_b
from vocabgame.lab.links import ALLREDUCES_PER_LAYER as ALLREDUCES_PER_LAYER
from vocabgame.lab.links import allreduce_s as allreduce_s
from vocabgame.lab.links import handoffs_s as handoffs_s
from vocabgame.lab.parallel import check_parallel, parallel_figures

MEMORY_BOUND = "memory-bound"
COMPUTE_BOUND = "compute-bound"


@dataclass(frozen=True)
class Figure:
    """One number of the estimate with its working: `formula` in words and symbols, and the
    `inputs` it used as (name, value with unit) pairs, in the formula's order."""

    key: str
    label: str
    value: float
    unit: str
    formula: str
    inputs: tuple[tuple[str, str], ...]
    card: CardRef | None = None
    note: str = ""

    def shown(self) -> str:
        return f"{fmt(self.value)} {self.unit}".strip()

    def as_dict(self) -> dict[str, object]:
        return {
            "label": self.label,
            "value": self.value,
            "unit": self.unit,
            "formula": self.formula,
            "inputs": dict(self.inputs),
            "card": str(self.card) if self.card else None,
            "note": self.note or None,
        }


@dataclass(frozen=True)
class Estimate:
    """Every figure of one setup, by key, in the order a reader follows them."""

    setup: Setup
    figures: Mapping[str, Figure]
    decode_regime: str
    prefill_regime: str
    math_precision: str

    def __getitem__(self, key: str) -> Figure:
        return self.figures[key]

    def value(self, key: str) -> float:
        return self.figures[key].value

    def as_dict(self) -> dict[str, object]:
        s = self.setup
        return {
            # The headline figures first, by name, for tools that read one number.
            "batch": s.batch,
            "throughput_tokens_per_s": self.value("throughput"),
            "decode_throughput_tokens_per_s": self.value("decode_throughput"),
            "ttft_ms": self.value("ttft"),
            "tpot_ms": self.value("tpot_loaded"),
            "tpot_decode_ms": self.value("tpot"),
            "e2e_s": self.value("e2e"),
            "max_batch": int(self.value("max_batch")),
            "usd_per_million_output_tokens": self.value("cost"),
            "setup": {
                "gpu": s.gpu.id,
                "model": s.model.id,
                "weights": s.weights,
                "kv": s.kv,
                "tp": s.tp,
                "pp": s.pp,
                "ep": s.ep,
                "batch": s.batch,
                "prompt": s.prompt,
                "output": s.output,
            },
            "assumptions": {
                "bandwidth_efficiency": s.assumptions.bandwidth_efficiency,
                "compute_efficiency": s.assumptions.compute_efficiency,
                "usable_memory": s.assumptions.usable_memory,
                "usd_per_gpu_hour": s.assumptions.usd_per_gpu_hour,
                "link_efficiency": s.assumptions.link_efficiency,
                "allreduce_latency_us": s.assumptions.allreduce_latency_us,
                "alltoall_latency_us": s.assumptions.alltoall_latency_us,
                "step_overhead_us": s.assumptions.step_overhead_us,
                "left_out": LEFT_OUT,
            },
            "regime": {"prefill": self.prefill_regime, "decode": self.decode_regime},
            "math_precision": self.math_precision,
            "figures": {k: f.as_dict() for k, f in self.figures.items()},
        }


LEFT_OUT = (
    "queueing, overlap of communication with compute, and activation memory; kernel launches "
    "and scheduling are one fitted fixed cost a forward pass"
)


def fmt(value: float) -> str:
    """A figure as a reader wants it: three significant digits, thousands separated."""
    if value == 0 or not math.isfinite(value):
        return str(value) if not math.isfinite(value) else "0"
    magnitude = abs(value)
    if value == int(value) and magnitude < 1e15:
        return f"{int(value):,}"
    if magnitude >= 1000:
        return f"{value:,.0f}"
    if magnitude >= 100:
        return f"{value:.0f}"
    if magnitude >= 10:
        return f"{value:.1f}"
    if magnitude >= 1:
        return f"{value:.2f}"
    return f"{value:.3g}"


def _card(deck: str, item: str) -> CardRef:
    return CardRef(deck, item)


# The deck item that teaches each figure (tests check every one exists in decks/).
CARDS: Mapping[str, CardRef] = MappingProxyType(
    {
        "weights": _card("quantization", "weight-memory"),
        "weights_per_gpu": _card("scaling-capacity", "tensor-parallelism"),
        "kv_per_token": _card("kv-cache", "kv-bytes-per-token"),
        "kv_per_sequence": _card("kv-cache", "kv-one-sequence"),
        "kv_space": _card("kv-cache", "kv-sequences-fit"),
        "kv_batch": _card("kv-cache", "kv-batch"),
        "max_batch": _card("interview-classics", "kv-limited-concurrency"),
        "prefill": _card("batching-scheduling", "prefill"),
        "prefill_intensity": _card("scaling-capacity", "arithmetic-intensity"),
        "ttft": _card("latency-throughput", "ttft"),
        "decode_memory": _card("estimates", "decode-bandwidth-ceiling"),
        "decode_compute": _card("scaling-capacity", "compute-bound"),
        "decode_intensity": _card("scaling-capacity", "arithmetic-intensity"),
        "ops_byte": _card("scaling-capacity", "ops-byte-ratio"),
        "ridge": _card("scaling-capacity", "roofline-model"),
        "knee": _card("estimates", "crossover-batch-size"),
        "allreduce_prefill": _card("parallelism-runtime", "tp-allreduce-per-layer"),
        "allreduce_decode": _card("parallelism-runtime", "tp-allreduce-per-layer"),
        "handoff_prefill": _card("scaling-capacity", "pipeline-parallelism"),
        "handoff_decode": _card("scaling-capacity", "pipeline-parallelism"),
        "alltoall_prefill": _card("expert-parallel", "a2a-bytes-per-token"),
        "alltoall_decode": _card("expert-parallel", "a2a-bytes-per-token"),
        "pipeline_bubble": _card("parallelism-runtime", "pipeline-bubble-fraction"),
        "tpot": _card("latency-throughput", "tpot"),
        "tpot_loaded": _card("batching-scheduling", "chunked-prefill"),
        "e2e": _card("latency-throughput", "e2el"),
        "user_speed": _card("latency-throughput", "per-user-output-speed"),
        "throughput": _card("batching-scheduling", "continuous-batching"),
        "decode_throughput": _card("latency-throughput", "output-token-throughput"),
        "cost": _card("latency-throughput", "cost-per-token"),
    }
)


def _n(value: float, unit: str = "") -> str:
    return f"{fmt(value)} {unit}".strip()


def check_setup(setup: Setup) -> None:
    """Raise LabError for a setup that makes no sense, before any arithmetic."""
    if setup.weights not in WEIGHT_PRECISIONS:
        raise LabError(
            f"unknown weight precision {setup.weights!r}; choose one of {', '.join(WEIGHT_PRECISIONS)}"
        )
    if setup.kv not in KV_PRECISIONS:
        raise LabError(
            f"unknown KV cache precision {setup.kv!r}; choose one of {', '.join(KV_PRECISIONS)}"
        )
    for name in ("tp", "pp", "batch", "prompt", "output"):
        value = getattr(setup, name)
        if value < 1:
            raise LabError(f"{name} must be at least 1, not {value}")
    if setup.pp > setup.model.layers:
        raise LabError(
            f"{setup.pp} pipeline stages are more than {setup.model.name}'s "
            f"{setup.model.layers} layers; choose at most {setup.model.layers}"
        )
    if setup.tp * setup.pp > 1 and not setup.gpu.link()[1]:
        raise LabError(
            f"{setup.gpu.name} has no NVLink or PCIe bandwidth in its entry, so the traffic "
            f"between its GPUs cannot be timed; add nvlink_gbs or pcie_gbs"
        )
    if setup.model.heads % setup.tp:
        raise LabError(
            f"tensor parallelism of {setup.tp} does not divide {setup.model.name}'s "
            f"{setup.model.heads} attention heads; choose a TP that does"
        )
    check_parallel(setup)
    setup.assumptions.check()


def estimate(setup: Setup) -> Estimate:
    """Every figure of a setup. Raises LabError with the reason when the weights, or the KV
    cache of this batch at these lengths, do not fit in the GPUs' memory."""
    check_setup(setup)
    s, g, m, a = setup, setup.gpu, setup.model, setup.assumptions
    f: dict[str, Figure] = {}

    def put(
        key: str,
        label: str,
        value: float,
        unit: str,
        formula: str,
        *inputs: tuple[str, str],
        note: str = "",
    ) -> float:
        f[key] = Figure(key, label, value, unit, formula, tuple(inputs), CARDS.get(key), note)
        return value

    wbytes = BYTES[s.weights]
    kvbytes = BYTES[s.kv]

    # -- memory ---------------------------------------------------------------------------
    weights_gb = put(
        "weights",
        "Weights",
        m.params_b * 1e9 * wbytes / GB,
        "GB",
        "parameters x bytes per parameter",
        ("parameters", f"{fmt(m.params_b)} B"),
        (f"bytes per {s.weights.upper()} parameter", fmt(wbytes)),
    )
    weights_gpu = put(
        "weights_per_gpu",
        "Weights per GPU",
        weights_gb / (s.tp * s.pp),
        "GB",
        "weights / (TP x PP)",
        ("weights", _n(weights_gb, "GB")),
        ("TP", str(s.tp)),
        ("PP", str(s.pp)),
    )
    kv_heads_gpu = max(1.0, m.kv_heads / s.tp)
    if m.is_mla:
        kv_token = put(
            "kv_per_token",
            "KV cache per token (MLA)",
            m.layers * m.kv_elements() * kvbytes,
            "bytes",
            "layers x (latent + RoPE key) x bytes per element: one for all heads",
            ("layers", str(m.layers)),
            ("latent (kv_lora_rank)", str(m.kv_lora_rank)),
            ("RoPE key (qk_rope_head_dim)", str(m.qk_rope_head_dim)),
            (f"bytes per {s.kv.upper()} element", fmt(kvbytes)),
        )
    else:
        kv_token = put(
            "kv_per_token",
            "KV cache per token",
            m.layers * m.kv_elements() * kvbytes,
            "bytes",
            "2 (K and V) x layers x KV heads x head dim x bytes per element",
            ("layers", str(m.layers)),
            ("KV heads", str(m.kv_heads)),
            ("head dim", str(m.head_dim)),
            (f"bytes per {s.kv.upper()} element", fmt(kvbytes)),
        )
    seq_tokens = s.prompt + s.output
    kv_seq = put(
        "kv_per_sequence",
        "KV cache per sequence",
        kv_token * seq_tokens / GB,
        "GB",
        "KV per token x (prompt + output)",
        ("KV per token", _n(kv_token, "bytes")),
        ("prompt + output", f"{seq_tokens} tokens"),
    )
    usable = g.memory_gb * a.usable_memory
    space = put(
        "kv_space",
        "Room for KV cache per GPU",
        usable - weights_gpu,
        "GB",
        "GPU memory x usable share - weights per GPU",
        ("GPU memory", _n(g.memory_gb, "GB")),
        ("usable share", fmt(a.usable_memory)),
        ("weights per GPU", _n(weights_gpu, "GB")),
    )
    if space <= 0:
        raise LabError(
            f"{m.name} in {s.weights.upper()} needs {fmt(weights_gb)} GB of weights, "
            f"{fmt(weights_gpu)} GB per GPU at TP {s.tp} x PP {s.pp}, more than the "
            f"{fmt(usable)} GB usable on one {g.name} ({fmt(g.memory_gb)} GB x "
            f"{fmt(a.usable_memory)}); raise TP or PP, or quantize the weights"
        )
    # Under TP each GPU keeps its share of the KV heads, but never less than one whole head;
    # an MLA latent serves every head, so each GPU keeps all of it. A pipeline stage keeps
    # only its own layers' share.
    kv_share = 1.0 if m.is_mla else kv_heads_gpu / m.kv_heads
    kv_seq_gpu = kv_seq * kv_share / s.pp
    max_batch = put(
        "max_batch",
        "Largest batch that fits",
        math.floor(space / kv_seq_gpu),
        "sequences",
        "room for KV per GPU / KV per sequence per GPU (KV heads split by TP, at least 1; "
        "an MLA latent whole on every GPU; layers split by PP)",
        ("room for KV per GPU", _n(space, "GB")),
        ("KV per sequence per GPU", _n(kv_seq_gpu, "GB")),
        ("share of the KV on each GPU", fmt(kv_share)),
    )
    kv_batch_gpu = put(
        "kv_batch",
        "KV cache of this batch per GPU",
        kv_seq_gpu * s.batch,
        "GB",
        "KV per sequence per GPU x batch",
        ("KV per sequence per GPU", _n(kv_seq_gpu, "GB")),
        ("batch", str(s.batch)),
    )
    if s.batch > max_batch:
        raise LabError(
            f"a batch of {s.batch} needs {fmt(kv_batch_gpu)} GB of KV cache per GPU at "
            f"{seq_tokens} tokens a sequence, but only {fmt(space)} GB is left after the weights; "
            f"the largest batch that fits is {int(max_batch)}"
        )

    # -- rates ----------------------------------------------------------------------------
    math_prec, peak_tflops = g.math_rate(s.weights)
    flops_rate = peak_tflops * TERA * a.compute_efficiency  # per GPU, achieved
    bytes_rate = g.bandwidth_gbs * GB * a.bandwidth_efficiency  # per GPU, achieved
    put(
        "ops_byte",
        "GPU ops:byte (datasheet)",
        peak_tflops * TERA / (g.bandwidth_gbs * GB),
        "FLOP/byte",
        "peak dense math / peak memory bandwidth",
        (f"peak {math_prec.upper()}", f"{fmt(peak_tflops)} TFLOPS"),
        ("peak bandwidth", f"{fmt(g.bandwidth_gbs)} GB/s"),
    )
    ridge = put(
        "ridge",
        "Ridge point (achieved)",
        flops_rate / bytes_rate,
        "FLOP/byte",
        "(peak math x compute efficiency) / (peak bandwidth x bandwidth efficiency)",
        (f"peak {math_prec.upper()}", f"{fmt(peak_tflops)} TFLOPS"),
        ("compute efficiency", fmt(a.compute_efficiency)),
        ("peak bandwidth", f"{fmt(g.bandwidth_gbs)} GB/s"),
        ("bandwidth efficiency", fmt(a.bandwidth_efficiency)),
    )

    # -- prefill: one request's prompt, all tokens at once ----------------------------------
    # Matmuls: 2 FLOPs per matmul parameter per token. Attention: QK^T and AV, 2 x heads x
    # (qk dim + v dim) per pair of tokens, over the P^2/2 pairs a causal prompt has.
    qk_p, v_p = m.attention_dims(decode=False)
    attn_prefill = m.layers * m.heads * (qk_p + v_p) * s.prompt**2
    prefill_flops = 2 * m.matmul_b * 1e9 * s.prompt + attn_prefill
    prefill_bytes = m.params_b * 1e9 * wbytes + kv_token * s.prompt
    prefill_compute = prefill_flops / (flops_rate * s.tp)
    prefill_memory = prefill_bytes / (bytes_rate * s.tp)
    prefill_intensity = put(
        "prefill_intensity",
        "Prefill arithmetic intensity",
        prefill_flops / prefill_bytes,
        "FLOP/byte",
        "(2 x matmul parameters x prompt + layers x heads x (qk dim + v dim) x prompt^2) / "
        "(weight bytes + KV bytes written)",
        ("matmul parameters (active, less the input embedding)", f"{fmt(m.matmul_b)} B"),
        ("prompt", f"{s.prompt} tokens"),
        ("attention FLOPs", fmt(attn_prefill)),
        ("weight bytes", _n(m.params_b * wbytes, "GB")),
    )
    prefill_regime = COMPUTE_BOUND if prefill_intensity >= ridge else MEMORY_BOUND
    link_name, one_way_gbs = g.link()
    link_inputs = (
        ("layers x all-reduces per layer", f"{m.layers} x {ALLREDUCES_PER_LAYER}"),
        ("hidden size", str(m.hidden)),
        ("TP", str(s.tp)),
        (
            f"{link_name or 'link'} one way x link efficiency",
            f"{fmt(one_way_gbs)} GB/s x {fmt(a.link_efficiency)}",
        ),
        ("latency per all-reduce", f"{fmt(a.allreduce_latency_us)} us"),
    )
    ar_formula = (
        "2 x layers x (2(TP-1)/TP x {tokens} x hidden x 2 bytes / (link one way x link "
        "efficiency) + latency per call); none at TP 1"
    )
    ar_prefill = (
        put(
            "allreduce_prefill",
            "Prefill all-reduces (TP)",
            allreduce_s(s, s.prompt) * 1000,
            "ms",
            ar_formula.format(tokens="prompt"),
            ("prompt", f"{s.prompt} tokens"),
            *link_inputs,
        )
        / 1000
    )
    handoff_inputs = (
        ("PP - 1 sends", str(s.pp - 1)),
        ("hidden size", str(m.hidden)),
        (
            f"{link_name or 'link'} one way x link efficiency",
            f"{fmt(one_way_gbs)} GB/s x {fmt(a.link_efficiency)}",
        ),
        ("latency per send", f"{fmt(a.allreduce_latency_us)} us"),
    )
    handoff_formula = (
        "(PP - 1) x ({tokens} x hidden x 2 bytes / (link one way x link efficiency) + latency "
        "per send); none at PP 1"
    )
    ho_prefill = (
        put(
            "handoff_prefill",
            "Prefill pipeline hand-offs (PP)",
            handoffs_s(s, s.prompt) * 1000,
            "ms",
            handoff_formula.format(tokens="prompt"),
            ("prompt", f"{s.prompt} tokens"),
            *handoff_inputs,
        )
        / 1000
    )
    # The all-reduces sit between the matmuls that need their results: time adds, no overlap.
    # The stages run one after another for one prompt, so PP adds hand-offs, not speed.
    overhead_s = a.step_overhead_us * 1e-6  # every forward pass, prefill or decode
    # Under PP the batch decodes as up to PP micro-batches in flight (see decode below).
    micro = s.batch / min(s.batch, s.pp)
    a2a_prefill, a2a_step = parallel_figures(put, s, micro)  # 0 at EP 1
    prefill_s = max(prefill_compute, prefill_memory) + ar_prefill + ho_prefill + overhead_s
    prefill_s += a2a_prefill
    put(
        "prefill",
        "Prefill time",
        prefill_s * 1000,
        "ms",
        "max(prefill FLOPs / (TP x achieved FLOP/s), prefill bytes / (TP x achieved bytes/s)) "
        "+ all-reduces + pipeline hand-offs + all-to-alls + fixed cost per pass",
        ("prefill FLOPs", fmt(prefill_flops)),
        ("compute term", _n(prefill_compute * 1000, "ms")),
        ("memory term", _n(prefill_memory * 1000, "ms")),
        ("all-reduces", _n(ar_prefill * 1000, "ms")),
        ("pipeline hand-offs", _n(ho_prefill * 1000, "ms")),
        ("all-to-alls (EP)", _n(a2a_prefill * 1000, "ms")),
        ("fixed cost per pass", _n(overhead_s * 1000, "ms")),
        ("TP", str(s.tp)),
        note=prefill_regime,
    )
    ttft = put(
        "ttft",
        "TTFT",
        prefill_s * 1000,
        "ms",
        "prefill time (queueing left out: the request starts at once)",
        ("prefill time", _n(prefill_s * 1000, "ms")),
    )

    # -- decode: one step makes one token for each of the batch's sequences -----------------
    context = s.prompt + s.output / 2  # the mean context over the reply
    # Under PP the batch decodes as up to PP micro-batches in flight, one per stage; each
    # passes every stage once a token, so a token costs one TP-only step of a micro-batch
    # (the stages' shares add up to all the layers) plus the hand-offs between stages.
    read_b = weights_read_b(m, micro)
    step_weight_bytes = read_b * 1e9 * wbytes
    # Each GPU reads its own share of the KV cache (all of it, for an MLA latent).
    step_kv_bytes_gpu = kv_token * context * micro * kv_share
    step_bytes_gpu = step_weight_bytes / s.tp + step_kv_bytes_gpu
    qk_d, v_d = m.attention_dims(decode=True)
    attn_step = 2 * m.layers * m.heads * (qk_d + v_d) * context * micro
    step_flops = 2 * m.matmul_b * 1e9 * micro + attn_step
    micro_input = (("sequences per micro-batch (batch / PP)", fmt(micro)),) if s.pp > 1 else ()
    mem_s = (
        put(
            "decode_memory",
            "Decode step, memory term",
            step_bytes_gpu / bytes_rate * 1000,
            "ms",
            "(weights read / TP + KV read per GPU) / (bandwidth x bandwidth efficiency)",
            ("weights read", _n(step_weight_bytes / GB, "GB")),
            ("KV read per GPU", _n(step_kv_bytes_gpu / GB, "GB")),
            ("mean context", f"{fmt(context)} tokens"),
            ("achieved bandwidth per GPU", _n(bytes_rate / GB, "GB/s")),
            ("TP", str(s.tp)),
            *micro_input,
            note="MoE: experts any token of the batch is routed to" if m.is_moe else "",
        )
        / 1000
    )
    comp_s = (
        put(
            "decode_compute",
            "Decode step, compute term",
            step_flops / (flops_rate * s.tp) * 1000,
            "ms",
            "(2 x matmul parameters x batch + 2 x layers x heads x (qk dim + v dim) x context x "
            "batch) / (TP x peak x compute efficiency)",
            ("matmul parameters (active, less the input embedding)", f"{fmt(m.matmul_b)} B"),
            ("batch", str(s.batch)),
            *micro_input,
            ("attention FLOPs", fmt(attn_step)),
            (f"achieved {math_prec.upper()} per GPU", f"{fmt(flops_rate / TERA)} TFLOPS"),
            ("TP", str(s.tp)),
        )
        / 1000
    )
    intensity = put(
        "decode_intensity",
        "Decode arithmetic intensity",
        step_flops / s.tp / step_bytes_gpu,
        "FLOP/byte",
        "decode step FLOPs per GPU / decode step bytes per GPU",
        ("step FLOPs per GPU", fmt(step_flops / s.tp)),
        ("step bytes per GPU", fmt(step_bytes_gpu)),
    )
    decode_regime = COMPUTE_BOUND if intensity >= ridge else MEMORY_BOUND
    # Weight matmuls alone: 2 x batch FLOPs per parameter read, so intensity 2B / bytes per
    # weight; they reach the ridge at this batch.
    put(
        "knee",
        "Batch where weight matmuls turn compute-bound",
        ridge * wbytes / 2,
        "sequences",
        "ridge point x bytes per weight / 2 (attention's KV reads push the real knee later)",
        ("ridge point", _n(ridge, "FLOP/byte")),
        ("bytes per weight", fmt(wbytes)),
    )
    ar_step = (
        put(
            "allreduce_decode",
            "Decode step all-reduces (TP)",
            allreduce_s(s, micro) * 1000,
            "ms",
            ar_formula.format(tokens="batch / PP" if s.pp > 1 else "batch"),
            ("tokens", f"{fmt(micro)} tokens"),
            *link_inputs,
        )
        / 1000
    )
    ho_step = (
        put(
            "handoff_decode",
            "Decode step pipeline hand-offs (PP)",
            handoffs_s(s, micro) * 1000,
            "ms",
            handoff_formula.format(tokens="micro-batch"),
            ("micro-batch", f"{fmt(micro)} tokens"),
            *handoff_inputs,
        )
        / 1000
    )
    step_s = max(mem_s, comp_s) + ar_step + ho_step + a2a_step + overhead_s
    tpot = put(
        "tpot",
        "TPOT",
        step_s * 1000,
        "ms",
        "decode step time = max(memory term, compute term) + all-reduces"
        + (" + pipeline hand-offs" if s.pp > 1 else "")
        + (" + all-to-alls" if s.ep > 1 else "")
        + " + fixed cost per pass",
        ("memory term", _n(mem_s * 1000, "ms")),
        ("compute term", _n(comp_s * 1000, "ms")),
        ("all-reduces", _n(ar_step * 1000, "ms")),
        *((("pipeline hand-offs", _n(ho_step * 1000, "ms")),) if s.pp > 1 else ()),
        *((("all-to-alls", _n(a2a_step * 1000, "ms")),) if s.ep > 1 else ()),
        ("fixed cost per pass", _n(overhead_s * 1000, "ms")),
        note=decode_regime,
    )
    # Under steady load each sequence's prefill runs once in its reply's `output` steps, and
    # the batch holds `batch` sequences: batch / output prefills share every step.
    tpot_loaded = put(
        "tpot_loaded",
        "TPOT with prefills mixed in",
        tpot + s.batch / s.output * prefill_s * 1000,
        "ms",
        "TPOT + (batch / output) x prefill time (steady load: each new request's prefill "
        "runs between decode steps)",
        ("TPOT", _n(tpot, "ms")),
        ("batch", str(s.batch)),
        ("output", f"{s.output} tokens"),
        ("prefill time", _n(prefill_s * 1000, "ms")),
    )
    put(
        "e2e",
        "End-to-end latency",
        ttft / 1000 + (s.output - 1) * step_s,
        "s",
        "TTFT + (output - 1) x TPOT",
        ("TTFT", _n(ttft, "ms")),
        ("output", f"{s.output} tokens"),
        ("TPOT", _n(tpot, "ms")),
    )
    put(
        "user_speed",
        "Output speed per user",
        1 / step_s,
        "tokens/s",
        "1 / TPOT",
        ("TPOT", _n(tpot, "ms")),
    )
    # The headline: a loaded server's steps each carry their share of new requests' prefills.
    total = put(
        "throughput",
        "Output throughput under load",
        s.batch / (tpot_loaded / 1000),
        "tokens/s",
        "batch / TPOT with prefills mixed in (continuous batching: each sequence's prefill "
        "runs once in its reply's output steps)",
        ("batch", str(s.batch)),
        ("TPOT with prefills mixed in", _n(tpot_loaded, "ms")),
    )
    put(
        "decode_throughput",
        "Decode-only throughput (no prefills)",
        s.batch / step_s,
        "tokens/s",
        "batch / TPOT (decode steps alone: an upper bound no loaded server reaches)",
        ("batch", str(s.batch)),
        ("TPOT", _n(tpot, "ms")),
    )
    put(
        "cost",
        "Cost per million output tokens",
        a.usd_per_gpu_hour * s.tp * s.pp / (total * 3600) * 1e6,
        "$",
        "$ per GPU-hour x TP x PP / (output tokens/s x 3600) x 10^6",
        ("$ per GPU-hour", fmt(a.usd_per_gpu_hour)),
        ("GPUs (TP x PP)", str(s.tp * s.pp)),
        ("output throughput", _n(total, "tokens/s")),
    )
    return Estimate(setup, MappingProxyType(f), decode_regime, prefill_regime, math_prec)


def largest_batch(setup: Setup) -> int:
    """The largest batch whose KV cache fits beside the weights at this setup's prompt and
    output lengths. Raises LabError, saying why, when not even one sequence fits."""
    return int(estimate(setup.with_batch(1)).value("max_batch"))


def sweep(setup: Setup, batches: Iterable[int]) -> list[tuple[int, Estimate | None]]:
    """The setup at each batch size; None where that batch does not fit."""
    out: list[tuple[int, Estimate | None]] = []
    for batch in batches:
        try:
            out.append((batch, estimate(setup.with_batch(batch))))
        except LabError:
            out.append((batch, None))
    return out


BATCH_STEPS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)


def next_batch(batch: int, up: bool) -> int:
    """The next batch size on the doubling ladder, up or down."""
    if up:
        return next((b for b in BATCH_STEPS if b > batch), batch * 2)
    return next((b for b in reversed(BATCH_STEPS) if b < batch), 1)
