"""Pictures of the serving lab at 80x24. Review the SVGs as pictures after
`pytest --snapshot-update tests/ui`."""

from __future__ import annotations

from textual.pilot import Pilot


def test_lab(snap_compare, make_app) -> None:
    assert snap_compare(make_app(open_lab=True), terminal_size=(80, 24))


def test_lab_challenge_revealed(snap_compare, make_app) -> None:
    async def play(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.press("x", "1", "1")
        await pilot.pause()

    assert snap_compare(make_app(open_lab=True), terminal_size=(80, 24), run_before=play)
