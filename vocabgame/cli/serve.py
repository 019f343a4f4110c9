"""`vocabgame serve`: the game in web browsers, one game process per tab (textual-serve)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from pathlib import Path

from vocabgame.cli.common import EXIT_OK, EXIT_PROBLEM, Command, Where, err, open_store
from vocabgame.cli.options import whole_number
from vocabgame.settings import Settings

# What `serve` imports that only the serve extra installs.
SERVE_NEEDS = ("textual_serve", "aiohttp", "aiohttp_jinja2", "jinja2")


def port_number(text: str) -> int:
    """A port, 1 to 65535."""
    value = whole_number(text)
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port from 1 to 65535")
    return value


def serve_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: this machine only; "
        "0.0.0.0 lets anyone who can reach the port play and change your progress)",
    )
    p.add_argument(
        "--port", type=port_number, default=8000, metavar="N", help="the port (default 8000)"
    )
    # The defaults are vocabgame.ui.serve's MAX_GAMES and QUIET_MINUTES, not imported here:
    # that module needs the serve extra, and --help must work without it.
    p.add_argument(
        "--max-games",
        type=bounded(1, 256),
        default=8,
        metavar="N",
        help="games open at once, one per browser tab, each a process of its own "
        "(default 8; the page says when all are in use)",
    )
    p.add_argument(
        "--quiet-minutes",
        type=bounded(1, 24 * 60),
        default=30,
        metavar="N",
        help="end a tab's game after N minutes in which it sent nothing (default 30; "
        "every answer is saved, and the page offers to start again)",
    )
    p.add_argument(
        "--password",
        action="store_true",
        help=f"ask for a password (or take it from ${PASSWORD_ENV}) that each browser must "
        "give before it may play; without a TLS proxy in front it crosses the network "
        "unencrypted",
    )


PASSWORD_ENV = "VOCABGAME_PASSWORD"


def read_password(environ: Mapping[str, str], ask: Callable[[str], str]) -> str | None:
    """The --password: from $VOCABGAME_PASSWORD, else asked for without echo; None after
    saying why there is none (an empty one keeps no one out)."""
    given = environ.get(PASSWORD_ENV)
    if given is None:
        try:
            given = ask("Password for the players (not shown as you type): ")
        except (EOFError, OSError):
            err(f"--password needs a terminal to ask on, or the password in ${PASSWORD_ENV}")
            return None
    if not given:
        err("the password is empty; give one that the players will type")
        return None
    return given


def bounded(low: int, high: int) -> Callable[[str], int]:
    """An option's whole number from `low` to `high`."""

    def convert(text: str) -> int:
        value = whole_number(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number from {low} to {high}")
        return value

    return convert


def run_serve(args: argparse.Namespace, where: Where) -> int:
    password = None
    if args.password:
        import getpass
        import os

        password = read_password(os.environ, getpass.getpass)
        if password is None:
            return EXIT_PROBLEM
    # Each tab's game finds the data folder's decks itself: it is given only the --decks.
    return cmd_serve(
        where.root,
        where.extra_decks,
        args.host,
        args.port,
        max_games=args.max_games,
        quiet_minutes=args.quiet_minutes,
        player=where.player,
        password=password,
        store_dir=where.data_dir,
    )


SERVE = Command(
    "serve",
    "play in a web browser",
    "Serve the game to web browsers: each browser tab that opens the address plays its own "
    "game on the same data folder. Stop with Ctrl+C. Needs textual-serve (the serve "
    "extra): pip install textual-serve.",
    serve_options,
    run_serve,
    # It checks the store before serving, and a restore must not swap it under the tabs.
    uses_data_folder=True,
)


def cmd_serve(
    data_dir: Path,
    decks: list[Path],
    host: str,
    port: int,
    max_games: int = 8,
    quiet_minutes: int = 30,
    player: str | None = None,
    password: str | None = None,
    store_dir: Path | None = None,
) -> int:
    """Serve the game to browsers on `host` and `port` until stopped, at most `max_games`
    at once, each ended after `quiet_minutes` without a message from its tab; each tab
    first asks who plays, unless every tab plays as `player` (whose store is in
    `store_dir`). With a `password`, only a browser that gave it may play. The exit code."""
    try:
        from vocabgame.ui.serve import WILDCARDS, GameServer, game_command, is_local, url
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in SERVE_NEEDS:
            raise
        err("playing in a browser needs textual-serve; install it with: pip install textual-serve")
        return EXIT_PROBLEM
    # Every tab's game opens this store: say now, once, if it cannot be used.
    store = open_store(store_dir or data_dir)
    if store is None:
        return EXIT_PROBLEM
    store.close()
    if not is_local(host):
        if password is None:
            err(
                f"warning: listening on {host}: anyone who can reach port {port} can play "
                "and change the progress in this data folder."
            )
        else:
            err(
                f"warning: listening on {host}: anyone who can reach port {port} and gives "
                "the password can play; without a TLS proxy in front, the password and "
                "the game cross the network unencrypted."
            )
    server = GameServer(
        game_command(data_dir, decks, player=player, choose=player is None),
        host,
        port,
        max_games=max_games,
        quiet_seconds=quiet_minutes * 60,
        password=password,
    )

    def listening() -> None:
        where = url(host, port)
        if host in WILDCARDS:
            where += f" here, or this machine's address with port {port} from elsewhere,"
        print(f"Open {where} in a browser to play. Stop with Ctrl+C.", flush=True)

    try:
        server.run(listening)
    except OSError as exc:
        err(f"cannot listen on {host} port {port}: {exc.strerror or exc}")
        return EXIT_PROBLEM
    return EXIT_OK
