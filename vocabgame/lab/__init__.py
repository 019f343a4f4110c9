"""The serving lab: a roofline estimate of one serving setup (memory, prefill, decode, cost),
the GPU and model catalogue it reads, and predict-then-reveal challenges built on it.

Pure core: no Textual, no clock, no files except the catalogue a caller points at."""

from vocabgame.lab.catalogue import Catalogue, load_catalogue
from vocabgame.lab.model import (
    Assumptions,
    CardRef,
    Estimate,
    Figure,
    GpuSpec,
    LabError,
    ModelSpec,
    Setup,
    estimate,
    sweep,
)

__all__ = [
    "Assumptions",
    "CardRef",
    "Catalogue",
    "Estimate",
    "Figure",
    "GpuSpec",
    "LabError",
    "ModelSpec",
    "Setup",
    "estimate",
    "load_catalogue",
    "sweep",
]
