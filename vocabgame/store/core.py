"""Progress in SQLite: every answer is committed the moment it is given.

One file, `<data dir>/vocabgame.db`, in WAL mode. The schema version lives in
`PRAGMA user_version`; `MIGRATIONS[n]` takes a database from version n to n + 1 (see
`vocabgame.store.schema`). Progress is keyed by deck id + item id + face, so editing a deck's
wording keeps it, and the history of removed items stays.

`Store` opens and closes the connection and owns its transactions; each concern is a part
on that one connection, handed out as an attribute, as Anki's collection hands out
`col.decks` and `col.sched`:

    store.answers        record, undo, override ("I was right"), the answers kept
    store.schedules      each face's schedule; what is due, in which order
    store.items          per-item summaries and each deck's kept order of new items
    store.scoreboard     rounds and their best scores
    store.saved_reports  a mode's saved reports (interview, challenge)
    store.confusables    wrong picks of one term for another, the drill's answers
    store.face_flags     faces flagged for the deck's author
    store.preferences    the settings
    store.renames        progress carried from old ids to new
    store.figures        the stats screen's figures
    store.transfer       every row a progress file holds (export, import)
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from vocabgame.paths import folder_writable
from vocabgame.store.answers import Answers
from vocabgame.store.confusables import Confusables
from vocabgame.store.errors import (
    StoreDamaged,
    StoreError,
    StoreReadOnly,
    check_path,
    explain,
    read_only,
)
from vocabgame.store.figures import Figures
from vocabgame.store.flags import FaceFlags
from vocabgame.store.items import Items
from vocabgame.store.preferences import Preferences
from vocabgame.store.renames import Renames
from vocabgame.store.reports import SavedReports
from vocabgame.store.schedules import Schedules
from vocabgame.store.schema import MIGRATIONS, SCHEMA_VERSION, statements
from vocabgame.store.scoreboard import Scoreboard
from vocabgame.store.transfer import Transfer

DB_NAME = "vocabgame.db"
QUICK_CHECK_BYTES = 32 * 1024 * 1024  # stores up to this size are checked whole at opening


def _connect(
    target: Path | str, timeout: float, factory: type[sqlite3.Connection], uri: bool = False
) -> sqlite3.Connection:
    return sqlite3.connect(
        target,
        timeout=timeout,
        isolation_level=None,
        check_same_thread=False,
        factory=factory,
        uri=uri,
    )


def _folder_read_only(path: Path) -> bool:
    """Whether the database is there but nothing can be created beside it (a read-only folder
    or file system), as SQLite would need to for its -wal and -shm."""
    return path.is_file() and not folder_writable(path.parent)


def _configure(conn: sqlite3.Connection) -> None:
    """What every connection of the store is set to (journal_mode=WAL stays with the file)."""
    # FULL: an acknowledged answer survives a power loss, not only a crash (about 0.3 ms more
    # per answer; see docs/reliability.md).
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")


class Store:
    """The SQLite store. Open with `Store.open(path)`; every write commits before returning."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        path: Path,
        reconnect: Callable[[], sqlite3.Connection] | None = None,
    ) -> None:
        """The store over `conn`, the database at `path`; `reconnect` opens a connection like
        `conn` anew (by default a plain one on `path`)."""
        self.conn = conn
        self.path = path
        # Set when the database cannot be written: reading and playing go on, unsaved.
        self.read_only: StoreReadOnly | None = None
        self.notices: list[str] = []  # sentences to show once, e.g. an empty file set up anew
        self._depth = 0  # transactions of this store open on the connection
        # How to open the connection anew after a transaction could not be ended.
        self._reconnect = reconnect or (lambda: _connect(path, 2.0, sqlite3.Connection))
        self.schedules = Schedules(self)
        self.scoreboard = Scoreboard(self)
        self.answers = Answers(self, self.schedules, self.scoreboard)
        self.items = Items(self)
        self.saved_reports = SavedReports(self)
        self.confusables = Confusables(self)
        self.face_flags = FaceFlags(self)
        self.preferences = Preferences(self)
        self.renames = Renames(self)
        self.figures = Figures(self)
        self.transfer = Transfer(self)

    @classmethod
    def open(
        cls,
        path: Path,
        timeout: float = 2.0,
        factory: type[sqlite3.Connection] = sqlite3.Connection,
    ) -> Store:
        """Open (creating or migrating) the database; raises StoreError with one clear sentence.

        A database that can be read but not written opens read-only (`read_only` says why).
        `factory` is the connection class (tests inject faults with it)."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"Cannot create the data folder {path.parent} ({exc.strerror})."
            ) from None
        notice = check_path(path)
        try:
            conn = _connect(path, timeout, factory)
        except sqlite3.Error as exc:
            raise explain(path, exc) from None
        store = cls(conn, path, lambda: _connect(path, timeout, factory))
        if notice:
            store.notices.append(notice)
        try:
            store.prepare()
        except (sqlite3.Error, StoreError) as exc:
            conn.close()
            if not isinstance(exc, StoreDamaged) and _folder_read_only(path):
                return cls._open_in_read_only_folder(path, timeout, factory)
            if isinstance(exc, sqlite3.Error):
                raise explain(path, exc) from None
            raise
        return store

    @classmethod
    def _open_in_read_only_folder(
        cls, path: Path, timeout: float, factory: type[sqlite3.Connection]
    ) -> Store:
        """The database's folder cannot be written, so SQLite cannot make the -wal and -shm a
        WAL database is read through: read the file as it is (`immutable`), unless a log
        beside it holds answers that only a writable folder lets SQLite read."""
        uri = f"{path.resolve().as_uri()}?mode=ro"
        wal = path.with_name(path.name + "-wal")
        try:
            conn = _connect(uri, timeout, factory, uri=True)
            conn.execute("PRAGMA user_version").fetchone()  # reads through an existing -shm
        except sqlite3.Error:
            conn.close()
            if wal.exists() and wal.stat().st_size > 0:
                raise StoreReadOnly(
                    f"The data folder {path.parent} is read-only and {wal.name} beside the "
                    "progress database holds answers SQLite can read only where it can write; "
                    "make the folder writable to play (nothing was changed)."
                ) from None
            uri = f"{path.resolve().as_uri()}?immutable=1"  # nothing can change it meanwhile
            conn = _connect(uri, timeout, factory, uri=True)
        store = cls(conn, path, lambda: _connect(uri, timeout, factory, uri=True))
        store.read_only = read_only(path, unsaved=False)
        try:
            if store.schema_version() != SCHEMA_VERSION:
                raise store.read_only  # an old schema that cannot be migrated
            store.check_pages()
        except sqlite3.Error as exc:
            conn.close()
            raise explain(path, exc) from None
        except StoreError:
            conn.close()
            raise
        return store

    def prepare(self) -> None:
        """Set up a connection just opened: refuse a newer schema, migrate, and check the
        pages (raises sqlite3.Error or StoreError)."""
        path, conn = self.path, self.conn
        self.schema_version()  # a newer database is refused before anything is written
        _configure(conn)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            self.migrate()
        except (sqlite3.Error, StoreReadOnly) as exc:
            error = explain(path, exc) if isinstance(exc, sqlite3.Error) else exc
            if not isinstance(error, StoreReadOnly):
                raise error from None
            if self.schema_version() != SCHEMA_VERSION:
                raise error from None  # an old schema that cannot be migrated
            self.read_only = error
        if self.read_only is None and not os.access(path, os.W_OK):
            self.read_only = read_only(path, unsaved=False)
        self.check_pages()

    def check_pages(self) -> None:
        """Raise sqlite3.DatabaseError if the file is damaged: every page checked for a store up
        to QUICK_CHECK_BYTES, the schema only for a larger one."""
        # quick_check reads every page: at opening, only while that is quick. A larger
        # store's damage is reported, in one sentence, where a read or write meets it,
        # and `vocabgame check` (and every backup) checks the whole file.
        check = "ok"
        if self.path.exists() and self.path.stat().st_size <= QUICK_CHECK_BYTES:
            check = self.conn.execute("PRAGMA quick_check").fetchone()[0]
        else:  # the schema at least must read
            self.conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        if check != "ok":
            raise sqlite3.DatabaseError(f"database disk image is malformed: {check}")

    def schema_version(self) -> int:
        version = int(self.conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"The progress database {self.path} was written by a newer vocabgame "
                f"(schema {version}); upgrade vocabgame to use it (nothing was changed)."
            )
        return version

    def migrate(self) -> None:
        version = self.schema_version()
        for number in range(version, SCHEMA_VERSION):
            with self.transaction():
                for statement in statements(MIGRATIONS[number]):
                    self.conn.execute(statement)
                self.conn.execute(f"PRAGMA user_version = {number + 1}")

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction. Any SQLite error inside it becomes a StoreError with one
        sentence; the transaction is rolled back if SQLite has not already done so, so
        nothing of it is kept and the store stays usable."""
        self._settle_stray()
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            self._settle()  # a BEGIN that failed may still have begun
            raise self._refused(exc) from None
        self._depth += 1
        try:
            yield self.conn
            self.conn.execute("COMMIT")
        except BaseException as exc:
            self._settle()  # SQLite rolls back by itself on a full disk
            if isinstance(exc, sqlite3.Error):
                raise self._refused(exc) from None
            raise
        finally:
            self._depth -= 1

    @contextmanager
    def snapshot(self) -> Iterator[sqlite3.Connection]:
        """A read transaction: every read inside sees the same moment, even while another
        vocabgame writes. Errors become the store's own one sentence."""
        self._settle_stray()
        try:
            try:
                self.conn.execute("BEGIN")
            except sqlite3.Error:
                self._settle()
                raise
            self._depth += 1
            try:
                yield self.conn
            finally:
                self._depth -= 1
                if self.conn.in_transaction:
                    try:
                        self.conn.execute("COMMIT")
                    except sqlite3.Error:  # never leave the read transaction open
                        self._settle()
                        raise
        except sqlite3.Error as exc:
            raise explain(self.path, exc) from None

    def _settle_stray(self) -> None:
        """End a transaction that is open though none of this store's is (one that failed to
        end, or a BEGIN that failed after beginning): it is not the one about to start."""
        if self._depth == 0:
            self._settle()

    def _settle(self) -> None:
        """Leave no transaction open: roll back, and if even the rollback fails, close the
        connection (which ends the transaction) and open a new one, so one failed BEGIN or
        ROLLBACK does not make every later write fail until the game restarts. The error
        that led here is the one reported, not a failure of this."""
        try:
            if not self.conn.in_transaction:
                return
        except sqlite3.ProgrammingError:  # closed: a reopen below failed before
            pass
        else:
            with suppress(sqlite3.Error):
                self.conn.execute("ROLLBACK")
            if not self.conn.in_transaction:
                return
        self.reconnect()

    def reconnect(self) -> None:
        """Close the connection and open a new one on the same file, set up as at opening.
        If the file cannot be opened now, the store keeps a closed connection, and the next
        read or write says so in one sentence."""
        with suppress(sqlite3.Error):
            self.conn.close()
        try:
            conn = self._reconnect()
            _configure(conn)
        except sqlite3.Error:
            return
        self.conn = conn
        self.schedules.connection_changed()

    def _refused(self, exc: sqlite3.Error) -> StoreError:
        error = explain(self.path, exc, unsaved=True)
        if isinstance(error, StoreReadOnly):
            self.read_only = error
        return error
