"""What each of the store's summaries costs an answer: the triggers that keep them, dropped one
group at a time on a new store, against the store with all of them. For information, no
targets: each summary feeds a screen (home's counts, the stats screen's figures, planning's
next new items), so none is dropped in the game.

    python -m benchmarks.triggers [--synchronous OFF|NORMAL|FULL] [--answers N] [--repeats N]

Each configuration answers rounds of 20 of the built-in decks through the session, as the
game does (review, card, round totals, commit), timing each answer; configurations take turns
`--repeats` times and the median of all their answers is printed. With `--synchronous OFF`
(the default) the commit does not wait for the disk, so what is left is the CPU the answer
and its triggers take; with FULL the disk's sync, which varies by more than all the triggers
together, is in every answer.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from benchmarks import figures

# Each summary's triggers that run when an answer is saved (schema.py names them).
GROUPS: dict[str, tuple[str, ...]] = {
    "all kept": (),
    "face_stats (per-face totals and wrong texts)": ("face_stats_added",),
    "answer_quarters (answers per quarter hour)": ("answer_quarters_added",),
    "learned_days (learned answers per day)": ("learned_days_added",),
    "items (started items; item_order follows)": ("items_review_added",),
    "cards' stability and last review columns": ("cards_kept_added", "cards_kept_changed"),
}
ALL = tuple(t for group in GROUPS.values() for t in group)


def answer_times(drop: tuple[str, ...], answers: int, synchronous: str) -> list[float]:
    """Seconds each of `answers` answers took on a new store without the triggers `drop`."""
    from vocabgame.deck import load_catalog
    from vocabgame.paths import builtin_decks_dir

    with tempfile.TemporaryDirectory() as folder:
        catalog = load_catalog([builtin_decks_dir()])
        return figures.answer_times(Path(folder), catalog, answers, synchronous, drop)[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.triggers", description=__doc__)
    parser.add_argument("--synchronous", default="OFF", choices=("OFF", "NORMAL", "FULL"))
    parser.add_argument("--answers", type=int, default=150, help="answers a turn (150)")
    parser.add_argument("--repeats", type=int, default=3, help="turns of each (3)")
    args = parser.parse_args(argv)
    if args.answers < 1 or args.repeats < 1:
        parser.error("--answers and --repeats take at least 1")
    configurations = {**GROUPS, "none kept": ALL}
    times: dict[str, list[float]] = {name: [] for name in configurations}
    for _ in range(args.repeats):
        for name, drop in configurations.items():
            times[name] += answer_times(drop, args.answers, args.synchronous)
    kept = statistics.median(times["all kept"])
    print(f"an answer, synchronous={args.synchronous}, median of {len(times['all kept'])}")
    for name, measured in times.items():
        median = statistics.median(measured)
        saved = "" if name == "all kept" else f"  {(kept - median) * 1000:+.3f} ms less"
        print(f"  {name:<46} {median * 1000:6.3f} ms{saved}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
