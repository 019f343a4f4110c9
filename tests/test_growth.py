"""What runs once per round or per screen does not decode every card: the results, the stats
screen, an interview's plan and a cram round's plan decode the same number of cards (none, or
a round's worth) whether the player has answered 300 faces or four times as many."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fsrs import Card

from benchmarks import big
from vocabgame.deck import Catalog, load_text
from vocabgame.kinds import build_question, grade_typed
from vocabgame.model import FaceKey
from vocabgame.play import Session
from vocabgame.quiz import Kind
from vocabgame.store import DB_NAME, Store


def _finish_a_round(session: Session) -> Callable[[], object]:
    """A round played to its last answer; the work timed is its finish (the results)."""
    round_ = session.start_round(None, size=3, seed=1)
    assert round_ is not None
    while (question := round_.question()) is not None:
        if question.kind == Kind.CHOICE:
            round_.answer_choice(0)
        elif question.kind == Kind.RECALL:
            round_.answer_recall(3)
        else:
            round_.answer_text("nope")
        round_.advance()
    return round_.finish


PATHS: dict[str, Callable[[Session], Callable[[], object]]] = {
    "results": _finish_a_round,
    "stats screen": lambda s: s.insights,
    "interview plan": lambda s: lambda: s.plan(None, 10, "interview"),
    "cram plan": lambda s: lambda: s.plan(None, 20, "cram"),
}


@pytest.fixture
def decodes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many cards were decoded from their JSON (every decode goes through fsrs's
    `Card.from_json`), counted in `decodes[0]` from the moment the test resets it."""
    count = [0]
    original = Card.from_json

    def counted(text: str) -> Any:
        count[0] += 1
        return original(text)

    monkeypatch.setattr(Card, "from_json", staticmethod(counted))
    yield count


def _session(tmp_path: Path, items: int) -> Session:
    deck, problems = load_text(big.deck_text(items), "big.yaml")
    assert deck is not None, problems
    data = tmp_path / f"data-{items}"
    big.write_store(data, big.generated_faces(items), items * 6)
    return Session(Store.open(data / DB_NAME), Catalog((deck,), ()), clock=lambda: big.NOW)


@pytest.mark.parametrize("path", PATHS)
def test_a_rounds_and_a_screens_work_decodes_no_more_cards_for_a_longer_history(
    tmp_path: Path, decodes: list[int], path: str
) -> None:
    counted = []
    for items in (100, 400):  # 300 and 1,200 faces, every one answered
        session = _session(tmp_path, items)
        try:
            work = PATHS[path](session)
            decodes[0] = 0
            work()
            counted.append(decodes[0])
        finally:
            session.close()
    small, large = counted
    assert large <= max(small, 20), (path, counted)  # a round's worth at most, not every card


async def test_the_browse_screen_makes_no_more_entries_for_a_bigger_deck(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vocabgame.play import glossary
    from vocabgame.ui.app import VocabApp
    from vocabgame.ui.screens.browse import PAGE, BrowseScreen

    made = [0]
    term_entry = glossary._term_entry

    def counted(deck: Any, term: Any) -> Any:
        made[0] += 1
        return term_entry(deck, term)

    monkeypatch.setattr(glossary, "_term_entry", counted)
    counts = []
    for items in (PAGE + 50, PAGE * 4):  # a page and a bit, then four
        deck, problems = load_text(big.deck_text(items), "big.yaml")
        assert deck is not None, problems
        store = Store.open(tmp_path / f"data-{items}" / DB_NAME)
        session = Session(store, Catalog((deck,), ()), clock=lambda: big.NOW)
        app = VocabApp(session, seed=1, settle_seconds=0)
        try:
            async with app.run_test(size=(100, 30)) as pilot:
                made[0] = 0
                await pilot.press("b")
                await pilot.pause()
                assert isinstance(app.screen, BrowseScreen)
                counts.append(made[0])
        finally:
            session.close()
    assert counts[1] <= counts[0] <= PAGE + 50, counts  # a page (and the next), not the deck


class _Counted:
    """A connection that counts the rows its queries hand to Python."""

    def __init__(self, conn: Any) -> None:
        self.conn, self.rows = conn, 0

    def execute(self, *args: Any) -> Any:
        return _CountedCursor(self, self.conn.execute(*args))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)


class _CountedCursor:
    def __init__(self, owner: _Counted, cursor: Any) -> None:
        self.owner, self.cursor = owner, cursor

    def __iter__(self) -> Iterator[Any]:
        for row in self.cursor:
            self.owner.rows += 1
            yield row

    def _count(self, rows: Any) -> Any:
        self.owner.rows += len(rows)
        return rows

    def fetchall(self) -> Any:
        return self._count(self.cursor.fetchall())

    def fetchmany(self, size: int) -> Any:
        return self._count(self.cursor.fetchmany(size))

    def fetchone(self) -> Any:
        row = self.cursor.fetchone()
        self.owner.rows += row is not None
        return row

    def __getattr__(self, name: str) -> Any:
        return getattr(self.cursor, name)


@pytest.mark.parametrize("path", ["interview plan", "cram plan"])
def test_a_plan_reads_no_more_rows_from_the_store_for_more_faces(tmp_path: Path, path: str) -> None:
    """An interview's or a cram round's plan reads a page of the cards ordered by recall,
    not a row per face (the faces with a schedule, the whole order), so the rows it reads
    stay the same at four times the faces, every one answered."""
    counted = []
    for items in (300, 1200):  # 900 and 3,600 faces: past the first page of the order
        session = _session(tmp_path, items)
        try:
            work = PATHS[path](session)
            work()  # the deck's own kept shapes, made once per deck object
            rows = _Counted(session.store.conn)
            session.store.conn = rows  # type: ignore[assignment]
            work()
            session.store.conn = rows.conn
            counted.append(rows.rows)
        finally:
            session.close()
    small, large = counted
    assert large <= small + 20, (path, counted)


@pytest.mark.parametrize("answered", ["all but a few", "a few"])
def test_an_interview_planned_by_the_store_asks_what_the_plan_from_every_card_asks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answered: str
) -> None:
    """The store's interview plan (the items short of a face read in pages of the deck's
    order, the cards ordered a page at a time) is the plan made from every card: new faces
    first in the deck's order, then the least remembered."""
    from vocabgame.play.modes import MODES
    from vocabgame.store import schedules

    monkeypatch.setattr(schedules, "_FIRST_PAGE", 4)
    monkeypatch.setattr(schedules, "_LAST_PAGE", 16)
    items = 120
    deck, problems = load_text(big.deck_text(items), "big.yaml")
    assert deck is not None, problems
    faces = big.generated_faces(items)
    keep = (lambda n: n % 37 != 5) if answered == "all but a few" else (lambda n: n % 9 == 0)
    data = tmp_path / "data"
    big.write_store(data, [f for n, f in enumerate(faces) if keep(n)], items * 4)
    session = Session(Store.open(data / DB_NAME), Catalog((deck,), ()), clock=lambda: big.NOW)
    try:
        mode = MODES["interview"]
        ctx = session._context([deck], 60)
        by_store = mode.plan(ctx)
        ctx.store = ctx.curve = None
        assert by_store == mode.plan(ctx)
        assert len(by_store) == 60
    finally:
        session.close()


def test_the_game_imports_no_figures_calibration_or_openssl_before_its_first_screen() -> None:
    """What a game process (a browser tab) imports to open: the commands, the session and the
    app, but not the stats screen's figures, the interview's calibration, `statistics` or
    hashlib (OpenSSL's digests), which wait for the screens that use them."""
    import subprocess
    import sys

    deferred = ["vocabgame.insights", "vocabgame.calibration", "statistics", "_hashlib"]
    code = (
        "import sys, vocabgame.cli, vocabgame.play, vocabgame.ui.app, vocabgame.deck.load;"
        f"print([m for m in {deferred!r} if m in sys.modules])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]", done.stdout


@pytest.mark.parametrize("times", [[], [700], [900, 300], [5, 1, 9, 3, 200], [4, 4, 6, 2]])
def test_the_answer_time_for_a_round_s_minutes_is_statistics_median(times: list[int]) -> None:
    import statistics

    from vocabgame.play.home import DEFAULT_SECONDS_PER_QUESTION, seconds_per_question

    expected = statistics.median(times) / 1000 if times else DEFAULT_SECONDS_PER_QUESTION
    assert seconds_per_question(times) == expected


@pytest.mark.parametrize("items", [300, 1200])
def test_a_wrong_typed_answer_normalises_no_more_names_for_a_bigger_deck(
    items: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whether a wrong typed answer names another term is looked up among the deck's names,
    normalised once per loaded deck, not by normalising every name at each answer."""
    from vocabgame.kinds import term as term_kind
    from vocabgame.quiz.text import normalise

    deck, problems = load_text(big.deck_text(items), "big.yaml")
    assert deck is not None, problems
    calls: list[str] = []

    def counted(text: str) -> str:
        calls.append(text)
        return normalise(text)

    monkeypatch.setattr(term_kind, "normalise", counted)
    asked, other = deck.terms[0], deck.terms[-1]
    question = build_question(deck, FaceKey(deck.id, asked.id, "typed"), random.Random(1))
    grade_typed(deck, question, "not a term at all")  # the names read once
    calls.clear()
    grade = grade_typed(deck, question, other.term)
    assert grade.correct is False and grade.distinction is not None  # the other term, named
    assert len(calls) < 20  # the answer and the asked term's names, whatever the deck's size
