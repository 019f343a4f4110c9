"""Export: a deck's terms as CSV/TSV for Anki or Quizlet, or as an Anki package.

Only terms travel: each becomes one note with the term on the front and the definition on the
back. Anki's header lines (`#separator:`, `#html:false`, `#deck:`, `#tags:`, `#tags column:`)
tell Anki how to read the table; Quizlet wants the two columns alone (`header=False`).
A cell that starts like a spreadsheet formula gets a leading apostrophe (`neutralised`), so a
spreadsheet that opens the file shows it as text instead of running it.
"""

from __future__ import annotations

import csv
import hashlib
import io
import itertools
import json
import sqlite3
import tempfile
import zipfile
from html import escape
from pathlib import Path
from typing import Any

from vocabgame.interchange.table import neutralised
from vocabgame.model import Deck, Term

SEPARATOR_HEADER = {"\t": "tab", ",": "comma"}
ANKI_EXTRA = "anki"
# genanki wants ids in this range for models and decks.
_ID_LOW, _ID_SPAN = 1 << 30, 1 << 30

_CSS = """\
.card { font-family: sans-serif; font-size: 20px; text-align: left; }
.caveat, .example, .sources { margin-top: 0.8em; font-size: 16px; }
"""
_BACK = (
    '{{FrontSide}}<hr id="answer">{{Definition}}'
    '{{#Caveat}}<div class="caveat"><b>Caveat:</b> {{Caveat}}</div>{{/Caveat}}'
    '{{#Example}}<div class="example"><b>Example:</b> {{Example}}</div>{{/Example}}'
    '{{#Sources}}<div class="sources">{{Sources}}</div>{{/Sources}}'
)


class ExportError(Exception):
    """The deck cannot be exported; the message is one sentence for the author."""


class AnkiMissing(ExportError):
    """genanki, needed for .apkg, is not installed."""

    def __init__(self) -> None:
        super().__init__(
            "the apkg format needs the genanki package; install it with: "
            f"pip install 'vocabgame[{ANKI_EXTRA}]'"
        )


def _terms(deck: Deck) -> tuple[Term, ...]:
    if not deck.terms:
        raise ExportError(
            f"{deck.path}: deck {deck.id!r} has no terms; only terms are exported "
            "(one card each, term on the front, definition on the back)"
        )
    return deck.terms


def anki_tag(text: str) -> str:
    """A tag as Anki allows it: no spaces (Anki separates tags with them)."""
    return "_".join(text.split())


def table_text(deck: Deck, separator: str, header: bool = True) -> str:
    """The deck's terms as a two-column table. With `header`, Anki's header lines come first
    and a third column carries each term's tags; without, only the two columns with each
    card on one line, as Quizlet reads them (TSV without any quoting)."""
    out = io.StringIO(newline="")
    if header:
        out.write(f"#separator:{SEPARATOR_HEADER.get(separator, separator)}\n#html:false\n")
        out.write(f"#deck:{' '.join(deck.title.split())}\n")
        if deck.tags:
            out.write(f"#tags:{' '.join(anki_tag(t) for t in deck.tags)}\n")
        out.write("#tags column:3\n")
    writer = csv.writer(out, delimiter=separator, lineterminator="\n")
    for term in _terms(deck):
        if header:
            cells = [term.term, term.definition, " ".join(anki_tag(t) for t in term.tags)]
            writer.writerow([neutralised(c) for c in cells])
        elif separator == "\t":
            # Quizlet: one card per line, a tab between term and definition, no quoting.
            cells = [neutralised(" ".join(s.split())) for s in (term.term, term.definition)]
            out.write("\t".join(cells) + "\n")
        else:
            writer.writerow(
                [neutralised(" ".join(s.split())) for s in (term.term, term.definition)]
            )
    return out.getvalue()


def _stable_id(kind: str, deck_id: str) -> int:
    digest = hashlib.sha256(f"vocabgame {kind} {deck_id}".encode()).digest()
    return _ID_LOW + int.from_bytes(digest[:8], "big") % _ID_SPAN


def apkg_ids(deck_id: str) -> tuple[int, int]:
    """The Anki note type id and deck id of a vocabgame deck: the same on every export, so
    importing a newer export updates the notes instead of adding copies."""
    return _stable_id("model", deck_id), _stable_id("deck", deck_id)


def _html(text: str | None) -> str:
    return "" if text is None else escape(text).replace("\n", "<br>")


def apkg_bytes(deck: Deck, timestamp: float) -> bytes:
    """The deck's terms as an Anki package (.apkg): one note per term, its guid made from the
    deck id and item id, tagged with the deck's tags and the term's. `timestamp` (seconds since
    the epoch) dates the notes. Raises AnkiMissing without genanki."""
    try:
        import genanki
    except ImportError:
        raise AnkiMissing() from None
    terms = _terms(deck)
    model_id, anki_deck_id = apkg_ids(deck.id)
    model = genanki.Model(
        model_id,
        f"vocabgame term ({deck.id})",
        fields=[
            {"name": "Term"},
            {"name": "Definition"},
            {"name": "Caveat"},
            {"name": "Example"},
            {"name": "Sources"},
        ],
        templates=[{"name": "Term to definition", "qfmt": "{{Term}}", "afmt": _BACK}],
        css=_CSS,
    )
    anki_deck = genanki.Deck(anki_deck_id, deck.title, description=deck.description or "")
    deck_tags = [anki_tag(t) for t in deck.tags]
    for term in terms:
        sources = "<br>".join(
            f'<a href="{escape(s.url)}">{escape(s.title)}</a>'
            for key in term.sources
            if (s := deck.sources.get(key)) is not None
        )
        anki_deck.add_note(
            genanki.Note(
                model=model,
                fields=[
                    _html(term.term),
                    _html(term.definition),
                    _html(term.caveat),
                    _html(term.example),
                    sources,
                ],
                tags=list(dict.fromkeys([*deck_tags, *(anki_tag(t) for t in term.tags)])),
                guid=genanki.guid_for(deck.id, term.id),
            )
        )
    return _package(genanki.Package(anki_deck), timestamp)


def _package(package: Any, timestamp: float) -> bytes:
    """The .apkg bytes: the collection written into a SQLite file of our own temporary folder
    (genanki's write_to_file leaves its temporary file behind), zipped with an empty media map."""
    with tempfile.TemporaryDirectory(prefix="vocabgame-apkg-") as folder:
        db = Path(folder) / "collection.anki2"
        conn = sqlite3.connect(db)
        try:
            package.write_to_db(conn.cursor(), timestamp, itertools.count(int(timestamp * 1000)))
            conn.commit()
        finally:
            conn.close()
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            z.write(db, "collection.anki2")
            z.writestr("media", json.dumps({}))
        return out.getvalue()
