"""Backups, restore and check (vocabgame.backup, vocabgame.check and their commands): the
rolling daily backup, restoring under the data folder's lock, and finding and repairing what
does not add up. Every test uses its own data folder and a clock it moves by hand."""

from __future__ import annotations

import errno
import io
import json
import os
import random
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from vocabgame import backup, paths
from vocabgame.backup import DataLock, list_backups
from vocabgame.cli import main
from vocabgame.play import Mode, ModeId, PlanContext, Session, open_session
from vocabgame.play.modes import register, unregister
from vocabgame.quiz import FaceKey, Kind
from vocabgame.settings import Settings
from vocabgame.store import DB_NAME, Store

from .conftest import DATA

FOLDERS = [DATA / "ui"]
START = datetime(2026, 10, 1, 9, 30, tzinfo=UTC)
TABLES = ("cards", "rounds", "reviews", "flags", "settings")


@pytest.fixture(autouse=True)
def _no_builtin_decks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands search the built-in decks too; these tests play their own small deck."""
    empty = tmp_path / "builtin"
    empty.mkdir()
    monkeypatch.setattr(paths, "builtin_decks_dir", lambda: empty)


class Clock:
    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def play(session: Session, rng: random.Random, size: int = 5, mode: str = ModeId.LEARN) -> None:
    """Play one round, answering at random, as a player who sometimes knows and sometimes not."""
    round_ = session.start_round(None, size=size, seed=rng.randrange(1000), mode=mode)
    if round_ is None:
        return
    while (question := round_.question()) is not None:
        if question.kind == Kind.CHOICE:
            round_.answer_choice(rng.randrange(len(question.choices)))
        elif question.kind == Kind.RECALL:
            round_.answer_recall(rng.randint(1, 4))
        else:
            round_.answer_text(question.answer if rng.random() < 0.7 else "no idea")
        round_.advance()
        if isinstance(session.clock, Clock):  # a player takes a few seconds per question
            session.clock.now += timedelta(seconds=rng.randint(3, 40))
    round_.finish()


def rows(conn: sqlite3.Connection) -> dict[str, list[tuple[object, ...]]]:
    return {t: conn.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in TABLES}


def rows_of(path: Path) -> dict[str, list[tuple[object, ...]]]:
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return rows(conn)
    finally:
        conn.close()


def some_progress(data_dir: Path, clock: Clock, rounds: int = 1, seed: int = 1) -> None:
    """Rounds played through a session that is not the first of the day (no backup taken)."""
    session = Session(Store.open(data_dir / DB_NAME), _catalog(), clock=clock, tz=UTC)
    try:
        rng = random.Random(seed)
        for _ in range(rounds):
            play(session, rng)
    finally:
        session.close()


def _catalog():  # type: ignore[no-untyped-def]
    from vocabgame.deck import load_catalog

    return load_catalog(FOLDERS)


# -- the rolling backup -----------------------------------------------------------------------


def test_rolling_backup_once_per_local_day_pruned_to_7_daily_and_4_weekly(data_dir: Path) -> None:
    tz = timezone(timedelta(hours=-5))  # the player's day ends at 05:00 UTC
    clock = Clock(datetime(2026, 10, 1, 14, 0, tzinfo=UTC))
    rng = random.Random(3)
    days: list[date] = []
    for _ in range(60):
        # Three sessions in one local day: afternoon, evening, and past midnight UTC.
        for hours in (0, 6, 12):
            moment = clock.now + timedelta(hours=hours)
            session = open_session(data_dir, FOLDERS, clock=lambda m=moment: m, tz=tz)
            try:
                assert session.notices == ()
                if hours == 0:
                    play(session, rng, size=1)
            finally:
                session.close()
        days.append(clock.now.astimezone(tz).date())
        # One backup per local day so far: the later sessions of the day took none.
        assert sum(b.day == days[-1] for b in list_backups(data_dir)) == 1
        clock.now += timedelta(days=1)

    kept = list_backups(data_dir)
    dailies = days[-7:]
    weeks: dict[tuple[int, int], date] = {}
    for day in days[:-7]:
        weeks[day.isocalendar()[:2]] = max(day, weeks.get(day.isocalendar()[:2], day))
    weeklies = sorted(weeks.values())[-4:]
    assert [b.day for b in kept] == weeklies + dailies
    assert len(kept) == 11
    # Named by the local time of the day's first session, so the names sort by age.
    assert kept[-1].path.name == f"vocabgame-{days[-1]:%Y-%m-%d}T0900.db"
    assert [b.path.name for b in kept] == sorted(b.path.name for b in kept)


def test_pruning_removes_what_a_crashed_copy_left_but_not_a_copy_under_way(
    data_dir: Path,
) -> None:
    """A killed copy's temporary files go at the next backup, however fresh: their process is
    gone (before, only after a day, so a late kill left a file as large as the store). A
    running process's copy stays; any temporary file over a day old goes (ids are reused)."""
    some_progress(data_dir, Clock())
    folder = backup.backups_dir(data_dir)
    folder.mkdir()
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    gone = int(dead.stdout)  # a process that has ended (and was reaped)
    running = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        crashed = folder / f".vocabgame-2026-09-01T0930.db.{gone}.tmp"
        journal = folder / f".vocabgame-2026-09-01T0930.db.{gone}.tmp-journal"
        restoring = data_dir / f".vocabgame.db.{gone}.restoring"
        old = folder / f".vocabgame-2026-08-01T0930.db.{running.pid}.tmp"
        under_way = folder / f".vocabgame-2026-10-02T0930.db.{running.pid}.tmp"
        for path in (crashed, journal, restoring, old, under_way):
            path.write_bytes(b"half a copy")
        two_days_ago = old.stat().st_mtime - 2 * 86400
        os.utime(old, (two_days_ago, two_days_ago))

        session = open_session(data_dir, FOLDERS, clock=Clock(START + timedelta(days=1)), tz=UTC)
        session.close()

        assert [p.exists() for p in (crashed, journal, restoring, old)] == [False] * 4
        assert under_way.exists()
    finally:
        running.kill()
        running.wait()
    assert [b.path.name for b in list_backups(data_dir)] == ["vocabgame-2026-10-02T0930.db"]


def test_first_session_on_an_empty_store_takes_no_backup(data_dir: Path) -> None:
    session = open_session(data_dir, FOLDERS, clock=Clock(), tz=UTC)
    session.close()
    assert list_backups(data_dir) == []


def test_backup_equals_the_store_while_the_wal_holds_what_is_not_checkpointed(
    data_dir: Path,
) -> None:
    store = Store.open(data_dir / DB_NAME)
    store.conn.execute("PRAGMA wal_autocheckpoint=0")  # everything stays in the -wal
    session = Session(store, _catalog(), clock=Clock(), tz=UTC)
    play(session, random.Random(5), size=6)
    wal = data_dir / (DB_NAME + "-wal")
    assert wal.stat().st_size > 0
    # The database file alone (read as if no -wal were there) has none of it yet.
    main_file = sqlite3.connect(f"{(data_dir / DB_NAME).as_uri()}?immutable=1", uri=True)
    assert main_file.execute("SELECT name FROM sqlite_master").fetchall() == []
    main_file.close()

    written = backup.backup_now(store.conn, data_dir, START, UTC)

    assert written == data_dir / "backups" / "vocabgame-2026-10-01T0930.db"
    copied = rows_of(written)
    assert copied == rows(store.conn)
    assert len(copied["reviews"]) >= 6
    assert not written.with_name(written.name + "-wal").exists()  # a self-contained file
    session.close()


def test_a_backup_that_fails_half_way_leaves_nothing_that_looks_like_a_backup(
    data_dir: Path,
) -> None:
    some_progress(data_dir, Clock())
    store = Store.open(data_dir / DB_NAME)

    class Crashing:
        def backup(self, target: sqlite3.Connection) -> None:
            store.conn.backup(target, pages=1)
            raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(backup.BackupError, match="no space left on device"):
        backup.backup_now(Crashing(), data_dir, START, UTC)  # type: ignore[arg-type]
    store.close()
    assert list(backup.backups_dir(data_dir).iterdir()) == []


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root ignores chmod")
def test_a_read_only_backups_folder_does_not_stop_the_session(data_dir: Path) -> None:
    some_progress(data_dir, Clock())
    folder = backup.backups_dir(data_dir)
    folder.mkdir()
    folder.chmod(0o500)
    try:
        session = open_session(data_dir, FOLDERS, clock=Clock(START + timedelta(days=1)), tz=UTC)
        try:
            assert len(session.notices) == 1
            assert str(folder) in session.notices[0]
            assert "the game goes on" in session.notices[0]
            play(session, random.Random(1), size=2)  # and the game does go on
        finally:
            session.close()
    finally:
        folder.chmod(0o700)
    assert list_backups(data_dir) == []


def test_a_full_disk_during_the_backup_does_not_stop_the_session(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same as the read-only folder, for a run as root, where chmod does not bite."""
    some_progress(data_dir, Clock())

    def full(source: sqlite3.Connection, dest: Path) -> Path:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(backup, "copy_database", full)
    session = open_session(data_dir, FOLDERS, clock=Clock(START + timedelta(days=1)), tz=UTC)
    try:
        assert session.notices == (
            f"Could not write a backup to {backup.backups_dir(data_dir)} (no space left on "
            "device); the game goes on and saves your progress as usual.",
        )
        play(session, random.Random(1), size=2)
        assert session.store.answers.count() > 0
    finally:
        session.close()


async def test_the_game_shows_a_failed_backup_in_one_sentence(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vocabgame.ui.app import VocabApp

    some_progress(data_dir, Clock())
    monkeypatch.setattr(
        backup, "copy_database", lambda *_: (_ for _ in ()).throw(OSError(errno.EROFS, "Ro"))
    )
    session = open_session(data_dir, FOLDERS, clock=Clock(START + timedelta(days=1)), tz=UTC)
    app = VocabApp(session, settle_seconds=0)
    async with app.run_test() as pilot:
        await pilot.pause()
        shown = [n.message for n in app._notifications]  # as tests/ui/test_play.py reads them
        assert shown == list(session.notices) and "the game goes on" in shown[0]
    session.close()


# -- backup and restore from the command line --------------------------------------------------


def test_backup_command_prints_the_file_it_wrote(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    some_progress(data_dir, Clock())
    assert main(["backup"]) == 0
    written = Path(capsys.readouterr().out.strip())
    assert written.parent == data_dir / "backups" and written.is_file()
    assert rows_of(written) == rows_of(data_dir / DB_NAME)


def test_backup_command_without_a_store_says_so(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["backup"]) == 1
    assert "nothing to back up" in capsys.readouterr().err
    assert not (data_dir / DB_NAME).exists()


def _backups_of_three_stages(data_dir: Path) -> tuple[Path, Path]:
    """An older and a newer backup, then more progress in the store after both."""
    clock = Clock()
    some_progress(data_dir, clock, seed=1)
    with Store.open(data_dir / DB_NAME) as store:
        older = backup.backup_now(store.conn, data_dir, START, UTC)
    clock.now += timedelta(days=1)
    some_progress(data_dir, clock, seed=2)
    with Store.open(data_dir / DB_NAME) as store:
        newer = backup.backup_now(store.conn, data_dir, START + timedelta(days=1), UTC)
    clock.now += timedelta(days=1)
    some_progress(data_dir, clock, seed=3)
    return older, newer


def test_restore_puts_back_the_newest_backup_and_keeps_a_before_restore_copy(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    older, newer = _backups_of_three_stages(data_dir)
    current = rows_of(data_dir / DB_NAME)
    assert rows_of(newer) != current != rows_of(older)

    assert main(["restore", "--yes"]) == 0

    out = capsys.readouterr().out
    assert f"Restore {newer}" in out
    assert rows_of(data_dir / DB_NAME) == rows_of(newer)
    before = [b for b in list_backups(data_dir, before_restore=True) if b.before_restore]
    assert len(before) == 1 and before[0].path.name.startswith("vocabgame-before-restore-")
    assert rows_of(before[0].path) == current
    assert str(before[0].path) in out
    # The before-restore copy is never the "newest backup" a later restore would pick.
    assert backup.newest_backup(data_dir) == newer


def test_restore_a_named_backup_after_asking(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    older, _ = _backups_of_three_stages(data_dir)
    current = rows_of(data_dir / DB_NAME)

    monkeypatch.setattr(sys, "stdin", io.StringIO("n\n"))
    assert main(["restore", older.name]) == 1
    assert "Nothing was restored." in capsys.readouterr().out
    assert rows_of(data_dir / DB_NAME) == current

    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))
    assert main(["restore", older.name]) == 0
    out = capsys.readouterr().out
    assert f"Restore {older} (" in out and "answers" in out
    assert rows_of(data_dir / DB_NAME) == rows_of(older)


def test_restore_refuses_while_this_process_holds_the_lock(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if not backup.CAN_LOCK:
        pytest.skip("no file locks on this platform")
    _backups_of_three_stages(data_dir)
    current = rows_of(data_dir / DB_NAME)
    with DataLock(data_dir).shared():  # as a running game holds it
        assert main(["restore", "--yes"]) == 1
    assert capsys.readouterr().err == (
        f"vocabgame: Another vocabgame is running on {data_dir}; close it and try again "
        "(nothing was restored).\n"
    )
    assert rows_of(data_dir / DB_NAME) == current
    assert not any(b.before_restore for b in list_backups(data_dir, before_restore=True))
    assert main(["restore", "--yes"]) == 0  # and once it is let go, the restore goes through


def test_restore_refuses_while_another_vocabgame_process_runs(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if not backup.CAN_LOCK:
        pytest.skip("no file locks on this platform")
    _backups_of_three_stages(data_dir)
    current = rows_of(data_dir / DB_NAME)
    # A second vocabgame process: `vocabgame settings` holds the lock as long as it runs; its
    # output is a pipe no one reads until it is told to finish, so it waits mid-command.
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD_LOCK, str(data_dir)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "holding\n"
        assert main(["restore", "--yes"]) == 1
        assert "Another vocabgame is running" in capsys.readouterr().err
        assert rows_of(data_dir / DB_NAME) == current
    finally:
        holder.communicate("done\n", timeout=30)
    assert main(["restore", "--yes"]) == 0


def test_a_game_started_while_restore_asks_is_not_kept_waiting_and_stops_the_restore(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if not backup.CAN_LOCK:
        pytest.skip("no file locks on this platform")
    _backups_of_three_stages(data_dir)
    current = rows_of(data_dir / DB_NAME)
    games: list[int] = []

    def player_starts_a_game_then_answers(prompt: str) -> str:
        import fcntl

        fd = os.open(data_dir / backup.LOCK_NAME, os.O_RDWR)
        games.append(fd)
        # As a game takes it; BlockingIOError here would mean the restore held it while asking.
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return "y"

    monkeypatch.setattr("builtins.input", player_starts_a_game_then_answers)
    try:
        assert main(["restore"]) == 1
    finally:
        for fd in games:
            os.close(fd)
    assert "Another vocabgame is running" in capsys.readouterr().err
    assert rows_of(data_dir / DB_NAME) == current


_HOLD_LOCK = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from vocabgame import cli
    from vocabgame.cli import settings

    real = settings.cmd_settings
    def waiting(data_dir, changes):
        print("holding", flush=True)
        sys.stdin.readline()
        return real(data_dir, changes)
    settings.cmd_settings = waiting
    sys.exit(cli.main(["--data-dir", sys.argv[1], "settings"]))
    """
)


def test_restore_over_a_store_with_a_leftover_wal(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game that died leaves its last answers in the -wal. Restoring keeps them in the
    before-restore copy, and the old -wal is not replayed into the restored database."""
    _, newer = _backups_of_three_stages(data_dir)
    died = textwrap.dedent(
        f"""
        import os, sqlite3
        conn = sqlite3.connect({str(data_dir / DB_NAME)!r}, isolation_level=None)
        conn.execute("PRAGMA wal_autocheckpoint=0")
        conn.execute("INSERT INTO flags (deck_id, item_id, face, flagged_at) VALUES ('d', 'i', 'f', 'x')")
        os._exit(0)
        """
    )
    subprocess.run([sys.executable, "-c", died], check=True)
    assert (data_dir / (DB_NAME + "-wal")).stat().st_size > 0
    current = rows_of(data_dir / DB_NAME)
    assert current["flags"]

    assert main(["restore", "--yes"]) == 0

    assert rows_of(data_dir / DB_NAME) == rows_of(newer)
    with Store.open(data_dir / DB_NAME) as store:
        assert store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert store.face_flags.all() == []
    before = next(b for b in list_backups(data_dir, True) if b.before_restore)
    assert rows_of(before.path) == current


def test_a_damaged_store_names_the_newest_backup_and_restore_puts_it_back(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, newer = _backups_of_three_stages(data_dir)
    garbage = b"this is not a database, it was overwritten" * 200
    (data_dir / DB_NAME).write_bytes(garbage)

    assert main(["stats"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.rstrip().endswith(
        f"The newest backup is {newer} (`vocabgame restore` puts it back)."
    )

    assert main(["restore", "--yes"]) == 0
    assert rows_of(data_dir / DB_NAME) == rows_of(newer)
    before = next(b for b in list_backups(data_dir, True) if b.before_restore)
    assert before.path.read_bytes() == garbage  # the damaged file is kept as it was
    assert main(["stats"]) == 0


def test_only_a_damaged_store_points_to_a_backup(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A store that is merely newer, or that cannot be opened at all, gets no sentence about
    backups: restoring one would not help."""
    _backups_of_three_stages(data_dir)
    assert backup.damage_hint(data_dir) == ""
    conn = sqlite3.connect(data_dir / DB_NAME)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    assert main(["stats"]) == 1
    err = capsys.readouterr().err
    assert "newer vocabgame" in err and "backup" not in err
    for suffix in ("", "-wal", "-shm"):
        (data_dir / (DB_NAME + suffix)).unlink(missing_ok=True)
    (data_dir / DB_NAME).mkdir()  # not a file at all: cannot be opened, not damaged
    assert backup.damage_hint(data_dir) == ""


def test_restore_without_backups_says_so(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    some_progress(data_dir, Clock())
    assert main(["restore", "--yes"]) == 1
    assert capsys.readouterr().err == (
        f"vocabgame: There are no backups in {data_dir / 'backups'} yet.\n"
    )


def test_restore_refuses_a_file_that_is_not_a_database(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    some_progress(data_dir, Clock())
    current = rows_of(data_dir / DB_NAME)
    bogus = tmp_path / "notes.db"
    bogus.write_text("shopping list\n" * 100)
    assert main(["restore", "--yes", str(bogus)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"vocabgame: {bogus} is not a vocabgame store: ")
    assert err.endswith("nothing was restored.\n")
    assert rows_of(data_dir / DB_NAME) == current
    assert sorted(p.name for p in data_dir.iterdir() if p.name.startswith(".")) == []


def test_every_command_that_opens_the_store_holds_the_lock() -> None:
    """A command added later that opens the store must hold the lock too, or restore could
    swap the database under it: every command is either in the list or opens nothing."""
    from vocabgame import cli
    from vocabgame.cli.commands import COMMANDS
    from vocabgame.cli.play import GAME

    parser = cli.build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    opens_nothing = {"validate", "decks", "new", "preview", "restore", "import", "export", "schema"}
    # These take each player's own lock themselves: remove alone, the leaderboard shared; the
    # room's file has a lock of its own.
    opens_nothing |= {"players", "leaderboard", "room"}
    holding = {c.name for c in COMMANDS if c.uses_data_folder}
    assert set(commands) - opens_nothing == holding and GAME.uses_data_folder


@pytest.mark.parametrize("command", ["backup", "restore", "check"])
def test_every_new_command_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main([command, "--help"])
    assert caught.value.code == 0
    out = capsys.readouterr().out
    assert f"usage: vocabgame {command}" in out and "backup" in out


# -- check -----------------------------------------------------------------------------------


class Unscheduled(Mode):
    """Answers kept without touching the schedule, as a cram mode does."""

    id = "test-unscheduled"
    title = "Unscheduled"
    description = "Every face, the schedule left alone."
    updates_schedule = False

    def plan(self, ctx: PlanContext) -> list[FaceKey]:
        return ctx.faces()[: ctx.size]


@pytest.fixture(autouse=True)
def _unscheduled_mode() -> object:
    register(Unscheduled())
    yield
    unregister(Unscheduled.id)


def history(
    data_dir: Path, days: int = 40, seed: int = 11, offset: timedelta = timedelta()
) -> None:
    """A real history: rounds over many days with fuzz on, as in play, answers that leave the
    schedule alone among them, and the desired retention changed half-way, so replaying the
    answers cannot lean on today's setting."""
    clock = Clock(START + offset)
    rng = random.Random(seed)
    store = Store.open(data_dir / DB_NAME)
    session = Session(store, _catalog(), clock=clock, tz=UTC, fuzz=True)
    try:
        for day in range(days):
            if day == days // 2:
                session.change_settings(Settings().changed(desired_retention=0.8))
            for mode in (ModeId.LEARN, ModeId.PRACTICE, Unscheduled.id):
                play(session, rng, size=4, mode=mode)
                clock.now += timedelta(minutes=rng.randrange(5, 300))
            clock.now = START + offset + timedelta(days=day + 1)
    finally:
        session.close()


def check_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main(["check", "--json", *args])
    return code, json.loads(capsys.readouterr().out)


def test_check_finds_nothing_in_a_long_real_history(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    history(data_dir)
    with Store.open(data_dir / DB_NAME) as store:
        states = {
            state
            for (state,) in store.conn.execute(
                "SELECT DISTINCT json_extract(card_before, '$.state') FROM reviews"
                " WHERE card_before IS NOT NULL"
            )
        }
        assert states == {1, 2, 3}  # the replay met learning, review and relearning cards
        assert store.conn.execute("SELECT COUNT(*) FROM reviews WHERE scheduled=0").fetchone()[0]
    assert main(["check"]) == 0
    assert capsys.readouterr().out == f"{data_dir / DB_NAME}: no problems found.\n"


def test_check_finds_nothing_after_merging_another_machines_progress(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A merge replays each face's combined history in time order, not in the order the rows
    were stored; the check accepts a chain that agrees in either order."""
    laptop = tmp_path / "laptop"
    history(laptop, days=6, seed=5, offset=timedelta(hours=7))
    assert main(["--data-dir", str(laptop), "export-progress", str(tmp_path / "p.json")]) == 0
    history(data_dir, days=6)  # the same days on this machine, so the histories interleave
    assert main(["import-progress", str(tmp_path / "p.json")]) == 0
    capsys.readouterr()
    with Store.open(data_dir / DB_NAME) as store:
        ids_in_time_order = [
            i for (i,) in store.conn.execute("SELECT id FROM reviews ORDER BY reviewed_at, id")
        ]
        assert ids_in_time_order != sorted(ids_in_time_order)  # the merge did interleave
    assert main(["check"]) == 0, capsys.readouterr().out


def _one_face(conn: sqlite3.Connection, min_answers: int = 3) -> tuple[str, str, str]:
    face = conn.execute(
        "SELECT deck_id, item_id, face FROM reviews WHERE scheduled=1"
        " GROUP BY deck_id, item_id, face HAVING COUNT(*) >= ? ORDER BY 1, 2, 3 LIMIT 1",
        (min_answers,),
    ).fetchone()
    assert face is not None
    return tuple(face)  # type: ignore[return-value]


def _orphan_review(conn: sqlite3.Connection) -> None:
    round_id = conn.execute("SELECT MIN(round_id) FROM reviews").fetchone()[0]
    conn.execute("DELETE FROM rounds WHERE id=?", (round_id,))


def _card_without_review(conn: sqlite3.Connection) -> None:
    card = conn.execute("SELECT card, due FROM cards LIMIT 1").fetchone()
    conn.execute(
        "INSERT INTO cards (deck_id, item_id, face, card_id, card, due) VALUES (?,?,?,?,?,?)",
        ("serving", "never-answered", "term", 99999, *card),
    )


def _missing_card(conn: sqlite3.Connection) -> None:
    face = _one_face(conn)
    conn.execute("DELETE FROM cards WHERE deck_id=? AND item_id=? AND face=?", face)


def _changed_stability(conn: sqlite3.Connection) -> None:
    face = _one_face(conn)
    (text,) = conn.execute(
        "SELECT card FROM cards WHERE deck_id=? AND item_id=? AND face=?", face
    ).fetchone()
    card = json.loads(text)
    card["stability"] = card["stability"] * 3
    conn.execute(
        "UPDATE cards SET card=? WHERE deck_id=? AND item_id=? AND face=?",
        (json.dumps(card), *face),
    )


def _broken_chain(conn: sqlite3.Connection) -> None:
    face = _one_face(conn)
    review_id, text = conn.execute(
        "SELECT id, card_before FROM reviews WHERE scheduled=1 AND card_before IS NOT NULL"
        " AND deck_id=? AND item_id=? AND face=? ORDER BY id LIMIT 1",
        face,
    ).fetchone()
    card = json.loads(text)
    card["difficulty"] = card["difficulty"] + 1
    conn.execute("UPDATE reviews SET card_before=? WHERE id=?", (json.dumps(card), review_id))


def _learning_due(conn: sqlite3.Connection) -> None:
    """A card in (re)learning is due a fixed step after its answer, whatever the retention."""
    for review_id, text in conn.execute(
        "SELECT id, card_before FROM reviews WHERE card_before IS NOT NULL ORDER BY id"
    ).fetchall():
        card = json.loads(text)
        if card["state"] in (1, 3):  # Learning, Relearning
            due = datetime.fromisoformat(card["due"]) + timedelta(hours=1)
            card["due"] = due.isoformat()
            conn.execute(
                "UPDATE reviews SET card_before=? WHERE id=?", (json.dumps(card), review_id)
            )
            return
    raise AssertionError("no card in learning in this history")


def _due_column(conn: sqlite3.Connection) -> None:
    conn.execute("UPDATE cards SET due='2000-01-01T00:00:00+00:00' WHERE rowid=1")


INJECTED = [
    pytest.param("orphan-review", _orphan_review, id="orphan-review"),
    pytest.param("card-without-review", _card_without_review, id="card-without-review"),
    pytest.param("missing-card", _missing_card, id="missing-card"),
    pytest.param("card-mismatch", _changed_stability, id="stored-card"),
    pytest.param("card-mismatch", _broken_chain, id="card-before-chain"),
    pytest.param("card-mismatch", _learning_due, id="learning-due"),
    pytest.param("due-column", _due_column, id="due-column"),
]


@pytest.mark.parametrize(("kind", "inject"), INJECTED)
def test_check_finds_each_problem_and_fix_repairs_it_after_a_backup(
    kind: str,
    inject: Callable[[sqlite3.Connection], None],
    data_dir: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    history(data_dir, days=12)
    conn = sqlite3.connect(data_dir / DB_NAME, isolation_level=None)
    inject(conn)
    conn.close()
    damaged = rows_of(data_dir / DB_NAME)

    code, found = check_json(capsys)
    assert code == 1
    assert {f["kind"] for f in found["findings"]} == {kind}
    n = len(found["findings"])
    assert main(["check"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == n + 1 and all(line.startswith(f"{kind}: ") for line in lines[:n])
    problems = f"{n} problem{'s' * (n != 1)}"
    assert lines[-1].endswith(f"{problems} found; {n} can be repaired with: vocabgame check --fix.")

    code, fixed = check_json(capsys, "--fix")
    assert code == 0 and fixed["fixed"] == n and fixed["remaining"] == []
    assert rows_of(Path(fixed["backup"])) == damaged  # the backup was taken before repairing
    assert main(["check"]) == 0
    capsys.readouterr()
    with Store.open(data_dir / DB_NAME) as store:  # and the game plays on from the repair
        session = Session(store, _catalog(), clock=Clock(START + timedelta(days=13)), tz=UTC)
        play(session, random.Random(2))
    assert main(["check"]) == 0


def test_fix_keeps_the_answers_of_a_missing_round(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    history(data_dir, days=2)
    conn = sqlite3.connect(data_dir / DB_NAME, isolation_level=None)
    answers = conn.execute("SELECT COUNT(*) FROM reviews").fetchone()[0]
    _orphan_review(conn)
    assert main(["check", "--fix"]) == 0
    assert conn.execute("SELECT COUNT(*) FROM reviews").fetchone()[0] == answers
    conn.close()


def test_check_reports_sqlite_damage_that_fix_cannot_repair(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    history(data_dir, days=2)
    conn = sqlite3.connect(data_dir / DB_NAME, isolation_level=None)
    conn.execute("PRAGMA writable_schema=ON")  # an index that no longer matches its table
    conn.execute(
        "UPDATE sqlite_master SET sql='CREATE INDEX cards_due ON cards (deck_id, card_id)'"
        " WHERE name='cards_due'"
    )
    conn.close()

    assert main(["check"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("integrity: SQLite integrity check: row ")
    assert "vocabgame restore" in out[0]
    assert "can be repaired" not in out[-1]
    code, fixed = check_json(capsys, "--fix")
    assert code == 1 and fixed["backup"] is None and fixed["fixed"] == 0


def test_check_of_a_file_that_is_not_a_database(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir.mkdir()
    (data_dir / DB_NAME).write_bytes(b"garbage" * 1000)
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"integrity: {data_dir / DB_NAME} cannot be read (")


def test_fix_changes_nothing_when_it_cannot_write_the_backup(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    history(data_dir, days=2)
    conn = sqlite3.connect(data_dir / DB_NAME, isolation_level=None)
    _due_column(conn)
    conn.close()
    damaged = rows_of(data_dir / DB_NAME)

    def full(source: sqlite3.Connection, dest: Path) -> Path:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(backup, "copy_database", full)
    assert main(["check", "--fix"]) == 1
    assert "Nothing was repaired." in capsys.readouterr().err
    assert rows_of(data_dir / DB_NAME) == damaged
