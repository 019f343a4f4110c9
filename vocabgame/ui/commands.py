"""The command palette's entries on the home screen (Ctrl+P): "Play DECK as MODE" for every
deck and every mode the registry offers, each deck's stats, the serving lab and the settings.
Built from what the session and the mode registry already know, so a new deck or mode shows
here with nothing else to edit."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from vocabgame.play.modes import offered
from vocabgame.ui.host import host


class HomeCommands(Provider):
    def commands(self) -> Iterator[tuple[str, Callable[[], object], str]]:
        """Each command: its text, what it does, and a line of help."""
        app = host(self.app)
        decks = [(None, "all decks"), *((d.id, d.title) for d in app.session.catalog.decks)]
        for mode in offered():
            for deck_id, title in decks:
                yield (
                    f"Play {title} as {mode.title}",
                    partial(app.play, deck_id, mode.id),
                    mode.description,
                )
        for deck_id, title in decks:
            yield f"Stats of {title}", partial(app.show_stats, deck_id), "the stats screen"
        yield "Serving lab", app.show_lab, "estimate a setup, take a lab challenge"
        yield "Leaderboard", app.show_leaderboard, "the players' best scores and streaks"
        from vocabgame.play.room import room_open  # read when the palette opens, not before

        if room_open(app.data_root, app.session.clock()):
            yield "Join the room", app.show_room, "the timed challenge everyone answers at once"
        else:
            yield "Start a room", app.start_room, "a timed challenge every player joins, in 30 s"
        yield "Settings", partial(self.screen.run_action, "settings"), "round size, retention …"

    async def discover(self) -> Hits:
        for text, run, help_text in self.commands():
            if not text.startswith("Play ") or " all decks " in text:
                yield DiscoveryHit(text, run, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, run, help_text in self.commands():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), run, help=help_text)
