"""Cram: practice on demand, with the schedule left exactly as it was."""

from __future__ import annotations

import itertools
from typing import Any

from vocabgame.model import FaceKey
from vocabgame.play import planning
from vocabgame.play.modes.base import (
    Mode,
    ModeId,
    PlanContext,
    never_answered,
    one_per_item,
    register,
    round_robin,
)
from vocabgame.settings import Settings
from vocabgame.store import Store


class CramMode(Mode):
    """Practice on demand: any deck, any amount, now. Each answer is saved as practice
    (unscheduled), so every card's due date and state stay exactly as they were."""

    id = ModeId.CRAM
    rank = 70
    help = "practise now, any amount; answers are kept as practice and no due date moves"
    title = "Cram"
    description = (
        "Practise now, as much as you like: answers are kept as practice, no due date moves."
    )
    banner = "cram (the schedule stays)"
    updates_schedule = False
    keeps_round = False
    picker = True
    results_note = "A cram round counts for no best score or day streak."

    def plan(self, ctx: PlanContext) -> list[FaceKey]:
        if ctx.store is not None and ctx.curve is not None:
            # The same plan, ordered by SQLite; the new faces are listed only if the round
            # has room left once every answered item is in it.
            store, curve = ctx.store, ctx.curve
            return one_per_item(
                itertools.chain(
                    planning.weakest(store, ctx.decks, ctx.now, curve),
                    never_answered(store, ctx.decks),
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

    def bests(self, store: Store, settings: Settings) -> dict[str, Any] | None:
        return {"practice_answers": store.answers.count_in_mode(self.id)}


register(CramMode())
