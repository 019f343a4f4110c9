from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent


def pytest_configure(config: pytest.Config) -> None:
    """Compile the game's modules once, before the workers start. Where the environment says
    not to write bytecode (PYTHONDONTWRITEBYTECODE), every worker and every `vocabgame`
    process a test starts compiled them all again: about 0.3 s of CPU a process, over a
    hundred processes a run. An explicit compile still writes the caches (to `__pycache__`,
    which git ignores), and every Python reads them whatever that setting says."""
    if hasattr(config, "workerinput"):  # an xdist worker: the controller has done it
        return
    import compileall

    for package in ("vocabgame", "benchmarks"):
        compileall.compile_dir(ROOT / package, quiet=2)


@pytest.fixture(autouse=True)
def _isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own data folder and never sees the player's real one."""
    data_dir = tmp_path / "data"
    monkeypatch.setenv("VOCABGAME_DATA_DIR", str(data_dir))
    monkeypatch.delenv("VOCABGAME_DECKS", raising=False)
    return data_dir


@pytest.fixture
def data_dir(_isolated_env: Path) -> Path:
    return _isolated_env


def _share_parsed_css() -> None:
    """Every app a test starts parses the same stylesheets (the game's and each widget's
    default CSS), and Textual keeps what it parsed per app: about a tenth of a second of CPU
    an app, over a thousand apps a run. Parsed rules are kept here for the whole test process
    instead, keyed as Textual keys them plus the theme's variables, which it substitutes as it
    parses. The rule sets are only read once parsed, so apps can share them."""
    from textual.css.stylesheet import Stylesheet

    parse = Stylesheet._parse_rules
    shared: dict[tuple[object, ...], list[object]] = {}

    def parse_rules(
        self: Stylesheet,
        css: str,
        read_from: object,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[object]:
        key = (css, read_from, is_default_rules, tie_breaker, scope, *self._variables.items())
        rules = shared.get(key)
        if rules is None:
            rules = shared[key] = parse(self, css, read_from, is_default_rules, tie_breaker, scope)  # type: ignore[arg-type]
        return rules

    Stylesheet._parse_rules = parse_rules  # type: ignore[assignment,method-assign]


def _game_installed() -> None:
    """The tests run the game in this Python (and start it as `sys.executable -m vocabgame`):
    in one without it and its test extra, say so once instead of a traceback."""
    import importlib.util
    import sys

    if importlib.util.find_spec("textual") is None:
        raise pytest.UsageError(
            f"{sys.executable} cannot import textual, so not the game: the tests run in the"
            " environment the README's test command makes (python3 -m venv .venv &&"
            ' . .venv/bin/activate && pip install -e ".[test]" && pytest)'
        )


_game_installed()
_share_parsed_css()
