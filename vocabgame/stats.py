"""Progress and scores, from the review log and the schedule."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from vocabgame.quiz import faces
from vocabgame.session import Session, open_session


@dataclass(frozen=True, slots=True)
class DeckStats:
    id: str
    title: str
    seen: int  # faces answered at least once
    total: int  # faces in the deck
    due: int  # faces due now
    best: int | None  # best score of a finished round on this deck alone


@dataclass(frozen=True, slots=True)
class Stats:
    reviews: int
    rounds: int  # finished rounds
    streak_days: int
    decks: tuple[DeckStats, ...]


def collect(session: Session) -> Stats:
    """Totals over the whole store, and per deck over the faces the deck has now."""
    now = session.clock()
    cards = session.store.cards()
    decks = []
    for deck in session.catalog.decks:
        keys = faces(deck)
        seen = [k for k in keys if k in cards]
        decks.append(
            DeckStats(
                id=deck.id,
                title=deck.title,
                seen=len(seen),
                total=len(keys),
                due=sum(1 for k in seen if cards[k].due <= now),
                best=session.store.best_score(deck.id),
            )
        )
    return Stats(
        reviews=session.store.review_count(),
        rounds=len(session.store.rounds(finished_only=True)),
        streak_days=session.streak_days(),
        decks=tuple(decks),
    )


def render(stats: Stats) -> str:
    lines = [
        f"Answers given:  {stats.reviews}",
        f"Rounds played:  {stats.rounds} finished",
        f"Day streak:     {stats.streak_days} day{'s' * (stats.streak_days != 1)}",
        "",
        "Seen: questions answered at least once, of all the questions the deck asks "
        "(a term is asked three ways).",
        "",
        f"{'Deck':<40} {'Seen':>11} {'Due':>5} {'Best':>6}",
    ]
    for d in stats.decks:
        best = "-" if d.best is None else str(d.best)
        title = d.title if len(d.title) <= 40 else d.title[:39] + "…"
        lines.append(f"{title:<40} {f'{d.seen}/{d.total}':>11} {d.due:>5} {best:>6}")
    return "\n".join(lines)


def cmd_stats(data_dir: Path, folders: Sequence[Path], as_json: bool) -> int:
    import sys

    session = open_session(data_dir, folders)
    if isinstance(session, str):
        print(f"vocabgame: {session}", file=sys.stderr)
        return 1
    try:
        stats = collect(session)
    finally:
        session.close()
    if as_json:
        out = asdict(stats)
        out["decks"] = [
            {k: v for k, v in d.items() if k != "title"} | {"title": d["title"]}
            for d in out["decks"]
        ]
        print(json.dumps(out, indent=2))
    else:
        print(render(stats))
    return 0
