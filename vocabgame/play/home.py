"""What the home screen shows: a row a deck (and one for all decks together), the day streak,
the answers given and the deck files that could not be read."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from vocabgame.model import Deck
from vocabgame.play.readiness import Readiness
from vocabgame.problems import Problem
from vocabgame.settings import Settings
from vocabgame.stats import DeckStats

# A new player's seconds a question, until answers of their own say otherwise: reading a
# question, four choices and the feedback after it.
DEFAULT_SECONDS_PER_QUESTION = 12.0
LEARN_MORE = 10  # new items "learn more today" adds to a deck's limit for the day


@dataclass(frozen=True, slots=True)
class DeckSummary:
    """One row of the home screen. Every count but the `*_items` ones is of questions (faces),
    the unit rounds ask in; the same figures as `vocabgame stats`."""

    id: str | None  # None: all decks together
    title: str
    questions: int  # questions the deck asks (a term is asked three ways)
    seen: int  # questions answered at least once
    due: int  # questions due for review now
    new: int  # questions never answered that a round may ask today
    best: int | None
    description: str = ""
    tags: tuple[str, ...] = ()
    new_items_left: int = 0  # new items the deck may still start today
    unstarted_items: int = 0  # items never answered
    new_limit: int = 0  # today's limit of new items for the deck (with any extra)
    started_today: int = 0  # new items started today
    learned: int = 0  # questions stable for three weeks or more (`srs.LEARNED_DAYS`)
    start_here: int | None = None  # the deck's place in the order its author gave newcomers

    @property
    def limit_reached(self) -> bool:
        """Today's new items are used up while the deck still has items never started."""
        return self.unstarted_items > 0 and self.new_items_left == 0

    @property
    def more_today(self) -> int:
        """How many new items "learn more today" would add."""
        return min(LEARN_MORE, self.unstarted_items)


@dataclass(frozen=True, slots=True)
class Home:
    """What the home screen shows: each deck's figures, the day streak, the answers given and
    problems with deck files."""

    decks: tuple[DeckSummary, ...]
    streak_days: int
    reviews: int
    new_per_day: int = Settings().new_per_day
    problems: tuple[str, ...] = ()  # one line per deck file that could not be loaded
    seconds_per_question: float = DEFAULT_SECONDS_PER_QUESTION  # the player's median
    readiness: Readiness | None = None  # the interview the settings name, until its day

    @property
    def start_here(self) -> DeckSummary | None:
        """The deck a newcomer should play next: the first in the authors' order (decks with
        `start_here`) that has no answer yet; None once all of them are started."""
        return next(
            (r for r in self.decks if r.start_here is not None and r.id and not r.seen), None
        )

    def progress(self) -> str:
        """Home's first words: what is learned, in plain words, or where to begin."""
        if not self.decks:
            return ""
        row = self.decks[0]
        if not self.reviews:
            first = self.start_here
            if first is not None:
                return f"New here? Start with {first.title} (highlighted): press Enter"
            return "New here? Pick a deck and press Enter"
        return f"Learned {row.learned} of {row.questions} questions"

    def today(self) -> str:
        """What today holds, for every deck together: "5 due · 20 new · about 6 minutes"."""
        if not self.decks:
            return ""
        row = self.decks[0]  # all decks together when there are several, else the one deck
        forward = self.readiness.advance_today if self.readiness is not None else 0
        questions = row.due + row.new + forward
        if not questions:
            return "nothing due or new"
        minutes = max(1, round(questions * self.seconds_per_question / 60))
        early = f" · {forward} brought forward" if forward else ""
        return (
            f"{row.due} due · {row.new} new{early} · about {minutes} minute{'s' * (minutes != 1)}"
        )


def seconds_per_question(recent_ms: Sequence[int]) -> float:
    """The median of the player's recent answer times, in seconds (the default with none)."""
    if not recent_ms:
        return DEFAULT_SECONDS_PER_QUESTION
    # statistics.median's value, without importing statistics (fractions, decimal) at start
    ordered, middle = sorted(recent_ms), len(recent_ms) // 2
    if len(ordered) % 2:
        return ordered[middle] / 1000
    return (ordered[middle - 1] + ordered[middle]) / 2 / 1000


def deck_rows(
    decks: Sequence[Deck],
    progress: Sequence[DeckStats],
    started: Counter[str],
    limits: Mapping[str, int],
    best_of_all: int | None,
) -> tuple[DeckSummary, ...]:
    """A row a deck, from its progress (`stats.deck_progress`), the new items it started today
    and today's limit of them; first a row of all decks together when there are several."""
    rows = [
        DeckSummary(
            deck.id,
            deck.title,
            questions=figures.total,
            seen=figures.seen,
            due=figures.due,
            new=figures.new,
            best=figures.best,
            description=deck.description or "",
            tags=deck.tags,
            new_items_left=figures.new_items_left,
            unstarted_items=figures.unstarted,
            new_limit=limits[deck.id],
            started_today=started[deck.id],
            learned=figures.learned,
            start_here=deck.start_here,
        )
        for deck, figures in zip(decks, progress, strict=True)
    ]
    if len(rows) > 1:
        everything = DeckSummary(
            None,
            "All decks",
            questions=sum(r.questions for r in rows),
            seen=sum(r.seen for r in rows),
            due=sum(r.due for r in rows),
            new=sum(r.new for r in rows),
            best=best_of_all,
            description="A round mixing every deck: what is due in each, then new items "
            "from each, up to each deck's limit.",
            new_items_left=sum(r.new_items_left for r in rows),
            unstarted_items=sum(r.unstarted_items for r in rows),
            new_limit=sum(r.new_limit for r in rows),
            started_today=sum(r.started_today for r in rows),
            learned=sum(r.learned for r in rows),
        )
        rows.insert(0, everything)
    return tuple(rows)


def first_problem_per_file(problems: Sequence[Problem]) -> tuple[str, ...]:
    first: dict[str, str] = {}
    for problem in problems:
        first.setdefault(problem.path, str(problem))
    return tuple(first.values())
