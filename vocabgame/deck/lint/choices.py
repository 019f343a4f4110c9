"""The rules that read one scenario's choices: what sets the answer apart from its distractors
(its length, its hedge, a word it repeats from the prompt, its type) or a distractor from the
answer (an absolute word, a missing why_not)."""

from __future__ import annotations

from collections.abc import Iterator

from vocabgame.deck.entry import Entry
from vocabgame.model import Deck, Scenario

from .base import (
    ABSOLUTE,
    ABSOLUTE_DISTRACTORS,
    HEDGE,
    HEDGED_ANSWER,
    LONGEST_ANSWER,
    LONGEST_MARGIN,
    LONGEST_RATIO,
    MISSING_WHY_NOT,
    ODD_TYPE_CHOICE,
    SHARED_WORD,
    Finding,
    answer_node,
    choice_nodes,
    content_words,
    rule,
    shown,
)


@rule(LONGEST_ANSWER, "the answer is clearly the longest choice")
def longest_answer(deck: Deck, entry: Entry) -> Iterator[Finding]:
    item = entry.item
    if not isinstance(item, Scenario) or len(item.choices) < 2:
        return
    answer = len(shown(deck, item.answer))
    longest = max(len(shown(deck, c)) for c in item.choices if c != item.answer)
    if answer >= LONGEST_RATIO * longest and answer >= longest + LONGEST_MARGIN:
        yield Finding(
            answer_node(entry),
            f"the answer ({answer} characters) is much longer than every other choice "
            f"(at most {longest}); players learn to pick the longest",
        )


@rule(HEDGED_ANSWER, "the answer is the only hedged choice (usually, often, may, can ...)")
def hedged_answer(deck: Deck, entry: Entry) -> Iterator[Finding]:
    item = entry.item
    if not isinstance(item, Scenario):
        return
    match = HEDGE.search(shown(deck, item.answer))
    if match is None:
        return
    if not any(HEDGE.search(shown(deck, c)) for c in item.choices if c != item.answer):
        yield Finding(
            answer_node(entry),
            f"only the answer hedges ({match.group(0).casefold()!r}); players learn that the "
            "careful choice is the right one",
        )


@rule(SHARED_WORD, "the answer shares a distinctive word with the prompt that no distractor has")
def shared_word(deck: Deck, entry: Entry) -> Iterator[Finding]:
    item = entry.item
    if not isinstance(item, Scenario):
        return
    prompt = content_words(item.prompt)
    shared = set(prompt) & set(content_words(shown(deck, item.answer)))
    for choice in item.choices:
        if choice != item.answer:
            shared -= set(content_words(shown(deck, choice)))
    if shared:
        words = " and ".join(repr(prompt[w]) for w in sorted(shared))
        yield Finding(
            answer_node(entry),
            f"only the answer repeats the prompt's {words}; a player can match words instead "
            "of knowing",
        )


@rule(
    ABSOLUTE_DISTRACTORS,
    "absolute words (always, never, only, every, all, cannot, none ...) in distractors, "
    "not the answer",
)
def absolute_distractors(deck: Deck, entry: Entry) -> Iterator[Finding]:
    item = entry.item
    if not isinstance(item, Scenario) or ABSOLUTE.search(shown(deck, item.answer)):
        return
    absolute = [
        (choice, match)
        for choice in item.choices
        if choice != item.answer and (match := ABSOLUTE.search(shown(deck, choice)))
    ]
    if absolute:
        first, match = absolute[0]
        others = f" (and {len(absolute) - 1} more)" if len(absolute) > 1 else ""
        yield Finding(
            choice_nodes(entry).get(first, entry.node),
            f"a distractor says {match.group(0).casefold()!r}{others} and the answer uses no "
            "absolute word; players learn that absolute choices are wrong: say the distractor "
            "without it, or let the answer use one where that is true",
        )


@rule(
    ODD_TYPE_CHOICE,
    "one choice is of another type than the rest: a term among written-out choices, or "
    "written-out text among terms",
)
def odd_type_choice(deck: Deck, entry: Entry) -> Iterator[Finding]:
    item = entry.item
    if not isinstance(item, Scenario) or len(item.choices) < 3:
        return
    terms = [c for c in item.choices if deck.term(c) is not None]
    texts = [c for c in item.choices if deck.term(c) is None]
    nodes = choice_nodes(entry)
    others = len(item.choices) - 1
    if len(terms) == 1:
        yield Finding(
            nodes.get(terms[0], entry.node),
            f"{shown(deck, terms[0])!r} is the only term of the deck among {others} "
            "written-out choices, so the odd one out stands out; make the other choices term "
            "ids too, or write this one out like the rest",
        )
    elif len(texts) == 1:
        yield Finding(
            nodes.get(texts[0], entry.node),
            f"{texts[0]!r} is the only written-out choice among {others} terms of the deck, so "
            "the odd one out stands out; replace it with the id of a tempting term, or write "
            "every choice out",
        )


@rule(MISSING_WHY_NOT, "a distractor has no why_not")
def missing_why_not(deck: Deck, entry: Entry) -> Iterator[Finding]:
    item = entry.item
    if not isinstance(item, Scenario):
        return
    explained = {k for k, _ in item.why_not}
    nodes = choice_nodes(entry)
    for choice in item.choices:
        if choice != item.answer and choice not in explained:
            yield Finding(
                nodes.get(choice, entry.node),
                f"the distractor {choice!r} has no why_not; say why it does not fit",
            )
