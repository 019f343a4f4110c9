"""A player's session: the decks, the store, the settings and the clock, and the rounds played
with them.

The UI asks this module what to show (`Home`, `Question`, `Outcome`, `RoundSummary`) and sends
the player's answers back; it decides nothing itself.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from pathlib import Path

from fsrs import Card

from vocabgame import backup, stats
from vocabgame.deck import Catalog, load_catalog
from vocabgame.kinds import faces
from vocabgame.model import Deck, FaceKey
from vocabgame.play.modes import MODES, ModeId, PlanContext, PreviewMode
from vocabgame.play.round import Round
from vocabgame.play.spacing import space_round
from vocabgame.problems import Problem
from vocabgame.settings import Settings
from vocabgame.srs import Clock, Srs, utc_now
from vocabgame.store import DB_NAME, Store, StoreReadOnly


@dataclass(frozen=True, slots=True)
class DeckSummary:
    id: str | None  # None: all decks together
    title: str
    items: int
    due: int
    new: int  # new items available today
    best: int | None


@dataclass(frozen=True, slots=True)
class Home:
    decks: tuple[DeckSummary, ...]
    streak_days: int
    reviews: int
    new_per_day: int = Settings().new_per_day
    problems: tuple[str, ...] = ()  # one line per deck file that could not be loaded


def open_session(
    data_dir: Path, folders: Sequence[Path], clock: Clock = utc_now, tz: tzinfo | None = None
) -> Session:
    """Open the store and load the decks; raises StoreError with the one sentence to show.

    The first session of a local day first writes the day's backup (see `vocabgame.backup`);
    if that fails, the session opens all the same and `notices` says so in one sentence."""
    store = Store.open(data_dir / DB_NAME)
    _, problem = backup.daily_backup(store.conn, data_dir, clock(), tz)
    if problem is not None:
        store.notices.append(problem)
    return Session(store, load_catalog(folders), clock=clock, tz=tz)


class Session:
    def __init__(
        self,
        store: Store,
        catalog: Catalog,
        clock: Clock = utc_now,
        tz: tzinfo | None = None,
        fuzz: bool = True,
    ) -> None:
        self.store = store
        self.catalog = catalog
        self.clock = clock
        self.tz = tz  # None: the machine's local time zone decides what "today" is
        self.settings, self.settings_problems = store.settings()
        self.srs = Srs(self.settings.desired_retention, fuzz=fuzz)
        self.renames = self.carry_renames()

    @property
    def new_per_day(self) -> int:
        return self.settings.new_per_day

    @property
    def round_size(self) -> int:
        return self.settings.round_size

    def close(self) -> None:
        self.store.close()

    @property
    def not_saving(self) -> str | None:
        """Why answers are not being saved (a read-only store), or None while they are."""
        return None if self.store.read_only is None else str(self.store.read_only)

    @property
    def notices(self) -> tuple[str, ...]:
        """Sentences to show once at start: an empty database file set up anew, a daily backup
        that could not be written, progress carried to renamed items."""
        return (*self.store.notices, *self.renames)

    def reload_decks(self, force: bool = False) -> bool:
        """Read the deck folders again if a file was added, removed or saved (or `force`).
        Progress is keyed by ids, so unchanged ids keep theirs; a file that no longer
        validates shows in `home().problems` instead of vanishing. True when reloaded."""
        if not force and not self.catalog.changed():
            return False
        self.catalog = load_catalog(self.catalog.folders)
        self.renames = (*self.renames, *self.carry_renames())
        return True

    def carry_renames(self) -> tuple[str, ...]:
        """Carry progress from the old ids the decks list under `formerly` (each once)."""
        if self.store.read_only is not None:
            return ()
        said: list[str] = []
        now = self.clock()
        for deck in self.catalog.decks:
            if deck.formerly or deck.renamed:
                said += self.store.carry_renames(deck.id, deck.formerly, deck.renamed, now)
        return tuple(said)

    def today(self, moment: datetime | None = None) -> date:
        return (moment or self.clock()).astimezone(self.tz).date()

    def decks_for(self, deck_id: str | None) -> list[Deck]:
        if deck_id is None:
            return list(self.catalog.decks)
        deck = self.catalog.get(deck_id)
        if deck is None:
            raise KeyError(f"no deck with id {deck_id!r}")
        return [deck]

    # -- what the home screen shows -----------------------------------------------------------

    def streak_days(self) -> int:
        """Days in a row, up to today (or yesterday, if today has no round yet), with at least
        one finished round."""
        return stats.streak_days(self.store, self.today(), self.today)

    def new_left_today(self, first_seen: Mapping[tuple[str, str], datetime] | None = None) -> int:
        """New items that may still start today; `first_seen` saves a query when the caller
        already has it."""
        seen = self.store.first_seen() if first_seen is None else first_seen
        today = self.today()
        started = sum(1 for at in seen.values() if self.today(at) == today)
        return max(0, self.new_per_day - started)

    def stats(self) -> stats.Stats:
        return stats.collect(self.store, self.catalog.decks, self.clock(), self.today)

    def home(self) -> Home:
        progress = stats.deck_progress(self.store, self.catalog.decks, self.clock())
        first_seen = self.store.first_seen()
        left = self.new_left_today(first_seen)
        rows, all_new = [], 0
        for deck, figures in zip(self.catalog.decks, progress, strict=True):
            new = sum(1 for item in deck.items() if (deck.id, item.id) not in first_seen)
            all_new += new
            rows.append(
                DeckSummary(
                    deck.id,
                    deck.title,
                    deck.item_count(),
                    figures.due,
                    min(new, left),
                    figures.best,
                )
            )
        if len(rows) > 1:
            everything = DeckSummary(
                None,
                "All decks",
                sum(r.items for r in rows),
                sum(r.due for r in rows),
                min(all_new, left),
                self.store.best_scores().get(None),
            )
            rows.insert(0, everything)
        return Home(
            decks=tuple(rows),
            streak_days=self.streak_days(),
            reviews=self.store.review_count(),
            new_per_day=self.new_per_day,
            problems=_first_problem_per_file(self.catalog.problems),
        )

    # -- rounds -------------------------------------------------------------------------------

    def _context(self, decks: Sequence[Deck], size: int) -> PlanContext:
        now = self.clock()

        def cards() -> Mapping[FaceKey, Card]:
            return self.store.cards([d.id for d in decks])

        return PlanContext(
            decks,
            size,
            now,
            cards=cards,
            first_seen=self.store.first_seen,
            new_left=self.new_left_today,
            retrievability=lambda card: self.srs.retrievability(card, now),
        )

    def plan(
        self, deck_id: str | None, size: int, mode: str = ModeId.LEARN
    ) -> tuple[list[FaceKey], str]:
        """The faces of a round and the mode that plays them: the chosen mode's plan, or its
        fallback's when it plans nothing (learn falls back to practice), in the order the
        round asks them (`spacing.space_round`)."""
        ctx = self._context(self.decks_for(deck_id), size)
        rules = MODES[mode]
        keys = rules.plan(ctx)
        while not keys and rules.fallback is not None:
            rules = MODES[rules.fallback]
            keys = rules.plan(ctx)
        return space_round(keys, ctx.decks), rules.id

    def start_round(
        self,
        deck_id: str | None = None,
        size: int | None = None,
        seed: int | None = None,
        mode: str = ModeId.LEARN,
    ) -> Round | None:
        """A new round, or None when there is nothing to ask (an empty deck, or every new
        item for today used up before anything was ever answered)."""
        keys, mode_id = self.plan(deck_id, size or self.round_size, mode)
        if not keys:
            return None
        now = self.clock()
        round_id = None
        if self.store.read_only is None:
            with suppress(StoreReadOnly):  # play goes on unsaved; the screen says so once
                round_id = self.store.start_round(deck_id, mode_id, now)
        return Round(
            self,
            round_id=round_id,
            rules=MODES[mode_id],
            deck_id=deck_id,
            title="All decks" if deck_id is None else self.decks_for(deck_id)[0].title,
            queue=keys,
            rng=random.Random(seed),
            started_at=now,
        )

    def preview(self, deck_id: str, item_id: str | None = None, only: bool = False) -> Round:
        """An author's round: every face of the deck in order from `item_id` (or the first
        item), or with `only`, just that item's faces. It writes no round and no schedule;
        run it on a store of its own (`vocabgame preview` uses a temporary one)."""
        deck = self.decks_for(deck_id)[0]
        keys = faces(deck)
        start = next((i for i, k in enumerate(keys) if k.item_id == item_id), 0)
        keys = keys[start:]
        if only:
            keys = [k for k in keys if k.item_id == keys[0].item_id]
        return Round(
            self,
            round_id=None,
            rules=PreviewMode(),
            deck_id=deck_id,
            title=deck.title,
            queue=keys,
            rng=random.Random(0),
            started_at=self.clock(),
        )

    def next_due(self, deck_id: str | None) -> datetime | None:
        decks = self.decks_for(deck_id)
        keys = {k for d in decks for k in faces(d)}
        dues = [c.due for k, c in self.store.cards([d.id for d in decks]).items() if k in keys]
        return min(dues) if dues else None

    def change_settings(self, settings: Settings) -> None:
        """Save new settings; they apply from the next round."""
        self.store.save_settings(settings)
        self.settings = settings
        self.srs = Srs(settings.desired_retention, fuzz=self.srs.fuzz)


def _first_problem_per_file(problems: Sequence[Problem]) -> tuple[str, ...]:
    first: dict[str, str] = {}
    for problem in problems:
        first.setdefault(problem.path, str(problem))
    return tuple(first.values())
