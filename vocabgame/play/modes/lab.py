"""The serving lab's predict-then-reveal challenges as a round, scheduled like other cards."""

from __future__ import annotations

from vocabgame.kinds import item_faces
from vocabgame.kinds.lab import LabChallengeKind
from vocabgame.model import FaceKey
from vocabgame.play.modes.base import Mode, ModeId, PlanContext, one_per_item, register


class LabMode(Mode):
    id = ModeId.LAB
    rank = 80
    help = "the serving lab's predict-then-reveal challenges, scheduled like other cards"
    title = "Lab challenges"
    description = (
        "The serving lab's predict-then-reveal challenges, each on a fresh setup: due ones "
        "first, then new ones, then the ones due soonest."
    )
    banner = "lab challenges"
    nothing_to_play = (
        "No lab challenges here: the serving-lab deck has them, or add lab_challenges to a "
        "deck of yours."
    )

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


register(LabMode())
