"""The confusion drill: the player's most-confused pairs of terms first, each asked through the
questions that tell the two apart, until it is retired by right answers in a row.

A confusion is a wrong pick of one of a deck's terms where another was the answer (kept by
`Round` as it happens, in term, cue and scenario questions alike). A pair's questions are the
cues of a confusable group holding both terms, the definition picks of the two, and the
scenarios whose answer is one and whose why-not names the other. A pair is retired once the
drill answers to it since its last confusion end in `drill_retire_after` right answers in a
row (a setting). With no confusions yet, the drill plays the decks' confusable groups.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from vocabgame.model import Confusable, Deck, FaceKey
from vocabgame.play.context import RoundContext
from vocabgame.play.modes.base import Mode, ModeId, PlanContext, Selection, Starter, register
from vocabgame.play.outcome import Outcome, RoundSummary
from vocabgame.play.round import Round
from vocabgame.settings import Settings
from vocabgame.store import Store

PER_PAIR = 4  # questions about one pair in a drill, at most


@dataclass(frozen=True, slots=True, order=True)
class Pair:
    deck_id: str
    a: str  # term ids, in sorted order
    b: str

    @classmethod
    def of(cls, deck_id: str, x: str, y: str) -> Pair:
        a, b = sorted((x, y))
        return cls(deck_id, a, b)

    def names(self, deck: Deck | None) -> str:
        """'Prefill vs Decode', by the terms' names where the deck still has them."""

        def name(term_id: str) -> str:
            term = deck.term(term_id) if deck is not None else None
            return term.term if term is not None else term_id

        return f"{name(self.a)} vs {name(self.b)}"


@dataclass(frozen=True, slots=True)
class PairStanding:
    pair: Pair
    confusions: int  # wrong picks between the two on record
    last_confusion: int  # the review id of the latest
    streak: int  # drill answers right in a row since the latest confusion


def standings(store: Store) -> dict[Pair, PairStanding]:
    """Every confused pair on record, with its count and current run of right drill answers."""
    counts: Counter[Pair] = Counter()
    last: dict[Pair, int] = {}
    for c in store.confusables.all():
        pair = Pair.of(c.deck_id, c.answer, c.picked)
        counts[pair] += 1
        last[pair] = max(last.get(pair, 0), c.review_id)
    streak: dict[Pair, int] = {}
    for review_id, deck_id, a, b, right in store.confusables.drill_answers():
        pair = Pair(deck_id, a, b)
        if pair not in last or review_id < last[pair]:
            continue
        streak[pair] = streak.get(pair, 0) + 1 if right else 0
    return {p: PairStanding(p, counts[p], last[p], streak.get(p, 0)) for p in counts}


def pair_faces(deck: Deck, pair: Pair) -> list[FaceKey]:
    """The questions that tell the pair apart: group cues, definition picks, scenarios."""
    keys: list[FaceKey] = []
    both = {pair.a, pair.b}
    for group in deck.confusables:
        if both <= set(group.terms):
            keys += [
                FaceKey(deck.id, group.id, f"cue-{n}")
                for n, cue in enumerate(group.cues, 1)
                if cue.answer in both
            ]
    keys += [FaceKey(deck.id, t, "definition") for t in (pair.a, pair.b) if deck.term(t)]
    for scenario in deck.scenarios:
        other = {pair.a: pair.b, pair.b: pair.a}.get(scenario.answer)
        if other is not None and scenario.why_not_for(other):
            keys.append(FaceKey(deck.id, scenario.id, "scenario"))
    return keys


def distinction(deck: Deck | None, pair: Pair) -> str | None:
    """What tells the two apart: a confusable group's distinction holding both terms, else the
    two definitions side by side."""
    if deck is None:
        return None
    for group in deck.confusables:
        if {pair.a, pair.b} <= set(group.terms):
            return group.distinction
    a, b = deck.term(pair.a), deck.term(pair.b)
    if a is None or b is None:
        return None
    return f"{a.term}: {a.definition}\n{b.term}: {b.definition}"


class DrillMode(Mode):
    """Planned by `start` from the confusions on record (`plan_drill`), never by `plan`. The
    distinction shows with every answer, so answers are kept as practice."""

    id = ModeId.DRILL
    rank = 50
    help = "your most-confused pairs of terms first, until right answers in a row retire each"
    title = "Confusion drill"
    description = (
        "Your most-confused pairs of terms first, with what tells them apart, until right "
        "answers in a row retire each pair."
    )
    banner = "confusion drill"
    keeps_round = False
    updates_schedule = False
    picker = True
    nothing_to_play = (
        "Nothing to drill: no confusions are left unretired here, and these decks have no "
        "confusable groups."
    )
    results_note = "A drill counts for no best score or day streak."

    def plan(self, ctx: PlanContext) -> list[FaceKey]:
        return []

    def start(self, starter: Starter, choice: Selection) -> Drill | None:
        """A drill of the chosen decks' most-confused pairs (with none on record: their
        confusable groups); None when there is nothing to drill."""
        context, settings = starter.round_context(), starter.settings
        decks = starter.decks_chosen(choice.deck, choice.tag, choice.levels)
        retire_after = settings.drill_retire_after
        keys, pair_of, from_groups, retired = plan_drill(
            decks, context.store, choice.size or settings.round_size, retire_after
        )
        if not keys:
            return None
        round_ = starter.new_round(self, choice, keys)
        return Drill(context, round_, pair_of, from_groups, retire_after, retired)

    def bests(self, store: Store, settings: Settings) -> dict[str, Any] | None:
        pairs = standings(store)
        limit = settings.drill_retire_after
        return {
            "confused_pairs": len(pairs),
            "retired_pairs": sum(1 for p in pairs.values() if p.streak >= limit),
        }


@dataclass(slots=True)
class Drill:
    context: RoundContext
    round: Round
    pair_of: dict[FaceKey, Pair]  # which pair each question drills
    from_groups: bool  # no confusions yet: the decks' confusable groups instead
    retire_after: int  # right answers in a row that retire a pair
    retired_before: frozenset[Pair] = frozenset()
    retired: list[Pair] = field(default_factory=list)

    def pair(self, key: FaceKey) -> Pair | None:
        return self.pair_of.get(key)

    def distinction(self, key: FaceKey) -> str | None:
        pair = self.pair_of.get(key)
        if pair is None:
            return None
        return distinction(self.context.deck(pair.deck_id), pair)

    def note_answer(self, outcome: Outcome) -> None:
        """Keep that the answer just given drilled its pair (when it was saved)."""
        pair = self.pair_of.get(outcome.question.key)
        review_id = self.round.last_review_id
        if pair is None or self.from_groups or review_id is None:
            return
        self.context.store.confusables.record_drill(review_id, pair.deck_id, pair.a, pair.b)

    def finish(self) -> tuple[RoundSummary, list[str]]:
        """End the drill; returns its summary and the pairs it retired, by name."""
        summary = self.round.finish()
        limit = self.retire_after
        now_retired = {
            p for p, s in standings(self.context.store).items() if s.streak >= limit
        } - set(self.retired_before)
        self.retired = sorted(p for p in now_retired if p in set(self.pair_of.values()))
        return summary, [p.names(self.context.deck(p.deck_id)) for p in self.retired]


def plan_drill(
    decks: list[Deck], store: Store, size: int, retire_after: int
) -> tuple[list[FaceKey], dict[FaceKey, Pair], bool, frozenset[Pair]]:
    """The drill's questions (most-confused pairs first), which pair each drills, whether it
    fell back to the confusable groups, and the pairs already retired."""
    by_id = {d.id: d for d in decks}
    table = standings(store)
    retired = frozenset(p for p, s in table.items() if s.streak >= retire_after)
    live = sorted(
        (s for p, s in table.items() if p not in retired and p.deck_id in by_id),
        key=lambda s: (-s.confusions, -s.last_confusion, s.pair),
    )
    pairs = [s.pair for s in live]
    from_groups = not table
    if from_groups:
        pairs = [
            Pair.of(d.id, g.terms[0], g.terms[1])
            for d in decks
            for g in d.confusables
            if isinstance(g, Confusable) and len(g.terms) >= 2
        ]
    queue: list[FaceKey] = []
    pair_of: dict[FaceKey, Pair] = {}
    for pair in pairs:
        deck = by_id[pair.deck_id]
        faces = [k for k in pair_faces(deck, pair) if k not in pair_of]
        if from_groups:  # the group's own cues, whichever terms they name
            faces = [
                FaceKey(deck.id, g.id, f"cue-{n}")
                for g in deck.confusables
                if {pair.a, pair.b} <= set(g.terms)
                for n in range(1, len(g.cues) + 1)
            ] or faces
        for key in faces[:PER_PAIR]:
            if len(queue) == size:
                break
            pair_of[key] = pair
            queue.append(key)
    return queue, pair_of, from_groups, retired


register(DrillMode())
