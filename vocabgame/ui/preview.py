"""`vocabgame preview DECK.yaml`: an author plays every question a deck file yields, with the
real question and feedback screens, on a store of its own, and sees each save at once.

The deck file is watched (with `watchfiles`); on a change it is read again and the preview
stays on the same item. While the file does not validate, its problems are shown with
file:line:col, and the preview goes on as soon as they are fixed.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from vocabgame.deck import Catalog, load_text, read_text
from vocabgame.model import Deck
from vocabgame.play import Session
from vocabgame.printable import printable
from vocabgame.problems import DeckError, Problem
from vocabgame.ui.app import VocabApp
from vocabgame.ui.screens.help import HelpScreen, active_key_rows
from vocabgame.ui.screens.round import RoundScreen
from vocabgame.ui.widgets.footer import KeysFooter
from vocabgame.ui.widgets.title import TitleBar

KEYS = "Ctrl+N next item   Ctrl+P previous item   Ctrl+O every face of this item only"


class PreviewScreen(Screen[None]):
    """Under the questions: the file, where the preview is, and the file's problems."""

    BINDINGS = [
        Binding("enter", "play", "Play", tooltip="play from the item the preview is on"),
        Binding("question_mark", "help", "Keys", tooltip="these keys"),
        Binding("q", "app.quit", "Quit", tooltip="quit the preview (nothing was saved)"),
    ]

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with VerticalScroll():
            yield Static(id="preview-where")
            yield Static(id="preview-problems")
        yield KeysFooter()

    where: str = ""
    problems: tuple[Problem, ...] = ()

    def on_mount(self) -> None:
        self.render_state()

    def show(self, where: str, problems: list[Problem]) -> None:
        self.where, self.problems = where, tuple(problems)
        if self.is_mounted:
            self.render_state()

    def render_state(self) -> None:
        self.query_one("#preview-where", Static).update(Text(self.where))
        lines = "\n".join(str(p) for p in self.problems)
        self.query_one("#preview-problems", Static).update(Text(lines, style="bold red"))

    def action_play(self) -> None:
        app = self.app
        assert isinstance(app, PreviewApp)
        app.play_item(app.item_id)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen("Preview", active_key_rows(self)))


class PreviewApp(VocabApp):
    """The game's app showing one deck file's questions; nothing a player has is touched:
    `session` must be on a store of its own."""

    ENABLE_COMMAND_PALETTE = False  # its Ctrl+P is the previous item here
    BINDINGS = [
        *VocabApp.BINDINGS,
        Binding("ctrl+n", "next_item", "Next item", priority=True, tooltip="the next item"),
        Binding("ctrl+p", "previous_item", "Prev item", priority=True, tooltip="the item before"),
        Binding(
            "ctrl+o", "only_item", "This item", priority=True, tooltip="every face of this item"
        ),
    ]

    def __init__(
        self,
        session: Session,
        path: Path,
        *,
        item: str | None = None,
        watching: bool = True,
        settle_seconds: float = 0.25,
    ) -> None:
        super().__init__(session, settle_seconds=settle_seconds)
        self.path = path
        self.item_id = item
        self.watching = watching
        self.shown: Deck | None = None
        self.problems: list[Problem] = []
        self.sub_title = f"preview of {path}"

    def open(self) -> None:
        self.push_screen(PreviewScreen(), callback=None)
        self.call_after_refresh(self.start)

    def start(self) -> None:
        self.reload()
        if self.shown is not None and self.item_id is None:
            self.item_id = next(self.shown.items()).id
        if self.shown is not None:
            self.play_item(self.item_id)
        if self.watching:
            self.run_worker(self._watch(), exclusive=True, group="watch")

    async def _watch(self) -> None:
        from watchfiles import awatch

        target = self.path.resolve()
        # The folder, not the file: editors save by writing a new file and renaming it.
        async for changes in awatch(target.parent, debounce=200, recursive=False):
            if any(Path(changed).resolve() == target for _, changed in changes):
                self.reload(resume=True)

    # -- reading the file -------------------------------------------------------------------

    def reload(self, resume: bool = False) -> None:
        """Read the file again; on success play on from the same item, else show why not."""
        self.item_id = self.current_item()
        try:
            deck, problems = load_text(read_text(self.path), str(self.path))
        except DeckError as exc:
            deck, problems = None, list(exc.problems)
        errors = [p for p in problems if p.severity == "error"]
        self.problems = errors
        if deck is None or errors:
            self.shown = None
            if isinstance(self.screen, RoundScreen):
                self.pop_screen()
            self.preview_screen.show(
                "The file does not validate; the preview goes on when it does. Save the file "
                "after fixing:",
                errors,
            )
            return
        self.shown = deck
        self.session.catalog = Catalog((deck,), ())
        ids = [item.id for item in deck.items()]
        if self.item_id not in ids:
            self.item_id = ids[0] if ids else None
        self.preview_screen.show(self.where(), [])
        if resume:
            self.notify(printable(f"{self.path.name} reloaded."), markup=False, timeout=2)
            self.play_item(self.item_id)

    @property
    def preview_screen(self) -> PreviewScreen:
        return next(s for s in self.screen_stack if isinstance(s, PreviewScreen))

    def where(self) -> str:
        assert self.shown is not None
        ids = [item.id for item in self.shown.items()]
        number = ids.index(self.item_id) + 1 if self.item_id in ids else 0
        return (
            f"{self.shown.title}: item {number} of {len(ids)} ({self.item_id}). Nothing is saved.\n"
            f"Enter: play from here   {KEYS}   q: quit"
        )

    # -- moving around ---------------------------------------------------------------------

    def play_item(self, item_id: str | None, only: bool = False) -> None:
        if self.shown is None:
            self.bell()
            return
        self.item_id = item_id
        round_ = self.session.preview(self.shown.id, item_id, only=only)
        self.preview_screen.show(self.where(), [])
        if isinstance(self.screen, RoundScreen):
            self.switch_screen(RoundScreen(round_))
        else:
            while not isinstance(self.screen, PreviewScreen):
                self.pop_screen()
            self.push_screen(RoundScreen(round_))

    def current_item(self) -> str | None:
        screen = self.screen
        if isinstance(screen, RoundScreen):
            question = screen.round.question()
            if question is not None:
                return question.key.item_id
        return self.item_id

    def _step(self, by: int) -> None:
        if self.shown is None:
            self.bell()
            return
        ids = [item.id for item in self.shown.items()]
        here = self.current_item()
        index = ids.index(here) if here in ids else 0
        self.play_item(ids[max(0, min(len(ids) - 1, index + by))])

    def action_next_item(self) -> None:
        self._step(1)

    def action_previous_item(self) -> None:
        self._step(-1)

    def action_only_item(self) -> None:
        self.play_item(self.current_item(), only=True)
