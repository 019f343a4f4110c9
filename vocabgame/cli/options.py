"""Options several commands share (the data folder, --decks, --json), the value types of
options, and the parser of one command, whose options are added only when it is used."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from vocabgame.paths import DATA_DIR_ENV, DECKS_ENV


def positive_int(text: str) -> int:
    """An option's whole number greater than zero."""
    value = whole_number(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be greater than zero")
    return value


def whole_number(text: str) -> int:
    """An option's whole number."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def folder(text: str) -> Path:
    """A folder given on the command line; an empty one would silently mean "here"."""
    if not text.strip():
        raise argparse.ArgumentTypeError("is empty; give a folder, for example ~/vocabgame-data")
    return Path(text).expanduser()


def folder_options(parser: argparse.ArgumentParser, top: bool) -> None:
    """--data-dir, --player and --decks, which every command takes, before or after its
    name."""
    # On commands the defaults are suppressed so `vocabgame --data-dir D play` keeps D.
    default = None if top else argparse.SUPPRESS
    parser.add_argument(
        "--data-dir",
        type=folder,
        metavar="DIR",
        default=default,
        help=f"where scores and progress live (env {DATA_DIR_ENV}; "
        "default: the platform's user data folder)",
    )
    parser.add_argument(
        "--decks",
        # Its own dest on commands, or their list would replace the one given before the command.
        dest="decks" if top else "decks_after",
        type=Path,
        action="append",
        metavar="DIR",
        default=[] if top else argparse.SUPPRESS,
        help=f"an extra folder of decks; repeatable (env {DECKS_ENV}, separated by "
        f"{os.pathsep!r}). The data folder's decks/ is always searched too.",
    )
    parser.add_argument(
        "--player",
        metavar="NAME",
        default=default,
        help="play, or look, as this player of the data folder, each with their own "
        "progress and settings (default: the data folder's default player; "
        "see vocabgame players)",
    )


def extra_decks(args: argparse.Namespace) -> list[Path]:
    """The --decks folders, those given before the command and after it."""
    return [*(args.decks or []), *getattr(args, "decks_after", [])]


def json_option(parser: argparse.ArgumentParser) -> None:
    """--json, for the commands that can print JSON for tools."""
    parser.add_argument("--json", action="store_true", help="print JSON for tools")


class CommandParser(argparse.ArgumentParser):
    """A command's parser. Its options are added the first time it parses or shows its help,
    so a run builds the options of its own command only, not those of every command."""

    def __init__(
        self, *args: Any, options: Callable[[argparse.ArgumentParser], None], **kwargs: Any
    ) -> None:
        # -h too is added by `build`: a parser made with it costs half as much again.
        super().__init__(*args, **(kwargs | {"add_help": False}))
        self.pending: Callable[[argparse.ArgumentParser], None] | None = options

    def build(self) -> None:
        """Add the command's options, once: -h, the folder options, then its own."""
        options, self.pending = self.pending, None
        if options is not None:
            self.add_argument(
                "-h",
                "--help",
                action="help",
                default=argparse.SUPPRESS,
                help="show this help message and exit",
            )
            folder_options(self, top=False)
            options(self)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        self.build()
        return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        self.build()
        return super().format_usage()

    def format_help(self) -> str:
        self.build()
        return super().format_help()
