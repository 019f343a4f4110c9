"""A Hypothesis state machine plays at random: answer, move on, undo, flag, end a round,
another vocabgame holding the write lock, closing and reopening the game, time passing. After
every step the round and the store must agree, and every card must be its history replayed."""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from vocabgame.deck import load_catalog
from vocabgame.play import Round, Session
from vocabgame.quiz import Kind
from vocabgame.store import DB_NAME, Store, StoreLocked

from .conftest import DATA
from .faults import integrity, items_problems, replay_problems

CATALOG = load_catalog([DATA / "ui"])
START = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


class Play(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="vocabgame-stateful-"))
        self.path = self.folder / DB_NAME
        self.now = START
        self.locker: sqlite3.Connection | None = None
        self.session = self._open()
        self.round: Round | None = None
        self.flagged: set[object] = set()  # the faces flagged: one flag each

    def _open(self) -> Session:
        # A short busy timeout: a held lock is reported at once instead of after 2 s.
        store = Store.open(self.path, timeout=0.01)
        return Session(store, CATALOG, clock=lambda: self.now, tz=UTC, fuzz=True)

    def teardown(self) -> None:
        self.session.close()
        if self.locker is not None:
            self.locker.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def _figures(self) -> tuple[int, int, int, int, bool] | None:
        r = self.round
        return None if r is None else (r.answered, r.score, r.streak, r.position, r.awaiting_next)

    # -- rules ------------------------------------------------------------------------------

    @precondition(lambda self: self.round is None or self.round.ended)
    @rule(deck=st.sampled_from(["serving", None]), seed=st.integers(0, 3))
    def start_round(self, deck: str | None, seed: int) -> None:
        try:
            self.round = self.session.start_round(deck, size=5, seed=seed)
        except StoreLocked:
            assert self.locker is not None

    @precondition(
        lambda self: (
            self.round is not None and not self.round.ended and not self.round.awaiting_next
        )
    )
    @rule(right=st.booleans())
    def answer(self, right: bool) -> None:
        assert self.round is not None
        question = self.round.question()
        if question is None:
            return
        before = self._figures()
        try:
            if question.kind == Kind.CHOICE:
                pick = next(
                    i
                    for i, c in enumerate(question.choices)
                    if (c.value == question.answer) == right
                )
                self.round.answer_choice(pick)
            elif question.kind == Kind.RECALL:
                self.round.answer_recall(3 if right else 1)
            else:
                self.round.answer_text(question.answer if right else "99999")
        except StoreLocked:
            assert self.locker is not None
            assert self._figures() == before  # refused: the round did not move

    @precondition(lambda self: self.round is not None and self.round.awaiting_next)
    @rule()
    def next_question(self) -> None:
        assert self.round is not None
        self.round.advance()

    @precondition(lambda self: self.round is not None and self.round.can_undo())
    @rule()
    def undo(self) -> None:
        assert self.round is not None
        before = self._figures()
        try:
            self.round.undo()
        except StoreLocked:
            assert self.locker is not None
            assert self._figures() == before

    @precondition(lambda self: self.round is not None and not self.round.ended)
    @rule()
    def flag(self) -> None:
        assert self.round is not None
        try:
            key = self.round.flag("unclear")
            self.flagged.add(key)
        except StoreLocked:
            assert self.locker is not None

    @precondition(lambda self: self.round is not None and not self.round.ended)
    @rule()
    def toggle_flag(self) -> None:
        assert self.round is not None
        try:
            toggled = self.round.toggle_flag()
        except StoreLocked:
            assert self.locker is not None
            return
        assert toggled is not None
        key, flagged = toggled
        assert flagged == (key not in self.flagged)
        (self.flagged.add if flagged else self.flagged.discard)(key)

    @precondition(lambda self: self.round is not None and self.round.can_override())
    @rule()
    def i_was_right(self) -> None:
        assert self.round is not None
        before = self._figures()
        try:
            outcome = self.round.override()
        except StoreLocked:
            assert self.locker is not None
            assert self._figures() == before  # refused: the round did not move
            return
        assert outcome is not None and outcome.grade.correct and outcome.overridden

    @precondition(lambda self: self.round is not None and not self.round.ended)
    @rule()
    def end_round(self) -> None:
        assert self.round is not None
        try:
            self.round.finish()
        except StoreLocked:
            assert self.locker is not None
            assert not self.round.ended

    @precondition(lambda self: self.locker is None)
    @rule()
    def another_vocabgame_takes_the_lock(self) -> None:
        self.locker = sqlite3.connect(self.path, isolation_level=None)
        self.locker.execute("BEGIN IMMEDIATE")

    @precondition(lambda self: self.locker is not None)
    @rule()
    def the_other_vocabgame_lets_go(self) -> None:
        assert self.locker is not None
        self.locker.execute("ROLLBACK")
        self.locker.close()
        self.locker = None

    @precondition(lambda self: self.locker is None)
    @rule()
    def quit_and_reopen(self) -> None:
        self.session.close()
        self.session = self._open()
        self.round = None  # the old round stays in the store, unfinished

    @rule(minutes=st.integers(1, 3 * 24 * 60))
    def time_passes(self, minutes: int) -> None:
        self.now += timedelta(minutes=minutes)

    # -- what must hold after every step -----------------------------------------------------

    @invariant()
    def the_round_and_the_store_agree(self) -> None:
        store = self.session.store
        if self.round is not None and self.round.round_id is not None:
            rows = store.conn.execute(
                "SELECT COUNT(*), COALESCE(SUM(correct), 0), COALESCE(SUM(points), 0)"
                " FROM reviews WHERE round_id = ?",
                (self.round.round_id,),
            ).fetchone()
            assert tuple(rows) == (self.round.answered, self.round.correct, self.round.score)
            [stored] = [r for r in store.scoreboard.all() if r.id == self.round.round_id]
            assert (stored.questions, stored.correct, stored.score) == (
                self.round.answered,
                self.round.correct,
                self.round.score,
            )
        # Every round's stored question count is the number of its reviews.
        for questions, reviews in store.conn.execute(
            "SELECT questions, (SELECT COUNT(*) FROM reviews WHERE round_id = rounds.id)"
            " FROM rounds"
        ):
            assert questions == reviews
        assert {key for key, _, _ in store.face_flags.all()} == self.flagged

    @invariant()
    def every_card_is_its_history_replayed(self) -> None:
        if self.locker is None:
            assert replay_problems(self.path, self.session.srs) == []
            assert items_problems(self.path) == []  # the per-item summary follows every write


Play.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_play_in_any_order_keeps_round_and_store_in_agreement = Play.TestCase


def test_the_store_passes_integrity_after_a_long_random_game() -> None:
    """One fixed long run, to leave a database behind and check it as a whole."""
    machine = Play()
    try:
        for n in range(80):
            playing = machine.round is not None and not machine.round.ended
            if playing and machine.round.question() is None:
                machine.end_round()  # every question answered (question() is None then)
            if machine.round is None or machine.round.ended:
                machine.time_passes(24 * 60)
                machine.start_round("serving", n % 4)
            elif machine.round.awaiting_next:
                machine.next_question()
            else:
                machine.answer(n % 3 != 0)
            if n % 7 == 6 and machine.round is not None and machine.round.can_undo():
                machine.undo()
            machine.the_round_and_the_store_agree()
        assert integrity(machine.path) == "ok"
        assert replay_problems(machine.path, machine.session.srs) == []
        assert machine.session.store.answers.count() > 20
    finally:
        machine.teardown()
