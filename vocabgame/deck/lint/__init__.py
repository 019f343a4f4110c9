"""Test-taking tells: the patterns that let a player pick the right answer without knowing it.

`vocabgame validate --strict` runs every rule here and reports what it finds as warnings named
by the rule, `PATH:LINE:COL: warning: MESSAGE [rule-name]`. Rules look only at what an author
wrote (scenario choices, cues, claims, calculation explanations), never at the distractors a
round draws at random. One small function per rule; `RULES` lists them all, so the docs and
the tests can too. An item silences a rule with `lint: {ignore: [rule-name], reason: ...}`.

Most rules read one item: a scenario's choices (`choices`), a claim or a cue (`texts`), a
calculation (`calcs`). `absolute-claims` reads a deck's claims together and
`answer-length-skew` its scenarios (`lengths`); `near-duplicate` compares every item of every
deck validated together (`Corpus`, in `corpus`).
"""

from __future__ import annotations

from vocabgame.deck.entry import Entry

from . import calcs, choices, lengths, texts
from .base import NAMES, RULES, Finding, Rule, content_words, stem
from .calcs import stated_results
from .corpus import Corpus, lint_deck, problems

# Each module registered its rules on import; list them in the documented order.
assert set(RULES) == set(NAMES), set(RULES) ^ set(NAMES)
_ordered = {name: RULES[name] for name in NAMES}
RULES.clear()
RULES.update(_ordered)
del calcs, choices, lengths, texts, _ordered

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
