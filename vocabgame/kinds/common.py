"""Pieces of feedback that several kinds of item share."""

from __future__ import annotations

from vocabgame.model import Deck, Item, Source, Term
from vocabgame.quiz.question import Choice, Grade, Question


def sources_of(deck: Deck, item: Item | None) -> tuple[Source, ...]:
    if item is None:
        return ()
    return tuple(deck.sources[k] for k in item.sources if k in deck.sources)


def group_distinction(deck: Deck, right: str, picked: str) -> str | None:
    """The distinction of the confusable group holding both terms, if one does."""
    for group in deck.confusables:
        if right in group.terms and picked in group.terms:
            return group.distinction
    return None


def term_explanation(term: Term, with_definition: bool = True) -> str:
    parts = [f"{term.term}: {term.definition}"] if with_definition else []
    if term.legacy_names:
        parts.append(f"Formerly: {', '.join(term.legacy_names)}.")
    if term.caveat:
        parts.append(f"Caveat: {term.caveat}")
    return "\n".join(parts)


def choice_text(deck: Deck, choice: str) -> str:
    """A choice that names a term id shows the term; anything else is shown as written."""
    term = deck.term(choice)
    return term.term if term is not None else choice


def pick(question: Question, index: int) -> tuple[Choice, bool, str]:
    """The picked choice, whether it is right, and the right choice's text."""
    picked = question.choices[index]
    right = next(c.text for c in question.choices if c.value == question.answer)
    return picked, picked.value == question.answer, right


def choice_grade(
    deck: Deck,
    item: Item,
    question: Question,
    index: int,
    explanation: str,
    why_not: str | None = None,
    distinction: str | None = None,
) -> Grade:
    """The grade of a numbered choice whose explanation says why the answer fits."""
    picked, correct, right = pick(question, index)
    return Grade(
        correct=correct,
        rating=3 if correct else 1,
        given=picked.text,
        right_answer=right,
        explanation=explanation,
        why_not=why_not,
        distinction=distinction,
        sources=sources_of(deck, item),
        explains_why=True,
    )
