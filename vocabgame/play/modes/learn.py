"""The daily round and the rounds it falls back to: learn (what is due, then new items),
practice (nothing due or new: the soonest due, reviewed early) and a round's misses again."""

from __future__ import annotations

from collections.abc import Sequence

from vocabgame.model import Deck, FaceKey
from vocabgame.play import planning, readiness
from vocabgame.play.modes.base import Mode, ModeId, PlanContext, one_per_item, register, round_robin
from vocabgame.stats import deck_shape
from vocabgame.store import Store


class LearnMode(Mode):
    id = ModeId.LEARN
    rank = 10
    name = "learn"
    help = "the day's spaced-repetition round (the default)"
    title = "Learn"
    description = (
        "Today's reviews, least remembered first, then new items up to each deck's daily limit."
    )
    fallback = ModeId.PRACTICE
    picker = True

    def plan(self, ctx: PlanContext) -> list[FaceKey]:
        if ctx.store is not None and ctx.curve is not None:
            return self.plan_from_store(ctx, ctx.store, ctx.curve)
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

    def plan_from_store(
        self, ctx: PlanContext, store: Store, curve: tuple[float, float]
    ) -> list[FaceKey]:
        """The same plan, reading only the due cards and the items still new (`planning`):
        the time it takes does not grow with the history. Until an interview's day
        (`ctx.interview`), the chosen questions to bring forward follow what is due, and the
        chosen new items come before the others (`readiness`)."""
        due = planning.weakest(store, ctx.decks, ctx.now, curve, due_by=ctx.now)
        taken: set[tuple[str, str]] = set()
        picked = one_per_item(due, ctx.size, taken)
        new_left = ctx.new_left_today()
        scope = ctx.interview
        if scope is not None and scope.active:
            chosen = scope.within(ctx.decks)
            asked = {d.id: deck_shape(d).keys for d in chosen}
            forward = readiness.to_advance(store, scope, ctx.now, curve)
            keys = (k for k in forward if (k.item_id, k.face) in asked.get(k.deck_id, ()))
            picked += one_per_item(keys, ctx.size - len(picked), taken)
            for key in readiness.first_new(store, scope, chosen, new_left):
                if len(picked) < ctx.size and (key.deck_id, key.item_id) not in taken:
                    new_left[key.deck_id] -= 1
                    picked.append(key)
                    taken.add((key.deck_id, key.item_id))
        picked += self._new(store, ctx.decks, ctx.size - len(picked), new_left, taken)
        return picked

    @staticmethod
    def _new(
        store: Store,
        decks: Sequence[Deck],
        room: int,
        new_left: dict[str, int],
        taken: set[tuple[str, str]],
    ) -> list[FaceKey]:
        """Up to `room` faces never answered, one per item not in `taken` (which grows), new
        items only within each deck's limit (`new_left`, which shrinks)."""
        picked: list[FaceKey] = []
        for key, starts_item in planning.new_faces(store, decks, new_left):
            if len(picked) >= room:
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
    rank = 20
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
    rank = 30
    title = "Review the misses"
    description = "The questions just missed, asked again at once; due dates stay as they were."
    banner = "your misses again"
    updates_schedule = False
    keeps_round = False  # the round itself is not kept: it sets no best score or streak
    results_note = "Reviewing your misses counts for no best score or day streak."

    def plan(self, ctx: PlanContext) -> list[FaceKey]:
        return []


register(LearnMode())
register(PracticeMode())
register(MissesMode())
