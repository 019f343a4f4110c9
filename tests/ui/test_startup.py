"""Opening the game: the cyclic garbage collector is paused while the game opens, and what
opening built is frozen once the first screen is shown (see `vocabgame.cli.run_app`)."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from vocabgame import cli
from vocabgame.ui.app import VocabApp

from ..conftest import DATA


@pytest.fixture
def collector() -> Iterator[None]:
    """Leaves the collector as it found it: enabled, nothing frozen."""
    yield
    gc.unfreeze()
    gc.enable()


def test_the_cli_opens_the_game_with_the_collector_paused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, collector: None
) -> None:
    seen: list[bool] = []

    def run(self: VocabApp) -> None:
        seen.append(gc.isenabled())

    monkeypatch.setattr(cli.terminal, "terminal_problem", lambda *args: None)
    monkeypatch.setattr(VocabApp, "run", run)
    assert cli.main(["--data-dir", str(tmp_path / "data"), "--decks", str(DATA / "ui")]) == 0
    assert seen == [False]
    assert gc.isenabled()  # and on again once the game is over


def test_a_game_that_cannot_open_leaves_the_collector_on(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    collector: None,
) -> None:
    monkeypatch.setattr(cli.terminal, "terminal_problem", lambda *args: "no terminal here")
    assert cli.main(["--data-dir", str(tmp_path / "data")]) != 0
    assert "no terminal here" in capsys.readouterr().err
    assert gc.isenabled()


async def test_the_first_screen_freezes_what_opening_built_and_restarts_the_collector(
    make_app: Callable[..., VocabApp], collector: None
) -> None:
    app = make_app()
    gc.disable()  # as the CLI leaves it
    async with app.run_test() as pilot:
        await pilot.pause()
        assert gc.isenabled()
        assert gc.get_freeze_count() > 0
        assert "Deck" in str(app.screen.query_one("DataTable").ordered_columns[0].label)


async def test_an_app_started_with_the_collector_on_freezes_nothing(
    make_app: Callable[..., VocabApp], collector: None
) -> None:
    frozen = gc.get_freeze_count()
    async with make_app().run_test() as pilot:
        await pilot.pause()
        assert gc.isenabled()
        assert gc.get_freeze_count() == frozen
