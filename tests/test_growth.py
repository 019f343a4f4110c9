"""What runs once per round or per screen does not decode every card: the results, the stats
screen, an interview's plan and a cram round's plan decode the same number of cards (none, or
a round's worth) whether the player has answered 300 faces or four times as many."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fsrs import Card

from benchmarks import big
from vocabgame.deck import Catalog, load_text
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
