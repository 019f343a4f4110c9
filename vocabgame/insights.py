"""The figures of the stats screen and `vocabgame stats`: what is coming due, how well you
remember what you have learned, when you played, and what you keep getting wrong. Pure
queries over the store and the decks, for one deck, one tag or everything; nothing here
prints or writes.

Days are the player's calendar days (`day_of`, from their time zone); `now` comes from the
caller's clock.
"""

from __future__ import annotations

import bisect
import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from vocabgame import kinds
from vocabgame.calibration import NO_TREND, Trend, trend
from vocabgame.kinds import faces, item_faces
from vocabgame.model import Deck, FaceKey
from vocabgame.quiz.text import normalise
from vocabgame.srs import LEARNED_DAYS, as_utc
from vocabgame.store import Store

DayOf = Callable[[datetime], date]
Face = tuple[str, str, str]  # deck id, item id, face: a plain tuple hashes in C

FORECAST_DAYS = 14
HEATMAP_DAYS = 84  # twelve weeks
RETENTION_DAYS = 30
LEARNED = 2  # FSRS's Review state: the face had graduated from learning when it was asked


def face_kind(face: str) -> str:
    """How a face is asked, in the player's words (its kind's `face_label`)."""
    return kinds.face_label(face)


@dataclass(frozen=True, slots=True)
class Tally:
    right: int
    total: int

    @property
    def share(self) -> float | None:
        return self.right / self.total if self.total else None


@dataclass(frozen=True, slots=True)
class Weak:
    key: FaceKey
    stability: float  # days for recall to fall to 90%: the lower, the weaker
    lapses: int  # times forgotten after it was learned
    answers: int = 0  # times it was answered, learned or not
    missed: int = 0  # ...and answered wrong


@dataclass(frozen=True, slots=True)
class Confusion:
    deck_id: str
    right: str  # the term that was the answer
    picked: str  # the term picked instead
    times: int


@dataclass(frozen=True, slots=True)
class Insights:
    scope: str  # "everything", "deck kv-cache", "tag latency"
    seen: int  # faces answered at least once
    total: int  # faces in scope
    forecast: tuple[tuple[date, int], ...]  # faces due each day; today includes overdue
    retention: Tally  # answers to learned faces in the last 30 days
    daily: tuple[tuple[date, int], ...]  # answers per day, the last twelve weeks
    streak_days: int
    longest_streak: int
    per_tag: dict[str, Tally] = field(default_factory=dict)
    per_kind: dict[str, Tally] = field(default_factory=dict)
    weakest: tuple[Weak, ...] = ()
    confusions: tuple[Confusion, ...] = ()
    modes: dict[str, int] = field(default_factory=dict)  # best finished-round score per mode
    flags: int = 0
    learned: int = 0  # faces stable for LEARNED_DAYS or more, as home counts them
    # faces due at this moment (overdue included): what home and a round count as due
    due_now: int = 0
    # how sure the player said they were in mock interviews, against how often right
    calibration: Trend = NO_TREND

    @property
    def due_today(self) -> int:
        """Faces due by the end of today: due now, and falling due later today."""
        return self.forecast[0][1] if self.forecast else 0

    @property
    def due_later_today(self) -> int:
        """Faces not due yet that fall due before today ends."""
        return self.due_today - self.due_now

    @property
    def due_tomorrow(self) -> int:
        return self.forecast[1][1] if len(self.forecast) > 1 else 0

    @property
    def due_this_week(self) -> int:
        return sum(n for _, n in self.forecast[:7])


def scope_keys(
    decks: Sequence[Deck], deck_id: str | None = None, tag: str | None = None
) -> set[FaceKey]:
    """The faces of one deck, of the items with one tag, or of everything."""
    keys: set[FaceKey] = set()
    for deck in decks:
        if deck_id is not None and deck.id != deck_id:
            continue
        if tag is None:
            keys.update(faces(deck))
        else:
            for item in deck.items():
                if tag in item.tags or (tag in deck.tags and not item.tags):
                    keys.update(FaceKey(deck.id, item.id, f) for f in item_faces(item))
    return keys


def scope_faces(
    decks: Sequence[Deck], deck_id: str | None = None, tag: str | None = None
) -> set[tuple[str, str, str]]:
    """`scope_keys` as plain (deck id, item id, face) tuples: made and hashed in C, where
    100k `FaceKey`s take most of a second to make and put in a set."""
    out: set[tuple[str, str, str]] = set()
    for deck in decks:
        if deck_id is not None and deck.id != deck_id:
            continue
        d = deck.id
        for item in deck.items():
            if tag is None or tag in item.tags or (tag in deck.tags and not item.tags):
                i = item.id
                out.update([(d, i, f) for f in item_faces(item)])
    return out


@dataclass(frozen=True, slots=True, eq=False)
class _Kept:
    """What the figures read of a deck at every look: how many faces it has, and its faces
    and each item's tags (its deck's when it has none of its own) as the JSON the store's
    scope takes (`Figures.keep_scope`). Compared by identity: one per loaded deck."""

    faces: int
    faces_json: tuple[str, str]  # the deck's id, a JSON object of item id -> face names
    tags_json: str


def _kept(deck: Deck) -> _Kept:
    """The deck's `_Kept`, made once per loaded deck (100k faces at 33k terms: a fifth of a
    second to make)."""
    return deck.kept("insights.scope", _make_kept)


def _make_kept(deck: Deck) -> _Kept:
    d = deck.id
    # each item's faces, in no order: the store sorts them as it fills the scope (a sorted
    # list of 100k (deck, item, face) triples took 0.2-0.35 s to make and write here)
    faces = {item.id: list(dict.fromkeys(item_faces(item))) for item in deck.items()}
    tags = [(d, item.id, t) for item in deck.items() for t in item.tags or deck.tags]
    return _Kept(sum(map(len, faces.values())), (d, json.dumps(faces)), json.dumps(tags))


def _by_deck(faces: Iterable[tuple[str, str, str]]) -> list[tuple[str, str]]:
    """(deck id, item id, face) tuples as `Figures.keep_scope` takes them."""
    decks: dict[str, dict[str, list[str]]] = {}
    for d, i, f in faces:
        decks.setdefault(d, {}).setdefault(i, []).append(f)
    return [(d, json.dumps(items)) for d, items in decks.items()]


def streaks(days: Iterable[date], today: date) -> tuple[int, int]:
    """The current streak (up to today, or yesterday if today has nothing yet) and the
    longest, in days in a row with at least one finished round."""
    played = set(days)
    day = today if today in played else today - timedelta(days=1)
    current = 0
    while day in played:
        current += 1
        day -= timedelta(days=1)
    longest = run = 0
    previous: date | None = None
    for day in sorted(played):
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        longest, previous = max(longest, run), day
    return current, longest


def collect(
    store: Store,
    decks: Sequence[Deck],
    now: datetime,
    day_of: DayOf,
    deck_id: str | None = None,
    tag: str | None = None,
    counted: tuple[int, int] | None = None,
) -> Insights:
    """`counted`: the faces seen and learned of the scope, if the caller has them (a deck's
    or everything's, from the per-item summary home reads); else counted here."""
    scope = f"deck {deck_id}" if deck_id else f"tag {tag}" if tag else "everything"
    today = day_of(now)
    kept = [_kept(deck) for deck in decks if deck_id is None or deck.id == deck_id]
    if tag is None:
        total = sum(k.faces for k in kept)
        faces = [k.faces_json for k in kept]
    else:
        plain = scope_faces(decks, deck_id, tag)
        total, faces = len(plain), _by_deck(plain)
    with store.snapshot():  # every figure of the same moment
        figures = store.figures
        # The faces in view, held in SQLite for this connection while the decks and the
        # scope stay the same: every figure below is a join there, not a pass in Python.
        figures.keep_scope((tuple(kept), tag), faces, [k.tags_json for k in kept])
        if counted is not None:
            seen, learned = counted
        else:
            seen, learned = figures.scheduled(LEARNED_DAYS)
        # Dues a little past the forecast's last day (days are the player's, in any zone).
        dues = figures.dues_before(now + timedelta(days=FORECAST_DAYS + 2))
        weakest = figures.weakest(10)
        by_face, by_tag = figures.totals()
        retention = figures.retention_in(now - timedelta(days=RETENTION_DAYS))
        first_day = today - timedelta(days=HEATMAP_DAYS - 1)
        # Answers per quarter hour (UTC), so that any time zone's days can be made of them
        # without reading every answer; a day or more before the first day shown is read too.
        window = now - timedelta(days=HEATMAP_DAYS + 1)
        if tag is None:  # kept per quarter and deck by triggers: no pass over the answers
            recent = figures.answers_per_quarter(window, deck_id)
        else:
            recent = figures.answers_per_quarter_in(window)
        # Wrong answers by face and text (kept by triggers), less those with a recorded pick,
        # which count as recorded (answers given before picks were recorded have none: their
        # text says which term was picked).
        recorded: list[tuple[Face, str, str | None, str | None, int]] = list(
            figures.wrong_picks_in()
        )
        picked_by_text: Counter[tuple[Face, str]] = Counter()
        for face, given, _, _, n in recorded:
            picked_by_text[(face, given)] += n
        wrong = recorded
        # Of the texts without a recorded pick, only those naming a term can be a confusion:
        # the few texts are sorted out first, and only their answers read.
        for face, given, n in figures.wrong_answers_in(_naming(decks, figures.wrong_texts_in())):
            wrong.append((face, given, None, None, n - picked_by_text.get((face, given), 0)))
        finished = store.scoreboard.finished_times(deck_id)
        modes = store.scoreboard.best_by_mode(deck_id)
        flags = figures.flags_in()
        said = figures.confidences_in()

    forecast, due_now = _forecast(dues, now, today, day_of)
    daily: Counter[date] = Counter()
    for at, n in recent:
        daily[day_of(at)] += n
    current, longest = streaks((day_of(at) for at in finished), today)
    per_kind: dict[str, list[int]] = {}
    for face_name, n, right in by_face:  # a few face names, each asked of the kinds once
        tally = per_kind.setdefault(face_kind(face_name), [0, 0])
        tally[0] += right
        tally[1] += n
    return Insights(
        scope=scope,
        seen=seen,
        total=total,
        forecast=tuple(
            (today + timedelta(days=n), forecast.get(n, 0)) for n in range(FORECAST_DAYS)
        ),
        retention=Tally(retention[1], retention[0]),
        daily=tuple(
            (first_day + timedelta(days=n), daily.get(first_day + timedelta(days=n), 0))
            for n in range(HEATMAP_DAYS)
        ),
        streak_days=current,
        longest_streak=longest,
        per_tag={t: Tally(right, n) for t, n, right in sorted(by_tag)},
        per_kind={k: Tally(r, n) for k, (r, n) in sorted(per_kind.items())},
        weakest=tuple(
            Weak(FaceKey(*key), stability, lapses, answers, answers - right)
            for key, stability, lapses, answers, right in weakest
        ),
        confusions=confusions(decks, wrong),
        modes=modes,
        flags=flags,
        due_now=due_now,
        calibration=trend(said, day_of),
        learned=learned,
    )


def _naming(decks: Sequence[Deck], texts: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """Of (deck id, text) pairs, the texts that name one of their deck's terms (as
    `confusions` matches them), by deck."""
    by_deck = {d.id: d for d in decks}
    naming: dict[str, list[str]] = {}
    for deck_id, given in texts:
        deck = by_deck.get(deck_id)
        if deck is not None and normalise(given) in _term_names_kept(deck):
            naming.setdefault(deck_id, []).append(given)
    return naming


def _forecast(
    dues: list[str], now: datetime, today: date, day_of: DayOf
) -> tuple[Counter[int], int]:
    """Cards due on each of the next days (0: today or earlier) and those due by `now`, from
    the due times in order as the store writes them (ISO text in UTC). Each day's first due
    is found by bisection: a due is read as a time and `day_of` runs about 20 times a day
    shown instead of once a card (100k calls at 100k faces)."""

    def day(due: str) -> date:
        return day_of(datetime.fromisoformat(due))

    counts: Counter[int] = Counter()
    start = 0
    for n in range(1, FORECAST_DAYS + 1):
        end = bisect.bisect_left(dues, today + timedelta(days=n), start, key=day)
        counts[n - 1] = end - start
        start = end
    return counts, bisect.bisect_right(dues, as_utc(now).isoformat())


def confusions(
    decks: Sequence[Deck],
    wrong: Iterable[tuple[Face, str, str | None, str | None, int]],
    top: int = 10,
) -> tuple[Confusion, ...]:
    """Which term was picked when another was the answer, most often first, from wrong
    answers counted by face, text and recorded pick. A pick that was recorded (the term ids:
    right, picked) counts as recorded; one without a record (given before picks were
    recorded, or typed) counts when its text names a term of the deck (by name, alias or
    definition): a wrong number is not a confusion."""
    by_deck = {d.id: d for d in decks}
    names: dict[str, dict[str, str]] = {}
    normalised: dict[str, str] = {}
    counts: Counter[tuple[str, str, str]] = Counter()
    for key, given, right_id, picked_id, times in wrong:
        deck = by_deck.get(key[0])
        if deck is None:
            continue
        if right_id is not None and picked_id is not None:
            a, b = deck.term(right_id), deck.term(picked_id)
            right = a.term if a is not None else None
            picked = b.term if b is not None else None
        else:
            if deck.id not in names:
                names[deck.id] = _term_names_kept(deck)
            # The same few texts come back on many faces: each normalised once, and a face's
            # right term looked up only when the text names a term.
            if (text := normalised.get(given)) is None:
                text = normalised[given] = normalise(given)
            picked = names[deck.id].get(text)
            right = _right_term(deck, key) if picked is not None else None
        if right is not None and picked is not None and picked != right:
            counts[(deck.id, right, picked)] += times
    return tuple(
        Confusion(deck_id, right, picked, times)
        for (deck_id, right, picked), times in counts.most_common(top)
    )


def _term_names_kept(deck: Deck) -> dict[str, str]:
    """`_term_names`, made once per loaded deck (147k texts at 33k terms: half a second)."""
    return deck.kept("insights.term_names", _term_names)


def _term_names(deck: Deck) -> dict[str, str]:
    """Every way an answer can name one of the deck's terms (name, alias, definition, as
    normalised) -> the term's name; the first term wins a shared name."""
    named: dict[str, str] = {}
    for term in deck.terms:
        for name in (term.term, *term.aliases, term.definition):
            named.setdefault(normalise(name), term.term)
    return named


def _right_term(deck: Deck, key: Face) -> str | None:
    """The term a face's right answer names, when it names one."""
    _, item_id, face = key
    item = deck.item(item_id)
    if item is None:
        return None
    term = deck.term(item_id)
    if term is not None:
        return term.term
    answer = getattr(item, "answer", None)
    if face.startswith("cue-"):
        cues = getattr(item, "cues", ())
        index = int(face.removeprefix("cue-")) - 1
        answer = cues[index].answer if 0 <= index < len(cues) else None
    if isinstance(answer, str):
        named = deck.term(answer)
        return named.term if named is not None else None
    return None


__all__ = [
    "Confusion",
    "Insights",
    "Tally",
    "Weak",
    "collect",
    "confusions",
    "scope_faces",
    "scope_keys",
    "streaks",
]
