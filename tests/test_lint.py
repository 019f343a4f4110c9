"""The lint rules for test-taking tells (`vocabgame validate --strict`, vocabgame/deck/lint/).

Every rule has a case below: a small deck that leaks (the rule warns, at the exact line and
column, and nothing else does) and the same deck fixed (no warning at all, strict).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from vocabgame.cli import main
from vocabgame.deck import load_text
from vocabgame.deck.lint import RULES, stated_results, stem
from vocabgame.deck.lint.lengths import bounds

ROOT = Path(__file__).resolve().parent.parent

# A strict-clean deck of 14 lines: whatever a case appends starts at line 15.
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


def scenario(
    choices: list[str],
    answer: str,
    why_not: dict[str, str],
    prompt: str = "A reply starts late. Why?",
) -> str:
    """A scenario whose choices start on line 19, one per line at column 9; the answer follows them."""
    lines = ["scenarios:", "  - id: late", f"    prompt: {prompt}", "    choices:"]
    lines += [f"      - {json.dumps(c)}" for c in choices]
    lines += [f"    answer: {json.dumps(answer)}", "    explanation: The prompt comes first."]
    if why_not:
        lines += ["    why_not:"] + [
            f"      {json.dumps(k)}: {json.dumps(v)}" for k, v in why_not.items()
        ]
    lines += ["    sources: [vllm]"]
    return "\n".join(lines) + "\n"


def problems(text: str) -> list[str]:
    deck, found = load_text(BASE + text, "deck.yaml", strict=True)
    assert deck is not None, [str(p) for p in found]
    return [str(p) for p in found]


CLAIMS = """\
claims:
  - {id: c1, statement: Decode is always slower than prefill., answer: false, explanation: No., sources: [vllm]}
  - {id: c2, statement: Prefill never uses the KV cache., answer: false, explanation: It fills it., sources: [vllm]}
  - {id: c3, statement: Only decode reads the weights., answer: false, explanation: Both do., sources: [vllm]}
  - {id: c4, statement: Any prompt fits in one step., answer: %s, explanation: Not always., sources: [vllm]}
"""

CALCULATION = """\
calculations:
  - id: decode-time
    prompt: "{tokens} tokens at {tpot} ms each: how many ms?"
    given: {tokens: [3], tpot: [7]}
    answer: tokens * tpot
    tolerance: 2%%
    explanation: For 3 tokens at 7 ms, about %s ms.
    sources: [vllm]
"""

CUES = """\
confusables:
  - id: phases
    terms: [prefill, decode]
    distinction: Prefill reads the prompt; decode writes the reply.
    cues:
      - {text: %s, answer: prefill}
      - {text: It runs once per output token., answer: decode}
    sources: [vllm]
"""


def skewed(longest: tuple[int, ...]) -> str:
    """Ten scenarios, the `scenarios:` key on line 15: the answer is the middle choice by
    length, or the longest where `longest` says 1, and the shortest in every third."""
    lines = ["scenarios:"]
    for i, flag in enumerate(longest):
        answer = ("Abcdefghijk" if flag else "Abcdefg") if i % 3 else "Ab"
        choices = [answer, "Abcd", "Abcdefghij"]
        lines += [
            f"  - id: s{i}",
            f"    prompt: Which one, case {i}?",
            f"    choices: {json.dumps(choices)}",
            f"    answer: {answer}",
            "    explanation: It is.",
            "    why_not: {Abcd: No., Abcdefghij: No.}",
            "    sources: [vllm]",
        ]
    return "\n".join(lines) + "\n"


LONG = "The whole prompt is processed before the first token"
DUPLICATE = "Decode reads each earlier token's keys."  # nearly the claim below: ratio 0.96
READS_CLAIM = (
    'claims:\n  - {id: reads, statement: "Decode re-reads each earlier token\'s keys", '
    "answer: true, explanation: It does., sources: [vllm]}\n"
)

# rule -> (leaky deck text after BASE, the one warning it gets, the fixed deck text)
CASES: dict[str, tuple[str, str, str]] = {
    "longest-answer": (
        scenario([LONG, "Disk", "Network"], LONG, {"Disk": "Not read.", "Network": "Quick."}),
        "deck.yaml:22:13: warning: the answer (52 characters) is much longer than every other "
        "choice (at most 7); players learn to pick the longest [longest-answer]",
        scenario(
            [LONG, "Disk reads of the weights on each request", "Network transfer of the text"],
            LONG,
            {
                "Disk reads of the weights on each request": "Weights stay in memory.",
                "Network transfer of the text": "Text is small.",
            },
        ),
    ),
    "hedged-answer": (
        scenario(
            ["It usually grows with load", "It shrinks with load", "It stays flat"],
            "It usually grows with load",
            {"It shrinks with load": "No.", "It stays flat": "No."},
        ),
        "deck.yaml:22:13: warning: only the answer hedges ('usually'); players learn that the "
        "careful choice is the right one [hedged-answer]",
        scenario(
            ["It grows with load", "It shrinks with load", "It stays flat"],
            "It grows with load",
            {"It shrinks with load": "No.", "It stays flat": "No."},
        ),
    ),
    "shared-word": (
        scenario(
            ["Processing the prompt", "Generating tokens", "Moving bytes"],
            "Processing the prompt",
            {"Generating tokens": "Later.", "Moving bytes": "Quick."},
            prompt="A long prompt delays the reply. Why?",
        ),
        "deck.yaml:22:13: warning: only the answer repeats the prompt's 'prompt'; a player can "
        "match words instead of knowing [shared-word]",
        scenario(
            ["Processing the input", "Generating tokens", "Moving bytes"],
            "Processing the input",
            {"Generating tokens": "Later.", "Moving bytes": "Quick."},
            prompt="A long prompt delays the reply. Why?",
        ),
    ),
    "absolute-distractors": (
        scenario(
            ["It depends on the input", "It never changes", "It is fixed at startup"],
            "It depends on the input",
            {"It never changes": "It does.", "It is fixed at startup": "No."},
        ),
        "deck.yaml:20:9: warning: a distractor says 'never' and the answer uses no absolute "
        "word; players learn that absolute choices are wrong: say the distractor without it, or "
        "let the answer use one where that is true [absolute-distractors]",
        scenario(
            ["It depends on the input", "It stays the same", "It is fixed at startup"],
            "It depends on the input",
            {"It stays the same": "It does not.", "It is fixed at startup": "No."},
        ),
    ),
    "absolute-claims": (
        CLAIMS % "false",
        "deck.yaml:15:1: warning: 4 of the 4 claims with absolute words (always, never, only, "
        "every, all ...) are false; players learn to answer false on sight: add 2 true claims "
        "that use an absolute word, or reword 2 of these without one (e.g. 'c1' and 'c2') "
        "[absolute-claims]",
        CLAIMS % "true",
    ),
    "cue-names-term": (
        CUES % "Prefill grows with the prompt length.",
        "deck.yaml:20:16: warning: the cue names its own answer, 'Prefill' [cue-names-term]",
        CUES % "It grows with the prompt length.",
    ),
    "near-duplicate": (
        scenario([DUPLICATE, "Disk", "Network"], "Disk", {DUPLICATE: "Fast.", "Network": "Quick."})
        + READS_CLAIM,
        "deck.yaml:19:9: warning: this choice repeats the question of 'reads' (29:28) nearly "
        "word for word; a player who has seen one recognises the other [near-duplicate]",
        scenario(
            ["Decode is slow", "Disk", "Network"],
            "Disk",
            {"Decode is slow": "Fast.", "Network": "Quick."},
        )
        + READS_CLAIM,
    ),
    "missing-why-not": (
        scenario(
            ["prefill", "decode", "Network", "Disk"],
            "prefill",
            {"decode": "It starts later.", "Disk": "Not read."},
        ),
        "deck.yaml:21:9: warning: the distractor 'Network' has no why_not; say why it does not "
        "fit [missing-why-not]",
        scenario(
            ["prefill", "decode", "Network", "Disk"],
            "prefill",
            {"decode": "It starts later.", "Network": "Quick.", "Disk": "Not read."},
        ),
    ),
    "calc-tolerance": (
        CALCULATION % "20",
        "deck.yaml:21:18: warning: the explanation gives 20 as the result, but the answer is 21 "
        "and the tolerance 2% rejects 20; widen the tolerance or state the value more precisely "
        "[calc-tolerance]",
        CALCULATION % "21",
    ),
    "odd-type-choice": (
        scenario(
            ["prefill", "Reading the disk", "The network"],
            "prefill",
            {"Reading the disk": "Not read.", "The network": "Quick."},
        ),
        "deck.yaml:19:9: warning: 'Prefill' is the only term of the deck among 2 written-out "
        "choices, so the odd one out stands out; make the other choices term ids too, or write "
        "this one out like the rest [odd-type-choice]",
        scenario(
            ["Running the whole input", "Reading the disk", "The network"],
            "Running the whole input",
            {"Reading the disk": "Not read.", "The network": "Quick."},
        ),
    ),
    "answer-length-skew": (
        skewed((0,) * 10),
        "deck.yaml:15:1: warning: the answer is the strictly longest choice in 0 of 10 "
        "scenarios, where chance gives about 3.3 (odds under 2%); players learn never to pick "
        "the longest. Make the answer the longest in at least 1 more: lengthen the answer or "
        "shorten its distractors, e.g. in 's1' (4), 's2' (4), 's4' (4) (characters to change) "
        "[answer-length-skew]",
        skewed((0,) * 8 + (1, 1)),
    ),
    "cue-shares-word": (
        CUES % "Prefilling grows with the prompt length.",
        "deck.yaml:20:16: warning: the cue says 'prefilling', a word of its answer 'Prefill' "
        "that no other term of the group has; a player can match the word instead of knowing: "
        "describe it in other words [cue-shares-word]",
        CUES % "It grows with the prompt length.",
    ),
}


def test_every_rule_has_a_case_and_every_case_a_rule() -> None:
    assert sorted(CASES) == sorted(RULES)


@pytest.mark.parametrize("rule", list(CASES))
def test_a_rule_warns_at_the_offending_node_and_nowhere_else(rule: str) -> None:
    leaky, warning, _ = CASES[rule]
    assert problems(leaky) == [warning]


@pytest.mark.parametrize("rule", list(CASES))
def test_the_fixed_deck_is_quiet(rule: str) -> None:
    _, _, fixed = CASES[rule]
    assert problems(fixed) == []


@pytest.mark.parametrize("rule", list(CASES))
def test_lint_rules_run_only_with_strict(rule: str) -> None:
    leaky, _, _ = CASES[rule]
    deck, found = load_text(BASE + leaky, "deck.yaml")
    assert deck is not None and found == []


def test_cant_is_not_a_hedge() -> None:
    choices = ["It can't grow with load", "It shrinks with load", "It stays flat"]
    text = scenario(choices, choices[0], {c: "No." for c in choices[1:]})
    assert problems(text) == []
    assert problems(text.replace("can't", "can")) == [
        "deck.yaml:22:13: warning: only the answer hedges ('can'); players learn that the "
        "careful choice is the right one [hedged-answer]"
    ]


def test_a_hyphenated_name_is_not_an_absolute_word() -> None:
    choices = ["Weight-only quantization", "W8A8-FP8", "FP32 weights"]
    text = scenario(choices, "W8A8-FP8", {c: "No." for c in choices if c != "W8A8-FP8"})
    assert problems(text) == []
    assert problems(text.replace("Weight-only", "Weights only")) == [
        "deck.yaml:19:9: warning: a distractor says 'only' and the answer uses no absolute word; "
        "players learn that absolute choices are wrong: say the distractor without it, or let "
        "the answer use one where that is true [absolute-distractors]"
    ]


def test_a_choice_is_not_compared_with_its_own_prompt() -> None:
    prompt = "Which phase reads each earlier token's keys at each step?"
    choices = [prompt, "Disk", "Network"]
    text = scenario(choices, "Disk", {prompt: "No.", "Network": "No."}, prompt=prompt)
    assert problems(text) == []


# -- silencing ------------------------------------------------------------------------------------


def silenced(text: str, lint: str) -> str:
    """The deck text with a `lint:` key added to its first item (after its id line)."""
    return re.sub(
        r"(\n  - id: [a-z0-9-]+\n)", lambda m: m.group(1) + f"    lint: {lint}\n", text, count=1
    )


@pytest.mark.parametrize(
    "rule", [r for r in CASES if r not in ("absolute-claims", "cue-names-term")]
)
def test_an_item_silences_a_rule_with_a_reason(rule: str) -> None:
    leaky, _, _ = CASES[rule]
    text = silenced(leaky, f'{{ignore: [{rule}], reason: "Checked by hand; fine here."}}')
    assert problems(text) == []


def test_a_confusable_group_silences_its_cues() -> None:
    leaky, _, _ = CASES["cue-names-term"]
    text = silenced(leaky, "{ignore: [cue-names-term], reason: The name is the point here.}")
    assert problems(text) == []


def test_silencing_one_rule_leaves_the_others() -> None:
    leaky, warning, _ = CASES["missing-why-not"]
    text = silenced(leaky, "{ignore: [longest-answer], reason: Not this one.}")
    assert problems(text) == [warning.replace("deck.yaml:21:", "deck.yaml:22:")]


def test_a_claim_silenced_for_absolute_claims_leaves_the_count() -> None:
    leaky, _, _ = CASES["absolute-claims"]
    text = leaky.replace(
        "{id: c1,", "{lint: {ignore: [absolute-claims], reason: Quoted from the paper.}, id: c1,"
    ).replace(
        "{id: c2,", "{lint: {ignore: [absolute-claims], reason: Quoted from the paper.}, id: c2,"
    )
    assert problems(text) == []  # 2 claims with absolute words are left, fewer than 3


def test_three_false_absolute_claims_of_three_are_a_pattern_and_two_are_too_few() -> None:
    leaky, _, _ = CASES["absolute-claims"]
    three = leaky.split("  - {id: c4")[0]
    assert problems(three) == [
        "deck.yaml:15:1: warning: 3 of the 3 claims with absolute words (always, never, only, "
        "every, all ...) are false; players learn to answer false on sight: add 1 true claim "
        "that uses an absolute word, or reword 1 of these without one (e.g. 'c1') "
        "[absolute-claims]"
    ]
    assert problems(three.split("  - {id: c3")[0]) == []


def test_four_false_absolute_claims_of_five_are_a_pattern() -> None:
    leaky, _, _ = CASES["absolute-claims"]
    five = leaky + (
        "  - {id: c5, statement: Every reply ends with a stop token., answer: true, "
        "explanation: Or a length limit., sources: [vllm]}\n"
    )
    assert [p.split(": warning: ")[1][:40] for p in problems(five)] == [
        "4 of the 5 claims with absolute words (a"
    ]


def test_absolute_claims_that_are_nearly_all_true_are_a_pattern_too() -> None:
    _, _, fixed = CASES["absolute-claims"]
    true = fixed.replace("answer: false", "answer: true")
    assert problems(true) == [
        "deck.yaml:15:1: warning: 4 of the 4 claims with absolute words (always, never, only, "
        "every, all ...) are true; players learn to answer true on sight: add 2 false claims "
        "that use an absolute word, or reword 2 of these without one (e.g. 'c1' and 'c2') "
        "[absolute-claims]"
    ]


@pytest.mark.parametrize("word", ["every", "all", "cannot", "none", "Every", "All"])
def test_every_all_cannot_and_none_are_absolute_words(word: str) -> None:
    choices = ["It depends on the input", f"It grows {word} the same", "It is fixed at startup"]
    text = scenario(choices, choices[0], {c: "No." for c in choices[1:]})
    assert [p.rsplit(" [", 1)[1] for p in problems(text)] == ["absolute-distractors]"]


def test_all_inside_a_hyphenated_name_is_not_an_absolute_word() -> None:
    choices = ["It depends on the input", "An all-reduce per layer", "It is fixed at startup"]
    text = scenario(choices, choices[0], {c: "No." for c in choices[1:]})
    assert problems(text) == []


def test_written_out_text_among_terms_is_the_odd_type_out() -> None:
    text = scenario(
        ["prefill", "decode", "The network"],
        "prefill",
        {"decode": "It starts later.", "The network": "Quick."},
    )
    assert problems(text) == [
        "deck.yaml:21:9: warning: 'The network' is the only written-out choice among 2 terms of "
        "the deck, so the odd one out stands out; replace it with the id of a tempting term, or "
        "write every choice out [odd-type-choice]"
    ]


def test_two_choices_have_no_odd_one_out() -> None:
    text = scenario(["prefill", "The network"], "prefill", {"The network": "Quick."})
    assert problems(text) == []


@pytest.mark.parametrize(
    ("words", "stems"),
    [
        (["share", "shared", "sharing", "shares"], "shar"),
        (["batch", "batches", "batching", "batched"], "batch"),
        (["cache", "caches", "caching", "cached"], "cach"),
        (["quantize", "quantized", "quantization"], "quantiz"),
        (["parallel", "parallelism"], "parallel"),
        (["process", "processes"], "process"),
        (["status"], "status"),
    ],
)
def test_stem_matches_the_forms_of_a_word(words: list[str], stems: str) -> None:
    assert {stem(w) for w in words} == {stems}


def test_a_word_every_term_of_the_group_has_tells_nothing() -> None:
    steps = BASE.replace("term: Prefill\n", "term: Prefill step\n").replace(
        "term: Decode\n", "term: Decode step\n"
    )
    deck, found = load_text(steps + CUES % "A step that grows with the prompt.", "d.yaml", True)
    assert deck is not None and found == []
    deck, found = load_text(steps + CUES % "A prefilling step.", "d.yaml", strict=True)
    assert [p.rule for p in found] == ["cue-shares-word"]


def test_length_bounds_follow_the_chance_of_each_scenario() -> None:
    # 15 scenarios of 4 choices: none longest has odds 0.75**15 = 1.3%, one has 8%
    assert bounds([0.25] * 15)[0] == 1
    # 12 scenarios: none longest has odds 3.2%, not a pattern yet
    assert bounds([0.25] * 12)[0] == 0
    # a tied longest choice is never the answer's alone: it adds no chance
    assert bounds([0.0] * 5) == (0, 0)
    low, high = bounds([1 / 3] * 30)
    assert (low, high) == (5, 15)  # binomial(30, 1/3): P(X <= 4) = 1.2%, P(X >= 16) = 1.9%


@pytest.mark.parametrize(
    ("lint", "message"),
    [
        (
            "{ignore: [missing-why-not]}",
            "deck.yaml:17:11: error: lint is missing required key 'reason'",
        ),
        (
            '{ignore: [missing-why-not], reason: ""}',
            "deck.yaml:17:47: error: lint reason is empty",
        ),
        (
            "{ignore: [missing-why-knot], reason: Fine.}",
            "deck.yaml:17:21: error: lint ignores 'missing-why-knot', which is not a lint rule "
            "(did you mean 'missing-why-not'?)",
        ),
        (
            "{ignore: [bogus], reason: Fine.}",
            "deck.yaml:17:21: error: lint ignores 'bogus', which is not a lint rule; the rules are "
            + ", ".join(RULES),
        ),
        (
            "{ignore: [], reason: Fine.}",
            "deck.yaml:17:20: error: lint ignore lists no rule; name the rules to silence",
        ),
        (
            "[missing-why-not]",
            "deck.yaml:17:11: error: lint should be a mapping of keys to values, not a list",
        ),
    ],
)
def test_a_lint_key_needs_known_rules_and_a_reason(lint: str, message: str) -> None:
    leaky, _, _ = CASES["missing-why-not"]
    deck, found = load_text(BASE + silenced(leaky, lint), "deck.yaml")
    assert deck is None
    assert [str(p) for p in found] == [message]


# -- the calculation rule reads only the results an explanation states ------------------------------


@pytest.mark.parametrize(
    ("explanation", "results"),
    [
        ("for a = 0.8 and k = 5, (1 - 0.262) / 0.2 = 3.69 tokens.", [3.69]),
        ("32000 / (2048 - 256) = 17.9, so 18 steps.", [18.0]),
        ("2 x 32 x 8 x 128 x 2 = 131,072 bytes = 128 KiB; FP8 halves it.", [128.0]),
        ("38,400 / 37 = about 1,040 tokens/s", [1040.0]),
        ("8 GPUs at $2.50: $20 / 5.4M tokens, about $3.70 per million.", [3.7]),
        ("Bytes per token = 2 x layers x heads x dim x bytes.", []),
    ],
)
def test_stated_results(explanation: str, results: list[float]) -> None:
    assert stated_results(explanation) == results


def test_an_intermediate_step_is_not_taken_for_the_result() -> None:
    text = (CALCULATION % "21").replace("about 21 ms.", "3 x 7 = 20.6, so 21 ms.")
    assert problems(text) == []


def test_a_number_far_from_every_answer_is_not_taken_for_the_result() -> None:
    text = (CALCULATION % "21").replace("about 21 ms.", "21 ms, so about 2100 in hundredths.")
    assert problems(text) == []


# -- the command line ------------------------------------------------------------------------------


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_validate_strict_names_the_rule_of_each_warning_and_passes_the_fixed_deck(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    leaky = write(
        tmp_path / "leaky.yaml", BASE + CASES["missing-why-not"][0] + CASES["cue-names-term"][0]
    )
    assert main(["validate", "--strict", str(leaky)]) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [
        f"{leaky}:21:9: warning: the distractor 'Network' has no why_not; say why it does not "
        "fit [missing-why-not]",
        f"{leaky}:34:16: warning: the cue names its own answer, 'Prefill' [cue-names-term]",
    ]
    assert captured.err.strip() == "1 file checked: 0 errors, 2 warnings"
    assert main(["validate", str(leaky)]) == 0  # tells are warnings, and only --strict warns
    capsys.readouterr()
    fixed = write(
        tmp_path / "fixed.yaml", BASE + CASES["missing-why-not"][2] + CASES["cue-names-term"][2]
    )
    assert main(["validate", "--strict", str(fixed)]) == 0
    assert capsys.readouterr().out == ""


def test_validate_json_has_the_rule_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    leaky = write(tmp_path / "leaky.yaml", BASE + CASES["missing-why-not"][0])
    assert main(["validate", "--strict", "--format", "json", str(leaky)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["warnings"] == 1
    assert report["problems"] == [
        {
            "path": str(leaky),
            "line": 21,
            "col": 9,
            "severity": "warning",
            "message": "the distractor 'Network' has no why_not; say why it does not fit",
            "rule": "missing-why-not",
        }
    ]


def test_near_duplicates_are_found_across_the_files_validated_together(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    choice = BASE + scenario(
        [DUPLICATE, "Disk", "Network"], "Disk", {DUPLICATE: "Fast.", "Network": "Quick."}
    )
    question = BASE.replace("id: demo", "id: other") + READS_CLAIM
    first = write(tmp_path / "a.yaml", choice)
    second = write(tmp_path / "b.yaml", question)
    assert main(["validate", "--strict", str(first)]) == 0
    assert main(["validate", "--strict", str(second)]) == 0
    capsys.readouterr()
    assert main(["validate", "--strict", str(tmp_path)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{first}:19:9: warning: this choice repeats the question of 'reads' ({second}:16:28) "
        "nearly word for word; a player who has seen one recognises the other [near-duplicate]"
    ]


# -- the docs --------------------------------------------------------------------------------------


def test_every_rule_is_documented_with_an_example_and_its_fix() -> None:
    doc = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    sections = re.split(r"^### ", doc, flags=re.M)
    documented = {s.split("\n", 1)[0].strip("` "): s for s in sections[1:]}
    assert set(RULES) <= set(documented), set(RULES) - set(documented)
    for name in RULES:
        assert "```yaml" in documented[name] and "Fix" in documented[name], name


def test_the_json_schema_accepts_lint_on_every_kind_with_exactly_the_rules() -> None:
    from vocabgame.kinds import KINDS
    from vocabgame.paths import schema_path

    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    for section in KINDS:
        lint = schema["properties"][section]["items"]["properties"]["lint"]
        assert lint["required"] == ["ignore", "reason"], section
        assert lint["properties"]["ignore"]["items"]["enum"] == list(RULES), section
