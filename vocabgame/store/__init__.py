"""Progress in SQLite: `Store` over one database file, with its schema (`schema`), its errors
(`errors`) and the records it hands back (`records`)."""

import os  # noqa: F401  (tests fake os.access here: a store the player cannot write)
import sqlite3  # noqa: F401  (and sqlite3.connect, to count what opening runs)

from vocabgame.store.core import DB_NAME, QUICK_CHECK_BYTES, Store
from vocabgame.store.errors import (
    ASIDE,
    StoreDamaged,
    StoreError,
    StoreFull,
    StoreLocked,
    StoreReadOnly,
    orphaned_log,
)
from vocabgame.store.records import Confusion, ReportRecord, Review, RoundRecord
from vocabgame.store.schema import LEARNED, MIGRATIONS, QUARTER, SCHEMA_VERSION, SUMMARIES, Summary

__all__ = [
    "ASIDE",
    "DB_NAME",
    "LEARNED",
    "MIGRATIONS",
    "QUARTER",
    "QUICK_CHECK_BYTES",
    "SCHEMA_VERSION",
    "SUMMARIES",
    "Confusion",
    "ReportRecord",
    "Review",
    "RoundRecord",
    "Store",
    "StoreDamaged",
    "StoreError",
    "StoreFull",
    "StoreLocked",
    "StoreReadOnly",
    "Summary",
    "orphaned_log",
]
