"""Terms: asked three ways (pick the definition, pick the term, type the term)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import chain
from typing import TYPE_CHECKING

from vocabgame.kinds.base import ItemKind, refuse, register
from vocabgame.kinds.common import group_distinction, pick, sources_of, term_explanation
from vocabgame.model import Deck, FaceKey, Term
from vocabgame.quiz.question import (
    CHOICES_PER_QUESTION,
    Choice,
    Face,
    Grade,
    Kind,
    Picked,
    Question,
    Response,
    Typed,
)
from vocabgame.quiz.text import normalise, one_typo
from vocabgame.reading.checker import Checker
from vocabgame.reading.node import Node

if TYPE_CHECKING:
    import random


class TermKind(ItemKind):
    section = "terms"
    rank = 10
    face_labels = {
        "definition": "pick the definition",
        "term": "pick the term",
        "typed": "type the term",
    }
    traits = frozenset({"interview-filler"})
    display_field = "term"
    noun = singular = "term"
    plural = "terms"
    required = ("id", "term", "definition")
    optional = ("aliases", "caveat", "example", "legacy_names")
    item_type = Term

    def read(self, checker: Checker, entry: Node, fields: dict[str, Node]) -> Term:
        f = fields
        return Term(
            term=checker.req_text(f, "term"),
            definition=checker.req_text(f, "definition"),
            aliases=checker.texts(f["aliases"], "aliases") if "aliases" in f else (),
            caveat=checker.opt_text(f, "caveat"),
            example=checker.opt_text(f, "example"),
            legacy_names=(
                checker.texts(f["legacy_names"], "legacy_names") if "legacy_names" in f else ()
            ),
            **checker.common(f),
        )

    def faces(self, item: Term) -> list[str]:
        return [Face.DEFINITION, Face.TERM, Face.TYPED]

    def terms_of(self, item: Term) -> frozenset[str]:
        return frozenset((item.id,))

    def question(self, deck: Deck, item: Term, face: str, rng: random.Random) -> Question:
        key = FaceKey(deck.id, item.id, face)
        if face == Face.TYPED:
            return Question(
                kind=Kind.TYPED,
                label="Type the term",
                prompt=item.definition,
                answer=item.term,
                accepted=(item.term, *item.aliases),
                key=key,
                deck_title=deck.title,
            )

        def shown(t: Term) -> str:
            return t.definition if face == Face.DEFINITION else t.term

        choices = [Choice(shown(item), item.id)]
        seen = {normalise(shown(item))}
        for pool, enough in (
            (distractors(deck, item, rng), CHOICES_PER_QUESTION),
            (off_topic(deck, item, rng), 2),
        ):
            for other in pool:
                if len(choices) >= enough:
                    break
                text = shown(other)
                if normalise(text) not in seen:
                    seen.add(normalise(text))
                    choices.append(Choice(text, other.id))
        rng.shuffle(choices)
        if face == Face.DEFINITION:
            label, prompt = "Pick the definition", item.term
        else:
            label, prompt = "Pick the term", item.definition
        return Question(
            kind=Kind.CHOICE,
            label=label,
            prompt=prompt,
            choices=tuple(choices),
            answer=item.id,
            key=key,
            deck_title=deck.title,
        )

    def grade(self, deck: Deck, item: Term, question: Question, response: Response) -> Grade:
        match response:
            case Picked(index):
                return _grade_pick(deck, item, question, index)
            case Typed(text):
                return _grade_typed(deck, item, question, text)
        refuse(self, response)


def distractors(deck: Deck, term: Term, rng: random.Random) -> Iterator[Term]:
    """Other terms an expert could mistake for this one, most confusable first: confusable
    partners, then terms sharing a tag, then terms of the deck's own topic (untagged terms,
    or any term when this one is untagged); shuffled within each tier. Terms tagged only with
    other topics are left out (`off_topic`): a distractor from another topic is a giveaway.
    A tier of many terms is drawn as it is read, so a question takes what it needs of it."""
    return chain.from_iterable(_tiers(deck, term, rng)[:3])


def off_topic(deck: Deck, term: Term, rng: random.Random) -> Iterable[Term]:
    """Terms whose tags share nothing with this term's: used only to make a question at all."""
    return _tiers(deck, term, rng)[3]


# A tier of at most this many terms is shuffled whole, as it always was (the built-in decks'
# questions stay the same for a seed); a larger one is drawn a term at a time (`_drawn`).
_SHUFFLED_WHOLE = 64
# Per deck (by id, with the deck kept so that the id is not another's), the partition of its
# terms by a term's tags (`_by_tags`), for this many tag sets at most.
_PARTITIONS: dict[
    int, tuple[Deck, dict[str, int], dict[frozenset[str], tuple[list[Term], ...]]]
] = {}
_TAG_SETS = 32


def _partition(
    deck: Deck,
) -> tuple[Deck, dict[str, int], dict[frozenset[str], tuple[list[Term], ...]]]:
    """The deck's kept partitions: each term's place in the deck, and `_by_tags`'s lists."""
    kept = _PARTITIONS.get(id(deck))
    if kept is None or kept[0] is not deck:
        if len(_PARTITIONS) > 64:  # decks reloaded many times in one process
            _PARTITIONS.clear()
        places = {t.id: n for n, t in enumerate(deck.terms)}
        kept = _PARTITIONS[id(deck)] = (deck, places, {})
    return kept


def _by_tags(deck: Deck, tags: frozenset[str]) -> tuple[list[Term], ...]:
    """Every term of the deck, in deck order, as `_tiers` places it beside a term with these
    tags (partners and the term itself not yet taken out): sharing a tag, of the deck's own
    topic, of another topic. Made once per deck and tag set, not per question."""
    by_tags = _partition(deck)[2]
    found = by_tags.get(tags)
    if found is None:
        sharing: list[Term] = []
        topic: list[Term] = []
        other: list[Term] = []
        for t in deck.terms:
            if tags.intersection(t.tags):
                sharing.append(t)
            elif not t.tags or not tags:
                topic.append(t)
            else:
                other.append(t)
        if len(by_tags) >= _TAG_SETS:
            by_tags.clear()
        found = by_tags[tags] = (sharing, topic, other)
    return found


def _tiers(deck: Deck, term: Term, rng: random.Random) -> list[Iterable[Term]]:
    partners = {t for group in deck.confusables if term.id in group.terms for t in group.terms} - {
        term.id
    }
    out = {term.id} | partners
    places = _partition(deck)[1]
    tiers: list[Iterable[Term]] = [
        [deck.terms[n] for n in sorted(places[t] for t in partners if t in places)]
    ]
    for pool in _by_tags(deck, frozenset(term.tags)):
        if len(pool) <= _SHUFFLED_WHOLE:
            tiers.append([t for t in pool if t.id not in out])
        else:
            tiers.append(_drawn(pool, out, rng))
    for tier in tiers:
        if isinstance(tier, list):
            rng.shuffle(tier)
    return tiers


def _drawn(pool: Sequence[Term], out: set[str], rng: random.Random) -> Iterator[Term]:
    """The terms of `pool` whose ids are not in `out`, in a random order drawn as they are
    read: a Fisher-Yates shuffle a step at a time, its swaps kept in a dict, so taking k
    terms costs k steps, not the pool's size."""
    n = len(pool)
    moved: dict[int, int] = {}  # position -> the index of the pool's term now there
    for i in range(n):
        j = rng.randrange(i, n)
        picked = moved.get(j, j)
        moved[j] = moved.get(i, i)
        term = pool[picked]
        if term.id not in out:
            yield term


def _grade_pick(deck: Deck, term: Term, question: Question, index: int) -> Grade:
    picked, correct, right = pick(question, index)
    # Picking a definition: the answer line already shows the right one.
    explanation = term_explanation(term, with_definition=question.key.face != Face.DEFINITION)
    given, distinction = picked.text, None
    if not correct:
        distinction = group_distinction(deck, term.id, picked.value)
        other = deck.term(picked.value)
        if other is not None and question.key.face == Face.DEFINITION:
            given = f"{picked.text} (that defines {other.term})"
    return Grade(
        correct=correct,
        rating=3 if correct else 1,
        given=given,
        right_answer=right,
        explanation=explanation,
        distinction=distinction,
        sources=sources_of(deck, term),
        explains_why=False,
    )


def _terms_named(deck: Deck) -> dict[str, list[str]]:
    """Each of the deck's names and aliases, normalised, -> the ids of the terms they name,
    in deck order: a wrong typed answer is looked up there, where normalising every name of
    a deck of 33k terms took a quarter of a second an answer. Made once per loaded deck."""
    return deck.kept("term.names", _name_terms)


def _name_terms(deck: Deck) -> dict[str, list[str]]:
    named: dict[str, list[str]] = {}
    for term in deck.terms:
        for name in (term.term, *term.aliases):
            ids = named.setdefault(normalise(name), [])
            if not ids or ids[-1] != term.id:
                ids.append(term.id)
    return named


def _grade_typed(deck: Deck, term: Term, question: Question, text: str) -> Grade:
    """Aliases count; case, spacing and punctuation are ignored; one typo is forgiven in a word
    of five letters or more."""
    given = normalise(text)
    correct, note = False, None
    legacy = next((n for n in term.legacy_names if given and given == normalise(n)), None)
    if given and any(given == normalise(a) for a in question.accepted):
        correct = True
    elif legacy is not None:
        correct = True
        note = f"{legacy!r} is its former name; today it is {term.term!r}."
    else:
        for accepted in question.accepted:
            if one_typo(text, accepted):
                correct = True
                note = f"One typo forgiven: it is spelled {accepted!r}."
                break
    distinction = None
    if not correct:
        # The first other term, in deck order, whose name or alias the text gives.
        named = (i for i in _terms_named(deck).get(given, []) if i != term.id)
        if (other := deck.term(next(named, ""))) is not None:
            distinction = group_distinction(deck, term.id, other.id) or (
                f"{other.term}: {other.definition}"
            )
    aliases = f" (also {', '.join(term.aliases)})" if term.aliases else ""
    return Grade(
        correct=correct,
        rating=3 if correct else 1,
        given=text.strip(),
        right_answer=term.term + aliases,
        explanation=term_explanation(term),
        distinction=distinction,
        note=note,
        sources=sources_of(deck, term),
    )


register(TermKind())
