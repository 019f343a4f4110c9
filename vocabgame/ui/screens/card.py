"""One deck item shown as a card, in a modal: what the lab's "taught by" line opens."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from vocabgame.model import Deck, Given

# The fields of each kind of item worth reading on a card, in reading order.
_FIELDS = (
    ("term", ""),
    ("definition", ""),
    ("statement", ""),
    ("prompt", ""),
    ("distinction", ""),
    ("caveat", "Caveat: "),
    ("example", "Example: "),
    ("answer", "Answer: "),
    ("mistake", "Common mistake: "),
    ("explanation", ""),
)


def _with_choices(prompt: str, given: tuple[Given, ...]) -> str:
    """A calculation's prompt with each placeholder showing the values it may take."""
    try:
        return prompt.format(**{g.name: "/".join(label for label, _ in g.options) for g in given})
    except (KeyError, IndexError, ValueError):
        return prompt


def card_text(deck: Deck, item_id: str) -> Text:
    """The item's own words, as plain text (never markup), with its deck and sources."""
    item = deck.item(item_id)
    if item is None:
        return Text(f"No item {item_id!r} in the deck {deck.title!r}.")
    out = Text(f"{deck.title} / {item_id}\n", style="dim")
    for name, lead in _FIELDS:
        value = getattr(item, name, None)
        given = getattr(item, "given", ())
        if name == "prompt" and isinstance(value, str) and given:
            value = _with_choices(value, given)
        if isinstance(value, str) and value.strip():
            style = "bold" if name == "term" else ""
            out.append(f"\n{lead}{value.strip()}\n", style=style)
    for key in getattr(item, "sources", ()):
        source = deck.sources.get(key)
        if source is not None:
            out.append(f"\nSource: {source.title} {source.url}", style="dim")
    return out


class CardScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    CardScreen { align: center middle; }
    CardScreen > VerticalScroll {
        width: 76; height: auto; max-height: 90%; padding: 0 1;
        border: round $accent; background: $surface;
    }
    """
    BINDINGS = [Binding("escape,q,enter,c", "close", "Close", tooltip="close the card")]

    def __init__(self, deck: Deck, item_id: str) -> None:
        super().__init__()
        self.deck = deck
        self.item_id = item_id

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(card_text(self.deck, self.item_id), id="card-text")
            yield Static("Escape closes the card.", classes="dim")

    def action_close(self) -> None:
        self.dismiss()
