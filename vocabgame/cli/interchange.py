"""Decks to and from other flashcard tools: `import` (a CSV or TSV of terms) and `export`
(CSV or TSV for Anki, TSV for Quizlet, or an Anki package)."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from vocabgame.cli.common import (
    EXIT_OK,
    EXIT_PROBLEM,
    EXIT_USAGE,
    Command,
    Where,
    err,
    not_a_regular_file,
)
from vocabgame.cli.decks import place_schema, write_file
from vocabgame.printable import printable
from vocabgame.settings import Settings

if TYPE_CHECKING:
    from vocabgame.model import Deck

EXPORT_FORMATS = {".csv": "csv", ".tsv": "tsv", ".txt": "tsv", ".apkg": "apkg"}
QUIZLET = "quizlet"  # tab-separated, no header lines: Quizlet would import those as cards

IMPORT_EPILOG = """\
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

EXPORT_EPILOG = """\
csv, tsv: Anki imports them as Basic notes (File > Import); the first lines tell Anki the
  separator, that fields are plain text, the deck name and a third column of tags
  (#separator:, #html:, #deck:, ...). A .csv, .tsv or .txt output gets them by default.
quizlet: the two columns alone, tab-separated, one card per line and no # lines (Quizlet
  would import those as cards); choose Tab and New line when importing. The same as
  --format tsv --no-header.
apkg: an Anki package made with genanki (pip install 'vocabgame[anki]'); the term's caveat,
  example and sources go on the back too. Notes keep the same ids on every export, so
  importing a newer export into Anki updates the cards instead of adding copies.
Only terms are exported; confusables, scenarios and the other items stay in vocabgame.

examples:
  vocabgame export kv-cache -o kv-cache.apkg
  vocabgame export decks/serving.yaml --format quizlet -o serving-quizlet.tsv
"""


def slug_arg(text: str) -> str:
    """A deck id given with --id: lowercase letters, digits and hyphens."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a slug: use lowercase letters, digits and hyphens"
        )
    return text


def import_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.epilog = IMPORT_EPILOG
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
        "--id", type=slug_arg, metavar="ID", help="the deck id (default: from the output name)"
    )
    p.add_argument(
        "--title",
        metavar="TITLE",
        help="the deck title (default: the #deck: line of an Anki export, else the file name)",
    )
    p.add_argument("--force", action="store_true", help="replace the output file if it exists")


def run_import(args: argparse.Namespace, where: Where) -> int:
    return cmd_import(args.file, args.output, args.id, args.title, args.force)


IMPORT = Command(
    "import",
    "make a deck from a CSV or TSV of terms and definitions",
    "Make a deck file from a two-column table (term, definition), such as Anki's\n"
    '"Notes in Plain Text" export or Quizlet\'s export.',
    import_options,
    run_import,
)


def export_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.epilog = EXPORT_EPILOG
    p.add_argument("deck", metavar="DECK", help="a deck id (see vocabgame decks) or a deck file")
    p.add_argument(
        "--format",
        choices=("csv", "tsv", QUIZLET, "apkg"),
        help="what to write (default: from the output's extension: .csv, .tsv or .txt, .apkg; "
        f"these tables carry Anki's header lines, {QUIZLET} has none)",
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


def run_export(args: argparse.Namespace, where: Where) -> int:
    return cmd_export(
        args.deck, args.output, args.format, args.no_header, args.force, where.folders
    )


EXPORT = Command(
    "export",
    "write a deck's terms as CSV or TSV (for Anki or Quizlet) or an Anki package",
    "Write a deck's terms for Anki or Quizlet: one card per term, the term on the front\n"
    "and the definition on the back.",
    export_options,
    run_export,
)


def title_from(name: str) -> str:
    """A deck title from a file name: 'kv_cache-terms' -> 'Kv cache terms'."""
    words = " ".join(re.sub(r"[-_]+", " ", name).split())
    return (words[:1].upper() + words[1:]) or "Imported deck"


def read_source(source: Path) -> bytes | None:
    """The table file's bytes, or None after saying why they cannot be had."""
    from vocabgame.deck import DEFAULT_MAX_BYTES

    if (why := not_a_regular_file(source)) is not None:
        err(why)
        return None
    try:
        if source.stat().st_size > DEFAULT_MAX_BYTES:
            err(
                f"{source}: file is {source.stat().st_size:,} bytes, over the deck size limit "
                f"of {DEFAULT_MAX_BYTES:,}; nothing written"
            )
            return None
        return source.read_bytes()
    except FileNotFoundError:
        err(f"{source}: no such file")
    except IsADirectoryError:
        err(f"{source}: is a folder; give a CSV or TSV file")
    except OSError as exc:
        err(f"{source}: cannot read: {exc.strerror}")
    return None


def cmd_import(
    source: Path, output: Path, deck_id: str | None, title: str | None, force: bool
) -> int:
    """Make a deck file from a two-column table and write the schema beside it."""
    from vocabgame.deck import DEFAULT_MAX_BYTES, load_text
    from vocabgame.interchange import SCHEMA_REF, deck_yaml, read_table
    from vocabgame.interchange.table import slug
    from vocabgame.problems import DeckError

    if output.suffix not in (".yaml", ".yml"):
        err(f"{output}: a deck file name ends in .yaml")
        return EXIT_USAGE
    if output.exists() and not force:
        err(f"{output}: already exists; pass --force to replace it")
        return EXIT_PROBLEM
    data = read_source(source)
    if data is None:
        return EXIT_PROBLEM
    try:
        imported = read_table(data, str(source), source.suffix)
    except DeckError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        err(f"nothing written to {output}")
        return EXIT_PROBLEM
    for note in imported.notes:
        print(printable(str(note)), file=sys.stderr)
    deck_id = deck_id or slug(output.stem) or "imported"
    if title is None and imported.deck_name:
        title = imported.deck_name.split("::")[-1].strip() or None
    title = title or title_from(source.stem)
    text = deck_yaml(imported, deck_id, title, source.name, SCHEMA_REF)
    encoded = text.encode("utf-8")
    if len(encoded) > DEFAULT_MAX_BYTES:
        err(
            f"{output}: the deck would be {len(encoded):,} bytes, over the deck size limit of "
            f"{DEFAULT_MAX_BYTES:,}; nothing written"
        )
        return EXIT_PROBLEM
    deck, problems = load_text(text, str(output), strict=True)
    errors = [p for p in problems if p.severity == "error"]
    if deck is None or errors:
        for problem in errors:
            print(problem, file=sys.stderr)
        err(f"the imported deck would not validate; nothing written to {output}")
        return EXIT_PROBLEM
    if not write_file(output, encoded, force):
        return EXIT_PROBLEM
    skipped = imported.skipped
    print(
        printable(
            f"Wrote {output}: {len(deck.terms)} terms from {source}"
            + (f"; {skipped} row{'s' * (skipped != 1)} skipped (listed above)" if skipped else "")
            + "."
        )
    )
    place_schema(output)
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
    """Write a deck's terms (a deck id or a deck file) as CSV or TSV with Anki's header lines,
    as Quizlet's TSV (no header), or as an Anki package."""
    from vocabgame.interchange import ExportError, apkg_bytes, table_text

    fmt = fmt or EXPORT_FORMATS.get(output.suffix.lower())
    if fmt is None:
        err(f"{output}: say which format with --format csv, tsv, {QUIZLET} or apkg")
        return EXIT_USAGE
    if no_header and fmt == "apkg":
        err("--no-header is for csv and tsv, not apkg")
        return EXIT_USAGE
    if output.exists() and not force:
        err(f"{output}: already exists; pass --force to replace it")
        return EXIT_PROBLEM
    deck = deck_for_export(target, folders)
    if deck is None:
        return EXIT_PROBLEM
    try:
        if fmt == "apkg":
            import time

            data = apkg_bytes(deck, time.time())
        else:
            separator = "," if fmt == "csv" else "\t"
            header = not no_header and fmt != QUIZLET
            data = table_text(deck, separator, header=header).encode("utf-8")
    except ExportError as exc:
        err(str(exc))
        return EXIT_PROBLEM
    if not write_file(output, data, force):
        return EXIT_PROBLEM
    others = {s: len(items) for s, items in deck.sections.items() if s != "terms" and items}
    left = ", ".join(f"{n} {s}" for s, n in others.items())
    print(
        printable(
            f"Wrote {output}: {len(deck.terms)} terms of deck {deck.id!r}"
            + (f" (not exported: {left})." if left else ".")
        )
    )
    if fmt in ("csv", "tsv") and not no_header:
        print(f"It starts with Anki's # header lines; for Quizlet, export with --format {QUIZLET}.")
    return EXIT_OK


def deck_for_export(target: str, folders: list[Path]) -> Deck | None:
    """The deck a file path or an id names, or None after saying why there is none."""
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
        err(f"no deck with id {target!r} and no such file; known decks: {known}")
    return deck
