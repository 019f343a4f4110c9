"""Import: a two-column CSV or TSV (term, definition) into a deck.

Reads what Anki's "Notes in Plain Text" export and Quizlet's export write: an optional block of
Anki header lines (`#separator:Tab`, `#html:true`, `#tags column:3`, `#deck:Name` ...), then
one row per note, quoted the CSV way where a field holds the separator or a line break. HTML
is turned into plain text with the standard library's parser. Rows that cannot become a term
are skipped and reported with their line; a file with nothing usable is refused whole.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser
from typing import Any

import yaml

from vocabgame.model import FORMAT_VERSION
from vocabgame.problems import DeckError, Problem
from vocabgame.reading.files import DEFAULT_MAX_BYTES

# Anki's names for separators in `#separator:`; any single other character stands for itself.
SEPARATOR_NAMES = {
    "tab": "\t",
    "comma": ",",
    "semicolon": ";",
    "pipe": "|",
    "space": " ",
    "colon": ":",
}
SNIFFED = "\t,;"
NAMES = {"\t": "tab", ",": "comma", ";": "semicolon", "|": "pipe", " ": "space", ":": "colon"}
# A first row made of these names is a header row, not a term.
FRONT_NAMES = frozenset({"term", "terms", "front", "word", "question", "expression", "prompt"})
BACK_NAMES = frozenset({"definition", "definitions", "back", "meaning", "answer", "description"})
MAX_ID_LENGTH = 60

# C0 and C1 controls (deck files may not hold them) and Unicode line separators.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")
_HEADER = re.compile(r"^#([A-Za-z][A-Za-z ]*):(.*)$")
# A cell a spreadsheet would run as a formula (OWASP's list: = + - @, tab and carriage
# return), after any apostrophes: export puts one more apostrophe in front, import takes it off.
FORMULA = re.compile("^'*[=+\\-@\t\r]")
_BLOCK_TAGS = frozenset(
    {"div", "p", "li", "tr", "ul", "ol", "table", "h1", "h2", "h3", "h4", "h5", "h6", "pre"}
)
_HTML_TAGS = frozenset({"br", "b", "i", "u", "span", "font", "sub", "sup", "img", "a", "em"})
_HTML_TAGS |= _BLOCK_TAGS | {"strong", "hr", "code", "td", "th", "blockquote"}


@dataclass(frozen=True, slots=True)
class ImportedTerm:
    term: str
    definition: str
    line: int
    tags: tuple[str, ...] = ()


@dataclass(slots=True)
class Imported:
    """What a table held: its terms, what was skipped or guessed (`notes`, as warnings with
    their line), and what the Anki header said about the whole deck."""

    path: str
    separator: str
    terms: list[ImportedTerm] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)
    deck_name: str | None = None
    deck_tags: tuple[str, ...] = ()
    header_row: int | None = None
    skipped: int = 0

    def note(self, line: int, message: str, skipped: bool = True) -> None:
        self.notes.append(Problem(self.path, message, line, None, severity="warning"))
        self.skipped += skipped


# -- text ------------------------------------------------------------------------------------


class _PlainText(HTMLParser):
    """The text of an HTML fragment: tags dropped, entities decoded, <br> and block ends as line
    breaks, script and style left out."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skip += 1
        elif tag == "br" or tag in _BLOCK_TAGS:
            self.parts.append("\n")
        elif tag in ("td", "th"):
            self.parts.append(" ")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br":
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skip = max(0, self.skip - 1)
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def html_to_text(fragment: str) -> str:
    """Plain text of an HTML fragment, as Anki stores fields."""
    parser = _PlainText()
    parser.feed(fragment)
    parser.close()
    return "".join(parser.parts)


class _TagFinder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found = self.found or tag in _HTML_TAGS

    def handle_endtag(self, tag: str) -> None:
        self.found = self.found or tag in _HTML_TAGS


def looks_like_html(text: str) -> bool:
    """True when the text has tags Anki's editor writes (<br>, <div>, <b> ...)."""
    finder = _TagFinder()
    finder.feed(text)
    finder.close()
    return finder.found or unescape(text) != text


def neutralised(text: str) -> str:
    """A cell that no spreadsheet runs as a formula: one that starts like one (or like one
    already neutralised) gets a leading apostrophe, which spreadsheets show as text."""
    return "'" + text if FORMULA.match(text) else text


def restored(text: str) -> str:
    """A cell as it was before `neutralised`: text stays text, never a formula."""
    return text[1:] if text.startswith("'") and FORMULA.match(text) else text


def clean(text: str, one_line: bool = False) -> str:
    """Text fit for a deck: no control characters, spaces collapsed, lines trimmed, empty lines
    dropped; with `one_line`, line breaks become spaces too."""
    text = _CONTROL.sub(" ", text.replace("\t", " ").replace("\xa0", " ").replace("\r\n", "\n"))
    lines = (" ".join(line.split()) for line in text.replace("\r", "\n").split("\n"))
    kept = [line for line in lines if line]
    return (" " if one_line else "\n").join(kept)


def slug(text: str) -> str:
    """A slug made from a term: 'Time to first token' -> 'time-to-first-token', 'Café' -> 'cafe'."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    out = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    return out[:MAX_ID_LENGTH].rstrip("-")


def unique_ids(terms: list[str], fallback: str = "term") -> list[str]:
    """One slug per term, unique: a repeat gets -2, -3 ...; a term with no Latin letter or digit
    gets the fallback."""
    used: set[str] = set()
    out = []
    for term in terms:
        base = slug(term) or fallback
        candidate, n = base, 1
        while candidate in used:
            n += 1
            candidate = f"{base}-{n}"
        used.add(candidate)
        out.append(candidate)
    return out


# -- reading the table -----------------------------------------------------------------------


def decode_table(data: bytes, shown: str, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """The file's text: UTF-8 (with or without a byte order mark), or UTF-16 with one, as
    spreadsheet programs save "Unicode text". Raises DeckError otherwise."""
    if len(data) > max_bytes:
        raise DeckError(
            [
                Problem(
                    shown,
                    f"file is {len(data):,} bytes, over the deck size limit of {max_bytes:,}",
                )
            ]
        )
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise DeckError([Problem(shown, "file is not readable UTF-16 text")]) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        raise DeckError(
            [
                Problem(
                    shown,
                    f"file is not UTF-8 text (byte 0x{data[exc.start]:02x}); "
                    "save or export it as UTF-8",
                    line,
                )
            ]
        ) from None
    return text.removeprefix("\ufeff")


def _sniff(sample: str, suffix: str) -> str:
    """The separator of a table without an Anki header: sniffed among tab, comma and
    semicolon (a tie goes to tab, the rarest inside text), else guessed from the extension."""
    sniffer = csv.Sniffer()
    sniffer.preferred = list(SNIFFED)
    try:
        return sniffer.sniff(sample, delimiters=SNIFFED).delimiter
    except csv.Error:
        pass
    if suffix == ".csv":
        return ","
    return "\t"


def _header_lines(text: str) -> Iterator[tuple[int, str, str, int]]:
    """The Anki header: (line, key, value, where the next line starts) for each leading
    `#key:value` line."""
    pos = 0
    line = 0
    while text.startswith("#", pos):
        end = text.find("\n", pos)
        end = len(text) if end == -1 else end + 1
        match = _HEADER.match(text[pos:end].rstrip("\r\n"))
        if match is None:
            return
        line += 1
        yield line, match.group(1).strip().lower(), match.group(2), end
        pos = end


def _error_at(shown: str, line: int, message: str) -> DeckError:
    return DeckError([Problem(shown, message, line)])


@dataclass(slots=True)
class _Header:
    """What Anki's "#key:value" lines at the top of an export say."""

    separator: str | None = None
    html: bool | None = None
    special: dict[str, int] = field(default_factory=dict)  # "#guid column:1" ..., 0-based
    deck_name: str | None = None
    deck_tags: tuple[str, ...] = ()
    lines: int = 0
    body_start: int = 0


def _read_header(text: str, shown: str) -> _Header:
    """The header lines of an Anki export; a separator or column that cannot be is an error
    at its line."""
    header = _Header()
    for line, key, value, end in _header_lines(text):
        header.lines, header.body_start = line, end
        if key == "separator":
            separator = SEPARATOR_NAMES.get(value.strip().lower(), value.strip())
            if len(separator) != 1 or separator in '\r\n"':
                raise _error_at(
                    shown,
                    line,
                    f"#separator:{value.strip()} is not a separator; use Tab, Comma, "
                    "Semicolon, Pipe or a single character",
                )
            header.separator = separator
        elif key == "html":
            header.html = value.strip().lower() in ("true", "yes", "1")
        elif key.endswith(" column"):
            number = value.strip()
            if not number.isdigit() or int(number) < 1:
                raise _error_at(
                    shown, line, f"#{key} should be a column number from 1, not {number!r}"
                )
            header.special[key.removesuffix(" column")] = int(number) - 1
        elif key == "deck":
            header.deck_name = value.strip() or None
        elif key == "tags":
            header.deck_tags = tuple(dict.fromkeys(value.split()))
        # notetype, columns, if matches, match scope ...: nothing a deck keeps
    return header


def read_table(
    data: bytes, shown: str, suffix: str = "", max_bytes: int = DEFAULT_MAX_BYTES
) -> Imported:
    """The terms of a two-column table. `shown` names the file in messages and `suffix` is its
    extension (a last resort for the separator). Raises DeckError when nothing can be imported:
    not text, too big, no rows, or one column only."""
    text = decode_table(data, shown, max_bytes)
    if "\x00" in text:
        raise DeckError([Problem(shown, "file contains a NUL character; it is not a text file")])
    header = _read_header(text, shown)
    separator, html, special = header.separator, header.html, header.special
    deck_name, deck_tags = header.deck_name, header.deck_tags
    header_lines, body_start = header.lines, header.body_start
    body = text[body_start:]
    if not body.strip():
        raise DeckError(
            [Problem(shown, "has no rows; expected one term and its definition per line")]
        )
    if separator is None:
        separator = _sniff(body[:65536], suffix.lower())
    sep_name = NAMES.get(separator, repr(separator))
    result = Imported(shown, separator, deck_name=deck_name, deck_tags=deck_tags)

    rows = _read_rows(body, separator, header_lines, shown)
    filled = _filled_rows(rows, sep_name, shown)
    term_col, definition_col = [i for i in range(len(special) + 2) if i not in special.values()][:2]
    tags_col, deck_col = special.get("tags"), special.get("deck")
    decks_seen: set[str] = set()
    if html is None:  # no "#html:" line: HTML only if the text has Anki's tags or entities
        html = any(looks_like_html(cell) for row in filled[:200] for cell in row)

    def cell(row: list[str], index: int, one_line: bool = False) -> str:
        raw = row[index] if index < len(row) else ""
        return restored(clean(html_to_text(raw) if html else raw, one_line))

    first: dict[str, int] = {}
    told_extra = seen_row = False
    for line, row in rows:
        if not any(c.strip() for c in row):
            result.note(line, "empty row; skipped")
            continue
        term, definition = cell(row, term_col, one_line=True), cell(row, definition_col)
        if not seen_row and _is_header(term, definition):
            result.header_row = line
            seen_row = True
            continue
        seen_row = True
        if len(row) == 1:
            result.note(line, f"only one column (no {sep_name}); skipped")
            continue
        if len(row) > len(special) + 2 and not told_extra:
            told_extra = True
            result.note(
                line,
                f"{len(row)} columns; only term and definition are read, "
                "here and in every later row",
                skipped=False,
            )
        skipped = _skip_reason(term, definition, first)
        if skipped is not None:
            result.note(line, skipped)
            continue
        first[term.casefold()] = line
        tags: tuple[str, ...] = ()
        if tags_col is not None and tags_col < len(row):
            tags = tuple(dict.fromkeys(cell(row, tags_col, one_line=True).split()))
        result.terms.append(ImportedTerm(term, definition, line, tags))
        if deck_col is not None:
            decks_seen.add(cell(row, deck_col, one_line=True))

    return _finished(result, decks_seen)


def _filled_rows(rows: list[tuple[int, list[str]]], sep_name: str, shown: str) -> list[list[str]]:
    """The rows that hold anything; a table whose every such row has one column is an error."""
    filled = [row for _, row in rows if any(c.strip() for c in row)]
    if filled and all(len(row) < 2 for row in filled):
        raise DeckError(
            [
                Problem(
                    shown,
                    f"every row has one column (no {sep_name} between term and definition); "
                    "give a table with two columns: term, definition",
                )
            ]
        )
    return filled


def _finished(result: Imported, decks_seen: set[str]) -> Imported:
    """The import, with the deck's name from a "#deck column:" naming one deck for all rows;
    an error when no row had both a term and a definition."""
    if result.deck_name is None and len(decks_seen) == 1:
        result.deck_name = decks_seen.pop() or None
    if not result.terms:
        raise DeckError(
            [
                *result.notes,
                Problem(
                    result.path, "has no row with both a term and a definition; nothing to import"
                ),
            ]
        )
    return result


def _read_rows(body: str, separator: str, offset: int, shown: str) -> list[tuple[int, list[str]]]:
    """The rows of the table, read the CSV way, or as plain lines where the quoting is not
    CSV's (`"Hi" means hello`: Quizlet writes fields as they are, one row per line)."""
    try:
        return _rows(body, separator, offset, quoted=True)
    except csv.Error:
        try:
            return _rows(body, separator, offset, quoted=False)
        except csv.Error as exc:  # a field over the csv module's size limit
            raise DeckError([Problem(shown, f"cannot read this file as a table: {exc}")]) from None


def _skip_reason(term: str, definition: str, first: dict[str, int]) -> str | None:
    """Why a row with two columns is skipped (no term, no definition, a term given before),
    or None to keep it."""
    if not term:
        return "row has a definition but no term; skipped"
    if not definition:
        return f"term {term!r} has no definition; skipped"
    if term.casefold() in first:
        return f"duplicate term {term!r} (first at line {first[term.casefold()]}); skipped"
    return None


def _rows(body: str, separator: str, offset: int, quoted: bool) -> list[tuple[int, list[str]]]:
    """Each row with the line it starts on (a quoted field may span lines). With `quoted`,
    fields are read the CSV way and bad quoting raises csv.Error; without, quotes are text."""
    reader = csv.reader(
        io.StringIO(body, newline=""),
        delimiter=separator,
        strict=quoted,
        quoting=csv.QUOTE_MINIMAL if quoted else csv.QUOTE_NONE,
    )
    rows: list[tuple[int, list[str]]] = []
    start = 1
    for row in reader:
        rows.append((offset + start, row))
        start = reader.line_num + 1
    return rows


def _is_header(term: str, definition: str) -> bool:
    return term.casefold() in FRONT_NAMES and definition.casefold() in BACK_NAMES


# -- writing the deck ------------------------------------------------------------------------


class _Dumper(yaml.SafeDumper):
    """PyYAML's safe dumper, with list items indented under their key and text with line
    breaks written as a literal block."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)


# Text that YAML 1.2 (editors) reads as a number though PyYAML's YAML 1.1 reads it as text.
_YAML12_NUMBER = re.compile(
    r"^([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+"
    r"|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN))$"
)


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value else ("'" if _YAML12_NUMBER.match(value) else None)
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _represent_str)


def deck_yaml(
    imported: Imported,
    deck_id: str,
    title: str,
    source_name: str,
    schema_ref: str | None = None,
) -> str:
    """The deck file's text: a comment saying where it came from and what to add, then the deck,
    written by PyYAML's safe dumper so any text survives."""
    ids = unique_ids([t.term for t in imported.terms])
    terms: list[dict[str, Any]] = []
    for item_id, t in zip(ids, imported.terms, strict=True):
        entry: dict[str, Any] = {"id": item_id, "term": t.term, "definition": t.definition}
        if t.tags:
            entry["tags"] = list(t.tags)
        terms.append(entry)
    deck: dict[str, Any] = {"format": FORMAT_VERSION, "id": deck_id, "title": title}
    if imported.deck_tags:
        deck["tags"] = list(imported.deck_tags)
    deck["terms"] = terms
    source_line = " ".join(source_name.split())
    head = [f"# yaml-language-server: $schema={schema_ref}"] if schema_ref else []
    head += [
        f"# Imported by vocabgame from {source_line}: {len(terms)} terms with their definitions.",
        "# Next: add the deck's `sources` and cite them from each term (`sources: [key]`), and a",
        "# `caveat` or `example` where a term has a trap; `vocabgame validate --strict` lists what",
        "# is still missing. Ids were made from the terms; keep them once players have progress.",
    ]
    body = yaml.dump(
        deck,
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=100,
    )
    return "\n".join(head) + "\n" + body
