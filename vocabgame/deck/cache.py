"""Validated decks kept as JSON, so that opening the game does not read every deck again.

An entry is found by a hash of the file's path and bytes and of the code that reads decks: a
saved deck file, or a new vocabgame, reads the file afresh. Only a deck that validated is kept,
and the entry is plain JSON that names the model's own data classes: reading one builds those
classes from strings, numbers and lists, and never runs code (no pickle). A damaged, foreign or
unreadable entry is ignored, and a folder that cannot be written keeps no entries; neither ever
stops a deck from loading.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
from pathlib import Path
from types import MappingProxyType
from typing import Any

from vocabgame import __version__, model
from vocabgame.kinds import KINDS
from vocabgame.model import Deck

DECK_CACHE = "deck-cache"  # the folder, in the data folder
FORMAT = 1
KEEP = 64  # entries kept: a few sets of deck folders' worth


class Uncacheable(Exception):
    """A value the JSON form cannot hold: the deck is loaded without keeping it."""


def _classes() -> dict[str, type]:
    found = [c for c in vars(model).values() if isinstance(c, type) and dataclasses.is_dataclass(c)]
    found += [kind.item_type for kind in KINDS.values()]
    return {f"{c.__module__}.{c.__qualname__}": c for c in found}


def _code_stamp() -> str:
    """What changes when the code that reads decks may have: the version, the kinds, and
    every module of the package (size and time of its file)."""
    parts = [str(FORMAT), __version__, ",".join(KINDS), ",".join(sorted(_classes()))]
    root = Path(model.__file__).parent
    for folder in (root, *(p for p in root.iterdir() if p.is_dir())):
        for path in sorted(folder.glob("*.py")):
            with contextlib.suppress(OSError):
                info = path.stat()
                parts.append(f"{path.name}:{info.st_size}:{info.st_mtime_ns}")
    return _sha256("\n".join(parts).encode()).hexdigest()


def _sha256(data: bytes = b"") -> Any:
    """hashlib's sha256, from Python's own module where there is one: hashlib loads OpenSSL
    (about 4 MiB of each game process, a browser tab's) for a digest it does not need."""
    try:
        from _sha256 import sha256  # type: ignore[import-not-found]
    except ImportError:  # Python 3.12 and later name it _sha2; or a build without either
        try:
            from _sha2 import sha256  # type: ignore[import-not-found]
        except ImportError:
            from hashlib import sha256
    return sha256(data)


def _encode(value: Any) -> Any:
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    if isinstance(value, MappingProxyType):
        if not all(isinstance(k, str) for k in value):
            raise Uncacheable("a mapping with keys that are not text")
        return {"$": "map", "f": [[k, _encode(v)] for k, v in value.items()]}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        cls = type(value)
        return {
            "$": f"{cls.__module__}.{cls.__qualname__}",
            "f": [_encode(getattr(value, f.name)) for f in dataclasses.fields(value)],
        }
    raise Uncacheable(f"a value of type {type(value).__name__}")


def _tuples(value: Any) -> Any:
    # The model holds tuples, never lists: JSON's arrays come back as tuples. Lists are
    # recursed into from list comprehensions, and only lists: opening the game decodes every
    # deck kept.
    if type(value) is not list:
        return value
    return tuple([_tuples(v) if type(v) is list else v for v in value])


class DeckCache:
    """Validated decks under `folder` (in the data folder: tests and players each have
    their own)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._stamp: str | None = None
        self._known: dict[str, type] | None = None

    def _key(self, path: str, text: str) -> str:
        if self._stamp is None:
            self._stamp = _code_stamp()
        digest = _sha256()
        for part in (self._stamp, path, text):
            digest.update(part.encode("utf-8", "surrogatepass"))
            digest.update(b"\0")
        return digest.hexdigest()

    def _decode(self, value: dict[str, Any]) -> Any:
        if self._known is None:
            self._known = _classes()
        kind = value.get("$")
        fields = value.get("f")
        if kind == "map" and isinstance(fields, list):
            return MappingProxyType({k: _tuples(v) for k, v in fields})
        cls = self._known.get(kind) if isinstance(kind, str) else None
        if cls is None or not isinstance(fields, list):
            raise ValueError(f"not a deck entry: {kind!r}")
        return cls(*[_tuples(v) if type(v) is list else v for v in fields])

    def get(self, path: str, text: str) -> Deck | None:
        """The deck kept for this file's text, or None."""
        entry = self.folder / f"{self._key(path, text)}.json"
        try:
            deck = json.loads(entry.read_text(encoding="utf-8"), object_hook=self._decode)
        except FileNotFoundError:
            return None
        except (OSError, ValueError, TypeError, RecursionError, UnicodeDecodeError):
            return None  # damaged or from elsewhere: the file is read afresh
        if not isinstance(deck, Deck) or deck.path != path:
            return None
        with contextlib.suppress(OSError):
            os.utime(entry)  # recently used: kept when old entries are let go
        return deck

    def put(self, path: str, text: str, deck: Deck) -> None:
        """Keep a deck that validated. Never raises: a deck loads whether or not it is kept."""
        try:
            data = json.dumps(_encode(deck), ensure_ascii=False, separators=(",", ":"))
        except (Uncacheable, ValueError, RecursionError):
            return
        entry = self.folder / f"{self._key(path, text)}.json"
        part = entry.with_name(f"{entry.name}.{os.getpid()}.part")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            part.write_text(data, encoding="utf-8")
            os.replace(part, entry)
        except OSError:
            with contextlib.suppress(OSError):
                part.unlink()
            return
        self._let_go()

    def _let_go(self) -> None:
        """Keep the `KEEP` entries used last."""
        try:
            entries = [(p.stat().st_mtime_ns, p) for p in self.folder.glob("*.json")]
        except OSError:
            return
        if len(entries) <= KEEP:
            return
        for _, path in sorted(entries)[: len(entries) - KEEP]:
            with contextlib.suppress(OSError):
                path.unlink()
