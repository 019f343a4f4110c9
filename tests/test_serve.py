"""`vocabgame serve`: the address it prints, the warning off localhost, the command each tab
runs, which pages may open a game, and a clean stop. The game in a real browser is in
test_browser.py."""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from vocabgame.cli import in_browser, main, terminal_problem
from vocabgame.settings import Settings
from vocabgame.ui import serve
from vocabgame.ui.serve import connection_allowed, game_command, is_local


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, int]]:
    """`GameServer.run` that opens no port: it records (command, host, port) and says it
    listens."""
    calls: list[tuple[str, str, int]] = []

    def run(self: serve.GameServer, listening: Callable[[], object]) -> None:
        calls.append((self.command, self.host, self.port))
        listening()

    monkeypatch.setattr(serve.GameServer, "run", run)
    return calls


def test_help_names_the_options_and_the_risk(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["serve", "--help"])
    assert caught.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "--host HOST" in out and "--port N" in out and "--data-dir DIR" in out
    assert "default 127.0.0.1: this machine only" in out
    assert "0.0.0.0 lets anyone who can reach the port play and change your progress" in out


def test_localhost_by_default_prints_the_address_and_no_warning(
    served: list[tuple[str, str, int]], data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve"]) == 0
    out, err = capsys.readouterr()
    assert out == "Open http://127.0.0.1:8000 in a browser to play. Stop with Ctrl+C.\n"
    assert err == ""
    [(command, host, port)] = served
    assert (host, port) == ("127.0.0.1", 8000)
    assert shlex.split(command) == [
        sys.executable,
        "-m",
        "vocabgame",
        "--data-dir",
        str(data_dir.absolute()),
        "--choose-player",  # each tab first asks who is playing
    ]


def test_with_a_player_every_tab_plays_as_them_and_asks_no_one(
    served: list[tuple[str, str, int]], data_dir: Path
) -> None:
    from vocabgame.players import add_player

    add_player(data_dir, "Ana; rm -rf ~")
    assert main(["--player", "ana; RM -rf ~", "serve"]) == 0
    [(command, _, _)] = served
    assert shlex.split(command)[3:] == ["--data-dir", str(data_dir), "--player", "ana; RM -rf ~"]


@pytest.mark.parametrize("host", ["localhost", "::1", "127.0.0.2"])
def test_other_loopback_names_are_local_too(
    served: list[tuple[str, str, int]], host: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--host", host, "--port", "8123"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert ":8123 in a browser to play" in out


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20", "::", "games.example"])
def test_any_other_address_warns_in_one_line(
    served: list[tuple[str, str, int]], host: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--host", host, "--port", "8123"]) == 0
    out, err = capsys.readouterr()
    assert err == (
        f"vocabgame: warning: listening on {host}: anyone who can reach port 8123 can play "
        "and change the progress in this data folder.\n"
    )
    assert "in a browser to play. Stop with Ctrl+C." in out
    if host in ("0.0.0.0", "::"):
        assert out.startswith(
            "Open http://127.0.0.1:8123 here, or this machine's address with port 8123 "
            "from elsewhere,"
        )


def test_a_data_folder_no_game_could_use_is_said_before_serving(
    served: list[tuple[str, str, int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "vocabgame.db").write_bytes(b"this is not a database, " * 100)
    assert main(["serve", "--data-dir", str(tmp_path / "data")]) == 1
    out, err = capsys.readouterr()
    assert out == "" and served == []
    [line] = err.splitlines()
    assert line.startswith("vocabgame: ") and "vocabgame.db" in line


@pytest.mark.parametrize("port", ["0", "65536", "http"])
def test_a_port_out_of_range_is_a_usage_error(
    served: list[tuple[str, str, int]], port: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["serve", "--port", port])
    assert caught.value.code == 2
    assert "--port" in capsys.readouterr().err
    assert served == []


def test_each_tab_runs_this_python_on_the_same_folders_quoted(tmp_path: Path) -> None:
    data = tmp_path / "it's my data"
    decks = [tmp_path / "decks; rm -rf ~", tmp_path / "two words"]
    command = game_command(data, decks, python="/opt/py thon/bin/python3")
    assert shlex.split(command) == [
        "/opt/py thon/bin/python3",
        "-m",
        "vocabgame",
        "--data-dir",
        str(data),
        "--decks",
        str(decks[0]),
        "--decks",
        str(decks[1]),
    ]


def test_decks_given_before_or_after_the_command_are_passed_on(
    served: list[tuple[str, str, int]], tmp_path: Path
) -> None:
    assert main(["--decks", str(tmp_path / "a"), "serve", "--decks", str(tmp_path / "b")]) == 0
    [(command, _, _)] = served
    args = shlex.split(command)
    assert args[-4:] == ["--decks", str(tmp_path / "a"), "--decks", str(tmp_path / "b")]


def test_without_textual_serve_one_sentence_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delitem(sys.modules, "vocabgame.ui.serve")
    monkeypatch.setitem(sys.modules, "textual_serve.server", None)
    assert main(["serve"]) == 1
    assert capsys.readouterr().err == (
        "vocabgame: playing in a browser needs textual-serve; install it with: "
        "pip install textual-serve\n"
    )


class _Pipe:
    def isatty(self) -> bool:
        return False


@pytest.mark.parametrize("term", [{}, {"TERM": "dumb"}, {"TERM": "xterm-256color"}])
def test_a_game_started_for_a_browser_tab_is_not_refused_for_want_of_a_terminal(
    term: dict[str, str],
) -> None:
    """textual-serve runs each game with pipes on both ends, the server's TERM (none at all
    under a service manager) and TEXTUAL_DRIVER naming Textual's web driver."""
    served = {**term, "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver"}
    assert in_browser(served) and not in_browser(term)
    assert terminal_problem(_Pipe(), _Pipe(), served) is None
    assert terminal_problem(_Pipe(), _Pipe(), term) is not None


@pytest.mark.parametrize(
    ("host", "origin", "bind", "allowed"),
    [
        ("127.0.0.1:8000", "http://127.0.0.1:8000", "127.0.0.1", True),
        ("localhost:8000", "http://localhost:8000", "127.0.0.1", True),
        ("[::1]:8000", "http://[::1]:8000", "::1", True),
        ("127.0.0.1:8000", None, "127.0.0.1", False),  # not a browser: some local program
        # another web site open in the player's browser
        ("127.0.0.1:8000", "http://evil.example", "127.0.0.1", False),
        ("127.0.0.1:8000", "null", "127.0.0.1", False),
        # a web site whose name was pointed at 127.0.0.1 (DNS rebinding)
        ("evil.example:8000", "http://evil.example:8000", "127.0.0.1", False),
        # served to the network: any name this machine is reached by, from its own page
        ("192.168.1.20:8000", "http://192.168.1.20:8000", "0.0.0.0", True),
        ("192.168.1.20:8000", "http://evil.example", "0.0.0.0", False),
        ("bad host<script>", None, "0.0.0.0", False),
    ],
)
def test_only_the_servers_own_page_may_open_a_game(
    host: str, origin: str | None, bind: str, allowed: bool
) -> None:
    assert connection_allowed(host, origin, bind) is allowed


def test_is_local() -> None:
    assert all(map(is_local, ["localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]"]))
    assert not any(map(is_local, ["0.0.0.0", "::", "10.0.0.1", "example.org", ""]))


# -- the real server, without a browser ---------------------------------------------------


@pytest.fixture
def running(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], int]]:
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "vocabgame", "serve", "--port", str(port)]
        + ["--data-dir", str(tmp_path / "data folder")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        yield process, port
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()


async def _open_game(port: int, headers: dict[str, str]) -> bytes:
    """Open a game as the page does and return the first bytes of its screen."""
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(f"http://127.0.0.1:{port}/ws", headers=headers) as ws,
    ):
        msg = await asyncio.wait_for(ws.receive(), timeout=60)
        assert msg.type == aiohttp.WSMsgType.BINARY, msg
        return bytes(msg.data)


async def _ctrl_c_while_playing(process: subprocess.Popen[str], port: int) -> int:
    """Ctrl+C to the server while a tab plays; its exit code."""
    headers = {"Origin": f"http://127.0.0.1:{port}"}
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(f"http://127.0.0.1:{port}/ws", headers=headers) as ws,
    ):
        msg = await asyncio.wait_for(ws.receive(), timeout=60)
        assert msg.type == aiohttp.WSMsgType.BINARY, msg  # the game draws its screen
        process.send_signal(signal.SIGINT)
        return await asyncio.get_running_loop().run_in_executor(None, process.wait, 30)


def test_serves_the_page_opens_games_for_it_only_and_stops_cleanly_on_ctrl_c(
    running: tuple[subprocess.Popen[str], int],
) -> None:
    process, port = running
    assert process.stdout is not None and process.stderr is not None
    line = process.stdout.readline()
    assert line == f"Open http://127.0.0.1:{port} in a browser to play. Stop with Ctrl+C.\n"
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as page:
        assert f'data-session-websocket-url="ws://127.0.0.1:{port}/ws"' in page.read().decode()

    own = f"http://127.0.0.1:{port}"
    for other in ({"Origin": "http://evil.example"}, {"Host": f"evil.example:{port}"}, {}):
        other = {"Origin": own, **other} if "Host" in other else other
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            asyncio.run(_open_game(port, other))
        assert refused.value.status == 403

    # Ctrl+C with a game open: the game is told to quit, and nothing is left or complained of.
    assert asyncio.run(_ctrl_c_while_playing(process, port)) == 0
    assert process.stdout.read() == "" and process.stderr.read() == ""


def test_a_port_in_use_is_one_sentence(running: tuple[subprocess.Popen[str], int]) -> None:
    first, port = running
    assert first.stdout is not None
    first.stdout.readline()  # listening
    second = subprocess.run(
        [sys.executable, "-m", "vocabgame", "serve", "--port", str(port)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert second.returncode == 1
    assert second.stderr.startswith(f"vocabgame: cannot listen on 127.0.0.1 port {port}: ")
    assert len(second.stderr.splitlines()) == 1 and "Traceback" not in second.stderr


# -- the cap on games and the end of quiet ones, in this process --------------------------

# A stand-in for a game: it says it is a Textual app, then waits for one byte (the quit the
# server sends when the tab goes), so each costs a shell and no Python.
STAND_IN = "echo __GANGLION__; head -c 1 >/dev/null"


async def _client(server: serve.GameServer) -> TestClient[web.Request, web.Application]:
    client = TestClient(TestServer(await server.make_app(), host="127.0.0.1"))
    await client.start_server()
    return client


def _origin(client: TestClient[web.Request, web.Application]) -> dict[str, str]:
    return {"Origin": f"http://{client.host}:{client.port}"}


async def _until(condition: Callable[[], bool]) -> None:
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("not within 5 s")


async def test_games_beyond_the_cap_are_refused_and_the_page_says_so() -> None:
    server = serve.GameServer(STAND_IN, "127.0.0.1", 0, max_games=2)
    client = await _client(server)
    try:
        first = await client.ws_connect("/ws", headers=_origin(client))
        second = await client.ws_connect("/ws", headers=_origin(client))
        await _until(lambda: len(server.games) == 2)
        page = await client.get("/")
        assert page.status == 503
        assert "all 2 games are in use. Close another vocabgame tab" in await page.text()
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await client.ws_connect("/ws", headers=_origin(client))
        assert refused.value.status == 503
        await first.close()  # a tab closed: its place is free again
        await _until(lambda: len(server.games) == 1)
        assert (await client.get("/")).status == 200
        third = await client.ws_connect("/ws", headers=_origin(client))
        await _until(lambda: len(server.games) == 2)
        await second.close()
        await third.close()
        await _until(lambda: not server.games)
    finally:
        await client.close()


async def test_a_websocket_without_an_origin_opens_no_game() -> None:
    server = serve.GameServer(STAND_IN, "127.0.0.1", 0)
    client = await _client(server)
    try:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await client.ws_connect("/ws")
        assert refused.value.status == 403 and not server.games
    finally:
        await client.close()


async def test_a_game_whose_tab_sends_nothing_is_ended_and_one_that_talks_is_not(
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = serve.GameServer(STAND_IN, "127.0.0.1", 0, quiet_seconds=0.3)
    client = await _client(server)
    try:
        quiet = await client.ws_connect("/ws", headers=_origin(client))
        talking = await client.ws_connect("/ws", headers=_origin(client))
        await _until(lambda: len(server.games) == 2)
        loop = asyncio.get_running_loop()
        start = loop.time()
        # Twice the quiet spell, a message every 0.1 s, some of them not what a page sends:
        # they count as talking, and are dropped without a word.
        messages = iter(["focus", "not json", '["resize", {"width": "x"}]', "[]", '"ping"'] * 2)
        while loop.time() - start < 0.6:
            text = next(messages)
            await talking.send_str(json.dumps([text]) if text == "focus" else text)
            await asyncio.sleep(0.1)
        closed = await asyncio.wait_for(quiet.receive(), timeout=5)
        assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        await _until(lambda: len(server.games) == 1)
        assert not talking.closed
        assert [r for r in caplog.records if r.levelname == "ERROR"] == []
        await talking.close()
        await _until(lambda: not server.games)
    finally:
        await client.close()


def test_the_command_lines_defaults_are_the_servers() -> None:
    from vocabgame.cli.serve import serve_options

    parser = argparse.ArgumentParser()
    serve_options(parser, Settings())
    args = parser.parse_args([])
    assert args.max_games == serve.MAX_GAMES and args.quiet_minutes == serve.QUIET_MINUTES
    for bad in (["--max-games", "0"], ["--quiet-minutes", "nan"]):
        with pytest.raises(SystemExit):
            parser.parse_args(bad)


def test_the_cap_and_the_quiet_spell_reach_the_server(
    monkeypatch: pytest.MonkeyPatch, data_dir: Path
) -> None:
    made: list[serve.GameServer] = []
    monkeypatch.setattr(serve.GameServer, "run", lambda self, listening: made.append(self))
    assert main(["serve", "--max-games", "3", "--quiet-minutes", "2"]) == 0
    [server] = made
    assert (server.max_games, server.quiet_seconds) == (3, 120)


# -- the password -------------------------------------------------------------------------


async def test_with_a_password_only_a_browser_that_gave_it_may_open_a_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(serve, "WRONG_PASSWORD_SECONDS", 0)
    server = serve.GameServer(STAND_IN, "127.0.0.1", 0, password="sesame ü")
    client = await _client(server)
    try:
        page = await client.get("/")
        assert page.status == 401 and "type='password'" in await page.text()
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await client.ws_connect("/ws", headers=_origin(client))
        assert refused.value.status == 403 and not server.games
        for wrong in ({"password": "sesame"}, {"password": ""}, {}):
            answer = await client.post("/login", data=wrong, allow_redirects=False)
            assert answer.status == 401 and "not the password" in await answer.text()
        client.session.cookie_jar.update_cookies({serve.KEY_COOKIE: "guessed"})
        assert (await client.get("/")).status == 401
        answer = await client.post("/login", data={"password": "sesame ü"}, allow_redirects=False)
        assert answer.status == 303 and answer.headers["Location"] == "/"
        assert "HttpOnly" in answer.headers["Set-Cookie"]
        assert (await client.get("/")).status == 200
        game = await client.ws_connect("/ws", headers=_origin(client))
        await _until(lambda: len(server.games) == 1)
        await game.close()
        await _until(lambda: not server.games)
    finally:
        await client.close()


def test_the_password_is_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    import hmac

    compared: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(serve.hmac, "compare_digest", spy)
    monkeypatch.setattr(serve, "WRONG_PASSWORD_SECONDS", 0)
    server = serve.GameServer(STAND_IN, "127.0.0.1", 0, password="sesame")

    async def login() -> int:
        client = await _client(server)
        try:
            answer = await client.post("/login", data={"password": "nope"})
            return answer.status
        finally:
            await client.close()

    assert asyncio.run(login()) == 401
    assert (b"nope", b"sesame") in compared


def test_the_password_comes_from_the_environment_or_a_prompt_that_does_not_echo(
    served: list[tuple[str, str, int]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    made: list[serve.GameServer] = []
    monkeypatch.setattr(serve.GameServer, "run", lambda self, listening: made.append(self))
    monkeypatch.setenv("VOCABGAME_PASSWORD", "from the env")
    assert main(["serve", "--password"]) == 0
    assert made[-1].password == "from the env"
    monkeypatch.delenv("VOCABGAME_PASSWORD")
    import getpass

    monkeypatch.setattr(getpass, "getpass", lambda prompt: "typed")
    assert main(["serve", "--password", "--host", "0.0.0.0"]) == 0
    assert made[-1].password == "typed"
    err = capsys.readouterr().err
    assert "typed" not in err and "gives the password can play" in err
    assert "unencrypted" in err
    monkeypatch.setattr(getpass, "getpass", lambda prompt: "")
    assert main(["serve", "--password"]) == 1
    assert "the password is empty" in capsys.readouterr().err
    assert main(["serve"]) == 0 and made[-1].password is None
