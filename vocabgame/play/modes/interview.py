"""A mock interview: a timed round with no feedback until the end, then a report.

`InterviewMode.start` plans it and returns an `Interview`, which wraps a
`Round`: choice, typed and number answers are graded and saved as they are given (the player is
told nothing); a recall question takes a typed answer that is set aside, and graded at the end
by the key points the player ticks on the report. After each answer, before any model answer
is shown, the player may say how sure they are (`Interview.say_confidence`, a level of
`vocabgame.calibration`): it is kept with the answer, and the report compares it with the
answers counted right. `Interview.finish` saves the recall answers, builds the report and
keeps it in the store. `markdown` prints a saved report.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, ClassVar

from vocabgame.kinds import KINDS, item_faces, sections_with
from vocabgame.model import Deck, FaceKey, levels_label
from vocabgame.play.context import Limits, RoundContext
from vocabgame.play.modes.base import (
    Mode,
    ModeId,
    PlanContext,
    Selection,
    Starter,
    one_per_item,
    register,
    round_robin,
)
from vocabgame.play.outcome import Outcome
from vocabgame.play.round import Round
from vocabgame.quiz.question import Kind, Picked, Question, Refused, SelfGraded, Typed
from vocabgame.settings import Settings
from vocabgame.stats import deck_shape
from vocabgame.store import ReportRecord, Store

WEAKEST = 5  # items the report lists with their model answers
WEAK_SHARE = 0.75  # a tag answered right less often than this is worth reviewing


def rating_for_ticks(ticked: int, points: int) -> int:
    """The schedule's rating for a recall answer that covered `ticked` of `points` key points
    (an answer without key points has one: the model answer). All of them: Good; at least half:
    Hard; fewer: Again."""
    points = max(points, 1)
    ticked = min(max(ticked, 0), points)
    if ticked == points:
        return 3
    return 2 if 2 * ticked >= points else 1


@dataclass(slots=True)
class Asked:
    """One question of the interview, as answered."""

    question: Question
    given: str
    seconds: float
    outcome: Outcome | None  # None: a recall answer waiting for its ticks
    review_id: int | None = None  # the stored answer (None: not yet, or not kept)
    confidence: float | None = None  # the chance of being right the player said (None: not said)

    @property
    def key(self) -> FaceKey:
        return self.question.key

    @property
    def pending(self) -> bool:
        return self.outcome is None


class InterviewMode(Mode):
    """A mock interview against a clock, with a report at the end (`Interview`). Answers
    update the schedule like any review."""

    id = ModeId.INTERVIEW
    rank = 40
    help = (
        "a timed mock interview with no feedback until its report (see --minutes, "
        "--questions, vocabgame reports)"
    )
    title = "Interview practice"
    description = (
        "A timed mock interview: recall, scenarios, calculations and claims, no hints, "
        "then an honest report."
    )
    banner = "mock interview"
    keeps_round = False  # its record is the report
    max_retries = 0  # nothing comes back: no feedback was shown
    asks = "interview"  # the kinds an interviewer asks (`ItemKind.traits`)
    filler: ClassVar[str] = "interview-filler"  # the kinds asked when those run short
    picker = True
    undo = False  # an interview takes no answer back
    nothing_to_play = "These decks have no questions to ask."

    def plan(self, ctx: PlanContext) -> list[FaceKey]:
        picked: list[FaceKey] = []
        taken: set[tuple[str, str]] = set()
        for trait in (self.asks, self.filler):
            sections = sections_with(trait)
            if len(picked) >= ctx.size:
                break
            if ctx.store is not None and ctx.curve is not None:
                if _asks_any(ctx.decks, sections):
                    left = ctx.size - len(picked)
                    keys = _new_then_weakest(ctx, sections, left + len(taken))
                    picked += one_per_item(keys, left, taken)
                continue
            # a typed term is no interview question; its picks are
            ours = [k for k in round_robin(ctx.decks, sections) if k.face != "typed"]
            if not ours:
                continue
            cards = ctx.cards_of(ours)
            # Never asked first, then the least remembered: an interview tests what is shaky.
            new = [k for k in ours if k not in cards]
            seen = sorted(
                (k for k in ours if k in cards),
                key=lambda k: (ctx.retrievability(cards[k]), k),
            )
            picked += one_per_item([*new, *seen], ctx.size - len(picked), taken)
        return picked

    def limits(self, settings: Settings, choice: Selection) -> Limits:
        minutes = settings.interview_minutes if choice.minutes is None else choice.minutes
        return Limits(round_seconds=minutes * 60)

    def start(self, starter: Starter, choice: Selection) -> Interview | None:
        """A mock interview of the chosen (or the settings') number of questions against a
        clock of the chosen (or the settings') minutes, whichever ends first."""
        size = choice.questions or starter.settings.interview_questions
        limits = self.limits(starter.settings, choice)
        round_ = starter.open_round(self, choice, size=size, limits=limits)
        if round_ is None:
            return None
        return Interview(starter.round_context(), round_, size, levels=choice.levels)

    def bests(self, store: Store, settings: Settings) -> dict[str, Any] | None:
        interviews = store.saved_reports.all(self.id)
        return {
            "reports": len(interviews),
            "best_right": max((r.correct for r in interviews), default=None),
        }


@dataclass(slots=True)
class Interview:
    context: RoundContext
    round: Round
    question_limit: int
    asked: list[Asked] = field(default_factory=list)
    ticks: dict[int, list[int]] = field(default_factory=dict)  # by place in `asked`
    made: set[int] = field(default_factory=set)  # recall answers that made the common mistake
    levels: tuple[str, ...] = ()  # the levels asked (empty: every item)
    _shown: tuple[int, datetime] | None = None  # (position, when) the question went up

    # -- the clock ------------------------------------------------------------------------------

    @property
    def deadline(self) -> datetime:
        """When the interview's time is up (the round's time limit)."""
        return self.round.started_at + timedelta(seconds=self.round.limits.round_seconds or 0)

    def time_left(self) -> float:
        """Seconds left, never below 0."""
        return self.round.round_time_left() or 0.0

    @property
    def out_of_time(self) -> bool:
        return self.time_left() <= 0

    def over(self) -> bool:
        """The time is up or every question is answered."""
        return self.out_of_time or self.round.question() is None

    # -- asking and answering ---------------------------------------------------------------------

    def question(self) -> Question | None:
        """The question to ask now, or None when the interview is over."""
        if self.over():
            return None
        question = self.round.question()
        if self._shown is None or self._shown[0] != self.round.position:
            self._shown = (self.round.position, self.context.clock())
        return question

    def _seconds(self) -> float:
        shown = self._shown[1] if self._shown is not None else self.round.started_at
        return max(0.0, (self.context.clock() - shown).total_seconds())

    def _require(self) -> Question:
        question = self.question()
        if question is None:
            raise RuntimeError("the interview is over")
        return question

    def answer_choice(self, index: int) -> None:
        question = self._require()
        if question.kind != Kind.CHOICE or not 0 <= index < len(question.choices):
            raise IndexError(index)
        seconds = self._seconds()
        outcome = self.round.answer(Picked(index))
        assert isinstance(outcome, Outcome)
        self._done(question, question.choices[index].text, seconds, outcome)
        self.asked[-1].review_id = self.round.last_review_id

    def answer_text(self, text: str) -> Refused | None:
        """A typed term or number, or a recall answer (kept for the ticks at the end). Refused,
        with the reason, when a number was expected and `text` is not one: nothing is kept."""
        question = self._require()
        seconds = self._seconds()
        if question.kind == Kind.RECALL:
            self.round.set_aside()
            self._done(question, text.strip(), seconds, None)
            return None
        outcome = self.round.answer(Typed(text))
        if isinstance(outcome, Refused):
            return outcome
        self._done(question, text.strip(), seconds, outcome)
        self.asked[-1].review_id = self.round.last_review_id
        return None

    def say_confidence(self, key: int) -> float:
        """How sure the player is of the answer just given, as a level's key (1 guessing to
        4 certain, `vocabgame.calibration.LEVELS`); returns the level's chance of being right.
        An answer already kept gets it in the store now; a recall answer gets it when its
        ticks grade it. Saying it again replaces it. KeyError for a key that is no level,
        RuntimeError before any answer; StoreError when the store refuses (the answer stays
        kept, without it)."""
        if not self.asked:
            raise RuntimeError("no answer was given yet")
        asked = self.asked[-1]
        from vocabgame.calibration import level  # when asked: the first screen needs none of it

        said = level(key).said
        if asked.review_id is not None:
            self.context.store.answers.set_confidence(asked.review_id, said)
        asked.confidence = said
        return said

    def _done(
        self, question: Question, given: str, seconds: float, outcome: Outcome | None
    ) -> None:
        self.asked.append(Asked(question, given, seconds, outcome))
        self.round.advance()
        self._shown = None

    def recalls(self) -> list[tuple[int, Asked]]:
        """The recall answers waiting for their ticks, by their place in `asked`."""
        return [(n, a) for n, a in enumerate(self.asked) if a.pending]

    # -- the end ----------------------------------------------------------------------------------

    def finish(
        self, ticks: Mapping[int, Collection[int]], made: Collection[int] = ()
    ) -> ReportRecord:
        """Grade each recall answer by the key points ticked for it (`ticks[n]`: the indexes of
        the points ticked for `asked[n]`), save them as reviews of their faces, end the round,
        and keep the report (when anything was asked). `made`: the places in `asked` of the
        recall answers the player marked as making the question's common mistake (the report
        lists those; the ticks alone grade). Returns the report (id 0: not kept)."""
        now, store = self.context.clock(), self.context.store
        self.made = {n for n, asked in self.recalls() if n in set(made) and asked.question.mistake}
        for n, asked in self.recalls():
            points = len(asked.question.key_points)
            ticked = {i for i in ticks.get(n, ()) if 0 <= i < max(points, 1)}
            rating = rating_for_ticks(len(ticked), points)
            asked.outcome = self.round.answer_set_aside(
                asked.question, SelfGraded(rating, asked.given), asked.seconds
            )
            asked.review_id = self.round.last_review_id
            self.ticks[n] = sorted(ticked)
            if asked.confidence is not None and asked.review_id is not None:
                store.answers.set_confidence(asked.review_id, asked.confidence)
        summary = self.round.finish()
        seconds = min(summary.seconds, (self.deadline - self.round.started_at).total_seconds())
        body = build_body(self, seconds)
        decks = [d.id for d in self.decks()]
        correct = sum(1 for a in self.asked if a.outcome is not None and a.outcome.grade.correct)
        report_id = 0
        if self.asked and store.read_only is None:  # nothing asked: nothing to keep
            report_id = store.saved_reports.save(
                ModeId.INTERVIEW, now, decks, len(self.asked), correct, seconds, body
            )
        return ReportRecord(
            report_id, "interview", now, tuple(decks), len(self.asked), correct, seconds, body
        )

    def decks(self) -> list[Deck]:
        """The decks the interview asks from, in the order first asked."""
        catalog = {d.id: d for d in self.context.decks}
        ids = dict.fromkeys(k.deck_id for k in self.round.queue)
        return [catalog[i] for i in ids if i in catalog]


def build_body(interview: Interview, seconds: float) -> dict[str, Any]:
    """The report as plain data (kept as JSON in the store)."""
    from vocabgame.insights import face_kind  # at the report: the first screen needs none of it

    decks = {d.id: d for d in interview.context.decks}
    questions: list[dict[str, Any]] = []
    by_tag: dict[str, list[int]] = {}
    by_kind: dict[str, list[int]] = {}
    for n, asked in enumerate(interview.asked):
        question, outcome = asked.question, asked.outcome
        deck = decks.get(question.key.deck_id)
        item = deck.item(question.key.item_id) if deck is not None else None
        tags = sorted({*(getattr(item, "tags", ()) or ()), *(deck.tags if deck else ())})
        correct = bool(outcome is not None and outcome.grade.correct)
        grade = outcome.grade if outcome is not None else None
        kind = face_kind(question.key.face)
        questions.append(
            {
                "deck": question.key.deck_id,
                "item": question.key.item_id,
                "face": question.key.face,
                "kind": kind,
                "prompt": question.prompt,
                "given": asked.given,
                "right_answer": grade.right_answer if grade else question.answer,
                "correct": correct,
                "rating": grade.rating if grade else None,
                "seconds": round(asked.seconds, 1),
                "confidence": asked.confidence,
                "tags": tags,
                "key_points": list(question.key_points),
                "ticks": interview.ticks.get(n) if question.kind == Kind.RECALL else None,
                "mistake": question.mistake,
                "made_mistake": n in interview.made if question.mistake else None,
                "explanation": grade.explanation if grade else "",
                "why_not": grade.why_not if grade else None,
                "distinction": grade.distinction if grade else None,
                "sources": [
                    {"title": s.title, "url": s.url} for s in (grade.sources if grade else ())
                ],
            }
        )
        for tag in tags:
            tally = by_tag.setdefault(tag, [0, 0])
            tally[0] += correct
            tally[1] += 1
        tally = by_kind.setdefault(kind, [0, 0])
        tally[0] += correct
        tally[1] += 1
    weakest = sorted(
        (n for n, q in enumerate(questions) if not q["correct"]),
        key=lambda n: (questions[n]["rating"] or 0, -questions[n]["seconds"], n),
    )[:WEAKEST]
    return {
        "decks": [{"id": d.id, "title": d.title} for d in interview.decks()],
        "minutes": round((interview.deadline - interview.round.started_at).total_seconds() / 60, 2),
        "question_limit": interview.question_limit,
        "levels": list(interview.levels),
        "seconds": round(seconds, 1),
        "time_ran_out": interview.out_of_time and len(interview.asked) < interview.question_limit,
        "questions": questions,
        "by_tag": dict(sorted(by_tag.items())),
        "by_kind": dict(sorted(by_kind.items())),
        "weakest": weakest,
        "mistakes_made": sorted(interview.made),
        "calibration": report_calibration(questions),
        "next": next_steps(questions, by_tag, decks),
    }


def report_calibration(questions: list[dict[str, Any]]) -> dict[str, Any] | None:
    """How the player's confidence matched the answers counted right (`Calibration.as_json`,
    with `asked`, the answers given, beside), or None when no confidence was said."""
    from vocabgame.calibration import calibrate

    said = [(q["confidence"], q["correct"]) for q in questions if q.get("confidence") is not None]
    if not said:
        return None
    return calibrate(said).as_json() | {"asked": len(questions)}


def next_steps(
    questions: list[dict[str, Any]], by_tag: Mapping[str, list[int]], decks: Mapping[str, Deck]
) -> list[str]:
    """What to do next, most useful first."""
    steps: list[str] = []
    for q in questions:
        deck = decks.get(q["deck"])
        if q["correct"] or deck is None:
            continue
        right, given = deck.term(q["right_answer"]), None
        for term in deck.terms:
            if q["given"] in (term.term, term.definition):
                given = term
        right = right or next((t for t in deck.terms if t.term == q["right_answer"]), None)
        if right is not None and given is not None and right.id != given.id:
            step = f"drill {right.term} vs {given.term} (vocabgame play --mode drill)"
            if step not in steps:
                steps.append(step)
    weak_tags = sorted(
        (t for t, (r, n) in by_tag.items() if n and r / n < WEAK_SHARE),
        key=lambda t: (by_tag[t][0] / by_tag[t][1], t),
    )
    steps += [f"review the {t} items (vocabgame play --tag {t})" for t in weak_tags[:3]]
    missed: dict[str, int] = {}
    for q in questions:
        if not q["correct"]:
            missed[q["deck"]] = missed.get(q["deck"], 0) + 1
    if missed:
        worst = max(missed, key=lambda d: (missed[d], d))
        title = decks[worst].title if worst in decks else worst
        steps.append(f"review the {title} deck (vocabgame play --deck {worst})")
    if not steps:
        steps.append("every answer right: try a longer interview (--questions, --minutes)")
    return steps


REPORTS = "reports"  # the data folder's folder of report files saved from the report screen


def reports_folder(interview: Interview) -> Path:
    """Where the report screen saves reports as Markdown: `reports/` in the data folder,
    beside the progress database."""
    return interview.context.store.path.parent / REPORTS


def duration(seconds: float) -> str:
    whole = round(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


WEAKEST_FIRST = 3  # weakest answers the report opens with, in full; the rest come later


def markdown(record: ReportRecord) -> str:
    """A saved interview report as Markdown, fit to paste into notes: the score, then the
    three weakest answers, then every question, the recall answers, the tallies, the rest of
    the weakest and what to do next."""
    body = record.body
    questions: list[dict[str, Any]] = body.get("questions", [])
    decks = ", ".join(d["title"] for d in body.get("decks", [])) or "no deck"
    lines = [
        f"# Mock interview {record.id}: {record.correct} of {record.questions} right",
        "",
        f"- Date: {record.made_at.strftime('%Y-%m-%d %H:%M')} UTC",
        f"- Decks: {decks}",
        *([f"- Levels: {levels_label(tuple(body['levels']))}"] if body.get("levels") else []),
        f"- Time: {duration(record.seconds)} of {duration(float(body.get('minutes', 0)) * 60)}"
        + (" (time ran out)" if body.get("time_ran_out") else ""),
    ]
    weakest = [questions[n] for n in body.get("weakest", [])]
    if weakest:
        lines += ["", "## Weakest", ""]
        for q in weakest[:WEAKEST_FIRST]:
            lines += [*_weak(q), ""]
        lines.pop()
    lines += [
        "",
        "## Questions",
        "",
        "| # | kind | right | seconds | question |",
        "| --- | --- | --- | --- | --- |",
    ]
    for n, q in enumerate(questions, 1):
        mark = "yes" if q["correct"] else "no"
        lines.append(f"| {n} | {q['kind']} | {mark} | {q['seconds']:g} | {_cell(q['prompt'])} |")
    recalls = [q for q in questions if q.get("ticks") is not None]
    if recalls:
        lines += ["", "## Recall answers", ""]
        for q in recalls:
            lines += [f"### {q['prompt']}", "", f"Your answer: {q['given'] or '(nothing)'}", ""]
            lines += [f"Model answer: {q['right_answer']}", ""]
            ticked = set(q["ticks"] or [])
            points = q["key_points"] or [q["right_answer"]]
            lines += [f"- [{'x' if i in ticked else ' '}] {p}" for i, p in enumerate(points)]
            if q.get("mistake"):
                said = " (your answer made it)" if q.get("made_mistake") else ""
                lines += ["", f"Common mistake{said}: {q['mistake']}"]
            lines.append("")
        lines.pop()
    lines += calibration_lines(body.get("calibration"))
    made = [questions[n] for n in body.get("mistakes_made", []) if 0 <= n < len(questions)]
    if made:
        lines += ["", "## Common mistakes your answers made", ""]
        lines += [f"- {q['mistake']} ({_cell(q['prompt'])})" for q in made]
    lines += ["", "## By tag", ""]
    lines += [f"- {t}: {r} of {n}" for t, (r, n) in body.get("by_tag", {}).items()] or ["- none"]
    lines += ["", "## By kind", ""]
    lines += [f"- {k}: {r} of {n}" for k, (r, n) in body.get("by_kind", {}).items()]
    if weakest[WEAKEST_FIRST:]:
        lines += ["", "## Also missed", ""]
        for q in weakest[WEAKEST_FIRST:]:
            lines += [*_weak(q), ""]
        lines.pop()
    lines += ["", "## Next", ""]
    lines += [f"- {step}" for step in body.get("next", [])]
    return "\n".join(lines) + "\n"


def calibration_lines(kept: Mapping[str, Any] | None) -> list[str]:
    """The report's section on how sure the player was (nothing when nothing was said): the
    Brier score and the calibration table."""
    from vocabgame.calibration import score_text, verdict

    if not kept or not kept.get("answers"):
        return []
    asked = kept.get("asked", kept["answers"])
    lines = [
        "",
        "## How sure you were",
        "",
        f"You said how sure you were of {kept['answers']} of {asked} answers."
        f" {verdict(kept['said'], kept['right_share'])}",
        "",
        f"Brier score {score_text(kept['brier'])}: the mean of (the chance you said − the outcome)²,"
        " the outcome 1 for a right answer and 0 for a wrong one; 0 is perfect, and always"
        " saying 50% scores 0.250.",
        "",
        "| you said | answers | right |",
        "| --- | --- | --- |",
    ]
    for row in kept["levels"]:
        share = "—" if row["right_share"] is None else f"{row['right_share']:.0%}"
        name = f"{row['level']} {row['label']} ({row['said']:.0%})"
        lines.append(f"| {name} | {row['answers']} | {share} |")
    return lines


def _weak(q: Mapping[str, Any]) -> list[str]:
    """One weak answer: the question, what was answered, the answer and why."""
    lines = [f"### {q['prompt']}", ""]
    if q["given"]:
        lines.append(f"- You answered: {q['given']}")
    lines.append(f"- Answer: {q['right_answer']}")
    if q.get("why_not"):
        lines.append(f"- Why not: {q['why_not']}")
    if q.get("explanation"):
        lines.append(f"- Why: {q['explanation']}")
    for source in q.get("sources", []):
        lines.append(f"- Source: [{source['title']}]({source['url']})")
    return lines


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def report_row(record: ReportRecord) -> dict[str, Any]:
    """One line of `vocabgame reports`."""
    return {
        "id": record.id,
        "date": record.made_at.isoformat(),
        "decks": list(record.decks),
        "questions": record.questions,
        "right": record.correct,
        "seconds": round(record.seconds, 1),
    }


register(InterviewMode())


def _asks_any(decks: Collection[Deck], sections: tuple[str, ...]) -> bool:
    """Whether any item of `sections` in these decks has a face other than a typed term."""
    return any(
        face != "typed"
        for deck in decks
        for section in sections
        for item in deck.section(section)
        for face in item_faces(item)
    )


def _new_then_weakest(ctx: PlanContext, sections: tuple[str, ...], items: int) -> Iterator[FaceKey]:
    """The faces of `sections` (but typed terms) never asked first, in `round_robin`'s order
    (at least `items` items of them, or all), then the least remembered, as the plan from
    every card orders them. No card is decoded and no face of every item is listed: the new
    faces come from the per-item summary and the deck's kept order (`_never_asked`), and the
    store orders the cards a page at a time (`least_remembered`), read only once the new
    faces run out."""
    store, curve = ctx.store, ctx.curve
    assert store is not None and curve is not None
    yield from _never_asked(store, ctx.decks, sections, items)
    decks = {deck.id: deck for deck in ctx.decks}
    shapes = {d: deck_shape(deck) for d, deck in decks.items()}
    kinds = {n for n, section in enumerate(KINDS) if section in sections}
    for d, item_id, face in store.schedules.least_remembered(sorted(decks), ctx.now, curve):
        shape = shapes[d]
        at = shape.position.get(item_id)
        # one of ours: a live face of an item of these sections, not a typed term
        if at is not None and at[0] in kinds and face != "typed" and (item_id, face) in shape.keys:
            yield FaceKey(d, item_id, face)


def _never_asked(
    store: Store, decks: Collection[Deck], sections: tuple[str, ...], items: int
) -> list[FaceKey]:
    """The faces of `sections` (but typed terms) with no schedule, in `round_robin`'s order:
    every one, or a first part of them holding at least `items` items. They are faces of the
    items with fewer faces scheduled than they have, which the per-item summary names in the
    deck's order of new items (`first_short`, a page at a time), unless the summary home
    reads already counts every face of the deck scheduled; each page's scheduled faces are
    looked up in one query a deck. Pages grow until they hold `items` items or the whole
    order; the list is cut where the shortest page read ends, so no face before the cut was
    passed over."""
    kinds = {n for n, section in enumerate(KINDS) if section in sections}
    shapes = [deck_shape(deck) for deck in decks]
    # a deck whose every face counts as scheduled in the per-item summary home reads (kept
    # until the store changes) has no item short of a face: its order is not read
    short_of = [
        store.items.deck_summary(deck.id, shape.live)[1] < sum(shape.faces.values())
        for deck, shape in zip(decks, shapes, strict=True)
    ]
    # per deck, the new faces of each item looked at so far, with their places
    new: list[dict[str, list[tuple[tuple[int, int], FaceKey]]]] = [{} for _ in shapes]
    count = max(items, 1)
    while True:
        cut: tuple[int, int] | None = None  # the place up to which the faces found are all
        for number, (deck, shape) in enumerate(zip(decks, shapes, strict=True)):
            if not short_of[number]:
                continue
            short = store.items.first_short(deck.id, shape.live, count)
            if len(short) == count:  # the order goes on: whole up to its last item read
                kind, first = shape.position[short[-1]]
                here = (first, number * len(KINDS) + kind)
                cut = here if cut is None else min(cut, here)
            seen = new[number]
            ours = [i for i in short if i not in seen and shape.position[i][0] in kinds]
            answered = store.schedules.scheduled_of(deck.id, ours) if ours else set()
            for item_id in ours:
                item = deck.item(item_id)
                kind, first = shape.position[item_id]
                seen[item_id] = [
                    ((first + index, number * len(KINDS) + kind), FaceKey(deck.id, item_id, face))
                    for index, face in enumerate(item_faces(item) if item is not None else ())
                    if face != "typed" and (item_id, face) not in answered
                ]
        found = sorted(
            (f for seen in new for faces in seen.values() for f in faces), key=lambda f: f[0]
        )
        if cut is not None:
            found = [f for f in found if f[0] <= cut]
        if cut is None or len({(k.deck_id, k.item_id) for _, k in found}) >= items:
            return [key for _, key in found]
        count *= 8
