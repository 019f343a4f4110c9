"""Deck files on disk: finding them, and reading one as UTF-8 text within a size limit."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from vocabgame.problems import DeckError, Problem

# Room for a deck of 50,000 items (about 9 MB written out); still bounded, so a file that
# is not a deck is refused before it is parsed.
DEFAULT_MAX_BYTES = 16 * 1024 * 1024
DECK_SUFFIXES = (".yaml", ".yml")
# The serving lab's GPU and model files may sit in a decks folder; they are not decks.
LAB_SUFFIXES = (".lab.yaml", ".lab.yml")
# Where the platform has them: opening a named pipe never waits, and no newline translation.
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_BINARY = getattr(os, "O_BINARY", 0)


def special_kind(mode: int) -> str:
    """What a file that is neither a regular file nor a folder is, in words ("a device")."""
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _not_regular(mode: int) -> str | None:
    """What a file that is not a regular file is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a folder, not a deck file"
    return f"is {special_kind(mode)}, not a deck file; only regular files are read"


def read_text(path: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """A deck file's text, or DeckError for a missing, oversized, empty or non-UTF-8 file, or
    for anything that is not a regular file: a named pipe is never waited on and a device
    (a link to /dev/zero, say) is never read. At most `max_bytes` + 1 bytes are read."""
    shown = str(path)
    try:
        info = os.stat(path)  # follows a link: what counts is what it points to
        if (what := _not_regular(info.st_mode)) is not None:
            raise DeckError([Problem(shown, what)])
        if info.st_size > max_bytes:
            raise DeckError([Problem(shown, _over(info.st_size, max_bytes))])
        # Non-blocking, so that a file swapped for a named pipe after the check above still
        # cannot make the open wait for a writer; checked again on what was opened.
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | _BINARY)
        with os.fdopen(fd, "rb") as f:
            if (what := _not_regular(os.fstat(f.fileno()).st_mode)) is not None:
                raise DeckError([Problem(shown, what)])
            # Read what the file holds (not a buffer of the limit's size), and one more
            # byte at most up to the limit in case it grew since it was measured.
            expected = min(os.fstat(f.fileno()).st_size, max_bytes)
            data = f.read(expected + 1)
            if expected < len(data) <= max_bytes:
                data += f.read(max_bytes + 1 - len(data))
    except FileNotFoundError:
        missing = "is a link to a missing file" if os.path.islink(path) else "no such file"
        raise DeckError([Problem(shown, missing)]) from None
    except IsADirectoryError:
        raise DeckError([Problem(shown, "is a folder, not a deck file")]) from None
    except OSError as exc:
        raise DeckError([Problem(shown, f"cannot read: {exc.strerror or exc}")]) from None
    if len(data) > max_bytes:  # it grew after the check above
        raise DeckError([Problem(shown, f"file is over the limit of {max_bytes:,} bytes")])
    return decode(data, shown, max_bytes)


def _over(size: int, max_bytes: int) -> str:
    return f"file is {size:,} bytes, over the limit of {max_bytes:,}"


def decode(data: bytes, shown: str, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    if len(data) > max_bytes:
        raise DeckError([Problem(shown, _over(len(data), max_bytes))])
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


def find_deck_files(
    paths: Iterable[Path], report_missing: bool = False
) -> tuple[list[Path], list[Problem]]:
    """Deck files under the given files and folders, in a stable order, and a problem for each
    folder that could not be searched (rather than skipping it in silence). A path given as a
    file is listed whatever it is: reading it says what is wrong. Missing paths are skipped,
    or reported with `report_missing`. Links to folders are not followed, so no walk loops."""
    found: list[Path] = []
    problems: list[Problem] = []

    def unreadable(exc: OSError) -> None:
        problems.append(
            Problem(
                str(exc.filename if exc.filename is not None else path),
                f"cannot search this folder ({exc.strerror or exc}); the decks in it were skipped",
            )
        )

    for path in paths:
        try:
            is_dir = stat.S_ISDIR(os.stat(path).st_mode)
        except FileNotFoundError:
            if report_missing:
                problems.append(Problem(str(path), "no such file or folder"))
            continue
        except OSError as exc:
            problems.append(Problem(str(path), f"cannot open: {exc.strerror or exc}"))
            continue
        if not is_dir:
            found.append(path)
            continue
        inside: list[Path] = []
        for folder, _dirs, names in os.walk(path, onerror=unreadable):
            inside.extend(
                Path(folder, n)
                for n in names
                if Path(n).suffix in DECK_SUFFIXES and not n.endswith(LAB_SUFFIXES)
            )
        found.extend(sorted(inside))
    return found, problems


def deck_files(paths: Iterable[Path]) -> list[Path]:
    """Deck files under the given files and folders, in a stable order."""
    return find_deck_files(paths)[0]


def lab_files(folders: Iterable[Path]) -> list[Path]:
    """`*.lab.yaml` files under the folders, in a stable order. A folder that cannot be
    searched is skipped: the deck search over the same folders already reports it."""
    found: list[Path] = []
    for folder in folders:
        try:
            if not stat.S_ISDIR(os.stat(folder).st_mode):
                continue
        except OSError:
            continue
        inside: list[Path] = []
        for root, _dirs, names in os.walk(folder):  # errors are skipped; links not followed
            inside.extend(Path(root, n) for n in names if n.endswith(LAB_SUFFIXES))
        found.extend(sorted(inside))
    return found
