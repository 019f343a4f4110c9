"""The seams: a new mode or a new kind of item is a module plus a registration, the JSON Schema
agrees with the kind table, and no module reaches into another's private names."""

from __future__ import annotations

import ast
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from textual.command import CommandPalette

import vocabgame
from vocabgame import kinds
from vocabgame.cli import main
from vocabgame.deck import Catalog, load_catalog, load_text
from vocabgame.deck.load import HEADER_KEYS, ITEM_KEYS, top_keys
from vocabgame.insights import Tally
from vocabgame.kinds import KINDS, ItemKind
from vocabgame.model import Claim, Deck, FaceKey
from vocabgame.paths import schema_path
from vocabgame.play import MODES, Mode, PlanContext, Round, Selection, Session
from vocabgame.play.modes import register, unregister
from vocabgame.play.overview import label
from vocabgame.quiz import Choice, Grade, Kind, Picked, Question, Response
from vocabgame.reading.checker import Checker
from vocabgame.reading.node import Node
from vocabgame.store import Store
from vocabgame.ui.app import VocabApp
from vocabgame.ui.screens.modes import ModePickerScreen
from vocabgame.ui.screens.round import RoundScreen

PACKAGE = Path(vocabgame.__file__).parent
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)

CLAIMS = """
format: 1
id: toy
title: Toy
claims:
  - id: c1
    statement: One.
    answer: true
    explanation: Because.
  - id: c2
    statement: Two.
    answer: false
    explanation: Because.
  - id: c3
    statement: Three.
    answer: true
    explanation: Because.
"""


def _session(tmp_path: Path, deck: Deck) -> Session:
    store = Store.open(tmp_path / "vocabgame.db")
    return Session(store, Catalog((deck,), ()), clock=lambda: NOW, tz=UTC, fuzz=False)


# -- a toy mode: registered from here, nothing else edited -----------------------------------


class SuddenDeath(Mode):
    """Claims only, one point each, no second chances, and the schedule is left alone."""

    id = "sudden-death"
    help = "claims only, one point each; a miss does not come back"
    picker = True
    title = "Sudden death"
    description = "Claims only; a miss does not come back."
    banner = "sudden death"
    updates_schedule = False

    def plan(self, ctx: PlanContext) -> list[FaceKey]:
        keys = [k for k in ctx.faces() if k.face == "claim"]
        return keys[: ctx.size]

    def points(self, correct: bool, streak: int) -> int:
        return int(correct)

    def retry_at(self, position: int, queue_length: int, retries: int) -> int | None:
        return None


@pytest.fixture
def sudden_death() -> Iterator[Mode]:
    mode = register(SuddenDeath())
    yield mode
    unregister(mode.id)


def test_a_mode_registered_from_outside_plays_by_its_own_rules(
    tmp_path: Path, sudden_death: Mode
) -> None:
    deck, _ = load_text(CLAIMS, "toy.yaml")
    assert deck is not None
    session = _session(tmp_path, deck)
    rnd = session.start_round("toy", size=10, seed=1, mode=sudden_death.id)
    assert rnd is not None and rnd.mode == "sudden-death" and rnd.total == 3
    assert rnd.status().banner == "sudden death"
    first = rnd.question()
    assert first is not None
    wrong = next(i for i, c in enumerate(first.choices) if c.value != first.answer)
    outcome = rnd.answer_choice(wrong)
    assert outcome.points == 0 and not outcome.comes_back and outcome.next_due is None
    rnd.advance()
    for _ in range(2):
        q = rnd.question()
        assert q is not None
        outcome = rnd.answer_choice(next(i for i, c in enumerate(q.choices) if c.value == q.answer))
        rnd.advance()
    assert outcome.score == 2 and rnd.question() is None  # one point each, the miss never back
    assert rnd.finish().finished
    modes = {r.mode for r in session.store.answers.all()}
    assert modes == {"sudden-death"}
    assert session.store.schedules.cards() == {}  # answers kept, schedule untouched
    assert rnd.undo() is None  # the round is over
    session.close()


def test_a_mode_that_plans_nothing_and_has_no_fallback_gives_no_round(
    tmp_path: Path, sudden_death: Mode
) -> None:
    deck, _ = load_text(
        CLAIMS.replace("claims:", "recall:")
        .replace("statement", "prompt")
        .replace("    answer: true\n", "    answer: Yes.\n")
        .replace("    answer: false\n", "    answer: No.\n")
        .replace("    explanation: Because.\n", ""),
        "toy.yaml",
    )
    assert deck is not None
    session = _session(tmp_path, deck)
    assert session.start_round("toy", mode=sudden_death.id) is None
    session.close()


def test_undo_in_a_mode_that_leaves_the_schedule_alone_keeps_other_cards(
    tmp_path: Path, sudden_death: Mode
) -> None:
    deck, _ = load_text(CLAIMS, "toy.yaml")
    assert deck is not None
    session = _session(tmp_path, deck)
    learn = session.start_round("toy", size=1, seed=1)
    assert learn is not None
    q = learn.question()
    assert q is not None
    learn.answer_choice(0)
    learn.finish()
    cards = session.store.schedules.cards()
    assert len(cards) == 1
    rnd = session.start_round("toy", size=3, seed=1, mode=sudden_death.id)
    assert rnd is not None
    while (rnd.question() or q).key != q.key:
        rnd.answer_choice(0)
        rnd.advance()
    rnd.answer_choice(0)
    rnd.undo()
    assert (
        session.store.schedules.cards() == cards
    )  # the learned card survived the cram answer and its undo
    session.close()


def _toy_app(tmp_path: Path) -> VocabApp:
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "toy.yaml").write_text(CLAIMS, encoding="utf-8")
    store = Store.open(tmp_path / "vocabgame.db")
    session = Session(store, load_catalog([folder]), clock=lambda: NOW, tz=UTC, fuzz=False)
    return VocabApp(session, seed=1, settle_seconds=0)


async def test_a_mode_registered_from_outside_is_offered_by_the_picker_and_plays(
    tmp_path: Path, sudden_death: Mode
) -> None:
    app = _toy_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("g")
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, ModePickerScreen)
        assert [m.id for m in picker.modes][-1] == "sudden-death"
        await pilot.press(str(len(picker.modes)))
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen) and app.screen.round.mode == "sudden-death"
        await pilot.press("1")
        await pilot.pause()
        assert [r.mode for r in app.session.store.answers.all()] == ["sudden-death"]
    app.session.close()


async def test_a_mode_registered_from_outside_is_offered_by_the_command_palette(
    tmp_path: Path, sudden_death: Mode
) -> None:
    app = _toy_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"Play Toy as Sudden")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert isinstance(app.screen, RoundScreen) and app.screen.round.mode == "sudden-death"
        assert app.screen.round.deck_id == "toy"
    app.session.close()


def test_a_mode_registered_from_outside_keeps_its_best_for_stats(
    tmp_path: Path, sudden_death: Mode
) -> None:
    deck, _ = load_text(CLAIMS, "toy.yaml")
    assert deck is not None
    session = _session(tmp_path, deck)
    assert session.mode_bests()["sudden-death"] == {"best_score": None}
    rnd = session.start("sudden-death", Selection("toy", seed=1))
    assert isinstance(rnd, Round)
    while (q := rnd.question()) is not None:
        rnd.answer_choice(next(i for i, c in enumerate(q.choices) if c.value == q.answer))
        rnd.advance()
    rnd.finish()
    assert session.mode_bests()["sudden-death"] == {"best_score": 3}
    session.close()


def test_a_mode_registered_from_outside_is_offered_by_the_command_line_and_in_stats_json(
    tmp_path: Path, sudden_death: Mode, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    helped = " ".join(capsys.readouterr().out.split())
    assert "sudden-death: claims only, one point each; a miss does not come back" in helped
    assert main(["stats", "--json", "--data-dir", str(tmp_path)]) == 0
    bests = json.loads(capsys.readouterr().out)["mode_bests"]
    assert bests["sudden-death"] == {"best_score": None} and "learn" in bests


class Countdown(SuddenDeath):
    """The toy mode with a clock: five seconds a question."""

    id = "countdown"
    question_seconds = 5.0


def test_a_mode_that_sets_a_countdown_gets_a_clock_from_the_round(tmp_path: Path) -> None:
    mode = register(Countdown())
    try:
        deck, _ = load_text(CLAIMS, "toy.yaml")
        assert deck is not None
        now = [NOW]
        store = Store.open(tmp_path / "vocabgame.db")
        session = Session(store, Catalog((deck,), ()), clock=lambda: now[0], tz=UTC, fuzz=False)
        rnd = session.start(mode.id, Selection("toy", seed=1))
        assert isinstance(rnd, Round)
        assert rnd.time_left() == 5.0
        now[0] += timedelta(seconds=6)
        outcome = rnd.answer_choice(0)  # too late: counts as the time running out
        assert not outcome.grade.correct and outcome.grade.note == "Time ran out."
        assert rnd.timed_out == 1
        session.close()
    finally:
        unregister(mode.id)


def test_every_built_in_mode_says_what_it_is() -> None:
    for mode in MODES.values():
        assert mode.title and mode.description and mode.id


# -- a toy kind of item: a module of its own, one registration ---------------------------------


@dataclass(frozen=True, slots=True)
class Riddle:
    id: str
    riddle: str
    answer: str
    tags: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    line: int = 0


class RiddleKind(ItemKind):
    section = "riddles"
    noun = singular = "riddle"
    plural = "riddles"
    required = ("id", "riddle", "answer")
    item_type = Riddle
    face_labels = {"riddle": "answer a riddle"}
    traits = frozenset({"quick"})
    display_field = "riddle"

    def read(self, checker: Checker, entry: Node, fields: dict[str, Node]) -> Riddle:
        return Riddle(
            riddle=checker.req_text(fields, "riddle"),
            answer=checker.req_text(fields, "answer"),
            **checker.common(fields),
        )

    def faces(self, item: Riddle) -> list[str]:
        return ["riddle"]

    def question(self, deck: Deck, item: Riddle, face: str, rng: random.Random) -> Question:
        choices = [Choice(item.answer, "yes"), Choice("No idea", "no")]
        rng.shuffle(choices)
        return Question(
            key=FaceKey(deck.id, item.id, face),
            kind=Kind.CHOICE,
            label="Riddle",
            prompt=item.riddle,
            choices=tuple(choices),
            answer="yes",
        )

    def grade(self, deck: Deck, item: Riddle, question: Question, response: Response) -> Grade:
        assert isinstance(response, Picked)
        right = question.choices[response.index].value == "yes"
        return Grade(right, 3 if right else 1, question.choices[response.index].text, item.answer)


RIDDLES = """
format: 1
id: riddles
title: Riddles
riddles:
  - id: r1
    riddle: What grows with every token and never shrinks until the request ends?
    answer: The KV cache
"""


@pytest.fixture
def riddles() -> Iterator[ItemKind]:
    kind = kinds.register(RiddleKind())
    yield kind
    kinds.unregister(kind.section)


def test_a_kind_registered_from_outside_is_read_checked_asked_graded_and_played(
    tmp_path: Path, riddles: ItemKind
) -> None:
    bad, problems = load_text(RIDDLES + "    colour: red\n", "riddles.yaml")
    assert bad is None
    assert [str(p) for p in problems] == [
        "riddles.yaml:9:5: error: unknown key 'colour' in riddle 'r1'; allowed keys: id, "
        "riddle, answer, tags, sources, formerly, version, level, topic, lint"
    ]
    deck, problems = load_text(RIDDLES, "riddles.yaml")
    assert deck is not None and problems == []
    assert deck.counts()["riddles"] == 1 and riddles.count(1) == "1 riddle"
    session = _session(tmp_path, deck)
    rnd = session.start_round("riddles", seed=2)
    assert rnd is not None
    q = rnd.question()
    assert q is not None and q.prompt.startswith("What grows")
    outcome = rnd.answer_choice(next(i for i, c in enumerate(q.choices) if c.value == "yes"))
    assert outcome.grade.correct and outcome.points == 10
    assert [r.key for r in session.store.answers.all()] == [FaceKey("riddles", "r1", "riddle")]
    session.close()


class QuickFire(Mode):
    """Only the kinds with the "quick" trait, whatever their section is called."""

    id = "quick-fire"
    title = "Quick fire"
    description = "Quick questions only."

    def plan(self, ctx: PlanContext) -> list[FaceKey]:
        return ctx.faces("quick")[: ctx.size]


def test_a_kind_registered_from_outside_is_chosen_by_trait_and_labelled_in_the_stats(
    tmp_path: Path, riddles: ItemKind
) -> None:
    deck, problems = load_text(RIDDLES + CLAIMS.split("title: Toy\n")[1], "riddles.yaml")
    assert deck is not None and problems == []
    mode = register(QuickFire())
    try:
        session = _session(tmp_path, deck)
        rnd = session.start(mode.id, Selection("riddles", seed=2))
        assert isinstance(rnd, Round) and rnd.queue == [FaceKey("riddles", "r1", "riddle")]
        q = rnd.question()
        assert q is not None
        rnd.answer_choice(next(i for i, c in enumerate(q.choices) if c.value == "yes"))
        view = session.insights("riddles")
        assert view.figures.per_kind == {"answer a riddle": Tally(1, 1)}
        assert label([deck], FaceKey("riddles", "r1", "riddle")).startswith("What grows with")
        session.close()
    finally:
        unregister(mode.id)


def test_without_its_registration_a_section_is_an_unknown_key() -> None:
    _, problems = load_text(RIDDLES, "riddles.yaml")
    assert any("unknown key 'riddles'" in p.message for p in problems)


# -- the JSON Schema agrees with the kind table ------------------------------------------------


def test_the_json_schema_has_exactly_the_keys_of_the_kind_table() -> None:
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    assert list(schema["properties"]) == list(top_keys())
    assert list(top_keys()[: len(HEADER_KEYS)]) == list(HEADER_KEYS)
    for section, kind in KINDS.items():
        items = schema["properties"][section]["items"]
        assert set(items["properties"]) == {*kind.required, *kind.optional, *ITEM_KEYS}, section
        assert items["required"] == list(kind.required), section


def test_items_of_each_kind_are_a_type_of_their_own() -> None:
    types = [kind.item_type for kind in KINDS.values()]
    assert len(set(types)) == len(types) and Claim in types


# -- no module reads another's private names ---------------------------------------------------


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_no_module_imports_or_reads_another_modules_private_names() -> None:
    offenders = []
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        where = path.relative_to(PACKAGE.parent)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module != "__future__":
                offenders += [
                    f"{where}:{node.lineno}: imports {a.name}"
                    for a in node.names
                    if a.name.startswith("_") and not a.name.startswith("__")
                ]
            elif (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
            ):
                offenders.append(f"{where}:{node.lineno}: reads .{node.attr}")
    assert offenders == []


def test_screens_render_what_the_core_returns_and_never_touch_the_store() -> None:
    """The UI may catch the store's error, but never reads or writes through the store."""
    offenders = []
    for path in sorted((PACKAGE / "ui").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), 1):
            if ".store." in line or line.rstrip().endswith("import Store") or ".conn" in line:
                offenders.append(f"{path.name}:{number}: {line.strip()}")
    assert offenders == []


# -- no import cycles ---------------------------------------------------------------------------

# Package faces that may import lazily through a module-level __getattr__ (none today).
LAZY_FACES: frozenset[str] = frozenset()


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, name: str, known: set[str]) -> set[str]:
    """Every vocabgame module this one imports, wherever the import stands (at the top, in a
    function, under TYPE_CHECKING): `from a import b` counts as importing `a.b` when that is a
    module, else `a`."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
            ]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target.startswith("vocabgame") and target != name:
                found.add(target)
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle a depth-first walk of the import graph meets, as a path back to its start."""
    cycles: list[list[str]] = []
    done: set[str] = set()

    def walk(name: str, trail: list[str]) -> None:
        if name in trail:
            cycles.append([*trail[trail.index(name) :], name])
            return
        if name in done:
            return
        for target in sorted(graph[name]):
            walk(target, [*trail, name])
        done.add(name)

    for name in sorted(graph):
        walk(name, [])
    return cycles


def test_no_import_cycle_among_vocabgame_modules() -> None:
    paths = {_module_name(p): p for p in _modules()}
    known = set(paths)
    graph = {name: _imports(path, name, known) for name, path in paths.items()}
    for face in LAZY_FACES:
        graph[face] = set()
    cycles = _cycles(graph)
    assert cycles == [], "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_the_cycle_finder_finds_two_modules_that_import_each_other(tmp_path: Path) -> None:
    """The test above can fail: a deferred import back is an edge, and the cycle is named."""
    (tmp_path / "vocabgame").mkdir()
    a, b = tmp_path / "vocabgame" / "a.py", tmp_path / "vocabgame" / "b.py"
    a.write_text("from vocabgame import b\n")
    b.write_text("def f():\n    from vocabgame.a import x\n")
    known = {"vocabgame", "vocabgame.a", "vocabgame.b"}
    graph = {"vocabgame.a": _imports(a, "vocabgame.a", known)}
    graph["vocabgame.b"] = _imports(b, "vocabgame.b", known)
    assert _cycles(graph) == [["vocabgame.a", "vocabgame.b", "vocabgame.a"]]


# -- sizes a reader can hold ---------------------------------------------------------------------

MAX_MODULE_LINES = 700
MAX_CLASS_LINES = 400


def test_no_module_over_700_lines_and_no_class_over_400() -> None:
    too_long = []
    for path in _modules():
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(PACKAGE.parent)
        if len(text.splitlines()) > MAX_MODULE_LINES:
            too_long.append(f"{where}: {len(text.splitlines())} lines")
        for node in ast.walk(ast.parse(text, str(path))):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_CLASS_LINES:
                    too_long.append(f"{where}:{node.lineno}: class {node.name}, {lines} lines")
    assert too_long == []
