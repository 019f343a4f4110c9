"""Generated inputs, made once per folder: decks of many items and stores of many answers.

Each input lives in a folder named after what it holds; a `.complete` file is written when it
is whole, so an input cut short (by Ctrl-C, say) is made again rather than used. Bump
VERSION when the generators change what they write."""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks import big

VERSION = 1
DONE = ".complete"


class Inputs:
    """The generated inputs under `folder` (kept between runs with --scratch)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _made(self, name: str, make: Callable[[Path], object]) -> Path:
        path = self.folder / f"v{VERSION}-{name}"
        if (path / DONE).exists():
            return path
        if path.exists():
            shutil.rmtree(path)
        path.mkdir(parents=True)
        start = time.perf_counter()
        print(f"  generating {name} ...", file=sys.stderr, flush=True)
        make(path)
        (path / DONE).write_text("", encoding="utf-8")
        print(
            f"  generated {name} in {time.perf_counter() - start:.1f} s",
            file=sys.stderr,
            flush=True,
        )
        return path

    def deck_folder(self, items: int) -> Path:
        """A folder holding one generated deck (id "big") of `items` terms."""
        return self._made(f"deck-{items}", lambda path: big.write_deck(path, items))

    def deck_file(self, items: int) -> Path:
        return self.deck_folder(items) / "big.yaml"

    def history(self, items: int, reviews: int) -> Path:
        """A data folder whose store holds `reviews` answers over the faces of
        `deck_folder(items)` (an empty store for 0)."""

        def make(path: Path) -> None:
            if reviews:
                big.write_store(path, big.generated_faces(items), reviews)
            else:
                big.Store.open(path / big.DB_NAME).close()

        return self._made(f"history-{items}-{reviews}", make)

    def builtin_history(self, reviews: int) -> Path:
        """A data folder whose store holds `reviews` answers over the built-in decks' faces."""

        def make(path: Path) -> None:
            from vocabgame.deck import load_catalog
            from vocabgame.kinds import faces
            from vocabgame.paths import builtin_decks_dir

            keys = [
                (k.deck_id, k.item_id, k.face)
                for deck in load_catalog([builtin_decks_dir()]).decks
                for k in faces(deck)
            ]
            big.write_store(path, keys, reviews, deck_id=None)

        return self._made(f"builtin-history-{reviews}", make)
