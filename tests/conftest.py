from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


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
