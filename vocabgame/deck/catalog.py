"""The decks found in a set of folders."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from vocabgame.model import Deck
from vocabgame.problems import DeckError, Problem
from vocabgame.reading.files import DEFAULT_MAX_BYTES, find_deck_files, read_text

if TYPE_CHECKING:
    from vocabgame.deck.cache import DeckCache


@dataclass(frozen=True)
class Catalog:
    """The decks found in a set of folders, and the problems that kept others out."""

    decks: tuple[Deck, ...]
    problems: tuple[Problem, ...]
    folders: tuple[Path, ...] = ()  # where they were found, to look again
    stamps: tuple[tuple[str, int, int], ...] = ()  # each file read: path, mtime (ns), size
    cache: DeckCache | None = None  # validated decks kept between runs, to load again quickly

    def get(self, deck_id: str) -> Deck | None:
        return next((d for d in self.decks if d.id == deck_id), None)

    def changed(self) -> bool:
        """Whether a deck file in the folders was added, removed or saved since loading."""
        return _stamps(self.folders) != self.stamps


def _stamps(folders: Iterable[Path]) -> tuple[tuple[str, int, int], ...]:
    return _stamps_of(find_deck_files(folders)[0])  # a folder that cannot be searched is skipped


def _stamps_of(files: Iterable[Path]) -> tuple[tuple[str, int, int], ...]:
    out = []
    for path in files:
        try:
            info = path.stat()
        except OSError:
            continue
        out.append((str(path), info.st_mtime_ns, info.st_size))
    return tuple(out)


def load_deck(
    path: Path | str, max_bytes: int = DEFAULT_MAX_BYTES, cache: DeckCache | None = None
) -> Deck:
    """Load one deck file; raises DeckError listing every problem in it. With a `cache`, a
    file whose text validated before is not read again."""
    path = Path(path)
    text = read_text(path, max_bytes)
    if cache is not None and (kept := cache.get(str(path), text)) is not None:
        return kept
    # Here, not at the top: a game whose decks all come from the cache never loads the reader
    # (YAML, the checks, the lint rules).
    from vocabgame.deck.load import load_text

    deck, problems = load_text(text, str(path))
    if deck is None:
        raise DeckError([p for p in problems if p.severity == "error"])
    if cache is not None:
        cache.put(str(path), text, deck)
    return deck


def load_catalog(
    folders: Iterable[Path], max_bytes: int = DEFAULT_MAX_BYTES, cache: DeckCache | None = None
) -> Catalog:
    """Load every deck in the folders (missing folders are skipped; one that cannot be searched
    is a problem). A deck whose id another file already took is left out with one problem
    naming both files. With a `cache`, decks that validated before are taken from it."""
    folders = tuple(folders)
    files, found = find_deck_files(folders)
    stamps = _stamps_of(files)  # before reading: a save during the load shows as a change
    decks: dict[str, Deck] = {}
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
            deck = load_deck(path, max_bytes, cache)
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
    # The decks an author numbered with start_here first, 1 before 2; the rest as found.
    ordered = sorted(decks.values(), key=lambda d: (d.start_here is None, d.start_here or 0))
    return Catalog(
        tuple(_live_ids_are_not_old_ids(ordered, problems)), tuple(problems), folders, stamps, cache
    )


def _live_ids_are_not_old_ids(decks: list[Deck], problems: list[Problem]) -> list[Deck]:
    """A deck may not claim, as a former id, the id of another deck that is still here: it
    would take that deck's progress. Such an old id is dropped, with a problem."""
    by_id = {deck.id: deck for deck in decks}
    out = []
    for deck in decks:
        taken = [old for old in deck.formerly if old in by_id]
        for old in taken:
            problems.append(
                Problem(
                    deck.path,
                    f"formerly lists {old!r}, the id of the deck in {by_id[old].path}; "
                    "an old id must no longer be used, so its progress is not carried",
                )
            )
        out.append(replace(deck, formerly=tuple(o for o in deck.formerly if o not in taken)))
    return out
