"""A fortnight of play on the small test deck (tests/data/ui), scripted so that every stats
figure can be worked out by hand:

- day 0: a learn round of the deck's 6 items (one question each), all right;
- days 1-7 and 9-13 (none on day 8): a practice round of the same 6 questions, all right;
- day 12, after its round: a practice round of one question, answered wrong: all six are due
  at the same moment, so it asks the first by id, the scenario (blank-reply), which lapses;
- day 13, after the round: two single-question drills of the misses kind (answers kept,
  schedule and rounds untouched): the true/false claim answered wrong, and TTFT's typed face
  answered "Time per output token";
- the scenario flagged with a note.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from vocabgame.model import FaceKey
from vocabgame.play import ModeId, Session

from .faults import answer_right

START = datetime(2026, 11, 16, 12, 0, tzinfo=UTC)
PLAYED = [*range(0, 8), *range(9, 14)]
END = START + timedelta(days=13, hours=1)  # the clock when the figures are read
CLAIM = FaceKey("serving", "tpot-includes-ttft", "claim")
TTFT_TYPED = FaceKey("serving", "ttft", "typed")
SCENARIO = FaceKey("serving", "blank-reply", "scenario")


def play_fortnight(session: Session, clock: object) -> None:
    """Play the fortnight through `session`, moving `clock` (a tests.ui.conftest.Clock)."""
    for day in PLAYED:
        clock.now = START + timedelta(days=day)  # type: ignore[attr-defined]
        mode = ModeId.LEARN if day == 0 else ModeId.PRACTICE
        round_ = session.start_round("serving", size=10, seed=day, mode=mode)
        assert round_ is not None and round_.mode == mode
        while round_.question() is not None:
            answer_right(round_)
            round_.advance()
        assert round_.finish().finished
        if day == 12:
            clock.now += timedelta(minutes=5)  # type: ignore[attr-defined]
            lapse = session.start_round("serving", size=1, seed=day, mode=ModeId.PRACTICE)
            assert lapse is not None and lapse.queue == [SCENARIO]
            question = lapse.question()
            assert question is not None
            lapse.answer_choice(
                next(i for i, c in enumerate(question.choices) if c.value != question.answer)
            )
            assert lapse.finish().finished
    clock.now = START + timedelta(days=13, minutes=30)  # type: ignore[attr-defined]
    claim = session.start_misses_round("serving", "drill", [CLAIM])
    assert claim is not None
    question = claim.question()
    assert question is not None
    claim.answer_choice(
        next(i for i, c in enumerate(question.choices) if c.value != question.answer)
    )
    claim.finish()
    typed = session.start_misses_round("serving", "drill", [TTFT_TYPED])
    assert typed is not None
    typed.answer_text("Time per output token")
    typed.finish()
    session.store.face_flags.add(
        SCENARIO, START + timedelta(days=13, minutes=40), "the choices leak it"
    )
    clock.now = END  # type: ignore[attr-defined]
