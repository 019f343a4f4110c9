"""The progress bar of export-progress, import-progress and check: only on a terminal, never
with --json, and only once the work has taken more than a second."""

from __future__ import annotations

import io

import pytest

from vocabgame.cli import bar as bar_module
from vocabgame.cli.bar import Bar


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_bar_appears_only_after_a_second_and_goes_at_the_end() -> None:
    clock = Clock()
    with Bar("Exporting", shown=True, clock=clock) as bar:
        bar(10, 100)
        clock.now += 0.9
        bar(50, 100)
        assert bar.progress is None  # quick work shows nothing
        clock.now += 0.2
        bar(60, 100)
        assert bar.progress is not None
        task = bar.progress.tasks[0]
        assert (task.completed, task.total, task.description) == (60, 100, "Exporting")
    assert bar.progress is None


def test_no_bar_when_not_shown_however_long_it_takes() -> None:
    clock = Clock()
    with Bar("Checking", shown=False, clock=clock) as bar:
        clock.now += 60
        bar(1, 2)
        assert bar.progress is None


@pytest.mark.parametrize(
    ("out_tty", "err_tty", "as_json", "shown"),
    [
        (True, True, False, True),
        (False, True, False, False),  # output to a pipe or a file
        (True, False, False, False),
        (True, True, True, False),  # --json: never
    ],
)
def test_shown_only_on_a_terminal_and_never_with_json(
    monkeypatch: pytest.MonkeyPatch, out_tty: bool, err_tty: bool, as_json: bool, shown: bool
) -> None:
    out, err = io.StringIO(), io.StringIO()
    ttys = {id(out): out_tty, id(err): err_tty}
    monkeypatch.setattr(bar_module.sys, "stdout", out)
    monkeypatch.setattr(bar_module.sys, "stderr", err)
    monkeypatch.setattr(bar_module, "is_terminal", lambda stream: ttys[id(stream)])
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    assert Bar.on_terminal("Checking", as_json).shown is shown


class Recorder(Bar):
    calls: list[tuple[str, int, int]] = []

    def __call__(self, done: int, total: int) -> None:
        Recorder.calls.append((self.what, done, total))


def test_export_import_and_check_tell_their_bar_how_far_they_are(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from vocabgame.cli import main

    from .test_progress import play_days

    monkeypatch.setattr("vocabgame.progress.EVERY", 4)
    monkeypatch.setattr("vocabgame.check.EVERY", 4)
    monkeypatch.setattr(
        Bar, "on_terminal", classmethod(lambda cls, what, *a, **k: Recorder(what, False))
    )
    Recorder.calls = []
    home, file = tmp_path / "home", tmp_path / "p.json"
    play_days(home, 0, 3)
    assert main(["export-progress", str(file), "--data-dir", str(home)]) == 0
    assert main(["import-progress", str(file), "--data-dir", str(tmp_path / "laptop")]) == 0
    assert main(["check", "--data-dir", str(home)]) == 0
    seen = {
        what: [(d, t) for w, d, t in Recorder.calls if w == what] for what, *_ in Recorder.calls
    }
    assert set(seen) == {"Exporting", "Importing", "Checking"}
    for what, ticks in seen.items():
        assert len(ticks) > 1, what
        assert all(0 < done <= total for done, total in ticks), what
        assert [d for d, _ in ticks] == sorted(d for d, _ in ticks), what
    done, total = seen["Exporting"][-1]
    assert done == total  # every row written
