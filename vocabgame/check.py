"""`vocabgame check`: is the progress database sound, and does every schedule follow from the
answers that made it?

What is checked:

- SQLite's own `PRAGMA integrity_check` (only a backup repairs what it finds);
- answers pointing to a round that is not there (repair: the answer is kept, without a round);
- schedules (cards) of faces that have no scheduled answer (repair: the face starts anew);
- faces with scheduled answers but no schedule, and schedules that disagree with their answers
  (repair: the schedule is rebuilt from the answers);
- the `due` column that the due query reads, against the card it belongs to;
- the summaries the triggers keep from the answers for the home screen, planning and the stats
  (`store.SUMMARIES`: per item, per face, wrong answers by text, answers per quarter hour,
  learned answers per day, whether each item of a kept order of new items was answered)
  against the answers (repair: the table is rebuilt from them).

How a schedule is compared with its answers. `Round._record` reviews the face's stored card
(or a new card, for the first answer) with `Srs.review` and saves, in one transaction, the
answer with `card_before` (the card it started from) and the new card. So the answers of a face
whose `scheduled` is 1, in order, form a chain: the first starts from no card, each one's
`card_before` is the card the previous one made, and the stored card is what the last made.
The check replays that chain through `Srs` from a new card and compares each link (answers
merged in by `import-progress` have no card-before; those links are not compared, and the
merged history is replayed in time order, as the merge replays it). The fuzz is
no obstacle (`Srs` seeds it from the card and the time), nor are parameters fitted by
`vocabgame optimize` (`Srs` replays each answer with the set in force at its time), but the
desired retention is: it may
have changed between answers, and it sets how far ahead a card in the review state is due. It
changes nothing else, so the comparison is exact on what a replay decides whatever the
retention was: the card id, state, learning step, stability, difficulty and last review, and
the due time of a card still in (re)learning, whose steps are fixed.
"""

from __future__ import annotations

import contextlib
import math
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from pathlib import Path

from fsrs import Card, State

from vocabgame.settings import Settings
from vocabgame.srs import (
    PARAMETERS_KEY,
    ROLLOVER_KEY,
    DayCount,
    Srs,
    as_utc,
    dump_card,
    load_card,
    parameter_history,
    rollover_history,
)
from vocabgame.store import SCHEMA_VERSION, SUMMARIES, Store, StoreDamaged, StoreError, Summary
from vocabgame.store.audit import Audit, Link
from vocabgame.store.verify import SchemaProblem, schema_problems

INTEGRITY = "integrity"
ORPHAN_REVIEW = "orphan-review"
CARD_WITHOUT_REVIEW = "card-without-review"
MISSING_CARD = "missing-card"
CARD_MISMATCH = "card-mismatch"
DUE_COLUMN = "due-column"
SUMMARY = "summary"
SCHEMA = "schema"


@dataclass(frozen=True, slots=True)
class Finding:
    kind: str
    message: str
    fixable: bool = True

    def as_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "message": self.message, "fixable": self.fixable}


@dataclass(slots=True)
class Report:
    findings: list[Finding] = field(default_factory=list)
    fixed: int = 0
    backup: Path | None = None

    @property
    def clean(self) -> bool:
        return not self.findings


_Face = tuple[str, str, str]
_Repair = Callable[[Audit], object]


def _same(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def _num(value: float | None) -> str:
    return "none" if value is None else f"{value:.10g}"


def differences(stored: Card, replayed: Card) -> list[str]:
    """The fields where a stored card disagrees with the replay of its answers."""
    out = []
    if stored.card_id != replayed.card_id:
        out.append(f"card id {stored.card_id}, expected {replayed.card_id}")
    if stored.state != replayed.state:
        out.append(f"state {stored.state.name}, expected {replayed.state.name}")
    if stored.step != replayed.step:
        out.append(f"step {stored.step}, expected {replayed.step}")
    for name in ("stability", "difficulty"):
        mine, theirs = getattr(stored, name), getattr(replayed, name)
        if not _same(mine, theirs):
            out.append(f"{name} {_num(mine)}, expected {_num(theirs)}")
    if stored.last_review != replayed.last_review:
        out.append(f"last review {stored.last_review}, expected {replayed.last_review}")
    learning = replayed.state in (State.Learning, State.Relearning)
    if learning and as_utc(stored.due) != as_utc(replayed.due):
        out.append(f"due {stored.due.isoformat()}, expected {replayed.due.isoformat()}")
    return out


def _name(face: _Face) -> str:
    return f"{face[0]} / {face[1]} ({face[2]})"


def _load(text: str | None) -> Card | None:
    return None if text is None else load_card(text)


# Called now and then with how many scheduled answers were replayed, and of how many.
Tick = Callable[[int, int], None]
EVERY = 5000  # answers between ticks


def run(
    conn: sqlite3.Connection, srs: Srs, tick: Tick | None = None
) -> tuple[list[Finding], list[_Repair]]:
    """Every finding, and the repairs for the fixable ones (run them in one transaction).
    What it holds grows with the faces, not the answers: each face's answers are replayed
    as they are read, and a repair replays them again when it runs."""
    audit = Audit(conn)
    findings: list[Finding] = []
    repairs: list[_Repair] = []
    problems = audit.integrity_problems()
    if problems != ["ok"]:
        for problem in problems:
            findings.append(
                Finding(
                    INTEGRITY,
                    f"SQLite integrity check: {problem} (restore a backup with `vocabgame restore`)",
                    fixable=False,
                )
            )
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if 1 <= version <= SCHEMA_VERSION:
        incomplete = _schema(conn, version, findings, repairs)
        if incomplete:  # the checks below read the tables that are not there
            return findings, repairs
    orphans = audit.orphan_answers()
    for review_id, round_id in orphans:
        findings.append(
            Finding(
                ORPHAN_REVIEW, f"answer {review_id} belongs to round {round_id}, which is missing"
            )
        )
    if orphans:
        ids = [r for r, _ in orphans]
        repairs.append(lambda a: a.detach_answers(ids))

    cards = audit.cards()
    answered: set[_Face] = set()
    total = audit.scheduled_count() if tick is not None else 0
    done = ticked = 0
    for face, links in audit.scheduled_chains():
        answered.add(face)
        _replay(face, _chain(links), cards.get(face), srs, findings, repairs)
        done += len(links)
        if tick is not None and done - ticked >= EVERY:
            tick(done, total)
            ticked = done

    unanswered = sorted(set(cards) - answered)
    for face in unanswered:
        findings.append(
            Finding(CARD_WITHOUT_REVIEW, f"{_name(face)} has a schedule but no scheduled answer")
        )
    if unanswered:
        repairs.append(lambda a: a.delete_cards(unanswered))
    for summary in SUMMARIES:
        _compare(audit, summary, findings, repairs)
    return findings, repairs


# What is dropped by `--fix`: objects no vocabgame makes and that hold no data of their own.
_DROPPABLE = ("trigger", "view", "index")


def _schema(
    conn: sqlite3.Connection, version: int, findings: list[Finding], repairs: list[_Repair]
) -> bool:
    """A finding for each object that is not what vocabgame creates at `version`: a foreign
    trigger, view or index is dropped by the repair (it may change or hide answers); a
    foreign table, an altered object or a missing one is left for a backup to replace.
    Returns whether a table is missing or altered (then nothing else can be checked)."""
    problems = schema_problems(conn, version)
    droppable: list[SchemaProblem] = []
    for problem in problems:
        if problem.what == "foreign" and problem.found and problem.found.type in _DROPPABLE:
            droppable.append(problem)
            advice = "--fix drops it"
        elif problem.what == "foreign":
            advice = "vocabgame never reads it; move its rows elsewhere and drop it to be rid of it"
        else:
            advice = "restore a backup with `vocabgame restore`"
        fixable = problem in droppable
        findings.append(Finding(SCHEMA, f"the database holds {problem} ({advice})", fixable))
    if droppable:
        repairs.append(lambda a: _drop(a.conn, droppable))
    return any(p.what != "foreign" and _is_table(p) for p in problems)


def _is_table(problem: SchemaProblem) -> bool:
    obj = problem.found or problem.wanted
    return obj is not None and obj.type == "table"


def _drop(conn: sqlite3.Connection, problems: list[SchemaProblem]) -> None:
    for problem in problems:
        assert problem.found is not None
        name = problem.found.name.replace('"', '""')
        conn.execute(f'DROP {problem.found.type.upper()} IF EXISTS "{name}"')


def bring_up_to_date(db: Path) -> str | None:
    """Before a check: a store left at an older schema version (a first start or an upgrade
    that stopped half way, say on a full disk) is migrated as any command would; returns the
    sentence saying so (None: nothing to do, or a damaged file that the check reports).
    Raises StoreError, one sentence naming the version, when it cannot be migrated or is of
    a version this vocabgame does not know."""
    try:
        conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            empty = not conn.execute("SELECT COUNT(*) FROM sqlite_schema").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        return None  # the check says what is wrong with it
    if version == SCHEMA_VERSION:
        return None
    if version > SCHEMA_VERSION or version < 0 or (version == 0 and not empty):
        raise StoreError(
            f"Cannot check {db}: its schema version is {version}, which this vocabgame "
            f"(schema {SCHEMA_VERSION}) does not know; upgrade vocabgame, or restore a backup "
            "(nothing was changed)."
        )
    try:
        Store.open(db).close()
    except StoreDamaged:
        return None
    except StoreError as exc:
        raise StoreError(
            f"Cannot check {db}: it is at schema version {version} of {SCHEMA_VERSION} and "
            f"could not be brought up to date ({str(exc).rstrip('.')}); once that is solved, "
            "run `vocabgame check` again."
        ) from None
    return (
        f"{db} was at schema version {version} of {SCHEMA_VERSION} (an upgrade or first start "
        "stopped half way); it was brought up to date first, as any vocabgame command does."
    )


def _compare(
    audit: Audit, summary: Summary, findings: list[Finding], repairs: list[_Repair]
) -> None:
    """One finding when a summary table disagrees with the answers it summarises."""
    wrong, missing = audit.summary_differences(summary)
    if not (wrong or missing):
        return
    findings.append(
        Finding(
            SUMMARY,
            f"the summary table {summary.table} disagrees with the answers: {wrong} row(s) kept"
            f" that they do not give, {missing} row(s) they give that it lacks",
        )
    )
    repairs.append(lambda a: a.rebuild_summary(summary))


_Chain = list[tuple[int, datetime, int, str | None]]


def _chain(links: list[Link]) -> _Chain:
    return [(rid, datetime.fromisoformat(at), rating, before) for rid, at, rating, before in links]


def _follow(
    chain: _Chain, card_id: int, srs: Srs, rebuilt: list[tuple[int, str | None]] | None = None
) -> tuple[list[str], Card]:
    """Replay a chain of answers from a new card: what disagrees with each stored card-before,
    and the card the last answer makes; each answer's card-before as replayed is added to
    `rebuilt` when one is given (for a repair, which replays again: a check keeps none)."""
    problems: list[str] = []
    card: Card | None = None
    for review_id, at, rating, before_text in chain:
        if before_text is not None:  # None later on: not recorded (merged)
            before = load_card(before_text)
            if card is None:
                problems.append(f"answer {review_id} starts from a card, but it is the first")
            else:
                diff = differences(before, card)
                if diff:
                    problems.append(f"answer {review_id} starts from {'; '.join(diff)}")
        if rebuilt is not None:
            rebuilt.append((review_id, None if card is None else dump_card(card)))
        card = srs.review(card or Srs.new_card(card_id, at), rating, at)
    assert card is not None
    return problems, card


def _in_time(chain: _Chain) -> _Chain:
    return sorted(chain, key=lambda answer: (as_utc(answer[1]), answer[0]))


def _replay(
    face: _Face,
    chain: _Chain,
    stored: tuple[str, str] | None,
    srs: Srs,
    findings: list[Finding],
    repairs: list[_Repair],
) -> None:
    """Replay one face's scheduled answers; add what disagrees and the repair that rebuilds it.

    The chain is followed in the order the answers were saved (their ids), which is the order
    play made it. A merge of progress from another machine replays the merged history in time
    order instead, so a face that does not agree in id order is tried in time order too, and
    only a face that agrees in neither is a finding (rebuilt in time order)."""
    if stored is not None:
        card_id = load_card(stored[0]).card_id
    else:
        first = next((_load(b) for *_, b in chain if b is not None), None)
        card_id = first.card_id if first is not None else 0
    saved = load_card(stored[0]) if stored is not None else None

    def attempt(order: _Chain) -> tuple[list[str], Card]:
        problems, card = _follow(order, card_id, srs)
        if saved is not None:
            diff = differences(saved, card)
            if diff:
                problems.append("the schedule has " + "; ".join(diff))
        return problems, card

    problems, card = attempt(chain)
    timed = False
    if problems:
        in_time = _in_time(chain)
        if in_time != chain:
            problems, card = attempt(in_time)
            timed = True
    if stored is None:
        findings.append(
            Finding(
                MISSING_CARD, f"{_name(face)} has {len(chain)} scheduled answers but no schedule"
            )
        )
    elif (
        saved is not None
        and not problems
        and datetime.fromisoformat(stored[1]) != as_utc(saved.due)
    ):
        due = saved.due.isoformat()
        findings.append(
            Finding(
                DUE_COLUMN,
                f"{_name(face)} is listed as due {stored[1]}, but its schedule says {due}",
            )
        )
        repairs.append(lambda a: a.set_due(face, due))
        return
    if problems:
        findings.append(
            Finding(
                CARD_MISMATCH,
                f"{_name(face)} disagrees with its answers: {problems[0]}"
                + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""),
            )
        )
    if stored is None or problems:
        repairs.append(lambda a: _rebuild(a, face, card_id, timed, srs))


def _rebuild(audit: Audit, face: _Face, card_id: int, timed: bool, srs: Srs) -> None:
    """Rebuild a face's chain and schedule from its answers, read and replayed again (in
    time order when `timed`), as the check found them to agree best."""
    chain = _chain(audit.scheduled_chain(face))
    rebuilt: list[tuple[int, str | None]] = []
    _, final = _follow(_in_time(chain) if timed else chain, card_id, srs, rebuilt)
    audit.rebuild_chain(face, rebuilt, (final.card_id, dump_card(final), final.due.isoformat()))


def srs_for(conn: sqlite3.Connection, tz: tzinfo | None = None) -> Srs:
    """The scheduler as the player has set it: rebuilt schedules use their retention, and
    each answer is replayed with the FSRS parameters and the day rollover hour in force when
    it was given, its days counted in time zone `tz` (None: the machine's local zone, as play
    counts them)."""
    import json

    stored = Audit(conn).stored_settings()
    try:
        parameters = parameter_history(json.loads(stored.get(PARAMETERS_KEY, "null")))[0]
    except ValueError:  # unreadable JSON: play falls back to the defaults too
        parameters = ()
    try:
        rollover = rollover_history(json.loads(stored.get(ROLLOVER_KEY, "null")))[0]
    except ValueError:  # unreadable JSON: play counts 24-hour periods too
        rollover = ()
    return Srs(
        Settings.from_stored(stored)[0].desired_retention,
        parameters=parameters,
        days=DayCount(rollover, tz),
    )


def check(
    conn: sqlite3.Connection,
    fix: bool = False,
    backup: Callable[[], Path] | None = None,
    tick: Tick | None = None,
    tz: tzinfo | None = None,
) -> Report:
    """Check the database behind `conn` (in autocommit mode: isolation_level=None), reading
    it in one transaction so a game playing meanwhile cannot make findings of half an answer.

    With `fix` that transaction is a write transaction from the start: nothing else writes
    until it ends. If anything is fixable, `backup` is called first (with its own connection,
    which reads the same state; it raises if it cannot write one, and then nothing is
    changed), and every fixable finding is repaired in that same transaction. `tick` is
    told how far the replay of the answers is; `tz` is the zone days are counted in (see
    `srs_for`)."""
    audit = Audit(conn)
    audit.begin(write=fix)
    try:
        findings, repairs = run(conn, srs_for(conn, tz), tick)
        report = Report(findings)
        if fix and repairs:
            if backup is not None:
                report.backup = backup()
            for repair in repairs:
                repair(audit)
            report.fixed = sum(f.fixable for f in findings)
        audit.commit()
    except BaseException:
        with contextlib.suppress(sqlite3.Error):  # the first error is the one to report
            audit.rollback()
        raise
    return report
