"""Where vocabgame keeps things. Nothing here runs at import time: callers pass paths in."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from pathlib import Path

APP_NAME = "vocabgame"
DATA_DIR_ENV = "VOCABGAME_DATA_DIR"
DECKS_ENV = "VOCABGAME_DECKS"
# The installed package's folder (vocabgame is always installed as files, never zipped).
_PACKAGE = Path(__file__).resolve().parent


def default_data_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """The data folder: $VOCABGAME_DATA_DIR, else the platform's user data folder."""
    if environ.get(DATA_DIR_ENV):
        return Path(environ[DATA_DIR_ENV]).expanduser()
    from platformdirs import user_data_path

    return user_data_path(APP_NAME, appauthor=False)


def builtin_decks_dir() -> Path:
    """The decks that ship with vocabgame: inside the wheel, or the checkout's decks/ folder
    when running from source (an editable install)."""
    packaged = _PACKAGE / "builtin_decks"
    if packaged.is_dir():
        return packaged
    return _PACKAGE.parent / "decks"


def schema_path() -> Path:
    """The JSON Schema of deck format v1, shipped inside the package."""
    return _PACKAGE / "deck" / "schema" / "deck-v1.schema.json"


def deck_folders(
    data_dir: Path, extra: list[Path], environ: Mapping[str, str] = os.environ
) -> list[Path]:
    """Folders searched for decks, in order: built-in, --decks, $VOCABGAME_DECKS, <data>/decks."""
    from_env = [Path(p).expanduser() for p in environ.get(DECKS_ENV, "").split(os.pathsep) if p]
    return [builtin_decks_dir(), *extra, *from_env, data_dir / "decks"]


def folder_writable(folder: Path) -> bool:
    """Whether a file can be made in `folder` now, tried by making and removing one (the
    permission bits do not say it for root, a read-only mount or an immutable folder)."""
    import tempfile  # here: it loads `random`, which commands such as validate never need

    try:
        fd, probe = tempfile.mkstemp(prefix=".vocabgame-probe-", dir=folder)
    except OSError:
        return False
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)
    return True
