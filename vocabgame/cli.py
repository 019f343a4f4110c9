"""Command line: parses arguments, then calls the core or starts the app.

Commands that do not open the game never import textual, so they start fast.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import re
import sys
import textwrap
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from vocabgame import __version__
from vocabgame.paths import DATA_DIR_ENV, DECKS_ENV, deck_folders, default_data_dir
from vocabgame.printable import printable
from vocabgame.settings import SPEC, SPECS, Settings

if TYPE_CHECKING:
    from vocabgame.insights import Tally
    from vocabgame.model import Deck
    from vocabgame.play.overview import Overview
    from vocabgame.play.session import Session
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


def _port(text: str) -> int:
    value = _int(text)
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port from 1 to 65535")
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


# `play --mode`: the player's name for each mode and its help; learn is stored as "review"
# (and "review" is still accepted).
PLAY_MODE_HELP = {
    "learn": "the day's spaced-repetition round (the default)",
    "interview": "a timed mock interview with no feedback until its report (see --minutes, "
    "--questions, vocabgame reports)",
    "drill": "your most-confused pairs of terms first, until right answers in a row retire each",
    "challenge": "scenarios and claims against a countdown per question, for a top-10 table",
    "cram": "practise now, any amount; answers are kept as practice and no due date moves",
    "lab": "the serving lab's predict-then-reveal challenges, scheduled like other cards",
}
PLAY_MODES = (*PLAY_MODE_HELP, "review")
PLAY_MODE_IDS = {"learn": "review"}


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
    p.add_argument(
        "--deck",
        metavar="ID",
        action="append",
        help="play this deck (repeat for several; default: all decks)",
    )
    p.add_argument("--tag", metavar="TAG", help="play only the items tagged TAG, across the decks")
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
        choices=PLAY_MODES,
        default="review",  # learn, as stored
        help="; ".join(f"{name}: {text}" for name, text in PLAY_MODE_HELP.items()),
    )
    p.add_argument(
        "--minutes",
        type=_positive_int,
        metavar="M",
        help=f"interview: its length (now {settings.interview_minutes}; see vocabgame settings)",
    )
    p.add_argument(
        "--questions",
        type=_positive_int,
        metavar="N",
        help=f"interview: its questions (now {settings.interview_questions}); "
        "it ends at whichever comes first",
    )

    p = command(
        "stats",
        "print progress and scores",
        "Print reviews, rounds, the day streak and per-deck progress, then for one deck, one "
        "tag or everything: what is due, true retention, answers a day, accuracy per tag and "
        "kind, the weakest questions, confusions and best scores per mode "
        "(the JSON is described in docs/stats-json.md).",
    )
    p.add_argument("--deck", metavar="ID", help="only this deck (see vocabgame decks)")
    p.add_argument("--tag", metavar="TAG", help="only the items with this tag")
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
        help="also warn about items without sources, sources no item cites and test-taking "
        "tells (lint rules, see docs/authoring.md); warnings fail",
    )
    p.add_argument(
        "--max-bytes",
        type=_positive_int,
        default=None,
        metavar="N",
        help="largest deck file accepted (default 16 MB)",
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

    _interchange_commands(command)

    p = command(
        "export-progress",
        "write all your progress to one file",
        "Write everything needed to carry your progress to another machine (answers, "
        "schedules, rounds and scores, flags, settings) as one versioned JSON file.",
    )
    p.add_argument("file", type=Path, metavar="FILE", help="the file to write (.json)")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")

    p = command(
        "import-progress",
        "merge a progress file into this data folder",
        "Merge a file written by export-progress into this data folder. Nothing is doubled: "
        "importing the same file twice changes nothing. The whole file is checked first and "
        "nothing is written if any part is bad. Schedules of faces answered on both sides are "
        "recomputed from the merged history.",
    )
    p.add_argument("file", type=Path, metavar="FILE", help="a file from export-progress")

    p = command(
        "preview",
        "play a deck file's questions while you edit it",
        "Play every question a deck file yields, item by item and face by face, with the real "
        "question and feedback screens. Nothing is saved: progress is untouched. The file is "
        "watched: save it and the preview reloads on the same item; while it does not "
        "validate, its problems are shown with file:line:col.",
    )
    p.add_argument("path", type=Path, metavar="DECK.yaml", help="the deck file to preview")
    p.add_argument("--item", metavar="ID", help="start at this item (default: the first)")

    p = command(
        "reports",
        "list the saved mock-interview reports",
        "List the mock-interview reports kept in the store: id, date, decks, questions, "
        "right answers and seconds.",
    )
    p.add_argument("--json", action="store_true", help="print JSON for tools")

    p = command(
        "report",
        "print one mock-interview report",
        "Print one saved mock-interview report (its id from vocabgame reports).",
    )
    p.add_argument("id", type=_positive_int, metavar="ID", help="the report's id")
    p.add_argument(
        "--markdown", action="store_true", help="print it as Markdown, fit to paste into notes"
    )

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
        "serve",
        "play in a web browser",
        "Serve the game to web browsers: each browser tab that opens the address plays its own "
        "game on the same data folder. Stop with Ctrl+C. Needs textual-serve (the serve "
        "extra): pip install textual-serve.",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: this machine only; "
        "0.0.0.0 lets anyone who can reach the port play and change your progress)",
    )
    p.add_argument("--port", type=_port, default=8000, metavar="N", help="the port (default 8000)")

    p = command(
        "backup",
        "back up the progress database now",
        "Write a backup of the progress database to the data folder's backups/ folder and "
        "print its name. The game also writes one by itself at the first session of each day "
        "and keeps the last 7 daily and 4 weekly ones.",
    )

    p = command(
        "restore",
        "put a backup back in place of the progress database",
        "Replace the progress database with a backup: FILE, or the newest one in the data "
        "folder's backups/ folder. Shows what it will restore and asks first; the current "
        "database is kept as backups/vocabgame-before-restore-DATE.db. Refused while another "
        "vocabgame runs on the same data folder.",
    )
    p.add_argument(
        "file",
        nargs="?",
        type=Path,
        metavar="FILE",
        help="the backup to restore: a path, or a file name in backups/ (default: the newest)",
    )
    p.add_argument("--yes", "-y", action="store_true", help="do not ask for confirmation")

    p = command(
        "check",
        "check the progress database for damage and inconsistencies",
        "Check the progress database: SQLite's integrity check, answers whose round is "
        "missing, schedules without answers, and schedules that do not follow from their "
        "answers. Prints one line per finding and a summary; exits 1 if anything was found "
        "(0 when --fix repaired all of it).",
    )
    p.add_argument(
        "--fix",
        action="store_true",
        help="repair what can be repaired, after writing a backup first",
    )
    p.add_argument("--json", action="store_true", help="print JSON for tools")

    p = command(
        "settings",
        "show or change settings",
        "Show the settings, or change them with the options below. They are kept in the data folder.",
    )
    for spec in SPECS:
        if not spec.flag:  # a setting changed only on the settings screen
            continue
        current = getattr(settings, spec.key)
        p.add_argument(
            spec.flag,
            dest=spec.key,
            type=_setting_type(spec.key),
            metavar="VALUE" if spec.choices else ("R" if isinstance(spec.default, float) else "N"),
            help=f"{spec.help} ({spec.describe()}; now {current})",
        )
    return parser


_LAB_ASSUMED = ("bandwidth_efficiency", "compute_efficiency", "usd_per_gpu_hour")
_LAB_SETUP = ("gpu", "model", "tp", "batch", "prompt", "output", "weights", "kv", *_LAB_ASSUMED)


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
    p.add_argument(
        "--bandwidth-efficiency",
        type=float,
        metavar="R",
        help="achieved share of peak memory bandwidth (assumed 0.8)",
    )
    p.add_argument(
        "--compute-efficiency",
        type=float,
        metavar="R",
        help="achieved share of peak dense math (assumed 0.6)",
    )
    p.add_argument("--usd-per-gpu-hour", type=float, metavar="USD", help="GPU price (2.00)")
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


# The commands that open the progress database (None: the game), each holding the data
# folder's lock shared while it runs; `restore` takes it alone.
USES_DATA_FOLDER = (
    None,
    "play",
    "lab",  # with no setup options it opens the game
    "stats",
    "flags",
    "reports",
    "report",
    "settings",
    "backup",
    "check",
    "export-progress",
    "import-progress",
    "serve",  # checks the store before serving, and a restore must not swap it under the tabs
)

# The commands that read only the files they are given.
READS_FILES_ONLY = ("validate", "new")


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
    argv = list(sys.argv[1:] if argv is None else argv)
    wants_help = any(a in ("-h", "--help") for a in argv)
    args = build_parser(_effective_settings(argv) if wants_help else None).parse_args(argv)
    if args.command in READS_FILES_ONLY:  # no data folder: not even where it would be
        data_dir, folders = Path(), []
    else:
        data_dir = args.data_dir or default_data_dir()
        extra = [*(args.decks or []), *getattr(args, "decks_after", [])]
        folders = deck_folders(data_dir, extra)
    with contextlib.ExitStack() as held:
        if args.command in USES_DATA_FOLDER:
            # Every vocabgame using the data folder holds its lock shared; restore needs it alone.
            from vocabgame.backup import shared_lock

            held.enter_context(shared_lock(data_dir))
        return _run(args, data_dir, folders)
    return EXIT_OK  # pragma: no cover (mypy cannot see that the block always returns)


def _run(args: argparse.Namespace, data_dir: Path, folders: list[Path]) -> int:
    try:
        match args.command:
            case "validate":
                return cmd_validate(args.paths, args.format, args.strict, args.max_bytes)
            case "decks":
                return cmd_decks(folders, args.json)
            case "new":
                return cmd_new(args.path)
            case "import" | "export" | "schema":
                return cmd_interchange(args, folders)
            case "stats":
                return cmd_stats(data_dir, folders, args.json, args.deck, args.tag)
            case "flags":
                return cmd_flags(data_dir, folders, args.json)
            case "reports":
                return cmd_reports(data_dir, args.json)
            case "report":
                return cmd_report(data_dir, args.id)
            case "backup":
                return cmd_backup(data_dir)
            case "restore":
                return cmd_restore(data_dir, args.file, args.yes)
            case "check":
                return cmd_check(data_dir, args.fix, args.json)
            case "settings":
                changes = {s.key: getattr(args, s.key) for s in SPECS if s.flag}
                return cmd_settings(data_dir, {k: v for k, v in changes.items() if v is not None})
            case "lab":
                if args.json or any(getattr(args, k) is not None for k in _LAB_SETUP):
                    return cmd_lab(args, folders)
                return run_app(data_dir, folders, lab=True)
            case "preview":
                return cmd_preview(args.path, args.item)
            case "export-progress":
                return cmd_export_progress(data_dir, args.file, args.force)
            case "import-progress":
                return cmd_import_progress(data_dir, args.file)
            case "serve":
                return cmd_serve(
                    data_dir,
                    [*(args.decks or []), *getattr(args, "decks_after", [])],
                    args.host,
                    args.port,
                )
            case "play":
                return run_app(
                    data_dir,
                    folders,
                    deck=args.deck,
                    size=args.size,
                    seed=args.seed,
                    start=True,
                    mode=PLAY_MODE_IDS.get(args.mode, args.mode),
                    tag=args.tag,
                    minutes=args.minutes,
                    questions=args.questions,
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
        _store_error(data_dir, exc)
        return None


def _store_error(data_dir: Path, exc: Exception) -> None:
    """Print why the store cannot be opened; when it is damaged, name the newest backup."""
    from vocabgame.backup import damage_hint

    hint = damage_hint(data_dir)
    _err(f"{exc} {hint}" if hint else str(exc))


def cmd_backup(data_dir: Path) -> int:
    from vocabgame.backup import BackupError, backup_now
    from vocabgame.srs import utc_now
    from vocabgame.store import DB_NAME

    if not (data_dir / DB_NAME).is_file():
        _err(f"there is no progress database in {data_dir} yet; nothing to back up")
        return EXIT_PROBLEM
    store = _open_store(data_dir)
    if store is None:
        return EXIT_PROBLEM
    try:
        path = backup_now(store.conn, data_dir, utc_now())
    except BackupError as exc:
        _err(str(exc))
        return EXIT_PROBLEM
    finally:
        store.close()
    print(printable(str(path)))
    return EXIT_OK


def _describe(path: Path) -> str:
    import sqlite3

    from vocabgame.backup import contents

    try:
        found = contents(path)
    except sqlite3.Error as exc:  # say so; the restore itself decides
        return f"{path} (cannot be read: {exc})"
    last = f", last answer {found.last_answer[:16].replace('T', ' ')}" if found.last_answer else ""
    answers = f"{found.reviews} answer{'s' * (found.reviews != 1)}"
    rounds = f"{found.rounds} round{'s' * (found.rounds != 1)}"
    return f"{path} ({answers}, {rounds}{last})"


def cmd_restore(data_dir: Path, file: Path | None, yes: bool) -> int:
    from vocabgame.backup import BackupError, DataLock, find_backup, restore
    from vocabgame.srs import utc_now
    from vocabgame.store import DB_NAME

    db = data_dir / DB_NAME
    try:
        # Refused at once while another vocabgame runs; the lock is let go while asking, so a
        # game started meanwhile is not left waiting on an unanswered question.
        with DataLock(data_dir).exclusive() as lock:
            enforced = lock.enforced
        source = find_backup(data_dir, file)
        if not enforced:
            _err(
                "cannot tell whether another vocabgame is running on this data folder "
                "(no file locks here); make sure none is"
            )
        print(printable(f"Restore {_describe(source)}"))
        if db.exists():
            print(printable(f"over     {_describe(db)}?"))
            print("The current database is kept in the backups folder first.")
        if not yes and not _confirm("Restore it? [y/N] "):
            print("Nothing was restored.")
            return EXIT_PROBLEM
        with DataLock(data_dir).exclusive():
            before = restore(data_dir, source, utc_now())
    except BackupError as exc:
        _err(str(exc))
        return EXIT_PROBLEM
    print(printable(f"Restored {source} to {db}."))
    if before is not None:
        print(printable(f"The progress it replaced is kept in {before}."))
    return EXIT_OK


def _confirm(prompt: str) -> bool:
    try:
        answer = input(prompt)
    except EOFError:
        print()
        return False
    return answer.strip().lower() in ("y", "yes")


def cmd_check(data_dir: Path, fix: bool, as_json: bool) -> int:
    import sqlite3

    from vocabgame.backup import BackupError, backup_now, damage_hint
    from vocabgame.check import INTEGRITY, Finding, Report, check, run, srs_for
    from vocabgame.srs import utc_now
    from vocabgame.store import DB_NAME

    db = data_dir / DB_NAME
    if not db.is_file():
        print(printable(f"There is no progress database in {data_dir} yet; nothing to check."))
        return EXIT_OK
    remaining: list[Finding] | None = None
    try:
        conn = sqlite3.connect(db, isolation_level=None, timeout=2.0)
    except sqlite3.Error as exc:
        _err(f"cannot open {db} ({exc})")
        return EXIT_PROBLEM

    def backup_first() -> Path:
        source = sqlite3.connect(db)
        try:
            return backup_now(source, data_dir, utc_now())
        finally:
            source.close()

    try:
        report = check(conn, fix, backup=backup_first)
        if fix and report.fixed:
            remaining = run(conn, srs_for(conn))[0]
    except BackupError as exc:
        _err(f"{exc} Nothing was repaired.")
        return EXIT_PROBLEM
    except sqlite3.OperationalError as exc:
        _err(f"cannot check {db} ({exc})")
        return EXIT_PROBLEM
    except sqlite3.DatabaseError as exc:
        hint = damage_hint(data_dir)
        report = Report([Finding(INTEGRITY, f"{db} cannot be read ({exc}). {hint}".strip(), False)])
    finally:
        conn.close()
    left = report.findings if remaining is None else remaining
    if as_json:
        out = {
            "database": str(db),
            "findings": [f.as_dict() for f in report.findings],
            "fixed": report.fixed,
            "backup": str(report.backup) if report.backup else None,
            "remaining": [f.as_dict() for f in left],
        }
        _print_json(out)
        return EXIT_PROBLEM if left else EXIT_OK
    for finding in report.findings:
        print(printable(f"{finding.kind}: {finding.message}"))
    found = len(report.findings)
    if not found:
        print(printable(f"{db}: no problems found."))
        return EXIT_OK
    fixable = sum(f.fixable for f in report.findings)
    summary = f"{db}: {found} problem{'s' * (found != 1)} found"
    if report.backup is not None:
        summary += f"; backed up to {report.backup}, then repaired {report.fixed}"
        if left:
            summary += f"; {len(left)} remain"
    elif fixable:
        summary += f"; {fixable} can be repaired with: vocabgame check --fix"
    print(printable(summary + "."))
    return EXIT_PROBLEM if left else EXIT_OK


def cmd_flags(data_dir: Path, folders: list[Path], as_json: bool) -> int:
    from vocabgame.deck import load_catalog

    store = _open_store(data_dir)
    if store is None:
        return EXIT_PROBLEM
    try:
        flags = store.flags()
    finally:
        store.close()
    catalog = load_catalog(folders) if flags else None

    def where(deck_id: str, item_id: str) -> tuple[str | None, int | None]:
        """The deck file and line of a flagged item, so an author can jump to it."""
        deck = catalog.get(deck_id) if catalog is not None else None
        item = deck.item(item_id) if deck is not None else None
        if deck is None or item is None:
            return None, None
        return deck.path, item.line

    if as_json:
        rows = []
        for k, at, note in flags:
            path, line = where(k.deck_id, k.item_id)
            rows.append(
                {
                    "deck": k.deck_id,
                    "item": k.item_id,
                    "face": k.face,
                    "at": at.isoformat(),
                    "note": note,
                    "file": path,
                    "line": line,
                }
            )
        _print_json(rows)
    elif not flags:
        print("No flagged questions.")
    else:
        for key, at, note in flags:
            path, line = where(key.deck_id, key.item_id)
            place = f"{path}:{line}" if path else f"{key.deck_id} (no deck file with this id now)"
            shown = f"{place}: {key.item_id} ({key.face}), flagged {at:%Y-%m-%d %H:%M}"
            print(printable(shown + (f"; note: {note}" if note else "")))
    return EXIT_OK


def cmd_reports(data_dir: Path, as_json: bool) -> int:
    from vocabgame.play.interview import report_row

    store = _open_store(data_dir)
    if store is None:
        return EXIT_PROBLEM
    try:
        rows = [report_row(r) for r in store.reports("interview")]
    finally:
        store.close()
    if as_json:
        _print_json(rows)
    elif not rows:
        print("No reports yet: vocabgame play --mode interview makes one.")
    else:
        for row in rows:
            decks = ", ".join(row["decks"])
            line = (
                f"{row['id']:>4}  {row['date'][:16].replace('T', ' ')}  "
                f"{row['right']}/{row['questions']} right  {row['seconds']:g} s  {decks}"
            )
            print(printable(line))
    return EXIT_OK


def cmd_report(data_dir: Path, report_id: int) -> int:
    """One report, as Markdown (the only form there is; `--markdown` says so explicitly)."""
    from vocabgame.play.interview import markdown

    store = _open_store(data_dir)
    if store is None:
        return EXIT_PROBLEM
    try:
        record = store.report(report_id)
    finally:
        store.close()
    if record is None:
        _err(f"no report with id {report_id}; vocabgame reports lists them")
        return EXIT_USAGE
    for line in markdown(record).splitlines():  # deck text never drives the terminal
        print(printable(line))
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
            print(printable(f"{SPEC[key].label:<18} {value}"))
        print(f"{'data folder':<18} {printable(str(data_dir))}")
    except StoreError as exc:
        _err(str(exc))
        return EXIT_PROBLEM
    finally:
        store.close()
    return EXIT_OK


def _open_session(data_dir: Path, folders: list[Path]) -> Session | None:
    """The session, or None after printing the one sentence that says why it cannot be had."""
    from vocabgame.play import open_session
    from vocabgame.store import StoreError

    try:
        return open_session(data_dir, folders)
    except StoreError as exc:
        _store_error(data_dir, exc)
        return None


@contextlib.contextmanager
def _rare_collections() -> Iterator[None]:
    """Checking decks, or reading them and the store for the stats, builds trees and rows
    that reference counting frees, with next to no cycles among them, so the collector (run
    every 700 new objects) would only walk them again and again: while this lasts it runs
    every 100,000 instead (`stats` over a 33k-item deck: 1.45 s -> 1.18 s)."""
    before = gc.get_threshold()
    gc.set_threshold(100_000, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


@_rare_collections()
def cmd_stats(
    data_dir: Path,
    folders: list[Path],
    as_json: bool,
    deck: str | None = None,
    tag: str | None = None,
) -> int:
    from dataclasses import asdict

    from vocabgame.play.overview import as_json as overview_json

    session = _open_session(data_dir, folders)
    if session is None:
        return EXIT_PROBLEM
    for notice in session.notices:
        _err(notice)
    try:
        if deck is not None and session.catalog.get(deck) is None:
            _err(f"There is no deck with the id {deck!r}; vocabgame decks lists them.")
            return EXIT_PROBLEM
        stats = session.stats()
        modes = session.mode_bests() if as_json else {}
        view = session.insights(deck, tag)
    finally:
        session.close()
    if tag is not None and tag not in view.tags:
        where = f"deck {deck}" if deck else "the decks"
        _err(f"No item of {where} has the tag {tag!r}.")
        return EXIT_PROBLEM
    for problem in session.catalog.problems:
        print(problem, file=sys.stderr)
    if deck is not None:
        stats = replace(stats, decks=tuple(d for d in stats.decks if d.id == deck))
    if as_json:
        out = asdict(stats)
        out["decks"] = [
            {k: v for k, v in d.items() if k != "title"} | {"title": d["title"]}
            for d in out["decks"]
        ]
        # beside "modes" (the best finished round per stored mode): each game mode's records
        _print_json(out | overview_json(view) | {"mode_bests": modes})
    else:
        print(render_stats(stats))
        print()
        print_insights(view)
    return EXIT_OK


def render_stats(stats: Stats) -> str:
    """The progress table: every count is of questions, as on the home screen."""
    lines = [
        f"Answers given:  {stats.reviews}",
        f"Rounds played:  {stats.rounds} finished",
        f"Day streak:     {stats.streak_days} day{'s' * (stats.streak_days != 1)}",
        f"Overridden:     {stats.overrides} answer{'s' * (stats.overrides != 1)} marked wrong "
        "and counted as right with o (I was right)",
        "",
        *textwrap.wrap(
            "Counts are questions (a term is asked three ways). Seen: answered at least once, "
            "of all the deck asks. Due: to review now. New: never answered, and a round may "
            "ask them today.",
            width=80,
        ),
        "",
        f"{'Deck':<40} {'Seen':>11} {'Due':>5} {'New':>5} {'Best':>6}",
    ]
    for d in stats.decks:
        best = "-" if d.best is None else str(d.best)
        title = printable(d.title)
        title = title if len(title) <= 40 else title[:39] + "…"
        lines.append(f"{title:<40} {f'{d.seen}/{d.total}':>11} {d.due:>5} {d.new:>5} {best:>6}")
    return "\n".join(lines)


def print_insights(view: Overview) -> None:
    """The stats screen's figures as Rich tables; deck text is never read as markup."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    figures = view.figures
    console = Console(highlight=False, emoji=False)

    def share(tally: Tally) -> str:
        return "-" if tally.share is None else f"{tally.share:.0%} ({tally.right}/{tally.total})"

    summary = Table(title=Text(f"Stats: {figures.scope}"), show_header=False, box=None)
    summary.add_column(style="bold")
    summary.add_column()
    rows = [
        ("Questions seen", f"{figures.seen} of {figures.total}"),
        (
            "Due",
            f"{figures.due_today} today, {figures.due_tomorrow} tomorrow, "
            f"{figures.due_this_week} this week",
        ),
        ("Next 14 days", " ".join(str(n) for _, n in figures.forecast)),
        (
            "True retention",
            f"{share(figures.retention)} over 30 days; desired {view.desired_retention:.0%}",
        ),
        ("", view.retention_note),
        ("Answers, 12 weeks", str(sum(n for _, n in figures.daily))),
        ("Day streak", f"{figures.streak_days} (longest {figures.longest_streak})"),
        ("Overridden", str(view.overrides)),
    ]
    for name, value in rows:
        summary.add_row(name, Text(printable(value)))
    console.print(summary)

    def tallies(title: str, by: Mapping[str, Tally]) -> None:
        if not by:
            return
        table = Table(title=Text(title))
        table.add_column("")
        table.add_column("Right", justify="right")
        for name, tally in by.items():
            table.add_row(Text(printable(name)), share(tally))
        console.print(table)

    tallies("Accuracy per tag", figures.per_tag)
    tallies("Accuracy per kind of question", figures.per_kind)
    if view.weakest:
        table = Table(title="Weakest questions")
        for column in ("Question", "Stability (days)", "Lapses"):
            table.add_column(column, justify="left" if column == "Question" else "right")
        for weak, named in view.weakest:
            table.add_row(Text(printable(named.label)), f"{weak.stability:.1f}", str(weak.lapses))
        console.print(table)
    if figures.confusions:
        table = Table(title="Confusions")
        for column in ("Answer was", "Picked", "Times"):
            table.add_column(column, justify="right" if column == "Times" else "left")
        for c in figures.confusions:
            table.add_row(Text(printable(c.right)), Text(printable(c.picked)), str(c.times))
        console.print(table)
    if figures.modes:
        table = Table(title="Best score per mode")
        table.add_column("Mode")
        table.add_column("Best", justify="right")
        for mode, best in sorted(figures.modes.items()):
            table.add_row(Text(printable(mode)), str(best))
        console.print(table)
    if view.flagged:
        table = Table(title="Flagged questions")
        table.add_column("Question")
        table.add_column("Note")
        for flag in view.flagged:
            table.add_row(Text(printable(flag.label)), Text(printable(flag.note)))
        console.print(table)


def _print_json(value: object) -> None:
    """What a --json or --format json command prints: the value, indented by two."""
    import json  # here: only the commands asked for JSON need it

    print(json.dumps(value, indent=2))


def _err(message: str) -> None:
    """One sentence on standard error; control characters in it (a file name's) are escaped."""
    print(f"vocabgame: {printable(message)}", file=sys.stderr)


@_rare_collections()
def cmd_validate(paths: list[Path], fmt: str, strict: bool, max_bytes: int | None) -> int:
    from vocabgame.deck import DEFAULT_MAX_BYTES, find_deck_files, load_text, read_text
    from vocabgame.problems import DeckError, Problem
    from vocabgame.reading.files import LAB_SUFFIXES, lab_files

    corpus = None
    if strict:  # near-duplicates are looked for across all the files checked together
        from vocabgame.deck.lint import Corpus

        corpus = Corpus()
    owners: dict[str, str] = {}
    files = 0
    listed, not_searched = find_deck_files(paths, report_missing=True)
    listed += lab_files(paths)  # the serving lab's GPU and model files in the folders
    problems: list[Problem] = list(not_searched)
    for path in listed:
        files += 1
        try:
            text = read_text(path, max_bytes or DEFAULT_MAX_BYTES)
        except DeckError as exc:
            problems.extend(exc.problems)
            continue
        if path.name.endswith(LAB_SUFFIXES):
            from vocabgame.lab.catalogue import load_text as load_lab_text

            problems.extend(load_lab_text(text, str(path))[1])
            continue
        deck, found = load_text(text, str(path), strict=strict, corpus=corpus)
        problems.extend(found)
        if deck is not None:
            if deck.id in owners:
                problems.append(
                    Problem(str(path), f"deck id {deck.id!r} is already used by {owners[deck.id]}")
                )
            owners.setdefault(deck.id, str(path))
    if corpus is not None:
        problems.extend(corpus.problems())
    errors = sum(p.severity == "error" for p in problems)
    warnings = len(problems) - errors
    if fmt == "json":
        _print_json(
            {
                "files": files,
                "errors": errors,
                "warnings": warnings,
                "problems": [p.as_dict() for p in problems],
            }
        )
    else:
        for problem in problems:
            print(problem)
        summary = f"{files} file{'s' * (files != 1)} checked: {errors} error{'s' * (errors != 1)}"
        if strict:
            summary += f", {warnings} warning{'s' * (warnings != 1)}"
        print(summary, file=sys.stderr)
    failed = errors > 0 or (strict and warnings > 0) or files == 0
    if files == 0 and fmt == "text" and not not_searched:
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
        _print_json(rows)
    else:
        if not catalog.decks:
            print("No decks found. Searched: " + ", ".join(printable(str(f)) for f in folders))
        for d in catalog.decks:
            counts = ", ".join(KINDS[s].count(n) for s, n in d.counts().items() if n)
            print(f"{d.id}  {printable(d.title)}\n    {counts}\n    {printable(d.path)}")
    for problem in catalog.problems:
        print(problem, file=sys.stderr)
    return EXIT_PROBLEM if catalog.problems else EXIT_OK


def cmd_new(path: Path) -> int:
    from vocabgame.deck.starter import starter_deck
    from vocabgame.interchange import SCHEMA_REF

    if os.path.lexists(path):
        _err(f"{path}: already exists; choose another name or remove it first")
        return EXIT_PROBLEM
    if path.suffix not in (".yaml", ".yml"):
        _err(f"{path}: a deck file name ends in .yaml")
        return EXIT_PROBLEM
    deck_id = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-") or "my-deck"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(starter_deck(deck_id, SCHEMA_REF), encoding="utf-8")
    except OSError as exc:
        _err(f"{path}: cannot write: {exc.strerror}")
        return EXIT_PROBLEM
    print(printable(f"Wrote {path}. Check it with: vocabgame validate {path}"))
    _place_schema(path)
    return EXIT_OK


def cmd_export_progress(data_dir: Path, file: Path, force: bool) -> int:
    from datetime import UTC, datetime

    from vocabgame.progress import export_progress
    from vocabgame.store import StoreError

    if file.exists() and not force:
        _err(f"{file} exists; choose another file or add --force to replace it")
        return EXIT_USAGE
    store = _open_store(data_dir)
    if store is None:
        return EXIT_PROBLEM
    try:
        data = export_progress(store, datetime.now(UTC))
    except StoreError as exc:
        _err(str(exc))
        return EXIT_PROBLEM
    finally:
        store.close()
    import json

    scratch = file.with_name(f".{file.name}.partial")
    try:  # written whole, then renamed: a crash never leaves half a file under FILE
        scratch.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", "utf-8")
        scratch.replace(file)
    except OSError as exc:
        scratch.unlink(missing_ok=True)
        _err(f"cannot write {file} ({exc.strerror})")
        return EXIT_PROBLEM
    print(
        f"Wrote {len(data['reviews'])} answers, {len(data['rounds'])} rounds and "
        f"{len(data['cards'])} schedules to {file}."
    )
    return EXIT_OK


def cmd_import_progress(data_dir: Path, file: Path) -> int:
    from vocabgame.progress import ProgressError, import_progress, read_progress_file
    from vocabgame.srs import Srs
    from vocabgame.store import StoreError

    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "it is not UTF-8 text"
        _err(f"cannot read {file} ({reason})")
        return EXIT_PROBLEM
    try:
        data = read_progress_file(text, str(file))
    except ProgressError as exc:
        _err(str(exc))
        return EXIT_PROBLEM
    store = _open_store(data_dir)
    if store is None:
        return EXIT_PROBLEM
    try:
        if store.review_count():  # something to lose: a backup first, as before a restore
            from datetime import UTC, datetime

            from vocabgame.backup import BackupError, backup_now

            try:
                saved = backup_now(store.conn, data_dir, datetime.now(UTC))
            except BackupError as exc:
                _err(f"{exc} Nothing was imported.")
                return EXIT_PROBLEM
            print(printable(f"Backed up the progress here to {saved} first."))
        settings, _ = store.settings()
        merged = import_progress(store, data, Srs(settings.desired_retention))
    except StoreError as exc:
        _err(str(exc))
        return EXIT_PROBLEM
    finally:
        store.close()
    print(merged)
    return EXIT_OK


def cmd_preview(path: Path, item: str | None) -> int:
    import tempfile

    from vocabgame.deck import Catalog
    from vocabgame.play import Session
    from vocabgame.store import DB_NAME, Store, StoreError

    if not os.path.isfile(path):
        _err(f"{path}: no such deck file")
        return EXIT_USAGE
    problem = terminal_problem(sys.stdin, sys.stdout)
    if problem is not None:
        _err(problem)
        return EXIT_USAGE
    from vocabgame.ui.preview import PreviewApp

    with tempfile.TemporaryDirectory(prefix="vocabgame-preview-") as scratch:
        try:  # a store of its own, thrown away at the end: the player's is never opened
            session = Session(Store.open(Path(scratch) / DB_NAME), Catalog((), ()))
        except StoreError as exc:
            _err(str(exc))
            return EXIT_PROBLEM
        app = PreviewApp(session, path, item=item)
        try:
            app.run()
        finally:
            session.close()
    return EXIT_OK


WEB_DRIVER = "textual.drivers.web_driver:WebDriver"
# What `serve` imports that only the serve extra installs.
_SERVE_NEEDS = ("textual_serve", "aiohttp", "aiohttp_jinja2", "jinja2")


def in_browser(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether this game was started by `vocabgame serve` (textual-serve) for a browser tab.
    Its standard input, output and error are pipes, not a terminal, TERM is whatever the
    server had, and Textual draws through its web driver, which this variable names; the
    first line on standard output must be the web driver's, so nothing may print there."""
    return environ.get("TEXTUAL_DRIVER", "") == WEB_DRIVER


def cmd_serve(data_dir: Path, decks: list[Path], host: str, port: int) -> int:
    try:
        from vocabgame.ui.serve import WILDCARDS, GameServer, game_command, is_local, url
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in _SERVE_NEEDS:
            raise
        _err("playing in a browser needs textual-serve; install it with: pip install textual-serve")
        return EXIT_PROBLEM
    # Every tab's game opens this store: say now, once, if it cannot be used.
    store = _open_store(data_dir)
    if store is None:
        return EXIT_PROBLEM
    store.close()
    if not is_local(host):
        _err(
            f"warning: listening on {host}: anyone who can reach port {port} can play and "
            "change the progress in this data folder."
        )
    server = GameServer(game_command(data_dir, decks), host, port)

    def listening() -> None:
        where = url(host, port)
        if host in WILDCARDS:
            where += f" here, or this machine's address with port {port} from elsewhere,"
        print(f"Open {where} in a browser to play. Stop with Ctrl+C.", flush=True)

    try:
        server.run(listening)
    except OSError as exc:
        _err(f"cannot listen on {host} port {port}: {exc.strerror or exc}")
        return EXIT_PROBLEM
    return EXIT_OK


def cmd_lab(args: argparse.Namespace, folders: list[Path]) -> int:
    from vocabgame.lab import Assumptions, LabError, Setup, estimate, load_catalogue
    from vocabgame.lab.report import render

    catalogue = load_catalogue(folders)
    for problem in catalogue.problems:
        print(printable(str(problem)), file=sys.stderr)
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
    assumed = {k: getattr(args, k) for k in _LAB_ASSUMED if getattr(args, k) is not None}
    setup = Setup(
        gpu,
        model,
        assumptions=Assumptions(**assumed),
        **{k: v for k, v in given.items() if v is not None},
    )
    try:
        result = estimate(setup)
    except LabError as exc:
        _err(str(exc))
        return EXIT_PROBLEM
    if args.json:
        _print_json(result.as_dict())
    else:
        print("\n".join(printable(line) for line in render(result).split("\n")))
    return EXIT_OK


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Opening the game builds what lasts as long as the game (modules, decks, styles), so
    the collector is paused meanwhile; the app freezes all of it once its first screen is
    shown and starts the collector again (`vocabgame.ui.app`), and no collection walks those
    objects after that. On again, in any case, when the game is over."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@_collector_paused()
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
    minutes: float | None = None,
    questions: int | None = None,
) -> int:
    session = _open_session(data_dir, folders)
    if session is None:
        return EXIT_PROBLEM
    ids = [deck] if isinstance(deck, str) else list(deck or [])
    unknown = [i for i in ids if session.catalog.get(i) is None]
    if unknown:
        known = ", ".join(d.id for d in session.catalog.decks) or "none"
        _err(f"no deck with id {unknown[0]!r}; known decks: {known}")
        session.close()
        return EXIT_USAGE
    if tag is not None:
        try:
            session.decks_chosen(ids, tag)
        except ValueError as exc:
            _err(f"{exc}; vocabgame decks lists each deck's tags")
            session.close()
            return EXIT_USAGE
    problem = terminal_problem(sys.stdin, sys.stdout)
    if problem is not None:
        _err(problem)
        session.close()
        return EXIT_USAGE
    from vocabgame.ui.app import VocabApp

    app = VocabApp(
        session,
        deck=ids[0] if len(ids) == 1 else (tuple(ids) or None),
        tag=tag,
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


def _is_terminal(stream: object) -> bool:
    try:
        return stream is not None and bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):  # no isatty, or closed
        return False


def terminal_problem(
    stdin: object, stdout: object, environ: Mapping[str, str] = os.environ
) -> str | None:
    """Why the game cannot be shown here, in one sentence; None when it can. The game needs a
    terminal on both ends (read from a pipe it would wait on input that never comes) and one
    that understands colours and cursor moves, which TERM=dumb (or no TERM) says it does not.
    A game that `vocabgame serve` started for a browser tab has pipes on both ends and the
    server's TERM, and is shown all the same, by Textual's web driver."""
    if in_browser(environ):
        return None
    for name, stream in (("standard input", stdin), ("standard output", stdout)):
        if not _is_terminal(stream):
            return (
                f"the game needs a terminal, but {name} is not one; run vocabgame in a "
                "terminal (text commands such as vocabgame stats and vocabgame validate "
                "work in pipes)"
            )
    term = environ.get("TERM", "")
    if os.name != "nt" and term in ("", "dumb"):
        shown = f"TERM={term}" if term else "TERM is not set"
        return (
            f"this terminal cannot show the game ({shown}); run vocabgame in a terminal "
            "emulator, or set TERM for it, e.g. TERM=xterm-256color vocabgame"
        )
    return None


# -- import, export, schema -------------------------------------------------------------------

_EXPORT_FORMATS = {".csv": "csv", ".tsv": "tsv", ".txt": "tsv", ".apkg": "apkg"}


def _slug_arg(text: str) -> str:
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a slug: use lowercase letters, digits and hyphens"
        )
    return text


def _interchange_commands(
    command: Callable[[str, str, str], argparse.ArgumentParser],
) -> None:
    """The parsers of `import`, `export` and `schema`."""
    raw = argparse.RawDescriptionHelpFormatter
    p = command(
        "import",
        "make a deck from a CSV or TSV of terms and definitions",
        "Make a deck file from a two-column table (term, definition), such as Anki's\n"
        '"Notes in Plain Text" export or Quizlet\'s export.',
    )
    p.formatter_class = raw
    p.epilog = """\
The separator is taken from an Anki "#separator:" line, else guessed among tab, comma and
semicolon, else from the extension (.csv: comma; otherwise tab). HTML is turned into plain
text when an "#html:true" line says so, or when the text has tags such as <br> or <div>.
A first row such as "term, definition" or "Front, Back" is taken as a header and skipped.
Empty rows, rows without a term or a definition and repeated terms are skipped and reported
as FILE:LINE. Nothing is written when nothing can be imported.

The deck validates as written; add sources, caveats and examples next
(vocabgame validate --strict lists what is missing).

examples:
  vocabgame import anki-notes.txt -o decks/serving.yaml
  vocabgame import quizlet.tsv -o decks/serving.yaml --id serving --title "Serving terms"
"""
    p.add_argument("file", type=Path, metavar="FILE", help="the CSV, TSV or text file to read")
    p.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        metavar="DECK.yaml",
        help="the deck file to write; deck-v1.schema.json is written beside it for editors",
    )
    p.add_argument(
        "--id", type=_slug_arg, metavar="ID", help="the deck id (default: from the output name)"
    )
    p.add_argument(
        "--title",
        metavar="TITLE",
        help="the deck title (default: the #deck: line of an Anki export, else the file name)",
    )
    p.add_argument("--force", action="store_true", help="replace the output file if it exists")

    p = command(
        "export",
        "write a deck's terms as CSV, TSV or an Anki package",
        "Write a deck's terms for Anki or Quizlet: one card per term, the term on the front\n"
        "and the definition on the back.",
    )
    p.formatter_class = raw
    p.epilog = """\
csv, tsv: Anki imports them as Basic notes (File > Import); the first lines tell Anki the
  separator, that fields are plain text, the deck name and a third column of tags.
  For Quizlet, use --format tsv --no-header and choose Tab and New line when importing.
apkg: an Anki package made with genanki (pip install 'vocabgame[anki]'); the term's caveat,
  example and sources go on the back too. Notes keep the same ids on every export, so
  importing a newer export into Anki updates the cards instead of adding copies.
Only terms are exported; confusables, scenarios and the other items stay in vocabgame.

examples:
  vocabgame export kv-cache -o kv-cache.apkg
  vocabgame export decks/serving.yaml --format tsv --no-header -o serving-quizlet.tsv
"""
    p.add_argument("deck", metavar="DECK", help="a deck id (see vocabgame decks) or a deck file")
    p.add_argument(
        "--format",
        choices=("csv", "tsv", "apkg"),
        help="what to write (default: from the output's extension: .csv, .tsv or .txt, .apkg)",
    )
    p.add_argument(
        "-o", "--output", type=Path, required=True, metavar="FILE", help="the file to write"
    )
    p.add_argument(
        "--no-header",
        action="store_true",
        help="csv/tsv: only the two columns, without Anki's # lines and tags (for Quizlet)",
    )
    p.add_argument("--force", action="store_true", help="replace the output file if it exists")

    p = command(
        "schema",
        "print the JSON Schema of deck files",
        "Print the JSON Schema of deck format 1, or write it to a file. Editors with the YAML "
        "language server use it to complete and check deck files as you type; vocabgame new "
        "and vocabgame import write it beside the deck for you.",
    )
    p.add_argument("-o", "--output", type=Path, metavar="FILE", help="write it to FILE")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")


def cmd_interchange(args: argparse.Namespace, folders: list[Path]) -> int:
    if args.command == "import":
        return cmd_import(args.file, args.output, args.id, args.title, args.force)
    if args.command == "export":
        return cmd_export(args.deck, args.output, args.format, args.no_header, args.force, folders)
    return cmd_schema(args.output, args.force)


def _write_file(path: Path, data: bytes, force: bool) -> bool:
    """Write a whole file, or print why not and return False."""
    from vocabgame.interchange import write_new

    try:
        write_new(path, data, force)
    except FileExistsError:
        _err(f"{path}: already exists; pass --force to replace it")
        return False
    except IsADirectoryError:
        _err(f"{path}: is a folder; give a file name")
        return False
    except OSError as exc:
        _err(f"{path}: cannot write: {exc.strerror}")
        return False
    return True


def _place_schema(deck_path: Path) -> None:
    """Put the schema beside a deck just written, saying only what needs saying."""
    from vocabgame.interchange import SCHEMA_NAME, place_schema

    target = deck_path.parent / SCHEMA_NAME
    try:
        what = place_schema(deck_path.parent)
    except OSError as exc:
        _err(f"{target}: cannot write the schema for editors: {exc.strerror}")
        return
    if what in ("written", "updated"):
        print(printable(f"Wrote {target} for editors; keep it beside the deck."))
    elif what == "kept":
        _err(f"{target}: exists and is not vocabgame's schema; left as it is")


def _title_from(name: str) -> str:
    words = " ".join(re.sub(r"[-_]+", " ", name).split())
    return (words[:1].upper() + words[1:]) or "Imported deck"


def cmd_import(
    source: Path, output: Path, deck_id: str | None, title: str | None, force: bool
) -> int:
    from vocabgame.deck import DEFAULT_MAX_BYTES, load_text
    from vocabgame.interchange import SCHEMA_REF, deck_yaml, read_table
    from vocabgame.interchange.table import slug
    from vocabgame.problems import DeckError

    if output.suffix not in (".yaml", ".yml"):
        _err(f"{output}: a deck file name ends in .yaml")
        return EXIT_USAGE
    if output.exists() and not force:
        _err(f"{output}: already exists; pass --force to replace it")
        return EXIT_PROBLEM
    try:
        if source.stat().st_size > DEFAULT_MAX_BYTES:
            _err(
                f"{source}: file is {source.stat().st_size:,} bytes, over the deck size limit "
                f"of {DEFAULT_MAX_BYTES:,}; nothing written"
            )
            return EXIT_PROBLEM
        data = source.read_bytes()
    except FileNotFoundError:
        _err(f"{source}: no such file")
        return EXIT_PROBLEM
    except IsADirectoryError:
        _err(f"{source}: is a folder; give a CSV or TSV file")
        return EXIT_PROBLEM
    except OSError as exc:
        _err(f"{source}: cannot read: {exc.strerror}")
        return EXIT_PROBLEM
    try:
        imported = read_table(data, str(source), source.suffix)
    except DeckError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        _err(f"nothing written to {output}")
        return EXIT_PROBLEM
    for note in imported.notes:
        print(printable(str(note)), file=sys.stderr)
    deck_id = deck_id or slug(output.stem) or "imported"
    if title is None and imported.deck_name:
        title = imported.deck_name.split("::")[-1].strip() or None
    title = title or _title_from(source.stem)
    text = deck_yaml(imported, deck_id, title, source.name, SCHEMA_REF)
    encoded = text.encode("utf-8")
    if len(encoded) > DEFAULT_MAX_BYTES:
        _err(
            f"{output}: the deck would be {len(encoded):,} bytes, over the deck size limit of "
            f"{DEFAULT_MAX_BYTES:,}; nothing written"
        )
        return EXIT_PROBLEM
    deck, problems = load_text(text, str(output), strict=True)
    errors = [p for p in problems if p.severity == "error"]
    if deck is None or errors:
        for problem in errors:
            print(problem, file=sys.stderr)
        _err(f"the imported deck would not validate; nothing written to {output}")
        return EXIT_PROBLEM
    if not _write_file(output, encoded, force):
        return EXIT_PROBLEM
    skipped = imported.skipped
    print(
        printable(
            f"Wrote {output}: {len(deck.terms)} terms from {source}"
            + (f"; {skipped} row{'s' * (skipped != 1)} skipped (listed above)" if skipped else "")
            + "."
        )
    )
    _place_schema(output)
    unsourced = sum(1 for t in deck.terms if not t.sources)
    print(
        "Next steps:\n"
        f"  1. Add a `sources` section and cite it from each term: {unsourced} of "
        f"{len(deck.terms)} terms cite no source.\n"
        "  2. Add a `caveat` (the trap) or an `example` to the terms that need one, and\n"
        "     confusables, scenarios or claims for look-alike terms.\n"
        f"  3. Check it: vocabgame validate --strict {output}"
    )
    return EXIT_OK


def cmd_export(
    target: str,
    output: Path,
    fmt: str | None,
    no_header: bool,
    force: bool,
    folders: list[Path],
) -> int:
    from vocabgame.interchange import ExportError, apkg_bytes, table_text

    fmt = fmt or _EXPORT_FORMATS.get(output.suffix.lower())
    if fmt is None:
        _err(f"{output}: say which format with --format csv, tsv or apkg")
        return EXIT_USAGE
    if no_header and fmt == "apkg":
        _err("--no-header is for csv and tsv, not apkg")
        return EXIT_USAGE
    if output.exists() and not force:
        _err(f"{output}: already exists; pass --force to replace it")
        return EXIT_PROBLEM
    deck = _deck_for_export(target, folders)
    if deck is None:
        return EXIT_PROBLEM
    try:
        if fmt == "apkg":
            import time

            data = apkg_bytes(deck, time.time())
        else:
            separator = "," if fmt == "csv" else "\t"
            data = table_text(deck, separator, header=not no_header).encode("utf-8")
    except ExportError as exc:
        _err(str(exc))
        return EXIT_PROBLEM
    if not _write_file(output, data, force):
        return EXIT_PROBLEM
    others = {s: len(items) for s, items in deck.sections.items() if s != "terms" and items}
    left = ", ".join(f"{n} {s}" for s, n in others.items())
    print(
        printable(
            f"Wrote {output}: {len(deck.terms)} terms of deck {deck.id!r}"
            + (f" (not exported: {left})." if left else ".")
        )
    )
    return EXIT_OK


def _deck_for_export(target: str, folders: list[Path]) -> Deck | None:
    from vocabgame.deck import load_catalog, load_deck
    from vocabgame.problems import DeckError

    path = Path(target)
    if path.suffix in (".yaml", ".yml") or path.is_file():
        try:
            return load_deck(path)
        except DeckError as exc:
            for problem in exc.problems:
                print(problem, file=sys.stderr)
            return None
    catalog = load_catalog(folders)
    deck = catalog.get(target)
    if deck is None:
        known = ", ".join(d.id for d in catalog.decks) or "none"
        _err(f"no deck with id {target!r} and no such file; known decks: {known}")
    return deck


def cmd_schema(output: Path | None, force: bool) -> int:
    from vocabgame.interchange import schema_text

    text = schema_text()
    if output is None:
        sys.stdout.write(text)
        return EXIT_OK
    if not _write_file(output, text.encode("utf-8"), force):
        return EXIT_PROBLEM
    print(printable(f"Wrote {output}."))
    return EXIT_OK
