"""Deck files on disk: finding them, and reading one as UTF-8 text within a size limit."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from vocabgame.problems import DeckError, Problem

DEFAULT_MAX_BYTES = 5 * 1024 * 1024
DECK_SUFFIXES = (".yaml", ".yml")
# The serving lab's GPU and model files may sit in a decks folder; they are not decks.
LAB_SUFFIXES = (".lab.yaml", ".lab.yml")


def read_text(path: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """A deck file's text, or DeckError for a missing, oversized, empty or non-UTF-8 file."""
    shown = str(path)
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise DeckError(
                [Problem(shown, f"file is {size:,} bytes, over the limit of {max_bytes:,}")]
            )
        data = path.read_bytes()
    except FileNotFoundError:
        raise DeckError([Problem(shown, "no such file")]) from None
    except IsADirectoryError:
        raise DeckError([Problem(shown, "is a folder, not a deck file")]) from None
    except OSError as exc:
        raise DeckError([Problem(shown, f"cannot read: {exc.strerror}")]) from None
    return decode(data, shown, max_bytes)


def decode(data: bytes, shown: str, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    if len(data) > max_bytes:
        raise DeckError(
            [Problem(shown, f"file is {len(data):,} bytes, over the limit of {max_bytes:,}")]
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        raise DeckError(
            [
                Problem(
                    shown,
                    f"file is not UTF-8 text (byte 0x{data[exc.start]:02x}); save it as UTF-8",
                    line,
                    col,
                )
            ]
        ) from None
    return text.removeprefix("\ufeff")


def deck_files(paths: Iterable[Path]) -> list[Path]:
    """Deck files under the given files and folders, in a stable order."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(
                sorted(
                    p
                    for p in path.rglob("*")
                    if p.suffix in DECK_SUFFIXES
                    and not p.name.endswith(LAB_SUFFIXES)
                    and p.is_file()
                )
            )
        else:
            found.append(path)
    return found
