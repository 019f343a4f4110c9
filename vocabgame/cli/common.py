"""What every command shares: how a command is declared, the exit codes, one-sentence errors,
JSON output, and opening the store or a session with the error a player can act on."""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import stat
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from vocabgame.printable import printable
from vocabgame.reading.files import special_kind

if TYPE_CHECKING:
    from vocabgame.play.session import Session
    from vocabgame.settings import Settings
    from vocabgame.store import Store

EXIT_OK, EXIT_PROBLEM, EXIT_USAGE = 0, 1, 2


class Where:
    """Where a command looks: the player's folder (their store, backups and lock), the deck
    folders, the --decks given, and the data folder every player shares (`root`: the
    registry of players, decks/ and deck-cache/; the default player's folder is it)."""

    __slots__ = ("data_dir", "extra_decks", "folders", "player", "root")

    def __init__(
        self,
        data_dir: Path,
        folders: list[Path],
        extra_decks: list[Path],
        root: Path | None = None,
        player: str | None = None,
    ) -> None:
        self.data_dir, self.folders, self.extra_decks = data_dir, folders, extra_decks
        self.root = data_dir if root is None else root
        self.player = player  # the --player given, as typed (None: the default player)


class Command:
    """One `vocabgame` command: its name and help, the options it takes (added only when it
    is the command being parsed, with the player's settings for help texts that show them),
    the function that runs it, and what it opens.

    `uses_data_folder`: it opens the progress database, so it holds the data folder's lock
    shared while it runs (a restore takes the lock alone). `reads_files_only`: it reads only
    the files it is given, so not even where the data folder would be is worked out."""

    # A plain class, not a dataclass: making one at import costs more than the whole parse.
    __slots__ = (
        "description",
        "help",
        "name",
        "options",
        "reads_files_only",
        "run",
        "uses_data_folder",
    )

    def __init__(
        self,
        name: str,
        help: str,
        description: str,
        options: Callable[[argparse.ArgumentParser, Settings], None],
        run: Callable[[argparse.Namespace, Where], int],
        *,
        uses_data_folder: bool = False,
        reads_files_only: bool = False,
    ) -> None:
        self.name, self.help, self.description = name, help, description
        self.options, self.run = options, run
        self.uses_data_folder, self.reads_files_only = uses_data_folder, reads_files_only

    def __repr__(self) -> str:
        return f"Command({self.name!r})"


def no_options(parser: argparse.ArgumentParser, settings: Settings) -> None:
    """For a command that takes only the options every command takes."""


def err(message: str) -> None:
    """One sentence on standard error; control characters in it (a file name's) are escaped."""
    print(f"vocabgame: {printable(message)}", file=sys.stderr)


def not_a_regular_file(path: Path) -> str | None:
    """Why `path` must not be read (a named pipe would be waited on for ever, a device such as
    /dev/zero read for ever), as one sentence; None for a regular file, a folder or a missing
    path, which the read itself reports."""
    try:
        mode = os.stat(path).st_mode  # follows a link: what counts is what it points to
    except OSError:
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return f"{path} is {special_kind(mode)}; only regular files are read"


def print_json(value: object) -> None:
    """What a --json or --format json command prints: the value, indented by two."""
    import json  # here: only the commands asked for JSON need it

    print(json.dumps(value, indent=2))


def open_store(data_dir: Path) -> Store | None:
    """The store, or None after printing the one sentence that says why it cannot be used."""
    from vocabgame.store import DB_NAME, Store, StoreError

    try:
        return Store.open(data_dir / DB_NAME)
    except StoreError as exc:
        store_error(data_dir, exc)
        return None


def store_error(data_dir: Path, exc: Exception) -> None:
    """Print why the store cannot be opened; when it is damaged, name the newest backup."""
    from vocabgame.backup import damage_hint

    hint = damage_hint(data_dir)
    err(f"{exc} {hint}" if hint else str(exc))


def open_session(data_dir: Path, folders: list[Path], root: Path | None = None) -> Session | None:
    """The session of the store in `data_dir` (decks cached in the data folder `root`
    every player shares), or None after printing the one sentence that says why it cannot
    be had."""
    from vocabgame.play import open_session as open_play_session
    from vocabgame.store import StoreError

    try:
        return open_play_session(data_dir, folders, cache_dir=root)
    except StoreError as exc:
        store_error(data_dir, exc)
        return None


@contextlib.contextmanager
def rare_collections() -> Iterator[None]:
    """Checking decks, or reading them and the store for the stats, builds trees and rows
    that reference counting frees, with next to no cycles among them, so the collector (run
    every 700 new objects) would only walk them again and again: while this lasts it runs
    every 100,000 instead (`stats` over a 33k-item deck: 1.45 s -> 1.18 s)."""
    before = gc.get_threshold()
    gc.set_threshold(100_000, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
