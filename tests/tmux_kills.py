"""The real game in a terminal, SIGKILLed at random moments: `python -m tests.tmux_kills`.

Each run starts `vocabgame` in a tmux window on one data folder, plays it by keys as a player
would (choices, recall ratings, typed terms, next, and an undo after about one answer in four),
reads the screen to know what the game has acknowledged (the feedback of an answer; the
question back after an undo) and SIGKILLs the game process at a random moment. Every SQL
statement of the game sleeps a few milliseconds first, so kills land inside transactions,
commits and undos as often as between them. Every fifth kill instead lands in
`vocabgame restore`, whose file operations sleep too, so it is killed before, inside and after
its final rename.

After every kill: the store passes `PRAGMA integrity_check`, `vocabgame check` finds nothing,
no acknowledged answer is lost (the store holds every acknowledged answer, and an acknowledged
undo's answer is gone; only the action under way when the kill came may have gone either way),
no answer is there twice, and a killed restore left either the old store whole or the backup
whole (and then the old store in a before-restore copy).

    python -m tests.tmux_kills [--kills 50] [--seed 2026] [--keep DIR]

Prints one line per kill and a summary; exits 1 if anything was lost or doubled. Needs tmux.
The game is run through `python -m tests.tmux_kills --launch ...`, which slows SQLite and the
restore's file operations and plays only the tests' own deck.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "tests" / "data" / "ui"
SESSION = f"vocabgame-kills-{os.getpid()}"
DAYS_AHEAD = "VOCABGAME_KILLS_DAYS_AHEAD"  # the launched game's clock runs this many days ahead


# -- the game under test, slowed ----------------------------------------------------------------


def launch(argv: list[str]) -> int:
    """Run vocabgame with every SQL statement (and restore's file operations) a little slow,
    and without the built-in decks."""
    import vocabgame.backup as backup
    from vocabgame import paths
    from vocabgame.cli import main
    from vocabgame.play import session
    from vocabgame.store import core

    class Slow(sqlite3.Connection):
        def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
            time.sleep(random.random() * 0.004)
            return super().execute(sql, parameters)

    connect = core._connect

    def slow_connect(
        target: Path | str, timeout: float, factory: type[sqlite3.Connection], uri: bool = False
    ) -> sqlite3.Connection:
        return connect(target, timeout, Slow, uri)

    core._connect = slow_connect  # type: ignore[assignment]

    class SlowOs:
        """os for vocabgame.backup, with its renames and removals slowed."""

        def __getattr__(self, name: str) -> Any:
            return getattr(os, name)

        @staticmethod
        def replace(src: Any, dst: Any) -> None:
            """The final rename over the store, slowed on both sides and marked on screen, so
            a kill can be seen to land just before, at or just after it."""
            if not str(dst).endswith("vocabgame.db"):
                os.replace(src, dst)
                return
            print("[final rename begins]", flush=True)
            time.sleep(0.3)
            os.replace(src, dst)
            print("[final rename done]", flush=True)
            time.sleep(0.3)

    backup.os = SlowOs()  # type: ignore[assignment]
    empty = Path(tempfile.gettempdir()) / "vocabgame-kills-no-builtin-decks"  # one for every run
    empty.mkdir(exist_ok=True)
    paths.builtin_decks_dir = lambda: empty  # type: ignore[assignment]
    # Each start is a day later than the last, so the small deck always has something to ask
    # (new items for the day, reviews come due) and each start takes the day's backup.
    days = int(os.environ.get(DAYS_AHEAD, "0"))
    session.open_session.__defaults__ = (lambda: datetime.now(UTC) + timedelta(days=days), None)
    return main(argv)


# -- driving it in tmux -------------------------------------------------------------------------


def tmux(*args: str) -> str:
    return subprocess.run(
        ["tmux", *args], check=True, capture_output=True, text=True, timeout=30
    ).stdout


def start(data_dir: Path, *args: str, days: int = 0) -> int:
    """A tmux window running the slowed vocabgame with `args`, its clock `days` ahead;
    returns the process id."""
    command = shlex.join(
        [
            "env",
            f"{DAYS_AHEAD}={days}",
            sys.executable,
            "-m",
            "tests.tmux_kills",
            "--launch",
            "--data-dir",
            str(data_dir),
            *args,
        ]
    )
    window = f"cd {shlex.quote(str(ROOT))} && exec {command}"
    out = tmux("new-window", "-d", "-P", "-F", "#{pane_pid} #{window_id}", "-t", SESSION, window)
    pid, _ = out.split()
    return int(pid)


def screen(pid: int) -> str:
    for pane in tmux(
        "list-panes", "-s", "-t", SESSION, "-F", "#{pane_pid} #{pane_id}"
    ).splitlines():
        pane_pid, pane_id = pane.split()
        if int(pane_pid) == pid:
            with quietly():  # the window may close as it is read
                return tmux("capture-pane", "-p", "-t", pane_id)
    return ""


def keys(pid: int, *names: str) -> None:
    """Send keys to the game's pane, once the screen has settled: a key that comes before the
    new screen's widget has the focus is lost, as it would be for a player that fast."""
    time.sleep(0.25)
    for pane in tmux(
        "list-panes", "-s", "-t", SESSION, "-F", "#{pane_pid} #{pane_id}"
    ).splitlines():
        pane_pid, pane_id = pane.split()
        if int(pane_pid) == pid:
            with quietly():
                tmux("send-keys", "-t", pane_id, *names)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def kill(pid: int) -> None:
    """SIGKILL the process and reap it (tmux is its parent, so wait for it to go)."""
    with quietly():
        os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.01)
        with quietly():
            os.waitpid(pid, os.WNOHANG)
    tmux_kill_dead_windows()


def quietly() -> contextlib.AbstractContextManager[None]:
    """What a process or window already gone raises, ignored."""
    return contextlib.suppress(OSError, subprocess.CalledProcessError)


def tmux_kill_dead_windows() -> None:
    out = tmux("list-panes", "-s", "-t", SESSION, "-F", "#{pane_dead} #{window_id} #{pane_pid}")
    for line in out.splitlines():
        _, window, pid = line.split()
        if not alive(int(pid)):
            with quietly():
                tmux("kill-window", "-t", window)


# -- what the store holds -------------------------------------------------------------------------


def answers(db: Path) -> list[tuple[Any, ...]]:
    """Every answer: its face and time (two answers are never the same face at the same time)."""
    conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return conn.execute(
            "SELECT deck_id, item_id, face, reviewed_at FROM reviews ORDER BY id"
        ).fetchall()
    finally:
        conn.close()


def problems(db: Path) -> list[str]:
    """What `PRAGMA integrity_check` and `vocabgame check` find, and answers stored twice."""
    from vocabgame.check import check

    conn = sqlite3.connect(db, isolation_level=None, timeout=10)
    try:
        found = [r[0] for r in conn.execute("PRAGMA integrity_check")]
        found = [] if found == ["ok"] else found
        found += [f"{f.kind}: {f.message}" for f in check(conn).findings]
        rounds = conn.execute(
            "SELECT id, questions, (SELECT COUNT(*) FROM reviews WHERE round_id = rounds.id)"
            " FROM rounds"
        ).fetchall()
        found += [f"round {i} counts {q} but has {n} answers" for i, q, n in rounds if q != n]
    finally:
        conn.close()
    stored = answers(db)
    if len(set(stored)) != len(stored):
        found.append("an answer is stored twice")
    return found


# -- one kill -------------------------------------------------------------------------------------


@dataclass
class Tally:
    kills: int = 0
    in_restore: int = 0
    in_rename: int = 0  # killed between "final rename begins" and "done"
    acknowledged: int = 0  # answers acknowledged on screen, over the whole run
    undos: int = 0
    lost: int = 0
    doubled: int = 0
    findings: list[str] = field(default_factory=list)


ANSWERING = (
    "Press 1",
    "Enter to reveal",
    "How well did you recall",
    "Type the term",
    "Type a number",
)


def play_until_killed(data_dir: Path, rng: random.Random, tally: Tally, day: int) -> str:
    """Play by keys until a random moment, then SIGKILL the game; returns what was under way."""
    db = data_dir / "vocabgame.db"
    expected = len(answers(db)) if db.exists() else 0
    pid = start(data_dir, "--decks", str(DECKS), days=day)
    deadline = time.monotonic() + 20
    while "Enter: play" not in screen(pid):
        if time.monotonic() > deadline:
            raise RuntimeError("the game did not start:\n" + screen(pid))
        time.sleep(0.05)
    kill_at = time.monotonic() + 0.5 + rng.random() * 7

    def wait(done: Callable[[str], bool]) -> str | None:
        """The screen once `done` holds for it; None when the moment of the kill came first.
        Each key waits for the screen it leads to, so no key lands on a screen not yet drawn."""
        while time.monotonic() < kill_at:
            shown = screen(pid)
            if done(shown):
                return shown
            time.sleep(0.01)
        return None

    def feedback(shown: str) -> bool:
        return "Enter: next" in shown

    known = ANSWERING + ("Enter: next", "Enter: home", "Enter: play")
    pending = ""  # the action sent and not yet seen acknowledged: "answer", "undo" or ""
    while True:
        shown = wait(lambda s: any(words in s for words in known))
        if shown is None:
            break
        if feedback(shown):  # an answer's feedback: it is saved
            undo = rng.random() < 0.25
            keys(pid, "u" if undo else "Enter")
            pending = "undo" if undo else ""
            if wait(lambda s: not feedback(s)) is None:
                break
            if undo:  # the question is back: the undo is saved
                expected -= 1
                tally.undos += 1
            pending = ""
        elif "Enter to reveal" in shown and "How well did you recall" not in shown:
            # An Enter that comes before the box has the focus is lost: sent again after a
            # second (revealing saves nothing, and a rating screen ignores Enter).
            keys(pid, "Enter")
            revealed = None
            while revealed is None and time.monotonic() < kill_at:
                since = time.monotonic()
                revealed = wait(
                    lambda s, since=since: (
                        "How well did you recall" in s or since + 1 < time.monotonic()
                    )
                )
                if revealed is not None and "How well did you recall" not in revealed:
                    keys(pid, "Enter")
                    revealed = None
            if revealed is None:
                break
        elif "Enter: home" in shown or "Enter: play" in shown:  # between rounds
            keys(pid, "Enter")
            if wait(lambda s: "Enter: home" not in s and "Enter: play" not in s) is None:
                break
        else:
            pick = ""
            if "How well did you recall" in shown:
                pick = str(rng.randint(1, 4))
                keys(pid, pick)
            elif "Type the term" in shown:
                keys(pid, "-l", "kv cache" if rng.random() < 0.5 else "no idea")
                keys(pid, "Enter")
            elif "Type a number" in shown:
                keys(pid, "-l", str(rng.choice([20, 21, 2000])))
                keys(pid, "Enter")
            else:
                pick = "1" if rng.random() < 0.5 else "2"
                keys(pid, pick)
            pending = "answer"
            if pick:  # a pick or rating the game did not get is sent again; on the feedback
                # digits are ignored, so this never answers twice
                got = None
                while got is None and time.monotonic() < kill_at:
                    since = time.monotonic()
                    got = wait(lambda s, since=since: feedback(s) or since + 1.5 < time.monotonic())
                    if got is not None and not feedback(got):
                        keys(pid, pick)
                        got = None
                if got is None:
                    break
            elif wait(feedback) is None:
                break
            expected += 1
            tally.acknowledged += 1
            pending = ""
    kill(pid)
    tally.kills += 1
    stored = len(answers(db))
    allowed = {expected, expected + (pending == "answer") - (pending == "undo")}
    if stored < min(allowed):
        tally.lost += min(allowed) - stored
    if stored > max(allowed):
        tally.doubled += stored - max(allowed)
    return f"{pending or 'between actions'}: {stored} stored, {sorted(allowed)} allowed"


def restore_until_killed(data_dir: Path, rng: random.Random, tally: Tally) -> str:
    """Back up, then restore a backup with a SIGKILL at a random moment of it."""
    db = data_dir / "vocabgame.db"
    folder = data_dir / "backups"
    backups = sorted(folder.glob("vocabgame-2*.db")) if folder.is_dir() else []
    if not backups:
        subprocess.run(
            [sys.executable, "-m", "vocabgame", "--data-dir", str(data_dir), "backup"],
            check=True,
            capture_output=True,
            cwd=ROOT,
        )
        backups = sorted(folder.glob("vocabgame-2*.db"))
    source = backups[0]
    old, restored = answers(db), answers(source)
    befores = set(folder.glob("vocabgame-before-restore-*.db"))
    pid = start(data_dir, "restore", "--yes", str(source))
    deadline = time.monotonic() + 20
    while "Restore " not in screen(pid) and alive(pid) and time.monotonic() < deadline:
        time.sleep(0.005)
    # From the line it prints before it starts, the copy, checks, checkpoint and the slowed
    # final rename take about a second: the kill lands among them.
    time.sleep(rng.random() * 1.2)
    where = screen(pid)
    if not where and not alive(pid):  # a window closes when its restore ends
        where = "Restored "
    kill(pid)
    tally.kills += 1
    tally.in_restore += 1
    if "[final rename done]" in where:
        moment = "just after the final rename"
    elif "[final rename begins]" in where:
        moment = "inside the final rename"
        tally.in_rename += 1
    else:
        moment = "before the final rename"
    if "Restored " in where:
        moment = "after it finished"
    now = answers(db)
    if now == old and moment != "just after the final rename":
        return f"restore killed {moment}: the old store is whole"
    if now == restored:
        kept = [answers(p) for p in set(folder.glob("vocabgame-before-restore-*.db")) - befores]
        if old not in kept:
            tally.lost += len(old)
            return f"restore killed {moment}, but the old store is in no before-restore copy"
        return f"restore killed {moment}: the backup in place, the old store kept"
    tally.lost += 1
    return f"restore left neither store: {len(now)} answers"


def run(kills: int, seed: int, data_dir: Path) -> Tally:
    rng = random.Random(seed)
    tally = Tally()
    tmux("new-session", "-d", "-s", SESSION, "-x", "100", "-y", "32", "sleep 100000")
    try:
        for n in range(kills):
            if n % 5 == 4:
                what = restore_until_killed(data_dir, rng, tally)
            else:
                what = play_until_killed(data_dir, rng, tally, day=n)
            found = problems(data_dir / "vocabgame.db")
            tally.findings += [f"kill {n + 1}: {f}" for f in found]
            print(f"kill {n + 1:2}: {what}; check: {found or 'clean'}", flush=True)
    finally:
        with quietly():
            tmux("kill-session", "-t", SESSION)
    return tally


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--launch":
        return launch(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", type=Path, help="play in this data folder and keep it")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        print("tmux is not installed", file=sys.stderr)
        return 2
    data_dir = args.keep or Path(tempfile.mkdtemp(prefix="vocabgame-kills-"))
    data_dir.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    try:
        tally = run(args.kills, args.seed, data_dir)
    finally:
        if args.keep is None:
            shutil.rmtree(data_dir, ignore_errors=True)
    print(
        f"{tally.kills} SIGKILLs ({tally.in_restore} inside restore, {tally.in_rename} of them"
        " inside its final rename) in "
        f"{time.monotonic() - started:.0f} s: {tally.acknowledged} answers and {tally.undos} "
        f"undos acknowledged; {tally.lost} lost, {tally.doubled} doubled, "
        f"{len(tally.findings)} check findings"
    )
    return 0 if not (tally.lost or tally.doubled or tally.findings) else 1


if __name__ == "__main__":
    sys.exit(main())
