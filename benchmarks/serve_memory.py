"""Memory of `vocabgame serve`'s games: `python -m benchmarks.serve_memory [GAMES]`.

Starts the server on a fresh data folder, opens GAMES games (default 8, the cap) as the page
does, waits until they are idle on the home screen, then reads the resident memory (VmRSS)
of the server and of each game's processes from /proc (Linux only; no psutil). README.md
quotes the figure beside the cap on games.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import aiohttp

IDLE_SECONDS = 8.0  # long enough for every game to draw its home screen and settle


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def games_of(server: int, data_dir: Path) -> list[int]:
    """The server's game processes (each tab's shell and Python): every process but the
    server whose command line names the data folder, found through /proc."""
    tag = str(data_dir).encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == server:
            continue
        try:
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue  # it ended meanwhile
        if tag in command:
            found.append(int(entry))
    return found


def resident_kb(pid: int) -> int:
    """VmRSS of a process, in kB (0 once it has gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


async def _drain(ws: aiohttp.ClientWebSocketResponse) -> None:
    async for _ in ws:
        pass


async def measure(games: int, data_dir: Path) -> tuple[float, float, int]:
    """The server's MB, the MB per idle game, and how many processes the games are."""
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "vocabgame", "serve", "--port", str(port)]
        + ["--data-dir", str(data_dir), "--max-games", str(games)]
        # Every game as the default player, so it idles on the home screen, not on "Who is
        # playing?", which has loaded no decks yet (about 44 MB a game there).
        + ["--player", "default"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        server.stdout.readline()  # listening
        origin = {"Origin": f"http://127.0.0.1:{port}"}
        async with aiohttp.ClientSession() as session:
            sockets = []
            for _ in range(games):
                ws = await session.ws_connect(
                    f"http://127.0.0.1:{port}/ws?width=100&height=30", headers=origin
                )
                await asyncio.wait_for(ws.receive(), timeout=60)  # its first screen
                sockets.append(ws)
            # Read what each game sends, as a browser does: a socket that is not read answers
            # no heartbeat, and the server ends its game within seconds.
            readers = [asyncio.create_task(_drain(ws)) for ws in sockets]
            await asyncio.sleep(IDLE_SECONDS)
            processes = games_of(server.pid, data_dir)
            total = sum(map(resident_kb, processes))
            for ws in sockets:
                await ws.close()
            await asyncio.gather(*readers)
        return resident_kb(server.pid) / 1024, total / 1024 / games, len(processes)
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    with tempfile.TemporaryDirectory() as scratch:
        server_mb, per_game, processes = asyncio.run(measure(games, Path(scratch) / "data"))
    print(
        f"{games} idle games: {per_game:.1f} MB resident each ({processes} processes: a shell "
        f"and a Python per game); the server {server_mb:.1f} MB; "
        f"{per_game * games + server_mb:.0f} MB in all"
    )


if __name__ == "__main__":
    main()
