"""The store's errors: each says, in one sentence a player can act on, what is wrong and what
to do; `explain` turns a SQLite error into one.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path


class StoreError(Exception):
    """The database cannot be used; the message is one sentence a player can act on."""


class StoreFull(StoreError):
    """The disk is full: the write was not kept; the store is still usable for reading."""


class StoreReadOnly(StoreError):
    """The database (or its folder) cannot be written: play goes on, nothing is saved."""


class StoreLocked(StoreError):
    """Another vocabgame holds the write lock: nothing was changed; try again."""


class StoreDamaged(StoreError):
    """The file is not a usable database: it is left exactly as it was."""


ASIDE = "move vocabgame.db, vocabgame.db-wal and vocabgame.db-shm aside together"


def explain(path: Path, exc: sqlite3.Error, unsaved: bool = False) -> StoreError:
    """One sentence for a SQLite error; `unsaved`: it stopped a write, which was not kept."""
    text = str(exc).lower()
    name = getattr(exc, "sqlite_errorname", "") or ""
    if "full" in text or name == "SQLITE_FULL":
        return StoreFull(
            f"The disk holding {path} is full, so your last change was not saved; "
            "free some space and try again."
        )
    if "readonly" in text or "read-only" in text or name.startswith("SQLITE_READONLY"):
        return read_only(path, unsaved)
    if "locked" in text or "busy" in text:
        return StoreLocked(
            f"The progress database {path} is in use by another vocabgame; "
            "close that one and try again (nothing was changed)."
        )
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return StoreDamaged(
            f"The progress database {path} is damaged ({exc}); {ASIDE}, or restore a "
            "backup, and vocabgame will start a new one (nothing was changed)."
        )
    if "unable to open" in text or "disk i/o" in text:
        return StoreError(
            f"Cannot use the progress database {path} ({exc}); check the permissions of "
            "the file and its folder, and the free space."
        )
    return StoreError(f"The progress database {path} cannot be used ({exc}).")


def read_only(path: Path, unsaved: bool) -> StoreReadOnly:
    return StoreReadOnly(
        f"The progress database {path} is read-only, so "
        + ("your last change was not saved" if unsaved else "nothing can be saved")
        + "; check the permissions of the file and its folder."
    )


def check_path(path: Path) -> str | None:
    """Refuse what is not a database file before SQLite touches it; returns a notice when an
    empty file is taken as a new database."""
    if path.is_dir():
        raise StoreError(
            f"The progress database {path} is a folder, not a file; move that folder aside "
            "or choose another data folder with --data-dir (nothing was changed)."
        )
    orphan = orphaned_log(path)
    if orphan is not None:
        raise StoreError(orphan)
    if path.exists() and not path.is_file():
        raise StoreError(
            f"The progress database {path} is not a regular file; move it aside or choose "
            "another data folder with --data-dir (nothing was changed)."
        )
    if path.is_file() and path.stat().st_size == 0:
        wal = path.with_name(path.name + "-wal")
        if wal.is_file() and wal.stat().st_size > 0:
            raise StoreDamaged(
                f"The progress database {path} is empty but {wal.name} beside it holds data, "
                f"so vocabgame left both alone; {ASIDE} to start anew, or restore a backup."
            )
        return (
            f"The progress database {path} was an empty file (with no log beside it), so it "
            "was set up as a new one."
        )
    return None


def orphaned_log(path: Path) -> str | None:
    """When the database is not there but its `-wal` or `-shm` is (the database was moved or
    deleted without them): the sentence saying where the answers may be and what to move back.
    SQLite would take such a log as the new database's, and delete or replay it; nothing is
    opened while it is there. None when the database is there, or nothing is beside it."""
    if path.exists() or path.is_symlink():
        return None
    left = [p for p in (path.with_name(path.name + s) for s in ("-wal", "-shm")) if p.exists()]
    if not left:
        return None
    names = " and ".join(p.name for p in left)
    held = (
        "may hold answers not yet written into it"
        if left[0].name.endswith("-wal")
        else ("belongs to it")
    )
    return (
        f"The progress database {path} is missing, but {names} beside it {held}; move "
        f"{path.name} back beside {'them' if len(left) > 1 else 'it'} (the three files go "
        f"together), or move {names} aside to start a new database (nothing was changed)."
    )
