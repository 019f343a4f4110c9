"""Preview: an author's look at every question a deck yields (`vocabgame preview`)."""

from __future__ import annotations

from vocabgame.model import FaceKey
from vocabgame.play.modes.base import Mode, PlanContext


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
