"""Question generation and grading (vocabgame.quiz), without a terminal."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from vocabgame.deck import load_deck, load_text
from vocabgame.kinds import (
    build_question,
    distractors,
    faces,
    grade_choice,
    grade_number,
    grade_recall,
    grade_typed,
    item_faces,
)
from vocabgame.kinds.term import off_topic
from vocabgame.model import Deck, Source
from vocabgame.quiz import (
    CHOICES_PER_QUESTION,
    Face,
    FaceKey,
    Grade,
    Kind,
    Question,
    Refused,
    format_number,
    parse_number,
    same_unit,
)
from vocabgame.quiz import normalise as _normalise
from vocabgame.quiz.text import article_for
from vocabgame.reading import calc

from .conftest import DATA

DECK = """
format: 1
id: demo
title: Demo deck
sources:
  doc: {title: Demo doc, url: "https://example.com/doc"}
  book: {title: Demo book, url: "https://example.com/book"}
terms:
  - id: target
    term: Time to first token
    aliases: [TTFT, first-token latency]
    definition: The wait before the first token.
    caveat: Queueing included.
    tags: [core]
    sources: [doc]
  - {id: partner, term: Time per output token, definition: The gap between later tokens.}
  - {id: mate-1, term: Goodput, definition: Requests per second meeting the target., tags: [core]}
  - {id: mate-2, term: Throughput, definition: Tokens per second over all requests., tags: [core]}
  - {id: mate-3, term: Queue delay, definition: Time spent waiting for a slot., tags: [core]}
  - {id: rest-1, term: Prefill, definition: Processing the prompt.}
  - {id: rest-2, term: Decode, definition: Producing one token per step.}
  - {id: rest-3, term: Batch, definition: Requests run together.}
  - {id: lone, term: Tail, definition: The slowest requests., tags: [solo]}
  - {id: solo-mate, term: P99, definition: The 99th percentile., tags: [solo]}
confusables:
  - id: token-times
    terms: [target, partner]
    distinction: TTFT is the wait for the first token; TPOT is the pace after it.
    cues:
      - {text: The user stares at a blank screen, answer: target}
      - {text: The words trickle in slowly, answer: partner}
scenarios:
  - id: chat
    prompt: People want to see the reply begin quickly. Which metric?
    choices: [target, partner, "Number of GPUs"]
    answer: target
    explanation: The complaint is the wait before anything appears.
    why_not: {partner: It measures the pace after the first token., "Number of GPUs": That is a cost.}
    sources: [book]
claims:
  - {id: fact, statement: TTFT includes queueing., answer: true, explanation: It starts at the request., sources: [doc, book]}
recall:
  - id: think
    prompt: Why does batching raise throughput?
    answer: Decode is memory-bound.
    key_points: [weights read once per step, more tokens per read]
calculations:
  - id: sum
    prompt: "Add {a} and {b}."
    given: {a: [1, 2, 3], b: {ten: 10, twenty: 20}}
    answer: a + b
    tolerance: 0.5
    explanation: Add them.
"""


def load(text: str) -> Deck:
    deck, problems = load_text(text, "test.yaml")
    assert deck is not None, problems
    return deck


@pytest.fixture(scope="module")
def deck() -> Deck:
    return load(DECK)


@pytest.fixture(scope="module")
def latency() -> Deck:
    return load_deck(DATA / "latency-basics.yaml")


def key(item: str, face: str, deck_id: str = "demo") -> FaceKey:
    return FaceKey(deck_id, item, face)


def question(deck: Deck, item: str, face: str, seed: int = 0) -> Question:
    return build_question(deck, key(item, face, deck.id), random.Random(seed))


def index_of(q: Question, value: str) -> int:
    return next(i for i, c in enumerate(q.choices) if c.value == value)


# -- faces ----------------------------------------------------------------------------------


def test_each_kind_of_item_has_its_faces(deck: Deck) -> None:
    by_item = {item.id: item_faces(item) for item in deck.items()}
    assert by_item["target"] == [Face.DEFINITION, Face.TERM, Face.TYPED]
    assert by_item["token-times"] == ["cue-1", "cue-2"]
    assert by_item["chat"] == [Face.SCENARIO]
    assert by_item["fact"] == [Face.CLAIM]
    assert by_item["think"] == [Face.RECALL]
    assert by_item["sum"] == [Face.CALCULATION]
    keys = faces(deck)
    assert len(keys) == len(set(keys)) == 10 * 3 + 2 + 1 + 1 + 1 + 1
    assert keys[:3] == [key("target", f) for f in ("definition", "term", "typed")]
    assert all(k.deck_id == "demo" for k in keys)
    assert str(keys[0]) == "demo/target/definition"


def test_each_face_builds_its_kind_of_question(deck: Deck) -> None:
    q = question(deck, "target", "definition")
    assert (q.kind, q.prompt, q.answer) == (Kind.CHOICE, "Time to first token", "target")
    assert "The wait before the first token." in [c.text for c in q.choices]
    assert q.deck_title == "Demo deck"

    q = question(deck, "target", "term")
    assert (q.kind, q.prompt, q.answer) == (
        Kind.CHOICE,
        "The wait before the first token.",
        "target",
    )
    assert "Time to first token" in [c.text for c in q.choices]

    q = question(deck, "target", "typed")
    assert (q.kind, q.prompt, q.answer) == (
        Kind.TYPED,
        "The wait before the first token.",
        "Time to first token",
    )
    assert set(q.accepted) == {"Time to first token", "TTFT", "first-token latency"}
    assert q.choices == ()

    q = question(deck, "token-times", "cue-2")
    assert (q.kind, q.prompt, q.answer) == (Kind.CHOICE, "The words trickle in slowly", "partner")
    assert sorted((c.text, c.value) for c in q.choices) == [
        ("Time per output token", "partner"),
        ("Time to first token", "target"),
    ]

    q = question(deck, "chat", "scenario")
    assert q.kind == Kind.CHOICE and q.answer == "target"
    # term ids are shown as their terms, literal choices as written
    assert sorted(c.text for c in q.choices) == [
        "Number of GPUs",
        "Time per output token",
        "Time to first token",
    ]
    assert {c.value for c in q.choices} == {"target", "partner", "Number of GPUs"}

    q = question(deck, "fact", "claim")
    assert q.kind == Kind.CHOICE and q.prompt == "TTFT includes queueing."
    assert [(c.text, c.value) for c in q.choices] == [("True", "true"), ("False", "false")]
    assert q.answer == "true"

    q = question(deck, "think", "recall")
    assert (q.kind, q.answer) == (Kind.RECALL, "Decode is memory-bound.")
    assert q.key_points == ("weights read once per step", "more tokens per read")

    q = question(deck, "sum", "calculation")
    assert q.kind == Kind.NUMBER and q.expected is not None and q.tolerance is not None


def test_a_face_the_item_does_not_have_is_refused(deck: Deck) -> None:
    with pytest.raises(KeyError):
        question(deck, "fact", "definition")
    with pytest.raises(KeyError):
        question(deck, "no-such-item", "claim")
    with pytest.raises(KeyError):
        question(deck, "token-times", "cue-3")


# -- multiple-choice terms ---------------------------------------------------------------------


@pytest.mark.parametrize("face", ["definition", "term"])
def test_term_choices_hold_the_right_answer_once_and_no_repeated_text(
    deck: Deck, face: str
) -> None:
    for seed in range(40):
        for term in deck.terms:
            q = question(deck, term.id, face, seed)
            assert len(q.choices) == CHOICES_PER_QUESTION
            assert [c.value for c in q.choices].count(term.id) == 1
            assert q.answer == term.id
            values = [c.value for c in q.choices]
            assert len(set(values)) == len(values)
            texts = [_normalise(c.text) for c in q.choices]
            assert len(set(texts)) == len(texts)


def test_choices_that_read_the_same_are_shown_once() -> None:
    # dup-a and dup-b differ only in case, spacing and punctuation; "Alpha-term" reads like
    # "Alpha term".
    deck = load(
        """
format: 1
id: dups
title: Dups
terms:
  - {id: alpha, term: Alpha term, definition: The first., tags: [t]}
  - {id: dup-a, term: Dup A, definition: Shared wording., tags: [t]}
  - {id: dup-b, term: Dup B, definition: "shared  WORDING", tags: [t]}
  - {id: alpha-2, term: Alpha-term, definition: Looks like alpha., tags: [t]}
  - {id: other, term: Other, definition: Something else., tags: [t]}
"""
    )
    both_dups = 0
    for seed in range(60):
        q = question(deck, "alpha", "definition", seed)
        texts = [_normalise(c.text) for c in q.choices]
        assert len(texts) == len(set(texts)) == CHOICES_PER_QUESTION
        both_dups += {"dup-a", "dup-b"} <= {c.value for c in q.choices}
        q = question(deck, "alpha", "term", seed)
        assert "alpha-2" not in {c.value for c in q.choices}  # reads the same as the answer
        assert [c.value for c in q.choices].count("alpha") == 1
    assert both_dups == 0


def test_distractors_come_from_partners_then_shared_tags_then_the_topic(deck: Deck) -> None:
    target = deck.term("target")
    assert target is not None
    seen_mates: Counter[str] = Counter()
    for seed in range(60):
        order = [t.id for t in distractors(deck, target, random.Random(seed))]
        assert order[0] == "partner"
        assert set(order[1:4]) == {"mate-1", "mate-2", "mate-3"}
        assert set(order[4:]) == {"rest-1", "rest-2", "rest-3"}  # untagged: the deck's topic
        # tagged with another topic only: never a distractor while others remain
        assert {t.id for t in off_topic(deck, target, random.Random(seed))} == {"lone", "solo-mate"}
        q = question(deck, "target", "definition", seed)
        picked = {c.value for c in q.choices} - {"target"}
        # the partner always, then two of the three terms sharing the tag; never the rest
        assert "partner" in picked
        assert len(picked & {"mate-1", "mate-2", "mate-3"}) == 2
        seen_mates.update(picked - {"partner"})
    assert set(seen_mates) == {"mate-1", "mate-2", "mate-3"}  # shuffled within the tier


def test_the_decks_topic_fills_in_but_never_another_topic(deck: Deck) -> None:
    others: Counter[str] = Counter()
    for seed in range(80):
        q = question(deck, "lone", "term", seed)
        picked = {c.value for c in q.choices} - {"lone"}
        assert "solo-mate" in picked  # shares the tag
        assert len(picked) == 3
        others.update(picked - {"solo-mate"})
    # untagged terms fill the last two places; terms tagged [core] are another topic
    assert set(others) == {"partner", "rest-1", "rest-2", "rest-3"}


def test_a_term_with_only_other_topics_beside_it_still_gets_a_second_choice() -> None:
    text = """
format: 1
id: mixed
title: Mixed
terms:
  - {id: mfu, term: MFU, definition: Model FLOPs over peak., tags: [hardware]}
  - {id: burst, term: Burstiness, definition: How clumped arrivals are., tags: [benchmarking]}
  - {id: omission, term: Coordinated omission, definition: Missing slow samples., tags: [benchmarking]}
"""
    deck = load(text)
    for seed in range(20):
        q = question(deck, "mfu", "definition", seed)
        assert len(q.choices) == 2  # one other-topic term, only so that there is a question
        q = question(deck, "burst", "definition", seed)
        assert {c.value for c in q.choices} == {"burst", "omission"}  # never MFU


def test_same_seed_same_question_and_the_order_is_shuffled(deck: Deck) -> None:
    for item, face in [
        ("target", "definition"),
        ("target", "term"),
        ("chat", "scenario"),
        ("token-times", "cue-1"),
        ("sum", "calculation"),
    ]:
        assert question(deck, item, face, 7) == question(deck, item, face, 7)
    positions = {index_of(question(deck, "target", "definition", s), "target") for s in range(40)}
    assert positions == {0, 1, 2, 3}
    orders = {
        tuple(c.value for c in question(deck, "chat", "scenario", s).choices) for s in range(40)
    }
    assert len(orders) == 6
    cue_orders = {
        tuple(c.value for c in question(deck, "token-times", "cue-1", s).choices) for s in range(40)
    }
    assert len(cue_orders) == 2


# -- grading choices ----------------------------------------------------------------------------


def test_grade_choice_right_and_wrong(deck: Deck) -> None:
    q = question(deck, "target", "definition", 3)
    right = grade_choice(deck, q, index_of(q, "target"))
    assert (right.correct, right.rating) == (True, 3)
    assert right.given == right.right_answer == "The wait before the first token."
    assert right.why_not is None and right.distinction is None
    assert "Caveat: Queueing included." in right.explanation
    wrong_index = next(i for i, c in enumerate(q.choices) if c.value.startswith("mate"))
    wrong = grade_choice(deck, q, wrong_index)
    assert (wrong.correct, wrong.rating) == (False, 1)
    other = deck.term(q.choices[wrong_index].value)
    assert wrong.given == f"{q.choices[wrong_index].text} (that defines {other.term})"
    assert wrong.right_answer == "The wait before the first token."
    assert "The wait before the first token." not in wrong.explanation  # shown once, as the answer
    assert wrong.distinction is None  # not a group partner


def test_grade_choice_gives_the_group_distinction_when_partners_are_confused(deck: Deck) -> None:
    distinction = "TTFT is the wait for the first token; TPOT is the pace after it."
    q = question(deck, "target", "term", 1)
    assert grade_choice(deck, q, index_of(q, "partner")).distinction == distinction
    q = question(deck, "token-times", "cue-1", 1)
    wrong = grade_choice(deck, q, index_of(q, "partner"))
    assert not wrong.correct and wrong.explanation == distinction
    q = question(deck, "chat", "scenario", 1)
    wrong = grade_choice(deck, q, index_of(q, "partner"))
    assert wrong.distinction == distinction


def test_grade_choice_gives_why_not_for_the_picked_scenario_choice(deck: Deck) -> None:
    q = question(deck, "chat", "scenario", 2)
    wrong = grade_choice(deck, q, index_of(q, "partner"))
    assert not wrong.correct
    assert wrong.why_not == "It measures the pace after the first token."
    assert wrong.right_answer == "Time to first token"
    assert wrong.explanation == "The complaint is the wait before anything appears."
    other = grade_choice(deck, q, index_of(q, "Number of GPUs"))
    assert other.why_not == "That is a cost." and other.distinction is None
    right = grade_choice(deck, q, index_of(q, "target"))
    assert right.correct and right.why_not is None


def test_grade_choice_for_a_claim(deck: Deck) -> None:
    q = question(deck, "fact", "claim")
    assert grade_choice(deck, q, 0).correct
    wrong = grade_choice(deck, q, 1)
    assert not wrong.correct and wrong.right_answer == "True"
    assert wrong.explanation == "It starts at the request."


def test_sources_are_carried_into_the_grade(deck: Deck, latency: Deck) -> None:
    doc = Source("doc", "Demo doc", "https://example.com/doc")
    book = Source("book", "Demo book", "https://example.com/book")
    q = question(deck, "fact", "claim")
    assert grade_choice(deck, q, 1).sources == (doc, book)
    q = question(deck, "chat", "scenario")
    assert grade_choice(deck, q, 0).sources == (book,)
    q = question(deck, "target", "typed")
    assert grade_typed(deck, q, "nope").sources == (doc,)
    q = question(deck, "mate-1", "definition")
    assert grade_choice(deck, q, 0).sources == ()
    q = question(latency, "ttft", "typed")
    (source,) = grade_typed(latency, q, "TTFT").sources
    assert source.title == "AIPerf metrics reference"
    assert source.url.startswith("https://github.com/ai-dynamo/aiperf/")


# -- typed terms ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Time to first token",
        "time to first token",
        "  TIME   to FIRST token ",
        "time-to-first-token",
        "Time to first token.",
        "TimeToFirstToken",
        "TTFT",
        "t.t.f.t",
        "first token latency",
    ],
)
def test_typed_right_answers_and_aliases(deck: Deck, text: str) -> None:
    grade = grade_typed(deck, question(deck, "target", "typed"), text)
    assert grade.correct and grade.rating == 3
    assert grade.note is None
    assert grade.given == text.strip()
    assert grade.right_answer == "Time to first token (also TTFT, first-token latency)"


@pytest.mark.parametrize(
    "text",
    [
        "Time to frist token",  # swapped letters
        "Time to firt token",  # missing letter
        "Time to first tokken",  # extra letter
        "Time to first tokan",  # wrong letter
    ],
)
def test_one_typo_in_a_long_word_is_forgiven_and_said(deck: Deck, text: str) -> None:
    grade = grade_typed(deck, question(deck, "target", "typed"), text)
    assert grade.correct and grade.rating == 3
    assert grade.note is not None and "typo" in grade.note.lower()
    assert "Time to first token" in grade.note


@pytest.mark.parametrize(
    "text",
    [
        "Tyme to first token",  # the typo is in a four-letter word
        "Time to frist tokan",  # two typos in two words
        "Time to fisrt tokken",  # two typos in two words
        "Time to frsit token",  # two edits in one word
        "Tiem to frist token",  # a typo in a short word plus one in a long word
        "TTFX",  # typo in a four-letter alias
        "",
        "   ",
        "Time per output token",  # another term
    ],
)
def test_typed_answers_that_are_not_forgiven(deck: Deck, text: str) -> None:
    grade = grade_typed(deck, question(deck, "target", "typed"), text)
    assert not grade.correct and grade.rating == 1
    assert grade.note is None


def test_typing_a_group_partner_shows_the_distinction(deck: Deck) -> None:
    grade = grade_typed(deck, question(deck, "target", "typed"), "time per output token")
    assert grade.distinction == "TTFT is the wait for the first token; TPOT is the pace after it."
    grade = grade_typed(deck, question(deck, "target", "typed"), "Goodput")
    assert grade.distinction == "Goodput: Requests per second meeting the target."


def test_a_typo_in_a_four_letter_word_of_a_single_word_term() -> None:
    deck = load(
        """
format: 1
id: short
title: Short
terms:
  - {id: kv, term: Page, definition: A block of the cache.}
  - {id: five, term: Block, definition: Five letters.}
"""
    )
    assert not grade_typed(deck, question(deck, "kv", "typed"), "Pgae").correct
    assert not grade_typed(deck, question(deck, "kv", "typed"), "Pag").correct
    assert grade_typed(deck, question(deck, "kv", "typed"), "page!").correct
    grade = grade_typed(deck, question(deck, "five", "typed"), "Blcok")
    assert grade.correct and grade.note is not None
    assert not grade_typed(deck, question(deck, "five", "typed"), "Blcko").correct


# -- numbers ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("140", (140.0, None)),
        ("140 GB", (140.0, "GB")),
        ("140GB", (140.0, "GB")),
        ("  140  ", (140.0, None)),
        ("1.4e2", (140.0, None)),
        ("1.4E2 GB", (140.0, "GB")),
        ("1,400", (1400.0, None)),
        ("1,310,720", (1310720.0, None)),
        ("-3.5", (-3.5, None)),
        ("+2", (2.0, None)),
        (".5", (0.5, None)),
        ("12 %", (12.0, "%")),
        ("3 tokens/s", (3.0, "tokens/s")),
    ],
)
def test_parse_number_accepts(text: str, expected: tuple[float, str | None]) -> None:
    assert parse_number(text) == expected


@pytest.mark.parametrize(
    "text",
    ["abc", "1,4", "", "   ", "1,40", "12,3456", "1.2.3", "GB 140", "nan", "inf", "1e999", "--3"],
)
def test_parse_number_rejects(text: str) -> None:
    assert parse_number(text) is None


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("GiB", "gib"),
        ("GiB", "GiBs"),
        ("GB", "gigabytes"),
        ("tokens/s", "token/s"),
        ("tokens/s", "tokens per second"),
        ("ms", "milliseconds"),
        ("microseconds", "µs"),
        ("us", "μs"),
        ("s", "secs"),
        ("%", "percent"),
        ("replicas", "replica"),
    ],
)
def test_spellings_of_one_unit_are_the_same_unit(a: str, b: str) -> None:
    assert same_unit(a, b) and same_unit(b, a)


@pytest.mark.parametrize(
    ("a", "b"),
    [("GB", "GiB"), ("ms", "s"), ("ms", "us"), ("KiB", "MiB"), ("tokens/s", "tokens"), ("s", "ns")],
)
def test_different_units_are_not_the_same(a: str, b: str) -> None:
    assert not same_unit(a, b) and not same_unit(b, a)


def test_grade_number_relative_tolerance_and_units(latency: Deck) -> None:
    # 70B in FP16: 140 GB, within 5%
    q = next(
        q
        for s in range(100)
        if (q := question(latency, "weight-memory", "calculation", s)).expected == 140
    )
    assert q.unit == "GB" and q.answer == "140 GB"
    for text in [
        "140",
        "140 GB",
        "140 gb",
        "140 GBs",
        "140 gigabytes",
        "1.4e2",
        "133",
        "147",
        "146.9 GB",
    ]:
        grade = grade_number(latency, q, text)
        assert grade is not None and grade.correct, text
        assert grade.rating == 3 and grade.right_answer == "140 GB"
    assert grade_number(latency, q, "140").note is None  # type: ignore[union-attr]
    within = grade_number(latency, q, "145")
    assert within is not None and within.note is not None and "5%" in within.note
    for text in ["132", "148", "14", "1,400", "-140"]:
        grade = grade_number(latency, q, text)
        assert grade is not None and not grade.correct and grade.rating == 1, text
    for text in ["140 MB", "140 GiB", "140 ms"]:
        # another unit is not an answer in the asked one: refused, with the reason, unscored
        refused = grade_number(latency, q, text)
        assert isinstance(refused, Refused), text
        assert "asked in GB, not " in refused.reason and "nothing was recorded" in refused.reason
    for text in ["abc", ""]:
        refused = grade_number(latency, q, text)
        assert isinstance(refused, Refused)
        assert refused.reason.startswith("That is not a number. Type it like 140, 140 GB,")
    grade = grade_number(latency, q, "140")
    assert grade is not None
    assert grade.explanation == (
        "Weights take parameters times bytes per parameter.\n"
        "Here: params = 70; precision = 2 for FP16.\n"
        "params × precision = 70 × 2 = 140 GB."
    )
    assert [s.key for s in grade.sources] == []  # the calculation names no sources


def test_grade_number_absolute_tolerance(deck: Deck) -> None:
    q = next(q for s in range(100) if (q := question(deck, "sum", "calculation", s)).expected == 22)
    assert q.unit is None and q.answer == "22"
    for text, right in [
        ("22", True),
        ("22.5", True),
        ("21.5", True),
        ("22.6", False),
        ("21.4", False),
    ]:
        grade = grade_number(deck, q, text)
        assert grade is not None and grade.correct is right, text
    # no unit is asked, so a unit typed after the number does not make it wrong
    assert grade_number(deck, q, "22 apples").correct  # type: ignore[union-attr]


def test_calculation_draws_every_combination_of_given_and_labels_the_prompt(
    deck: Deck, latency: Deck
) -> None:
    seen = {}
    for seed in range(200):
        q = question(latency, "weight-memory", "calculation", seed)
        seen[q.prompt] = q.expected
    assert seen == {
        "A 7-billion-parameter model is stored in FP16. How many GB do its weights take?": 14,
        "A 7-billion-parameter model is stored in INT4. How many GB do its weights take?": 3.5,
        "A 70-billion-parameter model is stored in FP16. How many GB do its weights take?": 140,
        "A 70-billion-parameter model is stored in INT4. How many GB do its weights take?": 35,
    }
    sums = {}
    for seed in range(200):
        q = question(deck, "sum", "calculation", seed)
        sums[q.prompt] = q.expected
    expected = {
        f"Add {a} and {label}.": a + b
        for a, (label, b) in itertools.product([1, 2, 3], [("ten", 10), ("twenty", 20)])
    }
    assert sums == expected


def test_grade_recall_maps_the_players_grade(deck: Deck) -> None:
    q = question(deck, "think", "recall")
    for rating, correct, name in [
        (1, False, "Again"),
        (2, True, "Hard"),
        (3, True, "Good"),
        (4, True, "Easy"),
    ]:
        grade = grade_recall(deck, q, rating)
        assert (grade.rating, grade.correct, grade.given) == (rating, correct, name)
        assert grade.right_answer == "Decode is memory-bound."
        assert grade.key_points == ("weights read once per step", "more tokens per read")
    assert grade_recall(deck, q, 3, "  my notes ").given == "my notes"
    for bad in (0, 5):
        with pytest.raises(ValueError):
            grade_recall(deck, q, bad)


@pytest.mark.parametrize(
    ("value", "unit", "text"),
    [
        (140, None, "140"),
        (140.0, "GB", "140 GB"),
        (0, None, "0"),
        (0.5, None, "0.5"),
        (3.5, "GB", "3.5 GB"),
        (1310720, None, "1,310,720"),
        (0.0312, None, "0.0312"),
        (1000, None, "1,000"),
        (100, None, "100"),
        (10, None, "10"),
        (3.14159, None, "3.142"),
        (-3.5, None, "-3.5"),
        (2 / 3, None, "0.6667"),
    ],
)
def test_format_number(value: float, unit: str | None, text: str) -> None:
    assert format_number(value, unit) == text


def test_formatted_answers_parse_back_and_are_graded_right(latency: Deck, deck: Deck) -> None:
    for d, item in [(latency, "weight-memory"), (deck, "sum")]:
        for seed in range(20):
            q = question(d, item, "calculation", seed)
            grade = grade_number(d, q, q.answer)
            assert grade is not None and grade.correct, q.answer


KV_DECK = """
format: 1
id: kv
title: KV
calculations:
  - id: kv-per-token
    prompt: >-
      For {model}, with the cache in {precision}, how many KiB does one token take
      in a {tokens}-token prompt after {wait} ms?
    given:
      model: {"Llama-3-70B (80 layers)": 80}
      precision: {"BF16 (2 bytes)": 2}
      tokens: [8000]
      wait: [18]
    answer: 2 * model * 8 * 128 * precision / 1024 ** 1 + wait * 0 + tokens - tokens
    unit: KiB
    explanation: Bytes per token = 2 x layers x KV heads x head dim x bytes per element.
"""


def test_a_worked_example_shows_labels_units_and_readable_notation() -> None:
    deck, problems = load_text(KV_DECK, "kv.yaml")
    assert deck is not None, problems
    q = question(deck, "kv-per-token", "calculation", 0)
    grade = grade_number(deck, q, "320")
    assert isinstance(grade, Grade) and grade.correct
    _, here, worked = grade.explanation.split("\n")
    assert here == (
        "Here: model = 80 for Llama-3-70B (80 layers); precision = 2 for BF16 (2 bytes); "
        "tokens = 8,000; wait = 18 ms."
    )
    assert worked == (
        "2 × model × 8 × 128 × precision ÷ 1024¹ + wait × 0 + tokens − tokens"
        " = 2 × 80 × 8 × 128 × 2 ÷ 1024¹ + 18 × 0 + 8,000 − 8,000 = 320 KiB."
    )
    for code in ("*", "**", " / "):
        assert code not in grade.explanation


@pytest.mark.parametrize(
    ("expression", "shown"),
    [
        ("model * tokens / 1024 ** 2", "model × tokens ÷ 1024²"),
        (
            "floor(budget * 1024 ** 3 / (dtype * tokens))",
            "floor(budget × 1024³ ÷ (dtype × tokens))",
        ),
        ("(1 - a ** (k + 1)) / (1 - a)", "(1 − a^(k + 1)) ÷ (1 − a)"),
        ("a - (b - c)", "a − (b − c)"),
        ("(a - b) - c", "a − b − c"),
        ("a / (b * c)", "a ÷ (b × c)"),
        ("(-x) ** 2", "(−x)²"),
        ("max(1, kv // tp)", "max(1, floor(kv ÷ tp))"),
    ],
)
def test_formulas_read_as_a_person_writes_them(expression: str, shown: str) -> None:
    assert calc.readable(expression, expression) == shown


@pytest.mark.parametrize(
    ("number", "article"),
    [("8000", "an"), ("18", "an"), ("100", "a"), ("11", "an"), ("80", "an"), ("800", "an"),
     ("8", "an"), ("11,000", "an"), ("2048", "a"), ("7", "a"), ("0.5", "a"), ("H100", None)],
)  # fmt: skip
def test_the_article_follows_how_a_number_is_spoken(number: str, article: str | None) -> None:
    assert article_for(number) == article


def test_a_prompt_gets_the_article_its_number_needs() -> None:
    deck, _ = load_text(KV_DECK, "kv.yaml")
    assert deck is not None
    prompt = question(deck, "kv-per-token", "calculation", 0).prompt
    assert "in an 8000-token prompt after 18 ms" in prompt


LEGACY = """
format: 1
id: metrics
title: Metrics
terms:
  - id: kv-usage
    term: KV cache usage gauge
    aliases: ["vllm:kv_cache_usage_perc"]
    legacy_names: ["vllm:gpu_cache_usage_perc"]
    version: vLLM metric names as of late 2025
    definition: The share of the pre-allocated KV-cache blocks in use.
  - id: running
    term: Running requests
    definition: Requests in the current batch.
"""


def test_a_legacy_name_is_accepted_with_a_note_and_the_version_shown() -> None:
    from vocabgame.kinds import build_question, grade
    from vocabgame.quiz import Typed

    deck, problems = load_text(LEGACY, "metrics.yaml")
    assert deck is not None, problems
    question = build_question(deck, FaceKey("metrics", "kv-usage", "typed"), random.Random(1))
    assert question.version == "vLLM metric names as of late 2025"
    verdict = grade(deck, question, Typed("vllm:gpu_cache_usage_perc"))
    assert verdict is not None and verdict.correct
    assert verdict.note == (
        "'vllm:gpu_cache_usage_perc' is its former name; today it is 'KV cache usage gauge'."
    )
    assert "Formerly: vllm:gpu_cache_usage_perc." in verdict.explanation
    current = grade(deck, question, Typed("vllm:kv_cache_usage_perc"))
    assert current is not None and current.correct and current.note is None
    other = build_question(deck, FaceKey("metrics", "running", "typed"), random.Random(1))
    assert other.version is None


def test_a_question_of_a_big_deck_draws_only_the_distractors_it_takes() -> None:
    """Choosing distractors in a deck of thousands of terms does not shuffle them all: a
    question draws about as many random numbers at 3,000 terms as at 300, and the draws are
    spread over the whole tier, never the term itself or the same term twice."""
    from benchmarks import big

    class Counted(random.Random):
        draws = 0

        def getrandbits(self, k: int) -> int:
            Counted.draws += 1
            return super().getrandbits(k)

    used: dict[int, int] = {}
    for items in (300, 3_000):
        deck, problems = load_text(big.deck_text(items), "big.yaml")
        assert deck is not None and not problems
        term = deck.terms[0]
        seen: set[str] = set()
        Counted.draws = 0
        for seed in range(100):
            rng = Counted(seed)
            q = question(deck, term.id, "definition", seed)
            picked = [t.id for t in itertools.islice(distractors(deck, term, rng), 6)]
            assert term.id not in picked and len(set(picked)) == len(picked) == 6
            assert q.answer == term.id and len(q.choices) == CHOICES_PER_QUESTION
            seen.update(picked)
        used[items] = Counted.draws
        assert len(seen) > 300 if items > 300 else len(seen) > 200  # spread over the tier
    assert used[3_000] <= used[300] * 1.2  # before: a shuffle of every term, 10x as many
