"""A player's session: the decks, the store, the settings and the clock, and the rounds played
with them.

The UI asks this module what to show (`Home`, `Question`, `Outcome`, `RoundSummary`) and sends
the player's answers back; it decides nothing itself.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import replace
from datetime import date, datetime, tzinfo
from functools import partial
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from vocabgame import backup, stats
from vocabgame.deck import Catalog, load_catalog
from vocabgame.deck.cache import DECK_CACHE, DeckCache
from vocabgame.kinds import faces, item_faces
from vocabgame.model import Deck, FaceKey, levels_label
from vocabgame.play.context import NO_LIMITS, Limits, RoundContext
from vocabgame.play.home import (
    LEARN_MORE,
    Home,
    deck_rows,
    first_problem_per_file,
    seconds_per_question,
)
from vocabgame.play.modes import (
    EVERY_DECK,
    MODES,
    Mode,
    ModeId,
    PlanContext,
    PreviewMode,
    Runner,
    Selection,
)
from vocabgame.play.modes import by_name as mode_named
from vocabgame.play.readiness import InterviewPlan, start_of_day
from vocabgame.play.round import Round
from vocabgame.play.spacing import space_round
from vocabgame.settings import Settings
from vocabgame.srs import Clock, DayCount, RolloverHistory, Srs, utc_now
from vocabgame.store import DB_NAME, Store, StoreReadOnly

if TYPE_CHECKING:  # the stats screen's module is imported when it is first shown
    from vocabgame.play.overview import Overview

# Today's extra new items per deck ("learn N more today"), kept with the settings:
# {"day": "2026-11-30", "decks": {"kv-cache": 10}}; another day's value counts for nothing.
EXTRA_NEW_KEY = "extra_new_today"


def open_session(
    data_dir: Path,
    folders: Sequence[Path],
    clock: Clock = utc_now,
    tz: tzinfo | None = None,
    cache_dir: Path | None = None,
) -> Session:
    """Open the store in `data_dir` and load the decks (their cache in `cache_dir`'s
    deck-cache/, by default `data_dir`'s: players share one); raises StoreError with the one
    sentence to show.

    The first session of a local day first writes the day's backup (see `vocabgame.backup`);
    if that fails, the session opens all the same and `notices` says so in one sentence."""
    store = Store.open(data_dir / DB_NAME)
    _, problem = backup.daily_backup(store.conn, data_dir, clock(), tz)
    if problem is not None:
        store.notices.append(problem)
    catalog = load_catalog(folders, cache=DeckCache((cache_dir or data_dir) / DECK_CACHE))
    return Session(store, catalog, clock=clock, tz=tz)


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
        self.settings, self.settings_problems = store.preferences.read()
        # the parameters `vocabgame optimize` fitted, each from the time it came into force
        self.parameters, damaged = store.preferences.parameters()
        said = (damaged, store.preferences.rollover()[1])  # and the rollover hours in force
        self.settings_problems += tuple(problem for problem in said if problem)
        self.srs = _scheduler(self, self.settings, fuzz)
        self.renames = self.carry_renames()
        self._new_renames: tuple[str, ...] = ()
        self.interview = InterviewPlan(self)  # the plan to an interview day, if one is set
        self.keep_item_orders()

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
        that could not be written, a stored setting that could not be used (its default
        applies), progress carried to renamed items."""
        return (*self.store.notices, *self.settings_problems, *self.renames)

    def reload_decks(self, force: bool = False) -> bool:
        """Read the deck folders again if a file was added, removed or saved (or `force`).
        Progress is keyed by ids, so unchanged ids keep theirs; a file that no longer
        validates shows in `home().problems` instead of vanishing. True when reloaded."""
        if not force and not self.catalog.changed():
            return False
        self.catalog = load_catalog(self.catalog.folders, cache=self.catalog.cache)
        self._new_renames = self.carry_renames()
        self.renames = (*self.renames, *self._new_renames)
        self.keep_item_orders()
        return True

    def renames_since_start(self) -> tuple[str, ...]:
        """Progress carried by the last reload_decks (to say once, like the start's notices)."""
        said, self._new_renames = self._new_renames, ()
        return said

    def carry_renames(self) -> tuple[str, ...]:
        """Carry progress from the old ids the decks list under `formerly` (each once)."""
        if self.store.read_only is not None:
            return ()
        said: list[str] = []
        now = self.clock()
        for deck in self.catalog.decks:
            if deck.formerly or deck.renamed:
                said += self.store.renames.carry(deck.id, deck.formerly, deck.renamed, now)
        return tuple(said)

    def keep_item_orders(self) -> None:
        """Have the store keep each deck's order of new items (`Store.keep_orders`), so that
        planning a round reads its next new items from an index; rewritten only for a deck
        whose order changed. A store that cannot be written now is left as it is: planning
        then reads the slower way, and saving an answer says why it could not."""
        self.store.items.keep_orders(
            {
                deck.id: (shape.order, shape.order_digest)
                for deck in self.catalog.decks
                for shape in (stats.deck_shape(deck),)
            }
        )

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

    def extra_new_today(self) -> dict[str, int]:
        """Extra new items each deck may start today ("learn more today"), by deck id."""
        stored = self.store.preferences.get(EXTRA_NEW_KEY)
        if not isinstance(stored, dict) or stored.get("day") != self.today().isoformat():
            return {}
        decks = stored.get("decks")
        if not isinstance(decks, dict):
            return {}
        return {
            str(k): v for k, v in decks.items() if isinstance(v, int) and not isinstance(v, bool)
        }

    def new_limits(self) -> dict[str, int]:
        """Today's limit of new items for each deck, by id: the setting plus any extra for
        today (one read of the extras for every deck)."""
        extra = self.extra_new_today()
        return {d.id: self.new_per_day + max(0, extra.get(d.id, 0)) for d in self.catalog.decks}

    def started_today(
        self, first_seen: Mapping[tuple[str, str], datetime] | None = None
    ) -> Counter[str]:
        """New items started today, by deck id (from `first_seen` when the caller has it)."""
        if first_seen is None:
            return Counter(self.store.items.started_since(start_of_day(self.clock(), self.tz)))
        today = self.today()
        return Counter(deck for (deck, _), at in first_seen.items() if self.today(at) == today)

    def new_left_by_deck(
        self, first_seen: Mapping[tuple[str, str], datetime] | None = None
    ) -> dict[str, int]:
        """New items each deck may still start today (the limit is per deck, as in Anki);
        `first_seen` saves a query when the caller already has it."""
        started = self.started_today(first_seen)
        limits = self.interview.limits(self.new_limits(), started)
        return {d: max(0, limit - started[d]) for d, limit in limits.items()}

    def new_left_today(
        self,
        deck_id: str | None = None,
        first_seen: Mapping[tuple[str, str], datetime] | None = None,
    ) -> int:
        """New items that may still start today in one deck (None: all decks together)."""
        left = self.new_left_by_deck(first_seen)
        return sum(left.values()) if deck_id is None else left.get(deck_id, 0)

    def learn_more_today(self, deck_id: str, count: int = LEARN_MORE) -> None:
        """Raise today's limit of new items for one deck by `count` (kept in the store, for
        today only)."""
        self.decks_for(deck_id)  # KeyError for a deck that is not there
        extra = self.extra_new_today()
        extra[deck_id] = extra.get(deck_id, 0) + count
        self.store.preferences.set(EXTRA_NEW_KEY, {"day": self.today().isoformat(), "decks": extra})

    def stats(self) -> stats.Stats:
        return stats.collect(
            self.store, self.catalog.decks, self.clock(), self.today, self.new_left_by_deck()
        )

    def insights(self, deck_id: str | None = None, tag: str | None = None) -> Overview:
        """The stats screen's figures for one deck, one tag (within the deck, if one is
        given) or everything; KeyError for a deck that is not there."""
        from vocabgame import insights
        from vocabgame.play import overview

        decks = self.decks_for(deck_id)
        # seen and learned as home counts them (the per-item summary), so the screens agree
        seen = stats.seen_and_learned(self.store, decks) if tag is None else None
        figures = insights.collect(self.store, decks, self.clock(), self.today, deck_id, tag, seen)
        return overview.overview(
            figures,
            self.catalog.decks,
            self.settings.desired_retention,
            self.store.answers.override_count(),
            [(key, note) for key, _, note in self.store.face_flags.all()],
            deck_id,
            tag,
            self.store.saved_reports.all(ModeId.INTERVIEW),
        )

    def home(self) -> Home:
        """What the home screen shows (the same figures as `vocabgame stats`)."""
        started = self.started_today()
        limits = self.interview.limits(self.new_limits(), started)
        left = {deck_id: max(0, limit - started[deck_id]) for deck_id, limit in limits.items()}
        progress = stats.deck_progress(self.store, self.catalog.decks, self.clock(), left)
        return Home(
            decks=deck_rows(
                self.catalog.decks,
                progress,
                started,
                limits,
                self.store.scoreboard.best_scores().get(None),
            ),
            streak_days=self.streak_days(),
            reviews=self.store.answers.count(),
            new_per_day=self.new_per_day,
            problems=first_problem_per_file(self.catalog.problems),
            seconds_per_question=seconds_per_question(self.store.answers.recent_response_ms()),
            readiness=self.interview.readiness(),
        )

    # -- rounds -------------------------------------------------------------------------------

    def _context(self, decks: Sequence[Deck], size: int) -> PlanContext:
        now = self.clock()
        return PlanContext(
            decks,
            size,
            now,
            cards=lambda: self.store.schedules.cards([d.id for d in decks]),
            first_seen=self.store.items.first_seen,
            new_left=self.new_left_by_deck,
            retrievability=lambda card: self.srs.retrievability(card, now),
            store=self.store,
            curve=self.srs.forgetting_curve(),
            interview=self.interview.scope(),
        )

    def decks_chosen(
        self,
        deck: str | Sequence[str] | None = None,
        tag: str | None = None,
        levels: tuple[str, ...] = (),
    ) -> list[Deck]:
        """The decks a round plays: one deck id, several, or None for every deck; with `tag`,
        only the items tagged with it (or every item of a deck tagged with it), as decks of
        those items; with `levels`, only the items of those levels. KeyError for a deck that
        is not there; ValueError when no item has the tag, or none is of those levels."""
        ids = [deck] if isinstance(deck, str) else list(deck or [])
        decks = [d for i in dict.fromkeys(ids) for d in self.decks_for(i)] if ids else []
        if not ids:
            decks = list(self.catalog.decks)
        decks = decks if tag is None else only_tagged(decks, tag)
        return decks if not levels else only_levels(decks, levels)

    def round_title(
        self, deck: str | Sequence[str] | None, tag: str | None = None, levels: tuple[str, ...] = ()
    ) -> str:
        ids = [deck] if isinstance(deck, str) else list(deck or [])
        title = "All decks" if not ids else ", ".join(self.decks_for(i)[0].title for i in ids)
        title = title if tag is None else f"{title} · tag {tag}"
        return title if not levels else f"{title} · {levels_label(levels)}"

    def plan(
        self,
        deck_id: str | Sequence[str] | None,
        size: int,
        mode: str = ModeId.LEARN,
        tag: str | None = None,
        levels: tuple[str, ...] = (),
    ) -> tuple[list[FaceKey], str]:
        """The faces of a round and the mode that plays them: the chosen mode's plan, or its
        fallback's when it plans nothing (learn falls back to practice), in the order the
        round asks them (`spacing.space_round`). `deck_id` is one deck id, several, or None
        (every deck); `tag` keeps only the items tagged with it, `levels` those of the levels."""
        ctx = self._context(self.decks_chosen(deck_id, tag, levels), size)
        rules = MODES[mode]
        keys = rules.plan(ctx)
        while not keys and rules.fallback is not None:
            rules = MODES[rules.fallback]
            keys = rules.plan(ctx)
        return space_round(keys, ctx.decks), rules.id

    def round_context(self) -> RoundContext:
        """What a round needs of the session: the store, the scheduler, the clock, the decks."""
        return RoundContext(self.store, self.srs, self.clock, self.catalog.decks, self.next_due)

    def start(self, mode: str, choice: Selection = EVERY_DECK) -> Round | Runner | None:
        """Start playing `choice` in the mode named (its name or id; KeyError for neither):
        a round, or the mode's runner around one; None when there is nothing to play. Raises
        KeyError for a deck that is not there, ValueError for a tag no item has."""
        return mode_named(mode).start(self, choice)

    def open_round(
        self, mode: Mode, choice: Selection, size: int | None = None, limits: Limits = NO_LIMITS
    ) -> Round | None:
        """A round of the mode's plan (or its fallback's, when it plans nothing), its row
        stored when the mode keeps rounds; None when there is nothing to ask (an empty deck,
        or every new item for today used up before anything was ever answered)."""
        size = size or choice.size or self.round_size
        keys, mode_id = self.plan(choice.deck, size, mode.id, choice.tag, choice.levels)
        if not keys:
            return None
        now = self.clock()
        rules = MODES.get(mode_id, mode)
        stored_deck = _stored_deck(choice)
        round_id = None
        if self.store.read_only is None and rules.keeps_round:
            with suppress(StoreReadOnly):  # play goes on unsaved; the screen says so once
                round_id = self.store.scoreboard.start(stored_deck, mode_id, now)
        return Round(
            self.round_context(),
            round_id=round_id,
            rules=rules,
            deck_id=stored_deck,
            title=self.round_title(choice.deck, choice.tag, choice.levels),
            queue=keys,
            rng=random.Random(choice.seed),
            started_at=now,
            limits=limits,
        )

    def new_round(
        self, mode: Mode, choice: Selection, queue: list[FaceKey], limits: Limits = NO_LIMITS
    ) -> Round:
        """A round of exactly these faces in this mode, with no row of its own."""
        return Round(
            self.round_context(),
            round_id=None,
            rules=mode,
            deck_id=_stored_deck(choice),
            title=self.round_title(choice.deck, choice.tag, choice.levels),
            queue=queue,
            rng=random.Random(choice.seed),
            started_at=self.clock(),
            limits=limits,
        )

    def start_round(
        self,
        deck_id: str | Sequence[str] | None = None,
        size: int | None = None,
        seed: int | None = None,
        mode: str = ModeId.LEARN,
        tag: str | None = None,
    ) -> Round | None:
        """A round of a mode that plays a plain round (`start` for any mode); None when there
        is nothing to ask."""
        return self.open_round(MODES[mode], Selection(deck_id, tag, size, seed))

    def mode_bests(self) -> dict[str, dict[str, Any]]:
        """What each mode keeps as its best (`vocabgame stats --json`), by the mode's name."""
        bests: dict[str, dict[str, Any]] = {}
        for mode in MODES.values():
            best = mode.bests(self.store, self.settings)
            if best is not None:
                bests[mode.key] = best
        return bests

    def example(self, key: FaceKey) -> str | None:
        """The example the deck gives for this face's item, if it is a term that has one."""
        deck = self.catalog.get(key.deck_id)
        term = deck.term(key.item_id) if deck is not None else None
        return term.example if term is not None else None

    def start_misses_round(
        self, deck_id: str | None, title: str, keys: Sequence[FaceKey], seed: int | None = None
    ) -> Round | None:
        """A round of just these faces (a round's misses), in the misses mode: each answer is
        saved, due dates stay, and the round itself is not kept (a drill of what was just
        shown counts for no best score and no day streak). None when none of the faces is in
        the decks any more."""
        return self.start_faces(deck_id, title, keys, ModeId.MISSES, seed)

    def start_faces(
        self,
        deck_id: str | None,
        title: str,
        keys: Sequence[FaceKey],
        mode: str = ModeId.CRAM,
        seed: int | None = None,
    ) -> Round | None:
        """A round of exactly these faces (in this order, each once) in the mode named, with
        no row of its own: answers are saved, and due dates move only if the mode updates
        the schedule (cram, the default, and misses leave them). None when none of the faces
        is in the decks any more; KeyError for a deck or mode that is not there."""
        known = {k for d in self.decks_for(deck_id) for k in faces(d)}
        queue = list(dict.fromkeys(k for k in keys if k in known))
        return _faces_round(self, mode_named(mode), deck_id, title, queue, seed) if queue else None

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
        return _faces_round(self, PreviewMode(), deck_id, deck.title, keys, 0)

    def next_due(self, deck_id: str | None) -> datetime | None:
        dues = [
            due
            for d in self.decks_for(deck_id)
            if (due := self.store.schedules.soonest_due(d.id, partial(_has_face, d))) is not None
        ]
        return min(dues) if dues else None

    def change_settings(self, settings: Settings) -> None:
        """Save new settings; they apply from the next round."""
        self.settings, rollover = settings, self.store.preferences.save(settings, self.clock())
        self.srs = _scheduler(self, settings, self.srs.fuzz, rollover)


def _scheduler(
    session: Session, settings: Settings, fuzz: bool, rollover: RolloverHistory | None = None
) -> Srs:
    """The scheduler of these settings, with the fitted parameters and the rollover hour in
    force at each answer (without `rollover`, the setting's hour is put in force from now if
    it is not), days counted in the session's time zone."""
    if rollover is None:
        rollover = session.store.preferences.keep_rollover(settings.rollover_hour, session.clock())
    days = DayCount(rollover, session.tz)
    return Srs(settings.desired_retention, fuzz=fuzz, parameters=session.parameters, days=days)


def _has_face(deck: Deck, item_id: str, face: str) -> bool:
    """Whether the deck, as loaded, still asks this face (a card may outlive its item)."""
    item = deck.item(item_id)
    return item is not None and face in item_faces(item)


def only_tagged(decks: Sequence[Deck], tag: str) -> list[Deck]:
    """The decks as decks of only the items tagged `tag` (every item of a deck tagged with it);
    ValueError when no item has the tag."""
    chosen: list[Deck] = []
    for d in decks:
        sections = {
            name: tuple(i for i in items if tag in d.tags or tag in i.tags)
            for name, items in d.sections.items()
        }
        if any(sections.values()):
            chosen.append(replace(d, sections=MappingProxyType(sections)))
    if not chosen:
        raise ValueError(f"no item is tagged {tag!r}")
    return chosen


def only_levels(decks: Sequence[Deck], levels: tuple[str, ...]) -> list[Deck]:
    """The decks as decks of only the items of these levels; ValueError when none is."""
    chosen: list[Deck] = []
    for d in decks:
        sections = {
            name: tuple(i for i in items if d.levels.get(i.id) in levels)
            for name, items in d.sections.items()
        }
        if any(sections.values()):
            chosen.append(replace(d, sections=MappingProxyType(sections)))
    if not chosen:
        raise ValueError(f"no item is of level {levels_label(levels)}")
    return chosen


def _faces_round(
    session: Session,
    rules: Mode,
    deck_id: str | None,
    title: str,
    queue: list[FaceKey],
    seed: int | None,
) -> Round:
    """A round of exactly these faces, with no row of its own."""
    return Round(
        session.round_context(),
        round_id=None,
        rules=rules,
        deck_id=deck_id,
        title=title,
        queue=queue,
        rng=random.Random(seed),
        started_at=session.clock(),
    )


def _stored_deck(choice: Selection) -> str | None:
    """The deck a round is kept under: a round of exactly one deck is that deck's; any other
    choice (several decks, a tag, some levels, every deck) is kept as all decks."""
    ids = choice.deck_ids
    return ids[0] if len(set(ids)) == 1 and choice.tag is None and not choice.levels else None
