"""The player's settings, one JSON value per key."""

from __future__ import annotations

import json

from vocabgame.settings import Settings
from vocabgame.srs import PARAMETERS_KEY, ParameterHistory, parameter_history
from vocabgame.store.part import Part, reads


class Preferences(Part):
    """The player's settings, one JSON value per key."""

    @reads
    def read(self) -> tuple[Settings, tuple[str, ...]]:
        """The settings, and one sentence for each damaged value that fell back to its default."""
        rows = self.conn.execute("SELECT key, value FROM settings")
        return Settings.from_stored(dict(rows))

    def save(self, settings: Settings) -> None:
        """Store every setting in one transaction."""
        with self.transaction() as conn:
            conn.executemany(
                "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value=excluded.value",
                [(key, json.dumps(value)) for key, value in settings.as_dict().items()],
            )

    @reads
    def get(self, key: str, default: object = None) -> object:
        """One stored value as it was saved, without checking it (`settings()` checks)."""
        row = self.conn.execute("SELECT value FROM settings WHERE key=?", (key,)).fetchone()
        return json.loads(row[0]) if row else default

    @reads
    def parameters(self) -> tuple[ParameterHistory, str | None]:
        """The scheduler's parameters in force over time (`srs.parameter_history`): none
        stored, or damaged, is the defaults throughout (with one sentence when damaged)."""
        return parameter_history(self.get(PARAMETERS_KEY))

    def set(self, key: str, value: object) -> None:
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value=excluded.value",
                (key, json.dumps(value)),
            )
