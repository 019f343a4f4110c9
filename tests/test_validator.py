"""One test per validation rule of deck format v1 (issue 2, item 5).

Each test loads a small deck that is valid except for the one thing under test, and asserts the
exact problem: file, line, column and message. If a rule were removed, its deck would load
without that problem and the test would fail.
"""

from __future__ import annotations

import re
import tracemalloc
from pathlib import Path
from textwrap import dedent

import pytest

from vocabgame.deck import DEFAULT_MAX_BYTES, decode, load_deck, load_text, read_text
from vocabgame.model import Deck
from vocabgame.problems import DeckError, Problem
from vocabgame.reading import yamltree

from .conftest import DATA

ROOT = Path(__file__).resolve().parent.parent

# A valid deck of 14 lines: whatever a test appends starts at line 15.
BASE = """\
format: 1
id: demo
title: Demo
sources:
  vllm: {title: vLLM docs, url: https://docs.vllm.ai}
terms:
  - id: prefill
    term: Prefill
    definition: Processing the whole prompt before the first output token.
    sources: [vllm]
  - id: decode
    term: Decode
    definition: Generating output tokens one at a time.
    sources: [vllm]
"""
assert BASE.count("\n") == 14


def check(text: str, strict: bool = False) -> tuple[Deck | None, list[str]]:
    deck, problems = load_text(dedent(text), "deck.yaml", strict=strict)
    return deck, [str(p) for p in problems]


def errors(text: str) -> list[str]:
    """The problems of a deck that must not load."""
    deck, problems = check(text)
    assert deck is None, "the deck loaded, but a problem was expected"
    assert problems
    return problems


def with_base(extra: str) -> str:
    return BASE + dedent(extra)


# -- the control: the decks the tests start from are valid --------------------------------------


def test_the_base_deck_is_valid() -> None:
    deck, problems = check(BASE, strict=True)
    assert problems == []
    assert deck is not None and [t.id for t in deck.terms] == ["prefill", "decode"]


def test_a_deck_with_every_section_is_valid() -> None:
    # Every distractor explained, or --strict warns (the missing-why-not lint rule).
    explained = FULL.replace(
        "first token.}",
        'first token., "The network": Sending it is quick., "The disk": The weights stay in memory.}',
    ).replace('"The network"]', '"The network", "The disk"]')  # no choice the odd type out
    deck, problems = check(explained, strict=True)
    assert problems == []
    assert deck is not None
    assert deck.counts() == {
        "terms": 2,
        "confusables": 1,
        "scenarios": 1,
        "recall": 1,
        "claims": 1,
        "calculations": 1,
        "lab_challenges": 1,
    }


FULL = with_base(
    """\
    confusables:
      - id: prefill-vs-decode
        terms: [prefill, decode]
        distinction: Prefill reads the prompt; decode writes the reply.
        cues:
          - {text: Grows with the prompt length., answer: prefill}
        sources: [vllm]
    scenarios:
      - id: long-prompt
        prompt: A 100k-token prompt makes the first token slow. Which phase?
        choices: [prefill, decode, "The network"]
        answer: prefill
        explanation: The whole prompt is processed before the first token.
        why_not: {decode: It starts after the first token.}
        sources: [vllm]
    recall:
      - id: two-phases
        prompt: Name the two phases of generation.
        answer: Prefill and decode.
        key_points: [prefill, decode]
        sources: [vllm]
    claims:
      - id: decode-parallel
        statement: Decode produces all output tokens in parallel.
        answer: false
        explanation: Each token depends on the one before it.
        sources: [vllm]
    calculations:
      - id: decode-time
        prompt: "{tokens} tokens at {tpot} ms each: how many ms of decode?"
        given: {tokens: [100, 200], tpot: {fast: 10, slow: 40}}
        answer: tokens * tpot
        unit: ms
        tolerance: 5%
        explanation: Decode time is tokens times time per token.
        sources: [vllm]
    lab_challenges:
      - id: batch-tpot
        change: batch
        figure: tpot
        sources: [vllm]
    """
)


# -- YAML syntax -------------------------------------------------------------------------------


def test_yaml_syntax_error_is_reported_at_the_parsers_position() -> None:
    assert errors("format: 1\nid: demo\ntitle: Latency: the basics\n") == [
        "deck.yaml:3:15: error: YAML syntax error: mapping values are not allowed in this context; "
        "a ': ' inside unquoted text starts a new key, or this line is indented deeper than the "
        "key above it: quote the text, or line the key up with its neighbours"
    ]


def test_unclosed_flow_list_is_a_syntax_error() -> None:
    assert errors("format: 1\nid: demo\ntags: [a, b\ntitle: T\n") == [
        "deck.yaml:4:6: error: YAML syntax error: did not find expected ',' or ']' "
        "(while parsing a flow sequence that began at line 3); close the '[' or quote text "
        "that holds a comma, a colon or a bracket"
    ]


def test_tab_indentation_is_a_syntax_error_with_position() -> None:
    (problem,) = errors("format: 1\n\tid: demo\n")
    assert problem.startswith("deck.yaml:2:1: error: YAML syntax error: ")


# -- duplicate keys ----------------------------------------------------------------------------


def test_duplicate_top_level_key_is_reported_at_the_second_one() -> None:
    text = BASE.replace("title: Demo\n", "title: Demo\ntitle: Other\n")
    assert errors(text) == [
        "deck.yaml:4:1: error: duplicate key 'title' (first given at line 3); "
        "YAML would silently keep only one"
    ]


def test_duplicate_key_inside_an_item() -> None:
    text = BASE.replace("    term: Decode\n", "    term: Decode\n    term: Decoding\n")
    assert errors(text) == [
        "deck.yaml:13:5: error: duplicate key 'term' (first given at line 12); "
        "YAML would silently keep only one"
    ]


def test_duplicate_key_in_a_flow_mapping() -> None:
    text = BASE.replace("{title: vLLM docs,", "{title: vLLM docs, title: again,")
    assert errors(text) == [
        "deck.yaml:5:28: error: duplicate key 'title' (first given at line 5); "
        "YAML would silently keep only one"
    ]


# -- unknown keys ------------------------------------------------------------------------------


def test_unknown_top_level_key_suggests_the_close_one() -> None:
    text = BASE.replace("title: Demo\n", "title: Demo\ntitel: Demo\n")
    assert errors(text) == [
        "deck.yaml:4:1: error: unknown key 'titel' in the deck (did you mean 'title'?)"
    ]


def test_unknown_item_key_suggests_the_close_one() -> None:
    text = BASE.replace("    term: Decode\n", "    term: Decode\n    alias: [dec]\n")
    assert errors(text) == [
        "deck.yaml:13:5: error: unknown key 'alias' in term 'decode' (did you mean 'aliases'?)"
    ]


def test_unknown_key_with_nothing_close_lists_the_allowed_keys() -> None:
    text = BASE.replace("    term: Decode\n", "    term: Decode\n    colour: red\n")
    assert errors(text) == [
        "deck.yaml:13:5: error: unknown key 'colour' in term 'decode'; allowed keys: "
        "id, term, definition, aliases, caveat, example, legacy_names, tags, sources, formerly, "
        "version, level, topic, lint"
    ]


def test_unknown_key_in_a_source_and_in_a_cue() -> None:
    text = FULL.replace("url: https://docs.vllm.ai}", "url: https://docs.vllm.ai, uri: x}")
    text = text.replace("answer: prefill}", "answer: prefill, answr: decode}")
    assert errors(text) == [
        "deck.yaml:5:55: error: unknown key 'uri' in source 'vllm' (did you mean 'url'?)",
        "deck.yaml:20:64: error: unknown key 'answr' in cue 1 (did you mean 'answer'?)",
    ]


# -- missing required fields -------------------------------------------------------------------


def test_missing_top_level_keys_are_reported_at_the_deck() -> None:
    text = BASE.replace("id: demo\n", "").replace("title: Demo\n", "")
    assert errors(text) == [
        "deck.yaml:1:1: error: the deck is missing required key 'id'",
        "deck.yaml:1:1: error: the deck is missing required key 'title'",
    ]


def test_missing_format_is_reported() -> None:
    assert errors(BASE.replace("format: 1\n", "")) == [
        "deck.yaml:1:1: error: the deck is missing required key 'format'"
    ]


# Each section's required keys, removed one at a time from FULL. (line of the key, message)
REQUIRED = [
    (
        "terms",
        "    term: Decode\n",
        "deck.yaml:11:5: error: term 'decode' is missing required key 'term'",
    ),
    (
        "terms",
        "    definition: Generating output tokens one at a time.\n",
        "deck.yaml:11:5: error: term 'decode' is missing required key 'definition'",
    ),
    (
        "confusables",
        "    distinction: Prefill reads the prompt; decode writes the reply.\n",
        "deck.yaml:16:5: error: confusable group 'prefill-vs-decode' is missing required key 'distinction'",
    ),
    (
        "confusables",
        "    terms: [prefill, decode]\n",
        "deck.yaml:16:5: error: confusable group 'prefill-vs-decode' is missing required key 'terms'",
    ),
    (
        "scenarios",
        '    choices: [prefill, decode, "The network"]\n',
        "deck.yaml:23:5: error: scenario 'long-prompt' is missing required key 'choices'",
    ),
    (
        "scenarios",
        "    explanation: The whole prompt is processed before the first token.\n",
        "deck.yaml:23:5: error: scenario 'long-prompt' is missing required key 'explanation'",
    ),
    (
        "recall",
        "    answer: Prefill and decode.\n",
        "deck.yaml:31:5: error: recall item 'two-phases' is missing required key 'answer'",
    ),
    (
        "claims",
        "    answer: false\n",
        "deck.yaml:37:5: error: claim 'decode-parallel' is missing required key 'answer'",
    ),
    (
        "claims",
        "    statement: Decode produces all output tokens in parallel.\n",
        "deck.yaml:37:5: error: claim 'decode-parallel' is missing required key 'statement'",
    ),
    (
        "calculations",
        "    answer: tokens * tpot\n",
        "deck.yaml:43:5: error: calculation 'decode-time' is missing required key 'answer'",
    ),
    (
        "calculations",
        "    given: {tokens: [100, 200], tpot: {fast: 10, slow: 40}}\n",
        "deck.yaml:43:5: error: calculation 'decode-time' is missing required key 'given'",
    ),
]


@pytest.mark.parametrize(("section", "line", "expected"), REQUIRED)
def test_missing_required_item_key(section: str, line: str, expected: str) -> None:
    assert FULL.count(line) == 1, line
    assert expected in errors(FULL.replace(line, ""))


def test_missing_item_id() -> None:
    text = BASE.replace("  - id: decode\n    term: Decode\n", "  - term: Decode\n")
    assert errors(text) == ["deck.yaml:11:5: error: terms entry 2 is missing required key 'id'"]


# -- wrong types -------------------------------------------------------------------------------


def test_a_number_where_a_list_is_expected() -> None:
    text = BASE.replace("    term: Decode\n", "    term: Decode\n    aliases: 3\n")
    assert errors(text) == ["deck.yaml:13:14: error: aliases should be a list, found the number 3"]


def test_a_number_where_text_is_expected_says_to_quote_it() -> None:
    text = BASE.replace("title: Demo", "title: 2024")
    assert errors(text) == [
        'deck.yaml:3:8: error: title should be text, found the number 2024; quote it: "2024"'
    ]


def test_a_list_where_text_is_expected() -> None:
    text = BASE.replace("term: Decode", "term: [Decode]")
    assert errors(text) == ["deck.yaml:12:11: error: term should be text, found a list"]


def test_a_mapping_where_a_section_list_is_expected() -> None:
    text = "format: 1\nid: demo\ntitle: Demo\nterms:\n  id: prefill\n"
    assert errors(text) == [
        "deck.yaml:1:1: error: the deck has no items; add at least one entry to terms, "
        "confusables, scenarios, recall, claims, calculations, lab_challenges",
        "deck.yaml:5:3: error: terms should be a list, found a mapping",
    ]


def test_an_item_that_is_not_a_mapping() -> None:
    text = BASE + "recall:\n  - just some text\n"
    assert errors(text) == [
        "deck.yaml:16:5: error: recall entry 1 should be a mapping of keys to values, not text"
    ]


def test_an_empty_value_where_text_is_expected() -> None:
    text = BASE.replace("term: Decode", "term:")
    assert errors(text) == ["deck.yaml:12:10: error: term should be text, found nothing"]


def test_the_deck_itself_must_be_a_mapping() -> None:
    assert errors("- format: 1\n") == [
        "deck.yaml:1:1: error: the deck should be a mapping of keys to values, not a list"
    ]


def test_a_claim_answer_must_be_a_boolean() -> None:
    text = FULL.replace("    answer: false\n", '    answer: "false"\n')
    assert errors(text) == [
        "deck.yaml:39:13: error: a claim's answer is true or false (unquoted), found text"
    ]


# -- yes/no/on/off read as booleans where text is expected --------------------------------------


@pytest.mark.parametrize("word", ["yes", "no", "on", "off", "Yes", "OFF", "true", "False"])
def test_unquoted_boolean_word_where_text_is_expected(word: str) -> None:
    text = BASE.replace("term: Decode", f"term: {word}")
    assert errors(text) == [
        f"deck.yaml:12:11: error: term: YAML reads unquoted {word} as a boolean; "
        f'write "{word}" in quotes to mean the text'
    ]


def test_quoted_boolean_words_are_text() -> None:
    deck, problems = check(BASE.replace("term: Decode", 'term: "on"'))
    assert problems == []
    assert deck is not None and deck.terms[1].term == "on"


def test_boolean_word_as_a_scenario_choice() -> None:
    text = FULL.replace(
        'choices: [prefill, decode, "The network"]', "choices: [prefill, decode, off]"
    )
    assert errors(text) == [
        "deck.yaml:25:32: error: choice: YAML reads unquoted off as a boolean; "
        'write "off" in quotes to mean the text'
    ]


# -- ids ---------------------------------------------------------------------------------------

NOT_SLUG = (
    "is not a slug: use lowercase letters, digits and hyphens, starting with a letter or digit"
)


@pytest.mark.parametrize("bad", ["Demo", "my_deck", "-demo", "two words", "café"])
def test_deck_id_must_be_a_slug(bad: str) -> None:
    text = BASE.replace("id: demo", f"id: {bad}")
    assert errors(text) == [f"deck.yaml:2:5: error: deck id {bad!r} {NOT_SLUG}"]


def test_item_id_must_be_a_slug() -> None:
    text = BASE.replace("id: decode", "id: Decode_Phase")
    assert errors(text) == [f"deck.yaml:11:9: error: id 'Decode_Phase' {NOT_SLUG}"]


def test_slugs_with_digits_and_hyphens_are_fine() -> None:
    deck, problems = check(BASE.replace("id: decode", "id: 2nd-phase-b200"))
    assert problems == []
    assert deck is not None and deck.terms[1].id == "2nd-phase-b200"


def test_an_id_repeated_in_the_same_section() -> None:
    text = BASE.replace("id: decode", "id: prefill")
    assert errors(text) == [
        "deck.yaml:11:9: error: id 'prefill' is already used at line 7; ids must be unique in a deck"
    ]


def test_an_id_repeated_across_sections() -> None:
    text = with_base(
        """\
        recall:
          - id: decode
            prompt: What is decode?
            answer: Generating output tokens.
        """
    )
    assert errors(text) == [
        "deck.yaml:16:9: error: id 'decode' is already used at line 11; ids must be unique in a deck"
    ]


# -- references --------------------------------------------------------------------------------


def test_confusable_term_that_is_not_a_term_id() -> None:
    text = FULL.replace("terms: [prefill, decode]", "terms: [prefill, decod]")
    assert errors(text) == [
        "deck.yaml:17:22: error: term 'decod' is not one of the deck's term ids "
        "(did you mean 'decode'?)"
    ]


def test_confusable_needs_at_least_two_terms() -> None:
    text = FULL.replace("terms: [prefill, decode]", "terms: [prefill]")
    assert errors(text) == [
        "deck.yaml:17:12: error: a confusable group needs at least 2 terms",
    ]


def test_cue_answer_must_be_one_of_the_groups_terms() -> None:
    text = FULL.replace("answer: prefill}", "answer: prefil}")
    assert errors(text) == [
        "deck.yaml:20:55: error: cue answer 'prefil' is not one of the group's terms "
        "(did you mean 'prefill'?)"
    ]


def test_cue_answer_that_is_a_term_of_the_deck_but_not_of_the_group() -> None:
    text = BASE.replace(
        "terms:\n",
        "terms:\n  - {id: kv-cache, term: KV cache, definition: Stored keys and values.}\n",
    ) + dedent(
        """\
        confusables:
          - id: phases
            terms: [prefill, decode]
            distinction: Prompt versus reply.
            cues:
              - {text: Stores keys and values., answer: kv-cache}
        """
    )
    assert errors(text) == [
        "deck.yaml:21:49: error: cue answer 'kv-cache' is not one of the group's terms"
    ]


def test_scenario_answer_not_among_the_choices() -> None:
    text = FULL.replace("    answer: prefill\n", "    answer: The network card\n")
    assert errors(text) == [
        "deck.yaml:26:13: error: answer 'The network card' is not one of the choices "
        "(did you mean 'The network'?)"
    ]


def test_why_not_key_not_among_the_choices() -> None:
    text = FULL.replace("why_not: {decode:", "why_not: {decoding:")
    assert errors(text) == [
        "deck.yaml:28:15: error: why_not key 'decoding' is not one of the choices "
        "(did you mean 'decode'?)"
    ]


def test_why_not_on_the_right_answer() -> None:
    text = FULL.replace("why_not: {decode:", "why_not: {prefill:")
    assert errors(text) == [
        "deck.yaml:28:15: error: why_not explains 'prefill', but that is the right answer"
    ]


def test_why_not_may_explain_a_literal_choice() -> None:
    text = FULL.replace("why_not: {decode:", 'why_not: {"The network": Not a phase., decode:')
    deck, problems = check(text)
    assert problems == []
    assert deck is not None
    assert deck.scenarios[0].why_not_for("The network") == "Not a phase."


def test_item_source_not_in_the_decks_sources() -> None:
    text = BASE.replace("    sources: [vllm]\n  - id: decode", "    sources: [vlm]\n  - id: decode")
    assert errors(text) == [
        "deck.yaml:10:15: error: source 'vlm' is not in the deck's sources (did you mean 'vllm'?)"
    ]


def test_item_source_with_nothing_close_lists_the_known_keys() -> None:
    text = BASE.replace(
        "    sources: [vllm]\n  - id: decode", "    sources: [vllm, paper]\n  - id: decode"
    )
    assert errors(text) == [
        "deck.yaml:10:21: error: source 'paper' is not in the deck's sources; known keys: vllm"
    ]


def test_item_source_problems_point_at_their_own_entry() -> None:
    text = BASE.replace(
        "    sources: [vllm]\n  - id: decode", "    sources: [3, vlm]\n  - id: decode"
    )
    assert errors(text) == [
        "deck.yaml:10:15: error: each entry of sources should be text, found the number 3; "
        'quote it: "3"',
        "deck.yaml:10:18: error: source 'vlm' is not in the deck's sources (did you mean 'vllm'?)",
    ]


def test_item_source_when_the_deck_has_no_sources() -> None:
    text = "format: 1\nid: demo\ntitle: Demo\nrecall:\n  - {id: r, prompt: P?, answer: A, sources: [x]}\n"
    assert errors(text) == [
        "deck.yaml:5:46: error: source 'x' is not in the deck's sources; "
        "add it to the deck's sources"
    ]


def test_source_needs_title_and_url() -> None:
    text = BASE.replace("{title: vLLM docs, url: https://docs.vllm.ai}", "{title: vLLM docs}")
    assert errors(text) == [
        "deck.yaml:5:9: error: source 'vllm' is missing required key 'url'",
        "deck.yaml:10:15: error: source 'vllm' is not in the deck's sources; "
        "add it to the deck's sources",
        "deck.yaml:14:15: error: source 'vllm' is not in the deck's sources; "
        "add it to the deck's sources",
    ]


def test_source_url_must_be_a_link() -> None:
    text = BASE.replace("url: https://docs.vllm.ai", "url: docs.vllm.ai")
    assert errors(text) == [
        "deck.yaml:5:33: error: url of source 'vllm' should start with https:// or http://"
    ]


# -- choices written as bare slugs -------------------------------------------------------------


def test_bare_slug_choice_that_matches_no_term() -> None:
    text = FULL.replace(
        'choices: [prefill, decode, "The network"]', 'choices: [prefill, decod, "The network"]'
    )
    assert errors(text) == [
        "deck.yaml:25:24: error: choice 'decod' looks like a term id but no term has it "
        "(did you mean 'decode'?); to show it as literal text, write it with a capital letter "
        "or a space",
        "deck.yaml:28:15: error: why_not key 'decode' is not one of the choices "
        "(did you mean 'decod'?)",
    ]


def test_literal_choices_with_a_capital_or_a_space_are_text() -> None:
    text = FULL.replace('"The network"', '"network card", Bandwidth')
    deck, problems = check(text)
    assert problems == []
    assert deck is not None
    assert deck.scenarios[0].choices == ("prefill", "decode", "network card", "Bandwidth")


def test_scenario_needs_two_to_eight_choices() -> None:
    text = FULL.replace('choices: [prefill, decode, "The network"]', "choices: [prefill]")
    problems = errors(text)
    assert problems[0] == "deck.yaml:25:14: error: a scenario has 2 to 8 choices, found 1"


def test_choice_given_twice() -> None:
    text = FULL.replace('"The network"', "decode")
    assert errors(text) == ["deck.yaml:25:32: error: choice 'decode' is given twice"]


# -- calculations ------------------------------------------------------------------------------

# FULL's calculation: prompt on line 44, given on 45, answer on 46.


def test_calculation_placeholder_not_in_given() -> None:
    text = FULL.replace("at {tpot} ms", "at {tpot_ms} ms")
    assert errors(text) == [
        "deck.yaml:44:13: error: prompt placeholder {tpot_ms} is not in given "
        "(did you mean 'tpot'?)",
        "deck.yaml:44:13: error: given 'tpot' is never shown in the prompt; add {tpot} to it",
    ]


def test_calculation_prompt_with_a_broken_brace() -> None:
    text = FULL.replace("at {tpot} ms", "at {tpot ms")
    assert errors(text) == [
        "deck.yaml:44:13: error: prompt: unmatched '{' in format spec; "
        "write a literal brace as {{ or }}"
    ]


def test_calculation_answer_uses_a_name_not_in_given() -> None:
    text = FULL.replace("answer: tokens * tpot", "answer: tokens * tpot_ms")
    assert errors(text) == [
        "deck.yaml:46:13: error: answer uses 'tpot_ms', which is not in given (did you mean 'tpot'?)"
    ]


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("tokens.real * tpot", "attribute access (a.b) is not allowed; use plain arithmetic"),
        (
            "__import__('os').system('true')",
            "only these functions may be called, by their plain names: abs(...), ceil(...), floor(...), log2(...), max(...), min(...), round(...), sqrt(...)",
        ),
        (
            "open(tokens)",
            "unknown function 'open'; allowed: abs, ceil, floor, log2, max, min, round, sqrt",
        ),
        ("tokens if tpot else 0", "if/else is not allowed; use plain arithmetic"),
        ("tokens < tpot", "a comparison is not allowed; use plain arithmetic"),
        ("[tokens][0] * tpot", "indexing (a[b]) is not allowed; use plain arithmetic"),
        ("tokens * tpot and 1", "and/or is not allowed; use plain arithmetic"),
        ("tokens * tpot; 1", "not an arithmetic expression (invalid syntax)"),
    ],
)
def test_calculation_answer_beyond_plain_arithmetic(expression: str, message: str) -> None:
    text = FULL.replace("answer: tokens * tpot", f'answer: "{expression}"')
    assert errors(text) == [f"deck.yaml:46:13: error: answer: {message}"]


def test_calculation_that_divides_by_zero_for_some_given_values() -> None:
    text = FULL.replace("tokens: [100, 200]", "tokens: [100, 0]").replace(
        "answer: tokens * tpot", "answer: tpot / tokens"
    )
    assert errors(text) == [
        "deck.yaml:46:13: error: answer fails when tokens=0, tpot=10: division by zero"
    ]


def test_calculation_that_overflows_for_some_given_values() -> None:
    text = FULL.replace("tokens: [100, 200]", "tokens: [100, 1.0e+300]").replace(
        "answer: tokens * tpot", "answer: tokens ** 2 * tpot"
    )
    assert errors(text) == [
        "deck.yaml:46:13: error: answer fails when tokens=1e+300, tpot=10: the result is too large"
    ]


def test_calculation_with_a_huge_exponent() -> None:
    text = FULL.replace("answer: tokens * tpot", "answer: tokens * tpot ** 1000")
    assert errors(text) == [
        "deck.yaml:46:13: error: answer fails when tokens=100, tpot=10: exponent larger than 64"
    ]


def test_calculation_given_values_must_be_numbers() -> None:
    text = FULL.replace("tokens: [100, 200]", "tokens: [100, lots]")
    assert errors(text) == [
        "deck.yaml:45:27: error: given 'tokens' should hold numbers, found text"
    ]


def test_calculation_given_with_no_usable_value_is_one_problem() -> None:
    # The name is still in given: no second "not in given" for the prompt or the answer.
    text = FULL.replace("tokens: [100, 200]", "tokens: [lots]")
    assert errors(text) == [
        "deck.yaml:45:22: error: given 'tokens' should hold numbers, found text"
    ]


def test_calculation_given_and_tolerance_with_hundreds_of_digits() -> None:
    huge = "9" * 400
    text = FULL.replace("tokens: [100, 200]", f"tokens: [100, {huge}]")
    assert errors(text) == [
        f"deck.yaml:45:27: error: given 'tokens': {huge} is not a finite number"
    ]
    text = FULL.replace("tolerance: 5%", f"tolerance: {huge}")
    assert errors(text) == [
        'deck.yaml:48:16: error: tolerance should be a percentage such as "5%" or an absolute '
        f"number, found {huge}"
    ]


def test_calculation_given_scientific_notation_is_a_number() -> None:
    # YAML 1.1 (PyYAML) reads 1e3 as text; editors (YAML 1.2) read it as a number.
    deck, problems = check(FULL.replace("tokens: [100, 200]", "tokens: [1e3, 2E+2]"))
    assert problems == []
    assert deck is not None
    assert deck.calculations[0].given[0].options == (("1e3", 1000.0), ("2E+2", 200.0))


def test_calculation_given_name_must_be_an_identifier() -> None:
    text = FULL.replace("given: {tokens:", 'given: {"out tokens": [1], tokens:')
    assert (
        "deck.yaml:45:13: error: given name 'out tokens' should be a plain identifier such as tokens or ttft_ms"
        in errors(text)
    )


def test_calculation_bad_tolerance() -> None:
    text = FULL.replace("tolerance: 5%", "tolerance: five percent")
    assert errors(text) == [
        'deck.yaml:48:16: error: tolerance should be a percentage such as "5%" or an absolute '
        "number, found five percent"
    ]


def test_calculation_tolerance_forms() -> None:
    relative, _ = check(FULL)
    absolute, _ = check(FULL.replace("tolerance: 5%", "tolerance: 0.5"))
    default, _ = check(FULL.replace("    tolerance: 5%\n", ""))
    assert relative and absolute and default
    assert str(relative.calculations[0].tolerance) == "5%"
    assert str(absolute.calculations[0].tolerance) == "±0.5"
    assert str(default.calculations[0].tolerance) == "2%"


# -- format, empty, encoding, size ----------------------------------------------------------


@pytest.mark.parametrize(("value", "shown"), [("2", "2"), ("v1", "'v1'"), ("", "nothing")])
def test_unsupported_format(value: str, shown: str) -> None:
    text = BASE.replace("format: 1", f"format: {value}")
    col = 9 if value else 8
    assert errors(text) == [
        f"deck.yaml:1:{col}: error: unsupported format {shown}; "
        "this version of vocabgame reads format 1"
    ]


def test_quoted_format_says_to_unquote_it() -> None:
    text = BASE.replace("format: 1", "format: '1'")
    assert errors(text) == [
        "deck.yaml:1:9: error: format is the number 1, unquoted; found the text '1'"
    ]


@pytest.mark.parametrize("text", ["", "\n\n", "   \n", "# only a comment\n", "~\n", "---\n"])
def test_empty_file(text: str) -> None:
    assert errors(text) == [
        "deck.yaml: error: file is empty; a deck needs format, id, title and items"
    ]


def test_a_deck_without_items() -> None:
    text = "format: 1\nid: demo\ntitle: Demo\nterms: []\n"
    assert errors(text) == [
        "deck.yaml:1:1: error: the deck has no items; add at least one entry to terms, "
        "confusables, scenarios, recall, claims, calculations, lab_challenges"
    ]


def test_not_utf8_is_reported_at_the_bad_byte() -> None:
    data = b"format: 1\nid: demo\ntitle: Caf\xe9\n"
    with pytest.raises(DeckError) as caught:
        decode(data, "deck.yaml")
    assert [str(p) for p in caught.value.problems] == [
        "deck.yaml:3:11: error: file is not UTF-8 text (byte 0xe9); save it as UTF-8"
    ]


def test_utf8_with_a_byte_order_mark_is_fine() -> None:
    text = decode(b"\xef\xbb\xbf" + BASE.encode(), "deck.yaml")
    deck, problems = check(text)
    assert problems == [] and deck is not None


def test_file_over_the_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text(BASE, encoding="utf-8")
    assert read_text(path, max_bytes=len(BASE)) == BASE
    with pytest.raises(DeckError) as caught:
        read_text(path, max_bytes=100)
    assert [str(p) for p in caught.value.problems] == [
        f"{path}: error: file is {len(BASE):,} bytes, over the limit of 100"
    ]


def test_a_file_over_the_limit_is_refused_before_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as f:  # a sparse file: large on paper, nothing written
        f.truncate(DEFAULT_MAX_BYTES + 1)

    def never(self: Path) -> bytes:
        raise AssertionError("read a file that is over the limit")

    monkeypatch.setattr(Path, "read_bytes", never)
    with pytest.raises(DeckError) as caught:
        read_text(path)
    assert (
        str(caught.value)
        == f"{path}: error: file is 16,777,217 bytes, over the limit of 16,777,216"
    )


def test_the_default_size_limit_is_16_mb(tmp_path: Path) -> None:
    assert DEFAULT_MAX_BYTES == 16 * 1024 * 1024
    with pytest.raises(DeckError, match="over the limit of 16,777,216"):
        decode(b"#" * (DEFAULT_MAX_BYTES + 1), "deck.yaml")


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(DeckError) as caught:
        read_text(tmp_path / "nope.yaml")
    assert str(caught.value) == f"{tmp_path / 'nope.yaml'}: error: no such file"
    with pytest.raises(DeckError) as caught:
        read_text(tmp_path)
    assert str(caught.value) == f"{tmp_path}: error: is a folder, not a deck file"


def test_nul_character_means_not_a_text_file() -> None:
    assert errors(BASE + "\x00") == [
        "deck.yaml: error: file contains a NUL character; it is not a text file"
    ]


# -- hostile YAML ------------------------------------------------------------------------------


def billion_laughs(levels: int = 12) -> str:
    lines = ["format: 1", "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for n in range(1, levels):
        lines.append(f"l{n}: &l{n} [" + ", ".join([f"*l{n - 1}"] * 10) + "]")
    return "\n".join(lines) + "\n"


def test_alias_bomb_is_rejected_fast_in_bounded_memory() -> None:
    tracemalloc.start()
    try:
        deck, problems = load_text(billion_laughs(), "deck.yaml")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert deck is None
    assert [str(p) for p in problems] == [
        "deck.yaml:7:45: error: the document expands to more than 1,000,000 values "
        "(aliases that refer to aliases?)"
    ]
    assert peak < 50 * 1024 * 1024


def test_the_expansion_limit_counts_each_written_value_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # BASE holds 37 values (mappings, lists, keys and scalars), however deeply nested; a big
    # deck without aliases must not hit the limit sooner than its size says.
    monkeypatch.setattr(yamltree, "MAX_NODES", 37)
    assert check(BASE)[1] == []
    monkeypatch.setattr(yamltree, "MAX_NODES", 36)
    assert errors(BASE) == [
        "deck.yaml:14:15: error: the document expands to more than 36 values "
        "(aliases that refer to aliases?)"
    ]


def test_an_alias_counts_as_everything_it_repeats(monkeypatch: pytest.MonkeyPatch) -> None:
    text = BASE.replace(
        "    sources: [vllm]\n  - id: decode", "    sources: &src [vllm]\n  - id: decode"
    )
    text = text.replace("    sources: [vllm]\n", "    sources: *src\n")
    monkeypatch.setattr(yamltree, "MAX_NODES", 37)
    assert check(text)[1] == []
    text += "tags: [*src, *src]\n"
    # the key, the list and twice the 2 values of &src: 6 more; one short of that fails
    monkeypatch.setattr(yamltree, "MAX_NODES", 37 + 6 - 1)
    assert errors(text) == [
        "deck.yaml:15:14: error: the document expands to more than 42 values "
        "(aliases that refer to aliases?)"
    ]


def test_modest_aliases_are_allowed() -> None:
    text = BASE.replace(
        "    sources: [vllm]\n  - id: decode", "    sources: &src [vllm]\n  - id: decode"
    )
    text = text.replace("    sources: [vllm]\n", "    sources: *src\n")
    deck, problems = check(text)
    assert problems == []
    assert deck is not None and deck.terms[1].sources == ("vllm",)


def test_unknown_alias() -> None:
    text = BASE.replace("    sources: [vllm]\n", "    sources: *src\n", 1)
    assert errors(text) == ["deck.yaml:10:14: error: unknown alias *src"]


def test_absurd_flow_nesting_is_rejected() -> None:
    text = "format: 1\ntags: " + "[" * 65 + "]" * 65 + "\n"
    assert errors(text) == ["deck.yaml:2:70: error: nesting deeper than 64 levels"]


def test_absurd_block_nesting_is_rejected() -> None:
    text = "format: 1\n" + "".join("  " * n + f"k{n}:\n" for n in range(100))
    assert errors(text) == ["deck.yaml:66:129: error: nesting deeper than 64 levels"]


def test_very_deep_nesting_is_rejected_by_the_parser() -> None:
    (problem,) = errors("a: " + "[" * 200_000)
    assert problem.startswith("deck.yaml:1:")


def test_multiple_yaml_documents() -> None:
    text = BASE + "---\nformat: 1\n"
    assert errors(text) == [
        "deck.yaml:15:1: error: a deck is a single YAML document; remove the extra '---'"
    ]


def test_a_single_document_may_start_with_three_dashes() -> None:
    deck, problems = check("---\n" + BASE)
    assert problems == [] and deck is not None


@pytest.mark.parametrize(
    ("value", "tag"),
    [
        (
            "!!python/object/apply:os.system [touch PWNED]",
            "tag:yaml.org,2002:python/object/apply:os.system",
        ),
        (
            "!!python/object/new:os.system [touch PWNED]",
            "tag:yaml.org,2002:python/object/new:os.system",
        ),
        ("!!python/name:os.system ''", "tag:yaml.org,2002:python/name:os.system"),
        ("!!python/object:os.PathLike {}", "tag:yaml.org,2002:python/object:os.PathLike"),
        ("!!binary aGVsbG8=", "tag:yaml.org,2002:binary"),
        ("!!set {a, b}", "tag:yaml.org,2002:set"),
        ("!!omap [a: 1]", "tag:yaml.org,2002:omap"),
        ("!custom thing", "!custom"),
    ],
)
def test_unsupported_tags_are_rejected_and_never_run(
    value: str, tag: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    text = BASE.replace("title: Demo", f"title: {value}")
    assert errors(text) == [
        f"deck.yaml:3:8: error: unsupported YAML tag {tag!r}; decks use plain values only"
    ]
    assert list(tmp_path.iterdir()) == []


def test_merge_keys_are_not_supported() -> None:
    text = BASE.replace("  - id: decode\n", "  - <<: {tags: [x]}\n    id: decode\n")
    assert errors(text) == [
        "deck.yaml:11:5: error: merge keys (<<) are not supported; write the keys out"
    ]


def test_a_lone_equals_sign_is_text() -> None:
    deck, problems = check(BASE.replace("term: Decode", "term: ="))
    assert problems == []
    assert deck is not None and deck.terms[1].term == "="


def test_a_mapping_as_a_key() -> None:
    text = BASE + "? {a: 1}\n: b\n"
    assert errors(text) == ["deck.yaml:15:3: error: a mapping key must be plain text"]


# -- all problems in one run, and the output format ------------------------------------------


def test_every_problem_of_a_file_is_reported_in_one_run() -> None:
    text = """\
        format: 1
        id: Demo
        titel: Demo
        terms:
          - id: prefill
            term: yes
          - id: prefill
            term: Decode
            definition: 3
        scenarios:
          - id: s1
            prompt: Which?
            choices: [prefil, "Something else"]
            answer: Other
            explanation: Because.
        """
    assert errors(text) == [
        "deck.yaml:1:1: error: the deck is missing required key 'title'",
        f"deck.yaml:2:5: error: deck id 'Demo' {NOT_SLUG}",
        "deck.yaml:3:1: error: unknown key 'titel' in the deck (did you mean 'title'?)",
        "deck.yaml:5:5: error: term 'prefill' is missing required key 'definition'",
        "deck.yaml:6:11: error: term: YAML reads unquoted yes as a boolean; "
        'write "yes" in quotes to mean the text',
        "deck.yaml:7:9: error: id 'prefill' is already used at line 5; ids must be unique in a deck",
        'deck.yaml:9:17: error: definition should be text, found the number 3; quote it: "3"',
        "deck.yaml:13:15: error: choice 'prefil' looks like a term id but no term has it "
        "(did you mean 'prefill'?); to show it as literal text, write it with a capital letter "
        "or a space",
        "deck.yaml:14:13: error: answer 'Other' is not one of the choices",
    ]


def test_duplicate_keys_are_reported_with_the_other_problems() -> None:
    text = BASE.replace("title: Demo\n", "title: Demo\ntitle: Again\n").replace(
        "term: Decode", "term: no"
    )
    assert errors(text) == [
        "deck.yaml:4:1: error: duplicate key 'title' (first given at line 3); "
        "YAML would silently keep only one",
        "deck.yaml:13:11: error: term: YAML reads unquoted no as a boolean; "
        'write "no" in quotes to mean the text',
    ]


def test_problem_format_with_and_without_a_position() -> None:
    assert str(Problem("a.yaml", "oops", 3, 7)) == "a.yaml:3:7: error: oops"
    assert str(Problem("a.yaml", "oops")) == "a.yaml: error: oops"
    assert str(Problem("a.yaml", "hm", 2, 1, "warning")) == "a.yaml:2:1: warning: hm"


def test_load_deck_raises_deck_error_with_every_problem(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(BASE.replace("id: demo", "id: Demo").replace("term: Decode", "term: off"))
    with pytest.raises(DeckError) as caught:
        load_deck(path)
    assert [(p.line, p.col) for p in caught.value.problems] == [(2, 5), (12, 11)]
    assert all(p.path == str(path) for p in caught.value.problems)


# -- --strict ----------------------------------------------------------------------------------


def test_strict_warns_about_an_item_without_sources() -> None:
    text = BASE.replace("    sources: [vllm]\n", "", 1)
    deck, problems = check(text, strict=True)
    assert deck is not None
    assert problems == ["deck.yaml:7:1: warning: term 'prefill' cites no source"]
    assert check(text)[1] == []


def test_strict_warns_about_a_source_no_item_cites() -> None:
    text = BASE.replace(
        "sources:\n", "sources:\n  paper: {title: A paper, url: https://arxiv.org/abs/1}\n"
    )
    deck, problems = check(text, strict=True)
    assert deck is not None
    assert problems == ["deck.yaml:5:3: warning: source 'paper' is cited by no item"]
    assert check(text)[1] == []


# -- the example in docs/deck-format.md -------------------------------------------------------


def first_yaml_block(markdown: str) -> str:
    match = re.search(r"^```yaml\n(.*?)^```", markdown, re.S | re.M)
    assert match, "no ```yaml block"
    return match.group(1)


def test_the_complete_example_in_the_docs_validates() -> None:
    doc = (ROOT / "docs" / "deck-format.md").read_text(encoding="utf-8")
    deck, problems = load_text(first_yaml_block(doc), "docs/deck-format.md", strict=True)
    assert [str(p) for p in problems] == []
    assert deck is not None
    assert all(deck.counts().values()), "the example should show every section"


def test_terminal_escapes_in_text_are_rejected_at_their_position() -> None:
    text = 'format: 1\nid: x\ntitle: "Red \\e[31mALERT"\nclaims: [{id: c, statement: s, answer: true, explanation: e}]\n'
    assert errors(text) == [
        "deck.yaml:3:8: error: text contains the control character U+001B; deck text may not "
        "hold terminal escapes or other control characters"
    ]


def test_windows_line_endings_are_fine() -> None:
    text = (DATA / "latency-basics.yaml").read_text(encoding="utf-8").replace("\n", "\r\n")
    deck, problems = load_text(text, "deck.yaml")
    assert problems == [] and deck is not None


def test_a_tab_in_indentation_says_to_use_spaces() -> None:
    [problem] = errors("format: 1\nid: demo\ntitle: T\nterms:\n\t- id: x\n")
    assert problem.startswith("deck.yaml:5:1: error: YAML syntax error:")
    assert problem.endswith("; indent with spaces, never tabs")


def test_a_module_function_call_names_the_allowed_functions() -> None:
    text = FULL.replace("answer: tokens * tpot", "answer: math.ceil(tokens * tpot)")
    assert errors(text) == [
        "deck.yaml:46:13: error: answer: only these functions may be called, by their plain "
        "names: abs(...), ceil(...), floor(...), log2(...), max(...), min(...), round(...), "
        "sqrt(...)"
    ]


def test_reading_a_deck_keeps_nothing_of_it_in_the_reader() -> None:
    """PyYAML's constructor remembers every node it builds; a long-running game that reloads
    decks must not keep each load's numbers and positions alive."""
    from vocabgame.reading import yamltree

    text = "deck: {id: n, title: Numbers}\nvalues: [1, 2.5, true, null, 2026-01-01, '3']\n"
    for _ in range(3):
        yamltree.parse(text)
    assert not yamltree._constructor.constructed_objects


def test_no_garbage_collection_runs_while_a_deck_is_read_and_the_collector_is_back_after() -> None:
    """A big deck is read with Python's cyclic collector paused (each collection would walk
    every value read so far): at most the one collection as it resumes, where reading 3,000
    items would run dozens. It runs again afterwards, also after a deck that does not parse."""
    import gc

    terms = "\n".join(
        f"  - {{id: t{i:05d}, term: Term {i}, definition: Meaning number {i}.}}"
        for i in range(3000)
    )
    text = f"format: 1\nid: big\ntitle: Big\nterms:\n{terms}\n"
    collections: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    gc.callbacks.append(note)
    try:
        deck, problems = load_text(text, "big.yaml")
        during = list(collections)
        assert deck is not None and len(deck.terms) == 3000, problems
        assert gc.isenabled()
        load_text("terms: [unclosed\n", "broken.yaml")
        assert gc.isenabled()
        gc.collect()
    finally:
        gc.callbacks.remove(note)
    assert len(during) <= 1, during
    assert collections  # the callback does see collections once the deck is read


def test_a_decks_tree_is_freed_before_the_collector_resumes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The collection that runs as the collector resumes walks whatever the read left alive.
    Left alive, the YAML tree made it 190 ms at 50,000 items against 22 ms at 10,000, so the
    tree is freed first, strict or not: as the collector is enabled, no node is alive that
    was not before the read."""
    import gc

    from vocabgame.deck import load as deck_load
    from vocabgame.reading.node import Node

    def nodes() -> int:
        return sum(isinstance(o, Node) for o in gc.get_objects())

    seen: list[int] = []

    class Collector:
        """The gc module, counting the nodes alive whenever it is enabled again."""

        def __getattr__(self, name: str) -> object:
            return getattr(gc, name)

        def enable(self) -> None:
            seen.append(nodes())
            gc.enable()

    monkeypatch.setattr(deck_load, "gc", Collector())
    gc.collect()
    before = nodes()
    deck, problems = load_text(FULL, "deck.yaml")
    assert deck is not None, problems
    load_text(FULL, "deck.yaml", strict=True)
    assert seen == [before, before]


def test_start_here_is_a_place_in_the_newcomers_order() -> None:
    deck, problems = check(BASE.replace("title: Demo\n", "title: Demo\nstart_here: 2\n"))
    assert deck is not None and deck.start_here == 2, problems
    deck, _ = check(BASE)
    assert deck is not None and deck.start_here is None


@pytest.mark.parametrize("value", ["0", "first", '"1"', "1.5", "true", "1000"])
def test_start_here_that_is_not_a_place_is_an_error_at_its_line(value: str) -> None:
    found = errors(BASE.replace("title: Demo\n", f"title: Demo\nstart_here: {value}\n"))
    assert any(":4:13:" in p and "start_here is a whole number from 1" in p for p in found), found
