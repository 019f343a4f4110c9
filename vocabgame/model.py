"""The deck model: what a validated deck file becomes. Immutable, typed, free of positions
except the line where each item starts (for messages that point back at the file).

The built-in kinds of item are defined here so every layer can name them; which sections a
deck file may hold, and what each kind of item asks, is the kind registry's (`vocabgame.kinds`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, Protocol, TypeVar, cast

FORMAT_VERSION = 1
T = TypeVar("T")

# How hard an item is, as interview rounds grade candidates: L3 new grad (define, recognise),
# L4 mid (apply, one-step numbers), L5 senior (trade-offs, diagnosis, multi-step numbers),
# L6 staff (design across constraints, capacity end to end, frontier techniques' limits).
LEVELS: tuple[str, ...] = ("L3", "L4", "L5", "L6")


def parse_levels(text: str) -> tuple[str, ...]:
    """The levels a player named: one ("L4"), a range ("L3-L5") or a list ("L3,L5"), in
    LEVELS order; ValueError with the sentence to show for anything else."""
    chosen: set[str] = set()
    for part in (p.strip().upper() for p in text.split(",")):
        low, dash, high = part.partition("-")
        if low not in LEVELS or (dash and high not in LEVELS):
            raise ValueError(
                f"{text.strip()!r} is not a level or a range of levels; levels are "
                f"{', '.join(LEVELS)}, a range is written L3-L4"
            )
        first, last = LEVELS.index(low), LEVELS.index(high or low)
        chosen.update(LEVELS[min(first, last) : max(first, last) + 1])
    return tuple(level for level in LEVELS if level in chosen)


def levels_label(levels: tuple[str, ...]) -> str:
    """Levels as a player writes them: "L4", "L3-L5" for a run, else "L3, L5"."""
    if not levels:
        return "every level"
    at = [LEVELS.index(level) for level in levels]
    if len(levels) > 1 and at == list(range(at[0], at[-1] + 1)):
        return f"{levels[0]}-{levels[-1]}"
    return ", ".join(levels)


@dataclass(frozen=True, slots=True, order=True)
class FaceKey:
    """What progress is keyed by: deck id + item id + face (one way an item is asked)."""

    deck_id: str
    item_id: str
    face: str

    def __str__(self) -> str:
        return f"{self.deck_id}/{self.item_id}/{self.face}"


class Item(Protocol):
    """What every kind of item has."""

    @property
    def id(self) -> str: ...
    @property
    def tags(self) -> tuple[str, ...]: ...
    @property
    def sources(self) -> tuple[str, ...]: ...
    @property
    def line(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Source:
    """A primary source a deck cites: its key in the deck, its title and its address."""

    key: str
    title: str
    url: str


@dataclass(frozen=True, slots=True)
class Term:
    """A term of the vocabulary: its name, definition, the names it also goes by, and an optional
    caveat and example."""

    id: str
    term: str
    definition: str
    aliases: tuple[str, ...] = ()
    caveat: str | None = None
    example: str | None = None
    legacy_names: tuple[str, ...] = ()  # names it had before: accepted when typed, with a note
    tags: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    line: int = 0


@dataclass(frozen=True, slots=True)
class Cue:
    """One clue of a look-alike group and the term of the group it describes."""

    text: str
    answer: str


@dataclass(frozen=True, slots=True)
class Confusable:
    """Terms that are easy to confuse, the distinction between them, and cues that tell them
    apart."""

    id: str
    terms: tuple[str, ...]
    distinction: str
    cues: tuple[Cue, ...] = ()
    tags: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    line: int = 0


@dataclass(frozen=True, slots=True)
class Scenario:
    """A situation with choices, the one that fits, why, and why each other choice does not."""

    id: str
    prompt: str
    choices: tuple[str, ...]
    answer: str
    explanation: str
    why_not: tuple[tuple[str, str], ...] = ()
    tags: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    line: int = 0

    def why_not_for(self, choice: str) -> str | None:
        return dict(self.why_not).get(choice)


@dataclass(frozen=True, slots=True)
class Recall:
    """A question answered from memory: the model answer and the key points a full answer covers."""

    id: str
    prompt: str
    answer: str
    key_points: tuple[str, ...] = ()
    mistake: str | None = None  # what a weak answer says: shown after the model answer
    tags: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    line: int = 0


@dataclass(frozen=True, slots=True)
class Claim:
    """A statement that is true or false, and the explanation of which and why."""

    id: str
    statement: str
    answer: bool
    explanation: str
    tags: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    line: int = 0


@dataclass(frozen=True, slots=True)
class Given:
    """One input of a calculation: the values it may take, each with the label shown."""

    name: str
    options: tuple[tuple[str, float], ...]


@dataclass(frozen=True, slots=True)
class Tolerance:
    """How far a typed number may be from the expected one: a share of it, or an amount."""

    amount: float
    relative: bool

    def accepts(self, expected: float, actual: float) -> bool:
        allowed = abs(expected) * self.amount if self.relative else self.amount
        # A hair of slack so that 2% of a value rounded for display still counts.
        return abs(actual - expected) <= allowed + 1e-9 * max(1.0, abs(expected))

    def __str__(self) -> str:
        return f"{self.amount * 100:g}%" if self.relative else f"±{self.amount:g}"


DEFAULT_TOLERANCE = Tolerance(0.02, relative=True)


@dataclass(frozen=True, slots=True)
class Calculation:
    """A formula asked with numbers drawn from `given`, the unit asked for and the tolerance of the
    answer."""

    id: str
    prompt: str
    given: tuple[Given, ...]
    answer: str
    explanation: str
    unit: str | None = None
    tolerance: Tolerance = DEFAULT_TOLERANCE
    tags: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    line: int = 0


@dataclass(frozen=True)
class Deck:
    """A validated deck. `sections` maps every registered section (in the kind registry's
    order) to its items, empty when the file has none; the built-in sections also have a
    typed property each."""

    id: str
    title: str
    path: str
    description: str | None = None
    # Where a newcomer begins: decks with it come first, 1 before 2; None: no place in that order
    start_here: int | None = None
    tags: tuple[str, ...] = ()
    sources: Mapping[str, Source] = field(default_factory=lambda: MappingProxyType({}))
    sections: Mapping[str, tuple[Any, ...]] = field(default_factory=lambda: MappingProxyType({}))
    formerly: tuple[str, ...] = ()  # the deck's old ids: their progress is carried over
    renamed: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # old -> new
    # item id -> the release a version-sensitive fact describes, e.g. "vLLM 0.11"
    versions: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    # item id -> its level (one of LEVELS) and its topic (an id of the topic map), where given
    levels: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    topics: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def section(self, name: str) -> tuple[Any, ...]:
        return self.sections.get(name, ())

    @property
    def terms(self) -> tuple[Term, ...]:
        return cast("tuple[Term, ...]", self.section("terms"))

    @property
    def confusables(self) -> tuple[Confusable, ...]:
        return cast("tuple[Confusable, ...]", self.section("confusables"))

    @property
    def scenarios(self) -> tuple[Scenario, ...]:
        return cast("tuple[Scenario, ...]", self.section("scenarios"))

    @property
    def recall(self) -> tuple[Recall, ...]:
        return cast("tuple[Recall, ...]", self.section("recall"))

    @property
    def claims(self) -> tuple[Claim, ...]:
        return cast("tuple[Claim, ...]", self.section("claims"))

    @property
    def calculations(self) -> tuple[Calculation, ...]:
        return cast("tuple[Calculation, ...]", self.section("calculations"))

    def items(self) -> Iterator[Item]:
        for items in self.sections.values():
            yield from items

    def item(self, item_id: str) -> Item | None:
        return self._by_id.get(item_id)

    def term(self, term_id: str) -> Term | None:
        item = self._by_id.get(term_id)
        return item if isinstance(item, Term) else None

    @cached_property
    def _by_id(self) -> Mapping[str, Item]:
        # Built once, on first use: lookups by id happen for every question asked.
        return {item.id: item for item in self.items()}

    def kept(self, name: str, make: Callable[[Deck], T]) -> T:
        """`make(self)`, worked out on the first ask for `name` and kept with the deck for as
        long as it lives (what a screen or a grader reads of a deck at every look, made once
        per loaded deck)."""
        kept = self.__dict__.setdefault("_kept", {})  # beside the cached properties
        if name not in kept:
            kept[name] = make(self)
        return cast(T, kept[name])

    def counts(self) -> dict[str, int]:
        return {section: len(items) for section, items in self.sections.items()}

    def item_count(self) -> int:
        return sum(len(items) for items in self.sections.values())

    def level_counts(self) -> dict[str, int]:
        """Items per level, in LEVELS order, levels with no item left out ("-": no level)."""
        counts = {level: 0 for level in (*LEVELS, "-")}
        for item in self.items():
            counts[self.levels.get(item.id, "-")] += 1
        return {level: n for level, n in counts.items() if n}
