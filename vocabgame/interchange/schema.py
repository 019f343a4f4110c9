"""The JSON Schema of deck format v1, written beside a deck so editors find it.

A deck refers to the schema by a path relative to itself (`./deck-v1.schema.json`): the YAML
language server resolves such a path from the deck's own folder, so the reference keeps working
when the folder is moved, copied to another machine or checked into a repository, and it needs
no network. An absolute path into the installed package would break on any other machine.
"""

from __future__ import annotations

import json
from pathlib import Path

from vocabgame.paths import schema_path

SCHEMA_NAME = "deck-v1.schema.json"
SCHEMA_REF = f"./{SCHEMA_NAME}"


def schema_text() -> str:
    """The schema, exactly as shipped in the package."""
    return schema_path().read_text(encoding="utf-8")


def _is_ours(text: str) -> bool:
    try:
        found = json.loads(text)
    except ValueError:
        return False
    shipped = json.loads(schema_text())
    return isinstance(found, dict) and found.get("title") == shipped.get("title")


def place_schema(folder: Path) -> str:
    """Make `folder/deck-v1.schema.json` the current schema. Returns what happened: "written",
    "updated" (an older copy from vocabgame was replaced), "unchanged", or "kept" (a file of
    that name that is not vocabgame's schema is left alone). Raises OSError."""
    target = folder / SCHEMA_NAME
    text = schema_text()
    if target.exists():
        try:
            current = target.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            return "kept"
        if current == text:
            return "unchanged"
        if not _is_ours(current):
            return "kept"
        target.write_text(text, encoding="utf-8")
        return "updated"
    folder.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return "written"
