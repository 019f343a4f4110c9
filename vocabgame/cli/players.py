"""`vocabgame players` (list, add, rename, remove, leaderboard consent) and
`vocabgame leaderboard`: the players of one data folder, each with their own store."""

from __future__ import annotations

import argparse

from vocabgame.cli.common import (
    EXIT_OK,
    EXIT_PROBLEM,
    EXIT_USAGE,
    Command,
    Where,
    err,
    print_json,
)
from vocabgame.cli.options import json_option
from vocabgame.printable import printable
from vocabgame.settings import Settings

# datetime is imported where it is used: every command's start would otherwise pay for it.
ACTIONS = ("list", "add", "rename", "remove", "leaderboard")
# How many names each action takes after it.
_NAMES = {"list": 0, "add": 1, "rename": 2, "remove": 1, "leaderboard": 2}
_USAGE = {
    "list": "vocabgame players",
    "add": "vocabgame players add NAME",
    "rename": "vocabgame players rename OLD NEW",
    "remove": "vocabgame players remove NAME",
    "leaderboard": "vocabgame players leaderboard NAME on|off",
}


def players_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    p.add_argument(
        "action",
        nargs="?",
        default="list",
        choices=ACTIONS,
        help="list (the default), add NAME, rename OLD NEW, remove NAME (after asking; "
        "the player's folder is kept in players/removed/), leaderboard NAME on|off "
        "(whether NAME appears on vocabgame leaderboard)",
    )
    p.add_argument("names", nargs="*", metavar="NAME", help="the names the action takes")
    p.add_argument("--yes", "-y", action="store_true", help="remove without asking")
    json_option(p)


def run_players(args: argparse.Namespace, where: Where) -> int:
    from vocabgame.players import PlayerError

    names: list[str] = args.names
    if len(names) != _NAMES[args.action]:
        err(f"{args.action} takes {_NAMES[args.action]} name(s): {_USAGE[args.action]}")
        return EXIT_USAGE
    try:
        return _act(args.action, names, where, args.yes, args.json)
    except PlayerError as exc:
        err(str(exc))
        return EXIT_PROBLEM


def _act(action: str, names: list[str], where: Where, yes: bool, as_json: bool) -> int:
    from vocabgame import players

    root = where.root
    if action == "list":
        return _list(where, as_json)
    if action == "add":
        added = players.add_player(root, names[0])
        print(f"Added '{printable(added.name)}': vocabgame --player {_quoted(added.name)}")
    elif action == "rename":
        renamed = players.rename_player(root, names[0], names[1])
        print(f"Renamed '{printable(names[0])}' to '{printable(renamed.name)}'.")
    elif action == "leaderboard":
        choice = names[1].lower()
        if choice not in ("on", "off"):
            err(f"leaderboard takes on or off, not '{printable(names[1])}'")
            return EXIT_USAGE
        changed = players.set_consent(root, names[0], choice == "on")
        shown = "appears" if changed.leaderboard else "does not appear"
        print(f"'{printable(changed.name)}' now {shown} on the leaderboard.")
    else:
        return _remove(where, names[0], yes)
    return EXIT_OK


def _quoted(name: str) -> str:
    import shlex

    return printable(shlex.quote(name))


def _list(where: Where, as_json: bool) -> int:
    from vocabgame.players import read_registry

    registry = read_registry(where.root)
    if as_json:
        print_json(
            [
                {
                    "name": p.name,
                    "id": p.id,
                    "default": p.is_default,
                    "leaderboard": p.leaderboard,
                    "folder": str(p.folder(where.root)),
                }
                for p in registry.players
            ]
        )
        return EXIT_OK
    for p in registry.players:
        notes = [
            n for n, on in (("default", p.is_default), ("on the leaderboard", p.leaderboard)) if on
        ]
        extra = f" ({', '.join(notes)})" if notes else ""
        print(f"{printable(p.name)}{extra}: {printable(str(p.folder(where.root)))}")
    return EXIT_OK


def _remove(where: Where, name: str, yes: bool) -> int:
    from datetime import UTC, datetime

    from vocabgame.cli.progress import confirm
    from vocabgame.players import find_player, remove_player

    player = find_player(where.root, name)
    if not yes and not confirm(
        f"Remove '{printable(player.name)}'? Their progress is kept in "
        f"{printable(str(where.root / 'players' / 'removed'))}, not deleted. [y/N] "
    ):
        print("Nothing was removed.")
        return EXIT_PROBLEM
    kept = remove_player(where.root, player.name, datetime.now(UTC))
    print(f"Removed '{printable(player.name)}'; their progress is kept in {printable(str(kept))}")
    return EXIT_OK


PLAYERS = Command(
    "players",
    "list, add, rename or remove players",
    "The players of the data folder, each with their own progress, settings and backups "
    "(the decks are shared). With no action, lists them; play as one with "
    "vocabgame --player NAME.",
    players_options,
    run_players,
)


def leaderboard_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    json_option(p)


def run_leaderboard(args: argparse.Namespace, where: Where) -> int:
    from datetime import UTC, datetime

    from vocabgame.play.leaderboard import HEADERS, leaderboard, table
    from vocabgame.players import PlayerError

    try:
        board = leaderboard(where.root, datetime.now(UTC))
    except PlayerError as exc:
        err(str(exc))
        return EXIT_PROBLEM
    if args.json:
        print_json(board.as_json())
        return EXIT_OK
    rows = [HEADERS, *table(board)] if board.standings else []
    widths = [max(len(printable(r[c])) for r in rows) for c in range(len(HEADERS))] if rows else []
    for row in rows:
        print(
            "  ".join(
                printable(cell).ljust(w) for cell, w in zip(row, widths, strict=True)
            ).rstrip()
        )
    if not board.standings:
        print("No player appears yet: vocabgame players leaderboard NAME on")
    if board.hidden:
        print(f"{board.hidden} player(s) chose not to appear.")
    for s in board.standings:
        if s.problem:
            err(f"{s.name}: {s.problem}")
    return EXIT_OK


LEADERBOARD = Command(
    "leaderboard",
    "the players' best scores, streaks and retention",
    "The leaderboard of the data folder's players who agreed to appear on it: the "
    "challenge's high score, the interview's most right answers, the day streak and true "
    "retention (right answers to learned questions over the last 30 days). Each player's "
    "store is only read.",
    leaderboard_options,
    run_leaderboard,
)
