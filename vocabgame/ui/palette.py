"""The colours that carry a meaning (right, wrong, a warning) and the game's own themes.

Textual's themes colour the widgets; text drawn with Rich styles takes these names instead of
"green" and "red", so a theme changes them too. Meaning never rests on colour alone: right and
wrong also carry ✓ and ✗ in every theme."""

from __future__ import annotations

from textual.theme import Theme

# Strong contrast: white on black, pure hues (each above 7:1 against the black).
HIGH_CONTRAST = Theme(
    name="high-contrast",
    primary="#FFFF00",
    secondary="#00FFFF",
    accent="#FFFF00",
    warning="#FFFF00",
    error="#FF8080",
    success="#00FF80",
    foreground="#FFFFFF",
    background="#000000",
    surface="#000000",
    panel="#202020",
    dark=True,
)
# Okabe and Ito's palette, told apart with any colour vision: right in sky blue, wrong in
# vermillion, never green against red.
COLOUR_BLIND_SAFE = Theme(
    name="colour-blind-safe",
    primary="#0072B2",
    secondary="#56B4E9",
    accent="#E69F00",
    warning="#F0E442",
    error="#D55E00",
    success="#56B4E9",
    foreground="#F0F0F0",
    background="#101418",
    surface="#182028",
    panel="#202830",
    dark=True,
)
THEMES = (HIGH_CONTRAST, COLOUR_BLIND_SAFE)

# With Textual's own themes: the terminal's green, red and yellow, as the player's terminal
# colours them.
_ANSI = {"right": "green", "wrong": "red", "warn": "yellow"}
_styles = dict(_ANSI)


def use(theme: Theme) -> None:
    """Take right, wrong and warning colours from `theme` when it is one of the game's own
    (which choose them for contrast or colour vision), else the terminal's own."""
    _styles.update(_ANSI)
    if theme in THEMES:
        _styles["right"] = theme.success or _ANSI["right"]
        _styles["wrong"] = theme.error or _ANSI["wrong"]
        _styles["warn"] = theme.warning or _ANSI["warn"]


def _style(meaning: str, bold: bool) -> str:
    return f"bold {_styles[meaning]}" if bold else _styles[meaning]


def right(bold: bool = True) -> str:
    """The style of a right answer: its ✓, its verdict, the points it won."""
    return _style("right", bold)


def wrong(bold: bool = True) -> str:
    """The style of a wrong answer: its ✗ and its verdict."""
    return _style("wrong", bold)


def warn(bold: bool = True) -> str:
    """The style of a line that asks for attention (a limit reached, a partial run)."""
    return _style("warn", bold)
