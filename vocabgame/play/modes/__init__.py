"""The game modes: `base` says what a mode is, and each module beside it is one mode (its rules,
and where it needs one, the runner that wraps its round). Registering a mode is all it takes
for the round, the command line, the picker, the command palette and `stats --json` to know
it."""

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
from vocabgame.play.modes.challenge import ChallengeMode
from vocabgame.play.modes.cram import CramMode
from vocabgame.play.modes.drill import DrillMode
from vocabgame.play.modes.interview import InterviewMode
from vocabgame.play.modes.lab import LabMode
from vocabgame.play.modes.learn import LearnMode, MissesMode, PracticeMode
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

# The order players see them in: the picker's and `vocabgame play --help`'s.
for _mode in (
    LearnMode(),
    PracticeMode(),
    MissesMode(),
    InterviewMode(),
    DrillMode(),
    ChallengeMode(),
    CramMode(),
    LabMode(),
):
    register(_mode)
