"""Fixtures for playing the app the way a player does: a session on a temporary data folder,
a small real deck, a clock the test moves, and a seed for every shuffle."""

from __future__ import annotations

import io
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text
from textual.widgets import DataTable, OptionList, Static

from vocabgame.deck import load_catalog
from vocabgame.play import Session
from vocabgame.store import DB_NAME, Store
from vocabgame.ui.app import VocabApp

from ..conftest import DATA

START = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


class Clock:
    """A clock that stands still until the test moves it."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> None:
        self.now += timedelta(**kwargs)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def make_session(data_dir: Path, clock: Clock) -> Callable[..., Session]:
    """Open a session on the test's data folder, as a fresh start of the game would."""
    opened: list[Session] = []

    def make(folders: list[Path] | None = None) -> Session:
        store = Store.open(data_dir / DB_NAME)
        catalog = load_catalog(folders or [DATA / "ui"])
        session = Session(store, catalog, clock=clock, tz=UTC, fuzz=False)
        opened.append(session)
        return session

    yield make
    for session in opened:
        session.close()


@pytest.fixture
def make_app(make_session: Callable[..., Session]) -> Callable[..., VocabApp]:
    def make(**kwargs: object) -> VocabApp:
        folders = kwargs.pop("folders", None)
        kwargs.setdefault("seed", 7)
        # Tests press keys faster than a person reads; the double-Enter test sets it back.
        kwargs.setdefault("settle_seconds", 0)
        return VocabApp(make_session(folders), **kwargs)  # type: ignore[arg-type]

    return make


def plain(renderable: object, width: int = 200) -> str:
    """A Rich renderable as the plain text it shows (wide, so lines do not wrap); a visual
    that draws one (`laid_out_once`) as the text of what it draws."""
    renderable = getattr(renderable, "renderable", renderable)
    if isinstance(renderable, str | Text):
        return str(renderable)
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return "\n".join(line.rstrip() for line in console.export_text().splitlines())


def screen_text(app: VocabApp) -> str:
    """Everything the current screen shows in its text widgets and choice lists."""
    parts: list[str] = []
    for widget in app.screen.query("*"):
        if not widget.display:
            continue
        if isinstance(widget, Static):
            parts.append(plain(widget.content))
        elif isinstance(widget, DataTable):
            for row in range(widget.row_count):
                parts.append("  ".join(str(cell) for cell in widget.get_row_at(row)))
        elif isinstance(widget, OptionList):
            parts.extend(
                plain(widget.get_option_at_index(i).prompt) for i in range(widget.option_count)
            )
    return "\n".join(parts)
