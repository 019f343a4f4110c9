"""Whether a SQLite file is a vocabgame store: of a schema version this vocabgame knows, sound
by SQLite's integrity check, and holding exactly the tables, indexes, triggers and views that
vocabgame's own migrations create for that version, nothing more and nothing altered.

A restore puts a file from anywhere in place of the store, so a trigger hidden in it would run
at every later answer; `store_problem` is what a restore (and any other import of a database)
asks first, and `schema_problems` is what `vocabgame check` reports of the store itself.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from vocabgame.store.schema import MIGRATIONS, SCHEMA_VERSION, statements

# Tables SQLite itself may add (ANALYZE, AUTOINCREMENT); names starting sqlite_ are reserved,
# so no one else can make them.
INTERNAL = frozenset({"sqlite_sequence", "sqlite_stat1", "sqlite_stat4"})


@dataclass(frozen=True, slots=True, order=True)
class SchemaObject:
    """One entry of `sqlite_schema`: its type, name, table and SQL (whitespace collapsed)."""

    type: str
    name: str
    table: str
    sql: str

    def __str__(self) -> str:
        return f"{self.type} {self.name!r}"


def _collapse(sql: str) -> str:
    return " ".join(sql.split())


def objects(conn: sqlite3.Connection) -> set[SchemaObject]:
    """The objects of `conn`'s main database, but SQLite's own (automatic indexes have no SQL
    and follow from their table; the statistics tables are SQLite's)."""
    rows = conn.execute("SELECT type, name, tbl_name, sql FROM main.sqlite_schema")
    return {
        SchemaObject(kind, name, table, _collapse(sql))
        for kind, name, table, sql in rows
        if sql is not None and not (kind == "table" and name in INTERNAL)
    }


@cache
def expected(version: int) -> frozenset[SchemaObject]:
    """The objects vocabgame's migrations create up to schema `version`."""
    conn = sqlite3.connect(":memory:")
    try:
        for number in range(version):
            for statement in statements(MIGRATIONS[number]):
                conn.execute(statement)
        return frozenset(objects(conn))
    finally:
        conn.close()


@dataclass(frozen=True, slots=True)
class SchemaProblem:
    """An object that differs from vocabgame's: `foreign` (vocabgame makes nothing of that
    name), `altered` (its SQL differs) or `missing`."""

    what: str
    found: SchemaObject | None
    wanted: SchemaObject | None

    def __str__(self) -> str:
        if self.what == "foreign":
            return f"a {self.found} that vocabgame does not create"
        if self.what == "altered":
            return f"a {self.found} that differs from the one vocabgame creates"
        return f"no {self.wanted}, which vocabgame creates"


def schema_problems(conn: sqlite3.Connection, version: int) -> list[SchemaProblem]:
    """What in `conn`'s schema differs from what vocabgame creates at `version` (a known one):
    foreign objects first, then altered ones, then missing ones, each by name."""
    found = objects(conn)
    wanted = expected(version)
    wanted_by_name = {(o.type, o.name): o for o in wanted}
    found_by_name = {(o.type, o.name): o for o in found}
    problems = []
    for obj in sorted(found - wanted):
        twin = wanted_by_name.get((obj.type, obj.name))
        problems.append(SchemaProblem("foreign" if twin is None else "altered", obj, twin))
    problems.sort(key=lambda p: p.what != "foreign")
    for obj in sorted(wanted - found, key=lambda o: (o.type != "table", o.type, o.name)):
        if (obj.type, obj.name) not in found_by_name:
            problems.append(SchemaProblem("missing", None, obj))
    return problems


def store_problem(path: Path) -> str | None:
    """None when the file at `path` is a vocabgame store: a SQLite database of a schema version
    this vocabgame knows (1 to SCHEMA_VERSION), passing `PRAGMA integrity_check`, with exactly
    the objects vocabgame creates for that version (no foreign trigger, view, table or index,
    none altered or missing). Otherwise what it is instead, as a phrase that completes
    "<path> is not a vocabgame store: …". Reads the file only, with a read-only connection that
    trusts nothing in its schema."""
    if not path.is_file():
        return "it is not a file"
    if path.stat().st_size == 0:
        return "it is empty"
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        return f"it cannot be opened ({exc})"
    try:
        # Nothing in a stranger's schema (a view's or a trigger's functions) runs here.
        conn.execute("PRAGMA trusted_schema=OFF")
        return _problem(conn)
    except sqlite3.Error as exc:
        return f"it cannot be read as a database ({exc})"
    finally:
        conn.close()


def _problem(conn: sqlite3.Connection) -> str | None:
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        return (
            f"its schema version is {version}, newer than this vocabgame's {SCHEMA_VERSION} "
            "(upgrade vocabgame to use it)"
        )
    if version < 1:
        tables = conn.execute("SELECT COUNT(*) FROM sqlite_schema").fetchone()[0]
        if not tables:
            return "it is an empty database"
        return f"its schema version is {version}, which no vocabgame store has"
    integrity = [row[0] for row in conn.execute("PRAGMA integrity_check")]
    if integrity != ["ok"]:
        more = f" and {len(integrity) - 1} more" if len(integrity) > 1 else ""
        return f"it fails SQLite's integrity check ({integrity[0]}{more})"
    problems = schema_problems(conn, version)
    if problems:
        more = f" (and {len(problems) - 1} more difference(s))" if len(problems) > 1 else ""
        return f"it holds {problems[0]}{more}"
    return None
