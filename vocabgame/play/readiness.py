"""An interview date and the plan to it.

The player names a day, the decks and tags it covers and the recall to reach by then
(`Settings.interview_*`). Until the day the learn round also makes sure of two things, without
ever touching a card but through real answers:

- every chosen item is started once before the day: new items are spread over the days left,
  and a deck's limit of new items a day is raised as far as that needs (`new_left`);
- a chosen question that would fall due only after the day, and whose predicted recall on the
  day is below the target, is brought forward (`to_advance`): once its recall falls to the
  target, or on the last day before the interview at the latest; the least harmed by an
  early review (the lowest recall now) first, as FSRS Helper's "Advance" orders them.

The readiness is the predicted share of the chosen questions recalled on the day: each
question's FSRS retrievability at the start of the day, from its stability and last review
(read from the store's kept columns, no card decoded); a question never answered counts as
not recalled. After the day the plan ends and the schedule is the one the answers made.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, tzinfo
from types import MappingProxyType
from typing import Any, Protocol

from vocabgame.deck import Catalog
from vocabgame.kinds import item_faces
from vocabgame.model import Deck, FaceKey
from vocabgame.settings import Settings
from vocabgame.srs import Clock, Srs
from vocabgame.stats import deck_shape
from vocabgame.store import Store


@dataclass(frozen=True, slots=True)
class Scope:
    """The interview the plan works to: its day, target and chosen items."""

    day: date
    moment: datetime  # the start of the day in the player's time zone: when recall is predicted
    target: float
    days_left: int  # days of play before the day, today included; 0 on the day itself
    decks: tuple[Deck, ...]  # the chosen decks, each as a deck of its chosen items only
    sources: Mapping[str, Deck]  # the installed decks they come from, by id
    missing: tuple[str, ...] = ()  # deck ids named in the settings that are not installed

    @property
    def active(self) -> bool:
        """Whether the plan still shapes the rounds (days are left before the interview)."""
        return self.days_left > 0

    def within(self, decks: Sequence[Deck]) -> list[Deck]:
        """The chosen items that a round of `decks` may ask, as decks."""
        chosen = {deck.id: deck for deck in self.decks}
        out: list[Deck] = []
        for deck in decks:
            mine = chosen.get(deck.id)
            if mine is None:
                continue
            if deck is self.sources.get(deck.id):  # the whole installed deck: all chosen items
                out.append(mine)
                continue
            wanted = {item.id for item in deck.items()}
            narrowed = _keep(mine, lambda item_id, _tags, wanted=wanted: item_id in wanted)
            if narrowed is not None:
                out.append(narrowed)
        return out


def scope_of(
    settings: Settings, decks: Sequence[Deck], today: date, tz: tzinfo | None
) -> Scope | None:
    """The interview the settings name, or None: no date set, or the day has passed."""
    if not settings.interview_date:
        return None
    day = date.fromisoformat(settings.interview_date)
    if day < today:
        return None
    installed = {deck.id: deck for deck in decks}
    ids = [i for i in settings.interview_decks.split(",") if i]
    chosen = [installed[i] for i in ids if i in installed] if ids else list(decks)
    tags = {t for t in settings.interview_tags.split(",") if t}
    if tags:
        kept = (_keep(d, lambda _id, item_tags: bool(tags & set(item_tags))) for d in chosen)
        chosen = [d for d in kept if d is not None]
    start = datetime.combine(day, time())
    moment = (start.replace(tzinfo=tz) if tz is not None else start.astimezone()).astimezone(UTC)
    return Scope(
        day,
        moment,
        settings.interview_target,
        (day - today).days,
        tuple(chosen),
        MappingProxyType(installed),
        tuple(i for i in ids if i not in installed),
    )


def _keep(deck: Deck, wanted: Any) -> Deck | None:
    """The deck with only the items `wanted(item id, tags)` accepts (the deck's own tags count
    for each item); None when none is."""
    sections = {
        name: tuple(i for i in items if wanted(i.id, (*i.tags, *deck.tags)))
        for name, items in deck.sections.items()
    }
    if not any(sections.values()):
        return None
    return replace(deck, sections=MappingProxyType(sections))


def new_left(store: Store, scope: Scope, midnight: datetime) -> dict[str, int]:
    """Per chosen deck, the chosen items still to start today so that every one is started
    before the day: those never started at today's start, spread evenly over the days left,
    less those started since `midnight`."""
    if not scope.active:
        return {}
    left: dict[str, int] = {}
    for deck in scope.decks:
        shape = deck_shape(deck)
        started, today = store.items.started_in(deck.id, shape.live, midnight)
        unstarted_at_start = len(shape.faces) - started + today
        left[deck.id] = max(0, math.ceil(unstarted_at_start / scope.days_left) - today)
    return left


def to_advance(
    store: Store, scope: Scope, now: datetime, curve: tuple[float, float]
) -> list[FaceKey]:
    """The chosen questions to review today although they are not due: those falling due only
    after the interview's start whose recall on the day would be below the target, once their
    recall now is at the target or below, or all of them on the last day before it; lowest
    recall now (the least harmed by an early review) first, then by key."""
    if not scope.active:
        return []
    last_day = scope.days_left == 1
    found: list[tuple[float, FaceKey]] = []
    for deck in scope.decks:
        keys = deck_shape(deck).keys
        for i, f, today in store.schedules.fading_by(
            deck.id, scope.moment, now, curve, scope.target, last_day
        ):
            if (i, f) in keys:
                found.append((today, FaceKey(deck.id, i, f)))
    found.sort()
    return [key for _, key in found]


def first_new(
    store: Store, scope: Scope, chosen: Sequence[Deck], new_left: Mapping[str, int]
) -> list[FaceKey]:
    """The first face of each of the first chosen items never started, as many per deck as
    `new_left` allows, for a round to start before the deck's other items; none for a deck
    chosen whole, whose own order of new items is the plan's. Read from the deck's items in
    order (`Items.first_unstarted`), so the order the store keeps for the whole deck stays."""
    keys: list[FaceKey] = []
    for deck in chosen:
        if deck is scope.sources.get(deck.id):
            continue
        wanted = store.items.first_unstarted(
            deck.id, deck_shape(deck).live, new_left.get(deck.id, 0)
        )
        for item_id, _ in wanted:
            item = deck.item(item_id)
            if item is not None:
                keys.append(FaceKey(deck.id, item_id, item_faces(item)[0]))
    return keys


@dataclass(frozen=True, slots=True)
class Readiness:
    """What the home screen and `stats --json` say of the interview. Counts are questions
    (a term is asked three ways) but `items` and `unseen_items`."""

    day: date
    target: float
    days_left: int
    overall: float  # the predicted share of the chosen questions recalled on the day
    questions: int
    unseen: int  # questions never answered: each counts as not recalled
    items: int
    unseen_items: int  # items none of whose questions was ever answered
    below_target: int  # questions answered whose predicted recall on the day is below target
    new_today: int  # chosen items still to start today
    advance_today: int  # questions brought forward today
    by_tag: Mapping[str, float] = field(default_factory=dict)
    by_topic: Mapping[str, float] = field(default_factory=dict)
    missing: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        """`stats --json`'s `readiness` (keys in docs/stats-json.md)."""
        return {
            "date": self.day.isoformat(),
            "target": self.target,
            "days_left": self.days_left,
            "overall": round(self.overall, 4),
            "questions": self.questions,
            "unseen": self.unseen,
            "items": self.items,
            "unseen_items": self.unseen_items,
            "below_target": self.below_target,
            "today": {"new_items": self.new_today, "brought_forward": self.advance_today},
            "by_tag": {k: round(v, 4) for k, v in self.by_tag.items()},
            "by_topic": {k: round(v, 4) for k, v in self.by_topic.items()},
            "missing_decks": list(self.missing),
        }

    def line(self) -> str:
        """One line for the home screen."""
        when = (
            "Interview today"
            if not self.days_left
            else f"Interview {self.day.isoformat()}, in {self.days_left} day"
            + "s" * (self.days_left != 1)
        )
        parts = [f"{when}: ready {self.overall:.0%} (target {self.target:.0%})"]
        if self.unseen_items:
            parts.append(f"{self.unseen_items} item{'s' * (self.unseen_items != 1)} not seen yet")
        if self.days_left:
            parts.append(
                f"today {self.new_today} new item{'s' * (self.new_today != 1)}, "
                f"{self.advance_today} brought forward"
            )
        if self.missing:  # named in the settings, not installed: left out
            parts.append(f"not installed: {', '.join(self.missing)}")
        return " · ".join(parts)


def readiness(
    store: Store, scope: Scope, curve: tuple[float, float], new_today: int, advance_today: int
) -> Readiness:
    """The readiness for the interview: overall, by tag and by topic (an item without tags of
    its own carries its deck's), with today's share of the plan as given."""
    sums: dict[tuple[str, str], list[float]] = {}  # group -> [recall summed, faces in it]
    recalled = 0.0
    seen = started = below = questions = items = 0
    for deck in scope.decks:
        shape = deck_shape(deck)
        names, members, live, sizes = _groups(deck)
        begun, scheduled, _, _ = store.items.deck_summary(deck.id, shape.live)
        started, seen, questions = started + begun, seen + scheduled, questions + sizes[0]
        items += len(shape.faces)
        count, total, low = store.schedules.recall_sum(deck.id, scope.moment, curve, scope.target)
        if count != scheduled:  # cards of items or faces the deck no longer asks: leave them out
            count, total, low = store.schedules.recall_sum(
                deck.id, scope.moment, curve, scope.target, live
            )
        recalled, below = recalled + total, below + low
        if len(names) > 1:  # tags or topics: summed per group, items without any left out
            for group, summed in store.schedules.recall_by_group(
                deck.id, members, live[1], scope.moment, curve
            ):
                sums.setdefault(names[group], [0.0, 0])[0] += summed
        for group, name in enumerate(names[1:], start=1):
            sums.setdefault(name, [0.0, 0])[1] += sizes[group]
    shares = {g: min(1.0, r / n) if n else 0.0 for g, (r, n) in sorted(sums.items())}
    return Readiness(
        scope.day,
        scope.target,
        scope.days_left,
        min(1.0, recalled / questions) if questions else 0.0,
        questions,
        max(0, questions - seen),
        items,
        max(0, items - started),
        below,
        new_today,
        advance_today,
        {name: v for (kind, name), v in shares.items() if kind == "tag"},
        {name: v for (kind, name), v in shares.items() if kind == "topic"},
        scope.missing,
    )


# A deck's groups of items for `readiness`, worked out once per deck: the names (("all", ""),
# then ("tag", name) and ("topic", name)), the groups of each item in one (as the store's
# query takes them), the deck's item ids and face names (JSON arrays) and each group's faces.
Groups = tuple[list[tuple[str, str]], str, tuple[str, str], list[int]]
_GROUPS: dict[int, tuple[Deck, Groups]] = {}


def _groups(deck: Deck) -> Groups:
    """The deck's groups (an item without tags of its own carries its deck's)."""
    kept = _GROUPS.get(id(deck))
    if kept is not None and kept[0] is deck:
        return kept[1]
    shape = deck_shape(deck)
    index: dict[tuple[str, str], int] = {("all", ""): 0}
    sizes = [len(shape.keys)]
    members: dict[str, list[int]] = {}
    for item in deck.items():
        named = [("tag", tag) for tag in item.tags or deck.tags]
        topic = deck.topics.get(item.id)
        named += [("topic", topic)] if topic is not None else []
        ids = [index.setdefault(name, len(index)) for name in dict.fromkeys(named)]
        sizes += [0] * (len(index) - len(sizes))
        for group in ids:
            sizes[group] += shape.faces.get(item.id, 0)
        if ids:
            members[item.id] = ids
    live = (json.dumps(list(shape.faces)), json.dumps(sorted({f for _, f in shape.keys})))
    groups: Groups = (list(index), json.dumps(members), live, sizes)
    _GROUPS[id(deck)] = (deck, groups)
    return groups


def start_of_day(moment: datetime, tz: tzinfo | None) -> datetime:
    """The start of `moment`'s day in the time zone `tz` (None: the machine's)."""
    return moment.astimezone(tz).replace(hour=0, minute=0, second=0, microsecond=0)


class Player(Protocol):
    """What the interview plan reads of a player's session (a `Session` is one)."""

    settings: Settings
    catalog: Catalog
    store: Store
    clock: Clock
    tz: tzinfo | None
    srs: Srs

    def today(self, moment: datetime | None = None) -> date: ...


class InterviewPlan:
    """The interview the player's settings name, as the session's rounds and home use it:
    its scope (worked out again only when the settings, the decks or the day change), the
    raised limits of new items and the readiness."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self._kept: tuple[object, Catalog | None, Scope | None] = ((), None, None)

    def scope(self) -> Scope | None:
        """The interview the settings name; None without one or once its day has passed."""
        p, s = self.player, self.player.settings
        key = (s.interview_date, s.interview_decks, s.interview_tags, s.interview_target, p.today())
        if self._kept[0] != key or self._kept[1] is not p.catalog:
            self._kept = (key, p.catalog, scope_of(s, p.catalog.decks, p.today(), p.tz))
        return self._kept[2]

    def limits(self, limits: Mapping[str, int], started: Mapping[str, int]) -> dict[str, int]:
        """Today's limit of new items per deck (`limits`, with `started` today), raised where
        the plan must start more chosen items today (`new_left`)."""
        scope = self.scope()
        if scope is None or not scope.active:
            return dict(limits)
        midnight = start_of_day(self.player.clock(), self.player.tz)
        needed = new_left(self.player.store, scope, midnight)
        return {d: max(n, started.get(d, 0) + needed.get(d, 0)) for d, n in limits.items()}

    def readiness(self) -> Readiness | None:
        """The readiness for the interview, with today's share of the plan; None without one
        or after its day."""
        scope, p = self.scope(), self.player
        if scope is None:
            return None
        curve = p.srs.forgetting_curve()
        needed = new_left(p.store, scope, start_of_day(p.clock(), p.tz))
        forward = to_advance(p.store, scope, p.clock(), curve)
        return readiness(p.store, scope, curve, sum(needed.values()), len(forward))
