"""The decks found in a set of folders."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from vocabgame.deck.load import load_deck
from vocabgame.model import Deck
from vocabgame.problems import DeckError, Problem
from vocabgame.reading.files import DEFAULT_MAX_BYTES, find_deck_files


@dataclass(frozen=True)
class Catalog:
    """The decks found in a set of folders, and the problems that kept others out."""

    decks: tuple[Deck, ...]
    problems: tuple[Problem, ...]

    def get(self, deck_id: str) -> Deck | None:
        return next((d for d in self.decks if d.id == deck_id), None)


def load_catalog(folders: Iterable[Path], max_bytes: int = DEFAULT_MAX_BYTES) -> Catalog:
    """Load every deck in the folders (missing folders are skipped; one that cannot be searched
    is a problem). A deck whose id another file already took is left out with one problem
    naming both files."""
    decks: dict[str, Deck] = {}
    files, found = find_deck_files(folders)
    problems: list[Problem] = list(found)
    seen: set[Path] = set()
    for path in files:
        try:
            resolved = path.resolve()
        except (OSError, RuntimeError):  # a link loop: reading it says so
            resolved = path
        if resolved in seen:
            continue
        seen.add(resolved)
        try:
            deck = load_deck(path, max_bytes)
        except DeckError as exc:
            problems.extend(exc.problems)
            continue
        if deck.id in decks:
            problems.append(
                Problem(
                    str(path),
                    f"deck id {deck.id!r} is already used by {decks[deck.id].path}; this file was skipped",
                )
            )
            continue
        decks[deck.id] = deck
    return Catalog(tuple(decks.values()), tuple(problems))
