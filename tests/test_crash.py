"""A round killed with SIGKILL loses nothing that was answered."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from vocabgame.store import DB_NAME, Store

from .conftest import DATA

CHILD = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from vocabgame.deck import load_catalog
    from vocabgame.quiz import Kind
    from vocabgame.play import Session
    from vocabgame.store import Store

    data_dir, decks = Path(sys.argv[1]), Path(sys.argv[2])
    session = Session(Store.open(data_dir / "vocabgame.db"), load_catalog([decks]))
    round_ = session.start_round(seed=3)
    for n in range(1, 4):
        question = round_.question()
        if question.kind == Kind.CHOICE:
            round_.answer_choice(0)
        elif question.kind == Kind.RECALL:
            round_.answer_recall(3)
        else:
            round_.answer_text("42")
        round_.advance()
        print(f"saved {n}", flush=True)
    sys.stdin.readline()  # mid-round: wait here until killed
    """
)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_answers_survive_sigkill_mid_round(data_dir: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(data_dir), str(DATA / "ui")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        lines = [child.stdout.readline().strip() for _ in range(3)]
        assert lines == ["saved 1", "saved 2", "saved 3"]
        os.kill(child.pid, signal.SIGKILL)
        assert child.wait(timeout=30) == -signal.SIGKILL
    finally:
        if child.poll() is None:
            child.kill()
        child.stdout.close()
        child.stdin.close()
    store = Store.open(data_dir / DB_NAME)  # opens cleanly: no damage, no reset
    try:
        assert store.answers.count() == 3
        assert len(store.schedules.cards()) == 3
        [round_] = store.scoreboard.all()
        assert round_.questions == 3 and not round_.finished
    finally:
        store.close()
