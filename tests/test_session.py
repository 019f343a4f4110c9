"""Rounds, scheduling, scores and stats (vocabgame.session, vocabgame.stats), without a
terminal. Time comes from a clock the tests move by hand."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from fsrs import Card, Rating

from vocabgame import timefmt
from vocabgame.cli import render_stats
from vocabgame.deck import Catalog, load_deck, load_text
from vocabgame.kinds import item_faces
from vocabgame.model import Deck
from vocabgame.play import POINTS_RIGHT, STREAK_BONUS, Outcome, Round, Session
from vocabgame.quiz import FaceKey, Grade, Kind, Refused, format_number
from vocabgame.settings import Settings
from vocabgame.srs import Srs, load_card
from vocabgame.store import Review, Store

from .conftest import DATA

DEFAULT_NEW_PER_DAY, DEFAULT_ROUND_SIZE = Settings().new_per_day, Settings().round_size

START = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)

Now = list[datetime]


def claims_deck(n: int, deck_id: str = "facts") -> Deck:
    """A deck of n claims: one face per item, so rounds are easy to reason about."""
    lines = [f"format: 1\nid: {deck_id}\ntitle: Facts {deck_id}\nclaims:"]
    for i in range(n):
        lines.append(
            f"  - {{id: c{i:02d}, statement: Claim {i} holds., answer: {'true' if i % 2 else 'false'},"
            f" explanation: Because {i}.}}"
        )
    return parse("\n".join(lines))


def terms_deck(n: int, deck_id: str = "words", wording: str = "Meaning") -> Deck:
    lines = [f"format: 1\nid: {deck_id}\ntitle: Words\nterms:"]
    for i in range(n):
        lines.append(f"  - {{id: t{i:02d}, term: Word {i}, definition: {wording} number {i}.}}")
    return parse("\n".join(lines))


MIXED = """
format: 1
id: mixed
title: Mixed
terms:
  - {id: alpha, term: Alpha, definition: The first one.}
  - {id: beta, term: Beta, definition: The second one.}
  - {id: gamma, term: Gamma, definition: The third one.}
scenarios:
  - id: pick
    prompt: Which comes first?
    choices: [alpha, beta]
    answer: alpha
    explanation: Alphabet order.
claims:
  - {id: fact, statement: Beta follows alpha., answer: true, explanation: Alphabet order.}
recall:
  - {id: think, prompt: Recite the first three letters., answer: Alpha beta gamma.}
"""


def parse(text: str) -> Deck:
    deck, problems = load_text(text, "test.yaml")
    assert deck is not None, problems
    return deck


def make_session(tmp_path: Path, decks: list[Deck], now: Now, **settings: object) -> Session:
    store = Store.open(tmp_path / "vocabgame.db")
    for name, value in settings.items():
        store.preferences.set(name, value)
    return Session(store, Catalog(tuple(decks), ()), clock=lambda: now[0], tz=UTC, fuzz=False)


@pytest.fixture
def now() -> Now:
    return [START]


def answer(rnd: Round, right: bool, rating: int | None = None) -> Grade:
    """Answer the current question right or wrong, whatever its kind."""
    q = rnd.question()
    assert q is not None
    match q.kind:
        case Kind.CHOICE:
            index = next(i for i, c in enumerate(q.choices) if (c.value == q.answer) == right)
            return rnd.answer_choice(index).grade
        case Kind.TYPED:
            return rnd.answer_text(q.answer if right else "zzzzzz").grade  # type: ignore[union-attr]
        case Kind.NUMBER:
            assert q.expected is not None
            text = q.answer if right else format_number(q.expected * 10 + 100, q.unit)
            return rnd.answer_text(text).grade  # type: ignore[union-attr]
        case Kind.RECALL:
            return rnd.answer_recall(rating or (3 if right else 1)).grade
    raise AssertionError(q.kind)


def play(
    rnd: Round,
    right: Callable[[FaceKey, int], bool] = lambda key, n: True,
    step: timedelta = timedelta(seconds=2),
    now: Now | None = None,
) -> list[FaceKey]:
    """Play to the end; `right(key, n)` says whether the n-th asking of key (0-based) is
    answered right. Returns the faces in the order asked."""
    asked: list[FaceKey] = []
    q = rnd.question()
    while q is not None:
        if now is not None:
            now[0] += step
        answer(rnd, right(q.key, asked.count(q.key)))
        asked.append(q.key)
        q = rnd.advance()
    return asked


def items_of(keys: list[FaceKey]) -> list[tuple[str, str]]:
    return [(k.deck_id, k.item_id) for k in keys]


def record_review(session: Session, key: FaceKey, rating: int, at: datetime) -> Card:
    """Put a review in the store as a round would, at a chosen time."""
    review = Review(key, at, rating, rating > 1, 1000, "review", "x")

    def schedule(before: Card | None, new_id: int) -> Card:
        return session.srs.review(before or Card(card_id=new_id, due=at), rating, at)

    _, card = session.store.answers.record(review, schedule, None)
    assert card is not None
    return card


# -- composing rounds ---------------------------------------------------------------------------


def test_a_first_round_is_new_items_up_to_the_daily_limit(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [terms_deck(30)], now)
    assert session.new_per_day == DEFAULT_NEW_PER_DAY == 20
    assert session.round_size == DEFAULT_ROUND_SIZE == 20
    keys, mode = session.plan(None, session.round_size)
    assert mode == "review"
    assert len(keys) == 20
    assert len(set(items_of(keys))) == 20  # one face per item
    rnd = session.start_round()
    assert sorted(rnd.queue) == sorted(keys) and rnd.mode == "review"


def test_the_daily_new_limit_is_a_setting_and_counts_items_not_faces(
    tmp_path: Path, now: Now
) -> None:
    session = make_session(tmp_path, [claims_deck(10)], now, new_per_day=3)
    assert session.new_per_day == 3
    first = play(session.start_round())
    assert len(first) == 3
    now[0] += timedelta(hours=1)  # the new cards are due again (learning steps)
    keys, mode = session.plan(None, 20)
    assert sorted(keys) == sorted(first) and mode == "review"  # no new items left today
    assert session.new_left_today() == 0
    now[0] = START + timedelta(days=1)
    keys, _ = session.plan(None, 20)
    assert set(keys[:3]) == set(first)  # due first
    assert len(keys) == 6 and not set(keys[3:]) & set(first)  # then 3 new items


def test_new_faces_of_items_already_seen_do_not_count_against_the_limit(
    tmp_path: Path, now: Now
) -> None:
    session = make_session(tmp_path, [terms_deck(5)], now, new_per_day=2)
    first = play(session.start_round())
    assert len(first) == 2 and len(set(items_of(first))) == 2
    keys, mode = session.plan(None, 20)
    # the seen items' other faces (one per item), but no third item today
    assert mode == "review" and len(keys) == 2
    assert set(items_of(keys)) == set(items_of(first))
    assert not set(keys) & set(first)


def test_the_new_limit_is_per_deck_even_in_a_round_of_all_decks(tmp_path: Path, now: Now) -> None:
    a, b = claims_deck(10, "deck-a"), claims_deck(10, "deck-b")
    session = make_session(tmp_path, [a, b], now, new_per_day=3)
    first = play(session.start_round(None, size=20))
    per_deck = {d: sum(1 for k in first if k.deck_id == d) for d in ("deck-a", "deck-b")}
    assert per_deck == {"deck-a": 3, "deck-b": 3}  # each deck its own three, not 3 shared
    assert session.new_left_by_deck() == {"deck-a": 0, "deck-b": 0}
    session.learn_more_today("deck-b", 2)  # "learn more today", for one deck
    assert session.new_left_by_deck() == {"deck-a": 0, "deck-b": 2}
    keys, mode = session.plan(None, 20)
    assert mode == "review" and {k.deck_id for k in keys} == {"deck-b"} and len(keys) == 2
    [home_a, home_b] = [r for r in session.home().decks if r.id is not None]
    assert (home_a.limit_reached, home_b.limit_reached) == (True, False)
    assert (home_a.new, home_b.new) == (0, 2)  # questions: one face per claim
    now[0] += timedelta(days=1)  # the extra was for that day only
    assert session.extra_new_today() == {}
    assert session.new_left_by_deck() == {"deck-a": 3, "deck-b": 3}


def test_round_size_is_honoured(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [claims_deck(40)], now, new_per_day=100)
    assert len(session.start_round().queue) == 20
    assert len(session.start_round(size=7).queue) == 7
    session = make_session(tmp_path, [claims_deck(40)], now, round_size=5)
    assert len(session.start_round().queue) == 5


def test_due_faces_come_first_lowest_retrievability_first(tmp_path: Path, now: Now) -> None:
    deck = claims_deck(6)
    session = make_session(tmp_path, [deck], now)
    x, y, z = (FaceKey("facts", f"c0{i}", "claim") for i in range(3))
    # x: right at 9:00 (stable, due 9:10); y: wrong at 10:00 (fragile, due 10:01);
    # z: right at 11:00 (due 11:10)
    record_review(session, x, 3, START)
    record_review(session, y, 1, START + timedelta(hours=1))
    record_review(session, z, 3, START + timedelta(hours=2))
    now[0] = START + timedelta(days=3)
    cards = session.store.schedules.cards()
    r = {k: session.srs.retrievability(cards[k], now[0]) for k in (x, y, z)}
    assert cards[x].due < cards[y].due < cards[z].due  # due order differs from ...
    assert r[y] < r[x] < r[z]  # ... retrievability order
    keys, mode = session.plan(None, 20)
    assert mode == "review"
    assert keys[:3] == [y, x, z]
    assert set(keys[3:]) == {FaceKey("facts", f"c0{i}", "claim") for i in range(3, 6)}
    # a small round takes the due faces before any new one
    assert session.plan(None, 2)[0] == [y, x]
    rnd = session.start_round(size=4, seed=1)
    assert set(rnd.queue) >= {x, y, z}


def test_only_one_face_of_an_item_even_when_several_are_due(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [terms_deck(2)], now)
    a_def, a_term, a_typed = (FaceKey("words", "t00", f) for f in ("definition", "term", "typed"))
    record_review(session, a_def, 3, START)
    record_review(session, a_term, 1, START)
    record_review(session, a_typed, 3, START)
    now[0] = START + timedelta(days=2)
    keys, _ = session.plan(None, 20)
    assert [k for k in keys if k.item_id == "t00"] == [a_term]  # the least remembered
    assert len(keys) == 2 and keys[1].item_id == "t01"


def test_a_practice_round_when_nothing_is_due_or_new(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [claims_deck(3)], now)
    first = play(session.start_round())
    assert len(first) == 3
    keys, mode = session.plan(None, 20)
    assert mode == "practice" and sorted(keys) == sorted(first)
    rnd = session.start_round(size=2)
    assert rnd.mode == "practice" and len(rnd.queue) == 2
    play(rnd)
    reviews = session.store.answers.all()
    assert [r.mode for r in reviews] == ["review"] * 3 + ["practice"] * 2


def test_a_wrong_face_comes_back_later_never_twice_in_a_row(tmp_path: Path, now: Now) -> None:
    for seed in range(5):
        session = make_session(tmp_path / str(seed), [claims_deck(6)], now)
        rnd = session.start_round(seed=seed)
        first = rnd.queue[0]
        asked = play(rnd, right=lambda key, n, first=first: key != first or n > 0)
        assert asked.count(first) == 2
        assert asked.index(first) == 0 and asked.index(first, 1) > 1
        assert len(asked) == 7 and set(asked) == set(rnd.queue)
        session.close()


def test_every_face_answered_wrong_comes_back_once(tmp_path: Path, now: Now) -> None:
    for seed in range(5):
        session = make_session(tmp_path / str(seed), [parse(MIXED)], now)
        rnd = session.start_round(seed=seed)
        originals = list(rnd.queue)
        asked = play(rnd, right=lambda key, n: False)
        assert all(a != b for a, b in zip(asked, asked[1:], strict=False))
        # every face but the last one asked comes back once (the last has nothing after it)
        counts = {k: asked.count(k) for k in originals}
        assert set(counts.values()) <= {1, 2} and sum(counts.values()) == len(asked)
        once = [k for k, n in counts.items() if n == 1]
        assert len(once) <= 1
        if once:  # only a face asked last, with nothing after it, cannot come back
            assert asked[-1] == once[0]
        reviews = session.store.answers.all()
        assert len(reviews) == len(asked)
        assert all(r.rating == 1 and not r.correct for r in reviews)
        session.close()


# -- recording answers ------------------------------------------------------------------------


def test_each_answer_is_recorded_with_its_details(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [parse(MIXED)], now)
    rnd = session.start_round(seed=3)
    given: list[tuple[FaceKey, datetime, Grade, bool]] = []
    q = rnd.question()
    step = 0
    while q is not None:
        step += 1
        now[0] += timedelta(milliseconds=1500 + step)
        right = step % 2 == 1
        grade = answer(rnd, right)
        given.append((q.key, now[0], grade, right))
        now[0] += timedelta(seconds=30)  # reading the feedback does not count
        q = rnd.advance()
    reviews = session.store.answers.all()
    assert len(reviews) == len(given)
    for review, (key, at, grade, right) in zip(reviews, given, strict=True):
        assert review.key == key
        assert review.reviewed_at == at
        assert review.correct is right is grade.correct
        assert review.rating == grade.rating
        assert review.response_ms == 1500 + given.index((key, at, grade, right)) + 1
        assert review.mode == "review"
        assert review.answer == grade.given
    rows = session.store.conn.execute("SELECT DISTINCT round_id, deck_id FROM reviews").fetchall()
    assert rows == [(rnd.round_id, "mixed")]
    typed = [r for r in reviews if r.key.face == "typed"]
    assert all(r.answer in ("zzzzzz", "Alpha", "Beta", "Gamma") for r in typed)


def test_response_time_is_measured_from_when_the_question_was_shown(
    tmp_path: Path, now: Now
) -> None:
    session = make_session(tmp_path, [claims_deck(2)], now)
    rnd = session.start_round()
    now[0] += timedelta(minutes=5)  # the round opened long before the question is shown
    rnd.question()
    now[0] += timedelta(seconds=2, milliseconds=250)
    answer(rnd, True)
    now[0] += timedelta(seconds=40)
    rnd.advance()
    now[0] += timedelta(milliseconds=700)
    answer(rnd, False)
    assert [r.response_ms for r in session.store.answers.all()] == [2250, 700]


def test_wrong_is_again_right_is_good(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [claims_deck(2)], now)
    rnd = session.start_round(size=2)
    keys = list(rnd.queue)
    srs = Srs(fuzz=False)
    wrong = answer(rnd, False)
    card = session.store.schedules.card(keys[0])
    assert card is not None
    expected = srs.review(Card(card_id=card.card_id, due=now[0]), Rating.Again, now[0])
    assert card.to_dict() == expected.to_dict()
    assert wrong.rating == 1 and wrong.next_due == expected.due
    rnd.advance()
    now[0] += timedelta(seconds=5)
    right = answer(rnd, True)
    card = session.store.schedules.card(keys[1])
    assert card is not None
    expected = srs.review(Card(card_id=card.card_id, due=now[0]), Rating.Good, now[0])
    assert card.to_dict() == expected.to_dict()
    assert right.rating == 3 and right.next_due == expected.due
    assert [(r.rating, r.correct) for r in session.store.answers.all()] == [(1, False), (3, True)]


@pytest.mark.parametrize("rating", [1, 2, 3, 4])
def test_recall_uses_the_players_rating(tmp_path: Path, now: Now, rating: int) -> None:
    deck = parse(
        "format: 1\nid: r\ntitle: R\nrecall:\n"
        "  - {id: think, prompt: Think., answer: Thought.}\n"
        "  - {id: other, prompt: Other., answer: Other thought.}\n"
    )
    session = make_session(tmp_path, [deck], now)
    rnd = session.start_round(size=1)
    key = rnd.queue[0]
    grade = answer(rnd, True, rating=rating)
    (review,) = session.store.answers.all()
    assert (review.rating, review.correct) == (rating, rating > 1)
    card = session.store.schedules.card(key)
    assert card is not None
    expected = Srs(fuzz=False).review(Card(card_id=card.card_id, due=now[0]), rating, now[0])
    assert card.to_dict() == expected.to_dict()
    assert grade.next_due == expected.due


def test_a_right_face_is_due_later_and_comes_back_when_due(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [claims_deck(3)], now, new_per_day=1)
    rnd = session.start_round()
    (key,) = rnd.queue
    grade = answer(rnd, True)
    rnd.finish()
    card = session.store.schedules.card(key)
    assert card is not None and card.due > now[0] and grade.next_due == card.due
    assert session.plan(None, 20) == ([key], "practice")  # not due, no new items left today
    for _ in range(4):  # keep getting it right: the interval grows
        now[0] = card.due + timedelta(seconds=1)
        keys, mode = session.plan(None, 20)
        assert mode == "review" and key in keys
        rnd = session.start_round()
        assert key in rnd.queue
        while rnd.question() is not None and rnd.question().key != key:  # type: ignore[union-attr]
            answer(rnd, True)
            rnd.advance()
        previous = card.due - card.last_review if card.last_review else timedelta(0)
        answer(rnd, True)
        rnd.finish()
        card = session.store.schedules.card(key)
        assert card is not None and card.due > now[0]
        assert card.due - now[0] >= previous
    assert card.due - now[0] > timedelta(days=1)


# -- undo, flag ---------------------------------------------------------------------------------


def snapshot(
    store: Store,
) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]], list[tuple[object, ...]]]:
    conn = store.conn
    return (
        conn.execute("SELECT * FROM reviews ORDER BY id").fetchall(),
        conn.execute("SELECT * FROM cards ORDER BY card_id").fetchall(),
        conn.execute("SELECT questions, correct, score, best_streak FROM rounds").fetchall(),
    )


def test_undo_of_a_new_face_removes_its_card_and_review(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [claims_deck(4)], now)
    rnd = session.start_round(seed=2)
    answer(rnd, True)
    rnd.advance()
    now[0] += timedelta(seconds=3)
    before = snapshot(session.store)
    score, streak, best = rnd.score, rnd.streak, rnd.best_streak
    q = rnd.question()
    assert q is not None
    answer(rnd, True)
    assert session.store.schedules.card(q.key) is not None
    assert rnd.score > score
    assert rnd.undo() == q  # the same question again, same choices
    assert snapshot(session.store) == before
    assert session.store.schedules.card(q.key) is None
    assert (rnd.score, rnd.streak, rnd.best_streak, rnd.answered) == (score, streak, best, 1)
    assert rnd.question() == q and not rnd.awaiting_next


def test_undo_puts_an_existing_card_back_exactly(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [claims_deck(3)], now)
    play(session.start_round())
    now[0] += timedelta(days=2)
    rnd = session.start_round(seed=5)
    answer(rnd, True)
    answer_key = rnd.question().key  # type: ignore[union-attr]
    rnd.advance()  # undo also works after moving on
    card_before = session.store.schedules.card(rnd.queue[1])
    before = snapshot(session.store)
    score, streak = rnd.score, rnd.streak
    q = rnd.question()
    assert q is not None and card_before is not None
    answer(rnd, False)
    assert rnd.queue.count(q.key) == 2  # put back for later
    rnd.advance()
    assert rnd.undo() == q
    assert rnd.queue.count(q.key) == 1  # and taken out again
    assert snapshot(session.store) == before
    restored = session.store.schedules.card(q.key)
    assert restored is not None and restored.to_dict() == card_before.to_dict()
    assert (rnd.score, rnd.streak) == (score, streak)
    assert answer_key != q.key
    # answered again after the undo, the schedule follows the new answer, but it scores no
    # more than the first answer did (nothing) and does not mend the streak that one broke
    answer(rnd, True)
    assert rnd.score == score and rnd.streak == 0
    after = session.store.schedules.card(q.key)
    assert after is not None and after.due > now[0] + timedelta(days=1)  # answered right


def test_undo_with_nothing_to_undo(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [claims_deck(2)], now)
    rnd = session.start_round()
    assert rnd.undo() is None
    assert session.store.answers.count() == 0


def test_a_face_is_flagged_once_and_keeps_its_note(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [claims_deck(3)], now)
    rnd = session.start_round(seed=1)
    first = rnd.question()
    assert first is not None
    assert rnd.flag("unclear wording") == first.key
    answer(rnd, True)
    now[0] += timedelta(seconds=9)
    assert rnd.flag() == first.key  # while its feedback shows: still one flag, note kept
    assert session.store.face_flags.all() == [(first.key, START, "unclear wording")]
    assert rnd.flag("the claim is true in vLLM") == first.key  # a new note replaces it
    assert session.store.face_flags.all() == [(first.key, START, "the claim is true in vLLM")]


def test_toggle_flag_flags_then_unflags(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [claims_deck(3)], now)
    rnd = session.start_round(seed=1)
    first = rnd.question()
    assert first is not None
    assert rnd.toggle_flag() == (first.key, True)
    assert [k for k, _, _ in session.store.face_flags.all()] == [first.key]
    answer(rnd, True)
    assert rnd.toggle_flag() == (first.key, False)  # the question just answered
    assert session.store.face_flags.all() == []
    rnd.advance()
    second = rnd.question()
    assert second is not None and rnd.toggle_flag() == (second.key, True)
    assert [k for k, _, _ in session.store.face_flags.all()] == [second.key]


# -- "I was right" and undo -----------------------------------------------------------------------


def typed_round(session: Session, n: int = 4) -> Round:
    rnd = session.start_round(seed=1)
    rnd.queue[:] = [FaceKey("words", f"t{i:02d}", "typed") for i in range(n)]
    return rnd


def test_i_was_right_counts_a_typed_answer_as_right_in_one_go(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [terms_deck(4)], now)
    rnd = typed_round(session)
    answer(rnd, True)
    rnd.advance()
    answer(rnd, True)
    rnd.advance()
    assert not rnd.can_override()  # nothing marked wrong to override
    before = snapshot(session.store)
    q = rnd.question()
    assert q is not None
    now[0] += timedelta(seconds=5)
    wrong = rnd.answer_text("Word 2 or so")
    assert isinstance(wrong, Outcome) and not wrong.grade.correct and wrong.comes_back
    assert rnd.can_override() and wrong.can_override
    outcome = rnd.override()
    assert outcome is not None and outcome.overridden and outcome.grade.correct
    assert (outcome.points, outcome.score, outcome.streak, outcome.correct) == (14, 36, 3, 3)
    assert not outcome.comes_back and rnd.queue.count(q.key) == 1  # not asked again
    assert not rnd.can_override() and rnd.override() is None  # once
    # stored: the review right and overridden, the card as if answered right, the totals
    review = session.store.answers.all()[-1]
    assert (review.correct, review.rating, review.points, review.answer) == (
        True,
        3,
        14,
        "Word 2 or so",
    )
    [review_id] = session.store.answers.overridden_ids()
    expected = session.srs.review(session.srs.new_card(3, now[0]), 3, now[0])
    assert session.store.schedules.card(q.key).to_dict() == expected.to_dict()  # type: ignore[union-attr]
    assert outcome.next_due == expected.due
    [played] = session.store.scoreboard.all()
    assert (played.questions, played.correct, played.score, played.best_streak) == (3, 3, 36, 3)
    # undo takes the answer and its override back
    assert rnd.undo() == q
    assert snapshot(session.store) == before
    assert (rnd.score, rnd.streak, rnd.correct) == (22, 2, 2)


def test_only_a_typed_term_or_number_marked_wrong_can_be_overridden(
    tmp_path: Path, now: Now
) -> None:
    session = make_session(tmp_path, [claims_deck(3)], now)
    rnd = session.start_round(seed=1)
    answer(rnd, False)  # a true/false choice
    assert not rnd.can_override() and rnd.override() is None
    assert session.store.answers.overridden_ids() == []


def test_undo_cannot_farm_points(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [claims_deck(5)], now)
    rnd = session.start_round(seed=3)
    answer(rnd, True)
    rnd.advance()
    assert answer(rnd, False).correct is False  # first answer: wrong, 0 points
    rnd.undo()
    answer(rnd, True)  # right this time: still 0 points, and the streak stays broken
    assert (rnd.score, rnd.streak) == (10, 0)
    assert session.store.answers.all()[-1].points == 0
    rnd.advance()
    answer(rnd, True)  # first answer here: 10
    rnd.undo()
    answer(rnd, True)
    assert (rnd.score, rnd.streak) == (20, 1)  # the same again, not more
    rnd.undo()
    answer(rnd, False)
    rnd.undo()
    answer(rnd, True)  # after several undos, still at most what the first answer scored
    assert (rnd.score, rnd.streak, rnd.answered) == (20, 1, 3)
    [played] = session.store.scoreboard.all()
    assert played.score == 20


# -- scores -------------------------------------------------------------------------------------


def test_points_with_a_streak_bonus(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [claims_deck(12)], now)
    rnd = session.start_round(size=12, seed=4)
    pattern = [True] * 8 + [False] + [True] * 3
    points = []
    for right in pattern:
        grade = answer(rnd, right)
        assert grade.correct is right
        points.append(session.store.answers.all()[-1].points)
        rnd.advance()
    bonus = [POINTS_RIGHT + STREAK_BONUS * min(n, 5) for n in range(8)]
    assert bonus == [10, 12, 14, 16, 18, 20, 20, 20]
    assert points == [*bonus, 0, 10, 12, 14]
    assert rnd.score == sum(points)
    assert rnd.best_streak == 8 and rnd.streak == 3
    row = session.store.conn.execute(
        "SELECT questions, correct, score, best_streak FROM rounds WHERE id=?", (rnd.round_id,)
    ).fetchone()
    assert row == (12, 11, sum(points), 8)


def test_finish_a_whole_round_and_one_ended_early(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [claims_deck(6)], now, new_per_day=100)
    rnd = session.start_round("facts", size=3, seed=1)
    keys = play(rnd, now=now)
    summary = rnd.finish()
    assert summary.finished and summary.answered == 3 and summary.correct == 3
    assert summary.score == 10 + 12 + 14 and summary.best_streak == 3
    assert summary.seconds == 6.0 and summary.missed == ()
    assert summary.previous_best is None and summary.new_best  # the first best there is
    assert summary.next_due == min(session.store.schedules.card(k).due for k in keys)  # type: ignore[union-attr]

    early = session.start_round("facts", size=3, seed=2)
    answer(early, False)
    early_summary = early.finish()
    assert not early_summary.finished and not early_summary.new_best
    assert early_summary.answered == 1 and len(early_summary.missed) == 1
    assert early_summary.previous_best == 36
    assert early.question() is None
    rounds = session.store.scoreboard.all()
    assert [(r.finished, r.questions, r.correct, r.score) for r in rounds] == [
        (True, 3, 3, 36),
        (False, 1, 0, 0),
    ]
    assert all(r.ended_at is not None for r in rounds)
    assert session.store.answers.count() == 4  # answers of the early round are kept
    assert session.store.scoreboard.best_score("facts") == 36


def test_personal_best_only_when_beating_a_previous_finished_round(
    tmp_path: Path, now: Now
) -> None:
    session = make_session(tmp_path, [claims_deck(20)], now, new_per_day=100)

    def round_scoring(rights: list[bool], finish: bool = True) -> tuple[int, bool, int | None]:
        rnd = session.start_round("facts", size=len(rights) + (0 if finish else 1))
        for right in rights:
            answer(rnd, right)
            rnd.advance()
            if not right:  # skip the retry: answer it right
                while rnd.question() is not None and rnd.answered < len(rnd.queue):
                    answer(rnd, True)
                    rnd.advance()
        s = rnd.finish()
        assert s.finished is finish
        return s.score, s.new_best, s.previous_best

    assert round_scoring([True, True]) == (22, True, None)
    assert round_scoring([True]) == (10, False, 22)  # lower
    assert round_scoring([True, True]) == (22, False, 22)  # equal is not a new best
    # a higher score in a round ended early is neither a best nor the one to beat
    assert round_scoring([True, True, True, True], finish=False) == (52, False, 22)
    assert session.store.scoreboard.best_score("facts") == 22
    assert round_scoring([True, True, True]) == (36, True, 22)
    assert session.store.scoreboard.best_score("facts") == 36


def test_best_score_is_per_deck(tmp_path: Path, now: Now) -> None:
    a, b = claims_deck(5, "deck-a"), claims_deck(5, "deck-b")
    session = make_session(tmp_path, [a, b], now, new_per_day=100)
    for deck_id, size in [("deck-a", 3), ("deck-b", 1), (None, 2)]:
        rnd = session.start_round(deck_id, size=size)
        assert {k.deck_id for k in rnd.queue} <= ({deck_id} if deck_id else {"deck-a", "deck-b"})
        play(rnd)
        assert rnd.finish().new_best
    assert session.store.scoreboard.best_score("deck-a") == 36
    assert session.store.scoreboard.best_score("deck-b") == 10
    assert session.store.scoreboard.best_score(None) == 22
    rnd = session.start_round("deck-b", size=1)
    play(rnd)
    summary = rnd.finish()
    assert summary.previous_best == 10 and not summary.new_best  # deck-a's 36 is not its best
    home = {d.id: d.best for d in session.home().decks}
    assert home == {None: 22, "deck-a": 36, "deck-b": 10}


def test_day_streak(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [claims_deck(20)], now)

    def finished_round() -> None:
        rnd = session.start_round(size=1)
        play(rnd)
        assert rnd.finish().finished

    assert session.streak_days() == 0
    for day in range(3):
        now[0] = START + timedelta(days=day, hours=day)
        finished_round()
        assert session.streak_days() == day + 1
    finished_round()  # a second round the same day adds nothing
    assert session.streak_days() == 3
    now[0] = START + timedelta(days=3)  # no round yet today: yesterday still counts
    assert session.streak_days() == 3
    rnd = session.start_round(size=2)  # a round ended early does not count
    answer(rnd, True)
    assert not rnd.finish().finished
    assert session.streak_days() == 3
    now[0] = START + timedelta(days=4)  # a day missed: the streak is broken
    assert session.streak_days() == 0
    finished_round()
    assert session.streak_days() == 1
    now[0] = START + timedelta(days=5)
    finished_round()
    assert session.streak_days() == 2


def test_today_follows_the_time_zone(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [claims_deck(5)], now)
    now[0] = datetime(2025, 3, 3, 23, 30, tzinfo=UTC)
    rnd = session.start_round(size=1)
    play(rnd)
    rnd.finish()
    now[0] = datetime(2025, 3, 4, 0, 30, tzinfo=UTC)
    rnd = session.start_round(size=1)
    play(rnd)
    rnd.finish()
    assert session.streak_days() == 2
    session.tz = timezone(timedelta(hours=2))  # both rounds fell on 4 March there
    assert session.streak_days() == 1


# -- progress kept --------------------------------------------------------------------------------


def test_progress_survives_closing_and_reopening_the_store(tmp_path: Path, now: Now) -> None:
    deck = load_deck(DATA / "latency-basics.yaml")
    session = make_session(tmp_path, [deck], now)
    rnd = session.start_round("latency-basics", seed=9)
    keys = play(rnd, right=lambda key, n: n > 0 or key.face != "scenario", now=now)
    summary = rnd.finish()
    cards = {k: c.to_dict() for k, c in session.store.schedules.cards().items()}
    reviews = session.store.answers.all()
    assert set(cards) == set(keys)
    session.close()

    again = make_session(tmp_path, [deck], now)
    assert {k: c.to_dict() for k, c in again.store.schedules.cards().items()} == cards
    assert again.store.answers.all() == reviews
    assert again.store.scoreboard.best_score("latency-basics") == summary.score
    assert again.streak_days() == 1
    # the reopened session plans from the kept progress: the faces answered are not new
    # again, and a day later they are due, ahead of the faces not yet seen
    keys_next, mode = again.plan(None, 20)
    assert mode == "review" and keys_next and not set(keys_next) & set(keys)
    now[0] += timedelta(days=1)
    keys_next, mode = again.plan(None, 20)
    assert mode == "review" and len(set(keys)) == 4  # one face of each of the 4 items
    assert sorted(keys_next) == sorted(set(keys))


def test_editing_wording_keeps_progress_and_removed_items_keep_history(
    tmp_path: Path, now: Now
) -> None:
    v1 = terms_deck(4)
    session = make_session(tmp_path, [v1], now)
    played = play(session.start_round())
    assert len(played) == 4
    cards = {k: c.to_dict() for k, c in session.store.schedules.cards().items()}
    session.close()

    now[0] += timedelta(days=3)
    v2 = parse(
        "format: 1\nid: words\ntitle: Words, reworded\nterms:\n"
        + "".join(
            f"  - {{id: t{i:02d}, term: Term {i}, definition: Reworded {i}.}}\n" for i in range(3)
        )
    )
    assert v2.terms[0].definition != v1.terms[0].definition
    session = make_session(tmp_path, [v2], now)
    assert {k: c.to_dict() for k, c in session.store.schedules.cards().items()} == cards
    keys, mode = session.plan(None, 20)
    kept = [k for k in played if k.item_id != "t03"]
    assert mode == "review" and sorted(keys) == sorted(kept)  # due again, not new
    rnd = session.start_round()
    assert all(k.item_id != "t03" for k in rnd.queue)  # the removed item is not asked
    q = rnd.question()
    assert q is not None and "Reworded" in repr(q) and "Meaning" not in repr(q)
    # the removed item's history stays in the reviews table
    removed = [r for r in session.store.answers.all() if r.key.item_id == "t03"]
    assert len(removed) == 1
    assert session.store.conn.execute(
        "SELECT COUNT(*) FROM reviews WHERE deck_id='words' AND item_id='t03'"
    ).fetchone() == (1,)
    deck_stats = session.stats().decks[0]
    assert (deck_stats.seen, deck_stats.total) == (3, 9)


# -- stats ------------------------------------------------------------------------------------------


def test_stats_agree_with_what_was_played(tmp_path: Path, now: Now) -> None:
    a = claims_deck(6, "deck-a")
    b = load_deck(DATA / "latency-basics.yaml")
    session = make_session(tmp_path, [a, b], now, new_per_day=100)
    empty = session.stats()
    assert (empty.reviews, empty.rounds, empty.streak_days) == (0, 0, 0)
    assert [(d.id, d.seen, d.total, d.due, d.best) for d in empty.decks] == [
        ("deck-a", 0, 6, 0, None),
        ("latency-basics", 0, 2 * 3 + 1 + 1, 0, None),
    ]

    rnd = session.start_round("deck-a", size=4, seed=1)
    first_a = play(rnd, right=lambda key, n: n > 0 or key != rnd.queue[0], now=now)
    score_a = rnd.finish().score
    rnd = session.start_round("latency-basics", size=2, seed=1)
    answer(rnd, True)
    rnd.finish()  # ended early
    now[0] += timedelta(days=1)
    rnd = session.start_round("latency-basics", size=3, seed=2)
    played_b = play(rnd, now=now)
    score_b = rnd.finish().score

    s = session.stats()
    assert s.reviews == len(first_a) + 1 + len(played_b) == session.store.answers.count()
    assert s.rounds == 2  # finished ones
    assert s.streak_days == 2
    by_id = {d.id: d for d in s.decks}
    cards = session.store.schedules.cards()
    due_a = sum(1 for k, c in cards.items() if k.deck_id == "deck-a" and c.due <= now[0])
    assert due_a == 4  # a day later, the learning steps have passed
    assert (by_id["deck-a"].seen, by_id["deck-a"].total, by_id["deck-a"].due) == (4, 6, due_a)
    assert by_id["deck-a"].best == score_a
    seen_b = {k for k in cards if k.deck_id == "latency-basics"}
    assert seen_b == {r.key for r in session.store.answers.all("latency-basics")}
    assert by_id["latency-basics"].seen == len(seen_b) == 3
    assert by_id["latency-basics"].due == sum(1 for k in seen_b if cards[k].due <= now[0])
    assert by_id["latency-basics"].best == score_b
    assert session.stats() == s  # reading changes nothing
    text = render_stats(s)
    assert "Day streak:     2 days" in text and "4/6" in text


def test_the_store_is_a_sqlite_file_other_tools_can_read(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [claims_deck(2)], now)
    play(session.start_round())
    session.close()
    conn = sqlite3.connect(tmp_path / "vocabgame.db")
    try:
        assert conn.execute("SELECT COUNT(*) FROM reviews").fetchone() == (2,)
        assert conn.execute("SELECT COUNT(*) FROM cards").fetchone() == (2,)
    finally:
        conn.close()


def test_text_that_is_not_a_number_records_nothing(tmp_path: Path, now: Now) -> None:
    deck = load_deck(DATA / "latency-basics.yaml")
    session = make_session(tmp_path, [deck], now)
    rnd = session.start_round("latency-basics", seed=0)
    while rnd.question().kind != Kind.NUMBER:  # type: ignore[union-attr]
        answer(rnd, True)
        rnd.advance()
    q = rnd.question()
    count = session.store.answers.count()
    for text in ["abc", "", "1,4"]:
        assert isinstance(rnd.answer_text(text), Refused)
        assert rnd.question() == q and not rnd.awaiting_next
    assert session.store.answers.count() == count
    grade = rnd.answer_text(q.answer).grade  # type: ignore[union-attr]
    assert grade is not None and grade.correct
    assert session.store.answers.all()[-1].answer == q.answer  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("delta", "text"),
    [
        (timedelta(0), "now"),
        (timedelta(seconds=-5), "now"),
        (timedelta(seconds=30), "in under a minute"),
        (timedelta(minutes=1), "in 1 minute"),
        (timedelta(minutes=10), "in 10 minutes"),
        (timedelta(hours=3), "in 3 hours"),
        (timedelta(days=1), "in 1 day"),
        (timedelta(days=3), "in 3 days"),
        (timedelta(days=61), "in 2 months"),
        (timedelta(days=400), "in 1 year"),
    ],
)
def test_when_a_face_comes_back_in_words(delta: timedelta, text: str) -> None:
    assert timefmt.until(START + delta, START) == text


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0, "0 s"), (45.4, "45 s"), (65, "1 min 05 s"), (3599, "59 min 59 s"), (3725, "1 h 02 min")],
)
def test_round_duration_in_words(seconds: float, text: str) -> None:
    assert timefmt.duration(seconds) == text


def _epoch_microseconds(moment: datetime | None) -> int | None:
    if moment is None:
        return None
    delta = moment - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds


def test_the_per_item_summary_is_filled_from_an_older_store(tmp_path: Path, now: Now) -> None:
    """Migration 6 fills the items table from the reviews and cards already there."""
    from .faults import items_problems

    session = Session(
        Store.open(tmp_path / "vocabgame.db"), Catalog((claims_deck(6),), ()), clock=lambda: now[0]
    )
    round_ = session.start_round(size=4, seed=1)
    assert round_ is not None
    for _ in range(4):
        round_.answer_choice(0)
        round_.advance()
    conn = session.store.conn
    expected = conn.execute("SELECT * FROM items ORDER BY 1, 2").fetchall()
    assert len(expected) == 4
    kept = "SELECT deck_id, item_id, face, stability, last_review FROM cards ORDER BY 1, 2, 3"
    columns = conn.execute(kept).fetchall()
    # The kept columns are the card's own stability and last review (in microseconds).
    assert columns == [
        (d, i, f, card.stability, _epoch_microseconds(card.last_review))
        for d, i, f, card in (
            (d, i, f, load_card(text))
            for d, i, f, text in conn.execute("SELECT deck_id, item_id, face, card FROM cards")
        )
    ]
    assert len(columns) == 4
    for name in [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'")]:
        conn.execute(f"DROP TRIGGER {name}")
    conn.execute("DROP TABLE items")
    # what migrations 7, 8, 9 and 10 add
    for later in (
        "reports",
        "confusions",
        "drill_answers",
        "face_stats",
        "wrong_answers",
        "answer_quarters",
        "learned_days",
        "item_orders",
        "item_order",
    ):
        conn.execute(f"DROP TABLE {later}")
    conn.execute("DROP INDEX cards_weak")  # what migration 15 adds (its other indexes go
    conn.execute("DROP INDEX cards_due")  # with their tables), and the index it widened
    conn.execute("CREATE INDEX cards_due ON cards (deck_id, due)")
    conn.execute("DROP INDEX cards_recall")  # what migration 16 adds
    conn.execute("DROP INDEX cards_schedule")  # and what migrations 11 and 12 add
    conn.execute("ALTER TABLE cards DROP COLUMN last_review")
    conn.execute("ALTER TABLE cards DROP COLUMN stability")
    conn.execute("DROP INDEX reviews_confidence")  # and what migration 13 adds
    conn.execute("ALTER TABLE reviews DROP COLUMN confidence")
    conn.execute("PRAGMA user_version = 5")
    session.close()
    with Store.open(tmp_path / "vocabgame.db") as store:
        assert store.conn.execute("SELECT * FROM items ORDER BY 1, 2").fetchall() == expected
        assert store.conn.execute(kept).fetchall() == columns
    assert items_problems(tmp_path / "vocabgame.db") == []


def test_plans_read_from_the_per_item_summary_equal_plans_from_every_card(
    tmp_path: Path, now: Now
) -> None:
    """Learn and practice plan from the due cards and the per-item summary only, cram has
    SQLite order every card by retrievability, and the lab, interview and challenge modes read
    only the cards of the sections they ask (so their time does not grow with the history);
    they must pick exactly what the plan over every card and every item's first answer picks,
    day after day of mixed play."""
    import random as random_module

    from vocabgame.play.modes.challenge import ChallengeMode
    from vocabgame.play.modes.cram import CramMode
    from vocabgame.play.modes.interview import InterviewMode
    from vocabgame.play.modes.lab import LabMode
    from vocabgame.play.modes.learn import LearnMode, PracticeMode

    decks = (claims_deck(9), terms_deck(7), parse(MIXED))
    session = Session(
        Store.open(tmp_path / "vocabgame.db"), Catalog(decks, ()), clock=lambda: now[0]
    )
    session.change_settings(session.settings.changed(new_per_day=3))
    rng = random_module.Random(5)
    compared = 0
    for day in range(12):
        now[0] = START + timedelta(days=day, hours=rng.randrange(10))
        for deck_id in (None, "facts", "words", "mixed"):
            for size in (4, 11):
                ctx = session._context(session.decks_for(deck_id), size)  # noqa: SLF001
                modes = (
                    LearnMode(),
                    PracticeMode(),
                    CramMode(),
                    LabMode(),
                    InterviewMode(),
                    ChallengeMode(),
                )
                for mode in modes:
                    fast = mode.plan(ctx)
                    ctx.store = None
                    slow = mode.plan(ctx)
                    ctx.store = session.store
                    assert fast == slow, (day, deck_id, size, mode.id)
                    compared += bool(fast)
        round_ = session.start_round(rng.choice([None, "facts", "words", "mixed"]), size=6)
        if round_ is None:
            continue
        while (question := round_.question()) is not None:
            if question.kind == Kind.CHOICE:
                right = rng.random() < 0.7
                pick = next(
                    i
                    for i, c in enumerate(question.choices)
                    if (c.value == question.answer) == right
                )
                round_.answer_choice(pick)
            elif question.kind == Kind.RECALL:
                round_.answer_recall(rng.choice([1, 3]))
            else:
                round_.answer_text(question.answer if rng.random() < 0.7 else "nope")
            round_.advance()
        round_.finish()
    assert compared > 100
    session.close()


def test_an_interview_over_long_mixed_decks_reads_new_faces_in_pages_and_picks_as_every_card(
    tmp_path: Path, now: Now
) -> None:
    """The interview finds its new faces from the first items of each deck's kept order, read
    in growing pages and cut where a page ends; over decks far longer than a round, with terms
    and claims taking turns and faces answered here and there (items left part answered), it
    must pick exactly what the plan over every card picks."""
    import random as random_module

    from vocabgame.play.modes.interview import InterviewMode

    lines = ["format: 1\nid: long\ntitle: Long\nterms:"]
    lines += [f"  - {{id: t{i:03d}, term: Word {i}, definition: Meaning {i}.}}" for i in range(60)]
    lines.append("claims:")
    lines += [
        f"  - {{id: c{i:03d}, statement: Claim {i}., answer: true, explanation: Why {i}.}}"
        for i in range(60)
    ]
    decks = (parse("\n".join(lines)), terms_deck(50), claims_deck(40))
    session = Session(
        Store.open(tmp_path / "vocabgame.db"), Catalog(decks, ()), clock=lambda: now[0]
    )
    rng = random_module.Random(11)
    faces = [
        FaceKey(d.id, item.id, f) for d in decks for item in d.items() for f in item_faces(item)
    ]
    compared = 0
    for day in range(8):
        now[0] = START + timedelta(days=day, hours=rng.randrange(10))
        for deck_id in (None, "long", "words"):
            for size in (3, 9, 25):
                ctx = session._context(session.decks_for(deck_id), size)  # noqa: SLF001
                fast = InterviewMode().plan(ctx)
                ctx.store = None
                slow = InterviewMode().plan(ctx)
                assert fast == slow, (day, deck_id, size)
                compared += 1
        # answer faces here and there, most from the decks' starts, as rounds would
        for key in rng.sample(faces[:80], 12) + rng.sample(faces, 6):
            record_review(session, key, rng.choice([1, 3]), now[0])
    assert compared == 72
    session.close()


def test_an_interview_asks_first_the_one_face_never_answered_of_a_deck_answered_all_but_it(
    tmp_path: Path, now: Now
) -> None:
    """The per-item summary that lets the plan skip a deck answered in full must not hide
    a deck answered in full but for one face: that face is the interview's first question,
    as in the plan from every card."""
    from vocabgame.play.modes.interview import InterviewMode

    decks = (terms_deck(6),)
    session = Session(
        Store.open(tmp_path / "vocabgame.db"), Catalog(decks, ()), clock=lambda: now[0]
    )
    left = FaceKey("words", "t04", "term")
    for item in decks[0].items():
        for face in item_faces(item):
            if FaceKey("words", item.id, face) != left:
                record_review(session, FaceKey("words", item.id, face), 3, now[0])
    session.home()  # the summary read first, as the game does
    ctx = session._context(session.decks_for(None), 3)  # noqa: SLF001
    fast = InterviewMode().plan(ctx)
    ctx.store = None
    assert fast == InterviewMode().plan(ctx)
    assert fast[0] == left
    session.close()
