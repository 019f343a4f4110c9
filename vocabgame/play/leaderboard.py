"""The leaderboard of a data folder: each consenting player's challenge high score, best
interview, day streak and true retention, read from their own store without writing to it."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any

from vocabgame.backup import DataLock
from vocabgame.insights import RETENTION_DAYS
from vocabgame.play.modes import by_name
from vocabgame.players import Player, read_registry
from vocabgame.printable import printable
from vocabgame.settings import Settings
from vocabgame.stats import streak_days
from vocabgame.store import DB_NAME, SCHEMA_VERSION, Store, StoreError


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's figures. `retention` is the share of answers to learned questions right
    over the last 30 days (None: no such answer); `problem` says why a store could not be
    read (its figures are then empty)."""

    name: str
    challenge_best: int | None = None
    interview_best: int | None = None
    streak_days: int = 0
    retention: float | None = None
    learned_answers: int = 0
    problem: str | None = None

    def sort_key(self) -> tuple[int, int, int, float, str]:
        """Highest challenge score first, then best interview, streak, retention, name."""
        return (
            -(self.challenge_best or 0),
            -(self.interview_best or 0),
            -self.streak_days,
            -(self.retention or 0.0),
            self.name.casefold(),
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "player": self.name,
            "challenge_best": self.challenge_best,
            "interview_best": self.interview_best,
            "streak_days": self.streak_days,
            "retention": self.retention,
            "learned_answers": self.learned_answers,
            "problem": self.problem,
        }


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """The standings, best first, and how many players chose not to appear."""

    standings: tuple[Standing, ...]
    hidden: int

    def as_json(self) -> dict[str, Any]:
        return {
            "players": [{"rank": n, **s.as_json()} for n, s in enumerate(self.standings, start=1)],
            "hidden": self.hidden,
        }


def leaderboard(data_dir: Path, now: datetime, tz: tzinfo | None = None) -> Leaderboard:
    """The leaderboard of the players of `data_dir` who agreed to appear on it, as of `now`
    (days by `tz`; None: the machine's). Raises PlayerError when the registry is damaged."""
    players = read_registry(data_dir).players
    shown = [p for p in players if p.leaderboard]
    rows = sorted((standing(p, data_dir, now, tz) for p in shown), key=Standing.sort_key)
    return Leaderboard(tuple(rows), len(players) - len(shown))


def standing(player: Player, data_dir: Path, now: datetime, tz: tzinfo | None) -> Standing:
    """One player's figures, read from their store opened read-only."""
    folder = player.folder(data_dir)
    path = folder / DB_NAME
    if not path.is_file():
        return Standing(player.name)  # added, never played yet
    # Held shared, as a game holds it: a restore of theirs never swaps the file mid-read.
    with DataLock(folder).shared():
        return _read(player, path, now, tz)


def _read(player: Player, path: Path, now: datetime, tz: tzinfo | None) -> Standing:
    try:
        conn = sqlite3.connect(
            f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None, timeout=2.0
        )
    except sqlite3.Error as exc:
        return Standing(player.name, problem=_unreadable(path, exc))
    store = Store(conn, path)
    try:
        if store.schema_version() != SCHEMA_VERSION:
            return Standing(
                player.name,
                problem=f"The progress database {printable(str(path))} is of an older "
                "vocabgame; it is brought up to date when that player next plays.",
            )
        with store.snapshot():  # every figure of one moment
            return _figures(player.name, store, now, tz)
    except (sqlite3.Error, StoreError) as exc:
        return Standing(player.name, problem=_unreadable(path, exc))
    finally:
        conn.close()


def _unreadable(path: Path, exc: Exception) -> str:
    if isinstance(exc, StoreError):
        return printable(str(exc))
    return f"The progress database {printable(str(path))} could not be read ({exc})."


def _figures(name: str, store: Store, now: datetime, tz: tzinfo | None) -> Standing:
    settings = Settings()  # neither best depends on the settings
    challenge = _best(by_name("challenge").bests(store, settings), "best_score")
    interview = _best(by_name("interview").bests(store, settings), "best_right")
    learned = store.figures.learned_answers(now - timedelta(days=RETENTION_DAYS))
    answers = sum(n for _, n, _ in learned)
    right = sum(r for _, _, r in learned)
    return Standing(
        name,
        challenge_best=challenge,
        interview_best=interview,
        streak_days=streak_days(
            store, now.astimezone(tz).date(), lambda at: at.astimezone(tz).date()
        ),
        retention=right / answers if answers else None,
        learned_answers=answers,
    )


def _best(bests: dict[str, Any] | None, key: str) -> int | None:
    value = (bests or {}).get(key)
    return int(value) if value is not None else None


def table(board: Leaderboard) -> Sequence[tuple[str, ...]]:
    """The rows of the leaderboard as text: rank, player, challenge, interview, streak,
    retention."""
    return [
        (
            str(n),
            s.name,
            "—" if s.challenge_best is None else str(s.challenge_best),
            "—" if s.interview_best is None else str(s.interview_best),
            str(s.streak_days),
            "—" if s.retention is None else f"{s.retention:.0%}",
        )
        for n, s in enumerate(board.standings, start=1)
    ]


HEADERS = ("#", "player", "challenge", "interview", "streak", "retention")
