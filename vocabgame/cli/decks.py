"""Decks and their authoring: `validate`, `new`, `preview`, `schema`, `decks` and `flags`."""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from vocabgame.cli.common import (
    EXIT_OK,
    EXIT_PROBLEM,
    EXIT_USAGE,
    Command,
    Where,
    err,
    open_store,
    print_json,
    rare_collections,
)
from vocabgame.cli.options import json_option, positive_int
from vocabgame.cli.terminal import screen_problem
from vocabgame.printable import printable
from vocabgame.settings import Settings

# -- validate ---------------------------------------------------------------------------------


def validate_options(p: argparse.ArgumentParser, settings: Settings) -> None:
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
        type=positive_int,
        default=None,
        metavar="N",
        help="largest deck file accepted (default 16 MB)",
    )


def run_validate(args: argparse.Namespace, where: Where) -> int:
    return cmd_validate(args.paths, args.format, args.strict, args.max_bytes)


VALIDATE = Command(
    "validate",
    "check deck files",
    "Check deck files and folders. Prints PATH:LINE:COL: error: MESSAGE for every problem; "
    "exits 1 if any was found.",
    validate_options,
    run_validate,
    reads_files_only=True,
)


@rare_collections()
def cmd_validate(paths: list[Path], fmt: str, strict: bool, max_bytes: int | None) -> int:
    """Check deck and lab files; print each problem and a summary; the exit code."""
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
        print_json(
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
        err("no deck files (.yaml, .yml) found")
    return EXIT_PROBLEM if failed else EXIT_OK


# -- decks ------------------------------------------------------------------------------------


def decks_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    json_option(p)


def run_decks(args: argparse.Namespace, where: Where) -> int:
    return cmd_decks(where.folders, args.json)


DECKS = Command(
    "decks",
    "list the decks that are found",
    "List every deck found: built-in, --decks folders and the data folder's decks/.",
    decks_options,
    run_decks,
)


def cmd_decks(folders: list[Path], as_json: bool) -> int:
    """List the decks found in `folders` (or as JSON); exit 1 if any could not be read."""
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
                # items per level, "-" for those without one; {} for a deck with no levels
                "levels": d.level_counts() if d.levels else {},
                "path": d.path,
            }
            for d in catalog.decks
        ]
        print_json(rows)
    else:
        if not catalog.decks:
            print("No decks found. Searched: " + ", ".join(printable(str(f)) for f in folders))
        for d in catalog.decks:
            counts = ", ".join(KINDS[s].count(n) for s, n in d.counts().items() if n)
            print(f"{d.id}  {printable(d.title)}\n    {counts}")
            if d.levels:  # a deck without levels keeps its two lines
                levels = d.level_counts()
                shown = [f"{n} {level}" for level, n in levels.items() if level != "-"]
                shown += [f"{levels['-']} with no level"] if "-" in levels else []
                print(f"    levels: {', '.join(shown)}")
            print(f"    {printable(d.path)}")
    for problem in catalog.problems:
        print(problem, file=sys.stderr)
    return EXIT_PROBLEM if catalog.problems else EXIT_OK


# -- new ----------------------------------------------------------------------------------------


def new_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    p.add_argument("path", type=Path, metavar="PATH", help="the file to create (.yaml)")


def run_new(args: argparse.Namespace, where: Where) -> int:
    return cmd_new(args.path)


NEW = Command(
    "new",
    "write a starter deck",
    "Write a commented starter deck that validates, ready to edit.",
    new_options,
    run_new,
    reads_files_only=True,
)


def cmd_new(path: Path) -> int:
    """Write a starter deck at `path` and the schema beside it; the exit code."""
    from vocabgame.deck.starter import starter_deck
    from vocabgame.interchange import SCHEMA_REF

    if os.path.lexists(path):
        err(f"{path}: already exists; choose another name or remove it first")
        return EXIT_PROBLEM
    if path.suffix not in (".yaml", ".yml"):
        err(f"{path}: a deck file name ends in .yaml")
        return EXIT_PROBLEM
    deck_id = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-") or "my-deck"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(starter_deck(deck_id, SCHEMA_REF), encoding="utf-8")
    except OSError as exc:
        err(f"{path}: cannot write: {exc.strerror}")
        return EXIT_PROBLEM
    print(printable(f"Wrote {path}. Check it with: vocabgame validate {path}"))
    place_schema(path)
    return EXIT_OK


def write_file(path: Path, data: bytes, force: bool) -> bool:
    """Write a whole file, or print why not and return False."""
    from vocabgame.interchange import write_new

    try:
        write_new(path, data, force)
    except FileExistsError:
        err(f"{path}: already exists; pass --force to replace it")
        return False
    except IsADirectoryError:
        err(f"{path}: is a folder; give a file name")
        return False
    except OSError as exc:
        err(f"{path}: cannot write: {exc.strerror}")
        return False
    return True


def place_schema(deck_path: Path) -> None:
    """Put the schema beside a deck just written, saying only what needs saying."""
    from vocabgame.interchange import SCHEMA_NAME
    from vocabgame.interchange import place_schema as place

    target = deck_path.parent / SCHEMA_NAME
    try:
        what = place(deck_path.parent)
    except OSError as exc:
        err(f"{target}: cannot write the schema for editors: {exc.strerror}")
        return
    if what in ("written", "updated"):
        print(printable(f"Wrote {target} for editors; keep it beside the deck."))
    elif what == "kept":
        err(f"{target}: exists and is not vocabgame's schema; left as it is")


# -- schema -------------------------------------------------------------------------------------


def schema_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    p.add_argument("-o", "--output", type=Path, metavar="FILE", help="write it to FILE")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")


def run_schema(args: argparse.Namespace, where: Where) -> int:
    return cmd_schema(args.output, args.force)


SCHEMA = Command(
    "schema",
    "print the JSON Schema of deck files",
    "Print the JSON Schema of deck format 1, or write it to a file. Editors with the YAML "
    "language server use it to complete and check deck files as you type; vocabgame new "
    "and vocabgame import write it beside the deck for you.",
    schema_options,
    run_schema,
)


def cmd_schema(output: Path | None, force: bool) -> int:
    """Print the deck schema, or write it to `output`; the exit code."""
    from vocabgame.interchange import schema_text

    text = schema_text()
    if output is None:
        sys.stdout.write(text)
        return EXIT_OK
    if not write_file(output, text.encode("utf-8"), force):
        return EXIT_PROBLEM
    print(printable(f"Wrote {output}."))
    return EXIT_OK


# -- preview ------------------------------------------------------------------------------------


def preview_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    p.add_argument("path", type=Path, metavar="DECK.yaml", help="the deck file to preview")
    p.add_argument("--item", metavar="ID", help="start at this item (default: the first)")


def run_preview(args: argparse.Namespace, where: Where) -> int:
    return cmd_preview(args.path, args.item)


PREVIEW = Command(
    "preview",
    "play a deck file's questions while you edit it",
    "Play every question a deck file yields, item by item and face by face, with the real "
    "question and feedback screens. Nothing is saved: progress is untouched. The file is "
    "watched: save it and the preview reloads on the same item; while it does not "
    "validate, its problems are shown with file:line:col.",
    preview_options,
    run_preview,
)


def cmd_preview(path: Path, item: str | None) -> int:
    """Play a deck file's questions on a throw-away store, reloading as it is saved."""
    import tempfile

    from vocabgame.deck import Catalog
    from vocabgame.play import Session
    from vocabgame.store import DB_NAME, Store, StoreError

    if not os.path.isfile(path):
        err(f"{path}: no such deck file")
        return EXIT_USAGE
    problem = screen_problem(sys.stdin, sys.stdout)
    if problem is not None:
        err(problem)
        return EXIT_USAGE
    from vocabgame.ui.preview import PreviewApp

    with tempfile.TemporaryDirectory(prefix="vocabgame-preview-") as scratch:
        try:  # a store of its own, thrown away at the end: the player's is never opened
            session = Session(Store.open(Path(scratch) / DB_NAME), Catalog((), ()))
        except StoreError as exc:
            err(str(exc))
            return EXIT_PROBLEM
        app = PreviewApp(session, path, item=item)
        try:
            app.run()
        finally:
            session.close()
    return EXIT_OK


# -- flags --------------------------------------------------------------------------------------


def flags_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    json_option(p)


def run_flags(args: argparse.Namespace, where: Where) -> int:
    return cmd_flags(where.data_dir, where.folders, args.json)


FLAGS = Command(
    "flags",
    "list questions flagged as wrong or unclear",
    "List the questions players flagged with f during a round, for the decks' authors.",
    flags_options,
    run_flags,
    uses_data_folder=True,
)


def cmd_flags(data_dir: Path, folders: list[Path], as_json: bool) -> int:
    """List the flagged questions with the deck file and line of each; the exit code."""
    from vocabgame.deck import load_catalog

    store = open_store(data_dir)
    if store is None:
        return EXIT_PROBLEM
    try:
        flags = store.face_flags.all()
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
        print_json(rows)
    elif not flags:
        print("No flagged questions.")
    else:
        for key, at, note in flags:
            path, line = where(key.deck_id, key.item_id)
            place = f"{path}:{line}" if path else f"{key.deck_id} (no deck file with this id now)"
            shown = f"{place}: {key.item_id} ({key.face}), flagged {at:%Y-%m-%d %H:%M}"
            print(printable(shown + (f"; note: {note}" if note else "")))
    return EXIT_OK
