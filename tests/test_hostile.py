"""Hostile files and terminals: names that carry terminal escapes, deck text with bidi
overrides, named pipes, devices, folders that cannot be searched, and a game started where
there is no terminal. Each gets one sentence, never a hang, a traceback or a raw escape."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from vocabgame import paths
from vocabgame.cli import main, render_stats, terminal_problem
from vocabgame.deck import find_deck_files, load_catalog, load_text, read_text
from vocabgame.play import open_session
from vocabgame.printable import printable
from vocabgame.problems import DeckError
from vocabgame.quiz import FaceKey
from vocabgame.stats import DeckStats, Stats
from vocabgame.store import Store

from .conftest import DATA

ROOT = Path(__file__).resolve().parent.parent
# An OSC 52 sequence: a terminal that honours it puts "hi" on the clipboard.
OSC52 = "\x1b]52;c;aGk=\x07"
SHOWN = "\\x1b]52;c;aGk=\\x07"
VALID = (DATA / "latency-basics.yaml").read_text(encoding="utf-8")
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
AS_ROOT = "runs as root, and root ignores file permissions: the monkeypatched test covers this"


@pytest.fixture(autouse=True)
def _no_builtin_decks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Only the tests' own decks: the built-in ones are edited by others meanwhile."""
    empty = tmp_path / "builtin"
    empty.mkdir()
    monkeypatch.setattr(paths, "builtin_decks_dir", lambda: empty)
    return empty


def run(*args: str, cwd: Path, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """vocabgame in a child process, as a shell runs it; a hang fails the test, never the run."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "VOCABGAME_DATA_DIR": str(cwd / "data")}
    env.update(kwargs.pop("env", {}))  # type: ignore[call-overload]
    return subprocess.run(
        [sys.executable, "-m", "vocabgame", *args],
        cwd=cwd,
        env=env,
        capture_output=kwargs.pop("capture_output", True),  # type: ignore[arg-type]
        text=True,
        timeout=60,
        **kwargs,  # type: ignore[arg-type]
    )


def no_raw_controls(text: str) -> bool:
    return not any(ch in text for ch in "\x1b\x07\x9b\u202e")


# -- (A) names and text that would drive the terminal -----------------------------------------


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("plain/path.yaml", "plain/path.yaml"),
        (OSC52, SHOWN),
        ("a\nb\tc\rd", "a\\x0ab\\x09c\\x0dd"),
        ("del\x7f c1\x9b[31m", "del\\x7f c1\\x9b[31m"),
        ("evil\u202eexe.yaml", "evil\\u202eexe.yaml"),
        ("\u2066iso\u2069 \u200fmark", "\\u2066iso\\u2069 \\u200fmark"),
        ("bytes\udcff", "bytes\\udcff"),  # a file name byte that is not UTF-8
        ("ünïcode — fine [bold]", "ünïcode — fine [bold]"),
    ],
)
def test_printable_shows_control_characters_as_escapes(raw: str, shown: str) -> None:
    assert printable(raw) == shown


def hostile_deck(folder: Path, text: str = VALID) -> Path:
    path = folder / f"deck{OSC52}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_validate_escapes_a_file_name_holding_a_terminal_escape(tmp_path: Path, capsys) -> None:
    path = hostile_deck(tmp_path / "decks", "format: 1\n")
    assert main(["validate", str(tmp_path / "decks")]) == 1
    out, err = capsys.readouterr()
    assert f"deck{SHOWN}.yaml:1:1: error:" in out
    assert no_raw_controls(out) and no_raw_controls(err)
    assert main(["validate", str(path)]) == 1  # named on the command line too
    out, err = capsys.readouterr()
    assert f"deck{SHOWN}.yaml:1:1: error:" in out and no_raw_controls(out + err)


def test_decks_escapes_the_path_of_a_deck_and_of_a_broken_one(tmp_path: Path, capsys) -> None:
    hostile_deck(tmp_path / "good")
    hostile_deck(tmp_path / "bad", "format: 1\n")
    assert main(["decks", "--decks", str(tmp_path / "good"), "--decks", str(tmp_path / "bad")]) == 1
    out, err = capsys.readouterr()
    assert f"deck{SHOWN}.yaml" in out and f"deck{SHOWN}.yaml" in err
    assert no_raw_controls(out) and no_raw_controls(err)


def test_no_decks_found_escapes_the_folders_searched(tmp_path: Path, capsys) -> None:
    folder = tmp_path / f"empty{OSC52}"
    folder.mkdir()
    assert main(["decks", "--decks", str(folder)]) == 0
    out = capsys.readouterr().out
    assert f"empty{SHOWN}" in out and no_raw_controls(out)


def test_stats_escapes_and_reports_a_deck_that_could_not_be_loaded(tmp_path: Path, capsys) -> None:
    hostile_deck(tmp_path / "bad", "format: 1\n")
    assert main(["stats", "--decks", str(tmp_path / "bad")]) == 0
    out, err = capsys.readouterr()
    assert f"deck{SHOWN}.yaml:1:1: error:" in err
    assert no_raw_controls(out) and no_raw_controls(err)


def test_stats_table_escapes_a_title() -> None:
    stats = Stats(0, 0, 0, (DeckStats("d", f"Title{OSC52}", 0, 1, 0, None),))
    text = render_stats(stats)
    assert f"Title{SHOWN}" in text and no_raw_controls(text)


def test_new_escapes_the_path_it_wrote_and_the_one_it_refused(tmp_path: Path, capsys) -> None:
    path = tmp_path / f"mine{OSC52}.yaml"
    assert main(["new", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"Wrote {tmp_path}/mine{SHOWN}.yaml." in out and no_raw_controls(out)
    assert main(["new", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"mine{SHOWN}.yaml: already exists" in err and no_raw_controls(err)


def test_settings_escapes_the_data_folder(tmp_path: Path, capsys) -> None:
    data = tmp_path / f"data{OSC52}"
    assert main(["settings", "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert f"data folder        {data.parent}/data{SHOWN}" in out and no_raw_controls(out)


def test_flags_escape_what_the_database_holds(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data"
    store = Store.open(data / "vocabgame.db")
    key = FaceKey(f"deck{OSC52}", "item\u202e", "definition")
    store.face_flags.add(key, datetime(2026, 11, 30, 9, 5, tzinfo=UTC), note=f"note{OSC52}")
    store.close()
    assert main(["flags", "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert f"deck{SHOWN} (no deck file with this id now): item\\u202e (definition)" in out
    assert f"note: note{SHOWN}" in out
    assert no_raw_controls(out)


def test_an_error_sentence_naming_a_hostile_folder_is_escaped(tmp_path: Path, capsys) -> None:
    data = tmp_path / f"data{OSC52}"
    data.mkdir()
    (data / "vocabgame.db").write_bytes(bytes(range(256)) * 40)  # damaged
    assert main(["stats", "--data-dir", str(data)]) == 1
    [line] = capsys.readouterr().err.splitlines()
    assert f"data{SHOWN}/vocabgame.db is damaged" in line and no_raw_controls(line)


@pytest.mark.parametrize(
    "char",
    ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e"] + ["\u2066", "\u2067", "\u2068", "\u2069"],
)
def test_bidi_controls_in_deck_text_are_errors_at_their_position(char: str) -> None:
    text = VALID.replace("title: Latency and throughput", f'title: "Latency {char}and throughput"')
    assert text != VALID
    deck, problems = load_text(text, "deck.yaml")
    assert deck is None
    line = 1 + VALID[: VALID.index("title: Latency")].count("\n")
    assert [str(p) for p in problems] == [
        f"deck.yaml:{line}:8: error: text contains the bidirectional control character "
        f"U+{ord(char):04X}, which makes text display in another order than it is written; "
        "deck text may not hold it"
    ]


def test_bidi_controls_written_as_yaml_escapes_are_errors_too() -> None:
    text = VALID.replace("title: Latency and throughput", 'title: "Latency \\u202Eand"')
    _, problems = load_text(text, "deck.yaml")
    assert [p.message.split(",")[0] for p in problems] == [
        "text contains the bidirectional control character U+202E"
    ]


def test_the_validator_reports_a_bidi_override_with_an_escaped_line(tmp_path: Path, capsys) -> None:
    path = tmp_path / "deck.yaml"
    path.write_text(VALID.replace("title: Latency", "title: \u202eLatency"), encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert "bidirectional control character U+202E" in out and no_raw_controls(out)


# -- (B) files that are not regular files, and folders that cannot be searched ----------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
def test_validate_reports_a_named_pipe_at_once_instead_of_waiting(tmp_path: Path) -> None:
    folder = tmp_path / "decks"
    folder.mkdir()
    os.mkfifo(folder / "pipe.yaml")
    started = time.monotonic()
    direct = run("validate", str(folder / "pipe.yaml"), cwd=tmp_path)
    walked = run("validate", str(folder), cwd=tmp_path)
    listed = run("decks", "--decks", str(folder), cwd=tmp_path)
    assert time.monotonic() - started < 50  # a hang would have hit the 60 s timeout
    sentence = (
        "pipe.yaml: error: is a named pipe (FIFO), not a deck file; only regular files are read"
    )
    for result in (direct, walked):
        assert result.returncode == 1
        assert result.stdout.strip() == f"{folder}/{sentence}"
        assert "Traceback" not in result.stderr
    assert listed.returncode == 1 and f"{folder}/{sentence}" in listed.stderr


def limit_memory() -> None:
    """In the child: a failing fix dies of a MemoryError in seconds instead of filling the
    machine's memory from /dev/zero."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
def test_a_link_to_a_device_is_refused_without_being_read(tmp_path: Path) -> None:
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "zero.yaml").symlink_to("/dev/zero")
    sentence = (
        f"{folder}/zero.yaml: error: is a device, not a deck file; only regular files are read"
    )
    for args in (["validate", str(folder / "zero.yaml")], ["validate", str(folder)]):
        result = run(*args, cwd=tmp_path, preexec_fn=limit_memory)
        assert result.returncode == 1, result.stderr
        assert result.stdout.strip() == sentence
        assert "Traceback" not in result.stderr


def test_a_file_is_read_only_up_to_the_limit_plus_one_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file whose size on paper says nothing (as /proc's files say 0) is still cut off while
    it is read: at most the limit plus one byte is ever asked for."""
    path = tmp_path / "big.yaml"
    path.write_bytes(b"#" * 10_000)
    real_stat = os.stat

    def says_empty(p: object, *args: object, **kwargs: object) -> os.stat_result:
        result = real_stat(p, *args, **kwargs)  # type: ignore[arg-type]
        if str(p) != str(path):
            return result
        fields = list(result)
        fields[6] = 0  # st_size
        return os.stat_result(fields)

    asked: list[int] = []
    real_fdopen = os.fdopen

    class Spy:
        def __init__(self, f: object) -> None:
            self.f = f

        def __enter__(self) -> Spy:
            return self

        def __exit__(self, *exc: object) -> None:
            self.f.close()  # type: ignore[attr-defined]

        def fileno(self) -> int:
            return self.f.fileno()  # type: ignore[attr-defined]

        def read(self, size: int = -1) -> bytes:
            asked.append(size)
            return self.f.read(size)  # type: ignore[attr-defined]

    monkeypatch.setattr(os, "stat", says_empty)
    monkeypatch.setattr(os, "fdopen", lambda fd, mode: Spy(real_fdopen(fd, mode)))
    with pytest.raises(DeckError) as caught:
        read_text(path, max_bytes=100)
    assert str(caught.value) == f"{path}: error: file is over the limit of 100 bytes"
    assert asked == [101]


@pytest.mark.skipif(not Path("/proc/self/maps").is_file(), reason="needs Linux's /proc")
def test_a_proc_file_of_size_zero_is_cut_off_at_the_limit() -> None:
    with pytest.raises(DeckError, match="over the limit of 16 bytes"):
        read_text(Path("/proc/self/maps"), max_bytes=16)


def test_a_dangling_link_in_a_deck_folder_is_reported(tmp_path: Path) -> None:
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "gone.yaml").symlink_to(tmp_path / "nowhere.yaml")
    catalog = load_catalog([folder])
    assert [str(p) for p in catalog.problems] == [
        f"{folder}/gone.yaml: error: is a link to a missing file"
    ]


def deny(monkeypatch: pytest.MonkeyPatch, name: str, blocked: Path) -> None:
    """Make os.<name> refuse `blocked` as the OS does a folder without search permission."""
    real = getattr(os, name)

    def refuse(path: object = ".", *args: object, **kwargs: object) -> object:
        if isinstance(path, (str, os.PathLike)) and os.fspath(path) == str(blocked):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, name, refuse)


def two_folders(tmp_path: Path) -> tuple[Path, Path]:
    """A folder with a readable deck and a subfolder (holding another) that cannot be read."""
    top = tmp_path / "decks"
    (top / "locked").mkdir(parents=True)
    (top / "open.yaml").write_text(VALID, encoding="utf-8")
    (top / "locked" / "hidden.yaml").write_text(VALID.replace("id: latency", "id: hid"))
    return top, top / "locked"


SUBFOLDER = "error: cannot search this folder (Permission denied); the decks in it were skipped"


def test_a_subfolder_that_cannot_be_read_is_reported_not_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    top, locked = two_folders(tmp_path)
    deny(monkeypatch, "scandir", locked)
    found, problems = find_deck_files([top])
    assert found == [top / "open.yaml"]
    assert [str(p) for p in problems] == [f"{locked}: {SUBFOLDER}"]
    assert main(["decks", "--decks", str(top)]) == 1
    out, err = capsys.readouterr()
    assert "latency-basics" in out and err.strip() == f"{locked}: {SUBFOLDER}"
    assert main(["validate", str(top)]) == 1
    out, err = capsys.readouterr()
    assert out.strip() == f"{locked}: {SUBFOLDER}" and "Traceback" not in err


@pytest.mark.parametrize("command", ["decks", "stats", "validate", "play"])
def test_a_deck_folder_that_cannot_be_reached_is_one_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys, command: str
) -> None:
    """As when the folder above it has no search permission: even stat() is refused."""
    top, _ = two_folders(tmp_path)
    deny(monkeypatch, "stat", top)
    argv = [command, str(top)] if command == "validate" else [command, "--decks", str(top)]
    code = main(argv)
    out, err = capsys.readouterr()
    sentence = f"{top}: error: cannot open: Permission denied"
    if command == "play":
        assert code == 2  # no terminal here; the folder did not stop it
        session = open_session(tmp_path / "data", [top])
        try:
            assert session.home().problems == (sentence,)
        finally:
            session.close()
    else:
        assert code == (0 if command == "stats" else 1)
        assert sentence in (out + err).splitlines()
    assert "Traceback" not in err


@pytest.mark.skipif(IS_ROOT, reason=AS_ROOT)
def test_a_folder_without_permissions_is_reported_for_real(tmp_path: Path, capsys) -> None:
    top, locked = two_folders(tmp_path)
    locked.chmod(0)
    try:
        assert main(["decks", "--decks", str(top)]) == 1
        err = capsys.readouterr().err
        assert err.strip() == f"{locked}: {SUBFOLDER}"
        unreachable = tmp_path / "decks" / "locked" / "inner"
        assert main(["validate", str(unreachable)]) == 1
        out = capsys.readouterr().out
        assert out.strip() == f"{unreachable}: error: cannot open: Permission denied"
    finally:
        locked.chmod(0o755)


# -- (C) no terminal, or one that cannot show the game ----------------------------------------


class Stream:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


TTY, PIPE = Stream(True), Stream(False)


@pytest.mark.parametrize(
    ("stdin", "stdout", "env", "expected"),
    [
        (TTY, TTY, {"TERM": "xterm-256color"}, None),
        (TTY, TTY, {"TERM": "some-new-terminal"}, None),
        (PIPE, TTY, {"TERM": "xterm"}, "standard input is not one"),
        (TTY, PIPE, {"TERM": "xterm"}, "standard output is not one"),
        (None, TTY, {"TERM": "xterm"}, "standard input is not one"),
        (TTY, TTY, {"TERM": "dumb"}, "(TERM=dumb)"),
        (TTY, TTY, {}, "(TERM is not set)"),
    ],
)
def test_terminal_problem_says_when_the_game_cannot_be_shown(
    stdin: Stream | None, stdout: Stream, env: dict[str, str], expected: str | None
) -> None:
    problem = terminal_problem(stdin, stdout, env)
    if expected is None or os.name == "nt" and "TERM" in expected:
        assert problem is None
    else:
        assert problem is not None and expected in problem


@pytest.mark.parametrize("command", [[], ["play"], ["preview", "deck.yaml"]])
def test_the_game_without_a_terminal_exits_at_once_with_one_sentence(
    tmp_path: Path, command: list[str]
) -> None:
    (tmp_path / "deck.yaml").write_text(VALID, encoding="utf-8")
    started = time.monotonic()
    result = run(*command, cwd=tmp_path, stdin=subprocess.DEVNULL)
    assert time.monotonic() - started < 50  # it used to spin until killed
    assert result.returncode == 2
    [line] = result.stderr.splitlines()
    assert line.startswith("vocabgame: the game needs a terminal, but standard input is not one")
    assert result.stdout == ""


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.parametrize("term", ["dumb", ""])
def test_a_dumb_terminal_gets_one_sentence_instead_of_the_game(tmp_path: Path, term: str) -> None:
    main_fd, child_fd = pty.openpty()
    try:
        result = run(
            "play",
            cwd=tmp_path,
            stdin=child_fd,
            stdout=child_fd,
            capture_output=False,
            stderr=subprocess.PIPE,
            env={"TERM": term},
        )
    finally:
        os.close(child_fd)
        os.close(main_fd)
    assert result.returncode == 2
    [line] = result.stderr.splitlines()
    assert "this terminal cannot show the game" in line and "TERM=xterm-256color" in line


@pytest.mark.parametrize("command", [["stats"], ["validate", "decks"], ["decks"], ["flags"]])
def test_text_commands_keep_working_in_pipes_and_dumb_terminals(
    tmp_path: Path, command: list[str]
) -> None:
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "deck.yaml").write_text(VALID, encoding="utf-8")
    result = run(*command, cwd=tmp_path, stdin=subprocess.DEVNULL, env={"TERM": "dumb"})
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
