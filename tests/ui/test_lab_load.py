"""The lab screen's load knee: `l` swaps the batch charts for TTFT p99 against the arrival
rate, simulated in a thread so the screen answers at once, and follows the setup."""

from __future__ import annotations

import threading

import vocabgame.ui.screens.lab as lab_screen
from vocabgame.ui.screens.lab import LabScreen

from .conftest import screen_text


async def knee_done(app, pilot) -> None:  # type: ignore[no-untyped-def]
    await app.workers.wait_for_complete()
    await pilot.pause()


async def test_l_shows_the_knee_without_holding_up_the_screen(make_app, monkeypatch) -> None:
    # The simulation waits for the test's word: run in the key's handler, it would hold the
    # screen until then, and the chart, not "Simulating", would be what the key left shown.
    go = threading.Event()
    simulate = lab_screen.knee

    def held(*args, **kwargs):  # type: ignore[no-untyped-def]
        go.wait(10)
        return simulate(*args, **kwargs)

    monkeypatch.setattr(lab_screen, "knee", held)
    app = make_app(open_lab=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LabScreen)
        assert "TTFT p99" not in screen_text(app)  # nothing is simulated until asked
        assert app.screen.knee_requests == 300
        app.screen.knee_requests = 40  # a rougher knee, quicker; the thread is the same
        app.screen.action_knee()  # what `l` runs
        await pilot.pause()
        text = screen_text(app)
        assert "Simulating the load" in text and "TTFT p99 by" not in text
        go.set()
        await knee_done(app, pilot)
        text = screen_text(app)
        assert "TTFT p99 by requests/s (log)" in text
        assert "prefill-first" in text and "512-token chunks" in text
        assert "TPOT by batch" not in text
        await pilot.press("l")  # and back
        text = screen_text(app)
        assert "TPOT by batch" in text and "TTFT p99 by" not in text


async def test_the_knee_follows_the_setup(make_app) -> None:
    app = make_app(open_lab=True)
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.knee_requests = 40  # a rougher knee, quicker: only that it changes counts
        await pilot.press("l")
        await knee_done(app, pilot)
        assert "40 Poisson requests a point" in screen_text(app)
        before = screen_text(app).split("At ")[1]
        await pilot.press("p")  # prompts twice as long: a slower prefill, a lower capacity
        await knee_done(app, pilot)
        after = screen_text(app).split("At ")[1]
        assert after != before
        assert "in 400" in screen_text(app)
