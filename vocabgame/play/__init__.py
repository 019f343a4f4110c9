"""Playing: the session (decks, store, settings, clock), rounds, and the modes whose rules a
round follows."""

from vocabgame.play.context import Limits, RoundContext
from vocabgame.play.home import DeckSummary, Home
from vocabgame.play.modes import (
    MODES,
    POINTS_RIGHT,
    STREAK_BONUS,
    Mode,
    ModeId,
    PlanContext,
    Runner,
    Selection,
)
from vocabgame.play.outcome import Missed, Outcome, RoundSummary, Status
from vocabgame.play.round import Round
from vocabgame.play.session import Session, open_session

__all__ = [
    "MODES",
    "Selection",
    "Limits",
    "RoundContext",
    "Runner",
    "POINTS_RIGHT",
    "STREAK_BONUS",
    "DeckSummary",
    "Home",
    "Missed",
    "Mode",
    "ModeId",
    "Outcome",
    "PlanContext",
    "Round",
    "RoundSummary",
    "Session",
    "Status",
    "open_session",
]
