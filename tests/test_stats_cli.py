"""`vocabgame stats` after a fortnight of scripted play (tests/fortnight.py): every figure
against numbers worked out by hand from the script, in the session and in `--json`."""

from __future__ import annotations

import functools
import json
from datetime import UTC, timedelta
from pathlib import Path

import pytest

import vocabgame.play
from vocabgame.cli import main
from vocabgame.deck import load_catalog
from vocabgame.deck.topics import topic_ids
from vocabgame.insights import Confusion, Tally
from vocabgame.play import Session
from vocabgame.play.overview import confusion_faces
from vocabgame.store import DB_NAME, Store

from .conftest import DATA
from .fortnight import END, START, play_fortnight
from .ui.conftest import Clock

DAY0 = START.date()
LEARN_SCORE = 10 + 12 + 14 + 16 + 18 + 20  # six right in a row: 10 points + 2 per streak


@pytest.fixture
def played(data_dir: Path) -> Clock:
    clock = Clock(START)
    session = Session(
        Store.open(data_dir / DB_NAME), load_catalog([DATA / "ui"]), clock=clock, tz=UTC, fuzz=False
    )
    play_fortnight(session, clock)
    session.close()
    return clock


@pytest.fixture
def stats_json(played: Clock, data_dir: Path, monkeypatch, capsys):
    """`vocabgame stats --json ARGS` read at the end of the fortnight."""
    monkeypatch.setattr(
        vocabgame.play,
        "open_session",
        functools.partial(vocabgame.play.open_session, clock=played, tz=UTC),
    )

    def run(*args: str) -> dict[str, object]:
        capsys.readouterr()
        code = main(
            ["stats", "--json", "--data-dir", str(data_dir), "--decks", str(DATA / "ui"), *args]
        )
        assert code == 0
        return json.loads(capsys.readouterr().out)

    return run


def test_the_fortnight_in_the_session(played: Clock, data_dir: Path) -> None:
    session = Session(
        Store.open(data_dir / DB_NAME),
        load_catalog([DATA / "ui"]),
        clock=played,
        tz=UTC,
        fuzz=False,
    )
    view = session.insights("serving")
    session.close()
    f = view.figures
    # Six items, one question each per round; the drill's typed face makes no card.
    assert (f.seen, f.total) == (6, 10)
    # 13 rounds of 6, the one-question round on day 12, and 2 drill answers on day 13.
    assert {d: n for d, n in f.daily if n} == {
        **{DAY0 + timedelta(days=d): 6 for d in [*range(8), *range(9, 12)]},
        DAY0 + timedelta(days=12): 7,
        DAY0 + timedelta(days=13): 8,
    }
    # Learned (graduated on day 1) from day 2: 11 rounds of 6, all right, and the lapse on
    # day 12; on day 13 the scenario was relearning, not learned; drills do not count.
    assert f.retention == Tally(65, 66)
    assert (f.streak_days, f.longest_streak) == (5, 8)  # days 9-13; days 0-7
    assert f.per_kind == {
        "calculation": Tally(13, 13),
        "pick the definition": Tally(26, 26),
        "recall": Tally(13, 13),
        "scenario": Tally(13, 14),
        "true or false": Tally(13, 14),
        "type the term": Tally(0, 1),
    }
    # Untagged items carry the deck's tags; 81 answers, the lapse and 2 drill answers wrong.
    assert f.per_tag == {"latency": Tally(78, 81), "metrics": Tally(78, 81)}
    assert f.confusions == (
        Confusion("serving", "Time to first token", "Time per output token", 1),
    )
    assert f.modes == {"review": LEARN_SCORE, "practice": LEARN_SCORE}
    assert [(w.key.item_id, w.lapses) for w, _ in view.weakest][:1] == [("blank-reply", 1)]
    assert [w.key.item_id for w, _ in view.weakest] == [
        "blank-reply",
        "tpot",
        "tpot-calc",
        "tpot-includes-ttft",
        "ttft",
        "two-metrics",
    ]
    assert [f.key.item_id for f in view.flagged] == ["blank-reply"]
    assert view.desired_retention == 0.9


def test_the_fortnight_in_stats_json(stats_json) -> None:
    out = stats_json("--deck", "serving")
    # Today's keys stay.
    assert (out["reviews"], out["rounds"], out["streak_days"], out["overrides"]) == (81, 14, 5, 0)
    assert [d["id"] for d in out["decks"]] == ["serving"]
    assert (out["scope"], out["seen"], out["total"]) == ("deck serving", 6, 10)
    assert out["retention"] == {"right": 65, "total": 66, "share": 0.9848, "desired": 0.9}
    assert out["forecast"][0] == {"day": END.date().isoformat(), "due": 0}
    assert len(out["forecast"]) == 14 and sum(d["due"] for d in out["forecast"]) == 0
    daily = {d["day"]: d["answers"] for d in out["daily"] if d["answers"]}
    assert sum(daily.values()) == 81 and daily[END.date().isoformat()] == 8
    assert len(daily) == 13 and (DAY0 + timedelta(days=8)).isoformat() not in daily
    assert out["longest_streak"] == 8
    assert out["per_tag"]["latency"] == {"right": 78, "total": 81, "share": 0.963}
    assert out["per_kind"]["true or false"] == {"right": 13, "total": 14, "share": 0.9286}
    assert out["per_kind"]["type the term"] == {"right": 0, "total": 1, "share": 0.0}
    assert out["weakest"][0]["label"].endswith("(scenario)") and out["weakest"][0]["lapses"] == 1
    assert out["confusions"] == [
        {
            "deck": "serving",
            "right": "Time to first token",
            "picked": "Time per output token",
            "times": 1,
        }
    ]
    assert out["modes"] == {"practice": LEARN_SCORE, "review": LEARN_SCORE}
    assert out["flagged"][0]["note"] == "the choices leak it"


def test_a_tag_narrows_the_figures(stats_json) -> None:
    everything = stats_json()
    latency = stats_json("--tag", "latency")
    in_deck = stats_json("--deck", "serving", "--tag", "latency")
    assert latency["scope"] == "tag latency"
    # Every question answered is in the serving deck, whose items carry its tag latency;
    # built-in decks tag some of their items latency too, and not all.
    assert (in_deck["seen"], in_deck["total"]) == (6, 10)
    assert latency["seen"] == 6 and 10 < latency["total"] < everything["total"]
    assert latency["reviews"] == everything["reviews"] == 81


def test_the_people_table_names_every_section(stats_json, capsys) -> None:
    stats_json()
    assert main(["stats", "--decks", str(DATA / "ui"), "--deck", "serving"]) == 0
    out = capsys.readouterr().out
    for heading in (
        "Stats: deck serving",
        "True retention",
        "Accuracy per tag",
        "Accuracy per kind",
        "Weakest questions",
        "Confusions",
        "Best score per mode",
        "Flagged questions",
    ):
        assert heading in out
    assert "98% (65/66)" in out and "desired 90%" in out


@pytest.mark.parametrize(
    ("args", "sentence"),
    [
        (["--deck", "nope"], "There is no deck with the id 'nope'; vocabgame decks lists them."),
        (["--tag", "nope"], "No item of the decks has the tag 'nope'."),
    ],
)
def test_an_unknown_deck_or_tag_is_one_sentence(args, sentence, capsys) -> None:
    assert main(["stats", "--decks", str(DATA / "ui"), *args]) == 1
    err = capsys.readouterr().err
    assert err.strip() == f"vocabgame: {sentence}"


def test_a_confusion_drill_asks_both_terms() -> None:
    catalog = load_catalog([DATA / "ui"])
    keys = confusion_faces(
        catalog.decks, Confusion("serving", "Time to first token", "Time per output token", 4)
    )
    assert [(k.item_id, k.face) for k in keys] == [
        ("ttft", "definition"),
        ("ttft", "term"),
        ("ttft", "typed"),
        ("tpot", "definition"),
        ("tpot", "term"),
        ("tpot", "typed"),
    ]


def test_the_documented_example_has_every_key(stats_json) -> None:
    doc = (Path(__file__).parents[1] / "docs" / "stats-json.md").read_text(encoding="utf-8")
    example = json.loads(doc.split("```json\n")[1].split("```")[0])
    out = stats_json("--deck", "serving")
    assert list(example) == list(out)
    for key in (
        "retention",
        "modes",
        "per_tag",
        "per_kind",
        "confusions",
        "flagged",
        "calibration",
    ):
        assert example[key] == out[key]
    assert list(example["weakest"][0]) == list(out["weakest"][0])
    # Every topic of the map, in its order; the two the example shows, as they are.
    assert list(out["topics"]) == list(topic_ids())
    for topic in example["topics"]:
        assert example["topics"][topic] == out["topics"][topic]


def test_stats_collects_garbage_rarely_while_it_reads_then_as_before(
    stats_json, monkeypatch
) -> None:
    """The stats read whole decks and many rows that reference counting frees: the collector
    runs every 100,000 new objects meanwhile (as for `validate`), and as before afterwards."""
    import gc

    seen: list[int] = []
    real = Session.stats

    def stats(self: Session, *args: object, **kwargs: object) -> object:
        seen.append(gc.get_threshold()[0])
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Session, "stats", stats)
    before = gc.get_threshold()
    assert stats_json()["reviews"] == 81
    assert seen and seen[0] >= 100_000 > before[0]
    assert gc.get_threshold() == before
