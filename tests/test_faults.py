"""Fault injection: SQLite refuses the k-th statement of an answer, an undo, a round start, a
settings change, a flag and the end of a round, for every k and for each kind of refusal.

After each: the player gets the store's own one-sentence error (never a raw sqlite3 error),
the database holds exactly what it held before the refused action, passes
`PRAGMA integrity_check`, agrees with the round on screen, and the same action then
succeeds once the fault is gone."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from vocabgame.deck import load_catalog
from vocabgame.play import Round, Session
from vocabgame.quiz import Kind
from vocabgame.store import DB_NAME, Store, StoreError

from .conftest import DATA
from .faults import ERRORS, FaultyConnection, answer_right, contents, integrity, one_sentence

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
CATALOG = load_catalog([DATA / "ui"])


@dataclass
class Game:
    session: Session
    round: Round
    conn: FaultyConnection
    path: Path


def start(folder: Path) -> Game:
    """A session on a faulty connection, with a round of which two questions are answered."""
    path = folder / DB_NAME
    store = Store.open(path, factory=FaultyConnection)
    session = Session(store, CATALOG, clock=lambda: NOW, tz=UTC, fuzz=False)
    round_ = session.start_round("serving", size=6, seed=3)
    assert round_ is not None
    for _ in range(2):
        answer_right(round_)
        round_.advance()
    assert isinstance(store.conn, FaultyConnection)
    return Game(session, round_, store.conn, path)


def answer(game: Game) -> None:
    answer_right(game.round)


def undo(game: Game) -> None:
    assert game.round.undo() is not None


def start_round(game: Game) -> None:
    assert game.session.start_round(None, size=4, seed=5) is not None


def change_settings(game: Game) -> None:
    game.session.change_settings(game.session.settings.changed(round_size=12))


def flag(game: Game) -> None:
    game.round.flag("unclear")


def finish(game: Game) -> None:
    game.round.finish()


ACTIONS: dict[str, Callable[[Game], None]] = {
    "answer": answer,
    "undo": undo,
    "round start": start_round,
    "settings change": change_settings,
    "flag": flag,
    "end round": finish,
}


def statements_in(action: Callable[[Game], None], folder: Path) -> int:
    game = start(folder)
    try:
        game.conn.arm(None)
        action(game)
        return game.conn.statements
    finally:
        game.session.close()


def round_figures(game: Game) -> tuple[int, int, int, int, int, bool]:
    r = game.round
    return (r.answered, r.correct, r.score, r.streak, r.position, r.awaiting_next)


def cases() -> list[tuple[str, str]]:
    return [(action, error) for action in ACTIONS for error in ERRORS]


@pytest.mark.parametrize(("action", "error"), cases())
def test_every_statement_refused_leaves_one_sentence_and_the_store_as_it_was(
    tmp_path: Path, action: str, error: str
) -> None:
    run = ACTIONS[action]
    total = statements_in(run, tmp_path / "count")
    assert total >= 1
    for k in range(1, total + 1):
        game = start(tmp_path / f"k{k}")
        try:
            before, figures = contents(game.path), round_figures(game)
            settings = game.session.settings
            game.conn.arm(k, ERRORS[error])
            with pytest.raises(StoreError) as info:
                run(game)
            message = str(info.value)
            assert one_sentence(message), (k, message)
            assert str(game.path) in message, (k, message)
            assert not game.conn.in_transaction
            assert contents(game.path) == before, f"statement {k} of {action} left a change"
            assert integrity(game.path) == "ok"
            assert round_figures(game) == figures  # the round did not move without the store
            assert game.session.settings == settings
            reviews = game.session.store.answers.all()
            assert len(reviews) == game.round.answered  # nothing acknowledged was lost
            # The store is still usable: the same action now goes through.
            run(game)
            assert integrity(game.path) == "ok"
        finally:
            game.session.close()


def test_the_harness_counts_real_statements(tmp_path: Path) -> None:
    """An answer runs at least BEGIN, the card read, the review insert, the card write, the
    round totals and COMMIT: the loop above really walks through all of them."""
    assert statements_in(answer, tmp_path) >= 6
    assert statements_in(undo, tmp_path / "u") >= 4


def at_a_choice_between_terms(folder: Path) -> tuple[Game, int]:
    """A game whose question is a choice between two of the deck's terms, and the wrong one."""
    game = start(folder)
    while True:
        question = game.round.question()
        assert question is not None, "the round has no choice between terms"
        deck = CATALOG.get(question.key.deck_id)
        assert deck is not None
        wrong = [
            n
            for n, c in enumerate(question.choices)
            if c.value != question.answer and deck.term(c.value) is not None
        ]
        if question.kind == Kind.CHOICE and deck.term(question.answer) and wrong:
            return game, wrong[0]
        answer_right(game.round)
        game.round.advance()


def test_a_wrong_pick_and_its_confusion_are_kept_together_or_not_at_all(tmp_path: Path) -> None:
    """A term picked for another is an answer and a confusion of the two, in one transaction:
    a refused statement anywhere in it keeps neither, and the pick then goes through whole."""
    game, wrong = at_a_choice_between_terms(tmp_path / "count")
    try:
        game.conn.arm(None)
        game.round.answer_choice(wrong)
        total = game.conn.statements
        [confusion] = game.session.store.confusables.all()
        assert (
            confusion.review_id
            == game.session.store.conn.execute("SELECT MAX(id) FROM reviews").fetchone()[0]
        )
    finally:
        game.session.close()
    for k in range(1, total + 1):
        game, wrong = at_a_choice_between_terms(tmp_path / f"k{k}")
        try:
            before = contents(game.path)
            game.conn.arm(k, ERRORS["full"])
            with pytest.raises(StoreError):
                game.round.answer_choice(wrong)
            assert contents(game.path) == before, f"statement {k} left a change"
            assert game.session.store.confusables.all() == []
            game.round.answer_choice(wrong)
            assert len(game.session.store.confusables.all()) == 1
        finally:
            game.session.close()


@pytest.mark.parametrize("action", list(ACTIONS))
def test_a_refused_rollback_does_not_leave_the_store_stuck_in_a_transaction(
    tmp_path: Path, action: str
) -> None:
    """Every statement refused, and the ROLLBACK after it refused too: the connection is
    opened anew, so nothing of the action is kept and the next try goes through (before, every
    later write failed with "cannot start a transaction within a transaction")."""
    run = ACTIONS[action]
    total = statements_in(run, tmp_path / "count")
    for k in range(1, total + 1):
        game = start(tmp_path / f"k{k}")
        try:
            before, figures = contents(game.path), round_figures(game)
            game.conn.arm(k, ERRORS["locked"], rollbacks_fail=True)
            with pytest.raises(StoreError) as info:
                run(game)
            assert one_sentence(str(info.value)), (k, str(info.value))
            store = game.session.store
            assert not store.conn.in_transaction, f"statement {k} of {action}"
            assert contents(game.path) == before, f"statement {k} of {action} left a change"
            assert round_figures(game) == figures
            run(game)  # the store is usable at once, without a restart
            assert integrity(game.path) == "ok"
        finally:
            game.session.close()


@pytest.mark.parametrize("action", list(ACTIONS))
def test_a_begin_that_began_but_failed_is_rolled_back(tmp_path: Path, action: str) -> None:
    game = start(tmp_path)
    try:
        before = contents(game.path)
        game.conn.arm(None, ERRORS["io"], begin_fails_after=True)
        with pytest.raises(StoreError):
            ACTIONS[action](game)
        assert not game.session.store.conn.in_transaction
        assert contents(game.path) == before
        ACTIONS[action](game)
    finally:
        game.session.close()
