"""What a round and its mode's runner need, and nothing more: the store, the scheduler, the
clock, the decks and when a deck's next review falls due. A `Session` makes one for every
round it starts; a test can make one without a session."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from vocabgame.model import Deck
from vocabgame.srs import Clock, Srs
from vocabgame.store import Store


@dataclass(frozen=True, slots=True)
class RoundContext:
    store: Store
    srs: Srs
    clock: Clock
    decks: Sequence[Deck]  # every deck loaded, not only the round's
    next_due: Callable[[str | None], datetime | None]  # a deck's (None: every deck's)
    _by_id: dict[str, Deck] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {d.id: d for d in self.decks})

    def deck(self, deck_id: str) -> Deck | None:
        """The loaded deck with this id, or None (it was removed or no longer validates)."""
        return self._by_id.get(deck_id)


@dataclass(frozen=True, slots=True)
class Limits:
    """A round's clock: a countdown per question and a limit for the whole round, in seconds
    (None: no limit). The round keeps both; a screen shows what is left."""

    question_seconds: float | None = None
    round_seconds: float | None = None


NO_LIMITS = Limits()


class Rules(Protocol):
    """What a round asks of its mode (`play.modes.Mode` is one)."""

    @property
    def id(self) -> str: ...
    @property
    def banner(self) -> str | None: ...
    @property
    def updates_schedule(self) -> bool: ...
    @property
    def undo(self) -> bool: ...
    def points(self, correct: bool, streak: int) -> int: ...
    def retry_at(self, position: int, queue_length: int, retries: int) -> int | None: ...
