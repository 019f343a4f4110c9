"""The store a player's data folder held before the store became a package, made by playing:
`python -m tests.store_compat` plays it again and writes the database and the golden outputs
of `vocabgame stats --json` and `vocabgame export-progress` beside it (tests/data/). The test
(tests/test_store_compat.py) opens a copy with the code as it is and compares.

Played on the deck tests/data/store-compat/phases.yaml with a fixed clock and seeds: learn and
practice rounds on four days (one missed day), an undo, a typed answer overridden as right, a
wrong pick of one term for another, a flag (and one taken back), a confusion drill, a mock
interview, a challenge, a carried rename and a changed setting.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import shutil
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import vocabgame.play
from vocabgame.cli import main
from vocabgame.deck import load_catalog
from vocabgame.model import FaceKey
from vocabgame.play import ModeId, Round, Selection, Session
from vocabgame.play.modes.challenge import Challenge
from vocabgame.play.modes.drill import Drill
from vocabgame.play.modes.interview import Interview
from vocabgame.play.outcome import Outcome
from vocabgame.quiz import Kind
from vocabgame.store import DB_NAME, Store

DATA = Path(__file__).parent / "data"
DECKS = DATA / "store-compat"
DB = DATA / "store-before-the-package.db"
STATS = DATA / "store-before-the-package.stats.json"
EXPORT = DATA / "store-before-the-package.export.json"
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
END = START + timedelta(days=5, hours=3)  # the clock when the figures are read
EXPORTED_AT = "(the moment of the export)"


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def _answer(rnd: Round, right: bool) -> Outcome:
    q = rnd.question()
    assert q is not None
    if q.kind == Kind.CHOICE:
        return rnd.answer_choice(
            next(i for i, c in enumerate(q.choices) if (c.value == q.answer) == right)
        )
    if q.kind == Kind.RECALL:
        return rnd.answer_recall(3 if right else 1)
    assert q.answer is not None
    outcome = rnd.answer_text(q.answer if right else "zzzz")
    assert isinstance(outcome, Outcome)
    return outcome


def _pick(rnd: Round, value: str) -> None:
    q = rnd.question()
    assert q is not None and q.kind == Kind.CHOICE
    rnd.answer_choice(next(i for i, c in enumerate(q.choices) if c.value == value))


def play(data_dir: Path) -> None:
    """Play the scripted days into `data_dir`'s store."""
    clock = Clock(START)
    store = Store.open(data_dir / DB_NAME)
    store.preferences.set("new_per_day", 4)
    session = Session(store, load_catalog([DECKS]), clock=clock, tz=UTC, fuzz=False)
    for day, mode in (
        (0, ModeId.LEARN),
        (1, ModeId.PRACTICE),
        (3, ModeId.LEARN),
        (4, ModeId.PRACTICE),
    ):
        clock.now = START + timedelta(days=day)
        rnd = session.start_round("phases", size=5, seed=day, mode=mode)
        assert rnd is not None
        n = 0
        while rnd.question() is not None:
            clock.now += timedelta(seconds=7)
            _answer(rnd, right=n % 3 != 1)
            if day == 1 and n == 0:  # taken back, then answered again
                rnd.undo()
                _answer(rnd, right=True)
            rnd.advance()
            n += 1
        assert rnd.finish().finished

    clock.now = START + timedelta(days=4, hours=1)
    misses = session.start_misses_round(
        "phases",
        "Phases",
        [FaceKey("phases", "kv", "typed"), FaceKey("phases", "prefill", "definition")],
        seed=5,
    )
    assert misses is not None
    q = misses.question()
    assert q is not None and q.kind == Kind.TYPED
    misses.answer_text("key-value store")  # marked wrong; the player says it was right
    assert misses.override() is not None
    misses.advance()
    clock.now += timedelta(seconds=9)
    _pick(misses, "decode")  # Decode's definition picked for Prefill: a confusion
    misses.advance()
    misses.finish()

    clock.now = START + timedelta(days=4, hours=2)
    drill = session.start("drill", Selection("phases", size=2, seed=6))
    assert isinstance(drill, Drill)
    while drill.round.question() is not None:
        clock.now += timedelta(seconds=5)
        q = drill.round.question()
        assert q is not None
        drill.note_answer(_answer(drill.round, right=True))
        drill.round.advance()
    drill.finish()

    clock.now = START + timedelta(days=5)
    interview = session.start("interview", Selection("phases", questions=3, seed=7))
    assert isinstance(interview, Interview)
    while not interview.over():
        q = interview.question()
        if q is None:
            break
        clock.now += timedelta(seconds=20)
        if q.kind == Kind.CHOICE:
            interview.answer_choice(next(i for i, c in enumerate(q.choices) if c.value == q.answer))
        else:
            interview.answer_text(q.answer or "I do not know")
    interview.finish({n: {0} for n, _ in interview.recalls()})

    clock.now = START + timedelta(days=5, hours=1)
    challenge = session.start("challenge", Selection("phases", size=2, seed=8))
    assert isinstance(challenge, Challenge)
    while challenge.question() is not None:
        clock.now += timedelta(seconds=3)
        q = challenge.question()
        assert q is not None
        challenge.answer_choice(next(i for i, c in enumerate(q.choices) if c.value == q.answer))
        challenge.advance()
    challenge.finish()

    clock.now = START + timedelta(days=5, hours=2)
    store.face_flags.add(
        FaceKey("phases", "slow-start", "scenario"), clock.now, "the choices give it away"
    )
    store.face_flags.add(FaceKey("phases", "batch", "term"), clock.now)
    store.face_flags.remove(FaceKey("phases", "batch", "term"))
    store.renames.carry("phases", ["old-phases"], {"batching": "batch"}, clock.now)
    session.close()


# Each scope read: the deck (the built-in decks, which change with their content, left out),
# and one tag of it (read from the answers themselves rather than the summaries).
SCOPES = {"deck": ["--deck", "phases"], "deck and tag": ["--deck", "phases", "--tag", "memory"]}


def stats_json(data_dir: Path) -> dict[str, object]:
    """`vocabgame stats --json` on `data_dir` at END, for each of SCOPES."""
    base = ["stats", "--json", "--data-dir", str(data_dir), "--decks", str(DECKS)]
    return {name: json.loads(_run([*base, *args])) for name, args in SCOPES.items()}


def exported(data_dir: Path, out: Path) -> dict[str, object]:
    """`vocabgame export-progress` of `data_dir`, its export time replaced by a fixed text."""
    from vocabgame.progress import read_whole

    _run(["export-progress", str(out), "--data-dir", str(data_dir)])
    data = read_whole(out)  # either version, as the sections of a version 1 file
    data["exported_at"] = EXPORTED_AT
    return data


def _run(args: list[str]) -> str:
    real = vocabgame.play.open_session
    vocabgame.play.open_session = functools.partial(real, clock=Clock(END), tz=UTC)  # type: ignore[assignment]
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            code = main(args)
    finally:
        vocabgame.play.open_session = real  # type: ignore[assignment]
    assert code == 0, out.getvalue()
    return out.getvalue()


def _write() -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        made = Path(scratch) / "made"
        play(made)
        store = Store.open(made / DB_NAME)  # one self-contained file: the log folded in
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        store.conn.execute("VACUUM")
        store.close()
        shutil.copyfile(made / DB_NAME, DB)
        reading, exporting = Path(scratch) / "reading", Path(scratch) / "exporting"
        for folder in (reading, exporting):  # each from the file as committed
            folder.mkdir()
            shutil.copyfile(DB, folder / DB_NAME)
        STATS.write_text(json.dumps(stats_json(reading), indent=1, sort_keys=True) + "\n")
        data = exported(exporting, Path(scratch) / "progress.json")
        EXPORT.write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    _write()
    sys.exit(0)
