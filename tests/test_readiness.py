"""The interview date: the setting, the plan to the day (every chosen item started, what would
be forgotten brought forward) and the readiness figure, against a simulated learner."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from vocabgame.deck import Catalog, load_text
from vocabgame.model import Deck
from vocabgame.play import ModeId, Round, Session
from vocabgame.settings import SettingError, Settings, check_interview_date
from vocabgame.srs import PARAMETERS_KEY
from vocabgame.store import Store

from .learner import TRUE_PARAMETERS, Learner

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def recall_deck(n: int, deck_id: str = "prep", tags: str = "") -> Deck:
    """A deck of `n` recall items: one question each, graded by the one answering."""
    lines = [f"format: 1\nid: {deck_id}\ntitle: Prep {deck_id}\nrecall:"]
    for i in range(n):
        tag = f", tags: [{tags}]" if tags and i % 2 == 0 else ""
        lines.append(f"  - {{id: r{i:03d}, prompt: Say fact {i}., answer: Fact {i}.{tag}}}")
    deck, problems = load_text("\n".join(lines), f"{deck_id}.yaml")
    assert deck is not None, problems
    return deck


def session_for(
    tmp_path: Path, decks: list[Deck], now: list[datetime], **settings: object
) -> Session:
    store = Store.open(tmp_path / "vocabgame.db")
    store.conn.execute("PRAGMA synchronous=OFF")  # a test's store: no need to wait for the disk
    for name, value in settings.items():
        store.preferences.set(name, value)
    return Session(store, Catalog(tuple(decks), ()), clock=lambda: now[0], tz=UTC, fuzz=False)


def sitting(session: Session, learner: Learner, now: list[datetime]) -> int:
    """One sitting of learn rounds from `now[0]`: rounds until nothing is due or new, then the
    learning steps that fall due within the hour. Returns the answers given."""
    given, end = 0, now[0] + timedelta(hours=1)
    while now[0] < end:
        rnd = session.start(ModeId.LEARN)
        if not isinstance(rnd, Round) or rnd.mode != ModeId.LEARN:
            now[0] += timedelta(minutes=5)  # a learning step may fall due meanwhile
            continue
        while (question := rnd.question()) is not None:
            rnd.answer_recall(learner.rating(question.key, now[0]))
            given += 1
            now[0] += timedelta(seconds=10)
            rnd.advance()
        rnd.finish()
    return given


def test_ten_days_to_an_interview_see_every_item_and_readiness_matches_the_learner(
    tmp_path: Path,
) -> None:
    """300 items never seen, an interview 10 days out, one sitting a day: every item is seen
    before the day, and the readiness on the day is within 0.05 of the recall the learner's
    true memory gives (its parameters are the scheduler's, as a kept fit makes them)."""
    now = [START]
    day = (START + timedelta(days=10)).date()
    fitted = {
        "history": [{"since": "2026-01-01T00:00:00+00:00", "parameters": list(TRUE_PARAMETERS)}]
    }
    session = session_for(
        tmp_path,
        [recall_deck(300)],
        now,
        interview_date=day.isoformat(),
        **{PARAMETERS_KEY: fitted},
    )
    learner = Learner(seed=11)
    for n in range(10):
        now[0] = START + timedelta(days=n)
        ready = session.interview.readiness()
        assert ready is not None and ready.days_left == 10 - n
        sitting(session, learner, now)
    ready = session.interview.readiness()
    assert ready is not None and ready.unseen_items == 0 and ready.unseen == 0
    now[0] = datetime.combine(day, datetime.min.time(), UTC) + timedelta(hours=8)
    on_day = session.interview.readiness()
    assert on_day is not None and on_day.days_left == 0
    moment = datetime.combine(day, datetime.min.time(), UTC)
    keys = [k for k in learner.memory]
    expected = sum(learner.recall(k, moment) for k in keys) / 300
    drawn = sum(learner.rng.random() < learner.recall(k, moment) for k in keys) / 300
    assert abs(on_day.overall - drawn) <= 0.05
    assert abs(on_day.overall - expected) <= 0.05


async def test_home_shows_the_interview_line(tmp_path: Path) -> None:
    """Home names the day, the days left, the items not seen, today's share and readiness."""
    from vocabgame.ui.app import VocabApp

    from .ui.conftest import screen_text

    now = [START]
    day = (START + timedelta(days=4)).date().isoformat()
    session = session_for(tmp_path, [recall_deck(12)], now, interview_date=day)
    app = VocabApp(session, seed=7, settle_seconds=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        text = screen_text(app)
    session.close()
    assert f"Interview {day}, in 4 days: ready 0% (target 90%)" in text
    assert "12 items not seen yet · today 3 new items, 0 brought forward" in text


def test_the_interview_settings_refuse_what_they_cannot_be(tmp_path: Path, capsys) -> None:
    from vocabgame.cli import main

    for bad in ("2026-02-30", "next thursday", "20261220"):
        with pytest.raises(SettingError, match="is not a date written like 2026-12-20"):
            Settings().changed(interview_date=bad)
    with pytest.raises(SettingError, match="has a space in it"):
        Settings().changed(interview_tags="kv cache")
    with pytest.raises(SettingError, match="is in the past"):
        check_interview_date("2026-03-01", date(2026, 3, 2))
    check_interview_date("2026-03-02", date(2026, 3, 2))  # the day itself is still to come
    assert Settings().changed(interview_decks=" serving, kv-cache,,").interview_decks == (
        "serving,kv-cache"
    )
    data = ["settings", "--data-dir", str(tmp_path / "data")]
    assert main([*data, "--interview-date", "2000-01-01"]) == 2
    err = capsys.readouterr().err.strip()
    assert "interview date 2000-01-01 is in the past" in err and "\n" not in err
    assert main([*data, "--interview-date", "2099-12-20", "--interview-target", "0.95"]) == 0
    out = capsys.readouterr().out
    assert "interview date     2099-12-20" in out and "interview target   0.95" in out
    assert "interview decks    (not set)" in out
    assert main([*data, "--interview-date", ""]) == 0  # empty: no interview
    assert "interview date     (not set)" in capsys.readouterr().out
    assert main([*data, "--interview-target", "1.5"]) == 2
    assert "outside 0.5 to 0.99" in capsys.readouterr().err


def test_a_past_day_ends_the_plan_and_the_rounds_are_as_without_one(tmp_path: Path) -> None:
    """After the day: no readiness, and the learn round is the one with no date set."""
    now = [START]
    deck = recall_deck(60)
    with_date = session_for(tmp_path / "a", [deck], now, interview_date="2026-03-01")
    without = session_for(tmp_path / "b", [deck], now)
    assert with_date.interview.readiness() is None
    assert with_date.plan(None, 50) == without.plan(None, 50)
    assert with_date.new_left_today() == without.new_left_today() == 20


def test_new_items_are_spread_over_the_days_left_tagged_ones_first(tmp_path: Path) -> None:
    """100 items, 50 tagged core, two days to go: today's limit rises from 20 to 25 for the
    tagged items alone, and a round starts those first."""
    now = [START]
    day = (START + timedelta(days=2)).date().isoformat()
    deck = recall_deck(100, tags="core")
    session = session_for(tmp_path, [deck], now, interview_date=day, interview_tags="core")
    assert session.new_left_today() == 25
    kept = session.store.conn.execute("SELECT * FROM item_orders").fetchall()
    keys, mode = session.plan(None, 30)
    # the deck's kept order of new items is the whole deck's still: planning wrote nothing
    assert session.store.conn.execute("SELECT * FROM item_orders").fetchall() == kept
    assert mode == ModeId.LEARN and len(keys) == 25
    assert all(int(k.item_id[1:]) % 2 == 0 for k in keys)  # the tagged ones
    ready = session.interview.readiness()
    assert ready is not None and (ready.items, ready.unseen_items, ready.new_today) == (50, 50, 25)
    assert ready.by_tag == {"core": 0.0}


def test_the_last_day_brings_forward_what_would_fall_below_the_target(tmp_path: Path) -> None:
    """Items answered Easy fall due after the day, but their recall on it is below a target
    of 0.99: the last day before the interview asks them again, while the same store without
    an interview has nothing due; planning alone leaves every card as it was."""
    now = [START]
    day = (START + timedelta(days=3)).date().isoformat()
    session = session_for(tmp_path, [recall_deck(5)], now)
    rnd = session.start(ModeId.LEARN)
    assert isinstance(rnd, Round)
    while rnd.question() is not None:
        rnd.answer_recall(4)
        rnd.advance()
    now[0] = START + timedelta(days=2)
    assert session.plan(None, 20)[1] == ModeId.PRACTICE  # nothing due: practice
    before = session.store.schedules.cards()
    session.change_settings(session.settings.changed(interview_date=day, interview_target=0.99))
    keys, mode = session.plan(None, 20)
    assert mode == ModeId.LEARN and len(keys) == 5
    ready = session.interview.readiness()
    assert ready is not None and ready.below_target == 5 and ready.advance_today == 5
    assert session.store.schedules.cards() == before
    assert "5 brought forward" in session.home().today()
    # the same faces as fsrs's own retrievability at the day's start says
    moment = datetime.combine(date.fromisoformat(day), datetime.min.time(), UTC)
    below = {k for k, c in before.items() if session.srs.retrievability(c, moment) < 0.99}
    assert set(keys) == below
    # an item taken out of the deck counts no more: neither asked nor in the readiness
    session.catalog = Catalog((recall_deck(3),), ())
    ready = session.interview.readiness()
    assert ready is not None and (ready.questions, ready.unseen, ready.advance_today) == (3, 0, 3)
    expected = sum(session.srs.retrievability(before[k], moment) for k in sorted(before)[:3]) / 3
    assert abs(ready.overall - expected) < 1e-9


def test_stats_json_carries_the_readiness_with_the_documented_keys(tmp_path: Path, capsys) -> None:
    import json

    from vocabgame.cli import main

    from .conftest import DATA

    data = ["--data-dir", str(tmp_path / "data")]
    decks = ["--decks", str(DATA / "ui")]
    assert main(["stats", "--json", *data, *decks]) == 0
    assert json.loads(capsys.readouterr().out)["readiness"] is None
    assert (
        main(
            [
                "settings",
                *data,
                "--interview-date",
                "2099-12-20",
                "--interview-decks",
                "serving,gone",
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert main(["stats", "--json", *data, *decks]) == 0
    ready = json.loads(capsys.readouterr().out)["readiness"]
    doc = (Path(__file__).parents[1] / "docs" / "stats-json.md").read_text(encoding="utf-8")
    example = json.loads(doc.split("```json\n")[2].split("```")[0])
    assert list(ready) == list(example) and list(ready["today"]) == list(example["today"])
    assert ready["date"] == "2099-12-20" and ready["overall"] == 0.0
    assert ready["unseen"] == ready["questions"] > 0 and ready["missing_decks"] == ["gone"]
    assert set(ready["by_tag"]) and all(share == 0.0 for share in ready["by_tag"].values())
    assert main(["stats", *data, *decks]) == 0
    line = capsys.readouterr().out
    assert "Interview 2099-12-20, in " in line and "· not installed: gone" in line


async def test_the_settings_screen_refuses_a_past_day_and_keeps_a_new_one(tmp_path: Path) -> None:
    from textual.widgets import Input

    from vocabgame.ui.app import VocabApp
    from vocabgame.ui.screens.settings import SettingsScreen

    now = [START]
    session = session_for(tmp_path, [recall_deck(3)], now)
    app = VocabApp(session, seed=7, settle_seconds=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.push_screen(SettingsScreen())
        await pilot.pause()
        field = app.screen.query_one("#set-interview_date", Input)
        field.value = "2026-03-01"  # the day before the clock's
        app.screen.action_save()  # type: ignore[attr-defined]
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen) and session.settings.interview_date == ""
        field.value = "2026-03-20"
        app.screen.action_save()  # type: ignore[attr-defined]
        await pilot.pause()
        assert not isinstance(app.screen, SettingsScreen)
    session.close()
    assert session.settings.interview_date == "2026-03-20"
