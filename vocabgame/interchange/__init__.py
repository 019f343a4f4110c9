"""Decks in and out: two-column CSV/TSV from Anki or Quizlet into a deck file, a deck out to
CSV/TSV or an Anki package, and the JSON Schema written beside a deck for editors.

Nothing here prints or reads the clock: the command line passes in bytes, paths and times.
"""

from vocabgame.interchange.export import (
    AnkiMissing,
    ExportError,
    apkg_bytes,
    apkg_ids,
    table_text,
)
from vocabgame.interchange.files import write_new
from vocabgame.interchange.schema import SCHEMA_NAME, SCHEMA_REF, place_schema, schema_text
from vocabgame.interchange.table import Imported, ImportedTerm, deck_yaml, read_table

__all__ = [
    "SCHEMA_NAME",
    "SCHEMA_REF",
    "AnkiMissing",
    "ExportError",
    "Imported",
    "ImportedTerm",
    "apkg_bytes",
    "apkg_ids",
    "deck_yaml",
    "place_schema",
    "read_table",
    "schema_text",
    "table_text",
    "write_new",
]
