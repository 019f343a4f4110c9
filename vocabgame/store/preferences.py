"""The player's settings, one JSON value per key."""

from __future__ import annotations

import json
from datetime import datetime

from vocabgame.settings import Settings
from vocabgame.srs import (
    PARAMETERS_KEY,
    ROLLOVER_KEY,
    ParameterHistory,
    RolloverHistory,
    as_utc,
    parameter_history,
    rollover_history,
)
from vocabgame.store.errors import StoreDamaged, StoreError
from vocabgame.store.part import Part, reads


class Preferences(Part):
    """The player's settings, one JSON value per key."""

    @reads
    def read(self) -> tuple[Settings, tuple[str, ...]]:
        """The settings, and one sentence for each damaged value that fell back to its default."""
        rows = self.conn.execute("SELECT key, value FROM settings")
        return Settings.from_stored(dict(rows))

    def save(self, settings: Settings, now: datetime | None = None) -> RolloverHistory:
        """Store every setting in one transaction; given `now`, the rollover hour of
        `settings` comes into force from then in that transaction (see `keep_rollover`).
        Returns the rollover history in force after."""
        history, entry = self._rollover_entry(settings.rollover_hour, now)
        rows = [(key, json.dumps(value)) for key, value in settings.as_dict().items()]
        if entry is not None:
            rows.append((ROLLOVER_KEY, json.dumps(entry)))
        with self.transaction() as conn:
            conn.executemany(
                "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value=excluded.value",
                rows,
            )
        return history if entry is None else rollover_history(entry)[0]

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

    @reads
    def rollover(self) -> tuple[RolloverHistory, str | None]:
        """The day rollover hours in force over time (`srs.rollover_history`): none stored, or
        damaged, is 24-hour periods throughout (with one sentence when damaged)."""
        return rollover_history(self.get(ROLLOVER_KEY))

    def keep_rollover(self, hour: int, now: datetime) -> RolloverHistory:
        """Put `hour` in force from `now` unless it is in force already, and return the
        history then in force. Answers saved before keep the rule they were scheduled with,
        so replaying them (`vocabgame check`) remakes what play made. A store that cannot be
        written now keeps its history (the next call tries again); a damaged one raises."""
        history, entry = self._rollover_entry(hour, now)
        if entry is None or self._store.read_only is not None:
            return history
        try:
            self.set(ROLLOVER_KEY, entry)
        except StoreDamaged:
            raise
        except StoreError:
            return history
        return rollover_history(entry)[0]

    def _rollover_entry(
        self, hour: int, now: datetime | None
    ) -> tuple[RolloverHistory, dict[str, object] | None]:
        """The history in force, and the value to store to put `hour` in force from `now`
        (None: nothing to change, `hour` is in force or no `now` is given)."""
        history, problem = self.rollover()
        if now is None or (problem is None and history and history[-1][1] == hour):
            return history, None
        value = self.get(ROLLOVER_KEY) if problem is None else None
        entries = list(value["history"]) if isinstance(value, dict) else []
        entries.append({"since": as_utc(now).isoformat(), "hour": hour})
        return history, {"history": entries}
