"""The deck model: what a validated deck file becomes. Immutable, typed, free of positions
except the line where each item starts (for messages that point back at the file)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

FORMAT_VERSION = 1


@dataclass(frozen=True, slots=True)
class Source:
    key: str
    title: str
    url: str


@dataclass(frozen=True, slots=True)
class Term:
    id: str
    term: str
    definition: str
    aliases: tuple[str, ...] = ()
    caveat: str | None = None
    example: str | None = None
    tags: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    line: int = 0


@dataclass(frozen=True, slots=True)
class Cue:
    text: str
    answer: str


@dataclass(frozen=True, slots=True)
class Confusable:
    id: str
    terms: tuple[str, ...]
    distinction: str
    cues: tuple[Cue, ...] = ()
    tags: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    line: int = 0


@dataclass(frozen=True, slots=True)
class Scenario:
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
    id: str
    prompt: str
    answer: str
    key_points: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    line: int = 0


@dataclass(frozen=True, slots=True)
class Claim:
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


Item = Term | Confusable | Scenario | Recall | Claim | Calculation

SECTIONS: tuple[str, ...] = (
    "terms",
    "confusables",
    "scenarios",
    "recall",
    "claims",
    "calculations",
)


@dataclass(frozen=True, slots=True)
class Deck:
    id: str
    title: str
    path: str
    description: str | None = None
    tags: tuple[str, ...] = ()
    sources: Mapping[str, Source] = field(default_factory=lambda: MappingProxyType({}))
    terms: tuple[Term, ...] = ()
    confusables: tuple[Confusable, ...] = ()
    scenarios: tuple[Scenario, ...] = ()
    recall: tuple[Recall, ...] = ()
    claims: tuple[Claim, ...] = ()
    calculations: tuple[Calculation, ...] = ()

    def items(self) -> Iterator[Item]:
        for section in SECTIONS:
            yield from getattr(self, section)

    def term(self, term_id: str) -> Term | None:
        for term in self.terms:
            if term.id == term_id:
                return term
        return None

    def counts(self) -> dict[str, int]:
        return {section: len(getattr(self, section)) for section in SECTIONS}

    def item_count(self) -> int:
        return sum(self.counts().values())
