"""The commands of `vocabgame`, the parser built from them, and `main`, which runs one.

A command is a `Command` declared in its group's module, beside the options it takes and
the code that reads them; adding one means declaring it there and listing it in `COMMANDS`.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import gc
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from vocabgame import __version__
from vocabgame.cli import (
    decks,
    interchange,
    lab,
    optimize,
    play,
    players,
    progress,
    serve,
    simulate,
    stats,
)
from vocabgame.cli import room as room_command
from vocabgame.cli import settings as settings_command
from vocabgame.cli.common import EXIT_OK, EXIT_PROBLEM, EXIT_USAGE, Command, Where, err
from vocabgame.cli.options import CommandParser, extra_decks, folder_options
from vocabgame.paths import deck_folders, default_data_dir
from vocabgame.settings import Settings

# Every command, in the order `vocabgame --help` lists them.
COMMANDS: tuple[Command, ...] = (
    play.PLAY,
    stats.STATS,
    decks.VALIDATE,
    decks.DECKS,
    decks.NEW,
    interchange.IMPORT,
    interchange.EXPORT,
    decks.SCHEMA,
    progress.EXPORT_PROGRESS,
    progress.IMPORT_PROGRESS,
    decks.PREVIEW,
    stats.REPORTS,
    stats.REPORT,
    decks.FLAGS,
    lab.LAB,
    serve.SERVE,
    players.PLAYERS,
    players.LEADERBOARD,
    room_command.ROOM,
    progress.BACKUP,
    progress.RESTORE,
    progress.CHECK,
    settings_command.SETTINGS,
    optimize.OPTIMIZE,
    simulate.SIMULATE,
)
BY_NAME = {command.name: command for command in COMMANDS}


def build_parser(settings: Settings | None = None) -> argparse.ArgumentParser:
    """The argument parser; `settings` are the player's, so help texts show what is in effect.
    A command's options are added only when that command is parsed or its help shown."""
    in_effect = settings or Settings()
    parser = argparse.ArgumentParser(
        prog="vocabgame",
        description="A terminal quiz and flashcard game for the vocabulary of AI inference "
        "efficiency and model serving. With no command, opens the game.",
    )
    parser.add_argument("--version", action="version", version=f"vocabgame {__version__}")
    folder_options(parser, top=True)
    # What each browser tab of `vocabgame serve` runs: the game, first asking who plays.
    parser.add_argument("--choose-player", action="store_true", help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CommandParser)
    for command in COMMANDS:
        sub.add_parser(
            command.name,
            help=command.help,
            description=command.description,
            options=lambda p, command=command: command.options(p, in_effect),
        )
    return parser


def effective_settings(argv: Sequence[str]) -> Settings | None:
    """The player's settings, read only to show them in --help; None when there are none yet."""
    probe = argparse.ArgumentParser(add_help=False)
    probe.add_argument("--data-dir", type=Path)
    probe.add_argument("--player")
    known, _ = probe.parse_known_args(argv)
    root = known.data_dir or default_data_dir()
    folder = root
    if known.player is not None:
        from vocabgame.players import PlayerError, find_player

        try:
            folder = find_player(root, known.player).folder(root)
        except PlayerError:
            return None
    path = folder / "vocabgame.db"
    if not os.path.isfile(path):  # False too where the folder cannot be searched
        return None
    import sqlite3

    # Read-only, immutable and without migrating: asking for help writes nothing, not even
    # the -shm file a WAL reader makes.
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
        try:
            rows = dict(conn.execute("SELECT key, value FROM settings").fetchall())
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    return Settings.from_stored(rows)[0]


def entry() -> int:
    """The `vocabgame` command: `main`, then the process ends without walking what it built.
    At exit Python collects every object its collector tracks (about 8 ms after `validate`,
    a sixth of the command); frozen ones it leaves to the system, as the game does with what
    its start-up built. Files are closed where they are written, and standard output is
    flushed at exit as always."""
    code = main()
    gc.freeze()
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """Parse `argv` (default: the process's arguments) and run its command; the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    wants_help = any(a in ("-h", "--help") for a in argv)
    args = build_parser(effective_settings(argv) if wants_help else None).parse_args(argv)
    command = BY_NAME[args.command] if args.command else play.GAME
    if command.reads_files_only:  # no data folder: not even where it would be
        where = Where(Path(), [], [])
    else:
        root = args.data_dir or default_data_dir()
        data_dir = player_folder(root, args.player)
        if data_dir is None:
            return EXIT_USAGE
        extra = extra_decks(args)
        where = Where(data_dir, deck_folders(root, extra), extra, root=root, player=args.player)
    with contextlib.ExitStack() as held:
        # A game that first asks who plays holds the lock of the one chosen, not this one.
        if command.uses_data_folder and not args.choose_player:
            # Every vocabgame using the data folder holds its lock shared; restore needs it alone.
            from vocabgame.backup import shared_lock

            held.enter_context(shared_lock(where.data_dir))
        return run(command, args, where)
    return EXIT_OK  # pragma: no cover (mypy cannot see that the block always returns)


def player_folder(root: Path, name: str | None) -> Path | None:
    """The folder of the --player named (the data folder itself for the default player),
    or None after printing why there is none."""
    if name is None:
        return root
    from vocabgame.players import PlayerError, find_player

    try:
        return find_player(root, name).folder(root)
    except PlayerError as exc:
        err(str(exc))
        return None


def run(command: Command, args: argparse.Namespace, where: Where) -> int:
    """Run `command`; Ctrl+C and a closed pipe end it quietly, with the usual exit codes."""
    try:
        return command.run(args, where)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Output piped into `head` and the like: stop quietly, as other tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except OSError as exc:
        if exc.errno != errno.ENAMETOOLONG:
            raise
        # Python 3.11's Path.exists and is_file raise for such a name instead of saying no.
        err(f"{exc.filename}: the name is too long for this system")
        return EXIT_PROBLEM
