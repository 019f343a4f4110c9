"""A player's session: the decks, the store and the clock, and the rounds played with them.

The UI asks this module what to show (`Home`, `Question`, `Grade`, `RoundSummary`) and sends
the player's answers back; it decides nothing itself.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta, tzinfo
from pathlib import Path

from fsrs import Card

from vocabgame.decks import Catalog, load_catalog
from vocabgame.model import SECTIONS, Deck
from vocabgame.problems import Problem
from vocabgame.quiz import (
    FaceKey,
    Grade,
    Kind,
    Question,
    build_question,
    faces,
    grade_choice,
    grade_number,
    grade_recall,
    grade_typed,
    item_faces,
)
from vocabgame.srs import DEFAULT_RETENTION, Clock, Srs, utc_now
from vocabgame.store import DB_NAME, Review, Store, StoreError

DEFAULT_ROUND_SIZE = 20
DEFAULT_NEW_PER_DAY = 15
POINTS_RIGHT = 10
STREAK_BONUS = 2
STREAK_BONUS_CAP = 5
MAX_RETRIES = 1  # a face answered wrong comes back at most this many times in a round
RETRY_GAP = 3  # ...this many questions later, or at the end


@dataclass(frozen=True, slots=True)
class DeckSummary:
    id: str | None  # None: all decks together
    title: str
    items: int
    due: int
    new: int  # new items available today
    best: int | None


@dataclass(frozen=True, slots=True)
class Home:
    decks: tuple[DeckSummary, ...]
    streak_days: int
    reviews: int
    new_per_day: int = DEFAULT_NEW_PER_DAY
    problems: tuple[str, ...] = ()  # one line per deck file that could not be loaded


@dataclass(frozen=True, slots=True)
class Missed:
    prompt: str
    right_answer: str
    given: str


@dataclass(frozen=True, slots=True)
class RoundSummary:
    deck_title: str
    answered: int
    correct: int
    score: int
    best_streak: int
    seconds: float
    finished: bool
    missed: tuple[Missed, ...]
    previous_best: int | None
    new_best: bool
    next_due: datetime | None

    @property
    def accuracy(self) -> float:
        return self.correct / self.answered if self.answered else 0.0


def open_session(data_dir: Path, folders: Sequence[Path]) -> Session | str:
    """Open the store and load the decks; a string is the one sentence to show on failure."""
    try:
        store = Store.open(data_dir / DB_NAME)
    except StoreError as exc:
        return str(exc)
    catalog = load_catalog(folders)
    return Session(store, catalog)


class Session:
    def __init__(
        self,
        store: Store,
        catalog: Catalog,
        clock: Clock = utc_now,
        tz: tzinfo | None = None,
        fuzz: bool = True,
    ) -> None:
        self.store = store
        self.catalog = catalog
        self.clock = clock
        self.tz = tz  # None: the machine's local time zone decides what "today" is
        retention = float(store.setting("desired_retention", DEFAULT_RETENTION))  # type: ignore[arg-type]
        self.srs = Srs(retention, fuzz=fuzz)
        self.new_per_day = int(store.setting("new_per_day", DEFAULT_NEW_PER_DAY))  # type: ignore[call-overload]
        self.round_size = int(store.setting("round_size", DEFAULT_ROUND_SIZE))  # type: ignore[call-overload]

    def close(self) -> None:
        self.store.close()

    def today(self, moment: datetime | None = None) -> date:
        return (moment or self.clock()).astimezone(self.tz).date()

    def decks_for(self, deck_id: str | None) -> list[Deck]:
        if deck_id is None:
            return list(self.catalog.decks)
        deck = self.catalog.get(deck_id)
        if deck is None:
            raise KeyError(f"no deck with id {deck_id!r}")
        return [deck]

    # -- what the home screen shows ---------------------------------------------------------

    def streak_days(self) -> int:
        """Days in a row, up to today (or yesterday, if today has no round yet), with at least
        one finished round."""
        days = {
            self.today(r.ended_at or r.started_at) for r in self.store.rounds(finished_only=True)
        }
        day = self.today()
        if day not in days:
            day -= timedelta(days=1)
        streak = 0
        while day in days:
            streak += 1
            day -= timedelta(days=1)
        return streak

    def new_left_today(self, first_seen: dict[tuple[str, str], datetime] | None = None) -> int:
        """New items that may still start today; `first_seen` saves a query when the caller
        already has it."""
        today = self.today()
        seen = self.store.first_seen() if first_seen is None else first_seen
        started = sum(1 for at in seen.values() if self.today(at) == today)
        return max(0, self.new_per_day - started)

    def home(self) -> Home:
        now = self.clock()
        cards = self.store.cards()
        first_seen = self.store.first_seen()
        seen_items = set(first_seen)
        left = self.new_left_today(first_seen)
        rows = []
        all_items = all_due = all_new = 0
        for deck in self.catalog.decks:
            keys = faces(deck)
            due = sum(1 for k in keys if k in cards and cards[k].due <= now)
            new = sum(1 for item in deck.items() if (deck.id, item.id) not in seen_items)
            rows.append(
                DeckSummary(
                    deck.id,
                    deck.title,
                    deck.item_count(),
                    due,
                    min(new, left),
                    self.store.best_score(deck.id),
                )
            )
            all_items, all_due, all_new = (
                all_items + deck.item_count(),
                all_due + due,
                all_new + new,
            )
        if len(rows) > 1:
            rows.insert(
                0,
                DeckSummary(
                    None,
                    "All decks",
                    all_items,
                    all_due,
                    min(all_new, left),
                    self.store.best_score(None),
                ),
            )
        return Home(
            decks=tuple(rows),
            streak_days=self.streak_days(),
            reviews=self.store.review_count(),
            new_per_day=self.new_per_day,
            problems=_first_problem_per_file(self.catalog.problems),
        )

    # -- rounds -------------------------------------------------------------------------------

    def plan(self, deck_id: str | None, size: int) -> tuple[list[FaceKey], str]:
        """The faces of a round and its mode: due faces first (least likely remembered first),
        then new faces up to the daily limit of new items, one face per item. With nothing due
        and nothing new, a practice round of the faces due soonest."""
        now = self.clock()
        decks = self.decks_for(deck_id)
        cards = self.store.cards([d.id for d in decks])
        all_keys = [k for d in decks for k in faces(d)]
        due = sorted(
            (k for k in all_keys if k in cards and cards[k].due <= now),
            key=lambda k: (self.srs.retrievability(cards[k], now), cards[k].due, k),
        )
        picked: list[FaceKey] = []
        items_in_round: set[tuple[str, str]] = set()
        for key in due:
            if (key.deck_id, key.item_id) not in items_in_round:
                picked.append(key)
                items_in_round.add((key.deck_id, key.item_id))
            if len(picked) == size:
                return picked, "review"
        seen_items = self.store.first_seen()
        new_left = self.new_left_today(seen_items)
        for key in _round_robin(decks):
            if len(picked) == size:
                break
            item = (key.deck_id, key.item_id)
            if key in cards or item in items_in_round:
                continue
            if item not in seen_items:  # a new item: counts against today's limit
                if new_left == 0:
                    continue
                new_left -= 1
            picked.append(key)
            items_in_round.add(item)
        if picked:
            return picked, "review"
        soonest = sorted((k for k in all_keys if k in cards), key=lambda k: (cards[k].due, k))
        practice: list[FaceKey] = []
        for key in soonest:
            if (key.deck_id, key.item_id) not in items_in_round:
                practice.append(key)
                items_in_round.add((key.deck_id, key.item_id))
            if len(practice) == size:
                break
        return practice, "practice"

    def start_round(
        self, deck_id: str | None = None, size: int | None = None, seed: int | None = None
    ) -> Round | None:
        """A new round, or None when there is nothing to ask (an empty deck, or every new
        item for today used up before anything was ever answered)."""
        size = size or self.round_size
        keys, mode = self.plan(deck_id, size)
        if not keys:
            return None
        rng = random.Random(seed)
        title = "All decks" if deck_id is None else self.decks_for(deck_id)[0].title
        return Round(self, deck_id, title, keys, mode, rng)

    def next_due(self, deck_id: str | None) -> datetime | None:
        decks = self.decks_for(deck_id)
        keys = {k for d in decks for k in faces(d)}
        dues = [c.due for k, c in self.store.cards([d.id for d in decks]).items() if k in keys]
        return min(dues) if dues else None


@dataclass(slots=True)
class _Answered:
    key: FaceKey
    question: Question
    grade: Grade
    review_id: int
    points: int
    streak_before: int
    best_streak_before: int
    retried: bool  # the face was put back in the queue


@dataclass
class Round:
    """One round: a queue of faces, asked one at a time. Each answer is saved as it is given."""

    session: Session
    deck_id: str | None
    title: str
    queue: list[FaceKey]
    mode: str
    rng: random.Random
    position: int = 0
    score: int = 0
    streak: int = 0
    best_streak: int = 0
    history: list[_Answered] = field(default_factory=list)
    retries: dict[FaceKey, int] = field(default_factory=dict)
    ended: bool = False

    def __post_init__(self) -> None:
        now = self.session.clock()
        self.started_at = now
        self.round_id = self.session.store.start_round(self.deck_id, self.mode, now)
        self._decks = {d.id: d for d in self.session.catalog.decks}
        self._question: Question | None = None
        self._asked_at = now
        self.awaiting_next = False  # an answer was given; feedback is showing

    # -- asking -----------------------------------------------------------------------------

    @property
    def total(self) -> int:
        return len(self.queue)

    @property
    def answered(self) -> int:
        return len(self.history)

    @property
    def correct(self) -> int:
        return sum(a.grade.correct for a in self.history)

    def question(self) -> Question | None:
        """The question being asked, or None when the round is over."""
        if self.ended or self.position >= len(self.queue):
            return None
        if self._question is None or self._question.key != self.queue[self.position]:
            key = self.queue[self.position]
            self._question = build_question(self._decks[key.deck_id], key, self.rng)
            self._asked_at = self.session.clock()
        return self._question

    def advance(self) -> Question | None:
        """Move on after the feedback; returns the next question or None at the end."""
        if self.awaiting_next:
            self.position += 1
            self.awaiting_next = False
            self._question = None
        return self.question()

    # -- answering ----------------------------------------------------------------------------

    def answer_choice(self, index: int) -> Grade:
        question = self._require(Kind.CHOICE)
        if not 0 <= index < len(question.choices):
            raise IndexError(index)
        return self._record(question, grade_choice(self._deck(question), question, index))

    def answer_text(self, text: str) -> Grade | None:
        """A typed term or number. None when a number was expected and `text` is not one:
        nothing is recorded and the question stays."""
        question = self.question()
        if question is None or self.awaiting_next:
            raise RuntimeError("no question is waiting for an answer")
        if question.kind == Kind.TYPED:
            return self._record(question, grade_typed(self._deck(question), question, text))
        if question.kind == Kind.NUMBER:
            grade = grade_number(self._deck(question), question, text)
            return None if grade is None else self._record(question, grade)
        raise RuntimeError(f"a {question.kind} question does not take typed text")

    def answer_recall(self, rating: int, notes: str = "") -> Grade:
        question = self._require(Kind.RECALL)
        return self._record(question, grade_recall(self._deck(question), question, rating, notes))

    def _require(self, kind: Kind) -> Question:
        question = self.question()
        if question is None or self.awaiting_next:
            raise RuntimeError("no question is waiting for an answer")
        if question.kind != kind:
            raise RuntimeError(f"the question is {question.kind}, not {kind}")
        return question

    def _deck(self, question: Question) -> Deck:
        return self._decks[question.key.deck_id]

    def _record(self, question: Question, grade: Grade) -> Grade:
        store, now = self.session.store, self.session.clock()
        key = question.key
        before = store.card(key)
        card = before or Card(card_id=store.next_card_id(), due=now)
        card = self.session.srs.review(card, grade.rating, now)
        streak_before, best_before = self.streak, self.best_streak
        points, streak = 0, 0
        if grade.correct:
            points = POINTS_RIGHT + STREAK_BONUS * min(self.streak, STREAK_BONUS_CAP)
            streak = self.streak + 1
        best_streak = max(self.best_streak, streak)
        response_ms = max(0, int((now - self._asked_at).total_seconds() * 1000))
        review = Review(
            key, now, grade.rating, grade.correct, response_ms, self.mode, grade.given, points
        )
        correct = self.correct + grade.correct
        # Saved first: if the store refuses, the round is left exactly as it was.
        review_id = store.record(
            review,
            card,
            self.round_id,
            before,
            round_totals=(self.answered + 1, correct, self.score + points, best_streak),
        )
        self.score += points
        self.streak, self.best_streak = streak, best_streak
        retried = False
        if (
            not grade.correct
            and self.retries.get(key, 0) < MAX_RETRIES
            and self.position + 1 < len(self.queue)
        ):
            # Back later in this round, never straight away.
            self.queue.insert(min(self.position + 1 + RETRY_GAP, len(self.queue)), key)
            self.retries[key] = self.retries.get(key, 0) + 1
            retried = True
        grade = replace(grade, next_due=card.due)
        self.history.append(
            _Answered(key, question, grade, review_id, points, streak_before, best_before, retried)
        )
        self.awaiting_next = True
        return grade

    # -- undo, flag, finish -----------------------------------------------------------------

    def undo(self) -> Question | None:
        """Take back the last answer: the store and the schedule go back to how they were, and
        that question is asked again. Returns it, or None if there is nothing to undo."""
        if not self.history or self.ended:
            return None
        last = self.history.pop()
        self.session.store.undo(last.review_id)
        if last.retried:
            for index in range(len(self.queue) - 1, self.position, -1):
                if self.queue[index] == last.key:
                    del self.queue[index]
                    break
            self.retries[last.key] -= 1
        self.score -= last.points
        self.streak, self.best_streak = last.streak_before, last.best_streak_before
        if not self.awaiting_next:
            self.position -= 1
        self.awaiting_next = False
        self._question = last.question  # the same question, same choices
        self._asked_at = self.session.clock()
        self.session.store.update_round(
            self.round_id,
            questions=self.answered,
            correct=self.correct,
            score=self.score,
            best_streak=self.best_streak,
        )
        return last.question

    def flag(self, note: str = "") -> FaceKey | None:
        """Flag the current (or just answered) question as wrong or unclear, for its author."""
        key = self.history[-1].key if self.awaiting_next and self.history else None
        if key is None:
            question = self.question()
            key = question.key if question else None
        if key is not None:
            self.session.store.flag(key, self.session.clock(), note)
        return key

    def finish(self) -> RoundSummary:
        """End the round (early or not); every answer is already saved. A round counts for
        the day streak and the best score only when every question was answered."""
        now = self.session.clock()
        if self.awaiting_next:
            self.position += 1
            self.awaiting_next = False
        finished = self.position >= len(self.queue) and self.answered > 0
        store = self.session.store
        previous_best = store.best_score(self.deck_id, exclude_round=self.round_id)
        if not self.ended:
            store.update_round(
                self.round_id,
                questions=self.answered,
                correct=self.correct,
                score=self.score,
                best_streak=self.best_streak,
                ended_at=now,
                finished=finished,
            )
        self.ended = True
        missed = tuple(
            Missed(a.question.prompt, a.grade.right_answer, a.grade.given)
            for a in self.history
            if not a.grade.correct
        )
        return RoundSummary(
            deck_title=self.title,
            answered=self.answered,
            correct=self.correct,
            score=self.score,
            best_streak=self.best_streak,
            seconds=(now - self.started_at).total_seconds(),
            finished=finished,
            missed=missed,
            previous_best=previous_best,
            new_best=finished
            and self.score > 0
            and (previous_best is None or self.score > previous_best),
            next_due=self.session.next_due(self.deck_id),
        )


def _first_problem_per_file(problems: Sequence[Problem]) -> tuple[str, ...]:
    first: dict[str, str] = {}
    for problem in problems:
        first.setdefault(problem.path, str(problem))
    return tuple(first.values())


def _round_robin(decks: Sequence[Deck]) -> list[FaceKey]:
    """Every face, taking turns between decks and kinds of item, so that new material mixes
    terms, groups, scenarios and the rest instead of starting with one deck's terms."""
    queues = [
        [
            FaceKey(deck.id, item.id, face)
            for item in getattr(deck, section)
            for face in item_faces(item)
        ]
        for deck in decks
        for section in SECTIONS
    ]
    order: list[FaceKey] = []
    for layer in itertools.zip_longest(*queues):
        order.extend(k for k in layer if k is not None)
    return order
