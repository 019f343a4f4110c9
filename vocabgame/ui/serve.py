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
import ipaddress
import logging
import re
import shlex
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from textual_serve.server import Server

WILDCARDS = ("0.0.0.0", "::", "")
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
    data_dir: Path, decks: Sequence[Path], python: str = sys.executable, windows: bool = False
) -> str:
    """The shell command that runs one game on `data_dir` with the extra deck folders, with
    the Python that runs this one; every path quoted, so spaces and quotes stay in the path."""
    args = [python, "-m", "vocabgame", "--data-dir", str(data_dir.absolute())]
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
    return origin is None or urlsplit(origin).netloc.lower() == host_header.lower()


class GameServer(Server):
    """textual-serve's server, telling the CLI when it listens, and refusing connections from
    other web sites."""

    def __init__(self, command: str, host: str, port: int) -> None:
        super().__init__(command, host=host, port=port, title="vocabgame")
        self.games: set[asyncio.Task[Any]] = set()  # one per open browser tab

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
        if self.host in WILDCARDS and _HOST_HEADER.match(request.host):
            # Bound to every address: the page must send each browser back to the address it
            # came by, not to 0.0.0.0. aiohttp runs one request at a time up to the render.
            self.public_url = f"http://{request.host}"
        return await super().handle_index(request)

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        if not connection_allowed(request.host, request.headers.get("Origin"), self.host):
            raise web.HTTPForbidden(text="vocabgame: this page may not open a game here.")
        game = asyncio.current_task()
        assert game is not None
        self.games.add(game)
        try:
            return await super().handle_websocket(request)
        finally:
            self.games.discard(game)

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
                self._make_app(),
                host=self.host,
                port=self.port,
                handle_signals=False,
                loop=loop,
                print=lambda *_: listening(),
            )
        finally:
            if not loop.is_closed():
                loop.close()
