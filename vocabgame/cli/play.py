"""`vocabgame` with no command (the game) and `vocabgame play` (a round at once)."""

from __future__ import annotations

import argparse
import contextlib
import gc
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from vocabgame.cli.common import (
    EXIT_OK,
    EXIT_PROBLEM,
    EXIT_USAGE,
    Command,
    Where,
    err,
    no_options,
    open_session,
)
from vocabgame.cli.options import positive_int, whole_number
from vocabgame.cli.terminal import screen_problem
from vocabgame.settings import Settings


def play_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    from vocabgame.play.modes import ModeId, offered

    modes = offered()
    names = [str(m.name or m.id) for m in modes]
    # "review" is how learn is stored, and was its name on the command line before "learn".
    aliases = [str(m.id) for m in modes if m.name and m.name != m.id]
    p.add_argument(
        "--deck",
        metavar="ID",
        action="append",
        help="play this deck (repeat for several; default: all decks)",
    )
    p.add_argument("--tag", metavar="TAG", help="play only the items tagged TAG, across the decks")
    p.add_argument(
        "--level",
        type=levels_option,
        metavar="LEVEL",
        help="play only the items of this level: L3 (define), L4 (apply), L5 (trade-offs, "
        "diagnosis), L6 (design); a range such as L3-L4, or a list such as L3,L5",
    )
    p.add_argument(
        "--size",
        type=positive_int,
        metavar="N",
        help=f"questions in the round (now {settings.round_size}; see vocabgame settings)",
    )
    p.add_argument(
        "--seed", type=whole_number, metavar="N", help="seed the shuffling, for a repeatable round"
    )
    p.add_argument(
        "--mode",
        choices=(*names, *aliases),
        default=str(ModeId.LEARN),  # as stored
        help="; ".join(f"{name}: {m.help}" for name, m in zip(names, modes, strict=True)),
    )
    p.add_argument(
        "--minutes",
        type=positive_int,
        metavar="M",
        help=f"interview: its length (now {settings.interview_minutes}; see vocabgame settings)",
    )
    p.add_argument(
        "--questions",
        type=positive_int,
        metavar="N",
        help=f"interview: its questions (now {settings.interview_questions}); "
        "it ends at whichever comes first",
    )


def levels_option(text: str) -> tuple[str, ...]:
    """`--level`: one level, a range or a list, checked as argparse checks a type."""
    from vocabgame.model import parse_levels

    try:
        return parse_levels(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run_play(args: argparse.Namespace, where: Where) -> int:
    from vocabgame.play.modes import by_name

    return run_app(
        where.data_dir,
        where.folders,
        root=where.root,
        deck=args.deck,
        size=args.size,
        seed=args.seed,
        start=True,
        mode=str(by_name(args.mode).id),
        tag=args.tag,
        levels=args.level or (),
        minutes=args.minutes,
        questions=args.questions,
    )


def run_game(args: argparse.Namespace, where: Where) -> int:
    if getattr(args, "choose_player", False) and where.player is None:
        return run_choosing(where.root, where.folders)
    return run_app(where.data_dir, where.folders, root=where.root)


# `vocabgame` alone: the game, on its home screen.
GAME = Command("", "", "", no_options, run_game, uses_data_folder=True)

PLAY = Command(
    "play",
    "start a round at once",
    "Start a round of questions at once.",
    play_options,
    run_play,
    uses_data_folder=True,
)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Opening the game builds what lasts as long as the game (modules, decks, styles), so
    the collector is paused meanwhile; the app freezes all of it once its first screen is
    shown and starts the collector again (`vocabgame.ui.app`), and no collection walks those
    objects after that. On again, in any case, when the game is over."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@collector_paused()
def run_app(
    data_dir: Path,
    folders: list[Path],
    *,
    deck: str | Sequence[str] | None = None,
    size: int | None = None,
    seed: int | None = None,
    start: bool = False,
    lab: bool = False,
    mode: str = "review",
    tag: str | None = None,
    levels: tuple[str, ...] = (),
    minutes: float | None = None,
    questions: int | None = None,
    root: Path | None = None,
) -> int:
    """Open the game (on its lab screen, or straight into a round) on the store in
    `data_dir`, the decks cached in the data folder `root`; its exit code."""
    session = open_session(data_dir, folders, root)
    if session is None:
        return EXIT_PROBLEM
    ids = [deck] if isinstance(deck, str) else list(deck or [])
    unknown = [i for i in ids if session.catalog.get(i) is None]
    if unknown:
        known = ", ".join(d.id for d in session.catalog.decks) or "none"
        err(f"no deck with id {unknown[0]!r}; known decks: {known}")
        session.close()
        return EXIT_USAGE
    if tag is not None or levels:
        try:
            session.decks_chosen(ids, tag, levels)
        except ValueError as exc:
            err(f"{exc}; vocabgame decks lists each deck's tags and levels")
            session.close()
            return EXIT_USAGE
    problem = screen_problem(sys.stdin, sys.stdout)
    if problem is not None:
        err(problem)
        session.close()
        return EXIT_USAGE
    from vocabgame.ui.app import VocabApp

    app = VocabApp(
        session,
        deck=ids[0] if len(ids) == 1 else (tuple(ids) or None),
        tag=tag,
        levels=levels,
        mode=mode,
        minutes=minutes,
        questions=questions,
        size=size,
        seed=seed,
        start_round=start,
        open_lab=lab,
        lab_folders=folders,
    )
    try:
        app.run()
    finally:
        session.close()
    return app.return_code or EXIT_OK


@collector_paused()
def run_choosing(root: Path, folders: list[Path]) -> int:
    """The game that first asks who plays (a browser tab of `vocabgame serve`), then plays
    on that player's store, holding their folder's lock; its exit code."""
    problem = screen_problem(sys.stdin, sys.stdout)
    if problem is not None:
        err(problem)
        return EXIT_USAGE
    from vocabgame.backup import DataLock
    from vocabgame.play import Session
    from vocabgame.play import open_session as open_play_session
    from vocabgame.players import Player
    from vocabgame.ui.choosing import ChoosingApp

    held: list[DataLock] = []

    def open_player(player: Player) -> Session:
        lock = DataLock(player.folder(root)).shared()  # a restore of theirs waits for this game
        try:
            session = open_play_session(player.folder(root), folders, cache_dir=root)
        except BaseException:
            lock.release()
            raise
        held.append(lock)
        return session

    app = ChoosingApp(root, open_player, lab_folders=folders)
    try:
        app.run()
    finally:
        if app.player is not None:
            app.session.close()
        for lock in held:
            lock.release()
    return app.return_code or EXIT_OK
