"""What every lint rule shares: the rule names and thresholds, the registry, the words the
rules look for, and how a scenario choice is seen."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal

from vocabgame.deck.entry import Entry
from vocabgame.model import Deck, Term
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
ODD_TYPE_CHOICE = "odd-type-choice"
ANSWER_LENGTH_SKEW = "answer-length-skew"
CUE_SHARES_WORD = "cue-shares-word"

# The order rules are listed in (warnings, docs, the schema's enum), whatever module holds them.
NAMES = (
    LONGEST_ANSWER,
    HEDGED_ANSWER,
    SHARED_WORD,
    ABSOLUTE_DISTRACTORS,
    ABSOLUTE_CLAIMS,
    CUE_NAMES_TERM,
    NEAR_DUPLICATE,
    MISSING_WHY_NOT,
    CALC_TOLERANCE,
    ODD_TYPE_CHOICE,
    ANSWER_LENGTH_SKEW,
    CUE_SHARES_WORD,
)

# -- thresholds, each explained in docs/authoring.md -----------------------------------------------

LONGEST_RATIO = 1.5  # the answer is at least this many times as long as every distractor ...
LONGEST_MARGIN = 8  # ... and at least this many characters longer
ABSOLUTE_CLAIMS_MIN = 3  # deck-wide: at least this many claims use absolute words ...
ABSOLUTE_CLAIMS_SHARE = 0.8  # ... and at least this share of them have the same verdict
LENGTH_SKEW_P = 0.02  # a deck's count of longest (or shortest) answers this unlikely by chance
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
ABSOLUTES = (
    "always",
    "never",
    "must",
    "only",
    "any",
    "nothing",
    "every",
    "all",
    "cannot",
    "none",
)

# "can't" says what cannot happen: a negation, not a hedge.
HEDGE = re.compile(
    r"\b(" + "|".join(h.replace(" ", r"\s+") for h in HEDGES) + r")\b(?!['’]t)", re.I
)
# Not inside a hyphenated name: "weight-only quantization" and "all-reduce" claim nothing.
ABSOLUTE = re.compile(r"(?<![\w-])(" + "|".join(ABSOLUTES) + r")(?![\w-])", re.I)
WORD = re.compile(r"[a-z0-9]+")

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

_ENDINGS = ("ation", "ing", "ism", "ed")


def stem(word: str) -> str:
    """A crude stem, enough to match 'batches' with 'batching' and 'share' with 'sharing':
    lowercase, a plural off, then one of -ation, -ing, -ism, -ed, then a final -e."""
    w = word.casefold()
    if w.endswith("ies") and len(w) > 5:
        w = w[:-3] + "y"
    elif w.endswith("es") and len(w) > 5 and (w[-3] in "sxz" or w[-4:-2] in ("ch", "sh")):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) > 4:
        w = w[:-1]
    for ending in _ENDINGS:
        if w.endswith(ending) and len(w) - len(ending) >= 4:
            w = w[: -len(ending)]
            break
    return w[:-1] if w.endswith("e") and len(w) > 4 else w


def content_words(text: str) -> dict[str, str]:
    """The stems of a text's words of 4 letters or more that are not stopwords, each with the
    first word it came from."""
    out: dict[str, str] = {}
    for word in WORD.findall(text.casefold()):
        if len(word) >= 4 and word not in STOPWORDS:
            out.setdefault(stem(word), word)
    return out


def term_names(term: Term) -> tuple[str, ...]:
    """A term's name and its aliases: what a player may know it by."""
    return (term.term, *term.aliases)


# -- what the rules read ------------------------------------------------------------------------


Where = Node | tuple[int, int]


@dataclass(frozen=True, slots=True)
class Finding:
    """What a lint rule found, and where."""

    node: Where
    message: str


Scope = Literal["item", "deck", "decks"]


@dataclass(frozen=True, slots=True)
class Rule:
    """A named tell. `check` reads one item (scope "item") or one section of a deck ("deck",
    the section named by `section`, warned about at its key); the cross-deck rule ("decks") is
    run by `Corpus`."""

    name: str
    summary: str
    scope: Scope
    check: Callable[..., Iterator[Finding]] | None = None
    section: str | None = None


RULES: dict[str, Rule] = {}

Check = Callable[..., Iterator[Finding]]


def rule(
    name: str, summary: str, scope: Scope = "item", section: str | None = None
) -> Callable[[Check], Check]:
    """Register `check` as the rule `name`; a "deck" rule names the section it reads."""

    def register(check: Check) -> Check:
        RULES[name] = Rule(name, summary, scope, check, section)
        return check

    return register


def shown(deck: Deck, choice: str) -> str:
    """A scenario choice as the player sees it: a term id is shown as the term."""
    term = deck.term(choice)
    return term.term if term is not None else choice


def choice_nodes(entry: Entry) -> dict[str, Node]:
    """Each scenario choice's node, by the choice as written."""
    node = entry.fields.get("choices")
    if node is None or node.kind != "seq":
        return {}
    return {n.value: n for n in node.value if isinstance(n.value, str)}


def answer_node(entry: Entry) -> Node:
    """Where a scenario's answer is written (the item, if it has none)."""
    return entry.fields.get("answer", entry.node)


def valid_cue_nodes(nodes: list[Node]) -> Iterator[Node]:
    """The cue nodes the reader turned into cues: mappings with both keys."""
    for node in nodes:
        if node.kind == "map" and {"text", "answer"} <= set(node.value):
            yield node


def quoted(words: list[str]) -> str:
    """'a', 'a' and 'b', 'a', 'b' and 'c'."""
    parts = [repr(w) for w in words]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
