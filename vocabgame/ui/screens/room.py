"""A room at a meetup on screen: the open question with its seconds left, the live table of
who answered right, and once the last question has closed, the final ranking.

Every half second `tick` reads the room file again (`RoomPlay.sync`), as each browser tab is
a game of its own; tests move the session clock and call `tick` themselves. Names come from
other players' games, so they are drawn as plain text, never as markup.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from vocabgame.play.outcome import Outcome
from vocabgame.play.room import (
    Phase,
    Room,
    RoomError,
    RoomPlay,
    Standing,
    join_room,
    open_room,
)
from vocabgame.printable import printable
from vocabgame.quiz import Question
from vocabgame.store import StoreError
from vocabgame.ui import palette
from vocabgame.ui.host import host

POLL_SECONDS = 0.5
LEAD_SECONDS = 30  # a room started in the game: time for the others to join
HEADERS = ("#", "player", "right", "seconds", "answers")
MARKS = {True: "✓", False: "✗", None: "·"}


def table_rows(standings: tuple[Standing, ...]) -> list[tuple[str, ...]]:
    """The table's rows as text: rank, player, right, seconds on right answers, marks."""
    return [
        (
            str(s.rank),
            printable(s.name),
            str(s.right),
            f"{s.seconds:.1f}",
            "".join(MARKS[m] for m in s.marks),
        )
        for s in standings
    ]


class RoomScreen(Screen[None]):
    BINDINGS = [
        *(
            Binding(str(n), f"pick({n - 1})", show=False, tooltip=f"answer choice {n}")
            for n in range(1, 10)
        ),
        Binding("escape", "leave", "Leave", tooltip="leave the room (answers are saved)"),
    ]

    def __init__(self, play: RoomPlay) -> None:
        super().__init__()
        self.play = play
        self.last: Outcome | None = None  # the verdict of this player's last answer
        self.problem: str | None = None
        self._drawn: Room | None = None  # the room the table was last drawn from

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(id="title")
            yield Static(id="question")
            yield Static(id="verdict")
            yield DataTable(id="board", cursor_type="none", zebra_stripes=True)
            yield Static(id="note")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns(*HEADERS)
        self.tick()
        self.set_interval(POLL_SECONDS, self.tick)

    def tick(self) -> None:
        """Read the room again and draw it as of the session clock."""
        try:
            room = self.play.sync()
        except StoreError as exc:  # a time-out could not be saved: say so, play goes on
            self.problem, room = str(exc), self.play.room
        self.draw(room)

    def draw(self, room: Room) -> None:
        now = self.play.session.clock()
        phase = room.phase(now)
        index = room.open_index(now)
        count = len(room.keys)
        if phase is Phase.WAITING:
            state = f"starts in {room.seconds_left(now):.0f} s"
        elif phase is Phase.ASKING:
            state = f"question {(index or 0) + 1} of {count} · {room.seconds_left(now):.0f} s left"
        else:
            state = "final ranking"
        self.query_one("#title", Static).update(Text(f"Room {room.code} · {state}", style="bold"))
        question = self.play.question()
        if question is not None:
            self.last = None  # a new question: the last verdict is history
        self.query_one("#question", Static).update(self.question_text(phase, question))
        self.query_one("#verdict", Static).update(self.verdict_text())
        if room is not self._drawn:  # the table changes only with the room's rows
            self._drawn = room
            board = self.query_one(DataTable)
            board.clear()
            for row in table_rows(room.standings()):
                board.add_row(*(Text(cell) for cell in row))
        notes = [n for n in (self.problem, self.play.problem) if n]
        if question is not None:
            notes.append(f"1-{len(question.choices)}: answer · Escape: leave")
        if phase is Phase.OVER:
            notes.append("Escape: home · every answer is saved in your own progress")
        self.query_one("#note", Static).update(Text("\n".join(printable(n) for n in notes)))

    @staticmethod
    def question_text(phase: Phase, question: Question | None) -> Text:
        if question is None:
            waiting = {
                Phase.WAITING: "Waiting for the first question.",
                Phase.ASKING: "Waiting for the next question.",
                Phase.OVER: "The room is over.",
            }[phase]
            return Text(waiting, style="dim")
        text = Text(printable(question.prompt) + "\n")
        for n, choice in enumerate(question.choices, 1):
            text.append(f"\n{n}. {printable(choice.text)}")
        return text

    def verdict_text(self) -> Text:
        if self.last is None:
            return Text()
        if self.last.grade.correct:
            return Text("✓ Right.", style=palette.right())
        return Text(
            f"✗ Wrong. Answer: {printable(self.last.grade.right_answer)}",
            style=palette.wrong(bold=False),
        )

    def action_pick(self, index: int) -> None:
        question = self.play.question()
        if question is None or not 0 <= index < len(question.choices):
            return
        try:
            self.last = self.play.answer_choice(index)
        except StoreError as exc:
            self.problem = str(exc)
        self.draw(self.play.room)

    def action_leave(self) -> None:
        try:
            self.play.finish()
        except StoreError as exc:  # every answer is saved already; the round's end is not
            self.notify(printable(str(exc)), severity="warning", markup=False)
        self.app.pop_screen()


def join(app: App[Any], data_dir: Path) -> None:
    """Open the room of `data_dir` for the player the app plays as, or say in one sentence
    why not."""
    try:
        play = join_room(host(app).session, data_dir)
    except RoomError as exc:
        app.notify(printable(str(exc)), title="No room", markup=False, timeout=8)
        return
    app.push_screen(RoomScreen(play))


def start(app: App[Any], data_dir: Path, seed: int | None) -> None:
    """Open a room of every deck, its first question `LEAD_SECONDS` from now, each open for
    the countdown setting, drawn with `seed` (None: a random one), and join it."""
    import secrets

    session = host(app).session
    try:
        room = open_room(
            data_dir,
            session.catalog.decks,
            session.clock(),
            seed=secrets.randbelow(2**31) if seed is None else seed,
            seconds=float(session.settings.countdown_seconds),
            lead_seconds=LEAD_SECONDS,
        )
    except RoomError as exc:
        app.notify(printable(str(exc)), title="No room", markup=False, timeout=8)
        return
    app.notify(f"Room {room.code} opened: the first question in {LEAD_SECONDS} s.", markup=False)
    join(app, data_dir)
