"""A predict-then-reveal challenge from the serving lab: the player predicts which way each
figure moves, then sees both setups' numbers and the reason."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from vocabgame.lab import Catalogue
from vocabgame.lab.challenge import DOWN, SAME, UP, WORDS, Challenge, make_challenge
from vocabgame.ui import palette
from vocabgame.ui.widgets.feedback import hanging

KEYS = {"1": UP, "2": DOWN, "3": SAME}


class ChallengeScreen(ModalScreen[tuple[int, int] | None]):
    """Dismissed with (right, asked) once revealed, or None when left before the reveal."""

    DEFAULT_CSS = """
    ChallengeScreen { align: center middle; }
    ChallengeScreen > VerticalScroll {
        width: 78; height: auto; max-height: 100%; padding: 0 1;
        border: round $accent; background: $surface;
    }
    """
    BINDINGS = [
        Binding("1", "guess('1')", "Up", tooltip="predict: goes up"),
        Binding("2", "guess('2')", "Down", tooltip="predict: goes down"),
        Binding("3", "guess('3')", "Same", tooltip="predict: stays about the same"),
        Binding("enter,escape", "close", "Close", tooltip="close (after the reveal)"),
    ]

    def __init__(self, challenge: Challenge) -> None:
        super().__init__()
        self.challenge = challenge
        self.guesses: list[str] = []

    @classmethod
    def for_seed(cls, catalogue: Catalogue, seed: int) -> ChallengeScreen:
        return cls(make_challenge(catalogue, seed))

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(id="challenge-text")

    def on_mount(self) -> None:
        self.draw()

    @property
    def revealed(self) -> bool:
        return len(self.guesses) == len(self.challenge.asks)

    def draw(self) -> None:
        ch = self.challenge
        out = Text("Predict, then see\n\n", style="bold")
        out.append(ch.prompt + "\n")
        for ask, guess in zip(ch.asks, self.guesses, strict=False):
            out.append(f"\n{ask.label}: you said it {WORDS[guess]}.")
        if not self.revealed:
            ask = ch.asks[len(self.guesses)]
            out.append(f"\n\n{ask.label}: 1 up, 2 down, 3 about the same?", style="bold")
        else:
            out.append("\n\nThe lab says:", style="bold")
            # A verdict's second line hangs under its first, past the mark.
            verdicts = hanging(
                (
                    Text(
                        "  ✓ right: " if v.right else "  ✗ wrong: ",
                        style=palette.right() if v.right else palette.wrong(),
                    ),
                    Text(v.ask.moved()),
                )
                for v in ch.grade(self.guesses)
            )
            tail = Text("\n" + ch.reason + "\n")
            tail.append("\nAn estimate from a roofline model. Enter closes.", style="dim")
            self.query_one("#challenge-text", Static).update(Group(out, verdicts, tail))
            return
        self.query_one("#challenge-text", Static).update(out)

    def action_guess(self, key: str) -> None:
        if self.revealed:
            return
        self.guesses.append(KEYS[key])
        self.draw()

    def action_close(self) -> None:
        if not self.revealed:
            self.dismiss(None)
            return
        verdicts = self.challenge.grade(self.guesses)
        self.dismiss((sum(v.right for v in verdicts), len(verdicts)))


__all__ = ["ChallengeScreen", "DOWN", "SAME", "UP"]
