"""Real processes on one data folder: two players answering the same deck at full speed, and
a player SIGKILLed fifty times at random moments, including inside commits and undos."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from vocabgame.srs import Srs
from vocabgame.store import DB_NAME, Store

from .conftest import DATA
from .faults import integrity, replay_problems

PLAYER = Path(__file__).parent / "player.py"
DECKS = DATA / "ui"


def player(data_dir: Path, answers: int, seed: int, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(PLAYER), str(data_dir), str(DECKS), str(answers), str(seed), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def rounds_agree_with_reviews(path: Path) -> bool:
    with Store.open(path) as store:
        rows = store.conn.execute(
            "SELECT questions, (SELECT COUNT(*) FROM reviews WHERE round_id = rounds.id)"
            " FROM rounds"
        ).fetchall()
    return all(questions == reviews for questions, reviews in rows)


def test_two_processes_answering_at_full_speed_lose_and_double_nothing(data_dir: Path) -> None:
    Store.open(data_dir / DB_NAME).close()  # created once, before both start
    players = [player(data_dir, 150, seed) for seed in (1, 2)]
    acked: list[int] = []
    for p in players:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0 and err == "", err  # no error escaped
        acked += [int(line.split()[1].split("@")[0]) for line in out.splitlines()]
    assert len(acked) == 300
    path = data_dir / DB_NAME
    with Store.open(path) as store:
        ids = [r[0] for r in store.conn.execute("SELECT id FROM reviews ORDER BY id")]
    assert sorted(acked) == ids  # every acknowledged answer once, and nothing else
    assert integrity(path) == "ok"
    # Each card is what its reviews give in the order they were stored: no answer was
    # scheduled from a card the other process had already changed, and no card id collided.
    assert replay_problems(path, Srs()) == []
    assert rounds_agree_with_reviews(path)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_fifty_kills_at_random_moments_lose_no_acknowledged_answer(data_dir: Path) -> None:
    rng = random.Random(2026)
    path = data_dir / DB_NAME
    Store.open(path).close()
    acknowledged: set[str] = set()  # "id@reviewed_at"
    undoing: set[str] = set()  # answers whose undo began: they may or may not be there
    undone: set[str] = set()
    undos = 0
    for kill in range(50):
        child = player(data_dir, 0, kill, "--slow", "--undo-every", "3")
        assert child.stdout is not None
        first = child.stdout.readline()  # started and answering
        assert first.startswith("answer"), child.stderr.read() if child.stderr else first
        time.sleep(rng.random() * 0.15)
        os.kill(child.pid, signal.SIGKILL)
        rest, _ = child.communicate(timeout=30)
        assert child.returncode == -signal.SIGKILL
        for line in [first, *rest.splitlines()]:
            what, review_id = line.split()
            if what == "answer":
                acknowledged.add(review_id)
                undoing.discard(review_id)
                undone.discard(review_id)
            elif what == "undoing":
                undoing.add(review_id)
            else:
                undone.add(review_id)
                undoing.discard(review_id)
                acknowledged.discard(review_id)
                undos += 1
        assert integrity(path) == "ok", f"kill {kill}"
        with Store.open(path) as store:  # opens cleanly: no damage, no reset
            stored = {
                f"{i}@{at}" for i, at in store.conn.execute("SELECT id, reviewed_at FROM reviews")
            }
        lost = acknowledged - stored - undoing
        assert not lost, f"kill {kill}: acknowledged answers lost: {sorted(lost)}"
        assert not (stored & undone), f"kill {kill}: an acknowledged undo came back"
        assert rounds_agree_with_reviews(path), f"kill {kill}: a round's count disagrees"
    assert replay_problems(path, Srs()) == []
    assert len(acknowledged) >= 50 and undos >= 10  # the kills really landed mid-play
