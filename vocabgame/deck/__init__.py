"""Decks: reading and validating deck files, and the catalogue of decks found in folders."""

from vocabgame.deck.catalog import Catalog, load_catalog
from vocabgame.deck.load import load_deck, load_text
from vocabgame.reading.files import (
    DEFAULT_MAX_BYTES,
    deck_files,
    decode,
    find_deck_files,
    read_text,
)

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
