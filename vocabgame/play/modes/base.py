"""What a game mode is: one object that every floor reads. A mode decides what a round asks (its
plan), how an answer scores, whether and when a missed face comes back, whether answers update
the schedule, its clock, how it starts (`start`: a plain round, or a runner of its own around
one), what it keeps as its best, and the words players see (its name, help line, picker entry,
the sentence when there is nothing to play, its results' note). Each mode is an object in
`MODES`, registered with `register`; the round, the command line, the picker, the command
palette and `stats --json` read it there and never compare mode names.
"""

from __future__ import annotations

import itertools
import weakref
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from functools import cached_property
from typing import Any, ClassVar, Protocol

from fsrs import Card

from vocabgame.kinds import KINDS, faces, item_faces, sections_with
from vocabgame.model import Deck, FaceKey
from vocabgame.play.context import NO_LIMITS, Limits, RoundContext
from vocabgame.play.readiness import Scope
from vocabgame.play.round import Round
from vocabgame.settings import Settings
from vocabgame.store import Store

POINTS_RIGHT = 10
STREAK_BONUS = 2
STREAK_BONUS_CAP = 5


class ModeId(StrEnum):
    """The built-in modes' ids, as stored with each round and answer."""

    LEARN = "review"  # the daily spaced-repetition round; stored as "review" since schema 1
    PRACTICE = "practice"  # nothing due or new: the faces due soonest, reviewed early
    MISSES = "misses"  # the questions just missed, again at once; the schedule stays
    LAB = "lab"  # the serving lab's predict-then-reveal challenges only
    INTERVIEW = "interview"  # a timed mock interview, no feedback until its report
    CHALLENGE = "challenge"  # scenarios and claims against a countdown, for a high score
    DRILL = "drill"  # the most-confused pairs of terms, until each is retired
    CRAM = "cram"  # any deck now, in any amount; answers kept as practice, the schedule stays


class PlanContext:
    """What a mode plans a round from. Store reads happen only when a mode asks for them."""

    def __init__(
        self,
        decks: Sequence[Deck],
        size: int,
        now: datetime,
        cards: Callable[[], Mapping[FaceKey, Card]],
        first_seen: Callable[[], Mapping[tuple[str, str], datetime]],
        new_left: Callable[[Mapping[tuple[str, str], datetime] | None], Mapping[str, int]],
        retrievability: Callable[[Card], float],
        store: Store | None = None,
        curve: tuple[float, float] | None = None,
        interview: Scope | None = None,
    ) -> None:
        self.decks = decks
        self.size = size
        self.now = now
        self._cards, self._first_seen, self._new_left = cards, first_seen, new_left
        self.retrievability = retrievability
        self.store = store  # for the plans that read only what they need (see `planning`)
        self.curve = curve  # fsrs's forgetting curve, for the store to order cards by it
        self.interview = interview  # the interview the plan works to, if any (`readiness`)

    @cached_property
    def cards(self) -> Mapping[FaceKey, Card]:
        """The schedule of every face of these decks that has been answered."""
        return self._cards()

    def cards_of(self, keys: Iterable[FaceKey]) -> Mapping[FaceKey, Card]:
        """The schedules of these faces (those answered): with a store, read for them alone."""
        if self.store is None:
            cards = self.cards
            return {k: cards[k] for k in keys if k in cards}
        return self.store.schedules.cards_for(keys)

    @cached_property
    def first_seen(self) -> Mapping[tuple[str, str], datetime]:
        """When each item (deck id, item id) was first answered."""
        return self._first_seen()

    def new_left_today(self) -> dict[str, int]:
        """New items each deck (by id) may still start today."""
        if self.store is not None:  # counted by the store, without every item's first answer
            return dict(self._new_left(None))
        return dict(self._new_left(self.first_seen))

    def faces(self, trait: str | None = None) -> list[FaceKey]:
        """Every face of the round's decks, in deck order; with `trait`, only those of the
        kinds that have it (`ItemKind.traits`)."""
        if trait is None:
            return [key for deck in self.decks for key in faces(deck)]
        sections = sections_with(trait)
        return [
            FaceKey(deck.id, item.id, face)
            for deck in self.decks
            for section in sections
            for item in deck.section(section)
            for face in item_faces(item)
        ]


@dataclass(frozen=True, slots=True)
class Selection:
    """What the player chose to play: one deck id, several or None (every deck), only the items
    with a tag, and what the command line may set (round size, seed, an interview's minutes
    and questions; None: the settings'), and only the items of some levels (empty: every
    item, levelled or not)."""

    deck: str | Sequence[str] | None = None
    tag: str | None = None
    size: int | None = None
    seed: int | None = None
    minutes: float | None = None
    questions: int | None = None
    levels: tuple[str, ...] = ()

    @property
    def deck_ids(self) -> list[str]:
        return [self.deck] if isinstance(self.deck, str) else list(self.deck or [])


EVERY_DECK = Selection()


class Runner(Protocol):
    """A mode that needs more than rules (a report, a table, pairs to retire) wraps its round
    in an object of its own; a screen reads the round through it."""

    @property
    def round(self) -> Round: ...


class Starter(Protocol):
    """What a mode starts from (a `Session` is one): the settings, a context for its round,
    the decks chosen, and rounds planned by a mode's rules and stored."""

    @property
    def settings(self) -> Settings: ...

    def round_context(self) -> RoundContext: ...

    def decks_chosen(
        self,
        deck: str | Sequence[str] | None = None,
        tag: str | None = None,
        levels: tuple[str, ...] = (),
    ) -> list[Deck]: ...

    def round_title(
        self, deck: str | Sequence[str] | None, tag: str | None = None, levels: tuple[str, ...] = ()
    ) -> str: ...

    def open_round(
        self, mode: Mode, choice: Selection, size: int | None = None, limits: Limits = NO_LIMITS
    ) -> Round | None: ...

    def new_round(
        self, mode: Mode, choice: Selection, queue: list[FaceKey], limits: Limits = NO_LIMITS
    ) -> Round: ...


class Mode(ABC):
    """The rules of a round. Subclasses set the class attributes and plan."""

    id: ClassVar[str]  # as stored with each round and answer
    name: ClassVar[str] = ""  # what a player types after `--mode`; the id when empty
    help: ClassVar[str] = ""  # `vocabgame play --mode` offers the modes that have a help line
    title: ClassVar[str]  # in the player's words
    description: ClassVar[str]  # one line: what the mode is for
    banner: ClassVar[str | None] = None  # shown beside the round's title, when it needs saying
    updates_schedule: ClassVar[bool] = True  # False: answers are kept, due dates stay as they were
    time_limit_seconds: ClassVar[float | None] = None  # for the whole round
    question_seconds: ClassVar[float | None] = None  # a countdown per question
    max_retries: ClassVar[int] = 1  # times a missed face comes back in one round
    retry_gap: ClassVar[int] = 5  # ...after this many other questions, or at the end
    fallback: ClassVar[str | None] = None  # the mode to play when this one plans nothing
    # False: the round gets no row of its own (it sets no best score and no day streak); its
    # answers are still saved, with no round id
    keeps_round: ClassVar[bool] = True
    picker: ClassVar[bool] = False  # offered by the mode picker (`g` on the home screen)
    rank: ClassVar[int] = 100  # where the picker and `vocabgame play --help` list it, lowest first
    undo: ClassVar[bool] = True  # False: no undo (a clock has moved on)
    nothing_to_play: ClassVar[str] = (
        "Nothing to ask here yet: this deck has no questions you have started, and today's "
        "new items are used up. Press m on the home screen to learn more today."
    )
    results_note: ClassVar[str] = (
        "A round counts for your day streak and best score when every question is answered."
    )
    # the sections the mode asks, by the traits of their kinds (`ItemKind.traits`); None: all
    asks: ClassVar[str | None] = None

    @abstractmethod
    def plan(self, ctx: PlanContext) -> list[FaceKey]:
        """The faces of the round, in order, at most `ctx.size`, one face per item."""

    def points(self, correct: bool, streak: int) -> int:
        """Points for an answer, given the right answers in a row just before it."""
        if not correct:
            return 0
        return POINTS_RIGHT + STREAK_BONUS * min(streak, STREAK_BONUS_CAP)

    def retry_at(self, position: int, queue_length: int, retries: int) -> int | None:
        """Where a face missed at `position` goes back in the queue, or None: not again."""
        if retries >= self.max_retries or position + 1 >= queue_length:
            return None  # never straight away, so not after the last question either
        return min(position + 1 + self.retry_gap, queue_length)

    @property
    def key(self) -> str:
        """What a player types after `--mode` and reads in `stats --json`: its name, or id."""
        return self.name or self.id

    def limits(self, settings: Settings, choice: Selection) -> Limits:
        """The round's clock: by default the class's `question_seconds` and
        `time_limit_seconds`."""
        return Limits(self.question_seconds, self.time_limit_seconds)

    def start(self, starter: Starter, choice: Selection) -> Round | Runner | None:
        """Start playing the choice: by default a round of the mode's plan (or its fallback's),
        None when there is nothing to ask."""
        return starter.open_round(self, choice, limits=self.limits(starter.settings, choice))

    def bests(self, store: Store, settings: Settings) -> dict[str, Any] | None:
        """What the mode keeps as its best, for `stats --json`'s `mode_bests` (None: nothing;
        by default the best score of its rounds, for a mode whose rounds are kept)."""
        if not self.keeps_round:
            return None
        return {"best_score": store.scoreboard.best_by_mode().get(self.id)}


def one_per_item(keys: Iterable[FaceKey], size: int, taken: set[tuple[str, str]]) -> list[FaceKey]:
    """The first `size` keys, skipping items already in `taken` (which grows)."""
    picked: list[FaceKey] = []
    for key in keys:
        if len(picked) == size:
            break
        if (key.deck_id, key.item_id) not in taken:
            picked.append(key)
            taken.add((key.deck_id, key.item_id))
    return picked


def never_answered(store: Store, decks: Sequence[Deck]) -> Iterator[FaceKey]:
    """The faces of these decks with no schedule yet, in `round_robin` order; the store is
    read only when the first one is asked for."""
    scheduled = store.schedules.keys()
    yield from (k for k in round_robin(decks) if k not in scheduled)


def round_robin(decks: Sequence[Deck], sections: Iterable[str] = KINDS) -> list[FaceKey]:
    """Every face (of the items in `sections`), taking turns between decks and kinds of item,
    so that new material mixes terms, groups, scenarios and the rest instead of starting with
    one deck's terms."""
    names = tuple(sections)
    queues = [q for deck in decks for section in names if (q := _section_faces(deck, section))]
    if len(queues) == 1:  # one deck of one kind (a deck of terms): its faces in order
        return list(queues[0])
    order: list[FaceKey] = []
    for layer in itertools.zip_longest(*queues):
        order.extend(k for k in layer if k is not None)
    return order


# Each loaded deck's faces per section, kept for as long as that deck object lives (100k
# `FaceKey`s at 33k terms: most of a second to make, at every round's plan); by id, since a
# deck does not hash cheaply.
_FACES: dict[int, tuple[weakref.ref[Deck], dict[str, tuple[FaceKey, ...]]]] = {}


def _section_faces(deck: Deck, section: str) -> tuple[FaceKey, ...]:
    """Every face of the deck's items of `section`, in deck order."""
    kept = _FACES.get(id(deck))
    if kept is None or kept[0]() is not deck:
        key = id(deck)
        kept = _FACES[key] = (weakref.ref(deck, lambda _: _FACES.pop(key, None)), {})
    by_section = kept[1]
    made = by_section.get(section)
    if made is None:
        made = by_section[section] = tuple(
            FaceKey(deck.id, item.id, face)
            for item in deck.section(section)
            for face in item_faces(item)
        )
    return made


MODES: dict[str, Mode] = {}


def register(mode: Mode) -> Mode:
    if mode.id in MODES:
        raise ValueError(f"a mode with id {mode.id!r} is already registered")
    MODES[mode.id] = mode
    return mode


def offered() -> list[Mode]:
    """The modes `vocabgame play --mode` offers, by rank."""
    return sorted((mode for mode in MODES.values() if mode.help), key=lambda m: m.rank)


def pickable() -> list[Mode]:
    """The modes the mode picker offers, by rank."""
    return sorted((mode for mode in MODES.values() if mode.picker), key=lambda m: m.rank)


def by_name(name: str) -> Mode:
    """The mode a player named: its `name`, or its stored id (KeyError for neither)."""
    for mode in MODES.values():
        if name in (mode.name, mode.id):
            return mode
    raise KeyError(name)


def unregister(mode_id: str) -> None:
    del MODES[mode_id]
