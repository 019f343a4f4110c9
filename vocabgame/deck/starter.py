"""The commented starter deck that `vocabgame new` writes."""

from __future__ import annotations

_STARTER = """\
# yaml-language-server: $schema={schema}
# A vocabgame deck (format 1). Full reference: docs/deck-format.md in the vocabgame sources.
# Check it with: vocabgame validate THIS_FILE
# Ids are slugs (lowercase letters, digits, hyphens), unique in the deck. Progress is kept per
# deck id + item id, so you can reword an item later without anyone losing their progress.
format: 1
id: {deck_id}
title: My deck
description: What a player learns here, in one sentence.
tags: [serving]

# Every fact cites a source: a key here, listed in the item's `sources`.
sources:
  vllm-bench:
    title: vLLM benchmark serving (calculate_metrics)
    url: https://github.com/vllm-project/vllm/blob/main/vllm/benchmarks/serve.py

# Any item may say how hard it is (level: L3 define, L4 apply, L5 trade-offs, L6 design) and
# which topic of the topic map it belongs to (docs/deck-format.md, "Levels and topics").
terms:
  - id: ttft
    level: L3
    topic: latency-metrics
    term: Time to first token
    aliases: [TTFT]
    definition: Time from sending a request until the first output token arrives.
    caveat: Says nothing about how fast the rest of the reply streams.
    sources: [vllm-bench]
  - id: tpot
    term: Time per output token
    aliases: [TPOT]
    definition: Average gap between output tokens after the first, for one request.
    caveat: An average; it hides stalls in the middle of a reply.
    sources: [vllm-bench]

# Terms that players mix up, with cues that only one of them fits.
confusables:
  - id: ttft-vs-tpot
    terms: [ttft, tpot]
    distinction: TTFT is the wait before the reply starts; TPOT is the pace once it has started.
    cues:
      - text: A long prompt makes this grow, because the whole prompt is processed first.
        answer: ttft
      - text: A reader watching the words stream in feels this one.
        answer: tpot
    sources: [vllm-bench]

# A choice is a term id of this deck (shown as the term) or literal text (with a capital or
# a space). Explain every wrong choice in why_not.
scenarios:
  - id: chat-first-words
    prompt: Users complain they stare at a blank reply for seconds. Which metric names the problem?
    choices: [ttft, tpot, "Requests per second", "Model load time"]
    answer: ttft
    explanation: The complaint is the wait before anything appears.
    why_not:
      tpot: It measures the pace after the first token, not the wait before it.
      "Requests per second": A throughput for the whole server, not one user's wait.
      "Model load time": The model loads once when the server starts, not before every reply.
    sources: [vllm-bench]

claims:
  - id: tpot-includes-first-token
    statement: TPOT includes the time to the first token.
    answer: false
    explanation: TPOT divides the time after the first token by the remaining output tokens.
    sources: [vllm-bench]

recall:
  - id: why-two-latency-metrics
    prompt: Why do serving benchmarks report TTFT and TPOT separately?
    answer: They measure different phases, prefill and decode, that different settings change.
    key_points: [TTFT covers queueing and prefill, TPOT covers decode]
    # what a weak answer says: shown after the model answer
    mistake: Says they are two measures of one speed, so one of them would do.
    sources: [vllm-bench]

# Numbers are drawn from `given`; the answer is plain arithmetic over those names.
calculations:
  - id: tpot-from-e2e
    prompt: A request took {{e2e}} ms end to end, {{ttft}} ms to the first token, and produced {{tokens}} tokens. What was its TPOT in ms?
    given: {{e2e: [2000, 4000], ttft: [200, 500], tokens: [101, 201]}}
    answer: (e2e - ttft) / (tokens - 1)
    unit: ms
    tolerance: 2%
    explanation: TPOT = (end-to-end latency - TTFT) / (output tokens - 1).
    sources: [vllm-bench]

# Predict, then see: a fresh setup from the serving lab each time (change: batch, fp8, tp or
# prompt; figure: tpot or throughput, or ttft or tpot for prompt).
lab_challenges:
  - id: double-batch-tpot
    change: batch
    figure: tpot
    sources: [vllm-bench]
"""


def starter_deck(deck_id: str, schema_uri: str) -> str:
    """A starter deck with the given id that validates as it is."""
    return _STARTER.format(deck_id=deck_id, schema=schema_uri)
