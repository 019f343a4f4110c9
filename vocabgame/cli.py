"""Command line: parses arguments, then calls the core or starts the app.

Commands that do not open the game never import textual, so they start fast.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from vocabgame import __version__
from vocabgame.paths import DATA_DIR_ENV, DECKS_ENV, deck_folders, default_data_dir
from vocabgame.settings import SPEC, SPECS, Settings

if TYPE_CHECKING:
    from vocabgame.stats import Stats
    from vocabgame.store import Store

EXIT_OK, EXIT_PROBLEM, EXIT_USAGE = 0, 1, 2


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be greater than zero")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def _folder(text: str) -> Path:
    """A folder given on the command line; an empty one would silently mean "here"."""
    if not text.strip():
        raise argparse.ArgumentTypeError("is empty; give a folder, for example ~/vocabgame-data")
    return Path(text).expanduser()


def _global_options(parser: argparse.ArgumentParser, top: bool) -> None:
    # On subcommands the defaults are suppressed so `vocabgame --data-dir D play` keeps D.
    default = None if top else argparse.SUPPRESS
    parser.add_argument(
        "--data-dir",
        type=_folder,
        metavar="DIR",
        default=default,
        help=f"where scores and progress live (env {DATA_DIR_ENV}; "
        "default: the platform's user data folder)",
    )
    parser.add_argument(
        "--decks",
        # Its own dest on subcommands, or their list would replace the one given before the command.
        dest="decks" if top else "decks_after",
        type=Path,
        action="append",
        metavar="DIR",
        default=[] if top else argparse.SUPPRESS,
        help=f"an extra folder of decks; repeatable (env {DECKS_ENV}, separated by "
        f"{os.pathsep!r}). The data folder's decks/ is always searched too.",
    )


# The flag of each setting in `vocabgame settings`; the settings module has the rest.
SETTING_FLAGS = {
    "desired_retention": "--retention",
    "new_per_day": "--new-per-day",
    "round_size": "--round-size",
    "countdown_seconds": "--countdown",
    "interview_minutes": "--interview-minutes",
    "interview_questions": "--interview-questions",
    "theme": "--theme",
}


def build_parser(settings: Settings | None = None) -> argparse.ArgumentParser:
    """The argument parser; `settings` are the player's, so help texts show what is in effect."""
    settings = settings or Settings()
    parser = argparse.ArgumentParser(
        prog="vocabgame",
        description="A terminal quiz and flashcard game for the vocabulary of AI inference "
        "efficiency and model serving. With no command, opens the game.",
    )
    parser.add_argument("--version", action="version", version=f"vocabgame {__version__}")
    _global_options(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name: str, help_text: str, description: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=description)
        _global_options(p, top=False)
        return p

    p = command("play", "start a round at once", "Start a round of questions at once.")
    p.add_argument("--deck", metavar="ID", help="play this deck only (default: all decks)")
    p.add_argument(
        "--size",
        type=_positive_int,
        metavar="N",
        help=f"questions in the round (now {settings.round_size}; see vocabgame settings)",
    )
    p.add_argument(
        "--seed", type=_int, metavar="N", help="seed the shuffling, for a repeatable round"
    )
    p.add_argument(
        "--mode",
        choices=("review", "lab"),
        default="review",
        help="review: the day's spaced-repetition round (the default); lab: the serving lab's "
        "predict-then-reveal challenges, scheduled like other cards",
    )

    p = command(
        "stats",
        "print progress and scores",
        "Print reviews, rounds, the day streak and per-deck progress.",
    )
    p.add_argument("--json", action="store_true", help="print JSON for tools")

    p = command(
        "validate",
        "check deck files",
        "Check deck files and folders. Prints PATH:LINE:COL: error: MESSAGE for every problem; "
        "exits 1 if any was found.",
    )
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="deck files or folders")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    p.add_argument(
        "--strict",
        action="store_true",
        help="also warn about items without sources and sources no item cites; warnings fail",
    )
    p.add_argument(
        "--max-bytes",
        type=_positive_int,
        default=None,
        metavar="N",
        help="largest deck file accepted (default 5 MB)",
    )

    p = command(
        "decks",
        "list the decks that are found",
        "List every deck found: built-in, --decks folders and the data folder's decks/.",
    )
    p.add_argument("--json", action="store_true", help="print JSON for tools")

    p = command(
        "new",
        "write a starter deck",
        "Write a commented starter deck that validates, ready to edit.",
    )
    p.add_argument("path", type=Path, metavar="PATH", help="the file to create (.yaml)")

    p = command(
        "flags",
        "list questions flagged as wrong or unclear",
        "List the questions players flagged with f during a round, for the decks' authors.",
    )
    p.add_argument("--json", action="store_true", help="print JSON for tools")

    _lab_options(
        command(
            "lab",
            "estimate a serving setup (the serving lab)",
            "Estimate memory, TTFT, TPOT, throughput and cost of serving a model on GPUs, with "
            "the working for every figure. With no setup options, opens the lab screen. "
            "GPUs and models come from the built-in catalogue and *.lab.yaml files in the "
            "decks folders.",
        )
    )

    p = command(
        "settings",
        "show or change settings",
        "Show the settings, or change them with the options below. They are kept in the data folder.",
    )
    for spec in SPECS:
        current = getattr(settings, spec.key)
        p.add_argument(
            SETTING_FLAGS[spec.key],
            dest=spec.key,
            type=_setting_type(spec.key),
            metavar="VALUE" if spec.choices else ("R" if isinstance(spec.default, float) else "N"),
            help=f"{spec.help} ({spec.describe()}; now {current})",
        )
    return parser


_LAB_SETUP = ("gpu", "model", "tp", "batch", "prompt", "output", "weights", "kv")


def _lab_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--gpu", metavar="G", help="GPU id, e.g. H100-SXM (default H100-SXM)")
    p.add_argument("--model", metavar="M", help="model id, e.g. llama-3.1-8b (the default)")
    p.add_argument("--tp", type=_positive_int, metavar="N", help="tensor-parallel GPUs (1)")
    p.add_argument(
        "--batch", type=_positive_int, metavar="B", help="sequences decoding at once (1)"
    )
    p.add_argument("--prompt", type=_positive_int, metavar="P", help="prompt tokens (1000)")
    p.add_argument("--output", type=_positive_int, metavar="O", help="output tokens (200)")
    p.add_argument("--weights", choices=("bf16", "fp8", "int8", "int4"), help="weight precision")
    p.add_argument("--kv", choices=("bf16", "fp8"), help="KV cache precision")
    p.add_argument("--json", action="store_true", help="print JSON for tools")


def _setting_type(key: str) -> Callable[[str], object]:
    """The setting's Python type for argparse; its range is checked by the settings module."""
    kind = type(SPEC[key].default)

    def convert(text: str) -> object:
        try:
            return kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a valid {SPEC[key].label}") from None

    return convert


def _effective_settings(argv: Sequence[str]) -> Settings | None:
    """The player's settings, read only to show them in --help; None when there are none yet."""
    probe = argparse.ArgumentParser(add_help=False)
    probe.add_argument("--data-dir", type=Path)
    known, _ = probe.parse_known_args(argv)
    path = (known.data_dir or default_data_dir()) / "vocabgame.db"
    if not path.is_file():
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


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    wants_help = any(a in ("-h", "--help") for a in argv)
    args = build_parser(_effective_settings(argv) if wants_help else None).parse_args(argv)
    data_dir: Path = args.data_dir or default_data_dir()
    folders = deck_folders(data_dir, [*(args.decks or []), *getattr(args, "decks_after", [])])
    try:
        match args.command:
            case "validate":
                return cmd_validate(args.paths, args.format, args.strict, args.max_bytes)
            case "decks":
                return cmd_decks(folders, args.json)
            case "new":
                return cmd_new(args.path)
            case "stats":
                return cmd_stats(data_dir, folders, args.json)
            case "flags":
                return cmd_flags(data_dir, args.json)
            case "settings":
                changes = {s.key: getattr(args, s.key) for s in SPECS}
                return cmd_settings(data_dir, {k: v for k, v in changes.items() if v is not None})
            case "lab":
                if args.json or any(getattr(args, k) is not None for k in _LAB_SETUP):
                    return cmd_lab(args, folders)
                return run_app(data_dir, folders, lab=True)
            case "play":
                return run_app(
                    data_dir,
                    folders,
                    deck=args.deck,
                    size=args.size,
                    seed=args.seed,
                    start=True,
                    mode=args.mode,
                )
            case _:
                return run_app(data_dir, folders)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Output piped into `head` and the like: stop quietly, as other tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


def _open_store(data_dir: Path) -> Store | None:
    """The store, or None after printing the one sentence that says why it cannot be used."""
    from vocabgame.store import DB_NAME, Store, StoreError

    try:
        return Store.open(data_dir / DB_NAME)
    except StoreError as exc:
        _err(str(exc))
        return None


def cmd_flags(data_dir: Path, as_json: bool) -> int:
    store = _open_store(data_dir)
    if store is None:
        return EXIT_PROBLEM
    try:
        flags = store.flags()
    finally:
        store.close()
    if as_json:
        rows = [
            {
                "deck": k.deck_id,
                "item": k.item_id,
                "face": k.face,
                "at": at.isoformat(),
                "note": note,
            }
            for k, at, note in flags
        ]
        print(json.dumps(rows, indent=2))
    elif not flags:
        print("No flagged questions.")
    else:
        for key, at, note in flags:
            print(
                f"{at:%Y-%m-%d %H:%M}  {key.deck_id} / {key.item_id} ({key.face}){'  ' + note if note else ''}"
            )
    return EXIT_OK


def cmd_settings(data_dir: Path, changes: dict[str, object]) -> int:
    from vocabgame.settings import SettingError
    from vocabgame.store import StoreError

    store = _open_store(data_dir)
    if store is None:
        return EXIT_PROBLEM
    try:
        settings, problems = store.settings()
        for problem in problems:
            _err(problem)
        if changes:
            try:
                settings = settings.changed(**changes)
            except SettingError as exc:
                _err(str(exc))
                return EXIT_USAGE
            store.save_settings(settings)
        for key, value in settings.as_dict().items():
            print(f"{SPEC[key].label:<18} {value}")
        print(f"{'data folder':<18} {data_dir}")
    except StoreError as exc:
        _err(str(exc))
        return EXIT_PROBLEM
    finally:
        store.close()
    return EXIT_OK


def cmd_stats(data_dir: Path, folders: list[Path], as_json: bool) -> int:
    from dataclasses import asdict

    from vocabgame.play import open_session
    from vocabgame.store import StoreError

    try:
        session = open_session(data_dir, folders)
    except StoreError as exc:
        _err(str(exc))
        return EXIT_PROBLEM
    try:
        stats = session.stats()
    finally:
        session.close()
    if as_json:
        out = asdict(stats)
        out["decks"] = [
            {k: v for k, v in d.items() if k != "title"} | {"title": d["title"]}
            for d in out["decks"]
        ]
        print(json.dumps(out, indent=2))
    else:
        print(render_stats(stats))
    return EXIT_OK


def render_stats(stats: Stats) -> str:
    lines = [
        f"Answers given:  {stats.reviews}",
        f"Rounds played:  {stats.rounds} finished",
        f"Day streak:     {stats.streak_days} day{'s' * (stats.streak_days != 1)}",
        "",
        "Seen: questions answered at least once, of all the questions the deck asks "
        "(a term is asked three ways).",
        "",
        f"{'Deck':<40} {'Seen':>11} {'Due':>5} {'Best':>6}",
    ]
    for d in stats.decks:
        best = "-" if d.best is None else str(d.best)
        title = d.title if len(d.title) <= 40 else d.title[:39] + "…"
        lines.append(f"{title:<40} {f'{d.seen}/{d.total}':>11} {d.due:>5} {best:>6}")
    return "\n".join(lines)


def _err(message: str) -> None:
    print(f"vocabgame: {message}", file=sys.stderr)


def cmd_validate(paths: list[Path], fmt: str, strict: bool, max_bytes: int | None) -> int:
    from vocabgame.deck import DEFAULT_MAX_BYTES, deck_files, load_text, read_text
    from vocabgame.problems import DeckError, Problem

    problems: list[Problem] = []
    owners: dict[str, str] = {}
    files = 0
    for path in paths:
        if not path.exists():
            problems.append(Problem(str(path), "no such file or folder"))
    for path in deck_files(p for p in paths if p.exists()):
        files += 1
        try:
            text = read_text(path, max_bytes or DEFAULT_MAX_BYTES)
        except DeckError as exc:
            problems.extend(exc.problems)
            continue
        deck, found = load_text(text, str(path), strict=strict)
        problems.extend(found)
        if deck is not None:
            if deck.id in owners:
                problems.append(
                    Problem(str(path), f"deck id {deck.id!r} is already used by {owners[deck.id]}")
                )
            owners.setdefault(deck.id, str(path))
    errors = sum(p.severity == "error" for p in problems)
    warnings = len(problems) - errors
    if fmt == "json":
        print(
            json.dumps(
                {
                    "files": files,
                    "errors": errors,
                    "warnings": warnings,
                    "problems": [p.as_dict() for p in problems],
                },
                indent=2,
            )
        )
    else:
        for problem in problems:
            print(problem)
        summary = f"{files} file{'s' * (files != 1)} checked: {errors} error{'s' * (errors != 1)}"
        if strict:
            summary += f", {warnings} warning{'s' * (warnings != 1)}"
        print(summary, file=sys.stderr)
    failed = errors > 0 or (strict and warnings > 0) or files == 0
    if files == 0 and fmt == "text" and all(p.exists() for p in paths):
        _err("no deck files (.yaml, .yml) found")
    return EXIT_PROBLEM if failed else EXIT_OK


def cmd_decks(folders: list[Path], as_json: bool) -> int:
    from vocabgame.deck import load_catalog
    from vocabgame.kinds import KINDS

    catalog = load_catalog(folders)
    if as_json:
        rows = [
            {
                "id": d.id,
                "title": d.title,
                "counts": d.counts(),
                "items": d.item_count(),
                "path": d.path,
            }
            for d in catalog.decks
        ]
        print(json.dumps(rows, indent=2))
    else:
        if not catalog.decks:
            print("No decks found. Searched: " + ", ".join(str(f) for f in folders))
        for d in catalog.decks:
            counts = ", ".join(KINDS[s].count(n) for s, n in d.counts().items() if n)
            print(f"{d.id}  {d.title}\n    {counts}\n    {d.path}")
    for problem in catalog.problems:
        print(problem, file=sys.stderr)
    return EXIT_PROBLEM if catalog.problems else EXIT_OK


def cmd_new(path: Path) -> int:
    from vocabgame.deck.starter import starter_deck
    from vocabgame.paths import schema_path

    if path.exists():
        _err(f"{path}: already exists; choose another name or remove it first")
        return EXIT_PROBLEM
    if path.suffix not in (".yaml", ".yml"):
        _err(f"{path}: a deck file name ends in .yaml")
        return EXIT_PROBLEM
    deck_id = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-") or "my-deck"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(starter_deck(deck_id, schema_path().as_uri()), encoding="utf-8")
    except OSError as exc:
        _err(f"{path}: cannot write: {exc.strerror}")
        return EXIT_PROBLEM
    print(f"Wrote {path}. Check it with: vocabgame validate {path}")
    return EXIT_OK


def cmd_lab(args: argparse.Namespace, folders: list[Path]) -> int:
    from vocabgame.lab import LabError, Setup, estimate, load_catalogue
    from vocabgame.lab.report import render

    catalogue = load_catalogue(folders)
    for problem in catalogue.problems:
        print(problem, file=sys.stderr)
    gpu = catalogue.gpu(args.gpu or "H100-SXM")
    model = catalogue.model(args.model or "llama-3.1-8b")
    if gpu is None or model is None:
        kind, wanted, known = (
            ("GPU", args.gpu, catalogue.gpus)
            if gpu is None
            else ("model", args.model, catalogue.models)
        )
        _err(f"no {kind} with id {wanted!r}; known: {', '.join(known) or 'none'}")
        return EXIT_USAGE
    given = {k: getattr(args, k) for k in ("tp", "batch", "prompt", "output", "weights", "kv")}
    setup = Setup(gpu, model, **{k: v for k, v in given.items() if v is not None})
    try:
        result = estimate(setup)
    except LabError as exc:
        _err(str(exc))
        return EXIT_PROBLEM
    print(json.dumps(result.as_dict(), indent=2) if args.json else render(result))
    return EXIT_OK


def run_app(
    data_dir: Path,
    folders: list[Path],
    *,
    deck: str | None = None,
    size: int | None = None,
    seed: int | None = None,
    start: bool = False,
    lab: bool = False,
    mode: str = "review",
) -> int:
    from vocabgame.play import open_session
    from vocabgame.store import StoreError

    try:
        session = open_session(data_dir, folders)
    except StoreError as exc:
        _err(str(exc))
        return EXIT_PROBLEM
    if deck is not None and session.catalog.get(deck) is None:
        known = ", ".join(d.id for d in session.catalog.decks) or "none"
        _err(f"no deck with id {deck!r}; known decks: {known}")
        session.close()
        return EXIT_USAGE
    from vocabgame.ui.app import VocabApp

    app = VocabApp(
        session,
        deck=deck,
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
