"""Validated decks kept as JSON between runs (vocabgame/deck/cache.py): the same decks come
back, a changed file is read afresh, a bad entry is ignored, and nothing in an entry runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from vocabgame.deck import cache as cache_module
from vocabgame.deck import load as load_module
from vocabgame.deck import load_catalog
from vocabgame.deck.cache import DECK_CACHE, KEEP, DeckCache
from vocabgame.paths import builtin_decks_dir
from vocabgame.play import open_session


def _copy_builtin(tmp_path: Path) -> Path:
    folder = tmp_path / "decks"
    shutil.copytree(builtin_decks_dir(), folder)
    return folder


def _no_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> object:
        raise AssertionError("the deck was read and validated again")

    monkeypatch.setattr(load_module, "load_text", refuse)


def test_every_builtin_deck_comes_back_equal_without_being_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _copy_builtin(tmp_path)
    first = load_catalog([folder], cache=DeckCache(tmp_path / "cache"))
    assert first.decks and not first.problems
    kinds = {section for deck in first.decks for section, items in deck.sections.items() if items}
    assert {"terms", "confusables", "scenarios", "claims", "recall", "calculations"} <= kinds
    assert "lab_challenges" in kinds
    _no_reading(monkeypatch)
    again = load_catalog([folder], cache=DeckCache(tmp_path / "cache"))
    assert again.decks == first.decks
    for kept, read in zip(again.decks, first.decks, strict=True):
        # the same types all the way down: tuples stay tuples, mappings stay read-only
        assert type(kept.sections) is type(read.sections)
        for section, items in kept.sections.items():
            assert type(items) is tuple
            assert [type(i) for i in items] == [type(i) for i in read.sections[section]]


def test_a_saved_file_is_read_afresh(tmp_path: Path) -> None:
    folder = _copy_builtin(tmp_path)
    cache = tmp_path / "cache"
    load_catalog([folder], cache=DeckCache(cache))
    path = folder / "kv-cache.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("title:", "title: Edited", 1), encoding="utf-8")
    deck = load_catalog([folder], cache=DeckCache(cache)).get("kv-cache")
    assert deck is not None and deck.title.startswith("Edited")


def test_a_new_version_reads_every_file_afresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _copy_builtin(tmp_path)
    load_catalog([folder], cache=DeckCache(tmp_path / "cache"))
    monkeypatch.setattr(cache_module, "__version__", "99.0")
    calls = []
    real = load_module.load_text
    monkeypatch.setattr(load_module, "load_text", lambda *a, **k: calls.append(a) or real(*a, **k))
    load_catalog([folder], cache=DeckCache(tmp_path / "cache"))
    assert len(calls) == len(list(folder.glob("*.yaml")))


def test_a_deck_with_errors_is_never_kept(tmp_path: Path) -> None:
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "bad.yaml").write_text("deck: {id: bad, title: Bad}\nterms: [{id: x}]\n")
    for _ in range(2):
        catalog = load_catalog([folder], cache=DeckCache(tmp_path / "cache"))
        assert not catalog.decks and catalog.problems
    assert not list((tmp_path / "cache").glob("*.json"))


@pytest.mark.parametrize(
    "entry",
    [
        "not json at all {",
        json.dumps({"$": "os.system", "f": ["echo owned"]}),
        json.dumps({"$": "builtins.eval", "f": ["1+1"]}),
        json.dumps({"$": "vocabgame.model.Deck", "f": ["too few"]}),
        json.dumps([1, 2, 3]),
        "\udcff",
    ],
)
def test_a_damaged_or_foreign_entry_is_ignored(tmp_path: Path, entry: str) -> None:
    folder = _copy_builtin(tmp_path)
    cache = tmp_path / "cache"
    first = load_catalog([folder], cache=DeckCache(cache))
    for path in cache.glob("*.json"):
        path.write_bytes(entry.encode("utf-8", "surrogateescape"))
    again = load_catalog([folder], cache=DeckCache(cache))
    assert again.decks == first.decks and not again.problems
    # and each entry was written anew from the file
    assert all(p.read_text(encoding="utf-8").startswith('{"$"') for p in cache.glob("*.json"))


def test_a_folder_that_cannot_be_written_keeps_nothing_and_loads_all(tmp_path: Path) -> None:
    folder = _copy_builtin(tmp_path)
    blocked = tmp_path / "cache"
    blocked.write_text("a file where the folder would go")
    catalog = load_catalog([folder], cache=DeckCache(blocked))
    assert len(catalog.decks) == len(list(folder.glob("*.yaml"))) and not catalog.problems


def test_old_entries_are_let_go(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    for n in range(KEEP + 10):
        (cache / f"{n:064x}.json").write_text("{}")
    load_catalog([_copy_builtin(tmp_path)], cache=DeckCache(cache))
    assert len(list(cache.glob("*.json"))) == KEEP


def test_the_game_keeps_its_decks_in_the_data_folder(data_dir: Path) -> None:
    session = open_session(data_dir, [builtin_decks_dir()])
    session.close()
    kept = list((data_dir / DECK_CACHE).glob("*.json"))
    assert len(kept) == len(session.catalog.decks)
    reopened = open_session(data_dir, [builtin_decks_dir()])
    reopened.close()
    assert reopened.catalog.decks == session.catalog.decks


def test_decks_from_the_cache_load_neither_yaml_nor_the_reader_nor_the_lab(tmp_path: Path) -> None:
    """A start whose decks all come from the cache imports none of the deck reader: the YAML
    parser, the lint rules and the serving lab's model load only when they are needed."""
    import subprocess
    import sys

    body = f"""
import sys
from pathlib import Path
from vocabgame.play import open_session
session = open_session(Path({str(tmp_path / "data")!r}), [Path({str(builtin_decks_dir())!r})])
assert session.catalog.decks and not session.catalog.problems
session.home()
session.close()
loaded = sorted(m for m in sys.modules if m == "yaml" or m.startswith(
    ("yaml.", "vocabgame.reading.yamltree", "vocabgame.deck.lint", "vocabgame.deck.load",
     "vocabgame.lab.model", "vocabgame.lab.catalogue")))
print(" ".join(loaded))
"""

    def run() -> str:
        done = subprocess.run(
            [sys.executable, "-c", body], capture_output=True, text=True, timeout=60, check=False
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    first = run()  # reads every deck and keeps it
    assert "yaml" in first.split() and "vocabgame.deck.load" in first.split()
    assert run() == ""
