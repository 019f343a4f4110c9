"""The game modes: `base` says what a mode is, and each module beside it is one mode (its rules,
and where it needs one, the runner that wraps its round). Registering a mode is all it takes
for the round, the command line, the picker, the command palette and `stats --json` to know
it."""

import importlib
import pkgutil

from vocabgame.play.modes.base import (
    EVERY_DECK,
    MODES,
    POINTS_RIGHT,
    STREAK_BONUS,
    STREAK_BONUS_CAP,
    Mode,
    ModeId,
    PlanContext,
    Runner,
    Selection,
    Starter,
    by_name,
    offered,
    one_per_item,
    pickable,
    register,
    round_robin,
    unregister,
)
from vocabgame.play.modes.preview import PreviewMode

__all__ = [
    "MODES",
    "POINTS_RIGHT",
    "STREAK_BONUS",
    "STREAK_BONUS_CAP",
    "EVERY_DECK",
    "Selection",
    "Mode",
    "ModeId",
    "PlanContext",
    "PreviewMode",
    "Runner",
    "Starter",
    "by_name",
    "offered",
    "one_per_item",
    "pickable",
    "register",
    "round_robin",
    "unregister",
]

# Every module beside `base` is a mode (or a few) that registers itself as it is imported: a
# new mode is its module, and nothing else to edit.
for _module in pkgutil.iter_modules(__path__):
    if _module.name != "base":
        importlib.import_module(f"{__name__}.{_module.name}")
