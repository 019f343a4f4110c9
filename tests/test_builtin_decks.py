"""Content checks over the built-in decks (issue 4: "Minimums" and "Checks, as tests").

Every test reads the decks that ship with vocabgame and, when it fails, names the offending
deck and item ids. The calculation check recomputes every answer with formulas written here,
from each calculation's prompt and explanation; vocabgame.calc only evaluates the deck's side.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import random
import re
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import yaml

from vocabgame.cli import main
from vocabgame.deck import deck_files, load_text, read_text
from vocabgame.model import Deck, Scenario
from vocabgame.paths import builtin_decks_dir
from vocabgame.problems import Problem

from .deck_checks import expected_by_deck

DECKS_DIR = builtin_decks_dir()

MIN_TERMS = 260
MIN_CONFUSABLES = 80
MIN_CUES_PER_GROUP = 2
MIN_SCENARIOS = 200
MIN_CLAIMS = 130
MIN_CLAIM_SHARE = 0.35  # each of true and false answers at least this share of all claims
MIN_RECALL = 80
MIN_CALCULATIONS = 65
MIN_TRUE_ABSOLUTE_CLAIMS = 1 / 3  # "absolute words mean false" must not be a working trick
ABSOLUTE = re.compile(r"\b(always|never|only|every|any|all)\b", re.IGNORECASE)
MAX_LONGEST_ANSWER_SHARE = 0.40


def _load() -> tuple[list[Deck], list[Problem]]:
    """Every built-in deck, loaded strictly, and the problems found (warnings included)."""
    decks: list[Deck] = []
    problems: list[Problem] = []
    for path in deck_files([DECKS_DIR]):
        deck, found = load_text(read_text(path), str(path), strict=True)
        problems.extend(found)
        if deck is not None:
            decks.append(deck)
    return decks, problems


@pytest.fixture(scope="module")
def decks() -> list[Deck]:
    """The built-in decks; errors stop every test here, strict warnings are the first test's."""
    loaded, problems = _load()
    errors = [str(p) for p in problems if p.severity == "error"]
    assert not errors, "built-in decks fail to load:\n" + "\n".join(errors)
    return loaded


def _normalise(text: str) -> str:
    """Casefold, collapse whitespace, drop punctuation at the end."""
    return re.sub(r"[\s.,;:!?]+$", "", " ".join(text.casefold().split()))


def _where(deck: Deck, item_id: str) -> str:
    return f"{deck.id}/{item_id}"


def _listing(lines: list[str]) -> str:
    return "\n  " + "\n  ".join(lines)


# -- 1. validation --------------------------------------------------------------------------------


def test_every_builtin_deck_loads_with_no_problems_in_strict_mode() -> None:
    files = deck_files([DECKS_DIR])
    assert files, f"no deck files in {DECKS_DIR}"
    decks, problems = _load()
    assert not problems, "problems in the built-in decks:" + _listing([str(p) for p in problems])
    assert len(decks) == len(files)
    ids = [d.id for d in decks]
    assert len(set(ids)) == len(ids), f"deck ids repeat: {sorted(ids)}"


def test_validate_strict_cli_finds_no_problem_in_builtin_decks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["validate", "--strict", "--format", "json", str(DECKS_DIR)])
    report = json.loads(capsys.readouterr().out)
    assert (report["errors"], report["warnings"]) == (0, 0), (
        "validate --strict printed problems:"
        + _listing(
            [
                f"{p['path']}:{p['line']}:{p['col']}: {p['severity']}: {p['message']}"
                for p in report["problems"]
            ]
        )
    )
    assert code == 0


MAX_SILENCED_SHARE = 0.05  # items that silence a lint rule, as a share of all items


def _raw_items() -> Iterator[tuple[str, dict[str, Any]]]:
    """Every item of every built-in deck as written, with its deck id: the model keeps no
    `lint` key, so it is read from the YAML."""
    for path in deck_files([DECKS_DIR]):
        data = yaml.safe_load(read_text(path))
        for section in ("terms", "confusables", "scenarios", "recall", "claims", "calculations"):
            for item in data.get(section) or []:
                yield data["id"], item


def test_silenced_lint_rules_are_rare_and_each_has_a_reason() -> None:
    items = list(_raw_items())
    assert items, "no items read from the built-in decks"
    silenced = [(deck_id, item) for deck_id, item in items if "lint" in item]
    share = len(silenced) / len(items)
    assert share <= MAX_SILENCED_SHARE, (
        f"{len(silenced)} of {len(items)} items ({share:.1%}) silence a lint rule, more than "
        f"{MAX_SILENCED_SHARE:.0%}; fix the wording instead:"
        + _listing([f"{deck_id}/{item['id']}" for deck_id, item in silenced])
    )
    unexplained = [
        f"{deck_id}/{item['id']}"
        for deck_id, item in silenced
        if not (isinstance(item["lint"], dict) and str(item["lint"].get("reason") or "").strip())
        or not item["lint"].get("ignore")
    ]
    assert not unexplained, "items that silence lint without rules and a reason:" + _listing(
        unexplained
    )


# -- 2. minimums ----------------------------------------------------------------------------------


def test_minimum_terms_and_every_term_has_a_caveat(decks: list[Deck]) -> None:
    terms = [(d, t) for d in decks for t in d.terms]
    assert len(terms) >= MIN_TERMS, f"{len(terms)} terms, need at least {MIN_TERMS}"
    missing = [_where(d, t.id) for d, t in terms if not (t.caveat and t.caveat.strip())]
    assert not missing, "terms without a caveat:" + _listing(missing)


def test_minimum_confusable_groups_each_with_two_cues(decks: list[Deck]) -> None:
    groups = [(d, c) for d in decks for c in d.confusables]
    assert len(groups) >= MIN_CONFUSABLES, (
        f"{len(groups)} confusable groups, need at least {MIN_CONFUSABLES}"
    )
    few = [
        f"{_where(d, c.id)} has {len(c.cues)} cues"
        for d, c in groups
        if len(c.cues) < MIN_CUES_PER_GROUP
    ]
    assert not few, f"confusable groups with fewer than {MIN_CUES_PER_GROUP} cues:" + _listing(few)


def test_minimum_scenarios_each_with_a_why_not(decks: list[Deck]) -> None:
    scenarios = [(d, s) for d in decks for s in d.scenarios]
    assert len(scenarios) >= MIN_SCENARIOS, (
        f"{len(scenarios)} scenarios, need at least {MIN_SCENARIOS}"
    )
    bare = [_where(d, s.id) for d, s in scenarios if not s.why_not]
    assert not bare, "scenarios without why_not:" + _listing(bare)


def test_minimum_claims_with_true_and_false_answers_balanced(decks: list[Deck]) -> None:
    claims = [(d, c) for d in decks for c in d.claims]
    assert len(claims) >= MIN_CLAIMS, f"{len(claims)} claims, need at least {MIN_CLAIMS}"
    true = [_where(d, c.id) for d, c in claims if c.answer]
    false = [_where(d, c.id) for d, c in claims if not c.answer]
    for name, group in (("true", true), ("false", false)):
        assert len(group) >= MIN_CLAIM_SHARE * len(claims), (
            f"only {len(group)} of {len(claims)} claims are {name} "
            f"(need {MIN_CLAIM_SHARE:.0%}): {group}"
        )


def test_minimum_recall_items_each_with_key_points(decks: list[Deck]) -> None:
    recall = [(d, r) for d in decks for r in d.recall]
    assert len(recall) >= MIN_RECALL, f"{len(recall)} recall items, need at least {MIN_RECALL}"
    bare = [_where(d, r.id) for d, r in recall if not r.key_points]
    assert not bare, "recall items without key_points:" + _listing(bare)


def test_minimum_calculations(decks: list[Deck]) -> None:
    count = sum(len(d.calculations) for d in decks)
    assert count >= MIN_CALCULATIONS, f"{count} calculations, need at least {MIN_CALCULATIONS}"


# -- 3. sources -----------------------------------------------------------------------------------


def test_every_term_scenario_claim_and_calculation_cites_a_source(decks: list[Deck]) -> None:
    unsourced = [
        f"{_where(d, item.id)} ({section})"
        for d in decks
        for section in ("terms", "scenarios", "claims", "calculations")
        for item in getattr(d, section)
        if not item.sources
    ]
    assert not unsourced, "items citing no source:" + _listing(unsourced)
    unknown = [
        f"{_where(d, item.id)} cites {key!r}"
        for d in decks
        for item in d.items()
        for key in item.sources
        if key not in d.sources
    ]
    assert not unknown, "items citing a source key the deck does not define:" + _listing(unknown)


def test_every_source_url_is_https(decks: list[Deck]) -> None:
    bad = [
        f"{d.id} source {key!r}: {src.url}"
        for d in decks
        for key, src in d.sources.items()
        if not src.url.startswith("https://")
    ]
    assert not bad, "source URLs not starting with https://:" + _listing(bad)


# Names that change between releases: a vLLM or TGI metric, or a command-line flag. An item
# that teaches one says which release or date it describes, in its `version`.
VERSIONED_NAME = re.compile(r"vllm:[a-z_]+|\btgi_[a-z_]+|(?<![\w-])--[a-z][a-z0-9-]*")


def _texts(value: Any) -> Iterator[str]:
    """Every text inside an item: its fields, and the texts in its lists and mappings."""
    if isinstance(value, str):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _texts(getattr(value, f.name))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(key)
            yield from _texts(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _texts(item)


def test_items_naming_a_metric_or_flag_say_which_version_they_describe(
    decks: list[Deck],
) -> None:
    unversioned = []
    for deck in decks:
        for items in deck.sections.values():
            for item in items:
                names = sorted(
                    {m.group(0) for text in _texts(item) for m in VERSIONED_NAME.finditer(text)}
                )
                if names and not (deck.versions.get(item.id) or "").strip():
                    unversioned.append(f"{_where(deck, item.id)} names {', '.join(names)}")
    assert not unversioned, "items that name a metric or flag but have no version:" + _listing(
        unversioned
    )


# -- 4. uniqueness --------------------------------------------------------------------------------


def _clashes(entries: Iterator[tuple[str, str]]) -> list[str]:
    """(normalised text, where) pairs in; one line per text that appears more than once."""
    seen: dict[str, list[str]] = defaultdict(list)
    for text, where in entries:
        seen[_normalise(text)].append(where)
    return [f"{places}: {text!r}" for text, places in seen.items() if len(places) > 1]


def test_no_two_terms_share_a_definition(decks: list[Deck]) -> None:
    clashes = _clashes((t.definition, _where(d, t.id)) for d in decks for t in d.terms)
    assert not clashes, "terms sharing a definition:" + _listing(clashes)


def test_no_two_terms_share_a_term_name(decks: list[Deck]) -> None:
    clashes = _clashes((t.term, _where(d, t.id)) for d in decks for t in d.terms)
    assert not clashes, "terms sharing a name:" + _listing(clashes)


def _prompts(decks: list[Deck]) -> Iterator[tuple[str, str]]:
    for d in decks:
        for s in d.scenarios:
            yield s.prompt, f"{_where(d, s.id)} (scenario)"
        for r in d.recall:
            yield r.prompt, f"{_where(d, r.id)} (recall)"
        for k in d.calculations:
            yield k.prompt, f"{_where(d, k.id)} (calculation)"
        for c in d.claims:
            yield c.statement, f"{_where(d, c.id)} (claim)"
        for g in d.confusables:
            for n, cue in enumerate(g.cues, 1):
                yield cue.text, f"{_where(d, g.id)} cue {n}"


def test_no_two_items_share_a_prompt(decks: list[Deck]) -> None:
    clashes = _clashes(_prompts(decks))
    assert not clashes, "items sharing a prompt:" + _listing(clashes)


# -- 5, 6. scenarios ------------------------------------------------------------------------------


def _shown(deck: Deck, choice: str) -> str:
    """A choice as the player sees it: a term id is shown as that term's name."""
    term = deck.term(choice)
    return term.term if term is not None else choice


def _answer_is_longest(deck: Deck, scenario: Scenario) -> bool:
    longest = max(len(_shown(deck, c)) for c in scenario.choices)
    return len(_shown(deck, scenario.answer)) >= longest  # a tie counts as longest


def test_right_answer_is_the_longest_choice_in_at_most_40_percent_of_scenarios(
    decks: list[Deck],
) -> None:
    failures: list[str] = []
    total = longest_total = 0
    for d in decks:
        longest = [s.id for s in d.scenarios if _answer_is_longest(d, s)]
        total += len(d.scenarios)
        longest_total += len(longest)
        if d.scenarios and len(longest) > MAX_LONGEST_ANSWER_SHARE * len(d.scenarios):
            failures.append(
                f"{d.id}: answer longest in {len(longest)} of {len(d.scenarios)} "
                f"({len(longest) / len(d.scenarios):.0%}): {longest}"
            )
    if total and longest_total > MAX_LONGEST_ANSWER_SHARE * total:
        failures.append(
            f"all decks: answer longest in {longest_total} of {total} ({longest_total / total:.0%})"
        )
    assert not failures, (
        f"the right answer is the longest choice in more than {MAX_LONGEST_ANSWER_SHARE:.0%}:"
        + _listing(failures)
    )


def test_every_why_not_covers_exactly_the_distractors(decks: list[Deck]) -> None:
    bad = []
    for d in decks:
        for s in d.scenarios:
            distractors = set(s.choices) - {s.answer}
            keys = {k for k, _ in s.why_not}
            if keys != distractors:
                missing = sorted(distractors - keys)
                extra = sorted(keys - distractors)
                bad.append(f"{_where(d, s.id)}: missing {missing}, extra {extra}")
    assert not bad, "scenarios whose why_not does not match the distractors:" + _listing(bad)


# -- 7. calculations, recomputed independently ----------------------------------------------------

KIB_PER_GIB = 1024 * 1024

# (deck id, calculation id) -> the answer, computed from the prompt's and explanation's words.
# Argument names are the calculation's `given` names.
EXPECTED: dict[tuple[str, str], Callable[..., float]] = {
    # Prefill steps: decodes use one token each of every step's budget; the prompt gets the rest.
    ("batching-scheduling", "chunked-prefill-steps"): lambda budget, prompt, decodes: float(
        -(-prompt // (budget - decodes))
    ),
    # The batch leaves at the preferred size ((batch - 1) more arrivals) or at the max delay.
    ("batching-scheduling", "triton-batch-wait"): lambda batch, delay, gap: (
        delay if delay < (batch - 1) * gap else (batch - 1) * gap
    ),
    # Mean acceptance length = 1 + accepted / drafts, with accepted / drafts = rate * k.
    ("batching-scheduling", "spec-acceptance-length"): lambda k, rate: 1 + k * rate,
    # K and V x layers x 8 KV heads x head dim 128 x bytes per element, in KiB.
    ("kv-cache", "kv-per-token-llama3"): lambda model, precision: (
        2 * model * 8 * 128 * precision / 1024
    ),
    # KiB per token x tokens, in GiB.
    ("kv-cache", "kv-one-sequence"): lambda model, tokens: model * tokens / KIB_PER_GIB,
    # KiB per token x tokens x sequences, in GiB.
    ("kv-cache", "kv-batch"): lambda model, tokens, batch: batch * tokens * model / KIB_PER_GIB,
    # Whole sequences that fit: GiB budget over (KiB per token x tokens), rounded down.
    ("kv-cache", "kv-sequences-fit"): lambda budget, dtype, tokens: float(
        int(budget * KIB_PER_GIB) // int(dtype * tokens)
    ),
    # Whole tokens that fit: GiB budget over KiB per token, rounded down.
    ("kv-cache", "kv-token-capacity"): lambda budget, model: float(
        int(budget * KIB_PER_GIB) // int(model)
    ),
    # TPOT = (E2EL - TTFT) / (output tokens - 1).
    ("latency-throughput", "calc-tpot"): lambda e2e, ttft, out: (e2e - ttft) / (out - 1),
    # Output token throughput = total output tokens / duration.
    ("latency-throughput", "calc-output-throughput"): lambda n, avg_out, dur: n * avg_out / dur,
    # Goodput = requests meeting every SLO / duration.
    ("latency-throughput", "calc-goodput"): lambda good, dur: good / dur,
    # Tokens per second seen by one user = 1 / ITL in seconds.
    ("latency-throughput", "calc-per-user-speed"): lambda itl: 1 / (itl / 1000),
    # E2EL = TTFT + TPOT x (output tokens - 1), in seconds.
    ("latency-throughput", "calc-e2e-estimate"): lambda out, ttft, tpot: (
        ttft / 1000 + tpot / 1000 * (out - 1)
    ),
    # Billions of parameters x bytes per parameter = GB.
    ("quantization", "weight-memory"): lambda params, precision: params * precision,
    # Whole GPUs to hold the weights.
    ("quantization", "gpus-for-weights"): lambda params, precision, gpu: float(
        math.ceil(params * precision / gpu)
    ),
    # GB freed = parameters x (old - new bytes per parameter).
    ("quantization", "memory-saved"): lambda params, src, dst: params * src - params * dst,
    # Weight bits + one 16-bit scale shared by the group.
    ("quantization", "group-scale-overhead"): lambda bits, group: (bits * group + 16) / group,
    # Little's law: L = lambda x W.
    ("scaling-capacity", "littles-law-inflight"): lambda rate, latency: latency * rate,
    # Concurrency from Little's law, over the usable concurrency of one replica, rounded up.
    ("scaling-capacity", "replicas-needed"): lambda rate, latency, per_replica, util: float(
        math.ceil(rate * latency / (per_replica * util))
    ),
    # ops:byte = (TFLOPS x 1e12) / (GB/s x 1e9).
    ("scaling-capacity", "gpu-ops-byte"): lambda tflops, bw: tflops * 1e12 / (bw * 1e9),
    # A100: 312 TFLOPS / 2039 GB/s, over the operation's FLOPs per byte.
    ("scaling-capacity", "ratio-vs-intensity"): lambda op: (312e12 / 2039e9) / op,
    # Decks added later keep their formulas in tests/deck_checks/<deck id>.py.
    **expected_by_deck(),
}


def test_every_builtin_calculation_has_an_independent_check(decks: list[Deck]) -> None:
    present = {(d.id, k.id) for d in decks for k in d.calculations}
    unchecked = sorted(f"{deck}/{calc}" for deck, calc in present - EXPECTED.keys())
    assert not unchecked, (
        "calculations with no independent formula in EXPECTED (add one):" + _listing(unchecked)
    )


def test_calculation_answers_match_independent_computation_for_all_givens(
    decks: list[Deck],
) -> None:
    from vocabgame.reading import (
        calc,
    )  # only to evaluate the deck's own expression, never the expected

    wrong: list[str] = []
    for d in decks:
        for k in d.calculations:
            expected_of = EXPECTED.get((d.id, k.id))
            if expected_of is None:
                continue  # reported by the test above
            for combo in itertools.product(*(g.options for g in k.given)):
                values = {g.name: v for g, (_, v) in zip(k.given, combo, strict=True)}
                deck_answer = calc.evaluate(k.answer, values)
                expected = expected_of(**values)
                if not math.isclose(deck_answer, expected, rel_tol=1e-9):
                    wrong.append(
                        f"{_where(d, k.id)} with {values}: deck says {deck_answer!r}, "
                        f"expected {expected!r}"
                    )
    assert not wrong, "calculation answers that disagree:" + _listing(wrong)


# A drawn number must read naturally: "1 tokens", "1 KV heads" and "while 0 other requests are
# decoding" are slips. A number 1 standing alone, then at most one other word, then a word ending
# in "s" that is not a verb, unit or other non-plural; or 0 followed by "other".
_NOT_PLURAL = frozenset(
    [
        "is",
        "was",
        "has",
        "does",
        "means",
        "as",
        "us",
        "ms",
        "ns",
        "s",
        "its",
        "this",
        "thus",
        "plus",
        "minus",
        "across",
        "less",
        "flops",
        "tflops",
        "pflops",
    ]
)
_ONE_THEN_WORD = re.compile(r"(?<![\w.,])1 (?:([A-Za-z][\w-]*) )?([A-Za-z][\w-]*)\b")
_ZERO_OTHER = re.compile(r"(?<![\w.,])0 other\b", re.IGNORECASE)
RENDERED_SEEDS = 50


def _number_slips(text: str) -> list[str]:
    """The places in a rendered prompt where a drawn 0 or 1 does not fit the words around it."""
    slips = [m.group(0) for m in _ZERO_OTHER.finditer(text)]
    for m in _ONE_THEN_WORD.finditer(text):
        for word in (m.group(1), m.group(2)):
            if word is None:
                continue
            folded = word.casefold()
            if folded.endswith("s") and not folded.endswith("ss") and folded not in _NOT_PLURAL:
                slips.append(m.group(0))
                break
    return slips


@pytest.mark.parametrize(
    ("text", "slips"),
    [
        ("arrives while 0 other requests are decoding", 1),
        ("k = 1 tokens per step", 1),
        ("A model with 1 KV heads is served", 1),
        ("and 1 micro-batches are pushed through", 1),
        ("FP8 (1 byte per parameter) on 8 H200 GPUs", 0),
        ("a TPOT of 1 ms, a vLLM V1 server, 0.1 of a run, 1 GPU is busy", 0),
        ("the number of other requests already decoding is 0; any such request", 0),
    ],
)
def test_number_slip_rule_finds_what_it_names(text: str, slips: int) -> None:
    assert len(_number_slips(text)) == slips, _number_slips(text)


def test_every_rendered_calculation_prompt_reads_naturally_for_every_draw(
    decks: list[Deck],
) -> None:
    from vocabgame.kinds.calculation import CalculationKind
    from vocabgame.quiz.question import Face

    kind = CalculationKind()
    found: dict[str, set[str]] = defaultdict(set)
    for d in decks:
        for k in d.calculations:
            for seed in range(RENDERED_SEEDS):
                prompt = kind.question(d, k, Face.CALCULATION, random.Random(seed)).prompt
                for slip in _number_slips(prompt):
                    found[_where(d, k.id)].add(slip)
    assert not found, "calculation prompts where a drawn number reads wrongly:" + _listing(
        [f"{where}: {', '.join(sorted(slips))}" for where, slips in sorted(found.items())]
    )


# -- 8. the seed's knowledge checks and FAQ -------------------------------------------------------

# (deck id, recall id) -> words the prompt must contain, and words its answer must contain,
# taken from the seed learning guide's knowledge check.
SEED_RECALL: dict[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...]]] = {
    ("latency-throughput", "recall-benchmark-conditions"): (
        ("conditions", "inference benchmark"),
        (
            "model",
            "precision",
            "hardware",
            "input and output lengths",
            "concurrency",
            "batch",
            "latency target",
            "warm-up",
            "error",
        ),
    ),
    ("latency-throughput", "recall-throughput-and-latency-rise"): (
        ("throughput", "latency", "rise"),
        ("batch", "queue", "total work", "waits longer"),
    ),
    ("kv-cache", "kv-cache-tradeoff"): (
        ("kv cache", "tradeoff"),
        ("recomput", "memory", "context", "model shape", "precision", "concurrent"),
    ),
}

# (deck id, claim id) -> the statement's key words and the answer, from the seed's FAQ.
SEED_CLAIMS: dict[tuple[str, str], tuple[tuple[str, ...], bool]] = {
    ("latency-throughput", "claim-throughput-faster-user"): (
        ("higher token throughput", "always", "faster"),
        False,
    ),
    ("quantization", "quant-always-faster"): (("quantiz", "always"), False),
}


def _find(decks: list[Deck], section: str, deck_id: str, item_id: str) -> Any:
    for d in decks:
        if d.id == deck_id:
            return next((i for i in getattr(d, section) if i.id == item_id), None)
    return None


def test_seed_knowledge_checks_are_recall_items(decks: list[Deck]) -> None:
    bad: list[str] = []
    for (deck_id, item_id), (prompt_words, answer_words) in SEED_RECALL.items():
        item = _find(decks, "recall", deck_id, item_id)
        if item is None:
            bad.append(f"{deck_id}/{item_id}: no such recall item")
            continue
        prompt, answer = item.prompt.casefold(), " ".join(item.answer.casefold().split())
        if lost := [w for w in prompt_words if w not in prompt]:
            bad.append(f"{deck_id}/{item_id}: prompt lacks {lost}")
        if lost := [w for w in answer_words if w not in answer]:
            bad.append(f"{deck_id}/{item_id}: answer lacks {lost}")
        if not item.key_points:
            bad.append(f"{deck_id}/{item_id}: no key_points")
    assert not bad, "seed knowledge checks missing or changed:" + _listing(bad)


def test_seed_faq_claims_are_present_and_false(decks: list[Deck]) -> None:
    bad: list[str] = []
    for (deck_id, item_id), (words, answer) in SEED_CLAIMS.items():
        claim = _find(decks, "claims", deck_id, item_id)
        if claim is None:
            bad.append(f"{deck_id}/{item_id}: no such claim")
            continue
        if lost := [w for w in words if w not in claim.statement.casefold()]:
            bad.append(f"{deck_id}/{item_id}: statement lacks {lost}")
        if claim.answer is not answer:
            bad.append(f"{deck_id}/{item_id}: answer is {claim.answer}, expected {answer}")
    assert not bad, "seed FAQ claims missing or changed:" + _listing(bad)


# -- 9. topic coverage ----------------------------------------------------------------------------

# Key concepts from issue 4's "Cover at least": each must appear, case-insensitively, inside some
# term's name or alias. A tuple lists spellings of which any one will do.
CONCEPTS: tuple[str | tuple[str, ...], ...] = (
    # the frame
    "inference",
    "model serving",
    "benchmark",
    # latency
    "time to first token",
    "time per output token",
    "inter-token latency",
    "end-to-end",
    "queue",
    ("tail latency", "percentile"),
    ("warm-up", "warmup"),
    "cold start",
    # throughput
    "input token throughput",
    "output token throughput",
    "request throughput",
    ("per-user", "per user"),
    "goodput",
    ("SLO", "service level objective"),
    "cost per token",
    # batching
    "static batching",
    "dynamic batching",
    "continuous batching",
    ("in-flight batching", "inflight batching"),
    "preemption",
    # KV cache
    "KV cache",
    "PagedAttention",
    "prefix caching",
    ("quantized KV cache", "FP8 KV cache"),
    "offload",
    ("MQA", "multi-query"),
    ("GQA", "grouped-query"),
    "sliding",
    # quantization
    "quantization",
    "INT8",
    "INT4",
    "FP8",
    "E4M3",
    "E5M2",
    "weight-only",
    "W8A8",
    "AWQ",
    "GPTQ",
    "bitsandbytes",
    "calibration",
    # phases and limits
    "prefill",
    "decode",
    "chunked prefill",
    "token budget",
    "disaggregated",
    "memory-bound",
    "compute-bound",
    "arithmetic intensity",
    "roofline",
    # speculation, streaming, parallelism, operations
    "speculative decoding",
    "draft model",
    ("n-gram", "ngram"),
    "Medusa",
    "streaming",
    "tensor parallel",
    "pipeline parallel",
    "data parallel",
    "expert parallel",
    "backpressure",
    "capacity planning",
    "capacity reservation",
    "Little",
)


def test_terms_cover_the_key_concepts_of_issue_4(decks: list[Deck]) -> None:
    names = [n.casefold() for d in decks for t in d.terms for n in (t.term, *t.aliases)]
    missing = []
    for concept in CONCEPTS:
        spellings = (concept,) if isinstance(concept, str) else concept
        if not any(s.casefold() in name for s in spellings for name in names):
            missing.append(" / ".join(spellings))
    assert not missing, "concepts with no term or alias:" + _listing(missing)


# -- 9. no test-taking tells ----------------------------------------------------------------------


def test_at_least_a_third_of_claims_with_absolute_words_are_true(decks: list[Deck]) -> None:
    absolute = [c for d in decks for c in d.claims if ABSOLUTE.search(c.statement)]
    true = sum(c.answer for c in absolute)
    assert absolute and true >= MIN_TRUE_ABSOLUTE_CLAIMS * len(absolute), (
        f"{true} of {len(absolute)} claims with always/never/only/every/any/all are true"
    )


def test_no_cue_names_the_term_it_points_to(decks: list[Deck]) -> None:
    leaks = []
    for d in decks:
        for group in d.confusables:
            for cue in group.cues:
                term = d.term(cue.answer)
                assert term is not None
                for name in (term.term, *term.aliases):
                    if re.search(
                        rf"(?<!\w){re.escape(name.casefold())}(?!\w)", cue.text.casefold()
                    ):
                        leaks.append(f"{_where(d, group.id)}: cue names {name!r}: {cue.text}")
    assert not leaks, "cues that give their answer away:" + _listing(leaks)


# -- 10. scenario choices against chance, over every built-in scenario -------------------------
#
# Each statistic counts scenarios where one property of the choices points at the answer, and
# compares the count with what an answer placed at random among the choices gives: a scenario of
# n choices contributes a chance of 1/n (0 where the property cannot single out one choice, such
# as a tied longest length). The count must lie inside the central range of that Poisson binomial
# distribution that leaves at most 1% in each tail (CHANCE_TAIL); outside it, "pick the odd one",
# "never pick the longest" and the like beat guessing across the decks.

CHANCE_TAIL = 0.01


def _tail_bounds(chances: list[float], tail: float = CHANCE_TAIL) -> tuple[int, int]:
    """The fewest and the most hits with at least `tail` odds each, for independent trials."""
    dist = [1.0]
    for p in chances:
        dist = [a * (1 - p) + b * p for a, b in zip([*dist, 0.0], [0.0, *dist], strict=True)]
    low, below = 0, dist[0]
    while below < tail:
        low += 1
        below += dist[low]
    high, above = len(dist) - 1, dist[-1]
    while above < tail:
        high -= 1
        above += dist[high]
    return low, high


def _lengths(deck: Deck, s: Scenario) -> tuple[int, list[int]]:
    return len(_shown(deck, s.answer)), [len(_shown(deck, c)) for c in s.choices]


def _lone_term(deck: Deck, s: Scenario) -> tuple[bool, bool] | None:
    """(applies, the lone term is the answer) where exactly one choice is a term."""
    terms = [c for c in s.choices if deck.term(c) is not None]
    return (len(terms) == 1, s.answer in terms) if len(s.choices) >= 3 else None


def _lone_text(deck: Deck, s: Scenario) -> tuple[bool, bool] | None:
    texts = [c for c in s.choices if deck.term(c) is None]
    return (len(texts) == 1, s.answer in texts) if len(s.choices) >= 3 else None


def _extreme(longest: bool) -> Callable[[Deck, Scenario], tuple[bool, bool]]:
    def check(deck: Deck, s: Scenario) -> tuple[bool, bool]:
        answer, every = _lengths(deck, s)
        extreme = max(every) if longest else min(every)
        return every.count(extreme) == 1, answer == extreme and every.count(extreme) == 1

    return check


STATISTICS: dict[str, Callable[[Deck, Scenario], tuple[bool, bool] | None]] = {
    "the lone term among written-out choices is the answer": _lone_term,
    "the lone written-out choice among terms is the answer": _lone_text,
    "the answer is the strictly longest choice": _extreme(longest=True),
    "the answer is the strictly shortest choice": _extreme(longest=False),
}


@pytest.mark.parametrize("name", list(STATISTICS))
def test_scenario_choices_point_at_the_answer_only_by_chance(decks: list[Deck], name: str) -> None:
    chances: list[float] = []
    hits: list[str] = []
    for d in decks:
        for s in d.scenarios:
            found = STATISTICS[name](d, s)
            if found is None:
                continue
            applies, hit = found
            if name.startswith("the lone") and not applies:
                continue  # only scenarios with a lone odd choice count
            chances.append(1 / len(s.choices) if applies else 0.0)
            if hit:
                hits.append(_where(d, s.id))
    # No scenario with a lone odd choice is the goal, and 0 of 0 is within chance.
    assert chances or name.startswith("the lone"), f"no built-in scenario to measure for {name!r}"
    low, high = _tail_bounds(chances)
    assert low <= len(hits) <= high, (
        f"{name} in {len(hits)} of {len(chances)} scenarios; chance gives about "
        f"{sum(chances):.1f}, and {low} to {high} at odds of {CHANCE_TAIL:.0%} per tail:"
        + _listing(hits)
    )


@pytest.mark.parametrize(
    ("chances", "expected"),
    [
        ([0.25] * 20, (1, 10)),  # binomial(20, 1/4): P(X = 0) = 0.3%, P(X >= 11) = 0.4%
        ([0.0] * 4, (0, 0)),
    ],
)
def test_tail_bounds(chances: list[float], expected: tuple[int, int]) -> None:
    assert _tail_bounds(chances) == expected


# -- levels, topics and common mistakes (issue 32, "Levels and the interviewer's view") ---------


def _items(decks: list[Deck]) -> Iterator[tuple[Deck, Any]]:
    for deck in decks:
        for item in deck.items():
            yield deck, item


def test_every_builtin_item_has_a_level_and_a_topic(decks: list[Deck]) -> None:
    missing = [
        _where(deck, item.id)
        + (" (level)" if item.id not in deck.levels else "")
        + (" (topic)" if item.id not in deck.topics else "")
        for deck, item in _items(decks)
        if item.id not in deck.levels or item.id not in deck.topics
    ]
    assert not missing, f"{len(missing)} items lack a level or a topic:\n" + _listing(missing)


def test_every_topic_of_the_map_has_an_item(decks: list[Deck]) -> None:
    from vocabgame.deck.topics import topic_ids

    used = {deck.topics.get(item.id) for deck, item in _items(decks)}
    uncovered = [t for t in topic_ids() if t not in used]
    assert not uncovered, "topics with no item: " + ", ".join(uncovered)


def test_every_builtin_recall_item_has_a_common_mistake(decks: list[Deck]) -> None:
    missing = [_where(deck, r.id) for deck in decks for r in deck.recall if not r.mistake]
    assert not missing, f"{len(missing)} recall items lack a mistake:\n" + _listing(missing)


def test_every_topic_a_builtin_deck_names_is_in_the_map(decks: list[Deck]) -> None:
    """Not marked: a topic outside the map is a typo in a built-in deck, tagged or not."""
    from vocabgame.deck.topics import topic_ids

    known = set(topic_ids())
    strays = [
        f"{_where(deck, item_id)}: {topic}"
        for deck in decks
        for item_id, topic in deck.topics.items()
        if topic not in known
    ]
    assert not strays, "topics outside the map:\n" + _listing(strays)
