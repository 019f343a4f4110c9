"""Decks: reading and validating deck files, and the catalogue of decks found in folders."""

from typing import TYPE_CHECKING

from vocabgame.deck.catalog import Catalog, load_catalog, load_deck
from vocabgame.reading.files import (
    DEFAULT_MAX_BYTES,
    deck_files,
    decode,
    find_deck_files,
    read_text,
)

if TYPE_CHECKING:
    from vocabgame.deck.load import load_text


def __getattr__(name: str) -> object:
    # The deck reader (YAML, the checks, the lint rules) loads when first asked for: a game
    # whose decks all come from the deck cache never needs it.
    if name == "load_text":
        from vocabgame.deck.load import load_text

        return load_text
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DEFAULT_MAX_BYTES",
    "Catalog",
    "deck_files",
    "decode",
    "find_deck_files",
    "load_catalog",
    "load_deck",
    "load_text",
    "read_text",
]
