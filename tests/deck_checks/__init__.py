"""Independent formulas for the calculations of decks added after the first five.

Each module here is named after a deck id (hyphens as underscores) and defines
`EXPECTED: dict[str, Callable[..., float]]`, mapping a calculation id to the answer computed
from the prompt's and explanation's words, with the calculation's `given` names as arguments.
tests/test_builtin_decks.py checks every built-in calculation against these.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable


def expected_by_deck() -> dict[tuple[str, str], Callable[..., float]]:
    found: dict[tuple[str, str], Callable[..., float]] = {}
    for module in pkgutil.iter_modules(__path__):
        loaded = importlib.import_module(f"{__name__}.{module.name}")
        deck_id = module.name.replace("_", "-")
        for calc_id, formula in loaded.EXPECTED.items():
            found[(deck_id, calc_id)] = formula
    return found
