"""Small files several vocabgame processes change at once (the players' registry, a room):
each is held alone while it is read, changed and written, and written whole, so a reader
never sees half of one and two writers never lose each other's change."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover (Windows)
    fcntl = None  # type: ignore[assignment]


@contextlib.contextmanager
def held_alone(lock: Path, failed: Callable[[OSError], Exception]) -> Iterator[None]:
    """Hold the lock file `lock` (made with its folder if missing) alone until the block
    ends; `failed` turns an OSError opening it into the sentence to raise."""
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise failed(exc) from None
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def write_whole(path: Path, text: str, failed: Callable[[OSError], Exception]) -> None:
    """Write `text` to `path` through a temporary file beside it, synced, then renamed over
    it; `failed` turns an OSError into the sentence to raise (the temporary file is gone)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise failed(exc) from None
