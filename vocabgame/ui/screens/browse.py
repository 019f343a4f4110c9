"""A deck read before it is asked: its terms and groups of confusable terms in a list a search
narrows, the highlighted one's definition, caveat, example, sources (and a group's
distinction) beside it, and a key that asks its questions now."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from vocabgame.play import ModeId
from vocabgame.play.glossary import Entry, Glossary, glossary
from vocabgame.printable import printable
from vocabgame.store import StoreError
from vocabgame.ui.host import Host, host
from vocabgame.ui.widgets.footer import KeysFooter
from vocabgame.ui.widgets.title import TitleBar

WIDE = 90  # from this width the entry stands beside the list, not under it
PAGE = 200  # entries listed at a time: more than a screenful, far fewer than a big deck's


def entry_label(entry: Entry) -> Text:
    """A list line: a term by its name, a group as "A vs B"."""
    label = Text(entry.title, no_wrap=True, overflow="ellipsis")
    if entry.kind == "group":
        label.append("  group", style="dim")
    return label


def entry_text(entry: Entry) -> Text:
    """The whole entry, as plain text (a deck's words are never markup)."""
    text = Text()
    text.append(entry.title + "\n", style="bold")
    if entry.aliases:
        text.append("Also: " + ", ".join(entry.aliases) + "\n", style="dim")
    if entry.kind == "group":
        text.append("Often confused: " + ", ".join(entry.terms) + "\n", style="dim")
        text.append("\nThe distinction: ", style="bold")
    else:
        text.append("\n")
    text.append(entry.definition + "\n")
    if entry.caveat:
        text.append("\nCaveat: ", style="bold")
        text.append(entry.caveat + "\n")
    if entry.example:
        text.append("\nExample: ", style="bold")
        text.append(entry.example + "\n")
    for source in entry.sources:
        text.append(f"\nSource: {source.title} {source.url}", style="dim")
    count = len(entry.faces)
    text.append(f"\n\nEnter: its {count} question{'s' * (count != 1)} now", style="dim")
    text.append(" (answers kept as practice, no due date moves)", style="dim")
    return text


class EntryList(OptionList):
    """The entries as one line each, listed a page at a time: the next page is added when the
    highlight or the scroll comes within a page of the end of those listed (End lists them
    all), so a deck of 33,000 terms opens with 200 lines made."""

    def __init__(self, *, id: str) -> None:  # noqa: A002 (Textual's own name for it)
        super().__init__(id=id)
        self.source: Sequence[Entry] = ()

    def show(self, entries: Sequence[Entry]) -> None:
        """List `entries` from the first, its first page only, the highlight on the first."""
        self.source = entries
        self.clear_options()
        self.list_to(0)
        if entries:
            self.highlighted = 0

    def list_to(self, index: int) -> None:
        """Add pages until the one after `index` is listed (or every entry is)."""
        listed, wanted = self.option_count, min(len(self.source), index + 1 + PAGE)
        if listed < wanted:
            wanted = min(len(self.source), max(wanted, listed + PAGE))
            self.add_options([Option(entry_label(e)) for e in self.source[listed:wanted]])

    def _update_lines(self) -> None:
        # Textual measures every option's height to allow wrapped prompts; a label is one line
        # (no_wrap), so the lines are counted, not measured (most of 4 s at 33,000 entries).
        if not self.scrollable_content_region:
            return
        cache = self._line_cache
        for index in range(len(cache.heights), self.option_count):
            cache.index_to_line[index] = len(cache.lines)
            cache.heights[index] = 1
            cache.lines.append((index, 0))
        size = Size(
            self.scrollable_content_region.width - self._get_left_gutter_width(), len(cache.lines)
        )
        if size != self.virtual_size:
            self.virtual_size = size
            self._scroll_update(size)

    def watch_highlighted(self, highlighted: int | None) -> None:
        if highlighted is not None:
            self.list_to(highlighted)
        super().watch_highlighted(highlighted)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self.list_to(int(new_value) + self.size.height)

    def action_last(self) -> None:
        self.list_to(len(self.source))
        super().action_last()


class BrowseScreen(Screen[None]):
    DEFAULT_CSS = """
    BrowseScreen #browse { height: 1fr; padding: 0 1; }
    BrowseScreen #search { border: none; height: 1; padding: 0 1; margin: 1 0; }
    BrowseScreen #browse-main { height: 1fr; }
    BrowseScreen #entries { width: 36; height: 1fr; border: none; scrollbar-size-vertical: 1; }
    BrowseScreen #entry-scroll { width: 1fr; height: 1fr; padding: 0 0 0 2; }
    BrowseScreen.narrow #browse-main { layout: vertical; }
    BrowseScreen.narrow #entries { width: 1fr; height: 2fr; }
    BrowseScreen.narrow #entry-scroll { height: 3fr; padding: 0; }
    BrowseScreen #none { color: $text-muted; }
    """
    BINDINGS = [
        Binding(
            "enter", "play", "Ask these", tooltip="a round of the highlighted entry's questions"
        ),
        Binding("slash", "search", "Search", tooltip="type to narrow the list"),
        Binding("escape", "back", "Back", tooltip="clear the search, then back to the decks"),
    ]
    entries: Glossary  # the deck's, made in compose

    def __init__(self, deck_id: str) -> None:
        super().__init__()
        self.deck_id = deck_id
        self.shown: Sequence[Entry] = ()

    @property
    def vocab(self) -> Host:
        return host(self.app)

    def compose(self) -> ComposeResult:
        deck = self.vocab.session.decks_for(self.deck_id)[0]
        self.entries = glossary(deck)
        self.title = f"Browse {deck.title}"
        count = len(self.entries)
        self.sub_title = f"{count} term{'s' * (count != 1)} and groups to read"
        self.set_class(self.app.size.width < WIDE, "narrow")
        yield TitleBar()
        with Vertical(id="browse"):
            yield Input(
                placeholder="search terms, definitions and examples", id="search", validate_on=()
            )
            with Horizontal(id="browse-main"):
                yield EntryList(id="entries")
                with VerticalScroll(id="entry-scroll"):
                    yield Static(id="entry")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.show_matches("")
        self.query_one("#entries", OptionList).focus()

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width < WIDE, "narrow")

    def show_matches(self, query: str) -> None:
        """List the entries matching the search, keeping the highlight on the first."""
        self.shown = self.entries.matching(query)
        self.query_one("#entries", EntryList).show(self.shown)
        self.show_entry()

    def selected(self) -> Entry | None:
        index = self.query_one("#entries", OptionList).highlighted
        if index is None or not self.shown:
            return None
        return self.shown[min(index, len(self.shown) - 1)]

    def show_entry(self) -> None:
        entry = self.selected()
        shown = self.query_one("#entry", Static)
        if entry is not None:
            shown.update(entry_text(entry))
        elif self.entries:
            shown.update(Text("Nothing matches the search. Escape clears it.", style="dim"))
        else:
            shown.update(Text("This deck has no terms or groups of terms to read.", style="dim"))

    @on(Input.Changed, "#search")
    def _search_changed(self, event: Input.Changed) -> None:
        self.show_matches(event.value)

    @on(Input.Submitted, "#search")
    def _search_submitted(self, event: Input.Submitted) -> None:
        self.query_one("#entries", OptionList).focus()

    @on(OptionList.OptionHighlighted, "#entries")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.show_entry()

    @on(OptionList.OptionSelected, "#entries")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.action_play()

    def on_key(self, event: events.Key) -> None:
        # Down from the search moves into the list, as in a browser's search box.
        if event.key == "down" and self.focused is self.query_one("#search", Input):
            self.query_one("#entries", OptionList).focus()
            event.stop()

    def action_search(self) -> None:
        self.query_one("#search", Input).focus()

    def action_back(self) -> None:
        search = self.query_one("#search", Input)
        if search.value:
            search.value = ""
            self.query_one("#entries", OptionList).focus()
            return
        self.dismiss()

    def action_play(self) -> None:
        """A round of the highlighted entry's questions, over this screen: answers are kept as
        practice (cram), so reading first and answering at once moves no due date."""
        from vocabgame.ui.screens.round import RoundScreen

        entry = self.selected()
        if entry is None:
            return
        try:
            round_ = self.vocab.session.start_faces(
                self.deck_id, entry.title, entry.faces, ModeId.CRAM, seed=self.vocab.seed
            )
        except StoreError as exc:
            self.app.notify(printable(str(exc)), title="Cannot start a round", markup=False)
            return
        if round_ is None:
            self.app.notify("It asks no questions.", title="Nothing to play", markup=False)
            return
        self.app.push_screen(RoundScreen(round_))
