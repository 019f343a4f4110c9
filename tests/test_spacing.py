"""Spacing inside a round (vocabgame.play.spacing): one face per item, items that share a term
kept apart, decks and topics interleaved, and a missed face coming back well after it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from vocabgame.deck import Catalog, load_catalog, load_text
from vocabgame.model import Deck, FaceKey
from vocabgame.paths import builtin_decks_dir
from vocabgame.play import Session
from vocabgame.play.spacing import (
    TERM_GAP,
    one_face_per_item,
    retry_slot,
    space_round,
    traits_of,
)
from vocabgame.store import Store

START = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)

LOOKALIKES = """
format: 1
id: look
title: Look-alikes
terms:
  - {id: ttft, term: Time to first token, definition: Wait until the first token.}
  - {id: tpot, term: Time per output token, definition: Gap between later tokens.}
  - {id: goodput, term: Goodput, definition: Requests per second that meet the SLOs.}
confusables:
  - id: ttft-vs-tpot
    terms: [ttft, tpot]
    distinction: TTFT is the first wait; TPOT the pace after it.
    cues:
      - {text: The wait before anything appears, answer: ttft}
      - {text: The pace of the stream, answer: tpot}
scenarios:
  - id: blank-screen
    prompt: Users stare at a blank reply. Which metric?
    choices: [ttft, tpot, goodput]
    answer: ttft
    explanation: The wait before anything appears.
claims:
  - {id: c1, statement: TPOT includes TTFT., answer: false, explanation: It does not.}
  - {id: c2, statement: Goodput counts SLOs., answer: true, explanation: It does.}
  - {id: c3, statement: TTFT includes queueing., answer: true, explanation: It does.}
  - {id: c4, statement: Decode is compute-bound., answer: false, explanation: Memory-bound.}
"""


def deck(text: str) -> Deck:
    loaded, problems = load_text(text, "test.yaml")
    assert loaded is not None, problems
    return loaded


def claims(deck_id: str, n: int, tags: str = "") -> Deck:
    lines = [f"format: 1\nid: {deck_id}\ntitle: {deck_id}\nclaims:"]
    for i in range(n):
        tag = f", tags: [{tags}]" if tags else ""
        lines.append(
            f"  - {{id: c{i}, statement: Claim {i}., answer: true, explanation: Why {i}.{tag}}}"
        )
    return deck("\n".join(lines))


def k(deck_id: str, item: str, face: str) -> FaceKey:
    return FaceKey(deck_id, item, face)


def test_two_faces_of_one_item_are_never_in_one_plan() -> None:
    keys = [k("d", "a", "term"), k("d", "b", "claim"), k("d", "a", "typed"), k("e", "a", "x")]
    assert one_face_per_item(keys) == [keys[0], keys[1], keys[3]]


def test_a_plan_with_nothing_to_separate_keeps_its_order() -> None:
    facts = claims("facts", 6)
    keys = [k("facts", f"c{i}", "claim") for i in (3, 0, 5, 1, 4, 2)]
    assert space_round(keys, [facts]) == keys


def test_a_cue_is_not_asked_right_before_the_scenario_it_gives_away() -> None:
    look = deck(LOOKALIKES)
    cue = k("look", "ttft-vs-tpot", "cue-1")
    scenario = k("look", "blank-screen", "scenario")
    plan = [cue, scenario, *(k("look", f"c{i}", "claim") for i in range(1, 5))]
    order = space_round(plan, [look])
    assert sorted(order) == sorted(plan)
    assert order[0] == cue  # the plan's first question stays first
    assert order.index(scenario) - order.index(cue) > TERM_GAP
    # a term and the scenario offering it are kept apart just the same
    term = k("look", "goodput", "definition")
    order = space_round([term, scenario, *plan[2:]], [look])
    assert order.index(scenario) - order.index(term) > TERM_GAP


def test_an_all_decks_round_interleaves_decks_and_topics() -> None:
    a, b = claims("a", 4, tags="latency"), claims("b", 4, tags="memory")
    plan = [k("a", f"c{i}", "claim") for i in range(4)] + [
        k("b", f"c{i}", "claim") for i in range(4)
    ]
    order = space_round(plan, [a, b])
    assert [key.deck_id for key in order] == ["a", "b"] * 4
    # within one deck, items of different topics take turns too
    mixed = deck(
        "format: 1\nid: m\ntitle: M\nclaims:\n"
        + "".join(
            f"  - {{id: c{i}, statement: S{i}., answer: true, explanation: E., "
            f"tags: [{'kv' if i < 3 else 'batching'}]}}\n"
            for i in range(6)
        )
    )
    order = space_round([k("m", f"c{i}", "claim") for i in range(6)], [mixed])
    assert [key.item_id for key in order] == ["c0", "c3", "c1", "c4", "c2", "c5"]


def test_a_missed_face_does_not_come_back_next_to_an_item_sharing_its_terms() -> None:
    look = deck(LOOKALIKES)
    traits = traits_of([look])
    queue = [
        k("look", "c1", "claim"),
        k("look", "c2", "claim"),
        k("look", "blank-screen", "scenario"),
        k("look", "c3", "claim"),
        k("look", "c4", "claim"),
    ]
    missed = k("look", "ttft-vs-tpot", "cue-1")
    assert retry_slot(queue, 2, missed, traits) == 4  # not just before nor after the scenario
    assert retry_slot(queue, 1, missed, traits) == 1
    assert retry_slot(queue, 4, k("look", "c1", "claim"), traits) == 4


def make_session(tmp_path: Path, decks: list[Deck]) -> Session:
    store = Store.open(tmp_path / "vocabgame.db")
    return Session(store, Catalog(tuple(decks), ()), clock=lambda: START, tz=UTC, fuzz=False)


def test_a_missed_face_comes_back_after_five_other_questions(tmp_path: Path) -> None:
    session = make_session(tmp_path, [claims("facts", 12)])
    rnd = session.start_round(seed=1)
    first = rnd.question()
    assert first is not None
    outcome = rnd.answer_choice(
        next(i for i, c in enumerate(first.choices) if c.value != first.answer)
    )
    assert outcome.comes_back
    assert rnd.queue.index(first.key, 1) == 6  # five other questions in between
    session.close()


def test_in_a_short_round_a_missed_face_comes_back_at_the_end(tmp_path: Path) -> None:
    session = make_session(tmp_path, [claims("facts", 4)])
    rnd = session.start_round(seed=1)
    first = rnd.question()
    assert first is not None
    rnd.answer_choice(next(i for i, c in enumerate(first.choices) if c.value != first.answer))
    assert rnd.queue[-1] == first.key and len(rnd.queue) == 5
    session.close()


def test_rounds_of_the_built_in_decks_are_spaced(tmp_path: Path) -> None:
    catalog = load_catalog([builtin_decks_dir()])
    assert len(catalog.decks) > 1
    session = make_session(tmp_path, list(catalog.decks))
    session.change_settings(session.settings.changed(new_per_day=60))
    keys, _ = session.plan(None, 60)
    assert len(keys) == 60
    items = [(key.deck_id, key.item_id) for key in keys]
    assert len(set(items)) == len(items)  # one face per item
    assert all(a.deck_id != b.deck_id for a, b in zip(keys, keys[1:], strict=False))
    traits = traits_of(catalog.decks)
    for index, key in enumerate(keys):
        for before in keys[max(0, index - TERM_GAP) : index]:
            assert not traits(key).shares_terms(traits(before)), (before, key)
    session.close()
