"""What the stats screen and `vocabgame stats` show for one deck, one tag or everything: the
figures of `vocabgame.insights`, plus what they need from the settings and the store (the
desired retention, the flagged questions, the answers counted as right with "I was right"),
each question named the way a player recognises it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from vocabgame.insights import Confusion, Insights, Tally, Weak, face_kind, scope_keys
from vocabgame.kinds import display, item_faces
from vocabgame.model import Deck, FaceKey
from vocabgame.play.modes.base import MODES
from vocabgame.store import ReportRecord

TOP_WEAKEST = 10


@dataclass(frozen=True, slots=True)
class Named:
    """A question (face) with the words a player knows it by."""

    key: FaceKey
    label: str  # "Time to first token (pick the definition)"


@dataclass(frozen=True, slots=True)
class Flagged:
    key: FaceKey
    label: str
    note: str


@dataclass(frozen=True, slots=True)
class Overview:
    deck_id: str | None
    tag: str | None
    figures: Insights
    desired_retention: float  # the settings' target share of reviews answered right
    overrides: int  # answers marked wrong that the player counted as right
    weakest: tuple[tuple[Weak, Named], ...]
    flagged: tuple[Flagged, ...]
    tags: tuple[str, ...]  # every tag of the decks in view, to pick one
    drills: tuple[tuple[FaceKey, ...], ...] = ()  # per confusion: both terms' faces
    reports: tuple[ReportRecord, ...] = ()  # mock interviews on these decks, newest first

    @property
    def modes(self) -> dict[str, int]:
        """The best finished-round score per mode, by the name a player plays it by ("learn",
        not the "review" it is stored as), in name order."""
        named = {mode_name(mode): best for mode, best in self.figures.modes.items()}
        return dict(sorted(named.items()))

    @property
    def retention_note(self) -> str:
        """One sentence on what true retention beside the desired one means."""
        share = self.figures.retention.share
        if share is None:
            return (
                "No reviews of graduated questions in the last 30 days yet: true retention "
                "shows once questions past their first steps come due again."
            )
        gap = share - self.desired_retention
        if abs(gap) < 0.03:
            return "On target: you recall graduated questions about as often as the schedule aims."
        if gap < 0:
            return (
                "Below target: you forget more than the schedule plans for; reviews will come "
                "sooner, or lower the desired retention in the settings for fewer reviews."
            )
        return (
            "Above target: you remember more than the schedule plans for; a lower desired "
            "retention would ask you less often."
        )


def mode_name(mode_id: str) -> str:
    """A stored mode id as a player names the mode (`Mode.key`); the id of one no longer
    registered."""
    mode = MODES.get(mode_id)
    return mode.key if mode is not None else mode_id


def label(decks: Sequence[Deck], key: FaceKey) -> str:
    """A face as a player knows it: the item as its kind shows it, then how it is asked."""
    deck = next((d for d in decks if d.id == key.deck_id), None)
    item = deck.item(key.item_id) if deck is not None else None
    name = display(item, deck) if item is not None else key.item_id
    if len(name) > 60:
        name = name[:59] + "…"
    return f"{name} ({face_kind(key.face)})"


def confusion_faces(decks: Sequence[Deck], confusion: Confusion) -> list[FaceKey]:
    """Every face of the two terms of a confusion: the answer's first, then the pick's."""
    deck = next((d for d in decks if d.id == confusion.deck_id), None)
    if deck is None:
        return []
    ids = [
        t.id for name in (confusion.right, confusion.picked) for t in deck.terms if t.term == name
    ]
    keys: list[FaceKey] = []
    for item_id in ids:
        item = deck.item(item_id)
        if item is not None:
            keys += [FaceKey(deck.id, item_id, f) for f in item_faces(item)]
    return keys


def overview(
    figures: Insights,
    decks: Sequence[Deck],
    desired_retention: float,
    overrides: int,
    flags: Sequence[tuple[FaceKey, str]],
    deck_id: str | None = None,
    tag: str | None = None,
    reports: Sequence[ReportRecord] = (),
) -> Overview:
    """`flags`: every flagged face and its note; only those in view are kept. `reports`: the
    mock interviews; those that asked about a deck in view are kept."""
    in_view = [d for d in decks if deck_id is None or d.id == deck_id]
    # Only the flagged faces are matched against the scope: no set of every face without flags.
    keys = scope_keys(in_view, None, tag) if flags else set()
    tags = sorted(
        {t for d in in_view for t in d.tags}
        | {t for d in in_view for i in d.items() for t in i.tags}
    )
    return Overview(
        deck_id=deck_id,
        tag=tag,
        figures=figures,
        desired_retention=desired_retention,
        overrides=overrides,
        weakest=tuple(
            (w, Named(w.key, label(decks, w.key))) for w in figures.weakest[:TOP_WEAKEST]
        ),
        flagged=tuple(Flagged(k, label(decks, k), note) for k, note in flags if k in keys),
        tags=tuple(tags),
        drills=tuple(tuple(confusion_faces(decks, c)) for c in figures.confusions),
        reports=tuple(
            r for r in reversed(reports) if deck_id is None or deck_id in r.decks or not r.decks
        ),
    )


def _tally(tally: Tally) -> dict[str, object]:
    share = tally.share
    return {
        "right": tally.right,
        "total": tally.total,
        "share": None if share is None else round(share, 4),
    }


def as_json(view: Overview) -> dict[str, object]:
    """The figures `vocabgame stats --json` adds (see docs/stats-json.md)."""
    figures = view.figures
    return {
        "scope": figures.scope,
        "seen": figures.seen,
        "learned": figures.learned,
        "total": figures.total,
        "due_today": figures.due_today,
        "due_now": figures.due_now,
        "due_later_today": figures.due_later_today,
        "due_tomorrow": figures.due_tomorrow,
        "due_this_week": figures.due_this_week,
        "forecast": [{"day": day.isoformat(), "due": n} for day, n in figures.forecast],
        "retention": _tally(figures.retention) | {"desired": view.desired_retention},
        "daily": [{"day": day.isoformat(), "answers": n} for day, n in figures.daily],
        "longest_streak": figures.longest_streak,
        "per_tag": {name: _tally(t) for name, t in figures.per_tag.items()},
        "per_kind": {name: _tally(t) for name, t in figures.per_kind.items()},
        "weakest": [
            {
                "deck": w.key.deck_id,
                "item": w.key.item_id,
                "face": w.key.face,
                "label": named.label,
                "stability": round(w.stability, 4),
                "lapses": w.lapses,
            }
            for w, named in view.weakest
        ],
        "confusions": [
            {"deck": c.deck_id, "right": c.right, "picked": c.picked, "times": c.times}
            for c in figures.confusions
        ],
        "modes": dict(sorted(figures.modes.items())),
        "flagged": [
            {
                "deck": f.key.deck_id,
                "item": f.key.item_id,
                "face": f.key.face,
                "label": f.label,
                "note": f.note,
            }
            for f in view.flagged
        ],
        "calibration": figures.calibration.as_json(),
    }
