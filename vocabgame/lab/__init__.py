"""The serving lab: a roofline estimate of one serving setup (memory, prefill, decode, cost),
the GPU and model catalogue it reads, and predict-then-reveal challenges built on it.

Pure core: no Textual, no clock, no files except the catalogue a caller points at."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
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

# Each name is imported from its module when first asked for: the lab's model and catalogue
# load only where the lab is used (a deck of lab challenges is read without them).
_CATALOGUE = ("Catalogue", "load_catalogue")


def __getattr__(name: str) -> object:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    module = "catalogue" if name in _CATALOGUE else "model"
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
