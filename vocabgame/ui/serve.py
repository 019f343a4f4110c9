"""The game for browsers: textual-serve runs one `vocabgame` process per browser tab, each
on the same data folder (the store is safe for several processes), and relays its screen and
keys through a web page.

textual-serve starts each game with a shell command, its standard input and output on pipes
and `TEXTUAL_DRIVER` naming Textual's web driver in its environment (see
`vocabgame.cli.in_browser`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import logging
import re
import secrets
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

WILDCARDS = ("0.0.0.0", "::", "")
# Each game is a process of its own (about 50 MB resident when idle, see README.md), so the
# number open at once is capped, and a game whose tab sends nothing for this long is ended.
MAX_GAMES = 8
QUIET_MINUTES = 30
# What a Host header may look like: a name or an address, and a port.
_HOST_HEADER = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?$")


def is_local(host: str) -> bool:
    """Whether `host` is reachable from this machine only: localhost or a loopback address."""
    host = host.strip("[]")
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def url(host: str, port: int) -> str:
    """The address to open in a browser."""
    if host in WILDCARDS:
        host = "127.0.0.1"
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def game_command(
    data_dir: Path,
    decks: Sequence[Path],
    python: str = sys.executable,
    windows: bool = False,
    *,
    player: str | None = None,
    choose: bool = False,
) -> str:
    """The shell command that runs one game on `data_dir` with the extra deck folders, with
    the Python that runs this one, as `player` or, with `choose`, first asking who plays;
    every path and name quoted, so spaces and quotes stay in them."""
    args = [python, "-m", "vocabgame", "--data-dir", str(data_dir.absolute())]
    if player is not None:
        args += ["--player", player]
    elif choose:
        args.append("--choose-player")
    for folder in decks:
        args += ["--decks", str(folder.absolute())]
    return subprocess.list2cmdline(args) if windows else shlex.join(args)


def connection_allowed(host_header: str, origin: str | None, bind_host: str) -> bool:
    """Whether a browser may open a game: the page asking must be this server's own (no other
    web site open in the player's browser may drive a game), and a server on localhost answers
    only to localhost names (a web site whose name is pointed at 127.0.0.1 may not)."""
    match = _HOST_HEADER.match(host_header)
    if match is None:
        return False
    if is_local(bind_host) and not is_local(match.group(1)):
        return False
    # Every browser sends an Origin with a WebSocket: one without is some other program.
    return origin is not None and urlsplit(origin).netloc.lower() == host_header.lower()


def full_page(max_games: int) -> str:
    """What a browser is shown while every game is taken."""
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>vocabgame</title></head>"
        f"<body><p>vocabgame: all {max_games} games are in use. Close another vocabgame tab, "
        "then reload this page.</p></body></html>"
    )


# The cookie a browser holds once it has given the password: a token made for this run.
KEY_COOKIE = "vocabgame-key"
# A wrong password waits this long, so guessing is slow.
WRONG_PASSWORD_SECONDS = 1.0


def login_page(wrong: bool) -> str:
    """What a browser is shown until it gives the server's password."""
    said = "<p>That is not the password.</p>" if wrong else ""
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>vocabgame</title></head>"
        f"<body><h1>vocabgame</h1>{said}"
        "<form method='post' action='/login'><label>Password: "
        "<input type='password' name='password' autofocus autocomplete='current-password'>"
        "</label> <button type='submit'>Play</button></form></body></html>"
    )


class GameServer(Server):
    """textual-serve's server, telling the CLI when it listens, refusing connections from
    other web sites and from programs that are not a browser, running at most `max_games`
    games at once, and ending a game whose tab sent nothing for `quiet_seconds`."""

    def __init__(
        self,
        command: str,
        host: str,
        port: int,
        max_games: int = MAX_GAMES,
        quiet_seconds: float = QUIET_MINUTES * 60,
        clock: Callable[[], float] = time.monotonic,
        password: str | None = None,
    ) -> None:
        super().__init__(command, host=host, port=port, title="vocabgame")
        self.games: set[asyncio.Task[Any]] = set()  # one per open browser tab
        self.max_games = max_games
        self.quiet_seconds = quiet_seconds
        self.clock = clock
        self.password = password  # None: no password asked
        self.key = secrets.token_urlsafe(32)  # the cookie of a browser that gave it

    def admitted(self, request: web.Request) -> bool:
        """Whether the browser gave the password (always, when there is none)."""
        if self.password is None:
            return True
        return hmac.compare_digest(request.cookies.get(KEY_COOKIE, "").encode(), self.key.encode())

    async def make_app(self) -> web.Application:
        """textual-serve's web application, with the password form's answer."""
        app = await self._make_app()
        app.router.add_post("/login", self.handle_login)
        return app

    async def handle_login(self, request: web.Request) -> web.StreamResponse:
        """The password form's answer: the right password gets the cookie and the game's
        page; a wrong one waits, then the form again."""
        form = await request.post()
        given = form.get("password")
        right = (
            self.password is not None
            and isinstance(given, str)
            and hmac.compare_digest(given.encode(), self.password.encode())
        )
        if not right:
            await asyncio.sleep(WRONG_PASSWORD_SECONDS)
            return web.Response(status=401, text=login_page(True), content_type="text/html")
        response = web.Response(status=303, headers={"Location": "/"})
        response.set_cookie(KEY_COOKIE, self.key, httponly=True, samesite="Strict", path="/")
        return response

    async def handle_download(self, request: web.Request) -> web.StreamResponse:
        if not self.admitted(request):
            raise web.HTTPForbidden(text="vocabgame: give the password first.")
        return await super().handle_download(request)

    def full(self) -> bool:
        """Whether every game is taken."""
        return len(self.games) >= self.max_games

    def initialize_logging(self) -> None:
        # Only problems: the CLI says where the game is, and each tab's start is no news.
        logging.getLogger("textual-serve").setLevel(logging.WARNING)
        logging.getLogger("aiohttp").setLevel(logging.ERROR)

    async def on_startup(self, app: web.Application) -> None:
        """textual-serve prints its banner here; the CLI prints the address instead."""

    async def on_shutdown(self, app: web.Application) -> None:
        """On Ctrl+C, end every tab's game (each is told to quit, as when its tab closes) and
        wait for them, so that none outlives the server."""
        for game in self.games:
            game.cancel()
        await asyncio.gather(*self.games, return_exceptions=True)

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        if not self.admitted(request):
            return web.Response(status=401, text=login_page(False), content_type="text/html")
        if self.full():
            return web.Response(
                status=503, text=full_page(self.max_games), content_type="text/html"
            )
        if self.host in WILDCARDS and _HOST_HEADER.match(request.host):
            # Bound to every address: the page must send each browser back to the address it
            # came by, not to 0.0.0.0. aiohttp runs one request at a time up to the render.
            self.public_url = f"http://{request.host}"
        return await super().handle_index(request)

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        if not connection_allowed(request.host, request.headers.get("Origin"), self.host):
            raise web.HTTPForbidden(text="vocabgame: this page may not open a game here.")
        if not self.admitted(request):
            raise web.HTTPForbidden(text="vocabgame: give the password first.")
        if self.full():
            raise web.HTTPServiceUnavailable(
                text=f"vocabgame: all {self.max_games} games are in use."
            )
        game = asyncio.current_task()
        assert game is not None
        self.games.add(game)
        try:
            return await super().handle_websocket(request)
        finally:
            self.games.discard(game)

    async def _process_messages(
        self, websocket: web.WebSocketResponse, app_service: AppService
    ) -> None:
        """textual-serve's relay of the browser's messages to the game, closing the socket
        (which ends the game) once nothing has come for `quiet_seconds`."""
        last = self.clock()

        async def watch() -> None:
            while (left := last + self.quiet_seconds - self.clock()) > 0:
                await asyncio.sleep(left)
            await websocket.close(message=b"vocabgame: ended after a quiet spell")

        watchdog = asyncio.create_task(watch())
        try:
            async for message in websocket:
                last = self.clock()
                if message.type != WSMsgType.TEXT:
                    continue
                try:
                    envelope = message.json()
                except ValueError:  # not the page's JSON: nothing to relay, no traceback
                    continue
                await self._relay(websocket, app_service, envelope)
        finally:
            watchdog.cancel()

    @staticmethod
    async def _relay(
        websocket: web.WebSocketResponse, app_service: AppService, envelope: object
    ) -> None:
        """One message of the page, as textual-serve handles it."""
        if not isinstance(envelope, list) or not envelope:
            return
        kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
        if kind == "stdin" and isinstance(data, str):
            await app_service.send_bytes(data.encode("utf-8"))
        elif kind == "resize" and isinstance(data, dict):
            width, height = data.get("width"), data.get("height")
            if isinstance(width, int) and isinstance(height, int):
                await app_service.set_terminal_size(width, height)
        elif kind == "ping":
            await websocket.send_json(["pong", data])
        elif kind == "blur":
            await app_service.blur()
        elif kind == "focus":
            await app_service.focus()

    def run(self, listening: Callable[[], Any]) -> None:
        """Serve until Ctrl+C or SIGTERM, calling `listening` once the port is open. Raises
        OSError when the port cannot be opened."""
        self.debug = False
        self.initialize_logging()
        loop = asyncio.new_event_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):  # Windows: KeyboardInterrupt instead
                loop.add_signal_handler(sig, self.request_exit)
        try:
            web.run_app(
                self.make_app(),
                host=self.host,
                port=self.port,
                handle_signals=False,
                loop=loop,
                print=lambda *_: listening(),
            )
        finally:
            if not loop.is_closed():
                loop.close()
