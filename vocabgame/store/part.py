"""What every part of the store shares: the store's one connection, its path (for the error
sentences) and its transactions; and `reads`, which gives a refused read the store's own
one-sentence error, as writes have."""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Concatenate, ParamSpec, Protocol, TypeVar, cast

from vocabgame.store.errors import StoreReadOnly, explain

P = ParamSpec("P")
R = TypeVar("R")


class Connected(Protocol):
    """What a part needs of the store it belongs to (`Store` is one)."""

    @property
    def conn(self) -> sqlite3.Connection: ...
    @property
    def path(self) -> Path: ...
    @property
    def read_only(self) -> StoreReadOnly | None: ...
    def transaction(self) -> AbstractContextManager[sqlite3.Connection]: ...
    def snapshot(self) -> AbstractContextManager[sqlite3.Connection]: ...


class Part:
    """One concern of the store (its answers, its rounds...), on the store's connection."""

    def __init__(self, store: Connected) -> None:
        self._store = store
        self._reads: dict[tuple[object, ...], object] = {}  # `_kept_read`'s, while `_read_state`
        self._read_state: tuple[sqlite3.Connection, int, int] | None = None

    @property
    def conn(self) -> sqlite3.Connection:
        return self._store.conn

    @property
    def path(self) -> Path:
        return self._store.path

    def transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        """One write transaction of the store (see `Store.transaction`)."""
        return self._store.transaction()

    def snapshot(self) -> AbstractContextManager[sqlite3.Connection]:
        """One read transaction of the store (see `Store.snapshot`)."""
        return self._store.snapshot()

    def _kept_read(self, key: tuple[object, ...], read: Callable[[], R]) -> R:
        """`read()`, kept under `key` while no row of the store may have changed (`_state`):
        a figure a screen asks for at every look, worked out again after any write."""
        state = self._state()
        if state != self._read_state or len(self._reads) > 64:
            self._reads.clear()
            self._read_state = state
        if key not in self._reads:
            self._reads[key] = read()
        return cast(R, self._reads[key])

    def _state(self) -> tuple[sqlite3.Connection, int, int]:
        """What changes whenever a row of the store may have: the connection, the rows it
        wrote (triggers' included) and SQLite's count of commits by other connections. A
        read kept while this is the same is still the store's answer."""
        conn = self.conn
        return conn, conn.total_changes, int(conn.execute("PRAGMA data_version").fetchone()[0])


PartT = TypeVar("PartT", bound=Part)


def reads(method: Callable[Concatenate[PartT, P], R]) -> Callable[Concatenate[PartT, P], R]:
    """A read that SQLite refuses (damage, an I/O error, a lock) raises the store's own
    one-sentence error, as writes do."""

    @functools.wraps(method)
    def read(part: PartT, /, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(part, *args, **kwargs)
        except sqlite3.Error as exc:
            raise explain(part.path, exc) from None

    return read
