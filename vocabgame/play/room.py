"""A room at a meetup: one timed challenge that every player of a data folder answers at once.

The host opens a room (`open_room`): the questions (faces of scenarios and claims, drawn with a
seed), the seconds each question is open and the time the first opens, kept in `room.json` in
the data folder, written whole under a temporary name while `room.lock` is held. Question `i`
is open from `starts_at + i * seconds` for `seconds`, on every player's clock alike. Each
player's game (`RoomPlay`) asks the open question; an answer is saved in the player's own
store as the challenge saves it, then appended to the room file as a row (player, question,
right, seconds taken). The live table and the final ranking are read from those rows alone.

The room file is written by other processes, so it is read as input from strangers: at most
`MAX_BYTES`, every field checked, and a damaged file is one sentence.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import Enum
from pathlib import Path
from typing import Any

from vocabgame.kinds import sections_with
from vocabgame.model import Deck, FaceKey
from vocabgame.play.modes.base import ModeId, one_per_item, round_robin
from vocabgame.play.outcome import Outcome
from vocabgame.play.round import Round
from vocabgame.play.session import Session
from vocabgame.players import DEFAULT_ID, DEFAULT_NAME, MAX_NAME, Player, PlayerError, read_registry
from vocabgame.printable import has_unprintable, printable
from vocabgame.quiz import Kind, Question
from vocabgame.sharedfile import held_alone, write_whole

ROOM_FILE = "room.json"
_ROOM_LOCK = "room.lock"
FORMAT = 1
MAX_BYTES = 2_000_000  # a room of 100 questions and 200 players is about 1.5 MB
MAX_QUESTIONS = 100
MAX_PLAYERS = 200
MIN_SECONDS, MAX_SECONDS = 5.0, 600.0
_MAX_KEY = 200  # characters of a deck id, item id or face
_CODE = re.compile(r"^[0-9]{4}$")
_PLAYER_ID = re.compile(r"^(default|[0-9]{1,9})$")


class RoomError(Exception):
    """A room that cannot be opened, read or answered, in one sentence."""


class Phase(Enum):
    WAITING = "waiting"  # before the first question opens
    ASKING = "asking"
    OVER = "over"  # the last question has closed


@dataclass(frozen=True, slots=True)
class RoomAnswer:
    """One answer in the room file: who (their id and name), which question, whether right,
    and the seconds from the question's opening to the answer."""

    player: str
    name: str
    index: int
    right: bool
    seconds: float


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's place: right answers, the seconds their right answers took in all, and
    per question True (right), False (wrong) or None (no answer)."""

    rank: int
    player: str
    name: str
    right: int
    seconds: float
    marks: tuple[bool | None, ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "player": self.name,
            "id": self.player,
            "right": self.right,
            "answered": sum(m is not None for m in self.marks),
            "seconds": round(self.seconds, 3),
        }


@dataclass(frozen=True, slots=True)
class Room:
    """A room as its file holds it: its code (shown, never a path), the seed its questions
    were drawn with, the questions in order, the seconds each is open, when the first opens,
    and the answers added so far."""

    code: str
    seed: int
    decks: tuple[str, ...]  # the decks asked (empty: every deck)
    keys: tuple[FaceKey, ...]
    seconds: float
    starts_at: datetime
    answers: tuple[RoomAnswer, ...] = field(default=())

    @property
    def ends_at(self) -> datetime:
        return self.opens(len(self.keys))

    def opens(self, index: int) -> datetime:
        """When question `index` opens (and question `index - 1` closes)."""
        return self.starts_at + timedelta(seconds=self.seconds * index)

    def phase(self, now: datetime) -> Phase:
        if now < self.starts_at:
            return Phase.WAITING
        return Phase.OVER if now >= self.ends_at else Phase.ASKING

    def open_index(self, now: datetime) -> int | None:
        """The question open at `now` (None: before the first or after the last)."""
        if self.phase(now) is not Phase.ASKING:
            return None
        return min(int((now - self.starts_at).total_seconds() // self.seconds), len(self.keys) - 1)

    def seconds_left(self, now: datetime) -> float:
        """Until the open question closes, or until the first opens while waiting."""
        index = self.open_index(now)
        if index is None:
            return max(0.0, (self.starts_at - now).total_seconds())
        return max(0.0, (self.opens(index + 1) - now).total_seconds())

    def answer_of(self, player: str, index: int) -> RoomAnswer | None:
        return next((a for a in self.answers if a.player == player and a.index == index), None)

    def standings(self) -> tuple[Standing, ...]:
        """Every player who answered, most right first, then fewest seconds on the right
        answers, then name; equal right and seconds share a rank."""
        names: dict[str, str] = {}
        marks: dict[str, list[bool | None]] = {}
        for a in self.answers:
            names.setdefault(a.player, a.name)
            marks.setdefault(a.player, [None] * len(self.keys))[a.index] = a.right
        rows = []
        for pid, name in names.items():
            right = sum(a.seconds for a in self.answers if a.player == pid and a.right)
            rows.append((sum(m is True for m in marks[pid]), round(right, 3), name, pid))
        rows.sort(key=lambda r: (-r[0], r[1], r[2].casefold(), r[3]))
        out: list[Standing] = []
        for n, (right_count, seconds, name, pid) in enumerate(rows, 1):
            same = out and (out[-1].right, out[-1].seconds) == (right_count, seconds)
            rank = out[-1].rank if same else n
            out.append(Standing(rank, pid, name, right_count, seconds, tuple(marks[pid])))
        return tuple(out)

    def as_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "code": self.code,
            "seed": self.seed,
            "decks": list(self.decks),
            "questions": [[k.deck_id, k.item_id, k.face] for k in self.keys],
            "seconds": self.seconds,
            "starts_at": self.starts_at.isoformat(),
            "answers": [
                {
                    "player": a.player,
                    "name": a.name,
                    "index": a.index,
                    "right": a.right,
                    "seconds": round(a.seconds, 3),
                }
                for a in self.answers
            ],
        }


def plan_room(decks: Sequence[Deck], count: int, seed: int) -> list[FaceKey]:
    """`count` faces of the decks' scenarios and claims (one per item), drawn with `seed`:
    the same decks and seed give the same questions in the same order."""
    keys = round_robin(decks, sections_with("challenge"))
    random.Random(seed).shuffle(keys)
    return one_per_item(keys, count, set())


def open_room(
    data_dir: Path,
    decks: Sequence[Deck],
    now: datetime,
    *,
    seed: int,
    deck_ids: Sequence[str] = (),
    questions: int = 10,
    seconds: float = 20.0,
    lead_seconds: float = 30.0,
    replace: bool = False,
) -> Room:
    """Open a room of `questions` questions of `decks`, each open `seconds`, the first
    `lead_seconds` after `now`, and write it to the data folder. Refused (RoomError) while
    another room is still playing, unless `replace`, and when the decks have nothing to ask."""
    if not 1 <= questions <= MAX_QUESTIONS:
        raise RoomError(f"A room asks from 1 to {MAX_QUESTIONS} questions, not {questions}.")
    if not MIN_SECONDS <= seconds <= MAX_SECONDS:
        raise RoomError(
            f"Each question is open from {MIN_SECONDS:g} to {MAX_SECONDS:g} seconds, "
            f"not {seconds:g}."
        )
    keys = plan_room(decks, questions, seed)
    if not keys:
        raise RoomError("Those decks hold no scenarios or claims: a room asks only those.")
    code = f"{random.Random(seed).randrange(10_000):04d}"
    room = Room(
        code,
        seed,
        tuple(deck_ids),
        tuple(keys),
        float(seconds),
        now + timedelta(seconds=lead_seconds),
    )
    with _held(data_dir):
        current = _read_or_none(data_dir)
        if current is not None and not replace and current.phase(now) is not Phase.OVER:
            raise RoomError(
                f"Room {current.code} is still playing for "
                f"{(current.ends_at - now).total_seconds():.0f} more seconds; wait for it to "
                "end, or replace it with --replace."
            )
        _write(data_dir, room)
    return room


def read_room(data_dir: Path) -> Room | None:
    """The data folder's room (None: none was ever opened); RoomError when its file cannot
    be read or is damaged."""
    return _read_or_none(data_dir)


def record_answer(data_dir: Path, code: str, answer: RoomAnswer) -> Room:
    """Add an answer to room `code`: only a player's first answer to a question counts. The
    room as it now is; RoomError when that room is no longer the data folder's."""
    with _held(data_dir):
        room = _read_or_none(data_dir)
        if room is None or room.code != code:
            raise RoomError(
                "The room was replaced by another; your answer is saved in your progress "
                "but not in the room's table."
            )
        if not 0 <= answer.index < len(room.keys):
            raise RoomError(f"The room has no question {answer.index + 1}.")
        if room.answer_of(answer.player, answer.index) is not None:
            return room
        players = {a.player for a in room.answers}
        if answer.player not in players and len(players) >= MAX_PLAYERS:
            raise RoomError(f"The room is full: it holds at most {MAX_PLAYERS} players.")
        room = Room(
            room.code,
            room.seed,
            room.decks,
            room.keys,
            room.seconds,
            room.starts_at,
            (*room.answers, answer),
        )
        _write(data_dir, room)
    return room


# -- the file ----------------------------------------------------------------------------------


@contextlib.contextmanager
def _held(data_dir: Path) -> Iterator[None]:
    """The room file, held alone while it is read, changed and written (two players answering
    at once must not lose one's row)."""
    with held_alone(
        data_dir / _ROOM_LOCK,
        lambda exc: RoomError(f"Cannot open the room in {data_dir} ({exc.strerror})."),
    ):
        yield


def _write(data_dir: Path, room: Room) -> None:
    path = data_dir / ROOM_FILE
    write_whole(
        path,
        json.dumps(room.as_json(), ensure_ascii=False),
        lambda exc: RoomError(f"Cannot write the room file {path} ({exc.strerror})."),
    )


def _read_or_none(data_dir: Path) -> Room | None:
    path = data_dir / ROOM_FILE
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise RoomError(f"Cannot read the room file {path} ({exc.strerror}).") from None
    try:
        if len(raw) > MAX_BYTES:
            raise ValueError(f"it is over {MAX_BYTES:,} bytes")
        return parse_room(json.loads(raw.decode("utf-8")))
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        raise RoomError(
            f"The room file {printable(str(path))} is damaged ({printable(str(exc))}); start "
            "a new room with: vocabgame room start --replace"
        ) from None


def _signature(data_dir: Path) -> tuple[int, int, int] | None:
    """The room file's inode, size and change time (a write replaces the file whole, so any
    change gives another); None when it cannot be read."""
    try:
        st = os.stat(data_dir / ROOM_FILE)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def _text(value: object, what: str, limit: int) -> str:
    if not isinstance(value, str) or not value or len(value) > limit or has_unprintable(value):
        raise ValueError(f"{what} is not printable text of at most {limit} characters")
    return value


def _number(value: object, what: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise ValueError(f"{what} is not a number from {low:g} to {high:g}")
    return float(value)


def parse_room(data: object) -> Room:
    """A room from the JSON of its file, every field checked; ValueError naming the first
    that is wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a format {FORMAT} room")
    code = data["code"]
    if not isinstance(code, str) or not _CODE.match(code):
        raise ValueError("the code is not four digits")
    seed = data["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError("the seed is not a whole number")
    decks = data["decks"]
    if not isinstance(decks, list) or len(decks) > MAX_QUESTIONS:
        raise ValueError("the decks are not a short list")
    questions = data["questions"]
    if not isinstance(questions, list) or not 1 <= len(questions) <= MAX_QUESTIONS:
        raise ValueError(f"the questions are not a list of 1 to {MAX_QUESTIONS}")
    keys = []
    for q in questions:
        if not isinstance(q, list) or len(q) != 3:
            raise ValueError("a question is not [deck, item, face]")
        keys.append(FaceKey(*(_text(part, "a question's part", _MAX_KEY) for part in q)))
    seconds = _number(data["seconds"], "the seconds per question", MIN_SECONDS, MAX_SECONDS)
    starts = datetime.fromisoformat(_text(data["starts_at"], "the start", 40))
    if starts.tzinfo is None:
        raise ValueError("the start has no time zone")
    answers = data["answers"]
    if not isinstance(answers, list) or len(answers) > len(keys) * MAX_PLAYERS:
        raise ValueError("the answers are not a list of at most one per question and player")
    return Room(
        code,
        seed,
        tuple(_text(d, "a deck id", _MAX_KEY) for d in decks),
        tuple(keys),
        seconds,
        starts,
        tuple(_answer(a, len(keys), seconds) for a in answers),
    )


def _answer(row: object, questions: int, seconds: float) -> RoomAnswer:
    if not isinstance(row, dict):
        raise ValueError("an answer is not an object")
    player = row["player"]
    if not isinstance(player, str) or not _PLAYER_ID.match(player):
        raise ValueError("an answer's player is not an id vocabgame gives")
    index = row["index"]
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < questions:
        raise ValueError("an answer's question is not one of the room's")
    right = row["right"]
    if not isinstance(right, bool):
        raise ValueError("an answer's right is not true or false")
    return RoomAnswer(
        player,
        _text(row["name"], "an answer's name", MAX_NAME),
        index,
        right,
        _number(row["seconds"], "an answer's seconds", 0.0, seconds),
    )


def room_open(data_dir: Path, now: datetime) -> bool:
    """Whether the data folder has a room not yet over (a damaged room file: no)."""
    try:
        room = read_room(data_dir)
    except RoomError:
        return False
    return room is not None and room.phase(now) is not Phase.OVER


def player_at(data_dir: Path, folder: Path) -> Player:
    """The player whose folder (store, backups, lock) is `folder` among the players of
    `data_dir`; the default player when none is (or the registry cannot be read)."""
    try:
        players = read_registry(data_dir).players
    except PlayerError:
        players = ()
    found = next((p for p in players if p.folder(data_dir) == folder), None)
    return found or Player(DEFAULT_ID, DEFAULT_NAME)


def join_room(session: Session, data_dir: Path) -> RoomPlay:
    """Join the open room of `data_dir` as the player whose store the session plays on;
    RoomError with one sentence when no room is open or it cannot be played here."""
    room = read_room(data_dir)
    if room is None or room.phase(session.clock()) is Phase.OVER:
        raise RoomError("No room is open: the host opens one with vocabgame room start.")
    return RoomPlay(session, player_at(data_dir, session.store.path.parent), data_dir, room)


# -- a player in the room -----------------------------------------------------------------------


class RoomPlay:
    """One player's game in a room: asks the open question from a round of the room's
    questions on the player's own session (the challenge's rules: the schedule learns from each
    answer), and adds each answer to the room file. The clock is the session's."""

    def __init__(self, session: Session, player: Player, data_dir: Path, room: Room) -> None:
        self.session, self.player, self.data_dir, self.room = session, player, data_dir, room
        round_ = session.start_faces(
            None, f"Room {room.code}", list(room.keys), ModeId.CHALLENGE, room.seed
        )
        if round_ is None or tuple(round_.queue) != room.keys:
            raise RoomError(
                "This game does not have every deck the room asks from; start it with the "
                "host's decks (--decks) to join."
            )
        self.round: Round = round_
        self.shown: int | None = None  # the question this player has seen, not yet answered
        self.problem: str | None = None  # the last room file problem, to show once
        self._seen: tuple[int, int, int] | None = None  # the room file's stat when last read

    def sync(self) -> Room:
        """Read the room again, and move on past every question that has closed: one this
        player saw and did not answer counts as the time running out (saved as the challenge
        saves it); one never shown (joined late) is skipped, not saved."""
        now = self.session.clock()
        seen = _signature(self.data_dir)
        if seen is None or seen != self._seen:  # unchanged since the last read: no parse
            try:
                latest = read_room(self.data_dir)
            except RoomError as exc:
                self.problem, latest = str(exc), None
            if latest is not None and latest.code == self.room.code:
                self.room, self._seen = latest, seen
        phase = self.room.phase(now)
        target = len(self.room.keys) if phase is Phase.OVER else self.room.open_index(now) or 0
        while self.round.position < target:
            if self.round.awaiting_next:
                self.round.advance()
                continue
            if self.shown == self.round.position and self._is_choice():
                self.round.time_out()
                self.round.advance()
            else:
                self.round.position += 1
            self.shown = None
        return self.room

    def _is_choice(self) -> bool:
        question = self.round.question()
        return question is not None and question.kind == Kind.CHOICE

    def question(self) -> Question | None:
        """The open question, while this player has not answered it (None: waiting for the
        next, or the room is over)."""
        index = self.room.open_index(self.session.clock())
        if index is None or index != self.round.position or self.round.awaiting_next:
            return None
        if self.room.answer_of(self.player.id, index) is not None:
            return None  # answered before leaving and joining again, or in another tab
        self.shown = index
        return self.round.question()

    @property
    def index(self) -> int:
        return self.round.position

    def answer_choice(self, choice: int) -> Outcome | None:
        """Answer the open question: saved in the player's store, then added to the room
        (None: no question is open for this player). A room file that cannot be written
        leaves `problem` set; the answer stays saved in the player's store."""
        question = self.question()
        if question is None:
            return None
        now = self.session.clock()
        index = self.round.position
        outcome = self.round.answer_choice(choice)
        self.shown = None
        taken = min(self.room.seconds, max(0.0, (now - self.room.opens(index)).total_seconds()))
        answer = RoomAnswer(self.player.id, self.player.name, index, outcome.grade.correct, taken)
        try:
            self.room = record_answer(self.data_dir, self.room.code, answer)
        except RoomError as exc:
            self.problem = str(exc)
        return outcome

    def finish(self) -> None:
        """End the player's round (every answer is already saved)."""
        self.round.finish()
