"""A room at a meetup (vocabgame.play.room): one timed challenge that several players answer
at once, each on their own store, with a ranking read from the room file alone."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from vocabgame.deck import Catalog
from vocabgame.model import Deck
from vocabgame.play import Session
from vocabgame.play.room import (
    MAX_BYTES,
    ROOM_FILE,
    Phase,
    RoomAnswer,
    RoomError,
    RoomPlay,
    open_room,
    plan_room,
    read_room,
    record_answer,
)
from vocabgame.players import Player
from vocabgame.quiz import Kind
from vocabgame.store import Store

from .test_session import START, Now, claims_deck

SECONDS = 20.0


def player_session(folder: Path, decks: list[Deck], now: Now) -> Session:
    """A player's own session: their own store file, the shared decks, the shared clock."""
    folder.mkdir(parents=True, exist_ok=True)
    store = Store.open(folder / "vocabgame.db")
    return Session(store, Catalog(tuple(decks), ()), clock=lambda: now[0], fuzz=False)


def pick(play: RoomPlay, right: bool) -> int:
    q = play.question()
    assert q is not None and q.kind == Kind.CHOICE
    return next(i for i, c in enumerate(q.choices) if (c.value == q.answer) == right)


@pytest.fixture
def now() -> Now:
    return [START]


def test_three_players_end_with_the_ranking_their_answers_give(tmp_path: Path, now: Now) -> None:
    decks = [claims_deck(12)]
    room = open_room(tmp_path, decks, now[0], seed=5, questions=4, seconds=SECONDS)
    assert read_room(tmp_path) == room
    people = [Player("default", "Ana"), Player("2", "Bo"), Player("3", "[b]Cy[/b]")]
    plays = [
        RoomPlay(player_session(tmp_path / p.id, decks, now), p, tmp_path, room) for p in people
    ]
    # Per question: (player, right, seconds after it opened); Cy skips question 3.
    script = {
        0: [(0, True, 2), (1, True, 1), (2, False, 3)],
        1: [(0, True, 4), (1, False, 2), (2, True, 5)],
        2: [(0, False, 6), (1, True, 3)],
        3: [(0, True, 1), (1, True, 9), (2, True, 2)],
    }
    for play in plays:
        assert play.sync().phase(now[0]) is Phase.WAITING
        assert play.question() is None  # nothing before the start
    for index in range(4):
        opens = room.opens(index)
        for who, right, after in sorted(script[index], key=lambda s: s[2]):
            now[0] = opens + timedelta(seconds=after)
            for play in plays:  # as each screen does on its timer
                play.sync()
                play.question()
            outcome = plays[who].answer_choice(pick(plays[who], right))
            assert outcome is not None and outcome.grade.correct is right
            assert plays[who].answer_choice(0) is None  # one answer per question
    now[0] = room.ends_at
    final = plays[0].sync()
    assert final.phase(now[0]) is Phase.OVER
    # Ana 3 right in 2+4+1 s, Bo 3 right in 1+3+9 s, Cy 2 right.
    assert [(s.rank, s.name, s.right, s.seconds) for s in final.standings()] == [
        (1, "Ana", 3, 7.0),
        (2, "Bo", 3, 13.0),
        (3, "[b]Cy[/b]", 2, 7.0),
    ]
    assert final.standings()[2].marks == (False, True, None, True)
    for play, who in zip(plays, range(3), strict=True):
        play.sync()
        mine = [(i, r) for i in range(4) for w, r, _ in script[i] if w == who]
        reviews = play.session.store.conn.execute(
            "SELECT item_id, correct FROM reviews ORDER BY id"
        ).fetchall()
        # Each store holds exactly its own answers, in the room's order (a question seen
        # and left unanswered counts as the time running out).
        expected = [(room.keys[i].item_id, int(r)) for i, r in mine]
        if who == 2:
            expected.insert(2, (room.keys[2].item_id, 0))
        assert [(item, int(c)) for item, c in reviews] == expected


def test_same_seed_same_questions_and_a_late_joiner_skips_what_closed(
    tmp_path: Path, now: Now
) -> None:
    decks = [claims_deck(12)]
    assert plan_room(decks, 5, 9) == plan_room(decks, 5, 9)
    assert plan_room(decks, 5, 9) != plan_room(decks, 5, 10)
    room = open_room(tmp_path, decks, now[0], seed=9, questions=5, seconds=SECONDS, lead_seconds=0)
    now[0] = room.opens(2) + timedelta(seconds=1)
    late = RoomPlay(
        player_session(tmp_path / "late", decks, now), Player("2", "Di"), tmp_path, room
    )
    late.sync()
    assert late.index == 2 and late.question() is not None
    count = late.session.store.conn.execute("SELECT COUNT(*) FROM reviews").fetchone()[0]
    assert count == 0  # questions never shown are not saved as wrong


def test_a_room_still_playing_is_not_replaced_by_accident(tmp_path: Path, now: Now) -> None:
    decks = [claims_deck(6)]
    first = open_room(tmp_path, decks, now[0], seed=1, questions=3, seconds=SECONDS)
    with pytest.raises(RoomError, match="still playing"):
        open_room(tmp_path, decks, now[0], seed=2, questions=3)
    second = open_room(tmp_path, decks, now[0], seed=2, questions=3, replace=True)
    with pytest.raises(RoomError, match="replaced"):
        record_answer(tmp_path, first.code if first.code != second.code else "0000",
                      RoomAnswer("2", "Bo", 0, True, 1.0))  # fmt: skip
    later = first.ends_at + timedelta(seconds=1)
    open_room(tmp_path, decks, later + timedelta(minutes=5), seed=3, questions=3)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.update(format=2), "not a format 1 room"),
        (lambda d: d.update(code="../x"), "code"),
        (lambda d: d["questions"].append(["a", "b\x1b[31m", "c"]), "printable"),
        (lambda d: d.update(seconds=1e9), "seconds per question"),
        (
            lambda d: d["answers"].append(
                {"player": "../1", "name": "x", "index": 0, "right": True, "seconds": 1}
            ),
            "player",
        ),  # fmt: skip
        (
            lambda d: d["answers"].append(
                {"player": "2", "name": "x" * 10_000, "index": 0, "right": True, "seconds": 1}
            ),
            "name",
        ),  # fmt: skip
        (
            lambda d: d["answers"].append(
                {"player": "2", "name": "x", "index": 99, "right": True, "seconds": 1}
            ),
            "question",
        ),  # fmt: skip
    ],
)
def test_a_hostile_room_file_is_one_sentence(
    tmp_path: Path, now: Now, change: object, words: str
) -> None:
    open_room(tmp_path, [claims_deck(6)], now[0], seed=1, questions=3)
    path = tmp_path / ROOM_FILE
    data = json.loads(path.read_text())
    change(data)  # type: ignore[operator]
    path.write_text(json.dumps(data))
    with pytest.raises(RoomError, match=words) as info:
        read_room(tmp_path)
    assert "\x1b" not in str(info.value) and str(info.value).count("\n") == 0


def test_a_huge_room_file_is_refused_unread(tmp_path: Path) -> None:
    (tmp_path / ROOM_FILE).write_bytes(b" " * (MAX_BYTES + 10))
    with pytest.raises(RoomError, match="over"):
        read_room(tmp_path)


def test_no_room_is_none_and_decks_without_challenges_refuse(tmp_path: Path, now: Now) -> None:
    from .test_session import terms_deck

    assert read_room(tmp_path) is None
    with pytest.raises(RoomError, match="no scenarios or claims"):
        open_room(tmp_path, [terms_deck(4)], now[0], seed=1)
    with pytest.raises(RoomError, match="1 to 100"):
        open_room(tmp_path, [claims_deck(4)], now[0], seed=1, questions=0)


def test_the_commands_start_a_room_and_show_its_results(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from vocabgame.cli import main

    where = ["--data-dir", str(data_dir)]
    assert main(["room", "results", *where]) == 1
    assert "No room yet" in capsys.readouterr().err
    start = ["room", "start", "--questions", "3", "--seconds", "10", "--seed", "4", *where]
    assert main([*start, "--json"]) == 0
    opened = json.loads(capsys.readouterr().out)
    assert len(opened["questions"]) == 3 and opened["seconds"] == 10
    assert main(start) == 1  # still playing
    assert "still playing" in capsys.readouterr().err
    room = read_room(data_dir)
    assert room is not None
    record_answer(data_dir, room.code, RoomAnswer("2", "[red]Bo[/]", 0, True, 2.5))
    assert main(["room", "results", "--json", *where]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["phase"] == "waiting"
    assert shown["ranking"] == [
        {"rank": 1, "player": "[red]Bo[/]", "id": "2", "right": 1, "answered": 1, "seconds": 2.5}
    ]
    assert main(["room", "results", *where]) == 0
    out = capsys.readouterr().out
    assert "[red]Bo[/]" in out and "✓··" in out
    assert main(["room", "start", "--deck", "nope", "--replace", *where]) == 2


def test_joining_again_never_asks_what_the_player_answered(tmp_path: Path, now: Now) -> None:
    decks = [claims_deck(6)]
    room = open_room(tmp_path, decks, now[0], seed=2, questions=3, seconds=SECONDS, lead_seconds=0)
    session = player_session(tmp_path / "me", decks, now)
    first = RoomPlay(session, Player("2", "Bo"), tmp_path, room)
    first.sync()
    assert first.answer_choice(pick(first, True)) is not None
    again = RoomPlay(session, Player("2", "Bo"), tmp_path, room)  # left, then joined again
    again.sync()
    assert again.question() is None and again.answer_choice(0) is None
    now[0] = room.opens(1)
    again.sync()
    assert again.question() is not None
    assert session.store.conn.execute("SELECT COUNT(*) FROM reviews").fetchone()[0] == 1


def test_a_game_without_the_rooms_decks_cannot_join(tmp_path: Path, now: Now) -> None:
    room = open_room(tmp_path, [claims_deck(6)], now[0], seed=2, questions=3)
    elsewhere = player_session(tmp_path / "me", [claims_deck(6, deck_id="other")], now)
    with pytest.raises(RoomError, match="does not have every deck"):
        RoomPlay(elsewhere, Player("2", "Bo"), tmp_path, room)
