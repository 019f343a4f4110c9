"""Backups of the progress database: a rolling one each day, one on demand, and restoring one.

Every copy is made with SQLite's online backup API, which reads through SQLite, so a copy
holds everything committed, including what still sits in the `-wal` file. A copy is written to
a temporary name and renamed into place only when it is complete: a crash never leaves a half
file that looks like a backup.

Backups live in `<data dir>/backups/`, named by the local time they were taken
(`vocabgame-2026-12-01T0930.db`), so a name sorts by age. The rolling ones keep the newest
backup of each of the last 7 days that have one, and the newest of each of the 4 ISO weeks
before those; the rest is pruned. Copies made before a restore
(`vocabgame-before-restore-….db`) are never pruned.

Every running vocabgame holds a shared lock on `<data dir>/vocabgame.lock`; restoring needs it
exclusively, so a restore never swaps the database under a running game.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from pathlib import Path

from vocabgame.paths import folder_writable
from vocabgame.store import DB_NAME
from vocabgame.store.audit import Audit
from vocabgame.store.errors import orphaned_log
from vocabgame.store.verify import store_problem

BACKUP_DIR = "backups"
LOCK_NAME = "vocabgame.lock"
PREFIX = "vocabgame"
BEFORE_RESTORE = "vocabgame-before-restore"
KEEP_DAILY, KEEP_WEEKLY = 7, 4

_NAME = re.compile(
    r"^(?P<prefix>vocabgame(?:-before-restore)?)-"
    r"(?P<stamp>\d{4}-\d{2}-\d{2}T\d{4}(?:\d{2})?)\.db$"
)

try:
    import fcntl
except ImportError:  # Windows: no advisory locks that can be shared
    fcntl = None  # type: ignore[assignment]

CAN_LOCK = fcntl is not None


class BackupError(Exception):
    """A backup or a restore could not be made; the message is one sentence."""


class InUseError(BackupError):
    """Another vocabgame holds the data folder."""


@dataclass(frozen=True, slots=True)
class BackupFile:
    """A backup in the backups folder and when it was taken."""

    path: Path
    taken: datetime  # local wall-clock time, naive, as in the name
    before_restore: bool = False

    @property
    def day(self) -> date:
        return self.taken.date()


def backups_dir(data_dir: Path) -> Path:
    return data_dir / BACKUP_DIR


def _parse(path: Path) -> BackupFile | None:
    match = _NAME.match(path.name)
    if match is None:
        return None
    stamp = match["stamp"]
    taken = datetime.strptime(stamp, "%Y-%m-%dT%H%M%S" if len(stamp) == 17 else "%Y-%m-%dT%H%M")
    return BackupFile(path, taken, match["prefix"] == BEFORE_RESTORE)


def list_backups(data_dir: Path, before_restore: bool = False) -> list[BackupFile]:
    """The backups in the data folder, oldest first; copies made before a restore only when
    `before_restore` is set."""
    try:
        entries = list(backups_dir(data_dir).iterdir())
    except OSError:
        return []
    found = [b for b in map(_parse, entries) if b is not None and b.path.is_file()]
    found = [b for b in found if before_restore or not b.before_restore]
    return sorted(found, key=lambda b: (b.taken, b.path.name))


def newest_backup(data_dir: Path) -> Path | None:
    """The newest regular backup (not a copy made before a restore), or None."""
    found = list_backups(data_dir)
    return found[-1].path if found else None


def _local(now: datetime, tz: tzinfo | None) -> datetime:
    return now.astimezone(tz).replace(tzinfo=None)


def _free_name(folder: Path, prefix: str, local: datetime) -> Path:
    """`prefix-YYYY-MM-DDTHHMM.db`, or with seconds when that minute already has one."""
    path = folder / f"{prefix}-{local:%Y-%m-%dT%H%M}.db"
    if path.exists():
        path = folder / f"{prefix}-{local:%Y-%m-%dT%H%M%S}.db"
    return path


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not every platform can open a folder
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def copy_database(source: sqlite3.Connection, dest: Path) -> Path:
    """Copy the database behind `source` to `dest` with the backup API: into a temporary file
    beside it, checked, flushed to disk, then renamed into place. Raises OSError or
    sqlite3.Error; nothing is left under `dest` or the temporary name when it fails."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    try:
        target = sqlite3.connect(tmp, isolation_level=None)
        try:
            source.backup(target)
            # A self-contained file: no -wal or -shm beside it when it is opened later.
            target.execute("PRAGMA journal_mode=DELETE")
            check = target.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise sqlite3.DatabaseError(f"the copy failed its check: {check}")
        finally:
            target.close()
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, dest)
    except BaseException:
        for leftover in (tmp, tmp.with_name(tmp.name + "-journal")):
            with contextlib.suppress(OSError):
                leftover.unlink()
        raise
    _fsync_dir(dest.parent)
    return dest


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return str(exc)


def backup_now(
    source: sqlite3.Connection,
    data_dir: Path,
    now: datetime,
    tz: tzinfo | None = None,
    prefix: str = PREFIX,
) -> Path:
    """Write a backup named by the local time `now`; raises BackupError with one sentence."""
    folder = backups_dir(data_dir)
    remove_stale_temporaries(data_dir)  # what killed copies left, before writing another
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return copy_database(source, _free_name(folder, prefix, _local(now, tz)))
    except (OSError, sqlite3.Error) as exc:
        raise BackupError(f"Could not write a backup to {folder} ({_reason(exc)}).") from None


def daily_backup(
    source: sqlite3.Connection, data_dir: Path, now: datetime, tz: tzinfo | None = None
) -> tuple[Path | None, str | None]:
    """At the first session of a local day: a backup, then pruning to 7 daily and 4 weekly.
    Returns the file written (None: today already has one, or there is nothing to keep yet)
    and, when the backup failed, the one sentence to show; it never raises, so the game goes
    on whatever happens here."""
    try:
        today = _local(now, tz).date()
        if any(b.day == today for b in list_backups(data_dir)) or not Audit(source).has_progress():
            return None, None
        if not folder_writable(data_dir):  # a read-only folder: the store says nothing is saved
            return None, None
        written = backup_now(source, data_dir, now, tz)
        prune(data_dir)
    except BackupError as exc:
        return None, f"{str(exc)[:-1]}; the game goes on and saves your progress as usual."
    except (OSError, sqlite3.Error) as exc:
        return None, (
            f"Could not write today's backup to {backups_dir(data_dir)} ({_reason(exc)}); "
            "the game goes on and saves your progress as usual."
        )
    return written, None


def to_keep(
    backups: list[BackupFile], daily: int = KEEP_DAILY, weekly: int = KEEP_WEEKLY
) -> set[Path]:
    """The newest backup of each of the last `daily` days that have one, then the newest of
    each of the `weekly` ISO weeks before those."""
    newest_of_day: dict[date, BackupFile] = {}
    for b in sorted(backups, key=lambda b: (b.taken, b.path.name)):
        newest_of_day[b.day] = b
    days = sorted(newest_of_day, reverse=True)
    keep = {newest_of_day[d].path for d in days[:daily]}
    weeks: dict[tuple[int, int], Path] = {}
    for d in days[daily:]:  # newest first, so the first seen in a week is its newest
        weeks.setdefault(d.isocalendar()[:2], newest_of_day[d].path)
    keep.update(path for _, path in sorted(weeks.items(), reverse=True)[:weekly])
    return keep


STALE_SECONDS = 86400  # a temporary file this old is from a copy that crashed
# A copy's temporary name holds the id of the process writing it: `.NAME.PID.tmp` (and its
# `-journal`) in backups/, `.vocabgame.db.PID.restoring` (and what its copy left) beside the store.
_TEMPORARY = re.compile(r"^\.vocabgame.*?\.(?P<pid>\d+)\.(?:tmp|restoring)(?:-journal)?$")


def _alive(pid: int) -> bool:
    """Whether a process with this id runs (an unknown answer counts as yes)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError, ValueError):  # someone else's, or no way to ask here
        return True
    return True


def stale_temporaries(data_dir: Path, now: float | None = None) -> list[Path]:
    """The temporary files that copies killed half way left in the backups folder and beside
    the store: those of processes no longer running, and any older than a day (a process id
    may have been reused). A copy under way in a running process is never among them."""
    now = time.time() if now is None else now
    found = []
    for folder in (backups_dir(data_dir), data_dir):
        with contextlib.suppress(OSError):
            for path in folder.iterdir():
                match = _TEMPORARY.match(path.name)
                if match is None or not path.is_file():
                    continue
                with contextlib.suppress(OSError):
                    old = now - path.stat().st_mtime > STALE_SECONDS
                    if old or not _alive(int(match["pid"])):
                        found.append(path)
    return sorted(found)


def remove_stale_temporaries(data_dir: Path) -> list[Path]:
    """Delete `stale_temporaries`; returns what was deleted."""
    removed = []
    for path in stale_temporaries(data_dir):
        with contextlib.suppress(OSError):
            path.unlink()
            removed.append(path)
    return removed


def prune(data_dir: Path, daily: int = KEEP_DAILY, weekly: int = KEEP_WEEKLY) -> list[Path]:
    """Delete the regular backups `to_keep` does not keep, and the temporary files killed
    copies left (`stale_temporaries`); returns what was deleted."""
    backups = list_backups(data_dir)
    keep = to_keep(backups, daily, weekly)
    removed = []
    for path in [b.path for b in backups if b.path not in keep]:
        with contextlib.suppress(OSError):
            path.unlink()
            removed.append(path)
    return removed + remove_stale_temporaries(data_dir)


# -- the data folder's lock ---------------------------------------------------------------------


class DataLock:
    """A lock on `<data dir>/vocabgame.lock`: shared by every running vocabgame, exclusive for
    a restore. Without fcntl (Windows) it locks nothing and `enforced` is False."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / LOCK_NAME
        self._fd: int | None = None

    @property
    def enforced(self) -> bool:
        return self._fd is not None

    def _open(self) -> int | None:
        if fcntl is None:
            return None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            return os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return None  # a read-only folder: opening the store will say what is wrong

    def shared(self) -> DataLock:
        """Hold the lock shared, waiting for a restore in progress to finish."""
        fd = self._open()
        if fd is not None and fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH)
            except OSError:
                os.close(fd)
                fd = None
        self._fd = fd
        return self

    def exclusive(self) -> DataLock:
        """Hold the lock alone, or raise InUseError at once if another vocabgame holds it.
        When locks are not available here, `enforced` stays False."""
        fd = self._open()
        if fd is not None and fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise InUseError(
                    f"Another vocabgame is running on {self.path.parent}; close it and try "
                    "again (nothing was restored)."
                ) from None
            except OSError:
                os.close(fd)
                fd = None
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the file drops the lock
            self._fd = None

    def __enter__(self) -> DataLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


@contextlib.contextmanager
def shared_lock(data_dir: Path) -> Iterator[DataLock]:
    lock = DataLock(data_dir).shared()
    try:
        yield lock
    finally:
        lock.release()


# -- restoring ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Contents:
    """What a database holds, in brief: answers, rounds and the time of the last answer."""

    reviews: int
    rounds: int
    last_answer: str | None


def contents(path: Path) -> Contents:
    """What a database holds, read without writing anything; raises sqlite3.Error."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        reviews, rounds, last = Audit(conn).contents()
    finally:
        conn.close()
    return Contents(reviews, rounds, last)


def find_backup(data_dir: Path, name: Path | None) -> Path:
    """The file to restore: `name` (a path, or a file name in the backups folder), or the newest
    backup; raises BackupError when there is none."""
    if name is None:
        newest = newest_backup(data_dir)
        if newest is None:
            raise BackupError(f"There are no backups in {backups_dir(data_dir)} yet.")
        return newest
    if name.is_file():
        return name
    inside = backups_dir(data_dir) / name.name
    if name.parent == Path(".") and inside.is_file():
        return inside
    raise BackupError(f"{name}: no such backup file.")


def _save_current(data_dir: Path, now: datetime, tz: tzinfo | None) -> Path | None:
    """Keep the store as it is now, as `vocabgame-before-restore-….db`. A readable store is
    copied with the backup API; a damaged one file by file, its -wal beside it, so nothing of
    it is lost either way."""
    db = data_dir / DB_NAME
    if not db.exists():
        return None
    folder = backups_dir(data_dir)
    dest = _free_name(folder, BEFORE_RESTORE, _local(now, tz))
    try:
        conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
        try:
            return copy_database(conn, dest)
        finally:
            conn.close()
    except sqlite3.Error:
        pass  # damaged: keep its files as they are
    except OSError as exc:
        raise BackupError(
            f"Could not save the current progress to {folder} before restoring "
            f"({_reason(exc)}); nothing was restored."
        ) from None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        wal = db.with_name(db.name + "-wal")
        if wal.exists():
            shutil.copyfile(wal, dest.with_name(dest.name + "-wal"))
        tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
        shutil.copyfile(db, tmp)
        os.replace(tmp, dest)
    except OSError as exc:
        raise BackupError(
            f"Could not save the current progress to {folder} before restoring "
            f"({_reason(exc)}); nothing was restored."
        ) from None
    return dest


def restore(data_dir: Path, source: Path, now: datetime, tz: tzinfo | None = None) -> Path | None:
    """Put `source` back as the store. The caller holds the data folder's lock exclusively.

    The backup is first copied, with the backup API, to a temporary file beside the store and
    checked; then the current store is saved as a before-restore copy; then the store's `-wal`
    and `-shm` are removed and the copy renamed over `vocabgame.db`. The `-wal` goes first: an
    old -wal left beside the new file would be replayed into it and corrupt it. Returns the
    before-restore copy (None: there was no store)."""
    db = data_dir / DB_NAME
    if db.exists() and source.resolve() == db.resolve():
        raise BackupError(f"{source} is the progress database itself; choose a backup.")
    orphan = orphaned_log(db)
    if orphan is not None:  # removing that log would lose what it holds
        raise BackupError(orphan)
    remove_stale_temporaries(data_dir)
    tmp = data_dir / f".{DB_NAME}.{os.getpid()}.restoring"
    try:
        conn = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
        try:
            copy_database(conn, tmp)
        finally:
            conn.close()
    except sqlite3.Error as exc:
        _remove(tmp)
        raise BackupError(
            f"{source} is not a vocabgame store ({exc}); nothing was restored."
        ) from None
    except OSError as exc:
        _remove(tmp)
        raise BackupError(
            f"Could not copy {source} into {data_dir} ({_reason(exc)}); nothing was restored."
        ) from None
    # The copy is what goes in place, so the copy is what is checked.
    problem = store_problem(tmp)
    if problem is not None:
        _remove(tmp)
        raise BackupError(f"{source} is not a vocabgame store: {problem}; nothing was restored.")
    try:
        before = _save_current(data_dir, now, tz)
        _checkpoint(db)
        for suffix in ("-wal", "-shm"):
            db.with_name(db.name + suffix).unlink(missing_ok=True)
        os.replace(tmp, db)
    except OSError as exc:
        raise BackupError(f"Could not put {source} in place of {db} ({_reason(exc)}).") from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    _fsync_dir(data_dir)
    return before


def _checkpoint(db: Path) -> None:
    """Write everything of the store's -wal into the store and empty the log, so a restore
    killed after removing the log and before the rename leaves the old store whole. Nothing
    else runs on the folder (the caller holds its lock alone). A store that cannot be
    checkpointed (damaged) has its files kept by `_save_current`."""
    if not db.exists():
        return
    with contextlib.suppress(sqlite3.Error):
        conn = sqlite3.connect(db, isolation_level=None)
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        finally:
            conn.close()


def check_backup(source: Path) -> None:
    """Raise BackupError, in one sentence, unless `source` is a vocabgame store a restore
    accepts (`store_problem`); asked before the player is asked to confirm."""
    problem = store_problem(source)
    if problem is not None:
        raise BackupError(f"{source} is not a vocabgame store: {problem}; nothing was restored.")


def _remove(path: Path) -> None:
    for leftover in (path, path.with_name(path.name + "-journal")):
        with contextlib.suppress(OSError):
            leftover.unlink()


def damage_hint(data_dir: Path) -> str:
    """When the store cannot be read as a database: a sentence naming the newest backup and
    how to put it back. Empty when the store is not damaged (in use, newer, a permissions
    problem) or there is no backup."""
    db = data_dir / DB_NAME
    newest = newest_backup(data_dir)
    if newest is None or not db.exists():
        return ""
    try:
        conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
        try:
            damaged = conn.execute("PRAGMA quick_check").fetchone()[0] != "ok"
        finally:
            conn.close()
    except sqlite3.OperationalError:
        return ""  # busy, locked or unreadable: not a sign of damage
    except sqlite3.DatabaseError:
        damaged = True
    if not damaged:
        return ""
    return f"The newest backup is {newest} (`vocabgame restore` puts it back)."
