"""Test-taking tells: the patterns that let a player pick the right answer without knowing it.

`vocabgame validate --strict` runs every rule here and reports what it finds as warnings named
by the rule, `PATH:LINE:COL: warning: MESSAGE [rule-name]`. Rules look only at what an author
wrote (scenario choices, cues, claims, calculation explanations), never at the distractors a
round draws at random. One small function per rule; `RULES` lists them all, so the docs and
the tests can too. An item silences a rule with `lint: {ignore: [rule-name], reason: ...}`.

Most rules read one item; `absolute-claims` reads a deck's claims together, and
`near-duplicate` compares every item of every deck validated together (`Corpus`).
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from vocabgame.deck.entry import Entry
from vocabgame.kinds.calculation import MAX_COMBINATIONS
from vocabgame.model import Calculation, Claim, Confusable, Deck, Scenario
from vocabgame.problems import Problem
from vocabgame.reading import calc
from vocabgame.reading.node import Node

LONGEST_ANSWER = "longest-answer"
HEDGED_ANSWER = "hedged-answer"
SHARED_WORD = "shared-word"
ABSOLUTE_DISTRACTORS = "absolute-distractors"
ABSOLUTE_CLAIMS = "absolute-claims"
CUE_NAMES_TERM = "cue-names-term"
NEAR_DUPLICATE = "near-duplicate"
MISSING_WHY_NOT = "missing-why-not"
CALC_TOLERANCE = "calc-tolerance"

# -- thresholds, each explained in docs/authoring.md -----------------------------------------------

LONGEST_RATIO = 1.5  # the answer is at least this many times as long as every distractor ...
LONGEST_MARGIN = 8  # ... and at least this many characters longer
ABSOLUTE_CLAIMS_MIN = 4  # deck-wide: at least this many claims use absolute words ...
ABSOLUTE_CLAIMS_FALSE_SHARE = 0.8  # ... and at least this share of them are false
NEAR_DUPLICATE_RATIO = 0.9  # difflib ratio of the normalised texts
NEAR_DUPLICATE_MIN_WORDS = 4  # shorter choices are names and phrases, not sentences
CALC_CLOSE = 0.1  # a stated result within 10% of a computed answer is taken to mean it

HEDGES = (
    "usually",
    "typically",
    "often",
    "may",
    "might",
    "can",
    "generally",
    "in general",
    "in most cases",
    "sometimes",
    "tends to",
    "tend to",
    "likely",
    "mostly",
)
ABSOLUTES = ("always", "never", "must", "only", "any", "nothing")

# "can't" says what cannot happen: a negation, not a hedge.
_HEDGE = re.compile(
    r"\b(" + "|".join(h.replace(" ", r"\s+") for h in HEDGES) + r")\b(?!['’]t)", re.I
)
# Not inside a hyphenated name: "weight-only quantization" claims nothing absolute.
_ABSOLUTE = re.compile(r"(?<![\w-])(" + "|".join(ABSOLUTES) + r")(?![\w-])", re.I)
_WORD = re.compile(r"[a-z0-9]+")

# Common English words that say nothing about the subject (words under 4 letters never count).
_STOPWORD_TEXT = """
    about above after again against also although among another because been before being
    below between both could does doing done down during each either else even ever every
    first five four from further goes going half have having here hers herself himself
    however instead into itself just last least less like made make makes many more most
    much must need needed needs neither next none nothing only other others ourselves over
    rather same second should since some still such take takes than that their theirs them
    themselves then there these they this those though three through thus under until upon
    used uses using very want well were what whatever when where whether which whichever
    while whom whose will with within without would your yours yourself yourselves
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def stem(word: str) -> str:
    """A crude stem, enough to match 'batches' with 'batching': lowercase, common suffixes off."""
    word = word.casefold()
    for suffix, repl in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) + len(repl) >= 4:
            return word[: len(word) - len(suffix)] + repl
    return word


def content_words(text: str) -> dict[str, str]:
    """The stems of a text's words of 4 letters or more that are not stopwords, each with the
    first word it came from."""
    out: dict[str, str] = {}
    for word in _WORD.findall(text.casefold()):
        if len(word) >= 4 and word not in STOPWORDS:
            out.setdefault(stem(word), word)
    return out


# -- what the rules read ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Finding:
    """What a lint rule found, and where."""

    node: Node | tuple[int, int]
    message: str


Scope = Literal["item", "deck", "decks"]


@dataclass(frozen=True, slots=True)
class Rule:
    """A named tell. `check` reads one item (scope "item") or a whole deck ("deck"); the
    cross-deck rule ("decks") is run by `Corpus`."""

    name: str
    summary: str
    scope: Scope
    check: Callable[..., Iterator[Finding]] | None = None


RULES: dict[str, Rule] = {}


def rule(
    name: str, summary: str, scope: Scope = "item"
) -> Callable[[Callable[..., Iterator[Finding]]], Callable[..., Iterator[Finding]]]:
    def register(check: Callable[..., Iterator[Finding]]) -> Callable[..., Iterator[Finding]]:
        RULES[name] = Rule(name, summary, scope, check)
        return check

    return register


def _shown(deck: Deck, choice: str) -> str:
    """A scenario choice as the player sees it: a term id is shown as the term."""
    term = deck.term(choice)
    return term.term if term is not None else choice


def _choice_nodes(entry: Entry) -> dict[str, Node]:
    node = entry.fields.get("choices")
    if node is None or node.kind != "seq":
        return {}
    return {n.value: n for n in node.value if isinstance(n.value, str)}


def _answer_node(entry: Entry) -> Node:
    return entry.fields.get("answer", entry.node)


# -- the rules -------------------------------------------------------------------------------


@rule(LONGEST_ANSWER, "the answer is clearly the longest choice")
def longest_answer(deck: Deck, entry: Entry) -> Iterator[Finding]:
    item = entry.item
    if not isinstance(item, Scenario) or len(item.choices) < 2:
        return
    answer = len(_shown(deck, item.answer))
    longest = max(len(_shown(deck, c)) for c in item.choices if c != item.answer)
    if answer >= LONGEST_RATIO * longest and answer >= longest + LONGEST_MARGIN:
        yield Finding(
            _answer_node(entry),
            f"the answer ({answer} characters) is much longer than every other choice "
            f"(at most {longest}); players learn to pick the longest",
        )


@rule(HEDGED_ANSWER, "the answer is the only hedged choice (usually, often, may, can ...)")
def hedged_answer(deck: Deck, entry: Entry) -> Iterator[Finding]:
    item = entry.item
    if not isinstance(item, Scenario):
        return
    match = _HEDGE.search(_shown(deck, item.answer))
    if match is None:
        return
    if not any(_HEDGE.search(_shown(deck, c)) for c in item.choices if c != item.answer):
        yield Finding(
            _answer_node(entry),
            f"only the answer hedges ({match.group(0).casefold()!r}); players learn that the "
            "careful choice is the right one",
        )


@rule(SHARED_WORD, "the answer shares a distinctive word with the prompt that no distractor has")
def shared_word(deck: Deck, entry: Entry) -> Iterator[Finding]:
    item = entry.item
    if not isinstance(item, Scenario):
        return
    prompt = content_words(item.prompt)
    shared = set(prompt) & set(content_words(_shown(deck, item.answer)))
    for choice in item.choices:
        if choice != item.answer:
            shared -= set(content_words(_shown(deck, choice)))
    if shared:
        words = " and ".join(repr(prompt[w]) for w in sorted(shared))
        yield Finding(
            _answer_node(entry),
            f"only the answer repeats the prompt's {words}; a player can match words instead "
            "of knowing",
        )


@rule(
    ABSOLUTE_DISTRACTORS, "absolute words (always, never, only ...) in distractors, not the answer"
)
def absolute_distractors(deck: Deck, entry: Entry) -> Iterator[Finding]:
    item = entry.item
    if not isinstance(item, Scenario) or _ABSOLUTE.search(_shown(deck, item.answer)):
        return
    absolute = [
        (choice, match)
        for choice in item.choices
        if choice != item.answer and (match := _ABSOLUTE.search(_shown(deck, choice)))
    ]
    if absolute:
        first, match = absolute[0]
        others = f" (and {len(absolute) - 1} more)" if len(absolute) > 1 else ""
        yield Finding(
            _choice_nodes(entry).get(first, entry.node),
            f"a distractor says {match.group(0).casefold()!r}{others} and the answer uses no "
            "absolute word; players learn that absolute choices are wrong",
        )


@rule(ABSOLUTE_CLAIMS, "nearly all of a deck's claims with absolute words are false", "deck")
def absolute_claims(
    deck: Deck, entries: list[Entry], where: Node | tuple[int, int]
) -> Iterator[Finding]:
    absolute = [
        e.item
        for e in entries
        if isinstance(e.item, Claim)
        and ABSOLUTE_CLAIMS not in e.ignore
        and _ABSOLUTE.search(e.item.statement)
    ]
    false = sum(not c.answer for c in absolute)
    if len(absolute) >= ABSOLUTE_CLAIMS_MIN and false >= ABSOLUTE_CLAIMS_FALSE_SHARE * len(
        absolute
    ):
        yield Finding(
            where,
            f"{false} of the {len(absolute)} claims with absolute words (always, never, only ...) "
            "are false; players learn to answer false on sight",
        )


@rule(CUE_NAMES_TERM, "a cue contains the name or an alias of the term it points to")
def cue_names_term(deck: Deck, entry: Entry) -> Iterator[Finding]:
    item = entry.item
    if not isinstance(item, Confusable):
        return
    node = entry.fields.get("cues")
    cue_nodes = node.value if node is not None and node.kind == "seq" else []
    for cue, cue_node in zip(item.cues, _valid_cue_nodes(cue_nodes), strict=False):
        term = deck.term(cue.answer)
        if term is None:
            continue
        for name in (term.term, *term.aliases):
            if re.search(rf"(?<!\w){re.escape(name.casefold())}(?!\w)", cue.text.casefold()):
                text = cue_node.value.get("text", cue_node) if cue_node.kind == "map" else cue_node
                yield Finding(text, f"the cue names its own answer, {name!r}")
                break


def _valid_cue_nodes(nodes: list[Node]) -> Iterator[Node]:
    """The cue nodes the reader turned into cues: mappings with both keys."""
    for node in nodes:
        if node.kind == "map" and {"text", "answer"} <= set(node.value):
            yield node


RULES[NEAR_DUPLICATE] = Rule(
    NEAR_DUPLICATE,
    "a choice repeats another item's prompt nearly word for word (across the decks validated)",
    "decks",
)


@rule(MISSING_WHY_NOT, "a distractor has no why_not")
def missing_why_not(deck: Deck, entry: Entry) -> Iterator[Finding]:
    item = entry.item
    if not isinstance(item, Scenario):
        return
    explained = {k for k, _ in item.why_not}
    nodes = _choice_nodes(entry)
    for choice in item.choices:
        if choice != item.answer and choice not in explained:
            yield Finding(
                nodes.get(choice, entry.node),
                f"the distractor {choice!r} has no why_not; say why it does not fit",
            )


# A number the explanation presents as a result: after =, ≈, ~, "so", "about", "roughly",
# "gives" or "is about"; written 1,040 or 3.69 or 1.12e15, with an optional $ before it.
_RESULT = re.compile(
    r"(?:=|≈|~|\bso\b|\babout\b|\broughly\b|\bgives?\b|\bnear\b)\s*\$?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?(?:e[-+]?\d+)?)(?![\w.^/*x×(])",
    re.I,
)
_CLAUSE_END = re.compile(r";|\.(?:\s|$)")


def _is_input(text: str, match: re.Match[str]) -> bool:
    """'k = 5' names an input; '0.6 * 5 = 4' and '131,072 bytes = 128' state results."""
    if not match.group(0).startswith("="):
        return False
    return not re.search(r"[\d)]", " ".join(text[: match.start()].split()[-2:]))


def stated_results(text: str) -> list[float]:
    """The numbers an explanation presents as final results: the last result in each clause
    (a result followed by 'so N' in the same clause is a step, not the result)."""
    results: list[float] = []
    start = 0
    for end in [m.start() for m in _CLAUSE_END.finditer(text)] + [len(text)]:
        found = [m for m in _RESULT.finditer(text, start, end) if not _is_input(text, m)]
        if found:
            results.append(float(found[-1].group("num").replace(",", "")))
        start = end + 1
    return results


@rule(CALC_TOLERANCE, "the tolerance rejects a result the explanation calls right")
def calc_tolerance(deck: Deck, entry: Entry) -> Iterator[Finding]:
    item = entry.item
    if not isinstance(item, Calculation) or not item.given:
        return
    try:
        tree = calc.parse(item.answer)
        answers = [
            calc.evaluate(tree, {g.name: v for g, (_, v) in zip(item.given, combo, strict=True)})
            for combo in itertools.islice(
                itertools.product(*(g.options for g in item.given)), MAX_COMBINATIONS
            )
        ]
    except calc.CalcError:
        return
    for stated in stated_results(item.explanation):
        if any(item.tolerance.accepts(a, stated) for a in answers):
            continue
        close = [a for a in answers if a and abs(stated - a) <= CALC_CLOSE * abs(a)]
        if not close:
            continue  # not this calculation's result: an intermediate step or another quantity
        nearest = min(close, key=lambda a: abs(stated - a))
        yield Finding(
            entry.fields.get("explanation", entry.node),
            f"the explanation gives {stated:g} as the result, but the answer is {nearest:.6g} "
            f"and the tolerance {item.tolerance} rejects {stated:g}; widen the tolerance or "
            "state the value more precisely",
        )


def lint_deck(
    deck: Deck, entries: list[Entry], claims_at: Node | tuple[int, int] | None
) -> list[tuple[Finding, str]]:
    """Every single-deck rule's findings, each with its rule name; silenced ones left out."""
    found: list[tuple[Finding, str]] = []
    for r in RULES.values():
        if r.check is None:
            continue
        if r.scope == "item":
            for entry in entries:
                if r.name not in entry.ignore:
                    found += [(f, r.name) for f in r.check(deck, entry)]
        elif r.scope == "deck" and claims_at is not None:
            found += [(f, r.name) for f in r.check(deck, entries, claims_at)]
    return found


# -- near-duplicates across decks -----------------------------------------------------------------


def _normal(text: str) -> str:
    return " ".join(_WORD.findall(text.casefold()))


@dataclass(slots=True)
class _Text:
    """A text a cross-deck rule compares: where it stands, the item it belongs to, the rules
    silenced there."""

    path: str
    owner: tuple[str, str]  # (path, item id)
    node: Node | tuple[int, int]
    text: str
    ignore: frozenset[str] = frozenset()


def _prompts(entry: Entry) -> Iterator[tuple[Node | tuple[int, int], str]]:
    """The texts a player is shown as the question of this item."""
    item, fields = entry.item, entry.fields
    for key in ("prompt", "statement", "definition"):
        value = getattr(item, key, None)
        if isinstance(value, str) and key in fields:
            yield fields[key], value
    if isinstance(item, Confusable):
        node = fields.get("cues")
        nodes = (
            list(_valid_cue_nodes(node.value)) if node is not None and node.kind == "seq" else []
        )
        for cue, cue_node in zip(item.cues, nodes, strict=False):
            yield cue_node.value["text"], cue.text


@dataclass
class Corpus:
    """The prompts and authored choices of every deck validated together, for the one rule
    that compares items across decks."""

    prompts: list[_Text] = field(default_factory=list)
    choices: list[_Text] = field(default_factory=list)

    def add(self, path: str, deck: Deck, entries: Iterable[Entry]) -> None:
        for entry in entries:
            owner = (path, entry.item.id)
            for node, text in _prompts(entry):
                self.prompts.append(_Text(path, owner, node, _normal(text)))
            if isinstance(entry.item, Scenario):
                nodes = _choice_nodes(entry)
                for choice in entry.item.choices:
                    shown = _normal(_shown(deck, choice))
                    if len(shown.split()) >= NEAR_DUPLICATE_MIN_WORDS:
                        where = nodes.get(choice, entry.node)
                        self.choices.append(_Text(path, owner, where, shown, entry.ignore))

    def problems(self) -> list[Problem]:
        out: list[Problem] = []
        ratio = NEAR_DUPLICATE_RATIO
        for choice in self.choices:
            if NEAR_DUPLICATE in choice.ignore:
                continue
            matcher = difflib.SequenceMatcher(None, autojunk=False)
            matcher.set_seq2(choice.text)  # analysed once, compared with every prompt
            n = len(choice.text)
            for prompt in self.prompts:
                m = len(prompt.text)
                # the ratio is at most 2 * min / (n + m): texts of unlike length never match
                if prompt.owner == choice.owner or 2 * min(n, m) < ratio * (n + m):
                    continue
                matcher.set_seq1(prompt.text)
                if matcher.quick_ratio() >= ratio and matcher.ratio() >= ratio:
                    line, col = _pos(prompt.node)
                    where = "" if prompt.path == choice.path else f"{prompt.path}:"
                    out.append(
                        _problem(
                            choice.path,
                            choice.node,
                            f"this choice repeats the question of {prompt.owner[1]!r} "
                            f"({where}{line}:{col}) nearly word for word; a player who has seen "
                            "one recognises the other",
                            NEAR_DUPLICATE,
                        )
                    )
                    break
        return out


def _pos(where: Node | tuple[int, int]) -> tuple[int, int]:
    return (where.line, where.col) if isinstance(where, Node) else where


def _problem(path: str, where: Node | tuple[int, int], message: str, name: str) -> Problem:
    line, col = _pos(where)
    return Problem(path, message, line, col, severity="warning", rule=name)


def problems(
    path: str, deck: Deck, entries: list[Entry], claims_at: Node | tuple[int, int] | None
) -> list[Problem]:
    """The single-deck rules' findings as warnings of the file at `path`."""
    return [
        _problem(path, f.node, f.message, name) for f, name in lint_deck(deck, entries, claims_at)
    ]


__all__ = [
    "RULES",
    "Corpus",
    "Entry",
    "Finding",
    "Rule",
    "content_words",
    "lint_deck",
    "problems",
    "stated_results",
    "stem",
]
