"""Levels, topics and common mistakes: read from deck files and checked, rounds filtered by
level, the mistake carried to the feedback and the interview report, coverage per topic."""

from __future__ import annotations

from pathlib import Path

import pytest

from vocabgame.cli import main
from vocabgame.deck import load_deck, load_text
from vocabgame.deck.topics import topic_ids, topic_map
from vocabgame.kinds import build_question, faces, grade_recall
from vocabgame.model import LEVELS, levels_label, parse_levels
from vocabgame.play import Selection
from vocabgame.play.modes import ModeId
from vocabgame.play.modes.interview import Interview, markdown
from vocabgame.quiz import Kind
from vocabgame.stats import TopicStats, topic_coverage

from .conftest import DATA
from .test_session import START, Now, answer, make_session

LEVELLED = DATA / "levels" / "levelled.yaml"
TEXT = LEVELLED.read_text(encoding="utf-8")
MISTAKE = (
    "Says batching makes each request's own tokens come faster; it raises the tokens per "
    "second of the whole server, while each request's pace stays or slows."
)


@pytest.fixture
def now() -> Now:
    return [START]


def problems(text: str, strict: bool = False) -> list[str]:
    return [str(p) for p in load_text(text, "d.yaml", strict=strict)[1]]


# -- reading --------------------------------------------------------------------------------------


def test_levels_topics_and_the_mistake_are_read() -> None:
    deck = load_deck(LEVELLED)
    assert dict(deck.levels) == {
        "prefill": "L3",
        "decode": "L3",
        "kv-cache": "L4",
        "why-batch-decode": "L5",
        "kv-cache-shrinks": "L4",
    }
    assert deck.topics["kv-cache-shrinks"] == "kv-cache"
    assert deck.topics["why-batch-decode"] == "batching-scheduling"
    assert deck.recall[0].mistake == MISTAKE
    assert deck.level_counts() == {"L3": 2, "L4": 2, "L5": 1}
    assert problems(TEXT, strict=True) == []


def test_an_item_without_them_is_still_a_deck_item() -> None:
    text = TEXT.replace(
        "    level: L3\n    topic: batching-scheduling\n    term: Prefill", "    term: Prefill"
    )
    deck, found = load_text(text, "d.yaml", strict=True)
    assert deck is not None and found == []
    assert "prefill" not in deck.levels and "prefill" not in deck.topics
    assert deck.level_counts()["-"] == 1


@pytest.mark.parametrize(
    ("level", "message"),
    [
        ("L7", "d.yaml:13:12: error: level 'L7' is not one of L3, L4, L5, L6"),
        ("l4", "d.yaml:13:12: error: level 'l4' is not one of L3, L4, L5, L6 (did you mean 'L4'?)"),
        ("L3-L4", "d.yaml:13:12: error: level 'L3-L4' is not one of L3, L4, L5, L6"),
        ("4", "d.yaml:13:12: error: level 4 is not one of L3, L4, L5, L6"),
        ("[L3, L4]", "d.yaml:13:12: error: level a list is not one of L3, L4, L5, L6"),
        ("", "d.yaml:13:11: error: level is empty; write one of L3, L4, L5, L6"),
    ],
)
def test_a_bad_level_is_an_error_at_its_place(level: str, message: str) -> None:
    text = TEXT.replace("    level: L3\n", f"    level: {level}\n", 1)
    found = problems(text)
    assert found == [message]


def test_a_topic_must_be_a_slug() -> None:
    text = TEXT.replace("topic: kv-cache\n", "topic: KV Cache\n", 1)
    [found] = problems(text)
    assert found.startswith("d.yaml:26:12: error: topic 'KV Cache' is not a slug")


def test_a_topic_outside_the_map_is_a_strict_warning_only() -> None:
    text = TEXT.replace("topic: kv-cache\n", "topic: kv-cach\n", 1)
    assert problems(text) == []  # a user's deck may name topics of its own
    assert problems(text, strict=True) == [
        "d.yaml:26:12: warning: topic 'kv-cach' is not in the topic map (did you mean 'kv-cache'?)"
    ]
    text = TEXT.replace("topic: kv-cache\n", "topic: cooking\n", 1)
    [found] = problems(text, strict=True)
    assert found.startswith("d.yaml:26:12: warning: topic 'cooking' is not in the topic map; ")
    assert "the topics are latency-metrics, throughput-capacity," in found


def test_an_empty_mistake_is_an_error() -> None:
    text = TEXT.replace(
        "    mistake: >-\n      Says batching makes each request's own tokens come faster; it raises the tokens per\n"
        "      second of the whole server, while each request's pace stays or slows.\n",
        "    mistake: ''\n",
    )
    [found] = problems(text)
    assert "error: mistake is empty" in found


def test_the_topic_map_is_package_data_with_slug_ids() -> None:
    ids = topic_ids()
    assert len(ids) >= 23 and ids[0] == "latency-metrics" and "engines" in ids
    assert all(topic_map()[t].strip() for t in ids)
    import re

    assert all(re.fullmatch(r"[a-z0-9][a-z0-9-]*", t) for t in ids)


# -- levels named on the command line -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "levels"),
    [
        ("L4", ("L4",)),
        ("l4", ("L4",)),
        ("L3-L4", ("L3", "L4")),
        ("L5-L3", ("L3", "L4", "L5")),
        ("L3,L5", ("L3", "L5")),
        (" L6 , L3-L4 ", ("L3", "L4", "L6")),
    ],
)
def test_levels_are_one_a_range_or_a_list(text: str, levels: tuple[str, ...]) -> None:
    assert parse_levels(text) == levels


@pytest.mark.parametrize("text", ["L7", "L3-", "4", "", "L3-L9", "senior"])
def test_anything_else_is_one_sentence(text: str) -> None:
    with pytest.raises(ValueError, match="is not a level or a range of levels; levels are L3"):
        parse_levels(text)


def test_levels_are_labelled_as_a_player_writes_them() -> None:
    assert levels_label(("L3", "L4", "L5")) == "L3-L5"
    assert levels_label(("L3", "L5")) == "L3, L5"
    assert levels_label(("L6",)) == "L6"
    assert levels_label(()) == "every level"
    assert LEVELS == ("L3", "L4", "L5", "L6")


def test_play_level_is_checked_before_the_game_opens(tmp_path: Path, capsys) -> None:
    args = ["--data-dir", str(tmp_path / "data"), "play", "--decks", str(LEVELLED.parent)]
    with pytest.raises(SystemExit) as caught:
        main([*args, "--level", "L9"])
    assert caught.value.code == 2
    assert "argument --level: 'L9' is not a level or a range of levels" in capsys.readouterr().err
    # no item of that level in the deck: said before the screen is needed
    assert main([*args, "--deck", "levelled", "--level", "L6"]) == 2
    err = capsys.readouterr().err
    assert "no item is of level L6; vocabgame decks lists each deck's tags and levels" in err


def test_play_help_says_how_to_write_a_range(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--level LEVEL" in out and "a range such as L3-L4" in out


# -- rounds of some levels ------------------------------------------------------------------------


def test_a_round_of_some_levels_asks_only_their_items(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [load_deck(LEVELLED)], now)
    keys, _ = session.plan(None, 50, ModeId.CRAM, levels=("L4",))
    assert {k.item_id for k in keys} == {"kv-cache", "kv-cache-shrinks"}
    keys, _ = session.plan("levelled", 50, ModeId.CRAM, levels=("L3", "L5"))
    assert {k.item_id for k in keys} == {"prefill", "decode", "why-batch-decode"}
    with pytest.raises(ValueError, match="no item is of level L6"):
        session.plan(None, 5, ModeId.CRAM, levels=("L6",))
    rnd = session.start("cram", Selection("levelled", levels=("L3", "L4"), seed=1))
    assert rnd is not None and rnd.title == "Levelled basics · L3-L4"
    assert rnd.deck_id is None  # kept as all decks, as a tagged round is
    answer(rnd, True)  # a question of a filtered deck builds from the whole deck


def test_an_interview_of_one_level_asks_only_it(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [load_deck(LEVELLED)], now)
    interview = session.start("interview", Selection("levelled", levels=("L5",), seed=1))
    assert isinstance(interview, Interview)
    assert {k.item_id for k in interview.round.queue} == {"why-batch-decode"}


def test_a_drill_and_a_challenge_take_the_levels_too(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [load_deck(LEVELLED)], now)
    challenge = session.start("challenge", Selection("levelled", levels=("L4",), seed=1))
    assert challenge is not None
    assert {k.item_id for k in challenge.round.queue} == {"kv-cache-shrinks"}
    assert challenge.table_key == "levelled L4"  # its own table of best runs


# -- the common mistake ---------------------------------------------------------------------------


def test_the_mistake_is_on_the_recall_question_and_its_grade() -> None:
    deck = load_deck(LEVELLED)
    [key] = [k for k in faces(deck) if k.item_id == "why-batch-decode"]
    import random

    question = build_question(deck, key, random.Random(1))
    assert question.kind == Kind.RECALL and question.mistake == MISTAKE
    assert grade_recall(deck, question, 3).mistake == MISTAKE


def _interview_at_grading(tmp_path: Path, now: Now) -> Interview:
    session = make_session(tmp_path, [load_deck(LEVELLED)], now)
    interview = session.start("interview", Selection("levelled", levels=("L5",), seed=1))
    assert isinstance(interview, Interview)
    interview.answer_text("more requests share each weight read")
    return interview


def test_the_report_lists_the_mistakes_the_answers_made(tmp_path: Path, now: Now) -> None:
    interview = _interview_at_grading(tmp_path, now)
    report = interview.finish({0: [0, 1]}, made=[0])
    [q] = report.body["questions"]
    assert (q["mistake"], q["made_mistake"]) == (MISTAKE, True)
    assert report.body["mistakes_made"] == [0]
    text = markdown(report)
    assert f"Common mistake (your answer made it): {MISTAKE}" in text
    assert "## Common mistakes your answers made" in text
    assert f"- {MISTAKE} (Why does running many requests together" in text
    assert interview.asked[0].outcome.grade.rating == 3  # the ticks alone grade: all, Good
    assert report.body["levels"] == ["L5"] and "- Levels: L5\n" in text


def test_a_mistake_avoided_is_shown_but_not_listed(tmp_path: Path, now: Now) -> None:
    interview = _interview_at_grading(tmp_path, now)
    report = interview.finish({0: [0]})
    assert report.body["questions"][0]["made_mistake"] is False
    assert report.body["mistakes_made"] == []
    text = markdown(report)
    assert f"Common mistake: {MISTAKE}" in text
    assert "Common mistakes your answers made" not in text


# -- coverage per topic ---------------------------------------------------------------------------


def test_coverage_per_topic_counts_items_questions_seen_and_due(tmp_path: Path, now: Now) -> None:
    deck = load_deck(LEVELLED)
    session = make_session(tmp_path, [deck], now)
    rnd = session.start("learn", Selection("levelled", levels=("L4",), size=10, seed=1))
    assert rnd is not None
    while rnd.question() is not None:
        answer(rnd, True)
        rnd.advance()
    coverage = topic_coverage(session.store, [deck], now[0])
    assert list(coverage)[: len(topic_ids())] == list(topic_ids())
    # kv-cache: a term (three faces) and a claim (one); a round asks one face of each
    assert coverage["kv-cache"] == TopicStats(items=2, total=4, seen=2, learned=0, due=0)
    assert coverage["batching-scheduling"] == TopicStats(3, 7, 0, 0, 0)
    assert coverage["engines"] == TopicStats(0, 0, 0, 0, 0)
    now[0] = START.replace(year=START.year + 1)  # a year on, everything is due
    assert topic_coverage(session.store, [deck], now[0])["kv-cache"].due == 2


def test_a_topic_outside_the_map_comes_after_the_maps(tmp_path: Path, now: Now) -> None:
    text = TEXT.replace("topic: kv-cache\n", "topic: cooking\n", 1)
    deck, _ = load_text(text, "d.yaml")
    assert deck is not None
    session = make_session(tmp_path, [deck], now)
    coverage = topic_coverage(session.store, [deck], now[0])
    assert list(coverage)[-1] == "cooking" and coverage["cooking"].items == 1


def test_the_deck_list_counts_items_per_level(tmp_path: Path, capsys) -> None:
    import json

    text = TEXT.replace(
        "    level: L3\n    topic: batching-scheduling\n    term: Prefill", "    term: Prefill"
    )
    (tmp_path / "d.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "plain.yaml").write_text(
        "format: 1\nid: plain\ntitle: Plain\nterms:\n  - {id: a, term: A, definition: The A.}\n",
        encoding="utf-8",
    )
    args = ["--data-dir", str(tmp_path / "data"), "decks", "--decks", str(tmp_path)]
    assert main(args) == 0
    # each deck: its id and title, then its indented lines (the built-in decks are listed too)
    blocks: dict[str, list[str]] = {}
    for line in capsys.readouterr().out.splitlines():
        if not line.startswith(" "):
            blocks[line.split()[0]] = []
        else:
            blocks[list(blocks)[-1]].append(line)
    assert blocks["levelled"][1] == "    levels: 1 L3, 2 L4, 1 L5, 1 with no level"
    assert len(blocks["plain"]) == 2  # a deck without levels keeps its two lines
    assert main([*args, "--json"]) == 0
    rows = {row["id"]: row for row in json.loads(capsys.readouterr().out)}
    assert rows["levelled"]["levels"] == {"L3": 1, "L4": 2, "L5": 1, "-": 1}
    assert rows["plain"]["levels"] == {}
