"""`vocabgame serve` in a real browser: headless Chromium opens the page, plays three questions
by keys, and the store then holds exactly those three answers.

Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them). Without them the
test skips and says why, except under CI (the CI variable set), where it fails.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"

# textual.js keeps its xterm.js terminal to itself; this hook, run before the page's own
# scripts, keeps the first object assigned to a `terminal` property that has a buffer.
CATCH_TERMINAL = """
Object.defineProperty(Object.prototype, "terminal", {
  configurable: true,
  set(value) {
    Object.defineProperty(this, "terminal",
      {value, writable: true, configurable: true, enumerable: true});
    if (value && value.buffer && !window.vocabgameTerminal) window.vocabgameTerminal = value;
  },
});
"""
# The terminal's screen as text, read from xterm.js's buffer (its public API).
READ_SCREEN = """
const t = window.vocabgameTerminal;
if (!t) return null;
const buffer = t.buffer.active, rows = [];
for (let y = 0; y < t.rows; y++) {
  const line = buffer.getLine(buffer.viewportY + y);
  rows.push(line ? line.translateToString(true) : "");
}
return rows.join("\\n");
"""


def _browser() -> tuple[str, str]:
    """Chromium and its driver, or skip (fail under CI) saying what is missing."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    missing = [
        name for name, found in (("chromium", chromium), ("chromedriver", driver)) if not found
    ]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("the selenium package (pip install -e '.[test]')")
    if missing:
        reason = (
            f"no browser to test in: {', '.join(missing)} not found "
            "(apt-get install chromium chromium-driver)"
        )
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI must run the browser test")
        pytest.skip(reason)
    assert chromium is not None and driver is not None
    return chromium, driver


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _vocabgame(*args: str) -> Any:
    done = subprocess.run(
        [sys.executable, "-m", "vocabgame", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout)


def _wait(what: str, probe: Callable[[], Any], timeout: float) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = probe()
        if found:
            return found
        time.sleep(0.25)
    raise AssertionError(f"waited {timeout:.0f} s for {what}")


@pytest.fixture
def played_in(tmp_path: Path) -> Path:
    """The data folder the browser plays in: a space in its name, as the command is quoted."""
    return tmp_path / "data folder"


PASSWORD = "open sesame"


@pytest.fixture
def password() -> str | None:
    """The server's --password (None: it asks for none)."""
    return None


@pytest.fixture
def server(played_in: Path, password: str | None) -> Iterator[str]:
    """`vocabgame serve` on a free local port and the test's data folder; its address."""
    port = _free_port()
    env = dict(os.environ)
    if password is not None:
        env["VOCABGAME_PASSWORD"] = password
    process = subprocess.Popen(
        [sys.executable, "-m", "vocabgame", "serve", "--port", str(port)]
        + ["--data-dir", str(played_in)]
        + (["--password"] if password is not None else []),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert f"http://127.0.0.1:{port}" in line, (line, process.stderr)
        yield f"http://127.0.0.1:{port}/"
    finally:
        process.send_signal(signal.SIGINT)  # as Ctrl+C
        try:
            out, err = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            raise
        # textual-serve passes on what a game wrote to its standard error: shown on failure.
        print(f"vocabgame serve said:\n{out}{err}")


@pytest.fixture
def browser() -> Iterator[Any]:
    chromium, driver_path = _browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in (
        "--headless=new",
        "--no-sandbox",  # CI runs as root
        "--disable-dev-shm-usage",
        "--window-size=1280,800",
        # The page asks for a web font; nothing but this machine is ever contacted.
        "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    driver.set_page_load_timeout(60)
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CATCH_TERMINAL})
        yield driver
    finally:
        driver.quit()


def test_three_questions_played_in_chromium_are_the_three_answers_in_the_store(
    server: str, browser: Any, played_in: Path
) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    def screen() -> str:
        if browser.execute_script("return document.body.classList.contains('-closed')"):
            raise AssertionError("the game ended: the page says 'Session ended.'")
        return browser.execute_script(READ_SCREEN) or ""

    def answers() -> int:
        return int(_vocabgame("stats", "--json", "--data-dir", str(played_in))["reviews"])

    browser.get(server)
    try:
        _wait("who is playing, in the browser", lambda: "Who is playing?" in screen(), 90)
    except AssertionError as exc:
        found = browser.execute_script("return Boolean(window.vocabgameTerminal)")
        raise AssertionError(
            f"{exc}; " + ("the page shows:\n" + screen() if found else "no terminal on the page")
        ) from None
    # As a person does: click the terminal, which gives its hidden input the focus, then
    # type. (Sending keys to the hidden textarea itself fails in newer Chromium builds.)
    browser.find_element(By.CSS_SELECTOR, ".xterm-screen").click()
    _wait(
        "the terminal to take the keyboard focus",
        lambda: browser.execute_script(
            "return document.activeElement"
            " && document.activeElement.classList.contains('xterm-helper-textarea')"
        ),
        10,
    )

    def press(key: str) -> None:
        ActionChains(browser).send_keys(key).perform()

    press("\ue007")  # Enter: the first player, the data folder's own
    _wait("the home screen", lambda: "All decks" in screen(), 60)
    press("\ue007")  # Enter: play all decks
    for number in (1, 2, 3):
        _wait(f"question {number}", lambda n=number: f"Question {n} of" in screen(), 60)
        if number == 1:
            ARTIFACTS.mkdir(exist_ok=True)
            shot = ARTIFACTS / "browser-question.png"
            browser.save_screenshot(str(shot))
            print(f"screenshot of the question screen in Chromium: {shot}")
        # Whatever kind it is: 1 picks a choice, or is typed and Enter submits it; a recall
        # question's Enter reveals the answer and 3 grades it. A new question takes no key
        # for its first quarter second, so the keys go round until the answer is saved.
        deadline = time.monotonic() + 60
        for key in itertools.cycle(("1", "\ue007", "3")):
            press(key)
            try:
                _wait(f"answer {number} in the store", lambda n=number: answers() >= n, 3)
                break
            except AssertionError:
                if time.monotonic() > deadline:
                    raise AssertionError(f"answer {number} never saved:\n{screen()}") from None
        assert answers() == number, screen()
        press("\ue007")  # Enter: on to the next question
    _wait("question 4", lambda: "Question 4 of" in screen(), 60)

    stats = _vocabgame("stats", "--json", "--data-dir", str(played_in))
    assert (stats["reviews"], stats["rounds"]) == (3, 0)
    assert _vocabgame("flags", "--json", "--data-dir", str(played_in)) == []


class Tab:
    """One browser tab of the game, driven by keys as a person does."""

    def __init__(self, browser: Any, server: str, handle: str) -> None:
        self.browser, self.handle = browser, handle
        self.use()
        browser.get(server)

    def use(self) -> None:
        self.browser.switch_to.window(self.handle)

    def screen(self) -> str:
        self.use()
        if self.browser.execute_script("return document.body.classList.contains('-closed')"):
            raise AssertionError("the game ended: the page says 'Session ended.'")
        return self.browser.execute_script(READ_SCREEN) or ""

    def wait_for(self, text: str, timeout: float = 90) -> None:
        try:
            _wait(repr(text), lambda: text in self.screen(), timeout)
        except AssertionError as exc:
            raise AssertionError(f"{exc}; the page shows:\n{self.screen()}") from None

    def press(self, *keys: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.by import By

        self.use()

        def focused() -> bool:
            return bool(
                self.browser.execute_script(
                    "return document.activeElement"
                    " && document.activeElement.classList.contains('xterm-helper-textarea')"
                )
            )

        if not focused():  # a click is also a mouse click in the game: only when needed
            self.browser.find_element(By.CSS_SELECTOR, ".xterm-screen").click()
            _wait("the terminal to take the keyboard focus", focused, 10)
        for key in keys:
            ActionChains(self.browser).send_keys(key).perform()


def _answers(data_dir: Path, player: str) -> int:
    """The answers in the player's own store, read straight from it (a command a poll
    would cost a second)."""
    import sqlite3

    from vocabgame.players import find_player

    db = find_player(data_dir, player).folder(data_dir) / "vocabgame.db"
    if not db.exists():
        return 0
    conn = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM reviews").fetchone()[0])
    finally:
        conn.close()


def _answer_one(tab: Tab, data_dir: Path, player: str, number: int) -> None:
    """Answer question `number` whatever its kind (as the test above does), until the
    player's store holds `number` answers."""
    tab.wait_for(f"Question {number} of", 60)
    deadline = time.monotonic() + 60
    for key in itertools.cycle(("1", "\ue007", "3")):
        tab.press(key)
        try:
            _wait(f"{player}'s answer {number}", lambda: _answers(data_dir, player) >= number, 3)
            return
        except AssertionError:
            if time.monotonic() > deadline:
                raise AssertionError(f"answer {number} never saved:\n{tab.screen()}") from None


@pytest.mark.parametrize("password", [PASSWORD])
def test_two_players_in_two_tabs_keep_their_own_answers_and_undo_and_both_lead(
    server: str, browser: Any, played_in: Path
) -> None:
    from selenium.webdriver.common.by import By

    # The server asks for a password: a wrong one gets the form again, the right one the game.
    for given in ("open sesam", PASSWORD):
        browser.get(server)
        _wait("the password form", lambda: browser.find_elements(By.NAME, "password"), 30)
        assert not browser.execute_script("return Boolean(window.vocabgameTerminal)")
        field = browser.find_element(By.NAME, "password")
        field.send_keys(given)
        field.submit()
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    second = browser.current_window_handle
    # The hook that finds the terminal, in the second tab too (CDP commands go to one tab).
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CATCH_TERMINAL})
    ana, bo = Tab(browser, server, first), Tab(browser, server, second)
    for tab, name in ((ana, "Ana"), (bo, "Bo")):
        tab.wait_for("Who is playing?")
        tab.press("\t")  # Tab: to the new player's name
        time.sleep(0.5)  # keys sent at once can pass the focus on its way to the name
        tab.press(*name)
        tab.wait_for(f"▊  {name}", 10)
        tab.press("\ue007")  # Enter: add them and play as them
    for tab in (ana, bo):
        tab.wait_for("All decks", 60)
        tab.press("\ue007")  # Enter: play all decks
    _answer_one(ana, played_in, "Ana", 1)
    _answer_one(bo, played_in, "Bo", 1)
    ana.press("\ue007")
    _answer_one(ana, played_in, "Ana", 2)
    assert (_answers(played_in, "Ana"), _answers(played_in, "Bo")) == (2, 1)
    bo.press("u")  # Bo's undo: his answer goes, Ana's two stay
    _wait("Bo's undo", lambda: _answers(played_in, "Bo") == 0, 30)
    assert _answers(played_in, "Ana") == 2
    for name, answered in (("Ana", 2), ("Bo", 0)):
        stats = _vocabgame("--player", name, "stats", "--json", "--data-dir", str(played_in))
        assert (stats["reviews"], sum(d["seen"] for d in stats["decks"])) == (answered,) * 2
    # The data folder's own player never played.
    assert _vocabgame("stats", "--json", "--data-dir", str(played_in))["reviews"] == 0
    board = _vocabgame("leaderboard", "--json", "--data-dir", str(played_in))
    assert sorted(p["player"] for p in board["players"]) == ["Ana", "Bo"]
    assert board["hidden"] == 1  # the data folder's own player, who was not asked
