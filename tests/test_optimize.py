"""`vocabgame optimize`: the scheduler fitted to the player's answers, kept only when it
predicts them better, and used from then on."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path

import pytest
from fsrs import Rating, Scheduler
from fsrs_rs_python import FSRSItem, FSRSReview, evaluate_with_time_series_splits

from tests.learner import TRUE_PARAMETERS, simulate
from vocabgame.check import run, srs_for
from vocabgame.cli import main
from vocabgame.model import FaceKey
from vocabgame.optimize import MIN_ITEMS, OFFER_AFTER, fit, offer, optimize, reset, scores
from vocabgame.play import open_session
from vocabgame.srs import (
    DEFAULT_PARAMETERS,
    PARAMETERS_KEY,
    Srs,
    elapsed_days,
    parameter_history,
)
from vocabgame.store import DB_NAME, Store
from vocabgame.store.records import Review
from vocabgame.store.rows import ReviewRow

History = list[list[tuple[datetime, int]]]


@cache
def learner(answers: int) -> tuple[tuple[tuple[datetime, int], ...], ...]:
    """The simulated learner's answers, drawn once per size (seeded, so always the same)."""
    return tuple(tuple(h) for h in simulate(answers))


def fill(store: Store, histories: object, deck: str = "sim") -> None:
    """Keep these histories as scheduled answers of `deck`, in one transaction (as a merge
    adds them)."""
    rows = []
    for n, history in enumerate(histories):  # type: ignore[attr-defined]
        for at, rating in history:
            rows.append(
                ReviewRow(
                    round_id=None,
                    deck_id=deck,
                    item_id=f"i{n}",
                    face="term",
                    reviewed_at=at.isoformat(),
                    rating=rating,
                    correct=rating > 1,
                    response_ms=None,
                    mode="review",
                    answer="",
                    points=0,
                    scheduled=True,
                    overridden=False,
                    card_before=None,
                    confidence=None,
                ).to_db()
            )
    with store.transaction():
        store.transfer.add_answers(rows)


def test_fitting_a_simulated_learner_beats_the_defaults_and_is_kept() -> None:
    histories = learner(5000)
    assert sum(len(h) for h in histories) == 5000
    outcome = fit(histories)
    assert outcome.kept == "fitted"
    assert outcome.reviews == 5000
    assert outcome.fitted is not None and outcome.defaults is not None
    assert outcome.defaults.log_loss - outcome.fitted.log_loss >= 0.01
    assert outcome.fitted.rmse_bins < outcome.defaults.rmse_bins
    assert outcome.fitted.auc is not None and outcome.fitted.auc > 0.5
    assert len(outcome.parameters) == 21
    assert outcome.parameters != DEFAULT_PARAMETERS
    # the learner forgets faster than the defaults assume: its first-answer stabilities
    # (Again .. Easy) come out below theirs
    assert sum(outcome.parameters[:4]) < sum(DEFAULT_PARAMETERS[:4])
    assert TRUE_PARAMETERS[:4] < DEFAULT_PARAMETERS[:4]


def test_the_split_is_the_librarys_time_series_split() -> None:
    """The fitted figures are those of `evaluate_with_time_series_splits` on the same items
    (the defaults are predicted on exactly the answers it holds out)."""
    histories = learner(5000)
    outcome = fit(histories)
    items = []
    for history in histories:
        days = [0] + [
            elapsed_days(a, b) for (a, _), (b, _) in zip(history, history[1:], strict=False)
        ]
        reviews = [FSRSReview(r, t) for (_, r), t in zip(history, days, strict=True)]
        items += [
            (history[n][0], FSRSItem(reviews[: n + 1]))
            for n in range(1, len(reviews))
            if days[n] > 0
        ]
    assert outcome.items == len(items)
    items.sort(key=lambda pair: pair[0])
    library = evaluate_with_time_series_splits([item for _, item in items])
    assert outcome.fitted is not None
    assert outcome.fitted.log_loss == pytest.approx(library.log_loss, abs=1e-4)
    assert outcome.fitted.rmse_bins == pytest.approx(library.rmse_bins, abs=1e-4)


def test_a_fit_that_predicts_no_better_is_not_kept() -> None:
    """A learner whose memory follows the defaults: the fit, on its held-out answers, does
    worse than the defaults (it chases noise), so the defaults stay in force."""
    outcome = fit(simulate(5000, seed=5, parameters=DEFAULT_PARAMETERS))
    assert outcome.kept == "defaults"
    assert outcome.fitted is not None and outcome.defaults is not None
    assert outcome.fitted.log_loss >= outcome.defaults.log_loss
    assert outcome.parameters == DEFAULT_PARAMETERS
    assert "no better than the defaults" in outcome.reason


def test_a_small_history_keeps_the_defaults_and_says_why() -> None:
    outcome = fit(learner(100))
    assert outcome.reviews == 100
    assert outcome.items < MIN_ITEMS
    assert outcome.kept == "defaults"
    assert outcome.fitted is None
    assert outcome.parameters == DEFAULT_PARAMETERS
    assert f"at least {MIN_ITEMS}" in outcome.reason
    assert outcome.reason.endswith("so the defaults schedule your reviews.")


def test_no_history_keeps_the_defaults() -> None:
    outcome = fit([])
    assert (outcome.reviews, outcome.kept, outcome.defaults, outcome.fitted) == (
        0,
        "defaults",
        None,
        None,
    )


def test_scores() -> None:
    perfect = scores([0.9, 0.2, 0.8, 0.1], [1, 0, 1, 0], ["a"] * 4)
    assert perfect.auc == 1.0
    backwards = scores([0.1, 0.9], [1, 0], ["a", "a"])
    assert backwards.auc == 0.0
    assert scores([0.5, 0.5], [1, 0], ["a", "b"]).auc == 0.5  # a tie counts half
    assert scores([0.9], [1], ["a"]).auc is None  # all recalled: nothing to rank
    one = scores([0.8, 0.6], [1, 1], ["a", "b"])
    assert one.rmse_bins == pytest.approx(((0.2**2 + 0.4**2) / 2) ** 0.5)
    assert one.log_loss == pytest.approx(-(math.log(0.8) + math.log(0.6)) / 2)


def run_cli(data_dir: Path, *args: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["--data-dir", str(data_dir), "optimize", *args]) == 0
    return capsys.readouterr().out


def test_the_command_prints_the_contract_keeps_the_fit_and_resets(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Store.open(data_dir / DB_NAME) as store:
        fill(store, learner(5000))
    out = json.loads(run_cli(data_dir, "--json", capsys=capsys))
    assert list(out) == ["reviews", "kept", "reason", "defaults", "fitted", "parameters"]
    assert out["reviews"] == 5000 and out["kept"] == "fitted"
    for key in ("defaults", "fitted"):
        assert list(out[key]) == ["log_loss", "rmse_bins", "auc"]
    assert out["defaults"]["log_loss"] - out["fitted"]["log_loss"] >= 0.01
    assert len(out["parameters"]) == 21
    with Store.open(data_dir / DB_NAME) as store:
        history, problem = store.preferences.parameters()
        assert problem is None and history[-1][1] == tuple(out["parameters"])
        assert offer(store) is None  # just fitted
    # `stats --json` carries the parameters in force and what the fit measured
    assert main(["--data-dir", str(data_dir), "stats", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)["scheduler"]
    assert figures["parameters"] == out["parameters"] and figures["fitted"] is True
    assert figures["evaluation"] == {k: v for k, v in out.items() if k != "parameters"}
    assert main(["--data-dir", str(data_dir), "stats"]) == 0
    line = f"log loss {out['fitted']['log_loss']:.4f} fitted against"
    assert line in " ".join(capsys.readouterr().out.split())
    reset_out = json.loads(run_cli(data_dir, "--reset", "--json", capsys=capsys))
    assert reset_out == {"kept": "defaults", "parameters": list(DEFAULT_PARAMETERS)}
    assert main(["--data-dir", str(data_dir), "stats", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)["scheduler"]
    assert figures["parameters"] == list(DEFAULT_PARAMETERS) and figures["fitted"] is False
    with Store.open(data_dir / DB_NAME) as store:
        history, _ = store.preferences.parameters()
        assert [values for _, values in history] == [tuple(out["parameters"]), DEFAULT_PARAMETERS]


def test_the_command_without_json_prints_a_table(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Store.open(data_dir / DB_NAME) as store:
        fill(store, learner(100))
    text = run_cli(data_dir, capsys=capsys)
    assert "log loss" in text and "RMSE(bins)" in text and "AUC" in text
    assert "defaults" in text and "fitted" in text
    assert f"at least {MIN_ITEMS}" in " ".join(text.split())
    with Store.open(data_dir / DB_NAME) as store:
        assert store.preferences.parameters() == ((), None)  # the defaults, as before


def test_the_scheduler_uses_the_parameters_in_force_at_each_answer(data_dir: Path) -> None:
    fitted = tuple(TRUE_PARAMETERS)
    since = datetime(2026, 3, 1, tzinfo=UTC)
    with Store.open(data_dir / DB_NAME) as store:
        store.preferences.set(
            PARAMETERS_KEY,
            {"history": [{"since": since.isoformat(), "parameters": list(fitted)}]},
        )
        history, _ = store.preferences.parameters()
    session = open_session(data_dir, [])
    try:
        assert session.srs.parameters == fitted  # the game schedules with them
        assert session.srs.history == history
    finally:
        session.close()
    srs = Srs(fuzz=False, parameters=history)
    assert srs.parameters == fitted
    for moment, parameters in (
        (since - timedelta(seconds=1), DEFAULT_PARAMETERS),
        (since, fitted),
        (since + timedelta(days=9), fitted),
    ):
        card = Srs.new_card(1, moment)
        expected, _ = Scheduler(parameters=parameters, enable_fuzzing=False).review_card(
            Srs.new_card(1, moment), Rating.Good, moment
        )
        assert srs.review(card, 3, moment).stability == expected.stability
    assert (
        Srs(fuzz=False, parameters=history).review(Srs.new_card(1, since), 3, since).stability
        != Srs(fuzz=False).review(Srs.new_card(1, since), 3, since).stability
    )


def test_check_replays_each_answer_with_the_parameters_then_in_force(data_dir: Path) -> None:
    """A face answered before a fit and after it is replayed as play made it: no finding."""
    start = datetime(2026, 2, 1, 9, tzinfo=UTC)
    fit_at = start + timedelta(days=3)
    face = FaceKey("d", "i", "term")
    with Store.open(data_dir / DB_NAME) as store:
        for day, rating in ((0, 3), (1, 3), (5, 2), (9, 3)):
            at = start + timedelta(days=day)
            if at > fit_at and not store.preferences.parameters()[0]:
                store.preferences.set(
                    PARAMETERS_KEY,
                    {
                        "history": [
                            {"since": fit_at.isoformat(), "parameters": list(TRUE_PARAMETERS)}
                        ]
                    },
                )
            srs = Srs(parameters=store.preferences.parameters()[0])

            def schedule(card: object, card_id: int, at: datetime = at, srs: Srs = srs,
                         rating: int = rating) -> object:  # fmt: skip
                return srs.review(card or Srs.new_card(card_id, at), rating, at)  # type: ignore[arg-type]

            store.answers.record(
                Review(face, at, rating, rating > 1, None, "review", ""),
                schedule,  # type: ignore[arg-type]
                None,
            )
        findings, _ = run(store.conn, srs_for(store.conn))
        assert findings == []
        # replayed with the defaults throughout, the answers after the fit disagree
        findings, _ = run(store.conn, Srs())
        assert [f.kind for f in findings] == ["card-mismatch"]


def test_the_game_offers_a_fit_once_enough_answers_came(data_dir: Path) -> None:
    with Store.open(data_dir / DB_NAME) as store:
        fill(store, learner(100))
        assert offer(store) is None
        fill(store, learner(OFFER_AFTER - 100), "more")  # enough answers, few a day apart
        assert offer(store) is None
        fill(store, learner(5000), "most")
        sentence = offer(store)
        assert sentence is not None and "vocabgame optimize" in sentence
        optimize(store, datetime(2026, 6, 1, tzinfo=UTC))
        assert offer(store) is None


def test_a_damaged_stored_value_means_the_defaults_with_a_sentence(data_dir: Path) -> None:
    assert parameter_history(None) == ((), None)
    for damaged in ({"history": [{"since": "soon", "parameters": [1]}]}, [1, 2], {"history": 3}):
        history, problem = parameter_history(damaged)
        assert history == () and problem is not None and "defaults" in problem
    with Store.open(data_dir / DB_NAME) as store:
        store.preferences.set(PARAMETERS_KEY, {"history": [{"since": "x", "parameters": []}]})
        assert reset(store, datetime(2026, 6, 1, tzinfo=UTC)) == DEFAULT_PARAMETERS
        assert store.preferences.parameters() == ((), None)


def test_stats_offers_the_fit_until_it_is_done(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Store.open(data_dir / DB_NAME) as store:
        fill(store, learner(1500))  # 623 items: enough to fit
    assert main(["--data-dir", str(data_dir), "stats"]) == 0
    assert "vocabgame optimize" in capsys.readouterr().out
    run_cli(data_dir, "--json", capsys=capsys)
    assert main(["--data-dir", str(data_dir), "stats"]) == 0
    assert "vocabgame optimize" not in capsys.readouterr().out


def test_the_parameters_travel_with_export_progress(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """They are a setting like the others: the file carries them and a store without
    parameters of its own takes them (one with its own keeps those, as with any setting)."""
    history = [{"since": "2026-03-01T00:00:00+00:00", "parameters": list(TRUE_PARAMETERS)}]
    with Store.open(data_dir / DB_NAME) as store:
        fill(store, learner(100))
        store.preferences.set(PARAMETERS_KEY, {"history": history})
    file = tmp_path / "progress.json"
    assert main(["--data-dir", str(data_dir), "export-progress", str(file)]) == 0
    elsewhere = tmp_path / "elsewhere"
    assert main(["--data-dir", str(elsewhere), "import-progress", str(file)]) == 0
    capsys.readouterr()
    with Store.open(elsewhere / DB_NAME) as store:
        in_force, problem = store.preferences.parameters()
    assert problem is None and in_force[-1][1] == TRUE_PARAMETERS


@pytest.mark.parametrize("child", ["runs", "fails"])
def test_the_splits_fitted_in_a_second_process_are_the_ones_fitted_here(
    monkeypatch: pytest.MonkeyPatch, child: str
) -> None:
    """From `PARALLEL_ITEMS` items on a machine of two cores, the splits' fits run in a
    second process beside the final fit: the outcome is the one of fitting all here, and a
    second process that prints nothing (here: one that is not Python) leaves the same."""
    import subprocess

    from vocabgame import optimize as module

    histories = learner(5000)
    monkeypatch.setattr(module, "PARALLEL_ITEMS", 10**9)
    here = fit(histories)
    started: list[object] = []
    popen = subprocess.Popen

    def counted(*args: object, **kwargs: object) -> object:
        started.append(args[0])
        return popen(*args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(module, "PARALLEL_ITEMS", MIN_ITEMS)
    monkeypatch.setattr(module, "_cores", lambda: 2)
    monkeypatch.setattr(module.subprocess, "Popen", counted)
    if child == "fails":
        monkeypatch.setattr(module.sys, "executable", "/bin/false")
    assert fit(histories) == here
    assert len(started) == 1
