"""The serving lab played by keys: the figures move as the setup changes, a setup that does
not fit says why, a figure's card opens, and a challenge is played end to end."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList, Static

from vocabgame.lab import fitted
from vocabgame.paths import builtin_decks_dir
from vocabgame.ui.screens.card import CardScreen
from vocabgame.ui.screens.challenge import ChallengeScreen
from vocabgame.ui.screens.lab import BANDWIDTH_STEPS, LabScreen
from vocabgame.ui.widgets.title import TitleBar

from .conftest import plain, screen_text


def tpot(app) -> float:  # type: ignore[no-untyped-def]
    screen = app.screen
    assert isinstance(screen, LabScreen) and screen.result is not None
    return screen.result.value("tpot")


def shown(app, key: str) -> str:  # type: ignore[no-untyped-def]
    figures = app.screen.query_one("#lab-figures", OptionList)
    option = figures.get_option(key)
    return str(option.prompt)


async def test_l_on_home_opens_the_lab_and_escape_goes_back(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        assert isinstance(app.screen, LabScreen)
        text = screen_text(app)
        assert "not a measurement" in text
        assert "Llama 3.1 8B · 1x H100 SXM · W BF16 · KV BF16 · batch 8 · in 200 · out 200" in text
        await pilot.press("escape")
        assert not isinstance(app.screen, LabScreen)


async def test_changing_the_batch_moves_tpot_and_throughput_on_screen(make_app) -> None:
    app = make_app(open_lab=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        before, before_row = tpot(app), shown(app, "tpot")
        throughput_before = app.screen.result.value("throughput")
        for _ in range(5):  # 8 -> 256
            await pilot.press("b")
        assert "batch 256" in screen_text(app)
        assert tpot(app) > before * 1.2
        assert shown(app, "tpot") != before_row
        assert app.screen.result.value("throughput") > throughput_before * 10
        await pilot.press("B")
        assert "batch 128" in screen_text(app)


async def test_the_working_of_the_highlighted_figure_and_its_card(make_app) -> None:
    app = make_app(open_lab=True, folders=[builtin_decks_dir()])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        working = str(app.screen.query_one("#lab-working", Static).content)
        assert (
            "TPOT" in working and "= decode step time = max(memory term, compute term)" in working
        )
        assert "Taught by: Time per output token (latency-throughput/tpot)" in working
        assert "Decode is memory-bound." in working
        await pilot.press("c")
        assert isinstance(app.screen, CardScreen)
        assert "Time per output token" in str(app.screen.query_one("#card-text", Static).content)
        await pilot.press("escape")
        assert isinstance(app.screen, LabScreen)
        await pilot.press("down")
        working = str(app.screen.query_one("#lab-working", Static).content)
        assert "TPOT with prefills mixed in" in working


async def test_a_setup_that_does_not_fit_says_why_and_the_next_one_recovers(make_app) -> None:
    app = make_app(open_lab=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("m")  # Llama 3.1 70B in BF16 on one H100
        text = screen_text(app)
        assert "Does not fit: Llama 3.1 70B in BF16 needs 141 GB of weights" in text
        assert app.screen.result is None
        await pilot.press("t", "t")  # TP 4
        assert app.screen.result is not None
        assert "Does not fit" not in screen_text(app)


async def test_a_challenge_played_end_to_end(make_app) -> None:
    app = make_app(open_lab=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("x")
        assert isinstance(app.screen, ChallengeScreen)
        challenge = app.screen.challenge
        text = str(app.screen.query_one("#challenge-text", Static).content)
        assert "up, down or stays about the same" in text
        assert "1 up, 2 down, 3 about the same?" in text
        keys = {"up": "1", "down": "2", "same": "3"}
        first, second = challenge.asks
        await pilot.press(keys[first.answer])  # right
        wrong = next(k for d, k in keys.items() if d != second.answer)
        await pilot.press(wrong)
        text = plain(app.screen.query_one("#challenge-text", Static).content)
        assert "The lab says" in text
        assert f"✓ right: {first.moved()}" in text
        assert f"✗ wrong: {second.moved()}" in text
        assert challenge.reason in text.replace("\n", " ") or challenge.reason[:60] in text
        await pilot.press("enter")
        assert isinstance(app.screen, LabScreen)
        assert app.screen.sub_title == "challenges: 1 of 2 predictions right"
        await pilot.pause()
        title = str(app.screen.query_one(TitleBar).content)
        assert title == "Serving lab — challenges: 1 of 2 predictions right"


async def test_a_lab_round_is_played_by_keys_and_saved_like_other_faces(make_app) -> None:
    from vocabgame.ui.screens.round import RoundScreen

    from .test_play import answer

    app = make_app(start_round=True, mode="lab", folders=[builtin_decks_dir()])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen)
        question = app.screen.round.question()
        assert question.label == "Predict, then see"
        assert "goes up, down, or stays about the same?" in screen_text(app)
        await answer(pilot, app, True)
        text = screen_text(app)
        assert "serving lab's roofline model" in text
    reviews = app.session.store.answers.all()
    assert [(r.key.deck_id, r.mode, r.correct) for r in reviews] == [("serving-lab", "lab", True)]


async def test_r_on_the_lab_screen_plays_a_lab_round_and_returns_to_the_lab(make_app) -> None:
    from vocabgame.ui.screens.round import RoundScreen

    app = make_app(open_lab=True, folders=[builtin_decks_dir()])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen)
        assert all(k.face == "predict" for k in app.screen.round.queue)
        await pilot.press("q")  # end the round early, then leave the results
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LabScreen)


def test_a_card_shows_the_items_own_words_and_a_calculations_choices() -> None:
    from vocabgame.deck import load_catalog
    from vocabgame.ui.screens.card import card_text

    decks = load_catalog([builtin_decks_dir()])
    term = card_text(decks.get("latency-throughput"), "tpot").plain
    assert "Time per output token" in term and "Caveat:" in term and "Source:" in term
    calc = card_text(decks.get("quantization"), "weight-memory").plain
    assert "{params}" not in calc and "8/70/405-billion-parameter" in calc
    assert "No item 'nope'" in card_text(decks.get("quantization"), "nope").plain


async def test_the_assumptions_show_and_e_changes_the_bandwidth_share(make_app) -> None:
    app = make_app(open_lab=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        working = str(app.screen.query_one("#lab-working", Static).content)
        bw, math = fitted.BANDWIDTH_EFFICIENCY, fitted.COMPUTE_EFFICIENCY
        assert f"Assumed: bandwidth {bw:.0%} (e), math {math:.0%} (E), memory 90%" in working
        before = tpot(app)
        await pilot.press("e")  # the fitted share -> the next tenth: a memory-bound step is faster
        up = next(x for x in BANDWIDTH_STEPS if x > bw)
        fixed = fitted.STEP_OVERHEAD_US / 1000  # the fixed cost a pass does not scale
        assert tpot(app) == pytest.approx((before - fixed) * bw / up + fixed)
        assert f"bandwidth {up:.0%} (e)" in str(
            app.screen.query_one("#lab-working", Static).content
        )


def test_the_batch_on_show_is_as_tall_as_its_value_not_a_full_column() -> None:
    from vocabgame.ui.widgets.lab_chart import CURRENT_STYLE, column_chart

    chart = column_chart("t", [(1, 1.0, False), (8, 0.1, False), (16, 1.0, False)], 8, 3)
    rows = chart.plain.split("\n")[1:4]  # three rows of columns, top first
    assert [r[3:5] for r in rows] == ["  ", "  ", "▂▂"]  # a tenth of 3 rows: 2 eighths of one
    assert all("reverse" not in str(span.style) for span in chart.spans)
    styles = {str(span.style) for span in chart.spans if span.start >= len("t\n")}
    assert CURRENT_STYLE in styles


async def test_the_working_names_the_nearest_measurement_and_the_lab_error_on_it(make_app) -> None:
    from vocabgame.lab.errorbar import error_bars
    from vocabgame.lab.measurements import load_measurements

    app = make_app(open_lab=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LabScreen) and screen.result is not None
        bar = error_bars(screen.result, load_measurements(), screen.catalogue)["tpot"]
        assert bar is not None
        working = plain(str(app.screen.query_one("#lab-working", Static).content))
        assert f"Measured: {bar.words()}" in working
        assert "against NIM's measured ITL" in working
        await pilot.press("up", "up", "up", "up", "up", "up", "up", "up", "up", "up", "up")
        await pilot.pause()
        # A roofline figure is arithmetic on the catalogue: nothing measured to name.
        working = plain(str(app.screen.query_one("#lab-working", Static).content))
        assert "Measured:" not in working


async def test_a_splits_an_moes_experts_over_the_tp_gpus_and_a_dense_model_says_why_not(
    make_app,
) -> None:
    app = make_app(open_lab=True)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("a")  # Llama 3.1 8B: dense
        notes = [n.message for n in app._notifications]
        assert notes == ["Llama 3.1 8B has no experts to split: expert parallelism stays 1."]
        assert app.screen.setup.ep == 1
        await pilot.press("m", "m")  # the next models: 70B, then Mixtral 8x7B
        assert app.screen.setup.model.is_moe
        await pilot.press("t", "t")  # TP 4
        alone = tpot(app)
        await pilot.press("a")
        assert app.screen.setup.ep == 2 and "4x H100 SXM · EP 2 ·" in screen_text(app)
        assert tpot(app) > alone  # two all-to-alls a layer, each with its latency
        await pilot.press("a", "a")  # 4 is the most TP 4 allows
        assert app.screen.setup.ep == 4
        await pilot.press("A")
        assert app.screen.setup.ep == 2
        await pilot.press("T", "T")  # TP 1: nothing to split the experts over
        assert app.screen.setup.ep == 1 and "EP" not in screen_text(app).split("\n")[1]
