"""What the serving lab's estimate is given: a GPU's datasheet, a model's shape, the
assumptions it cannot know, and the setup that puts them together. Plain data, checked by
`vocabgame.lab.model.check_setup`.

Units: GB and GB/s are 10^9 bytes; TFLOPS are 10^12 operations a second.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from vocabgame.lab.fitted import (
    BANDWIDTH_EFFICIENCY,
    COMPUTE_EFFICIENCY,
    LINK_EFFICIENCY,
    STEP_OVERHEAD_US,
)

GB = 1e9
TERA = 1e12

# Bytes per stored number, by precision. INT4 is weight-only here (W4A16).
BYTES: Mapping[str, float] = MappingProxyType({"bf16": 2.0, "fp8": 1.0, "int8": 1.0, "int4": 0.5})
WEIGHT_PRECISIONS = ("bf16", "fp8", "int8", "int4")
KV_PRECISIONS = ("bf16", "fp8")
# The tensor-core rate the weight matmuls run at: 8-bit weights use 8-bit math where the GPU has
# it (W8A8); 4-bit weights are widened to BF16 before the multiply.
MATH_FOR_WEIGHTS: Mapping[str, str] = MappingProxyType(
    {"bf16": "bf16", "fp8": "fp8", "int8": "int8", "int4": "bf16"}
)


class LabError(Exception):
    """A setup the model refuses, with one sentence saying why (it does not fit, an unknown
    precision, a batch of zero)."""


@dataclass(frozen=True)
class CardRef:
    """The built-in deck item that teaches a figure."""

    deck: str
    item: str

    def __str__(self) -> str:
        return f"{self.deck}/{self.item}"


@dataclass(frozen=True)
class GpuSpec:
    """One GPU's datasheet figures: memory, bandwidth and dense (not sparse) tensor rates."""

    id: str
    name: str
    memory_gb: float
    bandwidth_gbs: float
    tflops: Mapping[str, float]  # dense tensor-core rate by math precision: bf16, fp8, int8
    # GPU-to-GPU links as the datasheets print them: both directions added up, GB/s.
    nvlink_gbs: float = 0.0  # NVLink (or AMD's Infinity Fabric) per GPU; 0 for none
    pcie_gbs: float = 0.0  # the GPU's PCIe link
    sources: tuple[str, ...] = ()
    path: str = ""
    line: int = 0

    def math_rate(self, weights: str) -> tuple[str, float]:
        """The math precision the weight matmuls run in and its dense rate in TFLOPS: the
        weights' own 8-bit rate where this GPU has one, else BF16."""
        want = MATH_FOR_WEIGHTS[weights]
        if want in self.tflops:
            return want, self.tflops[want]
        return "bf16", self.tflops["bf16"]

    def link(self) -> tuple[str, float]:
        """The link tensor parallelism's all-reduces cross and its bandwidth one way, GB/s:
        NVLink where this GPU has it, else PCIe; ("", 0) when the datasheet gives neither."""
        # A ring sends and receives at once, so each hop runs at one direction's rate.
        if self.nvlink_gbs:
            return "NVLink", self.nvlink_gbs / 2
        if self.pcie_gbs:
            return "PCIe", self.pcie_gbs / 2
        return "", 0.0


@dataclass(frozen=True)
class ModelSpec:
    """A decoder-only transformer's shape, from its config.json. A dense model has
    experts = active_experts = 1 and active_params_b = params_b."""

    id: str
    name: str
    params_b: float
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    experts: int = 1
    active_experts: int = 1
    active_params_b: float | None = None
    sources: tuple[str, ...] = ()
    path: str = ""
    line: int = 0
    # The vocabulary: its input embedding (vocab x hidden) is looked up, not multiplied, so it
    # is left out of the FLOPs. 0 when not given, or when the output layer shares that matrix.
    vocab: int = 0
    # Multi-head latent attention (DeepSeek): the cache keeps, per layer and token, one
    # compressed latent of kv_lora_rank numbers and one shared RoPE key of qk_rope_head_dim,
    # for all heads together. 0 for ordinary (grouped-query) attention.
    kv_lora_rank: int = 0
    qk_rope_head_dim: int = 0

    @property
    def active_b(self) -> float:
        return self.params_b if self.active_params_b is None else self.active_params_b

    @property
    def matmul_b(self) -> float:
        """Billions of parameters each token multiplies by: the active ones but the input
        embedding."""
        return self.active_b - self.vocab * self.hidden / 1e9

    @property
    def is_moe(self) -> bool:
        return self.experts > 1

    @property
    def is_mla(self) -> bool:
        return self.kv_lora_rank > 0

    def kv_elements(self) -> int:
        """Numbers the KV cache keeps per token and layer: K and V of every KV head, or with
        MLA the latent and the RoPE key."""
        if self.is_mla:
            return self.kv_lora_rank + self.qk_rope_head_dim
        return 2 * self.kv_heads * self.head_dim

    def attention_dims(self, decode: bool) -> tuple[int, int]:
        """Per head, the length of the query-key dot product and of the value it weights.
        MLA decodes against the latent itself (the up-projections absorbed into the query
        and output), and prefills with full heads: no-RoPE plus RoPE part, then the value."""
        if not self.is_mla:
            return self.head_dim, self.head_dim
        if decode:
            return self.kv_lora_rank + self.qk_rope_head_dim, self.kv_lora_rank
        return self.head_dim + self.qk_rope_head_dim, self.head_dim


@dataclass(frozen=True)
class Assumptions:
    """What the estimate cannot know and takes as given: shares of a datasheet peak that real
    kernels reach, fixed costs in microseconds, and a price."""

    # The three efficiencies and the fixed cost a pass (last) are fitted to published
    # measurements by vocabgame/lab/calibrate.py.
    bandwidth_efficiency: float = BANDWIDTH_EFFICIENCY  # achieved share of peak bandwidth (MBU)
    compute_efficiency: float = COMPUTE_EFFICIENCY  # achieved share of peak dense math (MFU)
    usable_memory: float = 0.9  # share of GPU memory the server may use (vLLM's default 0.9)
    # Of the link's line rate; NCCL's own tests reach about 0.8 (NVIDIA/nccl-tests issue 212).
    link_efficiency: float = LINK_EFFICIENCY
    # One small all-reduce on H100s, TP 2 to 8: about 9 us (sgl-project/sglang PR 2904).
    allreduce_latency_us: float = 9.0
    # One MoE dispatch or combine of one token a GPU over NVLink at EP 8: 41.6 and 41.7 us
    # (perplexityai/pplx-kernels' README, its benchmark results).
    alltoall_latency_us: float = 42.0
    usd_per_gpu_hour: float = 2.0  # a rental price; change it to yours
    # What every forward pass costs beyond its reads, math and links (kernel launches,
    # sampling, the scheduler between steps): fitted with the efficiencies.
    step_overhead_us: float = STEP_OVERHEAD_US

    def check(self) -> None:
        for name in (
            "bandwidth_efficiency",
            "compute_efficiency",
            "usable_memory",
            "link_efficiency",
        ):
            value = getattr(self, name)
            if not 0 < value <= 1:
                raise LabError(
                    f"{name.replace('_', ' ')} must be above 0 and at most 1, not {value}"
                )
        if not 0 <= self.allreduce_latency_us < math.inf:
            raise LabError(
                "the all-reduce latency must be a finite number of microseconds, 0 or more, "
                f"not {self.allreduce_latency_us}"
            )
        if not 0 <= self.alltoall_latency_us < math.inf:
            raise LabError(
                "the all-to-all latency must be a finite number of microseconds, 0 or more, "
                f"not {self.alltoall_latency_us}"
            )
        if not 0 <= self.step_overhead_us < math.inf:
            raise LabError(
                "the fixed cost of a forward pass must be a finite number of microseconds, "
                f"0 or more, not {self.step_overhead_us}"
            )
        if self.usd_per_gpu_hour < 0:
            raise LabError(f"the price per GPU-hour cannot be negative ({self.usd_per_gpu_hour})")


@dataclass(frozen=True)
class Setup:
    """One serving setup: a model on `tp` GPUs, `batch` sequences decoding together, each with
    a prompt of `prompt` tokens and `output` tokens to generate."""

    gpu: GpuSpec
    model: ModelSpec
    weights: str = "bf16"
    kv: str = "bf16"
    tp: int = 1
    batch: int = 1
    prompt: int = 1000
    output: int = 200
    assumptions: Assumptions = field(default_factory=Assumptions)
    pp: int = 1  # pipeline stages, each a group of `tp` GPUs holding its share of the layers
    ep: int = 1  # expert parallelism: each MoE layer's experts split over this many TP GPUs
    # Micro-batches a batch is cut into under PP; 0 for min(batch, PP), as decode runs them.
    micro_batches: int = 0

    def with_batch(self, batch: int) -> Setup:
        return replace(self, batch=batch)

    def describe(self) -> str:
        gpus = (
            f"{self.tp}" if self.pp == 1 else f"{self.tp * self.pp} (TP {self.tp} x PP {self.pp})"
        )
        return (
            f"{self.model.name} on {gpus} x {self.gpu.name}, weights {self.weights.upper()}, "
            f"KV {self.kv.upper()}, batch {self.batch}, prompt {self.prompt}, output {self.output}"
            + (f", experts split over EP {self.ep}" if self.ep > 1 else "")
        )


def weights_read_b(model: ModelSpec, batch: float) -> float:
    """Billions of parameters one decode step reads. Dense: all of them. MoE: the shared part
    plus every expert that at least one of the batch's tokens is routed to, taking routing as
    uniform and independent: each expert is missed by all `batch` tokens with probability
    (1 - k/E)^batch."""
    if not model.is_moe:
        return model.params_b
    e, k = model.experts, model.active_experts
    per_expert = (model.params_b - model.active_b) / (e - k)
    shared = model.params_b - e * per_expert
    touched = e * (1 - (1 - k / e) ** batch)
    return shared + touched * per_expert
