"""Game modes: the rules of a round. A mode decides what a round asks (its plan), how an answer
scores, whether and when a missed face comes back, whether answers update the schedule, and
whether there is a time limit. Each mode is an object in `MODES`, chosen by its id; a round
asks its mode, never compares mode names.
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from enum import StrEnum
from functools import cached_property
from typing import ClassVar

from fsrs import Card

from vocabgame.kinds import KINDS, faces, item_faces
from vocabgame.kinds.lab import LabChallengeKind
from vocabgame.model import Deck, FaceKey
from vocabgame.play import planning
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
    ) -> None:
        self.decks = decks
        self.size = size
        self.now = now
        self._cards, self._first_seen, self._new_left = cards, first_seen, new_left
        self.retrievability = retrievability
        self.store = store  # for the plans that read only what they need (see `planning`)
        self.curve = curve  # fsrs's forgetting curve, for the store to order cards by it

    @cached_property
    def cards(self) -> Mapping[FaceKey, Card]:
        """The schedule of every face of these decks that has been answered."""
        return self._cards()

    def cards_of(self, keys: Iterable[FaceKey]) -> Mapping[FaceKey, Card]:
        """The schedules of these faces (those answered): with a store, read for them alone."""
        if self.store is None:
            cards = self.cards
            return {k: cards[k] for k in keys if k in cards}
        return self.store.cards_for(keys)

    @cached_property
    def first_seen(self) -> Mapping[tuple[str, str], datetime]:
        """When each item (deck id, item id) was first answered."""
        return self._first_seen()

    def new_left_today(self) -> dict[str, int]:
        """New items each deck (by id) may still start today."""
        if self.store is not None:  # counted by the store, without every item's first answer
            return dict(self._new_left(None))
        return dict(self._new_left(self.first_seen))

    def faces(self) -> list[FaceKey]:
        """Every face of the round's decks, in deck order."""
        return [key for deck in self.decks for key in faces(deck)]


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


def _never_answered(store: Store, decks: Sequence[Deck]) -> Iterator[FaceKey]:
    """The faces of these decks with no schedule yet, in `round_robin` order; the store is
    read only when the first one is asked for."""
    scheduled = store.card_keys()
    yield from (k for k in round_robin(decks) if k not in scheduled)


def round_robin(decks: Sequence[Deck], sections: Iterable[str] = KINDS) -> list[FaceKey]:
    """Every face (of the items in `sections`), taking turns between decks and kinds of item,
    so that new material mixes terms, groups, scenarios and the rest instead of starting with
    one deck's terms."""
    queues = [
        [
            FaceKey(deck.id, item.id, face)
            for item in deck.section(section)
            for face in item_faces(item)
        ]
        for deck in decks
        for section in tuple(sections)
    ]
    order: list[FaceKey] = []
    for layer in itertools.zip_longest(*queues):
        order.extend(k for k in layer if k is not None)
    return order


class LearnMode(Mode):
    id = ModeId.LEARN
    name = "learn"
    help = "the day's spaced-repetition round (the default)"
    title = "Learn"
    description = (
        "Today's reviews, least remembered first, then new items up to each deck's daily limit."
    )
    fallback = ModeId.PRACTICE

    def plan(self, ctx: PlanContext) -> list[FaceKey]:
        if ctx.store is not None:
            return self.plan_from_store(ctx, ctx.store)
        cards, now = ctx.cards, ctx.now
        due = sorted(
            (k for k in ctx.faces() if k in cards and cards[k].due <= now),
            key=lambda k: (ctx.retrievability(cards[k]), cards[k].due, k),
        )
        taken: set[tuple[str, str]] = set()
        picked = one_per_item(due, ctx.size, taken)
        new_left = ctx.new_left_today()
        for key in round_robin(ctx.decks):
            if len(picked) == ctx.size:
                break
            item = (key.deck_id, key.item_id)
            if key in cards or item in taken:
                continue
            if item not in ctx.first_seen:  # a new item: counts against its deck's daily limit
                if new_left.get(key.deck_id, 0) <= 0:
                    continue
                new_left[key.deck_id] -= 1
            picked.append(key)
            taken.add(item)
        return picked

    def plan_from_store(self, ctx: PlanContext, store: Store) -> list[FaceKey]:
        """The same plan, reading only the due cards and the items still new (`planning`):
        the time it takes does not grow with the history."""
        due = planning.due_in_order(store, ctx.decks, ctx.now, ctx.retrievability)
        taken: set[tuple[str, str]] = set()
        picked = one_per_item(due, ctx.size, taken)
        new_left = ctx.new_left_today()
        for key, starts_item in planning.new_faces(store, ctx.decks, new_left):
            if len(picked) == ctx.size:
                break
            item = (key.deck_id, key.item_id)
            if item in taken:
                continue
            if starts_item:  # a new item: counts against its deck's daily limit
                if new_left.get(key.deck_id, 0) <= 0:
                    continue
                new_left[key.deck_id] -= 1
            picked.append(key)
            taken.add(item)
        return picked


class PracticeMode(Mode):
    id = ModeId.PRACTICE
    title = "Practice"
    description = (
        "Nothing is due or new: the cards due soonest, reviewed early and still scheduled."
    )
    banner = "practice (nothing due)"

    def plan(self, ctx: PlanContext) -> list[FaceKey]:
        if ctx.store is not None:
            return one_per_item(planning.soonest(ctx.store, ctx.decks), ctx.size, set())
        cards = ctx.cards
        soonest = sorted((k for k in ctx.faces() if k in cards), key=lambda k: (cards[k].due, k))
        return one_per_item(soonest, ctx.size, set())


class MissesMode(Mode):
    """Started from a round's results with the faces it missed (`Session.start_misses_round`),
    never planned. The answers were just shown, so answering right now proves little: the
    schedule stays as the round left it."""

    id = ModeId.MISSES
    title = "Review the misses"
    description = "The questions just missed, asked again at once; due dates stay as they were."
    banner = "your misses again"
    updates_schedule = False

    def plan(self, ctx: PlanContext) -> list[FaceKey]:
        return []


class LabMode(Mode):
    id = ModeId.LAB
    help = "the serving lab's predict-then-reveal challenges, scheduled like other cards"
    title = "Lab challenges"
    description = (
        "The serving lab's predict-then-reveal challenges, each on a fresh setup: due ones "
        "first, then new ones, then the ones due soonest."
    )
    banner = "lab challenges"

    def plan(self, ctx: PlanContext) -> list[FaceKey]:
        section = LabChallengeKind.section
        ours = [
            FaceKey(deck.id, item.id, face)
            for deck in ctx.decks
            for item in deck.section(section)
            for face in item_faces(item)
        ]
        cards, now = ctx.cards_of(ours), ctx.now
        due = sorted(
            (k for k in ours if k in cards and cards[k].due <= now),
            key=lambda k: (ctx.retrievability(cards[k]), cards[k].due, k),
        )
        new = [k for k in ours if k not in cards]
        later = sorted(
            (k for k in ours if k in cards and cards[k].due > now), key=lambda k: (cards[k].due, k)
        )
        return one_per_item([*due, *new, *later], ctx.size, set())


class CramMode(Mode):
    """Practice on demand: any deck, any amount, now. Each answer is saved as practice
    (unscheduled), so every card's due date and state stay exactly as they were."""

    id = ModeId.CRAM
    help = "practise now, any amount; answers are kept as practice and no due date moves"
    title = "Cram"
    description = (
        "Practise now, as much as you like: answers are kept as practice, no due date moves."
    )
    banner = "cram (the schedule stays)"
    updates_schedule = False
    keeps_round = False

    def plan(self, ctx: PlanContext) -> list[FaceKey]:
        if ctx.store is not None and ctx.curve is not None:
            # The same plan, ordered by SQLite; the new faces are listed only if the round
            # has room left once every answered item is in it.
            store, curve = ctx.store, ctx.curve
            return one_per_item(
                itertools.chain(
                    planning.weakest(store, ctx.decks, ctx.now, curve),
                    _never_answered(store, ctx.decks),
                ),
                ctx.size,
                set(),
            )
        cards = ctx.cards
        weakest = sorted(
            (k for k in ctx.faces() if k in cards),
            key=lambda k: (ctx.retrievability(cards[k]), cards[k].due, k),
        )
        new = [k for k in round_robin(ctx.decks) if k not in cards]
        return one_per_item([*weakest, *new], ctx.size, set())


class InterviewMode(Mode):
    """A mock interview: `Session.start_interview` plays it against a clock, and
    `play.interview` makes its report. Answers update the schedule like any review."""

    id = ModeId.INTERVIEW
    help = (
        "a timed mock interview with no feedback until its report (see --minutes, "
        "--questions, vocabgame reports)"
    )
    title = "Interview practice"
    description = (
        "A timed mock interview: recall, scenarios, calculations and claims, no hints, "
        "then an honest report."
    )
    banner = "mock interview"
    keeps_round = False  # its record is the report
    max_retries = 0  # nothing comes back: no feedback was shown
    sections: ClassVar[tuple[str, ...]] = ("recall", "scenarios", "calculations", "claims")
    filler: ClassVar[tuple[str, ...]] = ("confusables", "terms")  # when those run short

    def plan(self, ctx: PlanContext) -> list[FaceKey]:
        picked: list[FaceKey] = []
        taken: set[tuple[str, str]] = set()
        for sections in (self.sections, self.filler):
            if len(picked) >= ctx.size:
                break
            # a typed term is no interview question; its picks are
            ours = [k for k in round_robin(ctx.decks, sections) if k.face != "typed"]
            cards = ctx.cards_of(ours)
            # Never asked first, then the least remembered: an interview tests what is shaky.
            new = [k for k in ours if k not in cards]
            seen = sorted(
                (k for k in ours if k in cards),
                key=lambda k: (ctx.retrievability(cards[k]), k),
            )
            picked += one_per_item([*new, *seen], ctx.size - len(picked), taken)
        return picked


class ChallengeMode(Mode):
    """Scenarios and claims against a countdown per question: `Session.start_challenge` plays
    it (`play.challenge`), which adds a time bonus and keeps a high-score table per deck."""

    id = ModeId.CHALLENGE
    help = "scenarios and claims against a countdown per question, for a top-10 table"
    title = "Scenario challenge"
    description = (
        "Scenarios and claims against a countdown: points with a time bonus, and a top-10 "
        "table per deck."
    )
    banner = "scenario challenge"
    keeps_round = False  # its record is its place in the high-score table
    max_retries = 0  # a run: a miss does not come back

    def plan(self, ctx: PlanContext) -> list[FaceKey]:
        ours = list(round_robin(ctx.decks, ("scenarios", "claims")))
        cards = ctx.cards_of(ours)
        new = [k for k in ours if k not in cards]
        seen = sorted(
            (k for k in ours if k in cards), key=lambda k: (ctx.retrievability(cards[k]), k)
        )
        return one_per_item([*new, *seen], ctx.size, set())


class DrillMode(Mode):
    """Planned by `Session.start_drill` from the confusions on record (`play.drill`), never
    by `plan`. The distinction shows with every answer, so answers are kept as practice."""

    id = ModeId.DRILL
    help = "your most-confused pairs of terms first, until right answers in a row retire each"
    title = "Confusion drill"
    description = (
        "Your most-confused pairs of terms first, with what tells them apart, until right "
        "answers in a row retire each pair."
    )
    banner = "confusion drill"
    keeps_round = False
    updates_schedule = False

    def plan(self, ctx: PlanContext) -> list[FaceKey]:
        return []


class PreviewMode(Mode):
    """An author's look at a deck: every face in deck order, nothing scheduled, nothing asked
    twice. Not a mode a player picks (it is not in MODES): `Session.preview` plays it."""

    id = "preview"
    title = "Preview"
    description = "Every question a deck yields, item by item and face by face."
    banner = "preview (no progress is kept)"
    updates_schedule = False
    max_retries = 0

    def plan(self, ctx: PlanContext) -> list[FaceKey]:
        return ctx.faces()


MODES: dict[str, Mode] = {}


def register(mode: Mode) -> Mode:
    if mode.id in MODES:
        raise ValueError(f"a mode with id {mode.id!r} is already registered")
    MODES[mode.id] = mode
    return mode


def offered() -> list[Mode]:
    """The modes `vocabgame play --mode` offers, in registration order."""
    return [mode for mode in MODES.values() if mode.help]


def by_name(name: str) -> Mode:
    """The mode a player named: its `name`, or its stored id (KeyError for neither)."""
    for mode in MODES.values():
        if name in (mode.name, mode.id):
            return mode
    raise KeyError(name)


def unregister(mode_id: str) -> None:
    del MODES[mode_id]


for _mode in (
    LearnMode(),
    PracticeMode(),
    MissesMode(),
    LabMode(),
    CramMode(),
    InterviewMode(),
    ChallengeMode(),
    DrillMode(),
):
    register(_mode)
