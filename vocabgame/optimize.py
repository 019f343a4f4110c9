"""`vocabgame optimize`: FSRS's 21 parameters fitted to the player's own answers.

The fit is the Rust FSRS that Anki runs (`fsrs_rs_python`). The answers that moved a
schedule (`scheduled = 1`) form, per face, a sequence of (rating, days since the face's
previous answer); every answer a day or more after the previous one is a training item: the
history before it, and whether it was recalled (any rating but Again).

Whether the fit is kept is decided on a time-series split of those items, the method of
srs-benchmark and of the library's `evaluate_with_time_series_splits`: the items, in the order
they were answered, are cut into six segments; for each of the last five, parameters are fitted
on all the segments before it and both they and the defaults predict it. The fitted
parameters are kept only when their log loss over those held-out answers is lower.
"""

from __future__ import annotations

import functools
import json
import math
import os
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any, NamedTuple

from vocabgame.srs import (
    DEFAULT_PARAMETERS,
    PARAMETERS_KEY,
    DayCount,
    ParameterHistory,
    check_parameters,
)
from vocabgame.store import Store

# Below this many items (answers a day or more after the face's previous one) nothing is
# fitted: Anki's optimizer code asks its caller to check for "less than 400 items", and the
# library itself only fits the four initial stabilities below 64 items and nothing below 8.
MIN_ITEMS = 400
# The game offers a fit once this many scheduled answers came since the last one (or since
# the start) and the history holds MIN_ITEMS items: the simulated learner of the tests
# (tests/learner.py, a dozen new faces a day) had 376 items in 1,000 answers, 623 in 1,500,
# where the fit first beat the defaults; each new face's same-day steps are answers, not items.
OFFER_AFTER = 1000
SPLITS = 5  # as the library's evaluate_with_time_series_splits
# From this many items the splits' fits run in a second process while this one makes the
# final fit (the library's own evaluation fits its splits on every core; its fits hold the
# interpreter's lock, so threads cannot share them): about 1 s of fits at 88k items against
# 0.1-0.2 s to start a process and send it the histories.
PARALLEL_ITEMS = 20_000

# One scheduled answer: when it was given and its FSRS rating (1 Again .. 4 Easy).
Answer = tuple[datetime, int]


@dataclass(frozen=True, slots=True)
class Scores:
    """How well a set of parameters predicted the held-out answers."""

    log_loss: float
    rmse_bins: float
    auc: float | None  # None when the held-out answers were all right or all wrong

    def as_json(self) -> dict[str, float | None]:
        return {"log_loss": self.log_loss, "rmse_bins": self.rmse_bins, "auc": self.auc}


@dataclass(frozen=True, slots=True)
class Outcome:
    """What `optimize` found and decided."""

    reviews: int  # scheduled answers read
    items: int  # of them, answers a day or more after the face's previous one
    kept: str  # "fitted" or "defaults"
    reason: str
    defaults: Scores | None  # None when there was nothing to evaluate
    fitted: Scores | None  # None when nothing was fitted
    parameters: tuple[float, ...]  # the parameters this outcome puts in force

    def as_json(self) -> dict[str, Any]:
        """The command contract of `vocabgame optimize --json`."""
        return {
            "reviews": self.reviews,
            "kept": self.kept,
            "reason": self.reason,
            "defaults": None if self.defaults is None else self.defaults.as_json(),
            "fitted": None if self.fitted is None else self.fitted.as_json(),
            "parameters": list(self.parameters),
        }


class _Item(NamedTuple):
    """A training item: answer `at` of face `face`, the `nth` of its answers (a tuple,
    so that 88k of them are made and sorted in C)."""

    at: datetime
    face: int
    nth: int


def _reviews(history: Sequence[Answer], days: DayCount) -> list[tuple[int, int]]:
    """(rating, days since the previous answer, as play counted them) per answer; the first
    counts 0 days."""
    gaps = days.gaps([at for at, _ in history])
    return [(rating, gap) for (_, rating), gap in zip(history, gaps, strict=True)]


def _items(
    faces: Sequence[list[tuple[int, int]]], times: Sequence[Sequence[Answer]]
) -> list[_Item]:
    """Every answer a day or more after its face's previous one, in the order given."""
    items = [
        _Item(times[f][n][0], f, n)
        for f, reviews in enumerate(faces)
        for n in range(1, len(reviews))
        if reviews[n][1] > 0
    ]
    items.sort()  # by time, then face, then place: the tuple's own order
    return items


def _segments(count: int) -> list[tuple[int, int]]:
    """The held-out (start, end) of each split, as `TimeSeriesSplit::split` cuts them."""
    size = count // (SPLITS + 1)
    if size == 0:
        return []
    return [((i + 1) * size, count if i == SPLITS - 1 else (i + 2) * size) for i in range(SPLITS)]


def _predict(
    parameters: Sequence[float],
    faces: Sequence[list[tuple[int, int]]],
    items: Sequence[_Item],
    made: dict[int, Any],
) -> list[float]:
    """Each item's predicted recall under `parameters`: FSRS's forgetting curve at its days
    elapsed, from the memory state its face's answers before it left. `made` keeps each
    face's whole history as the library's item between calls."""
    from fsrs_rs_python import FSRS, FSRSItem, FSRSReview

    model = FSRS(list(parameters))
    wanted = sorted({item.face for item in items})
    for f in wanted:
        if f not in made:
            made[f] = FSRSItem([FSRSReview(r, t) for r, t in faces[f]])
    states = model.historical_memory_state_batch([made[f] for f in wanted])
    by_face = dict(zip(wanted, states, strict=True))
    decay = -parameters[20]
    factor = 0.9 ** (1 / decay) - 1
    out = []
    for item in items:
        stability = by_face[item.face][item.nth - 1].stability
        days = faces[item.face][item.nth][1]
        out.append((1 + factor * days / stability) ** decay)
    return out


def _bins(faces: Sequence[list[tuple[int, int]]], items: Sequence[_Item]) -> list[object]:
    """Each item's (days, length, lapses) bin of RMSE(bins), as the library's
    `r_matrix_index`: length counts the face's answers a day or more apart up to the item,
    plus one; lapses its Agains a day or more apart before it. Counted once per face."""
    counts: dict[int, tuple[list[int], list[int]]] = {}
    out: list[object] = []
    for item in items:
        counted = counts.get(item.face)
        if counted is None:
            lengths: list[int] = []
            lapses = [0]
            for r, t in faces[item.face]:
                lengths.append((lengths[-1] if lengths else 1) + (t > 0))
                lapses.append(lapses[-1] + (r == 1 and t > 0))
            counted = counts[item.face] = (lengths, lapses)
        days = faces[item.face][item.nth][1]
        lapsed = counted[1][item.nth]
        out.append(
            (
                _bin(days, 3.62, 2.48, 100),
                _bin(counted[0][item.nth], 1.89, 1.99),
                _bin(lapsed, 1.73, 1.65) if lapsed else 0,
            )
        )
    return out


@functools.cache
def _bin(value: int, base: float, scale: float, times: float = 1.0) -> int:
    """The library's bin of `value` on a logarithmic scale of `base` (`r_matrix_index`), in
    its order of operations; worked out once per value, of which a history has few."""
    return round(scale * base ** math.floor(math.log(value, base)) * times)


def scores(predictions: Sequence[float], labels: Sequence[int], bins: Sequence[object]) -> Scores:
    """Log loss, RMSE(bins) and AUC of predicted recall against what happened (1 recalled)."""
    eps = 1e-7
    loss = -sum(
        math.log(min(max(p, eps), 1 - eps)) if y else math.log(min(max(1 - p, eps), 1 - eps))
        for p, y in zip(predictions, labels, strict=True)
    ) / len(labels)
    groups: dict[object, list[float]] = {}
    for p, y, b in zip(predictions, labels, bins, strict=True):
        group = groups.setdefault(b, [0.0, 0.0, 0.0])
        group[0] += p
        group[1] += y
        group[2] += 1
    rmse = math.sqrt(sum((p / n - y / n) ** 2 * n for p, y, n in groups.values()) / len(labels))
    return Scores(loss, rmse, _auc(predictions, labels))


def _auc(predictions: Sequence[float], labels: Sequence[int]) -> float | None:
    """The chance that a recalled answer was predicted likelier than a forgotten one (ties
    count half): Mann-Whitney's U over the two counts."""
    positives = sum(labels)
    negatives = len(labels) - positives
    if positives == 0 or negatives == 0:
        return None
    # by prediction; the labels of a tie are summed, so their order within it does not count
    ranked = sorted(zip(predictions, labels, strict=True))
    rank_sum = 0.0
    i, count = 0, len(ranked)
    while i < count:
        prediction = ranked[i][0]
        j, recalled = i, 0
        while j < count and ranked[j][0] == prediction:
            recalled += ranked[j][1]
            j += 1
        rank_sum += ((i + j - 1) / 2 + 1) * recalled
        i = j
    return (rank_sum - positives * (positives + 1) / 2) / (positives * negatives)


def _training(
    faces: Sequence[list[tuple[int, int]]], items: Sequence[tuple[int, int]]
) -> list[Any]:
    """The library's training item of each of `items` (face, place in its answers): its
    face's answers up to it. Made once for all the fits (each split fits a prefix of the same
    list), each face's reviews once."""
    from fsrs_rs_python import FSRSItem, FSRSReview

    reviews: dict[int, list[Any]] = {}
    out = []
    for face, nth in items:
        made = reviews.get(face)
        if made is None:
            made = reviews[face] = [FSRSReview(r, t) for r, t in faces[face]]
        out.append(FSRSItem(made[: nth + 1]))
    return out


def _fit(training: Sequence[Any]) -> tuple[float, ...]:
    """Parameters fitted on these training items (in time order), with the library's
    training defaults."""
    from fsrs_rs_python import FSRS

    return tuple(FSRS(list(DEFAULT_PARAMETERS)).compute_parameters(list(training)))


def _start_fits(
    faces: Sequence[list[tuple[int, int]]], items: Sequence[tuple[int, int]], starts: Sequence[int]
) -> subprocess.Popen[bytes] | None:
    """A second process making the splits' fits (`fits_worker`), given what it needs; None on
    one core, for a short history, or where no process starts."""
    if len(items) < PARALLEL_ITEMS or _cores() < 2:
        return None
    try:
        child = subprocess.Popen(
            [sys.executable, "-c", "from vocabgame.optimize import fits_worker; fits_worker()"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        return None
    assert child.stdin is not None
    try:
        child.stdin.write(json.dumps([faces, items, starts]).encode())
        child.stdin.close()
    except OSError:
        pass  # it is gone: `_split_fits` finds nothing printed
    return child


def _split_fits(
    child: subprocess.Popen[bytes] | None, training: Sequence[Any], starts: Sequence[int]
) -> tuple[list[tuple[float, ...]], tuple[float, ...] | None]:
    """The parameters fitted on the first `start` training items for each of `starts`, and
    (when `child` fits those) the ones fitted on every item, made here in the meantime.
    Without a second process, or where it printed no fits, the splits' fits are made here
    one after the other and the final fit is left for later."""
    if child is None:
        return [_fit(training[:start]) for start in starts], None
    final = _fit(training)
    assert child.stdout is not None
    out = child.stdout.read()  # all it prints, at its end
    try:
        split = [tuple(float(w) for w in found) for found in json.loads(out)]
        if child.wait() == 0 and len(split) == len(starts):
            return split, final
    except (ValueError, TypeError):
        pass
    child.kill()
    child.wait()
    return [_fit(training[:start]) for start in starts], final


def _cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def fits_worker() -> None:
    """The second process of `_split_fits`: reads the faces' (rating, days) answers, the
    training items as (face, place in its answers) and the splits' starts as JSON on stdin,
    and prints the parameters fitted on each split's first items as JSON."""
    faces, items, starts = json.load(sys.stdin)
    training = _training(faces, items)
    json.dump([_fit(training[:start]) for start in starts], sys.stdout)


def fit(histories: Iterable[Sequence[Answer]], days: DayCount | None = None) -> Outcome:
    """Fit FSRS to these histories (one per face, each in time order) and decide, on the
    time-series split, whether the fitted parameters or the defaults predict better. `days`
    counts the days between answers as play did (none given: 24-hour periods)."""
    days = days or DayCount()
    times = [list(h) for h in histories if h]
    faces = [_reviews(h, days) for h in times]
    reviews = sum(len(h) for h in times)
    items = _items(faces, times)
    segments = _segments(len(items))
    places = [(item.face, item.nth) for item in items]
    starts = [start for start, _ in segments]
    # the splits' fits, started first in a second process where they can run beside the rest
    child = _start_fits(faces, places, starts) if len(items) >= MIN_ITEMS else None
    try:
        return _decide(faces, items, segments, places, starts, child, reviews)
    finally:
        if child is not None and child.poll() is None:  # an error on the way: not left behind
            child.kill()
            child.wait()


def _decide(
    faces: Sequence[list[tuple[int, int]]],
    items: Sequence[_Item],
    segments: Sequence[tuple[int, int]],
    places: Sequence[tuple[int, int]],
    starts: Sequence[int],
    child: subprocess.Popen[bytes] | None,
    reviews: int,
) -> Outcome:
    """`fit`'s scores and its choice, with the splits' fits in `child` when it runs them."""
    held_out = [item for start, end in segments for item in items[start:end]]
    labels = [int(faces[i.face][i.nth][0] > 1) for i in held_out]
    bins = _bins(faces, held_out)
    made: dict[int, Any] = {}  # each face's history as the library's item, made once
    defaults = (
        scores(_predict(DEFAULT_PARAMETERS, faces, held_out, made), labels, bins)
        if held_out
        else None
    )
    if len(items) < MIN_ITEMS:
        return Outcome(
            reviews,
            len(items),
            "defaults",
            f"Only {len(items)} of your {reviews} answers came a day or more after the previous "
            f"answer to the same question; fitting needs at least {MIN_ITEMS} of them to be "
            "trusted, so the defaults schedule your reviews.",
            defaults,
            None,
            DEFAULT_PARAMETERS,
        )
    predictions: list[float] = []
    training = _training(faces, places)
    split_parameters, final = _split_fits(child, training, starts)
    for (start, end), fitted_here in zip(segments, split_parameters, strict=True):
        predictions += _predict(fitted_here, faces, items[start:end], made)
    fitted = scores(predictions, labels, bins)
    assert defaults is not None  # MIN_ITEMS items make every segment
    gain = defaults.log_loss - fitted.log_loss
    if gain <= 0:
        return Outcome(
            reviews,
            len(items),
            "defaults",
            f"Fitted on {len(items)} answers, the parameters predicted your later answers no "
            f"better than the defaults (log loss {fitted.log_loss:.4f} against "
            f"{defaults.log_loss:.4f}), so the defaults schedule your reviews.",
            defaults,
            fitted,
            DEFAULT_PARAMETERS,
        )
    try:
        parameters = check_parameters(final if final is not None else _fit(training))
    except ValueError as exc:  # fsrs and the Rust optimizer disagree on a bound
        return Outcome(
            reviews,
            len(items),
            "defaults",
            f"The fitted parameters cannot schedule ({exc}), so the defaults schedule your "
            "reviews.",
            defaults,
            fitted,
            DEFAULT_PARAMETERS,
        )
    return Outcome(
        reviews,
        len(items),
        "fitted",
        f"Fitted on {len(items)} answers, the parameters predicted your later answers better "
        f"than the defaults (log loss {fitted.log_loss:.4f} against {defaults.log_loss:.4f}), "
        "so they now schedule your reviews.",
        defaults,
        fitted,
        parameters,
    )


# -- the store ------------------------------------------------------------------------------


def stored(store: Store) -> tuple[dict[str, Any], ParameterHistory, str | None]:
    """The stored value of `PARAMETERS_KEY` (a dict, empty when none), its parameter
    history, and one sentence when it was damaged."""
    value = store.preferences.get(PARAMETERS_KEY)
    history, problem = store.preferences.parameters()
    return (value if isinstance(value, dict) and problem is None else {}), history, problem


def day_count(store: Store, tz: tzinfo | None = None) -> DayCount:
    """Days counted as play counts them: the store's rollover hours in force over time, in
    time zone `tz` (None: the machine's local zone, as play)."""
    return DayCount(store.preferences.rollover()[0], tz)


def optimize(store: Store, now: datetime, tz: tzinfo | None = None) -> Outcome:
    """Fit to the store's scheduled answers (see `fit`, days counted by `day_count`) and put
    the parameters it keeps (the fitted ones or the defaults) in force from `now`; the fit's
    time is stored, for `offer`."""
    histories, last_id = store.answers.scheduled_histories()
    outcome = fit(histories, day_count(store, tz))
    value, history, _ = stored(store)
    in_force = history[-1][1] if history else DEFAULT_PARAMETERS
    entries = list(value.get("history", []))
    if outcome.parameters != in_force:
        entries.append({"since": now.isoformat(), "parameters": list(outcome.parameters)})
    evaluation = {k: v for k, v in outcome.as_json().items() if k != "parameters"}
    store.preferences.set(
        PARAMETERS_KEY,
        {
            "history": entries,
            "fitted_at": now.isoformat(),
            "last_answer": last_id,
            "evaluation": evaluation,
        },
    )
    return outcome


def reset(store: Store, now: datetime) -> tuple[float, ...]:
    """Put the default parameters back in force from `now`; they are returned."""
    value, history, _ = stored(store)
    entries = list(value.get("history", []))
    if history and history[-1][1] != DEFAULT_PARAMETERS:
        entries.append({"since": now.isoformat(), "parameters": list(DEFAULT_PARAMETERS)})
    store.preferences.set(PARAMETERS_KEY, {**value, "history": entries})
    return DEFAULT_PARAMETERS


def offer(store: Store, tz: tzinfo | None = None) -> str | None:
    """One sentence offering `vocabgame optimize` once `OFFER_AFTER` scheduled answers came
    since the last fit (or since the first answer) and the history has enough to fit (see
    `MIN_ITEMS`); None otherwise. Below that count it reads only the new answers' ids."""
    value, _, _ = stored(store)
    last = value.get("last_answer", 0)
    count = store.answers.scheduled_since(last if isinstance(last, int) else 0)
    if count < OFFER_AFTER:
        return None
    histories, _ = store.answers.scheduled_histories()
    days = day_count(store, tz)
    faces = [_reviews(h, days) for h in histories]
    if len(_items(faces, histories)) < MIN_ITEMS:
        return None
    return (
        f"{count} answers since the scheduler was last fitted to you: `vocabgame optimize` "
        "fits it to your own memory (it keeps the fit only if it predicts you better)."
    )


def scheduler(store: Store) -> dict[str, Any]:
    """The scheduler in force, for `stats --json`: its 21 `parameters`, whether they are
    `fitted` to the player (not the defaults), when `vocabgame optimize` last ran
    (`fitted_at`) and what it measured then (`evaluation`: its JSON without the parameters;
    null before the first run)."""
    value, history, _ = stored(store)
    in_force = history[-1][1] if history else DEFAULT_PARAMETERS
    fitted_at = value.get("fitted_at")
    return {
        "parameters": list(in_force),
        "fitted": in_force != DEFAULT_PARAMETERS,
        "fitted_at": fitted_at if isinstance(fitted_at, str) else None,
        "evaluation": _evaluation(value.get("evaluation")),
    }


def _evaluation(value: object) -> dict[str, Any] | None:
    """A stored evaluation as `optimize` wrote it, or None when it is missing or not of that
    shape (a progress file from elsewhere may carry anything)."""
    if not isinstance(value, dict):
        return None
    scores = ("log_loss", "rmse_bins", "auc")
    out: dict[str, Any] = {}
    for key in ("defaults", "fitted"):
        entry = value.get(key)
        if entry is not None and not (
            isinstance(entry, dict)
            and set(entry) == set(scores)
            and all(v is None or isinstance(v, int | float) for v in entry.values())
        ):
            return None
        out[key] = entry
    reviews, kept, reason = value.get("reviews"), value.get("kept"), value.get("reason")
    if not (
        isinstance(reviews, int) and kept in ("fitted", "defaults") and isinstance(reason, str)
    ):
        return None
    return {"reviews": reviews, "kept": kept, "reason": reason, **out}


def scheduler_line(figures: dict[str, Any]) -> str:
    """`scheduler`'s figures as one line of `vocabgame stats`."""
    evaluation = figures["evaluation"]
    if not figures["fitted"]:
        said = "FSRS's default parameters (fitted to many Anki users)"
    else:
        said = f"parameters fitted to your answers on {str(figures['fitted_at'])[:10]}"
    if evaluation and evaluation["fitted"] and evaluation["defaults"]:
        said += (
            f"; on your later answers, log loss {evaluation['fitted']['log_loss']:.4f} fitted "
            f"against {evaluation['defaults']['log_loss']:.4f} with the defaults (lower is better)"
        )
    return f"Scheduler: {said}."


def history_of(store: Store) -> ParameterHistory:
    """The parameters in force over time, for an `Srs` (the defaults when none are stored
    or the stored value is damaged)."""
    return stored(store)[1]


__all__ = [
    "MIN_ITEMS",
    "OFFER_AFTER",
    "Outcome",
    "Scores",
    "fit",
    "history_of",
    "offer",
    "optimize",
    "reset",
    "scheduler",
    "scheduler_line",
    "scores",
]
