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
from datetime import datetime
from pathlib import Path

from fsrs import Card, State

from vocabgame.settings import Settings
from vocabgame.srs import PARAMETERS_KEY, Srs, as_utc, dump_card, load_card, parameter_history
from vocabgame.store import SUMMARIES, Summary
from vocabgame.store.audit import Audit

INTEGRITY = "integrity"
ORPHAN_REVIEW = "orphan-review"
CARD_WITHOUT_REVIEW = "card-without-review"
MISSING_CARD = "missing-card"
CARD_MISMATCH = "card-mismatch"
DUE_COLUMN = "due-column"
SUMMARY = "summary"


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


def run(conn: sqlite3.Connection, srs: Srs) -> tuple[list[Finding], list[_Repair]]:
    """Every finding, and the repairs for the fixable ones (run them in one transaction)."""
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
    for face, links in audit.scheduled_chains():
        answered.add(face)
        chain = [
            (rid, datetime.fromisoformat(at), rating, before) for rid, at, rating, before in links
        ]
        _replay(face, chain, cards.get(face), srs, findings, repairs)

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


def _compare(
    audit: Audit, summary: Summary, findings: list[Finding], repairs: list[_Repair]
) -> None:
    """One finding when a summary table disagrees with the answers it summarises."""
    kept, truth = audit.summary_rows(summary)
    if kept == truth:
        return
    wrong, missing = len(kept - truth), len(truth - kept)
    findings.append(
        Finding(
            SUMMARY,
            f"the summary table {summary.table} disagrees with the answers: {wrong} row(s) kept"
            f" that they do not give, {missing} row(s) they give that it lacks",
        )
    )
    repairs.append(lambda a: a.rebuild_summary(summary))


_Chain = list[tuple[int, datetime, int, str | None]]


def _follow(
    chain: _Chain, card_id: int, srs: Srs
) -> tuple[list[str], list[tuple[int, str | None]], Card]:
    """Replay a chain of answers from a new card: what disagrees with each stored card-before,
    each answer's card-before as replayed, and the card the last answer makes."""
    problems: list[str] = []
    rebuilt: list[tuple[int, str | None]] = []
    card: Card | None = None
    for review_id, at, rating, before_text in chain:
        before = _load(before_text)
        if card is None and before is not None:
            problems.append(f"answer {review_id} starts from a card, but it is the first")
        elif card is not None and before is not None:  # None later on: not recorded (merged)
            diff = differences(before, card)
            if diff:
                problems.append(f"answer {review_id} starts from {'; '.join(diff)}")
        rebuilt.append((review_id, None if card is None else dump_card(card)))
        card = srs.review(card or Srs.new_card(card_id, at), rating, at)
    assert card is not None
    return problems, rebuilt, card


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

    def attempt(order: _Chain) -> tuple[list[str], list[tuple[int, str | None]], Card]:
        problems, rebuilt, card = _follow(order, card_id, srs)
        if saved is not None:
            diff = differences(saved, card)
            if diff:
                problems.append("the schedule has " + "; ".join(diff))
        return problems, rebuilt, card

    problems, rebuilt, card = attempt(chain)
    in_time = sorted(chain, key=lambda answer: (as_utc(answer[1]), answer[0]))
    if problems and in_time != chain:
        problems, rebuilt, card = attempt(in_time)
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
        final = card

        written = (final.card_id, dump_card(final), final.due.isoformat())
        repairs.append(lambda a: a.rebuild_chain(face, rebuilt, written))


def srs_for(conn: sqlite3.Connection) -> Srs:
    """The scheduler as the player has set it: rebuilt schedules use their retention, and
    each answer is replayed with the FSRS parameters in force when it was given."""
    import json

    stored = Audit(conn).stored_settings()
    try:
        parameters = parameter_history(json.loads(stored.get(PARAMETERS_KEY, "null")))[0]
    except ValueError:  # unreadable JSON: play falls back to the defaults too
        parameters = ()
    return Srs(Settings.from_stored(stored)[0].desired_retention, parameters=parameters)


def check(
    conn: sqlite3.Connection, fix: bool = False, backup: Callable[[], Path] | None = None
) -> Report:
    """Check the database behind `conn` (in autocommit mode: isolation_level=None), reading
    it in one transaction so a game playing meanwhile cannot make findings of half an answer.

    With `fix` that transaction is a write transaction from the start: nothing else writes
    until it ends. If anything is fixable, `backup` is called first (with its own connection,
    which reads the same state; it raises if it cannot write one, and then nothing is
    changed), and every fixable finding is repaired in that same transaction."""
    audit = Audit(conn)
    audit.begin(write=fix)
    try:
        findings, repairs = run(conn, srs_for(conn))
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
