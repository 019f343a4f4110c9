"""The player's settings: one frozen, validated object, with every default and range here.

The store keeps each setting as JSON text under its key; `Settings.from_stored` turns those
texts back into a `Settings`, falling back to a setting's default (with one sentence saying
so) when a stored value is damaged or out of range, so a bad value never stops the game.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from datetime import date
from typing import Any


class SettingError(ValueError):
    """A value a setting cannot take; the message is one sentence naming the range."""


@dataclass(frozen=True, slots=True)
class Spec:
    """One setting: its key, what it means, its default and the values it may take."""

    key: str
    label: str  # how `vocabgame settings` and the settings screen name it
    help: str
    default: int | float | str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    flag: str = ""  # its option in `vocabgame settings`, e.g. "--round-size"; "" offers none
    # For text: the value in its kept form, or SettingError naming what is wrong with it.
    form: Callable[[str], str] | None = None
    accepts: str = ""  # for text: what it may be, in the words of `describe`

    def check(self, value: object) -> int | float | str:
        """`value` as this setting's type, or SettingError saying what is allowed."""
        kind = type(self.default)
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                raise SettingError(f"{self.label} is a whole number, not {value!r}")
        elif kind is float and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise SettingError(f"{self.label} is a number, not {value!r}")
        elif kind is str and not isinstance(value, str):
            raise SettingError(f"{self.label} is text, not {value!r}")
        if isinstance(value, float) and not math.isfinite(value):
            # NaN passes every range comparison, so it is refused by name, as are infinities.
            raise SettingError(
                f"{self.label} is a number from {self.minimum:g} to {self.maximum:g}, not {value!r}"
            )
        if isinstance(value, (int, float)):
            low, high = self.minimum, self.maximum
            if (low is not None and value < low) or (high is not None and value > high):
                raise SettingError(f"{self.label}{_number(value)} is outside {low:g} to {high:g}")
            value = kind(value)
        if self.choices and value not in self.choices:
            raise SettingError(f"{self.label} {value!r} is not one of {', '.join(self.choices)}")
        if self.form is not None and isinstance(value, str):
            value = self.form(value)
        return value  # type: ignore[return-value]

    def describe(self) -> str:
        """'0.7 to 0.99, default 0.9', for help texts."""
        if self.choices:
            return f"one of {', '.join(self.choices)}; default {self.default}"
        if self.accepts:
            return self.accepts
        return f"{self.minimum:g} to {self.maximum:g}, default {self.default}"


def _number(value: int | float) -> str:
    """A number for a sentence; one too long for a float (or to print) by its length."""
    if isinstance(value, int) and value.bit_length() > 64:
        return f", a number of about {round(value.bit_length() * 0.30103)} digits,"
    return f" {value:g}"


def _iso_date(text: str) -> str:
    """An interview date as kept: `YYYY-MM-DD`, or "" for none."""
    text = text.strip()
    if not text:
        return ""
    try:
        day: date | None = date.fromisoformat(text)
    except ValueError:
        day = None
    if day is None or len(text) != 10:  # 3.11 also reads "20261220"; one way is kept
        raise SettingError(f"interview date {text!r} is not a date written like 2026-12-20")
    return day.isoformat()


def _names(label: str) -> Callable[[str], str]:
    """A list of deck ids or tags as kept: the names, separated by commas, without spaces."""

    def form(text: str) -> str:
        names = [name.strip() for name in text.split(",")]
        for name in names:
            if any(c.isspace() or not c.isprintable() for c in name):
                raise SettingError(f"{label} {name!r} has a space in it: separate names by commas")
        return ",".join(dict.fromkeys(name for name in names if name))

    return form


def check_interview_date(text: str, today: date) -> None:
    """SettingError when a newly set interview date is in the past: a date kept from before
    may have passed (the plan then ends); a new one must be today or later."""
    if text and date.fromisoformat(text) < today:
        raise SettingError(
            f"interview date {text} is in the past (today is {today.isoformat()}): "
            "give today or a later day, or an empty value for none"
        )


SPECS: tuple[Spec, ...] = (
    Spec(
        "desired_retention",
        "desired retention",
        "the share of reviews you aim to get right; higher means more reviews",
        0.9,
        0.7,
        0.99,
        flag="--retention",
    ),
    Spec(
        "new_per_day",
        "new items a day",
        "new items each deck may start each day (a term counts once, though asked three ways)",
        20,
        0,
        1000,
        flag="--new-per-day",
    ),
    Spec(
        "rollover_hour",
        "day rollover hour",
        "the hour (0-23, your local time) at which a new day starts for the schedule, as in "
        "Anki: an evening answer and the next morning's are a day apart",
        4,
        0,
        23,
        flag="--rollover-hour",
    ),
    Spec("round_size", "round size", "questions in a round", 20, 1, 500, flag="--round-size"),
    Spec(
        "countdown_seconds",
        "countdown seconds",
        "seconds per question where a mode has a countdown",
        30,
        5,
        600,
        flag="--countdown",
    ),
    Spec(
        "interview_minutes",
        "interview minutes",
        "length of a mock interview",
        15,
        1,
        180,
        flag="--interview-minutes",
    ),
    Spec(
        "interview_questions",
        "interview questions",
        "questions in a mock interview",
        12,
        1,
        200,
        flag="--interview-questions",
    ),
    Spec(
        "interview_date",
        "interview date",
        "the day of your real interview: until then each day's round also starts every chosen "
        "item once and reviews what you would forget by the day; home shows your readiness",
        "",
        form=_iso_date,
        accepts="a date like 2026-12-20, empty for none; default none",
        flag="--interview-date",
    ),
    Spec(
        "interview_decks",
        "interview decks",
        "the decks the interview plan covers, by id, separated by commas",
        "",
        form=_names("interview deck"),
        accepts="deck ids like serving,kv-cache; empty for every installed deck, the default",
        flag="--interview-decks",
    ),
    Spec(
        "interview_tags",
        "interview tags",
        "only the items of those decks with these tags, separated by commas",
        "",
        form=_names("interview tag"),
        accepts="tags like latency,batching; empty for every item, the default",
        flag="--interview-tags",
    ),
    Spec(
        "interview_target",
        "interview target",
        "the recall to reach on the interview day: questions predicted below it are reviewed "
        "before the day",
        0.9,
        0.5,
        0.99,
        flag="--interview-target",
    ),
    Spec(
        "drill_retire_after",
        "drill retirement",
        "right answers in a row that retire a confused pair from the confusion drill",
        3,
        1,
        20,
        flag="--drill-retire",
    ),
    Spec(
        "theme",
        "theme",
        "the colours of the game: high-contrast is white on black, colour-blind-safe tells right "
        "from wrong in blue and orange (both keep the ✓ and ✗ marks every theme has)",
        "textual-dark",
        choices=(
            "textual-dark",
            "textual-light",
            "high-contrast",
            "colour-blind-safe",
            "nord",
            "gruvbox",
            "dracula",
            "monokai",
        ),
        flag="--theme",
    ),
)
SPEC = {spec.key: spec for spec in SPECS}


@dataclass(frozen=True, slots=True)
class Settings:
    """Every setting with its value; built only through `Spec.check`, so always in range."""

    desired_retention: float = float(SPEC["desired_retention"].default)
    new_per_day: int = int(SPEC["new_per_day"].default)
    rollover_hour: int = int(SPEC["rollover_hour"].default)
    round_size: int = int(SPEC["round_size"].default)
    countdown_seconds: int = int(SPEC["countdown_seconds"].default)
    interview_minutes: int = int(SPEC["interview_minutes"].default)
    interview_questions: int = int(SPEC["interview_questions"].default)
    interview_date: str = str(SPEC["interview_date"].default)  # "YYYY-MM-DD", or "": none
    interview_decks: str = str(SPEC["interview_decks"].default)  # deck ids, comma-separated
    interview_tags: str = str(SPEC["interview_tags"].default)  # tags, comma-separated
    interview_target: float = float(SPEC["interview_target"].default)
    drill_retire_after: int = int(SPEC["drill_retire_after"].default)
    theme: str = str(SPEC["theme"].default)

    def __post_init__(self) -> None:
        for field in fields(self):
            SPEC[field.name].check(getattr(self, field.name))

    def changed(self, **values: Any) -> Settings:
        """A copy with some settings changed; SettingError names the first bad value."""
        unknown = set(values) - set(SPEC)
        if unknown:
            raise SettingError(f"no setting called {sorted(unknown)[0]!r}")
        checked: dict[str, Any] = {key: SPEC[key].check(value) for key, value in values.items()}
        return replace(self, **checked)

    def as_dict(self) -> dict[str, int | float | str]:
        return {spec.key: getattr(self, spec.key) for spec in SPECS}

    @classmethod
    def from_stored(cls, stored: Mapping[str, str]) -> tuple[Settings, tuple[str, ...]]:
        """Settings from the store's JSON texts. A damaged or out-of-range value falls back
        to its default; each such fall-back is one sentence in the second element."""
        import json  # here: commands that read no store (validate, new) need not load it

        values: dict[str, Any] = {}
        problems: list[str] = []
        for key, text in stored.items():
            spec = SPEC.get(key)
            if spec is None:
                continue  # a setting of a newer or older vocabgame: kept, not used
            try:
                values[key] = spec.check(json.loads(text))
            except (ValueError, TypeError) as exc:
                reason = exc if isinstance(exc, SettingError) else "it is not readable"
                problems.append(
                    f"The stored {spec.label} setting is damaged ({reason}); "
                    f"using the default, {spec.default}."
                )
        return cls(**values), tuple(problems)
