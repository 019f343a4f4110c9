"""The home screen: the decks, what is due and new, the highlighted deck's details, and the
day streak. Every figure counts questions, the unit a round asks in."""

from __future__ import annotations

from typing import cast

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Static

from vocabgame.play import DeckSummary, Home, ModeId
from vocabgame.printable import printable
from vocabgame.store import StoreError
from vocabgame.ui import palette
from vocabgame.ui.commands import HomeCommands
from vocabgame.ui.host import Host, host
from vocabgame.ui.screens.help import HelpScreen, active_key_rows
from vocabgame.ui.screens.settings import SettingsScreen
from vocabgame.ui.widgets.footer import KeysFooter
from vocabgame.ui.widgets.title import TitleBar

LEGEND = (
    "Counts are questions (a term is asked 3 ways). Learned: you will likely still know it in "
    "3 weeks. Due: to review now. New: never answered, playable today ({limit} new items a "
    "deck a day)."
)
START_HERE = " · start here"
# On a short terminal: two lines at 40 columns, where the whole legend takes four of the few
# left for the decks.
SHORT_LEGEND = "Counts are questions. Due: to review now. New: never answered."
REFRESH_SECONDS = 60  # due counts move with the clock while the screen is open
WIDE = 120  # from this width the details stand beside the table, not under it


def details_text(row: DeckSummary) -> Text:
    """The highlighted deck: what to do next first (it must show on a small screen), then
    the progress, then what the deck is about."""
    text = Text()
    text.append(row.title + "\n", style="bold")
    if row.start_here is not None and not row.seen:
        text.append("Start here: the authors' first deck for someone new.\n", style="bold")
    if row.limit_reached:
        text.append(f"All {row.new_limit} new items for today are started. ", style=palette.warn())
        if row.id is not None:
            text.append(f"m: learn {row.more_today} more today", style="bold")
        else:
            text.append("Pick a deck to learn more of it today.")
        if row.due or row.new:
            left = row.due + row.new
            # A round asks one question per item, so what is left may take more than one.
            questions = f"{left} question{'s' * (left != 1)}"
            text.append(
                f" · Enter: play on ({questions} left today, one per item a round)", style="bold"
            )
        elif row.seen:
            text.append(" · p: a practice round", style="bold")
        text.append("\n")
    elif row.due == 0 and row.new == 0 and row.seen:
        text.append(
            "Nothing is due or new: Enter plays a practice round of the questions due soonest.\n",
            style=palette.warn(),
        )
    else:
        text.append("Enter: play a round\n", style="dim")
    text.append(f"{row.seen} of {row.questions} questions answered at least once\n")
    text.append(f"{row.learned} of {row.questions} learned (likely still known in 3 weeks)\n")
    text.append(f"{row.due} due now · {row.new} never answered, playable today\n")
    text.append(
        f"New items started today: {row.started_today} of {row.new_limit} allowed\n", style="dim"
    )
    if row.best is not None:
        text.append(f"Best round: {row.best} points\n", style="dim")
    if row.tags:
        text.append("Tags: ", style="dim")
        text.append(", ".join(row.tags) + "\n")
    if row.description:
        text.append(row.description, style="italic")
    text.rstrip()
    return text


class HomeScreen(Screen[None]):
    COMMANDS = {HomeCommands}  # the palette's play, stats, lab and settings entries
    BINDINGS = [
        Binding(
            "enter",
            "play",
            "Play",
            tooltip="play a round of the highlighted deck (↑ ↓ move the highlight)",
        ),
        Binding(
            "p",
            "practice",
            "Practice",
            tooltip="when nothing is due: a practice round of questions you have answered",
        ),
        Binding(
            "g",
            "modes",
            "Modes",
            tooltip="pick a game mode for the highlighted deck: interview, drill, challenge, cram",
        ),
        Binding(
            "b",
            "browse",
            "Browse",
            tooltip="read the highlighted deck's terms and groups, search them, ask one now",
        ),
        Binding("m", "more", "Learn more", tooltip="learn more new items of the deck today"),
        Binding("s", "settings", "Settings", tooltip="the settings: round size, new items a day …"),
        Binding("t", "stats", "Stats", tooltip="stats of the highlighted deck: due, retention …"),
        Binding("l", "lab", "Lab", tooltip="the serving lab: estimate a setup, take a challenge"),
        Binding(
            "r",
            "reload",
            "Reload decks",
            show=False,
            tooltip="read the deck files again (done by itself when one was saved)",
        ),
        Binding("question_mark", "help", "Keys", tooltip="these keys"),
        Binding("q", "app.quit", "Quit", tooltip="quit (every answer is already saved)"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.home: Home | None = None
        self.columns_for = 0  # the width the table's columns were laid out for
        self.offered: tuple[bool, ...] | None = None  # the keys `check_action` last allowed
        self.placed = False  # whether the highlight has been put on a newcomer's first deck

    @property
    def vocab(self) -> Host:
        return host(self.app)

    def compose(self) -> ComposeResult:
        # The size's classes before the first styling: set on the first resize instead, they
        # would restyle every widget of the screen once more before its first frame.
        self._size_classes(self.app.size.width, self.app.size.height)
        yield TitleBar()
        with Vertical(id="home"):
            yield Static(id="streak")
            yield Static(id="intro")
            yield Static(Text(SHORT_LEGEND), id="intro-short")
            with Horizontal(id="main"):
                yield DataTable(id="decks", cursor_type="row", zebra_stripes=True)
                yield Static(id="details")
            yield Static(id="problems")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#decks", DataTable).focus()
        self.set_interval(REFRESH_SECONDS, self.refresh_home)

    def on_screen_resume(self) -> None:
        # back on top: from another screen, or the picker closed (a mode picked that started
        # took the picker's place, so this screen was not shown in between)
        self.refresh_home()

    def reload_decks(self, force: bool = False) -> None:
        """Read the deck folders again when a file was added, removed or saved (or `force`):
        a deck edited while the game runs is played as it is now, and one that no longer
        validates is listed with its problems instead of vanishing."""
        try:
            if not self.vocab.session.reload_decks(force):
                return
        except StoreError as exc:  # carrying a rename needs a write
            self.app.notify(printable(str(exc)), title="Decks not reloaded", markup=False)
            return
        for notice in self.vocab.session.renames_since_start():
            self.app.notify(printable(notice), markup=False, timeout=8)
        decks = len(self.vocab.session.catalog.decks)
        problems = len({p.path for p in self.vocab.session.catalog.problems})
        said = f"Deck files reloaded: {decks} deck{'s' * (decks != 1)}"
        said += f", {problems} with problems (listed below)." if problems else "."
        self.app.notify(said, timeout=4, markup=False)

    def action_reload(self) -> None:
        self.reload_decks(force=True)
        self.refresh_home()

    def on_resize(self, event: events.Resize) -> None:
        self._size_classes(event.size.width, event.size.height)
        self.call_after_refresh(self._relayout)

    def _size_classes(self, width: int, height: int) -> None:
        self.set_class(width < WIDE, "narrow")
        self.set_class(height < 20, "short")

    def _relayout(self) -> None:
        """Lay the table's columns out again once the new width is known, if it changed."""
        if self.home is not None and self._table_width() != self.columns_for:
            self.show(self.home)

    def refresh_home(self) -> None:
        """Read the decks if their files changed, and every figure afresh (on return to this
        screen, and every minute)."""
        self.reload_decks()
        self.show(self.vocab.session.home())

    # -- drawing ----------------------------------------------------------------------------

    def _table_width(self) -> int:
        return self.query_one("#decks", DataTable).size.width or self.size.width - 2

    def _columns(self, table: DataTable[Text]) -> None:
        width = self._table_width()
        if width == self.columns_for and table.columns:
            return
        self.columns_for = width
        table.clear(columns=True)
        numbers = [("Due", 4), ("New", 4), ("Best", 5)]
        if width >= 56:
            numbers.insert(0, ("Seen", 10))
        if width >= 72:
            numbers.insert(1, ("Learned", 7))
        # Every column gets its width and 2 cells of padding, and the scroll bar 2 cells;
        # the title gets what is left.
        rest = sum(w + 2 for _, w in numbers) + 2 + 2
        table.add_column("Deck", key="deck", width=max(8, width - rest))
        for label, w in numbers:
            table.add_column(Text(label, justify="right"), key=label.lower(), width=w)

    def show(self, home: Home) -> None:
        self.home = home
        days = home.streak_days
        streak = f"Day streak: {days} day{'s' * (days != 1)}" if days else "Day streak: none"
        self.query_one("#intro", Static).update(Text(LEGEND.format(limit=home.new_per_day)))
        answers = f"{home.reviews} answer{'s' * (home.reviews != 1)} so far"
        line = Text(f"{streak} · {answers}")
        if home.decks:  # on a short screen, today's work alone: one line left for the decks
            if self.has_class("short"):
                line = Text(home.today())
            else:
                line = Text.assemble(
                    (home.progress(), "bold"), "\n", f"Today: {home.today()} · ", line
                )
                if home.readiness is not None:  # ready by the interview's day: its own line
                    line.append("\n" + home.readiness.line())
        self.query_one("#streak", Static).update(line)
        table = cast("DataTable[Text]", self.query_one("#decks", DataTable))
        keep = table.cursor_row
        table.clear()
        self._columns(table)
        wide = "seen" in table.columns
        first = home.start_here
        for row in home.decks:
            title = Text(row.title, no_wrap=True, overflow="ellipsis")
            if first is not None and row.id == first.id:
                title.append(START_HERE, style="bold")
            cells = [title]
            if wide:
                cells.append(Text(f"{row.seen}/{row.questions}", justify="right"))
            if "learned" in table.columns:
                cells.append(Text(str(row.learned), justify="right"))
            cells += [
                Text(str(row.due), justify="right", style="bold" if row.due else ""),
                Text(str(row.new), justify="right"),
                Text("—" if row.best is None else str(row.best), justify="right"),
            ]
            table.add_row(*cells, key=row.id or "")
        if home.decks:
            if not self.placed and not home.reviews and first is not None:
                keep = home.decks.index(first)  # a newcomer's Enter plays the first deck
            self.placed = True
            table.move_cursor(row=min(keep, len(home.decks) - 1))
        self.show_details()
        self.show_problems(home)

    def show_problems(self, home: Home) -> None:
        problems = self.query_one("#problems", Static)
        if home.problems:
            count = len(home.problems)
            shown = "\n".join(printable(p) for p in home.problems[:2])
            more = f"\n(and {count - 2} more)" if count > 2 else ""
            problems.update(
                Text(
                    f"{count} deck file{'s' * (count != 1)} could not be loaded; "
                    f"check with: vocabgame validate FILE\n{shown}{more}"
                )
            )
            problems.display = True
        else:
            problems.display = False
        if not home.decks:
            problems.update(
                Text(
                    "No decks found. Add .yaml decks with --decks DIR, or run: vocabgame new my-deck.yaml"
                )
            )
            problems.display = True

    def selected(self) -> DeckSummary | None:
        # None before the table is composed too: Textual may ask `check_action` then (a
        # footer on the screen below, rebuilding as this one is pushed, reads its bindings)
        table = next(iter(self.query("#decks").results(DataTable)), None)
        if self.home is None or table is None or not table.row_count:
            return None
        return self.home.decks[min(table.cursor_row, len(self.home.decks) - 1)]

    def show_details(self) -> None:
        row = self.selected()
        details = self.query_one("#details", Static)
        details.set_class(row is None, "empty")
        if row is not None:
            details.update(details_text(row))
        # Redrawing the footer mounts every key anew: only when a key comes or goes.
        offered = tuple(self.check_action(a, ()) is True for a in ("more", "practice", "browse"))
        if offered != self.offered:
            self.offered = offered
            self.refresh_bindings()

    @on(DataTable.RowHighlighted, "#decks")
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_details()

    # -- keys -------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        row = self.selected()
        if action == "more":
            return row is not None and row.id is not None and row.limit_reached
        if action == "browse":  # a deck's glossary: the all-decks row has none of its own
            return row is not None and row.id is not None
        if action == "practice":  # offered when nothing is due (Enter plays what is)
            return row is not None and row.seen > 0 and row.due == 0
        return True

    @on(DataTable.RowSelected, "#decks")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        self.vocab.play(event.row_key.value or None)

    def action_play(self) -> None:
        row = self.selected()
        if row is not None:
            self.vocab.play(row.id)

    def action_practice(self) -> None:
        row = self.selected()
        if row is not None:
            self.vocab.play(row.id, mode=ModeId.PRACTICE)

    def action_modes(self) -> None:
        from vocabgame.ui.screens.modes import ModePickerScreen

        row = self.selected()
        if row is None:
            return
        deck_id = row.id

        def play(mode: str) -> bool:
            return self.vocab.play(deck_id, mode, levels=picker.levels, instead_of=picker)

        picker = ModePickerScreen(row.title, play)
        self.app.push_screen(picker)

    def action_browse(self) -> None:
        from vocabgame.ui.screens.browse import BrowseScreen

        row = self.selected()
        if row is not None and row.id is not None:
            self.app.push_screen(BrowseScreen(row.id))

    def action_more(self) -> None:
        row = self.selected()
        if row is None or row.id is None or not row.limit_reached:
            return
        try:
            self.vocab.session.learn_more_today(row.id, row.more_today)
        except StoreError as exc:
            self.app.notify(printable(str(exc)), title="Not saved", severity="error", markup=False)
            return
        self.app.notify(
            f"You can start {row.more_today} more new items of {row.title} today.",
            timeout=4,
            markup=False,
        )
        self.refresh_home()

    def action_settings(self) -> None:
        self.app.push_screen(SettingsScreen())

    def action_stats(self) -> None:
        row = self.selected()
        self.vocab.show_stats(row.id if row is not None else None)

    def action_lab(self) -> None:
        self.vocab.show_lab()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen("Home", active_key_rows(self)))
