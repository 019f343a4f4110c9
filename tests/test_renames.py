"""Renames keep progress: an item or a deck lists its old ids under `formerly`, and the
progress recorded under them is carried to the new id once, the first time the renamed deck
is loaded. An old id that is still a live id is refused."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from vocabgame.deck import load_catalog, load_text
from vocabgame.play import Session
from vocabgame.store import DB_NAME, Store

from .faults import answer_right, items_problems

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def deck(
    deck_id: str = "facts", ids: tuple[str, str] = ("kv-halves", "tp-splits"), extra: str = ""
) -> str:
    first, second = ids
    return f"""\
format: 1
id: {deck_id}
title: Facts
{extra}claims:
  - id: {first}
    statement: FP8 KV cache halves its memory next to FP16.
    answer: true
    explanation: One byte per value instead of two.
  - id: {second}
    statement: Tensor parallelism splits each layer across GPUs.
    answer: true
    explanation: Each GPU holds a slice of every layer's weights.
"""


def play(folder: Path, decks: Path, answers: int) -> list[str]:
    """Open the game on `decks`, answer some questions, and return the start-up notices."""
    session = Session(Store.open(folder / DB_NAME), load_catalog([decks]), clock=lambda: NOW)
    notices = list(session.notices)
    if answers:
        round_ = session.start_round(session.catalog.decks[0].id, size=answers, seed=1)
        assert round_ is not None
        for _ in range(answers):
            answer_right(round_)
            round_.advance()
        round_.finish()
    session.close()
    return notices


def progress(folder: Path) -> dict[str, list[tuple[str, str]]]:
    with Store.open(folder / DB_NAME) as store:
        return {
            table: sorted(store.conn.execute(f"SELECT deck_id, item_id FROM {table}").fetchall())
            for table in ("cards", "reviews")
        }


def test_an_old_id_that_is_still_live_is_refused_at_its_line() -> None:
    text = deck(ids=("kv-halves", "tp-splits")).replace(
        "  - id: tp-splits\n", "  - id: tp-splits\n    formerly: [kv-halves]\n"
    )
    loaded, problems = load_text(text, "facts.yaml")
    assert loaded is None
    [problem] = problems
    assert (problem.line, problem.col) == (10, 16)
    assert (
        "old id 'kv-halves' of 'tp-splits' is also the id of the item at line 5" in problem.message
    )


def test_two_items_cannot_claim_one_old_id_and_a_deck_cannot_list_itself() -> None:
    text = (
        deck(extra="formerly: [facts]\n")
        .replace("  - id: kv-halves\n", "  - id: kv-halves\n    formerly: [old]\n")
        .replace("  - id: tp-splits\n", "  - id: tp-splits\n    formerly: [old]\n")
    )
    _, problems = load_text(text, "facts.yaml")
    messages = [p.message for p in problems]
    assert any("already claimed by 'kv-halves'" in m for m in messages), messages
    assert any("formerly lists the deck's own id 'facts'" in m for m in messages), messages


def test_a_renamed_item_keeps_its_progress_carried_exactly_once(tmp_path: Path) -> None:
    decks, data = tmp_path / "decks", tmp_path / "data"
    decks.mkdir()
    (decks / "facts.yaml").write_text(deck(), encoding="utf-8")
    assert play(data, decks, answers=2) == []
    before = progress(data)
    assert {item for _, item in before["reviews"]} == {"kv-halves", "tp-splits"}

    renamed = deck(ids=("fp8-kv-halves", "tp-splits")).replace(
        "  - id: fp8-kv-halves\n", "  - id: fp8-kv-halves\n    formerly: [kv-halves]\n"
    )
    (decks / "facts.yaml").write_text(renamed, encoding="utf-8")
    notices = play(data, decks, answers=0)
    assert notices == [
        "Progress on 'kv-halves' in deck 'facts' was carried to its new id 'fp8-kv-halves'."
    ]
    after = progress(data)
    assert after["reviews"] == sorted(
        ("facts", "fp8-kv-halves" if item == "kv-halves" else item) for _, item in before["reviews"]
    )
    assert ("facts", "kv-halves") not in after["cards"]
    assert items_problems(data / DB_NAME) == []
    # Once: the next start carries nothing and says nothing, even when the old id has
    # gained progress since (an old copy of the deck played from another folder).
    old_copy = tmp_path / "old-copy"
    old_copy.mkdir()
    (old_copy / "facts.yaml").write_text(deck(), encoding="utf-8")
    play(data, old_copy, answers=1)
    again = progress(data)
    assert ("facts", "kv-halves") in again["reviews"]
    assert play(data, decks, answers=0) == []
    assert progress(data) == again
    # The carried card is the one the schedule knows: the item is not new again.
    session = Session(Store.open(data / DB_NAME), load_catalog([decks]), clock=lambda: NOW)
    assert session.home().decks[0].new == 0
    session.close()


def test_a_renamed_deck_keeps_its_rounds_and_progress(tmp_path: Path) -> None:
    decks, data = tmp_path / "decks", tmp_path / "data"
    decks.mkdir()
    (decks / "facts.yaml").write_text(deck(), encoding="utf-8")
    play(data, decks, answers=2)
    (decks / "facts.yaml").write_text(
        deck(deck_id="serving-facts", extra="formerly: [facts]\n"), encoding="utf-8"
    )
    notices = play(data, decks, answers=0)
    assert notices == ["Progress on deck 'facts' was carried to its new id 'serving-facts'."]
    after = progress(data)
    assert {d for d, _ in after["reviews"] + after["cards"]} == {"serving-facts"}
    assert items_problems(data / DB_NAME) == []
    with Store.open(data / DB_NAME) as store:
        assert store.scoreboard.best_scores().get("serving-facts") is not None


def test_progress_is_never_merged_into_a_new_id_that_has_its_own(tmp_path: Path) -> None:
    decks, data = tmp_path / "decks", tmp_path / "data"
    decks.mkdir()
    both = deck(ids=("kv-halves", "tp-splits"))
    (decks / "facts.yaml").write_text(both, encoding="utf-8")
    play(data, decks, answers=2)
    # tp-splits now claims kv-halves' history while having its own: kept apart, said so.
    text = deck(ids=("kv-fp8", "tp-splits")).replace(
        "  - id: tp-splits\n", "  - id: tp-splits\n    formerly: [kv-halves]\n"
    )
    (decks / "facts.yaml").write_text(text, encoding="utf-8")
    [notice] = play(data, decks, answers=0)
    assert "was kept apart" in notice
    assert ("facts", "kv-halves") in progress(data)["reviews"]


def test_a_deck_claiming_a_live_decks_id_is_refused_in_the_catalog(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(deck(deck_id="alpha"), encoding="utf-8")
    (tmp_path / "b.yaml").write_text(
        deck(deck_id="beta", extra="formerly: [alpha]\n"), encoding="utf-8"
    )
    catalog = load_catalog([tmp_path])
    beta = catalog.get("beta")
    assert beta is not None and beta.formerly == ()
    assert any("formerly lists 'alpha'" in p.message for p in catalog.problems)


def test_edited_deck_files_are_noticed_reloaded_and_keep_progress(tmp_path: Path) -> None:
    decks, data = tmp_path / "decks", tmp_path / "data"
    decks.mkdir()
    path = decks / "facts.yaml"
    path.write_text(deck(), encoding="utf-8")
    session = Session(Store.open(data / DB_NAME), load_catalog([decks]), clock=lambda: NOW)
    try:
        round_ = session.start_round("facts", size=1, seed=1)
        assert round_ is not None
        answer_right(round_)
        answered = round_.question()
        assert answered is not None
        assert not session.catalog.changed() and not session.reload_decks()

        reworded = deck().replace("halves its memory", "cuts its memory in half")
        path.write_text(reworded, encoding="utf-8")
        (decks / "broken.yaml").write_text("format: 1\nid: broken\n", encoding="utf-8")
        assert session.catalog.changed()
        assert session.reload_decks()
        facts = session.catalog.get("facts")
        assert facts is not None and "cuts its memory in half" in facts.claims[0].statement
        # The answered face is still answered: progress is keyed by ids, not wording.
        assert answered.key in session.store.schedules.keys()  # noqa: SIM118 (a part, not a dict)
        problems = session.home().problems
        assert any("broken.yaml" in p and "title" in p for p in problems), problems
        assert not session.reload_decks()  # nothing changed since
    finally:
        session.close()


def test_a_face_flagged_under_both_ids_keeps_one_flag_when_carried(tmp_path: Path) -> None:
    from vocabgame.model import FaceKey

    decks, data = tmp_path / "decks", tmp_path / "data"
    decks.mkdir()
    (decks / "facts.yaml").write_text(deck(), encoding="utf-8")
    play(data, decks, answers=2)
    with Store.open(data / DB_NAME) as store:
        store.face_flags.add(FaceKey("facts", "kv-halves", "claim"), NOW, "old note")
        store.face_flags.add(
            FaceKey("facts", "fp8-kv-halves", "claim"), NOW, "flagged before the rename"
        )
    renamed = deck(ids=("fp8-kv-halves", "tp-splits")).replace(
        "  - id: fp8-kv-halves\n", "  - id: fp8-kv-halves\n    formerly: [kv-halves]\n"
    )
    (decks / "facts.yaml").write_text(renamed, encoding="utf-8")
    assert len(play(data, decks, answers=0)) == 1  # carried, not refused
    with Store.open(data / DB_NAME) as store:
        assert [(k.item_id, note) for k, _, note in store.face_flags.all()] == [
            ("fp8-kv-halves", "flagged before the rename")
        ]
