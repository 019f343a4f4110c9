"""The command line's seams: every registered command parses and has help, a setting's option
comes from its Spec, `play --mode` from the mode registry, and a run builds only its own
command's options."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from vocabgame import paths
from vocabgame.cli import build_parser, main
from vocabgame.cli import play as play_command
from vocabgame.cli import settings as settings_command
from vocabgame.cli.commands import COMMANDS
from vocabgame.model import FaceKey
from vocabgame.play.modes import Mode, PlanContext, offered, register, unregister

NAMES = [command.name for command in COMMANDS]


@pytest.fixture(autouse=True)
def _no_builtin_decks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Built-in decks are edited by others while these tests run; stats reads none of them."""
    empty = tmp_path / "builtin"
    empty.mkdir()
    monkeypatch.setattr(paths, "builtin_decks_dir", lambda: empty)


def test_the_registry_is_what_the_parser_offers() -> None:
    parser = build_parser()
    (action,) = [a for a in parser._actions if a.dest == "command"]
    assert list(action.choices) == NAMES  # type: ignore[arg-type]
    assert len(set(NAMES)) == len(NAMES)
    assert not [c.name for c in COMMANDS if c.uses_data_folder and c.reads_files_only]


@pytest.mark.parametrize("name", NAMES)
def test_every_registered_command_has_help(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--data-dir", str(tmp_path / "data"), name, "--help"])
    assert caught.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: vocabgame {name} [-h] [--data-dir DIR] [--decks DIR]")
    assert out.count("-h, --help") == 1
    assert not (tmp_path / "data").exists()  # asking for help writes nothing


def test_the_top_help_lists_every_command_with_its_help_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--help"])
    assert caught.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    for command in COMMANDS:
        assert f"{command.name} {' '.join(command.help.split())}" in out


# -- settings: each option is a Spec's flag -----------------------------------------------------


@pytest.fixture
def theme_without_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    """The theme setting as if it had no flag: changed on the settings screen only."""
    specs = tuple(replace(s, flag="") if s.key == "theme" else s for s in settings_command.SPECS)
    monkeypatch.setattr(settings_command, "SPECS", specs)


def test_each_settings_option_is_its_specs_flag(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["settings", "--help"])
    out = capsys.readouterr().out
    for spec in settings_command.SPECS:
        assert spec.flag and spec.flag in out
        assert " ".join(spec.help.split()) in " ".join(out.split())


def test_a_spec_without_a_flag_breaks_no_command(
    theme_without_flag: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = str(tmp_path / "data")
    with pytest.raises(SystemExit) as caught:
        main(["--data-dir", data, "settings", "--help"])
    assert caught.value.code == 0
    out = capsys.readouterr().out
    assert "--theme" not in out and "--round-size" in out
    assert main(["--data-dir", data, "stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["reviews"] == 0
    assert main(["--data-dir", data, "settings", "--round-size", "7"]) == 0
    shown = capsys.readouterr().out
    assert "round size         7" in shown and "theme              textual-dark" in shown
    with pytest.raises(SystemExit) as caught:
        main(["--data-dir", data, "settings", "--theme", "nord"])
    assert caught.value.code == 2


# -- play --mode: from the mode registry --------------------------------------------------------


class Blitz(Mode):
    """A toy mode with a command-line name other than its stored id."""

    id = "blitz-stored"
    name = "blitz"
    help = "a toy mode, offered because it has a help line"
    title = "Blitz"
    description = "A toy."

    def plan(self, ctx: PlanContext) -> list[FaceKey]:
        return []


@pytest.fixture
def blitz() -> Iterator[Mode]:
    mode = register(Blitz())
    yield mode
    unregister(mode.id)


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The mode each `vocabgame play` would open the game in, instead of opening it."""
    modes: list[str] = []

    def run_app(data_dir: Path, folders: list[Path], **kwargs: object) -> int:
        modes.append(str(kwargs["mode"]))
        return 0

    monkeypatch.setattr(play_command, "run_app", run_app)
    return modes


def test_play_offers_the_registrys_modes_and_their_help(
    blitz: Mode, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    names = [m.name or m.id for m in offered()]
    assert "learn" in names and "blitz" in names
    assert "--mode {" + ",".join(names) + ",review,blitz-stored}" in out
    for mode in offered():
        assert f"{mode.name or mode.id}: {' '.join(mode.help.split())}" in out


@pytest.mark.parametrize(
    ("typed", "stored"),
    [("learn", "review"), ("review", "review"), ("blitz", "blitz-stored"), ("drill", "drill")],
)
def test_play_mode_is_started_by_its_stored_id(
    typed: str, stored: str, blitz: Mode, started: list[str], tmp_path: Path
) -> None:
    assert main(["--data-dir", str(tmp_path / "data"), "play", "--mode", typed]) == 0
    assert started == [stored]


def test_play_starts_learn_by_default(started: list[str], tmp_path: Path) -> None:
    assert main(["--data-dir", str(tmp_path / "data"), "play"]) == 0
    assert started == ["review"]


def test_a_mode_with_no_help_line_is_not_offered(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["play", "--mode", "misses"])
    assert caught.value.code == 2
    assert "argument --mode: invalid choice: 'misses'" in capsys.readouterr().err


# -- start-up: only the command being run is built -----------------------------------------------


def test_a_command_builds_only_its_own_options(tmp_path: Path) -> None:
    """`validate` neither builds `play`'s options nor loads the mode registry they come from."""
    body = f"""
import sys
from vocabgame.cli import main
assert main(["validate", {str(tmp_path)!r}]) == 1
assert "vocabgame.play.modes" not in sys.modules, "play's options were built"
"""
    result = subprocess.run(
        [sys.executable, "-c", body], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
