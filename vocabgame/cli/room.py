"""`vocabgame room start` and `vocabgame room results`: a timed challenge that every player of
the data folder answers at once, in their browser tabs or terminals."""

from __future__ import annotations

import argparse

from vocabgame.cli.common import EXIT_OK, EXIT_PROBLEM, EXIT_USAGE, Command, Where, err, print_json
from vocabgame.cli.options import json_option, positive_int
from vocabgame.printable import printable
from vocabgame.settings import Settings

# datetime and the room's module are imported where they are used: every command's start would
# otherwise pay for them.


def room_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    p.add_argument(
        "action",
        choices=("start", "results"),
        help="start: open a room (prints its code); results: the live table, or the ranking "
        "once the last question closed",
    )
    p.add_argument(
        "--deck", action="append", default=[], metavar="D", help="ask from this deck (repeat)"
    )
    p.add_argument("--questions", type=positive_int, default=10, metavar="N", help="default 10")
    p.add_argument(
        "--seconds",
        type=positive_int,
        default=settings.countdown_seconds,
        metavar="S",
        help=f"each question is open S seconds (default: the countdown, {settings.countdown_seconds})",
    )
    p.add_argument(
        "--in",
        dest="lead",
        type=int,
        default=30,
        metavar="S",
        help="the first question opens S seconds from now, for players to join (default 30)",
    )
    p.add_argument("--seed", type=int, help="draw the questions with this seed")
    p.add_argument("--replace", action="store_true", help="replace a room still playing")
    json_option(p)


def run_room(args: argparse.Namespace, where: Where) -> int:
    from vocabgame.play.room import RoomError

    try:
        if args.action == "start":
            return _start(args, where)
        return _results(where, args.json)
    except RoomError as exc:
        err(str(exc))
        return EXIT_PROBLEM


def _start(args: argparse.Namespace, where: Where) -> int:
    import secrets
    from datetime import UTC, datetime

    from vocabgame.deck import load_catalog
    from vocabgame.deck.cache import DECK_CACHE, DeckCache
    from vocabgame.play.room import open_room

    catalog = load_catalog(where.folders, cache=DeckCache(where.root / DECK_CACHE))
    decks = list(catalog.decks)
    if args.deck:
        missing = [d for d in args.deck if catalog.get(d) is None]
        if missing:
            err(f"No deck '{printable(missing[0])}' here; vocabgame decks lists them.")
            return EXIT_USAGE
        decks = [d for d in decks if d.id in args.deck]
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    room = open_room(
        where.root,
        decks,
        datetime.now(UTC),
        seed=seed,
        deck_ids=args.deck,
        questions=args.questions,
        seconds=float(args.seconds),
        lead_seconds=max(0, args.lead),
        replace=args.replace,
    )
    if args.json:
        print_json(room.as_json())
        return EXIT_OK
    print(
        f"Room {room.code}: {len(room.keys)} questions, {room.seconds:g} s each, the first at "
        f"{room.starts_at.astimezone():%H:%M:%S}."
    )
    print("Players join with 'Join the room' in the command palette (Ctrl+P) of the game.")
    print("Then: vocabgame room results")
    return EXIT_OK


def _results(where: Where, as_json: bool) -> int:
    from datetime import UTC, datetime

    from vocabgame.play.room import Phase, read_room

    room = read_room(where.root)
    if room is None:
        err("No room yet: open one with vocabgame room start")
        return EXIT_PROBLEM
    now = datetime.now(UTC)
    phase = room.phase(now)
    standings = room.standings()
    if as_json:
        print_json(
            {
                "code": room.code,
                "phase": phase.value,
                "questions": len(room.keys),
                "ranking": [s.as_json() for s in standings],
            }
        )
        return EXIT_OK
    state = {
        Phase.WAITING: f"starts in {room.seconds_left(now):.0f} s",
        Phase.ASKING: f"question {(room.open_index(now) or 0) + 1} of {len(room.keys)}",
        Phase.OVER: "final ranking",
    }[phase]
    print(f"Room {room.code}: {state}")
    if not standings:
        print("No answers yet.")
    width = max((len(printable(s.name)) for s in standings), default=0)
    for s in standings:
        marks = "".join({True: "✓", False: "✗", None: "·"}[m] for m in s.marks)
        print(
            f"{s.rank:>3}. {printable(s.name).ljust(width)}  {s.right:>3} right  "
            f"{s.seconds:>7.1f} s  {marks}"
        )
    return EXIT_OK


ROOM = Command(
    "room",
    "a timed challenge every player answers at once",
    "A room for a meetup: 'start' opens a timed challenge in the data folder (the same "
    "questions, in the same order, on the same clock for everyone) and prints its code; "
    "every game on the data folder (each browser tab of vocabgame serve) can then join it. "
    "Each answer is saved in the player's own progress. 'results' shows who answered right "
    "and, once the last question has closed, the ranking: most right answers, then the "
    "fewest seconds taken on them.",
    room_options,
    run_room,
)
