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


@pytest.fixture
def server(played_in: Path) -> Iterator[str]:
    """`vocabgame serve` on a free local port and the test's data folder; its address."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "vocabgame", "serve", "--port", str(port)]
        + ["--data-dir", str(played_in)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
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
        _wait("the home screen in the browser", lambda: "All decks" in screen(), 90)
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
